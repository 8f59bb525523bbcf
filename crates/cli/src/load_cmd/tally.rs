//! What the bots of a run record as they play ([`Shared`]): counts, the decision latency's
//! histogram, verdicts and a sample of each kind of error.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use arena_proto::v1;
use hdrhistogram::Histogram;
use tokio::sync::OwnedSemaphorePermit;

/// What the bots and the submitter share.
pub(super) struct Shared {
    pub(super) connected: AtomicU64,
    pub(super) welcomes: AtomicU64,
    pub(super) lost: AtomicU64,
    pub(super) refused: AtomicU64,
    pub(super) decisions: AtomicU64,
    pub(super) crashes: AtomicU64,
    pub(super) hangs: AtomicU64,
    pub(super) garbage: AtomicU64,
    pub(super) notices: AtomicU64,
    /// Tables finished before the current measurement (the progress line counts from it).
    pub(super) step_base: AtomicU64,
    /// Decision latency in microseconds, since the current measurement began.
    pub(super) latency: Mutex<Histogram<u64>>,
    /// Table id → when the last answer at that table left its bot.
    pub(super) last_answer: Mutex<HashMap<String, Instant>>,
    pub(super) book: Mutex<Book>,
    /// The last error of each kind, for the report.
    pub(super) errors: Mutex<BTreeMap<&'static str, String>>,
}

/// The tables in flight and what finished ones said.
#[derive(Default)]
pub(super) struct Book {
    pub(super) in_flight: HashMap<String, OwnedSemaphorePermit>,
    pub(super) finished: u64,
    pub(super) without_outcome: u64,
    pub(super) verdicts: BTreeMap<&'static str, u64>,
    pub(super) last_end: Option<Instant>,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(super) fn histogram() -> Histogram<u64> {
    // 1 µs to 1 hour, 3 significant figures.
    Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid histogram bounds")
}

impl Shared {
    pub(super) fn new() -> Shared {
        Shared {
            connected: AtomicU64::new(0),
            welcomes: AtomicU64::new(0),
            lost: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            decisions: AtomicU64::new(0),
            crashes: AtomicU64::new(0),
            hangs: AtomicU64::new(0),
            garbage: AtomicU64::new(0),
            notices: AtomicU64::new(0),
            step_base: AtomicU64::new(0),
            latency: Mutex::new(histogram()),
            last_answer: Mutex::new(HashMap::new()),
            book: Mutex::new(Book::default()),
            errors: Mutex::new(BTreeMap::new()),
        }
    }

    pub(super) fn error(&self, kind: &'static str, text: String) {
        lock(&self.errors).insert(kind, text);
    }

    /// A request of `table` arrived: the hop since the table's last answer.
    pub(super) fn request(&self, table: &str) {
        self.decisions.fetch_add(1, Ordering::Relaxed);
        let since = lock(&self.last_answer).get(table).map(|t| t.elapsed());
        if let Some(d) = since {
            let us = (d.as_micros() as u64).max(1);
            let _ = lock(&self.latency).record(us);
        }
    }

    /// No answer follows at `table` (a hang, a crash): its next hop is not a decision's.
    pub(super) fn forget(&self, table: &str) {
        lock(&self.last_answer).remove(table);
    }

    pub(super) fn answered(&self, table: &str) {
        lock(&self.last_answer).insert(table.to_string(), Instant::now());
    }

    /// A seat's table ended: the first end of a table this run submitted finishes it.
    pub(super) fn end(&self, end: &v1::TableEnd) {
        let mut book = lock(&self.book);
        if book.in_flight.remove(&end.table_id).is_none() {
            return;
        }
        book.finished += 1;
        book.last_end = Some(Instant::now());
        if end.outcome.is_none() {
            book.without_outcome += 1;
        }
        for v in &end.verdicts {
            let name = v1::VerdictKind::try_from(v.kind)
                .map(|k| k.as_str_name())
                .unwrap_or("VERDICT_KIND_UNKNOWN");
            *book.verdicts.entry(name).or_default() += 1;
        }
        drop(book);
        lock(&self.last_answer).remove(&end.table_id);
    }
}
