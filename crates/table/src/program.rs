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
        }
    }

    /// Starts the program and waits for its greeting: the running seat, or the fault its first
    /// decision is to get.
    pub(crate) async fn open(self) -> Result<OpenProgram, Fault> {
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
        })
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
        self.seat(protocol).open().await?.close(None).await;
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

    /// Tells the program how its table ended (`outcome`, when it has one) and goodbye, gives it
    /// the exit grace, then kills its process group.
    pub(crate) async fn close(self, outcome: Option<&v1::Outcome>) {
        if let Some(mut session) = self.session {
            session.close(outcome, self.exit_grace).await;
        }
    }
}

#[cfg(test)]
mod tests {
    //! Program seats on the one runner: a table of the toy game `Picks` with a shell script in
    //! seat 0, played by [`run_game`](crate::run::run_game) next to in-process players.

    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

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
        let dir = tempfile::tempdir().unwrap();
        let perms = |mode| std::fs::Permissions::from_mode(mode);
        std::fs::set_permissions(dir.path(), perms(0o755)).unwrap();
        let script = dir.path().join("bot.sh");
        std::fs::write(&script, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&script, perms(0o755)).unwrap();
        play_command(&format!("cmd:{}", Path::display(&script)), time).await
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

    #[tokio::test]
    async fn a_program_that_cannot_start_is_crashed() {
        let result = play_command("cmd:/nonexistent/arena-test-bot", roomy()).await;
        assert_eq!(verdicts(&result), vec![(0, v1::VerdictKind::Crashed)]);
    }
}
