//! Declared sets: the chows, pungs and kongs a seat has laid down (or, for a concealed kong,
//! declared face down).

use std::fmt;

use crate::tile::Tile;

/// How a kong was made.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum KongKind {
    /// Claimed on another seat's discard with three of the kind in hand (大明杠).
    Exposed,
    /// The fourth tile added to one's own melded pung (加杠).
    Added,
    /// Four of the kind in hand, declared face down (暗杠); other seats are not told the tile.
    Concealed,
}

/// A declared set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Meld {
    /// A chow, named by its lowest tile.
    Chow(Tile),
    /// A pung claimed on a discard.
    Pung(Tile),
    /// A kong.
    Kong(Tile, KongKind),
}

impl Meld {
    /// The tile that names the set (the lowest tile of a chow).
    pub const fn tile(self) -> Tile {
        match self {
            Meld::Chow(t) | Meld::Pung(t) | Meld::Kong(t, _) => t,
        }
    }

    /// Whether the set counts as concealed for fans (only a concealed kong does).
    pub const fn is_concealed(self) -> bool {
        matches!(self, Meld::Kong(_, KongKind::Concealed))
    }
}

impl fmt::Display for Meld {
    /// `chow 2S`, `pung E`, `kong 5T` (exposed), `added-kong 5T`, `concealed-kong 5T`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Meld::Chow(t) => write!(f, "chow {t}"),
            Meld::Pung(t) => write!(f, "pung {t}"),
            Meld::Kong(t, KongKind::Exposed) => write!(f, "kong {t}"),
            Meld::Kong(t, KongKind::Added) => write!(f, "added-kong {t}"),
            Meld::Kong(t, KongKind::Concealed) => write!(f, "concealed-kong {t}"),
        }
    }
}
