//! W3C trace context (`traceparent`, `tracestate`) in gRPC metadata.

use opentelemetry::propagation::{Extractor, Injector};
use tonic::metadata::{MetadataKey, MetadataMap, MetadataValue};
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// Writes propagation fields into gRPC metadata.
pub struct MetadataInjector<'a>(pub &'a mut MetadataMap);

impl Injector for MetadataInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(k), Ok(v)) = (
            MetadataKey::from_bytes(key.as_bytes()),
            MetadataValue::try_from(value.as_str()),
        ) {
            self.0.insert(k, v);
        }
    }
}

/// Reads propagation fields from gRPC metadata.
pub struct MetadataExtractor<'a>(pub &'a MetadataMap);

impl Extractor for MetadataExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0
            .keys()
            .filter_map(|k| match k {
                tonic::metadata::KeyRef::Ascii(k) => Some(k.as_str()),
                tonic::metadata::KeyRef::Binary(_) => None,
            })
            .collect()
    }
}

/// Puts the current span's trace context into `md` (nothing when export is off).
pub fn inject_current(md: &mut MetadataMap) {
    let cx = tracing::Span::current().context();
    opentelemetry::global::get_text_map_propagator(|p| {
        p.inject_context(&cx, &mut MetadataInjector(md))
    });
}

/// The remote trace context carried by incoming metadata.
pub fn extract_context(md: &MetadataMap) -> opentelemetry::Context {
    opentelemetry::global::get_text_map_propagator(|p| p.extract(&MetadataExtractor(md)))
}

/// Makes `span` a child of the trace context in `md` (a server receiving a call).
pub fn set_parent(span: &tracing::Span, md: &MetadataMap) {
    let _ = span.set_parent(extract_context(md));
}

/// The current span's `traceparent` header value, if a trace is being exported.
pub fn current_traceparent() -> Option<String> {
    let cx = tracing::Span::current().context();
    let mut fields = std::collections::HashMap::new();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&cx, &mut fields));
    fields.remove("traceparent")
}

/// Makes `span` a child of the trace named by a `traceparent` value (e.g. carried in a job).
pub fn set_parent_from_traceparent(span: &tracing::Span, traceparent: &str) {
    let mut fields = std::collections::HashMap::new();
    fields.insert("traceparent".to_string(), traceparent.to_string());
    let cx = opentelemetry::global::get_text_map_propagator(|p| p.extract(&fields));
    let _ = span.set_parent(cx);
}

/// A request carrying `msg` and the current trace context.
pub fn traced_request<T>(msg: T) -> tonic::Request<T> {
    let mut r = tonic::Request::new(msg);
    inject_current(r.metadata_mut());
    r
}

/// A server span for one incoming gRPC call, for `tonic`'s `Server::trace_fn`: named as
/// OpenTelemetry names RPC spans (`arena.v1.Matchmaker/GetLeaderboard`), with the `rpc.*`
/// attributes, and a child of the caller's trace context when the call carries one. Health
/// checks and reflection get no span: probes would otherwise fill the traces.
pub fn grpc_server_span(req: &tonic::codegen::http::Request<()>) -> tracing::Span {
    let path = req.uri().path().trim_start_matches('/');
    let (service, method) = path.split_once('/').unwrap_or((path, ""));
    if service.starts_with("grpc.health.") || service.starts_with("grpc.reflection.") {
        return tracing::Span::none();
    }
    let span = tracing::info_span!(
        "grpc",
        otel.name = %path,
        otel.kind = "server",
        rpc.system = "grpc",
        rpc.service = %service,
        rpc.method = %method,
    );
    if req.headers().contains_key("traceparent") {
        set_parent(&span, &MetadataMap::from_headers(req.headers().clone()));
    }
    span
}

#[cfg(test)]
mod tests {
    use super::*;
    use opentelemetry::propagation::TextMapPropagator;
    use opentelemetry::trace::{
        SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState,
    };
    use opentelemetry_sdk::propagation::TraceContextPropagator;

    #[test]
    fn traceparent_survives_a_trip_through_metadata() {
        let sc = SpanContext::new(
            TraceId::from_hex("4bf92f3577b34da6a3ce929d0e0e4736").unwrap(),
            SpanId::from_hex("00f067aa0ba902b7").unwrap(),
            TraceFlags::SAMPLED,
            true,
            TraceState::default(),
        );
        let cx = opentelemetry::Context::new().with_remote_span_context(sc.clone());
        let prop = TraceContextPropagator::new();
        let mut md = MetadataMap::new();
        prop.inject_context(&cx, &mut MetadataInjector(&mut md));
        assert_eq!(
            md.get("traceparent").unwrap().to_str().unwrap(),
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        );
        let back = prop.extract(&MetadataExtractor(&md));
        assert_eq!(back.span().span_context().trace_id(), sc.trace_id());
        assert_eq!(back.span().span_context().span_id(), sc.span_id());
    }
}
