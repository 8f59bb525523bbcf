//! Bot programs as child processes spoken to in lines, for any game.
//!
//! - [`Program`]: one supervisor of a running program (async, on tokio): started in the sandbox
//!   of [`arena_sandbox`] under its [`Limits`](arena_sandbox::Limits), its pipes served by tasks
//!   so that nothing it does blocks the host, its output read a bounded line at a time, the end
//!   of its stderr kept for crash reports, its whole process group killed before it is reaped,
//!   and its exit status put in words. [`blocking::Program`] is the same for callers without a
//!   runtime.
//! - [`LineProtocol`]: what a game's line protocol supplies (catch a seat up, ask, read an
//!   answer, end), with its [`Framing`] (line ending, longest line); [`join`], [`unreadable`]
//!   and [`Program::crash`] are the steps every host shares.
//! - [`Fault`]: the platform's one fault of a seat (a verdict kind and a reason), which these
//!   steps report and the runner (`arena-table`) judges and re-exports.
//! - [`ProgramProtocol`]: one seat's side of a game's line protocol in the wire's terms (a
//!   decision request in, lines out; a line in, an action out), which the game provides, and
//!   [`ProgramSession`]: the one async session that runs a program with it, for bot-host and
//!   the CLI's `cmd:` seats alike; [`Recorded`] keeps a transcript of a session's lines.
//! - [`CmdSpec`]: the `cmd:PROGRAM [ARGS]` command line of a bot program.
//! - [`TranscriptLine`]: a host's record of the lines of a session, and its notes.
//! - [`botzone`]: Botzone's bot protocols, for games with a Botzone grammar.
//!
//! ```no_run
//! use arena_line::{CmdSpec, Launch, blocking};
//! use std::time::{Duration, Instant};
//!
//! let spec = CmdSpec::parse("cmd:python3 bot.py").unwrap();
//! let mut program = blocking::Program::spawn(&spec, &Launch::default()).unwrap();
//! program.send_lines(&["hello"]);
//! let answer = program.recv_until(Instant::now() + Duration::from_secs(1));
//! println!("{answer:?}");
//! program.close(&["bye"], Duration::from_secs(1));
//! ```

pub mod blocking;
pub mod botzone;
mod fault;
pub mod lines;
mod program;
mod protocol;
mod session;
mod spec;
mod transcript;

pub use arena_sandbox::{STDERR_TAIL_BYTES, describe_status};
pub use fault::{DETAIL_CHARS, Fault, verdict_name};
pub use lines::{Framing, LineEnding, LineSplitter, MAX_LINE_BYTES, Output};
pub use program::{
    DEFAULT_PASS_ENV, EXIT_WAIT, Ended, Launch, Program, READ_AHEAD_LINES, REAP_WAIT,
    STDERR_QUOTE_CHARS, SpawnError, StderrMode, WorkDir, later,
};
pub use protocol::{ANSWER_QUOTE_CHARS, LineProtocol, join, quote, unreadable};
pub use session::{Heard, ProgramProtocol, ProgramSession, Recorded};
pub use spec::{CmdSpec, SpecError};
pub use transcript::{Direction, TranscriptLine};
