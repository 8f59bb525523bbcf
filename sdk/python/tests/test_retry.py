"""The Python SDK's retry policy is the Rust one's (arena_proto::retry): the same table of codes
as the Rust module's test, and the same backoff."""
import grpc

from arena import retry
from arena.retry import AFTER_CHANGE, NEVER, WITH_BACKOFF

C = grpc.StatusCode

# (code, retry advice for a call, whether a bot reconnects) — as in crates/proto/src/retry.rs.
TABLE = [
    (C.OK, NEVER, True),
    (C.CANCELLED, NEVER, True),
    (C.UNKNOWN, NEVER, True),
    (C.INVALID_ARGUMENT, NEVER, False),
    (C.DEADLINE_EXCEEDED, WITH_BACKOFF, True),
    (C.NOT_FOUND, AFTER_CHANGE, True),
    (C.ALREADY_EXISTS, NEVER, True),
    (C.PERMISSION_DENIED, AFTER_CHANGE, False),
    (C.RESOURCE_EXHAUSTED, WITH_BACKOFF, True),
    (C.FAILED_PRECONDITION, AFTER_CHANGE, True),
    (C.ABORTED, WITH_BACKOFF, False),
    (C.OUT_OF_RANGE, NEVER, True),
    (C.UNIMPLEMENTED, NEVER, False),
    (C.INTERNAL, NEVER, True),
    (C.UNAVAILABLE, WITH_BACKOFF, True),
    (C.DATA_LOSS, NEVER, True),
    (C.UNAUTHENTICATED, AFTER_CHANGE, False),
]


def test_every_code_has_the_advice_of_the_table():
    assert {code for code, _, _ in TABLE} == set(C)
    for code, advice, reconnects in TABLE:
        assert retry.retry_of(code) == advice, code
        assert retry.bot_reconnects(code) == reconnects, code


def test_a_client_waits_200_ms_doubled_up_to_5_s_and_starts_over_after_a_success():
    b = retry.Backoff()
    waits = [round(b.next_wait() * 1000) for _ in range(8)]
    assert waits == [200, 400, 800, 1600, 3200, 5000, 5000, 5000]
    b.reset()
    assert b.next_wait() == 0.2


def test_a_cap_below_the_first_wait_is_the_first_wait():
    b = retry.Backoff(1.0, 0.01)
    assert [b.next_wait(), b.next_wait()] == [1.0, 1.0]


def test_the_player_uses_the_policy():
    from arena.client import Player
    assert Player.__init__.__kwdefaults__["backoff"] == retry.BACKOFF
