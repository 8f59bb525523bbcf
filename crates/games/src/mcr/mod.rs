//! Chinese Standard Mahjong (MCR, 国标麻将, the IJCAI Mahjong AI competition's game): everything
//! the game-neutral platform needs to play it.
//!
//! - [`table`]: [`McrTable`], the game as an [`arena_table::TableGame`] on [`rules::Game`]
//!   (after a discard or an added kong every seat with a choice decides at once), and
//!   [`McrBot`], a built-in bot as an [`arena_table::LocalPlayer`];
//! - [`spec`]: a job's set-up (`job.mcr`: wall, prevalent wind, flowers, fault policy),
//!   checked; [`bots`]: the built-in bot names, and built-in bots deciding requests from the
//!   wire;
//! - [`convert`]: rules types to protocol messages and answers back; [`request`]: a decision
//!   request read back into a hand the seat could be playing (for the bots bot-host runs);
//! - [`program`]: the game's line protocol (Botzone's per-turn request lines) as an
//!   [`arena_line::ProgramProtocol`], for program bots;
//! - [`botzone`]: the game's Botzone grammar, for Botzone's bots (protocols `botzone` and
//!   `botzone-simpleio`);
//! - [`game`]: [`Mcr`], the registration;
//! - [`ijcai`]: the IJCAI competition's duplicate format (24 seatings per wall, rank points,
//!   Swiss pairing), pure; [`competition`]: IJCAI competitions through the services;
//!   [`library`]: walls in the deal library (imported, unmeasured), the game's difficulty hook;
//!   [`commands`]: `arena mcr …`, the game's commands on the command line.

pub mod bots;
pub mod botzone;
pub mod commands;
pub mod competition;
pub mod convert;
pub mod game;
pub mod ijcai;
pub mod library;
pub mod program;
pub mod request;
pub mod spec;
pub mod table;

/// The Chinese Standard Mahjong rules engine, for crates that reach the game only through
/// `arena-games`.
pub use ::mcr as rules;
/// The game's own wire messages (package `arena.mcr.v1`), which the `arena.v1` envelopes carry.
pub use arena_proto::packages::arena::mcr::v1 as pb;
pub use game::{GAME, Mcr};
/// The built-in bots.
pub use mcr_bots as builtin;
pub use spec::McrSpec;
pub use table::{McrBot, McrTable};
