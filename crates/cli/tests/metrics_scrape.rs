//! Each role's Prometheus endpoint (`--metrics-listen`), scraped over HTTP after real work:
//!
//! - the four roles as processes on the shared Redis (a key prefix of the test's own): deals
//!   measured through the deal library, then a competition between a remote gRPC bot, a program
//!   bot that crashes on its first decision and built-in bots;
//! - `arena standalone`, one endpoint for all its roles, after a competition.
//!
//! Each scrape must show the metrics the dashboard (`deploy/grafana/arena-dashboard.json`) draws
//! from that role, with values that fit the work done; and every metric the dashboard and the
//! alert rules name must be one the roles export (`deploy/grafana/metrics.txt`, which
//! `crates/telemetry/tests/scrape.rs` keeps in step with the instruments).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read as _, Write as _};
use std::time::{Duration, Instant};

use common::{Cluster, Standalone, add_remote_bot, readable_copy, unique_prefix};

const REDIS: &str = "redis://127.0.0.1:6379";

/// One sample of a scrape: family name with its suffix (`_bucket`, …), labels, value.
#[derive(Debug)]
struct Sample {
    name: String,
    labels: BTreeMap<String, String>,
    value: f64,
}

/// A scrape of `url` (`http://127.0.0.1:PORT/metrics`), parsed.
struct Scrape {
    samples: Vec<Sample>,
    /// The families (`# TYPE` lines).
    families: BTreeSet<String>,
}

impl Scrape {
    fn get(url: &str) -> Scrape {
        let rest = url.strip_prefix("http://").unwrap();
        let (addr, path) = rest.split_once('/').unwrap();
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        write!(
            s,
            "GET /{path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 200"), "{head}");
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: text/plain"),
            "{head}"
        );
        let mut samples = Vec::new();
        let mut families = BTreeSet::new();
        for line in body.lines() {
            if let Some(t) = line.strip_prefix("# TYPE ") {
                families.insert(t.split(' ').next().unwrap().to_string());
                continue;
            }
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let (series, value) = line.rsplit_once(' ').unwrap();
            let (name, labels) = match series.split_once('{') {
                Some((n, l)) => (n, l.trim_end_matches('}')),
                None => (series, ""),
            };
            let labels = labels
                .split("\",")
                .filter(|kv| !kv.is_empty())
                .map(|kv| {
                    let (k, v) = kv.split_once('=').unwrap();
                    (k.to_string(), v.trim_matches('"').to_string())
                })
                .collect();
            samples.push(Sample {
                name: name.to_string(),
                labels,
                value: value.parse().unwrap(),
            });
        }
        Scrape { samples, families }
    }

    /// The sum of `name`'s samples whose labels include every pair of `with`.
    fn sum(&self, name: &str, with: &[(&str, &str)]) -> f64 {
        self.matching(name, with).map(|s| s.value).sum()
    }

    /// Whether any sample of `name` has every pair of `with`.
    fn has(&self, name: &str, with: &[(&str, &str)]) -> bool {
        self.matching(name, with).next().is_some()
    }

    fn matching<'a>(
        &'a self,
        name: &'a str,
        with: &'a [(&str, &str)],
    ) -> impl Iterator<Item = &'a Sample> + 'a {
        self.samples.iter().filter(move |s| {
            s.name == name
                && with
                    .iter()
                    .all(|(k, v)| s.labels.get(*k).map(String::as_str) == Some(*v))
        })
    }
}

fn repo(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The metric families a dashboard or rule file names (`arena_…`, histogram suffixes dropped).
fn named_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find("arena_") {
        let tail = &rest[i..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(tail.len());
        let name = &tail[..end];
        let family = ["_bucket", "_sum", "_count"]
            .iter()
            .find_map(|s| name.strip_suffix(s))
            .unwrap_or(name);
        out.insert(family.to_string());
        rest = &tail[end..];
    }
    out
}

/// The families the dashboard and the alert rules use.
fn dashboard_families() -> BTreeSet<String> {
    let dashboard = std::fs::read_to_string(repo("deploy/grafana/arena-dashboard.json")).unwrap();
    let rules = std::fs::read_to_string(repo("deploy/prometheus/arena-alerts.yaml")).unwrap();
    let mut all = named_in(&dashboard);
    all.extend(named_in(&rules));
    all
}

#[test]
fn the_dashboard_and_the_alerts_name_only_metrics_the_roles_export() {
    let listed: BTreeSet<String> = std::fs::read_to_string(repo("deploy/grafana/metrics.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect();
    let used = dashboard_families();
    let unknown: Vec<&String> = used.difference(&listed).collect();
    assert!(unknown.is_empty(), "not exported by any role: {unknown:?}");
    // The panels the dashboard promises are there.
    for want in [
        "arena_tables_finished_total",
        "arena_decision_latency_seconds",
        "arena_verdicts_total",
        "arena_queue_depth",
        "arena_queue_wait_seconds",
        "arena_seats_open",
        "arena_bots_connected",
        "arena_library_operations_total",
        "arena_store_errors_total",
    ] {
        assert!(used.contains(want), "the dashboard does not use {want}");
    }
    // A wrong name is caught (the check is not vacuous).
    assert!(!listed.contains("arena_tables_finished"));
}

/// Waits until `cond` holds of a fresh scrape of `url`, or fails after `within`.
fn scrape_until(url: &str, within: Duration, cond: impl Fn(&Scrape) -> bool) -> Scrape {
    let start = Instant::now();
    loop {
        let s = Scrape::get(url);
        if cond(&s) {
            return s;
        }
        assert!(start.elapsed() < within, "{url}: never as expected");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn each_role_exports_what_the_dashboard_draws_after_a_competition() {
    let prefix = unique_prefix("metrics");
    let store = Cluster::store_args(REDIS, &prefix);
    let store: Vec<&str> = store.iter().map(String::as_str).collect();
    // A program that answers its join and dies on its first decision: a crashed verdict.
    let dir = arena_testkit::private_tempdir();
    let crash = dir.path().join("crash.py");
    std::fs::write(
        &crash,
        "import sys\nprint('join crasher', flush=True)\nfor line in sys.stdin:\n    if line.startswith('ask'):\n        sys.exit(3)\n",
    )
    .unwrap();
    let crash = readable_copy(&crash);
    let program = format!("/usr/bin/python3 {}", crash.display());
    let (_, err, ok) = common::arena(
        &[
            &["bots", "add", "crasher", "--program", &program][..],
            &store,
        ]
        .concat(),
    );
    assert!(ok, "{err}");
    let token = add_remote_bot("north", &store);
    let cluster = Cluster::start_metered(REDIS, &prefix);
    let url = |role: &str| cluster.metrics_urls[role].clone();
    cluster.measure(100);

    let rt = tokio::runtime::Runtime::new().unwrap();
    let bot_url = cluster.bot_url.clone();
    rt.spawn(async move {
        arena_example_remote_bot::play_forever_with(
            &bot_url,
            "north",
            &token,
            &arena_example_remote_bot::Options::default(),
            Duration::from_millis(100),
        )
        .await
    });
    let start = Instant::now();
    while !cluster.connected("north") {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{}",
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _client = cluster.create(&[
        "--name",
        "metered",
        "--format",
        "random",
        "--participants",
        "north,crasher,seed",
        "--matches",
        "2",
        "--rounds",
        "2",
        "--verdict-policy",
        "play-on",
    ]);
    let total = 3 * 2 * 2;
    assert_eq!(
        cluster.wait_finished("metered", Duration::from_secs(120)),
        total
    );

    // The referee: every table started, waited and finished once; decisions at remote and
    // in-process seats; the crasher's verdicts; the measured deals; the queue sampled.
    let referee = scrape_until(&url("table-referee"), Duration::from_secs(10), |s| {
        s.sum("arena_tables_finished_total", &[]) >= total as f64
    });
    let t = total as f64;
    assert_eq!(
        referee.sum("arena_tables_started_total", &[("game", "ddz")]),
        t
    );
    assert_eq!(
        referee.sum("arena_tables_finished_total", &[("game", "ddz")]),
        t
    );
    assert_eq!(referee.sum("arena_queue_wait_seconds_count", &[]), t);
    assert!(referee.has("arena_queue_depth", &[("state", "waiting")]));
    assert!(referee.sum("arena_verdicts_total", &[("kind", "crashed")]) >= 1.0);
    for kind in ["remote", "in-process"] {
        let with = [("role", "referee"), ("seat_kind", kind)];
        let n = referee.sum("arena_decisions_total", &with);
        assert!(n > 0.0, "no {kind} decisions");
        // Every decision counted is in the latency histogram, and p100 is below the hard cap.
        assert_eq!(
            referee.sum("arena_decision_latency_seconds_count", &with),
            n
        );
        let inf = [("role", "referee"), ("seat_kind", kind), ("le", "+Inf")];
        assert_eq!(
            referee.sum("arena_decision_latency_seconds_bucket", &inf),
            n
        );
    }
    assert_default_lane(&referee);
    assert_eq!(referee.sum("arena_deals_measured_total", &[]), 100.0);
    assert!(referee.sum("arena_games_played_total", &[]) > 0.0);

    // bot-host: the remote bot connected, its decisions relayed, the program's crash a fault.
    let host = scrape_until(&url("bot-host"), Duration::from_secs(10), |s| {
        s.sum("arena_seats_open", &[]) == 0.0
    });
    assert_eq!(host.sum("arena_bots_connected", &[]), 1.0);
    assert!(host.has("arena_seats_open", &[("bot_kind", "remote")]));
    let relayed = host.sum(
        "arena_decisions_total",
        &[("role", "bot-host"), ("bot_kind", "remote")],
    );
    assert!(relayed > 0.0);
    assert_eq!(
        host.sum(
            "arena_decision_latency_seconds_count",
            &[("role", "bot-host"), ("bot_kind", "remote")]
        ),
        relayed
    );
    assert!(
        host.sum(
            "arena_seat_faults_total",
            &[("kind", "crashed"), ("bot_kind", "program")]
        ) >= 1.0
    );

    // The deal library: the one measurement.
    let library = Scrape::get(&url("deal-library"));
    assert_eq!(
        library.sum("arena_library_operations_total", &[("kind", "measure")]),
        1.0
    );

    // The matchmaker: the competition created and finished.
    let matchmaker = Scrape::get(&url("matchmaker"));
    assert_eq!(matchmaker.sum("arena_competitions_created_total", &[]), 1.0);
    assert_eq!(
        matchmaker.sum(
            "arena_competitions_finished_total",
            &[("state", "finished")]
        ),
        1.0
    );

    // Every family the dashboard and the alerts use came from some role, except the ones only
    // a failure records (a failed store call, lost data, an interrupted table: none here; the
    // telemetry crate's test records them).
    let mut exported = BTreeSet::new();
    for s in [&referee, &host, &library, &matchmaker] {
        exported.extend(s.families.iter().cloned());
    }
    let failure_only = [
        "arena_store_errors_total",
        "arena_store_data_loss_total",
        "arena_tables_interrupted_total",
        "arena_decisions_late_total",
        "arena_ladder_pairs_started_total",
        "arena_ladder_pairs_rated_total",
    ];
    let missing: Vec<String> = dashboard_families()
        .into_iter()
        .filter(|f| !exported.contains(f) && !failure_only.contains(&f.as_str()))
        .collect();
    assert!(missing.is_empty(), "no role exported {missing:?}");
}

#[test]
fn standalone_serves_every_role_s_metrics_on_one_endpoint() {
    let p = common::port();
    let listen = format!("127.0.0.1:{p}");
    let (sa, _) = Standalone::start(&[], &["--metrics-listen", &listen], &[]);
    let (out, err, ok) = sa.client(&[
        "competition",
        "create",
        "--matchmaker",
        &sa.matchmaker,
        "--name",
        "solo",
        "--format",
        "random",
        "--participants",
        "expert,seed",
        "--matches",
        "1",
        "--rounds",
        "2",
    ]);
    assert!(ok, "{err}{out}");
    let url = format!("http://{listen}/metrics");
    let s = scrape_until(&url, Duration::from_secs(10), |s| {
        s.sum("arena_tables_finished_total", &[]) >= 4.0
    });
    assert_eq!(s.sum("arena_tables_finished_total", &[]), 4.0);
    assert_eq!(s.sum("arena_queue_wait_seconds_count", &[]), 4.0);
    assert_eq!(s.sum("arena_competitions_created_total", &[]), 1.0);
    let n = s.sum("arena_decisions_total", &[("seat_kind", "in-process")]);
    assert!(n > 0.0);
    assert!(s.has("arena_queue_depth", &[("state", "pending")]));
    assert_default_lane(&s);
    assert_sub_millisecond_latency(&s, n);
    the_stalled_alert_fires_on(&s);
    assert!(
        s.samples.iter().any(|x| x.name == "target_info"
            && x.labels.get("service_name").map(String::as_str) == Some("arena-standalone")),
        "no target_info naming the service"
    );
}

/// The queue's depth and the tables finished both name the default lane `default`, so that the
/// `ArenaQueueStalled` alert, which joins them on `lane`, can fire for it.
fn assert_default_lane(s: &Scrape) {
    for family in ["arena_tables_finished_total", "arena_queue_depth"] {
        let lanes: BTreeSet<&str> = s
            .samples
            .iter()
            .filter(|x| x.name == family)
            .map(|x| x.labels.get("lane").map_or("(none)", String::as_str))
            .collect();
        assert_eq!(
            lanes,
            BTreeSet::from(["default"]),
            "{family}'s lanes: {lanes:?}"
        );
    }
}

/// The referee records its `n` in-process decisions in fractional seconds: they sum to more
/// than nothing, and built-in bots' answers land in the buckets below a millisecond (whole
/// milliseconds would put nearly all of them at 0 and leave those buckets unused).
fn assert_sub_millisecond_latency(s: &Scrape, n: f64) {
    let with = [("role", "referee"), ("seat_kind", "in-process")];
    assert_eq!(s.sum("arena_decision_latency_seconds_count", &with), n);
    let sum = s.sum("arena_decision_latency_seconds_sum", &with);
    assert!(sum > 0.0, "{n} decisions took {sum} s in all");
    let below = |limit: f64| -> f64 {
        s.matching("arena_decision_latency_seconds_bucket", &with)
            .filter(|x| x.labels["le"] != "+Inf" && x.labels["le"].parse::<f64>().unwrap() <= limit)
            .map(|x| x.value)
            .fold(0.0, f64::max)
    };
    // Answers between 10 µs and half a millisecond: whole milliseconds (0 or at least 1 ms)
    // never land there.
    let between = below(0.000_5) - below(0.000_01);
    assert!(between > 0.0, "none of {n} decisions took 10-500 µs");
}

/// promtool (Debian's package `prometheus`; `.ci/run` installs it), run in `dir` with `args`:
/// its output, failing the test if it failed.
fn promtool(dir: &std::path::Path, args: &[&str]) -> String {
    let out = match std::process::Command::new("promtool")
        .args(args)
        .current_dir(dir)
        .output()
    {
        Ok(out) => out,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "promtool is not installed (Debian: apt-get install prometheus; .ci/run installs it)"
        ),
        Err(e) => panic!("promtool: {e}"),
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "promtool {args:?}:\n{text}");
    text
}

#[test]
fn the_alert_rules_pass_their_promtool_unit_tests() {
    let text = promtool(
        &repo("deploy/prometheus"),
        &["test", "rules", "arena-alerts.test.yaml"],
    );
    assert!(text.contains("SUCCESS"), "{text}");
}

/// The series a standalone exports for its queue and its finished tables, with the labels as
/// scraped, through the real alert rules: with jobs waiting and no table finishing for half
/// an hour, `ArenaQueueStalled` fires for the default lane. (Labelled differently, the two
/// never join on `lane` and the alert stays silent.)
fn the_stalled_alert_fires_on(s: &Scrape) {
    let series =
        |name: &str, keep: &dyn Fn(&Sample) -> bool, values: &dyn Fn(&Sample) -> String| {
            s.matching(name, &[])
                .filter(|x| keep(x))
                .map(|x| {
                    let labels: Vec<String> = std::iter::once(("job", "arena"))
                        .chain(x.labels.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                        .map(|(k, v)| format!("{k}=\"{v}\""))
                        .collect();
                    format!(
                        "      - series: '{name}{{{}}}'\n        values: '{}'\n",
                        labels.join(","),
                        values(x)
                    )
                })
                .collect::<String>()
        };
    let waiting = series(
        "arena_queue_depth",
        &|x| x.labels.get("state").map(String::as_str) == Some("waiting"),
        // Jobs wait (the scrape's own queue is empty once the competition is over).
        &|_| "5x40".into(),
    );
    // No table finishes after the scrape.
    let finished = series("arena_tables_finished_total", &|_| true, &|x| {
        format!("{}x40", x.value)
    });
    assert!(!waiting.is_empty() && !finished.is_empty());
    let rules = repo("deploy/prometheus/arena-alerts.yaml");
    let test = format!(
        "rule_files:\n  - {}\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n{waiting}{finished}    alert_rule_test:\n      - eval_time: 30m\n        alertname: ArenaQueueStalled\n        exp_alerts:\n          - exp_labels:\n              severity: critical\n              lane: default\n            exp_annotations:\n              summary: \"Jobs wait on lane default and no referee finishes its tables\"\n              description: \"Jobs wait on lane default and none of its tables has finished for 10 minutes. Check that the lane's referees run and reach Redis and bot-host.\"\n",
        rules.display()
    );
    let dir = arena_testkit::private_tempdir();
    std::fs::write(dir.path().join("scraped.test.yaml"), &test).unwrap();
    promtool(dir.path(), &["test", "rules", "scraped.test.yaml"]);
}
