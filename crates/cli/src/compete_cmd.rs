//! `arena compete`: a competition among built-in landlord bots on the local deal library.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use arena_compete::{Competition, Format, GameCache, Reuse, Tables, plot};
use arena_deals::{FindSpec, Progress, describe};
use arena_store::{DealRecord, DealSource, Store};
use clap::Args;
use ddz::RuleSet;
use serde_json::json;

use crate::deals_cmd::{PanelArgs, exit_on_ctrl_c, stop_on_ctrl_c, threads};
use crate::store_args::{StoreArgs, runtime};
use arena_games::commands::progress;

/// The default table line-up: one of every kind of built-in player.
pub const DEFAULT_TABLES: &str = "search:samples=100,candidates=24,search:samples=25,candidates=12,expert,seed,ladder:50/70,ladder:30/70,random";

/// A competition on the local library.
#[derive(Args)]
pub struct CompeteArgs {
    /// duplicate, random, difficulty-adjusted, or equal-strength:CENTRE:EPS.
    #[arg(long, default_value = "equal-strength:0.95,0.55,0.15:0.15")]
    format: String,
    /// Landlord bots, one table each (comma-separated).
    #[arg(long, default_value = DEFAULT_TABLES)]
    tables: String,
    /// Matches (r).
    #[arg(long, default_value_t = 20)]
    matches: usize,
    /// Rounds per match (m).
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    /// Seed for dealing and tie-breaks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Bombs per deal (the deal population; equal-strength centres have 2 × (bombs + 1) − 1 values).
    #[arg(long, default_value_t = 1)]
    bombs: u8,
    /// Record the deals as used by this competition name, so no later competition gets them.
    #[arg(long)]
    claim: Option<String>,
    /// Write the rank-probability heat map here (PNG).
    #[arg(long)]
    heatmap: Option<PathBuf>,
    #[command(flatten)]
    panel: PanelArgs,
    #[command(flatten)]
    store: StoreArgs,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Splits a table list on commas that are not inside a bot's parameters (`search:a=1,b=2`).
pub fn split_tables(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let is_param = part.contains('=') && !part.contains(':');
        match out.last_mut() {
            Some(last) if is_param && last.contains(':') => {
                last.push(',');
                last.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

/// Makes sure the library holds enough eligible deals, measuring or generating more if not.
/// Returns the pool (all measured deals of the panel with the right bomb count).
#[allow(clippy::too_many_arguments)]
pub fn ensure_pool(
    rt: &tokio::runtime::Runtime,
    store: &dyn Store,
    panel: &arena_deals::DdzPanel,
    format: &Format,
    need: usize,
    exclude: &HashSet<String>,
    bombs: u8,
    threads: usize,
    quiet: bool,
) -> Result<Vec<DealRecord>> {
    let dim = arena_deals::levels::gdi_dimension(panel.scoring, u32::from(bombs));
    let load = || -> Result<Vec<DealRecord>> {
        Ok(rt
            .block_on(store.deals(&panel.id))?
            .into_iter()
            .filter(|r| r.gdi.len() == dim)
            .collect())
    };
    let mut pool = load()?;
    let eligible = |pool: &[DealRecord]| match format {
        Format::EqualStrength { centre, eps } => pool
            .iter()
            .filter(|r| !exclude.contains(&r.id) && arena_deals::measure::within(r, centre, *eps))
            .count(),
        _ => pool.iter().filter(|r| !exclude.contains(&r.id)).count(),
    };
    let have = eligible(&pool);
    if have >= need {
        return Ok(pool);
    }
    let stop = stop_on_ctrl_c(rt);
    let prog = Progress::default();
    match format {
        Format::EqualStrength { centre, eps } => {
            if centre.len() != dim {
                bail!(
                    "deals with {bombs} bomb(s) have GDI vectors of {dim} values; the centre has {}",
                    centre.len()
                );
            }
            let source = DealSource {
                seed: 0xE5_0000 + u64::from(bombs),
                bombs: Some(bombs),
            };
            let start = rt
                .block_on(store.measured_indices(&panel.id, &source))?
                .last()
                .map_or(0, |i| i + 1);
            if !quiet {
                eprintln!(
                    "the library holds {have} unused deals within {eps} of {centre:?}; generating {} more on demand",
                    need - have
                );
            }
            let spec = FindSpec {
                panel: panel.clone(),
                source,
                start,
                centre: centre.clone(),
                eps: *eps,
                want: need - have,
                max_tries: 5_000_000,
                rules: RuleSet::COMPETITION,
                threads,
            };
            let report =
                progress::with_bar((need - have) as u64, "deals found", &prog.found, || {
                    rt.block_on(arena_deals::find(store, &spec, &prog, &stop))
                })?;
            if !quiet {
                eprintln!(
                    "  found {} in {:.1} s ({} fresh deals tried, {} games)",
                    report.found.len(),
                    report.seconds,
                    report.tried,
                    report.games
                );
            }
        }
        _ => {
            let source = DealSource {
                seed: 1,
                bombs: Some(bombs),
            };
            let count = rt
                .block_on(store.measured_indices(&panel.id, &source))?
                .len() as u64
                + (need - have) as u64;
            if !quiet {
                eprintln!(
                    "the library holds {have} unused deals; measuring {} more",
                    need - have
                );
            }
            let spec = arena_deals::MeasureSpec {
                panel: panel.clone(),
                source,
                count,
                rules: RuleSet::COMPETITION,
                threads,
                batch: 500,
            };
            progress::with_bar(
                (need - have) as u64 * panel.landlords.len() as u64,
                "games",
                &prog.games,
                || rt.block_on(arena_deals::measure(store, &spec, &prog, &stop)),
            )?;
        }
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(crate::report::Interrupted(format!(
            "interrupted: the deals measured so far are kept in the library (panel {}); run the \
             same command again to go on from them",
            panel.id
        ))
        .into());
    }
    pool = load()?;
    let have = eligible(&pool);
    if have < need {
        bail!(
            "only {have} eligible deals after generating more; {need} are needed (stopped early?)"
        );
    }
    Ok(pool)
}

/// Runs `arena compete`.
pub fn run(a: CompeteArgs) -> Result<()> {
    let rt = runtime()?;
    let format: Format = a.format.parse().map_err(anyhow::Error::msg)?;
    let names = split_tables(&a.tables);
    if names.len() < 2 {
        bail!("a competition needs at least two tables, got {names:?}");
    }
    let tables = Tables {
        landlords: names.clone(),
        down: a.panel.farmers.clone(),
        up: a.panel.farmers.clone(),
        scoring: a.panel.scoring,
        rules: RuleSet::COMPETITION,
    };
    arena_compete::play::check_tables(&tables)?;
    if a.matches == 0 || a.rounds == 0 {
        bail!("--matches and --rounds must be at least 1");
    }
    let panel = a.panel.panel()?;
    let store = rt.block_on(a.store.open())?;
    let threads = threads(a.threads);
    let start = Instant::now();
    let exclude: HashSet<String> = rt.block_on(store.used_deals())?.into_keys().collect();
    let per_round = if format == Format::Duplicate {
        1
    } else {
        names.len()
    };
    let need = per_round * a.rounds * a.matches;
    let pool = ensure_pool(
        &rt, &*store, &panel, &format, need, &exclude, a.bombs, threads, a.json,
    )?;
    let comp = Competition {
        tables,
        format: format.clone(),
        matches: a.matches,
        rounds: a.rounds,
        seed: a.seed,
        reuse: Reuse::Never,
    };
    let counter = AtomicU64::new(0);
    let games = (names.len() * a.rounds * a.matches) as u64;
    if !a.json {
        eprintln!("playing {games} games ({threads} threads)");
    }
    exit_on_ctrl_c(format!(
        "interrupted while the games were played: a competition's standings need all its games, \
         so none are printed{}; the deals stay in the library for the next run",
        if a.claim.is_some() {
            " and no deal was claimed"
        } else {
            ""
        }
    ));
    let mut cache = GameCache::default();
    let result = progress::with_bar(games, "games", &counter, || {
        arena_compete::run(&comp, &pool, &exclude, threads, &mut cache, &counter)
    })?;
    if let Some(name) = &a.claim {
        let claimed = rt.block_on(store.claim_deals(name, &result.deal_ids))?;
        let lost = claimed.iter().filter(|c| !**c).count();
        if lost > 0 {
            bail!(
                "{lost} deals were claimed by another competition while this one ran; rerun to draw fresh deals"
            );
        }
    }
    let s = &result.standings;
    if let Some(path) = &a.heatmap {
        plot::rank_heatmap(s, &format!("rank probabilities: {format}"), path)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let secs = start.elapsed().as_secs_f64();
    if a.json {
        let obj = json!({
            "format": format, "tables": names, "farmers": a.panel.farmers, "matches": a.matches, "rounds": a.rounds,
            "seed": a.seed, "panel": panel.id, "scoring": a.panel.scoring, "seconds": secs,
            "standings": s, "final_ranking": s.final_order.iter().map(|&t| &names[t]).collect::<Vec<_>>(),
            "deals_used": result.deal_ids.len(),
        });
        println!("{obj}");
        return Ok(());
    }
    let library = match &a.store.redis {
        None => format!("the data directory {}", a.store.data_dir.display()),
        Some(_) => store.describe(),
    };
    print_wrapped(&explain(&Explained {
        format: &format,
        tables: names.len(),
        matches: a.matches,
        rounds: a.rounds,
        farmers: &a.panel.farmers,
        scoring: &a.panel.scoring.to_string(),
    }));
    println!();
    print!("{}", s.render());
    println!();
    print_wrapped(&format!(
        "How to read it: in each match every table plays the same number of games, and the tables \
         are ranked by their total landlord score. P(#k) is the share of the {} matches in which \
         the table finished k-th (* marks its most probable place); mean score is its landlord's \
         average score per game under {} scoring, and mean rank its average place: a higher score \
         and a lower rank are better. Place 1 is the strongest bot: tables are ordered by their \
         most probable place, ties broken by mean rank.",
        a.matches, a.panel.scoring
    ));
    println!();
    print_wrapped(&format!(
        "Deals: {} distinct, from the deal library in {library} (kept there: a second run reuses \
         them and is faster); their difficulty was measured by panel {} ({}). {} games in {:.1} s{}.",
        result.deal_ids.len(),
        panel.id,
        describe(&panel),
        cache.len(),
        secs,
        a.heatmap
            .as_ref()
            .map_or(String::new(), |p| format!("; heat map in {}", p.display()))
    ));
    println!();
    println!("Next:");
    println!(
        "  arena compete --heatmap ranks.png   the same run, with the place probabilities drawn as a heat map"
    );
    println!(
        "  arena standalone                    the platform: competitions, a ladder and the web console at http://127.0.0.1:8054/"
    );
    println!(
        "  docs/bots.md                        write a bot of your own (examples/ddz-python/simple_bot.py is one)"
    );
    println!("  docs/deals.md                       how a deal's difficulty (GDI) is measured");
    Ok(())
}

/// The width paragraphs of the report are wrapped to.
const WIDTH: usize = 100;

/// Prints `text`'s lines wrapped at word boundaries to [`WIDTH`] columns.
fn print_wrapped(text: &str) {
    for paragraph in text.lines() {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > WIDTH {
                println!("{line}");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        println!("{line}");
    }
}

/// What [`explain`] says a competition was.
struct Explained<'a> {
    format: &'a Format,
    tables: usize,
    matches: usize,
    rounds: usize,
    farmers: &'a str,
    scoring: &'a str,
}

/// In plain words, what was run: the bots, the matches, and how the deals were chosen, with
/// why (equal strength is the point of the main job; the other formats are its baselines).
fn explain(e: &Explained) -> String {
    let deals = match e.format {
        Format::EqualStrength { centre, eps } => format!(
            "Every table got different deals, all of the same measured difficulty: each deal's \
             difficulty index (GDI, the chance that a landlord of each skill level reaches each \
             score level with it) lies within {eps} of ({centre}). No player can help another by \
             telling it the cards, yet no table is dealt an easier game: the equal-strength \
             method of Li, Chen, Zheng and Meng, \"Equal-strength deals in competitive Dou Dizhu\" \
             (CAAI Transactions on Intelligent Systems, 2021; docs/deals.md).",
            centre = centre
                .iter()
                .map(f64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Format::Duplicate => "Every table got the same deals (duplicate): luck is the same for \
             all, but players who share their cards could cheat."
            .to_string(),
        Format::Random => "Every table got its own random deals: the baseline, where luck of the \
             deal blurs the ranking."
            .to_string(),
        Format::DifficultyAdjusted => "Every table got its own random deals, and each game's \
             score is corrected by the deal's measured difficulty (the panel's mean landlord score \
             on it)."
            .to_string(),
    };
    format!(
        "A competition in the {format} format among {tables} Dou Dizhu landlord bots: each played landlord at a \
         table of its own against the same two `{farmers}` farmers, {matches} matches of {rounds} \
         games, scored under {scoring} scoring.\n{deals}\n",
        format = e.format.name(),
        tables = e.tables,
        farmers = e.farmers,
        matches = e.matches,
        rounds = e.rounds,
        scoring = e.scoring,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_explanation_names_the_bots_the_deals_and_the_method() {
        let format: Format = "equal-strength:0.95,0.55,0.15:0.15".parse().unwrap();
        let text = explain(&Explained {
            format: &format,
            tables: 7,
            matches: 20,
            rounds: 20,
            farmers: "expert",
            scoring: "difficulty",
        });
        for want in [
            "7 Dou Dizhu landlord bots",
            "`expert` farmers",
            "20 matches of 20",
            "within 0.15 of",
            "equal-strength",
            "docs/deals.md",
        ] {
            assert!(text.contains(want), "{want:?} not in {text}");
        }
    }

    #[test]
    fn table_lists_keep_bot_parameters_together() {
        assert_eq!(
            split_tables("search:samples=4,candidates=8,seed, ladder:3/10"),
            ["search:samples=4,candidates=8", "seed", "ladder:3/10"]
        );
        assert_eq!(split_tables("random,expert"), ["random", "expert"]);
    }
}
