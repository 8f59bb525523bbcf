//! Supervision: passes over every competition that re-enqueue interrupted ones, record
//! progress and finish complete ones exactly once.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use arena_proto::v1;
use arena_serve::ApiError;
use arena_store::visibility;
use arena_store::{Store, Topic, Watcher};
use prost::Message;

use crate::plan::enqueue;
use crate::spec::check;
use crate::standings::standings;
use crate::{
    COMPETITION, ENQUEUE_GRACE_MS, ENQUEUED, FINAL_STANDINGS, now_ms, set_state, state_name,
    state_of,
};

/// One pass over every competition: re-enqueue interrupted ones, update progress, finish the
/// complete ones (exactly once, by compare-and-swap).
pub async fn supervise_once(store: &dyn Store) -> Result<(), ApiError> {
    let ended: HashSet<String> = store
        .records(visibility::ENDED_KIND)
        .await?
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    for (name, bytes) in store.records(COMPETITION).await? {
        let Ok(comp) = v1::Competition::decode(bytes.as_slice()) else {
            tracing::warn!(competition = %name, "undecodable competition record");
            continue;
        };
        if state_of(&comp) != v1::CompetitionState::Running {
            if !ended.contains(&name) {
                visibility::mark_ended(store, &name, state_name(state_of(&comp))).await?;
            }
            continue;
        }
        // A competition is recorded before its tables are enqueued; give its creator time to
        // finish enqueueing before treating it as interrupted, or every table would be enqueued
        // (and played) twice.
        let creating = now_ms().saturating_sub(comp.created_unix_ms) < ENQUEUE_GRACE_MS;
        if !creating && store.record(ENQUEUED, &name).await?.is_none() {
            let checked = check(comp.spec.clone(), u64::MAX)?;
            enqueue(store, &checked).await?;
            tracing::info!(competition = %name, "re-enqueued the tables of an interrupted competition");
        }
        // A count, not the results: a pass costs the same however many tables are done.
        let done = store.result_count(&name).await?;
        let mut next = comp.clone();
        next.tables_done = done;
        if done >= comp.tables_total {
            set_state(&mut next, v1::CompetitionState::Finished);
            next.finished_unix_ms = now_ms();
        }
        if next == comp {
            continue;
        }
        let finishing = state_of(&next) == v1::CompetitionState::Finished;
        if finishing {
            // The final standings are in the store before anyone can see the competition
            // finished, so a watcher never gets final standings the store does not hold. Every
            // table's result is in, so an instance that loses the swap below writes the same.
            let st = standings(store, &next).await?;
            store
                .put_record(FINAL_STANDINGS, &name, &st.encode_to_vec())
                .await?;
        }
        if store
            .swap_record(COMPETITION, &name, Some(&bytes), &next.encode_to_vec())
            .await?
            && finishing
        {
            visibility::mark_ended(store, &name, state_name(v1::CompetitionState::Finished))
                .await?;
            arena_telemetry::metrics::metrics()
                .competitions_finished
                .add(
                    1,
                    &arena_telemetry::metrics::attr(
                        "state",
                        state_name(v1::CompetitionState::Finished),
                    ),
                );
            tracing::info!(competition = %name, tables = done, "competition finished");
        }
    }
    Ok(())
}

/// How long the supervisor waits without a change signal before a pass anyway: a safety net
/// only (results and competition records wake it as they are written), so long.
pub const SUPERVISE_RESCAN: Duration = Duration::from_secs(30);

/// Runs [`supervise_once`] whenever a result or a competition record is written, at most once
/// every `every` (a burst of results makes one pass, not one per result), and at least every
/// [`SUPERVISE_RESCAN`], until `shutdown`.
pub async fn supervise(
    store: Arc<dyn Store>,
    every: Duration,
    shutdown: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(shutdown);
    // Made before the first pass reads: a write after that read wakes them. (These fixed
    // topics are always valid; were watching refused, the safety passes would still finish
    // every competition.)
    let mut results = store.watch(&Topic::AnyResults).ok();
    let mut records = store.watch(&Topic::Records(COMPETITION.to_string())).ok();
    loop {
        let started = tokio::time::Instant::now();
        if let Err(e) = supervise_once(&*store).await {
            tracing::warn!(error = %e, "supervising competitions");
        }
        tokio::select! {
            () = &mut shutdown => return,
            () = changed(&mut results) => {}
            () = changed(&mut records) => {}
            () = tokio::time::sleep(SUPERVISE_RESCAN) => {}
        }
        tokio::select! {
            () = &mut shutdown => return,
            () = tokio::time::sleep_until(started + every) => {}
        }
    }
}

/// The next change `watcher` sees; never, without one.
pub(crate) async fn changed(watcher: &mut Option<Watcher>) {
    match watcher {
        Some(w) => w.changed().await,
        None => std::future::pending().await,
    }
}
