from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Game(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_UNSPECIFIED: _ClassVar[Game]
    GAME_DOU_DIZHU: _ClassVar[Game]
    GAME_MAHJONG: _ClassVar[Game]

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_BID: _ClassVar[DecisionKind]
    DECISION_KIND_DOUBLE: _ClassVar[DecisionKind]
    DECISION_KIND_REDOUBLE: _ClassVar[DecisionKind]
    DECISION_KIND_PLAY: _ClassVar[DecisionKind]
    DECISION_KIND_CLAIM: _ClassVar[DecisionKind]
    DECISION_KIND_TURN: _ClassVar[DecisionKind]
    DECISION_KIND_ROB_KONG: _ClassVar[DecisionKind]

class VerdictKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERDICT_KIND_UNSPECIFIED: _ClassVar[VerdictKind]
    VERDICT_KIND_TIMEOUT: _ClassVar[VerdictKind]
    VERDICT_KIND_ILLEGAL: _ClassVar[VerdictKind]
    VERDICT_KIND_MALFORMED: _ClassVar[VerdictKind]
    VERDICT_KIND_DISCONNECTED: _ClassVar[VerdictKind]
    VERDICT_KIND_CRASHED: _ClassVar[VerdictKind]

class PenaltyRounding(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PENALTY_ROUNDING_UNSPECIFIED: _ClassVar[PenaltyRounding]
    PENALTY_ROUNDING_STARTED: _ClassVar[PenaltyRounding]
    PENALTY_ROUNDING_NEAREST: _ClassVar[PenaltyRounding]

class VerdictPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERDICT_POLICY_UNSPECIFIED: _ClassVar[VerdictPolicy]
    VERDICT_POLICY_FORFEIT: _ClassVar[VerdictPolicy]
    VERDICT_POLICY_PLAY_ON: _ClassVar[VerdictPolicy]

class DdzPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DDZ_PHASE_UNSPECIFIED: _ClassVar[DdzPhase]
    DDZ_PHASE_BIDDING: _ClassVar[DdzPhase]
    DDZ_PHASE_DOUBLING: _ClassVar[DdzPhase]
    DDZ_PHASE_PLAY: _ClassVar[DdzPhase]
    DDZ_PHASE_OVER: _ClassVar[DdzPhase]

class DdzRules(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DDZ_RULES_UNSPECIFIED: _ClassVar[DdzRules]
    DDZ_RULES_COMPETITION: _ClassVar[DdzRules]
    DDZ_RULES_DOUZERO: _ClassVar[DdzRules]
    DDZ_RULES_OPENSPIEL: _ClassVar[DdzRules]
    DDZ_RULES_CUSTOM: _ClassVar[DdzRules]

class DdzScoring(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DDZ_SCORING_UNSPECIFIED: _ClassVar[DdzScoring]
    DDZ_SCORING_COMPETITION: _ClassVar[DdzScoring]
    DDZ_SCORING_DIFFICULTY: _ClassVar[DdzScoring]
    DDZ_SCORING_ADP: _ClassVar[DdzScoring]
    DDZ_SCORING_WP: _ClassVar[DdzScoring]

class MahjongActionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MAHJONG_ACTION_KIND_UNSPECIFIED: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_DISCARD: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_SELF_DRAWN_WIN: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_CONCEALED_KONG: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_ADDED_KONG: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_PASS: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_WIN: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_KONG: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_PUNG: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_CHOW: _ClassVar[MahjongActionKind]
    MAHJONG_ACTION_KIND_ROB_KONG: _ClassVar[MahjongActionKind]

class MahjongFans(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MAHJONG_FANS_UNSPECIFIED: _ClassVar[MahjongFans]
    MAHJONG_FANS_CONTEST: _ClassVar[MahjongFans]
    MAHJONG_FANS_SEED_2015: _ClassVar[MahjongFans]

class MahjongMeldKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MAHJONG_MELD_KIND_UNSPECIFIED: _ClassVar[MahjongMeldKind]
    MAHJONG_MELD_KIND_CHOW: _ClassVar[MahjongMeldKind]
    MAHJONG_MELD_KIND_PUNG: _ClassVar[MahjongMeldKind]
    MAHJONG_MELD_KIND_KONG: _ClassVar[MahjongMeldKind]
    MAHJONG_MELD_KIND_ADDED_KONG: _ClassVar[MahjongMeldKind]
    MAHJONG_MELD_KIND_CONCEALED_KONG: _ClassVar[MahjongMeldKind]

class MahjongEventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MAHJONG_EVENT_KIND_UNSPECIFIED: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_DRAW: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_DISCARD: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_CHOW: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_PUNG: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_KONG: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_CONCEALED_KONG: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_ADDED_KONG: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_CHOW_FAILED: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_WIN: _ClassVar[MahjongEventKind]
    MAHJONG_EVENT_KIND_DRAWN: _ClassVar[MahjongEventKind]
GAME_UNSPECIFIED: Game
GAME_DOU_DIZHU: Game
GAME_MAHJONG: Game
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_BID: DecisionKind
DECISION_KIND_DOUBLE: DecisionKind
DECISION_KIND_REDOUBLE: DecisionKind
DECISION_KIND_PLAY: DecisionKind
DECISION_KIND_CLAIM: DecisionKind
DECISION_KIND_TURN: DecisionKind
DECISION_KIND_ROB_KONG: DecisionKind
VERDICT_KIND_UNSPECIFIED: VerdictKind
VERDICT_KIND_TIMEOUT: VerdictKind
VERDICT_KIND_ILLEGAL: VerdictKind
VERDICT_KIND_MALFORMED: VerdictKind
VERDICT_KIND_DISCONNECTED: VerdictKind
VERDICT_KIND_CRASHED: VerdictKind
PENALTY_ROUNDING_UNSPECIFIED: PenaltyRounding
PENALTY_ROUNDING_STARTED: PenaltyRounding
PENALTY_ROUNDING_NEAREST: PenaltyRounding
VERDICT_POLICY_UNSPECIFIED: VerdictPolicy
VERDICT_POLICY_FORFEIT: VerdictPolicy
VERDICT_POLICY_PLAY_ON: VerdictPolicy
DDZ_PHASE_UNSPECIFIED: DdzPhase
DDZ_PHASE_BIDDING: DdzPhase
DDZ_PHASE_DOUBLING: DdzPhase
DDZ_PHASE_PLAY: DdzPhase
DDZ_PHASE_OVER: DdzPhase
DDZ_RULES_UNSPECIFIED: DdzRules
DDZ_RULES_COMPETITION: DdzRules
DDZ_RULES_DOUZERO: DdzRules
DDZ_RULES_OPENSPIEL: DdzRules
DDZ_RULES_CUSTOM: DdzRules
DDZ_SCORING_UNSPECIFIED: DdzScoring
DDZ_SCORING_COMPETITION: DdzScoring
DDZ_SCORING_DIFFICULTY: DdzScoring
DDZ_SCORING_ADP: DdzScoring
DDZ_SCORING_WP: DdzScoring
MAHJONG_ACTION_KIND_UNSPECIFIED: MahjongActionKind
MAHJONG_ACTION_KIND_DISCARD: MahjongActionKind
MAHJONG_ACTION_KIND_SELF_DRAWN_WIN: MahjongActionKind
MAHJONG_ACTION_KIND_CONCEALED_KONG: MahjongActionKind
MAHJONG_ACTION_KIND_ADDED_KONG: MahjongActionKind
MAHJONG_ACTION_KIND_PASS: MahjongActionKind
MAHJONG_ACTION_KIND_WIN: MahjongActionKind
MAHJONG_ACTION_KIND_KONG: MahjongActionKind
MAHJONG_ACTION_KIND_PUNG: MahjongActionKind
MAHJONG_ACTION_KIND_CHOW: MahjongActionKind
MAHJONG_ACTION_KIND_ROB_KONG: MahjongActionKind
MAHJONG_FANS_UNSPECIFIED: MahjongFans
MAHJONG_FANS_CONTEST: MahjongFans
MAHJONG_FANS_SEED_2015: MahjongFans
MAHJONG_MELD_KIND_UNSPECIFIED: MahjongMeldKind
MAHJONG_MELD_KIND_CHOW: MahjongMeldKind
MAHJONG_MELD_KIND_PUNG: MahjongMeldKind
MAHJONG_MELD_KIND_KONG: MahjongMeldKind
MAHJONG_MELD_KIND_ADDED_KONG: MahjongMeldKind
MAHJONG_MELD_KIND_CONCEALED_KONG: MahjongMeldKind
MAHJONG_EVENT_KIND_UNSPECIFIED: MahjongEventKind
MAHJONG_EVENT_KIND_DRAW: MahjongEventKind
MAHJONG_EVENT_KIND_DISCARD: MahjongEventKind
MAHJONG_EVENT_KIND_CHOW: MahjongEventKind
MAHJONG_EVENT_KIND_PUNG: MahjongEventKind
MAHJONG_EVENT_KIND_KONG: MahjongEventKind
MAHJONG_EVENT_KIND_CONCEALED_KONG: MahjongEventKind
MAHJONG_EVENT_KIND_ADDED_KONG: MahjongEventKind
MAHJONG_EVENT_KIND_CHOW_FAILED: MahjongEventKind
MAHJONG_EVENT_KIND_WIN: MahjongEventKind
MAHJONG_EVENT_KIND_DRAWN: MahjongEventKind

class Verdict(_message.Message):
    __slots__ = ("seat", "kind", "reason", "decision", "detail")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: VerdictKind
    reason: str
    decision: int
    detail: str
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[VerdictKind, str]] = ..., reason: _Optional[str] = ..., decision: _Optional[int] = ..., detail: _Optional[str] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("decision_ms", "hard_cap_ms", "penalty_per_100ms", "verdict_penalty", "claim_ms", "penalty_rounding")
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    HARD_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    PENALTY_PER_100MS_FIELD_NUMBER: _ClassVar[int]
    VERDICT_PENALTY_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MS_FIELD_NUMBER: _ClassVar[int]
    PENALTY_ROUNDING_FIELD_NUMBER: _ClassVar[int]
    decision_ms: int
    hard_cap_ms: int
    penalty_per_100ms: int
    verdict_penalty: int
    claim_ms: int
    penalty_rounding: PenaltyRounding
    def __init__(self, decision_ms: _Optional[int] = ..., hard_cap_ms: _Optional[int] = ..., penalty_per_100ms: _Optional[int] = ..., verdict_penalty: _Optional[int] = ..., claim_ms: _Optional[int] = ..., penalty_rounding: _Optional[_Union[PenaltyRounding, str]] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("ddz", "mahjong")
    DDZ_FIELD_NUMBER: _ClassVar[int]
    MAHJONG_FIELD_NUMBER: _ClassVar[int]
    ddz: DdzAction
    mahjong: MahjongAction
    def __init__(self, ddz: _Optional[_Union[DdzAction, _Mapping]] = ..., mahjong: _Optional[_Union[MahjongAction, _Mapping]] = ...) -> None: ...

class DdzAction(_message.Message):
    __slots__ = ("bid", "double", "play")
    BID_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    bid: int
    double: bool
    play: str
    def __init__(self, bid: _Optional[int] = ..., double: _Optional[bool] = ..., play: _Optional[str] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("ddz", "mahjong")
    DDZ_FIELD_NUMBER: _ClassVar[int]
    MAHJONG_FIELD_NUMBER: _ClassVar[int]
    ddz: DdzObservation
    mahjong: MahjongObservation
    def __init__(self, ddz: _Optional[_Union[DdzObservation, _Mapping]] = ..., mahjong: _Optional[_Union[MahjongObservation, _Mapping]] = ...) -> None: ...

class DdzObservation(_message.Message):
    __slots__ = ("seat", "hand", "phase", "landlord", "bottom", "bid", "events", "cards_left", "to_beat", "to_beat_seat", "legal", "rules", "phase_kind", "rules_kind", "events_from")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    LANDLORD_FIELD_NUMBER: _ClassVar[int]
    BOTTOM_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    CARDS_LEFT_FIELD_NUMBER: _ClassVar[int]
    TO_BEAT_FIELD_NUMBER: _ClassVar[int]
    TO_BEAT_SEAT_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    PHASE_KIND_FIELD_NUMBER: _ClassVar[int]
    RULES_KIND_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FROM_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand: str
    phase: str
    landlord: int
    bottom: str
    bid: int
    events: _containers.RepeatedCompositeFieldContainer[DdzEvent]
    cards_left: _containers.RepeatedScalarFieldContainer[int]
    to_beat: str
    to_beat_seat: int
    legal: _containers.RepeatedScalarFieldContainer[str]
    rules: str
    phase_kind: DdzPhase
    rules_kind: DdzRules
    events_from: int
    def __init__(self, seat: _Optional[int] = ..., hand: _Optional[str] = ..., phase: _Optional[str] = ..., landlord: _Optional[int] = ..., bottom: _Optional[str] = ..., bid: _Optional[int] = ..., events: _Optional[_Iterable[_Union[DdzEvent, _Mapping]]] = ..., cards_left: _Optional[_Iterable[int]] = ..., to_beat: _Optional[str] = ..., to_beat_seat: _Optional[int] = ..., legal: _Optional[_Iterable[str]] = ..., rules: _Optional[str] = ..., phase_kind: _Optional[_Union[DdzPhase, str]] = ..., rules_kind: _Optional[_Union[DdzRules, str]] = ..., events_from: _Optional[int] = ...) -> None: ...

class DdzEvent(_message.Message):
    __slots__ = ("seat", "bid", "redeal", "landlord", "double", "play")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    REDEAL_FIELD_NUMBER: _ClassVar[int]
    LANDLORD_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bid: int
    redeal: bool
    landlord: DdzLandlord
    double: bool
    play: str
    def __init__(self, seat: _Optional[int] = ..., bid: _Optional[int] = ..., redeal: _Optional[bool] = ..., landlord: _Optional[_Union[DdzLandlord, _Mapping]] = ..., double: _Optional[bool] = ..., play: _Optional[str] = ...) -> None: ...

class DdzLandlord(_message.Message):
    __slots__ = ("bid", "bottom")
    BID_FIELD_NUMBER: _ClassVar[int]
    BOTTOM_FIELD_NUMBER: _ClassVar[int]
    bid: int
    bottom: str
    def __init__(self, bid: _Optional[int] = ..., bottom: _Optional[str] = ...) -> None: ...

class DdzOutcome(_message.Message):
    __slots__ = ("landlord", "winner", "bid", "bombs", "rockets", "spring", "anti_spring", "doubled", "redoubled", "scoring")
    LANDLORD_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    BOMBS_FIELD_NUMBER: _ClassVar[int]
    ROCKETS_FIELD_NUMBER: _ClassVar[int]
    SPRING_FIELD_NUMBER: _ClassVar[int]
    ANTI_SPRING_FIELD_NUMBER: _ClassVar[int]
    DOUBLED_FIELD_NUMBER: _ClassVar[int]
    REDOUBLED_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    landlord: int
    winner: int
    bid: int
    bombs: int
    rockets: int
    spring: bool
    anti_spring: bool
    doubled: _containers.RepeatedScalarFieldContainer[bool]
    redoubled: bool
    scoring: DdzScoring
    def __init__(self, landlord: _Optional[int] = ..., winner: _Optional[int] = ..., bid: _Optional[int] = ..., bombs: _Optional[int] = ..., rockets: _Optional[int] = ..., spring: _Optional[bool] = ..., anti_spring: _Optional[bool] = ..., doubled: _Optional[_Iterable[bool]] = ..., redoubled: _Optional[bool] = ..., scoring: _Optional[_Union[DdzScoring, str]] = ...) -> None: ...

class Outcome(_message.Message):
    __slots__ = ("scores", "scoring", "ddz", "mahjong")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    DDZ_FIELD_NUMBER: _ClassVar[int]
    MAHJONG_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    scoring: str
    ddz: DdzOutcome
    mahjong: MahjongOutcome
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., scoring: _Optional[str] = ..., ddz: _Optional[_Union[DdzOutcome, _Mapping]] = ..., mahjong: _Optional[_Union[MahjongOutcome, _Mapping]] = ...) -> None: ...

class MahjongAction(_message.Message):
    __slots__ = ("kind", "tile")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    kind: MahjongActionKind
    tile: str
    def __init__(self, kind: _Optional[_Union[MahjongActionKind, str]] = ..., tile: _Optional[str] = ...) -> None: ...

class MahjongObservation(_message.Message):
    __slots__ = ("seat", "hand", "drawn", "first", "seats", "wall_left", "tile", "events", "legal", "fans", "events_from")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    WALL_LEFT_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    FANS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FROM_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand: str
    drawn: str
    first: int
    seats: _containers.RepeatedCompositeFieldContainer[MahjongSeatView]
    wall_left: int
    tile: str
    events: _containers.RepeatedCompositeFieldContainer[MahjongEvent]
    legal: _containers.RepeatedScalarFieldContainer[str]
    fans: MahjongFans
    events_from: int
    def __init__(self, seat: _Optional[int] = ..., hand: _Optional[str] = ..., drawn: _Optional[str] = ..., first: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[MahjongSeatView, _Mapping]]] = ..., wall_left: _Optional[int] = ..., tile: _Optional[str] = ..., events: _Optional[_Iterable[_Union[MahjongEvent, _Mapping]]] = ..., legal: _Optional[_Iterable[str]] = ..., fans: _Optional[_Union[MahjongFans, str]] = ..., events_from: _Optional[int] = ..., **kwargs) -> None: ...

class MahjongSeatView(_message.Message):
    __slots__ = ("melds", "discards", "claimed")
    MELDS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    melds: _containers.RepeatedCompositeFieldContainer[MahjongMeld]
    discards: _containers.RepeatedScalarFieldContainer[str]
    claimed: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, melds: _Optional[_Iterable[_Union[MahjongMeld, _Mapping]]] = ..., discards: _Optional[_Iterable[str]] = ..., claimed: _Optional[_Iterable[bool]] = ...) -> None: ...

class MahjongMeld(_message.Message):
    __slots__ = ("kind", "tile")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    kind: MahjongMeldKind
    tile: str
    def __init__(self, kind: _Optional[_Union[MahjongMeldKind, str]] = ..., tile: _Optional[str] = ...) -> None: ...

class MahjongEvent(_message.Message):
    __slots__ = ("seat", "kind", "tile", "lowest", "robbed_kong")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    LOWEST_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    ROBBED_KONG_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: MahjongEventKind
    tile: str
    lowest: str
    robbed_kong: bool
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[MahjongEventKind, str]] = ..., tile: _Optional[str] = ..., lowest: _Optional[str] = ..., robbed_kong: _Optional[bool] = ..., **kwargs) -> None: ...

class MahjongOutcome(_message.Message):
    __slots__ = ("winner", "tile", "robbed_kong", "fans", "fan_total", "reading")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    ROBBED_KONG_FIELD_NUMBER: _ClassVar[int]
    FANS_FIELD_NUMBER: _ClassVar[int]
    FAN_TOTAL_FIELD_NUMBER: _ClassVar[int]
    READING_FIELD_NUMBER: _ClassVar[int]
    winner: int
    tile: str
    robbed_kong: bool
    fans: _containers.RepeatedCompositeFieldContainer[MahjongFan]
    fan_total: int
    reading: MahjongFans
    def __init__(self, winner: _Optional[int] = ..., tile: _Optional[str] = ..., robbed_kong: _Optional[bool] = ..., fans: _Optional[_Iterable[_Union[MahjongFan, _Mapping]]] = ..., fan_total: _Optional[int] = ..., reading: _Optional[_Union[MahjongFans, str]] = ..., **kwargs) -> None: ...

class MahjongFan(_message.Message):
    __slots__ = ("name", "points")
    NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    points: int
    def __init__(self, name: _Optional[str] = ..., points: _Optional[int] = ...) -> None: ...
