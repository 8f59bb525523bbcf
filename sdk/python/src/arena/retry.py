"""The client retry policy, mirroring the Rust one (`arena_proto::retry`, re-exported by
`arena_serve::error`): which failed calls a client tries again, whether a bot's stream to
bot-host is opened again, and how long a client waits between attempts. The same table of codes
is asserted here (`tests/test_retry.py`) and in the Rust module's test; change both together.
"""
import grpc

NEVER = "never"
"""Retrying the same call cannot help."""
WITH_BACKOFF = "with_backoff"
"""The same call may succeed later: retry with (exponential) backoff."""
AFTER_CHANGE = "after_change"
"""The same call may succeed once something else changed (the state, a credential)."""

_C = grpc.StatusCode

RETRY = {
    _C.OK: NEVER,
    _C.CANCELLED: NEVER,
    _C.UNKNOWN: NEVER,
    _C.INVALID_ARGUMENT: NEVER,
    _C.DEADLINE_EXCEEDED: WITH_BACKOFF,
    _C.NOT_FOUND: AFTER_CHANGE,
    _C.ALREADY_EXISTS: NEVER,
    _C.PERMISSION_DENIED: AFTER_CHANGE,
    _C.RESOURCE_EXHAUSTED: WITH_BACKOFF,
    _C.FAILED_PRECONDITION: AFTER_CHANGE,
    _C.ABORTED: WITH_BACKOFF,
    _C.OUT_OF_RANGE: NEVER,
    _C.UNIMPLEMENTED: NEVER,
    _C.INTERNAL: NEVER,
    _C.UNAVAILABLE: WITH_BACKOFF,
    _C.DATA_LOSS: NEVER,
    _C.UNAUTHENTICATED: AFTER_CHANGE,
}
"""What a client may do about a call that failed with a code (`retry_of` in Rust)."""

REFUSED = frozenset({
    _C.UNAUTHENTICATED,
    _C.INVALID_ARGUMENT,
    _C.PERMISSION_DENIED,
    _C.UNIMPLEMENTED,
    _C.ABORTED,
})
"""The codes that end a bot instead of its reconnecting: a wrong token or name, a revoked token,
a bad Hello, a game bot-host does not host, or its session resumed by another process. Every
other failure of the stream is tried again (`bot_reconnects` in Rust)."""

BACKOFF = (0.2, 5.0)
"""A client's backoff, in seconds: the first wait, doubled after each failed attempt up to the
second; back to the first once an attempt got through (`Backoff::CLIENT` in Rust)."""


def retry_of(code):
    """What a client may do about a call that failed with `code`: NEVER, WITH_BACKOFF or
    AFTER_CHANGE."""
    return RETRY.get(code, NEVER)


def bot_reconnects(code):
    """Whether a bot whose stream to bot-host failed with `code` opens it again."""
    return code not in REFUSED


class Backoff:
    """Waits of `first` seconds, doubled after each attempt up to `longest` (at least `first`)."""

    def __init__(self, first=BACKOFF[0], longest=BACKOFF[1]):
        self.first = first
        self.longest = max(first, longest)
        self._next = first

    def next_wait(self):
        """The wait before the next attempt; the one after it is twice as long, up to the cap."""
        wait = self._next
        self._next = min(wait * 2, self.longest)
        return wait

    def reset(self):
        """An attempt got through: the next wait is the first again."""
        self._next = self.first
