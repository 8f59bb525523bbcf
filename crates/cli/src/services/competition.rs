//! `arena competition …`: the matchmaker's client (create and watch, standings, list, cancel,
//! replays).

use anyhow::{Context, Result, bail};
use arena_proto::v1;
use clap::{Args, Subcommand};

use super::competition_spec::CompetitionCreateArgs;
use super::print::{print_replay, print_standings};
use super::runtime;
use crate::client::{self, ClientAuth, status};

/// `arena competition …`: a client of the matchmaker.
#[derive(Subcommand)]
pub enum CompetitionCommand {
    /// Create a competition, then watch it until its final standings.
    Create(Box<CompetitionCreateArgs>),
    /// Print a competition's standings (final or so far).
    Standings(CompetitionNameArgs),
    /// List every competition with its state and progress.
    List(MatchmakerAddr),
    /// Cancel a running competition (tables already queued still play; standings stay readable).
    Cancel(CompetitionNameArgs),
    /// Export every finished table's replay of a competition as length-delimited
    /// `arena.v1.Replay` protobuf messages (`--out`), and for a Mahjong competition as the 2015
    /// server's hand logs (`--log-dir`).
    Replays(CompetitionReplaysArgs),
    /// Print one table's replay (any table: a competition's, a ladder pair's, a submitted one);
    /// a Mahjong table's hand is printed in the 2015 server's log format; `--json` prints it
    /// as JSON.
    Replay(TableReplayArgs),
}

/// The matchmaker's address alone.
#[derive(Args)]
pub struct MatchmakerAddr {
    /// The matchmaker's address [default: the one the `arena standalone` of --data-dir wrote to
    /// its endpoints.json, else http://127.0.0.1:50054].
    #[arg(long, env = "ARENA_MATCHMAKER")]
    pub(super) matchmaker: Option<String>,
    #[command(flatten)]
    pub(super) auth: ClientAuth,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("to").required(true).multiple(true).args(["out", "log_dir"])))]
pub struct CompetitionReplaysArgs {
    /// The competition.
    pub(super) name: String,
    /// The file to write the replays to, length-delimited `arena.v1.Replay` messages (created
    /// or truncated).
    #[arg(long)]
    pub(super) out: Option<std::path::PathBuf>,
    /// Mahjong: write every hand as the 2015 server's log under this directory, as `arena
    /// mahjong match --log-dir` does (`match-M/hand-HH.log`, `hands.jsonl`, `scores.csv`).
    #[arg(long)]
    pub(super) log_dir: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(super) addr: MatchmakerAddr,
}

#[derive(Args)]
pub struct TableReplayArgs {
    /// The table id (e.g. `cup/m0/r3/t1`, `ladder/p12/a`, `mj/m0/g2/r1/d3`).
    pub(super) table_id: String,
    /// Mahjong: print only the hand's log in the 2015 server's format.
    #[arg(long)]
    pub(super) log: bool,
    /// Print the whole replay as one line of JSON (the protocol's canonical JSON mapping, as the
    /// SDKs' replay readers write each replay of an export).
    #[arg(long, conflicts_with = "log")]
    pub(super) json: bool,
    #[command(flatten)]
    pub(super) addr: MatchmakerAddr,
}

#[derive(Args)]
pub struct CompetitionNameArgs {
    /// The competition.
    pub(super) name: String,
    #[command(flatten)]
    pub(super) addr: MatchmakerAddr,
}

/// Runs `arena competition …`.
pub fn competition(cmd: CompetitionCommand) -> Result<()> {
    use tokio_stream::StreamExt;
    let rt = runtime()?;
    rt.block_on(async {
        match cmd {
            CompetitionCommand::Create(a) => {
                let mut client = connect(&a.addr).await?;
                let spec = a.spec()?;
                let request = || v1::CreateCompetitionRequest {
                    spec: Some(spec.clone()),
                };
                let comp = match client.create_competition(request()).await {
                    Ok(c) => c.into_inner(),
                    // A measured format short of deals: the deal library finds the missing ones
                    // (as `arena compete` does on its own store), then the matchmaker plans.
                    Err(s)
                        if !a.no_find
                            && s.code() == tonic::Code::FailedPrecondition
                            && s.message().contains(arena_deals::wanted::NOT_ENOUGH_DEALS) =>
                    {
                        let library = a
                            .addr
                            .auth
                            .address(a.library.library.as_deref(), client::Role::DealLibrary)?;
                        crate::library_client::prepare(&library, &a.addr.auth, &spec)
                            .await
                            .with_context(|| {
                                format!(
                                    "{} lacks measured deals; asking the deal library at {library} \
                                     for them (--library URL names another, --no-find fails \
                                     instead)",
                                    a.name
                                )
                            })?;
                        client
                            .create_competition(request())
                            .await
                            .map_err(status)?
                            .into_inner()
                    }
                    Err(s) => return Err(status(s)),
                };
                // Registered before the competition is announced: a Ctrl-C from then on is
                // answered below, never by the default that ends the process without a word.
                let mut interrupts =
                    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
                        .context("listening for Ctrl-C")?;
                eprintln!(
                    "competition {} created: {} tables",
                    a.name, comp.tables_total
                );
                for w in &comp.warnings {
                    eprintln!("WARNING: {w}");
                }
                let mut stream = client
                    .watch_competition(v1::CompetitionRequest {
                        name: a.name.clone(),
                    })
                    .await?
                    .into_inner();
                let mut last = None;
                loop {
                    let s = tokio::select! {
                        s = stream.next() => s,
                        _ = interrupts.recv() => {
                            eprintln!();
                            return Err(crate::report::Interrupted(format!(
                                "stopped following {name}; the competition goes on at the \
                                 matchmaker: `arena competition list` shows its progress, \
                                 `arena competition standings {name}` its standings, `arena \
                                 competition cancel {name}` stops it",
                                name = a.name
                            ))
                            .into());
                        }
                    };
                    let Some(s) = s else { break };
                    let s = s.map_err(status)?;
                    eprint!("\r{}/{} tables", s.tables_done, s.tables_total);
                    let done = s.r#final;
                    last = Some(s);
                    if done {
                        break;
                    }
                }
                eprintln!();
                if let Some(s) = last {
                    print_standings(&s);
                }
            }
            CompetitionCommand::Standings(a) => {
                let mut client = connect(&a.addr).await?;
                let s = client
                    .get_standings(v1::CompetitionRequest {
                        name: a.name.clone(),
                    })
                    .await
                    .map_err(status)?
                    .into_inner();
                print_standings(&s);
            }
            CompetitionCommand::List(a) => {
                let list = connect(&a)
                    .await?
                    .list_competitions(v1::ListCompetitionsRequest {})
                    .await
                    .map_err(status)?
                    .into_inner();
                if list.competitions.is_empty() {
                    println!("no competitions");
                }
                for c in &list.competitions {
                    let spec = c.spec.clone().unwrap_or_default();
                    println!(
                        "{}  {}  {}  {}/{} tables  {} participants",
                        spec.name,
                        spec.format,
                        c.state,
                        c.tables_done,
                        c.tables_total,
                        spec.participants.len()
                    );
                }
            }
            CompetitionCommand::Cancel(a) => {
                let c = connect(&a.addr)
                    .await?
                    .cancel_competition(v1::CompetitionRequest {
                        name: a.name.clone(),
                    })
                    .await
                    .map_err(status)?
                    .into_inner();
                println!(
                    "{} {}: {}/{} tables played",
                    a.name, c.state, c.tables_done, c.tables_total
                );
            }
            CompetitionCommand::Replays(a) => {
                use prost::Message;
                use std::io::Write;
                let mut client = connect(&a.addr).await?;
                let mut stream = client
                    .export_replays(v1::CompetitionRequest {
                        name: a.name.clone(),
                    })
                    .await
                    .map_err(status)?
                    .into_inner();
                let mut out = match &a.out {
                    Some(path) => Some(std::io::BufWriter::new(
                        std::fs::File::create(path)
                            .with_context(|| format!("creating {}", path.display()))?,
                    )),
                    None => None,
                };
                let mut kept = Vec::new();
                let mut n = 0u64;
                while let Some(replay) = stream.next().await {
                    let replay = replay.map_err(status)?;
                    if let (Some(out), Some(path)) = (out.as_mut(), &a.out) {
                        out.write_all(&replay.encode_length_delimited_to_vec())
                            .with_context(|| format!("writing {}", path.display()))?;
                    }
                    if a.log_dir.is_some() {
                        kept.push(replay);
                    }
                    n += 1;
                }
                if let (Some(mut out), Some(path)) = (out, &a.out) {
                    out.flush()
                        .with_context(|| format!("writing {}", path.display()))?;
                    println!("{n} replays of {} written to {}", a.name, path.display());
                }
                if let Some(dir) = &a.log_dir {
                    let comp = client
                        .get_competition(v1::CompetitionRequest {
                            name: a.name.clone(),
                        })
                        .await
                        .map_err(status)?
                        .into_inner();
                    let spec = comp.spec.unwrap_or_default();
                    let Some(printer) = super::print::printer_of(&spec.game) else {
                        bail!(
                            "--log-dir: {} is a competition of a game without logs of its own",
                            a.name
                        );
                    };
                    let hands = printer.write_logs(dir, &spec, &kept)?;
                    println!(
                        "{hands} hand logs of {} written under {}{}",
                        a.name,
                        dir.display(),
                        if spec.seed == 0 {
                            " (seeds are shown once the competition has finished)"
                        } else {
                            ""
                        }
                    );
                }
            }
            CompetitionCommand::Replay(a) => {
                let mut client = connect(&a.addr).await?;
                let replay = client
                    .get_replay(v1::GetTableRequest {
                        table_id: a.table_id.clone(),
                    })
                    .await
                    .map_err(status)?
                    .into_inner();
                let job = replay.job.clone().unwrap_or_default();
                if a.json {
                    println!("{}", arena_proto::json::replay(&replay));
                } else if let Some(printer) = super::print::printer_of(&job.game) {
                    // A competition's table is printed with its participants and seeds.
                    let spec = if job.competition.is_empty() {
                        None
                    } else {
                        client
                            .get_competition(v1::CompetitionRequest {
                                name: job.competition.clone(),
                            })
                            .await
                            .ok()
                            .and_then(|c| c.into_inner().spec)
                    };
                    printer.print_replay(&replay, spec.as_ref(), a.log);
                } else {
                    let result = replay.result.clone().unwrap_or_default();
                    print_replay(&job, &replay, &result);
                }
            }
        }
        Ok(())
    })
}

/// A matchmaker client sending the operator token of `addr`.
pub(super) async fn connect(
    addr: &MatchmakerAddr,
) -> Result<v1::matchmaker_client::MatchmakerClient<client::Authed>> {
    Ok(v1::matchmaker_client::MatchmakerClient::new(
        client::connect(
            &addr
                .auth
                .address(addr.matchmaker.as_deref(), client::Role::Matchmaker)?,
            client::Role::Matchmaker,
            &addr.auth,
        )
        .await?,
    ))
}
