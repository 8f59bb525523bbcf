//! The simplified Guobiao Mahjong of the 2015 AI contest: 136 tiles without flowers, four seats,
//! draws, discards, chows from the previous seat, pungs, three kinds of kong, robbing an added
//! kong, wins of any shape, and the contest's 32 fans.
//!
//! The crate is pure: no I/O, no clocks, no async, and every random choice comes from a seed.
//!
//! - [`Tile`] (one of the 34 kinds) with the contest's notation (`1M..9M 1S..9S 1T..9T E S W N
//!   Z F B`), and [`Counts`], a hand as a count per kind;
//! - [`Meld`]: a declared chow, pung or kong ([`KongKind`]);
//! - [`fan`]: fan scoring of a winning hand in the contest and seed-2015 readings.

pub mod fan;
mod meld;
mod tile;

pub use fan::Reading;
pub use meld::{KongKind, Meld};

pub use tile::{Counts, Suit, TILE_KINDS, Tile, TileParseError, parse_tiles, tiles_to_string};
