//! arena's metrics. Instruments come from the global meter, so they are no-ops unless export is
//! on; get them with [`metrics()`] after [`crate::init`].

use std::sync::OnceLock;

use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Gauge, Histogram};

/// Every metric arena records.
pub struct Metrics {
    /// Tables started, by game.
    pub tables_started: Counter<u64>,
    /// Tables finished, by game.
    pub tables_finished: Counter<u64>,
    /// Decisions asked of seats, by seat kind (in-process, remote).
    pub decisions: Counter<u64>,
    /// Decision latency in milliseconds, by seat kind.
    pub decision_latency_ms: Histogram<f64>,
    /// Verdicts, by kind (timeout, illegal, malformed, disconnected, crashed).
    pub verdicts: Counter<u64>,
    /// Decisions answered after the limit (penalised), by seat kind.
    pub late_decisions: Counter<u64>,
    /// Table jobs waiting and pending on the queue.
    pub queue_depth: Gauge<u64>,
    /// Deals whose difficulty was measured.
    pub deals_measured: Counter<u64>,
    /// Games played on the fast path while measuring.
    pub games_played: Counter<u64>,
}

static METRICS: OnceLock<Metrics> = OnceLock::new();

/// The process's metrics (created on first use from the global meter).
pub fn metrics() -> &'static Metrics {
    METRICS.get_or_init(|| {
        let m = opentelemetry::global::meter("arena");
        Metrics {
            tables_started: m
                .u64_counter("arena.tables.started")
                .with_description("tables started")
                .build(),
            tables_finished: m
                .u64_counter("arena.tables.finished")
                .with_description("tables finished")
                .build(),
            decisions: m
                .u64_counter("arena.decisions")
                .with_description("decisions asked of seats")
                .build(),
            decision_latency_ms: m
                .f64_histogram("arena.decision.latency")
                .with_unit("ms")
                .with_description("time from request to answer")
                .build(),
            verdicts: m
                .u64_counter("arena.verdicts")
                .with_description("verdicts by kind")
                .build(),
            late_decisions: m
                .u64_counter("arena.decisions.late")
                .with_description("answers after the limit")
                .build(),
            queue_depth: m
                .u64_gauge("arena.queue.depth")
                .with_description("table jobs waiting or pending")
                .build(),
            deals_measured: m
                .u64_counter("arena.deals.measured")
                .with_description("deals measured")
                .build(),
            games_played: m
                .u64_counter("arena.games.played")
                .with_description("fast-path games")
                .build(),
        }
    })
}

/// An attribute list with one key.
pub fn attr(key: &'static str, value: impl Into<opentelemetry::Value>) -> [KeyValue; 1] {
    [KeyValue::new(key, value)]
}
