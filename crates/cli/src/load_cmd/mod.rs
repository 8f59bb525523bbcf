//! `arena load`: many simulated remote bots against a running standalone or cluster, and the
//! tables they play, measured.
//!
//! The bots are registered through the matchmaker's bot registry (`{prefix}-00000`, …; an
//! existing one gets a new token), then each connects to bot-host's bot port on a gRPC stream of
//! its own through the Rust SDK's connection ([`arena_sdk::connection`]), as a real bot does,
//! all of them tasks of one tokio runtime (one TCP connection per bot, or `--connections K`
//! shared ones); a lost one is opened again after the client retry policy's backoff
//! ([`arena_sdk::Backoff`]). Tables of three of them are submitted to a referee
//! (at most `--in-flight` at once), each bot answering with the first legal answer (the Rust
//! SDK's default [`arena_sdk::ddz::DdzBot`]) after a think time drawn from `--think`, and with the
//! faults asked for: a crash (the connection dropped, the bot back as a new session after
//! `--restart-ms`), a hang (no answer: the referee's timeout) or garbage (an empty answer: a
//! malformed verdict).
//!
//! What it measures: tables finished per second; the decision latency, the time from a bot's
//! answer leaving it to the next request of the same table reaching a bot (one hop referee →
//! bot-host → bot and back, think time excluded) as p50/p99/p999 (an HDR histogram); verdicts
//! and errors; and, for processes named with `--watch NAME=PID`, their memory and CPU (so memory
//! per connected bot and CPU per table). `--steps` repeats the measurement at growing numbers of
//! connected bots, the growth curves of docs/scaling.md, which `arena load plot` draws.
//!
//! SIGINT or SIGTERM ends a run early: no new table is submitted, the tables in flight finish,
//! and what was played is reported as at the end of `--duration` (a second signal exits at
//! once).
//!
//! A module per responsibility: the options ([`args`]), the simulated bots ([`fleet`]) and what
//! they record ([`tally`]), a run ([`drive`]), its figures and printing ([`measure`]), and
//! `arena load plot` ([`plot`](mod@plot)).

use std::time::Duration;

use anyhow::{Context as _, Result};
use clap::{Args, Subcommand};

mod args;
mod drive;
mod fleet;
mod measure;
mod plot;
mod tally;

use args::{PlotArgs, RunArgs};
use drive::load;
use plot::plot;

/// `arena load`: a run, or `arena load plot`.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct LoadArgs {
    #[command(subcommand)]
    command: Option<LoadCommand>,
    #[command(flatten)]
    run: RunArgs,
}

/// What `arena load` does besides a run.
#[derive(Subcommand)]
pub enum LoadCommand {
    /// Draws growth curves (tables/s and decision latency against connected bots, one line per
    /// label) from the JSON lines `arena load --results FILE` appended.
    Plot(PlotArgs),
}

/// Runs `arena load`.
pub fn run(a: LoadArgs) -> Result<()> {
    match a.command {
        Some(LoadCommand::Plot(p)) => plot(&p),
        None => {
            let r = a.run;
            r.check()?;
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .context("starting the runtime")?;
            let out = rt.block_on(load(r));
            // Bots still draining past the wait are dropped with the runtime.
            rt.shutdown_timeout(Duration::from_secs(1));
            out
        }
    }
}
