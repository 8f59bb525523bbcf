//! Hand shapes: complete hands, waits and shanten (向听数), allocation-free.
//!
//! Shanten is the number of tiles a hand must still exchange to be ready (0: one tile from
//! winning; −1: complete). [`shanten`] is the least over the five winning shapes, as the fan
//! library's `MahjongShanten` computes it:
//!
//! - the basic shape (four melds and a pair; [`basic_shanten`]), counting declared packs as
//!   melds: `8 − 2·melds − min(partials, 4 − melds) − pair` at the best split into melds,
//!   partial melds (two tiles one tile from a meld, a pair among them) and one pair;
//! - Seven Pairs ([`seven_pairs_shanten`]; four of a kind is two pairs);
//! - Thirteen Orphans ([`thirteen_orphans_shanten`]);
//! - Honors and Knitted Tiles ([`honors_and_knitted_shanten`]);
//! - a Knitted Straight with a meld and a pair ([`knitted_straight_shanten`]).
//!
//! The last four need a concealed hand (the knitted straight allows one pack). Like the
//! library, shanten looks at the hand alone: a wait on a tile the hand holds all four of still
//! counts as ready.
//!
//! The basic shape's splits are looked up per suit and for the honours in tables built on
//! first use (the private `table` module, 6.3 MB); the search they are built from stays as the
//! reference and answers for counts no hand holds.

mod table;

pub(crate) use table::{NO_PAIR, NO_TILES, SplitWaits, SuitSplit};

/// The splits of one suit's counts `c` wholly into melds and, when `c` holds two tiles more
/// than a multiple of three, one pair, with the suit's [`SplitWaits`] for reading the wait of a
/// hand divided by these splits ([`split_waits_of_groups`]): looked up in a table built on
/// first use. No splits (and no waits) for a suit that does not split wholly, or counts
/// outside the table (a count above 4, more than 14 tiles).
pub(crate) fn suit_splits_and_waits(
    c: &[u8; 9],
) -> (&'static [SuitSplit], Option<&'static SplitWaits>) {
    table::SPLITS.get_with_waits(c)
}

/// What reading a divided hand's wait needs of its groups, as dividing it finds them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DividedGroups {
    /// Each suit's tiles.
    pub tiles: [u8; 3],
    /// Each suit's [`SplitWaits`] (none for a suit without tiles).
    pub waits: [Option<&'static SplitWaits>; 3],
    /// The honours' pair (an index 27–33), if they hold it.
    pub honour_pair: Option<u8>,
}

use crate::tile::{Counts, TILE_KINDS, Tile};

/// The six knitted straights (组合龙): 147, 258, 369 spread over the three suits, as tile
/// indices.
pub const KNITTED_STRAIGHTS: [[u8; 9]; 6] = {
    let mut out = [[0u8; 9]; 6];
    // Suit order for each straight: which suit holds 147, 258 and 369.
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [2, 0, 1],
        [1, 2, 0],
        [2, 1, 0],
    ];
    let mut k = 0;
    while k < 6 {
        let mut j = 0;
        while j < 3 {
            let suit = perms[k][j];
            let mut n = 0;
            while n < 3 {
                // Tiles in index order: the suit of rank j+1 first.
                out[k][j * 3 + n] = (suit * 9 + j + 3 * n) as u8;
                n += 1;
            }
            j += 1;
        }
        // Sort the nine by index, as the library lists them.
        let mut a = 0;
        while a < 9 {
            let mut b = a + 1;
            while b < 9 {
                if out[k][b] < out[k][a] {
                    let x = out[k][a];
                    out[k][a] = out[k][b];
                    out[k][b] = x;
                }
                b += 1;
            }
            a += 1;
        }
        k += 1;
    }
    out
};

/// The thirteen terminals and honours of Thirteen Orphans, as tile indices.
pub const ORPHANS: [u8; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

fn is_chow_start(i: usize) -> bool {
    i < 27 && i % 9 <= 6
}

/// Whether `c` splits into melds (pungs and chows) and exactly one pair. Counts of five are
/// allowed (a tile tested against a hand holding four).
pub fn is_basic_complete(c: &Counts) -> bool {
    let total: usize = c.iter().map(|&n| usize::from(n)).sum();
    if total % 3 != 2 {
        return false;
    }
    let mut c = *c;
    complete_from(&mut c, 0, false)
}

fn complete_from(c: &mut Counts, mut i: usize, pair: bool) -> bool {
    while i < TILE_KINDS && c[i] == 0 {
        i += 1;
    }
    if i == TILE_KINDS {
        return pair;
    }
    if !pair && c[i] >= 2 {
        c[i] -= 2;
        let ok = complete_from(c, i, true);
        c[i] += 2;
        if ok {
            return true;
        }
    }
    if c[i] >= 3 {
        c[i] -= 3;
        let ok = complete_from(c, i, pair);
        c[i] += 3;
        if ok {
            return true;
        }
    }
    if is_chow_start(i) && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        let ok = complete_from(c, i, pair);
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
        return ok;
    }
    false
}

/// Whether the concealed tiles `closed` (the winning tile included) beside `packs` declared
/// packs make any winning shape: the basic one, or (concealed) Seven Pairs, Thirteen Orphans,
/// Honors and Knitted Tiles, or a Knitted Straight with a meld and a pair (at most one pack).
pub fn is_winning_shape(closed: &Counts, packs: usize) -> bool {
    if may_be_basic(closed) && is_basic_complete(closed) {
        return true;
    }
    if packs > 1 {
        return false;
    }
    let (mut odd, mut max, mut kinds, mut numbered_kinds) = (false, 0, 0, 0);
    for (i, &n) in closed.iter().enumerate() {
        odd |= n % 2 == 1;
        max = max.max(n);
        kinds += usize::from(n > 0);
        numbered_kinds += usize::from(n > 0 && i < 27);
    }
    if packs == 0 && len(closed) == 14 {
        if !odd {
            return true;
        }
        if kinds == 13 && max == 2 && ORPHANS.iter().all(|&i| closed[usize::from(i)] > 0) {
            return true;
        }
        if max == 1
            && KNITTED_STRAIGHTS
                .iter()
                .any(|seq| (0..27).all(|i| closed[i] == 0 || seq.contains(&(i as u8))))
        {
            return true;
        }
    }
    // A knitted straight needs nine numbered kinds.
    numbered_kinds >= 9
        && KNITTED_STRAIGHTS.iter().any(|seq| {
            let mut rest = *closed;
            seq.iter().all(|&i| {
                let i = usize::from(i);
                let held = rest[i] > 0;
                if held {
                    rest[i] -= 1;
                }
                held
            }) && is_basic_complete(&rest)
        })
}

/// A quick necessary condition for the basic shape: melds never span groups, so every suit
/// holds a multiple of three tiles but the one with the pair (two more), and every honour
/// 0, 2 or 3 of a kind.
fn may_be_basic(c: &Counts) -> bool {
    let mut pairs = 0;
    for s in 0..3 {
        match c[s * 9..s * 9 + 9]
            .iter()
            .map(|&n| u32::from(n))
            .sum::<u32>()
            % 3
        {
            0 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    for &n in &c[27..] {
        match n {
            0 | 3 => {}
            2 => pairs += 1,
            _ => return false,
        }
    }
    pairs == 1
}

/// The tiles that complete `standing` (a count ≡ 1 mod 3) into melds and a pair.
pub fn basic_waits(standing: &Counts) -> [bool; TILE_KINDS] {
    let mut out = [false; TILE_KINDS];
    match basic_waits_mask(standing) {
        Some(mask) => {
            for (i, w) in out.iter_mut().enumerate() {
                *w = mask >> i & 1 == 1;
            }
        }
        None => basic_waits_searched(standing, &mut out),
    }
    out
}

/// [`basic_waits`] by trying each tile near the hand's with [`is_basic_complete`]: the
/// reference, and the answer for hands outside the tables (a tile held four times).
fn basic_waits_searched(standing: &Counts, out: &mut [bool; TILE_KINDS]) {
    let mut c = *standing;
    for i in 0..TILE_KINDS {
        // Only a tile in the hand or next to one can complete it.
        let near = |d: isize| {
            let j = i as isize + d;
            (0..27).contains(&j) && (j as usize) / 9 == i / 9 && c[j as usize] > 0
        };
        if c[i] == 0 && (i >= 27 || !(near(-2) || near(-1) || near(1) || near(2))) {
            continue;
        }
        c[i] += 1;
        out[i] = is_basic_complete(&c);
        c[i] -= 1;
    }
}

/// The tiles that complete `standing` into melds and a pair, bit `i` for tile `i`, from the
/// tables' per-group waits (a fifth tile of a kind tried on its own); `None` when a group is
/// not in them.
pub(crate) fn basic_waits_mask(standing: &Counts) -> Option<u64> {
    let g = entries(standing)?;
    let mut n = [0usize; 4];
    for (k, x) in n.iter_mut().enumerate() {
        let lo = 9 * k;
        *x = standing[lo..(lo + 9).min(TILE_KINDS)]
            .iter()
            .map(|&t| usize::from(t))
            .sum();
    }
    let mut out = 0u64;
    // The tile goes to group `x`; afterwards exactly one group holds the pair (2 mod 3) and
    // every other a multiple of three, each splitting wholly.
    for x in 0..4 {
        let size = |k: usize| n[k] + usize::from(k == x);
        if (0..4).any(|k| size(k) % 3 == 1) || (0..4).filter(|&k| size(k) % 3 == 2).count() != 1 {
            continue;
        }
        if (0..4)
            .filter(|&k| k != x)
            .all(|k| table::complete(&g[k].options, n[k], n[k] % 3 == 2))
        {
            let pair = usize::from(size(x) % 3 == 2);
            out |= u64::from(g[x].waits[pair]) << (9 * x);
        }
    }
    // A fifth tile of a kind the hand holds four of is outside the tables, and still a wait
    // when it completes the hand (as the library reads it).
    for (i, &n) in standing.iter().enumerate() {
        if n == 4 {
            let mut c = *standing;
            c[i] += 1;
            if is_basic_complete(&c) {
                out |= 1 << i;
            }
        }
    }
    Some(out)
}

/// [`basic_waits_mask`] of `standing` when `standing` with `win` added splits wholly into melds
/// and a pair (a winning hand less its winning tile), from at most two groups' table entries:
/// every group but the winning tile's already splits wholly, so the tile waited on goes either
/// to the winning tile's group, or (when that group holds the pair without it) to the group
/// that held the pair. `None` for counts outside the tables.
///
/// Once the winning tile's group alone waits on two kinds or more, that is the answer: the
/// mask then holds at least two kinds, not necessarily all (its one caller asks whether the
/// hand waited on one tile alone).
pub(crate) fn basic_waits_of_divided(standing: &Counts, win: Tile) -> Option<u64> {
    let w = win.index() / 9;
    let group = |k: usize| -> Option<(&'static table::Entry, usize)> {
        let lo = 9 * k;
        let n = standing[lo..(lo + 9).min(TILE_KINDS)]
            .iter()
            .map(|&t| usize::from(t))
            .sum();
        let e = if k < 3 {
            let mut g = [0u8; 9];
            g.copy_from_slice(&standing[lo..lo + 9]);
            table::SUITS.get(&g)?
        } else {
            let mut h = [0u8; 7];
            h.copy_from_slice(&standing[27..]);
            table::HONOURS.get(&h)?
        };
        Some((e, n))
    };
    let (ew, nw) = group(w)?;
    // The winning tile's group gets the tile: every other group as in the winning hand.
    let mut out = u64::from(ew.waits[usize::from((nw + 1) % 3 == 2)]) << (9 * w);
    if out.count_ones() > 1 {
        return Some(out);
    }
    if nw % 3 == 2 && table::complete(&ew.options, nw, true) {
        // The winning tile's group holds the pair on its own: the tile may go to the group that
        // held the pair in the winning hand, now two tiles more than a multiple of three.
        for k in (0..4).filter(|&k| k != w) {
            let lo = 9 * k;
            let n: usize = standing[lo..(lo + 9).min(TILE_KINDS)]
                .iter()
                .map(|&t| usize::from(t))
                .sum();
            if n % 3 == 2 {
                let (e, _) = group(k)?;
                out |= u64::from(e.waits[0]) << (9 * k);
            }
        }
    }
    // A fifth tile of a kind held four times, outside the tables (as in `basic_waits_mask`).
    if standing.contains(&4) {
        for (i, &n) in standing.iter().enumerate() {
            if n == 4 {
                let mut c = *standing;
                c[i] += 1;
                if is_basic_complete(&c) {
                    out |= 1 << i;
                }
            }
        }
    }
    Some(out)
}

/// [`basic_waits_of_divided`] of `closed` less `win`, where `closed` (the concealed tiles with
/// the winning tile) splits wholly into melds and a pair, from the suits' [`table::SplitWaits`]:
/// the same mask. `None` only for counts outside the tables.
pub(crate) fn split_waits_of_divided(closed: &Counts, win: Tile) -> Option<u64> {
    let mut groups = DividedGroups {
        honour_pair: closed[27..]
            .iter()
            .position(|&x| x == 2)
            .map(|p| 27 + p as u8),
        ..DividedGroups::default()
    };
    for k in 0..3 {
        let mut g = [0u8; 9];
        g.copy_from_slice(&closed[9 * k..9 * k + 9]);
        groups.tiles[k] = g.iter().sum();
        groups.waits[k] = table::SPLITS.waits(&g);
    }
    split_waits_of_groups(closed, win, &groups)
}

/// [`split_waits_of_divided`] from the groups of `closed` as dividing it found them: no lookup
/// at all.
pub(crate) fn split_waits_of_groups(
    closed: &Counts,
    win: Tile,
    groups: &DividedGroups,
) -> Option<u64> {
    let (mut out, settled) = waits_before_fifth_tiles(win, groups)?;
    // A fifth tile of a kind held four times, outside the tables (as in `basic_waits_mask`).
    if !settled && holds_four(closed) {
        let mut standing = *closed;
        standing[win.index()] -= 1;
        for i in 0..TILE_KINDS {
            if standing[i] == 4 {
                standing[i] += 1;
                if is_basic_complete(&standing) {
                    out |= 1 << i;
                }
                standing[i] -= 1;
            }
        }
    }
    Some(out)
}

/// [`split_waits_of_groups`] before the fifth tile of a kind held four times is tried, and
/// whether the winning tile's group alone already waits on two kinds (the answer then).
fn waits_before_fifth_tiles(win: Tile, groups: &DividedGroups) -> Option<(u64, bool)> {
    let w = win.index();
    // Honours split into pungs and perhaps the pair (never four of a kind).
    let honour_pair = groups.honour_pair.map(u64::from);
    let mut out;
    if w >= 27 {
        // Won on the honours' pair: that kind alone. Won on a pung beside the honours' pair:
        // either pair could have become the pung. Otherwise the winning kind, and the group
        // that held the pair may take the tile waited on instead.
        out = 1 << w;
        match honour_pair {
            Some(p) if p == w as u64 => return Some((out, false)),
            Some(p) => return Some((out | 1 << p, true)),
            None => {}
        }
    } else {
        let (s, r) = (w / 9, w % 9);
        let waits = groups.waits[s]?;
        out = u64::from(waits.less[r]) << (9 * s);
        // Once the winning suit alone waits on two kinds, that is the answer; otherwise, when
        // that suit held no pair and splits with one less the winning tile, the group that
        // held the pair may take the tile waited on instead.
        if out.count_ones() > 1 {
            return Some((out, true));
        }
        if !groups.tiles[s].is_multiple_of(3) || waits.less_splits_with_pair >> r & 1 == 0 {
            return Some((out, false));
        }
        // Honours holding the pair: its kind makes a pung.
        if let Some(p) = honour_pair {
            return Some((out | 1 << p, false));
        }
    }
    for k in (0..3).filter(|&k| k != w / 9) {
        if groups.tiles[k] % 3 == 2 {
            out |= u64::from(groups.waits[k]?.more) << (9 * k);
        }
    }
    Some((out, false))
}

/// Whether `c` (counts 0–4) holds four of a kind: eight counts at a time, as a word's bytes,
/// bit 2 of a count being set exactly for four.
fn holds_four(c: &Counts) -> bool {
    let mut bits = 0u64;
    for chunk in c.chunks(8) {
        let mut b = [0u8; 8];
        b[..chunk.len()].copy_from_slice(chunk);
        bits |= u64::from_le_bytes(b);
    }
    bits & 0x0404_0404_0404_0404 != 0
}

/// The tile that completes 13 concealed tiles into seven pairs, if there is one.
pub fn seven_pairs_wait(standing: &Counts) -> Option<Tile> {
    if standing.iter().map(|&n| usize::from(n)).sum::<usize>() != 13 {
        return None;
    }
    let pairs: u8 = standing.iter().map(|&n| n / 2).sum();
    if pairs != 6 {
        return None;
    }
    (0..TILE_KINDS)
        .find(|&i| standing[i] % 2 == 1)
        .and_then(Tile::from_index)
}

/// Basic-shape shanten of the concealed tiles `c` beside `packs` declared packs.
///
/// Melds, partials and pairs never span two suits (or a suit and the honours), so each suit
/// and the honours are split on their own and the four groups' best splits combined: each
/// group's best splits are looked up in a table built on first use (`table`), or, for counts
/// no hand holds, searched (`group_options`).
pub fn basic_shanten(c: &Counts, packs: usize) -> i8 {
    match groups(c) {
        Some(g) => combine(&g, packs),
        None => basic_shanten_searched(c, packs),
    }
}

/// The four groups' options from the tables, if every group is in them.
#[inline]
fn groups(c: &Counts) -> Option<[Options; 4]> {
    Some(entries(c)?.map(|e| e.options))
}

/// The four groups' table entries (the suits, then the honours), if every group is in them.
#[inline]
fn entries(c: &Counts) -> Option<[&'static table::Entry; 4]> {
    let suit = |s: usize| {
        let mut g = [0u8; 9];
        g.copy_from_slice(&c[s * 9..s * 9 + 9]);
        table::SUITS.get(&g)
    };
    let mut h = [0u8; 7];
    h.copy_from_slice(&c[27..]);
    Some([suit(0)?, suit(1)?, suit(2)?, table::HONOURS.get(&h)?])
}

/// The basic shanten of four groups' options beside `packs` packs.
#[inline]
fn combine(g: &[Options; 4], packs: usize) -> i8 {
    let all = merge(&merge(&g[0], &g[1]), &merge(&g[2], &g[3]));
    best_of(&all, packs)
}

/// The least shanten over the splits of `all` beside `packs` packs.
fn best_of(all: &Options, packs: usize) -> i8 {
    let packs = packs.min(4) as i8;
    let mut best = 8 - 2 * packs;
    for (pair, row) in all.iter().enumerate() {
        for (m, &partials) in row.iter().enumerate() {
            let melds = packs + m as i8;
            if partials < 0 || melds > 4 {
                continue;
            }
            best = best.min(8 - 2 * melds - partials.min(4 - melds) - pair as i8);
        }
    }
    best
}

/// [`basic_shanten`] by searching each group's splits: the reference the tables are built
/// and tested against, and the answer for counts outside them.
fn basic_shanten_searched(c: &Counts, packs: usize) -> i8 {
    let mut all = group_options(&c[0..9], true);
    for (lo, hi, suited) in [(9, 18, true), (18, 27, true), (27, 34, false)] {
        all = merge(&all, &group_options(&c[lo..hi], suited));
    }
    best_of(&all, packs)
}

/// Of one group's splits, the most partials for each (pair: 0 or 1, melds: 0–4); −1 where no
/// split has that many.
type Options = [[i8; 5]; 2];

fn merge(a: &Options, b: &Options) -> Options {
    let mut out = [[-1i8; 5]; 2];
    for pa in 0..2 {
        for ma in 0..5 {
            if a[pa][ma] < 0 {
                continue;
            }
            for pb in 0..2 - pa {
                for mb in 0..5 - ma {
                    if b[pb][mb] < 0 {
                        continue;
                    }
                    let x = &mut out[pa + pb][ma + mb];
                    *x = (*x).max((a[pa][ma] + b[pb][mb]).min(8));
                }
            }
        }
    }
    out
}

/// Every split of one suit (`suited`: chows and partial chows allowed) or of the honours.
fn group_options(c: &[u8], suited: bool) -> Options {
    let mut g = [0u8; 9];
    g[..c.len()].copy_from_slice(c);
    let mut opts = [[-1i8; 5]; 2];
    group_from(&mut g, c.len(), 0, suited, 0, 0, 0, &mut opts);
    opts
}

#[allow(clippy::too_many_arguments)]
fn group_from(
    c: &mut [u8; 9],
    n: usize,
    mut i: usize,
    suited: bool,
    melds: usize,
    partials: i8,
    pair: usize,
    opts: &mut Options,
) {
    while i < n && c[i] == 0 {
        i += 1;
    }
    if i == n {
        let x = &mut opts[pair][melds];
        *x = (*x).max(partials.min(8));
        return;
    }
    if melds < 4 {
        if c[i] >= 3 {
            c[i] -= 3;
            group_from(c, n, i, suited, melds + 1, partials, pair, opts);
            c[i] += 3;
        }
        if suited && i + 2 < n && c[i + 1] > 0 && c[i + 2] > 0 {
            c[i] -= 1;
            c[i + 1] -= 1;
            c[i + 2] -= 1;
            group_from(c, n, i, suited, melds + 1, partials, pair, opts);
            c[i] += 1;
            c[i + 1] += 1;
            c[i + 2] += 1;
        }
    }
    if c[i] >= 2 {
        c[i] -= 2;
        if pair == 0 {
            group_from(c, n, i, suited, melds, partials, 1, opts);
        }
        group_from(c, n, i, suited, melds, partials + 1, pair, opts);
        c[i] += 2;
    }
    if suited {
        if i + 1 < n && c[i + 1] > 0 {
            c[i] -= 1;
            c[i + 1] -= 1;
            group_from(c, n, i, suited, melds, partials + 1, pair, opts);
            c[i] += 1;
            c[i + 1] += 1;
        }
        if i + 2 < n && c[i + 2] > 0 {
            c[i] -= 1;
            c[i + 2] -= 1;
            group_from(c, n, i, suited, melds, partials + 1, pair, opts);
            c[i] += 1;
            c[i + 2] += 1;
        }
    }
    c[i] -= 1;
    group_from(c, n, i, suited, melds, partials, pair, opts);
    c[i] += 1;
}

fn len(c: &Counts) -> usize {
    c.iter().map(|&n| usize::from(n)).sum()
}

/// Seven Pairs shanten of 13 concealed tiles, or 14 just after a draw (`None` for any other
/// count).
pub fn seven_pairs_shanten(c: &Counts) -> Option<i8> {
    matches!(len(c), 13 | 14).then(|| 6 - c.iter().map(|&n| (n / 2) as i8).sum::<i8>())
}

/// Thirteen Orphans shanten of 13 concealed tiles, or 14 (`None` for any other count).
pub fn thirteen_orphans_shanten(c: &Counts) -> Option<i8> {
    if !matches!(len(c), 13 | 14) {
        return None;
    }
    let kinds = ORPHANS.iter().filter(|&&i| c[usize::from(i)] > 0).count() as i8;
    let pair = ORPHANS.iter().any(|&i| c[usize::from(i)] > 1);
    Some(13 - kinds - i8::from(pair))
}

/// Honors and Knitted Tiles shanten of 13 concealed tiles, or 14 (`None` for any other
/// count).
pub fn honors_and_knitted_shanten(c: &Counts) -> Option<i8> {
    if !matches!(len(c), 13 | 14) {
        return None;
    }
    let honours = (27..34).filter(|&i| c[i] > 0).count() as i8;
    KNITTED_STRAIGHTS
        .iter()
        .map(|seq| {
            let have = seq.iter().filter(|&&i| c[usize::from(i)] > 0).count() as i8;
            13 - have - honours
        })
        .min()
}

/// Knitted Straight shanten of 13 or 10 concealed tiles, or 14 or 11 (`None` for any other
/// count): the straight's missing tiles plus the basic shanten of the rest, the straight
/// standing for three melds.
pub fn knitted_straight_shanten(c: &Counts) -> Option<i8> {
    knitted_straight_below(c, i8::MAX)
}

/// [`knitted_straight_shanten`] where it is below `bound` (else `bound` or more): a straight
/// missing so many tiles that the rest cannot bring it under `bound` is not split.
fn knitted_straight_below(c: &Counts, bound: i8) -> Option<i8> {
    let n = len(c);
    if !matches!(n, 10 | 11 | 13 | 14) {
        return None;
    }
    let packs = (14 - n) / 3;
    let mut best = bound;
    for seq in &KNITTED_STRAIGHTS {
        let missing = seq.iter().filter(|&&i| c[usize::from(i)] == 0).count() as i8;
        // The rest's basic shanten is −1 at best, so `missing − 1` is the least this can give.
        if missing > best {
            continue;
        }
        let mut rest = *c;
        for &i in seq {
            let x = &mut rest[usize::from(i)];
            *x = x.saturating_sub(1);
        }
        best = best.min(missing + basic_shanten(&rest, packs + 3));
    }
    Some(best)
}

/// The shanten of concealed tiles `c` beside `packs` declared packs: the least over the five
/// winning shapes (see the module docs). `c` holds `13 − 3 × packs` tiles (or one more, the
/// tile just drawn, for −1 at a win).
pub fn shanten(c: &Counts, packs: usize) -> i8 {
    let mut s = basic_shanten(c, packs);
    if packs == 0 {
        for other in [
            seven_pairs_shanten(c),
            thirteen_orphans_shanten(c),
            honors_and_knitted_shanten(c),
        ]
        .into_iter()
        .flatten()
        {
            s = s.min(other);
        }
    }
    if packs <= 1
        && let Some(k) = knitted_straight_below(c, s)
    {
        s = s.min(k);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tile::{counts_of, parse_tiles};

    fn c(s: &str) -> Counts {
        counts_of(parse_tiles(s).unwrap())
    }

    #[test]
    fn knitted_straights_are_the_six_of_the_rules() {
        let names: Vec<String> = KNITTED_STRAIGHTS
            .iter()
            .map(|s| {
                crate::tile::tiles_to_string(s.iter().map(|&i| Tile::from_index(i.into()).unwrap()))
            })
            .collect();
        assert!(names.contains(&"W1 W4 W7 T2 T5 T8 B3 B6 B9".to_string()));
        assert!(names.contains(&"W3 W6 W9 T2 T5 T8 B1 B4 B7".to_string()));
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 6);
    }

    #[test]
    fn complete_hands_and_waits() {
        assert!(is_basic_complete(&c(
            "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 F1 F1"
        )));
        assert!(!is_basic_complete(&c(
            "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 F1 F1"
        )));
        let w = basic_waits(&c("W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9 W9"));
        assert!(w[..9].iter().all(|&x| x), "nine gates waits on all nine");
        assert_eq!(w.iter().filter(|&&x| x).count(), 9);
        assert_eq!(
            seven_pairs_wait(&c("W1 W1 W2 W2 T3 T3 T4 T4 B5 B5 F1 F1 J1")),
            "J1".parse().ok()
        );
    }

    #[test]
    fn shanten_of_each_shape() {
        assert_eq!(shanten(&c("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 T3"), 0), 0);
        assert_eq!(
            shanten(&c("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T2 T3 T4"), 0),
            -1
        );
        assert_eq!(shanten(&c("W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3"), 0), 0);
        assert_eq!(shanten(&c("W1 W1 W2 W2 T3 T3 T4 T4 B5 B5 F1 F1 J1"), 0), 0);
        assert_eq!(shanten(&c("W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 J1 J2"), 0), 0);
        assert_eq!(shanten(&c("W1 W4 W7 T2 T5 T8 B3 B6 B9 F1 F1 F1 J1"), 0), 0);
        assert_eq!(shanten(&c("T1"), 4), 0);
        assert_eq!(shanten(&c("T1 T1"), 4), -1);
    }

    /// The whole shanten with every group searched: the reference the tables must agree with.
    fn shanten_searched(c: &Counts, packs: usize) -> i8 {
        let mut s = basic_shanten_searched(c, packs);
        if packs == 0 {
            for other in [
                seven_pairs_shanten(c),
                thirteen_orphans_shanten(c),
                honors_and_knitted_shanten(c),
            ]
            .into_iter()
            .flatten()
            {
                s = s.min(other);
            }
        }
        let n = len(c);
        if packs <= 1 && matches!(n, 10 | 11 | 13 | 14) {
            for seq in &KNITTED_STRAIGHTS {
                let mut rest = *c;
                let mut missing = 0;
                for &i in seq {
                    if rest[usize::from(i)] > 0 {
                        rest[usize::from(i)] -= 1;
                    } else {
                        missing += 1;
                    }
                }
                s = s.min(missing + basic_shanten_searched(&rest, (14 - n) / 3 + 3));
            }
        }
        s
    }

    /// Groups a hand can hold: the table's options are the search's, for every group of up to
    /// eight tiles and every 16th larger one (all of them take the search a minute).
    #[test]
    fn tables_agree_with_the_search_on_every_group() {
        let mut n = 0;
        table::each(&mut [0u8; 9], 0, table::MAX_TILES, &mut |c| {
            if len9(c) <= 8 || n % 16 == 0 {
                assert_eq!(
                    table::SUITS.get(c).map(|e| e.options),
                    Some(group_options(c, true)),
                    "suit {c:?}"
                );
            }
            n += 1;
        });
        assert_eq!(n, 405_350);
        table::each(&mut [0u8; 7], 0, table::MAX_TILES, &mut |c| {
            assert_eq!(
                table::HONOURS.get(c).map(|e| e.options),
                Some(group_options(c, false)),
                "honours {c:?}"
            );
        });
        assert_eq!(
            table::SUITS.get(&[4, 4, 4, 3, 0, 0, 0, 0, 0]),
            None,
            "15 tiles"
        );
        assert_eq!(
            table::SUITS.get(&[5, 0, 0, 0, 0, 0, 0, 0, 0]),
            None,
            "five of a kind"
        );
    }

    fn len9(c: &[u8; 9]) -> usize {
        c.iter().map(|&n| usize::from(n)).sum()
    }

    /// Random concealed tiles beside 0–4 packs (and, now and then, one tile more, or a count
    /// no hand holds): the table-driven shanten is the searched one.
    #[test]
    fn shanten_agrees_with_the_searched_reference() {
        use proptest::prelude::*;
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(5000));
        let hand = (
            0usize..=4,
            any::<bool>(),
            proptest::collection::vec(0u8..34, 14),
            any::<bool>(),
        );
        runner
            .run(&hand, |(packs, drawn, tiles, odd)| {
                let n = 13 - 3 * packs + usize::from(drawn);
                let mut c = [0u8; TILE_KINDS];
                for &t in &tiles[..n] {
                    if c[usize::from(t)] < 4 || odd {
                        c[usize::from(t)] += 1;
                    }
                }
                prop_assert_eq!(
                    shanten(&c, packs),
                    shanten_searched(&c, packs),
                    "{:?} {}",
                    c,
                    packs
                );
                prop_assert_eq!(basic_shanten(&c, packs), basic_shanten_searched(&c, packs));
                Ok(())
            })
            .unwrap();
    }

    /// Random 13-, 10-, 7-, 4- and 1-tile hands: the table-driven waits are the searched ones.
    #[test]
    fn waits_agree_with_the_searched_reference() {
        use proptest::prelude::*;
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(5000));
        let hand = (0usize..=4, proptest::collection::vec(0u8..34, 13), 0u8..27);
        runner
            .run(&hand, |(packs, tiles, low)| {
                let mut c = [0u8; TILE_KINDS];
                // Half the hands crowd into a few kinds, where waits are many.
                for &t in &tiles[..13 - 3 * packs] {
                    let t = if t % 2 == 0 { low + t % 7 } else { t };
                    let t = usize::from(t.min(33));
                    if c[t] < 4 {
                        c[t] += 1;
                    }
                }
                let mut want = [false; TILE_KINDS];
                basic_waits_searched(&c, &mut want);
                prop_assert_eq!(basic_waits(&c), want, "{:?}", c);
                Ok(())
            })
            .unwrap();
    }

    /// Winning hands built from random melds and a pair (crowded into few kinds half the time,
    /// where waits are many), each tile in turn the winning tile: the waits read from
    /// the suits' split waits are the tables' reading, and every such hand is covered.
    #[test]
    fn split_waits_are_the_tables_reading() {
        use proptest::prelude::*;
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(5000));
        let hand = (
            0usize..=4,
            proptest::collection::vec((0u8..34, any::<bool>()), 4),
            0u8..34,
            0u8..21,
        );
        runner
            .run(&hand, |(packs, melds, pair, low)| {
                let crowd = |t: u8| if t.is_multiple_of(2) { low + t % 7 } else { t };
                let mut closed = [0u8; TILE_KINDS];
                closed[usize::from(crowd(pair))] += 2;
                for &(t, chow) in &melds[..4 - packs] {
                    let t = usize::from(crowd(t));
                    if chow && is_chow_start(t) {
                        for n in &mut closed[t..t + 3] {
                            *n += 1;
                        }
                    } else {
                        closed[t] += 3;
                    }
                }
                prop_assume!(closed.iter().all(|&n| n <= 4));
                for w in (0..TILE_KINDS).filter(|&i| closed[i] > 0) {
                    let win = Tile::from_index(w).unwrap();
                    let mut standing = closed;
                    standing[w] -= 1;
                    let got = split_waits_of_divided(&closed, win);
                    prop_assert!(got.is_some(), "{:?} {:?}", closed, win);
                    if let Some(got) = got {
                        prop_assert_eq!(
                            Some(got),
                            basic_waits_of_divided(&standing, win),
                            "{:?} {:?}",
                            closed,
                            win
                        );
                    }
                }
                Ok(())
            })
            .unwrap();
    }
}
