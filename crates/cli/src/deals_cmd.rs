//! `arena deals …`: the deal library.

use std::collections::HashSet;
use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, bail};
use arena_compete::parse_gdi;
use arena_deals::DdzPanel;
use arena_deals::levels::distance;
use arena_deals::{FindSpec, LibraryIndex, MeasureSpec, Progress, build_panel, describe};
use arena_store::DealSource;
use clap::{Args, Subcommand};
use ddz::{RuleSet, Scoring};
use serde_json::json;

use crate::store_args::{StoreArgs, runtime};
use arena_games::commands::progress;

/// Deal-library commands.
#[derive(Subcommand)]
pub enum DealsCommand {
    /// Measure the GDI of deals 0..N of a seeded stream (resumable: rerun to finish).
    Gdi(GdiArgs),
    /// List k measured deals within ε of a centre, skipping deals used by competitions.
    Query(QueryArgs),
    /// Generate and measure fresh deals until k lie within ε of a centre.
    Find(FindArgs),
    /// Summarise the measured GDI distribution of a panel.
    Stats(StatsArgs),
    /// Write measured deals as JSON lines or CSV.
    Export(ExportArgs),
    /// Read measured deals from JSON lines or CSV (format detected); with --game, deals kept
    /// unmeasured, one a line in the game's notation (Chinese Standard Mahjong's walls).
    Import(ImportArgs),
    /// Measure through a running deal-library service: GDI batches go to the job stream and any
    /// table-referee runs them.
    Measure(RemoteMeasureArgs),
}

#[derive(Args)]
pub struct RemoteMeasureArgs {
    /// The deal-library's gRPC address [default: the one the `arena standalone` of --data-dir
    /// wrote to its endpoints.json, else http://127.0.0.1:50053].
    #[arg(long, env = "ARENA_DEAL_LIBRARY")]
    library: Option<String>,
    #[command(flatten)]
    auth: crate::client::ClientAuth,
    /// Deals 0..COUNT of the stream.
    #[arg(long)]
    count: u64,
    /// Exactly this many bombs per deal.
    #[arg(long)]
    bombs: Option<u32>,
    /// Seed of the deal stream.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Deals per GDI batch job.
    #[arg(long, default_value_t = 200)]
    batch: u32,
    #[command(flatten)]
    panel: PanelArgs,
    /// End by printing one JSON object.
    #[arg(long)]
    json: bool,
}

/// The measuring panel.
#[derive(Args, Clone, Debug)]
pub struct PanelArgs {
    /// Landlord bots: `ladder:N` or a comma-separated list of bot names.
    #[arg(long, default_value = "ladder:70")]
    pub panel: String,
    /// The bot in both farmer seats.
    #[arg(long, default_value = "expert")]
    pub farmers: String,
    /// Scoring mode that defines the levels.
    #[arg(long, default_value = "difficulty")]
    pub scoring: Scoring,
}

impl PanelArgs {
    /// The panel these flags name.
    pub fn panel(&self) -> Result<DdzPanel> {
        Ok(build_panel(
            &self.panel,
            &self.farmers,
            &self.farmers,
            self.scoring,
        )?)
    }
}

#[derive(Args)]
pub struct GdiArgs {
    /// Deals 0..COUNT of the stream.
    #[arg(long)]
    count: u64,
    /// Exactly this many bombs (rocket included) per deal.
    #[arg(long)]
    bombs: Option<u8>,
    /// Seed of the deal stream.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    panel: PanelArgs,
    #[command(flatten)]
    store: StoreArgs,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Deals per store write.
    #[arg(long, default_value_t = 500)]
    batch: usize,
    /// End by printing one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct QueryArgs {
    /// Target GDI, e.g. 0.96,0.91,0.79.
    #[arg(long)]
    centre: String,
    /// Radius.
    #[arg(long, default_value_t = 0.15)]
    eps: f64,
    /// How many deals.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// Include deals already used by a competition.
    #[arg(long)]
    include_used: bool,
    #[command(flatten)]
    panel: PanelArgs,
    #[command(flatten)]
    store: StoreArgs,
    /// Print JSON lines (one record per line).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct FindArgs {
    /// Target GDI, e.g. 0.96,0.91,0.79.
    #[arg(long)]
    centre: String,
    /// Radius.
    #[arg(long, default_value_t = 0.15)]
    eps: f64,
    /// How many deals to find.
    #[arg(long, default_value_t = 20)]
    count: usize,
    /// Exactly this many bombs per deal (the GDI dimension is 2 × (bombs + 1) − 1).
    #[arg(long, default_value_t = 1)]
    bombs: u8,
    /// Seed of the fresh deal stream.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Give up after trying this many deals.
    #[arg(long, default_value_t = 1_000_000)]
    max_tries: u64,
    #[command(flatten)]
    panel: PanelArgs,
    #[command(flatten)]
    store: StoreArgs,
    /// Ask the running deal library at this address (e.g. `arena standalone`'s,
    /// http://127.0.0.1:50053) to generate them, from a secret seed, instead of opening the store.
    #[arg(long)]
    library: Option<String>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct StatsArgs {
    #[command(flatten)]
    panel: PanelArgs,
    #[command(flatten)]
    store: StoreArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct ExportArgs {
    /// jsonl or csv.
    #[arg(long, default_value = "jsonl")]
    format: String,
    /// Output file (default: stdout).
    #[arg(long)]
    out: Option<PathBuf>,
    #[command(flatten)]
    panel: PanelArgs,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    library: LibraryChoice,
}

#[derive(Args)]
pub struct ImportArgs {
    /// A JSON-lines or CSV file written by `arena deals export`; with --game, one deal a line
    /// in the game's notation (blank lines and lines starting with # are skipped).
    file: PathBuf,
    /// Import deals of this game that the library keeps without a measured difficulty (mcr:
    /// Botzone walltiles, 144 tiles or 136 without flowers, one wall a line), each checked;
    /// a bad line is refused naming its number and problem, and nothing is imported.
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    library: LibraryChoice,
}

/// Whether a command goes through a running deal library instead of opening the store.
#[derive(Args)]
pub struct LibraryChoice {
    /// Go through the running deal library at this address (e.g. `arena standalone`'s,
    /// http://127.0.0.1:50053) instead of opening the store. When the embedded store is held by
    /// a running arena, the deal library at ARENA_DEAL_LIBRARY (default: the one that arena wrote
    /// to the data directory's endpoints.json) is used without this flag.
    #[arg(long)]
    library: Option<String>,
}

/// Where a store command runs: on the store it opens, or through a deal library.
enum Target {
    Store(Arc<dyn arena_store::Store>),
    Library(Box<crate::library_client::Client>, String),
}

impl LibraryChoice {
    /// The store of `store`, or the deal library: the one given, or the default one when the
    /// embedded store is held by a running arena.
    async fn target(&self, store: &StoreArgs) -> Result<Target> {
        let auth = crate::client::ClientAuth {
            data_dir: store.data_dir.clone(),
        };
        if let Some(url) = &self.library {
            let client = crate::library_client::connect(url, &auth).await?;
            return Ok(Target::Library(Box::new(client), url.clone()));
        }
        match store.open().await {
            Ok(s) => Ok(Target::Store(s)),
            Err(e) if crate::bots_cmd::in_use(&e) => {
                let url = auth.address(
                    std::env::var("ARENA_DEAL_LIBRARY").ok().as_deref(),
                    crate::client::Role::DealLibrary,
                )?;
                eprintln!(
                    "{} is held by a running arena; going through the deal library at {url} \
                     (--library URL names another)",
                    store.data_dir.display()
                );
                let client = crate::library_client::connect(&url, &auth)
                    .await
                    .with_context(|| {
                        format!(
                            "{}, and no deal library answers at {url}: is `arena standalone` \
                             running? --library URL names its deal library",
                            crate::report::chain(&e)
                        )
                    })?;
                Ok(Target::Library(Box::new(client), url))
            }
            Err(e) => Err(e),
        }
    }
}

/// Runs a `deals` subcommand.
pub fn run(cmd: DealsCommand) -> Result<()> {
    let rt = runtime()?;
    match cmd {
        DealsCommand::Gdi(a) => gdi(&rt, a),
        DealsCommand::Query(a) => rt.block_on(query(a)),
        DealsCommand::Find(a) => find(&rt, a),
        DealsCommand::Stats(a) => rt.block_on(stats(a)),
        DealsCommand::Export(a) => rt.block_on(export(a)),
        DealsCommand::Import(a) => rt.block_on(import(a)),
        DealsCommand::Measure(a) => rt.block_on(remote_measure(a)),
    }
}

pub(crate) fn threads(t: Option<usize>) -> usize {
    t.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// A stop flag set by Ctrl-C, so long work stops cleanly and keeps what it finished. The handler
/// lives as long as the value: dropped, a later Ctrl-C is no longer read as "finish the deals".
pub(crate) struct StopOnCtrlC {
    stop: Arc<AtomicBool>,
    handler: Option<tokio::task::JoinHandle<()>>,
}

impl std::ops::Deref for StopOnCtrlC {
    type Target = Arc<AtomicBool>;

    fn deref(&self) -> &Arc<AtomicBool> {
        &self.stop
    }
}

impl Drop for StopOnCtrlC {
    fn drop(&mut self) {
        if let Some(h) = &self.handler {
            h.abort();
        }
    }
}

/// SIGINT, read through `rt`. Registered now, on the caller's thread, not when a task first
/// reads it (a current-thread runtime runs tasks only inside `block_on`): a Ctrl-C from this
/// point on is the caller's, never the default that ends the process without a word.
fn interrupts(rt: &tokio::runtime::Runtime) -> Option<tokio::signal::unix::Signal> {
    let _entered = rt.enter();
    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt()).ok()
}

/// Ctrl-C sets the returned stop flag; a second Ctrl-C ends the process (exit 130).
pub(crate) fn stop_on_ctrl_c(rt: &tokio::runtime::Runtime) -> StopOnCtrlC {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let Some(mut interrupts) = interrupts(rt) else {
        return StopOnCtrlC {
            stop,
            handler: None,
        };
    };
    let handler = rt.spawn(async move {
        if interrupts.recv().await.is_some() {
            eprintln!(
                "\nstopping: finishing the deals in progress and saving (Ctrl-C again to abort)"
            );
            flag.store(true, Ordering::Relaxed);
            if interrupts.recv().await.is_some() {
                std::process::exit(130);
            }
        }
    });
    StopOnCtrlC {
        stop,
        handler: Some(handler),
    }
}

/// From now on the first Ctrl-C ends the process at once (exit 130) after printing `message`:
/// for work that keeps nothing when stopped, so there is nothing to finish first. Read on a
/// thread of its own, since the work may hold the caller's thread without running its runtime.
pub(crate) fn exit_on_ctrl_c(message: String) {
    let Ok(rt) = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
    else {
        return;
    };
    let Some(mut interrupts) = interrupts(&rt) else {
        return;
    };
    std::thread::spawn(move || {
        rt.block_on(async {
            if interrupts.recv().await.is_some() {
                eprintln!("\n{message}");
                std::process::exit(130);
            }
        });
    });
}

fn gdi(rt: &tokio::runtime::Runtime, a: GdiArgs) -> Result<()> {
    let panel = a.panel.panel()?;
    let store = rt.block_on(a.store.open())?;
    let spec = MeasureSpec {
        panel: panel.clone(),
        source: DealSource {
            seed: a.seed,
            bombs: a.bombs,
        },
        count: a.count,
        rules: RuleSet::COMPETITION,
        threads: threads(a.threads),
        batch: a.batch.max(1),
    };
    let already = rt.block_on(store.measured_indices(&panel.id, &spec.source))?;
    let remaining = a
        .count
        .saturating_sub(already.iter().filter(|&&i| i < a.count).count() as u64);
    if !a.json {
        eprintln!(
            "measuring {} deals (seed {}, bombs {}) with {} in {}: {} already measured, {} to go",
            a.count,
            a.seed,
            a.bombs.map_or("any".to_string(), |b| b.to_string()),
            describe(&panel),
            store.describe(),
            a.count - remaining,
            remaining
        );
    }
    let stop = stop_on_ctrl_c(rt);
    let prog = Progress::default();
    let total_games = remaining * panel.landlords.len() as u64;
    let report = progress::with_bar(total_games, "games", &prog.games, || {
        rt.block_on(arena_deals::measure(&*store, &spec, &prog, &stop))
    })?;
    let gps = report.games as f64 / report.seconds.max(1e-9);
    let total = rt.block_on(store.deal_count(&panel.id))?;
    if a.json {
        let obj = json!({
            "panel": panel.id, "panel_description": describe(&panel),
            "count": a.count, "seed": a.seed, "bombs": a.bombs,
            "already": report.already, "measured": report.measured, "games": report.games,
            "seconds": report.seconds, "games_per_second": gps, "stopped": report.stopped,
            "library_size": total, "threads": spec.threads, "store": store.describe(),
        });
        println!("{obj}");
    } else {
        println!(
            "{} {} deals in {:.1} s: {} games, {:.0} games/s on {} threads; library now holds {} deals of panel {}",
            if report.stopped {
                "stopped after measuring"
            } else {
                "measured"
            },
            report.measured,
            report.seconds,
            report.games,
            gps,
            spec.threads,
            total,
            panel.id
        );
        if report.stopped {
            println!("run the same command again to measure the remaining deals");
        }
    }
    Ok(())
}

async fn query(a: QueryArgs) -> Result<()> {
    let centre = parse_gdi(&a.centre).map_err(anyhow::Error::msg)?;
    let panel = a.panel.panel()?;
    let store = a.store.open().await?;
    let records = store.deals(&panel.id).await?;
    let exclude: HashSet<String> = if a.include_used {
        HashSet::new()
    } else {
        store.used_deals().await?.into_keys().collect()
    };
    let index = LibraryIndex::build(&records);
    let hits = index.within(&centre, a.eps, &exclude);
    let by_id: std::collections::HashMap<&str, &arena_store::DealRecord> =
        records.iter().map(|r| (r.id.as_str(), r)).collect();
    if a.json {
        for (_, e) in hits.iter().take(a.count) {
            println!("{}", serde_json::to_string(by_id[e.id.as_str()])?);
        }
        return Ok(());
    }
    println!(
        "{} of {} measured deals lie within {} of {:?} ({} excluded as used); showing {}",
        hits.len(),
        index.len(),
        a.eps,
        centre,
        exclude.len(),
        hits.len().min(a.count)
    );
    for (d, e) in hits.iter().take(a.count) {
        print_deal_row(&e.id, *d, &e.gdi, &by_id[e.id.as_str()].deal);
    }
    Ok(())
}

fn find(rt: &tokio::runtime::Runtime, a: FindArgs) -> Result<()> {
    let centre = parse_gdi(&a.centre).map_err(anyhow::Error::msg)?;
    let dim = arena_deals::levels::gdi_dimension(a.panel.scoring, u32::from(a.bombs));
    if centre.len() != dim {
        bail!(
            "deals with {} bomb(s) have {dim} score levels above the lowest under {} scoring, so the centre needs {dim} values, not {}",
            a.bombs,
            a.panel.scoring,
            centre.len()
        );
    }
    if let Some(url) = &a.library {
        return rt.block_on(remote_find(url, &a, centre));
    }
    let panel = a.panel.panel()?;
    let store = rt.block_on(a.store.open())?;
    let source = DealSource {
        seed: a.seed,
        bombs: Some(a.bombs),
    };
    let start = rt
        .block_on(store.measured_indices(&panel.id, &source))?
        .last()
        .map_or(0, |i| i + 1);
    let spec = FindSpec {
        panel: panel.clone(),
        source,
        start,
        centre: centre.clone(),
        eps: a.eps,
        want: a.count,
        max_tries: a.max_tries,
        rules: RuleSet::COMPETITION,
        threads: threads(a.threads),
    };
    let stop = stop_on_ctrl_c(rt);
    let prog = Progress::default();
    let report = progress::with_bar(a.count as u64, "found", &prog.found, || {
        rt.block_on(arena_deals::find(&*store, &spec, &prog, &stop))
    })?;
    if a.json {
        let obj = json!({
            "centre": centre, "eps": a.eps, "wanted": a.count, "found": report.found.len(),
            "tried": report.tried, "fully_measured": report.fully_measured, "games": report.games,
            "games_if_fully_measured": report.tried * panel.landlords.len() as u64,
            "seconds": report.seconds, "deals": report.found.iter().map(|r| json!({"id": r.id, "deal": r.deal, "gdi": r.gdi, "distance": distance(&r.gdi, &centre)})).collect::<Vec<_>>(),
        });
        println!("{obj}");
        return Ok(());
    }
    println!(
        "found {} of {} deals within {} of {:?} in {:.1} s: tried {} fresh deals, {} measured in full, {} games ({} if every deal had been measured in full)",
        report.found.len(),
        a.count,
        a.eps,
        centre,
        report.seconds,
        report.tried,
        report.fully_measured,
        report.games,
        report.tried * panel.landlords.len() as u64
    );
    for r in &report.found {
        print_deal_row(&r.id, distance(&r.gdi, &centre), &r.gdi, &r.deal);
    }
    Ok(())
}

/// `arena deals find --library URL`: the running deal library generates the deals.
async fn remote_find(url: &str, a: &FindArgs, centre: Vec<f64>) -> Result<()> {
    let auth = crate::client::ClientAuth {
        data_dir: a.store.data_dir.clone(),
    };
    let mut client = crate::library_client::connect(url, &auth).await?;
    let wanted = crate::library_client::Wanted {
        panel: a.panel.wire(),
        centre: centre.clone(),
        eps: a.eps,
        bombs: u32::from(a.bombs),
        need: a.count as u64,
    };
    let op = crate::library_client::find(&mut client, &wanted, a.count as u64, a.json).await?;
    if a.json {
        let obj = json!({
            "centre": centre, "eps": a.eps, "wanted": a.count, "found": op.found.len(),
            "tried": op.tried, "games": op.games, "seconds": op.seconds, "operation": op.id,
            "deals": op.found.iter().map(|r| json!({"id": r.id, "deal": r.deal, "gdi": r.gdi, "distance": distance(&r.gdi, &centre)})).collect::<Vec<_>>(),
        });
        println!("{obj}");
        return Ok(());
    }
    println!(
        "the deal library at {url} found {} of {} deals within {} of {:?} in {:.1} s: tried {} fresh deals, {} games",
        op.found.len(),
        a.count,
        a.eps,
        centre,
        op.seconds,
        op.tried,
        op.games
    );
    for r in &op.found {
        print_deal_row(&r.id, distance(&r.gdi, &centre), &r.gdi, &r.deal);
    }
    Ok(())
}

/// One deal of a query's or search's answer: its id, distance to the centre, difficulty and
/// cards.
fn print_deal_row(id: &str, distance: f64, gdi: &[f64], deal: &dyn std::fmt::Display) {
    let g: Vec<String> = gdi.iter().map(|x| format!("{x:.3}")).collect();
    println!("  {id:<16} d={distance:.3}  G=({})  {deal}", g.join(", "));
}

async fn stats(a: StatsArgs) -> Result<()> {
    let panel = a.panel.panel()?;
    let store = a.store.open().await?;
    let records = store.deals(&panel.id).await?;
    if records.is_empty() {
        bail!(
            "panel {} ({}) has no measured deals in {}; measure some with `arena deals gdi`",
            panel.id,
            describe(&panel),
            store.describe()
        );
    }
    let mut by_dim: std::collections::BTreeMap<usize, Vec<Vec<f64>>> = Default::default();
    for r in &records {
        by_dim.entry(r.gdi.len()).or_default().push(r.gdi.clone());
    }
    let used = store.used_deals().await?.len();
    let mut out = Vec::new();
    for (dim, gs) in &by_dim {
        let comps: Vec<_> = arena_deals::population::components(gs, *dim)
            .into_iter()
            .map(|c| json!({"g": c.g, "mean": c.mean, "p10": c.p10, "p25": c.p25, "p50": c.p50, "p75": c.p75, "p90": c.p90}))
            .collect();
        out.push(json!({"dimension": dim, "deals": gs.len(), "components": comps}));
    }
    if a.json {
        println!(
            "{}",
            json!({"panel": panel.id, "description": describe(&panel), "deals": records.len(), "used": used, "by_dimension": out})
        );
        return Ok(());
    }
    println!(
        "panel {}: {}; {} measured deals ({} used by competitions)",
        panel.id,
        describe(&panel),
        records.len(),
        used
    );
    for d in &out {
        println!("  {} deals with {} GDI values:", d["deals"], d["dimension"]);
        for c in d["components"].as_array().into_iter().flatten() {
            println!(
                "    g{}: mean {:.3}  p10 {:.2}  p25 {:.2}  median {:.2}  p75 {:.2}  p90 {:.2}",
                c["g"],
                c["mean"].as_f64().unwrap_or(0.0),
                c["p10"].as_f64().unwrap_or(0.0),
                c["p25"].as_f64().unwrap_or(0.0),
                c["p50"].as_f64().unwrap_or(0.0),
                c["p75"].as_f64().unwrap_or(0.0),
                c["p90"].as_f64().unwrap_or(0.0)
            );
        }
    }
    Ok(())
}

async fn export(a: ExportArgs) -> Result<()> {
    let panel = a.panel.panel()?;
    let (mut records, from) = match a.library.target(&a.store).await? {
        Target::Store(store) => (store.deals(&panel.id).await?, store.describe()),
        Target::Library(mut client, url) => {
            use tokio_stream::StreamExt;
            let mut stream = client
                .export(arena_proto::v1::ExportRequest {
                    panel: Some(a.panel.wire()),
                })
                .await
                .map_err(crate::client::status)?
                .into_inner();
            let mut records = Vec::new();
            while let Some(m) = stream.next().await {
                let m = m.map_err(crate::client::status)?;
                records.push(
                    arena_deal_library::record_from(m)
                        .map_err(|e| anyhow::anyhow!("a record from {url}: {e}"))?,
                );
            }
            (records, format!("the deal library at {url}"))
        }
    };
    records.sort_by(|x, y| x.id.cmp(&y.id));
    let mut out: Box<dyn Write> = match &a.out {
        Some(p) => Box::new(BufWriter::new(
            std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout().lock())),
    };
    let n = match a.format.as_str() {
        "jsonl" | "json" => arena_deals::io::write_jsonl(&mut out, &records)?,
        "csv" => arena_deals::io::write_csv(&mut out, &records)?,
        f => bail!("unknown export format {f:?} (jsonl or csv)"),
    };
    out.flush()?;
    eprintln!("exported {n} deals of panel {} from {from}", panel.id);
    Ok(())
}

/// The deals of `file`, one a line in `game`'s notation, as the records the library keeps of a
/// game whose deals carry no measured difficulty: each checked by the game's difficulty hook,
/// the first bad line an error naming it.
fn unmeasured_records(game: &str, file: &std::path::Path) -> Result<Vec<arena_store::DealRecord>> {
    use arena_games::GameKind;
    let game = GameKind::by_name(game).map_err(|e| anyhow::anyhow!("--game: {e}"))?;
    let hook = game.difficulty().with_context(|| {
        format!(
            "--game {}: the deal library keeps no deals of {}",
            game.name(),
            game.title()
        )
    })?;
    let panel = hook
        .panel(&arena_proto::v1::PanelSpec {
            game: game.name().into(),
            ..Default::default()
        })
        .map_err(|e| {
            anyhow::anyhow!(
                "--game {}: {e}; its deals are imported measured, as JSON lines or CSV from                  `arena deals export` (leave out --game)",
                game.name()
            )
        })?;
    if panel.unmeasured().is_none() {
        bail!(
            "--game {}: its deals are imported measured, as JSON lines or CSV from `arena deals              export` (leave out --game)",
            game.name()
        );
    }
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let deal = hook.canonical_deal(line).map_err(|e| {
            anyhow::anyhow!(
                "{} line {}: {e} (nothing was imported)",
                file.display(),
                i + 1
            )
        })?;
        records.push(arena_games::difficulty::unmeasured_record(
            game,
            panel.id(),
            deal,
        ));
    }
    if records.is_empty() {
        bail!("{}: no deals in it", file.display());
    }
    Ok(records)
}

async fn import(a: ImportArgs) -> Result<()> {
    let records = match &a.game {
        Some(game) => unmeasured_records(game, &a.file)?,
        None => {
            let file = std::fs::File::open(&a.file)
                .with_context(|| format!("opening {}", a.file.display()))?;
            arena_deals::io::read_records(BufReader::new(file))
                .with_context(|| format!("reading {}", a.file.display()))?
        }
    };
    let (new, into) = match a.library.target(&a.store).await? {
        Target::Store(store) => {
            let mut new = 0;
            for chunk in records.chunks(1000) {
                new += store.put_deals(chunk).await?;
            }
            (new, store.describe())
        }
        Target::Library(mut client, url) => {
            // One import is all or nothing, up to the library's limit: larger files go in parts.
            let mut new = 0;
            for chunk in records.chunks(arena_deal_library::MAX_IMPORT as usize) {
                let msgs: Vec<_> = chunk.iter().map(arena_deal_library::record_msg).collect();
                new += client
                    .import(tokio_stream::iter(msgs))
                    .await
                    .map_err(crate::client::status)?
                    .into_inner()
                    .new as usize;
            }
            (new, format!("the deal library at {url}"))
        }
    };
    println!(
        "imported {} records ({} new, {} already present) into {}",
        records.len(),
        new,
        records.len() - new,
        into
    );
    Ok(())
}

impl PanelArgs {
    /// The panel as the protocol carries it.
    pub fn wire(&self) -> arena_proto::v1::PanelSpec {
        arena_proto::v1::PanelSpec {
            landlords: self.panel.clone(),
            farmers: self.farmers.clone(),
            scoring: self.scoring.name().to_string(),
            ..Default::default()
        }
    }
}

async fn remote_measure(a: RemoteMeasureArgs) -> Result<()> {
    use arena_proto::v1;
    let url = a
        .auth
        .address(a.library.as_deref(), crate::client::Role::DealLibrary)?;
    let mut client = crate::library_client::connect(&url, &a.auth).await?;
    let panel = a.panel.wire();
    let op = client
        .measure(v1::MeasureRequest {
            panel: Some(panel),
            seed: a.seed,
            bombs: a.bombs,
            count: a.count,
            batch: a.batch,
        })
        .await
        .map_err(crate::client::status)?
        .into_inner();
    if !a.json {
        eprintln!(
            "operation {}: {} of {} deals already measured",
            op.id, op.progress, op.total
        );
    }
    let last = crate::library_client::follow(&mut client, op, "deals", a.json).await?;
    if a.json {
        println!(
            "{}",
            json!({"operation": last.id, "deals": last.progress, "total": last.total, "games": last.games,
                   "seconds": last.seconds, "games_per_second": last.games_per_second, "error": last.error})
        );
    } else {
        println!(
            "measured through the deal library: {} deals, {} games in {:.1} s, {:.0} games/s",
            last.progress, last.games, last.seconds, last.games_per_second
        );
    }
    if !last.error.is_empty() {
        bail!("{}", last.error);
    }
    Ok(())
}
