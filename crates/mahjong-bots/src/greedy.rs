//! The greedy player: always wins when it can, discards to the lowest shanten, and claims a
//! discard only when the claim lowers its shanten.
//!
//! Shanten is the engine's ([`mahjong::shape::shanten`]: the least of the standard shape, seven
//! pairs and thirteen orphans). Among discards of equal shanten it throws the loneliest tile
//! (fewest tiles of its suit held within two ranks, honours and terminals first), so its play
//! does not depend on the order of the legal actions. It counts no tiles, values no fans and
//! never defends. Cost: one shanten per distinct tile held, per decision (a few microseconds).

use mahjong::shape::shanten;
use mahjong::{Action, ActionList, Counts, Phase, Tile, View};

use crate::{BotFault, Player, Reply};

/// The greedy player (stateless and deterministic).
#[derive(Clone, Debug, Default)]
pub struct GreedyBot;

impl GreedyBot {
    /// A greedy player.
    pub fn new() -> GreedyBot {
        GreedyBot
    }
}

impl Player for GreedyBot {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn start_hand(&mut self, _seat: u8, _hand_seed: u64) -> Result<(), BotFault> {
        Ok(())
    }

    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Reply {
        Reply::untimed(choose(view, legal))
    }

    fn end_hand(&mut self, _view: &View<'_>) {}
}

/// How many tiles of the same suit within two ranks of `t` (itself excluded) the hand holds:
/// a measure of how useful `t` is to its neighbours. Honours count only their copies.
pub(crate) fn neighbours(hand: &Counts, t: Tile) -> u32 {
    let i = t.index();
    let copies = u32::from(hand[i].saturating_sub(1)) * 2;
    if t.is_honour() {
        return copies;
    }
    let (base, rank) = (i - i % 9, i % 9);
    let near: u32 = (rank.saturating_sub(2)..=(rank + 2).min(8))
        .filter(|&r| r != rank)
        .map(|r| u32::from(hand[base + r]))
        .sum();
    copies + near
}

fn choose(view: &View<'_>, legal: &ActionList) -> Action {
    for &a in legal {
        if matches!(a, Action::SelfDrawnWin | Action::Win | Action::RobKong) {
            return a;
        }
    }
    let hand = *view.hand();
    match view.phase() {
        Phase::Turn { .. } => turn(&hand, legal),
        Phase::Claims { tile, .. } => claim(&hand, tile, legal),
        _ => Some(Action::Pass),
    }
    .filter(|a| legal.contains(*a))
    .unwrap_or(legal[0])
}

/// The best discard: lowest shanten after it, then the loneliest tile, then the highest kind.
fn best_discard(hand: &Counts, legal: &ActionList) -> Option<(Tile, i8)> {
    let mut best: Option<(Tile, i8, u32)> = None;
    for &a in legal {
        let Action::Discard(t) = a else { continue };
        let mut h = *hand;
        h[t.index()] -= 1;
        let s = shanten(&h);
        let n = neighbours(hand, t);
        let better = match best {
            None => true,
            Some((bt, bs, bn)) => (s, n, std::cmp::Reverse(t)) < (bs, bn, std::cmp::Reverse(bt)),
        };
        if better {
            best = Some((t, s, n));
        }
    }
    best.map(|(t, s, _)| (t, s))
}

fn turn(hand: &Counts, legal: &ActionList) -> Option<Action> {
    let (discard, s) = best_discard(hand, legal)?;
    // A kong that keeps the shanten of the best discard is free: a replacement tile and a fan.
    for &a in legal {
        let (Action::ConcealedKong(t) | Action::AddedKong(t)) = a else {
            continue;
        };
        let mut h = *hand;
        h[t.index()] -= if matches!(a, Action::ConcealedKong(_)) {
            4
        } else {
            1
        };
        if shanten(&h) <= s {
            return Some(a);
        }
    }
    Some(Action::Discard(discard))
}

fn claim(hand: &Counts, tile: Tile, legal: &ActionList) -> Option<Action> {
    let now = shanten(hand);
    let mut best = (now, Action::Pass);
    for &a in legal {
        let mut h = *hand;
        let i = tile.index();
        match a {
            Action::Pung => h[i] -= 2,
            Action::Kong => h[i] -= 3,
            Action::Chow(low) => {
                for (k, n) in h.iter_mut().enumerate().skip(low.index()).take(3) {
                    if k != i {
                        *n -= 1;
                    }
                }
            }
            _ => continue,
        }
        // After a pung or chow the hand has a discard to make: its shanten is that of the best
        // discard. After a kong it waits for the replacement draw.
        let s = shanten(&h);
        if s < best.0 {
            best = (s, a);
        }
    }
    Some(best.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mahjong::parse_tiles;

    fn counts(s: &str) -> Counts {
        let mut c = [0u8; 34];
        for t in parse_tiles(s).unwrap() {
            c[t.index()] += 1;
        }
        c
    }

    fn list(actions: &[Action]) -> ActionList {
        let mut l = ActionList::new();
        for &a in actions {
            l.push(a);
        }
        l
    }

    fn discards(hand: &Counts) -> ActionList {
        let mut l = ActionList::new();
        for t in Tile::all() {
            if hand[t.index()] > 0 {
                l.push(Action::Discard(t));
            }
        }
        l
    }

    #[test]
    fn it_throws_the_lonely_honour_and_keeps_the_shape() {
        let hand = counts("1M 2M 3M 5S 6S 7S 2T 3T 4T 8T 8T 9T 9T E");
        let (t, s) = best_discard(&hand, &discards(&hand)).unwrap();
        assert_eq!((t, s), (Tile::EAST, 0), "waiting after the discard");
        // E and N are equally lonely: the higher kind goes, deterministically
        let hand = counts("1M 2M 3M 5S 6S 7S 2T 3T 4T 8T 8T E N W");
        assert_eq!(
            best_discard(&hand, &discards(&hand)).unwrap().0,
            Tile::NORTH
        );
    }

    #[test]
    fn it_claims_only_what_lowers_shanten() {
        let hand = counts("1M 2M 3M 5S 6S 7S 2T 3T 8T 8T E E N");
        let e = Tile::EAST;
        let legal = list(&[Action::Pass, Action::Pung]);
        assert_eq!(claim(&hand, e, &legal), Some(Action::Pung));
        // the same hand passes on a pung that keeps the shanten where it is
        let hand = counts("1M 1M 1M 5S 6S 7S 2T 3T 4T 8T 8T E E");
        let legal = list(&[Action::Pass, Action::Pung, Action::Kong]);
        assert_eq!(
            claim(&hand, "1M".parse().unwrap(), &legal),
            Some(Action::Pass)
        );
    }
}
