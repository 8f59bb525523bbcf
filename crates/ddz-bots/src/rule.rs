//! The rule-based players: `seed` (the seed algorithm as written) and `expert`.

use ddz::{CardSet, Move, MoveList, Observation, Rank};

use crate::Bot;
use crate::policy::{self, Ctx, Style};

/// Bidding points of a hand, by the seed algorithm: rocket 8, each bomb 6, red joker 4, black
/// joker 3, each 2 outside a bomb 2.
pub fn bid_points(hand: CardSet) -> u32 {
    let (b, r) = (hand.count(Rank::BlackJoker), hand.count(Rank::RedJoker));
    let mut points = if b == 1 && r == 1 {
        8
    } else {
        4 * r as u32 + 3 * b as u32
    };
    points += 6 * hand.mask_at_least(4).count_ones();
    if hand.count(Rank::Two) < 4 {
        points += 2 * hand.count(Rank::Two) as u32;
    }
    points
}

/// The call the points rule wants: ≥7 → 3, ≥5 → 2, ≥3 → 1, else 0.
pub fn points_to_bid(points: u32) -> u8 {
    match points {
        7.. => 3,
        5..=6 => 2,
        3..=4 => 1,
        _ => 0,
    }
}

/// A rule-based bot: bids by points, doubles with a hand worth a call of 3, plays by [`Style`].
pub struct RuleBot {
    style: Style,
    scratch: MoveList,
}

impl RuleBot {
    /// The seed algorithm's player.
    pub fn seed() -> RuleBot {
        RuleBot {
            style: Style::Seed,
            scratch: MoveList::new(),
        }
    }

    /// The expert refinement of it.
    pub fn expert() -> RuleBot {
        RuleBot {
            style: Style::Expert,
            scratch: MoveList::new(),
        }
    }
}

impl Bot for RuleBot {
    fn name(&self) -> String {
        match self.style {
            Style::Seed => "seed".into(),
            Style::Expert => "expert".into(),
        }
    }

    fn new_game(&mut self, _seed: u64) {}

    fn bid(&mut self, obs: &Observation<'_>) -> u8 {
        let want = points_to_bid(bid_points(obs.hand));
        if want > obs.bid { want } else { 0 }
    }

    fn double(&mut self, obs: &Observation<'_>) -> bool {
        // Not in the seed document: double (or redouble) only with a hand worth a call of 3.
        bid_points(obs.hand) >= 7
    }

    fn play(&mut self, obs: &Observation<'_>, _legal: &MoveList) -> Move {
        policy::choose(
            obs.rules,
            &Ctx::from_obs(obs),
            self.style,
            &mut self.scratch,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_rule() {
        let p = |s: &str| bid_points(s.parse().unwrap());
        assert_eq!(p("BR"), 8);
        assert_eq!(p("R"), 4);
        assert_eq!(p("B22"), 7);
        assert_eq!(p("3333"), 6);
        assert_eq!(p("2222"), 6);
        assert_eq!(p("345"), 0);
        assert_eq!(points_to_bid(8), 3);
        assert_eq!(points_to_bid(5), 2);
        assert_eq!(points_to_bid(4), 1);
        assert_eq!(points_to_bid(2), 0);
    }
}
