//! `--metrics-listen`: the Prometheus scrape endpoint every role may serve.

use anyhow::{Context, Result};
use clap::Args;

use super::flags::ListenOrOff;

/// The Prometheus scrape endpoint every role may serve.
#[derive(Args)]
pub struct MetricsArgs {
    /// HTTP listen address of the Prometheus endpoint (`GET /metrics`; no token: it shows counts
    /// and latencies by kind, never a bot's name, a table or a card; docs/observability.md), or
    /// `off`. The chart serves it on 0.0.0.0:9464.
    #[arg(long, env = "ARENA_METRICS_LISTEN", default_value_t = ListenOrOff(None))]
    pub(super) metrics_listen: ListenOrOff,
}

/// The metrics endpoint's bounds: a scraper or two, never many connections.
pub(super) const METRICS_LIMITS: arena_serve::http::HttpLimits = arena_serve::http::HttpLimits {
    max_connections: 64,
    header_read_timeout: arena_serve::http::DEFAULT_HEADER_READ_TIMEOUT,
    idle_timeout: arena_serve::http::DEFAULT_IDLE_TIMEOUT,
};

/// A bound metrics endpoint, not yet serving.
pub(super) struct MetricsEndpoint {
    pub(super) listener: tokio::net::TcpListener,
    pub(super) scrape: arena_telemetry::Scrape,
}

impl MetricsArgs {
    /// Telemetry for `service` (logs, OTLP export as the environment asks), keeping the metrics
    /// for a scrape and binding the endpoint when `--metrics-listen` is on.
    pub(super) async fn init(
        &self,
        service: &str,
    ) -> Result<(arena_telemetry::Telemetry, Option<MetricsEndpoint>)> {
        let options = arena_telemetry::Options {
            prometheus: self.metrics_listen.0.is_some(),
        };
        let telemetry = arena_telemetry::init_with(service, options)?;
        let endpoint = match (self.metrics_listen.0, telemetry.scrape()) {
            (Some(addr), Some(scrape)) => {
                let listener = tokio::net::TcpListener::bind(addr)
                    .await
                    .with_context(|| format!("binding the metrics endpoint's {addr}"))?;
                Some(MetricsEndpoint { listener, scrape })
            }
            _ => None,
        };
        Ok((telemetry, endpoint))
    }
}

impl MetricsEndpoint {
    /// Where it answers, for the configuration lines.
    pub(super) fn describe(endpoint: &Option<MetricsEndpoint>) -> String {
        match endpoint.as_ref().and_then(|e| e.listener.local_addr().ok()) {
            Some(a) => format!("http://{a}{}", arena_telemetry::scrape::PATH),
            None => "off".into(),
        }
    }

    /// Serves scrapes until the runtime ends, so the last tables of a graceful shutdown can
    /// still be scraped.
    pub(super) fn spawn(endpoint: Option<MetricsEndpoint>) {
        if let Some(e) = endpoint {
            tokio::spawn(async move {
                let served = arena_serve::http::serve(
                    "metrics endpoint",
                    e.listener,
                    e.scrape.router(),
                    METRICS_LIMITS,
                    std::future::pending(),
                );
                if let Err(err) = served.await {
                    tracing::error!(error = %err, "the metrics endpoint stopped");
                }
            });
        }
    }
}
