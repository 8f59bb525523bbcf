//! What the referee retries: a store call, with exponential backoff until the store takes it
//! ([`store_backoff`]), and a table the platform interrupted, handed back to the queue to be played
//! again ([`hand_back`]).

use std::sync::Arc;
use std::time::Duration;

use arena_proto::retry::Backoff;
use arena_proto::v1;
use arena_store::{JobEntry, StoreError};
use arena_table::{error_record, queue};
use arena_telemetry::metrics::{attr, metrics};

use crate::ctx::Ctx;
use crate::writer::{ack, write_and_ack};

/// The backoff of a store call retried until the store takes it: 100 ms, doubled up to 5 s
/// (the client retry policy's [`Backoff`], with a store's numbers).
pub(crate) fn store_backoff() -> Backoff {
    Backoff::new(Duration::from_millis(100), Duration::from_secs(5))
}

/// The label counting how often the platform interrupted a table.
pub const PLATFORM_ATTEMPTS_LABEL: &str = "platform_attempts";

/// A table the platform interrupted goes back on the queue to be played again from its seed, as
/// a new entry (then this one is acknowledged); after `max_platform_attempts` it gets an error
/// result instead. Never a verdict: the bots did nothing wrong.
pub(crate) async fn hand_back(
    ctx: &Arc<Ctx>,
    entry: &JobEntry,
    mut job: v1::TableJob,
    why: String,
) {
    let attempts = job
        .labels
        .get(PLATFORM_ATTEMPTS_LABEL)
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(0)
        + 1;
    if attempts >= ctx.config.max_platform_attempts {
        tracing::error!(attempts, reason = %why, "the platform failed this table too often: giving up on it");
        metrics()
            .tables_interrupted
            .add(1, &attr("outcome", "given_up"));
        let record = error_record(
            &entry.table_id,
            Some(&job),
            &ctx.config.referee_id,
            format!(
                "the platform failed {attempts} times under this table (last: {why}); not played, \
                 no bot blamed"
            ),
        );
        return write_and_ack(ctx, entry, Some(&job), record).await;
    }
    tracing::warn!(attempts, reason = %why, "the platform interrupted the table: handing it back to be played again");
    metrics()
        .tables_interrupted
        .add(1, &attr("outcome", "requeued"));
    job.labels
        .insert(PLATFORM_ATTEMPTS_LABEL.into(), attempts.to_string());
    let payload = queue::encode_table_job(&job);
    let mut backoff = store_backoff();
    loop {
        match ctx.store.enqueue_job(&entry.table_id, &payload).await {
            Ok(_) => break,
            Err(StoreError::DataLoss(m)) => {
                tracing::error!(reason = %m, "the store lost its data: not handing the table back");
                return;
            }
            Err(e) => {
                let wait = backoff.next_wait();
                tracing::warn!(error = %e, retry_in = ?wait, "cannot hand the table back yet");
                tokio::time::sleep(wait).await;
            }
        }
    }
    ack(ctx, entry).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_a_cap_and_resets() {
        let mut b = store_backoff();
        let waits: Vec<u64> = (0..8).map(|_| b.next_wait().as_millis() as u64).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000]);
        b.reset();
        assert_eq!(b.next_wait(), Duration::from_millis(100));
    }
}
