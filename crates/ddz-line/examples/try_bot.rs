//! Plays one game with a bot program against two random bots and prints every line exchanged,
//! for bot authors checking their program:
//!
//! ```sh
//! cargo run -p ddz-line --example try_bot -- 'cmd:python3 examples/ddz-python/simple_bot.py' [SEED] [SEAT]
//! ```

use std::process::ExitCode;

use arena_games::ddz::play::{self as runner, Buffers};
use ddz::{Deal, GameConfig, Seat};
use ddz_bots::{Bot, RandomBot};
use ddz_line::{CmdBot, CmdBotConfig};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(spec) = args.first() else {
        eprintln!("usage: try_bot 'cmd:PROGRAM [ARGS]' [SEED] [SEAT]");
        return ExitCode::FAILURE;
    };
    let seed: u64 = match args.get(1).map(|s| s.parse()).transpose() {
        Ok(seed) => seed.unwrap_or(1),
        Err(e) => {
            eprintln!("SEED must be a whole number: {e}");
            return ExitCode::FAILURE;
        }
    };
    let Some(seat) = args
        .get(2)
        .map_or(Some(0), |s| s.parse::<u8>().ok())
        .and_then(Seat::new)
    else {
        eprintln!("SEAT must be 0, 1 or 2");
        return ExitCode::FAILURE;
    };
    let config = CmdBotConfig {
        transcript: true,
        ..CmdBotConfig::default()
    };
    let mut program = match CmdBot::from_spec(spec, config) {
        Ok(bot) => bot,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut others = [RandomBot::new(seed), RandomBot::new(seed + 1)];
    let [a, b] = &mut others;
    let mut bots: [&mut dyn Bot; 3] = match seat.index() {
        0 => [&mut program, a, b],
        1 => [a, &mut program, b],
        _ => [a, b, &mut program],
    };
    let mut moves = Buffers::new();
    let game = runner::play_game(
        GameConfig::competition(),
        Deal::generate(seed, 0),
        seed,
        &mut bots,
        &mut moves,
    );
    let verdicts = bots[seat.index()].take_verdicts();
    program.shutdown();
    for line in program.transcript() {
        println!("{line}");
    }
    match game {
        Ok(g) => println!("outcome: {:?}", g.outcome()),
        Err(e) => println!("error: {e}"),
    }
    for v in &verdicts {
        println!("verdict {}: {}", v.kind.name(), v.reason);
    }
    if verdicts.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
