//! Contest Mahjong matches, under the names crates have used for them: the match itself moved
//! into `arena-games` ([`arena_games::mahjong::duplicate`]) so that the game's registered
//! commands (`arena mahjong match`) reach it without a dependency cycle; this crate re-exports
//! it with the schedule and the statistics of the rules crate.

pub use arena_games::mahjong::duplicate::{Entrant, entrant, log, run};
/// The schedule and the statistics live in the rules crate (pure arithmetic the matchmaker's
/// competitions share); re-exported so a match reads them here as before.
pub use mahjong::{schedule, stats};
pub use mahjong_bots::spec::BotSpec;
