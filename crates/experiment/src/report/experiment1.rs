//! The report's experiment1 section.

use std::fmt::Write as _;

use arena_compete::Reuse;

use super::rank_table;
use crate::config::{E1_LEVELS, LADDER};
use crate::results::Results;
use crate::text::{pct, ranking_levels};

/// Experiment 1: the ladder's levels are distinct.
pub(super) fn experiment1(r: &Results) -> String {
    let Results { cfg, e1, .. } = *r;
    let mut md = String::new();
    let _ = writeln!(md, "## Experiment 1 — the ladder's levels are distinct\n");
    let _ = writeln!(
        md,
        "The paper's figure 3: ten landlord levels ({}) of the {LADDER} play a duplicate tournament of \
         {} matches × {} rounds against the same farmers (deals from the library, {}). \
         Rows are in final order.\n",
        E1_LEVELS.map(|l| l.to_string()).join(", "),
        cfg.e1_matches,
        cfg.e1_rounds,
        if e1.reuse == Reuse::Never {
            "no deal used twice".to_string()
        } else {
            "deals reused across matches: the library is too small for fresh ones".to_string()
        }
    );
    md += &rank_table(&e1.standings, |t| format!("`{}`", e1.names[t]));
    md += "\n";
    if let Some(h) = &e1.heatmap {
        let _ = writeln!(md, "![rank probabilities of the ten levels]({h})\n");
    }
    let _ = writeln!(
        md,
        "Final ranking (levels, best first): {}. {} Kendall τ against the level order: **{:.2}**; \
         per match: mean τ {:.2} ± {:.2}, {} of matches exactly in level order.\n",
        ranking_levels(&e1.standings.final_order, &e1.names),
        if e1.standings.final_order == e1.level_order {
            "It **equals the level order**."
        } else {
            "It is **not exactly the level order**."
        },
        e1.vs_levels.final_tau,
        e1.vs_levels.mean_tau,
        e1.vs_levels.mean_tau_se,
        pct(e1.vs_levels.exact_share)
    );
    md
}
