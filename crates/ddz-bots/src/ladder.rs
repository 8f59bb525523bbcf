//! The skill ladder: bots of graded strength from one documented recipe.
//!
//! **Recipe.** Level `k` of `N` (1 = weakest) is the `expert` rule-based player that, at every
//! decision, instead plays a uniformly random legal action with probability
//! `ε(k) = ((N − k) / (N − 1))²`: level 1 is the random player, level N the pure expert. Squaring
//! spaces the levels more densely at low noise, where strength changes fastest, so adjacent levels
//! differ by similar amounts of landlord score (with equal steps in ε the weakest levels were
//! barely distinguishable). Noise is drawn from the bot's seeded stream, so a level
//! plays a given deal the same way every time. Every level costs at most one expert decision per
//! move, which keeps a 70-level panel cheap enough for millions of games.

use ddz::{Move, MoveList, Observation};

use crate::policy::{self, Ctx, Style};
use crate::{Bot, BotRng, RuleBot};

/// A ladder level: the expert with probability `1 − ε`, a random legal action with probability ε.
pub struct LadderBot {
    level: u32,
    levels: u32,
    /// ε scaled to 2^32, compared with one 32-bit draw per decision.
    noise: u64,
    rng: BotRng,
    rule: RuleBot,
    scratch: MoveList,
}

/// ε for level `level` of `levels`: `((N − k) / (N − 1))^2`.
pub fn noise_at(level: u32, levels: u32) -> f64 {
    (f64::from(levels - level) / f64::from(levels - 1)).powi(2)
}

/// The most levels a ladder may have.
pub const MAX_LEVELS: u32 = 1_000;

impl LadderBot {
    /// Level `level` of `levels` (1-based). `None` unless `1 ≤ level ≤ levels` and `levels ≥ 2`.
    pub fn new(level: u32, levels: u32) -> Option<LadderBot> {
        if !(2..=MAX_LEVELS).contains(&levels) || level == 0 || level > levels {
            return None;
        }
        Some(LadderBot {
            level,
            levels,
            noise: (noise_at(level, levels) * (1u64 << 32) as f64).round() as u64,
            rng: BotRng::new(0, u64::MAX),
            rule: RuleBot::expert(),
            scratch: MoveList::new(),
        })
    }

    /// ε, the probability of a random action.
    pub fn epsilon(&self) -> f64 {
        self.noise as f64 / (1u64 << 32) as f64
    }

    #[inline]
    fn noisy(&mut self) -> bool {
        u64::from(self.rng.next_u32()) < self.noise
    }
}

impl Bot for LadderBot {
    fn name(&self) -> String {
        format!("ladder:{}/{}", self.level, self.levels)
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = BotRng::new(seed, u64::MAX);
    }

    fn bid(&mut self, obs: &Observation<'_>) -> u8 {
        if self.noisy() {
            let k = self.rng.below(4 - obs.bid as u32);
            if k == 0 { 0 } else { obs.bid + k as u8 }
        } else {
            self.rule.bid(obs)
        }
    }

    fn double(&mut self, obs: &Observation<'_>) -> bool {
        if self.noisy() {
            self.rng.below(2) == 1
        } else {
            self.rule.double(obs)
        }
    }

    fn play(&mut self, obs: &Observation<'_>, legal: &MoveList) -> Move {
        if self.noisy() {
            legal[self.rng.below(legal.len() as u32) as usize]
        } else {
            policy::choose(
                obs.rules,
                &Ctx::from_obs(obs),
                Style::Expert,
                &mut self.scratch,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_falls_in_equal_steps() {
        let eps: Vec<f64> = (1..=5)
            .map(|k| LadderBot::new(k, 5).unwrap().epsilon())
            .collect();
        let want: Vec<f64> = [1.0f64, 0.75, 0.5, 0.25, 0.0]
            .iter()
            .map(|x| x.powi(2))
            .collect();
        for (e, w) in eps.iter().zip(&want) {
            assert!((e - w).abs() < 1e-9, "{eps:?}");
        }
        assert!(LadderBot::new(0, 5).is_none());
        assert!(LadderBot::new(6, 5).is_none());
        assert!(LadderBot::new(1, 1).is_none());
    }
}
