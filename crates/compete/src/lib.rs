//! Competitions between landlord bots: n tables, each with its own landlord and the same
//! farmers, `matches × rounds` deals per table, handed out by a [`Format`]; standings with every
//! table's probability of every rank, as the equal-strength paper reports them.

pub mod play;
pub mod plot;

/// The formats and the rank statistics live with the game (`arena_games::ddz`), whose
/// competitions the matchmaker plans through the registry; re-exported under their old paths.
pub use arena_games::ddz::{format, rank as standings};

pub use format::{
    Format, Plan, PlanError, Reuse, Shape, Slot, expected_score, fresh_deal_id, fresh_plan,
    parse_gdi, plan,
};
pub use play::{GameCache, PlayError, Tables, play_plan};
pub use standings::{Standings, kendall_tau, order_of};

use std::collections::HashSet;
use std::sync::atomic::AtomicU64;

use arena_store::DealRecord;

/// A competition definition.
#[derive(Clone, Debug)]
pub struct Competition {
    /// The tables.
    pub tables: Tables,
    /// How deals are handed out.
    pub format: Format,
    /// Number of matches (r).
    pub matches: usize,
    /// Rounds per match (m).
    pub rounds: usize,
    /// Seed for deal assignment and tie-breaking.
    pub seed: u64,
    /// Whether matches may share deals.
    pub reuse: Reuse,
}

/// Why a competition could not run.
#[derive(Debug, thiserror::Error)]
pub enum CompeteError {
    /// Deals could not be planned.
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// Games could not be played.
    #[error(transparent)]
    Play(#[from] PlayError),
}

/// What a competition produced.
#[derive(Clone, Debug)]
pub struct CompetitionResult {
    /// Standings.
    pub standings: Standings,
    /// Every deal id used, in slot order (for claiming in a store).
    pub deal_ids: Vec<String>,
}

/// Plans and plays a competition from the measured deals in `pool` (ids in `exclude` skipped).
pub fn run(
    c: &Competition,
    pool: &[DealRecord],
    exclude: &HashSet<String>,
    threads: usize,
    cache: &mut GameCache,
    progress: &AtomicU64,
) -> Result<CompetitionResult, CompeteError> {
    let n = c.tables.landlords.len();
    let shape = Shape {
        tables: n,
        matches: c.matches,
        rounds: c.rounds,
        reuse: c.reuse,
        seed: c.seed,
    };
    let p = plan(&c.format, pool, shape, exclude)?;
    let totals = play_plan(&c.tables, &p, &c.format, threads, cache, progress)?;
    let mut ids = Vec::new();
    let mut seen = HashSet::new();
    for m in &p.matches {
        for r in m {
            for s in r {
                if seen.insert(s.id.clone()) {
                    ids.push(s.id.clone());
                }
            }
        }
    }
    Ok(CompetitionResult {
        standings: Standings::from_totals(c.tables.landlords.clone(), totals, c.rounds, c.seed),
        deal_ids: ids,
    })
}
