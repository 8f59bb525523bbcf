//! Measurement stops and resumes without losing or repeating a deal, and gives the same GDI
//! whatever the thread count or interruptions.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arena_deals::{MeasureSpec, Progress, build_panel, measure};
use arena_games::ddz::rules::{RuleSet, Scoring};
use arena_store::prelude::*;
use arena_store::{DealSource, EmbeddedStore};

fn spec(count: u64, threads: usize) -> MeasureSpec {
    MeasureSpec {
        panel: build_panel("ladder:10", "expert", "expert", Scoring::Difficulty).unwrap(),
        source: DealSource {
            seed: 3,
            bombs: Some(1),
        },
        count,
        rules: RuleSet::COMPETITION,
        threads,
        batch: 25,
    }
}

async fn gdis(store: &dyn Store, panel: &str) -> BTreeMap<String, Vec<u32>> {
    store
        .deals(panel)
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.id, r.counts))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_measurement_resumes_and_matches_an_uninterrupted_one() {
    let dir_a = tempfile::tempdir().unwrap();
    let dir_b = tempfile::tempdir().unwrap();
    let a = EmbeddedStore::open(dir_a.path()).unwrap();
    let b = EmbeddedStore::open(dir_b.path()).unwrap();
    let s = spec(400, 2);

    // Uninterrupted, one thread.
    let full = measure(
        &a,
        &MeasureSpec {
            threads: 1,
            ..s.clone()
        },
        &Progress::default(),
        &AtomicBool::new(false),
    )
    .await
    .unwrap();
    assert_eq!((full.already, full.measured, full.stopped), (0, 400, false));

    // Interrupted after about 100 deals, then resumed twice.
    let progress = Arc::new(Progress::default());
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = tokio::spawn({
        let (progress, stop) = (progress.clone(), stop.clone());
        async move {
            while progress.deals.load(Ordering::Relaxed) < 100 {
                tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            }
            stop.store(true, Ordering::Relaxed);
        }
    });
    let first = measure(&b, &s, &progress, &stop).await.unwrap();
    stopper.await.unwrap();
    assert!(first.stopped, "{first:?}");
    assert!(first.measured >= 100 && first.measured < 400, "{first:?}");
    let stored = b.deal_count(&s.panel.id).await.unwrap();
    assert_eq!(
        stored, first.measured,
        "everything measured before the stop is stored"
    );

    let second = measure(&b, &s, &Progress::default(), &AtomicBool::new(false))
        .await
        .unwrap();
    assert_eq!(second.already, first.measured);
    assert_eq!(second.already + second.measured, 400);
    assert_eq!(second.games, second.measured * 10, "no deal measured twice");
    let third = measure(&b, &s, &Progress::default(), &AtomicBool::new(false))
        .await
        .unwrap();
    assert_eq!((third.already, third.measured, third.games), (400, 0, 0));

    let indices = b.measured_indices(&s.panel.id, &s.source).await.unwrap();
    assert_eq!(indices, (0..400).collect::<Vec<_>>());
    assert_eq!(
        gdis(&a, &s.panel.id).await,
        gdis(&b, &s.panel.id).await,
        "same GDI per deal"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_larger_count_extends_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let store = EmbeddedStore::open(dir.path()).unwrap();
    let r = measure(
        &store,
        &spec(50, 2),
        &Progress::default(),
        &AtomicBool::new(false),
    )
    .await
    .unwrap();
    assert_eq!(r.measured, 50);
    let r = measure(
        &store,
        &spec(120, 2),
        &Progress::default(),
        &AtomicBool::new(false),
    )
    .await
    .unwrap();
    assert_eq!((r.already, r.measured), (50, 70));
    for rec in store.deals(&spec(1, 1).panel.id).await.unwrap() {
        assert_eq!(rec.counts.iter().sum::<u32>(), 10);
        assert_eq!(rec.levels, [-2, -1, 1, 2]);
        assert_eq!(
            arena_deals::ddz_deal(&rec)
                .unwrap()
                .bombs(arena_games::ddz::rules::Seat::ALL[0]),
            1
        );
    }
}
