//! `arena table run` and `arena table submit`: one table, played here or by a running referee.

use std::time::Duration;

use anyhow::{Result, anyhow, bail};
use arena_proto::v1;
use arena_referee::RefereeConfig;
use clap::{Args, Subcommand};

use super::flags::GameArg;
use super::game_options::{GameOptions, TableFields};
use super::print::print_replay;
use super::runtime;
use crate::client::{self, ClientAuth};

/// Table commands.
#[derive(Subcommand)]
pub enum TableCommand {
    /// Play one table of a game (`--game`) by hand and print its replay.
    Run(TableRunArgs),
    /// Submit a table to a running referee (standalone or table-referee) and wait for its result.
    Submit(TableSubmitArgs),
}

#[derive(Args)]
pub struct TableSubmitArgs {
    #[command(flatten)]
    pub(super) table: TableRunArgs,
    /// The referee's gRPC address [default: the one the `arena standalone` of --data-dir wrote
    /// to its endpoints.json, else http://127.0.0.1:50051].
    #[arg(long, env = "ARENA_REFEREE")]
    pub(super) referee: Option<String>,
    /// How long to wait for the result (seconds).
    #[arg(long, default_value_t = 120)]
    pub(super) wait_secs: u64,
    #[command(flatten)]
    pub(super) auth: ClientAuth,
}

#[derive(Args)]
pub struct TableRunArgs {
    #[arg(long, value_parser = GameArg::parse, default_value_t, help = GameArg::help())]
    pub(super) game: GameArg,
    /// The seats' bots in seat order, comma-separated, one per seat of the game [default: the
    /// game's]. Built-in names run in-process; others via bot-host.
    #[arg(long)]
    pub(super) seats: Option<String>,
    /// Seed of the deal stream and of the bots.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Per-decision limit (milliseconds; the game's other limits are its defaults). No answer
    /// within five times it is a timeout verdict.
    #[arg(long, default_value_t = 1000)]
    pub(super) decision_ms: u32,
    /// bot-host address for non-built-in seats.
    #[arg(long = "bot-host", value_delimiter = ',')]
    pub(super) bot_hosts: Vec<String>,
    #[command(flatten)]
    pub(super) options: GameOptions<TableFields>,
}

/// A count in words, as messages about seats write it.
fn in_words(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// The job `arena table run` plays: the seats (the game's default ones when none are given), the
/// seed, `--decision-ms` over the game's clock with five times it as the hard cap, faulty seats
/// playing on, and the set-up the game makes of its options.
pub fn table_job(a: &TableRunArgs) -> Result<v1::TableJob> {
    let game = a.game.0;
    let seats: Vec<String> = match &a.seats {
        Some(s) => crate::compete_cmd::split_tables(s),
        None => game.default_seats(),
    };
    if seats.len() != game.seat_count() {
        bail!(
            "--seats needs {} bots for {}, got {}",
            in_words(game.seat_count()),
            game.title(),
            seats.len()
        );
    }
    // The default game's tables keep the ids they had before games were named in them.
    let table_id = if game == arena_games::GameKind::default_game() {
        format!("manual-{}-{}", a.seed, std::process::id())
    } else {
        format!("manual-{}-{}-{}", game.name(), a.seed, std::process::id())
    };
    let mut job = v1::TableJob {
        table_id,
        game: game.name().into(),
        seats: seats.into_iter().map(|bot| v1::SeatSpec { bot }).collect(),
        time: Some(v1::TimeControl {
            decision_ms: a.decision_ms,
            hard_cap_ms: 5 * a.decision_ms,
            ..game.default_time()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: a.seed,
        ..Default::default()
    };
    game.table_setup(&mut job, &a.options.given)
        .map_err(|e| anyhow!(e))?;
    Ok(job)
}

/// Runs `arena table …`.
pub fn table(cmd: TableCommand) -> Result<()> {
    match cmd {
        TableCommand::Run(a) => table_run(a),
        TableCommand::Submit(a) => table_submit(a),
    }
}

pub(super) fn table_submit(a: TableSubmitArgs) -> Result<()> {
    use v1::table_referee_client::TableRefereeClient;
    let job = table_job(&a.table)?;
    let rt = runtime()?;
    rt.block_on(async {
        let mut client = TableRefereeClient::new(
            client::connect(
                &a.auth
                    .address(a.referee.as_deref(), client::Role::Referee)?,
                client::Role::Referee,
                &a.auth,
            )
            .await?,
        );
        let id = job.table_id.clone();
        client
            .submit_table(v1::SubmitTableRequest {
                job: Some(job.clone()),
            })
            .await?;
        println!("submitted table {id}");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(a.wait_secs);
        loop {
            let req = v1::GetTableRequest {
                table_id: id.clone(),
            };
            match client.get_result(req.clone()).await {
                Ok(result) => {
                    let replay = client.get_replay(req).await?.into_inner();
                    print_replay(&job, &replay, &result.into_inner());
                    return Ok(());
                }
                Err(s)
                    if s.code() == tonic::Code::NotFound
                        && tokio::time::Instant::now() < deadline =>
                {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(s) => bail!("table {id}: {} ({:?})", s.message(), s.code()),
            }
        }
    })
}

pub(super) fn table_run(a: TableRunArgs) -> Result<()> {
    let job = table_job(&a)?;
    let rt = runtime()?;
    let config = RefereeConfig {
        bot_hosts: a.bot_hosts.clone(),
        ..RefereeConfig::default()
    };
    let (result, replay) = rt
        .block_on(arena_referee::run_table(&job, &config, None))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    print_replay(&job, &replay, &result);
    Ok(())
}
