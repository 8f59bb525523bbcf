//! The report's run section.

use std::fmt::Write as _;

use crate::results::Results;

/// Stage timings and the store.
pub(super) fn run(r: &Results) -> String {
    let Results { run, .. } = *r;
    let mut md = String::new();
    let _ = writeln!(md, "## Run\n");
    md += "| stage | seconds |\n|---|---:|\n";
    for (k, s) in &run.timings {
        let _ = writeln!(md, "| {k} | {s:.1} |");
    }
    let _ = writeln!(
        md,
        "| total | {:.1} |\n\nStore: {}. Rerunning the command reuses the measured library and replays \
         the experiments from their fixed seeds, number for number; only the on-demand searches' cost \
         figures can differ slightly, since their worker threads race to the last deals.",
        run.seconds, run.store
    );
    md
}
