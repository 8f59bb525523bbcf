//! Experiment 2: the GDI distribution, a centre, the table-1 analogue, on-demand generation.

use std::collections::HashSet;

use arena_compete::plot;
use arena_deals::DdzPanel;
use arena_deals::levels::distance;
use arena_deals::population::{
    CentreChoice, ComponentSummary, choose_centre, components, histogram,
};
use arena_deals::{FindReport, FindSpec, Progress};
use arena_store::{DealRecord, DealSource};
use ddz::{Deal, Rank, RuleSet, Seat};

use crate::Error;
use crate::config::{BOMBS, Config, EPS, FIND_SEEDS, PAPER_CENTRE, RADII};
use crate::context::Ctx;
use crate::library::Library;
use crate::text::{fmt_gdi, fmt_gdi2, pct};

/// One row of the table-1 analogue.
#[derive(Clone, Debug)]
pub(crate) struct Example {
    pub(crate) role: &'static str,
    pub(crate) record: DealRecord,
    pub(crate) distance: f64,
}

/// Five deals as the paper's table 1: three within ε of `centre` (the nearest, the median
/// distance, the 90th-percentile distance), one outside and harder for the landlord (nearest to
/// the centre moved 0.25 down in g2 and g3), and the library's easiest (largest g1 + g2 + g3; the
/// paper's was trivially easy, G = (1, 1, 1)).
pub(crate) fn pick_examples(lib: &Library, centre: &[f64]) -> Vec<Example> {
    let with_d: Vec<(f64, &DealRecord)> = lib
        .records
        .iter()
        .map(|r| (distance(&r.gdi, centre), r))
        .collect();
    let mut inside: Vec<(f64, &DealRecord)> =
        with_d.iter().filter(|(d, _)| *d <= EPS).copied().collect();
    inside.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    let mut taken: HashSet<&str> = HashSet::new();
    for (role, p) in [
        ("within ε: nearest", 0.0),
        ("within ε: median distance", 0.5),
        ("within ε: 90th-percentile distance", 0.9),
    ] {
        if inside.is_empty() {
            break;
        }
        let (d, r) = inside[((inside.len() - 1) as f64 * p).round() as usize];
        if taken.insert(&r.id) {
            out.push(Example {
                role,
                record: r.clone(),
                distance: d,
            });
        }
    }
    let harder_target = [
        centre[0],
        (centre[1] - 0.25).max(0.0),
        (centre[2] - 0.25).max(0.0),
    ];
    let harder = with_d
        .iter()
        .filter(|(d, r)| *d > EPS && r.gdi[1] < centre[1])
        .min_by(|a, b| {
            distance(&a.1.gdi, &harder_target).total_cmp(&distance(&b.1.gdi, &harder_target))
        });
    if let Some(&(d, r)) = harder {
        out.push(Example {
            role: "outside ε: harder for the landlord",
            record: r.clone(),
            distance: d,
        });
    }
    let easiest = with_d.iter().filter(|(d, _)| *d > EPS).max_by(|a, b| {
        let s = |r: &DealRecord| r.gdi.iter().sum::<f64>();
        // Equal sums: the earlier deal wins (max_by keeps the last maximum, so compare ids reversed).
        s(a.1)
            .total_cmp(&s(b.1))
            .then_with(|| b.1.source.cmp(&a.1.source))
    });
    if let Some(&(d, r)) = easiest {
        out.push(Example {
            role: "outside ε: the library's easiest deal",
            record: r.clone(),
            distance: d,
        });
    }
    out
}

/// What a one-bomb GDI says about the landlord, in one sentence.
pub(crate) fn meaning(g: &[f64], tables: usize) -> String {
    if g.len() != 3 {
        return format!("GDI {}", fmt_gdi(g));
    }
    let (win, bomb_win, bomb_loss) = (g[1], g[2], 1.0 - g[0]);
    let verdict = if win >= 1.0 && bomb_win >= 1.0 {
        "trivially easy: every landlord wins with the bomb, so the deal cannot tell landlords apart"
    } else if win >= 0.95 {
        "trivially easy for the landlord"
    } else if win >= 0.75 {
        "easy for the landlord"
    } else if win >= 0.55 {
        "in the landlord's favour"
    } else if win >= 0.4 {
        "about even for the landlord"
    } else if win >= 0.2 {
        "hard for the landlord"
    } else {
        "very hard for the landlord"
    };
    format!(
        "{} of the {tables} landlords win it ({} with the bomb played) and {} lose with the bomb played: {verdict}",
        pct(win),
        pct(bomb_win),
        pct(bomb_loss)
    )
}

/// [`bomb_holders`] of a library deal (or why it is not a Dou Dizhu deal).
pub(crate) fn record_bomb_holders(record: &DealRecord) -> String {
    arena_deals::ddz_deal(record).map_or_else(|e| e, |deal| bomb_holders(&deal))
}

/// Who holds the deal's bombs, e.g. `7777 with the landlord`.
pub(crate) fn bomb_holders(deal: &Deal) -> String {
    let hands = deal.hands_with_landlord(Seat::ALL[0]);
    let roles = ["the landlord", "the down farmer", "the up farmer"];
    let mut parts = Vec::new();
    for (hand, role) in hands.iter().zip(roles) {
        for r in Rank::ALL {
            if !r.is_joker() && hand.count(r) == 4 {
                parts.push(format!("{0}{0}{0}{0} with {role}", r.char()));
            }
        }
        if hand.count(Rank::BlackJoker) == 1 && hand.count(Rank::RedJoker) == 1 {
            parts.push(format!("the rocket BR with {role}"));
        }
    }
    if parts.is_empty() {
        "no bomb".into()
    } else {
        parts.join(", ")
    }
}

/// On-demand generation near one centre.
pub(crate) struct FindRun {
    pub(crate) name: &'static str,
    pub(crate) centre: Vec<f64>,
    pub(crate) seed: u64,
    pub(crate) want: usize,
    pub(crate) max_tries: u64,
    pub(crate) report: FindReport,
}

impl FindRun {
    pub(crate) fn gave_up(&self) -> bool {
        self.report.found.len() < self.want
    }
}

/// Experiment 2's results.
pub(crate) struct E2 {
    pub(crate) components: Vec<ComponentSummary>,
    pub(crate) histogram: Vec<Vec<u64>>,
    pub(crate) choice: CentreChoice,
    pub(crate) examples: Vec<Example>,
    pub(crate) finds: Vec<FindRun>,
    pub(crate) scatter_paper: Option<String>,
    pub(crate) scatter_chosen: Option<String>,
    pub(crate) tables: usize,
}

/// The GDI distribution, the centre, table 1 and the on-demand searches.
pub(crate) fn run(
    ctx: &mut Ctx,
    cfg: &Config,
    panel: &DdzPanel,
    lib: &Library,
) -> Result<E2, Error> {
    ctx.note("experiment 2: the GDI distribution and a centre");
    let choice = choose_centre(&lib.gdis, &PAPER_CENTRE, EPS, &RADII, cfg.e3_need());
    let n = lib.gdis.len();
    let scatter_paper = ctx.plot("e2-gdi-paper-centre.png", |path| {
        plot::gdi_scatter(
            &lib.gdis,
            &PAPER_CENTRE,
            EPS,
            &format!("GDI of {n} deals and the paper's centre (ring: 0.15)"),
            path,
        )
    });
    let scatter_chosen = ctx.plot("e2-gdi-chosen-centre.png", |path| {
        plot::gdi_scatter(
            &lib.gdis,
            &choice.centre,
            EPS,
            &format!(
                "GDI of {n} deals and the chosen centre {} (ring: 0.15)",
                fmt_gdi2(&choice.centre)
            ),
            path,
        )
    });
    let examples = pick_examples(lib, &choice.centre);
    let mut finds = Vec::new();
    let targets = [
        ("the paper's centre", PAPER_CENTRE.to_vec(), FIND_SEEDS[0]),
        ("the chosen centre", choice.centre.clone(), FIND_SEEDS[1]),
    ];
    for (name, centre, seed) in targets {
        ctx.note(&format!(
            "experiment 2: generating {} fresh deals within {EPS} of {name} {} (at most {} tries)",
            cfg.find_want,
            fmt_gdi2(&centre),
            cfg.find_max_tries
        ));
        let spec = FindSpec {
            panel: panel.clone(),
            source: DealSource {
                seed,
                bombs: Some(BOMBS),
            },
            start: 0,
            centre: centre.clone(),
            eps: EPS,
            want: cfg.find_want,
            max_tries: cfg.find_max_tries,
            rules: RuleSet::COMPETITION,
            threads: ctx.threads,
        };
        let prog = Progress::default();
        let report = ctx.with_progress(cfg.find_max_tries, "deals tried", &prog.deals, || {
            ctx.rt
                .block_on(arena_deals::find(&*ctx.store, &spec, &prog, &ctx.stop))
        })?;
        ctx.check_stop()?;
        ctx.games += report.games;
        finds.push(FindRun {
            name,
            centre,
            seed,
            want: cfg.find_want,
            max_tries: cfg.find_max_tries,
            report,
        });
    }
    Ok(E2 {
        components: components(&lib.gdis, 3),
        histogram: histogram(&lib.gdis, 1, 2, 10),
        choice,
        examples,
        finds,
        scatter_paper,
        scatter_chosen,
        tables: panel.landlords.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meanings_and_bombs_read_right() {
        let m = meaning(&[1.0, 1.0, 1.0], 70);
        assert!(
            m.starts_with(
                "100% of the 70 landlords win it (100% with the bomb played) and 0% lose"
            ),
            "{m}"
        );
        assert!(m.contains("cannot tell landlords apart"));
        assert!(meaning(&[0.9, 0.3, 0.1], 70).ends_with("hard for the landlord"));
        assert!(meaning(&[0.9, 0.8, 0.7], 70).ends_with(": easy for the landlord"));
        assert!(meaning(&[0.5, 0.5], 70).starts_with("GDI (0.500, 0.500)"));
        let d: Deal = "3333456789TJQKA2B/4445556667778889R/99TTTJJJQQQKKKAAA/222"
            .parse()
            .unwrap();
        let b = bomb_holders(&d);
        assert!(b.contains("3333 with the landlord"), "{b}");
        assert!(b.contains("2222 with the landlord"), "{b}");
        assert!(!b.contains("rocket"), "{b}");
    }
}
