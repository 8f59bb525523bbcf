"""What a bot is: one class per game, each with one method per decision kind of its game, and
how its answers become actions.

A bot author subclasses a game's `Bot` (`arena.games.ddz.Bot`, `arena.games.mahjong.Bot`, one
module per game under `arena.games`); `GameBot` here is what every one of them shares. The
connection ([`arena.client.run`]) makes one instance of the class for every seat it is given
(a table, and the seat there), so a bot may keep what it learns during a game in `self`; calls
on one instance never overlap. Every request carries the seat's full observation with the legal
answers as strings, so a bot needs no rules engine: it picks one.
"""
from google.protobuf.message import Message

from arena import wire
from arena.v1 import common_pb2


class AnswerError(ValueError):
    """A bot's answer that cannot be turned into an action (the message says why)."""


class GameBot:
    """The base of every game's `Bot` class: a game's module sets the class attributes below,
    a bot author overrides the decision methods its game's class defines.

    Set by the game's class: `game` (its registered name), its message classes `Observation`,
    `Event`, `Action` and `Outcome` (from `arena.<game>.v1`), `METHODS` (each `DecisionKind`
    it is asked, to the name of the method that answers it) and `action(kind, answer)` (an
    answer as its `Action` message).

    A bot author may set `release` (reported in Hello; ratings are kept per release). Set by
    the connection before the first call: `table_id` and `seat`.
    """

    game = None
    Observation = Event = Action = Outcome = None
    METHODS = {}
    release = "0"
    table_id = ""
    seat = 0

    def decide(self, request):
        """The answer to one `arena.v1.DecisionRequest` (whole: the connection rebuilds
        incremental ones): its game observation, events merged back, handed to the method of
        its kind. Override it alone to see the whole request (deadline, kind); it may return
        what those methods return, the game's `Action` message, or a packed `arena.v1.Action`."""
        method = self.METHODS.get(request.kind)
        if method is None:
            kind = common_pb2.DecisionKind.Name(request.kind) if request.kind in common_pb2.DecisionKind.values() else str(request.kind)
            raise AnswerError(f"request {request.request_id} asks for {kind}, which is no decision of "
                              f"{self.game} (its decisions: {', '.join(sorted(self.METHODS.values()))})")
        # One instance plays one seat: its events are decoded once, kept across its requests.
        seat = getattr(self, "_arena_events", None)
        if seat is None:
            seat = self._arena_events = SeatEvents(type(self))
        return getattr(self, method)(seat.observation(request))

    def end(self, end):
        """Called once the table ended, with its `arena.v1.TableEnd` (the scores in
        `end.outcome.scores`, the game's own outcome from `self.outcome(end)`, verdicts)."""

    @classmethod
    def observation(cls, request):
        """The game's observation in `request` (an `arena.v1.DecisionRequest`), with the
        seat's events, which travel encoded in the envelope, decoded and put back in its
        `events`. Raises `arena.wire.WireError` when the request holds another game's
        observation, an undecodable one, or an increment not yet rebuilt. Every event is
        decoded; `decide` decodes each of its seat's events once (`SeatEvents`)."""
        return SeatEvents(cls).observation(request)

    @classmethod
    def outcome(cls, end):
        """The game's own outcome of a table (`end`: an `arena.v1.TableEnd`, or its
        `arena.v1.Outcome`), or None when it carries none (the scores are in the envelope's
        `scores` either way)."""
        outcome = end if isinstance(end, common_pb2.Outcome) else end.outcome
        if not outcome.HasField("game"):
            return None
        return wire.unpack(outcome.game, cls.Outcome, "outcome.game")

    @classmethod
    def to_action(cls, request, answer):
        """`answer` (what `decide` returned) as the `arena.v1.Action` for `request`: the
        game's `Action` message packed in its `game` field."""
        if isinstance(answer, common_pb2.Action):
            return answer
        if isinstance(answer, Message) and not isinstance(answer, cls.Action):
            raise AnswerError(f"a {cls.game} answer is an {cls.Action.DESCRIPTOR.full_name} "
                              f"(or its text), not an {answer.DESCRIPTOR.full_name}")
        if not isinstance(answer, cls.Action):
            answer = cls.action(request.kind, answer)
        return common_pb2.Action(game=wire.pack(answer))

    @staticmethod
    def action(kind, answer):
        """`answer` to a decision of `kind` as the game's `Action` message (set by each game)."""
        raise NotImplementedError("each game's Bot class says how its answers become actions")


class SeatEvents:
    """One seat's events decoded once, for the game of `bot_class` (a game's `Bot` class): the
    encoded events of its requests (the envelope's `events`) beside their decoded form, so that
    a seat's later requests, which repeat every event before their new ones, cost only those
    new ones. A bot instance keeps one (it plays one seat); the events it holds are compared
    with each request's first ones, so a history replaced (a table played again) is decoded
    again from the first event that differs."""

    def __init__(self, bot_class):
        self.bot_class = bot_class
        # The encoded events decoded so far, in order.
        self.raw = []
        # Their decoded form, in the `events` of an observation holding nothing else.
        self.decoded = bot_class.Observation()
        # Events decoded in all.
        self.decodes = 0

    def observation(self, request):
        """The game's observation in `request`, as `GameBot.observation` reads it, decoding
        only the events past those held."""
        cls = self.bot_class
        where = f"request {request.request_id} of table {request.table_id!r}"
        envelope = request.observation
        if envelope.events_from != 0:
            raise wire.WireError(f"{where}: its observation is incremental (events from "
                                 f"{envelope.events_from}); the connection rebuilds it whole first")
        obs = wire.unpack(envelope.game, cls.Observation, f"{where}: observation.game")
        given = list(envelope.events)
        same = len(self.raw)
        if given[:same] != self.raw:
            same = 0
            for held, new in zip(self.raw, given):
                if held != new:
                    break
                same += 1
            del self.raw[same:]
            del self.decoded.events[same:]
        for i in range(same, len(given)):
            try:
                wire.decode_event(self.decoded.events.add(), given[i], i, f"{where}: observation")
            except wire.WireError:
                # Those decoded before the bad one stay: they are the seat's all the same.
                del self.decoded.events[-1]
                raise
            self.raw.append(given[i])
            self.decodes += 1
        # The envelope's events are the seat's events; the game message carries none on the wire.
        del obs.events[:]
        # A copy made in C by the protobuf runtime, not a decode by decode in Python.
        obs.MergeFrom(self.decoded)
        return obs
