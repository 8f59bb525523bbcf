//! Test helpers: a store wrapper that injects outages and delays and records the job calls, and
//! a minimal bot-host whose bots play the first legal action.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena_store::prelude::*;
use arena_store::{
    BotRecord, DealRecord, DealSource, EmbeddedStore, JobCounts, JobEntry, Panel, StoreError,
    StoreResult, Topic, Watcher,
};

/// An embedded store in a fresh directory.
pub fn embedded() -> (tempfile::TempDir, Arc<dyn Store>) {
    let dir = tempfile::tempdir().unwrap();
    let store = EmbeddedStore::open(dir.path()).unwrap();
    (dir, Arc::new(store))
}

/// A job-call event, for checking the order of writes and acknowledgements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `next_job` handed out an entry: consumer, entry id, table id, deliveries.
    Took(String, String, String, u64),
    /// `put_result` stored (true) or kept an earlier result (false) for this table.
    Put(String, bool),
    /// `ack_job` for this entry.
    Acked(String),
}

/// Wraps a store: `down` makes every call fail as unavailable; `fail_puts` fails that many
/// `put_result` calls; `put_delay_ms` slows `put_result`; `hang_puts` makes it never return;
/// `fail_touches` makes `touch_job` fail as unavailable (so the lease runs out while the referee
/// lives); `gate_puts` holds every `put_result` (counted in `puts_waiting`) until a permit is
/// added to `put_gate`.
pub struct Faulty {
    pub inner: Arc<dyn Store>,
    pub down: AtomicBool,
    pub fail_puts: AtomicU32,
    pub put_delay_ms: AtomicU32,
    pub hang_puts: AtomicBool,
    pub fail_touches: AtomicBool,
    pub gate_puts: AtomicBool,
    pub put_gate: tokio::sync::Semaphore,
    pub puts_waiting: AtomicU32,
    /// Calls refused because of `down`.
    pub refused: AtomicU32,
    pub events: Mutex<Vec<Event>>,
}

impl Faulty {
    pub fn new(inner: Arc<dyn Store>) -> Arc<Faulty> {
        Arc::new(Faulty {
            inner,
            down: AtomicBool::new(false),
            fail_puts: AtomicU32::new(0),
            put_delay_ms: AtomicU32::new(0),
            hang_puts: AtomicBool::new(false),
            fail_touches: AtomicBool::new(false),
            gate_puts: AtomicBool::new(false),
            put_gate: tokio::sync::Semaphore::new(0),
            puts_waiting: AtomicU32::new(0),
            refused: AtomicU32::new(0),
            events: Mutex::new(Vec::new()),
        })
    }

    fn check(&self) -> StoreResult<()> {
        if self.down.load(Ordering::SeqCst) {
            self.refused.fetch_add(1, Ordering::SeqCst);
            Err(StoreError::Unavailable("injected outage".into()))
        } else {
            Ok(())
        }
    }

    pub fn events(&self) -> Vec<Event> {
        self.events.lock().unwrap().clone()
    }
}

#[async_trait::async_trait]
impl Backend for Faulty {
    fn describe(&self) -> String {
        format!("faulty {}", self.inner.describe())
    }
}

#[async_trait::async_trait]
impl Deals for Faulty {
    async fn put_panel(&self, panel: &Panel) -> StoreResult<()> {
        self.check()?;
        self.inner.put_panel(panel).await
    }

    async fn panel(&self, id: &str) -> StoreResult<Option<Panel>> {
        self.check()?;
        self.inner.panel(id).await
    }

    async fn panels(&self) -> StoreResult<Vec<Panel>> {
        self.check()?;
        self.inner.panels().await
    }

    async fn put_deals(&self, records: &[DealRecord]) -> StoreResult<usize> {
        self.check()?;
        self.inner.put_deals(records).await
    }

    async fn deal(&self, panel: &str, id: &str) -> StoreResult<Option<DealRecord>> {
        self.check()?;
        self.inner.deal(panel, id).await
    }

    async fn deals(&self, panel: &str) -> StoreResult<Vec<DealRecord>> {
        self.check()?;
        self.inner.deals(panel).await
    }

    async fn deal_count(&self, panel: &str) -> StoreResult<u64> {
        self.check()?;
        self.inner.deal_count(panel).await
    }

    async fn measured_indices(&self, panel: &str, source: &DealSource) -> StoreResult<Vec<u64>> {
        self.check()?;
        self.inner.measured_indices(panel, source).await
    }

    async fn claim_deals(&self, competition: &str, deal_ids: &[String]) -> StoreResult<Vec<bool>> {
        self.check()?;
        self.inner.claim_deals(competition, deal_ids).await
    }

    async fn used_deals(&self) -> StoreResult<BTreeMap<String, String>> {
        self.check()?;
        self.inner.used_deals().await
    }
}

#[async_trait::async_trait]
impl Jobs for Faulty {
    fn lane(&self, lane: &str) -> StoreResult<Arc<dyn Store>> {
        // A view of the inner store would escape the faults; no test of a faulty store uses one.
        Err(StoreError::Invalid(format!(
            "lane {lane:?}: the faulty test store has no lanes"
        )))
    }

    async fn enqueue_job(&self, table_id: &str, payload: &[u8]) -> StoreResult<String> {
        self.check()?;
        self.inner.enqueue_job(table_id, payload).await
    }

    async fn next_job(
        &self,
        consumer: &str,
        reclaim_after: Duration,
        block: Duration,
    ) -> StoreResult<Option<JobEntry>> {
        self.check()?;
        let job = self.inner.next_job(consumer, reclaim_after, block).await?;
        if let Some(j) = &job {
            self.events.lock().unwrap().push(Event::Took(
                consumer.to_string(),
                j.entry_id.clone(),
                j.table_id.clone(),
                j.deliveries,
            ));
        }
        Ok(job)
    }

    async fn ack_job(&self, entry_id: &str) -> StoreResult<()> {
        self.check()?;
        self.inner.ack_job(entry_id).await?;
        self.events
            .lock()
            .unwrap()
            .push(Event::Acked(entry_id.to_string()));
        Ok(())
    }

    async fn touch_job(&self, consumer: &str, entry_id: &str) -> StoreResult<()> {
        self.check()?;
        if self.fail_touches.load(Ordering::SeqCst) {
            return Err(StoreError::Unavailable("injected touch failure".into()));
        }
        self.inner.touch_job(consumer, entry_id).await
    }

    async fn job_counts(&self) -> StoreResult<JobCounts> {
        self.inner.job_counts().await
    }

    async fn resume_jobs(&self, consumer: &str, max: usize) -> StoreResult<Vec<JobEntry>> {
        self.check()?;
        self.inner.resume_jobs(consumer, max).await
    }
}

#[async_trait::async_trait]
impl Results for Faulty {
    async fn delete_results(
        &self,
        competition: Option<&str>,
        table_ids: &[String],
    ) -> StoreResult<u64> {
        self.check()?;
        self.inner.delete_results(competition, table_ids).await
    }

    async fn put_result(
        &self,
        table_id: &str,
        competition: Option<&str>,
        result: &[u8],
        replay: &[u8],
    ) -> StoreResult<bool> {
        self.check()?;
        if self.hang_puts.load(Ordering::SeqCst) {
            std::future::pending::<()>().await;
        }
        if self.gate_puts.load(Ordering::SeqCst) {
            self.puts_waiting.fetch_add(1, Ordering::SeqCst);
            self.put_gate
                .acquire()
                .await
                .expect("the gate is never closed")
                .forget();
            self.puts_waiting.fetch_sub(1, Ordering::SeqCst);
        }
        let delay = self.put_delay_ms.load(Ordering::SeqCst);
        if delay > 0 {
            tokio::time::sleep(Duration::from_millis(u64::from(delay))).await;
        }
        if self
            .fail_puts
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
        {
            return Err(StoreError::Unavailable("injected write failure".into()));
        }
        let written = self
            .inner
            .put_result(table_id, competition, result, replay)
            .await?;
        self.events
            .lock()
            .unwrap()
            .push(Event::Put(table_id.to_string(), written));
        Ok(written)
    }

    async fn result(&self, table_id: &str) -> StoreResult<Option<Vec<u8>>> {
        self.check()?;
        self.inner.result(table_id).await
    }

    async fn replay(&self, table_id: &str) -> StoreResult<Option<Vec<u8>>> {
        self.check()?;
        self.inner.replay(table_id).await
    }

    async fn results_for(&self, competition: &str) -> StoreResult<Vec<(String, Vec<u8>)>> {
        self.check()?;
        self.inner.results_for(competition).await
    }
}

#[async_trait::async_trait]
impl Bots for Faulty {
    async fn add_bot(&self, bot: &BotRecord) -> StoreResult<bool> {
        self.check()?;
        self.inner.add_bot(bot).await
    }

    async fn update_bot(&self, bot: &BotRecord) -> StoreResult<bool> {
        self.check()?;
        self.inner.update_bot(bot).await
    }

    async fn bot(&self, name: &str) -> StoreResult<Option<BotRecord>> {
        self.check()?;
        self.inner.bot(name).await
    }

    async fn bots(&self) -> StoreResult<Vec<BotRecord>> {
        self.check()?;
        self.inner.bots().await
    }

    async fn set_presence(&self, bot: &str, host: &str, ttl: Duration) -> StoreResult<()> {
        self.check()?;
        self.inner.set_presence(bot, host, ttl).await
    }

    async fn clear_presence(&self, bot: &str, host: &str) -> StoreResult<()> {
        self.check()?;
        self.inner.clear_presence(bot, host).await
    }

    async fn presence(&self, bot: &str) -> StoreResult<Vec<String>> {
        self.check()?;
        self.inner.presence(bot).await
    }

    async fn remove_bot(&self, name: &str) -> StoreResult<bool> {
        self.check()?;
        self.inner.remove_bot(name).await
    }

    async fn claim_presence(
        &self,
        bot: &str,
        host: &str,
        ttl: Duration,
    ) -> StoreResult<Option<String>> {
        self.check()?;
        self.inner.claim_presence(bot, host, ttl).await
    }
}

impl Watch for Faulty {
    fn watch(&self, topic: &Topic) -> StoreResult<Watcher> {
        self.inner.watch(topic)
    }
}

#[async_trait::async_trait]
impl Records for Faulty {
    async fn put_record(&self, kind: &str, key: &str, value: &[u8]) -> StoreResult<()> {
        self.check()?;
        self.inner.put_record(kind, key, value).await
    }

    async fn swap_record(
        &self,
        kind: &str,
        key: &str,
        expected: Option<&[u8]>,
        value: &[u8],
    ) -> StoreResult<bool> {
        self.check()?;
        self.inner.swap_record(kind, key, expected, value).await
    }

    async fn record(&self, kind: &str, key: &str) -> StoreResult<Option<Vec<u8>>> {
        self.check()?;
        self.inner.record(kind, key).await
    }

    async fn records(&self, kind: &str) -> StoreResult<Vec<(String, Vec<u8>)>> {
        self.check()?;
        self.inner.records(kind).await
    }

    async fn delete_record(&self, kind: &str, key: &str) -> StoreResult<bool> {
        self.check()?;
        self.inner.delete_record(kind, key).await
    }
}
