//! `arena mahjong match` as users call it.

use std::process::Command;

fn arena(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .expect("arena runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

fn last_json(out: &str) -> serde_json::Value {
    serde_json::from_str(out.lines().last().expect("output")).expect("the last line is JSON")
}

#[test]
fn a_match_prints_a_ranking_and_json_and_the_same_seed_repeats_it() {
    let args = [
        "mahjong", "match", "greedy", "random", "expert", "greedy", "--seed", "17", "--json",
    ];
    let (out, err, ok) = arena(&args);
    assert!(ok, "{err}");
    assert!(out.contains("96 hands, seed 17"), "{out}");
    for label in ["A: greedy", "B: random", "C: expert", "D: greedy"] {
        assert!(out.contains(label), "{label} in {out}");
    }
    let v = last_json(&out);
    assert_eq!(v["hands"], 96);
    assert_eq!(v["seed"], 17);
    let bots: Vec<&str> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["bot"].as_str().unwrap())
        .collect();
    assert_eq!(bots, ["greedy", "random", "expert", "greedy"]);
    let line = out.lines().last().unwrap();
    assert!(line.starts_with(r#"{"hands":96,"draws":"#), "{line}");
    let (again, _, _) = arena(&args);
    assert_eq!(
        again.lines().last(),
        out.lines().last(),
        "same seed, same match"
    );
}

#[test]
fn a_bad_bot_name_is_refused_before_anything_is_played() {
    let (out, err, ok) = arena(&["mahjong", "match", "expert", "greedy", "random", "grredy"]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("bot D (\"grredy\")"), "{err}");
    assert!(
        err.contains("random, greedy and expert") && err.contains("cmd:PROGRAM"),
        "{err}"
    );
    let (_, err, ok) = arena(&["mahjong", "match", "expert", "cmd:", "random", "random"]);
    assert!(
        !ok && err.contains("bot B") && err.contains("cmd: needs a program"),
        "{err}"
    );
}

#[test]
fn the_score_sheet_totals_are_the_json_scores_and_a_faulty_program_shows_its_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let (out, err, ok) = arena(&[
        "mahjong",
        "match",
        "expert",
        "cmd:true",
        "greedy",
        "random",
        "--seed",
        "4",
        "--log-dir",
        logs.to_str().unwrap(),
        "--json",
    ]);
    // The report is printed in full, and the exit code says that a seat never played.
    assert!(!ok, "a seat crashing in every hand fails the match");
    assert!(
        err.contains("bot B (cmd:true) crashed in all 96 hands"),
        "{err}"
    );
    let v = last_json(&out);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players[1]["bot"], "cmd:true");
    assert_eq!(players[1]["verdicts"], 96, "a verdict in every hand");
    assert!(out.contains("verdicts: B 96 × crashed"), "{out}");
    assert!(
        out.contains("\"join\""),
        "the reason says what the program failed to do: {out}"
    );
    let csv = std::fs::read_to_string(logs.join("match-4/scores.csv")).unwrap();
    let total = csv.lines().last().unwrap();
    let totals: Vec<i64> = total
        .split(',')
        .skip(9)
        .map(|x| x.parse().unwrap())
        .collect();
    let scores: Vec<i64> = players
        .iter()
        .map(|p| p["score"].as_i64().unwrap())
        .collect();
    assert_eq!(totals, scores);
    let log = std::fs::read_to_string(logs.join("match-4/hand-00.log")).unwrap();
    assert!(log.starts_with("ver 1.0\n"));
    assert!(
        log.lines()
            .any(|l| l.starts_with("verdict ") && l.contains(" crashed ")),
        "{log}"
    );
}
