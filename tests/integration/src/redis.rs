//! Each full-stack test on the shared Redis works under a key prefix of its own and deletes its
//! keys at the end, so tests never see each other's state or leftovers.

/// The shared Redis the machine (and CI) runs.
pub const REDIS: &str = "redis://127.0.0.1:6379";

/// A key prefix no other test run uses: `e2e-{tag}-{pid}-{nanos}`.
pub fn prefix(tag: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_nanos();
    format!("e2e-{tag}-{}-{nanos}", std::process::id())
}

/// Deletes every key under `prefix`.
pub async fn cleanup(prefix: &str) {
    let client = redis::Client::open(REDIS).expect("the Redis URL");
    let Ok(mut con) = client.get_multiplexed_async_connection().await else {
        return;
    };
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query_async(&mut con)
        .await
        .unwrap_or_default();
    if !keys.is_empty() {
        let _: Result<(), _> = redis::cmd("DEL").arg(keys).query_async(&mut con).await;
    }
}

/// [`cleanup`] without a runtime (from a `Drop`, also while a failed test unwinds), on the Redis
/// at `url`.
pub fn cleanup_blocking(url: &str, prefix: &str) {
    let Ok(mut con) = redis::Client::open(url).and_then(|c| c.get_connection()) else {
        return;
    };
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query(&mut con)
        .unwrap_or_default();
    if !keys.is_empty() {
        let _: Result<(), _> = redis::cmd("DEL").arg(keys).query(&mut con);
    }
}
