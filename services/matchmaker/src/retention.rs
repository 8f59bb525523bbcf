//! Retention: how long the results and replays of finished tables are kept, as the operator sets
//! it (`--competition-retention-days`, `--ladder-retention-days`).
//!
//! - **Competitions** keep theirs for ever by default. With a retention, a competition that ended
//!   (finished, cancelled or failed) longer ago loses its tables' results and replays and their
//!   deal groups; its record and final standings stay (a few hundred bytes), marked with
//!   `Competition.pruned_unix_ms`, and its deals stay claimed so no later competition deals them.
//! - **Ladder tables** are pruned 30 days after they finished by default: the ladder plays
//!   around the clock, and its ratings (in the ladder's state) are what lasts. A pair (or
//!   Mahjong set) goes as a whole, once every one of its tables is older than the retention, with
//!   its deal group.
//!
//! One pass ([`prune_once`]) runs at start and then every [`Retention::every`] on every
//! matchmaker; passes of several matchmakers delete the same things, which is harmless.

use std::collections::{BTreeMap, HashSet};
use std::time::Duration;

use arena_games::GameKind;
use arena_proto::v1;
use arena_serve::ApiError;
use arena_store::Store;
use arena_store::visibility::{DEAL_GROUP_KIND, DEAL_GROUP_LABEL};
use prost::Message;

use crate::{COMPETITION, state_of};

/// The ladder's default retention, in days.
pub const DEFAULT_LADDER_DAYS: f64 = 30.0;

/// How long results and replays are kept.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Retention {
    /// Ended competitions' (`None`: for ever).
    pub competitions: Option<Duration>,
    /// Ladder tables' (`None`: for ever).
    pub ladder: Option<Duration>,
    /// Time between passes.
    pub every: Duration,
}

impl Default for Retention {
    fn default() -> Self {
        Retention {
            competitions: None,
            ladder: days(DEFAULT_LADDER_DAYS),
            every: Duration::from_secs(3600),
        }
    }
}

/// A retention of `d` days (`None` for 0: for ever; fractions allowed).
pub fn days(d: f64) -> Option<Duration> {
    (d.is_finite() && d > 0.0).then(|| Duration::from_secs_f64(d * 86_400.0))
}

impl std::fmt::Display for Retention {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |d: Option<Duration>| match d {
            None => "for ever".to_string(),
            Some(d) => format!("{} days", d.as_secs_f64() / 86_400.0),
        };
        write!(
            f,
            "competition results kept {}, ladder tables {}",
            show(self.competitions),
            show(self.ladder)
        )
    }
}

/// What one pass deleted.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Competitions whose results and replays went.
    pub competitions: u64,
    /// Tables whose result and replay went (competitions' and the ladder's).
    pub tables: u64,
}

fn cutoff(now_ms: u64, keep: Duration) -> u64 {
    now_ms.saturating_sub(u64::try_from(keep.as_millis()).unwrap_or(u64::MAX))
}

/// The deal group of a result (its typed placement, or the label of results written before).
fn group_of(r: &v1::TableResult) -> Option<String> {
    r.placement
        .as_ref()
        .map(|p| p.deal_group.clone())
        .filter(|g| !g.is_empty())
        .or_else(|| r.labels.get(DEAL_GROUP_LABEL).cloned())
}

/// Deletes tables `ids` listed under `competition`, and `groups`' records.
async fn delete(
    store: &dyn Store,
    competition: &str,
    ids: &[String],
    groups: &HashSet<String>,
) -> Result<u64, ApiError> {
    let n = store.delete_results(Some(competition), ids).await?;
    for g in groups {
        store.delete_record(DEAL_GROUP_KIND, g).await?;
    }
    Ok(n)
}

/// The ladder tables of `game` finished before `before`, whole groups only.
async fn prune_ladder(store: &dyn Store, game: GameKind, before: u64) -> Result<u64, ApiError> {
    let competition = crate::ladder::competition(game);
    // group (or the table itself) -> its tables, and whether every one is old enough
    let mut groups: BTreeMap<String, (Vec<String>, bool)> = BTreeMap::new();
    for (id, bytes) in store.results_for(competition).await? {
        let r = v1::TableResult::decode(bytes.as_slice())
            .map_err(|e| ApiError::Internal(format!("result {id}: {e}")))?;
        let old = r.finished_unix_ms < before;
        let entry = groups
            .entry(group_of(&r).unwrap_or_else(|| id.clone()))
            .or_insert_with(|| (Vec::new(), true));
        entry.0.push(id);
        entry.1 &= old;
    }
    let mut ids = Vec::new();
    let mut gone = HashSet::new();
    for (group, (tables, old)) in groups {
        if !old {
            continue;
        }
        // A group some of whose tables have no result yet is still being played.
        if let Some(members) = arena_store::visibility::group_tables(store, &group).await?
            && members.len() > tables.len()
        {
            continue;
        }
        ids.extend(tables);
        gone.insert(group);
    }
    if ids.is_empty() {
        return Ok(0);
    }
    delete(store, competition, &ids, &gone).await
}

/// Deletes the results and replays of ended competitions past their retention, and marks them.
async fn prune_competitions(
    store: &dyn Store,
    before: u64,
    now_ms: u64,
) -> Result<Pruned, ApiError> {
    let mut pruned = Pruned::default();
    for (name, bytes) in store.records(COMPETITION).await? {
        let Ok(comp) = v1::Competition::decode(bytes.as_slice()) else {
            continue;
        };
        let ended = matches!(
            state_of(&comp),
            v1::CompetitionState::Finished
                | v1::CompetitionState::Cancelled
                | v1::CompetitionState::Failed
        );
        if !ended
            || comp.pruned_unix_ms != 0
            || comp.finished_unix_ms == 0
            || comp.finished_unix_ms >= before
        {
            continue;
        }
        let mut ids = Vec::new();
        let mut groups = HashSet::new();
        for (id, bytes) in store.results_for(&name).await? {
            if let Ok(r) = v1::TableResult::decode(bytes.as_slice())
                && let Some(g) = group_of(&r)
            {
                groups.insert(g);
            }
            ids.push(id);
        }
        pruned.tables += delete(store, &name, &ids, &groups).await?;
        // Its fresh deals stopped being held when it ended; the record goes with its tables.
        store
            .delete_record(arena_store::visibility::FRESH_KIND, &name)
            .await?;
        let next = v1::Competition {
            pruned_unix_ms: now_ms.max(1),
            ..comp
        };
        // Another matchmaker may have marked it meanwhile; then it counted it.
        if store
            .swap_record(COMPETITION, &name, Some(&bytes), &next.encode_to_vec())
            .await?
        {
            pruned.competitions += 1;
            tracing::info!(competition = %name, tables = ids.len(), "results and replays pruned");
        }
    }
    Ok(pruned)
}

/// One pass at time `now_ms` (Unix milliseconds).
pub async fn prune_once(
    store: &dyn Store,
    retention: &Retention,
    now_ms: u64,
) -> Result<Pruned, ApiError> {
    let mut pruned = Pruned::default();
    if let Some(keep) = retention.competitions {
        pruned = prune_competitions(store, cutoff(now_ms, keep), now_ms).await?;
    }
    if let Some(keep) = retention.ladder {
        for game in crate::ladder::games() {
            let n = prune_ladder(store, game, cutoff(now_ms, keep)).await?;
            if n > 0 {
                tracing::info!(?game, tables = n, "ladder tables pruned");
            }
            pruned.tables += n;
        }
    }
    Ok(pruned)
}

/// Runs [`prune_once`] at start and every `retention.every` until `shutdown`.
pub async fn run(
    store: std::sync::Arc<dyn Store>,
    retention: Retention,
    shutdown: impl std::future::Future<Output = ()>,
) {
    if retention.competitions.is_none() && retention.ladder.is_none() {
        return;
    }
    tokio::pin!(shutdown);
    loop {
        if let Err(e) = prune_once(&*store, &retention, crate::now_ms()).await {
            tracing::warn!(error = %e, "pruning results and replays");
        }
        tokio::select! {
            () = &mut shutdown => return,
            () = tokio::time::sleep(retention.every) => {}
        }
    }
}
