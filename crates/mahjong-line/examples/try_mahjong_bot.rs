//! Plays one hand with a bot program in one seat against three built-in random bots and prints
//! every line exchanged, the verdicts and the scores, for bot authors checking their program:
//!
//! ```sh
//! cargo run -p mahjong-line --example try_mahjong_bot -- 'cmd:python3 examples/mahjong-python/simple_bot.py' [SEED] [SEAT]
//! ```
//!
//! The hand is played on the one runner, the program in a program seat under the contest's
//! time control, as `arena mahjong match` seats it.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use arena_games::mahjong::program::MahjongProgram;
use arena_games::mahjong::replay::hand_record;
use arena_games::mahjong::spec::{MahjongSpec, contest_time, setup_of};
use arena_games::mahjong::{MahjongBot, MahjongTable};
use arena_line::{CmdSpec, Launch, Recorded, WorkDir};
use arena_table::run::{Player, SeatPlan, TableSetup};
use arena_table::{ProgramSeat, TimeRules, play_blocking, v1};
use mahjong::{Deal, Reading, Rules};
use mahjong_bots::RandomBot;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(spec) = args.first() else {
        eprintln!("usage: try_mahjong_bot 'cmd:PROGRAM [ARGS]' [SEED] [SEAT]");
        return ExitCode::FAILURE;
    };
    let (Ok(seed), Ok(seat @ 0..=3)) = (
        args.get(1).map_or(Ok(1), |s| s.parse::<u64>()),
        args.get(2).map_or(Ok(0), |s| s.parse::<usize>()),
    ) else {
        eprintln!("SEED must be a whole number and SEAT one of 0 to 3");
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
    let protocol = Recorded::new(
        Box::new(MahjongProgram::new(seat as u8)),
        transcript.clone(),
    );
    let launch = Launch {
        workdir: WorkDir::Fresh,
        ..Launch::default()
    };
    let mut seats: Vec<SeatPlan<MahjongTable>> = (0..4)
        .map(|_| {
            SeatPlan::Local(Box::new(MahjongBot::with(RandomBot::new())) as Player<MahjongTable>)
        })
        .collect();
    seats[seat] = SeatPlan::Program(Box::new(ProgramSeat::new(cmd, launch, Box::new(protocol))));
    let deal = Deal::from_seed(seed);
    let setup = TableSetup {
        table_id: format!("try-mahjong-bot/{seed}"),
        seed: deal.fingerprint(),
        time: TimeRules::resolve(&contest_time(), v1::PenaltyRounding::Nearest),
        policy: None,
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
    let rules = Rules::default();
    let table = MahjongTable::new(&MahjongSpec { deal, rules });
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
    // The replay read back as every tool reads a table's: verdicts, penalties, scores.
    let job = v1::TableJob {
        table_id: setup.table_id.clone(),
        game: arena_games::mahjong::GAME.name().into(),
        setup: Some(arena_proto::payload::pack(&setup_of(
            &deal,
            Reading::Contest,
        ))),
        ..Default::default()
    };
    let (_, replay) = table.record(&job, "try").into_replay(Some(&job));
    let record = match hand_record(&replay) {
        Ok(r) => r,
        Err(e) => {
            println!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
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
