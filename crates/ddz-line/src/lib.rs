//! The Dou Dizhu line protocol: bots as programs that read and write plain text lines.
//!
//! The protocol is specified in `docs/ddz-line-protocol.md`. This crate has four layers:
//!
//! - [`codec`]: the lines as types ([`ServerMessage`], [`Request`], [`BotMessage`]) with
//!   `encode` and `decode`, and [`DecodeError`]s that name the problem. Pure: no I/O.
//! - [`feed`]: the server side without I/O: what a seat is told ([`SeatFeed`]), the request for
//!   a decision, and the judging of answers under the rules. Any host of line bots (a process
//!   runner, an async service) reuses it.
//! - [`DdzLine`]: the protocol as an [`arena_line::LineProtocol`] (catch a seat up, ask, read an
//!   answer, end), so that hosts run it on the game-neutral supervisor of [`arena_line`].
//! - [`CmdBot`]: a [`ddz_bots::Bot`] that runs a program (`cmd:PROGRAM [ARGS]`) as a child
//!   process with [`arena_line`]'s blocking supervisor, in the sandbox of [`arena_sandbox`]
//!   (limits, namespaces, Landlock; see `docs/sandbox.md`), with deadlines, verdicts for every
//!   fault, and automatic play after one.
//!
//! ```no_run
//! use arena_games::ddz::play::{Buffers, play_game};
//! use ddz::{Deal, GameConfig};
//! use ddz_bots::{Bot, RandomBot};
//! use ddz_line::{CmdBot, CmdBotConfig};
//!
//! let mut program = CmdBot::from_spec("cmd:python3 examples/ddz-python/simple_bot.py",
//!     CmdBotConfig::default()).unwrap();
//! let (mut a, mut b) = (RandomBot::new(1), RandomBot::new(2));
//! let mut moves = Buffers::new();
//! let game = play_game(GameConfig::competition(), Deal::generate(7, 0), 7,
//!     &mut [&mut program, &mut a, &mut b], &mut moves).unwrap();
//! println!("{:?} {:?}", game.outcome(), program.take_verdicts());
//! ```

mod cmd_bot;
pub mod codec;
pub mod feed;
mod line;

/// The command line, stderr mode and default environment of a [`CmdBot`]'s program, from
/// [`arena_line`] (they are the same for every game).
pub use arena_line::{CmdSpec, DEFAULT_PASS_ENV, SpecError, StderrMode};
/// A `CmdBot`'s transcript, from [`arena_line`] (the same for every game).
pub use arena_line::{Direction, TranscriptLine};
pub use cmd_bot::{CmdBot, CmdBotConfig, CmdBotStats, StartError};
pub use codec::{BotMessage, DecodeError, Request, ServerMessage, decode_bot_line};
pub use feed::{AnswerError, SeatFeed};
pub use line::{DdzEnd, DdzLine, DdzSeat};
