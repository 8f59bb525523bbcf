//! `arena load plot`: the growth curves of docs/scaling.md from the JSON lines of runs.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Context as _, Result, bail};

use super::args::PlotArgs;

/// `arena load plot`: tables/s and p50/p99 latency against connected bots, a line per label.
pub(super) fn plot(p: &PlotArgs) -> Result<()> {
    let mut rows: BTreeMap<String, Vec<(f64, f64, f64, f64)>> = BTreeMap::new();
    for path in &p.results {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading --results {}", path.display()))?;
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: serde_json::Value = serde_json::from_str(line).with_context(|| {
                format!(
                    "{}:{}: not a JSON line of arena load",
                    path.display(),
                    i + 1
                )
            })?;
            if v["idle"].as_bool() == Some(true) {
                continue;
            }
            let num = |x: &serde_json::Value, what: &str| {
                x.as_f64()
                    .with_context(|| format!("{}:{}: no {what}", path.display(), i + 1))
            };
            let label = v["label"].as_str().unwrap_or("").to_string();
            rows.entry(label).or_default().push((
                num(&v["bots"], "bots")?,
                num(&v["tables_per_s"], "tables_per_s")?,
                num(&v["latency_ms"]["p50"], "latency_ms.p50")?,
                num(&v["latency_ms"]["p99"], "latency_ms.p99")?,
            ));
        }
    }
    if rows.is_empty() {
        bail!("no measurements with tables in {:?}", p.results);
    }
    for pts in rows.values_mut() {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let name = |label: &str| {
        if label.is_empty() {
            "run".to_string()
        } else {
            label.to_string()
        }
    };
    let tables: Vec<(String, Vec<(f64, f64)>)> = rows
        .iter()
        .map(|(l, pts)| (name(l), pts.iter().map(|r| (r.0, r.1)).collect()))
        .collect();
    let mut latency: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for (l, pts) in &rows {
        latency.push((
            format!("{} p50", name(l)),
            pts.iter().map(|r| (r.0, r.2)).collect(),
        ));
        latency.push((
            format!("{} p99", name(l)),
            pts.iter().map(|r| (r.0, r.3)).collect(),
        ));
    }
    let top = |s: &[(String, Vec<(f64, f64)>)]| {
        s.iter()
            .flat_map(|(_, p)| p.iter().map(|q| q.1))
            .fold(0.0, f64::max)
            * 1.15
            + 1e-9
    };
    let out = |suffix: &str| {
        let mut s = p.out.clone().into_os_string();
        s.push(suffix);
        PathBuf::from(s)
    };
    let (t_path, l_path) = (out("-tables.png"), out("-latency.png"));
    arena_compete::plot::lines(
        "tables per second against connected bots",
        "bots connected",
        "tables/s",
        &tables,
        (0.0, top(&tables)),
        &t_path,
    )?;
    arena_compete::plot::lines(
        "decision latency against connected bots",
        "bots connected",
        "ms (answer → next request of the table)",
        &latency,
        (0.0, top(&latency)),
        &l_path,
    )?;
    println!("wrote {} and {}", t_path.display(), l_path.display());
    Ok(())
}
