//! The hub of remote bots: which bot is connected on which session, the seats each session
//! plays, the requests waiting for an answer, and the seats waiting for a slot.
//!
//! One [`Session`] per registered remote bot at most. A session outlives its connection by the
//! grace period: a bot that reconnects with `resume_session` gets it back with every pending
//! request; when the grace runs out, every seat of the session gets `SeatFault{DISCONNECTED}`.
//!
//! All state sits behind one mutex that is never held across an `.await`. Messages to a bot
//! leave through its [`Outbox`](crate::outbox::Outbox), bounded: a bot that stops reading is cut
//! off. A bot's reply goes straight to its referee's stream (the seat's outbox, bounded like a
//! bot's), without waking the seat's task; what the hub tells a seat task leaves through an
//! unbounded channel, bounded in practice: at most one fault.
//!
//! A bot's capacity (`Hello.capacity`) counts tables, not seats: a bot in both farmer seats of
//! one table uses one slot.
//!
//! A bot whose `Hello` asks for incremental observations gets, after a seat's first request on
//! its connection, only the events since that seat's previous request
//! ([`arena_proto::incremental`]). The session keeps, per (table, seat) as the bot keys its
//! histories, how many events the bot holds and which seat stream sent them: a table played
//! twice at once (a redelivery overlapping a run that has not noticed yet) has two streams for
//! one seat, and a stream whose count is not the bot's latest sends its request whole. A
//! connection that replaces the last starts from the whole requests of `Welcome.resumed`.
//!
//! The referee's requests may be incremental too, per seat stream
//! (`SeatReady.incremental_observations`): each seat keeps its stream's events
//! ([`arena_proto::incremental::SeatEvents`]) and its unanswered requests without theirs, so a
//! request is copied whole only for a bot that asked for whole observations, a stream the bot
//! does not hold, or a resume.
//!
//! A bot that sends `Drain` is stopping: its session takes no new table, and once its last
//! table has ended the session is over and its stream ends with OK ([`Hub::drain`]).

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use arena_games::GameKind;
use arena_proto::v1;
use arena_serve::ApiError;
use arena_store::Store;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tonic::Status;

use crate::config::wire_ms;

/// Messages to a remote bot's stream.
pub(crate) type BotTx = crate::outbox::Outbox<v1::HostToBot>;

/// What the hub tells a seat task.
#[derive(Debug)]
pub(crate) enum SeatEvent {
    /// The hub gave up on the bot.
    Fault(v1::SeatFault),
}

/// A seat bound to a session.
struct SeatLink {
    table_id: String,
    seat: u32,
    tx: mpsc::UnboundedSender<SeatEvent>,
    /// The referee's stream, where the bot's replies go.
    out: crate::seat_io::SeatTx,
    /// The seat's events as the stream's requests carried them (whole, or in increments):
    /// the requests themselves are kept without theirs.
    history: arena_proto::incremental::SeatEvents,
    /// Requests sent to the bot and not answered yet, by request id.
    pending: BTreeMap<u64, Asked>,
}

/// A request sent to a bot and not answered yet.
struct Asked {
    /// The request without its events: made whole from the seat's history when resent on
    /// resume.
    request: v1::DecisionRequest,
    /// How many of the seat's events it saw.
    through: usize,
    /// When it went to a connected bot (for the relay's latency).
    at: Option<std::time::Instant>,
}

impl SeatLink {
    /// `asked`'s request, whole.
    fn whole(&self, asked: &Asked) -> v1::DecisionRequest {
        let mut r = asked.request.clone();
        self.history.fill(&mut r, 0, asked.through);
        r
    }
}

/// What a session keeps of one table it plays, for its requests and replies.
#[derive(Default)]
struct TableRoutes {
    /// Request id → seat ticket, for routing replies.
    replies: HashMap<u64, u64>,
    /// By seat: (the ticket whose request went last, how many events it held): what the bot
    /// holds of that seat's events on its current connection, when it asked for incremental
    /// observations.
    held: Vec<Option<(u64, usize)>>,
}

impl TableRoutes {
    fn held_mut(&mut self, seat: u32) -> &mut Option<(u64, usize)> {
        let i = seat as usize;
        if self.held.len() <= i {
            self.held.resize(i + 1, None);
        }
        &mut self.held[i]
    }
}

/// The live connection of a session.
struct Conn {
    id: u64,
    tx: BotTx,
    cancel: CancellationToken,
}

/// A remote bot's session on this host.
struct Session {
    id: String,
    release: String,
    capacity: usize,
    /// The games the bot's `Hello` listed (of its latest connection): it is seated at no
    /// other game's table.
    games: Vec<GameKind>,
    /// The bot's latest `Hello` asked for incremental observations.
    incremental: bool,
    conn: Option<Conn>,
    /// When the connection was lost (meaningful while `conn` is `None`).
    unconnected_since: Instant,
    seats: HashMap<u64, SeatLink>,
    /// By table id, while a seat of the session is at it: where replies go and what the bot
    /// holds (keyed by table so that a request or reply allocates no key of its own).
    routes: HashMap<String, TableRoutes>,
    /// The bot sent `Drain` on its current connection: no new table, and the session ends
    /// when its last one does.
    draining: bool,
}

impl Session {
    fn send(&self, msg: v1::host_to_bot::Msg) {
        if let Some(c) = &self.conn {
            c.tx.send(v1::HostToBot { msg: Some(msg) });
        }
    }

    /// The tables this session's seats are at.
    fn tables(&self) -> std::collections::HashSet<&str> {
        self.seats.values().map(|s| s.table_id.as_str()).collect()
    }

    /// Ends the session: every seat gets a fault, the connection (if any) is closed.
    fn end(self, fault: &v1::SeatFault, status: Option<Status>) {
        for seat in self.seats.into_values() {
            let _ = seat.tx.send(SeatEvent::Fault(fault.clone()));
        }
        if let Some(c) = self.conn {
            if let Some(s) = status {
                c.tx.fail(s);
            }
            c.cancel.cancel();
        }
    }
}

/// One registered remote bot as this host knows it.
struct BotEntry {
    session: Option<Session>,
    /// Seat tickets waiting for a slot, first come first served.
    waiting: VecDeque<u64>,
    /// Bumped on every change that may let a waiting seat in.
    changed: watch::Sender<()>,
}

impl BotEntry {
    fn new() -> BotEntry {
        BotEntry {
            session: None,
            waiting: VecDeque::new(),
            changed: watch::Sender::new(()),
        }
    }

    fn notify(&self) {
        self.changed.send_replace(());
    }
}

/// A new connection's place in the hub, see [`Hub::connect`].
pub(crate) struct Connected {
    /// Identifies the connection in later calls.
    pub conn_id: u64,
    /// The session id given to the bot.
    pub session: String,
    /// Tables in flight handed back on resume.
    pub resumed: usize,
}

/// What a seat needs to join a session, see [`Hub::acquire`].
pub(crate) struct NewSeat {
    /// Unique per seat stream.
    pub ticket: u64,
    /// Told to the bot when the seat gets its slot.
    pub start: v1::TableStart,
    /// The referee's stream, where the bot's replies go.
    pub out: crate::seat_io::SeatTx,
}

/// The seat got a slot: its events, and the release of the bot that sits there.
pub(crate) struct Seated {
    pub events: mpsc::UnboundedReceiver<SeatEvent>,
    pub release: String,
}

/// The remote bots of this host.
pub(crate) struct Hub {
    host: String,
    store: Arc<dyn Store>,
    grace: Duration,
    keepalive: Duration,
    state: Mutex<HashMap<String, BotEntry>>,
    next_id: AtomicU64,
    draining: AtomicBool,
}

fn fault(kind: v1::VerdictKind, reason: String) -> v1::SeatFault {
    v1::SeatFault {
        kind: kind as i32,
        reason,
        platform: false,
    }
}

/// Why `bot`, playing `games`, cannot sit at a table of `game` (a wire name); `None` if it
/// plays it.
fn not_played(bot: &str, games: &[GameKind], game: &str) -> Option<String> {
    let table = GameKind::from_wire(game).ok()?;
    if games.contains(&table) {
        return None;
    }
    let names: Vec<&str> = games.iter().map(|g| g.name()).collect();
    Some(format!(
        "bot {bot:?} plays only {} (what its hello.games listed; none listed means {} only), \
         and this is a {table} table: a bot lists {table} in hello.games to be seated at one",
        names.join(" and "),
        GameKind::default_game(),
    ))
}

/// A fault that is bot-host's, not the bot's (never a verdict).
fn platform_fault(reason: String) -> v1::SeatFault {
    v1::SeatFault {
        kind: v1::VerdictKind::Disconnected as i32,
        reason,
        platform: true,
    }
}

impl Hub {
    /// A hub for the host advertised as `host`.
    pub(crate) fn new(
        host: String,
        store: Arc<dyn Store>,
        grace: Duration,
        keepalive: Duration,
    ) -> Hub {
        Hub {
            host,
            store,
            grace,
            keepalive,
            state: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            draining: AtomicBool::new(false),
        }
    }

    /// A number unique in this hub (connection ids, seat tickets).
    pub(crate) fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, BotEntry>> {
        // A panic while holding the lock cannot leave the maps half-updated in a way that
        // matters more than refusing all further work would.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops the entry of a bot that has no session and no waiting seat.
    fn tidy(bots: &mut HashMap<String, BotEntry>, bot: &str) {
        if bots
            .get(bot)
            .is_some_and(|e| e.session.is_none() && e.waiting.is_empty())
        {
            bots.remove(bot);
        }
    }

    /// Refuses new connections from now on (shutdown).
    pub(crate) fn start_draining(&self, notice: &str) {
        self.draining.store(true, Ordering::SeqCst);
        let bots = self.lock();
        for entry in bots.values() {
            if let Some(s) = &entry.session {
                s.send(v1::host_to_bot::Msg::Notice(v1::Notice {
                    message: notice.to_string(),
                    ..Default::default()
                }));
            }
        }
    }

    /// Registers a connection of `bot` that said `hello` (already authenticated) and plays
    /// `games` (from the hello, checked), and sends it its `Welcome` (and notices) before
    /// anything else can reach it. Capacity is the bot's, capped by `max_tables` when non-zero.
    /// A resumed session keeps its tables whatever games the new hello lists; its new seats
    /// are held to them.
    pub(crate) fn connect(
        self: &Arc<Self>,
        bot: &str,
        hello: &v1::Hello,
        games: Vec<GameKind>,
        max_tables: u32,
        tx: BotTx,
        cancel: CancellationToken,
    ) -> Result<Connected, ApiError> {
        if self.draining.load(Ordering::SeqCst) {
            return Err(ApiError::Unavailable(format!(
                "bot-host {} is shutting down; connect to another instance",
                self.host
            )));
        }
        let mut capacity = usize::try_from(hello.capacity).unwrap_or(usize::MAX);
        if max_tables > 0 {
            capacity = capacity.min(usize::try_from(max_tables).unwrap_or(usize::MAX));
        }
        let conn_id = self.next_id();
        let mut notices = Vec::new();
        let mut bots = self.lock();
        let entry = bots.entry(bot.to_string()).or_insert_with(BotEntry::new);
        let resume = hello.resume_session.trim();
        let resuming = !resume.is_empty() && entry.session.as_ref().is_some_and(|s| s.id == resume);
        if !resuming {
            if let Some(s) = &entry.session
                && s.conn.is_some()
            {
                // The live session's id is not told: whoever holds it may resume that session
                // and take the bot's seats.
                return Err(ApiError::AlreadyExists(format!(
                    "bot {bot:?} is already connected to bot-host {}; a bot connects once and plays \
                     all its tables on one stream (raise hello.capacity for more); to replace a \
                     dropped connection, present the session id its welcome gave as \
                     hello.resume_session",
                    self.host
                )));
            }
            if !resume.is_empty() {
                notices.push(format!(
                    "session {resume:?} is unknown or has expired (its grace period is over); a new session started"
                ));
            }
            if let Some(old) = entry.session.take() {
                let n = old.seats.len();
                old.end(
                    &fault(
                        v1::VerdictKind::Disconnected,
                        format!(
                            "bot {bot:?} lost its connection to bot-host {} and came back as a new session \
                             without resuming the old one, so its tables in flight were given up",
                            self.host
                        ),
                    ),
                    None,
                );
                if n > 0 {
                    notices.push(format!(
                        "{n} table(s) of your previous session were given up: present hello.resume_session to keep them"
                    ));
                }
            }
            entry.session = Some(Session {
                id: arena_auth::token::session_id(),
                release: String::new(),
                capacity,
                games: Vec::new(),
                incremental: false,
                conn: None,
                unconnected_since: Instant::now(),
                seats: HashMap::new(),
                routes: HashMap::new(),
                draining: false,
            });
        }
        let Some(session) = entry.session.as_mut() else {
            return Err(ApiError::Internal(
                "the session vanished while connecting".into(),
            ));
        };
        if let Some(old) = session.conn.take() {
            old.tx.fail(
                ApiError::Aborted("this session was resumed on another connection".into()).into(),
            );
            old.cancel.cancel();
        }
        session.release = hello.release.clone();
        session.capacity = capacity;
        session.games = games;
        session.incremental = hello.incremental_observations;
        // A (resumed) connection plays until it says `Drain` itself.
        session.draining = false;
        let mut resumed: Vec<(u64, v1::DecisionRequest, usize)> = session
            .seats
            .iter()
            .flat_map(|(ticket, s)| s.pending.values().map(|a| (*ticket, s.whole(a), a.through)))
            .collect();
        resumed.sort_by(|(_, a, _), (_, b, _)| {
            (&a.table_id, a.seat, a.request_id).cmp(&(&b.table_id, b.seat, b.request_id))
        });
        // What the bot holds of each seat's events: the last of the whole requests handed back
        // for it, in the order they go.
        for routes in session.routes.values_mut() {
            routes.held.clear();
        }
        if session.incremental {
            for (ticket, r, through) in &resumed {
                if let Some(routes) = session.routes.get_mut(r.table_id.as_str()) {
                    *routes.held_mut(r.seat) = Some((*ticket, *through));
                }
            }
        }
        let resumed: Vec<v1::DecisionRequest> = resumed.into_iter().map(|(_, r, _)| r).collect();
        let n_resumed = resumed.len();
        let welcome = v1::Welcome {
            session: session.id.clone(),
            bot: bot.to_string(),
            grace_ms: wire_ms(self.grace),
            keepalive_ms: wire_ms(self.keepalive),
            resumed,
        };
        tx.send(v1::HostToBot {
            msg: Some(v1::host_to_bot::Msg::Welcome(welcome)),
        });
        for message in notices {
            tx.send(v1::HostToBot {
                msg: Some(v1::host_to_bot::Msg::Notice(v1::Notice {
                    message,
                    ..Default::default()
                })),
            });
        }
        session.conn = Some(Conn {
            id: conn_id,
            tx,
            cancel,
        });
        let connected = Connected {
            conn_id,
            session: session.id.clone(),
            resumed: n_resumed,
        };
        entry.notify();
        Ok(connected)
    }

    /// The connection `conn_id` of `bot` is gone: its session waits the grace period for a
    /// resume, then faults its seats. Returns false if that connection was no longer current.
    pub(crate) fn detach(self: &Arc<Self>, bot: &str, conn_id: u64) -> bool {
        let mut bots = self.lock();
        let Some(entry) = bots.get_mut(bot) else {
            return false;
        };
        let Some(session) = entry.session.as_mut() else {
            return false;
        };
        if session.conn.as_ref().is_none_or(|c| c.id != conn_id) {
            return false;
        }
        session.conn = None;
        session.unconnected_since = Instant::now();
        let session_id = session.id.clone();
        entry.notify();
        drop(bots);
        let hub = Arc::clone(self);
        let bot = bot.to_string();
        let grace = self.grace;
        tokio::spawn(async move {
            tokio::time::sleep(grace).await;
            hub.expire(&bot, &session_id, conn_id);
        });
        true
    }

    /// The grace period of a session that lost connection `conn_id` is over: if it has not been
    /// resumed since, it ends and its seats get `SeatFault{DISCONNECTED}`. Returns true if it
    /// ended.
    fn expire(&self, bot: &str, session_id: &str, conn_id: u64) -> bool {
        let mut bots = self.lock();
        let Some(entry) = bots.get_mut(bot) else {
            return false;
        };
        // Resumed since (a connection is attached), or replaced by a new session: nothing to do.
        let expired = entry
            .session
            .as_ref()
            .is_some_and(|s| s.id == session_id && s.conn.is_none());
        if !expired {
            return false;
        }
        let Some(session) = entry.session.take() else {
            return false;
        };
        tracing::info!(
            bot,
            session = session_id,
            conn_id,
            tables = session.seats.len(),
            "session expired"
        );
        session.end(
            &fault(
                v1::VerdictKind::Disconnected,
                format!(
                    "bot {bot:?} lost its connection to bot-host {} and did not reconnect within the grace \
                     period of {} ms",
                    self.host,
                    self.grace.as_millis()
                ),
            ),
            None,
        );
        entry.notify();
        Self::tidy(&mut bots, bot);
        drop(bots);
        // The connection ended for good: the bot is no longer here.
        self.clear_presence_later(bot);
        true
    }

    /// Routes a reply from `bot` to the seat whose request it answers. `Err` holds the notice
    /// to send back when no request of that table has that id.
    pub(crate) fn route_reply(&self, bot: &str, reply: v1::DecisionReply) -> Result<(), String> {
        let mut bots = self.lock();
        let unknown = |r: &v1::DecisionReply| {
            format!(
                "no pending request {} at table {}: it was answered already, its table has ended, or it was never sent to you",
                r.request_id,
                arena_proto::text::quote(&r.table_id)
            )
        };
        let Some(session) = bots.get_mut(bot).and_then(|e| e.session.as_mut()) else {
            return Err(unknown(&reply));
        };
        let Some(ticket) = session
            .routes
            .get_mut(reply.table_id.as_str())
            .and_then(|t| t.replies.remove(&reply.request_id))
        else {
            return Err(unknown(&reply));
        };
        let Some(seat) = session.seats.get_mut(&ticket) else {
            return Err(unknown(&reply));
        };
        let since = seat.pending.remove(&reply.request_id).and_then(|a| a.at);
        seat.out.send(v1::SeatToReferee {
            msg: Some(v1::seat_to_referee::Msg::Reply(reply)),
        });
        drop(bots);
        if let Some(since) = since {
            crate::metrics::relayed(crate::metrics::BotKind::Remote, since);
        }
        Ok(())
    }

    /// Waits until `bot` is connected with a free slot and this seat is first in line, then
    /// binds the seat to the session and tells the bot its table started. Gives up with a fault
    /// once the bot has been unconnected for the grace period while the seat waited, and at
    /// once when the connected bot does not play the table's game (its `Hello` did not list
    /// it): the bot's unavailability, a verdict, never the platform's failure (which would
    /// send the table back to be played again, and again). Leaving the wait (dropping the
    /// future) leaves the queue.
    pub(crate) async fn acquire(
        self: &Arc<Self>,
        bot: &str,
        seat: NewSeat,
    ) -> Result<Seated, v1::SeatFault> {
        let ticket = seat.ticket;
        let mut changed = {
            let mut bots = self.lock();
            let entry = bots.entry(bot.to_string()).or_insert_with(BotEntry::new);
            entry.waiting.push_back(ticket);
            entry.changed.subscribe()
        };
        let mut in_line = InLine {
            hub: self,
            bot,
            ticket,
            done: false,
        };
        let start = Instant::now();
        let mut unconnected_since: Option<Instant> = None;
        let mut start_msg = Some(seat.start);
        let out = seat.out;
        loop {
            changed.borrow_and_update();
            {
                let mut bots = self.lock();
                let entry = bots.entry(bot.to_string()).or_insert_with(BotEntry::new);
                let position = entry.waiting.iter().position(|t| *t == ticket).unwrap_or(0);
                match entry.session.as_mut() {
                    Some(s) if s.conn.is_some() => {
                        unconnected_since = None;
                        if let Some(refused) = start_msg
                            .as_ref()
                            .and_then(|m| not_played(bot, &s.games, &m.game))
                        {
                            return Err(fault(v1::VerdictKind::Disconnected, refused));
                        }
                        let table = start_msg.as_ref().map_or("", |m| m.table_id.as_str());
                        let tables = s.tables();
                        // A seat at a table the bot already plays takes no slot of its own.
                        let seated_here = tables.contains(table);
                        // A draining bot finishes its tables and takes no new one.
                        let free = if s.draining {
                            0
                        } else {
                            s.capacity.saturating_sub(tables.len())
                        };
                        drop(tables);
                        if (seated_here || position < free)
                            && let Some(start) = start_msg.take()
                        {
                            entry.waiting.retain(|t| *t != ticket);
                            in_line.done = true;
                            let (tx, rx) = mpsc::unbounded_channel();
                            s.seats.insert(
                                ticket,
                                SeatLink {
                                    table_id: start.table_id.clone(),
                                    seat: start.seat,
                                    tx,
                                    out: out.clone(),
                                    history: Default::default(),
                                    pending: BTreeMap::new(),
                                },
                            );
                            s.send(v1::host_to_bot::Msg::Start(start));
                            return Ok(Seated {
                                events: rx,
                                release: s.release.clone(),
                            });
                        }
                    }
                    Some(s) => {
                        unconnected_since.get_or_insert(start.max(s.unconnected_since));
                    }
                    None => {
                        unconnected_since.get_or_insert(start);
                    }
                }
            }
            match unconnected_since {
                Some(since) => {
                    let deadline = since + self.grace;
                    tokio::select! {
                        r = changed.changed() => if r.is_err() { continue },
                        () = tokio::time::sleep_until(deadline) => {
                            let reconnected = self.lock().get(bot).and_then(|e| e.session.as_ref()).is_some_and(|s| s.conn.is_some());
                            if reconnected {
                                continue;
                            }
                            let had_session = self.lock().get(bot).is_some_and(|e| e.session.is_some());
                            let reason = if had_session {
                                format!(
                                    "bot {bot:?} lost its connection to bot-host {} and did not reconnect within \
                                     the grace period of {} ms",
                                    self.host, self.grace.as_millis()
                                )
                            } else {
                                format!(
                                    "bot {bot:?} is not connected to bot-host {} and did not connect within the \
                                     grace period of {} ms",
                                    self.host, self.grace.as_millis()
                                )
                            };
                            return Err(fault(v1::VerdictKind::Disconnected, reason));
                        }
                    }
                }
                None => {
                    if changed.changed().await.is_err() {
                        // The entry was replaced; look again.
                        changed = {
                            let mut bots = self.lock();
                            bots.entry(bot.to_string())
                                .or_insert_with(BotEntry::new)
                                .changed
                                .subscribe()
                        };
                    }
                }
            }
        }
    }

    /// Sends a referee's request to the bot of seat `ticket`: whole, or cut to the events the
    /// bot lacks if it asked for incremental observations. The request may itself be
    /// incremental (`SeatReady.incremental_observations`): the seat's history makes it whole
    /// for a bot that needs more, and keeps it until it is answered (or resent whole on
    /// resume). `Ok(false)` if the seat is no longer bound to a session; an error, naming the
    /// request, if its increment does not continue the events the seat's stream carried.
    pub(crate) fn forward(
        &self,
        bot: &str,
        ticket: u64,
        mut request: v1::DecisionRequest,
    ) -> Result<bool, String> {
        let mut bots = self.lock();
        let Some(session) = bots.get_mut(bot).and_then(|e| e.session.as_mut()) else {
            return Ok(false);
        };
        let Some(seat) = session.seats.get_mut(&ticket) else {
            return Ok(false);
        };
        let through = seat
            .history
            .absorb(&mut request)
            .map_err(|e| format!("request {}: {e} on this stream", request.request_id))?;
        let routes = match session.routes.get_mut(request.table_id.as_str()) {
            Some(r) => r,
            None => session.routes.entry(request.table_id.clone()).or_default(),
        };
        let held = routes.held_mut(request.seat);
        let from = match *held {
            // The bot holds the first `from` events, from this stream: only what follows goes.
            Some((sent_by, from))
                if session.incremental && sent_by == ticket && from <= through =>
            {
                from
            }
            _ => 0,
        };
        let mut out = request.clone();
        seat.history.fill(&mut out, from, through);
        let connected = session.conn.is_some();
        if session.incremental && connected {
            *held = Some((ticket, through));
        }
        routes.replies.insert(request.request_id, ticket);
        let at = connected.then(std::time::Instant::now);
        seat.pending.insert(
            request.request_id,
            Asked {
                request,
                through,
                at,
            },
        );
        session.send(v1::host_to_bot::Msg::Request(out));
        Ok(true)
    }

    /// The seat `ticket` is done (its table ended, or its referee went away): frees its slot
    /// and tells the bot, with the table's outcome when known.
    pub(crate) fn release(&self, bot: &str, ticket: u64, end: Option<&v1::SeatClose>) {
        let mut bots = self.lock();
        let Some(entry) = bots.get_mut(bot) else {
            return;
        };
        if let Some(session) = entry.session.as_mut()
            && let Some(seat) = session.seats.remove(&ticket)
        {
            let at_table = session.seats.values().any(|s| s.table_id == seat.table_id);
            if !at_table {
                session.routes.remove(seat.table_id.as_str());
            } else if let Some(routes) = session.routes.get_mut(seat.table_id.as_str()) {
                // A seat opened again may have been asked the same request on its new stream.
                routes.replies.retain(|_, t| *t != ticket);
            }
            // A referee that gave up opening a seat opens it again on a new stream: while that
            // one plays, the old one's end is not the table's (the bot keeps its seat's state).
            let reopened = session
                .seats
                .values()
                .any(|s| s.table_id == seat.table_id && s.seat == seat.seat);
            if reopened {
                tracing::debug!(table = %seat.table_id, seat = seat.seat, "a replaced seat stream ended");
            } else {
                // The bot forgets the seat's history with its end.
                if let Some(routes) = session.routes.get_mut(seat.table_id.as_str()) {
                    *routes.held_mut(seat.seat) = None;
                }
                session.send(v1::host_to_bot::Msg::End(v1::TableEnd {
                    table_id: seat.table_id,
                    seat: seat.seat,
                    outcome: end.and_then(|c| c.outcome.clone()),
                    verdicts: end.map(|c| c.verdicts.clone()).unwrap_or_default(),
                }));
            }
        }
        self.end_if_drained(entry, bot);
        entry.notify();
        Self::tidy(&mut bots, bot);
    }

    /// `bot` sent `Drain` on connection `conn_id`: its session takes no new table from now on,
    /// and ends (its stream with OK, after its last `TableEnd`) once no table is in flight,
    /// at once if none is. The tables still in flight, or `None` if that connection is not the
    /// session's current one.
    pub(crate) fn drain(&self, bot: &str, conn_id: u64) -> Option<usize> {
        let mut bots = self.lock();
        let entry = bots.get_mut(bot)?;
        let session = entry.session.as_mut()?;
        if session.conn.as_ref().is_none_or(|c| c.id != conn_id) {
            return None;
        }
        session.draining = true;
        let in_flight = session.tables().len();
        self.end_if_drained(entry, bot);
        entry.notify();
        Self::tidy(&mut bots, bot);
        Some(in_flight)
    }

    /// Ends the session of `entry` if it is draining and has no seat left: its connection ends
    /// with OK once what is queued for it has been sent, and the bot's presence is cleared.
    fn end_if_drained(&self, entry: &mut BotEntry, bot: &str) {
        if !entry
            .session
            .as_ref()
            .is_some_and(|s| s.draining && s.seats.is_empty())
        {
            return;
        }
        let Some(session) = entry.session.take() else {
            return;
        };
        tracing::info!(bot, session = session.id, "drained bot left");
        if let Some(c) = session.conn {
            // The connection task stops and drops its sender, as this drops the hub's: the
            // stream ends, OK, after the messages already queued.
            c.cancel.cancel();
        }
        self.clear_presence_later(bot);
    }

    /// Clears `bot`'s presence on this host in the store, in the background (the hub's lock
    /// is never held across the store call).
    fn clear_presence_later(&self, bot: &str) {
        let store = Arc::clone(&self.store);
        let (bot, host) = (bot.to_string(), self.host.clone());
        tokio::spawn(async move {
            if let Err(e) = store.clear_presence(&bot, &host).await {
                tracing::warn!(bot, error = %e, "cannot clear presence");
            }
        });
    }

    /// Ends `bot`'s session at once (its token was rotated or it was removed): its seats get
    /// `SeatFault{DISCONNECTED}` with `reason`, its connection ends with `UNAUTHENTICATED`.
    /// True if it had a session.
    pub(crate) fn revoke(&self, bot: &str, reason: &str) -> bool {
        let mut bots = self.lock();
        let Some(entry) = bots.get_mut(bot) else {
            return false;
        };
        let Some(session) = entry.session.take() else {
            return false;
        };
        session.end(
            &fault(v1::VerdictKind::Disconnected, reason.to_string()),
            Some(arena_auth::refusal::unauthenticated(reason)),
        );
        entry.notify();
        Self::tidy(&mut bots, bot);
        true
    }

    /// Ends every session (shutdown): seats get `SeatFault{DISCONNECTED}` with `reason`,
    /// connections end with `UNAVAILABLE`. Returns the bots that had a session.
    pub(crate) fn close_all(&self, reason: &str) -> Vec<String> {
        let mut bots = self.lock();
        let mut names = Vec::new();
        for (name, entry) in bots.iter_mut() {
            if let Some(s) = entry.session.take() {
                names.push(name.clone());
                s.end(
                    &platform_fault(reason.to_string()),
                    Some(ApiError::Unavailable(reason.to_string()).into()),
                );
            }
            entry.notify();
        }
        bots.retain(|_, e| !e.waiting.is_empty());
        names
    }
}

/// Takes a seat out of the waiting line when its wait ends without a slot.
struct InLine<'a> {
    hub: &'a Hub,
    bot: &'a str,
    ticket: u64,
    done: bool,
}

impl Drop for InLine<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let mut bots = self.hub.lock();
        if let Some(entry) = bots.get_mut(self.bot) {
            entry.waiting.retain(|t| *t != self.ticket);
            entry.notify();
        }
        Hub::tidy(&mut bots, self.bot);
    }
}
