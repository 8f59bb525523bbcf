//! `arena experiment paper`: the equal-strength paper's three experiments, and the question it
//! left open (how many rounds a format needs), reproduced with arena's bots and written up as a
//! report: `report.md`, PNG plots and `results.json` with every number. `docs/experiment-paper.md`
//! explains how to read it.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use arena_compete::{
    Format, GameCache, Plan, PlanError, Reuse, Shape, Slot, Standings, Tables, kendall_tau,
    order_of, plan, play_plan, plot,
};
use arena_deals::DdzPanel;
use arena_deals::centre::{MeanShift, count_within, mean, mean_shift};
use arena_deals::levels::distance;
use arena_deals::{FindReport, FindSpec, MeasureReport, MeasureSpec, Progress, build_panel};
use arena_store::{DealRecord, DealSource, Store};
use clap::{Args, Subcommand, ValueEnum};
use ddz::{Deal, DealConstraint, Rank, RuleSet, Scoring, Seat};
use serde_json::{Value, json};

use crate::deals_cmd::{stop_on_ctrl_c, threads};
use crate::progress;
use crate::store_args::StoreArgs;

/// Experiments.
#[derive(Subcommand)]
pub enum ExperimentCommand {
    /// Reproduce the equal-strength paper's experiments; write report.md, PNG plots and results.json.
    Paper(PaperArgs),
}

/// How big a run is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Scale {
    /// A few minutes: 20,000 measured deals, 200 matches per point of the rounds curves.
    Quick,
    /// The paper's size: 200,000 measured deals (14 million games), 400 matches per point.
    Full,
    /// Seconds, for tests: a 400-deal library and a handful of matches.
    #[value(hide = true)]
    Tiny,
}

impl Scale {
    fn name(self) -> &'static str {
        match self {
            Scale::Quick => "quick",
            Scale::Full => "full",
            Scale::Tiny => "tiny",
        }
    }
}

/// `arena experiment paper`.
#[derive(Args)]
pub struct PaperArgs {
    /// quick (a few minutes) or full (the paper's 200,000 deals).
    #[arg(long, value_enum, default_value = "quick")]
    scale: Scale,
    /// Directory for report.md, the PNG plots and results.json (created if missing).
    #[arg(long, default_value = "paper-report")]
    out: PathBuf,
    #[command(flatten)]
    store: StoreArgs,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// Runs an `experiment` subcommand.
pub fn run(cmd: ExperimentCommand) -> Result<()> {
    match cmd {
        ExperimentCommand::Paper(a) => paper(a),
    }
}

// ---------------------------------------------------------------------------------------------
// The set-up: fixed by the paper, sized by the scale.
// ---------------------------------------------------------------------------------------------

/// Levels of the measuring ladder.
const LADDER: u32 = 70;
/// Experiment 1's tables: every seventh level.
const E1_LEVELS: [u32; 10] = [7, 14, 21, 28, 35, 42, 49, 56, 63, 70];
/// Experiments 3 and 4's tables.
const E3_LEVELS: [u32; 5] = [14, 28, 42, 56, 70];
/// The farmer bot in both seats.
const FARMERS: &str = "expert";
/// The paper's centre.
const PAPER_CENTRE: [f64; 3] = [0.96, 0.91, 0.79];
/// The paper's ε, and the radius the centre is chosen for.
const EPS: f64 = 0.15;
/// Radii whose deal counts the report gives.
const RADII: [f64; 3] = [0.15, 0.20, 0.25];
/// Bombs per deal (the paper's population: exactly one, rocket included).
const BOMBS: u8 = 1;
/// The library: deals 0..N of this seed, as `arena deals gdi --count N --bombs 1` measures them.
const LIBRARY_SEED: u64 = 1;
/// The true ranking's deals: fresh, never measured, never dealt by a format under test.
const TRUTH_SEED: u64 = 2;
/// Fresh deals for on-demand generation near the paper's centre and near the chosen one.
const FIND_SEEDS: [u64; 2] = [101, 102];
/// Seeds of the experiments' deal shuffles and tie-breaks.
const E1_SEED: u64 = 1;
const E3_SEED: u64 = 3;
const E4_SEED: u64 = 4;

struct Config {
    deals: u64,
    e1_matches: usize,
    e1_rounds: usize,
    e3_matches: usize,
    e3_rounds: Vec<usize>,
    e3_eps: Vec<f64>,
    truth_rounds: u64,
    e4_matches: usize,
    e4_rounds: Vec<usize>,
    find_want: usize,
    find_max_tries: u64,
}

impl Config {
    fn of(scale: Scale) -> Config {
        let paper_rounds = vec![5, 10, 20];
        let curve = vec![1, 2, 3, 5, 8, 10, 15, 20, 30, 50];
        match scale {
            Scale::Quick => Config {
                deals: 20_000,
                e1_matches: 20,
                e1_rounds: 20,
                e3_matches: 20,
                e3_rounds: paper_rounds,
                e3_eps: vec![0.15, 0.20, 0.25],
                truth_rounds: 10_000,
                e4_matches: 200,
                e4_rounds: curve,
                find_want: 20,
                find_max_tries: 150_000,
            },
            Scale::Full => Config {
                deals: 200_000,
                e1_matches: 20,
                e1_rounds: 20,
                e3_matches: 20,
                e3_rounds: paper_rounds,
                e3_eps: vec![0.15, 0.20, 0.25],
                truth_rounds: 20_000,
                e4_matches: 400,
                e4_rounds: curve,
                find_want: 20,
                find_max_tries: 1_000_000,
            },
            Scale::Tiny => Config {
                deals: 400,
                e1_matches: 4,
                e1_rounds: 3,
                e3_matches: 4,
                e3_rounds: vec![2, 4],
                e3_eps: vec![0.15, 0.25],
                truth_rounds: 60,
                e4_matches: 6,
                e4_rounds: vec![1, 2, 4],
                find_want: 2,
                find_max_tries: 150,
            },
        }
    }

    /// Distinct deals experiment 3's largest equal-strength cell needs when no deal repeats.
    fn e3_need(&self) -> usize {
        E3_LEVELS.len() * self.e3_rounds.iter().max().copied().unwrap_or(1) * self.e3_matches
    }

    fn json(&self) -> Value {
        json!({
            "library_deals": self.deals,
            "experiment1": {"levels": E1_LEVELS, "matches": self.e1_matches, "rounds": self.e1_rounds},
            "experiment3": {"levels": E3_LEVELS, "matches": self.e3_matches, "rounds": self.e3_rounds, "eps": self.e3_eps},
            "truth_rounds": self.truth_rounds,
            "experiment4": {"matches": self.e4_matches, "rounds": self.e4_rounds},
            "find": {"want": self.find_want, "max_tries": self.find_max_tries, "eps": EPS},
            "seeds": {"library": LIBRARY_SEED, "truth": TRUTH_SEED, "find": FIND_SEEDS,
                      "experiment1": E1_SEED, "experiment3": E3_SEED, "experiment4": E4_SEED},
        })
    }
}

fn ladder(level: u32) -> String {
    format!("ladder:{level}/{LADDER}")
}

fn tables(levels: &[u32]) -> Tables {
    Tables {
        landlords: levels.iter().map(|&l| ladder(l)).collect(),
        down: FARMERS.into(),
        up: FARMERS.into(),
        scoring: Scoring::Difficulty,
        rules: RuleSet::COMPETITION,
    }
}

/// What every stage needs.
struct Ctx {
    rt: tokio::runtime::Runtime,
    store: Arc<dyn Store>,
    threads: usize,
    stop: Arc<AtomicBool>,
    out: PathBuf,
    /// Games played by the experiments (the library's measurement not included).
    games: u64,
    /// Plots that could not be drawn, and other things the reader should know.
    warnings: Vec<String>,
}

impl Ctx {
    fn check_stop(&self) -> Result<()> {
        if self.stop.load(Ordering::Relaxed) {
            bail!(
                "stopped by Ctrl-C; measured deals are kept, run the same command again to resume"
            );
        }
        Ok(())
    }

    /// Plays every plan, skipping games the cache holds, under one progress bar.
    fn play(
        &mut self,
        what: &str,
        tables: &Tables,
        jobs: &[(&Plan, &Format)],
        cache: &mut GameCache,
    ) -> Result<Vec<Vec<Vec<f64>>>> {
        let mut new: HashSet<(usize, &str)> = HashSet::new();
        for (p, _) in jobs {
            for round in p.matches.iter().flatten() {
                for (t, slot) in round.iter().enumerate() {
                    if !cache.contains(t, &slot.id) {
                        new.insert((t, slot.id.as_str()));
                    }
                }
            }
        }
        let total = new.len() as u64;
        drop(new);
        eprintln!("{what}: {total} games to play");
        let counter = AtomicU64::new(0);
        let threads = self.threads;
        let out = progress::with_bar(total, "games", &counter, || {
            jobs.iter()
                .map(|(p, f)| play_plan(tables, p, f, threads, cache, &counter))
                .collect::<Result<Vec<_>, _>>()
        })?;
        self.games += counter.load(Ordering::Relaxed);
        self.check_stop()?;
        Ok(out)
    }

    /// Draws a plot; a failure becomes a warning in the report instead of ending the run.
    fn plot(
        &mut self,
        file: &str,
        draw: impl FnOnce(&Path) -> Result<(), plot::PlotError>,
    ) -> Option<String> {
        let path = self.out.join(file);
        match draw(&path) {
            Ok(()) => Some(file.to_string()),
            Err(e) => {
                let msg = format!("{file} was not drawn: {e}");
                eprintln!("warning: {msg}");
                self.warnings.push(msg);
                None
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The run.
// ---------------------------------------------------------------------------------------------

fn paper(a: PaperArgs) -> Result<()> {
    let started = Instant::now();
    let cfg = Config::of(a.scale);
    // A worker thread keeps the Ctrl-C handler alive while the experiments play on other threads.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("starting the I/O runtime")?;
    let store = rt.block_on(a.store.open())?;
    std::fs::create_dir_all(&a.out)
        .with_context(|| format!("creating the report directory {}", a.out.display()))?;
    let stop = stop_on_ctrl_c(&rt);
    let mut ctx = Ctx {
        rt,
        store,
        threads: threads(a.threads),
        stop,
        out: a.out.clone(),
        games: 0,
        warnings: Vec::new(),
    };
    let panel = build_panel(
        &format!("ladder:{LADDER}"),
        FARMERS,
        FARMERS,
        Scoring::Difficulty,
    )?;
    let mut timings: Vec<(&str, f64)> = Vec::new();
    let mut lap = Instant::now();
    let mut time = |what: &'static str, lap: &mut Instant| {
        timings.push((what, lap.elapsed().as_secs_f64()));
        *lap = Instant::now();
    };

    let lib = measure_library(&mut ctx, &panel, &cfg)?;
    time("measuring the library", &mut lap);
    let e1 = experiment1(&mut ctx, &cfg, &lib)?;
    time("experiment 1", &mut lap);
    let e2 = experiment2(&mut ctx, &cfg, &panel, &lib)?;
    time("experiment 2", &mut lap);
    let t5 = tables(&E3_LEVELS);
    let mut cache5 = GameCache::default();
    let truth = true_ranking(&mut ctx, &cfg, &t5, &mut cache5)?;
    time("true ranking", &mut lap);
    let e3 = experiment3(&mut ctx, &cfg, &lib, &e2.choice.centre, &truth, &mut cache5)?;
    time("experiment 3", &mut lap);
    let e4 = experiment4(&mut ctx, &cfg, &lib, &e2.choice.centre, &truth, &mut cache5)?;
    time("experiment 4", &mut lap);
    let claim = check_claim(&e3, &e4);

    let run = RunInfo {
        scale: a.scale,
        panel: &panel,
        threads: ctx.threads,
        store: ctx.store.describe(),
        seconds: started.elapsed().as_secs_f64(),
        games: ctx.games,
        timings,
        warnings: ctx.warnings.clone(),
    };
    let results = results_json(&cfg, &run, &lib, &e1, &e2, &truth, &e3, &e4, &claim);
    let json_path = a.out.join("results.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(&results)? + "\n")
        .with_context(|| format!("writing {}", json_path.display()))?;
    let md = report_md(&cfg, &run, &lib, &e1, &e2, &truth, &e3, &e4, &claim);
    let md_path = a.out.join("report.md");
    std::fs::write(&md_path, md).with_context(|| format!("writing {}", md_path.display()))?;
    println!(
        "report written to {} ({:.0} s, {} games played besides the library's measurement)",
        md_path.display(),
        run.seconds,
        run.games
    );
    Ok(())
}

struct RunInfo<'a> {
    scale: Scale,
    panel: &'a DdzPanel,
    threads: usize,
    store: String,
    seconds: f64,
    games: u64,
    timings: Vec<(&'static str, f64)>,
    warnings: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// The library.
// ---------------------------------------------------------------------------------------------

struct Library {
    source: DealSource,
    /// Deals 0..N of the source, by index.
    records: Vec<DealRecord>,
    /// Their GDI vectors, same order.
    gdis: Vec<Vec<f64>>,
    report: MeasureReport,
}

fn measure_library(ctx: &mut Ctx, panel: &DdzPanel, cfg: &Config) -> Result<Library> {
    let source = DealSource {
        seed: LIBRARY_SEED,
        bombs: Some(BOMBS),
    };
    let already = ctx
        .rt
        .block_on(ctx.store.measured_indices(&panel.id, &source))?
        .iter()
        .filter(|&&i| i < cfg.deals)
        .count() as u64;
    eprintln!(
        "library: {} one-bomb deals (seed {LIBRARY_SEED}) measured by {} in {}: {} already measured, {} to go",
        cfg.deals,
        arena_deals::describe(panel),
        ctx.store.describe(),
        already,
        cfg.deals - already
    );
    let spec = MeasureSpec {
        panel: panel.clone(),
        source,
        count: cfg.deals,
        rules: RuleSet::COMPETITION,
        threads: ctx.threads,
        batch: 500,
    };
    let prog = Progress::default();
    let games = (cfg.deals - already) * panel.landlords.len() as u64;
    let report = progress::with_bar(games, "games", &prog.games, || {
        ctx.rt
            .block_on(arena_deals::measure(&*ctx.store, &spec, &prog, &ctx.stop))
    })?;
    ctx.check_stop()?;
    let mut records: Vec<DealRecord> = ctx
        .rt
        .block_on(ctx.store.deals(&panel.id))?
        .into_iter()
        .filter(|r| matches!(r.source, Some((s, i)) if s == source && i < cfg.deals))
        .collect();
    records.sort_by_key(|r| r.source.map_or(0, |(_, i)| i));
    if records.len() as u64 != cfg.deals {
        bail!(
            "the library should hold deals 0..{} of seed {LIBRARY_SEED} but holds {}; run the command again to measure the rest",
            cfg.deals,
            records.len()
        );
    }
    if let Some(r) = records.iter().find(|r| r.gdi.len() != 3) {
        bail!(
            "deal {} has {} GDI values; one-bomb deals have 3",
            r.id,
            r.gdi.len()
        );
    }
    eprintln!(
        "library ready: {} measured now, {} reused, {:.1} s",
        report.measured, report.already, report.seconds
    );
    let gdis = records.iter().map(|r| r.gdi.clone()).collect();
    Ok(Library {
        source,
        records,
        gdis,
        report,
    })
}

// ---------------------------------------------------------------------------------------------
// Planning and agreement helpers.
// ---------------------------------------------------------------------------------------------

fn reuse_name(r: Reuse) -> &'static str {
    match r {
        Reuse::Never => "never",
        Reuse::AcrossMatches => "across-matches",
    }
}

/// Deals of `lib` a format may hand out.
fn eligible(format: &Format, lib: &Library) -> usize {
    match format {
        Format::EqualStrength { centre, eps } => count_within(&lib.gdis, centre, *eps),
        _ => lib.records.len(),
    }
}

/// A plan and how it reuses deals, or why the library could not deal it.
type Planned = Result<(Plan, Reuse), String>;

/// Plans with never-reused deals when the library allows it, else with deals reused across
/// (never within) matches; `Err` says why neither works.
fn plan_preferring_fresh(
    format: &Format,
    lib: &Library,
    tables: usize,
    matches: usize,
    rounds: usize,
    seed: u64,
    allow_never: bool,
) -> Planned {
    let mut last = String::new();
    let reuses: &[Reuse] = if allow_never {
        &[Reuse::Never, Reuse::AcrossMatches]
    } else {
        &[Reuse::AcrossMatches]
    };
    for &reuse in reuses {
        let shape = Shape {
            tables,
            matches,
            rounds,
            reuse,
            seed,
        };
        match plan(format, &lib.records, shape, &HashSet::new()) {
            Ok(p) => return Ok((p, reuse)),
            Err(PlanError::NotEnough { need, have, .. }) => {
                last = format!("needs {need} distinct deals per match, the library has {have}");
            }
            Err(e @ PlanError::Deal(_)) => return Err(e.to_string()),
        }
    }
    Err(last)
}

/// How well a competition's standings agree with a reference order (tables best first).
#[derive(Clone, Debug, serde::Serialize)]
struct Agreement {
    /// Kendall τ of the final ranking (most probable rank) against the reference.
    final_tau: f64,
    /// Mean Kendall τ of each match's ranking against the reference.
    mean_tau: f64,
    /// Its standard error over matches.
    mean_tau_se: f64,
    /// Share of matches whose ranking equals the reference exactly.
    exact_share: f64,
    /// Its standard error (binomial).
    exact_share_se: f64,
}

fn agreement(s: &Standings, reference: &[usize]) -> Agreement {
    let taus: Vec<f64> = s
        .ranks
        .iter()
        .map(|m| kendall_tau(&order_of(m), reference))
        .collect();
    let n = taus.len().max(1) as f64;
    let mean_tau = taus.iter().sum::<f64>() / n;
    let var = taus.iter().map(|t| (t - mean_tau).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let exact = s.exact_agreement(reference);
    Agreement {
        final_tau: kendall_tau(&s.final_order, reference),
        mean_tau,
        mean_tau_se: (var / n).sqrt(),
        exact_share: exact,
        exact_share_se: (exact * (1.0 - exact) / n).sqrt(),
    }
}

/// One competition of an experiment: a format at one number of rounds.
struct Cell {
    format: Format,
    label: String,
    rounds: usize,
    matches: usize,
    eligible: usize,
    outcome: Result<Played, String>,
}

struct Played {
    reuse: Reuse,
    standings: Standings,
    agreement: Agreement,
    heatmap: Option<String>,
}

fn format_label(f: &Format) -> String {
    match f {
        Format::EqualStrength { eps, .. } => format!("equal-strength ε={eps:.2}"),
        other => other.name().to_string(),
    }
}

fn format_slug(f: &Format) -> String {
    match f {
        Format::EqualStrength { eps, .. } => format!("equal-strength-{eps:.2}"),
        other => other.name().to_string(),
    }
}

fn cell_json(c: &Cell, names: &[String]) -> Value {
    let mut v = json!({
        "format": c.format, "label": c.label, "rounds": c.rounds, "matches": c.matches,
        "eligible_deals": c.eligible,
    });
    match &c.outcome {
        Ok(p) => {
            v["reuse"] = json!(reuse_name(p.reuse));
            v["final_ranking"] = json!(
                p.standings
                    .final_order
                    .iter()
                    .map(|&t| &names[t])
                    .collect::<Vec<_>>()
            );
            v["agreement_with_truth"] = json!(p.agreement);
            v["heatmap"] = json!(p.heatmap);
            v["standings"] = json!(p.standings);
        }
        Err(reason) => v["skipped"] = json!(reason),
    }
    v
}

// ---------------------------------------------------------------------------------------------
// Experiment 1: the ladder's levels are distinct.
// ---------------------------------------------------------------------------------------------

struct E1 {
    names: Vec<String>,
    reuse: Reuse,
    standings: Standings,
    /// Tables best first by level (level 70 first).
    level_order: Vec<usize>,
    vs_levels: Agreement,
    heatmap: Option<String>,
}

fn experiment1(ctx: &mut Ctx, cfg: &Config, lib: &Library) -> Result<E1> {
    let t = tables(&E1_LEVELS);
    let names = t.landlords.clone();
    let (p, reuse) = plan_preferring_fresh(
        &Format::Duplicate,
        lib,
        names.len(),
        cfg.e1_matches,
        cfg.e1_rounds,
        E1_SEED,
        true,
    )
    .map_err(|e| anyhow::anyhow!("experiment 1 cannot be dealt: {e}"))?;
    let mut cache = GameCache::default();
    let totals = ctx
        .play(
            &format!(
                "experiment 1: {} ladder levels, duplicate, {} matches × {} rounds",
                names.len(),
                cfg.e1_matches,
                cfg.e1_rounds
            ),
            &t,
            &[(&p, &Format::Duplicate)],
            &mut cache,
        )?
        .remove(0);
    let standings = Standings::from_totals(names.clone(), totals, cfg.e1_rounds, E1_SEED);
    let level_order: Vec<usize> = (0..names.len()).rev().collect();
    let vs_levels = agreement(&standings, &level_order);
    let title = format!(
        "Experiment 1: {} ladder levels, duplicate, {} matches x {} rounds",
        names.len(),
        cfg.e1_matches,
        cfg.e1_rounds
    );
    let heatmap = ctx.plot("e1-ladder-levels.png", |path| {
        plot::rank_heatmap(&standings, &title, path)
    });
    Ok(E1 {
        names,
        reuse,
        standings,
        level_order,
        vs_levels,
        heatmap,
    })
}

// ---------------------------------------------------------------------------------------------
// Experiment 2: the GDI distribution, a centre, the table-1 analogue, on-demand generation.
// ---------------------------------------------------------------------------------------------

/// Summary statistics of one GDI component.
#[derive(Clone, Debug, serde::Serialize)]
struct Component {
    g: usize,
    mean: f64,
    p05: f64,
    p10: f64,
    p25: f64,
    p50: f64,
    p75: f64,
    p90: f64,
    p95: f64,
}

fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn components(gdis: &[Vec<f64>], dim: usize) -> Vec<Component> {
    (0..dim)
        .map(|j| {
            let mut v: Vec<f64> = gdis.iter().filter_map(|g| g.get(j).copied()).collect();
            v.sort_by(f64::total_cmp);
            let q = |p| quantile(&v, p);
            Component {
                g: j + 1,
                mean: v.iter().sum::<f64>() / v.len().max(1) as f64,
                p05: q(0.05),
                p10: q(0.10),
                p25: q(0.25),
                p50: q(0.50),
                p75: q(0.75),
                p90: q(0.90),
                p95: q(0.95),
            }
        })
        .collect()
}

/// Deals per (g2, g3) cell of width 0.1: `[g2 bin][g3 bin]`, bin 9 holding 0.9–1.0.
fn histogram_g2_g3(gdis: &[Vec<f64>]) -> Vec<Vec<u64>> {
    let bin = |x: f64| ((x * 10.0 + 1e-9).floor().max(0.0) as usize).min(9);
    let mut h = vec![vec![0u64; 10]; 10];
    for g in gdis.iter().filter(|g| g.len() >= 3) {
        h[bin(g[1])][bin(g[2])] += 1;
    }
    h
}

/// The paper centre's meaning: most tables win (g2 ≥ 0.5), and most wins come with the bomb
/// played (g3 ≥ g2 / 2).
fn same_meaning(g: &[f64]) -> bool {
    g.len() == 3 && g[1] >= 0.5 && g[2] >= g[1] / 2.0
}

/// Landlord-favoured: most tables win.
fn favoured(g: &[f64]) -> bool {
    g.len() == 3 && g[1] >= 0.5
}

fn within_counts(gdis: &[Vec<f64>], centre: &[f64]) -> Vec<usize> {
    RADII
        .iter()
        .map(|&r| count_within(gdis, centre, r))
        .collect()
}

/// How the experiments' centre was chosen.
#[derive(Clone, Debug, serde::Serialize)]
struct CentreChoice {
    /// Deals within 0.15 / 0.20 / 0.25 of the paper's centre.
    paper_within: Vec<usize>,
    /// Deals experiment 3 needs within ε when none repeats.
    need: usize,
    /// `paper` (enough deals near it), `same-meaning-mode`, `favoured-mode` or `paper-fallback`.
    rule: &'static str,
    /// Deals with the paper centre's meaning (g2 ≥ 0.5 and g3 ≥ g2/2).
    same_meaning_deals: usize,
    /// Landlord-favoured deals (g2 ≥ 0.5).
    favoured_deals: usize,
    /// The mean shift that found the centre (absent when the paper's centre is used).
    shift: Option<MeanShift>,
    /// The centre used by experiments 2–4.
    centre: Vec<f64>,
    /// Deals within 0.15 / 0.20 / 0.25 of it.
    within: Vec<usize>,
    /// The simpler rule (mean of favoured deals, mean shift over all deals) and where it ends,
    /// reported because it changes the centre's meaning.
    simple_rule: Option<MeanShift>,
    simple_rule_within: Vec<usize>,
}

fn choose_centre(gdis: &[Vec<f64>], need: usize) -> CentreChoice {
    let paper_within = within_counts(gdis, &PAPER_CENTRE);
    let same: Vec<Vec<f64>> = gdis.iter().filter(|g| same_meaning(g)).cloned().collect();
    let fav: Vec<&Vec<f64>> = gdis.iter().filter(|g| favoured(g)).collect();
    let simple_rule = mean(fav.iter().copied(), 3).map(|start| mean_shift(gdis, &start, EPS, 1000));
    let simple_rule_within = simple_rule
        .as_ref()
        .map_or_else(Vec::new, |m| within_counts(gdis, &m.mode));
    let (rule, shift) = if paper_within[0] >= need {
        ("paper", None)
    } else if let Some(start) = mean(&same, 3) {
        (
            "same-meaning-mode",
            Some(mean_shift(&same, &start, EPS, 1000)),
        )
    } else if let Some(m) = &simple_rule {
        ("favoured-mode", Some(m.clone()))
    } else {
        ("paper-fallback", None)
    };
    let centre = shift
        .as_ref()
        .map_or_else(|| PAPER_CENTRE.to_vec(), |m| m.mode.clone());
    CentreChoice {
        paper_within,
        need,
        rule,
        same_meaning_deals: same.len(),
        favoured_deals: fav.len(),
        within: within_counts(gdis, &centre),
        shift,
        centre,
        simple_rule,
        simple_rule_within,
    }
}

/// One row of the table-1 analogue.
#[derive(Clone, Debug)]
struct Example {
    role: &'static str,
    record: DealRecord,
    distance: f64,
}

/// Five deals as the paper's table 1: three within ε of `centre` (the nearest, the median
/// distance, the 90th-percentile distance), one outside and harder for the landlord (nearest to
/// the centre moved 0.25 down in g2 and g3), and the library's easiest (largest g1 + g2 + g3; the
/// paper's was trivially easy, G = (1, 1, 1)).
fn pick_examples(lib: &Library, centre: &[f64]) -> Vec<Example> {
    let with_d: Vec<(f64, &DealRecord)> = lib
        .records
        .iter()
        .map(|r| (distance(&r.gdi, centre), r))
        .collect();
    let mut inside: Vec<(f64, &DealRecord)> =
        with_d.iter().filter(|(d, _)| *d <= EPS).copied().collect();
    inside.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    let mut taken: HashSet<&str> = HashSet::new();
    for (role, p) in [
        ("within ε: nearest", 0.0),
        ("within ε: median distance", 0.5),
        ("within ε: 90th-percentile distance", 0.9),
    ] {
        if inside.is_empty() {
            break;
        }
        let (d, r) = inside[((inside.len() - 1) as f64 * p).round() as usize];
        if taken.insert(&r.id) {
            out.push(Example {
                role,
                record: r.clone(),
                distance: d,
            });
        }
    }
    let harder_target = [
        centre[0],
        (centre[1] - 0.25).max(0.0),
        (centre[2] - 0.25).max(0.0),
    ];
    let harder = with_d
        .iter()
        .filter(|(d, r)| *d > EPS && r.gdi[1] < centre[1])
        .min_by(|a, b| {
            distance(&a.1.gdi, &harder_target).total_cmp(&distance(&b.1.gdi, &harder_target))
        });
    if let Some(&(d, r)) = harder {
        out.push(Example {
            role: "outside ε: harder for the landlord",
            record: r.clone(),
            distance: d,
        });
    }
    let easiest = with_d.iter().filter(|(d, _)| *d > EPS).max_by(|a, b| {
        let s = |r: &DealRecord| r.gdi.iter().sum::<f64>();
        // Equal sums: the earlier deal wins (max_by keeps the last maximum, so compare ids reversed).
        s(a.1)
            .total_cmp(&s(b.1))
            .then_with(|| b.1.source.cmp(&a.1.source))
    });
    if let Some(&(d, r)) = easiest {
        out.push(Example {
            role: "outside ε: the library's easiest deal",
            record: r.clone(),
            distance: d,
        });
    }
    out
}

fn pct(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

fn fmt_gdi(g: &[f64]) -> String {
    let v: Vec<String> = g.iter().map(|x| format!("{x:.3}")).collect();
    format!("({})", v.join(", "))
}

fn fmt_gdi2(g: &[f64]) -> String {
    let v: Vec<String> = g.iter().map(|x| format!("{x:.2}")).collect();
    format!("({})", v.join(", "))
}

/// What a one-bomb GDI says about the landlord, in one sentence.
fn meaning(g: &[f64], tables: usize) -> String {
    if g.len() != 3 {
        return format!("GDI {}", fmt_gdi(g));
    }
    let (win, bomb_win, bomb_loss) = (g[1], g[2], 1.0 - g[0]);
    let verdict = if win >= 1.0 && bomb_win >= 1.0 {
        "trivially easy: every landlord wins with the bomb, so the deal cannot tell landlords apart"
    } else if win >= 0.95 {
        "trivially easy for the landlord"
    } else if win >= 0.75 {
        "easy for the landlord"
    } else if win >= 0.55 {
        "in the landlord's favour"
    } else if win >= 0.4 {
        "about even for the landlord"
    } else if win >= 0.2 {
        "hard for the landlord"
    } else {
        "very hard for the landlord"
    };
    format!(
        "{} of the {tables} landlords win it ({} with the bomb played) and {} lose with the bomb played: {verdict}",
        pct(win),
        pct(bomb_win),
        pct(bomb_loss)
    )
}

/// [`bomb_holders`] of a library deal (or why it is not a Dou Dizhu deal).
fn record_bomb_holders(record: &DealRecord) -> String {
    arena_deals::ddz_deal(record).map_or_else(|e| e, |deal| bomb_holders(&deal))
}

/// Who holds the deal's bombs, e.g. `7777 with the landlord`.
fn bomb_holders(deal: &Deal) -> String {
    let hands = deal.hands_with_landlord(Seat::ALL[0]);
    let roles = ["the landlord", "the down farmer", "the up farmer"];
    let mut parts = Vec::new();
    for (hand, role) in hands.iter().zip(roles) {
        for r in Rank::ALL {
            if !r.is_joker() && hand.count(r) == 4 {
                parts.push(format!("{0}{0}{0}{0} with {role}", r.char()));
            }
        }
        if hand.count(Rank::BlackJoker) == 1 && hand.count(Rank::RedJoker) == 1 {
            parts.push(format!("the rocket BR with {role}"));
        }
    }
    if parts.is_empty() {
        "no bomb".into()
    } else {
        parts.join(", ")
    }
}

/// On-demand generation near one centre.
struct FindRun {
    name: &'static str,
    centre: Vec<f64>,
    seed: u64,
    want: usize,
    max_tries: u64,
    report: FindReport,
}

impl FindRun {
    fn gave_up(&self) -> bool {
        self.report.found.len() < self.want
    }
}

struct E2 {
    components: Vec<Component>,
    histogram: Vec<Vec<u64>>,
    choice: CentreChoice,
    examples: Vec<Example>,
    finds: Vec<FindRun>,
    scatter_paper: Option<String>,
    scatter_chosen: Option<String>,
    tables: usize,
}

fn experiment2(ctx: &mut Ctx, cfg: &Config, panel: &DdzPanel, lib: &Library) -> Result<E2> {
    eprintln!("experiment 2: the GDI distribution and a centre");
    let choice = choose_centre(&lib.gdis, cfg.e3_need());
    let n = lib.gdis.len();
    let scatter_paper = ctx.plot("e2-gdi-paper-centre.png", |path| {
        plot::gdi_scatter(
            &lib.gdis,
            &PAPER_CENTRE,
            EPS,
            &format!("GDI of {n} deals and the paper's centre (ring: 0.15)"),
            path,
        )
    });
    let scatter_chosen = ctx.plot("e2-gdi-chosen-centre.png", |path| {
        plot::gdi_scatter(
            &lib.gdis,
            &choice.centre,
            EPS,
            &format!(
                "GDI of {n} deals and the chosen centre {} (ring: 0.15)",
                fmt_gdi2(&choice.centre)
            ),
            path,
        )
    });
    let examples = pick_examples(lib, &choice.centre);
    let mut finds = Vec::new();
    let targets = [
        ("the paper's centre", PAPER_CENTRE.to_vec(), FIND_SEEDS[0]),
        ("the chosen centre", choice.centre.clone(), FIND_SEEDS[1]),
    ];
    for (name, centre, seed) in targets {
        eprintln!(
            "experiment 2: generating {} fresh deals within {EPS} of {name} {} (at most {} tries)",
            cfg.find_want,
            fmt_gdi2(&centre),
            cfg.find_max_tries
        );
        let spec = FindSpec {
            panel: panel.clone(),
            source: DealSource {
                seed,
                bombs: Some(BOMBS),
            },
            start: 0,
            centre: centre.clone(),
            eps: EPS,
            want: cfg.find_want,
            max_tries: cfg.find_max_tries,
            rules: RuleSet::COMPETITION,
            threads: ctx.threads,
        };
        let prog = Progress::default();
        let report = progress::with_bar(cfg.find_max_tries, "deals tried", &prog.deals, || {
            ctx.rt
                .block_on(arena_deals::find(&*ctx.store, &spec, &prog, &ctx.stop))
        })?;
        ctx.check_stop()?;
        ctx.games += report.games;
        finds.push(FindRun {
            name,
            centre,
            seed,
            want: cfg.find_want,
            max_tries: cfg.find_max_tries,
            report,
        });
    }
    Ok(E2 {
        components: components(&lib.gdis, 3),
        histogram: histogram_g2_g3(&lib.gdis),
        choice,
        examples,
        finds,
        scatter_paper,
        scatter_chosen,
        tables: panel.landlords.len(),
    })
}

// ---------------------------------------------------------------------------------------------
// The true ranking: a very long duplicate run on fresh deals.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, serde::Serialize)]
struct Gap {
    better: String,
    worse: String,
    /// Mean landlord-score difference per deal (paired: both played the same deal).
    mean_difference: f64,
    standard_error: f64,
    z: f64,
}

struct Truth {
    names: Vec<String>,
    rounds: u64,
    totals: Vec<f64>,
    /// Tables best first by total.
    order: Vec<usize>,
    gaps: Vec<Gap>,
}

impl Truth {
    fn levels_best_first(&self) -> String {
        ranking_levels(&self.order, &self.names)
    }
}

/// Tables best first as their ladder levels, e.g. `70 › 56 › 42`.
fn ranking_levels(order: &[usize], names: &[String]) -> String {
    order
        .iter()
        .map(|&t| level_of(&names[t]))
        .collect::<Vec<_>>()
        .join(" › ")
}

fn level_of(name: &str) -> String {
    name.strip_prefix("ladder:")
        .and_then(|s| s.split('/').next())
        .unwrap_or(name)
        .to_string()
}

fn true_ranking(ctx: &mut Ctx, cfg: &Config, t: &Tables, cache: &mut GameCache) -> Result<Truth> {
    let n = t.landlords.len();
    let source = DealSource {
        seed: TRUTH_SEED,
        bombs: Some(BOMBS),
    };
    // One deal per "match", so play_plan hands back every deal's scores and the paired
    // differences between tables can be measured.
    let mut matches = Vec::with_capacity(cfg.truth_rounds as usize);
    for i in 0..cfg.truth_rounds {
        let deal = Deal::generate_with(TRUTH_SEED, i, &DealConstraint { bombs: Some(BOMBS) })?;
        let slot = Slot {
            id: source.deal_id(i),
            deal,
            expected: 0.0,
        };
        matches.push(vec![vec![slot; n]]);
    }
    let p = Plan { matches };
    let per_deal = ctx
        .play(
            &format!(
                "true ranking: duplicate, 1 match of {} rounds on fresh deals",
                cfg.truth_rounds
            ),
            t,
            &[(&p, &Format::Duplicate)],
            cache,
        )?
        .remove(0);
    let totals: Vec<f64> = (0..n)
        .map(|k| per_deal.iter().map(|d| d[k]).sum())
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| totals[b].total_cmp(&totals[a]).then(a.cmp(&b)));
    let gaps = order
        .windows(2)
        .map(|w| {
            let diffs: Vec<f64> = per_deal.iter().map(|d| d[w[0]] - d[w[1]]).collect();
            let k = diffs.len().max(2) as f64;
            let m = diffs.iter().sum::<f64>() / k;
            let var = diffs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (k - 1.0);
            let se = (var / k).sqrt();
            Gap {
                better: t.landlords[w[0]].clone(),
                worse: t.landlords[w[1]].clone(),
                mean_difference: m,
                standard_error: se,
                z: if se > 0.0 { m / se } else { f64::INFINITY },
            }
        })
        .collect();
    Ok(Truth {
        names: t.landlords.clone(),
        rounds: cfg.truth_rounds,
        totals,
        order,
        gaps,
    })
}

// ---------------------------------------------------------------------------------------------
// Experiment 3: formats, as the paper ran them.
// ---------------------------------------------------------------------------------------------

struct E3 {
    names: Vec<String>,
    centre: Vec<f64>,
    cells: Vec<Cell>,
}

fn e3_formats(centre: &[f64], eps: &[f64]) -> Vec<Format> {
    let mut v = vec![Format::Duplicate];
    v.extend(eps.iter().map(|&e| Format::EqualStrength {
        centre: centre.to_vec(),
        eps: e,
    }));
    v.push(Format::Random);
    v.push(Format::DifficultyAdjusted);
    v
}

fn experiment3(
    ctx: &mut Ctx,
    cfg: &Config,
    lib: &Library,
    centre: &[f64],
    truth: &Truth,
    cache: &mut GameCache,
) -> Result<E3> {
    let t = tables(&E3_LEVELS);
    let names = t.landlords.clone();
    let mut planned: Vec<(Format, usize, Planned)> = Vec::new();
    for f in e3_formats(centre, &cfg.e3_eps) {
        for &m in &cfg.e3_rounds {
            let p = plan_preferring_fresh(&f, lib, names.len(), cfg.e3_matches, m, E3_SEED, true);
            planned.push((f.clone(), m, p));
        }
    }
    let jobs: Vec<(&Plan, &Format)> = planned
        .iter()
        .filter_map(|(f, _, p)| p.as_ref().ok().map(|(p, _)| (p, f)))
        .collect();
    let mut totals = ctx
        .play(
            &format!(
                "experiment 3: {} formats × rounds {:?} × {} matches",
                planned.len() / cfg.e3_rounds.len().max(1),
                cfg.e3_rounds,
                cfg.e3_matches
            ),
            &t,
            &jobs,
            cache,
        )?
        .into_iter();
    let mut cells = Vec::new();
    for (format, rounds, p) in planned {
        let label = format_label(&format);
        let slug = format_slug(&format);
        let outcome = match p {
            Ok((_, reuse)) => {
                let tot = totals.next().unwrap_or_default();
                let standings = Standings::from_totals(names.clone(), tot, rounds, E3_SEED);
                let agreement = agreement(&standings, &truth.order);
                let title = format!("{label}: {rounds} rounds x {} matches", cfg.e3_matches);
                let heatmap = ctx.plot(&format!("e3-{slug}-{rounds}-rounds.png"), |path| {
                    plot::rank_heatmap(&standings, &title, path)
                });
                Ok(Played {
                    reuse,
                    standings,
                    agreement,
                    heatmap,
                })
            }
            Err(e) => Err(e),
        };
        cells.push(Cell {
            eligible: eligible(&format, lib),
            format,
            label,
            rounds,
            matches: cfg.e3_matches,
            outcome,
        });
    }
    Ok(E3 {
        names,
        centre: centre.to_vec(),
        cells,
    })
}

// ---------------------------------------------------------------------------------------------
// Experiment 4: rounds needed.
// ---------------------------------------------------------------------------------------------

struct E4 {
    matches: usize,
    rounds: Vec<usize>,
    /// Per format, one cell per number of rounds.
    series: Vec<Vec<Cell>>,
    exact_plot: Option<String>,
    tau_plot: Option<String>,
}

/// The smallest number of rounds whose value reaches `level`, if any.
fn rounds_to_reach(points: &[(usize, f64)], level: f64) -> Option<usize> {
    points.iter().find(|(_, v)| *v >= level).map(|(m, _)| *m)
}

fn experiment4(
    ctx: &mut Ctx,
    cfg: &Config,
    lib: &Library,
    centre: &[f64],
    truth: &Truth,
    cache: &mut GameCache,
) -> Result<E4> {
    let t = tables(&E3_LEVELS);
    let names = t.landlords.clone();
    let formats = [
        Format::Duplicate,
        Format::EqualStrength {
            centre: centre.to_vec(),
            eps: EPS,
        },
        Format::Random,
        Format::DifficultyAdjusted,
    ];
    let mut series = Vec::new();
    for f in &formats {
        let planned: Vec<(usize, Planned)> = cfg
            .e4_rounds
            .iter()
            .map(|&m| {
                let p =
                    plan_preferring_fresh(f, lib, names.len(), cfg.e4_matches, m, E4_SEED, false);
                (m, p)
            })
            .collect();
        let jobs: Vec<(&Plan, &Format)> = planned
            .iter()
            .filter_map(|(_, p)| p.as_ref().ok().map(|(p, _)| (p, f)))
            .collect();
        let mut totals = ctx
            .play(
                &format!(
                    "experiment 4: {}, rounds {:?} × {} matches",
                    format_label(f),
                    cfg.e4_rounds,
                    cfg.e4_matches
                ),
                &t,
                &jobs,
                cache,
            )?
            .into_iter();
        let cells: Vec<Cell> = planned
            .into_iter()
            .map(|(rounds, p)| {
                let outcome = p.map(|(_, reuse)| {
                    let tot = totals.next().unwrap_or_default();
                    let standings = Standings::from_totals(names.clone(), tot, rounds, E4_SEED);
                    Played {
                        reuse,
                        agreement: agreement(&standings, &truth.order),
                        standings,
                        heatmap: None,
                    }
                });
                Cell {
                    format: f.clone(),
                    label: format_label(f),
                    rounds,
                    matches: cfg.e4_matches,
                    eligible: eligible(f, lib),
                    outcome,
                }
            })
            .collect();
        series.push(cells);
    }
    let curves = |pick: fn(&Agreement) -> f64| -> Vec<(String, Vec<(f64, f64)>)> {
        series
            .iter()
            .map(|cells| {
                let pts = cells
                    .iter()
                    .filter_map(|c| {
                        c.outcome
                            .as_ref()
                            .ok()
                            .map(|p| (c.rounds as f64, pick(&p.agreement)))
                    })
                    .collect();
                (cells[0].label.clone(), pts)
            })
            .collect()
    };
    let exact = curves(|a| a.exact_share);
    let taus = curves(|a| a.mean_tau);
    let tau_min = taus
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1))
        .fold(0.0, f64::min);
    let title_exact = format!(
        "Share of {} matches ranking the 5 tables exactly as the true ranking",
        cfg.e4_matches
    );
    let exact_plot = ctx.plot("e4-exact-vs-rounds.png", |path| {
        plot::lines(
            &title_exact,
            "rounds per match",
            "share of matches with the true ranking",
            &exact,
            (0.0, 1.02),
            path,
        )
    });
    let tau_plot = ctx.plot("e4-tau-vs-rounds.png", |path| {
        plot::lines(
            "Mean Kendall tau of a match's ranking against the true ranking",
            "rounds per match",
            "mean Kendall tau",
            &taus,
            (tau_min.min(0.0) - 0.05, 1.02),
            path,
        )
    });
    Ok(E4 {
        matches: cfg.e4_matches,
        rounds: cfg.e4_rounds.clone(),
        series,
        exact_plot,
        tau_plot,
    })
}

impl E4 {
    /// Per format: (label, smallest rounds with exact share ≥ 0.5, with ≥ 0.9).
    fn thresholds(&self) -> Vec<(String, Option<usize>, Option<usize>)> {
        self.series
            .iter()
            .map(|cells| {
                let pts: Vec<(usize, f64)> = cells
                    .iter()
                    .filter_map(|c| {
                        c.outcome
                            .as_ref()
                            .ok()
                            .map(|p| (c.rounds, p.agreement.exact_share))
                    })
                    .collect();
                (
                    cells[0].label.clone(),
                    rounds_to_reach(&pts, 0.5),
                    rounds_to_reach(&pts, 0.9),
                )
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// The paper's claim.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, serde::Serialize)]
struct ClaimRow {
    rounds: usize,
    equal_strength: Option<Agreement>,
    random: Option<Agreement>,
    duplicate: Option<Agreement>,
    /// τ between equal-strength's and the duplicate tournament's final rankings (same rounds).
    equal_strength_vs_duplicate_tau: Option<f64>,
    random_vs_duplicate_tau: Option<f64>,
}

/// Experiment 4's larger sample at one match length, for the claim.
#[derive(Clone, Debug, serde::Serialize)]
struct ClaimCurvePoint {
    rounds: usize,
    matches: usize,
    equal_strength: Agreement,
    random: Agreement,
}

#[derive(Clone, Debug, serde::Serialize)]
struct Claim {
    rows: Vec<ClaimRow>,
    /// Match lengths at which equal-strength (ε = 0.15) could be dealt.
    lengths: usize,
    /// … and at which its final ranking equals the true ranking.
    equal_strength_hits: usize,
    /// … and at which it equals the duplicate tournament's final ranking.
    equal_strength_duplicate_hits: usize,
    /// Every length where equal-strength and duplicate differ is one where duplicate itself
    /// missed the true ranking.
    duplicate_missed_where_they_differ: bool,
    /// Match lengths at which random deals' final ranking differs from the true ranking.
    random_misses: usize,
    /// Averages over match lengths of the per-match figures.
    equal_strength_mean_tau: f64,
    random_mean_tau: f64,
    equal_strength_exact_share: f64,
    random_exact_share: f64,
    /// Equal-strength final rankings equal the true ranking at every match length.
    equal_strength_matches_truth: bool,
    /// Random final rankings differ from the true ranking at some match length.
    random_differs_from_truth: bool,
    /// Random's mean per-match τ is below equal-strength's.
    random_agrees_less_per_match: bool,
    /// The same comparison in experiment 4 at 10 rounds (or the nearest length played).
    curve: Option<ClaimCurvePoint>,
    /// `holds here`, `holds only in part here`, `does not hold here` or `cannot be checked here`.
    verdict: String,
    /// Why, in one clause.
    reason: String,
}

fn is_paper_es(f: &Format) -> bool {
    matches!(f, Format::EqualStrength { eps, .. } if (eps - EPS).abs() < 1e-9)
}

fn check_claim(e3: &E3, e4: &E4) -> Claim {
    let find = |pred: &dyn Fn(&Format) -> bool, rounds: usize| {
        e3.cells
            .iter()
            .find(|c| c.rounds == rounds && pred(&c.format))
            .and_then(|c| c.outcome.as_ref().ok())
    };
    let mut rounds: Vec<usize> = e3.cells.iter().map(|c| c.rounds).collect();
    rounds.sort_unstable();
    rounds.dedup();
    let rows: Vec<ClaimRow> = rounds
        .iter()
        .map(|&m| {
            let es = find(&is_paper_es, m);
            let rnd = find(&|f| *f == Format::Random, m);
            let dup = find(&|f| *f == Format::Duplicate, m);
            let vs_dup = |x: Option<&Played>| {
                x.zip(dup)
                    .map(|(x, d)| kendall_tau(&x.standings.final_order, &d.standings.final_order))
            };
            ClaimRow {
                rounds: m,
                equal_strength: es.map(|p| p.agreement.clone()),
                random: rnd.map(|p| p.agreement.clone()),
                duplicate: dup.map(|p| p.agreement.clone()),
                equal_strength_vs_duplicate_tau: vs_dup(es),
                random_vs_duplicate_tau: vs_dup(rnd),
            }
        })
        .collect();
    let es: Vec<&Agreement> = rows
        .iter()
        .filter_map(|r| r.equal_strength.as_ref())
        .collect();
    let rnd: Vec<&Agreement> = rows.iter().filter_map(|r| r.random.as_ref()).collect();
    let mean = |v: &[&Agreement], f: fn(&Agreement) -> f64| {
        v.iter().map(|a| f(a)).sum::<f64>() / v.len().max(1) as f64
    };
    let equal_strength_hits = es.iter().filter(|a| a.final_tau >= 1.0).count();
    let equal_strength_duplicate_hits = rows
        .iter()
        .filter(|r| r.equal_strength_vs_duplicate_tau.is_some_and(|t| t >= 1.0))
        .count();
    let duplicate_missed_where_they_differ = rows
        .iter()
        .filter(|r| r.equal_strength_vs_duplicate_tau.is_some_and(|t| t < 1.0))
        .all(|r| r.duplicate.as_ref().is_some_and(|d| d.final_tau < 1.0));
    let random_misses = rnd.iter().filter(|a| a.final_tau < 1.0).count();
    let (es_tau, rnd_tau) = (mean(&es, |a| a.mean_tau), mean(&rnd, |a| a.mean_tau));
    let es_matches = !es.is_empty() && equal_strength_hits == rows.len();
    let rnd_differs = random_misses > 0;
    let rnd_less = !es.is_empty() && !rnd.is_empty() && rnd_tau < es_tau;
    let curve = {
        let series = |pred: &dyn Fn(&Format) -> bool| e4.series.iter().find(|s| pred(&s[0].format));
        let (es_s, rnd_s) = (series(&is_paper_es), series(&|f| *f == Format::Random));
        es_s.zip(rnd_s).and_then(|(a, b)| {
            let target = e4.rounds.iter().min_by_key(|&&m| m.abs_diff(10)).copied()?;
            let at = |s: &Vec<Cell>| {
                s.iter()
                    .find(|c| c.rounds == target)
                    .and_then(|c| c.outcome.as_ref().ok())
                    .map(|p| p.agreement.clone())
            };
            Some(ClaimCurvePoint {
                rounds: target,
                matches: e4.matches,
                equal_strength: at(a)?,
                random: at(b)?,
            })
        })
    };
    let (verdict, reason) = if es.is_empty() {
        (
            "cannot be checked here",
            "equal-strength deals at ε = 0.15 could not be dealt from this library",
        )
    } else if es_matches && rnd_differs {
        (
            "holds here",
            "equal-strength matched the true ranking at every match length, random deals did not",
        )
    } else if es_matches {
        (
            "holds only in part here",
            "equal-strength matched the true ranking, but random deals did too",
        )
    } else {
        (
            "does not hold here",
            "equal-strength final rankings at ε = 0.15 missed the true ranking",
        )
    };
    Claim {
        lengths: es.len(),
        equal_strength_hits,
        equal_strength_duplicate_hits,
        duplicate_missed_where_they_differ,
        random_misses,
        equal_strength_mean_tau: es_tau,
        random_mean_tau: rnd_tau,
        equal_strength_exact_share: mean(&es, |a| a.exact_share),
        random_exact_share: mean(&rnd, |a| a.exact_share),
        rows,
        equal_strength_matches_truth: es_matches,
        random_differs_from_truth: rnd_differs,
        random_agrees_less_per_match: rnd_less,
        curve,
        verdict: verdict.to_string(),
        reason: reason.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// results.json
// ---------------------------------------------------------------------------------------------

#[allow(clippy::too_many_arguments)]
fn results_json(
    cfg: &Config,
    run: &RunInfo,
    lib: &Library,
    e1: &E1,
    e2: &E2,
    truth: &Truth,
    e3: &E3,
    e4: &E4,
    claim: &Claim,
) -> Value {
    let examples: Vec<Value> = e2
        .examples
        .iter()
        .map(|x| {
            json!({"role": x.role, "id": x.record.id, "deal": x.record.deal.to_string(),
                   "gdi": x.record.gdi, "counts": x.record.counts, "levels": x.record.levels,
                   "distance": x.distance, "within_eps": x.distance <= EPS,
                   "bombs": record_bomb_holders(&x.record), "meaning": meaning(&x.record.gdi, e2.tables)})
        })
        .collect();
    let finds: Vec<Value> = e2
        .finds
        .iter()
        .map(|f| {
            json!({"target": f.name, "centre": f.centre, "eps": EPS, "seed": f.seed, "want": f.want,
                   "max_tries": f.max_tries, "found": f.report.found.len(), "tried": f.report.tried,
                   "fully_measured": f.report.fully_measured, "games": f.report.games,
                   "games_if_fully_measured": f.report.tried * e2.tables as u64,
                   "seconds": f.report.seconds, "gave_up": f.gave_up(),
                   "deals": f.report.found.iter().map(|r| json!({"id": r.id, "deal": r.deal.to_string(), "gdi": r.gdi, "distance": distance(&r.gdi, &f.centre)})).collect::<Vec<_>>()})
        })
        .collect();
    json!({
        "scale": run.scale.name(),
        "seconds": run.seconds,
        "threads": run.threads,
        "store": run.store,
        "games_played": run.games,
        "timings": run.timings.iter().map(|(k, s)| json!({"stage": k, "seconds": s})).collect::<Vec<_>>(),
        "warnings": run.warnings,
        "config": cfg.json(),
        "panel": {"id": run.panel.id, "description": arena_deals::describe(run.panel),
                   "landlords": run.panel.landlords.len(), "down": run.panel.down, "up": run.panel.up,
                   "scoring": run.panel.scoring},
        "library": {"seed": lib.source.seed, "bombs": lib.source.bombs, "deals": lib.records.len(),
                     "measurement": lib.report},
        "experiment1": {
            "tables": e1.names, "format": "duplicate", "matches": e1.standings.totals.len(),
            "rounds": cfg.e1_rounds, "reuse": reuse_name(e1.reuse),
            "level_order": e1.level_order.iter().map(|&t| &e1.names[t]).collect::<Vec<_>>(),
            "final_ranking": e1.standings.final_order.iter().map(|&t| &e1.names[t]).collect::<Vec<_>>(),
            "equals_level_order": e1.standings.final_order == e1.level_order,
            "agreement_with_levels": e1.vs_levels, "heatmap": e1.heatmap, "standings": e1.standings,
        },
        "experiment2": {
            "deals": lib.gdis.len(),
            "components": e2.components,
            "histogram_g2_g3": {"bin_width": 0.1, "rows": "g2 bin (0 = [0, 0.1))", "columns": "g3 bin", "counts": e2.histogram},
            "paper_centre": {"centre": PAPER_CENTRE, "radii": RADII, "within": e2.choice.paper_within},
            "centre_choice": e2.choice,
            "examples": examples,
            "find": finds,
            "scatter_paper_centre": e2.scatter_paper,
            "scatter_chosen_centre": e2.scatter_chosen,
        },
        "truth": {
            "format": "duplicate", "rounds": truth.rounds, "deal_seed": TRUTH_SEED, "bombs": BOMBS,
            "tables": truth.names, "totals": truth.totals,
            "mean_score": truth.totals.iter().map(|t| t / truth.rounds.max(1) as f64).collect::<Vec<_>>(),
            "ranking": truth.order.iter().map(|&t| &truth.names[t]).collect::<Vec<_>>(),
            "equals_level_order": truth.order.iter().copied().eq((0..truth.names.len()).rev()),
            "adjacent_gaps": truth.gaps,
        },
        "experiment3": {
            "tables": e3.names, "centre": e3.centre,
            "cells": e3.cells.iter().map(|c| cell_json(c, &e3.names)).collect::<Vec<_>>(),
        },
        "experiment4": {
            "matches": e4.matches, "rounds": e4.rounds, "reuse": "across-matches",
            "exact_plot": e4.exact_plot, "tau_plot": e4.tau_plot,
            "series": e4.series.iter().zip(e4.thresholds()).map(|(cells, (label, half, ninety))| json!({
                "label": label, "format": cells[0].format,
                "rounds_for_exact_share_0_5": half, "rounds_for_exact_share_0_9": ninety,
                "points": cells.iter().map(|c| cell_json(c, &e3.names)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        },
        "claim": claim,
    })
}

// ---------------------------------------------------------------------------------------------
// report.md
// ---------------------------------------------------------------------------------------------

fn n_fmt(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn rank_table(s: &Standings, label: impl Fn(usize) -> String) -> String {
    let n = s.tables.len();
    let mut md = String::from("| place | table |");
    for k in 1..=n {
        let _ = write!(md, " P(#{k}) |");
    }
    md += " mean rank | mean score / round |\n|---:|---|";
    md += &"---:|".repeat(n + 2);
    md += "\n";
    for (place, &t) in s.final_order.iter().enumerate() {
        let _ = write!(md, "| {} | {} |", place + 1, label(t));
        for k in 0..n {
            let p = s.rank_probs[t][k];
            let cell = if p == 0.0 {
                "·".to_string()
            } else if k + 1 == s.most_probable[t] {
                format!("**{p:.2}**")
            } else {
                format!("{p:.2}")
            };
            let _ = write!(md, " {cell} |");
        }
        let _ = writeln!(md, " {:.2} | {:+.3} |", s.mean_rank[t], s.mean_score[t]);
    }
    md
}

fn opt_rounds(x: Option<usize>, max: usize) -> String {
    x.map_or_else(|| format!("> {max}"), |m| m.to_string())
}

#[allow(clippy::too_many_arguments)]
fn report_md(
    cfg: &Config,
    run: &RunInfo,
    lib: &Library,
    e1: &E1,
    e2: &E2,
    truth: &Truth,
    e3: &E3,
    e4: &E4,
    claim: &Claim,
) -> String {
    let mut md = String::new();
    let ntables = e2.tables;
    let c = &e2.choice;
    let _ = writeln!(md, "# The equal-strength paper, reproduced\n");
    let find_games: u64 = e2.finds.iter().map(|f| f.report.games).sum();
    let _ = writeln!(
        md,
        "Scale **{}**. Library: {} one-bomb deals (deals 0–{} of seed {}), each played by {} (panel `{}`); {}. \
         The whole run took {:.0} s on {} threads and played {} games besides the library's measurement \
         ({} of them in the on-demand searches). Every number below is in [`results.json`](results.json); \
         `docs/experiment-paper.md` explains how to read this report.\n",
        run.scale.name(),
        n_fmt(lib.records.len() as u64),
        n_fmt(lib.records.len().saturating_sub(1) as u64),
        lib.source.seed,
        arena_deals::describe(run.panel),
        run.panel.id,
        if lib.report.measured == 0 {
            "all of them were already measured in the store".to_string()
        } else {
            format!(
                "{} measured by this run ({} games, {:.0} s), {} reused from the store",
                n_fmt(lib.report.measured),
                n_fmt(lib.report.games),
                lib.report.seconds,
                n_fmt(lib.report.already)
            )
        },
        run.seconds,
        run.threads,
        n_fmt(run.games),
        n_fmt(find_games)
    );
    for w in &run.warnings {
        let _ = writeln!(md, "> **Warning:** {w}\n");
    }

    // Summary.
    let _ = writeln!(md, "## Summary\n");
    let _ = writeln!(
        md,
        "- **Experiment 1.** In a {}-match duplicate tournament the ten ladder levels finish {} \
         (Kendall τ against the level order {:.2}).",
        cfg.e1_matches,
        if e1.standings.final_order == e1.level_order {
            "exactly in level order".to_string()
        } else {
            format!(
                "in the order {}, not exactly the level order",
                ranking_levels(&e1.standings.final_order, &e1.names)
            )
        },
        e1.vs_levels.final_tau
    );
    let _ = writeln!(
        md,
        "- **Experiment 2.** {} of {} deals ({}) lie within 0.15 of the paper's centre {}. {}",
        c.paper_within[0],
        n_fmt(lib.gdis.len() as u64),
        share(c.paper_within[0], lib.gdis.len()),
        fmt_gdi2(&PAPER_CENTRE),
        if c.rule == "paper" {
            "That is enough, so the experiments use it.".to_string()
        } else {
            format!(
                "The experiments use the centre **{}** instead, chosen from the measured library with the same meaning (see below); {} deals lie within 0.15 of it.",
                fmt_gdi(&c.centre),
                n_fmt(c.within[0] as u64)
            )
        }
    );
    let _ = writeln!(
        md,
        "- **True ranking** (duplicate, {} rounds on fresh deals): {}{}.",
        n_fmt(truth.rounds),
        truth.levels_best_first(),
        if truth.order.iter().copied().eq((0..truth.names.len()).rev()) {
            " — the level order"
        } else {
            " — not the level order"
        }
    );
    let _ = writeln!(
        md,
        "- **Experiment 3.** Kendall τ of each format's final ranking against the true ranking, by rounds per match:\n"
    );
    let _ = write!(md, "  | format |");
    for m in &cfg.e3_rounds {
        let _ = write!(md, " {m} rounds |");
    }
    let _ = write!(md, "\n  |---|{}\n", "---:|".repeat(cfg.e3_rounds.len()));
    let mut labels: Vec<String> = e3.cells.iter().map(|c| c.label.clone()).collect();
    labels.dedup();
    for l in &labels {
        let _ = write!(md, "  | {l} |");
        for m in &cfg.e3_rounds {
            let cell = e3.cells.iter().find(|c| &c.label == l && c.rounds == *m);
            let s = match cell.map(|c| &c.outcome) {
                Some(Ok(p)) => format!("{:.2}", p.agreement.final_tau),
                _ => "skipped".into(),
            };
            let _ = write!(md, " {s} |");
        }
        md += "\n";
    }
    md += "\n";
    let max_m = e4.rounds.iter().max().copied().unwrap_or(0);
    let th: Vec<String> = e4
        .thresholds()
        .iter()
        .map(|(l, h, n)| format!("{l} {} / {}", opt_rounds(*h, max_m), opt_rounds(*n, max_m)))
        .collect();
    let _ = writeln!(
        md,
        "- **Rounds needed** for half / 90% of matches to rank all five tables exactly right: {}.",
        th.join("; ")
    );
    let final_taus = |pick: fn(&ClaimRow) -> Option<&Agreement>| {
        claim
            .rows
            .iter()
            .map(|r| pick(r).map_or("—".to_string(), |a| format!("{:.2}", a.final_tau)))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let _ = writeln!(
        md,
        "- **The paper's claim {}**: final τ of equal-strength (ε = 0.15) {} and of random deals {} \
         for {} rounds; single matches ranked all five tables right {} of the time with equal-strength \
         deals, {} with random deals.\n",
        claim.verdict,
        final_taus(|r| r.equal_strength.as_ref()),
        final_taus(|r| r.random.as_ref()),
        or_list(&cfg.e3_rounds),
        pct(claim.equal_strength_exact_share),
        pct(claim.random_exact_share)
    );

    // How to read.
    let _ = writeln!(md, "## Terms\n");
    let _ = writeln!(
        md,
        "- **Tables.** Each table has its own landlord bot, a level of arena's {LADDER}-level skill ladder \
         (`ladder:K/{LADDER}`: the expert rule player that plays a random legal move with probability \
         ((70 − K)/69)², so level 70 is the pure expert and level 1 plays at random), and the same \
         `{FARMERS}` bot in both farmer seats. Landlords score with the paper's difficulty scoring: \
         ±1 for a win or loss, ±2 when the deal's bomb was played.\n\
         - **GDI** of a deal: the {ntables} ladder levels each play it as landlord. With one bomb the scores \
         are −2 < −1 < 1 < 2, and G = (g1, g2, g3): g1 = share of tables scoring −1 or more (1 − g1 lost \
         with the bomb played), g2 = share that won, g3 = share that won with the bomb played.\n\
         - **Formats.** Duplicate: every table gets the same deal in a round. Equal-strength: every table \
         gets a different deal within ε of a centre GDI. Random: every table gets an independent deal. \
         Difficulty-adjusted (arena's addition): random deals, each table scored by its landlord score \
         minus the deal's expected score (the {ntables} panel landlords' mean score on it).\n\
         - **Rank probabilities.** A match is m rounds; tables are ranked by their summed score in each \
         match (ties broken at random). P(#k) is the share of matches a table finished k-th; the final \
         ranking orders tables by their most probable place (in **bold**), ties by mean rank.\n\
         - **Agreement.** Kendall τ compares two rankings: 1 = identical, 0 = unrelated, −1 = reversed; \
         with five tables one swapped neighbouring pair gives τ = 0.8. *Final τ* compares the final \
         ranking with the true one; *mean τ per match* and the *exact share* (share of matches ranking all \
         tables exactly as the true ranking) measure single matches.\n"
    );

    // Experiment 1.
    let _ = writeln!(md, "## Experiment 1 — the ladder's levels are distinct\n");
    let _ = writeln!(
        md,
        "The paper's figure 3: ten landlord levels ({}) of the {LADDER} play a duplicate tournament of \
         {} matches × {} rounds against the same farmers (deals from the library, {}). \
         Rows are in final order.\n",
        E1_LEVELS.map(|l| l.to_string()).join(", "),
        cfg.e1_matches,
        cfg.e1_rounds,
        if e1.reuse == Reuse::Never {
            "no deal used twice".to_string()
        } else {
            "deals reused across matches: the library is too small for fresh ones".to_string()
        }
    );
    md += &rank_table(&e1.standings, |t| format!("`{}`", e1.names[t]));
    md += "\n";
    if let Some(h) = &e1.heatmap {
        let _ = writeln!(md, "![rank probabilities of the ten levels]({h})\n");
    }
    let _ = writeln!(
        md,
        "Final ranking (levels, best first): {}. {} Kendall τ against the level order: **{:.2}**; \
         per match: mean τ {:.2} ± {:.2}, {} of matches exactly in level order.\n",
        ranking_levels(&e1.standings.final_order, &e1.names),
        if e1.standings.final_order == e1.level_order {
            "It **equals the level order**."
        } else {
            "It is **not exactly the level order**."
        },
        e1.vs_levels.final_tau,
        e1.vs_levels.mean_tau,
        e1.vs_levels.mean_tau_se,
        pct(e1.vs_levels.exact_share)
    );

    // Experiment 2.
    let _ = writeln!(md, "## Experiment 2 — GDI near a centre, and distances\n");
    let _ = writeln!(
        md,
        "### The measured distribution\n\n{} deals, each played by the {ntables} landlords: {} games. \
         Quantiles of each GDI component:\n",
        n_fmt(lib.gdis.len() as u64),
        n_fmt(lib.gdis.len() as u64 * ntables as u64)
    );
    md += "| component | meaning | mean | p5 | p10 | p25 | median | p75 | p90 | p95 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    let comp_meaning = [
        "not lost with the bomb",
        "landlord wins",
        "wins with the bomb",
    ];
    for (k, x) in e2.components.iter().enumerate() {
        let _ = writeln!(
            md,
            "| g{} | {} | {:.3} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            x.g,
            comp_meaning.get(k).unwrap_or(&""),
            x.mean,
            x.p05,
            x.p10,
            x.p25,
            x.p50,
            x.p75,
            x.p90,
            x.p95
        );
    }
    let _ = writeln!(
        md,
        "\nDeals by g2 (rows: share of landlords that win) and g3 (columns: share that win with the bomb \
         played). g3 ≤ g2 always, so the upper right is empty:\n"
    );
    md += "| g2 \\ g3 |";
    for j in 0..10 {
        let _ = write!(md, " {:.1}–{:.1} |", j as f64 / 10.0, (j + 1) as f64 / 10.0);
    }
    md += "\n|---|";
    md += &"---:|".repeat(10);
    md += "\n";
    for i in (0..10).rev() {
        let _ = write!(
            md,
            "| **{:.1}–{:.1}** |",
            i as f64 / 10.0,
            (i + 1) as f64 / 10.0
        );
        for j in 0..10 {
            let v = e2.histogram[i][j];
            let _ = write!(md, " {} |", if v == 0 { "·".into() } else { v.to_string() });
        }
        md += "\n";
    }
    md += "\n";
    if let Some(p) = &e2.scatter_paper {
        let _ = writeln!(
            md,
            "![GDI scatter with the paper's centre]({p})\n\n*g2 against g1 for every deal; colour from \
             blue (g3 = 0) to red (g3 = 1); the black dot and ring are the paper's centre and ε = 0.15 \
             (projected: the ring ignores g3).*\n"
        );
    }

    let _ = writeln!(md, "### The centre\n");
    let _ = writeln!(
        md,
        "The paper's centre {} is an easy deal for the landlord: {} of landlords win it, {} with the bomb \
         played. Within 0.15 / 0.20 / 0.25 of it lie **{} / {} / {}** of the {} measured deals.\n",
        fmt_gdi2(&PAPER_CENTRE),
        pct(PAPER_CENTRE[1]),
        pct(PAPER_CENTRE[2]),
        c.paper_within[0],
        c.paper_within[1],
        c.paper_within[2],
        n_fmt(lib.gdis.len() as u64)
    );
    match c.rule {
        "paper" => {
            let _ = writeln!(
                md,
                "That is at least the {} deals experiment 3 needs, so the experiments use the paper's centre.\n",
                c.need
            );
        }
        rule => {
            let _ = writeln!(
                md,
                "Experiment 3 needs {} distinct deals within 0.15 to never reuse one, so the paper's centre \
                 cannot be used with this panel: against arena's `{FARMERS}` farmers hardly any deal is that \
                 easy for the landlord (the median deal is won by {} of landlords). The experiments use a \
                 centre **of the same meaning** — most landlords win, and most of them win with the bomb — \
                 placed where the measured deals are:\n",
                n_fmt(c.need as u64),
                pct(e2.components.get(1).map_or(0.0, |x| x.p50))
            );
            if let Some(s) = &c.shift {
                if rule == "same-meaning-mode" {
                    let _ = writeln!(
                        md,
                        "1. Take the deals with that meaning: g2 ≥ 0.5 (most tables win) and g3 ≥ g2 / 2 \
                         (most wins come with the bomb played): {} deals.\n\
                         2. Start at their mean GDI, {}.\n\
                         3. Move to the densest point among them by mean shift: repeat *centre ← mean GDI of \
                         those deals within 0.15 of the centre* until it stops moving ({} steps{}).\n",
                        n_fmt(c.same_meaning_deals as u64),
                        fmt_gdi(&s.start),
                        s.iterations,
                        if s.converged {
                            ""
                        } else {
                            ", step limit reached"
                        }
                    );
                } else {
                    let _ = writeln!(
                        md,
                        "No deal has the paper centre's meaning in this library, so the centre is the mean \
                         GDI of the landlord-favoured deals (g2 ≥ 0.5, {} deals), {}, moved by mean shift \
                         over all deals to {} ({} steps).\n",
                        c.favoured_deals,
                        fmt_gdi(&s.start),
                        fmt_gdi(&s.mode),
                        s.iterations
                    );
                }
            } else {
                let _ = writeln!(
                    md,
                    "No landlord-favoured deal exists in this library, so the experiments fall back to the paper's centre.\n"
                );
            }
            let _ = writeln!(
                md,
                "**Chosen centre: {}** — {}. Within 0.15 / 0.20 / 0.25 of it lie **{} / {} / {}** deals.\n",
                fmt_gdi(&c.centre),
                meaning(&c.centre, ntables),
                n_fmt(c.within[0] as u64),
                n_fmt(c.within[1] as u64),
                n_fmt(c.within[2] as u64)
            );
            if let (Some(s), "same-meaning-mode") = (&c.simple_rule, rule) {
                let _ = writeln!(
                    md,
                    "Why not simply start from the mean of all landlord-favoured deals (g2 ≥ 0.5, {} deals, \
                     mean {}) and mean-shift over all deals? That ends at {}: {}. The table above shows why: \
                     among deals most landlords win, g3 is bimodal — either the bomb is played in nearly \
                     every win, or in hardly any — and the plain mean lies in the valley between, from where \
                     mean shift slides into the larger, bomb-less mode. That centre has another meaning than \
                     the paper's, so it is not used ({} / {} / {} deals within 0.15 / 0.20 / 0.25).\n",
                    n_fmt(c.favoured_deals as u64),
                    fmt_gdi(&s.start),
                    fmt_gdi(&s.mode),
                    meaning(&s.mode, ntables),
                    c.simple_rule_within.first().copied().unwrap_or(0),
                    c.simple_rule_within.get(1).copied().unwrap_or(0),
                    c.simple_rule_within.get(2).copied().unwrap_or(0)
                );
            }
        }
    }
    if let Some(p) = &e2.scatter_chosen {
        let _ = writeln!(md, "![GDI scatter with the chosen centre]({p})\n");
    }

    let _ = writeln!(md, "### Table 1, with the chosen centre\n");
    let _ = writeln!(
        md,
        "Five deals as in the paper's table 1: three within 0.15 of the centre {} and two outside it. \
         Deal notation: landlord's 17 cards / down farmer / up farmer / the 3 bottom cards (the landlord's).\n",
        fmt_gdi2(&c.centre)
    );
    md += "| # | deal | GDI | distance | equal strength? |\n|---:|---|---|---:|---|\n";
    for (i, x) in e2.examples.iter().enumerate() {
        let _ = writeln!(
            md,
            "| {} | `{}` | {} | {:.3} | {} |",
            i + 1,
            x.record.deal,
            fmt_gdi(&x.record.gdi),
            x.distance,
            if x.distance <= EPS { "yes" } else { "no" }
        );
    }
    md += "\n";
    for (i, x) in e2.examples.iter().enumerate() {
        let _ = writeln!(
            md,
            "{}. *{}* (`{}`; bomb: {}). {}.",
            i + 1,
            x.role,
            x.record.id,
            record_bomb_holders(&x.record),
            capitalise(&meaning(&x.record.gdi, ntables))
        );
    }
    md += "\n";

    let _ = writeln!(md, "### On-demand generation\n");
    let _ = writeln!(
        md,
        "The paper names precomputation as its method's weakness. `arena_deals::find` generates fresh \
         deals and measures each table by table, abandoning a deal as soon as its GDI provably cannot end \
         within 0.15 of the target. Asked for {} deals, at most {} tries each:\n",
        cfg.find_want,
        n_fmt(cfg.find_max_tries)
    );
    md += "| target | centre | found | deals tried | games | games without early abandoning | seconds |\n|---|---|---:|---:|---:|---:|---:|\n";
    for f in &e2.finds {
        let _ = writeln!(
            md,
            "| {} | {} | {} of {} | {} | {} | {} | {:.1} |",
            f.name,
            fmt_gdi2(&f.centre),
            f.report.found.len(),
            f.want,
            n_fmt(f.report.tried),
            n_fmt(f.report.games),
            n_fmt(f.report.tried * ntables as u64),
            f.report.seconds
        );
    }
    md += "\n";
    for f in &e2.finds {
        let rate = f.report.found.len() as f64 / f.report.tried.max(1) as f64;
        if f.gave_up() {
            let _ = writeln!(
                md,
                "- Near {}: **gave up** after {} tries with {} of {} deals found (about 1 deal in {}).{}",
                f.name,
                n_fmt(f.report.tried),
                f.report.found.len(),
                f.want,
                if rate > 0.0 {
                    n_fmt((1.0 / rate).round() as u64)
                } else {
                    format!("more than {}", n_fmt(f.report.tried))
                },
                if rate > 0.0 {
                    format!(
                        " At this rate {} deals would take about {} tries.",
                        f.want,
                        n_fmt((f.want as f64 / rate).round() as u64)
                    )
                } else {
                    String::new()
                }
            );
        } else {
            let _ = writeln!(
                md,
                "- Near {}: found all {} after {} tries (1 in {}), {:.1}× fewer games than measuring every try in full.",
                f.name,
                f.want,
                n_fmt(f.report.tried),
                n_fmt((1.0 / rate.max(1e-12)).round() as u64),
                (f.report.tried * ntables as u64) as f64 / f.report.games.max(1) as f64
            );
        }
    }
    md += "\n";

    // Truth.
    let _ = writeln!(md, "## The true ranking\n");
    let _ = writeln!(
        md,
        "Experiments 3 and 4 rank five tables, levels {} of {LADDER}. Their *true ranking* is a single \
         duplicate match of {} rounds on fresh one-bomb deals (seed {TRUTH_SEED}, never measured and never \
         dealt by the formats under test), ranked by total score: **{}**{}.\n",
        E3_LEVELS.map(|l| l.to_string()).join(", "),
        n_fmt(truth.rounds),
        truth.levels_best_first(),
        if truth.order.iter().copied().eq((0..truth.names.len()).rev()) {
            ", the level order"
        } else {
            ", which is not the level order"
        }
    );
    md += "| neighbours in the true ranking | mean score difference per deal | standard error | z |\n|---|---:|---:|---:|\n";
    for g in &truth.gaps {
        let _ = writeln!(
            md,
            "| `{}` over `{}` | {:+.4} | {:.4} | {:.1} |",
            g.better, g.worse, g.mean_difference, g.standard_error, g.z
        );
    }
    let weakest = truth
        .gaps
        .iter()
        .min_by(|a, b| a.z.total_cmp(&b.z))
        .map_or(f64::INFINITY, |g| g.z);
    let _ = writeln!(
        md,
        "\n{}\n",
        if weakest >= 3.0 {
            format!(
                "Every neighbouring pair is separated by at least {weakest:.1} standard errors (differences are paired: both tables played the same deals), so the true ranking is not an accident of the deals."
            )
        } else {
            format!(
                "The closest pair is only {weakest:.1} standard errors apart: the true ranking of that pair is uncertain, and agreement figures involving it should be read with care."
            )
        }
    );

    // Experiment 3.
    let _ = writeln!(md, "## Experiment 3 — formats\n");
    let _ = writeln!(
        md,
        "The paper's experiment 3 (its tables 3–5): the five tables under each format, {} matches of {} \
         rounds. Equal-strength deals lie within ε of the chosen centre {}. Random and \
         difficulty-adjusted play the very same deals and differ only in scoring. Deals come from the \
         library; a cell uses each deal at most once when the library has enough eligible deals, \
         otherwise deals are reused across matches (never within one) — the *reuse* column says which.\n",
        cfg.e3_matches,
        or_list(&cfg.e3_rounds),
        fmt_gdi(&e3.centre)
    );
    md += "| format | rounds | eligible deals | reuse | final ranking (levels) | final τ | mean τ per match | exact share |\n|---|---:|---:|---|---|---:|---:|---:|\n";
    for cell in &e3.cells {
        match &cell.outcome {
            Ok(p) => {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {} | {:.2} | {:.2} ± {:.2} | {:.2} |",
                    cell.label,
                    cell.rounds,
                    n_fmt(cell.eligible as u64),
                    reuse_name(p.reuse),
                    ranking_levels(&p.standings.final_order, &e3.names),
                    p.agreement.final_tau,
                    p.agreement.mean_tau,
                    p.agreement.mean_tau_se,
                    p.agreement.exact_share
                );
            }
            Err(e) => {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | — | skipped: {e} | | | |",
                    cell.label,
                    cell.rounds,
                    n_fmt(cell.eligible as u64)
                );
            }
        }
    }
    let _ = writeln!(
        md,
        "\n± is one standard error over the {} matches. True ranking: {}.\n",
        cfg.e3_matches,
        truth.levels_best_first()
    );
    for l in &labels {
        let _ = writeln!(md, "### {l}\n");
        for cell in e3.cells.iter().filter(|c| &c.label == l) {
            match &cell.outcome {
                Ok(p) => {
                    let _ = writeln!(
                        md,
                        "**{} rounds × {} matches** — final ranking {}, τ = {:.2}{}\n",
                        cell.rounds,
                        cell.matches,
                        ranking_levels(&p.standings.final_order, &e3.names),
                        p.agreement.final_tau,
                        p.heatmap
                            .as_ref()
                            .map_or(String::new(), |h| format!(" ([heat map]({h}))"))
                    );
                    md += &rank_table(&p.standings, |t| format!("`{}`", e3.names[t]));
                    md += "\n";
                }
                Err(e) => {
                    let _ = writeln!(md, "**{} rounds**: skipped — {e}.\n", cell.rounds);
                }
            }
        }
        let ten = e3
            .cells
            .iter()
            .filter(|c| &c.label == l)
            .find(|c| c.rounds == 10)
            .or_else(|| e3.cells.iter().find(|c| &c.label == l));
        if let Some(Ok(Played {
            heatmap: Some(h), ..
        })) = ten.map(|c| &c.outcome)
        {
            let _ = writeln!(md, "![{l}]({h})\n");
        }
    }

    // Experiment 4.
    let _ = writeln!(md, "## Beyond the paper: rounds needed\n");
    let _ = writeln!(
        md,
        "How many rounds must a match have before a *single* match ranks the five tables exactly as the \
         true ranking? For each format and match length, {} matches are played (deals reused across \
         matches, never within one; equal-strength at ε = 0.15 around {}). A longer match extends the \
         shorter ones (same seed), so the curves share their randomness. With {} matches a share has a \
         standard error of at most {:.2}.\n",
        e4.matches,
        fmt_gdi2(&e3.centre),
        e4.matches,
        0.5 / (e4.matches.max(1) as f64).sqrt()
    );
    if let Some(p) = &e4.exact_plot {
        let _ = writeln!(md, "![exact agreement against rounds]({p})\n");
    }
    if let Some(p) = &e4.tau_plot {
        let _ = writeln!(md, "![mean tau against rounds]({p})\n");
    }
    md += "Exact share (mean τ per match) by rounds per match:\n\n| rounds |";
    for cells in &e4.series {
        let _ = write!(md, " {} |", cells[0].label);
    }
    md += "\n|---:|";
    md += &"---:|".repeat(e4.series.len());
    md += "\n";
    for (i, m) in e4.rounds.iter().enumerate() {
        let _ = write!(md, "| {m} |");
        for cells in &e4.series {
            let s = match cells.get(i).map(|c| &c.outcome) {
                Some(Ok(p)) => format!(
                    "{:.2} ({:.2})",
                    p.agreement.exact_share, p.agreement.mean_tau
                ),
                Some(Err(e)) => format!("skipped: {e}"),
                None => String::new(),
            };
            let _ = write!(md, " {s} |");
        }
        md += "\n";
    }
    md += "\n| format | rounds for exact share ≥ 0.5 | rounds for exact share ≥ 0.9 |\n|---|---:|---:|\n";
    for (l, h, n) in e4.thresholds() {
        let _ = writeln!(
            md,
            "| {l} | {} | {} |",
            opt_rounds(h, max_m),
            opt_rounds(n, max_m)
        );
    }
    md += "\n";

    // The claim.
    let _ = writeln!(md, "## The paper's claim, checked\n");
    let _ = writeln!(
        md,
        "The paper: *with ε = 0.15, equal-strength rankings match the duplicate ranking; random rankings do \
         not.* Checked on experiment 3 ({} matches per cell{}), against the true ranking and \
         against the duplicate tournament of the same length. Each cell gives final τ / mean τ per match / \
         exact share:\n",
        cfg.e3_matches,
        if cfg.e3_matches == 20 {
            ", as in the paper"
        } else {
            ""
        }
    );
    md += "| rounds | equal-strength ε=0.15 | random | duplicate | τ(equal-strength, duplicate) | τ(random, duplicate) |\n|---:|---|---|---|---:|---:|\n";
    let a3 = |a: &Option<Agreement>| {
        a.as_ref().map_or("—".to_string(), |a| {
            format!(
                "{:.2} / {:.2} / {:.2}",
                a.final_tau, a.mean_tau, a.exact_share
            )
        })
    };
    let o = |x: Option<f64>| x.map_or("—".to_string(), |x| format!("{x:.2}"));
    for r in &claim.rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            r.rounds,
            a3(&r.equal_strength),
            a3(&r.random),
            a3(&r.duplicate),
            o(r.equal_strength_vs_duplicate_tau),
            o(r.random_vs_duplicate_tau)
        );
    }
    md += "\n";
    let n = claim.rows.len();
    let taus = |pick: fn(&ClaimRow) -> Option<&Agreement>| {
        claim
            .rows
            .iter()
            .map(|r| pick(r).map_or("—".to_string(), |a| format!("{:.2}", a.final_tau)))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let lengths = or_list(&claim.rows.iter().map(|r| r.rounds).collect::<Vec<_>>());
    let _ = writeln!(
        md,
        "- **Equal-strength matched the true ranking** at {} of {n} match lengths (final τ {} for {lengths} rounds).",
        claim.equal_strength_hits,
        taus(|r| r.equal_strength.as_ref())
    );
    let _ = writeln!(
        md,
        "- **Against the duplicate tournament** of the same length — the paper's own comparison — equal-strength's \
         final ranking agreed at {} of {n} lengths{}.",
        claim.equal_strength_duplicate_hits,
        if claim.equal_strength_duplicate_hits < n && claim.duplicate_missed_where_they_differ {
            "; where they differ, it is the duplicate tournament that missed the true ranking"
        } else {
            ""
        }
    );
    let _ = writeln!(
        md,
        "- **Random deals' final ranking missed the true ranking** at {} of {n} lengths (final τ {}).",
        claim.random_misses,
        taus(|r| r.random.as_ref())
    );
    let _ = writeln!(
        md,
        "- **Per match**, averaged over the {n} lengths, random deals ranked all five tables right in {} of \
         matches against equal-strength's {} (mean τ {:.2} against {:.2}): random deals agreed {}.",
        pct(claim.random_exact_share),
        pct(claim.equal_strength_exact_share),
        claim.random_mean_tau,
        claim.equal_strength_mean_tau,
        if claim.random_agrees_less_per_match {
            "less"
        } else {
            "no less"
        }
    );
    if let Some(p) = &claim.curve {
        let _ = writeln!(
            md,
            "- **Experiment 4's larger sample** ({} matches of {} rounds): exact share {:.2} ± {:.2} for \
             equal-strength against {:.2} ± {:.2} for random; mean τ {:.2} against {:.2}.",
            p.matches,
            p.rounds,
            p.equal_strength.exact_share,
            p.equal_strength.exact_share_se,
            p.random.exact_share,
            p.random.exact_share_se,
            p.equal_strength.mean_tau,
            p.random.mean_tau
        );
    }
    let _ = writeln!(
        md,
        "\n**Verdict: the claim {}** — {}.\n",
        claim.verdict, claim.reason
    );
    let (es_lo, es_hi) = spread(e3, &is_paper_es);
    let (dup_lo, dup_hi) = spread(e3, &|f| *f == Format::Duplicate);
    let longest = cfg.e3_rounds.iter().max().copied().unwrap_or(0);
    let separation = format!(
        "mean score per round from {es_lo:+.2} for level {} to {es_hi:+.2} for level {} at {longest} rounds, \
         against {dup_lo:+.2} to {dup_hi:+.2} under duplicate",
        E3_LEVELS[0],
        E3_LEVELS[E3_LEVELS.len() - 1]
    );
    let _ = writeln!(
        md,
        "Read with care: (1) the centre is {}, not the paper's (see experiment 2); (2) a final ranking \
         from {} matches is a coarse statistic — the per-match figures and experiment 4 separate the formats \
         better; (3) the five tables are members of the measuring panel, as in the paper, so the GDI that \
         selects equal-strength deals (and sets difficulty-adjusted expectations) includes how these very \
         landlords played them. {} Whether equal-strength deals rank bots from outside the panel as well is \
         not tested here.\n",
        if c.rule == "paper" {
            "the paper's own".to_string()
        } else {
            format!("{} chosen from our library", fmt_gdi2(&c.centre))
        },
        cfg.e3_matches,
        if es_hi - es_lo > dup_hi - dup_lo {
            format!(
                "Equal-strength deals near this centre are deals the stronger levels win and the weaker \
                 lose ({separation}), which is why they separate this ladder well."
            )
        } else {
            format!("Scores under equal-strength and duplicate deals: {separation}.")
        }
    );

    // Files and timings.
    let _ = writeln!(md, "## Run\n");
    md += "| stage | seconds |\n|---|---:|\n";
    for (k, s) in &run.timings {
        let _ = writeln!(md, "| {k} | {s:.1} |");
    }
    let _ = writeln!(
        md,
        "| total | {:.1} |\n\nStore: {}. Rerunning the command reuses the measured library and replays \
         the experiments from their fixed seeds, number for number; only the on-demand searches' cost \
         figures can differ slightly, since their worker threads race to the last deals.",
        run.seconds, run.store
    );
    md
}

/// The weakest and strongest table's mean score per round in a format's longest experiment-3 cell.
fn spread(e3: &E3, pred: &dyn Fn(&Format) -> bool) -> (f64, f64) {
    e3.cells
        .iter()
        .filter(|c| pred(&c.format))
        .filter_map(|c| c.outcome.as_ref().ok().map(|p| (c.rounds, p)))
        .max_by_key(|(m, _)| *m)
        .map_or((f64::NAN, f64::NAN), |(_, p)| {
            let s = &p.standings.mean_score;
            (s[0], s[s.len() - 1])
        })
}

/// `k` of `n` as a percentage with two significant digits, e.g. `0.015%`, `8.8%`, `42%`.
fn share(k: usize, n: usize) -> String {
    let p = 100.0 * k as f64 / n.max(1) as f64;
    if p == 0.0 {
        return "0%".into();
    }
    let decimals = (1.0 - p.log10().floor()).clamp(0.0, 6.0) as usize;
    format!("{p:.decimals$}%")
}

/// `5, 10 and 20`.
fn or_list(xs: &[usize]) -> String {
    let v: Vec<String> = xs.iter().map(usize::to_string).collect();
    match v.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_centre_keeps_the_papers_meaning() {
        // A bimodal population like the measured one: landlord-favoured deals either win with the
        // bomb (g3 ≈ g2) or without it (g3 ≈ 0), the bomb-less mode being the larger.
        let mut gdis = Vec::new();
        for i in 0..300 {
            let e = (i % 7) as f64 * 0.01;
            gdis.push(vec![0.85 + e, 0.50 + e, 0.02]);
        }
        for i in 0..100 {
            let e = (i % 5) as f64 * 0.01;
            gdis.push(vec![0.85 + e, 0.60 + e, 0.50 + e]);
        }
        gdis.extend((0..500).map(|_| vec![0.9, 0.0, 0.0]));
        let c = choose_centre(&gdis, 50);
        assert_eq!(c.rule, "same-meaning-mode");
        assert_eq!(c.same_meaning_deals, 100);
        assert!(same_meaning(&c.centre), "{:?}", c.centre);
        assert!((c.centre[1] - 0.62).abs() < 0.01, "{:?}", c.centre);
        assert_eq!(c.within[0], 100);
        assert_eq!(c.paper_within[0], 0);
        // The simple rule slides into the bomb-less mode: not the paper's meaning.
        let s = c.simple_rule.as_ref().unwrap();
        assert!(s.mode[2] < 0.1, "{s:?}");
        // With enough deals near the paper's centre, the paper's centre is used.
        let near: Vec<Vec<f64>> = (0..60).map(|_| PAPER_CENTRE.to_vec()).collect();
        let c = choose_centre(&near, 50);
        assert_eq!(c.rule, "paper");
        assert_eq!(c.centre, PAPER_CENTRE.to_vec());
    }

    #[test]
    fn histogram_and_quantiles() {
        let gdis = vec![
            vec![1.0, 1.0, 1.0],
            vec![0.9, 0.5, 0.0],
            vec![0.9, 0.5, 0.1],
            vec![0.5, 0.0, 0.0],
        ];
        let h = histogram_g2_g3(&gdis);
        assert_eq!(h[9][9], 1);
        assert_eq!(h[5][0], 1);
        assert_eq!(h[5][1], 1, "0.1 falls in the 0.1–0.2 bin");
        assert_eq!(h[0][0], 1);
        assert_eq!(h.iter().flatten().sum::<u64>(), 4);
        let c = components(&gdis, 3);
        assert_eq!(c[1].g, 2);
        assert!((c[1].mean - 0.5).abs() < 1e-12);
        assert_eq!(c[0].p50, 0.9);
        assert_eq!(c[0].p05, 0.5);
        assert_eq!(c[0].p95, 1.0);
    }

    #[test]
    fn meanings_and_bombs_read_right() {
        let m = meaning(&[1.0, 1.0, 1.0], 70);
        assert!(
            m.starts_with(
                "100% of the 70 landlords win it (100% with the bomb played) and 0% lose"
            ),
            "{m}"
        );
        assert!(m.contains("cannot tell landlords apart"));
        assert!(meaning(&[0.9, 0.3, 0.1], 70).ends_with("hard for the landlord"));
        assert!(meaning(&[0.9, 0.8, 0.7], 70).ends_with(": easy for the landlord"));
        let d: Deal = "3333456789TJQKA2B/4445556667778889R/99TTTJJJQQQKKKAAA/222"
            .parse()
            .unwrap();
        let b = bomb_holders(&d);
        assert!(b.contains("3333 with the landlord"), "{b}");
        assert!(b.contains("2222 with the landlord"), "{b}");
        assert!(!b.contains("rocket"), "{b}");
    }

    #[test]
    fn rounds_to_reach_finds_the_first_point() {
        let pts = [(1, 0.1), (5, 0.55), (10, 0.5), (20, 0.95)];
        assert_eq!(rounds_to_reach(&pts, 0.5), Some(5));
        assert_eq!(rounds_to_reach(&pts, 0.9), Some(20));
        assert_eq!(rounds_to_reach(&pts, 0.99), None);
        assert_eq!(opt_rounds(None, 50), "> 50");
    }

    #[test]
    fn agreement_counts_exact_matches_and_taus() {
        let totals = vec![
            vec![1.0, 2.0, 3.0],
            vec![1.0, 3.0, 2.0],
            vec![3.0, 2.0, 1.0],
        ];
        let s = Standings::from_totals(vec!["a".into(), "b".into(), "c".into()], totals, 1, 1);
        let truth = [2, 1, 0];
        let a = agreement(&s, &truth);
        assert!((a.exact_share - 1.0 / 3.0).abs() < 1e-12);
        assert!((a.mean_tau - (1.0 + 1.0 / 3.0 - 1.0) / 3.0).abs() < 1e-12);
        assert!(a.mean_tau_se > 0.0);
        assert_eq!(
            ranking_levels(&[1, 0], &["ladder:3/70".into(), "ladder:70/70".into()]),
            "70 › 3"
        );
        assert_eq!(n_fmt(1_400_000), "1,400,000");
        assert_eq!(n_fmt(999), "999");
        assert_eq!(share(3, 20_000), "0.015%");
        assert_eq!(share(1_756, 20_000), "8.8%");
        assert_eq!(share(4_200, 10_000), "42%");
        assert_eq!(share(0, 10), "0%");
        assert_eq!(or_list(&[5, 10, 20]), "5, 10 and 20");
    }
}
