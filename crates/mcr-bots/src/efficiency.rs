//! The efficiency bot: shanten first, then useful tiles.

use mcr::shape::shanten;
use mcr::{Action, ActionList, Counts, Decision, TILE_KINDS, Tile, View};

use crate::Player;

/// Plays for the fewest tiles from ready (shanten), then for the most live useful tiles (the
/// tiles it has not seen that would lower its shanten). It wins whenever the rules offer a
/// win (never below 8 points: the rules do not offer those), declares a kong when that costs
/// no shanten, and claims a discard only when the claim lowers its shanten.
#[derive(Clone, Debug, Default)]
pub struct EfficiencyBot;

/// No tile is worth keeping more than its shape says.
const NO_BIAS: [i32; TILE_KINDS] = [0; TILE_KINDS];

impl EfficiencyBot {
    /// An efficiency bot.
    pub fn new() -> EfficiencyBot {
        EfficiencyBot
    }
}

/// What keeping `hand` (after a discard) is worth: shanten (lower is better), then the live
/// useful tiles (more is better).
pub(crate) fn useful(hand: &Counts, packs: usize, unseen: &Counts, s: i8) -> u32 {
    let mut h = *hand;
    let mut n = 0;
    for x in 0..TILE_KINDS {
        if unseen[x] == 0 || !near(hand, x) {
            continue;
        }
        h[x] += 1;
        if shanten(&h, packs) < s {
            n += u32::from(unseen[x]);
        }
        h[x] -= 1;
    }
    n
}

/// A tile of the hand's kind or one or two ranks from a suited tile of the hand: the only
/// tiles that can help it.
fn near(hand: &Counts, x: usize) -> bool {
    if hand[x] > 0 {
        return true;
    }
    if x >= 27 {
        // An honour helps only in pairs, or towards the orphans and knitted shapes.
        return true;
    }
    let r = x % 9;
    (r >= 1 && hand[x - 1] > 0)
        || (r >= 2 && hand[x - 2] > 0)
        || (r <= 7 && hand[x + 1] > 0)
        || (r <= 6 && hand[x + 2] > 0)
}

/// The best discard of a 14-tile (less packs) hand: (tile, shanten after, useful after).
pub(crate) fn best_discard(
    hand: &Counts,
    packs: usize,
    unseen: &Counts,
    bias: &[i32; TILE_KINDS],
) -> (Tile, i8, u32) {
    let mut shantens = [i8::MAX; TILE_KINDS];
    let mut min = i8::MAX;
    let mut h = *hand;
    for d in 0..TILE_KINDS {
        if hand[d] == 0 {
            continue;
        }
        h[d] -= 1;
        shantens[d] = shanten(&h, packs);
        h[d] += 1;
        min = min.min(shantens[d]);
    }
    let mut best: Option<(i64, usize, u32)> = None;
    for d in 0..TILE_KINDS {
        if shantens[d] != min {
            continue;
        }
        h[d] -= 1;
        let u = useful(&h, packs, unseen, min);
        h[d] += 1;
        // More useful tiles is better; a kept tile's bias makes discarding it worse; among
        // equals, discard honours and terminals (the highest "isolation") first.
        let score = i64::from(u) * 16 - i64::from(bias[d]);
        if best.is_none_or(|(b, _, _)| score > b) {
            best = Some((score, d, u));
        }
    }
    let (_, d, u) = best.unwrap_or((0, 0, 0));
    (Tile::from_index(d).unwrap_or_default(), min, u)
}

/// The efficiency bot's answer, with `bias` steering which tiles it keeps.
pub(crate) fn decide_with(view: &View<'_>, legal: &ActionList, bias: &[i32; TILE_KINDS]) -> Action {
    if legal.contains(&Action::Win) {
        return Action::Win;
    }
    let hand = *view.hand();
    let packs = view.own_packs().len();
    let unseen = view.unseen();
    match view.decision() {
        Some(Decision::Turn { .. }) => {
            let (discard, s, _) = best_discard(&hand, packs, &unseen, bias);
            for &a in legal.iter() {
                match a {
                    Action::ConcealedKong(t) => {
                        let mut h = hand;
                        h[t.index()] -= 4;
                        if shanten(&h, packs + 1) <= s {
                            return a;
                        }
                    }
                    Action::AddedKong(t) => {
                        let mut h = hand;
                        h[t.index()] -= 1;
                        if shanten(&h, packs) <= s {
                            return a;
                        }
                    }
                    _ => {}
                }
            }
            Action::Play(discard)
        }
        Some(Decision::Discard { tile, .. }) => {
            let now = shanten(&hand, packs);
            let mut best = (now, 0u32, Action::Pass);
            for &a in legal.iter() {
                let mut h = hand;
                let i = tile.index();
                let (s, u) = match a {
                    Action::Kong => {
                        h[i] -= 3;
                        let s = shanten(&h, packs + 1);
                        (s, useful(&h, packs + 1, &unseen, s))
                    }
                    Action::Pung(x) => {
                        h[i] -= 2;
                        h[x.index()] -= 1;
                        let s = shanten(&h, packs + 1);
                        (s, useful(&h, packs + 1, &unseen, s))
                    }
                    Action::Chow { middle, discard } => {
                        h[i] += 1;
                        for k in [-1, 0, 1] {
                            if let Some(x) = middle.offset(k) {
                                h[x.index()] -= 1;
                            }
                        }
                        h[discard.index()] -= 1;
                        let s = shanten(&h, packs + 1);
                        (s, useful(&h, packs + 1, &unseen, s))
                    }
                    _ => continue,
                };
                if s < best.0 || (s == best.0 && best.2 != Action::Pass && u > best.1) {
                    best = (s, u, a);
                }
            }
            best.2
        }
        _ => Action::Pass,
    }
}

impl Player for EfficiencyBot {
    fn name(&self) -> String {
        "efficiency".into()
    }

    fn start_hand(&mut self, _seat: u8, _hand_seed: u64) {}

    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        decide_with(view, legal, &NO_BIAS)
    }
}
