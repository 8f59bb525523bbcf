//! The role launchers: each role's configuration from its flags, its configuration lines, and
//! the role served on a runtime of its own until SIGTERM or Ctrl-C.

use std::time::Duration;

use anyhow::{Context, Result};
use arena_bot_host::{BotHostConfig, Limits, Policy, ProcessLimits};
use arena_referee::RefereeConfig;
use arena_serve::shutdown_signal;

use super::metrics::MetricsEndpoint;
use super::role_args::{BotHostArgs, DealLibraryArgs, MatchmakerArgs, RefereeArgs, StandaloneArgs};
use super::runtime;

pub(super) fn default_id(role: &str) -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "local".into());
    format!("{role}-{host}-{}", std::process::id())
}

/// How long a role's runtime waits for blocking work (a built-in table's current decision) once
/// the role has stopped: SIGTERM always ends the process within its grace plus this.
pub(super) const RUNTIME_SHUTDOWN: Duration = Duration::from_secs(2);

/// Runs a role to its end on a runtime of its own, then stops the runtime without waiting for
/// blocking work past [`RUNTIME_SHUTDOWN`].
pub(super) fn serve_role(role: impl std::future::Future<Output = Result<()>>) -> Result<()> {
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

pub(super) fn referee_config(a: &RefereeArgs) -> RefereeConfig {
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

pub(super) fn bot_host_config(a: &BotHostArgs) -> BotHostConfig {
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
            ladders: a.ladder.config().ladders,
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
