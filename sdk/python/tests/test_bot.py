"""A bot class's answers as the protocol's actions, and the games its Hello lists."""
import pytest

import arena
from arena.bot import games_of
from arena.v1 import common_pb2 as pb, seat_pb2


def request(kind, game=pb.GAME_DOU_DIZHU, **obs):
    o = pb.Observation(mahjong=pb.MahjongObservation(**obs)) if game == pb.GAME_MAHJONG else pb.Observation(ddz=pb.DdzObservation(**obs))
    return seat_pb2.DecisionRequest(request_id=1, table_id="t", kind=kind, game=game, observation=o)


class Ddz(arena.Bot):
    def bid(self, obs):
        return 2

    def double(self, obs):
        return "1"

    def play(self, obs):
        return obs.legal[-1]


def test_each_dou_dizhu_kind_goes_to_its_method_and_becomes_its_action():
    bot = Ddz()
    answer = lambda r: arena.to_action(r, bot.decide(r))
    assert answer(request(pb.DECISION_KIND_BID)) == pb.Action(ddz=pb.DdzAction(bid=2))
    assert answer(request(pb.DECISION_KIND_DOUBLE)) == pb.Action(ddz=pb.DdzAction(double=True))
    # Not overridden: the default, always legal.
    assert answer(request(pb.DECISION_KIND_REDOUBLE)) == pb.Action(ddz=pb.DdzAction(double=False))
    assert answer(request(pb.DECISION_KIND_PLAY, legal=["pass", "33"])) == pb.Action(ddz=pb.DdzAction(play="33"))


def test_mahjong_answers_are_the_legal_texts():
    class Mj(arena.Bot):
        def turn(self, obs):
            return obs.legal[0]

    bot = Mj()
    r = request(pb.DECISION_KIND_TURN, game=pb.GAME_MAHJONG, legal=["discard 5S", "self-drawn-win"])
    assert arena.to_action(r, bot.decide(r)) == pb.Action(mahjong=pb.MahjongAction(kind=pb.MAHJONG_ACTION_KIND_DISCARD, tile="5S"))
    r = request(pb.DECISION_KIND_CLAIM, game=pb.GAME_MAHJONG, legal=["pass", "pung"])
    assert arena.to_action(r, bot.decide(r)).mahjong.kind == pb.MAHJONG_ACTION_KIND_PASS
    for text, kind, tile in [("self-drawn-win", "SELF_DRAWN_WIN", ""), ("chow 7M", "CHOW", "7M"), ("rob-kong", "ROB_KONG", ""), ("concealed-kong E", "CONCEALED_KONG", "E")]:
        assert arena.mahjong_action(text) == pb.MahjongAction(kind=pb.MahjongActionKind.Value("MAHJONG_ACTION_KIND_" + kind), tile=tile)


def test_answers_that_are_no_action_are_refused_saying_why():
    with pytest.raises(arena.AnswerError, match="not a Mahjong answer"):
        arena.mahjong_action("discardd 5S")
    with pytest.raises(arena.AnswerError, match="0 to 3"):
        arena.to_action(request(pb.DECISION_KIND_BID), 4)
    with pytest.raises(arena.AnswerError, match="True or False"):
        arena.to_action(request(pb.DECISION_KIND_DOUBLE), "yes")
    with pytest.raises(arena.AnswerError, match="string of cards"):
        arena.to_action(request(pb.DECISION_KIND_PLAY), ["3"])
    with pytest.raises(NotImplementedError, match="define turn"):
        Ddz().decide(request(pb.DECISION_KIND_TURN, game=pb.GAME_MAHJONG))


def test_hello_lists_the_games_a_class_plays():
    class Both(Ddz):
        def turn(self, obs):
            return "pass"

    class Named(arena.Bot):
        games = ["mahjong", "dou-dizhu"]

    assert games_of(Ddz) == [], "Dou Dizhu alone is the empty list"
    assert games_of(Both) == [pb.GAME_DOU_DIZHU, pb.GAME_MAHJONG]
    assert games_of(Named) == [pb.GAME_DOU_DIZHU, pb.GAME_MAHJONG]
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        games_of(type("Chess", (arena.Bot,), {"games": "chess"}))
