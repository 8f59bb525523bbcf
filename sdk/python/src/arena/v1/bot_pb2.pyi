from arena.v1 import common_pb2 as _common_pb2
from arena.v1 import seat_pb2 as _seat_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Hello(_message.Message):
    __slots__ = ("bot", "release", "capacity", "resume_session", "games", "incremental_observations")
    BOT_FIELD_NUMBER: _ClassVar[int]
    RELEASE_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    RESUME_SESSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    INCREMENTAL_OBSERVATIONS_FIELD_NUMBER: _ClassVar[int]
    bot: str
    release: str
    capacity: int
    resume_session: str
    games: _containers.RepeatedScalarFieldContainer[str]
    incremental_observations: bool
    def __init__(self, bot: _Optional[str] = ..., release: _Optional[str] = ..., capacity: _Optional[int] = ..., resume_session: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., incremental_observations: _Optional[bool] = ...) -> None: ...

class Pong(_message.Message):
    __slots__ = ("nonce",)
    NONCE_FIELD_NUMBER: _ClassVar[int]
    nonce: int
    def __init__(self, nonce: _Optional[int] = ...) -> None: ...

class Drain(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class BotToHost(_message.Message):
    __slots__ = ("hello", "reply", "pong", "drain")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    REPLY_FIELD_NUMBER: _ClassVar[int]
    PONG_FIELD_NUMBER: _ClassVar[int]
    DRAIN_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    reply: _seat_pb2.DecisionReply
    pong: Pong
    drain: Drain
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., reply: _Optional[_Union[_seat_pb2.DecisionReply, _Mapping]] = ..., pong: _Optional[_Union[Pong, _Mapping]] = ..., drain: _Optional[_Union[Drain, _Mapping]] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("session", "bot", "grace_ms", "keepalive_ms", "resumed")
    SESSION_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    GRACE_MS_FIELD_NUMBER: _ClassVar[int]
    KEEPALIVE_MS_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    session: str
    bot: str
    grace_ms: int
    keepalive_ms: int
    resumed: _containers.RepeatedCompositeFieldContainer[_seat_pb2.DecisionRequest]
    def __init__(self, session: _Optional[str] = ..., bot: _Optional[str] = ..., grace_ms: _Optional[int] = ..., keepalive_ms: _Optional[int] = ..., resumed: _Optional[_Iterable[_Union[_seat_pb2.DecisionRequest, _Mapping]]] = ...) -> None: ...

class TableStart(_message.Message):
    __slots__ = ("table_id", "seat", "game", "time")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    game: str
    time: _common_pb2.TimeControl
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., game: _Optional[str] = ..., time: _Optional[_Union[_common_pb2.TimeControl, _Mapping]] = ...) -> None: ...

class TableEnd(_message.Message):
    __slots__ = ("table_id", "seat", "outcome", "verdicts")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    VERDICTS_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    outcome: _common_pb2.Outcome
    verdicts: _containers.RepeatedCompositeFieldContainer[_common_pb2.Verdict]
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., verdicts: _Optional[_Iterable[_Union[_common_pb2.Verdict, _Mapping]]] = ...) -> None: ...

class Ping(_message.Message):
    __slots__ = ("nonce",)
    NONCE_FIELD_NUMBER: _ClassVar[int]
    nonce: int
    def __init__(self, nonce: _Optional[int] = ...) -> None: ...

class Notice(_message.Message):
    __slots__ = ("table_id", "request_id", "message")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    request_id: int
    message: str
    def __init__(self, table_id: _Optional[str] = ..., request_id: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class HostToBot(_message.Message):
    __slots__ = ("welcome", "start", "request", "end", "ping", "notice")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    PING_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    start: TableStart
    request: _seat_pb2.DecisionRequest
    end: TableEnd
    ping: Ping
    notice: Notice
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., start: _Optional[_Union[TableStart, _Mapping]] = ..., request: _Optional[_Union[_seat_pb2.DecisionRequest, _Mapping]] = ..., end: _Optional[_Union[TableEnd, _Mapping]] = ..., ping: _Optional[_Union[Ping, _Mapping]] = ..., notice: _Optional[_Union[Notice, _Mapping]] = ...) -> None: ...
