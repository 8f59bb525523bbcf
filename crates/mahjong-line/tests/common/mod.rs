//! Helpers shared by the integration tests: the test bot, configurations, walls made to order
//! and a hand loop.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

use mahjong::{Deal, Rules, TILE_KINDS, Tile, Wall, parse_tiles};
use mahjong_bots::{HandRecord, Player, TimeLimits, play_hand};
use mahjong_line::{CmdBot, CmdBotConfig, CmdSpec, Direction};

pub use arena_testkit::readable_copy;

/// The test bot (`tests/bots/testbot.rs`), as a copy any sandboxed program may run. Copied
/// once per test process: overwriting a binary that another test runs fails ("text file
/// busy").
pub fn testbot() -> PathBuf {
    static COPY: OnceLock<PathBuf> = OnceLock::new();
    COPY.get_or_init(|| readable_copy(&PathBuf::from(env!("CARGO_BIN_EXE_mahjong-testbot"))))
        .clone()
}

/// `examples/mahjong-python/simple_bot.py` (a copy any sandboxed program may read).
pub fn simple_bot() -> PathBuf {
    readable_copy(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/mahjong-python/simple_bot.py"),
    )
}

/// The contest's limits (1 s, 0.5 s) with the hard cap at 1.5 s, so that a silent program
/// costs a test a second and a half, not five; a healthy test bot answers in milliseconds.
pub fn limits() -> TimeLimits {
    TimeLimits {
        hard_cap: Duration::from_millis(1500),
        ..TimeLimits::default()
    }
}

/// The contest set-up with [`limits`], a 5 s start-up and the transcript on.
pub fn config() -> CmdBotConfig {
    CmdBotConfig {
        time: limits(),
        transcript: true,
        ..CmdBotConfig::default()
    }
}

/// A `CmdBot` running the test bot with `args`.
pub fn testbot_with(args: &[&str], config: CmdBotConfig) -> CmdBot {
    CmdBot::new(
        CmdSpec::new(testbot().display().to_string(), args.iter().copied()),
        config,
    )
}

/// Plays `deal` with four players; panics if the driver panics (it must not).
pub fn play(deal: &Deal, players: &mut [&mut dyn Player; 4]) -> HandRecord {
    play_hand(deal, Rules::default(), limits(), players)
}

/// A wall made to order: `hands[s]` are seat `s`'s 13 tiles and `draws` the first tiles drawn,
/// in order (kong replacements included); the rest of the wall is the remaining tiles in kind
/// order. Panics if the tiles are not a part of one set of 136.
pub fn wall(hands: [&str; 4], draws: &str) -> Wall {
    wall_ending(hands, draws, "")
}

/// [`wall`], with `last` the last tiles drawn.
pub fn wall_ending(hands: [&str; 4], draws: &str, last: &str) -> Wall {
    let mut left = [4u8; TILE_KINDS];
    let mut tiles = Vec::with_capacity(136);
    for (s, h) in hands.iter().enumerate() {
        let h = parse_tiles(h).unwrap();
        assert_eq!(h.len(), 13, "seat {s} has {} tiles", h.len());
        tiles.extend(h);
    }
    tiles.extend(parse_tiles(draws).unwrap());
    let last = parse_tiles(last).unwrap();
    for t in tiles.iter().chain(&last) {
        left[t.index()] = left[t.index()]
            .checked_sub(1)
            .unwrap_or_else(|| panic!("more than four {t}"));
    }
    for (i, &n) in left.iter().enumerate() {
        tiles.extend(std::iter::repeat_n(
            Tile::from_index(i).unwrap(),
            usize::from(n),
        ));
    }
    tiles.extend(last);
    Wall::from_tiles(&tiles).unwrap()
}

/// The lines a bot was sent, from its transcript.
pub fn sent(bot: &CmdBot) -> Vec<String> {
    bot.transcript()
        .iter()
        .filter(|l| l.direction == Direction::ToBot)
        .map(|l| l.text.clone())
        .collect()
}

/// The host's notes, from a bot's transcript.
pub fn notes(bot: &CmdBot) -> Vec<String> {
    bot.transcript()
        .iter()
        .filter(|l| l.direction == Direction::Note)
        .map(|l| l.text.clone())
        .collect()
}

/// True once process `pid` no longer exists (waiting up to 20 s for it to go).
pub fn process_gone(pid: u32) -> bool {
    eventually(|| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
            stat.rsplit(") ").next().is_some_and(|s| s.starts_with('X'))
        })
    })
}

/// The living processes whose working directory is beneath `dir`.
pub fn processes_in(dir: &std::path::Path) -> Vec<u32> {
    let dir = dir.canonicalize().expect("the directory exists");
    std::fs::read_dir("/proc")
        .expect("/proc is readable")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd.starts_with(&dir))
                && std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                    stat.rsplit(") ")
                        .next()
                        .is_some_and(|s| !s.starts_with('Z') && !s.starts_with('X'))
                })
        })
        .collect()
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
