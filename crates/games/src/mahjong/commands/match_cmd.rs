//! `arena mahjong match`: the contest's 96-hand duplicate match among four bots.

use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use mahjong::schedule::HANDS;
use mahjong::stats::paired_difference;
use mahjong::{Reading, Rules};
use mahjong_bots::VerdictKind;
use mahjong_bots::spec::BotSpec;

use crate::commands::{programs, progress};
use crate::mahjong::duplicate::entrant;
use crate::mahjong::duplicate::run::{MatchConfig, MatchReport, MatchResult, VerdictEntry, run};
use crate::mahjong::spec::contest_time;

/// `arena mahjong match`.
#[derive(Args)]
pub(super) struct MatchArgs {
    /// Bot A: random, greedy, expert, or cmd:PROGRAM [ARGS] (quoted) for a program speaking the
    /// 2015 line protocol. The same bot may be named more than once.
    a: String,
    /// Bot B, named the same way.
    b: String,
    /// Bot C.
    c: String,
    /// Bot D.
    d: String,
    /// The first match's seed (match m plays seed + m); it fixes every deal.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many 96-hand matches; with more than one, each bot's probability of each place.
    #[arg(long, default_value_t = 1)]
    matches: usize,
    /// Fan reading: contest or seed-2015.
    #[arg(long, default_value = "contest")]
    fans: Reading,
    /// Write each hand's log (old server format and JSON lines) and each match's score sheet
    /// (CSV) under this directory.
    #[arg(long)]
    log_dir: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Make the last line of output one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `arena mahjong match`.
pub(super) fn run_match(a: MatchArgs) -> Result<()> {
    if a.matches == 0 {
        bail!("--matches must be at least 1");
    }
    let names = [a.a, a.b, a.c, a.d];
    let mut specs = Vec::with_capacity(4);
    for (i, n) in names.iter().enumerate() {
        let spec: BotSpec = n
            .parse()
            .map_err(|e| anyhow::anyhow!("bot {} ({n:?}): {e}", position_label(i)))?;
        specs.push(spec);
    }
    let bots = specs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let bots: [String; 4] = bots.try_into().expect("four bots");
    // Programs resolved and checked before the first hand (each hand starts a fresh process
    // in a directory of its own): one clear error, not a crash verdict in every hand.
    let sandbox = programs::match_sandbox();
    for (i, spec) in specs.iter_mut().enumerate() {
        if let BotSpec::Cmd(cmd) = spec {
            let resolved = programs::prepare(crate::mahjong::GAME, cmd, &sandbox)
                .with_context(|| format!("bot {} ({})", position_label(i), names[i]))?;
            *cmd = resolved.command_line();
        }
    }
    let config = MatchConfig {
        bots: bots.clone(),
        seed: a.seed,
        matches: a.matches,
        rules: Rules { reading: a.fans },
        time: contest_time(),
        threads: a
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1),
        log_dir: a.log_dir.clone(),
    };
    let factory = |position: usize| entrant(&specs[position]);
    let counter = AtomicU64::new(0);
    let start = Instant::now();
    let total = (HANDS * a.matches) as u64;
    let report = progress::with_bar(total, "hands", &counter, || {
        run(&config, &factory, &counter)
    })?;
    let secs = start.elapsed().as_secs_f64();
    print_table(&report, &config, secs);
    if a.json {
        println!(
            "{}",
            MatchResult::of_report(&report, config.rules.reading).to_json_line()
        );
    }
    check_every_seat_played(&report, HANDS * a.matches)
}

/// An error if a bot crashed in every one of the `hands` it sat in: its program never ran (it
/// fails at start-up, or dies before its first answer), and the ranking says nothing about
/// it. Scripts and CI rely on the exit code for this.
fn check_every_seat_played(report: &MatchReport, hands: usize) -> Result<()> {
    for b in 0..4 {
        let crashes = report
            .verdicts
            .iter()
            .filter(|v| v.bot == b && v.kind == VerdictKind::Crashed);
        let first = crashes.clone().next();
        if let Some(first) = first
            && crashes.count() >= hands
        {
            bail!(
                "bot {} ({}) crashed in all {hands} hands, so this match ranks nothing; the first: {}",
                position_label(b),
                report.bots[b],
                first.reason
            );
        }
    }
    Ok(())
}

/// A, B, C, D: how the bots are told apart (never by name: a name may repeat).
fn position_label(i: usize) -> char {
    (b'A' + i as u8) as char
}

fn print_table(r: &MatchReport, c: &MatchConfig, secs: f64) {
    let st = &r.standings;
    let t = &st.totals;
    println!(
        "mahjong match: {} × {HANDS} hands, seed {}, fans {} — {} drawn hands ({:.1} s)",
        c.matches, c.seed, c.rules.reading, t.draws, secs
    );
    let width = r
        .bots
        .iter()
        .map(|b| b.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 40)
        + 3;
    let mut head = format!(
        "  {:>5}  {:<width$} {:>8}  {:>17}  {:>5} {:>10} {:>8} {:>7} {:>8}",
        "place",
        "bot",
        "score",
        "per hand (95%)",
        "wins",
        "self-drawn",
        "dealt in",
        "penalty",
        "verdicts"
    );
    if c.matches > 1 {
        head.push_str("   P(#1)  P(#2)  P(#3)  P(#4)");
    }
    println!("{head}");
    for (place, &b) in st.order.iter().enumerate() {
        let p = &t.players[b];
        let e = &st.mean_per_hand[b];
        let ci = if e.ci95.is_finite() {
            format!("{:+.2} ± {:.2}", e.mean, e.ci95)
        } else {
            format!("{:+.2}", e.mean)
        };
        let name: String = r.bots[b].chars().take(40).collect();
        let mut line = format!(
            "  {:>5}  {:<width$} {:>+8}  {:>17}  {:>5} {:>10} {:>8} {:>7} {:>8}",
            place + 1,
            format!("{}: {name}", position_label(b)),
            p.score,
            ci,
            p.wins,
            p.self_drawn,
            p.dealt_in,
            p.penalty,
            p.verdicts
        );
        if c.matches > 1 {
            for k in 0..4 {
                line.push_str(&format!("  {:>5.2}", st.places[b][k]));
            }
        }
        println!("{line}");
    }
    // Neighbours in the ranking compared on the same deals: the deal's luck cancels.
    for w in st.order.windows(2) {
        let d = paired_difference(&r.hands, w[0], w[1]);
        if d.ci95.is_finite() {
            println!(
                "  {} − {} per hand, paired on the same deals: {:+.2} ± {:.2}{}",
                position_label(w[0]),
                position_label(w[1]),
                d.mean,
                d.ci95,
                if d.low() > 0.0 { " (significant)" } else { "" }
            );
        }
    }
    // Verdicts by bot and kind, each with its first occurrence (every one is in the logs).
    let mut groups: Vec<((usize, VerdictKind), usize, &VerdictEntry)> = Vec::new();
    for v in &r.verdicts {
        match groups.iter_mut().find(|g| g.0 == (v.bot, v.kind)) {
            Some(g) => g.1 += 1,
            None => groups.push(((v.bot, v.kind), 1, v)),
        }
    }
    groups.sort_by_key(|g| g.0.0);
    for ((bot, kind), n, first) in groups {
        let reason: String = first.reason.chars().take(200).collect();
        println!(
            "  verdicts: {} {n} × {kind}; first in match {} hand {} (seat {}): {reason}",
            position_label(bot),
            first.match_seed,
            first.hand,
            first.seat
        );
    }
    if let Some(dir) = &c.log_dir {
        println!(
            "  logs (every verdict in its hand's log): {}",
            dir.display()
        );
    }
}
