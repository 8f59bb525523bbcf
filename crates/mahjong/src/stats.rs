//! From hands to a match's totals, and from matches to place probabilities and intervals.
//!
//! Everything is kept per bot *position* (the order the bots were given in), never per name:
//! the same bot may sit in several positions.

use crate::schedule::{DEALS, GROUPS, HANDS, Slot};

/// What the statistics need of one finished hand, per seat.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HandSummary {
    /// Where the hand sits in the schedule.
    pub slot: Slot,
    /// The seat that drew first.
    pub first: u8,
    /// Each seat's score change, time penalties included.
    pub scores: [i32; 4],
    /// Each seat's time penalty points (already taken off `scores`).
    pub penalties: [i32; 4],
    /// The winning seat, if the hand was not drawn.
    pub winner: Option<u8>,
    /// The seat that dealt in (discarded the winning tile or had its kong robbed); `None` for
    /// a self-drawn win or a drawn hand.
    pub dealt_in: Option<u8>,
    /// The winning hand's fan total.
    pub fans: Option<u32>,
    /// How many verdicts each seat got.
    pub verdicts: [u32; 4],
}

impl HandSummary {
    /// Bot `bot`'s score in this hand.
    pub fn score_of(&self, bot: usize) -> i32 {
        self.scores[self.slot.seat_of(bot) as usize]
    }
}

/// One bot's totals over a set of hands.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct BotTotals {
    /// Summed score, penalties included.
    pub score: i64,
    /// Hands won.
    pub wins: u32,
    /// Of which self-drawn.
    pub self_drawn: u32,
    /// Hands where this bot paid the winner's x + 4 (its discard or its robbed kong).
    pub dealt_in: u32,
    /// Time penalty points.
    pub penalty: i64,
    /// Verdicts (faults).
    pub verdicts: u32,
}

/// A match's totals.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MatchTotals {
    /// The match seed.
    pub seed: u64,
    /// Hands played.
    pub hands: usize,
    /// Drawn hands (no winner).
    pub draws: u32,
    /// Per bot position.
    pub players: [BotTotals; 4],
}

impl MatchTotals {
    /// Totals of `hands` (the hands of the match with seed `seed`).
    pub fn of(seed: u64, hands: &[HandSummary]) -> MatchTotals {
        let mut t = MatchTotals {
            seed,
            hands: hands.len(),
            draws: 0,
            players: [BotTotals::default(); 4],
        };
        for h in hands {
            if h.winner.is_none() {
                t.draws += 1;
            }
            for (seat, &bot) in h.slot.seats.iter().enumerate() {
                let p = &mut t.players[bot];
                let seat = seat as u8;
                p.score += i64::from(h.scores[seat as usize]);
                p.penalty += i64::from(h.penalties[seat as usize]);
                p.verdicts += h.verdicts[seat as usize];
                if h.winner == Some(seat) {
                    p.wins += 1;
                    if h.dealt_in.is_none() {
                        p.self_drawn += 1;
                    }
                }
                if h.dealt_in == Some(seat) {
                    p.dealt_in += 1;
                }
            }
        }
        t
    }

    /// Each bot's place (1 = best) by score; tied bots share the places they span, each
    /// getting an equal fraction of each: `places[bot][k]` is bot's share of place `k + 1`.
    pub fn places(&self) -> [[f64; 4]; 4] {
        let shares = arena_stats::places(&self.players.map(|p| p.score));
        std::array::from_fn(|bot| std::array::from_fn(|k| shares[bot][k]))
    }
}

/// The platform's estimate (Student-t 95% intervals), re-exported for the match's figures.
pub use arena_stats::{Estimate, t975};

/// A deal's block: the hands that played one deal (a group's deal in its 4 rounds, so each bot
/// once from every seat). Blocks of different deals are independent; the hands inside one are
/// not, so intervals are computed over blocks.
fn blocks(hands: &[HandSummary]) -> impl Iterator<Item = Vec<&HandSummary>> + '_ {
    let mut by_deal: std::collections::BTreeMap<(u64, usize, usize), Vec<&HandSummary>> =
        std::collections::BTreeMap::new();
    for h in hands {
        by_deal
            .entry((h.slot.match_seed, h.slot.group, h.slot.deal))
            .or_default()
            .push(h);
    }
    by_deal.into_values()
}

/// Bot `bot`'s mean score per hand, with a 95% interval over deal blocks.
pub fn mean_per_hand(hands: &[HandSummary], bot: usize) -> Estimate {
    Estimate::of(
        blocks(hands)
            .map(|b| b.iter().map(|h| f64::from(h.score_of(bot))).sum::<f64>() / b.len() as f64),
    )
}

/// Bot `a`'s mean score per hand minus bot `b`'s, paired on the same deals: per deal block,
/// the difference of their mean scores; the interval over blocks.
pub fn paired_difference(hands: &[HandSummary], a: usize, b: usize) -> Estimate {
    Estimate::of(blocks(hands).map(|blk| {
        blk.iter()
            .map(|h| f64::from(h.score_of(a) - h.score_of(b)))
            .sum::<f64>()
            / blk.len() as f64
    }))
}

/// Standings over several matches.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Standings {
    /// Matches played.
    pub matches: usize,
    /// The summed totals of every match.
    pub totals: MatchTotals,
    /// `places[bot][k]`: the probability (share of matches, ties split) of place `k + 1`.
    pub places: [[f64; 4]; 4],
    /// Each bot's mean score per hand with a 95% interval (over deal blocks).
    pub mean_per_hand: [Estimate; 4],
    /// Bot positions best first: by mean score, ties by position.
    pub order: [usize; 4],
}

impl Standings {
    /// Standings of the matches `per_match` (their totals) whose hands are `hands`.
    pub fn of(per_match: &[MatchTotals], hands: &[HandSummary]) -> Standings {
        let mut totals = MatchTotals {
            seed: per_match.first().map_or(0, |m| m.seed),
            hands: 0,
            draws: 0,
            players: [BotTotals::default(); 4],
        };
        let mut places = arena_stats::PlaceTally::new(4);
        for m in per_match {
            totals.hands += m.hands;
            totals.draws += m.draws;
            for (sum, p) in totals.players.iter_mut().zip(&m.players) {
                sum.score += p.score;
                sum.wins += p.wins;
                sum.self_drawn += p.self_drawn;
                sum.dealt_in += p.dealt_in;
                sum.penalty += p.penalty;
                sum.verdicts += p.verdicts;
            }
            places.add(&m.places().map(Vec::from));
        }
        let places = places.probabilities();
        let places = std::array::from_fn(|bot| std::array::from_fn(|k| places[bot][k]));
        let mean_per_hand = std::array::from_fn(|bot| mean_per_hand(hands, bot));
        let mut order = [0, 1, 2, 3];
        order.sort_by(|&a, &b| {
            totals.players[b]
                .score
                .cmp(&totals.players[a].score)
                .then(a.cmp(&b))
        });
        Standings {
            matches: per_match.len(),
            totals,
            places,
            mean_per_hand,
            order,
        }
    }
}

/// Deal blocks in a match: every group's deals.
pub const BLOCKS: usize = GROUPS * DEALS;
const _: () = assert!(HANDS == BLOCKS * 4);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::schedule;

    fn hand(slot: Slot, scores: [i32; 4], winner: Option<u8>, dealt_in: Option<u8>) -> HandSummary {
        HandSummary {
            slot,
            first: 0,
            scores,
            penalties: [0; 4],
            winner,
            dealt_in,
            fans: winner.map(|_| 0),
            verdicts: [0; 4],
        }
    }

    #[test]
    fn totals_follow_the_bots_not_the_seats() {
        let s = schedule(1);
        // bot 2 wins every hand by self-draw for 8 (x = 4), wherever it sits
        let hands: Vec<HandSummary> = s
            .iter()
            .map(|slot| {
                let w = slot.seat_of(2);
                let scores = std::array::from_fn(|seat| if seat as u8 == w { 24 } else { -8 });
                hand(*slot, scores, Some(w), None)
            })
            .collect();
        let t = MatchTotals::of(1, &hands);
        assert_eq!(t.hands, 96);
        assert_eq!(t.draws, 0);
        assert_eq!(t.players[2].score, 96 * 24);
        assert_eq!((t.players[2].wins, t.players[2].self_drawn), (96, 96));
        for bot in [0, 1, 3] {
            assert_eq!(t.players[bot].score, -96 * 8);
            assert_eq!((t.players[bot].wins, t.players[bot].dealt_in), (0, 0));
        }
        assert_eq!(t.places()[2], [1.0, 0.0, 0.0, 0.0]);
        // three tied for second share places 2–4
        assert_eq!(t.places()[0], [0.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]);
    }

    #[test]
    fn a_deal_in_and_a_draw_are_counted_where_they_happened() {
        let s = schedule(1);
        let slot = s[5];
        let (w, d) = (slot.seat_of(0), slot.seat_of(3));
        let mut scores = [-4; 4];
        scores[w as usize] = 18;
        scores[d as usize] = -10;
        let hands = vec![
            hand(slot, scores, Some(w), Some(d)),
            hand(s[6], [0; 4], None, None),
        ];
        let t = MatchTotals::of(1, &hands);
        assert_eq!((t.hands, t.draws), (2, 1));
        assert_eq!(
            (
                t.players[0].wins,
                t.players[0].self_drawn,
                t.players[0].score
            ),
            (1, 0, 18)
        );
        assert_eq!((t.players[3].dealt_in, t.players[3].score), (1, -10));
        assert_eq!(t.players[1].score, -4);
    }

    #[test]
    fn the_interval_is_students() {
        // the platform's estimate: its own tests check the quantile against Student's table
        let e = Estimate::of([1.0, 2.0, 3.0, 4.0, 5.0]);
        assert!((e.ci95 - t975(4) * 2.5f64.sqrt() / 5f64.sqrt()).abs() < 1e-12);
        assert!((t975(4) - 2.7764).abs() < 0.001);
        assert!(Estimate::of([1.0]).ci95.is_infinite());
    }

    #[test]
    fn a_paired_difference_cancels_the_deal() {
        let s = schedule(4);
        // every deal has its own level (the luck of the deal), identical for all bots, and
        // bot 0 always gets one point more than bot 1
        let hands: Vec<HandSummary> = s
            .iter()
            .map(|slot| {
                let level = (slot.deal_seed % 1000) as i32 - 500;
                let scores =
                    std::array::from_fn(|seat| level + if slot.seats[seat] == 0 { 1 } else { 0 });
                hand(*slot, scores, None, None)
            })
            .collect();
        let d = paired_difference(&hands, 0, 1);
        assert_eq!(d.n, BLOCKS);
        assert!((d.mean - 1.0).abs() < 1e-12 && d.ci95 < 1e-9, "{d:?}");
        // unpaired, the deal's luck makes the mean's interval wide
        assert!(mean_per_hand(&hands, 1).ci95 > 50.0);
    }

    #[test]
    fn standings_sum_the_matches_and_average_the_places() {
        let mk = |seed, scores: [i64; 4]| MatchTotals {
            seed,
            hands: 96,
            draws: 10,
            players: scores.map(|score| BotTotals {
                score,
                ..BotTotals::default()
            }),
        };
        let ms = [mk(1, [10, 0, -5, -5]), mk(2, [0, 10, -5, -5])];
        let st = Standings::of(&ms, &[]);
        assert_eq!(st.matches, 2);
        assert_eq!((st.totals.hands, st.totals.draws), (192, 20));
        assert_eq!(st.places[0], [0.5, 0.5, 0.0, 0.0]);
        assert_eq!(st.places[2], [0.0, 0.0, 0.5, 0.5]);
        assert_eq!(st.order, [0, 1, 2, 3]);
    }
}
