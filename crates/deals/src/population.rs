//! The distribution of GDI over a population of measured deals: per-component quantiles, a
//! two-component count table, deal counts around a centre, and the choice of a target centre
//! with a given meaning where the population actually has deals (by [`mean_shift`]).
//!
//! Points are GDI vectors as the store keeps them (`DealRecord::gdi`); with one bomb per deal a
//! GDI is `(g1, g2, g3)`: g1 = share of tables not losing with the bomb played, g2 = share that
//! won, g3 = share that won with the bomb played.

use crate::centre::{MeanShift, count_within, mean, mean_shift};

/// Summary statistics of one GDI component over a population.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ComponentSummary {
    /// The component, 1-based (`g1`, `g2`, …).
    pub g: usize,
    /// Mean over the deals that have the component (`NaN`-free: 0 for no deals).
    pub mean: f64,
    /// Quantiles (nearest rank): 5th, 10th, 25th, 50th, 75th, 90th and 95th percentile.
    pub p05: f64,
    /// 10th percentile.
    pub p10: f64,
    /// 25th percentile.
    pub p25: f64,
    /// Median.
    pub p50: f64,
    /// 75th percentile.
    pub p75: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 95th percentile.
    pub p95: f64,
}

/// The `p`-quantile (0 ≤ p ≤ 1) of ascending `sorted` values by nearest rank, `NaN` when empty.
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let last = sorted.len() - 1;
    sorted[((last as f64 * p.clamp(0.0, 1.0)).round() as usize).min(last)]
}

/// Summaries of components `1..=dim` of `gdis`; a point shorter than a component is left out
/// of that component's summary.
pub fn components(gdis: &[Vec<f64>], dim: usize) -> Vec<ComponentSummary> {
    (0..dim)
        .map(|j| {
            let mut v: Vec<f64> = gdis.iter().filter_map(|g| g.get(j).copied()).collect();
            v.sort_by(f64::total_cmp);
            let q = |p| quantile(&v, p);
            ComponentSummary {
                g: j + 1,
                mean: v.iter().sum::<f64>() / v.len().max(1) as f64,
                p05: q(0.05),
                p10: q(0.10),
                p25: q(0.25),
                p50: q(0.50),
                p75: q(0.75),
                p90: q(0.90),
                p95: q(0.95),
            }
        })
        .collect()
}

/// Deals per cell of a `bins × bins` table over components `x` and `y` (0-based) in [0, 1]:
/// `[x bin][y bin]`, each bin `1 / bins` wide, the last one closed (1.0 falls in it). Points
/// without both components are left out. `bins` of 0 is taken as 1.
pub fn histogram(gdis: &[Vec<f64>], x: usize, y: usize, bins: usize) -> Vec<Vec<u64>> {
    let bins = bins.max(1);
    let bin = |v: f64| ((v * bins as f64 + 1e-9).floor().max(0.0) as usize).min(bins - 1);
    let mut h = vec![vec![0u64; bins]; bins];
    for g in gdis.iter().filter(|g| g.len() > x.max(y)) {
        h[bin(g[x])][bin(g[y])] += 1;
    }
    h
}

/// How many of `gdis` lie within each of `radii` of `centre`.
pub fn within_counts(gdis: &[Vec<f64>], centre: &[f64], radii: &[f64]) -> Vec<usize> {
    radii
        .iter()
        .map(|&r| count_within(gdis, centre, r))
        .collect()
}

/// A one-bomb GDI the landlord is favoured on: most tables win (g2 ≥ 0.5).
pub fn landlord_favoured(g: &[f64]) -> bool {
    g.len() == 3 && g[1] >= 0.5
}

/// A landlord-favoured one-bomb GDI whose wins mostly come with the bomb played (g3 ≥ g2 / 2):
/// the meaning of the equal-strength paper's centre (0.96, 0.91, 0.79).
pub fn favoured_with_the_bomb(g: &[f64]) -> bool {
    landlord_favoured(g) && g[2] >= g[1] / 2.0
}

/// Which rule [`choose_centre`] used.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum CentreRule {
    /// Enough deals lie near the reference centre, which is used as it is.
    #[serde(rename = "paper")]
    Reference,
    /// The mean-shift mode of the deals with the reference's meaning
    /// ([`favoured_with_the_bomb`]), started from their mean.
    #[serde(rename = "same-meaning-mode")]
    SameMeaningMode,
    /// No deal has the reference's meaning: the mean-shift mode over all deals, started from
    /// the mean of the landlord-favoured ones.
    #[serde(rename = "favoured-mode")]
    FavouredMode,
    /// No deal is landlord-favoured: the reference centre, although few deals lie near it.
    #[serde(rename = "paper-fallback")]
    ReferenceFallback,
}

/// How a target centre was chosen from a population of one-bomb GDIs.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CentreChoice {
    /// Deals within each radius of the reference centre.
    #[serde(rename = "paper_within")]
    pub reference_within: Vec<usize>,
    /// Deals wanted within ε of the centre.
    pub need: usize,
    /// The rule that gave the centre.
    pub rule: CentreRule,
    /// Deals with the reference centre's meaning ([`favoured_with_the_bomb`]).
    pub same_meaning_deals: usize,
    /// Landlord-favoured deals ([`landlord_favoured`]).
    pub favoured_deals: usize,
    /// The mean shift that found the centre (absent when the reference centre is used).
    pub shift: Option<MeanShift>,
    /// The chosen centre.
    pub centre: Vec<f64>,
    /// Deals within each radius of it.
    pub within: Vec<usize>,
    /// The simpler rule (mean of the favoured deals, mean shift over all deals) and where it
    /// ends, reported because it can change the centre's meaning.
    pub simple_rule: Option<MeanShift>,
    /// Deals within each radius of the simple rule's end point (empty without one).
    pub simple_rule_within: Vec<usize>,
}

/// Chooses a centre for an equal-strength competition that needs `need` deals within `eps`:
/// `reference` if at least that many lie within `eps` of it, else a centre of the same meaning
/// where the deals are densest (see [`CentreRule`]). Mean shifts use bandwidth `eps` and at most
/// 1000 steps; the `within` counts are taken at `radii` (the first should be `eps`).
pub fn choose_centre(
    gdis: &[Vec<f64>],
    reference: &[f64],
    eps: f64,
    radii: &[f64],
    need: usize,
) -> CentreChoice {
    let reference_within = within_counts(gdis, reference, radii);
    let same: Vec<Vec<f64>> = gdis
        .iter()
        .filter(|g| favoured_with_the_bomb(g))
        .cloned()
        .collect();
    let fav: Vec<&Vec<f64>> = gdis.iter().filter(|g| landlord_favoured(g)).collect();
    let simple_rule = mean(fav.iter().copied(), 3).map(|start| mean_shift(gdis, &start, eps, 1000));
    let simple_rule_within = simple_rule
        .as_ref()
        .map_or_else(Vec::new, |m| within_counts(gdis, &m.mode, radii));
    let near_reference = count_within(gdis, reference, eps);
    let (rule, shift) = if near_reference >= need {
        (CentreRule::Reference, None)
    } else if let Some(start) = mean(&same, 3) {
        (
            CentreRule::SameMeaningMode,
            Some(mean_shift(&same, &start, eps, 1000)),
        )
    } else if let Some(m) = &simple_rule {
        (CentreRule::FavouredMode, Some(m.clone()))
    } else {
        (CentreRule::ReferenceFallback, None)
    };
    let centre = shift
        .as_ref()
        .map_or_else(|| reference.to_vec(), |m| m.mode.clone());
    CentreChoice {
        reference_within,
        need,
        rule,
        same_meaning_deals: same.len(),
        favoured_deals: fav.len(),
        within: within_counts(gdis, &centre, radii),
        shift,
        centre,
        simple_rule,
        simple_rule_within,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAPER: [f64; 3] = [0.96, 0.91, 0.79];
    const RADII: [f64; 3] = [0.15, 0.20, 0.25];

    #[test]
    fn the_centre_keeps_the_references_meaning() {
        // A bimodal population like the measured one: landlord-favoured deals either win with the
        // bomb (g3 ≈ g2) or without it (g3 ≈ 0), the bomb-less mode being the larger.
        let mut gdis = Vec::new();
        for i in 0..300 {
            let e = (i % 7) as f64 * 0.01;
            gdis.push(vec![0.85 + e, 0.50 + e, 0.02]);
        }
        for i in 0..100 {
            let e = (i % 5) as f64 * 0.01;
            gdis.push(vec![0.85 + e, 0.60 + e, 0.50 + e]);
        }
        gdis.extend((0..500).map(|_| vec![0.9, 0.0, 0.0]));
        let c = choose_centre(&gdis, &PAPER, 0.15, &RADII, 50);
        assert_eq!(c.rule, CentreRule::SameMeaningMode);
        assert_eq!(c.same_meaning_deals, 100);
        assert_eq!(c.favoured_deals, 400);
        assert!(favoured_with_the_bomb(&c.centre), "{:?}", c.centre);
        assert!((c.centre[1] - 0.62).abs() < 0.01, "{:?}", c.centre);
        assert_eq!(c.within[0], 100);
        assert_eq!(c.reference_within, vec![0, 0, 0]);
        // The simple rule slides into the bomb-less mode: not the reference's meaning.
        let s = c.simple_rule.as_ref().unwrap();
        assert!(s.mode[2] < 0.1, "{s:?}");
        assert_eq!(c.simple_rule_within.len(), 3);
        // With enough deals near the reference centre, it is used.
        let near: Vec<Vec<f64>> = (0..60).map(|_| PAPER.to_vec()).collect();
        let c = choose_centre(&near, &PAPER, 0.15, &RADII, 50);
        assert_eq!(c.rule, CentreRule::Reference);
        assert_eq!(c.centre, PAPER.to_vec());
        assert!(c.shift.is_none());
        assert_eq!(c.within, vec![60, 60, 60]);
    }

    #[test]
    fn without_the_meaning_the_favoured_mode_and_then_the_reference_are_used() {
        // Favoured deals, none won with the bomb: the favoured mode.
        let fav: Vec<Vec<f64>> = (0..20).map(|_| vec![0.9, 0.7, 0.1]).collect();
        let c = choose_centre(&fav, &PAPER, 0.15, &RADII, 50);
        assert_eq!(c.rule, CentreRule::FavouredMode);
        assert_eq!(c.same_meaning_deals, 0);
        assert!((c.centre[1] - 0.7).abs() < 1e-9, "{:?}", c.centre);
        // No favoured deal at all: the reference, as a fallback.
        let hard: Vec<Vec<f64>> = (0..20).map(|_| vec![0.5, 0.1, 0.0]).collect();
        let c = choose_centre(&hard, &PAPER, 0.15, &RADII, 50);
        assert_eq!(c.rule, CentreRule::ReferenceFallback);
        assert_eq!(c.centre, PAPER.to_vec());
        assert!(c.simple_rule.is_none() && c.simple_rule_within.is_empty());
        // The rule names results files carry.
        let names: Vec<String> = [
            CentreRule::Reference,
            CentreRule::SameMeaningMode,
            CentreRule::FavouredMode,
            CentreRule::ReferenceFallback,
        ]
        .iter()
        .map(|r| serde_json::to_string(r).unwrap())
        .collect();
        assert_eq!(
            names,
            [
                "\"paper\"",
                "\"same-meaning-mode\"",
                "\"favoured-mode\"",
                "\"paper-fallback\""
            ]
        );
    }

    #[test]
    fn histogram_and_quantiles() {
        let gdis = vec![
            vec![1.0, 1.0, 1.0],
            vec![0.9, 0.5, 0.0],
            vec![0.9, 0.5, 0.1],
            vec![0.5, 0.0, 0.0],
        ];
        let h = histogram(&gdis, 1, 2, 10);
        assert_eq!(h[9][9], 1, "1.0 falls in the last bin");
        assert_eq!(h[5][0], 1);
        assert_eq!(h[5][1], 1, "0.1 falls in the 0.1–0.2 bin");
        assert_eq!(h[0][0], 1);
        assert_eq!(h.iter().flatten().sum::<u64>(), 4);
        let c = components(&gdis, 3);
        assert_eq!(c.len(), 3);
        assert_eq!(c[1].g, 2);
        assert!((c[1].mean - 0.5).abs() < 1e-12);
        assert_eq!(c[0].p50, 0.9);
        assert_eq!(c[0].p05, 0.5);
        assert_eq!(c[0].p95, 1.0);
    }

    #[test]
    fn short_points_and_empty_populations_are_handled() {
        // A point without g3 is left out of the table and of g3's summary.
        let gdis = vec![vec![0.2, 0.3], vec![0.4, 0.6, 0.7]];
        let h = histogram(&gdis, 1, 2, 4);
        assert_eq!(h.iter().flatten().sum::<u64>(), 1);
        assert_eq!(h[2][2], 1);
        let c = components(&gdis, 3);
        assert_eq!(c[0].p50, 0.4, "nearest rank rounds half up");
        assert_eq!(c[2].mean, 0.7);
        // Nothing at all: NaN quantiles, a zero mean, an all-zero table.
        let c = components(&[], 2);
        assert!(c[0].p50.is_nan());
        assert_eq!(c[0].mean, 0.0);
        assert!(quantile(&[], 0.5).is_nan());
        assert_eq!(quantile(&[1.0, 2.0], 7.0), 2.0, "p is clamped");
        assert_eq!(histogram(&[], 0, 1, 0), vec![vec![0]]);
        // Out-of-range values are clamped into the first and last bins.
        let h = histogram(&[vec![-0.5, 1.5]], 0, 1, 2);
        assert_eq!(h, vec![vec![0, 1], vec![0, 0]]);
    }

    #[test]
    fn within_counts_are_per_radius_and_inclusive() {
        let gdis = vec![
            vec![0.5, 0.5, 0.5],
            vec![0.5, 0.5, 0.75],
            vec![0.5, 0.5, 1.0],
        ];
        assert_eq!(
            within_counts(&gdis, &[0.5, 0.5, 0.5], &[0.0, 0.25, 0.5, 0.125]),
            vec![1, 2, 3, 1]
        );
        assert!(within_counts(&gdis, &[0.5, 0.5, 0.5], &[]).is_empty());
    }
}
