//! The game-generic table runner: a table takes a job, plays its game under the rules, asks each
//! seat for its decisions with a deadline, checks every answer with the rules engine, applies
//! time penalties and verdicts, and produces the table's [`v1::TableResult`] and
//! [`v1::Replay`].
//!
//! The crate knows no game: each game implements [`TableGame`] in crate `arena-games`, which
//! also reads a job's game-specific set-up and dispatches a job to its game.
//!
//! - [`game`]: the [`TableGame`] abstraction (state, per-seat view and observation, pending
//!   decisions — several seats at once where a game needs it —, validation, automatic action,
//!   outcome, public history).
//! - [`seat`]: in-process players ([`LocalPlayer`], deciding from their seat's view) and the
//!   replies seats give; [`remote`]: seats on a `SeatHost.Seat` stream to bot-host;
//!   [`program`]: bot programs the table runs itself, through their game's line protocol.
//! - [`time`]: time control and penalty rounding; [`table`]: the I/O-free table core with the
//!   verdict policy, replay and result; [`run`]: the one runner — [`run::play_fast`] (rules
//!   only), [`run::play_local`] and [`run::play_async`] (refereed), [`run::run_game`];
//!   [`replay`]: the steps as a table records them, encoded straight into the replay.
//! - [`job`]: checking the game-neutral fields of a [`v1::TableJob`], every error naming its
//!   field.

pub mod game;
pub mod job;
pub mod program;
pub mod queue;
pub mod remote;
pub mod replay;
pub mod run;
pub mod seat;
pub mod table;
pub mod time;

pub use arena_proto::v1;
pub use game::{DETAIL_CHARS, Fault, Pending, Policy, TableGame};
pub use job::{JobError, SeatBot, TableSpec};
pub use program::{ProgramBot, ProgramSeat, ProgramTurn, play_blocking};
pub use remote::{BotHosts, DialError, RemoteSeat, SeatDialer, SeatLink};
pub use replay::{Step, Steps};
pub use run::{Misplay, Player, RunOptions, Scratch, SeatPlan, TableSetup, play_fast, run_game};
pub use seat::{Answer, LocalPlayer, Reply, panic_message};
pub use table::{Record, Request, Table, error_record, error_result, whole_reason};
pub use time::TimeRules;
