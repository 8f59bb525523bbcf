//! Writing a full measured source (200,000 records in batches of 1,000) and reading it back, on
//! both backends, with timings. Ignored by default (it is a measurement, and slow unoptimised):
//!
//! ```text
//! cargo test -p arena-store --release --test throughput -- --ignored --nocapture
//! ```

use std::time::Instant;

use arena_store::conformance::generated;
use arena_store::{DealSource, EmbeddedStore, RedisStore, Store};
use arena_testkit::redis_server::RedisServer;

const RECORDS: u64 = 200_000;
const BATCH: u64 = 1_000;

async fn write_and_read(store: &dyn Store) {
    let panel = "p-throughput";
    let source = DealSource {
        seed: 2026,
        bombs: None,
    };
    let batches: Vec<Vec<_>> = (0..RECORDS / BATCH)
        .map(|b| {
            (b * BATCH..(b + 1) * BATCH)
                .map(|i| generated(panel, source, i))
                .collect()
        })
        .collect();

    let start = Instant::now();
    for batch in &batches {
        assert_eq!(store.put_deals(batch).await.expect("put"), BATCH as usize);
    }
    let written = start.elapsed();

    let start = Instant::now();
    let indices = store
        .measured_indices(panel, &source)
        .await
        .expect("indices");
    let listed = start.elapsed();
    assert_eq!(indices.len() as u64, RECORDS);
    assert!(indices.windows(2).all(|w| w[0] < w[1]));

    let start = Instant::now();
    let deals = store.deals(panel).await.expect("deals");
    let loaded = start.elapsed();
    assert_eq!(deals.len() as u64, RECORDS);
    assert_eq!(store.deal_count(panel).await.expect("count"), RECORDS);

    eprintln!(
        "{}: wrote {RECORDS} records in batches of {BATCH} in {written:.2?}; \
         measured_indices {listed:.2?}; deals {loaded:.2?}",
        store.describe()
    );
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
async fn embedded_200k() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = EmbeddedStore::open(dir.path()).expect("open");
    write_and_read(&store).await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
async fn redis_200k() {
    let server = RedisServer::start();
    let store = RedisStore::connect(&server.url(), "arena")
        .await
        .expect("connect");
    write_and_read(&store).await;
}
