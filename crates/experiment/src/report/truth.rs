//! The report's truth section.

use std::fmt::Write as _;

use crate::config::{E3_LEVELS, LADDER, TRUTH_SEED};
use crate::results::Results;
use crate::text::n_fmt;

/// The true ranking and how well it is separated.
pub(super) fn truth(r: &Results) -> String {
    let Results { truth, .. } = *r;
    let mut md = String::new();
    let _ = writeln!(md, "## The true ranking\n");
    let _ = writeln!(
        md,
        "Experiments 3 and 4 rank five tables, levels {} of {LADDER}. Their *true ranking* is a single \
         duplicate match of {} rounds on fresh one-bomb deals (seed {TRUTH_SEED}, never measured and never \
         dealt by the formats under test), ranked by total score: **{}**{}.\n",
        E3_LEVELS.map(|l| l.to_string()).join(", "),
        n_fmt(truth.rounds),
        truth.levels_best_first(),
        if truth.order.iter().copied().eq((0..truth.names.len()).rev()) {
            ", the level order"
        } else {
            ", which is not the level order"
        }
    );
    md += "| neighbours in the true ranking | mean score difference per deal | standard error | z |\n|---|---:|---:|---:|\n";
    for g in &truth.gaps {
        let _ = writeln!(
            md,
            "| `{}` over `{}` | {:+.4} | {:.4} | {:.1} |",
            g.better, g.worse, g.mean_difference, g.standard_error, g.z
        );
    }
    let weakest = truth
        .gaps
        .iter()
        .min_by(|a, b| a.z.total_cmp(&b.z))
        .map_or(f64::INFINITY, |g| g.z);
    let _ = writeln!(
        md,
        "\n{}\n",
        if weakest >= 3.0 {
            format!(
                "Every neighbouring pair is separated by at least {weakest:.1} standard errors (differences are paired: both tables played the same deals), so the true ranking is not an accident of the deals."
            )
        } else {
            format!(
                "The closest pair is only {weakest:.1} standard errors apart: the true ranking of that pair is uncertain, and agreement figures involving it should be read with care."
            )
        }
    );
    md
}
