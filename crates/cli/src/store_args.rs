//! Choosing a store from the command line: the embedded store under a data directory by
//! default, Redis when a URL is given.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use arena_store::{EmbeddedStore, RedisStore, Store};
use clap::Args;

/// Where arena keeps its state.
#[derive(Args, Clone, Debug)]
pub struct StoreArgs {
    /// Data directory of the embedded store.
    #[arg(long, env = "ARENA_DATA_DIR", default_value = "arena-data")]
    pub data_dir: PathBuf,
    /// Use Redis at this URL instead of the embedded store (e.g. redis://127.0.0.1:6379). It may
    /// hold a password, so `--help` never shows the environment's value and logs name only the
    /// address.
    #[arg(long, env = "ARENA_REDIS_URL", hide_env_values = true)]
    pub redis: Option<String>,
    /// Key prefix in Redis.
    #[arg(long, env = "ARENA_REDIS_PREFIX", default_value = "arena")]
    pub redis_prefix: String,
}

impl StoreArgs {
    /// Opens the chosen store.
    pub async fn open(&self) -> Result<Arc<dyn Store>> {
        Ok(match &self.redis {
            Some(url) => Arc::new(RedisStore::connect(url, &self.redis_prefix).await?),
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
