//! The Dou Dizhu line protocol: bots as programs that read and write plain text lines.
//!
//! The protocol is specified in `docs/ddz-line-protocol.md`. This crate has three layers:
//!
//! - [`codec`]: the lines as types ([`ServerMessage`], [`Request`], [`BotMessage`]) with
//!   `encode` and `decode`, and [`DecodeError`]s that name the problem. Pure: no I/O.
//! - [`feed`]: the server side without I/O: what a seat is told ([`SeatFeed`]), the request for
//!   a decision, and the judging of answers under the rules. Any host of line bots (a process
//!   runner, an async service) reuses it.
//! - [`DdzLine`]: the protocol as an [`arena_line::LineProtocol`] (catch a seat up, ask, read an
//!   answer, end), so that hosts run it on the game-neutral supervisor of [`arena_line`].
//!
//! Programs playing this protocol (`cmd:PROGRAM [ARGS]` bots) are seated by the one runner
//! (`arena-table`'s program seats, with the protocol as `arena_games::ddz::program::DdzProgram`)
//! and by bot-host, in the sandbox of `arena-sandbox` (see `docs/sandbox.md`).

pub mod codec;
pub mod feed;
mod line;

/// The command line, stderr mode and default environment of a program, and the transcript
/// types, from [`arena_line`] (they are the same for every game).
pub use arena_line::{CmdSpec, DEFAULT_PASS_ENV, Direction, SpecError, StderrMode, TranscriptLine};
pub use codec::{BotMessage, DecodeError, Request, ServerMessage, decode_bot_line};
pub use feed::{AnswerError, SeatFeed};
pub use line::{DdzEnd, DdzLine, DdzSeat};
