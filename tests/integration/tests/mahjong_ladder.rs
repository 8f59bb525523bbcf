//! The Mahjong ladder: four bots (three built-in ones and a remote bot behind a fake bot-host
//! that faults at its first decision of every hand, so its seat plays on automatically) are
//! grouped into duplicate sets of four tables on one wall, by two matchmaker replicas at once;
//! every set is rated once, with Weng-Lin's multi-team update, per release, in a state of its
//! own beside the Dou Dizhu ladder's.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use arena_integration::cluster::PATIENCE;
use arena_integration::{Backend, Cluster};
use arena_matchmaker::ladder::{self, LadderConfig};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::Store;
use arena_testkit::fake_host::FakeHost;
use prost::Message;
use tonic::Request;

const BOTS: [&str; 4] = ["random", "greedy", "expert", "legal"];

fn bots() -> Vec<String> {
    BOTS.map(String::from).to_vec()
}

async fn rated(store: &dyn Store) -> u64 {
    let (s, _) = ladder::load(store, arena_games::mahjong::GAME)
        .await
        .unwrap();
    s.next_pair - s.pending.len() as u64 - s.discarded
}

async fn result(store: &dyn Store, id: &str) -> v1::TableResult {
    v1::TableResult::decode(store.result(id).await.unwrap().unwrap().as_slice()).unwrap()
}

async fn mahjong_ladder_rates_every_set_once(backend: Backend) {
    let (_host, addr) = FakeHost::start().await;
    let mut cluster = Cluster::on(backend, "mjladder")
        .referee_config(move |c| c.bot_hosts = vec![addr.to_string()])
        .referees(&["r1"])
        .start()
        .await;
    cluster.register_bot("legal").await;
    let store = cluster.store.clone();
    let cfg = LadderConfig {
        game: arena_games::mahjong::GAME,
        every: Duration::from_millis(20),
        seed: 7,
        ..LadderConfig::default()
    };

    // One set from equal ratings: its bots' ratings move in the order of their set scores.
    let first = ladder::pass_among(&*store, &cfg, &bots()).await.unwrap();
    assert_eq!(
        (first.created, first.enqueued),
        (1, 1),
        "four bots make one set"
    );
    let start = Instant::now();
    while rated(&*store).await < 1 {
        assert!(start.elapsed() < PATIENCE, "the first set is not rated");
        tokio::time::sleep(Duration::from_millis(50)).await;
        ladder::pass_among(&*store, &cfg, &[]).await.unwrap();
    }
    let (state, _) = ladder::load(&*store, arena_games::mahjong::GAME)
        .await
        .unwrap();
    let set = &state.recent[0];
    let keys = set.keys();
    let mut want_keys: Vec<String> = set
        .pair
        .bots()
        .iter()
        .map(|b| match *b {
            "legal" => "legal@test".to_string(),
            other => format!("{other}@builtin"),
        })
        .collect();
    assert_eq!(keys, want_keys, "releases as the seats reported them");
    // Each bot's set score is its final scores over the four rotations.
    let ids = set.pair.table_ids(arena_games::mahjong::GAME);
    let mut by_bot: BTreeMap<String, f64> = BTreeMap::new();
    let mut walls = BTreeSet::new();
    let mut seats_of: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for id in &ids {
        let r = result(&*store, id).await;
        assert!(r.error.is_empty(), "{id}: {}", r.error);
        let replay =
            v1::Replay::decode(store.replay(id).await.unwrap().unwrap().as_slice()).unwrap();
        let job = replay.job.unwrap();
        walls.insert(format!("{:?}", job.setup));
        for (seat, s) in job.seats.iter().enumerate() {
            *by_bot.entry(s.bot.clone()).or_default() += r.final_scores[seat] as f64;
            seats_of.entry(s.bot.clone()).or_default().insert(seat);
        }
    }
    assert_eq!(walls.len(), 1, "one wall at the set's four tables");
    assert!(seats_of.values().all(|s| s.len() == 4), "{seats_of:?}");
    for (bot, score) in set.pair.bots().iter().zip(&set.scores) {
        assert_eq!(by_bot[*bot], *score, "{bot}");
    }
    let mu = |k: &str| state.ratings.get(k).mu;
    for i in 0..4 {
        for j in 0..4 {
            if set.scores[i] > set.scores[j] {
                assert!(mu(&keys[i]) > mu(&keys[j]), "{keys:?} {:?}", set.scores);
            }
        }
    }

    // Two replicas at once, one of them stopped halfway.
    let replica = |cfg: LadderConfig| {
        let store = store.clone();
        let (tx, mut rx) = tokio::sync::oneshot::channel::<()>();
        let h = tokio::spawn(async move {
            loop {
                ladder::pass_among(&*store, &cfg, &bots()).await.unwrap();
                tokio::select! {
                    _ = &mut rx => return,
                    () = tokio::time::sleep(cfg.every) => {}
                }
            }
        });
        (tx, h)
    };
    let (stop_a, a) = replica(cfg.clone());
    let (stop_b, b) = replica(cfg.clone());
    let start = Instant::now();
    while rated(&*store).await < 4 {
        assert!(
            start.elapsed() < PATIENCE,
            "{} sets rated",
            rated(&*store).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = stop_a.send(());
    a.await.unwrap();
    while rated(&*store).await < 7 {
        assert!(
            start.elapsed() < PATIENCE,
            "{} sets rated",
            rated(&*store).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = stop_b.send(());
    b.await.unwrap();
    cluster.drained().await;
    ladder::pass_among(&*store, &cfg, &[]).await.unwrap();

    let (state, _) = ladder::load(&*store, arena_games::mahjong::GAME)
        .await
        .unwrap();
    let rated = state.next_pair - state.pending.len() as u64 - state.discarded;
    assert!(
        state.pending.is_empty(),
        "every set finished: {:?}",
        state.pending
    );
    assert_eq!(state.discarded, 0, "no table failed");
    let board = state.ratings.leaderboard();
    let games: u64 = board.iter().map(|(_, r)| r.games).sum();
    assert_eq!(
        games,
        4 * rated,
        "every set counted once for each of its bots: {board:?}"
    );
    assert!(board.iter().all(|(_, r)| r.games == rated), "{board:?}");
    // Each release's rating history: a point per set it played, whichever replica rated it,
    // ending at its rating.
    for (key, r) in &board {
        use arena_ratings::history::{HISTORY_KIND, Point, history_key};
        let bytes = store
            .record(HISTORY_KIND, &history_key("mahjong", key))
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("{key} has a history"));
        let points: Vec<Point> = serde_json::from_slice(&bytes).unwrap();
        let games: Vec<u64> = points.iter().map(|p| p.games).collect();
        assert_eq!(games, (1..=rated).collect::<Vec<_>>(), "{key}");
        let last = points.last().unwrap();
        assert_eq!((last.mu, last.sigma), (r.mu, r.sigma), "{key}");
    }
    let results = store
        .results_for(ladder::competition(arena_games::mahjong::GAME))
        .await
        .unwrap();
    assert_eq!(results.len() as u64, 4 * rated);

    // Over gRPC: the Mahjong leaderboard has the four releases; the Dou Dizhu one none.
    let board = |game: &str| {
        cluster
            .matchmaker
            .get_leaderboard(Request::new(v1::LeaderboardRequest {
                limit: 0,
                game: game.into(),
                page_token: String::new(),
            }))
    };
    let mj = board("mahjong").await.unwrap().into_inner();
    let mut got: Vec<String> = mj
        .ratings
        .iter()
        .map(|r| format!("{}@{}", r.bot, r.release))
        .collect();
    got.sort();
    want_keys.sort();
    assert_eq!(got, want_keys);
    assert_eq!(mj.game, "mahjong");
    for w in mj.ratings.windows(2) {
        assert!(w[0].conservative >= w[1].conservative, "{mj:?}");
    }
    eprintln!("{rated} Mahjong sets rated; leaderboard {:#?}", mj.ratings);
    assert!(board("ddz").await.unwrap().into_inner().ratings.is_empty());
    cluster.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mahjong_ladder_rates_every_set_once_on_the_embedded_store() {
    mahjong_ladder_rates_every_set_once(Backend::Embedded).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mahjong_ladder_rates_every_set_once_on_redis() {
    mahjong_ladder_rates_every_set_once(Backend::Redis).await;
}

/// Runs passes of `cfg`'s ladder until a group of it has been rated; that group's record.
async fn first_rated(store: &dyn Store, cfg: &LadderConfig) -> ladder::Pair {
    let start = Instant::now();
    loop {
        ladder::pass(store, cfg).await.unwrap();
        let (state, _) = ladder::load(store, cfg.game).await.unwrap();
        if let Some(done) = state.recent.first() {
            return done.pair.clone();
        }
        assert!(start.elapsed() < PATIENCE, "no {:?} group rated", cfg.game);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Remote bots are laddered at the games their `Hello` listed: a remote Mahjong bot (the Rust
/// example's Mahjong player, which lists Mahjong only) plays Mahjong sets beside built-in
/// anchors, answering its seats itself, and is rated; a Dou Dizhu bot (the Rust example's Dou
/// Dizhu player, which lists no game) is in no Mahjong set, and the Mahjong bot in no Dou Dizhu
/// pair.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_bots_are_laddered_at_the_games_their_hello_listed() {
    let cluster = Cluster::on(Backend::Embedded, "mjremote")
        .referees(&["r1"])
        .mahjong_bots(&["tiles"])
        .remote_bots(&["cards"])
        .start()
        .await;
    let store = cluster.store.clone();
    let mahjong = LadderConfig {
        game: arena_games::mahjong::GAME,
        anchors: ["random", "greedy", "expert"].map(String::from).to_vec(),
        seed: 3,
        ..LadderConfig::default()
    };
    let ddz = LadderConfig {
        game: arena_games::ddz::GAME,
        anchors: vec!["expert".into()],
        seed: 3,
        ..LadderConfig::default()
    };
    assert_eq!(
        ladder::available(&*store, &mahjong).await.unwrap(),
        ["expert", "greedy", "random", "tiles"]
    );
    assert_eq!(
        ladder::available(&*store, &ddz).await.unwrap(),
        ["cards", "expert"]
    );

    let set = first_rated(&*store, &mahjong).await;
    let mut bots = set.bots();
    bots.sort();
    assert_eq!(bots, ["expert", "greedy", "random", "tiles"]);
    for id in set.table_ids(arena_games::mahjong::GAME) {
        let r = result(&*store, &id).await;
        assert!(r.error.is_empty(), "{id}: {}", r.error);
        assert!(r.verdicts.is_empty(), "{id}: {:?}", r.verdicts);
        let replay =
            v1::Replay::decode(store.replay(&id).await.unwrap().unwrap().as_slice()).unwrap();
        let seat = replay
            .job
            .as_ref()
            .unwrap()
            .seats
            .iter()
            .position(|s| s.bot == "tiles");
        let seat = seat.expect("the remote bot sits at every table of its set") as u32;
        let own: Vec<&v1::ReplayStep> = replay.steps.iter().filter(|s| s.seat == seat).collect();
        assert!(!own.is_empty() && own.iter().all(|s| !s.automatic), "{id}");
    }
    let pair = first_rated(&*store, &ddz).await;
    let mut bots = pair.bots();
    bots.sort();
    assert_eq!(bots, ["cards", "expert"]);

    // Each game's leaderboard has the remote bot of that game, and not the other.
    let board = |game: &str| {
        cluster
            .matchmaker
            .get_leaderboard(Request::new(v1::LeaderboardRequest {
                limit: 0,
                game: game.into(),
                page_token: String::new(),
            }))
    };
    let names = |b: v1::Leaderboard| -> Vec<String> {
        let mut n: Vec<String> = b.ratings.into_iter().map(|r| r.bot).collect();
        n.sort();
        n
    };
    assert_eq!(
        names(board("mahjong").await.unwrap().into_inner()),
        ["expert", "greedy", "random", "tiles"]
    );
    assert_eq!(
        names(board("ddz").await.unwrap().into_inner()),
        ["cards", "expert"]
    );
    cluster.shutdown().await;
}
