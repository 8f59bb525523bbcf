//! The tokio runtime of the roles (`arena standalone` and each service), and of the benches
//! that stand in for them: one builder, so what is measured is what runs.
//!
//! One setting differs from tokio's defaults: how often a busy worker looks at I/O and at the
//! runtime's shared queue. Tokio does so every 61 and 31 tasks polled. A referee playing tables
//! of built-in bots on its workers (a Dou Dizhu table is about 45 µs of one task) then leaves
//! the store's answer to its next take unread for up to 61 tables, ~3 ms, while the slots that
//! take is for stand empty (the reading behind the change, from tokio's documented intervals;
//! what was measured is the A/B below). Every 7 tasks it loses at most a third of a millisecond,
//! for one extra non-blocking `epoll_wait` per 7 tasks. Measured (docs/scaling.md, three runs each
//! way): the referee with built-in bots on Redis (`cargo bench -p arena-integration --bench
//! ddz_stack -- 40000 embedded,redis`) 23,200–23,900 tables/s at tokio's defaults, 24,800–25,500
//! with these (the embedded store unchanged, 25,800–26,900 against 26,100–26,600); the remote path
//! (`cargo run --release -p arena-example-remote-bot --example bench`, two runs) pays for the extra
//! looks, 1,039 tables/s against 1,020–1,028.

use std::io;

/// Tasks a busy worker polls between two looks at I/O and timers.
pub const EVENT_INTERVAL: u32 = 7;

/// Tasks a busy worker polls between two looks at the runtime's shared queue (tasks woken from
/// outside a worker: the blocking pool, the timer).
pub const GLOBAL_QUEUE_INTERVAL: u32 = 7;

/// A multi-threaded runtime as the roles run on: a worker per core (`TOKIO_WORKER_THREADS`
/// overrides it), I/O and timers enabled, I/O and the shared queue looked at every
/// [`EVENT_INTERVAL`] and [`GLOBAL_QUEUE_INTERVAL`] tasks.
pub fn builder() -> tokio::runtime::Builder {
    let mut b = tokio::runtime::Builder::new_multi_thread();
    b.enable_all()
        .event_interval(EVENT_INTERVAL)
        .global_queue_interval(GLOBAL_QUEUE_INTERVAL);
    b
}

/// [`builder`], built.
pub fn serving() -> io::Result<tokio::runtime::Runtime> {
    builder().build()
}
