//! Card ranks, the only property of a card that matters in play.

use std::fmt;

/// A card rank, ordered low to high: `3 4 5 6 7 8 9 T J Q K A 2 B R`.
///
/// `B` is the black (small) joker and `R` the red (big) joker. Suits never matter in Dou Dizhu,
/// so a card *is* its rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    /// 3, the lowest rank.
    Three = 0,
    /// 4.
    Four,
    /// 5.
    Five,
    /// 6.
    Six,
    /// 7.
    Seven,
    /// 8.
    Eight,
    /// 9.
    Nine,
    /// 10, written `T`.
    Ten,
    /// Jack.
    Jack,
    /// Queen.
    Queen,
    /// King.
    King,
    /// Ace, the highest rank that may take part in a chain.
    Ace,
    /// 2, above the ace and never part of a chain.
    Two,
    /// The black (small) joker, written `B`.
    BlackJoker,
    /// The red (big) joker, written `R`.
    RedJoker,
}

impl Rank {
    /// Number of ranks.
    pub const COUNT: usize = 15;
    /// Every rank, low to high.
    pub const ALL: [Rank; 15] = [
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
        Rank::Two,
        Rank::BlackJoker,
        Rank::RedJoker,
    ];
    /// Canonical one-character names, indexed by rank.
    pub const CHARS: [char; 15] = [
        '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A', '2', 'B', 'R',
    ];
    /// Ranks that may form chains (straights, pair straights, planes): 3 through A.
    pub const CHAIN_MASK: u16 = 0x0FFF;

    /// The rank with index `i` (0 = `3`, 14 = `R`), or `None` past the red joker.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Rank> {
        if i < Self::COUNT {
            Some(Self::ALL[i])
        } else {
            None
        }
    }

    /// The rank's index, 0 (`3`) to 14 (`R`).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many cards of this rank a deck holds: 4, or 1 for each joker.
    #[inline]
    pub const fn copies(self) -> u8 {
        if self.is_joker() { 1 } else { 4 }
    }

    /// True for the two jokers.
    #[inline]
    pub const fn is_joker(self) -> bool {
        matches!(self, Rank::BlackJoker | Rank::RedJoker)
    }

    /// True for ranks that may be part of a chain (3 through A).
    #[inline]
    pub const fn is_chainable(self) -> bool {
        (self as u8) <= (Rank::Ace as u8)
    }

    /// The canonical character for this rank.
    #[inline]
    pub const fn char(self) -> char {
        Self::CHARS[self as usize]
    }

    /// Parses one rank character; accepts lower case. `10` is handled by the card-set parser.
    pub const fn from_char(c: char) -> Option<Rank> {
        Some(match c {
            '3' => Rank::Three,
            '4' => Rank::Four,
            '5' => Rank::Five,
            '6' => Rank::Six,
            '7' => Rank::Seven,
            '8' => Rank::Eight,
            '9' => Rank::Nine,
            'T' | 't' => Rank::Ten,
            'J' | 'j' => Rank::Jack,
            'Q' | 'q' => Rank::Queen,
            'K' | 'k' => Rank::King,
            'A' | 'a' => Rank::Ace,
            '2' => Rank::Two,
            'B' | 'b' => Rank::BlackJoker,
            'R' | 'r' => Rank::RedJoker,
            _ => return None,
        })
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chars_round_trip_for_every_rank() {
        for r in Rank::ALL {
            assert_eq!(Rank::from_char(r.char()), Some(r));
            assert_eq!(Rank::from_index(r.index()), Some(r));
        }
        assert_eq!(Rank::from_index(15), None);
    }

    #[test]
    fn only_three_to_ace_chain() {
        let chainable: Vec<_> = Rank::ALL.iter().filter(|r| r.is_chainable()).collect();
        assert_eq!(chainable.len(), 12);
        assert!(!Rank::Two.is_chainable());
        assert!(!Rank::RedJoker.is_chainable());
    }
}
