//! `arena experiment paper`: the command line of [`arena_experiment`], which reproduces the
//! equal-strength paper's experiments and writes `report.md`, PNG plots and `results.json`.
//! `docs/experiment-paper.md` explains how to read the report.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use anyhow::{Context, Result};
use arena_experiment::{Observer, PaperOptions, Scale};
use clap::{Args, Subcommand};

use crate::deals_cmd::{stop_on_ctrl_c, threads};
use crate::store_args::StoreArgs;
use arena_games::commands::progress;

/// Experiments.
#[derive(Subcommand)]
pub enum ExperimentCommand {
    /// Reproduce the equal-strength paper's experiments; write report.md, PNG plots and results.json.
    Paper(PaperArgs),
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

/// Notes on stderr, progress as a bar.
struct Terminal;

impl Observer for Terminal {
    fn note(&self, line: &str) {
        eprintln!("{line}");
    }

    fn progress(&self, total: u64, unit: &str, counter: &AtomicU64, work: &mut dyn FnMut()) {
        progress::with_bar(total, unit, counter, work);
    }
}

fn paper(a: PaperArgs) -> Result<()> {
    // A worker thread keeps the Ctrl-C handler alive while the experiments play on other threads.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .context("starting the I/O runtime")?;
    let store = rt.block_on(a.store.open())?;
    let stop = stop_on_ctrl_c(&rt);
    let opts = PaperOptions {
        scale: a.scale,
        out: a.out,
        threads: threads(a.threads),
    };
    let written = arena_experiment::run(rt.handle(), store, &opts, Arc::clone(&stop), &Terminal)?;
    println!(
        "report written to {} ({:.0} s, {} games played besides the library's measurement)",
        written.report.display(),
        written.seconds,
        written.games
    );
    Ok(())
}
