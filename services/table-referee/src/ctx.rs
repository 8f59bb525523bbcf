//! What every job task of the referee shares ([`Ctx`]): its settings, its store (on its lane),
//! the bot-host dialers, the run options, the result writer and the background tables' place.

use std::sync::Arc;
use std::time::Duration;

use arena_proto::v1;
use arena_store::Store;
use arena_table::{BotHosts, RunOptions};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::RefereeError;
use crate::background::Background;
use crate::config::RefereeConfig;
use crate::dialer::PresenceDialer;
use crate::writer::{Write, Writer, spawn_writer};

/// What every job task shares.
pub(crate) struct Ctx {
    pub(crate) config: RefereeConfig,
    pub(crate) store: Arc<dyn Store>,
    pub(crate) dialer: PresenceDialer,
    pub(crate) opts: RunOptions,
    /// Where finished tables go to be written and acknowledged in batches.
    pub(crate) writer: Writer,
    /// The writer's task: it goes when the referee does (a killed referee writes nothing more;
    /// its jobs are reclaimed), not when the last table's sender happens to be dropped.
    _writer_task: AbortOnDrop<()>,
    /// Where tables of long time controls play, when the referee has such a place.
    pub(crate) background: Option<Background>,
}

impl Ctx {
    pub(crate) fn new(config: RefereeConfig, store: Arc<dyn Store>) -> Result<Ctx, RefereeError> {
        config.validate()?;
        // The job loop takes, touches, hands back and finishes on the referee's lane (tables
        // submitted through its API go to their own job's lane, on the store it was given).
        let store = if config.lane.is_empty() {
            store
        } else {
            store.lane(&config.lane).map_err(|e| crate::ConfigError {
                setting: "lane",
                message: e.to_string(),
            })?
        };
        let hosts = BotHosts::new(&config.bot_hosts).map_err(|e| crate::ConfigError {
            setting: "bot_hosts",
            message: e.to_string(),
        })?;
        let background = match config.background_from {
            Some(from) => Some(
                Background::start(
                    from,
                    &config.background_cpus,
                    store.clone(),
                    &config.bot_hosts,
                )
                .map_err(|message| crate::ConfigError {
                    setting: "background_from",
                    message,
                })?,
            ),
            None => None,
        };
        let (writer, writer_task) = spawn_writer(
            store.clone(),
            config.referee_id.clone(),
            config.touch_interval,
        );
        Ok(Ctx {
            background,
            writer,
            _writer_task: writer_task,
            opts: RunOptions {
                referee: config.referee_id.clone(),
                open_timeout: config.seat_open_timeout,
                close_timeout: Duration::from_secs(1),
                seat_token: config.cluster_token.clone(),
                reconnect_grace: config.reconnect_grace,
                ..RunOptions::default()
            },
            dialer: PresenceDialer::new(Some(store.clone()), hosts),
            config,
            store,
        })
    }

    /// How `job`'s remote seats reach bot-host: from the background's own links when it plays
    /// there (the same rule that placed its task).
    pub(crate) fn dialer_for(&self, job: &v1::TableJob) -> &PresenceDialer {
        match &self.background {
            Some(b) if b.takes(job) => b.dialer(),
            _ => &self.dialer,
        }
    }

    /// Waits until the writer has written (or given up on) every table queued before this call.
    pub(crate) async fn flush_writes(&self) {
        let (tx, rx) = oneshot::channel();
        if self.writer.tx.send(Write::Flush(tx)).is_ok() {
            let _ = rx.await;
        }
    }
}

/// Aborts a spawned task when dropped, so nothing outlives the job that started it.
pub(crate) struct AbortOnDrop<T>(pub(crate) JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}
