//! Planning competitions from the library, and how well standings agree with a reference order.

use std::collections::HashSet;

use arena_compete::{
    Format, Plan, PlanError, Reuse, Shape, Standings, kendall_tau, order_of, plan,
};
use arena_deals::centre::count_within;
use serde_json::{Value, json};

use crate::library::Library;

pub(crate) fn reuse_name(r: Reuse) -> &'static str {
    match r {
        Reuse::Never => "never",
        Reuse::AcrossMatches => "across-matches",
    }
}

/// Deals of `lib` a format may hand out.
pub(crate) fn eligible(format: &Format, lib: &Library) -> usize {
    match format {
        Format::EqualStrength { centre, eps } => count_within(&lib.gdis, centre, *eps),
        _ => lib.records.len(),
    }
}

/// A plan and how it reuses deals, or why the library could not deal it.
pub(crate) type Planned = Result<(Plan, Reuse), String>;

/// Plans with never-reused deals when the library allows it, else with deals reused across
/// (never within) matches; `Err` says why neither works.
pub(crate) fn plan_preferring_fresh(
    format: &Format,
    lib: &Library,
    tables: usize,
    matches: usize,
    rounds: usize,
    seed: u64,
    allow_never: bool,
) -> Planned {
    let mut last = String::new();
    let reuses: &[Reuse] = if allow_never {
        &[Reuse::Never, Reuse::AcrossMatches]
    } else {
        &[Reuse::AcrossMatches]
    };
    for &reuse in reuses {
        let shape = Shape {
            tables,
            matches,
            rounds,
            reuse,
            seed,
        };
        match plan(format, &lib.records, shape, &HashSet::new()) {
            Ok(p) => return Ok((p, reuse)),
            Err(PlanError::NotEnough { need, have, .. }) => {
                last = format!("needs {need} distinct deals per match, the library has {have}");
            }
            Err(e @ PlanError::Deal(_)) => return Err(e.to_string()),
        }
    }
    Err(last)
}

/// How well a competition's standings agree with a reference order (tables best first).
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Agreement {
    /// Kendall τ of the final ranking (most probable rank) against the reference.
    pub(crate) final_tau: f64,
    /// Mean Kendall τ of each match's ranking against the reference.
    pub(crate) mean_tau: f64,
    /// Its standard error over matches.
    pub(crate) mean_tau_se: f64,
    /// Share of matches whose ranking equals the reference exactly.
    pub(crate) exact_share: f64,
    /// Its standard error (binomial).
    pub(crate) exact_share_se: f64,
}

pub(crate) fn agreement(s: &Standings, reference: &[usize]) -> Agreement {
    let taus =
        arena_stats::Estimate::of(s.ranks.iter().map(|m| kendall_tau(&order_of(m), reference)));
    let exact = s.exact_agreement(reference);
    // The binomial standard error of a share: p(1 − p) over the matches.
    let n = s.ranks.len().max(1) as f64;
    Agreement {
        final_tau: kendall_tau(&s.final_order, reference),
        mean_tau: taus.mean,
        mean_tau_se: taus.standard_error(),
        exact_share: exact,
        exact_share_se: (exact * (1.0 - exact) / n).sqrt(),
    }
}

/// One competition of an experiment: a format at one number of rounds.
pub(crate) struct Cell {
    pub(crate) format: Format,
    pub(crate) label: String,
    pub(crate) rounds: usize,
    pub(crate) matches: usize,
    pub(crate) eligible: usize,
    pub(crate) outcome: Result<Played, String>,
}

pub(crate) struct Played {
    pub(crate) reuse: Reuse,
    pub(crate) standings: Standings,
    pub(crate) agreement: Agreement,
    pub(crate) heatmap: Option<String>,
}

pub(crate) fn format_label(f: &Format) -> String {
    match f {
        Format::EqualStrength { eps, .. } => format!("equal-strength ε={eps:.2}"),
        other => other.name().to_string(),
    }
}

pub(crate) fn format_slug(f: &Format) -> String {
    match f {
        Format::EqualStrength { eps, .. } => format!("equal-strength-{eps:.2}"),
        other => other.name().to_string(),
    }
}

pub(crate) fn cell_json(c: &Cell, names: &[String]) -> Value {
    let mut v = json!({
        "format": c.format, "label": c.label, "rounds": c.rounds, "matches": c.matches,
        "eligible_deals": c.eligible,
    });
    match &c.outcome {
        Ok(p) => {
            v["reuse"] = json!(reuse_name(p.reuse));
            v["final_ranking"] = json!(
                p.standings
                    .final_order
                    .iter()
                    .map(|&t| &names[t])
                    .collect::<Vec<_>>()
            );
            v["agreement_with_truth"] = json!(p.agreement);
            v["heatmap"] = json!(p.heatmap);
            v["standings"] = json!(p.standings);
        }
        Err(reason) => v["skipped"] = json!(reason),
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_counts_exact_matches_and_taus() {
        let totals = vec![
            vec![1.0, 2.0, 3.0],
            vec![1.0, 3.0, 2.0],
            vec![3.0, 2.0, 1.0],
        ];
        let s = Standings::from_totals(vec!["a".into(), "b".into(), "c".into()], totals, 1, 1);
        let truth = [2, 1, 0];
        let a = agreement(&s, &truth);
        assert!((a.exact_share - 1.0 / 3.0).abs() < 1e-12);
        assert!((a.mean_tau - (1.0 + 1.0 / 3.0 - 1.0) / 3.0).abs() < 1e-12);
        assert!(a.mean_tau_se > 0.0);
    }

    #[test]
    fn labels_and_slugs_name_the_radius() {
        let es = Format::EqualStrength {
            centre: vec![0.5, 0.5, 0.5],
            eps: 0.2,
        };
        assert_eq!(format_label(&es), "equal-strength ε=0.20");
        assert_eq!(format_slug(&es), "equal-strength-0.20");
        assert_eq!(format_label(&Format::Duplicate), "duplicate");
        assert_eq!(reuse_name(Reuse::AcrossMatches), "across-matches");
    }
}
