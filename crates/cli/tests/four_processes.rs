//! The four roles as separate `arena` processes on the shared Redis (a key prefix of this test's
//! own): a deal library measured through the referee, an equal-strength competition between a
//! program bot hosted by bot-host and built-in bots, and the matchmaker killed with SIGKILL in the
//! middle of it and started again — the competition still finishes, every table counted once.

mod common;

use common::{Credentials, arena, arena_as, port};

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const REDIS: &str = "redis://127.0.0.1:6379";

/// A role as a child process, killed when dropped.
struct Role(Child);

impl Role {
    fn start(role: &str, store: &[&str], args: &[&str], creds: &[String]) -> Role {
        let child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg(role)
            .args(store)
            .args(args)
            .args(creds)
            .env("ARENA_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        Role(child)
    }

    fn kill(&mut self) {
        // SIGKILL: no graceful shutdown, nothing flushed.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Role {
    fn drop(&mut self) {
        self.kill();
    }
}

fn field(line: &str, n: usize) -> Option<&str> {
    line.split("  ").nth(n)
}

/// `(done, total, state)` of the competition, from `arena competition list`.
fn progress(token: &str, mm: &str, name: &str) -> Option<(u64, u64, String)> {
    let (out, _, ok) = arena_as(token, &["competition", "list", "--matchmaker", mm]);
    if !ok {
        return None;
    }
    let line = out.lines().find(|l| l.starts_with(&format!("{name}  ")))?;
    let state = field(line, 2)?.to_string();
    let (done, total) = field(line, 3)?
        .trim_end_matches(" tables")
        .split_once('/')?;
    Some((done.parse().ok()?, total.parse().ok()?, state))
}

fn cleanup(prefix: &str) {
    let client = redis::Client::open(REDIS).unwrap();
    let mut con = client.get_connection().unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query(&mut con)
        .unwrap_or_default();
    if !keys.is_empty() {
        let _: () = redis::cmd("DEL").arg(keys).query(&mut con).unwrap();
    }
}

#[test]
fn a_competition_on_four_processes_survives_a_killed_matchmaker() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let prefix = format!("cli-four-{}-{nanos}", std::process::id());
    let store = ["--redis", REDIS, "--redis-prefix", prefix.as_str()];
    let bot = format!(
        "python3 {}/../../examples/ddz-python/simple_bot.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let (_, err, ok) = arena(&[&["bots", "add", "pybot", "--program", &bot][..], &store].concat());
    assert!(ok, "{err}");

    let creds = Credentials::new();
    let token = creds.operator.clone();
    let (r, b, s, l, m) = (port(), port(), port(), port(), port());
    let at = |p: u16| format!("127.0.0.1:{p}");
    let url = |p: u16| format!("http://127.0.0.1:{p}");
    let _host = Role::start(
        "bot-host",
        &store,
        &["--listen", &at(b), "--seat-listen", &at(s)],
        &creds.cluster_args(),
    );
    let _referee = Role::start(
        "table-referee",
        &store,
        &["--listen", &at(r), "--bot-host", &url(s)],
        &[creds.cluster_args(), creds.operator_args()].concat(),
    );
    let _library = Role::start(
        "deal-library",
        &store,
        &["--listen", &at(l)],
        &creds.operator_args(),
    );
    let mut matchmaker = Role::start(
        "matchmaker",
        &store,
        &["--listen", &at(m)],
        &creds.operator_args(),
    );

    // The library, measured through the referee's GDI batches.
    let start = Instant::now();
    loop {
        let (out, err, ok) = arena_as(
            &token,
            &[
                "deals",
                "measure",
                "--library",
                &url(l),
                "--count",
                "400",
                "--bombs",
                "1",
                "--panel",
                "ladder:5",
                "--batch",
                "50",
                "--json",
            ],
        );
        if ok {
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(v["deals"], 400, "{v}");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "{err}");
        std::thread::sleep(Duration::from_millis(100));
    }

    // The competition: the client follows it until the matchmaker dies under it.
    let mm = url(m);
    let mut client = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "competition",
            "create",
            "--matchmaker",
            &mm,
            "--name",
            "cup",
            "--format",
            "equal-strength",
            "--centre",
            "0.8,0.4,0.2",
            "--eps",
            "0.6",
            "--participants",
            "pybot,expert,seed",
            "--panel",
            "ladder:5",
            "--matches",
            "8",
            "--rounds",
            "12",
        ])
        .env("ARENA_OPERATOR_TOKEN", &token)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let total = loop {
        if let Some((done, total, state)) = progress(&token, &mm, "cup") {
            assert_eq!(total, 3 * 8 * 12);
            assert_eq!(state, "running", "killed too late: {done}/{total}");
            if done >= 20 {
                assert!(done < total, "killed too late: every table was done");
                break total;
            }
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    };
    matchmaker.kill();
    let _ = client.wait();
    // Tables go on being played meanwhile; a new matchmaker takes over.
    std::thread::sleep(Duration::from_millis(300));
    let _matchmaker = Role::start(
        "matchmaker",
        &store,
        &["--listen", &at(m)],
        &creds.operator_args(),
    );
    let start = Instant::now();
    loop {
        if let Some((done, t, state)) = progress(&token, &mm, "cup")
            && state == "finished"
        {
            assert_eq!((done, t), (total, total));
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "{:?}",
            progress(&token, &mm, "cup")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (standings, err, ok) = arena_as(
        &token,
        &["competition", "standings", "cup", "--matchmaker", &mm],
    );
    assert!(ok, "{err}");
    assert!(
        standings.contains(&format!("cup: {total}/{total} tables, final")),
        "{standings}"
    );
    let file = std::env::temp_dir().join(format!("{prefix}.replays"));
    let (out, err, ok) = arena_as(
        &token,
        &[
            "competition",
            "replays",
            "cup",
            "--out",
            file.to_str().unwrap(),
            "--matchmaker",
            &mm,
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains(&format!("{total} replays of cup")), "{out}");
    let _ = std::fs::remove_file(file);
    cleanup(&prefix);
}
