//! Who may call what. Every gRPC method of every role is either deliberately public, open to
//! spectators when the operator says so, for operators, or for the cluster's own roles; this
//! crate holds that table and enforces it in one place.
//!
//! - [`token`]: random tokens, stored only as SHA-256 hashes (bot tokens, session ids);
//! - [`operators`]: operator tokens (`arena operators add NAME`), each carrying its own id so a
//!   failed attempt costs one store read and one hash;
//! - [`secret`]: a string that never prints, and reading secrets from files (mounted Secrets);
//! - [`policy`]: the access class of every method ([`Access`]);
//! - [`layer`]: [`Authenticator`] and the tower layer ([`AuthLayer`]) that every role's server
//!   runs, refusing calls before they reach a service;
//! - [`limiter`]: failed attempts limited per peer address;
//! - [`refusal`]: the status of each kind of refusal, for checks made outside the layer too;
//! - [`client`]: what clients send (the operator token from `ARENA_OPERATOR_TOKEN` or the data
//!   directory; the cluster token), as a tonic interceptor.
//!
//! `docs/security.md` is the operator's view of all of it.

pub mod client;
pub mod layer;
pub mod limiter;
pub mod operators;
pub mod policy;
pub mod refusal;
pub mod secret;
pub mod token;

pub use client::{Bearer, discover_operator_token};
pub use layer::{AuthLayer, Authenticator, Caller};
pub use limiter::FailureLimiter;
pub use policy::{Access, access};
pub use secret::{Secret, read_secret_file};

/// Why an authentication step could not be carried out (not a refused caller: that is a
/// [`tonic::Status`]).
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// A secret file could not be read or holds no secret.
    #[error("{0}")]
    SecretFile(String),
    /// An operator name or token is not acceptable.
    #[error("{0}")]
    Invalid(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] arena_store::StoreError),
    /// The operating system's random source failed.
    #[error(transparent)]
    Random(#[from] token::TokenError),
}
