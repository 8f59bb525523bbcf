//! Each hand runs a fresh process per seat (a program seat on the one runner), with no
//! arguments but its spec's, in a fresh working directory of its own that is removed after the
//! hand; nothing it started outlives the hand.

mod common;

use common::*;
use mahjong::Deal;
use mahjong_line::CmdSpec;

/// `cwd=DIR files=N args=N` from the `join` line of a program started with `--introduce`.
fn introduced(join: &str) -> (String, usize, usize) {
    let name = join.strip_prefix("join ").expect("it gave a name");
    let mut fields = name.split(' ').map(|f| f.split_once('=').unwrap().1);
    let cwd = fields.next().unwrap().to_string();
    let files = fields.next().unwrap().parse().unwrap();
    let args = fields.next().unwrap().parse().unwrap();
    (cwd, files, args)
}

#[test]
fn every_hand_is_a_fresh_process_in_a_fresh_empty_directory() {
    let mut dirs = Vec::new();
    for seed in 0..2 {
        let bots = testbots([&["--introduce"]; 4]);
        let played = play(&Deal::from_seed(seed), bots);
        assert!(
            played.record.verdicts.is_empty(),
            "{:?}",
            played.record.verdicts
        );
        for s in 0..4 {
            let (cwd, files, args) = introduced(&played.written(s)[0]);
            assert_eq!(files, 0, "{cwd} was empty when the program started");
            assert_eq!(args, 1, "the arena adds no arguments to the spec's one");
            assert!(
                !std::path::Path::new(&cwd).exists(),
                "{cwd} is removed after the hand"
            );
            dirs.push(cwd);
        }
    }
    let mut distinct = dirs.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        8,
        "a directory of its own per process: {dirs:?}"
    );
}

#[test]
fn nothing_a_program_started_outlives_its_hand() {
    let dir = tempfile::tempdir().unwrap();
    // Each program starts a `sleep` in the background (leaving its pid), then becomes the test
    // bot; the test bot's path is an argument of its own, so that the sandbox lets it be read.
    let bot = testbot().display().to_string();
    let script = "sleep 1000 & echo $! >> sleeps; exec \"$0\"";
    let program = || Program::new(CmdSpec::new("sh", ["-c", script, &bot])).at(dir.path());
    let played = play(&Deal::from_seed(5), [0, 1, 2, 3].map(|_| program()));
    assert!(
        played.record.verdicts.is_empty(),
        "{:?}",
        played.record.verdicts
    );
    let sleeps = std::fs::read_to_string(dir.path().join("sleeps")).unwrap_or_default();
    assert_eq!(
        sleeps.lines().count(),
        4,
        "every program started its child: {sleeps:?}"
    );
    assert!(
        eventually(|| processes_in(dir.path()).is_empty()),
        "left running: {:?}",
        processes_in(dir.path())
    );
}
