//! The protocol's lines as types: [`ServerMessage`] (arena to bot) and [`BotMessage`] (bot to
//! arena), their encoding, and decoding with errors that name the problem.
//!
//! Pure: no I/O, no clocks. A line is handled without its terminator; decoders accept a
//! trailing `\r` (so `\n` and `\r\n` both work) and any run of spaces or tabs between fields;
//! encoders write single spaces. Tiles use the contest's notation (`1M..9M 1S..9S 1T..9T E S W
//! N Z F B`), exactly: upper case, `S` alone is South and `5S` a bamboo.
//!
//! Both directions decode and encode: the arena's `cmd:` bots write [`ServerMessage`]s and read
//! [`BotMessage`]s, and `arena mahjong bot` (a built-in bot serving another server) does the
//! opposite.

use std::fmt;

use mahjong::{Tile, TileParseError};

/// How much of an offending field an error message quotes, in characters.
const QUOTE_CHARS: usize = 40;

/// Tiles in a starting hand.
pub const INIT_TILES: usize = 13;

/// The longest name a program may give after `join`, in characters (longer ones are cut).
pub const MAX_NAME_CHARS: usize = 64;

/// A line the arena sends to a bot program. Seats are 0 to 3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// `id N`: the program's seat, sent once, right after its `join`.
    Id(u8),
    /// `first N`: the seat that draws first in this hand.
    First(u8),
    /// `init T…`: the program's 13 starting tiles.
    Init([Tile; INIT_TILES]),
    /// `pick T`: the program drew `T` (a kong's replacement too) and must act: it answers
    /// `out T`, `hu`, `agang T` or `jgang T`.
    Pick(Tile),
    /// `mpick N`: seat `N` (another) drew a tile.
    MPick(u8),
    /// `mout N T`: seat `N` discarded `T`; each other live seat answers `pass`, `hu`, `gang`,
    /// `peng` or `chi T`.
    MOut {
        /// Who discarded.
        seat: u8,
        /// The discard.
        tile: Tile,
    },
    /// `mchi N T`: seat `N` chowed the discard into the chow whose lowest tile is `T`; it
    /// discards next (no draw).
    MChi {
        /// Who chowed.
        seat: u8,
        /// The chow's lowest tile.
        lowest: Tile,
    },
    /// `mpeng N T`: seat `N` punged the discard `T`; it discards next (no draw).
    MPeng {
        /// Who punged.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// `mgang N T`: seat `N` made an exposed kong of the discard `T`; it draws a replacement.
    MGang {
        /// Who konged.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// `magang N`: seat `N` declared a concealed kong (the tile is not told, not even to the
    /// owner); it draws a replacement.
    MAGang(u8),
    /// `mjgang N T`: seat `N` added `T` to its pung; each other live seat answers `qgang` (rob
    /// the kong and win on it) or `pass`.
    MJGang {
        /// Who added the tile.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// `mfail`: the program's chow did not happen (another seat's pung, kong or win came
    /// first). Sent to that seat only, after the claim that beat it.
    MFail,
}

impl ServerMessage {
    /// The command word (`id`, `mout`, …).
    pub fn command(&self) -> &'static str {
        match self {
            ServerMessage::Id(_) => "id",
            ServerMessage::First(_) => "first",
            ServerMessage::Init(_) => "init",
            ServerMessage::Pick(_) => "pick",
            ServerMessage::MPick(_) => "mpick",
            ServerMessage::MOut { .. } => "mout",
            ServerMessage::MChi { .. } => "mchi",
            ServerMessage::MPeng { .. } => "mpeng",
            ServerMessage::MGang { .. } => "mgang",
            ServerMessage::MAGang(_) => "magang",
            ServerMessage::MJGang { .. } => "mjgang",
            ServerMessage::MFail => "mfail",
        }
    }

    /// The line, without its terminator.
    pub fn encode(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.command();
        match self {
            ServerMessage::Id(n) | ServerMessage::First(n) | ServerMessage::MPick(n) => {
                write!(f, "{c} {n}")
            }
            ServerMessage::MAGang(n) => write!(f, "{c} {n}"),
            ServerMessage::Init(tiles) => {
                f.write_str(c)?;
                for t in tiles {
                    write!(f, " {t}")?;
                }
                Ok(())
            }
            ServerMessage::Pick(t) => write!(f, "{c} {t}"),
            ServerMessage::MOut { seat, tile }
            | ServerMessage::MPeng { seat, tile }
            | ServerMessage::MGang { seat, tile }
            | ServerMessage::MJGang { seat, tile } => write!(f, "{c} {seat} {tile}"),
            ServerMessage::MChi { seat, lowest } => write!(f, "{c} {seat} {lowest}"),
            ServerMessage::MFail => f.write_str(c),
        }
    }
}

/// A line a bot program writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotMessage {
    /// `join`: the first line of every process (a name after it is allowed and kept).
    Join(Option<String>),
    /// `out T`: on its turn, discard `T`.
    Out(Tile),
    /// `hu`: on its turn, win on the drawn tile; in answer to `mout`, win on the discard.
    Hu,
    /// `agang T`: on its turn, declare a concealed kong of the four `T` it holds.
    AGang(Tile),
    /// `jgang T`: on its turn, add its `T` to its pung of `T`.
    JGang(Tile),
    /// `pass`: no claim (to `mout`), no robbing (to `mjgang`).
    Pass,
    /// `gang`: in answer to `mout`, an exposed kong of the discard.
    Gang,
    /// `peng`: in answer to `mout`, a pung of the discard.
    Peng,
    /// `chi T`: in answer to `mout`, a chow of the discard whose lowest tile is `T`.
    Chi(Tile),
    /// `qgang`: in answer to `mjgang`, rob the kong and win on its tile.
    QGang,
}

/// The answers a program writes, as error messages list them.
const BOT_COMMANDS: &str = "join, out T, hu, agang T, jgang T, pass, gang, peng, chi T or qgang";

impl BotMessage {
    /// The command word (`out`, `pass`, …).
    pub fn command(&self) -> &'static str {
        match self {
            BotMessage::Join(_) => "join",
            BotMessage::Out(_) => "out",
            BotMessage::Hu => "hu",
            BotMessage::AGang(_) => "agang",
            BotMessage::JGang(_) => "jgang",
            BotMessage::Pass => "pass",
            BotMessage::Gang => "gang",
            BotMessage::Peng => "peng",
            BotMessage::Chi(_) => "chi",
            BotMessage::QGang => "qgang",
        }
    }

    /// Whether it answers the program's own turn (`out`, `hu`, `agang`, `jgang`).
    pub fn is_turn_answer(&self) -> bool {
        matches!(
            self,
            BotMessage::Out(_) | BotMessage::Hu | BotMessage::AGang(_) | BotMessage::JGang(_)
        )
    }

    /// The line, without its terminator.
    pub fn encode(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for BotMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.command();
        match self {
            BotMessage::Join(Some(name)) => write!(f, "{c} {name}"),
            BotMessage::Out(t)
            | BotMessage::AGang(t)
            | BotMessage::JGang(t)
            | BotMessage::Chi(t) => {
                write!(f, "{c} {t}")
            }
            _ => f.write_str(c),
        }
    }
}

/// Why a line could not be read. The message names the command and the field at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The first word is no command of this direction.
    #[error("unknown command {word:?} (expected {expected})")]
    UnknownCommand {
        /// The word, cut to a few dozen characters.
        word: String,
        /// The commands there are.
        expected: &'static str,
    },
    /// A field is missing.
    #[error("{command:?} needs {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What is missing, with an example.
        what: &'static str,
    },
    /// Something follows the last field.
    #[error("{command:?} takes {takes}, but {extra:?} follows")]
    Extra {
        /// The command.
        command: &'static str,
        /// What it takes.
        takes: &'static str,
        /// The first extra word, cut to a few dozen characters.
        extra: String,
    },
    /// A field meant as a tile is not one.
    #[error("in {command:?}: {error}")]
    Tile {
        /// The command.
        command: &'static str,
        /// The tile error, with the field's position in the line.
        error: TileParseError,
    },
    /// A field meant as a seat is not 0 to 3.
    #[error("in {command:?}: {text:?} is not a seat (0 to 3)")]
    Seat {
        /// The command.
        command: &'static str,
        /// The field, cut to a few dozen characters.
        text: String,
    },
    /// `init` with other than 13 tiles.
    #[error("\"init\" needs 13 tiles, got {got}")]
    InitCount {
        /// How many it had.
        got: usize,
    },
}

fn cut(s: &str) -> String {
    s.chars().take(QUOTE_CHARS).collect()
}

/// The fields of a line after its command, read in order.
struct Fields<'a> {
    command: &'static str,
    words: std::str::SplitAsciiWhitespace<'a>,
    /// The position of the next field in the line (the command is 1).
    position: usize,
}

impl<'a> Fields<'a> {
    fn next(&mut self) -> Option<&'a str> {
        self.position += 1;
        self.words.next()
    }

    fn tile(&mut self, what: &'static str) -> Result<Tile, DecodeError> {
        let position = self.position + 1;
        let text = self.next().ok_or(DecodeError::Missing {
            command: self.command,
            what,
        })?;
        text.parse::<Tile>().map_err(|mut error| {
            error.token = cut(&error.token);
            error.position = position;
            DecodeError::Tile {
                command: self.command,
                error,
            }
        })
    }

    fn seat(&mut self) -> Result<u8, DecodeError> {
        let text = self.next().ok_or(DecodeError::Missing {
            command: self.command,
            what: "a seat (0 to 3)",
        })?;
        match text {
            "0" => Ok(0),
            "1" => Ok(1),
            "2" => Ok(2),
            "3" => Ok(3),
            _ => Err(DecodeError::Seat {
                command: self.command,
                text: cut(text),
            }),
        }
    }

    fn end(mut self, takes: &'static str) -> Result<(), DecodeError> {
        match self.next() {
            None => Ok(()),
            Some(extra) => Err(DecodeError::Extra {
                command: self.command,
                takes,
                extra: cut(extra),
            }),
        }
    }
}

/// Splits a line into its command word and the rest; `None` for a blank line.
fn split(line: &str) -> Option<(&str, std::str::SplitAsciiWhitespace<'_>)> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut words = line.split_ascii_whitespace();
    let first = words.next()?;
    Some((first, words))
}

/// Reads a line a bot wrote: `Ok(None)` for a blank line (ignored), else its message or why
/// it is none.
pub fn decode_bot_line(line: &str) -> Result<Option<BotMessage>, DecodeError> {
    let Some((word, words)) = split(line) else {
        return Ok(None);
    };
    let command = match word {
        "join" => "join",
        "out" => "out",
        "hu" => "hu",
        "agang" => "agang",
        "jgang" => "jgang",
        "pass" => "pass",
        "gang" => "gang",
        "peng" => "peng",
        "chi" => "chi",
        "qgang" => "qgang",
        _ => {
            return Err(DecodeError::UnknownCommand {
                word: cut(word),
                expected: BOT_COMMANDS,
            });
        }
    };
    let mut f = Fields {
        command,
        words,
        position: 1,
    };
    let nothing = "nothing after it";
    let one_tile = "one tile";
    let message = match command {
        "join" => {
            let rest: Vec<&str> = std::iter::from_fn(|| f.next()).collect();
            let name = rest.join(" ");
            let name: String = name.chars().take(MAX_NAME_CHARS).collect();
            return Ok(Some(BotMessage::Join((!name.is_empty()).then_some(name))));
        }
        "out" => {
            let t = f.tile("the tile to discard, as in \"out 9M\"")?;
            f.end(one_tile)?;
            BotMessage::Out(t)
        }
        "agang" => {
            let t = f.tile("the tile of the kong, as in \"agang W\"")?;
            f.end(one_tile)?;
            BotMessage::AGang(t)
        }
        "jgang" => {
            let t = f.tile("the tile added to the pung, as in \"jgang 5S\"")?;
            f.end(one_tile)?;
            BotMessage::JGang(t)
        }
        "chi" => {
            let t = f.tile("the lowest tile of the chow, as in \"chi 7M\" for 7M 8M 9M")?;
            f.end(one_tile)?;
            BotMessage::Chi(t)
        }
        _ => {
            f.end(nothing)?;
            match command {
                "hu" => BotMessage::Hu,
                "pass" => BotMessage::Pass,
                "gang" => BotMessage::Gang,
                "peng" => BotMessage::Peng,
                _ => BotMessage::QGang,
            }
        }
    };
    Ok(Some(message))
}

/// The messages the arena sends, as error messages list them.
const SERVER_COMMANDS: &str =
    "id, first, init, pick, mpick, mout, mchi, mpeng, mgang, magang, mjgang or mfail";

/// Reads a line the arena (or another contest server) wrote: `Ok(None)` for a blank line.
pub fn decode_server_line(line: &str) -> Result<Option<ServerMessage>, DecodeError> {
    let Some((word, words)) = split(line) else {
        return Ok(None);
    };
    let command = match word {
        "id" => "id",
        "first" => "first",
        "init" => "init",
        "pick" => "pick",
        "mpick" => "mpick",
        "mout" => "mout",
        "mchi" => "mchi",
        "mpeng" => "mpeng",
        "mgang" => "mgang",
        "magang" => "magang",
        "mjgang" => "mjgang",
        "mfail" => "mfail",
        _ => {
            return Err(DecodeError::UnknownCommand {
                word: cut(word),
                expected: SERVER_COMMANDS,
            });
        }
    };
    let mut f = Fields {
        command,
        words,
        position: 1,
    };
    let tile = "a tile";
    let message = match command {
        "id" | "first" | "mpick" | "magang" => {
            let n = f.seat()?;
            f.end("one seat")?;
            match command {
                "id" => ServerMessage::Id(n),
                "first" => ServerMessage::First(n),
                "mpick" => ServerMessage::MPick(n),
                _ => ServerMessage::MAGang(n),
            }
        }
        "init" => {
            let mut tiles = [Tile::EAST; INIT_TILES];
            let mut got = 0;
            loop {
                let position = f.position + 1;
                let Some(text) = f.next() else { break };
                let t = text.parse::<Tile>().map_err(|mut error| {
                    error.token = cut(&error.token);
                    error.position = position;
                    DecodeError::Tile { command, error }
                })?;
                if got < INIT_TILES {
                    tiles[got] = t;
                }
                got += 1;
            }
            if got != INIT_TILES {
                return Err(DecodeError::InitCount { got });
            }
            ServerMessage::Init(tiles)
        }
        "pick" => {
            let t = f.tile(tile)?;
            f.end("one tile")?;
            ServerMessage::Pick(t)
        }
        "mfail" => {
            f.end("nothing after it")?;
            ServerMessage::MFail
        }
        _ => {
            let seat = f.seat()?;
            let t = f.tile("a tile after the seat")?;
            f.end("a seat and a tile")?;
            match command {
                "mout" => ServerMessage::MOut { seat, tile: t },
                "mchi" => ServerMessage::MChi { seat, lowest: t },
                "mpeng" => ServerMessage::MPeng { seat, tile: t },
                "mgang" => ServerMessage::MGang { seat, tile: t },
                _ => ServerMessage::MJGang { seat, tile: t },
            }
        }
    };
    Ok(Some(message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn t(s: &str) -> Tile {
        s.parse().unwrap()
    }

    #[test]
    fn server_lines_are_written_as_the_contest_wrote_them() {
        let init: [Tile; 13] = mahjong::parse_tiles("1S 1S 2T 5M 9S 4T W Z 1T 8M 9M 5S 6T")
            .unwrap()
            .try_into()
            .unwrap();
        let cases = [
            (ServerMessage::Id(3), "id 3"),
            (ServerMessage::First(0), "first 0"),
            (
                ServerMessage::Init(init),
                "init 1S 1S 2T 5M 9S 4T W Z 1T 8M 9M 5S 6T",
            ),
            (ServerMessage::Pick(t("5T")), "pick 5T"),
            (ServerMessage::MPick(0), "mpick 0"),
            (
                ServerMessage::MOut {
                    seat: 2,
                    tile: t("9M"),
                },
                "mout 2 9M",
            ),
            (
                ServerMessage::MChi {
                    seat: 1,
                    lowest: t("7M"),
                },
                "mchi 1 7M",
            ),
            (
                ServerMessage::MPeng {
                    seat: 2,
                    tile: t("9M"),
                },
                "mpeng 2 9M",
            ),
            (
                ServerMessage::MGang {
                    seat: 3,
                    tile: t("5S"),
                },
                "mgang 3 5S",
            ),
            (ServerMessage::MAGang(3), "magang 3"),
            (
                ServerMessage::MJGang {
                    seat: 3,
                    tile: t("S"),
                },
                "mjgang 3 S",
            ),
            (ServerMessage::MFail, "mfail"),
        ];
        for (message, line) in cases {
            assert_eq!(message.encode(), line);
            assert_eq!(
                decode_server_line(line),
                Ok(Some(message.clone())),
                "{line}"
            );
            let crlf = format!("{line}\r");
            assert_eq!(decode_server_line(&crlf), Ok(Some(message)), "{line}");
        }
    }

    #[test]
    fn every_answer_of_the_contest_is_read() {
        let cases = [
            ("join", BotMessage::Join(None)),
            ("join my bot", BotMessage::Join(Some("my bot".into()))),
            ("out 9M", BotMessage::Out(t("9M"))),
            ("hu", BotMessage::Hu),
            ("agang W", BotMessage::AGang(t("W"))),
            ("jgang 5S", BotMessage::JGang(t("5S"))),
            ("pass", BotMessage::Pass),
            ("gang", BotMessage::Gang),
            ("peng", BotMessage::Peng),
            ("chi 7M", BotMessage::Chi(t("7M"))),
            ("qgang", BotMessage::QGang),
        ];
        for (line, message) in cases {
            assert_eq!(decode_bot_line(line), Ok(Some(message.clone())), "{line}");
            assert_eq!(message.encode(), line);
            // \r\n endings, extra spaces and tabs are all fine.
            let loose = format!("  {}\t\r", line.replace(' ', "  "));
            assert_eq!(decode_bot_line(&loose), Ok(Some(message)), "{loose:?}");
        }
        assert_eq!(decode_bot_line(""), Ok(None));
        assert_eq!(decode_bot_line(" \r"), Ok(None));
        assert!(BotMessage::Out(t("1M")).is_turn_answer() && !BotMessage::Pass.is_turn_answer());
    }

    #[test]
    fn a_bad_answer_says_what_is_wrong() {
        let cases = [
            ("plya", "unknown command \"plya\" (expected join, out T, hu"),
            ("OUT 9M", "unknown command \"OUT\""),
            (
                "chi",
                "\"chi\" needs the lowest tile of the chow, as in \"chi 7M\" for 7M 8M 9M",
            ),
            ("out", "\"out\" needs the tile to discard, as in \"out 9M\""),
            (
                "out 5X",
                "in \"out\": \"5X\" (token 2) is not a tile: tiles are 1M..9M",
            ),
            ("out 9m", "\"9m\" (token 2) is not a tile"),
            (
                "peng 9M",
                "\"peng\" takes nothing after it, but \"9M\" follows",
            ),
            ("out 1M 2M", "\"out\" takes one tile, but \"2M\" follows"),
            ("chi 7M 8M", "\"chi\" takes one tile, but \"8M\" follows"),
            ("hu!", "unknown command \"hu!\""),
        ];
        for (line, needle) in cases {
            let e = decode_bot_line(line).unwrap_err().to_string();
            assert!(e.contains(needle), "{line:?}: {e}");
        }
    }

    #[test]
    fn a_bad_server_line_says_what_is_wrong() {
        let cases = [
            ("id 4", "in \"id\": \"4\" is not a seat (0 to 3)"),
            ("mout 1", "\"mout\" needs a tile after the seat"),
            ("init 1M 2M", "\"init\" needs 13 tiles, got 2"),
            (
                "mfail 1",
                "\"mfail\" takes nothing after it, but \"1\" follows",
            ),
            ("pick Q", "in \"pick\": \"Q\" (token 2) is not a tile"),
            (
                "hello",
                "unknown command \"hello\" (expected id, first, init",
            ),
        ];
        for (line, needle) in cases {
            let e = decode_server_line(line).unwrap_err().to_string();
            assert!(e.contains(needle), "{line:?}: {e}");
        }
    }

    #[test]
    fn quotes_of_hostile_fields_are_short() {
        let long = "x".repeat(10_000);
        let e = decode_bot_line(&long).unwrap_err().to_string();
        assert!(e.len() < 200, "{e}");
        let e = decode_bot_line(&format!("out {long}"))
            .unwrap_err()
            .to_string();
        assert!(e.len() < 300, "{e}");
        let name = match decode_bot_line(&format!("join {long}")) {
            Ok(Some(BotMessage::Join(Some(name)))) => name,
            other => panic!("{other:?}"),
        };
        assert_eq!(name.chars().count(), MAX_NAME_CHARS);
    }

    fn tile() -> impl Strategy<Value = Tile> {
        (0usize..34).prop_map(|i| Tile::from_index(i).unwrap())
    }

    fn server_message() -> impl Strategy<Value = ServerMessage> {
        let seat = 0u8..4;
        prop_oneof![
            seat.clone().prop_map(ServerMessage::Id),
            seat.clone().prop_map(ServerMessage::First),
            proptest::array::uniform13(tile()).prop_map(ServerMessage::Init),
            tile().prop_map(ServerMessage::Pick),
            seat.clone().prop_map(ServerMessage::MPick),
            (seat.clone(), tile()).prop_map(|(seat, tile)| ServerMessage::MOut { seat, tile }),
            (seat.clone(), tile()).prop_map(|(seat, lowest)| ServerMessage::MChi { seat, lowest }),
            (seat.clone(), tile()).prop_map(|(seat, tile)| ServerMessage::MPeng { seat, tile }),
            (seat.clone(), tile()).prop_map(|(seat, tile)| ServerMessage::MGang { seat, tile }),
            seat.clone().prop_map(ServerMessage::MAGang),
            (seat, tile()).prop_map(|(seat, tile)| ServerMessage::MJGang { seat, tile }),
            Just(ServerMessage::MFail),
        ]
    }

    fn bot_message() -> impl Strategy<Value = BotMessage> {
        prop_oneof![
            Just(BotMessage::Join(None)),
            "[a-z]{1,10}".prop_map(|n| BotMessage::Join(Some(n))),
            tile().prop_map(BotMessage::Out),
            Just(BotMessage::Hu),
            tile().prop_map(BotMessage::AGang),
            tile().prop_map(BotMessage::JGang),
            Just(BotMessage::Pass),
            Just(BotMessage::Gang),
            Just(BotMessage::Peng),
            tile().prop_map(BotMessage::Chi),
            Just(BotMessage::QGang),
        ]
    }

    proptest! {
        #[test]
        fn server_messages_read_back(m in server_message()) {
            prop_assert_eq!(decode_server_line(&m.encode()), Ok(Some(m)));
        }

        #[test]
        fn bot_messages_read_back(m in bot_message()) {
            prop_assert_eq!(decode_bot_line(&m.encode()), Ok(Some(m)));
        }

        #[test]
        fn any_text_decodes_or_errs_without_panicking(line in "\\PC{0,60}") {
            let _ = decode_bot_line(&line);
            let _ = decode_server_line(&line);
        }
    }
}
