//! Every fault of a bot program, seated on the one runner, is a verdict with a reason its
//! author can act on; the faulty seat plays on automatically to the end of the hand, the other
//! seats' play and penalties are untouched, and nothing of the program outlives the hand.

mod common;

use std::time::{Duration, Instant};

use common::*;
use mahjong::{Deal, Wall};
use mahjong_bots::{HandRecord, HandVerdict, VerdictKind};
use mahjong_line::CmdSpec;

/// Seat 0 draws first and holds 1M 1M 2M 2M 3M 3M 4M 4M 6M 6M 7M 7M 8M; its first draw is
/// 9T, which the trivial bots discard, so seat 1 (3S 4S 1T…6T E E E N N) is asked about 9T
/// first.
fn known_wall() -> Wall {
    wall(
        [
            "1M 1M 2M 2M 3M 3M 4M 4M 6M 6M 7M 7M 8M",
            "3S 4S 1T 2T 3T 4T 5T 6T E E E N N",
            "9M 9M 1S 2S 5S 5S 6S 7T W W B B B",
            "1S 2S 6S 7S 8S 9S 8T 9T E Z Z F F",
        ],
        "9T",
    )
}

/// Plays the known wall with `faulty` in `seat` (in a directory of its own) and trivial test
/// bots elsewhere; checks the hand ended, the others are clean, and nothing of `faulty` is
/// left running. Returns the hand and the faulty seat's one verdict.
fn one_fault(faulty: Program, seat: usize) -> (HandRecord, HandVerdict) {
    let dir = tempfile::tempdir().unwrap();
    let mut programs = testbots([&[], &[], &[], &[]]);
    programs[seat] = faulty.at(dir.path());
    let played = play(
        &Deal {
            wall: known_wall(),
            first: 0,
        },
        programs,
    );
    let record = played.record;
    for (s, p) in record.penalties.iter().enumerate() {
        assert!(s == seat || *p == 0, "seat {s} lost {p} points");
    }
    assert_eq!(record.verdicts.len(), 1, "{:?}", record.verdicts);
    let v = record.verdicts[0].clone();
    assert_eq!(usize::from(v.seat), seat);
    assert!(
        eventually(|| processes_in(dir.path()).is_empty()),
        "left running: {:?}",
        processes_in(dir.path())
    );
    (record, v)
}

fn assert_reason(v: &HandVerdict, kind: VerdictKind, needles: &[&str]) {
    assert_eq!(v.kind, kind, "{}", v.reason);
    for n in needles {
        assert!(v.reason.contains(n), "{n:?} not in {:?}", v.reason);
    }
}

#[test]
fn a_program_that_never_joins_is_cut_off_at_the_start_up_limit() {
    let mut bot = testbot_with(&["--no-join"]);
    bot.startup = Duration::from_millis(500);
    let (record, v) = one_fault(bot, 2);
    assert_reason(&v, VerdictKind::Timeout, &["join", "500 ms"]);
    assert_eq!(record.penalties[2], 0, "waiting for join costs no points");
}

#[test]
fn a_program_that_exits_at_once_is_a_crash_with_its_exit_status() {
    let (_, v) = one_fault(testbot_with(&["--exit-at-once"]), 1);
    assert_reason(&v, VerdictKind::Crashed, &["join", "exit code 0"]);
}

#[test]
fn a_program_that_cannot_be_started_is_a_crash_at_its_first_decision() {
    let missing = Program::new(CmdSpec::new(
        "/nonexistent/mahjong-bot",
        Vec::<String>::new(),
    ));
    let mut programs = testbots([&[], &[], &[], &[]]);
    programs[0] = missing;
    let record = play(&Deal::from_seed(3), programs).record;
    assert_eq!(record.verdicts.len(), 1, "{:?}", record.verdicts);
    assert_reason(
        &record.verdicts[0],
        VerdictKind::Crashed,
        &["/nonexistent/mahjong-bot"],
    );
}

#[test]
fn a_crash_mid_hand_is_reported_with_exit_code_and_stderr() {
    let (record, v) = one_fault(testbot_with(&["--script", "-;-;!crash"]), 3);
    assert_reason(
        &v,
        VerdictKind::Crashed,
        &[
            "the program exited before answering",
            "exit code 3",
            "crashing on purpose",
        ],
    );
    assert!(v.at_event > 0, "mid-hand");
    assert!(record.events.len() > v.at_event + 10, "the hand went on");
}

#[test]
fn a_silent_program_is_cut_off_at_the_hard_cap_and_charged_the_time() {
    let started = Instant::now();
    let (record, v) = one_fault(testbot_with(&["--script", "-;!hang"]), 0);
    assert_reason(&v, VerdictKind::Timeout, &["1500 ms"]);
    assert!(started.elapsed() >= Duration::from_millis(1500));
    // Cut off at 1.5 s: 1 s past a 0.5 s claim limit (10 points) or 0.5 s past a 1 s turn
    // limit (5 points).
    assert!(
        [5, 10].contains(&record.penalties[0]),
        "{:?}",
        record.penalties
    );
}

#[test]
fn garbage_is_malformed_and_the_reason_quotes_it() {
    let cases: [(&str, usize, &[&str]); 6] = [
        (
            "plya",
            0,
            &[
                r#"answered "plya""#,
                r#"unknown command "plya" (expected join, out"#,
            ],
        ),
        (
            "out 5X",
            0,
            &[r#"answered "out 5X""#, r#""5X" (token 2) is not a tile"#],
        ),
        (
            "chi",
            1,
            &[
                r#"answered "chi""#,
                r#""chi" needs the lowest tile of the chow"#,
            ],
        ),
        (
            "out 9T",
            1,
            &[
                r#"answered "out 9T""#,
                "a discard is answered with pass, hu, gang, peng or chi T",
            ],
        ),
        (
            "peng 9T",
            1,
            &[r#""peng" takes nothing after it, but "9T" follows"#],
        ),
        ("hello", 1, &[r#"unknown command "hello""#]),
    ];
    for (text, seat, needles) in cases {
        let (_, v) = one_fault(testbot_with(&["--script", text]), seat);
        assert_reason(&v, VerdictKind::Malformed, needles);
    }
}

#[test]
fn an_overlong_line_is_malformed_and_never_buffered_whole() {
    let (_, v) = one_fault(testbot_with(&["--script", "!long"]), 0);
    assert_reason(&v, VerdictKind::Malformed, &["1024 bytes", "xxxx"]);
}

#[test]
fn impossible_moves_are_illegal_with_the_rules_reason() {
    let cases: [(&str, usize, &str); 10] = [
        ("out 5S", 0, "the seat holds no 5S"),
        (
            "agang 1M",
            0,
            "a concealed kong needs four 1M in hand; the seat holds 2",
        ),
        (
            "jgang 1M",
            0,
            "an added kong needs a melded pung of 1M; the seat has none",
        ),
        ("hu", 0, "the hand with its drawn tile does not win"),
        (
            "chi 7T",
            1,
            "the chow starting at 7T needs 7T in hand; the seat holds none",
        ),
        (
            "chi 3S",
            1,
            "the chow starting at 3S does not contain the discard 9T",
        ),
        ("gang", 1, "this needs 3 9T in hand; the seat holds 0"),
        ("peng", 1, "this needs 2 9T in hand; the seat holds 0"),
        ("hu", 1, "the hand does not win with 9T"),
        ("hu", 3, "the hand does not win with 9T"),
    ];
    for (text, seat, needle) in cases {
        let (_, v) = one_fault(testbot_with(&["--script", text]), seat);
        assert_reason(&v, VerdictKind::Illegal, &[needle]);
    }
}

#[test]
fn a_first_line_that_is_not_join_is_malformed() {
    let bot = Program::new(CmdSpec::new("sh", ["-c", "echo hello; sleep 100"]));
    let (_, v) = one_fault(bot, 2);
    assert_reason(
        &v,
        VerdictKind::Malformed,
        &[r#"the first line must be "join", got "hello""#],
    );
}

#[test]
fn a_program_flooding_its_output_is_cut_off_and_killed() {
    // It answers, then writes `pass` forever: lines that answer nothing on its own turn and
    // that nothing asked for in between.
    let (_, v) = one_fault(testbot_with(&["--script", "!flood"]), 0);
    assert_reason(
        &v,
        VerdictKind::Malformed,
        &[
            "wrote more than 64 lines that answer nothing since its last answer",
            "one line per question",
        ],
    );
}

#[test]
fn a_line_that_is_not_utf8_is_malformed() {
    let script = r#"printf 'join\n'; while read l; do case "$l" in pick*) printf 'out \377\n';; mout*) echo pass;; esac; done"#;
    let bot = Program::new(CmdSpec::new("sh", ["-c", script]));
    let (_, v) = one_fault(bot, 0);
    assert_reason(&v, VerdictKind::Malformed, &["UTF-8"]);
}

#[test]
fn a_late_answer_costs_points_but_is_no_fault() {
    // Seat 3's first question is seat 0's discard: a claim, limit 0.5 s. At 0.8 s it is at least
    // 3 points late (more on a loaded machine, at most the 10 of the 1.5 s cap).
    let programs = testbots([&[], &[], &[], &["--script", "!sleep800"]]);
    let record = play(
        &Deal {
            wall: known_wall(),
            first: 0,
        },
        programs,
    )
    .record;
    assert!(record.verdicts.is_empty(), "{:?}", record.verdicts);
    assert!(
        (3..=10).contains(&record.penalties[3]),
        "{:?}",
        record.penalties
    );
    assert_eq!(&record.penalties[..3], &[0, 0, 0]);
    assert_eq!(
        record.scores[3],
        record.outcome.scores[3] - record.penalties[3]
    );
}
