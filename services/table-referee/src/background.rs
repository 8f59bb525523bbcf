//! Background tables: the tables of long time controls, on a runtime of their own whose threads
//! run at the lowest CPU priority ([`RefereeConfig::background_from`](crate::RefereeConfig)).
//!
//! One referee serving thousands of tables of slow bots beside tables of fast ones spends most
//! of its CPU on the slow ones, and on one runtime the fast tables' decisions queue behind
//! theirs. A slow table can wait a millisecond for the CPU; a fast one cannot. The kernel
//! already knows how to run one thread before another, so the slow tables get threads it runs
//! last, and connections to bot-host of their own on those threads: their requests, answers and
//! `Seats` streams never pass through the referee's runtime. What they share with the other
//! tables: the store's client, the writer and the job loop (a table's take, presence lookups,
//! lease touches, result and acknowledgement). Idle priority keeps these threads from taking
//! a core from the others, not from slowing them down on it: `background_cpus` gives them
//! cores of their own.

use std::time::Duration;

use arena_proto::v1;
use arena_table::BotHosts;
use arena_table::queue::Queued;
use tokio::runtime::{Handle, Runtime};

use crate::dialer::PresenceDialer;
use crate::worker::decision_ms;

/// The most CPUs a [`CpuList`] may name: Linux's `CPU_SETSIZE`.
pub const MAX_CPUS: usize = 1024;

/// CPUs written as `taskset -c` and cpusets write them: `1`, `2-3`, `0,2-5`. Parsed into the
/// CPUs it names, ascending, each once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuList(pub Vec<usize>);

impl std::str::FromStr for CpuList {
    type Err = String;

    fn from_str(s: &str) -> Result<CpuList, String> {
        let cpu = |part: &str| -> Result<usize, String> {
            let n: usize = part
                .trim()
                .parse()
                .map_err(|_| format!("{part:?} in CPU list {s:?} is not a CPU number"))?;
            if n >= MAX_CPUS {
                return Err(format!("CPU {n} in CPU list {s:?} is not below {MAX_CPUS}"));
            }
            Ok(n)
        };
        let mut cpus = std::collections::BTreeSet::new();
        for part in s.split(',') {
            match part.split_once('-') {
                Some((lo, hi)) => {
                    let (lo, hi) = (cpu(lo)?, cpu(hi)?);
                    if lo > hi {
                        return Err(format!("range {part:?} in CPU list {s:?} runs backwards"));
                    }
                    cpus.extend(lo..=hi);
                }
                None => {
                    cpus.insert(cpu(part)?);
                }
            }
        }
        Ok(CpuList(cpus.into_iter().collect()))
    }
}

impl std::fmt::Display for CpuList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<String> = self.0.iter().map(usize::to_string).collect();
        f.write_str(&names.join(","))
    }
}

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
    /// A runtime for tables whose decision time is at least `from`; each of its threads lowers
    /// its own priority ([`lowest_priority`]) as it starts and, when `cpus` names any, keeps
    /// to them ([`confine`]; then the runtime has a worker per CPU named, otherwise one per
    /// core). Its tables reach bot-hosts through a dialer of its own over `store`'s presence
    /// records and the configured `bot_hosts`.
    pub(crate) fn start(
        from: Duration,
        cpus: &[usize],
        store: std::sync::Arc<dyn arena_store::Store>,
        bot_hosts: &[String],
    ) -> Result<Background, String> {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        if !cpus.is_empty() {
            builder.worker_threads(cpus.len());
        }
        let cpus = cpus.to_vec();
        let runtime = builder
            .thread_name("referee-background")
            .on_thread_start(move || {
                lowest_priority();
                if !cpus.is_empty() {
                    confine(&cpus);
                }
            })
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

/// Keeps the calling thread to `cpus` (each below [`MAX_CPUS`]). Background threads on the
/// cores the referee's other threads use slow those threads down even at idle priority (the
/// kernel's work on their behalf, their caches; docs/scaling.md); on cores of their own they
/// do not. Elsewhere than Linux nothing changes.
fn confine(cpus: &[usize]) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: an all-zero cpu_set_t is the empty set; CPU_SET is given indices below
        // CPU_SETSIZE (validated), and pid 0 is the calling thread.
        let failed = unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for &cpu in cpus.iter().filter(|&&c| c < MAX_CPUS) {
                libc::CPU_SET(cpu, &mut set);
            }
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) != 0
        };
        if failed {
            tracing::warn!(
                error = %std::io::Error::last_os_error(),
                cpus = %CpuList(cpus.to_vec()),
                "cannot keep a background thread to its CPUs; it runs on any"
            );
        }
    }
    #[cfg(not(target_os = "linux"))]
    tracing::warn!("background CPUs are only kept on Linux; background threads run on any");
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
            &[],
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

    #[test]
    fn cpu_lists_read_as_taskset_writes_them_and_bad_ones_are_named() {
        let list = |s: &str| s.parse::<CpuList>().map(|l| l.0);
        assert_eq!(list("1"), Ok(vec![1]));
        assert_eq!(list("2-3"), Ok(vec![2, 3]));
        assert_eq!(list("5,0-2, 1"), Ok(vec![0, 1, 2, 5]));
        assert_eq!(CpuList(vec![0, 2, 3]).to_string(), "0,2,3");
        for (bad, names) in [
            ("", "\"\" in CPU list"),
            ("1,x", "\"x\" in CPU list \"1,x\""),
            ("3-1", "runs backwards"),
            ("1024", "CPU 1024"),
            ("0--1", "is not a CPU number"),
        ] {
            let e = list(bad).unwrap_err();
            assert!(e.contains(names), "{bad:?}: {e}");
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn background_threads_keep_to_their_cpus_and_the_callers_thread_is_untouched() {
        fn allowed() -> Vec<usize> {
            // SAFETY: a zeroed set filled by the kernel for the calling thread.
            unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                assert_eq!(
                    libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set),
                    0
                );
                (0..MAX_CPUS)
                    .filter(|&c| libc::CPU_ISSET(c, &set))
                    .collect()
            }
        }
        let before = allowed();
        let one = before[0];
        let dir = tempfile::tempdir().unwrap();
        let store = arena_store::EmbeddedStore::open(dir.path()).unwrap();
        let bg = Background::start(
            Duration::from_secs(1),
            &[one],
            std::sync::Arc::new(store),
            &[],
        )
        .unwrap();
        let handle = bg.handle_for(&table(None)).unwrap().clone();
        let on_worker = handle.block_on(async { tokio::spawn(async { allowed() }).await.unwrap() });
        let blocking =
            handle.block_on(async { tokio::task::spawn_blocking(allowed).await.unwrap() });
        assert_eq!((on_worker, blocking), (vec![one], vec![one]));
        assert_eq!(allowed(), before);
        drop(bg);
    }
}
