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

/// The championship's minimal engine (docs/championship-protocol.md) playing on through
/// `GAMEOVER`, writing every line it reads, then `EOF` when its input closes, to a file of its
/// own (named by its process id) in the directory its first argument names.
const LOGGING_ENGINE: &str = r#"
import os, sys
log = open(os.path.join(sys.argv[1], "%d.log" % os.getpid()), "w")
me, hand, last = None, [], None
rank = lambda c: c // 4 if c < 52 else c - 39
for line in sys.stdin:
    log.write(line); log.flush()
    cmd, _, arg = line.strip().partition(" ")
    if cmd == "DOUDIZHUVER": print("NAME logging", flush=True)
    elif cmd == "DEAL":
        me, hand, last = arg[0], [int(x) for x in arg[1:].split(",")], None
        print("OK DEAL", flush=True)
    elif cmd == "BID":
        print("BID %s0" % me if arg == "WHAT" else "OK BID", flush=True)
    elif cmd == "LEFTOVER":
        if arg[0] == me: hand += [int(x) for x in arg[1:].split(",")]
        print("OK LEFTOVER", flush=True)
    elif cmd == "PLAY" and arg == "WHAT":
        hand.sort(key=rank)
        if last is None or last[0] == me: play = hand[:1]
        elif len(last[1]) == 1: play = [c for c in hand if rank(c) > rank(last[1][0])][:1]
        else: play = []
        for c in play: hand.remove(c)
        if play: last = (me, play)
        print("PLAY %s%s" % (me, ",".join(map(str, play)) or "-1"), flush=True)
    elif cmd == "PLAY":
        if arg[1:] != "-1": last = (arg[0], [int(x) for x in arg[1:].split(",")])
        print("OK PLAY", flush=True)
    else: print("OK " + cmd, flush=True)
log.write("EOF\n")
"#;

#[test]
fn a_championship_engine_plays_a_turn_of_rounds_on_one_process() {
    // The engine runs outside the sandbox (a trusted test program) so that it can write its
    // log where the test reads it.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("engine.py");
    std::fs::write(&script, LOGGING_ENGINE).unwrap();
    let launch = Launch {
        sandbox: arena_sandbox::Sandbox::new(arena_sandbox::Policy {
            isolation: arena_sandbox::Isolation::Off,
            ..arena_sandbox::Policy::default()
        }),
        ..Launch::default()
    };
    let engine = ProgramBot {
        cmd: CmdSpec::parse(&format!(
            "championship:python3 {} {}",
            script.display(),
            dir.path().display()
        ))
        .unwrap(),
        launch,
    };
    let random: &BotFactory<'_> = &|| {
        BotSpec::Random
            .build_builtin()
            .ok_or_else(|| "no random bot".to_string())
    };
    // One turn of 2 rounds: the engine's seat 0 (as landlord) at one table, then its seats 1
    // and 2 (as the farmers) at the other.
    let cfg = EvalConfig {
        deals: 2,
        seed: 7,
        constraint: DealConstraint::default(),
        rules: RuleSet::COMPETITION,
        threads: 1,
        rounds_per_turn: Some(2),
    };
    let m = play_match_of(
        Contestant::Program(&engine, time()),
        Contestant::Builtin(random),
        &cfg,
        &AtomicU64::new(0),
    )
    .expect("the match is played");
    assert_eq!(m.deals.len(), 2);
    assert!(m.verdicts.is_empty(), "{:?}", m.verdicts);
    let mut logs: Vec<Vec<String>> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.lines().map(str::to_string).collect()
        })
        .collect();
    assert_eq!(logs.len(), 3, "one process per seat and seating: {logs:?}");
    logs.sort_by_key(|l| l.get(2).cloned());
    for (log, letter) in logs.iter().zip(["A", "B", "C"]) {
        // Greeted once; each round its INFO and DEAL, its lines, its GAMEOVER; the input
        // closed after the last round only.
        assert_eq!(
            log[..2],
            ["DOUDIZHUVER 1.0", "INFO 1,1,1,2,1,0,1"],
            "{log:?}"
        );
        let over: Vec<usize> = (0..log.len())
            .filter(|&i| log[i].starts_with("GAMEOVER "))
            .collect();
        assert_eq!(over.len(), 2, "{log:?}");
        assert_eq!(log[over[0] + 1], "INFO 1,1,2,2,1,0,1", "{log:?}");
        assert_eq!(log[over[1] + 1..], ["EOF"], "{log:?}");
        for (start, end) in [(2, over[0]), (over[0] + 2, over[1])] {
            assert!(log[start].starts_with(&format!("DEAL {letter}")), "{log:?}");
            for line in &log[start + 1..end] {
                assert!(
                    ["BID ", "LEFTOVER ", "PLAY "]
                        .iter()
                        .any(|c| line.starts_with(c)),
                    "a line of the round: {line:?} in {log:?}"
                );
            }
        }
        assert_eq!(
            log.iter().filter(|l| l.starts_with("DOUDIZHUVER")).count(),
            1
        );
    }
}
