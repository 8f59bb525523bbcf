//! Experiment 1: the ladder's levels are distinct (the paper's figure 3).

use arena_compete::{Format, GameCache, Reuse, Standings, plot};

use crate::Error;
use crate::cells::{Agreement, agreement, plan_preferring_fresh};
use crate::config::{Config, E1_LEVELS, E1_SEED, tables};
use crate::context::Ctx;
use crate::library::Library;

/// Experiment 1's results.
pub(crate) struct E1 {
    pub(crate) names: Vec<String>,
    pub(crate) reuse: Reuse,
    pub(crate) standings: Standings,
    /// Tables best first by level (level 70 first).
    pub(crate) level_order: Vec<usize>,
    pub(crate) vs_levels: Agreement,
    pub(crate) heatmap: Option<String>,
}

/// Plays experiment 1.
pub(crate) fn run(ctx: &mut Ctx, cfg: &Config, lib: &Library) -> Result<E1, Error> {
    let t = tables(&E1_LEVELS);
    let names = t.landlords.clone();
    let (p, reuse) = plan_preferring_fresh(
        &Format::Duplicate,
        lib,
        names.len(),
        cfg.e1_matches,
        cfg.e1_rounds,
        E1_SEED,
        true,
    )
    .map_err(Error::Undealable)?;
    let mut cache = GameCache::default();
    let totals = ctx
        .play(
            &format!(
                "experiment 1: {} ladder levels, duplicate, {} matches × {} rounds",
                names.len(),
                cfg.e1_matches,
                cfg.e1_rounds
            ),
            &t,
            &[(&p, &Format::Duplicate)],
            &mut cache,
        )?
        .remove(0);
    let standings = Standings::from_totals(names.clone(), totals, cfg.e1_rounds, E1_SEED);
    let level_order: Vec<usize> = (0..names.len()).rev().collect();
    let vs_levels = agreement(&standings, &level_order);
    let title = format!(
        "Experiment 1: {} ladder levels, duplicate, {} matches x {} rounds",
        names.len(),
        cfg.e1_matches,
        cfg.e1_rounds
    );
    let heatmap = ctx.plot("e1-ladder-levels.png", |path| {
        plot::rank_heatmap(&standings, &title, path)
    });
    Ok(E1 {
        names,
        reuse,
        standings,
        level_order,
        vs_levels,
        heatmap,
    })
}
