//! A Mahjong competition of built-in bots on Redis, through two referees: the matchmaker that
//! runs it is stopped halfway and two others take over; every hand is counted once, the
//! competition finishes once, its standings are final and every replay is exported.

use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use std::time::{Duration, Instant};

use arena_integration::cluster::PATIENCE;
use arena_integration::{Backend, Cluster};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use prost::Message;
use tokio_stream::StreamExt;
use tonic::Request;

type Role = (
    tokio::task::JoinHandle<()>,
    tokio::sync::oneshot::Sender<()>,
);

fn supervisor(cluster: &Cluster) -> Role {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let h = tokio::spawn(arena_matchmaker::supervise(
        cluster.store.clone(),
        Duration::from_millis(100),
        async {
            let _ = rx.await;
        },
    ));
    (h, tx)
}

async fn mahjong_competition_survives_a_matchmaker_restart(backend: Backend) {
    let cluster = Cluster::on(backend, "mjcomp")
        .referees(&["r1", "r2"])
        .start()
        .await;
    let name = format!("{}-mj", cluster.prefix());
    let spec = v1::CompetitionSpec {
        name: name.clone(),
        game: "mahjong".into(),
        participants: ["expert", "greedy", "random", "greedy"]
            .map(String::from)
            .to_vec(),
        matches: 1,
        ..Default::default()
    };
    let first = supervisor(&cluster);
    let started = Instant::now();
    let comp = cluster
        .matchmaker
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(spec),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(comp.tables_total, 96);
    let created = comp.spec.unwrap();
    assert_eq!(
        created.time,
        Some(arena_games::mahjong::spec::contest_time()),
        "the contest's clock by default"
    );
    assert_eq!(created.verdict_policy(), v1::VerdictPolicy::PlayOn);

    // Halfway, the matchmaker goes (no shutdown) and two others carry on.
    cluster.results(&name, 48).await;
    first.0.abort();
    let others = [supervisor(&cluster), supervisor(&cluster)];
    let st = cluster.final_standings(&name).await;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{backend:?}: a 96-hand Mahjong competition on two referees in {secs:.1} s ({:.1} hands/s)",
        96.0 / secs
    );
    assert!(st.r#final, "{st:?}");
    assert_eq!((st.tables_done, st.tables_total), (96, 96));
    assert_eq!(cluster.store.results_for(&name).await.unwrap().len(), 96);
    let totals: Vec<mahjong_pb::Standing> = st
        .standings
        .iter()
        .map(|s| arena_games::mahjong::convert::standing_of(s).unwrap())
        .collect();
    assert!(totals.iter().all(|t| t.hands == 96));
    let wins: u32 = totals.iter().map(|t| t.wins).sum();
    assert_eq!(u64::from(wins) + st.drawn_hands, 96);
    let dealt_in: u32 = totals.iter().map(|t| t.dealt_in).sum();
    let self_drawn: u32 = totals.iter().map(|t| t.self_drawn).sum();
    assert_eq!(
        dealt_in + self_drawn,
        wins,
        "every win is self-drawn or dealt in"
    );
    // Scores move between the bots; only time penalties leave the table.
    let score: i64 = totals.iter().map(|t| t.score).sum();
    let penalties: i64 = totals.iter().map(|t| t.penalties).sum();
    assert_eq!(score, -penalties);
    for s in &st.standings {
        assert!(
            (s.rank_probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-9,
            "{s:?}"
        );
    }
    let stored = cluster
        .store
        .record(arena_matchmaker::FINAL_STANDINGS, &name)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(v1::Standings::decode(stored.as_slice()).unwrap(), st);

    let replays: Vec<v1::Replay> = cluster
        .matchmaker
        .export_replays(Request::new(v1::CompetitionRequest { name: name.clone() }))
        .await
        .unwrap()
        .into_inner()
        .map(|r| r.unwrap())
        .collect()
        .await;
    assert_eq!(replays.len(), 96);
    for r in &replays {
        let record = arena_games::mahjong::replay::hand_record(r).unwrap();
        let result = r.result.as_ref().unwrap();
        assert_eq!(record.scores.map(i64::from).to_vec(), result.final_scores);
    }
    for s in others {
        let _ = s.1.send(());
        let _ = tokio::time::timeout(PATIENCE, s.0).await;
    }
    cluster.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mahjong_competition_survives_a_matchmaker_restart_on_redis() {
    mahjong_competition_survives_a_matchmaker_restart(Backend::Redis).await;
}
