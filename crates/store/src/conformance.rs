//! The contract of [`Store`] as executable checks. Every backend runs all of them (see
//! `tests/conformance.rs`); a new backend is conformant when [`run_all`] passes on it.
//!
//! Each check makes its own panels, deal ids and competitions, unique to the call, and looks
//! only at those, so checks do not depend on each other, on their order, or on what else the
//! store holds: they may run against a store shared with other checks or other test runs.
//!
//! # Panics
//!
//! Every check panics, with a message saying what was expected, when the store breaks the
//! contract or fails a call. These are test helpers.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::Poll;
use std::time::{SystemTime, UNIX_EPOCH};

use ddz::{Deal, Scoring};

use crate::{DealRecord, DealSource, Panel, Store, StoreError};

/// A name no other check (in this process or another) will use: `{tag}-{time}-{pid}-{n}`.
pub fn unique(tag: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!(
        "{tag}-{nanos:x}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A panel with three landlord bots.
pub fn sample_panel(id: &str) -> Panel {
    Panel {
        id: id.to_string(),
        landlords: vec![
            "ladder:1/3".into(),
            "ladder:2/3".into(),
            "ladder:3/3".into(),
        ],
        down: "expert".into(),
        up: "expert".into(),
        scoring: Scoring::Difficulty,
    }
}

/// A measured record of `panel`. With a source, the deal is that source's deal `index` (the
/// constraint is not checked: the store does not care); without one, it stands for an import.
/// The gdi values are fractions that binary floating point cannot hold exactly, so a store that
/// rounds them fails the comparisons.
pub fn sample_record(panel: &str, id: &str, source: Option<(DealSource, u64)>) -> DealRecord {
    let (seed, index) = source.map_or((0, id.len() as u64), |(s, i)| (s.seed, i));
    DealRecord {
        id: id.to_string(),
        deal: Deal::generate(seed, index),
        source,
        panel: panel.to_string(),
        levels: vec![-4, -2, 2, 4],
        counts: vec![1, 2, 3, (index % 50) as u32],
        gdi: vec![1.0 / 3.0, 0.1 + 0.2, 2.0 / 7.0 + index as f64 * 1e-9],
    }
}

/// The record of deal `index` of `source`, measured by `panel`, with the id the deal library
/// gives it.
pub fn generated(panel: &str, source: DealSource, index: u64) -> DealRecord {
    sample_record(panel, &source.deal_id(index), Some((source, index)))
}

fn ids(records: &[DealRecord]) -> BTreeSet<String> {
    records.iter().map(|r| r.id.clone()).collect()
}

/// Runs every check on `store`.
pub async fn run_all(store: &dyn Store) {
    panels_round_trip(store).await;
    put_deals_is_idempotent(store).await;
    deals_and_indices_are_consistent(store).await;
    invalid_input_is_rejected(store).await;
    claims(store).await;
    concurrent_claims(&[store, store, store, store]).await;
    large_batch(store).await;
}

/// Panels: stored, read back equal, replaced by id, listed sorted by id; unknown ids are `None`.
pub async fn panels_round_trip(store: &dyn Store) {
    let a = sample_panel(&unique("panel-a"));
    let mut b = sample_panel(&unique("panel-b"));
    b.scoring = Scoring::Adp;
    assert_eq!(
        store.panel(&a.id).await.expect("panel"),
        None,
        "not stored yet"
    );
    store.put_panel(&a).await.expect("put panel a");
    store.put_panel(&b).await.expect("put panel b");
    assert_eq!(store.panel(&a.id).await.expect("panel"), Some(a.clone()));
    assert_eq!(store.panel(&b.id).await.expect("panel"), Some(b.clone()));

    // Same id again: replaced, not duplicated.
    let mut a2 = a.clone();
    a2.landlords.push("ladder:4/4".into());
    a2.down = "pimc".into();
    store.put_panel(&a2).await.expect("replace panel a");
    assert_eq!(store.panel(&a.id).await.expect("panel"), Some(a2.clone()));

    let all = store.panels().await.expect("panels");
    let all_ids: Vec<&str> = all.iter().map(|p| p.id.as_str()).collect();
    let mut sorted = all_ids.clone();
    sorted.sort_unstable();
    assert_eq!(all_ids, sorted, "panels() is sorted by id");
    let mine: Vec<&Panel> = all
        .iter()
        .filter(|p| p.id == a.id || p.id == b.id)
        .collect();
    assert_eq!(mine.len(), 2, "each panel listed once: {all_ids:?}");
    assert!(
        mine.contains(&&a2) && mine.contains(&&b),
        "listed as last stored"
    );
    assert_eq!(
        store.panel(&unique("no-such-panel")).await.expect("panel"),
        None
    );
}

/// `put_deals` counts only new records: a batch written twice is stored once; a record written
/// again with other contents is left as it was; duplicates within one batch count once.
pub async fn put_deals_is_idempotent(store: &dyn Store) {
    let panel = unique("idem");
    let source = DealSource {
        seed: 11,
        bombs: None,
    };
    let mut batch: Vec<DealRecord> = (0..40).map(|i| generated(&panel, source, i)).collect();
    batch.push(sample_record(&panel, "i-import-1", None));
    batch.push(sample_record(&panel, "i-import-2", None));

    assert_eq!(store.put_deals(&batch).await.expect("first write"), 42);
    assert_eq!(store.deal_count(&panel).await.expect("count"), 42);
    assert_eq!(
        store.put_deals(&batch).await.expect("second write"),
        0,
        "nothing new"
    );
    assert_eq!(
        store.deal_count(&panel).await.expect("count"),
        42,
        "not double counted"
    );
    assert_eq!(store.deals(&panel).await.expect("deals").len(), 42);

    // Half old, half new; an old record with different measurements does not replace the stored one.
    let mut changed = batch[0].clone();
    changed.counts = vec![9, 9, 9, 9];
    let mut overlap = vec![changed];
    overlap.extend((40..60).map(|i| generated(&panel, source, i)));
    overlap.extend(batch[1..20].iter().cloned());
    assert_eq!(store.put_deals(&overlap).await.expect("overlap"), 20);
    assert_eq!(store.deal_count(&panel).await.expect("count"), 62);
    assert_eq!(
        store.deal(&panel, &batch[0].id).await.expect("deal"),
        Some(batch[0].clone()),
        "the first write of a record stands"
    );

    // The same new record twice in one batch counts once.
    let twice = vec![generated(&panel, source, 60), generated(&panel, source, 60)];
    assert_eq!(store.put_deals(&twice).await.expect("duplicates"), 1);
    assert_eq!(store.deal_count(&panel).await.expect("count"), 63);
    assert_eq!(store.put_deals(&[]).await.expect("empty batch"), 0);
    let indices = store
        .measured_indices(&panel, &source)
        .await
        .expect("indices");
    assert_eq!(indices, (0..61).collect::<Vec<u64>>());
}

/// `deals`, `deal`, `deal_count` and `measured_indices` agree, per panel and per source: two
/// panels (one id a prefix of the other) and three sources (two differing only in their bomb
/// constraint) never mix; imported deals are listed but not measured indices; indices far apart
/// come back exact and ascending.
pub async fn deals_and_indices_are_consistent(store: &dyn Store) {
    let p1 = unique("cons");
    let p2 = format!("{p1}x");
    let sources = [
        DealSource {
            seed: 5,
            bombs: None,
        },
        DealSource {
            seed: 5,
            bombs: Some(1),
        },
        DealSource {
            seed: 6,
            bombs: Some(0),
        },
    ];
    let spread = [
        0,
        1,
        7,
        8,
        65_535,
        65_536,
        65_537,
        200_001,
        1 << 32,
        (1 << 40) + 3,
    ];
    let mut expected: HashMap<(String, DealSource), Vec<u64>> = HashMap::new();
    let mut batch = Vec::new();
    // p1: every source, different index sets; p2: source 0 only, other indices.
    for (s, source) in sources.iter().enumerate() {
        let indices: Vec<u64> = spread.iter().skip(s).map(|i| i + s as u64).collect();
        for &i in indices.iter().rev() {
            batch.push(generated(&p1, *source, i));
        }
        expected.insert((p1.clone(), *source), indices);
    }
    let p2_indices = vec![3, 4, 70_000];
    for &i in &p2_indices {
        batch.push(generated(&p2, sources[0], i));
    }
    expected.insert((p2.clone(), sources[0]), p2_indices);
    expected.insert((p2.clone(), sources[1]), vec![]);
    expected.insert((p2.clone(), sources[2]), vec![]);
    let imports = [
        sample_record(&p1, "i-aaaa", None),
        sample_record(&p1, "i-bbbb", None),
        sample_record(&p2, "i-aaaa", None),
    ];
    batch.extend(imports.iter().cloned());
    // Written in two batches, interleaved, so order of arrival does not matter.
    let (odd, even): (Vec<_>, Vec<_>) = batch
        .iter()
        .cloned()
        .enumerate()
        .partition(|(i, _)| i % 2 == 1);
    let odd: Vec<DealRecord> = odd.into_iter().map(|(_, r)| r).collect();
    let even: Vec<DealRecord> = even.into_iter().map(|(_, r)| r).collect();
    let written =
        store.put_deals(&odd).await.expect("odd") + store.put_deals(&even).await.expect("even");
    assert_eq!(written, batch.len());

    for panel in [&p1, &p2] {
        let mine: Vec<&DealRecord> = batch.iter().filter(|r| &r.panel == panel).collect();
        let listed = store.deals(panel).await.expect("deals");
        assert_eq!(listed.len(), mine.len(), "deals({panel})");
        let by_id: BTreeMap<&str, &DealRecord> =
            listed.iter().map(|r| (r.id.as_str(), r)).collect();
        for record in &mine {
            assert_eq!(
                by_id.get(record.id.as_str()),
                Some(record),
                "deals({panel}) holds {}",
                record.id
            );
            assert_eq!(
                store.deal(panel, &record.id).await.expect("deal").as_ref(),
                Some(*record),
                "deal({panel}, {})",
                record.id
            );
        }
        assert_eq!(
            store.deal_count(panel).await.expect("count"),
            mine.len() as u64
        );
    }
    for ((panel, source), indices) in &expected {
        assert_eq!(
            &store
                .measured_indices(panel, source)
                .await
                .expect("indices"),
            indices,
            "measured_indices({panel}, {source:?})"
        );
    }
    // The imports are deals of their panels, but no source's indices.
    assert_eq!(
        ids(&store.deals(&p2).await.expect("deals"))
            .iter()
            .filter(|id| id.starts_with("i-"))
            .count(),
        1
    );
    assert_eq!(
        store.deal(&p2, "i-bbbb").await.expect("deal"),
        None,
        "i-bbbb is p1's only"
    );

    // Nothing for a panel or source never written.
    let empty = unique("empty");
    assert_eq!(store.deal_count(&empty).await.expect("count"), 0);
    assert!(store.deals(&empty).await.expect("deals").is_empty());
    assert!(
        store
            .measured_indices(&empty, &sources[0])
            .await
            .expect("indices")
            .is_empty()
    );
    let other = DealSource {
        seed: 5,
        bombs: Some(2),
    };
    assert!(
        store
            .measured_indices(&p1, &other)
            .await
            .expect("indices")
            .is_empty()
    );
}

fn expect_invalid<T: std::fmt::Debug>(what: &str, result: Result<T, StoreError>) {
    match result {
        Err(StoreError::Invalid(message)) => assert!(!message.is_empty(), "{what}: empty message"),
        other => panic!("{what}: expected StoreError::Invalid, got {other:?}"),
    }
}

/// Bad input is refused with [`StoreError::Invalid`], and a batch with one bad record writes
/// nothing at all.
pub async fn invalid_input_is_rejected(store: &dyn Store) {
    let panel = unique("invalid");
    expect_invalid("empty panel id", store.put_panel(&sample_panel("")).await);
    expect_invalid(
        "panel id with a newline",
        store.put_panel(&sample_panel("a\nb")).await,
    );
    expect_invalid("panel(\"\")", store.panel("").await);
    expect_invalid("deals(\"\")", store.deals("").await);
    expect_invalid("deal_count(\"\")", store.deal_count("").await);
    expect_invalid("deal(p, \"\")", store.deal(&panel, "").await);

    let good = sample_record(&panel, "i-good", None);
    let mut bad = Vec::new();
    let mut r = good.clone();
    r.panel.clear();
    bad.push(("empty panel", r));
    let mut r = good.clone();
    r.id.clear();
    bad.push(("empty deal id", r));
    let mut r = good.clone();
    r.counts.pop();
    bad.push(("counts shorter than levels", r));
    let mut r = good.clone();
    r.gdi.push(0.5);
    bad.push(("one gdi value too many", r));
    let mut r = good.clone();
    r.gdi[1] = f64::NAN;
    bad.push(("NaN gdi", r));
    let mut r = good.clone();
    r.gdi[0] = f64::INFINITY;
    bad.push(("infinite gdi", r));
    for (what, record) in bad {
        let batch = vec![good.clone(), record];
        expect_invalid(what, store.put_deals(&batch).await);
        assert_eq!(
            store.deal_count(&panel).await.expect("count"),
            0,
            "{what}: nothing written"
        );
        assert_eq!(
            store.deal(&panel, "i-good").await.expect("deal"),
            None,
            "{what}: nothing written"
        );
    }

    let deal = unique("d-invalid");
    expect_invalid(
        "empty competition",
        store.claim_deals("", std::slice::from_ref(&deal)).await,
    );
    expect_invalid(
        "empty deal id",
        store.claim_deals("c", &[deal.clone(), String::new()]).await,
    );
    assert!(
        !store.used_deals().await.expect("used").contains_key(&deal),
        "nothing claimed"
    );
    assert_eq!(
        store.claim_deals("c", &[]).await.expect("empty claim"),
        Vec::<bool>::new()
    );
}

/// Claims: the first competition to claim a deal holds it; claiming again is true for the holder
/// and false for anyone else; `used_deals` names the holder.
pub async fn claims(store: &dyn Store) {
    let (c1, c2) = (unique("comp-1"), unique("comp-2"));
    let d: Vec<String> = (0..4).map(|i| unique(&format!("deal{i}"))).collect();

    assert_eq!(
        store.claim_deals(&c1, &d[0..2]).await.expect("claim"),
        vec![true, true]
    );
    assert_eq!(
        store.claim_deals(&c1, &d[0..2]).await.expect("reclaim"),
        vec![true, true]
    );
    assert_eq!(
        store
            .claim_deals(&c2, &[d[1].clone(), d[2].clone(), d[0].clone()])
            .await
            .expect("claim"),
        vec![false, true, false]
    );
    // A deal listed twice in one claim: held either way.
    assert_eq!(
        store
            .claim_deals(&c1, &[d[3].clone(), d[3].clone(), d[2].clone()])
            .await
            .expect("claim"),
        vec![true, true, false]
    );
    let used = store.used_deals().await.expect("used");
    for (deal, holder) in [(&d[0], &c1), (&d[1], &c1), (&d[2], &c2), (&d[3], &c1)] {
        assert_eq!(used.get(deal), Some(holder), "holder of {deal}");
    }
}

/// A boxed future borrowing the store.
type BoxedFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Polls every future until all are done, interleaving them, and returns their outputs in order.
async fn join_all<T>(mut futures: Vec<BoxedFuture<'_, T>>) -> Vec<T> {
    let mut outputs: Vec<Option<T>> = futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (future, output) in futures.iter_mut().zip(outputs.iter_mut()) {
            if output.is_none() {
                match future.as_mut().poll(cx) {
                    Poll::Ready(value) => *output = Some(value),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outputs.into_iter().flatten().collect()
}

/// A claim race: the deals, and per competition the order and batch size it claims them in.
struct Race {
    deals: Vec<String>,
    claimers: Vec<(String, Vec<String>, usize)>,
}

impl Race {
    fn new(claimers: usize) -> Race {
        let deals: Vec<String> = (0..300).map(|i| unique(&format!("race{i}"))).collect();
        let claimers = (0..claimers.max(2))
            .map(|n| {
                // Each competition claims in its own order, in batches of its own size.
                let mut order = deals.clone();
                order.rotate_left(n * 37 % deals.len());
                if n % 2 == 1 {
                    order.reverse();
                }
                (unique(&format!("racer{n}")), order, 10 + n * 7)
            })
            .collect();
        Race { deals, claimers }
    }

    /// Checks what each claimer was told (in claimer order) against `used_deals`.
    async fn check(&self, store: &dyn Store, results: &[Vec<(String, bool)>]) {
        let used = store.used_deals().await.expect("used");
        let mut holders: HashMap<&str, &str> = HashMap::new();
        for ((competition, _, _), results) in self.claimers.iter().zip(results) {
            assert_eq!(results.len(), self.deals.len(), "an answer for every deal");
            for (deal, held) in results {
                let holder = used.get(deal).map(String::as_str);
                assert!(holder.is_some(), "{deal} is claimed");
                if *held {
                    if let Some(other) = holders.insert(deal, competition) {
                        assert_eq!(
                            other,
                            competition.as_str(),
                            "{deal} given to two competitions"
                        );
                    }
                    assert_eq!(
                        holder,
                        Some(competition.as_str()),
                        "used_deals names the winner of {deal}"
                    );
                } else {
                    assert_ne!(
                        holder,
                        Some(competition.as_str()),
                        "{deal} refused to its holder"
                    );
                }
            }
        }
        assert_eq!(
            holders.len(),
            self.deals.len(),
            "every deal has exactly one winner"
        );
    }
}

/// Claims `order` for `competition`, `batch` deals per call; what each deal's claim answered.
async fn claim_in_batches(
    store: &dyn Store,
    competition: &str,
    order: &[String],
    batch: usize,
) -> Vec<(String, bool)> {
    let mut results = Vec::new();
    for chunk in order.chunks(batch) {
        let held = store.claim_deals(competition, chunk).await.expect("claim");
        assert_eq!(held.len(), chunk.len(), "one answer per deal");
        results.extend(chunk.iter().cloned().zip(held));
    }
    results
}

/// Several competitions claim the same deals at once, each through its own handle of `stores`
/// (pass the same store several times, or several handles of one backend), in different orders
/// and overlapping batches, their calls interleaved: every deal ends up held by exactly one
/// competition, the one `used_deals` names, and no claim says true to two competitions.
pub async fn concurrent_claims(stores: &[&dyn Store]) {
    assert!(!stores.is_empty(), "concurrent_claims needs a store");
    let race = Race::new(stores.len() * 2);
    let claims: Vec<BoxedFuture<'_, Vec<(String, bool)>>> = race
        .claimers
        .iter()
        .enumerate()
        .map(|(n, (competition, order, batch))| {
            let store = stores[n % stores.len()];
            Box::pin(claim_in_batches(store, competition, order, *batch))
                as BoxedFuture<'_, Vec<(String, bool)>>
        })
        .collect();
    let results = join_all(claims).await;
    race.check(stores[0], &results).await;
}

/// As [`concurrent_claims`], but each competition claims from its own tokio task, so on a
/// multi-thread runtime the claims run in parallel. Must be called within a tokio runtime.
pub async fn concurrent_claims_from_tasks(stores: &[Arc<dyn Store>]) {
    assert!(
        !stores.is_empty(),
        "concurrent_claims_from_tasks needs a store"
    );
    let race = Race::new(stores.len() * 2);
    let tasks: Vec<_> = race
        .claimers
        .iter()
        .enumerate()
        .map(|(n, (competition, order, batch))| {
            let store = stores[n % stores.len()].clone();
            let (competition, order, batch) = (competition.clone(), order.clone(), *batch);
            tokio::spawn(
                async move { claim_in_batches(&*store, &competition, &order, batch).await },
            )
        })
        .collect();
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.expect("a claiming task panicked"));
    }
    race.check(&*stores[0], &results).await;
}

/// One batch of 20,000 records, written in scrambled order, all stored and listed; the measured
/// indices come back sorted.
pub async fn large_batch(store: &dyn Store) {
    const N: u64 = 20_000;
    let panel = unique("large");
    let source = DealSource {
        seed: 77,
        bombs: Some(1),
    };
    // 7919 is prime and does not divide N, so this visits every index once, out of order.
    let batch: Vec<DealRecord> = (0..N)
        .map(|i| generated(&panel, source, i * 7919 % N))
        .collect();
    assert_eq!(
        store.put_deals(&batch).await.expect("large batch"),
        N as usize
    );
    assert_eq!(store.deal_count(&panel).await.expect("count"), N);
    assert_eq!(
        store
            .measured_indices(&panel, &source)
            .await
            .expect("indices"),
        (0..N).collect::<Vec<u64>>()
    );
    let listed = store.deals(&panel).await.expect("deals");
    assert_eq!(ids(&listed), ids(&batch));
    assert_eq!(store.put_deals(&batch).await.expect("again"), 0);
}
