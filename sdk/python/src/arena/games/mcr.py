"""Chinese Standard Mahjong (the game `mcr`, the IJCAI competition's): subclass `Bot` and
override `turn` (and `claim`, `rob_kong`, which pass by default). Answers are Botzone's words,
exactly as `obs.legal` lists them: `PLAY W1`, `HU`, `GANG F2`, `BUGANG T5` on the seat's own
turn; `PASS`, `HU`, `PENG J1` (pung, then discard J1), `CHI W3 B9` (chow around W3, then
discard B9), `GANG` on another seat's discard; `PASS` or `HU` on another seat's added kong.

    from arena.games import mcr

    class Discarder(mcr.Bot):
        def turn(self, obs):                      # an arena.mcr.v1.Observation
            return next(a for a in obs.legal if a.startswith("PLAY "))
"""
from arena.bot import AnswerError, GameBot
from arena.mcr.v1 import mcr_pb2
from arena.v1 import common_pb2 as pb

GAME = "mcr"

# Each answer's first word and how many tiles follow it.
_WORDS = {"PASS": (0,), "HU": (0,), "PLAY": (1,), "GANG": (0, 1), "BUGANG": (1,), "PENG": (1,), "CHI": (2,)}


def action(kind, answer):
    """An answer in Botzone's words (`"PLAY W1"`, `"CHI W3 B9"`, `"PASS"`) as an
    `arena.mcr.v1.Action`. Only its shape is checked here; the table checks it is legal. The same
    words answer every decision kind, so `kind` is not read."""
    if not isinstance(answer, str):
        raise AnswerError(f"a Chinese Standard Mahjong answer is a string such as \"PLAY W1\", not {answer!r}")
    words = answer.split()
    if not words or words[0] not in _WORDS or len(words) - 1 not in _WORDS[words[0]]:
        raise AnswerError(f"{answer[:40]!r} is not an answer: PASS, HU, PLAY t, GANG t, BUGANG t, GANG, PENG t or CHI m t")
    return mcr_pb2.Action(answer=" ".join(words))


class Bot(GameBot):
    """A Chinese Standard Mahjong bot. Each method gets the seat's `arena.mcr.v1.Observation`
    (its concealed hand and flowers, every seat's packs, discards and wall part, the prevalent
    and seat winds, events as the seat saw them, the legal answers) and returns one of
    `obs.legal`: `turn` after its own draw, `claim` on another seat's discard, `rob_kong` on
    another seat's added kong. `claim` and `rob_kong` pass by default; `turn` has no default.
    A win needs 8 points, flowers not counting: `HU` is only listed when the hand reaches them."""

    game = GAME
    Observation = mcr_pb2.Observation
    Event = mcr_pb2.Event
    Action = mcr_pb2.Action
    Outcome = mcr_pb2.Outcome
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
        return "PASS"

    def rob_kong(self, obs):
        """The answer to another seat's added kong: `"PASS"` or `"HU"`."""
        return "PASS"
