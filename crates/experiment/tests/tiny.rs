//! The library on its own, at the hidden tiny scale: a run writes its report and results, a
//! run stopped before it starts says so and writes nothing.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use arena_experiment::{Error, PaperOptions, Scale, Silent};
use arena_store::{EmbeddedStore, Store};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn a_stopped_run_writes_no_report_and_a_tiny_run_writes_every_section() {
    let rt = runtime();
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(&dir.path().join("store")).unwrap());
    let opts = PaperOptions {
        scale: Scale::Tiny,
        out: dir.path().join("report"),
        threads: 2,
    };

    // Stopped before it starts: the run ends with Stopped, nothing is written.
    let stopped = arena_experiment::run(
        rt.handle(),
        store.clone(),
        &opts,
        Arc::new(AtomicBool::new(true)),
        &Silent,
    );
    assert!(matches!(stopped, Err(Error::Stopped)), "{stopped:?}");
    assert!(
        stopped
            .unwrap_err()
            .to_string()
            .contains("run the same command again to resume")
    );
    assert!(!opts.out.join("report.md").exists());

    let written = arena_experiment::run(
        rt.handle(),
        store,
        &opts,
        Arc::new(AtomicBool::new(false)),
        &Silent,
    )
    .unwrap();
    assert_eq!(written.report, opts.out.join("report.md"));
    let md = std::fs::read_to_string(&written.report).unwrap();
    for section in [
        "# The equal-strength paper, reproduced",
        "## Summary",
        "## Terms",
        "## Experiment 1",
        "## Experiment 2",
        "### The centre",
        "### Table 1",
        "### On-demand generation",
        "## The true ranking",
        "## Experiment 3",
        "## Beyond the paper: rounds needed",
        "## The paper's claim, checked",
        "## Run",
    ] {
        assert!(md.contains(section), "{section} missing");
    }
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&written.results).unwrap()).unwrap();
    assert_eq!(v["scale"], "tiny");
    assert_eq!(v["library"]["deals"], 400);
    assert_eq!(v["games_played"], written.games);
    assert!(written.games > 0);
}
