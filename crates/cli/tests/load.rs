//! `arena load`: its flags refuse what cannot work, naming the flag, and a short run against a
//! standalone registers its bots, plays the tables it asked for and reports them (tables,
//! latency, the verdicts its injected faults earned) as operators read them, in text and JSON;
//! a signal ends a run early with the same report.

mod common;

use common::{Standalone, arena};

/// `load ARGS` with standalone `s`'s three ports.
fn load_args<'a>(s: &'a Standalone, args: &[&'a str]) -> Vec<&'a str> {
    let ports = [
        "--bot-host",
        &s.bots,
        "--matchmaker",
        &s.matchmaker,
        "--referee",
        &s.referee,
    ];
    [&["load"][..], &ports, args].concat()
}

/// `arena load ARGS` against standalone `s` (its three ports, its operator token).
fn load(s: &Standalone, args: &[&str]) -> (String, String, bool) {
    s.client(&load_args(s, args))
}

fn json_line(out: &str) -> serde_json::Value {
    let line = out
        .lines()
        .find(|l| l.starts_with('{'))
        .unwrap_or_else(|| panic!("no JSON line in {out}"));
    serde_json::from_str(line).unwrap()
}

#[test]
fn bad_flags_are_refused_naming_the_flag() {
    for (args, needle) in [
        (&["--tables", "5", "--crash-rate", "2"][..], "--crash-rate"),
        (
            &[
                "--tables",
                "5",
                "--hang-rate",
                "0.6",
                "--garbage-rate",
                "0.6",
            ],
            "add up to more than 1",
        ),
        (&["--tables", "5", "--steps", "100,10"], "--steps must grow"),
        (&["--tables", "5", "--bots", "2"], "at least 3"),
        (&["--idle"], "--duration"),
        (
            &["--idle", "--duration", "1", "--tables", "3"],
            "--idle plays no tables",
        ),
        (&[], "give --tables N"),
        (&["--tables", "5", "--capacity", "0"], "--capacity"),
        (&["--tables", "5", "--think", "soon"], "--think"),
        (
            &["--tables", "5", "--think", "uniform:9ms-1ms"],
            "minimum is above",
        ),
        (&["--tables", "5", "--watch", "bot-host"], "NAME=PID"),
    ] {
        let (_, err, ok) = arena(&[&["load"][..], args].concat());
        assert!(!ok, "{args:?} was accepted");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_short_run_against_standalone_reports_its_finished_tables() {
    let (s, _) = Standalone::start(&[], &[], &[]);
    let pid = s.child.id().to_string();
    let watch = format!("standalone={pid}");
    let (out, err, ok) = load(
        &s,
        &[
            "--bots",
            "6",
            "--tables",
            "8",
            "--in-flight",
            "2",
            "--capacity",
            "2",
            "--watch",
            &watch,
        ],
    );
    assert!(ok, "{out}\n{err}");
    assert!(err.contains("6 bots registered"), "{err}");
    assert!(
        out.contains("arena load: 6 bots (capacity 2, think none)"),
        "{out}"
    );
    assert!(out.contains("tables: 8 finished in"), "{out}");
    assert!(out.contains("verdicts: none"), "{out}");
    assert!(out.contains("p50 ") && out.contains("p999 "), "{out}");
    assert!(out.contains("standalone: RSS "), "{out}");
    assert!(out.contains("ms per table"), "{out}");

    // Again with the same bots (their tokens rotated), every answer garbage: each table still
    // finishes, and the referee judged the answers malformed.
    let (out, err, ok) = load(
        &s,
        &[
            "--bots",
            "6",
            "--tables",
            "3",
            "--in-flight",
            "3",
            "--garbage-rate",
            "1",
            "--json",
            "--label",
            "garbage",
        ],
    );
    assert!(ok, "{out}\n{err}");
    let v = json_line(&out);
    assert_eq!(v["label"], "garbage");
    assert_eq!(v["bots"], 6);
    assert_eq!(v["tables"], 3, "{v}");
    assert!(v["faults"]["garbage"].as_u64().unwrap() >= 3, "{v}");
    let malformed = v["verdicts"]["VERDICT_KIND_MALFORMED"]
        .as_u64()
        .unwrap_or(0);
    assert!(malformed >= 3, "a malformed verdict at every table: {v}");
    assert_eq!(v["errors"]["refused"], 0, "{v}");

    // Idle: the bots connect and hold, no table is submitted.
    let (out, err, ok) = load(&s, &["--bots", "4", "--idle", "--duration", "1", "--json"]);
    assert!(ok, "{out}\n{err}");
    let v = json_line(&out);
    assert_eq!(v["idle"], true);
    assert_eq!(v["tables"], 0);
}

/// SIGTERM stops a run given minutes: no new table, the tables in flight finish, and the report
/// of what was played is printed as at the end of `--duration`.
#[test]
fn a_signal_stops_a_run_and_it_reports_what_it_played() {
    use std::io::{BufRead as _, BufReader};
    let (s, _) = Standalone::start(&[], &[], &[]);
    let args = [
        "--bots",
        "6",
        "--in-flight",
        "2",
        "--duration",
        "600",
        "--progress-secs",
        "1",
    ];
    let mut child = common::client_command(s.dir.path(), &load_args(&s, &args))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("arena load runs");
    // Once a table has finished (the progress line says so), the signal.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "arena load ended before playing a table: {seen}"
        );
        seen.push_str(&line);
        let played = line
            .split(" tables ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse::<u64>().ok());
        if played.is_some_and(|n| n > 0) {
            break;
        }
    }
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child's pid, with a valid signal number.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let rest = std::io::read_to_string(err).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}\n{seen}{rest}");
    assert!(
        rest.contains("arena load: stopping: no new tables"),
        "{rest}"
    );
    let finished = stdout
        .split("tables: ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no report of finished tables in {stdout}"));
    assert!(finished > 0, "{stdout}");
    assert!(stdout.contains("verdicts: none"), "{stdout}");
}

#[test]
fn plot_draws_both_curves_from_the_results_lines_and_names_a_bad_line() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.jsonl");
    let row = |label: &str, bots: u32, tps: f64, p50: f64, p99: f64| {
        format!(
            r#"{{"label":"{label}","bots":{bots},"idle":false,"tables_per_s":{tps},"latency_ms":{{"p50":{p50},"p99":{p99}}}}}"#
        )
    };
    let lines = [
        row("1 referee", 100, 300.0, 0.5, 2.0),
        row("1 referee", 1000, 280.0, 0.6, 3.0),
        row("2 referees", 100, 450.0, 0.4, 1.5),
        row("2 referees", 1000, 430.0, 0.5, 2.5),
        r#"{"label":"idle","bots":1000,"idle":true,"tables_per_s":0}"#.to_string(),
    ];
    std::fs::write(&results, lines.join("\n") + "\n").unwrap();
    let prefix = dir.path().join("growth");
    let (out, err, ok) = arena(&[
        "load",
        "plot",
        "--results",
        results.to_str().unwrap(),
        "--out",
        prefix.to_str().unwrap(),
    ]);
    assert!(ok, "{out}\n{err}");
    for suffix in ["-tables.png", "-latency.png"] {
        let png = std::fs::read(dir.path().join(format!("growth{suffix}"))).unwrap();
        assert!(png.starts_with(b"\x89PNG"), "{suffix} is a PNG");
    }

    std::fs::write(&results, "{\"bots\": 3}\nnot json\n").unwrap();
    let (_, err, ok) = arena(&["load", "plot", "--results", results.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("results.jsonl:1: no tables_per_s"), "{err}");
}
