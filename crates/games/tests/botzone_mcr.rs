//! Botzone's bots at a Chinese Standard Mahjong table: Python bots written in Botzone's own
//! style (simple interaction, simple I/O, keep-running) play whole hands in seat 0 against
//! built-in bots with no verdict, and faulty ones each get a verdict naming their fault while
//! the table still finishes.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use arena_games::GameKind;
use arena_games::mcr::{McrBot, McrSpec, McrTable};
use arena_line::{CmdSpec, Launch};
use arena_proto::v1;
use arena_table::program::{ProgramSeat, play_blocking};
use arena_table::run::{SeatPlan, TableSetup};
use arena_table::table::Table;
use arena_table::time::TimeRules;

/// The bot: it replays its history to know its hand and discards the tile it drew; `PASS`
/// otherwise. Its first argument picks its mode and its faults.
const BOT: &str = r#"import json, sys, time
mode = sys.argv[1]

def hand_of(requests):
    hand, me = [], None
    for req in requests:
        t = req.split()
        if t[0] == "0":
            me = int(t[1])
        elif t[0] == "1":
            hand = t[5:18]
        elif t[0] == "2":
            hand.append(t[1])
        elif t[0] == "3" and int(t[1]) == me and t[2] == "PLAY":
            hand.remove(t[3])
    return hand

def answer(requests):
    hand = hand_of(requests)
    t = requests[-1].split()
    if t[0] != "2":
        return "PASS"
    if mode == "illegal":
        for tile in ["W1", "W2", "B1", "B2", "T1", "T2", "F1", "F2"]:
            if tile not in hand:
                return "PLAY " + tile
    if mode == "wronghu":
        return "HU"
    if mode == "slow" and len(requests) > 8:
        time.sleep(30)
    if mode == "crash" and len(requests) > 12:
        raise SystemExit(3)
    return "PLAY " + hand[-1]

if mode == "silent":
    input()
elif mode == "garbage":
    input()
    print("{this is not json")
elif mode == "simpleio":
    n = int(input())
    requests = []
    for i in range(n - 1):
        requests.append(input())
        input()
    requests.append(input())
    print(answer(requests))
    print("a debug line")
    print("some data")
elif mode == "keep":
    inp = json.loads(input())
    requests = inp["requests"]
    while True:
        print(json.dumps({"response": answer(requests)}))
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
        requests.append(json.loads(input()))
else:
    inp = json.loads(input())
    # data is kept between turns: after the first answer, every input carries the last data.
    if any(r != "PASS" for r in inp["responses"]):
        assert 0 < inp["data"]["turns"] < len(inp["requests"]), "data"
    print(json.dumps({"response": answer(inp["requests"]), "debug": "ok",
                      "data": {"turns": len(inp["requests"])}}))
"#;

/// The bot, written to a fresh directory every user may read (programs run as `nobody`).
fn bot() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("arena-botzone-")
        .tempdir()
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.path().join("bot.py");
    std::fs::write(&path, BOT).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    (dir, path)
}

/// Plays `seed`'s hand with `protocol:python3 bot.py mode` in seat 0 and efficiency bots in
/// the others, under `time`.
fn play(
    bot: &Path,
    protocol: &str,
    mode: &str,
    seed: u64,
    time: v1::TimeControl,
) -> Table<McrTable> {
    let cmd = CmdSpec::parse(&format!("{protocol}:python3 {} {mode}", bot.display())).unwrap();
    let game = GameKind::by_name("mcr").unwrap();
    let program = ProgramSeat::new(
        cmd.clone(),
        Launch::default(),
        game.program_protocol_for(0, &cmd).unwrap(),
    );
    let mut seats = vec![SeatPlan::Program(Box::new(program))];
    for _ in 1..4 {
        seats.push(SeatPlan::Local(Box::new(
            McrBot::new("efficiency").unwrap(),
        )));
    }
    let setup = TableSetup {
        table_id: format!("botzone-{mode}"),
        seed,
        time: TimeRules::resolve(&time, v1::PenaltyRounding::Started),
        policy: None,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    play_blocking(
        &runtime,
        McrTable::new(&McrSpec::from_seed(seed)),
        seats,
        &setup,
    )
    .unwrap()
}

/// Botzone's Python time limit (6 s), a verdict past twice that.
fn python_time() -> v1::TimeControl {
    v1::TimeControl {
        decision_ms: 6000,
        claim_ms: 6000,
        hard_cap_ms: 12000,
        ..arena_games::mcr::spec::default_time()
    }
}

#[test]
fn botzone_bots_in_each_mode_play_whole_hands_with_no_verdict() {
    let (_dir, path) = bot();
    for (protocol, mode) in [
        ("botzone", "json"),
        ("botzone-simpleio", "simpleio"),
        ("botzone-keep", "keep"),
    ] {
        for seed in [3, 4] {
            let t = play(&path, protocol, mode, seed, python_time());
            assert!(t.is_over(), "{mode} seed {seed}");
            assert_eq!(t.verdicts(), &[], "{mode} seed {seed}");
        }
    }
}

/// The one verdict of the table `mode` plays, which still ends.
fn verdict(path: &Path, mode: &str, time: v1::TimeControl) -> v1::Verdict {
    let t = play(path, "botzone", mode, 3, time);
    assert!(t.is_over(), "{mode}: the table finishes");
    assert_eq!(t.verdicts().len(), 1, "{mode}: {:?}", t.verdicts());
    let v = t.verdicts()[0].clone();
    assert_eq!(v.seat, 0, "{mode}");
    v
}

fn whole(v: &v1::Verdict) -> String {
    format!("{} {}", v.reason, v.detail)
}

#[test]
fn faulty_botzone_bots_each_get_a_verdict_naming_the_fault() {
    let (_dir, path) = bot();
    let kind = |k: v1::VerdictKind| k as i32;
    let v = verdict(&path, "silent", python_time());
    assert_eq!(v.kind, kind(v1::VerdictKind::Malformed), "{v:?}");
    assert!(
        whole(&v).contains("wrote no response to the turn request"),
        "{v:?}"
    );

    let v = verdict(&path, "garbage", python_time());
    assert_eq!(v.kind, kind(v1::VerdictKind::Malformed), "{v:?}");
    assert!(whole(&v).contains("\"{this is not json\""), "{v:?}");
    assert!(whole(&v).contains("not JSON"), "{v:?}");

    let v = verdict(&path, "illegal", python_time());
    assert_eq!(v.kind, kind(v1::VerdictKind::Illegal), "{v:?}");
    assert!(whole(&v).contains("PLAY"), "{v:?}");

    let v = verdict(&path, "wronghu", python_time());
    assert_eq!(v.kind, kind(v1::VerdictKind::Illegal), "{v:?}");
    assert!(whole(&v).contains("HU"), "{v:?}");

    let v = verdict(&path, "crash", python_time());
    assert_eq!(v.kind, kind(v1::VerdictKind::Crashed), "{v:?}");
    assert!(whole(&v).contains("exit code 3"), "{v:?}");

    let quick = v1::TimeControl {
        decision_ms: 1500,
        claim_ms: 1500,
        hard_cap_ms: 3000,
        ..arena_games::mcr::spec::default_time()
    };
    let v = verdict(&path, "slow", quick);
    assert_eq!(v.kind, kind(v1::VerdictKind::Timeout), "{v:?}");
}
