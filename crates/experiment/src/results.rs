//! `results.json`: every number of the run.

use arena_deals::DdzPanel;
use arena_deals::levels::distance;
use serde_json::{Value, json};

use crate::Scale;
use crate::cells::{cell_json, reuse_name};
use crate::claim::Claim;
use crate::config::{BOMBS, Config, EPS, PAPER_CENTRE, RADII, TRUTH_SEED};
use crate::e1::E1;
use crate::e2::{E2, meaning, record_bomb_holders};
use crate::e3::E3;
use crate::e4::E4;
use crate::library::Library;
use crate::truth::Truth;

/// What the run did, besides the experiments' results.
pub(crate) struct RunInfo<'a> {
    pub(crate) scale: Scale,
    pub(crate) panel: &'a DdzPanel,
    pub(crate) threads: usize,
    pub(crate) store: String,
    pub(crate) seconds: f64,
    pub(crate) games: u64,
    pub(crate) timings: Vec<(&'static str, f64)>,
    pub(crate) warnings: Vec<String>,
}

/// Everything a finished run knows, for results.json and the report.
#[derive(Copy, Clone)]
pub(crate) struct Results<'a> {
    pub(crate) cfg: &'a Config,
    pub(crate) run: &'a RunInfo<'a>,
    pub(crate) lib: &'a Library,
    pub(crate) e1: &'a E1,
    pub(crate) e2: &'a E2,
    pub(crate) truth: &'a Truth,
    pub(crate) e3: &'a E3,
    pub(crate) e4: &'a E4,
    pub(crate) claim: &'a Claim,
}

/// results.json's content.
pub(crate) fn json(r: &Results) -> Value {
    let Results {
        cfg,
        run,
        lib,
        e1,
        e2,
        truth,
        e3,
        e4,
        claim,
    } = *r;
    let examples: Vec<Value> = e2
        .examples
        .iter()
        .map(|x| {
            json!({"role": x.role, "id": x.record.id, "deal": x.record.deal.to_string(),
                   "gdi": x.record.gdi, "counts": x.record.counts, "levels": x.record.levels,
                   "distance": x.distance, "within_eps": x.distance <= EPS,
                   "bombs": record_bomb_holders(&x.record), "meaning": meaning(&x.record.gdi, e2.tables)})
        })
        .collect();
    let finds: Vec<Value> = e2
        .finds
        .iter()
        .map(|f| {
            json!({"target": f.name, "centre": f.centre, "eps": EPS, "seed": f.seed, "want": f.want,
                   "max_tries": f.max_tries, "found": f.report.found.len(), "tried": f.report.tried,
                   "fully_measured": f.report.fully_measured, "games": f.report.games,
                   "games_if_fully_measured": f.report.tried * e2.tables as u64,
                   "seconds": f.report.seconds, "gave_up": f.gave_up(),
                   "deals": f.report.found.iter().map(|r| json!({"id": r.id, "deal": r.deal.to_string(), "gdi": r.gdi, "distance": distance(&r.gdi, &f.centre)})).collect::<Vec<_>>()})
        })
        .collect();
    json!({
        "scale": run.scale.name(),
        "seconds": run.seconds,
        "threads": run.threads,
        "store": run.store,
        "games_played": run.games,
        "timings": run.timings.iter().map(|(k, s)| json!({"stage": k, "seconds": s})).collect::<Vec<_>>(),
        "warnings": run.warnings,
        "config": cfg.json(),
        "panel": {"id": run.panel.id, "description": arena_deals::describe(run.panel),
                   "landlords": run.panel.landlords.len(), "down": run.panel.down, "up": run.panel.up,
                   "scoring": run.panel.scoring},
        "library": {"seed": lib.source.seed, "bombs": lib.source.bombs, "deals": lib.records.len(),
                     "measurement": lib.report},
        "experiment1": {
            "tables": e1.names, "format": "duplicate", "matches": e1.standings.totals.len(),
            "rounds": cfg.e1_rounds, "reuse": reuse_name(e1.reuse),
            "level_order": e1.level_order.iter().map(|&t| &e1.names[t]).collect::<Vec<_>>(),
            "final_ranking": e1.standings.final_order.iter().map(|&t| &e1.names[t]).collect::<Vec<_>>(),
            "equals_level_order": e1.standings.final_order == e1.level_order,
            "agreement_with_levels": e1.vs_levels, "heatmap": e1.heatmap, "standings": e1.standings,
        },
        "experiment2": {
            "deals": lib.gdis.len(),
            "components": e2.components,
            "histogram_g2_g3": {"bin_width": 0.1, "rows": "g2 bin (0 = [0, 0.1))", "columns": "g3 bin", "counts": e2.histogram},
            "paper_centre": {"centre": PAPER_CENTRE, "radii": RADII, "within": e2.choice.reference_within},
            "centre_choice": e2.choice,
            "examples": examples,
            "find": finds,
            "scatter_paper_centre": e2.scatter_paper,
            "scatter_chosen_centre": e2.scatter_chosen,
        },
        "truth": {
            "format": "duplicate", "rounds": truth.rounds, "deal_seed": TRUTH_SEED, "bombs": BOMBS,
            "tables": truth.names, "totals": truth.totals,
            "mean_score": truth.totals.iter().map(|t| t / truth.rounds.max(1) as f64).collect::<Vec<_>>(),
            "ranking": truth.order.iter().map(|&t| &truth.names[t]).collect::<Vec<_>>(),
            "equals_level_order": truth.order.iter().copied().eq((0..truth.names.len()).rev()),
            "adjacent_gaps": truth.gaps,
        },
        "experiment3": {
            "tables": e3.names, "centre": e3.centre,
            "cells": e3.cells.iter().map(|c| cell_json(c, &e3.names)).collect::<Vec<_>>(),
        },
        "experiment4": {
            "matches": e4.matches, "rounds": e4.rounds, "reuse": "across-matches",
            "exact_plot": e4.exact_plot, "tau_plot": e4.tau_plot,
            "series": e4.series.iter().zip(e4.thresholds()).map(|(cells, (label, half, ninety))| json!({
                "label": label, "format": cells[0].format,
                "rounds_for_exact_share_0_5": half, "rounds_for_exact_share_0_9": ninety,
                "points": cells.iter().map(|c| cell_json(c, &e3.names)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        },
        "claim": claim,
    })
}
