//! Bot programs: a registered `Program` bot plays each table seat in a child process of its own
//! that speaks its game's line protocol: the game's [`arena_line::ProgramProtocol`]
//! ([`arena_games::Game::program_protocol`]; the protocols are documented under `docs/`), run by the
//! one [`ProgramSession`] on [`arena_line::Program`]. bot-host names no game: what a seat is
//! told, what its lines mean and what it hears at the end are the protocol's.
//!
//! The process starts in its own working directory (the bot's `workdir`, else a fresh temporary
//! directory made for it and removed afterwards) in the sandbox of [`arena_sandbox`]: under the
//! host's limits ([`ProcessLimits::limits`](crate::ProcessLimits::limits)) lowered by the bot
//! record's own, isolated by every layer the kernel grants, with only the environment variables
//! listed in [`ProcessLimits::pass_env`](crate::ProcessLimits::pass_env) (plus the sandbox's
//! `PATH`, and `HOME` and `TMPDIR` at its working directory), and must greet (`join`) within
//! the start-up time; then the seat is ready.
//! Each request is sent as the lines of the game the program has not seen and the question;
//! its answer is forwarded as the bot's reply. When the table closes, the program is told what
//! its protocol tells at the end, and is given the exit grace before its whole process group is
//! killed. All I/O is async: a program that stops reading or writing blocks nothing.
//!
//! What bot-host judges, and what it leaves to the referee:
//!
//! - A line that is a valid answer is forwarded as it is, even when it is illegal: the referee
//!   judges legality and deadlines (and the game's kinds). How a protocol reads a word against
//!   its question is the protocol's (Mahjong reads it as the 2015 contest did).
//! - A line that is no line of the protocol (unknown command, bad cards, too long, not UTF-8), a
//!   greeting in the middle of a game, or a line written when nothing was asked: bot-host cannot
//!   forward it, so it reports `SeatFault{MALFORMED}` quoting the line, and kills the program
//!   (a protocol may ignore such lines instead, as Mahjong's does up to a limit).
//! - The program exits (or closes its output), crashes, or is killed by its limits:
//!   `SeatFault{CRASHED}` with its exit status, the limits in force and the end of its stderr.
//! - The program cannot be started: `SeatFault{CRASHED}`; it does not greet in time:
//!   `SeatFault{TIMEOUT}`; its first line is not the greeting: `SeatFault{MALFORMED}`.
//! - Silence: the referee judges the timeout at its hard cap; bot-host waits the hard cap plus a
//!   margin and then gives up with `SeatFault{TIMEOUT}`, killing the program. When the protocol
//!   can tell why the program is silent ([`arena_line::ProgramProtocol::silence`]: a Botzone
//!   keep-running bot that wrote its output but neither printed the marker nor exited), bot-host
//!   tells the referee at once in a `SeatNote` for the request, which the referee's timeout
//!   verdict quotes should no answer come by the hard cap.
//!
//! Requests that arrive while the program is still thinking are queued and asked in order once
//! it answers (the line protocol has one question open at a time), so a late answer is
//! forwarded with the request id it belongs to, and the referee drops it if it moved on.
//!
//! Known limitation: `SeatClose` carries the outcome but not the public events after the seat's
//! last request, so the program hears the end without the plays that ended the game.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use arena_games::GameKind;
use arena_line::{CmdSpec, Launch, ProgramSession, StderrMode, WorkDir};
use arena_proto::v1;
use arena_sandbox::Limits;
use arena_serve::ApiError;
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
    let game = GameKind::from_wire(&io.open.game).map_err(ApiError::Invalid)?;
    let launch = Launch {
        sandbox: ctx.sandbox.clone(),
        limits,
        pass_env: ctx.config.processes.pass_env.clone(),
        stderr: StderrMode::Capture,
        workdir: spec
            .workdir
            .as_ref()
            .map_or(WorkDir::Fresh, |d| WorkDir::At(d.into())),
        ..Launch::default()
    };
    let protocol = match game.program_protocol_for(io.open.seat, &cmd) {
        Ok(p) => p,
        // The registry checks a bot's protocol when it is added: a record naming one its game
        // lacks was written by hand or by another version, which no request of the bot mends.
        Err(why) => {
            io.fault(
                v1::VerdictKind::Crashed,
                format!("bot {:?} cannot be seated: {why}", spec.bot),
            );
            return Ok(());
        }
    };
    let mut child = match ProgramSession::start(&cmd, launch, protocol) {
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
    let joining = child.join(startup);
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
            let name = child.ask(&req, deadline).map_err(ApiError::Invalid)?;
            let wait = hard_cap.max(deadline) + ctx.config.decisions.silence_margin;
            asked = Some(Asked {
                sent: std::time::Instant::now(),
                request_id: req.request_id,
                table_id: req.table_id,
                name,
                deadline_ms,
                wait,
                until: Instant::now() + wait,
                noted: false,
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
                    let grace = ctx.config.processes.exit_grace;
                    // The referee's stream ends now; the program is told goodbye in the background.
                    tokio::spawn(async move {
                        let _permits = permits;
                        let ended = child.close(close.outcome.as_ref(), grace).await;
                        if let Some(status) = ended.status {
                            tracing::debug!(
                                pid,
                                exited_by_itself = ended.by_itself,
                                status = %child.program().describe(status),
                                "program ended"
                            );
                        }
                    });
                    return Ok(());
                }
                FromReferee::Gone => return Ok(()),
            },
            out = child.recv() => {
                match child.hear(out, asked.as_ref().map(|a| a.name)).await {
                    Ok(None) => {
                        // The referee judges the timeout at its hard cap, before bot-host's own:
                        // it is told why now, while the bot still has its time.
                        if let Some(a) = asked.as_mut().filter(|a| !a.noted)
                            && let Some(why) = child.silence()
                        {
                            a.noted = true;
                            io.note(a.request_id, &why);
                        }
                    }
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
                // Why it is silent, when its protocol can tell (the referee's own timeout at
                // the hard cap usually comes first; this one is for a referee that waits longer).
                let why = child.silence().map(|w| format!(": {w}")).unwrap_or_default();
                io.fault(
                    v1::VerdictKind::Timeout,
                    format!(
                        "no answer to the {name} request within {} ms (deadline {deadline} ms, hard cap {} ms, \
                         plus a margin of {} ms); the program was killed{why}",
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
    /// The referee was told why the program is silent on it (`SeatNote`, at most once).
    noted: bool,
}

/// Permits a program seat holds while its process lives.
pub(crate) struct ProgramPermits {
    pub(crate) _bot: Option<OwnedSemaphorePermit>,
    pub(crate) _host: Option<OwnedSemaphorePermit>,
}
