"""The connection to bot-host: one `arena.v1.BotGateway/Play` stream for every table the bot plays.

`run(MyDdzBot)` (or `run(MyDdzBot, MyMahjongBot)`: one class per game) says Hello (name,
release, capacity, the games it has classes for) with the bot's token, answers Pings, hands
every DecisionRequest to the seat's own instance of the class for the request's game on a
worker thread (so a slow decision at one table neither delays the others nor the keepalive),
and sends its answer back.
It asks for incremental observations (`Hello.incremental_observations`: after a seat's first
request, bot-host sends only the events since its previous one) and rebuilds each seat's full
observation before the bot sees it (the envelope's `events`, opaque bytes here: no game is
known to the connection), so bots read exactly what a full observation holds;
`incremental=False` asks for full observations on the wire instead.
When the stream drops it connects again and resumes its session (`Hello.resume_session`), so
the tables in flight go on: requests bot-host hands back are answered once (an answer computed
while disconnected is sent again rather than computed twice). SIGINT or SIGTERM (or `stop()`)
stops it cleanly: it sends `Drain`, finishes the tables in flight, and returns once bot-host has
ended the stream; a second signal stops it at once, abandoning them.
"""
import dataclasses
import logging
import os
import queue
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import grpc

from arena import games, wire
from arena.bot import GameBot
from arena.retry import BACKOFF, Backoff, bot_reconnects
from arena.v1 import bot_pb2, bot_pb2_grpc, common_pb2, seat_pb2

log = logging.getLogger("arena")

DEFAULT_BOT_HOST = "127.0.0.1:50052"

# Longest release a Hello may carry, in characters (bot-host's limit).
MAX_RELEASE_CHARS = 64


class ArenaError(Exception):
    """The bot cannot play: it is misconfigured or bot-host refused it (the message says why)."""


@dataclasses.dataclass
class Summary:
    """What a run did."""

    tables: int = 0
    """Tables that ended."""
    answered: int = 0
    """Requests answered."""
    connections: int = 0
    """Streams that were welcomed (the first, then one per reconnect)."""
    resumed: int = 0
    """Requests bot-host handed back on resumed connections."""
    drained: bool = False
    """Whether it ended by a clean shutdown (every table in flight finished)."""


class _Seat:
    """One seat the bot plays: its own bot instance, called by one thread at a time."""

    def __init__(self, bot):
        self.bot = bot
        self.lock = threading.Lock()
        # Every event of the seat's observation so far, when rebuilding incremental ones.
        self.history = None


class _Bots:
    """The bot classes (or factories) a connection plays, by game name."""

    def __init__(self, bots):
        if len(bots) == 1 and isinstance(bots[0], dict):
            given = list(bots[0].items())
        else:
            given = [(None, b) for b in bots]
        if not given:
            raise ArenaError("give run() a bot class for each game it plays, e.g. run(MyDdzBot)")
        self.factories = {}
        # Each game's class, in the order given.
        self.classes = {}
        for name, factory in given:
            cls = factory if isinstance(factory, type) else type(factory())
            if not issubclass(cls, GameBot) or cls.game is None:
                raise ArenaError(f"{cls.__name__} is no game's bot class: subclass a game's Bot "
                                 f"({', '.join(f'arena.games.{g}.Bot' for g in games.names())})")
            if name is not None and wire.game_name(name) != cls.game:
                raise ArenaError(f"{cls.__name__} plays {cls.game}, but it is given for {name!r}")
            if cls.game in self.classes:
                raise ArenaError(f"two classes for {cls.game}: {self.classes[cls.game].__name__} and {cls.__name__}")
            self.factories[cls.game] = factory
            self.classes[cls.game] = cls

    def games(self):
        """The games Hello lists: those it has a class for."""
        return sorted(self.factories)

    def release(self):
        """The release Hello reports: the classes' own (other than the default "0"), joined
        with "+" when they differ."""
        releases = []
        for cls in self.classes.values():
            r = str(getattr(cls, "release", "0"))
            if r != "0" and r not in releases:
                releases.append(r)
        return "+".join(releases) or "0"


class _Connection:
    """One stream: the queue of messages to send (a SimpleQueue, which a signal handler may use
    too) and the call."""

    def __init__(self):
        self.outbox = queue.SimpleQueue()
        self.call = None
        self.welcomed = False

    def send(self, msg):
        self.outbox.put(msg)

    def close(self):
        # Ends the request iterator, which half-closes the stream.
        self.outbox.put(None)


def _env(name, default=None):
    value = os.environ.get(name, "")
    return value if value else default


def _read_file(var):
    path = _env(var)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise ArenaError(f"{var}={path}: {e.strerror}") from None


def channel(target):
    """A channel to bot-host's bot port: `host:port` or `http://host:port` in the clear,
    `https://host:port` over TLS (trusting `ARENA_CA_FILE` if set, else the system's roots, and
    presenting `ARENA_CLIENT_CERT_FILE`/`ARENA_CLIENT_KEY_FILE` if set), as the Rust SDK reads
    the same variables."""
    target = target.strip().rstrip("/")
    if target.startswith("https://"):
        cert, key = _read_file("ARENA_CLIENT_CERT_FILE"), _read_file("ARENA_CLIENT_KEY_FILE")
        if (cert is None) != (key is None):
            raise ArenaError("a client certificate needs both ARENA_CLIENT_CERT_FILE and ARENA_CLIENT_KEY_FILE")
        creds = grpc.ssl_channel_credentials(
            root_certificates=_read_file("ARENA_CA_FILE"), private_key=key, certificate_chain=cert
        )
        return grpc.secure_channel(target[len("https://"):], creds)
    if target.startswith("http://"):
        target = target[len("http://"):]
    if "://" in target:
        raise ArenaError(f"bot-host address {target!r}: use host:port, http://host:port or https://host:port")
    return grpc.insecure_channel(target)


class Player:
    """Plays `bots` on bot-host until stopped: one class per game (a subclass of a game's
    `Bot`, `arena.games.ddz.Bot`, `arena.games.mahjong.Bot`, or any callable making a fresh
    one), given in any order or as a dict from game name to class. Hello lists the games given;
    each request goes to an instance of its game's class.

    Options default to the environment: `name` to `ARENA_BOT`, `token` to `ARENA_TOKEN`,
    `target` to `ARENA_BOT_HOST` (else 127.0.0.1:50052); `release` to the classes' (joined with
    "+" when they differ). `capacity` is how many tables at once; `stop_after` stops cleanly
    once that many tables have ended (0: never); `backoff` is the first and the longest wait
    between reconnects, in seconds (default: the client retry policy's, `arena.retry.BACKOFF`);
    `incremental` asks bot-host for incremental observations (rebuilt here, so the bot sees no
    difference)."""

    def __init__(self, *bots, name=None, token=None, target=None, release=None,
                 capacity=8, stop_after=0, backoff=BACKOFF, workers=None, incremental=True):
        self.bots = _Bots(bots)
        self.name = name or _env("ARENA_BOT")
        self.token = token or _env("ARENA_TOKEN")
        if not self.name:
            raise ArenaError("set ARENA_BOT (or name=) to the bot's registered name")
        if not self.token:
            raise ArenaError("set ARENA_TOKEN (or token=) to the token `arena bots add` printed")
        self.target = target or _env("ARENA_BOT_HOST", DEFAULT_BOT_HOST)
        self.release = release if release is not None else self.bots.release()
        if not 1 <= len(self.release) <= MAX_RELEASE_CHARS:
            raise ArenaError(f"the release {self.release!r} must be 1 to {MAX_RELEASE_CHARS} characters (pass release=)")
        self.games = self.bots.games()
        if not 1 <= capacity <= 10_000:
            raise ArenaError(f"capacity must be 1 to 10000 tables at once, not {capacity}")
        self.capacity = capacity
        self.stop_after = stop_after
        self.backoff = backoff
        self.incremental = incremental
        self.summary = Summary()
        self._control = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._session = ""
        self._current = None
        self._seats = {}
        self._in_flight = {}
        # (table, seat) -> (request id, reply): the seat's last answer, sent again when a
        # resumed connection hands that request back (the first copy was lost with the stream).
        self._last = {}
        self._stopping = False
        self._executor = ThreadPoolExecutor(max_workers=workers or min(4 * capacity, 64), thread_name_prefix="arena-bot")

    # Control, from any thread or a signal handler.
    def stop(self, abandon=False):
        """Stops cleanly (the tables in flight finish first), or at once with `abandon`."""
        self._control.put(("stop", abandon))

    def _signal(self, signum, frame):
        # Only a SimpleQueue.put: reentrant, so safe whatever the main thread was doing.
        self._control.put(("stop", self._stopping_requested))
        self._stopping_requested = True

    def run(self):
        """Plays until stopped: returns the `Summary`; raises `ArenaError` when bot-host
        refuses the bot for good."""
        self._stopping_requested = False
        restore = {}
        if threading.current_thread() is threading.main_thread():
            for s in (signal.SIGINT, signal.SIGTERM):
                restore[s] = signal.signal(s, self._signal)
        channel_ = channel(self.target)
        stub = bot_pb2_grpc.BotGatewayStub(channel_)
        try:
            return self._run(stub)
        finally:
            for s, h in restore.items():
                signal.signal(s, h)
            self._executor.shutdown(wait=False, cancel_futures=True)
            channel_.close()

    def _run(self, stub):
        backoff = Backoff(*self.backoff)
        while True:
            conn = self._open(stub)
            err = self._serve(conn)
            if err == "abandoned":
                return self.summary
            if err is None and self._stopping:
                self.summary.drained = True
                log.info("drained: every table in flight ended; stopping")
                return self.summary
            if conn.welcomed:
                backoff.reset()
            if isinstance(err, grpc.RpcError) and not bot_reconnects(err.code()):
                raise ArenaError(f"bot-host {self.target} refused {self.name!r}: {err.code().name}: {err.details()}")
            if self._stopping and not self._seats:
                return self.summary
            why = "the stream ended" if err is None else (
                f"{err.code().name}: {err.details()}" if isinstance(err, grpc.RpcError) else repr(err))
            delay = backoff.next_wait()
            log.warning("connection to %s lost (%s); reconnecting in %.1f s%s", self.target, why, delay,
                        f", resuming session {self._session}" if self._session else "")
            if self._wait(delay) == "abandoned":
                return self.summary
            if self._stopping and not self._seats:
                return self.summary

    def _wait(self, seconds):
        """Waits `seconds` for a stop; "abandoned" if told to stop at once."""
        try:
            ev = self._control.get(timeout=seconds)
        except queue.Empty:
            return None
        if ev[0] == "stop":
            if ev[1]:
                return "abandoned"
            self._stopping = True
        return None

    def _open(self, stub):
        conn = _Connection()
        hello = bot_pb2.Hello(bot=self.name, release=self.release, capacity=self.capacity,
                              resume_session=self._session, games=self.games,
                              incremental_observations=self.incremental)
        conn.send(bot_pb2.BotToHost(hello=hello))
        conn.call = stub.Play(iter(conn.outbox.get, None), metadata=[("authorization", f"Bearer {self.token}")])
        threading.Thread(target=self._read, args=(conn,), daemon=True, name="arena-stream").start()
        return conn

    def _serve(self, conn):
        """Handles control events until `conn` ends: its error (None when it ended OK), or
        "abandoned"."""
        while True:
            try:
                ev = self._control.get(timeout=1.0)
            except queue.Empty:
                continue
            if ev[0] == "ended" and ev[1] is conn:
                conn.close()
                return ev[2]
            if ev[0] == "stop":
                if ev[1]:
                    with self._lock:
                        n = len({t for t, _ in self._seats})
                    log.warning("stopping at once: %d table(s) in flight abandoned", n)
                    conn.call.cancel()
                    conn.close()
                    return "abandoned"
                if not self._stopping:
                    self._stopping = True
                    with self._lock:
                        n = len({t for t, _ in self._seats})
                        welcomed = conn.welcomed
                    log.info("stopping: finishing %d table(s) in flight (signal again to stop at once)", n)
                    if welcomed:
                        conn.send(bot_pb2.BotToHost(drain=bot_pb2.Drain()))

    # The stream, on its own thread.
    def _read(self, conn):
        err = None
        try:
            for msg in conn.call:
                self._handle(conn, msg)
        except grpc.RpcError as e:
            err = e
        except Exception as e:  # a bug here must still end the connection, not hang it
            log.exception("reading the stream failed")
            err = e
        self._control.put(("ended", conn, err))

    def _handle(self, conn, msg):
        kind = msg.WhichOneof("msg")
        if kind == "request":
            self._take(conn, msg.request)
        elif kind == "ping":
            conn.send(bot_pb2.BotToHost(pong=bot_pb2.Pong(nonce=msg.ping.nonce)))
        elif kind == "welcome":
            w = msg.welcome
            with self._lock:
                self._session = w.session
                self._current = conn
                conn.welcomed = True
                self.summary.connections += 1
                self.summary.resumed += len(w.resumed)
                stopping = self._stopping
            log.info("connected as %s (session %s, %d request(s) resumed)", w.bot, w.session, len(w.resumed))
            for r in w.resumed:
                self._take(conn, r)
            if stopping:
                conn.send(bot_pb2.BotToHost(drain=bot_pb2.Drain()))
        elif kind == "start":
            s = msg.start
            with self._lock:
                self._seat(s.table_id, s.seat, s.game)
        elif kind == "end":
            self._end(msg.end)
        elif kind == "notice":
            n = msg.notice
            where = f" (table {n.table_id}, request {n.request_id})" if n.table_id else ""
            log.warning("bot-host: %s%s", n.message, where)

    def _seat(self, table_id, seat, game):
        """The seat's bot, made on first sight (under the lock); None when the bot has no
        class for the seat's game (logged: bot-host seats a bot only at the games its Hello
        lists, so this is a bot-host's mistake)."""
        key = (table_id, seat)
        s = self._seats.get(key)
        if s is None:
            game = wire.game_name(game)
            factory = self.bots.factories.get(game)
            if factory is None:
                log.error("table %s seat %d is a table of %s, but this bot has classes for %s only "
                          "(give run() a class for %s)", table_id, seat, quoted(game, 40),
                          ", ".join(self.games), quoted(game, 40))
                return None
            bot = factory()
            bot.table_id, bot.seat = table_id, seat
            s = self._seats[key] = _Seat(bot)
        return s

    def _take(self, conn, r):
        key = (r.table_id, r.seat)
        with self._lock:
            seat = self._seat(r.table_id, r.seat, r.game)
            if seat is None:
                # Answered at once with an empty action, which the referee judges at once,
                # rather than left to time out.
                conn.send(bot_pb2.BotToHost(reply=seat_pb2.DecisionReply(
                    request_id=r.request_id, table_id=r.table_id, action=common_pb2.Action())))
                return
            # Requests come in order on the stream and are rebuilt here, in that order, each
            # recorded even when answered already or still being decided: bot-host counts what
            # the bot holds the same way.
            problem = rebuild(seat, r)
            if problem is not None:
                # Never sent by a working bot-host; no answer is better than a wrong view.
                log.error("table %s seat %d, request %d: %s; not answered", r.table_id, r.seat,
                          r.request_id, problem)
                return
            # Requests are compared whole, not by id: a table played twice at once (a
            # redelivery overlapping a run that has not noticed yet) asks the same ids of
            # positions that may differ.
            last = self._last.get(key)
            if last is not None and last[0] == r:
                conn.send(last[1])
                return
            if self._in_flight.get((r.table_id, r.request_id)) == r:
                return
            self._in_flight[(r.table_id, r.request_id)] = r
        self._executor.submit(self._decide, seat, r)

    def _decide(self, seat, r):
        with seat.lock:
            try:
                action = seat.bot.to_action(r, seat.bot.decide(r))
            except Exception:
                # No answer would cost the table the whole deadline; an empty action is judged
                # at once, and the traceback says what to fix.
                log.exception("table %s seat %d, request %d: the bot failed; it answers nothing",
                              r.table_id, r.seat, r.request_id)
                action = common_pb2.Action()
        reply = bot_pb2.BotToHost(reply=seat_pb2.DecisionReply(request_id=r.request_id, table_id=r.table_id, action=action))
        with self._lock:
            if self._in_flight.get((r.table_id, r.request_id)) is r:
                del self._in_flight[(r.table_id, r.request_id)]
            if (r.table_id, r.seat) in self._seats:
                self._last[(r.table_id, r.seat)] = (r, reply)
            self.summary.answered += 1
            conn = self._current
        if conn is not None:
            conn.send(reply)

    def _end(self, end):
        key = (end.table_id, end.seat)
        with self._lock:
            seat = self._seats.pop(key, None)
            self._last.pop(key, None)
            self.summary.tables += 1
            tables = self.summary.tables
        verdicts = "".join(f"; verdict {common_pb2.VerdictKind.Name(v.kind)}: {v.reason}" for v in end.verdicts)
        log.info("table %s ended: scores %s%s", end.table_id, list(end.outcome.scores), verdicts)
        if seat is not None:
            self._executor.submit(self._call_end, seat, end)
        if self.stop_after and tables == self.stop_after:
            self.stop()

    @staticmethod
    def _call_end(seat, end):
        with seat.lock:
            try:
                seat.bot.end(end)
            except Exception:
                log.exception("table %s: the bot's end() failed", end.table_id)


def rebuild(seat, r):
    """Makes `r`'s observation whole again from `seat`'s history: an incremental one (its
    `events_from` > 0) gets the events it leaves out put back in front, and says 0 as a full one
    does. The events are the envelope's (`arena.v1.Observation.events`), each an encoded game
    event kept as bytes: rebuilding needs no game. None, or why it cannot be rebuilt."""
    obs = r.observation
    if obs.events_from == 0:
        seat.history = list(obs.events)
        return None
    known = 0 if seat.history is None else len(seat.history)
    if known != obs.events_from:
        seat.history = None
        return (f"an incremental observation continues after event {obs.events_from}, but this "
                f"seat has {known} events")
    seat.history.extend(obs.events)
    whole = list(seat.history)
    del obs.events[:]
    obs.events.extend(whole)
    obs.events_from = 0
    seat.history = list(obs.events)
    return None


def quoted(text, limit):
    """`text` (from bot-host: untrusted) quoted for a log line, cut to `limit` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def run(*bots, **options):
    """Plays `bots` (one class per game, or a dict from game name to class) until stopped (see
    `Player` for the options); returns the `Summary`."""
    return Player(*bots, **options).run()


def main(*bots, **options):
    """`run` for a script: logs to stderr, and exits with a message (status 2) instead of a
    traceback when the bot cannot play."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="arena: %(message)s", stream=sys.stderr)
    try:
        run(*bots, **options)
    except ArenaError as e:
        print(f"arena: {e}", file=sys.stderr)
        sys.exit(2)
