//! The continuous ranked ladder: connected remote bots are grouped as they wait, every group
//! plays duplicate tables on one fresh deal, and its outcome updates a Weng-Lin rating per bot
//! release (see `arena_ratings`). One ladder runs per game ([`LadderConfig::game`]):
//!
//! - **Dou Dizhu**: groups of two, a **duplicate pair** of tables (A as landlord against B in
//!   both farmer seats, then B as landlord against A); the higher pair score wins the pair.
//! - **Mahjong**: groups of four, a **duplicate set** of four tables on one wall, the bots rotated
//!   one seat each table (so each plays the wall from every seat); the four set scores rank the
//!   bots for Weng-Lin's multi-team update.
//!
//! Who plays whom: bots that never played go first, then the bots idle longest; each in turn is
//! joined by bots drawn at random among the few waiting bots closest to its rating, so close
//! ratings meet most but the same bots do not meet forever. A bot plays one group at a time.
//! Operators may add *anchors* (built-in bots such as `expert`, or program bots) that are always
//! available; a group is never anchors only.
//!
//! Each game's ladder lives in one store record ([`state_key`]): the ratings, the groups in
//! flight (still called pairs in the record, [`Pair`]), when each bot last played. Every change is
//! a compare-and-swap of that record, so several matchmakers may run the ladder at once, a group
//! is rated exactly once, and a restarted matchmaker carries on where the last one stopped. A
//! group is created in the record first and enqueued after; a group still not marked enqueued a
//! while later (its creator died in between) is enqueued by whoever sees it. Table results are
//! written once per table id, so a table enqueued twice still counts once.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;
use std::time::Duration;

use arena_games::{GameKind, Group, GroupTable, Ladder};
use arena_proto::v1;
use arena_ratings::Ratings;
use arena_store::{BotKind, Store, StoreError, Topic};
use prost::Message;
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::supervision::changed;

/// The ladder's random draws (who meets whom among close ratings): ChaCha8 from `rand_chacha`,
/// keyed by the ladder's seed, one stream per pass, so a seeded ladder draws the same groups.
pub type LadderRng = rand_chacha::ChaCha8Rng;

/// The draws of the pass with sequence `stream` of a ladder seeded `seed`.
pub fn ladder_rng(seed: u64, stream: u64) -> LadderRng {
    use rand::SeedableRng;
    let mut rng = LadderRng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// The games that have a ladder: the only ones the functions here may be asked about (the
/// leaderboard refuses the others, the server runs no ladder of theirs, retention skips them).
pub fn games() -> impl Iterator<Item = GameKind> {
    GameKind::all().filter(|g| g.ladder().is_some())
}

/// The game's ladder; callers ask only about [`games`].
fn rules(game: GameKind) -> &'static dyn Ladder {
    game.game()
        .ladder()
        .unwrap_or_else(|| panic!("the game {game} has no ladder"))
}

/// Record kind and key of `game`'s ladder state.
pub fn state_key(game: GameKind) -> (&'static str, &'static str) {
    rules(game).state_key()
}

/// The `competition` of `game`'s ladder tables.
pub fn competition(game: GameKind) -> &'static str {
    rules(game).competition()
}

/// How many bots play one group of `game`'s ladder.
pub fn group_size(game: GameKind) -> usize {
    rules(game).group_size()
}
/// A pair not marked enqueued this long after its creation is enqueued again.
const ENQUEUE_GRACE_MS: u64 = 10_000;
/// The release recorded when a bot reported none.
pub const UNVERSIONED: &str = "unversioned";

/// How the ladder runs.
#[derive(Clone, Debug)]
pub struct LadderConfig {
    /// The game; each game's ladder has its own state, bots and ratings.
    pub game: GameKind,
    /// The shortest time between pairing passes (a pass follows a change: a table finished, a
    /// bot connected or gone).
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
    /// Most rated releases kept per bot: rating a newer one forgets the least recently rated
    /// (and its history), so a bot cannot grow the ladder's record without bound by reporting
    /// a new release each game (at least 1).
    pub max_releases: usize,
}

/// Releases rated per bot by default ([`LadderConfig::max_releases`]).
pub const DEFAULT_MAX_RELEASES: usize = 5;
/// Leaderboard entries per page when the request does not say.
pub const DEFAULT_PAGE: usize = 100;
/// Most leaderboard entries per page.
pub const MAX_PAGE: usize = arena_ratings::MAX_LEADERBOARD_PAGE;

impl LadderConfig {
    /// The settings, as one value for a start-up line.
    pub fn summary(&self) -> String {
        let LadderConfig {
            game: _shown_by_the_caller,
            every,
            anchors,
            max_pairs,
            choose_among,
            seed,
            time,
            verdict_policy,
            max_releases,
        } = self;
        format!(
            "on: a pass on change, at most every {every:?}, anchors {}, at most {} groups at once, opponents among \
             the {choose_among} closest, draw seed {seed}, clock {}, verdicts {}, the newest \
             {max_releases} releases of each bot rated",
            if anchors.is_empty() {
                "none".to_string()
            } else {
                anchors.join(", ")
            },
            match max_pairs {
                0 => "unlimited".to_string(),
                n => n.to_string(),
            },
            match time {
                None => "the referee's".to_string(),
                Some(t) => format!(
                    "{} ms a decision, hard cap {} ms",
                    t.decision_ms, t.hard_cap_ms
                ),
            },
            match verdict_policy {
                v1::VerdictPolicy::Unspecified => "the game's default",
                v1::VerdictPolicy::Forfeit => "forfeit",
                v1::VerdictPolicy::PlayOn => "play on",
            }
        )
    }
}

impl Default for LadderConfig {
    fn default() -> Self {
        LadderConfig {
            game: GameKind::default_game(),
            every: Duration::from_secs(1),
            anchors: Vec::new(),
            max_pairs: 0,
            choose_among: 3,
            seed: 0x1adde5,
            time: None,
            verdict_policy: v1::VerdictPolicy::Unspecified,
            max_releases: DEFAULT_MAX_RELEASES,
        }
    }
}

/// A group in flight: a Dou Dizhu pair (A and B), or a Mahjong set (A, B and the two in
/// `more`, in their seats at the set's first table).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    /// Sequence number; the deal is deal `n` of the ladder's seed.
    pub n: u64,
    /// Dou Dizhu: A plays landlord at table `a`, B at table `b`.
    pub a: String,
    /// The other bot.
    pub b: String,
    /// Mahjong: the set's third and fourth bots (empty for a pair, so pair records read and
    /// write as before).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<String>,
    /// Creation time, Unix milliseconds.
    pub created_ms: u64,
    /// True once its tables are on the job stream.
    pub enqueued: bool,
}

impl Pair {
    /// The group's id.
    pub fn id(&self) -> String {
        format!("p{}", self.n)
    }

    /// Its bots: A, B, then the rest of a set.
    pub fn bots(&self) -> Vec<&str> {
        [self.a.as_str(), self.b.as_str()]
            .into_iter()
            .chain(self.more.iter().map(String::as_str))
            .collect()
    }

    /// Its table ids, in the game's table order ([`Ladder::table_suffixes`]).
    pub fn table_ids(&self, game: GameKind) -> Vec<String> {
        let c = competition(game);
        rules(game)
            .table_suffixes()
            .iter()
            .map(|suffix| format!("{c}/p{}/{suffix}", self.n))
            .collect()
    }
}

/// One rated group, kept for the record of recent games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rated {
    /// The group.
    pub pair: Pair,
    /// `bot@release` of A and B.
    pub a_key: String,
    /// B's key.
    pub b_key: String,
    /// The keys of a set's other two bots.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_keys: Vec<String>,
    /// Each bot's pair or set score, in [`Pair::bots`] order.
    pub scores: Vec<f64>,
}

impl Rated {
    /// Every bot's key, in [`Pair::bots`] order.
    pub fn keys(&self) -> Vec<String> {
        [self.a_key.clone(), self.b_key.clone()]
            .into_iter()
            .chain(self.more_keys.iter().cloned())
            .collect()
    }
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
    /// When each rated release (`bot@release`) was last rated, as a number that grows with
    /// every rating ([`LadderState::rated_count`] then), for keeping each bot's newest
    /// [`LadderConfig::max_releases`]; a rated release not here (rated before this was kept)
    /// counts as the oldest.
    #[serde(default)]
    pub rated_at: BTreeMap<String, u64>,
    /// Releases rated so far (the clock of `rated_at`).
    #[serde(default)]
    pub rated_count: u64,
}

/// How many rated pairs the state keeps for inspection.
pub const RECENT: usize = 50;

impl LadderState {
    fn busy(&self) -> HashSet<&str> {
        self.pending.values().flat_map(Pair::bots).collect()
    }

    /// The current rating's mean of `bot` (its latest release).
    fn mu(&self, bot: &str) -> f64 {
        let release = self.release.get(bot).map_or(UNVERSIONED, String::as_str);
        self.ratings.get(&arena_ratings::key(bot, release)).mu
    }

    /// Forgets the least recently rated releases of `bot` beyond its newest `keep` (at least
    /// one is kept); returns the keys forgotten.
    pub fn cap_releases(&mut self, bot: &str, keep: usize) -> Vec<String> {
        let mut keys: Vec<(u64, String)> = self
            .ratings
            .releases_of(bot)
            .map(|k| (self.rated_at.get(k).copied().unwrap_or(0), k.to_string()))
            .collect();
        let keep = keep.max(1);
        if keys.len() <= keep {
            return Vec::new();
        }
        // Oldest first; ties (releases rated before `rated_at` was kept) by key.
        keys.sort();
        let gone: Vec<String> = keys.drain(..keys.len() - keep).map(|(_, k)| k).collect();
        for k in &gone {
            self.ratings.remove(k);
            self.rated_at.remove(k);
        }
        gone
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
    /// A group's table has no usable result.
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

/// Reads `game`'s ladder state and its raw bytes (for the compare-and-swap).
pub async fn load(
    store: &dyn Store,
    game: GameKind,
) -> Result<(LadderState, Option<Vec<u8>>), LadderError> {
    let (kind, key) = state_key(game);
    match store.record(kind, key).await? {
        None => Ok((LadderState::default(), None)),
        Some(bytes) => serde_json::from_slice(&bytes)
            .map(|s| (s, Some(bytes)))
            .map_err(|e| LadderError::Decode {
                what: format!("the ladder's state record {kind}/{key}"),
                why: e.to_string(),
            }),
    }
}

/// Applies `change` to `game`'s state with compare-and-swap, retrying on conflicts. `change`
/// returns whether it changed anything and a value passed back.
async fn update<T>(
    store: &dyn Store,
    game: GameKind,
    mut change: impl FnMut(&mut LadderState) -> (bool, T),
) -> Result<T, LadderError> {
    let (kind, key) = state_key(game);
    loop {
        let (mut state, old) = load(store, game).await?;
        let (changed, out) = change(&mut state);
        if !changed {
            return Ok(out);
        }
        let bytes = serde_json::to_vec(&state).map_err(|e| LadderError::Encode(e.to_string()))?;
        if store.swap_record(kind, key, old.as_deref(), &bytes).await? {
            return Ok(out);
        }
    }
}

/// The ladder's secret deal seed, drawn and stored the first time it is needed.
async fn deal_key(store: &dyn Store, game: GameKind) -> Result<u64, LadderError> {
    let mut fresh = [0u8; 8];
    getrandom::fill(&mut fresh).map_err(|e| LadderError::Random(e.to_string()))?;
    let fresh = u64::from_le_bytes(fresh).max(1);
    update(store, game, |s| {
        if s.deal_key == 0 {
            s.deal_key = fresh;
            (true, fresh)
        } else {
            (false, s.deal_key)
        }
    })
    .await
}

/// The deal group of a group's tables.
pub fn deal_group(pair: &Pair, game: GameKind) -> String {
    format!("{}/{}", competition(game), pair.id())
}

/// The group `pair` as the game's ladder sees it.
fn group<'a>(pair: &'a Pair, cfg: &LadderConfig, deal_key: u64) -> Group<'a> {
    Group {
        n: pair.n,
        bots: pair.bots(),
        deal_key,
        seed: cfg.seed,
        time: cfg.time,
        verdict_policy: cfg.verdict_policy,
    }
}

/// The table jobs of `pair` in `cfg.game`'s ladder, dealt from the ladder's secret `deal_key`:
/// the game lays the tables out; every one is filed under the ladder and the group.
pub fn jobs(pair: &Pair, cfg: &LadderConfig, deal_key: u64) -> Vec<v1::TableJob> {
    let game = cfg.game;
    let c = competition(game);
    let deal_group = deal_group(pair, game);
    rules(game)
        .tables(&group(pair, cfg, deal_key))
        .into_iter()
        .map(|GroupTable { suffix, mut job }| {
            // The ladder queues on the default lane.
            job.lane = String::new();
            job.table_id = format!("{c}/p{}/{suffix}", pair.n);
            job.competition = c.into();
            job.labels.insert("pair".to_string(), pair.id());
            job.labels.insert(
                arena_store::visibility::DEAL_GROUP_LABEL.to_string(),
                deal_group.clone(),
            );
            job.labels.extend(arena_telemetry::job_labels());
            let placement = job.placement.get_or_insert_with(Default::default);
            placement.deal_group = deal_group.clone();
            placement.pair = pair.id();
            job
        })
        .collect()
}

/// The release the bot of `seat` reported at table `r` (or [`UNVERSIONED`]).
fn release(r: &v1::TableResult, seat: usize) -> String {
    r.releases
        .get(seat)
        .filter(|s| !s.is_empty())
        .cloned()
        .unwrap_or_else(|| UNVERSIONED.to_string())
}

/// What a finished group of `game` says (its tables' results in [`Pair::table_ids`] order):
/// each bot's `bot@release` and group score, or why it can't be rated.
pub fn score(
    game: GameKind,
    pair: &Pair,
    tables: &[v1::TableResult],
) -> Result<Rated, LadderError> {
    for r in tables {
        if !r.error.is_empty() {
            return Err(LadderError::Table {
                table: r.table_id.clone(),
                why: format!("failed: {}", r.error),
            });
        }
        if r.final_scores.len() != game.seat_count() {
            return Err(LadderError::Table {
                table: r.table_id.clone(),
                why: "has no scores".into(),
            });
        }
    }
    // The deal key, seed and clock play no part in scoring.
    let group = Group {
        n: pair.n,
        bots: pair.bots(),
        deal_key: 0,
        seed: 0,
        time: None,
        verdict_policy: v1::VerdictPolicy::Unspecified,
    };
    let scored = rules(game)
        .score(&group, tables)
        .map_err(|why| LadderError::Table {
            table: pair.id(),
            why,
        })?;
    let mut keys = group
        .bots
        .iter()
        .zip(&scored.release_at)
        .map(|(bot, &(t, seat))| {
            arena_ratings::key(
                bot,
                &tables
                    .get(t)
                    .map_or_else(|| UNVERSIONED.into(), |r| release(r, seat)),
            )
        });
    Ok(Rated {
        pair: pair.clone(),
        a_key: keys.next().unwrap_or_default(),
        b_key: keys.next().unwrap_or_default(),
        more_keys: keys.collect(),
        scores: scored.scores,
    })
}

/// Bots that may be grouped now: the remote bots with presence that play the ladder's game
/// (the games their last `Hello` listed, as bot-host recorded them: a bot that listed none
/// plays Dou Dizhu only), plus the anchors; sorted by name.
pub async fn available(store: &dyn Store, cfg: &LadderConfig) -> Result<Vec<String>, LadderError> {
    let game = arena_store::Game::from(cfg.game);
    let mut out = BTreeSet::new();
    for bot in store.bots().await? {
        if matches!(bot.kind, BotKind::Remote)
            && !store.presence(&bot.name).await?.is_empty()
            && arena_store::bot_games::games_of(store, &bot)
                .await?
                .contains(&game)
        {
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
    rng: &mut LadderRng,
) -> Vec<(String, String)> {
    choose_groups(state, waiting, anchors, choose_among, 2, limit, rng)
        .into_iter()
        .map(|g| {
            let [a, b]: [String; 2] = g.try_into().expect("groups of two");
            (a, b)
        })
        .collect()
}

/// Chooses groups of `size` among `waiting` (none of them busy), at most `limit`: new bots
/// first, then the longest idle, each joined one by one by bots drawn from the `choose_among`
/// waiting bots closest to its rating, and never a group of anchors only. A group's order is
/// shuffled with `rng`: who waited longest does not show in its table ids or seats.
pub fn choose_groups(
    state: &LadderState,
    waiting: &[String],
    anchors: &[String],
    choose_among: usize,
    size: usize,
    limit: usize,
    rng: &mut LadderRng,
) -> Vec<Vec<String>> {
    let is_anchor = |b: &str| anchors.iter().any(|a| a == b);
    let mut queue: Vec<&String> = waiting.iter().collect();
    // Never-played bots first (`None` sorts first), then by the time they finished their last
    // group (oldest first), and anchors after every real bot with the same standing.
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
        if out.len() >= limit || size < 2 {
            break;
        }
        if taken.contains(a.as_str()) {
            continue;
        }
        let mu = state.mu(a);
        let mut candidates: Vec<(&String, f64)> = queue
            .iter()
            .filter(|b| b != &a && !taken.contains(b.as_str()))
            .map(|b| (*b, (state.mu(b) - mu).abs()))
            .collect();
        candidates.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(y.0)));
        let mut group: Vec<&String> = vec![*a];
        while group.len() < size {
            // The last seat of a group of anchors must go to a real bot.
            let last = group.len() + 1 == size;
            let only_anchors = group.iter().all(|g| is_anchor(g));
            let open: Vec<usize> = (0..candidates.len())
                .filter(|&i| !(last && only_anchors && is_anchor(candidates[i].0)))
                .collect();
            if open.is_empty() {
                break;
            }
            let k = choose_among.clamp(1, open.len());
            let pick = open[rng.random_range(0..k)];
            group.push(candidates.remove(pick).0);
        }
        if group.len() < size {
            continue;
        }
        for i in 0..size - 1 {
            let j = i + rng.random_range(0..size - i);
            group.swap(i, j);
        }
        taken.extend(group.iter().map(|g| g.as_str()));
        out.push(group.into_iter().cloned().collect());
    }
    out
}

/// What one pass did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    /// Groups rated.
    pub rated: usize,
    /// Groups discarded (a table failed).
    pub discarded: usize,
    /// Groups created.
    pub created: usize,
    /// Groups (re-)enqueued.
    pub enqueued: usize,
}

/// One pass: rate the groups whose tables all finished, enqueue groups whose creator died before
/// enqueueing them, and group the waiting bots (the connected remote bots of the ladder's game
/// and the anchors).
pub async fn pass(store: &dyn Store, cfg: &LadderConfig) -> Result<Pass, LadderError> {
    let available = available(store, cfg).await?;
    pass_among(store, cfg, &available).await
}

/// [`pass`] with the bots that may be grouped given: whoever knows who is connected (or a test
/// seating bots of its own).
pub async fn pass_among(
    store: &dyn Store,
    cfg: &LadderConfig,
    available: &[String],
) -> Result<Pass, LadderError> {
    let game = cfg.game;
    let mut out = Pass::default();
    let (state, _) = load(store, game).await?;

    // Rate finished groups.
    let mut finished: Vec<(String, Result<Rated, LadderError>)> = Vec::new();
    'groups: for (id, pair) in &state.pending {
        let mut tables = Vec::new();
        for table in pair.table_ids(game) {
            let Some(bytes) = store.result(&table).await? else {
                continue 'groups;
            };
            tables.push((table, bytes));
        }
        let decoded: Result<Vec<v1::TableResult>, LadderError> = tables
            .iter()
            .map(|(table, bytes)| {
                v1::TableResult::decode(bytes.as_slice()).map_err(|e| LadderError::Decode {
                    what: format!("the result of {table}"),
                    why: e.to_string(),
                })
            })
            .collect();
        finished.push((id.clone(), decoded.and_then(|t| score(game, pair, &t))));
    }
    if !finished.is_empty() {
        let now = now_ms();
        let (rated, discarded, moved, forgotten) = update(store, game, |s| {
            let (mut rated, mut discarded) = (0, 0);
            // The ratings this pass left, for the releases' histories.
            let mut moved: Vec<(String, arena_ratings::Rating)> = Vec::new();
            let mut forgotten: Vec<String> = Vec::new();
            for (id, scored) in &finished {
                // Another matchmaker may have rated it meanwhile: only a pending group counts.
                let Some(pair) = s.pending.remove(id) else {
                    continue;
                };
                for bot in pair.bots() {
                    s.last_played.insert(bot.to_string(), now);
                }
                match scored {
                    Ok(r) => {
                        let keys = r.keys();
                        if keys.len() == 2 {
                            s.ratings
                                .record_pair(&keys[0], &keys[1], r.scores[0], r.scores[1]);
                        } else {
                            s.ratings.record_ranking(&keys, &r.scores);
                        }
                        for (bot, key) in pair.bots().into_iter().zip(&keys) {
                            if let Some((_, release)) = key.rsplit_once('@') {
                                s.release.insert(bot.to_string(), release.to_string());
                            }
                            moved.retain(|(k, _)| k != key);
                            moved.push((key.clone(), s.ratings.get(key)));
                            s.rated_count += 1;
                            s.rated_at.insert(key.clone(), s.rated_count);
                            for gone in s.cap_releases(bot, cfg.max_releases) {
                                moved.retain(|(k, _)| *k != gone);
                                forgotten.push(gone);
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
                        tracing::warn!(pair = %id, game = ?game, %why, "ladder group discarded");
                        s.discarded += 1;
                        discarded += 1;
                    }
                }
            }
            (rated + discarded > 0, (rated, discarded, moved, forgotten))
        })
        .await?;
        for (key, rating) in moved {
            record_history(store, game, &key, rating, now).await?;
        }
        for key in forgotten {
            use arena_ratings::history::{HISTORY_KIND, history_key};
            store
                .delete_record(HISTORY_KIND, &history_key(game.name(), &key))
                .await?;
        }
        out.rated = rated;
        out.discarded = discarded;
        if rated > 0 {
            arena_telemetry::metrics::metrics()
                .ladder_pairs_rated
                .add(rated as u64, &[]);
        }
    }

    // Groups whose creator died between recording and enqueueing them.
    let (state, _) = load(store, game).await?;
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

    // Group the waiting bots.
    let (state, _) = load(store, game).await?;
    let busy = state.busy();
    let waiting: Vec<String> = available
        .iter()
        .filter(|b| !busy.contains(b.as_str()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .cloned()
        .collect();
    let limit = if cfg.max_pairs == 0 {
        usize::MAX
    } else {
        cfg.max_pairs.saturating_sub(state.pending.len())
    };
    let mut rng = ladder_rng(cfg.seed ^ 0x7061_6972, state.next_pair);
    let chosen = choose_groups(
        &state,
        &waiting,
        &cfg.anchors,
        cfg.choose_among,
        group_size(game),
        limit,
        &mut rng,
    );
    if chosen.is_empty() {
        return Ok(out);
    }
    let created = update(store, game, |s| {
        // Someone else grouped some of these bots meanwhile: keep only groups of bots still free.
        let busy: HashSet<String> = s.busy().into_iter().map(String::from).collect();
        let mut created = Vec::new();
        for group in &chosen {
            if group.iter().any(|b| busy.contains(b)) {
                continue;
            }
            let pair = Pair {
                n: s.next_pair,
                a: group[0].clone(),
                b: group[1].clone(),
                more: group[2..].to_vec(),
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
        tracing::info!(pair = %p.id(), bots = ?p.bots(), game = ?game, "ladder group started");
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

/// Appends `rating` to the history of release `key` ([`arena_ratings::history`]), with
/// compare-and-swap: another matchmaker's point is never overwritten.
async fn record_history(
    store: &dyn Store,
    game: GameKind,
    key: &str,
    rating: arena_ratings::Rating,
    unix_ms: u64,
) -> Result<(), LadderError> {
    use arena_ratings::history::{HISTORY_KIND, Point, append, history_key};
    let record = history_key(game.name(), key);
    loop {
        let old = store.record(HISTORY_KIND, &record).await?;
        let mut points: Vec<Point> = match &old {
            None => Vec::new(),
            Some(bytes) => serde_json::from_slice(bytes).map_err(|e| LadderError::Decode {
                what: format!("the rating history {HISTORY_KIND}/{record}"),
                why: e.to_string(),
            })?,
        };
        append(
            &mut points,
            Point {
                unix_ms,
                mu: rating.mu,
                sigma: rating.sigma,
                games: rating.games,
            },
        );
        let bytes = serde_json::to_vec(&points).map_err(|e| LadderError::Encode(e.to_string()))?;
        if store
            .swap_record(HISTORY_KIND, &record, old.as_deref(), &bytes)
            .await?
        {
            return Ok(());
        }
    }
}

/// Puts the group's tables on the job stream and marks it enqueued.
async fn enqueue(store: &dyn Store, cfg: &LadderConfig, pair: &Pair) -> Result<(), LadderError> {
    let game = cfg.game;
    // Each group is a trace of its own, whatever pass created it.
    let span = tracing::info_span!(parent: None, "ladder_pair", pair = %pair.id(), a = %pair.a, b = %pair.b);
    let key = deal_key(store, game).await?;
    let jobs = span.in_scope(|| jobs(pair, cfg, key));
    arena_store::visibility::put_deal_group(store, &deal_group(pair, game), &pair.table_ids(game))
        .await?;
    for job in jobs {
        store
            .enqueue_job(&job.table_id, &arena_table::queue::encode_table_job(&job))
            .await?;
    }
    let id = pair.id();
    update(store, game, |s| match s.pending.get_mut(&id) {
        Some(p) if !p.enqueued => {
            p.enqueued = true;
            (true, ())
        }
        _ => (false, ()),
    })
    .await
}

/// Where a leaderboard page starts: `page_token` is empty (the first page) or a previous page's
/// `next_page_token`, the position of the page's first entry.
pub fn page_start(page_token: &str) -> Result<usize, arena_serve::ApiError> {
    if page_token.is_empty() {
        return Ok(0);
    }
    page_token
        .strip_prefix('p')
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| {
            arena_serve::ApiError::invalid(
                "page_token",
                format!(
                    "{} is not a page token: give the next_page_token of a previous page, or \
                     nothing for the first page",
                    arena_proto::text::quote(page_token)
                ),
            )
        })
}

/// The page size a request asks for: `limit`, 0 for [`DEFAULT_PAGE`], more than [`MAX_PAGE`]
/// refused.
pub fn page_size(limit: u32) -> Result<usize, arena_serve::ApiError> {
    match limit as usize {
        0 => Ok(DEFAULT_PAGE),
        n if n > MAX_PAGE => Err(arena_serve::ApiError::OutOfRange(format!(
            "limit: at most {MAX_PAGE} entries a page, not {n}; ask for the next page with \
             page_token"
        ))),
        n => Ok(n),
    }
}

/// One page of `game`'s leaderboard: the rated releases, best conservative score first, from
/// position `start`, at most `size`.
pub async fn leaderboard(
    store: &dyn Store,
    game: GameKind,
    start: usize,
    size: usize,
) -> Result<v1::Leaderboard, LadderError> {
    let (state, _) = load(store, game).await?;
    let board = state.ratings.leaderboard();
    let total = board.len();
    let end = start.saturating_add(size).min(total);
    Ok(v1::Leaderboard {
        total: total as u64,
        next_page_token: if end < total {
            format!("p{end}")
        } else {
            String::new()
        },
        ratings: board
            .into_iter()
            .skip(start)
            .take(size)
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
        game: game.name().into(),
    })
}

/// How long the ladder waits without a change signal before a pass anyway: a safety net (its
/// tables' results and bots connecting wake it as they happen), which also re-enqueues the
/// groups of a matchmaker that died between recording and enqueueing them.
pub const LADDER_RESCAN: Duration = Duration::from_secs(30);

/// Runs [`pass`] whenever one of the ladder's tables finishes or a bot connects or goes, at
/// most once every `cfg.every` (a burst makes one pass), and at least every [`LADDER_RESCAN`],
/// until `shutdown`.
pub async fn run(
    store: Arc<dyn Store>,
    cfg: LadderConfig,
    shutdown: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(shutdown);
    // Made before the first pass reads: a write after that read wakes them. (These topics are
    // always valid; were watching refused, the safety passes would still run the ladder.)
    let mut results = store
        .watch(&Topic::Results(competition(cfg.game).to_string()))
        .ok();
    let mut presence = store.watch(&Topic::Presence).ok();
    loop {
        let started = tokio::time::Instant::now();
        let span = tracing::info_span!("ladder_pass", game = ?cfg.game);
        match tracing::Instrument::instrument(pass(&*store, &cfg), span).await {
            Ok(p) if p != Pass::default() => tracing::debug!(?p, "ladder pass"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "ladder pass"),
        }
        tokio::select! {
            () = &mut shutdown => return,
            () = changed(&mut results) => {}
            () = changed(&mut presence) => {}
            () = tokio::time::sleep(LADDER_RESCAN) => {}
        }
        tokio::select! {
            () = &mut shutdown => return,
            () = tokio::time::sleep_until(started + cfg.every) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_games::ddz::GAME as DOU_DIZHU;
    use arena_games::mahjong::GAME as MAHJONG;
    use arena_store::prelude::*;

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

    #[tokio::test]
    async fn remote_bots_are_available_for_the_games_their_hello_listed() {
        use arena_store::{BotRecord, Game};
        let dir = tempfile::tempdir().unwrap();
        let store = arena_store::EmbeddedStore::open(dir.path()).unwrap();
        // (bot, the games its hello listed — `None`: it never said —, connected)
        let bots: [(&str, Option<&[Game]>, bool); 6] = [
            ("tiles", Some(&[Game::named("mahjong")]), true),
            (
                "both",
                Some(&[Game::named("ddz"), Game::named("mahjong")]),
                true,
            ),
            ("cards", Some(&[]), true),
            ("old", None, true),
            ("gone", Some(&[Game::named("mahjong")]), false),
            ("prog", None, true),
        ];
        for (name, games, connected) in bots {
            let kind = if name == "prog" {
                BotKind::Program {
                    game: Game::named("mahjong"),
                    command: "bot".into(),
                    workdir: None,
                    cpu_seconds: 0,
                    memory_mb: 0,
                }
            } else {
                BotKind::Remote
            };
            let record = BotRecord {
                name: name.into(),
                kind,
                token_sha256: None,
                max_tables: 0,
                created_unix_ms: 1,
                decision_ms: 0,
                later_decision_ms: 0,
            };
            assert!(store.add_bot(&record).await.unwrap());
            if let Some(games) = games {
                arena_store::bot_games::put_remote_games(&store, name, games)
                    .await
                    .unwrap();
            }
            if connected {
                store
                    .set_presence(name, "host-1", Duration::from_secs(60))
                    .await
                    .unwrap();
            }
        }
        let cfg = |game, anchors: &[&str]| LadderConfig {
            game,
            anchors: names(anchors),
            ..LadderConfig::default()
        };
        // Connected remote bots of the game, and the anchors; never a program bot (anchors
        // only) nor a bot that is not connected.
        assert_eq!(
            available(&store, &cfg(MAHJONG, &["greedy"])).await.unwrap(),
            names(&["both", "greedy", "tiles"])
        );
        assert_eq!(
            available(&store, &cfg(DOU_DIZHU, &["expert"]))
                .await
                .unwrap(),
            names(&["both", "cards", "expert", "old"])
        );
    }

    #[test]
    fn new_bots_are_paired_first_then_the_longest_idle() {
        let mut s = rated_state(&[("old", 25.0), ("older", 25.0), ("busy", 25.0)]);
        s.last_played.insert("old".into(), 500);
        s.last_played.insert("older".into(), 100);
        s.last_played.insert("busy".into(), 900);
        let waiting = names(&["old", "older", "busy", "fresh"]);
        let mut rng = ladder_rng(1, 0);
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
            let mut rng = ladder_rng(7, i);
            // Closest only: `a` always meets `b`.
            let pairs = choose_pairs(&s, &names(&["a", "b", "c", "d"]), &[], 1, 1, &mut rng);
            let p = &pairs[0];
            assert!(
                (p.0 == "a" && p.1 == "b") || (p.0 == "b" && p.1 == "a"),
                "{p:?}"
            );
            // Among the two closest: `a` meets `b` or `c`, never `d`.
            let mut rng = ladder_rng(8, i);
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
            let mut rng = ladder_rng(3, i);
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
        let mut rng = ladder_rng(3, 0);
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
            more: Vec::new(),
            created_ms: 0,
            enqueued: true,
        };
        // A wins as landlord (+4), B loses as landlord (-2, and a 1-point penalty for a farmer
        // seat of A's team).
        let ta = result("ladder/p4/a", [4, -2, -2], ["2.0", "7", "7"]);
        let tb = result("ladder/p4/b", [-2, 1, 0], ["7", "2.0", "2.0"]);
        let r = score(DOU_DIZHU, &pair, &[ta.clone(), tb.clone()]).unwrap();
        assert_eq!(r.a_key, "alpha@2.0");
        assert_eq!(r.b_key, "beta@7");
        assert_eq!(r.scores, [4.0 + 1.0, -2.0 - 4.0]);
        let unversioned = result("ladder/p4/a", [4, -2, -2], ["", "", ""]);
        assert_eq!(
            score(DOU_DIZHU, &pair, &[unversioned.clone(), tb.clone()])
                .unwrap()
                .a_key,
            "alpha@unversioned"
        );
        let failed = v1::TableResult {
            error: "seats: no such bot".into(),
            ..ta.clone()
        };
        let err = score(DOU_DIZHU, &pair, &[failed.clone(), tb.clone()]).unwrap_err();
        assert!(err.to_string().contains("no such bot"), "{err}");
    }

    #[test]
    fn both_tables_of_a_pair_deal_the_same_cards_with_roles_swapped() {
        let pair = Pair {
            n: 9,
            a: "alpha".into(),
            b: "beta".into(),
            more: Vec::new(),
            created_ms: 0,
            enqueued: false,
        };
        let [ja, jb]: [v1::TableJob; 2] = jobs(&pair, &LadderConfig::default(), 42)
            .try_into()
            .unwrap();
        let seats = |j: &v1::TableJob| j.seats.iter().map(|s| s.bot.clone()).collect::<Vec<_>>();
        assert_eq!(seats(&ja), ["alpha", "beta", "beta"]);
        assert_eq!(seats(&jb), ["beta", "alpha", "alpha"]);
        assert_eq!(ja.setup, jb.setup);
        assert_eq!(ja.table_id, "ladder/p9/a");
        assert_eq!(jb.competition, competition(DOU_DIZHU));
        // Rebuilt after a restart, a job is the same table; only the label saying when it was
        // enqueued (observability) may have moved on by a millisecond.
        let unstamped = |mut j: v1::TableJob| {
            j.labels.remove(arena_telemetry::ENQUEUED_AT_LABEL);
            j
        };
        let ja2 = jobs(&pair, &LadderConfig::default(), 42).remove(0);
        assert_eq!(
            unstamped(ja.clone()),
            unstamped(ja2),
            "a pair's jobs are rebuilt identically after a restart"
        );
        let other = jobs(&pair, &LadderConfig::default(), 43).remove(0);
        assert_ne!(
            other.setup, ja.setup,
            "the deal depends on the secret key, not on the pair number alone"
        );
        assert_eq!(
            ja.labels.get(arena_store::visibility::DEAL_GROUP_LABEL),
            Some(&"ladder/p9".to_string())
        );
    }

    fn set(n: u64) -> Pair {
        Pair {
            n,
            a: "north".into(),
            b: "east".into(),
            more: vec!["south".into(), "west".into()],
            created_ms: 0,
            enqueued: false,
        }
    }

    #[test]
    fn a_mahjong_set_is_one_wall_at_four_tables_each_bot_in_every_seat() {
        let cfg = LadderConfig {
            game: MAHJONG,
            ..LadderConfig::default()
        };
        let pair = set(3);
        let jobs = jobs(&pair, &cfg, 42);
        assert_eq!(jobs.len(), 4);
        let ids: Vec<&str> = jobs.iter().map(|j| j.table_id.as_str()).collect();
        assert_eq!(ids, pair.table_ids(MAHJONG), "in table-id order");
        assert_eq!(ids[2], "ladder-mahjong/p3/r2");
        let mut seats_of: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
        for (k, j) in jobs.iter().enumerate() {
            assert_eq!(j.game, "mahjong");
            assert_eq!(j.setup, jobs[0].setup, "the same wall");
            assert_eq!(j.competition, competition(MAHJONG));
            let p = j.placement.as_deref().unwrap();
            assert_eq!((p.pair.as_str(), p.rotation), ("p3", k as u32));
            assert_eq!(p.deal_group, "ladder-mahjong/p3");
            assert_eq!(j.time, Some(arena_games::mahjong::spec::contest_time()));
            arena_games::validate(j).unwrap();
            for (seat, s) in j.seats.iter().enumerate() {
                seats_of.entry(s.bot.clone()).or_default().insert(seat);
            }
        }
        assert_eq!(seats_of.len(), 4);
        assert!(seats_of.values().all(|s| s.len() == 4), "{seats_of:?}");
        let seats = |j: &v1::TableJob| j.seats.iter().map(|s| s.bot.clone()).collect::<Vec<_>>();
        assert_eq!(seats(&jobs[0]), ["north", "east", "south", "west"]);
        assert_eq!(seats(&jobs[1]), ["west", "north", "east", "south"]);
        assert_ne!(
            super::jobs(&pair, &cfg, 43)[0].setup,
            jobs[0].setup,
            "the wall depends on the secret key"
        );
    }

    #[test]
    fn a_set_scores_each_bot_over_its_four_seats() {
        let pair = set(1);
        // At table k the bot of first-table seat s sits in seat s + k; "north" (first-table
        // seat 0) wins 10 at every table, whichever seat it is in.
        let tables: Vec<v1::TableResult> = (0..4)
            .map(|k| {
                let mut scores = [-3i64; 4];
                scores[k] = 9;
                v1::TableResult {
                    table_id: format!("ladder-mahjong/p1/r{k}"),
                    final_scores: scores.to_vec(),
                    releases: ["1.0", "", "b", "builtin"].map(String::from).to_vec(),
                    ..Default::default()
                }
            })
            .collect();
        let r = score(MAHJONG, &pair, &tables).unwrap();
        assert_eq!(r.scores, [36.0, -12.0, -12.0, -12.0]);
        assert_eq!(
            r.keys(),
            ["north@1.0", "east@unversioned", "south@b", "west@builtin"]
        );
        let mut failed = tables.clone();
        failed[3].error = "no seat".into();
        assert!(score(MAHJONG, &pair, &failed).is_err());
        assert!(score(MAHJONG, &pair, &tables[..3]).is_err());
    }

    #[test]
    fn groups_of_four_take_every_waiting_bot_once_and_never_only_anchors() {
        let s = LadderState::default();
        let anchors = names(&["random", "greedy", "expert"]);
        for i in 0..50 {
            let mut rng = ladder_rng(9, i);
            // One real bot and three anchors make one set.
            let waiting = names(&["random", "greedy", "expert", "x"]);
            let groups = choose_groups(&s, &waiting, &anchors, 3, 4, usize::MAX, &mut rng);
            assert_eq!(groups.len(), 1, "{groups:?}");
            let mut g = groups[0].clone();
            g.sort();
            assert_eq!(g, names(&["expert", "greedy", "random", "x"]));
            // Anchors alone make none.
            assert!(choose_groups(&s, &anchors, &anchors, 3, 4, 9, &mut rng).is_empty());
            // Nine bots: two sets, no bot twice.
            let waiting = names(&["a", "b", "c", "d", "e", "f", "g", "h", "random"]);
            let groups = choose_groups(&s, &waiting, &anchors, 3, 4, usize::MAX, &mut rng);
            assert_eq!(groups.len(), 2, "{groups:?}");
            let all: BTreeSet<&String> = groups.iter().flatten().collect();
            assert_eq!(all.len(), 8);
        }
    }

    #[test]
    fn pair_records_written_before_sets_read_and_write_as_before() {
        let old = r#"{"n":4,"a":"x","b":"y","created_ms":5,"enqueued":true}"#;
        let p: Pair = serde_json::from_str(old).unwrap();
        assert_eq!(p.bots(), ["x", "y"]);
        assert_eq!(serde_json::to_string(&p).unwrap(), old);
        let rated = r#"{"pair":{"n":4,"a":"x","b":"y","created_ms":5,"enqueued":true},"a_key":"x@1","b_key":"y@1","scores":[1.0,-1.0]}"#;
        let r: Rated = serde_json::from_str(rated).unwrap();
        assert_eq!((r.keys().len(), r.scores.len()), (2, 2));
        assert_eq!(serde_json::to_string(&r).unwrap(), rated);
    }
}
