//! Dou Dizhu's GDI measurement on the fast path: every panel landlord plays the deal
//! in-process, many deals in parallel, results written to the store in batches so a measurement
//! can stop at any point and resume without losing or repeating a deal; [`find()`] generates
//! fresh deals near a target difficulty. The game's [`crate::Difficulty`] hook
//! ([`DdzDifficulty`]) is how services reach it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use arena_store::{DealRecord, DealSource, Store, StoreError};

use crate::ddz::builtin::Bot;
use crate::ddz::levels::{gdi, level_of, score_levels};
use crate::ddz::library::{LIBRARY_GAME, LIBRARY_RULES};
use crate::ddz::panel::{DdzPanel, PanelError, check_builtin};
use crate::ddz::play::{self as runner, Buffers};
use crate::ddz::rules::{Deal, DealConstraint, GameConfig, RuleSet, Seat};
use crate::difficulty::{FindTarget, Measurer, MeasuringPanel};
/// The counters of a measurement and the test of a record against a target are the same for
/// every game.
pub use crate::difficulty::{Progress, within};

pub mod find;

pub use find::{FindSpec, find};

/// Why a measurement stopped early.
#[derive(Debug, thiserror::Error)]
pub enum MeasureError {
    /// The panel is not usable.
    #[error(transparent)]
    Panel(#[from] PanelError),
    /// The store failed; everything written before is kept.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// No deal could be generated for the constraint.
    #[error(transparent)]
    Deal(#[from] crate::ddz::rules::DealError),
    /// A built-in bot played illegally (a bug in that bot).
    #[error(transparent)]
    Run(#[from] runner::RunError),
    /// A game ended on a score that is not one of the deal's levels (a scoring bug).
    #[error("deal {deal}: landlord score {score} is not one of the levels {levels:?}")]
    UnexpectedScore {
        /// The deal id.
        deal: String,
        /// The score.
        score: i64,
        /// The levels.
        levels: Vec<i64>,
    },
    /// A worker thread died.
    #[error("a measuring thread failed: {0}")]
    Worker(String),
}

/// One thread's panel: the bots of every table, reused deal after deal.
pub struct PanelBots {
    panel: DdzPanel,
    landlords: Vec<Box<dyn Bot>>,
    down: Box<dyn Bot>,
    up: Box<dyn Bot>,
    moves: Buffers,
    config: GameConfig,
}

fn build(name: &str) -> Result<Box<dyn Bot>, PanelError> {
    check_builtin(name)?
        .build_builtin()
        .ok_or_else(|| PanelError::NotBuiltin(name.to_string()))
}

/// The seed of table `table` on deal `index` of `source`: independent of threads and order.
pub fn table_seed(source: &DealSource, index: u64, table: usize) -> u64 {
    let mut z =
        source.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (table as u64).rotate_left(40);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a cut-off measurement decided.
#[derive(Debug)]
pub enum Cutoff {
    /// Fully measured.
    Measured(DealRecord),
    /// Stopped after `tables` tables: the GDI can no longer come within ε of the centre.
    Rejected {
        /// Tables played before rejecting.
        tables: usize,
    },
}

impl PanelBots {
    /// Builds every table's bots.
    pub fn new(panel: &DdzPanel, rules: RuleSet) -> Result<PanelBots, PanelError> {
        Ok(PanelBots {
            panel: panel.clone(),
            landlords: panel
                .landlords
                .iter()
                .map(|n| build(n))
                .collect::<Result<_, _>>()?,
            down: build(&panel.down)?,
            up: build(&panel.up)?,
            moves: Buffers::new(),
            config: GameConfig {
                rules,
                ..GameConfig::fixed_landlord()
            },
        })
    }

    /// Plays table `k` on `deal` and returns the landlord's score.
    fn play_table(&mut self, deal: Deal, seed: u64, k: usize) -> Result<i64, MeasureError> {
        let mut seats: [&mut dyn Bot; 3] =
            [&mut *self.landlords[k], &mut *self.down, &mut *self.up];
        let game = runner::play_game(self.config, deal, seed, &mut seats, &mut self.moves)?;
        let o = game
            .outcome()
            .ok_or_else(|| MeasureError::Worker("unfinished game".into()))?;
        Ok(o.landlord_score(self.panel.scoring))
    }

    /// Measures deal `index` of `source`: every landlord plays it once.
    pub fn measure(&mut self, source: &DealSource, index: u64) -> Result<DealRecord, MeasureError> {
        match self.measure_until(source, index, None)? {
            Cutoff::Measured(r) => Ok(r),
            Cutoff::Rejected { .. } => unreachable!("no cut-off without a target"),
        }
    }

    /// Measures deal `index` of `source`, giving up as soon as its GDI provably cannot end within
    /// `eps` of `centre` (when a target is given). Tables are played in an interleaved order
    /// (weakest, strongest, middle, …) so the bounds tighten fast.
    pub fn measure_until(
        &mut self,
        source: &DealSource,
        index: u64,
        target: Option<(&[f64], f64)>,
    ) -> Result<Cutoff, MeasureError> {
        let deal = Deal::generate_with(
            source.seed,
            index,
            &DealConstraint {
                bombs: source.bombs,
            },
        )?;
        let id = source.deal_id(index);
        let levels = score_levels(self.panel.scoring, deal.bombs(Seat::ALL[0]));
        let mut counts = vec![0u32; levels.len()];
        let n = self.landlords.len();
        let order = interleaved(n);
        for (played, &k) in order.iter().enumerate() {
            let score = self.play_table(deal, table_seed(source, index, k), k)?;
            let level = level_of(&levels, score).ok_or_else(|| MeasureError::UnexpectedScore {
                deal: id.clone(),
                score,
                levels: levels.clone(),
            })?;
            counts[level] += 1;
            if let Some((centre, eps)) = target
                && played + 1 < n
                && lower_bound(&counts, n, centre) > eps
            {
                return Ok(Cutoff::Rejected { tables: played + 1 });
            }
        }
        Ok(Cutoff::Measured(DealRecord {
            id,
            game: LIBRARY_GAME,
            deal: deal.to_string(),
            source: Some((*source, index)),
            panel: self.panel.id.clone(),
            gdi: gdi(&counts),
            levels,
            counts,
        }))
    }
}

/// Weakest, strongest, then midpoints: a ladder's spread is sampled early.
fn interleaved(n: usize) -> Vec<usize> {
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut push = |k: usize, order: &mut Vec<usize>| {
        if k < n && !seen[k] {
            seen[k] = true;
            order.push(k);
        }
    };
    if n > 0 {
        push(0, &mut order);
        push(n - 1, &mut order);
    }
    let mut step = n.next_power_of_two();
    while step > 1 {
        step /= 2;
        let mut k = step;
        while k < n {
            push(k, &mut order);
            k += 2 * step;
        }
    }
    for k in 0..n {
        push(k, &mut order);
    }
    order
}

/// The smallest distance to `centre` any completion of the partial `counts` (out of `n` tables)
/// can reach: each g_j lies between "every remaining table below j+1" and "every remaining table
/// at or above j+1".
fn lower_bound(counts: &[u32], n: usize, centre: &[f64]) -> f64 {
    let played: u32 = counts.iter().sum();
    let remaining = n as f64 - f64::from(played);
    let mut above = played;
    let mut sq = 0.0;
    for (j, &c) in counts[..counts.len().saturating_sub(1)].iter().enumerate() {
        above -= c;
        let lo = f64::from(above) / n as f64;
        let hi = (f64::from(above) + remaining) / n as f64;
        let target = centre.get(j).copied().unwrap_or(0.0);
        let d = if target < lo {
            lo - target
        } else if target > hi {
            target - hi
        } else {
            0.0
        };
        sq += d * d;
    }
    // Dimensions the deal lacks count fully (different bomb counts never match).
    for &t in centre.iter().skip(counts.len().saturating_sub(1)) {
        sq += t * t;
    }
    if counts.len().saturating_sub(1) > centre.len() {
        return f64::INFINITY;
    }
    sq.sqrt()
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct MeasureSpec {
    /// The panel.
    pub panel: DdzPanel,
    /// Where the deals come from.
    pub source: DealSource,
    /// Deals `0..count` of the source.
    pub count: u64,
    /// Rule set.
    pub rules: RuleSet,
    /// Worker threads.
    pub threads: usize,
    /// Records per store write.
    pub batch: usize,
}

/// What a measurement did.
#[derive(Copy, Clone, Debug, serde::Serialize)]
pub struct MeasureReport {
    /// Deals already measured before this run (skipped).
    pub already: u64,
    /// Deals measured and stored by this run.
    pub measured: u64,
    /// Games played by this run.
    pub games: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// True if the run was stopped before finishing.
    pub stopped: bool,
}

/// Worker threads on the fast path, each with its own [`PanelBots`], taking work items 0, 1, 2,
/// … from a shared cursor until `work` says there is none left (`None`) or `halt` is set. Shared
/// by [`measure`] and [`find()`]: only what one item means differs.
pub(crate) struct Workers<T> {
    /// Every item's result, in the order they finish.
    pub(crate) results: tokio::sync::mpsc::Receiver<Result<T, MeasureError>>,
    /// Set to make the workers stop after their current item.
    pub(crate) halt: Arc<AtomicBool>,
    cursor: Arc<AtomicU64>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl<T: Send + 'static> Workers<T> {
    /// Starts `threads` workers (at least one) with room for `capacity` unread results.
    pub(crate) fn spawn(
        panel: &DdzPanel,
        rules: RuleSet,
        threads: usize,
        capacity: usize,
        work: impl Fn(&mut PanelBots, u64) -> Option<Result<T, MeasureError>> + Send + Sync + 'static,
    ) -> Workers<T> {
        let cursor = Arc::new(AtomicU64::new(0));
        let halt = Arc::new(AtomicBool::new(false));
        let (tx, results) = tokio::sync::mpsc::channel(capacity.max(1));
        let work = Arc::new(work);
        let threads = (0..threads.max(1))
            .map(|_| {
                let (cursor, halt, tx, work, panel) = (
                    cursor.clone(),
                    halt.clone(),
                    tx.clone(),
                    work.clone(),
                    panel.clone(),
                );
                std::thread::spawn(move || {
                    let mut bots = match PanelBots::new(&panel, rules) {
                        Ok(b) => b,
                        Err(e) => {
                            let _ = tx.blocking_send(Err(e.into()));
                            return;
                        }
                    };
                    while !halt.load(Ordering::Relaxed) {
                        let item = cursor.fetch_add(1, Ordering::Relaxed);
                        let Some(r) = work(&mut bots, item) else {
                            break;
                        };
                        if tx.blocking_send(r).is_err() {
                            break;
                        }
                    }
                })
            })
            .collect();
        Workers {
            results,
            halt,
            cursor,
            threads,
        }
    }

    /// Work items handed out so far (each worker takes one more than it uses when it stops).
    pub(crate) fn taken(&self) -> u64 {
        self.cursor.load(Ordering::Relaxed)
    }

    /// Waits for every worker; false if one panicked.
    pub(crate) fn join(&mut self) -> bool {
        let mut ok = true;
        for t in self.threads.drain(..) {
            ok &= t.join().is_ok();
        }
        ok
    }
}

/// Measures deals `0..count` of the source with the panel, skipping those the store already
/// holds. Setting `stop` makes workers finish their current deal, and everything measured so far
/// is stored before returning.
pub async fn measure(
    store: &dyn Store,
    spec: &MeasureSpec,
    progress: &Progress,
    stop: &AtomicBool,
) -> Result<MeasureReport, MeasureError> {
    let start = Instant::now();
    // Check the panel before any work so a typo fails fast.
    PanelBots::new(&spec.panel, spec.rules)?;
    store.put_panel(&spec.panel.to_store()).await?;
    let done = store.measured_indices(&spec.panel.id, &spec.source).await?;
    let mut is_done = vec![false; spec.count as usize];
    let mut already = 0;
    for i in done {
        if i < spec.count {
            is_done[i as usize] = true;
            already += 1;
        }
    }
    let missing: Arc<Vec<u64>> =
        Arc::new((0..spec.count).filter(|&i| !is_done[i as usize]).collect());
    drop(is_done);
    let games_before = progress.games.load(Ordering::Relaxed);
    if missing.is_empty() {
        return Ok(MeasureReport {
            already,
            measured: 0,
            games: 0,
            seconds: start.elapsed().as_secs_f64(),
            stopped: false,
        });
    }

    let source = spec.source;
    let mut workers = Workers::spawn(
        &spec.panel,
        spec.rules,
        spec.threads,
        4 * spec.batch.max(1),
        move |bots, i| {
            let index = *missing.get(usize::try_from(i).ok()?)?;
            Some(bots.measure(&source, index))
        },
    );
    let halt = workers.halt.clone();

    let n_tables = spec.panel.tables();
    let mut batch = Vec::with_capacity(spec.batch);
    let mut measured = 0u64;
    let mut failure = None;
    let mut last_flush = Instant::now();
    loop {
        if stop.load(Ordering::Relaxed) {
            halt.store(true, Ordering::Relaxed);
        }
        let next = tokio::time::timeout(Duration::from_millis(200), workers.results.recv()).await;
        match next {
            Ok(Some(Ok(rec))) => {
                progress.games.fetch_add(n_tables, Ordering::Relaxed);
                progress.deals.fetch_add(1, Ordering::Relaxed);
                batch.push(rec);
            }
            Ok(Some(Err(e))) => {
                halt.store(true, Ordering::Relaxed);
                failure.get_or_insert(e);
            }
            Ok(None) => break,
            Err(_) => {}
        }
        let due = batch.len() >= spec.batch
            || (!batch.is_empty() && last_flush.elapsed() > Duration::from_secs(2));
        if due && failure.is_none() {
            match store.put_deals(&batch).await {
                Ok(_) => {
                    measured += batch.len() as u64;
                    progress
                        .stored
                        .fetch_add(batch.len() as u64, Ordering::Relaxed);
                    batch.clear();
                    last_flush = Instant::now();
                }
                Err(e) => {
                    halt.store(true, Ordering::Relaxed);
                    failure = Some(e.into());
                }
            }
        }
    }
    if !workers.join() {
        failure.get_or_insert(MeasureError::Worker("panicked".into()));
    }
    if failure.is_none() && !batch.is_empty() {
        store.put_deals(&batch).await?;
        measured += batch.len() as u64;
        progress
            .stored
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
    } else if let Some(e) = failure {
        // Whatever is in `batch` was never stored; a resumed run measures it again.
        return Err(e);
    }
    Ok(MeasureReport {
        already,
        measured,
        games: progress.games.load(Ordering::Relaxed) - games_before,
        seconds: start.elapsed().as_secs_f64(),
        stopped: measured + already < spec.count,
    })
}

/// Dou Dizhu's difficulty hook ([`crate::Game::difficulty`]): panels of graded landlord bots,
/// each at its own table against the same farmers, measuring deals under the library's rules
/// ([`LIBRARY_RULES`]).
pub struct DdzDifficulty;

impl crate::Difficulty for DdzDifficulty {
    fn panel(&self, spec: &arena_proto::v1::PanelSpec) -> Result<Arc<dyn MeasuringPanel>, String> {
        // The landlord bots are required; the farmers and the scoring have defaults.
        if spec.landlords.trim().is_empty() {
            return Err("panel.landlords: empty (e.g. ladder:70)".into());
        }
        Ok(Arc::new(crate::ddz::panel::panel_of(spec)?))
    }

    fn canonical_deal(&self, text: &str) -> Result<String, String> {
        crate::ddz::library::canonical_deal(text)
    }
}

impl MeasuringPanel for DdzPanel {
    fn id(&self) -> &str {
        &self.id
    }

    fn tables(&self) -> u64 {
        DdzPanel::tables(self)
    }

    fn to_store(&self) -> arena_store::Panel {
        DdzPanel::to_store(self)
    }

    fn describe(&self) -> String {
        crate::ddz::panel::describe(self)
    }

    fn dimension(&self, bombs: u32) -> usize {
        crate::ddz::levels::gdi_dimension(self.scoring, bombs)
    }

    fn measurer(&self) -> Result<Box<dyn Measurer>, String> {
        let bots = PanelBots::new(self, LIBRARY_RULES).map_err(|e| e.to_string())?;
        Ok(Box::new(bots))
    }

    fn find<'a>(
        &'a self,
        store: &'a dyn Store,
        target: &'a FindTarget,
        progress: &'a Progress,
        stop: &'a AtomicBool,
    ) -> std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<find::FindReport, String>> + Send + 'a>,
    > {
        Box::pin(async move {
            let spec = FindSpec {
                panel: self.clone(),
                source: target.source,
                start: target.start,
                centre: target.centre.clone(),
                eps: target.eps,
                want: target.want,
                max_tries: target.max_tries,
                rules: LIBRARY_RULES,
                threads: target.threads,
            };
            find(store, &spec, progress, stop)
                .await
                .map_err(|e| e.to_string())
        })
    }
}

/// A worker's panel measures deal after deal with the bots it built once.
impl Measurer for PanelBots {
    fn measure(&mut self, source: &DealSource, index: u64) -> Result<DealRecord, String> {
        PanelBots::measure(self, source, index).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaving_visits_every_table_once() {
        for n in [1, 2, 3, 10, 70] {
            let mut o = interleaved(n);
            assert_eq!(o[0], 0);
            if n > 1 {
                assert_eq!(o[1], n - 1);
            }
            o.sort_unstable();
            assert_eq!(o, (0..n).collect::<Vec<_>>());
        }
    }

    #[test]
    fn bound_is_zero_while_anything_is_possible_and_exact_at_the_end() {
        assert_eq!(lower_bound(&[0, 0, 0, 0], 10, &[0.9, 0.6, 0.4]), 0.0);
        let full = [1u32, 3, 2, 4];
        let d = lower_bound(&full, 10, &[0.9, 0.6, 0.4]);
        assert!(d.abs() < 1e-12);
        // Eight tables all at the lowest level: g1 ≤ 0.2 whatever the last two do.
        let d = lower_bound(&[8, 0, 0, 0], 10, &[0.96, 0.91, 0.79]);
        assert!(d > 0.9, "{d}");
    }
}
