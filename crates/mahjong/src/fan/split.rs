//! The readings of a winning hand's concealed tiles: every split into sets and a pair,
//! enumerated on the stack, and whether the hand waited on the winning tile alone. Win and wait
//! detection themselves are [`crate::shape`]'s.

use super::{Reading, Set};
use crate::shape;
use crate::tile::{Counts, TILE_KINDS, Tile};

fn tile(i: usize) -> Tile {
    Tile::from_index(i).expect("index < 34")
}

/// The four groups a set never crosses: the three suits and the honours.
const GROUPS: [std::ops::Range<usize>; 4] = [0..9, 9..18, 18..27, 27..34];

/// Thirteen orphans as `reading` has it (the 2015 server's test is looser).
pub(super) fn is_thirteen_orphans(c: &Counts, reading: Reading) -> bool {
    match reading {
        Reading::Contest => shape::is_thirteen_orphans(c),
        Reading::Seed2015 => shape::is_loose_thirteen_orphans(c),
    }
}

/// The kind held more than once in a thirteen-orphans hand.
pub(super) fn orphans_pair(c: &Counts) -> Tile {
    tile(
        (0..TILE_KINDS)
            .find(|&i| c[i] > 1)
            .expect("thirteen orphans hold one kind twice"),
    )
}

/// Whether the hand `before` (the concealed tiles without the winning tile `win`) can win on no
/// kind but `win`, under `reading`. A kind of which the hand already holds all four (`held`
/// counts the declared sets too) cannot be drawn, so it is no wait.
pub(super) fn single_wait(before: &Counts, held: &Counts, win: Tile, reading: Reading) -> bool {
    shape::waits_in(before, reading)
        .iter()
        .all(|k| k == win || held[k.index()] >= 4)
}

/// Calls `visit(pair, sets)` for every split of the concealed counts `c` into sets and one pair
/// (each multiset of sets once): pairs in tile order, then sets from the lowest kind, a pung
/// of it before chows from it.
pub(super) fn for_each_split(c: &Counts, mut visit: impl FnMut(Tile, &[Set])) {
    if !shape::is_standard_win(c) {
        return;
    }
    // The pair sits in the one group whose tiles are 2 mod 3.
    let group_tiles =
        |g: &std::ops::Range<usize>| c[g.clone()].iter().map(|&x| x as u32).sum::<u32>();
    let pairs = GROUPS
        .into_iter()
        .find(|g| group_tiles(g) % 3 == 2)
        .expect("a win has a pair group");
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
                && (i >= 27
                    || i % 9 >= 7
                    || (c[i + 1] as usize) < chows
                    || (c[i + 2] as usize) < chows))
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
