//! The report's experiment4 section.

use std::fmt::Write as _;

use super::{longest_curve, opt_rounds};
use crate::results::Results;
use crate::text::fmt_gdi2;

/// Beyond the paper: rounds needed.
pub(super) fn experiment4(r: &Results) -> String {
    let Results { e3, e4, .. } = *r;
    let max_m = longest_curve(e4);
    let mut md = String::new();
    let _ = writeln!(md, "## Beyond the paper: rounds needed\n");
    let _ = writeln!(
        md,
        "How many rounds must a match have before a *single* match ranks the five tables exactly as the \
         true ranking? For each format and match length, {} matches are played (deals reused across \
         matches, never within one; equal-strength at ε = 0.15 around {}). A longer match extends the \
         shorter ones (same seed), so the curves share their randomness. With {} matches a share has a \
         standard error of at most {:.2}.\n",
        e4.matches,
        fmt_gdi2(&e3.centre),
        e4.matches,
        0.5 / (e4.matches.max(1) as f64).sqrt()
    );
    if let Some(p) = &e4.exact_plot {
        let _ = writeln!(md, "![exact agreement against rounds]({p})\n");
    }
    if let Some(p) = &e4.tau_plot {
        let _ = writeln!(md, "![mean tau against rounds]({p})\n");
    }
    md += "Exact share (mean τ per match) by rounds per match:\n\n| rounds |";
    for cells in &e4.series {
        let _ = write!(md, " {} |", cells[0].label);
    }
    md += "\n|---:|";
    md += &"---:|".repeat(e4.series.len());
    md += "\n";
    for (i, m) in e4.rounds.iter().enumerate() {
        let _ = write!(md, "| {m} |");
        for cells in &e4.series {
            let s = match cells.get(i).map(|c| &c.outcome) {
                Some(Ok(p)) => format!(
                    "{:.2} ({:.2})",
                    p.agreement.exact_share, p.agreement.mean_tau
                ),
                Some(Err(e)) => format!("skipped: {e}"),
                None => String::new(),
            };
            let _ = write!(md, " {s} |");
        }
        md += "\n";
    }
    md += "\n| format | rounds for exact share ≥ 0.5 | rounds for exact share ≥ 0.9 |\n|---|---:|---:|\n";
    for (l, h, n) in e4.thresholds() {
        let _ = writeln!(
            md,
            "| {l} | {} | {} |",
            opt_rounds(h, max_m),
            opt_rounds(n, max_m)
        );
    }
    md += "\n";
    md
}
