//! Built-in Dou Dizhu bots and the in-process runner that plays them against each other.
//!
//! Every bot implements [`Bot`]: it decides bids, doubles and plays from a seat's
//! [`Observation`] alone, so it never sees hidden cards. Bots are deterministic given the seed
//! passed to [`Bot::new_game`].

pub mod eval;
mod ladder;
pub mod policy;
mod random;
mod rule;
pub mod runner;
mod search;
mod spec;

pub use ladder::{LadderBot, MAX_LEVELS};
pub use random::RandomBot;
pub use rule::{RuleBot, bid_points, points_to_bid};
pub use search::{MAX_CANDIDATES, MAX_ROLLOUTS, MAX_SAMPLES, SearchBot, SearchConfig};
pub use spec::BotSpec;

use ddz::{Move, MoveList, Observation};

/// A Dou Dizhu player.
///
/// The runner calls [`Bot::new_game`] before each game, then one decision method per turn. Every
/// answer must be legal; the runner checks it and treats an illegal answer as the bot's fault.
pub trait Bot: Send {
    /// The bot's name, including its parameters (e.g. `search:rollouts=200`).
    fn name(&self) -> String;

    /// Called before every game with a seed for any randomness the bot uses.
    fn new_game(&mut self, seed: u64);

    /// A bid: 0 (no call) or more than `obs.bid`, at most 3.
    fn bid(&mut self, obs: &Observation<'_>) -> u8;

    /// Whether to double (farmer) or redouble (landlord, only asked after a farmer doubled).
    fn double(&mut self, obs: &Observation<'_>) -> bool;

    /// A play chosen from `legal`, the legal moves for this seat (pass first when following).
    fn play(&mut self, obs: &Observation<'_>, legal: &MoveList) -> Move;

    /// Called for every seat once the game is over; `obs.events` ends with the outcome.
    fn end_game(&mut self, _obs: &Observation<'_>) {}

    /// Faults of the program behind this bot since the last call (crashes, timeouts, garbage,
    /// illegal moves). Built-in bots never fault.
    fn take_verdicts(&mut self) -> Vec<Verdict> {
        Vec::new()
    }
}

/// What went wrong with a bot program: the one verdict-kind type of every game.
pub use arena_verdict::VerdictKind;

/// A recorded fault: what happened, and a sentence a human can act on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Verdict {
    /// The kind of fault.
    pub kind: VerdictKind,
    /// What exactly happened, e.g. `answered "play 3X" to a play request: unknown card 'X'`.
    pub reason: String,
}

impl<B: Bot + ?Sized> Bot for Box<B> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn new_game(&mut self, seed: u64) {
        (**self).new_game(seed)
    }
    fn bid(&mut self, obs: &Observation<'_>) -> u8 {
        (**self).bid(obs)
    }
    fn double(&mut self, obs: &Observation<'_>) -> bool {
        (**self).double(obs)
    }
    fn play(&mut self, obs: &Observation<'_>, legal: &MoveList) -> Move {
        (**self).play(obs, legal)
    }
    fn end_game(&mut self, obs: &Observation<'_>) {
        (**self).end_game(obs)
    }
    fn take_verdicts(&mut self) -> Vec<Verdict> {
        (**self).take_verdicts()
    }
}

/// A small fast seeded generator for bots' own randomness (ChaCha8, keyed like deals).
pub type BotRng = ddz::DealRng;
