//! All four services on Redis: deal-library measures a library through the referee's GDI
//! batches, the matchmaker runs an equal-strength competition between remote bots (over gRPC
//! through bot-host) and a built-in bot, standings and replays come back; then the tables/s of
//! the whole stack.

use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_bot_host::{BotHost, BotHostConfig, issue_token};
use arena_proto::v1;
use arena_proto::v1::deal_library_server::DealLibrary;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::{BotKind, BotRecord, RedisStore, Store};
use tokio_stream::StreamExt;
use tonic::Request;

const REDIS: &str = "redis://127.0.0.1:6379";

fn prefix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("e2e-comp-{}-{nanos}", std::process::id())
}

async fn cleanup(prefix: &str) {
    let client = redis::Client::open(REDIS).unwrap();
    let mut con = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query_async(&mut con)
        .await
        .unwrap_or_default();
    if !keys.is_empty() {
        let _: () = redis::cmd("DEL")
            .arg(keys)
            .query_async(&mut con)
            .await
            .unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_equal_strength_competition_between_remote_and_built_in_bots_on_redis() {
    let prefix = prefix();
    let store: Arc<dyn Store> = Arc::new(RedisStore::connect(REDIS, &prefix).await.unwrap());
    // Two remote bots.
    let mut tokens = Vec::new();
    for name in ["north", "east"] {
        let (token, hash) = issue_token().unwrap();
        let rec = BotRecord {
            name: name.into(),
            kind: BotKind::Remote,
            token_sha256: Some(hash),
            max_tables: 0,
            created_unix_ms: 0,
        };
        assert!(store.add_bot(&rec).await.unwrap());
        tokens.push((name, token));
    }
    let host = BotHost::bind(BotHostConfig::loopback(), store.clone())
        .await
        .unwrap();
    let host_url = format!("http://{}", host.local_addr());
    let (stop_host, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(host.run(async {
        let _ = rx.await;
    }));
    let mut bots = Vec::new();
    for (name, token) in tokens {
        let url = host_url.clone();
        bots.push(tokio::spawn(async move {
            let _ = arena_example_remote_bot::play(&url, name, &token, 64, 0).await;
        }));
    }
    // A referee (tables and GDI batches), the deal library and the matchmaker's supervisor.
    let (stop_ref, rx) = tokio::sync::oneshot::channel::<()>();
    let cfg = arena_referee::RefereeConfig {
        referee_id: "e2e".into(),
        bot_hosts: vec![host_url.clone()],
        poll_interval: Duration::from_millis(20),
        ..Default::default()
    };
    let referee = tokio::spawn(arena_referee::work(cfg, store.clone(), async {
        let _ = rx.await;
    }));
    let (stop_sup, rx) = tokio::sync::oneshot::channel::<()>();
    let supervisor = tokio::spawn(arena_matchmaker::supervise(
        store.clone(),
        Duration::from_millis(100),
        async {
            let _ = rx.await;
        },
    ));
    let library = arena_deal_library::DealLibraryService::new(store.clone(), 2);
    let matchmaker = arena_matchmaker::MatchmakerService::new(store.clone());

    // Measure a library through the job stream.
    let panel = v1::PanelSpec {
        landlords: "ladder:5".into(),
        farmers: "expert".into(),
        scoring: String::new(),
    };
    let op = library
        .measure(Request::new(v1::MeasureRequest {
            panel: Some(panel.clone()),
            seed: 5,
            bombs: Some(1),
            count: 400,
            batch: 50,
        }))
        .await
        .unwrap()
        .into_inner();
    let start = Instant::now();
    loop {
        let op = library
            .get_operation(Request::new(v1::GetOperationRequest { id: op.id.clone() }))
            .await
            .unwrap()
            .into_inner();
        if op.done {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "measurement stuck: {op:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // An equal-strength competition: two remote bots and a built-in one as landlords.
    let spec = v1::CompetitionSpec {
        name: format!("{prefix}-cup"),
        format: "equal-strength".into(),
        centre: vec![0.8, 0.4, 0.2],
        eps: 0.6,
        participants: vec!["north".into(), "east".into(), "expert".into()],
        farmers: "expert".into(),
        matches: 4,
        rounds: 5,
        panel: Some(panel),
        seed: 3,
        time: Some(v1::TimeControl {
            decision_ms: 2000,
            hard_cap_ms: 10_000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        ..Default::default()
    };
    let created = Instant::now();
    let comp = matchmaker
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(spec.clone()),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(comp.tables_total, 60);
    let mut stream = matchmaker
        .watch_competition(Request::new(v1::CompetitionRequest {
            name: spec.name.clone(),
        }))
        .await
        .unwrap()
        .into_inner();
    let mut last = None;
    while let Ok(Some(s)) = tokio::time::timeout(Duration::from_secs(120), stream.next()).await {
        let s = s.unwrap();
        let done = s.r#final;
        last = Some(s);
        if done {
            break;
        }
    }
    let standings = last.expect("standings");
    let secs = created.elapsed().as_secs_f64();
    eprintln!(
        "competition: 60 tables through the whole stack in {secs:.2} s ({:.1} tables/s)",
        60.0 / secs
    );
    assert!(standings.r#final, "{standings:?}");
    assert_eq!(standings.tables_done, 60);
    assert_eq!(standings.standings.len(), 3);
    // Every table's replay is there, and the remote bots really played (no verdicts).
    let replays: Vec<v1::Replay> = matchmaker
        .export_replays(Request::new(v1::CompetitionRequest {
            name: spec.name.clone(),
        }))
        .await
        .unwrap()
        .into_inner()
        .map(|r| r.unwrap())
        .collect()
        .await;
    assert_eq!(replays.len(), 60);
    for r in &replays {
        let result = r.result.as_ref().unwrap();
        assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    }
    let remote_tables = replays
        .iter()
        .filter(|r| r.job.as_ref().is_some_and(|j| j.seats[0].bot != "expert"))
        .count();
    assert_eq!(remote_tables, 40);

    let _ = stop_sup.send(());
    let _ = supervisor.await;
    let _ = stop_ref.send(());
    let _ = referee.await;
    let _ = stop_host.send(());
    bots.iter().for_each(|b| b.abort());
    cleanup(&prefix).await;
}
