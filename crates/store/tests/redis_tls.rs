//! `rediss://`: the Redis store over TLS to a `redis-server` whose certificate comes from a CA
//! made in the test, with and without trusting that CA, with client certificates; and that no
//! error or description ever repeats a password of the URL.

use arena_store::conformance::sample_panel;
use arena_store::prelude::*;
use arena_store::redis::RedisOptions;
use arena_store::{RedisStore, StoreError};
use arena_test_ca::TestCa;
use arena_testkit::free_port;
use arena_testkit::redis_server::RedisServer;

/// A CA, and a Redis with a TLS port presenting a certificate it signed for 127.0.0.1.
fn tls_redis(verify_clients: bool) -> (TestCa, RedisServer) {
    let ca = TestCa::new("arena redis test CA");
    let server = ca.server(&["127.0.0.1", "localhost"]);
    let redis = RedisServer::builder()
        .tls(
            &server.cert_file,
            &server.key_file,
            ca.cert_file(),
            verify_clients,
        )
        .start();
    (ca, redis)
}

fn trusting(ca: &TestCa) -> RedisOptions {
    RedisOptions {
        ca_file: Some(ca.cert_file().to_path_buf()),
        ..RedisOptions::default()
    }
}

fn tls_addr(redis: &RedisServer) -> String {
    format!("127.0.0.1:{}", redis.tls_port().expect("a TLS port"))
}

#[tokio::test]
async fn rediss_trusting_the_test_ca_connects_and_stores() {
    let (ca, redis) = tls_redis(false);
    let store = RedisStore::connect_with(&redis.tls_url(), "arena", &trusting(&ca))
        .await
        .expect("connect over TLS trusting the test CA");
    assert!(store.is_tls());
    let panel = sample_panel("p-tls");
    store.put_panel(&panel).await.expect("write over TLS");
    assert_eq!(
        store.panel("p-tls").await.expect("read over TLS"),
        Some(panel)
    );
    assert_eq!(
        store.describe(),
        format!("redis ({} over TLS, prefix arena)", tls_addr(&redis))
    );
    // The same server's plain port is not TLS, and says so.
    let plain = RedisStore::connect(&redis.url(), "arena")
        .await
        .expect("plain");
    assert!(!plain.is_tls());
    assert!(!plain.describe().contains("TLS"), "{}", plain.describe());
}

#[tokio::test]
async fn rediss_not_trusting_the_ca_is_unavailable_naming_the_address_and_tls() {
    let (_ca, redis) = tls_redis(false);
    let url = format!(
        "rediss://arena:hunter2-secret@{}",
        tls_addr(&redis).as_str()
    );
    // The system's roots do not include the test's CA.
    match RedisStore::connect(&url, "arena").await {
        Err(StoreError::Unavailable(message)) => {
            assert!(
                message.starts_with(&format!("redis at {}: ", tls_addr(&redis))),
                "{message}"
            );
            assert!(message.contains("TLS"), "no TLS reason: {message}");
            assert!(message.contains("certificate"), "no reason: {message}");
            assert!(!message.contains("hunter2"), "password leaked: {message}");
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
    // Another CA's certificate is no better.
    let other = TestCa::new("some other CA");
    match RedisStore::connect_with(&url, "arena", &trusting(&other)).await {
        Err(StoreError::Unavailable(message)) => {
            assert!(message.contains("certificate"), "{message}");
            assert!(!message.contains("hunter2"), "password leaked: {message}");
        }
        other => panic!("expected Unavailable, got {other:?}"),
    }
}

#[tokio::test]
async fn a_server_that_verifies_clients_takes_a_client_certificate_from_its_ca() {
    let (ca, redis) = tls_redis(true);
    let url = redis.tls_url();
    match RedisStore::connect_with(&url, "arena", &trusting(&ca)).await {
        Err(StoreError::Unavailable(message)) => {
            assert!(message.contains(&tls_addr(&redis)), "{message}");
        }
        other => panic!("expected Unavailable without a client certificate, got {other:?}"),
    }
    let client = ca.client("arena-bot-host");
    let options = RedisOptions {
        client_cert_file: Some(client.cert_file.clone()),
        client_key_file: Some(client.key_file.clone()),
        ..trusting(&ca)
    };
    let store = RedisStore::connect_with(&url, "arena", &options)
        .await
        .expect("mutual TLS");
    store
        .put_panel(&sample_panel("p-mtls"))
        .await
        .expect("write over mutual TLS");
}

fn expect_invalid(result: Result<RedisStore, StoreError>, words: &[&str]) {
    match result {
        Err(StoreError::Invalid(message)) => {
            for w in words {
                assert!(message.contains(w), "{w:?} missing from {message:?}");
            }
        }
        other => panic!("expected Invalid mentioning {words:?}, got {other:?}"),
    }
}

#[tokio::test]
async fn bad_tls_settings_are_invalid_naming_the_file_and_flag() {
    let ca = TestCa::new("arena redis test CA");
    let url = format!("rediss://127.0.0.1:{}", free_port());
    let missing = ca.dir().join("no-such-ca.pem");
    let options = RedisOptions {
        ca_file: Some(missing.clone()),
        ..RedisOptions::default()
    };
    expect_invalid(
        RedisStore::connect_with(&url, "arena", &options).await,
        &[
            "redis CA file",
            &missing.display().to_string(),
            "--redis-ca-file",
            "cannot read",
        ],
    );
    let garbage = ca.dir().join("garbage.pem");
    std::fs::write(&garbage, "not a certificate").expect("write");
    let options = RedisOptions {
        ca_file: Some(garbage.clone()),
        ..RedisOptions::default()
    };
    expect_invalid(
        RedisStore::connect_with(&url, "arena", &options).await,
        &[&garbage.display().to_string(), "no PEM"],
    );
    let client = ca.client("c");
    let options = RedisOptions {
        client_cert_file: Some(client.cert_file.clone()),
        ..RedisOptions::default()
    };
    expect_invalid(
        RedisStore::connect_with(&url, "arena", &options).await,
        &["--redis-client-key-file"],
    );
    // TLS files with a plain URL would be silently ignored: refused instead.
    expect_invalid(
        RedisStore::connect_with(
            &format!("redis://:hunter2-secret@127.0.0.1:{}", free_port()),
            "arena",
            &trusting(&ca),
        )
        .await,
        &["not rediss://", "redis://:***@127.0.0.1"],
    );
    // Skipping verification is refused rather than quietly allowed.
    expect_invalid(
        RedisStore::connect(&format!("{url}/#insecure"), "arena").await,
        &["#insecure", "--redis-ca-file"],
    );
}

#[tokio::test]
async fn no_error_or_description_repeats_the_password() {
    const SECRET: &str = "hunter2-secret";
    let unreachable = free_port();
    let cases: Vec<(String, bool)> = vec![
        // Malformed: Invalid, quoting the URL redacted.
        (format!("redis://arena:{SECRET}@127.0.0.1:notaport"), false),
        (
            format!("rediss://arena:{SECRET}@127.0.0.1:6380/notadb"),
            false,
        ),
        (format!("redis://:{SECRET}@[::1/"), false),
        (format!("redis://:{SECRET}/x@127.0.0.1:6379"), false),
        (format!("http://arena:{SECRET}@127.0.0.1:6379"), false),
        (
            format!("unix:///nonexistent/redis.sock?pass={SECRET}&db=x"),
            false,
        ),
        // Unreachable: Unavailable, naming the address.
        (
            format!("redis://arena:{SECRET}@127.0.0.1:{unreachable}"),
            true,
        ),
        (
            format!("rediss://:{SECRET}@127.0.0.1:{unreachable}/1"),
            true,
        ),
        (
            format!("unix:///nonexistent/redis.sock?pass={SECRET}"),
            true,
        ),
    ];
    for (url, reachable_shape) in cases {
        let e = RedisStore::connect(&url, "arena")
            .await
            .expect_err("cannot connect");
        let text = format!("{e} {e:?}");
        assert!(!text.contains(SECRET), "{url}: password in {text}");
        assert_eq!(
            matches!(e, StoreError::Unavailable(_)),
            reachable_shape,
            "{url}: {e}"
        );
    }

    // A wrong password: refused by the server, still not repeated.
    let redis = RedisServer::builder().password(SECRET).start();
    let wrong = format!("redis://:not-{SECRET}-either@{}", redis.addr());
    let e = RedisStore::connect(&wrong, "arena")
        .await
        .expect_err("wrong password");
    assert!(!format!("{e} {e:?}").contains(SECRET), "{e:?}");

    // A store that connected with a password describes itself without it.
    let url = format!("redis://default:{SECRET}@{}", redis.addr());
    let store = RedisStore::connect(&url, "arena")
        .await
        .expect("the right password");
    for text in [store.describe(), format!("{store:?}")] {
        assert!(!text.contains(SECRET), "{text}");
        assert!(text.contains(&redis.addr()), "{text}");
    }
    // So does an error of a call once the server is gone.
    drop(redis);
    let e = store.panel("p").await.expect_err("the server is gone");
    assert!(!format!("{e} {e:?}").contains(SECRET), "{e:?}");
}

#[test]
fn redaction_keeps_everything_but_the_secret() {
    use arena_store::redis::redact_url;
    for (url, redacted) in [
        (
            "rediss://arena:pw@redis.example:6380/2",
            "rediss://arena:***@redis.example:6380/2",
        ),
        ("redis://:pw@h", "redis://:***@h"),
        // A password with an `@` in it (unescaped): everything up to the last `@`.
        ("redis://u:p@w@h:1", "redis://u:***@h:1"),
        ("redis://user@h", "redis://user@h"),
        ("redis://h:6379?pass=x", "redis://h:6379?pass=***"),
        (
            "unix:///s.sock?db=1&password=x#f",
            "unix:///s.sock?db=1&password=***#f",
        ),
        ("not a url :pw@", "not a url :***@"),
        // Unescaped `/`, `?` or `#` in a password: still hidden, up to the last `@`.
        ("redis://:pa/ss@h:1/2", "redis://:***@h:1/2"),
        ("rediss://u:p?w#d@h", "rediss://u:***@h"),
        ("redis://u/x:pw@h", "redis://***@h"),
        ("", ""),
    ] {
        assert_eq!(redact_url(url), redacted, "{url}");
    }
}
