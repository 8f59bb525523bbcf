//! Dou Dizhu's line protocol (`docs/ddz-line-protocol.md`) as a [`ProgramProtocol`]: each
//! request is read back into the seat's observation and legal moves, told as the lines of the
//! game the program has not seen and an `ask` line; an answer line (`bid B`, `double D`,
//! `play CARDS`) is forwarded as its action even when illegal (the runner judges legality,
//! deadlines and kinds); at the end the program is told `end W S0 S1 S2` (when the outcome has
//! a winner and three scores) and `bye`.

use std::time::Duration;

use arena_line::{Framing, Heard, LineProtocol, ProgramProtocol};
use arena_proto::v1;
use ddz_line::{BotMessage, DdzEnd, DdzLine, DdzSeat};

use crate::ddz::convert::{DdzDecision, ddz_action};
use crate::ddz::request::DdzView;

/// One seat's Dou Dizhu line protocol, for a program that plays it.
#[derive(Default)]
pub struct DdzProgram {
    line: DdzLine,
}

impl ProgramProtocol for DdzProgram {
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
        let view = DdzView::from_request(request).map_err(|e| e.0)?;
        let obs = view.observation();
        let legal = view.legal_moves();
        let seat = DdzSeat {
            obs: &obs,
            legal: &legal,
        };
        self.line.catch_up(&seat, out);
        Ok(self.line.ask(&seat, deadline, out))
    }

    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
        let quoted = arena_line::quote(text);
        let answered = |e: &dyn std::fmt::Display| format!("answered {quoted} {context}: {e}");
        match self.line.parse(text).map_err(|e| answered(&e))? {
            None => Ok(Heard::Nothing),
            Some(_) if !asked => Err(format!("wrote {quoted} when nothing was asked")),
            Some(answer) => action_of(&answer)
                .map(Heard::Answer)
                .ok_or_else(|| answered(&"\"join\" is only the first line of a process")),
        }
    }

    fn close(&mut self, outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
        if let Some(end) = end_of(outcome) {
            self.line.end(&end, out);
        }
        self.line.farewell(out);
    }
}

/// The end of the game for an outcome, when it has a winner and three scores.
fn end_of(outcome: Option<&v1::Outcome>) -> Option<DdzEnd<'static>> {
    let o = outcome?;
    let d = super::convert::outcome_of(o)?;
    DdzEnd::result(d.winner, &o.scores)
}

/// An answer line as the action it stands for (`None` for `join`, which answers nothing).
fn action_of(answer: &BotMessage) -> Option<v1::Action> {
    let d = match *answer {
        BotMessage::Bid(b) => DdzDecision::Bid(u32::from(b)),
        BotMessage::Double(x) => DdzDecision::Double(x),
        BotMessage::Play(cards) => DdzDecision::Play(cards),
        BotMessage::Join { .. } => return None,
    };
    Some(ddz_action(d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_proto::packages::arena::ddz::v1 as ddz_pb;

    #[test]
    fn answers_become_actions_and_the_end_line_needs_a_whole_outcome() {
        let a = action_of(&BotMessage::Play("33".parse().unwrap())).unwrap();
        assert_eq!(
            crate::ddz::convert::ddz_decision(&a),
            Ok(DdzDecision::Play("33".parse().unwrap()))
        );
        assert!(action_of(&BotMessage::Join { name: None }).is_none());
        let outcome = v1::Outcome {
            scores: vec![2, -1, -1],
            scoring: "competition".into(),
            game: Some(arena_proto::payload::pack(&ddz_pb::Outcome {
                winner: 0,
                ..Default::default()
            })),
        };
        let mut lines = Vec::new();
        DdzProgram::default().close(Some(&outcome), &mut lines);
        assert_eq!(lines, ["end 0 2 -1 -1", "bye"]);
        let short = v1::Outcome {
            scores: vec![1],
            ..outcome
        };
        assert!(end_of(Some(&short)).is_none());
        let mut lines = Vec::new();
        DdzProgram::default().close(None, &mut lines);
        assert_eq!(lines, ["bye"]);
    }

    #[test]
    fn a_line_when_nothing_was_asked_or_a_late_join_is_a_fault() {
        let mut p = DdzProgram::default();
        assert_eq!(
            p.hear("# thinking", "to the play request", true),
            Ok(Heard::Nothing)
        );
        let e = p
            .hear("play 33", "when nothing was asked", false)
            .unwrap_err();
        assert!(e.contains("when nothing was asked"), "{e}");
        let e = p.hear("join", "to the play request", true).unwrap_err();
        assert!(e.contains("only the first line"), "{e}");
        let e = p.hear("dance", "to the play request", true).unwrap_err();
        assert!(
            e.starts_with("answered \"dance\" to the play request"),
            "{e}"
        );
    }
}
