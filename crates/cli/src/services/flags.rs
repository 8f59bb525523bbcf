//! The flag groups the roles share (tokens, TLS, spectators, the console, background tables,
//! serving limits, retention, the ladder) and the game a command is for.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args;

/// The bootstrap operator token a role accepts besides the tokens in its store.
#[derive(Args)]
pub struct OperatorTokenArgs {
    /// A file holding the bootstrap operator token (e.g. a mounted Kubernetes Secret); operators
    /// may also use tokens issued by `arena operators add NAME`.
    #[arg(long, env = "ARENA_OPERATOR_TOKEN_FILE")]
    pub(super) operator_token_file: Option<std::path::PathBuf>,
}

impl OperatorTokenArgs {
    pub(super) fn read(&self) -> Result<Option<arena_auth::Secret>> {
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
    pub(super) cluster_token_file: Option<std::path::PathBuf>,
}

impl ClusterTokenArgs {
    pub(super) fn read(&self) -> Result<Option<arena_auth::Secret>> {
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
    pub(super) tls_cert_file: Option<std::path::PathBuf>,
    /// PEM private key of the bot port's certificate (e.g. tls.key).
    #[arg(long, env = "ARENA_BOT_HOST_TLS_KEY_FILE", requires = "tls_cert_file")]
    pub(super) tls_key_file: Option<std::path::PathBuf>,
    /// PEM CA certificate(s): every bot must present a client certificate issued by it (mutual
    /// TLS, on top of its token).
    #[arg(
        long,
        env = "ARENA_BOT_HOST_TLS_CLIENT_CA_FILE",
        requires = "tls_cert_file"
    )]
    pub(super) tls_client_ca_file: Option<std::path::PathBuf>,
}

impl BotTlsArgs {
    pub(super) fn files(&self) -> Option<arena_tls::ServerTlsFiles> {
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
    pub(super) public_spectator: bool,
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
    pub(super) background_from_ms: Option<u64>,
    /// The CPUs background tables' threads keep to, as taskset writes them (e.g. 1, 2-3): on
    /// cores of their own they do not slow the other tables at all (unset: any CPU).
    #[arg(long, env = "ARENA_BACKGROUND_CPUS", requires = "background_from_ms")]
    pub(super) background_cpus: Option<arena_referee::CpuList>,
}

impl BackgroundArgs {
    /// [`RefereeConfig::background_from`].
    pub(super) fn from(&self) -> Option<Duration> {
        self.background_from_ms.map(Duration::from_millis)
    }

    /// [`RefereeConfig::background_cpus`].
    pub(super) fn cpus(&self) -> Vec<usize> {
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
    pub(super) console_listen: ListenOrOff,
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
    pub(super) console_allowed_hosts: Vec<String>,
    /// Most connections the console holds open at once; beyond it the one idle longest is
    /// closed (logged).
    #[arg(
        long,
        env = "ARENA_CONSOLE_MAX_CONNECTIONS",
        default_value_t = arena_serve::http::DEFAULT_MAX_CONNECTIONS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub(super) console_max_connections: usize,
    /// Requests without an operator token (with --public-spectator) a client address may make
    /// a minute; beyond it 429 (0: no limit).
    #[arg(
        long,
        env = "ARENA_CONSOLE_PUBLIC_RATE",
        default_value_t = arena_console::public::DEFAULT_PUBLIC_PER_MINUTE
    )]
    pub(super) console_public_rate: u32,
}

/// A host name as `--console-allowed-hosts` takes it: letters, digits, dots and dashes (no
/// scheme, port or path: the console compares it with the `Host` header's name).
pub(super) fn host_name(s: &str) -> Result<String, String> {
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
    pub(super) fn options(&self) -> arena_console::ConsoleOptions {
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
    pub(super) request_timeout_ms: u64,
    /// Most calls handled at once; calls beyond it are shed with UNAVAILABLE (0 = no limit).
    #[arg(
        long,
        env = "ARENA_MAX_CONCURRENT_REQUESTS",
        default_value_t = arena_serve::DEFAULT_MAX_CONCURRENT_REQUESTS
    )]
    pub(super) max_concurrent_requests: usize,
    /// Ask connections older than this to reconnect, so L4 load balancers rebalance them
    /// (milliseconds; 0 = never).
    #[arg(long, env = "ARENA_MAX_CONNECTION_AGE_MS", default_value_t = 0)]
    pub(super) max_connection_age_ms: u64,
    /// How long a connection asked to reconnect keeps its calls in flight (milliseconds).
    #[arg(
        long,
        env = "ARENA_MAX_CONNECTION_AGE_GRACE_MS",
        default_value_t = arena_serve::DEFAULT_MAX_CONNECTION_AGE_GRACE.as_millis() as u64
    )]
    pub(super) max_connection_age_grace_ms: u64,
}

impl ServeArgs {
    pub(super) fn config(&self) -> arena_serve::ServeConfig {
        arena_serve::ServeConfig::from_millis(
            self.request_timeout_ms,
            self.max_concurrent_requests,
            self.max_connection_age_ms,
            self.max_connection_age_grace_ms,
        )
    }
}

/// How long results and replays are kept.
#[derive(Args)]
pub struct RetentionArgs {
    /// Days an ended competition keeps its tables' results and replays (0 = for ever; its record
    /// and standings stay either way; fractions allowed).
    #[arg(long, env = "ARENA_COMPETITION_RETENTION_DAYS", default_value_t = 0.0)]
    pub(super) competition_retention_days: f64,
    /// Days a ladder table's result and replay are kept after it finished (0 = for ever; the
    /// ratings stay either way; fractions allowed).
    #[arg(
        long,
        env = "ARENA_LADDER_RETENTION_DAYS",
        default_value_t = arena_matchmaker::retention::DEFAULT_LADDER_DAYS
    )]
    pub(super) ladder_retention_days: f64,
}

impl RetentionArgs {
    pub(super) fn retention(&self) -> Result<arena_matchmaker::retention::Retention> {
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

/// The continuous ranked ladders' settings: for each registered game with a ladder, a flag that
/// runs it and the bots always available to it (the default game's `--ladder` and
/// `--ladder-anchors`, another game's `--<name>-ladder` and `--<name>-ladder-anchors`, each
/// with its `ARENA_…` variable), and the settings the ladders share.
pub struct LadderArgs {
    /// The games whose ladder runs, each with its anchors as given.
    pub(super) games: Vec<(arena_games::GameKind, Vec<String>)>,
    shared: LadderShared,
}

/// The settings every ladder shares.
#[derive(Args)]
struct LadderShared {
    /// The shortest time between pairing passes, in milliseconds: a pass follows a ladder
    /// table finishing or a bot connecting or leaving (a burst makes one pass), and at least
    /// every 30 s.
    #[arg(long, env = "ARENA_LADDER_EVERY_MS", default_value_t = 1000)]
    ladder_every_ms: u64,
    /// Most ladder groups in flight at once, per ladder (0 = no limit).
    #[arg(long, env = "ARENA_LADDER_MAX_PAIRS", default_value_t = 0)]
    ladder_max_pairs: usize,
    /// Seed of the ladders' opponent draws (their deals come from a secret key drawn at
    /// random).
    #[arg(long, env = "ARENA_LADDER_SEED", default_value_t = 0x1adde5)]
    ladder_seed: u64,
    /// Most releases rated per bot (every ladder): rating a newer release forgets the least
    /// recently rated one and its history (at least 1).
    #[arg(
        long,
        env = "ARENA_LADDER_MAX_RELEASES",
        default_value_t = arena_matchmaker::ladder::DEFAULT_MAX_RELEASES,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000)
    )]
    ladder_max_releases: usize,
}

/// A game's ladder flags: the one that runs it, its anchors', and their variables.
struct LadderFlags {
    game: arena_games::GameKind,
    run: &'static str,
    anchors: &'static str,
}

impl LadderFlags {
    /// The flags of every registered game with a ladder, the default game's first.
    fn all() -> Vec<LadderFlags> {
        arena_games::GameKind::all()
            .filter(|g| g.ladder().is_some())
            .map(|game| {
                let run = LadderArgs::flag(game);
                let run = run.trim_start_matches('-');
                // Flag names live as long as the command line (clap keeps `&'static str`s);
                // they are made once per command.
                LadderFlags {
                    game,
                    run: Box::leak(run.to_string().into_boxed_str()),
                    anchors: Box::leak(format!("{run}-anchors").into_boxed_str()),
                }
            })
            .collect()
    }

    /// A flag's environment variable: `ARENA_` and the flag in capitals, `_` for `-` (kept as
    /// long as the flag's name).
    fn env(flag: &str) -> &'static str {
        Box::leak(format!("ARENA_{}", flag.to_uppercase().replace('-', "_")).into_boxed_str())
    }

    fn args(&self, cmd: clap::Command) -> clap::Command {
        let title = self.game.title();
        let size = self.game.ladder().map_or(2, |l| l.group_size());
        cmd.arg(
            clap::Arg::new(self.run)
                .long(self.run)
                .env(Self::env(self.run))
                .action(clap::ArgAction::SetTrue)
                .value_parser(clap::builder::BoolishValueParser::new())
                .help(format!(
                    "Run the continuous ranked ladder of {title}: group the connected bots \
                     playing it by {size} into duplicate sets (the same cards at {size} tables, \
                     the bots' seats turned) and rate them per release"
                )),
        )
        .arg(
            clap::Arg::new(self.anchors)
                .long(self.anchors)
                .value_name(&Self::env(self.anchors)["ARENA_".len()..])
                .env(Self::env(self.anchors))
                .value_delimiter(',')
                .action(clap::ArgAction::Append)
                .value_parser(clap::value_parser!(String))
                .help(format!(
                    "Bots always available to the {title} ladder besides connected remote bots \
                     (built-in or program bots), comma-separated; a group always has a bot that \
                     is not an anchor"
                )),
        )
    }
}

impl clap::Args for LadderArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        // The default game's flags first, then the shared settings, then the other games'.
        let mut flags = LadderFlags::all().into_iter();
        let cmd = match flags.next() {
            Some(first) => first.args(cmd),
            None => cmd,
        };
        flags.fold(LadderShared::augment_args(cmd), |cmd, f| f.args(cmd))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl clap::FromArgMatches for LadderArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let games = LadderFlags::all()
            .into_iter()
            .filter(|f| m.get_flag(f.run))
            .map(|f| {
                let anchors = m
                    .get_many::<String>(f.anchors)
                    .map(|a| a.cloned().collect())
                    .unwrap_or_default();
                (f.game, anchors)
            })
            .collect();
        Ok(LadderArgs {
            games,
            shared: LadderShared::from_arg_matches(m)?,
        })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl LadderArgs {
    /// The flag that runs `game`'s ladder: `--ladder` for the default game, `--<name>-ladder`
    /// for another.
    pub(super) fn flag(game: arena_games::GameKind) -> String {
        if game == arena_games::GameKind::default_game() {
            "--ladder".to_string()
        } else {
            format!("--{}-ladder", game.name())
        }
    }

    pub(super) fn config(&self) -> arena_matchmaker::MatchmakerConfig {
        let s = &self.shared;
        let ladders = self
            .games
            .iter()
            .map(|(game, anchors)| arena_matchmaker::ladder::LadderConfig {
                game: *game,
                every: std::time::Duration::from_millis(s.ladder_every_ms.max(10)),
                anchors: anchors
                    .iter()
                    .map(|a| a.trim().to_string())
                    .filter(|a| !a.is_empty())
                    .collect(),
                max_pairs: s.ladder_max_pairs,
                seed: s.ladder_seed,
                max_releases: s.ladder_max_releases,
                ..Default::default()
            })
            .collect();
        arena_matchmaker::MatchmakerConfig {
            ladders,
            ..Default::default()
        }
    }
}

/// A game a command is for: any registered game, by its name or an alias (`--game ddz`,
/// `--game dou-dizhu`); the default game when left out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameArg(pub arena_games::GameKind);

impl Default for GameArg {
    fn default() -> GameArg {
        GameArg(arena_games::GameKind::default_game())
    }
}

impl std::fmt::Display for GameArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name())
    }
}

impl GameArg {
    /// Reads `--game`'s value: a registered game's name or alias (the games registered when
    /// the command line is read, so a game registered at run time is one too), an empty one
    /// meaning the default game; the error lists the registered names.
    pub fn parse(name: &str) -> Result<GameArg, String> {
        arena_games::GameKind::by_user_name(name).map(GameArg)
    }

    /// `--game`'s help: the registered games.
    pub fn help() -> String {
        let games: Vec<String> = arena_games::GameKind::all()
            .map(|g| match g.aliases() {
                [] => format!("{} ({})", g.name(), g.title()),
                aliases => format!("{} or {} ({})", g.name(), aliases.join(" or "), g.title()),
            })
            .collect();
        format!("The game: {}", games.join(", "))
    }

    /// The registered game.
    pub(crate) fn kind(self) -> arena_games::GameKind {
        self.0
    }

    /// The game's name on the wire.
    pub(crate) fn wire(self) -> &'static str {
        self.0.name()
    }

    /// The game as the store names it.
    pub(crate) fn store(self) -> arena_store::Game {
        self.0.into()
    }
}
