//! `arena ddz …`: Dou Dizhu commands, registered as the game's [`Game::commands`].
//!
//! [`Game::commands`]: crate::Game::commands

pub mod legal;

use std::io::{BufRead, BufWriter, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use arena_table::{ProgramBot, TimeRules};
use clap::{Args, Parser, Subcommand};
use ddz::analysis::{optimal_decompose, seed_decompose_traced};
use ddz::{Deal, DealConstraint, GameConfig, MoveList, RuleSet, Scoring, Seat};
use ddz_bots::{Bot, BotSpec, LadderBot};
use std::sync::atomic::AtomicU64;

use crate::commands::{Derived, programs, progress};
use crate::ddz::eval::{self, BotFactory, Contestant, Estimate, EvalConfig, SideStats};
use crate::ddz::play::{self as runner, Buffers};
use legal::{moves_for, parse_hand, parse_prev};
use serde_json::json;

/// The `arena ddz` commands, as the game registers them.
pub(crate) static COMMANDS: Derived<DdzCli> = Derived::new(|cli| run(cli.command));

/// Dou Dizhu: legal moves, hand analysis, deals, self-play.
#[derive(Parser)]
pub(crate) struct DdzCli {
    #[command(subcommand)]
    command: DdzCommand,
}

/// Dou Dizhu commands.
#[derive(Subcommand)]
enum DdzCommand {
    /// Print the legal moves of a hand, as a lead or as replies to a previous play.
    Legal(LegalArgs),
    /// Decompose a hand: the seed algorithm step by step, and the optimal decomposition.
    Analyze(AnalyzeArgs),
    /// Print a reproducible deal.
    Deal(DealArgs),
    /// Play full games (bidding, doubling, play) with one built-in bot in every seat.
    Selfplay(SelfplayArgs),
    /// The standard evaluation of bot A against bot B: every deal twice, A as landlord and as farmers.
    Match(MatchArgs),
    /// The skill ladder's levels as landlords on the same deals against the same farmers.
    Ladder(LadderArgs),
}

#[derive(Args)]
struct MatchArgs {
    /// Bot A: random, seed, expert, search[:samples=N,candidates=N], ladder:K/N, cmd:PROGRAM [ARGS].
    a: String,
    /// Bot B, named the same way.
    b: String,
    /// Number of deals (each played twice).
    #[arg(long, default_value_t = 1000)]
    deals: u64,
    /// Seed of the deal stream.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only deals with exactly this many bombs (rocket included).
    #[arg(long)]
    bombs: Option<u8>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Per-decision deadline for program (cmd:) bots, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    deadline_ms: u64,
    /// Play the deals as the championship plays a match: turns of this many rounds (deals),
    /// which the seats are told (a championship: engine's INFO line); each seating of the
    /// match numbers its deals the same way, and a championship: engine plays each seating's
    /// turn on one process.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    rounds_per_turn: Option<u32>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RulesArg,
}

#[derive(Args)]
struct LadderArgs {
    /// Number of levels.
    #[arg(long, default_value_t = 10)]
    levels: u32,
    /// Number of deals every level plays as landlord.
    #[arg(long, default_value_t = 2000)]
    deals: u64,
    /// Seed of the deal stream.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The bot in both farmer seats.
    #[arg(long, default_value = "expert")]
    farmers: String,
    /// Scoring mode for the landlord score: difficulty (the paper's), competition, adp, wp,
    /// botzone (FightTheLandlord2's) or botzone-ftl (FightTheLandlord's, in 1/200 points).
    #[arg(long, default_value = "difficulty")]
    scoring: Scoring,
    /// Only deals with exactly this many bombs (rocket included).
    #[arg(long)]
    bombs: Option<u8>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct RulesArg {
    /// Rule set: competition (default), douzero or openspiel.
    #[arg(long, default_value = "competition", value_parser = parse_rules)]
    rules: RuleSet,
}

fn parse_rules(s: &str) -> Result<RuleSet, String> {
    RuleSet::by_name(s)
        .ok_or_else(|| format!("unknown rule set {s:?} (competition, douzero, openspiel)"))
}

#[derive(Args)]
struct LegalArgs {
    /// The hand, e.g. 333444555666789TJQKA.
    #[arg(long, required_unless_present = "batch")]
    hand: Option<String>,
    /// The play to beat; omit (or `pass`) for a free lead.
    #[arg(long)]
    prev: Option<String>,
    /// Read lines `HAND PREV` from stdin and write one JSON object per line.
    #[arg(long, conflicts_with_all = ["hand", "prev"])]
    batch: bool,
    /// Print JSON instead of one move per line.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RulesArg,
}

#[derive(Args)]
struct AnalyzeArgs {
    /// The hand to analyse.
    #[arg(long)]
    hand: String,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RulesArg,
}

#[derive(Args)]
struct DealArgs {
    /// Seed of the deal stream.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Index of the deal within the stream.
    #[arg(long, default_value_t = 0)]
    index: u64,
    /// Exactly this many bombs (rocket included) across the hands, seat 0 holding the bottom.
    #[arg(long)]
    bombs: Option<u8>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct SelfplayArgs {
    /// Number of games.
    #[arg(long, default_value_t = 10_000)]
    games: u64,
    /// Seed: game i is played on deal i of this seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The built-in bot in every seat.
    #[arg(long, default_value = "random")]
    bot: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs a `ddz` subcommand.
fn run(cmd: DdzCommand) -> Result<()> {
    match cmd {
        DdzCommand::Legal(a) => legal(a),
        DdzCommand::Analyze(a) => analyze(a),
        DdzCommand::Deal(a) => deal(a),
        DdzCommand::Selfplay(a) => selfplay(a),
        DdzCommand::Match(a) => match_cmd(a),
        DdzCommand::Ladder(a) => ladder_cmd(a),
    }
}

fn legal(a: LegalArgs) -> Result<()> {
    let rules = a.rules.rules;
    let mut moves = MoveList::new();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if a.batch {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let line = line.context("reading stdin")?;
            let Some(obj) = legal::batch_line(&rules, &line, &mut moves) else {
                continue;
            };
            serde_json::to_writer(&mut out, &obj)?;
            out.write_all(b"\n")?;
        }
        out.flush()?;
        return Ok(());
    }
    let hand = parse_hand(a.hand.as_deref().unwrap_or_default())?;
    let prev = parse_prev(&rules, a.prev.as_deref())?;
    moves_for(&rules, hand, prev, &mut moves);
    if a.json {
        let obj = json!({
            "hand": hand.to_string(),
            "prev": prev.to_string(),
            "moves": moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        });
        writeln!(out, "{obj}")?;
    } else {
        for m in moves.iter() {
            writeln!(out, "{:<20} {}", m.to_string(), m.kind())?;
        }
        writeln!(out, "{} legal moves", moves.len())?;
    }
    out.flush()?;
    Ok(())
}

fn analyze(a: AnalyzeArgs) -> Result<()> {
    let rules = a.rules.rules;
    let hand = parse_hand(&a.hand)?;
    if hand.len() > 20 {
        bail!(
            "hand {hand} has {} cards; a hand holds at most 20",
            hand.len()
        );
    }
    let mut steps = Vec::new();
    let seed = seed_decompose_traced(hand, |step, d| steps.push((step, d.to_string())));
    let optimal = optimal_decompose(&rules, hand);
    if a.json {
        let obj = json!({
            "hand": hand.to_string(),
            "seed": {
                "parts": seed.parts().iter().map(|m| json!({"cards": m.to_string(), "kind": m.kind().name()})).collect::<Vec<_>>(),
                "hand_count": seed.hand_count(),
                "steps": steps.iter().map(|(s, d)| json!({"step": s.describe(), "parts": d})).collect::<Vec<_>>(),
            },
            "optimal": {
                "parts": optimal.iter().map(|m| json!({"cards": m.to_string(), "kind": m.kind().name()})).collect::<Vec<_>>(),
                "hand_count": optimal.len(),
            },
        });
        println!("{obj}");
        return Ok(());
    }
    println!("hand {hand} ({} cards)", hand.len());
    println!("\nseed algorithm, step by step:");
    for (step, parts) in &steps {
        println!(
            "  {:<38} {}",
            step.describe(),
            if parts.is_empty() { "-" } else { parts }
        );
    }
    println!("  hand count (parts): {}", seed.hand_count());
    let sorted = seed.sorted();
    println!("  parts: {sorted}");
    println!("\noptimal (fewest plays, kickers attached):");
    for m in &optimal {
        println!("  {:<20} {}", m.to_string(), m.kind());
    }
    println!("  hand count (plays): {}", optimal.len());
    Ok(())
}

fn deal(a: DealArgs) -> Result<()> {
    let constraint = DealConstraint { bombs: a.bombs };
    let d = Deal::generate_with(a.seed, a.index, &constraint)?;
    let landlord = Seat::ALL[0];
    if a.json {
        let obj = json!({
            "seed": a.seed,
            "index": a.index,
            "deal": d.to_string(),
            "hands": d.hands.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
            "bottom": d.bottom.to_string(),
            "bombs": d.bombs(landlord),
        });
        println!("{obj}");
        return Ok(());
    }
    println!("{d}");
    let hands = d.hands_with_landlord(landlord);
    for (i, role) in [
        "landlord (seat 0, with bottom)",
        "down farmer (seat 1)",
        "up farmer (seat 2)",
    ]
    .iter()
    .enumerate()
    {
        println!("  {role:<32} {}", hands[i]);
    }
    println!("  bottom                           {}", d.bottom);
    println!("  bombs across hands (rocket incl.) {}", d.bombs(landlord));
    Ok(())
}

fn make_bot(name: &str) -> Result<Box<dyn Bot>> {
    let spec: BotSpec = name.parse().map_err(anyhow::Error::msg)?;
    spec.build_builtin()
        .with_context(|| format!("{name}: self-play takes a built-in bot"))
}

/// One side of a match, checked once up front so that a typo fails before any work starts: a
/// built-in bot's factory, or a program (`cmd:`) and the time control its games are refereed
/// under.
enum Side {
    Builtin(Box<BotFactory<'static>>),
    Program(Box<ProgramBot>, TimeRules),
}

impl Side {
    fn contestant(&self) -> Contestant<'_> {
        match self {
            Side::Builtin(f) => Contestant::Builtin(&**f),
            Side::Program(p, time) => Contestant::Program(p, *time),
        }
    }
}

/// How long past its deadline a program's answer is still taken (late): at the hard cap it
/// is a timeout.
const PROGRAM_GRACE_MS: u64 = 1000;

/// The side `name` names. A program (`cmd:`) gets `deadline` per decision, is cut off at the
/// deadline plus [`PROGRAM_GRACE_MS`], and is resolved, checked against the sandbox and
/// started once now, so that a program that cannot run is reported before any game starts
/// (not as a crash in every game).
fn side(name: &str, deadline: Duration) -> Result<Side> {
    // A program of another protocol (`championship:PROGRAM`) is written whole; `cmd:` ones
    // parse as a bot spec.
    let cmd = if programs::is_program(crate::ddz::GAME, name) && !name.starts_with("cmd:") {
        name.to_string()
    } else {
        let spec: BotSpec = name.parse().map_err(anyhow::Error::msg)?;
        let BotSpec::Cmd(cmd) = spec else {
            return Ok(Side::Builtin(builtin_factory(spec)));
        };
        cmd
    };
    let cmd = programs::prepare(crate::ddz::GAME, &cmd, &programs::match_sandbox())?;
    let decision_ms = u32::try_from(deadline.as_millis())
        .ok()
        .filter(|ms| u64::from(*ms) + PROGRAM_GRACE_MS <= u64::from(u32::MAX))
        .with_context(|| format!("--deadline-ms {} is too long", deadline.as_millis()))?;
    let time = TimeRules {
        decision_ms,
        claim_ms: decision_ms,
        hard_cap_ms: decision_ms + PROGRAM_GRACE_MS as u32,
        // Matches score the game alone: a late answer costs nothing, as it never did.
        penalty_per_100ms: 0,
        verdict_penalty: 0,
        ..TimeRules::default()
    };
    let program = ProgramBot {
        cmd,
        launch: arena_line::Launch::default(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting a runtime for the program")?;
    let protocol = crate::ddz::GAME
        .program_protocol_for(0, &program.cmd)
        .map_err(anyhow::Error::msg)?;
    runtime
        .block_on(program.try_start(protocol))
        .map_err(|f| anyhow::anyhow!("{}: {}", f.kind.as_str_name(), f.reason))
        .with_context(|| format!("bot {name:?} could not start"))?;
    Ok(Side::Program(Box::new(program), time))
}

/// A factory for the built-in bot `spec`.
fn builtin_factory(spec: BotSpec) -> Box<BotFactory<'static>> {
    Box::new(move || {
        spec.build_builtin()
            .ok_or_else(|| "not a built-in bot".to_string())
    })
}

fn threads(t: Option<usize>) -> usize {
    t.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

fn fmt_est(e: &Estimate, digits: usize) -> String {
    format!("{e:+.digits$}")
}

fn match_cmd(a: MatchArgs) -> Result<()> {
    let deadline = Duration::from_millis(a.deadline_ms);
    let side_a = side(&a.a, deadline)?;
    let side_b = side(&a.b, deadline)?;
    let cfg = EvalConfig {
        deals: a.deals,
        seed: a.seed,
        constraint: DealConstraint { bombs: a.bombs },
        rules: a.rules.rules,
        threads: threads(a.threads),
        rounds_per_turn: a.rounds_per_turn,
    };
    let counter = AtomicU64::new(0);
    let start = Instant::now();
    let result = progress::with_bar(2 * a.deals, "games", &counter, || {
        eval::play_match_of(side_a.contestant(), side_b.contestant(), &cfg, &counter)
    })?;
    let secs = start.elapsed().as_secs_f64();
    let landlord = result.stats(&[true]);
    let farmers = result.stats(&[false]);
    let overall = result.stats(&[true, false]);
    if a.json {
        let side = |s: &SideStats| json!({"wp": s.wp, "adp": s.adp, "competition": s.competition});
        let obj = json!({
            "a": a.a, "b": a.b, "deals": a.deals, "seed": a.seed, "seconds": secs,
            "games": 2 * a.deals,
            "a_wp": overall.wp.mean, "a_wp_ci95": overall.wp.ci95,
            "a_adp": overall.adp.mean, "a_adp_ci95": overall.adp.ci95,
            "a_competition": overall.competition.mean,
            "a_landlord": side(&landlord), "a_farmers": side(&farmers), "overall": side(&overall),
            "verdicts": result.verdicts,
            "a_ms_per_move": result.a_decisions.1, "b_ms_per_move": result.b_decisions.1,
            "a_moves": result.a_decisions.0, "b_moves": result.b_decisions.0,
        });
        println!("{obj}");
        return Ok(());
    }
    println!(
        "match: A = {}, B = {}: {} deals, each played with A as landlord and with A as both farmers (seed {})",
        a.a, a.b, a.deals, a.seed
    );
    println!(
        "  {:<12} {:>6}  {:<18} {:<18} {:<18}",
        "seating", "games", "WP (A's side)", "ADP", "competition"
    );
    for (label, s) in [
        ("A landlord", &landlord),
        ("A farmers", &farmers),
        ("overall", &overall),
    ] {
        println!(
            "  {:<12} {:>6}  {:<18} {:<18} {:<18}",
            label,
            s.wp.n,
            format!("{:.3}", s.wp),
            fmt_est(&s.adp, 2),
            fmt_est(&s.competition, 2)
        );
    }
    println!(
        "  (95% intervals; {:.1} s, {:.0} games/s)",
        secs,
        2.0 * a.deals as f64 / secs
    );
    println!(
        "  time per move: A {:.3} ms over {} moves, B {:.3} ms over {} moves",
        result.a_decisions.1, result.a_decisions.0, result.b_decisions.1, result.b_decisions.0
    );
    if result.verdicts.is_empty() {
        println!("  verdicts: none");
    } else {
        println!("  verdicts ({}):", result.verdicts.len());
        for v in &result.verdicts {
            println!(
                "    deal {} ({}), seat {} {}: {}: {}",
                v.deal,
                if v.a_landlord {
                    "A landlord"
                } else {
                    "B landlord"
                },
                v.seat,
                v.bot,
                v.verdict.kind.name(),
                v.verdict.reason
            );
        }
    }
    Ok(())
}

fn ladder_cmd(a: LadderArgs) -> Result<()> {
    if a.levels < 2 {
        bail!("--levels must be at least 2");
    }
    let farmers = side(&a.farmers, Duration::from_millis(1000))?;
    let levels: Vec<Box<BotFactory<'static>>> = (1..=a.levels)
        .map(|k| {
            let spec: BotSpec = format!("ladder:{k}/{}", a.levels)
                .parse()
                .map_err(anyhow::Error::msg)?;
            Ok(builtin_factory(spec))
        })
        .collect::<Result<_>>()?;
    let refs: Vec<&BotFactory<'_>> = levels.iter().map(|f| &**f).collect();
    let cfg = EvalConfig {
        deals: a.deals,
        seed: a.seed,
        constraint: DealConstraint { bombs: a.bombs },
        rules: RuleSet::COMPETITION,
        threads: threads(a.threads),
        rounds_per_turn: None,
    };
    let counter = AtomicU64::new(0);
    let start = Instant::now();
    let total = a.deals * a.levels as u64;
    let panel = progress::with_bar(total, "games", &counter, || {
        eval::play_panel_of(&refs, farmers.contestant(), &cfg, &counter)
    })?;
    let rows = &panel.rows;
    let secs = start.elapsed().as_secs_f64();
    let score = |k: usize| {
        rows.iter()
            .map(move |(_, r)| r[k].landlord_score(a.scoring) as f64)
    };
    let per_level: Vec<Estimate> = (0..a.levels as usize)
        .map(|k| Estimate::of(score(k)))
        .collect();
    let steps: Vec<Estimate> = (1..a.levels as usize)
        .map(|k| Estimate::paired(score(k), score(k - 1)))
        .collect();
    let increasing = per_level.windows(2).all(|w| w[1].mean > w[0].mean);
    let separated = steps.iter().filter(|d| d.p_not_positive() < 0.05).count();
    if a.json {
        let obj = json!({
            "levels": a.levels, "deals": a.deals, "seed": a.seed, "farmers": a.farmers,
            "scoring": a.scoring, "seconds": secs, "games": total,
            "games_per_second": total as f64 / secs,
            "per_level": per_level,
            "micros_per_game": panel.micros_per_game,
            "steps": steps.iter().map(|d| json!({"diff": d, "p": d.p_not_positive()})).collect::<Vec<_>>(),
            "strictly_increasing": increasing,
            "significant_steps": separated,
        });
        println!("{obj}");
        return Ok(());
    }
    println!(
        "ladder: {} levels as landlord on the same {} deals against {} farmers ({} scoring, seed {})",
        a.levels, a.deals, a.farmers, a.scoring, a.seed
    );
    println!(
        "  {:<12} {:>6}  {:>10}  {:<18} {:<28}",
        "level", "noise", "per game", "landlord score", "vs level below (paired)"
    );
    for (k, e) in per_level.iter().enumerate() {
        let bot = LadderBot::new(k as u32 + 1, a.levels).map_or(0.0, |b| b.epsilon());
        let step = if k == 0 {
            String::new()
        } else {
            let d = &steps[k - 1];
            let p = d.p_not_positive();
            format!(
                "{} p={:.1e}{}",
                fmt_est(d, 3),
                p,
                if p < 0.05 { "" } else { "  not significant" }
            )
        };
        println!(
            "  {:<12} {:>6.3}  {:>7.1} µs  {:<18} {}",
            format!("{}/{}", k + 1, a.levels),
            bot,
            panel.micros_per_game[k],
            fmt_est(e, 3),
            step
        );
    }
    println!(
        "  strictly increasing: {}; significant steps (p < 0.05): {}/{}; {:.1} s, {:.0} games/s",
        if increasing { "yes" } else { "no" },
        separated,
        a.levels - 1,
        secs,
        total as f64 / secs
    );
    Ok(())
}

fn selfplay(a: SelfplayArgs) -> Result<()> {
    let mut b0 = make_bot(&a.bot)?;
    let mut b1 = make_bot(&a.bot)?;
    let mut b2 = make_bot(&a.bot)?;
    let mut bots: [&mut dyn Bot; 3] = [&mut *b0, &mut *b1, &mut *b2];
    let config = GameConfig::competition();
    let mut moves = Buffers::new();
    let mut landlord_wins = 0u64;
    let mut score_sum = 0i64;
    let mut score_sq = 0f64;
    let (mut bombs, mut springs, mut redeals, mut plies) = (0u64, 0u64, 0u64, 0u64);
    let start = Instant::now();
    for i in 0..a.games {
        let deal = Deal::generate(a.seed, i);
        let game = runner::play_game(
            config,
            deal,
            a.seed ^ i.rotate_left(32),
            &mut bots,
            &mut moves,
        )?;
        let o = game.outcome().context("game did not finish")?;
        landlord_wins += u64::from(o.landlord_won());
        let s = o.landlord_score(Scoring::Competition);
        score_sum += s;
        score_sq += (s * s) as f64;
        bombs += o.all_bombs() as u64;
        springs += u64::from(o.spring || o.anti_spring);
        redeals += game.redeals() as u64;
        plies += game
            .events()
            .iter()
            .filter(|e| matches!(e, ddz::Event::Play { .. }))
            .count() as u64;
    }
    let secs = start.elapsed().as_secs_f64();
    let n = a.games.max(1) as f64;
    let gps = a.games as f64 / secs;
    let wins = Estimate::from_sums(a.games as usize, landlord_wins as f64, landlord_wins as f64);
    let score = Estimate::from_sums(a.games as usize, score_sum as f64, score_sq);
    let (wr, mean, sd) = (wins.mean, score.mean, score.sd);
    if a.json {
        let obj = json!({
            "bot": a.bot,
            "games": a.games,
            "seed": a.seed,
            "seconds": secs,
            "games_per_second": gps,
            "landlord_win_rate": wr,
            "landlord_score_mean": mean,
            "landlord_score_sd": sd,
            "bombs_per_game": bombs as f64 / n,
            "spring_rate": springs as f64 / n,
            "redeals_per_game": redeals as f64 / n,
            "plies_per_game": plies as f64 / n,
        });
        println!("{obj}");
        return Ok(());
    }
    println!(
        "self-play: {} games, {} in every seat, seed {}",
        a.games, a.bot, a.seed
    );
    println!("  time                {secs:.2} s on one thread: {gps:.0} games/s");
    println!("  landlord win rate   {wins:.3} (95%)");
    println!("  landlord score      {score:+.2} per game (competition scoring, sd {sd:.1})");
    println!(
        "  per game            {:.2} bombs, {:.1} plays, {:.2} redeals; springs {:.1}%",
        bombs as f64 / n,
        plies as f64 / n,
        redeals as f64 / n,
        100.0 * springs as f64 / n
    );
    Ok(())
}
