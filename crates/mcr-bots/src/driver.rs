//! Plays one hand with four players.

use mcr::{Action, FaultPolicy, Game, Outcome};

use crate::Player;

/// How a hand went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandRecord {
    /// How it ended.
    pub outcome: Outcome,
    /// Each seat's faults: answers the rules refused.
    pub faults: [u32; 4],
    /// Decisions asked of the players.
    pub decisions: u32,
}

/// Plays `game` to its end with `players` (seat order). A refused answer is a fault handled by
/// `policy`: the judge's ends the hand; the arena's lets the seat play on automatically.
/// `hand_seed` seeds the bots' own randomness.
pub fn play_hand(
    mut game: Game,
    players: &mut [Box<dyn Player>; 4],
    policy: FaultPolicy,
    hand_seed: u64,
) -> HandRecord {
    for (seat, p) in players.iter_mut().enumerate() {
        p.start_hand(seat as u8, hand_seed);
    }
    let mut faults = [0u32; 4];
    let mut decisions = 0;
    let mut answers: [(u8, Action); 4] = [(0, Action::Pass); 4];
    while !game.is_over() {
        let mut n = 0;
        for seat in game.deciders() {
            let action = if game.is_automatic(seat) {
                game.automatic(seat)
            } else {
                let legal = game.legal(seat);
                decisions += 1;
                let a = players[usize::from(seat)].decide(&game.view(seat), legal);
                if !legal.contains(&a) {
                    faults[usize::from(seat)] += 1;
                    game.fault(seat, policy);
                    if game.is_over() {
                        break;
                    }
                    game.automatic(seat)
                } else {
                    a
                }
            };
            answers[n] = (seat, action);
            n += 1;
        }
        if game.is_over() {
            break;
        }
        if game.apply(&answers[..n]).is_err() {
            // Unreachable: every answer was checked; end the hand as the judge would rather
            // than loop.
            let seat = answers[0].0;
            faults[usize::from(seat)] += 1;
            game.fault(seat, FaultPolicy::Judge);
        }
    }
    HandRecord {
        outcome: *game.outcome().expect("the hand is over"),
        faults,
        decisions,
    }
}
