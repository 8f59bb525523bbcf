from google.protobuf import any_pb2 as _any_pb2
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
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: _any_pb2.Any
    def __init__(self, game: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("game", "events", "events_from")
    GAME_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FROM_FIELD_NUMBER: _ClassVar[int]
    game: _any_pb2.Any
    events: _containers.RepeatedScalarFieldContainer[bytes]
    events_from: int
    def __init__(self, game: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., events: _Optional[_Iterable[bytes]] = ..., events_from: _Optional[int] = ...) -> None: ...

class Outcome(_message.Message):
    __slots__ = ("scores", "scoring", "game")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    scoring: str
    game: _any_pb2.Any
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., scoring: _Optional[str] = ..., game: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...
