//! The Prometheus scrape endpoint: `GET /metrics` in the Prometheus text format, from the same
//! instruments OTLP pushes ([`crate::metrics`]), read through `opentelemetry-prometheus`.
//!
//! The endpoint is public by design, as Prometheus endpoints are: it needs no token, so any
//! scraper can read it. What it shows carries no hidden information: counts, gauges and latency
//! histograms whose attributes are the game, kinds of seats, bots, verdicts and faults, queue
//! states and panels — never a bot's name, a table id, a deal or a card. Keep it off the public
//! internet all the same (the chart's NetworkPolicy admits only the scraper's namespace).

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use prometheus::{Encoder as _, TextEncoder};

/// The path the endpoint answers on.
pub const PATH: &str = "/metrics";

/// The port the chart and the docs use for the endpoint: the one OpenTelemetry's Prometheus
/// exporters use by convention.
pub const DEFAULT_PORT: u16 = 9464;

/// What a scrape reads: the registry the process's meter provider reports into.
#[derive(Clone)]
pub struct Scrape {
    registry: prometheus::Registry,
}

impl Scrape {
    pub(crate) fn new(registry: prometheus::Registry) -> Scrape {
        Scrape { registry }
    }

    /// Every metric as the Prometheus text format (version 0.0.4).
    pub fn render(&self) -> Result<String, String> {
        let mut out = Vec::new();
        TextEncoder::new()
            .encode(&self.registry.gather(), &mut out)
            .map_err(|e| e.to_string())?;
        String::from_utf8(out).map_err(|e| e.to_string())
    }

    /// The endpoint's routes: `GET /metrics` (other paths get 404). The roles serve it with
    /// `arena_serve::http::serve`, the bounded listener the console uses too.
    pub fn router(self) -> axum::Router {
        axum::Router::new().route(
            PATH,
            axum::routing::get(move || {
                let scrape = self.clone();
                async move { scrape.respond() }
            }),
        )
    }

    fn respond(&self) -> Response {
        match self.render() {
            Ok(body) => (
                [(header::CONTENT_TYPE, TextEncoder::new().format_type())],
                body,
            )
                .into_response(),
            Err(e) => {
                tracing::warn!(error = %e, "cannot encode the metrics for a scrape");
                (StatusCode::INTERNAL_SERVER_ERROR, e).into_response()
            }
        }
    }
}
