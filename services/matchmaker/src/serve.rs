//! The matchmaker's configuration and server: the gRPC services with the supervisor, the
//! retention pruner and the ladders beside them.

use std::sync::Arc;
use std::time::Duration;

use arena_games::GameKind;
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::MatchmakerServer;
use arena_store::Store;

use crate::service::MatchmakerService;
use crate::spec::DEFAULT_MAX_TABLES;
use crate::supervision::supervise;
use crate::{ladder, registry, retention};

/// Why the matchmaker server stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The gRPC server failed.
    #[error("gRPC server: {0}")]
    Serve(#[from] tonic::transport::Error),
    /// The server could not be set up (reflection).
    #[error(transparent)]
    Setup(#[from] arena_serve::ServeError),
}

/// Where the matchmaker listens unless told otherwise (`arena matchmaker --listen`).
pub const DEFAULT_LISTEN: std::net::SocketAddr = std::net::SocketAddr::V4(
    std::net::SocketAddrV4::new(std::net::Ipv4Addr::LOCALHOST, 50054),
);

/// How the matchmaker runs.
#[derive(Clone, Debug)]
pub struct MatchmakerConfig {
    /// The shortest time between passes over the competitions: a pass follows a result or a
    /// competition record written, but a burst of them makes one pass.
    pub supervise_every: Duration,
    /// The continuous ranked ladders to run, each of its [`ladder::LadderConfig::game`] (at
    /// most one per game: a second of the same game is refused when the server starts).
    pub ladders: Vec<ladder::LadderConfig>,
    /// Who may call what; `None`: operators with a token from the store, spectator reads closed.
    pub auth: Option<arena_auth::Authenticator>,
    /// Most tables one competition may have.
    pub max_tables_per_competition: u64,
    /// The gRPC server's timeout, concurrency limit and connection age.
    pub serve: arena_serve::ServeConfig,
    /// How long results and replays are kept.
    pub retention: retention::Retention,
}

impl Default for MatchmakerConfig {
    fn default() -> Self {
        MatchmakerConfig {
            supervise_every: Duration::from_millis(500),
            ladders: Vec::new(),
            auth: None,
            max_tables_per_competition: DEFAULT_MAX_TABLES,
            serve: arena_serve::ServeConfig::default(),
            retention: retention::Retention::default(),
        }
    }
}

impl MatchmakerConfig {
    /// The settings, a line each, as `arena matchmaker` prints them at start.
    pub fn lines(&self) -> arena_serve::ConfigLines {
        let MatchmakerConfig {
            supervise_every,
            ladders,
            auth,
            max_tables_per_competition,
            serve,
            retention,
        } = self;
        let days = |d: Option<Duration>, after: &str| {
            d.map_or("kept for ever".to_string(), |d| {
                format!("kept {} days{after}", d.as_secs_f64() / 86_400.0)
            })
        };
        let mut out = arena_serve::ConfigLines::default();
        out.push(
            "spectator reads",
            match auth {
                Some(a) if a.spectators_public() => "public",
                _ => "for operators",
            },
        );
        // A line per game with a ladder, whether it runs or not.
        for game in GameKind::all().filter(|g| g.ladder().is_some()) {
            let running = ladders.iter().find(|l| l.game == game);
            out.push(
                format!("{} ladder", game.name()),
                running.map_or("off".to_string(), ladder::LadderConfig::summary),
            );
        }
        out.push(
            "tables per competition",
            format!("at most {max_tables_per_competition}"),
        )
        .push(
            "supervisor",
            format!("a pass on change, at most every {supervise_every:?}"),
        )
        .push(
            "competition results",
            days(retention.competitions, " after it ends"),
        )
        .push("ladder tables", days(retention.ladder, ""))
        .extend(serve.lines());
        out
    }
}

/// Serves the matchmaker (with health and reflection) on `listener` and supervises every
/// competition in the store until `shutdown`; the ladder stays off.
pub async fn serve_with_listener(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    serve_with_config(listener, store, MatchmakerConfig::default(), shutdown).await
}

/// Serves the matchmaker (with health and reflection) on `listener`, supervises every competition
/// in the store and runs the ladder if `config` asks for it, until `shutdown`.
pub async fn serve_with_config(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    config: MatchmakerConfig,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let (health, health_service) = arena_serve::RoleHealth::new(
        "matchmaker",
        vec![
            arena_serve::service_name::<MatchmakerServer<MatchmakerService>>(),
            arena_serve::service_name::<
                v1::bot_registry_server::BotRegistryServer<registry::BotRegistryService>,
            >(),
        ],
        Some(store.clone()),
    )
    .await;
    let reflection = arena_serve::reflection()?;
    tracing::info!(addr = ?listener.local_addr().ok(), store = %store.describe(), ?config, "matchmaker starting");
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|s| *s).await;
    };
    let supervisor = tokio::spawn(supervise(
        store.clone(),
        config.supervise_every,
        stopped(stop_rx.clone()),
    ));
    let pruner = tokio::spawn(retention::run(
        store.clone(),
        config.retention,
        stopped(stop_rx.clone()),
    ));
    let mut seen = Vec::new();
    let ladders: Vec<_> = config
        .ladders
        .iter()
        .filter(|cfg| {
            // Two ladders of one game would rate its bots twice over one record.
            let first = !seen.contains(&cfg.game) && cfg.game.ladder().is_some();
            if first {
                seen.push(cfg.game);
            } else {
                tracing::warn!(game = %cfg.game, "a second ladder of one game (or of a game without a ladder) is not run");
            }
            first
        })
        .cloned()
        .map(|cfg| {
        tracing::info!(?cfg, "ladder running");
        tokio::spawn(ladder::run(store.clone(), cfg, stopped(stop_rx.clone())))
    })
    .collect();
    let auth = config
        .auth
        .clone()
        .unwrap_or_else(|| arena_auth::Authenticator::new(Some(store.clone())));
    // Creating a competition claims its deals and enqueues every table before it answers: up
    // to `max_tables_per_competition` writes, never cut short by the request timeout.
    let serve = config
        .serve
        .clone()
        .with_unbounded("/arena.v1.Matchmaker/CreateCompetition");
    let (closing_tx, closing) = tokio::sync::watch::channel(false);
    let served = arena_serve::server(&serve)
        .layer(arena_auth::AuthLayer::new(auth))
        .add_service(health_service)
        .add_service(reflection)
        .add_service(registry::BotRegistryService::new(store.clone()).into_server())
        .add_service(
            MatchmakerService::new(store)
                .with_max_tables(config.max_tables_per_competition)
                .closing_on(closing)
                .into_server(),
        )
        .serve_with_incoming_shutdown(
            tokio_stream::wrappers::TcpListenerStream::new(listener),
            async {
                shutdown.await;
                let _ = closing_tx.send(true);
                health.stopping().await;
            },
        )
        .await;
    let _ = stop_tx.send(true);
    drop(health);
    let _ = supervisor.await;
    let _ = pruner.await;
    for l in ladders {
        let _ = l.await;
    }
    served?;
    Ok(())
}
