//! Dou Dizhu (the game `ddz`): implement [`DdzBot`], overriding the decisions it makes, and
//! play it with [`handler()`].
//!
//! ```
//! use arena_sdk::ddz::{self, DdzBot};
//!
//! struct Smallest;
//!
//! impl DdzBot for Smallest {
//!     fn play(&mut self, obs: &ddz::pb::Observation) -> String {
//!         let play = obs.legal.iter().find(|m| *m != "pass");
//!         play.map_or_else(|| "pass".into(), String::clone)
//!     }
//! }
//!
//! let games: arena_sdk::Games = ddz::handler(|| Smallest).into();
//! assert_eq!(games.names(), ["ddz"]);
//! ```

use arena_proto::v1;

use crate::handler::{self, Bot, Handler};

/// Dou Dizhu's own messages (package `arena.ddz.v1`): [`pb::Observation`], [`pb::Action`],
/// [`pb::Event`], [`pb::Outcome`], ….
pub use arena_proto::packages::arena::ddz::v1 as pb;

/// The game's registered name.
pub const GAME: &str = "ddz";

/// A Dou Dizhu bot: one method per decision, each given the seat's observation (its hand, the
/// phase, every event so far in `obs.events`, the legal answers in `obs.legal`, …). Every
/// method has a default that is always legal (no call, no double, the first legal play), so a
/// bot overrides only what it decides itself; or it overrides [`DdzBot::decide`] alone to see
/// the whole request.
pub trait DdzBot: Send + 'static {
    /// The call: 0 (no call) or more than the highest call so far, at most 3.
    fn bid(&mut self, obs: &pb::Observation) -> u32 {
        let _ = obs;
        0
    }

    /// Whether a farmer doubles.
    fn double(&mut self, obs: &pb::Observation) -> bool {
        let _ = obs;
        false
    }

    /// Whether the landlord redoubles (asked only after a farmer doubled).
    fn redouble(&mut self, obs: &pb::Observation) -> bool {
        let _ = obs;
        false
    }

    /// The play: one of `obs.legal` (cards such as `33344455`, or `pass`).
    fn play(&mut self, obs: &pb::Observation) -> String {
        obs.legal.first().cloned().unwrap_or_else(|| "pass".into())
    }

    /// The answer to `request` (one of Dou Dizhu's decision kinds), whose observation is
    /// `obs`: by default the method of its kind's.
    fn decide(&mut self, request: &v1::DecisionRequest, obs: &pb::Observation) -> pb::Action {
        use pb::action::Action;
        let action = match request.kind() {
            v1::DecisionKind::Bid => Action::Bid(self.bid(obs)),
            v1::DecisionKind::Double => Action::Double(self.double(obs)),
            v1::DecisionKind::Redouble => Action::Double(self.redouble(obs)),
            _ => Action::Play(self.play(obs)),
        };
        pb::Action {
            action: Some(action),
        }
    }

    /// Called once the table ended (the scores in `end.outcome`, the game's own outcome from
    /// [`outcome`], the verdicts).
    fn end(&mut self, end: &v1::TableEnd) {
        let _ = end;
    }

    /// Whether every decision takes microseconds ([`Bot::is_quick`]).
    fn is_quick(&self) -> bool {
        false
    }
}

/// Whether `kind` is one of the decisions Dou Dizhu asks.
fn asks(kind: v1::DecisionKind) -> bool {
    use v1::DecisionKind as K;
    matches!(kind, K::Bid | K::Double | K::Redouble | K::Play)
}

/// A [`DdzBot`] as a connection's [`Bot`] for one seat: unpacks each request's observation
/// with its events (each decoded once: the seat's events so far are kept decoded), hands it to
/// the method of its kind, and packs the answer. A request it cannot read (another game's
/// observation, a decision Dou Dizhu does not ask) is answered with an empty action, which the
/// referee judges at once, and a line on stderr says why.
pub type Adapter<B> = handler::SeatAdapter<B, pb::Event>;

impl<B: DdzBot> Bot for Adapter<B> {
    fn decide(&mut self, request: &v1::DecisionRequest) -> v1::Action {
        let handler::SeatAdapter { bot, events } = self;
        handler::answer(request, GAME, asks(request.kind()), || {
            handler::observe(
                events,
                request,
                |o: &mut pb::Observation| &mut o.events,
                |obs| Ok(bot.decide(request, obs)),
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

/// The handler of Dou Dizhu for a connection: each seat's bot made by `factory`.
pub fn handler<B, F>(factory: F) -> Handler
where
    B: DdzBot,
    F: Fn() -> B + Send + Sync + 'static,
{
    Handler::new(GAME, move || Adapter::new(factory()))
}

/// The Dou Dizhu observation in `request`, its events (which travel in the envelope) put back
/// in `events`. `Err` says what is wrong ([`handler::observation`]).
pub fn observation(request: &v1::DecisionRequest) -> Result<pb::Observation, String> {
    handler::observation(request, |o: &mut pb::Observation| &mut o.events)
}

/// The Dou Dizhu outcome of a table that ended (landlord, bombs, spring, …; the scores are in
/// `end.outcome.scores`): `None` when it carries none, `Err` when it carries another game's.
pub fn outcome(end: &v1::TableEnd) -> Result<Option<pb::Outcome>, String> {
    handler::outcome(end)
}
