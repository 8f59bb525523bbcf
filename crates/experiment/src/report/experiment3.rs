//! The report's experiment3 section.

use std::fmt::Write as _;

use super::{format_labels, rank_table};
use crate::cells::{Played, reuse_name};
use crate::results::Results;
use crate::text::{fmt_gdi, n_fmt, or_list, ranking_levels};

/// Experiment 3: the formats, as the paper ran them.
pub(super) fn experiment3(r: &Results) -> String {
    let Results { cfg, truth, e3, .. } = *r;
    let labels = format_labels(e3);
    let mut md = String::new();
    let _ = writeln!(md, "## Experiment 3 — formats\n");
    let _ = writeln!(
        md,
        "The paper's experiment 3 (its tables 3–5): the five tables under each format, {} matches of {} \
         rounds. Equal-strength deals lie within ε of the chosen centre {}. Random and \
         difficulty-adjusted play the very same deals and differ only in scoring. Deals come from the \
         library; a cell uses each deal at most once when the library has enough eligible deals, \
         otherwise deals are reused across matches (never within one) — the *reuse* column says which.\n",
        cfg.e3_matches,
        or_list(&cfg.e3_rounds),
        fmt_gdi(&e3.centre)
    );
    md += "| format | rounds | eligible deals | reuse | final ranking (levels) | final τ | mean τ per match | exact share |\n|---|---:|---:|---|---|---:|---:|---:|\n";
    for cell in &e3.cells {
        match &cell.outcome {
            Ok(p) => {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {} | {} | {:.2} | {:.2} ± {:.2} | {:.2} |",
                    cell.label,
                    cell.rounds,
                    n_fmt(cell.eligible as u64),
                    reuse_name(p.reuse),
                    ranking_levels(&p.standings.final_order, &e3.names),
                    p.agreement.final_tau,
                    p.agreement.mean_tau,
                    p.agreement.mean_tau_se,
                    p.agreement.exact_share
                );
            }
            Err(e) => {
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | — | skipped: {e} | | | |",
                    cell.label,
                    cell.rounds,
                    n_fmt(cell.eligible as u64)
                );
            }
        }
    }
    let _ = writeln!(
        md,
        "\n± is one standard error over the {} matches. True ranking: {}.\n",
        cfg.e3_matches,
        truth.levels_best_first()
    );
    for l in &labels {
        let _ = writeln!(md, "### {l}\n");
        for cell in e3.cells.iter().filter(|c| &c.label == l) {
            match &cell.outcome {
                Ok(p) => {
                    let _ = writeln!(
                        md,
                        "**{} rounds × {} matches** — final ranking {}, τ = {:.2}{}\n",
                        cell.rounds,
                        cell.matches,
                        ranking_levels(&p.standings.final_order, &e3.names),
                        p.agreement.final_tau,
                        p.heatmap
                            .as_ref()
                            .map_or(String::new(), |h| format!(" ([heat map]({h}))"))
                    );
                    md += &rank_table(&p.standings, |t| format!("`{}`", e3.names[t]));
                    md += "\n";
                }
                Err(e) => {
                    let _ = writeln!(md, "**{} rounds**: skipped — {e}.\n", cell.rounds);
                }
            }
        }
        let ten = e3
            .cells
            .iter()
            .filter(|c| &c.label == l)
            .find(|c| c.rounds == 10)
            .or_else(|| e3.cells.iter().find(|c| &c.label == l));
        if let Some(Ok(Played {
            heatmap: Some(h), ..
        })) = ten.map(|c| &c.outcome)
        {
            let _ = writeln!(md, "![{l}]({h})\n");
        }
    }
    md
}
