//! Helpers shared by the integration tests: the test bot, hands of programs played on the one
//! runner (each program's lines kept), walls made to order.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use arena_games::mahjong::MahjongTable;
use arena_games::mahjong::program::MahjongProgram;
use arena_games::mahjong::replay::hand_record;
use arena_games::mahjong::spec::{MahjongSpec, contest_time, setup_of};
use arena_line::{Launch, Recorded};
use arena_table::run::{SeatPlan, TableSetup};
use arena_table::{ProgramSeat, TimeRules, play_blocking, v1};
use mahjong::{Deal, Reading, Rules, TILE_KINDS, Tile, Wall, parse_tiles};
use mahjong_bots::HandRecord;
use mahjong_line::{CmdSpec, Direction, TranscriptLine, WorkDir};

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

/// A program to seat: its command, where it runs, and how long it has to join.
#[derive(Clone, Debug)]
pub struct Program {
    pub cmd: CmdSpec,
    pub workdir: WorkDir,
    pub startup: Duration,
}

impl Program {
    /// `cmd` in a fresh working directory, with 5 s to join.
    pub fn new(cmd: CmdSpec) -> Program {
        Program {
            cmd,
            workdir: WorkDir::Fresh,
            startup: Duration::from_secs(5),
        }
    }

    /// The program in `dir` (made ready for the sandbox).
    pub fn at(mut self, dir: &std::path::Path) -> Program {
        Launch::default().sandbox.prepare_workdir(dir).unwrap();
        self.workdir = WorkDir::At(dir.to_path_buf());
        self
    }
}

/// The test bot with `args`.
pub fn testbot_with(args: &[&str]) -> Program {
    Program::new(CmdSpec::new(
        testbot().display().to_string(),
        args.iter().copied(),
    ))
}

/// The contest's time control with the hard cap at 1.5 s, so that a silent program costs a
/// test a second and a half, not five; a healthy test bot answers in milliseconds.
pub fn time() -> TimeRules {
    let tc = v1::TimeControl {
        hard_cap_ms: 1500,
        ..contest_time()
    };
    TimeRules::resolve(&tc, v1::PenaltyRounding::Nearest)
}

/// A hand played, and the lines each seat's program was sent and wrote.
pub struct Played {
    pub record: HandRecord,
    pub transcripts: [Vec<TranscriptLine>; 4],
}

impl Played {
    /// The lines seat `s` was sent.
    pub fn sent(&self, s: usize) -> Vec<String> {
        self.lines(s, Direction::ToBot)
    }

    /// The lines seat `s`'s program wrote (its greeting first).
    pub fn written(&self, s: usize) -> Vec<String> {
        self.lines(s, Direction::FromBot)
    }

    fn lines(&self, s: usize, direction: Direction) -> Vec<String> {
        self.transcripts[s]
            .iter()
            .filter(|l| l.direction == direction)
            .map(|l| l.text.clone())
            .collect()
    }
}

/// Plays `deal` (contest fans) with `programs[s]` in seat `s` on the one runner, refereed as
/// `arena mahjong match` referees a hand with programs ([`time`], play-on); panics if the
/// runner cannot play it (it must).
pub fn play(deal: &Deal, programs: [Program; 4]) -> Played {
    let logs: [Arc<Mutex<Vec<TranscriptLine>>>; 4] = Default::default();
    let seats: Vec<SeatPlan<MahjongTable>> = programs
        .into_iter()
        .enumerate()
        .map(|(s, p)| {
            let protocol = Recorded::new(Box::new(MahjongProgram::new(s as u8)), logs[s].clone());
            let launch = Launch {
                workdir: p.workdir,
                ..Launch::default()
            };
            let mut seat = ProgramSeat::new(p.cmd, launch, Box::new(protocol));
            seat.startup = p.startup;
            SeatPlan::Program(Box::new(seat))
        })
        .collect();
    let rules = Rules::default();
    let setup = TableSetup {
        table_id: "hand".into(),
        seed: 0,
        time: time(),
        policy: None,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let table = MahjongTable::new(&MahjongSpec { deal: *deal, rules });
    let table = play_blocking(&runtime, table, seats, &setup).expect("the hand is played");
    // The replay read back as the tools read any table's: the hand with its verdicts.
    let job = v1::TableJob {
        table_id: "hand".into(),
        game: "mahjong".into(),
        setup: Some(arena_proto::payload::pack(&setup_of(
            deal,
            Reading::Contest,
        ))),
        ..Default::default()
    };
    let (_, replay) = table.record(&job, "test").into_replay(Some(&job));
    let record = hand_record(&replay).expect("the replay reads back");
    let transcripts = logs.map(|l| l.lock().unwrap().clone());
    Played {
        record,
        transcripts,
    }
}

/// Four test bots with `args[s]` each.
pub fn testbots(args: [&[&str]; 4]) -> [Program; 4] {
    args.map(testbot_with)
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
