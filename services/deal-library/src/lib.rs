//! The deal-library service (`arena.v1.DealLibrary`): the deal library behind gRPC, on any
//! [`Store`], measuring any game's deals through the difficulty hook its registration gives
//! (`Game::difficulty`, [`arena_games::difficulty`]); a panel of a game without one is refused
//! with `FAILED_PRECONDITION` naming the game.
//!
//! - **Measure** fans out: deals are cut into [`v1::GdiBatch`]es on the job stream, and any
//!   table-referee runs them on its in-process fast path, so adding referees adds throughput. The
//!   operation's progress is read back from the store (measured indices), so it survives a restart
//!   of this service.
//! - **Find** (on-demand generation) runs here, on worker threads.
//! - **Query**, **Claim**, **Export**, **Import**, **Stats** answer from the store; queries use an
//!   in-memory index built from the panel's records.
//!
//! Long operations return an [`v1::Operation`] at once; poll it with `GetOperation` or stream it
//! with `WatchOperation`.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arena_games::GameKind;
use arena_games::difficulty::{self, FindTarget, LibraryIndex, MeasuringPanel, PanelSpecError};
use arena_games::difficulty::{CANCELLED_OPERATION_KIND, Progress};
use arena_proto::v1;
use arena_proto::v1::deal_library_server::{DealLibrary, DealLibraryServer};
use arena_store::{DealRecord, DealSource, Store, Topic};
use arena_telemetry::metrics::{KeyValue, attr, metrics};
use prost::Message;
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status, Streaming};
use tracing::Instrument;

/// Deals per GDI batch when the request does not say.
pub const DEFAULT_BATCH: u32 = 200;
/// Most deals per GDI batch: what a referee takes.
pub use arena_games::difficulty::MAX_BATCH;
/// Most deals one measurement may cover.
pub const MAX_MEASURE: u64 = 10_000_000;
/// Most deals one on-demand generation may look for.
pub const MAX_FIND: u32 = 10_000;
/// Most deals one on-demand generation may try (and the default).
pub const MAX_TRIES: u64 = 1_000_000;
/// On-demand generations running at once; more are refused with `RESOURCE_EXHAUSTED`.
pub const MAX_CONCURRENT_FINDS: usize = 2;
/// Most records one import may carry: the whole import is checked before anything is written.
pub const MAX_IMPORT: u64 = 200_000;
/// Finished operations kept for `GetOperation`; older ones are forgotten.
const KEPT_OPERATIONS: usize = 1_000;
/// Longest GDI vector a request may give.
const MAX_DIMENSION: usize = 64;

type OpMap = Arc<Mutex<HashMap<String, v1::Operation>>>;

/// The service. Cheap to clone.
#[derive(Clone)]
pub struct DealLibraryService {
    store: Arc<dyn Store>,
    ops: OpMap,
    watch: tokio::sync::watch::Sender<u64>,
    threads: usize,
    next_op: Arc<AtomicU64>,
    /// The stop flags of running generations, by operation id.
    stops: Arc<Mutex<HashMap<String, Arc<AtomicBool>>>>,
    finds: Arc<tokio::sync::Semaphore>,
}

use arena_serve::{ApiError, store_status};

/// An operation kind's name in `Operation.kind` (and in ids and metrics).
pub fn operation_name(kind: v1::OperationKind) -> &'static str {
    match kind {
        v1::OperationKind::Measure => "measure",
        v1::OperationKind::Find => "find",
        v1::OperationKind::Unspecified => "operation",
    }
}

/// The measuring panel a request names, read by its game's difficulty hook (`panel.game`, empty
/// for the default game), with errors naming the field: `INVALID_ARGUMENT` for a panel that
/// does not read, `FAILED_PRECONDITION` naming the game when it has no measured difficulty.
pub fn panel(spec: Option<&v1::PanelSpec>) -> Result<Arc<dyn MeasuringPanel>, ApiError> {
    difficulty::panel_of_spec(spec).map_err(|e| match e {
        PanelSpecError::Invalid(m) => ApiError::Invalid(m),
        PanelSpecError::NoDifficulty(m) => ApiError::FailedPrecondition(m),
    })
}

/// The panel a Measure or Find request names, which must measure: a panel whose game's deals
/// are kept without a difficulty is refused with `FAILED_PRECONDITION`, saying why.
pub fn measuring_panel(spec: Option<&v1::PanelSpec>) -> Result<Arc<dyn MeasuringPanel>, ApiError> {
    let panel = panel(spec)?;
    match panel.unmeasured() {
        Some(why) => Err(ApiError::FailedPrecondition(format!("panel: {why}"))),
        None => Ok(panel),
    }
}

/// A stored deal record as the message Export sends.
pub fn record_msg(r: &DealRecord) -> v1::DealRecord {
    v1::DealRecord {
        id: r.id.clone(),
        game: r.game.name().to_string(),
        deal: r.deal.clone(),
        panel: r.panel.clone(),
        levels: r.levels.clone(),
        counts: r.counts.clone(),
        gdi: r.gdi.clone(),
        seed: r.source.map(|(s, _)| s.seed),
        bombs: r.source.and_then(|(s, _)| s.bombs.map(u32::from)),
        index: r.source.map(|(_, i)| i),
    }
}

/// Reads a record from an Import stream: its game (empty: the default game) must measure
/// difficulty, the deal must be one in the game's notation (checked by its difficulty hook), the
/// source both seed and index or neither, and the gdi values must follow from the counts over
/// the levels (to within 1e-6; the exact values are kept); errors name the field.
pub fn record_from(m: v1::DealRecord) -> Result<DealRecord, ApiError> {
    if m.id.len() > 256 || m.panel.len() > 256 {
        return Err(ApiError::OutOfRange("id/panel: at most 256 bytes".into()));
    }
    if m.levels.len() > MAX_DIMENSION + 1 {
        return Err(ApiError::OutOfRange(format!(
            "levels: at most {} values",
            MAX_DIMENSION + 1
        )));
    }
    if m.counts.len() != m.levels.len() || m.gdi.len() > MAX_DIMENSION {
        return Err(ApiError::invalid(
            "counts/gdi",
            format!(
                "{} levels need as many counts and fewer gdi values (got {} counts, {} gdi)",
                m.levels.len(),
                m.counts.len(),
                m.gdi.len()
            ),
        ));
    }
    let game = GameKind::from_wire(&m.game).map_err(|e| ApiError::invalid("game", e))?;
    let hook = game.difficulty().ok_or_else(|| {
        ApiError::FailedPrecondition(format!(
            "game: {} ({}) has no measured difficulty: the library holds none of its deals",
            game.name(),
            game.title()
        ))
    })?;
    let deal = hook
        .canonical_deal(&m.deal)
        .map_err(|e| ApiError::invalid("deal", e))?;
    let source = match (m.seed, m.index) {
        (Some(seed), Some(index)) => {
            let bombs = m
                .bombs
                .map(|b| u8::try_from(b).map_err(|_| ApiError::invalid("bombs", "too large")))
                .transpose()?;
            Some((DealSource { seed, bombs }, index))
        }
        (None, None) => None,
        _ => return Err(ApiError::invalid("seed/index", "give both or neither")),
    };
    let expected = difficulty::gdi(&m.counts);
    if m.levels.len() != m.counts.len()
        || expected.len() != m.gdi.len()
        || expected
            .iter()
            .zip(&m.gdi)
            .any(|(a, b)| !b.is_finite() || (a - b).abs() > 1e-6)
    {
        return Err(ApiError::invalid(
            "gdi",
            format!(
                "{:?} does not follow from counts {:?} over levels {:?}",
                m.gdi, m.counts, m.levels
            ),
        ));
    }
    Ok(DealRecord {
        id: m.id,
        game: game.into(),
        deal,
        source,
        panel: m.panel,
        levels: m.levels,
        counts: m.counts,
        // The values the counts give, not the sender's approximations of them: a stored gdi is
        // always a fraction in 0..=1 that follows exactly from the stored counts.
        gdi: expected,
    })
}

/// The sequence number at the end of an operation id (`measure-PID-N`).
fn op_number(id: &str) -> u64 {
    id.rsplit('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// A GDI centre and radius from a request: finite values in [0, 1], a positive radius.
fn check_centre(centre: &[f64], eps: f64) -> Result<(), ApiError> {
    if centre.len() > MAX_DIMENSION {
        return Err(ApiError::OutOfRange(format!(
            "centre: at most {MAX_DIMENSION} values"
        )));
    }
    if centre.iter().any(|x| !(0.0..=1.0).contains(x)) {
        return Err(ApiError::invalid("centre", "needs GDI values in [0, 1]"));
    }
    if !eps.is_finite() || eps <= 0.0 {
        return Err(ApiError::invalid("eps", "must be a positive number"));
    }
    Ok(())
}

fn source_of(seed: u64, bombs: Option<u32>) -> Result<DealSource, ApiError> {
    let bombs = bombs
        .map(|b| {
            u8::try_from(b)
                .ok()
                .filter(|b| *b <= 14)
                .ok_or_else(|| ApiError::invalid("bombs", "at most 14"))
        })
        .transpose()?;
    Ok(DealSource { seed, bombs })
}

impl DealLibraryService {
    /// A service on `store`, running on-demand generation on `threads` worker threads.
    pub fn new(store: Arc<dyn Store>, threads: usize) -> DealLibraryService {
        let (watch, _) = tokio::sync::watch::channel(0);
        DealLibraryService {
            store,
            ops: Arc::default(),
            watch,
            threads: threads.max(1),
            next_op: Arc::new(AtomicU64::new(1)),
            stops: Arc::default(),
            finds: Arc::new(tokio::sync::Semaphore::new(MAX_CONCURRENT_FINDS)),
        }
    }

    /// The tonic server for this service.
    pub fn into_server(self) -> DealLibraryServer<DealLibraryService> {
        DealLibraryServer::new(self)
    }

    fn new_op(&self, kind: v1::OperationKind, total: u64) -> v1::Operation {
        let name = operation_name(kind);
        metrics().library_operations.add(1, &attr("kind", name));
        let id = format!(
            "{name}-{}-{}",
            std::process::id(),
            self.next_op.fetch_add(1, Ordering::Relaxed)
        );
        let op = v1::Operation {
            id,
            kind: name.into(),
            operation_kind: kind as i32,
            total,
            ..Default::default()
        };
        self.update(op.clone());
        op
    }

    fn update(&self, op: v1::Operation) {
        if let Ok(mut ops) = self.ops.lock() {
            // A cancelled operation stays cancelled whatever its task reports later.
            if ops.get(&op.id).is_some_and(|o| o.done) {
                return;
            }
            ops.insert(op.id.clone(), op);
            if ops.len() > KEPT_OPERATIONS {
                let mut finished: Vec<(u64, String)> = ops
                    .values()
                    .filter(|o| o.done)
                    .map(|o| (op_number(&o.id), o.id.clone()))
                    .collect();
                finished.sort_unstable();
                let extra = ops.len() - KEPT_OPERATIONS;
                for (_, id) in finished.into_iter().take(extra) {
                    ops.remove(&id);
                }
            }
        }
        self.watch.send_modify(|v| *v += 1);
    }

    fn op(&self, id: &str) -> Result<v1::Operation, ApiError> {
        self.ops
            .lock()
            .ok()
            .and_then(|o| o.get(id).cloned())
            .ok_or_else(|| ApiError::NotFound(format!("no operation {id:?}")))
    }

    /// Operation `id` as it is served: a generation's found deals that a running competition
    /// holds now (it claimed them once they were found) are left out, as Export and Query leave
    /// them out; `progress` still counts them.
    async fn served_op(&self, id: &str) -> Result<v1::Operation, ApiError> {
        let mut op = self.op(id)?;
        if !op.found.is_empty() {
            let held = arena_store::visibility::held_deals(&*self.store).await?;
            op.found.retain(|r| !held.contains(&r.id));
        }
        Ok(op)
    }
}

/// How long a measurement's progress waits without a change signal before reading again
/// anyway: a safety net only (stored deals wake it at once), so long.
const PROGRESS_RESCAN: Duration = Duration::from_secs(30);

type RecordStream = Pin<Box<dyn Stream<Item = Result<v1::DealRecord, Status>> + Send>>;
type OpStream = Pin<Box<dyn Stream<Item = Result<v1::Operation, Status>> + Send>>;

#[tonic::async_trait]
impl DealLibrary for DealLibraryService {
    async fn measure(
        &self,
        req: Request<v1::MeasureRequest>,
    ) -> Result<Response<v1::Operation>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move {
            let r = req.into_inner();
            let panel = measuring_panel(r.panel.as_ref())?;
            let source = source_of(r.seed, r.bombs)?;
            if r.count == 0 {
                return Err(ApiError::invalid("count", "must be at least 1").into());
            }
            if r.count > MAX_MEASURE {
                return Err(ApiError::OutOfRange(format!(
                    "count: at most {MAX_MEASURE} deals per measurement"
                ))
                .into());
            }
            let batch = if r.batch == 0 { DEFAULT_BATCH } else { r.batch };
            if batch > MAX_BATCH {
                return Err(ApiError::OutOfRange(format!(
                    "batch: {batch} deals per batch is more than a referee takes ({MAX_BATCH})"
                ))
                .into());
            }
            self.store
                .put_panel(&panel.to_store())
                .await
                .map_err(store_status)?;
            let done: HashSet<u64> = self
                .store
                .measured_indices(panel.id(), &source)
                .await
                .map_err(store_status)?
                .into_iter()
                .filter(|&i| i < r.count)
                .collect();
            let mut op = self.new_op(v1::OperationKind::Measure, r.count);
            op.progress = done.len() as u64;
            self.update(op.clone());
            // One batch per block of `batch` indices holding at least one unmeasured deal.
            let mut first = 0;
            while first < r.count {
                let n = (r.count - first).min(u64::from(batch));
                if (first..first + n).any(|i| !done.contains(&i)) {
                    let job = v1::QueuedJob {
                        job: Some(v1::queued_job::Job::Gdi(v1::GdiBatch {
                            operation: op.id.clone(),
                            panel: r.panel.clone(),
                            seed: r.seed,
                            bombs: r.bombs,
                            first,
                            count: n as u32,
                        })),
                    };
                    self.store
                        .enqueue_job(&format!("{}:{first}", op.id), &job.encode_to_vec())
                        .await
                        .map_err(store_status)?;
                }
                first += n;
            }
            // Follow progress from the store until every deal is measured.
            let id = op.id.clone();
            let (svc, start, already, tables) =
                (self.clone(), Instant::now(), op.progress, panel.tables());
            let (panel_id, total) = (panel.id().to_string(), r.count);
            // Made before the first read: a batch of deals stored after it wakes the loop, and
            // so does a cancellation (its record).
            let mut measured = self
                .store
                .watch(&Topic::Deals(panel_id.clone()))
                .map_err(store_status)?;
            let mut cancelled = self
                .store
                .watch(&Topic::Records(CANCELLED_OPERATION_KIND.to_string()))
                .map_err(store_status)?;
            tokio::spawn(async move {
                let mut op = op;
                loop {
                    if let Ok(indices) = svc.store.measured_indices(&panel_id, &source).await {
                        op.progress = indices.iter().filter(|&&i| i < total).count() as u64;
                    }
                    op.seconds = start.elapsed().as_secs_f64();
                    op.games = (op.progress - already) * tables;
                    op.games_per_second = op.games as f64 / op.seconds.max(1e-9);
                    op.done = op.progress >= total;
                    svc.update(op.clone());
                    if op.done || svc.op(&op.id).is_ok_and(|o| o.done) {
                        break;
                    }
                    // Deals stored wake it as they are written; the long rescan is a safety
                    // net for a signal that went astray, not the way progress is seen.
                    tokio::select! {
                        () = measured.changed() => {}
                        () = cancelled.changed() => {}
                        () = tokio::time::sleep(PROGRESS_RESCAN) => {}
                    }
                }
            });
            Ok(Response::new(self.op(&id)?))
        }
        .instrument(span)
        .await
    }

    async fn find(&self, req: Request<v1::FindRequest>) -> Result<Response<v1::Operation>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move {
            let r = req.into_inner();
            let panel = measuring_panel(r.panel.as_ref())?;
            let bombs = r.bombs.unwrap_or(1);
            if bombs > 14 {
                return Err(ApiError::invalid("bombs", "at most 14").into());
            }
            let dim = panel.dimension(bombs);
            check_centre(&r.centre, r.eps)?;
            if r.centre.len() != dim {
                return Err(ApiError::invalid(
                    "centre",
                    format!(
                        "needs {dim} values in [0, 1] for deals with {bombs} bomb(s) under panel {}",
                        panel.describe()
                    ),
                ).into());
            }
            if r.count == 0 {
                return Err(ApiError::invalid("count", "must be at least 1").into());
            }
            if r.count > MAX_FIND {
                return Err(ApiError::OutOfRange(format!(
                    "count: at most {MAX_FIND} deals per generation"
                )).into());
            }
            if r.max_tries > MAX_TRIES {
                return Err(ApiError::OutOfRange(format!(
                    "max_tries: at most {MAX_TRIES} deals per generation"
                )).into());
            }
            let permit = Arc::clone(&self.finds).try_acquire_owned().map_err(|_| {
                ApiError::ResourceExhausted(format!(
                    "{MAX_CONCURRENT_FINDS} on-demand generations are running already; wait for one \
                     to end (or cancel one) and ask again"
                ))
            })?;
            let source = source_of(r.seed, Some(bombs))?;
            let start_index = self
                .store
                .measured_indices(panel.id(), &source)
                .await
                .map_err(store_status)?
                .last()
                .map_or(0, |i| i + 1);
            let op = self.new_op(v1::OperationKind::Find, u64::from(r.count));
            let target = FindTarget {
                source,
                start: start_index,
                centre: r.centre,
                eps: r.eps,
                want: r.count as usize,
                max_tries: if r.max_tries == 0 {
                    MAX_TRIES
                } else {
                    r.max_tries
                },
                threads: self.threads,
            };
            let svc = self.clone();
            let first = op.clone();
            let stop = Arc::new(AtomicBool::new(false));
            if let Ok(mut stops) = self.stops.lock() {
                stops.insert(op.id.clone(), Arc::clone(&stop));
            }
            tokio::spawn(
                async move {
                    let _permit = permit;
                    let progress = Arc::new(Progress::default());
                    let ticker = {
                        let (svc, progress, mut op) =
                            (svc.clone(), progress.clone(), first.clone());
                        tokio::spawn(async move {
                            loop {
                                tokio::time::sleep(Duration::from_millis(250)).await;
                                op.progress = progress.found.load(Ordering::Relaxed);
                                op.tried = progress.deals.load(Ordering::Relaxed);
                                op.games = progress.games.load(Ordering::Relaxed);
                                svc.update(op.clone());
                            }
                        })
                    };
                    let result = panel.find(&*svc.store, &target, &progress, &stop).await;
                    ticker.abort();
                    if let Ok(mut stops) = svc.stops.lock() {
                        stops.remove(&first.id);
                    }
                    let mut op = first;
                    match result {
                        Ok(rep) => {
                            op.progress = rep.found.len() as u64;
                            op.tried = rep.tried;
                            op.games = rep.games;
                            op.seconds = rep.seconds;
                            op.games_per_second = rep.games as f64 / rep.seconds.max(1e-9);
                            op.found = rep.found.iter().map(record_msg).collect();
                            let m = metrics();
                            m.deals_measured.add(
                                rep.fully_measured,
                                &[
                                    KeyValue::new("panel", panel.id().to_string()),
                                    KeyValue::new("via", "find"),
                                ],
                            );
                            m.games_played
                                .add(rep.games, &attr("panel", panel.id().to_string()));
                        }
                        Err(e) => op.error = e,
                    }
                    op.done = true;
                    svc.update(op);
                }
                // The generation outlives the call: its store calls belong to a span of its own,
                // in the caller's trace.
                .instrument(tracing::info_span!("find", operation = %op.id)),
            );
            Ok(Response::new(op))
        }
        .instrument(span)
        .await
    }

    async fn get_operation(
        &self,
        req: Request<v1::GetOperationRequest>,
    ) -> Result<Response<v1::Operation>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move { Ok(Response::new(self.served_op(&req.into_inner().id).await?)) }
            .instrument(span)
            .await
    }

    async fn cancel_operation(
        &self,
        req: Request<v1::GetOperationRequest>,
    ) -> Result<Response<v1::Operation>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move {
            let id = req.into_inner().id;
            let mut op = self.op(&id)?;
            if op.done {
                return Err(ApiError::FailedPrecondition(format!(
                    "operation {id:?} has ended already{}",
                    if op.error.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", op.error)
                    }
                ))
                .into());
            }
            // Referees skip the batches of a cancelled measurement; a generation stops.
            self.store
                .put_record(CANCELLED_OPERATION_KIND, &id, b"1")
                .await
                .map_err(store_status)?;
            if let Some(stop) = self.stops.lock().ok().and_then(|s| s.get(&id).cloned()) {
                stop.store(true, Ordering::Relaxed);
            }
            op.done = true;
            op.error = "cancelled".into();
            self.update(op.clone());
            tracing::info!(operation = %id, "operation cancelled");
            Ok(Response::new(op))
        }
        .instrument(span)
        .await
    }

    type WatchOperationStream = OpStream;

    async fn watch_operation(
        &self,
        req: Request<v1::GetOperationRequest>,
    ) -> Result<Response<OpStream>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move {
            let id = req.into_inner().id;
            let first = self.served_op(&id).await?;
            let (svc, mut rx) = (self.clone(), self.watch.subscribe());
            let (tx, out) = tokio::sync::mpsc::channel(16);
            tokio::spawn(async move {
                let mut last = first.clone();
                if tx.send(Ok(first)).await.is_err() {
                    return;
                }
                while !last.done {
                    if rx.changed().await.is_err() {
                        return;
                    }
                    match svc.served_op(&id).await {
                        Ok(op) if op != last => {
                            last = op.clone();
                            if tx.send(Ok(op)).await.is_err() {
                                return;
                            }
                        }
                        Ok(_) => {}
                        Err(e) => {
                            let _ = tx.send(Err(e.into())).await;
                            return;
                        }
                    }
                }
            });
            let stream: OpStream = Box::pin(tokio_stream::wrappers::ReceiverStream::new(out));
            Ok(Response::new(stream))
        }
        .instrument(span)
        .await
    }

    async fn query(
        &self,
        req: Request<v1::QueryRequest>,
    ) -> Result<Response<v1::QueryResponse>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move {
            let r = req.into_inner();
            let panel = panel(r.panel.as_ref())?;
            if r.centre.is_empty() {
                return Err(ApiError::invalid("centre", "missing").into());
            }
            check_centre(&r.centre, r.eps)?;
            let records = self.store.deals(panel.id()).await.map_err(store_status)?;
            // Deals of competitions still running are never served, used or not asked.
            let mut exclude: HashSet<String> = arena_store::visibility::held_deals(&*self.store)
                .await
                .map_err(store_status)?;
            if !r.include_used {
                exclude.extend(
                    self.store
                        .used_deals()
                        .await
                        .map_err(store_status)?
                        .into_keys(),
                );
            }
            let index = LibraryIndex::build(&records);
            let hits = index.within(&r.centre, r.eps, &exclude);
            let by_id: HashMap<&str, &DealRecord> =
                records.iter().map(|x| (x.id.as_str(), x)).collect();
            let deals = hits
                .iter()
                .take(r.count as usize)
                .filter_map(|(_, e)| by_id.get(e.id.as_str()))
                .map(|x| record_msg(x))
                .collect();
            Ok(Response::new(v1::QueryResponse {
                deals,
                available: hits.len() as u64,
            }))
        }
        .instrument(span)
        .await
    }

    async fn claim(
        &self,
        req: Request<v1::ClaimRequest>,
    ) -> Result<Response<v1::ClaimResponse>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move {
            let r = req.into_inner();
            if r.competition.trim().is_empty() {
                return Err(ApiError::invalid("competition", "empty").into());
            }
            let claimed = self
                .store
                .claim_deals(&r.competition, &r.deal_ids)
                .await
                .map_err(store_status)?;
            Ok(Response::new(v1::ClaimResponse { claimed }))
        }
        .instrument(span)
        .await
    }

    type ExportStream = RecordStream;

    async fn export(
        &self,
        req: Request<v1::ExportRequest>,
    ) -> Result<Response<RecordStream>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move {
            let panel = panel(req.into_inner().panel.as_ref())?;
            let mut records = self.store.deals(panel.id()).await.map_err(store_status)?;
            // A running competition's deals (dealt, or still to be dealt) are withheld.
            let held = arena_store::visibility::held_deals(&*self.store)
                .await
                .map_err(store_status)?;
            let before = records.len();
            records.retain(|r| !held.contains(&r.id));
            if records.len() < before {
                tracing::info!(
                    withheld = before - records.len(),
                    "export: deals of running competitions withheld"
                );
            }
            records.sort_by(|a, b| a.id.cmp(&b.id));
            let msgs: Vec<Result<v1::DealRecord, Status>> =
                records.iter().map(|r| Ok(record_msg(r))).collect();
            let stream: RecordStream = Box::pin(tokio_stream::iter(msgs));
            Ok(Response::new(stream))
        }
        .instrument(span)
        .await
    }

    async fn import(
        &self,
        req: Request<Streaming<v1::DealRecord>>,
    ) -> Result<Response<v1::ImportResponse>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move {
            // All or nothing: every record is read and checked before one write of them all.
            let mut stream = req.into_inner();
            let (mut received, mut batch) = (0u64, Vec::new());
            while let Some(m) = stream.next().await {
                let m = m?;
                received += 1;
                if received > MAX_IMPORT {
                    return Err(ApiError::OutOfRange(format!(
                        "an import carries at most {MAX_IMPORT} records; split it (nothing was written)"
                    )).into());
                }
                batch.push(record_from(m).map_err(|e| {
                    ApiError::Invalid(format!("record {received}: {e} (nothing was written)"))
                })?);
            }
            // A measured deal's difficulty is never rewritten: a record that differs from the one
            // stored under its id is refused, and with it the whole import.
            let mut by_panel: HashMap<String, HashMap<String, DealRecord>> = HashMap::new();
            for (i, r) in batch.iter().enumerate() {
                if !by_panel.contains_key(&r.panel) {
                    let stored = self.store.deals(&r.panel).await.map_err(store_status)?;
                    by_panel.insert(
                        r.panel.clone(),
                        stored.into_iter().map(|d| (d.id.clone(), d)).collect(),
                    );
                }
                if let Some(stored) = by_panel.get(&r.panel).and_then(|m| m.get(&r.id))
                    && stored != r
                {
                    return Err(ApiError::FailedPrecondition(format!(
                        "record {}: deal {} of panel {} is measured already with other values; an \
                         import cannot rewrite a deal's difficulty (nothing was written)",
                        i + 1,
                        r.id,
                        r.panel
                    )).into());
                }
            }
            let new = self.store.put_deals(&batch).await.map_err(store_status)? as u64;
            Ok(Response::new(v1::ImportResponse { received, new }))
        }
        .instrument(span)
        .await
    }

    async fn stats(
        &self,
        req: Request<v1::StatsRequest>,
    ) -> Result<Response<v1::StatsResponse>, Status> {
        // The skeleton\'s per-RPC server span (`arena_serve::server`), a child of the caller\'s trace.
        let span = tracing::Span::current();
        async move {
            let panel = panel(req.into_inner().panel.as_ref())?;
            let records = self.store.deals(panel.id()).await.map_err(store_status)?;
            let used = self.store.used_deals().await.map_err(store_status)?.len() as u64;
            let mut dims: HashMap<usize, usize> = HashMap::new();
            for r in &records {
                *dims.entry(r.gdi.len()).or_default() += 1;
            }
            let dim = dims
                .into_iter()
                .max_by_key(|&(d, n)| (n, d))
                .map_or(0, |(d, _)| d);
            let mut resp = v1::StatsResponse {
                panel: panel.id().to_string(),
                deals: records.len() as u64,
                used,
                ..Default::default()
            };
            for j in 0..dim {
                let mut v: Vec<f64> = records
                    .iter()
                    .filter(|r| r.gdi.len() == dim)
                    .map(|r| r.gdi[j])
                    .collect();
                v.sort_by(f64::total_cmp);
                let q = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
                resp.mean.push(v.iter().sum::<f64>() / v.len() as f64);
                resp.p10.push(q(0.1));
                resp.p50.push(q(0.5));
                resp.p90.push(q(0.9));
            }
            Ok(Response::new(resp))
        }
        .instrument(span)
        .await
    }
}

/// Serves the deal library (with gRPC health and reflection) on `listener` until `shutdown`;
/// every method is for operators holding a token from the store (see [`serve_with_auth`]).
pub async fn serve_with_listener(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    threads: usize,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let auth = arena_auth::Authenticator::new(Some(store.clone()));
    serve_with_auth(listener, store, threads, auth, shutdown).await
}

/// Serves the deal library (with gRPC health and reflection) on `listener` until `shutdown`,
/// every call decided by `auth` (all of `DealLibrary` is for operators), with the default
/// serving settings (see [`serve_with_config`]).
pub async fn serve_with_auth(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    threads: usize,
    auth: arena_auth::Authenticator,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let config = DealLibraryConfig {
        threads,
        auth: Some(auth),
        ..DealLibraryConfig::default()
    };
    serve_with_config(listener, store, config, shutdown).await
}

/// Where the deal library listens unless told otherwise (`arena deal-library --listen`).
pub const DEFAULT_LISTEN: std::net::SocketAddr = std::net::SocketAddr::V4(
    std::net::SocketAddrV4::new(std::net::Ipv4Addr::LOCALHOST, 50053),
);

/// How the deal library runs.
#[derive(Clone, Debug)]
pub struct DealLibraryConfig {
    /// Worker threads of on-demand generation (`Find`) and of measuring.
    pub threads: usize,
    /// Who may call what; `None`: operators with a token from the store.
    pub auth: Option<arena_auth::Authenticator>,
    /// The gRPC server's timeout, concurrency limit and connection age (`Import` is never
    /// timed out: it lasts as long as the client streams).
    pub serve: arena_serve::ServeConfig,
}

impl Default for DealLibraryConfig {
    fn default() -> Self {
        DealLibraryConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            auth: None,
            serve: arena_serve::ServeConfig::default(),
        }
    }
}

/// The method that runs as long as its client streams.
const IMPORT: &str = "/arena.v1.DealLibrary/Import";

/// Serves the deal library (with gRPC health and reflection) on `listener` until `shutdown`:
/// health turns NOT_SERVING, the server stops accepting, calls in flight finish.
pub async fn serve_with_config(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    config: DealLibraryConfig,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let (health, health_service) = arena_serve::RoleHealth::new(
        "deal-library",
        vec![arena_serve::service_name::<
            DealLibraryServer<DealLibraryService>,
        >()],
        Some(store.clone()),
    )
    .await;
    let reflection = arena_serve::reflection()?;
    tracing::info!(addr = ?listener.local_addr().ok(), store = %store.describe(), ?config, "deal library starting");
    let auth = config
        .auth
        .clone()
        .unwrap_or_else(|| arena_auth::Authenticator::new(Some(store.clone())));
    let serve = config.serve.clone().with_unbounded(IMPORT);
    let served = arena_serve::server(&serve)
        .layer(arena_auth::AuthLayer::new(auth))
        .add_service(health_service)
        .add_service(reflection)
        .add_service(DealLibraryService::new(store, config.threads).into_server())
        .serve_with_incoming_shutdown(
            tokio_stream::wrappers::TcpListenerStream::new(listener),
            async {
                shutdown.await;
                health.stopping().await;
            },
        )
        .await;
    drop(health);
    served?;
    Ok(())
}

/// Why the deal-library server stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The gRPC server failed.
    #[error("gRPC server: {0}")]
    Serve(#[from] tonic::transport::Error),
    /// The server could not be set up (reflection).
    #[error(transparent)]
    Setup(#[from] arena_serve::ServeError),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(counts: Vec<u32>, gdi: Vec<f64>) -> v1::DealRecord {
        v1::DealRecord {
            id: "i-1".into(),
            deal: arena_games::ddz::rules::Deal::generate(1, 0).to_string(),
            panel: "p-1".into(),
            levels: (0..counts.len() as i64).collect(),
            counts,
            gdi,
            seed: None,
            bombs: None,
            index: None,
            ..Default::default()
        }
    }

    #[test]
    fn imported_counts_past_u32_are_read_not_a_panic() {
        // Seen writing the deal_import fuzz target: counts [4294967295, 1] overflowed the total.
        let r = record_from(msg(vec![u32::MAX, 1], vec![1.0 / 4_294_967_296.0])).unwrap();
        assert_eq!(r.counts, [u32::MAX, 1]);
        let e = record_from(msg(vec![u32::MAX, 1], vec![0.5])).unwrap_err();
        assert!(e.to_string().starts_with("gdi:"), "{e}");
    }

    #[test]
    fn imported_gdi_values_are_stored_as_the_counts_give_them() {
        // Found by fuzzing (deal_import): gdi [-3.5463108495216966e-62] where the counts give 0
        // is within the tolerance and was stored as sent, a "fraction" below zero.
        let r = record_from(msg(vec![1, 0], vec![-3.546_310_849_521_696_6e-62])).unwrap();
        assert_eq!(r.gdi, [0.0]);
        let r = record_from(msg(vec![1, 2], vec![2.0 / 3.0 + 1e-9])).unwrap();
        assert_eq!(r.gdi, [2.0 / 3.0]);
    }

    #[test]
    fn an_imported_nan_gdi_is_refused() {
        // Seen writing the deal_import fuzz target: NaN is never "more than 1e-6 away".
        let e = record_from(msg(vec![1, 1], vec![f64::NAN])).unwrap_err();
        assert!(e.to_string().contains("does not follow from counts"), "{e}");
        assert!(record_from(msg(vec![1, 1], vec![0.5])).is_ok());
    }
}
