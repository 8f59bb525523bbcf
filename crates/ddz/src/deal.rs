//! Seeded deals, the deal notation, and constrained generation.
//!
//! # The generator (stable: same seed and index, same deal, on every machine, forever)
//!
//! 1. The 64-bit seed is expanded to a 256-bit ChaCha key with SplitMix64: four successive
//!    outputs, little-endian. The deal index selects the ChaCha stream (`set_stream(index)`).
//! 2. The deck is the 54 cards in rank order (`3333 4444 … 2222 B R`).
//! 3. Fisher–Yates: for `i` from 53 down to 1, swap card `i` with card `j`, `j` uniform in
//!    `0..=i`, drawn from the ChaCha8 stream's 32-bit outputs with Lemire's multiply-and-reject
//!    method (unbiased).
//! 4. Cards 0–16 go to seat 0, 17–33 to seat 1, 34–50 to seat 2, 51–53 are the bottom cards.
//!
//! Only `rand_chacha`'s ChaCha8 block function is borrowed, and ChaCha is a fixed specification;
//! the expansion, shuffle and bounded draws are written here so no library update can change a deal.
//!
//! # Constraints without bias
//!
//! A constrained deal is drawn by rejection: shuffle, test, and shuffle again from the same
//! stream until the deal satisfies the constraint. Every shuffle is an independent uniform deal,
//! so the first accepted one is distributed exactly as a uniform deal conditioned on the
//! constraint: every deal that satisfies it is equally likely, none is favoured.

use std::fmt;
use std::str::FromStr;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

use crate::{CardParseError, CardSet, Rank, Seat};

/// The cards of one game: three hands of 17 and three bottom cards, by seat.
///
/// Notation: `hand0/hand1/hand2/bottom`, each part canonical card notation. When the landlord is
/// fixed in advance (difficulty measurement), seat 0 is the landlord and takes the bottom cards.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    /// The 17-card hands by seat.
    pub hands: [CardSet; 3],
    /// The three bottom cards, given to the landlord.
    pub bottom: CardSet,
}

/// A constraint on generated deals.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct DealConstraint {
    /// Exactly this many bombs in all hands together, the rocket counted as a bomb, with the
    /// bottom cards in seat 0's hand (the fixed-landlord convention).
    pub bombs: Option<u8>,
}

impl DealConstraint {
    /// No constraint.
    pub const NONE: DealConstraint = DealConstraint { bombs: None };

    /// True if `deal` satisfies the constraint.
    pub fn accepts(&self, deal: &Deal) -> bool {
        self.bombs
            .is_none_or(|b| deal.bombs(Seat::ALL[0]) == b as u32)
    }
}

/// Why no deal could be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// The constraint can never be met.
    #[error("no deal can hold {0} bombs: a deck has at most 14 (13 bombs and the rocket)")]
    Impossible(u8),
    /// The constraint was not met within the attempt limit.
    #[error("no deal met the constraint in {0} attempts; it is too rare to sample")]
    TooRare(u64),
}

/// Why a deal string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealParseError {
    /// Not four `/`-separated parts.
    #[error("a deal is four parts hand0/hand1/hand2/bottom, found {0}")]
    Parts(usize),
    /// A part is not valid card notation.
    #[error("part {part}: {err}")]
    Cards {
        /// Which part, from 0.
        part: usize,
        /// What was wrong.
        err: CardParseError,
    },
    /// A part has the wrong number of cards.
    #[error("part {part} has {len} cards, expected {expected}")]
    Size {
        /// Which part, from 0.
        part: usize,
        /// Cards found.
        len: u32,
        /// Cards required.
        expected: u32,
    },
    /// The parts together are not one deck.
    #[error("the four parts together are not exactly one deck")]
    NotOneDeck,
}

/// The deal generator's random stream: ChaCha8 keyed by a SplitMix64 expansion of the seed.
pub struct DealRng(ChaCha8Rng);

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl DealRng {
    /// The stream for deal `index` of `seed`.
    pub fn new(seed: u64, index: u64) -> DealRng {
        let mut key = [0u8; 32];
        let mut state = seed;
        for chunk in key.chunks_exact_mut(8) {
            chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
        }
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(index);
        DealRng(rng)
    }

    /// Next 32 random bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    /// Next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-and-reject method.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        let mut m = u64::from(self.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    /// A uniformly random deal.
    pub fn deal(&mut self) -> Deal {
        let mut deck = [0u8; 54];
        let mut k = 0;
        for r in Rank::ALL {
            for _ in 0..r.copies() {
                deck[k] = r as u8;
                k += 1;
            }
        }
        for i in (1..54).rev() {
            let j = self.below(i as u32 + 1) as usize;
            deck.swap(i, j);
        }
        let part = |cards: &[u8]| {
            cards
                .iter()
                .fold(CardSet::EMPTY, |s, &r| s.plus(Rank::ALL[r as usize], 1))
        };
        Deal {
            hands: [part(&deck[0..17]), part(&deck[17..34]), part(&deck[34..51])],
            bottom: part(&deck[51..54]),
        }
    }
}

/// Bombs (the rocket included) in one hand.
pub(crate) fn bombs_in(hand: CardSet) -> u32 {
    let quads = hand.mask_at_least(4).count_ones();
    let rocket = u32::from(hand.count(Rank::BlackJoker) == 1 && hand.count(Rank::RedJoker) == 1);
    quads + rocket
}

impl Deal {
    /// Attempts per constrained deal before giving up.
    pub const MAX_ATTEMPTS: u64 = 1_000_000;

    /// Deal `index` of `seed`, unconstrained.
    pub fn generate(seed: u64, index: u64) -> Deal {
        DealRng::new(seed, index).deal()
    }

    /// Deal `index` of `seed` under `constraint` (see the module docs for why it is unbiased).
    pub fn generate_with(
        seed: u64,
        index: u64,
        constraint: &DealConstraint,
    ) -> Result<Deal, DealError> {
        if let Some(b) = constraint.bombs
            && b > 14
        {
            return Err(DealError::Impossible(b));
        }
        let mut rng = DealRng::new(seed, index);
        for _ in 0..Self::MAX_ATTEMPTS {
            let d = rng.deal();
            if constraint.accepts(&d) {
                return Ok(d);
            }
        }
        Err(DealError::TooRare(Self::MAX_ATTEMPTS))
    }

    /// The hands at the start of play when `landlord` takes the bottom cards.
    pub fn hands_with_landlord(&self, landlord: Seat) -> [CardSet; 3] {
        let mut h = self.hands;
        h[landlord.index()] = h[landlord.index()] + self.bottom;
        h
    }

    /// Bombs (rocket included) across the three hands when `landlord` takes the bottom cards.
    pub fn bombs(&self, landlord: Seat) -> u32 {
        self.hands_with_landlord(landlord)
            .iter()
            .map(|&h| bombs_in(h))
            .sum()
    }
}

impl fmt::Display for Deal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.hands;
        write!(f, "{a}/{b}/{c}/{}", self.bottom)
    }
}

impl FromStr for Deal {
    type Err = DealParseError;
    fn from_str(s: &str) -> Result<Deal, DealParseError> {
        let parts: Vec<&str> = s.trim().split('/').collect();
        if parts.len() != 4 {
            return Err(DealParseError::Parts(parts.len()));
        }
        let mut sets = [CardSet::EMPTY; 4];
        for (i, p) in parts.iter().enumerate() {
            let set: CardSet = p
                .parse()
                .map_err(|err| DealParseError::Cards { part: i, err })?;
            let expected = if i == 3 { 3 } else { 17 };
            if set.len() != expected {
                return Err(DealParseError::Size {
                    part: i,
                    len: set.len(),
                    expected,
                });
            }
            sets[i] = set;
        }
        let all = sets
            .iter()
            .try_fold(CardSet::EMPTY, |acc, &s| acc.try_add(s));
        if all != Some(CardSet::DECK) {
            return Err(DealParseError::NotOneDeck);
        }
        Ok(Deal {
            hands: [sets[0], sets[1], sets[2]],
            bottom: sets[3],
        })
    }
}

impl serde::Serialize for Deal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Deal {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Deal, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_are_whole_decks_and_round_trip() {
        for i in 0..200 {
            let d = Deal::generate(7, i);
            let all = d.hands.iter().fold(d.bottom, |a, &h| a + h);
            assert_eq!(all, CardSet::DECK);
            assert_eq!(d.to_string().parse::<Deal>(), Ok(d));
        }
    }

    #[test]
    fn same_seed_same_deal_different_index_different_deal() {
        assert_eq!(Deal::generate(42, 3), Deal::generate(42, 3));
        assert_ne!(Deal::generate(42, 3), Deal::generate(42, 4));
        assert_ne!(Deal::generate(42, 3), Deal::generate(43, 3));
    }

    #[test]
    fn generator_is_pinned() {
        // The documented algorithm's output for seed 1, deal 0. If this changes, every stored
        // deal library and every published seed changes meaning: never update it casually.
        assert_eq!(Deal::generate(1, 0).to_string(), PINNED_SEED_1);
    }

    const PINNED_SEED_1: &str = "33355789TTJQQKK2B/4456899JJJQKAAA2R/34456677889TTQKA2/672";

    #[test]
    fn bomb_constraint_is_met() {
        for b in 0..4u8 {
            let c = DealConstraint { bombs: Some(b) };
            for i in 0..20 {
                let d = Deal::generate_with(9, i, &c).unwrap();
                assert_eq!(d.bombs(Seat::ALL[0]), b as u32);
            }
        }
        assert_eq!(
            Deal::generate_with(1, 0, &DealConstraint { bombs: Some(15) }),
            Err(DealError::Impossible(15))
        );
    }

    #[test]
    fn parse_errors() {
        assert_eq!("3/4".parse::<Deal>(), Err(DealParseError::Parts(2)));
        let d = Deal::generate(1, 1).to_string();
        let swapped = d.replacen('/', "", 1) + "/3";
        assert!(swapped.parse::<Deal>().is_err());
    }
}
