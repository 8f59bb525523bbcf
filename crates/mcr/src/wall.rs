//! The wall as Botzone lays it: 144 tiles (136 without flowers, as IJCAI plays), split into
//! four quarters, one per seat.
//!
//! # Layout
//!
//! The wall is a list of `n` tiles (Botzone's `walltiles`). Seat `i` owns the quarter
//! `[i·n/4, (i+1)·n/4)` and draws from its end: its first tile is the quarter's last. Every draw
//! of a seat (the deal, turns, flower and kong replacements) comes from its own quarter; when
//! the seat must draw and its quarter is empty, the hand is drawn.
//!
//! # The generator (stable: same seed, same wall, on every machine)
//!
//! 1. The 64-bit seed becomes a ChaCha8 generator by `rand_core`'s `seed_from_u64` (a fixed,
//!    documented expansion of the seed into the key).
//! 2. The unshuffled wall is the 136 playing tiles in kind order, four of each (`W1 W1 W1 W1 W2
//!    …`), then `H1 … H8` (left out without flowers).
//! 3. Fisher–Yates: for `i` from the last position down to 1, swap tile `i` with tile `j`, `j`
//!    uniform in `0..=i`, drawn from the generator's 32-bit outputs by Lemire's
//!    multiply-and-reject method (unbiased).
//! 4. [`Deal::from_seed`] then draws the prevalent wind from the same stream, uniform in `0..4`.
//!
//! The shuffle is written here, not borrowed from `rand`, so no library update can change a
//! wall; the test `the_generator_is_pinned` holds one.

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::tile::{FLOWERS, Flower, TILE_KINDS, Tile, TileParseError, WallTile, Wind};

/// Tiles in a wall with flowers.
pub const WALL_TILES: usize = 144;
/// Tiles in a wall without flowers.
pub const WALL_TILES_NO_FLOWERS: usize = 136;

/// The tiles of one hand in Botzone's order (see the module docs).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Wall {
    tiles: [WallTile; WALL_TILES],
    len: u8,
}

/// Why a `walltiles` string was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WallError {
    /// A tile that is not one.
    #[error("walltiles: {0}")]
    Tile(#[from] TileParseError),
    /// Neither 144 nor 136 tiles.
    #[error("walltiles holds {0} tiles; a wall has 144 (or 136 without flowers)")]
    Length(usize),
    /// A kind not exactly four times (or a flower not exactly once).
    #[error("walltiles holds {count} of {tile}; a wall has {want}")]
    Count {
        /// The tile.
        tile: String,
        /// How many the string holds.
        count: usize,
        /// How many a wall has.
        want: usize,
    },
}

impl Wall {
    /// The unshuffled wall: four of each kind in kind order, then the flowers if `flowers`.
    pub fn sorted(flowers: bool) -> Wall {
        let mut tiles = [WallTile::Tile(Tile::default()); WALL_TILES];
        let mut n = 0;
        for t in Tile::all() {
            for _ in 0..4 {
                tiles[n] = WallTile::Tile(t);
                n += 1;
            }
        }
        if flowers {
            for f in 1..=FLOWERS as u8 {
                tiles[n] = WallTile::Flower(Flower::new(f).unwrap_or(Flower::new(1).unwrap()));
                n += 1;
            }
        }
        Wall {
            tiles,
            len: n as u8,
        }
    }

    /// The wall of `seed` (see the module docs), with or without flowers.
    pub fn from_seed(seed: u64, flowers: bool) -> Wall {
        WallRng::new(seed).shuffle(flowers)
    }

    /// The wall of Botzone's `walltiles`: 144 tiles (or 136 without flowers) separated by
    /// spaces, each kind four times and each flower once.
    pub fn from_walltiles(s: &str) -> Result<Wall, WallError> {
        let mut tiles = [WallTile::Tile(Tile::default()); WALL_TILES];
        let mut n = 0;
        let mut kinds = [0usize; TILE_KINDS];
        let mut flowers = [0usize; FLOWERS];
        for word in s.split_whitespace() {
            let t: WallTile = word.parse()?;
            match t {
                WallTile::Tile(x) => kinds[x.index()] += 1,
                WallTile::Flower(f) => flowers[usize::from(f.number() - 1)] += 1,
            }
            if n < WALL_TILES {
                tiles[n] = t;
            }
            n += 1;
        }
        if n != WALL_TILES && n != WALL_TILES_NO_FLOWERS {
            return Err(WallError::Length(n));
        }
        if let Some(t) = Tile::all().find(|t| kinds[t.index()] != 4) {
            return Err(WallError::Count {
                tile: t.to_string(),
                count: kinds[t.index()],
                want: 4,
            });
        }
        let want = usize::from(n == WALL_TILES);
        if let Some(f) = (0..FLOWERS).find(|&f| flowers[f] != want) {
            return Err(WallError::Count {
                tile: format!("H{}", f + 1),
                count: flowers[f],
                want,
            });
        }
        Ok(Wall {
            tiles,
            len: n as u8,
        })
    }

    /// A wall for a scripted hand: seat `i` draws `draws[i]` in order (its dealt tiles first,
    /// flowers set aside as they come), the rest of each quarter filled with the unused tiles in
    /// kind order. Refused when a seat is given more than its quarter or a tile more often than
    /// the wall holds it.
    pub fn arranged(draws: [&[WallTile]; 4], flowers: bool) -> Result<Wall, WallError> {
        let mut pool: Vec<WallTile> = Wall::sorted(flowers).tiles().to_vec();
        let q = pool.len() / 4;
        let mut quarters: [Vec<WallTile>; 4] = Default::default();
        for (seat, mine) in draws.iter().enumerate() {
            if mine.len() > q {
                return Err(WallError::Length(mine.len() * 4));
            }
            for t in *mine {
                let at = pool
                    .iter()
                    .position(|p| p == t)
                    .ok_or_else(|| WallError::Count {
                        tile: t.to_string(),
                        count: 5,
                        want: if matches!(t, WallTile::Flower(_)) {
                            1
                        } else {
                            4
                        },
                    })?;
                pool.remove(at);
                quarters[seat].push(*t);
            }
        }
        let mut text = Vec::with_capacity(pool.len() + 4 * q);
        let mut rest = pool.into_iter();
        for mut quarter in quarters {
            while quarter.len() < q {
                quarter.extend(rest.next());
            }
            // A seat draws from its quarter's end.
            quarter.reverse();
            text.extend(quarter);
        }
        let mut tiles = [WallTile::Tile(Tile::default()); WALL_TILES];
        tiles[..text.len()].copy_from_slice(&text);
        Ok(Wall {
            tiles,
            len: text.len() as u8,
        })
    }

    /// The wall's tiles in Botzone's order.
    pub fn tiles(&self) -> &[WallTile] {
        &self.tiles[..usize::from(self.len)]
    }

    /// Whether the wall holds the flowers.
    pub fn has_flowers(&self) -> bool {
        usize::from(self.len) == WALL_TILES
    }

    /// Seat `seat`'s quarter, in wall order (it draws from the end).
    pub fn quarter(&self, seat: u8) -> &[WallTile] {
        let q = usize::from(self.len) / 4;
        let s = usize::from(seat % 4) * q;
        &self.tiles[s..s + q]
    }
}

impl fmt::Display for Wall {
    /// Botzone's `walltiles`: the tiles in notation separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.tiles().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
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
        Wall::from_walltiles(s)
    }
}

/// One hand's setup: the wall and the prevalent wind (`quan`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    /// The wall.
    pub wall: Wall,
    /// The prevalent wind.
    pub quan: Wind,
}

impl Deal {
    /// The wall (with flowers) and prevalent wind of `seed`, both from one stream.
    pub fn from_seed(seed: u64) -> Deal {
        let mut rng = WallRng::new(seed);
        let wall = rng.shuffle(true);
        let quan = Wind::from_index(rng.below(4) as u8).unwrap_or_default();
        Deal { wall, quan }
    }
}

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

    fn shuffle(&mut self, flowers: bool) -> Wall {
        let mut wall = Wall::sorted(flowers);
        for i in (1..usize::from(wall.len)).rev() {
            let j = self.below(i as u32 + 1) as usize;
            wall.tiles.swap(i, j);
        }
        wall
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_is_pinned() {
        let w = Wall::from_seed(1, true).to_string();
        let first: Vec<&str> = w.split(' ').take(12).collect();
        assert_eq!(first.join(" "), PINNED_SEED_1);
        assert_eq!(Deal::from_seed(1).wall, Wall::from_seed(1, true));
    }

    const PINNED_SEED_1: &str = "H8 F4 T9 T2 B1 B7 B3 J1 T9 F3 J3 T6";

    #[test]
    fn walltiles_round_trip_and_quarters() {
        for flowers in [true, false] {
            let w = Wall::from_seed(7, flowers);
            assert_eq!(w.to_string().parse::<Wall>(), Ok(w));
            let q = if flowers { 36 } else { 34 };
            assert_eq!(w.quarter(3).len(), q);
            assert_eq!(w.quarter(1), &w.tiles()[q..2 * q]);
        }
    }

    #[test]
    fn arranged_walls_deal_the_given_tiles_first_and_refuse_impossible_ones() {
        let t = |s: &str| s.parse::<WallTile>().unwrap();
        let seq = [t("H1"), t("W1"), t("J3")];
        let w = Wall::arranged([&seq, &[], &[t("B9")], &[]], true).unwrap();
        assert_eq!(
            w.quarter(0)[35],
            t("H1"),
            "seat 0 draws from its quarter's end"
        );
        assert_eq!(w.quarter(0)[33], t("J3"));
        assert_eq!(w.quarter(2)[35], t("B9"));
        assert_eq!(w.to_string().parse::<Wall>(), Ok(w));
        let five = [t("W1"); 5];
        assert!(Wall::arranged([&five, &[], &[], &[]], false).is_err());
        assert!(
            Wall::arranged([&[t("H1")], &[], &[], &[]], false).is_err(),
            "no flowers"
        );
    }

    #[test]
    fn bad_walltiles_are_refused_with_the_reason() {
        let w = Wall::from_seed(3, true).to_string();
        let short: Vec<&str> = w.split(' ').skip(1).collect();
        assert_eq!(
            short.join(" ").parse::<Wall>().unwrap_err().to_string(),
            "walltiles holds 143 tiles; a wall has 144 (or 136 without flowers)"
        );
        let swapped = w.replacen("W1", "W2", 1);
        assert!(
            swapped
                .parse::<Wall>()
                .unwrap_err()
                .to_string()
                .starts_with("walltiles holds 3 of W1")
        );
        let bad = w.replacen("W1", "W0", 1);
        assert!(
            bad.parse::<Wall>()
                .unwrap_err()
                .to_string()
                .contains("\"W0\" is not a tile")
        );
        let no_flowers = Wall::from_seed(3, false).to_string();
        let with_flower = no_flowers.replacen("W1", "H1", 1);
        assert!(with_flower.parse::<Wall>().is_err());
    }
}
