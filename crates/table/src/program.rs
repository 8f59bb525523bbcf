//! Program seats: a bot program run by the table itself as a child process, spoken to through
//! its game's [`ProgramProtocol`] by the one [`ProgramSession`] (the same session bot-host runs
//! its program bots with), for callers that run tables without bot-host (the CLI's `cmd:`
//! seats).
//!
//! A program seat gets the same [`v1::DecisionRequest`]s a remote seat gets (always with whole
//! observations: the protocol tells the program what it has not seen) and answers
//! [`Answer::Message`]s the table decodes and checks like any remote answer. Its faults map to
//! verdicts as bot-host maps them:
//!
//! - it cannot be started, exits, crashes or is killed by its limits: crashed (with its exit
//!   status, limits and the end of its stderr);
//! - it does not greet within [`ProgramSeat::startup`]: timeout; its first line is not the
//!   greeting: malformed;
//! - it writes a line that is no line of the protocol (or, where the protocol says so, a line
//!   when nothing was asked): malformed;
//! - it is silent until the hard cap: no answer, which the table judges a timeout. There is no
//!   margin past the hard cap as in bot-host: here the table's own clock waits.
//!
//! After a fault or a timeout the program is killed, and any later decision of the seat (under
//! a policy that asks it again) gets a crashed fault saying so.
//!
//! A program seat plays one table per process, unless it is given a [`ProgramTurn`] and its
//! protocol can play several games on one process ([`ProgramProtocol::next_game`]): then a
//! process that got no verdict is kept in the turn at the table's end, and the seat of the next
//! table given that turn plays on it instead of starting one.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena_line::{CmdSpec, Launch, ProgramProtocol, ProgramSession};
use arena_proto::v1;
use tokio::time::Instant;

use crate::game::{Fault, TableGame};
use crate::remote::BotHosts;
use crate::run::{RunOptions, SeatPlan, TableSetup, play_async};
use crate::seat::{Answer, Reply};
use crate::table::Table;

/// How long a program has to greet after it starts, by default.
pub const PROGRAM_STARTUP: Duration = Duration::from_secs(5);

/// How long a program has to exit by itself after it was told goodbye, by default, before its
/// process group is killed.
pub const PROGRAM_EXIT_GRACE: Duration = Duration::from_secs(1);

/// A program to seat: its command, how it is launched (sandbox, limits, environment, working
/// directory) and the line protocol of its game for its seat.
pub struct ProgramSeat {
    /// The command line.
    pub cmd: CmdSpec,
    /// How it is started (the framing is the protocol's).
    pub launch: Launch,
    /// Its game's line protocol for its seat.
    pub protocol: Box<dyn ProgramProtocol>,
    /// How long it has to greet ([`PROGRAM_STARTUP`] by default).
    pub startup: Duration,
    /// How long it has to exit after goodbye ([`PROGRAM_EXIT_GRACE`] by default).
    pub exit_grace: Duration,
    /// The turn the seat plays in, whose process it carries on with from table to table
    /// (`None` by default: a process per table).
    pub turn: Option<ProgramTurn>,
}

impl ProgramSeat {
    /// `cmd` speaking `protocol`, launched by `launch`, with the default start-up time and exit
    /// grace.
    pub fn new(cmd: CmdSpec, launch: Launch, protocol: Box<dyn ProgramProtocol>) -> ProgramSeat {
        ProgramSeat {
            cmd,
            launch,
            protocol,
            startup: PROGRAM_STARTUP,
            exit_grace: PROGRAM_EXIT_GRACE,
            turn: None,
        }
    }

    /// The seat playing in `turn`: on the process the turn's last table left it, if any.
    pub fn in_turn(mut self, turn: &ProgramTurn) -> ProgramSeat {
        self.turn = Some(turn.clone());
        self
    }

    /// Starts the program and waits for its greeting: the running seat, or the fault its first
    /// decision is to get. In a turn holding a process, the seat plays on it (its session keeps
    /// its own protocol, readied for this game; `protocol` goes unused).
    pub(crate) async fn open(self) -> Result<OpenProgram, Fault> {
        if let Some((session, exit_grace)) = self.turn.as_ref().and_then(ProgramTurn::take) {
            return Ok(OpenProgram {
                session: Some(session),
                exit_grace,
                turn: self.turn,
            });
        }
        let hint = |e: &str| self.launch.sandbox.hint_for(e).unwrap_or("");
        let mut session = match ProgramSession::start(&self.cmd, self.launch.clone(), self.protocol)
        {
            Ok(s) => s,
            Err(e) => {
                // The cause first: a verdict's reason is cut short, and a command line can be
                // longer than that on its own (as bot-host reports it).
                let e = e.to_string();
                return Err(Fault::reported(
                    v1::VerdictKind::Crashed,
                    &format!("{e}{}; the command: {}", hint(&e), self.cmd.command_line()),
                ));
            }
        };
        session.join(self.startup).await.map_err(bounded)?;
        Ok(OpenProgram {
            session: Some(session),
            exit_grace: self.exit_grace,
            turn: self.turn,
        })
    }
}

/// One program seat's process kept from table to table of a turn (the championship's engine
/// plays a turn of rounds on one process): given to each table's [`ProgramSeat`]
/// ([`ProgramSeat::in_turn`]), it holds the process between tables when the seat's protocol
/// can carry on and the process got no verdict; otherwise the next table starts a fresh one.
/// Clones share the one process. [`ProgramTurn::end`] closes it after the last table; one
/// dropped holding a process kills it.
#[derive(Clone, Default)]
pub struct ProgramTurn {
    kept: Arc<Mutex<Option<(ProgramSession, Duration)>>>,
}

impl ProgramTurn {
    /// A turn holding no process yet.
    pub fn new() -> ProgramTurn {
        ProgramTurn::default()
    }

    /// Whether a process is held for the next table.
    pub fn holds_process(&self) -> bool {
        self.lock().is_some()
    }

    /// Ends the turn: closes the input of the process its last table left (if any), gives it its
    /// exit grace, then kills its group.
    pub async fn end(&self) {
        if let Some((mut session, grace)) = self.take() {
            session.close(None, grace).await;
        }
    }

    /// [`ProgramTurn::end`] for every turn of `turns`, at once.
    pub async fn end_all(turns: &[ProgramTurn]) {
        futures_util::future::join_all(turns.iter().map(ProgramTurn::end)).await;
    }

    fn take(&self) -> Option<(ProgramSession, Duration)> {
        self.lock().take()
    }

    fn keep(&self, session: ProgramSession, exit_grace: Duration) {
        *self.lock() = Some((session, exit_grace));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(ProgramSession, Duration)>> {
        // A poisoned lock (a panic elsewhere while it was held) still holds the process.
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl std::fmt::Debug for ProgramTurn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgramTurn")
            .field("holds_process", &self.holds_process())
            .finish()
    }
}

/// A program bot seated at many tables (a `cmd:` bot of a match): its command and how it is
/// launched. Each table starts a fresh process of it per seat ([`ProgramBot::seat`]), as
/// bot-host does.
#[derive(Clone)]
pub struct ProgramBot {
    /// The command line.
    pub cmd: CmdSpec,
    /// How each process is started.
    pub launch: Launch,
}

impl ProgramBot {
    /// The bot in one seat, speaking `protocol` (its game's line protocol for that seat).
    pub fn seat(&self, protocol: Box<dyn ProgramProtocol>) -> ProgramSeat {
        ProgramSeat::new(self.cmd.clone(), self.launch.clone(), protocol)
    }

    /// Starts the program once and waits for its greeting, then tells it goodbye: a command
    /// that cannot play is reported before the first table rather than as a verdict at every
    /// one.
    pub async fn try_start(&self, protocol: Box<dyn ProgramProtocol>) -> Result<(), Fault> {
        self.seat(protocol).open().await?.close(None, false).await;
        Ok(())
    }
}

impl std::fmt::Debug for ProgramBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgramBot")
            .field("cmd", &self.cmd.command_line())
            .finish_non_exhaustive()
    }
}

/// Plays a table of in-process players and program seats (no remote seat: there is no bot-host
/// to reach) to its end on `runtime`, for callers without async code of their own (one
/// current-thread runtime per worker thread does): the ended table. `Err` says why the table
/// could not be played (an internal error).
pub fn play_blocking<G: TableGame>(
    runtime: &tokio::runtime::Runtime,
    game: G,
    seats: Vec<SeatPlan<G>>,
    setup: &TableSetup,
) -> Result<Table<G>, String> {
    let opts = RunOptions::default();
    runtime.block_on(play_async(
        game,
        seats,
        setup,
        &opts,
        &BotHosts::default(),
        false,
    ))
}

impl std::fmt::Debug for ProgramSeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProgramSeat")
            .field("cmd", &self.cmd.command_line())
            .field("startup", &self.startup)
            .field("exit_grace", &self.exit_grace)
            .finish_non_exhaustive()
    }
}

/// A session's fault as the table records a remote seat's: its reason (which quotes what the
/// program wrote) cut short, the whole report kept as the detail.
fn bounded(fault: Fault) -> Fault {
    Fault::reported(fault.kind, &fault.reason)
}

/// A program seat playing: its session, until a fault or timeout kills it.
pub(crate) struct OpenProgram {
    session: Option<ProgramSession>,
    exit_grace: Duration,
    /// Where the process is kept at the table's end, when it carries on.
    turn: Option<ProgramTurn>,
}

impl OpenProgram {
    /// Puts `request` to the program and waits up to `hard_cap` for its answer.
    pub(crate) async fn decide<A>(
        &mut self,
        request: &v1::DecisionRequest,
        hard_cap: Duration,
    ) -> Reply<A> {
        let Some(session) = self.session.as_mut() else {
            return Reply::new(
                Answer::Fault(Fault::new(
                    v1::VerdictKind::Crashed,
                    "the program was killed after an earlier fault",
                )),
                Duration::ZERO,
            );
        };
        // What it wrote since its last answer, when nothing was asked: judged as such (as
        // bot-host judges it), not taken as the answer to this request.
        while let Some(out) = session.try_recv() {
            if let Err(fault) = session.hear(out, None).await {
                self.session = None;
                return Reply::new(Answer::Fault(bounded(fault)), Duration::ZERO);
            }
        }
        let deadline = Duration::from_millis(u64::from(request.deadline_ms));
        let start = Instant::now();
        let name = match session.ask(request, deadline) {
            Ok(name) => name,
            // The runner made the request: not the bot's fault, and not one asking again
            // would mend.
            Err(why) => {
                return Reply::new(
                    Answer::Platform(format!("internal error: an unreadable request: {why}")),
                    Duration::ZERO,
                );
            }
        };
        let until = start + hard_cap;
        loop {
            let Some((at, out)) = session.recv_until_at(until).await else {
                // When the protocol can tell why it is silent, the timeout says so.
                let why = session.silence();
                // Killed (when dropped) as bot-host kills a silent program: it would answer a
                // question the table no longer asks.
                self.session = None;
                let Some(why) = why else {
                    return Reply::new(Answer::NoAnswer, hard_cap);
                };
                let fault = crate::table::timeout_at_cap(hard_cap, &why);
                return Reply::new(Answer::Fault(fault), hard_cap);
            };
            match session.hear(out, Some(name)).await {
                Ok(None) => {}
                Ok(Some(action)) => {
                    let took = at.saturating_duration_since(start.into_std());
                    return Reply::new(Answer::Message(action), took);
                }
                Err(fault) => {
                    self.session = None;
                    return Reply::new(Answer::Fault(bounded(fault)), start.elapsed());
                }
            }
        }
    }

    /// Tells the program how its table ended (`outcome`, when it has one); then keeps it in its
    /// turn when it has one, `sound` (the seat got no verdict) and its protocol carries on, or
    /// else tells it goodbye, gives it the exit grace and kills its process group.
    pub(crate) async fn close(self, outcome: Option<&v1::Outcome>, sound: bool) {
        let Some(mut session) = self.session else {
            return;
        };
        let carry = sound && self.turn.is_some();
        let ended = session.end_game(outcome, self.exit_grace, carry).await;
        if ended.is_none()
            && let Some(turn) = &self.turn
        {
            turn.keep(session, self.exit_grace);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Program seats on the one runner: a table of the toy game `Picks` with a shell script in
    //! seat 0, played by [`run_game`](crate::run::run_game) next to in-process players.

    use std::os::unix::fs::PermissionsExt;

    use arena_line::{Framing, Heard};

    use super::*;
    use crate::game::{Pending, Policy};
    use crate::remote::BotHosts;
    use crate::run::{Played, Player, RunOptions, SeatPlan, TableSetup, run_game};
    use crate::seat::LocalPlayer;
    use crate::table::tests::{Picks, pick};
    use crate::time::TimeRules;

    /// The toy game's line protocol: the program greets `hello`, is asked `ask N` and answers
    /// a number; it is told `bye` at the end.
    struct PickLine;

    impl ProgramProtocol for PickLine {
        fn framing(&self) -> Framing {
            Framing::default()
        }
        fn greeting(&self) -> Option<&'static str> {
            Some("\"hello\"")
        }
        fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String> {
            match line {
                "hello" => Ok(Some(None)),
                other => Err(format!("wrote {other:?} before \"hello\"")),
            }
        }
        fn ask(
            &mut self,
            request: &v1::DecisionRequest,
            _deadline: Duration,
            out: &mut Vec<String>,
        ) -> Result<&'static str, String> {
            out.push(format!("ask {}", request.request_id));
            Ok("pick")
        }
        fn hear(&mut self, text: &str, context: &str, _asked: bool) -> Result<Heard, String> {
            text.parse()
                .map(|n| Heard::Answer(pick(n)))
                .map_err(|_| format!("answered {text:?} {context}: not a number"))
        }
        fn close(&mut self, _outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
            out.push("bye".into());
        }
    }

    /// Always picks 1.
    struct One;

    impl LocalPlayer<Picks> for One {
        fn name(&self) -> String {
            "one".into()
        }
        fn start(&mut self, _seat: u32, _seed: u64) {}
        fn decide(&mut self, _view: &(u32, i64), _p: &Pending) -> u32 {
            1
        }
    }

    /// Plays three rounds of `Picks` under `time` and play-on, with the shell script `body`
    /// in seat 0 (in a directory of mode 0755, as a program run as `nobody` needs) and
    /// in-process players in seats 1 and 2; the result.
    async fn play(body: &str, time: TimeRules) -> v1::TableResult {
        let (_dir, cmd) = shell_bot(body);
        play_command(&format!("cmd:{}", cmd.display()), time).await
    }

    /// The shell script `body` as `bot.sh` in a fresh directory of mode 0755 (as a program run
    /// as `nobody` needs): the directory, to keep while the script is used, and the script.
    fn shell_bot(body: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let perms = |mode| std::fs::Permissions::from_mode(mode);
        std::fs::set_permissions(dir.path(), perms(0o755)).unwrap();
        let script = dir.path().join("bot.sh");
        std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&script, perms(0o755)).unwrap();
        (dir, script)
    }

    /// [`play`] with the program `command` in seat 0.
    async fn play_command(command: &str, time: TimeRules) -> v1::TableResult {
        let cmd = CmdSpec::parse(command).unwrap();
        let program = ProgramSeat::new(cmd, Launch::default(), Box::new(PickLine));
        let seats = vec![
            SeatPlan::Program(Box::new(program)),
            SeatPlan::Local(Box::new(One) as Player<Picks>),
            SeatPlan::Local(Box::new(One) as Player<Picks>),
        ];
        let setup = TableSetup {
            table_id: "t/1".into(),
            seed: 1,
            time,
            policy: Some(Policy::PlayOn),
        };
        let job = v1::TableJob::default();
        let opts = RunOptions::default();
        match run_game(
            &job,
            Picks::new(3),
            seats,
            &setup,
            &opts,
            &BotHosts::default(),
        )
        .await
        {
            Played::Finished(record) => record.result,
            Played::Interrupted(why) => {
                panic!("a table without remote seats was interrupted: {why}")
            }
        }
    }

    /// The verdicts of a result: seat and kind.
    fn verdicts(result: &v1::TableResult) -> Vec<(u32, v1::VerdictKind)> {
        result
            .verdicts
            .iter()
            .map(|v| (v.seat, v1::VerdictKind::try_from(v.kind).unwrap()))
            .collect()
    }

    /// What every script but the silent one is asked under: the default time control, whose
    /// hard cap no loaded machine comes near for a shell's `read` and `echo`.
    fn roomy() -> TimeRules {
        TimeRules::default()
    }

    #[tokio::test]
    async fn a_program_that_answers_plays_to_the_end_like_any_seat() {
        let result = play(
            "echo hello\nwhile read -r word n; do [ \"$word\" = ask ] && echo 2; done",
            roomy(),
        )
        .await;
        assert!(result.error.is_empty(), "{}", result.error);
        assert_eq!(verdicts(&result), vec![]);
        assert_eq!(result.outcome.map(|o| o.scores), Some(vec![6, 3, 3]));
    }

    #[tokio::test]
    async fn a_program_that_exits_is_crashed() {
        let result = play("echo hello\nread -r line\nexit 3", roomy()).await;
        assert_eq!(verdicts(&result), vec![(0, v1::VerdictKind::Crashed)]);
        let reason = &result.verdicts[0].reason;
        assert!(reason.contains("exit"), "{reason}");
        // It played automatically (0) from its crash on.
        assert_eq!(result.outcome.map(|o| o.scores), Some(vec![0, 3, 3]));
    }

    #[tokio::test]
    async fn a_program_that_writes_garbage_is_malformed() {
        let result = play("echo hello\nread -r line\necho banana\nsleep 600", roomy()).await;
        assert_eq!(verdicts(&result), vec![(0, v1::VerdictKind::Malformed)]);
        let reason = &result.verdicts[0].reason;
        assert!(reason.contains("banana"), "{reason}");
    }

    #[tokio::test]
    async fn a_program_that_answers_against_the_rules_is_illegal() {
        let result = play(
            "echo hello\nwhile read -r word n; do [ \"$word\" = ask ] && echo 7; done",
            roomy(),
        )
        .await;
        assert_eq!(verdicts(&result), vec![(0, v1::VerdictKind::Illegal)]);
    }

    #[tokio::test]
    async fn a_silent_program_times_out_at_the_hard_cap() {
        let time = TimeRules {
            decision_ms: 100,
            claim_ms: 100,
            hard_cap_ms: 200,
            ..TimeRules::default()
        };
        let result = play("echo hello\nsleep 600", time).await;
        assert_eq!(verdicts(&result), vec![(0, v1::VerdictKind::Timeout)]);
        assert_eq!(result.outcome.map(|o| o.scores), Some(vec![0, 3, 3]));
    }

    /// [`PickLine`] for programs that play a turn of tables on one process: no greeting to
    /// wait for, `start` told once per process before its first `ask`, `end` at each table's
    /// end.
    struct TurnLine {
        started: bool,
    }

    impl ProgramProtocol for TurnLine {
        fn framing(&self) -> Framing {
            Framing::default()
        }
        fn greeting(&self) -> Option<&'static str> {
            None
        }
        fn read_greeting(&self, _line: &str) -> Result<Option<Option<String>>, String> {
            Ok(None)
        }
        fn ask(
            &mut self,
            request: &v1::DecisionRequest,
            deadline: Duration,
            out: &mut Vec<String>,
        ) -> Result<&'static str, String> {
            if !self.started {
                self.started = true;
                out.push("start".into());
            }
            PickLine.ask(request, deadline, out)
        }
        fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
            PickLine.hear(text, context, asked)
        }
        fn close(&mut self, _outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
            out.push("end".into());
        }
        fn next_game(&mut self, same_process: bool) -> bool {
            self.started &= same_process;
            true
        }
    }

    /// Plays `tables` tables of three rounds of `Picks` in one turn, the shell script `body`
    /// in seat 0 speaking [`TurnLine`]; the results, then whether the turn held a process after
    /// the last table (it is ended then).
    async fn play_turn(body: &str, tables: usize) -> (Vec<v1::TableResult>, bool) {
        let (_dir, script) = shell_bot(body);
        let cmd = CmdSpec::parse(&format!("cmd:{}", script.display())).unwrap();
        let turn = ProgramTurn::new();
        let mut results = Vec::new();
        for t in 0..tables {
            let program = ProgramSeat::new(
                cmd.clone(),
                Launch::default(),
                Box::new(TurnLine { started: false }),
            )
            .in_turn(&turn);
            let seats = vec![
                SeatPlan::Program(Box::new(program)),
                SeatPlan::Local(Box::new(One) as Player<Picks>),
                SeatPlan::Local(Box::new(One) as Player<Picks>),
            ];
            let setup = TableSetup {
                table_id: format!("t/{t}"),
                seed: 1,
                time: roomy(),
                policy: Some(Policy::PlayOn),
            };
            let played = run_game(
                &v1::TableJob::default(),
                Picks::new(3),
                seats,
                &setup,
                &RunOptions::default(),
                &BotHosts::default(),
            )
            .await;
            match played {
                Played::Finished(record) => results.push(record.result),
                Played::Interrupted(why) => panic!("interrupted: {why}"),
            }
        }
        let held = turn.holds_process();
        turn.end().await;
        assert!(!turn.holds_process(), "the turn's end closes its process");
        (results, held)
    }

    /// Seat 0's score at each table.
    fn seat0_scores(results: &[v1::TableResult]) -> Vec<i64> {
        results
            .iter()
            .map(|r| r.outcome.as_ref().map_or(-1, |o| o.scores[0]))
            .collect()
    }

    /// Picks how many tables its process has ended (`end` lines read), 0 to 2; `7` (illegal)
    /// when it was told `start` more than once. `$FAULT` is the table it answers 7 in.
    const COUNTING: &str = "starts=0; ended=0
while read -r word n; do
  case $word in
    start) starts=$((starts+1));;
    end) ended=$((ended+1)); $EXIT;;
    ask) if [ $starts -ne 1 ] || [ $ended -eq $FAULT ]; then echo 7; else echo $ended; fi;;
  esac
done";

    fn counting(fault: i32, exit_after_end: bool) -> String {
        let exit = if exit_after_end { "exit 0" } else { ":" };
        format!("FAULT={fault}; EXIT='{exit}'\n{COUNTING}")
    }

    #[tokio::test]
    async fn a_program_in_a_turn_plays_its_tables_on_one_process() {
        // It picks 0 at the first table, 1 at the second, 2 at the third: one process that
        // was told `start` once and `end` after each table.
        let (results, held) = play_turn(&counting(-1, false), 3).await;
        for r in &results {
            assert_eq!(verdicts(r), vec![], "{r:?}");
        }
        assert_eq!(seat0_scores(&results), [0, 3, 6]);
        assert!(held, "the last table leaves its process to the turn's end");
    }

    #[tokio::test]
    async fn a_program_that_faulted_is_not_carried_on() {
        // Illegal at the second table: the third starts a fresh process, which has ended no
        // table (picks 0) and plays it without a verdict.
        let (results, _) = play_turn(&counting(1, false), 3).await;
        assert_eq!(verdicts(&results[0]), vec![]);
        assert_eq!(verdicts(&results[1]), vec![(0, v1::VerdictKind::Illegal)]);
        assert_eq!(verdicts(&results[2]), vec![]);
        assert_eq!(seat0_scores(&results), [0, 0, 0]);
    }

    #[tokio::test]
    async fn a_program_that_exits_after_a_table_is_replaced_without_a_verdict() {
        // It exits when told `end`: each next table starts a fresh one (told `start` again),
        // which is no fault of that table.
        let (results, _) = play_turn(&counting(-1, true), 3).await;
        for r in &results {
            assert_eq!(verdicts(r), vec![], "{r:?}");
        }
        assert_eq!(seat0_scores(&results), [0, 0, 0]);
    }

    #[tokio::test]
    async fn a_program_that_exits_when_asked_at_the_next_table_is_replaced_and_asked_again() {
        // Carried on, it exits at the next table's first question without answering: a fresh
        // process is put that question from the start (`start` first) and answers it, with no
        // verdict; it picks 1 every round.
        let body = "ended=0
while read -r word n; do
  case $word in
    end) ended=1;;
    ask) if [ $ended -eq 1 ]; then exit 0; fi; echo 1;;
  esac
done";
        let (results, _) = play_turn(body, 3).await;
        for r in &results {
            assert_eq!(verdicts(r), vec![], "{r:?}");
        }
        assert_eq!(seat0_scores(&results), [3, 3, 3]);
    }

    #[tokio::test]
    async fn a_program_that_cannot_start_is_crashed() {
        let result = play_command("cmd:/nonexistent/arena-test-bot", roomy()).await;
        assert_eq!(verdicts(&result), vec![(0, v1::VerdictKind::Crashed)]);
    }
}
