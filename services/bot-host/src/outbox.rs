//! [`Outbox`]: the bounded queue of messages toward a peer (a remote bot, a referee), and the
//! response stream that drains it. A peer that stops reading while messages keep coming is cut
//! off once `capacity` messages wait: its stream ends with `RESOURCE_EXHAUSTED` saying why, and
//! what was queued for it is dropped, so no peer can make bot-host hold memory for it.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use arena_serve::ApiError;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tonic::Status;

/// The sending side. Cheap to clone; every clone feeds the same stream.
pub(crate) struct Outbox<T> {
    tx: mpsc::Sender<Result<T, Status>>,
    cut: Arc<Cut>,
}

impl<T> Clone for Outbox<T> {
    fn clone(&self) -> Self {
        Outbox {
            tx: self.tx.clone(),
            cut: Arc::clone(&self.cut),
        }
    }
}

/// Why and when the stream was cut.
struct Cut {
    /// Set before `token` is cancelled: what every send reads. (The token's own check takes
    /// its lock, and every message to every peer asks it.)
    done: AtomicBool,
    token: CancellationToken,
    status: Mutex<Option<Status>>,
    /// Who the peer is, for the message (`the bot`, `the referee`).
    peer: &'static str,
    capacity: usize,
}

impl Cut {
    fn cut(&self, status: Status) {
        let mut slot = self.status.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(status);
        }
        drop(slot);
        self.done.store(true, Ordering::Release);
        self.token.cancel();
    }
}

/// A queue of at most `capacity` messages toward `peer`, and the stream that sends them.
pub(crate) fn outbox<T>(capacity: usize, peer: &'static str) -> (Outbox<T>, OutStream<T>) {
    let (tx, rx) = mpsc::channel(capacity.max(1));
    let cut = Arc::new(Cut {
        done: AtomicBool::new(false),
        token: CancellationToken::new(),
        status: Mutex::new(None),
        peer,
        capacity,
    });
    (
        Outbox {
            tx,
            cut: Arc::clone(&cut),
        },
        OutStream {
            rx,
            cut,
            cancelled: None,
            done: false,
        },
    )
}

impl<T> Outbox<T> {
    /// Queues `msg`; false if the stream is gone or was cut. A full queue cuts the stream.
    pub(crate) fn send(&self, msg: T) -> bool {
        if self.cut.done.load(Ordering::Acquire) {
            return false;
        }
        match self.tx.try_send(Ok(msg)) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Closed(_)) => false,
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::warn!(
                    peer = self.cut.peer,
                    queued = self.cut.capacity,
                    "the peer is not reading its stream: cut off"
                );
                self.cut.cut(ApiError::ResourceExhausted(format!(
                    "{} stopped reading its stream: {} messages were waiting for it, so it was cut off",
                    self.cut.peer, self.cut.capacity
                )).into());
                false
            }
        }
    }

    /// Ends the stream with `status`, after what is queued when there is room for it, at once
    /// otherwise.
    pub(crate) fn fail(&self, status: Status) {
        if self.cut.done.load(Ordering::Acquire) {
            return;
        }
        if let Err(mpsc::error::TrySendError::Full(Err(status))) = self.tx.try_send(Err(status)) {
            self.cut.cut(status);
        }
    }

    /// Completes once the stream was cut (the peer stopped reading, or [`Outbox::fail`] found
    /// the queue full).
    pub(crate) async fn cut_off(&self) {
        self.cut.token.cancelled().await;
    }

    /// Why the stream was cut, once it was.
    pub(crate) fn cut_reason(&self) -> Option<String> {
        self.cut
            .status
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .map(|s| s.message().to_string())
    }
}

/// The response stream of an [`Outbox`]: its messages, or the status it was cut with.
pub(crate) struct OutStream<T> {
    rx: mpsc::Receiver<Result<T, Status>>,
    cut: Arc<Cut>,
    cancelled: Option<Pin<Box<tokio_util::sync::WaitForCancellationFutureOwned>>>,
    done: bool,
}

impl<T> tokio_stream::Stream for OutStream<T> {
    type Item = Result<T, Status>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        let this = &mut *self;
        let cancelled = this
            .cancelled
            .get_or_insert_with(|| Box::pin(this.cut.token.clone().cancelled_owned()));
        if cancelled.as_mut().poll(cx).is_ready() {
            this.done = true;
            this.rx.close();
            let status = this
                .cut
                .status
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            return Poll::Ready(status.map(Err));
        }
        match self.rx.poll_recv(cx) {
            Poll::Ready(Some(Err(status))) => {
                // A status ends the stream.
                self.done = true;
                Poll::Ready(Some(Err(status)))
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio_stream::StreamExt;

    #[tokio::test]
    async fn a_peer_that_stops_reading_is_cut_off_and_its_queue_dropped() {
        let (out, mut stream) = outbox::<u32>(4, "the bot");
        for i in 0..4 {
            assert!(out.send(i));
        }
        assert!(!out.send(4), "the fifth message overflows");
        assert!(!out.send(5), "nothing is queued after the cut");
        out.cut_off().await;
        let first = stream.next().await.expect("the cut status");
        let status = first.expect_err("a status, not the queued messages");
        assert_eq!(status.code(), tonic::Code::ResourceExhausted);
        assert!(status.message().contains("stopped reading"), "{status:?}");
        assert!(stream.next().await.is_none());
        assert!(out.cut_reason().unwrap().contains("4 messages"));
    }

    #[tokio::test]
    async fn fail_comes_after_what_was_queued() {
        let (out, stream) = outbox::<u32>(8, "the referee");
        assert!(out.send(1));
        assert!(out.send(2));
        out.fail(Status::invalid_argument("bad"));
        drop(out);
        let got: Vec<_> = stream.collect().await;
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(*got[0].as_ref().unwrap(), 1);
        assert_eq!(*got[1].as_ref().unwrap(), 2);
        assert_eq!(
            got[2].as_ref().unwrap_err().code(),
            tonic::Code::InvalidArgument
        );
    }
}
