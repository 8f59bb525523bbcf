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
//!
//! The source key is `g{seed}-b{bombs or x}`. Keys sort component by component, so the deals of
//! one panel and the measured indices of one (panel, source) are each one contiguous range, the
//! indices in ascending order. A [`StoreError::Corrupt`] names an entry as `table/key`, e.g.
//! `deals/p-3f2a/g7-bx-12`, or names the file when the database itself is damaged.
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

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};

use crate::{
    DealRecord, DealSource, Panel, Store, StoreError, StoreResult, check_id, check_records,
    source_key,
};

/// The database file's name inside the data directory.
pub const FILE_NAME: &str = "arena.redb";

const PANELS: TableDefinition<&str, &[u8]> = TableDefinition::new("panels");
const DEALS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("deals");
const DEAL_COUNTS: TableDefinition<&str, u64> = TableDefinition::new("deal_counts");
const MEASURED: TableDefinition<(&str, &str, u64), ()> = TableDefinition::new("measured");
const USAGE: TableDefinition<&str, &str> = TableDefinition::new("deal_usage");

/// The databases this process has open, by file path, so that a second `open` of a directory
/// shares the first one's database instead of opening the file twice. An entry whose database
/// is gone stays (one per directory ever opened) to tell a closing handle from another process.
fn open_databases() -> &'static Mutex<HashMap<PathBuf, Weak<Database>>> {
    static OPEN: OnceLock<Mutex<HashMap<PathBuf, Weak<Database>>>> = OnceLock::new();
    OPEN.get_or_init(Default::default)
}

/// The embedded store. Cheap to clone: clones share the open database.
#[derive(Clone)]
pub struct EmbeddedStore {
    db: Arc<Database>,
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
    /// Opens the store under `dir`, creating the directory and the database file
    /// ([`FILE_NAME`]) if they do not exist yet.
    ///
    /// Fails with [`StoreError::Unavailable`] if the directory cannot be created or another
    /// process has it open, and with [`StoreError::Corrupt`] if the file is not a usable redb
    /// database. This call blocks on file I/O; call it before serving, or from a blocking task.
    pub fn open(dir: &Path) -> StoreResult<Self> {
        std::fs::create_dir_all(dir).map_err(|e| {
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
                Some(db) => match db.upgrade() {
                    Some(db) => {
                        return Ok(EmbeddedStore {
                            db,
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
                    return Err(StoreError::Unavailable(format!(
                        "data directory {} is in use by another arena process",
                        dir.display()
                    )));
                }
                Err(Other(e)) => return Err(e),
            };
            let db = Arc::new(db);
            open.insert(path.clone(), Arc::downgrade(&db));
            return Ok(EmbeddedStore {
                db,
                path: Arc::new(path),
            });
        }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` against the database off the async threads (see the module documentation).
    async fn run<T, F>(&self, f: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Database, &Path) -> StoreResult<T> + Send + 'static,
    {
        let db = self.db.clone();
        let path = self.path.clone();
        let job = move || guarded(&path, || f(&db, &path));
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

/// Opens (or creates) the database file and makes sure every table exists, so that reads of a
/// new store find empty tables.
fn create(path: &Path) -> Result<Database, OpenError> {
    let db = Database::create(path).map_err(|e| match e {
        redb::DatabaseError::DatabaseAlreadyOpen => InUse,
        e => Other(map_err(path, e)),
    })?;
    let txn = db.begin_write().map_err(|e| map_err(path, e))?;
    txn.open_table(PANELS).map_err(|e| map_err(path, e))?;
    txn.open_table(DEALS).map_err(|e| map_err(path, e))?;
    txn.open_table(DEAL_COUNTS).map_err(|e| map_err(path, e))?;
    txn.open_table(MEASURED).map_err(|e| map_err(path, e))?;
    txn.open_table(USAGE).map_err(|e| map_err(path, e))?;
    txn.commit().map_err(|e| map_err(path, e))?;
    Ok(db)
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

/// Maps a redb error: damage (including a file that is not a redb database) is
/// [`StoreError::Corrupt`], anything else (I/O, locks) [`StoreError::Unavailable`].
fn map_err(path: &Path, e: impl Into<redb::Error>) -> StoreError {
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

/// Reads a JSON value stored under `key`.
fn decode<T: serde::de::DeserializeOwned>(
    key: impl FnOnce() -> String,
    bytes: &[u8],
) -> StoreResult<T> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        key: key(),
        reason: e.to_string(),
    })
}

fn encode<T: serde::Serialize>(value: &T) -> StoreResult<Vec<u8>> {
    serde_json::to_vec(value)
        .map_err(|e| StoreError::Invalid(format!("cannot serialise value: {e}")))
}

fn deal_key(panel: &str, id: &str) -> String {
    format!("deals/{panel}/{id}")
}

/// Reads a deal record, checking that it is the one its key names.
fn decode_deal(panel: &str, id: &str, bytes: &[u8]) -> StoreResult<DealRecord> {
    let record: DealRecord = decode(|| deal_key(panel, id), bytes)?;
    if record.panel != panel || record.id != id {
        return Err(StoreError::Corrupt {
            key: deal_key(panel, id),
            reason: format!("holds deal {} of panel {} instead", record.id, record.panel),
        });
    }
    Ok(record)
}

/// A record ready to be written: its keys and its JSON.
struct Encoded {
    panel: String,
    id: String,
    measured: Option<(String, u64)>,
    json: Vec<u8>,
}

#[async_trait::async_trait]
impl Store for EmbeddedStore {
    fn describe(&self) -> String {
        format!("embedded ({})", self.path.display())
    }

    async fn put_panel(&self, panel: &Panel) -> StoreResult<()> {
        check_id("panel id", &panel.id)?;
        let id = panel.id.clone();
        let json = encode(panel)?;
        self.run(move |db, path| {
            let txn = db.begin_write().map_err(|e| map_err(path, e))?;
            txn.open_table(PANELS)
                .map_err(|e| map_err(path, e))?
                .insert(id.as_str(), json.as_slice())
                .map_err(|e| map_err(path, e))?;
            txn.commit().map_err(|e| map_err(path, e))
        })
        .await
    }

    async fn panel(&self, id: &str) -> StoreResult<Option<Panel>> {
        check_id("panel id", id)?;
        let id = id.to_string();
        self.run(move |db, path| {
            let txn = db.begin_read().map_err(|e| map_err(path, e))?;
            let table = txn.open_table(PANELS).map_err(|e| map_err(path, e))?;
            let Some(value) = table.get(id.as_str()).map_err(|e| map_err(path, e))? else {
                return Ok(None);
            };
            decode(|| format!("panels/{id}"), value.value()).map(Some)
        })
        .await
    }

    async fn panels(&self) -> StoreResult<Vec<Panel>> {
        self.run(|db, path| {
            let txn = db.begin_read().map_err(|e| map_err(path, e))?;
            let table = txn.open_table(PANELS).map_err(|e| map_err(path, e))?;
            let mut panels = Vec::new();
            for entry in table.iter().map_err(|e| map_err(path, e))? {
                let (key, value) = entry.map_err(|e| map_err(path, e))?;
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
        self.run(move |db, path| {
            let err = |e: redb::Error| map_err(path, e);
            let txn = db.begin_write().map_err(|e| err(e.into()))?;
            let mut new = 0;
            {
                let mut deals = txn.open_table(DEALS).map_err(|e| err(e.into()))?;
                let mut measured = txn.open_table(MEASURED).map_err(|e| err(e.into()))?;
                let mut counts = txn.open_table(DEAL_COUNTS).map_err(|e| err(e.into()))?;
                let mut added: BTreeMap<&str, u64> = BTreeMap::new();
                for r in &batch {
                    let key = (r.panel.as_str(), r.id.as_str());
                    if deals.get(key).map_err(|e| err(e.into()))?.is_some() {
                        continue;
                    }
                    deals
                        .insert(key, r.json.as_slice())
                        .map_err(|e| err(e.into()))?;
                    if let Some((source, index)) = &r.measured {
                        measured
                            .insert((r.panel.as_str(), source.as_str(), *index), ())
                            .map_err(|e| err(e.into()))?;
                    }
                    *added.entry(&r.panel).or_default() += 1;
                    new += 1;
                }
                for (panel, n) in added {
                    let before = counts
                        .get(panel)
                        .map_err(|e| err(e.into()))?
                        .map_or(0, |v| v.value());
                    counts
                        .insert(panel, before + n)
                        .map_err(|e| err(e.into()))?;
                }
            }
            txn.commit().map_err(|e| err(e.into()))?;
            Ok(new)
        })
        .await
    }

    async fn deal(&self, panel: &str, id: &str) -> StoreResult<Option<DealRecord>> {
        check_id("panel id", panel)?;
        check_id("deal id", id)?;
        let (panel, id) = (panel.to_string(), id.to_string());
        self.run(move |db, path| {
            let txn = db.begin_read().map_err(|e| map_err(path, e))?;
            let table = txn.open_table(DEALS).map_err(|e| map_err(path, e))?;
            let value = table
                .get((panel.as_str(), id.as_str()))
                .map_err(|e| map_err(path, e))?;
            value
                .map(|v| decode_deal(&panel, &id, v.value()))
                .transpose()
        })
        .await
    }

    async fn deals(&self, panel: &str) -> StoreResult<Vec<DealRecord>> {
        check_id("panel id", panel)?;
        let panel = panel.to_string();
        self.run(move |db, path| {
            let txn = db.begin_read().map_err(|e| map_err(path, e))?;
            let table = txn.open_table(DEALS).map_err(|e| map_err(path, e))?;
            let mut records = Vec::new();
            let range = table
                .range((panel.as_str(), "")..)
                .map_err(|e| map_err(path, e))?;
            for entry in range {
                let (key, value) = entry.map_err(|e| map_err(path, e))?;
                let (key_panel, id) = key.value();
                if key_panel != panel {
                    break;
                }
                records.push(decode_deal(&panel, id, value.value())?);
            }
            Ok(records)
        })
        .await
    }

    async fn deal_count(&self, panel: &str) -> StoreResult<u64> {
        check_id("panel id", panel)?;
        let panel = panel.to_string();
        self.run(move |db, path| {
            let txn = db.begin_read().map_err(|e| map_err(path, e))?;
            let table = txn.open_table(DEAL_COUNTS).map_err(|e| map_err(path, e))?;
            let count = table
                .get(panel.as_str())
                .map_err(|e| map_err(path, e))?
                .map_or(0, |v| v.value());
            Ok(count)
        })
        .await
    }

    async fn measured_indices(&self, panel: &str, source: &DealSource) -> StoreResult<Vec<u64>> {
        check_id("panel id", panel)?;
        let panel = panel.to_string();
        let source = source_key(source);
        self.run(move |db, path| {
            let txn = db.begin_read().map_err(|e| map_err(path, e))?;
            let table = txn.open_table(MEASURED).map_err(|e| map_err(path, e))?;
            let (p, s) = (panel.as_str(), source.as_str());
            let range = table
                .range((p, s, 0)..=(p, s, u64::MAX))
                .map_err(|e| map_err(path, e))?;
            range
                .map(|entry| {
                    let (key, _) = entry.map_err(|e| map_err(path, e))?;
                    Ok(key.value().2)
                })
                .collect()
        })
        .await
    }

    async fn claim_deals(&self, competition: &str, deal_ids: &[String]) -> StoreResult<Vec<bool>> {
        check_id("competition", competition)?;
        for id in deal_ids {
            check_id("deal id", id)?;
        }
        if deal_ids.is_empty() {
            return Ok(Vec::new());
        }
        let competition = competition.to_string();
        let ids = deal_ids.to_vec();
        self.run(move |db, path| {
            let txn = db.begin_write().map_err(|e| map_err(path, e))?;
            let mut held = Vec::with_capacity(ids.len());
            {
                let mut usage = txn.open_table(USAGE).map_err(|e| map_err(path, e))?;
                for id in &ids {
                    let holder = usage
                        .get(id.as_str())
                        .map_err(|e| map_err(path, e))?
                        .map(|v| v.value().to_string());
                    match holder {
                        Some(holder) => held.push(holder == competition),
                        None => {
                            usage
                                .insert(id.as_str(), competition.as_str())
                                .map_err(|e| map_err(path, e))?;
                            held.push(true);
                        }
                    }
                }
            }
            txn.commit().map_err(|e| map_err(path, e))?;
            Ok(held)
        })
        .await
    }

    async fn used_deals(&self) -> StoreResult<BTreeMap<String, String>> {
        self.run(|db, path| {
            let txn = db.begin_read().map_err(|e| map_err(path, e))?;
            let table = txn.open_table(USAGE).map_err(|e| map_err(path, e))?;
            let mut used = BTreeMap::new();
            for entry in table.iter().map_err(|e| map_err(path, e))? {
                let (key, value) = entry.map_err(|e| map_err(path, e))?;
                used.insert(key.value().to_string(), value.value().to_string());
            }
            Ok(used)
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
        let txn = store.db.begin_write().expect("write transaction");
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
    fn a_record_under_the_wrong_key_is_corrupt() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EmbeddedStore::open(dir.path()).expect("open");
        let other = crate::conformance::sample_record("p-x", "d-other", None);
        let txn = store.db.begin_write().expect("write transaction");
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
