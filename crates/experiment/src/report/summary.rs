//! The report's summary section.

use std::fmt::Write as _;

use arena_deals::population::CentreRule;

use super::{format_labels, longest_curve, opt_rounds};
use crate::cells::Agreement;
use crate::claim::ClaimRow;
use crate::config::{FARMERS, LADDER, PAPER_CENTRE};
use crate::results::Results;
use crate::text::{fmt_gdi, fmt_gdi2, n_fmt, or_list, pct, ranking_levels, share};

/// The title, what was run and any warnings.
pub(super) fn header(r: &Results) -> String {
    let Results { run, lib, e2, .. } = *r;
    let mut md = String::new();
    let _ = writeln!(md, "# The equal-strength paper, reproduced\n");
    let find_games: u64 = e2.finds.iter().map(|f| f.report.games).sum();
    let _ = writeln!(
        md,
        "Scale **{}**. Library: {} one-bomb deals (deals 0–{} of seed {}), each played by {} (panel `{}`); {}. \
         The whole run took {:.0} s on {} threads and played {} games besides the library's measurement \
         ({} of them in the on-demand searches). Every number below is in [`results.json`](results.json); \
         `docs/experiment-paper.md` explains how to read this report.\n",
        run.scale.name(),
        n_fmt(lib.records.len() as u64),
        n_fmt(lib.records.len().saturating_sub(1) as u64),
        lib.source.seed,
        arena_deals::describe(run.panel),
        run.panel.id,
        if lib.report.measured == 0 {
            "all of them were already measured in the store".to_string()
        } else {
            format!(
                "{} measured by this run ({} games, {:.0} s), {} reused from the store",
                n_fmt(lib.report.measured),
                n_fmt(lib.report.games),
                lib.report.seconds,
                n_fmt(lib.report.already)
            )
        },
        run.seconds,
        run.threads,
        n_fmt(run.games),
        n_fmt(find_games)
    );
    for w in &run.warnings {
        let _ = writeln!(md, "> **Warning:** {w}\n");
    }
    md
}

/// One paragraph per experiment, the claim's verdict.
pub(super) fn summary(r: &Results) -> String {
    let Results {
        cfg,
        lib,
        e1,
        e2,
        truth,
        e3,
        e4,
        claim,
        ..
    } = *r;
    let c = &e2.choice;
    let mut md = String::new();
    let _ = writeln!(md, "## Summary\n");
    let _ = writeln!(
        md,
        "- **Experiment 1.** In a {}-match duplicate tournament the ten ladder levels finish {} \
         (Kendall τ against the level order {:.2}).",
        cfg.e1_matches,
        if e1.standings.final_order == e1.level_order {
            "exactly in level order".to_string()
        } else {
            format!(
                "in the order {}, not exactly the level order",
                ranking_levels(&e1.standings.final_order, &e1.names)
            )
        },
        e1.vs_levels.final_tau
    );
    let _ = writeln!(
        md,
        "- **Experiment 2.** {} of {} deals ({}) lie within 0.15 of the paper's centre {}. {}",
        c.reference_within[0],
        n_fmt(lib.gdis.len() as u64),
        share(c.reference_within[0], lib.gdis.len()),
        fmt_gdi2(&PAPER_CENTRE),
        if c.rule == CentreRule::Reference {
            "That is enough, so the experiments use it.".to_string()
        } else {
            format!(
                "The experiments use the centre **{}** instead, chosen from the measured library with the same meaning (see below); {} deals lie within 0.15 of it.",
                fmt_gdi(&c.centre),
                n_fmt(c.within[0] as u64)
            )
        }
    );
    let _ = writeln!(
        md,
        "- **True ranking** (duplicate, {} rounds on fresh deals): {}{}.",
        n_fmt(truth.rounds),
        truth.levels_best_first(),
        if truth.order.iter().copied().eq((0..truth.names.len()).rev()) {
            " — the level order"
        } else {
            " — not the level order"
        }
    );
    let _ = writeln!(
        md,
        "- **Experiment 3.** Kendall τ of each format's final ranking against the true ranking, by rounds per match:\n"
    );
    let _ = write!(md, "  | format |");
    for m in &cfg.e3_rounds {
        let _ = write!(md, " {m} rounds |");
    }
    let _ = write!(md, "\n  |---|{}\n", "---:|".repeat(cfg.e3_rounds.len()));
    let labels = format_labels(e3);
    for l in &labels {
        let _ = write!(md, "  | {l} |");
        for m in &cfg.e3_rounds {
            let cell = e3.cells.iter().find(|c| &c.label == l && c.rounds == *m);
            let s = match cell.map(|c| &c.outcome) {
                Some(Ok(p)) => format!("{:.2}", p.agreement.final_tau),
                _ => "skipped".into(),
            };
            let _ = write!(md, " {s} |");
        }
        md += "\n";
    }
    md += "\n";
    let max_m = longest_curve(e4);
    let th: Vec<String> = e4
        .thresholds()
        .iter()
        .map(|(l, h, n)| format!("{l} {} / {}", opt_rounds(*h, max_m), opt_rounds(*n, max_m)))
        .collect();
    let _ = writeln!(
        md,
        "- **Rounds needed** for half / 90% of matches to rank all five tables exactly right: {}.",
        th.join("; ")
    );
    let final_taus = |pick: fn(&ClaimRow) -> Option<&Agreement>| {
        claim
            .rows
            .iter()
            .map(|r| pick(r).map_or("—".to_string(), |a| format!("{:.2}", a.final_tau)))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let _ = writeln!(
        md,
        "- **The paper's claim {}**: final τ of equal-strength (ε = 0.15) {} and of random deals {} \
         for {} rounds; single matches ranked all five tables right {} of the time with equal-strength \
         deals, {} with random deals.\n",
        claim.verdict,
        final_taus(|r| r.equal_strength.as_ref()),
        final_taus(|r| r.random.as_ref()),
        or_list(&cfg.e3_rounds),
        pct(claim.equal_strength_exact_share),
        pct(claim.random_exact_share)
    );
    md
}

/// The terms the report uses.
pub(super) fn terms(r: &Results) -> String {
    let Results { e2, .. } = *r;
    let ntables = e2.tables;
    let mut md = String::new();
    let _ = writeln!(md, "## Terms\n");
    let _ = writeln!(
        md,
        "- **Tables.** Each table has its own landlord bot, a level of arena's {LADDER}-level skill ladder \
         (`ladder:K/{LADDER}`: the expert rule player that plays a random legal move with probability \
         ((70 − K)/69)², so level 70 is the pure expert and level 1 plays at random), and the same \
         `{FARMERS}` bot in both farmer seats. Landlords score with the paper's difficulty scoring: \
         ±1 for a win or loss, ±2 when the deal's bomb was played.\n\
         - **GDI** of a deal: the {ntables} ladder levels each play it as landlord. With one bomb the scores \
         are −2 < −1 < 1 < 2, and G = (g1, g2, g3): g1 = share of tables scoring −1 or more (1 − g1 lost \
         with the bomb played), g2 = share that won, g3 = share that won with the bomb played.\n\
         - **Formats.** Duplicate: every table gets the same deal in a round. Equal-strength: every table \
         gets a different deal within ε of a centre GDI. Random: every table gets an independent deal. \
         Difficulty-adjusted (arena's addition): random deals, each table scored by its landlord score \
         minus the deal's expected score (the {ntables} panel landlords' mean score on it).\n\
         - **Rank probabilities.** A match is m rounds; tables are ranked by their summed score in each \
         match (ties broken at random). P(#k) is the share of matches a table finished k-th; the final \
         ranking orders tables by their most probable place (in **bold**), ties by mean rank.\n\
         - **Agreement.** Kendall τ compares two rankings: 1 = identical, 0 = unrelated, −1 = reversed; \
         with five tables one swapped neighbouring pair gives τ = 0.8. *Final τ* compares the final \
         ranking with the true one; *mean τ per match* and the *exact share* (share of matches ranking all \
         tables exactly as the true ranking) measure single matches.\n"
    );
    md
}
