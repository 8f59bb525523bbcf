//! Live standings, pushed: one `WatchCompetition` stream per competition however many pages
//! watch it, its updates fanned out to each as server-sent events. The first viewer of a
//! competition starts the watcher; the watcher stops when the competition ends (after the final
//! standings) or when its last viewer has gone. A viewer arriving late gets the latest standings
//! at once, then every change.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use futures_util::StreamExt;
use tokio::sync::watch;

use crate::backend::Backend;
use crate::view;

/// One update as the pages receive it: the standings' JSON, and whether it is the last one.
#[derive(Clone, Debug, PartialEq)]
pub enum Update {
    /// Standings now.
    Standings(Arc<String>),
    /// The last standings (the competition ended); the stream ends after it.
    Final(Arc<String>),
    /// Watching failed (the competition vanished, the store failed): why.
    Failed(Arc<String>),
}

type Slot = Arc<watch::Sender<Option<Update>>>;

/// The watchers, by competition.
#[derive(Clone)]
pub struct Hub {
    backend: Arc<dyn Backend>,
    watchers: Arc<Mutex<HashMap<String, Slot>>>,
}

impl Hub {
    /// No watchers yet.
    pub fn new(backend: Arc<dyn Backend>) -> Hub {
        Hub {
            backend,
            watchers: Arc::default(),
        }
    }

    /// How many competitions are watched now.
    pub fn watched(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Slot>> {
        // A panic while holding the lock leaves a map that is still consistent.
        self.watchers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The updates of competition `name`: the latest at once (once the watcher has one), then
    /// every change. The caller has checked that the competition exists.
    pub fn subscribe(&self, name: &str) -> watch::Receiver<Option<Update>> {
        let mut watchers = self.lock();
        if let Some(tx) = watchers.get(name) {
            return tx.subscribe();
        }
        let tx = Arc::new(watch::channel(None).0);
        let rx = tx.subscribe();
        watchers.insert(name.to_string(), tx.clone());
        tokio::spawn(self.clone().run(name.to_string(), tx));
        rx
    }

    async fn run(self, name: String, tx: Slot) {
        let sent = |u: Update| tx.send(Some(u)).is_ok();
        match self.backend.watch(&name).await {
            Err(s) => {
                sent(Update::Failed(Arc::new(s.message().to_string())));
            }
            Ok(mut stream) => loop {
                tokio::select! {
                    // Nobody watches any more: drop the stream (the matchmaker's watcher ends).
                    () = tx.closed() => break,
                    next = stream.next() => match next {
                        Some(Ok(s)) => {
                            let json = Arc::new(view::standings(&s).to_string());
                            let u = if s.r#final { Update::Final(json) } else { Update::Standings(json) };
                            if !sent(u) {
                                break;
                            }
                        }
                        Some(Err(s)) => {
                            sent(Update::Failed(Arc::new(s.message().to_string())));
                            break;
                        }
                        // The competition ended (finished standings came with `final`; a
                        // cancelled one's last update did not): the current standings as last.
                        None => {
                            let last = match self.backend.standings(&name).await {
                                Ok(s) => Update::Final(Arc::new(view::standings(&s).to_string())),
                                Err(s) => Update::Failed(Arc::new(s.message().to_string())),
                            };
                            if !matches!(*tx.borrow(), Some(Update::Final(_))) {
                                sent(last);
                            }
                            break;
                        }
                    },
                }
            },
        }
        // Forget this watcher, unless a newer one has taken its place already.
        let mut watchers = self.lock();
        if watchers.get(&name).is_some_and(|t| Arc::ptr_eq(t, &tx)) {
            watchers.remove(&name);
        }
    }
}
