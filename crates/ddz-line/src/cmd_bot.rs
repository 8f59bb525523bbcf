//! [`CmdBot`]: a [`Bot`] played by a program that speaks the line protocol on stdin/stdout.

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use arena_line::blocking::Program;
use arena_line::{
    CmdSpec, DEFAULT_PASS_ENV, Direction, Launch, LineProtocol, Output, SpecError, StderrMode,
    TranscriptLine, WorkDir, later, quote,
};
use arena_sandbox::{Limits, Policy, Sandbox};
use ddz::{Action, Move, MoveList, Observation, Phase, Scoring};
use ddz_bots::{Bot, Verdict, VerdictKind};

use crate::codec::BotMessage;
use crate::feed::{self, AnswerError};
use crate::line::{DdzEnd, DdzLine, DdzSeat};

/// Options of a [`CmdBot`]. `CmdBotConfig::default()` is the competition set-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CmdBotConfig {
    /// Deadline of bid and double requests, told to the program (default 1000 ms).
    pub bid_deadline: Duration,
    /// Deadline of play requests, told to the program (default 1000 ms).
    pub play_deadline: Duration,
    /// Time past a deadline during which an answer is still accepted (counted as late); with
    /// no answer by deadline + grace the program is cut off with a timeout (default 1000 ms).
    /// Also how long a program is given to exit after `bye`.
    pub grace: Duration,
    /// Time a new process has to print `join` (default 5000 ms).
    pub startup_timeout: Duration,
    /// The program's working directory (default: the caller's). In the sandbox it is the one
    /// directory the program may write in.
    pub working_dir: Option<PathBuf>,
    /// The sandbox the program runs in (default: every isolation layer the kernel grants, see
    /// [`arena_sandbox`]); `Sandbox::new(Policy { isolation: Isolation::Off, .. })` runs it
    /// with the limits only.
    pub sandbox: Sandbox,
    /// The program's resource limits (default [`Limits::HOST_DEFAULT`]).
    pub limits: Limits,
    /// The caller's environment variables the program gets (default [`DEFAULT_PASS_ENV`]);
    /// besides them it gets only the sandbox's `PATH`, and `HOME` and `TMPDIR` at its working
    /// directory.
    pub pass_env: Vec<String>,
    /// Where the program's stderr goes (default: captured for crash verdicts).
    pub stderr: StderrMode,
    /// Keep every line sent and received, see [`CmdBot::transcript`] (default off).
    pub transcript: bool,
    /// The scoring mode of the scores on `end` lines (default competition).
    pub scoring: Scoring,
}

impl Default for CmdBotConfig {
    fn default() -> Self {
        CmdBotConfig {
            bid_deadline: Duration::from_millis(1000),
            play_deadline: Duration::from_millis(1000),
            grace: Duration::from_millis(1000),
            startup_timeout: Duration::from_millis(5000),
            working_dir: None,
            sandbox: Sandbox::new(Policy::default()),
            limits: Limits::HOST_DEFAULT,
            pass_env: DEFAULT_PASS_ENV.iter().map(|v| v.to_string()).collect(),
            stderr: StderrMode::Capture,
            transcript: false,
            scoring: Scoring::Competition,
        }
    }
}

/// Counters over a [`CmdBot`]'s life.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CmdBotStats {
    /// Processes started (one per session; a fault ends a session).
    pub processes_started: u64,
    /// Requests sent.
    pub requests: u64,
    /// Answers accepted.
    pub answers: u64,
    /// Answers accepted after the deadline, within the grace.
    pub late_answers: u64,
    /// The longest time an accepted answer took.
    pub slowest_answer: Duration,
    /// Verdicts recorded.
    pub verdicts: u64,
}

/// A fault of the program, before it becomes a verdict.
struct Fault {
    kind: VerdictKind,
    reason: String,
    /// The program's output closed: it exited (or closed stdout).
    exited: bool,
}

impl Fault {
    fn new(kind: VerdictKind, reason: impl Into<String>) -> Fault {
        Fault {
            kind,
            reason: reason.into(),
            exited: false,
        }
    }
}

impl From<arena_line::Fault> for Fault {
    fn from(f: arena_line::Fault) -> Fault {
        // A program's faults are only ever of the kinds both tables share.
        let kind = VerdictKind::from_wire(f.kind as i32).unwrap_or(VerdictKind::Crashed);
        Fault::new(kind, f.reason)
    }
}

/// The program could not be started and joined, see [`CmdBot::start`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{spec}: {reason}")]
pub struct StartError {
    /// The bot's command.
    pub spec: String,
    /// What went wrong: a crash, a timeout, or a first line that is not `join`.
    pub kind: VerdictKind,
    /// The details.
    pub reason: String,
}

/// A bot played by a program that speaks the Dou Dizhu line protocol on its stdin and stdout
/// (`docs/ddz-line-protocol.md`).
///
/// The program is started at the first game it is needed in and plays game after game until it
/// faults or the bot is dropped (it is then sent `bye`). Each decision is sent as a request with
/// a deadline, after every public event the program has not seen; `end_game` sends the rest and
/// the result.
///
/// Whatever the program does, the bot answers the runner with a legal action. When the program
/// crashes, misses the deadline plus the grace, writes a line that is not a valid answer, or
/// answers a move the rules refuse, the bot records a [`Verdict`] saying which request, what
/// the answer was and why it was refused; it kills the process (and its process group) and
/// plays automatically for the rest of the game: bid 0, no double, pass when allowed, else the
/// first legal move. The next game starts a fresh process.
pub struct CmdBot {
    spec: CmdSpec,
    config: CmdBotConfig,
    process: Option<Program>,
    joined_name: Option<String>,
    games: u64,
    line: DdzLine,
    dead: bool,
    /// The running process was started before this game and has not answered in it yet.
    carried_over: bool,
    verdicts: Vec<Verdict>,
    transcript: Vec<TranscriptLine>,
    stats: CmdBotStats,
    no_moves: MoveList,
}

impl CmdBot {
    /// A bot that runs `spec`. Nothing is started yet: see [`CmdBot::start`].
    pub fn new(spec: CmdSpec, config: CmdBotConfig) -> CmdBot {
        CmdBot {
            spec,
            line: DdzLine::new(0, config.scoring),
            config,
            process: None,
            joined_name: None,
            games: 0,
            dead: false,
            carried_over: false,
            verdicts: Vec::new(),
            transcript: Vec::new(),
            stats: CmdBotStats::default(),
            no_moves: MoveList::default(),
        }
    }

    /// A bot from a spec such as `cmd:python3 bot.py` (the `cmd:` prefix is optional).
    pub fn from_spec(spec: &str, config: CmdBotConfig) -> Result<CmdBot, SpecError> {
        Ok(CmdBot::new(CmdSpec::parse(spec)?, config))
    }

    /// The program and its arguments.
    pub fn spec(&self) -> &CmdSpec {
        &self.spec
    }

    /// The options.
    pub fn config(&self) -> &CmdBotConfig {
        &self.config
    }

    /// Starts the program now, if it is not running, and waits for its `join` line, so that a
    /// misspelt program or a broken bot is reported before any game is played. Games start the
    /// program by themselves; calling this is optional.
    pub fn start(&mut self) -> Result<(), StartError> {
        self.ensure_process().map_err(|f| {
            self.note(format!("start-up failed ({}): {}", f.kind.name(), f.reason));
            StartError {
                spec: self.spec.to_string(),
                kind: f.kind,
                reason: f.reason,
            }
        })
    }

    /// The name the program gave in its `join` line, if it gave one.
    pub fn joined_name(&self) -> Option<&str> {
        self.joined_name.as_deref()
    }

    /// The process id of the running program, if one is running.
    pub fn process_id(&self) -> Option<u32> {
        self.process.as_ref().map(Program::id)
    }

    /// Counters over this bot's life.
    pub fn stats(&self) -> CmdBotStats {
        self.stats
    }

    /// Every line sent and received so far, with notes, when [`CmdBotConfig::transcript`] is on.
    pub fn transcript(&self) -> &[TranscriptLine] {
        &self.transcript
    }

    /// Takes the transcript so far, leaving it empty.
    pub fn take_transcript(&mut self) -> Vec<TranscriptLine> {
        std::mem::take(&mut self.transcript)
    }

    /// Ends the session: sends `bye`, gives the program the grace to exit, then kills it. The
    /// next game starts a fresh process. Dropping the bot does the same.
    pub fn shutdown(&mut self) {
        if let Some(mut p) = self.process.take() {
            let mut farewell = Vec::new();
            self.line.farewell(&mut farewell);
            for l in &farewell {
                self.record(Direction::ToBot, l.clone());
            }
            p.close(&farewell, self.config.grace);
            self.note(format!("process {} ended", p.id()));
        }
    }

    fn record(&mut self, direction: Direction, text: String) {
        if self.config.transcript {
            self.transcript.push(TranscriptLine {
                game: self.games,
                direction,
                text,
            });
        }
    }

    fn note(&mut self, text: String) {
        self.record(Direction::Note, text);
    }

    /// Records the fault as a verdict, kills the program and plays automatically until the game
    /// is over.
    fn fault(&mut self, fault: Fault) {
        self.note(format!("verdict {}: {}", fault.kind.name(), fault.reason));
        self.stats.verdicts += 1;
        self.verdicts.push(Verdict {
            kind: fault.kind,
            reason: fault.reason,
        });
        self.dead = true;
        if let Some(mut p) = self.process.take() {
            p.kill();
            self.note(format!("process {} killed", p.id()));
        }
    }

    /// Describes a program whose output closed: its exit status, its limits and its last words
    /// on stderr. The program is killed.
    fn crash_reason(&mut self, what: &str, read_error: Option<String>) -> Fault {
        match self.process.as_mut() {
            Some(p) => Fault {
                exited: true,
                ..p.crash(what, read_error).into()
            },
            None => Fault {
                exited: true,
                ..Fault::new(VerdictKind::Crashed, what)
            },
        }
    }

    /// Makes sure a program is running and has joined, starting one if needed. On failure no
    /// process is left running.
    fn ensure_process(&mut self) -> Result<(), Fault> {
        if self.process.is_some() {
            return Ok(());
        }
        let result = self.spawn_and_join();
        if result.is_err() {
            // Dropping a process kills it.
            self.process = None;
        }
        result
    }

    fn spawn_and_join(&mut self) -> Result<(), Fault> {
        let launch = Launch {
            sandbox: self.config.sandbox.clone(),
            limits: self.config.limits,
            pass_env: self.config.pass_env.clone(),
            stderr: self.config.stderr,
            workdir: self
                .config
                .working_dir
                .clone()
                .map_or(WorkDir::Inherit, WorkDir::At),
            framing: self.line.framing(),
        };
        let mut process = Program::spawn(&self.spec, &launch)
            .map_err(|e| Fault::new(VerdictKind::Crashed, e.to_string()))?;
        self.stats.processes_started += 1;
        self.note(format!("process {} started: {}", process.id(), self.spec));
        self.carried_over = false;
        self.joined_name = None;
        let mut heard = Vec::new();
        let joined = process.join(&self.line, self.config.startup_timeout, |l: &str| {
            heard.push(l.to_string())
        });
        for l in heard {
            self.record(Direction::FromBot, l);
        }
        // On a fault, the process is dropped: killed and reaped.
        self.joined_name = joined?;
        self.process = Some(process);
        Ok(())
    }

    /// A fault for output that is no line of text.
    fn unreadable(&mut self, out: Output, context: &str) -> Fault {
        let (heard, fault) = arena_line::unreadable(&out, context, &self.line.framing());
        self.record(Direction::FromBot, heard);
        fault.into()
    }

    /// Checks the program between games (a program that exited after a game is replaced without
    /// fault), starts one if needed, and returns the lines of the game it has not seen.
    /// With `start` false, no program is started: an empty list comes back if none is running.
    fn catch_up(&mut self, obs: &Observation<'_>, start: bool) -> Result<Vec<String>, Fault> {
        if !self.line.feed().started() {
            self.check_between_games()?;
        }
        if !start && self.process.is_none() {
            return Ok(Vec::new());
        }
        self.ensure_process()?;
        let mut lines = Vec::new();
        let legal = MoveList::new();
        if obs.phase == Phase::Over {
            self.line.end(&DdzEnd::Game(obs), &mut lines);
        } else {
            self.line
                .catch_up(&DdzSeat { obs, legal: &legal }, &mut lines);
        }
        Ok(lines)
    }

    /// Before a game's first line: reaps a program that exited after its last game, and refuses
    /// lines it wrote when nothing was asked.
    fn check_between_games(&mut self) -> Result<(), Fault> {
        while let Some((_, out)) = self.process.as_mut().and_then(Program::try_recv) {
            match out {
                Output::Line(text) => {
                    self.record(Direction::FromBot, text.clone());
                    if self.line.parse(&text).is_ok_and(|m| m.is_none()) {
                        continue;
                    }
                    return Err(Fault::new(
                        VerdictKind::Malformed,
                        format!(
                            "wrote {} between games, when nothing was asked",
                            quote(&text)
                        ),
                    ));
                }
                Output::Closed(_) => {
                    if let Some(mut p) = self.process.take() {
                        let status = p.kill().map_or_else(|| "gone".into(), |s| p.describe(s));
                        self.note(format!(
                            "process {} exited between games ({status}); starting a fresh one",
                            p.id()
                        ));
                    }
                    return Ok(());
                }
                other => {
                    return Err(self.unreadable(other, "between games, when nothing was asked"));
                }
            }
        }
        Ok(())
    }

    /// Refuses lines the program wrote while nothing was asked; a closed output is a crash.
    fn check_unsolicited(&mut self, request: &str) -> Result<(), Fault> {
        while let Some((_, out)) = self.process.as_mut().and_then(Program::try_recv) {
            match out {
                Output::Line(text) => {
                    self.record(Direction::FromBot, text.clone());
                    if self.line.parse(&text).is_ok_and(|m| m.is_none()) {
                        continue;
                    }
                    return Err(Fault::new(
                        VerdictKind::Malformed,
                        format!(
                            "wrote {} before the {request} request, when nothing was asked",
                            quote(&text),
                        ),
                    ));
                }
                Output::Closed(error) => {
                    return Err(self.crash_reason(
                        &format!("the program exited before the {request} request"),
                        error,
                    ));
                }
                other => {
                    let context = format!("before the {request} request, when nothing was asked");
                    return Err(self.unreadable(other, &context));
                }
            }
        }
        Ok(())
    }

    fn send(&mut self, lines: Vec<String>) {
        if let Some(p) = &self.process {
            p.send_lines(&lines);
        }
        for text in lines {
            self.record(Direction::ToBot, text);
        }
    }

    /// Asks the program for the decision `obs` calls for and returns its answer, checked.
    fn ask(&mut self, obs: &Observation<'_>, legal: &MoveList) -> Result<Action, Fault> {
        let mut lines = self.catch_up(obs, true)?;
        let deadline = match obs.phase {
            Phase::Bidding | Phase::Doubling => self.config.bid_deadline,
            Phase::Play | Phase::Over => self.config.play_deadline,
        };
        let request = self.line.ask(&DdzSeat { obs, legal }, deadline, &mut lines);
        self.check_unsolicited(request)?;
        self.send(lines);
        self.stats.requests += 1;
        let sent = Instant::now();
        let cap = later(sent, deadline.saturating_add(self.config.grace));
        loop {
            let Some(p) = self.process.as_mut() else {
                return Err(Fault::new(VerdictKind::Crashed, "the process was lost"));
            };
            let Some((at, out)) = p.recv_until(cap) else {
                return Err(Fault::new(
                    VerdictKind::Timeout,
                    format!(
                        "no answer to the {} request within {} ms (deadline {} ms + grace {} ms; a program must flush its output after each line)",
                        request,
                        deadline.saturating_add(self.config.grace).as_millis(),
                        deadline.as_millis(),
                        self.config.grace.as_millis()
                    ),
                ));
            };
            let text = match out {
                Output::Line(text) => text,
                Output::Closed(error) => {
                    return Err(self.crash_reason(
                        &format!("the program exited before answering the {request} request"),
                        error,
                    ));
                }
                other => {
                    let context = format!("in answer to the {request} request");
                    return Err(self.unreadable(other, &context));
                }
            };
            self.record(Direction::FromBot, text.clone());
            let answer: BotMessage = match self.line.parse(&text) {
                Ok(None) => continue,
                Ok(Some(answer)) => answer,
                Err(e) => {
                    return Err(Fault::new(
                        VerdictKind::Malformed,
                        format!("answered {} to the {request} request: {e}", quote(&text)),
                    ));
                }
            };
            let action = feed::check_answer(obs, &answer).map_err(|e| {
                let kind = match e {
                    AnswerError::WrongKind { .. } => VerdictKind::Malformed,
                    AnswerError::Illegal(_) => VerdictKind::Illegal,
                };
                Fault::new(
                    kind,
                    format!("answered {} to the {request} request: {e}", quote(&text)),
                )
            })?;
            let took = at.saturating_duration_since(sent);
            self.carried_over = false;
            self.stats.answers += 1;
            self.stats.slowest_answer = self.stats.slowest_answer.max(took);
            if took > deadline {
                self.stats.late_answers += 1;
                self.note(format!(
                    "late answer: {} ms for a {} ms deadline",
                    took.as_millis(),
                    deadline.as_millis()
                ));
            }
            return Ok(action);
        }
    }

    /// The program's decision, or the automatic one once it has faulted in this game.
    fn decide(&mut self, obs: &Observation<'_>, legal: &MoveList) -> Action {
        if self.dead {
            return feed::fallback(obs, legal);
        }
        let mut result = self.ask(obs, legal);
        let gone_since_last_game = match &result {
            Err(fault) if fault.exited && self.carried_over => Some(fault.reason.clone()),
            _ => None,
        };
        if let Some(reason) = gone_since_last_game {
            // It exited after its last game, before answering anything in this one: that is
            // no fault of this game. A fresh process is told the game so far and asked again.
            self.note(format!(
                "the program from the previous game is gone ({reason}); starting a fresh one"
            ));
            self.process = None;
            self.carried_over = false;
            self.line = DdzLine::new(self.games, self.config.scoring);
            result = self.ask(obs, legal);
        }
        match result {
            Ok(action) => action,
            Err(fault) => {
                self.fault(fault);
                feed::fallback(obs, legal)
            }
        }
    }
}

impl Bot for CmdBot {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn new_game(&mut self, _seed: u64) {
        self.games += 1;
        self.line = DdzLine::new(self.games, self.config.scoring);
        self.dead = false;
        self.carried_over = self.process.is_some();
    }

    fn bid(&mut self, obs: &Observation<'_>) -> u8 {
        let no_moves = std::mem::take(&mut self.no_moves);
        let action = self.decide(obs, &no_moves);
        self.no_moves = no_moves;
        match action {
            Action::Bid(b) => b,
            _ => 0,
        }
    }

    fn double(&mut self, obs: &Observation<'_>) -> bool {
        let no_moves = std::mem::take(&mut self.no_moves);
        let action = self.decide(obs, &no_moves);
        self.no_moves = no_moves;
        matches!(action, Action::Double(true))
    }

    fn play(&mut self, obs: &Observation<'_>, legal: &MoveList) -> Move {
        match self.decide(obs, legal) {
            Action::Play(m) => m,
            _ => feed::fallback_play(legal),
        }
    }

    fn end_game(&mut self, obs: &Observation<'_>) {
        // A program that faulted in this game, or none was started for it, is told nothing;
        // a running one hears the rest of the game, ending with its result.
        if self.dead || self.process.is_none() {
            return;
        }
        match self.catch_up(obs, false) {
            Ok(lines) => self.send(lines),
            Err(fault) => self.fault(fault),
        }
    }

    fn take_verdicts(&mut self) -> Vec<Verdict> {
        std::mem::take(&mut self.verdicts)
    }
}

impl Drop for CmdBot {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl fmt::Debug for CmdBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CmdBot")
            .field("spec", &self.spec)
            .field("process_id", &self.process_id())
            .field("games", &self.games)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}
