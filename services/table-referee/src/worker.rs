//! The job loop: take jobs from the queue while there is room, play each table, write its result
//! once, then acknowledge it.
//!
//! - **Concurrency**: at most `max_tables` tables playing; a job is taken only when a slot is
//!   free, so jobs wait on the queue (where other referees can take them) rather than here.
//!   Slots are filled in batches: after the first frees, the loop lets the tables in flight
//!   free more for up to `TAKE_LINGER` (up to half the slots), then takes jobs for all of them
//!   in one call; the batch's check for cancelled competitions runs on its tables' tasks, so
//!   the loop is back at its slots while the answer is on its way. A
//!   played table frees its slot, and its task ends, once the writer has it: its store write is
//!   off the next table's path, and the writer's room (`WRITE_AT_ONCE` × 4) bounds how many
//!   finished tables wait to be written (a table finding it full waits, holding its slot). The
//!   writer gathers what finishes within `WRITE_LINGER` of the first into one store call (one
//!   transaction and `fsync` on the embedded store), and touches the jobs it holds while the
//!   store refuses their writes.
//! - **Touch / reclaim**: while a job is in flight it is touched every `touch_interval`. If the
//!   queue says it is no longer ours (another referee reclaimed it), the table is stopped and
//!   nothing is written or acknowledged: the other referee plays it from its seed.
//! - **Exactly once**: a job is acknowledged only after its result is stored; a redelivered job
//!   whose result exists is acknowledged without playing; [`Store::put_result`] keeps the first
//!   result of a table, so a table played twice is counted once.
//! - **Store lost its data** (its instance record gone: see `arena_store::instance`): results are
//!   not written (the store refuses them with `DataLoss`), and health turns NOT_SERVING.
//! - **Platform failures**: when bot-host fails under a remote seat and the seat cannot be opened
//!   again within `reconnect_grace`, the table is handed back: enqueued again as a new entry
//!   (label `platform_attempts` counting) and this entry acknowledged; after
//!   `max_platform_attempts` it gets an error result instead. Never a verdict.
//! - **Store down**: every store call is retried with exponential backoff (100 ms doubling to
//!   5 s), for as long as it takes; nothing is acknowledged before the result is written.
//! - **Malformed jobs**: a payload that is not a job, or a job that fails its checks, gets a
//!   result whose `error` says what is wrong (naming the field), and is acknowledged: its
//!   submitter learns why, and the job does not come back forever. A GDI batch that cannot be
//!   read is logged and acknowledged (there is no result to write for a batch).
//! - **Resume**: at start, the jobs still pending under this referee's name (it stopped or died
//!   with them) are taken up again at once. Only for a name no other live referee uses.
//! - **Shutdown**: no new jobs; tables in flight get `shutdown_grace` to finish and the writer
//!   to write what it holds; the rest are dropped unacknowledged and rerun elsewhere after
//!   `reclaim_after`.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use arena_games::{run_spec, validate};
use arena_proto::v1;
use arena_store::{JobEntry, Store, StoreError};
use arena_table::run::Played;
use arena_table::{error_record, panic_message};
use arena_telemetry::metrics::{KeyValue, attr, metrics};
use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

pub use crate::retry::PLATFORM_ATTEMPTS_LABEL;

use crate::RefereeError;
use crate::config::RefereeConfig;
use crate::ctx::Ctx;
use crate::gdi;
use crate::retry::{hand_back, store_backoff};
use crate::writer::{ack, queue_write, write_and_ack};
use arena_table::queue::{self, Queued};

/// How often the job loop records the queue's depth.
const QUEUE_DEPTH_EVERY: Duration = Duration::from_secs(10);

/// Most jobs taken from the queue in one call (as many as there are free slots, up to this).
const TAKE_AT_ONCE: usize = 32;

/// How long the job loop lets tables in flight free more slots after the first before it takes
/// jobs for them (see [`job_loop`]). A job waits this much longer at most; a referee whose
/// tables end one by one in microseconds takes them by the dozen instead of one at a time
/// (docs/scaling.md, "The job loop").
const TAKE_LINGER: Duration = Duration::from_millis(1);

/// Runs the job loop until `shutdown` completes, then finishes or hands back the tables in
/// flight (see the module documentation). Serves no gRPC: [`crate::serve`] adds that.
pub async fn work(
    config: RefereeConfig,
    store: Arc<dyn Store>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), RefereeError> {
    let ctx = Arc::new(Ctx::new(config, store)?);
    let stop = CancellationToken::new();
    let looping = job_loop(ctx, stop.clone());
    tokio::pin!(looping);
    tokio::select! {
        () = &mut looping => return Ok(()),
        () = shutdown => stop.cancel(),
    }
    looping.await;
    Ok(())
}

/// The loop itself; returns once `stop` is cancelled and the tables in flight are settled.
pub(crate) async fn job_loop(ctx: Arc<Ctx>, stop: CancellationToken) {
    let cfg = &ctx.config;
    tracing::info!(
        referee = %cfg.referee_id,
        store = %ctx.store.describe(),
        max_tables = cfg.max_tables,
        reclaim_after = ?cfg.reclaim_after,
        touch_interval = ?cfg.touch_interval,
        bot_hosts = ?cfg.bot_hosts,
        "taking table jobs"
    );
    let slots = Arc::new(Semaphore::new(cfg.max_tables));
    let mut tasks = JoinSet::new();
    // Jobs this referee's name held when it last stopped (a restarted standalone, a StatefulSet
    // pod): resumed at once rather than after `reclaim_after`.
    match ctx.store.resume_jobs(&cfg.referee_id, cfg.max_tables).await {
        Ok(resumed) => {
            if !resumed.is_empty() {
                tracing::info!(
                    jobs = resumed.len(),
                    "resuming this referee's unfinished jobs"
                );
            }
            let resumed = decode_entries(resumed);
            let ended = ended_states(&ctx, &resumed);
            for (entry, queued) in resumed {
                let Ok(slot) = slots.clone().acquire_owned().await else {
                    break;
                };
                spawn_handle(&mut tasks, &ctx, entry, queued, &ended, slot);
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "cannot resume this referee's unfinished jobs; they are reclaimed after reclaim_after")
        }
    }
    let mut backoff = store_backoff();
    let mut depth_reported: Option<tokio::time::Instant> = None;
    loop {
        if depth_reported.is_none_or(|t| t.elapsed() >= QUEUE_DEPTH_EVERY) {
            depth_reported = Some(tokio::time::Instant::now());
            if let Ok(c) = ctx.store.job_counts().await {
                // Per lane: each lane's referees (and their autoscaler) see their own queue.
                let lane = KeyValue::new("lane", cfg.lane_name().to_string());
                for (state, n) in [("waiting", c.waiting), ("pending", c.pending)] {
                    metrics()
                        .queue_depth
                        .record(n, &[KeyValue::new("state", state), lane.clone()]);
                }
            }
        }
        while let Some(done) = tasks.try_join_next() {
            if let Err(e) = done {
                tracing::error!(error = %e, "a job task failed");
            }
        }
        let first = tokio::select! {
            biased;
            () = stop.cancelled() => break,
            s = slots.clone().acquire_owned() => match s {
                Ok(s) => s,
                Err(_) => break,
            },
        };
        // As many jobs as there are free slots, in one call: a busy referee takes its jobs in
        // batches rather than one store round trip per table. The slots the tables in flight
        // free within `TAKE_LINGER` join the batch, up to half of them (when nothing is
        // playing, every slot is free at once and the batch is full without waiting).
        let mut free = vec![first];
        let linger = tokio::time::sleep(TAKE_LINGER);
        tokio::pin!(linger);
        while free.len() < TAKE_AT_ONCE.min(cfg.max_tables.div_ceil(2)) {
            if let Ok(s) = slots.clone().try_acquire_owned() {
                free.push(s);
                continue;
            }
            tokio::select! {
                biased;
                () = stop.cancelled() => break,
                s = slots.clone().acquire_owned() => match s {
                    Ok(s) => free.push(s),
                    Err(_) => break,
                },
                () = &mut linger => break,
            }
        }
        let next = tokio::select! {
            biased;
            () = stop.cancelled() => break,
            r = ctx.store.next_jobs(&cfg.referee_id, free.len(), cfg.reclaim_after, cfg.poll_interval) => r,
        };
        match next {
            Ok(entries) => {
                backoff.reset();
                let entries = decode_entries(entries);
                let ended = ended_states(&ctx, &entries);
                for ((entry, queued), slot) in entries.into_iter().zip(free) {
                    spawn_handle(&mut tasks, &ctx, entry, queued, &ended, slot);
                }
            }
            Err(e) => {
                let wait = backoff.next_wait();
                tracing::warn!(error = %e, retry_in = ?wait, "cannot take jobs from the store");
                tokio::select! {
                    () = stop.cancelled() => break,
                    () = tokio::time::sleep(wait) => {}
                }
            }
        }
    }
    if !tasks.is_empty() {
        tracing::info!(tables = tasks.len(), grace = ?cfg.shutdown_grace, "stopping: finishing the tables in flight");
    }
    let deadline = tokio::time::sleep(cfg.shutdown_grace);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            next = tasks.join_next() => if next.is_none() { break },
            () = &mut deadline => {
                tracing::warn!(tables = tasks.len(), "grace period over: handing the remaining tables back to the queue unacknowledged");
                tasks.abort_all();
                while tasks.join_next().await.is_some() {}
                break;
            }
        }
    }
    // The played tables' tasks end once the writer has them: what it still holds is written
    // within the same grace.
    tokio::select! {
        () = ctx.flush_writes() => {}
        () = &mut deadline => tracing::warn!("grace period over: results the store has not taken yet are not written; their jobs are played again elsewhere"),
    }
    tracing::info!(referee = %cfg.referee_id, "stopped");
}

/// Starts [`handle`] for an entry on a task of its own. The future is boxed: a job's future is
/// several kilobytes (a table's state lives in it), which tokio would otherwise copy into the
/// task and through each of its stages.
fn spawn_handle(
    tasks: &mut JoinSet<()>,
    ctx: &Arc<Ctx>,
    entry: JobEntry,
    queued: Queued,
    ended: &Ended,
    slot: OwnedSemaphorePermit,
) {
    let runtime = ctx
        .background
        .as_ref()
        .and_then(|b| b.handle_for(&queued))
        .cloned();
    let ctx = ctx.clone();
    let ended = ended.clone();
    let task = Box::pin(async move {
        let ended = ended.await;
        handle(ctx, entry, queued, &ended, slot).await
    });
    match runtime {
        Some(background) => drop(tasks.spawn_on(task, &background)),
        None => drop(tasks.spawn(task)),
    }
}

/// Reads each entry's payload, once: what [`ended_states`] and [`handle`] look at.
fn decode_entries(entries: Vec<JobEntry>) -> Vec<(JobEntry, Queued)> {
    entries
        .into_iter()
        .map(|entry| {
            let queued = queue::decode(&entry.table_id, &entry.payload);
            (entry, queued)
        })
        .collect()
}

/// The ended competitions among a batch's, by name, with their final state: what its jobs'
/// tasks wait for before they start.
type Ended = Shared<BoxFuture<'static, Arc<HashMap<String, String>>>>;

/// The competitions of a batch of jobs that have ended, by name, with their final state: read
/// once per competition per batch rather than once per table, and by the batch's tasks, not the
/// job loop (whose next take need not wait for this round trip). A competition whose state
/// cannot be read is left out (its tables are played).
fn ended_states(ctx: &Arc<Ctx>, entries: &[(JobEntry, Queued)]) -> Ended {
    let mut competitions = BTreeSet::new();
    for (_, queued) in entries {
        if let Queued::Table(job) = queued
            && !job.competition.is_empty()
        {
            competitions.insert(job.competition.clone());
        }
    }
    let ctx = ctx.clone();
    async move {
        let mut ended = HashMap::new();
        for competition in competitions {
            match arena_store::visibility::ended_state(&*ctx.store, &competition).await {
                Ok(Some(state)) => {
                    ended.insert(competition, state);
                }
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(error = %e, %competition, "cannot check whether the competition was cancelled; playing its tables")
                }
            }
        }
        Arc::new(ended)
    }
    .boxed()
    .shared()
}

/// Handles one queue entry (its payload read into `queued`) from start to acknowledgement;
/// `ended` holds the ended competitions among its batch's. `slot` is the entry's place among
/// the `max_tables`: a played table gives it up once its result is queued for the writer, the
/// rest when they are done. The job is touched from this same task while it is handled (no task
/// of its own per table).
async fn handle(
    ctx: Arc<Ctx>,
    entry: JobEntry,
    queued: Queued,
    ended: &HashMap<String, String>,
    slot: OwnedSemaphorePermit,
) {
    let span = tracing::info_span!(
        "job",
        entry = %entry.entry_id,
        table_id = %entry.table_id,
        deliveries = entry.deliveries
    );
    async move {
        let lost = CancellationToken::new();
        let work = async {
            match queued {
                Queued::Table(job) => {
                    let ended = ended.get(&job.competition).map(String::as_str);
                    play(&ctx, &entry, job, ended, &lost, slot).await
                }
                Queued::Gdi(batch) => gdi::measure(&ctx, &entry, batch, &lost).await,
                Queued::Bad { job, error } => {
                    tracing::warn!(%error, "malformed job: writing an error result");
                    let record =
                        error_record(&entry.table_id, job.as_ref(), &ctx.config.referee_id, error);
                    write_and_ack(&ctx, &entry, job.as_ref(), record).await;
                }
            }
        };
        // The touches never end the select (the loop waits for ever once the job is lost): the
        // work does, and the touches stop with it. A played table's work ends when the writer
        // has it; the writer touches the job from then on if its write is held up.
        tokio::select! {
            biased;
            () = work => {}
            () = touch_loop(&ctx, &entry.entry_id, &lost) => {}
        }
    }
    .instrument(span)
    .await
}

/// Keeps the job ours while it is in flight; cancels `lost` if the queue gave it to another,
/// then waits for ever (the job's work ends the select it runs in).
async fn touch_loop(ctx: &Ctx, entry_id: &str, lost: &CancellationToken) {
    loop {
        tokio::time::sleep(ctx.config.touch_interval).await;
        match ctx.store.touch_job(&ctx.config.referee_id, entry_id).await {
            Ok(()) => {}
            Err(StoreError::Invalid(m)) => {
                tracing::warn!(reason = %m, "the job is no longer ours");
                lost.cancel();
                return std::future::pending().await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot touch the job; retrying at the next interval")
            }
        }
    }
}

fn seat_kind(builtin: bool) -> &'static str {
    if builtin { "in-process" } else { "remote" }
}

/// Plays a table job and writes its result; `ended` is its competition's final state if it has
/// ended.
async fn play(
    ctx: &Arc<Ctx>,
    entry: &JobEntry,
    job: v1::TableJob,
    ended: Option<&str>,
    lost: &CancellationToken,
    slot: OwnedSemaphorePermit,
) {
    // Only a job delivered before can have a result already (an earlier delivery wrote it): a
    // first delivery is not worth a store read per table. (A table enqueued twice is played
    // twice; its first result is kept.)
    if entry.deliveries > 1 {
        match ctx.store.result(&entry.table_id).await {
            Ok(Some(_)) => {
                tracing::info!(
                    "the table already has a result (an earlier delivery wrote it): acknowledging"
                );
                ack(ctx, entry).await;
                return;
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(error = %e, "cannot check for an earlier result; playing the table")
            }
        }
    }
    if ended == Some("cancelled") {
        tracing::info!(competition = %job.competition, "the competition was cancelled: not playing its table");
        let record = error_record(
            &entry.table_id,
            Some(&job),
            &ctx.config.referee_id,
            format!(
                "not played: competition {:?} was cancelled",
                job.competition
            ),
        );
        write_and_ack(ctx, entry, Some(&job), record).await;
        return;
    }
    let spec = match validate(&job) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(error = %e, "invalid job: writing an error result");
            let record = error_record(
                &entry.table_id,
                Some(&job),
                &ctx.config.referee_id,
                e.to_string(),
            );
            write_and_ack(ctx, entry, Some(&job), record).await;
            return;
        }
    };
    let game = spec.game().name();
    metrics().tables_started.add(1, &attr("game", game));
    arena_telemetry::record_queue_wait(&job.labels, game);
    // Per table, so at DEBUG: a busy referee plays thousands of tables a minute, and two INFO
    // lines each flooded the log (the table span carries the id to every line that matters).
    tracing::debug!(table_id = %job.table_id, game, "playing the table");
    let kinds: Vec<&'static str> = spec.builtin_seats().into_iter().map(seat_kind).collect();
    // The table is a span of its own; a job created inside a trace (a matchmaker creating a
    // competition) carries that trace in its labels, so the table joins it.
    let table_span = tracing::info_span!("table", table_id = %job.table_id, game);
    if let Some(tp) = job.labels.get("traceparent") {
        arena_telemetry::set_parent_from_traceparent(&table_span, tp);
    }
    // Played in this task (a table of built-in bots mostly on it, see `run_game`); a panic
    // below the rules' own catching becomes the table's error result, as a failed task would.
    let running = AssertUnwindSafe(
        run_spec(&job, &spec, &ctx.opts, ctx.dialer_for(&job)).instrument(table_span),
    )
    .catch_unwind();
    let played = tokio::select! {
        biased;
        r = running => match r {
            Ok(r) => r,
            Err(payload) => {
                let why = panic_message(payload.as_ref());
                tracing::error!(error = %why, "the table panicked");
                Played::Finished(Box::new(error_record(&entry.table_id, Some(&job), &ctx.config.referee_id, format!("internal error: the table panicked: {why}"))))
            }
        },
        () = lost.cancelled() => {
            tracing::warn!("another referee took the job over: stopping this table without a result");
            return;
        }
    };
    let record = match played {
        Played::Finished(record) => *record,
        Played::Interrupted(why) => return hand_back(ctx, entry, job, why).await,
    };
    record_metrics(
        &job,
        ctx.config.lane_name(),
        &kinds,
        &record.result,
        &record.steps,
    );
    queue_write(ctx, entry, Some(&job), record, Some(slot)).await;
}

/// `job`'s decision time in milliseconds, the table's default when it says 0.
pub(crate) fn decision_ms(job: &v1::TableJob) -> u32 {
    job.time
        .map_or(arena_table::time::DEFAULT_DECISION_MS, |t| {
            arena_table::TimeRules::resolve(&t, v1::PenaltyRounding::Started).decision_ms
        })
}

/// `lane` as [`RefereeConfig::lane_name`] names it.
fn record_metrics(
    job: &v1::TableJob,
    lane: &str,
    kinds: &[&'static str],
    result: &v1::TableResult,
    steps: &arena_table::Steps,
) {
    let m = metrics();
    m.tables_finished.add(
        1,
        &[
            KeyValue::new(
                "game",
                arena_games::GameKind::from_wire(&job.game).map_or("unknown", |g| g.name()),
            ),
            KeyValue::new("lane", lane.to_string()),
        ],
    );
    // The attributes once per seat and the counts once per table, not per decision: a referee
    // records every decision of thousands of tables a second.
    let attrs: Vec<[KeyValue; 2]> = (0..result.decisions.len().max(kinds.len()))
        .map(|seat| {
            [
                // bot-host records the remote decisions it relays with role=bot-host; the role
                // keeps a sum over both from counting them twice.
                KeyValue::new("role", "referee"),
                KeyValue::new("seat_kind", kinds.get(seat).copied().unwrap_or("remote")),
            ]
        })
        .collect();
    let mut counts = vec![(0u64, 0u64); attrs.len()];
    for step in steps.iter().filter(|s| !s.automatic || s.verdict.is_some()) {
        let seat = step.seat as usize;
        let (Some(seat_attrs), Some((decided, late))) = (attrs.get(seat), counts.get_mut(seat))
        else {
            continue;
        };
        m.decision_latency_s
            .record(f64::from(step.elapsed_us) / 1e6, seat_attrs);
        *decided += 1;
        // Late by the limit the decision was judged by: its seat's own, a claim's.
        *late += u64::from(step.elapsed_ms > step.limit_ms);
    }
    for (seat_attrs, (decided, late)) in attrs.iter().zip(counts) {
        if decided > 0 {
            m.decisions.add(decided, seat_attrs);
        }
        if late > 0 {
            m.late_decisions.add(late, seat_attrs);
        }
    }
    for v in &result.verdicts {
        m.verdicts
            .add(1, &attr("kind", arena_table::game::verdict_name(v.kind())));
    }
}
