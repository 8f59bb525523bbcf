//! The SIGTERM path of every role, as Kubernetes stops pods: in the middle of a competition on
//! four processes, bot-host, the referee, the deal library and the matchmaker each get SIGTERM,
//! each exits successfully within its grace, and the roles started again finish the competition
//! with every table counted exactly once and no bot blamed for the stop.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{Cluster, arena, unique_prefix};

const REDIS: &str = "redis://127.0.0.1:6379";

/// Far above every role's grace (the referee's is 2 s here, the others' defaults are seconds):
/// a role that ignores SIGTERM fails this, a slow machine does not.
const EXIT_WITHIN: Duration = Duration::from_secs(40);

#[test]
fn every_role_exits_cleanly_on_sigterm_mid_competition_and_loses_no_table() {
    let prefix = unique_prefix("sigterm");
    common::add_program_bot("pybot", REDIS, &prefix);
    // Four tables at a time: the stop lands with most of the competition still to play, however
    // fast or slow the machine.
    let mut cluster = Cluster::start(
        REDIS,
        &prefix,
        1,
        &["--shutdown-grace-ms", "2000", "--max-tables", "4"],
    );
    cluster.measure(200);
    let client = cluster.create(&[
        "--name",
        "cup",
        "--format",
        "equal-strength",
        "--centre",
        "0.8,0.4,0.2",
        "--eps",
        "0.6",
        "--participants",
        "pybot,expert",
        "--panel",
        "ladder:5",
        "--matches",
        "6",
        "--rounds",
        "10",
    ]);
    // Mid-competition: some tables done, others in flight or waiting.
    let total = cluster.wait_for_tables("cup", 10, Duration::from_secs(120));
    assert_eq!(total, 2 * 6 * 10);
    drop(client);
    for (role, status) in [
        ("table-referee", cluster.referees[0].terminate(EXIT_WITHIN)),
        ("bot-host", cluster.host.terminate(EXIT_WITHIN)),
        ("deal-library", cluster.library.terminate(EXIT_WITHIN)),
        ("matchmaker", cluster.matchmaker.terminate(EXIT_WITHIN)),
    ] {
        assert!(
            status.success(),
            "{role} exited {status} on SIGTERM\n{}",
            cluster.logs()
        );
    }
    // With only the matchmaker back (no referee plays), the competition is still unfinished:
    // the stop really came mid-competition, and what was left is finished by the roles restarted.
    cluster.matchmaker.restart();
    let start = std::time::Instant::now();
    let (done, _, state) = loop {
        if let Some(p) = cluster.progress("cup") {
            break p;
        }
        assert!(start.elapsed() < EXIT_WITHIN, "{}", cluster.logs());
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        done < total && state == "running",
        "progress after the stop: {done}/{total} {state}"
    );
    cluster.host.restart();
    cluster.library.restart();
    cluster.referees[0].restart();
    assert_eq!(
        cluster.wait_finished("cup", Duration::from_secs(180)),
        total
    );
    let replays = cluster.replays("cup");
    let ids: BTreeSet<String> = replays
        .iter()
        .map(|r| r.result.as_ref().unwrap().table_id.clone())
        .collect();
    assert_eq!((replays.len() as u64, ids.len() as u64), (total, total));
    for r in &replays {
        let result = r.result.as_ref().unwrap();
        assert!(
            result.error.is_empty(),
            "{}: {}",
            result.table_id,
            result.error
        );
        assert!(
            result.verdicts.is_empty(),
            "a stopped platform blamed a bot: {:?}",
            result.verdicts
        );
    }
    common::redis_cleanup(REDIS, &prefix);
}

/// `arena standalone` (all four roles in one process) exits successfully on SIGTERM, and its
/// embedded store opens again afterwards (the process released it).
#[test]
fn standalone_exits_cleanly_on_sigterm_and_releases_its_store() {
    let dir = arena_testkit::private_tempdir();
    let data = dir.path().to_str().unwrap();
    let m = common::port();
    let at = |p: u16| format!("127.0.0.1:{p}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["standalone", "--data-dir", data])
        .args(["--referee-listen", &at(common::port())])
        .args(["--bot-host-listen", &at(common::port())])
        .args(["--deal-library-listen", &at(common::port())])
        .args(["--matchmaker-listen", &at(m)])
        .env("ARENA_CONSOLE_LISTEN", "127.0.0.1:0")
        .env("ARENA_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", m)).is_err() {
        assert!(start.elapsed() < EXIT_WITHIN, "standalone did not come up");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) with our child's pid; no memory is touched.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed() < EXIT_WITHIN, "standalone ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "standalone exited {status} on SIGTERM");
    let (out, err, ok) = arena(&["bots", "list", "--data-dir", data]);
    assert!(
        ok,
        "the store does not open after standalone stopped: {err}{out}"
    );
}

/// `arena standalone` with tables of a program bot in flight stops in dependency order on
/// SIGTERM: the referee finishes or hands back its tables first, and bot-host, whose seats
/// those tables use, stops after it; so the stop logs no warning (bot-host draining under the
/// referee's tables gave one per broken seat, and held the stop for its whole grace). Per-table
/// lines are at DEBUG, so an INFO log does not grow with the tables played.
#[test]
fn standalone_stops_in_order_on_sigterm_without_warnings() {
    let dir = arena_testkit::private_tempdir();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let d = data.to_str().unwrap();
    let bot = format!("/usr/bin/python3 {}", common::simple_bot().display());
    let (_, err, ok) = arena(&["bots", "add", "pybot", "--program", &bot, "--data-dir", d]);
    assert!(ok, "{err}");
    let at = |p: u16| format!("127.0.0.1:{p}");
    let m = common::port();
    let log = dir.path().join("standalone.log");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["standalone", "--data-dir", d])
        .args(["--referee-listen", &at(common::port())])
        .args(["--bot-host-listen", &at(common::port())])
        .args(["--deal-library-listen", &at(common::port())])
        .args(["--matchmaker-listen", &at(m)])
        .env("ARENA_CONSOLE_LISTEN", "off")
        .env("ARENA_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let mm = format!("http://{}", at(m));
    let start = std::time::Instant::now();
    while !common::arena_client(&data, &["competition", "list", "--matchmaker", &mm]).2 {
        assert!(child.try_wait().unwrap().is_none(), "standalone exited");
        assert!(start.elapsed() < EXIT_WITHIN, "standalone did not come up");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut create = common::client_command(
        &data,
        &[
            "competition",
            "create",
            "--matchmaker",
            &mm,
            "--name",
            "cup",
            "--format",
            "random",
            "--participants",
            "pybot,expert",
            "--matches",
            "20",
            "--rounds",
            "10",
        ],
    )
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let token = std::fs::read_to_string(data.join("operator.token")).unwrap();
    let token = token.trim();
    // Mid-competition: tables done, others in flight on the program bot's seats.
    let start = std::time::Instant::now();
    let played = loop {
        if let Some((done, total, _)) = common::progress(token, &mm, "cup")
            && done >= 10
        {
            assert!(done < total, "every table was done already");
            break done;
        }
        assert!(
            start.elapsed() < EXIT_WITHIN,
            "the competition does not progress"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let before_stop = std::fs::read_to_string(&log).unwrap().len();
    // SAFETY: kill(2) with our child's pid; no memory is touched.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > EXIT_WITHIN {
            let _ = child.kill();
            panic!(
                "standalone still runs {EXIT_WITHIN:?} after SIGTERM:\n{}",
                &std::fs::read_to_string(&log).unwrap()[before_stop..]
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = create.kill();
    let _ = create.wait();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(status.success(), "standalone exited {status}:\n{text}");
    let stop = &text[before_stop..];
    let warnings: Vec<&str> = stop.lines().filter(|l| l.contains("WARN")).collect();
    assert!(
        warnings.is_empty(),
        "the stop warned:\n{}",
        warnings.join("\n")
    );
    let line_of = |what: &str| {
        stop.lines()
            .position(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no {what:?} in the stop's log:\n{stop}"))
    };
    assert!(
        line_of("referee=standalone") < line_of("bot-host stopped"),
        "bot-host stopped before the referee:\n{stop}"
    );
    // No line per table: the whole run logged fewer lines than the tables it played.
    for per_table in ["playing the table", "result written"] {
        assert!(!text.contains(per_table), "{per_table:?} at INFO:\n{text}");
    }
    assert!(played > 0);
}
