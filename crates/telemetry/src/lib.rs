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
//!
//! The same filter decides which spans are exported, with one exception: the spans of Redis
//! calls (target [`REDIS_SPAN_TARGET`]) are exported but never shown in log lines. Log lines
//! gain nothing from them, and keeping them out means that with export off no layer wants them,
//! so each Redis call costs one check of a cached callsite interest rather than a span.
//!
//! Span names, attributes and metrics are listed in `docs/observability.md`.

pub mod health;
pub mod metrics;
pub mod propagation;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Metadata;
use tracing::subscriber::Interest;
use tracing_subscriber::layer::{Context, Filter, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer, filter::FilterExt};

pub use propagation::{
    MetadataExtractor, MetadataInjector, current_traceparent, extract_context, grpc_server_span,
    inject_current, set_parent, set_parent_from_traceparent, traced_request,
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

/// The target of the spans `arena-store` opens around each Redis call, and of the error events
/// that mark failed calls (it sets it explicitly, so the two crates stay in step). Exported, never
/// logged. Leave them out of export too with e.g. `ARENA_LOG=info,arena_store::redis::call=off`.
pub const REDIS_SPAN_TARGET: &str = "arena_store::redis::call";

/// Keeps everything of [`REDIS_SPAN_TARGET`] out of the log layer: the spans would add nothing to
/// log lines but their cost, and a failed call's error event is the caller's to log (it decides
/// whether a failure is worth a warning).
struct NoRedisCalls;

impl NoRedisCalls {
    fn excludes(meta: &Metadata<'_>) -> bool {
        meta.target() == REDIS_SPAN_TARGET
    }
}

impl<S> Filter<S> for NoRedisCalls {
    fn enabled(&self, meta: &Metadata<'_>, _: &Context<'_, S>) -> bool {
        !NoRedisCalls::excludes(meta)
    }

    fn callsite_enabled(&self, meta: &'static Metadata<'static>) -> Interest {
        // `never` is cached per callsite: with no other layer interested, the span is not even
        // built.
        if NoRedisCalls::excludes(meta) {
            Interest::never()
        } else {
            Interest::always()
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
        .with_filter(filter().and(NoRedisCalls));
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::Mutex;
    use tracing::span;

    /// Records the names of the spans it is told about.
    #[derive(Clone, Default)]
    struct Seen(Arc<Mutex<Vec<String>>>);

    impl<S: tracing::Subscriber> Layer<S> for Seen {
        fn on_new_span(
            &self,
            attrs: &span::Attributes<'_>,
            _: &span::Id,
            _: tracing_subscriber::layer::Context<'_, S>,
        ) {
            if let Ok(mut v) = self.0.lock() {
                v.push(attrs.metadata().name().to_string());
            }
        }
    }

    fn names(seen: &Seen) -> Vec<String> {
        seen.0.lock().map(|v| v.clone()).unwrap_or_default()
    }

    #[test]
    fn redis_call_spans_reach_export_but_not_the_log() {
        let (log, export) = (Seen::default(), Seen::default());
        let subscriber = tracing_subscriber::registry()
            .with(
                log.clone()
                    .with_filter(EnvFilter::new("info").and(NoRedisCalls)),
            )
            .with(export.clone().with_filter(EnvFilter::new("info")));
        tracing::subscriber::with_default(subscriber, || {
            let _t = tracing::info_span!("table").entered();
            let _r = tracing::info_span!(target: "arena_store::redis::call", "redis").entered();
        });
        assert_eq!(names(&log), ["table"]);
        assert_eq!(names(&export), ["table", "redis"]);
    }

    #[test]
    fn with_only_the_log_layer_a_redis_call_span_is_not_built() {
        let log = Seen::default();
        let subscriber = tracing_subscriber::registry().with(
            log.clone()
                .with_filter(EnvFilter::new("trace").and(NoRedisCalls)),
        );
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!(target: "arena_store::redis::call", "redis");
            assert!(span.is_disabled());
            // Other targets, the store's own module among them, still reach the log.
            assert!(!tracing::info_span!(target: "arena_store::redis", "other").is_disabled());
        });
        assert_eq!(names(&log), ["other"]);
    }
}
