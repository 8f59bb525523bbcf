//! The uniformly random player.

use mahjong::{ActionList, View};

use crate::{BotFault, BotRng, Player, Reply};

/// Picks uniformly among the legal actions.
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

    fn start_hand(&mut self, seat: u8, hand_seed: u64) -> Result<(), BotFault> {
        self.rng = BotRng::new(hand_seed, seat);
        Ok(())
    }

    fn decide(&mut self, _view: &View<'_>, legal: &ActionList) -> Reply {
        Reply::untimed(legal[self.rng.below(legal.len() as u32) as usize])
    }

    fn end_hand(&mut self, _view: &View<'_>) {}
}
