//! Remote seats: one `SeatHost.Seat` stream to bot-host per seat of a table.
//!
//! The referee sends [`v1::SeatOpen`] and waits for [`v1::SeatReady`] (or a
//! [`v1::SeatFault`]); then one [`v1::DecisionRequest`] per decision, each answered by a
//! [`v1::DecisionReply`] carrying the same request id (the decision's index in the table);
//! finally [`v1::SeatClose`]. Replies to other request ids are ignored (late answers to
//! requests already given up on).
//!
//! Whose failure is it? A [`v1::SeatFault`] is the bot's (bot-host's kind) unless bot-host marks
//! it `platform`. Everything else that goes wrong with the stream is the platform's: bot-host
//! cannot be reached, refuses the call (but for `NOT_FOUND`: no such bot), or its stream breaks
//! or ends. Platform failures are never verdicts ([`SeatFailure::Platform`],
//! [`Answer::Platform`]).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Mutex;
use std::time::Duration;

use arena_proto::v1;
use arena_proto::v1::seat_host_client::SeatHostClient;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::{Channel, Endpoint};

use crate::game::Fault;
use crate::seat::Answer;

/// Why no channel to a bot-host could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DialError {
    /// A bot-host address is not a valid URI.
    #[error("bot-host address {addr:?} is not a valid URI: {reason}")]
    BadAddress {
        /// The address, normalised to `http://…`.
        addr: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No bot-host is known that could seat the bot; the message names the bot and where it
    /// was looked for.
    #[error("{0}")]
    NoHost(String),
}

/// Finds the bot-host for a remote bot.
#[async_trait::async_trait]
pub trait SeatDialer: Send + Sync {
    /// A channel to a bot-host that can seat `bot` at seat `seat` of `table_id`, or why there
    /// is none.
    async fn channel_for(&self, bot: &str, table_id: &str, seat: u32)
    -> Result<Channel, DialError>;
}

/// A fixed list of bot-host addresses with one lazily connected channel each (HTTP/2 carries
/// every seat stream to a host on one connection). A seat goes to the address picked by a hash
/// of its table id and seat, so a table's seats spread over the hosts.
#[derive(Default)]
pub struct BotHosts {
    addrs: Vec<String>,
    channels: Mutex<HashMap<String, Channel>>,
}

impl BotHosts {
    /// Hosts at `addrs` (`http://host:port` or `host:port`). Fails naming the first address
    /// that is not a valid URI.
    pub fn new(addrs: &[String]) -> Result<BotHosts, DialError> {
        let hosts = BotHosts {
            addrs: addrs.iter().map(|a| normalise(a)).collect(),
            channels: Mutex::new(HashMap::new()),
        };
        for a in &hosts.addrs {
            hosts.channel(a)?;
        }
        Ok(hosts)
    }

    /// The configured addresses (normalised to `http://…`).
    pub fn addrs(&self) -> &[String] {
        &self.addrs
    }

    /// The channel to `addr`, created on first use and shared afterwards.
    pub fn channel(&self, addr: &str) -> Result<Channel, DialError> {
        let addr = normalise(addr);
        let mut map = self.channels.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(c) = map.get(&addr) {
            return Ok(c.clone());
        }
        let c = Endpoint::from_shared(addr.clone())
            .map_err(|e| DialError::BadAddress {
                addr: addr.clone(),
                reason: e.to_string(),
            })?
            .tcp_nodelay(true)
            .connect_timeout(Duration::from_secs(5))
            .http2_keep_alive_interval(Duration::from_secs(20))
            .keep_alive_while_idle(true)
            .connect_lazy();
        map.insert(addr, c.clone());
        Ok(c)
    }

    /// The address for seat `seat` of `table_id` among `addrs`.
    pub fn pick<'a>(addrs: &'a [String], table_id: &str, seat: u32) -> Option<&'a String> {
        if addrs.is_empty() {
            return None;
        }
        let mut h = DefaultHasher::new();
        (table_id, seat).hash(&mut h);
        addrs.get((h.finish() % addrs.len() as u64) as usize)
    }
}

fn normalise(addr: &str) -> String {
    let a = addr.trim();
    if a.contains("://") {
        a.to_string()
    } else {
        format!("http://{a}")
    }
}

#[async_trait::async_trait]
impl SeatDialer for BotHosts {
    async fn channel_for(
        &self,
        bot: &str,
        table_id: &str,
        seat: u32,
    ) -> Result<Channel, DialError> {
        match BotHosts::pick(&self.addrs, table_id, seat) {
            Some(addr) => self.channel(addr),
            None => Err(DialError::NoHost(format!(
                "no bot-host address is configured to reach bot {bot:?}"
            ))),
        }
    }
}

/// An open seat stream to bot-host.
pub struct RemoteSeat {
    table_id: String,
    tx: mpsc::Sender<v1::RefereeToSeat>,
    rx: tonic::Streaming<v1::SeatToReferee>,
    ready: v1::SeatReady,
    /// How many of the seat's events the requests sent on this stream carried, when bot-host
    /// takes incremental observations (`SeatReady.incremental_observations`); 0 otherwise.
    held: usize,
}

fn disconnected(reason: String) -> Fault {
    Fault::new(v1::VerdictKind::Disconnected, reason)
}

/// Why a seat could not be opened.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatFailure {
    /// The bot's fault: a verdict.
    Bot(Fault),
    /// The platform's: never a verdict.
    Platform(String),
}

impl SeatFailure {
    /// As the answer a decision of this seat gets.
    pub fn into_answer<A>(self) -> Answer<A> {
        match self {
            SeatFailure::Bot(f) => Answer::Fault(f),
            SeatFailure::Platform(why) => Answer::Platform(why),
        }
    }
}

/// What a `SeatFault` from bot-host means.
fn seat_fault(f: v1::SeatFault) -> SeatFailure {
    let reason = if f.reason.is_empty() {
        "bot-host gave up on the bot".to_string()
    } else {
        arena_proto::text::cut(&f.reason)
    };
    if f.platform {
        return SeatFailure::Platform(reason);
    }
    let kind = match v1::VerdictKind::try_from(f.kind) {
        Ok(v1::VerdictKind::Unspecified) | Err(_) => v1::VerdictKind::Disconnected,
        Ok(k) => k,
    };
    SeatFailure::Bot(Fault::new(kind, reason))
}

/// What a refused `SeatHost.Seat` call means: only an unknown bot is the bot's fault.
fn refused(status: &tonic::Status) -> SeatFailure {
    let why = format!(
        "bot-host refused the seat: {:?}: {}",
        status.code(),
        arena_proto::text::cut(status.message())
    );
    if status.code() == tonic::Code::NotFound {
        SeatFailure::Bot(disconnected(why))
    } else {
        SeatFailure::Platform(why)
    }
}

impl RemoteSeat {
    /// Opens the seat: sends `open` on a new stream over `channel` and waits up to `timeout` for
    /// bot-host to report the seat ready. Failures are the seat's faults.
    pub async fn open(
        channel: Channel,
        open: v1::SeatOpen,
        timeout: Duration,
        token: Option<&arena_auth::Secret>,
    ) -> Result<RemoteSeat, SeatFailure> {
        let deadline = Instant::now() + timeout;
        let table_id = open.table_id.clone();
        let (tx, rx) = mpsc::channel(16);
        tx.send(v1::RefereeToSeat {
            msg: Some(v1::referee_to_seat::Msg::Open(open)),
        })
        .await
        .map_err(|_| SeatFailure::Platform("the seat stream closed before it opened".into()))?;
        let mut request = tonic::Request::new(ReceiverStream::new(rx));
        arena_telemetry::propagation::inject_current(request.metadata_mut());
        arena_auth::Bearer::new(token).apply(request.metadata_mut());
        let mut client = SeatHostClient::new(channel);
        let response = match tokio::time::timeout_at(deadline, client.seat(request)).await {
            Err(_) => {
                return Err(SeatFailure::Platform(format!(
                    "bot-host did not answer the seat within {} ms",
                    timeout.as_millis()
                )));
            }
            Ok(Err(status)) => return Err(refused(&status)),
            Ok(Ok(r)) => r,
        };
        let mut rx = response.into_inner();
        loop {
            let msg = match tokio::time::timeout_at(deadline, rx.message()).await {
                Err(_) => {
                    return Err(SeatFailure::Bot(disconnected(format!(
                        "bot-host did not report the seat ready within {} ms",
                        timeout.as_millis()
                    ))));
                }
                Ok(Err(status)) => {
                    return Err(SeatFailure::Platform(format!(
                        "the seat stream failed before the seat was ready: {:?}: {}",
                        status.code(),
                        arena_proto::text::cut(status.message())
                    )));
                }
                Ok(Ok(None)) => {
                    return Err(SeatFailure::Platform(
                        "bot-host ended the seat stream before the seat was ready".into(),
                    ));
                }
                Ok(Ok(Some(m))) => m,
            };
            match msg.msg {
                Some(v1::seat_to_referee::Msg::Ready(ready)) => {
                    return Ok(RemoteSeat {
                        table_id,
                        tx,
                        rx,
                        ready,
                        held: 0,
                    });
                }
                Some(v1::seat_to_referee::Msg::Fault(f)) => return Err(seat_fault(f)),
                Some(v1::seat_to_referee::Msg::Reply(_)) | None => {
                    tracing::debug!(table = %table_id, "ignoring a message before the seat was ready");
                }
            }
        }
    }

    /// What bot-host said when the seat became ready (bot, release, host).
    pub fn ready(&self) -> &v1::SeatReady {
        &self.ready
    }

    /// How many of the seat's events bot-host already holds from this stream: the next
    /// request's observation may leave them out (`events_from`). 0 on a new stream, and
    /// always when bot-host takes only whole observations.
    pub fn events_held(&self) -> usize {
        self.held
    }

    /// Sends `request` and waits up to `hard_cap` for its answer: an action message, a fault, or
    /// no answer. Returns it with the time from sending the request to receiving the answer.
    /// Its observation is whole or leaves out at most [`RemoteSeat::events_held`] events.
    pub async fn decide<A>(
        &mut self,
        request: v1::DecisionRequest,
        hard_cap: Duration,
    ) -> (Answer<A>, Duration) {
        let id = request.request_id;
        let through = arena_proto::incremental::events_through(&request);
        let start = Instant::now();
        if self
            .tx
            .send(v1::RefereeToSeat {
                msg: Some(v1::referee_to_seat::Msg::Request(request)),
            })
            .await
            .is_err()
        {
            return (
                Answer::Platform("the seat stream to bot-host is closed".into()),
                start.elapsed(),
            );
        }
        if self.ready.incremental_observations {
            self.held = through;
        }
        let deadline = start + hard_cap;
        let mut stale = 0u32;
        loop {
            let msg = match tokio::time::timeout_at(deadline, self.rx.message()).await {
                Err(_) => {
                    if stale > 0 {
                        tracing::info!(table = %self.table_id, request = id, stale, "timed out after replies to other requests");
                    }
                    return (Answer::NoAnswer, hard_cap);
                }
                Ok(Err(status)) => {
                    return (
                        Answer::Platform(format!(
                            "the seat stream to bot-host failed: {:?}: {}",
                            status.code(),
                            arena_proto::text::cut(status.message())
                        )),
                        start.elapsed(),
                    );
                }
                Ok(Ok(None)) => {
                    return (
                        Answer::Platform("bot-host ended the seat stream".into()),
                        start.elapsed(),
                    );
                }
                Ok(Ok(Some(m))) => m,
            };
            let elapsed = start.elapsed();
            match msg.msg {
                Some(v1::seat_to_referee::Msg::Reply(r)) if r.request_id == id => {
                    if !r.table_id.is_empty() && r.table_id != self.table_id {
                        return (
                            Answer::Fault(Fault::malformed(format!(
                                "replied for table {:?} on the stream of table {:?}",
                                r.table_id, self.table_id
                            ))),
                            elapsed,
                        );
                    }
                    return match r.action {
                        Some(a) => (Answer::Message(a), elapsed),
                        None => (
                            Answer::Fault(Fault::malformed("the reply holds no action")),
                            elapsed,
                        ),
                    };
                }
                Some(v1::seat_to_referee::Msg::Reply(r)) => {
                    stale += 1;
                    tracing::debug!(table = %self.table_id, expected = id, got = r.request_id, "ignoring a reply to another request");
                }
                Some(v1::seat_to_referee::Msg::Fault(f)) => {
                    return (seat_fault(f).into_answer(), elapsed);
                }
                Some(v1::seat_to_referee::Msg::Ready(_)) | None => {}
            }
        }
    }

    /// Sends `close`, ends the stream and waits up to `timeout` for bot-host to end its side.
    pub async fn close(mut self, close: v1::SeatClose, timeout: Duration) {
        let _ = self
            .tx
            .send(v1::RefereeToSeat {
                msg: Some(v1::referee_to_seat::Msg::Close(close)),
            })
            .await;
        drop(self.tx);
        let drain = async { while let Ok(Some(_)) = self.rx.message().await {} };
        let _ = tokio::time::timeout(timeout, drain).await;
    }
}
