//! The referee end to end on an embedded store: many tables through the queue, a killed referee,
//! store outages, malformed jobs, graceful shutdown, the gRPC services and GDI batches.

mod support;

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use arena_proto::v1;
use arena_proto::v1::table_referee_client::TableRefereeClient;
use arena_referee::{RefereeConfig, run_table, serve_with_listener, work};
use arena_store::JobCounts;
use arena_store::prelude::*;
use arena_table::queue::encode_table_job;
use arena_testkit::fake_host::FakeHost;
use prost::Message;
use support::{Event, Faulty, embedded};
use tokio::sync::oneshot;

fn job(id: &str, seed: u64) -> v1::TableJob {
    let bots = match seed % 3 {
        0 => ["expert", "ladder:3/10", "random"],
        1 => ["random", "expert", "seed"],
        _ => ["ladder:7/10", "random", "expert"],
    };
    v1::TableJob {
        table_id: id.into(),
        game: "ddz".into(),
        seats: bots.map(|b| v1::SeatSpec { bot: b.into() }).to_vec(),
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            landlord: Some(ddz_pb::setup::Landlord::FirstBidder((seed % 3) as u32)),
            doubling: seed.is_multiple_of(2),
            ..Default::default()
        })),
        seed,
        // Listed under `cup` only when the id is under it, as the store requires.
        competition: arena_store::competition_of(id).into(),
        ..Default::default()
    }
}

fn config(id: &str) -> RefereeConfig {
    RefereeConfig {
        referee_id: id.into(),
        listen: "127.0.0.1:0".parse().unwrap(),
        max_tables: 8,
        reclaim_after: Duration::from_millis(1500),
        touch_interval: Duration::from_millis(300),
        poll_interval: Duration::from_millis(100),
        shutdown_grace: Duration::from_secs(10),
        ..RefereeConfig::default()
    }
}

async fn enqueue(store: &dyn Store, jobs: &[v1::TableJob]) {
    for j in jobs {
        store
            .enqueue_job(&j.table_id, &encode_table_job(j))
            .await
            .unwrap();
    }
}

/// Waits until the queue is empty (everything acknowledged).
async fn drained(store: &dyn Store, within: Duration) {
    let start = Instant::now();
    loop {
        if store.job_counts().await.unwrap() == JobCounts::default() {
            return;
        }
        assert!(
            start.elapsed() < within,
            "queue not drained: {:?}",
            store.job_counts().await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn result_of(store: &dyn Store, id: &str) -> v1::TableResult {
    let bytes = store
        .result(id)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("no result for {id}"));
    v1::TableResult::decode(bytes.as_slice()).unwrap()
}

/// Starts `work` with a shutdown trigger.
fn start(
    config: RefereeConfig,
    store: Arc<dyn Store>,
) -> (oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let (tx, rx) = oneshot::channel::<()>();
    let handle = tokio::spawn(async move {
        work(config, store, async {
            let _ = rx.await;
        })
        .await
        .unwrap();
    });
    (tx, handle)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_tables_through_the_queue_each_get_exactly_one_result() {
    let (_dir, store) = embedded();
    let jobs: Vec<_> = (0..200).map(|i| job(&format!("cup/t{i:03}"), i)).collect();
    enqueue(&*store, &jobs).await;
    let (stop, handle) = start(config("r1"), store.clone());
    drained(&*store, Duration::from_secs(120)).await;
    stop.send(()).unwrap();
    handle.await.unwrap();
    for j in &jobs {
        let r = result_of(&*store, &j.table_id).await;
        assert_eq!(
            (r.table_id.as_str(), r.referee.as_str(), r.error.as_str()),
            (j.table_id.as_str(), "r1", "")
        );
        assert!(r.outcome.is_some());
        let replay =
            v1::Replay::decode(store.replay(&j.table_id).await.unwrap().unwrap().as_slice())
                .unwrap();
        assert_eq!(replay.result.as_ref(), Some(&r));
        assert_eq!(replay.job.as_ref(), Some(j));
        // The clock every seat and decision was judged by is written, the defaults resolved.
        let clock = |t: &v1::TimeControl| (t.decision_ms, t.hard_cap_ms);
        let seats: Vec<_> = r
            .seat_time
            .iter()
            .chain(&r.seat_later_time)
            .map(clock)
            .collect();
        assert_eq!(seats, [(1000, 5000); 6]);
        assert!(replay.steps.iter().all(|s| s.limit_ms == 1000));
    }
    let listed: BTreeSet<String> = store
        .results_for("cup")
        .await
        .unwrap()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(listed.len(), 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_referees_tables_are_rerun_elsewhere_and_counted_once() {
    let (_dir, inner) = embedded();
    let store = Faulty::new(inner);
    // Slow writes keep referee A holding jobs whenever it is killed.
    store.put_delay_ms.store(20, Ordering::SeqCst);
    let jobs: Vec<_> = (0..120)
        .map(|i| job(&format!("cup/k{i:03}"), 1000 + i))
        .collect();
    enqueue(&*store, &jobs).await;
    let a = tokio::spawn(work(config("ref-a"), store.clone(), std::future::pending()));
    let (stop_b, b) = start(config("ref-b"), store.clone());
    // Kill A halfway.
    let start_t = Instant::now();
    while store
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Put(_, true)))
        .count()
        < 60
    {
        assert!(start_t.elapsed() < Duration::from_secs(60));
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    a.abort();
    let _ = a.await;
    drained(&*store, Duration::from_secs(120)).await;
    stop_b.send(()).unwrap();
    b.await.unwrap();

    let events = store.events();
    let reclaimed: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, Event::Took(c, _, _, d) if c == "ref-b" && *d > 1))
        .collect();
    assert!(!reclaimed.is_empty(), "B reran some of A's jobs");
    let mut by_referee = BTreeMap::new();
    for j in &jobs {
        let r = result_of(&*store, &j.table_id).await;
        assert!(r.outcome.is_some() && r.error.is_empty(), "{r:?}");
        *by_referee.entry(r.referee).or_insert(0) += 1;
    }
    assert_eq!(by_referee.values().sum::<i32>(), 120);
    assert!(
        by_referee.contains_key("ref-a") && by_referee.contains_key("ref-b"),
        "{by_referee:?}"
    );
    let written: Vec<_> = events
        .iter()
        .filter_map(|e| {
            if let Event::Put(id, true) = e {
                Some(id.clone())
            } else {
                None
            }
        })
        .collect();
    // No table's result was stored twice. (A write A started just before it was killed may
    // land without being logged here, so the log may hold fewer than 120.)
    assert_eq!(written.iter().collect::<BTreeSet<_>>().len(), written.len());
    assert!(written.len() <= 120);
    assert_eq!(store.results_for("cup").await.unwrap().len(), 120);
}

/// Polls `cond` every 10 ms until it holds; fails naming `what` after `within`.
async fn until(what: &str, within: Duration, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < within, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Referee A is alive and has played its table, but cannot touch the job (its lease runs out)
/// and is held at writing the result. Referee B reclaims the job, plays it and writes it. When A
/// finally writes, the store keeps B's result: one result, written once, not overwritten.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referee_whose_job_was_reclaimed_while_it_lives_does_not_overwrite_the_result() {
    let (_dir, inner) = embedded();
    // The two referees see the same store through wrappers of their own.
    let store_a = Faulty::new(inner.clone());
    let store_b = Faulty::new(inner.clone());
    store_a.fail_touches.store(true, Ordering::SeqCst);
    store_a.gate_puts.store(true, Ordering::SeqCst);
    let j = job("cup/reclaimed", 77);
    enqueue(&*inner, std::slice::from_ref(&j)).await;
    let (stop_a, a) = start(config("ref-a"), store_a.clone());
    until(
        "A to finish playing and start writing",
        Duration::from_secs(60),
        || store_a.puts_waiting.load(Ordering::SeqCst) == 1,
    )
    .await;
    assert!(
        matches!(&store_a.events()[0], Event::Took(c, _, t, 1) if c == "ref-a" && t == "cup/reclaimed"),
        "{:?}",
        store_a.events()
    );

    // B only gets the job once A's lease has run out (A is alive, but its touches fail; on a slow
    // machine A may even take its own expired job again before B does).
    let (stop_b, b) = start(config("ref-b"), store_b.clone());
    until(
        "B to write and acknowledge",
        Duration::from_secs(60),
        || {
            store_b
                .events()
                .iter()
                .any(|e| matches!(e, Event::Acked(_)))
        },
    )
    .await;
    let b_events = store_b.events();
    assert!(
        matches!(&b_events[0], Event::Took(c, _, t, d) if c == "ref-b" && t == "cup/reclaimed" && *d >= 2),
        "B took the job as a later delivery: {b_events:?}"
    );
    assert!(
        b_events.contains(&Event::Put("cup/reclaimed".into(), true)),
        "{b_events:?}"
    );
    let written = inner.result("cup/reclaimed").await.unwrap().unwrap();
    let replay = inner.replay("cup/reclaimed").await.unwrap().unwrap();
    assert_eq!(result_of(&*inner, "cup/reclaimed").await.referee, "ref-b");

    // Let A write: the store keeps B's result and replay.
    store_a.put_gate.add_permits(16);
    until("A's write to return", Duration::from_secs(60), || {
        store_a.events().iter().any(|e| matches!(e, Event::Put(..)))
    })
    .await;
    assert!(
        store_a
            .events()
            .contains(&Event::Put("cup/reclaimed".into(), false)),
        "A's result was not stored over B's: {:?}",
        store_a.events()
    );
    assert_eq!(
        inner.result("cup/reclaimed").await.unwrap().unwrap(),
        written
    );
    assert_eq!(
        inner.replay("cup/reclaimed").await.unwrap().unwrap(),
        replay
    );
    let stored = v1::Replay::decode(replay.as_slice()).unwrap();
    assert_eq!(
        stored.result.as_ref().map(|r| r.referee.as_str()),
        Some("ref-b")
    );
    assert_eq!(inner.results_for("cup").await.unwrap().len(), 1);
    let writes = [store_a.events(), store_b.events()]
        .concat()
        .into_iter()
        .filter(|e| matches!(e, Event::Put(_, true)))
        .count();
    assert_eq!(writes, 1, "the result was written exactly once");
    drained(&*inner, Duration::from_secs(30)).await;
    stop_a.send(()).unwrap();
    stop_b.send(()).unwrap();
    a.await.unwrap();
    b.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_outage_is_retried_and_no_job_is_acknowledged_before_its_result_is_written() {
    let (_dir, inner) = embedded();
    let store = Faulty::new(inner);
    let jobs: Vec<_> = (0..6).map(|i| job(&format!("o{i}"), 50 + i)).collect();
    enqueue(&*store, &jobs).await;
    store.down.store(true, Ordering::SeqCst);
    store.fail_puts.store(5, Ordering::SeqCst);
    let (stop, handle) = start(config("r-outage"), store.clone());
    // The referee has asked the store for work (and been refused) a few times.
    until(
        "the referee to try the store",
        Duration::from_secs(60),
        || store.refused.load(Ordering::SeqCst) >= 3,
    )
    .await;
    assert_eq!(
        store.job_counts().await.unwrap().waiting,
        6,
        "nothing taken while the store is down"
    );
    store.down.store(false, Ordering::SeqCst);
    drained(&*store, Duration::from_secs(60)).await;
    stop.send(()).unwrap();
    handle.await.unwrap();
    assert_eq!(
        store.fail_puts.load(Ordering::SeqCst),
        0,
        "the failed writes were retried"
    );
    // Every acknowledgement follows the write of its table's result.
    let events = store.events();
    for j in &jobs {
        assert!(result_of(&*store, &j.table_id).await.outcome.is_some());
    }
    let mut table_of = BTreeMap::new();
    let mut written = BTreeSet::new();
    let mut acks = 0;
    for e in &events {
        match e {
            Event::Took(_, entry, table, _) => {
                table_of.insert(entry.clone(), table.clone());
            }
            Event::Put(table, _) => {
                written.insert(table.clone());
            }
            Event::Acked(entry) => {
                acks += 1;
                assert!(
                    written.contains(&table_of[entry]),
                    "{entry} acknowledged before its result was written: {events:?}"
                );
            }
        }
    }
    assert_eq!(acks, 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_jobs_get_an_error_result_naming_the_problem_and_are_acknowledged() {
    let (_dir, store) = embedded();
    store
        .enqueue_job("bad-bytes", b"\xff\xfe garbage")
        .await
        .unwrap();
    let mut two_seats = job("bad-seats", 1);
    two_seats.seats.pop();
    store
        .enqueue_job("bad-seats", &encode_table_job(&two_seats))
        .await
        .unwrap();
    store
        .enqueue_job("bad-id", &encode_table_job(&job("other-id", 2)))
        .await
        .unwrap();
    let mut deal = job("bad-deal", 3);
    deal.setup = Some(arena_proto::payload::pack(&ddz_pb::Setup {
        deal: "3/4/5/6".into(),
        ..Default::default()
    }));
    store
        .enqueue_job("bad-deal", &encode_table_job(&deal))
        .await
        .unwrap();
    let (stop, handle) = start(config("r-bad"), store.clone());
    drained(&*store, Duration::from_secs(30)).await;
    stop.send(()).unwrap();
    handle.await.unwrap();
    for (id, needle) in [
        ("bad-bytes", "not an arena.v1.QueuedJob"),
        ("bad-seats", "job.seats: ddz needs 3 seats, got 2"),
        ("bad-id", "job.table_id: \"other-id\" does not match"),
        ("bad-deal", "job.ddz.deal"),
    ] {
        let r = result_of(&*store, id).await;
        assert!(r.error.contains(needle), "{id}: {}", r.error);
        assert!(r.outcome.is_none());
    }
    assert!(store.result("other-id").await.unwrap().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_tables_in_flight_within_the_grace() {
    let (_dir, inner) = embedded();
    let store = Faulty::new(inner);
    store.put_delay_ms.store(400, Ordering::SeqCst);
    let jobs: Vec<_> = (0..4).map(|i| job(&format!("g{i}"), 70 + i)).collect();
    enqueue(&*store, &jobs).await;
    let (stop, handle) = start(config("r-grace"), store.clone());
    while store.job_counts().await.unwrap().waiting > 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    stop.send(()).unwrap();
    handle.await.unwrap();
    assert_eq!(store.job_counts().await.unwrap(), JobCounts::default());
    for j in &jobs {
        assert!(result_of(&*store, &j.table_id).await.outcome.is_some());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_past_the_grace_hands_unfinished_tables_back_unacknowledged() {
    let (_dir, inner) = embedded();
    let store = Faulty::new(inner);
    store.hang_puts.store(true, Ordering::SeqCst);
    let jobs: Vec<_> = (0..3).map(|i| job(&format!("h{i}"), 80 + i)).collect();
    enqueue(&*store, &jobs).await;
    let mut cfg = config("r-hang");
    cfg.shutdown_grace = Duration::from_millis(300);
    let (stop, handle) = start(cfg, store.clone());
    while store.job_counts().await.unwrap().waiting > 0 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let t = Instant::now();
    stop.send(()).unwrap();
    handle.await.unwrap();
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "shutdown waited {:?}",
        t.elapsed()
    );
    assert_eq!(
        store.job_counts().await.unwrap(),
        JobCounts {
            waiting: 0,
            pending: 3
        }
    );
    // Another referee picks them up once they may be reclaimed, and finishes them.
    store.hang_puts.store(false, Ordering::SeqCst);
    let (stop, handle) = start(config("r-next"), store.clone());
    drained(&*store, Duration::from_secs(30)).await;
    stop.send(()).unwrap();
    handle.await.unwrap();
    for j in &jobs {
        assert_eq!(result_of(&*store, &j.table_id).await.referee, "r-next");
    }
}

fn code_and_message(s: tonic::Status) -> (tonic::Code, String) {
    (s.code(), s.message().to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_grpc_services_submit_report_check_health_and_reflect() {
    let (_dir, store) = embedded();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, rx) = oneshot::channel::<()>();
    let operator = arena_auth::Secret::new("referee-test-operator");
    let server = tokio::spawn(serve_with_listener(
        listener,
        RefereeConfig {
            operator_token: Some(operator.clone()),
            ..config("r-grpc")
        },
        store.clone(),
        async {
            let _ = rx.await;
        },
    ));
    let url = format!("http://{addr}");
    let channel = tonic::transport::Endpoint::from_shared(url.clone())
        .unwrap()
        .connect()
        .await
        .unwrap();
    // Without a token every method is refused.
    let mut anonymous = TableRefereeClient::new(channel.clone());
    let refused = anonymous
        .get_result(v1::GetTableRequest {
            table_id: "x".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unauthenticated, "{refused:?}");
    let refused = anonymous
        .submit_table(v1::SubmitTableRequest { job: None })
        .await
        .unwrap_err();
    assert_eq!(refused.code(), tonic::Code::Unauthenticated, "{refused:?}");
    let mut client =
        TableRefereeClient::with_interceptor(channel, arena_auth::Bearer::new(Some(&operator)));

    // Bad requests: INVALID_ARGUMENT naming the field.
    let submit = |j: Option<v1::TableJob>| v1::SubmitTableRequest { job: j };
    let (code, msg) = code_and_message(client.submit_table(submit(None)).await.unwrap_err());
    assert_eq!(
        (code, msg.as_str()),
        (tonic::Code::InvalidArgument, "job: missing")
    );
    let mut bad = job("x", 1);
    bad.seats.pop();
    let cases: Vec<(v1::TableJob, &str)> = vec![
        (bad, "job.seats:"),
        (
            v1::TableJob {
                game: "chess".into(),
                ..job("x", 1)
            },
            "job.game: no game \"chess\": the games are ddz, mahjong",
        ),
        (
            v1::TableJob {
                // A Mahjong table with a Dou Dizhu set-up.
                game: "mahjong".into(),
                ..job("x", 1)
            },
            "job.setup: the job's setup carries a \"arena.ddz.v1.Setup\", not a arena.mahjong.v1.Setup",
        ),
        (
            v1::TableJob {
                setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
                    deal: "33/44".into(),
                    ..Default::default()
                })),
                ..job("x", 1)
            },
            "job.ddz.deal:",
        ),
        (
            v1::TableJob {
                setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
                    rules: "house".into(),
                    ..Default::default()
                })),
                ..job("x", 1)
            },
            "job.ddz.rules: unknown rule set \"house\"",
        ),
        (
            v1::TableJob {
                table_id: String::new(),
                ..job("x", 1)
            },
            "job.table_id: is empty",
        ),
        (
            v1::TableJob {
                lane: "Fast:1".into(),
                ..job("x", 1)
            },
            "job.lane: lane \"Fast:1\": only lower-case letters, digits and dashes",
        ),
    ];
    for (j, field) in cases {
        let (code, msg) = code_and_message(client.submit_table(submit(Some(j))).await.unwrap_err());
        assert_eq!(code, tonic::Code::InvalidArgument, "{msg}");
        assert!(msg.starts_with(field), "{msg} should start with {field}");
    }
    let get = |id: &str| v1::GetTableRequest {
        table_id: id.into(),
    };
    let (code, msg) = code_and_message(client.get_result(get("")).await.unwrap_err());
    assert_eq!(
        (code, msg.as_str()),
        (tonic::Code::InvalidArgument, "table_id: is empty")
    );
    assert_eq!(
        client.get_result(get("nope")).await.unwrap_err().code(),
        tonic::Code::NotFound
    );
    assert_eq!(
        client.get_replay(get("nope")).await.unwrap_err().code(),
        tonic::Code::NotFound
    );

    // A good job runs on this referee and its result and replay come back.
    let accepted = client
        .submit_table(submit(Some(job("grpc-1", 5))))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(accepted.table_id, "grpc-1");
    assert!(!accepted.stream_id.is_empty());
    let start_t = Instant::now();
    let result = loop {
        match client.get_result(get("grpc-1")).await {
            Ok(r) => break r.into_inner(),
            Err(s) => assert_eq!(s.code(), tonic::Code::NotFound),
        }
        assert!(start_t.elapsed() < Duration::from_secs(30));
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(
        (result.table_id.as_str(), result.referee.as_str()),
        ("grpc-1", "r-grpc")
    );
    let replay = client.get_replay(get("grpc-1")).await.unwrap().into_inner();
    assert_eq!(replay.result, Some(result));
    let again = client
        .submit_table(submit(Some(job("grpc-1", 5))))
        .await
        .unwrap_err();
    assert_eq!(again.code(), tonic::Code::AlreadyExists);

    // Health and reflection.
    let channel = tonic::transport::Endpoint::from_shared(url)
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel.clone());
    let status = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "arena.v1.TableReferee".into(),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        status.status(),
        tonic_health::pb::health_check_response::ServingStatus::Serving
    );
    use tonic_reflection::pb::v1 as refl;
    let mut reflection = refl::server_reflection_client::ServerReflectionClient::new(channel);
    let request = refl::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(
            refl::server_reflection_request::MessageRequest::ListServices(String::new()),
        ),
    };
    let mut replies = reflection
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    let reply = replies.message().await.unwrap().unwrap();
    let Some(refl::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        reply.message_response
    else {
        panic!("{reply:?}")
    };
    let names: Vec<_> = list.service.into_iter().map(|s| s.name).collect();
    assert!(
        names.contains(&"arena.v1.TableReferee".to_string()),
        "{names:?}"
    );
    assert!(
        names.contains(&"grpc.health.v1.Health".to_string()),
        "{names:?}"
    );

    stop.send(()).unwrap();
    server.await.unwrap().unwrap();
}

/// A fake bot-host, and a fresh embedded store whose presence records send bot `legal` to it
/// (the fake host's `legal` bot answers every request legally, as soon as it reads it).
async fn legal_through_presence() -> (
    FakeHost,
    std::net::SocketAddr,
    tempfile::TempDir,
    Arc<dyn Store>,
) {
    let (host, addr) = FakeHost::start().await;
    let (dir, store) = embedded();
    store
        .set_presence("legal", &format!("http://{addr}"), Duration::from_secs(60))
        .await
        .unwrap();
    (host, addr, dir, store)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn remote_seats_are_found_through_presence_or_the_configured_hosts() {
    // The fake host's bots play as their names say: `legal` and `legal@0` both answer legally.
    let (host, addr, _dir, store) = legal_through_presence().await;
    let mut j = job("remote-1", 9);
    j.seats[1].bot = "legal".into();
    // Through presence, no bot-host configured.
    let (result, _) = run_table(&j, &config("r-run"), Some(store.clone()))
        .await
        .unwrap();
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert!(result.decisions[1] > 0);
    // Through the configured address, no store.
    let mut cfg = config("r-run");
    cfg.bot_hosts = vec![addr.to_string()];
    j.seats[1].bot = "legal@0".into();
    let (result, _) = run_table(&j, &cfg, None).await.unwrap();
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert_eq!(host.seated(), ["legal", "legal@0"]);
    // Neither: the referee cannot reach any bot-host; that is the platform's failure, never a
    // verdict: the table is not played (after a short reconnect grace here).
    let mut cfg = config("r-run");
    cfg.reconnect_grace = Duration::from_millis(300);
    let (result, _) = run_table(&j, &cfg, None).await.unwrap();
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert!(
        result.error.contains("interrupted by the platform"),
        "{}",
        result.error
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gdi_batches_on_the_job_stream_are_measured_into_the_library() {
    let (_dir, store) = embedded();
    let batch = v1::GdiBatch {
        operation: "op-1".into(),
        panel: Some(v1::PanelSpec {
            landlords: "ladder:3".into(),
            ..Default::default()
        }),
        seed: 11,
        bombs: None,
        first: 0,
        count: 4,
    };
    let payload = v1::QueuedJob {
        job: Some(v1::queued_job::Job::Gdi(batch.clone())),
    }
    .encode_to_vec();
    store.enqueue_job("op-1-0", &payload).await.unwrap();
    store.enqueue_job("op-1-0-again", &payload).await.unwrap();
    let (stop, handle) = start(config("r-gdi"), store.clone());
    drained(&*store, Duration::from_secs(60)).await;
    stop.send(()).unwrap();
    handle.await.unwrap();
    let panel = arena_games::difficulty::panel_of_spec(batch.panel.as_ref()).unwrap();
    assert_eq!(
        store.deal_count(panel.id()).await.unwrap(),
        4,
        "the rerun batch counted nothing twice"
    );
    let deals = store.deals(panel.id()).await.unwrap();
    assert!(deals.iter().all(|d| d.counts.iter().sum::<u32>() == 3));
}

/// A table the platform interrupts (here: its remote seat's bot-host cannot be reached) is
/// handed back to the queue, counting attempts, and after the last attempt gets an error result
/// that blames no bot; it never gets a verdict.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_the_platform_interrupts_are_played_again_and_never_blamed_on_a_bot() {
    let (_dir, store) = embedded();
    let mut j = job("interrupted", 9);
    j.seats[1].bot = "remote-nowhere".into();
    enqueue(&*store, &[j]).await;
    let cfg = RefereeConfig {
        reconnect_grace: Duration::from_millis(200),
        max_platform_attempts: 3,
        ..config("r-platform")
    };
    let (stop, rx) = oneshot::channel::<()>();
    let referee = tokio::spawn(work(cfg, store.clone(), async {
        let _ = rx.await;
    }));
    let deadline = Instant::now() + Duration::from_secs(60);
    while store.result("interrupted").await.unwrap().is_none() {
        assert!(Instant::now() < deadline, "no result");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let r = result_of(&*store, "interrupted").await;
    assert!(r.verdicts.is_empty(), "{:?}", r.verdicts);
    assert!(r.outcome.is_none());
    assert!(
        r.error.contains("the platform failed 3 times") && r.error.contains("no bot blamed"),
        "{}",
        r.error
    );
    assert_eq!(
        r.labels.get(arena_referee::worker::PLATFORM_ATTEMPTS_LABEL),
        Some(&"2".to_string()),
        "played three times: twice handed back"
    );
    drained(&*store, Duration::from_secs(10)).await;
    let _ = stop.send(());
    let _ = referee.await;
}

/// A referee restarted under the same name (a restarted `arena standalone`) takes up the jobs it
/// held at once, not after `reclaim_after`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_referee_restarted_under_its_name_resumes_its_jobs_at_once() {
    let (_dir, store) = embedded();
    enqueue(&*store, &[job("held-1", 1), job("held-2", 2)]).await;
    // The previous run took both and died.
    for _ in 0..2 {
        store
            .next_job("stable", Duration::from_secs(3600), Duration::ZERO)
            .await
            .unwrap()
            .expect("a job");
    }
    let cfg = RefereeConfig {
        reclaim_after: Duration::from_secs(3600),
        touch_interval: Duration::from_secs(600),
        ..config("stable")
    };
    let (stop, rx) = oneshot::channel::<()>();
    let referee = tokio::spawn(work(cfg, store.clone(), async {
        let _ = rx.await;
    }));
    // Well within the hour reclaim_after would take.
    drained(&*store, Duration::from_secs(60)).await;
    for id in ["held-1", "held-2"] {
        assert!(result_of(&*store, id).await.error.is_empty());
    }
    let _ = stop.send(());
    let _ = referee.await;
}

/// A played table's store write is off the next table's path: with one slot and the first
/// result's write held, the referee still takes and plays the next tables (their results queue
/// behind the held write), and once the write goes through every table is written once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_waiting_for_its_write_does_not_hold_the_next_table_back() {
    let (_dir, inner) = embedded();
    let store = Faulty::new(inner.clone());
    store.gate_puts.store(true, Ordering::SeqCst);
    let jobs: Vec<_> = (0..3).map(|i| job(&format!("queued-{i}"), i)).collect();
    enqueue(&*inner, &jobs).await;
    let (stop, referee) = start(
        RefereeConfig {
            max_tables: 1,
            ..config("one-slot")
        },
        store.clone(),
    );
    // The writer may gather the tables into its first write or start it before the last is
    // taken; either way all three are taken while a write is held, which a slot kept until its
    // table's write went through would never allow.
    until(
        "every table to be taken while the first write is held",
        Duration::from_secs(60),
        || {
            let took = store
                .events()
                .iter()
                .filter(|e| matches!(e, Event::Took(..)))
                .count();
            took == 3 && store.puts_waiting.load(Ordering::SeqCst) == 1
        },
    )
    .await;
    for j in &jobs {
        assert!(
            inner.result(&j.table_id).await.unwrap().is_none(),
            "nothing is written while the write is held"
        );
    }
    store.put_gate.add_permits(3);
    drained(&*inner, Duration::from_secs(60)).await;
    for j in &jobs {
        assert!(
            inner.result(&j.table_id).await.unwrap().is_some(),
            "{}",
            j.table_id
        );
    }
    let _ = stop.send(());
    referee.await.unwrap();
}

/// Which threads entered each table's span (`table_id` → thread names), seen by a layer on the
/// process's subscriber: the background runtime's threads do not share the test's.
#[derive(Clone, Default)]
struct TableThreads(Arc<std::sync::Mutex<BTreeMap<String, BTreeSet<String>>>>);

/// A `table` span's id, kept on the span for [`TableThreads`].
struct SpanTable(String);

impl<S> tracing_subscriber::Layer<S> for TableThreads
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        struct TableId(Option<String>);
        impl tracing::field::Visit for TableId {
            fn record_debug(&mut self, f: &tracing::field::Field, v: &dyn std::fmt::Debug) {
                if f.name() == "table_id" {
                    self.0 = Some(format!("{v:?}"));
                }
            }
        }
        if attrs.metadata().name() != "table" {
            return;
        }
        let mut table = TableId(None);
        attrs.record(&mut table);
        if let (Some(table), Some(span)) = (table.0, ctx.span(id)) {
            span.extensions_mut().insert(SpanTable(table));
        }
    }

    fn on_enter(&self, id: &tracing::span::Id, ctx: tracing_subscriber::layer::Context<'_, S>) {
        let Some(span) = ctx.span(id) else { return };
        if let Some(SpanTable(table)) = span.extensions().get::<SpanTable>() {
            let thread = std::thread::current().name().unwrap_or("").to_string();
            self.0
                .lock()
                .unwrap()
                .entry(table.clone())
                .or_default()
                .insert(thread);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_of_long_time_controls_play_on_background_threads_beside_the_others() {
    use tracing_subscriber::layer::SubscriberExt;
    let threads = TableThreads::default();
    // Global, not scoped to this thread: the tables play on the referee's threads.
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(threads.clone()))
        .expect("no other test in this binary sets the global subscriber");
    let (host, _addr, _dir, store) = legal_through_presence().await;
    // Even tables keep the default 1,000 ms (the background's threshold); odd ones have 500 ms
    // and stay on the referee's runtime. Each has a remote seat.
    let jobs: Vec<_> = (0..12)
        .map(|i| {
            let mut j = job(&format!("cup/bg{i:02}"), i);
            j.seats[(i % 3) as usize].bot = "legal".into();
            if i % 2 == 1 {
                j.time = Some(v1::TimeControl {
                    decision_ms: 500,
                    ..Default::default()
                });
            }
            j
        })
        .collect();
    enqueue(&*store, &jobs).await;
    let (stop, handle) = start(
        RefereeConfig {
            background_from: Some(Duration::from_millis(1_000)),
            // Each table is to be seated once: on a loaded machine a touch late past the test
            // config's 1.5 s would reclaim a table and seat it again, which is not what this
            // test is about.
            reclaim_after: Duration::from_secs(60),
            ..config("r-bg")
        },
        store.clone(),
    );
    drained(&*store, Duration::from_secs(120)).await;
    stop.send(()).unwrap();
    handle.await.unwrap();
    for j in &jobs {
        let r = result_of(&*store, &j.table_id).await;
        assert_eq!((r.error.as_str(), r.referee.as_str()), ("", "r-bg"));
        assert!(r.verdicts.is_empty(), "{}: {:?}", j.table_id, r.verdicts);
        let remote = j.seats.iter().position(|s| s.bot == "legal").unwrap();
        assert!(r.decisions[remote] > 0, "{}", j.table_id);
    }
    assert_eq!(host.seated().len(), jobs.len());
    let threads = threads.0.lock().unwrap();
    for (i, j) in jobs.iter().enumerate() {
        let on = threads
            .get(&j.table_id)
            .unwrap_or_else(|| panic!("{} unseen", j.table_id));
        let background = i % 2 == 0;
        assert!(
            on.iter().all(|t| (t == "referee-background") == background),
            "{} (background: {background}) played on {on:?}",
            j.table_id
        );
    }
}
