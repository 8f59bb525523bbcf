from arena.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class OperationKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OPERATION_KIND_UNSPECIFIED: _ClassVar[OperationKind]
    OPERATION_KIND_MEASURE: _ClassVar[OperationKind]
    OPERATION_KIND_FIND: _ClassVar[OperationKind]
OPERATION_KIND_UNSPECIFIED: OperationKind
OPERATION_KIND_MEASURE: OperationKind
OPERATION_KIND_FIND: OperationKind

class PanelSpec(_message.Message):
    __slots__ = ("landlords", "farmers", "scoring", "game")
    LANDLORDS_FIELD_NUMBER: _ClassVar[int]
    FARMERS_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    landlords: str
    farmers: str
    scoring: str
    game: str
    def __init__(self, landlords: _Optional[str] = ..., farmers: _Optional[str] = ..., scoring: _Optional[str] = ..., game: _Optional[str] = ...) -> None: ...

class DealRecord(_message.Message):
    __slots__ = ("id", "deal", "panel", "levels", "counts", "gdi", "seed", "bombs", "index", "game")
    ID_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    PANEL_FIELD_NUMBER: _ClassVar[int]
    LEVELS_FIELD_NUMBER: _ClassVar[int]
    COUNTS_FIELD_NUMBER: _ClassVar[int]
    GDI_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BOMBS_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    deal: str
    panel: str
    levels: _containers.RepeatedScalarFieldContainer[int]
    counts: _containers.RepeatedScalarFieldContainer[int]
    gdi: _containers.RepeatedScalarFieldContainer[float]
    seed: int
    bombs: int
    index: int
    game: str
    def __init__(self, id: _Optional[str] = ..., deal: _Optional[str] = ..., panel: _Optional[str] = ..., levels: _Optional[_Iterable[int]] = ..., counts: _Optional[_Iterable[int]] = ..., gdi: _Optional[_Iterable[float]] = ..., seed: _Optional[int] = ..., bombs: _Optional[int] = ..., index: _Optional[int] = ..., game: _Optional[str] = ...) -> None: ...

class GdiBatch(_message.Message):
    __slots__ = ("operation", "panel", "seed", "bombs", "first", "count")
    OPERATION_FIELD_NUMBER: _ClassVar[int]
    PANEL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BOMBS_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    operation: str
    panel: PanelSpec
    seed: int
    bombs: int
    first: int
    count: int
    def __init__(self, operation: _Optional[str] = ..., panel: _Optional[_Union[PanelSpec, _Mapping]] = ..., seed: _Optional[int] = ..., bombs: _Optional[int] = ..., first: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class MeasureRequest(_message.Message):
    __slots__ = ("panel", "seed", "bombs", "count", "batch")
    PANEL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BOMBS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    BATCH_FIELD_NUMBER: _ClassVar[int]
    panel: PanelSpec
    seed: int
    bombs: int
    count: int
    batch: int
    def __init__(self, panel: _Optional[_Union[PanelSpec, _Mapping]] = ..., seed: _Optional[int] = ..., bombs: _Optional[int] = ..., count: _Optional[int] = ..., batch: _Optional[int] = ...) -> None: ...

class FindRequest(_message.Message):
    __slots__ = ("panel", "centre", "eps", "count", "bombs", "seed", "max_tries")
    PANEL_FIELD_NUMBER: _ClassVar[int]
    CENTRE_FIELD_NUMBER: _ClassVar[int]
    EPS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    BOMBS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    MAX_TRIES_FIELD_NUMBER: _ClassVar[int]
    panel: PanelSpec
    centre: _containers.RepeatedScalarFieldContainer[float]
    eps: float
    count: int
    bombs: int
    seed: int
    max_tries: int
    def __init__(self, panel: _Optional[_Union[PanelSpec, _Mapping]] = ..., centre: _Optional[_Iterable[float]] = ..., eps: _Optional[float] = ..., count: _Optional[int] = ..., bombs: _Optional[int] = ..., seed: _Optional[int] = ..., max_tries: _Optional[int] = ...) -> None: ...

class Operation(_message.Message):
    __slots__ = ("id", "kind", "done", "progress", "total", "error", "seconds", "games", "games_per_second", "found", "tried", "operation_kind")
    ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    DONE_FIELD_NUMBER: _ClassVar[int]
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    GAMES_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    FOUND_FIELD_NUMBER: _ClassVar[int]
    TRIED_FIELD_NUMBER: _ClassVar[int]
    OPERATION_KIND_FIELD_NUMBER: _ClassVar[int]
    id: str
    kind: str
    done: bool
    progress: int
    total: int
    error: str
    seconds: float
    games: int
    games_per_second: float
    found: _containers.RepeatedCompositeFieldContainer[DealRecord]
    tried: int
    operation_kind: OperationKind
    def __init__(self, id: _Optional[str] = ..., kind: _Optional[str] = ..., done: _Optional[bool] = ..., progress: _Optional[int] = ..., total: _Optional[int] = ..., error: _Optional[str] = ..., seconds: _Optional[float] = ..., games: _Optional[int] = ..., games_per_second: _Optional[float] = ..., found: _Optional[_Iterable[_Union[DealRecord, _Mapping]]] = ..., tried: _Optional[int] = ..., operation_kind: _Optional[_Union[OperationKind, str]] = ...) -> None: ...

class GetOperationRequest(_message.Message):
    __slots__ = ("id",)
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class QueryRequest(_message.Message):
    __slots__ = ("panel", "centre", "eps", "count", "include_used")
    PANEL_FIELD_NUMBER: _ClassVar[int]
    CENTRE_FIELD_NUMBER: _ClassVar[int]
    EPS_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_USED_FIELD_NUMBER: _ClassVar[int]
    panel: PanelSpec
    centre: _containers.RepeatedScalarFieldContainer[float]
    eps: float
    count: int
    include_used: bool
    def __init__(self, panel: _Optional[_Union[PanelSpec, _Mapping]] = ..., centre: _Optional[_Iterable[float]] = ..., eps: _Optional[float] = ..., count: _Optional[int] = ..., include_used: _Optional[bool] = ...) -> None: ...

class QueryResponse(_message.Message):
    __slots__ = ("deals", "available")
    DEALS_FIELD_NUMBER: _ClassVar[int]
    AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    deals: _containers.RepeatedCompositeFieldContainer[DealRecord]
    available: int
    def __init__(self, deals: _Optional[_Iterable[_Union[DealRecord, _Mapping]]] = ..., available: _Optional[int] = ...) -> None: ...

class ClaimRequest(_message.Message):
    __slots__ = ("competition", "deal_ids")
    COMPETITION_FIELD_NUMBER: _ClassVar[int]
    DEAL_IDS_FIELD_NUMBER: _ClassVar[int]
    competition: str
    deal_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, competition: _Optional[str] = ..., deal_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class ClaimResponse(_message.Message):
    __slots__ = ("claimed",)
    CLAIMED_FIELD_NUMBER: _ClassVar[int]
    claimed: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, claimed: _Optional[_Iterable[bool]] = ...) -> None: ...

class ExportRequest(_message.Message):
    __slots__ = ("panel",)
    PANEL_FIELD_NUMBER: _ClassVar[int]
    panel: PanelSpec
    def __init__(self, panel: _Optional[_Union[PanelSpec, _Mapping]] = ...) -> None: ...

class ImportResponse(_message.Message):
    __slots__ = ("received", "new")
    RECEIVED_FIELD_NUMBER: _ClassVar[int]
    NEW_FIELD_NUMBER: _ClassVar[int]
    received: int
    new: int
    def __init__(self, received: _Optional[int] = ..., new: _Optional[int] = ...) -> None: ...

class StatsRequest(_message.Message):
    __slots__ = ("panel",)
    PANEL_FIELD_NUMBER: _ClassVar[int]
    panel: PanelSpec
    def __init__(self, panel: _Optional[_Union[PanelSpec, _Mapping]] = ...) -> None: ...

class StatsResponse(_message.Message):
    __slots__ = ("panel", "deals", "used", "mean", "p10", "p50", "p90")
    PANEL_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    USED_FIELD_NUMBER: _ClassVar[int]
    MEAN_FIELD_NUMBER: _ClassVar[int]
    P10_FIELD_NUMBER: _ClassVar[int]
    P50_FIELD_NUMBER: _ClassVar[int]
    P90_FIELD_NUMBER: _ClassVar[int]
    panel: str
    deals: int
    used: int
    mean: _containers.RepeatedScalarFieldContainer[float]
    p10: _containers.RepeatedScalarFieldContainer[float]
    p50: _containers.RepeatedScalarFieldContainer[float]
    p90: _containers.RepeatedScalarFieldContainer[float]
    def __init__(self, panel: _Optional[str] = ..., deals: _Optional[int] = ..., used: _Optional[int] = ..., mean: _Optional[_Iterable[float]] = ..., p10: _Optional[_Iterable[float]] = ..., p50: _Optional[_Iterable[float]] = ..., p90: _Optional[_Iterable[float]] = ...) -> None: ...
