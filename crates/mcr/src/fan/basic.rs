//! The basic shape: four melds and a pair. Every division of the concealed tiles is scored.

use super::combine::{self, code};
use super::wait::unique_wait_of_groups;
use super::{Ctx, Fan, FanTable, by_winds, exclusions};
use crate::pack::{Pack, PackKind};
use crate::shape::{DividedGroups, NO_PAIR, NO_TILES, SuitSplit, suit_splits_and_waits};
use crate::tile::{Counts, TILE_KINDS, Tile};

/// A meld or the pair of one arrangement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Unit {
    pub kind: Kind,
    /// The pack's tile: a chow's middle.
    pub tile: Tile,
    /// Made with a claimed tile.
    pub melded: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Chow,
    Pung,
    Kong,
    Pair,
}

impl Unit {
    pub fn of_pack(p: Pack) -> Unit {
        Unit {
            kind: match p.kind {
                PackKind::Chow => Kind::Chow,
                PackKind::Pung => Kind::Pung,
                PackKind::Kong => Kind::Kong,
            },
            tile: p.tile,
            melded: p.is_melded(),
        }
    }

    fn concealed(kind: Kind, tile: Tile) -> Unit {
        Unit {
            kind,
            tile,
            melded: false,
        }
    }

    fn code(self) -> i16 {
        code(self.tile)
    }
}

/// Divisions one hand can have at most: far more than any hand has (a suit splits at most
/// four ways, and two suits that split more than one way need more than 14 tiles).
const MAX_DIVISIONS: usize = 16;

/// A division of the concealed tiles: melds by their lowest tile (`2 · index`, `+1` for a
/// chow), sorted, and the pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Division {
    melds: [u8; 4],
    count: u8,
    pair: u8,
}

struct Divisions {
    list: [Division; MAX_DIVISIONS],
    len: usize,
    /// The groups as the division found them, for reading the wait.
    groups: DividedGroups,
}

/// The reference the per-group enumeration ([`divide`]) is tested against: the whole hand
/// searched at once, lowest tile first.
#[cfg(test)]
fn divide_search(
    c: &mut Counts,
    mut i: usize,
    work: &mut Division,
    pair: Option<u8>,
    out: &mut Divisions,
) {
    while i < crate::tile::TILE_KINDS && c[i] == 0 {
        i += 1;
    }
    if i == crate::tile::TILE_KINDS {
        let Some(pair) = pair else { return };
        let mut d = *work;
        d.pair = pair;
        d.melds[..usize::from(d.count)].sort_unstable();
        if !out.list[..out.len].contains(&d) && out.len < MAX_DIVISIONS {
            out.list[out.len] = d;
            out.len += 1;
        }
        return;
    }
    if pair.is_none() && c[i] >= 2 {
        c[i] -= 2;
        divide_search(c, i, work, Some(i as u8), out);
        c[i] += 2;
    }
    if usize::from(work.count) == 4 {
        return;
    }
    if c[i] >= 3 {
        c[i] -= 3;
        work.melds[usize::from(work.count)] = 2 * i as u8;
        work.count += 1;
        divide_search(c, i, work, pair, out);
        work.count -= 1;
        c[i] += 3;
    }
    if i < 27 && i % 9 <= 6 && c[i + 1] > 0 && c[i + 2] > 0 {
        c[i] -= 1;
        c[i + 1] -= 1;
        c[i + 2] -= 1;
        work.melds[usize::from(work.count)] = 2 * i as u8 + 1;
        work.count += 1;
        divide_search(c, i, work, pair, out);
        work.count -= 1;
        c[i] += 1;
        c[i + 1] += 1;
        c[i + 2] += 1;
    }
}

/// Every division of `c` into melds and one pair, into `out` (unsorted).
///
/// Melds never span two groups (a suit, or the honours), so only the one group holding two
/// tiles more than a multiple of three can hold the pair, and a group holding one more splits
/// no way at all. Each suit's splits are looked up ([`suit_splits_and_waits`], the waits kept
/// for reading the wait), the honours split one way at most, and every choice of one split per
/// group is a division.
fn divide(c: &Counts, out: &mut Divisions) {
    let mut pairs = 0;
    let mut lists: [&[SuitSplit]; 3] = [&[NO_TILES]; 3];
    for (s, list) in lists.iter_mut().enumerate() {
        let mut g = [0u8; 9];
        g.copy_from_slice(&c[9 * s..9 * s + 9]);
        let n: u8 = g.iter().sum();
        match n % 3 {
            1 => return,
            r => pairs += u8::from(r == 2),
        }
        out.groups.tiles[s] = n;
        if n > 0 {
            let (splits, waits) = suit_splits_and_waits(&g);
            *list = splits;
            out.groups.waits[s] = waits;
            if list.is_empty() {
                return;
            }
        }
    }
    // The honours: pungs, and the pair unless a suit holds it.
    let mut honours = Division {
        melds: [0; 4],
        count: 0,
        pair: NO_PAIR,
    };
    // Only the kinds held are visited: the honours' counts as a word's bytes.
    let mut bytes = [0u8; 8];
    bytes[..7].copy_from_slice(&c[27..]);
    let mut held = u64::from_le_bytes(bytes);
    while held != 0 {
        let k = held.trailing_zeros() as usize / 8;
        held &= !(0xff << (8 * k));
        let i = 27 + k;
        match c[i] {
            2 if honours.pair == NO_PAIR => honours.pair = i as u8,
            3 if honours.count < 4 => {
                honours.melds[usize::from(honours.count)] = 2 * i as u8;
                honours.count += 1;
            }
            _ => return,
        }
    }
    pairs += u8::from(honours.pair != NO_PAIR);
    out.groups.honour_pair = (honours.pair != NO_PAIR).then_some(honours.pair);
    if pairs != 1 {
        return;
    }
    for a in lists[0] {
        for b in lists[1] {
            for x in lists[2] {
                let mut d = Division {
                    melds: [0; 4],
                    count: 0,
                    pair: honours.pair,
                };
                let mut fits = true;
                for (s, split) in [a, b, x].into_iter().enumerate() {
                    for &m in &split.melds[..usize::from(split.count)] {
                        fits &= d.count < 4;
                        if fits {
                            d.melds[usize::from(d.count)] = 18 * s as u8 + m;
                            d.count += 1;
                        }
                    }
                    if split.pair != NO_PAIR {
                        d.pair = 9 * s as u8 + split.pair;
                    }
                }
                for &m in &honours.melds[..usize::from(honours.count)] {
                    fits &= d.count < 4;
                    if fits {
                        d.melds[usize::from(d.count)] = m;
                        d.count += 1;
                    }
                }
                if fits && out.len < MAX_DIVISIONS {
                    out.list[out.len] = d;
                    out.len += 1;
                }
            }
        }
    }
}

/// Scores every division of `ctx`'s concealed tiles into melds and a pair, calling `each` with
/// each division's fans in the order the fan library finds them (so that the first of equal
/// totals is the library's choice): by the sorted sequence of melds, a meld keyed by its lowest
/// tile and a pung before a chow.
pub(super) fn each_division(ctx: &Ctx<'_>, mut each: impl FnMut(&FanTable)) {
    let mut out = Divisions {
        list: [Division {
            melds: [0; 4],
            count: 0,
            pair: 0,
        }; MAX_DIVISIONS],
        len: 0,
        groups: DividedGroups::default(),
    };
    divide(&ctx.closed, &mut out);
    let found = &mut out.list[..out.len];
    if found.len() > 1 {
        found.sort_unstable();
    }
    let fixed = ctx.hand.packs.len();
    // Whether the hand waited on one tile alone: read only for a division where the winning
    // tile could make an edge, closed or single wait, from the groups as divided.
    let unique = std::cell::OnceCell::new();
    let unique_wait = || {
        *unique.get_or_init(|| {
            unique_wait_of_groups(
                &ctx.closed,
                ctx.hand.standing.len(),
                ctx.hand.win_tile,
                &out.groups,
            )
        })
    };
    for d in found.iter() {
        if usize::from(d.count) + fixed != 4 {
            continue;
        }
        let mut units = [Unit::concealed(Kind::Pair, Tile::default()); 5];
        for (u, p) in units.iter_mut().zip(ctx.hand.packs) {
            *u = Unit::of_pack(*p);
        }
        for (k, &m) in d.melds[..usize::from(d.count)].iter().enumerate() {
            let low = Tile::from_index(usize::from(m / 2)).unwrap_or_default();
            units[fixed + k] = if m % 2 == 1 {
                Unit::concealed(Kind::Chow, low.offset(1).unwrap_or(low))
            } else {
                Unit::concealed(Kind::Pung, low)
            };
        }
        units[4] = Unit::concealed(
            Kind::Pair,
            Tile::from_index(usize::from(d.pair)).unwrap_or_default(),
        );
        // Each division starts from the fans every division shares.
        let mut table = ctx.base;
        score(ctx, &units, &unique_wait, &mut table);
        each(&table);
    }
}

/// The fans of one division: `units` are the fixed packs, then the concealed melds, then the
/// pair.
fn score(ctx: &Ctx<'_>, units: &[Unit; 5], unique_wait: &impl Fn() -> bool, t: &mut FanTable) {
    let hand = ctx.hand;
    let win = hand.win_tile;
    let fixed = hand.packs.len();
    let mut chows = [0i16; 4];
    let mut nchows = 0;
    let mut pungs = [units[0]; 4];
    let mut npungs = 0;
    let pair = units[4];
    for u in &units[..4] {
        match u.kind {
            Kind::Chow => {
                chows[nchows] = u.code();
                nchows += 1;
            }
            _ => {
                pungs[npungs] = *u;
                npungs += 1;
            }
        }
    }

    // A pung completed by a claimed tile is not concealed, unless the tile can be read as
    // completing a concealed chow instead.
    if !ctx.flags.self_drawn {
        // A chow's middle is a 2–8: the tiles beside it are of its suit.
        let in_chow = units[fixed..4]
            .iter()
            .any(|u| u.kind == Kind::Chow && u.tile.index().abs_diff(win.index()) <= 1);
        if !in_chow {
            for p in pungs[..npungs].iter_mut() {
                if p.tile == win && !p.melded {
                    p.melded = true;
                }
            }
        }
    }
    if npungs > 0 {
        kongs_and_pungs(&pungs[..npungs], t);
    }
    match nchows {
        4 => {
            if three_suited_terminal_chows(&units[..4], pair) {
                t.one(Fan::ThreeSuitedTerminalChows);
            } else if pure_terminal_chows(&units[..4], pair) {
                t.one(Fan::PureTerminalChows);
            } else {
                chows.sort_unstable();
                combine::chows4(chows, t);
            }
        }
        3 => {
            let mut m = [chows[0], chows[1], chows[2]];
            m.sort_unstable();
            combine::chows3(m, t);
        }
        2 => {
            combine::chows2(chows[0], chows[1], t);
            combine::pungs2(pungs[0].code(), pungs[1].code(), t);
        }
        1 => {
            let mut m = [pungs[0].code(), pungs[1].code(), pungs[2].code()];
            m.sort_unstable();
            combine::pungs3(m, t);
        }
        _ => {
            let mut m = pungs.map(|p| p.code());
            m.sort_unstable();
            combine::pungs4(m, t);
        }
    }
    by_pair(pair, nchows, t);
    by_melds_traits(units, t);
    if !t.has(Fan::QuadrupleChow) {
        t.set(Fan::TileHog, ctx.hogs);
    }
    // The wait fans need a hand not Melded nor of Four Kongs (as `by_wait` reads them): the
    // costly wait reading is skipped for those.
    if !t.has_any(WAIT_BARRED)
        && let Some(f) = wait_fan(&units[fixed..], win)
        && unique_wait()
    {
        t.one(f);
    }
    exclusions(t);
    if !t.has(Fan::BigFourWinds) {
        for p in &pungs[..npungs] {
            if p.tile.is_wind() {
                by_winds(p.tile, hand, t);
            }
        }
    }
    if t.is_empty() {
        t.one(Fan::ChickenHand);
    }
}

/// Kong fans, concealed pungs, All Pungs and each pung's own fan.
pub(super) fn kongs_and_pungs(pungs: &[Unit], t: &mut FanTable) {
    let (mut melded_kongs, mut concealed_kongs, mut concealed_pungs) = (0, 0, 0);
    for p in pungs {
        match (p.melded, p.kind == Kind::Kong) {
            (true, true) => melded_kongs += 1,
            (false, true) => concealed_kongs += 1,
            (false, false) => concealed_pungs += 1,
            (true, false) => {}
        }
    }
    // Concealed pungs counting concealed kongs: Two/Three/Four Concealed Pungs.
    let concealed = |n: usize, t: &mut FanTable| match n {
        2 => t.one(Fan::TwoConcealedPungs),
        3 => t.one(Fan::ThreeConcealedPungs),
        4 => t.one(Fan::FourConcealedPungs),
        _ => {}
    };
    match (melded_kongs + concealed_kongs, concealed_kongs) {
        (0, _) => concealed(concealed_pungs, t),
        (1, 0) => {
            t.one(Fan::MeldedKong);
            concealed(concealed_pungs, t);
        }
        (1, _) => {
            t.one(Fan::ConcealedKong);
            concealed(concealed_pungs + 1, t);
        }
        (2, 0) => {
            t.one(Fan::TwoMeldedKongs);
            if concealed_pungs == 2 {
                t.one(Fan::TwoConcealedPungs);
            }
        }
        (2, 1) => {
            t.one(Fan::ConcealedKongAndMeldedKong);
            concealed((concealed_pungs + 1).min(3), t);
        }
        (2, _) => {
            t.one(Fan::TwoConcealedKongs);
            if concealed_pungs > 0 {
                concealed(concealed_pungs + 2, t);
            }
        }
        (3, k) => {
            t.one(Fan::ThreeKongs);
            match k {
                1 if concealed_pungs > 0 => t.one(Fan::TwoConcealedPungs),
                2 | 3 => concealed(k + concealed_pungs, t),
                _ => {}
            }
        }
        (_, k) => {
            t.one(Fan::FourKongs);
            concealed(k, t);
        }
    }
    if pungs.len() == 4 && !t.has(Fan::FourKongs) && !t.has(Fan::FourConcealedPungs) {
        t.one(Fan::AllPungs);
    }
    // Dragon Pung and Pung of Terminals or Honors, counted by looking each pung's kind up.
    let (mut dragons, mut others) = (0, 0);
    for p in pungs {
        let f = PUNG_FANS[p.tile.index()];
        dragons += u16::from(f == DRAGON);
        others += u16::from(f == TERMINAL_OR_HONOUR);
    }
    if dragons > 0 {
        t.set(Fan::DragonPung, dragons);
    }
    if others > 0 {
        t.set(Fan::PungOfTerminalsOrHonors, others);
    }
}

/// [`PUNG_FANS`]: a dragon's pung.
const DRAGON: u8 = 1;
/// [`PUNG_FANS`]: a wind's, a 1's or a 9's pung.
const TERMINAL_OR_HONOUR: u8 = 2;

/// The fan of a pung (or kong) by its kind: [`DRAGON`], [`TERMINAL_OR_HONOUR`] or 0.
const PUNG_FANS: [u8; TILE_KINDS] = {
    let mut out = [0u8; TILE_KINDS];
    let mut i = 0;
    while i < TILE_KINDS {
        if let Some(t) = Tile::from_index(i) {
            out[i] = if t.is_dragon() {
                DRAGON
            } else if t.is_wind() || t.is_terminal() {
                TERMINAL_OR_HONOUR
            } else {
                0
            };
        }
        i += 1;
    }
    out
};

fn pure_terminal_chows(chows: &[Unit], pair: Unit) -> bool {
    if pair.tile.rank() != Some(5) {
        return false;
    }
    let (mut low, mut high) = (0, 0);
    for c in chows {
        if c.tile.suit() != pair.tile.suit() {
            return false;
        }
        match c.tile.rank() {
            Some(2) => low += 1,
            Some(8) => high += 1,
            _ => return false,
        }
    }
    low == 2 && high == 2
}

fn three_suited_terminal_chows(chows: &[Unit], pair: Unit) -> bool {
    if pair.tile.rank() != Some(5) {
        return false;
    }
    let mut low = [false; 3];
    let mut high = [false; 3];
    for c in chows {
        let (Some(s), Some(ps)) = (c.tile.suit(), pair.tile.suit()) else {
            return false;
        };
        if s == ps {
            return false;
        }
        match c.tile.rank() {
            Some(2) => low[s as usize] = true,
            Some(8) => high[s as usize] = true,
            _ => return false,
        }
    }
    let ps = pair.tile.suit().map_or(0, |s| s as usize);
    (0..3).filter(|&s| s != ps).all(|s| low[s] && high[s])
}

/// Concealed Hand, Fully Concealed Hand, Melded Hand, Self-Drawn: how many of the declared
/// packs were claimed (`melded`; a concealed kong is not).
pub(super) fn by_concealment(melded: usize, self_drawn: bool, t: &mut FanTable) {
    match melded {
        0 => t.set(
            if self_drawn {
                Fan::FullyConcealedHand
            } else {
                Fan::ConcealedHand
            },
            1,
        ),
        4 => t.set(
            if self_drawn {
                Fan::SelfDrawn
            } else {
                Fan::MeldedHand
            },
            1,
        ),
        _ => {
            if self_drawn {
                t.one(Fan::SelfDrawn);
            }
        }
    }
}

/// All Chows, Little Three Dragons, Little Four Winds: what the pair adds.
fn by_pair(pair: Unit, chows: usize, t: &mut FanTable) {
    if chows == 4 {
        if pair.tile.is_numbered() {
            t.one(Fan::AllChows);
        }
        return;
    }
    if t.has(Fan::TwoDragonsPungs) {
        if pair.tile.is_dragon() {
            t.one(Fan::LittleThreeDragons);
            t.clear(Fan::TwoDragonsPungs);
        }
        return;
    }
    if t.has(Fan::BigThreeWinds) && pair.tile.is_wind() {
        t.one(Fan::LittleFourWinds);
        t.clear(Fan::BigThreeWinds);
    }
}

/// Outside Hand, All Five, All Even Pungs: what every meld and the pair share.
fn by_melds_traits(units: &[Unit; 5], t: &mut FanTable) {
    let shared = units.iter().fold(!0, |m, u| {
        m & MELD_TRAITS[usize::from(u.kind == Kind::Chow)][u.tile.index()]
    });
    if shared & OUTSIDE != 0 {
        t.one(Fan::OutsideHand);
    } else if shared & FIVE != 0 {
        t.one(Fan::AllFive);
    } else if shared & EVEN != 0 {
        t.one(Fan::AllEvenPungs);
    }
}

/// A meld (or the pair) holds a terminal or an honour.
const OUTSIDE: u8 = 1;
/// A meld (or the pair) holds a five.
const FIVE: u8 = 2;
/// A pung, kong or pair of an even rank.
const EVEN: u8 = 4;

/// [`OUTSIDE`], [`FIVE`] and [`EVEN`] of a pung, kong or pair (`[0]`) and of a chow (`[1]`), by
/// its tile (a chow's middle): looked up, since every division asks for all five units.
const MELD_TRAITS: [[u8; TILE_KINDS]; 2] = {
    let mut out = [[0u8; TILE_KINDS]; 2];
    let mut i = 0;
    while i < TILE_KINDS {
        if i >= 27 {
            out[0][i] = OUTSIDE;
        } else {
            let r = i % 9 + 1;
            out[0][i] = match r {
                1 | 9 => OUTSIDE,
                5 => FIVE,
                2 | 4 | 6 | 8 => EVEN,
                _ => 0,
            };
            out[1][i] = match r {
                2 | 8 => OUTSIDE,
                4..=6 => FIVE,
                _ => 0,
            };
        }
        i += 1;
    }
    out
};

/// The fans that rule out Edge, Closed and Single Wait ([`by_wait`]).
const WAIT_BARRED: u128 = 1 << Fan::MeldedHand as u32 | 1 << Fan::FourKongs as u32;

/// The wait fan `win` makes of the concealed melds and pair `units`, should the hand have
/// waited on one tile alone: a chow the winning tile ends makes an edge wait, one it middles a
/// closed wait, the pair a single wait, in that order of preference. `None` when the winning
/// tile is in none of their chows nor the pair (then no reading of the wait is needed).
fn wait_fan(units: &[Unit], win: Tile) -> Option<Fan> {
    let (mut edge, mut closed, mut single) = (false, false, false);
    for u in units {
        // A chow's middle is a 2–8: the tiles beside it are of its suit.
        let apart = u.tile.index().abs_diff(win.index());
        let chow = u.kind == Kind::Chow;
        closed |= chow & (apart == 0);
        edge |= chow & (apart == 1);
        single |= (u.kind == Kind::Pair) & (apart == 0);
    }
    if edge {
        Some(Fan::EdgeWait)
    } else if closed {
        Some(Fan::ClosedWait)
    } else if single {
        Some(Fan::SingleWait)
    } else {
        None
    }
}

/// Edge, Closed and Single Wait ([`wait_fan`]), for a hand that waited on one tile alone:
/// `units` are the concealed melds and the pair. None for a Melded Hand or Four Kongs.
pub(super) fn by_wait(units: &[Unit], win: Tile, t: &mut FanTable) {
    if t.has_any(WAIT_BARRED) {
        return;
    }
    if let Some(f) = wait_fan(units, win) {
        t.one(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn empty() -> Divisions {
        Divisions {
            list: [Division {
                melds: [0; 4],
                count: 0,
                pair: 0,
            }; MAX_DIVISIONS],
            len: 0,
            groups: DividedGroups::default(),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20000))]

        /// Per-group enumeration finds exactly the divisions the whole-hand search finds, on
        /// 14, 11, 8, 5 and 2 tiles crowded into few kinds (where divisions are many) half the
        /// time.
        #[test]
        fn groups_divide_as_the_whole_hand_search_does(
            packs in 0usize..=4,
            tiles in proptest::collection::vec(0u8..34, 14),
            low in 0u8..27,
        ) {
            let mut c = [0u8; TILE_KINDS];
            for &t in &tiles[..14 - 3 * packs] {
                let t = usize::from(if t % 2 == 0 { low + t % 7 } else { t }.min(33));
                c[t] = (c[t] + 1).min(4);
            }
            let mut by_groups = empty();
            divide(&c, &mut by_groups);
            let mut by_search = empty();
            let mut work = by_search.list[0];
            divide_search(&mut c.clone(), 0, &mut work, None, &mut by_search);
            let mut a = by_groups.list[..by_groups.len].to_vec();
            let mut b = by_search.list[..by_search.len].to_vec();
            a.sort_unstable();
            b.sort_unstable();
            prop_assert_eq!(a, b, "{:?}", c);
        }
    }

    /// A hand of many divisions: all found, in the library's order.
    #[test]
    fn a_crowded_suit_divides_every_way() {
        // 111 222 333 444 55 in characters.
        let mut c = [0u8; TILE_KINDS];
        c[..5].copy_from_slice(&[3, 3, 3, 3, 2]);
        let mut out = empty();
        divide(&c, &mut out);
        let mut got = out.list[..out.len].to_vec();
        got.sort_unstable();
        let mut want = empty();
        let mut work = want.list[0];
        divide_search(&mut c.clone(), 0, &mut work, None, &mut want);
        assert!(got.len() >= 3, "{}", got.len());
        assert_eq!(got, {
            let mut w = want.list[..want.len].to_vec();
            w.sort_unstable();
            w
        });
    }
}
