//! The Prometheus endpoint as a scraper sees it, over HTTP: every instrument of
//! `arena_telemetry::metrics` under the name Prometheus gets, failed store calls counted from the
//! store's error events, and the list of names the dashboard and alert rules may use
//! (`deploy/grafana/metrics.txt`, which `.ci/helm-check` checks them against) in step with it.
//! `ARENA_BLESS_DOCS=1` rewrites the list.

use std::collections::BTreeSet;
use std::io::{Read as _, Write as _};

use arena_telemetry::metrics::{KeyValue, metrics};

/// `GET path` on `addr`: (status line, body).
fn get(addr: std::net::SocketAddr, path: &str) -> (String, String) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (head.lines().next().unwrap().to_string(), body.to_string())
}

/// The metric families of a scrape (`# TYPE name kind`), as `name kind`.
fn families(body: &str) -> BTreeSet<String> {
    body.lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .map(str::to_string)
        .collect()
}

fn value(body: &str, series: &str) -> Option<f64> {
    body.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

#[test]
fn every_instrument_is_scraped_under_its_prometheus_name() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let _guard = rt.enter();
    // No OTLP export here: the scrape alone makes the instruments live.
    // SAFETY: set before any thread of this test binary reads the environment.
    unsafe { std::env::remove_var("OTEL_EXPORTER_OTLP_ENDPOINT") };
    let telemetry = arena_telemetry::init_with(
        "arena-scrape-test",
        arena_telemetry::Options { prometheus: true },
    )
    .unwrap();
    assert!(!telemetry.exporting());
    let scrape = telemetry.scrape().expect("asked for");

    let m = metrics();
    let none: [KeyValue; 0] = [];
    m.tables_started.add(1, &none);
    m.tables_finished.add(1, &none);
    m.decisions.add(1, &none);
    m.decision_latency_s.record(0.000_3, &none);
    m.decision_latency_s.record(0.04, &none);
    m.verdicts.add(1, &none);
    m.late_decisions.add(1, &none);
    m.queue_depth.record(7, &none);
    m.queue_wait_s.record(2.0, &none);
    m.deals_measured.add(1, &none);
    m.games_played.add(1, &none);
    m.bots_connected.add(1, &none);
    m.seats_open.add(1, &none);
    m.seat_faults.add(1, &none);
    m.library_operations.add(1, &none);
    m.competitions_created.add(1, &none);
    m.competitions_finished.add(1, &none);
    m.ladder_pairs_started.add(1, &none);
    m.ladder_pairs_rated.add(1, &none);
    m.tables_interrupted.add(1, &none);
    m.store_data_loss.add(1, &none);
    // Two failed store calls, as the store reports them; an event of another target or level
    // is not one.
    for _ in 0..2 {
        tracing::error!(target: arena_telemetry::REDIS_SPAN_TARGET, error = "connection refused");
    }
    tracing::warn!(target: arena_telemetry::REDIS_SPAN_TARGET, "slow");
    tracing::error!("some other error");

    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    rt.spawn(async move { axum::serve(listener, scrape.router()).await });
    let (status, body) = get(addr, arena_telemetry::scrape::PATH);
    assert!(status.contains(" 200 "), "{status}");
    assert_eq!(get(addr, "/").0.split(' ').nth(1), Some("404"));

    assert_eq!(
        value(&body, "arena_store_errors_total"),
        Some(2.0),
        "{body}"
    );
    assert_eq!(value(&body, "arena_queue_depth"), Some(7.0), "{body}");
    assert_eq!(value(&body, "arena_bots_connected"), Some(1.0), "{body}");
    // The latency is in fractional seconds and its buckets reach below a millisecond: 0.3 ms
    // is in le=0.0005, not yet in le=0.00025.
    assert_eq!(
        value(
            &body,
            "arena_decision_latency_seconds_bucket{le=\"0.00025\"}"
        ),
        Some(0.0),
        "{body}"
    );
    assert_eq!(
        value(
            &body,
            "arena_decision_latency_seconds_bucket{le=\"0.0005\"}"
        ),
        Some(1.0),
        "{body}"
    );
    assert!(
        body.contains("target_info{service_name=\"arena-scrape-test\""),
        "{body}"
    );

    let found: BTreeSet<String> = families(&body)
        .into_iter()
        .filter(|f| f.starts_with("arena_"))
        .collect();
    let listed =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/grafana/metrics.txt");
    let text = format!(
        "# Every metric family arena's roles export to Prometheus, as `name type`: written by\n\
         # crates/telemetry/tests/scrape.rs (ARENA_BLESS_DOCS=1 rewrites it); .ci/helm-check checks\n\
         # the dashboard's and the alert rules' metric names against it.\n{}\n",
        found.iter().cloned().collect::<Vec<_>>().join("\n")
    );
    if std::env::var_os("ARENA_BLESS_DOCS").is_some() {
        std::fs::write(&listed, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&listed).unwrap_or_default();
    assert_eq!(
        committed,
        text,
        "{} is not what the roles export; ARENA_BLESS_DOCS=1 rewrites it",
        listed.display()
    );
    // Each of the 21 instruments recorded above is a family of its own.
    assert_eq!(found.len(), 21, "{found:?}");
}
