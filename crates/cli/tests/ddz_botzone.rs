//! Botzone's Dou Dizhu bots in `arena ddz match`: a Python bot written as for Botzone's
//! FightTheLandlord and FightTheLandlord2 (JSON interaction, started afresh each turn, or
//! keep-running) plays whole matches with no verdict; one that plays a card it does not hold,
//! or cards of no type, gets a verdict in Botzone's words, and a keep-running one that never
//! prints the marker a timeout saying so. The bot is `common::ddz_bots::BOTZONE_BOT`.

mod common;

/// Writes the bot into a fresh directory others can read (programs run as `nobody`).
fn bot(tag: &str, keep: bool, fault: &str) -> (String, tempfile::TempDir) {
    let dir = common::readable_dir(&format!("bz-{tag}"));
    let script = common::write_script(
        dir.path(),
        "bot.py",
        &common::ddz_bots::botzone_bot(keep, fault),
    );
    (format!("python3 {}", script.display()), dir)
}

fn run_match(bot: &str, deals: &str) -> serde_json::Value {
    run_match_with(bot, deals, &[])
}

fn run_match_with(bot: &str, deals: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["ddz", "match", bot, "random", "--deals", deals, "--json"];
    args.extend_from_slice(extra);
    let (out, err, ok) = common::arena(&args);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn assert_clean(protocol: &str, keep: bool) {
    let (cmd, _dir) = bot(&format!("{protocol}-{keep}"), keep, "");
    let v = run_match(&format!("{protocol}:{cmd}"), "5");
    assert_eq!(v["games"], 10);
    assert_eq!(v["verdicts"], serde_json::json!([]), "{}", v["verdicts"]);
    assert!(v["a_moves"].as_u64().unwrap() > 50, "{}", v["a_moves"]);
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
    let (cmd, _dir) = bot("missing", false, "missing");
    let v = run_match(&format!("botzone-ftl2:{cmd}"), "1");
    let verdicts = v["verdicts"].as_array().unwrap();
    assert!(!verdicts.is_empty());
    for x in verdicts {
        assert_eq!(x["verdict"]["kind"], "malformed", "{x}");
        let reason = x["verdict"]["reason"].as_str().unwrap();
        assert!(reason.contains("MISSING_CARD"), "{reason}");
    }
}

/// Registered for keep-running, it answers, then waits for its next request without printing
/// the marker: its turn never ends (on Botzone too, whose verdict is a time-out), so each of its
/// games gets a timeout at the hard cap naming the missing marker, and still finishes.
#[test]
fn a_keep_running_bot_that_never_prints_the_marker_times_out_naming_it() {
    let (cmd, _dir) = bot("nomarker", true, "nomarker");
    let v = run_match_with(
        &format!("botzone-keep:{cmd}"),
        "1",
        // Room for Python to start and write its answer on a loaded machine: the reason
        // quotes that answer.
        &["--deadline-ms", "2500"],
    );
    assert_eq!(v["games"], 2, "the match goes on");
    let verdicts = v["verdicts"].as_array().unwrap();
    assert!(!verdicts.is_empty());
    for x in verdicts {
        assert_eq!(x["verdict"]["kind"], "timeout", "{x}");
        let reason = x["verdict"]["reason"].as_str().unwrap();
        assert!(
            reason.contains("neither printed >>>BOTZONE_REQUEST_KEEP_RUNNING<<< nor exited")
                && reason.contains("response"),
            "{reason}"
        );
    }
}

#[test]
fn a_botzone_bot_playing_cards_of_no_type_gets_each_judges_name_for_it() {
    // FightTheLandlord2's judge names the foul INVALID_CARDTYPE; FightTheLandlord's weighs the
    // play first and, finding no weight for it, reports BAD_FORMAT.
    for (protocol, name) in [
        ("botzone-ftl2", "INVALID_CARDTYPE"),
        ("botzone-ftl", "BAD_FORMAT"),
    ] {
        let (cmd, _dir) = bot(&format!("twocards-{protocol}"), false, "twocards");
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
    }
}
