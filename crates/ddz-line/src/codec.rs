//! The protocol's lines as types: [`ServerMessage`] (server to bot) and [`BotMessage`] (bot to
//! server), their encoding, and decoding with errors that name the problem.
//!
//! Pure: no I/O, no clocks. A line is handled without its line terminator; decoders accept a
//! trailing `\r` and any run of spaces or tabs between fields, encoders write single spaces.
//! Card sets use the `ddz` notation, canonical on output; an empty card set is written `pass`
//! where a play is meant.

use std::fmt;

use ddz::{CardParseError, CardSet, RuleSet, Seat};

/// The longest name a program may give in its `join` line, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// How much of an offending field an error message quotes, in characters.
const QUOTE_CHARS: usize = 40;

/// A line the server sends to a bot program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// `game N`: a new game starts; `N` counts the games of this bot, from 1.
    Game {
        /// The game's number.
        number: u64,
    },
    /// `rules NAME` or `rules custom [FLAG…]`: the rule set the game is played under.
    Rules(RuleSet),
    /// `seat S`: the program's seat in this game, 0 to 2.
    Seat(Seat),
    /// `hand CARDS`: the program's whole hand, sent at the start of a game, after a redeal, and
    /// to the landlord after it takes the bottom cards.
    Hand(CardSet),
    /// `bid S B`: seat `S` called `B` (0 = no call).
    Bid {
        /// Who called.
        seat: Seat,
        /// The call, 0 to 3.
        bid: u8,
    },
    /// `redeal`: all three seats passed; the cards are dealt again and bidding restarts.
    Redeal,
    /// `landlord S B BOTTOM`: seat `S` is landlord at bid `B` and takes the bottom cards.
    Landlord {
        /// The landlord's seat.
        seat: Seat,
        /// The winning bid, 1 to 3.
        bid: u8,
        /// The three bottom cards.
        bottom: CardSet,
    },
    /// `double S 0|1`: a farmer doubled (1) or declined (0); for the landlord, redoubled or not.
    Double {
        /// Who decided.
        seat: Seat,
        /// Whether it doubled.
        double: bool,
    },
    /// `play S CARDS` or `play S pass`: a seat's play; an empty set is a pass.
    Play {
        /// Who played.
        seat: Seat,
        /// The cards played, empty for a pass.
        cards: CardSet,
    },
    /// `end W S0 S1 S2`: the game is over; seat `W` went out first; the scores by seat.
    End {
        /// The seat that went out first.
        winner: Seat,
        /// Each seat's score, by seat.
        scores: [i64; 3],
    },
    /// `ask …`: the program must answer one line before the deadline.
    Ask(Request),
    /// `bye`: the session is over; the program should exit.
    Bye,
}

/// A decision the server asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `ask bid MS B…`: call a bid, one of the listed legal bids. Answer `bid B`.
    Bid {
        /// Milliseconds the program has to answer.
        deadline_ms: u64,
        /// The legal calls: 0, then every call above the highest so far, up to 3.
        legal: Vec<u8>,
    },
    /// `ask double MS`: as a farmer, double or not. Answer `double 0|1`.
    Double {
        /// Milliseconds the program has to answer.
        deadline_ms: u64,
    },
    /// `ask redouble MS`: as the landlord, after a farmer doubled, redouble or not. Answer
    /// `double 0|1`.
    Redouble {
        /// Milliseconds the program has to answer.
        deadline_ms: u64,
    },
    /// `ask play MS MOVE…`: play or pass. Answer `play CARDS` or `play pass`. The legal moves
    /// are listed in canonical notation, `pass` first when following.
    Play {
        /// Milliseconds the program has to answer.
        deadline_ms: u64,
        /// The legal moves; an empty set is the pass.
        legal: Vec<CardSet>,
    },
}

impl Request {
    /// The request's name as written after `ask`: `bid`, `double`, `redouble` or `play`.
    pub fn name(&self) -> &'static str {
        match self {
            Request::Bid { .. } => "bid",
            Request::Double { .. } => "double",
            Request::Redouble { .. } => "redouble",
            Request::Play { .. } => "play",
        }
    }

    /// Milliseconds the program has to answer.
    pub fn deadline_ms(&self) -> u64 {
        match self {
            Request::Bid { deadline_ms, .. }
            | Request::Double { deadline_ms }
            | Request::Redouble { deadline_ms }
            | Request::Play { deadline_ms, .. } => *deadline_ms,
        }
    }
}

/// A line a bot program sends to the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotMessage {
    /// `join` or `join NAME`: the program's first line. A name is 1 to [`MAX_NAME_CHARS`]
    /// characters without spaces or control characters.
    Join {
        /// The name the program calls itself, if it gave one.
        name: Option<String>,
    },
    /// `bid B`: the answer to `ask bid`, 0 (no call) to 3.
    Bid(u8),
    /// `double 0|1`: the answer to `ask double` and `ask redouble`.
    Double(bool),
    /// `play CARDS` or `play pass`: the answer to `ask play`; an empty set is the pass.
    Play(CardSet),
}

/// Why a line could not be read as a message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Nothing but whitespace.
    #[error("empty line")]
    Empty,
    /// The first word names no command.
    #[error("unknown command {command:?} (expected {expected})")]
    UnknownCommand {
        /// The first word (shortened if long).
        command: String,
        /// The commands that would have been understood.
        expected: &'static str,
    },
    /// An `ask` line whose second word names no request.
    #[error(
        "unknown request \"ask {kind}\" (expected ask bid, ask double, ask redouble or ask play)"
    )]
    UnknownRequest {
        /// The word after `ask` (shortened if long).
        kind: String,
    },
    /// A field is missing.
    #[error("\"{command}\" is missing its {field} (expected \"{usage}\")")]
    MissingField {
        /// The command.
        command: &'static str,
        /// The missing field.
        field: &'static str,
        /// The command's full form.
        usage: &'static str,
    },
    /// More fields than the command takes.
    #[error("unexpected {extra:?} after the last field of \"{command}\" (expected \"{usage}\")")]
    ExtraField {
        /// The command.
        command: &'static str,
        /// The first field too many (shortened if long).
        extra: String,
        /// The command's full form.
        usage: &'static str,
    },
    /// A field that must be a whole number is not one.
    #[error("the {field} of \"{command}\" must be a whole number, not {value:?}")]
    NotANumber {
        /// The command.
        command: &'static str,
        /// The field.
        field: &'static str,
        /// What was there (shortened if long).
        value: String,
    },
    /// A bid above 3.
    #[error("bid {value} is out of range (0 to 3)")]
    BidOutOfRange {
        /// The bid as written (shortened if long).
        value: String,
    },
    /// A seat above 2.
    #[error("seat {value} is out of range (seats are 0, 1 and 2)")]
    SeatOutOfRange {
        /// The seat as written (shortened if long).
        value: String,
    },
    /// A yes/no field that is not `0` or `1`.
    #[error("the {field} of \"{command}\" must be 0 or 1, not {value:?}")]
    NotAFlag {
        /// The command.
        command: &'static str,
        /// The field.
        field: &'static str,
        /// What was there (shortened if long).
        value: String,
    },
    /// Cards that could not be read.
    #[error("bad cards {text:?} in \"{command}\": {error}")]
    Cards {
        /// The command.
        command: &'static str,
        /// The card field (shortened if long).
        text: String,
        /// What is wrong with it.
        error: CardParseError,
    },
    /// An unknown rule-set name.
    #[error("unknown rule set {name:?} (expected competition, douzero, openspiel or custom)")]
    UnknownRules {
        /// The name (shortened if long).
        name: String,
    },
    /// An unknown flag after `rules custom`.
    #[error(
        "unknown rule flag {flag:?} (expected rocket_kickers, adjacent_trio_wings, four_with_two or distinct_single_kickers)"
    )]
    UnknownRuleFlag {
        /// The flag (shortened if long).
        flag: String,
    },
    /// A `join` name that is too long or holds control characters.
    #[error(
        "name {name:?} is not allowed: at most {MAX_NAME_CHARS} characters, no control characters"
    )]
    BadName {
        /// The name (shortened if long).
        name: String,
    },
}

/// The commands a bot may send, for error messages.
const BOT_COMMANDS: &str = "join, bid, double or play";
/// The commands the server sends, for error messages.
const SERVER_COMMANDS: &str =
    "game, rules, seat, hand, bid, redeal, landlord, double, play, end, ask or bye";

/// Shortens a field for quoting in an error message.
fn quote(s: &str) -> String {
    if s.chars().count() <= QUOTE_CHARS {
        s.to_string()
    } else {
        let mut q: String = s.chars().take(QUOTE_CHARS).collect();
        q.push('…');
        q
    }
}

/// Strips the line terminator and splits a line into fields.
fn fields(line: &str) -> std::str::SplitAsciiWhitespace<'_> {
    line.strip_suffix('\r')
        .unwrap_or(line)
        .split_ascii_whitespace()
}

/// The fields of one command, with its usage for error messages.
struct Fields<I> {
    command: &'static str,
    usage: &'static str,
    rest: I,
}

impl<'a, I: Iterator<Item = &'a str>> Fields<I> {
    fn new(command: &'static str, usage: &'static str, rest: I) -> Self {
        Fields {
            command,
            usage,
            rest,
        }
    }

    fn next(&mut self, field: &'static str) -> Result<&'a str, DecodeError> {
        self.rest.next().ok_or(DecodeError::MissingField {
            command: self.command,
            field,
            usage: self.usage,
        })
    }

    fn number(&mut self, field: &'static str) -> Result<u64, DecodeError> {
        let s = self.next(field)?;
        parse_number(s).ok_or_else(|| DecodeError::NotANumber {
            command: self.command,
            field,
            value: quote(s),
        })
    }

    fn signed(&mut self, field: &'static str) -> Result<i64, DecodeError> {
        let s = self.next(field)?;
        let (neg, digits) = match s.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, s),
        };
        parse_number(digits)
            .and_then(|n| {
                if neg {
                    0i64.checked_sub_unsigned(n)
                } else {
                    i64::try_from(n).ok()
                }
            })
            .ok_or_else(|| DecodeError::NotANumber {
                command: self.command,
                field,
                value: quote(s),
            })
    }

    fn seat(&mut self) -> Result<Seat, DecodeError> {
        let s = self.next("seat")?;
        let n = parse_number(s).ok_or_else(|| DecodeError::NotANumber {
            command: self.command,
            field: "seat",
            value: quote(s),
        })?;
        u8::try_from(n)
            .ok()
            .and_then(Seat::new)
            .ok_or_else(|| DecodeError::SeatOutOfRange { value: quote(s) })
    }

    fn bid(&mut self, field: &'static str) -> Result<u8, DecodeError> {
        let s = self.next(field)?;
        parse_bid(self.command, field, s)
    }

    fn flag(&mut self, field: &'static str) -> Result<bool, DecodeError> {
        let s = self.next(field)?;
        match s {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(DecodeError::NotAFlag {
                command: self.command,
                field,
                value: quote(s),
            }),
        }
    }

    fn cards(&mut self, field: &'static str) -> Result<CardSet, DecodeError> {
        let s = self.next(field)?;
        parse_cards(self.command, s)
    }

    /// A play: `pass` or cards.
    fn play(&mut self, field: &'static str) -> Result<CardSet, DecodeError> {
        let s = self.next(field)?;
        parse_play(self.command, s)
    }

    fn end(mut self) -> Result<(), DecodeError> {
        match self.rest.next() {
            None => Ok(()),
            Some(extra) => Err(DecodeError::ExtraField {
                command: self.command,
                extra: quote(extra),
                usage: self.usage,
            }),
        }
    }
}

/// A whole number written with ASCII digits only (no sign); `None` if not one or too large.
fn parse_number(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_bid(command: &'static str, field: &'static str, s: &str) -> Result<u8, DecodeError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(DecodeError::NotANumber {
            command,
            field,
            value: quote(s),
        });
    }
    match s.parse::<u8>() {
        Ok(b) if b <= 3 => Ok(b),
        _ => Err(DecodeError::BidOutOfRange { value: quote(s) }),
    }
}

fn parse_cards(command: &'static str, s: &str) -> Result<CardSet, DecodeError> {
    let error = |error| DecodeError::Cards {
        command,
        text: quote(s),
        error,
    };
    // Fields are split at ASCII whitespace; any other whitespace left in one (U+00A0, U+3000…)
    // is no card, though the card notation would skip it: `hand \u{a0}` is not an empty hand.
    if let Some((pos, ch)) = s.chars().enumerate().find(|(_, c)| c.is_whitespace()) {
        return Err(error(CardParseError::UnknownCharacter { ch, pos }));
    }
    s.parse().map_err(error)
}

fn parse_play(command: &'static str, s: &str) -> Result<CardSet, DecodeError> {
    if s == "pass" {
        Ok(CardSet::EMPTY)
    } else {
        parse_cards(command, s)
    }
}

/// Writes a play: its cards, or `pass` for the empty set.
struct PlayText(CardSet);

impl fmt::Display for PlayText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("pass")
        } else {
            fmt::Display::fmt(&self.0, f)
        }
    }
}

/// The rule sets that have a name on the wire, and their flags in wire order.
const NAMED_RULES: [(&str, RuleSet); 3] = [
    ("competition", RuleSet::COMPETITION),
    ("douzero", RuleSet::DOUZERO),
    ("openspiel", RuleSet::OPENSPIEL),
];
const RULE_FLAGS: [&str; 4] = [
    "rocket_kickers",
    "adjacent_trio_wings",
    "four_with_two",
    "distinct_single_kickers",
];

fn rule_flags(rules: &RuleSet) -> [bool; 4] {
    [
        rules.rocket_kickers,
        rules.adjacent_trio_wings,
        rules.four_with_two,
        rules.distinct_single_kickers,
    ]
}

fn set_rule_flag(rules: &mut RuleSet, index: usize) {
    match index {
        0 => rules.rocket_kickers = true,
        1 => rules.adjacent_trio_wings = true,
        2 => rules.four_with_two = true,
        _ => rules.distinct_single_kickers = true,
    }
}

impl fmt::Display for ServerMessage {
    /// The line, without its terminator.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerMessage::Game { number } => write!(f, "game {number}"),
            ServerMessage::Rules(rules) => {
                if let Some((name, _)) = NAMED_RULES.iter().find(|(_, r)| r == rules) {
                    write!(f, "rules {name}")
                } else {
                    f.write_str("rules custom")?;
                    for (on, name) in rule_flags(rules).into_iter().zip(RULE_FLAGS) {
                        if on {
                            write!(f, " {name}")?;
                        }
                    }
                    Ok(())
                }
            }
            ServerMessage::Seat(seat) => write!(f, "seat {seat}"),
            ServerMessage::Hand(cards) => write!(f, "hand {cards}"),
            ServerMessage::Bid { seat, bid } => write!(f, "bid {seat} {bid}"),
            ServerMessage::Redeal => f.write_str("redeal"),
            ServerMessage::Landlord { seat, bid, bottom } => {
                write!(f, "landlord {seat} {bid} {bottom}")
            }
            ServerMessage::Double { seat, double } => {
                write!(f, "double {seat} {}", u8::from(*double))
            }
            ServerMessage::Play { seat, cards } => write!(f, "play {seat} {}", PlayText(*cards)),
            ServerMessage::End { winner, scores } => {
                write!(f, "end {winner} {} {} {}", scores[0], scores[1], scores[2])
            }
            ServerMessage::Ask(request) => match request {
                Request::Bid { deadline_ms, legal } => {
                    write!(f, "ask bid {deadline_ms}")?;
                    for b in legal {
                        write!(f, " {b}")?;
                    }
                    Ok(())
                }
                Request::Double { deadline_ms } => write!(f, "ask double {deadline_ms}"),
                Request::Redouble { deadline_ms } => write!(f, "ask redouble {deadline_ms}"),
                Request::Play { deadline_ms, legal } => {
                    write!(f, "ask play {deadline_ms}")?;
                    for m in legal {
                        write!(f, " {}", PlayText(*m))?;
                    }
                    Ok(())
                }
            },
            ServerMessage::Bye => f.write_str("bye"),
        }
    }
}

impl ServerMessage {
    /// The line, without its terminator.
    pub fn encode(&self) -> String {
        self.to_string()
    }

    /// Reads one line from the server (its terminator, `\n` or `\r\n`, already removed or not).
    pub fn decode(line: &str) -> Result<ServerMessage, DecodeError> {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let mut words = fields(line);
        let command = words.next().ok_or(DecodeError::Empty)?;
        let msg = match command {
            "game" => {
                let mut f = Fields::new("game", "game N", words);
                let number = f.number("game number")?;
                f.end()?;
                ServerMessage::Game { number }
            }
            "rules" => {
                let mut f = Fields::new("rules", "rules NAME", words);
                let name = f.next("rule-set name")?;
                if name == "custom" {
                    let mut rules = RuleSet {
                        rocket_kickers: false,
                        adjacent_trio_wings: false,
                        four_with_two: false,
                        distinct_single_kickers: false,
                    };
                    for flag in f.rest {
                        let i = RULE_FLAGS
                            .iter()
                            .position(|&n| n == flag)
                            .ok_or_else(|| DecodeError::UnknownRuleFlag { flag: quote(flag) })?;
                        set_rule_flag(&mut rules, i);
                    }
                    ServerMessage::Rules(rules)
                } else {
                    let rules = NAMED_RULES
                        .iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, r)| *r)
                        .ok_or_else(|| DecodeError::UnknownRules { name: quote(name) })?;
                    f.end()?;
                    ServerMessage::Rules(rules)
                }
            }
            "seat" => {
                let mut f = Fields::new("seat", "seat S", words);
                let seat = f.seat()?;
                f.end()?;
                ServerMessage::Seat(seat)
            }
            "hand" => {
                let mut f = Fields::new("hand", "hand CARDS", words);
                let cards = f.cards("cards")?;
                f.end()?;
                ServerMessage::Hand(cards)
            }
            "bid" => {
                let mut f = Fields::new("bid", "bid S B", words);
                let seat = f.seat()?;
                let bid = f.bid("bid")?;
                f.end()?;
                ServerMessage::Bid { seat, bid }
            }
            "redeal" => {
                Fields::new("redeal", "redeal", words).end()?;
                ServerMessage::Redeal
            }
            "landlord" => {
                let mut f = Fields::new("landlord", "landlord S B BOTTOM", words);
                let seat = f.seat()?;
                let bid = f.bid("bid")?;
                let bottom = f.cards("bottom cards")?;
                f.end()?;
                ServerMessage::Landlord { seat, bid, bottom }
            }
            "double" => {
                let mut f = Fields::new("double", "double S 0|1", words);
                let seat = f.seat()?;
                let double = f.flag("decision")?;
                f.end()?;
                ServerMessage::Double { seat, double }
            }
            "play" => {
                let mut f = Fields::new("play", "play S CARDS|pass", words);
                let seat = f.seat()?;
                let cards = f.play("cards")?;
                f.end()?;
                ServerMessage::Play { seat, cards }
            }
            "end" => {
                let mut f = Fields::new("end", "end W S0 S1 S2", words);
                let winner = f.seat()?;
                let scores = [
                    f.signed("score of seat 0")?,
                    f.signed("score of seat 1")?,
                    f.signed("score of seat 2")?,
                ];
                f.end()?;
                ServerMessage::End { winner, scores }
            }
            "ask" => ServerMessage::Ask(decode_request(words)?),
            "bye" => {
                Fields::new("bye", "bye", words).end()?;
                ServerMessage::Bye
            }
            other => {
                return Err(DecodeError::UnknownCommand {
                    command: quote(other),
                    expected: SERVER_COMMANDS,
                });
            }
        };
        Ok(msg)
    }
}

fn decode_request<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<Request, DecodeError> {
    let kind = words.next().ok_or(DecodeError::MissingField {
        command: "ask",
        field: "request kind",
        usage: "ask bid|double|redouble|play MS …",
    })?;
    match kind {
        "bid" => {
            let mut f = Fields::new("ask bid", "ask bid MS B…", words);
            let deadline_ms = f.number("deadline")?;
            let mut legal = vec![f.bid("legal bids")?];
            for s in f.rest {
                legal.push(parse_bid("ask bid", "legal bids", s)?);
            }
            Ok(Request::Bid { deadline_ms, legal })
        }
        "double" => {
            let mut f = Fields::new("ask double", "ask double MS", words);
            let deadline_ms = f.number("deadline")?;
            f.end()?;
            Ok(Request::Double { deadline_ms })
        }
        "redouble" => {
            let mut f = Fields::new("ask redouble", "ask redouble MS", words);
            let deadline_ms = f.number("deadline")?;
            f.end()?;
            Ok(Request::Redouble { deadline_ms })
        }
        "play" => {
            let mut f = Fields::new("ask play", "ask play MS MOVE…", words);
            let deadline_ms = f.number("deadline")?;
            let mut legal = vec![f.play("legal moves")?];
            for s in f.rest {
                legal.push(parse_play("ask play", s)?);
            }
            Ok(Request::Play { deadline_ms, legal })
        }
        other => Err(DecodeError::UnknownRequest { kind: quote(other) }),
    }
}

impl fmt::Display for BotMessage {
    /// The line, without its terminator.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotMessage::Join { name: None } => f.write_str("join"),
            BotMessage::Join { name: Some(name) } => write!(f, "join {name}"),
            BotMessage::Bid(b) => write!(f, "bid {b}"),
            BotMessage::Double(d) => write!(f, "double {}", u8::from(*d)),
            BotMessage::Play(cards) => write!(f, "play {}", PlayText(*cards)),
        }
    }
}

impl BotMessage {
    /// The line, without its terminator.
    pub fn encode(&self) -> String {
        self.to_string()
    }

    /// The answer's command word, as in `bid` or `play`.
    pub fn command(&self) -> &'static str {
        match self {
            BotMessage::Join { .. } => "join",
            BotMessage::Bid(_) => "bid",
            BotMessage::Double(_) => "double",
            BotMessage::Play(_) => "play",
        }
    }
}

/// True for a line from a bot that the protocol ignores: blank, or a comment (its first
/// non-blank character is `#`).
pub fn is_ignored_bot_line(line: &str) -> bool {
    let t = line.trim_start();
    t.trim_end().is_empty() || t.starts_with('#')
}

/// Reads one line from a bot (its terminator, `\n` or `\r\n`, already removed or not).
/// `Ok(None)` for lines the protocol ignores: blank lines and `#` comments.
pub fn decode_bot_line(line: &str) -> Result<Option<BotMessage>, DecodeError> {
    let line = line.strip_suffix('\n').unwrap_or(line);
    if is_ignored_bot_line(line) {
        return Ok(None);
    }
    let mut words = fields(line);
    let command = words.next().ok_or(DecodeError::Empty)?;
    let msg = match command {
        "join" => {
            let mut f = Fields::new("join", "join [NAME]", words);
            let name = f.rest.next();
            f.end()?;
            match name {
                None => BotMessage::Join { name: None },
                Some(n)
                    if n.chars().count() <= MAX_NAME_CHARS && !n.chars().any(char::is_control) =>
                {
                    BotMessage::Join {
                        name: Some(n.to_string()),
                    }
                }
                Some(n) => return Err(DecodeError::BadName { name: quote(n) }),
            }
        }
        "bid" => {
            let mut f = Fields::new("bid", "bid B", words);
            let bid = f.bid("bid")?;
            f.end()?;
            BotMessage::Bid(bid)
        }
        "double" => {
            let mut f = Fields::new("double", "double 0|1", words);
            let double = f.flag("decision")?;
            f.end()?;
            BotMessage::Double(double)
        }
        "play" => {
            let mut f = Fields::new("play", "play CARDS|pass", words);
            let cards = f.play("cards")?;
            f.end()?;
            BotMessage::Play(cards)
        }
        other => {
            return Err(DecodeError::UnknownCommand {
                command: quote(other),
                expected: BOT_COMMANDS,
            });
        }
    };
    Ok(Some(msg))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    fn seat(i: u8) -> Seat {
        Seat::new(i).unwrap()
    }

    fn bot_err(line: &str) -> String {
        decode_bot_line(line).unwrap_err().to_string()
    }

    fn server_err(line: &str) -> String {
        ServerMessage::decode(line).unwrap_err().to_string()
    }

    #[test]
    fn server_lines_encode_as_documented() {
        let cases = [
            (ServerMessage::Game { number: 7 }, "game 7"),
            (
                ServerMessage::Rules(RuleSet::COMPETITION),
                "rules competition",
            ),
            (ServerMessage::Rules(RuleSet::DOUZERO), "rules douzero"),
            (
                ServerMessage::Rules(RuleSet {
                    distinct_single_kickers: true,
                    ..RuleSet::COMPETITION
                }),
                "rules custom four_with_two distinct_single_kickers",
            ),
            (ServerMessage::Seat(seat(2)), "seat 2"),
            (ServerMessage::Hand(cs("r3b10")), "hand 3TBR"),
            (
                ServerMessage::Bid {
                    seat: seat(1),
                    bid: 0,
                },
                "bid 1 0",
            ),
            (ServerMessage::Redeal, "redeal"),
            (
                ServerMessage::Landlord {
                    seat: seat(0),
                    bid: 3,
                    bottom: cs("2A3"),
                },
                "landlord 0 3 3A2",
            ),
            (
                ServerMessage::Double {
                    seat: seat(1),
                    double: true,
                },
                "double 1 1",
            ),
            (
                ServerMessage::Play {
                    seat: seat(2),
                    cards: CardSet::EMPTY,
                },
                "play 2 pass",
            ),
            (
                ServerMessage::Play {
                    seat: seat(2),
                    cards: cs("44433"),
                },
                "play 2 33444",
            ),
            (
                ServerMessage::End {
                    winner: seat(0),
                    scores: [-4, 6, -2],
                },
                "end 0 -4 6 -2",
            ),
            (
                ServerMessage::Ask(Request::Bid {
                    deadline_ms: 1000,
                    legal: vec![0, 2, 3],
                }),
                "ask bid 1000 0 2 3",
            ),
            (
                ServerMessage::Ask(Request::Double { deadline_ms: 500 }),
                "ask double 500",
            ),
            (
                ServerMessage::Ask(Request::Redouble { deadline_ms: 500 }),
                "ask redouble 500",
            ),
            (
                ServerMessage::Ask(Request::Play {
                    deadline_ms: 1000,
                    legal: vec![CardSet::EMPTY, cs("5"), cs("BR")],
                }),
                "ask play 1000 pass 5 BR",
            ),
            (ServerMessage::Bye, "bye"),
        ];
        for (msg, line) in cases {
            assert_eq!(msg.encode(), line);
            assert_eq!(ServerMessage::decode(line), Ok(msg.clone()), "{line}");
            assert_eq!(ServerMessage::decode(&format!("{line}\r\n")), Ok(msg));
        }
    }

    #[test]
    fn bot_lines_decode_leniently_in_spacing_and_strictly_in_content() {
        assert_eq!(
            decode_bot_line("join"),
            Ok(Some(BotMessage::Join { name: None }))
        );
        assert_eq!(
            decode_bot_line("join my-bot_v2\r"),
            Ok(Some(BotMessage::Join {
                name: Some("my-bot_v2".into())
            }))
        );
        assert_eq!(
            decode_bot_line("  bid\t2  \r\n"),
            Ok(Some(BotMessage::Bid(2)))
        );
        assert_eq!(
            decode_bot_line("double 1"),
            Ok(Some(BotMessage::Double(true)))
        );
        assert_eq!(
            decode_bot_line("play pass"),
            Ok(Some(BotMessage::Play(CardSet::EMPTY)))
        );
        assert_eq!(
            decode_bot_line("play 10jqka"),
            Ok(Some(BotMessage::Play(cs("TJQKA"))))
        );
        for ignored in ["", "   ", "\r", "# thinking", "   # note: bid 5", "#"] {
            assert_eq!(decode_bot_line(ignored), Ok(None), "{ignored:?}");
        }
        assert_eq!(BotMessage::Play(cs("3334")).encode(), "play 3334");
        assert_eq!(BotMessage::Play(CardSet::EMPTY).encode(), "play pass");
        assert_eq!(BotMessage::Double(false).encode(), "double 0");
    }

    #[test]
    fn errors_name_the_problem() {
        let cases = [
            (
                bot_err("plya 33"),
                "unknown command \"plya\" (expected join, bid, double or play)",
            ),
            (bot_err("bid 5"), "bid 5 is out of range (0 to 3)"),
            (bot_err("bid 300"), "bid 300 is out of range (0 to 3)"),
            (
                bot_err("bid -1"),
                "the bid of \"bid\" must be a whole number, not \"-1\"",
            ),
            (
                bot_err("play 3X"),
                "bad cards \"3X\" in \"play\": unknown card character 'X' at position 1 (expected one of 3456789TJQKA2BR or 10)",
            ),
            (
                bot_err("play 33333"),
                "bad cards \"33333\" in \"play\": 5 cards of rank 3, but a deck has only 4",
            ),
            (
                bot_err("play"),
                "\"play\" is missing its cards (expected \"play CARDS|pass\")",
            ),
            (
                bot_err("play 3 3"),
                "unexpected \"3\" after the last field of \"play\" (expected \"play CARDS|pass\")",
            ),
            (
                bot_err("double yes"),
                "the decision of \"double\" must be 0 or 1, not \"yes\"",
            ),
            (
                bot_err("PLAY 3"),
                "unknown command \"PLAY\" (expected join, bid, double or play)",
            ),
            (
                bot_err("join two words"),
                "unexpected \"words\" after the last field of \"join\" (expected \"join [NAME]\")",
            ),
            (
                server_err("seat 3"),
                "seat 3 is out of range (seats are 0, 1 and 2)",
            ),
            (server_err(""), "empty line"),
            (
                server_err("ask dance 5"),
                "unknown request \"ask dance\" (expected ask bid, ask double, ask redouble or ask play)",
            ),
            (
                server_err("ask play 100"),
                "\"ask play\" is missing its legal moves (expected \"ask play MS MOVE…\")",
            ),
            (
                server_err("rules house"),
                "unknown rule set \"house\" (expected competition, douzero, openspiel or custom)",
            ),
            (
                server_err("end 0 1 2 99999999999999999999"),
                "the score of seat 2 of \"end\" must be a whole number, not \"99999999999999999999\"",
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }

    #[test]
    fn unicode_whitespace_in_a_card_field_is_no_card() {
        // Seen with the line_server fuzz target's round trip: "hand \u{a0}" decoded as an empty
        // hand, which encodes as "hand " and no longer decodes; "play \u{3000}" was a pass.
        assert_eq!(
            server_err("hand \u{a0}"),
            "bad cards \"\\u{a0}\" in \"hand\": unknown card character '\\u{a0}' at position 0 (expected one of 3456789TJQKA2BR or 10)"
        );
        assert!(server_err("landlord 0 1 3\u{3000}45").contains("position 1"));
        assert!(bot_err("play \u{3000}").starts_with("bad cards"));
        assert!(bot_err("play 3\u{a0}4").starts_with("bad cards"));
        assert_eq!(
            decode_bot_line("play 34\r"),
            Ok(Some(BotMessage::Play(cs("34"))))
        );
    }

    #[test]
    fn long_garbage_is_quoted_short() {
        let line = format!("{} 1", "x".repeat(10_000));
        let msg = bot_err(&line);
        assert!(msg.len() < 150, "{msg}");
        assert!(msg.contains('…'));
        let name = "n".repeat(MAX_NAME_CHARS + 1);
        assert!(bot_err(&format!("join {name}")).starts_with("name \"nnn"));
        assert!(bot_err("join a\u{1}b").contains("no control characters"));
    }

    #[test]
    fn every_rule_set_round_trips() {
        for bits in 0..16u8 {
            let rules = RuleSet {
                rocket_kickers: bits & 1 != 0,
                adjacent_trio_wings: bits & 2 != 0,
                four_with_two: bits & 4 != 0,
                distinct_single_kickers: bits & 8 != 0,
            };
            let line = ServerMessage::Rules(rules).encode();
            assert_eq!(
                ServerMessage::decode(&line),
                Ok(ServerMessage::Rules(rules)),
                "{line}"
            );
        }
    }
}
