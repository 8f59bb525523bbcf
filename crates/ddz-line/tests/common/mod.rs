//! Helpers shared by the integration tests: paths to the Python bots and a game loop.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use arena_games::ddz::play::{self as runner, Buffers};
use ddz::{Deal, Game, GameConfig, MoveList, Observation, Seat};
use ddz_bots::{Bot, Verdict};
use ddz_line::{CmdBot, CmdBotConfig, Direction};

/// `examples/ddz-python/simple_bot.py` (a copy any sandboxed program may read).
pub fn simple_bot() -> PathBuf {
    readable_copy(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/ddz-python/simple_bot.py"),
    )
}

/// `tests/bots/faulty_bot.py` (a copy any sandboxed program may read).
pub fn faulty_bot() -> PathBuf {
    readable_copy(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/bots/faulty_bot.py"))
}

pub use arena_testkit::readable_copy;

/// A `cmd:` spec running `script` with python3 and `args`.
pub fn python(script: PathBuf, args: &[&str]) -> String {
    let mut words = vec!["python3".to_string(), script.display().to_string()];
    words.extend(args.iter().map(|a| a.to_string()));
    format!("cmd:{}", shell_join(&words))
}

fn shell_join(words: &[String]) -> String {
    words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Short deadlines so that fault tests stay fast, with a grace that a healthy program on a
/// loaded machine never runs out of; the transcript on.
pub fn fast_config() -> CmdBotConfig {
    CmdBotConfig {
        bid_deadline: Duration::from_millis(200),
        play_deadline: Duration::from_millis(200),
        grace: Duration::from_millis(800),
        startup_timeout: Duration::from_millis(5000),
        transcript: true,
        ..CmdBotConfig::default()
    }
}

/// A `CmdBot` for `spec` with `config`.
pub fn cmd_bot(spec: &str, config: CmdBotConfig) -> CmdBot {
    CmdBot::from_spec(spec, config).expect("valid spec")
}

/// Plays game `seed` (deal `seed`/0) to the end; panics if the runner refuses an action,
/// which a `CmdBot` must never cause.
pub fn play(config: GameConfig, seed: u64, bots: &mut [&mut dyn Bot; 3]) -> Game {
    let mut moves = Buffers::new();
    let game = runner::play_game(config, Deal::generate(seed, 0), seed, bots, &mut moves)
        .unwrap_or_else(|e| panic!("game {seed}: {e}"));
    assert!(game.outcome().is_some(), "game {seed} did not finish");
    game
}

/// Every verdict of every seat, by seat.
pub fn verdicts(bots: &mut [&mut dyn Bot; 3]) -> [Vec<Verdict>; 3] {
    [0, 1, 2].map(|i| bots[i].take_verdicts())
}

/// The process ids a bot printed as `# pid N` / `# child N` comments.
pub fn printed_pids(bot: &CmdBot, label: &str) -> Vec<u32> {
    let prefix = format!("# {label} ");
    bot.transcript()
        .iter()
        .filter(|l| l.direction == Direction::FromBot)
        .filter_map(|l| l.text.strip_prefix(&prefix)?.trim().parse().ok())
        .collect()
}

/// The process ids a bot started, from its transcript notes.
pub fn started_pids(bot: &CmdBot) -> Vec<u32> {
    bot.transcript()
        .iter()
        .filter(|l| l.direction == Direction::Note)
        .filter_map(|l| {
            let rest = l.text.strip_prefix("process ")?;
            let (pid, what) = rest.split_once(' ')?;
            what.starts_with("started").then(|| pid.parse().ok())?
        })
        .collect()
}

/// True once process `pid` no longer exists (waiting up to a second for it to go). With
/// `allow_zombie`, a zombie counts as gone: a killed grandchild is reaped by init, not by us.
pub fn process_gone(pid: u32, allow_zombie: bool) -> bool {
    for _ in 0..100 {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(stat) => {
                let state = stat.rsplit(") ").next().and_then(|s| s.chars().next());
                if allow_zombie && state == Some('Z') {
                    return true;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

/// The living processes whose working directory is `dir` (a directory of a test's own, so
/// that a sandboxed program's processes can be found from outside its PID namespace).
pub fn processes_in(dir: &std::path::Path) -> Vec<u32> {
    let dir = dir.canonicalize().expect("the directory exists");
    std::fs::read_dir("/proc")
        .expect("/proc is readable")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd == dir)
                && !process_gone_now(*pid)
        })
        .collect()
}

fn process_gone_now(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit(") ")
            .next()
            .is_some_and(|s| s.starts_with('Z') || s.starts_with('X'))
    })
}

/// Polls `f` every 20 ms until it holds, for at most 20 s; whether it held.
pub fn eventually(mut f: impl FnMut() -> bool) -> bool {
    let until = std::time::Instant::now() + Duration::from_secs(20);
    while std::time::Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    f()
}

/// A bot that always calls 1 when it may (so the next seat faces a bid of 1), never doubles and
/// plays the first legal move.
pub struct CallsOne;

impl Bot for CallsOne {
    fn name(&self) -> String {
        "calls-one".into()
    }
    fn new_game(&mut self, _seed: u64) {}
    fn bid(&mut self, obs: &Observation<'_>) -> u8 {
        if obs.bid == 0 { 1 } else { 0 }
    }
    fn double(&mut self, _obs: &Observation<'_>) -> bool {
        false
    }
    fn play(&mut self, _obs: &Observation<'_>, legal: &MoveList) -> ddz::Move {
        legal[0]
    }
}

/// Seat `i`.
pub fn seat(i: u8) -> Seat {
    Seat::new(i).expect("seat 0..2")
}

/// A bot that thinks for a while before its first play of each game.
pub struct Slow<B> {
    bot: B,
    delay: Duration,
    played: bool,
}

impl<B> Slow<B> {
    /// `bot`, waiting `delay` before its first play of each game.
    pub fn new(bot: B, delay: Duration) -> Slow<B> {
        Slow {
            bot,
            delay,
            played: false,
        }
    }
}

impl<B: Bot> Bot for Slow<B> {
    fn name(&self) -> String {
        format!("slow:{}", self.bot.name())
    }
    fn new_game(&mut self, seed: u64) {
        self.played = false;
        self.bot.new_game(seed)
    }
    fn bid(&mut self, obs: &Observation<'_>) -> u8 {
        self.bot.bid(obs)
    }
    fn double(&mut self, obs: &Observation<'_>) -> bool {
        self.bot.double(obs)
    }
    fn play(&mut self, obs: &Observation<'_>, legal: &MoveList) -> ddz::Move {
        if !self.played {
            self.played = true;
            std::thread::sleep(self.delay);
        }
        self.bot.play(obs, legal)
    }
}
