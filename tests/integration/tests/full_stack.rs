//! The whole table path: referees take table jobs from the job stream, bot-host seats three
//! remote bots over real gRPC on loopback, and every table's result is written exactly once —
//! also when a referee is killed halfway and another takes over its tables.

use std::collections::BTreeSet;

use arena_integration::{Backend, Cluster};
use arena_proto::v1;
use prost::Message;

const BOTS: [&str; 3] = ["north", "east", "west"];

fn job(competition: &str, i: u64) -> v1::TableJob {
    arena_integration::ddz_table(competition, i, &BOTS, 77)
}

/// Every table of `0..n` is listed exactly once (a second write of a result would list it
/// twice), and each result is a clean game: no error, no verdict, scores summing to zero.
fn check_results(results: &[(String, Vec<u8>)], competition: &str, n: u64) {
    let ids: Vec<&str> = results.iter().map(|(id, _)| id.as_str()).collect();
    let unique: BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(ids.len(), unique.len(), "a table is listed twice: {ids:?}");
    let want: BTreeSet<String> = (0..n).map(|i| format!("{competition}/t{i}")).collect();
    let got: BTreeSet<String> = unique.iter().map(|s| s.to_string()).collect();
    assert_eq!(got, want, "every table exactly once");
    for (id, bytes) in results {
        let r = v1::TableResult::decode(bytes.as_slice()).expect("an encoded TableResult");
        assert_eq!(&r.table_id, id);
        assert!(r.error.is_empty(), "{id}: {}", r.error);
        let outcome = r.outcome.unwrap_or_else(|| panic!("{id} has no outcome"));
        assert_eq!(
            outcome.scores.iter().sum::<i64>(),
            0,
            "{id}: competition scores sum to zero"
        );
        assert!(r.verdicts.is_empty(), "{id}: {:?}", r.verdicts);
    }
}

async fn every_table_once(backend: Backend) {
    let cluster = Cluster::on(backend, "once")
        .referees(&["r1", "r2"])
        .remote_bots(&BOTS)
        .start()
        .await;
    let competition = format!("{}-c", cluster.prefix());
    for i in 0..60 {
        cluster.enqueue(&job(&competition, i)).await;
    }
    let results = cluster.results(&competition, 60).await;
    cluster.drained().await;
    // Every job is acknowledged and no late second result arrived meanwhile.
    let results_after = cluster.store.results_for(&competition).await.unwrap();
    assert_eq!(results_after.len(), results.len());
    check_results(&results_after, &competition, 60);
    cluster.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_table_is_played_and_counted_once_on_redis() {
    every_table_once(Backend::Redis).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_table_is_played_and_counted_once_on_the_embedded_store() {
    every_table_once(Backend::Embedded).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referee_killed_halfway_loses_no_table_and_counts_none_twice() {
    let mut cluster = Cluster::on(Backend::Redis, "kill")
        .referees(&["doomed"])
        .remote_bots(&BOTS)
        .start()
        .await;
    let competition = format!("{}-c", cluster.prefix());
    let n = 120;
    for i in 0..n {
        cluster.enqueue(&job(&competition, i)).await;
    }
    // Kill the referee mid-flight (no shutdown, no acks) once a third of the tables are done:
    // its claimed tables must be reclaimed and played by the survivor.
    let halfway = cluster.results(&competition, 40).await;
    cluster.kill_referee("doomed");
    assert!(
        (halfway.len() as u64) < n,
        "the referee was killed after all {n} tables had finished: nothing was in flight"
    );
    cluster.start_referee("survivor");
    cluster.results(&competition, n as usize).await;
    cluster.drained().await;
    let results = cluster.store.results_for(&competition).await.unwrap();
    check_results(&results, &competition, n);
    cluster.shutdown().await;
}
