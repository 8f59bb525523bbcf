//! Dou Dizhu matches with a program (`cmd:`) on a side, played on the one runner: every fault of
//! the program gets the right verdict with a reason a person can act on, its games still
//! finish (its seat played automatically after the fault), and a program that plays well gets
//! none. The program is `tests/bots/ddz_faulty_bot.py`, which faults in the first game of each
//! process (every game: each is a fresh process).

use std::path::PathBuf;
use std::sync::atomic::AtomicU64;

use arena_games::ddz::eval::{BotFactory, Contestant, EvalConfig, MatchOutcome, play_match_of};
use arena_line::{CmdSpec, Launch};
use arena_table::{ProgramBot, TimeRules};
use ddz::{DealConstraint, RuleSet};
use ddz_bots::{BotSpec, VerdictKind};

/// `tests/bots/ddz_faulty_bot.py` with `args`, run by python3 (a copy any sandboxed program
/// may read).
fn faulty(args: &[&str]) -> ProgramBot {
    let script = arena_testkit::readable_copy(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bots/ddz_faulty_bot.py"),
    );
    let mut words = vec!["python3".to_string(), script.display().to_string()];
    words.extend(args.iter().map(|a| a.to_string()));
    ProgramBot {
        cmd: CmdSpec::new(&words[0], words[1..].to_vec()),
        launch: Launch::default(),
    }
}

/// A 200 ms deadline, and a hard cap a healthy program on a loaded machine never reaches.
fn time() -> TimeRules {
    TimeRules {
        decision_ms: 200,
        claim_ms: 200,
        hard_cap_ms: 3000,
        penalty_per_100ms: 0,
        verdict_penalty: 0,
        ..TimeRules::default()
    }
}

/// One deal, played twice: the program as landlord against two `random` farmers, then as both
/// farmers.
fn one_deal(program: &ProgramBot, time: TimeRules) -> MatchOutcome {
    let random: &BotFactory<'_> = &|| {
        BotSpec::Random
            .build_builtin()
            .ok_or_else(|| "no random bot".to_string())
    };
    let cfg = EvalConfig {
        deals: 1,
        seed: 7,
        constraint: DealConstraint::default(),
        rules: RuleSet::COMPETITION,
        threads: 1,
        rounds_per_turn: None,
    };
    let progress = AtomicU64::new(0);
    let m = play_match_of(
        Contestant::Program(program, time),
        Contestant::Builtin(random),
        &cfg,
        &progress,
    )
    .expect("the match is played");
    assert_eq!(m.deals.len(), 1, "both games finished with an outcome");
    m
}

/// Checks that every verdict of the match is the program's, of `kind`, with every `needle` in
/// its reason, and that there is one per program seat that faulted (at least one).
fn assert_faults(m: &MatchOutcome, kind: VerdictKind, needles: &[&str]) {
    assert!(!m.verdicts.is_empty(), "no verdict");
    for v in &m.verdicts {
        assert!(v.bot.starts_with("cmd:"), "a verdict of {}: {v:?}", v.bot);
        assert_eq!(v.verdict.kind, kind, "{}", v.verdict.reason);
        for needle in needles {
            assert!(
                v.verdict.reason.contains(needle),
                "{needle:?} not in {:?}",
                v.verdict.reason
            );
        }
    }
}

#[test]
fn a_program_that_plays_legally_gets_no_verdict_and_its_moves_are_counted() {
    let m = one_deal(&faulty(&["none"]), time());
    assert!(m.verdicts.is_empty(), "{:?}", m.verdicts);
    assert!(m.a_decisions.0 > 0, "the program's plays are counted");
}

#[test]
fn a_crash_is_crashed_with_exit_code_and_stderr() {
    let m = one_deal(&faulty(&["crash", "--at", "play", "--nth", "2"]), time());
    assert_faults(
        &m,
        VerdictKind::Crashed,
        &[
            "exited before answering the play request",
            "exit code 3",
            "crashing on purpose",
        ],
    );
}

#[test]
fn silence_until_the_hard_cap_is_a_timeout() {
    let short = TimeRules {
        hard_cap_ms: 400,
        ..time()
    };
    let m = one_deal(&faulty(&["hang"]), short);
    assert_faults(&m, VerdictKind::Timeout, &[]);
}

#[test]
fn garbage_is_malformed_and_the_reason_quotes_it() {
    let m = one_deal(&faulty(&["garbage", "--text", "plya 33"]), time());
    assert_faults(&m, VerdictKind::Malformed, &["plya 33"]);
}

#[test]
fn an_answer_the_rules_refuse_is_illegal() {
    let m = one_deal(&faulty(&["illegal"]), time());
    assert_faults(&m, VerdictKind::Illegal, &[]);
}

#[test]
fn a_line_written_when_nothing_was_asked_is_malformed() {
    // Written with its greeting, in one write: it is there before the first question, however
    // the processes are scheduled (a line written just after an answer may race the next
    // question, and is then read as the answer to it).
    let program = ProgramBot {
        cmd: CmdSpec::new("sh", ["-c", "printf 'join\\nplay 3\\n'; sleep 600"]),
        launch: Launch::default(),
    };
    let m = one_deal(&program, time());
    assert_faults(&m, VerdictKind::Malformed, &["when nothing was asked"]);
}

#[test]
fn an_endless_line_is_malformed() {
    let m = one_deal(&faulty(&["long"]), time());
    assert_faults(&m, VerdictKind::Malformed, &[]);
}

#[test]
fn a_first_line_other_than_join_is_malformed() {
    let m = one_deal(&faulty(&["no-join"]), time());
    assert_faults(&m, VerdictKind::Malformed, &["join"]);
}

#[test]
fn floods_on_stderr_and_comment_lines_block_nothing() {
    for fault in ["stderr-flood", "comment-flood"] {
        let m = one_deal(&faulty(&[fault, "--game", "0"]), time());
        assert!(m.verdicts.is_empty(), "{fault}: {:?}", m.verdicts);
    }
}

#[test]
fn a_missing_program_is_crashed_naming_it() {
    let program = ProgramBot {
        cmd: CmdSpec::new("/nonexistent/arena-ddz-bot", Vec::<String>::new()),
        launch: Launch::default(),
    };
    let m = one_deal(&program, time());
    assert_faults(&m, VerdictKind::Crashed, &["/nonexistent/arena-ddz-bot"]);
}
