//! Remote seats: a seat stream to bot-host per seat of a table, carried on one
//! `SeatHost.Seats` stream per bot-host (a bot-host without it gets a `SeatHost.Seat` stream
//! per seat; the seat streams are the same either way).
//!
//! The referee sends [`v1::SeatOpen`] and waits for [`v1::SeatReady`] (or a
//! [`v1::SeatFault`]), its open timeout counted again from each [`v1::SeatWaiting`] bot-host
//! sends while the bot is busy; then one [`v1::DecisionRequest`] per decision, each answered by a
//! [`v1::DecisionReply`] carrying the same request id (the decision's index in the table);
//! finally [`v1::SeatClose`]. Replies to other request ids are ignored (late answers to
//! requests already given up on). While a request is open, bot-host may say why the bot is
//! silent on it ([`v1::SeatNote`]): should the request then reach the hard cap unanswered, the
//! timeout verdict quotes the last such note (notes on other requests are ignored).
//!
//! Whose failure is it? A [`v1::SeatFault`] is the bot's (bot-host's kind) unless bot-host marks
//! it `platform`. Everything else that goes wrong with the stream is the platform's: bot-host
//! cannot be reached, refuses the call (but for `NOT_FOUND`: no such bot), or its stream breaks
//! or ends. Platform failures are never verdicts ([`SeatFailure::Platform`],
//! [`Answer::Platform`]).
//!
//! Why one `Seats` stream: a busy referee's seats each send a message at their own moment, and
//! each message on a stream of its own costs an HTTP/2 write and a wake-up or two on either
//! side. On one stream, what the seats send while the stream's task waits its turn leaves in
//! one message ([`arena_proto::coalesce`]), and so do bot-host's answers. A `Seats` stream
//! takes new seats for [`SEATS_STREAM_TERM`]; the next seat starts a new one (on whatever
//! connection the channel has then, which lets a connection a server asked to go away drain),
//! and the old one ends once its last seat has.

use std::collections::HashMap;
use std::convert::Infallible;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena_proto::v1;
use arena_proto::v1::seat_host_client::SeatHostClient;
use tokio::runtime::Handle;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::{ReceiverStream, UnboundedReceiverStream};
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
    /// The way to a bot-host that can seat `bot` at seat `seat` of `table_id`, or why there
    /// is none.
    async fn channel_for(
        &self,
        bot: &str,
        table_id: &str,
        seat: u32,
    ) -> Result<SeatLink, DialError>;

    /// `bot`'s own decision limits, as registered, which its seats play by at tables that
    /// leave the decision limit to the default. They come from the registry, never from a
    /// bot's own word. `Err` when they cannot be known now (the platform's failure: the table
    /// is played again rather than judged by another clock). Default: none.
    async fn own_limits(&self, bot: &str) -> Result<OwnLimits, String> {
        let _ = bot;
        Ok(OwnLimits::default())
    }
}

/// A registered bot's own decision limits, in milliseconds (0: none).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnLimits {
    /// Time for one decision (0: the table's).
    pub decision_ms: u32,
    /// Time for a seat's second and later decisions (0: `decision_ms`).
    pub later_decision_ms: u32,
}

/// The way to one bot-host: its channel, and the `Seats` stream its seats share.
#[derive(Clone)]
pub struct SeatLink {
    channel: Channel,
    shared: Arc<tokio::sync::Mutex<Shared>>,
    /// The runtime the link was made on, which runs its `Seats` streams' readers: seats
    /// opened from tasks on another runtime (a referee's background tables) still have their
    /// replies read and timed where the link's connection is.
    runtime: Option<Handle>,
}

impl SeatLink {
    /// A link over `channel` whose seats share one `Seats` stream at a time. Make one per
    /// bot-host and keep it: every seat opened through a clone shares the stream.
    pub fn new(channel: Channel) -> SeatLink {
        SeatLink {
            channel,
            shared: Arc::new(tokio::sync::Mutex::new(Shared::default())),
            runtime: Handle::try_current().ok(),
        }
    }

    /// A link whose every seat has a `Seat` stream of its own, as with a bot-host that serves
    /// no `Seats` (what referees did before it).
    pub fn per_seat(channel: Channel) -> SeatLink {
        SeatLink {
            channel,
            shared: Arc::new(tokio::sync::Mutex::new(Shared {
                current: None,
                unsupported: true,
            })),
            runtime: Handle::try_current().ok(),
        }
    }
}

/// Which `Seats` stream new seats of a link take.
#[derive(Default)]
struct Shared {
    current: Option<Arc<Mux>>,
    /// The bot-host answered `UNIMPLEMENTED`: every seat gets a `Seat` stream of its own.
    unsupported: bool,
}

/// How long a `Seats` stream takes new seats.
pub const SEATS_STREAM_TERM: Duration = Duration::from_secs(30);

/// Most frames in one `RefereeToSeats`.
const MAX_FRAMES: usize = 1_024;

/// Most encoded bytes of frames in one `RefereeToSeats`, well under any message size limit
/// worth configuring on bot-host.
const MAX_BATCH_BYTES: usize = 256 * 1024;

/// Most of bot-host's messages for one seat waiting for the seat to read them: a seat has at
/// most one request out, so a working bot-host never has more than a few.
const SEAT_QUEUE: usize = 16;

/// One `Seats` stream: the frames to send, and where the frames that come back go.
struct Mux {
    /// The referee's frames. Unbounded, but each of the referee's own seats has at most a few
    /// messages out at once.
    tx: mpsc::UnboundedSender<v1::RefereeSeatFrame>,
    routes: Arc<Routes>,
    next: AtomicU64,
    opened: Instant,
}

/// The seats open on a `Seats` stream, by seat stream number.
#[derive(Default)]
struct Routes {
    seats: Mutex<HashMap<u64, mpsc::Sender<Delivery>>>,
    /// The stream ended or broke: it takes no new seats.
    broken: AtomicBool,
}

impl Routes {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, mpsc::Sender<Delivery>>> {
        self.seats.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// What bot-host said on a `Seats` stream about one seat.
enum Delivery {
    /// A message, and when the stream's reader got it: the seat's clock stops there, not when
    /// the table's task gets round to it.
    Msg(v1::SeatToReferee, Instant),
    /// The seat's stream ended: OK, or the status a `Seat` stream would have ended with.
    End(Ended),
}

/// How a seat stream ended or failed, as bot-host or the stream said: a gRPC code and why.
#[derive(Clone, Debug)]
struct Ended {
    code: tonic::Code,
    message: String,
}

impl Ended {
    fn new(code: tonic::Code, message: impl Into<String>) -> Ended {
        Ended {
            code,
            message: message.into(),
        }
    }

    fn code(&self) -> tonic::Code {
        self.code
    }

    fn message(&self) -> &str {
        &self.message
    }
}

impl Mux {
    /// Opens a `Seats` stream over `channel`; `None` when bot-host does not serve it.
    async fn start(
        channel: Channel,
        runtime: Option<&Handle>,
        deadline: Instant,
        timeout: Duration,
        token: Option<&arena_auth::Secret>,
    ) -> Result<Option<Mux>, SeatFailure> {
        let (tx, rx) = mpsc::unbounded_channel();
        let frames = arena_proto::coalesce::Batched::new(
            UnboundedReceiverStream::new(rx).map(Ok::<_, Infallible>),
            MAX_FRAMES,
            MAX_BATCH_BYTES,
        )
        .map(|batch| v1::RefereeToSeats {
            frames: batch.unwrap_or_else(|never| match never {}),
        });
        let mut request = tonic::Request::new(frames);
        arena_auth::Bearer::new(token).apply(request.metadata_mut());
        let mut client = SeatHostClient::new(channel);
        let inbound = match tokio::time::timeout_at(deadline, client.seats(request)).await {
            Err(_) => {
                return Err(SeatFailure::Platform(format!(
                    "bot-host did not answer the seats stream within {} ms",
                    timeout.as_millis()
                )));
            }
            Ok(Err(status)) if status.code() == tonic::Code::Unimplemented => return Ok(None),
            Ok(Err(status)) => return Err(refused(&status)),
            Ok(Ok(r)) => r.into_inner(),
        };
        let routes = Arc::new(Routes::default());
        let reader = deliver(inbound, Arc::clone(&routes));
        match runtime {
            Some(r) => drop(r.spawn(reader)),
            None => drop(tokio::spawn(reader)),
        }
        Ok(Some(Mux {
            tx,
            routes,
            next: AtomicU64::new(1),
            opened: Instant::now(),
        }))
    }

    /// Whether new seats may take this stream.
    fn takes_seats(&self) -> bool {
        !self.routes.broken.load(Ordering::Acquire) && self.opened.elapsed() < SEATS_STREAM_TERM
    }
}

/// Hands each frame bot-host sends to its seat, until the stream ends; then tells every seat
/// still open how it ended (the platform's failure: the seat is opened again).
async fn deliver(mut inbound: tonic::Streaming<v1::SeatsToReferee>, routes: Arc<Routes>) {
    let ended = loop {
        match inbound.message().await {
            Ok(Some(batch)) => {
                let arrived = Instant::now();
                let mut seats = routes.lock();
                for frame in batch.frames {
                    let id = frame.seat_stream;
                    let Some(seat) = seats.get(&id) else {
                        // A seat this referee gave up on.
                        continue;
                    };
                    if let Some(msg) = frame.msg
                        && seat.try_send(Delivery::Msg(msg, arrived)).is_err()
                    {
                        // Full (bot-host said far more than a seat asks for) or gone: the seat
                        // sees its stream end, the platform's failure.
                        seats.remove(&id);
                        continue;
                    }
                    if let Some(end) = frame.end {
                        let status = Ended::new(
                            tonic::Code::from_i32(end.code),
                            arena_proto::text::cut(&end.message),
                        );
                        let _ = seat.try_send(Delivery::End(status));
                        seats.remove(&id);
                    }
                }
            }
            Ok(None) => {
                break Ended::new(tonic::Code::Unavailable, "bot-host ended the seats stream");
            }
            Err(status) => {
                break Ended::new(
                    status.code(),
                    format!(
                        "the seats stream to bot-host failed: {}",
                        arena_proto::text::cut(status.message())
                    ),
                );
            }
        }
    };
    routes.broken.store(true, Ordering::Release);
    let seats = std::mem::take(&mut *routes.lock());
    for seat in seats.into_values() {
        let _ = seat.try_send(Delivery::End(ended.clone()));
    }
}

/// The referee's side of one seat stream: on a stream of its own, or on a `Seats` stream.
enum SeatSend {
    Stream(mpsc::Sender<v1::RefereeToSeat>),
    Shared(SharedSend),
}

impl SeatSend {
    async fn send(&self, msg: v1::RefereeToSeat) -> Result<(), ()> {
        match self {
            SeatSend::Stream(tx) => tx.send(msg).await.map_err(|_| ()),
            SeatSend::Shared(s) => s.send(Some(msg), false),
        }
    }
}

/// A seat stream on a `Seats` stream. Dropped, it ends the referee's side (bot-host hears it
/// as a `Seat` stream whose requests end) and forgets the seat.
struct SharedSend {
    mux: Arc<Mux>,
    id: u64,
}

impl SharedSend {
    fn send(&self, msg: Option<v1::RefereeToSeat>, end: bool) -> Result<(), ()> {
        self.mux
            .tx
            .send(v1::RefereeSeatFrame {
                seat_stream: self.id,
                msg,
                end,
                traceparent: String::new(),
            })
            .map_err(|_| ())
    }
}

impl Drop for SharedSend {
    fn drop(&mut self) {
        let _ = self.send(None, true);
        self.mux.routes.lock().remove(&self.id);
    }
}

/// What bot-host says about one seat.
enum SeatRecv {
    Stream(Box<tonic::Streaming<v1::SeatToReferee>>),
    Shared(mpsc::Receiver<Delivery>),
}

impl SeatRecv {
    /// The next message; `None` once bot-host ended the seat's stream with OK. Cancel-safe.
    async fn message(&mut self) -> Result<Option<v1::SeatToReferee>, Ended> {
        Ok(self.message_at().await?.map(|(m, _)| m))
    }

    /// The next message and when it arrived: on a `Seats` stream, when its reader got it;
    /// on a stream of the seat's own, when it is read here. Cancel-safe.
    async fn message_at(&mut self) -> Result<Option<(v1::SeatToReferee, Instant)>, Ended> {
        match self {
            SeatRecv::Stream(s) => match s.message().await {
                Ok(m) => Ok(m.map(|m| (m, Instant::now()))),
                Err(st) => Err(Ended::new(st.code(), st.message())),
            },
            SeatRecv::Shared(rx) => match rx.recv().await {
                Some(Delivery::Msg(m, at)) => Ok(Some((m, at))),
                Some(Delivery::End(status)) if status.code() == tonic::Code::Ok => Ok(None),
                Some(Delivery::End(status)) => Err(status),
                None => Err(Ended::new(
                    tonic::Code::Unavailable,
                    "the seats stream to bot-host dropped the seat",
                )),
            },
        }
    }
}

/// A fixed list of bot-host addresses with one lazily connected channel each (HTTP/2 carries
/// every stream to a host on one connection). A seat goes to the address picked by a hash of
/// its table id and seat, so a table's seats spread over the hosts.
#[derive(Default)]
pub struct BotHosts {
    addrs: Vec<String>,
    links: Mutex<HashMap<String, SeatLink>>,
    per_seat: bool,
    /// The runtime the hosts were made on: every link (its connection, its streams' readers)
    /// is made there, even when a task on another runtime asks for it first.
    runtime: Option<Handle>,
}

impl BotHosts {
    /// Hosts at `addrs` (`http://host:port` or `host:port`). Fails naming the first address
    /// that is not a valid URI.
    pub fn new(addrs: &[String]) -> Result<BotHosts, DialError> {
        let hosts = BotHosts {
            addrs: addrs.iter().map(|a| normalise(a)).collect(),
            links: Mutex::new(HashMap::new()),
            per_seat: false,
            runtime: Handle::try_current().ok(),
        };
        for a in &hosts.addrs {
            hosts.link(a)?;
        }
        Ok(hosts)
    }

    /// The same hosts, every seat on a `Seat` stream of its own ([`SeatLink::per_seat`]), as
    /// referees did before `Seats`: to compare the two, or for a proxy that cannot carry it.
    pub fn per_seat(self) -> BotHosts {
        // The links made so far were only to check the addresses; they are made again.
        BotHosts {
            links: Mutex::default(),
            per_seat: true,
            ..self
        }
    }

    /// The configured addresses (normalised to `http://…`).
    pub fn addrs(&self) -> &[String] {
        &self.addrs
    }

    /// The link to `addr`, created on first use and shared afterwards.
    pub fn link(&self, addr: &str) -> Result<SeatLink, DialError> {
        let addr = normalise(addr);
        let mut map = self.links.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(l) = map.get(&addr) {
            return Ok(l.clone());
        }
        // The channel spawns its connection's tasks on the runtime it is made in.
        let _on = self.runtime.as_ref().map(Handle::enter);
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
        let link = if self.per_seat {
            SeatLink::per_seat(c)
        } else {
            SeatLink::new(c)
        };
        map.insert(addr, link.clone());
        Ok(link)
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
    ) -> Result<SeatLink, DialError> {
        match BotHosts::pick(&self.addrs, table_id, seat) {
            Some(addr) => self.link(addr),
            None => Err(DialError::NoHost(format!(
                "no bot-host address is configured to reach bot {bot:?}"
            ))),
        }
    }
}

/// An open seat stream to bot-host.
pub struct RemoteSeat {
    table_id: String,
    tx: SeatSend,
    rx: SeatRecv,
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
    let whole = if f.reason.is_empty() {
        "bot-host gave up on the bot"
    } else {
        f.reason.as_str()
    };
    if f.platform {
        return SeatFailure::Platform(arena_proto::text::cut(whole));
    }
    let kind = match v1::VerdictKind::try_from(f.kind) {
        Ok(v1::VerdictKind::Unspecified) | Err(_) => v1::VerdictKind::Disconnected,
        Ok(k) => k,
    };
    // The reason is cut for every seat to read; the whole report (a crash's stderr tail, which
    // only bot-host's log had) stays in the verdict's detail.
    SeatFailure::Bot(Fault::reported(kind, whole))
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

/// How late past a seat's hard cap a table may find that it ran out and still blame the bot.
/// On a runtime that is not starved a timer fires within a millisecond or so; a table that
/// notices much later (its runtime's threads held up, as a referee's idle-priority background
/// threads are on a busy machine) cannot tell whether the answer is waiting unread, so the
/// platform, not the bot, has failed: the seat is asked again.
const STALL_ALLOWANCE: Duration = Duration::from_millis(100);

/// The answer of a seat silent until its hard cap `cap`: no answer, or, when bot-host noted why
/// the bot is silent on the request, a timeout saying so (the reason cut for every seat to read,
/// the whole note in the verdict's detail).
fn no_answer<A>(cap: Duration, note: Option<&str>) -> Answer<A> {
    match note {
        None => Answer::NoAnswer,
        Some(why) => Answer::Fault(crate::table::timeout_at_cap(cap, why)),
    }
}

impl RemoteSeat {
    /// Opens the seat through `link` (on its `Seats` stream, or a `Seat` stream of its own
    /// when bot-host serves no `Seats`) and waits up to `timeout` for bot-host to report the
    /// seat ready, counted again from each `SeatWaiting`, but never past `latest` when given.
    /// Failures are the seat's faults.
    pub async fn open(
        link: SeatLink,
        open: v1::SeatOpen,
        timeout: Duration,
        latest: Option<Instant>,
        token: Option<&arena_auth::Secret>,
    ) -> Result<RemoteSeat, SeatFailure> {
        let deadline = Instant::now() + timeout;
        let table_id = open.table_id.clone();
        let mux = {
            let mut shared = link.shared.lock().await;
            match &shared.current {
                _ if shared.unsupported => None,
                Some(m) if m.takes_seats() => Some(Arc::clone(m)),
                _ => match Mux::start(
                    link.channel.clone(),
                    link.runtime.as_ref(),
                    deadline,
                    timeout,
                    token,
                )
                .await?
                {
                    Some(m) => {
                        let m = Arc::new(m);
                        shared.current = Some(Arc::clone(&m));
                        Some(m)
                    }
                    None => {
                        shared.unsupported = true;
                        None
                    }
                },
            }
        };
        let (tx, rx) = match mux {
            Some(mux) => {
                let traceparent = arena_telemetry::current_traceparent().unwrap_or_default();
                let open = v1::RefereeToSeat {
                    msg: Some(v1::referee_to_seat::Msg::Open(open)),
                };
                let (deliver, rx) = mpsc::channel(SEAT_QUEUE);
                // Numbered and sent under the lock: bot-host takes a number below one it has
                // seen for a late frame, so the opens must leave in the order of their numbers.
                let mut routes = mux.routes.lock();
                let id = mux.next.fetch_add(1, Ordering::Relaxed);
                routes.insert(id, deliver);
                let sent = mux.tx.send(v1::RefereeSeatFrame {
                    seat_stream: id,
                    msg: Some(open),
                    end: false,
                    traceparent,
                });
                drop(routes);
                let send = SharedSend { mux, id };
                if sent.is_err() {
                    return Err(SeatFailure::Platform(
                        "the seats stream to bot-host closed before the seat opened".into(),
                    ));
                }
                (SeatSend::Shared(send), SeatRecv::Shared(rx))
            }
            None => Self::open_stream(link.channel, open, deadline, timeout, token).await?,
        };
        let mut seat = RemoteSeat {
            table_id,
            tx,
            rx,
            ready: v1::SeatReady::default(),
            held: 0,
        };
        seat.ready = seat.wait_ready(deadline, timeout, latest).await?;
        Ok(seat)
    }

    /// A `Seat` stream of its own, `open` sent on it.
    async fn open_stream(
        channel: Channel,
        open: v1::SeatOpen,
        deadline: Instant,
        timeout: Duration,
        token: Option<&arena_auth::Secret>,
    ) -> Result<(SeatSend, SeatRecv), SeatFailure> {
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
        Ok((
            SeatSend::Stream(tx),
            SeatRecv::Stream(Box::new(response.into_inner())),
        ))
    }

    /// Waits until `deadline` for `SeatReady`; each `SeatWaiting` (the seat's bot is busy with
    /// as many tables as it takes at once) moves the deadline to `timeout` from then, up to
    /// `latest`.
    async fn wait_ready(
        &mut self,
        mut deadline: Instant,
        timeout: Duration,
        latest: Option<Instant>,
    ) -> Result<v1::SeatReady, SeatFailure> {
        loop {
            let msg = match tokio::time::timeout_at(deadline, self.rx.message()).await {
                Err(_) => {
                    return Err(SeatFailure::Bot(disconnected(format!(
                        "bot-host neither reported the seat ready nor said it was waiting for \
                         the bot within {} ms",
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
                Some(v1::seat_to_referee::Msg::Ready(ready)) => return Ok(ready),
                Some(v1::seat_to_referee::Msg::Fault(f)) => return Err(seat_fault(f)),
                Some(v1::seat_to_referee::Msg::Waiting(w)) => {
                    tracing::debug!(table = %self.table_id, reason = %arena_proto::text::cut(&w.reason), "seat waiting");
                    let later = Instant::now() + timeout;
                    deadline = latest.map_or(later, |l| later.min(l));
                }
                Some(v1::seat_to_referee::Msg::Reply(_) | v1::seat_to_referee::Msg::Note(_))
                | None => {
                    tracing::debug!(table = %self.table_id, "ignoring a message before the seat was ready");
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
        // Why bot-host says the bot is silent on this request (`SeatNote`), for the timeout.
        let mut note: Option<String> = None;
        loop {
            let (msg, arrived) = match tokio::time::timeout_at(deadline, self.rx.message_at()).await
            {
                Err(_) => {
                    let late = Instant::now().saturating_duration_since(deadline);
                    if late > STALL_ALLOWANCE {
                        return (
                            Answer::Platform(format!(
                                "the referee ran this table {} ms after its seat's hard cap: an answer may be waiting unread",
                                late.as_millis()
                            )),
                            hard_cap,
                        );
                    }
                    if stale > 0 {
                        tracing::info!(table = %self.table_id, request = id, stale, "timed out after replies to other requests");
                    }
                    return (no_answer(hard_cap, note.as_deref()), hard_cap);
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
            // From the request's sending to the answer's arrival, wherever this task then was.
            let elapsed = arrived.saturating_duration_since(start);
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
                Some(v1::seat_to_referee::Msg::Note(n)) if n.request_id == id => {
                    // Bounded: a hostile bot-host could send anything.
                    note = Some(n.note.chars().take(arena_proto::text::NOTE_CHARS).collect());
                }
                Some(v1::seat_to_referee::Msg::Note(n)) => {
                    tracing::debug!(table = %self.table_id, expected = id, got = n.request_id, "ignoring a note on another request");
                }
                Some(v1::seat_to_referee::Msg::Ready(_) | v1::seat_to_referee::Msg::Waiting(_))
                | None => {}
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
        // Dropping the sender ends the referee's side.
        drop(self.tx);
        let drain = async { while let Ok(Some(_)) = self.rx.message().await {} };
        let _ = tokio::time::timeout(timeout, drain).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crash_report_is_cut_for_the_reason_and_kept_whole_in_the_detail() {
        let whole = format!(
            "the program exited before answering (exit code 1); its limits: CPU time 60 s; \
             its stderr ended with: {:?}",
            "Traceback: ZeroDivisionError in decide()"
        );
        let SeatFailure::Bot(f) = seat_fault(v1::SeatFault {
            kind: v1::VerdictKind::Crashed as i32,
            reason: whole.clone(),
            platform: false,
        }) else {
            panic!("a bot's fault");
        };
        assert_eq!(f.kind, v1::VerdictKind::Crashed);
        assert_eq!(f.reason, arena_proto::text::cut(&whole));
        assert!(f.reason.starts_with("the program exited before answering"));
        assert_eq!(f.detail, whole, "the stderr tail reaches the verdict");
        // A short report needs no detail; a huge one is bounded.
        let SeatFailure::Bot(f) = seat_fault(v1::SeatFault {
            kind: v1::VerdictKind::Crashed as i32,
            reason: "it exited".into(),
            platform: false,
        }) else {
            panic!("a bot's fault");
        };
        assert_eq!((f.reason.as_str(), f.detail.as_str()), ("it exited", ""));
        let SeatFailure::Bot(f) = seat_fault(v1::SeatFault {
            kind: v1::VerdictKind::Crashed as i32,
            reason: "x".repeat(100_000),
            platform: false,
        }) else {
            panic!("a bot's fault");
        };
        assert_eq!(f.detail.chars().count(), crate::DETAIL_CHARS);
    }

    /// Asks one seat on a scripted bot-host that answers with an empty action (or never, when
    /// not `answers`) for a decision within
    /// `hard_cap` from a table runtime of one thread, which is held `busy` right after the
    /// request goes out: the answer, its time and how long the request really took. The
    /// bot-host answers only once the hold has begun (at once when nothing holds it), so the
    /// answer cannot beat the hold however the runtime schedules the two tasks.
    fn decide_on_a_busy_runtime(
        answers: bool,
        hard_cap: Duration,
        busy: Duration,
    ) -> (Answer<()>, Duration, Duration) {
        let main = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let go = Arc::new(tokio::sync::Notify::new());
        let held = go.clone();
        let script = scripted::on_requests(move |request_id| {
            let reply = v1::DecisionReply {
                request_id,
                action: Some(v1::Action::default()),
                ..Default::default()
            };
            if answers {
                vec![v1::seat_to_referee::Msg::Reply(reply)]
            } else {
                Vec::new()
            }
        });
        let hosts = main.block_on(scripted::serve_gated(script, Some(go)));
        let link = hosts.link(&hosts.addrs()[0].clone()).unwrap();
        let table = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let decided = table.spawn(async move {
            let open = v1::SeatOpen {
                table_id: "t".into(),
                bot: "b".into(),
                ..Default::default()
            };
            let mut seat = RemoteSeat::open(link, open, Duration::from_secs(10), None, None)
                .await
                .unwrap_or_else(|_| panic!("the seat opens"));
            // Spawned from this runtime's one worker, it runs as soon as this task waits for
            // the answer, and holds the thread meanwhile.
            if busy.is_zero() {
                held.notify_one();
            } else {
                tokio::spawn(async move {
                    held.notify_one();
                    std::thread::sleep(busy)
                });
            }
            let sent = std::time::Instant::now();
            let request = v1::DecisionRequest {
                request_id: 1,
                ..Default::default()
            };
            let (answer, elapsed) = seat.decide::<()>(request, hard_cap).await;
            (answer, elapsed, sent.elapsed())
        });
        let decided = main.block_on(decided).unwrap();
        table.shutdown_background();
        main.shutdown_background();
        decided
    }

    /// A referee's background table runs on a runtime of its own that may be busy when its
    /// answer comes: the answer's time is when the link's reader (on the runtime the link was
    /// made on) got it, not when the table's task next ran. Here the table's only thread is
    /// kept busy for 2 s right after the request goes out; the bot answers at once.
    #[test]
    fn an_answer_is_timed_at_its_arrival_not_when_the_seats_task_next_runs() {
        const BUSY: Duration = Duration::from_secs(2);
        let (answer, elapsed, waited) =
            decide_on_a_busy_runtime(true, Duration::from_secs(30), BUSY);
        assert!(matches!(answer, Answer::Message(_)));
        assert!(
            waited >= BUSY,
            "the table's thread was not held: {waited:?}"
        );
        assert!(
            elapsed < BUSY / 2,
            "the seat was charged {elapsed:?} for an answer sent at once"
        );
    }

    /// A table whose runtime was held up past its seat's hard cap cannot know whether an
    /// answer is waiting unread: the platform failed, not the bot. A silent bot on a runtime
    /// that runs on time still times out.
    #[test]
    fn a_hard_cap_noticed_long_after_it_passed_is_the_platforms_failure_not_the_bots() {
        let cap = Duration::from_millis(200);
        let (stalled, _, waited) = decide_on_a_busy_runtime(false, cap, Duration::from_secs(2));
        assert!(waited >= Duration::from_secs(2), "not held: {waited:?}");
        assert!(
            matches!(&stalled, Answer::Platform(why) if why.contains("after its seat's hard cap")),
            "{stalled:?}"
        );
        let (on_time, elapsed, _) = decide_on_a_busy_runtime(false, cap, Duration::ZERO);
        assert!(matches!(on_time, Answer::NoAnswer), "{on_time:?}");
        assert_eq!(elapsed, cap);
    }
}

/// A bot-host for tests, serving `Seats`, that answers each of the referee's messages as a
/// script says: at once, or, for an answer to a request, once its gate has been notified.
#[cfg(test)]
pub(crate) mod scripted {
    use super::*;
    use arena_proto::v1::referee_to_seat::Msg as ToSeat;
    use arena_proto::v1::seat_host_server::{SeatHost, SeatHostServer};
    use arena_proto::v1::seat_to_referee::Msg;
    use std::pin::Pin;
    use tokio_stream::Stream;
    use tonic::{Request, Response, Status, Streaming};

    /// What the bot-host says to a message of the referee, in order.
    pub(crate) type Script = Arc<dyn Fn(&ToSeat) -> Vec<Msg> + Send + Sync>;

    /// A script whose seats are ready at once and say `answer(request_id)` to each request.
    pub(crate) fn on_requests(answer: impl Fn(u64) -> Vec<Msg> + Send + Sync + 'static) -> Script {
        Arc::new(move |m| match m {
            ToSeat::Open(_) => vec![Msg::Ready(v1::SeatReady::default())],
            ToSeat::Request(r) => answer(r.request_id),
            ToSeat::Close(_) => Vec::new(),
        })
    }

    struct Scripted {
        script: Script,
        /// Notified once per answered request before its answer goes out (a test says when
        /// the table's thread is held, so the answer surely arrives while it is).
        gate: Option<Arc<tokio::sync::Notify>>,
    }

    type Out<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

    #[tonic::async_trait]
    impl SeatHost for Scripted {
        type SeatStream = Out<v1::SeatToReferee>;
        type SeatsStream = Out<v1::SeatsToReferee>;

        async fn seat(
            &self,
            _: Request<Streaming<v1::RefereeToSeat>>,
        ) -> Result<Response<Self::SeatStream>, Status> {
            Err(Status::unimplemented("Seats only"))
        }

        async fn seats(
            &self,
            request: Request<Streaming<v1::RefereeToSeats>>,
        ) -> Result<Response<Self::SeatsStream>, Status> {
            let mut inbound = request.into_inner();
            let script = Arc::clone(&self.script);
            let gate = self.gate.clone();
            let (tx, rx) = mpsc::channel(16);
            tokio::spawn(async move {
                while let Ok(Some(batch)) = inbound.message().await {
                    for frame in batch.frames {
                        let Some(msg) = frame.msg.and_then(|m| m.msg) else {
                            continue;
                        };
                        let said = script(&msg);
                        if let (Some(gate), ToSeat::Request(_)) = (&gate, &msg)
                            && !said.is_empty()
                        {
                            gate.notified().await;
                        }
                        let out = v1::SeatsToReferee {
                            frames: said
                                .into_iter()
                                .map(|m| v1::HostSeatFrame {
                                    seat_stream: frame.seat_stream,
                                    msg: Some(v1::SeatToReferee { msg: Some(m) }),
                                    end: None,
                                })
                                .collect(),
                        };
                        if tx.send(Ok(out)).await.is_err() {
                            return;
                        }
                    }
                }
            });
            Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
        }
    }

    /// Serves `script` on a free local port; the bot-hosts to reach it.
    pub(crate) async fn serve(script: Script) -> BotHosts {
        serve_gated(script, None).await
    }

    /// [`serve`], each answer to a request held until `gate` is notified.
    pub(crate) async fn serve_gated(
        script: Script,
        gate: Option<Arc<tokio::sync::Notify>>,
    ) -> BotHosts {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(
            tonic::transport::Server::builder()
                .add_service(SeatHostServer::new(Scripted { script, gate }))
                .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
        );
        BotHosts::new(&[addr.to_string()]).unwrap()
    }
}

/// `SeatNote`: why bot-host says a bot is silent reaches the timeout of its own request only.
#[cfg(test)]
mod notes {
    use super::scripted::{Script, on_requests, serve};
    use super::*;
    use arena_proto::v1::seat_to_referee::Msg;

    fn note(request_id: u64, text: &str) -> Msg {
        Msg::Note(v1::SeatNote {
            request_id,
            note: text.into(),
        })
    }

    fn reply(request_id: u64) -> Msg {
        Msg::Reply(v1::DecisionReply {
            request_id,
            action: Some(v1::Action::default()),
            ..Default::default()
        })
    }

    /// Room for the script's messages, sent the moment the request is read, to arrive on a
    /// loaded machine: the hard cap is what the test waits for when no answer comes.
    const CAP: Duration = Duration::from_millis(1500);

    /// Opens one seat on a bot-host following `script` and asks it requests `ids` in turn,
    /// each within [`CAP`]: the answers.
    async fn ask(script: Script, ids: &[u64]) -> Vec<Answer<()>> {
        let hosts = serve(script).await;
        let link = hosts.link(&hosts.addrs()[0].clone()).unwrap();
        let open = v1::SeatOpen {
            table_id: "t".into(),
            bot: "b".into(),
            ..Default::default()
        };
        let mut seat = RemoteSeat::open(link, open, Duration::from_secs(10), None, None)
            .await
            .unwrap_or_else(|_| panic!("the seat opens"));
        let mut answers = Vec::new();
        for &id in ids {
            let request = v1::DecisionRequest {
                request_id: id,
                ..Default::default()
            };
            let (answer, elapsed) = seat.decide::<()>(request, CAP).await;
            if !matches!(answer, Answer::Message(_)) {
                assert_eq!(
                    elapsed, CAP,
                    "judged at the hard cap, not earlier: {answer:?}"
                );
            }
            answers.push(answer);
        }
        answers
    }

    const WHY: &str = "it never ended its turn";

    #[tokio::test]
    async fn a_note_on_the_open_request_ends_its_timeout_at_the_hard_cap() {
        let answers = ask(on_requests(|id| vec![note(id, WHY)]), &[1]).await;
        let Answer::Fault(f) = &answers[0] else {
            panic!("{answers:?}");
        };
        assert_eq!(f.kind, v1::VerdictKind::Timeout);
        assert_eq!(
            f.reason,
            format!("no answer within the hard cap of 1500 ms: {WHY}")
        );
    }

    #[tokio::test]
    async fn a_note_on_another_request_changes_nothing() {
        // A late note for the last request, and one for a request not asked yet.
        let answers = ask(
            on_requests(|id| vec![note(id - 1, WHY), note(id + 1, WHY)]),
            &[5],
        )
        .await;
        assert_eq!(answers, [Answer::NoAnswer]);
    }

    #[tokio::test]
    async fn an_answer_in_time_clears_the_note_and_the_next_request_starts_without_one() {
        // Request 1: noted, then answered. Request 2: silent, noted for request 1 only.
        let answers = ask(
            on_requests(|id| match id {
                1 => vec![note(1, WHY), reply(1)],
                _ => vec![note(1, "stale")],
            }),
            &[1, 2],
        )
        .await;
        assert!(matches!(answers[0], Answer::Message(_)), "{answers:?}");
        assert_eq!(answers[1], Answer::NoAnswer);
    }

    #[tokio::test]
    async fn the_last_note_counts_and_a_huge_one_is_bounded() {
        let huge = "x".repeat(100_000);
        let last = huge.clone();
        let answers = ask(
            on_requests(move |id| vec![note(id, WHY), note(id, &last)]),
            &[3],
        )
        .await;
        let Answer::Fault(f) = &answers[0] else {
            panic!("{answers:?}");
        };
        assert!(
            f.reason
                .starts_with("no answer within the hard cap of 1500 ms: xxx"),
            "{}",
            f.reason
        );
        assert!(f.reason.chars().count() <= arena_proto::text::QUOTE_CHARS + 1);
        assert!(!f.detail.contains(WHY), "the last note counts");
        // The detail holds the note up to what a referee keeps, and no more than any detail.
        let kept = f.detail.matches('x').count();
        assert!(
            kept <= arena_proto::text::NOTE_CHARS && kept > 100,
            "{kept} of the note kept"
        );
        assert!(f.detail.chars().count() <= crate::DETAIL_CHARS);
    }
}
