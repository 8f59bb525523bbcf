//! The embedded store: one redb file, `arena.redb`, under a data directory. For one machine
//! (`arena standalone` and the competition commands); needs no server.
//!
//! # Tables
//!
//! | table         | key                                 | value                              |
//! |---------------|-------------------------------------|------------------------------------|
//! | `panels`      | panel id                            | the [`Panel`] as JSON              |
//! | `deals`       | (panel id, deal id)                 | the [`DealRecord`] as JSON         |
//! | `deal_counts` | panel id                            | how many deals the panel measured  |
//! | `measured`    | (panel id, source key, index)       | nothing: presence marks it measured |
//! | `deal_usage`  | deal id                             | the competition that used it       |
//! | `job_seq`     | `next`                              | the entry id the next job gets     |
//! | `jobs_waiting`| entry id                            | (table id, job): never delivered   |
//! | `jobs_pending`| entry id                            | (table id, job, consumer, deliveries, last delivery or touch in Unix ms) |
//! | `results`     | table id                            | the encoded result                 |
//! | `replays`     | table id                            | the encoded replay                 |
//! | `competition_results` | (competition, table id)     | nothing: lists the table under the competition |
//! | `bots`        | bot name                            | the [`BotRecord`] as JSON          |
//! | `records`     | (kind, key)                         | the record's bytes                 |
//! | `meta`        | `schema`                            | the schema version of `panels` and `deals` |
//!
//! The source key is `g{seed}-b{bombs or x}`. Keys sort component by component, so the deals of
//! one panel and the measured indices of one (panel, source) are each one contiguous range, the
//! indices in ascending order. A [`StoreError::Corrupt`] names an entry as `table/key`, e.g.
//! `deals/p-3f2a/g7-bx-12`, or names the file when the database itself is damaged.
//!
//! # Schema versions
//!
//! Panels and deal records are JSON with a schema version ([`crate::SCHEMA_VERSION`]; the
//! versions are described in `docs/redis-keys.md`). Opening a file whose `meta` table says an
//! older version (or, for files made before the table existed, says nothing) rewrites every
//! panel and deal record in the current version and records it, in one write transaction: an
//! interrupted migration leaves the file as it was, and runs again at the next open.
//!
//! # Table jobs
//!
//! Entry ids are decimal numbers, increasing for ever (the counter survives acknowledged jobs
//! and restarts, so an id is never reused). A job moves from `jobs_waiting` to `jobs_pending`
//! when first delivered, and leaves the database when acknowledged. A pending job's idle time is
//! measured from its last delivery or touch on the wall clock, which keeps counting while the
//! process is down: after a restart, the jobs the previous process held are handed out again
//! once `reclaim_after` has passed since it last touched them. Taking and touching jobs are not
//! `fsync`ed on their own (see `begin_redeliverable`): a crash can undo the last of them, which
//! only hands those jobs out again; results, acknowledgements and enqueued jobs are durable when
//! their call returns. `next_job` waits on a
//! notification that `enqueue_job` sends to every handle of the directory, and on a timer for
//! the moment the next pending job becomes reclaimable. Waiting needs a tokio runtime with
//! timers (or no runtime at all: then the caller's thread sleeps in short steps). A `next_job`
//! abandoned by its caller may still take a job on the blocking pool; that job stays pending and
//! is reclaimed like any other.
//!
//! # Presence
//!
//! Presence is kept in memory, shared by the handles of one directory, and is not written to the
//! file: it describes live bot-hosts of this process, which a restart ends anyway.
//!
//! # Blocking and runtimes
//!
//! redb blocks on disk I/O. Every call runs on tokio's blocking pool
//! ([`tokio::task::spawn_blocking`]), which a current-thread runtime has too, so neither a
//! multi-thread nor a small current-thread runtime is stalled. Called outside any tokio runtime,
//! a call simply runs on the caller's thread.
//!
//! # Sharing a data directory
//!
//! Within one process, every [`EmbeddedStore::open`] of the same directory shares one open
//! database, so two handles see the same data and never write the file independently. Another
//! process holding the directory makes `open` fail with [`StoreError::Unavailable`] ("in use by
//! another arena process"): redb locks the file. A directory whose last handle in this process is
//! still closing (a call abandoned by its caller finishing on the blocking pool) is waited for
//! briefly instead.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::pin::pin;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use tokio::sync::Notify;

use crate::watch::Hub;
use crate::{
    Backend, BotRecord, Bots, DealRecord, DealSource, Deals, FinishedJob, JobCounts, JobEntry,
    Jobs, Panel, Records, Results, Store, StoreError, StoreResult, Topic, Watch, Watcher, args,
    check_bot, check_panel, check_records, competition_of, decode, decode_bot, decode_deal, encode,
    schema::upgrade, source_key,
};

/// The database file's name inside the data directory.
pub const FILE_NAME: &str = "arena.redb";

const PANELS: TableDefinition<&str, &[u8]> = TableDefinition::new("panels");
const DEALS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("deals");
const DEAL_COUNTS: TableDefinition<&str, u64> = TableDefinition::new("deal_counts");
const MEASURED: TableDefinition<(&str, &str, u64), ()> = TableDefinition::new("measured");
const USAGE: TableDefinition<&str, &str> = TableDefinition::new("deal_usage");
const JOB_SEQ: TableDefinition<&str, u64> = TableDefinition::new("job_seq");
const JOBS_WAITING: TableDefinition<u64, (&str, &[u8])> = TableDefinition::new("jobs_waiting");
/// (table id, job, consumer, deliveries, last delivery or touch in Unix ms).
const JOBS_PENDING: TableDefinition<u64, (&str, &[u8], &str, u64, u64)> =
    TableDefinition::new("jobs_pending");
const RESULTS: TableDefinition<&str, &[u8]> = TableDefinition::new("results");
const REPLAYS: TableDefinition<&str, &[u8]> = TableDefinition::new("replays");
const COMPETITION_RESULTS: TableDefinition<(&str, &str), ()> =
    TableDefinition::new("competition_results");
const BOTS: TableDefinition<&str, &[u8]> = TableDefinition::new("bots");
const RECORDS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("records");
const META: TableDefinition<&str, u64> = TableDefinition::new("meta");

/// The key of `META` holding the schema version of `PANELS` and `DEALS`.
const SCHEMA_KEY: &str = "schema";

/// The key of `JOB_SEQ` holding the next entry id.
const NEXT_ENTRY: &str = "next";

/// The databases this process has open, by file path, so that a second `open` of a directory
/// shares the first one's database instead of opening the file twice. An entry whose database
/// is gone stays (one per directory ever opened) to tell a closing handle from another process.
fn open_databases() -> &'static Mutex<HashMap<PathBuf, Weak<Shared>>> {
    static OPEN: OnceLock<Mutex<HashMap<PathBuf, Weak<Shared>>>> = OnceLock::new();
    OPEN.get_or_init(Default::default)
}

/// What every handle of one data directory shares.
struct Shared {
    db: Database,
    /// Notified whenever a job is enqueued, waking every waiting `next_job`.
    jobs_added: Notify,
    /// Per bot, per host: when its presence ends.
    presence: Mutex<HashMap<String, HashMap<String, Instant>>>,
    /// When expired presence records were last swept out of `presence`.
    presence_swept: Mutex<Instant>,
    /// The watchers of this database, signalled by its writes once they are committed.
    hub: Arc<Hub>,
}

/// How often `set_presence` sweeps every expired record out. Each connected bot refreshes its
/// presence every few seconds: a sweep per refresh would cost each one a pass over every bot
/// (quadratic in the bots connected: 10,000 bots refresh 5,000 times a second). Expired records
/// are never read in between: every read checks the expiry.
const PRESENCE_SWEEP_EVERY: Duration = Duration::from_secs(1);

impl Shared {
    fn new(db: Database) -> Shared {
        Shared {
            db,
            jobs_added: Notify::new(),
            presence: Mutex::default(),
            presence_swept: Mutex::new(Instant::now()),
            hub: Arc::default(),
        }
    }

    fn presence(&self) -> std::sync::MutexGuard<'_, HashMap<String, HashMap<String, Instant>>> {
        // The map stays consistent whatever a panicking holder did: every change is one call.
        self.presence
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The embedded store. Cheap to clone: clones share the open database.
#[derive(Clone)]
pub struct EmbeddedStore {
    shared: Arc<Shared>,
    path: Arc<PathBuf>,
}

impl std::fmt::Debug for EmbeddedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EmbeddedStore")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl EmbeddedStore {
    /// Wakes the watchers of `competition`'s results (a write of them is committed).
    fn notify_results(&self, competition: &str) {
        self.shared
            .hub
            .notify_key(&Topic::Results(competition.to_string()).key());
    }

    /// Opens the store under `dir`, creating the directory and the database file
    /// ([`FILE_NAME`]) if they do not exist yet.
    ///
    /// Fails with [`StoreError::Unavailable`] if the directory cannot be created or another
    /// process has it open, and with [`StoreError::Corrupt`] if the file is not a usable redb
    /// database. This call blocks on file I/O; call it before serving, or from a blocking task.
    pub fn open(dir: &Path) -> StoreResult<Self> {
        create_private_dir(dir).map_err(|e| {
            StoreError::Unavailable(format!(
                "cannot create data directory {}: {e}",
                dir.display()
            ))
        })?;
        let dir = dir.canonicalize().map_err(|e| {
            StoreError::Unavailable(format!(
                "cannot resolve data directory {}: {e}",
                dir.display()
            ))
        })?;
        let path = dir.join(FILE_NAME);

        // The last handle of a database this process had open may still be closing it (on a
        // blocking thread finishing a call whose caller went away), holding redb's lock for a
        // moment: such a directory is waited for, not reported as another process's.
        let deadline = Instant::now() + CLOSE_WAIT;
        loop {
            // Held across the open so that two threads opening the same directory cannot both
            // open the file.
            let mut open = open_databases()
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let was_open_here = match open.get(&path) {
                Some(shared) => match shared.upgrade() {
                    Some(shared) => {
                        return Ok(EmbeddedStore {
                            shared,
                            path: Arc::new(path),
                        });
                    }
                    None => true,
                },
                None => false,
            };
            let db = match guarded(&path, || create(&path)) {
                Ok(db) => db,
                Err(InUse) if was_open_here && Instant::now() < deadline => {
                    drop(open);
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                }
                Err(InUse) => {
                    return Err(StoreError::InUse(format!(
                        "data directory {} is in use by another arena process",
                        dir.display()
                    )));
                }
                Err(Other(e)) => return Err(e),
            };
            let shared = Arc::new(Shared::new(db));
            open.insert(path.clone(), Arc::downgrade(&shared));
            return Ok(EmbeddedStore {
                shared,
                path: Arc::new(path),
            });
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` against the database off the async threads (see the module documentation); its
    /// redb errors become store errors naming the file here, by [`redb_error`].
    async fn run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Database) -> DbResult<T> + Send + 'static,
    {
        let shared = self.shared.clone();
        let path = self.path.clone();
        let job = move || guarded(&path, || f(&shared.db).map_err(|e| e.at(&path)));
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => runtime.spawn_blocking(job).await.map_err(|e| {
                StoreError::Unavailable(format!(
                    "embedded store {}: task did not finish: {e}",
                    self.path.display()
                ))
            })?,
            Err(_) => job(),
        }
    }
}

/// How long `open` waits for this process's own previous handle of a directory to close.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// Why a database file could not be opened.
enum OpenError {
    /// Another handle holds redb's lock on the file.
    InUse,
    /// Anything else.
    Other(StoreError),
}
use OpenError::{InUse, Other};

impl From<StoreError> for OpenError {
    fn from(e: StoreError) -> Self {
        Other(e)
    }
}

/// Creates `dir` (and its missing parents) readable by its owner only (0700): the store holds
/// secrets (a ladder's deal key, a running competition's seed, token hashes), and bot programs
/// run on the same host, as `nobody` when arena runs as root. An existing directory is left as
/// it is (whoever runs programs checks it, see `docs/sandbox.md`).
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Makes the database file at `path` readable and writable by its owner only (0600), creating
/// it empty (which redb then initialises) if it does not exist, so that it is never readable
/// by others even for a moment.
fn make_private_file(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)?;
        // A file made before stores were private (0644) is made private too.
        if file.metadata()?.permissions().mode() & 0o077 != 0 {
            file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Opens (or creates) the database file and makes sure every table exists, so that reads of a
/// new store find empty tables.
fn create(path: &Path) -> Result<Database, OpenError> {
    make_private_file(path).map_err(|e| {
        Other(StoreError::Unavailable(format!(
            "cannot make the database file {} private: {e}",
            path.display()
        )))
    })?;
    let db = Database::create(path).map_err(|e| match e {
        redb::DatabaseError::DatabaseAlreadyOpen => InUse,
        e => Other(redb_error(path, e)),
    })?;
    prepare(&db, path).map_err(|e| e.at(path))?;
    Ok(db)
}

/// Creates the tables a new store lacks and migrates old ones, in one write transaction.
fn prepare(db: &Database, path: &Path) -> DbResult<()> {
    let txn = db.begin_write()?;
    txn.open_table(PANELS)?;
    txn.open_table(DEALS)?;
    txn.open_table(DEAL_COUNTS)?;
    txn.open_table(MEASURED)?;
    txn.open_table(USAGE)?;
    txn.open_table(JOB_SEQ)?;
    txn.open_table(JOBS_WAITING)?;
    txn.open_table(JOBS_PENDING)?;
    txn.open_table(RESULTS)?;
    txn.open_table(REPLAYS)?;
    txn.open_table(COMPETITION_RESULTS)?;
    txn.open_table(BOTS)?;
    migrate(&txn, path)?;
    txn.commit()?;
    Ok(())
}

/// Brings `PANELS` and `DEALS` to the current schema version within `txn` (see the module
/// documentation); nothing to do if `META` already says it.
fn migrate(txn: &redb::WriteTransaction, path: &Path) -> DbResult<()> {
    let mut meta = txn.open_table(META)?;
    let version = meta.get(SCHEMA_KEY)?.map(|v| v.value());
    let current = u64::from(crate::SCHEMA_VERSION);
    match version {
        Some(v) if v == current => return Ok(()),
        Some(v) if v > current => {
            return Err(StoreError::Corrupt {
                key: format!("{}: meta/{SCHEMA_KEY}", path.display()),
                reason: format!(
                    "schema version {v} is newer than this build's ({current}): written by a newer arena"
                ),
            }
            .into());
        }
        _ => {}
    }
    {
        let mut panels = txn.open_table(PANELS)?;
        let mut rewrite = Vec::new();
        for entry in panels.iter()? {
            let (key, value) = entry?;
            let id = key.value().to_string();
            if let Some(new) = upgrade::<Panel>(|| format!("panels/{id}"), value.value())? {
                rewrite.push((id, new));
            }
        }
        for (id, new) in rewrite {
            panels.insert(id.as_str(), new.as_slice())?;
        }
    }
    {
        let mut deals = txn.open_table(DEALS)?;
        let mut rewrite = Vec::new();
        for entry in deals.iter()? {
            let (key, value) = entry?;
            let (panel, id) = key.value();
            let (panel, id) = (panel.to_string(), id.to_string());
            if let Some(new) = upgrade::<DealRecord>(|| deal_key(&panel, &id), value.value())? {
                rewrite.push((panel, id, new));
            }
        }
        for (panel, id, new) in rewrite {
            deals.insert((panel.as_str(), id.as_str()), new.as_slice())?;
        }
    }
    meta.insert(SCHEMA_KEY, current)?;
    Ok(())
}

/// Runs `f`, turning a panic inside redb (which it documents for files damaged outside it) into
/// an error naming the file.
fn guarded<T, E: From<StoreError>>(path: &Path, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let reason = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown failure".to_string());
        Err(StoreError::Corrupt {
            key: path.display().to_string(),
            reason: format!("the database failed: {reason}"),
        }
        .into())
    })
}

/// A failure inside one database call: one of redb's, or one the store found itself (a value
/// that does not decode, a job not held). Database code uses `?` on both; [`DbError::at`] turns
/// it into a [`StoreError`] once, where the call returns.
enum DbError {
    /// redb failed; [`redb_error`] says what that means.
    Redb(redb::Error),
    /// The store's own finding.
    Store(StoreError),
}

/// The result of database code.
type DbResult<T> = Result<T, DbError>;

impl DbError {
    /// The store error this is, for the database file at `path`.
    fn at(self, path: &Path) -> StoreError {
        match self {
            DbError::Redb(e) => redb_error(path, e),
            DbError::Store(e) => e,
        }
    }
}

impl From<StoreError> for DbError {
    fn from(e: StoreError) -> Self {
        DbError::Store(e)
    }
}

/// Every error type of redb's API converts into [`redb::Error`], and so into a [`DbError`].
macro_rules! from_redb {
    ($($error:ty),* $(,)?) => {
        $(impl From<$error> for DbError {
            fn from(e: $error) -> Self {
                DbError::Redb(e.into())
            }
        })*
    };
}
from_redb!(
    redb::Error,
    redb::DatabaseError,
    redb::TransactionError,
    redb::TableError,
    redb::StorageError,
    redb::CommitError,
    redb::SetDurabilityError,
);

/// The one mapping of redb's errors, for every call: damage (including a file that is not a
/// redb database) is [`StoreError::Corrupt`] naming the file, anything else (I/O, locks)
/// [`StoreError::Unavailable`].
fn redb_error(path: &Path, e: impl Into<redb::Error>) -> StoreError {
    match e.into() {
        redb::Error::Corrupted(reason) => StoreError::Corrupt {
            key: path.display().to_string(),
            reason,
        },
        redb::Error::Io(e) if e.kind() == std::io::ErrorKind::InvalidData => StoreError::Corrupt {
            key: path.display().to_string(),
            reason: e.to_string(),
        },
        e => StoreError::Unavailable(format!("embedded store {}: {e}", path.display())),
    }
}

fn deal_key(panel: &str, id: &str) -> String {
    format!("deals/{panel}/{id}")
}

/// The wall clock in Unix milliseconds (0 before 1970: idle times then only look longer).
fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Parses an entry id this store handed out: a decimal number.
fn parse_entry_id(id: &str) -> StoreResult<u64> {
    id.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| id.parse::<u64>().ok())
        .flatten()
        .ok_or_else(|| args::not_an_entry_id(id))
}

/// What one attempt of `next_jobs` found: jobs, or else how long until the soonest pending job
/// becomes reclaimable (`None`: nothing is pending).
enum Take {
    Jobs(Vec<JobEntry>),
    Nothing { reclaimable_in: Option<Duration> },
}

/// One attempt of `next_jobs`, in one write transaction: up to `max` jobs, the oldest pending
/// ones idle for `reclaim_ms` first, then the oldest waiting ones.
fn take_jobs(db: &Database, consumer: &str, reclaim_ms: u64, max: usize) -> DbResult<Take> {
    let now = unix_ms();
    let txn = begin_redeliverable(db)?;
    let mut pending = txn.open_table(JOBS_PENDING)?;
    let mut jobs = Vec::new();
    let mut soonest: Option<u64> = None;
    for entry in pending.iter()? {
        if jobs.len() == max {
            break;
        }
        let (id, value) = entry?;
        let (table, payload, _, deliveries, active) = value.value();
        let idle = now.saturating_sub(active);
        if idle >= reclaim_ms {
            jobs.push((
                id.value(),
                table.to_string(),
                payload.to_vec(),
                deliveries + 1,
            ));
            continue;
        }
        let left = reclaim_ms - idle;
        soonest = Some(soonest.map_or(left, |s| s.min(left)));
    }
    if jobs.len() < max {
        let mut waiting = txn.open_table(JOBS_WAITING)?;
        while jobs.len() < max {
            let Some((id, value)) = waiting.pop_first()? else {
                break;
            };
            let (table, payload) = value.value();
            jobs.push((id.value(), table.to_string(), payload.to_vec(), 1));
        }
    }
    if jobs.is_empty() {
        // Nothing changed: the transaction is dropped, not committed.
        return Ok(Take::Nothing {
            reclaimable_in: soonest.map(Duration::from_millis),
        });
    }
    for (id, table_id, payload, deliveries) in &jobs {
        let value = (
            table_id.as_str(),
            payload.as_slice(),
            consumer,
            *deliveries,
            now,
        );
        pending.insert(*id, value)?;
    }
    drop(pending);
    txn.commit()?;
    Ok(Take::Jobs(
        jobs.into_iter()
            .map(|(id, table_id, payload, deliveries)| JobEntry {
                entry_id: id.to_string(),
                table_id,
                payload,
                deliveries,
            })
            .collect(),
    ))
}

/// A write transaction whose loss in a crash only means a job is delivered again: taking jobs
/// and touching them. It is not made durable on its own (no `fsync`, which costs milliseconds
/// here and would put one on every take): it reaches the disk with the next durable commit
/// (results written, jobs enqueued or acknowledged) or when the store is closed. A crash before
/// that leaves those jobs as they were at the last durable commit, waiting or idle since their
/// last durable touch, so they are handed out again: the at-least-once delivery the queue has
/// anyway. Results, acknowledgements and enqueued jobs stay durable when their call returns.
fn begin_redeliverable(db: &Database) -> DbResult<redb::WriteTransaction> {
    let mut txn = db.begin_write()?;
    txn.set_durability(redb::Durability::None)?;
    Ok(txn)
}

/// Waits until `notified` fires or `wait` has passed. Outside a tokio runtime the caller's
/// thread sleeps a short step instead (the caller then simply tries again).
async fn wait_for(
    notified: std::pin::Pin<&mut tokio::sync::futures::Notified<'_>>,
    wait: Duration,
) {
    if tokio::runtime::Handle::try_current().is_ok() {
        let _ = tokio::time::timeout(wait, notified).await;
    } else {
        std::thread::sleep(wait.min(Duration::from_millis(2)));
    }
}

/// A record ready to be written: its keys and its JSON.
struct Encoded {
    panel: String,
    id: String,
    measured: Option<(String, u64)>,
    json: Vec<u8>,
}

#[async_trait::async_trait]
impl Backend for EmbeddedStore {
    fn describe(&self) -> String {
        format!("embedded ({})", self.path.display())
    }
}

#[async_trait::async_trait]
impl Deals for EmbeddedStore {
    async fn put_panel(&self, panel: &Panel) -> StoreResult<()> {
        check_panel(panel)?;
        let id = panel.id.clone();
        let json = encode(panel)?;
        self.run(move |db| {
            let txn = db.begin_write()?;
            txn.open_table(PANELS)?
                .insert(id.as_str(), json.as_slice())?;
            Ok(txn.commit()?)
        })
        .await
    }

    async fn panel(&self, id: &str) -> StoreResult<Option<Panel>> {
        args::panel(id)?;
        let id = id.to_string();
        self.run(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(PANELS)?;
            let Some(value) = table.get(id.as_str())? else {
                return Ok(None);
            };
            Ok(decode(|| format!("panels/{id}"), value.value()).map(Some)?)
        })
        .await
    }

    async fn panels(&self) -> StoreResult<Vec<Panel>> {
        self.run(|db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(PANELS)?;
            let mut panels = Vec::new();
            for entry in table.iter()? {
                let (key, value) = entry?;
                panels.push(decode(|| format!("panels/{}", key.value()), value.value())?);
            }
            Ok(panels)
        })
        .await
    }

    async fn put_deals(&self, records: &[DealRecord]) -> StoreResult<usize> {
        check_records(records)?;
        if records.is_empty() {
            return Ok(0);
        }
        let batch = records
            .iter()
            .map(|r| {
                Ok(Encoded {
                    panel: r.panel.clone(),
                    id: r.id.clone(),
                    measured: r.source.map(|(source, index)| (source_key(&source), index)),
                    json: encode(r)?,
                })
            })
            .collect::<StoreResult<Vec<_>>>()?;
        let panels: BTreeSet<String> = records.iter().map(|r| r.panel.clone()).collect();
        let new = self
            .run(move |db| {
                let txn = db.begin_write()?;
                let mut new = 0;
                {
                    let mut deals = txn.open_table(DEALS)?;
                    let mut measured = txn.open_table(MEASURED)?;
                    let mut counts = txn.open_table(DEAL_COUNTS)?;
                    let mut added: BTreeMap<&str, u64> = BTreeMap::new();
                    for r in &batch {
                        let key = (r.panel.as_str(), r.id.as_str());
                        if deals.get(key)?.is_some() {
                            continue;
                        }
                        deals.insert(key, r.json.as_slice())?;
                        if let Some((source, index)) = &r.measured {
                            measured.insert((r.panel.as_str(), source.as_str(), *index), ())?;
                        }
                        *added.entry(&r.panel).or_default() += 1;
                        new += 1;
                    }
                    for (panel, n) in added {
                        let before = counts.get(panel)?.map_or(0, |v| v.value());
                        counts.insert(panel, before + n)?;
                    }
                }
                txn.commit()?;
                Ok(new)
            })
            .await?;
        if new > 0 {
            for panel in panels {
                self.shared.hub.notify(&Topic::Deals(panel));
            }
        }
        Ok(new)
    }

    async fn deal(&self, panel: &str, id: &str) -> StoreResult<Option<DealRecord>> {
        args::deal(panel, id)?;
        let (panel, id) = (panel.to_string(), id.to_string());
        self.run(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(DEALS)?;
            let value = table.get((panel.as_str(), id.as_str()))?;
            Ok(value
                .map(|v| decode_deal(|| deal_key(&panel, &id), &panel, &id, v.value()))
                .transpose()?)
        })
        .await
    }

    async fn deals(&self, panel: &str) -> StoreResult<Vec<DealRecord>> {
        args::panel(panel)?;
        let panel = panel.to_string();
        self.run(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(DEALS)?;
            let mut records = Vec::new();
            let range = table.range((panel.as_str(), "")..)?;
            for entry in range {
                let (key, value) = entry?;
                let (key_panel, id) = key.value();
                if key_panel != panel {
                    break;
                }
                records.push(decode_deal(
                    || deal_key(&panel, id),
                    &panel,
                    id,
                    value.value(),
                )?);
            }
            Ok(records)
        })
        .await
    }

    async fn deal_count(&self, panel: &str) -> StoreResult<u64> {
        args::panel(panel)?;
        let panel = panel.to_string();
        self.run(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(DEAL_COUNTS)?;
            let count = table.get(panel.as_str())?.map_or(0, |v| v.value());
            Ok(count)
        })
        .await
    }

    async fn measured_indices(&self, panel: &str, source: &DealSource) -> StoreResult<Vec<u64>> {
        args::panel(panel)?;
        let panel = panel.to_string();
        let source = source_key(source);
        self.run(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(MEASURED)?;
            let (p, s) = (panel.as_str(), source.as_str());
            let range = table.range((p, s, 0)..=(p, s, u64::MAX))?;
            range
                .map(|entry| {
                    let (key, _) = entry?;
                    Ok(key.value().2)
                })
                .collect()
        })
        .await
    }

    async fn claim_deals(&self, competition: &str, deal_ids: &[String]) -> StoreResult<Vec<bool>> {
        args::claim(competition, deal_ids)?;
        if deal_ids.is_empty() {
            return Ok(Vec::new());
        }
        let competition = competition.to_string();
        let ids = deal_ids.to_vec();
        self.run(move |db| {
            let txn = db.begin_write()?;
            let mut held = Vec::with_capacity(ids.len());
            {
                let mut usage = txn.open_table(USAGE)?;
                for id in &ids {
                    let holder = usage.get(id.as_str())?.map(|v| v.value().to_string());
                    match holder {
                        Some(holder) => held.push(holder == competition),
                        None => {
                            usage.insert(id.as_str(), competition.as_str())?;
                            held.push(true);
                        }
                    }
                }
            }
            txn.commit()?;
            Ok(held)
        })
        .await
    }

    async fn used_deals(&self) -> StoreResult<BTreeMap<String, String>> {
        self.run(|db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(USAGE)?;
            let mut used = BTreeMap::new();
            for entry in table.iter()? {
                let (key, value) = entry?;
                used.insert(key.value().to_string(), value.value().to_string());
            }
            Ok(used)
        })
        .await
    }
}

#[async_trait::async_trait]
impl Jobs for EmbeddedStore {
    /// The same store: one process holds an embedded store, so one referee takes its jobs, and
    /// every lane is its one stream (a lane's name is still checked).
    fn lane(&self, lane: &str) -> StoreResult<Arc<dyn Store>> {
        crate::check_lane(lane)?;
        Ok(Arc::new(self.clone()))
    }

    async fn enqueue_job(&self, table_id: &str, payload: &[u8]) -> StoreResult<String> {
        args::table(table_id)?;
        let (table_id, payload) = (table_id.to_string(), payload.to_vec());
        let id = self
            .run(move |db| {
                let txn = db.begin_write()?;
                let id = {
                    let mut seq = txn.open_table(JOB_SEQ)?;
                    let id = seq.get(NEXT_ENTRY)?.map_or(1, |v| v.value());
                    seq.insert(NEXT_ENTRY, id + 1)?;
                    txn.open_table(JOBS_WAITING)?
                        .insert(id, (table_id.as_str(), payload.as_slice()))?;
                    id
                };
                txn.commit()?;
                Ok(id)
            })
            .await?;
        self.shared.jobs_added.notify_waiters();
        Ok(id.to_string())
    }

    async fn next_job(
        &self,
        consumer: &str,
        reclaim_after: Duration,
        block: Duration,
    ) -> StoreResult<Option<JobEntry>> {
        Ok(self
            .next_jobs(consumer, 1, reclaim_after, block)
            .await?
            .pop())
    }

    async fn next_jobs(
        &self,
        consumer: &str,
        max: usize,
        reclaim_after: Duration,
        block: Duration,
    ) -> StoreResult<Vec<JobEntry>> {
        let reclaim_ms = args::next_job(consumer, reclaim_after)?;
        if max == 0 {
            return Ok(Vec::new());
        }
        let start = Instant::now();
        loop {
            // Listening before looking, so a job enqueued in between still wakes this call.
            let mut added = pin!(self.shared.jobs_added.notified());
            added.as_mut().enable();
            let consumer = consumer.to_string();
            let take = self
                .run(move |db| take_jobs(db, &consumer, reclaim_ms, max))
                .await?;
            let reclaimable_in = match take {
                Take::Jobs(jobs) => return Ok(jobs),
                Take::Nothing { reclaimable_in } => reclaimable_in,
            };
            let remaining = block.saturating_sub(start.elapsed());
            if remaining.is_zero() {
                return Ok(Vec::new());
            }
            let wait = reclaimable_in.map_or(remaining, |r| r.min(remaining));
            wait_for(added, wait).await;
        }
    }

    async fn ack_job(&self, entry_id: &str) -> StoreResult<()> {
        let id = parse_entry_id(entry_id)?;
        self.run(move |db| {
            let txn = db.begin_write()?;
            let removed = {
                let mut pending = txn.open_table(JOBS_PENDING)?;
                let mut waiting = txn.open_table(JOBS_WAITING)?;
                let was_pending = pending.remove(id)?.is_some();
                let was_waiting = waiting.remove(id)?.is_some();
                was_pending || was_waiting
            };
            if removed {
                txn.commit()?;
            } else {
                txn.abort()?;
            }
            Ok(())
        })
        .await
    }

    async fn touch_job(&self, consumer: &str, entry_id: &str) -> StoreResult<()> {
        args::consumer(consumer)?;
        let id = parse_entry_id(entry_id)?;
        let consumer = consumer.to_string();
        let entry_id = entry_id.to_string();
        self.run(move |db| {
            let txn = begin_redeliverable(db)?;
            let touched = {
                let mut pending = txn.open_table(JOBS_PENDING)?;
                let held = pending.get(id)?.and_then(|v| {
                    let (table, payload, holder, deliveries, _) = v.value();
                    (holder == consumer).then(|| (table.to_string(), payload.to_vec(), deliveries))
                });
                match held {
                    Some((table, payload, deliveries)) => {
                        let value = (
                            table.as_str(),
                            payload.as_slice(),
                            consumer.as_str(),
                            deliveries,
                            unix_ms(),
                        );
                        pending.insert(id, value)?;
                        true
                    }
                    None => false,
                }
            };
            if touched {
                Ok(txn.commit()?)
            } else {
                txn.abort()?;
                Err(StoreError::Invalid(format!(
                    "job {entry_id} is not held by {consumer} (reclaimed by another, or done)"
                ))
                .into())
            }
        })
        .await
    }

    async fn job_counts(&self) -> StoreResult<JobCounts> {
        self.run(|db| {
            let txn = db.begin_read()?;
            let waiting = txn.open_table(JOBS_WAITING)?;
            let pending = txn.open_table(JOBS_PENDING)?;
            Ok(JobCounts {
                waiting: waiting.len()?,
                pending: pending.len()?,
            })
        })
        .await
    }

    async fn finish_jobs(&self, jobs: &[FinishedJob<'_>]) -> StoreResult<Vec<bool>> {
        let mut owned = Vec::with_capacity(jobs.len());
        for job in jobs {
            args::result(job.table_id, job.competition)?;
            owned.push((
                parse_entry_id(job.entry_id)?,
                job.table_id.to_string(),
                job.competition.map(str::to_string),
                job.result.to_vec(),
                job.replay.to_vec(),
            ));
        }
        if owned.is_empty() {
            return Ok(Vec::new());
        }
        let topics: BTreeSet<&str> = jobs.iter().map(|j| competition_of(j.table_id)).collect();
        let written = self
            .run(move |db| {
                let txn = db.begin_write()?;
                let mut written = Vec::with_capacity(owned.len());
                {
                    let mut results = txn.open_table(RESULTS)?;
                    let mut replays = txn.open_table(REPLAYS)?;
                    let mut listed = txn.open_table(COMPETITION_RESULTS)?;
                    let mut pending = txn.open_table(JOBS_PENDING)?;
                    let mut waiting = txn.open_table(JOBS_WAITING)?;
                    for (id, table, competition, result, replay) in &owned {
                        let new = results.get(table.as_str())?.is_none();
                        if new {
                            results.insert(table.as_str(), result.as_slice())?;
                            replays.insert(table.as_str(), replay.as_slice())?;
                            if let Some(competition) = competition {
                                listed.insert((competition.as_str(), table.as_str()), ())?;
                            }
                        }
                        written.push(new);
                        pending.remove(*id)?;
                        waiting.remove(*id)?;
                    }
                }
                txn.commit()?;
                Ok(written)
            })
            .await?;
        if written.contains(&true) {
            for competition in topics {
                self.notify_results(competition);
            }
        }
        Ok(written)
    }

    async fn enqueue_jobs(&self, jobs: &[(&str, &[u8])]) -> StoreResult<Vec<String>> {
        for (table, _) in jobs {
            args::table(table)?;
        }
        if jobs.is_empty() {
            return Ok(Vec::new());
        }
        let owned: Vec<(String, Vec<u8>)> = jobs
            .iter()
            .map(|(t, p)| (t.to_string(), p.to_vec()))
            .collect();
        let ids = self
            .run(move |db| {
                let txn = db.begin_write()?;
                let mut ids = Vec::with_capacity(owned.len());
                {
                    let mut seq = txn.open_table(JOB_SEQ)?;
                    let mut waiting = txn.open_table(JOBS_WAITING)?;
                    let mut id = seq.get(NEXT_ENTRY)?.map_or(1, |v| v.value());
                    for (table, payload) in &owned {
                        waiting.insert(id, (table.as_str(), payload.as_slice()))?;
                        ids.push(id.to_string());
                        id += 1;
                    }
                    seq.insert(NEXT_ENTRY, id)?;
                }
                txn.commit()?;
                Ok(ids)
            })
            .await?;
        self.shared.jobs_added.notify_waiters();
        Ok(ids)
    }

    async fn resume_jobs(&self, consumer: &str, max: usize) -> StoreResult<Vec<JobEntry>> {
        args::consumer(consumer)?;
        let consumer = consumer.to_string();
        self.run(move |db| {
            let txn = db.begin_write()?;
            let mut out = Vec::new();
            {
                let mut pending = txn.open_table(JOBS_PENDING)?;
                let mut mine = Vec::new();
                for entry in pending.iter()? {
                    let (id, value) = entry?;
                    let (table, payload, holder, deliveries, _) = value.value();
                    if holder == consumer && mine.len() < max {
                        mine.push((
                            id.value(),
                            table.to_string(),
                            payload.to_vec(),
                            deliveries + 1,
                        ));
                    }
                }
                let now = unix_ms();
                for (id, table_id, payload, deliveries) in mine {
                    let value = (
                        table_id.as_str(),
                        payload.as_slice(),
                        consumer.as_str(),
                        deliveries,
                        now,
                    );
                    pending.insert(id, value)?;
                    out.push(JobEntry {
                        entry_id: id.to_string(),
                        table_id,
                        payload,
                        deliveries,
                    });
                }
            }
            txn.commit()?;
            Ok(out)
        })
        .await
    }
}

#[async_trait::async_trait]
impl Results for EmbeddedStore {
    async fn put_result(
        &self,
        table_id: &str,
        competition: Option<&str>,
        result: &[u8],
        replay: &[u8],
    ) -> StoreResult<bool> {
        args::result(table_id, competition)?;
        let topic = competition_of(table_id).to_string();
        let table_id = table_id.to_string();
        let competition = competition.map(str::to_string);
        let (result, replay) = (result.to_vec(), replay.to_vec());
        let written = self
            .run(move |db| {
                let txn = db.begin_write()?;
                let written = {
                    let mut results = txn.open_table(RESULTS)?;
                    if results.get(table_id.as_str())?.is_some() {
                        false
                    } else {
                        results.insert(table_id.as_str(), result.as_slice())?;
                        txn.open_table(REPLAYS)?
                            .insert(table_id.as_str(), replay.as_slice())?;
                        if let Some(competition) = &competition {
                            txn.open_table(COMPETITION_RESULTS)?
                                .insert((competition.as_str(), table_id.as_str()), ())?;
                        }
                        true
                    }
                };
                if written {
                    txn.commit()?;
                } else {
                    txn.abort()?;
                }
                Ok(written)
            })
            .await?;
        if written {
            self.notify_results(&topic);
        }
        Ok(written)
    }

    async fn result(&self, table_id: &str) -> StoreResult<Option<Vec<u8>>> {
        args::table(table_id)?;
        self.read_blob(RESULTS, table_id).await
    }

    async fn replay(&self, table_id: &str) -> StoreResult<Option<Vec<u8>>> {
        args::table(table_id)?;
        self.read_blob(REPLAYS, table_id).await
    }

    async fn results_for(&self, competition: &str) -> StoreResult<Vec<(String, Vec<u8>)>> {
        args::competition(competition)?;
        let competition = competition.to_string();
        self.run(move |db| {
            let txn = db.begin_read()?;
            let index = txn.open_table(COMPETITION_RESULTS)?;
            let results = txn.open_table(RESULTS)?;
            let mut found = Vec::new();
            let range = index.range((competition.as_str(), "")..)?;
            for entry in range {
                let (key, _) = entry?;
                let (listed_under, table) = key.value();
                if listed_under != competition {
                    break;
                }
                let result = results.get(table)?.ok_or_else(|| StoreError::Corrupt {
                    key: format!("results/{table}"),
                    reason: format!(
                        "missing, but the table is listed under competition {competition}"
                    ),
                })?;
                found.push((table.to_string(), result.value().to_vec()));
            }
            Ok(found)
        })
        .await
    }

    async fn delete_results(
        &self,
        competition: Option<&str>,
        table_ids: &[String],
    ) -> StoreResult<u64> {
        args::results(competition, table_ids)?;
        let topics: BTreeSet<String> = table_ids
            .iter()
            .map(|t| competition_of(t).to_string())
            .collect();
        let competition = competition.map(str::to_string);
        let table_ids = table_ids.to_vec();
        let deleted = self
            .run(move |db| {
                let txn = db.begin_write()?;
                let mut deleted = 0u64;
                {
                    let mut results = txn.open_table(RESULTS)?;
                    let mut replays = txn.open_table(REPLAYS)?;
                    let mut index = txn.open_table(COMPETITION_RESULTS)?;
                    for table in &table_ids {
                        if results.remove(table.as_str())?.is_some() {
                            deleted += 1;
                        }
                        replays.remove(table.as_str())?;
                        if let Some(competition) = &competition {
                            index.remove((competition.as_str(), table.as_str()))?;
                        }
                    }
                }
                txn.commit()?;
                Ok(deleted)
            })
            .await?;
        for competition in &topics {
            self.notify_results(competition);
        }
        Ok(deleted)
    }

    async fn result_count(&self, competition: &str) -> StoreResult<u64> {
        args::competition(competition)?;
        let competition = competition.to_string();
        self.run(move |db| {
            let txn = db.begin_read()?;
            let index = txn.open_table(COMPETITION_RESULTS)?;
            let mut n = 0;
            for entry in index.range((competition.as_str(), "")..)? {
                let (key, _) = entry?;
                if key.value().0 != competition {
                    break;
                }
                n += 1;
            }
            Ok(n)
        })
        .await
    }
}

#[async_trait::async_trait]
impl Bots for EmbeddedStore {
    async fn add_bot(&self, bot: &BotRecord) -> StoreResult<bool> {
        check_bot(bot)?;
        self.write_bot(bot, false).await
    }

    async fn update_bot(&self, bot: &BotRecord) -> StoreResult<bool> {
        check_bot(bot)?;
        self.write_bot(bot, true).await
    }

    async fn bot(&self, name: &str) -> StoreResult<Option<BotRecord>> {
        args::bot(name)?;
        let name = name.to_string();
        self.run(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(BOTS)?;
            let value = table.get(name.as_str())?;
            Ok(value
                .map(|v| decode_bot(|| format!("bots/{name}"), &name, v.value()))
                .transpose()?)
        })
        .await
    }

    async fn bots(&self) -> StoreResult<Vec<BotRecord>> {
        self.run(|db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(BOTS)?;
            let mut bots = Vec::new();
            for entry in table.iter()? {
                let (key, value) = entry?;
                let name = key.value();
                bots.push(decode_bot(|| format!("bots/{name}"), name, value.value())?);
            }
            Ok(bots)
        })
        .await
    }

    async fn set_presence(&self, bot: &str, host: &str, ttl: Duration) -> StoreResult<()> {
        let ttl = Duration::from_millis(args::presence_for(bot, host, ttl)?);
        let now = Instant::now();
        let sweep = {
            let mut swept = self
                .shared
                .presence_swept
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let due = now.duration_since(*swept) >= PRESENCE_SWEEP_EVERY;
            if due {
                *swept = now;
            }
            due
        };
        let mut presence = self.shared.presence();
        // Every expired record goes, not only this bot's (hosts that died leave nothing
        // behind), once per PRESENCE_SWEEP_EVERY.
        if sweep {
            presence.retain(|_, hosts| {
                hosts.retain(|_, until| *until > now);
                !hosts.is_empty()
            });
        }
        presence
            .entry(bot.to_string())
            .or_default()
            .insert(host.to_string(), now + ttl);
        Ok(())
    }

    async fn clear_presence(&self, bot: &str, host: &str) -> StoreResult<()> {
        args::presence(bot, host)?;
        let mut presence = self.shared.presence();
        if let Some(hosts) = presence.get_mut(bot)
            && hosts.remove(host).is_some()
        {
            if hosts.is_empty() {
                presence.remove(bot);
            }
            drop(presence);
            self.shared.hub.notify(&Topic::Presence);
        }
        Ok(())
    }

    async fn presence(&self, bot: &str) -> StoreResult<Vec<String>> {
        args::bot(bot)?;
        let now = Instant::now();
        let presence = self.shared.presence();
        let mut hosts: Vec<String> = presence
            .get(bot)
            .map(|hosts| {
                hosts
                    .iter()
                    .filter(|(_, until)| **until > now)
                    .map(|(host, _)| host.clone())
                    .collect()
            })
            .unwrap_or_default();
        hosts.sort_unstable();
        Ok(hosts)
    }

    async fn remove_bot(&self, name: &str) -> StoreResult<bool> {
        args::bot(name)?;
        let held = self.shared.presence().remove(name).is_some();
        if held {
            self.shared.hub.notify(&Topic::Presence);
        }
        let name = name.to_string();
        self.run(move |db| {
            let txn = db.begin_write()?;
            let removed = txn.open_table(BOTS)?.remove(name.as_str())?.is_some();
            txn.commit()?;
            Ok(removed)
        })
        .await
    }

    async fn claim_presence(
        &self,
        bot: &str,
        host: &str,
        ttl: Duration,
    ) -> StoreResult<Option<String>> {
        let ttl = Duration::from_millis(args::presence_for(bot, host, ttl)?);
        let now = Instant::now();
        let mut presence = self.shared.presence();
        let hosts = presence.entry(bot.to_string()).or_default();
        hosts.retain(|_, until| *until > now);
        if let Some(other) = hosts.keys().find(|h| h.as_str() != host) {
            return Ok(Some(other.clone()));
        }
        let new = hosts.insert(host.to_string(), now + ttl).is_none();
        drop(presence);
        if new {
            self.shared.hub.notify(&Topic::Presence);
        }
        Ok(None)
    }
}

impl Watch for EmbeddedStore {
    fn watch(&self, topic: &Topic) -> StoreResult<Watcher> {
        self.shared.hub.watch(topic)
    }
}

#[async_trait::async_trait]
impl Records for EmbeddedStore {
    async fn put_record(&self, kind: &str, key: &str, value: &[u8]) -> StoreResult<()> {
        self.swap_record_inner(kind, key, None, value, true).await?;
        self.shared.hub.notify(&Topic::Records(kind.to_string()));
        Ok(())
    }

    async fn swap_record(
        &self,
        kind: &str,
        key: &str,
        expected: Option<&[u8]>,
        value: &[u8],
    ) -> StoreResult<bool> {
        let swapped = self
            .swap_record_inner(kind, key, expected, value, false)
            .await?;
        if swapped {
            self.shared.hub.notify(&Topic::Records(kind.to_string()));
        }
        Ok(swapped)
    }

    async fn record(&self, kind: &str, key: &str) -> StoreResult<Option<Vec<u8>>> {
        args::record(kind, key)?;
        let (kind, key) = (kind.to_string(), key.to_string());
        self.run(move |db| {
            let txn = db.begin_read()?;
            let table = match txn.open_table(RECORDS) {
                Ok(t) => t,
                Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            };
            let value = table.get((kind.as_str(), key.as_str()))?;
            Ok(value.map(|v| v.value().to_vec()))
        })
        .await
    }

    async fn records(&self, kind: &str) -> StoreResult<Vec<(String, Vec<u8>)>> {
        args::record_kind(kind)?;
        let kind = kind.to_string();
        self.run(move |db| {
            let txn = db.begin_read()?;
            let table = match txn.open_table(RECORDS) {
                Ok(t) => t,
                Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
                Err(e) => return Err(e.into()),
            };
            let mut out = Vec::new();
            for entry in table.range((kind.as_str(), "")..)? {
                let (k, v) = entry?;
                let (record_kind, key) = k.value();
                if record_kind != kind {
                    break;
                }
                out.push((key.to_string(), v.value().to_vec()));
            }
            Ok(out)
        })
        .await
    }

    async fn delete_record(&self, kind: &str, key: &str) -> StoreResult<bool> {
        args::record(kind, key)?;
        let topic = Topic::Records(kind.to_string());
        let (kind, key) = (kind.to_string(), key.to_string());
        let removed = self
            .run(move |db| {
                let txn = db.begin_write()?;
                let removed = txn
                    .open_table(RECORDS)?
                    .remove((kind.as_str(), key.as_str()))?
                    .is_some();
                txn.commit()?;
                Ok(removed)
            })
            .await?;
        if removed {
            self.shared.hub.notify(&topic);
        }
        Ok(removed)
    }
}

impl EmbeddedStore {
    /// One value of a table of encoded blobs (results, replays).
    async fn read_blob(
        &self,
        table: TableDefinition<'static, &'static str, &'static [u8]>,
        key: &str,
    ) -> StoreResult<Option<Vec<u8>>> {
        let key = key.to_string();
        self.run(move |db| {
            let txn = db.begin_read()?;
            let table = txn.open_table(table)?;
            let value = table.get(key.as_str())?;
            Ok(value.map(|v| v.value().to_vec()))
        })
        .await
    }

    /// Adds a bot (`replace` false: only if its name is free) or replaces one (`replace` true:
    /// only if it exists). Whether it was written.
    async fn swap_record_inner(
        &self,
        kind: &str,
        key: &str,
        expected: Option<&[u8]>,
        value: &[u8],
        always: bool,
    ) -> StoreResult<bool> {
        args::record(kind, key)?;
        let (kind, key, value) = (kind.to_string(), key.to_string(), value.to_vec());
        let expected = expected.map(<[u8]>::to_vec);
        self.run(move |db| {
            let txn = db.begin_write()?;
            let swapped = {
                let mut table = txn.open_table(RECORDS)?;
                let current = table
                    .get((kind.as_str(), key.as_str()))?
                    .map(|v| v.value().to_vec());
                if always || current == expected {
                    table.insert((kind.as_str(), key.as_str()), value.as_slice())?;
                    true
                } else {
                    false
                }
            };
            if swapped {
                txn.commit()?;
            } else {
                txn.abort()?;
            }
            Ok(swapped)
        })
        .await
    }

    async fn write_bot(&self, bot: &BotRecord, replace: bool) -> StoreResult<bool> {
        let name = bot.name.clone();
        let json = encode(bot)?;
        self.run(move |db| {
            let txn = db.begin_write()?;
            let written = {
                let mut bots = txn.open_table(BOTS)?;
                let exists = bots.get(name.as_str())?.is_some();
                if exists == replace {
                    bots.insert(name.as_str(), json.as_slice())?;
                    true
                } else {
                    false
                }
            };
            if written {
                txn.commit()?;
            } else {
                txn.abort()?;
            }
            Ok(written)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a current-thread runtime")
    }

    /// Overwrites one value of a table with bytes that are not JSON, as a damaged file or a buggy
    /// writer would.
    fn write_garbage<K: redb::Key + 'static>(
        store: &EmbeddedStore,
        table: TableDefinition<K, &[u8]>,
        key: K::SelfType<'_>,
    ) {
        let txn = store.shared.db.begin_write().expect("write transaction");
        txn.open_table(table)
            .expect("table")
            .insert(key, b"\xff{not json".as_slice())
            .expect("insert");
        txn.commit().expect("commit");
    }

    #[test]
    fn garbage_in_a_table_is_reported_as_corrupt_naming_the_key() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EmbeddedStore::open(dir.path()).expect("open");
        let record = crate::conformance::sample_record("p-garbage", "d-1", None);
        runtime().block_on(async {
            store
                .put_deals(std::slice::from_ref(&record))
                .await
                .expect("put");
            write_garbage(&store, DEALS, ("p-garbage", "d-1"));
            write_garbage(&store, PANELS, "p-garbage");

            for result in [
                store.deal("p-garbage", "d-1").await.map(|_| ()),
                store.deals("p-garbage").await.map(|_| ()),
            ] {
                match result {
                    Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "deals/p-garbage/d-1"),
                    other => panic!("expected Corrupt naming the deal, got {other:?}"),
                }
            }
            for result in [
                store.panel("p-garbage").await.map(|_| ()),
                store.panels().await.map(|_| ()),
            ] {
                match result {
                    Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "panels/p-garbage"),
                    other => panic!("expected Corrupt naming the panel, got {other:?}"),
                }
            }
            // The rest of the store still works.
            assert_eq!(store.deal_count("p-garbage").await.expect("count"), 1);
        });
    }

    #[test]
    fn damaged_bots_and_dangling_listings_are_corrupt_naming_the_key() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EmbeddedStore::open(dir.path()).expect("open");
        runtime().block_on(async {
            let bot = crate::conformance::sample_bot("b1");
            assert!(store.add_bot(&bot).await.expect("add"));
            write_garbage(&store, BOTS, "b1");
            for result in [
                store.bot("b1").await.map(|_| ()),
                store.bots().await.map(|_| ()),
            ] {
                match result {
                    Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "bots/b1"),
                    other => panic!("expected Corrupt naming the bot, got {other:?}"),
                }
            }
            // A bot filed under another name.
            let other = encode(&crate::conformance::sample_bot("b2")).expect("json");
            let txn = store.shared.db.begin_write().expect("write transaction");
            txn.open_table(BOTS)
                .expect("table")
                .insert("b3", other.as_slice())
                .expect("insert");
            txn.open_table(COMPETITION_RESULTS)
                .expect("table")
                .insert(("cup", "t-missing"), ())
                .expect("insert");
            txn.commit().expect("commit");
            match store.bot("b3").await {
                Err(StoreError::Corrupt { key, reason }) => {
                    assert_eq!(key, "bots/b3");
                    assert!(reason.contains("b2"), "{reason}");
                }
                other => panic!("expected Corrupt, got {other:?}"),
            }
            match store.results_for("cup").await {
                Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "results/t-missing"),
                other => panic!("expected Corrupt, got {other:?}"),
            }
        });
    }

    #[test]
    fn entry_ids_are_decimal_numbers() {
        assert_eq!(parse_entry_id("17").expect("id"), 17);
        for bad in ["", "+1", "-1", "1-0", " 1", "99999999999999999999999"] {
            assert!(
                matches!(parse_entry_id(bad), Err(StoreError::Invalid(_))),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_record_under_the_wrong_key_is_corrupt() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EmbeddedStore::open(dir.path()).expect("open");
        let other = crate::conformance::sample_record("p-x", "d-other", None);
        let txn = store.shared.db.begin_write().expect("write transaction");
        txn.open_table(DEALS)
            .expect("table")
            .insert(("p-x", "d-1"), encode(&other).expect("json").as_slice())
            .expect("insert");
        txn.commit().expect("commit");
        match runtime().block_on(store.deal("p-x", "d-1")) {
            Err(StoreError::Corrupt { key, reason }) => {
                assert_eq!(key, "deals/p-x/d-1");
                assert!(reason.contains("d-other"), "{reason}");
            }
            other => panic!("expected Corrupt, got {other:?}"),
        }
    }
}
