//! GDI batches from the job stream: measure a block of deals with a whole panel on the
//! in-process fast path (a blocking thread) and write the records to the deal library.
//!
//! Deals the panel already measured are skipped, and [`arena_store::Store::put_deals`] leaves
//! stored records untouched, so a batch rerun after a reclaim counts nothing twice. A batch that
//! cannot be measured at all (unknown bots, an impossible bomb count) is logged and
//! acknowledged: rerunning it would fail the same way.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arena_games::ddz::rules::{RuleSet, Scoring};
use arena_proto::v1;
use arena_store::{DealRecord, DealSource, JobEntry, Panel};
use arena_telemetry::metrics::{attr, metrics};
use tokio_util::sync::CancellationToken;

use crate::worker::{Backoff, Ctx, ack};

/// The panel a batch names: `farmers` default to `expert`, `scoring` to `difficulty`.
pub fn panel_of(spec: &v1::PanelSpec) -> Result<Panel, String> {
    let farmers = if spec.farmers.trim().is_empty() {
        "expert"
    } else {
        spec.farmers.trim()
    };
    let scoring = if spec.scoring.trim().is_empty() {
        Scoring::Difficulty
    } else {
        spec.scoring
            .trim()
            .parse::<Scoring>()
            .map_err(|e| format!("panel.scoring: {e}"))?
    };
    arena_deals::build_panel(&spec.landlords, farmers, farmers, scoring)
        .map_err(|e| format!("panel: {e}"))
}

/// The most deals one GDI batch may hold. The deal library cuts batches of 200 by default; a
/// batch of billions would have the referee collect its indices and records in memory at once.
pub const MAX_BATCH: u32 = 10_000;

/// What a batch asks to measure: its panel and deal source, or why it cannot be measured.
pub fn read_batch(batch: &v1::GdiBatch) -> Result<(Panel, DealSource), String> {
    let panel = match batch.panel.as_ref().map(panel_of) {
        Some(Ok(p)) => p,
        Some(Err(e)) => return Err(e),
        None => return Err("panel: missing".into()),
    };
    let bombs = match batch.bombs.map(u8::try_from) {
        None => None,
        Some(Ok(b)) => Some(b),
        Some(Err(_)) => return Err("bombs: more than a deck can hold".into()),
    };
    if batch.count > MAX_BATCH {
        return Err(format!(
            "count: {} deals are more than a batch may hold ({MAX_BATCH})",
            batch.count
        ));
    }
    Ok((
        panel,
        DealSource {
            seed: batch.seed,
            bombs,
        },
    ))
}

/// Sets the flag when dropped, stopping the blocking measurement at its next deal.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Measures a batch and acknowledges it once its records are stored.
pub(crate) async fn measure(
    ctx: &Arc<Ctx>,
    entry: &JobEntry,
    batch: v1::GdiBatch,
    lost: &CancellationToken,
) {
    match ctx
        .store
        .record(arena_deals::CANCELLED_OPERATION_KIND, &batch.operation)
        .await
    {
        Ok(Some(_)) => {
            tracing::info!(operation = %batch.operation, "the measurement was cancelled: skipping its batch");
            return ack(ctx, entry).await;
        }
        Ok(None) => {}
        Err(e) => {
            tracing::warn!(error = %e, "cannot check whether the measurement was cancelled; measuring")
        }
    }
    let (panel, source) = match read_batch(&batch) {
        Ok(read) => read,
        Err(e) => return dead_letter(ctx, entry, &e).await,
    };
    let mut backoff = Backoff::new();
    let done: BTreeSet<u64> = loop {
        match ctx.store.measured_indices(&panel.id, &source).await {
            Ok(v) => break v.into_iter().collect(),
            Err(e) => {
                let wait = backoff.next_wait();
                tracing::warn!(error = %e, retry_in = ?wait, "cannot read measured deals yet");
                tokio::time::sleep(wait).await;
            }
        }
    };
    let last = batch.first.saturating_add(u64::from(batch.count));
    let todo: Vec<u64> = (batch.first..last).filter(|i| !done.contains(i)).collect();
    tracing::info!(operation = %batch.operation, panel = %panel.id, deals = todo.len(), skipped = batch.count as usize - todo.len(), "measuring a GDI batch");
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    let tables = panel.landlords.len() as u64;
    let measuring = {
        let panel = panel.clone();
        tokio::task::spawn_blocking(move || -> Result<Option<Vec<DealRecord>>, String> {
            let mut bots = arena_deals::PanelBots::new(&panel, RuleSet::COMPETITION)
                .map_err(|e| e.to_string())?;
            let mut records = Vec::with_capacity(todo.len());
            for i in todo {
                if cancel.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                records.push(
                    bots.measure(&source, i)
                        .map_err(|e| format!("deal {i}: {e}"))?,
                );
            }
            Ok(Some(records))
        })
    };
    let records = tokio::select! {
        r = measuring => r,
        () = lost.cancelled() => {
            tracing::warn!("another referee took the batch over: stopping");
            return;
        }
    };
    let records = match records {
        Ok(Ok(Some(r))) => r,
        Ok(Ok(None)) => return,
        Ok(Err(e)) => return dead_letter(ctx, entry, &e).await,
        Err(e) => {
            return dead_letter(ctx, entry, &format!("the measuring thread failed: {e}")).await;
        }
    };
    let mut backoff = Backoff::new();
    loop {
        let stored = async {
            ctx.store.put_panel(&panel).await?;
            ctx.store.put_deals(&records).await
        };
        match stored.await {
            Ok(new) => {
                metrics()
                    .deals_measured
                    .add(new as u64, &attr("panel", panel.id.clone()));
                metrics().games_played.add(
                    records.len() as u64 * tables,
                    &attr("panel", panel.id.clone()),
                );
                tracing::info!(new, "GDI batch stored");
                break;
            }
            Err(e) => {
                let wait = backoff.next_wait();
                tracing::warn!(error = %e, retry_in = ?wait, "cannot store the measured deals yet");
                tokio::time::sleep(wait).await;
            }
        }
    }
    ack(ctx, entry).await;
}

async fn dead_letter(ctx: &Ctx, entry: &JobEntry, error: &str) {
    tracing::error!(%error, "unusable GDI batch: acknowledging it without measuring");
    ack(ctx, entry).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_too_large_to_hold_is_refused() {
        // Seen writing the job_payload fuzz target: a batch of 4294967295 deals had the referee
        // collect 32 GiB of indices and reserve a record for each, aborting the process.
        let batch = |count| v1::GdiBatch {
            panel: Some(v1::PanelSpec {
                landlords: "ladder:3".into(),
                ..Default::default()
            }),
            seed: 7,
            bombs: Some(1),
            count,
            ..Default::default()
        };
        let e = read_batch(&batch(u32::MAX)).unwrap_err();
        assert_eq!(
            e,
            "count: 4294967295 deals are more than a batch may hold (10000)"
        );
        let (panel, source) = read_batch(&batch(MAX_BATCH)).unwrap();
        assert_eq!(panel.landlords.len(), 3);
        assert_eq!(
            source,
            DealSource {
                seed: 7,
                bombs: Some(1)
            }
        );
        let mut no_panel = batch(1);
        no_panel.panel = None;
        assert_eq!(read_batch(&no_panel).unwrap_err(), "panel: missing");
    }

    #[test]
    fn panels_default_to_expert_farmers_and_difficulty_scoring() {
        let p = panel_of(&v1::PanelSpec {
            landlords: "ladder:3".into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(p.landlords, ["ladder:1/3", "ladder:2/3", "ladder:3/3"]);
        assert_eq!(
            (p.down.as_str(), p.up.as_str(), p.scoring),
            ("expert", "expert", Scoring::Difficulty)
        );
        assert!(
            panel_of(&v1::PanelSpec {
                landlords: "cmd:x".into(),
                ..Default::default()
            })
            .is_err()
        );
        let e = panel_of(&v1::PanelSpec {
            landlords: "expert".into(),
            scoring: "elo".into(),
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.starts_with("panel.scoring"), "{e}");
    }
}
