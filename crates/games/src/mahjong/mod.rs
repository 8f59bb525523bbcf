//! Contest Mahjong: everything the game-neutral platform needs to play it.
//!
//! - [`table`]: [`MahjongTable`], the game as an [`arena_table::TableGame`] on [`rules::Game`]
//!   (each seat's view is a [`rules::View`]: its own concealed tiles and public information;
//!   after a discard the three other seats decide at once), and [`MahjongBot`], a built-in bot
//!   as an [`arena_table::LocalPlayer`];
//! - [`spec`]: a job's Mahjong set-up (wall, first seat, fan reading), checked; [`bots`]: the
//!   built-in bot names, and built-in bots deciding requests from the wire;
//! - [`convert`]: rules types to protocol messages and answers back; [`request`]: a decision
//!   request read back into the seat's view (for the bots bot-host runs itself); [`replay`]: a
//!   table's replay played again into the rules' record of the hand (for the 2015 log format);
//! - [`program`]: the line protocol as an [`arena_line::ProgramProtocol`], for program bots;
//! - [`duplicate`]: the contest's 96-hand duplicate match among four bots, played in parallel
//!   and logged; [`commands`]: `arena mahjong …`, the game's commands on the command line.

pub mod bots;
pub mod commands;
pub mod competition;
pub mod convert;
pub mod duplicate;
pub mod game;
pub mod program;
pub mod replay;
pub mod request;
pub mod spec;
pub mod table;

/// The Mahjong rules engine, for crates that reach the game only through `arena-games`.
pub use ::mahjong as rules;
/// Mahjong's own wire messages (package `arena.mahjong.v1`), which the `arena.v1` envelopes
/// carry.
pub use arena_proto::packages::arena::mahjong::v1 as pb;
pub use game::{GAME, Mahjong};
/// The built-in Mahjong bots.
pub use mahjong_bots as builtin;
pub use spec::MahjongSpec;
pub use table::{MahjongBot, MahjongTable};
