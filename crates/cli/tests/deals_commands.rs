//! The deal-library commands as users run them.

mod common;

use arena_testkit::redis_server::RedisServer;
use common::arena;

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.trim().lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {s}"))
}

/// Sends `signal` to `child`.
fn signal(child: &std::process::Child, signal: i32) {
    // SAFETY: kill(2) with a child's pid; no memory is touched.
    let r = unsafe { libc::kill(child.id() as i32, signal) };
    assert_eq!(r, 0, "kill({}, {signal})", child.id());
}

/// Deals of `panel` measured in the Redis at `url`, as `arena deals stats` counts them (0 while
/// there are none: stats refuses an empty panel).
fn measured_in(url: &str, panel: &str) -> u64 {
    let (out, _, ok) = arena(&["deals", "stats", "--panel", panel, "--redis", url, "--json"]);
    if !ok {
        return 0;
    }
    json(&out)["deals"].as_u64().unwrap_or(0)
}

#[test]
fn a_killed_measurement_loses_and_repeats_nothing() {
    const COUNT: u64 = 4000;
    let redis = RedisServer::builder().generated_password().start();
    let url = redis.url();
    let count = COUNT.to_string();
    let args = [
        "deals",
        "gdi",
        "--count",
        &count,
        "--bombs",
        "1",
        "--panel",
        "ladder:10",
        "--redis",
        &url,
        "--batch",
        "50",
        "--json",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Look at the store only while the run is frozen (SIGSTOP), so what is seen is where the run
    // is: once some deals but not all are stored, kill it (SIGKILL, no chance to flush) without
    // letting it go on. The run only moves between looks, so it cannot finish unseen.
    let deadline = Instant::now() + Duration::from_secs(120);
    let seen = loop {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before a look found it started"
        );
        signal(&child, libc::SIGSTOP);
        let n = measured_in(&url, "ladder:10");
        if n > 0 {
            break n;
        }
        signal(&child, libc::SIGCONT);
        assert!(Instant::now() < deadline, "no deal was stored in 120 s");
        std::thread::sleep(Duration::from_millis(20)); // polling: the run has no event to wait on
    };
    signal(&child, libc::SIGKILL);
    let status = child.wait().unwrap();
    assert_eq!(
        status.signal(),
        Some(libc::SIGKILL),
        "the kill ended the run: {status:?}"
    );
    assert!(
        seen < COUNT,
        "the kill must land mid-run: {seen} of {COUNT} stored"
    );
    // Writes already sent when the run froze may land after the look, but the run sent nothing
    // after it: at most a batch per worker thread more is stored.
    let stored = measured_in(&url, "ladder:10");
    assert!(
        (seen..COUNT).contains(&stored),
        "{stored} deals stored after the kill, {seen} when it was frozen"
    );

    let (out, err, ok) = arena(&args);
    assert!(ok, "{err}");
    let v = json(&out);
    let already = v["already"].as_u64().unwrap();
    let measured = v["measured"].as_u64().unwrap();
    assert_eq!(
        already, stored,
        "the resumed run reuses what was stored: {v}"
    );
    assert!(measured > 0, "the resumed run had the rest to measure: {v}");
    assert_eq!(already + measured, COUNT, "every deal measured: {v}");
    assert_eq!(
        v["games"].as_u64().unwrap(),
        measured * 10,
        "no deal measured twice: {v}"
    );
    assert_eq!(v["library_size"], COUNT);
    assert_eq!(measured_in(&url, "ladder:10"), COUNT, "one record per deal");

    let (out, _, ok) = arena(&args);
    assert!(ok);
    let v = json(&out);
    assert_eq!(
        (
            v["already"].as_u64(),
            v["measured"].as_u64(),
            v["games"].as_u64()
        ),
        (Some(COUNT), Some(0), Some(0))
    );
}

#[test]
fn export_import_round_trips_and_bad_files_are_refused() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let (da, db) = (a.path().to_str().unwrap(), b.path().to_str().unwrap());
    let (_, err, ok) = arena(&[
        "deals",
        "gdi",
        "--count",
        "60",
        "--bombs",
        "1",
        "--panel",
        "ladder:5",
        "--data-dir",
        da,
    ]);
    assert!(ok, "{err}");
    for format in ["jsonl", "csv"] {
        let file = a.path().join(format!("deals.{format}"));
        let f = file.to_str().unwrap();
        let (_, err, ok) = arena(&[
            "deals",
            "export",
            "--format",
            format,
            "--out",
            f,
            "--panel",
            "ladder:5",
            "--data-dir",
            da,
        ]);
        assert!(ok, "{err}");
        let (out, err, ok) = arena(&["deals", "import", f, "--data-dir", db]);
        assert!(ok, "{err}");
        assert!(out.contains("imported 60 records"), "{out}");
    }
    let (out, _, _) = arena(&[
        "deals",
        "stats",
        "--panel",
        "ladder:5",
        "--data-dir",
        db,
        "--json",
    ]);
    assert_eq!(json(&out)["deals"], 60);

    let bad = a.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"id\": \"x\"}\n").unwrap();
    let (_, err, ok) = arena(&["deals", "import", bad.to_str().unwrap(), "--data-dir", db]);
    assert!(!ok);
    assert!(err.contains("line 1"), "{err}");
}

#[test]
fn query_and_find_answer_near_a_centre() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (out, err, ok) = arena(&[
        "deals",
        "find",
        "--centre",
        "0.9,0.5,0.2",
        "--eps",
        "0.25",
        "--count",
        "5",
        "--panel",
        "ladder:10",
        "--data-dir",
        d,
        "--json",
    ]);
    assert!(ok, "{err}");
    let v = json(&out);
    assert_eq!(v["found"], 5, "{v}");
    for deal in v["deals"].as_array().unwrap() {
        assert!(deal["distance"].as_f64().unwrap() <= 0.25);
    }
    let (out, err, ok) = arena(&[
        "deals",
        "query",
        "--centre",
        "0.9,0.5,0.2",
        "--eps",
        "0.25",
        "--count",
        "3",
        "--panel",
        "ladder:10",
        "--data-dir",
        d,
        "--json",
    ]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().count(), 3);
    let (_, err, ok) = arena(&[
        "deals",
        "find",
        "--centre",
        "0.9,0.5",
        "--panel",
        "ladder:10",
        "--data-dir",
        d,
    ]);
    assert!(!ok);
    assert!(err.contains("needs 3 values"), "{err}");
}

#[test]
fn compete_runs_an_equal_strength_competition_and_claims_its_deals() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let common = [
        "--tables",
        "expert,ladder:3/10,random",
        "--panel",
        "ladder:10",
        "--matches",
        "4",
        "--rounds",
        "3",
        "--data-dir",
        d,
    ];
    let mut args = vec![
        "compete",
        "--format",
        "equal-strength:0.9,0.5,0.2:0.25",
        "--claim",
        "cup-1",
        "--json",
    ];
    args.extend(common);
    let (out, err, ok) = arena(&args);
    assert!(ok, "{err}");
    let v = json(&out);
    assert_eq!(v["deals_used"], 36);
    assert_eq!(v["final_ranking"][0], "expert", "{v}");
    // A second competition never gets the claimed deals.
    let (out, err, ok) = arena(
        &args
            .iter()
            .map(|s| if *s == "cup-1" { "cup-2" } else { s })
            .collect::<Vec<_>>(),
    );
    assert!(ok, "{err}");
    assert_eq!(json(&out)["deals_used"], 36);
    let (out, _, _) = arena(&[
        "deals",
        "stats",
        "--panel",
        "ladder:10",
        "--data-dir",
        d,
        "--json",
    ]);
    assert_eq!(json(&out)["used"], 72);
}
