//! `report.md`, section by section: what was run, the summary and terms, each experiment, the
//! true ranking, the claim and the run's timings.

mod claim;
mod experiment1;
mod experiment2;
mod experiment3;
mod experiment4;
mod run;
mod summary;
mod truth;

use std::fmt::Write as _;

use arena_compete::{Format, Standings};

use crate::e3::E3;
use crate::e4::E4;
use crate::results::Results;

/// The whole report.
pub(crate) fn markdown(r: &Results) -> String {
    [
        summary::header(r),
        summary::summary(r),
        summary::terms(r),
        experiment1::experiment1(r),
        experiment2::distribution(r),
        experiment2::centre(r),
        experiment2::table1(r),
        experiment2::on_demand(r),
        truth::truth(r),
        experiment3::experiment3(r),
        experiment4::experiment4(r),
        claim::claim(r),
        run::run(r),
    ]
    .concat()
}

/// Experiment 3's format labels in order, once each.
fn format_labels(e3: &E3) -> Vec<String> {
    let mut labels: Vec<String> = e3.cells.iter().map(|c| c.label.clone()).collect();
    labels.dedup();
    labels
}

/// Experiment 4's longest match.
fn longest_curve(e4: &E4) -> usize {
    e4.rounds.iter().max().copied().unwrap_or(0)
}

pub(crate) fn rank_table(s: &Standings, label: impl Fn(usize) -> String) -> String {
    let n = s.tables.len();
    let mut md = String::from("| place | table |");
    for k in 1..=n {
        let _ = write!(md, " P(#{k}) |");
    }
    md += " mean rank | mean score / round |\n|---:|---|";
    md += &"---:|".repeat(n + 2);
    md += "\n";
    for (place, &t) in s.final_order.iter().enumerate() {
        let _ = write!(md, "| {} | {} |", place + 1, label(t));
        for k in 0..n {
            let p = s.rank_probs[t][k];
            let cell = if p == 0.0 {
                "·".to_string()
            } else if k + 1 == s.most_probable[t] {
                format!("**{p:.2}**")
            } else {
                format!("{p:.2}")
            };
            let _ = write!(md, " {cell} |");
        }
        let _ = writeln!(md, " {:.2} | {:+.3} |", s.mean_rank[t], s.mean_score[t]);
    }
    md
}

pub(crate) fn opt_rounds(x: Option<usize>, max: usize) -> String {
    x.map_or_else(|| format!("> {max}"), |m| m.to_string())
}

/// The weakest and strongest table's mean score per round in a format's longest experiment-3 cell.
fn spread(e3: &E3, pred: &dyn Fn(&Format) -> bool) -> (f64, f64) {
    e3.cells
        .iter()
        .filter(|c| pred(&c.format))
        .filter_map(|c| c.outcome.as_ref().ok().map(|p| (c.rounds, p)))
        .max_by_key(|(m, _)| *m)
        .map_or((f64::NAN, f64::NAN), |(_, p)| {
            let s = &p.standings.mean_score;
            (s[0], s[s.len() - 1])
        })
}
