//! Mahjong competitions through the matchmaker on an embedded store, with a referee running the
//! hands: the contest's 96-hand duplicate match, standings, exactly-once finishing across
//! restarts, replays withheld until their deal is played from every seat.

mod support;

use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use arena_matchmaker::{MatchmakerService, supervise, supervise_once};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::{EmbeddedStore, Store};
use mahjong_match::run::{MatchConfig, run, summarize};
use prost::Message;
use tokio_stream::StreamExt;
use tonic::{Code, Request};

fn spec(name: &str, participants: [&str; 4], matches: u32) -> v1::CompetitionSpec {
    v1::CompetitionSpec {
        name: name.into(),
        game: "mahjong".into(),
        participants: participants.map(String::from).to_vec(),
        matches,
        seed: 2015,
        // Built-in bots answer in microseconds; without penalty points no run of a loaded
        // machine can differ from the one-machine match, which does not time built-in bots.
        time: Some(v1::TimeControl {
            penalty_per_100ms: 0,
            ..arena_games::mahjong::spec::contest_time()
        }),
        ..Default::default()
    }
}

type Stop = tokio::sync::oneshot::Sender<()>;

fn referee(store: Arc<dyn Store>, id: &str) -> (tokio::task::JoinHandle<()>, Stop) {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let cfg = arena_referee::RefereeConfig {
        referee_id: id.into(),
        poll_interval: Duration::from_millis(20),
        ..Default::default()
    };
    let h = tokio::spawn(async move {
        arena_referee::work(cfg, store, async {
            let _ = rx.await;
        })
        .await
        .unwrap();
    });
    (h, tx)
}

fn supervisor(store: Arc<dyn Store>) -> (tokio::task::JoinHandle<()>, Stop) {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let h = tokio::spawn(supervise(store, Duration::from_millis(50), async {
        let _ = rx.await;
    }));
    (h, tx)
}

async fn stop(role: (tokio::task::JoinHandle<()>, Stop)) {
    let _ = role.1.send(());
    let _ = role.0.await;
}

async fn watch_to_end(svc: &MatchmakerService, name: &str) -> v1::Standings {
    let stream = svc
        .watch_competition(Request::new(v1::CompetitionRequest { name: name.into() }))
        .await
        .unwrap()
        .into_inner();
    arena_testkit::final_standings(name, stream, Duration::from_secs(600)).await
}

async fn create(
    svc: &MatchmakerService,
    spec: v1::CompetitionSpec,
) -> Result<v1::Competition, tonic::Status> {
    svc.create_competition(Request::new(v1::CreateCompetitionRequest {
        spec: Some(spec),
    }))
    .await
    .map(|r| r.into_inner())
}

async fn replays(svc: &MatchmakerService, name: &str) -> Vec<v1::Replay> {
    svc.export_replays(Request::new(v1::CompetitionRequest { name: name.into() }))
        .await
        .unwrap()
        .into_inner()
        .map(|r| r.unwrap())
        .collect()
        .await
}

/// The expert and greedy bots decide from what they see alone (no randomness), so a competition
/// of them on the services must play every hand exactly as `arena mahjong match` does on one
/// machine with the same seed: the schedule, walls, seats, settling and scoring all agree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_competition_plays_the_contest_match_as_the_one_machine_match_does() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let (r1, r2) = (referee(store.clone(), "r1"), referee(store.clone(), "r2"));
    let sup = supervisor(store.clone());
    let svc = MatchmakerService::new(store.clone());
    let bots = ["expert", "greedy", "greedy", "expert"];
    let started = std::time::Instant::now();
    let comp = create(&svc, spec("cup", bots, 1)).await.unwrap();
    assert_eq!((comp.state.as_str(), comp.tables_total), ("running", 96));
    assert_eq!(
        comp.spec.as_ref().unwrap().seed,
        0,
        "the seed is hidden while it runs"
    );
    let st = watch_to_end(&svc, "cup").await;
    eprintln!(
        "a 96-hand Mahjong competition of built-in bots on two in-process referees: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(st.r#final && st.game == "mahjong", "{st:?}");
    assert_eq!((st.tables_done, st.tables_total), (96, 96));

    // The same match on one machine.
    let config = MatchConfig {
        bots: bots.map(String::from),
        seed: 2015,
        matches: 1,
        rules: Default::default(),
        time: arena_games::mahjong::spec::contest_time(),
        threads: 2,
        log_dir: None,
    };
    let factory = |p: usize| mahjong_match::entrant(&bots[p].parse().unwrap());
    let report = run(&config, &factory, &AtomicU64::new(0)).unwrap();
    assert_eq!(st.drawn_hands, u64::from(report.standings.totals.draws));
    for s in &st.standings {
        let m = arena_games::mahjong::convert::standing_of(s).unwrap();
        let b = m.position as usize;
        let want = &report.standings.totals.players[b];
        assert_eq!(s.participant, bots[b]);
        assert_eq!(
            (
                m.hands,
                m.score,
                m.wins,
                m.self_drawn,
                m.dealt_in,
                m.penalties,
                m.verdicts
            ),
            (
                96,
                want.score,
                want.wins,
                want.self_drawn,
                want.dealt_in,
                want.penalty,
                want.verdicts
            ),
            "position {b}"
        );
        let e = report.standings.mean_per_hand[b];
        assert!((s.mean_score - e.mean).abs() < 1e-9 && (s.score_ci95 - e.ci95).abs() < 1e-9);
        assert_eq!(s.rank_probabilities, report.standings.places[b].to_vec());
        assert!((s.rank_probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
    let places: Vec<u32> = st.standings.iter().map(|s| s.place).collect();
    assert_eq!(places, [1, 2, 3, 4]);
    assert!(
        st.standings
            .windows(2)
            .all(|w| w[0].mean_score >= w[1].mean_score)
    );

    // Every hand's replay reads back as the hand the one-machine match played.
    let comp = svc
        .get_competition(Request::new(v1::CompetitionRequest { name: "cup".into() }))
        .await
        .unwrap()
        .into_inner();
    let seed = comp.spec.unwrap().seed;
    assert_eq!(seed, 2015, "shown once finished");
    let all = replays(&svc, "cup").await;
    assert_eq!(all.len(), 96);
    let slots = mahjong_match::schedule::schedule(seed);
    for r in &all {
        let p = r.job.as_ref().unwrap().placement.clone().unwrap();
        let hand = ((p.round * 4 + p.rotation) * 4 + p.table) as usize;
        let record = arena_games::mahjong::replay::hand_record(r).unwrap();
        assert_eq!(
            summarize(slots[hand], &record),
            report.hands[hand],
            "hand {hand}"
        );
    }
    assert!(
        store
            .record(arena_matchmaker::FINAL_STANDINGS, "cup")
            .await
            .unwrap()
            .is_some()
    );
    assert_eq!(store.results_for("cup").await.unwrap().len(), 96);
    stop(sup).await;
    stop(r1).await;
    stop(r2).await;
}

/// A competition recorded but never enqueued (its matchmaker died at once), then two
/// matchmakers' supervisors racing over it while a referee plays it, one of them stopped
/// halfway: every hand is played and counted once, and it finishes once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_competition_survives_a_matchmaker_restart_and_finishes_once() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let comp = v1::Competition {
        spec: Some(spec("orphan", ["random", "greedy", "expert", "random"], 1)),
        state: "running".into(),
        status: v1::CompetitionState::Running as i32,
        tables_total: 96,
        created_unix_ms: now - arena_matchmaker::ENQUEUE_GRACE_MS - 1000,
        ..Default::default()
    };
    store
        .put_record(
            arena_matchmaker::COMPETITION,
            "orphan",
            &comp.encode_to_vec(),
        )
        .await
        .unwrap();
    supervise_once(&*store).await.unwrap();
    assert_eq!(
        store.job_counts().await.unwrap().waiting,
        96,
        "enqueued once"
    );
    supervise_once(&*store).await.unwrap();
    assert_eq!(store.job_counts().await.unwrap().waiting, 96);

    let first = supervisor(store.clone());
    let r = referee(store.clone(), "r1");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(300);
    while store.results_for("orphan").await.unwrap().len() < 30 {
        assert!(tokio::time::Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The first matchmaker goes; two others carry on.
    first.0.abort();
    let (a, b) = (supervisor(store.clone()), supervisor(store.clone()));
    let svc = MatchmakerService::new(store.clone());
    let st = watch_to_end(&svc, "orphan").await;
    assert_eq!(st.tables_done, 96);
    assert_eq!(store.results_for("orphan").await.unwrap().len(), 96);
    let hands: u32 = st
        .standings
        .iter()
        .map(|s| arena_games::mahjong::convert::standing_of(s).unwrap().hands)
        .sum();
    assert_eq!(hands, 4 * 96, "every hand counted once for each position");
    let wins: u32 = st
        .standings
        .iter()
        .map(|s| arena_games::mahjong::convert::standing_of(s).unwrap().wins)
        .sum();
    assert_eq!(u64::from(wins) + st.drawn_hands, 96);
    let stored = store
        .record(arena_matchmaker::FINAL_STANDINGS, "orphan")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(v1::Standings::decode(stored.as_slice()).unwrap(), st);
    // The random bot (positions 0 and 3) is outplayed by the greedy and expert bots.
    let mean = |p: u32| {
        st.standings
            .iter()
            .find(|s| {
                arena_games::mahjong::convert::standing_of(s)
                    .unwrap()
                    .position
                    == p
            })
            .unwrap()
            .mean_score
    };
    assert!(mean(0) < mean(2) && mean(3) < mean(2), "{st:?}");
    stop(a).await;
    stop(b).await;
    stop(r).await;
}

/// A table's replay holds the wall that three other tables of its deal group still play: it is
/// withheld until all four rotations are played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hands_replay_is_withheld_until_its_deal_is_played_from_every_seat() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = MatchmakerService::new(store.clone());
    create(
        &svc,
        spec("secret", ["random", "greedy", "expert", "greedy"], 1),
    )
    .await
    .unwrap();
    let mut played = Vec::new();
    // Schedule order: the deal of hand 0 is played again by hands 4, 8 and 12.
    for _ in 0..12 {
        played.push(support::play_next(&store).await.0.table_id);
    }
    let replay = |id: &str| {
        let svc = svc.clone();
        let id = id.to_string();
        async move {
            svc.get_replay(Request::new(v1::GetTableRequest { table_id: id }))
                .await
        }
    };
    assert_eq!(played[0], "secret/m0/g0/r0/d0");
    let hidden = replay(&played[0]).await.unwrap_err();
    assert_eq!(hidden.code(), Code::FailedPrecondition, "{hidden:?}");
    assert!(
        hidden.message().contains("secret/m0/g0/r3/d0"),
        "{hidden:?}"
    );
    assert!(replays(&svc, "secret").await.is_empty());
    played.push(support::play_next(&store).await.0.table_id);
    assert_eq!(played[12], "secret/m0/g0/r3/d0");
    let shown = replay(&played[0]).await.unwrap().into_inner();
    assert_eq!(
        arena_games::mahjong::convert::history_of(&shown)
            .hands
            .len(),
        4
    );
    let ids: Vec<String> = replays(&svc, "secret")
        .await
        .into_iter()
        .map(|r| r.result.unwrap().table_id)
        .collect();
    assert_eq!(ids.len(), 4, "the four rotations of deal 0: {ids:?}");
    assert!(ids.iter().all(|id| id.ends_with("/d0")));
    // Standings so far: only the deal played from every seat counts (its four hands); the
    // other nine finished hands wait for their deals' other rotations, no match is complete.
    let st = svc
        .get_standings(Request::new(v1::CompetitionRequest {
            name: "secret".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(!st.r#final);
    assert_eq!((st.tables_done, st.tables_withheld), (13, 9));
    for s in &st.standings {
        assert_eq!(s.rank_probabilities, [0.0; 4], "no match is complete");
        assert_eq!(
            arena_games::mahjong::convert::standing_of(s).unwrap().hands,
            4
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spec_that_is_no_mahjong_competition_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = MatchmakerService::new(store.clone()).with_max_tables(500);
    let bad = |r: Result<v1::Competition, tonic::Status>, code: Code, text: &str| {
        let e = r.unwrap_err();
        assert_eq!(e.code(), code, "{e:?}");
        assert!(e.message().contains(text), "{}", e.message());
    };
    let three = v1::CompetitionSpec {
        participants: vec!["expert".into(), "greedy".into(), "random".into()],
        ..spec("x", ["expert"; 4], 1)
    };
    bad(
        create(&svc, three).await,
        Code::InvalidArgument,
        "exactly four",
    );
    // `seed` is a Dou Dizhu bot: at a Mahjong table it is nobody.
    bad(
        create(&svc, spec("x", ["expert", "greedy", "random", "seed"], 1)).await,
        Code::FailedPrecondition,
        "random, greedy, expert",
    );
    let farmers = v1::CompetitionSpec {
        farmers: "expert".into(),
        ..spec("x", ["expert"; 4], 1)
    };
    bad(
        create(&svc, farmers).await,
        Code::InvalidArgument,
        "spec.farmers",
    );
    bad(
        create(&svc, spec("x", ["expert"; 4], 6)).await,
        Code::OutOfRange,
        "500 tables",
    );
    let ddz_fans = v1::CompetitionSpec {
        game: "ddz".into(),
        setup: Some(arena_proto::payload::pack(&mahjong_pb::Setup {
            fans: mahjong_pb::Fans::Seed2015 as i32,
            ..Default::default()
        })),
        participants: vec!["expert".into(), "seed".into()],
        rounds: 1,
        format: "random".into(),
        ..spec("x", ["expert"; 4], 1)
    };
    bad(
        create(&svc, ddz_fans).await,
        Code::InvalidArgument,
        "spec.setup",
    );
    assert!(
        store
            .records(arena_matchmaker::COMPETITION)
            .await
            .unwrap()
            .is_empty()
    );
}
