//! Contest Mahjong matches: the 96-hand duplicate schedule, hands played in parallel, and the
//! statistics of a match (totals, places, intervals).

pub mod schedule;
pub mod stats;
