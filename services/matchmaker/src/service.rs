//! The gRPC service `arena.v1.Matchmaker`: creating, reading, watching and cancelling
//! competitions, their replays, and the ladder's leaderboard.

use std::collections::HashSet;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use arena_games::GameKind;
// Transitional: competition planning moves behind the registry next.
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::{Matchmaker, MatchmakerServer};
use arena_serve::{ApiError, store_status};
use arena_store::visibility;
use arena_store::{Store, Topic, Watcher};
use prost::Message;
use tokio_stream::Stream;
use tonic::{Request, Response, Status};
use tracing::Instrument;

use crate::plan::{enqueue, jobs};
use crate::spec::{DEFAULT_MAX_TABLES, MAX_NAME_BYTES, check, game_of};
use crate::standings::{Fold, standings};
use crate::{COMPETITION, FINAL_STANDINGS, ladder, now_ms, state_name, state_of};

/// Why the program bot `command` could not start in the default sandbox of this machine, if it
/// could not (see `arena_sandbox::Sandbox::check_program`).
fn program_problem(command: &str) -> Option<String> {
    let spec = match arena_line::CmdSpec::parse(command) {
        Ok(spec) => spec,
        Err(e) => return Some(e.to_string()),
    };
    let sandbox = arena_sandbox::Sandbox::new(arena_sandbox::Policy::default());
    sandbox
        .check_program(spec.program(), spec.args())
        .err()
        .map(|e| e.to_string())
}

/// A competition as it is served: while it runs, without its plan seed (with the library it
/// would tell which deals are still to be dealt).
fn served(mut comp: v1::Competition) -> v1::Competition {
    if state_of(&comp) == v1::CompetitionState::Running
        && let Some(spec) = comp.spec.as_mut()
    {
        spec.seed = 0;
    }
    comp
}

/// The result or replay of table `id`, with `labels`, may be shown: else `FAILED_PRECONDITION`.
async fn check_shown(
    store: &dyn Store,
    id: &str,
    labels: &std::collections::HashMap<String, String>,
) -> Result<(), ApiError> {
    match visibility::may_show(store, labels).await? {
        Ok(()) => Ok(()),
        Err(why) => Err(ApiError::FailedPrecondition(format!(
            "table {id:?} is not shown yet: {why}"
        ))),
    }
}

/// The message a watch stream ends with when the matchmaker shuts down (status UNAVAILABLE).
/// Competitions are not stopped by it: their tables go on at the referees.
pub const WATCH_SHUTDOWN: &str = "the matchmaker is shutting down; the competition goes on, watch it again once the matchmaker is back";

/// The gRPC service.
#[derive(Clone)]
pub struct MatchmakerService {
    store: Arc<dyn Store>,
    max_tables: u64,
    /// True once the server is shutting down: watch streams end then, or their clients would
    /// hold the graceful stop open for as long as they follow a competition.
    closing: Option<tokio::sync::watch::Receiver<bool>>,
    /// How long a watch stream waits without a change signal before it reads again anyway.
    rescan: Duration,
}

/// How long a watch stream waits without a change signal before reading again anyway: a
/// safety net only (changes wake it at once), so long.
pub const WATCH_RESCAN: Duration = Duration::from_secs(30);

/// The shortest time between two reads of a watched competition: a burst of results makes one
/// update.
const WATCH_MIN_GAP: Duration = Duration::from_millis(100);

impl MatchmakerService {
    /// A service on `store`, competitions of at most [`DEFAULT_MAX_TABLES`] tables.
    pub fn new(store: Arc<dyn Store>) -> MatchmakerService {
        MatchmakerService {
            store,
            max_tables: DEFAULT_MAX_TABLES,
            closing: None,
            rescan: WATCH_RESCAN,
        }
    }

    /// Ends its watch streams (with UNAVAILABLE, saying why) once `closing` turns true.
    pub fn closing_on(mut self, closing: tokio::sync::watch::Receiver<bool>) -> MatchmakerService {
        self.closing = Some(closing);
        self
    }

    /// Watch streams read again after `every` without a change signal (default
    /// [`WATCH_RESCAN`]).
    pub fn with_rescan(mut self, every: Duration) -> MatchmakerService {
        self.rescan = every;
        self
    }

    /// Caps the tables of one competition at `max`.
    pub fn with_max_tables(mut self, max: u64) -> MatchmakerService {
        self.max_tables = max;
        self
    }

    /// Every participant and the farmer bot must be a built-in bot of the competition's game
    /// or a registered one: a name nobody can play would forfeit every table (and a forfeit
    /// scores better than a loss).
    /// Checks that every participant (and farmer) is a built-in or registered bot; returns the
    /// warnings for the creator: registered remote bots that are not connected now.
    async fn check_bots(&self, spec: &v1::CompetitionSpec) -> Result<Vec<String>, ApiError> {
        let mut warnings = Vec::new();
        let game = game_of(spec)?;
        let names = game
            .game()
            .competitions()
            .map(|c| c.bots(spec))
            .unwrap_or_default();
        for (field, name) in names {
            let name = name.trim();
            // Each game reads its own built-in names (`random` is a bot of both).
            let is_cmd = name.split(':').next().is_some_and(|h| h.trim() == "cmd");
            let builtin_error = match game.builtin(name) {
                Some(Ok(_)) => continue,
                _ if is_cmd => {
                    return Err(ApiError::invalid(
                        field,
                        format!(
                            "{} names a command; register the program as a bot (`arena bots add NAME --program …`) and name it",
                            arena_proto::text::quote(name)
                        ),
                    ));
                }
                Some(Err(e)) => e,
                None => format!("built-in bots are {}", game.builtin_help()),
            };
            let Some(registered) = self.store.bot(name).await? else {
                return Err(ApiError::FailedPrecondition(format!(
                    "{field}: {} is neither a built-in bot nor a registered bot ({builtin_error}); \
                     register it with `arena bots add`",
                    arena_proto::text::quote(name)
                )));
            };
            if let arena_store::BotKind::Program { command, .. } = &registered.kind
                && let Some(why) = program_problem(command)
            {
                // A warning, not a refusal: the bot-host that runs it may be another machine,
                // with read paths of its own (--sandbox-read) this one does not know.
                warnings.push(format!(
                    "{field}: program bot {} would not start on this machine (as a bot-host here \
                     with default flags would run it): {why}",
                    arena_proto::text::quote(name)
                ));
            }
            if registered.kind == arena_store::BotKind::Remote
                && self.store.presence(name).await?.is_empty()
            {
                let warning = format!(
                    "{field}: remote bot {} is not connected now: every table it is seated at \
                     waits for it, and it loses each one it does not connect in time for",
                    arena_proto::text::quote(name)
                );
                if !warnings.contains(&warning) {
                    warnings.push(warning);
                }
            }
        }
        Ok(warnings)
    }

    /// The tonic server.
    pub fn into_server(self) -> MatchmakerServer<MatchmakerService> {
        MatchmakerServer::new(self)
    }

    async fn create(
        &self,
        spec: Option<v1::CompetitionSpec>,
    ) -> Result<Response<v1::Competition>, ApiError> {
        let checked = check(spec, self.max_tables)?;
        let warnings = self.check_bots(&checked.spec).await?;
        let name = checked.spec.name.clone();
        if self.store.record(COMPETITION, &name).await?.is_some() {
            return Err(ApiError::AlreadyExists(format!(
                "competition {name:?} exists"
            )));
        }
        if visibility::is_ladder_competition(&name) {
            return Err(ApiError::invalid(
                "spec.name",
                format!("{name:?} is the ladder's name; choose another"),
            ));
        }
        // Tables submitted under this name before it was a competition's: its tables' ids
        // would meet their results.
        let stray = self.store.result_count(&name).await?;
        if stray > 0 {
            return Err(ApiError::FailedPrecondition(format!(
                "competition {name:?}: {stray} submitted table(s) have results under this name \
                 already; choose another name"
            )));
        }
        let jobs = jobs(&*self.store, &checked).await?;
        // Library deals are claimed so no other competition deals them; fresh deals come from
        // the competition's own seed and claim none.
        let mut ids: Vec<String> = if checked.competitions.library(&checked.spec).is_some() {
            jobs.iter()
                .filter_map(|j| j.placement.as_deref().map(|p| p.deal_id.clone()))
                .filter(|id| !id.is_empty())
                .collect()
        } else {
            Vec::new()
        };
        ids.sort_unstable();
        ids.dedup();
        let claimed = self.store.claim_deals(&name, &ids).await?;
        if claimed.iter().any(|c| !c) {
            return Err(ApiError::Aborted(
                "another competition claimed some of the planned deals meanwhile; create again"
                    .into(),
            ));
        }
        // Fresh deals from a source the deal library may have measured: its records of them
        // stay held until the competition ends.
        if let Some(source) = checked.competitions.fresh_deals(&checked.spec) {
            let count = jobs
                .iter()
                .filter_map(|j| j.placement.as_deref().map(|p| p.deal_id.as_str()))
                .collect::<HashSet<_>>()
                .len() as u64;
            let fresh = visibility::FreshDeals { source, count };
            // Another running competition dealing the same cards would show them with its
            // finished tables while this one's are still played.
            let holders = visibility::holders(&*self.store).await?;
            if let Some((id, other)) = (0..count)
                .map(|i| fresh.source.deal_id(i))
                .find_map(|id| holders.get(&id).map(|h| (id, h)))
            {
                return Err(ApiError::FailedPrecondition(format!(
                    "competition {name:?}: seed {} deals the cards of library deal {id}, which \
                     running competition {other:?} deals too; choose another seed",
                    checked.spec.seed
                )));
            }
            visibility::put_fresh_deals(&*self.store, &name, &fresh).await?;
        }
        let comp = v1::Competition {
            spec: Some(checked.spec.clone()),
            state: state_name(v1::CompetitionState::Running).into(),
            status: v1::CompetitionState::Running as i32,
            tables_total: jobs.len() as u64,
            created_unix_ms: now_ms(),
            ..Default::default()
        };
        if !self
            .store
            .swap_record(COMPETITION, &name, None, &comp.encode_to_vec())
            .await?
        {
            return Err(ApiError::AlreadyExists(format!(
                "competition {name:?} exists"
            )));
        }
        enqueue(&*self.store, &checked).await?;
        arena_telemetry::metrics::metrics()
            .competitions_created
            .add(1, &[]);
        tracing::info!(competition = %name, tables = comp.tables_total, "competition created");
        Ok(Response::new(v1::Competition {
            warnings,
            ..served(comp)
        }))
    }

    async fn load(&self, name: &str) -> Result<v1::Competition, ApiError> {
        let bytes = self
            .store
            .record(COMPETITION, name)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no competition {name:?}")))?;
        v1::Competition::decode(bytes.as_slice())
            .map_err(|e| ApiError::Internal(format!("competition {name}: {e}")))
    }
}

type Boxed<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

#[tonic::async_trait]
impl Matchmaker for MatchmakerService {
    async fn create_competition(
        &self,
        req: Request<v1::CreateCompetitionRequest>,
    ) -> Result<Response<v1::Competition>, Status> {
        let span = tracing::info_span!("create_competition");
        // A caller's trace context makes the competition, and every table of it, part of its trace.
        arena_telemetry::set_parent(&span, req.metadata());
        self.create(req.into_inner().spec)
            .instrument(span)
            .await
            .map_err(Status::from)
    }

    async fn get_competition(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<v1::Competition>, Status> {
        Ok(Response::new(served(
            self.load(&req.into_inner().name).await?,
        )))
    }

    async fn list_competitions(
        &self,
        _: Request<v1::ListCompetitionsRequest>,
    ) -> Result<Response<v1::ListCompetitionsResponse>, Status> {
        let competitions = self
            .store
            .records(COMPETITION)
            .await
            .map_err(store_status)?
            .into_iter()
            .filter_map(|(_, b)| v1::Competition::decode(b.as_slice()).ok())
            .map(served)
            .collect();
        Ok(Response::new(v1::ListCompetitionsResponse { competitions }))
    }

    type WatchCompetitionStream = Boxed<v1::Standings>;

    async fn watch_competition(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<Self::WatchCompetitionStream>, Status> {
        let name = req.into_inner().name;
        // Made before the competition is first read: a result or a state change after that
        // read wakes the watchers, even one that lands before the first wait.
        let watchers = (
            self.store
                .watch(&Topic::Results(name.clone()))
                .map_err(store_status)?,
            self.store
                .watch(&Topic::Records(COMPETITION.to_string()))
                .map_err(store_status)?,
        );
        let comp = self.load(&name).await?;
        let fold = Fold::new(&comp)?;
        let svc = self.clone();
        let (tx, rx) = tokio::sync::mpsc::channel(8);
        tokio::spawn(svc.follow(name, fold, watchers, tx));
        Ok(Response::new(Box::pin(
            tokio_stream::wrappers::ReceiverStream::new(rx),
        )))
    }

    async fn get_standings(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<v1::Standings>, Status> {
        let comp = self.load(&req.into_inner().name).await?;
        Ok(Response::new(self.final_or_current(&comp).await?))
    }

    async fn cancel_competition(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<v1::Competition>, Status> {
        let name = req.into_inner().name;
        loop {
            let bytes = self
                .store
                .record(COMPETITION, &name)
                .await
                .map_err(store_status)?
                .ok_or_else(|| ApiError::NotFound(format!("no competition {name:?}")))?;
            let comp = v1::Competition::decode(bytes.as_slice())
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            if state_of(&comp) != v1::CompetitionState::Running {
                return Err(ApiError::FailedPrecondition(format!(
                    "competition {name:?} is {}",
                    state_name(state_of(&comp))
                ))
                .into());
            }
            let next = v1::Competition {
                state: state_name(v1::CompetitionState::Cancelled).into(),
                status: v1::CompetitionState::Cancelled as i32,
                finished_unix_ms: now_ms(),
                ..comp
            };
            if self
                .store
                .swap_record(COMPETITION, &name, Some(&bytes), &next.encode_to_vec())
                .await
                .map_err(store_status)?
            {
                visibility::mark_ended(
                    &*self.store,
                    &name,
                    state_name(v1::CompetitionState::Cancelled),
                )
                .await
                .map_err(store_status)?;
                arena_telemetry::metrics::metrics()
                    .competitions_finished
                    .add(
                        1,
                        &arena_telemetry::metrics::attr(
                            "state",
                            state_name(v1::CompetitionState::Cancelled),
                        ),
                    );
                return Ok(Response::new(served(next)));
            }
        }
    }

    type ExportReplaysStream = Boxed<v1::Replay>;

    async fn export_replays(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<Self::ExportReplaysStream>, Status> {
        let name = req.into_inner().name;
        let comp = self.load(&name).await?;
        if comp.pruned_unix_ms != 0 {
            return Err(ApiError::FailedPrecondition(format!(
                "the results and replays of competition {name:?} were deleted when its retention \
                 (the matchmaker's --competition-retention-days) had passed; its standings remain"
            ))
            .into());
        }
        let mut out = Vec::new();
        let mut ids: Vec<String> = self
            .store
            .results_for(&name)
            .await
            .map_err(store_status)?
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        ids.sort();
        let mut withheld = 0usize;
        for id in ids {
            if let Some(bytes) = self.store.replay(&id).await.map_err(store_status)? {
                let replay = v1::Replay::decode(bytes.as_slice())
                    .map_err(|e| ApiError::Internal(format!("replay {id}: {e}")))?;
                let labels = replay
                    .job
                    .as_ref()
                    .map(|j| j.labels.clone())
                    .unwrap_or_default();
                match check_shown(&*self.store, &id, &labels).await {
                    Ok(()) => out.push(Ok(replay)),
                    Err(ApiError::FailedPrecondition(_)) => withheld += 1,
                    Err(e) => return Err(e.into()),
                }
            }
        }
        if withheld > 0 {
            tracing::info!(competition = %name, withheld, "replays withheld: their deals are still being played");
        }
        Ok(Response::new(Box::pin(tokio_stream::iter(out))))
    }

    async fn get_replay(
        &self,
        req: Request<v1::GetTableRequest>,
    ) -> Result<Response<v1::Replay>, Status> {
        let id = req.into_inner().table_id;
        if id.is_empty() || id.chars().any(char::is_control) || id.len() > MAX_NAME_BYTES * 2 {
            return Err(ApiError::invalid("table_id", "must be a table id").into());
        }
        let bytes = self
            .store
            .replay(&id)
            .await
            .map_err(store_status)?
            .ok_or_else(|| ApiError::NotFound(format!("no replay for table {id:?}")))?;
        let replay =
            v1::Replay::decode(bytes.as_slice()).map_err(|e| ApiError::Internal(e.to_string()))?;
        let labels = replay
            .job
            .as_ref()
            .map(|j| j.labels.clone())
            .unwrap_or_default();
        check_shown(&*self.store, &id, &labels).await?;
        Ok(Response::new(replay))
    }

    async fn get_leaderboard(
        &self,
        req: Request<v1::LeaderboardRequest>,
    ) -> Result<Response<v1::Leaderboard>, Status> {
        let req = req.into_inner();
        let game = GameKind::from_wire(&req.game).map_err(|why| ApiError::invalid("game", why))?;
        if game.ladder().is_none() {
            return Err(ApiError::invalid("game", format!("{game} has no ladder")).into());
        }
        let size = ladder::page_size(req.limit)?;
        let start = ladder::page_start(&req.page_token)?;
        ladder::leaderboard(&*self.store, game, start, size)
            .await
            .map(Response::new)
            .map_err(|e| ApiError::from(e).into())
    }
}

impl MatchmakerService {
    /// Sends `name`'s standings to `tx` each time its results or state change, until it ends,
    /// the client goes, or the server shuts down (the client is told). Woken by the store's
    /// watch, not by a timer: an update follows a result as soon as it is written. Standings
    /// are folded incrementally (`fold`), each result once.
    async fn follow(
        self,
        name: String,
        mut fold: Fold,
        (mut results, mut records): (Watcher, Watcher),
        tx: tokio::sync::mpsc::Sender<Result<v1::Standings, Status>>,
    ) {
        let mut closing = self.closing.clone();
        let mut last_done = u64::MAX;
        loop {
            let started = tokio::time::Instant::now();
            let st = match self.load(&name).await {
                // While it runs, its standings change only with its results: counted first
                // (one cheap call), they are folded only when there are new ones.
                Ok(comp)
                    if state_of(&comp) == v1::CompetitionState::Running
                        && self.store.result_count(&name).await.ok() == Some(last_done) =>
                {
                    Ok(None)
                }
                Ok(comp) => match state_of(&comp) {
                    v1::CompetitionState::Finished => self.final_or_current(&comp).await,
                    _ => fold.update(&*self.store, &comp).await,
                }
                .map(|s| Some((s, state_of(&comp) != v1::CompetitionState::Running))),
                Err(e) => Err(e),
            };
            match st {
                Ok(Some((s, ended))) if s.tables_done != last_done || ended => {
                    last_done = s.tables_done;
                    if tx.send(Ok(s)).await.is_err() || ended {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    let _ = tx.send(Err(e.into())).await;
                    return;
                }
            }
            // A change is signalled by the write itself; the rescan after `self.rescan` is a
            // belt-and-braces pass for a signal that went astray (a store that lost its
            // subscription wakes its watchers anyway), so it can be long.
            let closed = async {
                match closing.as_mut() {
                    // A closing sender gone is a server gone: the stream ends with it.
                    Some(closing) => {
                        let _ = closing.wait_for(|c| *c).await;
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = results.changed() => {}
                () = records.changed() => {}
                () = tokio::time::sleep(self.rescan) => {}
                () = tx.closed() => return,
                () = closed => {
                    let _ = tx
                        .send(Err(ApiError::Unavailable(WATCH_SHUTDOWN.into()).into()))
                        .await;
                    return;
                }
            }
            // A burst of results makes one update, not one each: every update reads the
            // competition's results.
            tokio::time::sleep_until(started + WATCH_MIN_GAP).await;
        }
    }

    async fn final_or_current(&self, comp: &v1::Competition) -> Result<v1::Standings, ApiError> {
        let name = comp
            .spec
            .as_ref()
            .map(|s| s.name.clone())
            .unwrap_or_default();
        if state_of(comp) == v1::CompetitionState::Finished
            && let Some(bytes) = self.store.record(FINAL_STANDINGS, &name).await?
        {
            return v1::Standings::decode(bytes.as_slice())
                .map_err(|e| ApiError::Internal(e.to_string()));
        }
        standings(&*self.store, comp).await
    }
}
