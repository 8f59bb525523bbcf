//! Operator commands of the service roles.

mod common;

use common::arena;

use std::process::Command;

#[test]
fn table_run_prints_a_replay_ending_in_scores() {
    let (out, err, ok) = arena(&[
        "table",
        "run",
        "--seats",
        "expert,seed,random",
        "--seed",
        "3",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("is landlord at 1"), "{out}");
    assert!(out.contains(" plays "), "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("scores (competition): "), "{last}");
}

#[test]
fn table_run_plays_a_mahjong_hand_as_a_2015_log_and_refuses_dou_dizhu_flags() {
    let (out, err, ok) = arena(&["table", "run", "--game", "mahjong", "--seed", "3"]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("table manual-mahjong-3-")
            && lines[0].ends_with(": expert / greedy / greedy / random"),
        "{out}"
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with("init ")).count(), 4);
    assert!(lines.iter().any(|l| l.starts_with("out ")), "{out}");
    let last = lines.last().unwrap();
    assert!(last.starts_with("scores (contest): "), "{last}");
    // The same seed deals the same wall: the hands dealt are the same on a second run.
    let (again, _, _) = arena(&["table", "run", "--game", "mahjong", "--seed", "3"]);
    let inits = |o: &str| -> Vec<String> {
        o.lines()
            .filter(|l| l.starts_with("init "))
            .map(String::from)
            .collect()
    };
    assert_eq!(inits(&out), inits(&again));

    let (_, err, ok) = arena(&["table", "run", "--game", "mahjong", "--seats", "a,b,c"]);
    assert!(!ok && err.contains("--seats needs four bots"), "{err}");
    for flag in [["--deal", "x"], ["--bidding", "0"], ["--scoring", "wp"]] {
        let (_, err, ok) = arena(&[&["table", "run", "--game", "mahjong"][..], &flag].concat());
        assert!(
            !ok && err.contains(&format!("{} is for Dou Dizhu tables", flag[0])),
            "{err}"
        );
    }
}

#[test]
fn bots_add_issues_a_token_once_and_refuses_taken_or_builtin_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (out, err, ok) = arena(&["bots", "add", "alice", "--data-dir", d]);
    assert!(ok, "{err}");
    let token = out.lines().last().unwrap();
    assert!(token.len() >= 40 && !token.contains(' '), "{out}");
    let (_, err, ok) = arena(&["bots", "add", "alice", "--data-dir", d]);
    assert!(!ok && err.contains("already registered"), "{err}");
    let (_, err, ok) = arena(&["bots", "add", "expert", "--data-dir", d]);
    assert!(!ok && err.contains("built-in Dou Dizhu bot"), "{err}");
    let (out, _, ok) = arena(&[
        "bots",
        "add",
        "prog",
        "--program",
        "python3 bot.py",
        "--data-dir",
        d,
    ]);
    assert!(
        ok && out.contains("program bot") && out.contains("playing ddz"),
        "{out}"
    );
    // A Mahjong program, whose name may be no built-in bot of either game.
    let mahjong = |name: &str| {
        arena(&[
            "bots",
            "add",
            name,
            "--program",
            "python3 mj.py",
            "--game",
            "mahjong",
            "--data-dir",
            d,
        ])
    };
    let (out, err, ok) = mahjong("tiles");
    assert!(ok && out.contains("playing mahjong"), "{out}{err}");
    let (_, err, ok) = mahjong("greedy");
    assert!(
        !ok && err.contains("built-in Mahjong (2015 contest) bot"),
        "{err}"
    );
    // A remote bot says its games when it connects.
    let (_, err, ok) = arena(&["bots", "add", "bob", "--game", "mahjong", "--data-dir", d]);
    assert!(!ok && err.contains("--program"), "{err}");
    let (out, _, ok) = arena(&["bots", "list", "--data-dir", d]);
    assert!(ok);
    assert!(
        out.contains("alice")
            && out.contains("remote")
            && out.contains("program: python3 bot.py (plays ddz)")
            && out.contains("program: python3 mj.py (plays mahjong)"),
        "{out}"
    );
    assert!(!out.contains(token), "the token is never shown again");
}

#[test]
fn standalone_measures_deals_and_runs_a_competition_created_over_grpc() {
    let dir = arena_testkit::private_tempdir();
    let port = common::port;
    let (r, b, l, m) = (port(), port(), port(), port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "standalone",
            "--data-dir",
            dir.path().to_str().unwrap(),
            "--referee-listen",
            &format!("127.0.0.1:{r}"),
            "--bot-host-listen",
            &format!("127.0.0.1:{b}"),
            "--deal-library-listen",
            &format!("127.0.0.1:{l}"),
            "--matchmaker-listen",
            &format!("127.0.0.1:{m}"),
        ])
        .env("ARENA_CONSOLE_LISTEN", "127.0.0.1:0")
        .env("ARENA_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let client = |args: &[&str]| common::arena_client(dir.path(), args);
    let library = format!("http://127.0.0.1:{l}");
    let mut result = None;
    for _ in 0..100 {
        let (out, err, ok) = client(&[
            "deals",
            "measure",
            "--library",
            &library,
            "--count",
            "120",
            "--bombs",
            "1",
            "--panel",
            "ladder:5",
            "--batch",
            "30",
            "--json",
        ]);
        if ok {
            result = Some(out);
            break;
        }
        assert!(err.contains("connecting"), "{err}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let (competition, err, ok) = client(&[
        "competition",
        "create",
        "--matchmaker",
        &format!("http://127.0.0.1:{m}"),
        "--name",
        "cup",
        "--format",
        "duplicate",
        "--participants",
        "expert,seed,random",
        "--panel",
        "ladder:5",
        "--matches",
        "2",
        "--rounds",
        "3",
    ]);
    let mm = format!("http://127.0.0.1:{m}");
    let (list, _, list_ok) = client(&["competition", "list", "--matchmaker", &mm]);
    let file = dir.path().join("cup.replays");
    let (exported, export_err, export_ok) = client(&[
        "competition",
        "replays",
        "cup",
        "--out",
        file.to_str().unwrap(),
        "--matchmaker",
        &mm,
    ]);
    let (one, one_err, one_ok) =
        client(&["competition", "replay", "cup/m1/r2/t0", "--matchmaker", &mm]);
    let (_, missing_err, missing_ok) =
        client(&["competition", "replay", "cup/m9", "--matchmaker", &mm]);
    let (_, cancel_err, cancel_ok) = client(&["competition", "cancel", "cup", "--matchmaker", &mm]);
    let (board, _, board_ok) = client(&["leaderboard", "--matchmaker", &mm]);
    // Without the operator token (another data directory, no ARENA_OPERATOR_TOKEN) every call is
    // refused, saying what to send.
    let elsewhere = tempfile::tempdir().unwrap();
    let (_, anon_err, anon_ok) = common::arena_client(
        elsewhere.path(),
        &["competition", "list", "--matchmaker", &mm],
    );
    let (_, anon_measure_err, anon_measure_ok) = common::arena_client(
        elsewhere.path(),
        &["deals", "measure", "--library", &library, "--count", "1"],
    );
    let token_mode = std::fs::metadata(dir.path().join("operator.token"))
        .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o777);
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        list_ok && list.contains("cup  duplicate  finished  18/18 tables"),
        "{list}"
    );
    assert!(export_ok, "{export_err}");
    assert!(exported.contains("18 replays of cup"), "{exported}");
    let bytes = std::fs::read(&file).unwrap();
    let mut buf = bytes.as_slice();
    let mut ids = Vec::new();
    while !buf.is_empty() {
        let r =
            <arena_proto::v1::Replay as prost::Message>::decode_length_delimited(&mut buf).unwrap();
        ids.push(r.result.unwrap().table_id);
    }
    assert_eq!(ids.len(), 18);
    assert!(ids.contains(&"cup/m1/r2/t0".to_string()));
    assert!(one_ok, "{one_err}");
    assert!(
        one.contains("table cup/m1/r2/t0: expert") && one.contains("scores ("),
        "{one}"
    );
    assert!(
        !missing_ok && missing_err.contains("no replay for table"),
        "{missing_err}"
    );
    assert!(
        !cancel_ok && cancel_err.contains("is finished"),
        "{cancel_err}"
    );
    assert!(board_ok && board.contains("no rated bots yet"), "{board}");
    assert!(
        !anon_ok
            && anon_err.contains("Unauthenticated")
            && anon_err.contains("ARENA_OPERATOR_TOKEN"),
        "{anon_err}"
    );
    assert!(
        !anon_measure_ok && anon_measure_err.contains("Unauthenticated"),
        "{anon_measure_err}"
    );
    assert_eq!(
        token_mode.unwrap(),
        0o600,
        "the operator token file is private"
    );
    let out = result.expect("the deal library answered");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["deals"], 120, "{v}");
    assert_eq!(v["error"], "");
    assert!(ok, "{err}");
    assert!(
        competition.contains("cup: 18/18 tables, final"),
        "{competition}"
    );
    assert_eq!(
        competition
            .lines()
            .filter(|l| l.contains("expert") || l.contains("seed") || l.contains("random"))
            .count(),
        3
    );
}

#[test]
fn standalone_runs_a_mahjong_competition_and_exports_its_hands_as_2015_logs() {
    let dir = arena_testkit::private_tempdir();
    let port = common::port;
    let (r, b, l, m) = (port(), port(), port(), port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "standalone",
            "--data-dir",
            dir.path().to_str().unwrap(),
            "--referee-listen",
            &format!("127.0.0.1:{r}"),
            "--bot-host-listen",
            &format!("127.0.0.1:{b}"),
            "--deal-library-listen",
            &format!("127.0.0.1:{l}"),
            "--matchmaker-listen",
            &format!("127.0.0.1:{m}"),
        ])
        .env("ARENA_CONSOLE_LISTEN", "127.0.0.1:0")
        .env("ARENA_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let client = |args: &[&str]| common::arena_client(dir.path(), args);
    let mm = format!("http://127.0.0.1:{m}");
    let mut up = false;
    for _ in 0..200 {
        let (_, err, ok) = client(&["competition", "list", "--matchmaker", &mm]);
        if ok {
            up = true;
            break;
        }
        assert!(err.contains("connecting"), "{err}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let create = |name: &str, participants: &str, extra: &[&str]| {
        let mut args = vec![
            "competition",
            "create",
            "--game",
            "mahjong",
            "--matchmaker",
            &mm,
            "--name",
            name,
            "--participants",
            participants,
        ];
        args.extend_from_slice(extra);
        client(&args)
    };
    let (standings, err, ok) = create("mj", "expert,greedy,random,greedy", &[]);
    let (one, one_err, one_ok) = client(&[
        "competition",
        "replay",
        "mj/m0/g1/r2/d3",
        "--matchmaker",
        &mm,
    ]);
    let (log_only, _, _) = client(&[
        "competition",
        "replay",
        "mj/m0/g0/r0/d0",
        "--log",
        "--matchmaker",
        &mm,
    ]);
    let (file, logs) = (dir.path().join("mj.replays"), dir.path().join("mj-logs"));
    let (exported, export_err, export_ok) = client(&[
        "competition",
        "replays",
        "mj",
        "--out",
        file.to_str().unwrap(),
        "--log-dir",
        logs.to_str().unwrap(),
        "--matchmaker",
        &mm,
    ]);
    let (_, three_err, three_ok) = create("three", "expert,greedy,random", &[]);
    let (_, farmers_err, farmers_ok) = create(
        "ddz-ish",
        "expert,greedy,random,greedy",
        &["--farmers", "expert"],
    );
    let (_, ddz_bot_err, ddz_bot_ok) = create("ddz-bot", "expert,greedy,random,seed", &[]);
    let (board, _, board_ok) = client(&["leaderboard", "--game", "mahjong", "--matchmaker", &mm]);
    let _ = child.kill();
    let _ = child.wait();

    assert!(up, "the standalone came up");
    assert!(ok, "{err}");
    assert!(standings.contains("mj: 96/96 hands, final"), "{standings}");
    let rows: Vec<&str> = standings
        .lines()
        .filter(|l| l.contains(": expert") || l.contains(": greedy") || l.contains(": random"))
        .collect();
    assert_eq!(rows.len(), 4, "{standings}");
    assert!(
        rows[3].contains("C: random"),
        "the random bot places last: {standings}"
    );
    assert!(
        standings.contains("P(#1)") && standings.contains("dealt in"),
        "{standings}"
    );

    assert!(one_ok, "{one_err}");
    assert!(one.starts_with("table mj/m0/g1/r2/d3: "), "{one}");
    // Shown once finished: the seeds are in the log.
    let seed_line = one.lines().find(|l| l.starts_with("seed ")).unwrap();
    assert_ne!(seed_line, "seed 0 0", "{one}");
    assert!(
        one.contains("match ") && one.contains(" hand 27 group 1 round 2 deal 3"),
        "{one}"
    );
    assert_eq!(one.lines().filter(|l| l.starts_with("init ")).count(), 4);
    assert!(one.lines().any(|l| l.starts_with("score ")), "{one}");
    assert!(
        one.lines()
            .last()
            .unwrap()
            .starts_with("scores (contest): "),
        "{one}"
    );
    assert!(log_only.starts_with("ver 1.0\n"), "{log_only}");

    assert!(export_ok, "{export_err}");
    assert!(exported.contains("96 replays of mj"), "{exported}");
    assert!(exported.contains("96 hand logs of mj"), "{exported}");
    let match_dir = logs.join("match-0");
    for h in 0..96 {
        let log = std::fs::read_to_string(match_dir.join(format!("hand-{h:02}.log"))).unwrap();
        assert!(log.starts_with("ver 1.0\n"), "hand {h}: {log}");
    }
    assert_eq!(
        std::fs::read_to_string(match_dir.join("hand-00.log")).unwrap(),
        log_only,
        "the exported log is the one `replay --log` prints"
    );
    let sheet = std::fs::read_to_string(match_dir.join("scores.csv")).unwrap();
    assert_eq!(sheet.lines().count(), 1 + 96 + 1, "{sheet}");
    let jsonl = std::fs::read_to_string(match_dir.join("hands.jsonl")).unwrap();
    assert_eq!(jsonl.lines().count(), 96);
    // The score sheet's totals are the standings' scores, by position.
    let totals: Vec<i64> = sheet
        .lines()
        .last()
        .unwrap()
        .split(',')
        .skip(9)
        .map(|x| x.parse().unwrap())
        .collect();
    for (pos, name) in ["A: expert", "B: greedy", "C: random", "D: greedy"]
        .iter()
        .enumerate()
    {
        let row = rows.iter().find(|r| r.contains(name)).unwrap();
        assert!(
            row.split_whitespace()
                .any(|w| w == format!("{:+}", totals[pos])),
            "{name} scored {} in the sheet: {row}",
            totals[pos]
        );
    }

    assert!(
        !three_ok && three_err.contains("exactly four"),
        "{three_err}"
    );
    assert!(
        !farmers_ok && farmers_err.contains("spec.farmers"),
        "{farmers_err}"
    );
    assert!(
        !ddz_bot_ok
            && ddz_bot_err.contains("\"seed\"")
            && ddz_bot_err.contains("random, greedy, expert"),
        "{ddz_bot_err}"
    );
    assert!(board_ok && board.contains("--mahjong-ladder"), "{board}");
}
