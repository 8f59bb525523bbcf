from arena.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DecisionRequest(_message.Message):
    __slots__ = ("request_id", "table_id", "seat", "game", "kind", "deadline_ms", "observation")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    table_id: str
    seat: int
    game: str
    kind: _common_pb2.DecisionKind
    deadline_ms: int
    observation: _common_pb2.Observation
    def __init__(self, request_id: _Optional[int] = ..., table_id: _Optional[str] = ..., seat: _Optional[int] = ..., game: _Optional[str] = ..., kind: _Optional[_Union[_common_pb2.DecisionKind, str]] = ..., deadline_ms: _Optional[int] = ..., observation: _Optional[_Union[_common_pb2.Observation, _Mapping]] = ...) -> None: ...

class DecisionReply(_message.Message):
    __slots__ = ("request_id", "table_id", "action")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    table_id: str
    action: _common_pb2.Action
    def __init__(self, request_id: _Optional[int] = ..., table_id: _Optional[str] = ..., action: _Optional[_Union[_common_pb2.Action, _Mapping]] = ...) -> None: ...

class SeatOpen(_message.Message):
    __slots__ = ("table_id", "seat", "bot", "game", "time")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    bot: str
    game: str
    time: _common_pb2.TimeControl
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., bot: _Optional[str] = ..., game: _Optional[str] = ..., time: _Optional[_Union[_common_pb2.TimeControl, _Mapping]] = ...) -> None: ...

class SeatClose(_message.Message):
    __slots__ = ("table_id", "outcome", "verdicts")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    VERDICTS_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    outcome: _common_pb2.Outcome
    verdicts: _containers.RepeatedCompositeFieldContainer[_common_pb2.Verdict]
    def __init__(self, table_id: _Optional[str] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., verdicts: _Optional[_Iterable[_Union[_common_pb2.Verdict, _Mapping]]] = ...) -> None: ...

class RefereeToSeat(_message.Message):
    __slots__ = ("open", "request", "close")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    CLOSE_FIELD_NUMBER: _ClassVar[int]
    open: SeatOpen
    request: DecisionRequest
    close: SeatClose
    def __init__(self, open: _Optional[_Union[SeatOpen, _Mapping]] = ..., request: _Optional[_Union[DecisionRequest, _Mapping]] = ..., close: _Optional[_Union[SeatClose, _Mapping]] = ...) -> None: ...

class SeatReady(_message.Message):
    __slots__ = ("bot", "release", "host", "incremental_observations")
    BOT_FIELD_NUMBER: _ClassVar[int]
    RELEASE_FIELD_NUMBER: _ClassVar[int]
    HOST_FIELD_NUMBER: _ClassVar[int]
    INCREMENTAL_OBSERVATIONS_FIELD_NUMBER: _ClassVar[int]
    bot: str
    release: str
    host: str
    incremental_observations: bool
    def __init__(self, bot: _Optional[str] = ..., release: _Optional[str] = ..., host: _Optional[str] = ..., incremental_observations: _Optional[bool] = ...) -> None: ...

class SeatFault(_message.Message):
    __slots__ = ("kind", "reason", "platform")
    KIND_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    PLATFORM_FIELD_NUMBER: _ClassVar[int]
    kind: _common_pb2.VerdictKind
    reason: str
    platform: bool
    def __init__(self, kind: _Optional[_Union[_common_pb2.VerdictKind, str]] = ..., reason: _Optional[str] = ..., platform: _Optional[bool] = ...) -> None: ...

class SeatWaiting(_message.Message):
    __slots__ = ("reason",)
    REASON_FIELD_NUMBER: _ClassVar[int]
    reason: str
    def __init__(self, reason: _Optional[str] = ...) -> None: ...

class SeatNote(_message.Message):
    __slots__ = ("request_id", "note")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    note: str
    def __init__(self, request_id: _Optional[int] = ..., note: _Optional[str] = ...) -> None: ...

class SeatToReferee(_message.Message):
    __slots__ = ("ready", "reply", "fault", "waiting", "note")
    READY_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    FAULT_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    NOTE_FIELD_NUMBER: _ClassVar[int]
    ready: SeatReady
    reply: DecisionReply
    fault: SeatFault
    waiting: SeatWaiting
    note: SeatNote
    def __init__(self, ready: _Optional[_Union[SeatReady, _Mapping]] = ..., reply: _Optional[_Union[DecisionReply, _Mapping]] = ..., fault: _Optional[_Union[SeatFault, _Mapping]] = ..., waiting: _Optional[_Union[SeatWaiting, _Mapping]] = ..., note: _Optional[_Union[SeatNote, _Mapping]] = ...) -> None: ...

class RefereeSeatFrame(_message.Message):
    __slots__ = ("seat_stream", "msg", "end", "traceparent")
    SEAT_STREAM_FIELD_NUMBER: _ClassVar[int]
    MSG_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    TRACEPARENT_FIELD_NUMBER: _ClassVar[int]
    seat_stream: int
    msg: RefereeToSeat
    end: bool
    traceparent: str
    def __init__(self, seat_stream: _Optional[int] = ..., msg: _Optional[_Union[RefereeToSeat, _Mapping]] = ..., end: _Optional[bool] = ..., traceparent: _Optional[str] = ...) -> None: ...

class RefereeToSeats(_message.Message):
    __slots__ = ("frames",)
    FRAMES_FIELD_NUMBER: _ClassVar[int]
    frames: _containers.RepeatedCompositeFieldContainer[RefereeSeatFrame]
    def __init__(self, frames: _Optional[_Iterable[_Union[RefereeSeatFrame, _Mapping]]] = ...) -> None: ...

class SeatStreamEnd(_message.Message):
    __slots__ = ("code", "message")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class HostSeatFrame(_message.Message):
    __slots__ = ("seat_stream", "msg", "end")
    SEAT_STREAM_FIELD_NUMBER: _ClassVar[int]
    MSG_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    seat_stream: int
    msg: SeatToReferee
    end: SeatStreamEnd
    def __init__(self, seat_stream: _Optional[int] = ..., msg: _Optional[_Union[SeatToReferee, _Mapping]] = ..., end: _Optional[_Union[SeatStreamEnd, _Mapping]] = ...) -> None: ...

class SeatsToReferee(_message.Message):
    __slots__ = ("frames",)
    FRAMES_FIELD_NUMBER: _ClassVar[int]
    frames: _containers.RepeatedCompositeFieldContainer[HostSeatFrame]
    def __init__(self, frames: _Optional[_Iterable[_Union[HostSeatFrame, _Mapping]]] = ...) -> None: ...
