//! What every stream handler of bot-host shares ([`Ctx`]): its settings, store, hub, the
//! shutdown state and the limits of program seats; [`SeatGuard`] counts a seat stream in flight.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use arena_serve::ApiError;
use arena_store::Store;
use tokio::sync::{Semaphore, watch};
use tokio_util::sync::CancellationToken;

use crate::BotHostConfig;
use crate::hub::Hub;
use crate::program::ProgramPermits;

/// What every stream handler shares.
pub(crate) struct Ctx {
    pub(crate) config: BotHostConfig,
    pub(crate) store: Arc<dyn Store>,
    /// The advertised address of this instance.
    pub(crate) host: String,
    pub(crate) hub: Arc<Hub>,
    /// Cancelled when bot-host stops waiting for tables in flight: every stream ends.
    pub(crate) closing: CancellationToken,
    pub(crate) draining: AtomicBool,
    /// Seat streams in flight.
    pub(crate) seats: watch::Sender<usize>,
    /// Per-bot limits of program seats: (max tables, semaphore).
    pub(crate) bot_limits: Mutex<HashMap<String, (u32, Arc<Semaphore>)>>,
    /// The host-wide limit of bot processes.
    pub(crate) processes: Option<Arc<Semaphore>>,
    /// Failed bot-token attempts per peer.
    pub(crate) limiter: Arc<arena_auth::FailureLimiter>,
    /// The sandbox bot programs run in.
    pub(crate) sandbox: arena_sandbox::Sandbox,
}

impl Ctx {
    /// True once shutdown has begun: new streams are refused.
    pub(crate) fn is_draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// The refusal of a new seat while bot-host shuts down: the platform's, so the referee
    /// opens it on another instance.
    pub(crate) fn draining_refusal(&self) -> ApiError {
        ApiError::Unavailable(format!(
            "bot-host {} is shutting down; open the seat on another instance",
            self.host
        ))
    }

    /// Counts a seat stream in flight until the guard is dropped.
    pub(crate) fn seat_started(self: &Arc<Self>) -> SeatGuard {
        self.seats.send_modify(|n| *n += 1);
        SeatGuard {
            ctx: Arc::clone(self),
        }
    }

    /// Waits for a free process slot of `bot` (at most `max_tables` at once, 0 = no limit)
    /// and of the host.
    pub(crate) fn program_permits(
        &self,
        bot: &str,
        max_tables: u32,
    ) -> impl Future<Output = ProgramPermits> + Send + 'static {
        let per_bot = (max_tables > 0).then(|| {
            let mut limits = self.bot_limits.lock().unwrap_or_else(|e| e.into_inner());
            let entry = limits
                .entry(bot.to_string())
                .or_insert_with(|| (max_tables, Arc::new(Semaphore::new(max_tables as usize))));
            if entry.0 != max_tables {
                // The record changed: new seats count against the new limit.
                *entry = (max_tables, Arc::new(Semaphore::new(max_tables as usize)));
            }
            Arc::clone(&entry.1)
        });
        let host = self.processes.clone();
        async move {
            let bot = match per_bot {
                Some(s) => s.acquire_owned().await.ok(),
                None => None,
            };
            let host = match host {
                Some(s) => s.acquire_owned().await.ok(),
                None => None,
            };
            ProgramPermits {
                _bot: bot,
                _host: host,
            }
        }
    }

    /// Shutdown: refuse new streams, tell connected bots, give tables in flight the shutdown
    /// grace, then end every stream. Returns the bots whose presence must be cleared.
    pub(crate) async fn drain(&self) -> Vec<String> {
        self.draining.store(true, Ordering::SeqCst);
        self.hub.start_draining(&format!(
            "bot-host {} is shutting down: the tables you are playing may finish (for up to {} ms); \
             no new tables start here",
            self.host,
            self.config.shutdown_grace.as_millis()
        ));
        let mut seats = self.seats.subscribe();
        let in_flight = *seats.borrow();
        tracing::info!(
            seats = in_flight,
            grace_ms = self.config.shutdown_grace.as_millis(),
            "draining"
        );
        if tokio::time::timeout(self.config.shutdown_grace, seats.wait_for(|n| *n == 0))
            .await
            .is_err()
        {
            tracing::warn!(
                seats = *seats.borrow(),
                "tables still in flight at the end of the shutdown grace"
            );
        }
        let bots = self
            .hub
            .close_all(&format!("bot-host {} is shutting down", self.host));
        self.closing.cancel();
        bots
    }
}

/// Counts a seat stream in flight (for the shutdown drain).
pub(crate) struct SeatGuard {
    ctx: Arc<Ctx>,
}

impl Drop for SeatGuard {
    fn drop(&mut self) {
        self.ctx.seats.send_modify(|n| *n = n.saturating_sub(1));
    }
}
