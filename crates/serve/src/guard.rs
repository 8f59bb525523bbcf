//! [`GuardLayer`]: the request timeout and the server-wide concurrency limit with load shedding.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::sync::Semaphore;
use tonic::body::Body;

use crate::ServeConfig;
use crate::error::ApiError;

/// Health checks are never shed nor timed out (a watch lasts as long as the client wants).
const HEALTH_PREFIX: &str = "/grpc.health.";

/// The tower layer [`crate::server`] puts in front of every service: a call beyond
/// `max_concurrent_requests` is refused at once with `UNAVAILABLE`; a call whose handler has not
/// answered within `request_timeout` gets `DEADLINE_EXCEEDED`.
#[derive(Clone, Debug)]
pub struct GuardLayer {
    limit: Option<Arc<Semaphore>>,
    max: usize,
    timeout: Option<Duration>,
    unbounded: Arc<[&'static str]>,
}

impl GuardLayer {
    /// The layer for `config` (one concurrency budget per layer, shared by its connections).
    pub fn new(config: &ServeConfig) -> GuardLayer {
        GuardLayer {
            limit: (config.max_concurrent_requests > 0)
                .then(|| Arc::new(Semaphore::new(config.max_concurrent_requests))),
            max: config.max_concurrent_requests,
            timeout: config.request_timeout,
            unbounded: config.unbounded.clone().into(),
        }
    }
}

impl<S> tower::Layer<S> for GuardLayer {
    type Service = Guard<S>;

    fn layer(&self, inner: S) -> Guard<S> {
        Guard {
            layer: self.clone(),
            inner,
        }
    }
}

/// The service [`GuardLayer`] wraps around a server's routes.
#[derive(Clone, Debug)]
pub struct Guard<S> {
    layer: GuardLayer,
    inner: S,
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

impl<S> tower::Service<http::Request<Body>> for Guard<S>
where
    S: tower::Service<http::Request<Body>, Response = http::Response<Body>>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = S::Error;
    type Future = BoxFuture<Result<http::Response<Body>, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<Body>) -> Self::Future {
        let path = req.uri().path();
        let exempt = path.starts_with(HEALTH_PREFIX) || self.layer.unbounded.contains(&path);
        // The clone is the one polled ready; keep it for this call (tower's usual dance).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        if exempt {
            return Box::pin(inner.call(req));
        }
        let permit = match &self.layer.limit {
            Some(limit) => match Arc::clone(limit).try_acquire_owned() {
                Ok(p) => Some(p),
                Err(_) => {
                    tracing::warn!(method = %path, limit = self.layer.max, "overloaded: call shed");
                    let status = ApiError::Overloaded(format!(
                        "the server is handling its limit of {} calls; try again later",
                        self.layer.max
                    ))
                    .into_status();
                    return Box::pin(std::future::ready(Ok(status.into_http())));
                }
            },
            None => None,
        };
        let timeout = self.layer.timeout;
        let method = path.to_string();
        let call = inner.call(req);
        Box::pin(async move {
            let _permit = permit;
            match timeout {
                None => call.await,
                Some(t) => match tokio::time::timeout(t, call).await {
                    Ok(r) => r,
                    Err(_) => {
                        tracing::warn!(%method, timeout_ms = t.as_millis(), "call timed out");
                        Ok(ApiError::DeadlineExceeded(format!(
                            "{method} took longer than the server's limit of {} ms",
                            t.as_millis()
                        ))
                        .into_status()
                        .into_http())
                    }
                },
            }
        })
    }
}
