//! The true ranking: a very long duplicate run on fresh deals.

use arena_compete::{Format, GameCache, Plan, Slot, Tables};
use arena_store::DealSource;
use ddz::{Deal, DealConstraint};

use crate::Error;
use crate::config::{BOMBS, Config, TRUTH_SEED};
use crate::context::Ctx;
use crate::text::ranking_levels;

#[derive(Clone, Debug, serde::Serialize)]
pub(crate) struct Gap {
    pub(crate) better: String,
    pub(crate) worse: String,
    /// Mean landlord-score difference per deal (paired: both played the same deal).
    pub(crate) mean_difference: f64,
    pub(crate) standard_error: f64,
    pub(crate) z: f64,
}

/// The true ranking.
pub(crate) struct Truth {
    pub(crate) names: Vec<String>,
    pub(crate) rounds: u64,
    pub(crate) totals: Vec<f64>,
    /// Tables best first by total.
    pub(crate) order: Vec<usize>,
    pub(crate) gaps: Vec<Gap>,
}

impl Truth {
    pub(crate) fn levels_best_first(&self) -> String {
        ranking_levels(&self.order, &self.names)
    }
}

/// Plays the true ranking's duplicate match.
pub(crate) fn run(
    ctx: &mut Ctx,
    cfg: &Config,
    t: &Tables,
    cache: &mut GameCache,
) -> Result<Truth, Error> {
    let n = t.landlords.len();
    let source = DealSource {
        seed: TRUTH_SEED,
        bombs: Some(BOMBS),
    };
    // One deal per "match", so play_plan hands back every deal's scores and the paired
    // differences between tables can be measured.
    let mut matches = Vec::with_capacity(cfg.truth_rounds as usize);
    for i in 0..cfg.truth_rounds {
        let deal = Deal::generate_with(TRUTH_SEED, i, &DealConstraint { bombs: Some(BOMBS) })?;
        let slot = Slot {
            id: source.deal_id(i),
            deal,
            expected: 0.0,
        };
        matches.push(vec![vec![slot; n]]);
    }
    let p = Plan { matches };
    let per_deal = ctx
        .play(
            &format!(
                "true ranking: duplicate, 1 match of {} rounds on fresh deals",
                cfg.truth_rounds
            ),
            t,
            &[(&p, &Format::Duplicate)],
            cache,
        )?
        .remove(0);
    let totals: Vec<f64> = (0..n)
        .map(|k| per_deal.iter().map(|d| d[k]).sum())
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| totals[b].total_cmp(&totals[a]).then(a.cmp(&b)));
    let gaps = order
        .windows(2)
        .map(|w| {
            let d = arena_stats::Estimate::paired(
                per_deal.iter().map(|d| d[w[0]]),
                per_deal.iter().map(|d| d[w[1]]),
            );
            let (m, se) = (d.mean, d.standard_error());
            Gap {
                better: t.landlords[w[0]].clone(),
                worse: t.landlords[w[1]].clone(),
                mean_difference: m,
                standard_error: se,
                z: if se > 0.0 { m / se } else { f64::INFINITY },
            }
        })
        .collect();
    Ok(Truth {
        names: t.landlords.clone(),
        rounds: cfg.truth_rounds,
        totals,
        order,
        gaps,
    })
}
