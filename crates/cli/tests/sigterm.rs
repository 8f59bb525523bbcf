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
