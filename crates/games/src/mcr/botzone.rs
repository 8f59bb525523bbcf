//! Chinese Standard Mahjong's Botzone grammar (Botzone's game `Chinese-Standard-Mahjong`, the
//! IJCAI competition's judge `judge/main.cpp`): what each seat's bot is asked, turn by turn, as
//! the judge asks it, and its responses read as actions. The protocols `botzone` and
//! `botzone-simpleio` of the game are [`arena_line::botzone::Protocol`] around it.
//!
//! Botzone's judge asks every seat on every turn; only some turns are decisions. The turns,
//! for seat `s` (`p` a seat, tiles in Botzone's notation):
//!
//! - `0 s quan`, then the deal `1 f0 f1 f2 f3 t1 … t13 h…` (each seat's flower count, the seat's
//!   13 tiles, then every seat's flowers seat by seat): both answered `PASS`;
//! - `2 t`: the seat drew `t` — its decision (`PLAY t`, `GANG t`, `BUGANG t`, `HU`);
//! - `3 p DRAW`, `3 p BUHUA h`, `3 p GANG`: answered `PASS` (the drawer too for its flower);
//! - `3 p PLAY t`, `3 p PENG t`, `3 p CHI m t` (a claim and the discard after it): `PASS` from
//!   `p`; a decision of every other seat (`PASS`, `HU`, `GANG`, `PENG t`, `CHI m t`);
//! - `3 p BUGANG t`: `PASS` from `p`; the others may rob it (`PASS` or `HU`).
//!
//! A turn the arena does not ask the seat about (it had no choice but `PASS`) is a filler turn
//! ([`arena_line::botzone::BotzoneTurn::filler`]). The one difference from the judge: the deal's
//! 13 tiles are listed sorted, where the judge lists them in the order they were drawn (a
//! request carries the seat's hand, not the order it came in); a bot reading the deal as a set
//! of tiles, as Botzone's sample bots do, cannot tell. Hidden tiles are never in another seat's
//! requests: another seat's draw is `3 p DRAW`, its concealed kong a bare `3 p GANG`.

use arena_line::botzone::{BotzoneGrammar, BotzoneTurn};
use arena_proto::v1;
use mcr::Action;
use serde_json::Value;

use super::convert;
use super::program::{Flowers, seat_line, told_lines};
use super::request::McrRequest;

/// Botzone's name of the game.
pub const BOTZONE_GAME: &str = "Chinese-Standard-Mahjong";

/// One seat's Botzone grammar: what it has been told so far.
#[derive(Clone, Debug)]
pub struct McrBotzone {
    seat: u8,
    /// How many of the seat's events it has been told.
    told: usize,
    started: bool,
}

impl McrBotzone {
    /// The grammar for seat `seat` (0 to 3).
    pub fn new(seat: u8) -> McrBotzone {
        McrBotzone {
            seat,
            told: 0,
            started: false,
        }
    }
}

fn pass() -> Option<Value> {
    Some(Value::String("PASS".into()))
}

impl BotzoneGrammar for McrBotzone {
    fn botzone_game(&self) -> &'static str {
        BOTZONE_GAME
    }

    fn turns(
        &mut self,
        request: &v1::DecisionRequest,
        out: &mut Vec<BotzoneTurn>,
    ) -> Result<(), String> {
        let r = McrRequest::from_request(request).map_err(|e| e.0)?;
        if r.seat() != self.seat {
            return Err(format!(
                "request.seat is {}, but this bot plays seat {}",
                r.seat(),
                self.seat
            ));
        }
        let from = out.len();
        if !self.started {
            self.started = true;
            out.push(BotzoneTurn {
                request: Value::String(seat_line(self.seat, &r)),
                filler: pass(),
            });
        }
        self.told = told_lines(&r, self.seat, self.told, Flowers::All, |_, line| {
            out.push(BotzoneTurn {
                request: Value::String(line),
                filler: pass(),
            });
        });
        // The decision is on the last event's turn.
        let added = out.len() > from;
        match out.last_mut() {
            Some(last) if added => last.filler = None,
            _ => {
                return Err(format!(
                    "request.observation has no event for seat {} since its last decision",
                    self.seat
                ));
            }
        }
        Ok(())
    }

    fn action(&mut self, response: &Value) -> Result<v1::Action, String> {
        let Some(text) = response.as_str() else {
            return Err(format!(
                "a response is a string such as \"PLAY W1\", not {response}"
            ));
        };
        let action: Action = text.trim().parse().map_err(|e| format!("{e}"))?;
        Ok(convert::action(action))
    }

    fn simple_request(&self, request: &Value) -> Option<String> {
        Some(match request {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    }

    fn simple_response(&self, line: &str) -> Result<Value, String> {
        Ok(Value::String(line.trim().to_string()))
    }
}
