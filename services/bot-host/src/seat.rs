//! `SeatHost.Seat`: one stream per seat of a table, whatever kind of bot sits there.
//!
//! The stream opens with `SeatOpen`; bot-host finds the bot (a built-in bot name first, then a
//! registered bot in the store), answers `SeatReady` once the bot can play (a remote bot has a
//! free slot, a program has said `join`), then forwards each `DecisionRequest` and sends back
//! the bot's `DecisionReply`. `SeatClose` ends the stream. When bot-host gives up on the bot it
//! sends one `SeatFault` and ends the stream (status OK); the referee turns the fault into a
//! verdict and needs to send nothing more.
//!
//! Requests that arrive before the seat is ready are kept and sent in order once it is. While
//! the seat waits for a slot of a busy remote bot (or for it to connect) bot-host sends
//! `SeatWaiting` every keepalive interval.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;

use arena_games::GameKind;
use arena_proto::v1;
use arena_serve::ApiError;
use arena_store::BotKind;
use tokio_util::sync::CancellationToken;
use tonic::{Request, Response, Status, Streaming};
use tracing::Instrument;

use crate::hub::{NewSeat, SeatEvent};
use crate::metrics::{BotKind as Kind, OpenSeat};
use crate::server::{Ctx, SeatGuard};
use crate::{builtin, program};

/// Messages to the referee about one seat (bounded: a referee that stops reading is cut off):
/// on the seat's own `Seat` stream, or tagged with its seat stream on a `Seats` stream.
#[derive(Clone)]
pub(crate) struct SeatTx(Route);

#[derive(Clone)]
enum Route {
    Stream(crate::outbox::Outbox<v1::SeatToReferee>),
    Shared(crate::mux::SharedSeat),
}

impl SeatTx {
    /// The seat's own stream.
    pub(crate) fn stream(out: crate::outbox::Outbox<v1::SeatToReferee>) -> SeatTx {
        SeatTx(Route::Stream(out))
    }

    /// A seat stream on a `Seats` stream.
    pub(crate) fn shared(seat: crate::mux::SharedSeat) -> SeatTx {
        SeatTx(Route::Shared(seat))
    }

    /// Queues `msg`; false if the seat's stream is gone, ended or cut.
    pub(crate) fn send(&self, msg: v1::SeatToReferee) -> bool {
        match &self.0 {
            Route::Stream(out) => out.send(msg),
            Route::Shared(seat) => seat.send(msg),
        }
    }

    /// Ends the seat's stream with `status` (after what is queued).
    pub(crate) fn fail(&self, status: Status) {
        match &self.0 {
            Route::Stream(out) => out.fail(status),
            Route::Shared(seat) => seat.end(status.code(), status.message()),
        }
    }

    /// Ends the seat's stream with OK. (A seat's own stream ends so once the last sender is
    /// gone; a shared one needs saying.)
    pub(crate) fn finish(&self) {
        if let Route::Shared(seat) = &self.0 {
            seat.end(tonic::Code::Ok, "");
        }
    }
}

/// What the referee sends about one seat: its own `Seat` stream, or its seat stream's
/// messages on a `Seats` stream.
pub(crate) enum Inbound {
    Stream(Box<Streaming<v1::RefereeToSeat>>),
    /// Boxed: a bounded channel allocates its slots a block of 32 at a time, and a message
    /// inline is 280 bytes: 9 KiB a seat for a queue that mostly holds one request.
    Shared(tokio::sync::mpsc::Receiver<Box<v1::RefereeToSeat>>),
}

impl Inbound {
    /// The next message; `None` once the referee's side ended. Cancel-safe.
    async fn message(&mut self) -> Result<Option<v1::RefereeToSeat>, Status> {
        match self {
            Inbound::Stream(s) => s.message().await,
            Inbound::Shared(rx) => Ok(rx.recv().await.map(|m| *m)),
        }
    }
}

/// Messages waiting for a referee that is not reading: a seat sends one per request.
const MAX_QUEUED_TO_REFEREE: usize = 256;

/// The `SeatHost` service.
pub(crate) struct SeatService {
    pub(crate) ctx: Arc<Ctx>,
}

#[tonic::async_trait]
impl v1::seat_host_server::SeatHost for SeatService {
    type SeatStream = crate::outbox::OutStream<v1::SeatToReferee>;

    async fn seat(
        &self,
        request: Request<Streaming<v1::RefereeToSeat>>,
    ) -> Result<Response<Self::SeatStream>, Status> {
        let traceparent = request
            .metadata()
            .get("traceparent")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        if self.ctx.is_draining() {
            return Err(self.ctx.draining_refusal().into());
        }
        let span = tracing::info_span!("seat", traceparent = %traceparent, table = tracing::field::Empty, seat = tracing::field::Empty, bot = tracing::field::Empty);
        // The referee's trace context makes this seat a child of the table's decision.
        arena_telemetry::set_parent(&span, request.metadata());
        let inbound = Inbound::Stream(Box::new(request.into_inner()));
        let (tx, rx) = crate::outbox::outbox(MAX_QUEUED_TO_REFEREE, "the referee");
        spawn_seat(&self.ctx, span, inbound, SeatTx::stream(tx));
        Ok(Response::new(rx))
    }

    type SeatsStream = crate::mux::SeatsStream;

    async fn seats(
        &self,
        request: Request<Streaming<v1::RefereeToSeats>>,
    ) -> Result<Response<Self::SeatsStream>, Status> {
        if self.ctx.is_draining() {
            return Err(self.ctx.draining_refusal().into());
        }
        Ok(Response::new(crate::mux::serve(
            &self.ctx,
            request.into_inner(),
        )))
    }
}

/// Runs a seat on a task of its own, in `span`: from its opening message to its end, which
/// `tx` says (a refusal's status, or OK).
pub(crate) fn spawn_seat(ctx: &Arc<Ctx>, span: tracing::Span, inbound: Inbound, tx: SeatTx) {
    let ctx = Arc::clone(ctx);
    let guard = ctx.seat_started();
    tokio::spawn(
        async move {
            let _guard: SeatGuard = guard;
            match run_seat(&ctx, inbound, tx.clone()).await {
                Ok(()) => tx.finish(),
                Err(status) => {
                    tracing::info!(code = ?status.code(), message = status.message(), "seat stream refused");
                    tx.fail(status);
                }
            }
        }
        .instrument(span),
    );
}

/// What the referee sent, checked against the seat.
pub(crate) enum FromReferee {
    /// A decision request for this seat.
    Request(v1::DecisionRequest),
    /// The table ended.
    Close(v1::SeatClose),
    /// The referee's stream ended without `SeatClose` (or broke).
    Gone,
}

/// The referee's side of a seat stream.
pub(crate) struct SeatIo {
    inbound: Inbound,
    out: SeatTx,
    /// The opening message.
    pub(crate) open: v1::SeatOpen,
    /// Counts the seat as open once the kind of its bot is known.
    counted: Option<OpenSeat>,
    /// The seat's events the stream's requests carried, to make incremental ones whole.
    history: arena_proto::incremental::SeatEvents,
    /// Requests are passed on as they came, incremental or not ([`SeatIo::relay`]).
    relaying: bool,
}

impl SeatIo {
    /// The seat is played by a bot of `kind`: counted as open (until it ends) and its faults
    /// and decisions are recorded under that kind.
    pub(crate) fn played_by(&mut self, kind: Kind) {
        self.counted = Some(OpenSeat::new(kind));
    }

    /// From now on [`SeatIo::next`] passes requests on as they came, incremental ones too:
    /// the hub keeps the seat's history for a remote bot and makes them whole only for a bot
    /// that needs more than the increment.
    pub(crate) fn relay(&mut self) {
        self.relaying = true;
    }

    /// The kind of bot playing the seat, once known.
    pub(crate) fn kind(&self) -> Option<Kind> {
        self.counted.as_ref().map(|c| c.0)
    }

    /// The next message from the referee, checked: a request must be for this table and seat
    /// (empty fields are filled in), and is made whole when its observation is incremental
    /// (`SeatReady.incremental_observations`), unless [`SeatIo::relay`]ing. Cancel-safe.
    pub(crate) async fn next(&mut self) -> Result<FromReferee, Status> {
        let msg = match self.inbound.message().await {
            Ok(Some(m)) => m,
            Ok(None) => return Ok(FromReferee::Gone),
            // A message over the size limit, or a broken stream: said back (if anyone hears).
            Err(status) => return Err(status),
        };
        match msg.msg {
            Some(v1::referee_to_seat::Msg::Request(mut r)) => {
                if r.table_id.is_empty() {
                    r.table_id.clone_from(&self.open.table_id);
                } else if r.table_id != self.open.table_id {
                    return Err(ApiError::Invalid(format!(
                        "request.table_id {:?} is not this seat's table {:?}",
                        r.table_id, self.open.table_id
                    ))
                    .into());
                }
                if r.seat != self.open.seat {
                    return Err(ApiError::Invalid(format!(
                        "request.seat {} is not this stream's seat {} (one stream per seat)",
                        r.seat, self.open.seat
                    ))
                    .into());
                }
                if r.game == v1::Game::Unspecified as i32 {
                    r.game = self.open.game;
                } else if r.game != self.open.game {
                    return Err(ApiError::Invalid(format!(
                        "request.game {} is not the table's game {}",
                        game_name(r.game),
                        game_name(self.open.game)
                    ))
                    .into());
                }
                if !self.relaying
                    && let Err(e) = self.history.rebuild(&mut r)
                {
                    return Err(ApiError::Invalid(format!(
                        "request {}: {e} on this stream",
                        r.request_id
                    ))
                    .into());
                }
                Ok(FromReferee::Request(r))
            }
            Some(v1::referee_to_seat::Msg::Close(c)) => Ok(FromReferee::Close(c)),
            Some(v1::referee_to_seat::Msg::Open(_)) => Err(ApiError::Invalid(
                "open: a seat stream is opened once; send request or close after it".into(),
            )
            .into()),
            None => Err(ApiError::Invalid(
                "empty message: set one of open, request or close".into(),
            )
            .into()),
        }
    }

    fn send(&self, msg: v1::seat_to_referee::Msg) {
        self.out.send(v1::SeatToReferee { msg: Some(msg) });
    }

    /// `SeatReady`.
    pub(crate) fn ready(&self, release: &str, host: &str) {
        self.send(v1::seat_to_referee::Msg::Ready(v1::SeatReady {
            bot: self.open.bot.clone(),
            release: release.to_string(),
            host: host.to_string(),
            incremental_observations: true,
        }));
    }

    /// `SeatWaiting`: the seat is not ready yet because bot-host is waiting for `what`.
    pub(crate) fn waiting(&self, what: &str) {
        self.send(v1::seat_to_referee::Msg::Waiting(v1::SeatWaiting {
            reason: format!("bot-host is waiting for {what} (bot {:?})", self.open.bot),
        }));
    }

    /// A reply to `request`.
    pub(crate) fn reply(&self, reply: v1::DecisionReply) {
        self.send(v1::seat_to_referee::Msg::Reply(reply));
    }

    /// `SeatFault`: bot-host gives up on the bot (the caller then ends the stream).
    pub(crate) fn fault(&self, kind: v1::VerdictKind, reason: impl Into<String>) {
        self.forward_fault(v1::SeatFault {
            kind: kind as i32,
            reason: reason.into(),
            platform: false,
        });
    }

    /// Sends `fault` as it is (a bot's fault or the platform's).
    pub(crate) fn forward_fault(&self, fault: v1::SeatFault) {
        let kind = v1::VerdictKind::try_from(fault.kind).unwrap_or(v1::VerdictKind::Disconnected);
        tracing::info!(
            kind = kind.as_str_name(),
            reason = fault.reason,
            platform = fault.platform,
            "seat fault"
        );
        if !fault.platform {
            crate::metrics::fault(kind, self.kind());
        }
        self.send(v1::seat_to_referee::Msg::Fault(fault));
    }

    /// The fault for a shutdown that did not wait for the table: the platform's, so the referee
    /// opens the seat elsewhere or plays the table again.
    pub(crate) fn fault_shutdown(&self, host: &str) {
        self.forward_fault(v1::SeatFault {
            kind: v1::VerdictKind::Disconnected as i32,
            reason: format!(
                "bot-host {host} is shutting down and could not wait for this table to finish"
            ),
            platform: true,
        });
    }
}

/// How a wait while reading the referee ended, see [`while_reading`].
pub(crate) enum Waited<T> {
    /// The awaited future finished.
    Done(T),
    /// The referee ended the table or went away.
    Ended,
    /// bot-host is shutting down now.
    Closing,
}

/// Awaits `fut` while reading the referee: requests are queued, a close ends the wait.
pub(crate) async fn while_reading<T>(
    io: &mut SeatIo,
    queue: &mut VecDeque<v1::DecisionRequest>,
    closing: &CancellationToken,
    fut: impl Future<Output = T>,
) -> Result<Waited<T>, Status> {
    reading(io, queue, closing, None, fut).await
}

/// [`while_reading`] for what the seat needs before it is ready (described by `waiting_for`):
/// a `SeatWaiting` also goes to the referee every keepalive interval the wait lasts, so that
/// a seat waiting its turn for a busy bot is not taken for a lost one.
pub(crate) async fn while_waiting<T>(
    ctx: &Ctx,
    io: &mut SeatIo,
    queue: &mut VecDeque<v1::DecisionRequest>,
    waiting_for: &str,
    fut: impl Future<Output = T>,
) -> Result<Waited<T>, Status> {
    let every = ctx.config.keepalive;
    let notice = (every, waiting_for);
    reading(io, queue, &ctx.closing, Some(notice), fut).await
}

/// The wait of [`while_reading`] and [`while_waiting`]; `notice` is how often to say what.
async fn reading<T>(
    io: &mut SeatIo,
    queue: &mut VecDeque<v1::DecisionRequest>,
    closing: &CancellationToken,
    notice: Option<(std::time::Duration, &str)>,
    fut: impl Future<Output = T>,
) -> Result<Waited<T>, Status> {
    tokio::pin!(fut);
    let mut ticks = notice.map(|(every, _)| {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks
    });
    let waiting_for = notice.map_or("", |(_, what)| what);
    loop {
        tokio::select! {
            biased;
            () = closing.cancelled() => return Ok(Waited::Closing),
            v = &mut fut => return Ok(Waited::Done(v)),
            m = io.next() => match m? {
                FromReferee::Request(r) => queue.push_back(r),
                FromReferee::Close(_) | FromReferee::Gone => return Ok(Waited::Ended),
            },
            Some(_) = async { Some(ticks.as_mut()?.tick().await) }, if ticks.is_some() => {
                io.waiting(waiting_for);
            }
        }
    }
}

fn game_name(g: i32) -> &'static str {
    v1::Game::try_from(g).map_or("(unknown game)", |g| g.as_str_name())
}

/// Reads and checks `SeatOpen`, finds the bot and runs the seat.
async fn run_seat(ctx: &Arc<Ctx>, mut inbound: Inbound, out: SeatTx) -> Result<(), Status> {
    let first = tokio::time::timeout(ctx.config.first_message_timeout, inbound.message()).await;
    let open = match first {
        Err(_) => {
            return Err(ApiError::DeadlineExceeded(format!(
                "no open message within {} ms of opening the seat stream",
                ctx.config.first_message_timeout.as_millis()
            ))
            .into());
        }
        Ok(Err(_) | Ok(None)) => return Ok(()),
        Ok(Ok(Some(m))) => match m.msg {
            Some(v1::referee_to_seat::Msg::Open(o)) => o,
            Some(v1::referee_to_seat::Msg::Request(_)) => {
                return Err(ApiError::Invalid(
                    "open: the first message of a seat stream must be open, got a request".into(),
                )
                .into());
            }
            Some(v1::referee_to_seat::Msg::Close(_)) => {
                return Err(ApiError::Invalid(
                    "open: the first message of a seat stream must be open, got a close".into(),
                )
                .into());
            }
            None => {
                return Err(ApiError::Invalid(
                    "open: the first message of a seat stream must be open, got an empty message"
                        .into(),
                )
                .into());
            }
        },
    };
    check_open(&open)?;
    let span = tracing::Span::current();
    span.record("table", open.table_id.as_str());
    span.record("seat", open.seat);
    span.record("bot", open.bot.as_str());
    let mut io = SeatIo {
        inbound,
        out,
        open,
        counted: None,
        history: Default::default(),
        relaying: false,
    };
    let name = io.open.bot.trim().to_string();

    // Built-in names are reserved: they never reach the store. Each game reads its own.
    let game = GameKind::from_wire(io.open.game);
    match &game {
        Ok(kind) => {
            if let Some(Ok(spec)) = kind.builtin(&name) {
                io.played_by(Kind::Builtin);
                return builtin::run(ctx, io, spec).await;
            }
        }
        Err(_) => {
            if GameKind::all().any(|k| matches!(k.builtin(&name), Some(Ok(_)))) {
                return Err(unsupported(&io.open, "built-in bots").into());
            }
        }
    }
    if name.starts_with("cmd:") {
        return Err(ApiError::Invalid(format!(
            "open.bot {name:?}: bot-host does not run programs by command line; register the program \
             as a bot (arena bots add) and seat it by name"
        )).into());
    }
    let record = match ctx.store.bot(&name).await {
        Ok(Some(r)) => r,
        Ok(None) => {
            let names = game.map_or("", |g| g.builtin_help());
            return Err(ApiError::NotFound(format!(
                "open.bot {name:?} is neither a registered bot nor a built-in bot name ({names})"
            ))
            .into());
        }
        Err(e) => {
            let context = format!(
                "cannot look bot {name:?} up in the store ({})",
                ctx.store.describe()
            );
            return Err(ApiError::store(context, e).into());
        }
    };
    match &record.kind {
        BotKind::Remote => {
            io.played_by(Kind::Remote);
            run_remote(ctx, io, &record.name).await
        }
        BotKind::Program {
            game: plays,
            command,
            workdir,
            cpu_seconds,
            memory_mb,
        } => {
            // A program speaks its own game's line protocol, and no other.
            let wanted = match game {
                Ok(g) => g,
                Err(_) => return Err(unsupported(&io.open, "bot programs").into()),
            };
            // The seat is the bot's, and it cannot play it: a fault, so the table plays on.
            if arena_store::Game::from(wanted) != *plays {
                io.fault(
                    v1::VerdictKind::Disconnected,
                    format!(
                        "bot {:?} is a program playing {plays} (arena bots add --game); it cannot \
                         sit at a {} table",
                        record.name,
                        game_name(io.open.game),
                    ),
                );
                return Ok(());
            }
            io.played_by(Kind::Program);
            let spec = program::ProgramSpec {
                bot: record.name.clone(),
                command: command.clone(),
                workdir: workdir.clone(),
                cpu_seconds: *cpu_seconds,
                memory_mb: *memory_mb,
                max_tables: record.max_tables,
            };
            program::run(ctx, io, spec).await
        }
    }
}

fn check_open(open: &v1::SeatOpen) -> Result<(), ApiError> {
    if open.table_id.trim().is_empty() {
        return Err(ApiError::Invalid("open.table_id is empty".into()));
    }
    if open.table_id.chars().any(char::is_control) {
        return Err(ApiError::Invalid(
            "open.table_id contains a control character".into(),
        ));
    }
    if open.bot.trim().is_empty() {
        return Err(ApiError::Invalid(
            "open.bot is empty: name the bot that sits here".into(),
        ));
    }
    let seats = match GameKind::from_wire(open.game) {
        Ok(game) => game.seat_count() as u32,
        Err(why) => return Err(ApiError::Invalid(format!("open.game: {why}"))),
    };
    if open.seat >= seats {
        return Err(ApiError::Invalid(format!(
            "open.seat is {}; {} has seats 0 to {}",
            open.seat,
            game_name(open.game),
            seats - 1
        )));
    }
    Ok(())
}

/// `what` (built-in bots, bot programs) cannot be run for the seat's game: no rules for it.
fn unsupported(open: &v1::SeatOpen, what: &str) -> ApiError {
    let games: Vec<&str> = GameKind::all().map(|g| g.wire().as_str_name()).collect();
    ApiError::Unimplemented(format!(
        "open.game {}: bot-host runs {what} for {} only",
        game_name(open.game),
        games.join(" and ")
    ))
}

/// A seat played by a remote bot: wait for a slot on its session, then relay.
async fn run_remote(ctx: &Arc<Ctx>, mut io: SeatIo, bot: &str) -> Result<(), Status> {
    let ticket = ctx.hub.next_id();
    let start = v1::TableStart {
        table_id: io.open.table_id.clone(),
        seat: io.open.seat,
        game: io.open.game,
        time: io.open.time,
    };
    let mut queue = VecDeque::new();
    let out = io.out.clone();
    io.relay();
    let acquire = ctx.hub.acquire(bot, NewSeat { ticket, start, out });
    let waiting_for = "a free slot of the bot (it plays as many tables at once as its \
                       hello.capacity), or for it to connect";
    let seated = match while_waiting(ctx, &mut io, &mut queue, waiting_for, acquire).await? {
        Waited::Done(Ok(s)) => s,
        Waited::Done(Err(fault)) => {
            io.forward_fault(fault);
            return Ok(());
        }
        Waited::Ended => return Ok(()),
        Waited::Closing => {
            io.fault_shutdown(&ctx.host);
            return Ok(());
        }
    };
    // From here on the seat holds a slot; release it however this ends.
    let mut slot = Slot {
        ctx,
        bot,
        ticket,
        close: None,
    };
    let mut events = seated.events;
    io.ready(&seated.release, &ctx.host);
    // The bot's replies go to the referee from the hub; this task forwards requests and faults.
    for r in queue.drain(..) {
        ctx.hub.forward(bot, ticket, r).map_err(ApiError::Invalid)?;
    }
    loop {
        tokio::select! {
            biased;
            () = ctx.closing.cancelled() => {
                io.fault_shutdown(&ctx.host);
                return Ok(());
            }
            ev = events.recv() => match ev {
                Some(SeatEvent::Fault(f)) => {
                    io.forward_fault(f);
                    return Ok(());
                }
                None => {
                    io.fault(v1::VerdictKind::Disconnected, format!("bot {bot:?} left bot-host {}", ctx.host));
                    return Ok(());
                }
            },
            m = io.next() => match m? {
                FromReferee::Request(r) => {
                    ctx.hub.forward(bot, ticket, r).map_err(ApiError::Invalid)?;
                }
                FromReferee::Close(c) => {
                    slot.close = Some(c);
                    return Ok(());
                }
                FromReferee::Gone => return Ok(()),
            },
        }
    }
}

/// A remote seat's slot, released (and the bot told the table ended) when dropped.
struct Slot<'a> {
    ctx: &'a Ctx,
    bot: &'a str,
    ticket: u64,
    close: Option<v1::SeatClose>,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.ctx
            .hub
            .release(self.bot, self.ticket, self.close.as_ref());
    }
}
