from arena.v1 import common_pb2 as _common_pb2
from arena.v1 import deals_pb2 as _deals_pb2
from google.protobuf import any_pb2 as _any_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Side(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SIDE_UNSPECIFIED: _ClassVar[Side]
    SIDE_LANDLORD: _ClassVar[Side]
    SIDE_FARMERS: _ClassVar[Side]
SIDE_UNSPECIFIED: Side
SIDE_LANDLORD: Side
SIDE_FARMERS: Side

class TableJob(_message.Message):
    __slots__ = ("table_id", "game", "seats", "setup", "time", "verdict_policy", "seed", "competition", "labels", "placement", "lane")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    VERDICT_POLICY_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    COMPETITION_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    game: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatSpec]
    setup: _any_pb2.Any
    time: _common_pb2.TimeControl
    verdict_policy: _common_pb2.VerdictPolicy
    seed: int
    competition: str
    labels: _containers.ScalarMap[str, str]
    placement: Placement
    lane: str
    def __init__(self, table_id: _Optional[str] = ..., game: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatSpec, _Mapping]]] = ..., setup: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., time: _Optional[_Union[_common_pb2.TimeControl, _Mapping]] = ..., verdict_policy: _Optional[_Union[_common_pb2.VerdictPolicy, str]] = ..., seed: _Optional[int] = ..., competition: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., placement: _Optional[_Union[Placement, _Mapping]] = ..., lane: _Optional[str] = ...) -> None: ...

class Placement(_message.Message):
    __slots__ = ("match_index", "round", "table", "side", "deal_id", "expected", "deal_group", "pair", "rotation", "deal_group_tables")
    MATCH_INDEX_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    DEAL_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_FIELD_NUMBER: _ClassVar[int]
    DEAL_GROUP_FIELD_NUMBER: _ClassVar[int]
    PAIR_FIELD_NUMBER: _ClassVar[int]
    ROTATION_FIELD_NUMBER: _ClassVar[int]
    DEAL_GROUP_TABLES_FIELD_NUMBER: _ClassVar[int]
    match_index: int
    round: int
    table: int
    side: Side
    deal_id: str
    expected: float
    deal_group: str
    pair: str
    rotation: int
    deal_group_tables: int
    def __init__(self, match_index: _Optional[int] = ..., round: _Optional[int] = ..., table: _Optional[int] = ..., side: _Optional[_Union[Side, str]] = ..., deal_id: _Optional[str] = ..., expected: _Optional[float] = ..., deal_group: _Optional[str] = ..., pair: _Optional[str] = ..., rotation: _Optional[int] = ..., deal_group_tables: _Optional[int] = ...) -> None: ...

class QueuedJob(_message.Message):
    __slots__ = ("table", "gdi")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GDI_FIELD_NUMBER: _ClassVar[int]
    table: TableJob
    gdi: _deals_pb2.GdiBatch
    def __init__(self, table: _Optional[_Union[TableJob, _Mapping]] = ..., gdi: _Optional[_Union[_deals_pb2.GdiBatch, _Mapping]] = ...) -> None: ...

class SeatSpec(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    def __init__(self, bot: _Optional[str] = ...) -> None: ...

class TableResult(_message.Message):
    __slots__ = ("table_id", "outcome", "penalties", "final_scores", "verdicts", "forfeited_by", "referee", "finished_unix_ms", "competition", "labels", "decisions", "mean_decision_ms", "error", "releases", "placement", "seat_time", "seat_later_time")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    PENALTIES_FIELD_NUMBER: _ClassVar[int]
    FINAL_SCORES_FIELD_NUMBER: _ClassVar[int]
    VERDICTS_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_BY_FIELD_NUMBER: _ClassVar[int]
    REFEREE_FIELD_NUMBER: _ClassVar[int]
    FINISHED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    COMPETITION_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    MEAN_DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    RELEASES_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TIME_FIELD_NUMBER: _ClassVar[int]
    SEAT_LATER_TIME_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    outcome: _common_pb2.Outcome
    penalties: _containers.RepeatedScalarFieldContainer[int]
    final_scores: _containers.RepeatedScalarFieldContainer[int]
    verdicts: _containers.RepeatedCompositeFieldContainer[_common_pb2.Verdict]
    forfeited_by: int
    referee: str
    finished_unix_ms: int
    competition: str
    labels: _containers.ScalarMap[str, str]
    decisions: _containers.RepeatedScalarFieldContainer[int]
    mean_decision_ms: _containers.RepeatedScalarFieldContainer[float]
    error: str
    releases: _containers.RepeatedScalarFieldContainer[str]
    placement: Placement
    seat_time: _containers.RepeatedCompositeFieldContainer[_common_pb2.TimeControl]
    seat_later_time: _containers.RepeatedCompositeFieldContainer[_common_pb2.TimeControl]
    def __init__(self, table_id: _Optional[str] = ..., outcome: _Optional[_Union[_common_pb2.Outcome, _Mapping]] = ..., penalties: _Optional[_Iterable[int]] = ..., final_scores: _Optional[_Iterable[int]] = ..., verdicts: _Optional[_Iterable[_Union[_common_pb2.Verdict, _Mapping]]] = ..., forfeited_by: _Optional[int] = ..., referee: _Optional[str] = ..., finished_unix_ms: _Optional[int] = ..., competition: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., decisions: _Optional[_Iterable[int]] = ..., mean_decision_ms: _Optional[_Iterable[float]] = ..., error: _Optional[str] = ..., releases: _Optional[_Iterable[str]] = ..., placement: _Optional[_Union[Placement, _Mapping]] = ..., seat_time: _Optional[_Iterable[_Union[_common_pb2.TimeControl, _Mapping]]] = ..., seat_later_time: _Optional[_Iterable[_Union[_common_pb2.TimeControl, _Mapping]]] = ...) -> None: ...

class ReplayStep(_message.Message):
    __slots__ = ("seat", "kind", "action", "elapsed_ms", "verdict", "automatic", "penalty", "limit_ms")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ELAPSED_MS_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    AUTOMATIC_FIELD_NUMBER: _ClassVar[int]
    PENALTY_FIELD_NUMBER: _ClassVar[int]
    LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: _common_pb2.DecisionKind
    action: _common_pb2.Action
    elapsed_ms: int
    verdict: _common_pb2.Verdict
    automatic: bool
    penalty: int
    limit_ms: int
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[_common_pb2.DecisionKind, str]] = ..., action: _Optional[_Union[_common_pb2.Action, _Mapping]] = ..., elapsed_ms: _Optional[int] = ..., verdict: _Optional[_Union[_common_pb2.Verdict, _Mapping]] = ..., automatic: _Optional[bool] = ..., penalty: _Optional[int] = ..., limit_ms: _Optional[int] = ...) -> None: ...

class Replay(_message.Message):
    __slots__ = ("job", "steps", "result", "history")
    JOB_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    job: TableJob
    steps: _containers.RepeatedCompositeFieldContainer[ReplayStep]
    result: TableResult
    history: _any_pb2.Any
    def __init__(self, job: _Optional[_Union[TableJob, _Mapping]] = ..., steps: _Optional[_Iterable[_Union[ReplayStep, _Mapping]]] = ..., result: _Optional[_Union[TableResult, _Mapping]] = ..., history: _Optional[_Union[_any_pb2.Any, _Mapping]] = ...) -> None: ...

class SubmitTableRequest(_message.Message):
    __slots__ = ("job",)
    JOB_FIELD_NUMBER: _ClassVar[int]
    job: TableJob
    def __init__(self, job: _Optional[_Union[TableJob, _Mapping]] = ...) -> None: ...

class SubmitTableResponse(_message.Message):
    __slots__ = ("table_id", "stream_id")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    STREAM_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    stream_id: str
    def __init__(self, table_id: _Optional[str] = ..., stream_id: _Optional[str] = ...) -> None: ...

class GetTableRequest(_message.Message):
    __slots__ = ("table_id",)
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    def __init__(self, table_id: _Optional[str] = ...) -> None: ...
