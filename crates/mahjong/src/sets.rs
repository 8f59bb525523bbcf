//! Small bit sets: of tile kinds and of seats.

use std::fmt;

use crate::tile::{TILE_KINDS, Tile, tiles_to_string};

/// A set of tile kinds (e.g. a hand's waits), one bit per kind.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct TileSet(u64);

impl TileSet {
    /// No tile.
    pub const EMPTY: TileSet = TileSet(0);

    /// The set of the kinds whose bits are set in `bits` (bit `i` = kind `i`; bits past 33 are
    /// dropped).
    pub const fn from_bits(bits: u64) -> TileSet {
        TileSet(bits & ((1 << TILE_KINDS) - 1))
    }

    /// The raw bits (bit `i` = kind `i`).
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Adds `t`.
    pub fn insert(&mut self, t: Tile) {
        self.0 |= 1 << t.index();
    }

    /// Whether `t` is in the set.
    pub const fn contains(self, t: Tile) -> bool {
        self.0 >> t.index() & 1 == 1
    }

    /// How many kinds.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in index order.
    pub fn iter(self) -> impl Iterator<Item = Tile> + Clone {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Tile::from_index(i)
        })
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> TileSet {
        let mut s = TileSet::EMPTY;
        for t in iter {
            s.insert(t);
        }
        s
    }
}

impl fmt::Display for TileSet {
    /// The kinds in notation, space-separated; empty for the empty set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&tiles_to_string(self.iter()))
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

/// A set of seats (0–3).
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(u8);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// Just `seat`.
    pub const fn one(seat: u8) -> SeatSet {
        SeatSet(1 << (seat & 3))
    }

    /// Every seat but `seat`.
    pub const fn others(seat: u8) -> SeatSet {
        SeatSet(0b1111 & !(1 << (seat & 3)))
    }

    /// Whether `seat` is in the set.
    pub const fn contains(self, seat: u8) -> bool {
        seat < 4 && self.0 >> seat & 1 == 1
    }

    /// Adds `seat` (0–3).
    pub fn insert(&mut self, seat: u8) {
        self.0 |= 1 << (seat & 3);
    }

    /// How many seats.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> + Clone {
        (0..4u8).filter(move |&s| self.contains(s))
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_sets_iterate_in_kind_order() {
        let s: TileSet = crate::parse_tiles("B 1M 5S 1M")
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(s.to_string(), "1M 5S B");
        assert_eq!(s.len(), 3);
        assert!(s.contains("5S".parse().unwrap()) && !s.contains(Tile::SOUTH));
    }

    #[test]
    fn seat_sets_know_the_others() {
        let o = SeatSet::others(2);
        assert_eq!(o.iter().collect::<Vec<_>>(), vec![0, 1, 3]);
        assert!(!o.contains(2) && !o.contains(7));
        assert_eq!(SeatSet::one(3).len(), 1);
    }
}
