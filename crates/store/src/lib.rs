//! arena's shared state behind one interface, [`Store`], with two implementations: an embedded
//! store persisted under a data directory (for one machine: `arena standalone` and the
//! competition commands) and Redis (for the services on Kubernetes). One conformance suite runs
//! against both.
//!
//! The store keeps data, not logic: queries such as "k deals within ε of a centre" run in the
//! deal library over an in-memory index built from [`Deals::deals`].
//!
//! - [`EmbeddedStore`] (module [`embedded`]): one redb file, `arena.redb`, under a data directory.
//! - [`RedisStore`] (module [`redis`]): Redis through a reconnecting connection, every key under
//!   a configurable prefix; the keys are documented in `docs/redis-keys.md`.
//! - [`conformance`]: the contract of [`Store`] as executable checks, run against both.
//!
//! # Identifiers and records
//!
//! Panel ids, deal ids and competition names must be non-empty and free of control characters,
//! and a [`DealRecord`] must be self-consistent (`counts` as long as `levels`, one `gdi` value per
//! level above the lowest, every `gdi` value finite); anything else is rejected with
//! [`StoreError::Invalid`] before anything is written.
//!
//! The same holds for the names the other half of the interface takes: table ids, consumer
//! (referee) names, competition names, bot names and hosts. Beyond that:
//!
//! - An entry id must be one the queue handed out ([`Jobs::enqueue_job`], [`JobEntry`]); a
//!   string that cannot be one is [`StoreError::Invalid`]. A well-formed id of a job that is gone
//!   is harmless to [`Jobs::ack_job`] and [`StoreError::Invalid`] to [`Jobs::touch_job`].
//! - `reclaim_after` must be positive: with zero, every job would be taken from its referee by
//!   the next caller. Durations count in whole milliseconds, rounded up.
//! - A presence `ttl` must be positive and at most [`MAX_PRESENCE_TTL`]: presence is kept alive by
//!   refreshing it, so a host that dies is forgotten soon.
//! - A [`BotRecord`] needs a valid name, a `token_sha256` (when given) of 64 hex digits, and a
//!   non-blank command for a program bot.
//!
//! # Table jobs
//!
//! The job queue has consumer-group semantics: every job is delivered to one consumer at a time,
//! stays *pending* until acknowledged, and is handed to another consumer once its holder has been
//! idle (neither acknowledged nor touched it) for the caller's `reclaim_after`. Delivery is
//! therefore *at least once*: a referee that was merely slow may find its job reclaimed, and both
//! may play it. Exactly-once is where results are written: [`Results::put_result`] keeps the first.

use std::collections::BTreeMap;
use std::time::Duration;

mod args;
pub mod bot_games;
#[cfg(any(test, feature = "conformance"))]
pub mod conformance;
pub mod embedded;
mod game;
pub mod instance;
pub mod redis;
mod schema;
pub mod visibility;
pub mod watch;

pub use self::embedded::EmbeddedStore;
pub use self::game::{Game, MAX_GAME_NAME};
pub use self::redis::RedisStore;
pub use self::schema::SCHEMA_VERSION;
pub use self::watch::{Topic, Watcher};

/// Every sub-trait of [`Store`], for code that calls store methods on a concrete store
/// ([`EmbeddedStore`], [`RedisStore`]) rather than through `dyn Store`: `use
/// arena_store::prelude::*;`.
pub mod prelude {
    pub use crate::{Backend, Bots, Deals, Jobs, Records, Results, Store, Watch};
}

/// What can go wrong talking to a store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The backend cannot be reached or refused the operation (I/O, connection, Redis down).
    /// Nothing was written by the failed call, with one exception: when the connection to a
    /// remote store dies after a write was sent, the write may have happened. Repeating the call
    /// is always safe: most writes are idempotent; a repeated [`Jobs::enqueue_job`] may enqueue
    /// the job twice, which plays the table twice but keeps one result
    /// ([`Results::put_result`]); a [`Jobs::next_job`] whose answer was lost leaves its job
    /// pending, to be reclaimed after `reclaim_after`.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// Stored data could not be read back (a bug or a damaged file); names the key.
    #[error("corrupt store entry {key}: {reason}")]
    Corrupt {
        /// The key that failed.
        key: String,
        /// What was wrong with it.
        reason: String,
    },
    /// The caller asked for something the store cannot do (e.g. an empty panel id).
    #[error("invalid request: {0}")]
    Invalid(String),
    /// The store is not the one this handle opened ([`Records::open_instance`]): its instance
    /// record vanished or changed (Redis restarted without persistence, was flushed, or failed
    /// over to an empty replica). Nothing was written; nothing will be until the store is whole
    /// again (its data restored) or the role is restarted on the new store.
    #[error("store data lost: {0}")]
    DataLoss(String),
    /// Another process holds the embedded store (its directory): a running `arena standalone`,
    /// or another command. Nothing was opened.
    #[error("store in use: {0}")]
    InUse(String),
}

/// Result of a store call.
pub type StoreResult<T> = Result<T, StoreError>;

/// Where generated deals come from: deal `index` of this source is the game's deal generator
/// run with `seed` at `index` under the constraint `bombs` (for Dou Dizhu,
/// `Deal::generate_with(seed, index, &DealConstraint { bombs })`). The store only keys measured
/// indices by it.
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct DealSource {
    /// The deal stream's seed.
    pub seed: u64,
    /// The generator's constraint, if any (Dou Dizhu: exactly this many bombs, rocket included).
    pub bombs: Option<u8>,
}

impl DealSource {
    /// The id of deal `index` of this source: `g{seed}-b{bombs or x}-{index}`.
    pub fn deal_id(&self, index: u64) -> String {
        match self.bombs {
            Some(b) => format!("g{}-b{}-{}", self.seed, b, index),
            None => format!("g{}-bx-{}", self.seed, index),
        }
    }
}

/// A measuring panel, game-neutral: a game, the bots of each seat, and the name of the scoring
/// mode whose scores are the levels. Every measured deal is played at [`Panel::tables`] tables;
/// at table `t`, seat `s` is played by `seats[s][t]`, or by `seats[s][0]` when the seat has one
/// bot for every table. Typed views (Dou Dizhu's landlords, farmers and `ddz::Scoring`) live in
/// the crates that know the game (`arena_deals::DdzPanel`).
///
/// Stored as JSON with a schema version (see `docs/redis-keys.md`); panels written before
/// version 2 (Dou Dizhu's `landlords`, `down`, `up`) read back as this.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "schema::PanelStored", into = "schema::PanelCurrent")]
pub struct Panel {
    /// Stable id derived from the rest by the deal library (e.g. `p-3f2a…`).
    pub id: String,
    /// The game.
    pub game: Game,
    /// Per seat, in the game's seat order: one bot name per table, or one for every table.
    pub seats: Vec<Vec<String>>,
    /// The scoring mode's name as the game spells it (e.g. `difficulty`).
    pub scoring: String,
}

impl Panel {
    /// How many tables measure each deal: the most bots any seat lists.
    pub fn tables(&self) -> usize {
        self.seats.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// The bot of `seat` at `table` (`None` past the panel's seats or tables).
    pub fn bot(&self, seat: usize, table: usize) -> Option<&str> {
        let bots = self.seats.get(seat)?;
        match bots.as_slice() {
            [one] if table < self.tables() => Some(one),
            bots => bots.get(table).map(String::as_str),
        }
    }
}

/// A deal and its measured difficulty under one panel.
///
/// Stored as JSON with a schema version (see `docs/redis-keys.md`); records written before
/// version 2 (no game tag: Dou Dizhu) read back as this.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(
    try_from = "schema::DealRecordStored",
    into = "schema::DealRecordCurrent"
)]
pub struct DealRecord {
    /// Unique within a panel: [`DealSource::deal_id`] for generated deals, `i-<hash>` for imports.
    pub id: String,
    /// The game the deal is of.
    pub game: Game,
    /// The deal in the game's own text form (Dou Dizhu: `ddz::Deal`'s, seat 0 the landlord).
    pub deal: String,
    /// The source and index it was generated from, if generated.
    pub source: Option<(DealSource, u64)>,
    /// The panel that measured it.
    pub panel: String,
    /// The possible landlord scores, low to high (s1 < … < sk).
    pub levels: Vec<i64>,
    /// How many tables ended at each level (same length as `levels`).
    pub counts: Vec<u32>,
    /// The grade-difficulty index: g_j = tables at level j+1 or higher / tables (k − 1 values).
    pub gdi: Vec<f64>,
}

/// arena's storage interface: every concern's sub-trait at once, so a role holds one
/// `Arc<dyn Store>`. Every method is atomic: it either happens completely or not at all, and a
/// failed call (e.g. [`StoreError::Unavailable`]) loses nothing already stored. Implement the
/// sub-traits; `Store` comes with them.
pub trait Store: Backend + Deals + Jobs + Results + Bots + Records + Watch {}

impl<T: Backend + Deals + Jobs + Results + Bots + Records + Watch + ?Sized> Store for T {}

/// What a store is, for logs.
#[async_trait::async_trait]
pub trait Backend: Send + Sync {
    /// A short description for logs, e.g. `embedded (/data/arena.redb)` or `redis (127.0.0.1:6379, prefix arena)`.
    fn describe(&self) -> String;
}

/// The deal library's data: panels, measured deals, the indices of a source already measured,
/// and which competition holds which deal.
#[async_trait::async_trait]
pub trait Deals: Send + Sync {
    /// Stores a panel definition (replacing one with the same id).
    async fn put_panel(&self, panel: &Panel) -> StoreResult<()>;

    /// The panel with this id.
    async fn panel(&self, id: &str) -> StoreResult<Option<Panel>>;

    /// Every stored panel, by id.
    async fn panels(&self) -> StoreResult<Vec<Panel>>;

    /// Stores measured deals. A record whose (panel, id) is already stored is left untouched, so a
    /// batch can be written again after a crash without double counting. Records with a source
    /// also mark (panel, source, index) as measured. Returns how many records were new.
    async fn put_deals(&self, records: &[DealRecord]) -> StoreResult<usize>;

    /// One measured deal.
    async fn deal(&self, panel: &str, id: &str) -> StoreResult<Option<DealRecord>>;

    /// Every deal measured by `panel` (any order).
    async fn deals(&self, panel: &str) -> StoreResult<Vec<DealRecord>>;

    /// How many deals `panel` has measured.
    async fn deal_count(&self, panel: &str) -> StoreResult<u64>;

    /// The indices of `source` already measured by `panel`, ascending: what a resumed
    /// measurement skips.
    async fn measured_indices(&self, panel: &str, source: &DealSource) -> StoreResult<Vec<u64>>;

    /// Atomically claims deals for `competition`: each deal id not yet used by any competition
    /// becomes used by this one. Returns, per id, whether this competition now holds it (true
    /// also when it already held it; false when another competition does).
    async fn claim_deals(&self, competition: &str, deal_ids: &[String]) -> StoreResult<Vec<bool>>;

    /// Every used deal id and the competition that used it.
    async fn used_deals(&self) -> StoreResult<BTreeMap<String, String>>;
}

/// Table jobs: a queue with consumer-group semantics (a Redis Stream in Redis). Finishing a job
/// writes its result, so the queue sits on [`Results`].
#[async_trait::async_trait]
pub trait Jobs: Results + Send + Sync {
    /// This store with its table jobs on `lane`'s stream ([`check_lane`]; `""` is the default
    /// lane, the one stream there was before lanes). A lane is a cluster's partition of the
    /// job stream by kind of table (short time controls apart from long ones, say): referees
    /// started on a lane take, touch, hand back and finish only its jobs, so its tables play
    /// on referees of their own. Every other method of the view is this store's. The embedded
    /// store, which one process holds, keeps every lane in its one stream.
    fn lane(&self, lane: &str) -> StoreResult<std::sync::Arc<dyn Store>>;

    /// Appends a table job (an encoded `arena.v1.TableJob`) for `table_id`; returns its entry id.
    /// Enqueueing the same table id twice enqueues it twice: exactly-once is enforced where
    /// results are written ([`Results::put_result`]).
    async fn enqueue_job(&self, table_id: &str, payload: &[u8]) -> StoreResult<String>;

    /// The next job for `consumer` (a referee instance). Jobs delivered to some consumer that has
    /// not acknowledged or touched them for `reclaim_after` come first (their referee died): they
    /// are handed to `consumer` with `deliveries` incremented. Otherwise the oldest never-delivered
    /// job. Waits up to `block` for one to appear; `None` if none did.
    async fn next_job(
        &self,
        consumer: &str,
        reclaim_after: Duration,
        block: Duration,
    ) -> StoreResult<Option<JobEntry>>;

    /// Marks a job done; it is never delivered again. Acknowledging twice is harmless.
    async fn ack_job(&self, entry_id: &str) -> StoreResult<()>;

    /// Tells the queue `consumer` is still working on the job (resets its idle time), so a long
    /// table is not reclaimed from a live referee. Fails with [`StoreError::Invalid`] if the job
    /// is no longer held by `consumer` (it was reclaimed).
    async fn touch_job(&self, consumer: &str, entry_id: &str) -> StoreResult<()>;

    /// Jobs never delivered, and jobs delivered but not acknowledged.
    async fn job_counts(&self) -> StoreResult<JobCounts>;

    /// The jobs delivered to `consumer` and not acknowledged (at most `max`), handed to it again
    /// at once with `deliveries` incremented: what a restarted referee with a stable name
    /// resumes instead of waiting for `reclaim_after`. Only for a consumer name no other live
    /// referee uses.
    async fn resume_jobs(&self, consumer: &str, max: usize) -> StoreResult<Vec<JobEntry>>;

    /// Up to `max` jobs for `consumer` at once, as [`Jobs::next_job`] takes one: reclaimable
    /// jobs first, then never-delivered ones, oldest first. Waits up to `block` only while there
    /// is none; returns as soon as there is at least one (empty if none appeared). `max` of zero
    /// takes nothing and does not wait.
    async fn next_jobs(
        &self,
        consumer: &str,
        max: usize,
        reclaim_after: Duration,
        block: Duration,
    ) -> StoreResult<Vec<JobEntry>> {
        if max == 0 {
            args::next_job(consumer, reclaim_after)?;
            return Ok(Vec::new());
        }
        Ok(self
            .next_job(consumer, reclaim_after, block)
            .await?
            .into_iter()
            .collect())
    }

    /// Finishes several jobs at once: per job, what [`Results::put_result`] does (the result and
    /// replay stored only if the table has none, and listed under its competition), then every
    /// job acknowledged as [`Jobs::ack_job`] does. Returns, per job, whether its result was
    /// written by this call. Nothing is acknowledged unless every result is stored: a failed
    /// call may have stored some results (repeating it is safe: results are kept once) but has
    /// acknowledged no job whose result is not stored. Arguments are checked before anything is
    /// written: a bad one is [`StoreError::Invalid`] naming it, and nothing changes.
    async fn finish_jobs(&self, jobs: &[FinishedJob<'_>]) -> StoreResult<Vec<bool>> {
        for job in jobs {
            args::result(job.table_id, job.competition)?;
        }
        let mut written = Vec::with_capacity(jobs.len());
        for job in jobs {
            written.push(
                self.put_result(job.table_id, job.competition, job.result, job.replay)
                    .await?,
            );
        }
        for job in jobs {
            self.ack_job(job.entry_id).await?;
        }
        Ok(written)
    }

    /// Appends several table jobs, in order, as [`Jobs::enqueue_job`] appends one: their entry
    /// ids, in the same order. Table ids are checked before anything is enqueued.
    async fn enqueue_jobs(&self, jobs: &[(&str, &[u8])]) -> StoreResult<Vec<String>> {
        for (table, _) in jobs {
            args::table(table)?;
        }
        let mut ids = Vec::with_capacity(jobs.len());
        for (table, payload) in jobs {
            ids.push(self.enqueue_job(table, payload).await?);
        }
        Ok(ids)
    }
}

/// Results and replays: written once per table id.
#[async_trait::async_trait]
pub trait Results: Send + Sync {
    /// Stores a table's result and replay (encoded `arena.v1.TableResult` and `arena.v1.Replay`)
    /// together, only if no result exists for `table_id`: returns true if this call wrote them,
    /// false if a result was already there (then nothing changes). When `competition` is given
    /// the table is also listed under it; the table id must then be under the competition
    /// ([`competition_of`] is the competition), else [`StoreError::Invalid`] and nothing is
    /// written.
    async fn put_result(
        &self,
        table_id: &str,
        competition: Option<&str>,
        result: &[u8],
        replay: &[u8],
    ) -> StoreResult<bool>;

    /// A table's encoded result.
    async fn result(&self, table_id: &str) -> StoreResult<Option<Vec<u8>>>;

    /// A table's encoded replay.
    async fn replay(&self, table_id: &str) -> StoreResult<Option<Vec<u8>>>;

    /// Every result listed under `competition`: (table id, encoded result), any order.
    async fn results_for(&self, competition: &str) -> StoreResult<Vec<(String, Vec<u8>)>>;

    /// Deletes the results and replays of `table_ids`, and their listing under `competition`
    /// when given (then every table must be under it, as for [`Results::put_result`]): returns how
    /// many results there were. Each table's result, replay and listing go together. For
    /// retention only: a deleted table is no longer written once, and a job of it still queued
    /// would write it again.
    async fn delete_results(
        &self,
        competition: Option<&str>,
        table_ids: &[String],
    ) -> StoreResult<u64>;

    /// How many results are listed under `competition`: `results_for(competition).len()`
    /// without reading them.
    async fn result_count(&self, competition: &str) -> StoreResult<u64> {
        Ok(self.results_for(competition).await?.len() as u64)
    }
}

/// Registered bots, their tokens, and their presence: which bot-host holds which bot, expiring
/// unless refreshed.
#[async_trait::async_trait]
pub trait Bots: Send + Sync {
    /// Registers a bot; false (and nothing changes) if the name is taken.
    async fn add_bot(&self, bot: &BotRecord) -> StoreResult<bool>;

    /// Replaces a registered bot's record (e.g. a rotated token hash); false if it is unknown.
    async fn update_bot(&self, bot: &BotRecord) -> StoreResult<bool>;

    /// A registered bot.
    async fn bot(&self, name: &str) -> StoreResult<Option<BotRecord>>;

    /// Every registered bot, by name.
    async fn bots(&self) -> StoreResult<Vec<BotRecord>>;

    /// Records that `host` (a bot-host's address) holds `bot` for the next `ttl`.
    async fn set_presence(&self, bot: &str, host: &str, ttl: Duration) -> StoreResult<()>;

    /// Removes a presence record at once (the bot disconnected cleanly).
    async fn clear_presence(&self, bot: &str, host: &str) -> StoreResult<()>;

    /// The hosts currently holding `bot` (unexpired records only).
    async fn presence(&self, bot: &str) -> StoreResult<Vec<String>>;

    /// Unregisters a bot and drops its presence; true if it was registered.
    async fn remove_bot(&self, name: &str) -> StoreResult<bool>;

    /// Records that `host` holds `bot` for the next `ttl`, only if no *other* host holds it
    /// (an unexpired presence record): `None` if `host` holds it now, else the host that does.
    /// One live connection per bot across every bot-host rests on it.
    async fn claim_presence(
        &self,
        bot: &str,
        host: &str,
        ttl: Duration,
    ) -> StoreResult<Option<String>>;
}

/// Records: small pieces of service state (a competition's definition and progress), and the
/// instance record by which a handle detects that the store lost its data.
#[async_trait::async_trait]
pub trait Records: Send + Sync {
    /// Stores `value` under (`kind`, `key`), replacing any previous value.
    async fn put_record(&self, kind: &str, key: &str, value: &[u8]) -> StoreResult<()>;

    /// Replaces the value under (`kind`, `key`) only if it is currently `expected` (`None`: no
    /// value yet); true if it did. Transitions that must happen once (a competition finishing)
    /// use it, so two instances racing to make one never both succeed.
    async fn swap_record(
        &self,
        kind: &str,
        key: &str,
        expected: Option<&[u8]>,
        value: &[u8],
    ) -> StoreResult<bool>;

    /// The value under (`kind`, `key`).
    async fn record(&self, kind: &str, key: &str) -> StoreResult<Option<Vec<u8>>>;

    /// Every (key, value) of `kind`, ordered by key.
    async fn records(&self, kind: &str) -> StoreResult<Vec<(String, Vec<u8>)>>;

    /// Removes the value under (`kind`, `key`); true if there was one.
    async fn delete_record(&self, kind: &str, key: &str) -> StoreResult<bool>;

    /// The id of this store's instance record, made (with a fresh random id) if the store has
    /// none. From then on this handle's writes of results, jobs, records, claims, deals and
    /// panels are fenced to that id: a backend that can lose data under a live handle (Redis)
    /// refuses them with [`StoreError::DataLoss`] once the record vanishes or changes.
    async fn open_instance(&self) -> StoreResult<String> {
        loop {
            if let Some(id) = self.record(INSTANCE_KIND, INSTANCE_KEY).await? {
                return String::from_utf8(id).map_err(|_| StoreError::Corrupt {
                    key: format!("{INSTANCE_KIND}/{INSTANCE_KEY}"),
                    reason: "not UTF-8".into(),
                });
            }
            let id = new_instance_id();
            if self
                .swap_record(INSTANCE_KIND, INSTANCE_KEY, None, id.as_bytes())
                .await?
            {
                return Ok(id);
            }
        }
    }

    /// Checks that the instance record still holds `expected` (from [`Records::open_instance`]):
    /// [`StoreError::DataLoss`] naming what was found if not.
    async fn check_instance(&self, expected: &str) -> StoreResult<()> {
        match self.record(INSTANCE_KIND, INSTANCE_KEY).await? {
            Some(id) if id == expected.as_bytes() => Ok(()),
            Some(id) => Err(StoreError::DataLoss(format!(
                "the store's instance record is {:?}, not {expected:?}: it was replaced (its data is not the data this role started on)",
                String::from_utf8_lossy(&id)
            ))),
            None => Err(StoreError::DataLoss(format!(
                "the store's instance record {expected:?} is gone: the store lost its data (a restart without persistence, a flush or a failover)"
            ))),
        }
    }
}

/// Waiting for changes instead of rescanning: a reader makes a [`Watcher`] of what it follows
/// (a competition's results, a kind of records, a panel's deals, who is connected), reads,
/// and waits on [`Watcher::changed`] until the next write of it. Writes signal their topics as
/// part of the write (in Redis, a `PUBLISH` in the same script), so a watcher made before a
/// read never misses a change after it.
pub trait Watch: Send + Sync {
    /// A watcher of `topic`. A topic's name is checked as an identifier
    /// ([`StoreError::Invalid`] if empty, with a control character, or longer than
    /// [`watch::MAX_TOPIC_BYTES`]). Where changes arrive over a connection (Redis), a lost
    /// connection wakes every watcher once it is lost and again once it is back, so none
    /// waits on a change it cannot hear of.
    fn watch(&self, topic: &Topic) -> StoreResult<Watcher>;
}

/// The competition part of a table id: everything before its first `/` (the matchmaker's
/// `cup/m0/r0/t0` is `cup`'s, the ladder's `ladder/p3/a` the `ladder`'s), or the whole id if it has
/// none. A table listed under a competition is always that competition's part
/// ([`Results::put_result`] refuses others), so its result is found, and in Redis kept in its
/// competition's hash slot, from the table id alone.
///
/// ```
/// assert_eq!(arena_store::competition_of("cup/m0/r1/t2/f"), "cup");
/// assert_eq!(arena_store::competition_of("solo"), "solo");
/// ```
pub fn competition_of(table_id: &str) -> &str {
    table_id.split('/').next().unwrap_or(table_id)
}

/// Record kind of the instance record (one record, key [`INSTANCE_KEY`]).
pub const INSTANCE_KIND: &str = "arena-instance";
/// Key of the instance record.
pub const INSTANCE_KEY: &str = "id";

/// A fresh instance id: the time and 64 random bits, e.g. `i-18c2f…-9a3e…`.
pub(crate) fn new_instance_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let mut bytes = [0u8; 8];
    // Uniqueness, not secrecy: the clock alone would do on one machine.
    let _ = getrandom::fill(&mut bytes);
    format!("i-{nanos:x}-{:016x}", u64::from_le_bytes(bytes))
}

/// A job taken from the queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobEntry {
    /// The queue's id for this entry (a Redis Stream id in Redis); acknowledge with it.
    pub entry_id: String,
    /// The table the job is for.
    pub table_id: String,
    /// The encoded job.
    pub payload: Vec<u8>,
    /// How many times it has been delivered, this delivery included (> 1 after a reclaim).
    pub deliveries: u64,
}

/// A job done, for [`Jobs::finish_jobs`]: its entry, and the table's result and replay.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FinishedJob<'a> {
    /// The entry id the queue handed the job out under.
    pub entry_id: &'a str,
    /// The table the job is for.
    pub table_id: &'a str,
    /// The competition to list the table under, if any.
    pub competition: Option<&'a str>,
    /// The encoded `arena.v1.TableResult`.
    pub result: &'a [u8],
    /// The encoded `arena.v1.Replay`.
    pub replay: &'a [u8],
}

/// Sizes of the job queue.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct JobCounts {
    /// Never delivered.
    pub waiting: u64,
    /// Delivered, not yet acknowledged.
    pub pending: u64,
}

/// How a registered bot is run.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BotKind {
    /// Connects to bot-host over gRPC with its token.
    Remote,
    /// A program bot-host starts as a child process speaking a line protocol: its game's
    /// (`docs/ddz-line-protocol.md`, `docs/mahjong-line-protocol.md`).
    Program {
        /// The game it plays (a program speaks one game's protocol); Dou Dizhu in records
        /// written before it was kept.
        #[serde(default)]
        game: Game,
        /// The command line (`python3 bot.py --fast`).
        command: String,
        /// Its working directory (bot-host makes a fresh one per process when unset).
        workdir: Option<String>,
        /// CPU-time limit per process, in seconds (0 = none).
        cpu_seconds: u32,
        /// Memory limit per process, in MiB (0 = none).
        memory_mb: u32,
    },
}

/// A registered bot.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BotRecord {
    /// Unique name; remote bots present it in their Hello.
    pub name: String,
    /// How it runs.
    pub kind: BotKind,
    /// SHA-256 of its token, hex (remote bots); the token itself is never stored.
    pub token_sha256: Option<String>,
    /// Most tables it may play at once (0 = no limit).
    pub max_tables: u32,
    /// Registration time, Unix milliseconds.
    pub created_unix_ms: u64,
    /// The bot's own time for one decision, in milliseconds (0 = none: the table's clock),
    /// which a table leaving its decision limit to the default gives the bot's seats (records
    /// written before it was kept have none).
    #[serde(default)]
    pub decision_ms: u32,
    /// Its own time for a seat's second and later decisions, where they differ from the first
    /// (a Botzone keep-running bot's later turns), in milliseconds (0 = `decision_ms`).
    #[serde(default)]
    pub later_decision_ms: u32,
}

/// The storage name of a deal source, `g{seed}-b{bombs or x}`: [`DealSource::deal_id`] without
/// the index. Both backends key measured indices by it.
pub(crate) fn source_key(source: &DealSource) -> String {
    match source.bombs {
        Some(b) => format!("g{}-b{}", source.seed, b),
        None => format!("g{}-bx", source.seed),
    }
}

/// The longest lane name [`check_lane`] accepts.
pub const MAX_LANE_LEN: usize = 32;

/// Checks a job lane's name ([`Jobs::lane`]): empty (the default lane), or at most
/// [`MAX_LANE_LEN`] lower-case letters, digits and dashes, starting with a letter or digit, and
/// not `default` (what metrics call the default lane). The error names the lane and what is
/// wrong with it.
pub fn check_lane(lane: &str) -> StoreResult<()> {
    let invalid = |why: &str| Err(StoreError::Invalid(format!("lane {lane:?}: {why}")));
    if lane.len() > MAX_LANE_LEN {
        return invalid(&format!("longer than {MAX_LANE_LEN} characters"));
    }
    if !lane
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return invalid("only lower-case letters, digits and dashes");
    }
    if lane.starts_with('-') {
        return invalid("starts with a dash");
    }
    if lane == "default" {
        // Metrics and the chart name the default lane so.
        return invalid("the default lane's name: leave the lane empty for it");
    }
    Ok(())
}

/// Checks an identifier (`what` names it in the error): non-empty, no control characters.
pub(crate) fn check_id(what: &str, id: &str) -> StoreResult<()> {
    if id.is_empty() {
        return Err(StoreError::Invalid(format!("{what} is empty")));
    }
    if id.chars().any(char::is_control) {
        return Err(StoreError::Invalid(format!(
            "{what} {id:?} contains a control character"
        )));
    }
    Ok(())
}

/// Checks a panel before it is stored: a valid id, at least one seat, every seat with one bot
/// or one per table, every bot name a valid id.
pub(crate) fn check_panel(panel: &Panel) -> StoreResult<()> {
    check_id("panel id", &panel.id)?;
    let invalid =
        |reason: String| Err(StoreError::Invalid(format!("panel {}: {reason}", panel.id)));
    let tables = panel.tables();
    if tables == 0 {
        return invalid("no seats or no bots".into());
    }
    for (seat, bots) in panel.seats.iter().enumerate() {
        if bots.len() != 1 && bots.len() != tables {
            return invalid(format!(
                "seat {seat} lists {} bots for {tables} tables (one, or one per table)",
                bots.len()
            ));
        }
        for bot in bots {
            check_id("panel bot name", bot)?;
        }
    }
    check_id("panel scoring", &panel.scoring)
}

/// Checks a record before it is stored, so that what is written can always be read back.
pub(crate) fn check_record(record: &DealRecord) -> StoreResult<()> {
    check_id("panel id", &record.panel)?;
    check_id("deal id", &record.id)?;
    check_id("deal", &record.deal)?;
    let invalid = |reason: String| {
        Err(StoreError::Invalid(format!(
            "deal {} of panel {}: {reason}",
            record.id, record.panel
        )))
    };
    if record.counts.len() != record.levels.len() {
        return invalid(format!(
            "{} counts for {} levels",
            record.counts.len(),
            record.levels.len()
        ));
    }
    if record.gdi.len() != record.levels.len().saturating_sub(1) {
        return invalid(format!(
            "{} gdi values for {} levels (expected one fewer)",
            record.gdi.len(),
            record.levels.len()
        ));
    }
    if let Some(g) = record.gdi.iter().find(|g| !g.is_finite()) {
        return invalid(format!("gdi value {g} is not a finite number"));
    }
    Ok(())
}

/// The longest presence a single [`Bots::set_presence`] may grant. bot-host refreshes presence
/// every few seconds; a day is far beyond any sensible TTL, and a bound keeps a mistaken one
/// from pinning a dead host for ever.
pub const MAX_PRESENCE_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// A duration in whole milliseconds, rounded up (so 0.5 ms is 1 ms, never 0), saturating.
pub(crate) fn millis_ceil(d: Duration) -> u64 {
    let ms = d.as_nanos().div_ceil(1_000_000);
    u64::try_from(ms).unwrap_or(u64::MAX)
}

/// Checks a `reclaim_after`; returns it in milliseconds (at least 1).
pub(crate) fn check_reclaim_after(reclaim_after: Duration) -> StoreResult<u64> {
    if reclaim_after.is_zero() {
        return Err(StoreError::Invalid(
            "reclaim_after is zero: every job would be reclaimed at once".to_string(),
        ));
    }
    Ok(millis_ceil(reclaim_after))
}

/// Checks a presence TTL; returns it in milliseconds (at least 1).
pub(crate) fn check_ttl(ttl: Duration) -> StoreResult<u64> {
    if ttl.is_zero() {
        return Err(StoreError::Invalid("presence ttl is zero".to_string()));
    }
    if ttl > MAX_PRESENCE_TTL {
        return Err(StoreError::Invalid(format!(
            "presence ttl {ttl:?} is longer than the longest allowed, {MAX_PRESENCE_TTL:?}"
        )));
    }
    Ok(millis_ceil(ttl))
}

/// Longest bot name, in bytes.
pub const MAX_BOT_NAME_BYTES: usize = 64;

/// Checks a bot record before it is stored.
pub(crate) fn check_bot(bot: &BotRecord) -> StoreResult<()> {
    check_id("bot name", &bot.name)?;
    if bot.name.len() > MAX_BOT_NAME_BYTES {
        return Err(StoreError::Invalid(format!(
            "bot name is {} bytes, more than {MAX_BOT_NAME_BYTES}",
            bot.name.len()
        )));
    }
    if let Some(hash) = &bot.token_sha256
        && (hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(StoreError::Invalid(format!(
            "bot {}: token_sha256 {hash:?} is not 64 hex digits",
            bot.name
        )));
    }
    if let BotKind::Program { command, .. } = &bot.kind
        && command.trim().is_empty()
    {
        return Err(StoreError::Invalid(format!(
            "bot {}: program command is empty",
            bot.name
        )));
    }
    Ok(())
}

/// Checks a batch of records, naming the first bad one.
pub(crate) fn check_records(records: &[DealRecord]) -> StoreResult<()> {
    records.iter().try_for_each(check_record)
}

/// Reads a JSON value stored under `key` (named lazily, for the error), as both backends read
/// back panels, deal records and bot records: anything that is not one is
/// [`StoreError::Corrupt`], naming the key.
pub fn decode<T: serde::de::DeserializeOwned>(
    key: impl FnOnce() -> String,
    bytes: &[u8],
) -> StoreResult<T> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        key: key(),
        reason: e.to_string(),
    })
}

/// Reads a deal record stored under `key` (named lazily), checking that it is the record of
/// (`panel`, `id`) the key names: [`StoreError::Corrupt`] naming the key if not.
pub(crate) fn decode_deal(
    key: impl Fn() -> String,
    panel: &str,
    id: &str,
    bytes: &[u8],
) -> StoreResult<DealRecord> {
    let record: DealRecord = decode(&key, bytes)?;
    if record.panel != panel || record.id != id {
        return Err(StoreError::Corrupt {
            key: key(),
            reason: format!("holds deal {} of panel {} instead", record.id, record.panel),
        });
    }
    Ok(record)
}

/// Reads a bot record stored under `key` (named lazily), checking that it is bot `name`'s:
/// [`StoreError::Corrupt`] naming the key if not.
pub(crate) fn decode_bot(
    key: impl Fn() -> String,
    name: &str,
    bytes: &[u8],
) -> StoreResult<BotRecord> {
    let bot: BotRecord = decode(&key, bytes)?;
    if bot.name != name {
        return Err(StoreError::Corrupt {
            key: key(),
            reason: format!("holds bot {} instead", bot.name),
        });
    }
    Ok(bot)
}

/// Writes a value as JSON, as both backends store it.
pub fn encode<T: serde::Serialize>(value: &T) -> StoreResult<Vec<u8>> {
    serde_json::to_vec(value)
        .map_err(|e| StoreError::Invalid(format!("cannot serialise value: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_round_up_to_whole_milliseconds() {
        assert_eq!(millis_ceil(Duration::ZERO), 0);
        assert_eq!(millis_ceil(Duration::from_nanos(1)), 1);
        assert_eq!(millis_ceil(Duration::from_micros(1_500)), 2);
        assert_eq!(millis_ceil(Duration::from_millis(7)), 7);
        assert_eq!(millis_ceil(Duration::MAX), u64::MAX);
        assert_eq!(
            check_reclaim_after(Duration::from_micros(10)).expect("ok"),
            1
        );
        assert_eq!(check_ttl(MAX_PRESENCE_TTL).expect("ok"), 86_400_000);
    }
}
