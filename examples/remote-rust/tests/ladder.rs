//! The continuous ranked ladder with remote bots over gRPC: two matchmaker replicas pair the
//! connected bots (and a built-in anchor) into duplicate pairs, one of them dies, a bot comes back
//! with a new release, and every pair is rated exactly once into a per-release leaderboard.

mod common;

use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_auth::token::issue_token;
use arena_bot_host::{BotHost, BotHostConfig};

/// The cluster token bot-host and the referees share in this test.
const CLUSTER_TOKEN: &str = "test-cluster-token";
use arena_example_remote_bot::{Options, play_with};
use arena_matchmaker::ladder::{self, LadderConfig};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::{BotKind, BotRecord, EmbeddedStore, RedisStore, Store};
use common::redis::{REDIS, cleanup, prefix};
use tonic::Request;

/// A bot that plays a legal move chosen by a hash of the request: as good as random.
fn erratic(req: &v1::DecisionRequest) -> v1::DdzAction {
    use v1::ddz_action::Action;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (&req.table_id, req.request_id, req.seat).hash(&mut h);
    let legal = match &req.observation {
        Some(v1::Observation {
            game: Some(v1::observation::Game::Ddz(o)),
        }) => o.legal.clone(),
        _ => Vec::new(),
    };
    let action = match req.kind() {
        v1::DecisionKind::Bid => Action::Bid(0),
        v1::DecisionKind::Double | v1::DecisionKind::Redouble => Action::Double(false),
        _ if legal.is_empty() => Action::Play("pass".into()),
        _ => Action::Play(legal[(h.finish() % legal.len() as u64) as usize].clone()),
    };
    v1::DdzAction {
        action: Some(action),
    }
}

struct Bot {
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<()>,
}

fn connect(url: &str, name: &'static str, token: &str, options: Options) -> Bot {
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let (url, token) = (url.to_string(), token.to_string());
    // Reconnects as a real bot would: bot-host refuses a second connection of a bot until it has
    // noticed that the previous one is gone.
    let task = tokio::spawn(async move {
        let play = async {
            loop {
                let _ = play_with(&url, name, &token, &options).await;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        tokio::select! {
            () = play => {}
            _ = rx => {}
        }
    });
    Bot { stop, task }
}

fn replica(
    store: Arc<dyn Store>,
    cfg: LadderConfig,
) -> (
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<()>,
) {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let h = tokio::spawn(ladder::run(store, cfg, async {
        let _ = rx.await;
    }));
    (tx, h)
}

async fn rated(store: &dyn Store) -> u64 {
    let (s, _) = ladder::load(store).await.unwrap();
    s.next_pair - s.pending.len() as u64 - s.discarded
}

async fn wait_rated(store: &dyn Store, at_least: u64, what: &str) {
    let start = Instant::now();
    while rated(store).await < at_least {
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "{what}: only {} pairs rated",
            rated(store).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn ladder_runs_pairs_once_per_release(store: Arc<dyn Store>) {
    let mut tokens = Vec::new();
    for name in ["steady", "erratic"] {
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
    let (stop_host, rx) = tokio::sync::oneshot::channel::<()>();
    let host = tokio::spawn(host.run(async {
        let _ = rx.await;
    }));
    let (stop_ref, rx) = tokio::sync::oneshot::channel::<()>();
    let referee = tokio::spawn(arena_referee::work(
        arena_referee::RefereeConfig {
            referee_id: "ladder".into(),
            cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
            bot_hosts: vec![seat_url.clone()],
            poll_interval: Duration::from_millis(10),
            ..Default::default()
        },
        store.clone(),
        async {
            let _ = rx.await;
        },
    ));
    let steady = connect(
        &url,
        "steady",
        &tokens[0],
        Options {
            release: "1.0".into(),
            ..Options::default()
        },
    );
    let erratic_01 = connect(
        &url,
        "erratic",
        &tokens[1],
        Options {
            release: "0.1".into(),
            choose: erratic,
            ..Options::default()
        },
    );
    let cfg = LadderConfig {
        every: Duration::from_millis(20),
        anchors: vec!["expert".into()],
        seed: 5,
        ..LadderConfig::default()
    };

    // Two matchmaker replicas run the ladder at once; one of them dies.
    let (stop_a, a) = replica(store.clone(), cfg.clone());
    let (stop_b, b) = replica(store.clone(), cfg.clone());
    wait_rated(&*store, 25, "two replicas").await;
    let _ = stop_a.send(());
    a.await.unwrap();

    // The erratic bot comes back as a new release.
    let _ = erratic_01.stop.send(());
    erratic_01.task.await.unwrap();
    let erratic_02 = connect(
        &url,
        "erratic",
        &tokens[1],
        Options {
            release: "0.2".into(),
            choose: erratic,
            ..Options::default()
        },
    );
    let start = Instant::now();
    loop {
        let (s, _) = ladder::load(&*store).await.unwrap();
        if s.ratings.get("erratic@0.2").games >= 15 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "the new release is not being played: {:?}; pending {:?}; erratic at {:?}",
            s.ratings.leaderboard(),
            s.pending,
            store.presence("erratic").await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = stop_b.send(());
    b.await.unwrap();
    // Let the tables in flight finish, then rate them with one last pass of a fresh replica
    // (which also pairs the waiting bots again; those pairs stay pending).
    tokio::time::sleep(Duration::from_millis(500)).await;
    ladder::pass(&*store, &cfg).await.unwrap();

    let (state, _) = ladder::load(&*store).await.unwrap();
    let rated = state.next_pair - state.pending.len() as u64 - state.discarded;
    assert_eq!(state.discarded, 0, "no table failed");
    let board = state.ratings.leaderboard();
    let games: u64 = board.iter().map(|(_, r)| r.games).sum();
    assert_eq!(
        games,
        2 * rated,
        "every rated pair counted once for both sides: {board:?}"
    );
    let results = store.results_for(ladder::LADDER_COMPETITION).await.unwrap();
    assert!(
        results.len() as u64 >= 2 * rated,
        "{} results",
        results.len()
    );
    for r in &state.recent {
        assert_ne!(r.pair.a, r.pair.b);
        assert!(
            !(r.pair.a == "expert" && r.pair.b == "expert"),
            "anchors never meet"
        );
    }
    // Both sides of a pair get the same cards: the landlord's hand at both tables is the deal's.
    let [ta, tb] = state.recent[0].pair.table_ids();
    let deal_of = |bytes: Vec<u8>| {
        let replay = <v1::Replay as prost::Message>::decode(bytes.as_slice()).unwrap();
        match replay.job.unwrap().setup.unwrap() {
            v1::table_job::Setup::Ddz(d) => d.deal,
        }
    };
    assert_eq!(
        deal_of(store.replay(&ta).await.unwrap().unwrap()),
        deal_of(store.replay(&tb).await.unwrap().unwrap())
    );

    eprintln!("{rated} pairs rated; leaderboard {board:#?}");
    // Per-release entries, the strong anchor on top, over gRPC.
    let svc = arena_matchmaker::MatchmakerService::new(store.clone());
    let lb = svc
        .get_leaderboard(Request::new(v1::LeaderboardRequest { limit: 0 }))
        .await
        .unwrap()
        .into_inner();
    let keys: Vec<String> = lb
        .ratings
        .iter()
        .map(|r| format!("{}@{}", r.bot, r.release))
        .collect();
    for k in ["expert@builtin", "steady@1.0", "erratic@0.1", "erratic@0.2"] {
        assert!(keys.contains(&k.to_string()), "{k} missing from {keys:?}");
    }
    assert_eq!(keys[0], "expert@builtin", "{lb:?}");
    let pos = |k: &str| keys.iter().position(|x| x == k).unwrap();
    assert!(pos("steady@1.0") < pos("erratic@0.1"), "{lb:?}");
    for w in lb.ratings.windows(2) {
        assert!(w[0].conservative >= w[1].conservative, "{lb:?}");
    }
    for r in &lb.ratings {
        assert!((r.conservative - (r.mu - 3.0 * r.sigma)).abs() < 1e-9);
    }
    let top = svc
        .get_leaderboard(Request::new(v1::LeaderboardRequest { limit: 2 }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(top.ratings.len(), 2);

    for bot in [steady, erratic_02] {
        let _ = bot.stop.send(());
        let _ = bot.task.await;
    }
    let _ = stop_ref.send(());
    let _ = referee.await;
    let _ = stop_host.send(());
    let _ = host.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_rates_every_pair_once_per_release_on_the_embedded_store() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    ladder_runs_pairs_once_per_release(store).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_rates_every_pair_once_per_release_on_redis() {
    let prefix = prefix("ladder");
    let store: Arc<dyn Store> = Arc::new(RedisStore::connect(REDIS, &prefix).await.unwrap());
    ladder_runs_pairs_once_per_release(store).await;
    cleanup(&prefix).await;
}
