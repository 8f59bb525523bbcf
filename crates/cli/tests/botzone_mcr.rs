//! Botzone's Chinese Standard Mahjong bots, written in Botzone's own style (Python), through the
//! CLI: in `arena mcr match` (simple interaction, simple I/O, keep-running) and registered
//! (`arena bots add … --program 'botzone:…' --game mcr`) in a competition of `arena standalone`,
//! every hand with no verdict.

mod common;

use common::{Standalone, arena};

/// It replays its history to know its hand and discards the tile it drew, `PASS` otherwise;
/// its argument picks the mode.
const BOT: &str = r#"import json, sys
mode = sys.argv[1]

def answer(requests):
    t = requests[-1].split()
    return "PLAY " + t[1] if t[0] == "2" else "PASS"

if mode == "simpleio":
    n = int(input())
    requests = []
    for i in range(n - 1):
        requests.append(input())
        input()
    requests.append(input())
    print(answer(requests))
elif mode == "keep":
    requests = json.loads(input())["requests"]
    while True:
        print(json.dumps({"response": answer(requests), "debug": "kept"}))
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
        requests.append(json.loads(input()))
elif mode == "slow":
    # Three seconds over its first draw of the hand (when it has played no tile yet).
    inp = json.loads(input())
    requests = inp["requests"]
    if requests[-1].startswith("2 ") and not any(r.startswith("PLAY") for r in inp["responses"]):
        import time
        time.sleep(3)
    print(json.dumps({"response": answer(requests)}))
else:
    requests = json.loads(input())["requests"]
    print(json.dumps({"response": answer(requests)}))
"#;

/// The bot in a fresh directory every user may read (programs of a root caller run as
/// `nobody`).
fn bot() -> (tempfile::TempDir, String) {
    let dir = common::readable_dir("botzone-cli");
    let path = common::write_script(dir.path(), "bot.py", BOT);
    let p = path.display().to_string();
    (dir, p)
}

#[test]
fn botzone_bots_of_each_mode_play_a_match_without_faults() {
    let (_dir, path) = bot();
    let json_bot = format!("botzone:python3 {path} json");
    let simpleio = format!("botzone-simpleio:python3 {path} simpleio");
    let keep = format!("botzone-keep:python3 {path} keep");
    let (out, err, ok) = arena(&[
        "mcr",
        "match",
        &json_bot,
        &simpleio,
        &keep,
        "efficiency",
        "--walls",
        "1",
        // Botzone's Python clock: a Python bot restarted each decision on a loaded machine can
        // take more than a second to start.
        "--decision-ms",
        "6000",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim().lines().last().unwrap()).unwrap();
    let rows = v["standings"].as_array().unwrap();
    for position in 0..3 {
        let bot = rows.iter().find(|r| r["position"] == position).unwrap();
        assert_eq!(bot["hands"], 24, "{bot}");
        assert_eq!(bot["faults"], 0, "{bot}");
    }
}

/// `arena mcr match --decision-ms`: a bot three seconds over one decision a hand times out on
/// Botzone's one-second clock (two at the hard cap), and plays every hand on an eight-second one.
#[test]
fn a_match_gives_programs_the_clock_decision_ms_says() {
    let (_dir, path) = bot();
    let slow = format!("botzone:python3 {path} slow");
    let faults = |clock: Option<&str>| {
        let mut args = vec![
            "mcr",
            "match",
            &slow,
            "efficiency",
            "efficiency",
            "efficiency",
            "--walls",
            "1",
            // The hands wait on the bot's sleep, not on the cores.
            "--threads",
            "24",
            "--json",
        ];
        if let Some(ms) = clock {
            args.extend(["--decision-ms", ms]);
        }
        let (out, err, ok) = arena(&args);
        assert!(ok, "{err}");
        let v: serde_json::Value =
            serde_json::from_str(out.trim().lines().last().unwrap()).unwrap();
        let rows = v["standings"].as_array().unwrap();
        let bot = rows.iter().find(|r| r["position"] == 0).unwrap();
        assert_eq!(bot["hands"], 24, "{bot}");
        bot["faults"].as_u64().unwrap()
    };
    assert!(faults(None) > 0, "no timeout on a one-second clock");
    assert_eq!(faults(Some("8000")), 0);
    let (_, err, ok) = arena(&["mcr", "match", "a", "b", "c", "d", "--decision-ms", "0"]);
    assert!(!ok && err.contains("--decision-ms"), "{err}");
}

#[test]
fn registered_botzone_bots_play_a_standalone_competition_without_verdicts() {
    let (_dir, path) = bot();
    let keep = format!("botzone-keep:python3 {path} keep");
    let json_bot = format!("botzone:python3 {path} json");
    let (s, _) = Standalone::start(
        &[
            ("bzkeep", &["--program", &keep, "--game", "mcr"]),
            ("bzjson", &["--program", &json_bot, "--game", "mcr"]),
        ],
        &[],
        &[],
    );
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--matchmaker",
        &s.matchmaker,
        "--game",
        "mcr",
        "--name",
        "bz",
        "--matches",
        "1",
        "--participants",
        "bzkeep,bzjson,efficiency,efficiency",
        "--walls",
        "1",
        // Botzone's Python limit (6 s): a Python bot started afresh each decision on a loaded
        // machine can take more than Mahjong's default second to start.
        "--decision-ms",
        "6000",
        "--claim-ms",
        "6000",
        "--hard-cap-ms",
        "12000",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("bz: 24/24 tables, final"), "{out}");
    let replays = s.replays("bz");
    for r in &replays {
        let result = r.result.as_ref().unwrap();
        assert_eq!(result.verdicts, [], "{}", result.table_id);
    }
    assert_eq!(replays.len(), 24);
}
