//! `arena mcr match`: the IJCAI duplicate match among four or more bots ([`crate::mcr::ijcai`]):
//! every wall at all 24 seatings of each group, rank points per wall, Swiss pairing between
//! rounds, standings, and place probabilities over several matches.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use arena_line::{CmdSpec, Launch, WorkDir};
use arena_proto::v1;
use arena_stats::{Estimate, PlaceTally, places};
use arena_table::run::Played;
use arena_table::{BotHosts, ProgramBot, RunOptions, Scratch, play_fast};
use clap::Args;
use mcr::FaultPolicy;
use mcr::wall::Deal;
use mcr_bots::Player;
use serde_json::json;

use super::make_bot;
use crate::commands::store::{StoreArgs, runtime};
use crate::commands::{programs, progress};
use crate::mcr::competition::hand_of_result;
use crate::mcr::ijcai::{self, GROUP, PERMUTATIONS, Totals, WallResult};
use crate::mcr::library::{self, LibraryWall, WALLS_PANEL};
use crate::mcr::spec::{McrSpec, default_time, setup_of};
use crate::mcr::{GAME, McrBot, McrTable};

/// `arena mcr match`.
#[derive(Args)]
pub(super) struct MatchArgs {
    /// The bots, four or more: random, efficiency, fan, search[:samples=N,…], or cmd:PROGRAM [ARGS] (quoted) for a
    /// program speaking the game's line protocol. With a number that is not a multiple of four
    /// the field is padded with --pad bots. A name may repeat.
    #[arg(required = true, num_args = 1..)]
    bots: Vec<String>,
    /// The first match's seed (match m plays seed + m); it fixes every wall.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Walls per round, each played at all 24 seatings; the prevalent wind of wall w is w mod
    /// 4 (IJCAI 2020: 4).
    #[arg(long, default_value_t = ijcai::IJCAI_2020_WALLS)]
    walls: u32,
    /// Rounds, Swiss-paired by rank points after the first (default: 1 with four bots, 3
    /// with more).
    #[arg(long)]
    rounds: Option<u32>,
    /// Matches; with more than one, each bot's probability of each place.
    #[arg(long, default_value_t = 1)]
    matches: u32,
    /// The built-in bot padding the field to a multiple of four.
    #[arg(long, default_value = "efficiency")]
    pad: String,
    /// Walls of 144 tiles with flowers (IJCAI plays 136 without).
    #[arg(long)]
    flowers: bool,
    /// Where the walls come from: seed (dealt from --seed) or library (unused walls imported
    /// into the deal library with `arena deals import --game mcr`, of the size --flowers says,
    /// in an order drawn from --seed; every round of every match its own).
    #[arg(long, default_value = "seed", value_parser = ["seed", "library"])]
    walls_from: String,
    /// With --walls-from library: claim the walls played under this name once the match is
    /// over, as competitions do, so that no competition or later match deals them again.
    #[arg(long)]
    claim: Option<String>,
    /// The store of the deal library (with --walls-from library).
    #[command(flatten)]
    store: StoreArgs,
    /// Milliseconds a program has for each decision (its turn and its answer to a discard);
    /// no answer within twice that is a timeout. Botzone's clock, 1000, by default; a Python
    /// bot restarted each turn, or a slow bot, may need Botzone's 6000. Built-in bots are not
    /// timed.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=600_000))]
    decision_ms: u32,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Make the last line of output one JSON object.
    #[arg(long)]
    json: bool,
}

/// One entrant's tallies over a match beside its [`Totals`].
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    hands: u64,
    wins: u64,
    self_drawn: u64,
    dealt_in: u64,
    faults: u64,
}

/// One hand to play: its group (entrant indices), wall and seating.
struct Task {
    group: usize,
    wall: u32,
    perm: usize,
}

/// One played hand: the scores by seat, who won from whom, and each seat's verdicts.
pub(crate) struct HandResult {
    /// Scores by seat.
    pub scores: [i64; 4],
    /// The winner's seat.
    pub winner: Option<u8>,
    /// The discarder's (or robbed kong's owner's) seat.
    pub from: Option<u8>,
    /// Verdicts (faults) by seat.
    pub faults: [u32; 4],
}

/// A bot of the match, as one worker thread holds it.
enum Entrant {
    /// A built-in bot, kept from hand to hand (seeded afresh each hand).
    Player(Box<dyn Player>),
    /// A program, started afresh for each hand and seat.
    Program(Box<ProgramBot>),
}

/// The entrant named `name`: `cmd:PROGRAM [ARGS]` (already resolved and checked) or a
/// built-in bot.
fn entrant(name: &str) -> Result<Entrant> {
    match programs::is_program(crate::mcr::GAME, name) {
        true => {
            let cmd = CmdSpec::parse(name)?;
            let launch = Launch {
                workdir: WorkDir::Fresh,
                ..Launch::default()
            };
            Ok(Entrant::Program(Box::new(ProgramBot { cmd, launch })))
        }
        false => Ok(Entrant::Player(make_bot(name)?)),
    }
}

/// What a worker plays its hands with: every entrant of the field, the runner's buffers, and a
/// runtime for the programs' I/O.
struct Seats {
    entrants: Vec<Entrant>,
    scratch: Scratch<McrTable>,
    runtime: tokio::runtime::Runtime,
    /// The clock of tables with programs.
    time: v1::TimeControl,
}

/// Plays one hand of `deal` with entrant `seating[s]` in seat `s`, on the one runner: on its
/// fast path when every seat is a built-in bot (seeded with `seed`), else refereed like any
/// table (Botzone's clock, the judge's fault policy) with the programs in their seats.
fn play(
    deal: &Deal,
    seating: [usize; 4],
    seed: u64,
    names: &[String],
    seats: &mut Seats,
) -> Result<HandResult> {
    let spec = McrSpec {
        deal: *deal,
        policy: FaultPolicy::Judge,
    };
    let programs: Vec<Option<ProgramBot>> = seating
        .iter()
        .map(|&e| match &seats.entrants[e] {
            Entrant::Program(p) => Some((**p).clone()),
            Entrant::Player(_) => None,
        })
        .collect();
    if programs.iter().all(Option::is_none) {
        let mut by_entrant: Vec<Option<&mut dyn Player>> = seats
            .entrants
            .iter_mut()
            .map(|e| match e {
                Entrant::Player(p) => Some(&mut **p as &mut dyn Player),
                Entrant::Program(_) => None,
            })
            .collect();
        let mut bots = Vec::with_capacity(4);
        for &e in &seating {
            let p = by_entrant[e]
                .take()
                .context("a seating names four different entrants")?;
            bots.push(McrBot::with(p));
        }
        let mut table = McrTable::new(&spec);
        play_fast(&mut table, &mut bots, seed, &mut seats.scratch)
            .map_err(|e| anyhow::anyhow!("a built-in bot misplayed: {e}"))?;
        let outcome = table.game().outcome().context("the hand did not end")?;
        let win = outcome.win;
        let mut faults = [0u32; 4];
        if let Some(f) = outcome.fault {
            faults[usize::from(f & 3)] += 1;
        }
        return Ok(HandResult {
            scores: outcome.scores.map(i64::from),
            winner: win.map(|w| w.seat),
            from: win.and_then(|w| w.from),
            faults,
        });
    }
    let job = v1::TableJob {
        table_id: format!("mcr-match/{seed:016x}"),
        game: GAME.name().into(),
        // A program's seat is named as its position: the job names no program (a referee never
        // starts one); the program is handed to the runner beside it.
        seats: seating
            .iter()
            .zip(&programs)
            .map(|(&e, program)| v1::SeatSpec {
                bot: match program {
                    Some(_) => format!("position-{e}"),
                    None => names[e].clone(),
                },
            })
            .collect(),
        seed,
        time: Some(seats.time),
        setup: Some(arena_proto::payload::pack(&setup_of(
            deal,
            FaultPolicy::Judge,
        ))),
        ..Default::default()
    };
    let checked = crate::validate(&job).map_err(|e| anyhow::anyhow!("{e}"))?;
    let played = seats.runtime.block_on(checked.play_with_programs(
        &job,
        &RunOptions::default(),
        &BotHosts::default(),
        &programs,
    ));
    let record = match played {
        Played::Finished(record) => record,
        Played::Interrupted(why) => bail!("a hand was interrupted: {why}"),
    };
    let (result, _) = record.into_replay(Some(&job));
    Ok(hand_of_result(&result))
}

/// Runs `arena mcr match`.
pub(super) fn run(a: MatchArgs) -> Result<()> {
    if a.bots.len() < GROUP {
        bail!(
            "bots: {} given; a match needs at least four (built-in: {})",
            a.bots.len(),
            mcr_bots::BUILTIN_NAMES.join(", ")
        );
    }
    if a.walls == 0 {
        bail!("--walls must be at least 1");
    }
    if a.matches == 0 {
        bail!("--matches must be at least 1");
    }
    let mut names = a.bots.clone();
    let entered = names.len();
    names.extend(std::iter::repeat_n(a.pad.clone(), ijcai::padding(entered)));
    // Programs resolved and checked before the first hand (each hand starts a fresh process
    // in a directory of its own): one clear error, not a fault in every hand.
    let sandbox = programs::match_sandbox();
    for (i, n) in names.iter_mut().enumerate() {
        match programs::is_program(crate::mcr::GAME, n) {
            true => {
                let resolved = programs::prepare(crate::mcr::GAME, n, &sandbox)
                    .with_context(|| format!("bot {} ({n})", i + 1))?;
                *n = resolved.to_string();
            }
            false => {
                make_bot(n).map_err(|e| anyhow::anyhow!("bot {} ({n}): {e}", i + 1))?;
            }
        }
    }
    let rounds = a.rounds.unwrap_or(if names.len() == GROUP { 1 } else { 3 });
    if rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let time = v1::TimeControl {
        decision_ms: a.decision_ms,
        claim_ms: a.decision_ms,
        hard_cap_ms: a.decision_ms.saturating_mul(2),
        ..default_time()
    };
    let n = names.len();
    let groups = n / GROUP;
    let from_library = match a.walls_from.as_str() {
        "library" => Some(library_walls(&a, rounds)?),
        _ if a.claim.is_some() => {
            bail!("--claim: only walls from the library are claimed (--walls-from library)")
        }
        _ => None,
    };
    let hands_per_round = (groups * a.walls as usize * PERMUTATIONS.len()) as u64;
    let total = hands_per_round * u64::from(rounds) * u64::from(a.matches);
    let counter = AtomicU64::new(0);
    let start = Instant::now();
    let mut tally = PlaceTally::new(n);
    let mut rank_points: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut scores: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut counts = vec![Counts::default(); n];
    let mut last: Vec<Totals> = Vec::new();
    progress::with_bar(total, "hands", &counter, || -> Result<()> {
        for m in 0..a.matches {
            let match_seed = a.seed.wrapping_add(u64::from(m));
            let mut totals = vec![Totals::default(); n];
            for round in 0..rounds {
                let grouping = if round == 0 {
                    ijcai::groups_of(&(0..n).collect::<Vec<_>>())
                } else {
                    ijcai::swiss_groups(&totals)
                };
                let deals: Vec<(Deal, u64)> = (0..a.walls)
                    .map(|w| {
                        let deal = match &from_library {
                            Some(walls) => {
                                let at = ((m * rounds + round) * a.walls + w) as usize;
                                Deal {
                                    wall: walls[at].wall,
                                    quan: ijcai::quan(w),
                                }
                            }
                            None => ijcai::deal(match_seed, round, w, a.flowers),
                        };
                        (deal, ijcai::wall_seed(match_seed, round, w))
                    })
                    .collect();
                let results = play_round(
                    &names,
                    &grouping,
                    &deals,
                    threads,
                    time,
                    &counter,
                    &mut counts,
                )?;
                for r in &results {
                    ijcai::add_wall(&mut totals, r);
                }
            }
            let keys: Vec<(f64, i64)> = totals.iter().map(|t| (t.rank_points, t.score)).collect();
            tally.add(&places(&keys));
            for (e, t) in totals.iter().enumerate() {
                rank_points[e].push(t.rank_points);
                scores[e].push(t.score as f64);
            }
            last = totals;
        }
        Ok(())
    })?;
    let secs = start.elapsed().as_secs_f64();
    if let (Some(walls), Some(name)) = (&from_library, &a.claim) {
        let ids: Vec<String> = walls.iter().map(|w| w.id.clone()).collect();
        let rt = runtime()?;
        let store = rt.block_on(a.store.open())?;
        let claimed = rt.block_on(store.claim_deals(name, &ids))?;
        let lost = claimed.iter().filter(|c| !**c).count();
        if lost > 0 {
            bail!(
                "--claim {name}: {lost} of the walls played were claimed by a competition while \
                 the match ran; its standings stand, but rerun for walls of its own"
            );
        }
    }
    let probs = tally.probabilities();
    // Over one match the standings are that match's; over more, by mean rank points.
    let mean: Vec<Totals> = (0..n)
        .map(|e| Totals {
            rank_points: Estimate::of(rank_points[e].iter().copied()).mean,
            score: (Estimate::of(scores[e].iter().copied()).mean).round() as i64,
            walls: last[e].walls,
        })
        .collect();
    let standings = ijcai::standings(if a.matches == 1 { &last } else { &mean });
    println!(
        "mcr match (IJCAI): {} bots{}, {} match{} × {rounds} round{} × {groups} group{} × {} walls × 24 seatings = {total} hands, seed {} ({secs:.2} s)",
        entered,
        if n > entered {
            format!(" + {} {}", n - entered, a.pad)
        } else {
            String::new()
        },
        a.matches,
        if a.matches == 1 { "" } else { "es" },
        if rounds == 1 { "" } else { "s" },
        if groups == 1 { "" } else { "s" },
        a.walls,
        a.seed
    );
    let width = names
        .iter()
        .map(|b| b.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 40)
        + 4;
    let mut head = format!(
        "  {:>5}  {:<width$} {:>16} {:>20} {:>6} {:>10} {:>8} {:>6}",
        "place", "bot", "rank points", "score", "wins", "self-drawn", "dealt in", "faults"
    );
    if a.matches > 1 {
        for k in 1..=n.min(8) {
            head.push_str(&format!("  P(#{k})"));
        }
    }
    println!("{head}");
    let estimate = |xs: &[f64], digits: usize| {
        let e = Estimate::of(xs.iter().copied());
        if e.ci95.is_finite() {
            format!("{:.digits$} ± {:.digits$}", e.mean, e.ci95)
        } else {
            format!("{:.digits$}", e.mean)
        }
    };
    let mut json_rows = Vec::new();
    for &(e, place, _) in &standings {
        let c = &counts[e];
        let label = format!(
            "{}: {}",
            e + 1,
            names[e].chars().take(40).collect::<String>()
        );
        let mut line = format!(
            "  {:>5}  {:<width$} {:>16} {:>20} {:>6} {:>10} {:>8} {:>6}",
            place,
            label,
            estimate(&rank_points[e], 2),
            estimate(&scores[e], 0),
            c.wins,
            c.self_drawn,
            c.dealt_in,
            c.faults
        );
        if a.matches > 1 {
            for p in probs[e].iter().take(8) {
                line.push_str(&format!("  {p:>5.2}"));
            }
        }
        println!("{line}");
        let rp = Estimate::of(rank_points[e].iter().copied());
        let sc = Estimate::of(scores[e].iter().copied());
        json_rows.push(json!({
            "position": e,
            "bot": names[e],
            "padding": e >= entered,
            "place": place,
            "rank_points": rp.mean,
            "rank_points_ci95": rp.ci95.is_finite().then_some(rp.ci95),
            "score": sc.mean,
            "score_ci95": sc.ci95.is_finite().then_some(sc.ci95),
            "hands": c.hands,
            "wins": c.wins,
            "self_drawn": c.self_drawn,
            "dealt_in": c.dealt_in,
            "faults": c.faults,
            "places": probs[e],
        }));
    }
    if let Some(walls) = &from_library {
        println!(
            "walls from the deal library{}: {}",
            a.claim
                .as_ref()
                .map_or(String::new(), |c| format!(" (claimed by {c})")),
            walls
                .iter()
                .map(|w| w.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if a.json {
        println!(
            "{}",
            json!({
                "walls_from": a.walls_from,
                "library_walls": from_library.as_ref().map(|walls| walls
                    .iter()
                    .map(|w| json!({"id": w.id, "walltiles": w.wall.to_string()}))
                    .collect::<Vec<_>>()),
                "seed": a.seed,
                "matches": a.matches,
                "rounds": rounds,
                "walls": a.walls,
                "hands": total,
                "seconds": secs,
                "standings": json_rows,
            })
        );
    }
    Ok(())
}

/// The walls a match on library walls plays, `matches × rounds × walls` of them: unused ones
/// (neither used nor held by a running competition) of the size `--flowers` says, picked in
/// the order `--seed` draws ([`library::pick`]).
fn library_walls(a: &MatchArgs, rounds: u32) -> Result<Vec<LibraryWall>> {
    let rt = runtime()?;
    let store = rt.block_on(a.store.open())?;
    let records = rt.block_on(store.deals(WALLS_PANEL))?;
    let mut exclude: std::collections::HashSet<String> =
        rt.block_on(store.used_deals())?.into_keys().collect();
    exclude.extend(rt.block_on(arena_store::visibility::held_deals(&*store))?);
    let need = a.matches as usize * rounds as usize * a.walls as usize;
    library::pick(
        &records,
        &exclude,
        &Default::default(),
        a.seed,
        a.flowers,
        need,
    )
    .map_err(|e| anyhow::anyhow!("--walls-from library: {e} (in {})", store.describe()))
}

/// Plays every group's walls at all 24 seatings on `threads` workers (each with its own
/// bots), and sums each wall's scores per group member.
fn play_round(
    names: &[String],
    grouping: &[[usize; GROUP]],
    deals: &[(Deal, u64)],
    threads: usize,
    time: v1::TimeControl,
    counter: &AtomicU64,
    counts: &mut [Counts],
) -> Result<Vec<WallResult>> {
    let tasks: Vec<Task> = (0..grouping.len())
        .flat_map(|group| {
            (0..deals.len() as u32).flat_map(move |wall| {
                (0..PERMUTATIONS.len()).map(move |perm| Task { group, wall, perm })
            })
        })
        .collect();
    let next = AtomicUsize::new(0);
    // Per group and wall, each member's summed score.
    let sums = Mutex::new(vec![[0i64; GROUP]; grouping.len() * deals.len()]);
    let shared_counts = Mutex::new(counts.to_vec());
    let threads = threads.min(tasks.len()).max(1);
    std::thread::scope(|s| -> Result<()> {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| -> Result<()> {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .context("no runtime for the programs' I/O")?;
                    let mut seats = Seats {
                        entrants: names.iter().map(|n| entrant(n)).collect::<Result<_>>()?,
                        scratch: Scratch::new(),
                        runtime,
                        time,
                    };
                    let mut local = vec![Counts::default(); names.len()];
                    let mut local_sums = vec![[0i64; GROUP]; grouping.len() * deals.len()];
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(task) = tasks.get(i) else { break };
                        let group = grouping[task.group];
                        let perm = PERMUTATIONS[task.perm];
                        let seat_entrant = perm.map(|m| group[usize::from(m)]);
                        let (deal, wall_seed) = &deals[task.wall as usize];
                        // The bots' own randomness: seeded by the wall and the seating.
                        let seed = mahjong::schedule::mix(*wall_seed, task.perm as u64);
                        let r = play(deal, seat_entrant, seed, names, &mut seats)?;
                        let slot = task.group * deals.len() + task.wall as usize;
                        for seat in 0..4 {
                            let e = seat_entrant[seat];
                            let member = usize::from(perm[seat]);
                            local_sums[slot][member] += r.scores[seat];
                            let c = &mut local[e];
                            c.hands += 1;
                            c.wins += u64::from(r.winner == Some(seat as u8));
                            c.self_drawn +=
                                u64::from(r.winner == Some(seat as u8) && r.from.is_none());
                            c.dealt_in += u64::from(r.from == Some(seat as u8));
                            c.faults += u64::from(r.faults[seat]);
                        }
                        counter.fetch_add(1, Ordering::Relaxed);
                    }
                    let mut all = sums
                        .lock()
                        .map_err(|_| anyhow::anyhow!("a worker panicked"))?;
                    for (a, b) in all.iter_mut().zip(&local_sums) {
                        for k in 0..GROUP {
                            a[k] += b[k];
                        }
                    }
                    let mut c = shared_counts
                        .lock()
                        .map_err(|_| anyhow::anyhow!("a worker panicked"))?;
                    for (a, b) in c.iter_mut().zip(&local) {
                        a.hands += b.hands;
                        a.wins += b.wins;
                        a.self_drawn += b.self_drawn;
                        a.dealt_in += b.dealt_in;
                        a.faults += b.faults;
                    }
                    Ok(())
                })
            })
            .collect();
        for w in workers {
            w.join()
                .map_err(|_| anyhow::anyhow!("a worker panicked"))??;
        }
        Ok(())
    })?;
    counts.copy_from_slice(
        &shared_counts
            .into_inner()
            .map_err(|_| anyhow::anyhow!("a worker panicked"))?,
    );
    let sums = sums
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a worker panicked"))?;
    Ok(grouping
        .iter()
        .enumerate()
        .flat_map(|(g, members)| {
            let sums = &sums;
            (0..deals.len()).map(move |w| WallResult {
                members: *members,
                sums: sums[g * deals.len() + w],
            })
        })
        .collect())
}
