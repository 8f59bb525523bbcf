//! Botzone's Dou Dizhu bots in `arena ddz match`: a Python bot written as for Botzone's
//! FightTheLandlord and FightTheLandlord2 (JSON interaction, started afresh each turn, or
//! keep-running) plays whole matches with no verdict; one that plays a card it does not hold,
//! or cards of no type, gets a verdict in Botzone's words.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

/// A bot in Botzone's style: it rebuilds its hand from the requests and its own responses,
/// calls 0, leads its lowest card and follows a single with its lowest higher single.
/// `KEEP` makes it keep running; `FAULT` picks a misbehaviour.
const BOT: &str = r#"
import json, sys
KEEP = __KEEP__
FAULT = "__FAULT__"

def rank(c):
    return c // 4 if c < 52 else c - 39

def decide(requests, responses):
    hand = []
    for i, req in enumerate(requests):
        if "own" in req and not hand:
            hand = list(req["own"])
        # FightTheLandlord2 gives the landlord its 17 cards and the public ones apart.
        if "landlord" in req and req["landlord"] == req["pos"]:
            hand += req["publiccard"]
        if i < len(responses) and isinstance(responses[i], list):
            for c in responses[i]:
                hand.remove(c)
    req = requests[-1]
    if "history" not in req:
        return 0
    if FAULT == "missing":
        return [c for c in range(54) if c not in hand][:1]
    hand.sort(key=lambda c: (rank(c), c))
    to_beat = req["history"][1] or req["history"][0]
    if not to_beat and FAULT == "twocards":
        ranks = sorted(set(rank(c) for c in hand))
        if len(ranks) >= 2:
            return [[c for c in hand if rank(c) == r][0] for r in ranks[:2]]
    if not to_beat:
        return [hand[0]]
    if len(to_beat) == 1:
        return [c for c in hand if rank(c) > rank(to_beat[0])][:1]
    return []

first = json.loads(sys.stdin.readline())
requests, responses = first["requests"], first["responses"]
while True:
    out = decide(requests, responses)
    print(json.dumps({"response": out, "debug": "ok"}), flush=True)
    if not KEEP:
        break
    print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
    responses.append(out)
    line = sys.stdin.readline()
    if not line:
        break
    requests.append(json.loads(line))
"#;

/// Writes the bot into a fresh directory others can read (programs run as `nobody`).
fn bot(tag: &str, keep: bool, fault: &str) -> (String, PathBuf) {
    let dir = std::env::temp_dir().join(format!("arena-bz-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = dir.join("bot.py");
    let text = BOT
        .replace("__KEEP__", if keep { "True" } else { "False" })
        .replace("__FAULT__", fault);
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    (format!("python3 {}", script.display()), dir)
}

fn run_match(bot: &str, deals: &str) -> serde_json::Value {
    let args = ["ddz", "match", bot, "random", "--deals", deals, "--json"];
    let (out, err, ok) = common::arena(&args);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn assert_clean(protocol: &str, keep: bool) {
    let (cmd, dir) = bot(&format!("{protocol}-{keep}"), keep, "");
    let v = run_match(&format!("{protocol}:{cmd}"), "5");
    assert_eq!(v["games"], 10);
    assert_eq!(v["verdicts"], serde_json::json!([]), "{}", v["verdicts"]);
    assert!(v["a_moves"].as_u64().unwrap() > 50, "{}", v["a_moves"]);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_fightthelandlord2_bot_started_each_turn_plays_whole_games() {
    assert_clean("botzone", false);
}

#[test]
fn a_keep_running_fightthelandlord_bot_plays_whole_games() {
    assert_clean("botzone-ftl-keep", true);
}

#[test]
fn a_botzone_bot_playing_a_card_it_does_not_hold_gets_botzones_missing_card() {
    let (cmd, dir) = bot("missing", false, "missing");
    let v = run_match(&format!("botzone-ftl2:{cmd}"), "1");
    let verdicts = v["verdicts"].as_array().unwrap();
    assert!(!verdicts.is_empty());
    for x in verdicts {
        assert_eq!(x["verdict"]["kind"], "malformed", "{x}");
        let reason = x["verdict"]["reason"].as_str().unwrap();
        assert!(reason.contains("MISSING_CARD"), "{reason}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_botzone_bot_playing_cards_of_no_type_gets_each_judges_name_for_it() {
    // FightTheLandlord2's judge names the foul INVALID_CARDTYPE; FightTheLandlord's weighs the
    // play first and, finding no weight for it, reports BAD_FORMAT.
    for (protocol, name) in [
        ("botzone-ftl2", "INVALID_CARDTYPE"),
        ("botzone-ftl", "BAD_FORMAT"),
    ] {
        let (cmd, dir) = bot(&format!("twocards-{protocol}"), false, "twocards");
        let v = run_match(&format!("{protocol}:{cmd}"), "1");
        let verdicts = v["verdicts"].as_array().unwrap();
        assert!(!verdicts.is_empty(), "{protocol}");
        for x in verdicts {
            assert_eq!(x["verdict"]["kind"], "illegal", "{x}");
            let reason = x["verdict"]["reason"].as_str().unwrap();
            assert!(
                reason.starts_with(&format!("{name}: play "))
                    && reason.contains("not a combination"),
                "{protocol}: {reason}"
            );
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}
