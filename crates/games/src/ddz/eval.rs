//! Evaluation on the fast path: head-to-head matches (every deal played in both seatings) and
//! panels (many landlords on the same deals against the same farmers), spread over threads.

use std::sync::atomic::{AtomicU64, Ordering};

use ddz::{Deal, DealConstraint, GameConfig, MoveList, Outcome, RuleSet, Scoring, Seat};

use ddz_bots::{Bot, Verdict};

use super::play::{Buffers, RunError, play_game};

/// Builds a fresh bot; called once per seat per worker thread.
pub type BotFactory<'a> = dyn Fn() -> Result<Box<dyn Bot>, String> + Sync + 'a;

/// Why an evaluation stopped.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A bot could not be built (e.g. its program does not start).
    #[error("could not start bot: {0}")]
    Build(String),
    /// A built-in bot made an illegal move (a bug in that bot).
    #[error(transparent)]
    Run(#[from] RunError),
    /// No deal could be generated.
    #[error(transparent)]
    Deal(#[from] ddz::DealError),
}

/// Where and how deals are drawn and games played.
#[derive(Copy, Clone, Debug)]
pub struct EvalConfig {
    /// Deals `0..deals` of `seed`.
    pub deals: u64,
    /// The deal stream's seed.
    pub seed: u64,
    /// Constraint on the deals.
    pub constraint: DealConstraint,
    /// Rule set.
    pub rules: RuleSet,
    /// Worker threads (at least 1).
    pub threads: usize,
}

impl EvalConfig {
    fn game_config(&self) -> GameConfig {
        GameConfig {
            rules: self.rules,
            ..GameConfig::fixed_landlord()
        }
    }
}

/// A verdict against a seat in one game.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SeatVerdict {
    /// Deal index.
    pub deal: u64,
    /// True in the game where A was the landlord.
    pub a_landlord: bool,
    /// The seat at fault.
    pub seat: Seat,
    /// The bot's name.
    pub bot: String,
    /// What happened.
    pub verdict: Verdict,
}

/// One deal of a match: both games' outcomes.
#[derive(Copy, Clone, Debug)]
pub struct DealResult {
    /// The deal index.
    pub deal: u64,
    /// A as landlord, B in both farmer seats.
    pub a_landlord: Outcome,
    /// B as landlord, A in both farmer seats.
    pub b_landlord: Outcome,
}

/// A head-to-head match.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    /// Per deal, in deal order.
    pub deals: Vec<DealResult>,
    /// Every verdict, in deal order.
    pub verdicts: Vec<SeatVerdict>,
    /// Bot A's play decisions: how many, and their mean wall-clock time in milliseconds.
    pub a_decisions: (u64, f64),
    /// Bot B's play decisions, likewise.
    pub b_decisions: (u64, f64),
}

/// Counts a bot's play decisions and the time they take.
#[derive(Default)]
struct DecisionClock {
    count: AtomicU64,
    nanos: AtomicU64,
}

impl DecisionClock {
    fn summary(&self) -> (u64, f64) {
        let n = self.count.load(Ordering::Relaxed);
        let ns = self.nanos.load(Ordering::Relaxed);
        (
            n,
            if n == 0 {
                0.0
            } else {
                ns as f64 / n as f64 / 1e6
            },
        )
    }
}

/// A bot whose play decisions are timed.
struct Timed<'c> {
    bot: Box<dyn Bot>,
    clock: &'c DecisionClock,
}

impl Bot for Timed<'_> {
    fn name(&self) -> String {
        self.bot.name()
    }
    fn new_game(&mut self, seed: u64) {
        self.bot.new_game(seed)
    }
    fn bid(&mut self, obs: &ddz::Observation<'_>) -> u8 {
        self.bot.bid(obs)
    }
    fn double(&mut self, obs: &ddz::Observation<'_>) -> bool {
        self.bot.double(obs)
    }
    fn play(&mut self, obs: &ddz::Observation<'_>, legal: &MoveList) -> ddz::Move {
        let t = std::time::Instant::now();
        let m = self.bot.play(obs, legal);
        self.clock
            .nanos
            .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        self.clock.count.fetch_add(1, Ordering::Relaxed);
        m
    }
    fn end_game(&mut self, obs: &ddz::Observation<'_>) {
        self.bot.end_game(obs)
    }
    fn take_verdicts(&mut self) -> Vec<Verdict> {
        self.bot.take_verdicts()
    }
}

fn run_threads<T: Send>(
    cfg: &EvalConfig,
    work: impl Fn(usize) -> Result<Vec<T>, EvalError> + Sync,
) -> Result<Vec<T>, EvalError> {
    let threads = cfg.threads.max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn({
                    let work = &work;
                    move || work(t)
                })
            })
            .collect();
        let mut all = Vec::new();
        for h in handles {
            match h.join() {
                Ok(r) => all.extend(r?),
                Err(p) => std::panic::resume_unwind(p),
            }
        }
        Ok(all)
    })
}

fn build(f: &BotFactory<'_>) -> Result<Box<dyn Bot>, EvalError> {
    f().map_err(EvalError::Build)
}

fn collect_verdicts(
    bots: &mut [&mut dyn Bot; 3],
    deal: u64,
    a_landlord: bool,
    out: &mut Vec<SeatVerdict>,
) {
    for seat in Seat::ALL {
        let bot = &mut bots[seat.index()];
        for verdict in bot.take_verdicts() {
            out.push(SeatVerdict {
                deal,
                a_landlord,
                seat,
                bot: bot.name(),
                verdict,
            });
        }
    }
}

/// Derives a game seed from the deal stream seed, the deal and the seating.
fn game_seed(seed: u64, deal: u64, seating: u64) -> u64 {
    super::play::bot_seed(
        seed ^ deal.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (seating << 62),
        Seat::ALL[0],
    )
}

/// Plays every deal twice: A as landlord against B in both farmer seats, then B as landlord
/// against A. `progress` counts finished games.
pub fn play_match(
    a: &BotFactory<'_>,
    b: &BotFactory<'_>,
    cfg: &EvalConfig,
    progress: &AtomicU64,
) -> Result<MatchOutcome, EvalError> {
    let threads = cfg.threads.max(1) as u64;
    let config = cfg.game_config();
    let (clock_a, clock_b) = (DecisionClock::default(), DecisionClock::default());
    let results = run_threads(cfg, |t| {
        let ta = || {
            build(a).map(|bot| Timed {
                bot,
                clock: &clock_a,
            })
        };
        let tb = || {
            build(b).map(|bot| Timed {
                bot,
                clock: &clock_b,
            })
        };
        let (mut a0, mut a1, mut a2) = (ta()?, ta()?, ta()?);
        let (mut b0, mut b1, mut b2) = (tb()?, tb()?, tb()?);
        let mut moves = Buffers::new();
        let mut out = Vec::new();
        let mut i = t as u64;
        while i < cfg.deals {
            let deal = Deal::generate_with(cfg.seed, i, &cfg.constraint)?;
            let mut verdicts = Vec::new();
            let mut seating1: [&mut dyn Bot; 3] = [&mut a0, &mut b1, &mut b2];
            let g1 = play_game(
                config,
                deal,
                game_seed(cfg.seed, i, 0),
                &mut seating1,
                &mut moves,
            )?;
            collect_verdicts(&mut seating1, i, true, &mut verdicts);
            progress.fetch_add(1, Ordering::Relaxed);
            let mut seating2: [&mut dyn Bot; 3] = [&mut b0, &mut a1, &mut a2];
            let g2 = play_game(
                config,
                deal,
                game_seed(cfg.seed, i, 1),
                &mut seating2,
                &mut moves,
            )?;
            collect_verdicts(&mut seating2, i, false, &mut verdicts);
            progress.fetch_add(1, Ordering::Relaxed);
            let (Some(o1), Some(o2)) = (g1.outcome(), g2.outcome()) else {
                unreachable!("play_game returns finished games");
            };
            out.push((
                DealResult {
                    deal: i,
                    a_landlord: *o1,
                    b_landlord: *o2,
                },
                verdicts,
            ));
            i += threads;
        }
        Ok(out)
    })?;
    let mut results = results;
    results.sort_by_key(|(d, _)| d.deal);
    let mut verdicts = Vec::new();
    let mut deals = Vec::with_capacity(results.len());
    for (d, v) in results {
        deals.push(d);
        verdicts.extend(v);
    }
    Ok(MatchOutcome {
        deals,
        verdicts,
        a_decisions: clock_a.summary(),
        b_decisions: clock_b.summary(),
    })
}

/// The platform's estimate (Student-t intervals) and p-value, re-exported where the evaluation
/// has always offered them.
pub use arena_stats::{Estimate, erfc};

/// A's results under one scoring mode.
#[derive(Copy, Clone, Debug, serde::Serialize)]
pub struct SideStats {
    /// Win rate of A's side.
    pub wp: Estimate,
    /// A's side's ADP score.
    pub adp: Estimate,
    /// A's side's competition score (bid 1, no doubling).
    pub competition: Estimate,
}

/// A's score in one game: the landlord's score, or the farmer team's (the negation).
fn side_score(o: &Outcome, a_is_landlord: bool, mode: Scoring) -> f64 {
    let s = o.scores(mode);
    if a_is_landlord {
        s[o.landlord.index()] as f64
    } else {
        Seat::ALL
            .iter()
            .filter(|&&x| x != o.landlord)
            .map(|x| s[x.index()] as f64)
            .sum::<f64>()
            / if mode == Scoring::Wp { 2.0 } else { 1.0 }
    }
}

impl MatchOutcome {
    /// A's statistics over the games `pick` selects (true = A landlord, false = A farmers).
    pub fn stats(&self, seatings: &[bool]) -> SideStats {
        let games = || {
            self.deals.iter().flat_map(|d| {
                seatings
                    .iter()
                    .map(move |&al| (if al { &d.a_landlord } else { &d.b_landlord }, al))
            })
        };
        SideStats {
            wp: Estimate::of(games().map(|(o, al)| side_score(o, al, Scoring::Wp))),
            adp: Estimate::of(games().map(|(o, al)| side_score(o, al, Scoring::Adp))),
            competition: Estimate::of(
                games().map(|(o, al)| side_score(o, al, Scoring::Competition)),
            ),
        }
    }
}

/// A panel run: each landlord's outcome per deal, and what each landlord's games cost.
#[derive(Clone, Debug)]
pub struct PanelOutcome {
    /// Per deal (in order): the deal index and each landlord's outcome.
    pub rows: Vec<(u64, Vec<Outcome>)>,
    /// Mean wall-clock microseconds per game, per landlord (farmers' decisions included).
    pub micros_per_game: Vec<f64>,
}

/// Every landlord in `landlords` plays each deal against the same farmers.
pub fn play_panel(
    landlords: &[&BotFactory<'_>],
    farmers: &BotFactory<'_>,
    cfg: &EvalConfig,
    progress: &AtomicU64,
) -> Result<PanelOutcome, EvalError> {
    let nanos: Vec<AtomicU64> = landlords.iter().map(|_| AtomicU64::new(0)).collect();
    let threads = cfg.threads.max(1) as u64;
    let config = cfg.game_config();
    let mut rows = run_threads(cfg, |t| {
        let mut ls: Vec<Box<dyn Bot>> = landlords
            .iter()
            .map(|f| build(f))
            .collect::<Result<_, _>>()?;
        let (mut down, mut up) = (build(farmers)?, build(farmers)?);
        let mut moves = Buffers::new();
        let mut out = Vec::new();
        let mut i = t as u64;
        while i < cfg.deals {
            let deal = Deal::generate_with(cfg.seed, i, &cfg.constraint)?;
            let mut row = Vec::with_capacity(ls.len());
            for (k, l) in ls.iter_mut().enumerate() {
                let mut seats: [&mut dyn Bot; 3] = [&mut **l, &mut *down, &mut *up];
                let t0 = std::time::Instant::now();
                let g = play_game(
                    config,
                    deal,
                    game_seed(cfg.seed, i, k as u64),
                    &mut seats,
                    &mut moves,
                )?;
                nanos[k].fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
                seats.iter_mut().for_each(|b| drop(b.take_verdicts()));
                row.push(*g.outcome().unwrap_or_else(|| unreachable!("finished game")));
                progress.fetch_add(1, Ordering::Relaxed);
            }
            out.push((i, row));
            i += threads;
        }
        Ok(out)
    })?;
    rows.sort_by_key(|(i, _)| *i);
    let games = rows.len().max(1) as f64;
    Ok(PanelOutcome {
        rows,
        micros_per_game: nanos
            .iter()
            .map(|n| n.load(Ordering::Relaxed) as f64 / games / 1e3)
            .collect(),
    })
}
