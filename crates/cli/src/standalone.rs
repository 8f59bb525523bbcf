//! Every arena role in one process on the embedded store: what `arena standalone` runs, as one
//! library call ([`start`]), so a test (or a cluster test harness) boots the whole platform
//! in-process. It lives in the `arena` package (the CLI's library half) because only the CLI
//! depends on the services.
//!
//! ```no_run
//! # async fn example() -> Result<(), arena::standalone::StandaloneError> {
//! let dir = std::path::PathBuf::from("/tmp/arena-data");
//! // Every port an ephemeral loopback port; read them back from `addrs`.
//! let running = arena::standalone::start(arena::standalone::StandaloneConfig::loopback(dir)).await?;
//! let matchmaker = format!("http://{}", running.addrs.matchmaker);
//! // … clients send `running.operator_token` as `authorization: Bearer …` …
//! # let _ = matchmaker;
//! running.stop().await?; // the same graceful shutdown SIGTERM gives `arena standalone`
//! # Ok(()) }
//! ```
//!
//! Credentials: the operator token lives in `<data_dir>/operator.token` (made with mode 0600 on
//! first start; every CLI client sends it). The cluster token is drawn afresh at each start and
//! never leaves the process: the seat port listens on an ephemeral loopback port that only this
//! process's referee knows and can open.
//!
//! Endpoints: once every role listens, [`start`] writes their addresses to
//! `<data_dir>/endpoints.json` ([`ENDPOINTS_FILE`]), where every CLI client given that data
//! directory finds them (its flags and environment variables still win); [`Standalone::wait`]
//! removes it.
//!
//! Shutdown ([`Standalone::stop`], or [`Standalone::shutdown`] then [`Standalone::wait`]): every
//! role stops as it does on its own (health NOT_SERVING, no new work, calls in flight finish),
//! in dependency order: the matchmaker, console, deal library and referee at once, the referee
//! finishing its tables in flight within its grace; bot-host, whose seats those tables use,
//! only once the referee has stopped, so no table loses its bots to the shutdown.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use arena_bot_host::BotHostConfig;
use arena_referee::RefereeConfig;
use arena_serve::{ServeConfig, Shutdown};
use arena_store::Store;

/// The file in a standalone's data directory naming where its roles listen: a JSON object with
/// the keys `matchmaker`, `deal_library`, `referee`, `bot_host` (and `console` when it is on),
/// each a URL a client on this machine dials (`http://127.0.0.1:PORT`).
pub const ENDPOINTS_FILE: &str = "endpoints.json";

/// A URL for dialling `addr` from this machine: an unspecified address (`0.0.0.0`, `[::]`) is
/// reached on loopback.
pub fn local_url(mut addr: SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        addr.set_ip(match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    format!("http://{addr}")
}

/// Where `arena standalone` listens unless told otherwise: the ports each role has on its own.
pub const DEFAULT_REFEREE_LISTEN: SocketAddr = arena_referee::DEFAULT_LISTEN;
/// See [`DEFAULT_REFEREE_LISTEN`].
pub const DEFAULT_BOT_HOST_LISTEN: SocketAddr = arena_bot_host::DEFAULT_LISTEN;
/// See [`DEFAULT_REFEREE_LISTEN`].
pub const DEFAULT_DEAL_LIBRARY_LISTEN: SocketAddr = arena_deal_library::DEFAULT_LISTEN;
/// See [`DEFAULT_REFEREE_LISTEN`].
pub const DEFAULT_MATCHMAKER_LISTEN: SocketAddr = arena_matchmaker::DEFAULT_LISTEN;
/// See [`DEFAULT_REFEREE_LISTEN`]: the web console's HTTP port.
pub const DEFAULT_CONSOLE_LISTEN: SocketAddr = arena_console::DEFAULT_LISTEN;
/// The data directory unless told otherwise (relative to the working directory).
pub const DEFAULT_DATA_DIR: &str = "arena-data";
/// The referee's consumer name: stable, so a restarted standalone resumes its own unfinished
/// tables at once.
pub const REFEREE_ID: &str = "standalone";

/// How standalone runs. [`StandaloneConfig::default`] is what `arena standalone` does without
/// flags; [`StandaloneConfig::loopback`] puts every port on an ephemeral loopback port.
#[derive(Clone, Debug)]
pub struct StandaloneConfig {
    /// Data directory of the embedded store (and of the operator token).
    pub data_dir: PathBuf,
    /// table-referee listen address.
    pub referee_listen: SocketAddr,
    /// bot-host's bot port.
    pub bot_host_listen: SocketAddr,
    /// deal-library listen address.
    pub deal_library_listen: SocketAddr,
    /// matchmaker listen address.
    pub matchmaker_listen: SocketAddr,
    /// The web console's HTTP listen address (`None`: no console).
    pub console_listen: Option<SocketAddr>,
    /// The console's exposure: allowed host names, public request rate, connection cap.
    pub console: arena_console::ConsoleOptions,
    /// The continuous ranked ladders to run (at most one per game).
    pub ladders: Vec<arena_matchmaker::ladder::LadderConfig>,
    /// Open spectator reads to anyone.
    pub public_spectator: bool,
    /// TLS on bot-host's bot port.
    pub bot_tls: Option<arena_tls::ServerTlsFiles>,
    /// Every role's gRPC timeout, concurrency limit and connection age.
    pub serve: ServeConfig,
    /// Worker threads of the deal library.
    pub deal_threads: usize,
    /// How long results and replays are kept.
    pub retention: arena_matchmaker::retention::Retention,
    /// Most tables the referee plays at once ([`RefereeConfig::max_tables`]).
    pub max_tables: usize,
    /// Tables of this decision time or more play at the lowest CPU priority
    /// ([`RefereeConfig::background_from`]).
    pub background_from: Option<std::time::Duration>,
    /// The CPUs background tables' threads keep to ([`RefereeConfig::background_cpus`]).
    pub background_cpus: Vec<usize>,
}

impl Default for StandaloneConfig {
    fn default() -> Self {
        StandaloneConfig {
            data_dir: PathBuf::from(DEFAULT_DATA_DIR),
            referee_listen: DEFAULT_REFEREE_LISTEN,
            bot_host_listen: DEFAULT_BOT_HOST_LISTEN,
            deal_library_listen: DEFAULT_DEAL_LIBRARY_LISTEN,
            matchmaker_listen: DEFAULT_MATCHMAKER_LISTEN,
            console_listen: Some(DEFAULT_CONSOLE_LISTEN),
            console: arena_console::ConsoleOptions::default(),
            ladders: Vec::new(),
            public_spectator: false,
            bot_tls: None,
            serve: ServeConfig::default(),
            deal_threads: arena_deal_library::DealLibraryConfig::default().threads,
            retention: arena_matchmaker::retention::Retention::default(),
            max_tables: RefereeConfig::default().max_tables,
            background_from: None,
            background_cpus: Vec::new(),
        }
    }
}

impl StandaloneConfig {
    /// The defaults in `data_dir`, every port an ephemeral port of 127.0.0.1 (tests).
    pub fn loopback(data_dir: impl Into<PathBuf>) -> StandaloneConfig {
        let any = SocketAddr::from(([127, 0, 0, 1], 0));
        StandaloneConfig {
            data_dir: data_dir.into(),
            referee_listen: any,
            bot_host_listen: any,
            deal_library_listen: any,
            matchmaker_listen: any,
            console_listen: Some(any),
            ..StandaloneConfig::default()
        }
    }
}

/// Why standalone could not start, or a role stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum StandaloneError {
    /// The embedded store could not be opened.
    #[error("opening the embedded store in {dir}: {source}")]
    Store {
        /// The data directory.
        dir: PathBuf,
        /// Why.
        source: arena_store::StoreError,
    },
    /// A secret (the data directory, the store, the operator token) is within reach of the bot
    /// programs this process runs.
    #[error(
        "the {what} {path} is readable by bot programs ({why}); make it private (`chmod {mode} \
         {path}`) and keep the data directory out of the directories programs may read \
         ({dirs} and --sandbox-read paths): choose another --data-dir"
    )]
    Exposed {
        /// What it is.
        what: &'static str,
        /// Where.
        path: String,
        /// How programs reach it.
        why: String,
        /// The mode that makes it private.
        mode: &'static str,
        /// The directories every program may read.
        dirs: String,
    },
    /// The operator or cluster token could not be made or read.
    #[error("credentials: {0}")]
    Auth(#[from] arena_auth::AuthError),
    /// The cluster token could not be drawn.
    #[error("drawing the cluster token: {0}")]
    Random(#[from] arena_auth::token::TokenError),
    /// A listen address could not be bound.
    #[error("binding {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The endpoints file could not be written.
    #[error("writing {path}: {source}")]
    Endpoints {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// bot-host failed.
    #[error("bot-host: {0}")]
    BotHost(#[from] arena_bot_host::BotHostError),
    /// The referee failed.
    #[error("table-referee: {0}")]
    Referee(#[from] arena_referee::RefereeError),
    /// The referee's configuration cannot work.
    #[error("table-referee: {0}")]
    RefereeConfig(#[from] arena_referee::ConfigError),
    /// The deal library failed.
    #[error("deal-library: {0}")]
    DealLibrary(#[from] arena_deal_library::ServeError),
    /// The matchmaker failed.
    #[error("matchmaker: {0}")]
    Matchmaker(#[from] arena_matchmaker::ServeError),
    /// The web console failed.
    #[error("console: {0}")]
    Console(#[from] arena_console::ConsoleError),
    /// The console's deal library address does not read.
    #[error("console: {0}")]
    ConsoleLibrary(String),
    /// A role's task panicked or was cancelled.
    #[error("{role} task: {source}")]
    Task {
        /// The role.
        role: &'static str,
        /// Why.
        source: tokio::task::JoinError,
    },
}

/// The addresses standalone serves on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Addrs {
    /// `TableReferee`.
    pub referee: SocketAddr,
    /// bot-host's bot port (`BotGateway`).
    pub bot_host: SocketAddr,
    /// bot-host's seat port (loopback, this process only).
    pub seat: SocketAddr,
    /// `DealLibrary`.
    pub deal_library: SocketAddr,
    /// `Matchmaker`.
    pub matchmaker: SocketAddr,
    /// The web console (HTTP), when on.
    pub console: Option<SocketAddr>,
}

type RoleTask<E> = tokio::task::JoinHandle<Result<(), E>>;

/// A running standalone: its addresses and credentials, and its shutdown.
pub struct Standalone {
    /// Where each role listens.
    pub addrs: Addrs,
    /// The operator token clients send.
    pub operator_token: arena_auth::Secret,
    /// The file holding it.
    pub operator_token_path: PathBuf,
    /// True if this start created that file.
    pub operator_token_created: bool,
    /// The store's description.
    pub store: String,
    /// bot-host's configuration in force.
    pub bot_host: BotHostConfig,
    /// The referee's configuration in force.
    pub referee: RefereeConfig,
    config: StandaloneConfig,
    shutdown: Shutdown,
    host: RoleTask<arena_bot_host::BotHostError>,
    referee_task: RoleTask<arena_referee::RefereeError>,
    library: RoleTask<arena_deal_library::ServeError>,
    matchmaker: RoleTask<arena_matchmaker::ServeError>,
    console: Option<RoleTask<arena_console::ConsoleError>>,
}

async fn bind(addr: SocketAddr) -> Result<tokio::net::TcpListener, StandaloneError> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| StandaloneError::Bind { addr, source })
}

/// Refuses each of `secrets` (what it is, where, the mode that makes it private) that bot
/// programs run in `sandbox` could read: the store holds a ladder's secret deal key and running
/// competitions' seeds, the token file the operator's token.
pub fn check_private(
    sandbox: &arena_sandbox::Sandbox,
    secrets: &[(&'static str, &std::path::Path, &'static str)],
) -> Result<(), StandaloneError> {
    for &(what, path, mode) in secrets {
        if let Some(why) = sandbox.exposes(path) {
            return Err(StandaloneError::Exposed {
                what,
                path: path.display().to_string(),
                why,
                mode,
                dirs: arena_sandbox::SYSTEM_READ_DIRS.join(", "),
            });
        }
    }
    Ok(())
}

/// Opens the embedded store in `config.data_dir`, binds every port, and starts every role.
/// Returns once all of them listen.
pub async fn start(config: StandaloneConfig) -> Result<Standalone, StandaloneError> {
    let store: Arc<dyn Store> = Arc::new(
        arena_store::EmbeddedStore::open(&config.data_dir).map_err(|source| {
            StandaloneError::Store {
                dir: config.data_dir.clone(),
                source,
            }
        })?,
    );
    let token_path = config
        .data_dir
        .join(arena_auth::client::OPERATOR_TOKEN_FILE);
    let (operator_token, made) = arena_auth::secret::ensure_token_file(&token_path)?;
    let store_file = config.data_dir.join(arena_store::embedded::FILE_NAME);
    check_private(
        &arena_sandbox::Sandbox::new(BotHostConfig::default().processes.sandbox),
        &[
            ("data directory", &config.data_dir, "700"),
            ("store", &store_file, "600"),
            ("operator token file", &token_path, "600"),
        ],
    )?;
    let cluster_token = arena_auth::Secret::new(arena_auth::token::random_text(32)?);
    let host_cfg = BotHostConfig {
        listen: config.bot_host_listen,
        seat_listen: SocketAddr::from(([127, 0, 0, 1], 0)),
        cluster_token: Some(cluster_token.clone()),
        bot_tls: config.bot_tls.clone(),
        serve: config.serve.clone(),
        ..BotHostConfig::default()
    };
    let host = arena_bot_host::BotHost::bind(host_cfg.clone(), store.clone()).await?;
    let ref_cfg = RefereeConfig {
        referee_id: REFEREE_ID.into(),
        listen: config.referee_listen,
        bot_hosts: vec![host.advertised().to_string()],
        cluster_token: Some(cluster_token),
        operator_token: Some(operator_token.clone()),
        serve: config.serve.clone(),
        max_tables: config.max_tables,
        background_from: config.background_from,
        background_cpus: config.background_cpus.clone(),
        ..RefereeConfig::default()
    };
    ref_cfg.validate()?;
    let referee_listener = bind(config.referee_listen).await?;
    let library_listener = bind(config.deal_library_listen).await?;
    let matchmaker_listener = bind(config.matchmaker_listen).await?;
    let console_listener = match config.console_listen {
        Some(addr) => Some(bind(addr).await?),
        None => None,
    };
    let local = |l: &tokio::net::TcpListener, asked: SocketAddr| l.local_addr().unwrap_or(asked);
    let addrs = Addrs {
        referee: local(&referee_listener, config.referee_listen),
        bot_host: host.local_addr(),
        seat: host.seat_addr(),
        deal_library: local(&library_listener, config.deal_library_listen),
        matchmaker: local(&matchmaker_listener, config.matchmaker_listen),
        console: console_listener
            .as_ref()
            .zip(config.console_listen)
            .map(|(l, asked)| local(l, asked)),
    };
    // One failed-attempt limiter for every role's operator checks and the console: a peer
    // locked out over gRPC is locked out of the console too, and the other way round.
    let limiter = Arc::new(arena_auth::FailureLimiter::default());
    let operators = |store: &Arc<dyn Store>| {
        arena_auth::Authenticator::new(Some(store.clone()))
            .with_bootstrap(Some(&operator_token))
            .public_spectator(config.public_spectator)
            .with_limiter(limiter.clone())
    };
    // Its create form asks this process's own deal library for missing deals.
    let library_url = local_url(addrs.deal_library);
    let console = match console_listener {
        Some(listener) => {
            let backend = arena_matchmaker::MatchmakerService::new(store.clone());
            let console =
                arena_console::Console::new(Arc::new(backend), store.clone(), operators(&store))
                    .with_options(config.console.clone())
                    .with_deal_library(&library_url)
                    .map_err(StandaloneError::ConsoleLibrary)?;
            Some((console, listener))
        }
        None => None,
    };
    write_endpoints(&config.data_dir, &addrs)?;
    let shutdown = Shutdown::new();
    // bot-host stops after the referee (however the referee ends): its tables in flight keep
    // their remote and program seats through the referee's grace.
    let host_stop = Shutdown::new();
    let host = tokio::spawn(host.run(host_stop.wait()));
    let referee_task = tokio::spawn({
        let serve = arena_referee::serve_with_auth(
            referee_listener,
            ref_cfg.clone(),
            store.clone(),
            operators(&store),
            shutdown.wait(),
        );
        async move {
            let served = serve.await;
            host_stop.trigger();
            served
        }
    });
    let library = tokio::spawn(arena_deal_library::serve_with_config(
        library_listener,
        store.clone(),
        arena_deal_library::DealLibraryConfig {
            threads: config.deal_threads,
            auth: Some(operators(&store)),
            serve: config.serve.clone(),
        },
        shutdown.wait(),
    ));
    // The console calls the same matchmaker code the gRPC server runs, under the same policy.
    let console =
        console.map(|(console, listener)| tokio::spawn(console.serve(listener, shutdown.wait())));
    let matchmaker = tokio::spawn(arena_matchmaker::serve_with_config(
        matchmaker_listener,
        store.clone(),
        arena_matchmaker::MatchmakerConfig {
            auth: Some(operators(&store)),
            ladders: config.ladders.clone(),
            serve: config.serve.clone(),
            retention: config.retention,
            ..arena_matchmaker::MatchmakerConfig::default()
        },
        shutdown.wait(),
    ));
    Ok(Standalone {
        addrs,
        operator_token,
        operator_token_path: token_path,
        operator_token_created: made,
        store: store.describe(),
        bot_host: host_cfg,
        referee: ref_cfg,
        config,
        shutdown,
        host,
        referee_task,
        library,
        matchmaker,
        console,
    })
}

/// Writes the roles' addresses to `data_dir`'s [`ENDPOINTS_FILE`] (whole or not at all: a
/// temporary file renamed over it).
fn write_endpoints(data_dir: &std::path::Path, addrs: &Addrs) -> Result<(), StandaloneError> {
    let mut endpoints = serde_json::json!({
        "matchmaker": local_url(addrs.matchmaker),
        "deal_library": local_url(addrs.deal_library),
        "referee": local_url(addrs.referee),
        "bot_host": local_url(addrs.bot_host),
    });
    if let Some(console) = addrs.console {
        endpoints["console"] = format!("{}/", local_url(console)).into();
    }
    let path = data_dir.join(ENDPOINTS_FILE);
    let temporary = data_dir.join(format!("{ENDPOINTS_FILE}.tmp"));
    std::fs::write(&temporary, format!("{endpoints:#}\n"))
        .and_then(|()| std::fs::rename(&temporary, &path))
        .map_err(|source| StandaloneError::Endpoints { path, source })
}

impl Standalone {
    /// The effective configuration, as `arena standalone` prints it at start: its own
    /// settings, then each role's, a setting a line.
    pub fn describe(&self) -> String {
        use arena_serve::ConfigLines;
        let mut top = ConfigLines::default();
        top.push("store", &self.store).push(
            "operator token",
            format!(
                "{} {} (clients send it, or ARENA_OPERATOR_TOKEN)",
                self.operator_token_path.display(),
                if self.operator_token_created {
                    "created"
                } else {
                    "in use"
                }
            ),
        );
        let host = BotHostConfig {
            listen: self.addrs.bot_host,
            seat_listen: self.addrs.seat,
            ..self.bot_host.clone()
        };
        let referee = RefereeConfig {
            listen: self.addrs.referee,
            ..self.referee.clone()
        };
        let mut library = ConfigLines::default();
        library
            .push("listen", self.addrs.deal_library)
            .push("generation threads", self.config.deal_threads);
        let mut matchmaker = ConfigLines::default();
        matchmaker.push("listen", self.addrs.matchmaker).extend(
            arena_matchmaker::MatchmakerConfig {
                auth: Some(
                    arena_auth::Authenticator::new(None)
                        .public_spectator(self.config.public_spectator),
                ),
                ladders: self.config.ladders.clone(),
                retention: self.config.retention,
                ..arena_matchmaker::MatchmakerConfig::default()
            }
            .lines(),
        );
        let mut console = ConfigLines::default();
        console.push(
            "address",
            match self.addrs.console {
                Some(addr) => format!(
                    "http://{addr}/ (spectator pages {}; operators sign in with the operator token)",
                    if self.config.public_spectator {
                        "public"
                    } else {
                        "for operators"
                    }
                ),
                None => "off".to_string(),
            },
        );
        if self.addrs.console.is_some() {
            let o = &self.config.console;
            console
                .push(
                    "allowed hosts",
                    if o.allowed_hosts.is_empty() {
                        "localhost, loopback and the listen address".to_string()
                    } else {
                        format!(
                            "{} (and localhost, loopback, the listen address)",
                            o.allowed_hosts.join(", ")
                        )
                    },
                )
                .push("max connections", o.http.max_connections)
                .push(
                    "public requests",
                    match o.public_per_minute {
                        0 => "no limit".to_string(),
                        n => format!("{n} a minute per address"),
                    },
                );
        }
        [
            top.render("arena standalone"),
            host.lines()
                .render("bot-host (its seat port on loopback, for this process only)"),
            referee.lines().render("table-referee"),
            library.render("deal-library"),
            matchmaker.render("matchmaker"),
            console.render("console"),
        ]
        .concat()
    }

    /// Warnings to show loudly (bot programs not fully sandboxed).
    pub fn warnings(&self) -> Vec<String> {
        self.bot_host.sandbox().warnings()
    }

    /// Begins the graceful shutdown of every role (what SIGTERM does); [`Standalone::wait`]
    /// for its end.
    pub fn shutdown(&self) {
        self.shutdown.trigger();
    }

    /// Waits until every role has stopped (after [`Standalone::shutdown`], or a role failing on
    /// its own), and says whether one failed.
    pub async fn wait(self) -> Result<(), StandaloneError> {
        let task = |role| move |source| StandaloneError::Task { role, source };
        let console = async {
            match self.console {
                Some(t) => Some(t.await),
                None => None,
            }
        };
        let (h, r, l, m, c) = tokio::join!(
            self.host,
            self.referee_task,
            self.library,
            self.matchmaker,
            console
        );
        // Nothing listens there any more: a client must not find these addresses.
        let _ = std::fs::remove_file(self.config.data_dir.join(ENDPOINTS_FILE));
        h.map_err(task("bot-host"))??;
        r.map_err(task("table-referee"))??;
        l.map_err(task("deal-library"))??;
        m.map_err(task("matchmaker"))??;
        if let Some(c) = c {
            c.map_err(task("console"))??;
        }
        Ok(())
    }

    /// Shuts every role down gracefully and waits for the end.
    pub async fn stop(self) -> Result<(), StandaloneError> {
        self.shutdown();
        self.wait().await
    }
}
