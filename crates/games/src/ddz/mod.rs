//! Dou Dizhu: everything the game-neutral platform needs to play it.
//!
//! - [`table`]: [`DdzTable`], the game as an [`arena_table::TableGame`] on [`rules::Game`]
//!   (each seat's view is a [`rules::Observation`]: its own hand and public information), and
//!   [`DdzBot`], a built-in bot as an [`arena_table::LocalPlayer`];
//! - [`spec`]: a job's Dou Dizhu set-up, checked; [`bots`]: the built-in bot names, and built-in
//!   bots deciding requests from the wire;
//! - [`convert`]: rules types to protocol messages (and actions back), [`request`]: a decision
//!   request back into the rules engine's types; [`names`]: the protocol's typed phases, rule
//!   sets and scoring modes beside their text;
//! - [`play`]: games between bots on the one runner's fast path; [`eval`]: head-to-head matches
//!   and panels on it;
//! - [`program`]: the line protocol as an [`arena_line::ProgramProtocol`], for program bots;
//! - [`competition`]: its competitions through the registry's [`crate::Competitions`]: deals
//!   handed out by a [`format`] (fresh from a seed, or measured ones from the deal library:
//!   [`levels`] of a deal's difficulty, the measuring [`panel`], the [`library`]'s records),
//!   standings with every table's probability of every [`rank`]; [`measure`]: the GDI of deals
//!   measured by a panel, the game's difficulty hook;
//! - [`commands`]: `arena ddz …`, the game's commands on the command line.

pub mod bots;
pub mod botzone;
pub mod championship;
pub mod codes;
pub mod commands;
pub mod competition;
pub mod convert;
pub mod eval;
pub mod form;
pub mod format;
pub mod game;
pub mod levels;
pub mod library;
pub mod measure;
pub mod names;
pub mod panel;
pub mod play;
pub mod program;
pub mod rank;
pub mod request;
pub mod spec;
pub mod table;

/// The Dou Dizhu rules engine, for crates that reach the game only through `arena-games`.
pub use ::ddz as rules;
/// Dou Dizhu's own wire messages (package `arena.ddz.v1`), which the `arena.v1` envelopes carry.
pub use arena_proto::packages::arena::ddz::v1 as pb;
/// The built-in Dou Dizhu bots.
pub use ddz_bots as builtin;
pub use game::{DouDizhu, GAME};
pub use spec::DdzSpec;
pub use table::{DdzBot, DdzTable};
