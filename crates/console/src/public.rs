//! Bounds on the work anyone may make the console do (`--public-spectator` opens its spectator
//! routes to the internet):
//!
//! - [`PublicLimiter`]: requests granted without a token are limited per client address
//!   (`--console-public-rate`, a minute's worth at once, then refilled evenly);
//! - [`Renderer`]: replays are played again on a thread of the console's own, at a lower CPU
//!   priority, one at a time, with a short queue (beyond it: 503 at once): a flood of replay
//!   requests takes neither the runtime's workers nor its blocking pool, which the referee's
//!   tables share in standalone, and each finished table is played again once, its frames kept
//!   in a bounded cache (least recently used out first) as the JSON sent.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use bytes::Bytes;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::api::Failure;

/// The default of `--console-public-rate`: requests a minute per client address.
pub const DEFAULT_PUBLIC_PER_MINUTE: u32 = 300;

/// Client addresses remembered at most; beyond it the idle ones are forgotten.
const MAX_TRACKED: usize = 10_000;

/// Limits requests granted without a token, per client address.
#[derive(Clone)]
pub struct PublicLimiter {
    limiter: Option<Arc<DefaultKeyedRateLimiter<IpAddr>>>,
    per_minute: u32,
}

impl PublicLimiter {
    /// `per_minute` requests a minute per address (all of them at once, too); 0: no limit.
    pub fn new(per_minute: u32) -> PublicLimiter {
        PublicLimiter {
            limiter: NonZeroU32::new(per_minute)
                .map(|n| Arc::new(RateLimiter::keyed(Quota::per_minute(n)))),
            per_minute,
        }
    }

    /// Counts a request from `peer`: a 429 naming the limit once its allowance is used up.
    pub fn check(&self, peer: IpAddr) -> Result<(), Failure> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        if limiter.len() > MAX_TRACKED {
            limiter.retain_recent();
        }
        limiter.check_key(&peer).map_err(|_| {
            Failure::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many requests from {peer}: the public may make {} a minute from one \
                     address (--console-public-rate); operators signed in are not limited",
                    self.per_minute
                ),
            )
        })
    }
}

/// Replays waiting to be played again at most; beyond it a request is refused at once.
pub const RENDER_QUEUE: usize = 8;
/// Finished tables whose frames are kept at most.
pub const CACHE_ENTRIES: usize = 64;
/// Bytes of frames kept at most.
pub const CACHE_BYTES: usize = 32 << 20;

/// A job for the render thread: play a replay again, answer with its JSON.
type Job = Box<dyn FnOnce() + Send>;

/// Plays replays again off the async runtime, and keeps what it played.
#[derive(Clone)]
pub struct Renderer {
    jobs: std::sync::mpsc::SyncSender<Job>,
    cache: Arc<Mutex<Cache>>,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new()
    }
}

impl Renderer {
    /// A renderer with its thread (it ends when the last clone is dropped).
    pub fn new() -> Renderer {
        let (jobs, rx) = std::sync::mpsc::sync_channel::<Job>(RENDER_QUEUE);
        let spawned = std::thread::Builder::new()
            .name("console-replays".into())
            .spawn(move || {
                lower_priority();
                while let Ok(job) = rx.recv() {
                    job();
                }
            });
        if let Err(e) = spawned {
            // Without the thread every job is refused as busy (the channel's receiver is gone).
            tracing::error!(error = %e, "the console cannot start its replay thread");
        }
        Renderer {
            jobs,
            cache: Arc::new(Mutex::new(Cache::default())),
        }
    }

    /// The frames of table `id` kept from an earlier request.
    pub fn cached(&self, id: &str) -> Option<Bytes> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(id)
    }

    /// `render` run on the render thread, its answer kept as table `id`'s frames.
    pub async fn render(
        &self,
        id: &str,
        render: impl FnOnce() -> Bytes + Send + 'static,
    ) -> Result<Bytes, Failure> {
        let bytes = self.submit(render)?.await.map_err(|_| busy())?;
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .put(id, bytes.clone());
        Ok(bytes)
    }

    /// Queues `render` for the render thread: its answer, or a 503 at once when the queue is
    /// full.
    fn submit(
        &self,
        render: impl FnOnce() -> Bytes + Send + 'static,
    ) -> Result<tokio::sync::oneshot::Receiver<Bytes>, Failure> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.jobs
            .try_send(Box::new(move || {
                let _ = tx.send(render());
            }))
            .map_err(|_| busy())?;
        Ok(rx)
    }
}

/// The answer when the render thread has more than it may queue.
fn busy() -> Failure {
    Failure::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "the console is playing {RENDER_QUEUE} replays again already; try again in a moment"
        ),
    )
}

/// Runs this thread below the normal CPU priority (nice 10): tables come first.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid has no arguments; setpriority on PRIO_PROCESS with a thread id changes that
    // thread's nice value only (Linux).
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 10);
    }
}

/// Frames by table id, least recently used dropped first, within [`CACHE_ENTRIES`] and
/// [`CACHE_BYTES`]. Small enough that finding the oldest by a scan is cheap.
#[derive(Default)]
struct Cache {
    entries: HashMap<String, (Bytes, u64)>,
    bytes: usize,
    clock: u64,
}

impl Cache {
    fn get(&mut self, id: &str) -> Option<Bytes> {
        self.clock += 1;
        let clock = self.clock;
        self.entries.get_mut(id).map(|(b, used)| {
            *used = clock;
            b.clone()
        })
    }

    fn put(&mut self, id: &str, frames: Bytes) {
        if frames.len() > CACHE_BYTES {
            return;
        }
        self.clock += 1;
        if let Some((old, _)) = self
            .entries
            .insert(id.to_string(), (frames.clone(), self.clock))
        {
            self.bytes -= old.len();
        }
        self.bytes += frames.len();
        while self.entries.len() > CACHE_ENTRIES || self.bytes > CACHE_BYTES {
            let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            if let Some((b, _)) = self.entries.remove(&oldest) {
                self.bytes -= b.len();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn the_cache_drops_the_least_recently_used_within_its_bounds() {
        let mut c = Cache::default();
        for i in 0..CACHE_ENTRIES {
            c.put(&format!("t{i}"), Bytes::from_static(b"x"));
        }
        assert!(c.get("t0").is_some());
        c.put("new", Bytes::from_static(b"y"));
        assert_eq!(c.entries.len(), CACHE_ENTRIES);
        assert!(c.get("t0").is_some(), "used recently: kept");
        assert!(c.get("t1").is_none(), "least recently used: dropped");
        c.put("big", Bytes::from(vec![0u8; CACHE_BYTES - 10]));
        assert!(c.bytes <= CACHE_BYTES);
        assert!(c.get("big").is_some());
        c.put("huge", Bytes::from(vec![0u8; CACHE_BYTES + 1]));
        assert!(c.get("huge").is_none());
    }

    #[tokio::test]
    async fn a_table_is_played_again_once_and_then_served_from_the_cache() {
        let r = Renderer::new();
        let runs = Arc::new(AtomicUsize::new(0));
        for _ in 0..3 {
            let frames = match r.cached("t") {
                Some(b) => b,
                None => {
                    let runs = runs.clone();
                    r.render("t", move || {
                        runs.fetch_add(1, Ordering::SeqCst);
                        Bytes::from_static(b"{}")
                    })
                    .await
                    .unwrap()
                }
            };
            assert_eq!(&frames[..], b"{}");
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_full_queue_is_refused_at_once() {
        let r = Renderer::new();
        // Hold the render thread, then fill its queue.
        let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
        let (started_tx, started_rx) = std::sync::mpsc::channel::<()>();
        let held = r
            .submit(move || {
                let _ = started_tx.send(());
                let _ = hold_rx.recv();
                Bytes::new()
            })
            .unwrap();
        started_rx.recv().unwrap();
        let queued: Vec<_> = (0..RENDER_QUEUE)
            .map(|_| r.submit(Bytes::new).unwrap())
            .collect();
        let refused = r.submit(Bytes::new).unwrap_err();
        assert_eq!(refused.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(refused.message.contains("try again"), "{}", refused.message);
        drop(hold_tx);
        held.await.unwrap();
        for q in queued {
            q.await.unwrap();
        }
    }

    #[test]
    fn the_public_allowance_is_per_address() {
        let l = PublicLimiter::new(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..3 {
            l.check(a).unwrap();
        }
        let f = l.check(a).unwrap_err();
        assert_eq!(f.status, StatusCode::TOO_MANY_REQUESTS);
        assert!(f.message.contains("3 a minute"), "{}", f.message);
        l.check(b).unwrap();
        let open = PublicLimiter::new(0);
        for _ in 0..100 {
            open.check(a).unwrap();
        }
    }
}
