//! The uniformly random player.

use mcr::{Action, ActionList, View};

use crate::{BotRng, Player};

/// Picks uniformly among the legal answers (which never hold a win below 8 points).
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: BotRng,
}

impl Default for RandomBot {
    fn default() -> Self {
        RandomBot::new()
    }
}

impl RandomBot {
    /// A random bot (reseeded by every [`Player::start_hand`]).
    pub fn new() -> RandomBot {
        RandomBot {
            rng: BotRng::new(0, 0),
        }
    }
}

impl Player for RandomBot {
    fn name(&self) -> String {
        "random".into()
    }

    fn start_hand(&mut self, seat: u8, hand_seed: u64) {
        self.rng = BotRng::new(hand_seed, seat);
    }

    fn decide(&mut self, _view: &View<'_>, legal: &ActionList) -> Action {
        legal[self.rng.below(legal.len() as u32) as usize]
    }
}
