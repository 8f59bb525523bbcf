//! The paper's claim, checked: with ε = 0.15, equal-strength rankings match the duplicate (and
//! true) ranking; random rankings do not.

use arena_compete::{Format, kendall_tau};

use crate::cells::{Agreement, Cell, Played};
use crate::config::EPS;
use crate::e3::E3;
use crate::e4::E4;

#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct ClaimRow {
    pub(crate) rounds: usize,
    pub(crate) equal_strength: Option<Agreement>,
    pub(crate) random: Option<Agreement>,
    pub(crate) duplicate: Option<Agreement>,
    /// τ between equal-strength's and the duplicate tournament's final rankings (same rounds).
    pub(crate) equal_strength_vs_duplicate_tau: Option<f64>,
    pub(crate) random_vs_duplicate_tau: Option<f64>,
}

/// Experiment 4's larger sample at one match length, for the claim.
#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct ClaimCurvePoint {
    pub(crate) rounds: usize,
    pub(crate) matches: usize,
    pub(crate) equal_strength: Agreement,
    pub(crate) random: Agreement,
}

#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Claim {
    pub(crate) rows: Vec<ClaimRow>,
    /// Match lengths at which equal-strength (ε = 0.15) could be dealt.
    pub(crate) lengths: usize,
    /// … and at which its final ranking equals the true ranking.
    pub(crate) equal_strength_hits: usize,
    /// … and at which it equals the duplicate tournament's final ranking.
    pub(crate) equal_strength_duplicate_hits: usize,
    /// Every length where equal-strength and duplicate differ is one where duplicate itself
    /// missed the true ranking.
    pub(crate) duplicate_missed_where_they_differ: bool,
    /// Match lengths at which random deals' final ranking differs from the true ranking.
    pub(crate) random_misses: usize,
    /// Averages over match lengths of the per-match figures.
    pub(crate) equal_strength_mean_tau: f64,
    pub(crate) random_mean_tau: f64,
    pub(crate) equal_strength_exact_share: f64,
    pub(crate) random_exact_share: f64,
    /// Equal-strength final rankings equal the true ranking at every match length.
    pub(crate) equal_strength_matches_truth: bool,
    /// Random final rankings differ from the true ranking at some match length.
    pub(crate) random_differs_from_truth: bool,
    /// Random's mean per-match τ is below equal-strength's.
    pub(crate) random_agrees_less_per_match: bool,
    /// The same comparison in experiment 4 at 10 rounds (or the nearest length played).
    pub(crate) curve: Option<ClaimCurvePoint>,
    /// `holds here`, `holds only in part here`, `does not hold here` or `cannot be checked here`.
    pub(crate) verdict: String,
    /// Why, in one clause.
    pub(crate) reason: String,
}

pub(crate) fn is_paper_es(f: &Format) -> bool {
    matches!(f, Format::EqualStrength { eps, .. } if (eps - EPS).abs() < 1e-9)
}

/// Checks the claim on experiments 3 and 4.
pub(crate) fn check(e3: &E3, e4: &E4) -> Claim {
    let find = |pred: &dyn Fn(&Format) -> bool, rounds: usize| {
        e3.cells
            .iter()
            .find(|c| c.rounds == rounds && pred(&c.format))
            .and_then(|c| c.outcome.as_ref().ok())
    };
    let mut rounds: Vec<usize> = e3.cells.iter().map(|c| c.rounds).collect();
    rounds.sort_unstable();
    rounds.dedup();
    let rows: Vec<ClaimRow> = rounds
        .iter()
        .map(|&m| {
            let es = find(&is_paper_es, m);
            let rnd = find(&|f| *f == Format::Random, m);
            let dup = find(&|f| *f == Format::Duplicate, m);
            let vs_dup = |x: Option<&Played>| {
                x.zip(dup)
                    .map(|(x, d)| kendall_tau(&x.standings.final_order, &d.standings.final_order))
            };
            ClaimRow {
                rounds: m,
                equal_strength: es.map(|p| p.agreement.clone()),
                random: rnd.map(|p| p.agreement.clone()),
                duplicate: dup.map(|p| p.agreement.clone()),
                equal_strength_vs_duplicate_tau: vs_dup(es),
                random_vs_duplicate_tau: vs_dup(rnd),
            }
        })
        .collect();
    let es: Vec<&Agreement> = rows
        .iter()
        .filter_map(|r| r.equal_strength.as_ref())
        .collect();
    let rnd: Vec<&Agreement> = rows.iter().filter_map(|r| r.random.as_ref()).collect();
    let mean = |v: &[&Agreement], f: fn(&Agreement) -> f64| {
        v.iter().map(|a| f(a)).sum::<f64>() / v.len().max(1) as f64
    };
    let equal_strength_hits = es.iter().filter(|a| a.final_tau >= 1.0).count();
    let equal_strength_duplicate_hits = rows
        .iter()
        .filter(|r| r.equal_strength_vs_duplicate_tau.is_some_and(|t| t >= 1.0))
        .count();
    let duplicate_missed_where_they_differ = rows
        .iter()
        .filter(|r| r.equal_strength_vs_duplicate_tau.is_some_and(|t| t < 1.0))
        .all(|r| r.duplicate.as_ref().is_some_and(|d| d.final_tau < 1.0));
    let random_misses = rnd.iter().filter(|a| a.final_tau < 1.0).count();
    let (es_tau, rnd_tau) = (mean(&es, |a| a.mean_tau), mean(&rnd, |a| a.mean_tau));
    let es_matches = !es.is_empty() && equal_strength_hits == rows.len();
    let rnd_differs = random_misses > 0;
    let rnd_less = !es.is_empty() && !rnd.is_empty() && rnd_tau < es_tau;
    let curve = {
        let series = |pred: &dyn Fn(&Format) -> bool| e4.series.iter().find(|s| pred(&s[0].format));
        let (es_s, rnd_s) = (series(&is_paper_es), series(&|f| *f == Format::Random));
        es_s.zip(rnd_s).and_then(|(a, b)| {
            let target = e4.rounds.iter().min_by_key(|&&m| m.abs_diff(10)).copied()?;
            let at = |s: &Vec<Cell>| {
                s.iter()
                    .find(|c| c.rounds == target)
                    .and_then(|c| c.outcome.as_ref().ok())
                    .map(|p| p.agreement.clone())
            };
            Some(ClaimCurvePoint {
                rounds: target,
                matches: e4.matches,
                equal_strength: at(a)?,
                random: at(b)?,
            })
        })
    };
    let (verdict, reason) = if es.is_empty() {
        (
            "cannot be checked here",
            "equal-strength deals at ε = 0.15 could not be dealt from this library",
        )
    } else if es_matches && rnd_differs {
        (
            "holds here",
            "equal-strength matched the true ranking at every match length, random deals did not",
        )
    } else if es_matches {
        (
            "holds only in part here",
            "equal-strength matched the true ranking, but random deals did too",
        )
    } else {
        (
            "does not hold here",
            "equal-strength final rankings at ε = 0.15 missed the true ranking",
        )
    };
    Claim {
        lengths: es.len(),
        equal_strength_hits,
        equal_strength_duplicate_hits,
        duplicate_missed_where_they_differ,
        random_misses,
        equal_strength_mean_tau: es_tau,
        random_mean_tau: rnd_tau,
        equal_strength_exact_share: mean(&es, |a| a.exact_share),
        random_exact_share: mean(&rnd, |a| a.exact_share),
        rows,
        equal_strength_matches_truth: es_matches,
        random_differs_from_truth: rnd_differs,
        random_agrees_less_per_match: rnd_less,
        curve,
        verdict: verdict.to_string(),
        reason: reason.to_string(),
    }
}
