//! The seeded wall and the deal.
//!
//! # The generator (stable: same seed, same wall and first player, on every machine)
//!
//! 1. The 64-bit seed becomes a ChaCha8 generator by `rand_core`'s
//!    `SeedableRng::seed_from_u64`: the 32-byte key is filled with successive outputs of a PCG32
//!    generator started from the seed (rand_core documents this expansion as portable and
//!    fixed). The test `the_generator_is_pinned` holds the first walls of two seeds, so a
//!    library update that changed them would fail it.
//! 2. The unshuffled wall is the 136 tiles in kind order, four of each (`1M 1M 1M 1M 2M …`).
//! 3. Fisher–Yates: for `i` from 135 down to 1, swap tile `i` with tile `j`, `j` uniform in
//!    `0..=i`, drawn from the generator's 32-bit outputs by Lemire's multiply-and-reject method
//!    (unbiased).
//! 4. The first player is the next draw of the same stream, uniform in `0..4` (same method).
//!
//! The shuffle and the bounded draws are written here, not borrowed from `rand`, so no library
//! update can change a wall.
//!
//! # Dealing and drawing
//!
//! Tiles 0–12 of the wall are seat 0's hand, 13–25 seat 1's, 26–38 seat 2's and 39–51 seat 3's.
//! Every later draw, kong replacements included, takes the next tile from position 52 on: 84
//! drawable tiles.

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::tile::{Counts, TILE_KINDS, Tile, TileParseError, parse_tiles, tiles_to_string};

/// Tiles in a wall: four of each of the 34 kinds.
pub const WALL_TILES: usize = 136;
/// Tiles in a dealt hand.
pub const HAND_TILES: usize = 13;
/// Tiles dealt before play: 13 to each of the four seats.
pub const DEALT_TILES: usize = 4 * HAND_TILES;
/// Tiles that can be drawn after the deal (kong replacements included).
pub const DRAWABLE_TILES: usize = WALL_TILES - DEALT_TILES;

/// The 136 tiles in the order they are dealt and drawn (see the module docs).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Wall([Tile; WALL_TILES]);

/// Why a list of tiles is not a wall.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WallError {
    /// Not 136 tiles.
    #[error("a wall has 136 tiles, found {0}")]
    Length(usize),
    /// Some kind is not there exactly four times.
    #[error("a wall holds four of every kind; {tile} appears {count} times")]
    Count {
        /// The first kind with a wrong count.
        tile: Tile,
        /// How often it appears.
        count: usize,
    },
    /// An arranged wall asks for more than four of a kind.
    #[error("the arranged hands and draws hold more than four {0}")]
    TooMany(Tile),
    /// A tile could not be read.
    #[error(transparent)]
    Parse(#[from] TileParseError),
}

/// The wall's random stream (see the module docs).
struct WallRng(ChaCha8Rng);

impl WallRng {
    fn new(seed: u64) -> WallRng {
        WallRng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-and-reject method.
    fn below(&mut self, n: u32) -> u32 {
        let mut m = u64::from(self.0.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.0.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }

    fn shuffle(&mut self) -> Wall {
        let mut tiles = Wall::sorted().0;
        for i in (1..WALL_TILES).rev() {
            let j = self.below(i as u32 + 1) as usize;
            tiles.swap(i, j);
        }
        Wall(tiles)
    }
}

impl Wall {
    /// The 136 tiles in kind order, four of each.
    pub fn sorted() -> Wall {
        let mut tiles = [Tile::default(); WALL_TILES];
        for (i, t) in tiles.iter_mut().enumerate() {
            *t = Tile::from_index(i / 4).expect("i / 4 < 34");
        }
        Wall(tiles)
    }

    /// The wall of `seed` (the generator is in the module docs).
    pub fn from_seed(seed: u64) -> Wall {
        WallRng::new(seed).shuffle()
    }

    /// A wall given tile by tile; it must hold exactly four of every kind.
    pub fn from_tiles(tiles: &[Tile]) -> Result<Wall, WallError> {
        if tiles.len() != WALL_TILES {
            return Err(WallError::Length(tiles.len()));
        }
        let mut counts = [0usize; TILE_KINDS];
        for t in tiles {
            counts[t.index()] += 1;
        }
        if let Some(i) = counts.iter().position(|&c| c != 4) {
            return Err(WallError::Count {
                tile: Tile::from_index(i).expect("i < 34"),
                count: counts[i],
            });
        }
        let mut w = [Tile::default(); WALL_TILES];
        w.copy_from_slice(tiles);
        Ok(Wall(w))
    }

    /// A wall arranged for a scripted hand: seat `s` is dealt `hands[s]` (13 tiles each), the
    /// first draws are `draws` in order, and the rest of the wall is the remaining tiles in kind
    /// order. Fails if the hands and draws hold more than four of a kind, or a hand is not 13
    /// tiles.
    pub fn arranged(hands: [&[Tile]; 4], draws: &[Tile]) -> Result<Wall, WallError> {
        if let Some(h) = hands.iter().find(|h| h.len() != HAND_TILES) {
            return Err(WallError::Length(h.len()));
        }
        let mut left = [4u8; TILE_KINDS];
        let mut tiles = Vec::with_capacity(WALL_TILES);
        for &t in hands.iter().flat_map(|h| h.iter()).chain(draws) {
            if left[t.index()] == 0 {
                return Err(WallError::TooMany(t));
            }
            left[t.index()] -= 1;
            tiles.push(t);
        }
        for t in Tile::all() {
            for _ in 0..left[t.index()] {
                tiles.push(t);
            }
        }
        Wall::from_tiles(&tiles)
    }

    /// The tiles in dealing order.
    pub fn tiles(&self) -> &[Tile; WALL_TILES] {
        &self.0
    }

    /// The 13 tiles dealt to `seat` (0–3), in dealing order.
    pub fn initial_hand(&self, seat: u8) -> &[Tile] {
        let s = usize::from(seat % 4) * HAND_TILES;
        &self.0[s..s + HAND_TILES]
    }

    /// The hand dealt to `seat` as counts.
    pub fn initial_counts(&self, seat: u8) -> Counts {
        let mut c = [0u8; TILE_KINDS];
        for t in self.initial_hand(seat) {
            c[t.index()] += 1;
        }
        c
    }

    /// The 84 tiles drawn after the deal, in drawing order.
    pub fn draws(&self) -> &[Tile] {
        &self.0[DEALT_TILES..]
    }
}

impl fmt::Display for Wall {
    /// The 136 tiles in notation, separated by spaces (read back by `str::parse`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&tiles_to_string(self.0.iter().copied()))
    }
}

impl fmt::Debug for Wall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Wall({self})")
    }
}

impl std::str::FromStr for Wall {
    type Err = WallError;

    fn from_str(s: &str) -> Result<Wall, WallError> {
        Wall::from_tiles(&parse_tiles(s)?)
    }
}

/// One hand's setup: the wall and the seat that draws first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    /// The wall, in dealing order.
    pub wall: Wall,
    /// The seat (0–3) that draws first.
    pub first: u8,
}

impl Deal {
    /// The wall and first player of `seed`, both from one stream (see the module docs).
    pub fn from_seed(seed: u64) -> Deal {
        let mut rng = WallRng::new(seed);
        let wall = rng.shuffle();
        let first = rng.below(4) as u8;
        Deal { wall, first }
    }

    /// A 64-bit digest of the deal (FNV-1a over the wall and the first seat), the seed handed
    /// to bots for their own randomness when the deal itself came without one.
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self
            .wall
            .0
            .iter()
            .map(|t| t.index() as u8)
            .chain([self.first])
        {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seeded_wall_holds_four_of_every_kind_and_is_reproducible() {
        for seed in [0, 1, 42, u64::MAX] {
            let w = Wall::from_seed(seed);
            assert_eq!(Wall::from_tiles(w.tiles()), Ok(w));
            assert_eq!(Wall::from_seed(seed), w);
        }
        assert_ne!(Wall::from_seed(1), Wall::from_seed(2));
    }

    #[test]
    fn the_generator_is_pinned() {
        // The first dealt hand of two seeds, and their first players. If this fails, every
        // logged seed would replay differently: the generator must not change.
        let d0 = Deal::from_seed(0);
        let d1 = Deal::from_seed(1);
        assert_eq!(
            (
                tiles_to_string(d0.wall.initial_hand(0).iter().copied()),
                d0.first
            ),
            (PINNED_0.to_string(), PINNED_0_FIRST)
        );
        assert_eq!(
            (
                tiles_to_string(d1.wall.initial_hand(0).iter().copied()),
                d1.first
            ),
            (PINNED_1.to_string(), PINNED_1_FIRST)
        );
    }

    const PINNED_0: &str = "5T 8T Z 2S 4T 2T B 4T 7T W 3S 5M F";
    const PINNED_0_FIRST: u8 = 0;
    const PINNED_1: &str = "7T 8T N N 1T W E 8S 6T 9M 7S 4S W";
    const PINNED_1_FIRST: u8 = 1;

    #[test]
    fn first_players_are_spread_over_the_seats() {
        let mut seen = [0u32; 4];
        for seed in 0..400 {
            seen[usize::from(Deal::from_seed(seed).first)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 60), "{seen:?}");
    }

    #[test]
    fn bad_walls_are_refused_with_the_reason() {
        let w = Wall::from_seed(3);
        assert_eq!(
            Wall::from_tiles(&w.tiles()[..135]),
            Err(WallError::Length(135))
        );
        let mut t = *w.tiles();
        let first = t[0];
        let other = t.iter().copied().find(|&x| x != first).unwrap();
        t[0] = other;
        let e = Wall::from_tiles(&t).unwrap_err();
        assert!(matches!(e, WallError::Count { count: 3 | 5, .. }), "{e}");
        assert_eq!(w.to_string().parse::<Wall>(), Ok(w));
        assert!(matches!("1M X".parse::<Wall>(), Err(WallError::Parse(_))));
    }

    #[test]
    fn the_deal_splits_the_wall_into_four_hands_and_84_draws() {
        let w = Wall::from_seed(9);
        let mut total = [0u8; TILE_KINDS];
        for s in 0..4 {
            let c = w.initial_counts(s);
            assert_eq!(c.iter().map(|&x| x as usize).sum::<usize>(), 13);
            for i in 0..TILE_KINDS {
                total[i] += c[i];
            }
        }
        for t in w.draws() {
            total[t.index()] += 1;
        }
        assert_eq!(w.draws().len(), 84);
        assert!(total.iter().all(|&c| c == 4));
    }
}
