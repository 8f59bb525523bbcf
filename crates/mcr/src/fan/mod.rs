//! Fan evaluation: every fan of the Chinese Official rules, as the fan library PyMahjongGB
//! ships (ChineseOfficialMahjongHelper's `fan_calculator`, 2023) computes them.
//!
//! [`evaluate`] takes a [`WinningHand`] (declared packs, the concealed tiles, the winning tile,
//! flowers and the circumstances of the win) and returns the [`Scored`] arrangement worth the
//! most.
//!
//! # How a hand is scored
//!
//! 1. The circumstances are settled: Last Tile is dropped when the concealed tiles hold the
//!    winning tile and added when the packs show three of it; a kong win (Out with Replacement
//!    Tile when self-drawn, Robbing the Kong on a claim) is dropped when self-drawn without a
//!    declared kong, or claimed with the winning tile already in the hand or its packs.
//! 2. The special shapes come first: a concealed hand tries Seven Pairs (or Seven Shifted
//!    Pairs), Honors and Knitted Tiles, Thirteen Orphans, a Knitted Straight with a meld and a
//!    pair, and Nine Gates; a hand with one pack tries the Knitted Straight.
//! 3. Unless a special shape other than plain Seven Pairs matched, every division of the tiles
//!    into four melds and a pair is scored (`basic`), in the library's order; the best total
//!    wins, and on a tie a later division replaces the choice when it has Pure Triple Chow or
//!    Triple Pung, or against Seven Pairs.
//! 4. The exclusion principles: non-repeat (a fan implied by a larger one is not counted again:
//!    `exclusions`, and where fans are found), non-separation and non-identical (melds in a
//!    three- or four-meld combination are not taken apart into smaller ones: `combine`), and
//!    account-once (each chow pairs with each other chow at most once: `combine`). Edge,
//!    Closed and Single Wait need a hand that waited on one tile alone (`wait`).
//! 5. Flower Tiles add a point per flower; they never count towards the 8-point minimum.

mod basic;
mod combine;
mod names;
mod special;
mod wait;

use std::fmt;

pub use names::{FAN_COUNT, Fan};

use crate::pack::{Pack, PackKind};
use crate::tile::{Counts, TILE_KINDS, Tile, Wind};

/// How many times each fan counts, indexed by [`Fan`].
///
/// The bit set `held` says which fans count; a fan's entry in `counts` means something only
/// while its bit is set, so that dropping fans (the exclusion principles) is one mask
/// operation however many fans it drops. Counts are bytes (no fan counts more than 8 times:
/// flowers), so that the table, copied for every division scored, stays small.
#[derive(Clone, Copy)]
pub struct FanTable {
    counts: [u8; FAN_COUNT + 1],
    /// Bit `i` set exactly where fan `i` counts (its entry in `counts` not 0).
    held: u128,
}

impl Default for FanTable {
    fn default() -> Self {
        FanTable {
            counts: [0; FAN_COUNT + 1],
            held: 0,
        }
    }
}

impl PartialEq for FanTable {
    fn eq(&self, other: &Self) -> bool {
        self.held == other.held && self.iter().eq(other.iter())
    }
}

impl Eq for FanTable {}

impl std::hash::Hash for FanTable {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.held.hash(state);
        for (f, n) in self.iter() {
            (f as u8, n).hash(state);
        }
    }
}

/// The bit of `fan` in [`FanTable`]'s bit set.
const fn bit(fan: Fan) -> u128 {
    1 << fan as usize
}

/// The bits of `fans`.
const fn bits(fans: &[Fan]) -> u128 {
    let mut m = 0;
    let mut i = 0;
    while i < fans.len() {
        m |= bit(fans[i]);
        i += 1;
    }
    m
}

impl FanTable {
    /// How many times `fan` counts.
    pub const fn get(&self, fan: Fan) -> u16 {
        if self.held & bit(fan) != 0 {
            self.counts[fan as usize] as u16
        } else {
            0
        }
    }

    /// Sets how many times `fan` counts (at most 255: more is kept as 255).
    pub fn set(&mut self, fan: Fan, n: u16) {
        self.counts[fan as usize] = u8::try_from(n).unwrap_or(u8::MAX);
        if n == 0 {
            self.held &= !bit(fan);
        } else {
            self.held |= bit(fan);
        }
    }

    fn has(&self, fan: Fan) -> bool {
        self.held & bit(fan) != 0
    }

    pub(super) fn has_any(&self, fans: u128) -> bool {
        self.held & fans != 0
    }

    fn add(&mut self, fan: Fan) {
        let i = fan as usize;
        let n = if self.held & bit(fan) != 0 {
            self.counts[i]
        } else {
            0
        };
        self.counts[i] = n.saturating_add(1);
        self.held |= bit(fan);
    }

    /// Sets `fan` to count once: [`FanTable::set`] to 1, as most fans are found.
    fn one(&mut self, fan: Fan) {
        self.counts[fan as usize] = 1;
        self.held |= bit(fan);
    }

    fn clear(&mut self, fan: Fan) {
        self.held &= !bit(fan);
    }

    /// Drops every fan of the bit set `fans`.
    fn clear_all(&mut self, fans: u128) {
        self.held &= !fans;
    }

    /// Lowers how many times `fan` counts by `n` (to 0 at least).
    fn lower(&mut self, fan: Fan, n: u16) {
        self.set(fan, self.get(fan).saturating_sub(n));
    }

    /// The fans that count, with how many times, in [`Fan`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Fan, u16)> + '_ {
        let mut held = self.held;
        std::iter::from_fn(move || {
            let i = held.trailing_zeros() as usize;
            let fan = *BY_INDEX.get(i)?;
            held &= held - 1;
            fan.map(|f| (f, u16::from(self.counts[i])))
        })
    }

    /// The points of all the fans.
    pub fn points(&self) -> u32 {
        // Each half of the bit set on its own: word-sized bit operations.
        let mut total = 0;
        for (half, base) in [(self.held as u64, 0), ((self.held >> 64) as u64, 64)] {
            let mut held = half;
            while held != 0 {
                let i = base + held.trailing_zeros() as usize;
                total += u32::from(self.counts[i]) * u32::from(POINTS[i]);
                held &= held - 1;
            }
        }
        total
    }

    fn is_empty(&self) -> bool {
        self.held == 0
    }
}

/// The fan at each index of [`FanTable`] (`None` where no fan is numbered).
const BY_INDEX: [Option<Fan>; FAN_COUNT + 1] = {
    let mut by = [None; FAN_COUNT + 1];
    let mut i = 0;
    while i < FAN_COUNT {
        by[Fan::ALL[i] as usize] = Some(Fan::ALL[i]);
        i += 1;
    }
    by
};

/// Each fan's points, indexed as [`FanTable`] indexes the fans (0 where no fan is numbered).
const POINTS: [u16; FAN_COUNT + 1] = {
    let mut p = [0u16; FAN_COUNT + 1];
    let mut i = 0;
    while i < FAN_COUNT {
        p[Fan::ALL[i] as usize] = Fan::ALL[i].points();
        i += 1;
    }
    p
};

impl fmt::Debug for FanTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A hand to score: the declared packs, the concealed tiles and how the last tile came.
#[derive(Clone, Copy, Debug)]
pub struct WinningHand<'a> {
    /// The declared packs (at most four), concealed kongs included.
    pub packs: &'a [Pack],
    /// The concealed tiles without the winning tile: `13 − 3 × packs` of them.
    pub standing: &'a [Tile],
    /// The winning tile: drawn, or claimed from a discard or a kong.
    pub win_tile: Tile,
    /// Flowers set aside, a point each.
    pub flowers: u8,
    /// Won on the seat's own draw.
    pub self_drawn: bool,
    /// The winning tile is the last of its kind (the other three are shown).
    pub fourth_tile: bool,
    /// A kong was involved: the draw replaced a kong, or the claimed tile was added to a kong.
    pub about_kong: bool,
    /// The winning tile is the last of the wall.
    pub wall_last: bool,
    /// The winner's seat wind.
    pub seat_wind: Wind,
    /// The prevalent wind.
    pub prevalent_wind: Wind,
}

/// The best arrangement of a winning hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    /// The fans that count, Flower Tiles included.
    pub table: FanTable,
    /// All points, flowers included (the library's and the judge's total).
    pub total: u32,
}

impl Scored {
    /// The points without the flowers: what the 8-point minimum is about.
    pub fn without_flowers(&self) -> u32 {
        self.total - u32::from(self.table.get(Fan::FlowerTiles))
    }
}

/// Why a hand could not be scored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FanError {
    /// More than four packs, or concealed tiles that do not match the packs.
    #[error("{packs} packs need {} concealed tiles before the winning tile, not {standing}", 13usize.saturating_sub(3 * packs))]
    TileCount {
        /// Packs given.
        packs: usize,
        /// Concealed tiles given.
        standing: usize,
    },
    /// A chow whose middle tile cannot be a middle, or an `offer` out of range.
    #[error(
        "{0} is not a pack: a chow's middle is a numbered 2-8, offers are 1-3 (0 for a concealed kong)"
    )]
    BadPack(Pack),
    /// Five or more of one kind.
    #[error("the hand holds more than four {0}")]
    TooMany(Tile),
    /// The tiles make no winning shape.
    #[error("the hand does not win")]
    NotWin,
}

/// The win flags after step 1 of the module docs.
#[derive(Clone, Copy, Debug)]
struct Flags {
    self_drawn: bool,
    fourth_tile: bool,
    about_kong: bool,
    wall_last: bool,
}

/// What every arrangement of one hand shares.
struct Ctx<'a> {
    hand: &'a WinningHand<'a>,
    flags: Flags,
    /// The concealed tiles with the winning tile.
    closed: Counts,
    /// Every tile: packs (a kong as four), concealed tiles and the winning tile.
    all: Counts,
    /// Bit `i` set for each kind `i` that `all` holds.
    held: u64,
    /// The fans every division shares, set before any division's own: the win flags'
    /// (`by_win_flags`), the concealment of the packs (`basic::by_concealment`), and those
    /// read off all the tiles (`by_suits`, `by_tile_traits`, `by_rank_range`).
    base: FanTable,
    /// How many Tile Hogs the hand has, unless a Quadruple Chow takes the tiles.
    hogs: u16,
}

/// Scores `hand`: the arrangement worth the most (see the module docs).
pub fn evaluate(hand: &WinningHand<'_>) -> Result<Scored, FanError> {
    let packs = hand.packs.len();
    if packs > 4 || hand.standing.len() + 3 * packs != 13 {
        return Err(FanError::TileCount {
            packs,
            standing: hand.standing.len(),
        });
    }
    if let Some(p) = hand.packs.iter().find(|p| !p.is_valid()) {
        return Err(FanError::BadPack(*p));
    }
    // `held`: bit `i` for each kind `i` among all the tiles, as a scan of `all` would read it.
    let mut closed = [0u8; TILE_KINDS];
    let mut held = 1u64 << hand.win_tile.index();
    for t in hand.standing {
        closed[t.index()] += 1;
        held |= 1 << t.index();
    }
    // How many of the winning tile's kind the concealed tiles held before it.
    let standing_win = closed[hand.win_tile.index()];
    closed[hand.win_tile.index()] += 1;
    let mut all = closed;
    // One pass over the packs: their tiles, and how many are kongs and how many claimed.
    let (mut kongs, mut melded) = (0u16, 0);
    for p in hand.packs {
        p.add_to(&mut all);
        let i = p.tile.index();
        held |= match p.kind {
            PackKind::Chow => 0b111 << (i - 1),
            _ => 1 << i,
        };
        kongs += u16::from(p.kind == PackKind::Kong);
        melded += usize::from(p.is_melded());
    }
    let (over, fours) = over_four_and_fours(&all);
    if over && let Some(t) = all.iter().position(|&n| n > 4).and_then(Tile::from_index) {
        return Err(FanError::TooMany(t));
    }

    let win = hand.win_tile.index();
    let mut flags = Flags {
        self_drawn: hand.self_drawn,
        fourth_tile: hand.fourth_tile,
        about_kong: hand.about_kong,
        wall_last: hand.wall_last,
    };
    let in_packs = all[win] - closed[win];
    if standing_win > 0 {
        flags.fourth_tile = false;
    }
    if in_packs == 3 {
        flags.fourth_tile = true;
    }
    if flags.about_kong {
        let keep = if flags.self_drawn {
            kongs > 0
        } else {
            in_packs == 0 && standing_win == 0
        };
        flags.about_kong = keep;
    }
    // Built in place: the context is read by every division, and its table is not small.
    let mut ctx = Ctx {
        hand,
        flags,
        closed,
        all,
        held,
        base: FanTable::default(),
        // Four of a kind not declared as a kong.
        hogs: fours.saturating_sub(kongs),
    };
    by_win_flags(flags, &mut ctx.base);
    basic::by_concealment(melded, flags.self_drawn, &mut ctx.base);
    by_suits(held, &mut ctx.base);
    by_tile_traits(held, &mut ctx.base);
    by_rank_range(held, &mut ctx.base);

    let mut table = FanTable::default();
    let special = match packs {
        0 => {
            (special::may_be_special_form(&ctx) && special::special_form(&ctx, &mut table))
                || (special::may_be_knitted(&ctx) && special::knitted_straight(&ctx, &mut table))
                || special::nine_gates(&ctx, &mut table)
        }
        1 => special::may_be_knitted(&ctx) && special::knitted_straight(&ctx, &mut table),
        _ => false,
    };
    let mut best_points = if special { table.points() } else { 0 };
    if best_points == 0 || table.has(Fan::SevenPairs) {
        let seven_pairs = table.has(Fan::SevenPairs);
        basic::each_division(&ctx, |t| {
            let p = t.points();
            // A later arrangement of equal points replaces the choice when it has Pure Triple
            // Chow or Triple Pung, or against Seven Pairs: the library's tie rule.
            if p > best_points
                || (p == best_points
                    && (t.get(Fan::PureTripleChow) == 1 || seven_pairs || t.has(Fan::TriplePung)))
            {
                best_points = best_points.max(p);
                table = *t;
            }
        });
    }
    if best_points == 0 {
        return Err(FanError::NotWin);
    }
    table.set(Fan::FlowerTiles, u16::from(hand.flowers));
    Ok(Scored {
        total: best_points + u32::from(hand.flowers),
        table,
    })
}

/// The win flags' own fans.
fn by_win_flags(flags: Flags, t: &mut FanTable) {
    if flags.fourth_tile {
        t.one(Fan::LastTile);
    }
    if flags.self_drawn {
        t.one(Fan::SelfDrawn);
        if flags.wall_last {
            t.one(Fan::LastTileDraw);
            t.clear(Fan::SelfDrawn);
        }
        if flags.about_kong {
            t.one(Fan::OutWithReplacementTile);
            t.clear(Fan::SelfDrawn);
        }
    } else {
        if flags.wall_last {
            t.one(Fan::LastTileClaim);
        }
        if flags.about_kong {
            t.one(Fan::RobbingTheKong);
            t.clear(Fan::LastTile);
        }
    }
}

/// Voided suits, flushes, No Honors and All Types, from the kinds `held` (bit `i` for kind
/// `i`) of every tile of the hand.
fn by_suits(held: u64, t: &mut FanTable) {
    const SUIT: u64 = 0x1ff;
    let honours = held >> 27 != 0;
    if !honours {
        t.one(Fan::NoHonors);
    }
    let voids = (0..3).filter(|&s| held & SUIT << (9 * s) == 0).count() as u16;
    t.set(Fan::OneVoidedSuit, voids);
    if voids == 2 {
        t.clear(Fan::OneVoidedSuit);
        if honours {
            t.one(Fan::HalfFlush);
        } else {
            t.one(Fan::FullFlush);
            t.clear(Fan::NoHonors);
        }
    }
    if voids == 0 && held & 0xf << 27 != 0 && held & 0x7 << 31 != 0 {
        t.one(Fan::AllTypes);
    }
}

/// The kinds with a trait (one of `Tile`'s `is_…` tests, chosen by `which`), as a bit mask.
const fn kinds_with(which: u8) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < TILE_KINDS {
        if let Some(x) = Tile::from_index(i) {
            let has = match which {
                0 => x.is_terminal_or_honour(),
                1 => x.is_reversible(),
                2 => x.is_green(),
                3 => x.is_honour(),
                _ => x.is_terminal(),
            };
            if has {
                m |= 1 << i;
            }
        }
        i += 1;
    }
    m
}

const TERMINALS_AND_HONOURS: u64 = kinds_with(0);
const REVERSIBLE: u64 = kinds_with(1);
const GREEN: u64 = kinds_with(2);
const HONOURS: u64 = kinds_with(3);
const TERMINALS: u64 = kinds_with(4);

/// All Simples, Reversible Tiles, All Green, All Honors, All Terminals, All Terminals and
/// Honors: what every tile shares, from the kinds `held` (bit `i` for kind `i`).
fn by_tile_traits(held: u64, t: &mut FanTable) {
    let every = |mask: u64| held & !mask == 0;
    if every(!TERMINALS_AND_HONOURS) {
        t.one(Fan::AllSimples);
    }
    if every(REVERSIBLE) {
        t.one(Fan::ReversibleTiles);
    }
    if every(GREEN) {
        t.one(Fan::AllGreen);
    }
    if t.has(Fan::AllSimples) {
        return;
    }
    if every(HONOURS) {
        t.one(Fan::AllHonors);
    } else if every(TERMINALS) {
        t.one(Fan::AllTerminals);
    } else if every(TERMINALS_AND_HONOURS) {
        t.one(Fan::AllTerminalsAndHonors);
    }
}

/// Upper, Middle and Lower Tiles, Upper and Lower Four: the range of the ranks, from the kinds
/// `held` (bit `i` for kind `i`).
fn by_rank_range(held: u64, t: &mut FanTable) {
    if held & HONOURS != 0 {
        return;
    }
    // Bit r − 1 for each rank r held in any suit.
    let ranks = (held | held >> 9 | held >> 18) & 0x1ff;
    let only = |lo: u32, hi: u32| ranks & !(((1u64 << (hi - lo + 1)) - 1) << (lo - 1)) == 0;
    let has = |r: u32| ranks >> (r - 1) & 1 == 1;
    if only(1, 4) {
        t.set(
            if has(4) {
                Fan::LowerFour
            } else {
                Fan::LowerTiles
            },
            1,
        );
    } else if only(6, 9) {
        t.set(
            if has(6) {
                Fan::UpperFour
            } else {
                Fan::UpperTiles
            },
            1,
        );
    } else if only(4, 6) {
        t.one(Fan::MiddleTiles);
    }
}

/// Tile Hog: four of a kind (`tiles` counts a kong as four) not declared as one of the
/// `kongs` kongs.
fn by_tile_hog(tiles: &Counts, kongs: usize, t: &mut FanTable) {
    t.set(Fan::TileHog, hogs(tiles, kongs));
}

/// How many Tile Hogs `tiles` (a kong counted as four) beside `kongs` kongs make.
fn hogs(tiles: &Counts, kongs: usize) -> u16 {
    over_four_and_fours(tiles).1.saturating_sub(kongs as u16)
}

/// Whether some count of `c` is above 4, and (when none is) how many kinds hold four: eight
/// counts at a time, as the bytes of a word.
fn over_four_and_fours(c: &Counts) -> (bool, u16) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let (mut over, mut fours) = (0u64, 0u32);
    let mut word = |x: u64| {
        // A count is at most 14 + 4 · 4: adding 0x7b sets a byte's top bit exactly for a count
        // above 4, and carries into no other byte.
        over |= x.wrapping_add(0x7b * ONES) & (0x80 * ONES);
        // Bit 2 of a count 0–4 is set exactly for four.
        fours += (x >> 2 & ONES).count_ones();
    };
    for chunk in c.chunks_exact(8) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        word(u64::from_le_bytes(b));
    }
    let rest = c.len() / 8 * 8;
    let mut b = [0u8; 8];
    b[..c.len() - rest].copy_from_slice(&c[rest..]);
    word(u64::from_le_bytes(b));
    (over != 0, fours as u16)
}

/// Prevalent and Seat Wind for a pung of `wind`, which then no longer counts as a Pung of
/// Terminals or Honors (unless a wind fan has already taken those pungs).
fn by_winds(wind: Tile, hand: &WinningHand<'_>, t: &mut FanTable) {
    let deducted = t.has(Fan::BigThreeWinds)
        || t.has(Fan::AllTerminalsAndHonors)
        || t.has(Fan::AllHonors)
        || t.has(Fan::LittleFourWinds);
    if wind == hand.prevalent_wind.tile() {
        t.one(Fan::PrevalentWind);
        if !deducted {
            t.lower(Fan::PungOfTerminalsOrHonors, 1);
        }
    }
    if wind == hand.seat_wind.tile() {
        t.one(Fan::SeatWind);
        if hand.seat_wind != hand.prevalent_wind && !deducted {
            t.lower(Fan::PungOfTerminalsOrHonors, 1);
        }
    }
}

/// A rule of the non-repeat principle: a fan (as its bit) and the fans it drops.
type Rule = (u128, u128);

const fn rule(fan: Fan, drops: &[Fan]) -> Rule {
    (bit(fan), bits(drops))
}

/// The non-repeat rules applied before Four Concealed Pungs', in order.
const RULES_FIRST: [Rule; 8] = {
    use Fan::*;
    [
        rule(BigFourWinds, &[AllPungs, PungOfTerminalsOrHonors]),
        rule(BigThreeDragons, &[DragonPung]),
        rule(AllGreen, &[HalfFlush, OneVoidedSuit]),
        rule(FourKongs, &[SingleWait]),
        rule(
            AllTerminals,
            &[
                AllPungs,
                OutsideHand,
                PungOfTerminalsOrHonors,
                NoHonors,
                DoublePung,
            ],
        ),
        rule(LittleFourWinds, &[PungOfTerminalsOrHonors]),
        rule(LittleThreeDragons, &[DragonPung]),
        rule(
            AllHonors,
            &[
                AllPungs,
                OutsideHand,
                PungOfTerminalsOrHonors,
                OneVoidedSuit,
            ],
        ),
    ]
};

/// The non-repeat rules applied after Four Concealed Pungs' and before Big Three Winds', in
/// order.
const RULES_MIDDLE: [Rule; 11] = {
    use Fan::*;
    [
        rule(PureTerminalChows, &[FullFlush, AllChows, NoHonors]),
        rule(FourPureShiftedPungs, &[AllPungs]),
        rule(
            AllTerminalsAndHonors,
            &[AllPungs, OutsideHand, PungOfTerminalsOrHonors],
        ),
        rule(AllEvenPungs, &[AllPungs, AllSimples, NoHonors]),
        rule(UpperTiles, &[NoHonors]),
        rule(MiddleTiles, &[AllSimples, NoHonors]),
        rule(LowerTiles, &[NoHonors]),
        rule(ThreeSuitedTerminalChows, &[AllChows, NoHonors]),
        rule(AllFive, &[AllSimples, NoHonors]),
        rule(UpperFour, &[NoHonors]),
        rule(LowerFour, &[NoHonors]),
    ]
};

/// The last non-repeat rules, in order.
const RULES_LAST: [Rule; 8] = {
    use Fan::*;
    [
        rule(ReversibleTiles, &[OneVoidedSuit]),
        rule(LastTileDraw, &[SelfDrawn]),
        rule(OutWithReplacementTile, &[SelfDrawn]),
        rule(MeldedHand, &[SingleWait]),
        rule(TwoDragonsPungs, &[DragonPung]),
        rule(FullyConcealedHand, &[SelfDrawn]),
        rule(AllChows, &[NoHonors]),
        rule(AllSimples, &[NoHonors]),
    ]
};

/// Every fan that triggers a rule of [`RULES_FIRST`], [`RULES_MIDDLE`] or [`RULES_LAST`].
const TRIGGERS: [u128; 3] = {
    let mut out = [0; 3];
    let mut i = 0;
    while i < RULES_FIRST.len() {
        out[0] |= RULES_FIRST[i].0;
        i += 1;
    }
    let mut i = 0;
    while i < RULES_MIDDLE.len() {
        out[1] |= RULES_MIDDLE[i].0;
        i += 1;
    }
    let mut i = 0;
    while i < RULES_LAST.len() {
        out[2] |= RULES_LAST[i].0;
        i += 1;
    }
    out
};

/// The non-repeat principle: each fan drops the fans its definition already implies (those
/// not already kept out where the fans are found). The rules apply in order, each to what the
/// ones before it left; a group none of whose fans the hand has is skipped whole.
fn exclusions(t: &mut FanTable) {
    use Fan::*;
    drop_implied(&RULES_FIRST, TRIGGERS[0], t);
    if t.has(FourConcealedPungs) {
        t.clear(AllPungs);
        t.clear(ConcealedHand);
        if t.has(FullyConcealedHand) {
            t.clear(FullyConcealedHand);
            t.one(SelfDrawn);
        }
    }
    drop_implied(&RULES_MIDDLE, TRIGGERS[1], t);
    if t.has(BigThreeWinds) && !t.has(AllHonors) && !t.has(AllTerminalsAndHonors) {
        // The three wind pungs are not also Pungs of Terminals or Honors.
        t.lower(PungOfTerminalsOrHonors, 3);
    }
    drop_implied(&RULES_LAST, TRIGGERS[2], t);
}

fn drop_implied(rules: &[Rule], triggers: u128, t: &mut FanTable) {
    let mut hit = t.held & triggers;
    if hit == 0 {
        return;
    }
    // Within a group no rule drops another's trigger (asserted at compile time below), so the
    // order of its rules does not matter: each trigger held drops its fans.
    let mut drops = 0;
    while hit != 0 {
        drops |= DROPS[hit.trailing_zeros() as usize];
        hit &= hit - 1;
    }
    debug_assert!(
        rules
            .iter()
            .all(|&(fan, d)| fan & triggers == fan && d & triggers == 0)
    );
    t.clear_all(drops);
}

/// The fans each fan drops by the rules of [`RULES_FIRST`], [`RULES_MIDDLE`] and
/// [`RULES_LAST`], indexed as [`FanTable`] indexes the fans.
const DROPS: [u128; 128] = {
    let mut out = [0u128; 128];
    let groups: [&[Rule]; 3] = [&RULES_FIRST, &RULES_MIDDLE, &RULES_LAST];
    let mut g = 0;
    while g < 3 {
        let mut i = 0;
        while i < groups[g].len() {
            let (fan, drops) = groups[g][i];
            out[fan.trailing_zeros() as usize] |= drops;
            i += 1;
        }
        g += 1;
    }
    out
};

/// No rule drops a fan that triggers a rule of its own group, and no fan triggers rules of two
/// groups: what lets [`drop_implied`] apply a group's rules in any order, from [`DROPS`].
const _: () = {
    assert!(TRIGGERS[0] & TRIGGERS[1] == 0);
    assert!(TRIGGERS[0] & TRIGGERS[2] == 0);
    assert!(TRIGGERS[1] & TRIGGERS[2] == 0);
    let groups: [&[Rule]; 3] = [&RULES_FIRST, &RULES_MIDDLE, &RULES_LAST];
    let mut g = 0;
    while g < 3 {
        let mut i = 0;
        while i < groups[g].len() {
            assert!(groups[g][i].1 & TRIGGERS[g] == 0);
            i += 1;
        }
        g += 1;
    }
};
