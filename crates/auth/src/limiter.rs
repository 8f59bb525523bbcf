//! [`FailureLimiter`]: failed authentication attempts are limited per peer address. A peer may
//! fail a burst of times; after that each further failure must wait for the allowance to refill,
//! and until then every attempt from that address is refused before any token is checked.
//!
//! The secrets are 256 bits, so guessing is hopeless anyway; the limit keeps a misbehaving or
//! hostile peer from turning failed attempts into load (store reads, log lines) and makes
//! scanning for bot names pointless.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Peers remembered at most; beyond it expired entries are dropped, then the oldest.
const MAX_TRACKED: usize = 10_000;

/// Limits failed attempts per peer address. Cheap to share (`Arc`).
pub struct FailureLimiter {
    failures: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
    blocked: Mutex<HashMap<IpAddr, Instant>>,
}

impl std::fmt::Debug for FailureLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FailureLimiter").finish_non_exhaustive()
    }
}

impl Default for FailureLimiter {
    /// Ten failures at once, then one more every six seconds.
    fn default() -> Self {
        FailureLimiter::new(10, Duration::from_secs(6))
    }
}

impl FailureLimiter {
    /// A peer may fail `burst` times at once, then once per `refill`.
    pub fn new(burst: u32, refill: Duration) -> FailureLimiter {
        let quota = Quota::with_period(refill.max(Duration::from_millis(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN));
        FailureLimiter {
            failures: RateLimiter::keyed(quota),
            clock: DefaultClock::default(),
            blocked: Mutex::new(HashMap::new()),
        }
    }

    /// Before checking a credential from `peer`: `Err(wait)` while the peer must wait.
    /// Unknown peers (no address) are never limited.
    pub fn check(&self, peer: Option<IpAddr>) -> Result<(), Duration> {
        let Some(ip) = peer else { return Ok(()) };
        let blocked = self.blocked.lock().unwrap_or_else(|e| e.into_inner());
        match blocked.get(&ip) {
            Some(until) => {
                let now = Instant::now();
                if *until > now {
                    Err(*until - now)
                } else {
                    Ok(())
                }
            }
            None => Ok(()),
        }
    }

    /// A credential from `peer` was refused; `Err(wait)` if this failure used up the peer's
    /// allowance (the caller says so instead of the usual refusal).
    pub fn failed(&self, peer: Option<IpAddr>) -> Result<(), Duration> {
        let Some(ip) = peer else { return Ok(()) };
        match self.failures.check_key(&ip) {
            Ok(()) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.clock.now());
                let mut blocked = self.blocked.lock().unwrap_or_else(|e| e.into_inner());
                if blocked.len() >= MAX_TRACKED {
                    let now = Instant::now();
                    blocked.retain(|_, until| *until > now);
                    self.failures.retain_recent();
                    if blocked.len() >= MAX_TRACKED
                        && let Some(oldest) =
                            blocked.iter().min_by_key(|(_, u)| **u).map(|(k, _)| *k)
                    {
                        blocked.remove(&oldest);
                    }
                }
                blocked.insert(ip, Instant::now() + wait);
                Err(wait)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_failures_then_the_peer_waits_and_others_do_not() {
        let l = FailureLimiter::new(3, Duration::from_secs(3600));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..3 {
            assert!(l.check(Some(a)).is_ok());
            assert!(l.failed(Some(a)).is_ok());
        }
        let wait = l.failed(Some(a)).unwrap_err();
        assert!(wait > Duration::from_secs(3000), "{wait:?}");
        assert!(l.check(Some(a)).is_err());
        assert!(l.check(Some(b)).is_ok());
        assert!(l.check(None).is_ok());
        assert!(l.failed(None).is_ok());
    }
}
