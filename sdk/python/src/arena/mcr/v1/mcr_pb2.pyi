from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_TURN: _ClassVar[DecisionKind]
    DECISION_KIND_DISCARD: _ClassVar[DecisionKind]
    DECISION_KIND_ROB_KONG: _ClassVar[DecisionKind]

class PackKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PACK_KIND_UNSPECIFIED: _ClassVar[PackKind]
    PACK_KIND_CHOW: _ClassVar[PackKind]
    PACK_KIND_PUNG: _ClassVar[PackKind]
    PACK_KIND_KONG: _ClassVar[PackKind]

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_KIND_UNSPECIFIED: _ClassVar[EventKind]
    EVENT_KIND_DEALT: _ClassVar[EventKind]
    EVENT_KIND_DRAW: _ClassVar[EventKind]
    EVENT_KIND_FLOWER: _ClassVar[EventKind]
    EVENT_KIND_ANSWER: _ClassVar[EventKind]
    EVENT_KIND_FAULT: _ClassVar[EventKind]

class FaultPolicy(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FAULT_POLICY_UNSPECIFIED: _ClassVar[FaultPolicy]
    FAULT_POLICY_JUDGE: _ClassVar[FaultPolicy]
    FAULT_POLICY_PLAY_ON: _ClassVar[FaultPolicy]
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_TURN: DecisionKind
DECISION_KIND_DISCARD: DecisionKind
DECISION_KIND_ROB_KONG: DecisionKind
PACK_KIND_UNSPECIFIED: PackKind
PACK_KIND_CHOW: PackKind
PACK_KIND_PUNG: PackKind
PACK_KIND_KONG: PackKind
EVENT_KIND_UNSPECIFIED: EventKind
EVENT_KIND_DEALT: EventKind
EVENT_KIND_DRAW: EventKind
EVENT_KIND_FLOWER: EventKind
EVENT_KIND_ANSWER: EventKind
EVENT_KIND_FAULT: EventKind
FAULT_POLICY_UNSPECIFIED: FaultPolicy
FAULT_POLICY_JUDGE: FaultPolicy
FAULT_POLICY_PLAY_ON: FaultPolicy

class Action(_message.Message):
    __slots__ = ("answer",)
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    answer: str
    def __init__(self, answer: _Optional[str] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "quan", "seat_wind", "hand", "flowers", "seats", "decision", "tile", "events", "legal")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    QUAN_FIELD_NUMBER: _ClassVar[int]
    SEAT_WIND_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    FLOWERS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    quan: int
    seat_wind: int
    hand: str
    flowers: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    decision: DecisionKind
    tile: str
    events: _containers.RepeatedCompositeFieldContainer[Event]
    legal: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., quan: _Optional[int] = ..., seat_wind: _Optional[int] = ..., hand: _Optional[str] = ..., flowers: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., decision: _Optional[_Union[DecisionKind, str]] = ..., tile: _Optional[str] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., legal: _Optional[_Iterable[str]] = ..., **kwargs) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("packs", "discards", "claimed", "flowers", "wall_left")
    PACKS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    FLOWERS_FIELD_NUMBER: _ClassVar[int]
    WALL_LEFT_FIELD_NUMBER: _ClassVar[int]
    packs: _containers.RepeatedCompositeFieldContainer[Pack]
    discards: _containers.RepeatedScalarFieldContainer[str]
    claimed: _containers.RepeatedScalarFieldContainer[bool]
    flowers: int
    wall_left: int
    def __init__(self, packs: _Optional[_Iterable[_Union[Pack, _Mapping]]] = ..., discards: _Optional[_Iterable[str]] = ..., claimed: _Optional[_Iterable[bool]] = ..., flowers: _Optional[int] = ..., wall_left: _Optional[int] = ...) -> None: ...

class Pack(_message.Message):
    __slots__ = ("kind", "tile", "offer")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    kind: PackKind
    tile: str
    offer: int
    def __init__(self, kind: _Optional[_Union[PackKind, str]] = ..., tile: _Optional[str] = ..., offer: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("seat", "kind", "tile", "answer")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: EventKind
    tile: str
    answer: str
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[EventKind, str]] = ..., tile: _Optional[str] = ..., answer: _Optional[str] = ...) -> None: ...

class Outcome(_message.Message):
    __slots__ = ("winner", "tile", "fans", "points", "fault")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    FANS_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    FAULT_FIELD_NUMBER: _ClassVar[int]
    winner: int
    tile: str
    fans: _containers.RepeatedCompositeFieldContainer[Fan]
    points: int
    fault: int
    def __init__(self, winner: _Optional[int] = ..., tile: _Optional[str] = ..., fans: _Optional[_Iterable[_Union[Fan, _Mapping]]] = ..., points: _Optional[int] = ..., fault: _Optional[int] = ..., **kwargs) -> None: ...

class Fan(_message.Message):
    __slots__ = ("name", "chinese", "points", "count")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CHINESE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    name: str
    chinese: str
    points: int
    count: int
    def __init__(self, name: _Optional[str] = ..., chinese: _Optional[str] = ..., points: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class Setup(_message.Message):
    __slots__ = ("walltiles", "quan", "no_flowers", "fault_policy", "walls", "walls_from_library")
    WALLTILES_FIELD_NUMBER: _ClassVar[int]
    QUAN_FIELD_NUMBER: _ClassVar[int]
    NO_FLOWERS_FIELD_NUMBER: _ClassVar[int]
    FAULT_POLICY_FIELD_NUMBER: _ClassVar[int]
    WALLS_FIELD_NUMBER: _ClassVar[int]
    WALLS_FROM_LIBRARY_FIELD_NUMBER: _ClassVar[int]
    walltiles: str
    quan: int
    no_flowers: bool
    fault_policy: FaultPolicy
    walls: int
    walls_from_library: bool
    def __init__(self, walltiles: _Optional[str] = ..., quan: _Optional[int] = ..., no_flowers: _Optional[bool] = ..., fault_policy: _Optional[_Union[FaultPolicy, str]] = ..., walls: _Optional[int] = ..., walls_from_library: _Optional[bool] = ...) -> None: ...

class History(_message.Message):
    __slots__ = ("events", "walltiles", "quan")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    WALLTILES_FIELD_NUMBER: _ClassVar[int]
    QUAN_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    walltiles: str
    quan: int
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., walltiles: _Optional[str] = ..., quan: _Optional[int] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("position", "walls", "hands", "rank_points", "score", "wins", "self_drawn", "dealt_in", "verdicts")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    WALLS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    RANK_POINTS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    SELF_DRAWN_FIELD_NUMBER: _ClassVar[int]
    DEALT_IN_FIELD_NUMBER: _ClassVar[int]
    VERDICTS_FIELD_NUMBER: _ClassVar[int]
    position: int
    walls: int
    hands: int
    rank_points: float
    score: int
    wins: int
    self_drawn: int
    dealt_in: int
    verdicts: int
    def __init__(self, position: _Optional[int] = ..., walls: _Optional[int] = ..., hands: _Optional[int] = ..., rank_points: _Optional[float] = ..., score: _Optional[int] = ..., wins: _Optional[int] = ..., self_drawn: _Optional[int] = ..., dealt_in: _Optional[int] = ..., verdicts: _Optional[int] = ...) -> None: ...
