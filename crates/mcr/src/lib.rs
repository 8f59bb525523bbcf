//! Chinese Standard Mahjong (MCR, 国标麻将, the Chinese Official rules) as Botzone's judge plays
//! it: tiles in Botzone's notation, the wall of 144 (or 136) split into four quarters, a game
//! state machine with every decision and its legal answers, all 81 fans with their exclusion
//! principles as the fan library `MahjongGB` computes them, and shanten.
//!
//! The crate is pure: no I/O, no clocks, no async; every random choice comes from a seed.
//! `docs/mcr-engine.md` describes the rules as implemented.
//!
//! # The pieces
//!
//! - [`Tile`] (34 kinds, `W1-9 T1-9 B1-9 F1-4 J1-3`), [`Flower`] (`H1-8`), [`WallTile`], the
//!   parser ([`parse_tiles`], [`TileParseError`]) and [`Counts`];
//! - [`Pack`]: a declared chow, pung or kong, with its `offer` as the judge records it;
//! - [`fan`]: [`fan::evaluate`] scores a [`fan::WinningHand`] into a [`fan::Scored`];
//! - [`shape`]: complete hands, waits, shanten;
//! - [`Wall`]: seeded or given as Botzone's `walltiles`;
//! - [`Game`]: one hand as a state machine ([`Game::deciders`], [`Game::legal_actions`],
//!   [`Game::apply`]), scored as the judge scores it, with a [`FaultPolicy`] for bots' faults.
//!
//! # A hand
//!
//! ```
//! use mcr::wall::Deal;
//! use mcr::{Action, Game};
//!
//! let mut game = Game::new(&Deal::from_seed(7));
//! while !game.is_over() {
//!     // Every decider answers: a win when offered, else its first legal answer.
//!     let answers: Vec<(u8, Action)> = game
//!         .deciders()
//!         .map(|seat| {
//!             let legal = game.legal(seat);
//!             let win = legal.contains(&Action::Win);
//!             (seat, if win { Action::Win } else { legal[0] })
//!         })
//!         .collect();
//!     game.apply(&answers).unwrap();
//! }
//! let outcome = game.outcome().unwrap();
//! assert_eq!(outcome.scores.iter().sum::<i32>(), 0);
//! ```

pub mod fan;
pub mod game;
mod pack;
pub mod shape;
mod tile;
pub mod wall;

pub use game::{
    Action, ActionList, Decision, Event, FaultPolicy, Game, IllegalAction, Outcome, Phase,
    Position, View, WinInfo,
};
pub use pack::{Pack, PackKind};
pub use tile::{
    Counts, FLOWERS, Flower, Suit, TILE_KINDS, Tile, TileParseError, WallTile, Wind, counts_of,
    parse_tiles, tiles_of, tiles_to_string,
};
pub use wall::{Wall, WallError};
