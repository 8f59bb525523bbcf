//! Plays one game with a bot program against two random bots and prints every line exchanged,
//! for bot authors checking their program:
//!
//! ```sh
//! cargo run -p ddz-line --example try_bot -- 'cmd:python3 examples/ddz-python/simple_bot.py' [SEED] [SEAT]
//! ```
//!
//! The game is played on the one runner, the program in a program seat as `arena ddz match`
//! seats it (1 s per decision, cut off at 2 s), its seat played automatically after a fault.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use arena_games::ddz::program::DdzProgram;
use arena_games::ddz::{DdzBot, DdzTable};
use arena_line::{CmdSpec, Launch, Recorded, verdict_name};
use arena_table::run::{Player, SeatPlan, TableSetup};
use arena_table::{Policy, ProgramSeat, TimeRules, play_blocking, v1, whole_reason};
use ddz::{Deal, Game, GameConfig, Scoring, Seat};
use ddz_bots::RandomBot;

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
    let cmd = match CmdSpec::parse(spec) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let transcript = Arc::new(Mutex::new(Vec::new()));
    let protocol = Recorded::new(Box::new(DdzProgram::default()), transcript.clone());
    let mut seats: Vec<SeatPlan<DdzTable>> = (0..3u64)
        .map(|s| {
            let bot = DdzBot::from_bot(Box::new(RandomBot::new(seed + s)), false);
            SeatPlan::Local(Box::new(bot) as Player<DdzTable>)
        })
        .collect();
    seats[seat.index()] = SeatPlan::Program(Box::new(ProgramSeat::new(
        cmd,
        Launch::default(),
        Box::new(protocol),
    )));
    let table = DdzTable::from_game(
        Game::new(GameConfig::competition(), Deal::generate(seed, 0), seed),
        Scoring::Competition,
    );
    let setup = TableSetup {
        table_id: format!("try-bot/{seed}"),
        seed,
        time: TimeRules {
            decision_ms: 1000,
            claim_ms: 1000,
            hard_cap_ms: 2000,
            ..TimeRules::default()
        },
        policy: Some(Policy::PlayOn),
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let played = play_blocking(&runtime, table, seats, &setup);
    for line in transcript.lock().unwrap_or_else(|p| p.into_inner()).iter() {
        println!("{line}");
    }
    let table = match played {
        Ok(t) => t,
        Err(e) => {
            println!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("outcome: {:?}", table.game().game().outcome());
    for v in table.verdicts() {
        let reason = whole_reason(v);
        let kind = v1::VerdictKind::try_from(v.kind).map_or("unknown", verdict_name);
        println!("verdict {kind}: {reason}");
    }
    if table.verdicts().is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
