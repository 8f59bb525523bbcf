//! `arena experiment paper` end to end, at the hidden `tiny` scale: the report's files exist,
//! `results.json` holds what the documentation promises, and a second run reuses the library and
//! reproduces every experiment.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A scratch directory removed when the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let p = std::env::temp_dir().join(format!(
            "arena-experiment-paper-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&p).unwrap();
        Scratch(p)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(data: &Path, out: &Path) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["experiment", "paper", "--scale", "tiny", "--threads", "2"])
        .arg("--out")
        .arg(out)
        .arg("--data-dir")
        .arg(data)
        .env_remove("ARENA_REDIS_URL")
        .env_remove("ARENA_DATA_DIR")
        .output()
        .expect("arena runs");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "arena failed:\n{stderr}");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("report written to"), "{stdout}");
    let text = std::fs::read_to_string(out.join("results.json")).expect("results.json");
    serde_json::from_str(&text).expect("results.json is JSON")
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn arr(v: &Value) -> &Vec<Value> {
    v.as_array()
        .unwrap_or_else(|| panic!("{v} is not an array"))
}

fn is_png(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|b| b.starts_with(b"\x89PNG\r\n\x1a\n") && b.len() > 1000)
}

/// Rank probabilities: a square table whose rows and columns each sum to 1.
fn check_standings(s: &Value, tables: usize) {
    let p = arr(&s["rank_probs"]);
    assert_eq!(p.len(), tables);
    for row in p {
        assert_eq!(arr(row).len(), tables);
        assert!((arr(row).iter().map(f).sum::<f64>() - 1.0).abs() < 1e-9);
    }
    for k in 0..tables {
        assert!((p.iter().map(|row| f(&row[k])).sum::<f64>() - 1.0).abs() < 1e-9);
    }
    let mut order: Vec<u64> = arr(&s["final_order"])
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    order.sort_unstable();
    assert_eq!(order, (0..tables as u64).collect::<Vec<_>>());
}

fn check_agreement(a: &Value) {
    for k in ["final_tau", "mean_tau"] {
        assert!((-1.0..=1.0).contains(&f(&a[k])), "{k} = {}", a[k]);
    }
    assert!((0.0..=1.0).contains(&f(&a["exact_share"])));
}

#[test]
fn writes_a_complete_report_and_a_second_run_reuses_the_library() {
    let tmp = Scratch::new();
    let (data, out) = (tmp.0.join("data"), tmp.0.join("report"));
    let r = run(&data, &out);

    // The report and every plot it links to.
    let md = std::fs::read_to_string(out.join("report.md")).expect("report.md");
    for heading in [
        "## Summary",
        "## Experiment 1",
        "## Experiment 2",
        "### Table 1",
        "### On-demand generation",
        "## The true ranking",
        "## Experiment 3",
        "## Beyond the paper: rounds needed",
        "## The paper's claim, checked",
    ] {
        assert!(md.contains(heading), "report.md lacks {heading}");
    }
    let links: Vec<&str> = md
        .split("](")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .filter(|l| l.ends_with(".png"))
        .collect();
    assert!(links.len() >= 10, "{links:?}");
    for l in &links {
        assert!(is_png(&out.join(l)), "{l} is not a PNG");
    }
    for png in [
        "e1-ladder-levels.png",
        "e2-gdi-paper-centre.png",
        "e2-gdi-chosen-centre.png",
        "e4-exact-vs-rounds.png",
        "e4-tau-vs-rounds.png",
    ] {
        assert!(is_png(&out.join(png)), "{png}");
    }

    // The library: 400 deals measured by 70 landlords, all by this run.
    assert_eq!(r["scale"], "tiny");
    assert_eq!(r["library"]["deals"], 400);
    assert_eq!(r["library"]["bombs"], 1);
    assert_eq!(r["library"]["measurement"]["measured"], 400);
    assert_eq!(r["library"]["measurement"]["games"], 400 * 70);
    assert_eq!(r["panel"]["landlords"], 70);
    assert!(
        r["warnings"].as_array().unwrap().is_empty(),
        "{}",
        r["warnings"]
    );

    // Experiment 1: ten ladder levels, duplicate.
    let e1 = &r["experiment1"];
    assert_eq!(arr(&e1["tables"]).len(), 10);
    assert_eq!(e1["tables"][9], "ladder:70/70");
    assert_eq!(e1["level_order"][0], "ladder:70/70");
    check_standings(&e1["standings"], 10);
    check_agreement(&e1["agreement_with_levels"]);
    assert_eq!(arr(&e1["standings"]["totals"]).len(), 4, "tiny: 4 matches");

    // Experiment 2: the distribution, the centre, table 1, on-demand generation.
    let e2 = &r["experiment2"];
    assert_eq!(arr(&e2["components"]).len(), 3);
    let hist: u64 = arr(&e2["histogram_g2_g3"]["counts"])
        .iter()
        .flat_map(arr)
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(hist, 400);
    let paper_within: Vec<f64> = arr(&e2["paper_centre"]["within"]).iter().map(f).collect();
    assert!(paper_within.windows(2).all(|w| w[0] <= w[1]));
    let choice = &e2["centre_choice"];
    let centre: Vec<f64> = arr(&choice["centre"]).iter().map(f).collect();
    assert_eq!(centre.len(), 3);
    assert!(centre.iter().all(|g| (0.0..=1.0).contains(g)));
    assert!(choice["rule"].is_string());
    let examples = arr(&e2["examples"]);
    assert!((3..=5).contains(&examples.len()), "{}", examples.len());
    for x in examples {
        let g: Vec<f64> = arr(&x["gdi"]).iter().map(f).collect();
        let d = g
            .iter()
            .zip(&centre)
            .map(|(a, b)| (a - b).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!((d - f(&x["distance"])).abs() < 1e-9);
        assert_eq!(x["within_eps"].as_bool().unwrap(), d <= 0.15);
        assert_eq!(x["deal"].as_str().unwrap().split('/').count(), 4);
    }
    assert!(examples[0]["within_eps"].as_bool().unwrap());
    let finds = arr(&e2["find"]);
    assert_eq!(finds.len(), 2);
    for fr in finds {
        let (found, want) = (fr["found"].as_u64().unwrap(), fr["want"].as_u64().unwrap());
        assert!(found <= want);
        assert_eq!(fr["gave_up"].as_bool().unwrap(), found < want);
        assert!(fr["tried"].as_u64().unwrap() <= fr["max_tries"].as_u64().unwrap());
        assert_eq!(arr(&fr["deals"]).len() as u64, found);
    }

    // The true ranking.
    let truth = &r["truth"];
    assert_eq!(truth["rounds"], 60);
    assert_eq!(arr(&truth["ranking"]).len(), 5);
    assert_eq!(arr(&truth["adjacent_gaps"]).len(), 4);
    let totals: Vec<f64> = arr(&truth["totals"]).iter().map(f).collect();
    let best = truth["ranking"][0].as_str().unwrap();
    let best_index = arr(&truth["tables"])
        .iter()
        .position(|t| t == best)
        .unwrap();
    assert!(totals.iter().all(|&t| t <= totals[best_index]));

    // Experiment 3: 5 formats (tiny: ε 0.15 and 0.25) × 2 match lengths.
    let cells = arr(&r["experiment3"]["cells"]);
    assert_eq!(cells.len(), 10);
    let mut played = 0;
    for c in cells {
        if c.get("skipped").is_some() {
            assert!(c["format"]["format"] == "equal-strength", "{c}");
            continue;
        }
        played += 1;
        check_standings(&c["standings"], 5);
        check_agreement(&c["agreement_with_truth"]);
        assert!(["never", "across-matches"].contains(&c["reuse"].as_str().unwrap()));
        assert!(is_png(&out.join(c["heatmap"].as_str().unwrap())));
    }
    assert!(played >= 6, "duplicate, random and adjusted always play");

    // Experiment 4: four formats, one point per match length.
    let series = arr(&r["experiment4"]["series"]);
    assert_eq!(series.len(), 4);
    for s in series {
        assert_eq!(arr(&s["points"]).len(), 3);
        for p in arr(&s["points"]) {
            if p.get("skipped").is_none() {
                check_agreement(&p["agreement_with_truth"]);
                assert_eq!(arr(&p["standings"]["totals"]).len(), 6);
            }
        }
    }

    // The claim.
    let claim = &r["claim"];
    assert_eq!(arr(&claim["rows"]).len(), 2);
    assert!(
        [
            "holds here",
            "holds only in part here",
            "does not hold here",
            "cannot be checked here"
        ]
        .contains(&claim["verdict"].as_str().unwrap())
    );

    // A second run measures nothing and reproduces the experiments exactly.
    let out2 = tmp.0.join("report2");
    let r2 = run(&data, &out2);
    assert_eq!(r2["library"]["measurement"]["measured"], 0);
    assert_eq!(r2["library"]["measurement"]["already"], 400);
    for k in [
        "experiment1",
        "truth",
        "experiment3",
        "experiment4",
        "claim",
    ] {
        assert_eq!(r[k], r2[k], "{k} differs between runs");
    }
    assert_eq!(
        r["experiment2"]["centre_choice"],
        r2["experiment2"]["centre_choice"]
    );
    assert_eq!(r["experiment2"]["examples"], r2["experiment2"]["examples"]);
}
