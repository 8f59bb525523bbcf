//! Playing a competition's plan on the fast path, with a cache so experiments that deal the same
//! cards to the same table again (another format, more rounds) never replay a game.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use arena_games::ddz::builtin::{Bot, BotSpec};
use arena_games::ddz::play::{self as runner, Buffers};
use arena_games::ddz::rules::{Deal, GameConfig, RuleSet, Scoring};

use crate::format::{Format, Plan};

/// The tables: one landlord bot each, the same farmers everywhere.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Tables {
    /// Landlord bot names, one per table.
    pub landlords: Vec<String>,
    /// Down farmer bot.
    pub down: String,
    /// Up farmer bot.
    pub up: String,
    /// Scoring of landlord scores.
    pub scoring: Scoring,
    /// Rule set.
    #[serde(skip)]
    pub rules: RuleSet,
}

/// Why a competition could not be played.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// A bot name that does not parse or is not built in.
    #[error("bot {name:?}: {reason}")]
    Bot {
        /// The name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A built-in bot played illegally (a bug in that bot).
    #[error(transparent)]
    Run(#[from] runner::RunError),
}

/// Landlord scores already played: `(table, deal id) → score`. A table plays a given deal the
/// same way every time (its seed derives from both), so a cached score is exact.
#[derive(Default, Debug)]
pub struct GameCache {
    scores: HashMap<(usize, String), i64>,
}

impl GameCache {
    /// Games cached.
    pub fn len(&self) -> usize {
        self.scores.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.scores.is_empty()
    }

    /// True if the score of table `table` on deal `id` is cached (playing it again costs nothing).
    pub fn contains(&self, table: usize, id: &str) -> bool {
        self.scores.contains_key(&(table, id.to_string()))
    }
}

fn build(name: &str) -> Result<Box<dyn Bot>, PlayError> {
    let spec: BotSpec = name.parse().map_err(|reason| PlayError::Bot {
        name: name.into(),
        reason,
    })?;
    spec.build_builtin().ok_or_else(|| PlayError::Bot {
        name: name.into(),
        reason: "the in-process runner plays built-in bots; program bots play through bot-host"
            .into(),
    })
}

/// Checks every bot name before any work starts.
pub fn check_tables(t: &Tables) -> Result<(), PlayError> {
    for n in t.landlords.iter().chain([&t.down, &t.up]) {
        build(n)?;
    }
    Ok(())
}

/// A played game: (table, deal id) and the landlord's score.
type Scored = ((usize, String), i64);

/// The seed of `table` playing deal `id`.
pub fn game_seed(id: &str, table: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ (table as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for b in id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Plays every slot of `plan` not yet in `cache` (over `threads` threads) and returns each
/// table's total per match: `[match][table]`. Difficulty-adjusted totals subtract each deal's
/// expected score.
pub fn play_plan(
    tables: &Tables,
    plan: &Plan,
    format: &Format,
    threads: usize,
    cache: &mut GameCache,
    progress: &AtomicU64,
) -> Result<Vec<Vec<f64>>, PlayError> {
    check_tables(tables)?;
    let mut jobs: Vec<(usize, String, Deal)> = Vec::new();
    let mut queued = std::collections::HashSet::new();
    for m in &plan.matches {
        for round in m {
            for (t, slot) in round.iter().enumerate() {
                let key = (t, slot.id.clone());
                if !cache.scores.contains_key(&key) && queued.insert(key) {
                    jobs.push((t, slot.id.clone(), slot.deal));
                }
            }
        }
    }
    let config = GameConfig {
        rules: tables.rules,
        ..GameConfig::fixed_landlord()
    };
    let threads = threads.max(1);
    let results: Vec<Result<Vec<Scored>, PlayError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|w| {
                let jobs = &jobs;
                s.spawn(move || {
                    let mut landlords: Vec<Option<Box<dyn Bot>>> =
                        (0..tables.landlords.len()).map(|_| None).collect();
                    let (mut down, mut up) = (build(&tables.down)?, build(&tables.up)?);
                    let mut moves = Buffers::new();
                    let mut out = Vec::new();
                    for (t, id, deal) in jobs.iter().skip(w).step_by(threads) {
                        let l = match &mut landlords[*t] {
                            Some(b) => b,
                            slot => slot.insert(build(&tables.landlords[*t])?),
                        };
                        let mut seats: [&mut dyn Bot; 3] = [&mut **l, &mut *down, &mut *up];
                        let g = runner::play_game(
                            config,
                            *deal,
                            game_seed(id, *t),
                            &mut seats,
                            &mut moves,
                        )?;
                        let score = g.outcome().map_or(0, |o| o.landlord_score(tables.scoring));
                        out.push(((*t, id.clone()), score));
                        progress.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(out)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    for r in results {
        cache.scores.extend(r?);
    }
    let adjusted = *format == Format::DifficultyAdjusted;
    Ok(plan
        .matches
        .iter()
        .map(|m| {
            let mut totals = vec![0.0; tables.landlords.len()];
            for round in m {
                for (t, slot) in round.iter().enumerate() {
                    let s = cache.scores[&(t, slot.id.clone())] as f64;
                    totals[t] += if adjusted { s - slot.expected } else { s };
                }
            }
            totals
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Slot;

    #[test]
    fn the_cache_knows_what_was_played_and_replays_nothing() {
        let tables = Tables {
            landlords: vec!["expert".into(), "random".into()],
            down: "expert".into(),
            up: "expert".into(),
            scoring: Scoring::Difficulty,
            rules: RuleSet::COMPETITION,
        };
        let slot = |i: u64| Slot {
            id: format!("d{i}"),
            deal: Deal::generate(3, i),
            expected: 0.0,
        };
        let plan = Plan {
            matches: vec![vec![vec![slot(0), slot(0)], vec![slot(1), slot(1)]]],
        };
        let mut cache = GameCache::default();
        assert!(!cache.contains(0, "d0"));
        let played = AtomicU64::new(0);
        let first = play_plan(&tables, &plan, &Format::Duplicate, 2, &mut cache, &played).unwrap();
        assert_eq!(played.load(Ordering::Relaxed), 4);
        assert!(cache.contains(0, "d0") && cache.contains(1, "d1"));
        assert!(!cache.contains(2, "d0") && !cache.contains(0, "d2"));
        let again = play_plan(&tables, &plan, &Format::Duplicate, 2, &mut cache, &played).unwrap();
        assert_eq!(
            played.load(Ordering::Relaxed),
            4,
            "cached games are not replayed"
        );
        assert_eq!(first, again);
        assert_eq!(cache.len(), 4);
    }
}
