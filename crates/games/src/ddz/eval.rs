//! Evaluation: head-to-head matches (every deal played in both seatings) and panels (many
//! landlords on the same deals against the same farmers), spread over threads. Games of
//! built-in bots only are played on the fast path ([`super::play::play_game`]); a game with a
//! program (`cmd:`) in a seat is played on the one runner, refereed
//! ([`arena_table::play_blocking`]): the program in a fresh process per game and seat, spoken to
//! in Dou Dizhu's line protocol through the session bot-host uses, its faults verdicts, and its
//! seat played automatically for the rest of the game after one (play-on).
//!
//! With turns of rounds ([`EvalConfig::rounds_per_turn`]) a worker plays whole turns: a turn's
//! deals with one seating, then the same deals with the other, each seating's program seats on
//! one process each through the turn where their protocol carries on (the championship's
//! engines; [`arena_table::ProgramTurn`]) and a fresh process after a verdict.

use std::sync::atomic::{AtomicU64, Ordering};

use arena_proto::v1;
use arena_table::run::{Player, SeatPlan, TableSetup};
use arena_table::{Policy, ProgramBot, ProgramTurn, TimeRules, play_blocking, whole_reason};
use ddz::{Deal, DealConstraint, Game, GameConfig, MoveList, Outcome, RuleSet, Scoring, Seat};

use super::spec::MatchRound;

use ddz_bots::{Bot, Verdict, VerdictKind};

use super::play::{Buffers, RunError, play_game};
use super::table::{DdzBot, DdzTable};

/// Builds a fresh bot; called once per seat per worker thread (and once per seat per game in
/// games with a program).
pub type BotFactory<'a> = dyn Fn() -> Result<Box<dyn Bot>, String> + Sync + 'a;

/// One side of a match or panel: a built-in bot, or a program.
#[derive(Clone, Copy)]
pub enum Contestant<'a> {
    /// A built-in bot, made by its factory.
    Builtin(&'a BotFactory<'a>),
    /// A program bot, played on the one runner under `time` (its decision limit is the
    /// deadline the program is told; no answer by the hard cap is a timeout).
    Program(&'a ProgramBot, TimeRules),
}

/// Why an evaluation stopped.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A bot could not be built (e.g. its program does not start).
    #[error("could not start bot: {0}")]
    Build(String),
    /// A built-in bot made an illegal move (a bug in that bot).
    #[error(transparent)]
    Run(#[from] RunError),
    /// A refereed game (one with a program) could not be played.
    #[error("internal error: a game with a program could not be played: {0}")]
    Table(String),
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
    /// Turns of this many rounds, each deal its round: the seats of refereed games (programs'
    /// tables) are told where their deal sits ([`MatchRound::of`]), and a program whose
    /// protocol can play on one process from round to round does so for the turn, seating by
    /// seating; `None`: not said, a process per game.
    pub rounds_per_turn: Option<u32>,
}

impl EvalConfig {
    fn game_config(&self) -> GameConfig {
        GameConfig {
            rules: self.rules,
            ..GameConfig::fixed_landlord()
        }
    }

    /// The deals worker `t` plays in a refereed evaluation, turn by turn: turns `t`,
    /// `t + threads`, … of [`EvalConfig::rounds_per_turn`] deals (the last may be short); a
    /// deal a turn without turns.
    fn worker_turns(&self, t: usize) -> impl Iterator<Item = std::ops::Range<u64>> + use<> {
        let per_turn = u64::from(self.rounds_per_turn.unwrap_or(1).max(1));
        let (deals, threads) = (self.deals, self.threads.max(1) as u64);
        (t as u64..deals.div_ceil(per_turn))
            .step_by(threads as usize)
            .map(move |k| k * per_turn..((k + 1) * per_turn).min(deals))
    }

    /// The deals of `turn` (from [`EvalConfig::worker_turns`]), by index.
    fn turn_deals(&self, turn: std::ops::Range<u64>) -> Result<Vec<(u64, Deal)>, EvalError> {
        turn.map(|i| Ok((i, Deal::generate_with(self.seed, i, &self.constraint)?)))
            .collect()
    }

    /// The deal's place in its match, when the evaluation has turns.
    fn round_of(&self, deal: u64) -> Option<MatchRound> {
        self.rounds_per_turn
            .map(|r| MatchRound::of(deal, self.deals, r))
    }
}

/// The processes of one seating's program seats through a turn: a [`ProgramTurn`] a seat when
/// the evaluation has turns (`None`: a process per game). Ended on `runtime` when dropped, so a
/// turn cut short by an error leaves no process behind.
struct SeatingTurn<'r> {
    runtime: &'r tokio::runtime::Runtime,
    seats: Option<[ProgramTurn; 3]>,
}

impl<'r> SeatingTurn<'r> {
    fn new(runtime: &'r tokio::runtime::Runtime, cfg: &EvalConfig) -> SeatingTurn<'r> {
        SeatingTurn {
            runtime,
            seats: cfg.rounds_per_turn.map(|_| Default::default()),
        }
    }
}

impl Drop for SeatingTurn<'_> {
    fn drop(&mut self) {
        if let Some(seats) = &self.seats {
            self.runtime.block_on(ProgramTurn::end_all(seats));
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
/// against A, with built-in bots. `progress` counts finished games.
pub fn play_match(
    a: &BotFactory<'_>,
    b: &BotFactory<'_>,
    cfg: &EvalConfig,
    progress: &AtomicU64,
) -> Result<MatchOutcome, EvalError> {
    play_match_of(
        Contestant::Builtin(a),
        Contestant::Builtin(b),
        cfg,
        progress,
    )
}

/// [`play_match`] for any contestants: with a program on either side, every game is played on
/// the one runner.
pub fn play_match_of(
    a: Contestant<'_>,
    b: Contestant<'_>,
    cfg: &EvalConfig,
    progress: &AtomicU64,
) -> Result<MatchOutcome, EvalError> {
    let (Contestant::Builtin(fa), Contestant::Builtin(fb)) = (a, b) else {
        return play_refereed_match(a, b, cfg, progress);
    };
    let (a, b) = (fa, fb);
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
    Ok(gather(results, &clock_a, &clock_b))
}

/// The match's deals in order, their verdicts, and the two clocks' summaries.
fn gather(
    mut results: Vec<(DealResult, Vec<SeatVerdict>)>,
    clock_a: &DecisionClock,
    clock_b: &DecisionClock,
) -> MatchOutcome {
    results.sort_by_key(|(d, _)| d.deal);
    let mut verdicts = Vec::new();
    let mut deals = Vec::with_capacity(results.len());
    for (d, v) in results {
        deals.push(d);
        verdicts.extend(v);
    }
    MatchOutcome {
        deals,
        verdicts,
        a_decisions: clock_a.summary(),
        b_decisions: clock_b.summary(),
    }
}

/// One seating's game of a deal: its outcome and its verdicts.
type SeatingGame = (Outcome, Vec<SeatVerdict>);

/// A match with a program on a side: every game on the one runner, each worker thread with a
/// runtime of its own for the programs' I/O, playing whole turns.
fn play_refereed_match(
    a: Contestant<'_>,
    b: Contestant<'_>,
    cfg: &EvalConfig,
    progress: &AtomicU64,
) -> Result<MatchOutcome, EvalError> {
    let config = cfg.game_config();
    let time = refereed_time(&[a, b]);
    let (clock_a, clock_b) = (DecisionClock::default(), DecisionClock::default());
    let results = run_threads(cfg, |t| {
        let runtime = runtime()?;
        let mut out = Vec::new();
        for turn in cfg.worker_turns(t) {
            let deals = cfg.turn_deals(turn)?;
            // Per deal of the turn: each seating's outcome and verdicts.
            let mut games: Vec<[Option<SeatingGame>; 2]> =
                deals.iter().map(|_| [None, None]).collect();
            for (k, (landlord, farmers)) in [(a, b), (b, a)].into_iter().enumerate() {
                let sides = [(landlord, k == 0), (farmers, k == 1), (farmers, k == 1)];
                let seats = sides.map(|(c, _)| c);
                let turn = SeatingTurn::new(&runtime, cfg);
                for (&(i, deal), game) in deals.iter().zip(&mut games) {
                    let seed = game_seed(cfg.seed, i, k as u64);
                    let round = cfg.round_of(i);
                    let g = play_refereed(&turn, config, deal, seed, seats, time, round)?;
                    let verdicts = g
                        .verdicts
                        .into_iter()
                        .map(|(seat, verdict)| SeatVerdict {
                            deal: i,
                            a_landlord: k == 0,
                            seat,
                            bot: g.names[seat.index()].clone(),
                            verdict,
                        })
                        .collect();
                    for (s, (_, is_a)) in sides.iter().enumerate() {
                        let clock = if *is_a { &clock_a } else { &clock_b };
                        let (n, ms) = g.plays[s];
                        clock.count.fetch_add(n, Ordering::Relaxed);
                        clock.nanos.fetch_add(ms * 1_000_000, Ordering::Relaxed);
                    }
                    let outcome = g.game.outcome().copied().ok_or_else(|| {
                        EvalError::Table("a game ended without an outcome".into())
                    })?;
                    game[k] = Some((outcome, verdicts));
                    progress.fetch_add(1, Ordering::Relaxed);
                }
            }
            for (&(i, _), game) in deals.iter().zip(games) {
                let [Some((o1, mut verdicts)), Some((o2, v2))] = game else {
                    return Err(EvalError::Table("a game of the turn was not played".into()));
                };
                verdicts.extend(v2);
                out.push((
                    DealResult {
                        deal: i,
                        a_landlord: o1,
                        b_landlord: o2,
                    },
                    verdicts,
                ));
            }
        }
        Ok(out)
    })?;
    Ok(gather(results, &clock_a, &clock_b))
}

/// The time control of refereed games: the programs' (the first program's, when both sides
/// are programs: the command line gives them one deadline).
fn refereed_time(sides: &[Contestant<'_>]) -> TimeRules {
    sides
        .iter()
        .find_map(|c| match c {
            Contestant::Program(_, time) => Some(*time),
            Contestant::Builtin(_) => None,
        })
        .unwrap_or_default()
}

/// A runtime for one worker thread's refereed games.
fn runtime() -> Result<tokio::runtime::Runtime, EvalError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| EvalError::Table(format!("no runtime for the programs' I/O: {e}")))
}

/// A game played on the one runner.
struct Refereed {
    /// The finished game.
    game: Game,
    /// Each seat's bot's name.
    names: [String; 3],
    /// Every verdict, in the order given.
    verdicts: Vec<(Seat, Verdict)>,
    /// Per seat, its play decisions (not the automatic ones) and their milliseconds.
    plays: [(u64, u64); 3],
}

/// Plays `deal` under `config` (seeded with `seed`) with `seats[s]` in seat `s` on the one
/// runner of `turn`'s runtime, under `time` and play-on: built-in bots fresh from their
/// factories (seeded as on the fast path), programs on the process `turn` kept for their seat
/// or a fresh one.
fn play_refereed(
    turn: &SeatingTurn<'_>,
    config: GameConfig,
    deal: Deal,
    seed: u64,
    seats: [Contestant<'_>; 3],
    time: TimeRules,
    round: Option<MatchRound>,
) -> Result<Refereed, EvalError> {
    let mut names: [String; 3] = Default::default();
    let mut plans = Vec::with_capacity(3);
    for (s, c) in seats.iter().enumerate() {
        plans.push(match c {
            Contestant::Builtin(f) => {
                let bot = build(f)?;
                names[s] = bot.name();
                SeatPlan::Local(Box::new(DdzBot::from_bot(bot, false)) as Player<DdzTable>)
            }
            Contestant::Program(p, _) => {
                names[s] = p.cmd.to_string();
                // The seat speaks the protocol its command names (`cmd:` the line protocol).
                let protocol = crate::ddz::GAME
                    .program_protocol_for(s as u32, &p.cmd)
                    .map_err(EvalError::Build)?;
                let seat = p.seat(protocol);
                SeatPlan::Program(Box::new(match &turn.seats {
                    Some(turns) => seat.in_turn(&turns[s]),
                    None => seat,
                }))
            }
        });
    }
    let table =
        DdzTable::from_game(Game::new(config, deal, seed), Scoring::Competition).in_round(round);
    let setup = TableSetup {
        table_id: format!("match/{seed:016x}"),
        seed,
        time,
        policy: Some(Policy::PlayOn),
    };
    let table = play_blocking(turn.runtime, table, plans, &setup).map_err(EvalError::Table)?;
    let verdicts = table
        .verdicts()
        .iter()
        .map(|v| {
            let seat = u8::try_from(v.seat).ok().and_then(Seat::new);
            let kind = VerdictKind::from_wire(v.kind);
            match (seat, kind) {
                (Some(seat), Some(kind)) => Ok((
                    seat,
                    Verdict {
                        kind,
                        reason: whole_reason(v).to_string(),
                    },
                )),
                _ => Err(EvalError::Table(format!(
                    "a verdict the table cannot make: {v:?}"
                ))),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let game = table.game().game().clone();
    let record = table.record(&v1::TableJob::default(), "arena");
    let (result, replay) = record.into_replay(None);
    if !result.error.is_empty() {
        return Err(EvalError::Table(result.error));
    }
    let mut plays = [(0u64, 0u64); 3];
    for step in &replay.steps {
        if step.kind == v1::DecisionKind::Play as i32
            && !step.automatic
            && let Some(p) = plays.get_mut(step.seat as usize)
        {
            p.0 += 1;
            p.1 += u64::from(step.elapsed_ms);
        }
    }
    Ok(Refereed {
        game,
        names,
        verdicts,
        plays,
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
    play_panel_of(landlords, Contestant::Builtin(farmers), cfg, progress)
}

/// [`play_panel`] with any farmers: a program's games are played on the one runner (and its
/// verdicts dropped, as a panel's are).
pub fn play_panel_of(
    landlords: &[&BotFactory<'_>],
    farmers: Contestant<'_>,
    cfg: &EvalConfig,
    progress: &AtomicU64,
) -> Result<PanelOutcome, EvalError> {
    let farmers = match farmers {
        Contestant::Builtin(f) => f,
        program @ Contestant::Program(..) => {
            return play_refereed_panel(landlords, program, cfg, progress);
        }
    };
    let nanos: Vec<AtomicU64> = landlords.iter().map(|_| AtomicU64::new(0)).collect();
    let threads = cfg.threads.max(1) as u64;
    let config = cfg.game_config();
    let rows = run_threads(cfg, |t| {
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
    Ok(panel_outcome(rows, &nanos))
}

/// The panel's rows in deal order, and each landlord's mean time per game.
fn panel_outcome(mut rows: Vec<(u64, Vec<Outcome>)>, nanos: &[AtomicU64]) -> PanelOutcome {
    rows.sort_by_key(|(i, _)| *i);
    let games = rows.len().max(1) as f64;
    PanelOutcome {
        rows,
        micros_per_game: nanos
            .iter()
            .map(|n| n.load(Ordering::Relaxed) as f64 / games / 1e3)
            .collect(),
    }
}

/// A panel whose farmers are a program: every game on the one runner, turn by turn (each
/// landlord's games of a turn with the farmers' processes of its own).
fn play_refereed_panel(
    landlords: &[&BotFactory<'_>],
    farmers: Contestant<'_>,
    cfg: &EvalConfig,
    progress: &AtomicU64,
) -> Result<PanelOutcome, EvalError> {
    let nanos: Vec<AtomicU64> = landlords.iter().map(|_| AtomicU64::new(0)).collect();
    let config = cfg.game_config();
    let time = refereed_time(&[farmers]);
    let rows = run_threads(cfg, |t| {
        let runtime = runtime()?;
        let mut out = Vec::new();
        for turn in cfg.worker_turns(t) {
            let deals = cfg.turn_deals(turn)?;
            let mut rows: Vec<(u64, Vec<Outcome>)> = deals
                .iter()
                .map(|&(i, _)| (i, Vec::with_capacity(landlords.len())))
                .collect();
            for (k, l) in landlords.iter().enumerate() {
                let seats = [Contestant::Builtin(*l), farmers, farmers];
                let turn = SeatingTurn::new(&runtime, cfg);
                for (&(i, deal), row) in deals.iter().zip(&mut rows) {
                    let seed = game_seed(cfg.seed, i, k as u64);
                    let t0 = std::time::Instant::now();
                    let g = play_refereed(&turn, config, deal, seed, seats, time, cfg.round_of(i))?;
                    nanos[k].fetch_add(t0.elapsed().as_nanos() as u64, Ordering::Relaxed);
                    let outcome = g.game.outcome().copied();
                    row.1.push(outcome.ok_or_else(|| {
                        EvalError::Table("a game ended without an outcome".into())
                    })?);
                    progress.fetch_add(1, Ordering::Relaxed);
                }
            }
            out.extend(rows);
        }
        Ok(out)
    })?;
    Ok(panel_outcome(rows, &nanos))
}
