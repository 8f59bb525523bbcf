//! What a run measures and prints: the watched processes' memory and CPU, a step's figures
//! ([`Measure`]) and the progress line.

use std::collections::BTreeMap;
use std::io::IsTerminal as _;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

use super::args::RunArgs;
use super::tally::{Shared, lock};

/// A process's resident memory (bytes) and CPU time (user + system) from /proc.
pub(super) fn sample(pid: u32) -> Option<(u64, Duration)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command (which may hold spaces) in parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some((rss_kb * 1024, Duration::from_millis(ticks * 1000 / hz)))
}

/// The processes measured: `--watch` and this one.
pub(super) struct Watched {
    pub(super) procs: Vec<(String, u32)>,
}

impl Watched {
    pub(super) fn sample(&self) -> Vec<Option<(u64, Duration)>> {
        self.procs.iter().map(|(_, pid)| sample(*pid)).collect()
    }
}

/// What a watched process used in a measurement.
pub(super) struct ProcMeasure {
    pub(super) name: String,
    /// RSS before this step's bots connected, and with them (bytes).
    pub(super) rss_before: Option<u64>,
    pub(super) rss_with: Option<u64>,
    /// RSS once every table was submitted (the most in flight), bytes.
    pub(super) rss_playing: Option<u64>,
    /// CPU time during the tables (or the hold).
    pub(super) cpu: Option<Duration>,
}

/// One measurement: a step of a run.
pub(super) struct Measure {
    pub(super) bots: usize,
    pub(super) wall: Duration,
    pub(super) tables: u64,
    pub(super) without_outcome: u64,
    pub(super) decisions: u64,
    pub(super) latency: Histogram<u64>,
    pub(super) verdicts: BTreeMap<&'static str, u64>,
    pub(super) procs: Vec<ProcMeasure>,
    pub(super) connect_secs: f64,
    /// Tables in flight once every table was submitted.
    pub(super) peak_in_flight: usize,
}

impl Measure {
    pub(super) fn tables_per_s(&self) -> f64 {
        self.tables as f64 / self.wall.as_secs_f64().max(1e-9)
    }

    pub(super) fn ms(&self, q: f64) -> f64 {
        if self.latency.is_empty() {
            return 0.0;
        }
        self.latency.value_at_quantile(q) as f64 / 1000.0
    }

    pub(super) fn json(&self, a: &RunArgs, sh: &Shared, idle: bool) -> serde_json::Value {
        let procs: Vec<serde_json::Value> = self
            .procs
            .iter()
            .map(|p| {
                let (name, before, with, cpu) = (&p.name, &p.rss_before, &p.rss_with, &p.cpu);
                serde_json::json!({
                    "name": name,
                    "rss_before_bytes": before,
                    "rss_with_bots_bytes": with,
                    "rss_per_bot_bytes": per_bot(*before, *with, self.bots),
                    "rss_playing_bytes": p.rss_playing,
                    "rss_per_table_in_flight_bytes": per_bot(*with, p.rss_playing, self.peak_in_flight),
                    "cpu_seconds": cpu.map(|c| c.as_secs_f64()),
                    "cpu_ms_per_table": cpu.and_then(|c| (self.tables > 0).then(|| c.as_secs_f64() * 1000.0 / self.tables as f64)),
                })
            })
            .collect();
        serde_json::json!({
            "label": a.label,
            "bots": self.bots,
            "idle": idle,
            "capacity": a.capacity,
            "think": a.think.to_string(),
            "in_flight": a.in_flight,
            "connect_seconds": self.connect_secs,
            "seconds": self.wall.as_secs_f64(),
            "tables": self.tables,
            "tables_per_s": self.tables_per_s(),
            "decisions": self.decisions,
            "latency_ms": {
                "n": self.latency.len(),
                "p50": self.ms(0.5), "p99": self.ms(0.99), "p999": self.ms(0.999),
                "max": self.latency.max() as f64 / 1000.0,
            },
            "verdicts": self.verdicts,
            "tables_without_outcome": self.without_outcome,
            "faults": {
                "crash": sh.crashes.load(Ordering::Relaxed),
                "hang": sh.hangs.load(Ordering::Relaxed),
                "garbage": sh.garbage.load(Ordering::Relaxed),
            },
            "errors": {
                "lost": sh.lost.load(Ordering::Relaxed),
                "refused": sh.refused.load(Ordering::Relaxed),
                "notices": sh.notices.load(Ordering::Relaxed),
            },
            "processes": procs,
        })
    }

    pub(super) fn print(&self, a: &RunArgs, sh: &Shared, idle: bool) {
        println!(
            "arena load: {} bots (capacity {}, think {}) connected in {:.1} s",
            self.bots, a.capacity, a.think, self.connect_secs
        );
        if !idle {
            println!(
                "  tables: {} finished in {:.2} s: {:.1} tables/s ({} in flight at most)",
                self.tables,
                self.wall.as_secs_f64(),
                self.tables_per_s(),
                a.in_flight
            );
            println!(
                "  decision latency (an answer leaving its bot to the next request of its table): \
                 p50 {:.3} ms, p99 {:.3} ms, p999 {:.3} ms, max {:.3} ms over {} hops ({} requests)",
                self.ms(0.5),
                self.ms(0.99),
                self.ms(0.999),
                self.latency.max() as f64 / 1000.0,
                self.latency.len(),
                self.decisions
            );
            let verdicts: Vec<String> = self
                .verdicts
                .iter()
                .map(|(k, n)| {
                    format!(
                        "{} {n}",
                        k.trim_start_matches("VERDICT_KIND_").to_lowercase()
                    )
                })
                .collect();
            println!(
                "  verdicts: {}{}",
                if verdicts.is_empty() {
                    "none".to_string()
                } else {
                    verdicts.join(", ")
                },
                if self.without_outcome > 0 {
                    format!("; {} tables ended without an outcome", self.without_outcome)
                } else {
                    String::new()
                }
            );
        } else {
            println!("  held for {:.1} s, no tables", self.wall.as_secs_f64());
        }
        println!(
            "  faults injected: crash {}, hang {}, garbage {}; connections lost {}, refused {}; notices {}",
            sh.crashes.load(Ordering::Relaxed),
            sh.hangs.load(Ordering::Relaxed),
            sh.garbage.load(Ordering::Relaxed),
            sh.lost.load(Ordering::Relaxed),
            sh.refused.load(Ordering::Relaxed),
            sh.notices.load(Ordering::Relaxed),
        );
        for (kind, text) in lock(&sh.errors).iter() {
            println!("  last {kind} error: {text}");
        }
        for p in &self.procs {
            let (name, before, with, cpu) = (&p.name, &p.rss_before, &p.rss_with, &p.cpu);
            let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
            let mut line = format!("  {name}:");
            if let (Some(b), Some(w)) = (before, with) {
                line += &format!(" RSS {:.1} MiB → {:.1} MiB with the bots", mib(*b), mib(*w));
                if let Some(p) = per_bot(*before, *with, self.bots) {
                    line += &format!(" ({:.1} KiB per connected bot)", p as f64 / 1024.0);
                }
            } else {
                line += " (not readable)";
            }
            if let (Some(w), Some(p)) = (with, p.rss_playing)
                && !idle
                && self.peak_in_flight > 0
            {
                line += &format!(
                    "; {:.1} MiB with {} tables in flight ({:.1} KiB per table)",
                    mib(p),
                    self.peak_in_flight,
                    (p as f64 - *w as f64) / 1024.0 / self.peak_in_flight as f64
                );
            }
            if let Some(c) = cpu
                && idle
            {
                line += &format!(
                    ", CPU {:.2} s holding the connections ({:.1} % of a core)",
                    c.as_secs_f64(),
                    100.0 * c.as_secs_f64() / self.wall.as_secs_f64().max(1e-9)
                );
            }
            if let Some(c) = cpu
                && !idle
            {
                line += &format!(", CPU {:.2} s", c.as_secs_f64());
                if self.tables > 0 {
                    line += &format!(
                        " ({:.2} ms per table, {:.0} % of a core)",
                        c.as_secs_f64() * 1000.0 / self.tables as f64,
                        100.0 * c.as_secs_f64() / self.wall.as_secs_f64().max(1e-9)
                    );
                }
            }
            println!("{line}");
        }
    }
}

pub(super) fn per_bot(before: Option<u64>, with: Option<u64>, bots: usize) -> Option<i64> {
    let (b, w) = (before?, with?);
    (bots > 0).then(|| (w as i64 - b as i64) / bots as i64)
}

/// A progress line: a spinner on a terminal, plain lines every `every` elsewhere.
pub(super) struct Progress {
    pub(super) bar: Option<indicatif::ProgressBar>,
    pub(super) every: Duration,
    pub(super) last: Instant,
}

impl Progress {
    pub(super) fn new(every: Duration) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            bar
        });
        Progress {
            bar,
            every,
            last: Instant::now(),
        }
    }

    pub(super) fn show(&mut self, text: String) {
        match &self.bar {
            Some(bar) => {
                bar.set_message(text);
                bar.tick();
            }
            None if self.last.elapsed() >= self.every => {
                self.last = Instant::now();
                eprintln!("arena load: {text}");
            }
            None => {}
        }
    }

    pub(super) fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

pub(super) fn status_line(sh: &Shared, target: usize, started: Instant) -> String {
    let (finished, in_flight) = {
        let b = lock(&sh.book);
        let base = sh.step_base.load(Ordering::Relaxed);
        (b.finished.saturating_sub(base), b.in_flight.len())
    };
    let lat = lock(&sh.latency);
    let (p50, p99) = if lat.is_empty() {
        (0.0, 0.0)
    } else {
        (
            lat.value_at_quantile(0.5) as f64 / 1000.0,
            lat.value_at_quantile(0.99) as f64 / 1000.0,
        )
    };
    drop(lat);
    format!(
        "bots {}/{target} · tables {finished} done, {in_flight} in flight · {:.1} tables/s · latency p50 {p50:.2} ms p99 {p99:.2} ms · lost {} refused {}",
        sh.connected.load(Ordering::Relaxed),
        finished as f64 / started.elapsed().as_secs_f64().max(1e-9),
        sh.lost.load(Ordering::Relaxed),
        sh.refused.load(Ordering::Relaxed),
    )
}
