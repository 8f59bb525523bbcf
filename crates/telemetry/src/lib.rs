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
//! An `https://` endpoint (or one without a scheme, unless `OTEL_EXPORTER_OTLP_INSECURE=true`)
//! exports over TLS, verifying the collector against the system's roots or against the CA of
//! `OTEL_EXPORTER_OTLP_CERTIFICATE`; `OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE` and
//! `OTEL_EXPORTER_OTLP_CLIENT_KEY` add a client certificate (mutual TLS). Each has the standard
//! per-signal form too (`OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE`, `…_METRICS_…`), which wins. The
//! SDK does not read these variables itself; [`exporter_tls`] does, and a file that cannot be used
//! stops [`init`] with an error naming the variable and the file.
//!
//! The same filter decides which spans are exported, with one exception: the spans of Redis
//! calls (target [`REDIS_SPAN_TARGET`]) are exported but never shown in log lines. Log lines
//! gain nothing from them, and keeping them out means that with export off no layer wants them,
//! so each Redis call costs one check of a cached callsite interest rather than a span.
//!
//! Metrics can also be scraped: [`init_with`] given [`Options::prometheus`] keeps them in a
//! registry that [`Scrape`] serves as `GET /metrics` in the Prometheus text format (the roles'
//! `--metrics-listen`), with or without OTLP export. With either on, a layer counts the store's
//! failed calls into `arena.store.errors`.
//!
//! Span names, attributes and metrics are listed in `docs/observability.md`.

pub mod health;
pub mod metrics;
pub mod propagation;
pub mod scrape;

pub use scrape::Scrape;

use arena_tls::{ClientTlsFiles, KeyPairFiles, TlsFile};
use opentelemetry_otlp::WithTonicConfig as _;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::subscriber::Interest;
use tracing::{Level, Metadata};
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
    /// The OTLP exporter could not be built (bad endpoint, unusable TLS file, …).
    #[error("OpenTelemetry export: {0}")]
    Export(String),
}

/// Keeps the exporters alive; dropping it flushes and shuts them down.
#[must_use = "dropping the guard shuts telemetry down"]
pub struct Telemetry {
    tracer: Option<SdkTracerProvider>,
    meter: Option<SdkMeterProvider>,
    scrape: Option<Scrape>,
}

impl Telemetry {
    /// True when spans and metrics are exported.
    pub fn exporting(&self) -> bool {
        self.tracer.is_some()
    }

    /// What a Prometheus scrape reads, when [`Options::prometheus`] asked for it.
    pub fn scrape(&self) -> Option<Scrape> {
        self.scrape.clone()
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

/// Whether log lines get ANSI colours: only on a terminal, and not when `NO_COLOR` is set
/// (<https://no-color.org>) — a log file, `kubectl logs` or a pipe gets plain text.
pub fn colour_logs(stderr_is_terminal: bool, no_color: Option<&str>) -> bool {
    stderr_is_terminal && no_color.is_none_or(str::is_empty)
}

/// What [`init_with`] sets up besides logs and the OTLP export the environment asks for.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Keep every metric for a Prometheus scrape ([`Telemetry::scrape`]). The instruments are
    /// then live even with OTLP export off.
    pub prometheus: bool,
}

/// Installs logging and, when requested by the environment, OTLP export for `service`
/// (e.g. `arena-table-referee`). Call once per process, inside a tokio runtime.
pub fn init(service: &str) -> Result<Telemetry, TelemetryError> {
    init_with(service, Options::default())
}

/// [`init`], with the metrics also kept for a Prometheus scrape when `options` ask for it.
pub fn init_with(service: &str, options: Options) -> Result<Telemetry, TelemetryError> {
    let filter = || {
        EnvFilter::try_from_env("ARENA_LOG")
            .or_else(|_| EnvFilter::try_from_default_env())
            .unwrap_or_else(|_| EnvFilter::new("info"))
    };
    let colour = colour_logs(
        std::io::IsTerminal::is_terminal(&std::io::stderr()),
        std::env::var("NO_COLOR").ok().as_deref(),
    );
    let export = export_requested();
    let resource = || {
        let name = env("OTEL_SERVICE_NAME").unwrap_or_else(|| service.to_string());
        Resource::builder().with_service_name(name).build()
    };
    let tracer = if export {
        Some(build_tracer(resource())?)
    } else {
        None
    };
    // OTEL_METRICS_EXPORTER=none keeps traces and drops pushed metrics (the standard switch).
    let push =
        export && !env("OTEL_METRICS_EXPORTER").is_some_and(|v| v.eq_ignore_ascii_case("none"));
    let registry = options.prometheus.then(prometheus::Registry::new);
    let meter = if push || registry.is_some() {
        Some(build_meter(resource(), push, registry.clone())?)
    } else {
        None
    };
    // A second init in one process (tests) keeps the first subscriber.
    let _ = subscriber(
        filter,
        colour,
        tracer.as_ref().map(|t| t.tracer("arena")),
        meter.is_some(),
    )
    .try_init();
    Ok(Telemetry {
        tracer,
        meter,
        scrape: registry.map(Scrape::new),
    })
}

/// The process's subscriber: the log on stderr (`filter`, without the Redis call spans), the
/// OTLP export of spans when `tracer` is given (`filter` too), and the store-error counter when
/// `count_store_errors`.
///
/// A layer that is switched off is still a layer here, filtered to nothing, rather than an
/// `Option` that is `None`: a `None` layer says it is interested in every callsite, which makes
/// every span of every level real (h2 and hyper open trace spans on each poll of each stream,
/// which cost bot-host a tenth of its CPU with thousands of seat streams).
fn subscriber(
    filter: impl Fn() -> EnvFilter,
    colour: bool,
    tracer: Option<opentelemetry_sdk::trace::SdkTracer>,
    count_store_errors: bool,
) -> impl tracing::Subscriber + Send + Sync {
    let fmt = tracing_subscriber::fmt::layer()
        .with_ansi(colour)
        .with_writer(std::io::stderr)
        .with_filter(filter().and(NoRedisCalls));
    let export_filter = if tracer.is_some() {
        filter()
    } else {
        EnvFilter::new("off")
    };
    let otel = tracer
        .map(|t| tracing_opentelemetry::layer().with_tracer(t))
        .with_filter(export_filter);
    // With metrics on, failed store calls are counted from the store's error events.
    let store_errors = StoreErrors.with_filter(
        tracing_subscriber::filter::filter_fn(move |meta| {
            count_store_errors && StoreErrors::counts(meta)
        })
        .with_max_level_hint(Level::ERROR),
    );
    tracing_subscriber::registry()
        .with(fmt)
        .with(otel)
        .with(store_errors)
}

/// Counts the store's failed calls (`arena.store.errors`): the ERROR events of
/// [`REDIS_SPAN_TARGET`]. Its filter wants those events alone, so no span is built for it.
struct StoreErrors;

impl StoreErrors {
    fn counts(meta: &Metadata<'_>) -> bool {
        meta.is_event() && meta.target() == REDIS_SPAN_TARGET && *meta.level() == Level::ERROR
    }
}

impl<S: tracing::Subscriber> Layer<S> for StoreErrors {
    fn on_event(&self, _: &tracing::Event<'_>, _: Context<'_, S>) {
        metrics::metrics().store_errors.add(1, &[]);
    }
}

/// The label of a table job that says when it was enqueued (milliseconds since the Unix epoch),
/// set by [`job_labels`]; the referee that takes the job records its wait from it.
pub const ENQUEUED_AT_LABEL: &str = "enqueued_at_ms";

/// The labels every table job gets where it is made, for observability: the current trace
/// context (`traceparent`, when inside a trace), so the table joins the trace that enqueued it,
/// and [`ENQUEUED_AT_LABEL`], so its time on the queue is measured.
pub fn job_labels() -> impl Iterator<Item = (String, String)> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default();
    current_traceparent()
        .map(|tp| ("traceparent".to_string(), tp))
        .into_iter()
        .chain(std::iter::once((
            ENQUEUED_AT_LABEL.to_string(),
            now.to_string(),
        )))
}

/// Records how long a job with `labels` waited on the queue (`arena.queue.wait`, by `game`),
/// if it says when it was enqueued: a job made before the label existed, or by a client that
/// does not set it, is not recorded. A clock behind the enqueuer's counts as no wait.
pub fn record_queue_wait(labels: &std::collections::HashMap<String, String>, game: &'static str) {
    let Some(at) = labels
        .get(ENQUEUED_AT_LABEL)
        .and_then(|v| v.parse::<u64>().ok())
    else {
        return;
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or_default();
    let waited = now.saturating_sub(at) as f64 / 1000.0;
    metrics::metrics()
        .queue_wait_s
        .record(waited, &metrics::attr("game", game));
}

/// The signals exported, as named in the per-signal `OTEL_EXPORTER_OTLP_{SIGNAL}_*` variables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Signal {
    /// Spans (`TRACES`).
    Traces,
    /// Metrics (`METRICS`).
    Metrics,
}

impl Signal {
    fn infix(self) -> &'static str {
        match self {
            Signal::Traces => "TRACES",
            Signal::Metrics => "METRICS",
        }
    }
}

/// The TLS settings of `signal`'s exporter, from the variables `get` looks up (`env` in
/// [`init`]): `None` when the endpoint is not TLS (`http://…`, the default
/// `http://localhost:4317`, or a schemeless endpoint with `…_INSECURE=true`), else the trust
/// (`…_CERTIFICATE`, or the system's roots) and the client certificate
/// (`…_CLIENT_CERTIFICATE` with `…_CLIENT_KEY`). Per-signal variables win over the general ones.
///
/// Fails, naming the variable and the file, if a file cannot be used, if only one of the client
/// certificate and key is set, or if a certificate is set for an endpoint that is not TLS (it
/// would be ignored, and the export would go out in the clear).
pub fn exporter_tls(
    signal: Signal,
    get: impl Fn(&str) -> Option<String>,
) -> Result<Option<tonic::transport::ClientTlsConfig>, TelemetryError> {
    // The per-signal variable if set, else the general one; with the name it was found under.
    let var = |suffix: &str| {
        let specific = format!("OTEL_EXPORTER_OTLP_{}_{suffix}", signal.infix());
        let general = format!("OTEL_EXPORTER_OTLP_{suffix}");
        let nonblank = |name: &str| get(name).filter(|v| !v.trim().is_empty());
        nonblank(&specific)
            .map(|v| (specific.clone(), v))
            .or_else(|| nonblank(&general).map(|v| (general, v)))
    };
    let file = |suffix: &str| var(suffix).map(|(name, path)| TlsFile::new(name, path));
    let ca = file("CERTIFICATE");
    let identity = match (file("CLIENT_CERTIFICATE"), file("CLIENT_KEY")) {
        (Some(cert), Some(key)) => Some(KeyPairFiles { cert, key }),
        (None, None) => None,
        (Some(one), None) | (None, Some(one)) => {
            return Err(TelemetryError::Export(format!(
                "{} is set but not its pair: a client certificate needs both \
                 OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE and OTEL_EXPORTER_OTLP_CLIENT_KEY",
                one.setting
            )));
        }
    };
    let tls = match var("ENDPOINT") {
        None => false,
        Some((_, endpoint)) => {
            let lower = endpoint.trim().to_ascii_lowercase();
            if lower.starts_with("https://") {
                true
            } else if lower.contains("://") {
                false
            } else {
                // Schemeless: TLS unless INSECURE (the OTLP exporter specification).
                !var("INSECURE").is_some_and(|(_, v)| v.trim().eq_ignore_ascii_case("true"))
            }
        }
    };
    if !tls {
        if let Some(set) = ca.iter().chain(identity.iter().map(|p| &p.cert)).next() {
            return Err(TelemetryError::Export(format!(
                "{} is set, but the {} endpoint is not TLS (use https://)",
                set.setting,
                signal.infix().to_ascii_lowercase()
            )));
        }
        return Ok(None);
    }
    let files = ClientTlsFiles { ca, identity };
    files
        .client_config()
        .map(Some)
        .map_err(|e| TelemetryError::Export(e.to_string()))
}

fn build_tracer(resource: Resource) -> Result<SdkTracerProvider, TelemetryError> {
    let mut spans = opentelemetry_otlp::SpanExporter::builder().with_tonic();
    if let Some(tls) = exporter_tls(Signal::Traces, env)? {
        spans = spans.with_tls_config(tls);
    }
    let spans = spans
        .build()
        .map_err(|e| TelemetryError::Export(arena_tls::error_chain(&e)))?;
    let tracer = SdkTracerProvider::builder()
        .with_batch_exporter(spans)
        .with_resource(resource)
        .build();
    opentelemetry::global::set_text_map_propagator(
        opentelemetry_sdk::propagation::TraceContextPropagator::new(),
    );
    opentelemetry::global::set_tracer_provider(tracer.clone());
    Ok(tracer)
}

/// The meter provider: pushing over OTLP when `push`, and reporting into `registry` for a
/// Prometheus scrape when given. Installed as the global one.
fn build_meter(
    resource: Resource,
    push: bool,
    registry: Option<prometheus::Registry>,
) -> Result<SdkMeterProvider, TelemetryError> {
    let mut builder = SdkMeterProvider::builder().with_resource(resource);
    if push {
        let mut metrics = opentelemetry_otlp::MetricExporter::builder().with_tonic();
        if let Some(tls) = exporter_tls(Signal::Metrics, env)? {
            metrics = metrics.with_tls_config(tls);
        }
        let metrics = metrics
            .build()
            .map_err(|e| TelemetryError::Export(arena_tls::error_chain(&e)))?;
        builder = builder.with_periodic_exporter(metrics);
    }
    if let Some(registry) = registry {
        // One meter (`arena`), so the scope labels would only repeat it on every series; the
        // resource (service.name, OTEL_RESOURCE_ATTRIBUTES) is in `target_info`.
        let reader = opentelemetry_prometheus::exporter()
            .with_registry(registry)
            .scope_info_enabled(false)
            .build()
            .map_err(|e| TelemetryError::Export(format!("the Prometheus reader: {e}")))?;
        builder = builder.with_reader(reader);
    }
    let meter = builder.build();
    opentelemetry::global::set_meter_provider(meter.clone());
    Ok(meter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::Mutex;
    use tracing::span;

    #[test]
    fn logs_are_coloured_only_on_a_terminal_without_no_color() {
        assert!(colour_logs(true, None));
        assert!(colour_logs(true, Some("")), "an empty NO_COLOR is unset");
        assert!(!colour_logs(true, Some("1")));
        assert!(!colour_logs(false, None));
    }

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

    /// `exporter_tls` over a fixed set of variables.
    fn tls_with(signal: Signal, vars: &[(&str, &str)]) -> Result<bool, String> {
        let vars: std::collections::HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        exporter_tls(signal, |name| vars.get(name).cloned())
            .map(|c| c.is_some())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn tls_follows_the_endpoint_and_the_standard_variables() {
        let ca = arena_test_ca::TestCa::new("otlp test CA");
        let ca_file = ca.cert_file().display().to_string();
        let client = ca.client("arena");
        let (cert, key) = (
            client.cert_file.display().to_string(),
            client.key_file.display().to_string(),
        );
        const EP: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
        const CA: &str = "OTEL_EXPORTER_OTLP_CERTIFICATE";
        use Signal::{Metrics, Traces};
        // Not TLS: nothing set, http://, schemeless with INSECURE.
        assert_eq!(tls_with(Traces, &[]), Ok(false));
        assert_eq!(tls_with(Traces, &[(EP, "http://c:4317")]), Ok(false));
        assert_eq!(
            tls_with(
                Traces,
                &[(EP, "c:4317"), ("OTEL_EXPORTER_OTLP_INSECURE", "true")]
            ),
            Ok(false)
        );
        // TLS: https://, schemeless, with or without a CA and a client certificate.
        assert_eq!(tls_with(Traces, &[(EP, "https://c:4317")]), Ok(true));
        assert_eq!(tls_with(Traces, &[(EP, "c:4317")]), Ok(true));
        assert_eq!(
            tls_with(Traces, &[(EP, "HTTPS://c:4317"), (CA, &ca_file)]),
            Ok(true)
        );
        let mtls = [
            (EP, "https://c:4317"),
            (CA, ca_file.as_str()),
            ("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", cert.as_str()),
            ("OTEL_EXPORTER_OTLP_CLIENT_KEY", key.as_str()),
        ];
        assert_eq!(tls_with(Metrics, &mtls), Ok(true));
        // Per-signal variables win: traces over https, metrics in the clear.
        let split = [
            (EP, "http://c:4317"),
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://c:4317"),
            ("OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE", ca_file.as_str()),
        ];
        assert_eq!(tls_with(Traces, &split), Ok(true));
        assert_eq!(tls_with(Metrics, &split), Ok(false));

        // Errors name the variable and the file.
        let missing = ca.dir().join("nope.pem").display().to_string();
        let e = tls_with(Traces, &[(EP, "https://c:4317"), (CA, &missing)]).unwrap_err();
        assert!(
            e.contains(&format!("{CA} {missing}: cannot read it")),
            "{e}"
        );
        let e = tls_with(
            Traces,
            &[
                (EP, "https://c:4317"),
                ("OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE", &key),
            ],
        )
        .unwrap_err();
        assert!(
            e.contains("OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE") && e.contains("no PEM certificate"),
            "{e}"
        );
        let e = tls_with(
            Traces,
            &[
                (EP, "https://c:4317"),
                ("OTEL_EXPORTER_OTLP_CLIENT_KEY", &key),
            ],
        )
        .unwrap_err();
        assert!(
            e.contains("OTEL_EXPORTER_OTLP_CLIENT_KEY is set but not its pair"),
            "{e}"
        );
        // A CA for a plain endpoint would be ignored: refused.
        let e = tls_with(Traces, &[(EP, "http://c:4317"), (CA, &ca_file)]).unwrap_err();
        assert!(e.contains("not TLS"), "{e}");
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

    #[test]
    fn spans_and_events_the_filter_leaves_out_are_not_built_whatever_layer_is_off() {
        // No export (no tracer), with and without the store-error counter.
        for count in [false, true] {
            let subscriber = subscriber(|| EnvFilter::new("warn"), false, None, count);
            tracing::subscriber::with_default(subscriber, || {
                assert!(!tracing::span_enabled!(Level::TRACE), "count {count}");
                assert!(!tracing::span_enabled!(Level::INFO), "count {count}");
                assert!(!tracing::event_enabled!(Level::DEBUG), "count {count}");
                assert!(tracing::event_enabled!(Level::WARN), "count {count}");
            });
        }
    }
}
