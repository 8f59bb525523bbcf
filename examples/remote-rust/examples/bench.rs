//! The remote decision path on loopback, measured:
//! `cargo run --release -p arena-example-remote-bot --example bench -- [--tables N]
//! [--concurrency C] [--low-load N] [--store-tables N] [--threads T] [--incremental 0|1]
//! [--seats-stream 0|1]`.
//!
//! Every role runs on a tokio runtime of its own, as it would in a process of its own: the
//! referee's table driver (`referee` threads), bot-host (`bot-host` threads) and the three
//! remote bots on the SDK (`bots` threads, their decisions on the same runtime's blocking
//! pool). They talk gRPC over loopback TCP exactly as separate processes do; what separates
//! them is kept per thread name, so the CPU each role spends is read from
//! `/proc/self/task/*/schedstat` (nanoseconds on CPU per thread) before and after each phase.
//!
//! 1. **At load**: `--tables` Dou Dizhu tables (default 3,000), `--concurrency` at once
//!    (default 64), every seat a remote bot: tables/s, decisions/s, and CPU per decision per
//!    role. The referee's table driver ([`arena_games::run_spec`], what a referee runs for
//!    each job) is called directly: no job queue and no store, which are the referee's
//!    result path and measured in step 3.
//! 2. **Low load**: `--low-load` tables (default 300), one at a time: for each remote
//!    decision, the referee's time from sending the request to receiving the answer, minus the
//!    bot's own think time (measured around its `decide`): p50/p99/p999 of that overhead.
//! 3. **Whole referee** (`--store-tables`, default 300; 0 skips it): the same tables through
//!    the referee's job loop on an embedded store in a temporary directory (take the job, play
//!    it, write result and replay, acknowledge), and with built-in bots in-process.
//!
//! Bytes: the encoded size of every decision request the bots receive, per table, as it came
//! over the wire (before the SDK rebuilds an incremental observation): `--incremental 0` has
//! the bots ask for full observations, as bots written before incremental ones do. The
//! referee's seat streams to bot-host carry increments whatever the bots ask (bot-host says
//! `SeatReady.incremental_observations`): the referee builds only each request's new events,
//! and bot-host makes a request whole only for a bot that asked for whole observations.
//!
//! The referee's seats share one `SeatHost.Seats` stream to bot-host; `--seats-stream 0` gives
//! each seat a `SeatHost.Seat` stream of its own instead, as referees did before.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use arena_auth::token::issue_token;
use arena_bot_host::{BotHost, BotHostConfig};
use arena_proto::v1;
use arena_referee::RefereeConfig;
use arena_sdk::Bot;
use arena_store::{BotKind, BotRecord, EmbeddedStore, Store};
use arena_table::{BotHosts, RunOptions, run::Played};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::{Layer, filter};

/// The allocator the `arena` binary serves with, so the roles here allocate as they do there.
#[global_allocator]
static ALLOCATOR: arena_serve::allocator::Allocator = arena_serve::allocator::Allocator;

/// The cluster token bot-host and the referee share here.
const CLUSTER_TOKEN: &str = "bench-cluster-token";

/// What the bench measures while a phase runs, shared by the roles' runtimes.
#[derive(Default)]
struct Probe {
    /// Whether the bots record their think time and the bytes they receive.
    recording: AtomicBool,
    /// (table id, request id) → the bot's think time in ns.
    think: Mutex<HashMap<(String, u64), u64>>,
    /// The referee's `decision` spans that ended: (request id, ns from request to answer).
    decisions: Mutex<Vec<(u64, u64)>>,
}

fn probe() -> &'static Probe {
    static PROBE: OnceLock<Probe> = OnceLock::new();
    PROBE.get_or_init(Probe::default)
}

/// The example bot of either game, timed: think time recorded while the probe records.
struct Timed(Box<dyn Bot>);

impl Bot for Timed {
    fn decide(&mut self, req: &v1::DecisionRequest) -> v1::Action {
        let start = Instant::now();
        let action = self.0.decide(req);
        let think = start.elapsed().as_nanos() as u64;
        let p = probe();
        if p.recording.load(Ordering::Relaxed) {
            p.think
                .lock()
                .unwrap()
                .insert((req.table_id.clone(), req.request_id), think);
        }
        action
    }

    fn is_quick(&self) -> bool {
        self.0.is_quick()
    }
}

/// Times the referee's `decision` spans (arena_table's async driver: one per remote decision,
/// from sending the request to the answer).
struct DecisionTimer;

struct Started(Instant, u64);

struct IndexVisitor(u64);

impl tracing::field::Visit for IndexVisitor {
    fn record_u64(&mut self, field: &tracing::field::Field, value: u64) {
        if field.name() == "index" {
            self.0 = value;
        }
    }
    fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for DecisionTimer {
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: Context<'_, S>,
    ) {
        let mut index = IndexVisitor(0);
        attrs.record(&mut index);
        if let Some(span) = ctx.span(id) {
            span.extensions_mut()
                .insert(Started(Instant::now(), index.0));
        }
    }

    fn on_close(&self, id: tracing::span::Id, ctx: Context<'_, S>) {
        if let Some(span) = ctx.span(&id)
            && let Some(Started(at, index)) = span.extensions().get::<Started>()
            && probe().recording.load(Ordering::Relaxed)
        {
            let ns = at.elapsed().as_nanos() as u64;
            probe().decisions.lock().unwrap().push((*index, ns));
        }
    }
}

/// CPU time (ns) per thread name, summed over this process's threads.
fn cpu_by_thread() -> HashMap<String, u64> {
    let mut by_name = HashMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return by_name;
    };
    for t in tasks.flatten() {
        let dir = t.path();
        let name = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        let ns = std::fs::read_to_string(dir.join("schedstat"))
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0);
        // The runtime's worker and blocking threads share its name.
        *by_name.entry(name.trim().to_string()).or_insert(0) += ns;
    }
    by_name
}

const ROLES: [&str; 3] = ["referee", "bot-host", "bots"];

/// CPU (ns) spent by each role between two readings; threads that started in between count
/// from zero.
fn cpu_delta(before: &HashMap<String, u64>, after: &HashMap<String, u64>) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = ROLES
        .iter()
        .map(|role| {
            let now: u64 = after
                .iter()
                .filter(|(n, _)| n.starts_with(role))
                .map(|(_, v)| v)
                .sum();
            let then: u64 = before
                .iter()
                .filter(|(n, _)| n.starts_with(role))
                .map(|(_, v)| v)
                .sum();
            ((*role).to_string(), now.saturating_sub(then))
        })
        .collect();
    let total_now: u64 = after.values().sum();
    let total_then: u64 = before.values().sum();
    let roles: u64 = out.iter().map(|(_, v)| v).sum();
    out.push((
        "other".into(),
        total_now.saturating_sub(total_then).saturating_sub(roles),
    ));
    out
}

fn job(competition: &str, i: u64, seats: &[&str]) -> v1::TableJob {
    v1::TableJob {
        // A competition's tables are named under it: the store lists a result with its
        // competition only then, and step 3 waits for that listing.
        table_id: format!("{competition}/{i}"),
        game: "ddz".into(),
        seats: seats
            .iter()
            .map(|b| v1::SeatSpec { bot: (*b).into() })
            .collect(),
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            deal: ddz::Deal::generate(5, i).to_string(),
            rules: "competition".into(),
            landlord: Some(ddz_pb::setup::Landlord::FixedLandlord(0)),
            fixed_bid: 1,
            doubling: false,
            scoring: "competition".into(),
            ..Default::default()
        })),
        time: Some(v1::TimeControl {
            decision_ms: 5000,
            hard_cap_ms: 20_000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: i,
        competition: competition.into(),
        ..Default::default()
    }
}

/// Plays one table through the referee's driver; the decisions the bots answered.
async fn play_table(job: &v1::TableJob, opts: &RunOptions, hosts: &BotHosts) -> u64 {
    let spec = arena_games::validate(job).expect("a valid job");
    match arena_games::run_spec(job, &spec, opts, hosts).await {
        Played::Finished(record) => {
            let result = &record.result;
            assert!(result.error.is_empty(), "table failed: {}", result.error);
            assert!(
                result.verdicts.is_empty(),
                "verdicts: {:?}",
                result.verdicts
            );
            record.steps.iter().filter(|s| !s.automatic).count() as u64
        }
        Played::Interrupted(why) => panic!("table interrupted: {why}"),
    }
}

/// The whole referee (job loop, embedded store) on `store`: tables/s.
async fn whole_referee(
    store: Arc<dyn Store>,
    host: &str,
    competition: &str,
    n: u64,
    seats: &[&str],
) -> f64 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let cfg = RefereeConfig {
        referee_id: format!("bench-{competition}"),
        cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
        bot_hosts: vec![host.into()],
        max_tables: 64,
        poll_interval: Duration::from_millis(20),
        ..RefereeConfig::default()
    };
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let s = store.clone();
    let referee = tokio::spawn(async move {
        arena_referee::serve_with_listener(listener, cfg, s, async {
            let _ = rx.await;
        })
        .await
    });
    let start = Instant::now();
    for i in 0..n {
        let j = job(competition, i, seats);
        store
            .enqueue_job(&j.table_id, &arena_table::queue::encode_table_job(&j))
            .await
            .unwrap();
    }
    while (store.results_for(competition).await.unwrap().len() as u64) < n {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let secs = start.elapsed().as_secs_f64();
    let _ = stop.send(());
    let _ = referee.await;
    n as f64 / secs
}

/// The value at quantile `q` of `sorted`, in ms.
fn ms(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize] as f64 / 1e6
}

/// A role's runtime, built as the `arena` binary builds its roles'.
fn runtime(name: &str, threads: usize) -> tokio::runtime::Runtime {
    arena_serve::runtime::builder()
        .worker_threads(threads)
        .thread_name(name)
        .build()
        .unwrap()
}

struct Args {
    tables: u64,
    concurrency: u64,
    low_load: u64,
    store_tables: u64,
    threads: usize,
    incremental: bool,
    seats_stream: bool,
}

fn args() -> Args {
    let mut a = Args {
        tables: 3000,
        concurrency: 64,
        low_load: 300,
        store_tables: 300,
        threads: 2,
        incremental: true,
        seats_stream: true,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().and_then(|v| v.parse::<u64>().ok());
        let Some(v) = value else {
            eprintln!(
                "{flag}: needs a number; flags: --tables --concurrency --low-load --store-tables --threads --incremental --seats-stream"
            );
            std::process::exit(2);
        };
        match flag.as_str() {
            "--tables" => a.tables = v,
            "--concurrency" => a.concurrency = v.max(1),
            "--low-load" => a.low_load = v,
            "--store-tables" => a.store_tables = v,
            "--threads" => a.threads = (v as usize).max(1),
            "--incremental" => a.incremental = v != 0,
            "--seats-stream" => a.seats_stream = v != 0,
            _ => {
                eprintln!(
                    "unknown flag {flag}: --tables --concurrency --low-load --store-tables --threads --incremental --seats-stream"
                );
                std::process::exit(2);
            }
        }
    }
    a
}

fn main() {
    let a = args();
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(
        DecisionTimer.with_filter(filter::filter_fn(|m| {
            m.name() == "decision" && *m.level() <= tracing::Level::INFO
        })),
    ))
    .unwrap();
    let host_rt = runtime("bot-host", a.threads);
    let bots_rt = runtime("bots", a.threads);
    let referee_rt = runtime("referee", a.threads);

    let dir = std::env::temp_dir().join(format!("arena-bench-{}", std::process::id()));
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(&dir).unwrap());
    let names = ["b1", "b2", "b3"];
    let tokens: Vec<String> = host_rt.block_on(async {
        let mut tokens = Vec::new();
        for name in names {
            let (token, hash) = issue_token().unwrap();
            store
                .add_bot(&BotRecord {
                    name: name.into(),
                    kind: BotKind::Remote,
                    token_sha256: Some(hash),
                    max_tables: 0,
                    created_unix_ms: 0,
                    decision_ms: 0,
                    later_decision_ms: 0,
                })
                .await
                .unwrap();
            tokens.push(token);
        }
        tokens
    });
    let host = host_rt
        .block_on(BotHost::bind(
            BotHostConfig {
                cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
                ..BotHostConfig::loopback()
            },
            store.clone(),
        ))
        .unwrap();
    let url = format!("http://{}", host.local_addr());
    let seat_url = host.advertised().to_string();
    let (host_stop, rx) = tokio::sync::oneshot::channel::<()>();
    let host_task = host_rt.spawn(host.run(async {
        let _ = rx.await;
    }));
    let mut bot_stops = Vec::new();
    let mut bot_runs = Vec::new();
    for (name, token) in names.iter().zip(tokens) {
        let (url, name) = (url.clone(), name.to_string());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        bot_stops.push(stop);
        let incremental = a.incremental;
        bot_runs.push(bots_rt.spawn(async move {
            let example = arena_example_remote_bot::Options::default();
            let options = arena_sdk::Options {
                capacity: 1024,
                incremental,
                ..example.sdk(Duration::from_millis(100))
            };
            let games = example.games()?.map(Timed);
            arena_sdk::run(&url, &name, &token, &options, games, async {
                let _ = stopped.await;
            })
            .await
        }));
    }
    std::thread::sleep(Duration::from_millis(300));

    // The referee's channel to bot-host lives on the referee's runtime.
    let hosts = {
        let _referee = referee_rt.enter();
        let hosts = BotHosts::new(std::slice::from_ref(&seat_url)).unwrap();
        Arc::new(if a.seats_stream {
            hosts
        } else {
            hosts.per_seat()
        })
    };
    let opts = Arc::new(RunOptions {
        referee: "bench".into(),
        seat_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
        ..RunOptions::default()
    });
    // Warm up: connections, allocator, caches.
    referee_rt.block_on(play_table(&job("warm", 0, &names), &opts, &hosts));

    // 1. At load.
    let next = Arc::new(AtomicU64::new(0));
    let p = probe();
    let cpu_before = cpu_by_thread();
    let start = Instant::now();
    let decisions: u64 = referee_rt.block_on(async {
        let workers: Vec<_> = (0..a.concurrency)
            .map(|_| {
                let (next, opts, hosts) = (next.clone(), opts.clone(), hosts.clone());
                let n = a.tables;
                tokio::spawn(async move {
                    let mut decisions = 0;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            return decisions;
                        }
                        decisions += play_table(&job("load", i, &names), &opts, &hosts).await;
                    }
                })
            })
            .collect();
        let mut sum = 0;
        for w in workers {
            sum += w.await.unwrap();
        }
        sum
    });
    let secs = start.elapsed().as_secs_f64();
    let cpu = cpu_delta(&cpu_before, &cpu_by_thread());
    println!(
        "at load: {} Dou Dizhu tables, {} at once, every seat remote, {} {}-thread runtimes",
        a.tables,
        a.concurrency,
        ROLES.len(),
        a.threads
    );
    println!(
        "  {:.0} tables/s, {:.0} decisions/s ({decisions} decisions in {secs:.2} s, {:.1} per table)",
        a.tables as f64 / secs,
        decisions as f64 / secs,
        decisions as f64 / a.tables as f64
    );
    let total: u64 = cpu.iter().map(|(_, v)| v).sum();
    println!(
        "  CPU per decision: {}; total {:.1} us ({:.2} cores busy of {})",
        cpu.iter()
            .map(|(role, ns)| format!("{role} {:.1} us", *ns as f64 / 1e3 / decisions as f64))
            .collect::<Vec<_>>()
            .join(", "),
        total as f64 / 1e3 / decisions as f64,
        total as f64 / 1e9 / secs,
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    // 2. Low load: one table at a time.
    if a.low_load > 0 {
        p.recording.store(true, Ordering::Relaxed);
        let mut overhead = Vec::new();
        let mut round_trip = Vec::new();
        let mut think = Vec::new();
        for i in 0..a.low_load {
            let j = job("low", i, &names);
            referee_rt.block_on(play_table(&j, &opts, &hosts));
            let spans = std::mem::take(&mut *p.decisions.lock().unwrap());
            let mut thinks = p.think.lock().unwrap();
            for (index, ns) in spans {
                let Some(t) = thinks.remove(&(j.table_id.clone(), index)) else {
                    continue;
                };
                round_trip.push(ns);
                think.push(t);
                overhead.push(ns.saturating_sub(t));
            }
            thinks.clear();
        }
        p.recording.store(false, Ordering::Relaxed);
        overhead.sort_unstable();
        round_trip.sort_unstable();
        think.sort_unstable();
        println!(
            "low load: {} tables one at a time, {} remote decisions",
            a.low_load,
            overhead.len()
        );
        println!(
            "  one remote decision's overhead (referee's request -> answer, minus the bot's think time): p50 {:.3} ms, p99 {:.3} ms, p999 {:.3} ms",
            ms(&overhead, 0.5),
            ms(&overhead, 0.99),
            ms(&overhead, 0.999)
        );
        println!(
            "  (request -> answer p50 {:.3} ms, p99 {:.3} ms; think time p50 {:.4} ms, p99 {:.4} ms)",
            ms(&round_trip, 0.5),
            ms(&round_trip, 0.99),
            ms(&think, 0.5),
            ms(&think, 0.99)
        );
    }

    // 3. The whole referee on an embedded store.
    if a.store_tables > 0 {
        let n = a.store_tables;
        let remote =
            referee_rt.block_on(whole_referee(store.clone(), &seat_url, "store", n, &names));
        let local = referee_rt.block_on(whole_referee(
            store.clone(),
            &seat_url,
            "in-process",
            n,
            &["expert", "expert", "expert"],
        ));
        println!(
            "whole referee (job queue, embedded store, results and replays written): {n} tables each"
        );
        println!(
            "  remote bots: {remote:.0} tables/s; built-in expert bots in-process: {local:.0} tables/s"
        );
    }

    for stop in bot_stops {
        let _ = stop.send(());
    }
    let (mut bytes, mut requests, mut seats) = (0, 0, 0);
    for run in bot_runs {
        if let Ok(Ok(s)) = bots_rt.block_on(run) {
            bytes += s.request_bytes;
            requests += s.answered;
            seats += s.tables;
        }
    }
    println!(
        "decision requests as the bots received them ({} observations): {:.0} bytes per table, {:.0} per request ({requests} requests, {} tables)",
        if a.incremental { "incremental" } else { "full" },
        bytes as f64 / (seats as f64 / 3.0),
        bytes as f64 / requests.max(1) as f64,
        seats / 3
    );
    let _ = host_stop.send(());
    let _ = host_rt.block_on(host_task);
    bots_rt.shutdown_timeout(Duration::from_secs(2));
    referee_rt.shutdown_timeout(Duration::from_secs(1));
    let _ = std::fs::remove_dir_all(dir);
}
