//! The whole path on Redis: a table-referee and a bot-host, three remote bots over real gRPC on
//! loopback, 200 tables from the job stream; every result present exactly once, also when a
//! referee is killed halfway. Each test uses its own key prefix on the local Redis and removes its
//! keys afterwards.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_auth::token::issue_token;
use arena_bot_host::{BotHost, BotHostConfig};

/// The cluster token bot-host and the referees share in this test.
const CLUSTER_TOKEN: &str = "test-cluster-token";
use arena_proto::v1;
use arena_referee::RefereeConfig;
use arena_store::{BotKind, BotRecord, RedisStore, Store};
use common::redis::{REDIS, cleanup, prefix};
use prost::Message;

const BOTS: [&str; 3] = ["north", "east", "west"];

/// Registers the three remote bots and returns their tokens.
async fn register(store: &dyn Store) -> Vec<String> {
    let mut tokens = Vec::new();
    for name in BOTS {
        let (token, hash) = issue_token().unwrap();
        let record = BotRecord {
            name: name.into(),
            kind: BotKind::Remote,
            token_sha256: Some(hash),
            max_tables: 0,
            created_unix_ms: 0,
        };
        assert!(store.add_bot(&record).await.unwrap());
        tokens.push(token);
    }
    tokens
}

fn job(prefix: &str, i: u64) -> v1::TableJob {
    v1::TableJob {
        table_id: format!("{prefix}-t{i}"),
        game: v1::Game::DouDizhu as i32,
        seats: BOTS
            .iter()
            .map(|b| v1::SeatSpec { bot: (*b).into() })
            .collect(),
        setup: Some(v1::table_job::Setup::Ddz(v1::DdzSetup {
            deal: ddz::Deal::generate(77, i).to_string(),
            rules: "competition".into(),
            landlord: Some(v1::ddz_setup::Landlord::FixedLandlord((i % 3) as u32)),
            fixed_bid: 1,
            doubling: false,
            scoring: "competition".into(),
        })),
        time: Some(v1::TimeControl {
            decision_ms: 2000,
            hard_cap_ms: 10_000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: i,
        competition: prefix.into(),
        ..Default::default()
    }
}

fn referee_config(id: &str, host: &str) -> RefereeConfig {
    RefereeConfig {
        referee_id: id.into(),
        cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
        bot_hosts: vec![host.into()],
        max_tables: 24,
        reclaim_after: Duration::from_secs(3),
        touch_interval: Duration::from_millis(500),
        shutdown_grace: Duration::from_secs(2),
        poll_interval: Duration::from_millis(50),
        ..RefereeConfig::default()
    }
}

async fn start_referee(
    id: &str,
    host: &str,
    store: Arc<dyn Store>,
) -> (
    tokio::task::JoinHandle<()>,
    tokio::sync::oneshot::Sender<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let cfg = referee_config(id, host);
    let handle = tokio::spawn(async move {
        arena_referee::serve_with_listener(listener, cfg, store, async {
            let _ = rx.await;
        })
        .await
        .unwrap();
    });
    (handle, tx)
}

async fn wait_for_results(
    store: &dyn Store,
    competition: &str,
    n: usize,
    within: Duration,
) -> Vec<(String, Vec<u8>)> {
    let start = Instant::now();
    loop {
        let results = store.results_for(competition).await.unwrap();
        if results.len() >= n || start.elapsed() > within {
            return results;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

struct Stack {
    store: Arc<dyn Store>,
    seat_url: String,
    host_stop: tokio::sync::oneshot::Sender<()>,
    bots: Vec<tokio::task::JoinHandle<()>>,
}

async fn stack(prefix: &str) -> Stack {
    let store: Arc<dyn Store> = Arc::new(RedisStore::connect(REDIS, prefix).await.unwrap());
    let tokens = register(&*store).await;
    let host = BotHost::bind(
        BotHostConfig {
            cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
            ..BotHostConfig::loopback()
        },
        store.clone(),
    )
    .await
    .unwrap();
    let host_url = format!("http://{}", host.local_addr());
    let seat_url = host.advertised().to_string();
    let (host_stop, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        host.run(async {
            let _ = rx.await;
        })
        .await
        .unwrap();
    });
    let mut bots = Vec::new();
    for (name, token) in BOTS.iter().zip(tokens) {
        let (url, name) = (host_url.clone(), name.to_string());
        bots.push(tokio::spawn(async move {
            let _ = arena_example_remote_bot::play(&url, &name, &token, 256, 0).await;
        }));
    }
    // Let the bots connect before tables ask for them.
    for name in BOTS {
        let start = Instant::now();
        while store.presence(name).await.unwrap().is_empty()
            && start.elapsed() < Duration::from_secs(10)
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    Stack {
        store,
        seat_url,
        host_stop,
        bots,
    }
}

fn check_results(results: &[(String, Vec<u8>)], prefix: &str, n: u64) {
    let mut ids: Vec<&str> = results.iter().map(|(id, _)| id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len() as u64, n, "every table exactly once");
    for (id, bytes) in results {
        assert!(id.starts_with(prefix));
        let r = v1::TableResult::decode(bytes.as_slice()).unwrap();
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_tables_with_three_remote_bots_each_counted_once() {
    let prefix = prefix("200");
    let s = stack(&prefix).await;
    let (referee, stop) = start_referee("r1", &s.seat_url, s.store.clone()).await;
    for i in 0..200 {
        let j = job(&prefix, i);
        s.store
            .enqueue_job(&j.table_id, &arena_table::queue::encode_table_job(&j))
            .await
            .unwrap();
    }
    let results = wait_for_results(&*s.store, &prefix, 200, Duration::from_secs(240)).await;
    check_results(&results, &prefix, 200);
    let counts = s.store.job_counts().await.unwrap();
    assert_eq!(
        (counts.waiting, counts.pending),
        (0, 0),
        "every job acknowledged"
    );
    let _ = stop.send(());
    let _ = referee.await;
    let _ = s.host_stop.send(());
    s.bots.iter().for_each(|b| b.abort());
    cleanup(&prefix).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referee_killed_halfway_loses_no_table_and_counts_none_twice() {
    let prefix = prefix("kill");
    let s = stack(&prefix).await;
    let (doomed, _doomed_stop) = start_referee("doomed", &s.seat_url, s.store.clone()).await;
    for i in 0..200 {
        let j = job(&prefix, i);
        s.store
            .enqueue_job(&j.table_id, &arena_table::queue::encode_table_job(&j))
            .await
            .unwrap();
    }
    // Let the first referee take tables, then kill it mid-flight (no shutdown, no acks).
    let halfway = wait_for_results(&*s.store, &prefix, 60, Duration::from_secs(120)).await;
    assert!(halfway.len() >= 60);
    doomed.abort();
    let (survivor, stop) = start_referee("survivor", &s.seat_url, s.store.clone()).await;
    let results = wait_for_results(&*s.store, &prefix, 200, Duration::from_secs(240)).await;
    check_results(&results, &prefix, 200);
    let _ = stop.send(());
    let _ = survivor.await;
    let _ = s.host_stop.send(());
    s.bots.iter().for_each(|b| b.abort());
    cleanup(&prefix).await;
}
