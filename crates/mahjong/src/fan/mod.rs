//! Fan scoring: the contest's 32 fans, in two readings.
//!
//! [`evaluate`] takes a winning hand ([`WinHand`]) and a [`Reading`] and returns the fans of the
//! highest-scoring reading of the hand ([`FanResult`]), or why the hand is not a win
//! ([`NotAWin`]).
//!
//! - [`Reading::Contest`] (the default) is the README's list with the Guobiao meaning of each
//!   fan and the README's exclusions (不计), as ruled in the contest brief.
//! - [`Reading::Seed2015`] is the 2015 server's evaluator as it behaved. Every way it differs
//!   from the contest reading is one [`Seed2015Rule`], and nothing else differs.
//!
//! Every decomposition of the concealed tiles (chows, pungs and one pair; seven pairs; thirteen
//! orphans) is scored and the highest total kept; on a tie the first found is kept, the special
//! shapes (thirteen orphans, then seven pairs) before the standard splits. Evaluation allocates
//! nothing: the decompositions are enumerated on the stack.

mod input;
mod score;
mod split;

pub use input::{HandInput, InputError, OwnedHand};

#[cfg(test)]
mod tests;

use std::fmt;

use crate::meld::{KongKind, Meld};
use crate::rules::Reading;
use crate::tile::{Counts, TILE_KINDS, Tile};

impl Reading {
    /// Whether a rule of the 2015 server holds in this reading (all of them in `seed-2015`,
    /// none in `contest`).
    pub const fn has(self, _rule: Seed2015Rule) -> bool {
        matches!(self, Reading::Seed2015)
    }
}

/// The ways the 2015 server's evaluator scored differently from the contest reading
/// (`mahjong-2015-fans.md`). [`Reading::Seed2015`] applies all of them, [`Reading::Contest`] none.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seed2015Rule {
    /// 十三幺 is any 14 concealed terminals and honours in which exactly one kind appears more
    /// than once; the 13 kinds need not all be there.
    LooseThirteenOrphans,
    /// 十三幺 does not exclude 混幺九: it scores 88 + 32.
    ThirteenOrphansWithTerminalsAndHonours,
    /// A pung completed by the discard (or robbed kong) that wins counts as concealed for 三暗刻
    /// and 四暗刻.
    DiscardPungConcealed,
    /// 四暗刻 does not exclude 门前清.
    FourConcealedPungsKeepsConcealedHand,
    /// With three or four kongs, 明杠 still counts (1 each) when one or two of the kongs are
    /// exposed or added; the contest reading counts no 明杠 beside 三杠 or 四杠.
    MeldedKongsBesideThreeOrFourKongs,
    /// 平和's pair may be a wind or a dragon.
    AllChowsWithHonourPair,
    /// The unique-wait fan is decided after the best reading is chosen, outside the
    /// maximisation: +1 when the best reading is not seven pairs or thirteen orphans and the hand
    /// without the winning tile waits on no other kind, so edge and closed waits count as well as
    /// a wait for the pair. (The contest's 单钓将 is a single wait for the pair, scored inside
    /// each reading.)
    SingleWaitAfterMaximisation,
    /// The unique-wait fan is spelled 单调将 (the README writes 单钓将).
    SingleWaitSpelledDiao,
}

impl Seed2015Rule {
    /// Every rule, in the order of `mahjong-2015-fans.md`.
    pub const ALL: [Seed2015Rule; 8] = [
        Seed2015Rule::LooseThirteenOrphans,
        Seed2015Rule::ThirteenOrphansWithTerminalsAndHonours,
        Seed2015Rule::DiscardPungConcealed,
        Seed2015Rule::FourConcealedPungsKeepsConcealedHand,
        Seed2015Rule::MeldedKongsBesideThreeOrFourKongs,
        Seed2015Rule::AllChowsWithHonourPair,
        Seed2015Rule::SingleWaitAfterMaximisation,
        Seed2015Rule::SingleWaitSpelledDiao,
    ];
}

macro_rules! fans {
    ($($(#[$doc:meta])* $v:ident = $name:literal, $english:literal, $points:literal;)*) => {
        /// One of the contest's 32 fans, in the README's order (highest first).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Fan { $($(#[$doc])* $v,)* }

        impl Fan {
            /// Every fan, in the README's order.
            pub const ALL: [Fan; 32] = [$(Fan::$v,)*];

            /// The fan's points, once (a fan that counts several times scores this each time).
            pub const fn points(self) -> u32 {
                match self { $(Fan::$v => $points,)* }
            }

            const fn readme_name(self) -> &'static str {
                match self { $(Fan::$v => $name,)* }
            }

            /// The fan's usual English name (as Guobiao rule books in English give it), for
            /// readers who do not read the Chinese.
            pub const fn english(self) -> &'static str {
                match self { $(Fan::$v => $english,)* }
            }
        }
    };
}

fans! {
    /// 大四喜: pungs (or kongs) of all four winds.
    BigFourWinds = "大四喜", "Big Four Winds", 88;
    /// 大三元: pungs (or kongs) of all three dragons.
    BigThreeDragons = "大三元", "Big Three Dragons", 88;
    /// 十三幺: one of each terminal and honour, one of them twice.
    ThirteenOrphans = "十三幺", "Thirteen Orphans", 88;
    /// 绿一色: only 2S 3S 4S 6S 8S and 发.
    AllGreen = "绿一色", "All Green", 88;
    /// 四杠: four kongs.
    FourKongs = "四杠", "Four Kongs", 88;
    /// 小四喜: pungs of three winds and a pair of the fourth.
    LittleFourWinds = "小四喜", "Little Four Winds", 64;
    /// 小三元: pungs of two dragons and a pair of the third.
    LittleThreeDragons = "小三元", "Little Three Dragons", 64;
    /// 字一色: only winds and dragons.
    AllHonours = "字一色", "All Honours", 64;
    /// 四暗刻: four concealed pungs (or concealed kongs).
    FourConcealedPungs = "四暗刻", "Four Concealed Pungs", 64;
    /// 清幺九: only terminals (1s and 9s), no honours.
    AllTerminals = "清幺九", "All Terminals", 64;
    /// 一色四同顺: four identical chows.
    QuadrupleChow = "一色四同顺", "Quadruple Chow", 48;
    /// 三杠: three kongs.
    ThreeKongs = "三杠", "Three Kongs", 32;
    /// 混幺九: only terminals and honours, with both.
    AllTerminalsAndHonours = "混幺九", "All Terminals and Honours", 32;
    /// 七对: seven pairs.
    SevenPairs = "七对", "Seven Pairs", 24;
    /// 清一色: one suit only, no honours.
    FullFlush = "清一色", "Full Flush", 24;
    /// 一色三同顺: three identical chows.
    PureTripleChow = "一色三同顺", "Pure Triple Chow", 24;
    /// 三同刻: pungs of one number in all three suits.
    TriplePung = "三同刻", "Triple Pung", 16;
    /// 三暗刻: three concealed pungs (or concealed kongs).
    ThreeConcealedPungs = "三暗刻", "Three Concealed Pungs", 16;
    /// 三色三同顺: chows of the same numbers in all three suits.
    MixedTripleChow = "三色三同顺", "Mixed Triple Chow", 8;
    /// 碰碰和: four pungs or kongs.
    AllPungs = "碰碰和", "All Pungs", 6;
    /// 混一色: one suit and honours.
    HalfFlush = "混一色", "Half Flush", 6;
    /// 五门齐: characters, bamboo, dots, a wind and a dragon.
    AllTypes = "五门齐", "All Types", 6;
    /// 门前清: no chow, pung or exposed or added kong declared (concealed kongs allowed).
    ConcealedHand = "门前清", "Concealed Hand", 2;
    /// 断幺: no terminals, no honours.
    AllSimples = "断幺", "All Simples", 2;
    /// 平和: four chows and a pair of a suit.
    AllChows = "平和", "All Chows", 2;
    /// 箭刻: a dragon pung or kong (each).
    DragonPung = "箭刻", "Dragon Pung", 2;
    /// 暗杠: a concealed kong (each).
    ConcealedKong = "暗杠", "Concealed Kong", 2;
    /// 自摸: won on one's own draw.
    SelfDrawn = "自摸", "Self-Drawn", 1;
    /// 一般高: two identical chows (each kind of chow held exactly twice).
    PureDoubleChow = "一般高", "Pure Double Chow", 1;
    /// 喜相逢: chows of the same numbers in two suits (each such pair of chow kinds).
    MixedDoubleChow = "喜相逢", "Mixed Double Chow", 1;
    /// 明杠: an exposed or added kong (each).
    MeldedKong = "明杠", "Melded Kong", 1;
    /// 单钓将: won on a single wait for the pair.
    SingleWait = "单钓将", "Single Wait", 1;
}

impl Fan {
    /// The fan's name as the reading spells it: the README's, except 单调将 for
    /// [`Fan::SingleWait`] under [`Reading::Seed2015`].
    pub const fn name(self, reading: Reading) -> &'static str {
        match self {
            Fan::SingleWait if reading.has(Seed2015Rule::SingleWaitSpelledDiao) => "单调将",
            _ => self.readme_name(),
        }
    }

    /// The fan a name spells, in either reading's spelling (`单调将` and `单钓将` are both
    /// [`Fan::SingleWait`]); `None` for a name no fan has.
    pub fn of_name(name: &str) -> Option<Fan> {
        Fan::ALL
            .into_iter()
            .find(|f| f.name(Reading::Contest) == name || f.name(Reading::Seed2015) == name)
    }
}

/// The points of each fan a hand scores (a fan counted several times holds the sum, e.g. two
/// concealed kongs are 暗杠 4). Fixed size, no allocation.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct FanList {
    points: [u8; 32],
}

impl FanList {
    /// No fans.
    pub const fn new() -> FanList {
        FanList { points: [0; 32] }
    }

    /// Adds `times` counts of `fan`.
    pub(crate) fn add(&mut self, fan: Fan, times: u32) {
        // At most 4 counts of any fan (four kongs, four chows): 4 × 88 would not fit, but only
        // the 1- and 2-point fans count more than once.
        self.points[fan as usize] += (fan.points() * times) as u8;
    }

    /// The points `fan` scores here (0 if the hand does not have it).
    pub const fn points(&self, fan: Fan) -> u32 {
        self.points[fan as usize] as u32
    }

    /// The fans scored, in the README's order, with their points.
    pub fn iter(&self) -> FanIter<'_> {
        FanIter {
            list: self,
            next: 0,
        }
    }

    /// How many different fans are scored.
    pub fn len(&self) -> usize {
        self.points.iter().filter(|&&p| p > 0).count()
    }

    /// No fan scored.
    pub fn is_empty(&self) -> bool {
        self.points.iter().all(|&p| p == 0)
    }

    /// The sum of the points.
    pub fn total(&self) -> u32 {
        self.points.iter().map(|&p| p as u32).sum()
    }
}

/// The fans of a [`FanList`] with their points, in the README's order.
#[derive(Clone, Debug)]
pub struct FanIter<'a> {
    list: &'a FanList,
    next: usize,
}

impl Iterator for FanIter<'_> {
    type Item = (Fan, u32);

    fn next(&mut self) -> Option<(Fan, u32)> {
        while let Some(&fan) = Fan::ALL.get(self.next) {
            self.next += 1;
            let points = self.list.points(fan);
            if points > 0 {
                return Some((fan, points));
            }
        }
        None
    }
}

impl<'a> IntoIterator for &'a FanList {
    type Item = (Fan, u32);
    type IntoIter = FanIter<'a>;

    fn into_iter(self) -> FanIter<'a> {
        self.iter()
    }
}

impl fmt::Debug for FanList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// One set of a standard reading of the hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Set {
    /// A declared set, as declared.
    Meld(Meld),
    /// A chow of the concealed tiles, by its lowest tile.
    Chow(Tile),
    /// A pung of the concealed tiles.
    Pung(Tile),
}

impl fmt::Display for Set {
    /// Sets of the concealed tiles as `chow 1M` or `pung E`; declared sets in brackets, as
    /// [`Meld`] writes them: `[chow 2S]`, `[kong 1M]`, `[concealed-kong 5T]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Set::Meld(m) => write!(f, "[{m}]"),
            Set::Chow(t) => write!(f, "chow {t}"),
            Set::Pung(t) => write!(f, "pung {t}"),
        }
    }
}

/// Where the winning tile went in a standard reading.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WinPlace {
    /// It completed the pair.
    Pair,
    /// It completed the set at this index of `sets`.
    Set(u8),
}

/// How the scored reading splits the hand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Four sets (declared ones first, in the order given) and a pair.
    Standard {
        /// The sets.
        sets: [Set; 4],
        /// The pair's kind.
        pair: Tile,
        /// The set (or the pair) the winning tile completed.
        win: WinPlace,
    },
    /// Seven pairs, in tile order (four of a kind is two equal pairs).
    SevenPairs {
        /// The pairs' kinds.
        pairs: [Tile; 7],
    },
    /// Thirteen orphans.
    ThirteenOrphans {
        /// The kind held more than once.
        pair: Tile,
    },
}

impl fmt::Display for Shape {
    /// `[chow 2S] + pung E + chow 3M + chow 6T + pair 5M; won on the pair` (declared sets in
    /// brackets), `seven pairs 1M 1M 3S …`, `thirteen orphans, pair 1M`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Standard { sets, pair, win } => {
                for s in sets {
                    write!(f, "{s} + ")?;
                }
                write!(f, "pair {pair}; ")?;
                match win {
                    WinPlace::Pair => write!(f, "won on the pair"),
                    WinPlace::Set(i) => write!(f, "won on {}", sets[*i as usize]),
                }
            }
            Shape::SevenPairs { pairs } => {
                f.write_str("seven pairs")?;
                for p in pairs {
                    write!(f, " {p}")?;
                }
                Ok(())
            }
            Shape::ThirteenOrphans { pair } => write!(f, "thirteen orphans, pair {pair}"),
        }
    }
}

/// The fans of a winning hand under one reading.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct FanResult {
    /// The sum of the fans' points.
    pub total: u32,
    /// Each fan scored with its points (the count included).
    pub fans: FanList,
}

/// The fans of a winning hand and the reading of the hand they were scored on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Explained {
    /// The fans.
    pub result: FanResult,
    /// How the scored reading splits the hand.
    pub shape: Shape,
}

/// A hand that has won (or claims to).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WinHand<'a> {
    /// The concealed tiles without the winning tile: 13 − 3 × the number of melds.
    pub concealed: Counts,
    /// The declared sets, concealed kongs included.
    pub melds: &'a [Meld],
    /// The winning tile: the last draw, the discard or the robbed kong's tile.
    pub win: Tile,
    /// Won on one's own draw (a kong replacement included).
    pub self_drawn: bool,
    /// Won by robbing another seat's added kong.
    pub robbed_kong: bool,
}

/// Why a hand is not a win.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotAWin {
    /// More than four melds.
    #[error("{0} melds: a hand has at most 4")]
    TooManyMelds(usize),
    /// The concealed tiles do not number 13 − 3 × melds.
    #[error(
        "{} tiles: {concealed} concealed besides the winning tile, where {melds} melds leave {expected}",
        many_or_few(.concealed, .expected)
    )]
    WrongTileCount {
        /// How many were given.
        concealed: usize,
        /// How many melds were given.
        melds: usize,
        /// How many there should be.
        expected: usize,
    },
    /// More than four tiles of one kind, melds and the winning tile included.
    #[error("{count} tiles of {tile}: there are only 4 of each kind")]
    TooManyOfAKind {
        /// The kind.
        tile: Tile,
        /// How many the hand holds.
        count: usize,
    },
    /// A chow that cannot exist (from 8 or 9, or of honours).
    #[error("no chow starts at {0}: a chow is named by its lowest tile, 1 to 7 of a suit")]
    BadChow(Tile),
    /// Both won on one's own draw and by robbing a kong.
    #[error("a win is either self-drawn or by robbing a kong, not both")]
    SelfDrawnAndRobbed,
    /// The tiles form no winning shape.
    #[error(
        "not a winning hand: the tiles form no four sets and a pair (nor seven pairs, nor thirteen orphans)"
    )]
    NoWinningShape,
}

fn many_or_few(given: &usize, expected: &usize) -> &'static str {
    if given > expected {
        "too many"
    } else {
        "too few"
    }
}

/// Scores a winning hand: the fans of its highest-scoring reading under `reading`, or why it is
/// not a win. Allocates nothing.
pub fn evaluate(hand: &WinHand<'_>, reading: Reading) -> Result<FanResult, NotAWin> {
    explain(hand, reading).map(|e| e.result)
}

/// [`evaluate`], with the reading of the hand that was scored (which sets, which pair, where
/// the winning tile went).
pub fn explain(hand: &WinHand<'_>, reading: Reading) -> Result<Explained, NotAWin> {
    let full = validate(hand)?;
    score::best(hand, &full, reading).ok_or(NotAWin::NoWinningShape)
}

/// Whether `hand` is a win under `reading` (the seed-2015 reading also accepts its loose
/// thirteen orphans).
pub fn is_win(hand: &WinHand<'_>, reading: Reading) -> bool {
    evaluate(hand, reading).is_ok()
}

/// Checks the hand's counts and melds; returns the concealed tiles with the winning tile.
fn validate(hand: &WinHand<'_>) -> Result<Counts, NotAWin> {
    let melds = hand.melds.len();
    if melds > 4 {
        return Err(NotAWin::TooManyMelds(melds));
    }
    if hand.self_drawn && hand.robbed_kong {
        return Err(NotAWin::SelfDrawnAndRobbed);
    }
    let concealed: usize = hand.concealed.iter().map(|&c| c as usize).sum();
    let expected = 13 - 3 * melds;
    if concealed != expected {
        return Err(NotAWin::WrongTileCount {
            concealed,
            melds,
            expected,
        });
    }
    let mut held = [0usize; TILE_KINDS];
    for (h, &c) in held.iter_mut().zip(&hand.concealed) {
        *h = c as usize;
    }
    held[hand.win.index()] += 1;
    for m in hand.melds {
        match *m {
            Meld::Chow(t) => {
                if !t.starts_chow() {
                    return Err(NotAWin::BadChow(t));
                }
                for i in 0..3 {
                    held[t.index() + i] += 1;
                }
            }
            Meld::Pung(t) => held[t.index()] += 3,
            Meld::Kong(t, _) => held[t.index()] += 4,
        }
    }
    if let Some((i, &count)) = held.iter().enumerate().find(|&(_, &c)| c > 4) {
        return Err(NotAWin::TooManyOfAKind {
            tile: Tile::from_index(i).expect("index < 34"),
            count,
        });
    }
    let mut full = hand.concealed;
    full[hand.win.index()] += 1;
    Ok(full)
}

/// Counts of exposed or added kongs among `melds`.
fn melded_kongs(melds: &[Meld]) -> u32 {
    melds
        .iter()
        .filter(|m| matches!(m, Meld::Kong(_, KongKind::Exposed | KongKind::Added)))
        .count() as u32
}
