//! Throughput of the service path on loopback:
//! `cargo run --release -p arena-example-remote-bot --example bench [TABLES]`.
//!
//! 1. Remote path: table-referee + bot-host + three remote bots over gRPC, every decision a round
//!    trip referee → bot-host → bot → bot-host → referee. Reports tables/s and, from the bots' side,
//!    the time from sending an answer to receiving the next request of the same table (p50/p99):
//!    one full round of the table, i.e. three decisions' overhead, since all three seats are remote.
//! 2. In-process path: the same referee with built-in bots (`expert` in every seat): tables/s.
//!
//! Both on an embedded store in a temporary directory.

use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_auth::token::issue_token;
use arena_bot_host::{BotHost, BotHostConfig};

/// The cluster token bot-host and the referees share in this test.
const CLUSTER_TOKEN: &str = "test-cluster-token";
use arena_proto::v1;
use arena_referee::RefereeConfig;
use arena_store::{BotKind, BotRecord, EmbeddedStore, Store};

fn job(competition: &str, i: u64, seats: &[&str]) -> v1::TableJob {
    v1::TableJob {
        table_id: format!("{competition}-{i}"),
        game: v1::Game::DouDizhu as i32,
        seats: seats
            .iter()
            .map(|b| v1::SeatSpec { bot: (*b).into() })
            .collect(),
        setup: Some(v1::table_job::Setup::Ddz(v1::DdzSetup {
            deal: ddz::Deal::generate(5, i).to_string(),
            rules: "competition".into(),
            landlord: Some(v1::ddz_setup::Landlord::FixedLandlord(0)),
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

async fn run(store: Arc<dyn Store>, host: &str, competition: &str, n: u64, seats: &[&str]) -> f64 {
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

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
}

#[tokio::main]
async fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let dir = std::env::temp_dir().join(format!("arena-bench-{}", std::process::id()));
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(&dir).unwrap());
    let names = ["b1", "b2", "b3"];
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
            })
            .await
            .unwrap();
        tokens.push(token);
    }
    let host = BotHost::bind(
        BotHostConfig {
            cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
            ..BotHostConfig::loopback()
        },
        store.clone(),
    )
    .await
    .unwrap();
    let url = format!("http://{}", host.local_addr());
    let seat_url = host.advertised().to_string();
    let (host_stop, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(host.run(async {
        let _ = rx.await;
    }));
    let mut bots = Vec::new();
    for (name, token) in names.iter().zip(tokens) {
        let (url, name) = (url.clone(), name.to_string());
        bots.push(tokio::spawn(async move {
            arena_example_remote_bot::play(&url, &name, &token, 256, n).await
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;

    let remote = run(store.clone(), &seat_url, "remote", n, &names).await;
    let mut turnaround = Vec::new();
    let mut answered = 0;
    for b in bots {
        let s = b.await.unwrap().unwrap();
        answered += s.answered;
        turnaround.extend(s.turnarounds_us);
    }
    turnaround.sort_unstable();
    let local = run(
        store.clone(),
        &url,
        "in-process",
        n,
        &["expert", "expert", "expert"],
    )
    .await;
    let _ = host_stop.send(());
    println!("remote path:     {n} tables, {remote:.1} tables/s, {answered} decisions");
    println!(
        "  answer → next request at the same table (one round of 3 remote decisions): p50 {:.2} ms, p99 {:.2} ms",
        percentile(&turnaround, 0.5),
        percentile(&turnaround, 0.99)
    );
    println!(
        "in-process path: {n} tables, {local:.1} tables/s (built-in expert bots in the referee)"
    );
    let _ = std::fs::remove_dir_all(dir);
}
