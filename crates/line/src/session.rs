//! A program seat, for any game: the [`ProgramProtocol`] a game provides for each of its line
//! protocols (what a seat is told for a [`v1::DecisionRequest`], what a line of the program
//! means), and the one async [`ProgramSession`] that runs a program with it. Every host of
//! program seats (bot-host, the `cmd:` seats of the CLI's matches) plays through them, so each
//! line protocol is spoken by one piece of code.

use std::time::Duration;

use arena_proto::v1;
use arena_proto::v1::VerdictKind;
use tokio::time::Instant;

use crate::fault::Fault;
use crate::lines::{Framing, Output};
use crate::program::{Ended, Launch, Program, SpawnError};
use crate::protocol::{join_with, unreadable};
use crate::spec::CmdSpec;
use crate::transcript::{Direction, TranscriptLine};

/// What a line of the program means.
#[derive(Clone, Debug, PartialEq)]
pub enum Heard {
    /// Nothing to forward: a line the protocol ignores.
    Nothing,
    /// The answer to the open request.
    Answer(v1::Action),
}

/// One seat's side of a game's line protocol, with the wire's types: the game reads each
/// request into its own terms and each answer back into an action. It does no I/O (a
/// [`ProgramSession`] does), and it knows what the seat was told so far, so one value serves
/// one seat of one table.
pub trait ProgramProtocol: Send + Sync {
    /// The line ending the host writes and the longest line it keeps.
    fn framing(&self) -> Framing;

    /// The first line a fresh process must write, as fault reasons name it (e.g. `"join"`,
    /// quotes included); `None` when the protocol has no greeting.
    fn greeting(&self) -> Option<&'static str>;

    /// Reads a line written before the greeting: `Ok(None)` for a line the protocol ignores,
    /// `Ok(Some(name))` for the greeting (with the name the program gave, if any), `Err(reason)`
    /// for anything else.
    fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String>;

    /// Appends to `out` the lines that put `request` to the program (what it has not been told
    /// yet, then the question), to be answered within `deadline`; returns the question's name
    /// for fault reasons (e.g. `play`). `Err` names the field of a request that contradicts
    /// itself.
    fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        deadline: Duration,
        out: &mut Vec<String>,
    ) -> Result<&'static str, String>;

    /// Reads a line of the program; `asked` while a request is open, which `context` names for
    /// fault reasons (e.g. `to the play request`). `Err` holds the whole reason for a line that
    /// is a fault ([`VerdictKind::Malformed`]).
    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String>;

    /// Appends the lines a program is told when its table closes with `outcome` (the protocol's
    /// end of game and farewell), before its input is closed.
    fn close(&mut self, outcome: Option<&v1::Outcome>, out: &mut Vec<String>);
}

/// A running program playing one seat through its game's [`ProgramProtocol`]: started in the
/// sandbox by [`Program`], greeted ([`ProgramSession::join`]), asked
/// ([`ProgramSession::ask`]), heard ([`ProgramSession::hear`]) and told goodbye
/// ([`ProgramSession::close`]). The caller owns the clock: it decides how long to wait.
pub struct ProgramSession {
    program: Program,
    protocol: Box<dyn ProgramProtocol>,
}

impl ProgramSession {
    /// Starts `cmd` under `launch` (its framing taken from `protocol`).
    pub fn start(
        cmd: &CmdSpec,
        mut launch: Launch,
        protocol: Box<dyn ProgramProtocol>,
    ) -> Result<ProgramSession, SpawnError> {
        launch.framing = protocol.framing();
        let program = Program::spawn(cmd, &launch)?;
        Ok(ProgramSession { program, protocol })
    }

    /// The program's process id.
    pub fn id(&self) -> u32 {
        self.program.id()
    }

    /// The running program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Waits up to `within` for the program's greeting; the name it gave, if any. On a fault the
    /// program may still be running: dropping the session kills it.
    pub async fn join(&mut self, within: Duration) -> Result<Option<String>, Fault> {
        let protocol = &*self.protocol;
        join_with(
            &mut self.program,
            protocol.greeting(),
            |line| protocol.read_greeting(line),
            &protocol.framing(),
            within,
            |_| {},
        )
        .await
    }

    /// Writes the lines that put `request` to the program; the question's name. `Err` names the
    /// field of a request that contradicts itself (nothing is written then).
    pub fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        deadline: Duration,
    ) -> Result<&'static str, String> {
        let mut lines = Vec::new();
        let name = self.protocol.ask(request, deadline, &mut lines)?;
        self.program.send_lines(&lines);
        Ok(name)
    }

    /// The program's next output (cancel-safe: nothing is lost when another branch of a
    /// `select!` wins).
    pub async fn recv(&mut self) -> Output {
        self.program.recv().await.1
    }

    /// The program's next output if one is waiting (a host that asks one question at a time
    /// reads what came since the last answer before it asks the next).
    pub fn try_recv(&mut self) -> Option<Output> {
        self.program.try_recv().map(|(_, out)| out)
    }

    /// The program's next output before `until`; `None` at `until`.
    pub async fn recv_until(&mut self, until: Instant) -> Option<Output> {
        self.recv_until_at(until).await.map(|(_, out)| out)
    }

    /// [`ProgramSession::recv_until`] with when the output arrived (read off the pipe), which
    /// a host timing an answer stops its clock at, however late it gets round to it.
    pub async fn recv_until_at(&mut self, until: Instant) -> Option<(std::time::Instant, Output)> {
        self.program.recv_until(until).await
    }

    /// Judges one output of the program (`asked`: the name of the open request, if one is
    /// open): an answer, nothing (a line the protocol ignores), or a fault — the program then
    /// is, or is about to be, killed.
    pub async fn hear(
        &mut self,
        out: Output,
        asked: Option<&str>,
    ) -> Result<Option<v1::Action>, Fault> {
        let context = match asked {
            Some(name) => format!("to the {name} request"),
            None => "when nothing was asked".to_string(),
        };
        let text = match out {
            Output::Line(text) => text,
            Output::Closed(e) => {
                let what = match asked {
                    Some(name) => format!("the program exited before answering the {name} request"),
                    None => "the program exited while waiting for its next request".to_string(),
                };
                return Err(self.program.crash(&what, e).await);
            }
            other => return Err(unreadable(&other, &context, &self.protocol.framing()).1),
        };
        match self.protocol.hear(&text, &context, asked.is_some()) {
            Ok(Heard::Nothing) => Ok(None),
            Ok(Heard::Answer(action)) => Ok(Some(action)),
            Err(reason) => Err(Fault::new(VerdictKind::Malformed, reason)),
        }
    }

    /// Ends the session: tells the program how its table ended (`outcome`) and goodbye, closes
    /// its input, gives it `grace` to exit, then kills its group and reaps it.
    pub async fn close(&mut self, outcome: Option<&v1::Outcome>, grace: Duration) -> Ended {
        let mut lines = Vec::new();
        self.protocol.close(outcome, &mut lines);
        self.program.close(&lines, grace).await
    }
}

impl std::fmt::Debug for ProgramSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgramSession")
            .field("program", &self.program)
            .finish_non_exhaustive()
    }
}

/// A [`ProgramProtocol`] that keeps a transcript of what it tells the program and what it
/// hears from it (greeting included), for tools that show a bot's author what passed.
pub struct Recorded {
    inner: Box<dyn ProgramProtocol>,
    transcript: std::sync::Arc<std::sync::Mutex<Vec<TranscriptLine>>>,
}

impl Recorded {
    /// `inner`, its lines appended to `transcript` (game 1: one session is one table).
    pub fn new(
        inner: Box<dyn ProgramProtocol>,
        transcript: std::sync::Arc<std::sync::Mutex<Vec<TranscriptLine>>>,
    ) -> Recorded {
        Recorded { inner, transcript }
    }

    fn record(&self, direction: Direction, text: &str) {
        // A poisoned transcript (a panic elsewhere while it was held) still takes lines.
        let mut t = self.transcript.lock().unwrap_or_else(|p| p.into_inner());
        t.push(TranscriptLine {
            game: 1,
            direction,
            text: text.to_string(),
        });
    }

    fn record_sent(&self, out: &[String], from: usize) {
        for line in &out[from.min(out.len())..] {
            self.record(Direction::ToBot, line);
        }
    }
}

impl ProgramProtocol for Recorded {
    fn framing(&self) -> Framing {
        self.inner.framing()
    }

    fn greeting(&self) -> Option<&'static str> {
        self.inner.greeting()
    }

    fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String> {
        self.record(Direction::FromBot, line);
        self.inner.read_greeting(line)
    }

    fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        deadline: Duration,
        out: &mut Vec<String>,
    ) -> Result<&'static str, String> {
        let from = out.len();
        let name = self.inner.ask(request, deadline, out)?;
        self.record_sent(out, from);
        Ok(name)
    }

    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
        self.record(Direction::FromBot, text);
        let heard = self.inner.hear(text, context, asked);
        if let Err(reason) = &heard {
            self.record(Direction::Note, reason);
        }
        heard
    }

    fn close(&mut self, outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
        let from = out.len();
        self.inner.close(outcome, out);
        self.record_sent(out, from);
    }
}
