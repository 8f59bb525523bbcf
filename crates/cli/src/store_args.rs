//! Choosing a store from the command line: shared with the games' commands, which live in
//! `arena-games` ([`arena_games::commands::store`]).

pub use arena_games::commands::store::{StoreArgs, runtime};
