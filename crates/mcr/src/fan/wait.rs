//! Whether a hand waited on one tile alone, read the way the fan library reads it.
//!
//! The reading removes the winning tile from the concealed tiles and lists the tiles the rest
//! waits on: the basic shape (melds down to a lone tile, or to a pair and two tiles), and with
//! 13 concealed tiles Seven Pairs. The counts are 16-bit and wrap: when the winning tile is
//! not among the tiles read (a knitted straight's winning tile), its count wraps to 65535 and
//! the reading goes on regardless, as the library's does, so that Edge, Closed and Single Wait
//! agree with it on such hands too.

use crate::shape::{
    DividedGroups, basic_waits_mask, basic_waits_of_divided, split_waits_of_divided,
    split_waits_of_groups,
};
use crate::tile::{Counts, TILE_KINDS, Tile};

type Table = [u16; TILE_KINDS];

/// Whether `closed` (the concealed tiles with the winning tile, `tiles + 1` of them) less
/// `win` waited on exactly one kind.
///
/// When the winning tile is among the concealed tiles the reading is the true wait: the basic
/// shape's from the shape tables ([`basic_waits_mask`]), and Seven Pairs'; otherwise (or for
/// a hand the tables do not hold) the library's reading is followed step by step.
pub(super) fn unique_wait(closed: &Counts, tiles: usize, win: Tile) -> bool {
    if closed[win.index()] > 0 {
        let mut standing = *closed;
        standing[win.index()] -= 1;
        if let Some(mut mask) = basic_waits_mask(&standing) {
            if tiles == 13 {
                // Seven Pairs as `seven_pairs` reads it: six pairs (four of a kind two) and
                // the first kind held once or three times.
                let (mut pairs, mut odd) = (0, None);
                for (i, &n) in standing.iter().enumerate() {
                    pairs += u32::from(n / 2);
                    if n % 2 == 1 && odd.is_none() {
                        odd = Some(i);
                    }
                }
                if pairs == 6
                    && let Some(i) = odd
                {
                    mask |= 1 << i;
                }
            }
            return mask.count_ones() == 1;
        }
    }
    unique_wait_read(closed, tiles, win)
}

/// [`unique_wait`] for a hand whose concealed tiles `closed` (the winning tile among them)
/// divide into melds and a pair: the same answer from fewer table lookups
/// ([`basic_waits_of_divided`]).
pub(super) fn unique_wait_divided(closed: &Counts, tiles: usize, win: Tile) -> bool {
    unique_wait_of_mask(split_waits_of_divided(closed, win), closed, tiles, win)
}

/// [`unique_wait_divided`] with the groups of `closed` as dividing it found them: no table
/// lookup at all.
pub(super) fn unique_wait_of_groups(
    closed: &Counts,
    tiles: usize,
    win: Tile,
    groups: &DividedGroups,
) -> bool {
    unique_wait_of_mask(
        split_waits_of_groups(closed, win, groups),
        closed,
        tiles,
        win,
    )
}

/// [`unique_wait_divided`] given the basic shape's wait `mask` from the split waits (`None`
/// for counts outside the tables).
fn unique_wait_of_mask(mask: Option<u64>, closed: &Counts, tiles: usize, win: Tile) -> bool {
    if let Some(mask) = mask {
        if mask.count_ones() > 1 || tiles != 13 {
            return mask.count_ones() == 1;
        }
        let mut standing = *closed;
        standing[win.index()] -= 1;
        return (mask | seven_pairs_mask(&standing, tiles)).count_ones() == 1;
    }
    let mut standing = *closed;
    standing[win.index()] -= 1;
    match basic_waits_of_divided(&standing, win) {
        Some(mask) => (mask | seven_pairs_mask(&standing, tiles)).count_ones() == 1,
        None => unique_wait(closed, tiles, win),
    }
}

/// The Seven Pairs wait of 13 concealed `standing` tiles as [`unique_wait`] reads it (six
/// pairs, four of a kind two, and the first kind held once or three times), as a bit mask.
fn seven_pairs_mask(standing: &Counts, tiles: usize) -> u64 {
    if tiles != 13 {
        return 0;
    }
    // Summed over every kind at once first: most hands are far from six pairs.
    let pairs: u8 = standing.iter().map(|&n| n / 2).sum();
    if pairs != 6 {
        return 0;
    }
    standing
        .iter()
        .position(|&n| n % 2 == 1)
        .map_or(0, |i| 1 << i)
}

/// [`unique_wait`] as the library reads it, step by step.
fn unique_wait_read(closed: &Counts, tiles: usize, win: Tile) -> bool {
    let mut t: Table = closed.map(u16::from);
    t[win.index()] = t[win.index()].wrapping_sub(1);
    let mut waits = [false; TILE_KINDS];
    if tiles == 13 {
        seven_pairs(&t, &mut waits);
    }
    regular(&mut t, tiles, -1, &mut waits);
    waits.iter().filter(|&&w| w).count() == 1
}

fn seven_pairs(t: &Table, waits: &mut [bool; TILE_KINDS]) {
    let pairs: u32 = t
        .iter()
        .map(|&n| match n {
            2 | 3 => 1,
            4 => 2,
            _ => 0,
        })
        .sum();
    if pairs == 6
        && let Some(i) = t.iter().position(|&n| n == 1 || n == 3)
    {
        waits[i] = true;
    }
}

/// Melds come off in non-decreasing order (`key`: a pung of tile `i` is `2i`, a chow from
/// `i` is `2i + 1`), so each split is read once.
fn regular(t: &mut Table, tiles: usize, key: i32, waits: &mut [bool; TILE_KINDS]) {
    if tiles == 1 {
        if let Some(i) = t.iter().position(|&n| n == 1) {
            waits[i] = true;
        }
        return;
    }
    if tiles == 4 {
        for i in 0..TILE_KINDS {
            if t[i] < 2 {
                continue;
            }
            t[i] = t[i].wrapping_sub(2);
            two_tiles(t, waits);
            t[i] = t[i].wrapping_add(2);
        }
    }
    if tiles < 4 {
        return;
    }
    for i in 0..TILE_KINDS {
        if t[i] < 1 {
            continue;
        }
        let pung = 2 * i as i32;
        if t[i] > 2 && pung > key {
            t[i] = t[i].wrapping_sub(3);
            regular(t, tiles - 3, pung, waits);
            t[i] = t[i].wrapping_add(3);
        }
        let chow = pung + 1;
        if i < 27 && i % 9 <= 6 && t[i + 1] > 0 && t[i + 2] > 0 && chow >= key {
            for x in &mut t[i..i + 3] {
                *x = x.wrapping_sub(1);
            }
            regular(t, tiles - 3, chow, waits);
            for x in &mut t[i..i + 3] {
                *x = x.wrapping_add(1);
            }
        }
    }
}

/// The wait of the two tiles left beside a pair: the first tile (in index order) that forms a
/// pair or a partial chow with a lower one decides.
fn two_tiles(t: &Table, waits: &mut [bool; TILE_KINDS]) {
    for i in 0..TILE_KINDS {
        if t[i] < 1 {
            continue;
        }
        if t[i] > 1 {
            waits[i] = true;
            return;
        }
        if i < 27 {
            let r = i % 9 + 1;
            if r > 1 && t[i - 1] > 0 {
                if r < 9 {
                    waits[i + 1] = true;
                }
                if r > 2 {
                    waits[i - 2] = true;
                }
                return;
            }
            if r > 2 && t[i - 2] > 0 {
                waits[i - 1] = true;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        /// Random hands of 14, 11, 8, 5 and 2 concealed tiles, crowded into few kinds half the
        /// time, with the winning tile among them: the true wait is the library's reading.
        #[test]
        fn the_true_wait_is_the_librarys_reading(
            packs in 0usize..=4,
            tiles in proptest::collection::vec(0u8..34, 14),
            low in 0u8..27,
            win in 0usize..14,
        ) {
            let n = 14 - 3 * packs;
            let mut closed = [0u8; TILE_KINDS];
            let mut kinds = Vec::new();
            for &t in &tiles[..n] {
                let t = if t % 2 == 0 { low + t % 7 } else { t };
                let t = usize::from(t.min(33));
                if closed[t] < 4 {
                    closed[t] += 1;
                    kinds.push(t);
                }
            }
            let tiles = kinds.len();
            let win = Tile::from_index(kinds[win % tiles]).unwrap();
            prop_assert_eq!(
                unique_wait(&closed, tiles - 1, win),
                unique_wait_read(&closed, tiles - 1, win),
                "{:?} {:?}", closed, win
            );
            if crate::shape::is_basic_complete(&closed) {
                prop_assert_eq!(
                    unique_wait_divided(&closed, tiles - 1, win),
                    unique_wait_read(&closed, tiles - 1, win),
                    "{:?} {:?}", closed, win
                );
            }
        }

        /// Winning hands built from random melds and a pair (crowded into few kinds half the
        /// time, where waits are many), each tile in turn the winning tile: the reading from
        /// the division's groups is the library's reading.
        #[test]
        fn a_divided_hands_wait_is_the_librarys_reading(
            packs in 0usize..=4,
            melds in proptest::collection::vec((0u8..34, any::<bool>()), 4),
            pair in 0u8..34,
            low in 0u8..21,
        ) {
            let crowd = |t: u8| if t.is_multiple_of(2) { low + t % 7 } else { t };
            let mut closed = [0u8; TILE_KINDS];
            let p = usize::from(crowd(pair));
            closed[p] += 2;
            for &(t, chow) in &melds[..4 - packs] {
                let t = usize::from(crowd(t));
                if chow && t < 27 && t % 9 <= 6 {
                    for n in &mut closed[t..t + 3] {
                        *n += 1;
                    }
                } else {
                    closed[t] += 3;
                }
            }
            prop_assume!(closed.iter().all(|&n| n <= 4));
            let tiles: usize = closed.iter().map(|&n| usize::from(n)).sum();
            for win in (0..TILE_KINDS).filter(|&i| closed[i] > 0) {
                let win = Tile::from_index(win).unwrap();
                prop_assert_eq!(
                    unique_wait_divided(&closed, tiles - 1, win),
                    unique_wait_read(&closed, tiles - 1, win),
                    "{:?} {:?}", closed, win
                );
            }
        }
    }
}
