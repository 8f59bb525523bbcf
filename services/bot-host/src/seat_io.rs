//! The referee's side of a seat stream: what goes to the referee ([`SeatTx`]), what comes from
//! it ([`Inbound`], checked into [`FromReferee`] by [`SeatIo`]), and the waits that keep
//! reading it meanwhile ([`while_reading`], [`while_waiting`]).

use std::collections::VecDeque;
use std::future::Future;

use arena_proto::v1;
use arena_serve::ApiError;
use tokio_util::sync::CancellationToken;
use tonic::{Status, Streaming};

use crate::ctx::Ctx;
use crate::metrics::{BotKind as Kind, OpenSeat};

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
    pub(crate) async fn message(&mut self) -> Result<Option<v1::RefereeToSeat>, Status> {
        match self {
            Inbound::Stream(s) => s.message().await,
            Inbound::Shared(rx) => Ok(rx.recv().await.map(|m| *m)),
        }
    }
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
    pub(crate) out: SeatTx,
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
    /// The referee's side of a seat stream opened with `open`, before its bot is known.
    pub(crate) fn new(inbound: Inbound, out: SeatTx, open: v1::SeatOpen) -> SeatIo {
        SeatIo {
            inbound,
            out,
            open,
            counted: None,
            history: Default::default(),
            relaying: false,
        }
    }

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
                if r.game.is_empty() {
                    r.game.clone_from(&self.open.game);
                } else if r.game != self.open.game {
                    return Err(ApiError::Invalid(format!(
                        "request.game {} is not the table's game {}",
                        game_name(&r.game),
                        game_name(&self.open.game)
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

    /// `SeatNote`: why the bot is silent on the request `request_id` (cut to what the referee
    /// keeps).
    pub(crate) fn note(&self, request_id: u64, why: &str) {
        tracing::debug!(request = request_id, note = why, "seat note");
        self.send(v1::seat_to_referee::Msg::Note(v1::SeatNote {
            request_id,
            note: why.chars().take(arena_proto::text::NOTE_CHARS).collect(),
        }));
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

/// A game name from the wire as messages quote it (cut short: a peer wrote it).
pub(crate) fn game_name(g: &str) -> String {
    arena_proto::text::quote(g)
}
