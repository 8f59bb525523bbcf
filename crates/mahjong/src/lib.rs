//! The simplified Guobiao Mahjong of the 2015 AI contest: 136 tiles without flowers, four seats,
//! draws, discards, chows from the previous seat, pungs, three kinds of kong, robbing an added
//! kong, wins of any shape, and the contest's 32 fans.
//!
//! The crate is pure: no I/O, no clocks, no async, and every random choice comes from a seed.
//!
//! - [`Tile`] (one of the 34 kinds) with the contest's notation (`1M..9M 1S..9S 1T..9T E S W N
//!   Z F B`), and [`Counts`], a hand as a count per kind;
//! - [`Meld`]: a declared chow, pung or kong ([`KongKind`]);
//! - [`Wall`] and [`Deal`]: the seeded wall of 136 and the first player (generator documented in
//!   [`wall`]);
//! - [`Game`]: the hand as a state machine ([`Phase`], [`Action`], [`Event`]), with a seat's
//!   [`View`];
//! - [`shape`]: win detection, waits and shanten;
//! - [`fan`]: fan evaluation in both [`Reading`]s;
//! - [`schedule`]: the contest's 96-hand duplicate match (which deals, who sits where), and
//!   [`stats`]: a match's totals, place probabilities and intervals over its deals. Both are
//!   pure arithmetic, so a one-machine match and the matchmaker's competitions share them.

pub mod action;
pub mod fan;
pub mod game;
mod meld;
pub mod rules;
pub mod schedule;
mod sets;
pub mod shape;
pub mod stats;
mod tile;
pub mod wall;

pub use action::{Action, ActionList, MAX_ACTIONS};
pub use game::{
    BASE_POINTS, Decision, Discarded, Event, Game, Illegal, IllegalAction, Outcome, Phase,
    SeenEvent, View, WinInfo, add_meld_tiles, check_for, legal_actions_for,
};
pub use meld::{KongKind, Meld, MeldParseError};
pub use rules::{Reading, Rules, UnknownReading};
pub use sets::{SeatSet, TileSet};
pub use tile::{Counts, Suit, TILE_KINDS, Tile, TileParseError, parse_tiles, tiles_to_string};
pub use wall::{DRAWABLE_TILES, Deal, Wall, WallError};
