//! One way to serve a role. Every arena role (table-referee, bot-host, deal-library,
//! matchmaker, and all of them at once in `arena standalone`) builds its gRPC server here:
//!
//! - [`server`]: a tonic [`Server`] with the per-RPC server span
//!   ([`arena_telemetry::grpc_server_span`]), TCP_NODELAY, `max_connection_age` with its grace
//!   (so L4 load balancers rebalance long-lived HTTP/2 connections) and the [`Guard`] layer:
//!   a request timeout (`DEADLINE_EXCEEDED`) and a server-wide concurrency limit that sheds the
//!   excess at once (`UNAVAILABLE`, retry with backoff) instead of queueing it. The role adds its
//!   own layers (authentication: `arena_auth::AuthLayer`; TLS: `Server::tls_config`) and
//!   services on top;
//! - [`RoleHealth`]: gRPC health for the role's services, following the store (NOT_SERVING
//!   while the store lost its data), turned NOT_SERVING at shutdown;
//! - [`reflection`]: gRPC reflection of the arena protocol and of health;
//! - [`shutdown_signal`]: completes on SIGTERM or Ctrl-C. A role given it (or any future) stops
//!   accepting connections when it completes and lets calls in flight finish (tonic's graceful
//!   shutdown); each role adds its own drain (tables in flight, seats) before that;
//! - [`http`]: the bounded HTTP listener of the console and the metrics endpoint (a connection
//!   cap, header-read and idle timeouts), and [`http::raise_open_files_limit`];
//! - [`error`]: the one vocabulary of errors a role answers with, mapped to gRPC codes in one
//!   place, with what a client may retry ([`Retry`]).
//!
//! [`ServeConfig`] holds the settings with their defaults; the roles' command lines expose them
//! as `--request-timeout-ms`, `--max-concurrent-requests`, `--max-connection-age-ms` and
//! `--max-connection-age-grace-ms` (see `docs/deploy.md`).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tonic::transport::Server;
use tower::layer::util::{Identity, Stack};

pub mod allocator;
pub mod error;
mod guard;
mod health;
pub mod http;
pub mod runtime;

pub use error::{ApiError, Backoff, Retry, bot_reconnects, retry_of, store_status};
pub use guard::{Guard, GuardLayer};
pub use health::{RoleHealth, service_name};

/// The serving settings every role shares. [`ServeConfig::default`] holds the defaults the
/// command line shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeConfig {
    /// A call whose handler has not answered within this long gets `DEADLINE_EXCEEDED`
    /// (`None`: no limit). For streaming calls it bounds the time to the response's start, not
    /// the stream. Methods in [`ServeConfig::unbounded`] are exempt.
    pub request_timeout: Option<Duration>,
    /// Most calls being handled at once by this server (0 = no limit); a call beyond it is
    /// refused at once with `UNAVAILABLE` ("overloaded"): load is shed, not queued. Health
    /// checks are never shed.
    pub max_concurrent_requests: usize,
    /// A connection older than this is asked to go away (HTTP/2 GOAWAY): clients reconnect,
    /// possibly to another instance behind an L4 balancer (`None`: connections live on).
    pub max_connection_age: Option<Duration>,
    /// How long a connection asked to go away may keep its calls in flight before it is closed.
    pub max_connection_age_grace: Duration,
    /// Full method paths (`/arena.v1.DealLibrary/Import`) exempt from the timeout and the
    /// concurrency limit: calls whose handler runs as long as the client streams.
    pub unbounded: Vec<&'static str>,
}

/// The default of [`ServeConfig::request_timeout`].
pub const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The default of [`ServeConfig::max_concurrent_requests`].
pub const DEFAULT_MAX_CONCURRENT_REQUESTS: usize = 1024;
/// The default of [`ServeConfig::max_connection_age_grace`].
pub const DEFAULT_MAX_CONNECTION_AGE_GRACE: Duration = Duration::from_secs(30);

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            request_timeout: Some(DEFAULT_REQUEST_TIMEOUT),
            max_concurrent_requests: DEFAULT_MAX_CONCURRENT_REQUESTS,
            max_connection_age: None,
            max_connection_age_grace: DEFAULT_MAX_CONNECTION_AGE_GRACE,
            unbounded: Vec::new(),
        }
    }
}

impl ServeConfig {
    /// Builds the settings from the command line's milliseconds (0 = off for the timeout and
    /// the age, no limit for the concurrency).
    pub fn from_millis(
        request_timeout_ms: u64,
        max_concurrent_requests: usize,
        max_connection_age_ms: u64,
        max_connection_age_grace_ms: u64,
    ) -> ServeConfig {
        let opt = |ms: u64| (ms > 0).then(|| Duration::from_millis(ms));
        ServeConfig {
            request_timeout: opt(request_timeout_ms),
            max_concurrent_requests,
            max_connection_age: opt(max_connection_age_ms),
            max_connection_age_grace: Duration::from_millis(max_connection_age_grace_ms),
            unbounded: Vec::new(),
        }
    }

    /// Exempts `method` (a full path) from the timeout and the concurrency limit.
    pub fn with_unbounded(mut self, method: &'static str) -> ServeConfig {
        self.unbounded.push(method);
        self
    }
}

/// A role's effective configuration as it prints it when it starts: a title, then one setting a
/// line, `name  value` with the values aligned. Each typed configuration lists its own settings
/// (`lines`), taking itself apart by name so that a setting added and not listed is an unused
/// variable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConfigLines(pub Vec<(String, String)>);

impl ConfigLines {
    /// Adds the setting `name` with `value`.
    pub fn push(&mut self, name: impl Into<String>, value: impl std::fmt::Display) -> &mut Self {
        self.0.push((name.into(), value.to_string()));
        self
    }

    /// Adds every setting of `more`.
    pub fn extend(&mut self, more: ConfigLines) -> &mut Self {
        self.0.extend(more.0);
        self
    }

    /// `title` on a line of its own, then the settings indented by two spaces.
    pub fn render(&self, title: &str) -> String {
        let width = self
            .0
            .iter()
            .map(|(n, _)| n.chars().count())
            .max()
            .unwrap_or(0);
        let mut out = format!("{title}\n");
        for (name, value) in &self.0 {
            out += &format!("  {name:<width$}  {value}\n");
        }
        out
    }
}

impl ServeConfig {
    /// The settings, a line each.
    pub fn lines(&self) -> ConfigLines {
        let ServeConfig {
            request_timeout,
            max_concurrent_requests,
            max_connection_age,
            max_connection_age_grace,
            unbounded,
        } = self;
        let ms =
            |d: Option<Duration>| d.map_or("off".to_string(), |d| format!("{} ms", d.as_millis()));
        let mut out = ConfigLines::default();
        out.push("request timeout", ms(*request_timeout))
            .push(
                "max concurrent requests",
                match max_concurrent_requests {
                    0 => "unlimited".to_string(),
                    n => n.to_string(),
                },
            )
            .push(
                "max connection age",
                format!(
                    "{} (grace {} ms)",
                    ms(*max_connection_age),
                    max_connection_age_grace.as_millis()
                ),
            );
        if !unbounded.is_empty() {
            out.push("no timeout for", unbounded.join(" "));
        }
        out
    }
}

/// The server a role builds on: the per-RPC span, TCP_NODELAY, max connection age with grace,
/// and the [`Guard`] (timeout, concurrency limit with load shedding). Add the role's own layers
/// (authentication) and services to it.
pub fn server(config: &ServeConfig) -> Server<Stack<GuardLayer, Identity>> {
    let mut server = Server::builder()
        .tcp_nodelay(true)
        .trace_fn(arena_telemetry::grpc_server_span);
    if let Some(age) = config.max_connection_age {
        server = server
            .max_connection_age(age)
            .max_connection_age_grace(config.max_connection_age_grace);
    }
    server.layer(GuardLayer::new(config))
}

/// Why a role's server could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The reflection service could not be built from the protocol's descriptors.
    #[error("cannot build the reflection service: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
}

/// gRPC reflection of the arena protocol and of health.
pub fn reflection() -> Result<
    tonic_reflection::server::v1::ServerReflectionServer<
        impl tonic_reflection::server::v1::ServerReflection,
    >,
    ServeError,
> {
    Ok(arena_proto::reflection_service()?)
}

/// Completes on Ctrl-C or SIGTERM (Kubernetes stops pods with SIGTERM). The handlers are
/// installed when this is called, not when the future is first polled: call it before the role
/// starts listening, so a SIGTERM that arrives as soon as the ports answer is a graceful stop,
/// not the default death. Call it inside a tokio runtime.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let (term, int) = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::terminate()).ok(),
            signal(SignalKind::interrupt()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |s: Option<tokio::signal::unix::Signal>| async move {
                match s {
                    Some(mut s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = wait(term) => {},
                () = wait(int) => {},
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        tracing::info!("shutdown requested");
    }
}

/// A shutdown future that can be shared: every clone completes once [`Shutdown::trigger`] is
/// called (or the sender is dropped). What standalone and tests hand to several roles.
#[derive(Clone, Debug)]
pub struct Shutdown {
    tx: Arc<tokio::sync::watch::Sender<bool>>,
}

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown::new()
    }
}

impl Shutdown {
    /// A shutdown not yet triggered.
    pub fn new() -> Shutdown {
        Shutdown {
            tx: Arc::new(tokio::sync::watch::channel(false).0),
        }
    }

    /// Completes every [`Shutdown::wait`] future, now and later.
    pub fn trigger(&self) {
        self.tx.send_replace(true);
    }

    /// True once triggered.
    pub fn is_triggered(&self) -> bool {
        *self.tx.borrow()
    }

    /// A future completing once the shutdown is triggered.
    pub fn wait(&self) -> impl Future<Output = ()> + Send + 'static {
        let mut rx = self.tx.subscribe();
        async move {
            let _ = rx.wait_for(|stop| *stop).await;
        }
    }
}
