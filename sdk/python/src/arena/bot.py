"""What a bot is: a class with one method per decision kind, and how its answers become actions.

The connection ([`arena.client.run`]) makes one instance of the class for every seat it is
given (a table, and the seat there), so a bot may keep what it learns during a game in `self`;
calls on one instance never overlap. Every request carries the seat's full observation with
the legal answers as strings, so a bot needs no rules engine: it picks one.
"""
from arena.v1 import common_pb2 as pb

# The names a game may be given in `Bot.games`, as the protocol's enum values.
GAME_NAMES = {
    "dou-dizhu": pb.GAME_DOU_DIZHU,
    "ddz": pb.GAME_DOU_DIZHU,
    "mahjong": pb.GAME_MAHJONG,
}


class AnswerError(ValueError):
    """A bot's answer that cannot be turned into an action (the message says why)."""


class Bot:
    """A bot: override the methods of the decisions it answers.

    Dou Dizhu (`obs` is an `arena.v1.common_pb2.DdzObservation`): `bid` (0 for no call, or
    more than the highest call so far, at most 3), `double` and `redouble` (True or False), and
    `play` (one of `obs.legal`: cards such as `"33344455"`, or `"pass"`). Mahjong (`obs` is a
    `MahjongObservation`): `turn` (its own turn: `"discard 5S"`, `"self-drawn-win"`,
    `"concealed-kong E"`, `"added-kong 3T"`), `claim` (another seat's discard: `"pass"`,
    `"win"`, `"pung"`, `"kong"`, `"chow 7M"`) and `rob_kong` (`"pass"` or `"rob-kong"`), each
    one of `obs.legal`. The defaults answer what is always legal: no call, no double, pass.

    Or override `decide(request)` alone, which gets the whole `DecisionRequest` (deadline, kind,
    observation) and may return an `arena.v1.common_pb2.Action`.

    Attributes set by the connection before the first call: `table_id`, `seat`, `game` (the
    `arena.v1.common_pb2.Game` value). Class attributes a bot may set: `release` (reported in
    Hello; ratings are kept per release) and `games` (the games it plays, by name: `"dou-dizhu"`,
    `"mahjong"`; by default the games whose methods the class overrides).
    """

    release = "0"
    games = None
    table_id = ""
    seat = 0
    game = pb.GAME_UNSPECIFIED

    # Dou Dizhu.
    def bid(self, obs):
        """The call (0 = no call)."""
        return 0

    def double(self, obs):
        """Whether a farmer doubles."""
        return False

    def redouble(self, obs):
        """Whether the landlord redoubles (asked only after a farmer doubled)."""
        return False

    def play(self, obs):
        """The play: one of `obs.legal`."""
        raise NotImplementedError(f"{type(self).__name__} does not play Dou Dizhu (define play)")

    # Mahjong.
    def turn(self, obs):
        """The answer on its own turn: one of `obs.legal`."""
        raise NotImplementedError(f"{type(self).__name__} does not play Mahjong (define turn)")

    def claim(self, obs):
        """The answer to another seat's discard: one of `obs.legal`."""
        return "pass"

    def rob_kong(self, obs):
        """The answer to another seat's added kong: `"pass"` or `"rob-kong"`."""
        return "pass"

    def end(self, end):
        """Called once the table ended, with its `arena.v1.bot_pb2.TableEnd` (outcome, verdicts)."""

    def decide(self, request):
        """The answer to one `DecisionRequest`: dispatches on its kind to the methods above."""
        kind = request.kind
        if request.observation.HasField("mahjong"):
            obs = request.observation.mahjong
        else:
            obs = request.observation.ddz
        method = _METHODS.get(kind)
        if method is None:
            raise AnswerError(f"request {request.request_id} is of an unknown kind {kind}")
        return getattr(self, method)(obs)


_METHODS = {
    pb.DECISION_KIND_BID: "bid",
    pb.DECISION_KIND_DOUBLE: "double",
    pb.DECISION_KIND_REDOUBLE: "redouble",
    pb.DECISION_KIND_PLAY: "play",
    pb.DECISION_KIND_TURN: "turn",
    pb.DECISION_KIND_CLAIM: "claim",
    pb.DECISION_KIND_ROB_KONG: "rob_kong",
}


def games_of(cls):
    """The `arena.v1.Game` values a bot class says it plays in Hello (empty: Dou Dizhu only)."""
    if cls.games is not None:
        names = [cls.games] if isinstance(cls.games, (str, int)) else list(cls.games)
        out = []
        for g in names:
            if isinstance(g, int):
                out.append(g)
            elif g.lower() in GAME_NAMES:
                out.append(GAME_NAMES[g.lower()])
            elif g in pb.Game.keys():
                out.append(pb.Game.Value(g))
            else:
                raise ValueError(f"unknown game {g!r} in {cls.__name__}.games: use one of {sorted(GAME_NAMES)}")
        return sorted(set(out))
    overrides = lambda name: getattr(cls, name, None) is not getattr(Bot, name)
    out = []
    if overrides("play"):
        out.append(pb.GAME_DOU_DIZHU)
    if overrides("turn"):
        out.append(pb.GAME_MAHJONG)
    # Dou Dizhu alone is what an empty list says.
    return [] if out == [pb.GAME_DOU_DIZHU] else out


def to_action(request, answer):
    """`answer` (what a bot method returned) as the `arena.v1.Action` for `request`."""
    if isinstance(answer, pb.Action):
        return answer
    kind = request.kind
    if request.game == pb.GAME_MAHJONG or kind in (pb.DECISION_KIND_TURN, pb.DECISION_KIND_CLAIM, pb.DECISION_KIND_ROB_KONG):
        if isinstance(answer, pb.MahjongAction):
            return pb.Action(mahjong=answer)
        return pb.Action(mahjong=mahjong_action(answer))
    if isinstance(answer, pb.DdzAction):
        return pb.Action(ddz=answer)
    if kind == pb.DECISION_KIND_BID:
        try:
            bid = int(answer)
        except (TypeError, ValueError):
            raise AnswerError(f"a bid is a number 0 to 3, not {answer!r}") from None
        if not 0 <= bid <= 3:
            raise AnswerError(f"a bid is a number 0 to 3, not {bid}")
        return pb.Action(ddz=pb.DdzAction(bid=bid))
    if kind in (pb.DECISION_KIND_DOUBLE, pb.DECISION_KIND_REDOUBLE):
        # The legal list writes doubles as "0"/"1": take those as well as booleans.
        if answer in ("0", "1"):
            answer = answer == "1"
        if not isinstance(answer, bool):
            raise AnswerError(f"a double is True or False (or \"1\"/\"0\"), not {answer!r}")
        return pb.Action(ddz=pb.DdzAction(double=answer))
    if not isinstance(answer, str):
        raise AnswerError(f"a play is a string of cards or \"pass\", not {answer!r}")
    return pb.Action(ddz=pb.DdzAction(play=answer))


def mahjong_action(text):
    """A legal Mahjong answer's text (`"discard 5S"`, `"pung"`) as the `MahjongAction` message:
    the kind is `MahjongActionKind`'s name in lower case with dashes, the tile follows."""
    if not isinstance(text, str):
        raise AnswerError(f"a Mahjong answer is a string such as \"discard 5S\", not {text!r}")
    kind, _, tile = text.strip().partition(" ")
    name = "MAHJONG_ACTION_KIND_" + kind.upper().replace("-", "_")
    if kind == "" or name not in pb.MahjongActionKind.keys() or name.endswith("UNSPECIFIED"):
        raise AnswerError(f"{text!r} is not a Mahjong answer (e.g. \"discard 5S\", \"pung\", \"pass\")")
    return pb.MahjongAction(kind=pb.MahjongActionKind.Value(name), tile=tile.strip())
