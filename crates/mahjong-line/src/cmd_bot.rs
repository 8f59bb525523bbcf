//! [`CmdBot`]: a [`Player`] played by a program that speaks the contest's line protocol.

use std::fmt;
use std::time::{Duration, Instant};

use arena_line::blocking::Program;
use arena_line::{
    CmdSpec, DEFAULT_PASS_ENV, Direction, Launch, LineProtocol, Output, SpecError, StderrMode,
    TranscriptLine, WorkDir, later, quote,
};
use arena_sandbox::{Limits, Policy, Sandbox};
use mahjong::{Action, ActionList, Phase, View};
use mahjong_bots::{BotFault, Player, Reply, TimeLimits, VerdictKind};

use crate::codec::decode_bot_line;
use crate::feed::{self, AnswerError, Judged};
use crate::line::MahjongLine;

/// The most lines a program may write that answer nothing (blank lines, out-of-place words)
/// between two answers. A bot writes one line per question; the contest's bots add at most
/// one (a `pass` to their own `mjgang`) now and then.
pub const MAX_IGNORED_LINES: usize = 64;

/// Options of a [`CmdBot`]. `CmdBotConfig::default()` is the contest set-up.
#[derive(Clone, Debug)]
pub struct CmdBotConfig {
    /// The time limits: the turn and claim limits are noted in the transcript when passed
    /// (the hand driver charges the penalty); at the hard cap the program is cut off with a
    /// timeout. Default: 1 s, 0.5 s, 5 s.
    pub time: TimeLimits,
    /// Time a new process has to print `join` (default 5 s).
    pub join_timeout: Duration,
    /// The program's working directory (default: a fresh temporary one per process, removed
    /// after it is killed). In the sandbox it is the one directory the program may write in.
    pub workdir: WorkDir,
    /// The sandbox the program runs in (default: every isolation layer the kernel grants, see
    /// [`arena_sandbox`]).
    pub sandbox: Sandbox,
    /// The program's resource limits (default [`Limits::HOST_DEFAULT`]), per process, so per
    /// hand.
    pub limits: Limits,
    /// The caller's environment variables the program gets (default [`DEFAULT_PASS_ENV`]).
    pub pass_env: Vec<String>,
    /// Where the program's stderr goes (default: captured for crash verdicts).
    pub stderr: StderrMode,
    /// Keep every line sent and received, see [`CmdBot::transcript`] (default off).
    pub transcript: bool,
}

impl Default for CmdBotConfig {
    fn default() -> Self {
        CmdBotConfig {
            time: TimeLimits::default(),
            join_timeout: Duration::from_secs(5),
            workdir: WorkDir::Fresh,
            sandbox: Sandbox::new(Policy::default()),
            limits: Limits::HOST_DEFAULT,
            pass_env: DEFAULT_PASS_ENV.iter().map(|v| v.to_string()).collect(),
            stderr: StderrMode::Capture,
            transcript: false,
        }
    }
}

/// Counters over a [`CmdBot`]'s life.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CmdBotStats {
    /// Processes started (one per hand).
    pub processes_started: u64,
    /// Questions sent.
    pub questions: u64,
    /// Answers accepted.
    pub answers: u64,
    /// Answers accepted after their limit (each costs penalty points).
    pub late_answers: u64,
    /// The longest time an accepted answer took.
    pub slowest_answer: Duration,
    /// The time all accepted answers took together.
    pub answer_time: Duration,
    /// Lines ignored: blank, out of place, or a `chi` from the wrong seat.
    pub ignored_lines: u64,
    /// Faults.
    pub faults: u64,
}

/// A fault found while asking, and how long the program had been asked when it was found.
struct Asked {
    fault: BotFault,
    elapsed: Option<Duration>,
}

impl From<BotFault> for Asked {
    fn from(fault: BotFault) -> Asked {
        Asked {
            fault,
            elapsed: None,
        }
    }
}

fn bot_fault(f: arena_line::Fault) -> BotFault {
    // A program's faults are only ever of the kinds both tables share.
    let kind = VerdictKind::from_wire(f.kind as i32).unwrap_or(VerdictKind::Crashed);
    BotFault::new(kind, f.reason)
}

/// A seat played by a program that speaks the contest's Mahjong line protocol on its stdin and
/// stdout (`docs/mahjong-line-protocol.md`), unmodified.
///
/// Each hand runs a fresh process, with no arguments but the spec's, in its own working
/// directory, started at [`Player::start_hand`]. Its `join` is awaited at its first question
/// (so that the four seats start up side by side); then it is told `id`, `first`, `init` and
/// every event it saw, and its answer is read, timed and judged. Any fault (no `join`, an
/// exit, silence past the hard cap, garbage, an overlong line, an impossible move) is reported
/// as a [`BotFault`] with a reason its author can act on, and the process is killed at once;
/// the driver plays the seat on automatically. At [`Player::end_hand`] nothing is sent: the
/// process and its whole group are killed and reaped.
pub struct CmdBot {
    spec: CmdSpec,
    config: CmdBotConfig,
    process: Option<Program>,
    joined: bool,
    name: Option<String>,
    line: MahjongLine,
    /// Hands started, counting from 1.
    hands: u64,
    dead: bool,
    /// Lines ignored since the last answer.
    ignored: usize,
    transcript: Vec<TranscriptLine>,
    stats: CmdBotStats,
}

impl CmdBot {
    /// A bot for `spec`. Nothing is started until a hand starts.
    pub fn new(spec: CmdSpec, config: CmdBotConfig) -> CmdBot {
        CmdBot {
            spec,
            config,
            process: None,
            joined: false,
            name: None,
            line: MahjongLine::new(0),
            hands: 0,
            dead: false,
            ignored: 0,
            transcript: Vec::new(),
            stats: CmdBotStats::default(),
        }
    }

    /// A bot for `cmd:PROGRAM [ARGS]` (the `cmd:` prefix is optional).
    pub fn from_spec(spec: &str, config: CmdBotConfig) -> Result<CmdBot, SpecError> {
        Ok(CmdBot::new(CmdSpec::parse(spec)?, config))
    }

    /// The program's command line.
    pub fn spec(&self) -> &CmdSpec {
        &self.spec
    }

    /// The counters so far.
    pub fn stats(&self) -> CmdBotStats {
        self.stats
    }

    /// The process id of the running program, if one runs.
    pub fn process_id(&self) -> Option<u32> {
        self.process.as_ref().map(Program::id)
    }

    /// The name the program gave after `join` in this hand, if it gave one.
    pub fn joined_name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Every line sent and received and the host's notes, when [`CmdBotConfig::transcript`]
    /// is on.
    pub fn transcript(&self) -> &[TranscriptLine] {
        &self.transcript
    }

    /// Takes the transcript so far, leaving it empty.
    pub fn take_transcript(&mut self) -> Vec<TranscriptLine> {
        std::mem::take(&mut self.transcript)
    }

    fn record(&mut self, direction: Direction, text: String) {
        if self.config.transcript {
            self.transcript.push(TranscriptLine {
                game: self.hands,
                direction,
                text,
            });
        }
    }

    fn note(&mut self, text: String) {
        self.record(Direction::Note, text);
    }

    /// Kills the program's process group and reaps it, if one runs.
    fn stop(&mut self, why: &str) {
        if let Some(mut p) = self.process.take() {
            let status = p
                .kill()
                .map_or_else(|| "not reaped".into(), |s| p.describe(s));
            self.note(format!("process {} {why} ({status})", p.id()));
        }
        self.joined = false;
    }

    /// Records a fault, makes the seat dead for the rest of the hand and kills the program.
    fn fault(&mut self, fault: &BotFault) {
        self.note(format!("verdict {}: {}", fault.kind, fault.reason));
        self.stats.faults += 1;
        self.dead = true;
        self.stop("killed");
    }

    fn launch(&self) -> Launch {
        Launch {
            sandbox: self.config.sandbox.clone(),
            limits: self.config.limits,
            pass_env: self.config.pass_env.clone(),
            stderr: self.config.stderr,
            workdir: self.config.workdir.clone(),
            framing: self.line.framing(),
        }
    }

    /// The report of a program whose output closed: how it ended, its limits, its last words.
    fn crashed(&mut self, what: &str, read_error: Option<String>) -> BotFault {
        match self.process.as_mut() {
            Some(p) => bot_fault(p.crash(what, read_error)),
            None => BotFault::new(VerdictKind::Crashed, what),
        }
    }

    /// A fault for output that is no line of text (too long, not UTF-8).
    fn unreadable(&mut self, out: &Output, context: &str) -> BotFault {
        let (heard, fault) = arena_line::unreadable(out, context, &self.line.framing());
        self.record(Direction::FromBot, heard);
        bot_fault(fault)
    }

    /// Counts a line that answers nothing; too many of them are a fault.
    fn ignore(&mut self, text: &str, why: &str) -> Result<(), BotFault> {
        self.note(format!("ignored {}: {why}", quote(text)));
        self.stats.ignored_lines += 1;
        self.ignored += 1;
        if self.ignored > MAX_IGNORED_LINES {
            return Err(BotFault::new(
                VerdictKind::Malformed,
                format!(
                    "wrote more than {MAX_IGNORED_LINES} lines that answer nothing since its last answer (the last: {}); a bot writes one line per question",
                    quote(text)
                ),
            ));
        }
        Ok(())
    }

    /// Awaits the program's `join` if it has not joined yet.
    fn ensure_joined(&mut self) -> Result<(), BotFault> {
        if self.joined {
            return Ok(());
        }
        let Some(p) = self.process.as_mut() else {
            return Err(BotFault::new(
                VerdictKind::Crashed,
                "the program is not running",
            ));
        };
        let mut heard = Vec::new();
        let joined = p.join(&self.line, self.config.join_timeout, |l: &str| {
            heard.push(l.to_string())
        });
        for l in heard {
            self.record(Direction::FromBot, l);
        }
        self.name = joined.map_err(bot_fault)?;
        self.joined = true;
        Ok(())
    }

    /// Reads the lines the program wrote while nothing was asked: blank lines and well-formed
    /// words are ignored (a `pass` to its own `mjgang` lands here), anything else is a fault.
    fn drain_unasked(&mut self, before: &str) -> Result<(), BotFault> {
        while let Some((_, out)) = self.process.as_mut().and_then(Program::try_recv) {
            match out {
                Output::Line(text) => {
                    self.record(Direction::FromBot, text.clone());
                    match decode_bot_line(&text) {
                        Ok(_) => self.ignore(&text, "written when nothing was asked")?,
                        Err(e) => {
                            return Err(BotFault::new(
                                VerdictKind::Malformed,
                                format!(
                                    "wrote {} when nothing was asked (before {before}): {e}",
                                    quote(&text)
                                ),
                            ));
                        }
                    }
                }
                Output::Closed(error) => {
                    let what = format!(
                        "the program exited while waiting for its next question ({before})"
                    );
                    return Err(self.crashed(&what, error));
                }
                other => {
                    let context = format!("when nothing was asked (before {before})");
                    return Err(self.unreadable(&other, &context));
                }
            }
        }
        Ok(())
    }

    /// Tells the program what it has not seen, with the question last, and reads, times and
    /// judges its answer.
    fn ask(&mut self, view: &View<'_>, legal: &ActionList) -> Result<(Action, Duration), Asked> {
        self.ensure_joined()?;
        let mut lines = Vec::new();
        self.line.catch_up(view, &mut lines);
        let question = self
            .line
            .question()
            .map_or_else(|| "its question".to_string(), |q| quote(&q));
        self.drain_unasked(&question)?;
        if let Some(p) = &self.process {
            p.send_lines(&lines);
        }
        let sent = Instant::now();
        for l in lines {
            self.record(Direction::ToBot, l);
        }
        self.stats.questions += 1;
        let limit = match view.phase() {
            Phase::Turn { .. } => self.config.time.turn,
            _ => self.config.time.claim,
        };
        let cap = self.config.time.hard_cap;
        let asked = |fault: BotFault, at: Instant| Asked {
            fault,
            elapsed: Some(at.saturating_duration_since(sent)),
        };
        loop {
            let Some(p) = self.process.as_mut() else {
                return Err(
                    BotFault::new(VerdictKind::Crashed, "the program is not running").into(),
                );
            };
            let Some((at, out)) = p.recv_until(later(sent, cap)) else {
                let fault = BotFault::new(
                    VerdictKind::Timeout,
                    format!(
                        "no answer to {question} within {} ms, the hard cap (the limit is {} ms, and each 100 ms started past it costs a point; a program must flush its output after each line)",
                        cap.as_millis(),
                        limit.as_millis()
                    ),
                );
                return Err(Asked {
                    fault,
                    elapsed: Some(cap),
                });
            };
            let text = match out {
                Output::Line(text) => text,
                Output::Closed(error) => {
                    let what = format!("the program exited before answering {question}");
                    return Err(asked(self.crashed(&what, error), at));
                }
                other => {
                    let context = format!("in answer to {question}");
                    return Err(asked(self.unreadable(&other, &context), at));
                }
            };
            self.record(Direction::FromBot, text.clone());
            let answered =
                |e: &dyn fmt::Display| format!("answered {} to {question}: {e}", quote(&text));
            let message = match decode_bot_line(&text) {
                Ok(Some(m)) => m,
                Ok(None) => {
                    self.ignore(&text, "a blank line")
                        .map_err(|f| asked(f, at))?;
                    continue;
                }
                Err(e) => {
                    return Err(asked(
                        BotFault::new(VerdictKind::Malformed, answered(&e)),
                        at,
                    ));
                }
            };
            let action = match feed::judge(view, legal, &message) {
                Ok(Judged::Answer(a)) => a,
                Ok(Judged::AsPass(why)) => {
                    self.note(format!("{} taken as pass: {why}", quote(&text)));
                    self.stats.ignored_lines += 1;
                    Action::Pass
                }
                Ok(Judged::Ignored(why)) => {
                    self.ignore(&text, why).map_err(|f| asked(f, at))?;
                    continue;
                }
                Err(e) => {
                    let kind = match e {
                        AnswerError::WrongKind(_) => VerdictKind::Malformed,
                        AnswerError::Impossible(_) => VerdictKind::Illegal,
                    };
                    return Err(asked(BotFault::new(kind, answered(&e)), at));
                }
            };
            let took = at.saturating_duration_since(sent);
            self.ignored = 0;
            self.stats.answers += 1;
            self.stats.answer_time += took;
            self.stats.slowest_answer = self.stats.slowest_answer.max(took);
            if took > limit {
                self.stats.late_answers += 1;
                self.note(format!(
                    "late answer: {} ms for a {} ms limit",
                    took.as_millis(),
                    limit.as_millis()
                ));
            }
            return Ok((action, took));
        }
    }
}

impl Player for CmdBot {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn start_hand(&mut self, seat: u8, _hand_seed: u64) -> Result<(), BotFault> {
        self.stop("left over from the last hand, killed");
        self.hands += 1;
        self.line = MahjongLine::new(seat);
        self.dead = false;
        self.ignored = 0;
        self.name = None;
        let process = Program::spawn(&self.spec, &self.launch())
            .map_err(|e| BotFault::new(VerdictKind::Crashed, e.to_string()));
        match process {
            Ok(p) => {
                self.stats.processes_started += 1;
                self.note(format!(
                    "process {} started for seat {seat}: {}",
                    p.id(),
                    self.spec
                ));
                self.process = Some(p);
                Ok(())
            }
            Err(fault) => {
                self.fault(&fault);
                Err(fault)
            }
        }
    }

    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Reply {
        if self.dead || self.process.is_none() {
            return Reply {
                answer: Err(BotFault::new(
                    VerdictKind::Crashed,
                    "the program is not running (it faulted earlier in this hand)",
                )),
                elapsed: None,
            };
        }
        match self.ask(view, legal) {
            Ok((action, took)) => Reply {
                answer: Ok(action),
                elapsed: Some(took),
            },
            Err(Asked { fault, elapsed }) => {
                self.fault(&fault);
                Reply {
                    answer: Err(fault),
                    elapsed,
                }
            }
        }
    }

    fn end_hand(&mut self, _view: &View<'_>) {
        self.stop("stopped at the end of the hand");
    }
}

impl Drop for CmdBot {
    fn drop(&mut self) {
        self.stop("stopped");
    }
}

impl fmt::Debug for CmdBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CmdBot")
            .field("spec", &self.spec)
            .field("process_id", &self.process_id())
            .field("hands", &self.hands)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}
