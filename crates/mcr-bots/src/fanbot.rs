//! The fan-aware bot: the efficiency bot steered towards a flush.

use mcr::{Action, ActionList, Decision, TILE_KINDS, View};

use crate::Player;
use crate::efficiency::decide_with;

/// The efficiency bot with a plan for points: it picks the suit the hand (packs included)
/// holds most of and keeps that suit and honour pairs over other tiles, heading for Half
/// Flush (6) or Full Flush (24) with pungs of honours; it claims only tiles of that suit or
/// honours, so its claims keep the flush alive. Like every built-in bot it wins whenever the
/// rules offer a win (never below 8 points).
#[derive(Clone, Debug, Default)]
pub struct FanBot;

impl FanBot {
    /// A fan-aware bot.
    pub fn new() -> FanBot {
        FanBot
    }
}

fn plan(view: &View<'_>) -> (usize, [i32; TILE_KINDS]) {
    let mut per_suit = [0i32; 3];
    let hand = view.hand();
    for i in 0..27 {
        per_suit[i / 9] += i32::from(hand[i]);
    }
    for p in view.own_packs() {
        if let Some(s) = p.tile.suit() {
            per_suit[s as usize] += 3;
        }
    }
    let suit = (0..3).max_by_key(|&s| per_suit[s]).unwrap_or(0);
    let mut bias = [0i32; TILE_KINDS];
    for (i, b) in bias.iter_mut().enumerate() {
        *b = if i < 27 {
            if i / 9 == suit { 24 } else { -8 }
        } else if hand[i] >= 2 {
            24
        } else {
            0
        };
    }
    (suit, bias)
}

impl Player for FanBot {
    fn name(&self) -> String {
        "fan".into()
    }

    fn start_hand(&mut self, _seat: u8, _hand_seed: u64) {}

    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        let (suit, bias) = plan(view);
        let a = decide_with(view, legal, &bias);
        if let Some(Decision::Discard { tile, .. }) = view.decision()
            && a != Action::Win
            && tile.suit().is_some_and(|s| s as usize != suit)
        {
            return Action::Pass;
        }
        a
    }
}
