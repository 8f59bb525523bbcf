//! Bots playing one table at a time (`Hello.capacity` 1), seated at 96 tables at once in
//! both orders: the seats beyond a bot's capacity wait in line longer than the referee's
//! seat-open timeout, bot-host tells the referee they wait, and every table is played with no
//! verdict; tables that take the two bots in opposite seat orders never hold each other up for
//! ever.

use std::time::Duration;

use arena_example_remote_bot::Options;
use arena_integration::{Backend, Cluster};
use arena_proto::v1;
use prost::Message;

const TABLES: u64 = 96;

fn job(competition: &str, i: u64) -> v1::TableJob {
    // Half the tables seat the bots one way round, half the other.
    let seats = if i.is_multiple_of(2) {
        ["alpha", "omega", "expert"]
    } else {
        ["omega", "alpha", "expert"]
    };
    arena_integration::ddz_table(competition, i, &seats, 91)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_waiting_for_a_busy_bot_outlast_the_open_timeout_and_no_table_is_stuck() {
    let one_at_a_time = Options {
        capacity: 1,
        ..Options::default()
    };
    let cluster = Cluster::on(Backend::Embedded, "busy")
        .bot_host_config(|c| {
            // A waiting seat says so every 100 ms (ten times within the open timeout, however
            // loaded the machine); the bots are not cut off for a slow pong.
            c.keepalive = Duration::from_millis(100);
            c.missed_keepalives = 100;
        })
        .referee_config(|c| {
            // Every table at once, and an open timeout below the line's wait: the last seat in
            // a line waits for some 95 tables (about 3 s).
            c.max_tables = TABLES as usize;
            c.seat_open_timeout = Duration::from_secs(1);
        })
        .referees(&["r1"])
        .remote_bot("alpha", one_at_a_time.clone())
        .remote_bot("omega", one_at_a_time)
        .start()
        .await;
    let competition = format!("{}-busy", cluster.prefix());
    for i in 0..TABLES {
        cluster.enqueue(&job(&competition, i)).await;
    }
    let results = cluster.results(&competition, TABLES as usize).await;
    assert_eq!(results.len(), TABLES as usize);
    for (id, bytes) in &results {
        let r = v1::TableResult::decode(bytes.as_slice()).expect("an encoded TableResult");
        assert!(r.error.is_empty(), "{id}: {}", r.error);
        assert!(r.verdicts.is_empty(), "{id}: {:?}", r.verdicts);
        assert!(r.outcome.is_some(), "{id} has no outcome");
    }
    cluster.shutdown().await;
}
