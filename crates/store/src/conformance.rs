//! The contract of [`Store`] as executable checks. Every backend runs all of them (see
//! `tests/conformance.rs`); a new backend is conformant when [`run_all`] passes on it.
//!
//! Each check makes its own panels, deal ids, competitions, table ids, bots and consumer names,
//! unique to the call, and looks only at those, so checks do not depend on each other, on their
//! order, or on what else the store holds: they may run against a store shared with other checks
//! or other test runs. The exception is the job queue, of which a store has one: the job checks
//! need a queue no one else uses while they run (each checks that it starts empty, and leaves it
//! empty), so they run one at a time per store.
//!
//! Checks that are about time (reclaim, touch, waiting, presence expiry) use durations of tens
//! to hundreds of milliseconds, and judge "too early" only when they ran in time to tell, so a
//! loaded machine slows them down but does not fail them. They need a tokio runtime with timers.
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
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::{
    BotKind, BotRecord, DealRecord, DealSource, FinishedJob, Game, JobCounts, JobEntry,
    MAX_PRESENCE_TTL, Panel, Store, StoreError, Topic, Watcher,
};

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
        game: Game::LEGACY,
        seats: vec![
            vec![
                "ladder:1/3".into(),
                "ladder:2/3".into(),
                "ladder:3/3".into(),
            ],
            vec!["expert".into()],
            vec!["expert".into()],
        ],
        scoring: "difficulty".into(),
    }
}

/// A measured record of `panel`. The deal is a placeholder text naming the source's seed and
/// `index` (the store never reads a deal); without a source, the record stands for an import.
/// The gdi values are fractions that binary floating point cannot hold exactly, so a store that
/// rounds them fails the comparisons.
pub fn sample_record(panel: &str, id: &str, source: Option<(DealSource, u64)>) -> DealRecord {
    let (seed, index) = source.map_or((0, id.len() as u64), |(s, i)| (s.seed, i));
    DealRecord {
        id: id.to_string(),
        game: Game::LEGACY,
        deal: format!("deal {seed}/{index}"),
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
    jobs_fifo_and_ack(store).await;
    idle_jobs_are_reclaimed(store, store).await;
    touched_jobs_stay(store, store).await;
    next_job_waits(store, store).await;
    consumers_drain_the_queue(&[store, store, store, store], false).await;
    consumers_drain_the_queue(&[store, store, store, store], true).await;
    results_are_written_once(&[store, store, store]).await;
    records_and_swaps(&[store, store, store, store]).await;
    bots_register_once(store).await;
    presence_expires(store).await;
    job_and_result_input_is_rejected(store).await;
    records_are_deleted(store).await;
    results_are_deleted(store).await;
    bots_are_removed(store).await;
    presence_is_claimed_by_one_host(store).await;
    own_jobs_are_resumed(store).await;
    jobs_in_batches(store).await;
    instance_is_stable(store).await;
    watchers_wake_for_their_writes(store, store).await;
    bad_watch_topics_are_refused(store).await;
}

/// Panels: stored, read back equal, replaced by id, listed sorted by id; unknown ids are `None`.
pub async fn panels_round_trip(store: &dyn Store) {
    let a = sample_panel(&unique("panel-a"));
    let mut b = sample_panel(&unique("panel-b"));
    b.scoring = "adp".into();
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
    a2.seats[0].push("ladder:4/4".into());
    a2.seats[1] = vec!["pimc".into()];
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

// ---- Table jobs ----
//
// The job checks need the queue to themselves: each starts by checking it is empty and leaves
// it empty. Judgements about time allow for a slow machine: "not reclaimed before
// `reclaim_after`" is asserted only when the check itself ran in time to tell.

/// The `reclaim_after` of the checks that wait for a reclaim: short, so the suite stays fast.
const RECLAIM: Duration = Duration::from_millis(100);

/// A `reclaim_after` no check waits out: a job taken with it stays with its consumer.
const NEVER: Duration = Duration::from_secs(600);

/// Clock granularity: stores count idle time in whole milliseconds.
const SLACK: Duration = Duration::from_millis(5);

/// How long a check waits for something that must happen before giving up.
const PATIENCE: Duration = Duration::from_secs(30);

/// Panics unless the job queue is empty: the job checks need one of their own.
async fn expect_empty_queue(store: &dyn Store, check: &str) {
    assert_eq!(
        store.job_counts().await.expect("job_counts"),
        JobCounts::default(),
        "{check} needs a job queue no one else uses, and this one holds jobs"
    );
}

async fn expect_counts(store: &dyn Store, waiting: u64, pending: u64, when: &str) {
    assert_eq!(
        store.job_counts().await.expect("job_counts"),
        JobCounts { waiting, pending },
        "job counts {when}"
    );
}

/// The next job for `consumer`, without waiting.
async fn take(store: &dyn Store, consumer: &str, reclaim_after: Duration) -> Option<JobEntry> {
    store
        .next_job(consumer, reclaim_after, Duration::ZERO)
        .await
        .expect("next_job")
}

/// The next job for `consumer`, waiting as long as it takes (up to [`PATIENCE`]).
async fn take_eventually(
    store: &dyn Store,
    consumer: &str,
    reclaim_after: Duration,
    what: &str,
) -> JobEntry {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let job = store
            .next_job(consumer, reclaim_after, Duration::from_millis(50))
            .await
            .expect("next_job");
        if let Some(job) = job {
            return job;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: no job within {PATIENCE:?}"
        );
    }
}

/// The batch calls do what their one-job calls do, for many jobs: `enqueue_jobs` appends in
/// order, `next_jobs` hands out at most `max` (oldest first, reclaimable ones before new ones,
/// with their deliveries counted), `finish_jobs` keeps a table's first result, lists it under its
/// competition and acknowledges every job; `result_count` counts what `results_for` lists. A bad
/// argument anywhere in a batch changes nothing.
pub async fn jobs_in_batches(store: &dyn Store) {
    expect_empty_queue(store, "jobs_in_batches").await;
    let competition = unique("batch-cup");
    // Tables 0 to 3 are the competition's; table 4 is of none (another slot in Redis Cluster).
    let tables: Vec<String> = (0..5)
        .map(|i| match i {
            0..4 => format!("{competition}/batch{i}"),
            _ => unique("batch-unlisted"),
        })
        .collect();
    let payloads: Vec<Vec<u8>> = (0..5u8).map(|i| vec![i; 10 * usize::from(i)]).collect();
    let jobs: Vec<(&str, &[u8])> = tables
        .iter()
        .zip(&payloads)
        .map(|(t, p)| (t.as_str(), p.as_slice()))
        .collect();

    // A bad table id anywhere: nothing is enqueued.
    let mut bad = jobs.clone();
    bad.push(("", b"x"));
    assert!(matches!(
        store.enqueue_jobs(&bad).await,
        Err(StoreError::Invalid(_))
    ));
    expect_counts(store, 0, 0, "after a refused batch").await;

    let ids = store.enqueue_jobs(&jobs).await.expect("enqueue_jobs");
    assert_eq!(ids.len(), 5);
    assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), 5, "{ids:?}");
    expect_counts(store, 5, 0, "after enqueueing five").await;

    let consumer = unique("batch-a");
    let none = store
        .next_jobs(&consumer, 0, NEVER, Duration::ZERO)
        .await
        .expect("next_jobs of none");
    assert!(none.is_empty());
    let first = store
        .next_jobs(&consumer, 3, NEVER, Duration::ZERO)
        .await
        .expect("next_jobs");
    let rest = store
        .next_jobs(&consumer, 10, NEVER, Duration::from_secs(5))
        .await
        .expect("next_jobs");
    assert_eq!(
        (first.len(), rest.len()),
        (3, 2),
        "at most max, then the rest"
    );
    let taken: Vec<JobEntry> = first.into_iter().chain(rest).collect();
    for (n, job) in taken.iter().enumerate() {
        let expected = JobEntry {
            entry_id: ids[n].clone(),
            table_id: tables[n].clone(),
            payload: payloads[n].clone(),
            deliveries: 1,
        };
        assert_eq!(job, &expected, "job {n}, in the order enqueued");
    }
    let empty = store
        .next_jobs(&consumer, 4, NEVER, Duration::ZERO)
        .await
        .expect("next_jobs");
    assert!(empty.is_empty(), "every job delivered: {empty:?}");
    expect_counts(store, 0, 5, "with all five taken").await;

    // Table 0 already has a result (an earlier delivery wrote it): that one stays.
    assert!(
        store
            .put_result(&tables[0], Some(&competition), b"first", b"first replay")
            .await
            .expect("put_result")
    );
    let results: Vec<Vec<u8>> = (0..5u8).map(|i| vec![b'r', i]).collect();
    let replays: Vec<Vec<u8>> = (0..5u8).map(|i| vec![b'p', i]).collect();
    let finished: Vec<FinishedJob<'_>> = (0..5)
        .map(|n| FinishedJob {
            entry_id: &ids[n],
            table_id: &tables[n],
            // The last table belongs to no competition.
            competition: (n < 4).then_some(competition.as_str()),
            result: &results[n],
            replay: &replays[n],
        })
        .collect();

    // A bad table id anywhere: nothing is written or acknowledged.
    let mut bad = finished.clone();
    bad.push(FinishedJob {
        table_id: "",
        ..finished[1]
    });
    assert!(matches!(
        store.finish_jobs(&bad).await,
        Err(StoreError::Invalid(_))
    ));
    assert_eq!(store.result(&tables[1]).await.expect("result"), None);
    expect_counts(store, 0, 5, "after a refused batch").await;

    let written = store.finish_jobs(&finished).await.expect("finish_jobs");
    assert_eq!(written, [false, true, true, true, true]);
    expect_counts(store, 0, 0, "after finishing all").await;
    assert_eq!(
        store.result(&tables[0]).await.expect("result").as_deref(),
        Some(&b"first"[..]),
        "the first result is kept"
    );
    assert_eq!(
        store.replay(&tables[0]).await.expect("replay").as_deref(),
        Some(&b"first replay"[..])
    );
    for n in 1..5 {
        assert_eq!(
            store.result(&tables[n]).await.expect("result"),
            Some(results[n].clone())
        );
        assert_eq!(
            store.replay(&tables[n]).await.expect("replay"),
            Some(replays[n].clone())
        );
    }
    let mut listed = store.results_for(&competition).await.expect("results_for");
    listed.sort();
    let mut want: Vec<(String, Vec<u8>)> = (1..4)
        .map(|n| (tables[n].clone(), results[n].clone()))
        .chain([(tables[0].clone(), b"first".to_vec())])
        .collect();
    want.sort();
    assert_eq!(listed, want, "the competition's four tables, first results");
    assert_eq!(store.result_count(&competition).await.expect("count"), 4);
    assert_eq!(
        store
            .result_count(&unique("batch-none"))
            .await
            .expect("count"),
        0
    );

    // Finishing again changes nothing.
    let again = store.finish_jobs(&finished).await.expect("finish_jobs");
    assert_eq!(again, [false; 5]);
    assert_eq!(store.result_count(&competition).await.expect("count"), 4);
    expect_counts(store, 0, 0, "after finishing twice").await;

    // Jobs idle past reclaim_after are handed to the next caller, deliveries counted.
    let late: Vec<String> = (0..2).map(|i| unique(&format!("batch-late{i}"))).collect();
    let late_jobs: Vec<(&str, &[u8])> = late.iter().map(|t| (t.as_str(), &b"j"[..])).collect();
    let late_ids = store.enqueue_jobs(&late_jobs).await.expect("enqueue_jobs");
    let held = store
        .next_jobs(&consumer, 2, NEVER, Duration::ZERO)
        .await
        .expect("next_jobs");
    assert_eq!(held.len(), 2);
    let reclaim = Duration::from_millis(50);
    let other = unique("batch-b");
    let deadline = Instant::now() + PATIENCE;
    let mut reclaimed = Vec::new();
    while reclaimed.len() < 2 {
        assert!(Instant::now() < deadline, "reclaimed within {PATIENCE:?}");
        reclaimed.extend(
            store
                .next_jobs(
                    &other,
                    2 - reclaimed.len(),
                    reclaim,
                    Duration::from_millis(50),
                )
                .await
                .expect("next_jobs"),
        );
    }
    reclaimed.sort_by(|a, b| a.entry_id.cmp(&b.entry_id));
    let mut late_ids_sorted = late_ids.clone();
    late_ids_sorted.sort();
    let got: Vec<(&str, u64)> = reclaimed
        .iter()
        .map(|j| (j.entry_id.as_str(), j.deliveries))
        .collect();
    let want: Vec<(&str, u64)> = late_ids_sorted.iter().map(|id| (id.as_str(), 2)).collect();
    assert_eq!(got, want, "both reclaimed, each a second delivery");
    for id in &late_ids {
        store.ack_job(id).await.expect("ack");
    }
    expect_counts(store, 0, 0, "after the reclaimed jobs").await;
}

/// Jobs are delivered oldest first, each once, with their table id and payload (any bytes) as
/// enqueued; the same table id enqueued twice is two jobs; `job_counts` follows every step; an
/// acknowledged job is never delivered again (also when acknowledged before anyone took it);
/// acknowledging twice is harmless; a job that is gone cannot be touched.
pub async fn jobs_fifo_and_ack(store: &dyn Store) {
    expect_empty_queue(store, "jobs_fifo_and_ack").await;
    let tables: Vec<String> = (0..5).map(|i| unique(&format!("fifo{i}"))).collect();
    let jobs: Vec<(String, Vec<u8>)> = vec![
        (tables[0].clone(), b"job zero".to_vec()),
        (tables[1].clone(), Vec::new()),
        (tables[2].clone(), (0..=255).collect()),
        (tables[0].clone(), b"job zero, again".to_vec()),
        (tables[3].clone(), vec![0; 100_000]),
        (tables[4].clone(), b"\0\r\n".to_vec()),
    ];
    let mut ids = Vec::new();
    for (table, payload) in &jobs {
        ids.push(store.enqueue_job(table, payload).await.expect("enqueue"));
    }
    assert_eq!(
        ids.iter().collect::<BTreeSet<_>>().len(),
        ids.len(),
        "entry ids are distinct: {ids:?}"
    );
    expect_counts(store, 6, 0, "after enqueueing six").await;

    let (a, b) = (unique("fifo-a"), unique("fifo-b"));
    for (n, (table, payload)) in jobs.iter().enumerate() {
        let consumer = if n % 2 == 0 { &a } else { &b };
        let job = take(store, consumer, NEVER)
            .await
            .unwrap_or_else(|| panic!("job {n} is delivered"));
        let expected = JobEntry {
            entry_id: ids[n].clone(),
            table_id: table.clone(),
            payload: payload.clone(),
            deliveries: 1,
        };
        assert_eq!(job, expected, "job {n}, in the order enqueued");
        let n = n as u64;
        expect_counts(store, 5 - n, n + 1, "while taking them").await;
    }
    assert_eq!(take(store, &a, NEVER).await, None, "every job delivered");

    for id in ids.iter().rev() {
        store.ack_job(id).await.expect("ack");
    }
    expect_counts(store, 0, 0, "after acknowledging all").await;
    store
        .ack_job(&ids[0])
        .await
        .expect("acknowledging twice is harmless");
    expect_invalid(
        "touching a job that is done",
        store.touch_job(&a, &ids[0]).await,
    );
    // Not even a caller that reclaims at once gets a finished job back.
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert_eq!(
        take(store, &b, Duration::from_millis(1)).await,
        None,
        "an acknowledged job is never delivered again"
    );

    // Acknowledged before anyone took it: never delivered.
    let id = store
        .enqueue_job(&tables[0], b"cancelled")
        .await
        .expect("enqueue");
    expect_counts(store, 1, 0, "with one waiting").await;
    store.ack_job(&id).await.expect("ack a waiting job");
    expect_counts(store, 0, 0, "after acknowledging a waiting job").await;
    assert_eq!(take(store, &a, NEVER).await, None);
    let later = store
        .enqueue_job(&tables[1], b"later")
        .await
        .expect("enqueue");
    assert!(
        !ids.contains(&later) && later != id,
        "entry ids are never reused"
    );
    assert_eq!(
        take(store, &a, NEVER).await.map(|job| job.entry_id),
        Some(later.clone())
    );
    store.ack_job(&later).await.expect("ack");
    expect_counts(store, 0, 0, "at the end").await;
}

/// A job its consumer neither acknowledges nor touches is handed to another consumer once
/// `reclaim_after` has passed, not before, with `deliveries` 2; the consumer it was taken from
/// can no longer touch it; acknowledging it ends it for everyone. `a` and `b` may be the same
/// store or two handles of one.
pub async fn idle_jobs_are_reclaimed(a: &dyn Store, b: &dyn Store) {
    expect_empty_queue(a, "idle_jobs_are_reclaimed").await;
    let (ca, cb) = (unique("referee-a"), unique("referee-b"));
    let table = unique("reclaim");
    let id = a.enqueue_job(&table, b"reclaim me").await.expect("enqueue");
    let before = Instant::now();
    let first = take(a, &ca, RECLAIM).await.expect("A takes the job");
    let delivered = Instant::now();
    assert_eq!(
        (first.entry_id.as_str(), first.deliveries),
        (id.as_str(), 1)
    );

    let asked = Instant::now();
    let early = take(b, &cb, RECLAIM).await;
    let answered = Instant::now();
    if early.is_some() {
        assert!(
            answered.duration_since(before) + SLACK >= RECLAIM,
            "reclaimed {:?} after delivery, before reclaim_after {RECLAIM:?}",
            answered.duration_since(before)
        );
    } else {
        assert!(
            asked.duration_since(delivered) < RECLAIM + SLACK,
            "not reclaimed although idle for {:?}",
            asked.duration_since(delivered)
        );
    }
    let second = match early {
        Some(job) => job,
        None => take_eventually(b, &cb, RECLAIM, "reclaim").await,
    };
    assert!(
        before.elapsed() + SLACK >= RECLAIM,
        "reclaimed after {:?}, before reclaim_after {RECLAIM:?}",
        before.elapsed()
    );
    let expected = JobEntry {
        entry_id: id.clone(),
        table_id: table,
        payload: b"reclaim me".to_vec(),
        deliveries: 2,
    };
    assert_eq!(second, expected, "the reclaimed job, delivered twice");
    expect_counts(a, 0, 1, "with the job reclaimed").await;

    expect_invalid(
        "touch by the consumer the job was reclaimed from",
        a.touch_job(&ca, &id).await,
    );
    b.touch_job(&cb, &id)
        .await
        .expect("the new holder touches it");
    b.ack_job(&id).await.expect("ack");
    a.ack_job(&id)
        .await
        .expect("the first holder acknowledging late is harmless");
    expect_counts(a, 0, 0, "after acknowledging").await;
    tokio::time::sleep(RECLAIM + SLACK).await;
    assert_eq!(take(a, &ca, RECLAIM).await, None, "done is done");
}

/// A job its consumer touches more often than `reclaim_after` stays with it however long the
/// table lasts; once the touches stop it is reclaimed, and the touch that comes too late fails.
pub async fn touched_jobs_stay(a: &dyn Store, b: &dyn Store) {
    const R: Duration = Duration::from_millis(300);
    const EVERY: Duration = Duration::from_millis(50);
    expect_empty_queue(a, "touched_jobs_stay").await;
    let (ca, cb) = (unique("toucher"), unique("thief"));
    // A stalled machine can make a touch late through no fault of the store; then the reclaim
    // was right and the round proves nothing, so it is run again.
    for round in 1.. {
        let table = unique("touched");
        let id = a.enqueue_job(&table, b"long table").await.expect("enqueue");
        let mut last_touch = Instant::now();
        take(a, &ca, R).await.expect("A takes the job");
        let start = Instant::now();
        let mut stolen = None;
        while start.elapsed() < R * 3 {
            tokio::time::sleep(EVERY).await;
            if let Some(job) = take(b, &cb, R).await {
                let idle = last_touch.elapsed();
                assert!(
                    idle + SLACK >= R,
                    "reclaimed {idle:?} after a touch, within reclaim_after {R:?}"
                );
                stolen = Some(job);
                break;
            }
            last_touch = Instant::now();
            a.touch_job(&ca, &id).await.expect("A still holds the job");
        }
        if let Some(job) = stolen {
            b.ack_job(&job.entry_id).await.expect("ack");
            assert!(round < 5, "the machine stalls too often to check touches");
            continue;
        }
        expect_counts(a, 0, 1, "while A touches its job").await;

        // A stops touching: reclaimed after reclaim_after, and A's late touch fails.
        let job = take_eventually(b, &cb, R, "reclaim after the touches stop").await;
        assert_eq!((job.entry_id.as_str(), job.deliveries), (id.as_str(), 2));
        assert!(last_touch.elapsed() + SLACK >= R);
        expect_invalid("a touch after the reclaim", a.touch_job(&ca, &id).await);
        b.ack_job(&id).await.expect("ack");
        expect_counts(a, 0, 0, "at the end").await;
        return;
    }
}

/// `next_job` with `block` waits that long for a job and returns `None` if none came; a job
/// enqueued meanwhile (through another handle) is handed over at once, and so is a job whose
/// holder goes idle during the wait.
pub async fn next_job_waits(a: &dyn Store, b: &dyn Store) {
    const BLOCK: Duration = Duration::from_millis(150);
    expect_empty_queue(a, "next_job_waits").await;
    let (ca, cb) = (unique("waiter"), unique("holder"));

    let start = Instant::now();
    assert_eq!(a.next_job(&ca, NEVER, BLOCK).await.expect("next_job"), None);
    let waited = start.elapsed();
    assert!(
        waited + Duration::from_millis(1) >= BLOCK,
        "gave up after {waited:?}, before block {BLOCK:?}"
    );
    assert!(
        waited < BLOCK + Duration::from_secs(5),
        "waited {waited:?} for block {BLOCK:?}"
    );

    let table = unique("wake");
    let ((job, returned), (enqueued, id)) = tokio::join!(
        async {
            let job = a
                .next_job(&ca, NEVER, Duration::from_secs(60))
                .await
                .expect("next_job");
            (job, Instant::now())
        },
        async {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let id = b.enqueue_job(&table, b"wake up").await.expect("enqueue");
            (Instant::now(), id)
        }
    );
    let job = job.expect("the waiting call gets the job enqueued during its wait");
    assert_eq!((&job.entry_id, &job.table_id), (&id, &table));
    let delay = returned.saturating_duration_since(enqueued);
    assert!(
        delay < Duration::from_secs(5),
        "handed over {delay:?} after it was enqueued"
    );
    a.ack_job(&id).await.expect("ack");

    let id = b.enqueue_job(&table, b"orphan").await.expect("enqueue");
    take(b, &cb, RECLAIM).await.expect("the holder takes it");
    let start = Instant::now();
    let job = a
        .next_job(&ca, RECLAIM, Duration::from_secs(60))
        .await
        .expect("next_job")
        .expect("reclaimed during the wait");
    assert_eq!((job.entry_id.as_str(), job.deliveries), (id.as_str(), 2));
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "reclaimed only after {:?}",
        start.elapsed()
    );
    a.ack_job(&id).await.expect("ack");
    expect_counts(a, 0, 0, "at the end").await;
}

/// A `next_job` waiting in one tokio task is handed a job enqueued by another task (through
/// `b`, another handle or the same store) promptly, not when its wait runs out. Must be called
/// within a tokio runtime.
pub async fn next_job_wakes_for_another_tasks_job(a: Arc<dyn Store>, b: Arc<dyn Store>) {
    expect_empty_queue(&*a, "next_job_wakes_for_another_tasks_job").await;
    let consumer = unique("sleeper");
    let waiter = tokio::spawn(async move {
        let job = a
            .next_job(&consumer, NEVER, Duration::from_secs(60))
            .await
            .expect("next_job");
        (job, Instant::now(), a)
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let table = unique("from-another-task");
    let enqueuer = {
        let table = table.clone();
        tokio::spawn(async move {
            let id = b.enqueue_job(&table, b"wake").await.expect("enqueue");
            (id, Instant::now())
        })
    };
    let (id, enqueued) = enqueuer.await.expect("the enqueuing task panicked");
    let (job, returned, a) = waiter.await.expect("the waiting task panicked");
    let job = job.expect("the waiting call gets the job");
    assert_eq!((&job.entry_id, &job.table_id), (&id, &table));
    let delay = returned.saturating_duration_since(enqueued);
    assert!(
        delay < Duration::from_secs(5),
        "handed over {delay:?} after it was enqueued"
    );
    a.ack_job(&id).await.expect("ack");
    expect_counts(&*a, 0, 0, "at the end").await;
}

/// What one consumer of a drain did.
#[derive(Default)]
struct Consumed {
    /// Jobs it finished (result written or found written, then acknowledged), and whether its
    /// `put_result` was the one that wrote.
    finished: Vec<(JobEntry, bool)>,
    /// Jobs it took and then died holding.
    abandoned: Vec<JobEntry>,
}

/// A referee's loop: takes jobs, writes each job's result (the table id's bytes) under
/// `competition`, acknowledges it, until the queue is empty and nothing is pending. With
/// `dies_after`, after finishing that many jobs it takes two more and stops without finishing
/// them, as a referee that crashed.
async fn consume(
    store: &dyn Store,
    consumer: String,
    competition: String,
    reclaim_after: Duration,
    dies_after: Option<usize>,
) -> Consumed {
    let deadline = Instant::now() + PATIENCE;
    let mut consumed = Consumed::default();
    loop {
        assert!(
            Instant::now() < deadline,
            "{consumer}: the queue did not drain within {PATIENCE:?}"
        );
        let job = store
            .next_job(&consumer, reclaim_after, Duration::from_millis(20))
            .await
            .expect("next_job");
        let Some(job) = job else {
            if store.job_counts().await.expect("job_counts") == JobCounts::default() {
                return consumed;
            }
            continue;
        };
        if dies_after.is_some_and(|n| consumed.finished.len() >= n) {
            consumed.abandoned.push(job);
            if consumed.abandoned.len() == 2 {
                return consumed;
            }
            continue;
        }
        let wrote = store
            .put_result(
                &job.table_id,
                Some(&competition),
                job.table_id.as_bytes(),
                &job.payload,
            )
            .await
            .expect("put_result");
        store.ack_job(&job.entry_id).await.expect("ack");
        consumed.finished.push((job, wrote));
    }
}

/// The jobs of a drain: one per table.
struct Drain {
    competition: String,
    tables: Vec<String>,
}

impl Drain {
    async fn enqueue(store: &dyn Store, jobs: usize) -> Drain {
        let competition = unique("drain");
        let tables: Vec<String> = (0..jobs)
            .map(|i| format!("{competition}/drain{i}"))
            .collect();
        for table in &tables {
            store
                .enqueue_job(table, format!("job for {table}").as_bytes())
                .await
                .expect("enqueue");
        }
        Drain {
            competition,
            tables,
        }
    }

    /// Every job was finished, its result written exactly once; without a death, every job was
    /// delivered exactly once; with one, the dead consumer's jobs were delivered again and
    /// finished by others.
    async fn check(&self, store: &dyn Store, consumed: &[Consumed], death: bool) {
        let mut writes: HashMap<&str, usize> = HashMap::new();
        let mut finishes: HashMap<&str, Vec<&JobEntry>> = HashMap::new();
        for (job, wrote) in consumed.iter().flat_map(|c| &c.finished) {
            assert_eq!(
                job.payload,
                format!("job for {}", job.table_id).as_bytes(),
                "payload of {}",
                job.table_id
            );
            finishes.entry(&job.table_id).or_default().push(job);
            if *wrote {
                *writes.entry(&job.table_id).or_default() += 1;
            }
        }
        for table in &self.tables {
            assert_eq!(
                writes.get(table.as_str()),
                Some(&1),
                "{table}: its result written exactly once"
            );
            let finished = &finishes[table.as_str()];
            if !death {
                assert_eq!(finished.len(), 1, "{table} delivered once");
                assert_eq!(finished[0].deliveries, 1, "{table} delivered once");
            }
            // A second finish is only possible after a reclaim.
            if finished.len() > 1 {
                assert!(finished.iter().any(|job| job.deliveries > 1), "{table}");
            }
        }
        assert_eq!(finishes.len(), self.tables.len(), "only the drain's jobs");
        let abandoned: Vec<&JobEntry> = consumed.iter().flat_map(|c| &c.abandoned).collect();
        if death {
            assert_eq!(
                abandoned.len(),
                2,
                "the dying consumer died holding two jobs"
            );
        }
        // Finished by another delivery of the same entry: usually a later one (a reclaim), but
        // on a stalled machine the dead consumer may itself have reclaimed the job from a slow
        // live one, which then finished it under its earlier delivery.
        for job in abandoned {
            assert!(
                finishes[job.table_id.as_str()]
                    .iter()
                    .any(|again| again.entry_id == job.entry_id
                        && again.deliveries != job.deliveries),
                "{}: abandoned, then finished by another delivery",
                job.table_id
            );
        }
        let mut results = store
            .results_for(&self.competition)
            .await
            .expect("results_for");
        results.sort();
        let mut expected: Vec<(String, Vec<u8>)> = self
            .tables
            .iter()
            .map(|t| (t.clone(), t.as_bytes().to_vec()))
            .collect();
        expected.sort();
        assert_eq!(results, expected, "results_for lists every table once");
        expect_counts(store, 0, 0, "after the drain").await;
    }
}

/// Several consumers (one per store handle in `stores`, their calls interleaved) drain 60 jobs:
/// each job is delivered exactly once and its result written exactly once. With `death`, the
/// first consumer dies after five jobs holding two more, and the others, reclaiming after a
/// short `reclaim_after`, still finish every job, each result written exactly once.
pub async fn consumers_drain_the_queue(stores: &[&dyn Store], death: bool) {
    assert!(
        !stores.is_empty(),
        "consumers_drain_the_queue needs a store"
    );
    expect_empty_queue(stores[0], "consumers_drain_the_queue").await;
    let drain = Drain::enqueue(stores[0], 60).await;
    let reclaim_after = if death { RECLAIM } else { NEVER };
    let consumers: Vec<BoxedFuture<'_, Consumed>> = stores
        .iter()
        .enumerate()
        .map(|(n, store)| {
            let dies_after = (death && n == 0).then_some(5);
            Box::pin(consume(
                *store,
                unique(&format!("drainer{n}")),
                drain.competition.clone(),
                reclaim_after,
                dies_after,
            )) as BoxedFuture<'_, Consumed>
        })
        .collect();
    let consumed = join_all(consumers).await;
    drain.check(stores[0], &consumed, death).await;
}

/// As [`consumers_drain_the_queue`], but each consumer runs in its own tokio task, so on a
/// multi-thread runtime they run in parallel. Must be called within a tokio runtime.
pub async fn consumers_drain_the_queue_from_tasks(stores: &[Arc<dyn Store>], death: bool) {
    assert!(
        !stores.is_empty(),
        "consumers_drain_the_queue needs a store"
    );
    expect_empty_queue(&*stores[0], "consumers_drain_the_queue_from_tasks").await;
    let drain = Drain::enqueue(&*stores[0], 60).await;
    let reclaim_after = if death { RECLAIM } else { NEVER };
    let tasks: Vec<_> = stores
        .iter()
        .enumerate()
        .map(|(n, store)| {
            let store = store.clone();
            let consumer = unique(&format!("drainer{n}"));
            let competition = drain.competition.clone();
            let dies_after = (death && n == 0).then_some(5);
            tokio::spawn(async move {
                consume(&*store, consumer, competition, reclaim_after, dies_after).await
            })
        })
        .collect();
    let mut consumed = Vec::new();
    for task in tasks {
        consumed.push(task.await.expect("a consumer task panicked"));
    }
    drain.check(&*stores[0], &consumed, death).await;
}

// ---- Results and replays ----

/// `put_result`: the first write wins; a second returns false and changes nothing (result,
/// replay, listing); results and replays are any bytes, empty included; `results_for` lists
/// exactly the tables written with the competition; of concurrent writers for one table id
/// (through `stores`, interleaved) exactly one is told true, and its result and replay are what
/// is stored.
pub async fn results_are_written_once(stores: &[&dyn Store]) {
    assert!(!stores.is_empty(), "results_are_written_once needs a store");
    let store = stores[0];
    let (c1, c2) = (unique("cup"), unique("league"));
    // A listed table's id is under its competition: t[3] is c2's, the others c1's.
    let t: Vec<String> = (0..4)
        .map(|i| format!("{}/table{i}", if i == 3 { &c2 } else { &c1 }))
        .collect();
    assert_eq!(store.result(&t[0]).await.expect("result"), None);
    assert_eq!(store.replay(&t[0]).await.expect("replay"), None);
    assert!(
        store
            .results_for(&c1)
            .await
            .expect("results_for")
            .is_empty()
    );

    let binary: Vec<u8> = (0..=255).rev().collect();
    assert!(
        store
            .put_result(&t[0], Some(&c1), b"result 0", &binary)
            .await
            .expect("put_result"),
        "the first write"
    );
    assert!(
        !store
            .put_result(&t[0], Some(&c1), b"another result", b"another replay")
            .await
            .expect("put_result again"),
        "a second write is refused"
    );
    expect_invalid(
        "a table listed under a competition it is not under",
        store
            .put_result(&t[0], Some(&c2), b"another result", b"another replay")
            .await,
    );
    assert_eq!(
        store.result(&t[0]).await.expect("result"),
        Some(b"result 0".to_vec())
    );
    assert_eq!(store.replay(&t[0]).await.expect("replay"), Some(binary));
    assert!(
        store
            .results_for(&c2)
            .await
            .expect("results_for")
            .is_empty(),
        "the refused write listed nothing"
    );

    assert!(
        store
            .put_result(&t[1], Some(&c1), b"", b"")
            .await
            .expect("empty")
    );
    assert_eq!(store.result(&t[1]).await.expect("result"), Some(Vec::new()));
    assert_eq!(store.replay(&t[1]).await.expect("replay"), Some(Vec::new()));
    assert!(
        store
            .put_result(&t[2], None, b"unlisted", b"r")
            .await
            .expect("put")
    );
    assert!(
        !store
            .put_result(&t[2], Some(&c1), b"listed now?", b"r")
            .await
            .expect("put")
    );
    let mut listed = store.results_for(&c1).await.expect("results_for");
    listed.sort();
    let mut expected = vec![
        (t[0].clone(), b"result 0".to_vec()),
        (t[1].clone(), Vec::new()),
    ];
    expected.sort();
    assert_eq!(listed, expected, "results_for({c1})");

    // A race for one table id.
    let writers: Vec<BoxedFuture<'_, bool>> = (0..8)
        .map(|n| {
            let store = stores[n % stores.len()];
            let table = t[3].clone();
            let competition = c2.clone();
            Box::pin(async move {
                let result = format!("result by writer {n}");
                let replay = format!("replay by writer {n}");
                store
                    .put_result(
                        &table,
                        Some(&competition),
                        result.as_bytes(),
                        replay.as_bytes(),
                    )
                    .await
                    .expect("put_result")
            }) as BoxedFuture<'_, bool>
        })
        .collect();
    let won = join_all(writers).await;
    let winners: Vec<usize> = (0..won.len()).filter(|&n| won[n]).collect();
    assert_eq!(winners.len(), 1, "exactly one writer wins: {won:?}");
    let n = winners[0];
    assert_eq!(
        store.result(&t[3]).await.expect("result"),
        Some(format!("result by writer {n}").into_bytes())
    );
    assert_eq!(
        store.replay(&t[3]).await.expect("replay"),
        Some(format!("replay by writer {n}").into_bytes()),
        "the winner's replay goes with the winner's result"
    );
    assert_eq!(
        store.results_for(&c2).await.expect("results_for"),
        vec![(t[3].clone(), format!("result by writer {n}").into_bytes())]
    );
}

// ---- Bots ----

/// A remote bot with a token hash.
pub fn sample_bot(name: &str) -> BotRecord {
    BotRecord {
        name: name.to_string(),
        kind: BotKind::Remote,
        token_sha256: Some("0123456789abcdef".repeat(4)),
        max_tables: 4,
        created_unix_ms: 1_700_000_000_000,
        decision_ms: 0,
        later_decision_ms: 0,
    }
}

/// Bots: registered once (a taken name is refused and the record kept), replaced only when
/// known, read back equal, listed sorted by name; bad records are refused.
pub async fn bots_register_once(store: &dyn Store) {
    let (a, b) = (unique("bot-a"), unique("bot-b"));
    assert_eq!(store.bot(&a).await.expect("bot"), None);
    let bot_a = sample_bot(&a);
    let bot_b = BotRecord {
        kind: BotKind::Program {
            game: Game::named("second-game"),
            command: "python3 bot.py --fast".into(),
            workdir: Some("/srv/bots/b".into()),
            cpu_seconds: 10,
            memory_mb: 512,
        },
        token_sha256: None,
        ..sample_bot(&b)
    };
    assert!(store.add_bot(&bot_a).await.expect("add"), "a free name");
    assert!(store.add_bot(&bot_b).await.expect("add"), "a free name");
    let mut impostor = sample_bot(&a);
    impostor.token_sha256 = Some("f".repeat(64));
    assert!(
        !store.add_bot(&impostor).await.expect("add again"),
        "a taken name is refused"
    );
    assert_eq!(
        store.bot(&a).await.expect("bot"),
        Some(bot_a.clone()),
        "kept"
    );

    let mut rotated = bot_a.clone();
    rotated.token_sha256 = Some("ABCDEF0123456789".repeat(4));
    rotated.max_tables = 0;
    assert!(store.update_bot(&rotated).await.expect("update"));
    assert_eq!(store.bot(&a).await.expect("bot"), Some(rotated.clone()));
    let ghost = sample_bot(&unique("ghost"));
    assert!(
        !store.update_bot(&ghost).await.expect("update unknown"),
        "an unknown bot is not updated"
    );
    assert_eq!(
        store.bot(&ghost.name).await.expect("bot"),
        None,
        "nor added"
    );

    let all = store.bots().await.expect("bots");
    let names: Vec<&str> = all.iter().map(|bot| bot.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted, "bots() is sorted by name");
    let mine: Vec<&BotRecord> = all
        .iter()
        .filter(|bot| bot.name == a || bot.name == b)
        .collect();
    assert_eq!(mine, vec![&rotated, &bot_b]);

    for (what, bot) in [
        ("empty bot name", sample_bot("")),
        ("bot name with a newline", sample_bot("a\nb")),
        (
            "short token hash",
            BotRecord {
                token_sha256: Some("abc".into()),
                ..sample_bot(&unique("bad"))
            },
        ),
        (
            "token hash that is not hex",
            BotRecord {
                token_sha256: Some("z".repeat(64)),
                ..sample_bot(&unique("bad"))
            },
        ),
        (
            "blank command",
            BotRecord {
                kind: BotKind::Program {
                    game: Game::LEGACY,
                    command: "  ".into(),
                    workdir: None,
                    cpu_seconds: 0,
                    memory_mb: 0,
                },
                ..sample_bot(&unique("bad"))
            },
        ),
    ] {
        expect_invalid(what, store.add_bot(&bot).await);
        expect_invalid(what, store.update_bot(&bot).await);
        if !bot.name.is_empty() && !bot.name.contains('\n') {
            assert_eq!(store.bot(&bot.name).await.expect("bot"), None, "{what}");
        }
    }
    expect_invalid("bot(\"\")", store.bot("").await);
}

// ---- Presence ----

/// Presence: a host is listed until its TTL runs out, then not; another host of the same bot
/// and the same host of another bot are separate; the latest `set_presence` decides (it
/// extends and shortens); `clear_presence` removes at once and is harmless when repeated.
pub async fn presence_expires(store: &dyn Store) {
    const SHORT: Duration = Duration::from_millis(150);
    const LONG: Duration = Duration::from_secs(600);
    let (bot, other) = (unique("present"), unique("elsewhere"));
    let (h1, h2) = ("10.0.0.1:7000".to_string(), unique("bot-host-2"));
    assert!(store.presence(&bot).await.expect("presence").is_empty());

    let start = Instant::now();
    store
        .set_presence(&bot, &h1, SHORT)
        .await
        .expect("set presence");
    let h1_set = Instant::now();
    store.set_presence(&bot, &h2, LONG).await.expect("set");
    store.set_presence(&other, &h1, LONG).await.expect("set");
    let hosts = store.presence(&bot).await.expect("presence");
    if start.elapsed() < SHORT {
        let mut both = vec![h1.clone(), h2.clone()];
        both.sort();
        assert_eq!(hosts, both, "both hosts are listed");
    } else {
        assert!(hosts.contains(&h2), "{hosts:?}");
    }

    tokio::time::sleep((h1_set + SHORT + SLACK).saturating_duration_since(Instant::now())).await;
    assert_eq!(
        store.presence(&bot).await.expect("presence"),
        vec![h2.clone()],
        "{h1} expired"
    );
    assert_eq!(
        store.presence(&other).await.expect("presence"),
        vec![h1.clone()],
        "{h1} still holds the other bot"
    );

    // Refreshed: back, and then shortened again: gone once the short TTL runs out.
    store.set_presence(&bot, &h1, LONG).await.expect("refresh");
    assert_eq!(store.presence(&bot).await.expect("presence").len(), 2);
    store.set_presence(&bot, &h1, SHORT).await.expect("shorten");
    let shortened = Instant::now();
    tokio::time::sleep((shortened + SHORT + SLACK).saturating_duration_since(Instant::now())).await;
    assert_eq!(
        store.presence(&bot).await.expect("presence"),
        vec![h2.clone()],
        "the latest set_presence decides"
    );

    store.clear_presence(&bot, &h2).await.expect("clear");
    assert!(store.presence(&bot).await.expect("presence").is_empty());
    store
        .clear_presence(&bot, &h2)
        .await
        .expect("clearing twice is harmless");
    store
        .clear_presence(&unique("never-present"), &h1)
        .await
        .expect("clearing what never was is harmless");
    store.clear_presence(&other, &h1).await.expect("clear");
    assert!(store.presence(&other).await.expect("presence").is_empty());

    expect_invalid(
        "zero ttl",
        store.set_presence(&bot, &h1, Duration::ZERO).await,
    );
    expect_invalid(
        "ttl beyond the longest",
        store
            .set_presence(&bot, &h1, MAX_PRESENCE_TTL + Duration::from_secs(1))
            .await,
    );
    expect_invalid("empty host", store.set_presence(&bot, "", LONG).await);
    expect_invalid("empty bot", store.set_presence("", &h1, LONG).await);
    expect_invalid("presence(\"\")", store.presence("").await);
    expect_invalid(
        "clear with an empty host",
        store.clear_presence(&bot, "").await,
    );
    assert!(
        store.presence(&bot).await.expect("presence").is_empty(),
        "nothing written by refused calls"
    );
}

/// Bad input to the job, result and presence calls is refused with [`StoreError::Invalid`]
/// and changes nothing. Leaves the job queue as it found it.
pub async fn job_and_result_input_is_rejected(store: &dyn Store) {
    let before = store.job_counts().await.expect("job_counts");
    let consumer = unique("strict");
    expect_invalid("empty table id", store.enqueue_job("", b"x").await);
    expect_invalid(
        "table id with a newline",
        store.enqueue_job("a\nb", b"x").await,
    );
    expect_invalid(
        "empty consumer",
        store.next_job("", NEVER, Duration::ZERO).await,
    );
    expect_invalid(
        "zero reclaim_after",
        store
            .next_job(&consumer, Duration::ZERO, Duration::ZERO)
            .await,
    );
    for id in ["", "not-an-id", "12 34", "-1"] {
        expect_invalid(&format!("ack_job({id:?})"), store.ack_job(id).await);
        expect_invalid(
            &format!("touch_job({id:?})"),
            store.touch_job(&consumer, id).await,
        );
    }
    assert_eq!(
        store.job_counts().await.expect("job_counts"),
        before,
        "no job written"
    );

    let table = unique("strict-table");
    expect_invalid(
        "empty table id",
        store.put_result("", None, b"r", b"p").await,
    );
    expect_invalid(
        "empty competition",
        store.put_result(&table, Some(""), b"r", b"p").await,
    );
    assert_eq!(
        store.result(&table).await.expect("result"),
        None,
        "nothing written"
    );
    expect_invalid("result(\"\")", store.result("").await);
    expect_invalid("replay(\"\")", store.replay("").await);
    expect_invalid("results_for(\"\")", store.results_for("").await);
}

/// Records: put replaces, get and list see it, kinds do not mix, and a swap happens only from the
/// expected value — with several racing swappers exactly one wins.
pub async fn records_and_swaps(stores: &[&dyn Store]) {
    let store = stores[0];
    let (kind, other) = (unique("kind"), unique("other"));
    assert_eq!(store.record(&kind, "a").await.unwrap(), None);
    assert!(store.records(&kind).await.unwrap().is_empty());
    store.put_record(&kind, "b", b"two").await.unwrap();
    store.put_record(&kind, "a", b"one").await.unwrap();
    store.put_record(&other, "a", b"elsewhere").await.unwrap();
    store.put_record(&kind, "a", b"uno").await.unwrap();
    assert_eq!(
        store.record(&kind, "a").await.unwrap().as_deref(),
        Some(&b"uno"[..])
    );
    assert_eq!(
        store.records(&kind).await.unwrap(),
        vec![
            ("a".to_string(), b"uno".to_vec()),
            ("b".to_string(), b"two".to_vec())
        ]
    );
    assert!(
        !store
            .swap_record(&kind, "a", Some(b"one"), b"x")
            .await
            .unwrap(),
        "stale expectation"
    );
    assert!(
        !store.swap_record(&kind, "a", None, b"x").await.unwrap(),
        "expects absent, is present"
    );
    assert!(
        store
            .swap_record(&kind, "a", Some(b"uno"), b"dos")
            .await
            .unwrap()
    );
    assert!(store.swap_record(&kind, "c", None, b"new").await.unwrap());
    assert_eq!(
        store.record(&kind, "c").await.unwrap().as_deref(),
        Some(&b"new"[..])
    );
    assert!(matches!(
        store.put_record("", "a", b"v").await,
        Err(StoreError::Invalid(_))
    ));

    // Racing transitions from the same state: exactly one wins.
    store.put_record(&kind, "race", b"running").await.unwrap();
    let kind = &kind;
    let racers: Vec<BoxedFuture<'_, bool>> = stores
        .iter()
        .enumerate()
        .map(|(i, s)| -> BoxedFuture<'_, bool> {
            Box::pin(async move {
                s.swap_record(
                    kind,
                    "race",
                    Some(b"running"),
                    format!("finished-{i}").as_bytes(),
                )
                .await
                .unwrap()
            })
        })
        .collect();
    let wins = join_all(racers).await;
    assert_eq!(wins.iter().filter(|w| **w).count(), 1, "{wins:?}");
}

// ---- Deleting records, removing bots, claiming presence, resuming jobs, the instance ----

/// A deleted record is gone (and deleting it again says so); other records stay.
pub async fn records_are_deleted(store: &dyn Store) {
    let kind = unique("deleted-kind");
    store.put_record(&kind, "a", b"1").await.expect("put");
    store.put_record(&kind, "b", b"2").await.expect("put");
    assert!(store.delete_record(&kind, "a").await.expect("delete"));
    assert!(!store.delete_record(&kind, "a").await.expect("delete again"));
    assert_eq!(store.record(&kind, "a").await.expect("read"), None);
    assert_eq!(
        store.records(&kind).await.expect("records"),
        vec![("b".to_string(), b"2".to_vec())]
    );
    expect_invalid("empty kind", store.delete_record("", "a").await);
}

/// Deleted results and replays are gone with their listing; others of the same competition stay;
/// deleting again counts nothing; a deleted table may be written afresh.
pub async fn results_are_deleted(store: &dyn Store) {
    let cup = unique("pruned-cup");
    let t: Vec<String> = (0..3).map(|i| format!("{cup}/pruned{i}")).collect();
    for (i, id) in t.iter().enumerate() {
        assert!(
            store
                .put_result(id, Some(&cup), format!("r{i}").as_bytes(), b"replay")
                .await
                .expect("put")
        );
    }
    let gone = vec![t[0].clone(), t[2].clone(), format!("{cup}/never-written")];
    assert_eq!(
        store
            .delete_results(Some(&cup), &gone)
            .await
            .expect("delete"),
        2
    );
    for id in [&t[0], &t[2]] {
        assert_eq!(store.result(id).await.expect("result"), None);
        assert_eq!(store.replay(id).await.expect("replay"), None);
    }
    assert_eq!(
        store.results_for(&cup).await.expect("results_for"),
        vec![(t[1].clone(), b"r1".to_vec())]
    );
    assert_eq!(
        store.replay(&t[1]).await.expect("replay"),
        Some(b"replay".to_vec())
    );
    assert_eq!(
        store
            .delete_results(Some(&cup), &gone)
            .await
            .expect("again"),
        0
    );
    assert_eq!(store.delete_results(None, &[]).await.expect("nothing"), 0);
    assert!(
        store
            .put_result(&t[0], Some(&cup), b"again", b"replay")
            .await
            .expect("put")
    );
    assert_eq!(store.results_for(&cup).await.expect("results_for").len(), 2);
    let unlisted = unique("pruned-unlisted");
    assert!(
        store
            .put_result(&unlisted, None, b"u", b"u")
            .await
            .expect("put")
    );
    assert_eq!(
        store
            .delete_results(None, std::slice::from_ref(&unlisted))
            .await
            .expect("unlisted"),
        1
    );
    assert_eq!(store.result(&unlisted).await.expect("result"), None);
    expect_invalid(
        "empty table id",
        store.delete_results(Some(&cup), &[String::new()]).await,
    );
    expect_invalid(
        "a table not under the competition",
        store
            .delete_results(Some(&cup), &[t[1].clone(), unlisted.clone()])
            .await,
    );
    assert_eq!(
        store.results_for(&cup).await.expect("results_for").len(),
        2,
        "a refused deletion deletes nothing"
    );
}

/// A removed bot is unknown and present nowhere; removing it again says it was not there; its
/// name can be registered afresh.
pub async fn bots_are_removed(store: &dyn Store) {
    let bot = sample_bot(&unique("removed"));
    assert!(store.add_bot(&bot).await.expect("add"));
    store
        .set_presence(&bot.name, "host-r", Duration::from_secs(60))
        .await
        .expect("presence");
    assert!(store.remove_bot(&bot.name).await.expect("remove"));
    assert_eq!(store.bot(&bot.name).await.expect("bot"), None);
    assert!(
        store
            .presence(&bot.name)
            .await
            .expect("presence")
            .is_empty()
    );
    assert!(!store.remove_bot(&bot.name).await.expect("remove again"));
    assert!(store.add_bot(&bot).await.expect("register again"));
    assert!(store.remove_bot(&bot.name).await.expect("remove"));
    expect_invalid("empty name", store.remove_bot("").await);
}

/// One host at a time claims a bot: a second host is told who holds it; the holder may claim
/// again (refreshing); once the holder's record expires or is cleared, another host gets it.
pub async fn presence_is_claimed_by_one_host(store: &dyn Store) {
    const SHORT: Duration = Duration::from_millis(150);
    const LONG: Duration = Duration::from_secs(600);
    let bot = unique("claimed");
    let (h1, h2) = (unique("claim-host-1"), unique("claim-host-2"));
    assert_eq!(
        store.claim_presence(&bot, &h1, SHORT).await.expect("claim"),
        None
    );
    let claimed = Instant::now();
    let other = store.claim_presence(&bot, &h2, LONG).await.expect("claim");
    if claimed.elapsed() < SHORT {
        assert_eq!(other, Some(h1.clone()), "the first host holds it");
        assert_eq!(
            store.presence(&bot).await.expect("presence"),
            vec![h1.clone()]
        );
    }
    tokio::time::sleep((claimed + SHORT + SLACK).saturating_duration_since(Instant::now())).await;
    assert_eq!(
        store.claim_presence(&bot, &h2, LONG).await.expect("claim"),
        None,
        "an expired holder does not block another host"
    );
    assert_eq!(
        store
            .claim_presence(&bot, &h2, LONG)
            .await
            .expect("refresh"),
        None,
        "the holder claims again"
    );
    assert_eq!(
        store.claim_presence(&bot, &h1, LONG).await.expect("claim"),
        Some(h2.clone())
    );
    store.clear_presence(&bot, &h2).await.expect("clear");
    assert_eq!(
        store.claim_presence(&bot, &h1, LONG).await.expect("claim"),
        None
    );
    store.clear_presence(&bot, &h1).await.expect("clear");
    expect_invalid(
        "zero ttl",
        store.claim_presence(&bot, &h1, Duration::ZERO).await,
    );
    expect_invalid("empty host", store.claim_presence(&bot, "", LONG).await);
}

/// The jobs pending for a consumer come back to it at once (deliveries counted), no one else's
/// do, and an acknowledged job does not. Leaves the queue empty.
pub async fn own_jobs_are_resumed(store: &dyn Store) {
    expect_empty_queue(store, "own_jobs_are_resumed").await;
    let (mine, theirs) = (unique("resumer"), unique("bystander"));
    let tables: Vec<String> = (0..3).map(|i| unique(&format!("resume{i}"))).collect();
    let mut ids = Vec::new();
    for t in &tables {
        ids.push(store.enqueue_job(t, t.as_bytes()).await.expect("enqueue"));
    }
    let first = take(store, &mine, NEVER).await.expect("a job");
    let second = take(store, &mine, NEVER).await.expect("a job");
    let third = take(store, &theirs, NEVER).await.expect("a job");
    store.ack_job(&first.entry_id).await.expect("ack");
    let resumed = store.resume_jobs(&mine, 10).await.expect("resume");
    assert_eq!(
        resumed,
        vec![JobEntry {
            deliveries: 2,
            ..second.clone()
        }],
        "only the unacknowledged job of this consumer"
    );
    assert!(
        store
            .resume_jobs(&mine, 0)
            .await
            .expect("resume")
            .is_empty()
    );
    assert!(
        store
            .resume_jobs(&unique("nobody"), 10)
            .await
            .expect("resume")
            .is_empty()
    );
    store
        .touch_job(&mine, &second.entry_id)
        .await
        .expect("still held");
    for id in [&second.entry_id, &third.entry_id] {
        store.ack_job(id).await.expect("ack");
    }
    expect_counts(store, 0, 0, "after resuming").await;
}

/// The instance record: opened twice, the same id; checked, whole; checked against another id,
/// data loss.
pub async fn instance_is_stable(store: &dyn Store) {
    let id = store.open_instance().await.expect("open");
    assert!(!id.is_empty());
    assert_eq!(store.open_instance().await.expect("open again"), id);
    store.check_instance(&id).await.expect("whole");
    match store.check_instance("i-someone-else").await {
        Err(StoreError::DataLoss(m)) => assert!(m.contains("i-someone-else"), "{m}"),
        other => panic!("expected DataLoss, got {other:?}"),
    }
}

/// Waits for `watcher`'s next change; panics naming `what` if none comes within a bound far
/// beyond any delivery (a missed change, not a slow one).
async fn woken(watcher: &mut Watcher, what: &str) {
    if tokio::time::timeout(Duration::from_secs(30), watcher.changed())
        .await
        .is_err()
    {
        panic!("{what}: the watcher was not woken");
    }
}

/// The store-level watch ([`crate::Watch`]): a write through `b` wakes a watcher of its topic
/// made on `a` (another handle; with Redis, another connection), and once woken the watcher's
/// reader finds the write; a write of another topic, or one that changes nothing, wakes none.
pub async fn watchers_wake_for_their_writes(a: &dyn Store, b: &dyn Store) {
    let competition = unique("watch");
    let (kind, panel, bot) = (
        unique("watch-kind"),
        unique("watch-panel"),
        unique("watch-bot"),
    );
    // Once a write of the probe's topic is heard, `a` is listening: watchers made from here on
    // miss nothing, and wake for nothing else.
    let mut probe = a.watch(&Topic::Records(kind.clone())).expect("watch");
    b.put_record(&kind, "probe", b"1")
        .await
        .expect("put_record");
    woken(&mut probe, "put_record (probe)").await;

    let mut results = a
        .watch(&Topic::Results(competition.clone()))
        .expect("watch");
    let mut any_results = a.watch(&Topic::AnyResults).expect("watch");
    let mut records = a.watch(&Topic::Records(kind.clone())).expect("watch");
    let mut deals = a.watch(&Topic::Deals(panel.clone())).expect("watch");
    let mut presence = a.watch(&Topic::Presence).expect("watch");
    let idle = a
        .watch(&Topic::Results(unique("watch-idle")))
        .expect("watch");

    let table = format!("{competition}/t0");
    assert!(
        b.put_result(&table, Some(&competition), b"r", b"p")
            .await
            .expect("put_result")
    );
    woken(&mut results, "put_result").await;
    woken(&mut any_results, "put_result (any competition)").await;
    assert_eq!(a.result_count(&competition).await.expect("count"), 1);

    assert!(
        b.swap_record(&kind, "k", None, b"v")
            .await
            .expect("swap_record")
    );
    woken(&mut records, "swap_record").await;
    assert_eq!(
        a.record(&kind, "k").await.expect("record"),
        Some(b"v".to_vec())
    );
    assert!(b.delete_record(&kind, "k").await.expect("delete_record"));
    woken(&mut records, "delete_record").await;

    let new = b
        .put_deals(&[sample_record(&panel, "d0", None)])
        .await
        .expect("put_deals");
    assert_eq!(new, 1);
    woken(&mut deals, "put_deals").await;
    assert_eq!(a.deal_count(&panel).await.expect("count"), 1);

    let ttl = Duration::from_secs(60);
    assert_eq!(
        b.claim_presence(&bot, "host-1", ttl).await.expect("claim"),
        None
    );
    woken(&mut presence, "claim_presence").await;
    b.clear_presence(&bot, "host-1").await.expect("clear");
    woken(&mut presence, "clear_presence").await;

    // A result written already changes nothing: its watcher stays asleep. The probe's write
    // comes after it, so once the probe wakes, any signal of the repeat has arrived too.
    assert!(
        !b.put_result(&table, Some(&competition), b"again", b"p")
            .await
            .expect("put_result again")
    );
    b.put_record(&kind, "probe", b"2")
        .await
        .expect("put_record");
    woken(&mut probe, "put_record (probe)").await;
    assert!(
        !results.has_changed(),
        "a result already written wakes no watcher"
    );
    assert!(
        !idle.has_changed(),
        "writes of other topics wake no watcher"
    );

    // A watcher made after a write is not woken by it: its reader reads after making it, and
    // finds the write.
    let late_table = format!("{competition}/t1");
    b.put_result(&late_table, Some(&competition), b"r", b"p")
        .await
        .expect("put_result");
    let _late = a
        .watch(&Topic::Results(competition.clone()))
        .expect("watch");
    assert_eq!(a.result_count(&competition).await.expect("count"), 2);
}

/// Bad topics are refused, naming what is wrong.
pub async fn bad_watch_topics_are_refused(store: &dyn Store) {
    for topic in [
        Topic::Results(String::new()),
        Topic::Records("a\nb".into()),
        Topic::Deals("x".repeat(crate::watch::MAX_TOPIC_BYTES + 1)),
    ] {
        match store.watch(&topic) {
            Err(StoreError::Invalid(why)) => assert!(why.contains("watched"), "{why}"),
            other => panic!("{topic:?}: expected Invalid, got {other:?}"),
        }
    }
}
