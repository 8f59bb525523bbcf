//! [`MahjongLine`]: the contest's Mahjong protocol as an [`arena_line::LineProtocol`], so that
//! any host of bot programs (the `cmd:` bots of this crate, bot-host) runs it on the one
//! supervisor of [`arena_line`].

use std::time::Duration;

use arena_line::{Framing, LineEnding, LineProtocol};
use mahjong::View;

use crate::codec::{BotMessage, ServerMessage, decode_bot_line};
use crate::feed::SeatFeed;

/// The most lines a program may write that answer nothing (blank lines, out-of-place words)
/// between two answers. A bot writes one line per question; the contest's bots add at most
/// one (a `pass` to their own `mjgang`) now and then.
pub const MAX_IGNORED_LINES: usize = 64;

/// The longest line kept from a bot, in bytes: every answer of the protocol fits in a dozen
/// (a `join` name is cut at 64 characters); longer lines are faults, never buffered.
pub const MAX_ANSWER_BYTES: usize = 1024;

/// One seat's session of the contest protocol for one hand (`docs/mahjong-line-protocol.md`):
/// `join` first; `\r\n`-ended lines from the arena (a program may end its own with `\n` or
/// `\r\n`); the seat's [`SeatFeed`]. There is no question line: the last line of a catch-up
/// (a `pick`, the seat's own `mchi`/`mpeng`, another seat's `mout`/`mjgang`) is the question,
/// and nothing is sent when the hand ends.
#[derive(Clone, Debug)]
pub struct MahjongLine {
    feed: SeatFeed,
}

impl MahjongLine {
    /// A session for `seat` (0–3) at the start of a hand.
    pub fn new(seat: u8) -> MahjongLine {
        MahjongLine {
            feed: SeatFeed::new(seat),
        }
    }

    /// The seat's feed.
    pub fn feed(&self) -> &SeatFeed {
        &self.feed
    }

    /// The line that asked the seat for its current answer, as sent (`"mout 2 9M"`).
    pub fn question(&self) -> Option<String> {
        self.feed.question().map(ServerMessage::encode)
    }
}

impl LineProtocol for MahjongLine {
    type Seat<'a> = View<'a>;
    type Answer = BotMessage;
    type End<'a> = ();

    /// `\r\n`, as the contest's server wrote, and [`MAX_ANSWER_BYTES`].
    fn framing(&self) -> Framing {
        Framing {
            ending: LineEnding::CrLf,
            max_line_bytes: MAX_ANSWER_BYTES,
        }
    }

    fn greeting(&self) -> Option<&'static str> {
        Some("\"join\"")
    }

    fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String> {
        match decode_bot_line(line) {
            Ok(None) => Ok(None),
            Ok(Some(BotMessage::Join(name))) => Ok(Some(name)),
            Ok(Some(_)) => Err(format!(
                "the first line must be \"join\", got {}",
                arena_line::quote(line)
            )),
            Err(e) => Err(format!(
                "the first line must be \"join\", got {}: {e}",
                arena_line::quote(line)
            )),
        }
    }

    fn catch_up(&mut self, view: &View<'_>, out: &mut Vec<String>) {
        let mut lines = Vec::new();
        self.feed.catch_up(view, &mut lines);
        out.extend(lines.iter().map(ServerMessage::encode));
    }

    /// Adds nothing: the question is the last line of the catch-up. Returns its command
    /// (`pick`, `mchi`, `mpeng`, `mout` or `mjgang`). The deadline is not told.
    fn ask(
        &mut self,
        _view: &View<'_>,
        _deadline: Duration,
        _out: &mut Vec<String>,
    ) -> &'static str {
        self.feed
            .question()
            .map_or("question", ServerMessage::command)
    }

    fn parse(&self, line: &str) -> Result<Option<BotMessage>, String> {
        decode_bot_line(line).map_err(|e| e.to_string())
    }

    /// Nothing: the contest announced no end; the host stops the program.
    fn end(&mut self, _end: &(), _out: &mut Vec<String>) {}

    /// Nothing: the program is killed, not told.
    fn farewell(&self, _out: &mut Vec<String>) {}
}
