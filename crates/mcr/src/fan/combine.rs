//! Fans of combinations of melds: chows with chows, pungs with pungs.
//!
//! The non-separation and non-identical principles live here: once three or four melds make a
//! combination fan, those melds are not taken apart again into smaller combinations, except
//! that the meld left over may still pair with one of them. The account-once principle (a meld
//! used in a two-chow fan with one chow is used with each other chow at most once) is
//! [`account_once`].
//!
//! Tiles are compared as `code`s, `suit · 16 + rank` (honours `0x40 +` their number), so that
//! "one rank apart" never crosses from one suit into the next.

use super::{Fan, FanTable};
use crate::tile::Tile;

/// A tile as `suit · 16 + rank` (see the module docs).
pub(super) fn code(t: Tile) -> i16 {
    CODES[t.index()]
}

/// [`code`] of each kind.
const CODES: [i16; 34] = {
    let mut out = [0i16; 34];
    let mut i = 0;
    while i < 34 {
        let k = i as i16;
        out[i] = if k < 27 {
            (k / 9 + 1) * 16 + k % 9 + 1
        } else {
            0x40 + (k - 26)
        };
        i += 1;
    }
    out
};

fn suit(c: i16) -> i16 {
    c >> 4
}

fn rank(c: i16) -> i16 {
    c & 15
}

fn numbered(c: i16) -> bool {
    c < 0x40
}

fn dragon(c: i16) -> bool {
    c >= 0x45
}

fn wind(c: i16) -> bool {
    (0x41..=0x44).contains(&c)
}

fn three_suits(a: i16, b: i16, c: i16) -> bool {
    suit(a) != suit(b) && suit(a) != suit(c) && suit(b) != suit(c)
}

fn consecutive_unordered(a: i16, b: i16, c: i16) -> bool {
    let mut r = [a, b, c];
    r.sort_unstable();
    r[0] + 1 == r[1] && r[1] + 1 == r[2]
}

/// The fan of four chows by their (sorted) middle tiles.
fn four_chows(m: [i16; 4]) -> Option<Fan> {
    let step = |d| m[0] + d == m[1] && m[1] + d == m[2] && m[2] + d == m[3];
    if step(1) || step(2) {
        Some(Fan::FourPureShiftedChows)
    } else if step(0) {
        Some(Fan::QuadrupleChow)
    } else {
        None
    }
}

/// The fan of three chows by their (sorted) middle tiles.
fn three_chows(a: i16, b: i16, c: i16) -> Option<Fan> {
    if three_suits(a, b, c) {
        let (ra, rb, rc) = (rank(a), rank(b), rank(c));
        if consecutive_unordered(ra, rb, rc) {
            return Some(Fan::MixedShiftedChows);
        }
        if ra == rb && rb == rc {
            return Some(Fan::MixedTripleChow);
        }
        let mut r = [ra, rb, rc];
        r.sort_unstable();
        if r == [2, 5, 8] {
            return Some(Fan::MixedStraight);
        }
    } else {
        if a + 3 == b && b + 3 == c {
            return Some(Fan::PureStraight);
        }
        if (a + 2 == b && b + 2 == c) || (a + 1 == b && b + 1 == c) {
            return Some(Fan::PureShiftedChows);
        }
        if a == b && b == c {
            return Some(Fan::PureTripleChow);
        }
    }
    None
}

/// The fan of two chows by their middle tiles, in either order.
fn two_chows(a: i16, b: i16) -> Option<Fan> {
    if suit(a) != suit(b) {
        return (rank(a) == rank(b)).then_some(Fan::MixedDoubleChow);
    }
    if a + 3 == b || b + 3 == a {
        Some(Fan::ShortStraight)
    } else if (rank(a) == 2 && rank(b) == 8) || (rank(a) == 8 && rank(b) == 2) {
        Some(Fan::TwoTerminalChows)
    } else if a == b {
        Some(Fan::PureDoubleChow)
    } else {
        None
    }
}

/// The best two-chow fan the leftover chow `extra` makes with any of a three-chow fan's chows.
fn extra_chow(three: [i16; 3], extra: i16) -> Option<Fan> {
    let fans = three.map(|m| two_chows(m, extra));
    [
        Fan::PureDoubleChow,
        Fan::MixedDoubleChow,
        Fan::ShortStraight,
        Fan::TwoTerminalChows,
    ]
    .into_iter()
    .find(|f| fans.contains(&Some(*f)))
}

const PAIR_FANS: [Fan; 4] = [
    Fan::PureDoubleChow,
    Fan::MixedDoubleChow,
    Fan::ShortStraight,
    Fan::TwoTerminalChows,
];

/// The account-once principle: of the two-chow fans `found`, at most `max` count. Surplus is
/// dropped from the cheapest kinds first (Two Terminal Chows, then Short Straight, Mixed and
/// Pure Double Chow), first down to one of a kind, then to none.
fn account_once(found: &[Option<Fan>], max: usize, t: &mut FanTable) {
    let mut per = [0u16; 4];
    let mut total = 0;
    for f in found.iter().flatten() {
        if let Some(k) = PAIR_FANS.iter().position(|p| p == f) {
            per[k] += 1;
            total += 1;
        }
    }
    for limit in [1u16, 0] {
        for k in (0..4).rev() {
            while per[k] > limit && total > max {
                per[k] -= 1;
                total -= 1;
            }
        }
    }
    for (k, f) in PAIR_FANS.into_iter().enumerate() {
        t.set(f, per[k]);
    }
}

/// The fans of four chows by their sorted middle tiles.
fn chows4_found(m: [i16; 4], t: &mut FanTable) {
    if let Some(f) = four_chows(m) {
        t.one(f);
        return;
    }
    for (three, extra) in [
        ([m[0], m[1], m[2]], m[3]),
        ([m[0], m[1], m[3]], m[2]),
        ([m[0], m[2], m[3]], m[1]),
        ([m[1], m[2], m[3]], m[0]),
    ] {
        if let Some(f) = three_chows(three[0], three[1], three[2]) {
            t.one(f);
            if let Some(e) = extra_chow(three, extra) {
                t.one(e);
            }
            return;
        }
    }
    let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
    let found = pairs.map(|(a, b)| two_chows(m[a], m[b]));
    // Each chow with no two-chow fan lowers how many such fans can count.
    let mut max = 3usize;
    for chow in 0..4 {
        if pairs
            .iter()
            .zip(&found)
            .all(|(&(a, b), f)| f.is_none() || (a != chow && b != chow))
        {
            max = max.saturating_sub(1);
        }
    }
    if max > 0 {
        account_once(&found, max, t);
    }
}

/// The fans of three chows by their sorted middle tiles.
fn chows3_found(m: [i16; 3], t: &mut FanTable) {
    if let Some(f) = three_chows(m[0], m[1], m[2]) {
        t.one(f);
        return;
    }
    let found = [
        two_chows(m[0], m[1]),
        two_chows(m[0], m[2]),
        two_chows(m[1], m[2]),
    ];
    account_once(&found, 2, t);
}

/// The fan of two chows.
pub(super) fn chows2(a: i16, b: i16, t: &mut FanTable) {
    if let Some(f) = two_chows(a, b) {
        t.add(f);
    }
}

fn four_pungs(m: [i16; 4]) -> Option<Fan> {
    if numbered(m[0]) && m[0] + 1 == m[1] && m[1] + 1 == m[2] && m[2] + 1 == m[3] {
        Some(Fan::FourPureShiftedPungs)
    } else if m == [0x41, 0x42, 0x43, 0x44] {
        Some(Fan::BigFourWinds)
    } else {
        None
    }
}

fn three_pungs(a: i16, b: i16, c: i16) -> Option<Fan> {
    if numbered(a) && numbered(b) && numbered(c) {
        if three_suits(a, b, c) {
            if consecutive_unordered(rank(a), rank(b), rank(c)) {
                return Some(Fan::MixedShiftedPungs);
            }
            if rank(a) == rank(b) && rank(b) == rank(c) {
                return Some(Fan::TriplePung);
            }
        } else if a + 1 == b && b + 1 == c {
            return Some(Fan::PureShiftedPungs);
        }
        return None;
    }
    if wind(a) && wind(b) && wind(c) && a < b && b < c {
        return Some(Fan::BigThreeWinds);
    }
    if [a, b, c] == [0x45, 0x46, 0x47] {
        return Some(Fan::BigThreeDragons);
    }
    None
}

fn two_pungs(a: i16, b: i16) -> Option<Fan> {
    if numbered(a) && numbered(b) {
        (rank(a) == rank(b)).then_some(Fan::DoublePung)
    } else {
        (dragon(a) && dragon(b)).then_some(Fan::TwoDragonsPungs)
    }
}

/// Whether some three of the pungs (or kongs) `m` could make a three-pung fan: most hands'
/// pungs make none, and this answers without trying each three. The tiles are bits of one
/// word, bit `code − 16` (a suit's ranks in 16-bit lanes with room above 9, so that shifting
/// by two ranks never reaches the lane below; the honours in the top lane).
fn may_make_three(m: &[i16]) -> bool {
    let x = m.iter().fold(0u64, |x, &c| x | 1 << ((c - 16) & 63));
    const RANKS: u64 = 0x3fe;
    let (a, b, c) = (x & RANKS, x >> 16 & RANKS, x >> 32 & RANKS);
    // Ranks r, r + 1, r + 2 in lanes p, q, r.
    let shifted = |p: u64, q: u64, r: u64| p & q >> 1 & r >> 2;
    let numbered = a & b & c
        | shifted(x, x, x) & (RANKS * 0x0001_0001_0001)
        | shifted(a, b, c)
        | shifted(a, c, b)
        | shifted(b, a, c)
        | shifted(b, c, a)
        | shifted(c, a, b)
        | shifted(c, b, a);
    numbered != 0 || (x >> 49 & 0xf).count_ones() >= 3 || (x >> 53 & 0x7).count_ones() == 3
}

/// The fans of four pungs by their sorted tiles.
fn pungs4_found(m: [i16; 4], t: &mut FanTable) {
    if !may_make_three(&m) {
        two_pung_fans(&m, t);
        return;
    }
    if let Some(f) = four_pungs(m) {
        t.one(f);
        return;
    }
    for (three, free) in [
        ([m[0], m[1], m[2]], 3),
        ([m[0], m[1], m[3]], 2),
        ([m[0], m[2], m[3]], 1),
        ([m[1], m[2], m[3]], 0),
    ] {
        if let Some(f) = three_pungs(three[0], three[1], three[2]) {
            t.one(f);
            // The leftover pung may still pair with one of the three.
            if let Some(p) = (0..4)
                .filter(|&i| i != free)
                .find_map(|i| two_pungs(m[i], m[free]))
            {
                t.add(p);
            }
            return;
        }
    }
    two_pung_fans(&m, t);
}

/// Each two-pung fan of every two of the pungs `m`.
fn two_pung_fans(m: &[i16], t: &mut FanTable) {
    for (i, &a) in m.iter().enumerate() {
        for &b in &m[i + 1..] {
            if let Some(f) = two_pungs(a, b) {
                t.add(f);
            }
        }
    }
}

/// The fans of three pungs by their sorted tiles.
fn pungs3_found(m: [i16; 3], t: &mut FanTable) {
    if may_make_three(&m)
        && let Some(f) = three_pungs(m[0], m[1], m[2])
    {
        t.one(f);
        return;
    }
    two_pung_fans(&m, t);
}

/// The fan of two pungs.
pub(super) fn pungs2(a: i16, b: i16, t: &mut FanTable) {
    if let Some(f) = two_pungs(a, b) {
        t.add(f);
    }
}

/// The combination fans one sorted set of melds makes (what [`chows4`], [`chows3`],
/// [`pungs4`] or [`pungs3`] sets in an empty table): up to four fans (by their index in
/// [`FanTable`], 0 for none) with their counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Combo {
    fans: [u8; 4],
    counts: [u8; 4],
    /// The fans' bits in [`FanTable`]'s bit set, low and high halves.
    bits: [u64; 2],
}

impl Combo {
    /// What `find` sets in an empty table.
    fn of(find: impl FnOnce(&mut FanTable)) -> Combo {
        let mut t = FanTable::default();
        find(&mut t);
        let mut out = Combo::default();
        for (k, (f, n)) in t.iter().take(4).enumerate() {
            out.fans[k] = f as u8;
            out.counts[k] = n.min(255) as u8;
            let b = 1u128 << f as usize;
            out.bits[0] |= b as u64;
            out.bits[1] |= (b >> 64) as u64;
        }
        out
    }

    /// Sets the fans in `t` (none of which `t` holds yet), without a branch per fan: an empty
    /// slot writes a count of 0 to index 0, which no fan has.
    fn apply(&self, t: &mut FanTable) {
        for k in 0..4 {
            t.counts[usize::from(self.fans[k])] = self.counts[k];
        }
        t.held |= u128::from(self.bits[0]) | u128::from(self.bits[1]) << 64;
    }
}

/// `BINOMIAL[n][k]` = n choose k, for ranking sorted sets (colexicographic order).
const BINOMIAL: [[u32; 5]; 40] = {
    let mut b = [[0u32; 5]; 40];
    let mut n = 0;
    while n < 40 {
        b[n][0] = 1;
        let mut k = 1;
        while k < 5 {
            b[n][k] = if n == 0 {
                0
            } else {
                b[n - 1][k - 1] + b[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    b
};

/// The colexicographic rank of the strictly increasing `x` among such sets.
fn rank_of(x: &[usize]) -> usize {
    x.iter()
        .enumerate()
        .map(|(k, &v)| BINOMIAL[v.min(39)][k + 1] as usize)
        .sum()
}

/// A chow's middle-tile code as an index 0–20 (suit · 7 + rank − 2), or `None`.
fn chow_index(c: i16) -> Option<usize> {
    let i = CHOW_OF_CODE[(c & 0x7f) as usize];
    (i != u8::MAX).then_some(usize::from(i))
}

/// A tile's code as its kind's index 0–33 (33 for a code of no tile).
fn kind_index(c: i16) -> usize {
    usize::from(KIND_OF_CODE[(c & 0x7f) as usize])
}

/// [`chow_index`] of each code below 128 (`u8::MAX` for a code no chow's middle has).
const CHOW_OF_CODE: [u8; 128] = {
    let mut out = [u8::MAX; 128];
    let mut i = 0;
    while i < 21 {
        out[((i / 7 + 1) * 16 + i % 7 + 2) as usize] = i as u8;
        i += 1;
    }
    out
};

/// [`kind_index`] of each code below 128.
const KIND_OF_CODE: [u8; 128] = {
    let mut out = [33u8; 128];
    let mut k = 0;
    while k < 34 {
        out[CODES[k] as usize] = k as u8;
        k += 1;
    }
    out
};

/// The combination fans of every sorted four and three chows and of every four and three
/// distinct pungs, found once on first use by the functions above (64,757 entries, 1.6 MB).
struct ComboTables {
    chows4: Box<[Combo]>,
    chows3: Box<[Combo]>,
    pungs4: Box<[Combo]>,
    pungs3: Box<[Combo]>,
}

/// The code of the kind of index `k` (0–33).
fn kind_code(k: usize) -> i16 {
    CODES[k.min(33)]
}

/// The chow code of each chow index ([`chow_index`]'s inverse).
fn chow_code(i: usize) -> i16 {
    ((i / 7 + 1) * 16 + i % 7 + 2) as i16
}

impl ComboTables {
    fn build() -> Self {
        let mut chows4 = vec![Combo::default(); BINOMIAL[24][4] as usize];
        let mut chows3 = vec![Combo::default(); BINOMIAL[23][3] as usize];
        let mut pungs4 = vec![Combo::default(); BINOMIAL[34][4] as usize];
        let mut pungs3 = vec![Combo::default(); BINOMIAL[34][3] as usize];
        for a in 0..21 {
            for b in a..21 {
                for c in b..21 {
                    let m = [chow_code(a), chow_code(b), chow_code(c)];
                    chows3[rank_of(&[a, b + 1, c + 2])] = Combo::of(|t| chows3_found(m, t));
                    for d in c..21 {
                        let m = [m[0], m[1], m[2], chow_code(d)];
                        chows4[rank_of(&[a, b + 1, c + 2, d + 3])] =
                            Combo::of(|t| chows4_found(m, t));
                    }
                }
            }
        }
        for a in 0..34 {
            for b in a + 1..34 {
                for c in b + 1..34 {
                    let m = [kind_code(a), kind_code(b), kind_code(c)];
                    pungs3[rank_of(&[a, b, c])] = Combo::of(|t| pungs3_found(m, t));
                    for d in c + 1..34 {
                        let m = [m[0], m[1], m[2], kind_code(d)];
                        pungs4[rank_of(&[a, b, c, d])] = Combo::of(|t| pungs4_found(m, t));
                    }
                }
            }
        }
        ComboTables {
            chows4: chows4.into_boxed_slice(),
            chows3: chows3.into_boxed_slice(),
            pungs4: pungs4.into_boxed_slice(),
            pungs3: pungs3.into_boxed_slice(),
        }
    }
}

static COMBOS: std::sync::LazyLock<ComboTables> = std::sync::LazyLock::new(ComboTables::build);

/// The fans of four chows by their sorted middle tiles: [`chows4_found`]'s, looked up.
pub(super) fn chows4(m: [i16; 4], t: &mut FanTable) {
    match (
        chow_index(m[0]),
        chow_index(m[1]),
        chow_index(m[2]),
        chow_index(m[3]),
    ) {
        (Some(a), Some(b), Some(c), Some(d)) => {
            COMBOS.chows4[rank_of(&[a, b + 1, c + 2, d + 3])].apply(t)
        }
        _ => chows4_found(m, t),
    }
}

/// The fans of three chows by their sorted middle tiles: [`chows3_found`]'s, looked up.
pub(super) fn chows3(m: [i16; 3], t: &mut FanTable) {
    match (chow_index(m[0]), chow_index(m[1]), chow_index(m[2])) {
        (Some(a), Some(b), Some(c)) => COMBOS.chows3[rank_of(&[a, b + 1, c + 2])].apply(t),
        _ => chows3_found(m, t),
    }
}

/// The fans of four pungs by their sorted tiles: [`pungs4_found`]'s, looked up (four distinct
/// kinds, as a hand's pungs are).
pub(super) fn pungs4(m: [i16; 4], t: &mut FanTable) {
    let k = m.map(kind_index);
    if k[0] < k[1] && k[1] < k[2] && k[2] < k[3] {
        COMBOS.pungs4[rank_of(&k)].apply(t);
    } else {
        pungs4_found(m, t);
    }
}

/// The fans of three pungs by their sorted tiles: [`pungs3_found`]'s, looked up.
pub(super) fn pungs3(m: [i16; 3], t: &mut FanTable) {
    let k = m.map(kind_index);
    if k[0] < k[1] && k[1] < k[2] {
        COMBOS.pungs3[rank_of(&k)].apply(t);
    } else {
        pungs3_found(m, t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(f: impl FnOnce(&mut FanTable)) -> FanTable {
        let mut t = FanTable::default();
        f(&mut t);
        t
    }

    /// Every sorted four and three chows (repeats included) and every four and three distinct
    /// pungs: the looked-up fans are the ones found.
    #[test]
    fn looked_up_combinations_are_the_ones_found() {
        for a in 0..21 {
            for b in a..21 {
                for c in b..21 {
                    let m = [chow_code(a), chow_code(b), chow_code(c)];
                    assert_eq!(
                        found(|t| chows3(m, t)),
                        found(|t| chows3_found(m, t)),
                        "{m:?}"
                    );
                    for d in c..21 {
                        let m = [m[0], m[1], m[2], chow_code(d)];
                        assert_eq!(
                            found(|t| chows4(m, t)),
                            found(|t| chows4_found(m, t)),
                            "{m:?}"
                        );
                    }
                }
            }
        }
        for a in 0..34 {
            for b in a + 1..34 {
                for c in b + 1..34 {
                    let m = [kind_code(a), kind_code(b), kind_code(c)];
                    assert_eq!(
                        found(|t| pungs3(m, t)),
                        found(|t| pungs3_found(m, t)),
                        "{m:?}"
                    );
                    for d in c + 1..34 {
                        let m = [m[0], m[1], m[2], kind_code(d)];
                        assert_eq!(
                            found(|t| pungs4(m, t)),
                            found(|t| pungs4_found(m, t)),
                            "{m:?}"
                        );
                    }
                }
            }
        }
    }

    /// No set of melds makes more than four combination fans (what [`Combo`] holds).
    #[test]
    fn no_combination_makes_more_than_four_fans() {
        let t = &*COMBOS;
        for c in t
            .chows4
            .iter()
            .chain(&*t.chows3)
            .chain(&*t.pungs4)
            .chain(&*t.pungs3)
        {
            assert!(
                c.fans
                    .iter()
                    .zip(c.counts)
                    .all(|(&f, n)| (f == 0) == (n == 0))
            );
        }
        let most = |f: &dyn Fn(&mut FanTable)| found(f).iter().count();
        for a in 0..21 {
            for b in a..21 {
                for c in b..21 {
                    for d in c..21 {
                        let m = [chow_code(a), chow_code(b), chow_code(c), chow_code(d)];
                        assert!(most(&|t| chows4_found(m, t)) <= 4, "{m:?}");
                    }
                }
            }
        }
    }
}
