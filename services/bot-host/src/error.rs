//! [`BotHostError`]: why bot-host could not start or stopped with an error.

use std::net::SocketAddr;

/// Why bot-host could not start, or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum BotHostError {
    /// The configuration is not usable: which setting, and why.
    #[error("bad bot-host configuration: {setting} {message}")]
    Config {
        /// The setting, e.g. `keepalive`.
        setting: &'static str,
        /// What is wrong with it.
        message: String,
    },
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The gRPC server failed.
    #[error("the gRPC server failed: {0}")]
    Serve(#[from] tonic::transport::Error),
    /// The server could not be set up (reflection).
    #[error(transparent)]
    Setup(#[from] arena_serve::ServeError),
}
