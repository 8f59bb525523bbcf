//! The `arena mcr` commands as users call them: fan (flags and batch), legal, shanten, deal,
//! selfplay and the IJCAI match.

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use common::arena;

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.trim().lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {s}"))
}

/// `arena mcr fan --batch` fed `input`: its stdout lines.
fn fan_batch(input: &str) -> Vec<serde_json::Value> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["mcr", "fan", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("arena runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn fan_scores_one_hand_by_flags_with_both_names() {
    let args = [
        "mcr",
        "fan",
        "--hand",
        "W1 W1 W1 T5 T5 T5 B9 B9 B9 J2",
        "--pack",
        "PENG F1 2",
        "--win",
        "J2",
        "--flowers",
        "2",
    ];
    let (out, err, ok) = arena(&args);
    assert!(ok, "{err}");
    assert!(out.contains("All Pungs (碰碰和)"), "{out}");
    assert!(out.contains("reaches the 8-point minimum"), "{out}");
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let (out, _, ok) = arena(&with_json);
    assert!(ok);
    let v = json(&out);
    assert_eq!(v["reaches_8"], true);
    assert_eq!(
        v["without_flowers"].as_u64().unwrap() + 2,
        v["total"].as_u64().unwrap()
    );
    let (_, err, ok) = arena(&["mcr", "fan", "--hand", "W1 W1 Q1", "--win", "W1"]);
    assert!(!ok);
    assert!(err.contains("--hand: \"Q1\" is not a tile"), "{err}");
}

#[test]
fn fan_batch_answers_every_line_and_names_the_bad_field() {
    let answers = fan_batch(concat!(
        r#"{"hand":"W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5","win":"B5","self_drawn":true}"#,
        "\n",
        r#"{"hand":"W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5","win":"B5","packs":["CHI W5 2"]}"#,
        "\n\n",
        r#"{"hand":"W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W6 W7 T9","win":"T9","quan":9}"#,
        "\n",
        "not json\n",
        r#"{"hand":"W2 W3 W4 W6 W7 W8 T2 T3 T4 B6 B7 B8 T9","win":"T9"}"#,
        "\n",
    ));
    assert_eq!(answers.len(), 5, "{answers:?}");
    let pure = &answers[0];
    assert!(
        pure["fans"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["fan"] == "Pure Straight" && f["zh"] == "清龙"),
        "{pure}"
    );
    assert!(answers[1]["error"].as_str().unwrap().starts_with("hand:"));
    assert!(answers[2]["error"].as_str().unwrap().starts_with("quan:"));
    assert!(
        answers[3]["error"]
            .as_str()
            .unwrap()
            .starts_with("bad JSON")
    );
    assert_eq!(answers[4]["reaches_8"], false, "{}", answers[4]);
}

#[test]
fn legal_lists_the_answers_of_a_turn_and_of_a_discard() {
    // A winning draw worth 8 or more (a pure straight): HU is offered beside the discards.
    let (out, err, ok) = arena(&[
        "mcr",
        "legal",
        "--hand",
        "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 B5 B5",
        "--json",
    ]);
    assert!(ok, "{err}");
    let answers: Vec<String> = json(&out)["answers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    assert_eq!(answers[0], "HU");
    assert!(answers.contains(&"PLAY B5".to_owned()));
    // The next seat after the discarder may chow; a pung with two in hand.
    let (out, _, ok) = arena(&[
        "mcr",
        "legal",
        "--hand",
        "W1 W2 W4 W4 T5 T6 T7 B1 B2 B3 F1 F2 J1",
        "--seat",
        "1",
        "--discard",
        "W3",
        "--from",
        "0",
    ]);
    assert!(ok);
    assert!(out.contains("PASS") && out.contains("CHI W2 W4"), "{out}");
    // A claimed win worth 6 points is no legal answer, and the command says why.
    let (out, _, ok) = arena(&[
        "mcr",
        "legal",
        "--hand",
        "W1 W2 W3 W4 W5 W6 T2 T3 T4 B6 B7 B8 T9",
        "--seat",
        "1",
        "--discard",
        "T9",
        "--from",
        "2",
        "--json",
    ]);
    assert!(ok);
    let v = json(&out);
    assert_eq!(v["answers"], serde_json::json!(["PASS"]));
    assert_eq!(v["win_points"], 6);
    let (_, err, ok) = arena(&["mcr", "legal", "--hand", "W1 W2 W3"]);
    assert!(!ok);
    assert!(err.contains("--hand: 3 tiles"), "{err}");
}

#[test]
fn shanten_gives_the_useful_tiles() {
    let (out, err, ok) = arena(&[
        "mcr",
        "shanten",
        "--hand",
        "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v = json(&out);
    assert_eq!(v["shanten"], 0);
    let useful: Vec<&str> = v["useful"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["tile"].as_str().unwrap())
        .collect();
    assert_eq!(useful, ["F1", "J1"]);
}

#[test]
fn a_deal_is_reproducible_and_holds_the_whole_wall() {
    for (flag, tiles) in [(None, 144), (Some("--no-flowers"), 136)] {
        let mut args = vec!["mcr", "deal", "--seed", "42", "--json"];
        args.extend(flag);
        let (out, err, ok) = arena(&args);
        assert!(ok, "{err}");
        let (again, _, _) = arena(&args);
        assert_eq!(out, again);
        let d = json(&out);
        let wall: Vec<&str> = d["walltiles"].as_str().unwrap().split(' ').collect();
        assert_eq!(wall.len(), tiles);
        let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
        for t in &wall {
            *kinds.entry(t).or_default() += 1;
        }
        assert!(
            kinds
                .iter()
                .all(|(t, &n)| n == if t.starts_with('H') { 1 } else { 4 }),
            "{kinds:?}"
        );
        for h in d["hands"].as_array().unwrap() {
            assert_eq!(h.as_str().unwrap().split(' ').count(), 13, "{h}");
        }
    }
}

#[test]
fn selfplay_plays_without_faults_and_reports_its_speed() {
    let (out, err, ok) = arena(&[
        "mcr",
        "selfplay",
        "--games",
        "300",
        "--bot",
        "efficiency",
        "--json",
    ]);
    assert!(ok, "{err}");
    let s = json(&out);
    assert_eq!(s["hands"], 300);
    assert_eq!(s["faults"], 0);
    assert!(s["hands_per_second"].as_f64().unwrap() > 0.0);
    assert!(s["win_rate"].as_f64().unwrap() > 0.0, "{s}");
    let (_, err, ok) = arena(&["mcr", "selfplay", "--games", "1", "--bot", "nobody"]);
    assert!(!ok);
    assert!(err.contains("\"nobody\" is no built-in MCR bot"), "{err}");
}

#[test]
fn an_ijcai_match_ranks_by_rank_points_and_repeats_from_its_seed() {
    let args = [
        "mcr",
        "match",
        "fan",
        "random",
        "efficiency",
        "random",
        "--walls",
        "2",
        "--seed",
        "3",
        "--json",
    ];
    let (out, err, ok) = arena(&args);
    assert!(ok, "{err}");
    assert!(out.contains("2 walls × 24 seatings = 48 hands"), "{out}");
    let v = json(&out);
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let points: f64 = rows
        .iter()
        .map(|r| r["rank_points"].as_f64().unwrap())
        .sum();
    assert_eq!(points, 20.0, "4 + 3 + 2 + 1 per wall");
    assert!(rows.iter().all(|r| r["hands"] == 48));
    let first = rows[0]["rank_points"].as_f64().unwrap();
    assert!(
        rows.iter()
            .all(|r| r["rank_points"].as_f64().unwrap() <= first)
    );
    let (again, _, _) = arena(&args);
    assert_eq!(json(&again)["standings"], v["standings"]);
}

#[test]
fn a_field_of_five_is_padded_and_paired_over_rounds() {
    let (out, err, ok) = arena(&[
        "mcr",
        "match",
        "fan",
        "random",
        "efficiency",
        "random",
        "random",
        "--walls",
        "1",
        "--rounds",
        "2",
        "--pad",
        "random",
        "--matches",
        "2",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("5 bots + 3 random"), "{out}");
    let v = json(&out);
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    assert_eq!(rows.iter().filter(|r| r["padding"] == true).count(), 3);
    for r in rows {
        let places: f64 = r["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_f64().unwrap())
            .sum();
        assert!((places - 1.0).abs() < 1e-9, "{r}");
    }
}

#[test]
fn a_match_refuses_bad_bots_before_playing() {
    let (out, err, ok) = arena(&["mcr", "match", "fan", "random", "efficiency"]);
    assert!(!ok && out.is_empty());
    assert!(err.contains("bots: 3 given"), "{err}");
    let (_, err, ok) = arena(&["mcr", "match", "fan", "random", "efficiency", "fann"]);
    assert!(!ok);
    assert!(err.contains("bot 4 (fann)"), "{err}");
}

#[test]
fn a_program_bot_plays_a_match_through_the_line_protocol() {
    // A bot that discards each tile it draws and passes on everything else, in a directory any
    // user may read (programs of a root caller run as `nobody`).
    let dir = common::readable_dir("mcr-match");
    let path = common::write_script(
        dir.path(),
        "bot.sh",
        "echo join\n\
         while read -r a b c; do\n\
           case \"$a\" in\n\
             2) last=$b ;;\n\
             '?') if [ \"$b\" = TURN ]; then echo \"PLAY $last\"; else echo PASS; fi ;;\n\
           esac\n\
         done\n",
    );
    let program = format!("cmd:sh {}", path.display());
    let (out, err, ok) = arena(&[
        "mcr", "match", &program, "random", "random", "random", "--walls", "1", "--json",
    ]);
    assert!(ok, "{err}");
    let v = json(&out);
    let rows = v["standings"].as_array().unwrap();
    let bot = rows.iter().find(|r| r["position"] == 0).unwrap();
    assert_eq!(bot["hands"], 24);
    assert_eq!(bot["faults"], 0, "the script always answers legally: {bot}");
}

#[test]
fn a_match_on_library_walls_plays_exactly_the_imported_walls_and_claims_them() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let data = data.to_str().unwrap();
    // Two walls with flowers and one without, as `arena mcr deal` prints them.
    let wall = |seed: u32, flowers: bool| {
        let seed = seed.to_string();
        let mut args = vec!["mcr", "deal", "--seed", &seed, "--json"];
        if !flowers {
            args.push("--no-flowers");
        }
        let (out, err, ok) = arena(&args);
        assert!(ok, "{err}");
        json(&out)["walltiles"].as_str().unwrap().to_string()
    };
    let imported = [wall(7, true), wall(8, true)];
    // `--walls N` prints the walls of N seeds from --seed on, one a line, ready to import.
    let (listed, err, ok) = arena(&["mcr", "deal", "--seed", "7", "--walls", "2"]);
    assert!(ok, "{err}");
    assert_eq!(listed.lines().collect::<Vec<_>>(), imported);
    let file = dir.path().join("walls.txt");
    let text = format!("{listed}\n{}\n", wall(9, false));
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    let (out, err, ok) = arena(&["deals", "import", "--game", "mcr", file, "--data-dir", data]);
    assert!(ok, "{err}");
    assert!(out.contains("imported 3 records (3 new"), "{out}");
    let play = |claim: &[&str]| {
        let args = [
            &[
                "mcr",
                "match",
                "random",
                "random",
                "efficiency",
                "random",
                "--walls",
                "2",
                "--flowers",
                "--walls-from",
                "library",
                "--data-dir",
                data,
                "--json",
            ][..],
            claim,
        ]
        .concat();
        arena(&args)
    };
    let (out, err, ok) = play(&["--claim", "m1"]);
    assert!(ok, "{err}");
    let v = json(&out);
    assert_eq!(v["hands"], 48);
    let mut played: Vec<String> = v["library_walls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["walltiles"].as_str().unwrap().to_string())
        .collect();
    played.sort();
    let mut want = imported.to_vec();
    want.sort();
    assert_eq!(played, want, "the two walls with flowers, each once");
    // Claimed: the library has none left of 144 tiles.
    let (_, err, ok) = play(&[]);
    assert!(!ok);
    assert!(
        err.contains("0 unused wall(s) of 144 tiles, and 2 are needed"),
        "{err}"
    );
}
