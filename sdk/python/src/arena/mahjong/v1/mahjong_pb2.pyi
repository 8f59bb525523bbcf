from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ActionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_KIND_UNSPECIFIED: _ClassVar[ActionKind]
    ACTION_KIND_DISCARD: _ClassVar[ActionKind]
    ACTION_KIND_SELF_DRAWN_WIN: _ClassVar[ActionKind]
    ACTION_KIND_CONCEALED_KONG: _ClassVar[ActionKind]
    ACTION_KIND_ADDED_KONG: _ClassVar[ActionKind]
    ACTION_KIND_PASS: _ClassVar[ActionKind]
    ACTION_KIND_WIN: _ClassVar[ActionKind]
    ACTION_KIND_KONG: _ClassVar[ActionKind]
    ACTION_KIND_PUNG: _ClassVar[ActionKind]
    ACTION_KIND_CHOW: _ClassVar[ActionKind]
    ACTION_KIND_ROB_KONG: _ClassVar[ActionKind]

class Fans(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FANS_UNSPECIFIED: _ClassVar[Fans]
    FANS_CONTEST: _ClassVar[Fans]
    FANS_SEED_2015: _ClassVar[Fans]

class MeldKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MELD_KIND_UNSPECIFIED: _ClassVar[MeldKind]
    MELD_KIND_CHOW: _ClassVar[MeldKind]
    MELD_KIND_PUNG: _ClassVar[MeldKind]
    MELD_KIND_KONG: _ClassVar[MeldKind]
    MELD_KIND_ADDED_KONG: _ClassVar[MeldKind]
    MELD_KIND_CONCEALED_KONG: _ClassVar[MeldKind]

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_KIND_UNSPECIFIED: _ClassVar[EventKind]
    EVENT_KIND_DRAW: _ClassVar[EventKind]
    EVENT_KIND_DISCARD: _ClassVar[EventKind]
    EVENT_KIND_CHOW: _ClassVar[EventKind]
    EVENT_KIND_PUNG: _ClassVar[EventKind]
    EVENT_KIND_KONG: _ClassVar[EventKind]
    EVENT_KIND_CONCEALED_KONG: _ClassVar[EventKind]
    EVENT_KIND_ADDED_KONG: _ClassVar[EventKind]
    EVENT_KIND_CHOW_FAILED: _ClassVar[EventKind]
    EVENT_KIND_WIN: _ClassVar[EventKind]
    EVENT_KIND_DRAWN: _ClassVar[EventKind]
ACTION_KIND_UNSPECIFIED: ActionKind
ACTION_KIND_DISCARD: ActionKind
ACTION_KIND_SELF_DRAWN_WIN: ActionKind
ACTION_KIND_CONCEALED_KONG: ActionKind
ACTION_KIND_ADDED_KONG: ActionKind
ACTION_KIND_PASS: ActionKind
ACTION_KIND_WIN: ActionKind
ACTION_KIND_KONG: ActionKind
ACTION_KIND_PUNG: ActionKind
ACTION_KIND_CHOW: ActionKind
ACTION_KIND_ROB_KONG: ActionKind
FANS_UNSPECIFIED: Fans
FANS_CONTEST: Fans
FANS_SEED_2015: Fans
MELD_KIND_UNSPECIFIED: MeldKind
MELD_KIND_CHOW: MeldKind
MELD_KIND_PUNG: MeldKind
MELD_KIND_KONG: MeldKind
MELD_KIND_ADDED_KONG: MeldKind
MELD_KIND_CONCEALED_KONG: MeldKind
EVENT_KIND_UNSPECIFIED: EventKind
EVENT_KIND_DRAW: EventKind
EVENT_KIND_DISCARD: EventKind
EVENT_KIND_CHOW: EventKind
EVENT_KIND_PUNG: EventKind
EVENT_KIND_KONG: EventKind
EVENT_KIND_CONCEALED_KONG: EventKind
EVENT_KIND_ADDED_KONG: EventKind
EVENT_KIND_CHOW_FAILED: EventKind
EVENT_KIND_WIN: EventKind
EVENT_KIND_DRAWN: EventKind

class Action(_message.Message):
    __slots__ = ("kind", "tile")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    kind: ActionKind
    tile: str
    def __init__(self, kind: _Optional[_Union[ActionKind, str]] = ..., tile: _Optional[str] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "hand", "drawn", "first", "seats", "wall_left", "tile", "events", "legal", "fans")
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
    seat: int
    hand: str
    drawn: str
    first: int
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    wall_left: int
    tile: str
    events: _containers.RepeatedCompositeFieldContainer[Event]
    legal: _containers.RepeatedScalarFieldContainer[str]
    fans: Fans
    def __init__(self, seat: _Optional[int] = ..., hand: _Optional[str] = ..., drawn: _Optional[str] = ..., first: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., wall_left: _Optional[int] = ..., tile: _Optional[str] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., legal: _Optional[_Iterable[str]] = ..., fans: _Optional[_Union[Fans, str]] = ..., **kwargs) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("melds", "discards", "claimed")
    MELDS_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    melds: _containers.RepeatedCompositeFieldContainer[Meld]
    discards: _containers.RepeatedScalarFieldContainer[str]
    claimed: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, melds: _Optional[_Iterable[_Union[Meld, _Mapping]]] = ..., discards: _Optional[_Iterable[str]] = ..., claimed: _Optional[_Iterable[bool]] = ...) -> None: ...

class Meld(_message.Message):
    __slots__ = ("kind", "tile")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    kind: MeldKind
    tile: str
    def __init__(self, kind: _Optional[_Union[MeldKind, str]] = ..., tile: _Optional[str] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("seat", "kind", "tile", "lowest", "robbed_kong")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    LOWEST_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    ROBBED_KONG_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: EventKind
    tile: str
    lowest: str
    robbed_kong: bool
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[EventKind, str]] = ..., tile: _Optional[str] = ..., lowest: _Optional[str] = ..., robbed_kong: _Optional[bool] = ..., **kwargs) -> None: ...

class Outcome(_message.Message):
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
    fans: _containers.RepeatedCompositeFieldContainer[Fan]
    fan_total: int
    reading: Fans
    def __init__(self, winner: _Optional[int] = ..., tile: _Optional[str] = ..., robbed_kong: _Optional[bool] = ..., fans: _Optional[_Iterable[_Union[Fan, _Mapping]]] = ..., fan_total: _Optional[int] = ..., reading: _Optional[_Union[Fans, str]] = ..., **kwargs) -> None: ...

class Fan(_message.Message):
    __slots__ = ("name", "points")
    NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    points: int
    def __init__(self, name: _Optional[str] = ..., points: _Optional[int] = ...) -> None: ...

class Setup(_message.Message):
    __slots__ = ("wall", "first", "fans")
    WALL_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    FANS_FIELD_NUMBER: _ClassVar[int]
    wall: str
    first: int
    fans: Fans
    def __init__(self, wall: _Optional[str] = ..., first: _Optional[int] = ..., fans: _Optional[_Union[Fans, str]] = ...) -> None: ...

class History(_message.Message):
    __slots__ = ("events", "hands")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    hands: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., hands: _Optional[_Iterable[str]] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("position", "hands", "score", "wins", "self_drawn", "dealt_in", "penalties", "verdicts")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    SELF_DRAWN_FIELD_NUMBER: _ClassVar[int]
    DEALT_IN_FIELD_NUMBER: _ClassVar[int]
    PENALTIES_FIELD_NUMBER: _ClassVar[int]
    VERDICTS_FIELD_NUMBER: _ClassVar[int]
    position: int
    hands: int
    score: int
    wins: int
    self_drawn: int
    dealt_in: int
    penalties: int
    verdicts: int
    def __init__(self, position: _Optional[int] = ..., hands: _Optional[int] = ..., score: _Optional[int] = ..., wins: _Optional[int] = ..., self_drawn: _Optional[int] = ..., dealt_in: _Optional[int] = ..., penalties: _Optional[int] = ..., verdicts: _Optional[int] = ...) -> None: ...
