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

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use arena_games::{run_spec, validate};
use arena_proto::v1;
use arena_store::{FinishedJob, JobEntry, Store, StoreError};
use arena_table::run::Played;
use arena_table::{BotHosts, Record, RunOptions, error_record, panic_message};
use arena_telemetry::metrics::{KeyValue, attr, metrics};
use futures_util::FutureExt;
use futures_util::future::{BoxFuture, Shared};
use prost::Message;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
use tokio::task::{JoinHandle, JoinSet};
use tokio_util::sync::CancellationToken;
use tracing::Instrument;

use crate::RefereeError;
use crate::background::Background;
use crate::config::RefereeConfig;
use crate::dialer::PresenceDialer;
use crate::gdi;
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

/// Most finished tables written and acknowledged in one store call.
const WRITE_AT_ONCE: usize = 256;

/// How long the writer lets finished tables gather after the first one before it writes them,
/// so a busy referee's writes are few and large: on the embedded store each write is one
/// transaction and one `fsync`, whose cost hardly depends on how many results it carries. A
/// table's acknowledgement waits this much longer; its slot is free already.
const WRITE_LINGER: Duration = Duration::from_millis(5);

/// What every job task shares.
pub(crate) struct Ctx {
    pub(crate) config: RefereeConfig,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) dialer: PresenceDialer,
    pub(crate) opts: RunOptions,
    /// Where finished tables go to be written and acknowledged in batches.
    writer: Writer,
    /// The writer's task: it goes when the referee does (a killed referee writes nothing more;
    /// its jobs are reclaimed), not when the last table's sender happens to be dropped.
    _writer_task: AbortOnDrop<()>,
    /// Where tables of long time controls play, when the referee has such a place.
    background: Option<Background>,
}

impl Ctx {
    pub(crate) fn new(config: RefereeConfig, store: Arc<dyn Store>) -> Result<Ctx, RefereeError> {
        config.validate()?;
        // The job loop takes, touches, hands back and finishes on the referee's lane (tables
        // submitted through its API go to their own job's lane, on the store it was given).
        let store = if config.lane.is_empty() {
            store
        } else {
            store.lane(&config.lane).map_err(|e| crate::ConfigError {
                setting: "lane",
                message: e.to_string(),
            })?
        };
        let hosts = BotHosts::new(&config.bot_hosts).map_err(|e| crate::ConfigError {
            setting: "bot_hosts",
            message: e.to_string(),
        })?;
        let background = match config.background_from {
            Some(from) => Some(
                Background::start(
                    from,
                    &config.background_cpus,
                    store.clone(),
                    &config.bot_hosts,
                )
                .map_err(|message| crate::ConfigError {
                    setting: "background_from",
                    message,
                })?,
            ),
            None => None,
        };
        let (writer, writer_task) = spawn_writer(
            store.clone(),
            config.referee_id.clone(),
            config.touch_interval,
        );
        Ok(Ctx {
            background,
            writer,
            _writer_task: writer_task,
            opts: RunOptions {
                referee: config.referee_id.clone(),
                open_timeout: config.seat_open_timeout,
                close_timeout: Duration::from_secs(1),
                seat_token: config.cluster_token.clone(),
                reconnect_grace: config.reconnect_grace,
                ..RunOptions::default()
            },
            dialer: PresenceDialer::new(Some(store.clone()), hosts),
            config,
            store,
        })
    }

    /// How `job`'s remote seats reach bot-host: from the background's own links when it plays
    /// there (the same rule that placed its task).
    fn dialer_for(&self, job: &v1::TableJob) -> &PresenceDialer {
        match &self.background {
            Some(b) if b.takes(job) => b.dialer(),
            _ => &self.dialer,
        }
    }

    /// Waits until the writer has written (or given up on) every table queued before this call.
    pub(crate) async fn flush_writes(&self) {
        let (tx, rx) = oneshot::channel();
        if self.writer.tx.send(Write::Flush(tx)).is_ok() {
            let _ = rx.await;
        }
    }
}

/// Exponential backoff for store retries.
pub(crate) struct Backoff(Duration);

impl Backoff {
    const FIRST: Duration = Duration::from_millis(100);
    const MAX: Duration = Duration::from_secs(5);

    pub(crate) fn new() -> Backoff {
        Backoff(Backoff::FIRST)
    }

    /// The next wait.
    pub(crate) fn next_wait(&mut self) -> Duration {
        let d = self.0;
        self.0 = (d * 2).min(Backoff::MAX);
        d
    }

    pub(crate) fn reset(&mut self) {
        self.0 = Backoff::FIRST;
    }
}

/// Aborts a spawned task when dropped, so nothing outlives the job that started it.
pub(crate) struct AbortOnDrop<T>(pub(crate) JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

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
    let mut backoff = Backoff::new();
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
    let game = job.game().as_str_name();
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

/// The label counting how often the platform interrupted a table.
pub const PLATFORM_ATTEMPTS_LABEL: &str = "platform_attempts";

/// A table the platform interrupted goes back on the queue to be played again from its seed, as
/// a new entry (then this one is acknowledged); after `max_platform_attempts` it gets an error
/// result instead. Never a verdict: the bots did nothing wrong.
async fn hand_back(ctx: &Arc<Ctx>, entry: &JobEntry, mut job: v1::TableJob, why: String) {
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
    let mut backoff = Backoff::new();
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
    let limit = decision_ms(job);
    m.tables_finished.add(
        1,
        &[
            KeyValue::new("game", job.game().as_str_name()),
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
        *late += u64::from(step.elapsed_ms > limit);
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

/// What the writer is sent.
enum Write {
    /// A finished table to write and acknowledge.
    Table(Done),
    /// Answered once everything sent before it is written (or given up on).
    Flush(oneshot::Sender<()>),
}

/// A finished table on its way to the writer.
struct Done {
    entry_id: String,
    table_id: String,
    competition: Option<String>,
    result: Vec<u8>,
    replay: Vec<u8>,
    /// The result's error and verdict count, for the log line.
    error: String,
    verdicts: usize,
    /// Its place among the tables the writer holds, given back once it is written.
    _room: OwnedSemaphorePermit,
}

/// Starts the task that writes finished tables: whatever has queued up since its last write goes
/// to the store in one [`Store::finish_jobs`] call (results, replays and acknowledgements
/// together), so a busy referee pays one store round trip per batch instead of two per table,
/// and no table waits for another's write. It is stopped when its handle is dropped.
///
/// The tables it holds are its to keep: while the store refuses their writes it touches their
/// jobs (as `consumer`, every `touch_every`), as their tables' tasks did while they played, so
/// an outage is not taken for a dead referee. It takes in all that is sent at once (how much is
/// bounded by [`Writer::room`], not by the channel), so no finished table waits untouched.
fn spawn_writer(
    store: Arc<dyn Store>,
    consumer: String,
    touch_every: Duration,
) -> (Writer, AbortOnDrop<()>) {
    let (tx, rx) = mpsc::unbounded_channel::<Write>();
    let mut held = Held {
        store,
        consumer,
        touch_every,
        rx,
        tables: VecDeque::new(),
        flushes: Vec::new(),
    };
    let task = tokio::spawn(async move {
        loop {
            // Flushes are answered once nothing is held, so none waits here.
            if held.tables.is_empty() {
                let Some(w) = held.rx.recv().await else { break };
                held.push(w);
                if held.flushes.is_empty() {
                    // One timer per batch, not a wake-up per table: the queue holds what
                    // arrives.
                    tokio::time::sleep(WRITE_LINGER).await;
                }
            }
            held.take_in();
            let n = held.tables.len().min(WRITE_AT_ONCE);
            let mut batch: Vec<Done> = held.tables.drain(..n).collect();
            if !batch.is_empty() {
                held.write_batch(&mut batch).await;
            }
            if held.tables.is_empty() {
                for done in held.flushes.drain(..) {
                    let _ = done.send(());
                }
            }
        }
    });
    let writer = Writer {
        tx,
        room: Arc::new(Semaphore::new(WRITE_AT_ONCE * 4)),
    };
    (writer, AbortOnDrop(task))
}

/// The way to the writer.
pub(crate) struct Writer {
    tx: mpsc::UnboundedSender<Write>,
    /// How many finished tables may wait for the writer: a table finding no room waits for it
    /// (its task alive, touching its job, holding its slot), which holds back a referee whose
    /// store is slower than its tables.
    room: Arc<Semaphore>,
}

/// What the writer's task holds.
struct Held {
    store: Arc<dyn Store>,
    consumer: String,
    touch_every: Duration,
    rx: mpsc::UnboundedReceiver<Write>,
    /// Received, not yet written.
    tables: VecDeque<Done>,
    /// Answered once `tables` is empty.
    flushes: Vec<oneshot::Sender<()>>,
}

impl Held {
    fn push(&mut self, w: Write) {
        match w {
            Write::Table(d) => self.tables.push_back(d),
            Write::Flush(done) => self.flushes.push(done),
        }
    }

    /// Takes in everything sent so far.
    fn take_in(&mut self) {
        while let Ok(w) = self.rx.try_recv() {
            self.push(w);
        }
    }

    /// Touches the jobs of `batch` and of every table held, so none is reclaimed while the
    /// store refuses writes (a job no longer ours is written anyway: its first result is kept).
    async fn touch(&mut self, batch: &[Done]) {
        self.take_in();
        for d in batch.iter().chain(self.tables.iter()) {
            if let Err(e) = self.store.touch_job(&self.consumer, &d.entry_id).await {
                tracing::debug!(error = %e, table_id = %d.table_id, "cannot touch a job waiting for its write");
            }
        }
    }

    /// Waits `wait`, touching the jobs every `touch_every` since `touched` (a backoff can be
    /// longer than a job's lease).
    async fn wait_touching(
        &mut self,
        batch: &[Done],
        wait: Duration,
        touched: &mut tokio::time::Instant,
    ) {
        let until = tokio::time::Instant::now() + wait;
        loop {
            let next = *touched + self.touch_every;
            if next >= until {
                tokio::time::sleep_until(until).await;
                return;
            }
            tokio::time::sleep_until(next).await;
            self.touch(batch).await;
            *touched = tokio::time::Instant::now();
        }
    }

    /// Writes and acknowledges a batch, retrying while the store is unavailable (touching the
    /// jobs meanwhile); empties `batch`.
    async fn write_batch(&mut self, batch: &mut Vec<Done>) {
        let mut backoff = Backoff::new();
        let mut touched: Option<tokio::time::Instant> = None;
        loop {
            let jobs: Vec<FinishedJob<'_>> = batch
                .iter()
                .map(|d| FinishedJob {
                    entry_id: &d.entry_id,
                    table_id: &d.table_id,
                    competition: d.competition.as_deref(),
                    result: &d.result,
                    replay: &d.replay,
                })
                .collect();
            match self.store.finish_jobs(&jobs).await {
                Ok(written) => {
                    for (d, new) in batch.iter().zip(written) {
                        if new {
                            tracing::debug!(table_id = %d.table_id, error = %d.error, verdicts = d.verdicts, "result written");
                        } else {
                            tracing::info!(table_id = %d.table_id, "a result for this table was already written; this run is not counted");
                        }
                    }
                    break;
                }
                // One of them cannot be stored as it is: each on its own, so the others are
                // not held up by it (the one-by-one path knows what to do with it).
                Err(StoreError::Invalid(_)) => {
                    for d in batch.iter() {
                        write_one(&*self.store, d).await;
                    }
                    break;
                }
                Err(StoreError::DataLoss(m)) => {
                    // Their competitions are gone with the store's data: nothing is written.
                    tracing::error!(reason = %m, tables = batch.len(), "the store lost its data: these tables' results are not written");
                    break;
                }
                Err(e) => {
                    let wait = backoff.next_wait();
                    tracing::warn!(error = %e, tables = batch.len(), retry_in = ?wait, "cannot write results yet");
                    // Touched at the first refusal (when their tables last touched them is not
                    // known here), then through every wait.
                    if touched.is_none() {
                        self.touch(batch).await;
                    }
                    let t = touched.get_or_insert_with(tokio::time::Instant::now);
                    self.wait_touching(batch, wait, t).await;
                }
            }
        }
        batch.clear();
    }
}

/// Hands the result to the writer, which stores it (retrying until the store takes it) and then
/// acknowledges the job, in a batch with whatever other tables finished meanwhile; returns once
/// the writer has it (shutdown waits for the writer: [`Ctx::flush_writes`]). `job` goes into
/// the replay.
pub(crate) async fn write_and_ack(
    ctx: &Ctx,
    entry: &JobEntry,
    job: Option<&v1::TableJob>,
    record: Record,
) {
    queue_write(ctx, entry, job, record, None).await;
}

/// [`write_and_ack`], giving up `slot` as soon as the writer has the table: the next job need
/// not wait for this one's store write (the table is played; only its record is left), while
/// the writer's bounded queue still holds back a referee whose store is slower than its tables.
async fn queue_write(
    ctx: &Ctx,
    entry: &JobEntry,
    job: Option<&v1::TableJob>,
    record: Record,
    slot: Option<OwnedSemaphorePermit>,
) {
    // Each encoded once, the replay straight from its parts (no copy of the job or the result).
    let replay = record.encode_replay(job);
    let encoded = record.result.encode_to_vec();
    let result = record.result;
    // Waiting for room, this task is alive and its job touched; the writer touches the jobs it
    // holds itself.
    let room = ctx
        .writer
        .room
        .clone()
        .acquire_owned()
        .await
        .expect("the writer's room is never closed");
    let d = Done {
        entry_id: entry.entry_id.clone(),
        table_id: entry.table_id.clone(),
        verdicts: result.verdicts.len(),
        competition: (!result.competition.is_empty()).then_some(result.competition),
        result: encoded,
        replay,
        error: result.error,
        _room: room,
    };
    if let Err(mpsc::error::SendError(Write::Table(d))) = ctx.writer.tx.send(Write::Table(d)) {
        // The writer is gone (only while the referee is dropped): write it here.
        write_one(&*ctx.store, &d).await;
    }
    drop(slot);
}

/// One table's result and acknowledgement on its own (retrying until the store takes them).
async fn write_one(store: &dyn Store, d: &Done) {
    let mut competition = d.competition.clone();
    let mut backoff = Backoff::new();
    loop {
        match store
            .put_result(&d.table_id, competition.as_deref(), &d.result, &d.replay)
            .await
        {
            Ok(true) => {
                tracing::debug!(table_id = %d.table_id, error = %d.error, verdicts = d.verdicts, "result written");
                break;
            }
            Ok(false) => {
                tracing::info!(
                    "a result for this table was already written; this run is not counted"
                );
                break;
            }
            Err(StoreError::Invalid(m)) if competition.is_some() => {
                tracing::error!(reason = %m, "the store refused the result; writing it without its competition listing");
                competition = None;
            }
            Err(StoreError::Invalid(m)) => {
                // Nothing can ever be stored under this id: acknowledging is the only way out.
                tracing::error!(reason = %m, "the store refuses any result for this table id; dropping the job");
                break;
            }
            Err(StoreError::DataLoss(m)) => {
                // The competition this result belongs to is gone with the store's data: nothing
                // is written for it (and its job went with the data too).
                tracing::error!(reason = %m, "the store lost its data: this table's result is not written");
                return;
            }
            Err(e) => {
                let wait = backoff.next_wait();
                tracing::warn!(error = %e, retry_in = ?wait, "cannot write the result yet");
                tokio::time::sleep(wait).await;
            }
        }
    }
    ack_entry(store, &d.entry_id).await;
}

/// Acknowledges the job, retrying until the store takes it.
pub(crate) async fn ack(ctx: &Ctx, entry: &JobEntry) {
    ack_entry(&*ctx.store, &entry.entry_id).await;
}

/// Acknowledges entry `entry_id`, retrying until the store takes it.
async fn ack_entry(store: &dyn Store, entry_id: &str) {
    let mut backoff = Backoff::new();
    loop {
        match store.ack_job(entry_id).await {
            Ok(()) => return,
            Err(StoreError::Invalid(m)) => {
                tracing::error!(reason = %m, "the store refuses to acknowledge the job");
                return;
            }
            Err(e) => {
                let wait = backoff.next_wait();
                tracing::warn!(error = %e, retry_in = ?wait, "cannot acknowledge the job yet");
                tokio::time::sleep(wait).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_to_a_cap_and_resets() {
        let mut b = Backoff::new();
        let waits: Vec<u64> = (0..8).map(|_| b.next_wait().as_millis() as u64).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000]);
        b.reset();
        assert_eq!(b.next_wait(), Duration::from_millis(100));
    }
}
