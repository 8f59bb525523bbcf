#!/usr/bin/env python3
"""A remote Dou Dizhu bot for arena, over gRPC (see README.md beside this file).

It opens one stream to bot-host, says hello with its token, and plays any number of tables at once:
no call, no double, and the smallest listed play (passing only when it must or when following its
partner). Stubs are generated from the repository's proto/ on first run (needs grpcio-tools).
`play` is the connection for any game: mahjong_bot.py beside this file reuses it.
"""
import hashlib, os, pathlib, queue, sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROTOS = sorted((ROOT / "proto" / "arena" / "v1").glob("*.proto"))
# Stubs live in a directory named after the protos' contents, so a changed proto/ (a new game,
# say) gets fresh stubs instead of stale ones.
DIGEST = hashlib.sha256(b"".join(p.read_bytes() for p in PROTOS)).hexdigest()[:16]
OUT = pathlib.Path(os.environ.get("ARENA_STUBS", pathlib.Path.home() / ".cache" / "arena-stubs")) / DIGEST


def load_stubs():
    if not (OUT / "arena" / "v1" / "bot_pb2_grpc.py").exists():
        from grpc_tools import protoc
        OUT.mkdir(parents=True, exist_ok=True)
        protos = [str(p.relative_to(ROOT / "proto")) for p in PROTOS]
        inc = pathlib.Path(protoc.__file__).parent / "_proto"
        if protoc.main(["protoc", f"-I{ROOT / 'proto'}", f"-I{inc}", f"--python_out={OUT}", f"--grpc_python_out={OUT}", *protos]):
            sys.exit("could not generate stubs from proto/")
    sys.path.insert(0, str(OUT))


def choose(req, pb):
    obs = req.observation.ddz
    if req.kind == pb.DECISION_KIND_BID:
        return pb.Action(ddz=pb.DdzAction(bid=0))
    if req.kind in (pb.DECISION_KIND_DOUBLE, pb.DECISION_KIND_REDOUBLE):
        return pb.Action(ddz=pb.DdzAction(double=False))
    plays = [m for m in obs.legal if m != "pass"]
    partner_led = obs.HasField("to_beat_seat") and obs.HasField("landlord") and obs.landlord not in (obs.seat, obs.to_beat_seat)
    if not plays or (partner_led and "pass" in obs.legal):
        return pb.Action(ddz=pb.DdzAction(play="pass"))
    return pb.Action(ddz=pb.DdzAction(play=plays[0]))


def play(choose, release, games=()):
    """Connects to $ARENA_BOT_HOST as $ARENA_BOT with $ARENA_TOKEN, says it plays `games` (names
    of the Game enum; none: Dou Dizhu only), and answers every request with choose(request, pb),
    an arena.v1.Action, until the stream ends."""
    load_stubs()
    import grpc
    from arena.v1 import bot_pb2 as bot, common_pb2 as pb, seat_pb2 as seat, bot_pb2_grpc

    target = os.environ.get("ARENA_BOT_HOST", "127.0.0.1:50052")
    name, token = os.environ["ARENA_BOT"], os.environ["ARENA_TOKEN"]
    outbox = queue.Queue()
    hello = bot.Hello(bot=name, release=release, capacity=8, games=[pb.Game.Value(g) for g in games])
    outbox.put(bot.BotToHost(hello=hello))
    stub = bot_pb2_grpc.BotGatewayStub(grpc.insecure_channel(target))
    stream = stub.Play(iter(outbox.get, None), metadata=[("authorization", f"Bearer {token}")])
    def answer(r):
        reply = seat.DecisionReply(request_id=r.request_id, table_id=r.table_id, action=choose(r, pb))
        outbox.put(bot.BotToHost(reply=reply))

    for msg in stream:
        kind = msg.WhichOneof("msg")
        if kind == "request":
            answer(msg.request)
        elif kind == "ping":
            outbox.put(bot.BotToHost(pong=bot.Pong(nonce=msg.ping.nonce)))
        elif kind == "end":
            print(f"table {msg.end.table_id}: scores {list(msg.end.outcome.scores)}", flush=True)
        elif kind == "welcome":
            print(f"connected as {msg.welcome.bot}, session {msg.welcome.session}", flush=True)
            for r in msg.welcome.resumed:
                answer(r)


if __name__ == "__main__":
    play(choose, "py-1")
