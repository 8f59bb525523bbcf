//! Experiment 4, beyond the paper: how many rounds a match needs before a single match ranks the
//! tables exactly as the true ranking.

use arena_compete::{Format, GameCache, Plan, Standings, plot};

use crate::Error;
use crate::cells::{
    Agreement, Cell, Planned, Played, agreement, eligible, format_label, plan_preferring_fresh,
};
use crate::config::{Config, E3_LEVELS, E4_SEED, EPS, tables};
use crate::context::Ctx;
use crate::library::Library;
use crate::truth::Truth;

/// Experiment 4's results.
pub(crate) struct E4 {
    pub(crate) matches: usize,
    pub(crate) rounds: Vec<usize>,
    /// Per format, one cell per number of rounds.
    pub(crate) series: Vec<Vec<Cell>>,
    pub(crate) exact_plot: Option<String>,
    pub(crate) tau_plot: Option<String>,
}

/// The smallest number of rounds whose value reaches `level`, if any.
pub(crate) fn rounds_to_reach(points: &[(usize, f64)], level: f64) -> Option<usize> {
    points.iter().find(|(_, v)| *v >= level).map(|(m, _)| *m)
}

/// Plays experiment 4.
pub(crate) fn run(
    ctx: &mut Ctx,
    cfg: &Config,
    lib: &Library,
    centre: &[f64],
    truth: &Truth,
    cache: &mut GameCache,
) -> Result<E4, Error> {
    let t = tables(&E3_LEVELS);
    let names = t.landlords.clone();
    let formats = [
        Format::Duplicate,
        Format::EqualStrength {
            centre: centre.to_vec(),
            eps: EPS,
        },
        Format::Random,
        Format::DifficultyAdjusted,
    ];
    let mut series = Vec::new();
    for f in &formats {
        let planned: Vec<(usize, Planned)> = cfg
            .e4_rounds
            .iter()
            .map(|&m| {
                let p =
                    plan_preferring_fresh(f, lib, names.len(), cfg.e4_matches, m, E4_SEED, false);
                (m, p)
            })
            .collect();
        let jobs: Vec<(&Plan, &Format)> = planned
            .iter()
            .filter_map(|(_, p)| p.as_ref().ok().map(|(p, _)| (p, f)))
            .collect();
        let mut totals = ctx
            .play(
                &format!(
                    "experiment 4: {}, rounds {:?} × {} matches",
                    format_label(f),
                    cfg.e4_rounds,
                    cfg.e4_matches
                ),
                &t,
                &jobs,
                cache,
            )?
            .into_iter();
        let cells: Vec<Cell> = planned
            .into_iter()
            .map(|(rounds, p)| {
                let outcome = p.map(|(_, reuse)| {
                    let tot = totals.next().unwrap_or_default();
                    let standings = Standings::from_totals(names.clone(), tot, rounds, E4_SEED);
                    Played {
                        reuse,
                        agreement: agreement(&standings, &truth.order),
                        standings,
                        heatmap: None,
                    }
                });
                Cell {
                    format: f.clone(),
                    label: format_label(f),
                    rounds,
                    matches: cfg.e4_matches,
                    eligible: eligible(f, lib),
                    outcome,
                }
            })
            .collect();
        series.push(cells);
    }
    let curves = |pick: fn(&Agreement) -> f64| -> Vec<(String, Vec<(f64, f64)>)> {
        series
            .iter()
            .map(|cells| {
                let pts = cells
                    .iter()
                    .filter_map(|c| {
                        c.outcome
                            .as_ref()
                            .ok()
                            .map(|p| (c.rounds as f64, pick(&p.agreement)))
                    })
                    .collect();
                (cells[0].label.clone(), pts)
            })
            .collect()
    };
    let exact = curves(|a| a.exact_share);
    let taus = curves(|a| a.mean_tau);
    let tau_min = taus
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1))
        .fold(0.0, f64::min);
    let title_exact = format!(
        "Share of {} matches ranking the 5 tables exactly as the true ranking",
        cfg.e4_matches
    );
    let exact_plot = ctx.plot("e4-exact-vs-rounds.png", |path| {
        plot::lines(
            &title_exact,
            "rounds per match",
            "share of matches with the true ranking",
            &exact,
            (0.0, 1.02),
            path,
        )
    });
    let tau_plot = ctx.plot("e4-tau-vs-rounds.png", |path| {
        plot::lines(
            "Mean Kendall tau of a match's ranking against the true ranking",
            "rounds per match",
            "mean Kendall tau",
            &taus,
            (tau_min.min(0.0) - 0.05, 1.02),
            path,
        )
    });
    Ok(E4 {
        matches: cfg.e4_matches,
        rounds: cfg.e4_rounds.clone(),
        series,
        exact_plot,
        tau_plot,
    })
}

impl E4 {
    /// Per format: (label, smallest rounds with exact share ≥ 0.5, with ≥ 0.9).
    pub(crate) fn thresholds(&self) -> Vec<(String, Option<usize>, Option<usize>)> {
        self.series
            .iter()
            .map(|cells| {
                let pts: Vec<(usize, f64)> = cells
                    .iter()
                    .filter_map(|c| {
                        c.outcome
                            .as_ref()
                            .ok()
                            .map(|p| (c.rounds, p.agreement.exact_share))
                    })
                    .collect();
                (
                    cells[0].label.clone(),
                    rounds_to_reach(&pts, 0.5),
                    rounds_to_reach(&pts, 0.9),
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_reach_finds_the_first_point() {
        let pts = [(1, 0.1), (5, 0.55), (10, 0.5), (20, 0.95)];
        assert_eq!(rounds_to_reach(&pts, 0.5), Some(5));
        assert_eq!(rounds_to_reach(&pts, 0.9), Some(20));
        assert_eq!(rounds_to_reach(&pts, 0.99), None);
        assert_eq!(crate::report::opt_rounds(None, 50), "> 50");
        assert_eq!(crate::report::opt_rounds(Some(8), 50), "8");
    }
}
