//! The special shapes: Knitted Straight with a meld and a pair, Seven Pairs and Seven Shifted
//! Pairs, Thirteen Orphans, Honors and Knitted Tiles.

use super::basic::{Kind, Unit, by_wait, kongs_and_pungs};
use super::{
    Ctx, Fan, FanTable, by_rank_range, by_suits, by_tile_hog, by_tile_traits, by_win_flags,
    by_winds, exclusions,
};
use crate::shape::{KNITTED_STRAIGHTS, ORPHANS};
use crate::tile::{Counts, TILE_KINDS, Tile};

/// A knitted straight, the rest one meld (or the one pack) and a pair: sets its fans and
/// says whether the hand has that shape.
pub(super) fn knitted_straight(ctx: &Ctx<'_>, t: &mut FanTable) -> bool {
    let hand = ctx.hand;
    let Some(seq) = KNITTED_STRAIGHTS
        .iter()
        .find(|seq| seq.iter().all(|&i| ctx.closed[usize::from(i)] > 0))
    else {
        return false;
    };
    let mut rest = ctx.closed;
    for &i in seq {
        rest[usize::from(i)] -= 1;
    }
    let Some((meld, pair)) = meld_and_pair(&rest, hand.packs.first().map(|p| Unit::of_pack(*p)))
    else {
        return false;
    };
    t.set(Fan::KnittedStraight, 1);
    if meld.kind == Kind::Chow {
        if pair.tile.is_numbered() {
            t.set(Fan::AllChows, 1);
        }
    } else {
        kongs_and_pungs(&[meld], t);
    }
    by_win_flags(ctx.flags, t);
    if hand.packs.is_empty() || (meld.kind == Kind::Kong && !meld.melded) {
        t.set(
            if ctx.flags.self_drawn {
                Fan::FullyConcealedHand
            } else {
                Fan::ConcealedHand
            },
            1,
        );
    }
    let mut tiles = [0u8; TILE_KINDS];
    for &i in seq {
        tiles[usize::from(i)] += 1;
    }
    let meld_len = match meld.kind {
        Kind::Chow => {
            for d in [-1, 0, 1] {
                if let Some(x) = meld.tile.offset(d) {
                    tiles[x.index()] += 1;
                }
            }
            3
        }
        Kind::Kong => {
            tiles[meld.tile.index()] += 4;
            4
        }
        _ => {
            tiles[meld.tile.index()] += 3;
            3
        }
    };
    tiles[pair.tile.index()] += 2;
    by_suits(&tiles, t);
    by_tile_hog(&tiles, 9 + meld_len + 2, t);
    let win = hand.win_tile;
    if !seq.iter().any(|&i| usize::from(i) == win.index()) {
        if hand.packs.is_empty() {
            let mut four = rest;
            four[win.index()] -= 1;
            by_wait(&[meld, pair], &four, false, win, t);
        } else {
            t.set(Fan::SingleWait, 1);
        }
    }
    exclusions(t);
    if meld.tile.is_wind() {
        by_winds(meld.tile, hand, t);
    }
    true
}

/// The one meld and the pair of the five tiles `rest` (or the pair of two, beside `pack`).
fn meld_and_pair(rest: &Counts, pack: Option<Unit>) -> Option<(Unit, Unit)> {
    let pair_of = |c: &Counts| {
        let i = c.iter().position(|&n| n > 0)?;
        (c[i] == 2 && c.iter().map(|&n| u32::from(n)).sum::<u32>() == 2).then(|| Unit {
            kind: Kind::Pair,
            tile: Tile::from_index(i).unwrap_or_default(),
            melded: false,
        })
    };
    if let Some(p) = pack {
        return Some((p, pair_of(rest)?));
    }
    let i = rest.iter().position(|&n| n > 0)?;
    let tile = Tile::from_index(i)?;
    let mut c = *rest;
    // The lowest tile is in the pair, a pung or a chow (five tiles split one way at most).
    if c[i] >= 2 {
        c[i] -= 2;
        if let Some(m) = lone_meld(&c) {
            return Some((
                m,
                Unit {
                    kind: Kind::Pair,
                    tile,
                    melded: false,
                },
            ));
        }
        c[i] += 2;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        if let Some(p) = pair_of(&c) {
            return Some((unit(Kind::Pung, tile), p));
        }
        c[i] += 3;
    }
    if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        if let Some(p) = pair_of(&c) {
            return Some((unit(Kind::Chow, tile.offset(1)?), p));
        }
    }
    None
}

fn unit(kind: Kind, tile: Tile) -> Unit {
    Unit {
        kind,
        tile,
        melded: false,
    }
}

/// The meld the three tiles of `c` make, if they make one.
fn lone_meld(c: &Counts) -> Option<Unit> {
    let i = c.iter().position(|&n| n > 0)?;
    let tile = Tile::from_index(i)?;
    if c.iter().map(|&n| u32::from(n)).sum::<u32>() != 3 {
        return None;
    }
    if c[i] == 3 {
        return Some(unit(Kind::Pung, tile));
    }
    (i < 27 && i % 9 <= 6 && c[i] == 1 && c[i + 1] == 1 && c[i + 2] == 1)
        .then(|| unit(Kind::Chow, tile.offset(1).unwrap_or(tile)))
}

/// Seven Pairs, Seven Shifted Pairs, Thirteen Orphans, Honors and Knitted Tiles (a concealed
/// hand): sets the shape's fans and says whether the hand has one.
pub(super) fn special_form(ctx: &Ctx<'_>, t: &mut FanTable) -> bool {
    let c = &ctx.closed;
    if c.iter().all(|&n| n % 2 == 0) {
        let first = c.iter().position(|&n| n > 0).unwrap_or(0);
        let shifted = first < 27 && first % 9 <= 2 && (first..first + 7).all(|i| c[i] == 2);
        if shifted {
            t.set(Fan::SevenShiftedPairs, 1);
            by_tile_traits(c, t);
        } else {
            t.set(Fan::SevenPairs, 1);
            by_suits(c, t);
            by_tile_traits(c, t);
            by_rank_range(c, t);
            by_tile_hog(c, 14, t);
        }
    } else if ORPHANS.iter().all(|&i| c[usize::from(i)] > 0)
        && Tile::all().all(|x| c[x.index()] == 0 || x.is_terminal_or_honour())
    {
        t.set(Fan::ThirteenOrphans, 1);
    } else if !honors_and_knitted(c, t) {
        return false;
    }
    by_win_flags(ctx.flags, t);
    exclusions(t);
    true
}

fn honors_and_knitted(c: &Counts, t: &mut FanTable) -> bool {
    if c.iter().any(|&n| n > 1) {
        return false;
    }
    let numbered = c[..27].iter().filter(|&&n| n > 0).count();
    if !(7..=9).contains(&numbered) {
        return false;
    }
    if !KNITTED_STRAIGHTS
        .iter()
        .any(|seq| (0..27).all(|i| c[i] == 0 || seq.contains(&(i as u8))))
    {
        return false;
    }
    if numbered == 7 {
        t.set(Fan::GreaterHonorsAndKnittedTiles, 1);
    } else {
        t.set(Fan::LesserHonorsAndKnittedTiles, 1);
        if numbered == 9 {
            t.set(Fan::KnittedStraight, 1);
        }
    }
    true
}
