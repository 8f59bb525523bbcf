//! On-demand generation: fresh deals measured until enough lie within ε of a target GDI.
//!
//! The paper precomputed 200,000 deals and named that cost its weakness. Here each candidate deal
//! is measured table by table and abandoned as soon as its GDI provably cannot end within ε of
//! the target, so deals far from the target cost a few games instead of the whole panel.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use arena_store::{DealRecord, DealSource, Store};

use super::{Cutoff, MeasureError, PanelBots, Workers};
use crate::ddz::panel::DdzPanel;
use crate::ddz::rules::RuleSet;
/// What a search found is the same for every game.
pub use crate::difficulty::FindReport;
use crate::difficulty::{Progress, within};

/// What to look for.
#[derive(Clone, Debug)]
pub struct FindSpec {
    /// The measuring panel.
    pub panel: DdzPanel,
    /// Fresh deals come from this source, from `start` on.
    pub source: DealSource,
    /// First index to try.
    pub start: u64,
    /// Target GDI.
    pub centre: Vec<f64>,
    /// Radius.
    pub eps: f64,
    /// How many deals to find.
    pub want: usize,
    /// Give up after trying this many deals.
    pub max_tries: u64,
    /// Rule set.
    pub rules: RuleSet,
    /// Worker threads.
    pub threads: usize,
}

/// Generates and measures fresh deals until `want` lie within `eps` of `centre`.
pub async fn find(
    store: &dyn Store,
    spec: &FindSpec,
    progress: &Progress,
    stop: &AtomicBool,
) -> Result<FindReport, MeasureError> {
    let start = Instant::now();
    PanelBots::new(&spec.panel, spec.rules)?;
    store.put_panel(&spec.panel.to_store()).await?;
    let games = Arc::new(AtomicU64::new(0));
    let end = spec.start.saturating_add(spec.max_tries);
    let n = spec.panel.tables();
    let mut workers = {
        let (s, games) = (spec.clone(), games.clone());
        Workers::spawn(
            &spec.panel,
            spec.rules,
            spec.threads,
            256,
            move |bots, i| {
                let index = s.start.checked_add(i).filter(|&x| x < end)?;
                let r = bots.measure_until(&s.source, index, Some((&s.centre, s.eps)));
                games.fetch_add(
                    match &r {
                        Ok(Cutoff::Rejected { tables }) => *tables as u64,
                        _ => n,
                    },
                    Ordering::Relaxed,
                );
                Some(r)
            },
        )
    };
    let halt = workers.halt.clone();
    let (mut found, mut tried, mut full) = (Vec::new(), 0u64, 0u64);
    let mut pending: Vec<DealRecord> = Vec::new();
    let mut failure = None;
    loop {
        if stop.load(Ordering::Relaxed) {
            halt.store(true, Ordering::Relaxed);
        }
        match tokio::time::timeout(Duration::from_millis(200), workers.results.recv()).await {
            Ok(Some(Ok(c))) => {
                tried += 1;
                progress.deals.fetch_add(1, Ordering::Relaxed);
                if let Cutoff::Measured(rec) = c {
                    full += 1;
                    if within(&rec, &spec.centre, spec.eps) && found.len() < spec.want {
                        found.push(rec.clone());
                        progress.found.fetch_add(1, Ordering::Relaxed);
                        if found.len() >= spec.want {
                            halt.store(true, Ordering::Relaxed);
                        }
                    }
                    pending.push(rec);
                }
            }
            Ok(Some(Err(e))) => {
                halt.store(true, Ordering::Relaxed);
                failure.get_or_insert(e);
            }
            Ok(None) => break,
            Err(_) => {}
        }
        progress
            .games
            .store(games.load(Ordering::Relaxed), Ordering::Relaxed);
        if pending.len() >= 256 {
            store.put_deals(&pending).await?;
            pending.clear();
        }
    }
    if !workers.join() {
        failure.get_or_insert(MeasureError::Worker("panicked".into()));
    }
    if let Some(e) = failure {
        return Err(e);
    }
    store.put_deals(&pending).await?;
    Ok(FindReport {
        found,
        tried,
        fully_measured: full,
        games: games.load(Ordering::Relaxed),
        seconds: start.elapsed().as_secs_f64(),
        next_index: spec.start.saturating_add(workers.taken()).min(end),
    })
}
