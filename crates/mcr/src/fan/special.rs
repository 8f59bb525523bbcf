//! The special shapes: Seven Pairs and Seven Shifted Pairs, Honors and Knitted Tiles,
//! Thirteen Orphans, a Knitted Straight with a meld and a pair, Nine Gates.

use super::basic::{Kind, Unit, by_wait};
use super::wait::{unique_wait, unique_wait_divided};
use super::{
    Ctx, Fan, FanTable, by_rank_range, by_suits, by_tile_hog, by_tile_traits, by_win_flags,
    by_winds, exclusions,
};
use crate::shape::{KNITTED_STRAIGHTS, ORPHANS};
use crate::tile::{Counts, Tile};

/// Whether the concealed hand of `ctx` may be of [`special_form`]'s shapes: every count even
/// (Seven Pairs), or 13 kinds or more. Checked first, as few hands are.
#[inline]
pub(super) fn may_be_special_form(ctx: &Ctx<'_>) -> bool {
    ctx.held.count_ones() >= 13 || {
        let mut odd = 0u64;
        for chunk in ctx.closed.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            odd |= u64::from_le_bytes(b);
        }
        odd & 0x0101_0101_0101_0101 == 0
    }
}

/// Whether the hand of `ctx` may hold [`knitted_straight`]'s shape: all of one knitted
/// straight's kinds. Checked first, as few hands do.
#[inline]
pub(super) fn may_be_knitted(ctx: &Ctx<'_>) -> bool {
    KNITTED_MASKS.iter().any(|&m| m & !ctx.held == 0)
}

/// Seven Pairs (or Seven Shifted Pairs), Honors and Knitted Tiles, Thirteen Orphans: sets the
/// shape's fans and says whether the (concealed) hand has one.
pub(super) fn special_form(ctx: &Ctx<'_>, t: &mut FanTable) -> bool {
    let c = &ctx.closed;
    if c.iter().all(|&n| n % 2 == 0) {
        if let Some(suit) = seven_shifted_pairs(c, ctx.hand.win_tile) {
            t.one(Fan::SevenShiftedPairs);
            if c[suit * 9] == 0 && c[suit * 9 + 8] == 0 {
                t.one(Fan::AllSimples);
            }
            by_win_flags(ctx.flags, t);
        } else {
            t.one(Fan::SevenPairs);
            // A concealed hand's tiles are all its tiles.
            let held = ctx.held;
            by_suits(held, t);
            by_tile_traits(held, t);
            by_rank_range(held, t);
            by_tile_hog(c, 0, t);
            by_win_flags(ctx.flags, t);
            exclusions(t);
        }
        return true;
    }
    // Both shapes below hold 13 or 14 kinds; a concealed hand's tiles are all its tiles.
    if ctx.hand.packs.is_empty() && ctx.held.count_ones() < 13 {
        return false;
    }
    if honors_and_knitted(c, ctx.held, t) {
        by_win_flags(ctx.flags, t);
        return true;
    }
    let kinds = c.iter().filter(|&&n| n > 0).count();
    if kinds == 13 && ORPHANS.iter().all(|&i| c[usize::from(i)] > 0) {
        t.one(Fan::ThirteenOrphans);
        by_win_flags(ctx.flags, t);
        return true;
    }
    false
}

/// The suit of seven shifted pairs in the winning tile's suit, if the pairs are that.
fn seven_shifted_pairs(c: &Counts, win: Tile) -> Option<usize> {
    let suit = win.suit()? as usize;
    let r = |rank: usize| c[suit * 9 + rank - 1];
    if !(3..=7).all(|k| r(k) == 2) {
        return None;
    }
    let ok = if r(2) == 2 {
        r(1) == 2 || r(8) == 2
    } else {
        r(8) == 2 && r(9) == 2
    };
    ok.then_some(suit)
}

/// `held`: bit `i` for each kind `i` the concealed tiles `c` hold.
fn honors_and_knitted(c: &Counts, held: u64, t: &mut FanTable) -> bool {
    // Fourteen kinds held once each: every tile a different kind.
    if held.count_ones() != 14 || c.iter().any(|&n| n > 1) {
        return false;
    }
    const NUMBERED: u64 = (1 << 27) - 1;
    let numbered = (held & NUMBERED).count_ones();
    if !(7..=9).contains(&numbered) {
        return false;
    }
    // The numbered tiles all of one knitted straight.
    if !KNITTED_MASKS.iter().any(|&m| held & NUMBERED & !m == 0) {
        return false;
    }
    if numbered == 7 {
        t.one(Fan::GreaterHonorsAndKnittedTiles);
    } else {
        t.one(Fan::LesserHonorsAndKnittedTiles);
        if numbered == 9 {
            t.one(Fan::KnittedStraight);
        }
    }
    true
}

/// Each of [`KNITTED_STRAIGHTS`] as a bit mask of its kinds.
const KNITTED_MASKS: [u64; 6] = {
    let mut out = [0u64; 6];
    let mut k = 0;
    while k < 6 {
        let mut i = 0;
        while i < 9 {
            out[k] |= 1 << KNITTED_STRAIGHTS[k][i];
            i += 1;
        }
        k += 1;
    }
    out
};

/// A knitted straight, the rest one meld (or the one pack) and a pair: sets its fans and
/// says whether the hand has that shape.
pub(super) fn knitted_straight(ctx: &Ctx<'_>, t: &mut FanTable) -> bool {
    let hand = ctx.hand;
    let c = &ctx.closed;
    // The concealed tiles are among all the tiles: no straight among those, none among these.
    if !KNITTED_MASKS.iter().any(|&m| m & !ctx.held == 0) || !c.iter().any(|&n| n >= 2) {
        return false;
    }
    let Some(seq) = KNITTED_STRAIGHTS
        .iter()
        .find(|seq| seq.iter().all(|&i| c[usize::from(i)] > 0))
    else {
        return false;
    };
    let mut rest = *c;
    for &i in seq {
        rest[usize::from(i)] -= 1;
    }
    let Some((meld, pair)) = meld_and_pair(&rest, hand.packs.first().map(|p| Unit::of_pack(*p)))
    else {
        return false;
    };
    t.one(Fan::KnittedStraight);
    let all = &ctx.all;
    if meld.kind == Kind::Chow {
        if pair.tile.is_numbered() {
            t.one(Fan::AllChows);
        }
        if all[pair.tile.index()] == 4 {
            t.one(Fan::TileHog);
        }
    } else if meld.tile.is_wind() {
        t.one(Fan::PungOfTerminalsOrHonors);
        by_winds(meld.tile, hand, t);
        if pair.tile.is_dragon() {
            t.one(Fan::AllTypes);
        }
    } else if meld.tile.is_dragon() {
        t.one(Fan::DragonPung);
        if pair.tile.is_wind() {
            t.one(Fan::AllTypes);
        }
    } else {
        if meld.tile.is_terminal() {
            t.one(Fan::PungOfTerminalsOrHonors);
        }
        if !pair.tile.is_honour() {
            t.one(Fan::NoHonors);
        }
        if meld.kind != Kind::Kong && all[meld.tile.index()] == 4 {
            t.one(Fan::TileHog);
        }
    }
    by_win_flags(ctx.flags, t);
    if meld.melded {
        if meld.kind == Kind::Kong {
            t.one(Fan::MeldedKong);
        }
    } else {
        if meld.kind == Kind::Kong {
            t.one(Fan::ConcealedKong);
        }
        if ctx.flags.self_drawn {
            t.one(Fan::FullyConcealedHand);
            t.clear(Fan::SelfDrawn);
        } else {
            t.one(Fan::ConcealedHand);
        }
    }
    let win = hand.win_tile;
    if hand.packs.is_empty() {
        // `rest` is a meld and a pair: with the winning tile among them, the divided hand's
        // reading applies.
        let unique = if rest[win.index()] > 0 {
            unique_wait_divided(&rest, 4, win)
        } else {
            unique_wait(&rest, 4, win)
        };
        if unique {
            by_wait(&[meld, pair], win, t);
        }
    } else if !seq.iter().any(|&i| usize::from(i) == win.index()) || c[win.index()] == 3 {
        t.one(Fan::SingleWait);
    }
    exclusions(t);
    true
}

/// The one meld and the pair of the five tiles `rest` (or the pair of two, beside `pack`).
fn meld_and_pair(rest: &Counts, pack: Option<Unit>) -> Option<(Unit, Unit)> {
    if let Some(p) = pack {
        return Some((p, lone_pair(rest)?));
    }
    // Five tiles split into a meld and a pair in at most one way; the meld holds or follows
    // the lowest tile unless the lowest tile is the pair.
    for i in (0..rest.len()).filter(|&i| rest[i] > 0) {
        let tile = Tile::from_index(i)?;
        let mut c = *rest;
        if c[i] >= 3 {
            c[i] -= 3;
            if let Some(p) = lone_pair(&c) {
                return Some((unit(Kind::Pung, tile), p));
            }
            c[i] += 3;
        }
        if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
            for x in &mut c[i..i + 3] {
                *x -= 1;
            }
            if let Some(p) = lone_pair(&c) {
                return Some((unit(Kind::Chow, tile.offset(1)?), p));
            }
        }
    }
    None
}

fn lone_pair(c: &Counts) -> Option<Unit> {
    let i = c.iter().position(|&n| n > 0)?;
    (c[i] == 2 && c.iter().map(|&n| u32::from(n)).sum::<u32>() == 2)
        .then(|| unit(Kind::Pair, Tile::from_index(i).unwrap_or_default()))
}

fn unit(kind: Kind, tile: Tile) -> Unit {
    Unit {
        kind,
        tile,
        melded: false,
    }
}

/// Nine Gates: 1112345678999 of one suit waiting on any of the nine. The hand's other fans are
/// fixed by the winning tile's rank (the library's reading).
pub(super) fn nine_gates(ctx: &Ctx<'_>, t: &mut FanTable) -> bool {
    let win = ctx.hand.win_tile;
    let (Some(suit), Some(rank)) = (win.suit(), win.rank()) else {
        return false;
    };
    let c = &ctx.closed;
    let base = suit as usize * 9;
    let want = |r: u8| -> u8 {
        let n = if r == 1 || r == 9 { 3 } else { 1 };
        n + u8::from(r == rank)
    };
    if !(1..=9).all(|r| c[base + usize::from(r) - 1] == want(r)) {
        return false;
    }
    t.one(Fan::NineGates);
    match rank {
        1 | 9 => {
            t.one(Fan::PureStraight);
            t.one(Fan::TileHog);
        }
        2 | 8 => {
            t.one(Fan::TwoConcealedPungs);
            t.one(Fan::ShortStraight);
            t.one(Fan::PungOfTerminalsOrHonors);
        }
        5 => {
            t.one(Fan::TwoConcealedPungs);
            t.one(Fan::PungOfTerminalsOrHonors);
        }
        _ => t.one(Fan::ShortStraight),
    }
    by_win_flags(ctx.flags, t);
    true
}
