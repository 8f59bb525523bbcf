//! Whole matches of built-in bots: determinism, the result's shape, the logs; and matches
//! with programs on the one runner: their faults.

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use arena_games::mahjong::spec::contest_time;
use mahjong::Rules;
use mahjong_bots::VerdictKind;
use mahjong_match::run::{MatchConfig, MatchReport, MatchResult, run};
use mahjong_match::schedule::HANDS;
use mahjong_match::{BotSpec, Entrant, entrant};

fn config(bots: [&str; 4], seed: u64, matches: usize) -> MatchConfig {
    MatchConfig {
        bots: bots.map(String::from),
        seed,
        matches,
        rules: Rules::default(),
        time: contest_time(),
        threads: 2,
        log_dir: None,
    }
}

fn play(cfg: &MatchConfig) -> MatchReport {
    let specs: Vec<BotSpec> = cfg.bots.iter().map(|b| b.parse().unwrap()).collect();
    let factory = |p: usize| entrant(&specs[p]);
    let progress = AtomicU64::new(0);
    let report = run(cfg, &factory, &progress).unwrap();
    assert_eq!(
        progress.load(Ordering::Relaxed),
        (HANDS * cfg.matches) as u64
    );
    report
}

#[test]
fn the_same_seed_gives_the_same_match_whatever_the_threads() {
    let mut cfg = config(["expert", "greedy", "random", "random"], 41, 1);
    let two = play(&cfg);
    cfg.threads = 1;
    let one = play(&cfg);
    assert_eq!(two.hands, one.hands);
    let line = |r: &MatchReport| MatchResult::of_report(r, cfg.rules.reading).to_json_line();
    assert_eq!(line(&two), line(&one));
    cfg.seed = 42;
    assert_ne!(play(&cfg).hands, one.hands, "another seed, other deals");
}

#[test]
fn the_result_line_has_the_documented_shape_and_adds_up() {
    let cfg = config(["greedy", "random", "greedy", "random"], 7, 1);
    let r = play(&cfg);
    let line = MatchResult::of(&r.bots, &r.standings.totals).to_json_line();
    assert!(
        line.starts_with(r#"{"hands":96,"draws":"#),
        "fields in the documented order: {line}"
    );
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["seed"], 7);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 4);
    let names: Vec<&str> = players.iter().map(|p| p["bot"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["greedy", "random", "greedy", "random"],
        "argument order"
    );
    for p in players {
        for key in [
            "score",
            "wins",
            "self_drawn",
            "dealt_in",
            "penalty",
            "verdicts",
        ] {
            assert!(p[key].is_i64(), "{key} in {p}");
        }
    }
    // Scores are zero-sum (no penalties among built-ins); wins and draws cover the hands.
    let score: i64 = players.iter().map(|p| p["score"].as_i64().unwrap()).sum();
    assert_eq!(score, 0);
    let wins: i64 = players.iter().map(|p| p["wins"].as_i64().unwrap()).sum();
    assert_eq!(wins + v["draws"].as_i64().unwrap(), 96);
    let dealt_in: i64 = players
        .iter()
        .map(|p| p["dealt_in"].as_i64().unwrap())
        .sum();
    let self_drawn: i64 = players
        .iter()
        .map(|p| p["self_drawn"].as_i64().unwrap())
        .sum();
    assert_eq!(
        dealt_in + self_drawn,
        wins,
        "every win is self-drawn or dealt in by someone"
    );
    // Two positions with the same name are still two bots, each with its own totals.
    assert_eq!(r.standings.totals.hands, 96);
}

#[test]
fn several_matches_give_place_probabilities_and_intervals() {
    let cfg = config(["greedy", "random", "random", "random"], 100, 3);
    let r = play(&cfg);
    assert_eq!(r.per_match.len(), 3);
    let seeds: Vec<u64> = r.per_match.iter().map(|m| m.seed).collect();
    assert_eq!(seeds, [100, 101, 102]);
    let st = &r.standings;
    assert_eq!(st.totals.hands, 3 * 96);
    for b in 0..4 {
        let sum: f64 = st.places[b].iter().sum();
        assert!((sum - 1.0).abs() < 1e-9, "bot {b}: {:?}", st.places[b]);
    }
    for k in 0..4 {
        let sum: f64 = (0..4).map(|b| st.places[b][k]).sum();
        assert!((sum - 1.0).abs() < 1e-9, "place {k}");
    }
    assert_eq!(
        st.places[0][0], 1.0,
        "greedy tops every match against random bots"
    );
    let e = st.mean_per_hand[0];
    assert_eq!(e.n, 3 * 24, "the interval is over deals");
    assert!(e.low() > 0.0, "{e:?}");
    let line = MatchResult::of_report(&r, cfg.rules.reading);
    assert_eq!(line.matches, Some(3));
    assert_eq!(line.players[0].places, Some(st.places[0]));
}

/// Reads `DIR/match-SEED/` back: every file parses, and the files agree with each other and
/// with the report.
fn check_logs(dir: &Path, r: &MatchReport, seed: u64) {
    let m = dir.join(format!("match-{seed}"));
    let jsonl = std::fs::read_to_string(m.join("hands.jsonl")).unwrap();
    let hands: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(hands.len(), 96);
    let mut per_bot = [0i64; 4];
    for (i, h) in hands.iter().enumerate() {
        assert_eq!(h["hand"], i);
        assert_eq!(h["ver"], "1.0");
        let log = std::fs::read_to_string(m.join(format!("hand-{i:02}.log"))).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines[0], "ver 1.0");
        assert!(
            lines[1].starts_with(&format!("match {seed} hand {i} ")),
            "{}",
            lines[1]
        );
        assert_eq!(
            lines[2],
            format!("seed {} {}", h["group_seed"], h["deal_seed"])
        );
        let ids: Vec<&&str> = lines.iter().filter(|l| l.starts_with("id ")).collect();
        assert_eq!(ids.len(), 4);
        let inits: Vec<&&str> = lines.iter().filter(|l| l.starts_with("init ")).collect();
        assert_eq!(inits.len(), 4);
        for l in &inits {
            let tiles = mahjong::parse_tiles(&l[7..]).unwrap();
            assert_eq!(tiles.len(), 13, "{l}");
        }
        assert_eq!(lines.iter().filter(|l| l.starts_with("first ")).count(), 1);
        // Every event of the JSON has its line, in order, with the same words.
        let events = h["events"].as_array().unwrap();
        let words = [
            "pick", "out", "chi", "peng", "gang", "agang", "jgang", "fail", "hu", "drawn",
        ];
        let event_lines: Vec<&&str> = lines
            .iter()
            .filter(|l| words.contains(&l.split(' ').next().unwrap()))
            .collect();
        assert_eq!(event_lines.len(), events.len(), "hand {i}");
        for (l, e) in event_lines.iter().zip(events) {
            assert_eq!(l.split(' ').next().unwrap(), e["e"].as_str().unwrap());
            if let Some(seat) = e["seat"].as_u64() {
                assert_eq!(l.split(' ').nth(1).unwrap(), seat.to_string(), "{l}");
            }
        }
        let last = lines.last().unwrap();
        let scores: Vec<i64> = last
            .strip_prefix("score ")
            .unwrap()
            .split(' ')
            .map(|x| x.parse().unwrap())
            .collect();
        let json_scores: Vec<i64> = h["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        assert_eq!(scores, json_scores);
        for (b, s) in h["bot_scores"].as_array().unwrap().iter().enumerate() {
            per_bot[b] += s.as_i64().unwrap();
        }
        assert_eq!(h["win"].is_null(), lines.contains(&"drawn"));
    }
    // The score sheet: one row per hand, its totals those of the result.
    let csv = std::fs::read_to_string(m.join("scores.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 1 + 96 + 1);
    assert_eq!(rows[0].len(), 13);
    assert_eq!(rows[0][9], format!("0:{}", r.bots[0]));
    let mut csv_sums = [0i64; 4];
    for row in &rows[1..97] {
        for b in 0..4 {
            csv_sums[b] += row[9 + b].parse::<i64>().unwrap();
        }
    }
    let total: Vec<i64> = rows[97][9..].iter().map(|x| x.parse().unwrap()).collect();
    assert_eq!(rows[97][0], "total");
    assert_eq!(total, csv_sums);
    assert_eq!(total, per_bot);
    let result: MatchResult =
        serde_json::from_str(&std::fs::read_to_string(m.join("result.json")).unwrap()).unwrap();
    let scores: Vec<i64> = result.players.iter().map(|p| p.score).collect();
    assert_eq!(total, scores, "the sheet's totals are the result's scores");
    let report_scores: Vec<i64> = r
        .per_match
        .iter()
        .find(|t| t.seed == seed)
        .unwrap()
        .players
        .iter()
        .map(|p| p.score)
        .collect();
    assert_eq!(scores, report_scores);
}

#[test]
fn logs_are_written_and_agree_with_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(["expert", "greedy", "random", "greedy"], 5, 2);
    cfg.log_dir = Some(dir.path().to_path_buf());
    let r = play(&cfg);
    for seed in [5, 6] {
        check_logs(dir.path(), &r, seed);
    }
    // The same match without logs reports the same.
    cfg.log_dir = None;
    assert_eq!(play(&cfg).hands, r.hands);
}

#[test]
fn a_log_directory_that_cannot_be_made_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let mut cfg = config(["random", "random", "random", "random"], 1, 1);
    cfg.log_dir = Some(file.clone());
    let specs: Vec<BotSpec> = cfg.bots.iter().map(|b| b.parse().unwrap()).collect();
    let factory = |p: usize| entrant(&specs[p]);
    let e = run(&cfg, &factory, &AtomicU64::new(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("not-a-dir"), "{e}");
}

/// A program (a shell script in a directory of mode 0755, as a program run as `nobody` needs)
/// that joins, then answers every line with `hello`: the first question it is asked gets a
/// word of no protocol.
fn says_hello(dir: &Path) -> String {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = dir.join("hello.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\necho join\nwhile read -r line; do echo hello; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("cmd:{}", script.display())
}

#[test]
fn a_faulty_program_gets_its_verdicts_and_the_others_play_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = config(["greedy", "flaky", "greedy", "greedy"], 9, 1);
    cfg.bots[1] = says_hello(dir.path());
    let r = play(&cfg);
    let t = &r.standings.totals;
    assert_eq!(t.players[1].verdicts, 96, "one fault in every hand");
    assert!(
        t.players
            .iter()
            .enumerate()
            .all(|(b, p)| b == 1 || p.verdicts == 0)
    );
    assert!(
        r.verdicts
            .iter()
            .all(|v| v.bot == 1 && v.kind == VerdictKind::Malformed),
        "{:?}",
        r.verdicts.first()
    );
    let hands: BTreeSet<usize> = r.verdicts.iter().map(|v| v.hand).collect();
    assert_eq!(hands.len(), 96);
    assert!(
        r.verdicts[0].reason.contains("hello"),
        "{:?}",
        r.verdicts[0]
    );
    // The dead seat plays automatically (never wins); the others' hands go on to a result.
    assert_eq!(t.players[1].wins, 0);
    assert!(t.players[0].wins + t.players[2].wins + t.players[3].wins > 50);
}

#[test]
fn a_bot_that_cannot_be_made_stops_the_match_before_it_starts() {
    let cfg = config(["greedy", "greedy", "greedy", "cmd:x"], 1, 1);
    let factory = |p: usize| -> Result<Entrant, String> {
        if p == 3 {
            Err("no such program".into())
        } else {
            entrant(&BotSpec::Greedy)
        }
    };
    let progress = AtomicU64::new(0);
    let e = run(&cfg, &factory, &progress).unwrap_err().to_string();
    assert!(e.contains("bot 3 (cmd:x): no such program"), "{e}");
    assert_eq!(progress.load(Ordering::Relaxed), 0);
}

/// The Python example bot of `examples/mahjong-python`, as a `cmd:` spec naming a copy the
/// sandboxed program may read (programs run as `nobody`, and the checkout may sit in a directory
/// only its owner can open).
fn python_bot() -> String {
    let path = arena_testkit::readable_copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/mahjong-python/simple_bot.py"),
    );
    format!("cmd:python3 {}", path.display())
}

#[test]
fn program_bots_play_and_a_faulty_one_gets_a_verdict_every_hand() {
    // `true` exits at once without joining: a fault in every hand, each seat played on.
    let mut cfg = config(["greedy", "cmd:true", "random", "random"], 3, 1);
    cfg.bots[2] = python_bot();
    cfg.threads = 2;
    let r = play(&cfg);
    let t = &r.standings.totals;
    assert_eq!(t.players[1].verdicts, 96, "{:?}", r.verdicts.first());
    assert_eq!(
        t.players[2].verdicts,
        0,
        "the Python bot plays by the rules: {:?}",
        r.verdicts.iter().find(|v| v.bot == 2)
    );
    assert!(r.verdicts.iter().all(|v| v.bot == 1));
    let reason = &r.verdicts[0].reason;
    assert!(
        !reason.is_empty() && r.verdicts[0].kind == VerdictKind::Crashed,
        "{:?}",
        r.verdicts[0]
    );
    assert_eq!(t.players[1].wins, 0);
    assert!(t.players[0].wins > 20, "greedy still wins its hands: {t:?}");
    let line = MatchResult::of(&r.bots, t).to_json_line();
    assert!(line.contains(r#""bot":"cmd:true","score":"#), "{line}");
}
