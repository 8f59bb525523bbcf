//! Tiles in Botzone's notation, flowers, and hands as counts.

use std::fmt;
use std::str::FromStr;

/// How many kinds of playing tile there are: 27 suited, 4 winds, 3 dragons (four of each).
pub const TILE_KINDS: usize = 34;
/// How many flowers there are (one of each, `H1`–`H8`).
pub const FLOWERS: usize = 8;

/// A hand (or any multiset of playing tiles) as a count per kind, indexed by [`Tile::index`].
pub type Counts = [u8; TILE_KINDS];

/// A suit of numbered tiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Characters (万), written `W`.
    Characters,
    /// Bamboo (条), written `T`.
    Bamboo,
    /// Dots (饼), written `B`.
    Dots,
}

impl Suit {
    /// The three suits in index order.
    pub const ALL: [Suit; 3] = [Suit::Characters, Suit::Bamboo, Suit::Dots];

    /// The suit's letter in Botzone's notation.
    pub const fn letter(self) -> char {
        match self {
            Suit::Characters => 'W',
            Suit::Bamboo => 'T',
            Suit::Dots => 'B',
        }
    }
}

/// A wind: seat winds and the prevalent wind (`quan`), East first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Wind {
    /// East, `F1`; seat 0's wind.
    #[default]
    East,
    /// South, `F2`.
    South,
    /// West, `F3`.
    West,
    /// North, `F4`.
    North,
}

impl Wind {
    /// The four winds, East first.
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    /// The wind numbered `n` (0 East … 3 North), as Botzone numbers seats and `quan`.
    pub const fn from_index(n: u8) -> Option<Wind> {
        match n {
            0 => Some(Wind::East),
            1 => Some(Wind::South),
            2 => Some(Wind::West),
            3 => Some(Wind::North),
            _ => None,
        }
    }

    /// The wind's number, 0 (East) to 3 (North).
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The wind's tile (`F1`–`F4`).
    pub const fn tile(self) -> Tile {
        Tile(27 + self as u8)
    }
}

/// One kind of playing tile, `0..34`, in the sort order of the notation: `W1..W9` are 0–8,
/// `T1..T9` 9–17, `B1..B9` 18–26, the winds `F1..F4` (East, South, West, North) 27–30 and the
/// dragons `J1..J3` (red 中, green 发, white 白) 31–33.
///
/// The suits follow the order the fan library sorts them in (characters, bamboo, dots), so a
/// hand sorted by index is sorted as the judge sorts it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Tile(u8);

impl Tile {
    /// East wind, `F1`.
    pub const EAST: Tile = Tile(27);
    /// South wind, `F2`.
    pub const SOUTH: Tile = Tile(28);
    /// West wind, `F3`.
    pub const WEST: Tile = Tile(29);
    /// North wind, `F4`.
    pub const NORTH: Tile = Tile(30);
    /// The red dragon 中, `J1`.
    pub const RED: Tile = Tile(31);
    /// The green dragon 发, `J2`.
    pub const GREEN: Tile = Tile(32);
    /// The white dragon 白, `J3`.
    pub const WHITE: Tile = Tile(33);

    /// The tile of kind `index`, if `index < 34`.
    pub const fn from_index(index: usize) -> Option<Tile> {
        if index < TILE_KINDS {
            Some(Tile(index as u8))
        } else {
            None
        }
    }

    /// The numbered tile `rank` (1–9) of `suit`.
    pub const fn suited(suit: Suit, rank: u8) -> Option<Tile> {
        if rank >= 1 && rank <= 9 {
            Some(Tile(suit as u8 * 9 + rank - 1))
        } else {
            None
        }
    }

    /// Every kind, in index order.
    pub fn all() -> impl Iterator<Item = Tile> + Clone {
        (0..TILE_KINDS as u8).map(Tile)
    }

    /// The kind's index, `0..34`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The suit of a numbered tile; `None` for winds and dragons.
    pub const fn suit(self) -> Option<Suit> {
        match self.0 / 9 {
            0 => Some(Suit::Characters),
            1 => Some(Suit::Bamboo),
            2 => Some(Suit::Dots),
            _ => None,
        }
    }

    /// The number (1–9) of a numbered tile; `None` for winds and dragons.
    pub const fn rank(self) -> Option<u8> {
        if self.0 < 27 {
            Some(self.0 % 9 + 1)
        } else {
            None
        }
    }

    /// A numbered tile (not an honour).
    pub const fn is_numbered(self) -> bool {
        self.0 < 27
    }

    /// A wind or a dragon.
    pub const fn is_honour(self) -> bool {
        self.0 >= 27
    }

    /// A wind.
    pub const fn is_wind(self) -> bool {
        self.0 >= 27 && self.0 < 31
    }

    /// A dragon.
    pub const fn is_dragon(self) -> bool {
        self.0 >= 31
    }

    /// A 1 or a 9.
    pub const fn is_terminal(self) -> bool {
        self.0 < 27 && (self.0.is_multiple_of(9) || self.0 % 9 == 8)
    }

    /// A terminal or an honour.
    pub const fn is_terminal_or_honour(self) -> bool {
        self.is_terminal() || self.is_honour()
    }

    /// A tile of All Green: bamboo 2, 3, 4, 6, 8 and the green dragon.
    pub const fn is_green(self) -> bool {
        matches!(self.0, 10 | 11 | 12 | 14 | 16 | 32)
    }

    /// A tile of Reversible Tiles (its face looks the same upside down): bamboo 2, 4, 5, 6, 8,
    /// 9, dots 1, 2, 3, 4, 5, 8, 9 and the white dragon.
    pub const fn is_reversible(self) -> bool {
        matches!(self.0, 10 | 12 | 13 | 14 | 16 | 17 | 18..=22 | 25 | 26 | 33)
    }

    /// The tile `by` ranks above (or below, for negative `by`) in the same suit, if there is one.
    pub const fn offset(self, by: i8) -> Option<Tile> {
        match self.rank() {
            Some(r) => {
                let n = r as i8 + by;
                if n >= 1 && n <= 9 {
                    Some(Tile((self.0 as i8 + by) as u8))
                } else {
                    None
                }
            }
            None => None,
        }
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.suit(), self.rank()) {
            (Some(s), Some(r)) => write!(f, "{}{}", s.letter(), r),
            _ if self.is_wind() => write!(f, "F{}", self.0 - 26),
            _ => write!(f, "J{}", self.0 - 30),
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A flower, `H1`–`H8`: drawn, set aside for a point each, and replaced.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Flower(u8);

impl Flower {
    /// Flower `n` (1–8).
    pub const fn new(n: u8) -> Option<Flower> {
        if n >= 1 && n <= 8 {
            Some(Flower(n))
        } else {
            None
        }
    }

    /// The flower's number, 1–8.
    pub const fn number(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Flower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "H{}", self.0)
    }
}

/// Anything in the wall: a playing tile or a flower.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WallTile {
    /// A playing tile.
    Tile(Tile),
    /// A flower.
    Flower(Flower),
}

impl fmt::Display for WallTile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WallTile::Tile(t) => t.fmt(f),
            WallTile::Flower(h) => h.fmt(f),
        }
    }
}

/// Why a tile string was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TileParseError {
    /// Not a tile of the notation at all.
    #[error(
        "{0:?} is not a tile: tiles are W1-W9, T1-T9, B1-B9, F1-F4 (winds), J1-J3 (dragons) and H1-H8 (flowers)"
    )]
    Unknown(String),
    /// A flower where only a playing tile may stand.
    #[error("{0:?} is a flower, not a playing tile")]
    Flower(String),
}

impl FromStr for WallTile {
    type Err = TileParseError;

    fn from_str(s: &str) -> Result<WallTile, TileParseError> {
        let unknown = || TileParseError::Unknown(s.chars().take(16).collect());
        let b = s.as_bytes();
        if b.len() != 2 || !b[1].is_ascii_digit() {
            return Err(unknown());
        }
        let n = b[1] - b'0';
        let tile = |suit| Tile::suited(suit, n).map(WallTile::Tile);
        match b[0] {
            b'W' => tile(Suit::Characters),
            b'T' => tile(Suit::Bamboo),
            b'B' => tile(Suit::Dots),
            b'F' if (1..=4).contains(&n) => Some(WallTile::Tile(Tile(26 + n))),
            b'J' if (1..=3).contains(&n) => Some(WallTile::Tile(Tile(30 + n))),
            b'H' => Flower::new(n).map(WallTile::Flower),
            _ => None,
        }
        .ok_or_else(unknown)
    }
}

impl FromStr for Tile {
    type Err = TileParseError;

    fn from_str(s: &str) -> Result<Tile, TileParseError> {
        match s.parse::<WallTile>()? {
            WallTile::Tile(t) => Ok(t),
            WallTile::Flower(_) => Err(TileParseError::Flower(s.to_owned())),
        }
    }
}

/// Playing tiles separated by whitespace, e.g. `"W1 W2 F3"`.
pub fn parse_tiles(s: &str) -> Result<Vec<Tile>, TileParseError> {
    s.split_whitespace().map(str::parse).collect()
}

/// Tiles in notation, separated by single spaces.
pub fn tiles_to_string(tiles: impl IntoIterator<Item = Tile>) -> String {
    let mut out = String::new();
    for t in tiles {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&t.to_string());
    }
    out
}

/// The counts of `tiles`.
pub fn counts_of(tiles: impl IntoIterator<Item = Tile>) -> Counts {
    let mut c = [0u8; TILE_KINDS];
    for t in tiles {
        c[t.index()] += 1;
    }
    c
}

/// The tiles of `counts`, in index order.
pub fn tiles_of(counts: &Counts) -> impl Iterator<Item = Tile> + '_ {
    Tile::all().flat_map(move |t| std::iter::repeat_n(t, usize::from(counts[t.index()])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_round_trips_through_its_notation() {
        for t in Tile::all() {
            assert_eq!(t.to_string().parse::<Tile>(), Ok(t));
        }
        assert_eq!(tiles_to_string(Tile::all().step_by(9)), "W1 T1 B1 F1");
        assert_eq!("J1".parse(), Ok(Tile::RED));
        assert_eq!("F4".parse(), Ok(Tile::NORTH));
        for n in 1..=8 {
            let s = format!("H{n}");
            assert_eq!(s.parse::<WallTile>().unwrap().to_string(), s);
        }
    }

    #[test]
    fn malformed_tiles_are_refused_by_name() {
        for bad in [
            "", "W", "W0", "W10", "F5", "J4", "H9", "H0", "X1", "w1", "1W", "W1 ",
        ] {
            let err = bad.parse::<WallTile>().unwrap_err();
            assert!(err.to_string().contains("is not a tile"), "{bad:?}: {err}");
        }
        assert_eq!(
            "H3".parse::<Tile>().unwrap_err().to_string(),
            "\"H3\" is a flower, not a playing tile"
        );
        assert!(
            parse_tiles("W1 Q2")
                .unwrap_err()
                .to_string()
                .contains("\"Q2\"")
        );
    }

    #[test]
    fn tile_classes_match_the_rules() {
        let s = |x: &str| x.parse::<Tile>().unwrap();
        assert!(s("T2").is_green() && s("J2").is_green() && !s("T1").is_green());
        assert!(s("J3").is_reversible() && s("B8").is_reversible() && !s("B6").is_reversible());
        assert!(s("W1").is_terminal() && s("B9").is_terminal() && !s("F1").is_terminal());
        assert_eq!(s("W8").offset(1), Some(s("W9")));
        assert_eq!(s("W9").offset(1), None);
        assert_eq!(Wind::South.tile(), Tile::SOUTH);
    }
}
