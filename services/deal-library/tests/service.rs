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
        (op.kind.as_str(), op.total, op.done),
        ("measure", 300, false)
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
    let id = arena_referee::gdi::panel_of(&panel().unwrap()).unwrap().id;
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
    let after = svc.query(Request::new(q)).await.unwrap().into_inner();
    assert!(after.deals.iter().all(|d| !ids.contains(&d.id)));
    assert_eq!(after.available, got.available - 5);

    // Export streams every record; stats summarise them.
    let exported: Vec<v1::DealRecord> = svc
        .export(Request::new(v1::ExportRequest { panel: panel() }))
        .await
        .unwrap()
        .into_inner()
        .map(|r| r.unwrap())
        .collect()
        .await;
    assert_eq!(exported.len(), 300);
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
    assert_eq!(e.code(), Code::InvalidArgument);
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
