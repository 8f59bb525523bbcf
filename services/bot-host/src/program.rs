//! Bot programs: a registered `Program` bot plays each table seat in a child process of its own
//! that speaks the Dou Dizhu line protocol (`docs/ddz-line-protocol.md`).
//!
//! The process starts in its own working directory (the bot's `workdir`, else a fresh temporary
//! directory made for it and removed afterwards) in the sandbox of [`arena_sandbox`]: under the
//! host's limits ([`ProcessLimits::limits`](crate::ProcessLimits::limits)) lowered by the bot
//! record's own, isolated by every layer the kernel grants, with only the environment variables
//! listed in [`ProcessLimits::pass_env`](crate::ProcessLimits::pass_env) (plus the sandbox's
//! `PATH`, and `HOME` and `TMPDIR` at its working directory), and must say `join` within the
//! start-up time; then the seat is ready.
//! Each request is sent as the lines of the game the program has not seen (from
//! [`ddz_line::SeatFeed`]) and an `ask`; its answer is forwarded as the bot's reply. At the end
//! of the table it is told `end W S0 S1 S2` (from the referee's outcome) and `bye`, and is
//! given the exit grace before its whole process group is killed. All I/O is async: a program
//! that stops reading or writing blocks nothing.
//!
//! What bot-host judges, and what it leaves to the referee:
//!
//! - A line that is a valid answer (`bid B`, `double D`, `play CARDS`) is forwarded as it is, even
//!   when it is of the wrong kind or illegal: the referee judges kinds, legality and deadlines.
//! - A line that is no line of the protocol (unknown command, bad cards, too long, not UTF-8), a
//!   `join` in the middle of a game, or any line written when nothing was asked: bot-host cannot
//!   forward it, so it reports `SeatFault{MALFORMED}` quoting the line, and kills the program.
//! - The program exits (or closes its output), crashes, or is killed by its limits:
//!   `SeatFault{CRASHED}` with its exit status, the limits in force and the end of its stderr.
//! - The program cannot be started: `SeatFault{CRASHED}`; it does not say `join` in time:
//!   `SeatFault{TIMEOUT}`; its first line is not `join`: `SeatFault{MALFORMED}`.
//! - Silence: the referee judges the timeout at its hard cap; bot-host waits the hard cap plus a
//!   margin and then gives up with `SeatFault{TIMEOUT}`, killing the program.
//!
//! Requests that arrive while the program is still thinking are queued and asked in order once
//! it answers (the line protocol has one question open at a time), so a late answer is
//! forwarded with the request id it belongs to, and the referee drops it if it moved on.
//!
//! Known limitation: `SeatClose` carries the outcome but not the public events after the seat's
//! last request, so the program hears `end` without the plays that ended the game.

use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use arena_games::ddz::convert::{DdzDecision, ddz_action};
use arena_games::ddz::rules::{Scoring, Seat};
use arena_proto::v1;
use arena_sandbox::{Limits, Sandbox, StderrTail, describe_status, exited_unreaped, kill_group};
use ddz_line::feed::{self, SeatFeed};
use ddz_line::lines::{LineSplitter, MAX_LINE_BYTES, Output};
use ddz_line::{BotMessage, CmdSpec, ServerMessage, decode_bot_line};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::{OwnedSemaphorePermit, mpsc, watch};
use tokio::time::Instant;
use tonic::Status;

use crate::metrics::{BotKind, relayed};
use crate::seat::{FromReferee, SeatIo, Waited, while_reading};
use crate::server::Ctx;
use arena_games::ddz::request::DdzView;

/// Lines read ahead of the seat.
const READ_AHEAD_LINES: usize = 256;
/// How much of it a fault quotes, in characters.
const STDERR_QUOTE_CHARS: usize = 300;
/// How much of a program's line a fault quotes, in characters.
const ANSWER_QUOTE_CHARS: usize = 80;
/// How long a program whose output closed is given to finish exiting, for its exit status.
const EXIT_WAIT: Duration = Duration::from_millis(300);

/// A registered program bot, as a seat runs it.
pub(crate) struct ProgramSpec {
    /// The bot's name.
    pub bot: String,
    /// Its command line (split like a POSIX shell splits words).
    pub command: String,
    /// Its working directory, if fixed.
    pub workdir: Option<String>,
    /// CPU seconds per process (0 = the host's limit; it can only be lowered).
    pub cpu_seconds: u32,
    /// MiB of address space per process (0 = the host's limit; it can only be lowered).
    pub memory_mb: u32,
    /// Most seats at once (0 = no limit).
    pub max_tables: u32,
}

/// A fault of the program.
struct Fault {
    kind: v1::VerdictKind,
    reason: String,
}

impl Fault {
    fn new(kind: v1::VerdictKind, reason: impl Into<String>) -> Fault {
        Fault {
            kind,
            reason: reason.into(),
        }
    }
}

/// Runs one seat with a fresh process of the program.
pub(crate) async fn run(ctx: &Arc<Ctx>, mut io: SeatIo, spec: ProgramSpec) -> Result<(), Status> {
    let cmd = match CmdSpec::parse(&spec.command) {
        Ok(c) => c,
        Err(e) => {
            io.fault(
                v1::VerdictKind::Crashed,
                format!("bot {:?} has an unusable command: {e}", spec.bot),
            );
            return Ok(());
        }
    };
    let limits = ctx.config.processes.limits.capped_by(&Limits {
        cpu_seconds: spec.cpu_seconds,
        memory_mb: spec.memory_mb,
        ..Limits::NONE
    });
    let mut queue = VecDeque::new();
    let permits = ctx.program_permits(&spec.bot, spec.max_tables);
    let permits = match while_reading(&mut io, &mut queue, &ctx.closing, permits).await? {
        Waited::Done(p) => p,
        Waited::Ended => return Ok(()),
        Waited::Closing => {
            io.fault_shutdown(&ctx.host);
            return Ok(());
        }
    };
    let mut child = match Child::spawn(
        &cmd,
        spec.workdir.as_deref(),
        &ctx.sandbox,
        limits,
        &ctx.config.processes.pass_env,
    ) {
        Ok(c) => c,
        Err(reason) => {
            io.fault(v1::VerdictKind::Crashed, reason);
            return Ok(());
        }
    };
    tracing::info!(pid = child.pid, command = %cmd, %limits, "program started");
    let startup = ctx.config.processes.startup_timeout;
    match while_reading(&mut io, &mut queue, &ctx.closing, child.join(startup)).await? {
        Waited::Done(Ok(name)) => {
            tracing::debug!(
                pid = child.pid,
                name = name.as_deref().unwrap_or(""),
                "program joined"
            );
        }
        Waited::Done(Err(fault)) => {
            io.fault(fault.kind, fault.reason);
            return Ok(());
        }
        Waited::Ended => return Ok(()),
        Waited::Closing => {
            io.fault_shutdown(&ctx.host);
            return Ok(());
        }
    }
    // Programs have no release of their own.
    io.ready("", &ctx.host);

    let time = io.open.time.unwrap_or_default();
    let decision_ms = match time.decision_ms {
        0 => crate::config::wire_ms(ctx.config.decisions.decision),
        n => n,
    };
    let hard_cap = match time.hard_cap_ms {
        0 => ctx.config.decisions.hard_cap,
        n => Duration::from_millis(u64::from(n)),
    };
    let mut feed = SeatFeed::new(1, Scoring::Competition);
    let mut asked: Option<Asked> = None;
    loop {
        if asked.is_none()
            && let Some(req) = queue.pop_front()
        {
            let view = DdzView::from_request(&req).map_err(|e| Status::invalid_argument(e.0))?;
            let obs = view.observation();
            let legal = view.legal_moves();
            let deadline_ms = match req.deadline_ms {
                0 => decision_ms,
                n => n,
            };
            let request = feed::request(&obs, &legal, u64::from(deadline_ms));
            let mut lines = Vec::new();
            feed.catch_up(&obs, &mut lines);
            lines.push(ServerMessage::Ask(request.clone()));
            child.send(&lines);
            let wait = hard_cap.max(Duration::from_millis(u64::from(deadline_ms)))
                + ctx.config.decisions.silence_margin;
            asked = Some(Asked {
                sent: std::time::Instant::now(),
                request_id: req.request_id,
                table_id: req.table_id,
                name: request.name(),
                deadline_ms,
                wait,
                until: Instant::now() + wait,
            });
        }
        let until = asked
            .as_ref()
            .map_or_else(|| Instant::now() + Duration::from_secs(3600), |a| a.until);
        tokio::select! {
            biased;
            () = ctx.closing.cancelled() => {
                io.fault_shutdown(&ctx.host);
                return Ok(());
            }
            m = io.next() => match m? {
                FromReferee::Request(r) => queue.push_back(r),
                FromReferee::Close(close) => {
                    let end = end_line(close.outcome.as_ref());
                    let grace = ctx.config.processes.exit_grace;
                    // The referee's stream ends now; the program is told goodbye in the background.
                    tokio::spawn(async move {
                        let _permits = permits;
                        child.finish(end, grace).await;
                    });
                    return Ok(());
                }
                FromReferee::Gone => return Ok(()),
            },
            out = child.recv() => {
                match child.take_output(out, asked.as_ref()).await {
                    Ok(None) => {}
                    Ok(Some(answer)) => {
                        if let Some(a) = asked.take() {
                            io.reply(v1::DecisionReply {
                                request_id: a.request_id,
                                table_id: a.table_id,
                                action: Some(answer),
                            });
                            relayed(BotKind::Program, a.sent);
                        }
                    }
                    Err(fault) => {
                        io.fault(fault.kind, fault.reason);
                        return Ok(());
                    }
                }
            }
            () = tokio::time::sleep_until(until), if asked.is_some() => {
                let (name, wait, deadline) = asked
                    .as_ref()
                    .map_or(("", Duration::ZERO, 0), |a| (a.name, a.wait, a.deadline_ms));
                io.fault(
                    v1::VerdictKind::Timeout,
                    format!(
                        "no answer to the {name} request within {} ms (deadline {deadline} ms, hard cap {} ms, \
                         plus a margin of {} ms); the program was killed",
                        wait.as_millis(),
                        hard_cap.as_millis(),
                        ctx.config.decisions.silence_margin.as_millis()
                    ),
                );
                return Ok(());
            }
        }
    }
}

/// The request the program is thinking about.
struct Asked {
    /// When it was written to the program.
    sent: std::time::Instant,
    request_id: u64,
    table_id: String,
    name: &'static str,
    deadline_ms: u32,
    wait: Duration,
    until: Instant,
}

/// The `end` line for an outcome, when it has a winner and three scores.
fn end_line(outcome: Option<&v1::Outcome>) -> Option<ServerMessage> {
    let o = outcome?;
    let Some(v1::outcome::Game::Ddz(d)) = &o.game else {
        return None;
    };
    let winner = u8::try_from(d.winner).ok().and_then(Seat::new)?;
    let scores: [i64; 3] = o.scores.as_slice().try_into().ok()?;
    Some(ServerMessage::End { winner, scores })
}

/// An answer line as the action it stands for.
fn action_of(answer: &BotMessage) -> Option<v1::Action> {
    let d = match *answer {
        BotMessage::Bid(b) => DdzDecision::Bid(u32::from(b)),
        BotMessage::Double(x) => DdzDecision::Double(x),
        BotMessage::Play(cards) => DdzDecision::Play(cards),
        BotMessage::Join { .. } => return None,
    };
    Some(ddz_action(d))
}

/// Quotes a program's line, shortened if long.
fn quote(text: &str) -> String {
    let t = text.strip_suffix('\r').unwrap_or(text);
    if t.chars().count() <= ANSWER_QUOTE_CHARS {
        format!("{t:?}")
    } else {
        let short: String = t.chars().take(ANSWER_QUOTE_CHARS).collect();
        format!("{short:?}…")
    }
}

/// A running program: its pipes are served by tasks, so nothing it does blocks the seat.
struct Child {
    child: tokio::process::Child,
    pid: u32,
    input: Option<mpsc::UnboundedSender<String>>,
    output: mpsc::Receiver<Output>,
    stderr_tail: Arc<StderrTail>,
    stderr_done: watch::Receiver<bool>,
    limits: Limits,
    /// The sandbox it runs in, for what a crash report can add.
    sandbox: Sandbox,
    reaped: bool,
    /// Removed (after the process is killed) when the child is dropped.
    _dir: Option<tempfile::TempDir>,
}

impl Child {
    /// Starts the program in `workdir` (or a fresh temporary directory) in `sandbox` under
    /// `limits`.
    fn spawn(
        cmd: &CmdSpec,
        workdir: Option<&str>,
        sandbox: &Sandbox,
        limits: Limits,
        pass_env: &[String],
    ) -> Result<Child, String> {
        let (dir, temp) = match workdir {
            Some(d) => (PathBuf::from(d), None),
            None => {
                let made = |e: io::Error| {
                    format!("could not make a working directory for the program: {e}")
                };
                let t = tempfile::Builder::new()
                    .prefix("arena-bot-")
                    .tempdir()
                    .map_err(made)?;
                sandbox.prepare_workdir(t.path()).map_err(made)?;
                (t.path().to_path_buf(), Some(t))
            }
        };
        let mut command = tokio::process::Command::new(cmd.program());
        command
            .args(cmd.args())
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        sandbox
            .configure(command.as_std_mut(), &limits, pass_env)
            .map_err(|e| format!("could not start the program {cmd}: {e}"))?;
        let mut child = command.spawn().map_err(|e| {
            format!(
                "could not start the program {cmd} in {}: {e}",
                dir.display()
            )
        })?;
        let (Some(stdin), Some(stdout), Some(stderr), Some(pid)) = (
            child.stdin.take(),
            child.stdout.take(),
            child.stderr.take(),
            child.id(),
        ) else {
            let _ = child.start_kill();
            return Err("the program's pipes were not created".into());
        };
        let (in_tx, in_rx) = mpsc::unbounded_channel();
        tokio::spawn(write_lines(stdin, in_rx));
        let (out_tx, output) = mpsc::channel(READ_AHEAD_LINES);
        tokio::spawn(read_lines(stdout, out_tx));
        let stderr_tail = Arc::new(StderrTail::new());
        let (done_tx, stderr_done) = watch::channel(false);
        tokio::spawn(drain_stderr(stderr, Arc::clone(&stderr_tail), done_tx));
        Ok(Child {
            child,
            pid,
            input: Some(in_tx),
            output,
            stderr_tail,
            stderr_done,
            limits,
            sandbox: sandbox.clone(),
            reaped: false,
            _dir: temp,
        })
    }

    fn send(&self, lines: &[ServerMessage]) {
        let mut batch = String::new();
        for line in lines {
            batch.push_str(&line.encode());
            batch.push('\n');
        }
        if let Some(input) = &self.input {
            let _ = input.send(batch);
        }
    }

    /// The next output (a closed output once the reader is done). Cancel-safe.
    async fn recv(&mut self) -> Output {
        self.output.recv().await.unwrap_or(Output::Closed(None))
    }

    /// Waits for the `join` line; the name the program gave, if any.
    async fn join(&mut self, within: Duration) -> Result<Option<String>, Fault> {
        let until = Instant::now() + within;
        loop {
            let out = match tokio::time::timeout_at(until, self.recv()).await {
                Ok(out) => out,
                Err(_) => {
                    return Err(Fault::new(
                        v1::VerdictKind::Timeout,
                        format!(
                            "no \"join\" line within {} ms of starting (a program must flush its output after each line)",
                            within.as_millis()
                        ),
                    ));
                }
            };
            let text = match out {
                Output::Line(text) => text,
                Output::Closed(e) => {
                    return Err(self
                        .crash("the program exited before saying \"join\"".into(), e)
                        .await);
                }
                other => return Err(unreadable(other, "instead of \"join\"")),
            };
            match decode_bot_line(&text) {
                Ok(None) => continue,
                Ok(Some(BotMessage::Join { name })) => return Ok(name),
                Ok(Some(_)) => {
                    return Err(Fault::new(
                        v1::VerdictKind::Malformed,
                        format!(
                            "the first line must be \"join\" or \"join NAME\", got {}",
                            quote(&text)
                        ),
                    ));
                }
                Err(e) => {
                    return Err(Fault::new(
                        v1::VerdictKind::Malformed,
                        format!(
                            "the first line must be \"join\" or \"join NAME\", got {}: {e}",
                            quote(&text)
                        ),
                    ));
                }
            }
        }
    }

    /// Judges one output of the program: an answer to the open request, nothing (a comment),
    /// or a fault.
    async fn take_output(
        &mut self,
        out: Output,
        asked: Option<&Asked>,
    ) -> Result<Option<v1::Action>, Fault> {
        let context = match asked {
            Some(a) => format!("to the {} request", a.name),
            None => "when nothing was asked".to_string(),
        };
        let text = match out {
            Output::Line(text) => text,
            Output::Closed(e) => {
                let what = match asked {
                    Some(a) => {
                        format!("the program exited before answering the {} request", a.name)
                    }
                    None => "the program exited while waiting for its next request".to_string(),
                };
                return Err(self.crash(what, e).await);
            }
            other => return Err(unreadable(other, &context)),
        };
        let answer = match decode_bot_line(&text) {
            Ok(None) => return Ok(None),
            Ok(Some(answer)) => answer,
            Err(e) => {
                return Err(Fault::new(
                    v1::VerdictKind::Malformed,
                    format!("answered {} {context}: {e}", quote(&text)),
                ));
            }
        };
        if asked.is_none() {
            return Err(Fault::new(
                v1::VerdictKind::Malformed,
                format!("wrote {} when nothing was asked", quote(&text)),
            ));
        }
        match action_of(&answer) {
            Some(action) => Ok(Some(action)),
            None => Err(Fault::new(
                v1::VerdictKind::Malformed,
                format!(
                    "answered {} {context}: \"join\" is only the first line of a process",
                    quote(&text)
                ),
            )),
        }
    }

    /// A crash report: how the program ended, the limits in force and the end of its stderr.
    /// Kills what is left of its process group.
    async fn crash(&mut self, what: String, read_error: Option<String>) -> Fault {
        let exited = self.wait_exit(EXIT_WAIT).await;
        self.kill_group();
        let status = match tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await {
            Ok(Ok(s)) => {
                self.reaped = true;
                Some(s)
            }
            _ => None,
        };
        let mut reason = match (exited, status) {
            (true, Some(s)) => format!("{what} ({})", describe_status(s, &self.limits)),
            (false, _) => {
                format!("{what} (it closed its output but kept running, so it was killed)")
            }
            (true, None) => what,
        };
        if let Some(e) = read_error {
            reason.push_str(&format!("; reading its output failed: {e}"));
        }
        reason.push_str(&format!("; its limits: {}", self.limits));
        if let Some(tail) = self.stderr_tail(EXIT_WAIT).await {
            reason.push_str(&format!("; its stderr ended with: {tail:?}"));
            reason.push_str(self.sandbox.hint_for(&tail).unwrap_or(""));
        }
        Fault::new(v1::VerdictKind::Crashed, reason)
    }

    /// The last of the program's stderr, once it is all read (waiting up to `wait`).
    async fn stderr_tail(&mut self, wait: Duration) -> Option<String> {
        let _ = tokio::time::timeout(wait, self.stderr_done.wait_for(|d| *d)).await;
        self.stderr_tail.quote(STDERR_QUOTE_CHARS)
    }

    /// Waits up to `within` for the program to exit by itself, without reaping it (so that
    /// its process group cannot be reused before it is killed).
    async fn wait_exit(&mut self, within: Duration) -> bool {
        let until = Instant::now() + within;
        loop {
            if self.reaped || exited_unreaped(self.pid) {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Kills the program's whole process group (while its leader is not reaped, the group id
    /// cannot have been reused).
    fn kill_group(&mut self) {
        if self.reaped {
            return;
        }
        kill_group(self.pid);
        let _ = self.child.start_kill();
    }

    /// Ends the session politely: the result, `bye`, closed input, the grace to exit, then
    /// the process group is killed.
    async fn finish(mut self, end: Option<ServerMessage>, grace: Duration) {
        let mut lines: Vec<ServerMessage> = end.into_iter().collect();
        lines.push(ServerMessage::Bye);
        self.send(&lines);
        self.input = None;
        let exited = self.wait_exit(grace).await;
        self.kill_group();
        if let Ok(Ok(status)) =
            tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await
        {
            self.reaped = true;
            tracing::debug!(pid = self.pid, exited_by_itself = exited, status = %describe_status(status, &self.limits), "program ended");
        }
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.kill_group();
    }
}

/// A fault for output that is no line of text.
fn unreadable(out: Output, context: &str) -> Fault {
    let reason = match out {
        Output::NotUtf8(lossy) => format!(
            "wrote a line that is not UTF-8 text {context}: {}",
            quote(&lossy)
        ),
        Output::TooLong(start) => format!(
            "wrote a line longer than {MAX_LINE_BYTES} bytes {context}, starting {}",
            quote(&start)
        ),
        Output::Line(text) => format!("wrote {} {context}", quote(&text)),
        Output::Closed(_) => format!("closed its output {context}"),
    };
    Fault::new(v1::VerdictKind::Malformed, reason)
}

async fn write_lines(mut stdin: ChildStdin, mut lines: mpsc::UnboundedReceiver<String>) {
    while let Some(text) = lines.recv().await {
        if stdin.write_all(text.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
            break;
        }
    }
    // Dropping stdin closes the program's input.
}

async fn read_lines(stdout: ChildStdout, tx: mpsc::Sender<Output>) {
    let mut reader = BufReader::with_capacity(MAX_LINE_BYTES, stdout);
    let mut lines = LineSplitter::new(MAX_LINE_BYTES);
    loop {
        let out = next_output(&mut reader, &mut lines).await;
        let closed = matches!(out, Output::Closed(_));
        if tx.send(out).await.is_err() || closed {
            break;
        }
    }
}

/// [`ddz_line::lines::next_output`] over an async reader.
async fn next_output<R: AsyncBufRead + Unpin>(r: &mut R, lines: &mut LineSplitter) -> Output {
    loop {
        let (used, line) = match r.fill_buf().await {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Output::Closed(Some(e.to_string())),
            Ok([]) => return lines.finish().unwrap_or(Output::Closed(None)),
            Ok(available) => lines.feed(available),
        };
        r.consume(used);
        if let Some(line) = line {
            return line;
        }
    }
}

async fn drain_stderr(mut stderr: ChildStderr, tail: Arc<StderrTail>, done: watch::Sender<bool>) {
    let mut chunk = vec![0u8; 8192];
    loop {
        match stderr.read(&mut chunk).await {
            Ok(0) => break,
            Ok(n) => tail.push(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    done.send_replace(true);
}

/// Permits a program seat holds while its process lives.
pub(crate) struct ProgramPermits {
    pub(crate) _bot: Option<OwnedSemaphorePermit>,
    pub(crate) _host: Option<OwnedSemaphorePermit>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_async_reader_yields_the_lines_then_closed() {
        let input: &'static [u8] = b"bid 1\r\n0123456789abc\nlast";
        let mut r = BufReader::with_capacity(4, input);
        let mut lines = LineSplitter::new(8);
        let mut got = Vec::new();
        for _ in 0..4 {
            got.push(next_output(&mut r, &mut lines).await);
        }
        assert_eq!(
            got,
            [
                Output::Line("bid 1\r".into()),
                Output::TooLong("01234567".into()),
                Output::Line("last".into()),
                Output::Closed(None),
            ]
        );
    }

    #[test]
    fn answers_become_actions_and_the_end_line_needs_a_whole_outcome() {
        let a = action_of(&BotMessage::Play("33".parse().unwrap())).unwrap();
        assert_eq!(
            arena_games::ddz::convert::ddz_decision(&a),
            Ok(DdzDecision::Play("33".parse().unwrap()))
        );
        assert!(action_of(&BotMessage::Join { name: None }).is_none());
        let outcome = v1::Outcome {
            scores: vec![2, -1, -1],
            scoring: "competition".into(),
            game: Some(v1::outcome::Game::Ddz(v1::DdzOutcome {
                winner: 0,
                ..Default::default()
            })),
        };
        assert_eq!(
            end_line(Some(&outcome)).map(|m| m.encode()).as_deref(),
            Some("end 0 2 -1 -1")
        );
        let short = v1::Outcome {
            scores: vec![1],
            ..outcome
        };
        assert!(end_line(Some(&short)).is_none());
        assert!(end_line(None).is_none());
    }
}
