//! OTLP export over TLS: arena's exporters, pointed at an `https://` collector whose certificate
//! comes from a CA made in the test, and told to trust it with the standard
//! `OTEL_EXPORTER_OTLP_CERTIFICATE`, deliver spans and metrics to it; the collector asks for a
//! client certificate too (mutual TLS), which the exporters present from
//! `OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE` and `OTEL_EXPORTER_OTLP_CLIENT_KEY`.

use std::time::Duration;

use arena_integration::collector::Collector;
use arena_test_ca::TestCa;
use arena_tls::{KeyPairFiles, ServerTlsFiles, TlsFile};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spans_and_metrics_reach_an_https_collector_trusting_the_test_ca() {
    let ca = TestCa::new("arena otlp test CA");
    let server = ca.server(&["127.0.0.1", "localhost"]);
    let client = ca.client("arena-exporter");
    let tls = ServerTlsFiles {
        identity: KeyPairFiles {
            cert: TlsFile::new("collector cert", &server.cert_file),
            key: TlsFile::new("collector key", &server.key_file),
        },
        client_ca: Some(TlsFile::new("collector client CA", ca.cert_file())),
    }
    .server_config()
    .expect("the collector's TLS configuration");
    let (collector, addr) = Collector::start_tls(tls).await;

    let missing = ca.dir().join("missing-ca.pem");
    // SAFETY: this binary holds only this test, and nothing else reads the environment while it
    // is set.
    unsafe {
        std::env::set_var("OTEL_EXPORTER_OTLP_ENDPOINT", format!("https://{addr}"));
        std::env::set_var("OTEL_BSP_SCHEDULE_DELAY", "100");
        std::env::set_var("OTEL_METRIC_EXPORT_INTERVAL", "200");
        std::env::set_var("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", &client.cert_file);
        std::env::set_var("OTEL_EXPORTER_OTLP_CLIENT_KEY", &client.key_file);
        // First a CA file that is not there: telemetry does not start, and says why.
        std::env::set_var("OTEL_EXPORTER_OTLP_CERTIFICATE", &missing);
    }
    let e = arena_telemetry::init("arena-otlp-tls")
        .err()
        .expect("an unreadable CA file stops telemetry");
    let text = e.to_string();
    assert!(
        text.contains(&format!(
            "OTEL_EXPORTER_OTLP_CERTIFICATE {}: cannot read it",
            missing.display()
        )),
        "{text}"
    );

    // SAFETY: as above.
    unsafe { std::env::set_var("OTEL_EXPORTER_OTLP_CERTIFICATE", ca.cert_file()) };
    let telemetry = arena_telemetry::init("arena-otlp-tls").expect("telemetry over TLS");
    assert!(telemetry.exporting());
    tracing::info_span!("over-tls", via = "https").in_scope(|| {
        arena_telemetry::metrics::metrics()
            .tables_started
            .add(1, &arena_telemetry::metrics::attr("game", "tls-test"));
    });

    let arrived = collector
        .wait_for(
            Duration::from_secs(20),
            || telemetry.flush(),
            |c| {
                c.spans().iter().any(|s| s.name == "over-tls")
                    && c.latest("arena.tables.started", &[("game", "tls-test")])
                        .is_some()
            },
        )
        .await;
    assert!(
        arrived,
        "spans {:?}, metrics {:?}",
        collector.spans(),
        collector.metric_names()
    );
    let span = collector
        .spans()
        .into_iter()
        .find(|s| s.name == "over-tls")
        .expect("the span");
    assert_eq!(span.attrs.get("via").map(String::as_str), Some("https"));
}
