//! The game-generic table runner: a table takes a job, plays its game under the rules, asks each
//! seat for its decisions with a deadline, checks every answer with the rules engine, applies
//! time penalties and verdicts, and produces the table's [`v1::TableResult`] and
//! [`v1::Replay`].
//!
//! - [`game`]: the [`TableGame`] abstraction (state, per-seat observation, pending decisions —
//!   several seats at once where a game needs it —, validation, automatic action, outcome,
//!   public history); [`mod@ddz`] implements it for Dou Dizhu on [`::ddz::Game`].
//! - [`seat`]: in-process players ([`LocalPlayer`], the fast path for built-in bots) and the
//!   replies seats give; [`remote`]: seats on a `SeatHost.Seat` stream to bot-host.
//! - [`time`]: time control and penalty rounding; [`table`]: the I/O-free table core with the
//!   verdict policy, replay and result; [`run`]: the drivers and [`run_table`].
//! - [`job`]: checking a [`v1::TableJob`], every error naming its field.

pub mod ddz;
pub mod game;
pub mod job;
pub mod queue;
pub mod remote;
pub mod run;
pub mod seat;
pub mod table;
pub mod time;

pub use arena_proto::v1;
pub use game::{Fault, Pending, Policy, TableGame};
pub use job::{JobError, SeatBot, TableSpec, validate};
pub use remote::{BotHosts, RemoteSeat, SeatDialer};
pub use run::{RunOptions, SeatPlan, TableSetup, run_table};
pub use seat::{Answer, LocalPlayer, Reply};
pub use table::{Request, Table, error_result};
pub use time::TimeRules;
