//! [`BotHostError`]: why bot-host could not start or stopped with an error.

use std::net::SocketAddr;

/// Why bot-host could not start, or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum BotHostError {
    /// The configuration is not usable; the message names the field.
    #[error("bad bot-host configuration: {0}")]
    Config(String),
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
