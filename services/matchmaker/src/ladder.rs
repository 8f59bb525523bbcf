//! The continuous ranked ladder: connected remote bots are paired as they wait, every pair plays
//! a **duplicate pair** of tables on one fresh deal (A as landlord against B in both farmer seats,
//! then B as landlord against A), and the pair's outcome updates a Weng-Lin rating per bot
//! release (see `arena_ratings`).
//!
//! Who plays whom: bots that never played go first, then the bots idle longest; each in turn is
//! paired with one of the few waiting bots closest to its rating, chosen at random, so close
//! ratings meet most but the same two bots do not meet forever. A bot plays one pair at a time.
//! Operators may add *anchors* (built-in bots such as `expert`, or program bots) that are always
//! available; anchors are never paired with each other.
//!
//! Everything lives in one store record ([`STATE`]): the ratings, the pairs in flight, when each
//! bot last played. Every change is a compare-and-swap of that record, so several matchmakers
//! may run the ladder at once, a pair is rated exactly once, and a restarted matchmaker carries
//! on where the last one stopped. A pair is created in the record first and enqueued after; a
//! pair still not marked enqueued a while later (its creator died in between) is enqueued by
//! whoever sees it. Table results are written once per table id, so a table enqueued twice still
//! counts once.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;
use std::time::Duration;

use arena_proto::v1;
use arena_ratings::Ratings;
use arena_store::{BotKind, Store, StoreError};
use prost::Message;
use serde::{Deserialize, Serialize};

/// Record kind and key of the ladder's state.
pub const STATE: (&str, &str) = ("ladder", "state");
/// The `competition` field of ladder tables: their results are listed under it.
pub const LADDER_COMPETITION: &str = "ladder";
/// A pair not marked enqueued this long after its creation is enqueued again.
const ENQUEUE_GRACE_MS: u64 = 10_000;
/// The release recorded when a bot reported none.
pub const UNVERSIONED: &str = "unversioned";

/// How the ladder runs.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// Time between pairing passes.
    pub every: Duration,
    /// Bots always available to play, besides the connected remote bots.
    pub anchors: Vec<String>,
    /// Most pairs in flight at once (0 = no limit).
    pub max_pairs: usize,
    /// How many of the closest-rated waiting bots an opponent is drawn from.
    pub choose_among: usize,
    /// Seeds the draws of opponents (the deals come from the secret key in the ladder's state).
    pub seed: u64,
    /// Time control of ladder tables (`None`: the referee's default).
    pub time: Option<v1::TimeControl>,
    /// Verdict policy of ladder tables.
    pub verdict_policy: v1::VerdictPolicy,
}

impl Default for LadderConfig {
    fn default() -> Self {
        LadderConfig {
            every: Duration::from_secs(1),
            anchors: Vec::new(),
            max_pairs: 0,
            choose_among: 3,
            seed: 0x1adde5,
            time: None,
            verdict_policy: v1::VerdictPolicy::Unspecified,
        }
    }
}

/// A pair in flight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    /// Sequence number; the deal is deal `n` of the ladder's seed.
    pub n: u64,
    /// A plays landlord at table `a`, B at table `b`.
    pub a: String,
    /// The other bot.
    pub b: String,
    /// Creation time, Unix milliseconds.
    pub created_ms: u64,
    /// True once its two tables are on the job stream.
    pub enqueued: bool,
}

impl Pair {
    /// The pair's id.
    pub fn id(&self) -> String {
        format!("p{}", self.n)
    }

    /// Its two table ids: A landlord, then B landlord.
    pub fn table_ids(&self) -> [String; 2] {
        [
            format!("{LADDER_COMPETITION}/p{}/a", self.n),
            format!("{LADDER_COMPETITION}/p{}/b", self.n),
        ]
    }
}

/// One rated pair, kept for the record of recent games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rated {
    /// The pair.
    pub pair: Pair,
    /// `bot@release` of A and B.
    pub a_key: String,
    /// B's key.
    pub b_key: String,
    /// A's and B's pair scores.
    pub scores: [f64; 2],
}

/// The ladder's whole state (one store record).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct LadderState {
    /// The next pair's number.
    pub next_pair: u64,
    /// Ratings per `bot@release`.
    pub ratings: Ratings,
    /// Pairs in flight, by id.
    pub pending: BTreeMap<String, Pair>,
    /// When each bot last finished a pair (Unix ms); a bot not here has never played one.
    pub last_played: BTreeMap<String, u64>,
    /// Each bot's latest release seen at a ladder table.
    pub release: BTreeMap<String, String>,
    /// Pairs that could not be rated (a table failed).
    pub discarded: u64,
    /// The most recent rated pairs, newest last (at most [`RECENT`]).
    pub recent: Vec<Rated>,
    /// The secret seed of the ladder's deals, drawn at random once (0 = not drawn yet). A bot
    /// sees its table id, which names the pair: were the seed known, it could deal every hand.
    #[serde(default)]
    pub deal_key: u64,
}

/// How many rated pairs the state keeps for inspection.
pub const RECENT: usize = 50;

impl LadderState {
    fn busy(&self) -> HashSet<&str> {
        self.pending
            .values()
            .flat_map(|p| [p.a.as_str(), p.b.as_str()])
            .collect()
    }

    /// The current rating's mean of `bot` (its latest release).
    fn mu(&self, bot: &str) -> f64 {
        let release = self.release.get(bot).map_or(UNVERSIONED, String::as_str);
        self.ratings.get(&arena_ratings::key(bot, release)).mu
    }
}

/// Why a ladder step failed.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored record (the ladder's state, a pair's result) does not decode.
    #[error("{what} does not decode: {why}")]
    Decode {
        /// What failed to decode.
        what: String,
        /// Why.
        why: String,
    },
    /// The state could not be encoded.
    #[error("the ladder's state does not encode: {0}")]
    Encode(String),
    /// The operating system's random source failed.
    #[error("the random source failed: {0}")]
    Random(String),
    /// A pair's table has no usable result.
    #[error("table {table} {why}")]
    Table {
        /// The table id.
        table: String,
        /// What is wrong with its result.
        why: String,
    },
}

impl From<LadderError> for arena_serve::ApiError {
    fn from(e: LadderError) -> arena_serve::ApiError {
        match e {
            LadderError::Store(e) => e.into(),
            other => arena_serve::ApiError::Internal(other.to_string()),
        }
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Reads the state and its raw bytes (for the compare-and-swap).
pub async fn load(store: &dyn Store) -> Result<(LadderState, Option<Vec<u8>>), LadderError> {
    match store.record(STATE.0, STATE.1).await? {
        None => Ok((LadderState::default(), None)),
        Some(bytes) => serde_json::from_slice(&bytes)
            .map(|s| (s, Some(bytes)))
            .map_err(|e| LadderError::Decode {
                what: "the ladder's state record".into(),
                why: e.to_string(),
            }),
    }
}

/// Applies `change` to the state with compare-and-swap, retrying on conflicts. `change` returns
/// whether it changed anything and a value passed back.
async fn update<T>(
    store: &dyn Store,
    mut change: impl FnMut(&mut LadderState) -> (bool, T),
) -> Result<T, LadderError> {
    loop {
        let (mut state, old) = load(store).await?;
        let (changed, out) = change(&mut state);
        if !changed {
            return Ok(out);
        }
        let bytes = serde_json::to_vec(&state).map_err(|e| LadderError::Encode(e.to_string()))?;
        if store
            .swap_record(STATE.0, STATE.1, old.as_deref(), &bytes)
            .await?
        {
            return Ok(out);
        }
    }
}

/// The ladder's secret deal seed, drawn and stored the first time it is needed.
async fn deal_key(store: &dyn Store) -> Result<u64, LadderError> {
    let mut fresh = [0u8; 8];
    getrandom::fill(&mut fresh).map_err(|e| LadderError::Random(e.to_string()))?;
    let fresh = u64::from_le_bytes(fresh).max(1);
    update(store, |s| {
        if s.deal_key == 0 {
            s.deal_key = fresh;
            (true, fresh)
        } else {
            (false, s.deal_key)
        }
    })
    .await
}

/// The deal group of a pair's two tables.
pub fn deal_group(pair: &Pair) -> String {
    format!("{LADDER_COMPETITION}/{}", pair.id())
}

/// The two table jobs of `pair`, dealt from the ladder's secret `deal_key`.
pub fn jobs(pair: &Pair, cfg: &LadderConfig, deal_key: u64) -> [v1::TableJob; 2] {
    let deal = arena_games::ddz::rules::Deal::generate(deal_key, pair.n).to_string();
    let ids = pair.table_ids();
    let job = |id: &str, landlord: &str, farmer: &str, role: &str, salt: u64| {
        let placement = v1::Placement {
            deal_group: deal_group(pair),
            pair: pair.id(),
            rotation: u32::from(role == "b"),
            ..Default::default()
        };
        let mut labels = std::collections::HashMap::new();
        labels.insert("pair".to_string(), pair.id());
        labels.insert(
            arena_store::visibility::DEAL_GROUP_LABEL.to_string(),
            deal_group(pair),
        );
        labels.insert("landlord".to_string(), role.to_string());
        if let Some(tp) = arena_telemetry::current_traceparent() {
            labels.insert("traceparent".to_string(), tp);
        }
        v1::TableJob {
            table_id: id.to_string(),
            game: v1::Game::DouDizhu as i32,
            seats: [landlord, farmer, farmer]
                .into_iter()
                .map(|bot| v1::SeatSpec { bot: bot.into() })
                .collect(),
            setup: Some(v1::table_job::Setup::Ddz(
                arena_games::ddz::spec::fixed_landlord_setup(
                    deal.clone(),
                    arena_games::ddz::rules::Scoring::Competition,
                ),
            )),
            time: cfg.time,
            verdict_policy: cfg.verdict_policy as i32,
            seed: cfg.seed ^ pair.n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ salt,
            competition: LADDER_COMPETITION.into(),
            labels: labels.into_iter().collect(),
            placement: Some(Box::new(placement)),
        }
    };
    [
        job(&ids[0], &pair.a, &pair.b, "a", 1),
        job(&ids[1], &pair.b, &pair.a, "b", 2),
    ]
}

/// What a finished pair says: each side's `bot@release` and pair score, or why it can't be rated.
pub fn score_pair(
    pair: &Pair,
    a_table: &v1::TableResult,
    b_table: &v1::TableResult,
) -> Result<Rated, LadderError> {
    for r in [a_table, b_table] {
        if !r.error.is_empty() {
            return Err(LadderError::Table {
                table: r.table_id.clone(),
                why: format!("failed: {}", r.error),
            });
        }
        if r.final_scores.len() != 3 {
            return Err(LadderError::Table {
                table: r.table_id.clone(),
                why: "has no scores".into(),
            });
        }
    }
    let release = |r: &v1::TableResult, seat: usize| {
        r.releases
            .get(seat)
            .filter(|s| !s.is_empty())
            .cloned()
            .unwrap_or_else(|| UNVERSIONED.to_string())
    };
    // Each side's landlord score plus its farmer team's score on the same cards.
    let a = (a_table.final_scores[0] + b_table.final_scores[1] + b_table.final_scores[2]) as f64;
    let b = (b_table.final_scores[0] + a_table.final_scores[1] + a_table.final_scores[2]) as f64;
    Ok(Rated {
        pair: pair.clone(),
        a_key: arena_ratings::key(&pair.a, &release(a_table, 0)),
        b_key: arena_ratings::key(&pair.b, &release(b_table, 0)),
        scores: [a, b],
    })
}

/// Bots that may be paired now: remote bots with presence, plus the anchors.
async fn available(store: &dyn Store, cfg: &LadderConfig) -> Result<Vec<String>, LadderError> {
    let mut out = BTreeSet::new();
    for bot in store.bots().await? {
        if matches!(bot.kind, BotKind::Remote) && !store.presence(&bot.name).await?.is_empty() {
            out.insert(bot.name);
        }
    }
    out.extend(cfg.anchors.iter().cloned());
    Ok(out.into_iter().collect())
}

/// Chooses pairs among `waiting` (none of them busy): new bots first, then the longest idle,
/// each against one of the `choose_among` closest ratings, drawn with `rng`.
pub fn choose_pairs(
    state: &LadderState,
    waiting: &[String],
    anchors: &[String],
    choose_among: usize,
    limit: usize,
    rng: &mut arena_games::ddz::rules::DealRng,
) -> Vec<(String, String)> {
    let is_anchor = |b: &str| anchors.iter().any(|a| a == b);
    let mut queue: Vec<&String> = waiting.iter().collect();
    // Never-played bots first (`None` sorts first), then by the time they finished their last
    // pair (oldest first), and anchors after every real bot with the same standing.
    queue.sort_by_key(|b| {
        (
            state.last_played.get(b.as_str()).copied(),
            is_anchor(b),
            b.as_str(),
        )
    });
    let mut taken: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for a in &queue {
        if out.len() >= limit {
            break;
        }
        if taken.contains(a.as_str()) {
            continue;
        }
        let mu = state.mu(a);
        let mut candidates: Vec<(&String, f64)> = queue
            .iter()
            .filter(|b| b != &a && !taken.contains(b.as_str()))
            .filter(|b| !(is_anchor(a) && is_anchor(b)))
            .map(|b| (*b, (state.mu(b) - mu).abs()))
            .collect();
        if candidates.is_empty() {
            continue;
        }
        candidates.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(y.0)));
        let k = choose_among.clamp(1, candidates.len());
        let b = candidates[rng.below(k as u32) as usize].0;
        // Who is landlord first does not matter (both play both roles); a random order keeps
        // table ids from telling who was waiting longer.
        let (x, y) = if rng.below(2) == 0 { (*a, b) } else { (b, *a) };
        taken.insert(a.as_str());
        taken.insert(b.as_str());
        out.push((x.clone(), y.clone()));
    }
    out
}

/// What one pass did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    /// Pairs rated.
    pub rated: usize,
    /// Pairs discarded (a table failed).
    pub discarded: usize,
    /// Pairs created.
    pub created: usize,
    /// Pairs (re-)enqueued.
    pub enqueued: usize,
}

/// One pass: rate the pairs whose two tables finished, enqueue pairs whose creator died before
/// enqueueing them, and pair the waiting bots.
pub async fn pass(store: &dyn Store, cfg: &LadderConfig) -> Result<Pass, LadderError> {
    let mut out = Pass::default();
    let (state, _) = load(store).await?;

    // Rate finished pairs.
    let mut finished: Vec<(String, Result<Rated, LadderError>)> = Vec::new();
    for (id, pair) in &state.pending {
        let ids = pair.table_ids();
        let (Some(a), Some(b)) = (store.result(&ids[0]).await?, store.result(&ids[1]).await?)
        else {
            continue;
        };
        let decode = |bytes: &[u8], id: &str| {
            v1::TableResult::decode(bytes).map_err(|e| LadderError::Decode {
                what: format!("the result of {id}"),
                why: e.to_string(),
            })
        };
        let scored = match (decode(&a, &ids[0]), decode(&b, &ids[1])) {
            (Ok(a), Ok(b)) => score_pair(pair, &a, &b),
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        finished.push((id.clone(), scored));
    }
    if !finished.is_empty() {
        let now = now_ms();
        let (rated, discarded) = update(store, |s| {
            let (mut rated, mut discarded) = (0, 0);
            for (id, scored) in &finished {
                // Another matchmaker may have rated it meanwhile: only a pending pair counts.
                let Some(pair) = s.pending.remove(id) else {
                    continue;
                };
                for bot in [&pair.a, &pair.b] {
                    s.last_played.insert(bot.clone(), now);
                }
                match scored {
                    Ok(r) => {
                        s.ratings
                            .record_pair(&r.a_key, &r.b_key, r.scores[0], r.scores[1]);
                        for (bot, key) in [(&pair.a, &r.a_key), (&pair.b, &r.b_key)] {
                            if let Some((_, release)) = key.rsplit_once('@') {
                                s.release.insert(bot.clone(), release.to_string());
                            }
                        }
                        s.recent.push(r.clone());
                        if s.recent.len() > RECENT {
                            let extra = s.recent.len() - RECENT;
                            s.recent.drain(..extra);
                        }
                        rated += 1;
                    }
                    Err(why) => {
                        tracing::warn!(pair = %id, %why, "ladder pair discarded");
                        s.discarded += 1;
                        discarded += 1;
                    }
                }
            }
            (rated + discarded > 0, (rated, discarded))
        })
        .await?;
        out.rated = rated;
        out.discarded = discarded;
        if rated > 0 {
            arena_telemetry::metrics::metrics()
                .ladder_pairs_rated
                .add(rated as u64, &[]);
        }
    }

    // Pairs whose creator died between recording and enqueueing them.
    let (state, _) = load(store).await?;
    let now = now_ms();
    let orphans: Vec<Pair> = state
        .pending
        .values()
        .filter(|p| !p.enqueued && now.saturating_sub(p.created_ms) > ENQUEUE_GRACE_MS)
        .cloned()
        .collect();
    for p in orphans {
        enqueue(store, cfg, &p).await?;
        out.enqueued += 1;
    }

    // Pair the waiting bots.
    let available = available(store, cfg).await?;
    let (state, _) = load(store).await?;
    let busy = state.busy();
    let waiting: Vec<String> = available
        .into_iter()
        .filter(|b| !busy.contains(b.as_str()))
        .collect();
    let limit = if cfg.max_pairs == 0 {
        usize::MAX
    } else {
        cfg.max_pairs.saturating_sub(state.pending.len())
    };
    let mut rng = arena_games::ddz::rules::DealRng::new(cfg.seed ^ 0x7061_6972, state.next_pair);
    let chosen = choose_pairs(
        &state,
        &waiting,
        &cfg.anchors,
        cfg.choose_among,
        limit,
        &mut rng,
    );
    if chosen.is_empty() {
        return Ok(out);
    }
    let created = update(store, |s| {
        // Someone else paired some of these bots meanwhile: keep only pairs of bots still free.
        let busy: HashSet<String> = s.busy().into_iter().map(String::from).collect();
        let mut created = Vec::new();
        for (a, b) in &chosen {
            if busy.contains(a) || busy.contains(b) {
                continue;
            }
            let pair = Pair {
                n: s.next_pair,
                a: a.clone(),
                b: b.clone(),
                created_ms: now_ms(),
                enqueued: false,
            };
            s.next_pair += 1;
            s.pending.insert(pair.id(), pair.clone());
            created.push(pair);
        }
        (!created.is_empty(), created)
    })
    .await?;
    for p in &created {
        enqueue(store, cfg, p).await?;
        tracing::info!(pair = %p.id(), a = %p.a, b = %p.b, "ladder pair started");
    }
    if !created.is_empty() {
        arena_telemetry::metrics::metrics()
            .ladder_pairs_started
            .add(created.len() as u64, &[]);
    }
    out.created = created.len();
    out.enqueued += created.len();
    Ok(out)
}

/// Puts the pair's tables on the job stream and marks it enqueued.
async fn enqueue(store: &dyn Store, cfg: &LadderConfig, pair: &Pair) -> Result<(), LadderError> {
    // Each pair is a trace of its own, whatever pass created it.
    let span = tracing::info_span!(parent: None, "ladder_pair", pair = %pair.id(), a = %pair.a, b = %pair.b);
    let key = deal_key(store).await?;
    let jobs = span.in_scope(|| jobs(pair, cfg, key));
    arena_store::visibility::put_deal_group(store, &deal_group(pair), &pair.table_ids()).await?;
    for job in jobs {
        store
            .enqueue_job(&job.table_id, &arena_table::queue::encode_table_job(&job))
            .await?;
    }
    let id = pair.id();
    update(store, |s| match s.pending.get_mut(&id) {
        Some(p) if !p.enqueued => {
            p.enqueued = true;
            (true, ())
        }
        _ => (false, ()),
    })
    .await
}

/// The leaderboard: every rated release, best conservative score first, at most `limit` (0 = all).
pub async fn leaderboard(store: &dyn Store, limit: usize) -> Result<v1::Leaderboard, LadderError> {
    let (state, _) = load(store).await?;
    let board = state.ratings.leaderboard();
    let take = if limit == 0 { board.len() } else { limit };
    Ok(v1::Leaderboard {
        ratings: board
            .into_iter()
            .take(take)
            .map(|(key, r)| {
                let (bot, release) = key.rsplit_once('@').unwrap_or((key.as_str(), ""));
                v1::Rating {
                    bot: bot.to_string(),
                    release: release.to_string(),
                    mu: r.mu,
                    sigma: r.sigma,
                    conservative: r.conservative(),
                    games: r.games,
                }
            })
            .collect(),
    })
}

/// Runs [`pass`] every `cfg.every` until `shutdown`.
pub async fn run(
    store: Arc<dyn Store>,
    cfg: LadderConfig,
    shutdown: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(shutdown);
    loop {
        let span = tracing::info_span!("ladder_pass");
        match tracing::Instrument::instrument(pass(&*store, &cfg), span).await {
            Ok(p) if p != Pass::default() => tracing::debug!(?p, "ladder pass"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "ladder pass"),
        }
        tokio::select! {
            () = &mut shutdown => return,
            () = tokio::time::sleep(cfg.every) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    fn rated_state(mus: &[(&str, f64)]) -> LadderState {
        let mut s = LadderState::default();
        // Ratings are only changed by pairs: play a bot against a fixed sparring partner until
        // its mean is near the target.
        for &(bot, target) in mus {
            let key = arena_ratings::key(bot, UNVERSIONED);
            for _ in 0..200 {
                let mu = s.ratings.get(&key).mu;
                if (mu - target).abs() < 0.5 {
                    break;
                }
                let (a, b) = if mu < target { (1.0, 0.0) } else { (0.0, 1.0) };
                s.ratings.record_pair(&key, "sparring@x", a, b);
            }
            s.last_played.insert(bot.to_string(), 1);
        }
        s
    }

    #[test]
    fn new_bots_are_paired_first_then_the_longest_idle() {
        let mut s = rated_state(&[("old", 25.0), ("older", 25.0), ("busy", 25.0)]);
        s.last_played.insert("old".into(), 500);
        s.last_played.insert("older".into(), 100);
        s.last_played.insert("busy".into(), 900);
        let waiting = names(&["old", "older", "busy", "fresh"]);
        let mut rng = arena_games::ddz::rules::DealRng::new(1, 0);
        // One pair allowed: it must include the never-played bot.
        let pairs = choose_pairs(&s, &waiting, &[], 1, 1, &mut rng);
        assert_eq!(pairs.len(), 1);
        assert!(pairs[0].0 == "fresh" || pairs[0].1 == "fresh", "{pairs:?}");
        // Without the new bot the longest idle goes first.
        let waiting = names(&["old", "older", "busy"]);
        let pairs = choose_pairs(&s, &waiting, &[], 1, 1, &mut rng);
        assert!(pairs[0].0 == "older" || pairs[0].1 == "older", "{pairs:?}");
    }

    #[test]
    fn opponents_are_close_in_rating_with_some_randomness() {
        let s = rated_state(&[("a", 30.0), ("b", 29.0), ("c", 20.0), ("d", 10.0)]);
        let mut b_count = 0;
        let mut opponents = HashSet::new();
        for i in 0..200 {
            let mut rng = arena_games::ddz::rules::DealRng::new(7, i);
            // Closest only: `a` always meets `b`.
            let pairs = choose_pairs(&s, &names(&["a", "b", "c", "d"]), &[], 1, 1, &mut rng);
            let p = &pairs[0];
            assert!(
                (p.0 == "a" && p.1 == "b") || (p.0 == "b" && p.1 == "a"),
                "{p:?}"
            );
            // Among the two closest: `a` meets `b` or `c`, never `d`.
            let mut rng = arena_games::ddz::rules::DealRng::new(8, i);
            let pairs = choose_pairs(&s, &names(&["a", "b", "c", "d"]), &[], 2, 1, &mut rng);
            let other = if pairs[0].0 == "a" {
                &pairs[0].1
            } else {
                &pairs[0].0
            };
            assert_ne!(other, "d");
            b_count += usize::from(other == "b");
            opponents.insert(other.clone());
        }
        assert_eq!(opponents.len(), 2, "both close opponents get drawn");
        assert!((60..=140).contains(&b_count), "{b_count}");
    }

    #[test]
    fn every_waiting_bot_is_paired_once_and_anchors_never_meet() {
        let s = LadderState::default();
        let anchors = names(&["expert", "seed"]);
        let waiting = names(&["expert", "seed", "x", "y", "z"]);
        for i in 0..50 {
            let mut rng = arena_games::ddz::rules::DealRng::new(3, i);
            let pairs = choose_pairs(&s, &waiting, &anchors, 3, usize::MAX, &mut rng);
            let mut seen = HashSet::new();
            for (a, b) in &pairs {
                assert!(
                    seen.insert(a.clone()) && seen.insert(b.clone()),
                    "{pairs:?}"
                );
                assert!(!(anchors.contains(a) && anchors.contains(b)), "{pairs:?}");
            }
            assert_eq!(pairs.len(), 2, "five bots make two pairs: {pairs:?}");
        }
        let mut rng = arena_games::ddz::rules::DealRng::new(3, 0);
        assert!(choose_pairs(&s, &anchors, &anchors, 3, 9, &mut rng).is_empty());
    }

    fn result(id: &str, scores: [i64; 3], releases: [&str; 3]) -> v1::TableResult {
        v1::TableResult {
            table_id: id.into(),
            final_scores: scores.to_vec(),
            releases: releases.iter().map(|r| r.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_pair_scores_each_side_as_landlord_plus_farmer_team_on_the_same_cards() {
        let pair = Pair {
            n: 4,
            a: "alpha".into(),
            b: "beta".into(),
            created_ms: 0,
            enqueued: true,
        };
        // A wins as landlord (+4), B loses as landlord (-2, and a 1-point penalty for a farmer
        // seat of A's team).
        let ta = result("ladder/p4/a", [4, -2, -2], ["2.0", "7", "7"]);
        let tb = result("ladder/p4/b", [-2, 1, 0], ["7", "2.0", "2.0"]);
        let r = score_pair(&pair, &ta, &tb).unwrap();
        assert_eq!(r.a_key, "alpha@2.0");
        assert_eq!(r.b_key, "beta@7");
        assert_eq!(r.scores, [4.0 + 1.0, -2.0 - 4.0]);
        let unversioned = result("ladder/p4/a", [4, -2, -2], ["", "", ""]);
        assert_eq!(
            score_pair(&pair, &unversioned, &tb).unwrap().a_key,
            "alpha@unversioned"
        );
        let failed = v1::TableResult {
            error: "seats: no such bot".into(),
            ..ta.clone()
        };
        let err = score_pair(&pair, &failed, &tb).unwrap_err();
        assert!(err.to_string().contains("no such bot"), "{err}");
    }

    #[test]
    fn both_tables_of_a_pair_deal_the_same_cards_with_roles_swapped() {
        let pair = Pair {
            n: 9,
            a: "alpha".into(),
            b: "beta".into(),
            created_ms: 0,
            enqueued: false,
        };
        let [ja, jb] = jobs(&pair, &LadderConfig::default(), 42);
        let seats = |j: &v1::TableJob| j.seats.iter().map(|s| s.bot.clone()).collect::<Vec<_>>();
        assert_eq!(seats(&ja), ["alpha", "beta", "beta"]);
        assert_eq!(seats(&jb), ["beta", "alpha", "alpha"]);
        assert_eq!(ja.setup, jb.setup);
        assert_eq!(ja.table_id, "ladder/p9/a");
        assert_eq!(jb.competition, LADDER_COMPETITION);
        let [ja2, _] = jobs(&pair, &LadderConfig::default(), 42);
        assert_eq!(
            ja, ja2,
            "a pair's jobs are rebuilt identically after a restart"
        );
        let [other, _] = jobs(&pair, &LadderConfig::default(), 43);
        assert_ne!(
            other.setup, ja.setup,
            "the deal depends on the secret key, not on the pair number alone"
        );
        assert_eq!(
            ja.labels.get(arena_store::visibility::DEAL_GROUP_LABEL),
            Some(&"ladder/p9".to_string())
        );
    }
}
