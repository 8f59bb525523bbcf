//! Tiles, their notation and hands as counts.

use std::fmt;
use std::str::FromStr;

/// How many kinds of tile there are: 27 suited (three suits of 1–9), 4 winds, 3 dragons. The
/// wall holds four of each.
pub const TILE_KINDS: usize = 34;

/// A suit of numbered tiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Characters (万), written `M`.
    Characters,
    /// Bamboo (索), written `S`.
    Bamboo,
    /// Dots (筒), written `T`.
    Dots,
}

impl Suit {
    /// The three suits in index order.
    pub const ALL: [Suit; 3] = [Suit::Characters, Suit::Bamboo, Suit::Dots];

    /// The suit's letter in the notation.
    pub const fn letter(self) -> char {
        match self {
            Suit::Characters => 'M',
            Suit::Bamboo => 'S',
            Suit::Dots => 'T',
        }
    }
}

/// One kind of tile, `0..34`: `1M..9M` are 0–8, `1S..9S` 9–17, `1T..9T` 18–26, the winds
/// East, South, West, North 27–30 and the dragons 中 (`Z`), 发 (`F`), 白 (`B`) 31–33. The order
/// is the notation's sort order.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Tile(u8);

/// A hand (or any multiset of tiles) as the count of each kind, indexed by [`Tile::index`].
pub type Counts = [u8; TILE_KINDS];

const HONOURS: [char; 7] = ['E', 'S', 'W', 'N', 'Z', 'F', 'B'];

impl Tile {
    /// East wind.
    pub const EAST: Tile = Tile(27);
    /// South wind.
    pub const SOUTH: Tile = Tile(28);
    /// West wind.
    pub const WEST: Tile = Tile(29);
    /// North wind.
    pub const NORTH: Tile = Tile(30);
    /// The red dragon 中, written `Z`.
    pub const RED: Tile = Tile(31);
    /// The green dragon 发, written `F`.
    pub const GREEN: Tile = Tile(32);
    /// The white dragon 白, written `B`.
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

    /// A 1 or a 9 of a suit.
    pub const fn is_terminal(self) -> bool {
        self.0 < 27 && matches!(self.0 % 9, 0 | 8)
    }

    /// A terminal or an honour (幺九).
    pub const fn is_terminal_or_honour(self) -> bool {
        self.is_honour() || self.is_terminal()
    }

    /// The tile one rank up in the same suit (`None` past 9 and for honours): chows are
    /// named by their lowest tile, `t`, `t.next()`, `t.next().next()`.
    pub const fn next(self) -> Option<Tile> {
        if self.0 < 27 && self.0 % 9 < 8 {
            Some(Tile(self.0 + 1))
        } else {
            None
        }
    }

    /// Whether a chow can start at this tile (a numbered tile of rank 1–7).
    pub const fn starts_chow(self) -> bool {
        self.0 < 27 && self.0 % 9 < 7
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.suit(), self.rank()) {
            (Some(suit), Some(rank)) => write!(f, "{rank}{}", suit.letter()),
            _ => write!(f, "{}", HONOURS[self.index() - 27]),
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A tile string that is not a tile of the notation, with the token that is not.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{token:?} (token {position}) is not a tile: tiles are 1M..9M, 1S..9S, 1T..9T, E S W N (winds), Z F B (dragons)"
)]
pub struct TileParseError {
    /// The token as written.
    pub token: String,
    /// Its position among the string's tokens, counting from 1.
    pub position: usize,
}

impl FromStr for Tile {
    type Err = TileParseError;

    /// Reads one tile, e.g. `5S` (five of bamboo) or `S` (South). Exactly the contest's
    /// spelling: upper case, no spaces.
    fn from_str(s: &str) -> Result<Tile, TileParseError> {
        let bad = || TileParseError {
            token: s.to_string(),
            position: 1,
        };
        match s.as_bytes() {
            [c] => HONOURS
                .iter()
                .position(|&h| h as u8 == *c)
                .map(|i| Tile(27 + i as u8))
                .ok_or_else(bad),
            [d @ b'1'..=b'9', suit] => {
                let suit = match suit {
                    b'M' => Suit::Characters,
                    b'S' => Suit::Bamboo,
                    b'T' => Suit::Dots,
                    _ => return Err(bad()),
                };
                Tile::suited(suit, d - b'0').ok_or_else(bad)
            }
            _ => Err(bad()),
        }
    }
}

/// Reads space-separated tiles (`"1M 2M 3M E"`); the error names the first bad token and its
/// position. Any run of whitespace separates tokens.
pub fn parse_tiles(s: &str) -> Result<Vec<Tile>, TileParseError> {
    s.split_whitespace()
        .enumerate()
        .map(|(i, token)| {
            token.parse::<Tile>().map_err(|mut e| {
                e.position = i + 1;
                e
            })
        })
        .collect()
}

/// Writes tiles in the notation, separated by single spaces.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_back_its_own_notation() {
        let written = tiles_to_string(Tile::all());
        assert_eq!(
            written,
            "1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 2S 3S 4S 5S 6S 7S 8S 9S \
             1T 2T 3T 4T 5T 6T 7T 8T 9T E S W N Z F B"
        );
        assert_eq!(
            parse_tiles(&written).unwrap(),
            Tile::all().collect::<Vec<_>>()
        );
    }

    #[test]
    fn south_alone_is_a_wind_and_5s_is_bamboo() {
        assert_eq!("S".parse::<Tile>().unwrap(), Tile::SOUTH);
        let five = "5S".parse::<Tile>().unwrap();
        assert_eq!((five.suit(), five.rank()), (Some(Suit::Bamboo), Some(5)));
    }

    #[test]
    fn a_bad_token_is_named_with_its_position() {
        let e = parse_tiles("1M 2M 0T E").unwrap_err();
        assert_eq!((e.token.as_str(), e.position), ("0T", 3));
        assert!(
            e.to_string().contains("\"0T\" (token 3) is not a tile"),
            "{e}"
        );
        for bad in ["10M", "5X", "e", "1m", "", "MM", "ZZ", "中"] {
            assert!(bad.parse::<Tile>().is_err(), "{bad}");
        }
    }

    #[test]
    fn kinds_know_their_class() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        assert!(t("1M").is_terminal() && t("9T").is_terminal() && !t("5S").is_terminal());
        assert!(t("E").is_wind() && t("N").is_wind() && !t("Z").is_wind());
        assert!(t("Z").is_dragon() && t("B").is_dragon() && t("F").is_honour());
        assert!(t("E").is_terminal_or_honour() && !t("2M").is_terminal_or_honour());
        assert_eq!(t("8M").next(), Some(t("9M")));
        assert_eq!(t("9M").next(), None);
        assert!(t("7S").starts_chow() && !t("8S").starts_chow() && !t("E").starts_chow());
    }
}
