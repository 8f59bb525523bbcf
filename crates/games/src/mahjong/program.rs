//! The 2015 contest's Mahjong line protocol (`docs/mahjong-line-protocol.md`) as a
//! [`ProgramProtocol`]: each request is read back into the seat's view and told as the lines
//! the program has not seen (the last of them is the question, as the contest's server asked);
//! a word is read against the question as the contest read it ([`mahjong_line::read_answer`]):
//! `hu` is a self-drawn win, a win on the discard or a robbed kong; a claim word on the seat's
//! own turn and a `chi` from a seat that may not chow are a pass; any other word of the wrong
//! kind is malformed. Blank lines and words written when nothing was asked are ignored, up to
//! [`MAX_IGNORED_LINES`] between two answers. The program is told nothing at the end.

use std::time::Duration;

use arena_line::{Framing, Heard, LineProtocol, ProgramProtocol};
use arena_proto::v1;
use mahjong_line::{Judged, MAX_IGNORED_LINES, MahjongLine};

use crate::mahjong::request::MahjongRequest;
use crate::mahjong::rules;

/// One seat's Mahjong line protocol, for a program that plays it.
pub struct MahjongProgram {
    line: MahjongLine,
    /// The decision of the request asked last, which the program's words are read against.
    decision: Option<rules::Decision>,
    /// Lines that answered nothing since the last answer.
    ignored: usize,
}

impl MahjongProgram {
    /// The protocol for seat `seat` (0 to 3).
    pub fn new(seat: u8) -> MahjongProgram {
        MahjongProgram {
            line: MahjongLine::new(seat),
            decision: None,
            ignored: 0,
        }
    }
}

impl ProgramProtocol for MahjongProgram {
    fn framing(&self) -> Framing {
        self.line.framing()
    }

    fn greeting(&self) -> Option<&'static str> {
        self.line.greeting()
    }

    fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String> {
        self.line.read_greeting(line)
    }

    fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        deadline: Duration,
        out: &mut Vec<String>,
    ) -> Result<&'static str, String> {
        let r = MahjongRequest::from_request(request).map_err(|e| e.0)?;
        let view = r.view();
        self.line.catch_up(&view, out);
        self.decision = Some(r.decision());
        Ok(self.line.ask(&view, deadline, out))
    }

    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
        let quoted = arena_line::quote(text);
        let answered = |e: &dyn std::fmt::Display| format!("answered {quoted} {context}: {e}");
        let message = self.line.parse(text).map_err(|e| answered(&e))?;
        let judged = match (message, self.decision) {
            (Some(m), Some(d)) if asked => {
                mahjong_line::read_answer(d, &m).map_err(|e| answered(&e))?
            }
            _ => Judged::Ignored("a blank line, or a line when nothing was asked"),
        };
        let action = match judged {
            Judged::Answer(a) => a,
            Judged::AsPass(_) => rules::Action::Pass,
            Judged::Ignored(why) => {
                self.ignored += 1;
                if self.ignored > MAX_IGNORED_LINES {
                    return Err(format!(
                        "wrote more than {MAX_IGNORED_LINES} lines that answer nothing since its last answer (the last: {quoted}); a bot writes one line per question"
                    ));
                }
                tracing::debug!(line = %quoted, why, "ignored a line of the program");
                return Ok(Heard::Nothing);
            }
        };
        self.ignored = 0;
        Ok(Heard::Answer(crate::mahjong::convert::action(action)))
    }

    fn close(&mut self, _outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
        self.line.end(&(), out);
        self.line.farewell(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_that_answer_nothing_are_ignored_up_to_the_limit() {
        let mut p = MahjongProgram::new(0);
        for _ in 0..MAX_IGNORED_LINES {
            assert_eq!(
                p.hear("", "when nothing was asked", false),
                Ok(Heard::Nothing)
            );
        }
        let e = p.hear("", "when nothing was asked", false).unwrap_err();
        assert!(e.contains("lines that answer nothing"), "{e}");
        let mut lines = Vec::new();
        p.close(None, &mut lines);
        assert!(lines.is_empty(), "the contest announced no end: {lines:?}");
    }
}
