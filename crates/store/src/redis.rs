//! The Redis store: the shared state of the services. Every key lives under a configurable
//! prefix; each key, its type, content and lifetime is documented in `docs/redis-keys.md`.
//!
//! The keys (a hash of panels, a hash of deals per panel, chunked bitmaps of measured indices
//! per panel and source, a hash of deal usage) are specified in `docs/redis-keys.md`, the one
//! place every Redis key of arena is documented; the functions ending in `_key` below build them.
//!
//! Writes that touch several keys (`put_deals`, `claim_deals`) are Lua scripts, so each call is
//! atomic and competing writers (two deal libraries, two matchmakers) never interleave.
//!
//! The connection is a [`ConnectionManager`]: when Redis goes away, calls fail with
//! [`StoreError::Unavailable`] naming the address, and it reconnects in the background, so calls
//! work again once Redis is back. A store must be used within the tokio runtime that connected it
//! (its connection is driven by a task on that runtime).
//!
//! A write whose reply was lost (Redis died mid-call) may or may not have happened; every write
//! is idempotent, so repeating the call is always safe.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};
use ::redis::{AsyncCommands, RedisError, Script};

use crate::{
    DealRecord, DealSource, Panel, Store, StoreError, StoreResult, check_id, check_records,
    source_key,
};

/// Measured indices are kept as bitmaps of this many bits each, so an index far out costs one
/// small bitmap (8 KiB), not a bitmap reaching all the way out to it.
const CHUNK_BITS: u64 = 1 << 16;

/// `put_deals`: per record, KEYS = (deals hash, chunk set, bitmap) and ARGV = (deal id, JSON,
/// chunk number or "", bit offset or ""). A record already in its hash is skipped entirely.
const PUT_DEALS: &str = r#"
local new = 0
for i = 0, #KEYS / 3 - 1 do
  local k, a = i * 3, i * 4
  if redis.call('HSETNX', KEYS[k + 1], ARGV[a + 1], ARGV[a + 2]) == 1 then
    new = new + 1
    if ARGV[a + 3] ~= '' then
      redis.call('SADD', KEYS[k + 2], ARGV[a + 3])
      redis.call('SETBIT', KEYS[k + 3], ARGV[a + 4], 1)
    end
  end
end
return new
"#;

/// `claim_deals`: KEYS[1] = usage hash, ARGV[1] = competition, ARGV[2..] = deal ids. Returns
/// one 1/0 per deal id: whether the competition holds it now.
const CLAIM_DEALS: &str = r#"
local held = {}
for i = 2, #ARGV do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[1]) == 1 then
    held[i - 1] = 1
  elseif redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[1] then
    held[i - 1] = 1
  else
    held[i - 1] = 0
  end
end
return held
"#;

/// The Redis store. Cheap to clone: clones share the connection.
#[derive(Clone)]
pub struct RedisStore {
    conn: ConnectionManager,
    /// `host:port` (or socket path), never the password: for messages.
    addr: String,
    prefix: String,
    put_deals: Script,
    claim_deals: Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("addr", &self.addr)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// Connects to Redis at `url` (e.g. `redis://127.0.0.1:6379`, `redis://:password@host/2`)
    /// and keeps every key under `prefix` (e.g. `arena`), so several arenas (or test runs) can
    /// share one Redis.
    ///
    /// Fails with [`StoreError::Invalid`] for a malformed URL or prefix, and with
    /// [`StoreError::Unavailable`] naming the address if Redis cannot be reached.
    pub async fn connect(url: &str, prefix: &str) -> StoreResult<Self> {
        check_id("key prefix", prefix)?;
        if prefix
            .chars()
            .any(|c| c.is_whitespace() || "*?[]".contains(c))
        {
            return Err(StoreError::Invalid(format!(
                "key prefix {prefix:?} contains whitespace or a glob character"
            )));
        }
        let client = ::redis::Client::open(url)
            .map_err(|e| StoreError::Invalid(format!("redis URL {url:?}: {e}")))?;
        let addr = client.get_connection_info().addr().to_string();
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            // Big batches and whole-panel reads take a while; a dead server is noticed by the
            // connection dropping, not by this timeout.
            .set_response_timeout(Some(Duration::from_secs(30)))
            // While Redis is down, a call gives up after about a second of reconnecting.
            .set_number_of_retries(3)
            .set_min_delay(Duration::from_millis(100))
            .set_max_delay(Duration::from_millis(500));
        let conn = ConnectionManager::new_with_config(client, config)
            .await
            .map_err(|e| unavailable(&addr, &e))?;
        Ok(RedisStore {
            conn,
            addr,
            prefix: prefix.to_string(),
            put_deals: Script::new(PUT_DEALS),
            claim_deals: Script::new(CLAIM_DEALS),
        })
    }

    /// The key prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The server's address (`host:port`), as named in error messages.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    fn panels_key(&self) -> String {
        format!("{}:panels", self.prefix)
    }

    fn deals_key(&self, panel: &str) -> String {
        format!("{}:deals:{panel}", self.prefix)
    }

    fn chunks_key(&self, panel: &str, source: &str) -> String {
        format!("{}:measured-chunks:{panel}:{source}", self.prefix)
    }

    fn bitmap_key(&self, panel: &str, source: &str, chunk: u64) -> String {
        format!("{}:measured:{panel}:{source}:{chunk}", self.prefix)
    }

    fn usage_key(&self) -> String {
        format!("{}:deal-usage", self.prefix)
    }

    /// Maps an error of a call on `key`: a key holding another type is corrupt data, anything
    /// else means Redis is not usable right now.
    fn error(&self, key: &str, e: RedisError) -> StoreError {
        if e.code() == Some("WRONGTYPE") {
            return StoreError::Corrupt {
                key: key.to_string(),
                reason: format!("holds a value of the wrong type ({e})"),
            };
        }
        unavailable(&self.addr, &e)
    }
}

/// `redis at 127.0.0.1:6379: connection refused`.
fn unavailable(addr: &str, e: &RedisError) -> StoreError {
    let what = if e.is_connection_refusal() {
        "connection refused".to_string()
    } else if e.is_timeout() {
        format!("timed out ({e})")
    } else if e.is_connection_dropped() {
        format!("connection lost ({e})")
    } else {
        e.to_string()
    };
    StoreError::Unavailable(format!("redis at {addr}: {what}"))
}

fn decode<T: serde::de::DeserializeOwned>(
    key: impl FnOnce() -> String,
    bytes: &[u8],
) -> StoreResult<T> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Corrupt {
        key: key(),
        reason: e.to_string(),
    })
}

fn encode<T: serde::Serialize>(value: &T) -> StoreResult<Vec<u8>> {
    serde_json::to_vec(value)
        .map_err(|e| StoreError::Invalid(format!("cannot serialise value: {e}")))
}

/// Reads a deal record, checking that it is the one its key and field name.
fn decode_deal(key: &str, panel: &str, id: &str, bytes: &[u8]) -> StoreResult<DealRecord> {
    let name = || format!("{key} field {id}");
    let record: DealRecord = decode(name, bytes)?;
    if record.panel != panel || record.id != id {
        return Err(StoreError::Corrupt {
            key: name(),
            reason: format!("holds deal {} of panel {} instead", record.id, record.panel),
        });
    }
    Ok(record)
}

/// Appends the indices set in `bitmap` (Redis bit order: bit 0 is the high bit of byte 0).
fn push_indices(base: u64, bitmap: &[u8], out: &mut Vec<u64>) {
    for (byte_index, &byte) in bitmap.iter().enumerate() {
        let mut bits = byte;
        while bits != 0 {
            let bit = bits.leading_zeros() as u64;
            out.push(base + byte_index as u64 * 8 + bit);
            bits &= !(0x80 >> bit);
        }
    }
}

#[async_trait::async_trait]
impl Store for RedisStore {
    fn describe(&self) -> String {
        format!("redis ({}, prefix {})", self.addr, self.prefix)
    }

    async fn put_panel(&self, panel: &Panel) -> StoreResult<()> {
        check_id("panel id", &panel.id)?;
        let key = self.panels_key();
        let json = encode(panel)?;
        let mut conn = self.conn.clone();
        conn.hset::<_, _, _, ()>(&key, &panel.id, json)
            .await
            .map_err(|e| self.error(&key, e))
    }

    async fn panel(&self, id: &str) -> StoreResult<Option<Panel>> {
        check_id("panel id", id)?;
        let key = self.panels_key();
        let mut conn = self.conn.clone();
        let json: Option<Vec<u8>> = conn.hget(&key, id).await.map_err(|e| self.error(&key, e))?;
        json.map(|json| decode(|| format!("{key} field {id}"), &json))
            .transpose()
    }

    async fn panels(&self) -> StoreResult<Vec<Panel>> {
        let key = self.panels_key();
        let mut conn = self.conn.clone();
        let all: HashMap<String, Vec<u8>> =
            conn.hgetall(&key).await.map_err(|e| self.error(&key, e))?;
        let mut all: Vec<(String, Vec<u8>)> = all.into_iter().collect();
        all.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        all.iter()
            .map(|(id, json)| decode(|| format!("{key} field {id}"), json))
            .collect()
    }

    async fn put_deals(&self, records: &[DealRecord]) -> StoreResult<usize> {
        check_records(records)?;
        if records.is_empty() {
            return Ok(0);
        }
        let mut call = self.put_deals.prepare_invoke();
        for r in records {
            call.key(self.deals_key(&r.panel));
            call.arg(&r.id).arg(encode(r)?);
            match r.source {
                Some((source, index)) => {
                    let source = source_key(&source);
                    let (chunk, bit) = (index / CHUNK_BITS, index % CHUNK_BITS);
                    call.key(self.chunks_key(&r.panel, &source))
                        .key(self.bitmap_key(&r.panel, &source, chunk));
                    call.arg(chunk).arg(bit);
                }
                None => {
                    // Unused placeholders keep every record at three keys and four arguments.
                    let deals = self.deals_key(&r.panel);
                    call.key(&deals).key(&deals);
                    call.arg("").arg("");
                }
            }
        }
        let mut conn = self.conn.clone();
        let new: u64 = call
            .invoke_async(&mut conn)
            .await
            .map_err(|e| self.error(&format!("{}:deals:*", self.prefix), e))?;
        Ok(new as usize)
    }

    async fn deal(&self, panel: &str, id: &str) -> StoreResult<Option<DealRecord>> {
        check_id("panel id", panel)?;
        check_id("deal id", id)?;
        let key = self.deals_key(panel);
        let mut conn = self.conn.clone();
        let json: Option<Vec<u8>> = conn.hget(&key, id).await.map_err(|e| self.error(&key, e))?;
        json.map(|json| decode_deal(&key, panel, id, &json))
            .transpose()
    }

    async fn deals(&self, panel: &str) -> StoreResult<Vec<DealRecord>> {
        check_id("panel id", panel)?;
        let key = self.deals_key(panel);
        let mut conn = self.conn.clone();
        let all: HashMap<String, Vec<u8>> =
            conn.hgetall(&key).await.map_err(|e| self.error(&key, e))?;
        all.iter()
            .map(|(id, json)| decode_deal(&key, panel, id, json))
            .collect()
    }

    async fn deal_count(&self, panel: &str) -> StoreResult<u64> {
        check_id("panel id", panel)?;
        let key = self.deals_key(panel);
        let mut conn = self.conn.clone();
        conn.hlen(&key).await.map_err(|e| self.error(&key, e))
    }

    async fn measured_indices(&self, panel: &str, source: &DealSource) -> StoreResult<Vec<u64>> {
        check_id("panel id", panel)?;
        let source = source_key(source);
        let chunks_key = self.chunks_key(panel, &source);
        let mut conn = self.conn.clone();
        let names: Vec<String> = conn
            .smembers(&chunks_key)
            .await
            .map_err(|e| self.error(&chunks_key, e))?;
        let mut chunks = names
            .iter()
            .map(|name| {
                name.parse::<u64>().map_err(|_| StoreError::Corrupt {
                    key: chunks_key.clone(),
                    reason: format!("member {name:?} is not a chunk number"),
                })
            })
            .collect::<StoreResult<Vec<u64>>>()?;
        chunks.sort_unstable();
        if chunks.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = ::redis::pipe();
        for &chunk in &chunks {
            pipe.get(self.bitmap_key(panel, &source, chunk));
        }
        let bitmaps: Vec<Option<Vec<u8>>> = pipe
            .query_async(&mut conn)
            .await
            .map_err(|e| self.error(&self.bitmap_key(panel, &source, chunks[0]), e))?;
        let mut indices = Vec::new();
        for (chunk, bitmap) in chunks.iter().zip(&bitmaps) {
            let bitmap = bitmap.as_deref().unwrap_or_default();
            if bitmap.len() as u64 > CHUNK_BITS / 8 {
                return Err(StoreError::Corrupt {
                    key: self.bitmap_key(panel, &source, *chunk),
                    reason: format!("{} bytes, more than a chunk holds", bitmap.len()),
                });
            }
            push_indices(chunk * CHUNK_BITS, bitmap, &mut indices);
        }
        Ok(indices)
    }

    async fn claim_deals(&self, competition: &str, deal_ids: &[String]) -> StoreResult<Vec<bool>> {
        check_id("competition", competition)?;
        for id in deal_ids {
            check_id("deal id", id)?;
        }
        if deal_ids.is_empty() {
            return Ok(Vec::new());
        }
        let key = self.usage_key();
        let mut call = self.claim_deals.prepare_invoke();
        call.key(&key).arg(competition);
        for id in deal_ids {
            call.arg(id);
        }
        let mut conn = self.conn.clone();
        let held: Vec<u8> = call
            .invoke_async(&mut conn)
            .await
            .map_err(|e| self.error(&key, e))?;
        if held.len() != deal_ids.len() {
            return Err(StoreError::Unavailable(format!(
                "redis at {}: claim answered {} results for {} deals",
                self.addr,
                held.len(),
                deal_ids.len()
            )));
        }
        Ok(held.into_iter().map(|h| h == 1).collect())
    }

    async fn used_deals(&self) -> StoreResult<BTreeMap<String, String>> {
        let key = self.usage_key();
        let mut conn = self.conn.clone();
        let all: HashMap<String, String> =
            conn.hgetall(&key).await.map_err(|e| self.error(&key, e))?;
        Ok(all.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitmaps_decode_in_redis_bit_order() {
        let mut out = Vec::new();
        // Byte 0: bits 0 and 7; byte 2: bit 3 (index 19).
        push_indices(100, &[0b1000_0001, 0, 0b0001_0000], &mut out);
        assert_eq!(out, vec![100, 107, 119]);
        out.clear();
        push_indices(0, &[0xff], &mut out);
        assert_eq!(out, (0..8).collect::<Vec<_>>());
    }
}
