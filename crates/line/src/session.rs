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
use crate::program::{EXIT_WAIT, Ended, Launch, Program, SpawnError};
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
    /// Not the answer yet: these lines are to be written to the program first (Botzone's turns
    /// the arena does not ask about), to a fresh process of it when `fresh` (the one that wrote
    /// the line exited).
    Continue {
        /// The lines to write.
        lines: Vec<String>,
        /// Whether a fresh process is to be started for them.
        fresh: bool,
    },
    /// An answer the protocol itself refuses with this fault: a rule its own judge enforces
    /// (Botzone's judges' rule fouls are `illegal`, where an unreadable line is `malformed`).
    Refused(Fault),
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

    /// Told the command the session runs, before anything else (a protocol keeping state per
    /// bot across tables keys it so). Default: nothing.
    fn bind(&mut self, cmd: &CmdSpec) {
        let _ = cmd;
    }

    /// Whether the next [`ProgramProtocol::ask`] is to be put to a fresh process (Botzone's
    /// simple interaction starts a bot afresh for every turn). The session starts one unless
    /// its process has not been asked anything yet. Default: `false`, one process per seat.
    fn fresh_process(&self) -> bool {
        false
    }

    /// Whether the CPU time the program's processes use between an answer and the next
    /// request counts against that request's deadline (Botzone's keep-running bots). The
    /// session then measures it (on Linux, from `/proc`) and judges an answer a timeout when
    /// that CPU time and the wall time of the turn together exceed the deadline. Default:
    /// `false`.
    fn charges_idle_cpu(&self) -> bool {
        false
    }

    /// Whether the program's input is closed after the lines of a turn are written to a fresh
    /// process (Botzone's simple interaction without keep-running: a bot reading its input to
    /// the end, as `std::cin >> json` does, sees the end of it). Default: `false`.
    fn closes_input(&self) -> bool {
        false
    }

    /// The program's output closed while `asked` (its exit status a success): `Some` when
    /// that completes the open answer (Botzone's simple interaction: the whole output until
    /// exit is the answer), with what it means; `None` (the default) for a crash.
    fn hear_end(&mut self, context: &str, asked: bool) -> Option<Result<Heard, String>> {
        let _ = (context, asked);
        None
    }

    /// Readies the protocol for another game of the seat after [`ProgramProtocol::close`]'s
    /// lines for the last one, when the protocol can play several games on one process (the
    /// championship's engine plays a turn of rounds): on the same process when `same_process`
    /// (what the process was told once for all its games, a greeting, is not told again), or
    /// on a fresh one (everything is told again, as to a new protocol). `true` when it can;
    /// `false` (the default) when the protocol plays one game per process, whose host then
    /// closes the process after the game. A protocol with a [`ProgramProtocol::greeting`] is
    /// never carried on: a fresh process taking a carried one's place is not waited on to greet.
    fn next_game(&mut self, same_process: bool) -> bool {
        let _ = same_process;
        false
    }

    /// Why the program's silence on the open request is of its own making, when the protocol
    /// can tell: it wrote something that is no whole answer yet and cannot become one by
    /// waiting (a Botzone keep-running bot that wrote its output but neither printed the marker
    /// nor exited). A timeout verdict quotes it. Default: `None`.
    fn silence(&self) -> Option<String> {
        None
    }
}

/// A running program playing one seat through its game's [`ProgramProtocol`]: started in the
/// sandbox by [`Program`], greeted ([`ProgramSession::join`]), asked
/// ([`ProgramSession::ask`]), heard ([`ProgramSession::hear`]) and told goodbye
/// ([`ProgramSession::close`]). The caller owns the clock: it decides how long to wait.
///
/// A protocol may ask for a fresh process per request ([`ProgramProtocol::fresh_process`]):
/// the session then starts one before it writes the request (the last one is killed), and a
/// process whose output closed with a success after writing its answer
/// ([`ProgramProtocol::hear_end`]) has answered, not crashed; the session then reads nothing
/// more until the next request.
///
/// A protocol may play several games on one process ([`ProgramProtocol::next_game`]): the
/// host then ends a game with [`ProgramSession::end_game`], which keeps the process with its
/// input open, and asks the next game's requests through the same session. A carried process
/// whose output closes before its first answer of the new game ended after the last one (it
/// exited on its own after the end of game): that is no fault of the new game, so the session
/// starts a fresh process in its place and puts the open request to it from the start.
pub struct ProgramSession {
    program: Program,
    protocol: Box<dyn ProgramProtocol>,
    cmd: CmdSpec,
    launch: Launch,
    /// The process has been asked something.
    used: bool,
    /// The process ended its answer by exiting: there is nothing more to read from it.
    done: bool,
    /// A fresh process could not be started: the fault the next output judged gets.
    failed: Option<Fault>,
    /// The CPU time of the process's group at its last answer (protocols charging idle CPU).
    cpu_at_answer: Option<Duration>,
    /// The open request's clock: when it was asked, its deadline, the CPU used before it.
    clock: Option<(Instant, Duration, Duration)>,
    /// The process was carried from an earlier game and has not answered in this one yet.
    carried: bool,
    /// The request last put to a carried process, with its deadline: asked again of the fresh
    /// process that takes its place if it ended after the last game.
    retry: Option<(v1::DecisionRequest, Duration)>,
}

impl ProgramSession {
    /// Starts `cmd` under `launch` (its framing taken from `protocol`).
    pub fn start(
        cmd: &CmdSpec,
        mut launch: Launch,
        mut protocol: Box<dyn ProgramProtocol>,
    ) -> Result<ProgramSession, SpawnError> {
        launch.framing = protocol.framing();
        protocol.bind(cmd);
        let program = Program::spawn(cmd, &launch)?;
        Ok(ProgramSession {
            program,
            protocol,
            cmd: cmd.clone(),
            launch,
            used: false,
            done: false,
            failed: None,
            cpu_at_answer: None,
            clock: None,
            carried: false,
            retry: None,
        })
    }

    /// The program's process id (of its current process).
    pub fn id(&self) -> u32 {
        self.program.id()
    }

    /// The running program (its current process).
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

    /// Replaces the process by a fresh one (the old one's group is killed when it is dropped);
    /// a start that fails is kept as the fault the next output judged gets.
    fn restart(&mut self) -> bool {
        match Program::spawn(&self.cmd, &self.launch) {
            Ok(p) => {
                self.program = p;
                self.used = false;
                self.done = false;
                self.cpu_at_answer = None;
                true
            }
            Err(e) => {
                let e = e.to_string();
                let hint = self.launch.sandbox.hint_for(&e).unwrap_or("");
                self.failed = Some(Fault::new(
                    VerdictKind::Crashed,
                    format!("{e}{hint}; the command: {}", self.cmd.command_line()),
                ));
                false
            }
        }
    }

    /// Writes the lines that put `request` to the program; the question's name. `Err` names the
    /// field of a request that contradicts itself (nothing is written then).
    pub fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        deadline: Duration,
    ) -> Result<&'static str, String> {
        let fresh = self.protocol.fresh_process() && (self.used || self.done);
        let charged = self.protocol.charges_idle_cpu();
        let mut lines = Vec::new();
        let name = self.protocol.ask(request, deadline, &mut lines)?;
        let idle = match (charged, self.cpu_at_answer) {
            (true, Some(then)) => {
                group_cpu(self.program.id()).map_or(Duration::ZERO, |now| now.saturating_sub(then))
            }
            _ => Duration::ZERO,
        };
        self.clock = Some((Instant::now(), deadline, idle));
        if self.carried {
            self.retry = Some((request.clone(), deadline));
        }
        if fresh && !self.restart() {
            return Ok(name);
        }
        self.used = true;
        self.send(&lines);
        Ok(name)
    }

    /// Writes `lines` to the program, then closes its input if the protocol says so.
    fn send(&mut self, lines: &[String]) {
        self.program.send_lines(lines);
        if self.protocol.closes_input() {
            self.program.close_input();
        }
    }

    /// The program's next output (cancel-safe: nothing is lost when another branch of a
    /// `select!` wins). After a process answered by exiting, it waits for the next request.
    pub async fn recv(&mut self) -> Output {
        if self.failed.is_some() {
            return Output::Closed(None);
        }
        if self.done {
            return std::future::pending().await;
        }
        self.program.recv().await.1
    }

    /// The program's next output if one is waiting (a host that asks one question at a time
    /// reads what came since the last answer before it asks the next).
    pub fn try_recv(&mut self) -> Option<Output> {
        if self.failed.is_some() {
            return Some(Output::Closed(None));
        }
        if self.done {
            return None;
        }
        self.program.try_recv().map(|(_, out)| out)
    }

    /// The program's next output before `until`; `None` at `until`.
    pub async fn recv_until(&mut self, until: Instant) -> Option<Output> {
        self.recv_until_at(until).await.map(|(_, out)| out)
    }

    /// [`ProgramSession::recv_until`] with when the output arrived (read off the pipe), which
    /// a host timing an answer stops its clock at, however late it gets round to it.
    pub async fn recv_until_at(&mut self, until: Instant) -> Option<(std::time::Instant, Output)> {
        if self.failed.is_some() {
            return Some((std::time::Instant::now(), Output::Closed(None)));
        }
        if self.done {
            tokio::time::sleep_until(until).await;
            return None;
        }
        self.program.recv_until(until).await
    }

    /// Judges one output of the program (`asked`: the name of the open request, if one is
    /// open): an answer, nothing (a line the protocol ignores, or more lines written to it), or
    /// a fault — the program then is, or is about to be, killed.
    pub async fn hear(
        &mut self,
        out: Output,
        asked: Option<&str>,
    ) -> Result<Option<v1::Action>, Fault> {
        if let Some(fault) = self.failed.take() {
            return Err(fault);
        }
        let context = match asked {
            Some(name) => format!("to the {name} request"),
            None => "when nothing was asked".to_string(),
        };
        let text = match out {
            Output::Line(text) => text,
            Output::Closed(_) if self.carried => return self.replace_carried(),
            Output::Closed(e) => {
                if asked.is_some() && e.is_none() && self.program.wait_exit(EXIT_WAIT).await {
                    let status = self.program.kill().await;
                    if status.is_some_and(|s| s.success())
                        && let Some(heard) = self.protocol.hear_end(&context, true)
                    {
                        self.done = true;
                        return self.heard(heard);
                    }
                }
                let what = match asked {
                    Some(name) => format!("the program exited before answering the {name} request"),
                    None => "the program exited while waiting for its next request".to_string(),
                };
                return Err(self.program.crash(&what, e).await);
            }
            other => return Err(unreadable(&other, &context, &self.protocol.framing()).1),
        };
        let heard = self.protocol.hear(&text, &context, asked.is_some());
        self.heard(heard)
    }

    /// A carried process ended before its first answer of the game: it ended after the last
    /// game, which is no fault of this one. A fresh process takes its place and is asked the
    /// open request (if one is open) from the start; one that cannot start is crashed.
    fn replace_carried(&mut self) -> Result<Option<v1::Action>, Fault> {
        self.carried = false;
        let retry = self.retry.take();
        if !self.restart() {
            return Err(self.failed.take().unwrap_or_else(|| {
                Fault::new(VerdictKind::Crashed, "the program could not be restarted")
            }));
        }
        self.protocol.next_game(false);
        if let Some((request, deadline)) = retry {
            let mut lines = Vec::new();
            // The same request the protocol read a moment ago, now from the start.
            self.protocol
                .ask(&request, deadline, &mut lines)
                .map_err(|why| {
                    Fault::new(
                        VerdictKind::Crashed,
                        format!("the request could not be put to a fresh process: {why}"),
                    )
                })?;
            self.used = true;
            self.send(&lines);
        }
        Ok(None)
    }

    /// Acts on what the protocol made of an output.
    fn heard(&mut self, heard: Result<Heard, String>) -> Result<Option<v1::Action>, Fault> {
        match heard {
            Ok(Heard::Nothing) => Ok(None),
            Ok(Heard::Answer(action)) => {
                self.carried = false;
                self.retry = None;
                if let Some((asked, deadline, idle)) = self.clock.take()
                    && !idle.is_zero()
                    && !deadline.is_zero()
                    && idle + asked.elapsed() > deadline
                {
                    return Err(Fault::new(
                        VerdictKind::Timeout,
                        format!(
                            "used {} ms of CPU time while waiting for the request and {} ms answering it, over its {} ms (a keep-running bot's CPU time between turns counts against its next turn)",
                            idle.as_millis(),
                            asked.elapsed().as_millis(),
                            deadline.as_millis()
                        ),
                    ));
                }
                if self.protocol.charges_idle_cpu() && !self.done {
                    self.cpu_at_answer = group_cpu(self.program.id());
                }
                Ok(Some(action))
            }
            Ok(Heard::Continue { lines, fresh }) => {
                if fresh && !self.restart() {
                    return Err(self.failed.take().unwrap_or_else(|| {
                        Fault::new(VerdictKind::Crashed, "the program could not be restarted")
                    }));
                }
                self.used = true;
                self.send(&lines);
                Ok(None)
            }
            Ok(Heard::Refused(fault)) => Err(fault),
            Err(reason) => Err(Fault::new(VerdictKind::Malformed, reason)),
        }
    }

    /// Why the program is silent on the open request, when its protocol can tell
    /// ([`ProgramProtocol::silence`]): for the timeout verdict's reason.
    pub fn silence(&self) -> Option<String> {
        if self.done {
            return None;
        }
        self.protocol.silence()
    }

    /// Ends the session: tells the program how its table ended (`outcome`) and goodbye, closes
    /// its input, gives it `grace` to exit, then kills its group and reaps it.
    pub async fn close(&mut self, outcome: Option<&v1::Outcome>, grace: Duration) -> Ended {
        let mut lines = Vec::new();
        self.protocol.close(outcome, &mut lines);
        self.program.close(&lines, grace).await
    }

    /// Ends a game, and the session too unless it carries on: tells the program how its table
    /// ended (`outcome`); then, when `carry`, the protocol can play another game on the same
    /// process ([`ProgramProtocol::next_game`]) and the process is sound (it started, it did
    /// not answer by exiting), keeps the process running with its input open for the next
    /// game's requests: `None`. Otherwise closes the session as [`ProgramSession::close`] does:
    /// how the process ended. A host carries on only a process that got no verdict.
    pub async fn end_game(
        &mut self,
        outcome: Option<&v1::Outcome>,
        grace: Duration,
        carry: bool,
    ) -> Option<Ended> {
        let mut lines = Vec::new();
        self.protocol.close(outcome, &mut lines);
        let sound = self.failed.is_none() && !self.done && self.protocol.greeting().is_none();
        if carry && sound && self.protocol.next_game(true) {
            self.program.send_lines(&lines);
            self.carried = true;
            self.retry = None;
            self.clock = None;
            self.cpu_at_answer = None;
            return None;
        }
        Some(self.program.close(&lines, grace).await)
    }
}

/// The CPU time used so far by the processes of the group `pgid` (those alive, with the
/// children they reaped), from `/proc`; `None` where there is no `/proc` to read.
#[cfg(target_os = "linux")]
fn group_cpu(pgid: u32) -> Option<Duration> {
    // SAFETY: sysconf reads a constant of the system; it has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let ticks = u64::try_from(ticks).ok().filter(|t| *t > 0)?;
    let mut total = 0u64;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        if !name
            .to_str()
            .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The fields after the command's closing parenthesis: state is field 3, pgrp 5,
        // utime 14, stime 15, cutime 16, cstime 17.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.get(2).and_then(|g| g.parse::<u32>().ok()) != Some(pgid) {
            continue;
        }
        for i in 11..=14 {
            total += fields
                .get(i)
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0);
        }
    }
    Some(Duration::from_millis(total * 1000 / ticks))
}

#[cfg(not(target_os = "linux"))]
fn group_cpu(_pgid: u32) -> Option<Duration> {
    None
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
        match &heard {
            Ok(Heard::Continue { lines, .. }) => self.record_sent(lines, 0),
            Ok(Heard::Refused(fault)) => self.record(Direction::Note, &fault.reason),
            Err(reason) => self.record(Direction::Note, reason),
            _ => {}
        }
        heard
    }

    fn close(&mut self, outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
        let from = out.len();
        self.inner.close(outcome, out);
        self.record_sent(out, from);
    }

    fn bind(&mut self, cmd: &CmdSpec) {
        self.inner.bind(cmd);
    }

    fn fresh_process(&self) -> bool {
        self.inner.fresh_process()
    }

    fn charges_idle_cpu(&self) -> bool {
        self.inner.charges_idle_cpu()
    }

    fn closes_input(&self) -> bool {
        self.inner.closes_input()
    }

    fn silence(&self) -> Option<String> {
        self.inner.silence()
    }

    fn next_game(&mut self, same_process: bool) -> bool {
        self.inner.next_game(same_process)
    }

    fn hear_end(&mut self, context: &str, asked: bool) -> Option<Result<Heard, String>> {
        let heard = self.inner.hear_end(context, asked)?;
        match &heard {
            Ok(Heard::Continue { lines, .. }) => self.record_sent(lines, 0),
            Ok(Heard::Refused(fault)) => self.record(Direction::Note, &fault.reason),
            Err(reason) => self.record(Direction::Note, reason),
            _ => {}
        }
        Some(heard)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod cpu_tests {
    use super::*;

    #[tokio::test]
    async fn the_cpu_time_of_a_programs_group_is_read_from_proc() {
        // A busy loop, then a line, then an idle wait: its group's CPU time is then more than
        // nothing, and counts the work of the shell the sandbox runs.
        let cmd = CmdSpec::new(
            "sh",
            vec![
                "-c".to_string(),
                "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo done; sleep 30"
                    .to_string(),
            ],
        );
        let mut p = Program::spawn(&cmd, &Launch::default()).unwrap();
        assert_eq!(p.recv().await.1, Output::Line("done".into()));
        let cpu = group_cpu(p.id()).expect("Linux has /proc");
        assert!(cpu > Duration::ZERO, "{cpu:?}");
        assert_eq!(group_cpu(u32::MAX), Some(Duration::ZERO), "no such group");
        p.kill().await;
    }
}
