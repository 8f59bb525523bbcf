//! The web console: competitions and their live standings, replays of finished tables, the
//! ladder's leaderboard per game, bots and their releases, and the deal library, in a browser.
//! Served on its own HTTP port by the matchmaker role and by `arena standalone`
//! (`--console-listen`); `docs/console.md` is the operator's view.
//!
//! It holds no results logic of its own: competitions, standings, replays and the leaderboard
//! are read by calling the very `arena.v1.Matchmaker` implementation the gRPC server serves
//! ([`Backend`], in-process, no network hop), and the deal library and bot registry through the
//! store the roles share. Who may read what is the gRPC policy too: each console route names the
//! gRPC method whose access class it has ([`arena_auth::access`]), and the role's own
//! [`arena_auth::Authenticator`] decides, with the same failed-attempt limiter.
//!
//! - [`backend`]: the object-safe view of a `Matchmaker` the console calls;
//! - [`access`]: credentials from a bearer header or the login cookie, and the route-to-method
//!   table;
//! - [`api`]: the JSON routes;
//! - [`live`]: one `WatchCompetition` stream per competition, fanned out to every viewer as
//!   server-sent events;
//! - [`prepare`]: creating a competition whose deals the deal library must find first;
//! - [`replay`]: a finished table played again decision by decision, for the replay player;
//! - [`public`]: bounds on what anyone may make the console do (requests per address, replays
//!   played again on a thread of their own and kept);
//! - [`view`]: protocol messages as the JSON the pages read;
//! - [`assets`]: the pages (plain HTML, CSS and JavaScript compiled into the binary).
//!
//! It is served by [`arena_serve::http::serve`] (a connection cap, header-read and idle
//! timeouts), answers only to `Host` names that name it ([`access::host_allowed`]), and marks
//! every answer `X-Content-Type-Options: nosniff`.

pub mod access;
pub mod api;
pub mod assets;
pub mod backend;
pub mod live;
pub mod prepare;
pub mod public;
pub mod replay;
pub mod view;

use std::net::SocketAddr;
use std::sync::Arc;

use arena_store::Store;
use axum::response::IntoResponse;

pub use backend::Backend;

/// Where the console listens unless told otherwise: loopback, so a console opened to others is
/// a decision (`--console-listen 0.0.0.0:8054`).
pub const DEFAULT_LISTEN: SocketAddr = SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::LOCALHOST,
    8054,
));

/// What the operator may set about the console's exposure; [`ConsoleOptions::default`] holds
/// the defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleOptions {
    /// `Host` names the console answers to besides loopback and the address it listens on
    /// (`--console-allowed-hosts`: the names a proxy or ingress reaches it by).
    pub allowed_hosts: Vec<String>,
    /// Requests granted without a token: at most this many a minute from one address (0: no
    /// limit; `--console-public-rate`).
    pub public_per_minute: u32,
    /// The bounds of its HTTP listener (`--console-max-connections`).
    pub http: arena_serve::http::HttpLimits,
}

impl Default for ConsoleOptions {
    fn default() -> Self {
        ConsoleOptions {
            allowed_hosts: Vec::new(),
            public_per_minute: public::DEFAULT_PUBLIC_PER_MINUTE,
            http: arena_serve::http::HttpLimits::default(),
        }
    }
}

/// Why the console stopped.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    /// The HTTP server failed.
    #[error("console HTTP server: {0}")]
    Serve(#[from] std::io::Error),
}

/// What the console serves from: the matchmaker it calls, the store it reads the deal library
/// and bots from, and who may see what.
#[derive(Clone)]
pub struct Console {
    pub(crate) backend: Arc<dyn Backend>,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) auth: arena_auth::Authenticator,
    pub(crate) live: live::Hub,
    /// The deal library the create form asks for missing deals, when the role knows one.
    pub(crate) library: Option<prepare::Library>,
    pub(crate) preparations: prepare::Preparations,
    /// Turns true when the console shuts down: live streams end, so the graceful shutdown does
    /// not wait for viewers to close their pages.
    pub(crate) stopping: tokio::sync::watch::Receiver<bool>,
    stop: Arc<tokio::sync::watch::Sender<bool>>,
    /// The login cookie's key and name, read from the store on first use.
    pub(crate) cookie_key: Arc<tokio::sync::OnceCell<Arc<access::CookieKey>>>,
    /// Requests granted without a token, limited per address.
    pub(crate) public_requests: public::PublicLimiter,
    /// Replays played again, and kept.
    pub(crate) renderer: public::Renderer,
    /// `Host` names the console answers to besides loopback and its listen address.
    allowed_hosts: Arc<Vec<String>>,
    /// The address it listens on, once serving.
    listen: Option<SocketAddr>,
    /// Its HTTP listener's bounds.
    http: arena_serve::http::HttpLimits,
}

impl Console {
    /// A console calling `backend`, reading `store`, deciding access with `auth` (the
    /// matchmaker role's own authenticator, so `--public-spectator` and operator tokens mean the
    /// same here as over gRPC).
    pub fn new(
        backend: Arc<dyn Backend>,
        store: Arc<dyn Store>,
        auth: arena_auth::Authenticator,
    ) -> Console {
        let (stop, stopping) = tokio::sync::watch::channel(false);
        Console {
            live: live::Hub::new(backend.clone()),
            library: None,
            preparations: prepare::Preparations::default(),
            backend,
            store,
            auth,
            stopping,
            stop: Arc::new(stop),
            cookie_key: Arc::new(tokio::sync::OnceCell::new()),
            public_requests: public::PublicLimiter::new(public::DEFAULT_PUBLIC_PER_MINUTE),
            renderer: public::Renderer::new(),
            allowed_hosts: Arc::new(Vec::new()),
            listen: None,
            http: arena_serve::http::HttpLimits::default(),
        }
    }

    /// The console with `options` (the operator's `--console-…` flags).
    pub fn with_options(mut self, options: ConsoleOptions) -> Console {
        self.allowed_hosts = Arc::new(options.allowed_hosts);
        self.public_requests = public::PublicLimiter::new(options.public_per_minute);
        self.http = options.http;
        self
    }

    /// The console asks the deal library at `url` for the deals a competition created from the
    /// form lacks, as `arena competition create` does (without one, such a competition is
    /// refused with the command that finds them). The error says why `url` is no address.
    pub fn with_deal_library(mut self, url: &str) -> Result<Console, String> {
        self.library = Some(prepare::Library::new(url)?);
        Ok(self)
    }

    /// The console's routes, pages and JSON alike, answering only to `Host` names that name
    /// it, every answer marked `nosniff` (a JSON answer is never read as a page or script).
    pub fn router(self) -> axum::Router {
        let hosts = (self.listen, self.allowed_hosts.clone());
        api::router(Arc::new(self))
            .merge(assets::router())
            .layer(axum::middleware::from_fn_with_state(hosts, host_check))
            .layer(axum::middleware::map_response(nosniff))
    }

    /// Serves the console on `listener` until `shutdown`.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ConsoleError> {
        let mut this = self;
        this.listen = listener.local_addr().ok();
        tracing::info!(addr = ?this.listen, "console listening");
        let stop = this.stop.clone();
        let limits = this.http;
        arena_serve::http::serve("console", listener, this.router(), limits, async move {
            shutdown.await;
            let _ = stop.send(true);
        })
        .await?;
        Ok(())
    }
}

/// Refuses a request whose `Host` does not name the console (421, saying which names do).
async fn host_check(
    axum::extract::State((listen, allowed)): axum::extract::State<(
        Option<SocketAddr>,
        Arc<Vec<String>>,
    )>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if access::host_allowed(req.headers(), listen, &allowed) {
        return next.run(req).await;
    }
    let host = req
        .headers()
        .get(http::header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned())
        .unwrap_or_default();
    api::Failure::new(
        http::StatusCode::MISDIRECTED_REQUEST,
        format!(
            "this console does not answer to the host name {}: only to localhost, loopback \
             addresses, the address it listens on and the names given with \
             --console-allowed-hosts (ARENA_CONSOLE_ALLOWED_HOSTS)",
            arena_proto::text::quote(&host)
        ),
    )
    .into_response()
}

/// Marks an answer `X-Content-Type-Options: nosniff`.
async fn nosniff(mut r: axum::response::Response) -> axum::response::Response {
    r.headers_mut().insert(
        http::header::X_CONTENT_TYPE_OPTIONS,
        http::HeaderValue::from_static("nosniff"),
    );
    r
}
