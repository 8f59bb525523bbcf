//! The continuous ranked ladder with remote bots over gRPC: two matchmaker replicas pair the
//! connected bots (and a built-in anchor) into duplicate pairs, one of them dies, a bot comes back
//! with a new release, and every pair is rated exactly once into a per-release leaderboard.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_example_remote_bot::Options;
use arena_integration::{Backend, Cluster};
use arena_matchmaker::ladder::{self, LadderConfig};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::Store;
use tonic::Request;

/// A bot that plays a legal move chosen by a hash of the request: as good as random.
fn erratic(req: &v1::DecisionRequest, obs: &ddz_pb::Observation) -> ddz_pb::Action {
    use ddz_pb::action::Action;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (&req.table_id, req.request_id, req.seat).hash(&mut h);
    let legal = &obs.legal;
    let action = match req.kind() {
        v1::DecisionKind::Bid => Action::Bid(0),
        v1::DecisionKind::Double | v1::DecisionKind::Redouble => Action::Double(false),
        _ if legal.is_empty() => Action::Play("pass".into()),
        _ => Action::Play(legal[(h.finish() % legal.len() as u64) as usize].clone()),
    };
    ddz_pb::Action {
        action: Some(action),
    }
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
    let (s, _) = ladder::load(store, arena_games::ddz::GAME).await.unwrap();
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

async fn ladder_runs_pairs_once_per_release(backend: Backend) {
    let steady = Options {
        release: "1.0".into(),
        ..Options::default()
    };
    let erratic_01 = Options {
        release: "0.1".into(),
        choose: erratic,
        ..Options::default()
    };
    let mut cluster = Cluster::on(backend, "ladder")
        .referees(&["ladder"])
        .remote_bot("steady", steady)
        .remote_bot("erratic", erratic_01)
        .start()
        .await;
    let store = cluster.store.clone();
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
    cluster.disconnect_bot("erratic").await;
    cluster
        .connect_bot(
            "erratic",
            Options {
                release: "0.2".into(),
                choose: erratic,
                ..Options::default()
            },
        )
        .await;
    let start = Instant::now();
    loop {
        let (s, _) = ladder::load(&*store, arena_games::ddz::GAME).await.unwrap();
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
    cluster.drained().await;
    ladder::pass(&*store, &cfg).await.unwrap();

    let (state, _) = ladder::load(&*store, arena_games::ddz::GAME).await.unwrap();
    let rated = state.next_pair - state.pending.len() as u64 - state.discarded;
    assert_eq!(state.discarded, 0, "no table failed");
    let board = state.ratings.leaderboard();
    let games: u64 = board.iter().map(|(_, r)| r.games).sum();
    assert_eq!(
        games,
        2 * rated,
        "every rated pair counted once for both sides: {board:?}"
    );
    let results = store
        .results_for(ladder::competition(arena_games::ddz::GAME))
        .await
        .unwrap();
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
    let [ta, tb]: [String; 2] = state.recent[0]
        .pair
        .table_ids(arena_games::ddz::GAME)
        .try_into()
        .unwrap();
    let deal_of = |bytes: Vec<u8>| {
        let replay = <v1::Replay as prost::Message>::decode(bytes.as_slice()).unwrap();
        let setup: ddz_pb::Setup =
            arena_proto::payload::unpack(replay.job.unwrap().setup.as_ref(), "setup")
                .expect("a Dou Dizhu ladder table");
        setup.deal
    };
    assert_eq!(
        deal_of(store.replay(&ta).await.unwrap().unwrap()),
        deal_of(store.replay(&tb).await.unwrap().unwrap())
    );

    eprintln!("{rated} pairs rated; leaderboard {board:#?}");
    // Per-release entries, the strong anchor on top, over gRPC.
    let svc = &cluster.matchmaker;
    let lb = svc
        .get_leaderboard(Request::new(v1::LeaderboardRequest {
            limit: 0,
            ..Default::default()
        }))
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
        .get_leaderboard(Request::new(v1::LeaderboardRequest {
            limit: 2,
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(top.ratings.len(), 2);

    cluster.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_rates_every_pair_once_per_release_on_the_embedded_store() {
    ladder_runs_pairs_once_per_release(Backend::Embedded).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_rates_every_pair_once_per_release_on_redis() {
    ladder_runs_pairs_once_per_release(Backend::Redis).await;
}
