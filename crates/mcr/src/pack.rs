//! Packs: the chows, pungs and kongs a hand has declared.

use std::fmt;

use crate::tile::{Counts, Tile};

/// What a pack is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PackKind {
    /// Three in sequence (吃, `CHI`).
    Chow,
    /// Three of a kind (碰, `PENG`).
    Pung,
    /// Four of a kind (杠, `GANG`), concealed or not.
    Kong,
}

/// A declared pack, as Botzone's judge and the fan library describe one.
///
/// `offer` says where the claimed tile came from, in the fan library's convention: for a pung
/// or a kong the giver's seat relative to the owner (`(giver − owner) mod 4`: 1 the next seat,
/// 2 the opposite, 3 the previous), 0 for a concealed kong; for a chow which of its three tiles
/// was claimed (1 the lowest … 3 the highest). A pack with `offer` 0 is concealed. An added
/// kong keeps its pung's `offer`.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Pack {
    /// The kind of pack.
    pub kind: PackKind,
    /// The pack's tile: the middle tile of a chow, the tile of a pung or kong.
    pub tile: Tile,
    /// Where the claimed tile came from (see the type's docs).
    pub offer: u8,
}

impl Pack {
    /// A chow around `middle`, the claimed tile being number `claimed` (1–3) of the three.
    pub const fn chow(middle: Tile, claimed: u8) -> Pack {
        Pack {
            kind: PackKind::Chow,
            tile: middle,
            offer: claimed,
        }
    }

    /// A pung of `tile` claimed from the seat `from` seats after the owner (1–3).
    pub const fn pung(tile: Tile, from: u8) -> Pack {
        Pack {
            kind: PackKind::Pung,
            tile,
            offer: from,
        }
    }

    /// A kong of `tile`: concealed when `from` is 0, else claimed (or added to a pung claimed)
    /// from the seat `from` seats after the owner.
    pub const fn kong(tile: Tile, from: u8) -> Pack {
        Pack {
            kind: PackKind::Kong,
            tile,
            offer: from,
        }
    }

    /// Whether the pack was made with a claimed tile (everything but a concealed kong).
    pub const fn is_melded(self) -> bool {
        self.offer != 0
    }

    /// How many tiles the pack holds.
    pub const fn len(self) -> usize {
        match self.kind {
            PackKind::Kong => 4,
            _ => 3,
        }
    }

    /// Never: a pack always holds tiles (for clippy's `len` convention).
    pub const fn is_empty(self) -> bool {
        false
    }

    /// Whether the pack is well formed: a chow's middle is a numbered 2–8 and its `offer` 1–3;
    /// a pung's `offer` is 1–3; a kong's 0–3.
    pub fn is_valid(self) -> bool {
        match self.kind {
            PackKind::Chow => {
                matches!(self.tile.rank(), Some(2..=8)) && (1..=3).contains(&self.offer)
            }
            PackKind::Pung => (1..=3).contains(&self.offer),
            PackKind::Kong => self.offer <= 3,
        }
    }

    /// Adds the pack's tiles to `counts`.
    pub fn add_to(self, counts: &mut Counts) {
        let i = self.tile.index();
        match self.kind {
            PackKind::Chow => {
                counts[i - 1] += 1;
                counts[i] += 1;
                counts[i + 1] += 1;
            }
            PackKind::Pung => counts[i] += 3,
            PackKind::Kong => counts[i] += 4,
        }
    }
}

impl fmt::Display for Pack {
    /// Botzone's words: `CHI W2 2`, `PENG F1 3`, `GANG J1 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.kind {
            PackKind::Chow => "CHI",
            PackKind::Pung => "PENG",
            PackKind::Kong => "GANG",
        };
        write!(f, "{word} {} {}", self.tile, self.offer)
    }
}

impl fmt::Debug for Pack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
