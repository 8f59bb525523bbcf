//! [`Coalesce`]: a message stream whose bursts leave in one HTTP/2 write.
//!
//! tonic encodes every message its outgoing stream has ready into one DATA frame, and the
//! connection writes what is queued each time it runs. But a message usually wakes the stream's
//! task the moment it is sent, and tokio runs a task woken that way next, so every message of a
//! busy stream (one bot's requests from many tables, one referee's seats) goes out in a write
//! and a wake-up of its own: at load that is most of the path's CPU. [`Coalesce`] holds the
//! first message after a quiet spell back for one turn of the runtime's queue (the task wakes
//! itself and goes to the back), so the messages the other ready tasks send meanwhile join it.
//! Idle, that costs one extra poll of the stream's task; it never holds a message longer than
//! the tasks already waiting to run.

use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

/// A stream whose first ready item after a `Pending` is handed out one poll later.
pub struct Coalesce<S: Stream> {
    inner: S,
    held: Option<S::Item>,
    /// The last poll of `inner` was `Pending` (or there was none yet).
    quiet: bool,
}

impl<S: Stream> Coalesce<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Coalesce<S> {
        Coalesce {
            inner,
            held: None,
            quiet: true,
        }
    }
}

impl<S: Stream + Unpin> Stream for Coalesce<S>
where
    S::Item: Unpin,
{
    type Item = S::Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let this = &mut *self;
        if let Some(item) = this.held.take() {
            return Poll::Ready(Some(item));
        }
        match Pin::new(&mut this.inner).poll_next(cx) {
            Poll::Ready(Some(item)) if this.quiet => {
                this.quiet = false;
                this.held = Some(item);
                // To the back of the queue: the tasks already waiting run first.
                cx.waker().wake_by_ref();
                Poll::Pending
            }
            Poll::Ready(other) => Poll::Ready(other),
            Poll::Pending => {
                this.quiet = true;
                Poll::Pending
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let held = usize::from(self.held.is_some());
        let (lo, hi) = self.inner.size_hint();
        (lo + held, hi.map(|h| h + held))
    }
}

/// A stream of `Result<T, E>` handed out as batches: every item ready together (after
/// [`Coalesce`]'s one turn) in one `Vec`, up to `max_items` items or `max_bytes` of encoded
/// messages a batch (an item bigger than that alone goes in a batch of its own). An error ends
/// the batch it came in; it is handed out after the items before it.
pub struct Batched<S: Stream> {
    inner: Coalesce<S>,
    held: Option<S::Item>,
    max_items: usize,
    max_bytes: usize,
}

impl<S: Stream> Batched<S> {
    /// Batches of `inner`'s items, at most `max_items` (at least 1) and `max_bytes` each.
    pub fn new(inner: S, max_items: usize, max_bytes: usize) -> Batched<S> {
        Batched {
            inner: Coalesce::new(inner),
            held: None,
            max_items: max_items.max(1),
            max_bytes,
        }
    }
}

impl<S, T, E> Stream for Batched<S>
where
    S: Stream<Item = Result<T, E>> + Unpin,
    T: prost::Message + Unpin,
    E: Unpin,
{
    type Item = Result<Vec<T>, E>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        let mut batch = Vec::new();
        let mut bytes = 0usize;
        loop {
            let next = match this.held.take() {
                Some(item) => Poll::Ready(Some(item)),
                None => Pin::new(&mut this.inner).poll_next(cx),
            };
            match next {
                Poll::Ready(Some(Ok(item))) => {
                    let len = item.encoded_len();
                    if !batch.is_empty() && bytes + len > this.max_bytes {
                        this.held = Some(Ok(item));
                        return Poll::Ready(Some(Ok(batch)));
                    }
                    bytes += len;
                    batch.push(item);
                    if batch.len() >= this.max_items {
                        return Poll::Ready(Some(Ok(batch)));
                    }
                }
                Poll::Ready(Some(Err(e))) if batch.is_empty() => return Poll::Ready(Some(Err(e))),
                Poll::Ready(Some(Err(e))) => {
                    this.held = Some(Err(e));
                    return Poll::Ready(Some(Ok(batch)));
                }
                Poll::Ready(None) if batch.is_empty() => return Poll::Ready(None),
                Poll::Pending if batch.is_empty() => return Poll::Pending,
                Poll::Ready(None) | Poll::Pending => return Poll::Ready(Some(Ok(batch))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;
    use std::task::Waker;

    /// A stream of scripted polls: `Some(item)` ready, `None` pending.
    struct Script<T>(VecDeque<Option<T>>);

    impl<T: Unpin> Stream for Script<T> {
        type Item = T;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<T>> {
            match self.0.pop_front() {
                Some(Some(item)) => Poll::Ready(Some(item)),
                Some(None) => Poll::Pending,
                None => Poll::Ready(None),
            }
        }
    }

    fn poll<S: Stream + Unpin>(s: &mut S) -> Poll<Option<S::Item>> {
        Pin::new(s).poll_next(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn the_first_item_after_a_quiet_spell_waits_one_poll_and_the_rest_flow() {
        let mut s = Coalesce::new(Script([Some(1), Some(2), None, Some(3)].into()));
        assert_eq!(poll(&mut s), Poll::Pending, "held back for one turn");
        assert_eq!(poll(&mut s), Poll::Ready(Some(1)));
        assert_eq!(
            poll(&mut s),
            Poll::Ready(Some(2)),
            "a busy stream is not held"
        );
        assert_eq!(poll(&mut s), Poll::Pending);
        assert_eq!(poll(&mut s), Poll::Pending, "quiet again: held back");
        assert_eq!(poll(&mut s), Poll::Ready(Some(3)));
        assert_eq!(poll(&mut s), Poll::Ready(None));
    }

    #[test]
    fn a_held_back_item_wakes_its_task_so_it_is_not_lost() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicUsize, Ordering};
        struct Count(AtomicUsize);
        impl std::task::Wake for Count {
            fn wake(self: Arc<Self>) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let waker = Waker::from(Arc::clone(&count));
        let mut s = Coalesce::new(Script([Some(1)].into()));
        let got = Pin::new(&mut s).poll_next(&mut Context::from_waker(&waker));
        assert_eq!(got, Poll::Pending);
        assert_eq!(count.0.load(Ordering::SeqCst), 1, "the task was woken");
    }

    /// A message of one field, two bytes encoded for the numbers used here.
    #[derive(Clone, PartialEq, prost::Message)]
    struct N {
        #[prost(uint32, tag = "1")]
        n: u32,
    }

    type Item = Result<N, &'static str>;

    fn script(steps: &[Option<Result<u32, &'static str>>]) -> Script<Item> {
        Script(
            steps
                .iter()
                .map(|s| s.map(|r| r.map(|n| N { n })))
                .collect(),
        )
    }

    fn ns(
        batch: Poll<Option<Result<Vec<N>, &'static str>>>,
    ) -> Poll<Option<Result<Vec<u32>, &'static str>>> {
        batch.map(|o| o.map(|r| r.map(|v| v.into_iter().map(|w| w.n).collect())))
    }

    #[test]
    fn items_ready_together_leave_in_one_batch_and_an_error_after_them() {
        let steps = [
            Some(Ok(1)),
            Some(Ok(2)),
            Some(Ok(3)),
            None,
            Some(Ok(4)),
            Some(Err("cut")),
        ];
        let mut s = Batched::new(script(&steps), 100, 1 << 20);
        assert_eq!(ns(poll(&mut s)), Poll::Pending);
        assert_eq!(ns(poll(&mut s)), Poll::Ready(Some(Ok(vec![1, 2, 3]))));
        assert_eq!(ns(poll(&mut s)), Poll::Pending);
        assert_eq!(
            ns(poll(&mut s)),
            Poll::Ready(Some(Ok(vec![4]))),
            "the items before the error"
        );
        assert_eq!(ns(poll(&mut s)), Poll::Ready(Some(Err("cut"))));
        assert_eq!(ns(poll(&mut s)), Poll::Ready(None));
    }

    #[test]
    fn a_batch_stops_at_its_item_and_byte_limits() {
        let ready: Vec<_> = (1..=5).map(|n| Some(Ok(n))).collect();
        let mut s = Batched::new(script(&ready), 2, 1 << 20);
        assert_eq!(ns(poll(&mut s)), Poll::Pending);
        assert_eq!(ns(poll(&mut s)), Poll::Ready(Some(Ok(vec![1, 2]))));
        assert_eq!(ns(poll(&mut s)), Poll::Ready(Some(Ok(vec![3, 4]))));
        assert_eq!(ns(poll(&mut s)), Poll::Ready(Some(Ok(vec![5]))));
        // Each item encodes to 2 bytes: 5 bytes hold two of them.
        let mut s = Batched::new(script(&ready), 100, 5);
        assert_eq!(ns(poll(&mut s)), Poll::Pending);
        assert_eq!(ns(poll(&mut s)), Poll::Ready(Some(Ok(vec![1, 2]))));
        assert_eq!(ns(poll(&mut s)), Poll::Ready(Some(Ok(vec![3, 4]))));
        assert_eq!(ns(poll(&mut s)), Poll::Ready(Some(Ok(vec![5]))));
        assert_eq!(ns(poll(&mut s)), Poll::Ready(None));
    }
}
