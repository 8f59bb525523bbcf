//! Dou Dizhu through the referee and through the whole stack, on loopback:
//! `cargo bench -p arena-integration --bench ddz_stack -- [TABLES] [PARTS]`.
//!
//! TABLES (default 2000) tables a run; PARTS (default `selfplay,embedded,redis,stack`) picks
//! which of these run:
//!
//! 1. `selfplay`: the same games as `arena ddz selfplay --games TABLES --bot expert` (deal `i` of
//!    seed 1, the competition rules with bidding and doubling, `expert` in every seat), played
//!    the way that command plays them: one thread, no store, no replay. The baseline.
//! 2. `embedded`: the same games as table jobs (built-in `expert` seats, the same deals, rules
//!    and seeds) through a table-referee on an embedded store in a temporary directory: taken
//!    from the job queue, played, result and replay written, acknowledged. Tables/s, and the
//!    ratio to the baseline.
//! 3. `redis`: the same through a referee on a private `redis-server` of the bench's own, with
//!    the Redis commands it took per table (`INFO commandstats`, scripts' inner commands
//!    included, and the client's round trips: the commands a client sent).
//! 4. `stack`: the full stack on that private Redis — the matchmaker (a `random` competition of
//!    three remote bots, about TABLES tables, created through its service) and its supervisor,
//!    a referee, bot-host and the three remote bots over gRPC — from creating the competition
//!    to its final standings: tables/s and Redis commands per table, per command.
//!
//! Two more parts, not in the default: `embedded-enqueue` and `redis-enqueue` build and enqueue
//! the jobs of `embedded` and `redis` and stop there. Under `valgrind --tool=callgrind` the
//! difference between a part and its `-enqueue` is the referee's own instructions.
//!
//! A private Redis, because the shared one counts every other test's commands too.
//!
//! What is compared: self-play runs on one thread, as `arena ddz selfplay` does; the referee
//! runs on the roles' runtime (`arena_serve::runtime`: as many workers as cores, plus tokio's
//! blocking pool for the embedded store's calls), with the referee's default settings, as
//! `arena standalone` runs it. The rates are each side's tables per second on this machine, the
//! comparison the target makes. Each line also gives the CPU time the process spent per table
//! (user + system, every thread), which does not depend on how many cores did the work: the
//! comparison per core. Run under `taskset -c 0` to pin the whole bench (self-play and referee
//! alike) to one core. (The Redis lines do not count the private `redis-server`'s CPU: it is
//! another process, sharing the machine's cores with the referee.)

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_games::ddz::play::{Buffers, play_game};
use arena_integration::{Backend, Cluster};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_referee::RefereeConfig;
use arena_store::{EmbeddedStore, RedisStore, Store};
use arena_testkit::redis_server::RedisServer;
use ddz::{Deal, GameConfig};
use ddz_bots::BotSpec;
use tonic::Request;

/// The seed of the deal stream, as `arena ddz selfplay`'s default.
const SEED: u64 = 1;

/// The seed `arena ddz selfplay` gives game `i`'s bots and redeals.
fn game_seed(i: u64) -> u64 {
    SEED ^ i.rotate_left(32)
}

/// The CPU time this process has used so far (user + system, every thread).
fn cpu_time() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0;
    assert!(ok, "getrusage failed");
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// A run's rate: tables (or games) per second of wall-clock time, and CPU time per table.
#[derive(Clone, Copy)]
struct Rate {
    per_sec: f64,
    cpu_per_table: Duration,
}

impl Rate {
    /// `n` done in `wall`, the process having used `cpu` meanwhile.
    fn of(n: u64, wall: Duration, cpu: Duration) -> Rate {
        Rate {
            per_sec: n as f64 / wall.as_secs_f64(),
            cpu_per_table: cpu / n.max(1) as u32,
        }
    }
}

/// `arena ddz selfplay --games n --bot expert`'s loop: games per second.
fn selfplay(n: u64) -> Rate {
    let bot = || {
        "expert"
            .parse::<BotSpec>()
            .ok()
            .and_then(|s| s.build_builtin())
            .expect("the built-in expert bot")
    };
    let (mut b0, mut b1, mut b2) = (bot(), bot(), bot());
    let mut bots: [&mut dyn ddz_bots::Bot; 3] = [&mut *b0, &mut *b1, &mut *b2];
    let mut buffers = Buffers::new();
    let cpu = cpu_time();
    let start = Instant::now();
    for i in 0..n {
        let game = play_game(
            GameConfig::competition(),
            Deal::generate(SEED, i),
            game_seed(i),
            &mut bots,
            &mut buffers,
        )
        .expect("a game");
        assert!(game.outcome().is_some(), "game {i} did not finish");
    }
    Rate::of(n, start.elapsed(), cpu_time() - cpu)
}

/// Game `i` of the baseline as a table job of `competition`: the same deal, rules and seed.
fn job(competition: &str, i: u64) -> v1::TableJob {
    v1::TableJob {
        table_id: format!("{competition}/{i}"),
        game: "ddz".into(),
        seats: (0..3)
            .map(|_| v1::SeatSpec {
                bot: "expert".into(),
            })
            .collect(),
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            deal: Deal::generate(SEED, i).to_string(),
            rules: "competition".into(),
            landlord: Some(ddz_pb::setup::Landlord::FirstBidder(0)),
            doubling: true,
            scoring: "competition".into(),
            ..Default::default()
        })),
        time: Some(v1::TimeControl {
            decision_ms: 5000,
            hard_cap_ms: 20_000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: game_seed(i),
        competition: competition.into(),
        ..Default::default()
    }
}

/// Builds `n` jobs of `competition` and puts them on `store`'s queue, in batches as the
/// matchmaker enqueues a competition's tables.
async fn enqueue(store: &dyn Store, competition: &str, n: u64) {
    let jobs: Vec<(String, Vec<u8>)> = (0..n)
        .map(|i| {
            let j = job(competition, i);
            (j.table_id.clone(), arena_table::queue::encode_table_job(&j))
        })
        .collect();
    for chunk in jobs.chunks(500) {
        let batch: Vec<(&str, &[u8])> = chunk
            .iter()
            .map(|(t, p)| (t.as_str(), p.as_slice()))
            .collect();
        store.enqueue_jobs(&batch).await.expect("enqueued");
    }
}

/// Plays `n` jobs through one referee on `store` (enqueued first, so the queue is never what it
/// waits for): tables per second from the first job taken to the last result written.
async fn referee(store: Arc<dyn Store>, competition: &str, n: u64) -> Rate {
    enqueue(&*store, competition, n).await;
    let cfg = RefereeConfig {
        referee_id: format!("bench-{competition}"),
        poll_interval: Duration::from_millis(20),
        ..RefereeConfig::default()
    };
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let cpu = cpu_time();
    let start = Instant::now();
    let s = store.clone();
    let task = tokio::spawn(async move {
        arena_referee::work(cfg, s, async {
            let _ = rx.await;
        })
        .await
    });
    // The queue is empty once every job is acknowledged, which is after its result is written.
    // Looked at rarely while much is left (the looks cost the process CPU it would otherwise
    // count against the referee), then every millisecond.
    loop {
        let c = store.job_counts().await.expect("job counts");
        let left = c.waiting + c.pending;
        if left == 0 {
            break;
        }
        let wait = if left > 2000 { 20 } else { 1 };
        tokio::time::sleep(Duration::from_millis(wait)).await;
    }
    let rate = Rate::of(n, start.elapsed(), cpu_time() - cpu);
    let _ = stop.send(());
    task.await.expect("the referee").expect("the referee ran");
    let written = store.results_for(competition).await.expect("results").len() as u64;
    assert_eq!(written, n, "every table has its result");
    rate
}

/// Runs `cmd` on the private Redis at `url`, on a connection of its own.
async fn query<T: redis::FromRedisValue>(url: &str, cmd: &redis::Cmd) -> T {
    let client = redis::Client::open(url).expect("the Redis URL");
    let mut conn = client
        .get_multiplexed_async_connection()
        .await
        .expect("the private Redis");
    cmd.query_async(&mut conn).await.expect("a Redis command")
}

/// A section of `INFO`.
async fn info(url: &str, section: &str) -> String {
    query(url, redis::cmd("INFO").arg(section)).await
}

/// Redis's per-command call counts (`INFO commandstats`), by command name.
async fn commandstats(url: &str) -> BTreeMap<String, u64> {
    info(url, "commandstats")
        .await
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("cmdstat_")?;
            let (name, stats) = rest.split_once(':')?;
            let calls = stats.split(',').find_map(|kv| kv.strip_prefix("calls="))?;
            Some((name.to_string(), calls.parse().ok()?))
        })
        .collect()
}

/// The CPU time `redis-server` has used so far (`INFO cpu`: user + system, all its threads).
async fn redis_cpu(url: &str) -> Duration {
    let seconds: f64 = info(url, "cpu")
        .await
        .lines()
        .filter_map(|line| {
            let (key, value) = line.trim().split_once(':')?;
            if key == "used_cpu_user" || key == "used_cpu_sys" {
                value.parse::<f64>().ok()
            } else {
                None
            }
        })
        .sum();
    Duration::from_secs_f64(seconds)
}

/// Zeroes Redis's command counts (`CONFIG RESETSTAT`).
async fn reset_stats(url: &str) {
    query::<()>(url, redis::cmd("CONFIG").arg("RESETSTAT")).await;
}

/// Prints what Redis did per table since the last reset: commands executed (scripts' inner ones
/// included), an upper bound of the commands clients sent (round trips: see [`sent`]), the CPU
/// `redis-server` used since `cpu_before`, and each command's count.
async fn report_ops(url: &str, tables: u64, label: &str, cpu_before: Duration) {
    let cpu = redis_cpu(url).await.saturating_sub(cpu_before);
    let stats: BTreeMap<String, u64> = commandstats(url)
        .await
        .into_iter()
        .filter(|(c, _)| c != "info" && c != "config")
        .collect();
    let per = |n: u64| n as f64 / tables as f64;
    let total: u64 = stats.values().sum();
    let sent = sent(&stats);
    println!(
        "    Redis per table ({label}): {:.2} commands executed, at most {:.2} sent, {:.1} us of redis-server CPU",
        per(total),
        per(sent),
        cpu.as_secs_f64() * 1e6 / tables.max(1) as f64
    );
    let mut by_count: Vec<(&String, &u64)> = stats.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1));
    let line: Vec<String> = by_count
        .iter()
        .map(|(c, n)| format!("{c} {:.2}", per(**n)))
        .collect();
    println!("      {}", line.join(", "));
}

/// Of `stats`, the commands clients may have sent: every script call, and every command arena
/// ever sends outside a script, in full (some of them, `hget` or `xreadgroup`, are also called
/// inside scripts, which the counts do not tell apart), so it errs high, never low. Commands
/// arena only ever calls inside its scripts are left out.
fn sent(stats: &BTreeMap<String, u64>) -> u64 {
    const ONLY_IN_SCRIPTS: [&str; 12] = [
        "xpending",
        "xclaim",
        "xadd",
        "xdel",
        "mset",
        "sadd",
        "srem",
        "setbit",
        "zadd",
        "zremrangebyscore",
        "pexpireat",
        "time",
    ];
    stats
        .iter()
        .filter(|(c, _)| !ONLY_IN_SCRIPTS.contains(&c.as_str()))
        .map(|(_, n)| n)
        .sum()
}

/// A `random` competition of three remote bots over the whole stack: tables/s.
async fn stack(url: &str, tables: u64) -> (f64, u64) {
    let bots = ["north", "east", "west"];
    let cluster = Cluster::on(Backend::Redis, "ddzbench")
        .redis_url(url)
        .referee_config(|c| c.max_tables = 64)
        .referees(&["r1"])
        .supervisor(Duration::from_millis(100))
        .remote_bots(&bots)
        .start()
        .await;
    // A random competition of three players has 6 tables per (match, round): each player is
    // landlord once and holds both farmer seats once.
    let rounds = tables.div_ceil(6).max(1) as u32;
    let name = format!("{}-stack", cluster.prefix());
    let spec = v1::CompetitionSpec {
        name: name.clone(),
        format: "random".into(),
        participants: bots.map(String::from).to_vec(),
        matches: 1,
        rounds,
        seed: 7,
        time: Some(v1::TimeControl {
            decision_ms: 5000,
            hard_cap_ms: 20_000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        ..Default::default()
    };
    reset_stats(url).await;
    let start = Instant::now();
    let created = cluster
        .matchmaker
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(spec),
        }))
        .await
        .expect("the competition")
        .into_inner();
    let st = cluster.final_standings(&name).await;
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(st.tables_done, created.tables_total);
    let n = st.tables_done;
    cluster.shutdown().await;
    (n as f64 / secs, n)
}

/// The allocator of the `arena` binary, whose `arena ddz selfplay` is the baseline and whose
/// referee is what is compared with it.
#[global_allocator]
static ALLOCATOR: arena_serve::allocator::Allocator = arena_serve::allocator::Allocator;

/// On the roles' runtime, as `arena standalone` runs its referee.
fn main() {
    arena_serve::runtime::serving()
        .expect("the runtime")
        .block_on(bench());
}

async fn bench() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let n: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(2000);
    let parts = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "selfplay,embedded,redis,stack".into());
    let wants = |p: &str| parts.split(',').any(|x| x == p);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("Dou Dizhu, {n} tables a run, {cores} cores:");

    let base = wants("selfplay").then(|| {
        let r = selfplay(n);
        println!(
            "  arena ddz selfplay --games {n} --bot expert (one thread):      {:>8.1} games/s, {:>6.1} us CPU a game",
            r.per_sec,
            r.cpu_per_table.as_secs_f64() * 1e6
        );
        r
    });
    let ratio = |r: Rate| {
        let cpu = r.cpu_per_table.as_secs_f64() * 1e6;
        match base {
            Some(b) => format!(
                ", {cpu:>6.1} us CPU a table ({:.2}x self-play's wall rate, {:.2}x its CPU a game)",
                b.per_sec / r.per_sec,
                r.cpu_per_table.as_secs_f64() / b.cpu_per_table.as_secs_f64()
            ),
            None => format!(", {cpu:>6.1} us CPU a table"),
        }
    };
    if wants("embedded") {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store: Arc<dyn Store> =
            Arc::new(EmbeddedStore::open(dir.path()).expect("an embedded store"));
        let r = referee(store, "embedded", n).await;
        println!(
            "  referee, built-in experts, embedded store:                  {:>8.1} tables/s{}",
            r.per_sec,
            ratio(r)
        );
    }
    if wants("embedded-enqueue") {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = EmbeddedStore::open(dir.path()).expect("an embedded store");
        enqueue(&store, "embedded", n).await;
        println!("  the embedded part's jobs built and enqueued, no referee");
    }
    let redis =
        (wants("redis") || wants("stack") || wants("redis-enqueue")).then(RedisServer::start);
    if let Some(server) = redis.as_ref().filter(|_| wants("redis-enqueue")) {
        let store = RedisStore::connect(&server.url(), "bench")
            .await
            .expect("the private Redis");
        enqueue(&store, "redis", n).await;
        println!("  the Redis part's jobs built and enqueued, no referee");
    }
    if let Some(server) = redis.as_ref().filter(|_| wants("redis")) {
        let url = server.url();
        let store: Arc<dyn Store> = Arc::new(
            RedisStore::connect(&url, "bench")
                .await
                .expect("the private Redis"),
        );
        reset_stats(&url).await;
        let cpu = redis_cpu(&url).await;
        let r = referee(store, "redis", n).await;
        println!(
            "  referee, built-in experts, Redis store:                     {:>8.1} tables/s{}",
            r.per_sec,
            ratio(r)
        );
        report_ops(&url, n, "enqueue, referee, and the bench's polls", cpu).await;
    }
    if let Some(server) = redis.as_ref().filter(|_| wants("stack")) {
        let url = server.url();
        let cpu = redis_cpu(&url).await;
        let (tps, tables) = stack(&url, n).await;
        println!(
            "  full stack on Redis, three remote bots, {tables} tables:       {tps:>8.1} tables/s"
        );
        report_ops(
            &url,
            tables,
            "matchmaker, supervisor, referee, bot-host",
            cpu,
        )
        .await;
    }
}
