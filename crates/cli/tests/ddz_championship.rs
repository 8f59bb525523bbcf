//! The championship's Dou Dizhu engines (`championship:PROGRAM`) in `arena ddz match`: an
//! engine written in the protocol's own style plays whole matches with no verdict, and faulty
//! ones each get a verdict naming the fault while the match goes on. The engine is
//! `common::ddz_bots::CHAMPIONSHIP_ENGINE`.

mod common;

/// Writes the engine with `fault` into a fresh directory others can read (the programs run
/// as `nobody`); the seat name to play it by.
fn engine(tag: &str, fault: &str) -> (String, tempfile::TempDir) {
    let dir = common::readable_dir(&format!("champ-{tag}"));
    let script = common::write_script(
        dir.path(),
        "engine.py",
        &common::ddz_bots::championship_engine(fault),
    );
    (format!("championship:python3 {}", script.display()), dir)
}

fn run_match(bot: &str, deals: &str, extra: &[&str]) -> serde_json::Value {
    run_match_against(bot, "random", deals, extra)
}

fn run_match_against(bot: &str, other: &str, deals: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["ddz", "match", bot, other, "--deals", deals, "--json"];
    args.extend_from_slice(extra);
    let (out, err, ok) = common::arena(&args);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn a_championship_engine_plays_whole_matches_without_verdicts() {
    let (bot, _dir) = engine("ok", "");
    let v = run_match(&bot, "20", &[]);
    assert_eq!(v["games"], 40);
    assert_eq!(v["verdicts"], serde_json::json!([]), "{}", v["verdicts"]);
    assert!(v["a_moves"].as_u64().unwrap() > 200, "{}", v["a_moves"]);
}

/// The verdicts of a match of a faulty engine: each of the kind, with reasons containing
/// `words`.
fn assert_verdicts(fault: &str, kind: &str, words: &str, extra: &[&str]) {
    let (bot, _dir) = engine(fault, fault);
    let v = run_match(&bot, "2", extra);
    assert_eq!(v["games"], 4, "the match goes on after a fault");
    let verdicts = v["verdicts"].as_array().unwrap();
    assert!(!verdicts.is_empty(), "{fault}: no verdict");
    for x in verdicts {
        assert_eq!(x["verdict"]["kind"], kind, "{fault}: {x}");
        let reason = x["verdict"]["reason"].as_str().unwrap();
        assert!(reason.contains(words), "{fault}: {reason}");
    }
}

#[test]
fn a_championship_engine_writing_garbage_is_malformed() {
    assert_verdicts(
        "garbage",
        "malformed",
        "answered \"HELLO THERE\" to the play request: unknown command \"HELLO\"",
        &[],
    );
}

#[test]
fn a_championship_engine_playing_no_combination_is_illegal() {
    assert_verdicts("illegal", "illegal", "not a combination", &[]);
}

#[test]
fn a_silent_championship_engine_times_out() {
    assert_verdicts(
        "silent",
        "timeout",
        "no answer within the hard cap",
        &["--deadline-ms", "200"],
    );
}

#[test]
fn each_deal_is_told_its_turn_and_round_with_rounds_per_turn() {
    // 3 deals at 2 rounds a turn: deal 0 is round 1 and deal 1 round 2 of turn 1, deal 2
    // round 1 of turn 2 (of 2); both seatings of a deal are told the same. The engine
    // answers its first question with what INFO said, which its verdict quotes.
    let (bot, _dir) = engine("info", "info");
    let v = run_match(&bot, "3", &["--rounds-per-turn", "2"]);
    let verdicts = v["verdicts"].as_array().unwrap();
    let mut deals: Vec<u64> = verdicts
        .iter()
        .map(|x| x["deal"].as_u64().unwrap())
        .collect();
    deals.dedup();
    assert_eq!(
        deals,
        [0, 1, 2],
        "every deal's engines are heard: {verdicts:?}"
    );
    for x in verdicts {
        let want = match x["deal"].as_u64().unwrap() {
            0 => "1,2,1,2,1,0,1",
            1 => "1,2,2,2,1,0,1",
            _ => "2,2,1,2,1,0,1",
        };
        let reason = x["verdict"]["reason"].as_str().unwrap();
        assert!(
            reason.starts_with(&format!("answered \"HELLO {want}\"")),
            "deal {}: {reason}",
            x["deal"]
        );
    }
    // Without the option every deal is round 1 of 1 of turn 1 of 1, as before.
    let v = run_match(&bot, "1", &[]);
    for x in v["verdicts"].as_array().unwrap() {
        let reason = x["verdict"]["reason"].as_str().unwrap();
        assert!(
            reason.starts_with("answered \"HELLO 1,1,1,1,1,0,1\""),
            "{reason}"
        );
    }
}

/// The verdicts of a match by round (1 to 3: deal mod 3, plus 1) and reason.
fn verdicts_by_round(v: &serde_json::Value) -> Vec<(u64, String)> {
    v["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["deal"].as_u64().unwrap() % 3 + 1,
                x["verdict"]["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn an_engine_plays_each_turn_of_rounds_on_one_process() {
    // It plays legally only while it has been dealt as many rounds since DOUDIZHUVER as one
    // process per turn makes: 2 turns of 3 rounds, each in both seatings, without a verdict.
    let (bot, _dir) = engine("turn", "turn");
    let v = run_match_against(&bot, "expert", "6", &["--rounds-per-turn", "3"]);
    assert_eq!(v["games"], 12);
    assert_eq!(v["verdicts"], serde_json::json!([]), "{}", v["verdicts"]);
    assert!(v["a_moves"].as_u64().unwrap() > 0, "{}", v["a_moves"]);
}

#[test]
fn an_engine_that_exits_after_gameover_gets_a_fresh_process_next_round() {
    // Exiting after GAMEOVER is no fault: the next round starts a fresh process, which is
    // greeted again. The plain engine does so and gets no verdict...
    let (bot, _dir) = engine("exit", "");
    let v = run_match(&bot, "6", &["--rounds-per-turn", "3"]);
    assert_eq!(v["verdicts"], serde_json::json!([]), "{}", v["verdicts"]);
    // ... and the checking engine that does so finds itself fresh in rounds 2 and 3 (which it
    // answers with a verdict), as the engine of every round would be without turns.
    let (bot, _dir) = engine("turn-exit", "turn-exit");
    let v = run_match(&bot, "6", &["--rounds-per-turn", "3"]);
    let verdicts = verdicts_by_round(&v);
    assert!(!verdicts.is_empty());
    for (round, reason) in &verdicts {
        assert_ne!(*round, 1, "{reason}");
        let want = format!("HELLO round {round}: 1 deals since DOUDIZHUVER in round {round}");
        assert!(reason.contains(&want), "round {round}: {reason}");
    }
    for round in [2, 3] {
        assert!(verdicts.iter().any(|(r, _)| *r == round), "{verdicts:?}");
    }
}

#[test]
fn an_engine_that_faults_gets_a_fresh_process_next_round() {
    // It answers garbage in round 2: round 3 starts a fresh process (DOUDIZHUVER again), on
    // which it plays legally; rounds 1 and 3 have no verdict.
    let (bot, _dir) = engine("turn2", "turn2");
    let v = run_match(&bot, "6", &["--rounds-per-turn", "3"]);
    assert_eq!(v["games"], 12);
    let verdicts = verdicts_by_round(&v);
    assert!(!verdicts.is_empty());
    for (round, reason) in &verdicts {
        assert_eq!(*round, 2, "{reason}");
        assert!(reason.contains("\"HELLO THERE\""), "{reason}");
    }
}
