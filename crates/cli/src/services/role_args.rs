//! Each role's flags: `arena table-referee`, `bot-host`, `deal-library`, `matchmaker` and
//! `standalone`.

use std::net::SocketAddr;

use arena_bot_host::{Isolation, Limits, SANDBOX_PATH};
use arena_referee::RefereeConfig;
use clap::Args;

use super::flags::{
    BackgroundArgs, BotTlsArgs, ClusterTokenArgs, ConsoleArgs, LadderArgs, OperatorTokenArgs,
    RetentionArgs, ServeArgs, SpectatorArgs,
};
use super::metrics::MetricsArgs;
use crate::store_args::StoreArgs;

/// `arena table-referee`: runs tables from the job stream.
#[derive(Args)]
pub struct RefereeArgs {
    /// This referee's name on the job stream's consumer group (unique per instance).
    /// Default: referee-<HOSTNAME>-<process id>.
    #[arg(long, env = "ARENA_REFEREE_ID")]
    pub(super) id: Option<String>,
    /// gRPC listen address (TableReferee, health, reflection).
    #[arg(long, env = "ARENA_REFEREE_LISTEN", default_value_t = arena_referee::DEFAULT_LISTEN)]
    pub(super) listen: SocketAddr,
    /// bot-host address(es) for seats that are not built-in bots, when presence names none.
    #[arg(long = "bot-host", env = "ARENA_BOT_HOSTS", value_delimiter = ',')]
    pub(super) bot_hosts: Vec<String>,
    /// The job lane to take tables from (empty: the default lane): e.g. `short` for referees
    /// of their own for short time controls, whose competitions name that lane.
    #[arg(long, env = "ARENA_LANE", default_value = "")]
    pub(super) lane: String,
    /// Most tables played at once (a played table waiting for its store write no longer counts).
    #[arg(long, env = "ARENA_MAX_TABLES", default_value_t = 64)]
    pub(super) max_tables: usize,
    #[command(flatten)]
    pub(super) background: BackgroundArgs,
    /// A job whose referee has been silent this long is taken over (milliseconds).
    #[arg(long, env = "ARENA_RECLAIM_AFTER_MS", default_value_t = 60_000)]
    pub(super) reclaim_after_ms: u64,
    /// How long tables in flight may finish at shutdown (milliseconds).
    #[arg(long, env = "ARENA_SHUTDOWN_GRACE_MS", default_value_t = 30_000)]
    pub(super) shutdown_grace_ms: u64,
    #[command(flatten)]
    pub(super) store: StoreArgs,
    #[command(flatten)]
    pub(super) cluster: ClusterTokenArgs,
    #[command(flatten)]
    pub(super) operator: OperatorTokenArgs,
    #[command(flatten)]
    pub(super) serve: ServeArgs,
    #[command(flatten)]
    pub(super) metrics: MetricsArgs,
}

/// `arena bot-host`: hosts remote, program and built-in bots behind seat streams.
#[derive(Args)]
pub struct BotHostArgs {
    /// gRPC listen address of the bot port (BotGateway, health, reflection): where bots connect.
    #[arg(long, env = "ARENA_BOT_HOST_LISTEN", default_value_t = arena_bot_host::DEFAULT_LISTEN)]
    pub(super) listen: SocketAddr,
    /// Address referees should dial, recorded in presence (default: the seat port's bound
    /// address, --seat-listen).
    #[arg(long, env = "ARENA_BOT_HOST_ADVERTISE")]
    pub(super) advertise: Option<String>,
    /// How long a disconnected remote bot keeps its tables (milliseconds).
    #[arg(long, env = "ARENA_GRACE_MS", default_value_t = arena_bot_host::DEFAULT_GRACE.as_millis() as u64)]
    pub(super) grace_ms: u64,
    /// Keepalive ping interval (milliseconds); also how often a seat waiting for a busy remote
    /// bot tells its referee so (keep it well under the referees' 30 s seat-open timeout).
    #[arg(long, env = "ARENA_KEEPALIVE_MS", default_value_t = arena_bot_host::DEFAULT_KEEPALIVE.as_millis() as u64)]
    pub(super) keepalive_ms: u64,
    /// CPU seconds per bot program process (0 = no limit); a bot's record can only lower it.
    #[arg(long, env = "ARENA_PROGRAM_CPU_SECONDS", default_value_t = Limits::HOST_DEFAULT.cpu_seconds)]
    pub(super) program_cpu_seconds: u32,
    /// Address space per bot program process, MiB (0 = no limit); a bot's record can only lower it.
    #[arg(long, env = "ARENA_PROGRAM_MEMORY_MB", default_value_t = Limits::HOST_DEFAULT.memory_mb)]
    pub(super) program_memory_mb: u32,
    /// Processes (and threads) of one bot program at once (0 = no limit).
    #[arg(long, env = "ARENA_PROGRAM_PROCESSES", default_value_t = Limits::HOST_DEFAULT.processes)]
    pub(super) program_processes: u32,
    /// Open files of a bot program process (0 = no limit).
    #[arg(long, env = "ARENA_PROGRAM_OPEN_FILES", default_value_t = Limits::HOST_DEFAULT.open_files)]
    pub(super) program_open_files: u32,
    /// Largest file a bot program may write, MiB (0 = no limit).
    #[arg(long, env = "ARENA_PROGRAM_FILE_SIZE_MB", default_value_t = Limits::HOST_DEFAULT.file_size_mb)]
    pub(super) program_file_size_mb: u32,
    /// Wall-clock seconds a bot program process may live (0 = no limit).
    #[arg(long, env = "ARENA_PROGRAM_WALL_SECONDS", default_value_t = Limits::HOST_DEFAULT.wall_seconds)]
    pub(super) program_wall_seconds: u32,
    /// Isolate bot programs: `on` (every layer the kernel grants) or `off` (limits only; loud).
    #[arg(long, env = "ARENA_SANDBOX", default_value = "on")]
    pub(super) sandbox: Isolation,
    /// Extra paths bot programs may read and execute beneath (absolute; repeat the flag, or
    /// separate them with commas in ARENA_SANDBOX_READ).
    #[arg(
        long = "sandbox-read",
        env = "ARENA_SANDBOX_READ",
        value_delimiter = ','
    )]
    pub(super) sandbox_read: Vec<std::path::PathBuf>,
    /// The PATH of bot programs.
    #[arg(long, env = "ARENA_SANDBOX_PATH", default_value = SANDBOX_PATH)]
    pub(super) sandbox_path: String,
    #[command(flatten)]
    pub(super) store: StoreArgs,
    /// gRPC listen address of the seat port (SeatHost for referees, health): internal to the
    /// cluster, never exposed to bots.
    #[arg(
        long,
        env = "ARENA_BOT_HOST_SEAT_LISTEN",
        default_value_t = arena_bot_host::DEFAULT_SEAT_LISTEN
    )]
    pub(super) seat_listen: SocketAddr,
    #[command(flatten)]
    pub(super) cluster: ClusterTokenArgs,
    #[command(flatten)]
    pub(super) tls: BotTlsArgs,
    #[command(flatten)]
    pub(super) serve: ServeArgs,
    #[command(flatten)]
    pub(super) metrics: MetricsArgs,
}

/// `arena deal-library`: the deal library over gRPC.
#[derive(Args)]
pub struct DealLibraryArgs {
    /// gRPC listen address (DealLibrary, health, reflection).
    #[arg(
        long,
        env = "ARENA_DEAL_LIBRARY_LISTEN",
        default_value_t = arena_deal_library::DEFAULT_LISTEN
    )]
    pub(super) listen: SocketAddr,
    /// Worker threads for on-demand generation.
    #[arg(long, env = "ARENA_THREADS")]
    pub(super) threads: Option<usize>,
    #[command(flatten)]
    pub(super) store: StoreArgs,
    #[command(flatten)]
    pub(super) operator: OperatorTokenArgs,
    #[command(flatten)]
    pub(super) serve: ServeArgs,
    #[command(flatten)]
    pub(super) metrics: MetricsArgs,
}

/// `arena matchmaker`: competitions over gRPC.
#[derive(Args)]
pub struct MatchmakerArgs {
    /// gRPC listen address (Matchmaker, health, reflection).
    #[arg(
        long,
        env = "ARENA_MATCHMAKER_LISTEN",
        default_value_t = arena_matchmaker::DEFAULT_LISTEN
    )]
    pub(super) listen: SocketAddr,
    #[command(flatten)]
    pub(super) store: StoreArgs,
    #[command(flatten)]
    pub(super) ladder: LadderArgs,
    #[command(flatten)]
    pub(super) operator: OperatorTokenArgs,
    #[command(flatten)]
    pub(super) spectator: SpectatorArgs,
    /// Most tables one competition may have (matches × rounds × participants, × 2 with seat
    /// rotation); larger ones are refused with OUT_OF_RANGE.
    #[arg(
        long,
        env = "ARENA_MAX_TABLES_PER_COMPETITION",
        default_value_t = arena_matchmaker::DEFAULT_MAX_TABLES
    )]
    pub(super) max_tables_per_competition: u64,
    #[command(flatten)]
    pub(super) retention: RetentionArgs,
    #[command(flatten)]
    pub(super) console: ConsoleArgs,
    /// The deal library the console's create form asks for the measured deals an
    /// equal-strength or difficulty-adjusted competition lacks, as `arena competition create`
    /// does (e.g. http://deal-library:50053; unset: the form refuses such a competition with
    /// the command that finds them).
    #[arg(long, env = "ARENA_DEAL_LIBRARY")]
    pub(super) deal_library: Option<String>,
    #[command(flatten)]
    pub(super) serve: ServeArgs,
    #[command(flatten)]
    pub(super) metrics: MetricsArgs,
}

/// `arena standalone`: every role in one process on the embedded store.
#[derive(Args)]
pub struct StandaloneArgs {
    /// Data directory of the embedded store.
    #[arg(long, env = "ARENA_DATA_DIR", default_value = arena::standalone::DEFAULT_DATA_DIR)]
    pub(super) data_dir: std::path::PathBuf,
    /// table-referee listen address (the variable the table-referee role reads, too). Clients
    /// find every address in the data directory's endpoints.json.
    #[arg(long, env = "ARENA_REFEREE_LISTEN", default_value_t = arena::standalone::DEFAULT_REFEREE_LISTEN)]
    pub(super) referee_listen: SocketAddr,
    /// bot-host listen address: where bots connect.
    #[arg(long, env = "ARENA_BOT_HOST_LISTEN", default_value_t = arena::standalone::DEFAULT_BOT_HOST_LISTEN)]
    pub(super) bot_host_listen: SocketAddr,
    /// deal-library listen address.
    #[arg(long, env = "ARENA_DEAL_LIBRARY_LISTEN", default_value_t = arena::standalone::DEFAULT_DEAL_LIBRARY_LISTEN)]
    pub(super) deal_library_listen: SocketAddr,
    /// matchmaker listen address.
    #[arg(long, env = "ARENA_MATCHMAKER_LISTEN", default_value_t = arena::standalone::DEFAULT_MATCHMAKER_LISTEN)]
    pub(super) matchmaker_listen: SocketAddr,
    #[command(flatten)]
    pub(super) console: ConsoleArgs,
    #[command(flatten)]
    pub(super) ladder: LadderArgs,
    #[command(flatten)]
    pub(super) spectator: SpectatorArgs,
    #[command(flatten)]
    pub(super) bot_tls: BotTlsArgs,
    #[command(flatten)]
    pub(super) retention: RetentionArgs,
    #[command(flatten)]
    pub(super) serve: ServeArgs,
    #[command(flatten)]
    pub(super) metrics: MetricsArgs,
    /// Most tables the referee plays at once (tables of slow bots mostly wait: thousands fit;
    /// see docs/scaling.md).
    #[arg(long, env = "ARENA_MAX_TABLES", default_value_t = RefereeConfig::default().max_tables)]
    pub(super) max_tables: usize,
    #[command(flatten)]
    pub(super) background: BackgroundArgs,
}
