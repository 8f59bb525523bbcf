//! Chinese Standard Mahjong's line protocol (`docs/mcr.md`) as a [`ProgramProtocol`]: a program
//! greets with `join` (or `join NAME`), is told the hand in Botzone's request lines, each event
//! once, and asked with a `?` line; it answers with one line in Botzone's words.
//!
//! What the program is told, in order (`p` a seat, 0–3; tiles in Botzone's notation):
//!
//! - `0 seat quan`: its seat and the prevalent wind, once, first;
//! - `1 f0 f1 f2 f3 t1 … t13 h…`: the deal — each seat's flowers in the deal, its own 13 tiles,
//!   then its own flowers;
//! - `2 t`: it drew `t`;
//! - `3 p DRAW`, `3 p BUHUA h`, `3 p PLAY t`, `3 p PENG t`, `3 p CHI m t`, `3 p GANG`,
//!   `3 p BUGANG t`: what seats did (its own moves included; a concealed kong is a bare `GANG`,
//!   as Botzone tells it);
//! - `? TURN`, `? DISCARD` or `? ROBKONG`: the question, after the events it has not yet been
//!   told.
//!
//! It answers `PLAY t`, `HU`, `GANG t`, `BUGANG t` on its turn; `PASS`, `HU`, `GANG`, `PENG t`,
//! `CHI m t` to a discard; `PASS` or `HU` to an added kong. A line that is not such an answer is
//! malformed; an answer the rules refuse is illegal (both a verdict). Blank lines, and lines
//! written when nothing was asked, are ignored, up to [`MAX_IGNORED_LINES`] between answers.
//! The program is told nothing at the end: its input closes.

use std::fmt::Write as _;
use std::time::Duration;

use arena_line::{Framing, Heard, ProgramProtocol};
use arena_proto::v1;
use mcr::{Action, Decision, Event};

use super::convert;
use super::request::McrRequest;

/// The most lines that answer nothing a program may write between two answers.
pub const MAX_IGNORED_LINES: usize = 64;

/// One seat's line protocol, for a program that plays it.
pub struct McrProgram {
    seat: u8,
    /// How many of the seat's events it has been told (the deal's flowers included).
    told: usize,
    started: bool,
    /// Lines that answered nothing since the last answer.
    ignored: usize,
}

impl McrProgram {
    /// The protocol for seat `seat` (0 to 3).
    pub fn new(seat: u8) -> McrProgram {
        McrProgram {
            seat,
            told: 0,
            started: false,
            ignored: 0,
        }
    }
}

/// Which flowers the deal's line lists after the seat's 13 tiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Flowers {
    /// The seat's own (the arena's line protocol).
    Own,
    /// Every seat's, seat by seat (Botzone's judge).
    All,
}

/// The line telling `e` (`None` for an event a program is not told: a flower of the deal, told
/// in the deal's line, a win (the hand is over), a fault).
fn event_line(e: Event, seat: u8) -> Option<String> {
    Some(match e {
        Event::Dealt
        | Event::Fault { .. }
        | Event::Act {
            action: Action::Win | Action::Pass,
            ..
        } => return None,
        Event::Draw { seat: p, tile } if p == seat => format!("2 {}", tile?),
        Event::Draw { seat: p, .. } => format!("3 {p} DRAW"),
        Event::Flower { seat: p, flower } => format!("3 {p} BUHUA {flower}"),
        Event::HiddenKong { seat: p }
        | Event::Act {
            seat: p,
            action: Action::ConcealedKong(_),
        } => format!("3 {p} GANG"),
        Event::Act { seat: p, action } => format!("3 {p} {action}"),
    })
}

/// The line `0 seat quan` a seat is told first.
pub(crate) fn seat_line(seat: u8, r: &McrRequest) -> String {
    format!("0 {seat} {}", r.view().quan().index())
}

/// Gives `line` the lines (Botzone's request lines) of the events of `r` from the `told`-th on,
/// each with the index of its event: the deal's (`1 …`, its flowers as `flowers` says) and
/// every later event's the seat sees. Returns how many events there are (the next `told`).
pub(crate) fn told_lines(
    r: &McrRequest,
    seat: u8,
    told: usize,
    flowers: Flowers,
    mut line: impl FnMut(usize, String),
) -> usize {
    let view = r.view();
    let mut deal_flowers = [0u8; 4];
    let mut listed = Vec::new();
    let mut dealt = false;
    let mut count = 0;
    for (i, e) in view.events().enumerate() {
        count = i + 1;
        if !dealt && let Event::Flower { seat: p, flower } = e {
            deal_flowers[usize::from(p % 4)] += 1;
            if p == seat || flowers == Flowers::All {
                listed.push((p, flower));
            }
        }
        if e == Event::Dealt {
            dealt = true;
            if i >= told {
                let mut text = String::from("1");
                for n in deal_flowers {
                    let _ = write!(text, " {n}");
                }
                for t in mcr::tiles_of(r.dealt()) {
                    let _ = write!(text, " {t}");
                }
                // Seat by seat, each in the order drawn (the events' order).
                listed.sort_by_key(|(p, _)| *p);
                for (_, f) in &listed {
                    let _ = write!(text, " {f}");
                }
                line(i, text);
            }
            continue;
        }
        if i >= told
            && dealt
            && let Some(text) = event_line(e, seat)
        {
            line(i, text);
        }
    }
    count
}

impl ProgramProtocol for McrProgram {
    fn framing(&self) -> Framing {
        Framing::default()
    }

    fn greeting(&self) -> Option<&'static str> {
        Some("\"join\"")
    }

    fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String> {
        let refused = || {
            format!(
                "the first line must be \"join\" or \"join NAME\", got {}",
                arena_line::quote(line)
            )
        };
        let text = line.trim();
        if text.is_empty() {
            return Ok(None);
        }
        match text.split_once(' ') {
            None if text == "join" => Ok(Some(None)),
            Some(("join", name)) if arena_proto::text::check_shown(name.trim()).is_ok() => {
                Ok(Some(Some(name.trim().to_string())))
            }
            _ => Err(refused()),
        }
    }

    fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        _deadline: Duration,
        out: &mut Vec<String>,
    ) -> Result<&'static str, String> {
        let r = McrRequest::from_request(request).map_err(|e| e.0)?;
        if r.seat() != self.seat {
            return Err(format!(
                "request.seat is {}, but this program plays seat {}",
                r.seat(),
                self.seat
            ));
        }
        if !self.started {
            self.started = true;
            out.push(seat_line(self.seat, &r));
        }
        self.told = told_lines(&r, self.seat, self.told, Flowers::Own, |_, line| {
            out.push(line)
        });
        let (question, name) = match r.decision() {
            Decision::Turn { .. } => ("? TURN", "turn"),
            Decision::Discard { .. } => ("? DISCARD", "discard"),
            Decision::RobKong { .. } => ("? ROBKONG", "rob-kong"),
        };
        out.push(question.to_string());
        Ok(name)
    }

    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
        let line = text.trim();
        if line.is_empty() || !asked {
            self.ignored += 1;
            if self.ignored > MAX_IGNORED_LINES {
                return Err(format!(
                    "wrote more than {MAX_IGNORED_LINES} lines that answer nothing since its last answer (the last: {}); a bot writes one line per question",
                    arena_line::quote(text)
                ));
            }
            return Ok(Heard::Nothing);
        }
        let action: Action = line
            .parse()
            .map_err(|e| format!("answered {} {context}: {e}", arena_line::quote(text)))?;
        self.ignored = 0;
        Ok(Heard::Answer(convert::action(action)))
    }

    fn close(&mut self, _outcome: Option<&v1::Outcome>, _out: &mut Vec<String>) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcr::{McrSpec, McrTable};
    use arena_table::TableGame;

    fn request(t: &McrTable, seat: u32) -> v1::DecisionRequest {
        v1::DecisionRequest {
            seat,
            game: "mcr".into(),
            observation: Some(t.observation(seat)),
            ..Default::default()
        }
    }

    #[test]
    fn a_seat_is_told_its_seat_the_deal_and_each_event_once_then_asked() {
        let mut t = McrTable::new(&McrSpec::from_seed(4));
        let mut programs: Vec<McrProgram> = (0..4).map(McrProgram::new).collect();
        let mut told: Vec<Vec<String>> = vec![Vec::new(); 4];
        let mut rounds = 0;
        while t.outcome().is_none() && rounds < 60 {
            rounds += 1;
            let mut answers = Vec::new();
            for p in t.pending() {
                let mut out = Vec::new();
                programs[p.seat as usize]
                    .ask(&request(&t, p.seat), Duration::from_secs(1), &mut out)
                    .unwrap();
                assert!(out.last().unwrap().starts_with("? "), "{out:?}");
                told[p.seat as usize].extend(out);
                answers.push((p, t.automatic(&p)));
            }
            t.apply(&answers).unwrap();
        }
        let seat0 = &told[0];
        assert_eq!(seat0[0], format!("0 0 {}", t.game().quan().index()));
        let deal: Vec<&str> = seat0[1].split(' ').collect();
        assert_eq!(deal[0], "1");
        assert!(deal.len() >= 1 + 4 + 13, "{deal:?}");
        assert!(seat0[2].starts_with("2 "), "its first draw: {}", seat0[2]);
        assert_eq!(seat0[3], "? TURN");
        // Seat 1 is told seat 0's draw without its tile, and seat 0's discard.
        let seat1 = &told[1];
        assert!(seat1.contains(&"3 0 DRAW".to_string()), "{seat1:?}");
        assert!(
            seat1.iter().any(|l| l.starts_with("3 0 PLAY ")),
            "{seat1:?}"
        );
        assert_eq!(
            seat1.iter().filter(|l| l.starts_with("0 ")).count(),
            1,
            "the seat line once"
        );
    }

    #[test]
    fn the_greeting_is_join_with_an_optional_name() {
        let p = McrProgram::new(0);
        assert_eq!(p.read_greeting("join"), Ok(Some(None)));
        assert_eq!(
            p.read_greeting("join fanbot 2"),
            Ok(Some(Some("fanbot 2".into())))
        );
        assert_eq!(p.read_greeting(""), Ok(None));
        assert!(p.read_greeting("PLAY W1").unwrap_err().contains("\"join\""));
    }

    #[test]
    fn answers_are_read_in_botzones_words_and_other_lines_are_faults_or_ignored() {
        let mut p = McrProgram::new(0);
        match p.hear("PLAY W1", "to the turn", true).unwrap() {
            Heard::Answer(a) => {
                assert_eq!(
                    convert::action_of(&a),
                    Ok(Action::Play("W1".parse().unwrap()))
                )
            }
            other => panic!("an answer, not {other:?}"),
        }
        let e = p.hear("DISCARD W1", "to the turn", true).unwrap_err();
        assert!(
            e.contains("\"DISCARD W1\"") && e.contains("not an answer"),
            "{e}"
        );
        for _ in 0..MAX_IGNORED_LINES {
            assert_eq!(p.hear("", "", false), Ok(Heard::Nothing));
        }
        assert!(p.hear("PASS", "", false).is_err(), "too many lines unasked");
    }
}
