//! Background tables: the tables of long time controls, on a runtime of their own whose threads
//! run at the lowest CPU priority ([`RefereeConfig::background_from`](crate::RefereeConfig)).
//!
//! One referee serving thousands of tables of slow bots beside tables of fast ones spends most
//! of its CPU on the slow ones, and on one runtime the fast tables' decisions queue behind
//! theirs. A slow table can wait a millisecond for the CPU; a fast one cannot. The kernel
//! already knows how to run one thread before another, so the slow tables get threads it runs
//! last, and connections to bot-host of their own on those threads: their requests, answers and
//! `Seats` streams never pass through the referee's runtime. What they share with the other
//! tables: the store's client, the writer and the job loop, which do a table's work once, at
//! its start and end.

use std::time::Duration;

use arena_proto::v1;
use arena_table::BotHosts;
use arena_table::queue::Queued;
use tokio::runtime::{Handle, Runtime};

use crate::dialer::PresenceDialer;
use crate::worker::decision_ms;

/// The background runtime, its way to bot-hosts, and which tables go to it.
pub(crate) struct Background {
    from: Duration,
    /// Made on the background runtime: the links it makes (connections, `Seats` streams and
    /// their readers) live there.
    dialer: PresenceDialer,
    /// Always `Some` until dropped.
    runtime: Option<Runtime>,
}

impl Background {
    /// A runtime of as many workers as cores, for tables whose decision time is at least
    /// `from`; each of its threads lowers its own priority ([`lowest_priority`]) as it starts. Its tables
    /// reach bot-hosts through a dialer of its own over `store`'s presence records and the
    /// configured `bot_hosts`.
    pub(crate) fn start(
        from: Duration,
        store: std::sync::Arc<dyn arena_store::Store>,
        bot_hosts: &[String],
    ) -> Result<Background, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .thread_name("referee-background")
            .on_thread_start(lowest_priority)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the background tables' threads: {e}"))?;
        let hosts = {
            let _on = runtime.enter();
            BotHosts::new(bot_hosts).map_err(|e| e.to_string())?
        };
        Ok(Background {
            from,
            dialer: PresenceDialer::new(Some(store), hosts),
            runtime: Some(runtime),
        })
    }

    /// Whether `job` belongs in the background: its decision time (0 meaning the default) is
    /// at least `from`.
    pub(crate) fn takes(&self, job: &v1::TableJob) -> bool {
        Duration::from_millis(u64::from(decision_ms(job))) >= self.from
    }

    /// The runtime to play `queued` on, if it belongs in the background.
    pub(crate) fn handle_for(&self, queued: &Queued) -> Option<&Handle> {
        match queued {
            Queued::Table(job) if self.takes(job) => self.runtime.as_ref().map(Runtime::handle),
            _ => None,
        }
    }

    /// How the background tables reach bot-hosts.
    pub(crate) fn dialer(&self) -> &PresenceDialer {
        &self.dialer
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        // The referee can go from inside its own runtime, where a runtime may not block to
        // shut down. By then the job loop has settled or handed back every table.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Puts the calling thread in Linux's `SCHED_IDLE` class: it runs when no ordinary thread
/// wants its core, and an ordinary thread that wakes takes the core from it at once. It is not
/// starved outright (the class still gets a small share of a busy core), so a background
/// table on a saturated machine slows down rather than stops. (Nice 19 was measured too: it
/// left the fast tables' p99 half again as high; docs/scaling.md.) Elsewhere nothing changes.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: pid 0 is the calling thread; the parameter is a valid local.
        if unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) } != 0 {
            tracing::warn!(
                error = %std::io::Error::last_os_error(),
                "cannot lower a background thread's priority; background tables run at normal priority"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_proto::v1;

    fn start(from_ms: u64) -> Background {
        let dir = tempfile::tempdir().unwrap();
        let store = arena_store::EmbeddedStore::open(dir.path()).unwrap();
        Background::start(
            Duration::from_millis(from_ms),
            std::sync::Arc::new(store),
            &[],
        )
        .unwrap()
    }

    fn table(decision_ms: Option<u32>) -> Queued {
        Queued::Table(v1::TableJob {
            time: decision_ms.map(|decision_ms| v1::TimeControl {
                decision_ms,
                ..Default::default()
            }),
            ..Default::default()
        })
    }

    #[test]
    fn tables_of_at_least_the_threshold_go_to_the_background_and_no_others() {
        let bg = start(1_000);
        assert!(bg.handle_for(&table(Some(1_000))).is_some());
        assert!(bg.handle_for(&table(Some(5_000))).is_some());
        // Unset and 0 both mean the default, 1,000 ms.
        assert!(bg.handle_for(&table(None)).is_some());
        assert!(bg.handle_for(&table(Some(0))).is_some());
        assert!(bg.handle_for(&table(Some(999))).is_none());
        assert!(bg.handle_for(&table(Some(200))).is_none());
        let gdi = Queued::Gdi(v1::GdiBatch::default());
        assert!(bg.handle_for(&gdi).is_none());
        let faster = start(1_001);
        assert!(faster.handle_for(&table(None)).is_none());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn background_threads_run_in_the_idle_class_and_the_callers_thread_is_untouched() {
        fn policy() -> libc::c_int {
            // SAFETY: pid 0 is the calling thread.
            unsafe { libc::sched_getscheduler(0) }
        }
        let before = policy();
        let bg = start(1_000);
        let handle = bg.handle_for(&table(None)).unwrap().clone();
        let on_worker = handle.block_on(async { tokio::spawn(async { policy() }).await.unwrap() });
        let blocking =
            handle.block_on(async { tokio::task::spawn_blocking(policy).await.unwrap() });
        assert_eq!((on_worker, blocking), (libc::SCHED_IDLE, libc::SCHED_IDLE));
        assert_eq!(policy(), before);
        assert_ne!(before, libc::SCHED_IDLE);
        drop(bg);
    }
}
