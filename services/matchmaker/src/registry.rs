//! The bot registry (`arena.v1.BotRegistry`, operators only): registering, listing, re-keying and
//! removing bots through a running matchmaker, so `arena bots …` works while `arena standalone`
//! holds its embedded store, and against a cluster without the store's credentials. `arena bots`
//! on a store it opens itself calls the same functions: what a bot's name and command may be is
//! decided here only.
//!
//! Operator tokens (`arena operators …`) are managed here too, through the same service, so that
//! an operator can issue and revoke them while the store is held ([`add_operator`],
//! [`list_operators`], [`remove_operator`], over `arena_auth::operators`).
//!
//! A remote bot's token is drawn here and answered once; only its SHA-256 is stored. bot-host
//! re-reads a bot's record at every presence refresh, so a rotated or removed bot's sessions end
//! within seconds wherever they are.

use std::sync::Arc;

use arena_games::GameKind;
use arena_proto::v1;
use arena_proto::v1::bot_registry_server::{BotRegistry, BotRegistryServer};
use arena_serve::ApiError;
use arena_store::{BotKind, BotRecord, Game, Store};
use tonic::{Request, Response, Status};

use crate::spec::MAX_DECISION_MS;

/// Checks a new bot's name: seats name bots by these strings, so a registered bot must not
/// shadow a built-in bot of any game nor look like a program spec or a list.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let quoted = arena_proto::text::quote(name);
    for game in GameKind::all() {
        if let Some(Ok(spec)) = game.builtin(name) {
            return Err(ApiError::invalid(
                "name",
                format!(
                    "{quoted} is the name of a built-in {} bot ({spec}); choose another name",
                    game.title()
                ),
            ));
        }
    }
    if name.trim().is_empty()
        || name.contains(':')
        || name.contains(',')
        || name.len() > arena_store::MAX_BOT_NAME_BYTES
        || arena_proto::text::check_shown(name).is_err()
    {
        return Err(ApiError::invalid(
            "name",
            format!(
                "bot name {quoted} must be 1 to {} bytes, with no ':', ',', control or format \
                 (bidirectional, zero-width) characters",
                arena_store::MAX_BOT_NAME_BYTES
            ),
        ));
    }
    Ok(())
}

/// Checks a program bot's command line: words a shell would split, whose program is an
/// absolute path or a bare name bot-host looks up on its PATH. bot-host starts every program in a
/// directory of its own, so a relative path names nothing there.
pub fn check_program(command: &str) -> Result<arena_line::CmdSpec, ApiError> {
    let spec = arena_line::CmdSpec::parse(command).map_err(|e| ApiError::invalid("program", e))?;
    let program = std::path::Path::new(spec.program());
    if spec.program().contains('/') && !program.is_absolute() {
        return Err(ApiError::invalid(
            "program",
            format!(
                "{} is a relative path, but bot-host runs programs in a directory of its own: \
                 give an absolute path (`arena bots add --program` makes the paths it is given \
                 absolute)",
                arena_proto::text::quote(spec.program())
            ),
        ));
    }
    Ok(spec)
}

/// Checks a program bot's working directory: empty (a fresh one per process) or an absolute
/// path of at most [`MAX_WORKDIR_BYTES`] without control characters. Whether it exists is for
/// bot-host's machine to say when it starts the program.
pub fn check_workdir(workdir: &str) -> Result<Option<String>, ApiError> {
    if workdir.is_empty() {
        return Ok(None);
    }
    let bad = |why: &str| {
        Err(ApiError::invalid(
            "workdir",
            format!("{} {why}", arena_proto::text::quote(workdir)),
        ))
    };
    if workdir.len() > MAX_WORKDIR_BYTES {
        return bad(&format!("is longer than {MAX_WORKDIR_BYTES} bytes"));
    }
    if workdir.chars().any(char::is_control) {
        return bad("holds a control character");
    }
    if !std::path::Path::new(workdir).is_absolute() {
        return bad("is not an absolute path (bot-host starts programs there, not here)");
    }
    Ok(Some(workdir.to_string()))
}

/// The longest working directory a program bot may have, in bytes.
pub const MAX_WORKDIR_BYTES: usize = 4096;

/// A bot's own decision limit as registered (at most what a competition's clock may say,
/// [`MAX_DECISION_MS`]), or why it cannot be, naming the request's `field`.
fn check_decision_ms(field: &str, ms: u32) -> Result<u32, ApiError> {
    if ms > MAX_DECISION_MS {
        return Err(ApiError::invalid(
            field,
            format!("{ms} ms is more than the longest a bot may have, {MAX_DECISION_MS} ms"),
        ));
    }
    Ok(ms)
}

/// A registered bot, with its token when one was just drawn.
#[derive(Debug)]
pub struct Registered {
    /// The record as stored.
    pub bot: BotRecord,
    /// A remote bot's new token (shown once; the store keeps its hash).
    pub token: Option<String>,
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The store's name of the game a request names (empty: the platform's default game).
fn store_game(game: &str) -> Result<Game, ApiError> {
    GameKind::from_wire(game)
        .map(Game::from)
        .map_err(|why| ApiError::invalid("game", why))
}

fn token() -> Result<(String, String), ApiError> {
    arena_auth::token::issue_token()
        .map_err(|e| ApiError::Unavailable(format!("drawing a token: {e}")))
}

/// Registers the bot `req` describes: a remote bot (no program) gets a token.
pub async fn add(store: &dyn Store, req: &v1::AddBotRequest) -> Result<Registered, ApiError> {
    check_name(&req.name)?;
    let (kind, token) = if req.program.trim().is_empty() {
        if !req.workdir.is_empty() {
            return Err(ApiError::invalid(
                "workdir",
                "is for program bots; a remote bot runs where its owner runs it",
            ));
        }
        if !req.game.is_empty() {
            return Err(ApiError::invalid(
                "game",
                "is for program bots; a remote bot says which games it plays in its Hello",
            ));
        }
        let (token, hash) = token()?;
        (BotKind::Remote, Some((token, hash)))
    } else {
        let spec = check_program(&req.program)?;
        let game = GameKind::from_wire(&req.game).map_err(|why| ApiError::invalid("game", why))?;
        game.check_protocol(spec.protocol())
            .map_err(|why| ApiError::invalid("program", why))?;
        (
            BotKind::Program {
                game: store_game(&req.game)?,
                command: req.program.clone(),
                workdir: check_workdir(&req.workdir)?,
                cpu_seconds: req.cpu_seconds,
                memory_mb: req.memory_mb,
            },
            None,
        )
    };
    let bot = BotRecord {
        name: req.name.clone(),
        kind,
        token_sha256: token.as_ref().map(|(_, h)| h.clone()),
        max_tables: req.max_tables,
        created_unix_ms: now_ms(),
        decision_ms: check_decision_ms("decision_ms", req.decision_ms)?,
        later_decision_ms: check_decision_ms("later_decision_ms", req.later_decision_ms)?,
    };
    if bot.later_decision_ms != 0 && bot.decision_ms == 0 {
        return Err(ApiError::invalid(
            "later_decision_ms",
            "needs decision_ms: a bot's later decisions differ from its first only when it has \
             a limit of its own",
        ));
    }
    if !store.add_bot(&bot).await? {
        return Err(ApiError::AlreadyExists(format!(
            "a bot named {} is already registered",
            arena_proto::text::quote(&req.name)
        )));
    }
    tracing::info!(bot = %bot.name, remote = token.is_some(), "bot registered");
    Ok(Registered {
        bot,
        token: token.map(|(t, _)| t),
    })
}

fn not_found(name: &str) -> ApiError {
    ApiError::NotFound(format!(
        "no bot named {} is registered",
        arena_proto::text::quote(name)
    ))
}

/// Gives remote bot `name` a new token; the old one stops working.
pub async fn rotate(store: &dyn Store, name: &str) -> Result<Registered, ApiError> {
    let Some(mut bot) = store.bot(name).await? else {
        return Err(not_found(name));
    };
    if !matches!(bot.kind, BotKind::Remote) {
        return Err(ApiError::FailedPrecondition(format!(
            "{} is a program bot: it has no token (bot-host starts it itself)",
            arena_proto::text::quote(name)
        )));
    }
    let (token, hash) = token()?;
    bot.token_sha256 = Some(hash);
    if !store.update_bot(&bot).await? {
        return Err(ApiError::Aborted(format!(
            "bot {} was removed meanwhile",
            arena_proto::text::quote(name)
        )));
    }
    tracing::info!(bot = %name, "bot token rotated");
    Ok(Registered {
        bot,
        token: Some(token),
    })
}

/// Unregisters bot `name`.
pub async fn remove(store: &dyn Store, name: &str) -> Result<(), ApiError> {
    if !store.remove_bot(name).await? {
        return Err(not_found(name));
    }
    tracing::info!(bot = %name, "bot removed");
    Ok(())
}

/// Every registered bot, by name.
pub async fn list(store: &dyn Store) -> Result<Vec<BotRecord>, ApiError> {
    let mut bots = store.bots().await?;
    bots.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(bots)
}

/// A record as the protocol shows it (never its token's hash).
pub fn wire(bot: &BotRecord) -> v1::RegisteredBot {
    let mut out = v1::RegisteredBot {
        name: bot.name.clone(),
        kind: v1::BotKind::Remote as i32,
        max_tables: bot.max_tables,
        created_unix_ms: bot.created_unix_ms,
        decision_ms: bot.decision_ms,
        later_decision_ms: bot.later_decision_ms,
        ..Default::default()
    };
    if let BotKind::Program {
        game,
        command,
        cpu_seconds,
        memory_mb,
        workdir,
    } = &bot.kind
    {
        out.kind = v1::BotKind::Program as i32;
        out.game = game.name().into();
        out.command = command.clone();
        out.workdir = workdir.clone().unwrap_or_default();
        out.cpu_seconds = *cpu_seconds;
        out.memory_mb = *memory_mb;
    }
    out
}

fn auth_error(e: arena_auth::AuthError) -> ApiError {
    match e {
        arena_auth::AuthError::Invalid(m) => ApiError::invalid("name", m),
        arena_auth::AuthError::Store(e) => e.into(),
        e => ApiError::Internal(e.to_string()),
    }
}

/// Issues a token for a new operator `name` (shown in the answer only).
pub async fn add_operator(
    store: &dyn Store,
    name: &str,
) -> Result<v1::OperatorTokenResponse, ApiError> {
    let issued = arena_auth::operators::add(store, name)
        .await
        .map_err(auth_error)?;
    Ok(v1::OperatorTokenResponse {
        name: name.to_string(),
        id: issued.id,
        token: issued.token.expose().to_string(),
    })
}

/// Every operator token (never the token itself), by name then id.
pub async fn list_operators(store: &dyn Store) -> Result<Vec<v1::OperatorToken>, ApiError> {
    let mut out: Vec<v1::OperatorToken> = arena_auth::operators::list(store)
        .await
        .map_err(auth_error)?
        .into_iter()
        .map(|(id, r)| v1::OperatorToken {
            name: r.name,
            id,
            created_unix_ms: r.created_unix_ms,
        })
        .collect();
    out.sort_by(|a, b| (&a.name, &a.id).cmp(&(&b.name, &b.id)));
    Ok(out)
}

/// Revokes every token of `name`: how many; `NotFound` if it had none.
pub async fn remove_operator(store: &dyn Store, name: &str) -> Result<u32, ApiError> {
    let n = arena_auth::operators::remove(store, name)
        .await
        .map_err(auth_error)?;
    if n == 0 {
        return Err(ApiError::NotFound(format!(
            "no operator named {}",
            arena_proto::text::quote(name)
        )));
    }
    Ok(u32::try_from(n).unwrap_or(u32::MAX))
}

/// The gRPC service.
#[derive(Clone)]
pub struct BotRegistryService {
    store: Arc<dyn Store>,
}

impl BotRegistryService {
    /// A registry on `store`.
    pub fn new(store: Arc<dyn Store>) -> BotRegistryService {
        BotRegistryService { store }
    }

    /// The tonic server.
    pub fn into_server(self) -> BotRegistryServer<BotRegistryService> {
        BotRegistryServer::new(self)
    }
}

fn answer(r: Registered) -> v1::BotTokenResponse {
    v1::BotTokenResponse {
        bot: Some(wire(&r.bot)),
        token: r.token.unwrap_or_default(),
    }
}

#[tonic::async_trait]
impl BotRegistry for BotRegistryService {
    async fn add_bot(
        &self,
        req: Request<v1::AddBotRequest>,
    ) -> Result<Response<v1::BotTokenResponse>, Status> {
        Ok(Response::new(answer(
            add(&*self.store, &req.into_inner()).await?,
        )))
    }

    async fn list_bots(
        &self,
        _: Request<v1::ListBotsRequest>,
    ) -> Result<Response<v1::ListBotsResponse>, Status> {
        Ok(Response::new(v1::ListBotsResponse {
            bots: list(&*self.store).await?.iter().map(wire).collect(),
        }))
    }

    async fn rotate_bot_token(
        &self,
        req: Request<v1::BotNameRequest>,
    ) -> Result<Response<v1::BotTokenResponse>, Status> {
        Ok(Response::new(answer(
            rotate(&*self.store, &req.into_inner().name).await?,
        )))
    }

    async fn remove_bot(
        &self,
        req: Request<v1::BotNameRequest>,
    ) -> Result<Response<v1::RemoveBotResponse>, Status> {
        remove(&*self.store, &req.into_inner().name).await?;
        Ok(Response::new(v1::RemoveBotResponse {}))
    }

    async fn add_operator(
        &self,
        req: Request<v1::OperatorNameRequest>,
    ) -> Result<Response<v1::OperatorTokenResponse>, Status> {
        let name = req.into_inner().name;
        let answer = add_operator(&*self.store, &name).await?;
        tracing::info!(operator = %name, id = %answer.id, "operator token issued");
        Ok(Response::new(answer))
    }

    async fn list_operators(
        &self,
        _: Request<v1::ListOperatorsRequest>,
    ) -> Result<Response<v1::ListOperatorsResponse>, Status> {
        Ok(Response::new(v1::ListOperatorsResponse {
            operators: list_operators(&*self.store).await?,
        }))
    }

    async fn remove_operator(
        &self,
        req: Request<v1::OperatorNameRequest>,
    ) -> Result<Response<v1::RemoveOperatorResponse>, Status> {
        let name = req.into_inner().name;
        let revoked = remove_operator(&*self.store, &name).await?;
        tracing::info!(operator = %name, revoked, "operator tokens revoked");
        Ok(Response::new(v1::RemoveOperatorResponse { revoked }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_built_in_bots_lists_and_programs_are_refused() {
        for bad in [
            "expert",
            "greedy",
            "ladder:3/5",
            "a,b",
            "cmd:x",
            "",
            " ",
            "a\nb",
        ] {
            let e = check_name(bad).unwrap_err().to_string();
            assert!(e.starts_with("name"), "{bad:?}: {e}");
        }
        assert!(check_name(&"x".repeat(65)).is_err());
        check_name("mybot").unwrap();
        check_name(&"x".repeat(64)).unwrap();
    }

    #[test]
    fn a_program_is_an_absolute_path_or_a_name_on_the_path() {
        check_program("python3 ./bot.py").unwrap();
        check_program("/opt/bots/mybot --fast").unwrap();
        let e = check_program("./mybot").unwrap_err().to_string();
        assert!(e.contains("relative path") && e.contains("absolute"), "{e}");
        assert!(check_program("bots/mybot").is_err());
        assert!(check_program("python3 'bot.py").is_err());
        assert!(check_program("   ").is_err());
    }

    #[test]
    fn a_workdir_is_empty_or_an_absolute_path() {
        assert_eq!(check_workdir("").unwrap(), None);
        assert_eq!(
            check_workdir("/srv/bots/b").unwrap().as_deref(),
            Some("/srv/bots/b")
        );
        let e = check_workdir("bots/b").unwrap_err().to_string();
        assert!(
            e.contains("workdir") && e.contains("not an absolute path"),
            "{e}"
        );
        let e = check_workdir("/a\nb").unwrap_err().to_string();
        assert!(e.contains("control character"), "{e}");
        assert!(check_workdir(&format!("/{}", "x".repeat(5000))).is_err());
    }

    #[tokio::test]
    async fn a_program_bot_with_a_protocol_its_game_lacks_is_refused_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = arena_store::EmbeddedStore::open(dir.path()).unwrap();
        let req = |program: &str, game: &str| v1::AddBotRequest {
            name: "bz".into(),
            program: program.into(),
            game: game.into(),
            ..Default::default()
        };
        let e = add(&store, &req("botzone:python3 /b.py", "mahjong"))
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("program") && e.contains("\"botzone\""), "{e}");
        let e = add(&store, &req("nosuch:python3 /b.py", "ddz"))
            .await
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"nosuch\""), "{e}");
    }

    #[tokio::test]
    async fn bots_are_added_listed_rotated_and_removed_once() {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn Store> = Arc::new(arena_store::EmbeddedStore::open(dir.path()).unwrap());
        let remote = add(
            &*store,
            &v1::AddBotRequest {
                name: "alice".into(),
                max_tables: 3,
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let token = remote.token.clone().unwrap();
        assert_eq!(
            remote.bot.token_sha256.as_deref(),
            Some(arena_auth::token::hash_token(&token).as_str())
        );
        let e = add(
            &*store,
            &v1::AddBotRequest {
                name: "alice".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
        assert!(matches!(e, ApiError::AlreadyExists(_)), "{e:?}");
        let program = add(
            &*store,
            &v1::AddBotRequest {
                name: "tiles".into(),
                program: "/usr/bin/python3 /opt/mj.py".into(),
                game: "mahjong".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        assert!(program.token.is_none());
        let e = add(
            &*store,
            &v1::AddBotRequest {
                name: "bob".into(),
                game: "mahjong".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
        assert!(e.to_string().starts_with("game"), "{e}");
        let listed: Vec<v1::RegisteredBot> =
            list(&*store).await.unwrap().iter().map(wire).collect();
        assert_eq!(
            listed
                .iter()
                .map(|b| (b.name.as_str(), b.kind(), b.game.as_str(), b.max_tables))
                .collect::<Vec<_>>(),
            [
                ("alice", v1::BotKind::Remote, "", 3),
                ("tiles", v1::BotKind::Program, "mahjong", 0)
            ]
        );
        assert_eq!(listed[1].command, "/usr/bin/python3 /opt/mj.py");
        let rotated = rotate(&*store, "alice").await.unwrap().token.unwrap();
        assert_ne!(rotated, token);
        let stored = store.bot("alice").await.unwrap().unwrap();
        assert_eq!(
            stored.token_sha256.unwrap(),
            arena_auth::token::hash_token(&rotated)
        );
        assert!(matches!(
            rotate(&*store, "tiles").await.unwrap_err(),
            ApiError::FailedPrecondition(_)
        ));
        remove(&*store, "alice").await.unwrap();
        assert!(matches!(
            remove(&*store, "alice").await.unwrap_err(),
            ApiError::NotFound(_)
        ));
        assert!(matches!(
            rotate(&*store, "alice").await.unwrap_err(),
            ApiError::NotFound(_)
        ));
    }

    /// A bot's own decision limit goes into the store and comes back in listings; one too long
    /// is refused naming the field; a record written before the limit was kept reads as none.
    #[tokio::test]
    async fn a_bots_own_decision_limit_round_trips_and_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let store: Arc<dyn Store> = Arc::new(arena_store::EmbeddedStore::open(dir.path()).unwrap());
        let req = |name: &str, decision_ms: u32| v1::AddBotRequest {
            name: name.into(),
            program: "botzone:/usr/bin/python3 /opt/bz.py".into(),
            decision_ms,
            ..Default::default()
        };
        let added = add(
            &*store,
            &v1::AddBotRequest {
                later_decision_ms: 4000,
                ..req("py", 6000)
            },
        )
        .await
        .unwrap();
        assert_eq!(
            (added.bot.decision_ms, added.bot.later_decision_ms),
            (6000, 4000)
        );
        add(&*store, &req("plain", 0)).await.unwrap();
        let stored = store.bot("py").await.unwrap().unwrap();
        assert_eq!((stored.decision_ms, stored.later_decision_ms), (6000, 4000));
        let listed: Vec<(String, u32, u32)> = list(&*store)
            .await
            .unwrap()
            .iter()
            .map(wire)
            .map(|b| (b.name, b.decision_ms, b.later_decision_ms))
            .collect();
        assert_eq!(
            listed,
            [("plain".to_string(), 0, 0), ("py".to_string(), 6000, 4000)]
        );
        let e = add(
            &*store,
            &v1::AddBotRequest {
                later_decision_ms: 4000,
                ..req("later", 0)
            },
        )
        .await
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("later_decision_ms: needs decision_ms"), "{e}");
        let e = add(
            &*store,
            &v1::AddBotRequest {
                later_decision_ms: MAX_DECISION_MS + 1,
                ..req("later", 6000)
            },
        )
        .await
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("later_decision_ms: 600001 ms"), "{e}");
        let e = add(&*store, &req("slow", MAX_DECISION_MS + 1))
            .await
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("decision_ms: 600001 ms is more than"), "{e}");
        add(&*store, &req("slowest", MAX_DECISION_MS))
            .await
            .unwrap();
        let mut old = serde_json::to_value(&added.bot).unwrap();
        let fields = old.as_object_mut().unwrap();
        fields.remove("decision_ms").unwrap();
        fields.remove("later_decision_ms").unwrap();
        let old: BotRecord = serde_json::from_value(old).unwrap();
        assert_eq!((old.decision_ms, old.later_decision_ms), (0, 0));
    }
}
