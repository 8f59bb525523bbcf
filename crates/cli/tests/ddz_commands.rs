//! The `arena ddz` commands as users call them.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn arena(args: &[&str], stdin: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn legal_batch_writes_one_json_object_per_line_and_survives_bad_lines() {
    let input = "33344 pass\n3X 4\n3456789 34567\n\n55 BR5\n22 33\n";
    let (out, _, ok) = arena(&["ddz", "legal", "--batch"], input);
    assert!(ok);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        5,
        "blank lines are skipped, every other line answered"
    );
    assert_eq!(
        lines[0]["moves"],
        serde_json::json!(["3", "4", "33", "44", "333", "3334", "33344"])
    );
    assert_eq!(lines[0]["prev"], "pass");
    assert!(
        lines[1]["error"]
            .as_str()
            .unwrap()
            .contains("unknown card character 'X'")
    );
    assert_eq!(lines[1]["hand"], "3X");
    assert_eq!(
        lines[2]["moves"],
        serde_json::json!(["pass", "45678", "56789"])
    );
    assert!(lines[3]["error"].as_str().unwrap().contains("prev"));
    assert_eq!(lines[4]["moves"], serde_json::json!(["pass", "22"]));
}

#[test]
fn legal_prints_moves_and_rejects_bad_hands_with_a_message() {
    let (out, _, ok) = arena(&["ddz", "legal", "--hand", "333444555666789TJQKA"], "");
    assert!(ok);
    assert!(out.ends_with("519 legal moves\n"), "{out}");
    let (_, err, ok) = arena(&["ddz", "legal", "--hand", "33333"], "");
    assert!(!ok);
    assert!(err.contains("5 cards of rank 3"), "{err}");
}

#[test]
fn deal_is_reproducible_and_honours_bombs() {
    let (a, _, _) = arena(
        &["ddz", "deal", "--seed", "5", "--bombs", "2", "--json"],
        "",
    );
    let (b, _, _) = arena(
        &["ddz", "deal", "--seed", "5", "--bombs", "2", "--json"],
        "",
    );
    assert_eq!(a, b);
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    assert_eq!(v["bombs"], 2);
    let deal: ddz::Deal = v["deal"].as_str().unwrap().parse().unwrap();
    assert_eq!(deal.bombs(ddz::Seat::ALL[0]), 2);
}

#[test]
fn analyze_reports_seed_and_optimal_counts() {
    let (out, _, ok) = arena(
        &["ddz", "analyze", "--hand", "22AAKQJ9987776654", "--json"],
        "",
    );
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["seed"]["hand_count"], 9);
    assert!(v["optimal"]["hand_count"].as_u64().unwrap() <= 9);
    assert_eq!(v["seed"]["steps"].as_array().unwrap().len(), 10);
}

#[test]
fn selfplay_json_has_the_promised_fields() {
    let (out, _, ok) = arena(
        &["ddz", "selfplay", "--games", "300", "--seed", "3", "--json"],
        "",
    );
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 300);
    assert!(v["seconds"].as_f64().unwrap() > 0.0);
    assert!(v["games_per_second"].as_f64().unwrap() > 0.0);
    let wr = v["landlord_win_rate"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&wr));
}

#[test]
fn python_example_bot_completes_a_200_deal_match_without_verdicts() {
    let bot = format!("cmd:python3 {}", common::simple_bot().display());
    let (out, err, ok) = arena(
        &["ddz", "match", &bot, "random", "--deals", "200", "--json"],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 400);
    assert_eq!(
        v["verdicts"],
        serde_json::json!([]),
        "verdicts: {}",
        v["verdicts"]
    );
    assert!(v["a_moves"].as_u64().unwrap() > 1000);
    // A legal but simple bot still beats random play.
    assert!(v["a_wp"].as_f64().unwrap() > 0.6, "{}", v["a_wp"]);
}

#[test]
fn a_crashing_program_gets_verdicts_and_the_match_goes_on() {
    let dir = std::env::temp_dir().join(format!("arena-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("crash.py");
    std::fs::write(&script, "import sys\nprint('join crasher', flush=True)\nfor line in sys.stdin:\n    if line.startswith('ask'):\n        sys.exit(3)\n").unwrap();
    let bot = format!("cmd:python3 {}", script.display());
    let (out, err, ok) = arena(
        &["ddz", "match", &bot, "seed", "--deals", "5", "--json"],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"], 10);
    let verdicts = v["verdicts"].as_array().unwrap();
    assert!(!verdicts.is_empty());
    assert!(
        verdicts.iter().all(|x| x["verdict"]["kind"] == "crashed"),
        "{verdicts:?}"
    );
    assert!(
        verdicts[0]["verdict"]["reason"]
            .as_str()
            .unwrap()
            .contains("3"),
        "{verdicts:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn ladder_json_reports_graded_levels_and_costs() {
    let (out, err, ok) = arena(
        &["ddz", "ladder", "--levels", "5", "--deals", "600", "--json"],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["per_level"].as_array().unwrap().len(), 5);
    assert_eq!(v["micros_per_game"].as_array().unwrap().len(), 5);
    assert_eq!(v["strictly_increasing"], true);
}

#[test]
fn one_game_per_seating_claims_no_interval_and_several_get_students() {
    // One deal: each seating has a single game, which measures no spread; an interval of
    // ± 0 would claim certainty.
    let (out, err, ok) = arena(&["ddz", "match", "expert", "random", "--deals", "1"], "");
    assert!(ok, "{err}");
    let landlord = out.lines().find(|l| l.contains("A landlord")).unwrap();
    assert!(!landlord.contains('±'), "{out}");
    let (out, err, ok) = arena(
        &["ddz", "match", "expert", "random", "--deals", "1", "--json"],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["a_landlord"]["wp"]["ci95"].is_null(),
        "{}",
        v["a_landlord"]
    );
    // Over several deals the half-width is Student's t(n − 1) · sd / √n, not 1.96 · sd / √n.
    let (out, err, ok) = arena(
        &["ddz", "match", "seed", "random", "--deals", "6", "--json"],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let adp = &v["overall"]["adp"];
    let (n, sd, ci) = (
        adp["n"].as_f64().unwrap(),
        adp["sd"].as_f64().unwrap(),
        adp["ci95"].as_f64().unwrap(),
    );
    assert_eq!(n, 12.0);
    assert!(
        sd > 0.0,
        "the games must differ for the check to mean anything: {adp}"
    );
    // t(11) = 2.2010
    assert!(
        (ci - 2.2010 * sd / n.sqrt()).abs() < 1e-3 * sd.max(1.0),
        "{adp}"
    );
}
