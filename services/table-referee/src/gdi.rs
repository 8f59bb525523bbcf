//! GDI batches from the job stream: measure a block of deals with a whole panel on the
//! in-process fast path (a blocking thread) and write the records to the deal library. The
//! panel is read and measured by its game's registered difficulty hook (`Game::difficulty`).
//!
//! Deals the panel already measured are skipped, and [`arena_store::Store::put_deals`] leaves
//! stored records untouched, so a batch rerun after a reclaim counts nothing twice. A batch that
//! cannot be measured at all (unknown bots, an impossible bomb count) is logged and
//! acknowledged: rerunning it would fail the same way.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arena_games::difficulty::{CANCELLED_OPERATION_KIND, read_batch};
use arena_proto::v1;
use arena_store::{DealRecord, JobEntry};
use arena_telemetry::metrics::{attr, metrics};
use tokio_util::sync::CancellationToken;

use crate::ctx::Ctx;
use crate::retry::store_backoff;
use crate::writer::ack;

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
        .record(CANCELLED_OPERATION_KIND, &batch.operation)
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
    let mut backoff = store_backoff();
    let done: BTreeSet<u64> = loop {
        match ctx.store.measured_indices(panel.id(), &source).await {
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
    tracing::info!(operation = %batch.operation, panel = %panel.id(), deals = todo.len(), skipped = batch.count as usize - todo.len(), "measuring a GDI batch");
    let cancel = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancel.clone());
    let tables = panel.tables();
    let measuring = {
        let panel = panel.clone();
        tokio::task::spawn_blocking(move || -> Result<Option<Vec<DealRecord>>, String> {
            // One measurer for the batch, one dynamic call per deal.
            let mut bots = panel.measurer()?;
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
    let mut backoff = store_backoff();
    loop {
        let stored = async {
            ctx.store.put_panel(&panel.to_store()).await?;
            ctx.store.put_deals(&records).await
        };
        match stored.await {
            Ok(new) => {
                metrics()
                    .deals_measured
                    .add(new as u64, &attr("panel", panel.id().to_string()));
                metrics().games_played.add(
                    records.len() as u64 * tables,
                    &attr("panel", panel.id().to_string()),
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
