//! `arena table run` and `arena table submit`: one table, played here or by a running referee.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use arena_proto::v1;
use arena_referee::RefereeConfig;
use clap::{Args, Subcommand};

use super::flags::GameArg;
use super::print::print_replay;
use super::runtime;
use crate::client::{self, ClientAuth};

/// Table commands.
#[derive(Subcommand)]
pub enum TableCommand {
    /// Play one table (a Dou Dizhu game, or with `--game mahjong` a Mahjong hand) by hand and
    /// print its replay.
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
    /// The game.
    #[arg(long, value_enum, default_value = "dou-dizhu")]
    pub(super) game: GameArg,
    /// The seats' bots in seat order, comma-separated: three for Dou Dizhu (default
    /// expert,seed,random), four for Mahjong (default expert,greedy,greedy,random). Built-in
    /// names run in-process; others via bot-host.
    #[arg(long)]
    pub(super) seats: Option<String>,
    /// Dou Dizhu: the deal (`hand0/hand1/hand2/bottom`); default: deal 0 of --seed.
    #[arg(long)]
    pub(super) deal: Option<String>,
    /// Seed of the deal stream (Mahjong: of the wall and the first seat) and of the bots.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Dou Dizhu: bid first from this seat instead of a fixed landlord in seat 0.
    #[arg(long)]
    pub(super) bidding: Option<u32>,
    /// Dou Dizhu: the scoring mode (competition, difficulty, adp or wp; default competition).
    #[arg(long)]
    pub(super) scoring: Option<String>,
    /// Per-decision limit (milliseconds): Dou Dizhu's every decision, Mahjong's turns (an
    /// answer to a discard has the contest's 500 ms). No answer within five times it is a
    /// timeout verdict.
    #[arg(long, default_value_t = 1000)]
    pub(super) decision_ms: u32,
    /// bot-host address for non-built-in seats.
    #[arg(long = "bot-host", value_delimiter = ',')]
    pub(super) bot_hosts: Vec<String>,
}

/// The job `arena table run` plays.
pub fn table_job(a: &TableRunArgs) -> Result<v1::TableJob> {
    if a.game == GameArg::Mahjong {
        return mahjong_table_job(a);
    }
    let seats: Vec<String> =
        crate::compete_cmd::split_tables(a.seats.as_deref().unwrap_or("expert,seed,random"));
    if seats.len() != 3 {
        bail!("--seats needs three bots, got {}", seats.len());
    }
    let deal = match &a.deal {
        Some(d) => d
            .parse::<ddz::Deal>()
            .with_context(|| format!("--deal {d:?}"))?,
        None => ddz::Deal::generate(a.seed, 0),
    };
    let landlord = match a.bidding {
        Some(first) => ddz_pb::setup::Landlord::FirstBidder(first),
        None => ddz_pb::setup::Landlord::FixedLandlord(0),
    };
    Ok(v1::TableJob {
        table_id: format!("manual-{}-{}", a.seed, std::process::id()),
        game: "ddz".into(),
        seats: seats.into_iter().map(|bot| v1::SeatSpec { bot }).collect(),
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            deal: deal.to_string(),
            rules: "competition".into(),
            landlord: Some(landlord),
            fixed_bid: 1,
            doubling: a.bidding.is_some(),
            scoring: a.scoring.clone().unwrap_or_else(|| "competition".into()),
            ..Default::default()
        })),
        time: Some(v1::TimeControl {
            decision_ms: a.decision_ms,
            hard_cap_ms: 5 * a.decision_ms,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: a.seed,
        ..Default::default()
    })
}

/// The Mahjong hand `arena table run --game mahjong` plays: the wall and first seat of
/// `--seed`, the contest's fans, the contest's clock (penalty points for overruns) with
/// `--decision-ms` for turns, and faulty seats playing on.
pub(super) fn mahjong_table_job(a: &TableRunArgs) -> Result<v1::TableJob> {
    for (flag, given) in [
        ("--deal", a.deal.is_some()),
        ("--bidding", a.bidding.is_some()),
        ("--scoring", a.scoring.is_some()),
    ] {
        if given {
            bail!("{flag} is for Dou Dizhu tables; a Mahjong hand is dealt from --seed");
        }
    }
    let seats: Vec<String> = crate::compete_cmd::split_tables(
        a.seats.as_deref().unwrap_or("expert,greedy,greedy,random"),
    );
    if seats.len() != 4 {
        bail!("--seats needs four bots for Mahjong, got {}", seats.len());
    }
    Ok(v1::TableJob {
        table_id: format!("manual-mahjong-{}-{}", a.seed, std::process::id()),
        game: "mahjong".into(),
        seats: seats.into_iter().map(|bot| v1::SeatSpec { bot }).collect(),
        setup: Some(arena_proto::payload::pack(&mahjong_pb::Setup::default())),
        time: Some(v1::TimeControl {
            decision_ms: a.decision_ms,
            hard_cap_ms: 5 * a.decision_ms,
            ..arena_games::mahjong::spec::contest_time()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: a.seed,
        ..Default::default()
    })
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
