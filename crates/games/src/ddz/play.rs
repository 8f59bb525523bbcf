//! Dou Dizhu on the fast path: games between [`Bot`]s played by the one runner,
//! [`arena_table::play_fast`], with [`DdzTable`] as the game (no I/O, no async, no allocation
//! per decision: the buffers live in [`Buffers`]).

use std::cell::Cell;

use arena_table::{LocalPlayer, Misplay, Pending, Scratch, play_fast};
use ddz::{Action, Deal, Game, GameConfig, MoveList, Observation, Scoring, Seat};
use ddz_bots::Bot;

use super::table::{DdzTable, bot_decides};

/// A bot answered with an illegal action. Built-in bots never do; bots wrapping other programs
/// turn their program's faults into verdicts and legal fallbacks before answering.
pub type RunError = Misplay;

/// The seed each seat's bot gets for a game with `seed`.
pub fn bot_seed(seed: u64, seat: Seat) -> u64 {
    // Distinct, well-mixed per seat so bots in one game never share a random stream.
    let mut z = seed ^ (0xA076_1D64_78BD_642F_u64.wrapping_mul(seat.index() as u64 + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What [`play_game`] reuses from game to game: the legal-move list and the runner's buffers.
#[derive(Default)]
pub struct Buffers {
    moves: MoveList,
    run: Scratch<DdzTable>,
}

impl Buffers {
    /// Fresh buffers.
    pub fn new() -> Buffers {
        Buffers::default()
    }
}

/// A borrowed bot in a seat; the three seats share one move list, taken by whoever decides.
struct Seated<'a, 'm> {
    bot: &'a mut dyn Bot,
    moves: &'a Cell<Option<&'m mut MoveList>>,
}

impl LocalPlayer<DdzTable> for Seated<'_, '_> {
    fn name(&self) -> String {
        self.bot.name()
    }

    fn start(&mut self, seat: u32, seed: u64) {
        let seat = u8::try_from(seat)
            .ok()
            .and_then(Seat::new)
            .unwrap_or(Seat::ALL[0]);
        self.bot.new_game(bot_seed(seed, seat));
    }

    fn decide(&mut self, view: &Observation<'_>, pending: &Pending) -> Action {
        match self.moves.take() {
            Some(moves) => {
                let a = bot_decides(self.bot, view, pending, moves);
                self.moves.set(Some(moves));
                a
            }
            // Only reached if a bot's decision re-entered the runner (it cannot): decide anyway.
            None => bot_decides(self.bot, view, pending, &mut MoveList::new()),
        }
    }

    fn finish(&mut self, view: &Observation<'_>) {
        self.bot.end_game(view);
    }
}

/// Plays `deal` to the end under `config` with `bots[seat]` in each seat and returns the
/// finished game (its outcome, events and final state). `seed` seeds the bots and any redeals.
pub fn play_game(
    config: GameConfig,
    deal: Deal,
    seed: u64,
    bots: &mut [&mut dyn Bot; 3],
    buffers: &mut Buffers,
) -> Result<Game, RunError> {
    let mut table = DdzTable::from_game(Game::new(config, deal, seed), Scoring::Competition);
    let moves = Cell::new(Some(&mut buffers.moves));
    let mut players = bots.each_mut().map(|bot| Seated {
        bot: &mut **bot,
        moves: &moves,
    });
    play_fast(&mut table, &mut players, seed, &mut buffers.run)?;
    Ok(table.into_game())
}
