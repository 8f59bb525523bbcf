//! Each hand runs a fresh process per seat, with no arguments but its spec's, in a fresh
//! working directory of its own that is removed after the hand; nothing it started outlives
//! the hand.

mod common;

use common::*;
use mahjong::{ActionList, Deal, View};
use mahjong_bots::Player;
use mahjong_line::{CmdBot, CmdBotConfig, CmdSpec, WorkDir};

/// `cwd=DIR files=N args=N` from a joined name.
fn introduced(bot: &CmdBot) -> (String, usize, usize) {
    let name = bot.joined_name().expect("it gave a name");
    let mut fields = name.split(' ').map(|f| f.split_once('=').unwrap().1);
    let cwd = fields.next().unwrap().to_string();
    let files = fields.next().unwrap().parse().unwrap();
    let args = fields.next().unwrap().parse().unwrap();
    (cwd, files, args)
}

#[test]
fn every_hand_is_a_fresh_process_in_a_fresh_empty_directory() {
    let mut bots: Vec<CmdBot> = (0..4)
        .map(|_| testbot_with(&["--introduce"], config()))
        .collect();
    let mut dirs = Vec::new();
    for seed in 0..2 {
        let [a, b, c, d] = &mut bots[..] else {
            unreachable!()
        };
        let record = play(&Deal::from_seed(seed), &mut [a, b, c, d]);
        assert!(record.verdicts.is_empty(), "{:?}", record.verdicts);
        for b in &bots {
            let (cwd, files, args) = introduced(b);
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
    assert!(bots.iter().all(|b| b.stats().processes_started == 2));
}

/// A player that counts the `sleep` processes under `dir` at each of its decisions.
struct Watch<'a> {
    inner: &'a mut CmdBot,
    dir: std::path::PathBuf,
    sleeps: usize,
}

impl Player for Watch<'_> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn start_hand(&mut self, seat: u8, seed: u64) -> Result<(), mahjong_bots::BotFault> {
        self.inner.start_hand(seat, seed)
    }
    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> mahjong_bots::Reply {
        let reply = self.inner.decide(view, legal);
        self.sleeps = self.sleeps.max(
            processes_in(&self.dir)
                .iter()
                .filter(|p| {
                    std::fs::read_to_string(format!("/proc/{p}/comm"))
                        .is_ok_and(|c| c.trim() == "sleep")
                })
                .count(),
        );
        reply
    }
    fn end_hand(&mut self, view: &View<'_>) {
        self.inner.end_hand(view)
    }
}

#[test]
fn nothing_a_program_started_outlives_its_hand() {
    let dir = tempfile::tempdir().unwrap();
    let config = CmdBotConfig {
        workdir: WorkDir::At(dir.path().to_path_buf()),
        ..config()
    };
    config.sandbox.prepare_workdir(dir.path()).unwrap();
    // The test bot's path is an argument of its own, so that the sandbox lets it be read.
    let bot = testbot().display().to_string();
    let args = ["-c", "sleep 1000 & exec \"$0\"", &bot];
    let mut bots: Vec<CmdBot> = (0..4)
        .map(|_| CmdBot::new(CmdSpec::new("sh", args), config.clone()))
        .collect();
    let [a, b, c, d] = &mut bots[..] else {
        unreachable!()
    };
    let mut watched = Watch {
        inner: a,
        dir: dir.path().to_path_buf(),
        sleeps: 0,
    };
    let record = play(&Deal::from_seed(5), &mut [&mut watched, b, c, d]);
    assert!(record.verdicts.is_empty(), "{:?}", record.verdicts);
    assert!(
        watched.sleeps > 0,
        "the programs' children ran during the hand"
    );
    assert!(
        eventually(|| processes_in(dir.path()).is_empty()),
        "left running: {:?}",
        processes_in(dir.path())
    );
}
