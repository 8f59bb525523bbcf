//! Scoring one reading of a hand, and choosing the best reading.

use super::split::{self, for_each_split};
use super::{
    Explained, Fan, FanList, FanResult, Reading, Seed2015Rule, Set, Shape, WinHand, WinPlace,
    melded_kongs,
};
use crate::meld::{KongKind, Meld};
use crate::tile::{Counts, TILE_KINDS, Tile};

/// What the whole hand's tiles say, whatever the reading: the fans that depend only on which
/// tiles there are.
#[derive(Copy, Clone, Debug)]
pub(super) struct Tiles {
    /// Bit s set when suit s (0 characters, 1 bamboo, 2 dots) appears.
    suits: u8,
    winds: bool,
    dragons: bool,
    terminals: bool,
    /// Some tile is neither a terminal nor an honour.
    simples: bool,
    /// Every tile is in 2S 3S 4S 6S 8S 发.
    green: bool,
    /// Every kind's count, the melds included.
    pub(super) held: Counts,
}

const GREEN: [usize; 6] = [10, 11, 12, 14, 16, 32];

impl Tiles {
    pub(super) fn new(full: &Counts, melds: &[Meld]) -> Tiles {
        let mut held = *full;
        for m in melds {
            match *m {
                Meld::Chow(t) => {
                    for i in 0..3 {
                        held[t.index() + i] += 1;
                    }
                }
                Meld::Pung(t) => held[t.index()] += 3,
                Meld::Kong(t, _) => held[t.index()] += 4,
            }
        }
        let mut t = Tiles {
            suits: 0,
            winds: false,
            dragons: false,
            terminals: false,
            simples: false,
            green: true,
            held,
        };
        for (i, &c) in held.iter().enumerate() {
            if c == 0 {
                continue;
            }
            match i {
                0..27 => {
                    t.suits |= 1 << (i / 9);
                    if matches!(i % 9, 0 | 8) {
                        t.terminals = true;
                    } else {
                        t.simples = true;
                    }
                }
                27..31 => t.winds = true,
                _ => t.dragons = true,
            }
            t.green &= GREEN.contains(&i);
        }
        t
    }

    fn honours(&self) -> bool {
        self.winds || self.dragons
    }

    fn one_suit(&self) -> bool {
        self.suits.count_ones() == 1
    }

    /// The fans of the tiles alone, for every shape: 绿一色, 字一色, 清幺九, 混幺九, 清一色,
    /// 混一色, 五门齐, 断幺. Returns whether the hand is 字一色, 清幺九 or 混幺九 (which exclude
    /// 碰碰和).
    fn add_tile_fans(&self, fans: &mut FanList, shape: ShapeKind, reading: Reading) -> bool {
        let orphans_only = !self.simples;
        let all_honours = self.suits == 0;
        let all_terminals = orphans_only && !self.honours();
        let terminals_and_honours = orphans_only && self.terminals && self.honours();
        let orphans = shape == ShapeKind::ThirteenOrphans;
        fans.add_if(Fan::AllGreen, self.green);
        fans.add_if(Fan::AllHonours, all_honours);
        fans.add_if(Fan::AllTerminals, all_terminals);
        fans.add_if(
            Fan::AllTerminalsAndHonours,
            terminals_and_honours
                && (!orphans || reading.has(Seed2015Rule::ThirteenOrphansWithTerminalsAndHonours)),
        );
        fans.add_if(Fan::FullFlush, self.one_suit() && !self.honours());
        fans.add_if(Fan::HalfFlush, self.one_suit() && self.honours());
        fans.add_if(
            Fan::AllTypes,
            self.suits == 0b111 && self.winds && self.dragons && !orphans,
        );
        fans.add_if(
            Fan::AllSimples,
            !orphans_only && !self.terminals && !self.honours(),
        );
        all_honours || all_terminals || terminals_and_honours
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum ShapeKind {
    Standard,
    SevenPairs,
    ThirteenOrphans,
}

impl FanList {
    fn add_if(&mut self, fan: Fan, cond: bool) {
        if cond {
            self.add(fan, 1);
        }
    }
}

/// A set as the fans see it.
#[derive(Copy, Clone)]
struct Seen {
    tile: usize,
    chow: bool,
    kong: bool,
    concealed: bool,
}

/// The fans of one standard reading: `sets` (melds first), `pair`, and where the winning tile
/// went. `single_wait` says (lazily) whether the hand waits on the winning tile alone.
pub(super) fn standard(
    hand: &WinHand<'_>,
    tiles: &Tiles,
    sets: &[Set; 4],
    pair: Tile,
    win: WinPlace,
    reading: Reading,
    single_wait: &mut impl FnMut() -> bool,
) -> FanList {
    let discard_win = !hand.self_drawn;
    let seen = |i: usize| -> Seen {
        let (tile, chow, kong, concealed) = match sets[i] {
            Set::Meld(Meld::Chow(t)) => (t, true, false, false),
            Set::Meld(Meld::Pung(t)) => (t, false, false, false),
            Set::Meld(Meld::Kong(t, k)) => (t, false, true, k == KongKind::Concealed),
            Set::Chow(t) => (t, true, false, true),
            Set::Pung(t) => (
                t,
                false,
                false,
                // A pung the discard completed was half made of another seat's tile.
                !(discard_win && win == WinPlace::Set(i as u8))
                    || reading.has(Seed2015Rule::DiscardPungConcealed),
            ),
        };
        Seen {
            tile: tile.index(),
            chow,
            kong,
            concealed,
        }
    };
    let sets: [Seen; 4] = std::array::from_fn(seen);
    let mut chow_kinds = [0u8; 27];
    let mut pung_at = [false; TILE_KINDS];
    let (mut chows, mut pungs, mut kongs, mut concealed_kongs, mut concealed_pungs) =
        (0u32, 0u32, 0u32, 0u32, 0u32);
    let (mut wind_pungs, mut dragon_pungs) = (0u32, 0u32);
    for s in &sets {
        if s.chow {
            chows += 1;
            chow_kinds[s.tile] += 1;
            continue;
        }
        pungs += 1;
        pung_at[s.tile] = true;
        kongs += s.kong as u32;
        concealed_kongs += (s.kong && s.concealed) as u32;
        concealed_pungs += s.concealed as u32;
        wind_pungs += (27..31).contains(&s.tile) as u32;
        dragon_pungs += (s.tile >= 31) as u32;
    }
    let max_same_chow = chow_kinds.iter().copied().max().unwrap_or(0);
    let mixed_triple_chow = (0..7).any(|r| (0..3).all(|s| chow_kinds[s * 9 + r] > 0));
    let triple_pung = (0..9).any(|r| (0..3).all(|s| pung_at[s * 9 + r]));
    let pure_doubles = chow_kinds.iter().filter(|&&n| n == 2).count() as u32;
    let mixed_doubles: u32 = (0..7)
        .map(|r| {
            let suits = (0..3).filter(|s| chow_kinds[s * 9 + r] > 0).count() as u32;
            suits * suits.saturating_sub(1) / 2
        })
        .sum();
    let melded = melded_kongs(hand.melds);
    let pair_i = pair.index();

    let big_four = wind_pungs == 4;
    let big_three = dragon_pungs == 3;
    let little_four = wind_pungs == 3 && (27..31).contains(&pair_i);
    let little_three = dragon_pungs == 2 && pair_i >= 31;
    let four_kongs = kongs == 4;
    let three_kongs = kongs == 3;
    let four_concealed = concealed_pungs == 4;
    let quadruple = max_same_chow == 4;
    let pure_triple = max_same_chow == 3;

    let mut fans = FanList::new();
    fans.add_if(Fan::BigFourWinds, big_four);
    fans.add_if(Fan::BigThreeDragons, big_three);
    fans.add_if(Fan::FourKongs, four_kongs);
    fans.add_if(Fan::LittleFourWinds, little_four);
    fans.add_if(Fan::LittleThreeDragons, little_three);
    fans.add_if(Fan::FourConcealedPungs, four_concealed);
    fans.add_if(Fan::QuadrupleChow, quadruple);
    fans.add_if(Fan::ThreeKongs, three_kongs);
    fans.add_if(Fan::PureTripleChow, pure_triple);
    fans.add_if(Fan::TriplePung, triple_pung);
    fans.add_if(Fan::ThreeConcealedPungs, concealed_pungs == 3);
    fans.add_if(Fan::MixedTripleChow, mixed_triple_chow);
    let orphan_only = tiles.add_tile_fans(&mut fans, ShapeKind::Standard, reading);
    fans.add_if(
        Fan::AllPungs,
        pungs == 4 && !(big_four || four_concealed || four_kongs || orphan_only),
    );
    let closed = hand.melds.iter().all(|m| m.is_concealed());
    fans.add_if(
        Fan::ConcealedHand,
        closed
            && (!four_concealed || reading.has(Seed2015Rule::FourConcealedPungsKeepsConcealedHand)),
    );
    fans.add_if(
        Fan::AllChows,
        chows == 4 && (pair_i < 27 || reading.has(Seed2015Rule::AllChowsWithHonourPair)),
    );
    if !(big_three || little_three) {
        fans.add(Fan::DragonPung, dragon_pungs);
    }
    fans.add(Fan::ConcealedKong, concealed_kongs);
    fans.add_if(Fan::SelfDrawn, hand.self_drawn);
    if !(quadruple || pure_triple) {
        fans.add(Fan::PureDoubleChow, pure_doubles);
    }
    if !mixed_triple_chow {
        fans.add(Fan::MixedDoubleChow, mixed_doubles);
    }
    let melded_counts = if three_kongs || four_kongs {
        reading.has(Seed2015Rule::MeldedKongsBesideThreeOrFourKongs) && matches!(melded, 1 | 2)
    } else {
        true
    };
    if melded_counts {
        fans.add(Fan::MeldedKong, melded);
    }
    if !reading.has(Seed2015Rule::SingleWaitAfterMaximisation) {
        fans.add_if(
            Fan::SingleWait,
            win == WinPlace::Pair && pair == hand.win && single_wait(),
        );
    }
    fans
}

/// The fans of seven pairs: 七对 and the tile fans (七对 excludes 门前清 and 单钓将).
pub(super) fn seven_pairs(hand: &WinHand<'_>, tiles: &Tiles, reading: Reading) -> FanList {
    let mut fans = FanList::new();
    fans.add(Fan::SevenPairs, 1);
    tiles.add_tile_fans(&mut fans, ShapeKind::SevenPairs, reading);
    fans.add_if(Fan::SelfDrawn, hand.self_drawn);
    fans
}

/// The fans of thirteen orphans: 十三幺 (excluding 五门齐, 门前清, 单钓将 and, in the contest
/// reading, 混幺九) and 自摸.
pub(super) fn thirteen_orphans(hand: &WinHand<'_>, tiles: &Tiles, reading: Reading) -> FanList {
    let mut fans = FanList::new();
    fans.add(Fan::ThirteenOrphans, 1);
    tiles.add_tile_fans(&mut fans, ShapeKind::ThirteenOrphans, reading);
    fans.add_if(Fan::SelfDrawn, hand.self_drawn);
    fans
}

/// The places the winning tile can have gone in a split: the pair, a concealed pung of its kind,
/// a concealed chow holding it (which chow makes no difference to any fan). At most three.
fn win_places(sets: &[Set; 4], pair: Tile, win: Tile, out: &mut [WinPlace; 3]) -> usize {
    let mut n = 0;
    if pair == win {
        out[n] = WinPlace::Pair;
        n += 1;
    }
    let w = win.index();
    if let Some(i) = sets.iter().position(|s| *s == Set::Pung(win)) {
        out[n] = WinPlace::Set(i as u8);
        n += 1;
    }
    if let Some(i) = sets
        .iter()
        .position(|s| matches!(*s, Set::Chow(t) if (t.index()..t.index() + 3).contains(&w)))
    {
        out[n] = WinPlace::Set(i as u8);
        n += 1;
    }
    n
}

/// The highest-scoring reading of the hand (`full`: its concealed tiles with the winning tile),
/// or `None` if no shape wins.
pub(super) fn best(hand: &WinHand<'_>, full: &Counts, reading: Reading) -> Option<Explained> {
    let tiles = Tiles::new(full, hand.melds);
    let mut best: Option<Explained> = None;
    let mut consider = |fans: FanList, shape: Shape| {
        let total = fans.total();
        if best.is_none_or(|b| total > b.result.total) {
            best = Some(Explained {
                result: FanResult { total, fans },
                shape,
            });
        }
    };
    if hand.melds.is_empty() {
        if split::is_thirteen_orphans(full, reading) {
            let pair = split::orphans_pair(full);
            consider(
                thirteen_orphans(hand, &tiles, reading),
                Shape::ThirteenOrphans { pair },
            );
        }
        if crate::shape::is_seven_pairs(full) {
            let mut pairs = [Tile::default(); 7];
            let mut n = 0;
            for (i, &c) in full.iter().enumerate() {
                for _ in 0..c / 2 {
                    pairs[n] = Tile::from_index(i).expect("index < 34");
                    n += 1;
                }
            }
            consider(
                seven_pairs(hand, &tiles, reading),
                Shape::SevenPairs { pairs },
            );
        }
    }
    let mut single: Option<bool> = None;
    let mut single_wait = || {
        *single.get_or_insert_with(|| {
            split::single_wait(
                &hand.concealed,
                &before_held(&tiles.held, hand.win),
                hand.win,
                reading,
            )
        })
    };
    let declared = hand.melds.len();
    for_each_split(full, |pair, concealed_sets| {
        let mut sets = [Set::Chow(Tile::default()); 4];
        for (s, m) in sets.iter_mut().zip(hand.melds) {
            *s = Set::Meld(*m);
        }
        sets[declared..].copy_from_slice(concealed_sets);
        let mut places = [WinPlace::Pair; 3];
        let n = win_places(&sets, pair, hand.win, &mut places);
        // Where the winning tile went matters only to 单钓将 and to whether a pung is
        // concealed, neither of which the 2015 server looked at per split.
        let n = if reading.has(Seed2015Rule::SingleWaitAfterMaximisation)
            && reading.has(Seed2015Rule::DiscardPungConcealed)
        {
            n.min(1)
        } else {
            n
        };
        for &win in &places[..n] {
            let fans = standard(hand, &tiles, &sets, pair, win, reading, &mut single_wait);
            consider(fans, Shape::Standard { sets, pair, win });
        }
    });
    let mut best = best?;
    if reading.has(Seed2015Rule::SingleWaitAfterMaximisation)
        && matches!(best.shape, Shape::Standard { .. })
        && single_wait()
    {
        best.result.fans.add(Fan::SingleWait, 1);
        best.result.total += Fan::SingleWait.points();
    }
    Some(best)
}

/// The hand's counts (melds included) before the winning tile.
fn before_held(held: &Counts, win: Tile) -> Counts {
    let mut h = *held;
    h[win.index()] -= 1;
    h
}
