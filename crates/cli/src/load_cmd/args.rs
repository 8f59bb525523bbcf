//! `arena load`'s options: a run's flags (`RunArgs`, the think times of `--think`) and
//! `arena load plot`'s.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args;
use rand::Rng as _;
use rand::rngs::SmallRng;

use crate::client::ClientAuth;

/// `arena load plot`.
#[derive(Args)]
pub struct PlotArgs {
    /// The JSON lines file(s) `--results` wrote.
    #[arg(long, required = true, value_delimiter = ',')]
    pub(super) results: Vec<PathBuf>,
    /// Where the two PNGs go: `<PREFIX>-tables.png` and `<PREFIX>-latency.png`.
    #[arg(long, default_value = "docs/scaling-growth")]
    pub(super) out: PathBuf,
}

/// A run of `arena load`.
#[derive(Args, Clone)]
pub struct RunArgs {
    /// bot-host's bot port [default: the one the `arena standalone` of --data-dir wrote to its
    /// endpoints.json, else http://127.0.0.1:50052].
    #[arg(long, env = "ARENA_BOT_HOST")]
    pub(super) bot_host: Option<String>,
    /// The matchmaker, whose bot registry issues the bots' tokens [default: as --bot-host's,
    /// else http://127.0.0.1:50054].
    #[arg(long, env = "ARENA_MATCHMAKER")]
    pub(super) matchmaker: Option<String>,
    /// The referee tables are submitted to (any referee of a cluster: they share the job
    /// stream) [default: as --bot-host's, else http://127.0.0.1:50051].
    #[arg(long, env = "ARENA_REFEREE")]
    pub(super) referee: Option<String>,
    /// Simulated bots.
    #[arg(long, default_value_t = 30)]
    pub(super) bots: usize,
    /// Measure at these numbers of connected bots in turn (e.g. 100,1000,10000), adding bots
    /// between steps; replaces --bots.
    #[arg(long, value_delimiter = ',')]
    pub(super) steps: Vec<usize>,
    /// The bots' names: PREFIX-00000, PREFIX-00001, … (registered if new, given a new token
    /// otherwise).
    #[arg(long, default_value = "load")]
    pub(super) prefix: String,
    /// Tables each bot plays at once (Hello.capacity).
    #[arg(long, default_value_t = 4)]
    pub(super) capacity: u32,
    /// Think time before each answer: `0`, a fixed time (`5ms`, `1s`, `250us`; a bare number
    /// is milliseconds), `exp:MEAN` (exponential) or `uniform:MIN-MAX`.
    #[arg(long, default_value = "0")]
    pub(super) think: Think,
    /// Probability per decision that the bot crashes: its connection dropped, back as a new
    /// session after --restart-ms (its tables in flight are given up).
    #[arg(long, default_value_t = 0.0)]
    pub(super) crash_rate: f64,
    /// Probability per decision that the bot never answers (the referee's hard cap judges it).
    #[arg(long, default_value_t = 0.0)]
    pub(super) hang_rate: f64,
    /// Probability per decision that the bot answers garbage (an empty action: malformed).
    #[arg(long, default_value_t = 0.0)]
    pub(super) garbage_rate: f64,
    /// How long a crashed bot stays away (milliseconds).
    #[arg(long, default_value_t = 1000)]
    pub(super) restart_ms: u64,
    /// Tables to play (per step with --steps).
    #[arg(long, default_value_t = 0)]
    pub(super) tables: u64,
    /// Stop submitting after this long (seconds; per step with --steps); with --tables 0, as
    /// many tables as fit.
    #[arg(long, default_value_t = 0)]
    pub(super) duration: u64,
    /// No tables: connect, hold the connections for --duration seconds, report memory.
    #[arg(long)]
    pub(super) idle: bool,
    /// Tables in flight at once.
    #[arg(long, default_value_t = 32)]
    pub(super) in_flight: usize,
    /// Per-decision limit of the tables (milliseconds); no answer within five times it is a
    /// timeout verdict. Give think times well under it.
    #[arg(long, default_value_t = 1000)]
    pub(super) decision_ms: u32,
    /// The job lane of the tables (empty: the default lane): only referees started on it
    /// (`arena table-referee --lane`) take them.
    #[arg(long, default_value = "")]
    pub(super) lane: String,
    /// Share this many HTTP/2 connections among the bots (0: one connection per bot, as real
    /// bots have).
    #[arg(long, default_value_t = 0)]
    pub(super) connections: usize,
    /// Connection attempts in progress at once (bot-host checks each token and claims the
    /// bot's presence in the store).
    #[arg(long, default_value_t = 128)]
    pub(super) connect_burst: usize,
    /// A process to measure: NAME=PID (its RSS before and after the bots connect, its CPU
    /// during the tables). Repeatable.
    #[arg(long = "watch", value_parser = parse_watch)]
    pub(super) watch: Vec<(String, u32)>,
    /// Seed of the deals and of think times and faults.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Append a JSON line per measurement to this file (for `arena load plot`).
    #[arg(long)]
    pub(super) results: Option<PathBuf>,
    /// The label of this run's measurements in --results (a line in the plot).
    #[arg(long, default_value = "")]
    pub(super) label: String,
    /// Print each measurement as a JSON line on stdout instead of text.
    #[arg(long)]
    pub(super) json: bool,
    /// Seconds between progress lines when stderr is not a terminal.
    #[arg(long, default_value_t = 5)]
    pub(super) progress_secs: u64,
    #[command(flatten)]
    pub(super) auth: ClientAuth,
}

/// A think-time distribution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Think {
    /// Always the same.
    Fixed(Duration),
    /// Exponential with this mean.
    Exp(Duration),
    /// Uniform between the two.
    Uniform(Duration, Duration),
}

impl Think {
    pub(super) fn sample(&self, rng: &mut SmallRng) -> Duration {
        match *self {
            Think::Fixed(d) => d,
            Think::Exp(mean) => {
                let u: f64 = rng.random();
                mean.mul_f64(-(1.0 - u).ln())
            }
            Think::Uniform(a, b) => a + (b - a).mul_f64(rng.random::<f64>()),
        }
    }
}

impl std::fmt::Display for Think {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Think::Fixed(d) if d.is_zero() => f.write_str("none"),
            Think::Fixed(d) => write!(f, "{d:?}"),
            Think::Exp(m) => write!(f, "exponential, mean {m:?}"),
            Think::Uniform(a, b) => write!(f, "uniform {a:?}..{b:?}"),
        }
    }
}

/// `250us`, `5ms`, `1s`, `1.5s`; a bare number is milliseconds.
pub(super) fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => t.split_at(i),
        None => (t, "ms"),
    };
    let n: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a duration (like 5ms, 1s, 250us)"))?;
    let scale = match unit {
        "us" | "µs" => 1e-6,
        "ms" => 1e-3,
        "s" => 1.0,
        _ => return Err(format!("{text:?}: the unit must be us, ms or s")),
    };
    if !n.is_finite() || n < 0.0 || n * scale > 3600.0 {
        return Err(format!("{text:?}: a think time is 0 to 3600 s"));
    }
    Ok(Duration::from_secs_f64(n * scale))
}

impl std::str::FromStr for Think {
    type Err = String;

    fn from_str(s: &str) -> Result<Think, String> {
        if let Some(mean) = s.strip_prefix("exp:") {
            return Ok(Think::Exp(parse_duration(mean)?));
        }
        if let Some(range) = s.strip_prefix("uniform:") {
            let (a, b) = range
                .split_once('-')
                .ok_or_else(|| format!("{s:?}: uniform:MIN-MAX, e.g. uniform:10ms-100ms"))?;
            let (a, b) = (parse_duration(a)?, parse_duration(b)?);
            if a > b {
                return Err(format!("{s:?}: the minimum is above the maximum"));
            }
            return Ok(Think::Uniform(a, b));
        }
        parse_duration(s).map(Think::Fixed)
    }
}

pub(super) fn parse_watch(s: &str) -> Result<(String, u32), String> {
    let (name, pid) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: --watch NAME=PID, e.g. --watch bot-host=1234"))?;
    let pid: u32 = pid
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: {pid:?} is not a process id"))?;
    Ok((name.trim().to_string(), pid))
}

impl RunArgs {
    /// bot-host's address, once [`load`] has resolved it.
    pub(super) fn bot_host(&self) -> &str {
        self.bot_host.as_deref().unwrap_or_default()
    }

    /// The matchmaker's address, once [`load`] has resolved it.
    pub(super) fn matchmaker(&self) -> &str {
        self.matchmaker.as_deref().unwrap_or_default()
    }

    /// The referee's address, once [`load`] has resolved it.
    pub(super) fn referee(&self) -> &str {
        self.referee.as_deref().unwrap_or_default()
    }

    /// Flags that cannot work together, named.
    pub(super) fn check(&self) -> Result<()> {
        for (flag, p) in [
            ("--crash-rate", self.crash_rate),
            ("--hang-rate", self.hang_rate),
            ("--garbage-rate", self.garbage_rate),
        ] {
            if !(0.0..=1.0).contains(&p) {
                bail!("{flag} is a probability per decision, 0 to 1 (got {p})");
            }
        }
        if self.crash_rate + self.hang_rate + self.garbage_rate > 1.0 {
            bail!("--crash-rate, --hang-rate and --garbage-rate add up to more than 1");
        }
        let most = self.steps.iter().copied().max().unwrap_or(self.bots);
        if most < 3 {
            bail!("a table seats three bots: --bots (or every --steps) must be at least 3");
        }
        if self.steps.windows(2).any(|w| w[0] >= w[1]) {
            bail!("--steps must grow (e.g. 100,1000,10000)");
        }
        if self.capacity == 0 || self.capacity > arena_bot_host::MAX_CAPACITY {
            bail!(
                "--capacity must be 1 to {} (tables a bot plays at once)",
                arena_bot_host::MAX_CAPACITY
            );
        }
        if self.idle && self.duration == 0 {
            bail!("--idle holds the connections for --duration seconds: give --duration");
        }
        if self.idle && self.tables > 0 {
            bail!("--idle plays no tables: drop --tables");
        }
        if !self.idle && self.tables == 0 && self.duration == 0 {
            bail!("give --tables N (tables to play), --duration S (seconds of play) or --idle");
        }
        if self.in_flight == 0 {
            bail!("--in-flight must be at least 1");
        }
        if self.decision_ms == 0 {
            bail!("--decision-ms must be at least 1");
        }
        if self.connect_burst == 0 {
            bail!("--connect-burst must be at least 1");
        }
        if self.prefix.is_empty() || self.prefix.len() > 40 {
            bail!("--prefix must be 1 to 40 characters (bot names are PREFIX-NNNNN)");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng as _;

    use super::*;

    #[test]
    fn think_times_parse_with_units_and_refuse_nonsense() {
        assert_eq!("0".parse::<Think>().unwrap(), Think::Fixed(Duration::ZERO));
        assert_eq!(
            "5".parse::<Think>().unwrap(),
            Think::Fixed(Duration::from_millis(5))
        );
        assert_eq!(
            "1s".parse::<Think>().unwrap(),
            Think::Fixed(Duration::from_secs(1))
        );
        assert_eq!(
            "250us".parse::<Think>().unwrap(),
            Think::Fixed(Duration::from_micros(250))
        );
        assert_eq!(
            "exp:20ms".parse::<Think>().unwrap(),
            Think::Exp(Duration::from_millis(20))
        );
        assert_eq!(
            "uniform:10ms-100ms".parse::<Think>().unwrap(),
            Think::Uniform(Duration::from_millis(10), Duration::from_millis(100))
        );
        for bad in [
            "",
            "fast",
            "5h",
            "-1",
            "uniform:100ms-10ms",
            "uniform:5ms",
            "exp:x",
        ] {
            assert!(bad.parse::<Think>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn think_samples_stay_in_their_distribution() {
        let mut rng = SmallRng::seed_from_u64(7);
        let u = Think::Uniform(Duration::from_millis(10), Duration::from_millis(20));
        for _ in 0..1000 {
            let d = u.sample(&mut rng);
            assert!(
                d >= Duration::from_millis(10) && d <= Duration::from_millis(20),
                "{d:?}"
            );
        }
        let e = Think::Exp(Duration::from_millis(10));
        let mean: f64 = (0..20_000)
            .map(|_| e.sample(&mut rng).as_secs_f64())
            .sum::<f64>()
            / 20_000.0;
        assert!((mean - 0.010).abs() < 0.001, "mean {mean}");
    }
}
