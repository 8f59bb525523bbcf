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

use arena_line::Fault;
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

    fn action(&mut self, response: &Value) -> Result<v1::Action, Fault> {
        let Some(text) = response.as_str() else {
            return Err(Fault::malformed(format!(
                "a response is a string such as \"PLAY W1\", not {response}"
            )));
        };
        let action: Action = text
            .trim()
            .parse()
            .map_err(|e| Fault::malformed(format!("{e}")))?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcr::{McrSpec, McrTable};
    use arena_table::TableGame;
    use mcr::{Event, Tile, WallTile};

    fn request(t: &McrTable, seat: u32) -> v1::DecisionRequest {
        v1::DecisionRequest {
            seat,
            game: "mcr".into(),
            observation: Some(t.observation(seat)),
            ..Default::default()
        }
    }

    /// Plays `seed`'s hand with automatic answers, giving each seat's grammar every request:
    /// the requests each seat received, in order, and the hand's actions (all seats', in order).
    fn play(seed: u64) -> (McrSpec, [Vec<String>; 4], Vec<(u8, Action)>) {
        let spec = McrSpec::from_seed(seed);
        let mut t = McrTable::new(&spec);
        let mut grammars: Vec<McrBotzone> = (0..4).map(McrBotzone::new).collect();
        let mut got: [Vec<String>; 4] = Default::default();
        let mut rounds = 0;
        while t.outcome().is_none() && rounds < 400 {
            rounds += 1;
            let mut answers = Vec::new();
            for p in t.pending() {
                let mut turns = Vec::new();
                grammars[p.seat as usize]
                    .turns(&request(&t, p.seat), &mut turns)
                    .unwrap();
                assert_eq!(turns.last().unwrap().filler, None, "the decision is last");
                assert!(turns[..turns.len() - 1].iter().all(|x| x.filler == pass()));
                got[p.seat as usize].extend(turns.into_iter().map(|x| match x.request {
                    Value::String(s) => s,
                    other => panic!("a request is a string, not {other}"),
                }));
                answers.push((p, t.automatic(&p)));
            }
            t.apply(&answers).unwrap();
        }
        let acts = t
            .game()
            .events()
            .iter()
            .filter_map(|e| match *e {
                Event::Act { seat, action } => Some((seat, action)),
                _ => None,
            })
            .collect();
        (spec, got, acts)
    }

    /// What Botzone's judge (`judge/main.cpp`) sends each seat for `spec`'s wall while the
    /// hand is only draws, flowers and discards nobody claims (its `roundOutput` for stages -2,
    /// -1, 0–3 and 4–7), the seats' answers taken from `acts`: it stops at the first other
    /// action. The deal's 13 tiles sorted, as the arena lists them.
    fn judge(spec: &McrSpec, acts: &[(u8, Action)]) -> [Vec<String>; 4] {
        let name = |w: &WallTile| w.to_string();
        let n = spec.deal.wall.tiles().len() / 4;
        let mut quarters: Vec<Vec<String>> = (0..4)
            .map(|i| {
                spec.deal.wall.tiles()[n * i..n * (i + 1)]
                    .iter()
                    .map(name)
                    .collect()
            })
            .collect();
        let mut out: [Vec<String>; 4] = Default::default();
        let quan = spec.deal.quan.index();
        for (i, o) in out.iter_mut().enumerate() {
            o.push(format!("0 {i} {quan}"));
        }
        let mut tiles: Vec<Vec<String>> = vec![Vec::new(); 4];
        let mut flowers: Vec<Vec<String>> = vec![Vec::new(); 4];
        for i in 0..4 {
            while tiles[i].len() < 13 {
                let t = quarters[i].pop().unwrap();
                if t.starts_with('H') {
                    flowers[i].push(t);
                } else {
                    tiles[i].push(t);
                }
            }
        }
        for (i, o) in out.iter_mut().enumerate() {
            let mut sorted: Vec<Tile> = tiles[i].iter().map(|t| t.parse().unwrap()).collect();
            sorted.sort();
            let mut line = String::from("1");
            for f in &flowers {
                line += &format!(" {}", f.len());
            }
            for t in sorted {
                line += &format!(" {t}");
            }
            for f in flowers.iter().flatten() {
                line += &format!(" {f}");
            }
            o.push(line);
        }
        let mut stage = 0usize;
        let mut acts = acts.iter();
        loop {
            let Some(t) = quarters[stage].pop() else {
                return out;
            };
            if t.starts_with('H') {
                for o in out.iter_mut() {
                    o.push(format!("3 {stage} BUHUA {t}"));
                }
                continue;
            }
            for (i, o) in out.iter_mut().enumerate() {
                o.push(if i == stage {
                    format!("2 {t}")
                } else {
                    format!("3 {stage} DRAW")
                });
            }
            match acts.next() {
                Some(&(seat, Action::Play(d))) if usize::from(seat) == stage => {
                    for o in out.iter_mut() {
                        o.push(format!("3 {stage} PLAY {d}"));
                    }
                }
                _ => return out,
            }
            match acts.as_slice().first() {
                // Someone claims the discard: the model stops before it.
                Some((_, Action::Pung(_) | Action::Chow { .. } | Action::Kong | Action::Win)) => {
                    return out;
                }
                _ => stage = (stage + 1) % 4,
            }
        }
    }

    #[test]
    fn each_seat_receives_the_requests_botzones_judge_sends_and_no_hidden_tile() {
        let mut compared = 0;
        for seed in 1..=6 {
            let (spec, got, acts) = play(seed);
            let want = judge(&spec, &acts);
            for seat in 0..4 {
                // The judge's requests up to the model's stop; the seat was asked up to its
                // last decision.
                let n = want[seat].len().min(got[seat].len());
                assert_eq!(got[seat][..n], want[seat][..n], "seed {seed}, seat {seat}");
                compared += n;
            }
            // No seat's input holds another seat's concealed tiles: its draws are `3 p DRAW`,
            // its concealed kongs a bare GANG, and the deal line lists only the seat's own.
            for (seat, lines) in got.iter().enumerate() {
                for line in lines {
                    let w: Vec<&str> = line.split(' ').collect();
                    if w[0] == "3" && w[1] != seat.to_string() {
                        assert!(
                            !matches!(w[2], "DRAW" | "GANG") || w.len() == 3,
                            "seed {seed}, seat {seat}: {line}"
                        );
                    }
                }
                let deal = lines.iter().find(|l| l.starts_with("1 ")).unwrap();
                let mine: Vec<&str> = deal.split(' ').skip(5).take(13).collect();
                let mut dealt: Vec<String> = mcr::tiles_of(&spec_dealt(&spec, seat as u8))
                    .map(|t| t.to_string())
                    .collect();
                dealt.sort();
                let mut mine_sorted: Vec<String> = mine.iter().map(|s| s.to_string()).collect();
                mine_sorted.sort();
                assert_eq!(mine_sorted, dealt, "seed {seed}, seat {seat}: its own deal");
            }
        }
        assert!(
            compared > 6 * 4 * 6,
            "too few requests compared: {compared}"
        );
    }

    /// The 13 tiles `seat` is dealt from `spec`'s wall (its quarter's last tiles, flowers set
    /// aside).
    fn spec_dealt(spec: &McrSpec, seat: u8) -> mcr::Counts {
        let mut counts: mcr::Counts = [0; 34];
        let mut n = 0;
        for w in spec.deal.wall.quarter(seat).iter().rev() {
            if let WallTile::Tile(t) = w {
                counts[t.index()] += 1;
                n += 1;
                if n == 13 {
                    break;
                }
            }
        }
        counts
    }

    #[test]
    fn responses_are_read_as_actions_and_others_are_refused_in_words() {
        let mut g = McrBotzone::new(0);
        let a = g.action(&Value::String("PLAY W1".into())).unwrap();
        assert_eq!(
            convert::action_of(&a),
            Ok(Action::Play("W1".parse().unwrap()))
        );
        let e = g.action(&Value::String("DISCARD W1".into())).unwrap_err();
        assert_eq!(e.kind, v1::VerdictKind::Malformed);
        assert!(e.reason.contains("not an answer"), "{e}");
        let e = g.action(&serde_json::json!(3)).unwrap_err();
        assert!(e.reason.contains("a response is a string"), "{e}");
        assert_eq!(g.simple_response(" HU \r"), Ok(Value::String("HU".into())));
    }
}
