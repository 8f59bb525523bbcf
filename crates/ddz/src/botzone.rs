//! How Botzone's Dou Dizhu judges (`FightTheLandlord`, `FightTheLandlord2`) read a play: the
//! card type they give it, the foul they name when a play may not be made, and
//! FightTheLandlord's card-type weights (its judge's fractional extra score).
//!
//! The judges read plays by rank only (their codes' suits never matter), so this module works
//! on [`CardSet`]s. Their reading is not the arena's [`crate::RuleSet`]: they know "space
//! shuttles" (航天飞机, consecutive quads, with or without wings), refuse single kickers of one
//! rank (`444455`, `333444` + `55`) and a trio among plane wings, and compare plays by type name
//! and part lengths. The arena's referee judges every play with the table's rule set; this
//! reading only names, in the judges' words, why a Botzone bot's play is refused, and weighs
//! plays for [`crate::Scoring::BotzoneFtl`].

use crate::{CardSet, Kind, Move, Rank};

/// Which of Botzone's Dou Dizhu games (and so which judge).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Edition {
    /// `FightTheLandlord`: the landlord is fixed (Botzone's seat 0), no bidding.
    Ftl,
    /// `FightTheLandlord2`: bidding from seat 0 first.
    Ftl2,
}

impl Edition {
    /// Botzone's name of the game.
    pub const fn botzone_game(self) -> &'static str {
        match self {
            Edition::Ftl => "FightTheLandlord",
            Edition::Ftl2 => "FightTheLandlord2",
        }
    }
}

/// A card type as the judges name it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CardType {
    /// 空: no cards, a pass.
    Pass,
    /// 单张.
    Single,
    /// 一对.
    Pair,
    /// 火箭: both jokers.
    Rocket,
    /// 炸弹: four of a rank.
    Bomb,
    /// 单顺: five or more consecutive singles, no 2 or joker.
    Straight,
    /// 双顺: three or more consecutive pairs, no 2 or joker.
    PairStraight,
    /// 三带零.
    Trio,
    /// 三带一.
    TrioSingle,
    /// 三带二 (the two cards a pair).
    TrioPair,
    /// 四带两只: a quad and two singles of different ranks.
    FourSingles,
    /// 四带两对: a quad and two pairs.
    FourPairs,
    /// 飞机不带翼: two or more consecutive trios.
    Plane,
    /// 飞机带小翼: a plane and as many singles, all of different ranks.
    PlaneSingles,
    /// 飞机带大翼: a plane and as many pairs.
    PlanePairs,
    /// 航天飞机不带翼: two or more consecutive quads.
    Shuttle,
    /// 航天飞机带小翼: a shuttle with singles (FightTheLandlord: one per quad;
    /// FightTheLandlord2: two per quad).
    ShuttleSingles,
    /// 航天飞机带大翼: a shuttle with pairs (one per quad, or two in FightTheLandlord2).
    ShuttlePairs,
    /// 错误: none of the above.
    Invalid,
}

impl CardType {
    /// The judges' priority: the rocket 3, a bomb 2, anything else 1. A play of higher priority
    /// beats any of lower; one of lower never beats one of higher.
    const fn priority(self) -> u8 {
        match self {
            CardType::Rocket => 3,
            CardType::Bomb => 2,
            _ => 1,
        }
    }

    /// FightTheLandlord's weight of a play of this type (its judge's extra score × 100): a
    /// rocket 16, a bomb or shuttle 10, a four-with-two or plane 8, a chain 6, a trio 4, a pair
    /// 2, a single 1, a pass 0. `None` for [`CardType::Invalid`], which the judge has no weight
    /// for.
    pub const fn ftl_weight(self) -> Option<u32> {
        Some(match self {
            CardType::Pass => 0,
            CardType::Rocket => 16,
            CardType::Bomb => 10,
            CardType::Single => 1,
            CardType::Pair => 2,
            CardType::Straight | CardType::PairStraight => 6,
            CardType::Trio | CardType::TrioSingle | CardType::TrioPair => 4,
            CardType::FourSingles
            | CardType::FourPairs
            | CardType::Plane
            | CardType::PlaneSingles
            | CardType::PlanePairs => 8,
            CardType::Shuttle | CardType::ShuttleSingles | CardType::ShuttlePairs => 10,
            CardType::Invalid => return None,
        })
    }

    /// True for the three shuttle types.
    const fn is_shuttle(self) -> bool {
        matches!(
            self,
            CardType::Shuttle | CardType::ShuttleSingles | CardType::ShuttlePairs
        )
    }
}

/// A play as a judge reads it: its type, its main part (what is compared) and how many cards
/// go with the main part (kickers or wings).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The card type.
    pub kind: CardType,
    /// The compared part: the trio(s) or quad(s) of kicker types, else every card.
    pub main: CardSet,
    /// The number of kicker or wing cards.
    pub rest: u32,
}

/// The judge's point of a rank: 3 … A are 3 … 14, 2 is 15, the jokers 16 and 17.
const fn point(rank: Rank) -> usize {
    rank.index() + 3
}

/// True when `ranks` (ascending) are consecutive and hold no 2 or joker: the judges' chains.
fn chain(ranks: &[Rank]) -> bool {
    ranks.iter().all(|&r| point(r) < point(Rank::Two))
        && ranks.windows(2).all(|w| w[1].index() == w[0].index() + 1)
}

/// Reads `cards` as `edition`'s judge does (`checkPokerType`).
pub fn read(edition: Edition, cards: CardSet) -> Reading {
    let n = cards.len();
    let whole = |kind| Reading {
        kind,
        main: cards,
        rest: 0,
    };
    let invalid = whole(CardType::Invalid);
    match n {
        0 => return whole(CardType::Pass),
        1 => return whole(CardType::Single),
        2 => {
            return if cards.count(Rank::BlackJoker) == 1 && cards.count(Rank::RedJoker) == 1 {
                whole(CardType::Rocket)
            } else if cards.ranks().count() == 1 {
                whole(CardType::Pair)
            } else {
                invalid
            };
        }
        _ => {}
    }
    // The ranks held k times, ascending, for k = 1 … 4.
    let mut by_count: [[Rank; 20]; 5] = [[Rank::Three; 20]; 5];
    let mut lens = [0usize; 5];
    for (rank, c) in cards.ranks() {
        let c = c as usize;
        by_count[c][lens[c]] = rank;
        lens[c] += 1;
    }
    let distinct: usize = lens.iter().sum();
    let of = |c: usize| &by_count[c][..lens[c]];
    if n == 4 && lens[4] == 1 {
        return whole(CardType::Bomb);
    }
    if n >= 5 && lens[1] == distinct && chain(of(1)) {
        return whole(CardType::Straight);
    }
    if n >= 6 && lens[2] == distinct && chain(of(2)) {
        return whole(CardType::PairStraight);
    }
    let main_of =
        |ranks: &[Rank], per: u8| ranks.iter().fold(CardSet::EMPTY, |s, &r| s.plus(r, per));
    let with = |kind, main: CardSet| Reading {
        kind,
        main,
        rest: n - main.len(),
    };
    if n <= 5 && lens[3] == 1 {
        if lens[1] == 2 {
            return invalid;
        }
        let kind = match n {
            3 => CardType::Trio,
            4 => CardType::TrioSingle,
            _ => CardType::TrioPair,
        };
        return with(kind, main_of(of(3), 3));
    }
    if n == 6 && lens[4] == 1 && lens[1] == 2 {
        return with(CardType::FourSingles, main_of(of(4), 4));
    }
    if n == 8 && lens[4] == 1 && lens[2] == 2 {
        return with(CardType::FourPairs, main_of(of(4), 4));
    }
    let k = lens[3];
    if k > 1 && chain(of(3)) {
        if 3 * k == n as usize {
            return whole(CardType::Plane);
        }
        let main = main_of(of(3), 3);
        if k == lens[1] && 4 * k == n as usize {
            return with(CardType::PlaneSingles, main);
        }
        if k == lens[2] && 5 * k == n as usize {
            return with(CardType::PlanePairs, main);
        }
    }
    let q = lens[4];
    if q > 1 && lens[3] == 0 && chain(of(4)) {
        if 4 * q == n as usize {
            return whole(CardType::Shuttle);
        }
        let main = main_of(of(4), 4);
        // FightTheLandlord2's shuttles carry two wings per quad, FightTheLandlord's one.
        let per = match edition {
            Edition::Ftl => 1,
            Edition::Ftl2 => 2,
        };
        if per * q == lens[1] && (4 + per) * q == n as usize {
            return with(CardType::ShuttleSingles, main);
        }
        if per * q == lens[2] && (4 + 2 * per) * q == n as usize {
            return with(CardType::ShuttlePairs, main);
        }
    }
    invalid
}

/// FightTheLandlord's weight of one play (its judge's `getExtraScore` × 100): the type's
/// [`CardType::ftl_weight`], plus 10 for a shuttle whose quads hold 12 cards or more. `None`
/// for a play the judge reads as no type.
pub fn ftl_weight(cards: CardSet) -> Option<u32> {
    let r = read(Edition::Ftl, cards);
    let extra = if r.kind.is_shuttle() && r.main.len() >= 12 {
        10
    } else {
        0
    };
    r.kind.ftl_weight().map(|w| w + extra)
}

/// FightTheLandlord's weight of a play the arena's referee let stand: [`ftl_weight`], or, for
/// a play of the table's rule set that the judge reads as no type (`444455`, `333444` + `55`;
/// its judge never lets one be played), the weight of the judge's type of the same kind.
pub fn ftl_move_weight(m: Move) -> u32 {
    ftl_weight(m.cards()).unwrap_or(match m.kind() {
        Kind::Pass => 0,
        Kind::Single => 1,
        Kind::Pair => 2,
        Kind::Trio | Kind::TrioSingle | Kind::TrioPair => 4,
        Kind::Straight | Kind::PairStraight => 6,
        Kind::Plane
        | Kind::PlaneSingles
        | Kind::PlanePairs
        | Kind::FourTwoSingles
        | Kind::FourTwoPairs => 8,
        Kind::Bomb => 10,
        Kind::Rocket => 16,
    })
}

/// A rule foul as the judges name it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    /// `INVALID_CARDTYPE`: the cards are no card type (FightTheLandlord2).
    InvalidCardType,
    /// `BAD_FORMAT`: FightTheLandlord's judge names cards of no type so (it weighs every play
    /// before it checks the type, and a play of no type has no weight, which it reports as a
    /// format error).
    BadFormat,
    /// `INVALID_PASS`: a pass on a free lead.
    InvalidPass,
    /// `LESS_COMPARE`: a play of lower priority, or of the same type that is not higher.
    LessCompare,
    /// `MISMATCH_CARDTYPE`: a play of another type than the one to beat.
    MismatchCardType,
    /// `MISMATCH_CARDLENGTH`: a play of the same type with a main part or kickers of another
    /// length.
    MismatchCardLength,
}

impl Foul {
    /// The judge's name of the foul.
    pub const fn name(self) -> &'static str {
        match self {
            Foul::InvalidCardType => "INVALID_CARDTYPE",
            Foul::BadFormat => "BAD_FORMAT",
            Foul::InvalidPass => "INVALID_PASS",
            Foul::LessCompare => "LESS_COMPARE",
            Foul::MismatchCardType => "MISMATCH_CARDTYPE",
            Foul::MismatchCardLength => "MISMATCH_CARDLENGTH",
        }
    }
}

/// The foul `edition`'s judge names for `play` (empty: a pass) when `to_beat` is the play to
/// beat (empty: a free lead), checked in the judge's order; `None` when the judge lets it
/// stand. The cards are assumed to be the player's own (the judge checks that first, by code).
pub fn foul(edition: Edition, to_beat: CardSet, play: CardSet) -> Option<Foul> {
    let cur = read(edition, play);
    if cur.kind == CardType::Invalid {
        return Some(match edition {
            Edition::Ftl => Foul::BadFormat,
            Edition::Ftl2 => Foul::InvalidCardType,
        });
    }
    if to_beat.is_empty() {
        return (cur.kind == CardType::Pass).then_some(Foul::InvalidPass);
    }
    if cur.kind == CardType::Pass {
        return None;
    }
    let last = read(edition, to_beat);
    let (lp, cp) = (last.kind.priority(), cur.kind.priority());
    if lp < cp {
        return None;
    }
    if lp > cp {
        return Some(Foul::LessCompare);
    }
    if last.kind != cur.kind {
        return Some(Foul::MismatchCardType);
    }
    if last.main.len() != cur.main.len() || last.rest != cur.rest {
        return Some(Foul::MismatchCardLength);
    }
    // Card by card from the lowest, every one higher.
    if cur.main.iter().zip(last.main.iter()).all(|(c, l)| c > l) {
        None
    } else {
        Some(Foul::LessCompare)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> CardSet {
        if s.is_empty() {
            CardSet::EMPTY
        } else {
            s.parse().unwrap()
        }
    }

    fn kind(e: Edition, s: &str) -> CardType {
        read(e, cs(s)).kind
    }

    #[test]
    fn card_types_are_read_as_the_judges_read_them() {
        use CardType as T;
        use Edition::{Ftl, Ftl2};
        for (cards, want) in [
            ("", T::Pass),
            ("2", T::Single),
            ("BR", T::Rocket),
            ("QQ", T::Pair),
            ("Q2", T::Invalid),
            ("7777", T::Bomb),
            ("34567", T::Straight),
            ("TJQKA", T::Straight),
            ("JQKA2", T::Invalid),
            ("334455", T::PairStraight),
            ("3344", T::Invalid),
            ("999", T::Trio),
            ("9993", T::TrioSingle),
            ("99933", T::TrioPair),
            // A trio with two singles is no type.
            ("99934", T::Invalid),
            ("444456", T::FourSingles),
            // The judges want the two singles of different ranks.
            ("444455", T::Invalid),
            ("44445566", T::FourPairs),
            ("333444", T::Plane),
            ("33344456", T::PlaneSingles),
            // Single wings of one rank are no type.
            ("33344455", T::Invalid),
            ("3334445566", T::PlanePairs),
            ("222AAA", T::Invalid),
            // Three trios with a trio as wings: the trios are not consecutive.
            ("333444555777", T::Invalid),
            ("33334444", T::Shuttle),
        ] {
            assert_eq!(kind(Ftl2, cards), want, "{cards}");
            assert_eq!(kind(Ftl, cards), want, "{cards}");
        }
        // Shuttles with wings: one wing per quad in FightTheLandlord, two in FightTheLandlord2.
        assert_eq!(kind(Ftl, "3333444456"), T::ShuttleSingles);
        assert_eq!(kind(Ftl2, "3333444456"), T::Invalid);
        assert_eq!(kind(Ftl2, "333344445678"), T::ShuttleSingles);
        assert_eq!(kind(Ftl, "333344445566"), T::ShuttlePairs);
        assert_eq!(kind(Ftl2, "3333444455667788"), T::ShuttlePairs);
        let r = read(Ftl2, cs("33344456"));
        assert_eq!((r.main, r.rest), (cs("333444"), 2));
    }

    #[test]
    fn fouls_are_named_in_the_judges_order() {
        use Edition::{Ftl, Ftl2};
        let f = |e, to_beat: &str, play: &str| foul(e, cs(to_beat), cs(play)).map(Foul::name);
        // No type: FightTheLandlord2 says so; FightTheLandlord's judge fails weighing it.
        assert_eq!(f(Ftl2, "", "35"), Some("INVALID_CARDTYPE"));
        assert_eq!(f(Ftl, "", "35"), Some("BAD_FORMAT"));
        assert_eq!(f(Ftl2, "9", "35"), Some("INVALID_CARDTYPE"));
        assert_eq!(f(Ftl2, "", ""), Some("INVALID_PASS"));
        assert_eq!(f(Ftl, "", ""), Some("INVALID_PASS"));
        assert_eq!(f(Ftl2, "9", ""), None);
        assert_eq!(f(Ftl2, "55", "44"), Some("LESS_COMPARE"));
        assert_eq!(f(Ftl2, "55", "55"), Some("LESS_COMPARE"));
        assert_eq!(f(Ftl2, "44", "55"), None);
        // A bomb on anything else stands; anything else on a bomb is less.
        assert_eq!(f(Ftl2, "34567", "3333"), None);
        assert_eq!(f(Ftl2, "3333", "34567"), Some("LESS_COMPARE"));
        assert_eq!(f(Ftl2, "2222", "BR"), None);
        assert_eq!(f(Ftl2, "BR", "2222"), Some("LESS_COMPARE"));
        assert_eq!(f(Ftl2, "4444", "3333"), Some("LESS_COMPARE"));
        assert_eq!(f(Ftl2, "55", "6"), Some("MISMATCH_CARDTYPE"));
        assert_eq!(f(Ftl2, "5553", "55533"), Some("MISMATCH_CARDTYPE"));
        assert_eq!(f(Ftl2, "34567", "456789"), Some("MISMATCH_CARDLENGTH"));
        assert_eq!(f(Ftl2, "34567", "45678"), None);
        assert_eq!(
            f(Ftl2, "33344456", "444555666789"),
            Some("MISMATCH_CARDLENGTH")
        );
        // Kickers are not compared, only the main part.
        assert_eq!(f(Ftl2, "333A", "4443"), None);
        assert_eq!(f(Ftl2, "444A", "4443"), Some("LESS_COMPARE"));
    }

    #[test]
    fn fightthelandlord_weighs_plays_by_type() {
        let w = |s: &str| ftl_weight(cs(s));
        assert_eq!(w(""), Some(0));
        assert_eq!(w("3"), Some(1));
        assert_eq!(w("33"), Some(2));
        assert_eq!(w("3334"), Some(4));
        assert_eq!(w("34567"), Some(6));
        assert_eq!(w("333444"), Some(8));
        assert_eq!(w("444456"), Some(8));
        assert_eq!(w("7777"), Some(10));
        assert_eq!(w("BR"), Some(16));
        assert_eq!(w("33334444"), Some(10));
        // A shuttle of three quads: its 12 cards of quads add 10.
        assert_eq!(w("333344445555"), Some(20));
        assert_eq!(w("444455"), None);
        // The arena's four-with-two-singles 444455 weighs as the judge's 四带两只.
        let m = crate::RuleSet::COMPETITION.classify(cs("444455")).unwrap();
        assert_eq!(ftl_move_weight(m), 8);
    }
}
