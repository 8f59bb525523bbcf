//! Bot programs: a registered `Program` bot plays each table seat in a child process of its own
//! that speaks its game's line protocol — Dou Dizhu's (`docs/ddz-line-protocol.md`,
//! [`ddz_line::DdzLine`]) or the 2015 contest's Mahjong protocol
//! (`docs/mahjong-line-protocol.md`, [`mahjong_line::MahjongLine`]) — supervised by
//! [`arena_line::Program`].
//!
//! The process starts in its own working directory (the bot's `workdir`, else a fresh temporary
//! directory made for it and removed afterwards) in the sandbox of [`arena_sandbox`]: under the
//! host's limits ([`ProcessLimits::limits`](crate::ProcessLimits::limits)) lowered by the bot
//! record's own, isolated by every layer the kernel grants, with only the environment variables
//! listed in [`ProcessLimits::pass_env`](crate::ProcessLimits::pass_env) (plus the sandbox's
//! `PATH`, and `HOME` and `TMPDIR` at its working directory), and must say `join` within the
//! start-up time; then the seat is ready.
//! Each request is sent as the lines of the game the program has not seen (rebuilt from the
//! request's observation) and the question (Dou Dizhu: an `ask` line; Mahjong: the last line
//! of the catch-up, as the contest's server asked); its answer is forwarded as the bot's reply.
//! At the end of a Dou Dizhu table the program is told `end W S0 S1 S2` (from the referee's
//! outcome) and `bye`; a Mahjong program is told nothing (the contest announced no end). Either
//! is given the exit grace before its whole process group is killed. All I/O is async: a
//! program that stops reading or writing blocks nothing.
//!
//! What bot-host judges, and what it leaves to the referee:
//!
//! - A line that is a valid answer (`bid B`, `double D`, `play CARDS`; Mahjong's answers to the
//!   question asked) is forwarded as it is, even when it is illegal: the referee judges
//!   legality and deadlines (and Dou Dizhu's kinds). A Mahjong word is read against the
//!   question, as the contest read it ([`mahjong_line::read_answer`]): `hu` is a self-drawn
//!   win, a win on the discard or a robbed kong; a claim word on the seat's own turn is ignored
//!   (the program may still answer); a `chi` from a seat that may not chow is a pass; any other
//!   word of the wrong kind (`out` to a discard) is `SeatFault{MALFORMED}`.
//! - A line that is no line of the protocol (unknown command, bad cards, too long, not UTF-8), a
//!   `join` in the middle of a game, or any line written when nothing was asked: bot-host cannot
//!   forward it, so it reports `SeatFault{MALFORMED}` quoting the line, and kills the program.
//!   A Mahjong program's blank lines and well-formed words written when nothing was asked are
//!   ignored instead, as the contest ignored them, up to [`MAX_IGNORED_LINES`] between two
//!   answers.
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

use arena_games::GameKind;
use arena_games::ddz::convert::{DdzDecision, ddz_action};
use arena_games::ddz::request::DdzView;
use arena_games::mahjong::request::MahjongRequest;
use arena_line::{CmdSpec, Framing, Launch, LineProtocol, Output, Program, StderrMode, WorkDir};
use arena_proto::v1;
use arena_sandbox::Limits;
use arena_serve::ApiError;
use ddz_line::{BotMessage, DdzEnd, DdzLine, DdzSeat};
use mahjong_line::{Judged, MAX_IGNORED_LINES, MahjongLine};
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;
use tonic::Status;

use crate::ctx::Ctx;
use crate::metrics::{BotKind, relayed};
use crate::seat_io::{FromReferee, SeatIo, Waited, while_reading};

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

/// A seat's session of its game's line protocol.
enum Session {
    Ddz(DdzLine),
    Mahjong {
        line: MahjongLine,
        /// The decision of the request asked last, which the program's words are read against.
        decision: Option<mahjong::Decision>,
        /// Lines that answered nothing since the last answer.
        ignored: usize,
    },
}

/// What a line of the program means.
enum Heard {
    /// Nothing to forward: a line the protocol ignores.
    Nothing,
    /// The answer to the open request.
    Answer(v1::Action),
}

impl Session {
    /// A fresh session for `seat` of a `game` table.
    fn new(game: GameKind, seat: u32) -> Session {
        // Transitional until each game registers its program protocol: seats past 3 are
        // refused when the seat opens.
        if game == arena_games::mahjong::GAME {
            Session::Mahjong {
                line: MahjongLine::new((seat & 3) as u8),
                decision: None,
                ignored: 0,
            }
        } else {
            Session::Ddz(DdzLine::default())
        }
    }

    fn framing(&self) -> Framing {
        match self {
            Session::Ddz(l) => l.framing(),
            Session::Mahjong { line, .. } => line.framing(),
        }
    }

    /// Waits for a fresh program's greeting.
    async fn join(&self, child: &mut Program, within: Duration) -> Result<Option<String>, Fault> {
        let joined = match self {
            Session::Ddz(l) => arena_line::join(child, l, within, |_: &str| {}).await,
            Session::Mahjong { line, .. } => {
                arena_line::join(child, line, within, |_: &str| {}).await
            }
        };
        joined.map_err(Fault::from)
    }

    /// The lines that put `req` to the program, in `out`; the question's name. A request that
    /// contradicts itself is refused, naming the field.
    fn ask(
        &mut self,
        req: &v1::DecisionRequest,
        deadline: Duration,
        out: &mut Vec<String>,
    ) -> Result<&'static str, ApiError> {
        match self {
            Session::Ddz(line) => {
                let view = DdzView::from_request(req).map_err(|e| ApiError::Invalid(e.0))?;
                let obs = view.observation();
                let legal = view.legal_moves();
                let seat = DdzSeat {
                    obs: &obs,
                    legal: &legal,
                };
                line.catch_up(&seat, out);
                Ok(line.ask(&seat, deadline, out))
            }
            Session::Mahjong { line, decision, .. } => {
                let r = MahjongRequest::from_request(req).map_err(|e| ApiError::Invalid(e.0))?;
                let view = r.view();
                line.catch_up(&view, out);
                *decision = Some(r.decision());
                Ok(line.ask(&view, deadline, out))
            }
        }
    }

    /// Reads a line of the program (`asked`: while a request is open, which `context` names
    /// for fault reasons); `Err` with the whole reason for a line that is a fault.
    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
        let quoted = arena_line::quote(text);
        let answered = |e: &dyn std::fmt::Display| format!("answered {quoted} {context}: {e}");
        match self {
            Session::Ddz(line) => match line.parse(text).map_err(|e| answered(&e))? {
                None => Ok(Heard::Nothing),
                Some(_) if !asked => Err(format!("wrote {quoted} when nothing was asked")),
                Some(answer) => action_of(&answer)
                    .map(Heard::Answer)
                    .ok_or_else(|| answered(&"\"join\" is only the first line of a process")),
            },
            // The contest's reading (docs/mahjong-line-protocol.md): words that answer nothing
            // are ignored, up to a limit.
            Session::Mahjong {
                line,
                decision,
                ignored,
            } => {
                let message = line.parse(text).map_err(|e| answered(&e))?;
                let judged = match (message, *decision) {
                    (Some(m), Some(d)) if asked => {
                        mahjong_line::read_answer(d, &m).map_err(|e| answered(&e))?
                    }
                    _ => Judged::Ignored("a blank line, or a line when nothing was asked"),
                };
                let action = match judged {
                    Judged::Answer(a) => a,
                    Judged::AsPass(_) => mahjong::Action::Pass,
                    Judged::Ignored(why) => {
                        *ignored += 1;
                        if *ignored > MAX_IGNORED_LINES {
                            return Err(format!(
                                "wrote more than {MAX_IGNORED_LINES} lines that answer nothing since its last answer (the last: {quoted}); a bot writes one line per question"
                            ));
                        }
                        tracing::debug!(line = %quoted, why, "ignored a line of the program");
                        return Ok(Heard::Nothing);
                    }
                };
                *ignored = 0;
                Ok(Heard::Answer(arena_games::mahjong::convert::action(action)))
            }
        }
    }

    /// The lines a program is told when its table closes with `outcome`.
    fn close(&mut self, outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
        match self {
            Session::Ddz(line) => {
                if let Some(end) = end_of(outcome) {
                    line.end(&end, out);
                }
                line.farewell(out);
            }
            Session::Mahjong { line, .. } => {
                line.end(&(), out);
                line.farewell(out);
            }
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
    let game = GameKind::from_wire(io.open.game).map_err(ApiError::Invalid)?;
    let mut line = Session::new(game, io.open.seat);
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
            // The cause first: the referee cuts a verdict's reason to 80 characters, and a
            // command line can be longer than that on its own.
            let e = e.to_string();
            let hint = ctx.sandbox.hint_for(&e).unwrap_or("");
            io.fault(
                v1::VerdictKind::Crashed,
                format!("{e}{hint}; the command: {}", cmd.command_line()),
            );
            return Ok(());
        }
    };
    let pid = child.id();
    tracing::info!(pid, command = %cmd, %limits, "program started");
    let startup = ctx.config.processes.startup_timeout;
    let joining = line.join(&mut child, startup);
    match while_reading(&mut io, &mut queue, &ctx.closing, joining).await? {
        Waited::Done(Ok(name)) => {
            tracing::debug!(pid, name = name.as_deref().unwrap_or(""), "program joined");
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
    let mut asked: Option<Asked> = None;
    loop {
        if asked.is_none()
            && let Some(req) = queue.pop_front()
        {
            let deadline_ms = match req.deadline_ms {
                0 => decision_ms,
                n => n,
            };
            let deadline = Duration::from_millis(u64::from(deadline_ms));
            let mut lines = Vec::new();
            let name = line.ask(&req, deadline, &mut lines)?;
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
                    line.close(close.outcome.as_ref(), &mut lines);
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
                match take_output(&mut child, &mut line, out, asked.as_ref()).await {
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
    line: &mut Session,
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
    match line.hear(&text, &context, asked.is_some()) {
        Ok(Heard::Nothing) => Ok(None),
        Ok(Heard::Answer(action)) => Ok(Some(action)),
        Err(reason) => Err(Fault::new(v1::VerdictKind::Malformed, reason)),
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
