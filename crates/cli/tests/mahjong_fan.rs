//! `arena mahjong fan` as users call it: JSON lines in, one answer a line, in both readings;
//! one hand by flags with its reading shown.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn arena(args: &[&str], stdin: &str) -> (String, String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arena runs");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

fn batch(reading: &str, lines: &[&str]) -> Vec<Value> {
    let input = lines.join("\n") + "\n";
    let (out, err, ok) = arena(&["mahjong", "fan", "--batch", "--fans", reading], &input);
    assert!(ok, "{err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

const HONOUR_PAIR: &str =
    r#"{"concealed":"1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E","win":"5M","self_drawn":false}"#;
const THREE_KONGS: &str =
    r#"{"concealed":"2T 3T 4T E","kongs":["1M"],"concealed_kongs":["5S","9T"],"win":"E"}"#;
const LOOSE_ORPHANS: &str = r#"{"concealed":"1M 1M 1M 9M 1S 9S 1T 9T E S W N Z","win":"F"}"#;
const DISCARD_PUNG: &str =
    r#"{"concealed":"2M 2M 2M 4S 4S 4S 6T 6T 8T 8T","pungs":["3T"],"win":"8T"}"#;

#[test]
fn batch_answers_every_line_and_names_what_is_wrong_with_the_bad_ones() {
    let too_long = format!(r#"{{"concealed":"{}","win":"E"}}"#, "1M ".repeat(30_000));
    let lines = [
        HONOUR_PAIR,
        "",
        r#"{"concealed":"1M 2X 3M","win":"E"}"#,
        "not json",
        r#"{"concealed":"1M 2M 3M","win":"E"}"#,
        r#"{"concealed":"1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E 9T","win":"5M"}"#,
        r#"{"concealed":"1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E S","win":"5M"}"#,
        r#"{"concealed":"5M 5M 5M 5M 1S 2S 3S 7T 8T 9T 2T 3T 4T","win":"5M"}"#,
        r#"{"concealed":"1M 2M 3M","win":"E","selfdrawn":true}"#,
        &too_long,
        THREE_KONGS,
    ];
    let out = batch("contest", &lines);
    assert_eq!(out.len(), lines.len() - 1, "the blank line is skipped");
    assert_eq!(out[0], json!({"total": 2, "fans": {"门前清": 2}}));
    let error = |i: usize| {
        out[i]["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{}", out[i]))
            .to_string()
    };
    assert!(
        error(1).starts_with("concealed: \"2X\" (token 2) is not a tile"),
        "{}",
        error(1)
    );
    assert!(error(2).starts_with("bad JSON"), "{}", error(2));
    assert!(
        error(3).starts_with("too few tiles: 3 concealed"),
        "{}",
        error(3)
    );
    assert!(
        error(4).starts_with("too many tiles: 14 concealed"),
        "{}",
        error(4)
    );
    assert!(error(5).starts_with("not a winning hand"), "{}", error(5));
    assert_eq!(error(6), "5 tiles of 5M: there are only 4 of each kind");
    assert!(
        error(7).contains("unknown field `selfdrawn`"),
        "{}",
        error(7)
    );
    assert!(error(8).contains("longer than"), "{}", error(8));
    assert_eq!(
        out[9],
        json!({"total": 37, "fans": {"三杠": 32, "暗杠": 4, "单钓将": 1}})
    );
}

#[test]
fn batch_scores_the_readme_reading_by_default_and_the_old_servers_with_seed_2015() {
    let lines = [HONOUR_PAIR, THREE_KONGS, LOOSE_ORPHANS, DISCARD_PUNG];
    let contest = batch("contest", &lines);
    let seed = batch("seed-2015", &lines);
    let (default_out, _, ok) = arena(&["mahjong", "fan", "--batch"], &(lines.join("\n") + "\n"));
    assert!(ok);
    let default: Vec<Value> = default_out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(default, contest, "contest is the default");

    assert_eq!(contest[0], json!({"total": 2, "fans": {"门前清": 2}}));
    assert_eq!(
        seed[0],
        json!({"total": 4, "fans": {"平和": 2, "门前清": 2}})
    );
    assert_eq!(
        seed[1],
        json!({"total": 38, "fans": {"三杠": 32, "暗杠": 4, "明杠": 1, "单调将": 1}})
    );
    assert!(
        contest[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("not a winning hand")
    );
    assert_eq!(
        seed[2],
        json!({"total": 120, "fans": {"十三幺": 88, "混幺九": 32}})
    );
    assert_eq!(
        contest[3],
        json!({"total": 8, "fans": {"碰碰和": 6, "断幺": 2}})
    );
    assert_eq!(
        seed[3],
        json!({"total": 24, "fans": {"三暗刻": 16, "碰碰和": 6, "断幺": 2}})
    );
}

#[test]
fn one_hand_by_flags_shows_its_reading_and_fans() {
    let args = [
        "mahjong",
        "fan",
        "--concealed",
        "4M 4M 4M 5M 6M 1S 1S 1S 7T 7T 7T E E",
        "--win",
        "4M",
    ];
    let (out, err, ok) = arena(&args, "");
    assert!(ok, "{err}");
    assert!(
        out.contains("reading: pung 4M + chow 4M + pung 1S + pung 7T + pair E; won on chow 4M"),
        "{out}"
    );
    assert!(out.contains("三暗刻"), "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .trim_start()
            .starts_with("total"),
        "{out}"
    );
    assert!(out.lines().last().unwrap().ends_with("18"), "{out}");

    let args = [
        "mahjong",
        "fan",
        "--concealed",
        "2T 3T 4T E",
        "--kong",
        "1M",
        "--concealed-kong",
        "5S",
        "--concealed-kong",
        "9T",
        "--win",
        "E",
        "--fans",
        "seed-2015",
        "--json",
    ];
    let (out, err, ok) = arena(&args, "");
    assert!(ok, "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["total"], 38);
    assert_eq!(v["fans"]["单调将"], 1);
    assert_eq!(
        v["shape"],
        "[kong 1M] + [concealed-kong 5S] + [concealed-kong 9T] + chow 2T + pair E; won on the pair"
    );

    let (_, err, ok) = arena(
        &[
            "mahjong",
            "fan",
            "--concealed",
            "1M 2M 3M",
            "--win",
            "E",
            "--self-drawn",
        ],
        "",
    );
    assert!(!ok);
    assert!(err.contains("too few tiles"), "{err}");
    let (_, err, ok) = arena(&["mahjong", "fan", "--concealed", "1M", "--win", "5X"], "");
    assert!(!ok);
    assert!(err.contains("win: \"5X\" (token 1) is not a tile"), "{err}");
}
