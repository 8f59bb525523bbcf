//! Four scripted bots play three hands made to order that between them use every message of
//! the protocol (chow, pung, the three kinds of kong, a failed chow, robbing a kong, two seats
//! calling a win on one discard, a drawn hand), and each bot's received bytes are checked
//! against the protocol, line for line and byte for byte: `\r\n` endings, `pick` to the drawer
//! and `mpick` to the others, no `mout` to the discarder, `magang` without its tile, `mfail` to
//! the failed seat only, and nothing after the last question.

mod common;

use common::*;
use mahjong::{Deal, Event, Tile, Wall};
use mahjong_bots::HandRecord;

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

/// Plays `wall` from `first` with the test bot in every seat, `args[s]` its options, each
/// recording what it reads in a directory of its own. Returns the hand (with the lines each
/// seat was sent) and every seat's received bytes.
fn run(wall: Wall, first: u8, args: [&[&str]; 4]) -> (Played, [Vec<u8>; 4]) {
    let dirs: Vec<_> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();
    let programs = [0, 1, 2, 3].map(|s| {
        let mut a = vec!["--record", "received.bin"];
        a.extend(args[s]);
        testbot_with(&a).at(dirs[s].path())
    });
    let played = play(&Deal { wall, first }, programs);
    let received = [0, 1, 2, 3]
        .map(|s| std::fs::read(dirs[s].path().join("received.bin")).unwrap_or_default());
    (played, received)
}

/// The bytes of `lines`, each ended with `\r\n`.
fn wire(lines: &[String]) -> Vec<u8> {
    lines
        .iter()
        .flat_map(|l| format!("{l}\r\n").into_bytes())
        .collect()
}

fn lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// Checks seat by seat that the bot received exactly `expected[s]` (and was sent exactly
/// that, by its transcript).
fn assert_received(received: &[Vec<u8>; 4], played: &Played, expected: &[Vec<String>; 4]) {
    for s in 0..4 {
        assert_eq!(played.sent(s), expected[s], "seat {s}: the lines sent");
        assert!(
            received[s] == wire(&expected[s]),
            "seat {s} received:\n{}\nexpected:\n{}",
            String::from_utf8_lossy(&received[s]),
            String::from_utf8_lossy(&wire(&expected[s]))
        );
    }
}

fn assert_clean(record: &HandRecord) {
    assert!(record.verdicts.is_empty(), "{:?}", record.verdicts);
    assert_eq!(record.penalties, [0; 4], "every test bot answers at once");
}

#[test]
fn claims_all_three_kongs_a_failed_chow_and_a_drawn_hand() {
    let wall = wall(
        [
            "1M 1M 2M 2M 3M 3M 4M 4M 6M 6M 7M 7M 8M",
            "3S 4S 1T 2T 3T 4T 5T 6T E E E N N",
            "9M 9M 1S 2S 5S 5S 6S 7T W W B B B",
            "1S 2S 6S 7S 8S 9S 8T 9T E Z Z F F",
        ],
        "5S 9M B 5S",
    );
    let draws = wall.draws().to_vec();
    let (played, received) = run(
        wall,
        0,
        [
            &[],
            // Seat 1 asks to chow 5S, loses to seat 2's pung, then konged seat 3's E.
            &[
                "--crlf",
                "--on",
                "mout 0 5S=chi 3S",
                "--on",
                "mout 3 E=gang",
            ],
            // Seat 2 pungs 5S, makes a concealed kong of B and adds its fourth 5S, and
            // answers its own added kong with `pass`, as some contest bots do.
            &[
                "--pass-own-mjgang",
                "--on",
                "mout 0 5S=peng",
                "--on",
                "mpeng 2 5S=out 7T",
                "--on",
                "pick B=agang B",
                "--on",
                "pick 5S=jgang 5S",
            ],
            // Seat 3 chows seat 2's 7T.
            &[
                "--crlf",
                "--on",
                "mout 2 7T=chi 7T",
                "--on",
                "mchi 3 7T=out E",
            ],
        ],
    );
    let record = &played.record;
    assert_clean(record);
    assert_eq!(record.outcome.win, None, "the hand is drawn");
    assert_eq!(
        record.events[..16],
        [
            Event::Draw {
                seat: 0,
                tile: t("5S")
            },
            Event::Discard {
                seat: 0,
                tile: t("5S")
            },
            Event::Pung {
                seat: 2,
                tile: t("5S")
            },
            Event::ChowFailed { seat: 1 },
            Event::Discard {
                seat: 2,
                tile: t("7T")
            },
            Event::Chow {
                seat: 3,
                lowest: t("7T"),
                tile: t("7T")
            },
            Event::Discard {
                seat: 3,
                tile: t("E")
            },
            Event::Kong {
                seat: 1,
                tile: t("E")
            },
            Event::Draw {
                seat: 1,
                tile: t("9M")
            },
            Event::Discard {
                seat: 1,
                tile: t("9M")
            },
            Event::Draw {
                seat: 2,
                tile: t("B")
            },
            Event::ConcealedKong {
                seat: 2,
                tile: t("B")
            },
            Event::Draw {
                seat: 2,
                tile: t("5S")
            },
            Event::AddedKong {
                seat: 2,
                tile: t("5S")
            },
            Event::Draw {
                seat: 2,
                tile: t("1M")
            },
            Event::Discard {
                seat: 2,
                tile: t("1M")
            },
        ]
    );
    assert_eq!(record.events.last(), Some(&Event::Drawn));
    let mut expected = [
        lines(
            "id 0
             first 0
             init 1M 1M 2M 2M 3M 3M 4M 4M 6M 6M 7M 7M 8M
             pick 5S
             mpeng 2 5S
             mout 2 7T
             mchi 3 7T
             mout 3 E
             mgang 1 E
             mpick 1
             mout 1 9M
             mpick 2
             magang 2
             mpick 2
             mjgang 2 5S
             mpick 2
             mout 2 1M",
        ),
        lines(
            "id 1
             first 0
             init 3S 4S 1T 2T 3T 4T 5T 6T E E E N N
             mpick 0
             mout 0 5S
             mpeng 2 5S
             mfail
             mout 2 7T
             mchi 3 7T
             mout 3 E
             mgang 1 E
             pick 9M
             mpick 2
             magang 2
             mpick 2
             mjgang 2 5S
             mpick 2
             mout 2 1M",
        ),
        lines(
            "id 2
             first 0
             init 9M 9M 1S 2S 5S 5S 6S 7T W W B B B
             mpick 0
             mout 0 5S
             mpeng 2 5S
             mchi 3 7T
             mout 3 E
             mgang 1 E
             mpick 1
             mout 1 9M
             pick B
             magang 2
             pick 5S
             mjgang 2 5S
             pick 1M",
        ),
        lines(
            "id 3
             first 0
             init 1S 2S 6S 7S 8S 9S 8T 9T E Z Z F F
             mpick 0
             mout 0 5S
             mpeng 2 5S
             mout 2 7T
             mchi 3 7T
             mgang 1 E
             mpick 1
             mout 1 9M
             mpick 2
             magang 2
             mpick 2
             mjgang 2 5S
             mpick 2
             mout 2 1M",
        ),
    ];
    // From the sixth draw on, every seat discards what it draws, seat 3 first, until the 84th
    // draw; the draw after it finds the wall empty, and nothing more is sent.
    assert_eq!(draws[4], t("1M"));
    for (k, &tile) in draws.iter().enumerate().skip(5) {
        let drawer = ((3 + (k - 5)) % 4) as u8;
        for (s, lines) in expected.iter_mut().enumerate() {
            if s as u8 == drawer {
                lines.push(format!("pick {tile}"));
            } else {
                lines.push(format!("mpick {drawer}"));
                lines.push(format!("mout {drawer} {tile}"));
            }
        }
    }
    assert_received(&received, &played, &expected);
    // Seat 2's pass to its own added kong was written, and ignored: no verdict.
    assert!(
        played.written(2).iter().any(|l| l == "pass"),
        "{:?}",
        played.written(2)
    );
}

#[test]
fn a_robbed_added_kong_ends_the_hand_with_nothing_sent() {
    let wall = wall(
        [
            "4M 5M 6M 7M 8M 9M 1S 2S 3S 4S 5S 6S W",
            "3M 3M 1T 2T 3T 4T 5T 6T 7T 8T 9T S S",
            "7S 8S 9S 1T 2T 3T Z Z Z F F B B",
            "1M 2M 4S 5S 6S 7T 8T 9T E E E N N",
        ],
        "3M W F B 3M",
    );
    let (played, received) = run(
        wall,
        0,
        [
            &[],
            &[
                "--on",
                "mout 0 3M=peng",
                "--on",
                "mpeng 1 3M=out S",
                "--on",
                "pick 3M=jgang 3M",
            ],
            &[],
            &["--on", "mjgang 1 3M=qgang"],
        ],
    );
    let record = &played.record;
    assert_clean(record);
    let win = record.outcome.win.as_ref().expect("a win");
    assert_eq!(
        (win.seat, win.from, win.tile, win.robbed_kong),
        (3, Some(1), t("3M"), true)
    );
    let expected = [
        lines(
            "id 0
             first 0
             init 4M 5M 6M 7M 8M 9M 1S 2S 3S 4S 5S 6S W
             pick 3M
             mpeng 1 3M
             mout 1 S
             mpick 2
             mout 2 W
             mpick 3
             mout 3 F
             pick B
             mpick 1
             mjgang 1 3M",
        ),
        lines(
            "id 1
             first 0
             init 3M 3M 1T 2T 3T 4T 5T 6T 7T 8T 9T S S
             mpick 0
             mout 0 3M
             mpeng 1 3M
             mpick 2
             mout 2 W
             mpick 3
             mout 3 F
             mpick 0
             mout 0 B
             pick 3M",
        ),
        lines(
            "id 2
             first 0
             init 7S 8S 9S 1T 2T 3T Z Z Z F F B B
             mpick 0
             mout 0 3M
             mpeng 1 3M
             mout 1 S
             pick W
             mpick 3
             mout 3 F
             mpick 0
             mout 0 B
             mpick 1
             mjgang 1 3M",
        ),
        lines(
            "id 3
             first 0
             init 1M 2M 4S 5S 6S 7T 8T 9T E E E N N
             mpick 0
             mout 0 3M
             mpeng 1 3M
             mout 1 S
             mpick 2
             mout 2 W
             pick F
             mpick 0
             mout 0 B
             mpick 1
             mjgang 1 3M",
        ),
    ];
    // Lines reach a seat with its next question; the kong's owner is not asked about its own
    // kong, and the hand ends before it is asked anything more: it never hears its `mjgang`.
    // Nobody is told the end.
    assert_received(&received, &played, &expected);
}

#[test]
fn of_two_seats_winning_on_one_discard_the_first_after_the_discarder_wins() {
    let wall = wall(
        [
            "1M 2M 3M 7M 8M 9M 4S 5S 6S 4T 6T W W",
            "4M 5M 6M 1S 2S 3S 7S 8S 9S 1T 2T E E",
            "2M 2M 3M 3M 4M 4M 5M 5M 6M 6M 8M 8M N",
            "1M 2M 3M 7S 8S 9S 1T 2T 3T 5T 5T F F",
        ],
        "5T",
    );
    let hu = ["--on", "mout 2 5T=hu"];
    let (played, received) = run(wall, 2, [&hu, &[], &[], &hu]);
    let record = &played.record;
    assert_clean(record);
    let win = record.outcome.win.as_ref().expect("a win");
    // Seat 3 comes right after the discarder; seat 0 after it.
    assert_eq!((win.seat, win.from, win.tile), (3, Some(2), t("5T")));
    let expected = [
        lines(
            "id 0
             first 2
             init 1M 2M 3M 7M 8M 9M 4S 5S 6S 4T 6T W W
             mpick 2
             mout 2 5T",
        ),
        lines(
            "id 1
             first 2
             init 4M 5M 6M 1S 2S 3S 7S 8S 9S 1T 2T E E
             mpick 2
             mout 2 5T",
        ),
        lines(
            "id 2
             first 2
             init 2M 2M 3M 3M 4M 4M 5M 5M 6M 6M 8M 8M N
             pick 5T",
        ),
        lines(
            "id 3
             first 2
             init 1M 2M 3M 7S 8S 9S 1T 2T 3T 5T 5T F F
             mpick 2
             mout 2 5T",
        ),
    ];
    assert_received(&received, &played, &expected);
}
