"""Adding a game touches no existing file of the SDK: its stubs come from its .proto by glob,
its module under arena.games is found by walking the package, and the connection plays it."""
import importlib.util
import pathlib
import shutil
import sys

import pytest

import arena
from arena import games

SDK = pathlib.Path(__file__).resolve().parents[1]

TOY_PROTO = """syntax = "proto3";
package arena.toy.v1;
message Action { string say = 1; }
message Event { uint32 seat = 1; }
message Observation { repeated Event events = 1; repeated string legal = 2; }
message Outcome {}
"""

TOY_MODULE = '''
from arena.bot import GameBot
from arena.ddz.v1 import ddz_pb2
from arena.v1 import common_pb2 as pb

GAME = "toy"


class Bot(GameBot):
    game = GAME
    Observation, Event, Action, Outcome = ddz_pb2.Observation, ddz_pb2.Event, ddz_pb2.Action, ddz_pb2.Outcome
    METHODS = {pb.DECISION_KIND_PLAY: "play"}
    action = staticmethod(lambda kind, answer: ddz_pb2.Action(play=answer))
'''


def load_tool():
    spec = importlib.util.spec_from_file_location("generate", SDK / "tools" / "generate.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_a_new_games_proto_is_generated_into_its_own_package(tmp_path, monkeypatch):
    pytest.importorskip("grpc_tools")
    tool = load_tool()
    proto = tmp_path / "proto"
    shutil.copytree(tool.PROTO_ROOT, proto)
    (proto / "arena" / "toy" / "v1").mkdir(parents=True)
    (proto / "arena" / "toy" / "v1" / "toy.proto").write_text(TOY_PROTO)
    monkeypatch.setattr(tool, "PROTO_ROOT", proto)
    out = tmp_path / "out"
    out.mkdir()
    tool.generate(out)
    files = {p.as_posix() for p in tool.generated_files(out)}
    assert {"arena/toy/v1/toy_pb2.py", "arena/toy/v1/toy_pb2.pyi", "arena/ddz/v1/ddz_pb2.py", "arena/v1/seat_pb2.py"} <= files
    # Every proto directory (and its parent under arena/) becomes a package, the toy's among them.
    wanted = set()
    for source in proto.rglob("*.proto"):
        folder = source.parent.relative_to(proto)
        wanted |= {folder.as_posix(), folder.parent.as_posix()}
    wanted.discard("arena")
    packages = {p.as_posix() for p in tool.packages(tool.generated_files(out))}
    assert {"arena/toy", "arena/toy/v1"} <= packages
    assert packages == wanted


def test_a_module_added_under_arena_games_is_found_and_played(tmp_path, monkeypatch):
    (tmp_path / "toy.py").write_text(TOY_MODULE)
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    before = games.names()
    games._modules.cache_clear()
    try:
        assert games.names() == sorted([*before, "toy"])
        toy = games.module("toy")

        class Talker(toy.Bot):
            release = "t-1"

            def play(self, obs):
                return "hi"

        from arena.games import ddz
        p = arena.Player(Talker, ddz.Bot, name="b", token="x")
        assert (p.games, p.release) == (["ddz", "toy"], "t-1")
    finally:
        sys.modules.pop("arena.games.toy", None)
        monkeypatch.undo()
        games._modules.cache_clear()
    assert games.names() == before
