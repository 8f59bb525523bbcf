//! Plays one hand with a bot program in one seat against three built-in random bots and prints
//! every line exchanged, the verdicts and the scores, for bot authors checking their program:
//!
//! ```sh
//! cargo run -p mahjong-line --example try_mahjong_bot -- 'cmd:python3 examples/mahjong-python/simple_bot.py' [SEED] [SEAT]
//! ```

use std::process::ExitCode;

use mahjong::{Deal, Rules};
use mahjong_bots::{Player, RandomBot, TimeLimits, play_hand};
use mahjong_line::{CmdBot, CmdBotConfig};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(spec) = args.first() else {
        eprintln!("usage: try_mahjong_bot 'cmd:PROGRAM [ARGS]' [SEED] [SEAT]");
        return ExitCode::FAILURE;
    };
    let (Ok(seed), Ok(seat)) = (
        args.get(1).map_or(Ok(1), |s| s.parse::<u64>()),
        args.get(2).map_or(Ok(0), |s| s.parse::<usize>()),
    ) else {
        eprintln!("SEED must be a whole number and SEAT one of 0 to 3");
        return ExitCode::FAILURE;
    };
    let config = CmdBotConfig {
        transcript: true,
        ..CmdBotConfig::default()
    };
    let mut program = match CmdBot::from_spec(spec, config) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let mut others = [RandomBot::new(), RandomBot::new(), RandomBot::new()];
    let [a, b, c] = &mut others;
    let mut players: [&mut dyn Player; 4] = match seat {
        0 => [&mut program, a, b, c],
        1 => [a, &mut program, b, c],
        2 => [a, b, &mut program, c],
        3 => [a, b, c, &mut program],
        _ => {
            eprintln!("SEAT must be one of 0 to 3");
            return ExitCode::FAILURE;
        }
    };
    let record = play_hand(
        &Deal::from_seed(seed),
        Rules::default(),
        TimeLimits::default(),
        &mut players,
    );
    for line in program.transcript() {
        println!("{line}");
    }
    for v in &record.verdicts {
        println!("verdict: seat {} {}: {}", v.seat, v.kind, v.reason);
    }
    println!(
        "scores {:?} (penalties {:?}); {}",
        record.scores,
        record.penalties,
        match &record.outcome.win {
            Some(w) => format!(
                "seat {} won on {} worth {} fan",
                w.seat, w.tile, w.fans.total
            ),
            None => "drawn".into(),
        }
    );
    ExitCode::SUCCESS
}
