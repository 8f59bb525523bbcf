//! Choosing a store from the command line: the embedded store under a data directory by
//! default, Redis when a URL is given. The CLI's commands and the games' (a match dealt from
//! the deal library) share it.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use arena_store::redis::RedisOptions;
use arena_store::{EmbeddedStore, RedisStore, Store};
use clap::Args;

/// Where arena keeps its state.
#[derive(Args, Clone, Debug)]
pub struct StoreArgs {
    /// Data directory of the embedded store.
    #[arg(long, env = "ARENA_DATA_DIR", default_value = "arena-data")]
    pub data_dir: PathBuf,
    /// Use Redis at this URL instead of the embedded store (e.g. redis://127.0.0.1:6379;
    /// rediss://… for TLS). A password in it is never printed: `--help` hides the
    /// environment's value and logs name only the address.
    #[arg(long, env = "ARENA_REDIS_URL", hide_env_values = true)]
    pub redis: Option<String>,
    /// Key prefix in Redis.
    #[arg(long, env = "ARENA_REDIS_PREFIX", default_value = "arena")]
    pub redis_prefix: String,
    /// PEM file of the CA to verify a rediss:// server against, instead of the system's roots.
    #[arg(long, env = "ARENA_REDIS_CA_FILE")]
    pub redis_ca_file: Option<PathBuf>,
    /// PEM file of a client certificate for a rediss:// server that verifies clients (with
    /// --redis-client-key-file).
    #[arg(long, env = "ARENA_REDIS_CLIENT_CERT_FILE")]
    pub redis_client_cert_file: Option<PathBuf>,
    /// PEM file of the client certificate's private key.
    #[arg(long, env = "ARENA_REDIS_CLIENT_KEY_FILE")]
    pub redis_client_key_file: Option<PathBuf>,
}

impl StoreArgs {
    /// Opens the chosen store.
    pub async fn open(&self) -> Result<Arc<dyn Store>> {
        let options = RedisOptions {
            ca_file: self.redis_ca_file.clone(),
            client_cert_file: self.redis_client_cert_file.clone(),
            client_key_file: self.redis_client_key_file.clone(),
        };
        Ok(match &self.redis {
            Some(url) => {
                Arc::new(RedisStore::connect_with(url, &self.redis_prefix, &options).await?)
            }
            None if options.has_tls_files() => anyhow::bail!(
                "--redis-ca-file and --redis-client-*-file are for a rediss:// store, but no \
                 --redis URL is given"
            ),
            None => Arc::new(EmbeddedStore::open(&self.data_dir).with_context(|| {
                format!("opening the embedded store in {}", self.data_dir.display())
            })?),
        })
    }
}

/// A runtime for the store's I/O in synchronous commands (measurement itself runs on threads).
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the I/O runtime")
}
