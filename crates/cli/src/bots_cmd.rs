//! `arena bots add|list|rotate|remove` and `arena operators add|list|remove`: the bot registry
//! and the operator tokens, on the store the command opens or through a running matchmaker
//! (`arena.v1.BotRegistry`): with `--matchmaker URL`, or on its own when the embedded store is
//! held by a running `arena standalone`. Both paths run the
//! matchmaker's registry functions (`arena_matchmaker::registry`), so names and commands are
//! checked alike.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use arena_games::commands::print::clock_phrase;
use arena_matchmaker::registry;
use arena_proto::v1;
use arena_store::Store;
use clap::{Args, Subcommand};

use crate::client::{self, ClientAuth, status};

pub mod botzone;
use crate::services::GameArg;
use crate::store_args::StoreArgs;

/// Bot registry commands.
#[derive(Subcommand)]
pub enum BotsCommand {
    /// Register a bot. Remote bots get a token, printed once (only its hash is stored).
    Add(BotsAddArgs),
    /// List registered bots.
    List(RegistryArgs),
    /// Give a remote bot a new token (printed once); its live sessions end within seconds.
    Rotate(BotsNameArgs),
    /// Unregister a bot; its live sessions end within seconds.
    Remove(BotsNameArgs),
}

/// Where the registry is: the store, or a running matchmaker.
#[derive(Args)]
pub struct RegistryArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// Register through the running matchmaker at this address (e.g. `arena standalone`'s,
    /// http://127.0.0.1:50054) instead of opening the store. When the embedded store is held by
    /// a running arena, the matchmaker at ARENA_MATCHMAKER (default: the one that arena wrote to
    /// the data directory's endpoints.json) is used without this flag.
    #[arg(long)]
    matchmaker: Option<String>,
}

#[derive(Args)]
pub struct BotsNameArgs {
    /// The bot's name.
    name: String,
    #[command(flatten)]
    registry: RegistryArgs,
}

#[derive(Args)]
pub struct BotsAddArgs {
    /// The bot's name.
    name: String,
    /// Register a program bot-host runs as a child process (line protocol) instead of a remote
    /// bot: its command line. Paths in it are made absolute here (bot-host starts the program
    /// in a directory of its own), and a program named by a path must exist and be executable.
    #[arg(long, conflicts_with = "botzone")]
    program: Option<String>,
    /// Register a bot written for Botzone from its source (C++ .cpp, C .c, Python .py), built
    /// as Botzone builds it (`g++ -D_BOTZONE_ONLINE -O2`, Botzone's `jsoncpp/json.h` resolved
    /// to the machine's jsoncpp) into --botzone-dir, where it starts: a program speaking the
    /// game's Botzone protocol (docs/botzone.md).
    #[arg(long, value_name = "FILE")]
    botzone: Option<std::path::PathBuf>,
    /// The directory a --botzone bot is built into and started in (made if missing; it and its
    /// parents must be readable by the sandbox's user). Default: botzone/NAME in the data
    /// directory.
    #[arg(long, value_name = "DIR", requires = "botzone")]
    botzone_dir: Option<std::path::PathBuf>,
    /// A directory copied, read-only, to the --botzone bot's `data/` (Botzone's user files: its
    /// weights, tables).
    #[arg(long, value_name = "DIR", requires = "botzone")]
    botzone_data: Option<std::path::PathBuf>,
    /// The --botzone bot uses Botzone's simple I/O (text lines) instead of JSON.
    #[arg(long, requires = "botzone")]
    simpleio: bool,
    /// The --botzone bot is registered on Botzone for keep-running: its input stays open and
    /// it may print Botzone's keep-running marker to be kept between turns.
    #[arg(long, requires = "botzone")]
    keep_running: bool,
    /// The game's Botzone protocol the --botzone bot speaks when the game has several (Dou
    /// Dizhu: botzone for FightTheLandlord2, botzone-ftl for FightTheLandlord); --simpleio and
    /// --keep-running add their suffixes.
    #[arg(
        long,
        value_name = "NAME",
        requires = "botzone",
        default_value = "botzone"
    )]
    botzone_protocol: String,
    /// The game the program plays, whose line protocol it speaks (default: Dou Dizhu). Remote
    /// bots say which games they play when they connect.
    #[arg(long, value_parser = GameArg::parse)]
    game: Option<GameArg>,
    /// CPU seconds per program process (0 = the host's default).
    #[arg(long, default_value_t = 0)]
    cpu_seconds: u32,
    /// Memory (MiB) per program process (0 = the host's default).
    #[arg(long, default_value_t = 0)]
    memory_mb: u32,
    /// The bot's own time for one decision, in ms (0 = none): its seats get it, with the
    /// table's margin above it for the hard cap, at tables whose clock leaves the decision limit
    /// to the default; a table's explicit --decision-ms rules for every seat. Default for a
    /// --botzone bot: Botzone's for its language (C/C++ 1000, Python 6000); else 0.
    #[arg(long, value_name = "MS")]
    decision_ms: Option<u32>,
    /// The bot's own time for a seat's second and later decisions, in ms, where they differ
    /// from the first (0 = --decision-ms). Default for a --botzone --keep-running bot: Botzone's
    /// for its language's later turns (Python 4000); else 0.
    #[arg(long, value_name = "MS")]
    later_decision_ms: Option<u32>,
    /// Most tables at once (0 = no limit).
    #[arg(long, default_value_t = 0)]
    max_tables: u32,
    /// Paths bot-host lets programs read besides the system's (its --sandbox-read), for the
    /// check, made here, that the program can run in its sandbox.
    #[arg(long = "sandbox-read", value_delimiter = ',')]
    sandbox_read: Vec<std::path::PathBuf>,
    #[command(flatten)]
    registry: RegistryArgs,
}

/// The matchmaker a client falls back to when the embedded store in `data_dir` is held:
/// ARENA_MATCHMAKER, else the one the standalone holding it wrote to its endpoints file.
fn default_matchmaker(data_dir: &Path) -> Result<String> {
    client::address(
        std::env::var("ARENA_MATCHMAKER").ok().as_deref(),
        client::Role::Matchmaker,
        data_dir,
    )
}

/// Whether `e` says the embedded store is held by another process.
pub fn in_use(e: &anyhow::Error) -> bool {
    matches!(
        e.downcast_ref::<arena_store::StoreError>(),
        Some(arena_store::StoreError::InUse(_))
    )
}

/// Where a command registers.
pub(crate) enum Registry {
    Store(Arc<dyn Store>),
    Remote {
        client: Box<v1::bot_registry_client::BotRegistryClient<client::Authed>>,
        url: String,
    },
}

impl Registry {
    /// The store `a` names, or the matchmaker it names (or falls back to while the store is
    /// held).
    pub(crate) async fn open(a: &RegistryArgs) -> Result<Registry> {
        let remote = |url: String| async move {
            let auth = ClientAuth {
                data_dir: a.store.data_dir.clone(),
            };
            let channel = client::connect(&url, client::Role::Matchmaker, &auth).await?;
            Ok::<_, anyhow::Error>(Registry::Remote {
                client: Box::new(v1::bot_registry_client::BotRegistryClient::new(channel)),
                url,
            })
        };
        if let Some(url) = &a.matchmaker {
            return remote(url.clone()).await;
        }
        // A data directory that does not exist yet is made a new, empty store: say so, since
        // the usual cause is a standalone running with another --data-dir.
        let fresh = a.store.redis.is_none() && !a.store.data_dir.exists();
        match a.store.open().await {
            Ok(store) => {
                if fresh {
                    eprintln!(
                        "note: {dir} held no arena store, so a new one was made there. An `arena \
                         standalone` started with another --data-dir does not see it: give that \
                         directory as --data-dir (or ARENA_DATA_DIR)",
                        dir = a.store.data_dir.display()
                    );
                }
                Ok(Registry::Store(store))
            }
            Err(e) if in_use(&e) => {
                let url = default_matchmaker(&a.store.data_dir)?;
                eprintln!(
                    "{} is held by a running arena; going through the matchmaker at {url} \
                     (--matchmaker URL names another)",
                    a.store.data_dir.display()
                );
                remote(url.clone()).await.with_context(|| {
                    format!(
                        "{}, and no matchmaker answers at {url}: is `arena standalone` running? \
                         --matchmaker URL names its matchmaker",
                        crate::report::chain(&e)
                    )
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Where the bots are, for messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Registry::Store(store) => store.describe(),
            Registry::Remote { url, .. } => format!("the registry of the matchmaker at {url}"),
        }
    }

    async fn add(&mut self, req: v1::AddBotRequest) -> Result<v1::BotTokenResponse> {
        match self {
            Registry::Store(store) => Ok(answer(registry::add(&**store, &req).await?)),
            Registry::Remote { client, .. } => {
                Ok(client.add_bot(req).await.map_err(status)?.into_inner())
            }
        }
    }

    async fn rotate(&mut self, name: &str) -> Result<v1::BotTokenResponse> {
        match self {
            Registry::Store(store) => Ok(answer(registry::rotate(&**store, name).await?)),
            Registry::Remote { client, .. } => Ok(client
                .rotate_bot_token(v1::BotNameRequest { name: name.into() })
                .await
                .map_err(status)?
                .into_inner()),
        }
    }

    async fn remove(&mut self, name: &str) -> Result<()> {
        match self {
            Registry::Store(store) => Ok(registry::remove(&**store, name).await?),
            Registry::Remote { client, .. } => {
                client
                    .remove_bot(v1::BotNameRequest { name: name.into() })
                    .await
                    .map_err(status)?;
                Ok(())
            }
        }
    }

    async fn list(&mut self) -> Result<Vec<v1::RegisteredBot>> {
        match self {
            Registry::Store(store) => Ok(registry::list(&**store)
                .await?
                .iter()
                .map(registry::wire)
                .collect()),
            Registry::Remote { client, .. } => Ok(client
                .list_bots(v1::ListBotsRequest {})
                .await
                .map_err(status)?
                .into_inner()
                .bots),
        }
    }
}

/// The operator tokens, on either path.
impl Registry {
    pub(crate) async fn add_operator(&mut self, name: &str) -> Result<v1::OperatorTokenResponse> {
        match self {
            Registry::Store(store) => Ok(registry::add_operator(&**store, name).await?),
            Registry::Remote { client, .. } => Ok(client
                .add_operator(v1::OperatorNameRequest { name: name.into() })
                .await
                .map_err(status)?
                .into_inner()),
        }
    }

    pub(crate) async fn list_operators(&mut self) -> Result<Vec<v1::OperatorToken>> {
        match self {
            Registry::Store(store) => Ok(registry::list_operators(&**store).await?),
            Registry::Remote { client, .. } => Ok(client
                .list_operators(v1::ListOperatorsRequest {})
                .await
                .map_err(status)?
                .into_inner()
                .operators),
        }
    }

    pub(crate) async fn remove_operator(&mut self, name: &str) -> Result<u32> {
        match self {
            Registry::Store(store) => Ok(registry::remove_operator(&**store, name).await?),
            Registry::Remote { client, .. } => Ok(client
                .remove_operator(v1::OperatorNameRequest { name: name.into() })
                .await
                .map_err(status)?
                .into_inner()
                .revoked),
        }
    }
}

fn answer(r: registry::Registered) -> v1::BotTokenResponse {
    v1::BotTokenResponse {
        bot: Some(registry::wire(&r.bot)),
        token: r.token.unwrap_or_default(),
    }
}

/// `command` with its paths made absolute against `cwd` ([`arena_line::CmdSpec::resolve`]:
/// bot-host starts a program in a directory of its own, where `./mybot` or `bot.py` name
/// nothing). The program, when named by a path, must exist and be executable; relative
/// arguments naming files that exist here are resolved too (`python3 bot.py`), other arguments
/// are kept as given.
pub fn resolve_program(command: &str, cwd: &Path) -> Result<String> {
    use std::os::unix::fs::PermissionsExt;
    let given =
        arena_line::CmdSpec::parse(command).map_err(|e| anyhow::anyhow!("--program: {e}"))?;
    let spec = given.resolve(cwd);
    if given.program().contains('/') {
        let (program, abs) = (given.program(), Path::new(spec.program()));
        let meta = std::fs::metadata(abs).map_err(|e| {
            anyhow::anyhow!("--program: no program {program:?} ({}: {e})", abs.display())
        })?;
        if !meta.is_file() {
            bail!("--program: {} is not a file", abs.display());
        }
        if meta.permissions().mode() & 0o111 == 0 {
            bail!(
                "--program: {} is not executable: `chmod +x` it, or name its interpreter \
                 (--program \"python3 {program}\")",
                abs.display()
            );
        }
    }
    // The protocol's prefix is kept (`botzone:…`); the default one's `cmd:` is not written.
    Ok(match spec.protocol() {
        Some(_) => spec.to_string(),
        None => spec.command_line(),
    })
}

/// Runs `arena bots …`.
pub fn run(cmd: BotsCommand) -> Result<()> {
    let rt = crate::store_args::runtime()?;
    rt.block_on(async {
        match cmd {
            BotsCommand::Add(a) => {
                // Checked before anything is opened, so a bad name costs no connection.
                registry::check_name(&a.name)?;
                if a.game.is_some() && a.program.is_none() && a.botzone.is_none() {
                    bail!(
                        "--game is for program bots (--program or --botzone); a remote bot says \
                         which games it plays when it connects"
                    );
                }
                let game = a.game.unwrap_or_default();
                let cwd = std::env::current_dir().context("reading the current directory")?;
                let mut workdir = String::new();
                let mut memory_mb = a.memory_mb;
                let mut decision_ms = a.decision_ms.unwrap_or(0);
                let mut later_decision_ms = a.later_decision_ms.unwrap_or(0);
                let built = match &a.botzone {
                    Some(source) => {
                        let protocol = format!(
                            "{}{}{}",
                            a.botzone_protocol,
                            if a.simpleio { "-simpleio" } else { "" },
                            if a.keep_running { "-keep" } else { "" }
                        );
                        let protocol = protocol.as_str();
                        game.kind()
                            .check_protocol(Some(protocol))
                            .map_err(|e| anyhow::anyhow!("--botzone: {e}"))?;
                        let dir = match &a.botzone_dir {
                            Some(d) => cwd.join(d),
                            None => cwd.join(&a.registry.store.data_dir).join("botzone").join(&a.name),
                        };
                        let built = botzone::build(
                            &cwd.join(source),
                            &dir,
                            a.botzone_data.as_deref().map(|d| cwd.join(d)).as_deref(),
                            protocol,
                        )?;
                        let (first, later) = built.language.time_ms();
                        decision_ms = a.decision_ms.unwrap_or(first);
                        // Botzone's later turns are a keep-running bot's only.
                        if a.keep_running && later != first {
                            later_decision_ms = a.later_decision_ms.unwrap_or(later);
                        }
                        println!(
                            "built {} bot {} in {}: Botzone gives {} bots {first} ms per turn \
                             ({later} ms for a keep-running bot's later turns) and {} MiB; its \
                             seats get {} at tables that leave the decision limit to the default",
                            built.language.name(),
                            source.display(),
                            built.dir.display(),
                            built.language.name(),
                            built.language.memory_mb(),
                            clock_phrase(decision_ms, later_decision_ms)
                        );
                        workdir = built.dir.display().to_string();
                        if memory_mb == 0 {
                            memory_mb = built.language.memory_mb();
                        }
                        Some(built.command)
                    }
                    None => None,
                };
                let program = match a.program.as_ref().or(built.as_ref()) {
                    Some(p) => {
                        let command = resolve_program(p, &cwd)?;
                        // Checked as bot-host on this machine would run it: refused now rather
                        // than crashing at every table.
                        let sandbox = arena_sandbox::Sandbox::new(arena_sandbox::Policy {
                            extra_read: a.sandbox_read.clone(),
                            ..arena_sandbox::Policy::default()
                        });
                        let spec = arena_line::CmdSpec::parse(&command)?;
                        sandbox.check_program(spec.program(), spec.args())?;
                        Some(command)
                    }
                    None => None,
                };
                let mut registry = Registry::open(&a.registry).await?;
                let added = registry
                    .add(v1::AddBotRequest {
                        name: a.name.clone(),
                        program: program.clone().unwrap_or_default(),
                        game: if program.is_some() {
                            game.wire().into()
                        } else {
                            String::new()
                        },
                        cpu_seconds: a.cpu_seconds,
                        memory_mb,
                        max_tables: a.max_tables,
                        workdir,
                        decision_ms,
                        later_decision_ms,
                    })
                    .await?;
                match program {
                    None => {
                        println!(
                            "registered remote bot {:?} in {}",
                            a.name,
                            registry.describe()
                        );
                        println!("token (shown once; only its SHA-256 is stored):");
                        println!("{}", added.token);
                    }
                    Some(command) => println!(
                        "registered program bot {:?} playing {}: {command} in {}",
                        a.name,
                        game.store(),
                        registry.describe()
                    ),
                }
            }
            BotsCommand::Rotate(a) => {
                let mut registry = Registry::open(&a.registry).await?;
                let rotated = registry.rotate(&a.name).await?;
                println!(
                    "new token for {:?} (shown once; the old one no longer works and its sessions end within seconds):",
                    a.name
                );
                println!("{}", rotated.token);
            }
            BotsCommand::Remove(a) => {
                let mut registry = Registry::open(&a.registry).await?;
                registry.remove(&a.name).await?;
                println!(
                    "removed bot {:?} from {}; its sessions end within seconds",
                    a.name,
                    registry.describe()
                );
            }
            BotsCommand::List(a) => {
                let mut registry = Registry::open(&a).await?;
                let bots = registry.list().await?;
                if bots.is_empty() {
                    println!("no bots registered in {}", registry.describe());
                }
                for b in bots {
                    let kind = match b.kind() {
                        v1::BotKind::Program => format!(
                            "program: {} (plays {}){}",
                            b.command,
                            arena_games::GameKind::from_wire(&b.game)
                                .map_or_else(|_| b.game.clone(), |g| g.name().to_string()),
                            if b.workdir.is_empty() {
                                String::new()
                            } else {
                                format!(", in {}", b.workdir)
                            }
                        ),
                        _ => "remote".to_string(),
                    };
                    let clock = match b.decision_ms {
                        0 => String::new(),
                        _ => format!(
                            "; {} (its own)",
                            clock_phrase(b.decision_ms, b.later_decision_ms)
                        ),
                    };
                    println!("{:<20} {kind}{clock}", b.name);
                }
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn program_paths_are_made_absolute_and_must_name_an_executable() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().to_path_buf();
        std::fs::create_dir(cwd.join("bots")).unwrap();
        let bot = cwd.join("bots/my bot");
        std::fs::write(&bot, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(cwd.join("bot.py"), "").unwrap();
        assert_eq!(
            resolve_program("'./bots/my bot' --fast 3", &cwd).unwrap(),
            format!("'{}' --fast 3", bot.display())
        );
        assert_eq!(
            resolve_program("python3 bot.py --level 2", &cwd).unwrap(),
            format!("python3 {}/bot.py --level 2", cwd.display())
        );
        // A bare program name is bot-host's PATH's to find; arguments naming nothing stay.
        assert_eq!(
            resolve_program("python3 -m mybot", &cwd).unwrap(),
            "python3 -m mybot"
        );
        let e = resolve_program("./missing", &cwd).unwrap_err().to_string();
        assert!(e.contains("no program \"./missing\""), "{e}");
        let e = resolve_program("./bot.py", &cwd).unwrap_err().to_string();
        assert!(
            e.contains("not executable") && e.contains("python3 ./bot.py"),
            "{e}"
        );
        let e = resolve_program("./bots", &cwd).unwrap_err().to_string();
        assert!(e.contains("not a file"), "{e}");
        assert!(resolve_program("python3 'bot.py", &cwd).is_err());
        // Absolute paths are kept as given, symlinks and all.
        std::os::unix::fs::symlink(&bot, cwd.join("link")).unwrap();
        let link = cwd.join("link").display().to_string();
        assert_eq!(resolve_program(&link, &cwd).unwrap(), link);
    }
}
