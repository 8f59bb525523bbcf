from arena.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BotKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOT_KIND_UNSPECIFIED: _ClassVar[BotKind]
    BOT_KIND_REMOTE: _ClassVar[BotKind]
    BOT_KIND_PROGRAM: _ClassVar[BotKind]
BOT_KIND_UNSPECIFIED: BotKind
BOT_KIND_REMOTE: BotKind
BOT_KIND_PROGRAM: BotKind

class RegisteredBot(_message.Message):
    __slots__ = ("name", "kind", "game", "command", "cpu_seconds", "memory_mb", "max_tables", "created_unix_ms", "workdir", "decision_ms", "later_decision_ms")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    CPU_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MEMORY_MB_FIELD_NUMBER: _ClassVar[int]
    MAX_TABLES_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    WORKDIR_FIELD_NUMBER: _ClassVar[int]
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    LATER_DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: BotKind
    game: str
    command: str
    cpu_seconds: int
    memory_mb: int
    max_tables: int
    created_unix_ms: int
    workdir: str
    decision_ms: int
    later_decision_ms: int
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[_Union[BotKind, str]] = ..., game: _Optional[str] = ..., command: _Optional[str] = ..., cpu_seconds: _Optional[int] = ..., memory_mb: _Optional[int] = ..., max_tables: _Optional[int] = ..., created_unix_ms: _Optional[int] = ..., workdir: _Optional[str] = ..., decision_ms: _Optional[int] = ..., later_decision_ms: _Optional[int] = ...) -> None: ...

class AddBotRequest(_message.Message):
    __slots__ = ("name", "program", "game", "cpu_seconds", "memory_mb", "max_tables", "workdir", "decision_ms", "later_decision_ms")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PROGRAM_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    CPU_SECONDS_FIELD_NUMBER: _ClassVar[int]
    MEMORY_MB_FIELD_NUMBER: _ClassVar[int]
    MAX_TABLES_FIELD_NUMBER: _ClassVar[int]
    WORKDIR_FIELD_NUMBER: _ClassVar[int]
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    LATER_DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    name: str
    program: str
    game: str
    cpu_seconds: int
    memory_mb: int
    max_tables: int
    workdir: str
    decision_ms: int
    later_decision_ms: int
    def __init__(self, name: _Optional[str] = ..., program: _Optional[str] = ..., game: _Optional[str] = ..., cpu_seconds: _Optional[int] = ..., memory_mb: _Optional[int] = ..., max_tables: _Optional[int] = ..., workdir: _Optional[str] = ..., decision_ms: _Optional[int] = ..., later_decision_ms: _Optional[int] = ...) -> None: ...

class BotTokenResponse(_message.Message):
    __slots__ = ("bot", "token")
    BOT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot: RegisteredBot
    token: str
    def __init__(self, bot: _Optional[_Union[RegisteredBot, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class BotNameRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots",)
    BOTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[RegisteredBot]
    def __init__(self, bots: _Optional[_Iterable[_Union[RegisteredBot, _Mapping]]] = ...) -> None: ...

class RemoveBotResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class OperatorNameRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class OperatorTokenResponse(_message.Message):
    __slots__ = ("name", "id", "token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    id: str
    token: str
    def __init__(self, name: _Optional[str] = ..., id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class ListOperatorsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class OperatorToken(_message.Message):
    __slots__ = ("name", "id", "created_unix_ms")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    name: str
    id: str
    created_unix_ms: int
    def __init__(self, name: _Optional[str] = ..., id: _Optional[str] = ..., created_unix_ms: _Optional[int] = ...) -> None: ...

class ListOperatorsResponse(_message.Message):
    __slots__ = ("operators",)
    OPERATORS_FIELD_NUMBER: _ClassVar[int]
    operators: _containers.RepeatedCompositeFieldContainer[OperatorToken]
    def __init__(self, operators: _Optional[_Iterable[_Union[OperatorToken, _Mapping]]] = ...) -> None: ...

class RemoveOperatorResponse(_message.Message):
    __slots__ = ("revoked",)
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    revoked: int
    def __init__(self, revoked: _Optional[int] = ...) -> None: ...
