"""The replay reader: length-delimited Replay exports, their JSON, and bad files."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

from arena import replay, wire
from arena.ddz.v1 import ddz_pb2
from arena.mahjong.v1 import mahjong_pb2
from arena.v1 import common_pb2 as pb, table_pb2


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def export(*replays):
    return b"".join(varint(len(r.SerializeToString())) + r.SerializeToString() for r in replays)


def sample(table, scores):
    return table_pb2.Replay(
        job=table_pb2.TableJob(table_id=table, game="ddz", seed=2**40, setup=wire.pack(ddz_pb2.Setup(rules_kind=ddz_pb2.RULES_COMPETITION))),
        steps=[table_pb2.ReplayStep(seat=1, kind=pb.DECISION_KIND_PLAY, action=pb.Action(game=wire.pack(ddz_pb2.Action(play="33"))), elapsed_ms=12)],
        result=table_pb2.TableResult(table_id=table, outcome=pb.Outcome(scores=scores, game=wire.pack(ddz_pb2.Outcome(spring=True)))),
        history=wire.pack(ddz_pb2.History(events=[ddz_pb2.Event(seat=1, play="33")])),
    )


def test_every_replay_of_an_export_is_read_in_order(tmp_path):
    path = tmp_path / "cup.replays"
    # A replay over 127 bytes has a two-byte length.
    big = sample("cup/m0/r0/t1", [2, -1, -1])
    big.steps.extend([big.steps[0]] * 20)
    path.write_bytes(export(sample("cup/m0/r0/t0", [1, -2, 1]), big))
    got = replay.read(path)
    assert [replay.table_id(r) for r in got] == ["cup/m0/r0/t0", "cup/m0/r0/t1"]
    assert got[1] == big


def test_the_json_is_the_canonical_mapping_with_each_game_message_typed():
    d = json.loads(replay.to_json(sample("t", [1, -2, 1])))
    assert d["job"] == {"tableId": "t", "game": "ddz", "seed": str(2**40),
                        "setup": {"@type": "/arena.ddz.v1.Setup", "rulesKind": "RULES_COMPETITION"}}
    assert d["steps"] == [{"seat": 1, "kind": "DECISION_KIND_PLAY", "elapsedMs": 12,
                           "action": {"game": {"@type": "/arena.ddz.v1.Action", "play": "33"}}}]
    assert d["result"]["outcome"] == {"scores": ["1", "-2", "1"], "game": {"@type": "/arena.ddz.v1.Outcome", "spring": True}}
    assert d["history"] == {"@type": "/arena.ddz.v1.History", "events": [{"seat": 1, "play": "33"}]}


def test_the_json_of_a_short_or_long_type_url_prints_and_parses_back():
    # arena writes `/arena.ddz.v1.Action`; replays stored before it wrote the long form.
    from google.protobuf import json_format
    short = sample("t", [1, -2, 1])
    assert short.history.type_url == "/arena.ddz.v1.History"
    long = table_pb2.Replay()
    long.CopyFrom(short)
    for any_ in (long.job.setup, long.steps[0].action.game, long.result.outcome.game, long.history):
        any_.type_url = "type.googleapis.com/" + any_.TypeName()
    for r in (short, long):
        d = replay.to_dict(r)
        assert d["steps"][0]["action"]["game"] == {"@type": r.steps[0].action.game.type_url, "play": "33"}
        assert json_format.ParseDict(d, table_pb2.Replay()) == r
    assert wire.unpack(long.history, ddz_pb2.History, "history") == wire.unpack(short.history, ddz_pb2.History, "history")


def test_a_mahjong_replay_prints_its_own_messages():
    r = table_pb2.Replay(
        job=table_pb2.TableJob(table_id="m", game="mahjong", setup=wire.pack(mahjong_pb2.Setup(fans=mahjong_pb2.FANS_SEED_2015))),
        history=wire.pack(mahjong_pb2.History(hands=["1M 2M"])))
    d = json.loads(replay.to_json(r))
    assert d["job"]["setup"] == {"@type": "/arena.mahjong.v1.Setup", "fans": "FANS_SEED_2015"}
    assert d["history"]["hands"] == ["1M 2M"]


def test_a_game_message_of_a_game_the_sdk_does_not_know_is_an_error_naming_it():
    from google.protobuf import any_pb2
    r = table_pb2.Replay(job=table_pb2.TableJob(table_id="c", game="chess", setup=any_pb2.Any(type_url="/arena.chess.v1.Setup")))
    with pytest.raises(replay.ReplayError, match="replay of table 'c': .*arena.chess.v1.Setup"):
        replay.to_json(r)


@pytest.mark.parametrize("data, says", [
    (b"\x85", "ends inside its length"),
    (varint(10) + b"\x08\x01", "10 bytes announced, 2 left"),
    (varint(3) + b"\xff\xff\xff", "not an arena.v1.Replay"),
    (varint(1 << 40), "beyond"),
])
def test_a_bad_export_is_an_error_saying_where(data, says):
    good = export(sample("t", [0, 0, 0]))
    with pytest.raises(replay.ReplayError, match=f"replay 1 at byte {len(good)}: .*{says}"):
        list(replay.parse(good + data))


def test_the_command_prints_json_lines_and_picks_a_table(tmp_path):
    path = tmp_path / "x.replays"
    path.write_bytes(export(sample("a", [1, 0, -1]), sample("b", [0, 1, -1])))
    src = str(pathlib.Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": src}
    run = lambda *a: subprocess.run([sys.executable, "-m", "arena.replay", *a], capture_output=True, text=True, env=env)
    out = run(str(path))
    assert out.returncode == 0, out.stderr
    assert [json.loads(l)["job"]["tableId"] for l in out.stdout.splitlines()] == ["a", "b"]
    one = run(str(path), "--table", "b")
    assert [json.loads(l)["job"]["tableId"] for l in one.stdout.splitlines()] == ["b"]
    missing = run(str(path), "--table", "zz")
    assert missing.returncode == 1 and "no replay of table 'zz' among 2" in missing.stderr
    bad = tmp_path / "bad"
    bad.write_bytes(b"\x85")
    out = run(str(bad))
    assert out.returncode == 2 and "ends inside its length" in out.stderr and "Traceback" not in out.stderr
