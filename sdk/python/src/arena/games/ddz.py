"""Dou Dizhu (the game `ddz`): subclass `Bot` and override the decisions it makes.

    from arena.games import ddz

    class Smallest(ddz.Bot):
        def play(self, obs):                      # an arena.ddz.v1.Observation
            plays = [m for m in obs.legal if m != "pass"]
            return plays[0] if plays else "pass"
"""
from arena.bot import AnswerError, GameBot
from arena.ddz.v1 import ddz_pb2
from arena.v1 import common_pb2 as pb

GAME = "ddz"


def action(kind, answer):
    """A Dou Dizhu answer to a decision of `kind` as an `arena.ddz.v1.Action`: a bid 0 to 3
    (an int or its text), a double True/False (or the legal list's "1"/"0"), a play as a card
    string (`"33344455"`) or `"pass"`."""
    if kind == pb.DECISION_KIND_BID:
        # A bool is an int to Python, but True is no bid a bot meant.
        if isinstance(answer, bool):
            raise AnswerError(f"a bid is a number 0 to 3, not {answer!r}")
        try:
            bid = int(answer)
        except (TypeError, ValueError):
            raise AnswerError(f"a bid is a number 0 to 3, not {answer!r}") from None
        if not 0 <= bid <= 3:
            raise AnswerError(f"a bid is a number 0 to 3, not {bid}")
        return ddz_pb2.Action(bid=bid)
    if kind in (pb.DECISION_KIND_DOUBLE, pb.DECISION_KIND_REDOUBLE):
        # The legal list writes doubles as "0"/"1": take those as well as booleans.
        if answer in ("0", "1"):
            answer = answer == "1"
        if not isinstance(answer, bool):
            raise AnswerError(f"a double is True or False (or \"1\"/\"0\"), not {answer!r}")
        return ddz_pb2.Action(double=answer)
    if kind == pb.DECISION_KIND_PLAY:
        if not isinstance(answer, str):
            raise AnswerError(f"a play is a string of cards or \"pass\", not {answer!r}")
        return ddz_pb2.Action(play=answer)
    raise AnswerError(f"decision kind {kind} is no Dou Dizhu decision")


class Bot(GameBot):
    """A Dou Dizhu bot. Each method gets the seat's `arena.ddz.v1.Observation` (hand, phase,
    events so far, legal answers, …): `bid` (0 for no call, or more than the highest call so
    far, at most 3), `double` and `redouble` (True or False), `play` (one of `obs.legal`: cards
    such as `"33344455"`, or `"pass"`). The defaults answer what is always legal: no call, no
    double; `play` has none."""

    game = GAME
    Observation = ddz_pb2.Observation
    Event = ddz_pb2.Event
    Action = ddz_pb2.Action
    Outcome = ddz_pb2.Outcome
    METHODS = {
        pb.DECISION_KIND_BID: "bid",
        pb.DECISION_KIND_DOUBLE: "double",
        pb.DECISION_KIND_REDOUBLE: "redouble",
        pb.DECISION_KIND_PLAY: "play",
    }
    action = staticmethod(action)

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
        raise NotImplementedError(f"{type(self).__name__} has no play: define play(self, obs)")
