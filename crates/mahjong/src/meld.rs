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

/// A meld string that is not one of the [`Meld`] notations.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a meld: write chow T (T its lowest tile), pung T, kong T, added-kong T or concealed-kong T"
)]
pub struct MeldParseError(pub String);

impl std::str::FromStr for Meld {
    type Err = MeldParseError;

    /// Reads the notation [`Meld`]'s `Display` writes: `chow 2S`, `pung E`, `kong 5T`,
    /// `added-kong 5T`, `concealed-kong 5T`.
    fn from_str(s: &str) -> Result<Meld, MeldParseError> {
        let bad = || MeldParseError(s.to_string());
        let mut parts = s.split_whitespace();
        let (Some(kind), Some(tile), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad());
        };
        let t: Tile = tile.parse().map_err(|_| bad())?;
        match kind {
            "chow" if t.starts_chow() => Ok(Meld::Chow(t)),
            "pung" => Ok(Meld::Pung(t)),
            "kong" => Ok(Meld::Kong(t, KongKind::Exposed)),
            "added-kong" => Ok(Meld::Kong(t, KongKind::Added)),
            "concealed-kong" => Ok(Meld::Kong(t, KongKind::Concealed)),
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn melds_read_back_their_notation() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        for m in [
            Meld::Chow(t("2S")),
            Meld::Pung(t("E")),
            Meld::Kong(t("5T"), KongKind::Exposed),
            Meld::Kong(t("5T"), KongKind::Added),
            Meld::Kong(t("1M"), KongKind::Concealed),
        ] {
            assert_eq!(m.to_string().parse::<Meld>(), Ok(m));
        }
        for bad in [
            "chow 8S",
            "chow E",
            "pung",
            "pung X",
            "triple 1M",
            "pung 1M 2M",
        ] {
            assert!(bad.parse::<Meld>().is_err(), "{bad}");
        }
    }
}
