//! Chinese Standard Mahjong (the game `mcr`, the IJCAI competition's): implement [`McrBot`],
//! overriding the decisions it makes, and play it with [`handler()`]. Answers are Botzone's
//! words, exactly as the observation's legal answers list them (`PLAY W1`, `HU`, `PENG J1`,
//! `CHI W3 B9`); [`action`] turns one into the action message.
//!
//! ```
//! use arena_sdk::mcr::{self, McrBot};
//!
//! struct Discarder;
//!
//! impl McrBot for Discarder {
//!     fn turn(&mut self, obs: &mcr::pb::Observation) -> String {
//!         let win = obs.legal.iter().find(|a| *a == "HU");
//!         let play = obs.legal.iter().find(|a| a.starts_with("PLAY "));
//!         win.or(play).cloned().unwrap_or_else(|| "PASS".into())
//!     }
//! }
//!
//! let games = arena_sdk::Games::new().with(mcr::handler(|| Discarder));
//! assert_eq!(games.names(), ["mcr"]);
//! ```

use arena_proto::v1;

use crate::handler::{self, Bot, Handler};

/// Chinese Standard Mahjong's own messages (package `arena.mcr.v1`): [`pb::Observation`],
/// [`pb::Action`], [`pb::Event`], [`pb::Outcome`], ….
pub use arena_proto::packages::arena::mcr::v1 as pb;

/// The game's registered name.
pub const GAME: &str = "mcr";

/// A Chinese Standard Mahjong bot: one method per decision, each given the seat's observation
/// (its concealed hand and flowers, every seat's packs, discards and wall part, the winds, the
/// events as it saw them in `obs.events`, the legal answers in `obs.legal`) and answering one of
/// `obs.legal`. The defaults are always legal (the first legal answer on its turn, `PASS`
/// otherwise); or it overrides [`McrBot::decide`] alone to see the whole request.
pub trait McrBot: Send + 'static {
    /// Its own turn, after its draw: `PLAY t`, `HU`, `GANG t`, `BUGANG t`.
    fn turn(&mut self, obs: &pb::Observation) -> String {
        obs.legal.first().cloned().unwrap_or_else(|| "PASS".into())
    }

    /// Another seat's discard: `PASS`, `HU`, `GANG`, `PENG t`, `CHI m t`.
    fn claim(&mut self, obs: &pb::Observation) -> String {
        let _ = obs;
        "PASS".into()
    }

    /// Another seat's added kong: `PASS` or `HU` (robbing it).
    fn rob_kong(&mut self, obs: &pb::Observation) -> String {
        let _ = obs;
        "PASS".into()
    }

    /// The answer to `request`, whose observation is `obs`: by default the method of its
    /// kind's, its text read by [`action`].
    fn decide(
        &mut self,
        request: &v1::DecisionRequest,
        obs: &pb::Observation,
    ) -> Result<pb::Action, String> {
        let text = match request.kind() {
            v1::DecisionKind::Claim => self.claim(obs),
            v1::DecisionKind::RobKong => self.rob_kong(obs),
            _ => self.turn(obs),
        };
        action(&text)
    }

    /// Called once the hand ended (the scores in `end.outcome`, the game's own outcome with
    /// its fans from [`outcome`], the verdicts).
    fn end(&mut self, end: &v1::TableEnd) {
        let _ = end;
    }

    /// Whether every decision takes microseconds ([`Bot::is_quick`]).
    fn is_quick(&self) -> bool {
        false
    }
}

/// Whether `kind` is one of the decisions Chinese Standard Mahjong asks.
fn asks(kind: v1::DecisionKind) -> bool {
    use v1::DecisionKind as K;
    matches!(kind, K::Turn | K::Claim | K::RobKong)
}

/// A [`McrBot`] as a connection's [`Bot`] for one seat (see [`handler::SeatAdapter`]): a
/// request it cannot read or an answer that is no answer is answered with an empty action,
/// which the referee judges at once, and a line on stderr says why.
pub type Adapter<B> = handler::SeatAdapter<B, pb::Event>;

impl<B: McrBot> Bot for Adapter<B> {
    fn decide(&mut self, request: &v1::DecisionRequest) -> v1::Action {
        let handler::SeatAdapter { bot, events } = self;
        handler::answer(request, GAME, asks(request.kind()), || {
            handler::observe(
                events,
                request,
                |o: &mut pb::Observation| &mut o.events,
                |obs| {
                    bot.decide(request, obs)
                        .map_err(|e| format!("{}: {e}", handler::place(request)))
                },
            )
        })
    }

    fn end(&mut self, end: &v1::TableEnd) {
        self.bot.end(end);
    }

    fn is_quick(&self) -> bool {
        self.bot.is_quick()
    }
}

/// The handler of Chinese Standard Mahjong for a connection: each seat's bot made by `factory`.
pub fn handler<B, F>(factory: F) -> Handler
where
    B: McrBot,
    F: Fn() -> B + Send + Sync + 'static,
{
    Handler::new(GAME, move || Adapter::new(factory()))
}

/// The observation in `request`, its events (which travel in the envelope) put back in
/// `events`. `Err` says what is wrong ([`handler::observation`]).
pub fn observation(request: &v1::DecisionRequest) -> Result<pb::Observation, String> {
    handler::observation(request, |o: &mut pb::Observation| &mut o.events)
}

/// The outcome of a hand that ended (winner, fans with their names and points; the scores are
/// in `end.outcome.scores`): `None` when it carries none, `Err` when it carries another game's.
pub fn outcome(end: &v1::TableEnd) -> Result<Option<pb::Outcome>, String> {
    handler::outcome(end)
}

/// An answer's first word and how many tiles may follow it.
const WORDS: &[(&str, &[usize])] = &[
    ("PASS", &[0]),
    ("HU", &[0]),
    ("PLAY", &[1]),
    ("GANG", &[0, 1]),
    ("BUGANG", &[1]),
    ("PENG", &[1]),
    ("CHI", &[2]),
];

/// An answer in Botzone's words as the action message, its spacing made single. Only its shape
/// is checked here (the table checks it is legal); `Err` quotes a text that is no answer.
pub fn action(text: &str) -> Result<pb::Action, String> {
    let mut words = text.split_whitespace();
    let head = words.next().unwrap_or_default();
    let tiles: Vec<&str> = words.by_ref().take(3).collect();
    let fits = WORDS
        .iter()
        .any(|(word, counts)| *word == head && counts.contains(&tiles.len()));
    if !fits {
        return Err(format!(
            "{} is not an answer: PASS, HU, PLAY t, GANG t, BUGANG t, GANG, PENG t or CHI m t",
            arena_proto::text::quote(text.trim())
        ));
    }
    let mut answer = String::with_capacity(text.len());
    answer.push_str(head);
    for t in tiles {
        answer.push(' ');
        answer.push_str(t);
    }
    Ok(pb::Action { answer })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_botzone_answer_reads_as_itself_with_single_spaces() {
        for (text, want) in [
            ("PASS", "PASS"),
            ("HU", "HU"),
            ("PLAY W1", "PLAY W1"),
            ("GANG F2", "GANG F2"),
            ("GANG", "GANG"),
            ("BUGANG T5", "BUGANG T5"),
            (" PENG  J1 ", "PENG J1"),
            ("CHI W3 B9", "CHI W3 B9"),
        ] {
            assert_eq!(
                action(text),
                Ok(pb::Action {
                    answer: want.into()
                })
            );
        }
    }

    #[test]
    fn a_text_that_is_no_answer_is_an_error_quoting_it() {
        for text in [
            "",
            "pass",
            "PLAY",
            "CHI W3",
            "HU W1",
            "GANG W1 W2",
            "DISCARD W1",
            "PLAYW1",
        ] {
            let e = action(text).unwrap_err();
            assert!(e.contains("is not an answer: PASS, HU, PLAY t"), "{e}");
        }
        let long = "PLAY ".repeat(10_000);
        assert!(action(&long).unwrap_err().len() < 300, "the quote is cut");
    }
}
