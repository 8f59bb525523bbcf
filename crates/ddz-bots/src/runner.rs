//! Plays games between in-process bots: the fast path used by self-play, matches and
//! difficulty measurement (no I/O, no async, one reusable move buffer).

use ddz::{Action, Deal, Game, GameConfig, IllegalMove, MoveList, Phase, Seat};

use crate::Bot;

/// A bot answered with an illegal action. Built-in bots never do; bots wrapping other programs
/// turn their program's faults into verdicts and legal fallbacks before answering.
#[derive(Clone, Debug, thiserror::Error)]
#[error("bot {bot} in seat {seat} made an illegal {phase} action: {error}")]
pub struct RunError {
    /// The seat.
    pub seat: Seat,
    /// The bot's name.
    pub bot: String,
    /// The phase it acted in.
    pub phase: &'static str,
    /// Why the action was refused.
    pub error: IllegalMove,
}

/// The seed each seat's bot gets for a game with `seed`.
pub fn bot_seed(seed: u64, seat: Seat) -> u64 {
    // Distinct, well-mixed per seat so bots in one game never share a random stream.
    let mut z = seed ^ (0xA076_1D64_78BD_642F_u64.wrapping_mul(seat.index() as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays `deal` to the end under `config` with `bots[seat]` in each seat and returns the
/// finished game (its outcome, events and final state). `seed` seeds the bots and any redeals.
pub fn play_game(
    config: GameConfig,
    deal: Deal,
    seed: u64,
    bots: &mut [&mut dyn Bot; 3],
    moves: &mut MoveList,
) -> Result<Game, RunError> {
    let mut game = Game::new(config, deal, seed);
    for seat in Seat::ALL {
        bots[seat.index()].new_game(bot_seed(seed, seat));
    }
    while let Some(seat) = game.to_act() {
        let bot = &mut bots[seat.index()];
        let phase = game.phase();
        let action = {
            let obs = game.observation(seat);
            match phase {
                Phase::Bidding => Action::Bid(bot.bid(&obs)),
                Phase::Doubling => Action::Double(bot.double(&obs)),
                _ => {
                    obs.legal_moves(moves);
                    Action::Play(bot.play(&obs, moves))
                }
            }
        };
        game.apply(action).map_err(|error| RunError {
            seat,
            bot: bot.name(),
            phase: phase.name(),
            error,
        })?;
    }
    for seat in Seat::ALL {
        bots[seat.index()].end_game(&game.observation(seat));
    }
    Ok(game)
}
