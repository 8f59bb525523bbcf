//! The Chinese university computer-games championship's Dou Dizhu engine protocol
//! (`docs/championship-protocol.md`) as a [`ProgramProtocol`], registered as `championship`.
//!
//! The platform speaks first and every line it writes is answered by one line:
//!
//! - `DOUDIZHUVER 1.0` → `NAME X`; `INFO t,T,r,R,u,m,s` → `OK INFO`; `DEAL Ac,c,…` (the seat's
//!   letter glued to its 17 cards) → `OK DEAL`;
//! - `BID WHAT` → `BID A2` (the engine's letter and a call, 0 = pass); another seat's call
//!   `BID B1` → `OK BID`;
//! - `LEFTOVER Bc,c,c` (the landlord's letter and the bottom cards) → `OK LEFTOVER`;
//! - `PLAY WHAT` → `PLAY Ac,c,…` or `PLAY A-1` (pass); another seat's play `PLAY C7,11` or
//!   `PLAY C-1` → `OK PLAY`;
//! - `GAMEOVER W` (the letter of the seat that went out first) → `OK GAMEOVER`.
//!
//! Seats 0, 1, 2 are `A`, `B`, `C`, playing in that order; cards are the 0–53 codes of
//! [`super::codes`]. A seat is told the others' calls and plays, never its own (it knows
//! them). The `OK` lines, and the `NAME` line, are read and ignored; an answer is the `BID` or
//! `PLAY` line with the engine's own letter.
//!
//! An engine can play a turn of rounds on one process ([`ProgramProtocol::next_game`]): after
//! `GAMEOVER`, the next round opens with its `INFO` and `DEAL` only (the engine was greeted).

use std::time::Duration;

use arena_line::{Framing, Heard, ProgramProtocol};
use arena_proto::v1;
use ddz::{CardSet, Event, Phase, Seat};

use super::codes::{CurrentDeal, SeatCodes};
use super::convert::{DdzDecision, ddz_action};
use super::request::DdzView;
use super::spec::MatchRound;

/// The protocol's name, as a seat's `championship:PROGRAM` starts.
pub const NAME: &str = "championship";

/// The protocol's version, as the first line says.
pub const VERSION: &str = "1.0";

/// The letter of a seat.
pub fn letter(seat: Seat) -> char {
    (b'A' + seat.index() as u8) as char
}

/// One seat's side of the championship protocol.
#[derive(Debug, Default)]
pub struct ChampionshipProgram {
    codes: SeatCodes,
    seat: Option<Seat>,
    /// `DOUDIZHUVER` was written (once per process).
    greeted: bool,
    /// This round's `INFO` was written.
    informed: bool,
    /// The seat was dealt its cards (a `DEAL` line).
    dealt: bool,
    /// How many events of the game were told (or read past).
    seen: usize,
    /// How many redeals were told.
    redeals: usize,
    /// The phase of the open question.
    asked: Option<Phase>,
    /// The landlord, once known.
    landlord: Option<Seat>,
}

impl ChampionshipProgram {
    /// A fresh protocol for one seat of one table.
    pub fn new() -> ChampionshipProgram {
        ChampionshipProgram::default()
    }

    fn deal_line(&mut self, seat: Seat, hand: CardSet, out: &mut Vec<String>) {
        self.codes.reset();
        self.landlord = None;
        let mut codes = Vec::with_capacity(17);
        self.codes.take(hand, &mut codes);
        codes.sort_unstable();
        out.push(format!("DEAL {}{}", letter(seat), join(&codes)));
    }
}

/// Codes separated by commas.
fn join(codes: &[u8]) -> String {
    let mut s = String::with_capacity(codes.len() * 3);
    for (i, c) in codes.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&c.to_string());
    }
    s
}

impl ProgramProtocol for ChampionshipProgram {
    fn framing(&self) -> Framing {
        Framing::default()
    }

    fn greeting(&self) -> Option<&'static str> {
        // The platform speaks first (`DOUDIZHUVER`), so there is nothing to wait for: the
        // engine's `NAME` comes with its first answers and is read by `hear`.
        None
    }

    fn read_greeting(&self, _line: &str) -> Result<Option<Option<String>>, String> {
        Ok(None)
    }

    fn ask(
        &mut self,
        request: &v1::DecisionRequest,
        deadline: Duration,
        out: &mut Vec<String>,
    ) -> Result<&'static str, String> {
        let view = DdzView::from_request(request).map_err(|e| e.0)?;
        let obs = view.observation();
        let deal = CurrentDeal::read(&obs, &mut self.seat, "engine")?;
        let (seat, start) = (deal.seat, deal.start);
        if !self.greeted {
            self.greeted = true;
            out.push(format!("DOUDIZHUVER {VERSION}"));
        }
        if !self.informed {
            self.informed = true;
            // The deal's place in its match as the table was told it (turn 1 of 1, round 1 of
            // 1 when it was not); 1 to go through and no score cap; the deadline of the round's
            // first question in whole seconds. Every round opens with INFO, on a fresh process
            // or one carried on from the last round.
            let seconds = deadline.as_millis().div_ceil(1000).max(1);
            let r = view.round().unwrap_or(MatchRound {
                turn: 1,
                turns: 1,
                round: 1,
                rounds: 1,
            });
            out.push(format!(
                "INFO {},{},{},{},1,0,{}",
                r.turn, r.turns, r.round, r.rounds, seconds
            ));
        }
        if deal.redeals != self.redeals || !self.dealt {
            // A (new) deal: the seat's 17 cards, as dealt.
            self.redeals = deal.redeals;
            self.deal_line(seat, deal.dealt, out);
            self.dealt = true;
            self.seen = start;
        }
        let mut codes = Vec::with_capacity(20);
        for e in &obs.events[self.seen.max(start).min(obs.events.len())..] {
            match *e {
                Event::Bid { seat: who, bid } if who != seat => {
                    out.push(format!("BID {}{bid}", letter(who)));
                }
                Event::Landlord {
                    seat: l, bottom, ..
                } => {
                    codes.clear();
                    if l == seat {
                        self.codes.take(bottom, &mut codes);
                    } else {
                        self.codes.show_bottom(bottom, &mut codes);
                    }
                    self.landlord = Some(l);
                    out.push(format!("LEFTOVER {}{}", letter(l), join(&codes)));
                }
                Event::Play { seat: who, play } if who != seat => {
                    if play.is_pass() {
                        out.push(format!("PLAY {}-1", letter(who)));
                    } else {
                        codes.clear();
                        let by_landlord = self.landlord == Some(who);
                        self.codes.show(play.cards(), by_landlord, &mut codes);
                        out.push(format!("PLAY {}{}", letter(who), join(&codes)));
                    }
                }
                _ => {}
            }
        }
        self.seen = obs.events.len();
        match obs.phase {
            Phase::Bidding => {
                self.asked = Some(Phase::Bidding);
                out.push("BID WHAT".into());
                Ok("bid")
            }
            Phase::Play => {
                self.asked = Some(Phase::Play);
                out.push("PLAY WHAT".into());
                Ok("play")
            }
            Phase::Doubling => Err(
                "the championship's engines have no doubling round: play them with job.ddz.doubling off"
                    .into(),
            ),
            Phase::Over => Err("the game is over: there is nothing to ask".into()),
        }
    }

    fn hear(&mut self, text: &str, context: &str, asked: bool) -> Result<Heard, String> {
        let quoted = arena_line::quote(text);
        let t = text.trim();
        let (command, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let rest = rest.trim();
        match command {
            "" | "OK" | "NAME" => return Ok(Heard::Nothing),
            "BID" | "PLAY" => {}
            _ => {
                return Err(format!(
                    "answered {quoted} {context}: unknown command {:?} (expected NAME, OK, BID or PLAY)",
                    command
                ));
            }
        }
        if !asked {
            return Err(format!("wrote {quoted} when nothing was asked"));
        }
        let answered = |why: String| format!("answered {quoted} {context}: {why}");
        let want = match self.asked {
            Some(Phase::Bidding) => "BID",
            _ => "PLAY",
        };
        if command != want {
            return Err(answered(format!(
                "a {command} line answers no {} question",
                want.to_lowercase()
            )));
        }
        let Some(seat) = self.seat else {
            return Err(answered("nothing was asked yet".into()));
        };
        let mine = letter(seat);
        let mut chars = rest.chars();
        let who = chars.next();
        if who != Some(mine) {
            return Err(answered(format!(
                "the line must start with the engine's letter {mine} (it sits at seat {mine})"
            )));
        }
        let body = chars.as_str().trim();
        let decision = if command == "BID" {
            match body.parse::<u32>() {
                Ok(b) if b <= 3 => DdzDecision::Bid(b),
                _ => {
                    return Err(answered(format!(
                        "{body:?} is not a call (0 to pass, 1, 2 or 3)"
                    )));
                }
            }
        } else if body == "-1" {
            DdzDecision::Play(CardSet::EMPTY)
        } else {
            let mut codes = Vec::with_capacity(20);
            for part in body.split(',') {
                match part.trim().parse::<i64>() {
                    Ok(c) => codes.push(c),
                    Err(_) => {
                        return Err(answered(format!(
                            "{part:?} is not a card (cards are 0 to 53, separated by commas; -1 to pass)"
                        )));
                    }
                }
            }
            if codes.len() > 20 {
                return Err(answered("more cards than a hand holds".into()));
            }
            DdzDecision::Play(self.codes.play(&codes).map_err(|f| answered(f.detail))?)
        };
        self.asked = None;
        Ok(Heard::Answer(ddz_action(decision)))
    }

    fn close(&mut self, outcome: Option<&v1::Outcome>, out: &mut Vec<String>) {
        if let Some(o) = outcome.and_then(super::convert::outcome_of)
            && let Some(w) = u8::try_from(o.winner).ok().and_then(Seat::new)
        {
            out.push(format!("GAMEOVER {}", letter(w)));
        }
    }

    fn next_game(&mut self, same_process: bool) -> bool {
        // Everything of the last round is forgotten (its seat, its codes: each round's suits
        // are given afresh); only the greeting stays told on the same process.
        let greeted = same_process && self.greeted;
        *self = ChampionshipProgram {
            greeted,
            ..ChampionshipProgram::default()
        };
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ddz::convert::ddz_observation;
    use ddz::{Action, Deal, Game, GameConfig};

    fn request(game: &Game) -> v1::DecisionRequest {
        let seat = game.to_act().unwrap();
        v1::DecisionRequest {
            request_id: 1,
            table_id: "t".into(),
            seat: seat.index() as u32,
            game: "ddz".into(),
            kind: v1::DecisionKind::Play as i32,
            deadline_ms: 1000,
            observation: Some(ddz_observation(
                &game.observation(seat),
                "competition",
                vec![],
            )),
        }
    }

    fn config(auction: bool) -> GameConfig {
        let mut c = GameConfig::fixed_landlord();
        if auction {
            c.bidding = ddz::Bidding::Auction {
                first: Seat::ALL[0],
                max_redeals: 0,
            };
        }
        c
    }

    fn request_of(game: &Game) -> v1::DecisionRequest {
        let mut r = request(game);
        if game.phase() == Phase::Bidding {
            r.kind = v1::DecisionKind::Bid as i32;
        }
        r
    }

    fn play(game: &mut Game, cards: &str) {
        let m = game
            .play_state()
            .check(
                &ddz::RuleSet::COMPETITION,
                if cards == "pass" {
                    CardSet::EMPTY
                } else {
                    cards.parse().unwrap()
                },
            )
            .unwrap();
        game.apply(Action::Play(m)).unwrap();
    }

    fn ask(p: &mut ChampionshipProgram, game: &Game) -> Vec<String> {
        let mut out = Vec::new();
        p.ask(&request_of(game), Duration::from_millis(1500), &mut out)
            .unwrap();
        out
    }

    #[test]
    fn round_2_of_3_is_told_in_info_from_the_tables_observation() {
        use arena_table::TableGame;
        // Deal 1 of a match of 6 deals played 3 to a turn: turn 1 of 2, round 2 of 3.
        let round = MatchRound::of(1, 6, 3);
        assert_eq!(
            round,
            MatchRound {
                turn: 1,
                turns: 2,
                round: 2,
                rounds: 3
            }
        );
        assert_eq!(
            MatchRound::of(5, 7, 3),
            MatchRound {
                turn: 2,
                turns: 3,
                round: 3,
                rounds: 3
            }
        );
        let mut game = Game::new(config(false), Deal::generate(1, 0), 1);
        play(&mut game, "3");
        let table = crate::ddz::DdzTable::from_game(game.clone(), ddz::Scoring::Competition)
            .in_round(Some(round));
        let mut req = request_of(&game);
        req.observation = Some(table.observation_from(1, 0));
        let mut p = ChampionshipProgram::new();
        let mut out = Vec::new();
        p.ask(&req, Duration::from_millis(1500), &mut out).unwrap();
        assert_eq!(
            out,
            [
                "DOUDIZHUVER 1.0",
                "INFO 1,2,2,3,1,0,2",
                "DEAL B4,5,8,12,20,24,25,32,33,34,36,40,44,45,46,48,53",
                "LEFTOVER A13,16,49",
                "PLAY A0",
                "PLAY WHAT",
            ]
        );
        // A round past its turn's rounds is a request that contradicts itself.
        let mut bad = table.observation_from(1, 0);
        let mut o = crate::ddz::convert::observation_of(&bad).unwrap();
        o.round = Some(ddz_pb_round(3, 2, 4, 3));
        bad.game = Some(arena_proto::payload::pack(&o));
        req.observation = Some(bad);
        let e = ChampionshipProgram::new()
            .ask(&req, Duration::from_millis(1500), &mut Vec::new())
            .unwrap_err();
        assert!(e.contains("round 4 of 3"), "{e}");
    }

    /// The request of `game`'s seat to act, its observation telling `round`.
    fn request_in_round(game: &Game, round: MatchRound) -> v1::DecisionRequest {
        use arena_table::TableGame;
        let table = crate::ddz::DdzTable::from_game(game.clone(), ddz::Scoring::Competition)
            .in_round(Some(round));
        let mut req = request_of(game);
        req.observation = Some(table.observation_from(req.seat, 0));
        req
    }

    #[test]
    fn a_process_carried_on_is_told_each_round_its_info_and_deal_and_is_greeted_once() {
        // Seat 1 of a turn of 2 rounds: deal 0 of seed 1, then deal 1, A the landlord in both.
        let round = |r| MatchRound::of(r, 2, 2);
        let mut p = ChampionshipProgram::new();
        let mut first = Game::new(config(false), Deal::generate(1, 0), 1);
        play(&mut first, "3");
        let mut out = Vec::new();
        p.ask(
            &request_in_round(&first, round(0)),
            Duration::from_millis(1500),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            out,
            [
                "DOUDIZHUVER 1.0",
                "INFO 1,1,1,2,1,0,2",
                "DEAL B4,5,8,12,20,24,25,32,33,34,36,40,44,45,46,48,53",
                "LEFTOVER A13,16,49",
                "PLAY A0",
                "PLAY WHAT",
            ]
        );
        // The round ends (A went out first); the protocol carries on into the next.
        let outcome = v1::Outcome {
            scores: vec![2, -1, -1],
            scoring: "competition".into(),
            game: Some(arena_proto::payload::pack(
                &arena_proto::packages::arena::ddz::v1::Outcome {
                    winner: 0,
                    ..Default::default()
                },
            )),
        };
        out.clear();
        p.close(Some(&outcome), &mut out);
        assert_eq!(out, ["GAMEOVER A"]);
        assert!(p.next_game(true), "the championship's engine plays a turn");
        // Round 2: its INFO and DEAL, no greeting; its codes given afresh, as a fresh process
        // would be told them.
        let mut second = Game::new(config(false), Deal::generate(1, 1), 2);
        play(&mut second, "3");
        let req = request_in_round(&second, round(1));
        out.clear();
        p.ask(&req, Duration::from_millis(1500), &mut out).unwrap();
        let mut fresh = Vec::new();
        ChampionshipProgram::new()
            .ask(&req, Duration::from_millis(1500), &mut fresh)
            .unwrap();
        assert_eq!(fresh[0], "DOUDIZHUVER 1.0");
        assert_eq!(out, fresh[1..]);
        assert_eq!(
            out,
            [
                "INFO 1,1,2,2,1,0,2",
                // Codes 0 and 1 again, and A's 3 as code 2: nothing of round 1's codes holds.
                "DEAL B0,1,4,8,9,12,16,20,28,32,33,36,37,44,45,48,49",
                "LEFTOVER A5,29,40",
                "PLAY A2",
                "PLAY WHAT"
            ]
        );
        // A fresh process taking a carried one's place is told everything again.
        assert!(p.next_game(false));
        out.clear();
        p.ask(&req, Duration::from_millis(1500), &mut out).unwrap();
        assert_eq!(out, fresh);
    }

    fn ddz_pb_round(
        turn: u32,
        turns: u32,
        round: u32,
        rounds: u32,
    ) -> arena_proto::packages::arena::ddz::v1::Round {
        arena_proto::packages::arena::ddz::v1::Round {
            turn,
            turns,
            round,
            rounds,
        }
    }

    #[test]
    fn a_farmer_is_told_its_deal_the_bottom_and_the_landlords_play_in_codes() {
        // Deal 0 of seed 1: seat 1 holds 44 5 6 8 99 JJJ Q K AAA 2 R; the bottom is 6 7 2.
        let mut game = Game::new(config(false), Deal::generate(1, 0), 1);
        play(&mut game, "3");
        let mut p = ChampionshipProgram::new();
        assert_eq!(
            ask(&mut p, &game),
            [
                "DOUDIZHUVER 1.0",
                "INFO 1,1,1,1,1,0,2",
                "DEAL B4,5,8,12,20,24,25,32,33,34,36,40,44,45,46,48,53",
                "LEFTOVER A13,16,49",
                "PLAY A0",
                "PLAY WHAT",
            ]
        );
        // Its own play is not told back; the next seat's pass and the landlord's play are.
        assert_eq!(
            p.hear("PLAY B4", "to the play request", true),
            Ok(Heard::Answer(ddz_action(DdzDecision::Play(
                "4".parse().unwrap()
            ))))
        );
        play(&mut game, "4");
        play(&mut game, "pass");
        play(&mut game, "6");
        assert_eq!(ask(&mut p, &game), ["PLAY C-1", "PLAY A13", "PLAY WHAT"]);
    }

    #[test]
    fn bidding_tells_the_others_calls_and_not_the_seats_own() {
        let mut game = Game::new(config(true), Deal::generate(1, 0), 1);
        let mut a = ChampionshipProgram::new();
        let first = ask(&mut a, &game);
        assert_eq!(first[3], "BID WHAT");
        assert!(first[2].starts_with("DEAL A"), "{first:?}");
        assert_eq!(
            a.hear("BID A1", "to the bid request", true),
            Ok(Heard::Answer(ddz_action(DdzDecision::Bid(1))))
        );
        game.apply(Action::Bid(1)).unwrap();
        game.apply(Action::Bid(2)).unwrap();
        game.apply(Action::Bid(3)).unwrap();
        // Seat 2 is landlord and leads; seat 0 is asked after it.
        play(&mut game, "3");
        let lines = ask(&mut a, &game);
        assert_eq!(lines[0], "BID B2");
        assert_eq!(lines[1], "BID C3");
        assert!(lines[2].starts_with("LEFTOVER C"), "{lines:?}");
        assert!(lines[3].starts_with("PLAY C"), "{lines:?}");
        assert_eq!(lines[4], "PLAY WHAT");
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn acknowledgements_are_ignored_and_bad_answers_say_why() {
        let game = Game::new(config(false), Deal::generate(1, 0), 1);
        let mut p = ChampionshipProgram::new();
        ask(&mut p, &game);
        let ctx = "to the play request";
        assert_eq!(p.hear("NAME tiny", ctx, true), Ok(Heard::Nothing));
        assert_eq!(p.hear("OK LEFTOVER", ctx, true), Ok(Heard::Nothing));
        let e = |p: &mut ChampionshipProgram, line: &str| p.hear(line, ctx, true).unwrap_err();
        assert!(e(&mut p, "HELLO").contains("unknown command \"HELLO\""));
        assert!(e(&mut p, "PLAY B0").contains("engine's letter A"));
        assert!(e(&mut p, "PLAY A99").contains("not a card (cards are 0 to 53"));
        assert!(e(&mut p, "PLAY Ax").contains("\"x\" is not a card"));
        assert!(e(&mut p, "BID A1").contains("answers no play question"));
        // Seat 0 holds no 4 of code 7 (its 4s are the lowest suits it was dealt).
        let held = e(&mut p, "PLAY A53");
        assert!(held.contains("not in the bot's hand"), "{held}");
        assert!(
            p.hear("PLAY A0", "when nothing was asked", false)
                .unwrap_err()
                .contains("when nothing was asked")
        );
    }

    #[test]
    fn the_end_names_the_seat_that_went_out_first() {
        let mut out = Vec::new();
        let outcome = v1::Outcome {
            scores: vec![2, -1, -1],
            scoring: "competition".into(),
            game: Some(arena_proto::payload::pack(
                &arena_proto::packages::arena::ddz::v1::Outcome {
                    winner: 2,
                    ..Default::default()
                },
            )),
        };
        ChampionshipProgram::new().close(Some(&outcome), &mut out);
        assert_eq!(out, ["GAMEOVER C"]);
    }
}
