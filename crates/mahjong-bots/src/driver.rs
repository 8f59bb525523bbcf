//! [`play_hand`]: one hand with four players, under the contest's time rules and fault rulings.

use std::time::Duration;

use mahjong::{Action, ActionList, Deal, Event, Game, Outcome, Phase, Rules, Tile};

use crate::{BotFault, Player, VerdictKind};

/// The contest's time rules.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// The actor's limit on its turn (1 s).
    pub turn: Duration,
    /// The limit for answering a discard or an added kong (0.5 s).
    pub claim: Duration,
    /// Past this an answer is a timeout fault, whatever the decision (5 s). Program players
    /// stop waiting here; [`play_hand`] also refuses any answer reported slower.
    pub hard_cap: Duration,
}

impl Default for TimeLimits {
    fn default() -> Self {
        TimeLimits {
            turn: Duration::from_millis(1000),
            claim: Duration::from_millis(500),
            hard_cap: Duration::from_secs(5),
        }
    }
}

/// Penalty points for an answer that took `elapsed` against `limit`: one point per started
/// 100 ms past the limit, rounded half up (0.75 s for a 0.5 s claim costs 3; 1.2 s for a 1 s
/// turn costs 2; 1.04 s costs 0).
pub fn penalty_points(elapsed: Duration, limit: Duration) -> i32 {
    let Some(over) = elapsed.checked_sub(limit) else {
        return 0;
    };
    let step = 100_000_000u128;
    ((over.as_nanos() + step / 2) / step) as i32
}

/// A fault of one seat in one hand.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HandVerdict {
    /// The seat.
    pub seat: u8,
    /// What kind of fault.
    pub kind: VerdictKind,
    /// What exactly happened.
    pub reason: String,
    /// How many events the hand had when it happened (the fault came before
    /// `record.events[at_event]`).
    pub at_event: usize,
}

/// One played hand: its setup, history and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandRecord {
    /// The hand's seed, when the caller knows one (set by whoever made the deal).
    pub seed: Option<u64>,
    /// The seat that drew first.
    pub first: u8,
    /// The 13 tiles dealt to each seat, in dealing order.
    pub initial: [[Tile; 13]; 4],
    /// Every event in order.
    pub events: Vec<Event>,
    /// The result of play.
    pub outcome: Outcome,
    /// Time penalty points lost by each seat (they go to nobody).
    pub penalties: [i32; 4],
    /// Every fault, in order.
    pub verdicts: Vec<HandVerdict>,
    /// The seats' scores for the hand: the outcome's scores less the penalties.
    pub scores: [i32; 4],
}

/// Plays one hand of `deal` with `players[s]` in seat `s`.
///
/// Every live decider is asked on each decision (every other seat answers every discard and
/// every added kong, as in the 2015 protocol). A seat's fault (a [`BotFault`], an answer past
/// `limits.hard_cap`, or an action the rules refuse) makes a verdict and the seat dead: it is
/// asked nothing more and [`Game::automatic`] answers for it. A chow from a seat other than the
/// next one is ignored (taken as a pass), as the 2015 server did. Bots get
/// [`Deal::fingerprint`] as their hand seed.
pub fn play_hand(
    deal: &Deal,
    rules: Rules,
    limits: TimeLimits,
    players: &mut [&mut dyn Player; 4],
) -> HandRecord {
    let mut game = Game::new(deal, rules);
    let mut dead = [false; 4];
    let mut penalties = [0i32; 4];
    let mut verdicts = Vec::new();
    let seed = deal.fingerprint();
    for (seat, p) in players.iter_mut().enumerate() {
        if let Err(f) = p.start_hand(seat as u8, seed) {
            dead[seat] = true;
            verdicts.push(verdict(seat as u8, f, 0));
        }
    }
    let mut legal = ActionList::new();
    let mut answers = [(0u8, Action::Pass); 4];
    while !game.is_over() {
        let phase = game.phase();
        let limit = match phase {
            Phase::Turn { .. } => limits.turn,
            _ => limits.claim,
        };
        let mut n = 0;
        for seat in game.deciders().iter() {
            let s = usize::from(seat);
            let action = if dead[s] {
                game.automatic(seat)
            } else {
                game.legal_actions(seat, &mut legal);
                let reply = players[s].decide(&game.view(seat), &legal);
                let mut answer = reply.answer;
                if let Some(e) = reply.elapsed {
                    penalties[s] += penalty_points(e.min(limits.hard_cap), limit);
                    if e > limits.hard_cap {
                        answer = Err(BotFault::new(
                            VerdictKind::Timeout,
                            format!(
                                "answered after {:.3} s, past the hard cap of {:.3} s",
                                e.as_secs_f64(),
                                limits.hard_cap.as_secs_f64()
                            ),
                        ));
                    }
                }
                let at = game.events().len();
                match answer {
                    Err(f) => {
                        dead[s] = true;
                        verdicts.push(verdict(seat, f, at));
                        game.automatic(seat)
                    }
                    // `legal` holds exactly the answers `check` accepts; ask why only when not.
                    Ok(a) if legal.contains(a) => a,
                    Ok(a) => match game.check(seat, a) {
                        Ok(()) => a,
                        Err(e) if e.out_of_place() => Action::Pass,
                        Err(e) => {
                            dead[s] = true;
                            verdicts.push(HandVerdict {
                                seat,
                                kind: VerdictKind::Illegal,
                                reason: format!("answered {a}: {}", e.reason),
                                at_event: at,
                            });
                            game.automatic(seat)
                        }
                    },
                }
            };
            answers[n] = (seat, action);
            n += 1;
        }
        game.apply(&answers[..n])
            .expect("every answer was checked or is the automatic play");
    }
    for (seat, p) in players.iter_mut().enumerate() {
        p.end_hand(&game.view(seat as u8));
    }
    let outcome = game.outcome().cloned().expect("the hand is over");
    let scores = [0, 1, 2, 3].map(|s| outcome.scores[s] - penalties[s]);
    let initial = [0u8, 1, 2, 3].map(|s| {
        let mut h = [Tile::EAST; 13];
        h.copy_from_slice(deal.wall.initial_hand(s));
        h
    });
    HandRecord {
        seed: None,
        first: game.first(),
        initial,
        events: game.events().to_vec(),
        outcome,
        penalties,
        verdicts,
        scores,
    }
}

fn verdict(seat: u8, f: BotFault, at_event: usize) -> HandVerdict {
    HandVerdict {
        seat,
        kind: f.kind,
        reason: f.reason,
        at_event,
    }
}
