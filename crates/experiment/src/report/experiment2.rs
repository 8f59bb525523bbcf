//! The report's experiment2 section.

use std::fmt::Write as _;

use arena_deals::population::CentreRule;

use crate::config::{EPS, FARMERS, PAPER_CENTRE};
use crate::e2::meaning;
use crate::e2::record_bomb_holders;
use crate::results::Results;
use crate::text::{capitalise, fmt_gdi, fmt_gdi2, n_fmt, pct};

/// Experiment 2's heading and the measured GDI distribution.
pub(super) fn distribution(r: &Results) -> String {
    let Results { lib, e2, .. } = *r;
    let ntables = e2.tables;
    let mut md = String::new();
    let _ = writeln!(md, "## Experiment 2 — GDI near a centre, and distances\n");
    let _ = writeln!(
        md,
        "### The measured distribution\n\n{} deals, each played by the {ntables} landlords: {} games. \
         Quantiles of each GDI component:\n",
        n_fmt(lib.gdis.len() as u64),
        n_fmt(lib.gdis.len() as u64 * ntables as u64)
    );
    md += "| component | meaning | mean | p5 | p10 | p25 | median | p75 | p90 | p95 |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    let comp_meaning = [
        "not lost with the bomb",
        "landlord wins",
        "wins with the bomb",
    ];
    for (k, x) in e2.components.iter().enumerate() {
        let _ = writeln!(
            md,
            "| g{} | {} | {:.3} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} | {:.2} |",
            x.g,
            comp_meaning.get(k).unwrap_or(&""),
            x.mean,
            x.p05,
            x.p10,
            x.p25,
            x.p50,
            x.p75,
            x.p90,
            x.p95
        );
    }
    let _ = writeln!(
        md,
        "\nDeals by g2 (rows: share of landlords that win) and g3 (columns: share that win with the bomb \
         played). g3 ≤ g2 always, so the upper right is empty:\n"
    );
    md += "| g2 \\ g3 |";
    for j in 0..10 {
        let _ = write!(md, " {:.1}–{:.1} |", j as f64 / 10.0, (j + 1) as f64 / 10.0);
    }
    md += "\n|---|";
    md += &"---:|".repeat(10);
    md += "\n";
    for i in (0..10).rev() {
        let _ = write!(
            md,
            "| **{:.1}–{:.1}** |",
            i as f64 / 10.0,
            (i + 1) as f64 / 10.0
        );
        for j in 0..10 {
            let v = e2.histogram[i][j];
            let _ = write!(md, " {} |", if v == 0 { "·".into() } else { v.to_string() });
        }
        md += "\n";
    }
    md += "\n";
    if let Some(p) = &e2.scatter_paper {
        let _ = writeln!(
            md,
            "![GDI scatter with the paper's centre]({p})\n\n*g2 against g1 for every deal; colour from \
             blue (g3 = 0) to red (g3 = 1); the black dot and ring are the paper's centre and ε = 0.15 \
             (projected: the ring ignores g3).*\n"
        );
    }
    md
}

/// Experiment 2: the paper's centre and the chosen one.
pub(super) fn centre(r: &Results) -> String {
    let Results { lib, e2, .. } = *r;
    let ntables = e2.tables;
    let c = &e2.choice;
    let mut md = String::new();
    let _ = writeln!(md, "### The centre\n");
    let _ = writeln!(
        md,
        "The paper's centre {} is an easy deal for the landlord: {} of landlords win it, {} with the bomb \
         played. Within 0.15 / 0.20 / 0.25 of it lie **{} / {} / {}** of the {} measured deals.\n",
        fmt_gdi2(&PAPER_CENTRE),
        pct(PAPER_CENTRE[1]),
        pct(PAPER_CENTRE[2]),
        c.reference_within[0],
        c.reference_within[1],
        c.reference_within[2],
        n_fmt(lib.gdis.len() as u64)
    );
    match c.rule {
        CentreRule::Reference => {
            let _ = writeln!(
                md,
                "That is at least the {} deals experiment 3 needs, so the experiments use the paper's centre.\n",
                c.need
            );
        }
        rule => {
            let _ = writeln!(
                md,
                "Experiment 3 needs {} distinct deals within 0.15 to never reuse one, so the paper's centre \
                 cannot be used with this panel: against arena's `{FARMERS}` farmers hardly any deal is that \
                 easy for the landlord (the median deal is won by {} of landlords). The experiments use a \
                 centre **of the same meaning** — most landlords win, and most of them win with the bomb — \
                 placed where the measured deals are:\n",
                n_fmt(c.need as u64),
                pct(e2.components.get(1).map_or(0.0, |x| x.p50))
            );
            if let Some(s) = &c.shift {
                if rule == CentreRule::SameMeaningMode {
                    let _ = writeln!(
                        md,
                        "1. Take the deals with that meaning: g2 ≥ 0.5 (most tables win) and g3 ≥ g2 / 2 \
                         (most wins come with the bomb played): {} deals.\n\
                         2. Start at their mean GDI, {}.\n\
                         3. Move to the densest point among them by mean shift: repeat *centre ← mean GDI of \
                         those deals within 0.15 of the centre* until it stops moving ({} steps{}).\n",
                        n_fmt(c.same_meaning_deals as u64),
                        fmt_gdi(&s.start),
                        s.iterations,
                        if s.converged {
                            ""
                        } else {
                            ", step limit reached"
                        }
                    );
                } else {
                    let _ = writeln!(
                        md,
                        "No deal has the paper centre's meaning in this library, so the centre is the mean \
                         GDI of the landlord-favoured deals (g2 ≥ 0.5, {} deals), {}, moved by mean shift \
                         over all deals to {} ({} steps).\n",
                        c.favoured_deals,
                        fmt_gdi(&s.start),
                        fmt_gdi(&s.mode),
                        s.iterations
                    );
                }
            } else {
                let _ = writeln!(
                    md,
                    "No landlord-favoured deal exists in this library, so the experiments fall back to the paper's centre.\n"
                );
            }
            let _ = writeln!(
                md,
                "**Chosen centre: {}** — {}. Within 0.15 / 0.20 / 0.25 of it lie **{} / {} / {}** deals.\n",
                fmt_gdi(&c.centre),
                meaning(&c.centre, ntables),
                n_fmt(c.within[0] as u64),
                n_fmt(c.within[1] as u64),
                n_fmt(c.within[2] as u64)
            );
            if let (Some(s), CentreRule::SameMeaningMode) = (&c.simple_rule, rule) {
                let _ = writeln!(
                    md,
                    "Why not simply start from the mean of all landlord-favoured deals (g2 ≥ 0.5, {} deals, \
                     mean {}) and mean-shift over all deals? That ends at {}: {}. The table above shows why: \
                     among deals most landlords win, g3 is bimodal — either the bomb is played in nearly \
                     every win, or in hardly any — and the plain mean lies in the valley between, from where \
                     mean shift slides into the larger, bomb-less mode. That centre has another meaning than \
                     the paper's, so it is not used ({} / {} / {} deals within 0.15 / 0.20 / 0.25).\n",
                    n_fmt(c.favoured_deals as u64),
                    fmt_gdi(&s.start),
                    fmt_gdi(&s.mode),
                    meaning(&s.mode, ntables),
                    c.simple_rule_within.first().copied().unwrap_or(0),
                    c.simple_rule_within.get(1).copied().unwrap_or(0),
                    c.simple_rule_within.get(2).copied().unwrap_or(0)
                );
            }
        }
    }
    if let Some(p) = &e2.scatter_chosen {
        let _ = writeln!(md, "![GDI scatter with the chosen centre]({p})\n");
    }
    md
}

/// Experiment 2: the table-1 analogue.
pub(super) fn table1(r: &Results) -> String {
    let Results { e2, .. } = *r;
    let ntables = e2.tables;
    let c = &e2.choice;
    let mut md = String::new();
    let _ = writeln!(md, "### Table 1, with the chosen centre\n");
    let _ = writeln!(
        md,
        "Five deals as in the paper's table 1: three within 0.15 of the centre {} and two outside it. \
         Deal notation: landlord's 17 cards / down farmer / up farmer / the 3 bottom cards (the landlord's).\n",
        fmt_gdi2(&c.centre)
    );
    md += "| # | deal | GDI | distance | equal strength? |\n|---:|---|---|---:|---|\n";
    for (i, x) in e2.examples.iter().enumerate() {
        let _ = writeln!(
            md,
            "| {} | `{}` | {} | {:.3} | {} |",
            i + 1,
            x.record.deal,
            fmt_gdi(&x.record.gdi),
            x.distance,
            if x.distance <= EPS { "yes" } else { "no" }
        );
    }
    md += "\n";
    for (i, x) in e2.examples.iter().enumerate() {
        let _ = writeln!(
            md,
            "{}. *{}* (`{}`; bomb: {}). {}.",
            i + 1,
            x.role,
            x.record.id,
            record_bomb_holders(&x.record),
            capitalise(&meaning(&x.record.gdi, ntables))
        );
    }
    md += "\n";
    md
}

/// Experiment 2: on-demand generation near both centres.
pub(super) fn on_demand(r: &Results) -> String {
    let Results { cfg, e2, .. } = *r;
    let ntables = e2.tables;
    let mut md = String::new();
    let _ = writeln!(md, "### On-demand generation\n");
    let _ = writeln!(
        md,
        "The paper names precomputation as its method's weakness. `arena_deals::find` generates fresh \
         deals and measures each table by table, abandoning a deal as soon as its GDI provably cannot end \
         within 0.15 of the target. Asked for {} deals, at most {} tries each:\n",
        cfg.find_want,
        n_fmt(cfg.find_max_tries)
    );
    md += "| target | centre | found | deals tried | games | games without early abandoning | seconds |\n|---|---|---:|---:|---:|---:|---:|\n";
    for f in &e2.finds {
        let _ = writeln!(
            md,
            "| {} | {} | {} of {} | {} | {} | {} | {:.1} |",
            f.name,
            fmt_gdi2(&f.centre),
            f.report.found.len(),
            f.want,
            n_fmt(f.report.tried),
            n_fmt(f.report.games),
            n_fmt(f.report.tried * ntables as u64),
            f.report.seconds
        );
    }
    md += "\n";
    for f in &e2.finds {
        let rate = f.report.found.len() as f64 / f.report.tried.max(1) as f64;
        if f.gave_up() {
            let _ = writeln!(
                md,
                "- Near {}: **gave up** after {} tries with {} of {} deals found (about 1 deal in {}).{}",
                f.name,
                n_fmt(f.report.tried),
                f.report.found.len(),
                f.want,
                if rate > 0.0 {
                    n_fmt((1.0 / rate).round() as u64)
                } else {
                    format!("more than {}", n_fmt(f.report.tried))
                },
                if rate > 0.0 {
                    format!(
                        " At this rate {} deals would take about {} tries.",
                        f.want,
                        n_fmt((f.want as f64 / rate).round() as u64)
                    )
                } else {
                    String::new()
                }
            );
        } else {
            let _ = writeln!(
                md,
                "- Near {}: found all {} after {} tries (1 in {}), {:.1}× fewer games than measuring every try in full.",
                f.name,
                f.want,
                n_fmt(f.report.tried),
                n_fmt((1.0 / rate.max(1e-12)).round() as u64),
                (f.report.tried * ntables as u64) as f64 / f.report.games.max(1) as f64
            );
        }
    }
    md += "\n";
    md
}
