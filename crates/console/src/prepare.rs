//! Creating a competition whose deals the library must find first, as `arena competition
//! create` does: an equal-strength (or difficulty-adjusted) competition the library cannot
//! supply yet is refused by the matchmaker ([`NOT_ENOUGH_DEALS`]); the console then asks the
//! deal library to generate and measure the missing deals (`Find`), follows the operation, and
//! creates the competition once they are there. The form's page follows the preparation as it
//! goes (deals found of those missing, deals tried), then opens the competition.
//!
//! The deal library is reached over gRPC at the address the role was given (the matchmaker's
//! `--deal-library`; standalone's own deal library), with the signed-in operator's token: the
//! library decides the call as it decides any other operator's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena_deals::wanted::{NOT_ENOUGH_DEALS, Wanted};
use arena_proto::v1;
use futures_util::StreamExt;
use http::HeaderValue;
use serde_json::{Value, json};
use tokio::sync::watch;
use tonic::transport::{Channel, Endpoint};

use crate::backend::Backend;
use crate::view;

/// Preparations running at once; more are refused (the deal library itself runs at most two
/// generations at once and refuses the rest).
pub const MAX_RUNNING: usize = 8;
/// Finished preparations kept for their pages to read; older ones are forgotten.
const KEPT: usize = 64;
/// How long a page's request for news waits before it is answered with the state unchanged.
pub const NEWS_WAIT: Duration = Duration::from_secs(15);

/// The deal library a console asks for missing deals.
#[derive(Clone)]
pub struct Library {
    url: String,
    channel: Channel,
}

impl Library {
    /// The deal library at `url` (`http://host:port`); connected when first called.
    pub fn new(url: &str) -> Result<Library, String> {
        let endpoint = Endpoint::from_shared(url.to_string())
            .map_err(|e| format!("deal library {}: {e}", arena_proto::text::quote(url)))?;
        Ok(Library {
            url: url.to_string(),
            channel: endpoint.connect_lazy(),
        })
    }

    /// Its address.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn client(&self) -> v1::deal_library_client::DealLibraryClient<Channel> {
        v1::deal_library_client::DealLibraryClient::new(self.channel.clone())
    }
}

/// `message` with the operator's credentials, as the library's authenticator reads them.
fn authed<T>(message: T, authorization: Option<&HeaderValue>) -> tonic::Request<T> {
    let mut r = tonic::Request::new(message);
    if let Some(v) = authorization.and_then(|v| v.to_str().ok())
        && let Ok(v) = v.parse()
    {
        r.metadata_mut().insert("authorization", v);
    }
    r
}

/// Where a preparation is.
#[derive(Clone, Debug, PartialEq)]
pub struct Preparation {
    /// The competition's name.
    pub name: String,
    /// `finding` (the library generates and measures deals), `creating`, `created` or
    /// `failed`.
    pub state: &'static str,
    /// Deals the competition deals.
    pub need: u64,
    /// Unused deals fit for it the library held when asked (`None` until it answered).
    pub have: Option<u64>,
    /// The library's operation: deals found of those missing, deals tried, games played,
    /// seconds so far.
    pub operation: Option<v1::Operation>,
    /// Why it failed.
    pub error: Option<String>,
    /// The competition, once created.
    pub competition: Option<v1::Competition>,
    /// Counts changes, for pages waiting for news.
    pub version: u64,
}

impl Preparation {
    /// As the page reads it (64-bit counts as strings, [`view::int`]).
    pub fn json(&self) -> Value {
        let op = self.operation.as_ref();
        json!({
            "name": self.name,
            "state": self.state,
            "need": view::int(self.need),
            "have": self.have.map(view::int),
            "missing": self.have.map(|h| view::int(self.need.saturating_sub(h))),
            "operation": op.map(|o| o.id.clone()),
            "found": view::int(op.map_or(0, |o| o.progress)),
            "tried": view::int(op.map_or(0, |o| o.tried)),
            "games": view::int(op.map_or(0, |o| o.games)),
            "seconds": op.map_or(0.0, |o| o.seconds),
            "error": self.error,
            "competition": self.competition.as_ref().map(view::competition),
            "version": view::int(self.version),
        })
    }

    fn finished(&self) -> bool {
        matches!(self.state, "created" | "failed")
    }
}

type Slot = Arc<watch::Sender<Preparation>>;

/// The console's preparations, by competition name.
#[derive(Clone, Default)]
pub struct Preparations {
    slots: Arc<Mutex<HashMap<String, (u64, Slot)>>>,
    started: Arc<std::sync::atomic::AtomicU64>,
}

/// Why a preparation could not start.
#[derive(Debug, PartialEq)]
pub enum Refused {
    /// One for this name is still running.
    Running,
    /// [`MAX_RUNNING`] are running.
    Busy,
}

impl Preparations {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (u64, Slot)>> {
        // A panic while holding the lock leaves a map that is still consistent.
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The preparation of `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<watch::Receiver<Preparation>> {
        self.lock().get(name).map(|(_, s)| s.subscribe())
    }

    /// Starts preparing `spec`: asks `library` for the deals `wanted` says are missing, with the
    /// operator's `authorization`, then creates it through `backend`. Returns its first state.
    pub fn start(
        &self,
        library: Library,
        backend: Arc<dyn Backend>,
        spec: v1::CompetitionSpec,
        wanted: Wanted,
        authorization: Option<HeaderValue>,
    ) -> Result<Preparation, Refused> {
        let first = Preparation {
            name: spec.name.clone(),
            state: "finding",
            need: wanted.need,
            have: None,
            operation: None,
            error: None,
            competition: None,
            version: 0,
        };
        let tx = {
            let mut slots = self.lock();
            if slots
                .get(&spec.name)
                .is_some_and(|(_, s)| !s.borrow().finished())
            {
                return Err(Refused::Running);
            }
            if slots
                .values()
                .filter(|(_, s)| !s.borrow().finished())
                .count()
                >= MAX_RUNNING
            {
                return Err(Refused::Busy);
            }
            let n = self
                .started
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let tx: Slot = Arc::new(watch::channel(first.clone()).0);
            slots.insert(spec.name.clone(), (n, tx.clone()));
            // Forget the oldest finished ones beyond what pages may still read.
            if slots.len() > KEPT {
                let mut finished: Vec<(u64, String)> = slots
                    .iter()
                    .filter(|(_, (_, s))| s.borrow().finished())
                    .map(|(k, (n, _))| (*n, k.clone()))
                    .collect();
                finished.sort_unstable();
                let extra = slots.len() - KEPT;
                for (_, k) in finished.into_iter().take(extra) {
                    slots.remove(&k);
                }
            }
            tx
        };
        tokio::spawn(async move {
            match prepare(
                &library,
                &*backend,
                &spec,
                &wanted,
                authorization.as_ref(),
                &tx,
            )
            .await
            {
                Ok(comp) => set(&tx, |p| {
                    p.state = "created";
                    p.competition = Some(comp);
                }),
                Err(why) => set(&tx, |p| {
                    p.state = "failed";
                    p.error = Some(why);
                }),
            }
        });
        Ok(first)
    }
}

/// Changes a preparation, telling the pages that wait for news.
fn set(tx: &watch::Sender<Preparation>, f: impl FnOnce(&mut Preparation)) {
    tx.send_modify(|p| {
        f(p);
        p.version += 1;
    });
}

/// Finds the deals `w` says are missing, following the library's operation into `tx`, then
/// creates the competition. The error says what failed, for the operator.
async fn prepare(
    library: &Library,
    backend: &dyn Backend,
    spec: &v1::CompetitionSpec,
    w: &Wanted,
    authorization: Option<&HeaderValue>,
    tx: &watch::Sender<Preparation>,
) -> Result<v1::Competition, String> {
    let at = library.url();
    let mut client = library.client();
    let have = client
        .query(authed(
            v1::QueryRequest {
                panel: Some(w.panel.clone()),
                centre: w.centre.clone(),
                eps: w.eps,
                count: 0,
                include_used: false,
            },
            authorization,
        ))
        .await
        .map_err(|s| {
            format!(
                "asking the deal library at {at} what it holds: {}",
                s.message()
            )
        })?
        .into_inner()
        .available;
    set(tx, |p| p.have = Some(have));
    if have < w.need {
        let missing = w.need - have;
        let count = u32::try_from(missing)
            .map_err(|_| format!("{missing} deals are more than one generation may find"))?;
        let op = client
            .find(authed(
                v1::FindRequest {
                    panel: Some(w.panel.clone()),
                    centre: w.centre.clone(),
                    eps: w.eps,
                    count,
                    bombs: Some(w.bombs),
                    seed: arena_deals::find::secret_seed()?,
                    max_tries: 0,
                },
                authorization,
            ))
            .await
            .map_err(|s| {
                format!(
                    "asking the deal library at {at} to find {missing} deals: {}",
                    s.message()
                )
            })?
            .into_inner();
        let id = op.id.clone();
        let mut last = op;
        set(tx, |p| p.operation = Some(last.clone()));
        if !last.done {
            let mut news = client
                .watch_operation(authed(
                    v1::GetOperationRequest { id: id.clone() },
                    authorization,
                ))
                .await
                .map_err(|s| format!("following operation {id}: {}", s.message()))?
                .into_inner();
            while let Some(next) = news.next().await {
                last = next.map_err(|s| format!("following operation {id}: {}", s.message()))?;
                set(tx, |p| p.operation = Some(last.clone()));
                if last.done {
                    break;
                }
            }
        }
        if !last.error.is_empty() {
            return Err(format!("deal library operation {id}: {}", last.error));
        }
        if !last.done {
            return Err(format!(
                "deal library operation {id} stopped before its end"
            ));
        }
    }
    set(tx, |p| p.state = "creating");
    backend.create(spec.clone()).await.map_err(|s| {
        if s.message().contains(NOT_ENOUGH_DEALS) {
            // Found, and taken by another competition in between: say so plainly.
            format!(
                "{} (the deals found were taken meanwhile; create it again)",
                s.message()
            )
        } else {
            s.message().to_string()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deal library that takes the connection and never answers: preparations stay running.
    async fn silent_library() -> (tokio::net::TcpListener, Library) {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", l.local_addr().unwrap());
        (l, Library::new(&url).unwrap())
    }

    fn spec(name: &str) -> (v1::CompetitionSpec, Wanted) {
        let spec = v1::CompetitionSpec {
            name: name.into(),
            format: "equal-strength".into(),
            participants: vec!["expert".into(), "random".into()],
            matches: 1,
            rounds: 1,
            centre: arena_deals::wanted::DEFAULT_CENTRE.to_vec(),
            eps: arena_deals::wanted::DEFAULT_EPS,
            ..Default::default()
        };
        let w = arena_deals::wanted::wanted(&spec).unwrap().unwrap();
        (spec, w)
    }

    #[tokio::test]
    async fn one_preparation_per_name_and_at_most_max_running_at_once() {
        let (_listener, library) = silent_library().await;
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn arena_store::Store> =
            Arc::new(arena_store::EmbeddedStore::open(dir.path()).unwrap());
        let backend: Arc<dyn Backend> = Arc::new(arena_matchmaker::MatchmakerService::new(store));
        let preps = Preparations::default();
        let start = |name: &str| {
            let (s, w) = spec(name);
            preps.start(library.clone(), backend.clone(), s, w, None)
        };
        let first = start("cup-0").unwrap();
        assert_eq!((first.state, first.need, first.have), ("finding", 2, None));
        assert_eq!(start("cup-0").unwrap_err(), Refused::Running);
        for k in 1..MAX_RUNNING {
            start(&format!("cup-{k}")).unwrap();
        }
        assert_eq!(start("one-too-many").unwrap_err(), Refused::Busy);
        assert!(preps.get("cup-3").is_some());
        assert!(preps.get("one-too-many").is_none());
    }
}
