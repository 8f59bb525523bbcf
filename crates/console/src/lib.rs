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
//! - [`view`]: protocol messages as the JSON the pages read;
//! - [`assets`]: the pages (plain HTML, CSS and JavaScript compiled into the binary).

pub mod access;
pub mod api;
pub mod assets;
pub mod backend;
pub mod live;
pub mod prepare;
pub mod replay;
pub mod view;

use std::net::SocketAddr;
use std::sync::Arc;

use arena_store::Store;

pub use backend::Backend;

/// Where the console listens unless told otherwise: loopback, so a console opened to others is
/// a decision (`--console-listen 0.0.0.0:8054`).
pub const DEFAULT_LISTEN: SocketAddr = SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::LOCALHOST,
    8054,
));

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
        }
    }

    /// The console asks the deal library at `url` for the deals a competition created from the
    /// form lacks, as `arena competition create` does (without one, such a competition is
    /// refused with the command that finds them). The error says why `url` is no address.
    pub fn with_deal_library(mut self, url: &str) -> Result<Console, String> {
        self.library = Some(prepare::Library::new(url)?);
        Ok(self)
    }

    /// The console's routes, pages and JSON alike.
    pub fn router(self) -> axum::Router {
        api::router(Arc::new(self)).merge(assets::router())
    }

    /// Serves the console on `listener` until `shutdown`.
    pub async fn serve(
        self,
        listener: tokio::net::TcpListener,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ConsoleError> {
        tracing::info!(addr = ?listener.local_addr().ok(), "console listening");
        let stop = self.stop.clone();
        let app = self
            .router()
            .into_make_service_with_connect_info::<SocketAddr>();
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                shutdown.await;
                let _ = stop.send(true);
            })
            .await?;
        Ok(())
    }
}
