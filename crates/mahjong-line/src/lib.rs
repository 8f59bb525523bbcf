//! The Mahjong line protocol of the 2015 AI contest (`docs/mahjong-line-protocol.md`): bots as
//! programs that read and write plain text lines, run unmodified.
//!
//! - [`codec`]: the lines as types ([`ServerMessage`], [`BotMessage`]) with `encode` and
//!   `decode`, and [`DecodeError`]s that name the problem. Pure: no I/O.
//! - [`feed`]: the server side without I/O: what a seat is told of its view of the hand
//!   ([`SeatFeed`]) and how its answer is judged ([`judge`]).
//! - [`MahjongLine`]: the protocol as an [`arena_line::LineProtocol`], so that hosts run it on
//!   the game-neutral supervisor of [`arena_line`].
//! - [`Client`]: the other side: a built-in player served as a contest program
//!   (`arena mahjong bot NAME`).
//!
//! Programs playing this protocol are seated by the one runner (`arena-table`'s program seats,
//! with the protocol as `arena_games::mahjong::program::MahjongProgram`) and by bot-host.

pub mod client;
pub mod codec;
pub mod feed;
mod line;

/// The command line, stderr mode, working directory and default environment of a program, and
/// the transcript types, from [`arena_line`] (they are the same for every game).
pub use arena_line::{
    CmdSpec, DEFAULT_PASS_ENV, Direction, SpecError, StderrMode, TranscriptLine, WorkDir,
};
pub use client::{Client, ClientError, rebuild_seen};
pub use codec::{BotMessage, DecodeError, ServerMessage, decode_bot_line, decode_server_line};
pub use feed::{AnswerError, Judged, SeatFeed, judge, read_answer};
pub use line::{MAX_ANSWER_BYTES, MAX_IGNORED_LINES, MahjongLine};
