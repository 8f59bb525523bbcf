//! An in-process OTLP collector for tests: it serves the OTLP/gRPC `TraceService` and
//! `MetricsService`, and keeps every span and metric data point it receives, so a test can point
//! arena's exporters at it (`OTEL_EXPORTER_OTLP_ENDPOINT`) and check what arrived.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::metrics::v1::metrics_service_server::{
    MetricsService, MetricsServiceServer,
};
use opentelemetry_proto::tonic::collector::metrics::v1::{
    ExportMetricsServiceRequest, ExportMetricsServiceResponse,
};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::metrics::v1::{metric, number_data_point};
use tonic::{Request, Response, Status};

/// A span as received.
#[derive(Clone, Debug)]
pub struct Span {
    /// Its name.
    pub name: String,
    /// Its trace id.
    pub trace: Vec<u8>,
    /// Its span id.
    pub id: Vec<u8>,
    /// Its parent's span id (empty for a root).
    pub parent: Vec<u8>,
    /// Its attributes, values as text.
    pub attrs: BTreeMap<String, String>,
}

/// What kind of metric a data point belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A counter or up-down counter.
    Sum,
    /// A gauge.
    Gauge,
    /// A histogram.
    Histogram,
    /// Anything else (exponential histograms, summaries).
    Other,
}

/// One data point of one metric, as received (exports are cumulative, so later points of a
/// series supersede earlier ones).
#[derive(Clone, Debug)]
pub struct Point {
    /// The metric's name.
    pub metric: String,
    /// The metric's unit.
    pub unit: String,
    /// The metric's kind.
    pub kind: Kind,
    /// The point's attributes, values as text.
    pub attrs: BTreeMap<String, String>,
    /// A sum's or gauge's value; a histogram's sum.
    pub value: f64,
    /// A histogram's count (0 for other kinds).
    pub count: u64,
}

/// The collector: cheap to clone, clones share what was received.
#[derive(Clone, Default)]
pub struct Collector {
    spans: Arc<Mutex<Vec<Span>>>,
    points: Arc<Mutex<Vec<Point>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A test that panicked while holding the lock has failed already; the data is still readable.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn text(v: Option<&AnyValue>) -> String {
    match v.and_then(|v| v.value.as_ref()) {
        Some(any_value::Value::StringValue(s)) => s.clone(),
        Some(any_value::Value::BoolValue(b)) => b.to_string(),
        Some(any_value::Value::IntValue(i)) => i.to_string(),
        Some(any_value::Value::DoubleValue(d)) => d.to_string(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

fn attrs(kvs: &[KeyValue]) -> BTreeMap<String, String> {
    kvs.iter()
        .map(|kv| (kv.key.clone(), text(kv.value.as_ref())))
        .collect()
}

impl Collector {
    /// Starts a collector on an ephemeral loopback port; returns it and its address.
    pub async fn start() -> (Collector, SocketAddr) {
        Collector::start_with(None).await
    }

    /// [`Collector::start`] serving OTLP over TLS with `tls` (its certificate must name
    /// 127.0.0.1).
    pub async fn start_tls(tls: tonic::transport::ServerTlsConfig) -> (Collector, SocketAddr) {
        Collector::start_with(Some(tls)).await
    }

    async fn start_with(tls: Option<tonic::transport::ServerTlsConfig>) -> (Collector, SocketAddr) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the collector");
        let addr = listener.local_addr().expect("the collector's address");
        let collector = Collector::default();
        let mut server = tonic::transport::Server::builder();
        if let Some(tls) = tls {
            server = server.tls_config(tls).expect("the collector's TLS");
        }
        tokio::spawn(
            server
                .add_service(TraceServiceServer::new(collector.clone()))
                .add_service(MetricsServiceServer::new(collector.clone()))
                .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
        );
        (collector, addr)
    }

    /// Every span received so far.
    pub fn spans(&self) -> Vec<Span> {
        lock(&self.spans).clone()
    }

    /// Every metric data point received so far, in order of arrival.
    pub fn points(&self) -> Vec<Point> {
        lock(&self.points).clone()
    }

    /// The names of the metrics received so far.
    pub fn metric_names(&self) -> BTreeSet<String> {
        lock(&self.points)
            .iter()
            .map(|p| p.metric.clone())
            .collect()
    }

    /// The latest point of `metric` whose attributes include every pair of `with`.
    pub fn latest(&self, metric: &str, with: &[(&str, &str)]) -> Option<Point> {
        lock(&self.points)
            .iter()
            .rev()
            .find(|p| {
                p.metric == metric
                    && with
                        .iter()
                        .all(|(k, v)| p.attrs.get(*k).is_some_and(|x| x == v))
            })
            .cloned()
    }

    /// Calls `flush` and checks `done` until it holds or `within` has passed; returns whether it
    /// held. For waiting on exporters, which deliver in the background.
    pub async fn wait_for(
        &self,
        within: Duration,
        flush: impl Fn(),
        mut done: impl FnMut(&Collector) -> bool,
    ) -> bool {
        let start = Instant::now();
        loop {
            flush();
            if done(self) {
                return true;
            }
            if start.elapsed() > within {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// The spans of one trace, indexed for walking up from any of them.
pub struct Trace {
    /// Its spans.
    pub spans: Vec<Span>,
    by_id: HashMap<Vec<u8>, usize>,
}

impl Trace {
    /// The spans of `all` in trace `trace`.
    pub fn of(all: &[Span], trace: &[u8]) -> Trace {
        let spans: Vec<Span> = all.iter().filter(|s| s.trace == trace).cloned().collect();
        let by_id = spans
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id.clone(), i))
            .collect();
        Trace { spans, by_id }
    }

    /// The span with id `id`, if it is in this trace.
    pub fn get(&self, id: &[u8]) -> Option<&Span> {
        self.by_id.get(id).map(|&i| &self.spans[i])
    }

    /// True if `ancestor` is `span` or one of its ancestors within this trace.
    pub fn descends_from(&self, span: &Span, ancestor: &Span) -> bool {
        let mut at = Some(span);
        // A parent chain longer than the trace would be a cycle: stop there.
        for _ in 0..=self.spans.len() {
            match at {
                Some(s) if s.id == ancestor.id => return true,
                Some(s) => at = self.get(&s.parent),
                None => return false,
            }
        }
        false
    }

    /// How many spans of this trace are called `name`.
    pub fn count(&self, name: &str) -> usize {
        self.spans.iter().filter(|s| s.name == name).count()
    }
}

#[tonic::async_trait]
impl TraceService for Collector {
    async fn export(
        &self,
        req: Request<ExportTraceServiceRequest>,
    ) -> Result<Response<ExportTraceServiceResponse>, Status> {
        let mut spans = lock(&self.spans);
        for rs in req.into_inner().resource_spans {
            for ss in rs.scope_spans {
                for s in ss.spans {
                    spans.push(Span {
                        attrs: attrs(&s.attributes),
                        name: s.name,
                        trace: s.trace_id,
                        id: s.span_id,
                        parent: s.parent_span_id,
                    });
                }
            }
        }
        Ok(Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

#[tonic::async_trait]
impl MetricsService for Collector {
    async fn export(
        &self,
        req: Request<ExportMetricsServiceRequest>,
    ) -> Result<Response<ExportMetricsServiceResponse>, Status> {
        let mut points = lock(&self.points);
        for rm in req.into_inner().resource_metrics {
            for sm in rm.scope_metrics {
                for m in sm.metrics {
                    let point = |kind, attrs, value, count| Point {
                        metric: m.name.clone(),
                        unit: m.unit.clone(),
                        kind,
                        attrs,
                        value,
                        count,
                    };
                    let number = |v: Option<number_data_point::Value>| match v {
                        Some(number_data_point::Value::AsDouble(d)) => d,
                        Some(number_data_point::Value::AsInt(i)) => i as f64,
                        None => f64::NAN,
                    };
                    match &m.data {
                        Some(metric::Data::Sum(s)) => {
                            for p in &s.data_points {
                                points.push(point(
                                    Kind::Sum,
                                    attrs(&p.attributes),
                                    number(p.value),
                                    0,
                                ));
                            }
                        }
                        Some(metric::Data::Gauge(g)) => {
                            for p in &g.data_points {
                                points.push(point(
                                    Kind::Gauge,
                                    attrs(&p.attributes),
                                    number(p.value),
                                    0,
                                ));
                            }
                        }
                        Some(metric::Data::Histogram(h)) => {
                            for p in &h.data_points {
                                points.push(point(
                                    Kind::Histogram,
                                    attrs(&p.attributes),
                                    p.sum.unwrap_or(f64::NAN),
                                    p.count,
                                ));
                            }
                        }
                        _ => points.push(point(Kind::Other, BTreeMap::new(), f64::NAN, 0)),
                    }
                }
            }
        }
        Ok(Response::new(ExportMetricsServiceResponse {
            partial_success: None,
        }))
    }
}

/// Points arena's exporters at the collector at `addr`: spans exported every 100 ms from a queue
/// large enough for a whole competition, metrics every `metric_interval_ms` (or not at all).
///
/// # Safety
///
/// Sets environment variables: call it before any other thread may read the environment (at the
/// start of the only test of a binary).
pub unsafe fn export_to(addr: SocketAddr, metric_interval_ms: Option<u64>) {
    // SAFETY: the caller guarantees no other thread reads the environment meanwhile.
    unsafe {
        std::env::set_var("OTEL_EXPORTER_OTLP_ENDPOINT", format!("http://{addr}"));
        std::env::set_var("OTEL_BSP_SCHEDULE_DELAY", "100");
        // The default queue (2048 spans) drops spans when a competition makes them faster than
        // the exporter's schedule sends them.
        std::env::set_var("OTEL_BSP_MAX_QUEUE_SIZE", "32768");
        match metric_interval_ms {
            Some(ms) => std::env::set_var("OTEL_METRIC_EXPORT_INTERVAL", ms.to_string()),
            None => std::env::set_var("OTEL_METRICS_EXPORTER", "none"),
        }
    }
}
