//! Every fault of a bot program gets the right verdict with a reason a person can act on, the
//! game still finishes with legal automatic play, and the next game starts a fresh process.

mod common;

use std::time::{Duration, Instant};

use common::*;
use ddz::GameConfig;
use ddz_bots::{Bot, RandomBot, Verdict, VerdictKind};
use ddz_line::{CmdBot, CmdBotConfig, Direction};

/// Plays games 1, 2, 3 with `program` in seat `at` (fixed landlord: seat 0 leads) and returns
/// the program's verdicts per game. The other seats never fault.
fn three_games(program: &mut CmdBot, at: usize, config: GameConfig) -> Vec<Vec<Verdict>> {
    let (mut a, mut b) = (RandomBot::new(11), RandomBot::new(12));
    let mut per_game = Vec::new();
    for seed in 0..3 {
        let bots: &mut [&mut dyn Bot; 3] = match at {
            0 => &mut [program, &mut a, &mut b],
            1 => &mut [&mut a, program, &mut b],
            _ => &mut [&mut a, &mut b, program],
        };
        play(config, seed, bots);
        let mut v = verdicts(bots);
        for (i, other) in v.iter().enumerate() {
            assert!(i == at || other.is_empty(), "seat {i}: {other:?}");
        }
        per_game.push(std::mem::take(&mut v[at]));
    }
    per_game
}

/// Checks that game 1 alone got one verdict of `kind` whose reason holds every `needle`, that
/// games 2 and 3 were clean, and that game 2 ran in a fresh process.
fn assert_one_fault(
    program: &CmdBot,
    per_game: &[Vec<Verdict>],
    kind: VerdictKind,
    needles: &[&str],
) {
    assert_eq!(per_game[0].len(), 1, "game 1: {:?}", per_game[0]);
    let v = &per_game[0][0];
    assert_eq!(v.kind, kind, "{}", v.reason);
    for needle in needles {
        assert!(
            v.reason.contains(needle),
            "{needle:?} not in {:?}",
            v.reason
        );
    }
    assert!(per_game[1].is_empty(), "game 2: {:?}", per_game[1]);
    assert!(per_game[2].is_empty(), "game 3: {:?}", per_game[2]);
    assert_eq!(
        program.stats().processes_started,
        2,
        "a fresh process after the fault"
    );
    assert_eq!(program.stats().verdicts, 1);
}

fn faulty(args: &[&str]) -> CmdBot {
    cmd_bot(&python(faulty_bot(), args), fast_config())
}

/// Hung programs are cut off at 200 ms + 100 ms.
fn hanging(args: &[&str]) -> CmdBot {
    let config = CmdBotConfig {
        grace: Duration::from_millis(100),
        ..fast_config()
    };
    cmd_bot(&python(faulty_bot(), args), config)
}

#[test]
fn a_crash_mid_game_is_reported_with_exit_code_and_stderr() {
    let mut p = faulty(&["crash", "--at", "play", "--nth", "2"]);
    let v = three_games(&mut p, 0, GameConfig::fixed_landlord());
    assert_one_fault(
        &p,
        &v,
        VerdictKind::Crashed,
        &[
            "exited before answering the play request",
            "exit code 3",
            "crashing on purpose",
        ],
    );
}

#[test]
fn a_hung_program_is_cut_off_at_deadline_plus_grace_and_killed() {
    let mut p = hanging(&["hang"]);
    let (mut a, mut b) = (RandomBot::new(1), RandomBot::new(2));
    let started = Instant::now();
    let bots: &mut [&mut dyn Bot; 3] = &mut [&mut p, &mut a, &mut b];
    play(GameConfig::fixed_landlord(), 0, bots);
    let elapsed = started.elapsed();
    let v = bots[0].take_verdicts();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].kind, VerdictKind::Timeout);
    assert!(
        v[0].reason.contains(
            "no answer to the play request within 300 ms (deadline 200 ms + grace 100 ms"
        ),
        "{}",
        v[0].reason
    );
    // Start-up plus one cut-off, not an hour; generous for a loaded 2-core machine.
    assert!(elapsed < Duration::from_secs(3), "took {elapsed:?}");
    assert!(
        elapsed >= Duration::from_millis(300),
        "cut off early: {elapsed:?}"
    );
    let pid = started_pids(&p)[0];
    // In its sandbox the program is the first process of a PID namespace of its own.
    assert_eq!(printed_pids(&p, "pid"), [1]);
    assert!(
        process_gone(pid, false),
        "process {pid} still exists (or is a zombie)"
    );
    assert_eq!(p.process_id(), None);
}

#[test]
fn killing_a_hung_program_also_kills_the_processes_it_started() {
    // Its own working directory, so that its processes can be told from the host's by it.
    let dir = tempfile::tempdir().unwrap();
    let config = CmdBotConfig {
        grace: Duration::from_millis(100),
        working_dir: Some(dir.path().to_path_buf()),
        ..fast_config()
    };
    let mut p = cmd_bot(&python(faulty_bot(), &["hang", "--child", "1"]), config);
    let per_game = three_games(&mut p, 0, GameConfig::fixed_landlord());
    assert_one_fault(&p, &per_game, VerdictKind::Timeout, &["play request"]);
    let pid = started_pids(&p)[0];
    assert_eq!(printed_pids(&p, "child").len(), 1, "it started a child");
    assert!(process_gone(pid, false), "program {pid} survived");
    // The process of games 2 and 3 is still playing; once it is gone, nothing is left in the
    // directory: not the child of game 1.
    drop(p);
    assert!(
        eventually(|| processes_in(dir.path()).is_empty()),
        "left behind: {:?}",
        processes_in(dir.path())
    );
}

#[test]
fn under_cmd_every_child_of_a_program_dies_even_without_a_pid_namespace() {
    // The group is killed before the program is reaped, even when it exited by itself: a
    // program that exits between games leaves no background child behind.
    let dir = tempfile::tempdir().unwrap();
    let script = "import subprocess, sys; subprocess.Popen(['sleep', '1000']); \
                  print('join', flush=True); sys.stdin.readline()";
    let config = CmdBotConfig {
        working_dir: Some(dir.path().to_path_buf()),
        sandbox: arena_sandbox::Sandbox::new(arena_sandbox::Policy {
            isolation: arena_sandbox::Isolation::Off,
            ..arena_sandbox::Policy::default()
        }),
        ..fast_config()
    };
    let mut p = CmdBot::new(ddz_line::CmdSpec::new("python3", ["-c", script]), config);
    p.start().unwrap();
    assert!(eventually(|| processes_in(dir.path()).len() >= 2));
    drop(p);
    assert!(
        eventually(|| processes_in(dir.path()).is_empty()),
        "left behind: {:?}",
        processes_in(dir.path())
    );
}

#[test]
fn garbage_is_malformed_and_the_reason_quotes_it() {
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["garbage", "--text", "plya 33"],
            &[r#"answered "plya 33" to the play request: unknown command "plya""#],
        ),
        (
            &["garbage", "--text", "play 3X"],
            &["\"play 3X\"", "unknown card character 'X' at position 1"],
        ),
        (
            &["garbage", "--at", "bid", "--text", "bid 5"],
            &[r#"answered "bid 5" to the bid request: bid 5 is out of range"#],
        ),
        (
            &["garbage", "--text", "bid 1"],
            &[r#"answered "bid 1" to the play request: expected "play CARDS" or "play pass""#],
        ),
        (
            &["garbage", "--at", "double", "--text", "double yes"],
            &["double request", "must be 0 or 1, not \"yes\""],
        ),
    ];
    for (args, needles) in cases {
        let mut p = faulty(args);
        let v = three_games(&mut p, 1, GameConfig::competition());
        assert_one_fault(&p, &v, VerdictKind::Malformed, needles);
    }
}

#[test]
fn passing_on_a_free_lead_is_illegal() {
    let mut p = faulty(&["illegal"]);
    let v = three_games(&mut p, 0, GameConfig::fixed_landlord());
    assert_one_fault(
        &p,
        &v,
        VerdictKind::Illegal,
        &[r#"answered "play pass" to the play request: cannot pass when leading"#],
    );
}

#[test]
fn playing_cards_not_in_hand_is_illegal() {
    // Seat 1 first plays after the landlord's lead, so its first play request is a follow.
    let mut p = faulty(&["illegal"]);
    let v = three_games(&mut p, 1, GameConfig::fixed_landlord());
    assert_one_fault(
        &p,
        &v,
        VerdictKind::Illegal,
        &["to the play request: cards", "are not all in hand"],
    );
}

#[test]
fn a_bid_that_does_not_raise_is_illegal() {
    let mut p = faulty(&["illegal", "--at", "bid"]);
    let mut first = CallsOne;
    let mut other = RandomBot::new(4);
    let mut per_game = Vec::new();
    for seed in 0..3 {
        let bots: &mut [&mut dyn Bot; 3] = &mut [&mut first, &mut p, &mut other];
        play(GameConfig::competition(), seed, bots);
        per_game.push(bots[1].take_verdicts());
    }
    assert_one_fault(
        &p,
        &per_game,
        VerdictKind::Illegal,
        &[r#"answered "bid 1" to the bid request: bid 1 is not allowed"#],
    );
}

#[test]
fn a_late_answer_within_the_grace_counts_but_is_accepted() {
    let config = CmdBotConfig {
        play_deadline: Duration::from_millis(100),
        grace: Duration::from_millis(1500),
        ..fast_config()
    };
    let mut p = cmd_bot(
        &python(faulty_bot(), &["late", "--sleep-ms", "300"]),
        config,
    );
    let per_game = three_games(&mut p, 0, GameConfig::fixed_landlord());
    assert!(per_game.iter().all(Vec::is_empty), "{per_game:?}");
    let stats = p.stats();
    // At least the one slow answer (on a loaded machine another may be late too).
    assert!(stats.late_answers >= 1);
    assert!(stats.slowest_answer >= Duration::from_millis(300));
    assert_eq!(stats.processes_started, 1);
    assert!(
        p.transcript()
            .iter()
            .any(|l| l.direction == Direction::Note && l.text.contains("for a 100 ms deadline"))
    );
}

#[test]
fn a_line_written_when_nothing_was_asked_is_malformed() {
    // The program answers its first play request, then writes one more line. The next seat
    // takes its time, so that line has arrived before the program's next request is sent (a
    // line arriving after a request is sent is taken as the answer: nothing can tell them apart).
    let mut p = faulty(&["unsolicited"]);
    let mut slow = Slow::new(RandomBot::new(1), Duration::from_millis(150));
    let mut other = RandomBot::new(2);
    let mut per_game = Vec::new();
    for seed in 0..3 {
        let bots: &mut [&mut dyn Bot; 3] = &mut [&mut p, &mut slow, &mut other];
        play(GameConfig::fixed_landlord(), seed, bots);
        per_game.push(bots[0].take_verdicts());
    }
    assert_one_fault(
        &p,
        &per_game,
        VerdictKind::Malformed,
        &[r#"wrote "play 3" before the play request, when nothing was asked"#],
    );
}

#[test]
fn an_endless_line_is_malformed_and_not_kept() {
    let mut p = faulty(&["long"]);
    let v = three_games(&mut p, 0, GameConfig::fixed_landlord());
    assert_one_fault(
        &p,
        &v,
        VerdictKind::Malformed,
        &["a line longer than 65536 bytes in answer to the play request"],
    );
    assert!(v[0][0].reason.len() < 400, "the reason quotes too much");
}

#[test]
fn a_program_flooding_stderr_never_blocks() {
    // 256 KiB of stderr before every answer: far more than a pipe holds.
    let mut p = cmd_bot(&python(faulty_bot(), &["stderr-flood"]), fast_config());
    let per_game = three_games(&mut p, 0, GameConfig::fixed_landlord());
    assert!(per_game.iter().all(Vec::is_empty), "{per_game:?}");
    assert_eq!(p.stats().processes_started, 1);
}

#[test]
fn a_program_writing_thousands_of_comments_still_plays() {
    // More lines than the reader holds ahead: the program waits until they are read.
    let mut p = cmd_bot(&python(faulty_bot(), &["comment-flood"]), fast_config());
    let per_game = three_games(&mut p, 0, GameConfig::fixed_landlord());
    assert!(per_game.iter().all(Vec::is_empty), "{per_game:?}");
    assert_eq!(p.stats().processes_started, 1);
}

#[test]
fn a_program_that_exits_between_games_is_restarted_without_a_verdict() {
    let mut p = faulty(&["exit-after-game"]);
    let per_game = three_games(&mut p, 0, GameConfig::fixed_landlord());
    assert!(per_game.iter().all(Vec::is_empty), "{per_game:?}");
    assert_eq!(p.stats().processes_started, 3);
}

#[test]
fn a_first_line_other_than_join_is_malformed_in_every_game() {
    let mut p = faulty(&["no-join"]);
    let per_game = three_games(&mut p, 0, GameConfig::fixed_landlord());
    for v in &per_game {
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(v[0].kind, VerdictKind::Malformed);
        assert!(
            v[0].reason
                .contains(r#"the first line must be "join" or "join NAME", got "bid 1""#),
            "{}",
            v[0].reason
        );
    }
    assert_eq!(p.stats().processes_started, 3);
}

#[test]
fn a_program_that_never_joins_times_out_at_start_up() {
    let config = CmdBotConfig {
        startup_timeout: Duration::from_millis(500),
        ..fast_config()
    };
    let mut p = cmd_bot(&python(faulty_bot(), &["silent"]), config);
    let err = p.start().unwrap_err();
    assert_eq!(err.kind, VerdictKind::Timeout);
    assert!(
        err.to_string().contains("no \"join\" line within 500 ms"),
        "{err}"
    );
    let pid = started_pids(&p)[0];
    assert!(process_gone(pid, false), "process {pid} left behind");
    // In a game the same fault is a verdict, and the seat still plays.
    let (mut a, mut b) = (RandomBot::new(1), RandomBot::new(2));
    let bots: &mut [&mut dyn Bot; 3] = &mut [&mut a, &mut b, &mut p];
    play(GameConfig::competition(), 0, bots);
    let v = bots[2].take_verdicts();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].kind, VerdictKind::Timeout);
    assert_eq!(p.stats().processes_started, 2);
}

#[test]
fn a_missing_program_is_a_crash_that_names_it() {
    let mut p = cmd_bot("cmd:./no-such-bot --level 3", fast_config());
    let err = p.start().unwrap_err();
    assert_eq!(err.kind, VerdictKind::Crashed);
    assert!(
        err.to_string()
            .contains("cmd:./no-such-bot --level 3: could not start the program: "),
        "{err}"
    );
    let per_game = three_games(&mut p, 0, GameConfig::competition());
    for v in &per_game {
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].kind, VerdictKind::Crashed);
        assert!(v[0].reason.contains("No such file"), "{}", v[0].reason);
    }
}

#[test]
fn the_program_runs_in_its_working_directory() {
    let dir = std::env::temp_dir().join(format!("ddz-line-wd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = "import os, sys; print('join', os.path.basename(os.getcwd()), flush=True); sys.stdin.read()";
    let config = CmdBotConfig {
        working_dir: Some(dir.clone()),
        ..fast_config()
    };
    let mut p = CmdBot::new(ddz_line::CmdSpec::new("python3", ["-c", script]), config);
    p.start().unwrap();
    let name = dir.file_name().unwrap().to_str().unwrap();
    assert_eq!(p.joined_name(), Some(name));
    drop(p);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dropping_the_bot_says_bye_and_leaves_no_process() {
    // One program that exits on "bye", one that ignores it and must be killed.
    let polite = python(faulty_bot(), &["none"]);
    let stubborn =
        "cmd:python3 -c 'import signal, time; print(\"join\", flush=True); time.sleep(3600)'";
    for spec in [polite.as_str(), stubborn] {
        let mut p = cmd_bot(spec, fast_config());
        p.start().unwrap();
        let pid = p.process_id().unwrap();
        let started = Instant::now();
        drop(p);
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(
            process_gone(pid, false),
            "{spec}: process {pid} left behind"
        );
    }
}

#[test]
fn comments_and_blank_lines_are_ignored_and_crlf_is_accepted() {
    let script = r##"
import sys
print("# hello", flush=True)
sys.stdout.write("join crlf\r\n\r\n   \n"); sys.stdout.flush()
for line in sys.stdin:
    w = line.split()
    if w[:2] == ["ask", "bid"]:
        sys.stdout.write("# thinking\r\n\r\nbid 0\r\n"); sys.stdout.flush()
    elif w[:1] == ["ask"] and w[1] in ("double", "redouble"):
        print("double 0", flush=True)
    elif w[:2] == ["ask", "play"]:
        sys.stdout.write("  # pick the first\nplay " + w[3] + "\r\n"); sys.stdout.flush()
"##;
    let mut p = CmdBot::new(
        ddz_line::CmdSpec::new("python3", ["-c", script]),
        fast_config(),
    );
    let per_game = three_games(&mut p, 1, GameConfig::competition());
    assert!(per_game.iter().all(Vec::is_empty), "{per_game:?}");
    assert_eq!(p.joined_name(), Some("crlf"));
    assert_eq!(p.stats().processes_started, 1);
}
