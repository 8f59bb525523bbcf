//! The result writer: finished tables go to the store in batches (results, replays and
//! acknowledgements in one call), each retried until the store takes it; a job is acknowledged
//! only once its result is written.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use arena_proto::v1;
use arena_store::{FinishedJob, JobEntry, Store, StoreError};
use arena_table::Record;
use prost::Message;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};

use crate::ctx::{AbortOnDrop, Ctx};
use crate::retry::store_backoff;

/// Most finished tables written and acknowledged in one store call.
const WRITE_AT_ONCE: usize = 256;

/// How long the writer lets finished tables gather after the first one before it writes them,
/// so a busy referee's writes are few and large: on the embedded store each write is one
/// transaction and one `fsync`, whose cost hardly depends on how many results it carries. A
/// table's acknowledgement waits this much longer; its slot is free already.
const WRITE_LINGER: Duration = Duration::from_millis(5);

/// What the writer is sent.
pub(crate) enum Write {
    /// A finished table to write and acknowledge.
    Table(Done),
    /// Answered once everything sent before it is written (or given up on).
    Flush(oneshot::Sender<()>),
}

/// A finished table on its way to the writer.
pub(crate) struct Done {
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
pub(crate) fn spawn_writer(
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
    pub(crate) tx: mpsc::UnboundedSender<Write>,
    /// How many finished tables may wait for the writer: a table finding no room waits for it
    /// (its task alive, touching its job, holding its slot), which holds back a referee whose
    /// store is slower than its tables.
    pub(crate) room: Arc<Semaphore>,
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
        let mut backoff = store_backoff();
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
pub(crate) async fn queue_write(
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
    let mut backoff = store_backoff();
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
    let mut backoff = store_backoff();
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
