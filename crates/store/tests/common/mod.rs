//! Test fixtures: stores in fresh places. A private Redis server is
//! `arena_testkit::redis_server::RedisServer`.

#![allow(dead_code)] // Each test binary uses its own part of the fixtures.

use arena_store::RedisStore;

/// The Redis the machine runs for everyone.
pub const SHARED_REDIS: &str = "redis://127.0.0.1:6379";

/// A key prefix no other test run uses.
pub fn random_prefix() -> String {
    arena_testkit::unique_name("arena-test")
}

/// Deletes every key under a prefix when dropped, also when the test fails.
pub struct PrefixCleanup {
    pub url: String,
    pub prefix: String,
}

impl PrefixCleanup {
    /// How many keys the prefix has now.
    pub fn key_count(&self) -> usize {
        self.keys().len()
    }

    fn keys(&self) -> Vec<String> {
        let Ok(mut conn) = redis::Client::open(self.url.as_str()).and_then(|c| c.get_connection())
        else {
            return Vec::new();
        };
        redis::cmd("SCAN")
            .cursor_arg(0)
            .arg("MATCH")
            .arg(format!("{}:*", self.prefix))
            .arg("COUNT")
            .arg(1000)
            .clone()
            .iter::<String>(&mut conn)
            .map(|keys| keys.filter_map(Result::ok).collect())
            .unwrap_or_default()
    }
}

impl Drop for PrefixCleanup {
    fn drop(&mut self) {
        let keys = self.keys();
        if keys.is_empty() {
            return;
        }
        if let Ok(mut conn) =
            redis::Client::open(self.url.as_str()).and_then(|c| c.get_connection())
        {
            for chunk in keys.chunks(1000) {
                let _: Result<u64, _> = redis::cmd("DEL").arg(chunk).query(&mut conn);
            }
        }
    }
}

/// A store on the shared Redis under a fresh prefix, and the guard that removes its keys.
pub async fn shared_redis_store() -> (RedisStore, PrefixCleanup) {
    let prefix = random_prefix();
    let cleanup = PrefixCleanup {
        url: SHARED_REDIS.to_string(),
        prefix: prefix.clone(),
    };
    let store = RedisStore::connect(SHARED_REDIS, &prefix)
        .await
        .expect("the shared Redis at 127.0.0.1:6379 is running");
    (store, cleanup)
}
