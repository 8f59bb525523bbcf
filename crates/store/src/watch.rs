//! Waiting for a change instead of rescanning: the store-level watch ([`crate::Watch`]).
//!
//! A [`Hub`] keeps one `tokio::sync::watch` channel per [`Topic`] some [`Watcher`] waits on.
//! The embedded store signals it from its writes; the Redis store publishes each write's topic
//! in the same script as the write and signals the hub from one subscriber task per store (see
//! `crate::redis`). Besides its topic, every watcher follows the hub's *resync* signal: raised
//! when a subscription was lost or (re)established, it wakes every watcher once, so a change
//! published while nobody listened is still seen by the rescan that follows.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::{StoreError, StoreResult, check_id};

/// The longest name a [`Topic`] may carry, in bytes (longer ones are refused by
/// [`crate::Watch::watch`], and never looked up when they arrive over Redis).
pub const MAX_TOPIC_BYTES: usize = 512;

/// [`Topic::AnyResults`]'s key: no write publishes it; the hub signals it with every
/// competition's results (keys `r:…`).
const ANY_RESULTS: &str = "r*";

/// Topics kept without a watcher before the hub drops them.
const IDLE_TOPICS: usize = 256;

/// What a [`Watcher`] waits for a change of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// The results of a competition: every table whose id is under it
    /// ([`crate::competition_of`]), written ([`crate::Results::put_result`],
    /// [`crate::Jobs::finish_jobs`]) or deleted ([`crate::Results::delete_results`]).
    Results(String),
    /// The results of every competition: any write [`Topic::Results`] watches, whichever
    /// competition's (what a supervisor of every competition waits for).
    AnyResults,
    /// The records of a kind ([`crate::Records`]): put, swapped or deleted.
    Records(String),
    /// The deals a panel measured ([`crate::Deals::put_deals`] writing a new one).
    Deals(String),
    /// Which bots are connected: a bot-host claiming a bot ([`crate::Bots::claim_presence`])
    /// or letting it go ([`crate::Bots::clear_presence`], [`crate::Bots::remove_bot`]).
    /// Refreshes of a presence already held are not changes.
    Presence,
}

impl Topic {
    /// The topic's name on the wire (a Redis message): a letter, `:`, and its scope's name.
    pub fn key(&self) -> String {
        match self {
            Topic::Results(c) => format!("r:{c}"),
            Topic::Records(k) => format!("k:{k}"),
            Topic::Deals(p) => format!("d:{p}"),
            Topic::AnyResults => ANY_RESULTS.to_string(),
            Topic::Presence => "p:".to_string(),
        }
    }

    /// Checks the topic's name: what [`crate::Watch::watch`] refuses.
    pub(crate) fn check(&self) -> StoreResult<()> {
        let (what, name) = match self {
            Topic::Results(c) => ("watched competition", c),
            Topic::Records(k) => ("watched record kind", k),
            Topic::Deals(p) => ("watched panel id", p),
            Topic::AnyResults | Topic::Presence => return Ok(()),
        };
        check_id(what, name)?;
        if name.len() > MAX_TOPIC_BYTES {
            return Err(StoreError::Invalid(format!(
                "{what} is {} bytes, more than {MAX_TOPIC_BYTES}",
                name.len()
            )));
        }
        Ok(())
    }
}

/// The watch channels of one store (shared by its clones and lane views).
#[derive(Debug)]
pub(crate) struct Hub {
    topics: Mutex<HashMap<String, tokio::sync::watch::Sender<u64>>>,
    /// Raised to wake every watcher: a subscription lost or (re)made.
    resync: tokio::sync::watch::Sender<u64>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            topics: Mutex::default(),
            resync: tokio::sync::watch::Sender::new(0),
        }
    }
}

impl Hub {
    /// A watcher of `topic` (checked).
    pub(crate) fn watch(self: &Arc<Self>, topic: &Topic) -> StoreResult<Watcher> {
        topic.check()?;
        let mut topics = self.lock();
        if topics.len() >= IDLE_TOPICS {
            topics.retain(|_, tx| tx.receiver_count() > 0);
        }
        let changes = topics
            .entry(topic.key())
            .or_insert_with(|| tokio::sync::watch::Sender::new(0))
            .subscribe();
        drop(topics);
        Ok(Watcher {
            changes,
            resync: self.resync.subscribe(),
            _hub: Arc::clone(self),
        })
    }

    /// Wakes the watchers of the topic named `key` ([`Topic::key`]); a topic nobody watches
    /// costs a lookup.
    pub(crate) fn notify_key(&self, key: &str) {
        let mut topics = self.lock();
        if key.starts_with("r:")
            && let Some(tx) = topics.get(ANY_RESULTS)
        {
            tx.send_modify(|v| *v = v.wrapping_add(1));
        }
        if let Some(tx) = topics.get(key) {
            if tx.receiver_count() == 0 {
                topics.remove(key);
            } else {
                tx.send_modify(|v| *v = v.wrapping_add(1));
            }
        }
    }

    /// Wakes the watchers of `topic`.
    pub(crate) fn notify(&self, topic: &Topic) {
        self.notify_key(&topic.key());
    }

    /// Wakes every watcher once, whatever it watches: what changed is unknown.
    pub(crate) fn resync(&self) {
        self.resync.send_modify(|v| *v = v.wrapping_add(1));
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, tokio::sync::watch::Sender<u64>>> {
        // A panic while holding the map cannot leave it inconsistent: every update is one call.
        self.topics.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Waits for changes of one [`Topic`] ([`crate::Watch::watch`]).
///
/// Make it *before* reading what it guards, read, then wait on [`Watcher::changed`]: a write
/// after the watcher was made wakes it even if it lands before the wait. Wake-ups may be
/// spurious (a write that changed nothing the reader counts, or a lost connection after which
/// every watcher rescans once) but are never missed.
#[derive(Debug)]
pub struct Watcher {
    changes: tokio::sync::watch::Receiver<u64>,
    resync: tokio::sync::watch::Receiver<u64>,
    /// Keeps the channels' senders alive as long as the watcher is.
    _hub: Arc<Hub>,
}

impl Watcher {
    /// Returns once the topic may have changed since the watcher was made or since this last
    /// returned.
    pub async fn changed(&mut self) {
        // The hub, and so both senders, live as long as `self`: neither call can fail.
        tokio::select! {
            r = self.changes.changed() => { let _ = r; }
            r = self.resync.changed() => { let _ = r; }
        }
    }

    /// Whether a change is already waiting: [`Watcher::changed`] would return at once.
    pub fn has_changed(&self) -> bool {
        self.changes.has_changed().unwrap_or(false) || self.resync.has_changed().unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_notification_before_the_wait_is_not_lost_and_others_do_not_wake_it() {
        let hub = Arc::new(Hub::default());
        let mut w = hub.watch(&Topic::Results("cup".into())).expect("watch");
        hub.notify(&Topic::Results("other".into()));
        hub.notify(&Topic::Records("cup".into()));
        assert!(!w.has_changed());
        let mut any = hub.watch(&Topic::AnyResults).expect("watch");
        hub.notify(&Topic::Results("cup".into()));
        assert!(w.has_changed());
        assert!(any.has_changed(), "any competition's results");
        any.changed().await;
        hub.notify(&Topic::Results("other".into()));
        assert!(any.has_changed());
        w.changed().await;
        assert!(!w.has_changed());
        hub.resync();
        assert!(w.has_changed());
    }

    #[test]
    fn topics_nobody_watches_are_dropped_and_bad_names_refused() {
        let hub = Arc::new(Hub::default());
        for i in 0..IDLE_TOPICS * 2 {
            drop(hub.watch(&Topic::Records(format!("k{i}"))).expect("watch"));
        }
        assert!(hub.lock().len() <= IDLE_TOPICS);
        let long = "x".repeat(MAX_TOPIC_BYTES + 1);
        for bad in [Topic::Results(String::new()), Topic::Deals(long)] {
            let Err(StoreError::Invalid(why)) = hub.watch(&bad) else {
                panic!("{bad:?} is refused");
            };
            assert!(why.contains("watched"), "{why}");
        }
    }
}
