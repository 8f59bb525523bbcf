//! The service roles (`arena table-referee`, `arena bot-host`, `arena standalone`) and their
//! operator commands (`arena operators …`, `arena table run`; `arena bots …` is `bots_cmd`).

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use arena_bot_host::{BotHostConfig, Isolation, Limits, Policy, ProcessLimits, SANDBOX_PATH};
use arena_proto::v1;
use arena_referee::RefereeConfig;
use clap::{Args, Subcommand};

use crate::client::{self, ClientAuth};
use crate::store_args::StoreArgs;

/// The bootstrap operator token a role accepts besides the tokens in its store.
#[derive(Args)]
pub struct OperatorTokenArgs {
    /// A file holding the bootstrap operator token (e.g. a mounted Kubernetes Secret); operators
    /// may also use tokens issued by `arena operators add NAME`.
    #[arg(long, env = "ARENA_OPERATOR_TOKEN_FILE")]
    operator_token_file: Option<std::path::PathBuf>,
}

impl OperatorTokenArgs {
    fn read(&self) -> Result<Option<arena_auth::Secret>> {
        self.operator_token_file
            .as_deref()
            .map(arena_auth::read_secret_file)
            .transpose()
            .map_err(Into::into)
    }
}

/// The cluster token bot-host and the referees share.
#[derive(Args)]
pub struct ClusterTokenArgs {
    /// A file holding the cluster token (e.g. a mounted Kubernetes Secret): referees present it
    /// to open seats on bot-host's seat port. The same file for bot-host and every referee.
    #[arg(long, env = "ARENA_CLUSTER_TOKEN_FILE")]
    cluster_token_file: Option<std::path::PathBuf>,
}

impl ClusterTokenArgs {
    fn read(&self) -> Result<Option<arena_auth::Secret>> {
        self.cluster_token_file
            .as_deref()
            .map(arena_auth::read_secret_file)
            .transpose()
            .map_err(Into::into)
    }
}

/// TLS on bot-host's bot port.
#[derive(Args)]
pub struct BotTlsArgs {
    /// PEM certificate (chain) of the bot port: bots then connect with https:// (needs
    /// --tls-key-file). E.g. tls.crt of a mounted Kubernetes TLS Secret.
    #[arg(long, env = "ARENA_BOT_HOST_TLS_CERT_FILE", requires = "tls_key_file")]
    tls_cert_file: Option<std::path::PathBuf>,
    /// PEM private key of the bot port's certificate (e.g. tls.key).
    #[arg(long, env = "ARENA_BOT_HOST_TLS_KEY_FILE", requires = "tls_cert_file")]
    tls_key_file: Option<std::path::PathBuf>,
    /// PEM CA certificate(s): every bot must present a client certificate issued by it (mutual
    /// TLS, on top of its token).
    #[arg(
        long,
        env = "ARENA_BOT_HOST_TLS_CLIENT_CA_FILE",
        requires = "tls_cert_file"
    )]
    tls_client_ca_file: Option<std::path::PathBuf>,
}

impl BotTlsArgs {
    fn files(&self) -> Option<arena_tls::ServerTlsFiles> {
        use arena_tls::{KeyPairFiles, ServerTlsFiles, TlsFile};
        let (cert, key) = (self.tls_cert_file.as_ref()?, self.tls_key_file.as_ref()?);
        Some(ServerTlsFiles {
            identity: KeyPairFiles {
                cert: TlsFile::new("--tls-cert-file", cert),
                key: TlsFile::new("--tls-key-file", key),
            },
            client_ca: self
                .tls_client_ca_file
                .as_ref()
                .map(|ca| TlsFile::new("--tls-client-ca-file", ca)),
        })
    }
}

/// Whether spectator reads are open to the public.
#[derive(Args)]
pub struct SpectatorArgs {
    /// Open spectator reads (standings, competitions, the leaderboard, replays of finished tables)
    /// to anyone; by default they need an operator token too.
    #[arg(
        long,
        env = "ARENA_PUBLIC_SPECTATOR",
        action = clap::ArgAction::SetTrue,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    public_spectator: bool,
}

/// Where an optional HTTP port (the web console, the metrics endpoint) listens: an address, or
/// `off`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ListenOrOff(pub Option<SocketAddr>);

impl std::fmt::Display for ListenOrOff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(a) => a.fmt(f),
            None => f.write_str("off"),
        }
    }
}

impl std::str::FromStr for ListenOrOff {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s.trim() == "off" {
            return Ok(ListenOrOff(None));
        }
        s.trim()
            .parse()
            .map(|a| ListenOrOff(Some(a)))
            .map_err(|e| format!("{s:?} is neither an address (e.g. 127.0.0.1:8054) nor off: {e}"))
    }
}

/// Background tables: where a referee plays the tables of long time controls (table-referee
/// and standalone).
#[derive(Args)]
pub struct BackgroundArgs {
    /// Tables whose decision time is at least this many ms play on background threads at
    /// the lowest CPU priority (SCHED_IDLE), so that tables of shorter time controls get the CPU
    /// first (unset: none; docs/scaling.md, "One referee, two priorities").
    #[arg(long, env = "ARENA_BACKGROUND_FROM_MS")]
    background_from_ms: Option<u64>,
    /// The CPUs background tables' threads keep to, as taskset writes them (e.g. 1, 2-3): on
    /// cores of their own they do not slow the other tables at all (unset: any CPU).
    #[arg(long, env = "ARENA_BACKGROUND_CPUS", requires = "background_from_ms")]
    background_cpus: Option<arena_referee::CpuList>,
}

impl BackgroundArgs {
    /// [`RefereeConfig::background_from`].
    fn from(&self) -> Option<Duration> {
        self.background_from_ms.map(Duration::from_millis)
    }

    /// [`RefereeConfig::background_cpus`].
    fn cpus(&self) -> Vec<usize> {
        self.background_cpus.clone().unwrap_or_default().0
    }
}

/// The web console's settings (matchmaker and standalone).
#[derive(Args)]
pub struct ConsoleArgs {
    /// HTTP listen address of the web console (competitions, live standings, replays, the
    /// ladder, bots, the deal library; docs/console.md), or `off`.
    #[arg(
        long,
        env = "ARENA_CONSOLE_LISTEN",
        default_value_t = ListenOrOff(Some(arena_console::DEFAULT_LISTEN))
    )]
    console_listen: ListenOrOff,
    /// Host names the console also answers to, comma-separated (the names a proxy or ingress
    /// reaches it by); besides these only localhost, loopback addresses and the listen address
    /// are answered, so a web page whose name was pointed at the console (DNS rebinding) is
    /// refused (421).
    #[arg(
        long,
        env = "ARENA_CONSOLE_ALLOWED_HOSTS",
        value_delimiter = ',',
        value_parser = host_name
    )]
    console_allowed_hosts: Vec<String>,
    /// Most connections the console holds open at once; beyond it the one idle longest is
    /// closed (logged).
    #[arg(
        long,
        env = "ARENA_CONSOLE_MAX_CONNECTIONS",
        default_value_t = arena_serve::http::DEFAULT_MAX_CONNECTIONS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    console_max_connections: usize,
    /// Requests without an operator token (with --public-spectator) a client address may make
    /// a minute; beyond it 429 (0: no limit).
    #[arg(
        long,
        env = "ARENA_CONSOLE_PUBLIC_RATE",
        default_value_t = arena_console::public::DEFAULT_PUBLIC_PER_MINUTE
    )]
    console_public_rate: u32,
}

/// A host name as `--console-allowed-hosts` takes it: letters, digits, dots and dashes (no
/// scheme, port or path: the console compares it with the `Host` header's name).
fn host_name(s: &str) -> Result<String, String> {
    let name = s.trim();
    if !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
    {
        Ok(name.to_string())
    } else {
        Err(format!(
            "{s:?} is not a host name (letters, digits, dots and dashes, e.g. arena.example.org; \
             no scheme, port or path)"
        ))
    }
}

impl ConsoleArgs {
    /// The console's options as the flags set them.
    fn options(&self) -> arena_console::ConsoleOptions {
        arena_console::ConsoleOptions {
            allowed_hosts: self.console_allowed_hosts.clone(),
            public_per_minute: self.console_public_rate,
            http: arena_serve::http::HttpLimits {
                max_connections: self.console_max_connections,
                ..arena_serve::http::HttpLimits::default()
            },
        }
    }
}

/// The Prometheus scrape endpoint every role may serve.
#[derive(Args)]
pub struct MetricsArgs {
    /// HTTP listen address of the Prometheus endpoint (`GET /metrics`; no token: it shows counts
    /// and latencies by kind, never a bot's name, a table or a card; docs/observability.md), or
    /// `off`. The chart serves it on 0.0.0.0:9464.
    #[arg(long, env = "ARENA_METRICS_LISTEN", default_value_t = ListenOrOff(None))]
    metrics_listen: ListenOrOff,
}

/// The metrics endpoint's bounds: a scraper or two, never many connections.
const METRICS_LIMITS: arena_serve::http::HttpLimits = arena_serve::http::HttpLimits {
    max_connections: 64,
    header_read_timeout: arena_serve::http::DEFAULT_HEADER_READ_TIMEOUT,
    idle_timeout: arena_serve::http::DEFAULT_IDLE_TIMEOUT,
};

/// A bound metrics endpoint, not yet serving.
struct MetricsEndpoint {
    listener: tokio::net::TcpListener,
    scrape: arena_telemetry::Scrape,
}

impl MetricsArgs {
    /// Telemetry for `service` (logs, OTLP export as the environment asks), keeping the metrics
    /// for a scrape and binding the endpoint when `--metrics-listen` is on.
    async fn init(
        &self,
        service: &str,
    ) -> Result<(arena_telemetry::Telemetry, Option<MetricsEndpoint>)> {
        let options = arena_telemetry::Options {
            prometheus: self.metrics_listen.0.is_some(),
        };
        let telemetry = arena_telemetry::init_with(service, options)?;
        let endpoint = match (self.metrics_listen.0, telemetry.scrape()) {
            (Some(addr), Some(scrape)) => {
                let listener = tokio::net::TcpListener::bind(addr)
                    .await
                    .with_context(|| format!("binding the metrics endpoint's {addr}"))?;
                Some(MetricsEndpoint { listener, scrape })
            }
            _ => None,
        };
        Ok((telemetry, endpoint))
    }
}

impl MetricsEndpoint {
    /// Where it answers, for the configuration lines.
    fn describe(endpoint: &Option<MetricsEndpoint>) -> String {
        match endpoint.as_ref().and_then(|e| e.listener.local_addr().ok()) {
            Some(a) => format!("http://{a}{}", arena_telemetry::scrape::PATH),
            None => "off".into(),
        }
    }

    /// Serves scrapes until the runtime ends, so the last tables of a graceful shutdown can
    /// still be scraped.
    fn spawn(endpoint: Option<MetricsEndpoint>) {
        if let Some(e) = endpoint {
            tokio::spawn(async move {
                let served = arena_serve::http::serve(
                    "metrics endpoint",
                    e.listener,
                    e.scrape.router(),
                    METRICS_LIMITS,
                    std::future::pending(),
                );
                if let Err(err) = served.await {
                    tracing::error!(error = %err, "the metrics endpoint stopped");
                }
            });
        }
    }
}

/// The serving settings every role shares (see `arena_serve::ServeConfig`).
#[derive(Args)]
pub struct ServeArgs {
    /// A call not answered within this long gets DEADLINE_EXCEEDED (milliseconds; 0 = no
    /// limit). Streams are bounded only until they start.
    #[arg(
        long,
        env = "ARENA_REQUEST_TIMEOUT_MS",
        default_value_t = arena_serve::DEFAULT_REQUEST_TIMEOUT.as_millis() as u64
    )]
    request_timeout_ms: u64,
    /// Most calls handled at once; calls beyond it are shed with UNAVAILABLE (0 = no limit).
    #[arg(
        long,
        env = "ARENA_MAX_CONCURRENT_REQUESTS",
        default_value_t = arena_serve::DEFAULT_MAX_CONCURRENT_REQUESTS
    )]
    max_concurrent_requests: usize,
    /// Ask connections older than this to reconnect, so L4 load balancers rebalance them
    /// (milliseconds; 0 = never).
    #[arg(long, env = "ARENA_MAX_CONNECTION_AGE_MS", default_value_t = 0)]
    max_connection_age_ms: u64,
    /// How long a connection asked to reconnect keeps its calls in flight (milliseconds).
    #[arg(
        long,
        env = "ARENA_MAX_CONNECTION_AGE_GRACE_MS",
        default_value_t = arena_serve::DEFAULT_MAX_CONNECTION_AGE_GRACE.as_millis() as u64
    )]
    max_connection_age_grace_ms: u64,
}

impl ServeArgs {
    fn config(&self) -> arena_serve::ServeConfig {
        arena_serve::ServeConfig::from_millis(
            self.request_timeout_ms,
            self.max_concurrent_requests,
            self.max_connection_age_ms,
            self.max_connection_age_grace_ms,
        )
    }
}

/// `arena table-referee`: runs tables from the job stream.
#[derive(Args)]
pub struct RefereeArgs {
    /// This referee's name on the job stream's consumer group (unique per instance).
    /// Default: referee-<HOSTNAME>-<process id>.
    #[arg(long, env = "ARENA_REFEREE_ID")]
    id: Option<String>,
    /// gRPC listen address (TableReferee, health, reflection).
    #[arg(long, env = "ARENA_REFEREE_LISTEN", default_value_t = arena_referee::DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// bot-host address(es) for seats that are not built-in bots, when presence names none.
    #[arg(long = "bot-host", env = "ARENA_BOT_HOSTS", value_delimiter = ',')]
    bot_hosts: Vec<String>,
    /// The job lane to take tables from (empty: the default lane): e.g. `short` for referees
    /// of their own for short time controls, whose competitions name that lane.
    #[arg(long, env = "ARENA_LANE", default_value = "")]
    lane: String,
    /// Most tables played at once (a played table waiting for its store write no longer counts).
    #[arg(long, env = "ARENA_MAX_TABLES", default_value_t = 64)]
    max_tables: usize,
    #[command(flatten)]
    background: BackgroundArgs,
    /// A job whose referee has been silent this long is taken over (milliseconds).
    #[arg(long, env = "ARENA_RECLAIM_AFTER_MS", default_value_t = 60_000)]
    reclaim_after_ms: u64,
    /// How long tables in flight may finish at shutdown (milliseconds).
    #[arg(long, env = "ARENA_SHUTDOWN_GRACE_MS", default_value_t = 30_000)]
    shutdown_grace_ms: u64,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    cluster: ClusterTokenArgs,
    #[command(flatten)]
    operator: OperatorTokenArgs,
    #[command(flatten)]
    serve: ServeArgs,
    #[command(flatten)]
    metrics: MetricsArgs,
}

/// `arena bot-host`: hosts remote, program and built-in bots behind seat streams.
#[derive(Args)]
pub struct BotHostArgs {
    /// gRPC listen address of the bot port (BotGateway, health, reflection): where bots connect.
    #[arg(long, env = "ARENA_BOT_HOST_LISTEN", default_value_t = arena_bot_host::DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// Address referees should dial, recorded in presence (default: the seat port's bound
    /// address, --seat-listen).
    #[arg(long, env = "ARENA_BOT_HOST_ADVERTISE")]
    advertise: Option<String>,
    /// How long a disconnected remote bot keeps its tables (milliseconds).
    #[arg(long, env = "ARENA_GRACE_MS", default_value_t = arena_bot_host::DEFAULT_GRACE.as_millis() as u64)]
    grace_ms: u64,
    /// Keepalive ping interval (milliseconds); also how often a seat waiting for a busy remote
    /// bot tells its referee so (keep it well under the referees' 30 s seat-open timeout).
    #[arg(long, env = "ARENA_KEEPALIVE_MS", default_value_t = arena_bot_host::DEFAULT_KEEPALIVE.as_millis() as u64)]
    keepalive_ms: u64,
    /// CPU seconds per bot program process (0 = no limit); a bot's record can only lower it.
    #[arg(long, env = "ARENA_PROGRAM_CPU_SECONDS", default_value_t = Limits::HOST_DEFAULT.cpu_seconds)]
    program_cpu_seconds: u32,
    /// Address space per bot program process, MiB (0 = no limit); a bot's record can only lower it.
    #[arg(long, env = "ARENA_PROGRAM_MEMORY_MB", default_value_t = Limits::HOST_DEFAULT.memory_mb)]
    program_memory_mb: u32,
    /// Processes (and threads) of one bot program at once (0 = no limit).
    #[arg(long, env = "ARENA_PROGRAM_PROCESSES", default_value_t = Limits::HOST_DEFAULT.processes)]
    program_processes: u32,
    /// Open files of a bot program process (0 = no limit).
    #[arg(long, env = "ARENA_PROGRAM_OPEN_FILES", default_value_t = Limits::HOST_DEFAULT.open_files)]
    program_open_files: u32,
    /// Largest file a bot program may write, MiB (0 = no limit).
    #[arg(long, env = "ARENA_PROGRAM_FILE_SIZE_MB", default_value_t = Limits::HOST_DEFAULT.file_size_mb)]
    program_file_size_mb: u32,
    /// Wall-clock seconds a bot program process may live (0 = no limit).
    #[arg(long, env = "ARENA_PROGRAM_WALL_SECONDS", default_value_t = Limits::HOST_DEFAULT.wall_seconds)]
    program_wall_seconds: u32,
    /// Isolate bot programs: `on` (every layer the kernel grants) or `off` (limits only; loud).
    #[arg(long, env = "ARENA_SANDBOX", default_value = "on")]
    sandbox: Isolation,
    /// Extra paths bot programs may read and execute beneath (absolute; repeat the flag, or
    /// separate them with commas in ARENA_SANDBOX_READ).
    #[arg(
        long = "sandbox-read",
        env = "ARENA_SANDBOX_READ",
        value_delimiter = ','
    )]
    sandbox_read: Vec<std::path::PathBuf>,
    /// The PATH of bot programs.
    #[arg(long, env = "ARENA_SANDBOX_PATH", default_value = SANDBOX_PATH)]
    sandbox_path: String,
    #[command(flatten)]
    store: StoreArgs,
    /// gRPC listen address of the seat port (SeatHost for referees, health): internal to the
    /// cluster, never exposed to bots.
    #[arg(
        long,
        env = "ARENA_BOT_HOST_SEAT_LISTEN",
        default_value_t = arena_bot_host::DEFAULT_SEAT_LISTEN
    )]
    seat_listen: SocketAddr,
    #[command(flatten)]
    cluster: ClusterTokenArgs,
    #[command(flatten)]
    tls: BotTlsArgs,
    #[command(flatten)]
    serve: ServeArgs,
    #[command(flatten)]
    metrics: MetricsArgs,
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
    listen: SocketAddr,
    /// Worker threads for on-demand generation.
    #[arg(long, env = "ARENA_THREADS")]
    threads: Option<usize>,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    operator: OperatorTokenArgs,
    #[command(flatten)]
    serve: ServeArgs,
    #[command(flatten)]
    metrics: MetricsArgs,
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
    listen: SocketAddr,
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    ladder: LadderArgs,
    #[command(flatten)]
    operator: OperatorTokenArgs,
    #[command(flatten)]
    spectator: SpectatorArgs,
    /// Most tables one competition may have (matches × rounds × participants, × 2 with seat
    /// rotation); larger ones are refused with OUT_OF_RANGE.
    #[arg(
        long,
        env = "ARENA_MAX_TABLES_PER_COMPETITION",
        default_value_t = arena_matchmaker::DEFAULT_MAX_TABLES
    )]
    max_tables_per_competition: u64,
    #[command(flatten)]
    retention: RetentionArgs,
    #[command(flatten)]
    console: ConsoleArgs,
    /// The deal library the console's create form asks for the measured deals an
    /// equal-strength or difficulty-adjusted competition lacks, as `arena competition create`
    /// does (e.g. http://deal-library:50053; unset: the form refuses such a competition with
    /// the command that finds them).
    #[arg(long, env = "ARENA_DEAL_LIBRARY")]
    deal_library: Option<String>,
    #[command(flatten)]
    serve: ServeArgs,
    #[command(flatten)]
    metrics: MetricsArgs,
}

/// How long results and replays are kept.
#[derive(Args)]
pub struct RetentionArgs {
    /// Days an ended competition keeps its tables' results and replays (0 = for ever; its record
    /// and standings stay either way; fractions allowed).
    #[arg(long, env = "ARENA_COMPETITION_RETENTION_DAYS", default_value_t = 0.0)]
    competition_retention_days: f64,
    /// Days a ladder table's result and replay are kept after it finished (0 = for ever; the
    /// ratings stay either way; fractions allowed).
    #[arg(
        long,
        env = "ARENA_LADDER_RETENTION_DAYS",
        default_value_t = arena_matchmaker::retention::DEFAULT_LADDER_DAYS
    )]
    ladder_retention_days: f64,
}

impl RetentionArgs {
    fn retention(&self) -> Result<arena_matchmaker::retention::Retention> {
        use arena_matchmaker::retention::{Retention, days};
        for (flag, d) in [
            (
                "--competition-retention-days",
                self.competition_retention_days,
            ),
            ("--ladder-retention-days", self.ladder_retention_days),
        ] {
            if !d.is_finite() || d < 0.0 {
                bail!(
                    "{flag} must be a number of days, 0 or more (0 keeps them for ever), not {d}"
                );
            }
        }
        Ok(Retention {
            competitions: days(self.competition_retention_days),
            ladder: days(self.ladder_retention_days),
            ..Retention::default()
        })
    }
}

/// The continuous ranked ladder's settings.
#[derive(Args)]
pub struct LadderArgs {
    /// Run the continuous ranked ladder: pair the connected remote bots into duplicate pairs and
    /// rate them per release.
    #[arg(
        long,
        env = "ARENA_LADDER",
        action = clap::ArgAction::SetTrue,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    ladder: bool,
    /// Bots always available to the ladder besides connected remote bots (built-in bots such as
    /// expert, or program bots), comma-separated; they are never paired with each other.
    #[arg(long, env = "ARENA_LADDER_ANCHORS", value_delimiter = ',')]
    ladder_anchors: Vec<String>,
    /// Milliseconds between pairing passes.
    #[arg(long, env = "ARENA_LADDER_EVERY_MS", default_value_t = 1000)]
    ladder_every_ms: u64,
    /// Most ladder pairs in flight at once (0 = no limit).
    #[arg(long, env = "ARENA_LADDER_MAX_PAIRS", default_value_t = 0)]
    ladder_max_pairs: usize,
    /// Seed of the ladder's opponent draws (its deals come from a secret key drawn at random).
    #[arg(long, env = "ARENA_LADDER_SEED", default_value_t = 0x1adde5)]
    ladder_seed: u64,
    /// Most releases rated per bot (both ladders): rating a newer release forgets the least
    /// recently rated one and its history (at least 1).
    #[arg(
        long,
        env = "ARENA_LADDER_MAX_RELEASES",
        default_value_t = arena_matchmaker::ladder::DEFAULT_MAX_RELEASES,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000)
    )]
    ladder_max_releases: usize,
    /// Run the continuous ranked Mahjong ladder: group the connected Mahjong bots by four into
    /// duplicate sets (one wall at four tables, the bots rotated a seat each) and rate them per
    /// release. It shares the pass interval, group cap and seed with the Dou Dizhu ladder.
    #[arg(
        long,
        env = "ARENA_MAHJONG_LADDER",
        action = clap::ArgAction::SetTrue,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    mahjong_ladder: bool,
    /// Mahjong bots always available to the Mahjong ladder (built-in random, greedy, expert, or
    /// program bots), comma-separated; a set always has at least one bot that is not an anchor.
    #[arg(long, env = "ARENA_MAHJONG_LADDER_ANCHORS", value_delimiter = ',')]
    mahjong_ladder_anchors: Vec<String>,
}

impl LadderArgs {
    fn config(&self) -> arena_matchmaker::MatchmakerConfig {
        let ladder = |game: arena_games::GameKind, anchors: &[String]| {
            arena_matchmaker::ladder::LadderConfig {
                game,
                every: std::time::Duration::from_millis(self.ladder_every_ms.max(10)),
                anchors: anchors
                    .iter()
                    .map(|a| a.trim().to_string())
                    .filter(|a| !a.is_empty())
                    .collect(),
                max_pairs: self.ladder_max_pairs,
                seed: self.ladder_seed,
                max_releases: self.ladder_max_releases,
                ..Default::default()
            }
        };
        arena_matchmaker::MatchmakerConfig {
            ladder: self
                .ladder
                .then(|| ladder(arena_games::ddz::GAME, &self.ladder_anchors)),
            mahjong_ladder: self
                .mahjong_ladder
                .then(|| ladder(arena_games::mahjong::GAME, &self.mahjong_ladder_anchors)),
            ..Default::default()
        }
    }
}

/// `arena leaderboard`: the ladder's ratings from a running matchmaker.
#[derive(Args)]
pub struct LeaderboardArgs {
    /// Which game's ladder.
    #[arg(long, value_enum, default_value = "dou-dizhu")]
    game: GameArg,
    /// Most entries (0 = all; fetched a page at a time).
    #[arg(long, default_value_t = 0)]
    limit: u32,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    addr: MatchmakerAddr,
}

/// `arena competition …`: a client of the matchmaker.
#[derive(Subcommand)]
pub enum CompetitionCommand {
    /// Create a competition, then watch it until its final standings.
    Create(Box<CompetitionCreateArgs>),
    /// Print a competition's standings (final or so far).
    Standings(CompetitionNameArgs),
    /// List every competition with its state and progress.
    List(MatchmakerAddr),
    /// Cancel a running competition (tables already queued still play; standings stay readable).
    Cancel(CompetitionNameArgs),
    /// Export every finished table's replay of a competition as length-delimited
    /// `arena.v1.Replay` protobuf messages (`--out`), and for a Mahjong competition as the 2015
    /// server's hand logs (`--log-dir`).
    Replays(CompetitionReplaysArgs),
    /// Print one table's replay (any table: a competition's, a ladder pair's, a submitted one);
    /// a Mahjong table's hand is printed in the 2015 server's log format; `--json` prints it
    /// as JSON.
    Replay(TableReplayArgs),
}

/// The matchmaker's address alone.
#[derive(Args)]
pub struct MatchmakerAddr {
    /// The matchmaker's address [default: the one the `arena standalone` of --data-dir wrote to
    /// its endpoints.json, else http://127.0.0.1:50054].
    #[arg(long, env = "ARENA_MATCHMAKER")]
    matchmaker: Option<String>,
    #[command(flatten)]
    auth: ClientAuth,
}

#[derive(Args)]
#[command(group(clap::ArgGroup::new("to").required(true).multiple(true).args(["out", "log_dir"])))]
pub struct CompetitionReplaysArgs {
    /// The competition.
    name: String,
    /// The file to write the replays to, length-delimited `arena.v1.Replay` messages (created
    /// or truncated).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Mahjong: write every hand as the 2015 server's log under this directory, as `arena
    /// mahjong match --log-dir` does (`match-M/hand-HH.log`, `hands.jsonl`, `scores.csv`).
    #[arg(long)]
    log_dir: Option<std::path::PathBuf>,
    #[command(flatten)]
    addr: MatchmakerAddr,
}

#[derive(Args)]
pub struct TableReplayArgs {
    /// The table id (e.g. `cup/m0/r3/t1`, `ladder/p12/a`, `mj/m0/g2/r1/d3`).
    table_id: String,
    /// Mahjong: print only the hand's log in the 2015 server's format.
    #[arg(long)]
    log: bool,
    /// Print the whole replay as one line of JSON (the protocol's canonical JSON mapping, as the
    /// SDKs' replay readers write each replay of an export).
    #[arg(long, conflicts_with = "log")]
    json: bool,
    #[command(flatten)]
    addr: MatchmakerAddr,
}

/// A game a command is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GameArg {
    /// Dou Dizhu.
    #[value(name = "dou-dizhu", alias = "ddz")]
    DouDizhu,
    /// The 2015 contest Mahjong.
    Mahjong,
}

impl GameArg {
    pub(crate) fn wire(self) -> v1::Game {
        match self {
            GameArg::DouDizhu => v1::Game::DouDizhu,
            GameArg::Mahjong => v1::Game::Mahjong,
        }
    }

    pub(crate) fn store(self) -> arena_store::Game {
        match self {
            GameArg::DouDizhu => arena_store::Game::DouDizhu,
            GameArg::Mahjong => arena_store::Game::Mahjong,
        }
    }
}

/// `arena competition create`. A Dou Dizhu competition seats each participant as landlord at a
/// table of its own against the farmer bot; a Mahjong competition (`--game mahjong`) plays the
/// contest's 96-hand duplicate match `--matches` times among exactly four participants, dealt
/// from its seed (the Dou Dizhu options are refused there). Every field of the protocol's
/// `CompetitionSpec` has a flag.
#[derive(Args)]
pub struct CompetitionCreateArgs {
    /// Unique name (deals are claimed under it).
    #[arg(long)]
    name: String,
    /// The game.
    #[arg(long, value_enum, default_value = "dou-dizhu")]
    game: GameArg,
    /// duplicate, equal-strength, random or difficulty-adjusted [Dou Dizhu default:
    /// equal-strength; Mahjong: duplicate only].
    #[arg(long)]
    format: Option<String>,
    /// Equal-strength centre, e.g. 0.95,0.55,0.15 [default: 0.95,0.55,0.15].
    #[arg(long, value_delimiter = ',')]
    centre: Option<Vec<f64>>,
    /// Equal-strength radius [default: 0.15].
    #[arg(long)]
    eps: Option<f64>,
    /// Participants (bot names): Dou Dizhu, one table each as landlord; Mahjong, exactly four
    /// (built-in random, greedy, expert, or registered bots; a name may repeat).
    #[arg(long)]
    participants: String,
    /// The farmer bot at every table (Dou Dizhu) [default: expert].
    #[arg(long)]
    farmers: Option<String>,
    /// Matches [Dou Dizhu default: 10; Mahjong: 1, of 96 hands each].
    #[arg(long)]
    matches: Option<u32>,
    /// Rounds per match (Dou Dizhu) [default: 10].
    #[arg(long)]
    rounds: Option<u32>,
    /// The panel whose library supplies measured deals (Dou Dizhu; `ladder:N` or bot names)
    /// [default: ladder:70].
    #[arg(long)]
    panel: Option<String>,
    /// The panel's farmer bot (Dou Dizhu) [default: --farmers].
    #[arg(long)]
    panel_farmers: Option<String>,
    /// Scoring mode of every table and of the panel's levels (Dou Dizhu): competition,
    /// difficulty, adp or wp [default: difficulty].
    #[arg(long)]
    scoring: Option<ddz::Scoring>,
    /// Rule set of every table (Dou Dizhu): competition, douzero or openspiel; equal-strength
    /// and difficulty-adjusted competitions play competition [default: competition].
    #[arg(long, value_enum)]
    rules: Option<RulesArg>,
    /// Bombs per deal, the rocket counted as one (Dou Dizhu); an equal-strength centre then has
    /// 2 × (bombs + 1) − 1 values [default: 1].
    #[arg(long)]
    bombs: Option<u32>,
    /// Seed of the deals: it fixes every fresh deal (duplicate, random, every Mahjong wall) and
    /// which library deal each table gets [default: drawn at random by the matchmaker and shown
    /// once the competition has finished; a known seed lets anyone deal the cards].
    #[arg(long)]
    seed: Option<u64>,
    /// Also play every deal with each participant in both farmer seats (its round score is then
    /// its landlord score plus its farmer team's score). Dou Dizhu.
    #[arg(long)]
    rotate_seats: bool,
    /// Fan reading (Mahjong): contest or seed-2015 [default: contest].
    #[arg(long)]
    fans: Option<mahjong::Reading>,
    /// Time for one decision (a Mahjong turn), ms [default: 1000].
    #[arg(long)]
    decision_ms: Option<u32>,
    /// Mahjong: time for an answer to a discard or an added kong, ms [default: 500].
    #[arg(long)]
    claim_ms: Option<u32>,
    /// No answer by then is a timeout verdict, ms [default: 5000].
    #[arg(long)]
    hard_cap_ms: Option<u32>,
    /// Penalty points per 100 ms beyond the decision time [Mahjong default: 1; Dou Dizhu: 0].
    #[arg(long)]
    penalty_per_100ms: Option<u32>,
    /// How time beyond the limit is counted in 100 ms steps: `started` (every started step) or
    /// `nearest` (rounded half up) [Dou Dizhu default: started; Mahjong: nearest].
    #[arg(long, value_enum)]
    penalty_rounding: Option<RoundingArg>,
    /// What a verdict (timeout, illegal or malformed answer, crash, lost connection) does:
    /// `forfeit` (the seat's side loses the game at once) or `play-on` (the seat plays on
    /// automatically and takes --verdict-penalty points) [Dou Dizhu default: forfeit; Mahjong:
    /// play-on].
    #[arg(long, value_enum)]
    verdict_policy: Option<VerdictPolicyArg>,
    /// Penalty points a seat takes for a verdict under `--verdict-policy play-on` [default: 0].
    #[arg(long)]
    verdict_penalty: Option<u32>,
    /// The job lane of its tables, taken only by referees started with `--lane` of that name
    /// [default: the default lane].
    #[arg(long, default_value = "")]
    lane: String,
    /// Fail when the library lacks deals for an equal-strength or difficulty-adjusted
    /// competition, instead of asking the deal library (--library) to find them.
    #[arg(long)]
    no_find: bool,
    #[command(flatten)]
    library: crate::library_client::LibraryAddr,
    #[command(flatten)]
    addr: MatchmakerAddr,
}

/// A Dou Dizhu rule set a competition may play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RulesArg {
    /// The arena's rules.
    Competition,
    /// DouZero's reading of kickers and wings.
    Douzero,
    /// OpenSpiel's (no four-with-two).
    Openspiel,
}

impl RulesArg {
    fn wire(self) -> v1::DdzRules {
        match self {
            RulesArg::Competition => v1::DdzRules::Competition,
            RulesArg::Douzero => v1::DdzRules::Douzero,
            RulesArg::Openspiel => v1::DdzRules::Openspiel,
        }
    }
}

/// How an overrun is counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RoundingArg {
    /// Every started 100 ms.
    Started,
    /// The nearest 100 ms, half up.
    Nearest,
}

/// What a verdict does to its seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VerdictPolicyArg {
    /// The seat's side loses at once.
    Forfeit,
    /// The seat plays on automatically.
    PlayOn,
}

impl CompetitionCreateArgs {
    /// The time control to send: `None` when no clock flag is given (the matchmaker's and
    /// referee's defaults apply), else every field, unset ones at the game's defaults.
    fn time(&self) -> Option<v1::TimeControl> {
        let given = self.decision_ms.is_some()
            || self.claim_ms.is_some()
            || self.hard_cap_ms.is_some()
            || self.penalty_per_100ms.is_some()
            || self.penalty_rounding.is_some()
            || self.verdict_penalty.is_some();
        given.then(|| {
            // Dou Dizhu's defaults are the referee's (0 = default); Mahjong's the contest's.
            let defaults = match self.game {
                GameArg::Mahjong => arena_matchmaker::mahjong::contest_time(),
                GameArg::DouDizhu => v1::TimeControl::default(),
            };
            v1::TimeControl {
                decision_ms: self.decision_ms.unwrap_or(defaults.decision_ms),
                claim_ms: self.claim_ms.unwrap_or(defaults.claim_ms),
                hard_cap_ms: self.hard_cap_ms.unwrap_or(defaults.hard_cap_ms),
                penalty_per_100ms: self.penalty_per_100ms.unwrap_or(defaults.penalty_per_100ms),
                verdict_penalty: self.verdict_penalty.unwrap_or(defaults.verdict_penalty),
                penalty_rounding: match self.penalty_rounding {
                    Some(RoundingArg::Started) => v1::PenaltyRounding::Started as i32,
                    Some(RoundingArg::Nearest) => v1::PenaltyRounding::Nearest as i32,
                    None => defaults.penalty_rounding,
                },
            }
        })
    }

    /// The spec to send: Dou Dizhu fields get their defaults for a Dou Dizhu competition and are
    /// sent as given (so the matchmaker can refuse them) for a Mahjong one.
    fn spec(&self) -> Result<v1::CompetitionSpec> {
        let participants = crate::compete_cmd::split_tables(&self.participants);
        let verdict_policy = match self.verdict_policy {
            Some(VerdictPolicyArg::Forfeit) => v1::VerdictPolicy::Forfeit,
            Some(VerdictPolicyArg::PlayOn) => v1::VerdictPolicy::PlayOn,
            None => v1::VerdictPolicy::Unspecified,
        } as i32;
        let fans = self
            .fans
            .map_or(0, |r| arena_games::mahjong::spec::fans_kind(r) as i32);
        let rules = self.rules.map_or(0, |r| r.wire() as i32);
        let scoring = |s: ddz::Scoring| arena_games::ddz::names::scoring_kind(s) as i32;
        Ok(match self.game {
            GameArg::Mahjong => v1::CompetitionSpec {
                name: self.name.clone(),
                game: v1::Game::Mahjong as i32,
                format: self.format.clone().unwrap_or_default(),
                centre: self.centre.clone().unwrap_or_default(),
                eps: self.eps.unwrap_or_default(),
                participants,
                farmers: self.farmers.clone().unwrap_or_default(),
                matches: self.matches.unwrap_or(1),
                rounds: self.rounds.unwrap_or(0),
                panel: (self.panel.is_some()
                    || self.panel_farmers.is_some()
                    || self.scoring.is_some())
                .then(|| v1::PanelSpec {
                    landlords: self.panel.clone().unwrap_or_default(),
                    farmers: self.panel_farmers.clone().unwrap_or_default(),
                    scoring_kind: self.scoring.map_or(0, scoring),
                    ..Default::default()
                }),
                bombs: self.bombs.unwrap_or(0),
                rules,
                seed: self.seed.unwrap_or(0),
                rotate_seats: self.rotate_seats,
                fans,
                time: self.time(),
                verdict_policy,
                lane: self.lane.clone(),
                ..Default::default()
            },
            GameArg::DouDizhu => {
                let farmers = self.farmers.clone().unwrap_or_else(|| "expert".into());
                let format = self
                    .format
                    .clone()
                    .unwrap_or_else(|| "equal-strength".into());
                let panel_scoring = self.scoring.unwrap_or(ddz::Scoring::Difficulty);
                let bombs = self.bombs.unwrap_or(1).max(1);
                let default = arena_deals::wanted::default_centre(panel_scoring, bombs);
                let centre = match (&self.centre, default) {
                    (Some(c), _) => c.clone(),
                    (None, Some(c)) => c,
                    (None, None) if format == "equal-strength" => bail!(
                        "an equal-strength competition of deals with {bombs} bomb(s) under \
                         {panel_scoring} scoring needs --centre with {} GDI values",
                        arena_deals::levels::gdi_dimension(panel_scoring, bombs)
                    ),
                    (None, None) => Vec::new(),
                };
                v1::CompetitionSpec {
                    name: self.name.clone(),
                    game: v1::Game::DouDizhu as i32,
                    format,
                    centre,
                    eps: self.eps.unwrap_or(arena_deals::wanted::DEFAULT_EPS),
                    participants,
                    farmers: farmers.clone(),
                    matches: self.matches.unwrap_or(10),
                    rounds: self.rounds.unwrap_or(10),
                    panel: Some(v1::PanelSpec {
                        landlords: self.panel.clone().unwrap_or_else(|| "ladder:70".into()),
                        farmers: self.panel_farmers.clone().unwrap_or(farmers),
                        scoring_kind: self.scoring.map_or(0, scoring),
                        ..Default::default()
                    }),
                    bombs: self.bombs.unwrap_or(0),
                    rules,
                    seed: self.seed.unwrap_or(0),
                    rotate_seats: self.rotate_seats,
                    // The matchmaker names the field if a Dou Dizhu spec carries one.
                    fans,
                    time: self.time(),
                    verdict_policy,
                    lane: self.lane.clone(),
                    ..Default::default()
                }
            }
        })
    }
}

#[derive(Args)]
pub struct CompetitionNameArgs {
    /// The competition.
    name: String,
    #[command(flatten)]
    addr: MatchmakerAddr,
}

/// `arena standalone`: every role in one process on the embedded store.
#[derive(Args)]
pub struct StandaloneArgs {
    /// Data directory of the embedded store.
    #[arg(long, env = "ARENA_DATA_DIR", default_value = arena::standalone::DEFAULT_DATA_DIR)]
    data_dir: std::path::PathBuf,
    /// table-referee listen address (the variable the table-referee role reads, too). Clients
    /// find every address in the data directory's endpoints.json.
    #[arg(long, env = "ARENA_REFEREE_LISTEN", default_value_t = arena::standalone::DEFAULT_REFEREE_LISTEN)]
    referee_listen: SocketAddr,
    /// bot-host listen address: where bots connect.
    #[arg(long, env = "ARENA_BOT_HOST_LISTEN", default_value_t = arena::standalone::DEFAULT_BOT_HOST_LISTEN)]
    bot_host_listen: SocketAddr,
    /// deal-library listen address.
    #[arg(long, env = "ARENA_DEAL_LIBRARY_LISTEN", default_value_t = arena::standalone::DEFAULT_DEAL_LIBRARY_LISTEN)]
    deal_library_listen: SocketAddr,
    /// matchmaker listen address.
    #[arg(long, env = "ARENA_MATCHMAKER_LISTEN", default_value_t = arena::standalone::DEFAULT_MATCHMAKER_LISTEN)]
    matchmaker_listen: SocketAddr,
    #[command(flatten)]
    console: ConsoleArgs,
    #[command(flatten)]
    ladder: LadderArgs,
    #[command(flatten)]
    spectator: SpectatorArgs,
    #[command(flatten)]
    bot_tls: BotTlsArgs,
    #[command(flatten)]
    retention: RetentionArgs,
    #[command(flatten)]
    serve: ServeArgs,
    #[command(flatten)]
    metrics: MetricsArgs,
    /// Most tables the referee plays at once (tables of slow bots mostly wait: thousands fit;
    /// see docs/scaling.md).
    #[arg(long, env = "ARENA_MAX_TABLES", default_value_t = RefereeConfig::default().max_tables)]
    max_tables: usize,
    #[command(flatten)]
    background: BackgroundArgs,
}

/// Operator token commands.
#[derive(Subcommand)]
pub enum OperatorsCommand {
    /// Issue an operator token for NAME, printed once (only its hash is stored).
    Add(OperatorNameArgs),
    /// List operators and their token ids (never the tokens).
    List(OperatorsListArgs),
    /// Revoke every token of NAME.
    Remove(OperatorNameArgs),
}

#[derive(Args)]
pub struct OperatorNameArgs {
    /// The operator's name.
    name: String,
    #[command(flatten)]
    registry: crate::bots_cmd::RegistryArgs,
}

#[derive(Args)]
pub struct OperatorsListArgs {
    #[command(flatten)]
    registry: crate::bots_cmd::RegistryArgs,
}

/// Table commands.
#[derive(Subcommand)]
pub enum TableCommand {
    /// Play one table (a Dou Dizhu game, or with `--game mahjong` a Mahjong hand) by hand and
    /// print its replay.
    Run(TableRunArgs),
    /// Submit a table to a running referee (standalone or table-referee) and wait for its result.
    Submit(TableSubmitArgs),
}

#[derive(Args)]
pub struct TableSubmitArgs {
    #[command(flatten)]
    table: TableRunArgs,
    /// The referee's gRPC address [default: the one the `arena standalone` of --data-dir wrote
    /// to its endpoints.json, else http://127.0.0.1:50051].
    #[arg(long, env = "ARENA_REFEREE")]
    referee: Option<String>,
    /// How long to wait for the result (seconds).
    #[arg(long, default_value_t = 120)]
    wait_secs: u64,
    #[command(flatten)]
    auth: ClientAuth,
}

#[derive(Args)]
pub struct TableRunArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "dou-dizhu")]
    game: GameArg,
    /// The seats' bots in seat order, comma-separated: three for Dou Dizhu (default
    /// expert,seed,random), four for Mahjong (default expert,greedy,greedy,random). Built-in
    /// names run in-process; others via bot-host.
    #[arg(long)]
    seats: Option<String>,
    /// Dou Dizhu: the deal (`hand0/hand1/hand2/bottom`); default: deal 0 of --seed.
    #[arg(long)]
    deal: Option<String>,
    /// Seed of the deal stream (Mahjong: of the wall and the first seat) and of the bots.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Dou Dizhu: bid first from this seat instead of a fixed landlord in seat 0.
    #[arg(long)]
    bidding: Option<u32>,
    /// Dou Dizhu: the scoring mode (competition, difficulty, adp or wp; default competition).
    #[arg(long)]
    scoring: Option<String>,
    /// Per-decision limit (milliseconds): Dou Dizhu's every decision, Mahjong's turns (an
    /// answer to a discard has the contest's 500 ms). No answer within five times it is a
    /// timeout verdict.
    #[arg(long, default_value_t = 1000)]
    decision_ms: u32,
    /// bot-host address for non-built-in seats.
    #[arg(long = "bot-host", value_delimiter = ',')]
    bot_hosts: Vec<String>,
}

fn default_id(role: &str) -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "local".into());
    format!("{role}-{host}-{}", std::process::id())
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    arena_serve::runtime::serving().context("starting the runtime")
}

/// How long a role's runtime waits for blocking work (a built-in table's current decision) once
/// the role has stopped: SIGTERM always ends the process within its grace plus this.
const RUNTIME_SHUTDOWN: Duration = Duration::from_secs(2);

/// Runs a role to its end on a runtime of its own, then stops the runtime without waiting for
/// blocking work past [`RUNTIME_SHUTDOWN`].
fn serve_role(role: impl std::future::Future<Output = Result<()>>) -> Result<()> {
    // Every connection is a file: room for the gRPC ports whatever the HTTP ones hold.
    let open_files = arena_serve::http::raise_open_files_limit();
    let rt = runtime()?;
    let result = rt.block_on(async {
        // Logged once telemetry is up (the role's first step).
        match open_files {
            Ok((soft, hard)) => tracing::debug!(soft, hard, "open files limit"),
            Err(e) => tracing::warn!(error = %e, "cannot raise the open files limit"),
        }
        role.await
    });
    rt.shutdown_timeout(RUNTIME_SHUTDOWN);
    result
}

use arena_serve::shutdown_signal;

fn referee_config(a: &RefereeArgs) -> RefereeConfig {
    RefereeConfig {
        referee_id: a.id.clone().unwrap_or_else(|| default_id("referee")),
        listen: a.listen,
        bot_hosts: a.bot_hosts.clone(),
        lane: a.lane.clone(),
        max_tables: a.max_tables,
        background_from: a.background.from(),
        background_cpus: a.background.cpus(),
        reclaim_after: Duration::from_millis(a.reclaim_after_ms),
        touch_interval: Duration::from_millis((a.reclaim_after_ms / 4).max(1)),
        shutdown_grace: Duration::from_millis(a.shutdown_grace_ms),
        serve: a.serve.config(),
        ..RefereeConfig::default()
    }
}

fn bot_host_config(a: &BotHostArgs) -> BotHostConfig {
    BotHostConfig {
        listen: a.listen,
        advertise: a.advertise.clone(),
        grace: Duration::from_millis(a.grace_ms),
        keepalive: Duration::from_millis(a.keepalive_ms),
        processes: ProcessLimits {
            limits: Limits {
                cpu_seconds: a.program_cpu_seconds,
                memory_mb: a.program_memory_mb,
                processes: a.program_processes,
                open_files: a.program_open_files,
                file_size_mb: a.program_file_size_mb,
                wall_seconds: a.program_wall_seconds,
            },
            sandbox: Policy {
                isolation: a.sandbox,
                extra_read: a.sandbox_read.clone(),
                path: a.sandbox_path.clone(),
            },
            ..ProcessLimits::default()
        },
        bot_tls: a.tls.files(),
        serve: a.serve.config(),
        ..BotHostConfig::default()
    }
}

/// Runs `arena table-referee`.
pub fn referee(a: RefereeArgs) -> Result<()> {
    serve_role(async {
        let (_telemetry, metrics) = a.metrics.init("arena-table-referee").await?;
        let config = RefereeConfig {
            cluster_token: a.cluster.read()?,
            operator_token: a.operator.read()?,
            ..referee_config(&a)
        };
        config.validate()?;
        let store = a.store.open().await?;
        let mut lines = arena_serve::ConfigLines::default();
        lines
            .push("store", store.describe())
            .extend(config.lines())
            .push("metrics", MetricsEndpoint::describe(&metrics));
        print!("{}", lines.render("arena table-referee"));
        MetricsEndpoint::spawn(metrics);
        arena_referee::serve(config, store, shutdown_signal()).await?;
        Ok(())
    })
}

/// Runs `arena bot-host`.
pub fn bot_host(a: BotHostArgs) -> Result<()> {
    serve_role(async {
        let (_telemetry, metrics) = a.metrics.init("arena-bot-host").await?;
        let config = BotHostConfig {
            seat_listen: a.seat_listen,
            cluster_token: a.cluster.read()?,
            ..bot_host_config(&a)
        };
        let store = a.store.open().await?;
        if a.store.redis.is_none() {
            // The embedded store is on this host, next to the programs it runs.
            let data = &a.store.data_dir;
            arena::standalone::check_private(
                &config.sandbox(),
                &[
                    ("data directory", data, "700"),
                    ("store", &data.join(arena_store::embedded::FILE_NAME), "600"),
                ],
            )?;
        }
        let mut lines = arena_serve::ConfigLines::default();
        lines
            .push("store", store.describe())
            .extend(config.lines())
            .push("metrics", MetricsEndpoint::describe(&metrics));
        print!("{}", lines.render("arena bot-host"));
        MetricsEndpoint::spawn(metrics);
        for w in config.sandbox().warnings() {
            eprintln!("arena bot-host: WARNING: {w}");
        }
        arena_bot_host::serve(config, store, shutdown_signal()).await?;
        Ok(())
    })
}

/// Runs `arena deal-library`.
pub fn deal_library(a: DealLibraryArgs) -> Result<()> {
    serve_role(async {
        let (_telemetry, metrics) = a.metrics.init("arena-deal-library").await?;
        // Handlers before the port is bound: an early SIGTERM is a graceful stop.
        let stop = shutdown_signal();
        let store = a.store.open().await?;
        let threads = crate::deals_cmd::threads(a.threads);
        let serve = a.serve.config();
        let mut lines = arena_serve::ConfigLines::default();
        lines
            .push("listen", a.listen)
            .push("store", store.describe())
            .push("generation threads", threads)
            .extend(serve.lines())
            .push("metrics", MetricsEndpoint::describe(&metrics));
        print!("{}", lines.render("arena deal-library"));
        MetricsEndpoint::spawn(metrics);
        let listener = tokio::net::TcpListener::bind(a.listen)
            .await
            .with_context(|| format!("binding {}", a.listen))?;
        let auth = arena_auth::Authenticator::new(Some(store.clone()))
            .with_bootstrap(a.operator.read()?.as_ref());
        let config = arena_deal_library::DealLibraryConfig {
            threads,
            auth: Some(auth),
            serve,
        };
        arena_deal_library::serve_with_config(listener, store, config, stop).await?;
        Ok(())
    })
}

/// Runs `arena standalone`: every role in one process on the embedded store
/// ([`arena::standalone::start`]), until SIGTERM or Ctrl-C.
pub fn standalone(a: StandaloneArgs) -> Result<()> {
    serve_role(async {
        let (_telemetry, metrics) = a.metrics.init("arena-standalone").await?;
        let config = arena::standalone::StandaloneConfig {
            data_dir: a.data_dir.clone(),
            referee_listen: a.referee_listen,
            bot_host_listen: a.bot_host_listen,
            deal_library_listen: a.deal_library_listen,
            matchmaker_listen: a.matchmaker_listen,
            console_listen: a.console.console_listen.0,
            console: a.console.options(),
            ladder: a.ladder.config().ladder,
            mahjong_ladder: a.ladder.config().mahjong_ladder,
            public_spectator: a.spectator.public_spectator,
            bot_tls: a.bot_tls.files(),
            serve: a.serve.config(),
            deal_threads: crate::deals_cmd::threads(None),
            retention: a.retention.retention()?,
            max_tables: a.max_tables,
            background_from: a.background.from(),
            background_cpus: a.background.cpus(),
        };
        // Handlers first: a SIGTERM as soon as the ports answer is a graceful stop.
        let stop = shutdown_signal();
        let running = arena::standalone::start(config).await?;
        let mut lines = arena_serve::ConfigLines::default();
        lines.push("address", MetricsEndpoint::describe(&metrics));
        println!("{}{}", running.describe(), lines.render("metrics"));
        MetricsEndpoint::spawn(metrics);
        for w in running.warnings() {
            eprintln!("  bot-host      WARNING: {w}");
        }
        stop.await;
        running.stop().await?;
        Ok(())
    })
}

/// Runs `arena operators …`: on the store, or through a running matchmaker (with an operator
/// token: the bootstrap one of the data directory, or `ARENA_OPERATOR_TOKEN`).
pub fn operators(cmd: OperatorsCommand) -> Result<()> {
    use crate::bots_cmd::Registry;
    let rt = crate::store_args::runtime()?;
    rt.block_on(async {
        match cmd {
            OperatorsCommand::Add(a) => {
                let mut registry = Registry::open(&a.registry).await?;
                let issued = registry.add_operator(&a.name).await?;
                println!(
                    "operator {:?} (token id {}) in {}",
                    issued.name,
                    issued.id,
                    registry.describe()
                );
                println!("token (shown once; only its SHA-256 is stored):");
                println!("{}", issued.token);
            }
            OperatorsCommand::List(a) => {
                let mut registry = Registry::open(&a.registry).await?;
                let list = registry.list_operators().await?;
                if list.is_empty() {
                    println!("no operator tokens in {}", registry.describe());
                }
                for o in list {
                    println!("{:<20} {}", o.name, o.id);
                }
            }
            OperatorsCommand::Remove(a) => {
                let mut registry = Registry::open(&a.registry).await?;
                let n = registry.remove_operator(&a.name).await?;
                println!("revoked {n} token(s) of {:?}", a.name);
            }
        }
        Ok(())
    })
}

/// The job `arena table run` plays.
pub fn table_job(a: &TableRunArgs) -> Result<v1::TableJob> {
    if a.game == GameArg::Mahjong {
        return mahjong_table_job(a);
    }
    let seats: Vec<String> =
        crate::compete_cmd::split_tables(a.seats.as_deref().unwrap_or("expert,seed,random"));
    if seats.len() != 3 {
        bail!("--seats needs three bots, got {}", seats.len());
    }
    let deal = match &a.deal {
        Some(d) => d
            .parse::<ddz::Deal>()
            .with_context(|| format!("--deal {d:?}"))?,
        None => ddz::Deal::generate(a.seed, 0),
    };
    let landlord = match a.bidding {
        Some(first) => v1::ddz_setup::Landlord::FirstBidder(first),
        None => v1::ddz_setup::Landlord::FixedLandlord(0),
    };
    Ok(v1::TableJob {
        table_id: format!("manual-{}-{}", a.seed, std::process::id()),
        game: v1::Game::DouDizhu as i32,
        seats: seats.into_iter().map(|bot| v1::SeatSpec { bot }).collect(),
        setup: Some(v1::table_job::Setup::Ddz(v1::DdzSetup {
            deal: deal.to_string(),
            rules: "competition".into(),
            landlord: Some(landlord),
            fixed_bid: 1,
            doubling: a.bidding.is_some(),
            scoring: a.scoring.clone().unwrap_or_else(|| "competition".into()),
            ..Default::default()
        })),
        time: Some(v1::TimeControl {
            decision_ms: a.decision_ms,
            hard_cap_ms: 5 * a.decision_ms,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: a.seed,
        ..Default::default()
    })
}

/// The Mahjong hand `arena table run --game mahjong` plays: the wall and first seat of
/// `--seed`, the contest's fans, the contest's clock (penalty points for overruns) with
/// `--decision-ms` for turns, and faulty seats playing on.
fn mahjong_table_job(a: &TableRunArgs) -> Result<v1::TableJob> {
    for (flag, given) in [
        ("--deal", a.deal.is_some()),
        ("--bidding", a.bidding.is_some()),
        ("--scoring", a.scoring.is_some()),
    ] {
        if given {
            bail!("{flag} is for Dou Dizhu tables; a Mahjong hand is dealt from --seed");
        }
    }
    let seats: Vec<String> = crate::compete_cmd::split_tables(
        a.seats.as_deref().unwrap_or("expert,greedy,greedy,random"),
    );
    if seats.len() != 4 {
        bail!("--seats needs four bots for Mahjong, got {}", seats.len());
    }
    Ok(v1::TableJob {
        table_id: format!("manual-mahjong-{}-{}", a.seed, std::process::id()),
        game: v1::Game::Mahjong as i32,
        seats: seats.into_iter().map(|bot| v1::SeatSpec { bot }).collect(),
        setup: Some(v1::table_job::Setup::Mahjong(v1::MahjongSetup::default())),
        time: Some(v1::TimeControl {
            decision_ms: a.decision_ms,
            hard_cap_ms: 5 * a.decision_ms,
            ..arena_matchmaker::mahjong::contest_time()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: a.seed,
        ..Default::default()
    })
}

/// Runs `arena table …`.
pub fn table(cmd: TableCommand) -> Result<()> {
    match cmd {
        TableCommand::Run(a) => table_run(a),
        TableCommand::Submit(a) => table_submit(a),
    }
}

fn table_submit(a: TableSubmitArgs) -> Result<()> {
    use v1::table_referee_client::TableRefereeClient;
    let job = table_job(&a.table)?;
    let rt = runtime()?;
    rt.block_on(async {
        let mut client = TableRefereeClient::new(
            client::connect(
                &a.auth
                    .address(a.referee.as_deref(), client::Role::Referee)?,
                client::Role::Referee,
                &a.auth,
            )
            .await?,
        );
        let id = job.table_id.clone();
        client
            .submit_table(v1::SubmitTableRequest {
                job: Some(job.clone()),
            })
            .await?;
        println!("submitted table {id}");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(a.wait_secs);
        loop {
            let req = v1::GetTableRequest {
                table_id: id.clone(),
            };
            match client.get_result(req.clone()).await {
                Ok(result) => {
                    let replay = client.get_replay(req).await?.into_inner();
                    print_replay(&job, &replay, &result.into_inner());
                    return Ok(());
                }
                Err(s)
                    if s.code() == tonic::Code::NotFound
                        && tokio::time::Instant::now() < deadline =>
                {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(s) => bail!("table {id}: {} ({:?})", s.message(), s.code()),
            }
        }
    })
}

fn table_run(a: TableRunArgs) -> Result<()> {
    let job = table_job(&a)?;
    let rt = runtime()?;
    let config = RefereeConfig {
        bot_hosts: a.bot_hosts.clone(),
        ..RefereeConfig::default()
    };
    let (result, replay) = rt
        .block_on(arena_referee::run_table(&job, &config, None))
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    print_replay(&job, &replay, &result);
    Ok(())
}

fn print_replay(job: &v1::TableJob, replay: &v1::Replay, result: &v1::TableResult) {
    if job.game() == v1::Game::Mahjong {
        // The hand in the 2015 log format, then verdicts and scores.
        let replay = v1::Replay {
            result: Some(result.clone()),
            ..replay.clone()
        };
        return crate::mahjong_comp::print_replay(&replay, None, false);
    }
    println!(
        "table {}: {}",
        job.table_id,
        job.seats
            .iter()
            .map(|s| s.bot.as_str())
            .collect::<Vec<_>>()
            .join(" / ")
    );
    if let Some(v1::table_job::Setup::Ddz(s)) = &job.setup {
        println!("deal {}", s.deal);
    }
    for e in &replay.ddz_events {
        use v1::ddz_event::Event as E;
        let what = match &e.event {
            Some(E::Bid(b)) => format!("bids {b}"),
            Some(E::Redeal(_)) => "redeal".to_string(),
            Some(E::Landlord(l)) => format!("is landlord at {} and takes {}", l.bid, l.bottom),
            Some(E::Double(d)) => {
                if *d {
                    "doubles".into()
                } else {
                    "does not double".into()
                }
            }
            Some(E::Play(p)) => format!("plays {p}"),
            None => continue,
        };
        println!("  seat {} {what}", e.seat);
    }
    for v in &result.verdicts {
        println!("  verdict: seat {} {:?}: {}", v.seat, v.kind(), v.reason);
        if !v.detail.is_empty() {
            // The whole report the reason is cut from: a crash's exit status, limits, stderr.
            println!("    in full: {}", v.detail);
        }
    }
    if let Some(o) = &result.outcome {
        println!(
            "scores ({}): {:?}; penalties {:?}; final {:?}",
            o.scoring, o.scores, result.penalties, result.final_scores
        );
    }
    if !result.error.is_empty() {
        println!("error: {}", result.error);
    }
}

/// Runs `arena matchmaker`.
pub fn matchmaker(a: MatchmakerArgs) -> Result<()> {
    serve_role(async {
        let (_telemetry, metrics) = a.metrics.init("arena-matchmaker").await?;
        // Handlers before the port is bound: an early SIGTERM is a graceful stop.
        let stop = shutdown_signal();
        let store = a.store.open().await?;
        let auth = arena_auth::Authenticator::new(Some(store.clone()))
            .with_bootstrap(a.operator.read()?.as_ref())
            .public_spectator(a.spectator.public_spectator);
        let config = arena_matchmaker::MatchmakerConfig {
            auth: Some(auth.clone()),
            max_tables_per_competition: a.max_tables_per_competition,
            serve: a.serve.config(),
            retention: a.retention.retention()?,
            ..a.ladder.config()
        };
        let mut lines = arena_serve::ConfigLines::default();
        lines
            .push("listen", a.listen)
            .push("store", store.describe())
            .extend(config.lines())
            .push("metrics", MetricsEndpoint::describe(&metrics));
        print!("{}", lines.render("arena matchmaker"));
        MetricsEndpoint::spawn(metrics);
        let listener = tokio::net::TcpListener::bind(a.listen)
            .await
            .with_context(|| format!("binding {}", a.listen))?;
        // The console calls the matchmaker code the gRPC server runs, under the same policy
        // (and failed-attempt limiter).
        let stopping = arena_serve::Shutdown::new();
        let console = match a.console.console_listen.0 {
            Some(addr) => {
                let l = tokio::net::TcpListener::bind(addr)
                    .await
                    .with_context(|| format!("binding the console's {addr}"))?;
                println!("  console http://{}/", l.local_addr().unwrap_or(addr));
                let backend = arena_matchmaker::MatchmakerService::new(store.clone())
                    .with_max_tables(a.max_tables_per_competition);
                let mut console =
                    arena_console::Console::new(std::sync::Arc::new(backend), store.clone(), auth)
                        .with_options(a.console.options());
                if let Some(url) = &a.deal_library {
                    console = console
                        .with_deal_library(url)
                        .map_err(|e| anyhow::anyhow!("--deal-library: {e}"))?;
                    println!("  console finds missing deals at the deal library {url}");
                }
                Some(tokio::spawn(console.serve(l, stopping.wait())))
            }
            None => None,
        };
        let served = arena_matchmaker::serve_with_config(listener, store, config, stop).await;
        stopping.trigger();
        if let Some(c) = console {
            c.await.context("the console's task")??;
        }
        served?;
        Ok(())
    })
}

/// Runs `arena competition …`.
pub fn competition(cmd: CompetitionCommand) -> Result<()> {
    use tokio_stream::StreamExt;
    let rt = runtime()?;
    rt.block_on(async {
        match cmd {
            CompetitionCommand::Create(a) => {
                let mut client = connect(&a.addr).await?;
                let spec = a.spec()?;
                let request = || v1::CreateCompetitionRequest {
                    spec: Some(spec.clone()),
                };
                let comp = match client.create_competition(request()).await {
                    Ok(c) => c.into_inner(),
                    // A measured format short of deals: the deal library finds the missing ones
                    // (as `arena compete` does on its own store), then the matchmaker plans.
                    Err(s)
                        if !a.no_find
                            && s.code() == tonic::Code::FailedPrecondition
                            && s.message().contains(arena_matchmaker::NOT_ENOUGH_DEALS) =>
                    {
                        let library = a
                            .addr
                            .auth
                            .address(a.library.library.as_deref(), client::Role::DealLibrary)?;
                        crate::library_client::prepare(&library, &a.addr.auth, &spec)
                            .await
                            .with_context(|| {
                                format!(
                                    "{} lacks measured deals; asking the deal library at {library} \
                                     for them (--library URL names another, --no-find fails \
                                     instead)",
                                    a.name
                                )
                            })?;
                        client
                            .create_competition(request())
                            .await
                            .map_err(status)?
                            .into_inner()
                    }
                    Err(s) => return Err(status(s)),
                };
                // Registered before the competition is announced: a Ctrl-C from then on is
                // answered below, never by the default that ends the process without a word.
                let mut interrupts =
                    tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
                        .context("listening for Ctrl-C")?;
                eprintln!(
                    "competition {} created: {} tables",
                    a.name, comp.tables_total
                );
                for w in &comp.warnings {
                    eprintln!("WARNING: {w}");
                }
                let mut stream = client
                    .watch_competition(v1::CompetitionRequest {
                        name: a.name.clone(),
                    })
                    .await?
                    .into_inner();
                let mut last = None;
                loop {
                    let s = tokio::select! {
                        s = stream.next() => s,
                        _ = interrupts.recv() => {
                            eprintln!();
                            return Err(crate::report::Interrupted(format!(
                                "stopped following {name}; the competition goes on at the \
                                 matchmaker: `arena competition list` shows its progress, \
                                 `arena competition standings {name}` its standings, `arena \
                                 competition cancel {name}` stops it",
                                name = a.name
                            ))
                            .into());
                        }
                    };
                    let Some(s) = s else { break };
                    let s = s.map_err(status)?;
                    eprint!("\r{}/{} tables", s.tables_done, s.tables_total);
                    let done = s.r#final;
                    last = Some(s);
                    if done {
                        break;
                    }
                }
                eprintln!();
                if let Some(s) = last {
                    print_standings(&s);
                }
            }
            CompetitionCommand::Standings(a) => {
                let mut client = connect(&a.addr).await?;
                let s = client
                    .get_standings(v1::CompetitionRequest {
                        name: a.name.clone(),
                    })
                    .await
                    .map_err(status)?
                    .into_inner();
                print_standings(&s);
            }
            CompetitionCommand::List(a) => {
                let list = connect(&a)
                    .await?
                    .list_competitions(v1::ListCompetitionsRequest {})
                    .await
                    .map_err(status)?
                    .into_inner();
                if list.competitions.is_empty() {
                    println!("no competitions");
                }
                for c in &list.competitions {
                    let spec = c.spec.clone().unwrap_or_default();
                    println!(
                        "{}  {}  {}  {}/{} tables  {} participants",
                        spec.name,
                        spec.format,
                        c.state,
                        c.tables_done,
                        c.tables_total,
                        spec.participants.len()
                    );
                }
            }
            CompetitionCommand::Cancel(a) => {
                let c = connect(&a.addr)
                    .await?
                    .cancel_competition(v1::CompetitionRequest {
                        name: a.name.clone(),
                    })
                    .await
                    .map_err(status)?
                    .into_inner();
                println!(
                    "{} {}: {}/{} tables played",
                    a.name, c.state, c.tables_done, c.tables_total
                );
            }
            CompetitionCommand::Replays(a) => {
                use prost::Message;
                use std::io::Write;
                let mut client = connect(&a.addr).await?;
                let mut stream = client
                    .export_replays(v1::CompetitionRequest {
                        name: a.name.clone(),
                    })
                    .await
                    .map_err(status)?
                    .into_inner();
                let mut out = match &a.out {
                    Some(path) => Some(std::io::BufWriter::new(
                        std::fs::File::create(path)
                            .with_context(|| format!("creating {}", path.display()))?,
                    )),
                    None => None,
                };
                let mut kept = Vec::new();
                let mut n = 0u64;
                while let Some(replay) = stream.next().await {
                    let replay = replay.map_err(status)?;
                    if let (Some(out), Some(path)) = (out.as_mut(), &a.out) {
                        out.write_all(&replay.encode_length_delimited_to_vec())
                            .with_context(|| format!("writing {}", path.display()))?;
                    }
                    if a.log_dir.is_some() {
                        kept.push(replay);
                    }
                    n += 1;
                }
                if let (Some(mut out), Some(path)) = (out, &a.out) {
                    out.flush()
                        .with_context(|| format!("writing {}", path.display()))?;
                    println!("{n} replays of {} written to {}", a.name, path.display());
                }
                if let Some(dir) = &a.log_dir {
                    let comp = client
                        .get_competition(v1::CompetitionRequest {
                            name: a.name.clone(),
                        })
                        .await
                        .map_err(status)?
                        .into_inner();
                    let spec = comp.spec.unwrap_or_default();
                    if spec.game() != v1::Game::Mahjong {
                        bail!("--log-dir: {} is not a Mahjong competition", a.name);
                    }
                    let hands = crate::mahjong_comp::write_logs(dir, &spec, &kept)?;
                    println!(
                        "{hands} hand logs of {} written under {}{}",
                        a.name,
                        dir.display(),
                        if spec.seed == 0 {
                            " (seeds are shown once the competition has finished)"
                        } else {
                            ""
                        }
                    );
                }
            }
            CompetitionCommand::Replay(a) => {
                let mut client = connect(&a.addr).await?;
                let replay = client
                    .get_replay(v1::GetTableRequest {
                        table_id: a.table_id.clone(),
                    })
                    .await
                    .map_err(status)?
                    .into_inner();
                let job = replay.job.clone().unwrap_or_default();
                if a.json {
                    println!("{}", arena_proto::json::replay(&replay));
                } else if job.game() == v1::Game::Mahjong {
                    // A competition's table is logged with its participants and seeds.
                    let spec = if job.competition.is_empty() {
                        None
                    } else {
                        client
                            .get_competition(v1::CompetitionRequest {
                                name: job.competition.clone(),
                            })
                            .await
                            .ok()
                            .and_then(|c| c.into_inner().spec)
                    };
                    crate::mahjong_comp::print_replay(&replay, spec.as_ref(), a.log);
                } else {
                    let result = replay.result.clone().unwrap_or_default();
                    print_replay(&job, &replay, &result);
                }
            }
        }
        Ok(())
    })
}

/// A matchmaker client sending the operator token of `addr`.
async fn connect(
    addr: &MatchmakerAddr,
) -> Result<v1::matchmaker_client::MatchmakerClient<client::Authed>> {
    Ok(v1::matchmaker_client::MatchmakerClient::new(
        client::connect(
            &addr
                .auth
                .address(addr.matchmaker.as_deref(), client::Role::Matchmaker)?,
            client::Role::Matchmaker,
            &addr.auth,
        )
        .await?,
    ))
}

use client::status;

/// Runs `arena leaderboard`.
pub fn leaderboard(a: LeaderboardArgs) -> Result<()> {
    let rt = runtime()?;
    rt.block_on(async {
        let mut client = connect(&a.addr).await?;
        // Page by page (the matchmaker serves a bounded page at a time) up to the limit.
        let want = if a.limit == 0 {
            usize::MAX
        } else {
            a.limit as usize
        };
        let mut board = v1::Leaderboard::default();
        loop {
            let page = client
                .get_leaderboard(v1::LeaderboardRequest {
                    limit: (want - board.ratings.len()).min(arena_matchmaker::ladder::MAX_PAGE)
                        as u32,
                    game: a.game.wire() as i32,
                    page_token: std::mem::take(&mut board.next_page_token),
                })
                .await
                .map_err(status)?
                .into_inner();
            board.ratings.extend(page.ratings);
            board.next_page_token = page.next_page_token;
            if board.next_page_token.is_empty() || board.ratings.len() >= want {
                break;
            }
        }
        // What a rating counts, named as the ladder plays it: duplicate pairs of Dou Dizhu
        // tables, duplicate sets of four Mahjong tables (`Rating.games` on the wire).
        let unit = if a.game == GameArg::Mahjong {
            "sets"
        } else {
            "pairs"
        };
        if a.json {
            for r in &board.ratings {
                let mut row = serde_json::json!({
                    "bot": r.bot, "release": r.release, "mu": r.mu, "sigma": r.sigma,
                    "conservative": r.conservative,
                });
                row[unit] = r.games.into();
                println!("{row}");
            }
            return Ok(());
        }
        if board.ratings.is_empty() {
            println!(
                "no rated bots yet (is the matchmaker running with {}?)",
                if a.game == GameArg::Mahjong {
                    "--mahjong-ladder"
                } else {
                    "--ladder"
                }
            );
            return Ok(());
        }
        let w = board
            .ratings
            .iter()
            .map(|r| r.bot.len() + r.release.len() + 1)
            .max()
            .unwrap_or(0)
            .max("bot@release".len());
        println!(
            "  {:>4}  {:<w$}  {:>7}  {:>6}  {:>12}  {:>6}",
            "#", "bot@release", "mu", "sigma", "mu - 3 sigma", unit
        );
        for (i, r) in board.ratings.iter().enumerate() {
            println!(
                "  {:>4}  {:<w$}  {:>7.2}  {:>6.2}  {:>12.2}  {:>6}",
                i + 1,
                format!("{}@{}", r.bot, r.release),
                r.mu,
                r.sigma,
                r.conservative,
                r.games
            );
        }
        Ok(())
    })
}

/// How many finished tables the standings leave out (their deal is still being played
/// elsewhere), as a note after the table count; empty when none are.
pub(crate) fn withheld_note(s: &v1::Standings) -> String {
    match s.tables_withheld {
        0 => String::new(),
        n => format!(" ({n} not counted yet: their deal is still being played at another table)"),
    }
}

fn print_standings(s: &v1::Standings) {
    if s.game() == v1::Game::Mahjong {
        return crate::mahjong_comp::print_standings(s);
    }
    println!(
        "{}: {}/{} tables{}{}",
        s.competition,
        s.tables_done,
        s.tables_total,
        withheld_note(s),
        if s.r#final { ", final" } else { "" }
    );
    let w = s
        .standings
        .iter()
        .map(|x| x.participant.len())
        .max()
        .unwrap_or(0)
        .max("participant".len());
    let mut head = format!("  {:>5}  {:<w$}", "place", "participant", w = w);
    for k in 1..=s.standings.len() {
        head += &format!(" {:>6}", format!("P(#{k})"));
    }
    println!("{head}   {:<17} verdicts", "mean score");
    for x in &s.standings {
        let mut line = format!("  {:>5}  {:<w$}", x.place, x.participant, w = w);
        for p in &x.rank_probabilities {
            line += &format!(" {:>6.2}", p);
        }
        // A participant with fewer than two scores has no interval (an infinite half-width).
        let mean = if x.score_ci95.is_finite() {
            format!("{:+.3} ± {:.3}", x.mean_score, x.score_ci95)
        } else {
            format!("{:+.3}", x.mean_score)
        };
        println!("{line}   {mean:<17} {:>8}", x.verdicts);
    }
}
