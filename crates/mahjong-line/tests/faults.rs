//! Every fault of a bot program is a verdict with a reason its author can act on; the faulty
//! seat plays on automatically to the end of the hand, the other seats' play and penalties are
//! untouched, the program is killed and reaped (no zombie), and the next hand starts a fresh
//! process.

mod common;

use std::time::{Duration, Instant};

use common::*;
use mahjong::{Deal, Wall};
use mahjong_bots::{HandRecord, HandVerdict, VerdictKind};
use mahjong_line::{CmdBot, CmdBotConfig};

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

/// The process ids a bot started, from its transcript.
fn started_pids(bot: &CmdBot) -> Vec<u32> {
    notes(bot)
        .iter()
        .filter_map(|n| {
            let rest = n.strip_prefix("process ")?;
            let (pid, what) = rest.split_once(' ')?;
            what.starts_with("started").then(|| pid.parse().ok())?
        })
        .collect()
}

/// Plays the known wall with `faulty` in `seat` and trivial test bots elsewhere; checks the
/// hand ended, the others are clean, and `faulty`'s process is gone. Returns the hand and the
/// faulty seat's one verdict.
fn one_fault(faulty: &mut CmdBot, seat: usize) -> (HandRecord, HandVerdict) {
    let mut others: Vec<CmdBot> = (0..3).map(|_| testbot_with(&[], config())).collect();
    let [a, b, c] = &mut others[..] else {
        unreachable!()
    };
    let mut players: [&mut dyn mahjong_bots::Player; 4] = match seat {
        0 => [faulty, a, b, c],
        1 => [a, faulty, b, c],
        2 => [a, b, faulty, c],
        _ => [a, b, c, faulty],
    };
    let record = play(
        &Deal {
            wall: known_wall(),
            first: 0,
        },
        &mut players,
    );
    for (s, p) in record.penalties.iter().enumerate() {
        assert!(s == seat || *p == 0, "seat {s} lost {p} points");
    }
    assert_eq!(record.verdicts.len(), 1, "{:?}", record.verdicts);
    let v = record.verdicts[0].clone();
    assert_eq!(usize::from(v.seat), seat);
    let pid = *started_pids(faulty).last().expect("a process was started");
    assert!(
        process_gone(pid),
        "process {pid} is still there (or a zombie)"
    );
    assert_eq!(faulty.process_id(), None);
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
    let config = CmdBotConfig {
        join_timeout: Duration::from_millis(500),
        ..config()
    };
    let mut bot = testbot_with(&["--no-join"], config);
    let (record, v) = one_fault(&mut bot, 2);
    assert_reason(
        &v,
        VerdictKind::Timeout,
        &["no \"join\" line within 500 ms of starting", "flush"],
    );
    assert_eq!(record.penalties[2], 0, "waiting for join costs no points");
}

#[test]
fn a_program_that_exits_at_once_is_a_crash_with_its_exit_status() {
    let mut bot = testbot_with(&["--exit-at-once"], config());
    let (_, v) = one_fault(&mut bot, 1);
    assert_reason(
        &v,
        VerdictKind::Crashed,
        &["exited before saying \"join\"", "exit code 0"],
    );
}

#[test]
fn a_program_that_cannot_be_started_is_a_crash_at_the_start_of_the_hand() {
    let mut bot = CmdBot::from_spec("cmd:/nonexistent/mahjong-bot", config()).unwrap();
    let mut others: Vec<CmdBot> = (0..3).map(|_| testbot_with(&[], config())).collect();
    let [a, b, c] = &mut others[..] else {
        unreachable!()
    };
    let record = play(&Deal::from_seed(3), &mut [&mut bot, a, b, c]);
    assert_eq!(record.verdicts.len(), 1, "{:?}", record.verdicts);
    assert_reason(
        &record.verdicts[0],
        VerdictKind::Crashed,
        &["could not start the program", "No such file"],
    );
    assert_eq!(record.verdicts[0].at_event, 0);
}

#[test]
fn a_crash_mid_hand_is_reported_with_exit_code_and_stderr_and_the_next_hand_is_fresh() {
    let mut bot = testbot_with(&["--script", "-;-;!crash"], config());
    let (record, v) = one_fault(&mut bot, 3);
    assert_reason(
        &v,
        VerdictKind::Crashed,
        &[
            "the program exited before answering \"mout",
            "exit code 3",
            "crashing on purpose",
        ],
    );
    assert!(v.at_event > 0, "mid-hand");
    assert!(record.events.len() > v.at_event + 10, "the hand went on");
    // The next hand runs a fresh process, which plays up to its third question again.
    let (_, again) = one_fault(&mut bot, 3);
    assert_eq!(again.kind, VerdictKind::Crashed);
    assert_eq!(bot.stats().processes_started, 2);
}

#[test]
fn a_silent_program_is_cut_off_at_the_hard_cap_and_charged_the_time() {
    let mut bot = testbot_with(&["--script", "-;!hang"], config());
    let started = Instant::now();
    let (record, v) = one_fault(&mut bot, 0);
    assert_reason(
        &v,
        VerdictKind::Timeout,
        &["no answer to \"", "within 1500 ms, the hard cap", "flush"],
    );
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
            &[r#"answered "plya" to "pick 9T": unknown command "plya" (expected join, out T"#],
        ),
        (
            "out 5X",
            0,
            &[
                r#"answered "out 5X" to "pick 9T""#,
                r#""5X" (token 2) is not a tile"#,
            ],
        ),
        (
            "chi",
            1,
            &[r#"answered "chi" to "mout 0 9T": "chi" needs the lowest tile of the chow"#],
        ),
        (
            "out 9T",
            1,
            &[
                r#"answered "out 9T" to "mout 0 9T": a discard is answered with pass, hu, gang, peng or chi T"#,
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
        let mut bot = testbot_with(&["--script", text], config());
        let (_, v) = one_fault(&mut bot, seat);
        assert_reason(&v, VerdictKind::Malformed, needles);
    }
}

#[test]
fn an_overlong_line_is_malformed_and_never_buffered_whole() {
    let mut bot = testbot_with(&["--script", "!long"], config());
    let (_, v) = one_fault(&mut bot, 0);
    assert_reason(
        &v,
        VerdictKind::Malformed,
        &[
            "wrote a line longer than 1024 bytes in answer to \"pick 9T\"",
            "starting \"xxxx",
        ],
    );
}

#[test]
fn impossible_moves_are_illegal_with_the_rules_reason() {
    let cases: [(&str, usize, &str); 10] = [
        (
            "out 5S",
            0,
            r#"answered "out 5S" to "pick 9T": the seat holds no 5S"#,
        ),
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
        (
            "hu",
            1,
            r#"answered "hu" to "mout 0 9T": the hand does not win with 9T"#,
        ),
        ("hu", 3, "the hand does not win with 9T"),
    ];
    for (text, seat, needle) in cases {
        let mut bot = testbot_with(&["--script", text], config());
        let (_, v) = one_fault(&mut bot, seat);
        assert_reason(&v, VerdictKind::Illegal, &[needle]);
    }
}

#[test]
fn a_first_line_that_is_not_join_is_malformed() {
    let mut bot = CmdBot::new(
        mahjong_line::CmdSpec::new("sh", ["-c", "echo hello; sleep 100"]),
        config(),
    );
    let (_, v) = one_fault(&mut bot, 2);
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
    let mut bot = testbot_with(&["--script", "!flood"], config());
    let (_, v) = one_fault(&mut bot, 0);
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
    let mut bot = CmdBot::new(mahjong_line::CmdSpec::new("sh", ["-c", script]), config());
    let (_, v) = one_fault(&mut bot, 0);
    assert_reason(
        &v,
        VerdictKind::Malformed,
        &["wrote a line that is not UTF-8 text in answer to \"pick 9T\""],
    );
}

#[test]
fn a_late_answer_costs_points_but_is_no_fault() {
    // Seat 3's first question is seat 0's discard: a claim, limit 0.5 s. At 0.8 s it is at least
    // 3 points late (more on a loaded machine, at most the 10 of the 1.5 s cap).
    let mut bot = testbot_with(&["--script", "!sleep800"], config());
    let mut others: Vec<CmdBot> = (0..3).map(|_| testbot_with(&[], config())).collect();
    let [a, b, c] = &mut others[..] else {
        unreachable!()
    };
    let record = play(
        &Deal {
            wall: known_wall(),
            first: 0,
        },
        &mut [a, b, c, &mut bot],
    );
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
    assert_eq!(bot.stats().late_answers, 1);
    assert!(
        notes(&bot)
            .iter()
            .any(|n| n.contains("late answer") && n.contains("for a 500 ms limit")),
        "{:?}",
        notes(&bot)
    );
}
