//! [`DdzLine`]: the Dou Dizhu line protocol as an [`arena_line::LineProtocol`], so that any host
//! of bot programs (the `cmd:` bots of this crate, bot-host) runs it on the one supervisor of
//! [`arena_line`].

use std::time::Duration;

use arena_line::LineProtocol;
use ddz::{MoveList, Observation, Scoring, Seat};

use crate::codec::{BotMessage, ServerMessage, decode_bot_line};
use crate::feed::{self, SeatFeed};

/// What a host knows of a seat when it asks for a decision: the seat's observation and the
/// legal moves (pass first when following; only read in play).
#[derive(Copy, Clone, Debug)]
pub struct DdzSeat<'a> {
    /// The seat's view of the game.
    pub obs: &'a Observation<'a>,
    /// The legal moves.
    pub legal: &'a MoveList,
}

/// How a game ended, as the host knows it.
#[derive(Copy, Clone, Debug)]
pub enum DdzEnd<'a> {
    /// The seat's view of the finished game: it is told every event it has not seen, ending with
    /// `end`.
    Game(&'a Observation<'a>),
    /// Only the result (a host that is not told the last events): `end W S0 S1 S2`.
    Result {
        /// The seat that went out first.
        winner: Seat,
        /// The scores, by seat.
        scores: [i64; 3],
    },
}

impl DdzEnd<'static> {
    /// The result as a host receives it (a winner's seat number and the scores by seat), if it
    /// is one: a seat 0 to 2 and three scores.
    pub fn result(winner: u32, scores: &[i64]) -> Option<DdzEnd<'static>> {
        let winner = u8::try_from(winner).ok().and_then(Seat::new)?;
        let scores: [i64; 3] = scores.try_into().ok()?;
        Some(DdzEnd::Result { winner, scores })
    }
}

/// One seat's session of the Dou Dizhu line protocol (`docs/ddz-line-protocol.md`): `join`
/// first, `\n`-ended lines (a program may end its own with `\n` or `\r\n`), one game's
/// [`SeatFeed`] at a time.
#[derive(Clone, Debug)]
pub struct DdzLine {
    feed: SeatFeed,
}

impl DdzLine {
    /// A session at game `number` (announced as `game N`), scoring `end` lines with `scoring`.
    pub fn new(number: u64, scoring: Scoring) -> DdzLine {
        DdzLine {
            feed: SeatFeed::new(number, scoring),
        }
    }

    /// The feed of the current game.
    pub fn feed(&self) -> &SeatFeed {
        &self.feed
    }

    fn push(out: &mut Vec<String>, lines: &[ServerMessage]) {
        out.extend(lines.iter().map(ServerMessage::encode));
    }
}

impl Default for DdzLine {
    /// A session of one game (`game 1`) scored under competition rules: what a host that runs a
    /// fresh process per table uses.
    fn default() -> DdzLine {
        DdzLine::new(1, Scoring::Competition)
    }
}

impl LineProtocol for DdzLine {
    type Seat<'a> = DdzSeat<'a>;
    type Answer = BotMessage;
    type End<'a> = DdzEnd<'a>;

    fn greeting(&self) -> Option<&'static str> {
        Some("\"join\"")
    }

    fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String> {
        match decode_bot_line(line) {
            Ok(None) => Ok(None),
            Ok(Some(BotMessage::Join { name })) => Ok(Some(name)),
            Ok(Some(_)) => Err(format!(
                "the first line must be \"join\" or \"join NAME\", got {}",
                arena_line::quote(line)
            )),
            Err(e) => Err(format!(
                "the first line must be \"join\" or \"join NAME\", got {}: {e}",
                arena_line::quote(line)
            )),
        }
    }

    fn catch_up(&mut self, seat: &DdzSeat<'_>, out: &mut Vec<String>) {
        let mut lines = Vec::new();
        self.feed.catch_up(seat.obs, &mut lines);
        Self::push(out, &lines);
    }

    fn ask(
        &mut self,
        seat: &DdzSeat<'_>,
        deadline: Duration,
        out: &mut Vec<String>,
    ) -> &'static str {
        let ms = u64::try_from(deadline.as_millis()).unwrap_or(u64::MAX);
        let request = feed::request(seat.obs, seat.legal, ms);
        let name = request.name();
        out.push(ServerMessage::Ask(request).encode());
        name
    }

    fn parse(&self, line: &str) -> Result<Option<BotMessage>, String> {
        decode_bot_line(line).map_err(|e| e.to_string())
    }

    fn end(&mut self, end: &DdzEnd<'_>, out: &mut Vec<String>) {
        match *end {
            DdzEnd::Game(obs) => {
                let mut lines = Vec::new();
                self.feed.catch_up(obs, &mut lines);
                Self::push(out, &lines);
            }
            DdzEnd::Result { winner, scores } => {
                out.push(ServerMessage::End { winner, scores }.encode());
            }
        }
    }

    fn farewell(&self, out: &mut Vec<String>) {
        out.push(ServerMessage::Bye.encode());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddz::{DealConstraint, Game, GameConfig};

    #[test]
    fn a_seat_is_caught_up_asked_and_told_the_end_in_lines() {
        let game = Game::from_seed(GameConfig::competition(), 3, DealConstraint::NONE).unwrap();
        let seat = game.to_act().unwrap();
        let obs = game.observation(seat);
        let legal = MoveList::new();
        let mut line = DdzLine::new(1, Scoring::Competition);
        let mut out = Vec::new();
        let s = DdzSeat {
            obs: &obs,
            legal: &legal,
        };
        line.catch_up(&s, &mut out);
        assert_eq!(out[0], "game 1");
        assert!(out.iter().any(|l| l.starts_with("hand ")), "{out:?}");
        let name = line.ask(&s, Duration::from_millis(900), &mut out);
        assert_eq!(name, "bid");
        assert!(out.last().unwrap().starts_with("ask bid 900 0"), "{out:?}");
        let mut end = Vec::new();
        line.end(
            &DdzEnd::Result {
                winner: seat,
                scores: [2, -1, -1],
            },
            &mut end,
        );
        line.farewell(&mut end);
        assert_eq!(end, [format!("end {} 2 -1 -1", seat.index()), "bye".into()]);
    }

    #[test]
    fn a_result_needs_a_seat_and_three_scores() {
        assert!(matches!(
            DdzEnd::result(2, &[-1, -1, 2]),
            Some(DdzEnd::Result { winner, scores: [-1, -1, 2] }) if winner.index() == 2
        ));
        assert!(DdzEnd::result(3, &[0, 0, 0]).is_none());
        assert!(DdzEnd::result(0, &[1]).is_none());
    }

    #[test]
    fn the_greeting_is_join_and_nothing_else() {
        let line = DdzLine::new(1, Scoring::Competition);
        assert_eq!(line.read_greeting("# hi"), Ok(None));
        assert_eq!(line.read_greeting("join x\r"), Ok(Some(Some("x".into()))));
        let e = line.read_greeting("bid 1").unwrap_err();
        assert!(e.contains(r#"got "bid 1""#), "{e}");
        assert_eq!(
            line.parse("play pass"),
            Ok(Some(BotMessage::Play(Default::default())))
        );
        assert!(line.parse("plya").is_err());
    }
}
