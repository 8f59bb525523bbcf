//! The 96-hand duplicate schedule of the contest.
//!
//! A match is 6 groups × 4 rounds × 4 hands. Group `g` has its own seed, which fixes its 4
//! deals (wall and first player each); the group's 4 rounds play those same 4 deals, rotating
//! the bots one seat between rounds. The 6 groups seat the bots in the 6 cyclic orders of four
//! (bot 0 fixed at the head, the other three in every order), so over a match every bot plays
//! every deal of its group from every seat, and the 24 seatings (6 orders × 4 rotations) are
//! the 24 permutations of the four bots.
//!
//! Seeds: the match seed `S` gives group seed `G_g = mix(S, g)` and deal seed
//! `D_{g,d} = mix(G_g, d)`, where `mix` is SplitMix64 of `seed + 0x9E37_79B9_7F4A_7C15·(i+1)`.
//! Every seed is in the [`Slot`] (and so in every log).

/// Groups in a match: the 6 cyclic orders of four bots.
pub const GROUPS: usize = 6;
/// Rounds in a group: one per rotation of the seats.
pub const ROUNDS: usize = 4;
/// Deals in a group, replayed in every round.
pub const DEALS: usize = 4;
/// Hands in a match.
pub const HANDS: usize = GROUPS * ROUNDS * DEALS;

/// The 6 cyclic orders of bots `0..4`, bot 0 first: the seating of round 0 of each group.
pub const CYCLIC_ORDERS: [[usize; 4]; GROUPS] = [
    [0, 1, 2, 3],
    [0, 1, 3, 2],
    [0, 2, 1, 3],
    [0, 2, 3, 1],
    [0, 3, 1, 2],
    [0, 3, 2, 1],
];

/// SplitMix64 of `seed` offset by stream `i`: independent-looking seeds from one seed.
pub fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i.wrapping_add(1)));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of group `group` of the match with seed `match_seed`.
pub fn group_seed(match_seed: u64, group: usize) -> u64 {
    mix(match_seed, group as u64)
}

/// The seed of deal `deal` of a group with seed `group_seed`: it fixes the wall and the first
/// player.
pub fn deal_seed(group_seed: u64, deal: usize) -> u64 {
    mix(group_seed, deal as u64)
}

/// One hand of a match: where it sits in the schedule, its deal's seed, and who sits where.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Slot {
    /// The match's seed.
    pub match_seed: u64,
    /// 0..96, in play order: group-major, then round, then deal.
    pub hand: usize,
    /// 0..6.
    pub group: usize,
    /// 0..4: how many times the group's seating has rotated.
    pub round: usize,
    /// 0..4: which of the group's deals.
    pub deal: usize,
    /// The group's seed.
    pub group_seed: u64,
    /// The deal's seed (wall and first player).
    pub deal_seed: u64,
    /// `seats[s]` = the bot (its position in the match's list of four) in seat `s`.
    pub seats: [usize; 4],
}

impl Slot {
    /// The seat of bot `bot` in this hand.
    pub fn seat_of(&self, bot: usize) -> u8 {
        self.seats
            .iter()
            .position(|&b| b == bot)
            .expect("every bot has a seat") as u8
    }
}

/// The seating of round `round` of group `group`: the group's cyclic order, rotated so that
/// the bot in seat `s` moves to seat `s + 1` (mod 4) each round.
pub fn seating(group: usize, round: usize) -> [usize; 4] {
    let order = CYCLIC_ORDERS[group];
    std::array::from_fn(|s| order[(s + 4 - round % 4) % 4])
}

/// The 96 hands of the match with seed `match_seed`, in play order.
pub fn schedule(match_seed: u64) -> Vec<Slot> {
    let mut out = Vec::with_capacity(HANDS);
    for group in 0..GROUPS {
        let gs = group_seed(match_seed, group);
        for round in 0..ROUNDS {
            for deal in 0..DEALS {
                out.push(Slot {
                    match_seed,
                    hand: out.len(),
                    group,
                    round,
                    deal,
                    group_seed: gs,
                    deal_seed: deal_seed(gs, deal),
                    seats: seating(group, round),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    #[test]
    fn ninety_six_hands_in_play_order() {
        let s = schedule(7);
        assert_eq!(s.len(), 96);
        for (i, slot) in s.iter().enumerate() {
            assert_eq!(slot.hand, i);
            assert_eq!(i, slot.group * 16 + slot.round * 4 + slot.deal);
            assert_eq!(slot.match_seed, 7);
        }
    }

    #[test]
    fn every_bot_plays_every_deal_from_every_seat() {
        let s = schedule(11);
        // (deal seed, bot) -> the seats it played that deal from
        let mut seats: BTreeMap<(u64, usize), BTreeSet<u8>> = BTreeMap::new();
        for slot in &s {
            for bot in 0..4 {
                assert!(
                    seats
                        .entry((slot.deal_seed, bot))
                        .or_default()
                        .insert(slot.seat_of(bot)),
                    "bot {bot} played deal {} twice from one seat",
                    slot.deal_seed
                );
            }
        }
        assert_eq!(seats.len(), 24 * 4, "24 distinct deals, four bots each");
        assert!(seats.values().all(|s| s.len() == 4));
    }

    #[test]
    fn the_24_seatings_are_the_24_permutations() {
        let s = schedule(3);
        let seatings: BTreeSet<[usize; 4]> = s.iter().map(|slot| slot.seats).collect();
        assert_eq!(seatings.len(), 24);
        for p in &seatings {
            let mut sorted = *p;
            sorted.sort();
            assert_eq!(sorted, [0, 1, 2, 3]);
        }
        // each seating is one round of one group: its 4 hands
        for p in &seatings {
            assert_eq!(s.iter().filter(|slot| slot.seats == *p).count(), 4);
        }
    }

    #[test]
    fn a_group_replays_its_four_deals_in_every_round_and_groups_differ() {
        let s = schedule(5);
        let mut all = BTreeSet::new();
        for g in 0..GROUPS {
            let group: Vec<&Slot> = s.iter().filter(|x| x.group == g).collect();
            assert_eq!(group.len(), 16);
            let round0: Vec<u64> = group[..4].iter().map(|x| x.deal_seed).collect();
            for r in 0..ROUNDS {
                let deals: Vec<u64> = group[r * 4..r * 4 + 4]
                    .iter()
                    .map(|x| x.deal_seed)
                    .collect();
                assert_eq!(deals, round0, "group {g} round {r}");
                assert!(
                    group[r * 4..r * 4 + 4]
                        .iter()
                        .all(|x| x.group_seed == group_seed(5, g))
                );
            }
            let distinct: BTreeSet<u64> = round0.iter().copied().collect();
            assert_eq!(distinct.len(), 4, "a group's 4 deals are different deals");
            all.extend(distinct);
        }
        assert_eq!(all.len(), 24, "no two groups share a deal");
    }

    #[test]
    fn rounds_rotate_one_seat() {
        for (g, order) in CYCLIC_ORDERS.iter().enumerate() {
            for r in 0..ROUNDS {
                let (now, next) = (seating(g, r), seating(g, (r + 1) % 4));
                for (s, bot) in now.iter().enumerate() {
                    assert_eq!(next[(s + 1) % 4], *bot, "group {g} round {r}");
                }
            }
            assert_eq!(seating(g, 0), *order);
        }
    }

    #[test]
    fn seeds_are_fixed_by_the_match_seed() {
        assert_eq!(schedule(9), schedule(9));
        assert_ne!(schedule(9)[0].deal_seed, schedule(10)[0].deal_seed);
    }
}
