"""The connection against a scripted bot-host: a gRPC server in the test whose Play handler
plays each stream as the test says, so the SDK's side of resume, shutdown and refusals is
checked message by message (the real bot-host is in crates/cli/tests/remote_example_bots.rs)."""
import queue
import threading
from concurrent import futures

import grpc
import pytest

import arena
from arena import wire
from arena.ddz.v1 import ddz_pb2
from arena.games import ddz, mahjong
from arena.mahjong.v1 import mahjong_pb2
from arena.v1 import bot_pb2, bot_pb2_grpc, common_pb2 as pb, seat_pb2

WAIT = 30  # seconds: a generous bound for a step that takes milliseconds


def ddz_request(table, request_id, kind=pb.DECISION_KIND_PLAY, legal=("pass", "3"), game="ddz"):
    return seat_pb2.DecisionRequest(
        request_id=request_id, table_id=table, seat=0, game=game, kind=kind, deadline_ms=1000,
        observation=pb.Observation(game=wire.pack(ddz_pb2.Observation(legal=list(legal)))))


def mahjong_request(table, request_id, kind=pb.DECISION_KIND_TURN, legal=("discard 1M",)):
    return seat_pb2.DecisionRequest(
        request_id=request_id, table_id=table, seat=1, game="mahjong", kind=kind, deadline_ms=1000,
        observation=pb.Observation(game=wire.pack(mahjong_pb2.Observation(legal=list(legal)))))


def played(reply):
    """A reply's Dou Dizhu play."""
    return wire.unpack(reply.action.game, ddz_pb2.Action, "reply").play


def mahjong_answer(reply):
    return wire.unpack(reply.action.game, mahjong_pb2.Action, "reply")


class Script(bot_pb2_grpc.BotGatewayServicer):
    """Each call to Play runs the next of `streams`: a function (hellos, inbox, send, context)
    where `inbox` yields what the bot sends after its Hello."""

    def __init__(self, streams):
        self.streams = list(streams)
        self.hellos = []
        self.metadata = []

    def Play(self, request_iterator, context):
        out = queue.Queue()
        inbox = queue.Queue()
        first = next(request_iterator)
        self.hellos.append(first.hello)
        self.metadata.append(dict(context.invocation_metadata()))

        def pump():
            try:
                for m in request_iterator:
                    inbox.put(m)
            except Exception:
                pass
            inbox.put(None)

        threading.Thread(target=pump, daemon=True).start()
        script = self.streams.pop(0)
        # The script runs on a thread of its own; only the handler's thread may abort the call,
        # so the script's `ctx.abort` is a message to it.
        ctx = Aborter(out)
        done = threading.Thread(target=lambda: (script(first.hello, inbox, out.put, ctx), out.put(None)), daemon=True)
        done.start()
        while True:
            m = out.get(timeout=WAIT)
            if m is None:
                return
            if isinstance(m, tuple):
                context.abort(*m)
            yield m


class Aborter:
    """What a script gets as `ctx`: `abort(code, details)` ends the call with that status."""

    def __init__(self, out):
        self.out = out

    def abort(self, code, details):
        self.out.put((code, details))


def serve(script):
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    bot_pb2_grpc.add_BotGatewayServicer_to_server(script, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, f"127.0.0.1:{port}"


def next_of(inbox, kind):
    """The next message of `kind` the bot sent, skipping pongs."""
    while True:
        m = inbox.get(timeout=WAIT)
        assert m is not None, f"the bot closed its stream before sending a {kind}"
        if m.WhichOneof("msg") == kind:
            return m
        assert m.WhichOneof("msg") == "pong", f"expected a {kind}, got {m}"


def welcome(session, resumed=()):
    return bot_pb2.HostToBot(welcome=bot_pb2.Welcome(session=session, bot="b", grace_ms=10000, keepalive_ms=5000, resumed=list(resumed)))


class Counting(ddz.Bot):
    """Plays the first non-pass play; counts its decisions by request id, and can be held."""

    calls = []
    gate = None

    def play(self, obs):
        Counting.calls.append(obs.legal[-1])
        if Counting.gate is not None:
            assert Counting.gate.wait(WAIT)
        return [m for m in obs.legal if m != "pass"][0]


def player(target, **options):
    return arena.Player(Counting, name="b", token="t0k", target=target, backoff=(0.01, 0.05), **options)


def in_thread(p):
    result = {}
    t = threading.Thread(target=lambda: result.update(summary=p.run()), daemon=True)
    t.start()
    return t, result


def test_hello_carries_name_release_capacity_games_and_the_token():
    class Mj(mahjong.Bot):
        release = "mj-7"

        def turn(self, obs):
            return "discard 1M"

    def first(hello, inbox, send, ctx):
        send(welcome("s1"))
        send(bot_pb2.HostToBot(ping=bot_pb2.Ping(nonce=42)))
        pong = next_of(inbox, "pong")
        assert pong.pong.nonce == 42
        send(bot_pb2.HostToBot(start=bot_pb2.TableStart(table_id="t", seat=0, game="mahjong")))
        p.stop()
        next_of(inbox, "drain")

    script = Script([first])
    server, target = serve(script)
    try:
        p = arena.Player(Mj, name="b", token="t0k", target=target, capacity=3)
        t, result = in_thread(p)
        t.join(WAIT)
        assert not t.is_alive()
    finally:
        server.stop(None)
    hello = script.hellos[0]
    assert (hello.bot, hello.release, hello.capacity, list(hello.games), hello.resume_session) == ("b", "mj-7", 3, ["mahjong"], "")
    assert script.metadata[0]["authorization"] == "Bearer t0k"
    assert result["summary"].drained


def test_a_dropped_stream_is_resumed_and_an_answer_made_while_disconnected_is_sent_not_recomputed():
    Counting.calls = []
    Counting.gate = threading.Event()
    req = ddz_request("t1", 7, legal=("pass", "4"))

    def first(hello, inbox, send, ctx):
        send(welcome("sess-1"))
        send(bot_pb2.HostToBot(start=bot_pb2.TableStart(table_id="t1", seat=0, game="ddz")))
        send(bot_pb2.HostToBot(request=req))
        # The bot is deciding (held at the gate) when its stream breaks.
        while Counting.calls != ["4"]:
            threading.Event().wait(0.005)
        ctx.abort(grpc.StatusCode.UNAVAILABLE, "connection lost")

    got = {}

    def second(hello, inbox, send, ctx):
        got["resume"] = hello.resume_session
        Counting.gate.set()  # the answer is made while no stream is up, or just after
        send(welcome("sess-1", resumed=[req]))
        got["reply"] = next_of(inbox, "reply").reply
        send(bot_pb2.HostToBot(request=ddz_request("t1", 8, legal=("pass", "5"))))
        got["next"] = next_of(inbox, "reply").reply
        send(bot_pb2.HostToBot(end=bot_pb2.TableEnd(table_id="t1", seat=0, outcome=pb.Outcome(scores=[1, -1, 0]))))
        p.stop()
        next_of(inbox, "drain")

    script = Script([first, second])
    server, target = serve(script)
    try:
        p = player(target)
        t, result = in_thread(p)
        t.join(WAIT)
        assert not t.is_alive()
    finally:
        Counting.gate = None
        server.stop(None)
    assert got["resume"] == "sess-1"
    assert (got["reply"].request_id, got["reply"].table_id, played(got["reply"])) == (7, "t1", "4")
    assert played(got["next"]) == "5"
    assert Counting.calls == ["4", "5"], "request 7 was decided once, not again on resume"
    s = result["summary"]
    assert (s.connections, s.resumed, s.tables, s.drained) == (2, 1, 1, True)


def test_stopping_sends_drain_keeps_answering_and_returns_when_bot_host_ends_the_stream():
    Counting.calls = []
    Counting.gate = None
    order = []

    def first(hello, inbox, send, ctx):
        send(welcome("s"))
        send(bot_pb2.HostToBot(start=bot_pb2.TableStart(table_id="t", seat=0)))
        send(bot_pb2.HostToBot(request=ddz_request("t", 1)))
        next_of(inbox, "reply")
        p.stop()
        next_of(inbox, "drain")
        order.append("drain")
        # The table in flight goes on after the drain.
        send(bot_pb2.HostToBot(request=ddz_request("t", 2, legal=("pass", "6"))))
        order.append(played(next_of(inbox, "reply").reply))
        send(bot_pb2.HostToBot(end=bot_pb2.TableEnd(table_id="t", seat=0)))
        order.append("end")

    script = Script([first])
    server, target = serve(script)
    try:
        p = player(target)
        t, result = in_thread(p)
        t.join(WAIT)
        assert not t.is_alive(), "run() returns once bot-host ended the stream"
    finally:
        server.stop(None)
    assert order == ["drain", "6", "end"]
    assert result["summary"].drained and result["summary"].tables == 1
    assert len(script.hellos) == 1, "a drained bot does not connect again"


def test_a_drain_interrupted_by_a_lost_stream_is_said_again_after_resuming():
    def first(hello, inbox, send, ctx):
        send(welcome("s"))
        send(bot_pb2.HostToBot(start=bot_pb2.TableStart(table_id="t", seat=0)))
        p.stop()
        next_of(inbox, "drain")
        ctx.abort(grpc.StatusCode.UNAVAILABLE, "gone")

    def second(hello, inbox, send, ctx):
        assert hello.resume_session == "s"
        send(welcome("s"))
        next_of(inbox, "drain")
        send(bot_pb2.HostToBot(end=bot_pb2.TableEnd(table_id="t", seat=0)))

    script = Script([first, second])
    server, target = serve(script)
    try:
        p = player(target)
        t, result = in_thread(p)
        t.join(WAIT)
        assert not t.is_alive()
    finally:
        server.stop(None)
    assert len(script.hellos) == 2 and result["summary"].drained


def test_a_refused_token_is_an_error_naming_the_refusal_not_endless_retries():
    def refuse(hello, inbox, send, ctx):
        ctx.abort(grpc.StatusCode.UNAUTHENTICATED, "hello.bot and the token do not match")

    server, target = serve(Script([refuse]))
    try:
        with pytest.raises(arena.ArenaError, match="UNAUTHENTICATED: hello.bot and the token do not match"):
            player(target).run()
    finally:
        server.stop(None)


def test_a_bot_that_raises_answers_an_empty_action_and_goes_on():
    class Broken(ddz.Bot):
        def play(self, obs):
            raise RuntimeError("bug")

    got = {}

    def first(hello, inbox, send, ctx):
        send(welcome("s"))
        send(bot_pb2.HostToBot(request=ddz_request("t", 1)))
        got["reply"] = next_of(inbox, "reply").reply
        p.stop()
        next_of(inbox, "drain")

    server, target = serve(Script([first]))
    try:
        p = arena.Player(Broken, name="b", token="x", target=target)
        t, _ = in_thread(p)
        t.join(WAIT)
        assert not t.is_alive()
    finally:
        server.stop(None)
    assert got["reply"].request_id == 1
    assert not got["reply"].action.HasField("game"), "an empty action, judged by the referee at once"


def test_missing_settings_are_named():
    with pytest.raises(arena.ArenaError, match="ARENA_BOT"):
        arena.Player(Counting, name="", token="x")
    with pytest.raises(arena.ArenaError, match="capacity"):
        arena.Player(Counting, name="b", token="x", capacity=0)


def test_incremental_observations_are_asked_for_and_rebuilt_whole_for_each_game():
    seen = []

    class RecordingDdz(ddz.Bot):
        def play(self, obs):
            seen.append(("ddz", obs))
            return "pass"

    class RecordingMj(mahjong.Bot):
        def turn(self, obs):
            seen.append(("mahjong", obs))
            return obs.legal[0]

    def increment(r, events, events_from):
        # As bot-host sends them: encoded game events in the envelope, the game message's none.
        r.observation.events.extend(e.SerializeToString() for e in events)
        r.observation.events_from = events_from
        return bot_pb2.HostToBot(request=r)

    def ddz_step(request_id, plays, events_from):
        return increment(ddz_request("d", request_id), [ddz_pb2.Event(seat=1, play=p) for p in plays], events_from)

    def mj_step(request_id, tiles, events_from):
        events = [mahjong_pb2.Event(seat=1, kind=mahjong_pb2.EVENT_KIND_DISCARD, tile=t) for t in tiles]
        return increment(mahjong_request("m", request_id), events, events_from)

    def first(hello, inbox, send, ctx):
        send(welcome("s1"))
        send(bot_pb2.HostToBot(start=bot_pb2.TableStart(table_id="d", seat=0, game="ddz")))
        send(bot_pb2.HostToBot(start=bot_pb2.TableStart(table_id="m", seat=1, game="mahjong")))
        # The two tables' increments interleave; each seat keeps its own events.
        for step in (ddz_step(1, ["3", "4"], 0), mj_step(1, ["1M"], 0), ddz_step(2, ["5"], 2), mj_step(2, ["2M", "3M"], 1)):
            send(step)
            next_of(inbox, "reply")
        # An increment that does not continue what the seat holds is not answered.
        send(ddz_step(3, ["9"], 7))
        send(ddz_step(4, ["3", "4", "5", "6"], 0))
        assert next_of(inbox, "reply").reply.request_id == 4
        p.stop()
        next_of(inbox, "drain")

    script = Script([first])
    server, target = serve(script)
    try:
        p = arena.Player(RecordingDdz, RecordingMj, name="b", token="t0k", target=target)
        t, _ = in_thread(p)
        t.join(WAIT)
        assert not t.is_alive()
    finally:
        server.stop(None)
    assert script.hellos[0].incremental_observations
    whole = lambda game, field: [[getattr(e, field) for e in o.events] for g, o in seen if g == game]
    assert whole("ddz", "play") == [["3", "4"], ["3", "4", "5"], ["3", "4", "5", "6"]]
    assert whole("mahjong", "tile") == [["1M"], ["1M", "2M", "3M"]]
    assert all(list(o.legal) == ["pass", "3"] for g, o in seen if g == "ddz")


def test_each_request_goes_to_the_class_of_its_game_and_hello_lists_the_classes_games():
    made = []

    class D(ddz.Bot):
        release = "d-1"

        def __init__(self):
            made.append(("ddz", self))

        def play(self, obs):
            return "33"

    class M(mahjong.Bot):
        release = "m-2"

        def turn(self, obs):
            made.append(("mahjong", self))
            return "discard 1M"

    got = {}

    def first(hello, inbox, send, ctx):
        send(welcome("s"))
        send(bot_pb2.HostToBot(request=mahjong_request("m", 1)))
        got["mahjong"] = next_of(inbox, "reply").reply
        # An empty game is Dou Dizhu.
        send(bot_pb2.HostToBot(request=ddz_request("d", 1, game="")))
        got["ddz"] = next_of(inbox, "reply").reply
        p.stop()
        next_of(inbox, "drain")

    script = Script([first])
    server, target = serve(script)
    try:
        # Given as a dict, game name to class, in any order.
        p = arena.Player({"mahjong": M, "ddz": D}, name="b", token="t0k", target=target)
        t, _ = in_thread(p)
        t.join(WAIT)
        assert not t.is_alive()
    finally:
        server.stop(None)
    hello = script.hellos[0]
    assert list(hello.games) == ["ddz", "mahjong"]
    assert hello.release == "m-2+d-1", "each class's release, in the order given"
    assert mahjong_answer(got["mahjong"]) == mahjong_pb2.Action(kind=mahjong_pb2.ACTION_KIND_DISCARD, tile="1M")
    assert played(got["ddz"]) == "33"
    assert {g for g, _ in made} == {"ddz", "mahjong"}
    assert [(b.table_id, b.seat) for g, b in made if g == "mahjong"] == [("m", 1)]


def test_a_request_for_a_game_without_a_class_is_answered_empty_and_logged_not_a_crash(caplog):
    got = {}

    def first(hello, inbox, send, ctx):
        send(welcome("s"))
        send(bot_pb2.HostToBot(start=bot_pb2.TableStart(table_id="m", seat=1, game="mahjong")))
        send(bot_pb2.HostToBot(request=mahjong_request("m", 5)))
        got["unplayed"] = next_of(inbox, "reply").reply
        # The connection goes on with the games it plays.
        send(bot_pb2.HostToBot(request=ddz_request("d", 1, legal=("pass", "7"))))
        got["played"] = next_of(inbox, "reply").reply
        p.stop()
        next_of(inbox, "drain")

    server, target = serve(Script([first]))
    try:
        p = player(target)
        t, result = in_thread(p)
        t.join(WAIT)
        assert not t.is_alive()
    finally:
        server.stop(None)
    assert got["unplayed"].request_id == 5 and not got["unplayed"].action.HasField("game")
    assert played(got["played"]) == "7"
    assert "table m seat 1 is a table of 'mahjong', but this bot has classes for ddz only" in caplog.text
    assert result["summary"].drained


def test_bot_classes_that_cannot_be_played_are_named():
    class D(ddz.Bot):
        pass

    class D2(ddz.Bot):
        pass

    class NoGame:
        pass

    with pytest.raises(arena.ArenaError, match="two classes for ddz: D and D2"):
        arena.Player(D, D2, name="b", token="x")
    with pytest.raises(arena.ArenaError, match="D plays ddz, but it is given for 'mahjong'"):
        arena.Player({"mahjong": D}, name="b", token="x")
    with pytest.raises(arena.ArenaError, match="NoGame is no game's bot class: subclass a game's Bot \\(arena.games.ddz.Bot, arena.games.mahjong.Bot[,)]"):
        arena.Player(NoGame, name="b", token="x")
    with pytest.raises(arena.ArenaError, match="a bot class for each game"):
        arena.Player(name="b", token="x")
    with pytest.raises(arena.ArenaError, match="release"):
        arena.Player(D, name="b", token="x", release="r" * 65)


def test_a_bot_can_ask_for_full_observations():
    def first(hello, inbox, send, ctx):
        send(welcome("s1"))
        p.stop()
        next_of(inbox, "drain")

    script = Script([first])
    server, target = serve(script)
    try:
        p = arena.Player(Counting, name="b", token="t0k", target=target, incremental=False)
        t, _ = in_thread(p)
        t.join(WAIT)
        assert not t.is_alive()
    finally:
        server.stop(None)
    assert not script.hellos[0].incremental_observations
