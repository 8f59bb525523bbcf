//! The Redis store: the shared state of the services. Every key lives under a configurable
//! prefix; each key, its type, content and lifetime is documented in `docs/redis-keys.md`.
//!
//! The keys are specified in `docs/redis-keys.md`, the one place every Redis key of arena is
//! documented; `Keys` builds them. They carry Redis Cluster hash tags: `{ctl}` for the control
//! slot (the instance record and other records, panels, deal usage, the job stream),
//! `{c:<competition>}` for a competition's results, replays and listing (a table's competition
//! is its id up to the first `/`), `{p:<panel>}` for a panel's deals and measured indices.
//!
//! Writes that touch several keys are Lua scripts over the keys of one tag, so each is atomic,
//! competing writers (two deal libraries, two matchmakers, two referees) never interleave, and
//! each runs in one slot on Redis Cluster. A write's data-loss fence is in the same slot: the
//! instance record itself in the control slot, the slot's copy of it elsewhere
//! (`RedisStore::renew_fence`). Calls that span tags are several scripts: `put_deals` one per
//! panel, `finish_jobs` one per competition for the results, then one acknowledging the jobs,
//! `delete_results` one per competition.
//!
//! The connection is a [`ConnectionManager`]: when Redis goes away, calls fail with
//! [`StoreError::Unavailable`] naming the address, and it reconnects in the background, so calls
//! work again once Redis is back. A store must be used within the tokio runtime that connected it
//! (its connection is driven by a task on that runtime).
//!
//! A write whose reply was lost (Redis died mid-call) may or may not have happened; repeating
//! the call is always safe (see [`StoreError::Unavailable`]).
//!
//! # TLS
//!
//! A `rediss://` URL connects over TLS (rustls), verifying the server's certificate against the
//! system's roots, or against the CA of [`RedisOptions::ca_file`] (a private CA, as managed and
//! self-hosted Redis often use). [`RedisOptions::client_cert_file`] and
//! [`RedisOptions::client_key_file`] add a client certificate for servers that require one
//! (`tls-auth-clients yes`). `rediss://host/#insecure` (no verification at all) is refused.
//!
//! # Secrets
//!
//! A URL may carry a password (`redis://:password@host`, `unix:///path?pass=…`). It is never
//! repeated: errors name the address, [`Backend::describe`] names the address, and a URL quoted in
//! an error goes through [`redact_url`] first.
//!
//! # Table jobs
//!
//! Jobs are entries of one stream, `{prefix}:{ctl}:jobs`, read through one consumer group,
//! `referees`, created on first use (from id `0`, so jobs enqueued before any referee started are
//! not skipped; created again the same way if Redis lost it). `next_jobs` first runs a script
//! that claims up to `max` pending entries idle for at least `reclaim_after` (`XPENDING … IDLE`
//! then `XCLAIM`, which counts the delivery) and then reads new entries (`XREADGROUP … >`); only
//! when both come back empty does it wait with `XREADGROUP … BLOCK`. A blocking read would hold up
//! every call queued behind it on a shared connection, so it runs on a connection of its own,
//! taken from a small pool; it waits in slices of at most [`BLOCK_SLICE`] (shorter when
//! `reclaim_after` is short), checking for reclaimable jobs between slices, so a job whose referee
//! died during a long wait is still found. A caller that gives up on `next_job` mid-wait drops its
//! connection; an entry Redis handed out just then stays pending and is reclaimed like any other.
//!
//! `ack_job` (and `finish_jobs`' acknowledgement) is `XACK` and `XDEL` in one script: a finished job leaves the stream, so the stream
//! holds only jobs not yet done and never grows with history. Requires Redis 6.2 or later.
//!
//! # Tracing
//!
//! Every [`Store`] call is an INFO span named `redis` (target `arena_store::redis::call`, fields
//! `db.system = "redis"`, `db.operation` = the method's name, `otel.kind = "client"`), so a trace
//! shows the store calls of the work it follows; a call that fails also records its error as an
//! ERROR event of that target. Nothing else is recorded (no keys, no values), so a span costs no
//! formatting. `arena-telemetry` exports these spans and keeps them out of log lines; with export
//! off nothing wants them and they are never built. `next_job`'s span includes its wait.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig, MultiplexedConnection};
use ::redis::{AsyncCommands, AsyncConnectionConfig, RedisError, Script};
use tracing::instrument;

use crate::watch::Hub;
use crate::{
    Backend, BotRecord, Bots, DealRecord, DealSource, Deals, FinishedJob, JobCounts, JobEntry,
    Jobs, Panel, Records, Results, Store, StoreError, StoreResult, Topic, Watch, Watcher, args,
    check_bot, check_id, check_panel, check_records, decode, decode_bot, decode_deal, encode,
    millis_ceil, schema::upgrade, source_key,
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
if new > 0 then changed() end
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

/// The hash tag of the control slot (see [`RedisStore::ctl_key`]).
const CONTROL_TAG: &str = "ctl";

/// The hash tag of the keys written together with a competition's or a panel's: in Redis
/// Cluster every key of one tag is in one slot, so the scripts writing them run there.
/// Redis hashes a key by what lies between its first `{` and the first `}` after it; the prefix
/// holds neither (checked at connect), so that is this tag, cut short at a `}` in the name: the
/// keys of one name still share one slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tag<'a> {
    /// `c:{competition}`: its results, replays and listing.
    Competition(&'a str),
    /// `p:{panel}`: its deals and measured indices.
    Panel(&'a str),
}

impl<'a> Tag<'a> {
    /// The tag of a table's result and replay: its competition's ([`crate::competition_of`]).
    fn of_table(table: &'a str) -> Tag<'a> {
        Tag::Competition(crate::competition_of(table))
    }
}

impl Tag<'_> {
    /// The watch topic ([`crate::Topic::key`]) a write in this slot changes.
    fn topic(&self) -> String {
        match self {
            Tag::Competition(c) => Topic::Results((*c).to_string()).key(),
            Tag::Panel(p) => Topic::Deals((*p).to_string()).key(),
        }
    }
}

impl std::fmt::Display for Tag<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tag::Competition(c) => write!(f, "c:{c}"),
            Tag::Panel(p) => write!(f, "p:{p}"),
        }
    }
}

/// The consumer group of the job stream: every referee reads through it.
const GROUP: &str = "referees";

/// The longest single `XREADGROUP … BLOCK` of `next_job`: between slices it looks for jobs to
/// reclaim.
pub const BLOCK_SLICE: Duration = Duration::from_secs(1);

/// Jobs finished by one `finish_jobs` script: a bigger batch is written as several scripts, so
/// none holds Redis for long.
const FINISH_CHUNK: usize = 128;

/// Jobs enqueued by one `enqueue_jobs` script.
const ENQUEUE_CHUNK: usize = 500;

/// Idle blocking-read connections kept for reuse; more are opened when needed and closed after.
const IDLE_BLOCKING_CONNECTIONS: usize = 8;

/// Creates the consumer group if it is missing (from id 0, so no job enqueued before it is
/// skipped); a `BUSYGROUP` answer means it exists. Prepended to the `next_job` script; the other
/// job scripts take a missing group to mean that no job is pending.
const ENSURE_GROUP: &str = r#"
local made = redis.pcall('XGROUP', 'CREATE', KEYS[1], ARGV[1], '0', 'MKSTREAM')
if type(made) == 'table' and made.err and not string.find(made.err, 'BUSYGROUP', 1, true) then
  return made
end
"#;

/// `next_jobs` without waiting: KEYS[1] = job stream, ARGV = (group, consumer, reclaim_after in
/// ms, max). Returns up to max (entry id, [field, value, …], deliveries): idle pending entries
/// first (their referee died), then new ones.
const NEXT_JOBS: &str = r#"
local max = tonumber(ARGV[4])
local out = {}
while #out < max do
  local idle = redis.call('XPENDING', KEYS[1], ARGV[1], 'IDLE', ARGV[3], '-', '+', max - #out)
  if not idle[1] then break end
  for _, p in ipairs(idle) do
    local entry = redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], ARGV[3], p[1])[1]
    if entry then
      out[#out + 1] = {entry[1], entry[2], p[4] + 1}
    else
      -- Pending, but its entry is gone from the stream: nothing to run, drop it from the list.
      redis.call('XACK', KEYS[1], ARGV[1], p[1])
    end
  end
end
if #out < max then
  local read = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', max - #out, 'STREAMS', KEYS[1], '>')
  if read then
    for _, entry in ipairs(read[1][2]) do out[#out + 1] = {entry[1], entry[2], 1} end
  end
end
return out
"#;

/// `finish_jobs`' results of one competition: KEYS = per job (result, replay, competition index
/// or the result again), ARGV = per job (table id, result, replay, '1' if listed). Per job as
/// `PUT_RESULT`: one 1/0 per job, whether its result was written. The `SET … NX` of each result
/// decides; the replays of the results written then go in one `MSET` and their listings in one
/// `SADD` per index, rather than a command each (every command a script calls costs Redis the
/// conversion of its arguments). The jobs are acknowledged by `ACK_JOBS` afterwards (the stream
/// lives in another slot).
const FINISH_RESULTS: &str = r#"
local written, replays, listed, indexes = {}, {}, {}, {}
for i = 0, #KEYS / 3 - 1 do
  local k, a = i * 3, i * 4
  if redis.call('SET', KEYS[k + 1], ARGV[a + 2], 'NX') then
    replays[#replays + 1] = KEYS[k + 2]
    replays[#replays + 1] = ARGV[a + 3]
    if ARGV[a + 4] == '1' then
      local index = KEYS[k + 3]
      if not listed[index] then
        listed[index] = {}
        indexes[#indexes + 1] = index
      end
      local members = listed[index]
      members[#members + 1] = ARGV[a + 1]
    end
    written[i + 1] = 1
  else
    written[i + 1] = 0
  end
end
if #replays > 0 then
  redis.call('MSET', unpack(replays))
  changed()
end
for _, index in ipairs(indexes) do redis.call('SADD', index, unpack(listed[index])) end
return written
"#;

/// `enqueue_jobs`: KEYS[1] = job stream, ARGV = (table id, payload) per job; the entry ids.
const ENQUEUE_JOBS: &str = r#"
local ids = {}
for i = 1, #ARGV, 2 do
  ids[#ids + 1] = redis.call('XADD', KEYS[1], '*', 'table', ARGV[i], 'job', ARGV[i + 1])
end
return ids
"#;

/// `touch_job`: KEYS[1] = job stream, ARGV = (group, consumer, entry id). Resets the entry's idle
/// time, without counting a delivery, only if `consumer` holds it: 1 if so, 0 if not.
const TOUCH_JOB: &str = r#"
local pending = redis.pcall('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if type(pending) == 'table' and pending.err then
  if string.find(pending.err, 'NOGROUP', 1, true) then return 0 end
  return pending
end
if not pending[1] or pending[1][2] ~= ARGV[2] then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
"#;

/// `ack_job` and `finish_jobs`: KEYS[1] = job stream, ARGV = (group, entry ids…). Acknowledges
/// the entries and deletes them from the stream, delivered or not.
const ACK_JOBS: &str = r#"
local acked = redis.pcall('XACK', KEYS[1], ARGV[1], unpack(ARGV, 2))
if type(acked) == 'table' and acked.err and not string.find(acked.err, 'NOGROUP', 1, true) then
  return acked
end
redis.call('XDEL', KEYS[1], unpack(ARGV, 2))
return 1
"#;

/// `job_counts`: KEYS[1] = job stream, ARGV[1] = group. Returns (entries, pending entries).
const JOB_COUNTS: &str = r#"
local entries = redis.call('XLEN', KEYS[1])
local pending = redis.pcall('XPENDING', KEYS[1], ARGV[1])
if type(pending) == 'table' and pending.err then
  if string.find(pending.err, 'NOGROUP', 1, true) then return {entries, 0} end
  return pending
end
return {entries, pending[1]}
"#;

/// `put_result`: KEYS = (result, replay[, competition index]), ARGV = (result, replay[, table
/// id]). Writes only if there is no result yet: 1 if written, 0 if not.
const PUT_RESULT: &str = r#"
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
if KEYS[3] then redis.call('SADD', KEYS[3], ARGV[3]) end
changed()
return 1
"#;

/// `delete_results`: KEYS = (result, replay) per table[, competition index], ARGV = the table
/// ids; the number of results deleted.
const DELETE_RESULTS: &str = r#"
local n = #ARGV
local deleted = 0
for i = 1, n do
  deleted = deleted + redis.call('DEL', KEYS[2 * i - 1])
  redis.call('DEL', KEYS[2 * i])
  if KEYS[2 * n + 1] then redis.call('SREM', KEYS[2 * n + 1], ARGV[i]) end
end
if deleted > 0 then changed() end
return deleted
"#;

/// `update_bot`: KEYS[1] = bots hash, ARGV = (name, JSON). 1 if the bot existed and was
/// replaced, 0 if it is unknown.
/// Compare-and-swap of one record: ARGV = field, expect-present flag ('0'/'1'), expected, value.
const SWAP_RECORD: &str = r#"
local current = redis.call('HGET', KEYS[1], ARGV[1])
if (ARGV[2] == '0' and current == false) or (ARGV[2] == '1' and current == ARGV[3]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[4])
  changed()
  return 1
end
return 0
"#;

const UPDATE_BOT: &str = r#"
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"#;

/// Redis's clock in Unix milliseconds, as `now`, for the presence scripts: every host's presence
/// is judged by one clock, however far the hosts' own clocks drift.
const NOW_MS: &str = r#"
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
"#;

/// `set_presence`: KEYS[1] = the bot's presence set, ARGV = (host, ttl in ms). Drops expired
/// hosts, records the host's expiry, and lets the key expire with its last host.
const SET_PRESENCE: &str = r#"
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[1], string.format('%.0f', now + tonumber(ARGV[2])), ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', tonumber(last[2])))
return 1
"#;

/// `presence`: KEYS[1] = the bot's presence set. The hosts whose expiry is still ahead.
const PRESENCE: &str = r#"
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. string.format('%.0f', now), '+inf')
"#;

/// The data-loss fence of the control slot, prepended to every script that writes data there
/// (records, panels, deal usage, the job stream): KEYS[1] is the records hash of the instance
/// record and ARGV[1] the instance id this handle opened ('' before `open_instance`); both are
/// taken off the front, so the script's own KEYS and ARGV follow.
const FENCE: &str = r#"
local fence_key, fence = table.remove(KEYS, 1), table.remove(ARGV, 1)
if fence ~= '' and redis.call('HGET', fence_key, 'id') ~= fence then
  return redis.error_reply('ARENADATALOSS the instance record ' .. fence .. ' is gone or replaced')
end
"#;

/// The data-loss fence of a competition's or a panel's slot, prepended to every script that
/// writes data there: KEYS[1] is the slot's copy of the instance id (`{prefix}:{tag}:fence`),
/// ARGV[1] the instance id this handle opened ('' before `open_instance`), taken off the front.
/// A missing or different copy is `ARENAFENCE`: the caller checks the instance record itself
/// and, if it still holds this handle's id, (re)writes the copy and tries once more
/// ([`RedisStore::renew_fence`]).
const TAG_FENCE: &str = r#"
local fence_key, fence = table.remove(KEYS, 1), table.remove(ARGV, 1)
if fence ~= '' and redis.call('GET', fence_key) ~= fence then
  return redis.error_reply('ARENAFENCE no copy of instance ' .. fence .. ' in this slot')
end
"#;

/// Deletes a slot's fence copy if it holds ARGV[1]: undoing a copy written just as the store
/// lost its data.
const DELETE_FENCE: &str = r#"
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"#;

/// `enqueue_job`: KEYS[1] = job stream, ARGV = (table id, payload).
const ENQUEUE_JOB: &str = r#"
return redis.call('XADD', KEYS[1], '*', 'table', ARGV[1], 'job', ARGV[2])
"#;

/// `put_record` and `put_panel`: KEYS[1] = hash, ARGV = (field, value).
const HSET: &str = r#"
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
changed()
return 1
"#;

/// The schema migration: KEYS[1] = hash, ARGV = (field, old value, new value). Replaces the
/// field only if it still holds the old value (a concurrent writer's newer value stays). 1 if it
/// did.
const REPLACE_IF: &str = r#"
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0
"#;

/// `claim_presence`: KEYS[1] = the bot's presence set, ARGV = (host, ttl in ms). Another host's
/// unexpired record wins (returned); otherwise records this host, as `set_presence` does.
const CLAIM_PRESENCE: &str = r#"
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
for _, h in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if h ~= ARGV[1] then return h end
end
if redis.call('ZADD', KEYS[1], string.format('%.0f', now + tonumber(ARGV[2])), ARGV[1]) == 1 then
  changed()
end
redis.call('PEXPIREAT', KEYS[1], string.format('%.0f', now + tonumber(ARGV[2])))
return false
"#;

/// `resume_jobs`: KEYS[1] = job stream, ARGV = (group, consumer, max). Claims again (counting a
/// delivery) every entry pending for the consumer; entries gone from the stream are dropped.
const RESUME_JOBS: &str = r#"
local pending = redis.pcall('XPENDING', KEYS[1], ARGV[1], '-', '+', ARGV[3], ARGV[2])
if type(pending) == 'table' and pending.err then
  if string.find(pending.err, 'NOGROUP', 1, true) then return {} end
  return pending
end
local out = {}
for _, p in ipairs(pending) do
  local entry = redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, p[1])[1]
  if entry then
    out[#out + 1] = {entry[1], entry[2], p[4] + 1}
  else
    redis.call('XACK', KEYS[1], ARGV[1], p[1])
  end
end
return out
"#;

/// The change signal of the store-level watch, prepended (after any fence) to every script whose
/// write a watcher may wait for: ARGV[1] is the channel ([`RedisStore::channel`]) and ARGV[2]
/// the topic ([`crate::Topic::key`], '' for none), both taken off the front. The script calls
/// `changed()` once it changed something, publishing the topic in the same atomic step as the
/// write: a subscriber that hears of it and reads finds the write done.
const WATCHED: &str = r#"
local watch_channel, watch_topic = table.remove(ARGV, 1), table.remove(ARGV, 1)
local function changed()
  if watch_topic ~= '' then redis.call('PUBLISH', watch_channel, watch_topic) end
end
"#;

/// The Lua scripts, loaded once per store.
struct Scripts {
    put_deals: Script,
    claim_deals: Script,
    touch_job: Script,
    ack_jobs: Script,
    job_counts: Script,
    put_result: Script,
    delete_results: Script,
    update_bot: Script,
    swap_record: Script,
    set_presence: Script,
    presence: Script,
    enqueue_job: Script,
    hset: Script,
    delete_fence: Script,
    claim_presence: Script,
    resume_jobs: Script,
    replace_if: Script,
    next_jobs: Script,
    finish_results: Script,
    enqueue_jobs: Script,
}

/// A script that writes data in the control slot, behind the [`FENCE`].
fn fenced(body: &str) -> Script {
    Script::new(&format!("{FENCE}{body}"))
}

/// A script that writes data in a competition's or a panel's slot, behind the [`TAG_FENCE`].
fn tag_fenced(body: &str) -> Script {
    Script::new(&format!("{TAG_FENCE}{body}"))
}

impl Scripts {
    fn new() -> Scripts {
        Scripts {
            put_deals: tag_fenced(&format!("{WATCHED}{PUT_DEALS}")),
            claim_deals: fenced(CLAIM_DEALS),
            touch_job: Script::new(TOUCH_JOB),
            ack_jobs: Script::new(ACK_JOBS),
            job_counts: Script::new(JOB_COUNTS),
            put_result: tag_fenced(&format!("{WATCHED}{PUT_RESULT}")),
            delete_results: tag_fenced(&format!("{WATCHED}{DELETE_RESULTS}")),
            update_bot: Script::new(UPDATE_BOT),
            swap_record: fenced(&format!("{WATCHED}{SWAP_RECORD}")),
            set_presence: Script::new(&format!("{NOW_MS}{SET_PRESENCE}")),
            presence: Script::new(&format!("{NOW_MS}{PRESENCE}")),
            enqueue_job: fenced(ENQUEUE_JOB),
            hset: fenced(&format!("{WATCHED}{HSET}")),
            delete_fence: Script::new(DELETE_FENCE),
            claim_presence: Script::new(&format!("{NOW_MS}{WATCHED}{CLAIM_PRESENCE}")),
            resume_jobs: Script::new(RESUME_JOBS),
            replace_if: Script::new(REPLACE_IF),
            next_jobs: Script::new(&format!("{ENSURE_GROUP}{NEXT_JOBS}")),
            finish_results: tag_fenced(&format!("{WATCHED}{FINISH_RESULTS}")),
            enqueue_jobs: fenced(ENQUEUE_JOBS),
        }
    }
}

/// How to reach Redis beyond what its URL says: the TLS trust and identity of a `rediss://`
/// connection. `RedisOptions::default()` trusts the system's roots and presents no client
/// certificate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RedisOptions {
    /// A PEM file of the CA certificate(s) to verify the server against, instead of the system's
    /// roots (`--redis-ca-file`). Only for `rediss://` URLs.
    pub ca_file: Option<PathBuf>,
    /// A PEM file of the client certificate (chain) for servers that verify clients
    /// (`--redis-client-cert-file`); needs [`RedisOptions::client_key_file`].
    pub client_cert_file: Option<PathBuf>,
    /// A PEM file of the client certificate's private key (`--redis-client-key-file`).
    pub client_key_file: Option<PathBuf>,
}

impl RedisOptions {
    /// True if any TLS setting is given.
    pub fn has_tls_files(&self) -> bool {
        self.ca_file.is_some() || self.client_cert_file.is_some() || self.client_key_file.is_some()
    }
}

/// `url` with its secrets replaced by `***`: the password of its user part
/// (`redis://user:***@host`) and the `pass`/`password` query parameters (`unix:///s?pass=***`).
/// Works on text that is not a valid URL too, so a malformed URL can be quoted in an error.
///
/// ```
/// use arena_store::redis::redact_url;
/// assert_eq!(redact_url("rediss://arena:s3cret@redis:6380/2"), "rediss://arena:***@redis:6380/2");
/// assert_eq!(redact_url("redis://:s3cret@redis"), "redis://:***@redis");
/// assert_eq!(redact_url("unix:///run/redis.sock?db=1&pass=s3cret"), "unix:///run/redis.sock?db=1&pass=***");
/// assert_eq!(redact_url("redis://127.0.0.1:6379"), "redis://127.0.0.1:6379");
/// // A password given where the URL goes (`--redis Secr3t`) is not a URL at all.
/// assert_eq!(redact_url("Secr3t"), "***");
/// ```
pub fn redact_url(url: &str) -> String {
    let (scheme, rest) = match url.find("://") {
        Some(i) => url.split_at(i + 3),
        // No `scheme://`: nothing says which part is an address. A bare word (`--redis
        // Secr3t`, `redis:Secr3t`) is most likely a password given where the URL goes.
        None if !url.contains('@') && !url.is_empty() => return "***".to_string(),
        None => ("", url),
    };
    // The user part ends at the last `@`: a password may hold `/`, `?`, `#` or `@` unescaped, so
    // everything before that `@` but a plain user name is treated as secret.
    let (user, host) = match rest.rfind('@') {
        Some(at) => rest.split_at(at),
        None => ("", rest),
    };
    let user = match user.split_once(':') {
        Some((name, _)) if !name.contains(['/', '?', '#']) => format!("{name}:***"),
        _ if user.contains(['/', '?', '#', ':']) => "***".to_string(),
        // Without a scheme, a word before `@` may as well be the password.
        _ if scheme.is_empty() && !user.is_empty() => "***".to_string(),
        _ => user.to_string(),
    };
    let host = match host.split_once('?') {
        Some((path, query)) => {
            let (query, fragment) = match query.find('#') {
                Some(h) => query.split_at(h),
                None => (query, ""),
            };
            let query: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((k, _))
                        if k.eq_ignore_ascii_case("pass") || k.eq_ignore_ascii_case("password") =>
                    {
                        format!("{k}=***")
                    }
                    _ => pair.to_string(),
                })
                .collect();
            format!("{path}?{}{fragment}", query.join("&"))
        }
        None => host.to_string(),
    };
    format!("{scheme}{user}{host}")
}

/// Reads a PEM file given in [`RedisOptions`]; the error names what it is, the file and its flag.
fn read_pem(what: &str, flag: &str, path: &Path) -> StoreResult<Vec<u8>> {
    let bytes = std::fs::read(path).map_err(|e| {
        StoreError::Invalid(format!(
            "{what} {} ({flag}): cannot read it: {e}",
            path.display()
        ))
    })?;
    if !bytes.windows(11).any(|w| w == b"-----BEGIN ") {
        return Err(StoreError::Invalid(format!(
            "{what} {} ({flag}) holds no PEM block",
            path.display()
        )));
    }
    Ok(bytes)
}

/// A client for `url` with the TLS settings of `options`.
fn client(url: &str, options: &RedisOptions) -> StoreResult<::redis::Client> {
    let invalid = |why: &dyn std::fmt::Display| {
        StoreError::Invalid(format!("redis URL {}: {why}", redact_url(url)))
    };
    let info = ::redis::IntoConnectionInfo::into_connection_info(url).map_err(|e| invalid(&e))?;
    let ::redis::ConnectionAddr::TcpTls { insecure, .. } = info.addr() else {
        if options.has_tls_files() {
            return Err(invalid(
                &"TLS certificate files are given but the URL is not rediss:// (TLS)",
            ));
        }
        return ::redis::Client::open(info).map_err(|e| invalid(&e));
    };
    if *insecure {
        return Err(invalid(
            &"#insecure (TLS without verifying the server) is not supported; trust the server's CA with --redis-ca-file instead",
        ));
    }
    // One provider is compiled in (ring); installing it explicitly keeps rustls from having to
    // pick should another crate ever bring a second one. Fails harmlessly if one is installed.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let root_cert = options
        .ca_file
        .as_deref()
        .map(|p| read_pem("redis CA file", "--redis-ca-file", p))
        .transpose()?;
    let client_tls = match (&options.client_cert_file, &options.client_key_file) {
        (Some(cert), Some(key)) => Some(::redis::ClientTlsConfig {
            client_cert: read_pem(
                "redis client certificate file",
                "--redis-client-cert-file",
                cert,
            )?,
            client_key: read_pem("redis client key file", "--redis-client-key-file", key)?,
        }),
        (None, None) => None,
        _ => {
            return Err(StoreError::Invalid(
                "a redis client certificate needs both --redis-client-cert-file and \
                 --redis-client-key-file"
                    .to_string(),
            ));
        }
    };
    ::redis::Client::build_with_tls(
        info,
        ::redis::TlsCertificates {
            client_tls,
            root_cert,
        },
    )
    // The messages of these errors describe the PEM content, never its bytes.
    .map_err(|e| {
        StoreError::Invalid(format!(
            "redis TLS settings ({}): {e}",
            [
                options.ca_file.as_deref(),
                options.client_cert_file.as_deref(),
                options.client_key_file.as_deref()
            ]
            .into_iter()
            .flatten()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
        ))
    })
}

/// The Redis store. Cheap to clone: clones share the connections.
#[derive(Clone)]
pub struct RedisStore {
    conn: ConnectionManager,
    client: ::redis::Client,
    /// Idle connections for blocking reads (see the module documentation).
    blocking: Arc<Mutex<Vec<MultiplexedConnection>>>,
    /// `host:port` (or socket path), never the password: for messages.
    addr: String,
    /// True for a `rediss://` (TLS) connection.
    tls: bool,
    prefix: String,
    /// The job lane of this view ([`Jobs::lane`]); `None`: the default lane.
    lane: Option<Arc<str>>,
    scripts: Arc<Scripts>,
    /// The instance id writes are fenced to, once `open_instance` has run (shared by clones).
    fence: Arc<std::sync::OnceLock<String>>,
    /// The store-level watch (shared by clones and lane views).
    watch: Arc<Subscriber>,
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
    /// A `rediss://` URL connects over TLS, trusting the system's roots (see
    /// [`RedisStore::connect_with`] for a private CA or a client certificate).
    ///
    /// Fails with [`StoreError::Invalid`] for a malformed URL or prefix, and with
    /// [`StoreError::Unavailable`] naming the address if Redis cannot be reached (or its TLS
    /// certificate is not trusted). No message repeats a password of the URL.
    pub async fn connect(url: &str, prefix: &str) -> StoreResult<Self> {
        RedisStore::connect_with(url, prefix, &RedisOptions::default()).await
    }

    /// [`RedisStore::connect`] with TLS settings: the CA to trust and the client certificate
    /// to present (for `rediss://` URLs; giving them with a `redis://` URL is
    /// [`StoreError::Invalid`], as is a file that cannot be read, named in the message).
    pub async fn connect_with(
        url: &str,
        prefix: &str,
        options: &RedisOptions,
    ) -> StoreResult<Self> {
        check_id("key prefix", prefix)?;
        if prefix
            .chars()
            .any(|c| c.is_whitespace() || "*?[]".contains(c))
        {
            return Err(StoreError::Invalid(format!(
                "key prefix {prefix:?} contains whitespace or a glob character"
            )));
        }
        // Braces would make Redis Cluster hash keys by the prefix, not by arena's tags.
        if prefix.contains(['{', '}']) {
            return Err(StoreError::Invalid(format!(
                "key prefix {prefix:?} contains {{ or }}: arena places its own Redis Cluster hash tags"
            )));
        }
        let client = client(url, options)?;
        let addr = client.get_connection_info().addr().to_string();
        let tls = matches!(
            client.get_connection_info().addr(),
            ::redis::ConnectionAddr::TcpTls { .. }
        );
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            // Big batches and whole-panel reads take a while; a dead server is noticed by the
            // connection dropping, not by this timeout.
            .set_response_timeout(Some(Duration::from_secs(30)))
            // While Redis is down, a call gives up after about a second of reconnecting.
            .set_number_of_retries(3)
            .set_min_delay(Duration::from_millis(100))
            .set_max_delay(Duration::from_millis(500));
        let conn = ConnectionManager::new_with_config(client.clone(), config)
            .await
            .map_err(|e| unavailable(&addr, &e))?;
        let store = RedisStore {
            conn,
            client,
            blocking: Arc::default(),
            addr,
            tls,
            prefix: prefix.to_string(),
            lane: None,
            scripts: Arc::new(Scripts::new()),
            fence: Arc::default(),
            watch: Arc::default(),
        };
        store.check_key_layout().await?;
        store.migrate().await?;
        Ok(store)
    }

    /// Refuses a prefix written with the key names arena used before its keys carried Redis
    /// Cluster hash tags (`{prefix}:schema`, `{prefix}:jobs`, `{prefix}:records:…` rather than
    /// `{prefix}:{ctl}:…`): this build would not see that data, and would start a second,
    /// empty arena beside it. A prefix with the current schema key, or with none of the old
    /// keys, is fine.
    async fn check_key_layout(&self) -> StoreResult<()> {
        let mut conn = self.conn.clone();
        let current = self.keys().schema_key();
        let is_current: bool = conn.exists(&current).await.on(self, &current)?;
        if is_current {
            return Ok(());
        }
        for name in ["schema", "jobs", "panels", "records:arena-instance"] {
            let old = format!("{}:{name}", self.prefix);
            let found: bool = conn.exists(&old).await.on(self, &old)?;
            if found {
                return Err(StoreError::Corrupt {
                    key: old,
                    reason: format!(
                        "prefix {:?} holds data in arena's old, untagged key layout (before Redis \
                         Cluster hash tags, docs/redis-keys.md \"Key layout\"), which this build \
                         does not read: run the release that wrote it, or give this build a new \
                         prefix (--redis-prefix), or delete the old keys if nothing in them is \
                         needed",
                        self.prefix
                    ),
                });
            }
        }
        Ok(())
    }

    /// Brings the panels and deal records under this prefix to the current schema version
    /// ([`crate::SCHEMA_VERSION`]) and records it in `{prefix}:schema`; returns how many values
    /// it rewrote. [`RedisStore::connect`] runs it, so it costs one `GET` once the data is
    /// current. Older values read back as current ones anyway, so roles that start while another
    /// is migrating work meanwhile; two migrating at once rewrite each value once between them,
    /// and a value some writer replaced meanwhile is left as that writer wrote it. An
    /// interrupted migration simply runs again at the next connect.
    pub async fn migrate(&self) -> StoreResult<u64> {
        let schema_key = self.keys().schema_key();
        let mut conn = self.conn.clone();
        let stored: Option<String> = conn.get(&schema_key).await.on(self, &schema_key)?;
        let current = crate::SCHEMA_VERSION;
        match stored.as_deref().map(str::parse::<u32>) {
            Some(Ok(v)) if v == current => return Ok(0),
            Some(Ok(v)) if v > current => {
                return Err(StoreError::Corrupt {
                    key: schema_key,
                    reason: format!(
                        "schema version {v} is newer than this build's ({current}): written by a newer arena"
                    ),
                });
            }
            Some(Err(e)) => {
                return Err(StoreError::Corrupt {
                    key: schema_key,
                    reason: format!("not a schema version: {e}"),
                });
            }
            _ => {}
        }
        let mut rewritten = self
            .migrate_hash::<Panel>(&self.keys().panels_key())
            .await?;
        // The prefix has no glob characters (checked at connect).
        let pattern = format!("{}:{{p:*}}:deals", self.prefix);
        let mut hashes = Vec::new();
        {
            let mut scan = conn
                .scan_match::<_, String>(&pattern)
                .await
                .on(self, &pattern)?;
            while let Some(key) = scan.next_item().await {
                hashes.push(key.on(self, &pattern)?);
            }
        }
        hashes.sort_unstable();
        hashes.dedup();
        for hash in hashes {
            rewritten += self.migrate_hash::<DealRecord>(&hash).await?;
        }
        conn.set::<_, _, ()>(&schema_key, current)
            .await
            .on(self, &schema_key)?;
        Ok(rewritten)
    }

    /// Rewrites every field of the hash `key` that holds an older version of a `T`.
    async fn migrate_hash<T>(&self, key: &str) -> StoreResult<u64>
    where
        T: serde::de::DeserializeOwned + serde::Serialize,
    {
        let mut conn = self.conn.clone();
        let mut fields: Vec<(String, Vec<u8>)> = Vec::new();
        {
            let mut scan = conn
                .hscan::<_, (String, Vec<u8>)>(key)
                .await
                .on(self, key)?;
            while let Some(field) = scan.next_item().await {
                fields.push(field.on(self, key)?);
            }
        }
        let mut rewritten = 0;
        for (field, old) in fields {
            let Some(new) = upgrade::<T>(|| format!("{key} field {field}"), &old)? else {
                continue;
            };
            let replaced: u8 = self
                .scripts
                .replace_if
                .key(key)
                .arg(&field)
                .arg(old)
                .arg(new)
                .invoke_async(&mut conn)
                .await
                .on(self, key)?;
            rewritten += u64::from(replaced);
        }
        Ok(rewritten)
    }

    /// The channel the store-level watch publishes on, `{prefix}:changes` (a Pub/Sub channel,
    /// not a key: in Redis Cluster every node hears it).
    fn channel(&self) -> String {
        self.keys().channel_name()
    }

    /// An invocation of a control-slot fenced script with the fence's key and argument in front.
    fn fenced_call<'a>(&self, script: &'a Script) -> ::redis::ScriptInvocation<'a> {
        let mut call = script.prepare_invoke();
        call.key(self.keys().records_key(crate::INSTANCE_KIND))
            .arg(self.fence.get().map_or("", String::as_str));
        call
    }

    /// An invocation of a tag-fenced script: `keys` (the slot's fence copy first) and the fence
    /// argument in front of the script's own.
    fn tag_fenced_call<'a>(
        &self,
        script: &'a Script,
        keys: &[String],
    ) -> ::redis::ScriptInvocation<'a> {
        let mut call = script.prepare_invoke();
        for key in keys {
            call.key(key);
        }
        call.arg(self.fence.get().map_or("", String::as_str));
        call
    }

    /// Runs a tag-fenced `call` in `tag`'s slot; when the slot has no (or a stale) copy of the
    /// instance id, renews it ([`RedisStore::renew_fence`]) and runs it once more. `key` names
    /// the call in errors.
    async fn invoke_tagged<T: ::redis::FromRedisValue>(
        &self,
        call: &::redis::ScriptInvocation<'_>,
        tag: &Tag<'_>,
        key: &str,
    ) -> StoreResult<T> {
        let mut conn = self.conn.clone();
        match call.invoke_async(&mut conn).await {
            Err(e) if e.code() == Some("ARENAFENCE") => {
                self.renew_fence(tag).await?;
                call.invoke_async(&mut conn).await.on(self, key)
            }
            reply => reply.on(self, key),
        }
    }

    /// Writes `tag`'s copy of this handle's instance id, if the instance record (in the control
    /// slot) still holds it: checked before the copy is written and again after, so a copy made
    /// just as the store lost its data is taken back rather than left to fence the new store's
    /// writes with the old id. A copy of an older instance (the store was restored, or this is a
    /// new instance on an emptied store) is overwritten the same way.
    async fn renew_fence(&self, tag: &Tag<'_>) -> StoreResult<()> {
        let Some(fence) = self.fence.get() else {
            return Ok(());
        };
        self.check_instance(fence).await?;
        let key = self.keys().fence_key(tag);
        let mut conn = self.conn.clone();
        conn.set::<_, _, ()>(&key, fence).await.on(self, &key)?;
        if let Err(lost) = self.check_instance(fence).await {
            self.scripts
                .delete_fence
                .key(&key)
                .arg(fence)
                .invoke_async::<u8>(&mut conn)
                .await
                .on(self, &key)?;
            return Err(lost);
        }
        Ok(())
    }

    /// The key builders of this store's prefix.
    fn keys(&self) -> Keys<'_> {
        Keys {
            prefix: &self.prefix,
            lane: self.lane.as_deref(),
        }
    }

    /// The key prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The server's address (`host:port`), as named in error messages.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// True if the connection is TLS (a `rediss://` URL).
    pub fn is_tls(&self) -> bool {
        self.tls
    }

    /// Up to `max` jobs ready now, reclaimed or new, without waiting.
    async fn take_jobs(
        &self,
        consumer: &str,
        reclaim_ms: u64,
        max: usize,
    ) -> StoreResult<Vec<JobEntry>> {
        let key = self.keys().jobs_key();
        let mut conn = self.conn.clone();
        let entries: Vec<(String, Vec<Vec<u8>>, u64)> = self
            .scripts
            .next_jobs
            .key(&key)
            .arg(GROUP)
            .arg(consumer)
            .arg(reclaim_ms)
            .arg(max)
            .invoke_async(&mut conn)
            .await
            .on(self, &key)?;
        entries
            .into_iter()
            .map(|(id, fields, deliveries)| job_entry(&key, id, fields, deliveries))
            .collect()
    }

    /// Waits up to `wait` for new jobs (at most `max`) on a connection of its own.
    async fn wait_for_new_jobs(
        &self,
        consumer: &str,
        wait: Duration,
        max: usize,
    ) -> StoreResult<Vec<JobEntry>> {
        let key = self.keys().jobs_key();
        let mut cmd = ::redis::cmd("XREADGROUP");
        cmd.arg("GROUP")
            .arg(GROUP)
            .arg(consumer)
            .arg("COUNT")
            .arg(max)
            .arg("BLOCK")
            // Never 0: that would wait for ever.
            .arg(millis_ceil(wait).max(1))
            .arg("STREAMS")
            .arg(&key)
            .arg(">");
        // A pooled connection may have died with a Redis restart since it was last used: then
        // once more on a fresh one.
        let (mut conn, pooled) = match self.idle_blocking_connection() {
            Some(conn) => (conn, true),
            None => (self.open_blocking_connection().await?, false),
        };
        let reply = match self.blocking_read(&mut conn, &cmd, wait).await {
            Err(e) if pooled && !e.is_timeout() && e.is_connection_dropped() => {
                conn = self.open_blocking_connection().await?;
                self.blocking_read(&mut conn, &cmd, wait).await
            }
            reply => reply,
        };
        let reply = match reply {
            Ok(reply) => reply,
            // Redis lost the group (a restart without data), or the stream went while this
            // call waited (`UNBLOCKED`): the next `take_jobs` makes them again.
            Err(e) if matches!(e.code(), Some("NOGROUP" | "UNBLOCKED")) => {
                self.return_blocking_connection(conn);
                return Ok(Vec::new());
            }
            Err(e) => return Err(self.error(&key, e)),
        };
        self.return_blocking_connection(conn);
        let Some(streams) = reply else {
            return Ok(Vec::new());
        };
        streams
            .into_iter()
            .next()
            .into_iter()
            .flat_map(|(_, entries)| entries)
            .map(|(id, fields)| job_entry(&key, id, fields, 1))
            .collect()
    }

    /// One blocking read, given a little longer than it blocks for before the connection is
    /// deemed dead.
    async fn blocking_read(
        &self,
        conn: &mut MultiplexedConnection,
        cmd: &::redis::Cmd,
        wait: Duration,
    ) -> Result<Option<StreamsReply>, RedisError> {
        let limit = wait + Duration::from_secs(5);
        match tokio::time::timeout(limit, cmd.query_async(conn)).await {
            Ok(reply) => reply,
            Err(_) => Err(RedisError::from(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("no answer to a blocking read within {limit:?}"),
            ))),
        }
    }

    fn idle_blocking_connection(&self) -> Option<MultiplexedConnection> {
        self.blocking
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop()
    }

    fn return_blocking_connection(&self, conn: MultiplexedConnection) {
        let mut idle = self
            .blocking
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if idle.len() < IDLE_BLOCKING_CONNECTIONS {
            idle.push(conn);
        }
    }

    async fn open_blocking_connection(&self) -> StoreResult<MultiplexedConnection> {
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(2)))
            // Blocking reads are timed by `blocking_read`, which knows how long each waits.
            .set_response_timeout(None);
        self.client
            .get_multiplexed_async_connection_with_config(&config)
            .await
            .map_err(|e| unavailable(&self.addr, &e))
    }

    /// Maps an error of a call on `key`: a key holding another type is corrupt data, anything
    /// else means Redis is not usable right now.
    fn error(&self, key: &str, e: RedisError) -> StoreError {
        // A slot whose fence copy was replaced again right after it was renewed: another
        // instance writes there, so this handle's data is not the store's.
        if matches!(e.code(), Some("ARENADATALOSS" | "ARENAFENCE")) {
            return StoreError::DataLoss(format!(
                "redis at {}, prefix {}: {}",
                self.addr,
                self.prefix,
                e.detail()
                    .unwrap_or("the instance record is gone or replaced")
            ));
        }
        if e.code() == Some("WRONGTYPE") {
            return StoreError::Corrupt {
                key: key.to_string(),
                reason: format!("holds a value of the wrong type ({e})"),
            };
        }
        unavailable(&self.addr, &e)
    }
}

/// The names of arena's keys under one prefix (`docs/redis-keys.md`): every key arena touches is
/// built here, and each multi-key call's keys by one function, so the slot tests can check them.
#[derive(Clone, Copy)]
struct Keys<'a> {
    prefix: &'a str,
    lane: Option<&'a str>,
}

impl Keys<'_> {
    fn schema_key(&self) -> String {
        self.ctl_key("schema")
    }

    /// A key of the control slot, `{prefix}:{ctl}:{name}`: the instance record and the other
    /// records, panels, deal usage, the job stream and the schema version, so that a write of any
    /// of them and the instance check are one script on one Redis Cluster slot.
    fn channel_name(&self) -> String {
        format!("{}:changes", self.prefix)
    }

    fn ctl_key(&self, name: &str) -> String {
        format!("{}:{{{CONTROL_TAG}}}:{name}", self.prefix)
    }

    /// A key of a competition's or a panel's slot, `{prefix}:{tag}:{name}`.
    fn tagged_key(&self, tag: &Tag<'_>, name: &str) -> String {
        self.tagged_key_of(tag, &[name])
    }

    /// [`Keys::tagged_key`] with the name in parts, put together in one allocation of the exact
    /// size: a referee builds several keys for every table it finishes.
    fn tagged_key_of(&self, tag: &Tag<'_>, name: &[&str]) -> String {
        let (kind, id) = match tag {
            Tag::Competition(c) => ("c:", *c),
            Tag::Panel(p) => ("p:", *p),
        };
        let parts = [self.prefix, ":{", kind, id, "}:"];
        let len = parts.iter().chain(name).map(|p| p.len()).sum();
        let mut key = String::with_capacity(len);
        for part in parts.iter().chain(name) {
            key.push_str(part);
        }
        key
    }

    fn panels_key(&self) -> String {
        self.ctl_key("panels")
    }

    fn deals_key(&self, panel: &str) -> String {
        self.tagged_key(&Tag::Panel(panel), "deals")
    }

    fn chunks_key(&self, panel: &str, source: &str) -> String {
        self.tagged_key(&Tag::Panel(panel), &format!("measured-chunks:{source}"))
    }

    fn bitmap_key(&self, panel: &str, source: &str, chunk: u64) -> String {
        self.tagged_key(&Tag::Panel(panel), &format!("measured:{source}:{chunk}"))
    }

    fn usage_key(&self) -> String {
        self.ctl_key("deal-usage")
    }

    /// The job stream of the lane: `jobs` for the default one, `jobs:{lane}` for another, all
    /// in the control slot (a finish script acknowledges its jobs beside the instance check).
    fn jobs_key(&self) -> String {
        match self.lane {
            None => self.ctl_key("jobs"),
            Some(lane) => self.ctl_key(&format!("jobs:{lane}")),
        }
    }

    fn result_key(&self, table: &str) -> String {
        self.tagged_key_of(&Tag::of_table(table), &["result:", table])
    }

    fn replay_key(&self, table: &str) -> String {
        self.tagged_key_of(&Tag::of_table(table), &["replay:", table])
    }

    fn competition_key(&self, competition: &str) -> String {
        self.tagged_key(&Tag::Competition(competition), "results")
    }

    /// A slot's copy of the instance id (see [`TAG_FENCE`]).
    fn fence_key(&self, tag: &Tag<'_>) -> String {
        self.tagged_key(tag, "fence")
    }

    fn bots_key(&self) -> String {
        format!("{}:bots", self.prefix)
    }

    fn records_key(&self, kind: &str) -> String {
        self.ctl_key(&format!("records:{kind}"))
    }

    fn presence_key(&self, bot: &str) -> String {
        format!("{}:presence:{bot}", self.prefix)
    }

    /// The keys of `put_deals` for the records of one panel, in the script's order: the fence
    /// copy, then per record (deals hash, chunk set, bitmap; the deals hash again for an
    /// imported deal), with each record's (chunk, bit) or `None`.
    fn put_deals_keys(&self, records: &[&DealRecord]) -> (Vec<String>, Vec<Option<(u64, u64)>>) {
        let mut keys = vec![self.fence_key(&Tag::Panel(&records[0].panel))];
        let mut bits = Vec::with_capacity(records.len());
        for r in records {
            let deals = self.deals_key(&r.panel);
            match r.source {
                Some((source, index)) => {
                    let source = source_key(&source);
                    let (chunk, bit) = (index / CHUNK_BITS, index % CHUNK_BITS);
                    keys.extend([
                        deals,
                        self.chunks_key(&r.panel, &source),
                        self.bitmap_key(&r.panel, &source, chunk),
                    ]);
                    bits.push(Some((chunk, bit)));
                }
                // Unused placeholders keep every record at three keys and four arguments.
                None => {
                    keys.extend([deals.clone(), deals.clone(), deals]);
                    bits.push(None);
                }
            }
        }
        (keys, bits)
    }

    /// The keys of one `put_result`: the fence copy, result, replay[, competition index].
    fn put_result_keys(&self, table: &str, competition: Option<&str>) -> Vec<String> {
        let mut keys = vec![
            self.fence_key(&Tag::of_table(table)),
            self.result_key(table),
            self.replay_key(table),
        ];
        keys.extend(competition.map(|c| self.competition_key(c)));
        keys
    }

    /// The keys of one `finish_jobs` results script (jobs of one competition): the fence copy,
    /// then per job (result, replay, competition index or the result again).
    fn finish_results_keys(&self, jobs: &[&FinishedJob<'_>]) -> Vec<String> {
        let mut keys = vec![self.fence_key(&Tag::of_table(jobs[0].table_id))];
        for job in jobs {
            let result = self.result_key(job.table_id);
            let listing = job
                .competition
                .map_or_else(|| result.clone(), |c| self.competition_key(c));
            keys.extend([result, self.replay_key(job.table_id), listing]);
        }
        keys
    }

    /// The keys of one `delete_results` script (tables of one competition): the fence copy,
    /// (result, replay) per table[, competition index].
    fn delete_results_keys(&self, tables: &[&String], competition: Option<&str>) -> Vec<String> {
        let mut keys = vec![self.fence_key(&Tag::of_table(tables[0]))];
        for table in tables {
            keys.extend([self.result_key(table), self.replay_key(table)]);
        }
        keys.extend(competition.map(|c| self.competition_key(c)));
        keys
    }
}

/// A Redis reply with its error mapped by [`RedisStore::error`], the one mapping of Redis
/// errors to store errors: `conn.get(&key).await.on(self, &key)?`.
trait OnKey<T> {
    /// The reply, or the store error of a call on `key`.
    fn on(self, store: &RedisStore, key: &str) -> StoreResult<T>;
}

impl<T> OnKey<T> for Result<T, RedisError> {
    fn on(self, store: &RedisStore, key: &str) -> StoreResult<T> {
        self.map_err(|e| store.error(key, e))
    }
}

/// The TLS error behind `e`, if a TLS handshake or record failed.
fn tls_error(e: &RedisError) -> Option<&rustls::Error> {
    use std::error::Error as _;
    // Redis keeps the cause behind an `Arc`; the async connection wraps rustls' errors in I/O
    // errors, the sync one does not.
    let cause = e
        .source()?
        .downcast_ref::<Arc<dyn std::error::Error + Send + Sync>>()?;
    if let Some(tls) = cause.downcast_ref::<rustls::Error>() {
        return Some(tls);
    }
    cause
        .downcast_ref::<std::io::Error>()?
        .get_ref()?
        .downcast_ref::<rustls::Error>()
}

/// `redis at 127.0.0.1:6379: connection refused`.
fn unavailable(addr: &str, e: &RedisError) -> StoreError {
    let what = if let Some(tls) = tls_error(e) {
        let hint = match tls {
            rustls::Error::InvalidCertificate(_) => {
                " (is the server's CA trusted? a private CA is given with --redis-ca-file)"
            }
            _ => "",
        };
        format!("TLS failed: {tls}{hint}")
    } else if e.is_connection_refusal() {
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

/// An `XREADGROUP` reply: per stream, its name and its entries (id, [field, value, …]).
type StreamsReply = Vec<(String, Vec<(String, Vec<Vec<u8>>)>)>;

/// A job entry read from the stream at `key`: its fields must be `table` and `job`.
fn job_entry(
    key: &str,
    id: String,
    fields: Vec<Vec<u8>>,
    deliveries: u64,
) -> StoreResult<JobEntry> {
    let corrupt = |reason: String| StoreError::Corrupt {
        key: format!("{key} entry {id}"),
        reason,
    };
    let (mut table_id, mut payload) = (None, None);
    let mut fields = fields.into_iter();
    while let Some(name) = fields.next() {
        let value = fields
            .next()
            .ok_or_else(|| corrupt("a field without a value".to_string()))?;
        match name.as_slice() {
            b"table" => {
                let table = String::from_utf8(value)
                    .map_err(|_| corrupt("its table id is not UTF-8".to_string()))?;
                table_id = Some(table);
            }
            b"job" => payload = Some(value),
            other => {
                return Err(corrupt(format!(
                    "unexpected field {:?}",
                    String::from_utf8_lossy(other)
                )));
            }
        }
    }
    match (table_id, payload) {
        (Some(table_id), Some(payload)) => Ok(JobEntry {
            entry_id: id,
            table_id,
            payload,
            deliveries,
        }),
        _ => Err(corrupt("no table or no job field".to_string())),
    }
}

/// Checks that `id` can be a stream entry id (`{ms}-{seq}`), so Redis is never asked about
/// something else.
fn check_entry_id(id: &str) -> StoreResult<()> {
    let valid = id.split_once('-').is_some_and(|(ms, seq)| {
        ms.parse::<u64>().is_ok()
            && seq.parse::<u64>().is_ok()
            && !ms.starts_with('+')
            && !seq.starts_with('+')
    });
    if valid {
        Ok(())
    } else {
        Err(args::not_an_entry_id(id))
    }
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
impl Backend for RedisStore {
    fn describe(&self) -> String {
        let tls = if self.tls { " over TLS" } else { "" };
        let lane = self
            .lane
            .as_deref()
            .map(|l| format!(", lane {l}"))
            .unwrap_or_default();
        format!("redis ({}{tls}, prefix {}{lane})", self.addr, self.prefix)
    }
}

#[async_trait::async_trait]
impl Deals for RedisStore {
    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "put_panel", otel.kind = "client")
    )]
    async fn put_panel(&self, panel: &Panel) -> StoreResult<()> {
        check_panel(panel)?;
        let key = self.keys().panels_key();
        let json = encode(panel)?;
        let mut conn = self.conn.clone();
        self.fenced_call(&self.scripts.hset)
            .key(&key)
            .arg(self.channel())
            .arg("")
            .arg(&panel.id)
            .arg(json)
            .invoke_async::<u8>(&mut conn)
            .await
            .on(self, &key)?;
        Ok(())
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "panel", otel.kind = "client")
    )]
    async fn panel(&self, id: &str) -> StoreResult<Option<Panel>> {
        args::panel(id)?;
        let key = self.keys().panels_key();
        let mut conn = self.conn.clone();
        let json: Option<Vec<u8>> = conn.hget(&key, id).await.on(self, &key)?;
        json.map(|json| decode(|| format!("{key} field {id}"), &json))
            .transpose()
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "panels", otel.kind = "client")
    )]
    async fn panels(&self) -> StoreResult<Vec<Panel>> {
        let key = self.keys().panels_key();
        let mut conn = self.conn.clone();
        let all: HashMap<String, Vec<u8>> = conn.hgetall(&key).await.on(self, &key)?;
        let mut all: Vec<(String, Vec<u8>)> = all.into_iter().collect();
        all.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        all.iter()
            .map(|(id, json)| decode(|| format!("{key} field {id}"), json))
            .collect()
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "put_deals", otel.kind = "client")
    )]
    async fn put_deals(&self, records: &[DealRecord]) -> StoreResult<usize> {
        check_records(records)?;
        if records.is_empty() {
            return Ok(0);
        }
        // One script per panel: a panel's deals and measured indices share its slot.
        let mut by_panel: BTreeMap<&str, Vec<&DealRecord>> = BTreeMap::new();
        for r in records {
            by_panel.entry(&r.panel).or_default().push(r);
        }
        let mut new = 0u64;
        for (panel, records) in by_panel {
            let (keys, bits) = self.keys().put_deals_keys(&records);
            let mut call = self.tag_fenced_call(&self.scripts.put_deals, &keys);
            call.arg(self.channel())
                .arg(Topic::Deals(panel.to_string()).key());
            for (r, bits) in records.iter().zip(bits) {
                call.arg(&r.id).arg(encode(r)?);
                match bits {
                    Some((chunk, bit)) => call.arg(chunk).arg(bit),
                    None => call.arg("").arg(""),
                };
            }
            let n: u64 = self
                .invoke_tagged(&call, &Tag::Panel(panel), &keys[1])
                .await?;
            new += n;
        }
        Ok(new as usize)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "deal", otel.kind = "client")
    )]
    async fn deal(&self, panel: &str, id: &str) -> StoreResult<Option<DealRecord>> {
        args::deal(panel, id)?;
        let key = self.keys().deals_key(panel);
        let mut conn = self.conn.clone();
        let json: Option<Vec<u8>> = conn.hget(&key, id).await.on(self, &key)?;
        json.map(|json| decode_deal(|| format!("{key} field {id}"), panel, id, &json))
            .transpose()
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "deals", otel.kind = "client")
    )]
    async fn deals(&self, panel: &str) -> StoreResult<Vec<DealRecord>> {
        args::panel(panel)?;
        let key = self.keys().deals_key(panel);
        let mut conn = self.conn.clone();
        let all: HashMap<String, Vec<u8>> = conn.hgetall(&key).await.on(self, &key)?;
        all.iter()
            .map(|(id, json)| decode_deal(|| format!("{key} field {id}"), panel, id, json))
            .collect()
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "deal_count", otel.kind = "client")
    )]
    async fn deal_count(&self, panel: &str) -> StoreResult<u64> {
        args::panel(panel)?;
        let key = self.keys().deals_key(panel);
        let mut conn = self.conn.clone();
        conn.hlen(&key).await.on(self, &key)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "measured_indices", otel.kind = "client")
    )]
    async fn measured_indices(&self, panel: &str, source: &DealSource) -> StoreResult<Vec<u64>> {
        args::panel(panel)?;
        let source = source_key(source);
        let chunks_key = self.keys().chunks_key(panel, &source);
        let mut conn = self.conn.clone();
        let names: Vec<String> = conn.smembers(&chunks_key).await.on(self, &chunks_key)?;
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
            pipe.get(self.keys().bitmap_key(panel, &source, chunk));
        }
        let bitmaps: Vec<Option<Vec<u8>>> = pipe
            .query_async(&mut conn)
            .await
            .on(self, &self.keys().bitmap_key(panel, &source, chunks[0]))?;
        let mut indices = Vec::new();
        for (chunk, bitmap) in chunks.iter().zip(&bitmaps) {
            let bitmap = bitmap.as_deref().unwrap_or_default();
            if bitmap.len() as u64 > CHUNK_BITS / 8 {
                return Err(StoreError::Corrupt {
                    key: self.keys().bitmap_key(panel, &source, *chunk),
                    reason: format!("{} bytes, more than a chunk holds", bitmap.len()),
                });
            }
            push_indices(chunk * CHUNK_BITS, bitmap, &mut indices);
        }
        Ok(indices)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "claim_deals", otel.kind = "client")
    )]
    async fn claim_deals(&self, competition: &str, deal_ids: &[String]) -> StoreResult<Vec<bool>> {
        args::claim(competition, deal_ids)?;
        if deal_ids.is_empty() {
            return Ok(Vec::new());
        }
        let key = self.keys().usage_key();
        let mut call = self.fenced_call(&self.scripts.claim_deals);
        call.key(&key).arg(competition);
        for id in deal_ids {
            call.arg(id);
        }
        let mut conn = self.conn.clone();
        let held: Vec<u8> = call.invoke_async(&mut conn).await.on(self, &key)?;
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

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "used_deals", otel.kind = "client")
    )]
    async fn used_deals(&self) -> StoreResult<BTreeMap<String, String>> {
        let key = self.keys().usage_key();
        let mut conn = self.conn.clone();
        let all: HashMap<String, String> = conn.hgetall(&key).await.on(self, &key)?;
        Ok(all.into_iter().collect())
    }
}

#[async_trait::async_trait]
impl Jobs for RedisStore {
    fn lane(&self, lane: &str) -> StoreResult<Arc<dyn Store>> {
        crate::check_lane(lane)?;
        Ok(Arc::new(RedisStore {
            lane: (!lane.is_empty()).then(|| Arc::from(lane)),
            ..self.clone()
        }))
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "enqueue_job", otel.kind = "client")
    )]
    async fn enqueue_job(&self, table_id: &str, payload: &[u8]) -> StoreResult<String> {
        args::table(table_id)?;
        let key = self.keys().jobs_key();
        let mut conn = self.conn.clone();
        self.fenced_call(&self.scripts.enqueue_job)
            .key(&key)
            .arg(table_id)
            .arg(payload)
            .invoke_async(&mut conn)
            .await
            .on(self, &key)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "next_job", otel.kind = "client")
    )]
    async fn next_job(
        &self,
        consumer: &str,
        reclaim_after: Duration,
        block: Duration,
    ) -> StoreResult<Option<JobEntry>> {
        Ok(self
            .next_jobs(consumer, 1, reclaim_after, block)
            .await?
            .pop())
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "next_jobs", otel.kind = "client")
    )]
    async fn next_jobs(
        &self,
        consumer: &str,
        max: usize,
        reclaim_after: Duration,
        block: Duration,
    ) -> StoreResult<Vec<JobEntry>> {
        let reclaim_ms = args::next_job(consumer, reclaim_after)?;
        if max == 0 {
            return Ok(Vec::new());
        }
        let start = Instant::now();
        // Between slices, jobs that became reclaimable are looked for: at least twice per
        // `reclaim_after`, and never spinning faster than every 10 ms.
        let slice = (reclaim_after / 2).clamp(Duration::from_millis(10), BLOCK_SLICE);
        loop {
            let jobs = self.take_jobs(consumer, reclaim_ms, max).await?;
            if !jobs.is_empty() {
                return Ok(jobs);
            }
            let remaining = block.saturating_sub(start.elapsed());
            if remaining < Duration::from_millis(1) {
                return Ok(Vec::new());
            }
            let jobs = self
                .wait_for_new_jobs(consumer, remaining.min(slice), max)
                .await?;
            if !jobs.is_empty() {
                return Ok(jobs);
            }
        }
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "finish_jobs", otel.kind = "client")
    )]
    async fn finish_jobs(&self, jobs: &[FinishedJob<'_>]) -> StoreResult<Vec<bool>> {
        for job in jobs {
            args::result(job.table_id, job.competition)?;
            check_entry_id(job.entry_id)?;
        }
        let key = self.keys().jobs_key();
        let mut written = vec![false; jobs.len()];
        // Per slice: the results of each competition in its slot (one script per competition),
        // then the slice's jobs acknowledged in the stream's. An error before the
        // acknowledgement leaves the slice's jobs pending; their results are kept once.
        for (c, chunk) in jobs.chunks(FINISH_CHUNK).enumerate() {
            let base = c * FINISH_CHUNK;
            let mut by_tag: BTreeMap<Tag<'_>, Vec<usize>> = BTreeMap::new();
            for (i, job) in chunk.iter().enumerate() {
                by_tag
                    .entry(Tag::of_table(job.table_id))
                    .or_default()
                    .push(i);
            }
            for (tag, indices) in by_tag {
                let group: Vec<&FinishedJob<'_>> = indices.iter().map(|&i| &chunk[i]).collect();
                let keys = self.keys().finish_results_keys(&group);
                let mut call = self.tag_fenced_call(&self.scripts.finish_results, &keys);
                call.arg(self.channel()).arg(tag.topic());
                for job in &group {
                    call.arg(job.table_id)
                        .arg(job.result)
                        .arg(job.replay)
                        .arg(if job.competition.is_some() { "1" } else { "0" });
                }
                let flags: Vec<u8> = self.invoke_tagged(&call, &tag, &keys[1]).await?;
                if flags.len() != group.len() {
                    return Err(StoreError::Unavailable(format!(
                        "redis at {}: finishing {} jobs answered {} results",
                        self.addr,
                        group.len(),
                        flags.len()
                    )));
                }
                for (&i, flag) in indices.iter().zip(flags) {
                    written[base + i] = flag == 1;
                }
            }
            let mut ack = self.scripts.ack_jobs.prepare_invoke();
            ack.key(&key).arg(GROUP);
            for job in chunk {
                ack.arg(job.entry_id);
            }
            let mut conn = self.conn.clone();
            ack.invoke_async::<u8>(&mut conn).await.on(self, &key)?;
        }
        Ok(written)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "enqueue_jobs", otel.kind = "client")
    )]
    async fn enqueue_jobs(&self, jobs: &[(&str, &[u8])]) -> StoreResult<Vec<String>> {
        for (table, _) in jobs {
            args::table(table)?;
        }
        let key = self.keys().jobs_key();
        let mut ids = Vec::with_capacity(jobs.len());
        for chunk in jobs.chunks(ENQUEUE_CHUNK) {
            let mut call = self.fenced_call(&self.scripts.enqueue_jobs);
            call.key(&key);
            for (table, payload) in chunk {
                call.arg(*table).arg(*payload);
            }
            let mut conn = self.conn.clone();
            let chunk_ids: Vec<String> = call.invoke_async(&mut conn).await.on(self, &key)?;
            ids.extend(chunk_ids);
        }
        Ok(ids)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "ack_job", otel.kind = "client")
    )]
    async fn ack_job(&self, entry_id: &str) -> StoreResult<()> {
        check_entry_id(entry_id)?;
        let key = self.keys().jobs_key();
        let mut conn = self.conn.clone();
        self.scripts
            .ack_jobs
            .key(&key)
            .arg(GROUP)
            .arg(entry_id)
            .invoke_async::<u8>(&mut conn)
            .await
            .on(self, &key)?;
        Ok(())
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "touch_job", otel.kind = "client")
    )]
    async fn touch_job(&self, consumer: &str, entry_id: &str) -> StoreResult<()> {
        args::consumer(consumer)?;
        check_entry_id(entry_id)?;
        let key = self.keys().jobs_key();
        let mut conn = self.conn.clone();
        let touched: u8 = self
            .scripts
            .touch_job
            .key(&key)
            .arg(GROUP)
            .arg(consumer)
            .arg(entry_id)
            .invoke_async(&mut conn)
            .await
            .on(self, &key)?;
        if touched == 1 {
            Ok(())
        } else {
            Err(StoreError::Invalid(format!(
                "job {entry_id} is not held by {consumer} (reclaimed by another, or done)"
            )))
        }
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "job_counts", otel.kind = "client")
    )]
    async fn job_counts(&self) -> StoreResult<JobCounts> {
        let key = self.keys().jobs_key();
        let mut conn = self.conn.clone();
        let (entries, pending): (u64, u64) = self
            .scripts
            .job_counts
            .key(&key)
            .arg(GROUP)
            .invoke_async(&mut conn)
            .await
            .on(self, &key)?;
        Ok(JobCounts {
            waiting: entries.saturating_sub(pending),
            pending,
        })
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "resume_jobs", otel.kind = "client")
    )]
    async fn resume_jobs(&self, consumer: &str, max: usize) -> StoreResult<Vec<JobEntry>> {
        args::consumer(consumer)?;
        if max == 0 {
            return Ok(Vec::new());
        }
        let key = self.keys().jobs_key();
        let mut conn = self.conn.clone();
        let entries: Vec<(String, Vec<Vec<u8>>, u64)> = self
            .scripts
            .resume_jobs
            .key(&key)
            .arg(GROUP)
            .arg(consumer)
            .arg(max)
            .invoke_async(&mut conn)
            .await
            .on(self, &key)?;
        entries
            .into_iter()
            .map(|(id, fields, deliveries)| job_entry(&key, id, fields, deliveries))
            .collect()
    }
}

#[async_trait::async_trait]
impl Results for RedisStore {
    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "result_count", otel.kind = "client")
    )]
    async fn result_count(&self, competition: &str) -> StoreResult<u64> {
        args::competition(competition)?;
        let index = self.keys().competition_key(competition);
        let mut conn = self.conn.clone();
        conn.scard(&index).await.on(self, &index)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "put_result", otel.kind = "client")
    )]
    async fn put_result(
        &self,
        table_id: &str,
        competition: Option<&str>,
        result: &[u8],
        replay: &[u8],
    ) -> StoreResult<bool> {
        args::result(table_id, competition)?;
        let keys = self.keys().put_result_keys(table_id, competition);
        let mut call = self.tag_fenced_call(&self.scripts.put_result, &keys);
        call.arg(self.channel())
            .arg(Tag::of_table(table_id).topic())
            .arg(result)
            .arg(replay);
        if competition.is_some() {
            call.arg(table_id);
        }
        let written: u8 = self
            .invoke_tagged(&call, &Tag::of_table(table_id), &keys[1])
            .await?;
        Ok(written == 1)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "result", otel.kind = "client")
    )]
    async fn result(&self, table_id: &str) -> StoreResult<Option<Vec<u8>>> {
        args::table(table_id)?;
        let key = self.keys().result_key(table_id);
        let mut conn = self.conn.clone();
        conn.get(&key).await.on(self, &key)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "replay", otel.kind = "client")
    )]
    async fn replay(&self, table_id: &str) -> StoreResult<Option<Vec<u8>>> {
        args::table(table_id)?;
        let key = self.keys().replay_key(table_id);
        let mut conn = self.conn.clone();
        conn.get(&key).await.on(self, &key)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "results_for", otel.kind = "client")
    )]
    async fn results_for(&self, competition: &str) -> StoreResult<Vec<(String, Vec<u8>)>> {
        args::competition(competition)?;
        let index = self.keys().competition_key(competition);
        let mut conn = self.conn.clone();
        let mut tables: Vec<String> = conn.smembers(&index).await.on(self, &index)?;
        tables.sort_unstable();
        let mut results = Vec::with_capacity(tables.len());
        for chunk in tables.chunks(1_000) {
            let keys: Vec<String> = chunk.iter().map(|t| self.keys().result_key(t)).collect();
            let values: Vec<Option<Vec<u8>>> = ::redis::cmd("MGET")
                .arg(&keys)
                .query_async(&mut conn)
                .await
                .on(self, &keys[0])?;
            for ((table, key), value) in chunk.iter().zip(&keys).zip(values) {
                let value = match value {
                    Some(v) => v,
                    // Deleted (retention) since the listing was read: no longer listed.
                    None if !conn.sismember(&index, table).await.on(self, &index)? => continue,
                    None => {
                        return Err(StoreError::Corrupt {
                            key: key.clone(),
                            reason: format!("missing, but table {table} is listed in {index}"),
                        });
                    }
                };
                results.push((table.clone(), value));
            }
        }
        Ok(results)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "delete_results", otel.kind = "client")
    )]
    async fn delete_results(
        &self,
        competition: Option<&str>,
        table_ids: &[String],
    ) -> StoreResult<u64> {
        args::results(competition, table_ids)?;
        let mut deleted = 0u64;
        // One script per competition (the tables of one share its slot) and slice: each is
        // atomic, and none holds Redis for long.
        let mut by_tag: BTreeMap<Tag<'_>, Vec<&String>> = BTreeMap::new();
        for table in table_ids {
            by_tag.entry(Tag::of_table(table)).or_default().push(table);
        }
        for (tag, tables) in by_tag {
            for chunk in tables.chunks(500) {
                let keys = self.keys().delete_results_keys(chunk, competition);
                let mut call = self.tag_fenced_call(&self.scripts.delete_results, &keys);
                call.arg(self.channel()).arg(tag.topic());
                for table in chunk {
                    call.arg(*table);
                }
                let n: u64 = self.invoke_tagged(&call, &tag, &keys[1]).await?;
                deleted += n;
            }
        }
        Ok(deleted)
    }
}

#[async_trait::async_trait]
impl Bots for RedisStore {
    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "add_bot", otel.kind = "client")
    )]
    async fn add_bot(&self, bot: &BotRecord) -> StoreResult<bool> {
        check_bot(bot)?;
        let key = self.keys().bots_key();
        let json = encode(bot)?;
        let mut conn = self.conn.clone();
        conn.hset_nx(&key, &bot.name, json).await.on(self, &key)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "update_bot", otel.kind = "client")
    )]
    async fn update_bot(&self, bot: &BotRecord) -> StoreResult<bool> {
        check_bot(bot)?;
        let key = self.keys().bots_key();
        let json = encode(bot)?;
        let mut conn = self.conn.clone();
        let updated: u8 = self
            .scripts
            .update_bot
            .key(&key)
            .arg(&bot.name)
            .arg(json)
            .invoke_async(&mut conn)
            .await
            .on(self, &key)?;
        Ok(updated == 1)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "bot", otel.kind = "client")
    )]
    async fn bot(&self, name: &str) -> StoreResult<Option<BotRecord>> {
        args::bot(name)?;
        let key = self.keys().bots_key();
        let mut conn = self.conn.clone();
        let json: Option<Vec<u8>> = conn.hget(&key, name).await.on(self, &key)?;
        json.map(|json| decode_bot(|| format!("{key} field {name}"), name, &json))
            .transpose()
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "bots", otel.kind = "client")
    )]
    async fn bots(&self) -> StoreResult<Vec<BotRecord>> {
        let key = self.keys().bots_key();
        let mut conn = self.conn.clone();
        let all: HashMap<String, Vec<u8>> = conn.hgetall(&key).await.on(self, &key)?;
        let mut all: Vec<(String, Vec<u8>)> = all.into_iter().collect();
        all.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        all.iter()
            .map(|(name, json)| decode_bot(|| format!("{key} field {name}"), name, json))
            .collect()
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "set_presence", otel.kind = "client")
    )]
    async fn set_presence(&self, bot: &str, host: &str, ttl: Duration) -> StoreResult<()> {
        let ttl_ms = args::presence_for(bot, host, ttl)?;
        let key = self.keys().presence_key(bot);
        let mut conn = self.conn.clone();
        self.scripts
            .set_presence
            .key(&key)
            .arg(host)
            .arg(ttl_ms)
            .invoke_async::<u8>(&mut conn)
            .await
            .on(self, &key)?;
        Ok(())
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "clear_presence", otel.kind = "client")
    )]
    async fn clear_presence(&self, bot: &str, host: &str) -> StoreResult<()> {
        args::presence(bot, host)?;
        let key = self.keys().presence_key(bot);
        let mut conn = self.conn.clone();
        ::redis::pipe()
            .atomic()
            .zrem(&key, host)
            .ignore()
            .publish(self.channel(), Topic::Presence.key())
            .ignore()
            .query_async::<()>(&mut conn)
            .await
            .on(self, &key)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "presence", otel.kind = "client")
    )]
    async fn presence(&self, bot: &str) -> StoreResult<Vec<String>> {
        args::bot(bot)?;
        let key = self.keys().presence_key(bot);
        let mut conn = self.conn.clone();
        let mut hosts: Vec<String> = self
            .scripts
            .presence
            .key(&key)
            .invoke_async(&mut conn)
            .await
            .on(self, &key)?;
        hosts.sort_unstable();
        Ok(hosts)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "remove_bot", otel.kind = "client")
    )]
    async fn remove_bot(&self, name: &str) -> StoreResult<bool> {
        args::bot(name)?;
        let key = self.keys().bots_key();
        let presence = self.keys().presence_key(name);
        let mut conn = self.conn.clone();
        // Two calls, so that presence keys need not share the bots hash's Redis Cluster slot:
        // the record first; a presence left by a failure in between expires with its TTL, and
        // bot-host ends the session of a removed bot at its next refresh anyway.
        let n: u64 = conn.hdel(&key, name).await.on(self, &key)?;
        ::redis::pipe()
            .atomic()
            .del(&presence)
            .ignore()
            .publish(self.channel(), Topic::Presence.key())
            .ignore()
            .query_async::<()>(&mut conn)
            .await
            .on(self, &presence)?;
        Ok(n > 0)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "claim_presence", otel.kind = "client")
    )]
    async fn claim_presence(
        &self,
        bot: &str,
        host: &str,
        ttl: Duration,
    ) -> StoreResult<Option<String>> {
        let ttl_ms = args::presence_for(bot, host, ttl)?;
        let key = self.keys().presence_key(bot);
        let mut conn = self.conn.clone();
        self.scripts
            .claim_presence
            .key(&key)
            .arg(self.channel())
            .arg(Topic::Presence.key())
            .arg(host)
            .arg(ttl_ms)
            .invoke_async(&mut conn)
            .await
            .on(self, &key)
    }
}

impl Watch for RedisStore {
    fn watch(&self, topic: &Topic) -> StoreResult<Watcher> {
        let watcher = self.watch.hub.watch(topic)?;
        self.watch.start(self)?;
        Ok(watcher)
    }
}

/// The subscriber of a store's change channel ([`RedisStore::channel`]): one task per store
/// (its clones and lane views share it), started by the first [`Watch::watch`] and ended when
/// the store is dropped. It signals the [`Hub`] with each topic it hears of. Losing the
/// subscription (Redis down, the connection cut) wakes every watcher once, and making it
/// (again) wakes every watcher once more, so no watcher waits on a change published while
/// nobody listened; failed attempts in between wake nobody.
#[derive(Debug)]
struct Subscriber {
    hub: Arc<Hub>,
    /// Dropped with the store, which ends the task.
    alive: tokio::sync::watch::Sender<()>,
    /// The task, once spawned (spawned again if its runtime ended it).
    task: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Default for Subscriber {
    fn default() -> Self {
        Subscriber {
            hub: Arc::default(),
            alive: tokio::sync::watch::Sender::new(()),
            task: Mutex::default(),
        }
    }
}

/// The first and the longest pause before subscribing again after a failure.
const RESUBSCRIBE_PAUSE: (Duration, Duration) =
    (Duration::from_millis(100), Duration::from_secs(2));

impl Subscriber {
    /// Spawns the subscriber task of `store` unless it runs already.
    fn start(&self, store: &RedisStore) -> StoreResult<()> {
        // The task is one call away whatever a panicking holder did.
        let mut task = self.task.lock().unwrap_or_else(|p| p.into_inner());
        if task.as_ref().is_some_and(|t| !t.is_finished()) {
            return Ok(());
        }
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            StoreError::Invalid("watching a Redis store needs a Tokio runtime".into())
        })?;
        let hub = Arc::downgrade(&self.hub);
        let (client, channel, addr) = (store.client.clone(), store.channel(), store.addr.clone());
        *task = Some(runtime.spawn(subscribe(
            client,
            channel,
            addr,
            hub,
            self.alive.subscribe(),
        )));
        Ok(())
    }
}

/// The subscriber task: subscribes to `channel`, signals `hub` per message, and subscribes
/// again (pausing longer after each failure, up to [`RESUBSCRIBE_PAUSE`]'s longest) until
/// `alive`'s sender is dropped.
async fn subscribe(
    client: ::redis::Client,
    channel: String,
    addr: String,
    hub: std::sync::Weak<Hub>,
    mut alive: tokio::sync::watch::Receiver<()>,
) {
    use futures_util::StreamExt;
    let resync = |hub: &std::sync::Weak<Hub>| hub.upgrade().map(|h| h.resync()).is_some();
    let mut pause = RESUBSCRIBE_PAUSE.0;
    loop {
        let subscribed = async {
            let mut pubsub = client.get_async_pubsub().await?;
            pubsub.subscribe(&channel).await?;
            Ok::<_, RedisError>(pubsub)
        };
        let outcome = tokio::select! {
            r = subscribed => r,
            _ = alive.changed() => return,
        };
        match outcome {
            Ok(mut pubsub) => {
                // Changes published before the subscription took are unknown: every watcher
                // rescans once.
                if !resync(&hub) {
                    return;
                }
                pause = RESUBSCRIBE_PAUSE.0;
                let mut messages = pubsub.on_message();
                loop {
                    let message = tokio::select! {
                        m = messages.next() => m,
                        _ = alive.changed() => return,
                    };
                    let Some(message) = message else { break };
                    let Some(hub) = hub.upgrade() else { return };
                    let topic = message.get_payload_bytes();
                    // A topic longer than any watcher may watch is nobody's.
                    if topic.len() <= crate::watch::MAX_TOPIC_BYTES + 2
                        && let Ok(topic) = std::str::from_utf8(topic)
                    {
                        hub.notify_key(topic);
                    }
                }
                tracing::warn!(redis = %addr, "the watch subscription was lost; subscribing again");
                // What changes from now until the subscription is made again is unknown:
                // watchers rescan now (and find Redis down, or not) rather than wait on a
                // message that cannot come, and rescan again once it is made.
                if !resync(&hub) {
                    return;
                }
            }
            Err(e) => {
                tracing::debug!(redis = %addr, error = %e, "cannot subscribe to the watch channel");
            }
        }
        tokio::select! {
            () = tokio::time::sleep(pause) => {}
            _ = alive.changed() => return,
        }
        pause = (pause * 2).min(RESUBSCRIBE_PAUSE.1);
    }
}

#[async_trait::async_trait]
impl Records for RedisStore {
    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "put_record", otel.kind = "client")
    )]
    async fn put_record(&self, kind: &str, key: &str, value: &[u8]) -> StoreResult<()> {
        args::record(kind, key)?;
        let hash = self.keys().records_key(kind);
        let mut conn = self.conn.clone();
        self.fenced_call(&self.scripts.hset)
            .key(&hash)
            .arg(self.channel())
            .arg(Topic::Records(kind.to_string()).key())
            .arg(key)
            .arg(value)
            .invoke_async::<u8>(&mut conn)
            .await
            .on(self, &hash)?;
        Ok(())
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "swap_record", otel.kind = "client")
    )]
    async fn swap_record(
        &self,
        kind: &str,
        key: &str,
        expected: Option<&[u8]>,
        value: &[u8],
    ) -> StoreResult<bool> {
        args::record(kind, key)?;
        let hash = self.keys().records_key(kind);
        let mut conn = self.conn.clone();
        let swapped: u8 = self
            .fenced_call(&self.scripts.swap_record)
            .key(&hash)
            .arg(self.channel())
            .arg(Topic::Records(kind.to_string()).key())
            .arg(key)
            .arg(if expected.is_some() { "1" } else { "0" })
            .arg(expected.unwrap_or_default())
            .arg(value)
            .invoke_async(&mut conn)
            .await
            .on(self, &hash)?;
        Ok(swapped == 1)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "record", otel.kind = "client")
    )]
    async fn record(&self, kind: &str, key: &str) -> StoreResult<Option<Vec<u8>>> {
        args::record(kind, key)?;
        let hash = self.keys().records_key(kind);
        let mut conn = self.conn.clone();
        conn.hget(&hash, key).await.on(self, &hash)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "records", otel.kind = "client")
    )]
    async fn records(&self, kind: &str) -> StoreResult<Vec<(String, Vec<u8>)>> {
        args::record_kind(kind)?;
        let hash = self.keys().records_key(kind);
        let mut conn = self.conn.clone();
        let all: HashMap<String, Vec<u8>> = conn.hgetall(&hash).await.on(self, &hash)?;
        let mut all: Vec<(String, Vec<u8>)> = all.into_iter().collect();
        all.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        Ok(all)
    }

    #[instrument(
        name = "redis", target = "arena_store::redis::call", skip_all, err(Display),
        fields(db.system = "redis", db.operation = "delete_record", otel.kind = "client")
    )]
    async fn delete_record(&self, kind: &str, key: &str) -> StoreResult<bool> {
        args::record(kind, key)?;
        let hash = self.keys().records_key(kind);
        let mut conn = self.conn.clone();
        let (n,): (u64,) = ::redis::pipe()
            .atomic()
            .hdel(&hash, key)
            .publish(self.channel(), Topic::Records(kind.to_string()).key())
            .ignore()
            .query_async(&mut conn)
            .await
            .on(self, &hash)?;
        Ok(n > 0)
    }

    async fn open_instance(&self) -> StoreResult<String> {
        let kind = crate::INSTANCE_KIND;
        loop {
            if let Some(id) = self.record(kind, crate::INSTANCE_KEY).await? {
                let id = String::from_utf8(id).map_err(|_| StoreError::Corrupt {
                    key: self.keys().records_key(kind),
                    reason: "the instance id is not UTF-8".into(),
                })?;
                // The first id this handle (and its clones) opened stays its fence.
                let fence = self.fence.get_or_init(|| id.clone());
                if *fence != id {
                    return Err(StoreError::DataLoss(format!(
                        "redis at {}, prefix {}: the instance record is {id:?}, not {fence:?}",
                        self.addr, self.prefix
                    )));
                }
                return Ok(id);
            }
            let id = crate::new_instance_id();
            if self
                .swap_record(kind, crate::INSTANCE_KEY, None, id.as_bytes())
                .await?
            {
                let fence = self.fence.get_or_init(|| id.clone());
                if *fence != id {
                    return Err(StoreError::DataLoss(format!(
                        "redis at {}, prefix {}: the instance record {fence:?} is gone",
                        self.addr, self.prefix
                    )));
                }
                return Ok(id);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn a_password_given_where_the_url_goes_is_never_quoted() {
        for given in ["Secr3t", "redis:Secr3t", "Secr3t@", "Secr3t@host"] {
            let shown = redact_url(given);
            assert!(!shown.contains("Secr3t"), "{given:?} shown as {shown:?}");
        }
        let e = client("Secr3t", &RedisOptions::default()).unwrap_err();
        assert!(!e.to_string().contains("Secr3t"), "{e}");
        assert!(e.to_string().contains("redis URL ***"), "{e}");
    }

    /// CRC16/XMODEM (polynomial 0x1021, initial 0), the hash of Redis Cluster.
    fn crc16(bytes: &[u8]) -> u16 {
        let mut crc = 0u16;
        for &b in bytes {
            crc ^= u16::from(b) << 8;
            for _ in 0..8 {
                crc = if crc & 0x8000 != 0 {
                    (crc << 1) ^ 0x1021
                } else {
                    crc << 1
                };
            }
        }
        crc
    }

    /// The Redis Cluster slot of `key`: the CRC16 of its hash tag (between the first `{` and the
    /// first `}` after it, if not empty) or else of the whole key, mod 16384.
    fn slot(key: &str) -> u16 {
        let tagged = key.find('{').and_then(|open| {
            let rest = &key[open + 1..];
            rest.find('}')
                .filter(|&close| close > 0)
                .map(|close| &rest[..close])
        });
        crc16(tagged.unwrap_or(key).as_bytes()) % 16384
    }

    #[test]
    fn the_slot_function_is_redis_clusters() {
        // The test vector of the Redis Cluster specification.
        assert_eq!(crc16(b"123456789"), 0x31C3);
        assert_eq!(slot("{user1000}.following"), slot("{user1000}.followers"));
        assert_eq!(slot("foo{}{bar}"), crc16(b"foo{}{bar}") % 16384);
        assert_eq!(slot("foo{{bar}}zap"), crc16(b"{bar") % 16384);
        assert_eq!(slot("foo{bar}{zap}"), slot("bar"));
    }

    /// Every operation touching several keys touches keys of one slot: over names with the
    /// characters that could break a tag (`{`, `}`, `:`, `/`).
    #[test]
    fn each_operation_touches_one_slot() {
        let keys = Keys {
            prefix: "arena",
            lane: None,
        };
        let one_slot = |what: &str, touched: &[String]| {
            let slots: BTreeMap<u16, &String> = touched.iter().map(|k| (slot(k), k)).collect();
            assert_eq!(slots.len(), 1, "{what} touches several slots: {slots:?}");
        };
        for competition in ["cup", "c:1", "a}b", "{x}", "ladder-mahjong"] {
            let tables: Vec<String> = ["m0/r0/t0", "m1/r2/t3/f", "p9:{a}"]
                .iter()
                .map(|t| format!("{competition}/{t}"))
                .chain([competition.to_string()])
                .collect();
            for table in &tables {
                one_slot(
                    "put_result",
                    &keys.put_result_keys(table, Some(competition)),
                );
                one_slot("put_result unlisted", &keys.put_result_keys(table, None));
            }
            let refs: Vec<&String> = tables.iter().collect();
            one_slot(
                "delete_results",
                &keys.delete_results_keys(&refs, Some(competition)),
            );
            let jobs: Vec<FinishedJob<'_>> = tables
                .iter()
                .enumerate()
                .map(|(n, table)| FinishedJob {
                    entry_id: "1-0",
                    table_id: table,
                    competition: (n % 2 == 0).then_some(competition),
                    result: b"r",
                    replay: b"p",
                })
                .collect();
            let refs: Vec<&FinishedJob<'_>> = jobs.iter().collect();
            one_slot("finish_jobs' results", &keys.finish_results_keys(&refs));
            // results_for's MGET: the listing's tables' results.
            let mut listed: Vec<String> = tables.iter().map(|t| keys.result_key(t)).collect();
            listed.push(keys.competition_key(competition));
            one_slot("results_for", &listed);
        }
        for panel in ["p-1", "p:1", "p}1", "{p}"] {
            let records: Vec<DealRecord> = [Some(0), Some(70_000), Some(1 << 33), None]
                .into_iter()
                .enumerate()
                .map(|(n, index)| DealRecord {
                    id: format!("d{n}"),
                    game: crate::Game::named("ddz"),
                    deal: "D".into(),
                    source: index.map(|i| {
                        (
                            DealSource {
                                seed: 7,
                                bombs: None,
                            },
                            i,
                        )
                    }),
                    panel: panel.into(),
                    levels: vec![],
                    counts: vec![],
                    gdi: vec![],
                })
                .collect();
            let refs: Vec<&DealRecord> = records.iter().collect();
            one_slot("put_deals", &keys.put_deals_keys(&refs).0);
        }
        // Writes fenced in the control slot, and the job stream's scripts.
        let instance = keys.records_key(crate::INSTANCE_KIND);
        for written in [
            keys.panels_key(),
            keys.usage_key(),
            keys.jobs_key(),
            Keys {
                lane: Some("short"),
                ..keys
            }
            .jobs_key(),
            keys.schema_key(),
            keys.records_key("competition"),
            keys.records_key("ladder"),
        ] {
            one_slot("a control-slot write", &[instance.clone(), written]);
        }
        // Different competitions and panels are spread over slots, not all in one.
        let spread: BTreeSet<u16> = (0..64)
            .map(|i| slot(&keys.competition_key(&format!("cup-{i}"))))
            .chain((0..64).map(|i| slot(&keys.deals_key(&format!("panel-{i}")))))
            .collect();
        assert!(spread.len() > 100, "{} slots for 128 tags", spread.len());
    }

    #[test]
    fn entry_ids_are_stream_ids() {
        for good in ["0-0", "1795964255544-0", "1-18446744073709551615"] {
            check_entry_id(good).expect(good);
        }
        for bad in [
            "", "1", "-", "1-", "-1", "+1-0", "1-+0", "a-b", "1-0-0", "1 -0", "*",
        ] {
            assert!(
                matches!(check_entry_id(bad), Err(StoreError::Invalid(_))),
                "{bad:?}"
            );
        }
    }

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
