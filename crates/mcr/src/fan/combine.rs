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
pub(super) fn chows4(m: [i16; 4], t: &mut FanTable) {
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
pub(super) fn chows3(m: [i16; 3], t: &mut FanTable) {
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
pub(super) fn pungs4(m: [i16; 4], t: &mut FanTable) {
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
pub(super) fn pungs3(m: [i16; 3], t: &mut FanTable) {
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
