//! Experiment 3: the formats, as the paper ran them (its tables 3–5).

use arena_compete::{Format, GameCache, Plan, Standings, plot};

use crate::Error;
use crate::cells::{
    Cell, Planned, Played, agreement, eligible, format_label, format_slug, plan_preferring_fresh,
};
use crate::config::{Config, E3_LEVELS, E3_SEED, tables};
use crate::context::Ctx;
use crate::library::Library;
use crate::truth::Truth;

/// Experiment 3's results.
pub(crate) struct E3 {
    pub(crate) names: Vec<String>,
    pub(crate) centre: Vec<f64>,
    pub(crate) cells: Vec<Cell>,
}

pub(crate) fn e3_formats(centre: &[f64], eps: &[f64]) -> Vec<Format> {
    let mut v = vec![Format::Duplicate];
    v.extend(eps.iter().map(|&e| Format::EqualStrength {
        centre: centre.to_vec(),
        eps: e,
    }));
    v.push(Format::Random);
    v.push(Format::DifficultyAdjusted);
    v
}

/// Plays experiment 3.
pub(crate) fn run(
    ctx: &mut Ctx,
    cfg: &Config,
    lib: &Library,
    centre: &[f64],
    truth: &Truth,
    cache: &mut GameCache,
) -> Result<E3, Error> {
    let t = tables(&E3_LEVELS);
    let names = t.landlords.clone();
    let mut planned: Vec<(Format, usize, Planned)> = Vec::new();
    for f in e3_formats(centre, &cfg.e3_eps) {
        for &m in &cfg.e3_rounds {
            let p = plan_preferring_fresh(&f, lib, names.len(), cfg.e3_matches, m, E3_SEED, true);
            planned.push((f.clone(), m, p));
        }
    }
    let jobs: Vec<(&Plan, &Format)> = planned
        .iter()
        .filter_map(|(f, _, p)| p.as_ref().ok().map(|(p, _)| (p, f)))
        .collect();
    let mut totals = ctx
        .play(
            &format!(
                "experiment 3: {} formats × rounds {:?} × {} matches",
                planned.len() / cfg.e3_rounds.len().max(1),
                cfg.e3_rounds,
                cfg.e3_matches
            ),
            &t,
            &jobs,
            cache,
        )?
        .into_iter();
    let mut cells = Vec::new();
    for (format, rounds, p) in planned {
        let label = format_label(&format);
        let slug = format_slug(&format);
        let outcome = match p {
            Ok((_, reuse)) => {
                let tot = totals.next().unwrap_or_default();
                let standings = Standings::from_totals(names.clone(), tot, rounds, E3_SEED);
                let agreement = agreement(&standings, &truth.order);
                let title = format!("{label}: {rounds} rounds x {} matches", cfg.e3_matches);
                let heatmap = ctx.plot(&format!("e3-{slug}-{rounds}-rounds.png"), |path| {
                    plot::rank_heatmap(&standings, &title, path)
                });
                Ok(Played {
                    reuse,
                    standings,
                    agreement,
                    heatmap,
                })
            }
            Err(e) => Err(e),
        };
        cells.push(Cell {
            eligible: eligible(&format, lib),
            format,
            label,
            rounds,
            matches: cfg.e3_matches,
            outcome,
        });
    }
    Ok(E3 {
        names,
        centre: centre.to_vec(),
        cells,
    })
}
