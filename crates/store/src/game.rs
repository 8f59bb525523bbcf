//! [`Game`]: a game's name as the store records it. The store keeps it, compares it and knows
//! nothing else of the game: the registry of games (`arena-games`) says what a name stands for,
//! and the crates that know a game decode its deals (the store keeps each game's deals in the
//! game's own text form and never reads them).

use std::cmp::Ordering;
use std::fmt;

/// The most bytes of a game's name.
pub const MAX_GAME_NAME: usize = 16;

/// A game's name as stored: 1 to [`MAX_GAME_NAME`] bytes of lower-case ASCII letters, digits
/// and `-` (`ddz`, `mahjong`). `Copy`, so records and keys hold it by value.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Game {
    len: u8,
    bytes: [u8; MAX_GAME_NAME],
}

/// Why `name` is not a game's name, or `None` when it is one.
const fn fault(name: &str) -> Option<&'static str> {
    let b = name.as_bytes();
    if b.is_empty() {
        return Some("is empty");
    }
    if b.len() > MAX_GAME_NAME {
        return Some("is longer than 16 bytes");
    }
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-') {
            return Some("holds a character other than a-z, 0-9 and -");
        }
        i += 1;
    }
    None
}

impl Game {
    /// The game of records written before the store kept a game (deal records and panels of
    /// schema version 1, program bots registered before bots had a game, remote bots that never
    /// said): Dou Dizhu's name, the only game there was.
    // game-seam: records older than the store's game tags are Dou Dizhu's.
    pub const LEGACY: Game = Game::named("ddz");

    /// The game named `name`; a name that is not one is a compile-time error in a constant
    /// (and a panic elsewhere: read untrusted names with [`Game::parse`]).
    pub const fn named(name: &str) -> Game {
        if let Some(why) = fault(name) {
            panic!("{}", why);
        }
        let b = name.as_bytes();
        let mut bytes = [0u8; MAX_GAME_NAME];
        let mut i = 0;
        while i < b.len() {
            bytes[i] = b[i];
            i += 1;
        }
        Game {
            len: b.len() as u8,
            bytes,
        }
    }

    /// The game named `name`, or why it is no game's name.
    pub fn parse(name: &str) -> Result<Game, String> {
        match fault(name) {
            None => Ok(Game::named(name)),
            // Quoted and cut: the name may come from anywhere.
            Some(why) => Err(format!(
                "game name {:?} {why}",
                name.chars().take(40).collect::<String>()
            )),
        }
    }

    /// The name, e.g. `ddz`.
    pub fn name(&self) -> &str {
        // Only ASCII bytes are ever stored (see `fault`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::LEGACY
    }
}

impl Ord for Game {
    fn cmp(&self, other: &Game) -> Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for Game {
    fn partial_cmp(&self, other: &Game) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game({:?})", self.name())
    }
}

impl serde::Serialize for Game {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Game {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Game::parse(&name).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_reads_back_and_is_stored_as_its_text() {
        let g = Game::parse("mahjong").unwrap();
        assert_eq!(g.name(), "mahjong");
        assert_eq!(serde_json::to_string(&g).unwrap(), r#""mahjong""#);
        assert_eq!(
            serde_json::from_str::<Game>(r#""ddz""#).unwrap(),
            Game::LEGACY
        );
        assert!(Game::LEGACY < g, "ordered by name");
        assert_eq!(Game::default(), Game::named("ddz"));
    }

    #[test]
    fn a_bad_name_is_refused_naming_why() {
        for (name, why) in [
            ("", "is empty"),
            ("Mahjong", "a-z"),
            ("a-name-longer-than-16", "16 bytes"),
            ("dd z", "a-z"),
        ] {
            let e = Game::parse(name).unwrap_err();
            assert!(e.contains(why), "{name:?}: {e}");
        }
        let e = serde_json::from_str::<Game>(r#""chess!""#).unwrap_err();
        assert!(e.to_string().contains("a-z"), "{e}");
    }
}
