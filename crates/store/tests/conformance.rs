//! The conformance suite against every backend: the embedded store in a fresh directory, Redis
//! on the machine's shared server under a fresh prefix, and Redis on a server of the test's own.
//! Every test makes its own store, so none depends on another.

mod common;

use std::any::Any;
use std::sync::Arc;
use std::time::Duration;

use arena_store::{EmbeddedStore, RedisStore, Store, conformance};
use arena_testkit::redis_server::RedisServer;

/// Two handles of one fresh store, and whatever must live as long as they do.
struct Fixture {
    first: Arc<dyn Store>,
    second: Arc<dyn Store>,
    _guard: Box<dyn Any>,
}

async fn embedded() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = EmbeddedStore::open(dir.path()).expect("open");
    let second = EmbeddedStore::open(dir.path()).expect("open again");
    Fixture {
        first: Arc::new(first),
        second: Arc::new(second),
        _guard: Box::new(dir),
    }
}

async fn redis_shared() -> Fixture {
    let (first, cleanup) = common::shared_redis_store().await;
    let second = RedisStore::connect(common::SHARED_REDIS, first.prefix())
        .await
        .expect("second connection");
    Fixture {
        first: Arc::new(first),
        second: Arc::new(second),
        _guard: Box::new(cleanup),
    }
}

/// Two connections under one fresh prefix to `server`, which the fixture keeps running.
async fn two_connections(server: RedisServer) -> Fixture {
    let prefix = common::random_prefix();
    let first = RedisStore::connect(&server.url(), &prefix)
        .await
        .expect("connect");
    let second = RedisStore::connect(&server.url(), &prefix)
        .await
        .expect("second connection");
    Fixture {
        first: Arc::new(first),
        second: Arc::new(second),
        _guard: Box::new(server),
    }
}

async fn redis_private() -> Fixture {
    let server = RedisServer::start();
    two_connections(server).await
}

/// A private `redis-server` in cluster mode owning every slot: one node, so a plain connection
/// reaches every key, but it refuses (`CROSSSLOT`) any command, transaction or script whose keys
/// lie in more than one slot, as Redis Cluster does. The suite passing here is what says arena's
/// keys are hash-tagged so that each call stays in one slot.
async fn redis_cluster() -> Fixture {
    let server = RedisServer::builder()
        .args(&[
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            "nodes.conf",
        ])
        .start();
    let mut conn = redis::Client::open(server.url())
        .and_then(|c| c.get_connection())
        .expect("raw connection");
    redis::cmd("CLUSTER")
        .arg("ADDSLOTSRANGE")
        .arg(0)
        .arg(16383)
        .exec(&mut conn)
        .expect("assign every slot");
    // The node serves its slots once it has seen its own configuration: wait for that.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let info: String = redis::cmd("CLUSTER")
            .arg("INFO")
            .query(&mut conn)
            .expect("cluster info");
        if info.contains("cluster_state:ok") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the cluster did not become ok: {info}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    two_connections(server).await
}

macro_rules! suite {
    ($backend:ident, $flavor:literal) => {
        mod $backend {
            use super::*;

            #[tokio::test(flavor = $flavor)]
            async fn panels_round_trip() {
                let f = super::$backend().await;
                conformance::panels_round_trip(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn put_deals_is_idempotent() {
                let f = super::$backend().await;
                conformance::put_deals_is_idempotent(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn deals_and_indices_are_consistent() {
                let f = super::$backend().await;
                conformance::deals_and_indices_are_consistent(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn invalid_input_is_rejected() {
                let f = super::$backend().await;
                conformance::invalid_input_is_rejected(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn claims() {
                let f = super::$backend().await;
                conformance::claims(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn concurrent_claims_through_two_handles() {
                let f = super::$backend().await;
                let (a, b) = (&*f.first, &*f.second);
                conformance::concurrent_claims(&[a, b, a, b, a]).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn concurrent_claims_from_tasks_through_two_handles() {
                let f = super::$backend().await;
                let stores = [f.first.clone(), f.second.clone()];
                conformance::concurrent_claims_from_tasks(&stores).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn watchers_wake_for_writes_through_another_handle() {
                let f = super::$backend().await;
                conformance::watchers_wake_for_their_writes(&*f.first, &*f.second).await;
            }
            #[tokio::test(flavor = $flavor)]
            async fn watchers_wake_for_writes_through_their_own_handle() {
                let f = super::$backend().await;
                conformance::watchers_wake_for_their_writes(&*f.first, &*f.first).await;
            }
            #[tokio::test(flavor = $flavor)]
            async fn bad_watch_topics_are_refused() {
                let f = super::$backend().await;
                conformance::bad_watch_topics_are_refused(&*f.first).await;
            }
            #[tokio::test(flavor = $flavor)]
            async fn large_batch() {
                let f = super::$backend().await;
                conformance::large_batch(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn second_handle_sees_the_first_handles_writes() {
                let f = super::$backend().await;
                let panel = conformance::sample_panel(&conformance::unique("shared-view"));
                f.first.put_panel(&panel).await.expect("put");
                assert_eq!(f.second.panel(&panel.id).await.expect("read"), Some(panel));

                let bot = conformance::sample_bot(&conformance::unique("shared-bot"));
                assert!(f.first.add_bot(&bot).await.expect("add bot"));
                assert!(!f.second.add_bot(&bot).await.expect("add bot"), "taken");
                assert_eq!(
                    f.second.bot(&bot.name).await.expect("bot"),
                    Some(bot.clone())
                );
                f.first
                    .set_presence(&bot.name, "host-1", Duration::from_secs(60))
                    .await
                    .expect("presence");
                assert_eq!(
                    f.second.presence(&bot.name).await.expect("presence"),
                    vec!["host-1".to_string()]
                );
                let table = conformance::unique("shared-table");
                assert!(
                    f.first
                        .put_result(&table, None, b"r", b"p")
                        .await
                        .expect("put")
                );
                assert!(
                    !f.second
                        .put_result(&table, None, b"x", b"y")
                        .await
                        .expect("put")
                );
                assert_eq!(
                    f.second.result(&table).await.expect("result"),
                    Some(b"r".to_vec())
                );
                let id = f.first.enqueue_job(&table, b"job").await.expect("enqueue");
                let job = f
                    .second
                    .next_job("shared-view", Duration::from_secs(60), Duration::ZERO)
                    .await
                    .expect("next_job")
                    .expect("the job enqueued through the first handle");
                assert_eq!(job.entry_id, id);
                f.first.ack_job(&id).await.expect("ack");
                assert_eq!(
                    f.second.job_counts().await.expect("counts"),
                    Default::default()
                );
            }

            #[tokio::test(flavor = $flavor)]
            async fn jobs_fifo_and_ack() {
                let f = super::$backend().await;
                conformance::jobs_fifo_and_ack(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn idle_jobs_are_reclaimed_through_another_handle() {
                let f = super::$backend().await;
                conformance::idle_jobs_are_reclaimed(&*f.first, &*f.second).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn touched_jobs_stay() {
                let f = super::$backend().await;
                conformance::touched_jobs_stay(&*f.first, &*f.second).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn next_job_waits() {
                let f = super::$backend().await;
                conformance::next_job_waits(&*f.first, &*f.second).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn next_job_wakes_for_another_tasks_job() {
                let f = super::$backend().await;
                conformance::next_job_wakes_for_another_tasks_job(
                    f.first.clone(),
                    f.second.clone(),
                )
                .await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn consumers_drain_the_queue_once() {
                let f = super::$backend().await;
                let (a, b) = (&*f.first, &*f.second);
                conformance::consumers_drain_the_queue(&[a, b, a, b], false).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn consumers_finish_a_dying_consumers_jobs() {
                let f = super::$backend().await;
                let (a, b) = (&*f.first, &*f.second);
                conformance::consumers_drain_the_queue(&[a, b, a, b], true).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn consumers_in_tasks_drain_the_queue_once() {
                let f = super::$backend().await;
                let stores = [
                    f.first.clone(),
                    f.second.clone(),
                    f.first.clone(),
                    f.second.clone(),
                ];
                conformance::consumers_drain_the_queue_from_tasks(&stores, false).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn consumers_in_tasks_finish_a_dying_consumers_jobs() {
                let f = super::$backend().await;
                let stores = [
                    f.first.clone(),
                    f.second.clone(),
                    f.first.clone(),
                    f.second.clone(),
                ];
                conformance::consumers_drain_the_queue_from_tasks(&stores, true).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn results_are_written_once() {
                let f = super::$backend().await;
                let (a, b) = (&*f.first, &*f.second);
                conformance::results_are_written_once(&[a, b, a, b]).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn records_and_swaps() {
                let f = super::$backend().await;
                let (a, b) = (&*f.first, &*f.second);
                conformance::records_and_swaps(&[a, b, a, b]).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn bots_register_once() {
                let f = super::$backend().await;
                conformance::bots_register_once(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn presence_expires() {
                let f = super::$backend().await;
                conformance::presence_expires(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn records_are_deleted() {
                let f = super::$backend().await;
                conformance::records_are_deleted(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn results_are_deleted() {
                let f = super::$backend().await;
                conformance::results_are_deleted(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn bots_are_removed() {
                let f = super::$backend().await;
                conformance::bots_are_removed(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn presence_is_claimed_by_one_host_through_two_handles() {
                let f = super::$backend().await;
                conformance::presence_is_claimed_by_one_host(&*f.first).await;
                conformance::presence_is_claimed_by_one_host(&*f.second).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn jobs_in_batches() {
                let f = super::$backend().await;
                conformance::jobs_in_batches(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn own_jobs_are_resumed() {
                let f = super::$backend().await;
                conformance::own_jobs_are_resumed(&*f.first).await;
            }

            #[tokio::test(flavor = $flavor)]
            async fn instance_is_stable_across_handles() {
                let f = super::$backend().await;
                conformance::instance_is_stable(&*f.first).await;
                let id = f.first.open_instance().await.expect("open");
                assert_eq!(f.second.open_instance().await.expect("open"), id);
            }

            #[tokio::test(flavor = $flavor)]
            async fn job_and_result_input_is_rejected() {
                let f = super::$backend().await;
                conformance::job_and_result_input_is_rejected(&*f.first).await;
            }
        }
    };
}

suite!(embedded, "multi_thread");
suite!(redis_shared, "multi_thread");
// The CLI drives stores from a small current-thread runtime: the private server's tests do too.
suite!(redis_private, "current_thread");
suite!(redis_cluster, "current_thread");
