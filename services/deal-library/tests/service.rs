//! The deal-library service on an embedded store, with a referee running its GDI batches.

use std::sync::Arc;
use std::time::Duration;

use arena_deal_library::DealLibraryService;
use arena_proto::v1;
use arena_proto::v1::deal_library_server::DealLibrary;
use arena_store::{EmbeddedStore, Store};
use tokio_stream::StreamExt;
use tonic::{Code, Request};

fn panel() -> Option<v1::PanelSpec> {
    Some(v1::PanelSpec {
        landlords: "ladder:5".into(),
        farmers: "expert".into(),
        scoring: String::new(),
        ..Default::default()
    })
}

async fn wait_done(svc: &DealLibraryService, id: &str) -> v1::Operation {
    let mut stream = svc
        .watch_operation(Request::new(v1::GetOperationRequest { id: id.into() }))
        .await
        .unwrap()
        .into_inner();
    let mut last = None;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    while let Ok(Some(op)) = tokio::time::timeout_at(deadline, stream.next()).await {
        let op = op.unwrap();
        if op.done {
            return op;
        }
        last = Some(op);
    }
    panic!("operation {id} did not finish: {last:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn measure_fans_out_to_a_referee_and_the_library_answers() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = DealLibraryService::new(store.clone(), 2);

    let op = svc
        .measure(Request::new(v1::MeasureRequest {
            panel: panel(),
            seed: 4,
            bombs: Some(1),
            count: 300,
            batch: 40,
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (op.kind.as_str(), op.operation_kind(), op.total, op.done),
        ("measure", v1::OperationKind::Measure, 300, false)
    );
    // 300 deals in batches of 40: 8 batches wait on the job stream.
    assert_eq!(store.job_counts().await.unwrap().waiting, 8);
    // Only now does a referee start taking the GDI batches from the job stream.
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let cfg = arena_referee::RefereeConfig {
        referee_id: "gdi-1".into(),
        poll_interval: Duration::from_millis(20),
        ..Default::default()
    };
    let referee = tokio::spawn(arena_referee::work(cfg, store.clone(), async {
        let _ = rx.await;
    }));

    let done = wait_done(&svc, &op.id).await;
    assert_eq!(done.progress, 300);
    assert!(done.error.is_empty(), "{}", done.error);
    let id = arena_deal_library::panel(panel().as_ref())
        .unwrap()
        .id()
        .to_string();
    assert_eq!(store.deal_count(&id).await.unwrap(), 300);

    // Measuring again enqueues nothing: every deal is already there.
    let again = svc
        .measure(Request::new(v1::MeasureRequest {
            panel: panel(),
            seed: 4,
            bombs: Some(1),
            count: 300,
            batch: 40,
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(again.progress, 300);

    // Query: deals within eps of a centre, nearest first; claimed deals are skipped afterwards.
    let q = v1::QueryRequest {
        panel: panel(),
        centre: vec![0.8, 0.4, 0.2],
        eps: 0.4,
        count: 5,
        include_used: false,
    };
    let got = svc
        .query(Request::new(q.clone()))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(got.deals.len(), 5);
    let ids: Vec<String> = got.deals.iter().map(|d| d.id.clone()).collect();
    let dists = distances(&got.deals, &q.centre);
    assert!(dists.iter().all(|&d| d <= q.eps), "{dists:?} beyond ε");
    // The five nearest of the whole library, nearest first.
    let mut library: Vec<(f64, String)> = store
        .deals(&id)
        .await
        .unwrap()
        .iter()
        .map(|r| (distance(&r.gdi, &q.centre), r.id.clone()))
        .collect();
    library.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let nearest: Vec<String> = library.iter().take(5).map(|(_, id)| id.clone()).collect();
    assert_eq!(ids, nearest, "nearest first: {dists:?}");
    assert_eq!(
        got.available,
        library.iter().filter(|(d, _)| *d <= q.eps).count() as u64
    );
    let claim = svc
        .claim(Request::new(v1::ClaimRequest {
            competition: "cup".into(),
            deal_ids: ids.clone(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(claim.claimed, vec![true; 5]);
    let other = svc
        .claim(Request::new(v1::ClaimRequest {
            competition: "league".into(),
            deal_ids: ids.clone(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(other.claimed, vec![false; 5]);
    let after = svc
        .query(Request::new(q.clone()))
        .await
        .unwrap()
        .into_inner();
    assert!(after.deals.iter().all(|d| !ids.contains(&d.id)));
    assert_eq!(after.available, got.available - 5);

    // Export streams every record but those of competitions still running, which the deals of
    // "cup" are until it ends; stats summarise them.
    let export = || async {
        svc.export(Request::new(v1::ExportRequest { panel: panel() }))
            .await
            .unwrap()
            .into_inner()
            .map(|r| r.unwrap())
            .collect::<Vec<v1::DealRecord>>()
            .await
    };
    let exported = export().await;
    assert_eq!(exported.len(), 295);
    assert!(
        exported.iter().all(|d| !ids.contains(&d.id)),
        "cup's deals are withheld"
    );
    let used = v1::QueryRequest {
        include_used: true,
        ..q.clone()
    };
    let with_used = svc
        .query(Request::new(used.clone()))
        .await
        .unwrap()
        .into_inner();
    assert!(
        with_used.deals.iter().all(|d| !ids.contains(&d.id)),
        "not even include_used serves a running competition's deals"
    );
    arena_store::visibility::mark_ended(&*store, "cup", "finished")
        .await
        .unwrap();
    assert_eq!(export().await.len(), 300, "served once cup has ended");
    let with_used = svc.query(Request::new(used)).await.unwrap().into_inner();
    assert_eq!(with_used.available, got.available);
    let stats = svc
        .stats(Request::new(v1::StatsRequest { panel: panel() }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((stats.deals, stats.used, stats.mean.len()), (300, 5, 3));

    let _ = stop.send(());
    let _ = referee.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn find_generates_on_demand_and_bad_requests_name_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = DealLibraryService::new(store.clone(), 2);
    let op = svc
        .find(Request::new(v1::FindRequest {
            panel: panel(),
            centre: vec![0.8, 0.4, 0.2],
            eps: 0.3,
            count: 4,
            bombs: Some(1),
            seed: 9,
            max_tries: 100_000,
        }))
        .await
        .unwrap()
        .into_inner();
    let done = wait_done(&svc, &op.id).await;
    assert_eq!(done.found.len(), 4, "{done:?}");
    assert!(done.tried >= 4);
    let dists = distances(&done.found, &[0.8, 0.4, 0.2]);
    assert!(dists.iter().all(|&d| d <= 0.3), "{dists:?} beyond ε");
    for found in &done.found {
        let stored = store
            .deals(&found.panel)
            .await
            .unwrap()
            .into_iter()
            .find(|r| r.id == found.id)
            .expect("a found deal is in the library");
        assert_eq!(stored.gdi, found.gdi, "{}", found.id);
    }

    let bad = |r: tonic::Status, field: &str| {
        assert_eq!(r.code(), Code::InvalidArgument);
        assert!(r.message().contains(field), "{}", r.message());
    };
    bad(
        svc.measure(Request::new(v1::MeasureRequest {
            count: 10,
            ..Default::default()
        }))
        .await
        .unwrap_err(),
        "panel",
    );
    bad(
        svc.measure(Request::new(v1::MeasureRequest {
            panel: panel(),
            count: 0,
            ..Default::default()
        }))
        .await
        .unwrap_err(),
        "count",
    );
    bad(
        svc.find(Request::new(v1::FindRequest {
            panel: panel(),
            centre: vec![0.5],
            eps: 0.1,
            count: 1,
            ..Default::default()
        }))
        .await
        .unwrap_err(),
        "centre",
    );
    let mut nobody = v1::PanelSpec {
        landlords: "alphago".into(),
        ..Default::default()
    };
    bad(
        svc.stats(Request::new(v1::StatsRequest {
            panel: Some(nobody.clone()),
        }))
        .await
        .unwrap_err(),
        "alphago",
    );
    nobody.landlords.clear();
    bad(
        svc.stats(Request::new(v1::StatsRequest {
            panel: Some(nobody),
        }))
        .await
        .unwrap_err(),
        "panel.landlords",
    );
    let missing = svc
        .get_operation(Request::new(v1::GetOperationRequest { id: "nope".into() }))
        .await
        .unwrap_err();
    assert_eq!(missing.code(), Code::NotFound);
}

/// Long operations have caps (OUT_OF_RANGE naming the field), at most two generations run at
/// once (RESOURCE_EXHAUSTED), and both kinds can be cancelled: a generation stops, a
/// measurement's batches are skipped by the referee.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_operations_are_capped_limited_and_cancellable() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = DealLibraryService::new(store.clone(), 1);
    let out_of_range = |r: tonic::Status, field: &str| {
        assert_eq!(r.code(), Code::OutOfRange, "{r:?}");
        assert!(r.message().starts_with(field), "{}", r.message());
    };
    let measure = |count: u64, batch: u32| v1::MeasureRequest {
        panel: panel(),
        seed: 5,
        bombs: Some(1),
        count,
        batch,
    };
    out_of_range(
        svc.measure(Request::new(measure(u64::MAX, 0)))
            .await
            .unwrap_err(),
        "count",
    );
    out_of_range(
        svc.measure(Request::new(measure(10, u32::MAX)))
            .await
            .unwrap_err(),
        "batch",
    );
    // An unreachable target: the generation runs until cancelled.
    let find = |seed: u64| v1::FindRequest {
        panel: panel(),
        centre: vec![1.0, 1.0, 1.0],
        eps: 1e-9,
        count: 1,
        bombs: Some(1),
        seed,
        max_tries: 1_000_000,
    };
    out_of_range(
        svc.find(Request::new(v1::FindRequest {
            max_tries: u64::MAX,
            ..find(1)
        }))
        .await
        .unwrap_err(),
        "max_tries",
    );
    out_of_range(
        svc.find(Request::new(v1::FindRequest {
            count: u32::MAX,
            ..find(1)
        }))
        .await
        .unwrap_err(),
        "count",
    );
    let first = svc.find(Request::new(find(1))).await.unwrap().into_inner();
    let second = svc.find(Request::new(find(2))).await.unwrap().into_inner();
    let third = svc.find(Request::new(find(3))).await.unwrap_err();
    assert_eq!(third.code(), Code::ResourceExhausted, "{third:?}");
    let cancel = |id: String| {
        let svc = svc.clone();
        async move {
            svc.cancel_operation(Request::new(v1::GetOperationRequest { id }))
                .await
        }
    };
    let c = cancel(first.id.clone()).await.unwrap().into_inner();
    assert!(c.done && c.error == "cancelled", "{c:?}");
    let again = cancel(first.id.clone()).await.unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition);
    cancel(second.id.clone()).await.unwrap();
    // Their worker threads stop; a new generation is accepted once a slot is free.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        match svc.find(Request::new(find(4))).await {
            Ok(op) => {
                cancel(op.into_inner().id).await.unwrap();
                break;
            }
            Err(s) if s.code() == Code::ResourceExhausted => {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "the slots never freed"
                );
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(s) => panic!("{s:?}"),
        }
    }
    let op = svc
        .get_operation(Request::new(v1::GetOperationRequest { id: first.id }))
        .await;
    assert_eq!(
        op.unwrap().into_inner().error,
        "cancelled",
        "stays cancelled"
    );

    // A measurement cancelled before any referee ran it: its batches are skipped, nothing
    // measured.
    let m = svc
        .measure(Request::new(measure(80, 40)))
        .await
        .unwrap()
        .into_inner();
    cancel(m.id.clone()).await.unwrap();
    let cfg = arena_referee::RefereeConfig {
        referee_id: "cancel-test".into(),
        poll_interval: Duration::from_millis(20),
        ..Default::default()
    };
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let referee = tokio::spawn(arena_referee::work(cfg, store.clone(), async {
        let _ = rx.await;
    }));
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while store.job_counts().await.unwrap() != arena_store::JobCounts::default() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the batches were not taken"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let panel_id = arena_deal_library::panel(panel().as_ref())
        .unwrap()
        .id()
        .to_string();
    assert_eq!(
        store.deal_count(&panel_id).await.unwrap(),
        0,
        "nothing measured"
    );
    let _ = stop.send(());
    let _ = referee.await;
}

/// An import is all or nothing: a bad record anywhere writes nothing, and a record that would
/// rewrite a stored deal's difficulty is refused (with the whole import).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imports_are_all_or_nothing_and_never_rewrite_a_deal() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let token = arena_auth::Secret::new("import-test-operator");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let auth = arena_auth::Authenticator::new(Some(store.clone())).with_bootstrap(Some(&token));
    tokio::spawn(arena_deal_library::serve_with_auth(
        listener,
        store.clone(),
        1,
        auth,
        std::future::pending(),
    ));
    let channel = tonic::transport::Endpoint::from_shared(url.clone())
        .unwrap()
        .connect_lazy();
    let client = v1::deal_library_client::DealLibraryClient::with_interceptor(
        channel,
        arena_auth::Bearer::new(Some(&token)),
    );
    let panel_id = arena_deal_library::panel(panel().as_ref())
        .unwrap()
        .id()
        .to_string();
    let record = |i: u64, counts: Vec<u32>| {
        let gdi = arena_games::difficulty::gdi(&counts);
        v1::DealRecord {
            id: format!("i-{i}"),
            deal: arena_games::ddz::rules::Deal::generate(77, i).to_string(),
            panel: panel_id.clone(),
            levels: vec![-2, -1, 1, 2],
            counts,
            gdi,
            ..Default::default()
        }
    };
    let good: Vec<v1::DealRecord> = (0..10).map(|i| record(i, vec![1, 1, 1, 2])).collect();
    let mut with_bad = good.clone();
    with_bad.push(v1::DealRecord {
        deal: "not a deal".into(),
        ..record(10, vec![1, 1, 1, 2])
    });
    let import = |records: Vec<v1::DealRecord>| {
        let mut client = client.clone();
        async move { client.import(tokio_stream::iter(records)).await }
    };
    let e = import(with_bad).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains("record 11") && e.message().contains("nothing was written"));
    assert_eq!(store.deal_count(&panel_id).await.unwrap(), 0);
    let done = import(good.clone()).await.unwrap().into_inner();
    assert_eq!((done.received, done.new), (10, 10));
    // The same records again: nothing new; a changed difficulty: refused, nothing written.
    assert_eq!(import(good.clone()).await.unwrap().into_inner().new, 0);
    let mut rewrite = vec![record(20, vec![1, 1, 1, 1])];
    rewrite.push(record(3, vec![4, 0, 0, 1]));
    let e = import(rewrite).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(e.message().contains("cannot rewrite"), "{e:?}");
    assert_eq!(store.deal_count(&panel_id).await.unwrap(), 10);
    // Without the operator token: refused.
    let mut anonymous = v1::deal_library_client::DealLibraryClient::new(
        tonic::transport::Endpoint::from_shared(url)
            .unwrap()
            .connect_lazy(),
    );
    let e = anonymous
        .export(v1::ExportRequest { panel: panel() })
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);
}

#[tokio::test]
async fn a_batch_larger_than_a_referee_takes_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = DealLibraryService::new(store.clone(), 1);
    let e = svc
        .measure(Request::new(v1::MeasureRequest {
            panel: panel(),
            seed: 4,
            bombs: None,
            count: 10,
            batch: u32::MAX,
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::OutOfRange);
    assert!(
        e.message().starts_with("batch: 4294967295 deals"),
        "{}",
        e.message()
    );
    assert_eq!(
        store.job_counts().await.unwrap().waiting,
        0,
        "nothing was queued"
    );
}

/// Euclidean distance of two GDI vectors of the same dimension.
fn distance(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

/// Each deal's distance from `centre`.
fn distances(deals: &[v1::DealRecord], centre: &[f64]) -> Vec<f64> {
    deals.iter().map(|d| distance(&d.gdi, centre)).collect()
}
