//! Watching for data loss: a role opens the store's instance record when it starts
//! ([`Records::open_instance`], which also fences its writes) and checks it every few seconds.
//! When Redis comes back empty (restart without persistence, flush, failover to an empty
//! replica) the record is gone: the role is told at once (a loud error in its log; roles also
//! count it and turn their health NOT_SERVING), and every fenced write fails with
//! [`StoreError::DataLoss`] until the data is restored.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::{Store, StoreError};

/// How often roles check the instance record.
pub const CHECK_EVERY: Duration = Duration::from_secs(2);

/// A store being watched.
pub struct InstanceWatch {
    /// True while the store still holds the instance record this role started on.
    pub whole: watch::Receiver<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for InstanceWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Opens `store`'s instance record (trying again while the store cannot be reached) and then
/// checks it every `every`, from a task of its own. `role` names the role in log lines.
pub fn watch_instance(store: Arc<dyn Store>, every: Duration, role: &'static str) -> InstanceWatch {
    let (tx, whole) = watch::channel(true);
    let task = tokio::spawn(async move {
        let mut wait = Duration::from_millis(100);
        let expected = loop {
            match store.open_instance().await {
                Ok(id) => break id,
                Err(StoreError::DataLoss(why)) => {
                    tracing::error!(role, reason = %why, "THE STORE LOST ITS DATA before this role could open it");
                    tx.send_replace(false);
                    return;
                }
                Err(e) => {
                    tracing::warn!(role, error = %e, retry_in = ?wait, "cannot open the store's instance record yet");
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_secs(5));
                }
            }
        };
        tracing::info!(role, instance = %expected, "store instance opened");
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick.tick().await;
        loop {
            tick.tick().await;
            let now = match store.check_instance(&expected).await {
                Ok(()) => true,
                Err(StoreError::DataLoss(why)) => {
                    if *tx.borrow() {
                        tracing::error!(
                            role,
                            store = %store.describe(),
                            reason = %why,
                            "THE STORE LOST ITS DATA: nothing more is written until it is restored \
                             (or this role is restarted on the new, empty store); health is NOT_SERVING"
                        );
                    }
                    false
                }
                // Unreachable is not lost: the next check tells.
                Err(e) => {
                    tracing::debug!(role, error = %e, "cannot check the store's instance record");
                    continue;
                }
            };
            if now != *tx.borrow() {
                if now {
                    tracing::info!(role, "the store's instance record is back: serving again");
                }
                tx.send_replace(now);
            }
        }
    });
    InstanceWatch { whole, task }
}
