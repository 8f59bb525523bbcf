//! The one client retry policy: which failed calls a client tries again, and how long it waits
//! between attempts.
//!
//! It lives beside the protocol rather than in `arena_serve::error` (which re-exports it, next
//! to the errors the roles answer with) because the Rust SDK must not pull in a role's
//! dependencies (the store, the HTTP server) to learn it. The Rust SDK's connection and
//! `arena load`'s bots use it; the Python SDK mirrors it (`arena.retry`, whose test
//! `sdk/python/tests/test_retry.py` holds the same table of codes as this module's test).
//!
//! - A call: [`retry_of`] says what its failure allows (the table of `arena_serve::error`).
//! - A bot's stream to bot-host: [`bot_reconnects`] says whether the bot opens it again. A bot
//!   plays for weeks through bot-host restarts and store outages, so it reconnects after every
//!   failure except the refusals no attempt can fix.
//! - The wait between attempts: [`Backoff`], from [`Backoff::CLIENT`] for clients: 200 ms,
//!   doubled after each failed attempt up to 5 s, and back to 200 ms once an attempt got
//!   through.

use std::time::Duration;

use tonic::Code;

/// What a client may do about a failed call.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Retry {
    /// Retrying the same call cannot help.
    Never,
    /// The same call may succeed later: retry with (exponential) [`Backoff`].
    WithBackoff,
    /// The same call may succeed once something else changed (the state, a credential).
    AfterChange,
}

/// What a client may do about a call that failed with `code`.
pub fn retry_of(code: Code) -> Retry {
    match code {
        Code::Unavailable | Code::DeadlineExceeded | Code::Aborted | Code::ResourceExhausted => {
            Retry::WithBackoff
        }
        Code::NotFound
        | Code::FailedPrecondition
        | Code::Unauthenticated
        | Code::PermissionDenied => Retry::AfterChange,
        Code::Ok
        | Code::Cancelled
        | Code::Unknown
        | Code::InvalidArgument
        | Code::AlreadyExists
        | Code::OutOfRange
        | Code::Unimplemented
        | Code::Internal
        | Code::DataLoss => Retry::Never,
    }
}

/// Whether a bot whose stream to bot-host failed with `code` opens it again (after its
/// [`Backoff`]): always, but for the refusals another attempt cannot fix — a wrong token or
/// name (`UNAUTHENTICATED`), a revoked token (`PERMISSION_DENIED`), a bad `Hello`
/// (`INVALID_ARGUMENT`), a game bot-host does not host (`UNIMPLEMENTED`), or its session resumed
/// by another process (`ABORTED`: that process is the bot now). `ALREADY_EXISTS` (the bot still
/// connected elsewhere) is tried again: the other connection's presence expires.
pub fn bot_reconnects(code: Code) -> bool {
    !matches!(
        code,
        Code::Unauthenticated
            | Code::InvalidArgument
            | Code::PermissionDenied
            | Code::Unimplemented
            | Code::Aborted
    )
}

/// Exponential backoff between attempts: the first wait, doubled after each failed attempt up
/// to a cap, and back to the first once an attempt got through ([`Backoff::reset`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backoff {
    first: Duration,
    max: Duration,
    next: Duration,
}

impl Backoff {
    /// A client's backoff: 200 ms, doubled up to 5 s.
    pub const CLIENT: Backoff = Backoff::new(Duration::from_millis(200), Duration::from_secs(5));

    /// Waits of `first`, doubled after each attempt up to `max` (at least `first`).
    pub const fn new(first: Duration, max: Duration) -> Backoff {
        let max = if max.as_nanos() < first.as_nanos() {
            first
        } else {
            max
        };
        Backoff {
            first,
            max,
            next: first,
        }
    }

    /// The first wait.
    pub const fn first(&self) -> Duration {
        self.first
    }

    /// The longest wait.
    pub const fn max(&self) -> Duration {
        self.max
    }

    /// The wait before the next attempt; the one after it is twice as long, up to the cap.
    pub fn next_wait(&mut self) -> Duration {
        let wait = self.next;
        self.next = wait.saturating_mul(2).min(self.max);
        wait
    }

    /// An attempt got through: the next wait is the first again.
    pub fn reset(&mut self) {
        self.next = self.first;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every code's advice for a call and for a bot's stream: the Python SDK's
    /// `tests/test_retry.py` holds this same table.
    const TABLE: [(Code, Retry, bool); 17] = [
        (Code::Ok, Retry::Never, true),
        (Code::Cancelled, Retry::Never, true),
        (Code::Unknown, Retry::Never, true),
        (Code::InvalidArgument, Retry::Never, false),
        (Code::DeadlineExceeded, Retry::WithBackoff, true),
        (Code::NotFound, Retry::AfterChange, true),
        (Code::AlreadyExists, Retry::Never, true),
        (Code::PermissionDenied, Retry::AfterChange, false),
        (Code::ResourceExhausted, Retry::WithBackoff, true),
        (Code::FailedPrecondition, Retry::AfterChange, true),
        (Code::Aborted, Retry::WithBackoff, false),
        (Code::OutOfRange, Retry::Never, true),
        (Code::Unimplemented, Retry::Never, false),
        (Code::Internal, Retry::Never, true),
        (Code::Unavailable, Retry::WithBackoff, true),
        (Code::DataLoss, Retry::Never, true),
        (Code::Unauthenticated, Retry::AfterChange, false),
    ];

    #[test]
    fn every_code_has_the_advice_of_the_table() {
        for (code, retry, reconnects) in TABLE {
            assert_eq!(retry_of(code), retry, "{code:?}");
            assert_eq!(bot_reconnects(code), reconnects, "{code:?}");
        }
    }

    #[test]
    fn a_client_waits_200_ms_doubled_up_to_5_s_and_starts_over_after_a_success() {
        let mut b = Backoff::CLIENT;
        let waits: Vec<u128> = (0..8).map(|_| b.next_wait().as_millis()).collect();
        assert_eq!(waits, [200, 400, 800, 1600, 3200, 5000, 5000, 5000]);
        b.reset();
        assert_eq!(b.next_wait(), Duration::from_millis(200));
    }

    #[test]
    fn a_cap_below_the_first_wait_is_the_first_wait() {
        let mut b = Backoff::new(Duration::from_secs(1), Duration::from_millis(10));
        assert_eq!(b.next_wait(), Duration::from_secs(1));
        assert_eq!(b.next_wait(), Duration::from_secs(1));
    }
}
