//! The equal-strength paper's three experiments, and the question it left open (how many rounds
//! a format needs), reproduced with arena's bots and written up as a report: `report.md`, PNG
//! plots and `results.json` with every number. `arena experiment paper` runs it;
//! `docs/experiment-paper.md` explains how to read the report.
//!
//! [`run`] measures (or reuses) the deal library in a store (module `library`), then plays, in
//! order, one module each: experiment 1 (`e1`: the ladder's levels are distinct), experiment 2
//! (`e2`: the GDI distribution, a centre, the table-1 analogue, on-demand generation), the true
//! ranking (`truth`), experiment 3 (`e3`: the formats) and experiment 4 (`e4`: rounds needed).
//! It checks the paper's claim (`claim`) and writes `results.json` (`results`) and `report.md`
//! (`report`, one module per section). Everything is replayed from fixed seeds ([`config`]), so
//! two runs on the same library agree number for number.

mod cells;
mod claim;
pub mod config;
mod context;
mod e1;
mod e2;
mod e3;
mod e4;
mod error;
mod library;
mod report;
mod results;
mod text;
mod truth;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use arena_compete::GameCache;
use arena_store::Store;
use ddz::Scoring;

pub use crate::config::Scale;
use crate::config::{Config, E3_LEVELS, FARMERS, LADDER, tables};
use crate::context::Ctx;
pub use crate::context::{Observer, Silent};
pub use crate::error::Error;
use crate::results::{Results, RunInfo};

/// What to run and where.
pub struct PaperOptions {
    /// How big the run is.
    pub scale: Scale,
    /// Directory for report.md, the PNG plots and results.json (created if missing).
    pub out: PathBuf,
    /// Worker threads playing games (at least 1).
    pub threads: usize,
}

/// What a finished run wrote.
#[derive(Clone, Debug)]
pub struct Written {
    /// `report.md`.
    pub report: PathBuf,
    /// `results.json`.
    pub results: PathBuf,
    /// Wall-clock seconds of the whole run.
    pub seconds: f64,
    /// Games played besides the library's measurement.
    pub games: u64,
}

/// Runs the paper's experiments on `store`, writing the report into `opts.out`.
///
/// Store calls run on `rt` (a multi-threaded runtime not driven by this thread); games are played
/// on `opts.threads` threads of their own. When `stop` is set the run ends with
/// [`Error::Stopped`] after the work in progress, keeping every measured deal, so running again
/// resumes. `observer` is told what each stage does and shown its progress.
pub fn run(
    rt: &tokio::runtime::Handle,
    store: Arc<dyn Store>,
    opts: &PaperOptions,
    stop: Arc<AtomicBool>,
    observer: &dyn Observer,
) -> Result<Written, Error> {
    let started = Instant::now();
    let cfg = Config::of(opts.scale);
    std::fs::create_dir_all(&opts.out).map_err(|source| Error::Io {
        what: format!("creating the report directory {}", opts.out.display()),
        source,
    })?;
    let mut ctx = Ctx {
        rt: rt.clone(),
        store,
        threads: opts.threads.max(1),
        stop,
        out: opts.out.clone(),
        observer,
        games: 0,
        warnings: Vec::new(),
    };
    let panel = arena_deals::build_panel(
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

    let lib = library::measure(&mut ctx, &panel, &cfg)?;
    time("measuring the library", &mut lap);
    let e1 = e1::run(&mut ctx, &cfg, &lib)?;
    time("experiment 1", &mut lap);
    let e2 = e2::run(&mut ctx, &cfg, &panel, &lib)?;
    time("experiment 2", &mut lap);
    let t5 = tables(&E3_LEVELS);
    let mut cache5 = GameCache::default();
    let truth = truth::run(&mut ctx, &cfg, &t5, &mut cache5)?;
    time("true ranking", &mut lap);
    let e3 = e3::run(&mut ctx, &cfg, &lib, &e2.choice.centre, &truth, &mut cache5)?;
    time("experiment 3", &mut lap);
    let e4 = e4::run(&mut ctx, &cfg, &lib, &e2.choice.centre, &truth, &mut cache5)?;
    time("experiment 4", &mut lap);
    let claim = claim::check(&e3, &e4);

    let run = RunInfo {
        scale: opts.scale,
        panel: &panel,
        threads: ctx.threads,
        store: ctx.store.describe(),
        seconds: started.elapsed().as_secs_f64(),
        games: ctx.games,
        timings,
        warnings: ctx.warnings.clone(),
    };
    let all = Results {
        cfg: &cfg,
        run: &run,
        lib: &lib,
        e1: &e1,
        e2: &e2,
        truth: &truth,
        e3: &e3,
        e4: &e4,
        claim: &claim,
    };
    let write = |name: &str, text: String| {
        let path = opts.out.join(name);
        std::fs::write(&path, text).map_err(|source| Error::Io {
            what: format!("writing {}", path.display()),
            source,
        })?;
        Ok::<_, Error>(path)
    };
    let json = serde_json::to_string_pretty(&results::json(&all))? + "\n";
    let results = write("results.json", json)?;
    let report = write("report.md", report::markdown(&all))?;
    Ok(Written {
        report,
        results,
        seconds: run.seconds,
        games: run.games,
    })
}
