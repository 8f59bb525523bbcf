"""The 2015 contest's Mahjong (the game `mahjong`): subclass `Bot` and override `turn` (and
`claim`, `rob_kong`, which pass by default).

    from arena.games import mahjong

    class Discarder(mahjong.Bot):
        def turn(self, obs):                      # an arena.mahjong.v1.Observation
            return next(a for a in obs.legal if a.startswith("discard "))
"""
from arena.bot import AnswerError, GameBot
from arena.mahjong.v1 import mahjong_pb2
from arena.v1 import common_pb2 as pb

GAME = "mahjong"

_KIND_PREFIX = "ACTION_KIND_"


def action(kind, answer):
    """A Mahjong answer, the text of a legal answer (`"discard 5S"`, `"chow 7M"`, `"pung"`), as
    an `arena.mahjong.v1.Action`: the kind is `ActionKind`'s name in lower case with dashes, the
    tile follows. The same text answers every decision kind, so `kind` is not read."""
    if not isinstance(answer, str):
        raise AnswerError(f"a Mahjong answer is a string such as \"discard 5S\", not {answer!r}")
    word, _, tile = answer.strip().partition(" ")
    name = _KIND_PREFIX + word.upper().replace("-", "_")
    if word == "" or name not in mahjong_pb2.ActionKind.keys() or name.endswith("UNSPECIFIED"):
        raise AnswerError(f"{answer!r} is not a Mahjong answer (e.g. \"discard 5S\", \"pung\", \"pass\")")
    return mahjong_pb2.Action(kind=mahjong_pb2.ActionKind.Value(name), tile=tile.strip())


class Bot(GameBot):
    """A Mahjong bot. Each method gets the seat's `arena.mahjong.v1.Observation` (concealed
    tiles, every seat's melds and discards, events as the seat saw them, legal answers, …) and
    returns one of `obs.legal`: `turn` on its own turn (`"discard 5S"`, `"self-drawn-win"`,
    `"concealed-kong E"`, `"added-kong 3T"`), `claim` on another seat's discard (`"pass"`,
    `"win"`, `"pung"`, `"kong"`, `"chow 7M"`), `rob_kong` on another seat's added kong
    (`"pass"` or `"rob-kong"`). `claim` and `rob_kong` pass by default; `turn` has no default."""

    game = GAME
    Observation = mahjong_pb2.Observation
    Event = mahjong_pb2.Event
    Action = mahjong_pb2.Action
    Outcome = mahjong_pb2.Outcome
    METHODS = {
        pb.DECISION_KIND_TURN: "turn",
        pb.DECISION_KIND_CLAIM: "claim",
        pb.DECISION_KIND_ROB_KONG: "rob_kong",
    }
    action = staticmethod(action)

    def turn(self, obs):
        """The answer on its own turn: one of `obs.legal`."""
        raise NotImplementedError(f"{type(self).__name__} has no turn: define turn(self, obs)")

    def claim(self, obs):
        """The answer to another seat's discard: one of `obs.legal`."""
        return "pass"

    def rob_kong(self, obs):
        """The answer to another seat's added kong: `"pass"` or `"rob-kong"`."""
        return "pass"
