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

/// The four groups a set never crosses: the three suits and the honours.
const GROUPS: [std::ops::Range<usize>; 4] = [0..9, 9..18, 18..27, 27..34];

fn group_tiles(c: &Counts, g: usize) -> u32 {
    c[GROUPS[g].clone()].iter().map(|&x| x as u32).sum()
}

/// Group `g` of `c` splits into sets only (`pair` false) or sets and one pair.
fn group_ok(c: &Counts, g: usize, pair: bool) -> bool {
    if g == 3 {
        let h = &c[27..];
        return if pair {
            h.iter().filter(|&&x| x == 2).count() == 1 && h.iter().all(|&x| matches!(x, 0 | 2 | 3))
        } else {
            h.iter().all(|&x| matches!(x, 0 | 3))
        };
    }
    let mut a = [0u8; 9];
    a.copy_from_slice(&c[GROUPS[g].clone()]);
    if pair {
        suit_sets_and_pair(a)
    } else {
        suit_sets(a)
    }
}

/// The group that must hold the pair of counts `c` of 3n + 2 tiles (the one group whose count
/// is 2 mod 3, every other 0 mod 3), if any.
fn pair_group(c: &Counts) -> Option<usize> {
    let mut pair = None;
    for g in 0..4 {
        match group_tiles(c, g) % 3 {
            0 => {}
            2 if pair.is_none() => pair = Some(g),
            _ => return None,
        }
    }
    pair
}

/// Whether counts of 3n + 2 tiles split into sets and exactly one pair.
pub(super) fn is_standard_win(c: &Counts) -> bool {
    pair_group(c).is_some_and(|p| (0..4).all(|g| group_ok(c, g, g == p)))
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
    let drawable = |k: usize| k != win.index() && held[k] < 4;
    if other_standard_wait(before, &drawable) {
        return false;
    }
    if melds > 0 {
        return true;
    }
    // Seven pairs wait on the one kind held an odd number of times.
    let mut odd = (0..TILE_KINDS).filter(|&k| before[k] % 2 == 1);
    if let (Some(k), None) = (odd.next(), odd.next())
        && drawable(k)
    {
        return false;
    }
    let orphans_only = (0..TILE_KINDS).all(|k| before[k] == 0 || ORPHANS.contains(&k));
    !(orphans_only
        && ORPHANS.iter().any(|&k| {
            drawable(k) && {
                let mut c = *before;
                c[k] += 1;
                is_thirteen_orphans(&c, reading)
            }
        }))
}

/// Whether some `drawable` kind completes `before` (3n + 1 tiles) into sets and a pair. Adding
/// a tile changes one group only, so the others must already be whole: either one group is 1
/// mod 3 and takes the pair, or two are 2 mod 3 and the tile turns one of them into sets only
/// while the other holds the pair.
fn other_standard_wait(before: &Counts, drawable: &impl Fn(usize) -> bool) -> bool {
    let completes_in = |g: usize, pair: bool| {
        GROUPS[g].clone().any(|k| {
            drawable(k) && {
                let mut c = *before;
                c[k] += 1;
                group_ok(&c, g, pair)
            }
        })
    };
    let whole_but = |a: usize, b: usize| (0..4).all(|g| g == a || g == b || group_ok(before, g, false));
    let mut ones = [0usize; 4];
    let mut twos = [0usize; 4];
    let (mut n1, mut n2) = (0, 0);
    for g in 0..4 {
        match group_tiles(before, g) % 3 {
            0 => {}
            1 => {
                ones[n1] = g;
                n1 += 1;
            }
            _ => {
                twos[n2] = g;
                n2 += 1;
            }
        }
    }
    match (n1, n2) {
        (1, 0) => whole_but(ones[0], ones[0]) && completes_in(ones[0], true),
        (0, 2) => {
            let (a, b) = (twos[0], twos[1]);
            whole_but(a, b)
                && ((group_ok(before, b, true) && completes_in(a, false))
                    || (group_ok(before, a, true) && completes_in(b, false)))
        }
        _ => false,
    }
}

/// Calls `visit(pair, sets)` for every split of the concealed counts `c` into sets and one pair
/// (each multiset of sets once): pairs in tile order, then sets from the lowest kind, a pung
/// of it before chows from it.
pub(super) fn for_each_split(c: &Counts, mut visit: impl FnMut(Tile, &[Set])) {
    if !is_standard_win(c) {
        return;
    }
    let pairs = GROUPS[pair_group(c).expect("a win has a pair group")].clone();
    let mut c = *c;
    let mut sets = [Set::Chow(Tile::default()); 4];
    for p in pairs {
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
