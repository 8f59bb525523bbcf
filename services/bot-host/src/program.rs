//! Bot programs: a registered `Program` bot plays each table seat in a child process of its own
//! that speaks the Dou Dizhu line protocol (`docs/ddz-line-protocol.md`, [`ddz_line::DdzLine`]),
//! supervised by [`arena_line::Program`].
//!
//! The process starts in its own working directory (the bot's `workdir`, else a fresh temporary
//! directory made for it and removed afterwards) in the sandbox of [`arena_sandbox`]: under the
//! host's limits ([`ProcessLimits::limits`](crate::ProcessLimits::limits)) lowered by the bot
//! record's own, isolated by every layer the kernel grants, with only the environment variables
//! listed in [`ProcessLimits::pass_env`](crate::ProcessLimits::pass_env) (plus the sandbox's
//! `PATH`, and `HOME` and `TMPDIR` at its working directory), and must say `join` within the
//! start-up time; then the seat is ready.
//! Each request is sent as the lines of the game the program has not seen (from
//! [`ddz_line::DdzLine`]) and an `ask`; its answer is forwarded as the bot's reply. At the end
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
use std::sync::Arc;
use std::time::Duration;

use arena_games::ddz::convert::{DdzDecision, ddz_action};
use arena_line::{CmdSpec, Launch, LineProtocol, Output, Program, StderrMode, WorkDir};
use arena_proto::v1;
use arena_sandbox::Limits;
use arena_serve::ApiError;
use ddz_line::{BotMessage, DdzEnd, DdzLine, DdzSeat};
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;
use tonic::Status;

use crate::metrics::{BotKind, relayed};
use crate::seat::{FromReferee, SeatIo, Waited, while_reading};
use crate::server::Ctx;
use arena_games::ddz::request::DdzView;

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

impl From<arena_line::Fault> for Fault {
    fn from(f: arena_line::Fault) -> Fault {
        let kind = v1::VerdictKind::try_from(f.kind.wire()).unwrap_or(v1::VerdictKind::Crashed);
        Fault::new(kind, f.reason)
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
    let mut line = DdzLine::default();
    let launch = Launch {
        sandbox: ctx.sandbox.clone(),
        limits,
        pass_env: ctx.config.processes.pass_env.clone(),
        stderr: StderrMode::Capture,
        workdir: spec
            .workdir
            .as_ref()
            .map_or(WorkDir::Fresh, |d| WorkDir::At(d.into())),
        framing: line.framing(),
    };
    let mut child = match Program::spawn(&cmd, &launch) {
        Ok(c) => c,
        Err(e) => {
            io.fault(v1::VerdictKind::Crashed, format!("{cmd}: {e}"));
            return Ok(());
        }
    };
    let pid = child.id();
    tracing::info!(pid, command = %cmd, %limits, "program started");
    let startup = ctx.config.processes.startup_timeout;
    let joining = arena_line::join(&mut child, &line, startup, |_: &str| {});
    match while_reading(&mut io, &mut queue, &ctx.closing, joining).await? {
        Waited::Done(Ok(name)) => {
            tracing::debug!(pid, name = name.as_deref().unwrap_or(""), "program joined");
        }
        Waited::Done(Err(fault)) => {
            let fault = Fault::from(fault);
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
    let mut asked: Option<Asked> = None;
    loop {
        if asked.is_none()
            && let Some(req) = queue.pop_front()
        {
            let view = DdzView::from_request(&req).map_err(|e| ApiError::Invalid(e.0))?;
            let obs = view.observation();
            let legal = view.legal_moves();
            let deadline_ms = match req.deadline_ms {
                0 => decision_ms,
                n => n,
            };
            let deadline = Duration::from_millis(u64::from(deadline_ms));
            let seat = DdzSeat {
                obs: &obs,
                legal: &legal,
            };
            let mut lines = Vec::new();
            line.catch_up(&seat, &mut lines);
            let name = line.ask(&seat, deadline, &mut lines);
            child.send_lines(&lines);
            let wait = hard_cap.max(deadline) + ctx.config.decisions.silence_margin;
            asked = Some(Asked {
                sent: std::time::Instant::now(),
                request_id: req.request_id,
                table_id: req.table_id,
                name,
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
                    let mut lines = Vec::new();
                    if let Some(end) = end_of(close.outcome.as_ref()) {
                        line.end(&end, &mut lines);
                    }
                    line.farewell(&mut lines);
                    let grace = ctx.config.processes.exit_grace;
                    // The referee's stream ends now; the program is told goodbye in the background.
                    tokio::spawn(async move {
                        let _permits = permits;
                        let ended = child.close(&lines, grace).await;
                        if let Some(status) = ended.status {
                            tracing::debug!(
                                pid,
                                exited_by_itself = ended.by_itself,
                                status = %child.describe(status),
                                "program ended"
                            );
                        }
                    });
                    return Ok(());
                }
                FromReferee::Gone => return Ok(()),
            },
            (_, out) = child.recv() => {
                match take_output(&mut child, &line, out, asked.as_ref()).await {
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

/// The end of the game for an outcome, when it has a winner and three scores.
fn end_of(outcome: Option<&v1::Outcome>) -> Option<DdzEnd<'static>> {
    let o = outcome?;
    let Some(v1::outcome::Game::Ddz(d)) = &o.game else {
        return None;
    };
    DdzEnd::result(d.winner, &o.scores)
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

/// Judges one output of the program: an answer to the open request, nothing (a comment),
/// or a fault (the program is then killed, or is killed when dropped).
async fn take_output(
    child: &mut Program,
    line: &DdzLine,
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
            return Err(child.crash(&what, e).await.into());
        }
        other => {
            return Err(arena_line::unreadable(&other, &context, &line.framing())
                .1
                .into());
        }
    };
    let quote = arena_line::quote;
    let answer = match line.parse(&text) {
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

/// Permits a program seat holds while its process lives.
pub(crate) struct ProgramPermits {
    pub(crate) _bot: Option<OwnedSemaphorePermit>,
    pub(crate) _host: Option<OwnedSemaphorePermit>,
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut lines = Vec::new();
        DdzLine::default().end(&end_of(Some(&outcome)).unwrap(), &mut lines);
        assert_eq!(lines, ["end 0 2 -1 -1"]);
        let short = v1::Outcome {
            scores: vec![1],
            ..outcome
        };
        assert!(end_of(Some(&short)).is_none());
        assert!(end_of(None).is_none());
    }
}
