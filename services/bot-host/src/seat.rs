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
use std::sync::Arc;

use arena_games::GameKind;
use arena_proto::v1;
use arena_serve::ApiError;
use arena_store::BotKind;
use tonic::{Request, Response, Status, Streaming};
use tracing::Instrument;

use crate::ctx::{Ctx, SeatGuard};
use crate::hub::{NewSeat, SeatEvent};
use crate::metrics::BotKind as Kind;
use crate::seat_io::{FromReferee, Inbound, SeatIo, SeatTx, Waited, game_name, while_waiting};
use crate::{builtin, program};

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
    let mut io = SeatIo::new(inbound, out, open);
    let name = io.open.bot.trim().to_string();

    // Built-in names are reserved: they never reach the store. Each game reads its own.
    let game = GameKind::from_wire(&io.open.game);
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
                        game_name(&io.open.game),
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
    let seats = match GameKind::from_wire(&open.game) {
        Ok(game) => game.seat_count() as u32,
        Err(why) => return Err(ApiError::Invalid(format!("open.game: {why}"))),
    };
    if open.seat >= seats {
        return Err(ApiError::Invalid(format!(
            "open.seat is {}; {} has seats 0 to {}",
            open.seat,
            game_name(&open.game),
            seats - 1
        )));
    }
    Ok(())
}

/// `what` (built-in bots, bot programs) cannot be run for the seat's game: no rules for it.
fn unsupported(open: &v1::SeatOpen, what: &str) -> ApiError {
    let games: Vec<&str> = GameKind::all().map(|g| g.name()).collect();
    ApiError::Unimplemented(format!(
        "open.game {}: bot-host runs {what} for {} only",
        game_name(&open.game),
        games.join(" and ")
    ))
}

/// A seat played by a remote bot: wait for a slot on its session, then relay.
async fn run_remote(ctx: &Arc<Ctx>, mut io: SeatIo, bot: &str) -> Result<(), Status> {
    let ticket = ctx.hub.next_id();
    let start = v1::TableStart {
        table_id: io.open.table_id.clone(),
        seat: io.open.seat,
        game: io.open.game.clone(),
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
