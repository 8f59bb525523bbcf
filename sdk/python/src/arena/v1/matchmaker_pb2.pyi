from arena.v1 import common_pb2 as _common_pb2
from arena.v1 import deals_pb2 as _deals_pb2
from arena.v1 import table_pb2 as _table_pb2
from google.protobuf import any_pb2 as _any_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CompetitionFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COMPETITION_FORMAT_UNSPECIFIED: _ClassVar[CompetitionFormat]
    COMPETITION_FORMAT_DUPLICATE: _ClassVar[CompetitionFormat]
    COMPETITION_FORMAT_EQUAL_STRENGTH: _ClassVar[CompetitionFormat]
    COMPETITION_FORMAT_RANDOM: _ClassVar[CompetitionFormat]
    COMPETITION_FORMAT_DIFFICULTY_ADJUSTED: _ClassVar[CompetitionFormat]

class CompetitionState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COMPETITION_STATE_UNSPECIFIED: _ClassVar[CompetitionState]
    COMPETITION_STATE_CREATED: _ClassVar[CompetitionState]
    COMPETITION_STATE_RUNNING: _ClassVar[CompetitionState]
    COMPETITION_STATE_FINISHED: _ClassVar[CompetitionState]
    COMPETITION_STATE_CANCELLED: _ClassVar[CompetitionState]
    COMPETITION_STATE_FAILED: _ClassVar[CompetitionState]
COMPETITION_FORMAT_UNSPECIFIED: CompetitionFormat
COMPETITION_FORMAT_DUPLICATE: CompetitionFormat
COMPETITION_FORMAT_EQUAL_STRENGTH: CompetitionFormat
COMPETITION_FORMAT_RANDOM: CompetitionFormat
COMPETITION_FORMAT_DIFFICULTY_ADJUSTED: CompetitionFormat
COMPETITION_STATE_UNSPECIFIED: CompetitionState
COMPETITION_STATE_CREATED: CompetitionState
COMPETITION_STATE_RUNNING: CompetitionState
COMPETITION_STATE_FINISHED: CompetitionState
COMPETITION_STATE_CANCELLED: CompetitionState
COMPETITION_STATE_FAILED: CompetitionState

class CompetitionSpec(_message.Message):
    __slots__ = ("name", "format", "centre", "eps", "participants", "farmers", "matches", "rounds", "rotate_seats", "time", "verdict_policy", "panel", "bombs", "seed", "format_kind", "game", "setup", "lane")
    NAME_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    CENTRE_FIELD_NUMBER: _ClassVar[int]
    EPS_FIELD_NUMBER: _ClassVar[int]
    PARTICIPANTS_FIELD_NUMBER: _ClassVar[int]
    FARMERS_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    ROTATE_SEATS_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    VERDICT_POLICY_FIELD_NUMBER: _ClassVar[int]
    PANEL_FIELD_NUMBER: _ClassVar[int]
    BOMBS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    FORMAT_KIND_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SETUP_FIELD_NUMBER: _ClassVar[int]
    LANE_FIELD_NUMBER: _ClassVar[int]
    name: str
    format: str
    centre: _containers.RepeatedScalarFieldContainer[float]
    eps: float
    participants: _containers.RepeatedScalarFieldContainer[str]
    farmers: str
    matches: int
    rounds: int
    rotate_seats: bool
    time: _common_pb2.TimeControl
    verdict_policy: _common_pb2.VerdictPolicy
    panel: _deals_pb2.PanelSpec
    bombs: int
    seed: int
    format_kind: CompetitionFormat
    game: str
    setup: _any_pb2.Any
    lane: str
    def __init__(self, name: _Optional[str] = ..., format: _Optional[str] = ..., centre: _Optional[_Iterable[float]] = ..., eps: _Optional[float] = ..., participants: _Optional[_Iterable[str]] = ..., farmers: _Optional[str] = ..., matches: _Optional[int] = ..., rounds: _Optional[int] = ..., rotate_seats: _Optional[bool] = ..., time: _Optional[_Union[_common_pb2.TimeControl, _Mapping]] = ..., verdict_policy: _Optional[_Union[_common_pb2.VerdictPolicy, str]] = ..., panel: _Optional[_Union[_deals_pb2.PanelSpec, _Mapping]] = ..., bombs: _Optional[int] = ..., seed: _Optional[int] = ..., format_kind: _Optional[_Union[CompetitionFormat, str]] = ..., game: _Optional[str] = ..., setup: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., lane: _Optional[str] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("participant", "place", "rank_probabilities", "most_probable_rank", "mean_rank", "mean_score", "score_ci95", "game", "verdicts")
    PARTICIPANT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    RANK_PROBABILITIES_FIELD_NUMBER: _ClassVar[int]
    MOST_PROBABLE_RANK_FIELD_NUMBER: _ClassVar[int]
    MEAN_RANK_FIELD_NUMBER: _ClassVar[int]
    MEAN_SCORE_FIELD_NUMBER: _ClassVar[int]
    SCORE_CI95_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    VERDICTS_FIELD_NUMBER: _ClassVar[int]
    participant: str
    place: int
    rank_probabilities: _containers.RepeatedScalarFieldContainer[float]
    most_probable_rank: int
    mean_rank: float
    mean_score: float
    score_ci95: float
    game: _any_pb2.Any
    verdicts: int
    def __init__(self, participant: _Optional[str] = ..., place: _Optional[int] = ..., rank_probabilities: _Optional[_Iterable[float]] = ..., most_probable_rank: _Optional[int] = ..., mean_rank: _Optional[float] = ..., mean_score: _Optional[float] = ..., score_ci95: _Optional[float] = ..., game: _Optional[_Union[_any_pb2.Any, _Mapping]] = ..., verdicts: _Optional[int] = ...) -> None: ...

class Standings(_message.Message):
    __slots__ = ("competition", "standings", "tables_done", "tables_total", "final", "game", "drawn_hands", "tables_withheld")
    COMPETITION_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    TABLES_DONE_FIELD_NUMBER: _ClassVar[int]
    TABLES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    DRAWN_HANDS_FIELD_NUMBER: _ClassVar[int]
    TABLES_WITHHELD_FIELD_NUMBER: _ClassVar[int]
    competition: str
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    tables_done: int
    tables_total: int
    final: bool
    game: str
    drawn_hands: int
    tables_withheld: int
    def __init__(self, competition: _Optional[str] = ..., standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ..., tables_done: _Optional[int] = ..., tables_total: _Optional[int] = ..., final: _Optional[bool] = ..., game: _Optional[str] = ..., drawn_hands: _Optional[int] = ..., tables_withheld: _Optional[int] = ...) -> None: ...

class Competition(_message.Message):
    __slots__ = ("spec", "state", "tables_total", "tables_done", "error", "created_unix_ms", "finished_unix_ms", "status", "pruned_unix_ms", "warnings")
    SPEC_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    TABLES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    TABLES_DONE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    FINISHED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PRUNED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    spec: CompetitionSpec
    state: str
    tables_total: int
    tables_done: int
    error: str
    created_unix_ms: int
    finished_unix_ms: int
    status: CompetitionState
    pruned_unix_ms: int
    warnings: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, spec: _Optional[_Union[CompetitionSpec, _Mapping]] = ..., state: _Optional[str] = ..., tables_total: _Optional[int] = ..., tables_done: _Optional[int] = ..., error: _Optional[str] = ..., created_unix_ms: _Optional[int] = ..., finished_unix_ms: _Optional[int] = ..., status: _Optional[_Union[CompetitionState, str]] = ..., pruned_unix_ms: _Optional[int] = ..., warnings: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateCompetitionRequest(_message.Message):
    __slots__ = ("spec",)
    SPEC_FIELD_NUMBER: _ClassVar[int]
    spec: CompetitionSpec
    def __init__(self, spec: _Optional[_Union[CompetitionSpec, _Mapping]] = ...) -> None: ...

class CompetitionRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListCompetitionsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListCompetitionsResponse(_message.Message):
    __slots__ = ("competitions",)
    COMPETITIONS_FIELD_NUMBER: _ClassVar[int]
    competitions: _containers.RepeatedCompositeFieldContainer[Competition]
    def __init__(self, competitions: _Optional[_Iterable[_Union[Competition, _Mapping]]] = ...) -> None: ...

class LeaderboardRequest(_message.Message):
    __slots__ = ("limit", "game", "page_token")
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    limit: int
    game: str
    page_token: str
    def __init__(self, limit: _Optional[int] = ..., game: _Optional[str] = ..., page_token: _Optional[str] = ...) -> None: ...

class Rating(_message.Message):
    __slots__ = ("bot", "release", "mu", "sigma", "conservative", "games")
    BOT_FIELD_NUMBER: _ClassVar[int]
    RELEASE_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    CONSERVATIVE_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    bot: str
    release: str
    mu: float
    sigma: float
    conservative: float
    games: int
    def __init__(self, bot: _Optional[str] = ..., release: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., conservative: _Optional[float] = ..., games: _Optional[int] = ...) -> None: ...

class Leaderboard(_message.Message):
    __slots__ = ("ratings", "game", "next_page_token", "total")
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[Rating]
    game: str
    next_page_token: str
    total: int
    def __init__(self, ratings: _Optional[_Iterable[_Union[Rating, _Mapping]]] = ..., game: _Optional[str] = ..., next_page_token: _Optional[str] = ..., total: _Optional[int] = ...) -> None: ...
