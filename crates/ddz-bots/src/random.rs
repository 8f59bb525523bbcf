//! The uniformly random player.

use ddz::{Move, MoveList, Observation};

use crate::{Bot, BotRng};

/// Picks uniformly among legal bids, doubles and plays.
pub struct RandomBot {
    rng: BotRng,
}

impl RandomBot {
    /// A random bot seeded with `seed` (reseeded by every [`Bot::new_game`]).
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: BotRng::new(seed, u64::MAX),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = BotRng::new(seed, u64::MAX);
    }

    fn bid(&mut self, obs: &Observation<'_>) -> u8 {
        // Legal bids: 0 and obs.bid + 1 ..= 3.
        let choices = 1 + 3 - obs.bid as u32;
        match self.rng.below(choices) {
            0 => 0,
            k => obs.bid + k as u8,
        }
    }

    fn double(&mut self, _obs: &Observation<'_>) -> bool {
        self.rng.below(2) == 1
    }

    fn play(&mut self, _obs: &Observation<'_>, legal: &MoveList) -> Move {
        legal[self.rng.below(legal.len() as u32) as usize]
    }
}
