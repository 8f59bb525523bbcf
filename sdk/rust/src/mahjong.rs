//! The 2015 contest's Mahjong (the game `mahjong`): implement [`MahjongBot`], overriding the
//! decisions it makes, and play it with [`handler()`]. Every answer is the text of one of the
//! observation's legal answers (`discard 5S`, `pung`, `chow 7M`); [`action`] turns it into the
//! action message.
//!
//! ```
//! use arena_sdk::mahjong::{self, MahjongBot};
//!
//! struct Discarder;
//!
//! impl MahjongBot for Discarder {
//!     fn turn(&mut self, obs: &mahjong::pb::Observation) -> String {
//!         let discard = obs.legal.iter().find(|a| a.starts_with("discard "));
//!         discard.map_or_else(|| "pass".into(), String::clone)
//!     }
//! }
//!
//! let games = arena_sdk::Games::new().with(mahjong::handler(|| Discarder));
//! assert_eq!(games.names(), ["mahjong"]);
//! ```

use arena_proto::v1;

use crate::handler::{self, Bot, Handler};

/// Mahjong's own messages (package `arena.mahjong.v1`): [`pb::Observation`], [`pb::Action`],
/// [`pb::Event`], [`pb::Outcome`], ….
pub use arena_proto::packages::arena::mahjong::v1 as pb;

/// The game's registered name.
pub const GAME: &str = "mahjong";

/// A Mahjong bot: one method per decision, each given the seat's observation (its concealed
/// tiles, every seat's melds and discards, the events as it saw them in `obs.events`, the legal
/// answers in `obs.legal`, …) and answering the text of one of `obs.legal`. The defaults are
/// always legal (the first legal answer on its turn, pass otherwise); or it overrides
/// [`MahjongBot::decide`] alone to see the whole request.
pub trait MahjongBot: Send + 'static {
    /// Its own turn: `discard 5S`, `self-drawn-win`, `concealed-kong E`, `added-kong 3T`.
    fn turn(&mut self, obs: &pb::Observation) -> String {
        obs.legal.first().cloned().unwrap_or_else(|| "pass".into())
    }

    /// Another seat's discard: `pass`, `win`, `pung`, `kong`, `chow 7M`.
    fn claim(&mut self, obs: &pb::Observation) -> String {
        let _ = obs;
        "pass".into()
    }

    /// Another seat's added kong: `pass` or `rob-kong`.
    fn rob_kong(&mut self, obs: &pb::Observation) -> String {
        let _ = obs;
        "pass".into()
    }

    /// The answer to `request` (one of Mahjong's decision kinds), whose observation is `obs`:
    /// by default the method of its kind's, its text read by [`action`].
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

    /// Called once the hand ended (the scores in `end.outcome`, the game's own outcome from
    /// [`outcome`], the verdicts).
    fn end(&mut self, end: &v1::TableEnd) {
        let _ = end;
    }

    /// Whether every decision takes microseconds ([`Bot::is_quick`]).
    fn is_quick(&self) -> bool {
        false
    }
}

/// Whether `kind` is one of the decisions Mahjong asks.
fn asks(kind: v1::DecisionKind) -> bool {
    use v1::DecisionKind as K;
    matches!(kind, K::Turn | K::Claim | K::RobKong)
}

/// A [`MahjongBot`] as a connection's [`Bot`] for one seat: unpacks each request's observation
/// with its events (each decoded once: the seat's events so far are kept decoded), hands it to
/// the method of its kind, and packs the answer. A request it cannot read or an answer that is
/// no Mahjong answer is answered with an empty action, which the referee judges at once, and a
/// line on stderr says why.
pub type Adapter<B> = handler::SeatAdapter<B, pb::Event>;

impl<B: MahjongBot> Bot for Adapter<B> {
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

/// The handler of Mahjong for a connection: each seat's bot made by `factory`.
pub fn handler<B, F>(factory: F) -> Handler
where
    B: MahjongBot,
    F: Fn() -> B + Send + Sync + 'static,
{
    Handler::new(GAME, move || Adapter::new(factory()))
}

/// The Mahjong observation in `request`, its events (which travel in the envelope) put back in
/// `events`. `Err` says what is wrong ([`handler::observation`]).
pub fn observation(request: &v1::DecisionRequest) -> Result<pb::Observation, String> {
    handler::observation(request, |o: &mut pb::Observation| &mut o.events)
}

/// The Mahjong outcome of a hand that ended (winner, fans, …; the scores are in
/// `end.outcome.scores`): `None` when it carries none, `Err` when it carries another game's.
pub fn outcome(end: &v1::TableEnd) -> Result<Option<pb::Outcome>, String> {
    handler::outcome(end)
}

/// The prefix of every [`pb::ActionKind`] name.
const KIND_PREFIX: &str = "ACTION_KIND_";

/// A legal answer's text (`discard 5S`, `self-drawn-win`, `chow 7M`) as the action message:
/// the word is [`pb::ActionKind`]'s name without `ACTION_KIND_`, in lower case with dashes
/// (`self-drawn-win` is `ACTION_KIND_SELF_DRAWN_WIN`), the tile after it goes in `tile`. `Err`
/// names a text that is no Mahjong answer.
pub fn action(text: &str) -> Result<pb::Action, String> {
    let text = text.trim();
    let (word, tile) = text.split_once(' ').unwrap_or((text, ""));
    kind(word)
        .map(|kind| pb::Action {
            kind: kind as i32,
            tile: tile.trim().into(),
        })
        .ok_or_else(|| {
            format!(
                "{} is not a Mahjong answer (e.g. \"discard 5S\", \"pung\", \"pass\")",
                arena_proto::text::quote(text)
            )
        })
}

/// The action kind an answer's word names, compared without building its enum name (an answer
/// is read on every decision).
fn kind(word: &str) -> Option<pb::ActionKind> {
    if word.is_empty() {
        return None;
    }
    // The kinds are numbered from 1 without gaps, as protobuf enums are appended to.
    (1..)
        .map_while(|n| pb::ActionKind::try_from(n).ok())
        .find(|k| {
            let name = k
                .as_str_name()
                .strip_prefix(KIND_PREFIX)
                .unwrap_or_default();
            name.len() == word.len()
                && name
                    .bytes()
                    .zip(word.bytes())
                    .all(|(n, w)| n == w.to_ascii_uppercase() || (n == b'_' && w == b'-'))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_answer_word_reads_as_its_action_kind_with_its_tile() {
        use pb::ActionKind as K;
        for (text, kind, tile) in [
            ("discard 5S", K::Discard, "5S"),
            ("self-drawn-win", K::SelfDrawnWin, ""),
            ("concealed-kong E", K::ConcealedKong, "E"),
            ("added-kong 3T", K::AddedKong, "3T"),
            ("pass", K::Pass, ""),
            ("win", K::Win, ""),
            ("kong", K::Kong, ""),
            ("pung", K::Pung, ""),
            ("  chow 7M ", K::Chow, "7M"),
            ("rob-kong", K::RobKong, ""),
            ("PUNG", K::Pung, ""),
        ] {
            let want = pb::Action {
                kind: kind as i32,
                tile: tile.into(),
            };
            assert_eq!(action(text), Ok(want), "{text:?}");
        }
        // The name of every kind but the unspecified one is an answer.
        let named = (1..)
            .map_while(|n| pb::ActionKind::try_from(n).ok())
            .count();
        assert_eq!(named, 10);
    }

    #[test]
    fn a_text_that_is_no_answer_is_an_error_quoting_it() {
        for text in [
            "",
            "unspecified",
            "discard5S",
            "rob kong",
            "action-kind-pass",
            "dance 5S",
        ] {
            let e = action(text).unwrap_err();
            assert!(
                e.ends_with("is not a Mahjong answer (e.g. \"discard 5S\", \"pung\", \"pass\")"),
                "{e}"
            );
        }
        let long = "x".repeat(10_000);
        assert!(action(&long).unwrap_err().len() < 200, "the quote is cut");
    }
}
