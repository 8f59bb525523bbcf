//! Card sets: a multiset of ranks packed into one `u64`, with the card notation.
//!
//! Notation: one character per card, `3 4 5 6 7 8 9 T J Q K A 2 B R`. Input accepts lower case,
//! `10` for `T`, and ignores whitespace; output is canonical, sorted low to high (`33344455`, `BR`).

use std::fmt;
use std::str::FromStr;

use crate::Rank;

/// Bits 4*i..4*i+4 hold the count of rank i; this mask has the top bit of every used nibble.
const HIGH_BITS: u64 = 0x0888_8888_8888_8888;
const DECK: u64 = 0x0114_4444_4444_4444;

/// A multiset of cards, stored as a 4-bit count per rank in one `u64`.
///
/// It is `Copy`, hashes and compares as an integer, and every set operation (union, difference,
/// subset test, size) is a handful of integer instructions, which keeps move generation and
/// game simulation free of allocation. A `CardSet` never holds more of a rank than a deck does
/// (4, or 1 of each joker): the parser and the checked operations enforce it.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardSet(u64);

/// Why a card string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardParseError {
    /// A character that names no rank.
    #[error(
        "unknown card character {ch:?} at position {pos} (expected one of 3456789TJQKA2BR or 10)"
    )]
    UnknownCharacter {
        /// The offending character.
        ch: char,
        /// Its character position in the input, from 0.
        pos: usize,
    },
    /// More cards of one rank than a deck holds.
    #[error("{count} cards of rank {rank}, but a deck has only {max}")]
    TooMany {
        /// The rank that overflowed.
        rank: Rank,
        /// How many the input asked for.
        count: usize,
        /// How many a deck holds.
        max: u8,
    },
    /// A `1` not followed by `0`.
    #[error("'1' at position {pos} must be followed by '0' (ten is written T or 10)")]
    LoneOne {
        /// Its character position in the input, from 0.
        pos: usize,
    },
}

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 54 cards.
    pub const DECK: CardSet = CardSet(DECK);

    /// Builds a set from its packed representation; `None` if any count exceeds the deck.
    pub const fn from_raw(raw: u64) -> Option<CardSet> {
        let s = CardSet(raw);
        if raw & !0x0FFF_FFFF_FFFF_FFFF != 0 || !s.is_subset_of(CardSet::DECK) {
            None
        } else {
            Some(s)
        }
    }

    /// The packed representation: count of rank i in bits `4i..4i+4`.
    #[inline]
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// A set of `count` cards of one rank; `None` if a deck has fewer.
    #[inline]
    pub const fn of(rank: Rank, count: u8) -> Option<CardSet> {
        if count > rank.copies() {
            None
        } else {
            Some(CardSet((count as u64) << (4 * rank as u32)))
        }
    }

    /// Builds a set from counts indexed by rank; `None` if any count exceeds the deck.
    pub fn from_counts(counts: &[u8; 15]) -> Option<CardSet> {
        let mut s = CardSet::EMPTY;
        for r in Rank::ALL {
            s = s.try_add(CardSet::of(r, counts[r.index()])?)?;
        }
        Some(s)
    }

    /// Number of cards of `rank`.
    #[inline]
    pub const fn count(self, rank: Rank) -> u8 {
        ((self.0 >> (4 * rank as u32)) & 0xF) as u8
    }

    /// Counts indexed by rank.
    #[inline]
    pub fn counts(self) -> [u8; 15] {
        let mut c = [0u8; 15];
        for (i, v) in c.iter_mut().enumerate() {
            *v = ((self.0 >> (4 * i)) & 0xF) as u8;
        }
        c
    }

    /// Total number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        // Sum the nibbles without `count_ones`, which is a software popcount on the baseline
        // x86-64 target: add neighbouring nibbles into bytes (each at most 8, as counts never
        // exceed 4), then sum the bytes with one multiply (the total, at most 54, fits a byte).
        const NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
        let bytes = (self.0 & NIBBLES) + ((self.0 >> 4) & NIBBLES);
        (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    /// True if the set holds no card.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if every card of `self` is also in `other` (multiset inclusion).
    #[inline]
    pub const fn is_subset_of(self, other: CardSet) -> bool {
        // Subtract nibble-wise with a guard bit above each count: a borrow clears the guard bit.
        ((other.0 | HIGH_BITS).wrapping_sub(self.0) & HIGH_BITS) == HIGH_BITS
    }

    /// The union of two sets, or `None` if it would hold more of a rank than a deck does.
    #[inline]
    pub const fn try_add(self, other: CardSet) -> Option<CardSet> {
        let sum = CardSet(self.0 + other.0);
        if sum.is_subset_of(CardSet::DECK) {
            Some(sum)
        } else {
            None
        }
    }

    /// `self` minus `other`, or `None` if `other` is not a subset of `self`.
    #[inline]
    pub const fn try_sub(self, other: CardSet) -> Option<CardSet> {
        if other.is_subset_of(self) {
            Some(CardSet(self.0 - other.0))
        } else {
            None
        }
    }

    /// `self` with `n` more cards of `rank`.
    ///
    /// Callers guarantee the result fits in a deck; it is checked in debug builds.
    #[inline]
    pub(crate) const fn plus(self, rank: Rank, n: u8) -> CardSet {
        CardSet(self.0 + ((n as u64) << (4 * rank as u32)))
    }

    /// Bit i is set when rank i has at least `k` cards (`k` in 1..=4).
    #[inline]
    pub fn mask_at_least(self, k: u8) -> u16 {
        let mut m = 0u16;
        let mut x = self.0;
        let mut i = 0;
        while x != 0 {
            if (x & 0xF) as u8 >= k {
                m |= 1 << i;
            }
            x >>= 4;
            i += 1;
        }
        m
    }

    /// The lowest rank present.
    #[inline]
    pub const fn lowest(self) -> Option<Rank> {
        if self.0 == 0 {
            None
        } else {
            Rank::from_index(self.0.trailing_zeros() as usize / 4)
        }
    }

    /// The highest rank present.
    #[inline]
    pub const fn highest(self) -> Option<Rank> {
        if self.0 == 0 {
            None
        } else {
            Rank::from_index((63 - self.0.leading_zeros() as usize) / 4)
        }
    }

    /// The cards from low to high, one item per card.
    pub fn iter(self) -> impl Iterator<Item = Rank> {
        Rank::ALL
            .into_iter()
            .flat_map(move |r| std::iter::repeat_n(r, self.count(r) as usize))
    }

    /// The distinct ranks present with their counts, low to high.
    pub fn ranks(self) -> impl Iterator<Item = (Rank, u8)> {
        Rank::ALL
            .into_iter()
            .map(move |r| (r, self.count(r)))
            .filter(|&(_, c)| c > 0)
    }

    /// Writes the canonical notation into a fixed buffer (at most 54 bytes) and returns it.
    pub fn write_to(self, buf: &mut [u8; 54]) -> &str {
        // Only ASCII rank characters are written.
        std::str::from_utf8(self.write_ascii(buf)).unwrap_or("")
    }

    /// [`CardSet::write_to`] as the bytes, for a writer that wants them (ASCII, not checked
    /// again as a string).
    pub fn write_ascii(self, buf: &mut [u8; 54]) -> &[u8] {
        // Rank by rank through the set's non-zero nibbles only: replays and observations
        // write a card set for every play.
        let mut n = 0;
        let mut bits = self.0;
        while bits != 0 {
            let i = (bits.trailing_zeros() / 4) as usize;
            let Some(rank) = Rank::ALL.get(i) else {
                break;
            };
            let end = (n + ((bits >> (4 * i)) & 0xF) as usize).min(buf.len());
            buf[n..end].fill(rank.char() as u8);
            n = end;
            bits &= !(0xF << (4 * i));
        }
        &buf[..n]
    }

    /// The canonical notation as a `String`, as `to_string` gives it, without the formatting
    /// machinery: one allocation of the exact size (observations carry many card sets).
    pub fn to_text(self) -> String {
        let mut buf = [0u8; 54];
        self.write_to(&mut buf).to_owned()
    }
}

impl std::ops::Add for CardSet {
    type Output = CardSet;
    /// Union. The caller guarantees the result fits in one deck (debug-checked).
    #[inline]
    fn add(self, rhs: CardSet) -> CardSet {
        debug_assert!(
            self.try_add(rhs).is_some(),
            "card set overflow: {self} + {rhs}"
        );
        CardSet(self.0 + rhs.0)
    }
}

impl std::ops::Sub for CardSet {
    type Output = CardSet;
    /// Difference. The caller guarantees `rhs` is a subset of `self` (debug-checked).
    #[inline]
    fn sub(self, rhs: CardSet) -> CardSet {
        debug_assert!(rhs.is_subset_of(self), "card set underflow: {self} - {rhs}");
        CardSet(self.0 - rhs.0)
    }
}

impl FromStr for CardSet {
    type Err = CardParseError;

    fn from_str(s: &str) -> Result<CardSet, CardParseError> {
        let mut counts = [0usize; 15];
        let mut chars = s.chars().enumerate().peekable();
        while let Some((pos, ch)) = chars.next() {
            if ch.is_whitespace() {
                continue;
            }
            let rank = if ch == '1' {
                match chars.next() {
                    Some((_, '0')) => Rank::Ten,
                    _ => return Err(CardParseError::LoneOne { pos }),
                }
            } else {
                Rank::from_char(ch).ok_or(CardParseError::UnknownCharacter { ch, pos })?
            };
            counts[rank.index()] += 1;
        }
        let mut set = CardSet::EMPTY;
        for r in Rank::ALL {
            let count = counts[r.index()];
            if count > r.copies() as usize {
                return Err(CardParseError::TooMany {
                    rank: r,
                    count,
                    max: r.copies(),
                });
            }
            set = set.plus(r, count as u8);
        }
        Ok(set)
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 54];
        f.write_str(self.write_to(&mut buf))
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet({self})")
    }
}

impl serde::Serialize for CardSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for CardSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    #[test]
    fn parses_and_prints_canonically() {
        assert_eq!(cs("55433 4").to_string(), "334455");
        assert_eq!(cs("rb").to_string(), "BR");
        assert_eq!(cs("10tJ").to_string(), "TTJ");
        assert_eq!(cs("").to_string(), "");
        assert_eq!(CardSet::DECK.len(), 54);
        assert_eq!(
            CardSet::DECK.to_string(),
            "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR"
        );
    }

    #[test]
    fn parse_errors_name_the_problem() {
        assert_eq!(
            "33X".parse::<CardSet>(),
            Err(CardParseError::UnknownCharacter { ch: 'X', pos: 2 })
        );
        assert_eq!(
            "33333".parse::<CardSet>(),
            Err(CardParseError::TooMany {
                rank: Rank::Three,
                count: 5,
                max: 4
            })
        );
        assert_eq!(
            "BB".parse::<CardSet>(),
            Err(CardParseError::TooMany {
                rank: Rank::BlackJoker,
                count: 2,
                max: 1
            })
        );
        assert_eq!(
            "31".parse::<CardSet>(),
            Err(CardParseError::LoneOne { pos: 1 })
        );
        let msg = "3Z".parse::<CardSet>().unwrap_err().to_string();
        assert!(msg.contains("'Z'") && msg.contains("position 1"), "{msg}");
    }

    #[test]
    fn set_arithmetic() {
        let a = cs("3334445");
        let b = cs("345");
        assert!(b.is_subset_of(a));
        assert!(!a.is_subset_of(b));
        assert!(cs("3333").is_subset_of(CardSet::DECK));
        assert!(!cs("3333").is_subset_of(a));
        assert_eq!(a.try_sub(b), Some(cs("3344")));
        assert_eq!(b.try_sub(a), None);
        assert_eq!(cs("B").try_add(cs("B")), None);
        assert_eq!(cs("B").try_add(cs("R")), Some(cs("BR")));
        assert_eq!(a.len(), 7);
        assert_eq!(a.lowest(), Some(Rank::Three));
        assert_eq!(a.highest(), Some(Rank::Five));
        assert_eq!(cs("R").highest(), Some(Rank::RedJoker));
        assert_eq!(a.mask_at_least(3), 0b11);
        assert_eq!(CardSet::from_raw(CardSet::DECK.raw() + 1), None);
    }
}
