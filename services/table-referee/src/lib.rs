//! The table referee: runs many tables concurrently in one process. It takes jobs from the
//! store's job queue (a Redis Stream with a consumer group in Redis), plays each table with
//! [`arena_table`] — built-in bots in-process, other seats through bot-host —, writes the result
//! and replay exactly once per table id, and only then acknowledges the job. It serves
//! `TableReferee` (submit a job, read results and replays), gRPC health and reflection.
//!
//! - [`serve`] / [`serve_with_listener`]: the whole role, until a shutdown signal;
//! - [`work`]: the job loop alone (no gRPC);
//! - [`run_table`]: one table, without any queue (for `arena table run`);
//! - [`RefereeService`]: the gRPC service, to mount in another server;
//! - [`RefereeConfig`]: every setting, checked by [`RefereeConfig::validate`].
//!
//! How jobs flow (concurrency, touch and reclaim, retries, malformed jobs, shutdown) is
//! documented in [`worker`].

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use arena_proto::v1;
use arena_proto::v1::table_referee_server::TableRefereeServer;
use arena_store::Store;
use arena_table::{BotHosts, JobError, RunOptions};
use tokio::net::TcpListener;
use tokio_stream::wrappers::TcpListenerStream;
use tokio_util::sync::CancellationToken;

mod background;
mod config;
mod ctx;
mod dialer;
mod gdi;
mod retry;
mod service;
pub mod worker;
mod writer;

pub use background::{CpuList, MAX_CPUS};
pub use config::{ConfigError, DEFAULT_LISTEN, RefereeConfig};
pub use dialer::PresenceDialer;
pub use service::RefereeService;
pub use worker::work;

/// Why the referee could not start or stopped on its own.
#[derive(Debug, thiserror::Error)]
pub enum RefereeError {
    /// A setting cannot work.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The gRPC server failed.
    #[error("gRPC server: {0}")]
    Serve(#[from] tonic::transport::Error),
    /// The server could not be set up (reflection).
    #[error(transparent)]
    Setup(#[from] arena_serve::ServeError),
}

/// Binds `config.listen` and runs the referee until `shutdown` completes (see
/// [`serve_with_listener`]).
pub async fn serve(
    config: RefereeConfig,
    store: Arc<dyn Store>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), RefereeError> {
    config.validate()?;
    let listener = TcpListener::bind(config.listen)
        .await
        .map_err(|source| RefereeError::Bind {
            addr: config.listen,
            source,
        })?;
    serve_with_listener(listener, config, store, shutdown).await
}

/// Runs the referee on `listener` (its address wins over `config.listen`): the job loop and the
/// `TableReferee`, health and reflection services. When `shutdown` completes, health turns
/// NOT_SERVING, no more jobs are taken, the tables in flight get `shutdown_grace` to finish
/// (the rest are handed back unacknowledged) and the server stops.
pub async fn serve_with_listener(
    listener: TcpListener,
    config: RefereeConfig,
    store: Arc<dyn Store>,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), RefereeError> {
    let auth = arena_auth::Authenticator::new(Some(store.clone()))
        .with_bootstrap(config.operator_token.as_ref());
    serve_with_auth(listener, config, store, auth, shutdown).await
}

/// [`serve_with_listener`], deciding who may call with `auth` (standalone hands every role
/// authenticators sharing one failed-attempt limiter).
pub async fn serve_with_auth(
    listener: TcpListener,
    config: RefereeConfig,
    store: Arc<dyn Store>,
    auth: arena_auth::Authenticator,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), RefereeError> {
    let ctx = Arc::new(ctx::Ctx::new(config.clone(), store.clone())?);
    let addr = listener.local_addr().ok();
    tracing::info!(?addr, referee = %config.referee_id, ?config, "table referee starting");
    let (health, health_service) = arena_serve::RoleHealth::new(
        "table-referee",
        vec![arena_serve::service_name::<
            TableRefereeServer<RefereeService>,
        >()],
        Some(store.clone()),
    )
    .await;
    let reflection = arena_serve::reflection()?;
    let stop = CancellationToken::new();
    let server_stop = CancellationToken::new();
    let server = {
        let server_stop = server_stop.clone();
        arena_serve::server(&config.serve)
            .layer(arena_auth::AuthLayer::new(auth))
            .add_service(health_service)
            .add_service(reflection)
            .add_service(RefereeService::new(store).into_server())
            .serve_with_incoming_shutdown(TcpListenerStream::new(listener), async move {
                server_stop.cancelled().await
            })
    };
    let mut server = ctx::AbortOnDrop(tokio::spawn(server));
    let mut jobs = ctx::AbortOnDrop(tokio::spawn(worker::job_loop(ctx, stop.clone())));
    let failed = tokio::select! {
        () = shutdown => None,
        r = &mut server.0 => Some(r),
    };
    tracing::info!("table referee shutting down");
    health.stopping().await;
    stop.cancel();
    let _ = (&mut jobs.0).await;
    server_stop.cancel();
    let served = match failed {
        Some(r) => r,
        None => match tokio::time::timeout(config.shutdown_grace, &mut server.0).await {
            Ok(r) => r,
            Err(_) => {
                tracing::warn!("gRPC connections did not close within the grace period");
                Ok(Ok(()))
            }
        },
    };
    match served {
        Ok(r) => r.map_err(RefereeError::from),
        Err(e) => {
            tracing::error!(error = %e, "the gRPC server task failed");
            Ok(())
        }
    }
}

/// Plays one table without any queue: built-in bots in-process, other seats through the
/// bot-host that `store`'s presence records name (when a store is given) or the configured
/// `config.bot_hosts`. A job that fails its checks is an error naming the field.
pub async fn run_table(
    job: &v1::TableJob,
    config: &RefereeConfig,
    store: Option<Arc<dyn Store>>,
) -> Result<(v1::TableResult, v1::Replay), JobError> {
    let hosts =
        BotHosts::new(&config.bot_hosts).map_err(|e| JobError::new("bot_hosts", e.to_string()))?;
    let dialer = PresenceDialer::new(store, hosts);
    let opts = RunOptions {
        referee: config.referee_id.clone(),
        open_timeout: config.seat_open_timeout,
        seat_token: config.cluster_token.clone(),
        reconnect_grace: config.reconnect_grace,
        ..RunOptions::default()
    };
    arena_games::run_table(job, &opts, &dialer).await
}
