//! The gRPC server: [`BotHost`] (bind, then run) and [`serve`] (both at once).

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena_proto::v1::bot_gateway_server::BotGatewayServer;
use arena_proto::v1::seat_host_server::SeatHostServer;
use arena_store::Store;
use tokio::sync::{Semaphore, watch};
use tokio_util::sync::CancellationToken;
use tonic::transport::ServerTlsConfig;
use tonic::transport::server::TcpIncoming;

use crate::ctx::Ctx;
use crate::gateway::Gateway;
use crate::hub::Hub;
use crate::seat::SeatService;
use crate::{BotHostConfig, BotHostError};

/// How long tonic is given to close its connections once every stream of ours has ended.
const CONNECTION_CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long clearing one presence record may take at shutdown.
const PRESENCE_CLEAR_TIMEOUT: Duration = Duration::from_secs(3);

/// A bot-host bound to its address, ready to [`run`](BotHost::run).
///
/// ```no_run
/// # async fn demo(store: std::sync::Arc<dyn arena_store::Store>) -> Result<(), arena_bot_host::BotHostError> {
/// use arena_bot_host::{BotHost, BotHostConfig};
/// let host = BotHost::bind(BotHostConfig::loopback(), store).await?;
/// let addr = host.local_addr(); // the ephemeral port
/// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
/// let server = tokio::spawn(host.run(async { let _ = stopped.await; }));
/// // … connect to `addr` …
/// let _ = stop.send(());
/// server.await.expect("the server task")?;
/// # Ok(()) }
/// ```
pub struct BotHost {
    config: BotHostConfig,
    store: Arc<dyn Store>,
    listener: tokio::net::TcpListener,
    seat_listener: tokio::net::TcpListener,
    local_addr: SocketAddr,
    seat_addr: SocketAddr,
    advertised: String,
    /// The bot port's TLS, read from the files of `config.bot_tls`.
    bot_tls: Option<ServerTlsConfig>,
}

impl std::fmt::Debug for BotHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotHost")
            .field("local_addr", &self.local_addr)
            .field("seat_addr", &self.seat_addr)
            .field("advertised", &self.advertised)
            .field("store", &self.store.describe())
            .finish_non_exhaustive()
    }
}

async fn bind(addr: SocketAddr) -> Result<(tokio::net::TcpListener, SocketAddr), BotHostError> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| BotHostError::Bind { addr, source })?;
    let local = listener
        .local_addr()
        .map_err(|source| BotHostError::Bind { addr, source })?;
    Ok((listener, local))
}

impl BotHost {
    /// Checks `config` and binds its two ports (port 0 picks a free port).
    pub async fn bind(
        config: BotHostConfig,
        store: Arc<dyn Store>,
    ) -> Result<BotHost, BotHostError> {
        config.validate()?;
        // A TLS handshake gets as long as a new stream has for its first message: a peer that
        // opens a connection and says nothing holds no slot for ever.
        let bot_tls = config
            .bot_tls
            .as_ref()
            .map(|files| {
                files
                    .server_config()
                    .map(|tls| tls.timeout(config.first_message_timeout))
            })
            .transpose()
            .map_err(|e| BotHostError::Config {
                setting: "bot_tls",
                message: format!("is unusable: {e}"),
            })?;
        let (listener, local_addr) = bind(config.listen).await?;
        let (seat_listener, seat_addr) = bind(config.seat_listen).await?;
        let advertised = config
            .advertise
            .clone()
            .unwrap_or_else(|| format!("http://{seat_addr}"));
        Ok(BotHost {
            config,
            store,
            listener,
            seat_listener,
            local_addr,
            seat_addr,
            advertised,
            bot_tls,
        })
    }

    /// True if the bot port serves TLS ([`BotHostConfig::bot_tls`]).
    pub fn bot_tls(&self) -> bool {
        self.bot_tls.is_some()
    }

    /// The address of the bot port (`BotGateway`).
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The address of the seat port (`SeatHost`, for referees with the cluster token).
    pub fn seat_addr(&self) -> SocketAddr {
        self.seat_addr
    }

    /// The address written to presence records and `SeatReady.host`: where referees reach the
    /// seat port.
    pub fn advertised(&self) -> &str {
        &self.advertised
    }

    /// The configuration in force.
    pub fn config(&self) -> &BotHostConfig {
        &self.config
    }

    /// Serves `BotGateway`, gRPC health and reflection on the bot port and `SeatHost` (cluster
    /// token required) and health on the seat port until `shutdown` completes, then shuts down
    /// gracefully: stops accepting connections and streams, tells connected bots, gives tables
    /// in flight the shutdown grace, faults the seats still open, ends every stream, kills bot
    /// processes and clears presence records.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send) -> Result<(), BotHostError> {
        let BotHost {
            config,
            store,
            listener,
            seat_listener,
            local_addr,
            seat_addr,
            advertised,
            bot_tls,
        } = self;
        if seat_addr.ip().is_unspecified() && config.advertise.is_none() {
            tracing::warn!(
                %advertised,
                "advertising an unspecified address: referees on other machines cannot reach it; set advertise"
            );
        }
        let hub = Arc::new(Hub::new(
            advertised.clone(),
            Arc::clone(&store),
            config.grace,
            config.keepalive,
        ));
        let processes = match config.processes.max_processes {
            0 => None,
            n => Some(Arc::new(Semaphore::new(n))),
        };
        let max_message = config.max_message_bytes;
        let max_from_bot = config.max_bot_message_bytes;
        let limiter = Arc::new(arena_auth::FailureLimiter::new(
            config.auth_failures.burst,
            config.auth_failures.refill,
        ));
        let auth = arena_auth::Authenticator::new(None)
            .with_cluster(config.cluster_token.as_ref())
            .with_limiter(Arc::clone(&limiter));
        let sandbox = config.sandbox();
        tracing::info!(%sandbox, limits = %config.processes.limits, "bot programs' sandbox");
        for warning in sandbox.warnings() {
            tracing::warn!(%warning, "bot programs are not fully sandboxed");
        }
        let ctx = Arc::new(Ctx {
            config,
            store,
            host: advertised,
            hub,
            closing: CancellationToken::new(),
            draining: AtomicBool::new(false),
            seats: watch::Sender::new(0),
            bot_limits: Mutex::new(HashMap::new()),
            processes,
            limiter,
            sandbox,
        });

        let (health, health_service) = arena_serve::RoleHealth::new(
            "bot-host",
            vec![
                arena_serve::service_name::<BotGatewayServer<Gateway>>(),
                arena_serve::service_name::<SeatHostServer<SeatService>>(),
            ],
            Some(Arc::clone(&ctx.store)),
        )
        .await;
        let health = Arc::new(health);
        let reflection = arena_serve::reflection()?;
        let gateway = BotGatewayServer::new(Gateway {
            ctx: Arc::clone(&ctx),
        })
        .max_decoding_message_size(max_from_bot)
        .max_encoding_message_size(max_message);
        let seats = SeatHostServer::new(SeatService {
            ctx: Arc::clone(&ctx),
        })
        .max_decoding_message_size(max_message)
        .max_encoding_message_size(max_message);

        // Shutdown has two steps: tonic stops accepting at once (`stop_accepting`), while the
        // drain task lets tables finish and then ends every stream, which lets tonic return.
        let stop_accepting = CancellationToken::new();
        let signal = {
            let stop = stop_accepting.clone();
            async move {
                shutdown.await;
                stop.cancel();
            }
        };
        let drain = {
            let ctx = Arc::clone(&ctx);
            let stop = stop_accepting.clone();
            let health = Arc::clone(&health);
            tokio::spawn(async move {
                stop.cancelled().await;
                tracing::info!("shutting down");
                health.stopping().await;
                ctx.drain().await
            })
        };
        let bot_port_tls = bot_tls.is_some();
        tracing::info!(addr = %local_addr, tls = bot_port_tls, seat_addr = %seat_addr, host = %ctx.host, store = %ctx.store.describe(), "bot-host serving");
        let incoming = TcpIncoming::from(listener).with_nodelay(Some(true));
        let mut bot_server = arena_serve::server(&ctx.config.serve);
        if let Some(tls) = bot_tls {
            bot_server = bot_server.tls_config(tls)?;
        }
        let bot_port = bot_server
            .layer(arena_auth::AuthLayer::new(auth.clone()))
            .add_service(health_service.clone())
            .add_service(reflection)
            .add_service(gateway)
            .serve_with_incoming_shutdown(incoming, signal);
        let seat_incoming = TcpIncoming::from(seat_listener).with_nodelay(Some(true));
        let seat_stop = stop_accepting.clone();
        let seat_port = arena_serve::server(&ctx.config.serve)
            .layer(arena_auth::AuthLayer::new(auth))
            .add_service(health_service)
            .add_service(seats)
            .serve_with_incoming_shutdown(
                seat_incoming,
                async move { seat_stop.cancelled().await },
            );
        let server = async move {
            let (a, b) = tokio::join!(bot_port, seat_port);
            a.and(b)
        };
        tokio::pin!(server);
        let mut drain = drain;
        let (served, drained) = tokio::select! {
            r = &mut server => (Some(r), None),
            d = &mut drain => (None, Some(d)),
        };
        // Every stream of ours has ended once the drain is done, but a client may hold a
        // stream that never ends by itself (a health watch): tonic gets a bounded time to close.
        let served = match served {
            Some(r) => r,
            None => match tokio::time::timeout(CONNECTION_CLOSE_TIMEOUT, &mut server).await {
                Ok(r) => r,
                Err(_) => {
                    tracing::warn!(
                        wait_ms = CONNECTION_CLOSE_TIMEOUT.as_millis(),
                        "connections still open after the drain (e.g. health watches); stopping anyway"
                    );
                    Ok(())
                }
            },
        };
        // Whatever ended the server, end every stream and clear presence.
        stop_accepting.cancel();
        let drained = match drained {
            Some(d) => d,
            None => drain.await,
        };
        let mut bots = drained.unwrap_or_else(|e| {
            tracing::error!(error = %e, "the drain task failed");
            Vec::new()
        });
        ctx.closing.cancel();
        bots.extend(ctx.hub.close_all(&format!("bot-host {} stopped", ctx.host)));
        bots.sort();
        bots.dedup();
        let clears = bots.iter().map(|bot| {
            let ctx = Arc::clone(&ctx);
            async move {
                match tokio::time::timeout(
                    PRESENCE_CLEAR_TIMEOUT,
                    ctx.store.clear_presence(bot, &ctx.host),
                )
                .await
                {
                    Ok(Ok(())) => {}
                    Ok(Err(e)) => tracing::warn!(bot, error = %e, "cannot clear presence"),
                    Err(_) => tracing::warn!(bot, "clearing presence timed out"),
                }
            }
        });
        for clear in clears {
            clear.await;
        }
        drop(health);
        tracing::info!("bot-host stopped");
        served.map_err(BotHostError::from)
    }
}

/// Binds `config.listen`, logs the configuration, and serves until `shutdown` completes (see
/// [`BotHost::run`]). What the `arena bot-host` command calls.
pub async fn serve(
    config: BotHostConfig,
    store: Arc<dyn Store>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), BotHostError> {
    tracing::info!(config = %config, store = %store.describe(), "bot-host starting");
    let host = BotHost::bind(config, store).await?;
    host.run(shutdown).await
}
