//! The Redis store's jobs, results, bots and presence beyond the conformance suite: what the
//! keys look like in Redis (a stream that holds only unfinished jobs, presence keys that expire),
//! blocking reads that stall nothing else, a consumer group that comes back after Redis lost it,
//! Redis going away mid-wait, and damaged entries.

use std::time::{Duration, Instant};

use arena_store::conformance::sample_bot;
use arena_store::prelude::*;
use arena_store::{FinishedJob, JobCounts, RedisStore, StoreError};
use arena_testkit::redis_server::RedisServer;

const MINUTE: Duration = Duration::from_secs(60);

async fn store_on(server: &RedisServer) -> RedisStore {
    RedisStore::connect(&server.url(), "arena")
        .await
        .expect("connect")
}

/// Runs a raw command with a connection of its own.
fn raw<T: redis::FromRedisValue>(server: &RedisServer, args: &[&str]) -> T {
    let mut conn = redis::Client::open(server.url())
        .and_then(|c| c.get_connection())
        .expect("raw connection");
    let mut cmd = redis::cmd(args[0]);
    for arg in &args[1..] {
        cmd.arg(*arg);
    }
    cmd.query(&mut conn).expect("raw command")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_next_job_does_not_hold_up_other_calls() {
    let server = RedisServer::start();
    let store = store_on(&server).await;
    const BLOCK: Duration = Duration::from_secs(3);
    let ((job, waited), others) = tokio::join!(
        async {
            let start = Instant::now();
            let job = store
                .next_job("waiter", MINUTE, BLOCK)
                .await
                .expect("next_job");
            (job, start.elapsed())
        },
        async {
            // Let the waiter get into its blocking read first.
            tokio::time::sleep(Duration::from_millis(200)).await;
            let start = Instant::now();
            for i in 0..20 {
                let table = format!("busy/{i}");
                assert!(
                    store
                        .put_result(&table, Some("busy"), b"r", b"p")
                        .await
                        .expect("put_result")
                );
                assert_eq!(
                    store.result(&table).await.expect("result"),
                    Some(b"r".to_vec())
                );
                store.job_counts().await.expect("job_counts");
            }
            start.elapsed()
        }
    );
    assert_eq!(job, None);
    assert!(waited >= BLOCK - Duration::from_millis(1), "{waited:?}");
    assert!(
        others < Duration::from_secs(1),
        "60 calls took {others:?} while another call waited for a job"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_waiting_calls_on_one_store_each_get_a_job() {
    let server = RedisServer::start();
    let store = store_on(&server).await;
    let waiters = (0..4).map(|n| {
        let store = store.clone();
        tokio::spawn(async move {
            let job = store
                .next_job(&format!("waiter-{n}"), MINUTE, Duration::from_secs(20))
                .await
                .expect("next_job");
            (job, Instant::now())
        })
    });
    let waiters: Vec<_> = waiters.collect();
    tokio::time::sleep(Duration::from_millis(300)).await;
    for n in 0..4 {
        store
            .enqueue_job(&format!("t-{n}"), b"job")
            .await
            .expect("enqueue");
    }
    let enqueued = Instant::now();
    let mut tables = Vec::new();
    for waiter in waiters {
        let (job, returned) = waiter.await.expect("waiter");
        let job = job.expect("every waiter gets a job");
        assert_eq!(job.deliveries, 1);
        assert!(
            returned.saturating_duration_since(enqueued) < Duration::from_secs(3),
            "a waiter got its job only {:?} after the enqueue",
            returned.saturating_duration_since(enqueued)
        );
        tables.push(job.table_id);
    }
    tables.sort();
    assert_eq!(tables, ["t-0", "t-1", "t-2", "t-3"]);
}

#[tokio::test]
async fn the_stream_holds_only_unfinished_jobs() {
    let server = RedisServer::start();
    let store = store_on(&server).await;
    let mut ids = Vec::new();
    for i in 0..100 {
        ids.push(
            store
                .enqueue_job(&format!("t{i}"), b"job")
                .await
                .expect("enqueue"),
        );
    }
    for _ in 0..60 {
        store
            .next_job("r", MINUTE, Duration::ZERO)
            .await
            .expect("next_job")
            .expect("a job");
    }
    assert_eq!(raw::<u64>(&server, &["XLEN", "arena:{ctl}:jobs"]), 100);
    assert_eq!(
        store.job_counts().await.expect("counts"),
        JobCounts {
            waiting: 40,
            pending: 60
        }
    );
    // Finished: taken or not, an acknowledged job leaves the stream.
    for id in &ids[..80] {
        store.ack_job(id).await.expect("ack");
    }
    assert_eq!(raw::<u64>(&server, &["XLEN", "arena:{ctl}:jobs"]), 20);
    assert_eq!(
        store.job_counts().await.expect("counts"),
        JobCounts {
            waiting: 20,
            pending: 0
        }
    );
    for id in &ids[80..] {
        store.ack_job(id).await.expect("ack");
    }
    assert_eq!(raw::<u64>(&server, &["XLEN", "arena:{ctl}:jobs"]), 0);
    assert_eq!(
        store.job_counts().await.expect("counts"),
        JobCounts::default()
    );
}

#[tokio::test]
async fn a_lanes_jobs_are_taken_touched_and_finished_only_through_that_lane() {
    let server = RedisServer::start();
    let store = store_on(&server).await;
    let short = store.lane("short").expect("lane short");
    let default = store.lane("").expect("the default lane");
    store.enqueue_job("long/1", b"long").await.expect("enqueue");
    short
        .enqueue_job("sprint/1", b"short")
        .await
        .expect("enqueue");
    short
        .enqueue_job("sprint/2", b"short")
        .await
        .expect("enqueue");
    assert_eq!(raw::<u64>(&server, &["XLEN", "arena:{ctl}:jobs"]), 1);
    assert_eq!(raw::<u64>(&server, &["XLEN", "arena:{ctl}:jobs:short"]), 2);
    assert_eq!(
        short.job_counts().await.expect("counts"),
        JobCounts {
            waiting: 2,
            pending: 0
        }
    );
    // A referee on the default lane sees only its job, whatever waits on another lane.
    let taken = default
        .next_jobs("long-referee", 10, MINUTE, Duration::ZERO)
        .await
        .expect("next_jobs");
    let tables: Vec<&str> = taken.iter().map(|j| j.table_id.as_str()).collect();
    assert_eq!(tables, ["long/1"]);
    let taken = short
        .next_jobs("short-referee", 10, MINUTE, Duration::ZERO)
        .await
        .expect("next_jobs");
    let tables: Vec<&str> = taken.iter().map(|j| j.table_id.as_str()).collect();
    assert_eq!(tables, ["sprint/1", "sprint/2"]);
    short
        .touch_job("short-referee", &taken[0].entry_id)
        .await
        .expect("touched on its lane");
    // A lane's view writes results like the store (they are not per lane) and acknowledges on
    // its own stream.
    let finished: Vec<FinishedJob<'_>> = taken
        .iter()
        .map(|j| FinishedJob {
            entry_id: &j.entry_id,
            table_id: &j.table_id,
            competition: Some("sprint"),
            result: b"r",
            replay: b"p",
        })
        .collect();
    assert_eq!(
        short.finish_jobs(&finished).await.expect("finish"),
        [true, true]
    );
    assert_eq!(raw::<u64>(&server, &["XLEN", "arena:{ctl}:jobs:short"]), 0);
    assert_eq!(raw::<u64>(&server, &["XLEN", "arena:{ctl}:jobs"]), 1);
    assert_eq!(
        store.result("sprint/2").await.expect("result"),
        Some(b"r".to_vec())
    );
    assert_eq!(store.results_for("sprint").await.expect("results").len(), 2);
    assert!(
        short.describe().contains("lane short"),
        "{}",
        short.describe()
    );
}

#[tokio::test]
async fn a_lane_name_outside_its_alphabet_is_refused_naming_it() {
    let server = RedisServer::start();
    let store = store_on(&server).await;
    for bad in ["Short", "a:b", "{ctl}", "-x", "default", &"x".repeat(33)] {
        let Err(StoreError::Invalid(why)) = store.lane(bad) else {
            panic!("lane {bad:?} was accepted");
        };
        assert!(why.contains(&format!("{bad:?}")), "{why}");
    }
    assert!(store.lane(&"x".repeat(32)).is_ok());
    assert!(store.lane("blitz-3").is_ok());
}

#[tokio::test]
async fn a_presence_key_expires_with_its_last_host() {
    let server = RedisServer::start();
    let store = store_on(&server).await;
    store
        .set_presence("b", "h1", Duration::from_millis(200))
        .await
        .expect("set");
    store
        .set_presence("b", "h2", Duration::from_millis(400))
        .await
        .expect("set");
    // Shortening the longer one moves the key's expiry back too.
    store.set_presence("b", "h3", MINUTE).await.expect("set");
    let ttl: i64 = raw(&server, &["PTTL", "arena:presence:b"]);
    assert!(ttl > 50_000 && ttl <= 60_000, "PTTL {ttl}");
    store
        .set_presence("b", "h3", Duration::from_millis(300))
        .await
        .expect("set");
    let ttl: i64 = raw(&server, &["PTTL", "arena:presence:b"]);
    assert!(
        ttl > 0 && ttl <= 400,
        "PTTL {ttl}: the latest host's expiry"
    );
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert_eq!(raw::<u64>(&server, &["EXISTS", "arena:presence:b"]), 0);
    assert!(store.presence("b").await.expect("presence").is_empty());

    // Clearing the last host removes the key at once.
    store.set_presence("c", "h1", MINUTE).await.expect("set");
    store.clear_presence("c", "h1").await.expect("clear");
    assert_eq!(raw::<u64>(&server, &["EXISTS", "arena:presence:c"]), 0);
}

#[tokio::test]
async fn a_lost_consumer_group_is_made_again() {
    let server = RedisServer::start();
    let store = store_on(&server).await;
    // Counting, touching and acknowledging before any group exists.
    let id = store.enqueue_job("t1", b"one").await.expect("enqueue");
    assert_eq!(
        store.job_counts().await.expect("counts"),
        JobCounts {
            waiting: 1,
            pending: 0
        }
    );
    assert!(matches!(
        store.touch_job("r", &id).await,
        Err(StoreError::Invalid(_))
    ));
    let job = store
        .next_job("r", MINUTE, Duration::ZERO)
        .await
        .expect("next_job")
        .expect("the job enqueued before the group existed");
    assert_eq!(job.entry_id, id);

    // Redis loses everything (a restart without persistence): the group comes back with the
    // first call that needs it.
    let _: String = raw(&server, &["FLUSHALL"]);
    assert_eq!(
        store.job_counts().await.expect("counts"),
        JobCounts::default()
    );
    store.ack_job(&id).await.expect("ack without a group");
    let id = store.enqueue_job("t2", b"two").await.expect("enqueue");
    let job = store
        .next_job("r", MINUTE, Duration::from_secs(1))
        .await
        .expect("next_job")
        .expect("the job enqueued after the loss");
    assert_eq!(
        (job.entry_id.as_str(), job.table_id.as_str()),
        (id.as_str(), "t2")
    );

    // Also when the group vanishes while a call waits for a job.
    let (waited, ()) = tokio::join!(store.next_job("r", MINUTE, Duration::from_secs(2)), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let _: String = raw(&server, &["FLUSHALL"]);
    });
    assert_eq!(waited.expect("next_job"), None);
    store.enqueue_job("t3", b"three").await.expect("enqueue");
    let job = store
        .next_job("r", MINUTE, Duration::from_secs(1))
        .await
        .expect("next_job");
    assert_eq!(job.map(|j| j.table_id).as_deref(), Some("t3"));
}

#[tokio::test]
async fn redis_going_away_during_a_wait_is_unavailable_and_waiting_works_again_after() {
    let mut server = RedisServer::start();
    let store = store_on(&server).await;
    let addr = server.addr();
    let (waited, ()) = tokio::join!(
        store.next_job("r", MINUTE, Duration::from_secs(30)),
        async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            server.kill();
        }
    );
    match waited {
        Err(StoreError::Unavailable(message)) => {
            assert!(message.contains(&format!("redis at {addr}")), "{message}")
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
    server.restart();
    let deadline = Instant::now() + Duration::from_secs(15);
    let id = loop {
        match store.enqueue_job("t", b"after").await {
            Ok(id) => break id,
            Err(StoreError::Unavailable(_)) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("the store did not recover: {e}"),
        }
    };
    let job = store
        .next_job("r", MINUTE, Duration::from_secs(2))
        .await
        .expect("next_job after the restart")
        .expect("the job");
    assert_eq!(job.entry_id, id);
    // The blocking path too: a wait on a fresh connection gets a job enqueued meanwhile.
    store.ack_job(&id).await.expect("ack");
    let (job, ()) = tokio::join!(
        store.next_job("r", MINUTE, Duration::from_secs(10)),
        async {
            tokio::time::sleep(Duration::from_millis(200)).await;
            store.enqueue_job("t2", b"x").await.expect("enqueue");
        }
    );
    assert_eq!(
        job.expect("next_job").map(|j| j.table_id).as_deref(),
        Some("t2")
    );
}

#[tokio::test]
async fn an_idle_wait_connection_from_before_a_redis_restart_is_replaced() {
    let mut server = RedisServer::start();
    let store = store_on(&server).await;
    // A wait that ends quietly keeps its connection for the next one.
    let job = store
        .next_job("r", MINUTE, Duration::from_millis(50))
        .await
        .expect("next_job");
    assert_eq!(job, None);
    server.restart();
    let deadline = Instant::now() + Duration::from_secs(15);
    while let Err(e) = store.job_counts().await {
        assert!(Instant::now() < deadline, "the store did not recover: {e}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The kept connection died with the old server: the next wait uses a new one, quietly.
    let start = Instant::now();
    let job = store
        .next_job("r", MINUTE, Duration::from_millis(300))
        .await
        .expect("a wait after the restart");
    assert_eq!(job, None);
    assert!(start.elapsed() >= Duration::from_millis(299));
}

#[tokio::test]
async fn a_wait_given_up_by_its_caller_leaves_no_job_behind() {
    let server = RedisServer::start();
    let store = store_on(&server).await;
    let given_up = tokio::time::timeout(
        Duration::from_millis(200),
        store.next_job("quitter", MINUTE, Duration::from_secs(30)),
    )
    .await;
    assert!(given_up.is_err(), "still waiting when given up");
    // Its connection closes with it, so Redis does not hand it the next job.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let id = store.enqueue_job("t", b"job").await.expect("enqueue");
    let job = store
        .next_job("other", MINUTE, Duration::ZERO)
        .await
        .expect("next_job")
        .expect("the job was not swallowed by the abandoned wait");
    assert_eq!((job.entry_id, job.deliveries), (id, 1));
}

#[tokio::test]
async fn damaged_jobs_results_and_bots_are_corrupt_naming_the_key() {
    let server = RedisServer::start();
    let store = store_on(&server).await;
    let id: String = raw(
        &server,
        &["XADD", "arena:{ctl}:jobs", "*", "tabel", "t", "job", "x"],
    );
    match store.next_job("r", MINUTE, Duration::ZERO).await {
        Err(StoreError::Corrupt { key, reason }) => {
            assert_eq!(key, format!("arena:{{ctl}}:jobs entry {id}"));
            assert!(reason.contains("tabel"), "{reason}");
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
    // The damaged entry stays (nothing is lost) and can be acknowledged away.
    store.ack_job(&id).await.expect("ack");
    assert_eq!(
        store.job_counts().await.expect("counts"),
        JobCounts::default()
    );

    store.add_bot(&sample_bot("b1")).await.expect("add bot");
    let _: i64 = raw(&server, &["HSET", "arena:bots", "b1", "{not json"]);
    for result in [
        store.bot("b1").await.map(|_| ()),
        store.bots().await.map(|_| ()),
    ] {
        match result {
            Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "arena:bots field b1"),
            other => panic!("expected Corrupt, got {other:?}"),
        }
    }
    let json = serde_json::to_string(&sample_bot("b2")).expect("json");
    let _: i64 = raw(&server, &["HSET", "arena:bots", "b3", &json]);
    match store.bot("b3").await {
        Err(StoreError::Corrupt { key, reason }) => {
            assert_eq!(key, "arena:bots field b3");
            assert!(reason.contains("b2"), "{reason}");
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }

    let _: i64 = raw(&server, &["SADD", "arena:{c:cup}:results", "cup/t-missing"]);
    match store.results_for("cup").await {
        Err(StoreError::Corrupt { key, .. }) => {
            assert_eq!(key, "arena:{c:cup}:result:cup/t-missing")
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
    let _: i64 = raw(&server, &["HSET", "arena:{c:t9}:result:t9", "a", "b"]);
    match store.result("t9").await {
        Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "arena:{c:t9}:result:t9"),
        other => panic!("expected Corrupt, got {other:?}"),
    }
    let _: String = raw(&server, &["SET", "arena:presence:b1", "x"]);
    match store.presence("b1").await {
        Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "arena:presence:b1"),
        other => panic!("expected Corrupt, got {other:?}"),
    }
}
