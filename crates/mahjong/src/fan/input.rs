//! A winning hand as text: the JSON object `arena mahjong fan --batch` reads, one per line.
//!
//! `{"concealed":"1M 2M 3M …","chows":["2S"],"pungs":["E"],"kongs":["1M"],"concealed_kongs":["5S"],"win":"5M","self_drawn":false}`
//! — `concealed` without the winning tile, chows by their lowest tile, `kongs` exposed or added;
//! the lists, `self_drawn` and `robbed_kong` may be left out.

use serde::Deserialize;

use super::WinHand;
use crate::meld::{KongKind, Meld};
use crate::tile::{Counts, TILE_KINDS, Tile, TileParseError, parse_tiles};

/// A hand as written in the batch format, before its tiles are read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandInput {
    /// The concealed tiles without the winning tile, space-separated.
    pub concealed: String,
    /// Declared chows, each by its lowest tile.
    #[serde(default)]
    pub chows: Vec<String>,
    /// Declared pungs.
    #[serde(default)]
    pub pungs: Vec<String>,
    /// Exposed or added kongs.
    #[serde(default)]
    pub kongs: Vec<String>,
    /// Concealed kongs.
    #[serde(default)]
    pub concealed_kongs: Vec<String>,
    /// The winning tile.
    pub win: String,
    /// Won on one's own draw.
    #[serde(default)]
    pub self_drawn: bool,
    /// Won by robbing an added kong.
    #[serde(default)]
    pub robbed_kong: bool,
}

/// A hand whose tiles have been read: owns its melds, lends a [`WinHand`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedHand {
    /// The concealed tiles without the winning tile.
    pub concealed: Counts,
    /// Chows, pungs, kongs and concealed kongs, in that order.
    pub melds: Vec<Meld>,
    /// The winning tile.
    pub win: Tile,
    /// Won on one's own draw.
    pub self_drawn: bool,
    /// Won by robbing an added kong.
    pub robbed_kong: bool,
}

impl OwnedHand {
    /// The hand as [`super::evaluate`] takes it.
    pub fn win_hand(&self) -> WinHand<'_> {
        WinHand {
            concealed: self.concealed,
            melds: &self.melds,
            win: self.win,
            self_drawn: self.self_drawn,
            robbed_kong: self.robbed_kong,
        }
    }
}

/// A field of a [`HandInput`] that does not read as tiles.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// A token is not a tile.
    #[error("{field}: {error}")]
    BadTile {
        /// The field, e.g. `concealed` or `pungs[1]`.
        field: String,
        /// The token and why.
        error: TileParseError,
    },
    /// A meld or the winning tile is not exactly one tile.
    #[error("{field}: {given:?} should be one tile")]
    NotOneTile {
        /// The field.
        field: String,
        /// What it held.
        given: String,
    },
    /// More than four of a kind among the concealed tiles.
    #[error("concealed: more than 4 of {0}")]
    TooManyOfAKind(Tile),
}

fn one_tile(field: String, s: &str) -> Result<Tile, InputError> {
    let tiles = parse_tiles(s).map_err(|error| InputError::BadTile {
        field: field.clone(),
        error,
    })?;
    match tiles[..] {
        [t] => Ok(t),
        _ => Err(InputError::NotOneTile {
            field,
            given: s.to_string(),
        }),
    }
}

impl HandInput {
    /// Reads the tiles. Whether they make a win (and of how many tiles) is for
    /// [`super::evaluate`] to say.
    pub fn read(&self) -> Result<OwnedHand, InputError> {
        let mut concealed = [0u8; TILE_KINDS];
        let tiles = parse_tiles(&self.concealed).map_err(|error| InputError::BadTile {
            field: "concealed".into(),
            error,
        })?;
        for t in tiles {
            let c = &mut concealed[t.index()];
            if *c == 4 {
                return Err(InputError::TooManyOfAKind(t));
            }
            *c += 1;
        }
        let mut melds = Vec::new();
        type List<'a> = (&'a str, &'a [String], fn(Tile) -> Meld);
        let lists: [List<'_>; 4] = [
            ("chows", &self.chows, Meld::Chow),
            ("pungs", &self.pungs, Meld::Pung),
            ("kongs", &self.kongs, |t| Meld::Kong(t, KongKind::Exposed)),
            ("concealed_kongs", &self.concealed_kongs, |t| {
                Meld::Kong(t, KongKind::Concealed)
            }),
        ];
        for (name, list, meld) in lists {
            for (i, s) in list.iter().enumerate() {
                melds.push(meld(one_tile(format!("{name}[{i}]"), s)?));
            }
        }
        Ok(OwnedHand {
            concealed,
            melds,
            win: one_tile("win".into(), &self.win)?,
            self_drawn: self.self_drawn,
            robbed_kong: self.robbed_kong,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<OwnedHand, InputError> {
        serde_json::from_str::<HandInput>(json).unwrap().read()
    }

    #[test]
    fn a_batch_line_reads_into_a_hand_with_missing_lists_empty() {
        let h = read(
            r#"{"concealed":"2T 3T 4T E","kongs":["1M"],"concealed_kongs":["5S","9T"],"win":"E"}"#,
        )
        .unwrap();
        let t = |s: &str| s.parse::<Tile>().unwrap();
        assert_eq!(
            h.melds,
            [
                Meld::Kong(t("1M"), KongKind::Exposed),
                Meld::Kong(t("5S"), KongKind::Concealed),
                Meld::Kong(t("9T"), KongKind::Concealed)
            ]
        );
        assert_eq!(h.concealed.iter().map(|&c| c as u32).sum::<u32>(), 4);
        assert_eq!((h.win, h.self_drawn, h.robbed_kong), (t("E"), false, false));
    }

    #[test]
    fn bad_fields_are_named() {
        let e = read(r#"{"concealed":"1M 2X","win":"E"}"#).unwrap_err();
        assert!(
            e.to_string().starts_with("concealed: \"2X\" (token 2)"),
            "{e}"
        );
        let e = read(r#"{"concealed":"1M","pungs":["E","E E"],"win":"E"}"#).unwrap_err();
        assert_eq!(e.to_string(), "pungs[1]: \"E E\" should be one tile");
        let e = read(r#"{"concealed":"1M","win":""}"#).unwrap_err();
        assert_eq!(e.to_string(), "win: \"\" should be one tile");
        let e = read(r#"{"concealed":"1M 1M 1M 1M 1M","win":"E"}"#).unwrap_err();
        assert_eq!(e, InputError::TooManyOfAKind("1M".parse().unwrap()));
        let unknown =
            serde_json::from_str::<HandInput>(r#"{"concealed":"1M","win":"E","selfdrawn":true}"#);
        assert!(
            unknown
                .unwrap_err()
                .to_string()
                .contains("unknown field `selfdrawn`")
        );
    }
}
