//! Winning shapes on counts: the standard split into sets and a pair (every split enumerated),
//! seven pairs, thirteen orphans, and whether a hand waits on a single kind. All on the stack.

use super::{Reading, Seed2015Rule, Set};
use crate::tile::{Counts, TILE_KINDS, Tile};

/// The 13 terminal and honour kinds.
const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

fn tile(i: usize) -> Tile {
    Tile::from_index(i).expect("index < 34")
}

/// One suit's nine counts split into sets only. At the lowest kind present, only pungs of it and
/// chows from it can use it, and three equal chows are the same tiles as three pungs, so the
/// number of chows from it is its count mod 3: the check is one pass.
fn suit_sets(mut a: [u8; 9]) -> bool {
    for i in 0..9 {
        let r = a[i] % 3;
        if r > 0 {
            if i > 6 || a[i + 1] < r || a[i + 2] < r {
                return false;
            }
            a[i + 1] -= r;
            a[i + 2] -= r;
        }
    }
    true
}

fn suit_sets_and_pair(a: [u8; 9]) -> bool {
    (0..9).any(|i| {
        a[i] >= 2 && {
            let mut b = a;
            b[i] -= 2;
            suit_sets(b)
        }
    })
}

/// Whether counts of 3n + 2 tiles split into sets and exactly one pair.
pub(super) fn is_standard_win(c: &Counts) -> bool {
    let mut pair_group = None;
    for g in 0..4 {
        let end = if g == 3 { TILE_KINDS } else { g * 9 + 9 };
        let sum: u32 = c[g * 9..end].iter().map(|&x| x as u32).sum();
        match sum % 3 {
            0 => {}
            2 if pair_group.is_none() => pair_group = Some(g),
            _ => return false,
        }
    }
    let Some(pair_group) = pair_group else {
        return false;
    };
    for g in 0..3 {
        let a: [u8; 9] = c[g * 9..g * 9 + 9].try_into().expect("nine kinds");
        let ok = if g == pair_group {
            suit_sets_and_pair(a)
        } else {
            suit_sets(a)
        };
        if !ok {
            return false;
        }
    }
    let honours = &c[27..];
    if pair_group == 3 {
        honours.iter().filter(|&&x| x == 2).count() == 1
            && honours.iter().all(|&x| matches!(x, 0 | 2 | 3))
    } else {
        honours.iter().all(|&x| matches!(x, 0 | 3))
    }
}

/// Seven pairs of 14 concealed tiles (four of a kind is two pairs).
pub(super) fn is_seven_pairs(c: &Counts) -> bool {
    c.iter().map(|&x| x as u32).sum::<u32>() == 14 && c.iter().all(|&x| x % 2 == 0)
}

/// Thirteen orphans of 14 concealed tiles: one of each terminal and honour and one more of one
/// of them; under [`Seed2015Rule::LooseThirteenOrphans`], any 14 terminals and honours with
/// exactly one kind held more than once.
pub(super) fn is_thirteen_orphans(c: &Counts, reading: Reading) -> bool {
    let orphans: u32 = ORPHANS.iter().map(|&i| c[i] as u32).sum();
    let all: u32 = c.iter().map(|&x| x as u32).sum();
    if all != 14 || orphans != 14 {
        return false;
    }
    if reading.has(Seed2015Rule::LooseThirteenOrphans) {
        ORPHANS.iter().filter(|&&i| c[i] > 1).count() == 1
    } else {
        ORPHANS.iter().all(|&i| c[i] >= 1)
    }
}

/// The kind held more than once in a thirteen-orphans hand.
pub(super) fn orphans_pair(c: &Counts) -> Tile {
    tile(
        ORPHANS
            .into_iter()
            .find(|&i| c[i] > 1)
            .expect("thirteen orphans hold one kind twice"),
    )
}

/// Whether concealed counts `c` (with `melds` declared) form a win of any shape.
pub(super) fn completes(c: &Counts, melds: usize, reading: Reading) -> bool {
    is_standard_win(c)
        || (melds == 0 && (is_seven_pairs(c) || is_thirteen_orphans(c, reading)))
}

/// Whether the hand `before` (the concealed tiles without the winning tile `win`, with `melds`
/// declared) can win on no kind but `win`. A kind of which the hand already holds all four
/// (`held` counts the declared sets too) cannot be drawn, so it is no wait.
pub(super) fn single_wait(
    before: &Counts,
    held: &Counts,
    melds: usize,
    win: Tile,
    reading: Reading,
) -> bool {
    for k in 0..TILE_KINDS {
        if k == win.index() || held[k] >= 4 || !could_wait(before, melds, k) {
            continue;
        }
        let mut c = *before;
        c[k] += 1;
        if completes(&c, melds, reading) {
            return false;
        }
    }
    true
}

/// A cheap necessary condition for kind `k` completing the hand: a tile of the hand within two
/// ranks of it in its suit, one of it if an honour, or any terminal or honour when the hand has
/// no melds (thirteen orphans wait on a kind they may not hold).
fn could_wait(before: &Counts, melds: usize, k: usize) -> bool {
    if melds == 0 && ORPHANS.contains(&k) {
        return true;
    }
    if k >= 27 {
        return before[k] > 0;
    }
    let base = k / 9 * 9;
    let lo = k.saturating_sub(2).max(base);
    let hi = (k + 2).min(base + 8);
    before[lo..=hi].iter().any(|&x| x > 0)
}

/// Calls `visit(pair, sets)` for every split of the concealed counts `c` into sets and one pair
/// (each multiset of sets once): pairs in tile order, then sets from the lowest kind, a pung
/// of it before chows from it.
pub(super) fn for_each_split(c: &Counts, mut visit: impl FnMut(Tile, &[Set])) {
    if !is_standard_win(c) {
        return;
    }
    let mut c = *c;
    let mut sets = [Set::Chow(Tile::default()); 4];
    for p in 0..TILE_KINDS {
        if c[p] >= 2 {
            c[p] -= 2;
            sets_from(&mut c, 0, &mut sets, 0, tile(p), &mut visit);
            c[p] += 2;
        }
    }
}

fn sets_from(
    c: &mut Counts,
    from: usize,
    sets: &mut [Set; 4],
    n: usize,
    pair: Tile,
    visit: &mut impl FnMut(Tile, &[Set]),
) {
    let Some(i) = (from..TILE_KINDS).find(|&i| c[i] > 0) else {
        visit(pair, &sets[..n]);
        return;
    };
    // Every tile of the lowest kind goes now, into a pung of it or chows from it, so each
    // multiset of sets comes up once: with a count of at most 4, one pung or none.
    let count = c[i] as usize;
    for pungs in (0..=count / 3).rev() {
        let chows = count - 3 * pungs;
        if n + pungs + chows > 4
            || (chows > 0
                && (i >= 27 || i % 9 >= 7 || (c[i + 1] as usize) < chows || (c[i + 2] as usize) < chows))
        {
            continue;
        }
        let mut m = n;
        if pungs == 1 {
            sets[m] = Set::Pung(tile(i));
            m += 1;
        }
        for _ in 0..chows {
            sets[m] = Set::Chow(tile(i));
            m += 1;
        }
        c[i] = 0;
        if chows > 0 {
            c[i + 1] -= chows as u8;
            c[i + 2] -= chows as u8;
        }
        sets_from(c, i + 1, sets, m, pair, visit);
        c[i] = count as u8;
        if chows > 0 {
            c[i + 1] += chows as u8;
            c[i + 2] += chows as u8;
        }
    }
}
