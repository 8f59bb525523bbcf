from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_BIDDING: _ClassVar[Phase]
    PHASE_DOUBLING: _ClassVar[Phase]
    PHASE_PLAY: _ClassVar[Phase]
    PHASE_OVER: _ClassVar[Phase]

class Rules(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RULES_UNSPECIFIED: _ClassVar[Rules]
    RULES_COMPETITION: _ClassVar[Rules]
    RULES_DOUZERO: _ClassVar[Rules]
    RULES_OPENSPIEL: _ClassVar[Rules]
    RULES_CUSTOM: _ClassVar[Rules]

class Scoring(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCORING_UNSPECIFIED: _ClassVar[Scoring]
    SCORING_COMPETITION: _ClassVar[Scoring]
    SCORING_DIFFICULTY: _ClassVar[Scoring]
    SCORING_ADP: _ClassVar[Scoring]
    SCORING_WP: _ClassVar[Scoring]
    SCORING_BOTZONE: _ClassVar[Scoring]
    SCORING_BOTZONE_FTL: _ClassVar[Scoring]
PHASE_UNSPECIFIED: Phase
PHASE_BIDDING: Phase
PHASE_DOUBLING: Phase
PHASE_PLAY: Phase
PHASE_OVER: Phase
RULES_UNSPECIFIED: Rules
RULES_COMPETITION: Rules
RULES_DOUZERO: Rules
RULES_OPENSPIEL: Rules
RULES_CUSTOM: Rules
SCORING_UNSPECIFIED: Scoring
SCORING_COMPETITION: Scoring
SCORING_DIFFICULTY: Scoring
SCORING_ADP: Scoring
SCORING_WP: Scoring
SCORING_BOTZONE: Scoring
SCORING_BOTZONE_FTL: Scoring

class Action(_message.Message):
    __slots__ = ("bid", "double", "play")
    BID_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    bid: int
    double: bool
    play: str
    def __init__(self, bid: _Optional[int] = ..., double: _Optional[bool] = ..., play: _Optional[str] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("seat", "hand", "phase", "landlord", "bottom", "bid", "events", "cards_left", "to_beat", "to_beat_seat", "legal", "rules", "phase_kind", "rules_kind", "round")
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
    ROUND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hand: str
    phase: str
    landlord: int
    bottom: str
    bid: int
    events: _containers.RepeatedCompositeFieldContainer[Event]
    cards_left: _containers.RepeatedScalarFieldContainer[int]
    to_beat: str
    to_beat_seat: int
    legal: _containers.RepeatedScalarFieldContainer[str]
    rules: str
    phase_kind: Phase
    rules_kind: Rules
    round: Round
    def __init__(self, seat: _Optional[int] = ..., hand: _Optional[str] = ..., phase: _Optional[str] = ..., landlord: _Optional[int] = ..., bottom: _Optional[str] = ..., bid: _Optional[int] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., cards_left: _Optional[_Iterable[int]] = ..., to_beat: _Optional[str] = ..., to_beat_seat: _Optional[int] = ..., legal: _Optional[_Iterable[str]] = ..., rules: _Optional[str] = ..., phase_kind: _Optional[_Union[Phase, str]] = ..., rules_kind: _Optional[_Union[Rules, str]] = ..., round: _Optional[_Union[Round, _Mapping]] = ...) -> None: ...

class Round(_message.Message):
    __slots__ = ("turn", "turns", "round", "rounds")
    TURN_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    turn: int
    turns: int
    round: int
    rounds: int
    def __init__(self, turn: _Optional[int] = ..., turns: _Optional[int] = ..., round: _Optional[int] = ..., rounds: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
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
    landlord: Landlord
    double: bool
    play: str
    def __init__(self, seat: _Optional[int] = ..., bid: _Optional[int] = ..., redeal: _Optional[bool] = ..., landlord: _Optional[_Union[Landlord, _Mapping]] = ..., double: _Optional[bool] = ..., play: _Optional[str] = ...) -> None: ...

class Landlord(_message.Message):
    __slots__ = ("bid", "bottom")
    BID_FIELD_NUMBER: _ClassVar[int]
    BOTTOM_FIELD_NUMBER: _ClassVar[int]
    bid: int
    bottom: str
    def __init__(self, bid: _Optional[int] = ..., bottom: _Optional[str] = ...) -> None: ...

class Outcome(_message.Message):
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
    scoring: Scoring
    def __init__(self, landlord: _Optional[int] = ..., winner: _Optional[int] = ..., bid: _Optional[int] = ..., bombs: _Optional[int] = ..., rockets: _Optional[int] = ..., spring: _Optional[bool] = ..., anti_spring: _Optional[bool] = ..., doubled: _Optional[_Iterable[bool]] = ..., redoubled: _Optional[bool] = ..., scoring: _Optional[_Union[Scoring, str]] = ...) -> None: ...

class Setup(_message.Message):
    __slots__ = ("deal", "rules", "fixed_landlord", "first_bidder", "fixed_bid", "doubling", "scoring", "rules_kind", "scoring_kind", "round")
    DEAL_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    FIXED_LANDLORD_FIELD_NUMBER: _ClassVar[int]
    FIRST_BIDDER_FIELD_NUMBER: _ClassVar[int]
    FIXED_BID_FIELD_NUMBER: _ClassVar[int]
    DOUBLING_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    RULES_KIND_FIELD_NUMBER: _ClassVar[int]
    SCORING_KIND_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    deal: str
    rules: str
    fixed_landlord: int
    first_bidder: int
    fixed_bid: int
    doubling: bool
    scoring: str
    rules_kind: Rules
    scoring_kind: Scoring
    round: Round
    def __init__(self, deal: _Optional[str] = ..., rules: _Optional[str] = ..., fixed_landlord: _Optional[int] = ..., first_bidder: _Optional[int] = ..., fixed_bid: _Optional[int] = ..., doubling: _Optional[bool] = ..., scoring: _Optional[str] = ..., rules_kind: _Optional[_Union[Rules, str]] = ..., scoring_kind: _Optional[_Union[Scoring, str]] = ..., round: _Optional[_Union[Round, _Mapping]] = ...) -> None: ...

class History(_message.Message):
    __slots__ = ("events",)
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ...) -> None: ...
