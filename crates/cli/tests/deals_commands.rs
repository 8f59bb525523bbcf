//! The deal-library commands as users run them.

mod common;

use common::arena;

use std::process::{Command, Stdio};
use std::time::Duration;

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.trim().lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {s}"))
}

#[test]
fn a_killed_measurement_loses_and_repeats_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let args = [
        "deals",
        "gdi",
        "--count",
        "4000",
        "--bombs",
        "1",
        "--panel",
        "ladder:10",
        "--data-dir",
        d,
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
    // Wait until the store file has been written a few times (batches committed), then kill.
    let file = dir.path().join("arena.redb");
    let mut changes = 0;
    let mut last = None;
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while changes < 4 && std::time::Instant::now() < deadline {
        let now = std::fs::metadata(&file).and_then(|m| m.modified()).ok();
        if now.is_some() && now != last {
            changes += 1;
            last = now;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL: no chance to flush anything
    child.wait().unwrap();

    let (out, err, ok) = arena(&args);
    assert!(ok, "{err}");
    let v = json(&out);
    let already = v["already"].as_u64().unwrap();
    let measured = v["measured"].as_u64().unwrap();
    assert!(
        already > 0,
        "the first run stored nothing before the kill: {v}"
    );
    assert_eq!(already + measured, 4000, "{v}");
    assert_eq!(
        v["games"].as_u64().unwrap(),
        measured * 10,
        "no deal measured twice: {v}"
    );
    assert_eq!(v["library_size"], 4000);

    let (out, _, ok) = arena(&args);
    assert!(ok);
    let v = json(&out);
    assert_eq!(
        (v["already"].as_u64(), v["measured"].as_u64()),
        (Some(4000), Some(0))
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
