//! The Mahjong line protocol of the 2015 AI contest (`docs/mahjong-line-protocol.md`): bots as
//! programs that read and write plain text lines, run unmodified.
//!
//! - [`codec`]: the lines as types ([`ServerMessage`], [`BotMessage`]) with `encode` and
//!   `decode`, and [`DecodeError`]s that name the problem. Pure: no I/O.
//! - [`feed`]: the server side without I/O: what a seat is told of its view of the hand
//!   ([`SeatFeed`]) and how its answer is judged ([`judge`]).
//! - [`MahjongLine`]: the protocol as an [`arena_line::LineProtocol`], so that hosts run it on
//!   the game-neutral supervisor of [`arena_line`].
//! - [`CmdBot`]: a [`mahjong_bots::Player`] that runs a program (`cmd:PROGRAM [ARGS]`), a fresh
//!   process per hand, with [`arena_line`]'s blocking supervisor in the sandbox of
//!   [`arena_sandbox`], timing every answer and turning every fault into a
//!   [`mahjong_bots::BotFault`].
//! - [`Client`]: the other side: a built-in player served as a contest program
//!   (`arena mahjong bot NAME`).
//!
//! ```no_run
//! use mahjong::{Deal, Rules};
//! use mahjong_bots::{Player, RandomBot, TimeLimits, play_hand};
//! use mahjong_line::{CmdBot, CmdBotConfig};
//!
//! let mut program = CmdBot::from_spec("cmd:python3 examples/mahjong-python/simple_bot.py",
//!     CmdBotConfig::default()).unwrap();
//! let (mut a, mut b, mut c) = (RandomBot::new(), RandomBot::new(), RandomBot::new());
//! let record = play_hand(&Deal::from_seed(7), Rules::default(), TimeLimits::default(),
//!     &mut [&mut program, &mut a, &mut b, &mut c]);
//! println!("{:?} {:?}", record.scores, record.verdicts);
//! ```

pub mod client;
mod cmd_bot;
pub mod codec;
pub mod feed;
mod line;

/// The command line, stderr mode, working directory and default environment of a [`CmdBot`]'s
/// program, from [`arena_line`] (they are the same for every game).
pub use arena_line::{
    CmdSpec, DEFAULT_PASS_ENV, Direction, SpecError, StderrMode, TranscriptLine, WorkDir,
};
pub use client::{Client, ClientError};
pub use cmd_bot::{CmdBot, CmdBotConfig, CmdBotStats, MAX_IGNORED_LINES};
pub use codec::{BotMessage, DecodeError, ServerMessage, decode_bot_line, decode_server_line};
pub use feed::{AnswerError, Judged, SeatFeed, judge};
pub use line::{MAX_ANSWER_BYTES, MahjongLine};
