//! Observability for every arena role: `tracing` logs, OpenTelemetry traces and metrics exported
//! over OTLP, and W3C trace context carried across gRPC hops so one table is one trace across
//! matchmaker, referee and bot-host.
//!
//! Export is **off by default and then costs nothing**: no OpenTelemetry layer is installed and
//! the global meter is a no-op. It is switched on by the standard variables:
//! `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) set, or
//! `OTEL_TRACES_EXPORTER=otlp`; `OTEL_SDK_DISABLED=true` forces it off. The exporters read the other
//! `OTEL_*` variables themselves (headers, timeouts, protocol); `OTEL_SERVICE_NAME` overrides the
//! role's service name. Logs go to stderr, filtered by `ARENA_LOG` or `RUST_LOG` (default `info`).

pub mod metrics;
pub mod propagation;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

pub use propagation::{
    MetadataExtractor, MetadataInjector, current_traceparent, extract_context, inject_current,
    set_parent, set_parent_from_traceparent, traced_request,
};

/// Why telemetry could not start.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    /// The OTLP exporter could not be built (bad endpoint, …).
    #[error("OpenTelemetry export: {0}")]
    Export(String),
}

/// Keeps the exporters alive; dropping it flushes and shuts them down.
#[must_use = "dropping the guard shuts telemetry down"]
pub struct Telemetry {
    tracer: Option<SdkTracerProvider>,
    meter: Option<SdkMeterProvider>,
}

impl Telemetry {
    /// True when spans and metrics are exported.
    pub fn exporting(&self) -> bool {
        self.tracer.is_some()
    }

    /// Flushes everything recorded so far.
    pub fn flush(&self) {
        if let Some(t) = &self.tracer {
            let _ = t.force_flush();
        }
        if let Some(m) = &self.meter {
            let _ = m.force_flush();
        }
    }
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        if let Some(t) = self.tracer.take() {
            let _ = t.shutdown();
        }
        if let Some(m) = self.meter.take() {
            let _ = m.shutdown();
        }
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// True when the `OTEL_*` variables ask for OTLP export.
pub fn export_requested() -> bool {
    if env("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true")) {
        return false;
    }
    env("OTEL_EXPORTER_OTLP_ENDPOINT").is_some()
        || env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").is_some()
        || env("OTEL_TRACES_EXPORTER").is_some_and(|v| v.eq_ignore_ascii_case("otlp"))
}

/// Installs logging and, when requested by the environment, OTLP export for `service`
/// (e.g. `arena-table-referee`). Call once per process, inside a tokio runtime.
pub fn init(service: &str) -> Result<Telemetry, TelemetryError> {
    let filter = || {
        EnvFilter::try_from_env("ARENA_LOG")
            .or_else(|_| EnvFilter::try_from_default_env())
            .unwrap_or_else(|_| EnvFilter::new("info"))
    };
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(filter());
    if !export_requested() {
        // A second init in one process (tests) keeps the first subscriber.
        let _ = tracing_subscriber::registry().with(fmt).try_init();
        return Ok(Telemetry {
            tracer: None,
            meter: None,
        });
    }
    let (tracer, meter) = build_providers(service)?;
    let otel = tracing_opentelemetry::layer()
        .with_tracer(tracer.tracer("arena"))
        .with_filter(filter());
    let _ = tracing_subscriber::registry()
        .with(fmt)
        .with(otel)
        .try_init();
    Ok(Telemetry {
        tracer: Some(tracer),
        meter,
    })
}

fn build_providers(
    service: &str,
) -> Result<(SdkTracerProvider, Option<SdkMeterProvider>), TelemetryError> {
    let name = env("OTEL_SERVICE_NAME").unwrap_or_else(|| service.to_string());
    let resource = Resource::builder().with_service_name(name).build();
    let spans = opentelemetry_otlp::SpanExporter::builder()
        .with_tonic()
        .build()
        .map_err(|e| TelemetryError::Export(e.to_string()))?;
    let tracer = SdkTracerProvider::builder()
        .with_batch_exporter(spans)
        .with_resource(resource.clone())
        .build();
    opentelemetry::global::set_text_map_propagator(
        opentelemetry_sdk::propagation::TraceContextPropagator::new(),
    );
    opentelemetry::global::set_tracer_provider(tracer.clone());
    // OTEL_METRICS_EXPORTER=none keeps traces and drops metrics (the standard switch).
    if env("OTEL_METRICS_EXPORTER").is_some_and(|v| v.eq_ignore_ascii_case("none")) {
        return Ok((tracer, None));
    }
    let metrics = opentelemetry_otlp::MetricExporter::builder()
        .with_tonic()
        .build()
        .map_err(|e| TelemetryError::Export(e.to_string()))?;
    let meter = SdkMeterProvider::builder()
        .with_periodic_exporter(metrics)
        .with_resource(resource)
        .build();
    opentelemetry::global::set_meter_provider(meter.clone());
    Ok((tracer, Some(meter)))
}
