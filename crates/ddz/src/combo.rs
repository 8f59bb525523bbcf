//! Combinations: what a set of played cards *is*, and which play beats which.
//!
//! [`RuleSet::classify`] reads a card multiset as exactly one [`Move`] (kind, main rank, length)
//! or explains why it is no combination. Rule-set differences between engines are values of
//! [`RuleSet`]; nothing outside this module and the move generator looks at them.

use std::fmt;

use crate::{CardSet, Rank};

/// The largest number of cards one play may hold: nobody ever holds more than 20.
pub const MAX_PLAY_CARDS: u32 = 20;

/// The kind of a play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Kind {
    /// No cards: the player declines to beat the last play.
    Pass = 0,
    /// One card.
    Single,
    /// Two cards of one rank.
    Pair,
    /// Three cards of one rank.
    Trio,
    /// A trio and one kicker card of another rank.
    TrioSingle,
    /// A trio and a pair of another rank.
    TrioPair,
    /// Five or more consecutive single ranks within 3..A.
    Straight,
    /// Three or more consecutive pairs within 3..A.
    PairStraight,
    /// Two or more consecutive trios within 3..A.
    Plane,
    /// A plane of n trios with n single kickers.
    PlaneSingles,
    /// A plane of n trios with n pair kickers.
    PlanePairs,
    /// Four of a rank with two single kickers.
    FourTwoSingles,
    /// Four of a rank with two pair kickers.
    FourTwoPairs,
    /// Four of a rank, played alone.
    Bomb,
    /// Both jokers.
    Rocket,
}

impl Kind {
    /// Every kind, in declaration order.
    pub const ALL: [Kind; 15] = [
        Kind::Pass,
        Kind::Single,
        Kind::Pair,
        Kind::Trio,
        Kind::TrioSingle,
        Kind::TrioPair,
        Kind::Straight,
        Kind::PairStraight,
        Kind::Plane,
        Kind::PlaneSingles,
        Kind::PlanePairs,
        Kind::FourTwoSingles,
        Kind::FourTwoPairs,
        Kind::Bomb,
        Kind::Rocket,
    ];

    /// A short stable name, e.g. `plane+singles`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pass => "pass",
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Trio => "trio",
            Kind::TrioSingle => "trio+single",
            Kind::TrioPair => "trio+pair",
            Kind::Straight => "straight",
            Kind::PairStraight => "pair-straight",
            Kind::Plane => "plane",
            Kind::PlaneSingles => "plane+singles",
            Kind::PlanePairs => "plane+pairs",
            Kind::FourTwoSingles => "four+two-singles",
            Kind::FourTwoPairs => "four+two-pairs",
            Kind::Bomb => "bomb",
            Kind::Rocket => "rocket",
        }
    }

    /// True for bombs and the rocket, the plays that beat other kinds.
    #[inline]
    pub const fn is_bomb_like(self) -> bool {
        matches!(self, Kind::Bomb | Kind::Rocket)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A play: its cards and their one reading as a combination (or a pass).
///
/// Moves come only from [`RuleSet::classify`] and the move generator, so the kind, main rank and
/// length always agree with the cards. `rank` is the lowest rank of the main part for chains and
/// planes, the rank of the trio or quad for kicker kinds; `len` is the number of chain links
/// (cards of a straight, pairs of a pair straight, trios of a plane) and 1 otherwise.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move {
    cards: CardSet,
    kind: Kind,
    rank: Rank,
    len: u8,
}

impl Move {
    /// The pass.
    pub const PASS: Move = Move {
        cards: CardSet::EMPTY,
        kind: Kind::Pass,
        rank: Rank::Three,
        len: 0,
    };

    #[inline]
    pub(crate) const fn new(cards: CardSet, kind: Kind, rank: Rank, len: u8) -> Move {
        Move {
            cards,
            kind,
            rank,
            len,
        }
    }

    /// The cards played (empty for a pass).
    #[inline]
    pub const fn cards(self) -> CardSet {
        self.cards
    }

    /// The kind of play.
    #[inline]
    pub const fn kind(self) -> Kind {
        self.kind
    }

    /// The main rank, which decides beating within a kind and length.
    #[inline]
    pub const fn rank(self) -> Rank {
        self.rank
    }

    /// Chain links (straights, pair straights, planes) or 1; 0 for a pass.
    #[inline]
    pub const fn links(self) -> u8 {
        self.len
    }

    /// True for the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        matches!(self.kind, Kind::Pass)
    }

    /// The canonical notation as a `String`, as `to_string` gives it, without the formatting
    /// machinery (see [`CardSet::to_text`]).
    pub fn to_text(self) -> String {
        if self.is_pass() {
            "pass".to_string()
        } else {
            self.cards.to_text()
        }
    }

    /// True for a bomb or the rocket.
    #[inline]
    pub const fn is_bomb_like(self) -> bool {
        self.kind.is_bomb_like()
    }

    /// True if this play may follow `prev`: same kind and length with a higher main rank, any
    /// bomb over a non-bomb, a higher bomb over a bomb, the rocket over everything. Nothing beats
    /// a pass-as-previous (a free lead is not "beating"), and a pass beats nothing.
    #[inline]
    pub fn beats(self, prev: Move) -> bool {
        match (self.kind, prev.kind) {
            (Kind::Pass, _) | (_, Kind::Pass) => false,
            (_, Kind::Rocket) => false,
            (Kind::Rocket, _) => true,
            (Kind::Bomb, Kind::Bomb) => self.rank > prev.rank,
            (Kind::Bomb, _) => true,
            (_, Kind::Bomb) => false,
            (a, b) => a == b && self.len == prev.len && self.rank > prev.rank,
        }
    }
}

impl fmt::Display for Move {
    /// Canonical notation: the rank-sorted cards, or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")
        } else {
            fmt::Display::fmt(&self.cards, f)
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}({} {} x{})",
            self.kind, self.cards, self.rank, self.len
        )
    }
}

/// Why a card multiset is not a combination.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ComboError {
    /// No cards at all (use a pass).
    #[error("no cards: an empty play is a pass")]
    Empty,
    /// More cards than any hand holds.
    #[error("{0} cards: no play may hold more than 20")]
    TooManyCards(u32),
    /// A chain that contains a 2 or a joker.
    #[error("chains (straights, pair straights, planes) may not contain 2 or jokers")]
    ChainWithTwoOrJoker,
    /// Equal groups of ranks that are not consecutive.
    #[error("ranks {0} are not consecutive")]
    NotConsecutive(CardSet),
    /// A chain shorter than its kind allows.
    #[error("a {kind} needs at least {min} links, this has {len}")]
    ChainTooShort {
        /// The chain kind.
        kind: Kind,
        /// Links present.
        len: u8,
        /// Links required.
        min: u8,
    },
    /// A kicker of the same rank as the trio or quad it goes with.
    #[error("a kicker may not share a rank with the trios or quad it goes with")]
    KickerSharesRank,
    /// Both jokers used as kickers where the rule set forbids it.
    #[error("the rocket (B+R) may not be used as kickers")]
    RocketAsKickers,
    /// A whole trio next to the plane used as wings where the rule set forbids it.
    #[error("wings may not hold a whole trio adjacent to the plane (it would extend the plane)")]
    AdjacentTrioWing,
    /// All four cards of a rank used as kickers.
    #[error("kickers may not hold all four cards of a rank")]
    QuadAsKickers,
    /// Repeated single kickers where the rule set demands distinct ones.
    #[error("single kickers must be of distinct ranks in this rule set")]
    RepeatedKickers,
    /// Four-with-two played in a rule set without it.
    #[error("four-with-two is not a combination in this rule set")]
    NoFourWithTwo,
    /// Any other shape.
    #[error("{0} is no combination")]
    Unrecognised(CardSet),
}

/// A rule set: which readings of a card multiset are combinations.
///
/// The default, [`RuleSet::COMPETITION`], is the competition reading (also RLCard's): kickers never
/// share a rank with their trios or quad, single kickers may repeat a rank but never hold all four
/// cards of one, the rocket is never a kicker, and wings never hold a whole trio adjacent to the
/// plane, so every multiset has at most one reading. [`RuleSet::DOUZERO`] replays DouZero games;
/// where its reading is ambiguous the plane with the highest main rank is chosen, as DouZero's own
/// move detector does.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct RuleSet {
    /// The rocket's two jokers may both be kickers (DouZero).
    pub rocket_kickers: bool,
    /// Wings may hold a whole trio adjacent to the plane (DouZero).
    pub adjacent_trio_wings: bool,
    /// Four-with-two is a combination (not in OpenSpiel).
    pub four_with_two: bool,
    /// Single kickers must be of distinct ranks (some house rules).
    pub distinct_single_kickers: bool,
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::COMPETITION
    }
}

impl RuleSet {
    /// The competition reading, the arena's default.
    pub const COMPETITION: RuleSet = RuleSet {
        rocket_kickers: false,
        adjacent_trio_wings: false,
        four_with_two: true,
        distinct_single_kickers: false,
    };
    /// DouZero's reading: the rocket may be kickers, an adjacent trio may be wings.
    pub const DOUZERO: RuleSet = RuleSet {
        rocket_kickers: true,
        adjacent_trio_wings: true,
        four_with_two: true,
        distinct_single_kickers: false,
    };
    /// OpenSpiel's reading: no four-with-two.
    pub const OPENSPIEL: RuleSet = RuleSet {
        rocket_kickers: false,
        adjacent_trio_wings: false,
        four_with_two: false,
        distinct_single_kickers: false,
    };

    /// Looks a rule set up by name: `competition`, `douzero` or `openspiel`.
    pub fn by_name(name: &str) -> Option<RuleSet> {
        match name {
            "competition" | "default" | "rlcard" => Some(RuleSet::COMPETITION),
            "douzero" => Some(RuleSet::DOUZERO),
            "openspiel" => Some(RuleSet::OPENSPIEL),
            _ => None,
        }
    }

    /// True when every reading has exactly one interpretation, so generation needs no dedup.
    #[inline]
    pub(crate) const fn readings_unique(&self) -> bool {
        !self.adjacent_trio_wings
    }

    /// Checks `kickers` as single kickers of the main part over ranks
    /// `main_lo..main_lo + main_len`: a plane when `chain` (adjacent-trio rule applies), else a quad.
    pub(crate) fn check_single_kickers(
        &self,
        kickers: CardSet,
        main_lo: usize,
        main_len: usize,
        chain: bool,
    ) -> Result<(), ComboError> {
        let counts = kickers.counts();
        for (r, &c) in counts.iter().enumerate() {
            if c == 0 {
                continue;
            }
            if r >= main_lo && r < main_lo + main_len {
                return Err(ComboError::KickerSharesRank);
            }
            if c == 4 {
                return Err(ComboError::QuadAsKickers);
            }
            if c > 1 && self.distinct_single_kickers {
                return Err(ComboError::RepeatedKickers);
            }
            if chain
                && c == 3
                && !self.adjacent_trio_wings
                && (r + 1 == main_lo || r == main_lo + main_len)
                && r <= Rank::Ace.index()
            {
                return Err(ComboError::AdjacentTrioWing);
            }
        }
        if !self.rocket_kickers
            && counts[Rank::BlackJoker.index()] == 1
            && counts[Rank::RedJoker.index()] == 1
        {
            return Err(ComboError::RocketAsKickers);
        }
        Ok(())
    }

    /// Reads `cards` as a combination under this rule set.
    pub fn classify(&self, cards: CardSet) -> Result<Move, ComboError> {
        let n = cards.len();
        if n == 0 {
            return Err(ComboError::Empty);
        }
        if n > MAX_PLAY_CARDS {
            return Err(ComboError::TooManyCards(n));
        }
        let counts = cards.counts();
        let lo = cards.lowest().unwrap_or(Rank::Three);
        let hi = cards.highest().unwrap_or(Rank::Three);
        let distinct = counts.iter().filter(|&&c| c > 0).count();
        let mv = |kind, rank, len| Ok(Move::new(cards, kind, rank, len));

        if n == 2 && counts[Rank::BlackJoker.index()] == 1 && counts[Rank::RedJoker.index()] == 1 {
            return mv(Kind::Rocket, Rank::BlackJoker, 1);
        }
        if distinct == 1 {
            return match n {
                1 => mv(Kind::Single, lo, 1),
                2 => mv(Kind::Pair, lo, 1),
                3 => mv(Kind::Trio, lo, 1),
                _ => mv(Kind::Bomb, lo, 1),
            };
        }

        // Chains: every rank present the same number of times.
        let uniform = counts
            .iter()
            .all(|&c| c == 0 || c as usize == n as usize / distinct);
        let consecutive = hi.index() - lo.index() + 1 == distinct;
        if uniform {
            let per = n as usize / distinct;
            let (kind, min) = match per {
                1 => (Kind::Straight, 5),
                2 => (Kind::PairStraight, 3),
                3 => (Kind::Plane, 2),
                _ => (Kind::Bomb, 0),
            };
            if per <= 3 && hi.is_chainable() && consecutive && distinct >= min {
                return mv(kind, lo, distinct as u8);
            }
        }

        let mut reason = None;
        // Trio with one kicker.
        if n == 4
            && distinct == 2
            && let Some(t) = rank_with_count(&counts, 3)
        {
            return mv(Kind::TrioSingle, t, 1);
        }
        if n == 5
            && distinct == 2
            && let Some(t) = rank_with_count(&counts, 3)
        {
            return mv(Kind::TrioPair, t, 1);
        }
        // Four with two.
        if n == 6 || n == 8 {
            for q in Rank::ALL
                .into_iter()
                .rev()
                .filter(|r| counts[r.index()] == 4)
            {
                let rest = cards - CardSet::of(q, 4).unwrap_or_default();
                let result = if n == 6 {
                    self.check_single_kickers(rest, q.index(), 1, false)
                        .map(|()| Kind::FourTwoSingles)
                } else {
                    check_pair_kickers(rest, 2).map(|()| Kind::FourTwoPairs)
                };
                match result {
                    Ok(_) if !self.four_with_two => return Err(ComboError::NoFourWithTwo),
                    Ok(kind) => return mv(kind, q, 1),
                    Err(e) => reason = reason.or(Some(e)),
                }
            }
        }
        // Planes with wings: try every run of trios, highest first.
        for (per_kicker, kind) in [(1u32, Kind::PlaneSingles), (2, Kind::PlanePairs)] {
            if !n.is_multiple_of(3 + per_kicker) {
                continue;
            }
            let links = (n / (3 + per_kicker)) as usize;
            if links < 2 {
                continue;
            }
            for start in (0..=Rank::Ace.index() + 1 - links).rev() {
                if !(start..start + links).all(|r| counts[r] >= 3) {
                    continue;
                }
                let mut plane = CardSet::EMPTY;
                for r in start..start + links {
                    plane = plane.plus(Rank::ALL[r], 3);
                }
                let rest = cards - plane;
                let result = if per_kicker == 1 {
                    self.check_single_kickers(rest, start, links, true)
                } else if (start..start + links).any(|r| counts[r] != 3) {
                    Err(ComboError::KickerSharesRank)
                } else {
                    check_pair_kickers(rest, links)
                };
                match result {
                    Ok(()) => return mv(kind, Rank::ALL[start], links as u8),
                    Err(e) => reason = reason.or(Some(e)),
                }
            }
        }

        if let Some(e) = reason {
            return Err(e);
        }
        if uniform && n as usize / distinct <= 3 {
            let per = n as usize / distinct;
            let (kind, min) = match per {
                1 => (Kind::Straight, 5u8),
                2 => (Kind::PairStraight, 3),
                _ => (Kind::Plane, 2),
            };
            if !hi.is_chainable() {
                return Err(if (distinct as u8) < min {
                    ComboError::Unrecognised(cards)
                } else {
                    ComboError::ChainWithTwoOrJoker
                });
            }
            if (distinct as u8) < min {
                return Err(ComboError::ChainTooShort {
                    kind,
                    len: distinct as u8,
                    min,
                });
            }
            return Err(ComboError::NotConsecutive(cards));
        }
        Err(ComboError::Unrecognised(cards))
    }
}

fn rank_with_count(counts: &[u8; 15], c: u8) -> Option<Rank> {
    counts
        .iter()
        .position(|&x| x == c)
        .and_then(Rank::from_index)
}

/// Pair wings: exactly `k` distinct ranks, two cards each (jokers can never pair).
fn check_pair_kickers(kickers: CardSet, k: usize) -> Result<(), ComboError> {
    let counts = kickers.counts();
    let mut pairs = 0;
    for &c in &counts {
        match c {
            0 => {}
            2 => pairs += 1,
            4 => return Err(ComboError::QuadAsKickers),
            _ => return Err(ComboError::Unrecognised(kickers)),
        }
    }
    if pairs == k {
        Ok(())
    } else {
        Err(ComboError::Unrecognised(kickers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(s: &str) -> Result<Move, ComboError> {
        RuleSet::COMPETITION.classify(s.parse().unwrap())
    }

    #[test]
    fn moves_as_text_are_their_display() {
        for m in [
            Move::PASS,
            classify("3").unwrap(),
            classify("33344456").unwrap(),
            classify("BR").unwrap(),
        ] {
            assert_eq!(m.to_text(), m.to_string());
            assert_eq!(m.cards().to_text(), m.cards().to_string());
        }
        assert_eq!(Move::PASS.to_text(), "pass");
        assert_eq!(CardSet::EMPTY.to_text(), "");
    }

    fn kind(s: &str) -> Kind {
        classify(s).unwrap_or_else(|e| panic!("{s}: {e}")).kind()
    }

    #[test]
    fn reads_every_kind() {
        assert_eq!(kind("3"), Kind::Single);
        assert_eq!(kind("R"), Kind::Single);
        assert_eq!(kind("22"), Kind::Pair);
        assert_eq!(kind("KKK"), Kind::Trio);
        assert_eq!(kind("7777"), Kind::Bomb);
        assert_eq!(kind("BR"), Kind::Rocket);
        assert_eq!(kind("3337"), Kind::TrioSingle);
        assert_eq!(kind("333B"), Kind::TrioSingle);
        assert_eq!(kind("33377"), Kind::TrioPair);
        assert_eq!(kind("34567"), Kind::Straight);
        assert_eq!(kind("3456789TJQKA"), Kind::Straight);
        assert_eq!(kind("334455"), Kind::PairStraight);
        assert_eq!(kind("333444"), Kind::Plane);
        assert_eq!(kind("33344455"), Kind::PlaneSingles);
        assert_eq!(kind("33344457"), Kind::PlaneSingles);
        assert_eq!(kind("3334445577"), Kind::PlanePairs);
        assert_eq!(kind("333344"), Kind::FourTwoSingles);
        assert_eq!(kind("333345"), Kind::FourTwoSingles);
        assert_eq!(kind("33334455"), Kind::FourTwoPairs);
        assert_eq!(kind("333444555777"), Kind::PlaneSingles);
    }

    #[test]
    fn main_rank_and_length() {
        let m = classify("6667778889TJ").unwrap();
        assert_eq!(
            (m.kind(), m.rank(), m.links()),
            (Kind::PlaneSingles, Rank::Six, 3)
        );
        let m = classify("TJQKA").unwrap();
        assert_eq!((m.rank(), m.links()), (Rank::Ten, 5));
        let m = classify("3AAA").unwrap();
        assert_eq!((m.kind(), m.rank()), (Kind::TrioSingle, Rank::Ace));
    }

    #[test]
    fn rejects_with_reasons() {
        assert_eq!(
            classify("BR5"),
            Err(ComboError::Unrecognised("5BR".parse().unwrap()))
        );
        assert_eq!(classify("JQKA2"), Err(ComboError::ChainWithTwoOrJoker));
        assert_eq!(
            classify("3456"),
            Err(ComboError::ChainTooShort {
                kind: Kind::Straight,
                len: 4,
                min: 5
            })
        );
        assert_eq!(
            classify("34568"),
            Err(ComboError::NotConsecutive("34568".parse().unwrap()))
        );
        assert_eq!(classify("3333BR"), Err(ComboError::RocketAsKickers));
        assert_eq!(classify("333444BR"), Err(ComboError::RocketAsKickers));
        assert_eq!(classify("33334444"), Err(ComboError::QuadAsKickers));
        assert_eq!(classify("3334445556669999"), Err(ComboError::QuadAsKickers));
        assert_eq!(classify(""), Err(ComboError::Empty));
        assert!(classify("33").is_ok());
        assert!(classify("34").is_err());
    }

    #[test]
    fn a_run_of_trios_is_always_the_longest_plane() {
        let m = classify("333444555666").unwrap();
        assert_eq!((m.kind(), m.links()), (Kind::Plane, 4));
        // A trio that does not touch the plane can be wings...
        assert_eq!(kind("333444555777"), Kind::PlaneSingles);
        // ...but one next to it would extend the plane, so it cannot.
        assert_eq!(
            RuleSet::COMPETITION.classify("3334445556667778".parse().unwrap()),
            Err(ComboError::AdjacentTrioWing)
        );
    }

    #[test]
    fn douzero_reading_allows_rocket_and_adjacent_wings() {
        let dz = RuleSet::DOUZERO;
        let m = dz.classify("333444BR".parse().unwrap()).unwrap();
        assert_eq!(m.kind(), Kind::PlaneSingles);
        assert_eq!(
            dz.classify("3333BR".parse().unwrap()).unwrap().kind(),
            Kind::FourTwoSingles
        );
        // Five trios and a single: the highest four-trio plane is the reading.
        let m = dz.classify("3334445556667778".parse().unwrap()).unwrap();
        assert_eq!(
            (m.kind(), m.rank(), m.links()),
            (Kind::PlaneSingles, Rank::Four, 4)
        );
        assert_eq!(
            dz.classify("333444555666".parse().unwrap()).unwrap().kind(),
            Kind::Plane
        );
    }

    #[test]
    fn openspiel_reading_has_no_four_with_two() {
        assert_eq!(
            RuleSet::OPENSPIEL.classify("333345".parse().unwrap()),
            Err(ComboError::NoFourWithTwo)
        );
    }

    #[test]
    fn beating() {
        let m = |s: &str| classify(s).unwrap();
        assert!(m("4").beats(m("3")));
        assert!(!m("3").beats(m("4")));
        assert!(!m("3").beats(m("3")));
        assert!(m("R").beats(m("B")));
        assert!(m("45678").beats(m("34567")));
        assert!(!m("456789").beats(m("34567")));
        assert!(m("3333").beats(m("AAA2")));
        assert!(m("4444").beats(m("3333")));
        assert!(!m("3333").beats(m("4444")));
        assert!(m("BR").beats(m("2222")));
        assert!(!m("2222").beats(m("BR")));
        assert!(!m("3333").beats(Move::PASS));
        assert!(!Move::PASS.beats(m("3")));
        assert!(!m("44455").beats(m("3334")));
    }
}
