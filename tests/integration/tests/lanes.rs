//! Job lanes on Redis: a competition names a lane, its tables wait on that lane's stream and
//! only a referee started on the lane plays them, while a referee of the default lane plays the
//! rest and never takes them. A lane's name outside its alphabet is refused, naming the field.

use std::time::Duration;

use arena_integration::{Backend, Cluster};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::JobCounts;
use prost::Message;
use tonic::Request;

/// Each lane's competition deals from its own seed: two running competitions may not deal the
/// same cards.
fn spec(name: &str, lane: &str, seed: u64) -> v1::CompetitionSpec {
    v1::CompetitionSpec {
        name: name.into(),
        format: "duplicate".into(),
        participants: vec!["expert".into(), "seed".into(), "random".into()],
        farmers: "expert".into(),
        matches: 1,
        rounds: 2,
        seed,
        lane: lane.into(),
        ..Default::default()
    }
}

async fn create(
    cluster: &Cluster,
    spec: v1::CompetitionSpec,
) -> Result<v1::Competition, tonic::Status> {
    cluster
        .matchmaker
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(spec),
        }))
        .await
        .map(|r| r.into_inner())
}

/// Every result of `competition`'s tables, and the referee that wrote it.
async fn referees_of(cluster: &Cluster, competition: &str, n: usize) -> Vec<String> {
    cluster
        .results(competition, n)
        .await
        .iter()
        .map(|(id, bytes)| {
            let r = v1::TableResult::decode(bytes.as_slice()).expect("an encoded TableResult");
            assert!(r.error.is_empty(), "{id}: {}", r.error);
            r.referee
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lanes_tables_are_played_only_by_its_referees() {
    let mut cluster = Cluster::on(Backend::Redis, "lanes")
        .referee_config(|c| {
            if c.referee_id.starts_with("short") {
                c.lane = "short".into();
            }
        })
        .referees(&["long"])
        .supervisor(Duration::from_millis(100))
        .start()
        .await;
    let long = format!("{}-long", cluster.prefix());
    let short = format!("{}-short", cluster.prefix());
    let short_total = create(&cluster, spec(&short, "short", 5))
        .await
        .unwrap()
        .tables_total;
    let long_total = create(&cluster, spec(&long, "", 6))
        .await
        .unwrap()
        .tables_total;
    assert!(short_total > 0 && long_total > 0);

    // The default lane's referee plays its competition to the end, queued after the other.
    let standings = cluster.final_standings(&long).await;
    assert_eq!(standings.tables_done, long_total);
    let by = referees_of(&cluster, &long, long_total as usize).await;
    assert!(by.iter().all(|r| r == "long"), "{by:?}");
    // and never took the short lane's tables: they wait on their own stream.
    let lane = cluster.store.lane("short").expect("lane short");
    assert_eq!(
        lane.job_counts().await.expect("counts"),
        JobCounts {
            waiting: short_total,
            pending: 0
        }
    );
    assert!(
        cluster
            .store
            .results_for(&short)
            .await
            .expect("results")
            .is_empty()
    );

    cluster.start_referee("short-1");
    let standings = cluster.final_standings(&short).await;
    assert_eq!(standings.tables_done, short_total);
    let by = referees_of(&cluster, &short, short_total as usize).await;
    assert!(by.iter().all(|r| r == "short-1"), "{by:?}");
    assert_eq!(
        lane.job_counts().await.expect("counts"),
        JobCounts::default()
    );

    let refused = create(
        &cluster,
        spec(&format!("{}-bad", cluster.prefix()), "Short", 7),
    )
    .await
    .expect_err("a lane with a capital letter");
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert!(
        refused.message().starts_with("spec.lane") && refused.message().contains("\"Short\""),
        "{}",
        refused.message()
    );
    cluster.shutdown().await;
}
