//! Bots behaving like the real bots of the 2015 contest run without a fault: they answer
//! `pass` to their own added kong, chow the last discard when the wall is empty, loop forever
//! printing once their stdin is closed, abort if stdin closes before `id`, and chow from the
//! wrong seat (ignored, as the contest's server did). They sit in program seats on the one
//! runner.

mod common;

use common::*;
use mahjong::{Deal, Event, Tile};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn four(args: &[&str]) -> [Program; 4] {
    testbots([args, args, args, args])
}

#[test]
fn a_bot_may_chow_the_last_discard_when_the_wall_is_empty() {
    // Nobody claims anything until the 84th draw, seat 3's 3M; seat 0 holds 1M 2M.
    let wall = wall_ending(
        [
            "1M 2M 4M 5M 7M 8M 1S 4S 7S 1T 4T 7T E",
            "1M 2M 4M 5M 7M 8M 1S 4S 7S 1T 4T 7T S",
            "9M 9M 2S 5S 8S 2T 5T 8T W W N N Z",
            "6M 6M 3S 6S 9S 3T 6T 9T F F B B Z",
        ],
        "",
        "3M",
    );
    let record = play(&Deal { wall, first: 0 }, four(&["--chi-empty-wall"])).record;
    assert!(record.verdicts.is_empty(), "{:?}", record.verdicts);
    let n = record.events.len();
    assert_eq!(
        record.events[n - 5..n - 1],
        [
            Event::Draw {
                seat: 3,
                tile: t("3M")
            },
            Event::Discard {
                seat: 3,
                tile: t("3M")
            },
            Event::Chow {
                seat: 0,
                lowest: t("1M"),
                tile: t("3M")
            },
            Event::Discard {
                seat: 0,
                tile: t("4M")
            },
        ],
        "the chow, one discard, then the hand is drawn"
    );
    assert_eq!(record.events[n - 1], Event::Drawn);
    assert_eq!(
        record
            .events
            .iter()
            .filter(|e| matches!(e, Event::Draw { .. }))
            .count(),
        84
    );
}

#[test]
fn bots_that_print_forever_once_stdin_closes_are_killed_with_their_group() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..3 {
        let bots = four(&["--flood-on-eof"]).map(|b| b.at(dir.path()));
        let record = play(&Deal::from_seed(seed), bots).record;
        assert!(record.verdicts.is_empty(), "{:?}", record.verdicts);
        // Every process of the hand is gone once it is over: none is left printing.
        assert!(
            eventually(|| processes_in(dir.path()).is_empty()),
            "left running: {:?}",
            processes_in(dir.path())
        );
    }
}

#[test]
fn bots_that_abort_when_stdin_closes_before_id_play_cleanly() {
    for seed in 0..3 {
        let played = play(&Deal::from_seed(seed), four(&["--abort-before-id"]));
        assert!(
            played.record.verdicts.is_empty(),
            "{:?}",
            played.record.verdicts
        );
        // Each got its `id` right after its `join`, before anything else.
        for s in 0..4 {
            let lines = played.sent(s);
            assert!(lines[0].starts_with("id "), "{lines:?}");
        }
    }
}

#[test]
fn a_bot_answering_pass_to_its_own_added_kong_is_not_faulted() {
    // Seat 1 pungs seat 0's 3M and adds the fourth it draws; nobody robs it.
    let wall = wall(
        [
            "4M 5M 6M 7M 8M 9M 1S 2S 3S 4S 5S 6S W",
            "3M 3M 1T 2T 3T 4T 5T 6T 7T 8T 9T S S",
            "7S 8S 9S 1T 2T 3T Z Z Z F F B B",
            "1M 1M 4S 5S 6S 7T 8T 9T E E E N N",
        ],
        "3M W F B 3M",
    );
    let mut bots = four(&["--pass-own-mjgang"]);
    let on: [&str; 7] = [
        "--pass-own-mjgang",
        "--on",
        "mout 0 3M=peng",
        "--on",
        "mpeng 1 3M=out S",
        "--on",
        "pick 3M=jgang 3M",
    ];
    bots[1] = testbot_with(&on);
    let played = play(&Deal { wall, first: 0 }, bots);
    let record = &played.record;
    assert!(record.verdicts.is_empty(), "{:?}", record.verdicts);
    assert!(record.events.contains(&Event::AddedKong {
        seat: 1,
        tile: t("3M")
    }));
    // Its `pass` to its own added kong was written and ignored: no verdict.
    assert!(
        played.written(1).iter().any(|l| l == "pass"),
        "{:?}",
        played.written(1)
    );
}

#[test]
fn a_chow_from_a_seat_other_than_the_next_is_taken_as_a_pass() {
    // Seat 2 (not next after seat 0) asks to chow seat 0's first discard, 9T.
    let wall = wall(
        [
            "1M 1M 2M 2M 3M 3M 4M 4M 6M 6M 7M 7M 8M",
            "3S 4S 1T 2T 3T 4T 5T 6T E E E N N",
            "9M 9M 1S 2S 5S 5S 6S 7T 8T W B B B",
            "1S 2S 6S 7S 8S 9S 8T 9T E Z Z F F",
        ],
        "9T",
    );
    let mut bots = four(&[]);
    bots[2] = testbot_with(&["--on", "mout 0 9T=chi 7T"]);
    let played = play(&Deal { wall, first: 0 }, bots);
    let record = &played.record;
    assert!(record.verdicts.is_empty(), "{:?}", record.verdicts);
    assert!(
        !record
            .events
            .iter()
            .any(|e| matches!(e, Event::Chow { .. }))
    );
    assert!(
        played.written(2).iter().any(|l| l == "chi 7T"),
        "{:?}",
        played.written(2)
    );
}
