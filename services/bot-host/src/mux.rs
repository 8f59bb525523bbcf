//! `SeatHost.Seats`: many seat streams on one stream, each seat's messages tagged with its
//! `seat_stream`.
//!
//! Every seat on it runs exactly as on a `Seat` stream of its own ([`crate::seat`]): its
//! frames are fed to it in order, what it says goes back tagged, and how its stream would have
//! ended (OK, or a refusal's status) comes back as its last frame's `end`. What is ready
//! together leaves together ([`arena_proto::coalesce::Batched`]), so a busy referee's seats
//! share messages, writes and wake-ups.
//!
//! Bounds: at most [`MAX_SEATS`] seats open on one stream at once; at most [`SEAT_QUEUE`] of a
//! seat's messages waiting for it to read them (a seat's referee sends one request at a time);
//! at most [`MAX_QUEUED`] frames waiting for a referee that does not read, past which the
//! whole stream is cut off as a `Seat` stream would be. A seat stream's number must be greater
//! than every number before it on the stream, so a late frame of a seat that ended is told
//! apart from a new seat and dropped.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use arena_proto::v1;
use tokio::sync::mpsc;
use tokio_stream::{Stream, StreamExt};
use tonic::{Code, Status, Streaming};

use crate::ctx::Ctx;
use crate::outbox::Outbox;
use crate::seat::spawn_seat;
use crate::seat_io::{Inbound, SeatTx};

/// Most seats open at once on one `Seats` stream.
pub(crate) const MAX_SEATS: usize = 100_000;

/// Most messages of one seat waiting for the seat to read them.
pub(crate) const SEAT_QUEUE: usize = 16;

/// Most frames waiting for a referee that is not reading its `Seats` stream.
pub(crate) const MAX_QUEUED: usize = 65_536;

/// Most frames in one `SeatsToReferee`.
const MAX_FRAMES: usize = 1_024;

/// Most encoded bytes of frames in one `SeatsToReferee`, well under any message size limit
/// worth configuring.
const MAX_BATCH_BYTES: usize = 256 * 1024;

/// The response stream of `Seats`.
pub(crate) type SeatsStream =
    Pin<Box<dyn Stream<Item = Result<v1::SeatsToReferee, Status>> + Send + 'static>>;

/// One seat's side of a `Seats` stream: its frames to the referee.
#[derive(Clone)]
pub(crate) struct SharedSeat {
    id: u64,
    out: Outbox<v1::HostSeatFrame>,
    ended: Arc<AtomicBool>,
    /// Tells the reader the seat ended, so it forgets the seat.
    done: mpsc::UnboundedSender<u64>,
}

impl SharedSeat {
    /// Queues `msg` for the referee; false once the seat's stream ended or the stream is cut.
    pub(crate) fn send(&self, msg: v1::SeatToReferee) -> bool {
        if self.ended.load(Ordering::Acquire) {
            return false;
        }
        self.out.send(v1::HostSeatFrame {
            seat_stream: self.id,
            msg: Some(msg),
            end: None,
        })
    }

    /// Ends the seat's stream with `code` and `message`; the first end is the one said.
    pub(crate) fn end(&self, code: Code, message: &str) {
        if self.ended.swap(true, Ordering::AcqRel) {
            return;
        }
        self.out.send(v1::HostSeatFrame {
            seat_stream: self.id,
            msg: None,
            end: Some(v1::SeatStreamEnd {
                code: code as i32,
                message: arena_proto::text::cut(message),
            }),
        });
        let _ = self.done.send(self.id);
    }
}

/// Serves one `Seats` stream: reads `inbound` on a task of its own, runs its seats, and returns
/// the stream of their frames.
pub(crate) fn serve(ctx: &Arc<Ctx>, inbound: Streaming<v1::RefereeToSeats>) -> SeatsStream {
    let (out, frames) = crate::outbox::outbox(MAX_QUEUED, "the referee");
    let ctx = Arc::clone(ctx);
    tokio::spawn(read(ctx, inbound, out));
    let batches = arena_proto::coalesce::Batched::new(frames, MAX_FRAMES, MAX_BATCH_BYTES)
        .map(|batch| batch.map(|frames| v1::SeatsToReferee { frames }));
    Box::pin(batches)
}

/// A seat open on the stream: where its messages go, and its side of the stream.
struct Open {
    tx: mpsc::Sender<Box<v1::RefereeToSeat>>,
    seat: SharedSeat,
}

/// The reader: the seats open on one stream, and the highest seat stream number it saw.
struct Reader {
    ctx: Arc<Ctx>,
    out: Outbox<v1::HostSeatFrame>,
    done: mpsc::UnboundedSender<u64>,
    open: HashMap<u64, Open>,
    highest: u64,
}

async fn read(
    ctx: Arc<Ctx>,
    mut inbound: Streaming<v1::RefereeToSeats>,
    out: Outbox<v1::HostSeatFrame>,
) {
    let (done, mut ended) = mpsc::unbounded_channel();
    let closing = ctx.closing.clone();
    let mut reader = Reader {
        ctx,
        out: out.clone(),
        done,
        open: HashMap::new(),
        highest: 0,
    };
    loop {
        tokio::select! {
            biased;
            () = closing.cancelled() => break,
            () = out.cut_off() => break,
            Some(id) = ended.recv() => {
                reader.open.remove(&id);
            }
            m = inbound.message() => match m {
                Ok(Some(batch)) => {
                    for frame in batch.frames {
                        reader.frame(frame);
                    }
                }
                Ok(None) => break,
                Err(status) => {
                    tracing::info!(code = ?status.code(), message = status.message(), "the seats stream broke");
                    break;
                }
            },
        }
    }
    // Every seat still open sees its referee's side end, as when a `Seat` stream breaks.
}

impl Reader {
    fn frame(&mut self, frame: v1::RefereeSeatFrame) {
        let id = frame.seat_stream;
        if let Some(open) = self.open.get(&id) {
            if let Some(msg) = frame.msg {
                match open.tx.try_send(Box::new(msg)) {
                    Ok(()) => {}
                    Err(mpsc::error::TrySendError::Full(_)) => {
                        open.seat.end(
                            Code::ResourceExhausted,
                            &format!(
                                "seat stream {id}: {SEAT_QUEUE} of its messages were waiting for \
                                 bot-host to read them (send one request at a time)"
                            ),
                        );
                        self.open.remove(&id);
                        return;
                    }
                    Err(mpsc::error::TrySendError::Closed(_)) => {
                        self.open.remove(&id);
                        return;
                    }
                }
            }
            if frame.end {
                // The seat reads what came, then its referee's side ends.
                self.open.remove(&id);
            }
            return;
        }
        let seat = SharedSeat {
            id,
            out: self.out.clone(),
            ended: Arc::new(AtomicBool::new(false)),
            done: self.done.clone(),
        };
        if id == 0 {
            seat.end(
                Code::InvalidArgument,
                "seat_stream 0 is not a seat stream: number them from 1",
            );
            return;
        }
        if id <= self.highest {
            // A late frame of a seat that ended.
            return;
        }
        self.highest = id;
        let Some(
            msg @ v1::RefereeToSeat {
                msg: Some(v1::referee_to_seat::Msg::Open(_)),
            },
        ) = frame.msg
        else {
            seat.end(
                Code::InvalidArgument,
                &format!("seat stream {id}: its first frame must carry open"),
            );
            return;
        };
        if self.ctx.is_draining() {
            let refusal: Status = self.ctx.draining_refusal().into();
            seat.end(refusal.code(), refusal.message());
            return;
        }
        if self.open.len() >= MAX_SEATS {
            seat.end(
                Code::ResourceExhausted,
                &format!(
                    "seat stream {id}: {MAX_SEATS} seats are open on this seats stream already"
                ),
            );
            return;
        }
        let (tx, rx) = mpsc::channel(SEAT_QUEUE);
        let _ = tx.try_send(Box::new(msg));
        if !frame.end {
            self.open.insert(
                id,
                Open {
                    tx,
                    seat: seat.clone(),
                },
            );
        }
        let span = tracing::info_span!("seat", traceparent = %frame.traceparent, seat_stream = id, table = tracing::field::Empty, seat = tracing::field::Empty, bot = tracing::field::Empty);
        if !frame.traceparent.is_empty() {
            arena_telemetry::set_parent_from_traceparent(&span, &frame.traceparent);
        }
        spawn_seat(&self.ctx, span, Inbound::Shared(rx), SeatTx::shared(seat));
    }
}
