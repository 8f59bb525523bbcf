//! Bots bot-host runs itself: bot programs (child processes speaking the line protocol) and
//! built-in bots, seated through `SeatHost.Seat`.

mod common;

use std::path::Path;
use std::time::Duration;

use arena_bot_host::{BotHostConfig, DecisionLimits};
use arena_proto::v1;
use common::*;
use tonic::Code;

fn line_bot(args: &str) -> String {
    // A copy: programs run as `nobody` under a root caller, who may not reach the clone.
    let script = arena_testkit::readable_copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/line_bot.py"),
    );
    format!("python3 '{}' {args}", script.display())
}

/// Waits until `path` holds a line starting with `prefix`; the file's text.
async fn wait_for_line(path: &Path, prefix: &str) -> String {
    within(&format!("{prefix:?} in {}", path.display()), async {
        loop {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            if text.lines().any(|l| l.starts_with(prefix)) {
                return text;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
}

/// The number after `key ` in a log written by line_bot.py.
fn logged_pid(text: &str, key: &str) -> u32 {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{key} ")))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {key} line in {text:?}"))
}

fn open_with_cap(table_id: &str, seat: u32, bot: &str, hard_cap_ms: u32) -> v1::RefereeToSeat {
    let mut m = open_msg(table_id, seat, bot);
    if let Some(v1::referee_to_seat::Msg::Open(o)) = &mut m.msg {
        o.time = Some(v1::TimeControl {
            decision_ms: 200,
            hard_cap_ms,
            ..Default::default()
        });
    }
    m
}

/// Opens a seat for `bot` and sends it the first request of a fresh game; the seat.
async fn seat_with_first_request(host: &Host, bot: &str, hard_cap_ms: u32) -> SeatConn {
    let mut seat = seat_stream(host, vec![open_with_cap("t-p", 0, bot, hard_cap_ms)])
        .await
        .unwrap();
    seat.ready().await;
    let game =
        ddz::Game::from_seed(ddz::GameConfig::competition(), 1, ddz::DealConstraint::NONE).unwrap();
    seat.send(v1::referee_to_seat::Msg::Request(request_for(
        &game, "t-p", 1,
    )))
    .await;
    seat
}

#[tokio::test]
async fn a_program_bot_plays_a_whole_table_in_its_working_directory() {
    let host = Host::start(fast_config()).await;
    let dir = program_dir();
    host.add_program(
        "prog",
        line_bot("first transcript.txt"),
        Some(dir.path().display().to_string()),
        0,
        0,
    )
    .await;
    let mut seat = open_seat(&host, "t-prog", 0, "prog").await;
    let ready = seat.ready().await;
    assert_eq!(
        (ready.bot.as_str(), ready.host.as_str()),
        ("prog", host.advertised.as_str())
    );
    let (game, asked) = referee_game(7, &mut [Some(&mut seat), None, None]).await;
    assert!(asked >= 5);
    let outcome = outcome_of(&game);
    seat.close(Some(outcome.clone())).await;
    seat.ended().await;
    // The program was told the whole game, its result and goodbye, then it exited.
    let transcript_path = dir.path().join("transcript.txt");
    let text = wait_for_line(&transcript_path, "bye").await;
    let lines: Vec<&str> = text.lines().skip(7).collect();
    assert_eq!(
        &lines[..3],
        ["game 1", "rules competition", "seat 0"],
        "{text}"
    );
    assert!(lines[3].starts_with("hand "), "{text}");
    // It ran in its working directory, without bot-host's environment.
    let logged = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{key} ")))
            .unwrap_or_else(|| panic!("no {key} line in {text}"))
            .to_string()
    };
    let workdir = dir.path().canonicalize().unwrap();
    assert_eq!(Path::new(&logged("cwd")).canonicalize().unwrap(), workdir);
    assert_eq!(Path::new(&logged("home")).canonicalize().unwrap(), workdir);
    let env = logged("env");
    assert!(env.split(' ').any(|v| v == "PATH"), "{env}");
    assert!(
        !env.contains("CARGO"),
        "bot-host's environment leaked: {env}"
    );
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("ask ")).count() as u64,
        asked
    );
    let winner = game.outcome().unwrap().winner;
    let s = &outcome.scores;
    let end = format!("end {winner} {} {} {}", s[0], s[1], s[2]);
    assert_eq!(lines[lines.len() - 2..], [end.as_str(), "bye"], "{text}");
    // In its sandbox it was the first process of a PID namespace of its own, saw no process
    // of the host's and read nothing of bot-host's environment or command line.
    assert_eq!(logged_pid(&text, "pid"), 1);
    assert_eq!(logged("procs"), "1", "{text}");
    assert_eq!(logged("leaks"), "0", "{text}");
    wait_none_in(dir.path()).await;
}

/// The living processes whose command line has `arg` as one of its words, with their working
/// directories.
fn programs_with_arg(arg: &str) -> Vec<(u32, std::path::PathBuf)> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|&b| b == 0).any(|w| w == arg.as_bytes()))
                && !process_gone(pid)
        })
        .filter_map(|pid| Some((pid, std::fs::read_link(format!("/proc/{pid}/cwd")).ok()?)))
        .collect()
}

#[tokio::test]
async fn each_seat_gets_its_own_process_in_a_fresh_directory() {
    let host = Host::start(fast_config()).await;
    // No workdir: each process writes its log into the temporary directory made for it. The
    // log's name is this test's own, so its programs can be told from other tests'.
    let log = format!("fresh-{}.txt", std::process::id());
    host.add_program("prog", line_bot(&format!("first {log}")), None, 0, 0)
        .await;
    let mut a = open_seat(&host, "t-2p", 0, "prog").await;
    let mut b = open_seat(&host, "t-2p", 2, "prog").await;
    a.ready().await;
    b.ready().await;
    // Both programs have joined, so both have written their logs.
    let programs = programs_with_arg(&log);
    assert_eq!(programs.len(), 2, "one process per seat: {programs:?}");
    let (pa, pb) = (&programs[0], &programs[1]);
    assert_ne!(pa.0, pb.0, "two processes");
    assert_ne!(pa.1, pb.1, "two directories");
    let temp = std::env::temp_dir().canonicalize().unwrap();
    for (pid, dir) in &programs {
        let name = dir.file_name().unwrap().to_string_lossy();
        assert!(
            dir.starts_with(&temp) && name.starts_with("arena-bot-"),
            "process {pid} works in {}, not a fresh temporary directory",
            dir.display()
        );
        let text = std::fs::read_to_string(dir.join(&log)).unwrap();
        // Nothing was in its directory when it started: the directory is fresh.
        assert!(text.lines().any(|l| l == "files "), "{text}");
        // It is its own process: the first of a PID namespace of its own, or (without one)
        // the process found here.
        let logged = logged_pid(&text, "pid");
        assert!(logged == 1 || logged == *pid, "pid {logged} in {text}");
    }
    let (game, asked) = referee_game(21, &mut [Some(&mut a), None, Some(&mut b)]).await;
    assert!(asked >= 10);
    a.close(Some(outcome_of(&game))).await;
    b.close(Some(outcome_of(&game))).await;
    a.ended().await;
    b.ended().await;
    // The programs end, and their directories are removed.
    within("the programs to end and their directories to go", async {
        while programs
            .iter()
            .any(|(pid, d)| !process_gone(*pid) || d.exists())
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
}

#[tokio::test]
async fn a_program_over_its_cpu_limit_is_killed_and_reported() {
    let host = Host::start(fast_config()).await;
    host.add_program("spinner", line_bot("busy"), None, 1, 0)
        .await;
    let mut seat = seat_with_first_request(&host, "spinner", 30_000).await;
    let fault = seat.fault().await;
    assert_eq!(
        fault.kind,
        v1::VerdictKind::Crashed as i32,
        "{}",
        fault.reason
    );
    assert!(
        fault
            .reason
            .contains("exited before answering the bid request"),
        "{}",
        fault.reason
    );
    assert!(fault.reason.contains("SIGXCPU"), "{}", fault.reason);
    assert!(fault.reason.contains("CPU time 1 s"), "{}", fault.reason);
    seat.ended().await;
}

#[tokio::test]
async fn a_bot_record_cannot_raise_the_hosts_limits() {
    let mut config = fast_config();
    config.processes.limits.cpu_seconds = 1;
    let host = Host::start(config).await;
    host.add_program("spinner", line_bot("busy"), None, 30, 0)
        .await;
    let mut seat = seat_with_first_request(&host, "spinner", 30_000).await;
    let fault = seat.fault().await;
    assert!(
        fault
            .reason
            .contains("it used up its CPU-time limit of 1 s"),
        "{}",
        fault.reason
    );
    assert!(
        fault.reason.contains("its limits: CPU time 1 s"),
        "{}",
        fault.reason
    );
}

#[tokio::test]
async fn a_program_past_its_wall_time_is_killed_and_the_verdict_says_so() {
    let mut config = fast_config();
    config.processes.limits.wall_seconds = 1;
    let host = Host::start(config).await;
    host.add_program("sleeper", line_bot("silent"), None, 0, 0)
        .await;
    let mut seat = seat_with_first_request(&host, "sleeper", 30_000).await;
    let fault = seat.fault().await;
    assert_eq!(
        fault.kind,
        v1::VerdictKind::Crashed as i32,
        "{}",
        fault.reason
    );
    assert!(
        fault
            .reason
            .contains("SIGALRM): it outlived its wall-time limit of 1 s"),
        "{}",
        fault.reason
    );
}

#[tokio::test]
async fn a_program_over_its_memory_limit_crashes_and_is_reported() {
    let host = Host::start(fast_config()).await;
    host.add_limited_program("hog", line_bot("hog"), None, 0, 256, 0)
        .await;
    let mut seat = seat_with_first_request(&host, "hog", 30_000).await;
    let fault = seat.fault().await;
    assert_eq!(
        fault.kind,
        v1::VerdictKind::Crashed as i32,
        "{}",
        fault.reason
    );
    assert!(fault.reason.contains("MemoryError"), "{}", fault.reason);
    assert!(fault.reason.contains("memory 256 MiB"), "{}", fault.reason);
}

#[tokio::test]
async fn a_crashing_program_is_reported_with_its_exit_status_and_stderr() {
    let host = Host::start(fast_config()).await;
    host.add_program("crasher", line_bot("crash"), None, 0, 0)
        .await;
    let mut seat = seat_with_first_request(&host, "crasher", 5000).await;
    let fault = seat.fault().await;
    assert_eq!(
        fault.kind,
        v1::VerdictKind::Crashed as i32,
        "{}",
        fault.reason
    );
    assert!(fault.reason.contains("exit code 1"), "{}", fault.reason);
    assert!(
        fault.reason.contains("crashing on purpose at bid"),
        "{}",
        fault.reason
    );
}

#[tokio::test]
async fn garbage_from_a_program_is_malformed() {
    let host = Host::start(fast_config()).await;
    host.add_program("garbler", line_bot("garbage"), None, 0, 0)
        .await;
    let mut seat = seat_with_first_request(&host, "garbler", 5000).await;
    let fault = seat.fault().await;
    assert_eq!(
        fault.kind,
        v1::VerdictKind::Malformed as i32,
        "{}",
        fault.reason
    );
    assert!(
        fault
            .reason
            .contains("answered \"plya 33\" to the bid request: unknown command \"plya\""),
        "{}",
        fault.reason
    );
}

#[tokio::test]
async fn a_silent_program_is_given_up_after_the_hard_cap_and_its_process_group_killed() {
    let host = Host::start(BotHostConfig {
        decisions: DecisionLimits {
            silence_margin: Duration::from_millis(200),
            ..DecisionLimits::default()
        },
        ..fast_config()
    })
    .await;
    let dir = program_dir();
    host.add_program(
        "sleeper",
        line_bot("spawn log.txt"),
        Some(dir.path().display().to_string()),
        0,
        0,
    )
    .await;
    let started = tokio::time::Instant::now();
    let mut seat = seat_with_first_request(&host, "sleeper", 300).await;
    let fault = seat.fault().await;
    assert_eq!(
        fault.kind,
        v1::VerdictKind::Timeout as i32,
        "{}",
        fault.reason
    );
    assert!(
        fault.reason.contains(
            "no answer to the bid request within 1200 ms (deadline 1000 ms, hard cap 300 ms"
        ),
        "{}",
        fault.reason
    );
    assert!(started.elapsed() >= Duration::from_millis(1200));
    seat.ended().await;
    let log = wait_for_line(&dir.path().join("log.txt"), "ask bid").await;
    assert!(log.lines().any(|l| l.starts_with("child ")), "{log}");
    wait_none_in(dir.path()).await;
}

/// A Botzone keep-running program that writes its answer but neither prints the marker nor
/// exits: bot-host tells the referee why as soon as it hears the answer, in one `SeatNote` for
/// the request (not one per line), while the bot still has its time; its own timeout, after
/// the hard cap and the margin, says the same.
#[tokio::test]
async fn a_keep_running_botzone_program_without_the_marker_is_noted_once_for_its_request() {
    let host = Host::start(BotHostConfig {
        decisions: DecisionLimits {
            silence_margin: Duration::from_millis(200),
            ..DecisionLimits::default()
        },
        ..fast_config()
    })
    .await;
    let dir = program_dir();
    let script = dir.path().join("nomarker.py");
    std::fs::write(
        &script,
        "import sys\nsys.stdin.readline()\nprint('{\"response\": 0}')\nprint('{\"debug\": 1}', \
         flush=True)\nsys.stdin.read()\n",
    )
    .unwrap();
    host.add_program(
        "nomarker",
        format!("botzone-keep:python3 '{}'", script.display()),
        None,
        0,
        0,
    )
    .await;
    // Room for Python to start and write both lines before bot-host gives up.
    let mut seat = seat_with_first_request(&host, "nomarker", 3000).await;
    let note = match seat.next().await {
        Some(v1::seat_to_referee::Msg::Note(n)) => n,
        other => panic!("expected SeatNote, got {other:?}"),
    };
    assert_eq!(note.request_id, 1);
    assert!(
        note.note.contains(
            "it neither printed >>>BOTZONE_REQUEST_KEEP_RUNNING<<< nor exited after writing"
        ) && note.note.contains("response"),
        "{}",
        note.note
    );
    // Its second line changes nothing: the next message is bot-host's own timeout.
    let fault = seat.fault().await;
    assert_eq!(fault.kind, v1::VerdictKind::Timeout as i32, "{fault:?}");
    assert!(
        fault.reason.contains(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"),
        "{}",
        fault.reason
    );
}

#[tokio::test]
async fn a_table_that_ends_kills_a_program_that_does_not_leave() {
    let host = Host::start(fast_config()).await;
    let dir = program_dir();
    host.add_program(
        "sleeper",
        line_bot("spawn log.txt"),
        Some(dir.path().display().to_string()),
        0,
        0,
    )
    .await;
    let mut seat = seat_with_first_request(&host, "sleeper", 30_000).await;
    let log = wait_for_line(&dir.path().join("log.txt"), "ask bid").await;
    assert!(log.lines().any(|l| l.starts_with("child ")), "{log}");
    assert!(
        processes_in(dir.path()).len() >= 2,
        "the program and its child"
    );
    seat.close(None).await;
    seat.ended().await;
    wait_none_in(dir.path()).await;
}

#[tokio::test]
async fn a_program_that_cannot_start_is_crashed() {
    let host = Host::start(fast_config()).await;
    host.add_program("ghost", "/nonexistent/arena-bot --fast".into(), None, 0, 0)
        .await;
    let mut seat = open_seat(&host, "t-g", 1, "ghost").await;
    let fault = seat.fault().await;
    assert_eq!(fault.kind, v1::VerdictKind::Crashed as i32);
    // The cause comes first, so that the referee's cut to 80 characters keeps it.
    assert!(
        fault
            .reason
            .starts_with("could not start the program: No such file or directory"),
        "{}",
        fault.reason
    );
    assert!(
        fault
            .reason
            .ends_with("; the command: /nonexistent/arena-bot --fast"),
        "{}",
        fault.reason
    );
}

#[tokio::test]
async fn program_seats_beyond_max_tables_wait_for_a_free_one() {
    let host = Host::start(fast_config()).await;
    host.add_program("prog", line_bot("first"), None, 0, 1)
        .await;
    let mut a = open_seat(&host, "t-a", 0, "prog").await;
    a.ready().await;
    let mut b = open_seat(&host, "t-b", 0, "prog").await;
    let waited = tokio::time::timeout(Duration::from_millis(400), b.rx.message()).await;
    assert!(waited.is_err(), "the second seat must wait, got {waited:?}");
    a.close(None).await;
    a.ended().await;
    b.ready().await;
}

#[tokio::test]
async fn built_in_bots_play_a_whole_table() {
    let host = Host::start(fast_config()).await;
    let mut a = open_seat(&host, "t-b", 0, "expert").await;
    let mut b = open_seat(&host, "t-b", 1, "random").await;
    let mut c = open_seat(&host, "t-b", 2, "ladder:2/5").await;
    for (s, name) in [
        (&mut a, "expert"),
        (&mut b, "random"),
        (&mut c, "ladder:2/5"),
    ] {
        let ready = s.ready().await;
        assert_eq!(ready.bot, name);
        assert_eq!(ready.host, host.advertised);
    }
    let (game, asked) = referee_game(99, &mut [Some(&mut a), Some(&mut b), Some(&mut c)]).await;
    assert!(game.outcome().is_some());
    assert!(asked >= 20);
    for s in [&mut a, &mut b, &mut c] {
        s.close(Some(outcome_of(&game))).await;
        s.ended().await;
    }
}

#[tokio::test]
async fn a_bad_observation_is_invalid_argument_naming_the_field() {
    let host = Host::start(fast_config()).await;
    let mut seat = open_seat(&host, "t-x", 0, "expert").await;
    seat.ready().await;
    let game =
        ddz::Game::from_seed(ddz::GameConfig::competition(), 1, ddz::DealConstraint::NONE).unwrap();
    let mut req = request_for(&game, "t-x", 1);
    arena_games::ddz::convert::edit_observation(&mut req, |o| {
        o.hand = "33Z".into();
    });
    seat.send(v1::referee_to_seat::Msg::Request(req)).await;
    assert_status(
        &seat.error().await,
        Code::InvalidArgument,
        "request.observation.ddz.hand \"33Z\"",
    );
}

/// A Mahjong program (`tests/bots/mahjong_line_bot.py MODE`, or the repository's
/// `examples/mahjong-python/simple_bot.py` for `simple`).
fn mahjong_program(mode: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if mode == "simple" {
        let script =
            arena_testkit::readable_copy(&root.join("../../examples/mahjong-python/simple_bot.py"));
        return format!("python3 '{}'", script.display());
    }
    let script = arena_testkit::readable_copy(&root.join("tests/bots/mahjong_line_bot.py"));
    format!("python3 '{}' {mode}", script.display())
}

/// The verdicts of `result` against seat 0.
fn seat0_verdicts(result: &v1::TableResult) -> Vec<&v1::Verdict> {
    result.verdicts.iter().filter(|v| v.seat == 0).collect()
}

#[tokio::test]
async fn a_mahjong_program_plays_whole_hands_as_the_contest_protocol_says() {
    let host = Host::start(fast_config()).await;
    for (name, mode) in [("simple", "simple"), ("polite", "polite")] {
        host.add_game_program(
            arena_store::Game::named("mahjong"),
            name,
            mahjong_program(mode),
        )
        .await;
        for seed in [1, 2] {
            let (result, replay) = mahjong_hand(&host, name, seed).await;
            assert!(result.error.is_empty(), "{name}: {}", result.error);
            // Every one of its decisions was the program's own answer, accepted by the rules
            // (a `pass` on its own turn answers nothing and costs nothing).
            assert_eq!(
                seat0_verdicts(&result),
                Vec::<&v1::Verdict>::new(),
                "{name}"
            );
            let own: Vec<&v1::ReplayStep> = replay.steps.iter().filter(|s| s.seat == 0).collect();
            assert!(own.len() >= 10, "{name}: {} decisions", own.len());
            assert!(own.iter().all(|s| !s.automatic), "{name}");
            assert!(
                own.iter().any(|s| s.kind() == v1::DecisionKind::Turn)
                    && own.iter().any(|s| s.kind() == v1::DecisionKind::Claim),
                "{name}: it was asked both its turns and claims"
            );
        }
    }
}

#[tokio::test]
async fn a_mahjong_programs_wrong_kind_of_answer_and_endless_chatter_are_malformed() {
    let host = Host::start(fast_config()).await;
    for (mode, needle) in [
        (
            "wrong",
            "to the mout request: a discard is answered with pass",
        ),
        ("chatty", "wrote more than 64 lines that answer nothing"),
    ] {
        host.add_game_program(
            arena_store::Game::named("mahjong"),
            mode,
            mahjong_program(mode),
        )
        .await;
        let (result, replay) = mahjong_hand(&host, mode, 3).await;
        let verdicts = seat0_verdicts(&result);
        assert_eq!(verdicts.len(), 1, "{mode}: {:?}", result.verdicts);
        assert_eq!(verdicts[0].kind(), v1::VerdictKind::Malformed, "{mode}");
        assert!(
            verdicts[0].reason.contains(needle),
            "{mode}: {}",
            verdicts[0].reason
        );
        // The seat played on automatically; the hand ended.
        assert!(result.outcome.is_some(), "{mode}");
        assert!(
            replay.steps.iter().any(|s| s.seat == 0 && s.automatic),
            "{mode}"
        );
    }
}

#[tokio::test]
async fn a_program_sits_only_at_its_own_games_tables() {
    let host = Host::start(fast_config()).await;
    host.add_program("ddz-prog", line_bot("first"), None, 0, 0)
        .await;
    let (result, _) = mahjong_hand(&host, "ddz-prog", 1).await;
    let verdicts = seat0_verdicts(&result);
    assert_eq!(verdicts.len(), 1, "{:?}", result.verdicts);
    assert!(
        verdicts[0]
            .reason
            .contains("bot \"ddz-prog\" is a program playing ddz"),
        "{}",
        verdicts[0].reason
    );
}
