//! The library: deals 0..N of one seed, one bomb each, measured by the ladder panel (as
//! `arena deals gdi --count N --bombs 1` measures them), resumed from whatever the store holds.

use arena_deals::DdzPanel;
use arena_deals::{MeasureReport, MeasureSpec, Progress};
use arena_store::{DealRecord, DealSource};
use ddz::RuleSet;

use crate::Error;
use crate::config::{BOMBS, Config, LIBRARY_SEED};
use crate::context::Ctx;

/// The measured library the experiments deal from.
pub(crate) struct Library {
    pub(crate) source: DealSource,
    /// Deals 0..N of the source, by index.
    pub(crate) records: Vec<DealRecord>,
    /// Their GDI vectors, same order.
    pub(crate) gdis: Vec<Vec<f64>>,
    pub(crate) report: MeasureReport,
}

/// Measures what the store lacks of the library and loads it.
pub(crate) fn measure(ctx: &mut Ctx, panel: &DdzPanel, cfg: &Config) -> Result<Library, Error> {
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
    ctx.note(&format!(
        "library: {} one-bomb deals (seed {LIBRARY_SEED}) measured by {} in {}: {} already measured, {} to go",
        cfg.deals,
        arena_deals::describe(panel),
        ctx.store.describe(),
        already,
        cfg.deals - already
    ));
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
    let report = ctx.with_progress(games, "games", &prog.games, || {
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
        return Err(Error::IncompleteLibrary {
            want: cfg.deals,
            seed: LIBRARY_SEED,
            have: records.len(),
        });
    }
    if let Some(r) = records.iter().find(|r| r.gdi.len() != 3) {
        return Err(Error::NotOneBomb {
            id: r.id.clone(),
            len: r.gdi.len(),
        });
    }
    ctx.note(&format!(
        "library ready: {} measured now, {} reused, {:.1} s",
        report.measured, report.already, report.seconds
    ));
    let gdis = records.iter().map(|r| r.gdi.clone()).collect();
    Ok(Library {
        source,
        records,
        gdis,
        report,
    })
}
