//! How the Redis store behaves when Redis goes away, comes back, or holds damaged data, and that
//! it keeps to the keys documented in `docs/redis-keys.md`.

mod common;

use std::time::{Duration, Instant};

use arena_store::conformance::{generated, sample_panel, sample_record};
use arena_store::prelude::*;
use arena_store::{DealSource, RedisStore, StoreError};
use arena_testkit::redis_server::RedisServer;

fn expect_unavailable_naming<T: std::fmt::Debug>(addr: &str, result: Result<T, StoreError>) {
    match result {
        Err(StoreError::Unavailable(message)) => assert!(
            message.contains(&format!("redis at {addr}")),
            "message should name the address {addr}: {message}"
        ),
        other => panic!("expected Unavailable naming {addr}, got {other:?}"),
    }
}

#[tokio::test]
async fn connecting_to_nothing_is_unavailable_naming_the_address() {
    // A port that was free a moment ago: nothing listens there.
    let port = arena_testkit::free_port();
    let addr = format!("127.0.0.1:{port}");
    match RedisStore::connect(&format!("redis://{addr}"), "arena").await {
        Err(StoreError::Unavailable(message)) => {
            assert_eq!(message, format!("redis at {addr}: connection refused"))
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
}

#[tokio::test]
async fn bad_urls_and_prefixes_are_invalid() {
    for url in ["", "http://127.0.0.1:6379", "redis://127.0.0.1:notaport"] {
        match RedisStore::connect(url, "arena").await {
            Err(StoreError::Invalid(message)) => {
                assert!(message.contains("redis URL"), "{message}")
            }
            other => panic!("{url:?}: expected Invalid, got {other:?}"),
        }
    }
    for prefix in ["", "a b", "arena*", "x\n"] {
        match RedisStore::connect(common::SHARED_REDIS, prefix).await {
            Err(StoreError::Invalid(message)) => assert!(message.contains("prefix"), "{message}"),
            other => panic!("{prefix:?}: expected Invalid, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn redis_going_away_is_unavailable_and_the_store_recovers_when_it_is_back() {
    let mut server = RedisServer::start();
    let store = RedisStore::connect(&server.url(), "arena")
        .await
        .expect("connect");
    let panel = sample_panel("p-before");
    store.put_panel(&panel).await.expect("put while up");
    assert!(
        store.describe().contains(&server.addr()),
        "{}",
        store.describe()
    );

    server.kill();
    let source = DealSource {
        seed: 1,
        bombs: None,
    };
    let record = generated("p-before", source, 0);
    expect_unavailable_naming(&server.addr(), store.panel("p-before").await);
    expect_unavailable_naming(
        &server.addr(),
        store.put_deals(std::slice::from_ref(&record)).await,
    );
    expect_unavailable_naming(
        &server.addr(),
        store.claim_deals("c", &["d".to_string()]).await,
    );
    expect_unavailable_naming(
        &server.addr(),
        store.measured_indices("p-before", &source).await,
    );

    // Back on the same port (empty: it keeps nothing on disk). The manager reconnects by itself;
    // calls may fail while it does, and must work again within a few seconds.
    server.restart();
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        match store.put_deals(std::slice::from_ref(&record)).await {
            Ok(new) => {
                assert_eq!(new, 1, "the restarted server is empty");
                break;
            }
            Err(StoreError::Unavailable(message)) if Instant::now() < deadline => {
                assert!(message.contains(&server.addr()), "{message}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("the store did not recover: {e}"),
        }
    }
    assert_eq!(
        store.deal("p-before", &record.id).await.expect("read"),
        Some(record)
    );
    assert_eq!(
        store
            .measured_indices("p-before", &source)
            .await
            .expect("indices"),
        vec![0]
    );
    assert_eq!(
        store
            .claim_deals("c", &["d".to_string()])
            .await
            .expect("claim"),
        vec![true]
    );
}

/// Writes a raw value with a connection of its own, as a bug elsewhere or an operator might.
fn raw(url: &str, args: &[&str]) {
    let mut conn = redis::Client::open(url)
        .and_then(|c| c.get_connection())
        .expect("raw connection");
    let mut cmd = redis::cmd(args[0]);
    for arg in &args[1..] {
        cmd.arg(*arg);
    }
    let _: redis::Value = cmd.query(&mut conn).expect("raw command");
}

#[tokio::test]
async fn damaged_values_are_corrupt_naming_the_key() {
    let server = RedisServer::start();
    let url = server.url();
    let store = RedisStore::connect(&url, "arena").await.expect("connect");
    store
        .put_deals(&[sample_record("p1", "i-1", None)])
        .await
        .expect("put");

    raw(
        &url,
        &["HSET", "arena:{p:p1}:deals", "i-1", "\u{1}not json"],
    );
    for result in [
        store.deal("p1", "i-1").await.map(|_| ()),
        store.deals("p1").await.map(|_| ()),
    ] {
        match result {
            Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "arena:{p:p1}:deals field i-1"),
            other => panic!("expected Corrupt naming the field, got {other:?}"),
        }
    }

    // A record filed under another id.
    let other = serde_json::to_string(&sample_record("p1", "i-2", None)).expect("json");
    raw(&url, &["HSET", "arena:{p:p1}:deals", "i-3", &other]);
    match store.deal("p1", "i-3").await {
        Err(StoreError::Corrupt { key, reason }) => {
            assert_eq!(key, "arena:{p:p1}:deals field i-3");
            assert!(reason.contains("i-2"), "{reason}");
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }

    raw(&url, &["HSET", "arena:{ctl}:panels", "p1", "[1,2"]);
    match store.panels().await {
        Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "arena:{ctl}:panels field p1"),
        other => panic!("expected Corrupt, got {other:?}"),
    }

    // A key of the wrong type.
    raw(&url, &["SET", "arena:{p:p2}:deals", "a string"]);
    match store.deal_count("p2").await {
        Err(StoreError::Corrupt { key, .. }) => assert_eq!(key, "arena:{p:p2}:deals"),
        other => panic!("expected Corrupt, got {other:?}"),
    }
    let source = DealSource {
        seed: 3,
        bombs: Some(1),
    };
    raw(
        &url,
        &["SADD", "arena:{p:p1}:measured-chunks:g3-b1", "zero"],
    );
    match store.measured_indices("p1", &source).await {
        Err(StoreError::Corrupt { key, .. }) => {
            assert_eq!(key, "arena:{p:p1}:measured-chunks:g3-b1")
        }
        other => panic!("expected Corrupt, got {other:?}"),
    }
}

/// The key patterns in `docs/redis-keys.md`: backticked text starting with `{prefix}:`.
fn documented_patterns() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/redis-keys.md");
    let doc = std::fs::read_to_string(path).expect("docs/redis-keys.md exists");
    doc.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("{prefix}:"))
        .map(str::to_string)
        .collect()
}

/// True if `key` matches `pattern`, where each `{name}` stands for one or more characters.
fn matches(pattern: &str, key: &str) -> bool {
    let Some(open) = pattern.find('{') else {
        return pattern == key;
    };
    let close = open + pattern[open..].find('}').expect("closed placeholder");
    let (literal, rest) = (&pattern[..open], &pattern[close + 1..]);
    let Some(key) = key.strip_prefix(literal) else {
        return false;
    };
    (1..=key.len())
        .filter(|&n| key.is_char_boundary(n))
        .any(|n| matches(rest, &key[n..]))
}

#[tokio::test]
async fn every_key_written_is_under_the_prefix_and_documented() {
    let patterns = documented_patterns();
    assert!(patterns.len() >= 11, "patterns found: {patterns:?}");
    let server = RedisServer::start();
    let prefix = "arena-doc:test";
    let store = RedisStore::connect(&server.url(), prefix)
        .await
        .expect("connect");
    // Every kind of write.
    store.put_panel(&sample_panel("p-1")).await.expect("panel");
    let source = DealSource {
        seed: 9,
        bombs: Some(2),
    };
    let mut batch: Vec<_> = [0, 70_000, 1 << 33]
        .into_iter()
        .map(|i| generated("p-1", source, i))
        .collect();
    batch.push(sample_record("p-1", "i-import", None));
    store.put_deals(&batch).await.expect("deals");
    store
        .claim_deals("cup", &[batch[0].id.clone()])
        .await
        .expect("claim");
    // Ids with colons: placeholders may hold them where they end the key.
    let id = store.enqueue_job("t:1", b"job").await.expect("enqueue");
    let reclaim = Duration::from_secs(60);
    store
        .next_job("referee-0", reclaim, Duration::ZERO)
        .await
        .expect("next_job")
        .expect("the job");
    store.touch_job("referee-0", &id).await.expect("touch");
    store
        .put_result("cup:2026/t:1", Some("cup:2026"), b"result", b"replay")
        .await
        .expect("result");
    store.ack_job(&id).await.expect("ack");
    store
        .add_bot(&arena_store::conformance::sample_bot("bot:x"))
        .await
        .expect("bot");
    store
        .set_presence("bot:x", "10.0.0.7:50051", Duration::from_secs(60))
        .await
        .expect("presence");

    let mut conn = redis::Client::open(server.url())
        .and_then(|c| c.get_connection())
        .expect("raw connection");
    let keys: Vec<String> = redis::cmd("KEYS").arg("*").query(&mut conn).expect("keys");
    assert_eq!(
        keys.len(),
        1 + 2 + 1 + 3 + 1 + 1 + 3 + 1 + 1,
        "keys: {keys:?}"
    );
    for key in &keys {
        let key = key
            .strip_prefix(prefix)
            .unwrap_or_else(|| panic!("{key} is outside the prefix"));
        let key = format!("{{prefix}}{key}");
        assert!(
            patterns.iter().any(|p| matches(p, &key)),
            "{key} matches no pattern in docs/redis-keys.md: {patterns:?}"
        );
    }
}

#[test]
fn the_pattern_matcher_matches_placeholders_only() {
    assert!(matches("{prefix}:deals:{panel}", "{prefix}:deals:p-1"));
    assert!(matches(
        "{prefix}:m:{panel}:{source}",
        "{prefix}:m:p:1:g1-bx"
    ));
    assert!(!matches("{prefix}:deals:{panel}", "{prefix}:deals:"));
    assert!(!matches("{prefix}:panels", "{prefix}:panels:x"));
}

/// After Redis loses its data under a live handle (here a FLUSHALL, as a restart without
/// persistence or a failover to an empty replica would), every fenced write of that handle is
/// refused with `DataLoss` and writes nothing; the loss is reported by `check_instance`; a new
/// handle opens a new instance, which the old one still refuses.
#[tokio::test]
async fn writes_after_the_store_lost_its_data_are_refused() {
    let server = RedisServer::start();
    let store = RedisStore::connect(&server.url(), "arena")
        .await
        .expect("connect");
    let id = store.open_instance().await.expect("open");
    assert!(
        store
            .put_result("cup/t-before", Some("cup"), b"r", b"p")
            .await
            .expect("write while whole")
    );
    raw(&server.url(), &["FLUSHALL"]);

    let loss = |what: &str, r: Result<(), StoreError>| match r {
        Err(StoreError::DataLoss(m)) => assert!(m.contains("instance"), "{what}: {m}"),
        other => panic!("{what}: expected DataLoss, got {other:?}"),
    };
    loss(
        "put_result",
        store
            .put_result("cup/t-after", Some("cup"), b"r", b"p")
            .await
            .map(drop),
    );
    loss(
        "enqueue_job",
        store.enqueue_job("t-after", b"job").await.map(drop),
    );
    loss(
        "put_record",
        store.put_record("competition", "cup", b"x").await,
    );
    loss(
        "swap_record",
        store
            .swap_record("competition", "cup", None, b"x")
            .await
            .map(drop),
    );
    loss(
        "claim_deals",
        store.claim_deals("cup", &["d".to_string()]).await.map(drop),
    );
    loss(
        "put_deals",
        store
            .put_deals(&[sample_record("p-1", "i-1", None)])
            .await
            .map(drop),
    );
    loss("put_panel", store.put_panel(&sample_panel("p-1")).await);
    loss("check_instance", store.check_instance(&id).await);
    loss("open_instance", store.open_instance().await.map(drop));
    let mut conn = redis::Client::open(server.url())
        .and_then(|c| c.get_connection())
        .expect("raw connection");
    let keys: Vec<String> = redis::cmd("KEYS").arg("*").query(&mut conn).expect("keys");
    assert!(
        keys.is_empty(),
        "nothing was written after the loss: {keys:?}"
    );

    // A role started now sees a store that is whole (and new); the old handle still refuses.
    let fresh = RedisStore::connect(&server.url(), "arena")
        .await
        .expect("connect");
    let new_id = fresh.open_instance().await.expect("open");
    assert_ne!(new_id, id);
    assert!(
        fresh
            .put_result("t-new", None, b"r", b"p")
            .await
            .expect("the new handle writes")
    );
    loss("check_instance", store.check_instance(&id).await);
    loss(
        "put_result",
        store.put_result("t-old", None, b"r", b"p").await.map(drop),
    );
}

/// The store-level watch never leaves a watcher hanging on a lost subscription: Redis going
/// away wakes it (its reader rescans, and finds Redis down), Redis coming back wakes it again
/// once the subscription is made anew (changes published meanwhile are unknown), and writes are
/// heard as before.
#[tokio::test]
async fn a_watcher_wakes_when_redis_goes_away_and_again_when_it_is_back() {
    use arena_store::{Topic, Watcher};
    async fn woken(w: &mut Watcher, what: &str) {
        // A bound far beyond any delivery or reconnection: a missed wake-up, not a slow one.
        tokio::time::timeout(Duration::from_secs(30), w.changed())
            .await
            .unwrap_or_else(|_| panic!("{what}: the watcher was not woken"));
    }
    let mut server = RedisServer::start();
    let prefix = common::random_prefix();
    let store = RedisStore::connect(&server.url(), &prefix)
        .await
        .expect("connect");
    let writer = RedisStore::connect(&server.url(), &prefix)
        .await
        .expect("connect");
    // Subscribed once a write of the probe's topic (or the subscription itself) wakes it.
    let mut probe = store.watch(&Topic::Records("probe".into())).expect("watch");
    writer.put_record("probe", "k", b"1").await.expect("write");
    woken(&mut probe, "the probe").await;

    let mut w = store.watch(&Topic::Results("cup".into())).expect("watch");
    assert!(!w.has_changed());
    server.kill();
    woken(&mut w, "Redis going away").await;
    assert!(
        !w.has_changed(),
        "while Redis is down, failed attempts to subscribe wake nobody"
    );
    server.restart();
    woken(&mut w, "the subscription made again").await;
    // The writer's connection comes back by itself; its next write is heard.
    let deadline = Instant::now() + Duration::from_secs(30);
    while let Err(e) = writer.put_result("cup/t0", Some("cup"), b"r", b"p").await {
        assert!(Instant::now() < deadline, "Redis did not come back: {e}");
        tokio::task::yield_now().await;
    }
    woken(&mut w, "a write after the restart").await;
    // The watching handle's own connection was cut too; its first call may find that out.
    let count = loop {
        match store.result_count("cup").await {
            Ok(n) => break n,
            Err(e) => assert!(Instant::now() < deadline, "Redis did not come back: {e}"),
        }
    };
    assert_eq!(count, 1);
}
