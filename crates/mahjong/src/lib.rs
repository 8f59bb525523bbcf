//! The simplified Guobiao Mahjong of the 2015 AI contest: 136 tiles without flowers, four seats,
//! draws, discards, chows from the previous seat, pungs, three kinds of kong, robbing an added
//! kong, wins of any shape, and the contest's 32 fans.
//!
//! The crate is pure: no I/O, no clocks, no async, and every random choice comes from a seed.
//!
//! # The pieces
//!
//! - [`Tile`] (one of the 34 kinds) with the contest's notation (`1M..9M 1S..9S 1T..9T E S W N
//!   Z F B`), [`Counts`] (a hand as a count per kind), [`TileSet`] and [`SeatSet`];
//! - [`Meld`]: a declared chow, pung or kong ([`KongKind`]);
//! - [`Wall`] and [`Deal`]: the seeded wall of 136 and the first player; the generator is
//!   documented in [`wall`] and pinned by a test, so a logged seed replays forever;
//! - [`Game`]: one hand as a state machine. [`Game::deciders`] says whose answers are awaited,
//!   [`Game::legal_actions`] lists a seat's legal [`Action`]s into a fixed-capacity
//!   [`ActionList`], [`Game::check`] says why an answer is refused ([`IllegalAction`], naming
//!   only the seat's own tiles), and [`Game::apply`] settles all the answers to one decision
//!   together. [`Game::view`] is what one seat may see ([`View`], with [`SeenEvent`]s);
//! - [`shape`]: win detection, waits and shanten, allocation-free;
//! - [`fan`]: fan evaluation in both [`Reading`]s;
//! - [`schedule`]: the contest's 96-hand duplicate match (which deals, who sits where), and
//!   [`stats`]: a match's totals, place probabilities and intervals over its deals. Both are
//!   pure arithmetic, so a one-machine match and the matchmaker's competitions share them.
//!
//! # A hand
//!
//! ```
//! use mahjong::{ActionList, Deal, Game, Rules};
//!
//! let mut game = Game::new(&Deal::from_seed(7), Rules::default());
//! let mut legal = ActionList::new();
//! while !game.is_over() {
//!     // Every decider answers; here each takes its first legal action (a pass to a
//!     // discard, the lowest discard on a turn).
//!     let answers: Vec<_> = game
//!         .deciders()
//!         .iter()
//!         .map(|seat| {
//!             game.legal_actions(seat, &mut legal);
//!             (seat, legal[0])
//!         })
//!         .collect();
//!     game.apply(&answers).unwrap();
//! }
//! let outcome = game.outcome().unwrap();
//! assert_eq!(outcome.scores.iter().sum::<i32>(), 0);
//! ```
//!
//! # Rules as implemented
//!
//! - The first player has drawn when the hand starts; turn order is seat 0→1→2→3.
//! - On its turn the actor discards, wins on its draw, or declares a concealed kong (four in
//!   hand) or an added kong (a tile of a kind it has melded as a pung). Wins and kongs need a
//!   drawn tile: after a chow or pung the claimer just discards. A kong draws a replacement
//!   from the same wall; an added kong first asks the others whether they rob it.
//! - Every other seat answers every discard: pass, win, exposed kong, pung, or (the seat after
//!   the discarder only) a chow named by its lowest tile. The answers are settled together:
//!   a win beats a kong or pung, which beat a chow; of several winners the first after the
//!   discarder wins. A chow that loses is told ([`Event::ChowFailed`]) unless the hand ends.
//! - Any winning shape wins: no minimum fan, no furiten. A win is the standard shape, seven pairs
//!   (four of a kind may be two pairs) or thirteen orphans ([`shape`]).
//! - When a draw is needed and the wall (84 drawable tiles) is empty, the hand is drawn. So the
//!   last discard may still be won, punged or chowed (then one more discard, and the hand is
//!   drawn), and a kong on the last tile draws the hand.
//! - Scoring: base 4 plus the fan total `x`; a self-drawn win takes `x + 4` from each other
//!   seat; a win on a discard or a robbed kong takes `x + 4` from the discarder (the kong's
//!   owner) and 4 from each of the other two ([`Outcome::payments`]).

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
