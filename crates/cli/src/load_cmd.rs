//! `arena load`: many simulated remote bots against a running standalone or cluster, and the
//! tables they play, measured.
//!
//! The bots are registered through the matchmaker's bot registry (`{prefix}-00000`, …; an
//! existing one gets a new token), then each connects to bot-host's bot port on a gRPC stream of
//! its own through the Rust SDK's connection ([`arena_sdk::connection`]), as a real bot does,
//! all of them tasks of one tokio runtime (one TCP connection per bot, or `--connections K`
//! shared ones); a lost one is opened again after the client retry policy's backoff
//! ([`arena_sdk::Backoff`]). Tables of three of them are submitted to a referee
//! (at most `--in-flight` at once), each bot answering with the first legal answer (the Rust
//! SDK's default [`arena_sdk::Bot`]) after a think time drawn from `--think`, and with the
//! faults asked for: a crash (the connection dropped, the bot back as a new session after
//! `--restart-ms`), a hang (no answer: the referee's timeout) or garbage (an empty answer: a
//! malformed verdict).
//!
//! What it measures: tables finished per second; the decision latency, the time from a bot's
//! answer leaving it to the next request of the same table reaching a bot (one hop referee →
//! bot-host → bot and back, think time excluded) as p50/p99/p999 (an HDR histogram); verdicts
//! and errors; and, for processes named with `--watch NAME=PID`, their memory and CPU (so memory
//! per connected bot and CPU per table). `--steps` repeats the measurement at growing numbers of
//! connected bots, the growth curves of docs/scaling.md, which `arena load plot` draws.
//!
//! SIGINT or SIGTERM ends a run early: no new table is submitted, the tables in flight finish,
//! and what was played is reported as at the end of `--duration` (a second signal exits at
//! once).

use std::collections::{BTreeMap, HashMap};
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result, bail};
use arena_proto::v1;
use arena_proto::v1::bot_gateway_client::BotGatewayClient;
use arena_proto::v1::host_to_bot::Msg as In;
use arena_sdk::Backoff;
use arena_sdk::connection::{self, Connection};
use clap::{Args, Subcommand};
use hdrhistogram::Histogram;
use rand::rngs::SmallRng;
use rand::{Rng as _, SeedableRng as _};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tonic::transport::Channel;

use crate::client::{self, ClientAuth};

/// `arena load`: a run, or `arena load plot`.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct LoadArgs {
    #[command(subcommand)]
    command: Option<LoadCommand>,
    #[command(flatten)]
    run: RunArgs,
}

/// What `arena load` does besides a run.
#[derive(Subcommand)]
pub enum LoadCommand {
    /// Draws growth curves (tables/s and decision latency against connected bots, one line per
    /// label) from the JSON lines `arena load --results FILE` appended.
    Plot(PlotArgs),
}

/// `arena load plot`.
#[derive(Args)]
pub struct PlotArgs {
    /// The JSON lines file(s) `--results` wrote.
    #[arg(long, required = true, value_delimiter = ',')]
    results: Vec<PathBuf>,
    /// Where the two PNGs go: `<PREFIX>-tables.png` and `<PREFIX>-latency.png`.
    #[arg(long, default_value = "docs/scaling-growth")]
    out: PathBuf,
}

/// A run of `arena load`.
#[derive(Args, Clone)]
pub struct RunArgs {
    /// bot-host's bot port [default: the one the `arena standalone` of --data-dir wrote to its
    /// endpoints.json, else http://127.0.0.1:50052].
    #[arg(long, env = "ARENA_BOT_HOST")]
    bot_host: Option<String>,
    /// The matchmaker, whose bot registry issues the bots' tokens [default: as --bot-host's,
    /// else http://127.0.0.1:50054].
    #[arg(long, env = "ARENA_MATCHMAKER")]
    matchmaker: Option<String>,
    /// The referee tables are submitted to (any referee of a cluster: they share the job
    /// stream) [default: as --bot-host's, else http://127.0.0.1:50051].
    #[arg(long, env = "ARENA_REFEREE")]
    referee: Option<String>,
    /// Simulated bots.
    #[arg(long, default_value_t = 30)]
    bots: usize,
    /// Measure at these numbers of connected bots in turn (e.g. 100,1000,10000), adding bots
    /// between steps; replaces --bots.
    #[arg(long, value_delimiter = ',')]
    steps: Vec<usize>,
    /// The bots' names: PREFIX-00000, PREFIX-00001, … (registered if new, given a new token
    /// otherwise).
    #[arg(long, default_value = "load")]
    prefix: String,
    /// Tables each bot plays at once (Hello.capacity).
    #[arg(long, default_value_t = 4)]
    capacity: u32,
    /// Think time before each answer: `0`, a fixed time (`5ms`, `1s`, `250us`; a bare number
    /// is milliseconds), `exp:MEAN` (exponential) or `uniform:MIN-MAX`.
    #[arg(long, default_value = "0")]
    think: Think,
    /// Probability per decision that the bot crashes: its connection dropped, back as a new
    /// session after --restart-ms (its tables in flight are given up).
    #[arg(long, default_value_t = 0.0)]
    crash_rate: f64,
    /// Probability per decision that the bot never answers (the referee's hard cap judges it).
    #[arg(long, default_value_t = 0.0)]
    hang_rate: f64,
    /// Probability per decision that the bot answers garbage (an empty action: malformed).
    #[arg(long, default_value_t = 0.0)]
    garbage_rate: f64,
    /// How long a crashed bot stays away (milliseconds).
    #[arg(long, default_value_t = 1000)]
    restart_ms: u64,
    /// Tables to play (per step with --steps).
    #[arg(long, default_value_t = 0)]
    tables: u64,
    /// Stop submitting after this long (seconds; per step with --steps); with --tables 0, as
    /// many tables as fit.
    #[arg(long, default_value_t = 0)]
    duration: u64,
    /// No tables: connect, hold the connections for --duration seconds, report memory.
    #[arg(long)]
    idle: bool,
    /// Tables in flight at once.
    #[arg(long, default_value_t = 32)]
    in_flight: usize,
    /// Per-decision limit of the tables (milliseconds); no answer within five times it is a
    /// timeout verdict. Give think times well under it.
    #[arg(long, default_value_t = 1000)]
    decision_ms: u32,
    /// The job lane of the tables (empty: the default lane): only referees started on it
    /// (`arena table-referee --lane`) take them.
    #[arg(long, default_value = "")]
    lane: String,
    /// Share this many HTTP/2 connections among the bots (0: one connection per bot, as real
    /// bots have).
    #[arg(long, default_value_t = 0)]
    connections: usize,
    /// Connection attempts in progress at once (bot-host checks each token and claims the
    /// bot's presence in the store).
    #[arg(long, default_value_t = 128)]
    connect_burst: usize,
    /// A process to measure: NAME=PID (its RSS before and after the bots connect, its CPU
    /// during the tables). Repeatable.
    #[arg(long = "watch", value_parser = parse_watch)]
    watch: Vec<(String, u32)>,
    /// Seed of the deals and of think times and faults.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append a JSON line per measurement to this file (for `arena load plot`).
    #[arg(long)]
    results: Option<PathBuf>,
    /// The label of this run's measurements in --results (a line in the plot).
    #[arg(long, default_value = "")]
    label: String,
    /// Print each measurement as a JSON line on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// Seconds between progress lines when stderr is not a terminal.
    #[arg(long, default_value_t = 5)]
    progress_secs: u64,
    #[command(flatten)]
    auth: ClientAuth,
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
    fn sample(&self, rng: &mut SmallRng) -> Duration {
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
fn parse_duration(text: &str) -> Result<Duration, String> {
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

fn parse_watch(s: &str) -> Result<(String, u32), String> {
    let (name, pid) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?}: --watch NAME=PID, e.g. --watch bot-host=1234"))?;
    let pid: u32 = pid
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: {pid:?} is not a process id"))?;
    Ok((name.trim().to_string(), pid))
}

/// Runs `arena load`.
pub fn run(a: LoadArgs) -> Result<()> {
    match a.command {
        Some(LoadCommand::Plot(p)) => plot(&p),
        None => {
            let r = a.run;
            r.check()?;
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()
                .context("starting the runtime")?;
            let out = rt.block_on(load(r));
            // Bots still draining past the wait are dropped with the runtime.
            rt.shutdown_timeout(Duration::from_secs(1));
            out
        }
    }
}

impl RunArgs {
    /// bot-host's address, once [`load`] has resolved it.
    fn bot_host(&self) -> &str {
        self.bot_host.as_deref().unwrap_or_default()
    }

    /// The matchmaker's address, once [`load`] has resolved it.
    fn matchmaker(&self) -> &str {
        self.matchmaker.as_deref().unwrap_or_default()
    }

    /// The referee's address, once [`load`] has resolved it.
    fn referee(&self) -> &str {
        self.referee.as_deref().unwrap_or_default()
    }

    /// Flags that cannot work together, named.
    fn check(&self) -> Result<()> {
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

/// What the bots and the submitter share.
struct Shared {
    connected: AtomicU64,
    welcomes: AtomicU64,
    lost: AtomicU64,
    refused: AtomicU64,
    decisions: AtomicU64,
    crashes: AtomicU64,
    hangs: AtomicU64,
    garbage: AtomicU64,
    notices: AtomicU64,
    /// Tables finished before the current measurement (the progress line counts from it).
    step_base: AtomicU64,
    /// Decision latency in microseconds, since the current measurement began.
    latency: Mutex<Histogram<u64>>,
    /// Table id → when the last answer at that table left its bot.
    last_answer: Mutex<HashMap<String, Instant>>,
    book: Mutex<Book>,
    /// The last error of each kind, for the report.
    errors: Mutex<BTreeMap<&'static str, String>>,
}

/// The tables in flight and what finished ones said.
#[derive(Default)]
struct Book {
    in_flight: HashMap<String, OwnedSemaphorePermit>,
    finished: u64,
    without_outcome: u64,
    verdicts: BTreeMap<&'static str, u64>,
    last_end: Option<Instant>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn histogram() -> Histogram<u64> {
    // 1 µs to 1 hour, 3 significant figures.
    Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("valid histogram bounds")
}

impl Shared {
    fn new() -> Shared {
        Shared {
            connected: AtomicU64::new(0),
            welcomes: AtomicU64::new(0),
            lost: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            decisions: AtomicU64::new(0),
            crashes: AtomicU64::new(0),
            hangs: AtomicU64::new(0),
            garbage: AtomicU64::new(0),
            notices: AtomicU64::new(0),
            step_base: AtomicU64::new(0),
            latency: Mutex::new(histogram()),
            last_answer: Mutex::new(HashMap::new()),
            book: Mutex::new(Book::default()),
            errors: Mutex::new(BTreeMap::new()),
        }
    }

    fn error(&self, kind: &'static str, text: String) {
        lock(&self.errors).insert(kind, text);
    }

    /// A request of `table` arrived: the hop since the table's last answer.
    fn request(&self, table: &str) {
        self.decisions.fetch_add(1, Ordering::Relaxed);
        let since = lock(&self.last_answer).get(table).map(|t| t.elapsed());
        if let Some(d) = since {
            let us = (d.as_micros() as u64).max(1);
            let _ = lock(&self.latency).record(us);
        }
    }

    /// No answer follows at `table` (a hang, a crash): its next hop is not a decision's.
    fn forget(&self, table: &str) {
        lock(&self.last_answer).remove(table);
    }

    fn answered(&self, table: &str) {
        lock(&self.last_answer).insert(table.to_string(), Instant::now());
    }

    /// A seat's table ended: the first end of a table this run submitted finishes it.
    fn end(&self, end: &v1::TableEnd) {
        let mut book = lock(&self.book);
        if book.in_flight.remove(&end.table_id).is_none() {
            return;
        }
        book.finished += 1;
        book.last_end = Some(Instant::now());
        if end.outcome.is_none() {
            book.without_outcome += 1;
        }
        for v in &end.verdicts {
            let name = v1::VerdictKind::try_from(v.kind)
                .map(|k| k.as_str_name())
                .unwrap_or("VERDICT_KIND_UNKNOWN");
            *book.verdicts.entry(name).or_default() += 1;
        }
        drop(book);
        lock(&self.last_answer).remove(&end.table_id);
    }
}

/// How the bots behave: what every bot task reads.
struct Behaviour {
    think: Think,
    crash: f64,
    hang: f64,
    garbage: f64,
    restart: Duration,
    capacity: u32,
    seed: u64,
}

/// The SDK's default bot: the first legal answer to everything.
struct FirstLegal;

impl arena_sdk::Bot for FirstLegal {}

impl Behaviour {
    /// The misbehaviour drawn for one request, named by the verdict it earns: a crash
    /// (`Disconnected`: the connection dropped), a hang (`Timeout`: no answer) or garbage
    /// (`Malformed`: an empty answer); `None` for the first legal answer.
    fn fault(&self, rng: &mut SmallRng) -> Option<v1::VerdictKind> {
        if self.crash + self.hang + self.garbage == 0.0 {
            return None;
        }
        let u: f64 = rng.random();
        if u < self.crash {
            Some(v1::VerdictKind::Disconnected)
        } else if u < self.crash + self.hang {
            Some(v1::VerdictKind::Timeout)
        } else if u < self.crash + self.hang + self.garbage {
            Some(v1::VerdictKind::Malformed)
        } else {
            None
        }
    }
}

/// How one connection of a bot ended.
enum Ended {
    /// Drained after the stop (or stopped before its welcome).
    Stopped,
    /// A simulated crash.
    Crashed,
    /// Lost (transport error, a status another attempt may fix), after its welcome or before.
    Lost { welcomed: bool },
    /// Refused for good (a bad token, the bot connected elsewhere).
    Refused,
}

/// Where a bot's connection comes from.
#[derive(Clone)]
enum Dial {
    /// A connection of its own per connect.
    Own(String),
    /// One of a few shared connections.
    Shared(Vec<BotGatewayClient<Channel>>),
}

/// What every bot task shares.
#[derive(Clone)]
struct Fleet {
    sh: Arc<Shared>,
    how: Arc<Behaviour>,
    dial: Dial,
    /// Bounds the connection attempts in progress.
    gate: Arc<Semaphore>,
}

/// One bot: its place in the fleet, its registered name and token.
struct Identity {
    index: usize,
    name: String,
    token: String,
}

/// One simulated bot, reconnecting after crashes and losses until `stop`.
async fn bot_task(fleet: Fleet, me: Identity, mut stop: watch::Receiver<bool>) {
    let mut rng = SmallRng::seed_from_u64(
        fleet.how.seed ^ (me.index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    let mut pause = None;
    let mut backoff = Backoff::CLIENT;
    loop {
        if let Some(p) = pause.take() {
            tokio::select! {
                () = tokio::time::sleep(p) => {}
                _ = stop.wait_for(|s| *s) => return,
            }
        }
        if *stop.borrow() {
            return;
        }
        match connection(&fleet, &me, &mut rng, &mut stop).await {
            Ended::Stopped | Ended::Refused => return,
            Ended::Crashed => {
                backoff.reset();
                pause = Some(fleet.how.restart);
            }
            Ended::Lost { welcomed } => {
                if welcomed {
                    backoff.reset();
                }
                pause = Some(backoff.next_wait());
            }
        }
    }
}

async fn connection(
    fleet: &Fleet,
    me: &Identity,
    rng: &mut SmallRng,
    stop: &mut watch::Receiver<bool>,
) -> Ended {
    let (sh, how, dial, gate) = (&fleet.sh, &*fleet.how, &fleet.dial, &fleet.gate);
    let (index, name, token) = (me.index, me.name.as_str(), me.token.as_str());
    // Held until the welcome: bounds the connection attempts in progress.
    let mut permit = match gate.clone().acquire_owned().await {
        Ok(p) => Some(p),
        Err(_) => return Ended::Stopped,
    };
    let mut client = match dial {
        Dial::Own(url) => {
            match arena_sdk::connect(url, &arena_tls::ClientTlsFiles::default()).await {
                Ok(c) => c,
                Err(e) => {
                    sh.lost.fetch_add(1, Ordering::Relaxed);
                    sh.error("connect", format!("{e:#}"));
                    return Ended::Lost { welcomed: false };
                }
            }
        }
        Dial::Shared(clients) => clients[index % clients.len()].clone(),
    };
    let hello = v1::Hello {
        bot: name.to_string(),
        release: "load".into(),
        capacity: how.capacity,
        resume_session: String::new(),
        games: Vec::new(),
        // As SDK bots do by default. The first legal answer needs no history, and every
        // increment carries the legal answers, so the increments need no rebuilding here.
        incremental_observations: true,
    };
    let mut conn = match Connection::open(&mut client, hello, token).await {
        Ok(c) => c,
        Err(e) if e.reconnects() => {
            sh.lost.fetch_add(1, Ordering::Relaxed);
            sh.error("lost", format!("{name}: {e}"));
            return Ended::Lost { welcomed: false };
        }
        Err(e) => {
            sh.refused.fetch_add(1, Ordering::Relaxed);
            sh.error("refused", format!("{name}: {e}"));
            return Ended::Refused;
        }
    };
    let tx = conn.sender();
    let mut welcomed = false;
    let mut draining = false;
    let ended = loop {
        let msg = tokio::select! {
            m = conn.next() => m,
            _ = stop.wait_for(|s| *s), if !draining => {
                draining = true;
                if !welcomed {
                    break Ended::Stopped;
                }
                tx.drain();
                continue;
            }
        };
        let msg = match msg {
            Ok(Some(m)) => m,
            Ok(None) if draining => break Ended::Stopped,
            Ok(None) => {
                sh.lost.fetch_add(1, Ordering::Relaxed);
                sh.error("lost", format!("{name}: bot-host ended the stream"));
                break Ended::Lost { welcomed };
            }
            Err(e) if !e.reconnects() => {
                sh.refused.fetch_add(1, Ordering::Relaxed);
                sh.error("refused", format!("{name}: {e}"));
                break Ended::Refused;
            }
            Err(_) if draining => break Ended::Stopped,
            Err(e) => {
                sh.lost.fetch_add(1, Ordering::Relaxed);
                sh.error("lost", format!("{name}: {e}"));
                break Ended::Lost { welcomed };
            }
        };
        match msg {
            In::Welcome(_) => {
                welcomed = true;
                permit = None;
                sh.welcomes.fetch_add(1, Ordering::Relaxed);
                sh.connected.fetch_add(1, Ordering::Relaxed);
            }
            In::Request(r) => {
                sh.request(&r.table_id);
                let action = match how.fault(rng) {
                    Some(v1::VerdictKind::Disconnected) => {
                        sh.forget(&r.table_id);
                        sh.crashes.fetch_add(1, Ordering::Relaxed);
                        break Ended::Crashed;
                    }
                    Some(v1::VerdictKind::Timeout) => {
                        sh.forget(&r.table_id);
                        sh.hangs.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    // Malformed: an empty answer.
                    Some(_) => {
                        sh.garbage.fetch_add(1, Ordering::Relaxed);
                        v1::Action::default()
                    }
                    None => arena_sdk::Bot::decide(&mut FirstLegal, &r),
                };
                let reply = connection::reply(&r, action);
                let think = how.think.sample(rng);
                if think.is_zero() {
                    sh.answered(&r.table_id);
                    tx.send(reply);
                } else {
                    let (sh, tx) = (Arc::clone(sh), tx.clone());
                    tokio::spawn(async move {
                        tokio::time::sleep(think).await;
                        sh.answered(&r.table_id);
                        tx.send(reply);
                    });
                }
            }
            In::End(e) => sh.end(&e),
            In::Notice(_) => {
                sh.notices.fetch_add(1, Ordering::Relaxed);
            }
            // The connection answers pings.
            In::Start(_) | In::Ping(_) => {}
        }
    };
    drop(permit);
    if welcomed {
        sh.connected.fetch_sub(1, Ordering::Relaxed);
    }
    ended
}

/// Registers `names` through the matchmaker's bot registry: their tokens (a new one for a bot
/// registered already).
async fn register(a: &RunArgs, names: &[String]) -> Result<Vec<String>> {
    use v1::bot_registry_client::BotRegistryClient;
    let channel = client::connect(a.matchmaker(), client::Role::Matchmaker, &a.auth).await?;
    let registry = BotRegistryClient::new(channel);
    let mut tokens = vec![String::new(); names.len()];
    let mut tasks = tokio::task::JoinSet::new();
    let mut next = 0;
    // A few calls at once: the registry writes each bot to the store.
    while next < names.len() || !tasks.is_empty() {
        while next < names.len() && tasks.len() < 16 {
            let (mut reg, name, i) = (registry.clone(), names[next].clone(), next);
            tasks.spawn(async move {
                let added = reg
                    .add_bot(v1::AddBotRequest {
                        name: name.clone(),
                        ..Default::default()
                    })
                    .await;
                let answer = match added {
                    Err(s) if s.code() == tonic::Code::AlreadyExists => {
                        reg.rotate_bot_token(v1::BotNameRequest { name: name.clone() })
                            .await
                    }
                    other => other,
                };
                answer
                    .map(|r| (i, r.into_inner().token))
                    .map_err(|s| client::status(s).context(format!("registering bot {name}")))
            });
            next += 1;
        }
        if let Some(done) = tasks.join_next().await {
            let (i, token) = done.context("a registration task failed")??;
            tokens[i] = token;
        }
    }
    Ok(tokens)
}

/// A process's resident memory (bytes) and CPU time (user + system) from /proc.
fn sample(pid: u32) -> Option<(u64, Duration)> {
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
struct Watched {
    procs: Vec<(String, u32)>,
}

impl Watched {
    fn sample(&self) -> Vec<Option<(u64, Duration)>> {
        self.procs.iter().map(|(_, pid)| sample(*pid)).collect()
    }
}

/// What a watched process used in a measurement.
struct ProcMeasure {
    name: String,
    /// RSS before this step's bots connected, and with them (bytes).
    rss_before: Option<u64>,
    rss_with: Option<u64>,
    /// RSS once every table was submitted (the most in flight), bytes.
    rss_playing: Option<u64>,
    /// CPU time during the tables (or the hold).
    cpu: Option<Duration>,
}

/// Table submissions in progress at once.
const SUBMITS_AT_ONCE: usize = 16;

/// One measurement: a step of a run.
struct Measure {
    bots: usize,
    wall: Duration,
    tables: u64,
    without_outcome: u64,
    decisions: u64,
    latency: Histogram<u64>,
    verdicts: BTreeMap<&'static str, u64>,
    procs: Vec<ProcMeasure>,
    connect_secs: f64,
    /// Tables in flight once every table was submitted.
    peak_in_flight: usize,
}

impl Measure {
    fn tables_per_s(&self) -> f64 {
        self.tables as f64 / self.wall.as_secs_f64().max(1e-9)
    }

    fn ms(&self, q: f64) -> f64 {
        if self.latency.is_empty() {
            return 0.0;
        }
        self.latency.value_at_quantile(q) as f64 / 1000.0
    }

    fn json(&self, a: &RunArgs, sh: &Shared, idle: bool) -> serde_json::Value {
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

    fn print(&self, a: &RunArgs, sh: &Shared, idle: bool) {
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

fn per_bot(before: Option<u64>, with: Option<u64>, bots: usize) -> Option<i64> {
    let (b, w) = (before?, with?);
    (bots > 0).then(|| (w as i64 - b as i64) / bots as i64)
}

/// A progress line: a spinner on a terminal, plain lines every `every` elsewhere.
struct Progress {
    bar: Option<indicatif::ProgressBar>,
    every: Duration,
    last: Instant,
}

impl Progress {
    fn new(every: Duration) -> Progress {
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

    fn show(&mut self, text: String) {
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

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn status_line(sh: &Shared, target: usize, started: Instant) -> String {
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

/// The job of table `n` of this run, seating three of `bots`.
fn table_job(a: &RunArgs, run: &str, n: u64, bots: &[String]) -> v1::TableJob {
    let seat = |j: u64| bots[((3 * n + j) % bots.len() as u64) as usize].clone();
    let deal = ddz::Deal::generate(a.seed, n);
    v1::TableJob {
        table_id: format!("{}-{run}-{n}", a.prefix),
        game: v1::Game::DouDizhu as i32,
        seats: (0..3).map(|j| v1::SeatSpec { bot: seat(j) }).collect(),
        setup: Some(v1::table_job::Setup::Ddz(v1::DdzSetup {
            deal: deal.to_string(),
            rules: "competition".into(),
            landlord: Some(v1::ddz_setup::Landlord::FixedLandlord(0)),
            fixed_bid: 1,
            scoring: "competition".into(),
            ..Default::default()
        })),
        time: Some(v1::TimeControl {
            decision_ms: a.decision_ms,
            hard_cap_ms: a.decision_ms.saturating_mul(5),
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: a.seed.wrapping_add(n),
        labels: [("load".to_string(), run.to_string())].into(),
        lane: a.lane.clone(),
        ..Default::default()
    }
}

async fn load(mut a: RunArgs) -> Result<()> {
    // Every address from here on is the one to dial: given, or found in the data directory.
    a.bot_host = Some(
        a.auth
            .address(a.bot_host.as_deref(), client::Role::BotHost)?,
    );
    a.matchmaker = Some(
        a.auth
            .address(a.matchmaker.as_deref(), client::Role::Matchmaker)?,
    );
    a.referee = Some(
        a.auth
            .address(a.referee.as_deref(), client::Role::Referee)?,
    );
    let steps: Vec<usize> = if a.steps.is_empty() {
        vec![a.bots]
    } else {
        a.steps.clone()
    };
    let most = *steps.last().unwrap_or(&a.bots);
    let names: Vec<String> = (0..most).map(|i| format!("{}-{i:05}", a.prefix)).collect();
    let mut watched = Watched {
        procs: a.watch.clone(),
    };
    watched
        .procs
        .push(("arena load".into(), std::process::id()));
    let t0 = Instant::now();
    let tokens = register(&a, &names).await?;
    eprintln!(
        "arena load: {} bots registered in {:.1} s through {}",
        names.len(),
        t0.elapsed().as_secs_f64(),
        a.matchmaker()
    );
    let referee = if a.idle {
        None
    } else {
        let channel = client::connect(a.referee(), client::Role::Referee, &a.auth).await?;
        Some(v1::table_referee_client::TableRefereeClient::new(channel))
    };
    let dial = if a.connections == 0 {
        Dial::Own(a.bot_host().to_string())
    } else {
        let mut clients = Vec::with_capacity(a.connections);
        for _ in 0..a.connections {
            clients.push(
                arena_sdk::connect(a.bot_host(), &arena_tls::ClientTlsFiles::default()).await?,
            );
        }
        Dial::Shared(clients)
    };
    let sh = Arc::new(Shared::new());
    let how = Arc::new(Behaviour {
        think: a.think,
        crash: a.crash_rate,
        hang: a.hang_rate,
        garbage: a.garbage_rate,
        restart: Duration::from_millis(a.restart_ms),
        capacity: a.capacity,
        seed: a.seed,
    });
    let fleet = Fleet {
        sh: Arc::clone(&sh),
        how,
        dial,
        gate: Arc::new(Semaphore::new(a.connect_burst)),
    };
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut interrupt = interrupted();
    let mut bots = tokio::task::JoinSet::new();
    let run_id = format!(
        "{:x}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0)
    );
    let mut progress = Progress::new(Duration::from_secs(a.progress_secs.max(1)));
    let mut table_no = 0u64;
    let mut outcome = Ok(());
    for &step in &steps {
        // Connect the bots up to this step.
        let before = watched.sample();
        let connect_start = Instant::now();
        for i in bots.len()..step {
            let me = Identity {
                index: i,
                name: names[i].clone(),
                token: tokens[i].clone(),
            };
            bots.spawn(bot_task(fleet.clone(), me, stop_rx.clone()));
        }
        loop {
            let connected = sh.connected.load(Ordering::Relaxed) as usize;
            if connected >= step {
                break;
            }
            if sh.refused.load(Ordering::Relaxed) > 0 && a.crash_rate == 0.0 {
                outcome = Err(anyhow::anyhow!(
                    "bot-host refused bots: {}",
                    lock(&sh.errors).get("refused").cloned().unwrap_or_default()
                ));
                break;
            }
            if connect_start.elapsed() > Duration::from_secs(300) {
                outcome = Err(anyhow::anyhow!(
                    "only {connected} of {step} bots connected within 300 s (last error: {:?})",
                    lock(&sh.errors).values().last()
                ));
                break;
            }
            progress.show(status_line(&sh, step, connect_start));
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        if outcome.is_err() {
            break;
        }
        let connect_secs = connect_start.elapsed().as_secs_f64();
        // Let the connections settle (first keepalives, presence writes) before sampling memory.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let with = watched.sample();
        let mut playing = with.clone();
        let mut peak_in_flight = 0;
        // Play (or hold).
        *lock(&sh.latency) = histogram();
        let decisions0 = sh.decisions.load(Ordering::Relaxed);
        let (finished0, without0, verdicts0) = {
            let b = lock(&sh.book);
            (b.finished, b.without_outcome, b.verdicts.clone())
        };
        sh.step_base.store(finished0, Ordering::Relaxed);
        let start = Instant::now();
        let deadline = (a.duration > 0).then(|| start + Duration::from_secs(a.duration));
        let seated = &names[..step];
        if let Some(referee) = &referee {
            let slots = Arc::new(Semaphore::new(a.in_flight));
            let mut submitted = 0u64;
            let mut submits = tokio::task::JoinSet::new();
            let mut sampled = Instant::now();
            // The RSS when the most tables were in flight: what they hold.
            let mut peak = |peak_in_flight: &mut usize, playing: &mut Vec<_>, force: bool| {
                if force || sampled.elapsed() >= Duration::from_secs(1) {
                    sampled = Instant::now();
                    let n = lock(&sh.book).in_flight.len();
                    if n >= *peak_in_flight && n > 0 {
                        *peak_in_flight = n;
                        *playing = watched.sample();
                    }
                }
            };
            'submitting: while a.tables == 0 || submitted < a.tables {
                if deadline.is_some_and(|d| Instant::now() >= d) || *interrupt.borrow() {
                    break;
                }
                peak(&mut peak_in_flight, &mut playing, false);
                let permit = tokio::select! {
                    p = slots.clone().acquire_owned() => p.context("the table slots closed")?,
                    () = tokio::time::sleep(Duration::from_millis(100)) => {
                        progress.show(status_line(&sh, step, start));
                        continue;
                    }
                    _ = interrupt.changed() => continue,
                };
                let job = table_job(&a, &run_id, table_no, seated);
                table_no += 1;
                lock(&sh.book)
                    .in_flight
                    .insert(job.table_id.clone(), permit);
                // Several submissions at once: each is a store write on the referee's side.
                while submits.len() >= SUBMITS_AT_ONCE
                    || (submitted + 1 == a.tables && !submits.is_empty())
                {
                    match submits.join_next().await {
                        Some(Ok(Ok(()))) | None => {}
                        Some(Ok(Err(e))) => {
                            outcome = Err(e);
                            break 'submitting;
                        }
                        Some(Err(e)) => {
                            outcome = Err(anyhow::anyhow!("a submission task failed: {e}"));
                            break 'submitting;
                        }
                    }
                }
                let (mut referee, book, url) =
                    (referee.clone(), Arc::clone(&sh), a.referee().to_string());
                submits.spawn(async move {
                    let id = job.table_id.clone();
                    match referee
                        .submit_table(v1::SubmitTableRequest { job: Some(job) })
                        .await
                    {
                        Ok(_) => Ok(()),
                        Err(s) => {
                            lock(&book.book).in_flight.remove(&id);
                            Err(client::status(s)
                                .context(format!("submitting table {id} to {url}")))
                        }
                    }
                });
                submitted += 1;
                progress.show(status_line(&sh, step, start));
            }
            while let Some(done) = submits.join_next().await {
                if let Ok(Err(e)) = done
                    && outcome.is_ok()
                {
                    outcome = Err(e);
                }
            }
            peak(&mut peak_in_flight, &mut playing, true);
            // The tables in flight finish (a hung seat takes the hard cap).
            let patience = Duration::from_millis(u64::from(a.decision_ms) * 5 * 60)
                .max(Duration::from_secs(60));
            let waited = Instant::now();
            while !lock(&sh.book).in_flight.is_empty() {
                peak(&mut peak_in_flight, &mut playing, false);
                if waited.elapsed() > patience {
                    let left = lock(&sh.book).in_flight.len();
                    outcome = Err(anyhow::anyhow!(
                        "{left} tables did not finish within {} s",
                        patience.as_secs()
                    ));
                    break;
                }
                progress.show(status_line(&sh, step, start));
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        } else {
            while deadline.is_some_and(|d| Instant::now() < d) && !*interrupt.borrow() {
                progress.show(status_line(&sh, step, start));
                tokio::select! {
                    () = tokio::time::sleep(Duration::from_millis(200)) => {}
                    _ = interrupt.changed() => {}
                }
            }
        }
        let after = watched.sample();
        let book = lock(&sh.book);
        let end = if a.idle {
            Instant::now()
        } else {
            book.last_end.unwrap_or_else(Instant::now).max(start)
        };
        let mut verdicts = book.verdicts.clone();
        for (k, n) in &verdicts0 {
            if let Some(v) = verdicts.get_mut(k) {
                *v -= n;
            }
        }
        verdicts.retain(|_, n| *n > 0);
        let m = Measure {
            bots: step,
            wall: end - start,
            tables: book.finished - finished0,
            without_outcome: book.without_outcome - without0,
            decisions: sh.decisions.load(Ordering::Relaxed) - decisions0,
            latency: lock(&sh.latency).clone(),
            verdicts,
            procs: watched
                .procs
                .iter()
                .enumerate()
                .map(|(i, (name, _))| {
                    let rss = |s: &[Option<(u64, Duration)>]| s[i].map(|x| x.0);
                    let cpu = match (with[i], after[i]) {
                        (Some(w), Some(x)) => Some(x.1.saturating_sub(w.1)),
                        _ => None,
                    };
                    ProcMeasure {
                        name: name.clone(),
                        rss_before: rss(&before),
                        rss_with: rss(&with),
                        rss_playing: rss(&playing),
                        cpu,
                    }
                })
                .collect(),
            connect_secs,
            peak_in_flight,
        };
        drop(book);
        progress.done();
        let json = m.json(&a, &sh, a.idle);
        if a.json {
            println!("{json}");
        } else {
            m.print(&a, &sh, a.idle);
        }
        if let Some(path) = &a.results {
            use std::io::Write as _;
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening --results {}", path.display()))?;
            writeln!(f, "{json}").with_context(|| format!("writing {}", path.display()))?;
        }
        if outcome.is_err() || *interrupt.borrow() {
            break;
        }
    }
    // Every bot drains (its tables in flight end), within a bound.
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while bots.join_next().await.is_some() {}
    })
    .await;
    bots.abort_all();
    outcome
}

/// Becomes true at the first SIGINT or SIGTERM: no new table is submitted, the tables in
/// flight finish and the measurement so far is reported (a step of `--steps` not yet begun is
/// not). A second signal exits at once, reporting nothing.
fn interrupted() -> watch::Receiver<bool> {
    use tokio::signal::unix::{SignalKind, signal};
    let (tx, rx) = watch::channel(false);
    let (Ok(mut int), Ok(mut term)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        eprintln!("arena load: cannot watch for SIGINT and SIGTERM; a signal stops it at once");
        return rx;
    };
    tokio::spawn(async move {
        for n in 0.. {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
            if n > 0 {
                eprintln!("arena load: a second signal: stopping at once, no report");
                std::process::exit(130);
            }
            eprintln!(
                "arena load: stopping: no new tables; the tables in flight finish, then the \
                 report (a second signal stops at once)"
            );
            let _ = tx.send(true);
        }
    });
    rx
}

/// `arena load plot`: tables/s and p50/p99 latency against connected bots, a line per label.
fn plot(p: &PlotArgs) -> Result<()> {
    let mut rows: BTreeMap<String, Vec<(f64, f64, f64, f64)>> = BTreeMap::new();
    for path in &p.results {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading --results {}", path.display()))?;
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: serde_json::Value = serde_json::from_str(line).with_context(|| {
                format!(
                    "{}:{}: not a JSON line of arena load",
                    path.display(),
                    i + 1
                )
            })?;
            if v["idle"].as_bool() == Some(true) {
                continue;
            }
            let num = |x: &serde_json::Value, what: &str| {
                x.as_f64()
                    .with_context(|| format!("{}:{}: no {what}", path.display(), i + 1))
            };
            let label = v["label"].as_str().unwrap_or("").to_string();
            rows.entry(label).or_default().push((
                num(&v["bots"], "bots")?,
                num(&v["tables_per_s"], "tables_per_s")?,
                num(&v["latency_ms"]["p50"], "latency_ms.p50")?,
                num(&v["latency_ms"]["p99"], "latency_ms.p99")?,
            ));
        }
    }
    if rows.is_empty() {
        bail!("no measurements with tables in {:?}", p.results);
    }
    for pts in rows.values_mut() {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let name = |label: &str| {
        if label.is_empty() {
            "run".to_string()
        } else {
            label.to_string()
        }
    };
    let tables: Vec<(String, Vec<(f64, f64)>)> = rows
        .iter()
        .map(|(l, pts)| (name(l), pts.iter().map(|r| (r.0, r.1)).collect()))
        .collect();
    let mut latency: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (l, pts) in &rows {
        latency.push((
            format!("{} p50", name(l)),
            pts.iter().map(|r| (r.0, r.2)).collect(),
        ));
        latency.push((
            format!("{} p99", name(l)),
            pts.iter().map(|r| (r.0, r.3)).collect(),
        ));
    }
    let top = |s: &[(String, Vec<(f64, f64)>)]| {
        s.iter()
            .flat_map(|(_, p)| p.iter().map(|q| q.1))
            .fold(0.0, f64::max)
            * 1.15
            + 1e-9
    };
    let out = |suffix: &str| {
        let mut s = p.out.clone().into_os_string();
        s.push(suffix);
        PathBuf::from(s)
    };
    let (t_path, l_path) = (out("-tables.png"), out("-latency.png"));
    arena_compete::plot::lines(
        "tables per second against connected bots",
        "bots connected",
        "tables/s",
        &tables,
        (0.0, top(&tables)),
        &t_path,
    )?;
    arena_compete::plot::lines(
        "decision latency against connected bots",
        "bots connected",
        "ms (answer → next request of the table)",
        &latency,
        (0.0, top(&latency)),
        &l_path,
    )?;
    println!("wrote {} and {}", t_path.display(), l_path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
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

    #[test]
    fn faults_come_at_their_rates() {
        let how = Behaviour {
            think: Think::Fixed(Duration::ZERO),
            crash: 0.1,
            hang: 0.2,
            garbage: 0.3,
            restart: Duration::ZERO,
            capacity: 1,
            seed: 1,
        };
        let mut rng = SmallRng::seed_from_u64(3);
        let mut n = [0u32; 4];
        for _ in 0..100_000 {
            n[match how.fault(&mut rng) {
                Some(v1::VerdictKind::Disconnected) => 0,
                Some(v1::VerdictKind::Timeout) => 1,
                Some(v1::VerdictKind::Malformed) => 2,
                Some(other) => panic!("no fault draws {other:?}"),
                None => 3,
            }] += 1;
        }
        for (i, want) in [0.1, 0.2, 0.3, 0.4].into_iter().enumerate() {
            let got = f64::from(n[i]) / 100_000.0;
            assert!((got - want).abs() < 0.01, "fault {i}: {got} for {want}");
        }
    }

    #[test]
    fn a_table_seats_three_different_bots_in_turn() {
        let a = RunArgs::try_parse_from_default();
        let bots: Vec<String> = (0..7).map(|i| format!("b{i}")).collect();
        let seats = |n| -> Vec<String> {
            table_job(&a, "r", n, &bots)
                .seats
                .into_iter()
                .map(|s| s.bot)
                .collect()
        };
        assert_eq!(seats(0), ["b0", "b1", "b2"]);
        assert_eq!(seats(1), ["b3", "b4", "b5"]);
        assert_eq!(seats(2), ["b6", "b0", "b1"]);
        let job = table_job(&a, "r", 2, &bots);
        assert_eq!(job.table_id, "load-r-2");
        assert_eq!(job.time.unwrap().hard_cap_ms, 5000);
    }

    impl RunArgs {
        fn try_parse_from_default() -> RunArgs {
            #[derive(clap::Parser)]
            struct P {
                #[command(flatten)]
                r: RunArgs,
            }
            <P as clap::Parser>::parse_from(["load"]).r
        }
    }
}
