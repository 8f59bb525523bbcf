//! arena's metrics. Instruments come from the global meter, so they are no-ops unless export is
//! on; get them with [`metrics()`] **after** [`crate::init`]: the first call fixes the meter the
//! instruments are made from, so a call before `init` leaves them no-ops for the process's life.
//!
//! Every metric, its unit and its attributes are listed in `docs/observability.md`. Instruments
//! shared by several roles ([`Metrics::decisions`], [`Metrics::decision_latency_s`]) are told
//! apart by the `role` attribute where a role records them besides the referee (bot-host sets
//! `role=bot-host`), so that a sum over one role never counts a decision twice.

use std::sync::OnceLock;

use opentelemetry::metrics::{Counter, Gauge, Histogram, UpDownCounter};

/// An attribute of a measurement, re-exported so that recorders need no `opentelemetry`
/// dependency of their own.
pub use opentelemetry::KeyValue;

/// Every metric arena records.
pub struct Metrics {
    /// Tables started, by `game`.
    pub tables_started: Counter<u64>,
    /// Tables finished, by `game`.
    pub tables_finished: Counter<u64>,
    /// Decisions: asked of seats by the referee (by `seat_kind`: in-process, remote), and relayed
    /// by bot-host (`role=bot-host`, by `bot_kind`: remote, program, builtin).
    pub decisions: Counter<u64>,
    /// Decision latency in seconds (fractional: an in-process bot answers in microseconds), with
    /// the attributes of [`Metrics::decisions`]. The referee measures from request to answer at
    /// the table; bot-host from the request reaching it to the reply leaving it, so the
    /// difference is the cost of the hop.
    pub decision_latency_s: Histogram<f64>,
    /// Verdicts, by `kind` (timeout, illegal, malformed, disconnected, crashed).
    pub verdicts: Counter<u64>,
    /// Decisions answered after the limit (penalised), by `seat_kind`.
    pub late_decisions: Counter<u64>,
    /// Table jobs on the queue, by `state` (waiting, pending).
    pub queue_depth: Gauge<u64>,
    /// Seconds a table job waited on the queue, from being enqueued (its
    /// [`crate::ENQUEUED_AT_LABEL`]) to a referee taking it, by `game`.
    pub queue_wait_s: Histogram<f64>,
    /// Deals whose difficulty was measured and stored, by `panel` (and `via=find` when on-demand
    /// generation measured them).
    pub deals_measured: Counter<u64>,
    /// Games played on the fast path while measuring, by `panel`.
    pub games_played: Counter<u64>,
    /// Remote bots connected to bot-host (connections that said a valid `Hello`; a resumed
    /// session counts once).
    pub bots_connected: UpDownCounter<i64>,
    /// Seat streams open at bot-host whose bot is known, by `bot_kind` (remote, program, builtin).
    pub seats_open: UpDownCounter<i64>,
    /// Seats bot-host gave up on (`SeatFault`), by `kind` (timeout, crashed, disconnected,
    /// malformed) and `bot_kind`. The referee turns each into a verdict.
    pub seat_faults: Counter<u64>,
    /// Long operations started by the deal library, by `kind` (measure, find).
    pub library_operations: Counter<u64>,
    /// Competitions created (recorded by the matchmaker).
    pub competitions_created: Counter<u64>,
    /// Competitions that reached a final state, by `state` (recorded by the matchmaker).
    pub competitions_finished: Counter<u64>,
    /// Ladder pairs whose tables were started (recorded by the matchmaker).
    pub ladder_pairs_started: Counter<u64>,
    /// Ladder pairs whose result went into the ratings (recorded by the matchmaker).
    pub ladder_pairs_rated: Counter<u64>,
    /// Tables the platform interrupted (a remote seat's bot-host failed and the seat could not
    /// be opened again in time), handed back to be played again; by `outcome` (`requeued`,
    /// `given_up` after too many attempts).
    pub tables_interrupted: Counter<u64>,
    /// Times a role found the store's data lost (its instance record gone or replaced), by
    /// `role`.
    pub store_data_loss: Counter<u64>,
    /// Redis store calls that failed (Redis unreachable, a script error, a fenced write refused,
    /// …), counted from the error events the store emits (target [`crate::REDIS_SPAN_TARGET`])
    /// by a layer [`crate::init_with`] installs whenever metrics are on. No attributes: the
    /// event is counted without building the call's span, so it costs nothing per call.
    pub store_errors: Counter<u64>,
}

/// Bucket boundaries of [`Metrics::decision_latency_s`], in seconds: from the ten microseconds
/// an in-process bot takes to the hard caps of slow remote bots (60 s), so p50 and p99 can be
/// read off both (the SDK's default buckets start at 5 ms).
pub const DECISION_LATENCY_BUCKETS_S: [f64; 20] = [
    0.000_01, 0.000_025, 0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025,
    0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 60.0,
];

/// Bucket boundaries of [`Metrics::queue_wait_s`], in seconds: a queue that keeps up hands a
/// job over within milliseconds; one that does not holds it for minutes.
pub const QUEUE_WAIT_BUCKETS_S: [f64; 13] = [
    0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 300.0, 900.0, 3600.0, 14400.0,
];

static METRICS: OnceLock<Metrics> = OnceLock::new();

/// The process's metrics (created on first use from the global meter).
pub fn metrics() -> &'static Metrics {
    METRICS.get_or_init(|| {
        let m = opentelemetry::global::meter("arena");
        Metrics {
            tables_started: m
                .u64_counter("arena.tables.started")
                .with_unit("{table}")
                .with_description("tables started")
                .build(),
            tables_finished: m
                .u64_counter("arena.tables.finished")
                .with_unit("{table}")
                .with_description("tables finished")
                .build(),
            decisions: m
                .u64_counter("arena.decisions")
                .with_unit("{decision}")
                .with_description("decisions asked of seats (referee) or relayed (bot-host)")
                .build(),
            decision_latency_s: m
                .f64_histogram("arena.decision.latency")
                .with_unit("s")
                .with_description("time from request to answer")
                .with_boundaries(DECISION_LATENCY_BUCKETS_S.to_vec())
                .build(),
            verdicts: m
                .u64_counter("arena.verdicts")
                .with_unit("{verdict}")
                .with_description("verdicts by kind")
                .build(),
            late_decisions: m
                .u64_counter("arena.decisions.late")
                .with_unit("{decision}")
                .with_description("answers after the limit")
                .build(),
            queue_depth: m
                .u64_gauge("arena.queue.depth")
                .with_unit("{job}")
                .with_description("table jobs waiting or pending")
                .build(),
            queue_wait_s: m
                .f64_histogram("arena.queue.wait")
                .with_unit("s")
                .with_description("time a table job waited on the queue before a referee took it")
                .with_boundaries(QUEUE_WAIT_BUCKETS_S.to_vec())
                .build(),
            deals_measured: m
                .u64_counter("arena.deals.measured")
                .with_unit("{deal}")
                .with_description("deals measured")
                .build(),
            games_played: m
                .u64_counter("arena.games.played")
                .with_unit("{game}")
                .with_description("fast-path games")
                .build(),
            bots_connected: m
                .i64_up_down_counter("arena.bots.connected")
                .with_unit("{bot}")
                .with_description("remote bots connected to bot-host")
                .build(),
            seats_open: m
                .i64_up_down_counter("arena.seats.open")
                .with_unit("{seat}")
                .with_description("seat streams open at bot-host")
                .build(),
            seat_faults: m
                .u64_counter("arena.seat.faults")
                .with_unit("{fault}")
                .with_description("seats bot-host gave up on, by kind")
                .build(),
            library_operations: m
                .u64_counter("arena.library.operations")
                .with_unit("{operation}")
                .with_description("deal-library operations started")
                .build(),
            competitions_created: m
                .u64_counter("arena.competitions.created")
                .with_unit("{competition}")
                .with_description("competitions created")
                .build(),
            competitions_finished: m
                .u64_counter("arena.competitions.finished")
                .with_unit("{competition}")
                .with_description("competitions finished, by final state")
                .build(),
            ladder_pairs_started: m
                .u64_counter("arena.ladder.pairs.started")
                .with_unit("{pair}")
                .with_description("ladder pairs started")
                .build(),
            ladder_pairs_rated: m
                .u64_counter("arena.ladder.pairs.rated")
                .with_unit("{pair}")
                .with_description("ladder pairs rated")
                .build(),
            tables_interrupted: m
                .u64_counter("arena.tables.interrupted")
                .with_unit("{table}")
                .with_description("tables the platform interrupted, handed back to be played again")
                .build(),
            store_data_loss: m
                .u64_counter("arena.store.data_loss")
                .with_unit("{event}")
                .with_description("times the store was found to have lost its data")
                .build(),
            store_errors: m
                .u64_counter("arena.store.errors")
                .with_unit("{call}")
                .with_description("store calls that failed")
                .build(),
        }
    })
}

/// An attribute list with one key.
pub fn attr(key: &'static str, value: impl Into<opentelemetry::Value>) -> [KeyValue; 1] {
    [KeyValue::new(key, value)]
}
