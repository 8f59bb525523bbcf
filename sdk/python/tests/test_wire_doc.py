"""docs/wire.md's worked examples are what the wire says: each request's bytes decode to the
request described, and the SDK answers it with exactly the reply bytes shown."""
import pathlib
import re

from arena import client
from arena.games import ddz, mahjong
from arena.mahjong.v1 import mahjong_pb2
from arena.v1 import common_pb2 as pb, seat_pb2

DOC = pathlib.Path(__file__).resolve().parents[3] / "docs" / "wire.md"


def examples():
    """Each byte listing of the doc (a code block of annotated hex), as bytes."""
    out = []
    for block in re.findall(r"```\n(08 .*?)```", DOC.read_text(), re.S):
        hex_bytes = []
        for line in block.splitlines():
            # Each line is bytes, then what they say.
            for token in line.split():
                if not re.fullmatch(r"[0-9a-f]{2}", token):
                    break
                hex_bytes.append(token)
        out.append(bytes.fromhex("".join(hex_bytes)))
    return out


class Plays44(ddz.Bot):
    def play(self, obs):
        assert [e.bid or e.play for e in obs.events] == [3, "3"]
        return "44"


class Pungs(mahjong.Bot):
    def claim(self, obs):
        assert obs.tile == "1M" and len(obs.events) == 5
        return "pung"


def reply(bot, r):
    return seat_pb2.DecisionReply(request_id=r.request_id, table_id=r.table_id, action=bot.to_action(r, bot.decide(r)))


def test_the_worked_examples_decode_and_the_sdk_answers_them_byte_for_byte():
    ddz_request, ddz_reply, mj_request, mj_reply = examples()

    r = seat_pb2.DecisionRequest.FromString(ddz_request)
    assert (r.request_id, r.table_id, r.game, r.kind) == (7, "t1", "ddz", pb.DECISION_KIND_PLAY)
    assert r.SerializeToString() == ddz_request
    assert reply(Plays44(), r).SerializeToString() == ddz_reply

    r = seat_pb2.DecisionRequest.FromString(mj_request)
    assert (r.request_id, r.table_id, r.seat, r.game, r.kind, r.observation.events_from) == (12, "m1", 2, "mahjong", pb.DECISION_KIND_CLAIM, 4)
    assert r.SerializeToString() == mj_request
    # The seat holds the four events before it, as the connection would.
    seat = client._Seat(Pungs())
    seat.history = [mahjong_pb2.Event(seat=0, kind=mahjong_pb2.EVENT_KIND_DRAW).SerializeToString()] * 4
    assert client.rebuild(seat, r) is None
    assert reply(seat.bot, r).SerializeToString() == mj_reply
