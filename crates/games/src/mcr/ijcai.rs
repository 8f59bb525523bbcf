//! The IJCAI Mahjong AI competition's duplicate format for Chinese Standard Mahjong, pure (no
//! I/O, no clocks): who sits where, which walls are played, how a wall's results become rank
//! points, how groups are paired between rounds, and the standings.
//!
//! # The format
//!
//! - The entrants are split into **groups of four**. With a number of entrants that is not a
//!   multiple of four, the field is padded with built-in bots ([`padding`]); padding bots play
//!   and are ranked like any entrant.
//! - A **round** deals `walls` walls (IJCAI 2020: 4, the prevalent wind of wall `w` being
//!   `w mod 4`: East, South, West, North). Every group of the round plays the same walls.
//! - A group plays each wall at **all 24 seat permutations** of its four bots
//!   ([`PERMUTATIONS`]), so each bot holds every seat's tiles of every wall 6 times: 96 hands
//!   per group and round with 4 walls.
//! - Per wall and group, each bot's scores over the 24 hands are summed, and the sums give
//!   **rank points** 4, 3, 2, 1 from the highest sum down; tied bots share the mean of the
//!   places they span ([`rank_points`]: two bots tied for first get 3.5 each).
//! - After the first round, groups are formed by **Swiss pairing** ([`swiss_groups`]): the
//!   entrants ordered by rank points so far (then score, then entry order) are cut into
//!   consecutive fours, so leaders meet leaders. The first round groups the entrants in entry
//!   order.
//! - **Standings** ([`standings`]) order the entrants by rank points, summed score breaking
//!   ties.
//!
//! # Seeds
//!
//! A match's seed `S` gives round `r` the seed `mix(S, r)` and its wall `w` the seed
//! `mix(mix(S, r), w)` ([`wall_seed`]; `mix` is the SplitMix64 step Mahjong's schedule uses,
//! [`mahjong::schedule::mix`]), and that seed the wall by [`mcr::Wall::from_seed`].

use arena_stats::places;
use mahjong::schedule::mix;
use mcr::{Wall, Wind};

/// Players at an MCR table, and so in a group.
pub const GROUP: usize = 4;

/// Walls per round in IJCAI 2020: one per prevalent wind.
pub const IJCAI_2020_WALLS: u32 = 4;

/// Rank points of the places of a wall in its group, first to fourth.
pub const PLACE_POINTS: [f64; GROUP] = [4.0, 3.0, 2.0, 1.0];

/// How many seat permutations a group plays each wall at.
pub const SEATINGS: usize = 24;

/// The 24 seatings of a group: `PERMUTATIONS[p][seat]` is the group member (0–3) in `seat`, in
/// lexicographic order (`[0, 1, 2, 3]` first, `[3, 2, 1, 0]` last).
pub const PERMUTATIONS: [[u8; GROUP]; SEATINGS] = permutations();

const fn permutations() -> [[u8; GROUP]; SEATINGS] {
    let mut out = [[0u8; GROUP]; SEATINGS];
    let mut n = 0;
    let mut a = 0u8;
    while a < 4 {
        let mut b = 0u8;
        while b < 4 {
            let mut c = 0u8;
            while c < 4 {
                if a != b && b != c && a != c {
                    // The fourth is what the three leave: 0 + 1 + 2 + 3 = 6.
                    out[n] = [a, b, c, 6 - a - b - c];
                    n += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    out
}

/// The seed of round `round` of the match with seed `match_seed`.
pub fn round_seed(match_seed: u64, round: u32) -> u64 {
    mix(match_seed, u64::from(round))
}

/// The seed of wall `wall` of round `round` of the match with seed `match_seed`.
pub fn wall_seed(match_seed: u64, round: u32, wall: u32) -> u64 {
    mix(round_seed(match_seed, round), u64::from(wall))
}

/// The prevalent wind of wall `wall` of a round: East, South, West, North in turn.
pub fn quan(wall: u32) -> Wind {
    Wind::from_index((wall % 4) as u8).unwrap_or_default()
}

/// Wall `wall` of round `round` of the match with seed `match_seed`, and its prevalent wind:
/// 136 tiles unless `flowers` (IJCAI plays without flowers).
pub fn deal(match_seed: u64, round: u32, wall: u32, flowers: bool) -> mcr::wall::Deal {
    mcr::wall::Deal {
        wall: Wall::from_seed(wall_seed(match_seed, round, wall), flowers),
        quan: quan(wall),
    }
}

/// How many built-in bots pad `entrants` entrants to a multiple of four (at least four).
pub fn padding(entrants: usize) -> usize {
    if entrants < GROUP {
        GROUP - entrants
    } else {
        (GROUP - entrants % GROUP) % GROUP
    }
}

/// The rank points of one wall in a group: `sums[i]` is member `i`'s summed score over the
/// wall's 24 hands; the highest sum gets 4, the lowest 1, and tied members share the mean of
/// the places they span (so the four always add up to 10).
pub fn rank_points(sums: &[i64; GROUP]) -> [f64; GROUP] {
    let shares = places(sums);
    let mut out = [0.0; GROUP];
    for (o, row) in out.iter_mut().zip(&shares) {
        let exact: f64 = row.iter().zip(PLACE_POINTS).map(|(s, p)| s * p).sum();
        // Shared places are always worth a multiple of a half (a mean of 2, 3 or 4 whole
        // points of consecutive places); rounding there drops the thirds' float error.
        *o = (exact * 2.0).round() / 2.0;
    }
    out
}

/// An entrant's running totals, what Swiss pairing and the standings order by.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Rank points so far.
    pub rank_points: f64,
    /// Summed score so far.
    pub score: i64,
    /// Walls played (each at 24 seatings).
    pub walls: u32,
}

/// One group's result on one wall: its four entrants (indices into the field) and each one's
/// score summed over the wall's 24 seatings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WallResult {
    /// The group's entrants, as member 0–3.
    pub members: [usize; GROUP],
    /// Each member's summed score.
    pub sums: [i64; GROUP],
}

/// Adds one wall's result to the field's totals (`totals[e]` for entrant `e`); members outside
/// the field are ignored.
pub fn add_wall(totals: &mut [Totals], result: &WallResult) {
    let points = rank_points(&result.sums);
    for ((&e, &sum), p) in result.members.iter().zip(&result.sums).zip(points) {
        if let Some(t) = totals.get_mut(e) {
            t.rank_points += p;
            t.score += sum;
            t.walls += 1;
        }
    }
}

/// The entrants best first: rank points, then summed score, then entry order.
pub fn order(totals: &[Totals]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..totals.len()).collect();
    idx.sort_by(|&a, &b| {
        let (x, y) = (&totals[a], &totals[b]);
        y.rank_points
            .total_cmp(&x.rank_points)
            .then(y.score.cmp(&x.score))
            .then(a.cmp(&b))
    });
    idx
}

/// The standings: every entrant (index into `totals`) with its totals, best first, and its
/// place (1-based; entrants equal in rank points and score share the better place).
pub fn standings(totals: &[Totals]) -> Vec<(usize, usize, Totals)> {
    let ordered = order(totals);
    let mut out: Vec<(usize, usize, Totals)> = Vec::with_capacity(ordered.len());
    for (i, &e) in ordered.iter().enumerate() {
        let t = totals[e];
        let place = match out.last() {
            Some(&(_, p, last)) if last.rank_points == t.rank_points && last.score == t.score => p,
            _ => i + 1,
        };
        out.push((e, place, t));
    }
    out
}

/// The groups of the next round by Swiss pairing: the entrants ordered by [`order`], cut into
/// consecutive fours (the leaders play together). `totals` holds a multiple of four entrants,
/// padding included; any remainder (fewer than four) is left out.
pub fn swiss_groups(totals: &[Totals]) -> Vec<[usize; GROUP]> {
    groups_of(&order(totals))
}

/// The first round's groups, or those of a plan fixed in advance: `entrants` in the given
/// order cut into consecutive fours.
pub fn groups_of(entrants: &[usize]) -> Vec<[usize; GROUP]> {
    entrants
        .chunks_exact(GROUP)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

/// The groups of round `round` in a plan fixed before any result (a competition's, whose
/// tables are all laid out up front, so it cannot pair by results): `entrants` entrants (a
/// multiple of four) shuffled by a Fisher–Yates driven by `mix(round_seed, i)`, then cut into
/// fours. Round 0 of a field of four is the one group `[0, 1, 2, 3]` whatever the seed.
pub fn seeded_groups(entrants: usize, match_seed: u64, round: u32) -> Vec<[usize; GROUP]> {
    let mut order: Vec<usize> = (0..entrants).collect();
    if entrants > GROUP {
        let seed = round_seed(match_seed, round);
        for i in (1..order.len()).rev() {
            let j = (mix(seed, i as u64) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
    }
    groups_of(&order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_24_permutations_are_distinct_permutations() {
        let mut seen = std::collections::HashSet::new();
        for p in PERMUTATIONS {
            let mut sorted = p;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3], "{p:?} is a permutation");
            assert!(seen.insert(p), "{p:?} twice");
        }
        assert_eq!(seen.len(), 24);
        assert_eq!(PERMUTATIONS[0], [0, 1, 2, 3]);
        assert_eq!(PERMUTATIONS[23], [3, 2, 1, 0]);
    }

    #[test]
    fn every_member_sits_every_seat_six_times() {
        let mut count = [[0; GROUP]; GROUP];
        for p in PERMUTATIONS {
            for (seat, &m) in p.iter().enumerate() {
                count[usize::from(m)][seat] += 1;
            }
        }
        assert_eq!(count, [[6; GROUP]; GROUP]);
    }

    #[test]
    fn rank_points_are_4_3_2_1_by_summed_score() {
        assert_eq!(rank_points(&[10, -5, 30, 0]), [3.0, 1.0, 4.0, 2.0]);
    }

    #[test]
    fn ties_share_the_mean_of_their_places() {
        assert_eq!(rank_points(&[20, 20, 0, -40]), [3.5, 3.5, 2.0, 1.0]);
        assert_eq!(rank_points(&[5, -1, -1, -1]), [4.0, 2.0, 2.0, 2.0]);
        assert_eq!(rank_points(&[0, 0, 0, 0]), [2.5; 4]);
        for sums in [[20, 20, 0, -40], [1, 1, 1, -3], [3, 2, 1, 0]] {
            assert_eq!(rank_points(&sums).iter().sum::<f64>(), 10.0);
        }
    }

    #[test]
    fn walls_have_the_four_winds_and_differ() {
        assert_eq!(
            (0..4).map(quan).collect::<Vec<_>>(),
            [Wind::East, Wind::South, Wind::West, Wind::North]
        );
        let d = deal(1, 0, 0, false);
        assert_eq!(d.wall.tiles().len(), 136);
        assert_eq!(deal(1, 0, 1, true).wall.tiles().len(), 144);
        assert_ne!(d.wall, deal(1, 0, 1, false).wall);
        assert_ne!(d.wall, deal(1, 1, 0, false).wall);
        assert_ne!(d.wall, deal(2, 0, 0, false).wall);
        assert_eq!(d, deal(1, 0, 0, false), "a seed makes the same wall again");
    }

    #[test]
    fn padding_fills_to_a_multiple_of_four() {
        assert_eq!(
            (1..=9).map(padding).collect::<Vec<_>>(),
            [3, 2, 1, 0, 3, 2, 1, 0, 3]
        );
    }

    #[test]
    fn swiss_pairs_the_leaders_together() {
        let t = |rank_points: f64, score: i64| Totals {
            rank_points,
            score,
            walls: 4,
        };
        // Entrants 5, 2, 7, 0 lead (7 and 0 tied on rank points, 7 ahead on score).
        let totals = [
            t(12.0, -10),
            t(6.0, 0),
            t(15.0, 0),
            t(4.0, 0),
            t(8.0, 0),
            t(16.0, 0),
            t(5.0, 0),
            t(12.0, 3),
        ];
        assert_eq!(swiss_groups(&totals), [[5, 2, 7, 0], [4, 1, 6, 3]]);
    }

    #[test]
    fn standings_order_by_rank_points_then_score() {
        let mut totals = vec![Totals::default(); 4];
        add_wall(
            &mut totals,
            &WallResult {
                members: [0, 1, 2, 3],
                sums: [40, 40, -30, -50],
            },
        );
        add_wall(
            &mut totals,
            &WallResult {
                members: [0, 1, 2, 3],
                sums: [-10, 20, 0, -10],
            },
        );
        // 0: 3.5 + 1.5 = 5, score 30; 1: 3.5 + 4 = 7.5; 2: 2 + 3 = 5, score -30; 3: 1 + 1.5.
        let s = standings(&totals);
        let who: Vec<usize> = s.iter().map(|x| x.0).collect();
        assert_eq!(who, [1, 0, 2, 3]);
        assert_eq!(s[1].2.rank_points, 5.0);
        assert_eq!(s[1].2.score, 30);
        assert_eq!(s[2].2.rank_points, 5.0);
        assert_eq!(s.iter().map(|x| x.1).collect::<Vec<_>>(), [1, 2, 3, 4]);
        assert!(totals.iter().all(|t| t.walls == 2));
    }

    #[test]
    fn equal_entrants_share_a_place() {
        let t = Totals {
            rank_points: 5.0,
            score: 0,
            walls: 2,
        };
        let s = standings(&[t, t, Totals::default()]);
        assert_eq!(s.iter().map(|x| x.1).collect::<Vec<_>>(), [1, 1, 3]);
    }

    #[test]
    fn seeded_groups_cover_every_entrant_once() {
        for n in [4, 8, 12] {
            for round in 0..3 {
                let groups = seeded_groups(n, 9, round);
                let mut all: Vec<usize> = groups.iter().flatten().copied().collect();
                all.sort_unstable();
                assert_eq!(all, (0..n).collect::<Vec<_>>());
            }
        }
        assert_eq!(seeded_groups(4, 9, 2), [[0, 1, 2, 3]]);
        assert_ne!(seeded_groups(12, 9, 0), seeded_groups(12, 9, 1));
    }
}
