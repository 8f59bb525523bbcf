"""Per-game bot classes: a request's game observation unpacked with its events merged back,
each decision kind to its method, answers packed as the game's Action in `arena.v1.Action.game`,
and the errors a bot author can act on."""
import pytest

import arena
from arena import games, wire
from arena.ddz.v1 import ddz_pb2
from arena.games import ddz, mahjong, mcr
from arena.mahjong.v1 import mahjong_pb2
from arena.mcr.v1 import mcr_pb2
from arena.v1 import bot_pb2, common_pb2 as pb, seat_pb2


def request(game_obs, kind, events=(), game="", request_id=1):
    """A whole DecisionRequest whose envelope carries `game_obs` and `events` (game Event
    messages, encoded as the wire carries them)."""
    envelope = pb.Observation(game=wire.pack(game_obs), events=[e.SerializeToString() for e in events])
    return seat_pb2.DecisionRequest(request_id=request_id, table_id="t", kind=kind, game=game, observation=envelope)


def ddz_request(kind, legal=(), events=(), game="ddz"):
    return request(ddz_pb2.Observation(seat=0, hand="3345", legal=list(legal)), kind, events, game)


def mahjong_request(kind, legal=(), events=()):
    return request(mahjong_pb2.Observation(seat=2, hand="1M 2M", legal=list(legal)), kind, events, "mahjong")


class Ddz(ddz.Bot):
    def bid(self, obs):
        return 2

    def double(self, obs):
        return "1"

    def play(self, obs):
        return obs.legal[-1]


class Mj(mahjong.Bot):
    def turn(self, obs):
        return obs.legal[0]


def answer(bot, r):
    return bot.to_action(r, bot.decide(r))


def test_the_sdk_finds_each_game_module_by_its_name():
    assert {"ddz", "mahjong", "mcr"} <= set(games.names())
    assert games.module("ddz") is ddz and games.module("mahjong") is mahjong and games.module("mcr") is mcr
    assert (ddz.Bot.game, mahjong.Bot.game, mcr.Bot.game) == ("ddz", "mahjong", "mcr")
    assert games.module("chess") is None


def test_each_dou_dizhu_kind_goes_to_its_method_and_is_packed_as_an_arena_ddz_v1_action():
    bot = Ddz()
    got = answer(bot, ddz_request(pb.DECISION_KIND_BID))
    assert got.game.type_url == "/arena.ddz.v1.Action"
    assert wire.unpack(got.game, ddz_pb2.Action, "action") == ddz_pb2.Action(bid=2)
    unpacked = lambda r: wire.unpack(answer(bot, r).game, ddz_pb2.Action, "action")
    assert unpacked(ddz_request(pb.DECISION_KIND_DOUBLE)) == ddz_pb2.Action(double=True)
    # Not overridden: the default, always legal.
    assert unpacked(ddz_request(pb.DECISION_KIND_REDOUBLE)) == ddz_pb2.Action(double=False)
    assert unpacked(ddz_request(pb.DECISION_KIND_PLAY, legal=["pass", "33"])) == ddz_pb2.Action(play="33")
    # A request whose game is empty is Dou Dizhu's.
    assert unpacked(ddz_request(pb.DECISION_KIND_PLAY, legal=["44"], game="")) == ddz_pb2.Action(play="44")


def test_mahjong_answers_are_the_legal_texts_packed_as_arena_mahjong_v1_actions():
    bot = Mj()
    r = mahjong_request(pb.DECISION_KIND_TURN, legal=["discard 5S", "self-drawn-win"])
    got = answer(bot, r)
    assert got.game.type_url == "/arena.mahjong.v1.Action"
    assert wire.unpack(got.game, mahjong_pb2.Action, "action") == mahjong_pb2.Action(kind=mahjong_pb2.ACTION_KIND_DISCARD, tile="5S")
    r = mahjong_request(pb.DECISION_KIND_CLAIM, legal=["pass", "pung"])
    assert wire.unpack(answer(bot, r).game, mahjong_pb2.Action, "action").kind == mahjong_pb2.ACTION_KIND_PASS
    for text, kind, tile in [("self-drawn-win", "SELF_DRAWN_WIN", ""), ("chow 7M", "CHOW", "7M"),
                             ("rob-kong", "ROB_KONG", ""), ("concealed-kong E", "CONCEALED_KONG", "E")]:
        assert mahjong.action(pb.DECISION_KIND_TURN, text) == mahjong_pb2.Action(kind=mahjong_pb2.ActionKind.Value("ACTION_KIND_" + kind), tile=tile)


def test_a_game_message_or_a_packed_action_is_taken_as_the_answer():
    r = ddz_request(pb.DECISION_KIND_PLAY)
    assert ddz.Bot.to_action(r, ddz_pb2.Action(play="55")) == pb.Action(game=wire.pack(ddz_pb2.Action(play="55")))
    packed = pb.Action(game=wire.pack(ddz_pb2.Action(play="66")))
    assert ddz.Bot.to_action(r, packed) is packed


def test_the_events_from_the_envelope_are_merged_back_into_the_game_observation():
    seen = []

    class Recording(ddz.Bot):
        def play(self, obs):
            seen.append(obs)
            return "pass"

    class RecordingMj(mahjong.Bot):
        def claim(self, obs):
            seen.append(obs)
            return "pass"

    ddz_events = [ddz_pb2.Event(seat=1, bid=1), ddz_pb2.Event(seat=2, landlord=ddz_pb2.Landlord(bid=1, bottom="3BR")),
                  ddz_pb2.Event(seat=2, play="33")]
    Recording().decide(ddz_request(pb.DECISION_KIND_PLAY, legal=["pass"], events=ddz_events))
    mj_events = [mahjong_pb2.Event(seat=0, kind=mahjong_pb2.EVENT_KIND_DRAW),
                 mahjong_pb2.Event(seat=0, kind=mahjong_pb2.EVENT_KIND_DISCARD, tile="5S")]
    RecordingMj().decide(mahjong_request(pb.DECISION_KIND_CLAIM, legal=["pass"], events=mj_events))
    assert isinstance(seen[0], ddz_pb2.Observation) and list(seen[0].events) == ddz_events
    assert (seen[0].hand, list(seen[0].legal)) == ("3345", ["pass"])
    assert isinstance(seen[1], mahjong_pb2.Observation) and list(seen[1].events) == mj_events
    assert seen[1].hand == "1M 2M"


def test_end_reads_the_games_own_outcome():
    end = bot_pb2.TableEnd(table_id="t", outcome=pb.Outcome(scores=[2, -1, -1], game=wire.pack(ddz_pb2.Outcome(landlord=0, spring=True))))
    assert ddz.Bot.outcome(end) == ddz_pb2.Outcome(landlord=0, spring=True)
    assert ddz.Bot.outcome(end.outcome).spring
    assert ddz.Bot.outcome(bot_pb2.TableEnd(outcome=pb.Outcome(scores=[0, 0, 0]))) is None
    with pytest.raises(arena.WireError, match="holds '/arena.ddz.v1.Outcome', not an arena.mahjong.v1.Outcome"):
        mahjong.Bot.outcome(end)


def test_answers_that_are_no_action_are_refused_saying_why():
    with pytest.raises(arena.AnswerError, match="'discardd 5S' is not a Mahjong answer"):
        mahjong.action(pb.DECISION_KIND_TURN, "discardd 5S")
    with pytest.raises(arena.AnswerError, match="not a Mahjong answer"):
        mahjong.action(pb.DECISION_KIND_TURN, "unspecified")
    with pytest.raises(arena.AnswerError, match="string such as"):
        mahjong.action(pb.DECISION_KIND_TURN, 5)
    with pytest.raises(arena.AnswerError, match="a bid is a number 0 to 3, not 4"):
        ddz.Bot.to_action(ddz_request(pb.DECISION_KIND_BID), 4)
    with pytest.raises(arena.AnswerError, match="a bid is a number 0 to 3, not 'two'"):
        ddz.Bot.to_action(ddz_request(pb.DECISION_KIND_BID), "two")
    with pytest.raises(arena.AnswerError, match="True or False"):
        ddz.Bot.to_action(ddz_request(pb.DECISION_KIND_DOUBLE), "yes")
    with pytest.raises(arena.AnswerError, match="string of cards"):
        ddz.Bot.to_action(ddz_request(pb.DECISION_KIND_PLAY), ["3"])
    with pytest.raises(arena.AnswerError, match="a ddz answer is an arena.ddz.v1.Action .*not an arena.mahjong.v1.Action"):
        ddz.Bot.to_action(ddz_request(pb.DECISION_KIND_PLAY), mahjong_pb2.Action())
    with pytest.raises(arena.AnswerError, match="asks for DECISION_KIND_TURN, which is no decision of ddz"):
        Ddz().decide(ddz_request(pb.DECISION_KIND_TURN))
    with pytest.raises(NotImplementedError, match="define turn"):
        mahjong.Bot().decide(mahjong_request(pb.DECISION_KIND_TURN))


def test_a_request_holding_another_games_observation_or_bad_events_is_a_wire_error():
    r = mahjong_request(pb.DECISION_KIND_PLAY)
    with pytest.raises(arena.WireError, match="request 1 of table 't': observation.game holds '/arena.mahjong.v1.Observation', not an arena.ddz.v1.Observation"):
        Ddz().decide(r)
    r = ddz_request(pb.DECISION_KIND_PLAY)
    r.observation.events.append(b"\xff\xff")
    with pytest.raises(arena.WireError, match="event 0 is not a valid arena.ddz.v1.Event"):
        Ddz().decide(r)
    r = ddz_request(pb.DECISION_KIND_PLAY)
    r.observation.ClearField("game")
    with pytest.raises(arena.WireError, match="observation.game is empty"):
        Ddz().decide(r)
    r = ddz_request(pb.DECISION_KIND_PLAY)
    r.observation.events_from = 3
    with pytest.raises(arena.WireError, match="incremental"):
        Ddz().decide(r)


def test_the_old_single_class_says_what_replaced_it():
    with pytest.raises(AttributeError, match="arena.games.ddz.Bot or arena.games.mahjong.Bot"):
        arena.Bot


def test_a_long_games_later_decisions_decode_only_their_new_events():
    from arena import client

    seen = []

    class Reader(ddz.Bot):
        def play(self, obs):
            seen.append([e.play for e in obs.events])
            return "pass"

    seat = client._Seat(Reader())
    plays = [str(3 + i % 10) for i in range(150)]
    events = [ddz_pb2.Event(seat=i % 3, play=p).SerializeToString() for i, p in enumerate(plays)]
    start, request_id, through = 0, 0, []
    while start < len(events):
        # One to three new events a decision, each request carrying only those (after the first).
        end = min(start + 1 + request_id % 3, len(events))
        request_id += 1
        r = ddz_request(pb.DECISION_KIND_PLAY, legal=["pass"])
        r.request_id = request_id
        del r.observation.events[:]
        r.observation.events.extend(events[start:end])
        r.observation.events_from = start
        assert client.rebuild(seat, r) is None
        answer(seat.bot, r)
        start = end
        through.append(end)
        # Every event so far read, each decoded once.
        assert seen[-1] == plays[:end]
        assert seat.bot._arena_events.decodes == end
    assert len(through) > 50
    # The same seat given another history (a table played again): decoded from where it differs.
    other = events[:10] + [ddz_pb2.Event(seat=1, play="2").SerializeToString()]
    r = request(ddz_pb2.Observation(legal=["pass"]), pb.DECISION_KIND_PLAY)
    r.observation.events.extend(other)
    answer(seat.bot, r)
    assert seen[-1] == plays[:10] + ["2"]
    assert seat.bot._arena_events.decodes == len(events) + 1
    # A bad event is named as before, and those before it stay decoded.
    r = request(ddz_pb2.Observation(legal=["pass"]), pb.DECISION_KIND_PLAY)
    r.observation.events.extend(events[:12] + [b"\xff"])
    with pytest.raises(wire.WireError, match="request 1 of table 't': observation event 12 is not a valid arena.ddz.v1.Event"):
        seat.bot.decide(r)
    assert len(seat.bot._arena_events.raw) == 12
    r = request(ddz_pb2.Observation(legal=["pass"]), pb.DECISION_KIND_PLAY)
    r.observation.events.extend(events[:14])
    answer(seat.bot, r)
    assert seen[-1] == plays[:14]
    assert seat.bot._arena_events.decodes == len(events) + 1 + 2 + 2


def mcr_request(kind, legal=(), events=()):
    return request(mcr_pb2.Observation(seat=1, hand="W1 W2 B5", legal=list(legal)), kind, events, "mcr")


class Mcr(mcr.Bot):
    def turn(self, obs):
        return obs.legal[-1]


def test_mcr_answers_are_botzone_words_packed_as_arena_mcr_v1_actions():
    bot = Mcr()
    got = answer(bot, mcr_request(pb.DECISION_KIND_TURN, legal=["PLAY W1", "HU"]))
    assert got.game.type_url == "/arena.mcr.v1.Action"
    assert wire.unpack(got.game, mcr_pb2.Action, "action") == mcr_pb2.Action(answer="HU")
    # claim and rob_kong pass unless overridden
    for kind in (pb.DECISION_KIND_CLAIM, pb.DECISION_KIND_ROB_KONG):
        got = answer(bot, mcr_request(kind, legal=["PASS", "HU"]))
        assert wire.unpack(got.game, mcr_pb2.Action, "action").answer == "PASS"
    assert mcr.action(pb.DECISION_KIND_CLAIM, "  CHI  W3 B9 ") == mcr_pb2.Action(answer="CHI W3 B9")
    assert mcr.action(pb.DECISION_KIND_CLAIM, "GANG") == mcr_pb2.Action(answer="GANG")


@pytest.mark.parametrize("bad", ["", "DISCARD W1", "PLAY", "CHI W3", "HU W1", "GANG W1 W2", 7, None])
def test_a_malformed_mcr_answer_is_an_answer_error_naming_the_forms(bad):
    with pytest.raises(arena.bot.AnswerError) as e:
        mcr.action(pb.DECISION_KIND_TURN, bad)
    assert "PLAY" in str(e.value)


def test_a_mcr_bot_without_turn_says_what_to_define():
    class Lazy(mcr.Bot):
        pass
    with pytest.raises(NotImplementedError, match="define turn"):
        Lazy().decide(mcr_request(pb.DECISION_KIND_TURN, legal=["PLAY W1"]))
