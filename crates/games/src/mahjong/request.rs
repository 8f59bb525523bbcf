//! A Mahjong decision request read back into the rules engine's types (the wire-to-rules
//! direction of [`super::convert`]), for the bots bot-host runs itself (programs speaking the
//! contest's line protocol, and built-in bots), which decide from a seat's [`View`].
//!
//! A request carries the seat's whole view (its concealed tiles and every event it saw), so no
//! state is kept between requests: each one is rebuilt from its message into a hand that agrees
//! with everything the seat was shown ([`mahjong_line::rebuild_seen`]: the seat's own tiles and
//! draws exactly; other seats' hidden tiles chosen to fit what they did in the open). What the
//! rebuilt seat sees must be what the observation says (hand, drawn tile, melds, discards,
//! tiles left, the tile answered, the decision's kind): a request that disagrees with itself is
//! refused, the error naming the field.

use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use arena_proto::v1;
use mahjong::{ActionList, Counts, Decision, Game, SeenEvent, View, parse_tiles};

use super::convert;
use super::spec::reading_of;
use super::table::decision_kind;
use crate::BadRequest;

const OBS: &str = "request.observation.mahjong";

fn bad<T>(msg: String) -> Result<T, BadRequest> {
    Err(BadRequest(msg))
}

fn seat_of(field: &str, v: u32) -> Result<u8, BadRequest> {
    u8::try_from(v)
        .ok()
        .filter(|s| *s < 4)
        .ok_or_else(|| BadRequest(format!("{field} is {v}; Mahjong seats are 0 to 3")))
}

/// A Mahjong request rebuilt: the hand as the asked seat saw it, at its decision.
#[derive(Clone, Debug)]
pub struct MahjongRequest {
    game: Game,
    seat: u8,
    decision: Decision,
}

impl MahjongRequest {
    /// Reads `req`, checking every field; the error names the field.
    pub fn from_request(req: &v1::DecisionRequest) -> Result<MahjongRequest, BadRequest> {
        let Some(envelope) = req.observation.as_ref() else {
            return bad(format!(
                "{OBS} is missing: a Mahjong request needs the seat's observation"
            ));
        };
        let o = convert::observation_of(envelope).map_err(BadRequest)?;
        let seat = seat_of("request.seat", req.seat)?;
        if o.seat != req.seat {
            return bad(format!(
                "{OBS}.seat ({}) is not request.seat ({})",
                o.seat, req.seat
            ));
        }
        let first = seat_of(&format!("{OBS}.first"), o.first)?;
        let reading = reading_of(o.fans).map_err(|e| BadRequest(format!("{OBS}.fans: {e}")))?;
        let tiles = parse_tiles(&o.hand).map_err(|e| BadRequest(format!("{OBS}.hand: {e}")))?;
        let mut hand: Counts = [0; 34];
        for t in tiles {
            let n = &mut hand[t.index()];
            if *n == 4 {
                return bad(format!("{OBS}.hand holds more than four {t}"));
            }
            *n += 1;
        }
        let events = o
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| {
                convert::seen_event_of(e)
                    .map_err(|why| BadRequest(format!("{OBS}.events[{i}]: {why}")))
            })
            .collect::<Result<Vec<SeenEvent>, _>>()?;
        let game = mahjong_line::rebuild_seen(seat, first, &hand, &events, reading)
            .map_err(|e| BadRequest(format!("{OBS}.events: {e}")))?;
        let Some(decision) = game.decision(seat) else {
            return bad(format!(
                "{OBS}.events: the seat is asked nothing after them"
            ));
        };
        let r = MahjongRequest {
            game,
            seat,
            decision,
        };
        r.check_against(req, &o)?;
        Ok(r)
    }

    /// Checks that the rebuilt seat sees what the observation says it sees.
    fn check_against(
        &self,
        req: &v1::DecisionRequest,
        o: &mahjong_pb::Observation,
    ) -> Result<(), BadRequest> {
        let kind = decision_kind(self.decision);
        if req.kind != v1::DecisionKind::Unspecified as i32 && req.kind != kind as i32 {
            return bad(format!(
                "request.kind is {}, but after its events the seat is asked {}",
                v1::DecisionKind::try_from(req.kind)
                    .map_or_else(|_| req.kind.to_string(), |k| k.as_str_name().to_string()),
                kind.as_str_name()
            ));
        }
        let Ok(seen) =
            convert::observation_of(&convert::observation(&self.view(), &ActionList::new()))
        else {
            return bad(format!("{OBS}: the rebuilt view is not a Mahjong one"));
        };
        let disagrees = |field: &str, theirs: &dyn std::fmt::Debug, ours: &dyn std::fmt::Debug| {
            bad(format!(
                "{OBS}.{field} is {theirs:?}, but the seat's events make it {ours:?}"
            ))
        };
        if o.hand != seen.hand {
            return disagrees("hand", &o.hand, &seen.hand);
        }
        if o.drawn.trim() != seen.drawn {
            return disagrees("drawn", &o.drawn, &seen.drawn);
        }
        if o.wall_left != seen.wall_left {
            return disagrees("wall_left", &o.wall_left, &seen.wall_left);
        }
        if o.tile.trim() != seen.tile || o.from != seen.from {
            return disagrees(
                "tile and from",
                &(&o.tile, o.from),
                &(&seen.tile, seen.from),
            );
        }
        if o.seats != seen.seats {
            return disagrees("seats", &o.seats, &seen.seats);
        }
        Ok(())
    }

    /// The asked seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The decision the seat faces.
    pub fn decision(&self) -> Decision {
        self.decision
    }

    /// The decision's kind, as the protocol names it.
    pub fn decision_kind(&self) -> v1::DecisionKind {
        decision_kind(self.decision)
    }

    /// The seat's view of the rebuilt hand: exactly what the request showed it.
    pub fn view(&self) -> View<'_> {
        self.game.view(self.seat)
    }

    /// The seat's legal answers (the rules' own, from its tiles and melds).
    pub fn legal(&self) -> ActionList {
        let mut list = ActionList::new();
        self.game.legal_actions(self.seat, &mut list);
        list
    }

    /// What the rules play for a dead seat here (discard the drawn tile, or pass).
    pub fn automatic(&self) -> mahjong::Action {
        self.game.automatic(self.seat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::{MahjongSpec, MahjongTable};
    use arena_table::TableGame;
    use mahjong::{Deal, Rules};

    fn request(t: &MahjongTable, p: &arena_table::Pending) -> v1::DecisionRequest {
        v1::DecisionRequest {
            request_id: 1,
            table_id: "m".into(),
            seat: p.seat,
            game: "mahjong".into(),
            kind: p.kind as i32,
            deadline_ms: 1000,
            observation: Some(t.observation(p.seat)),
        }
    }

    #[test]
    fn every_request_of_a_hand_reads_back_into_the_seats_view_and_legal_answers() {
        for seed in 0..20 {
            let mut t = MahjongTable::new(&MahjongSpec {
                deal: Deal::from_seed(seed),
                rules: Rules::default(),
            });
            while t.outcome().is_none() {
                let pending = t.pending();
                let mut answers = Vec::new();
                for p in &pending {
                    let r = MahjongRequest::from_request(&request(&t, p)).unwrap();
                    let view = t.view(p.seat);
                    assert_eq!(r.view().hand(), view.hand());
                    assert_eq!(r.view().phase(), view.phase());
                    assert_eq!(r.decision_kind(), p.kind);
                    let mut legal = ActionList::new();
                    t.game().legal_actions(p.seat as u8, &mut legal);
                    assert_eq!(r.legal().to_vec(), legal.to_vec());
                    // Built-in play keeps the hands going: the last legal answer (a claim or a
                    // win when there is one).
                    answers.push((*p, *legal.last().unwrap()));
                }
                t.check_and_apply(&answers).unwrap();
            }
        }
    }

    #[test]
    fn a_request_that_disagrees_with_itself_is_refused_naming_the_field() {
        let t = MahjongTable::new(&MahjongSpec {
            deal: Deal::from_seed(4),
            rules: Rules::default(),
        });
        let p = t.pending()[0];
        let good = request(&t, &p);
        MahjongRequest::from_request(&good).unwrap();
        let with = |f: &dyn Fn(&mut mahjong_pb::Observation)| {
            let mut r = good.clone();
            convert::edit_observation(&mut r, f);
            MahjongRequest::from_request(&r).unwrap_err().0
        };
        assert!(with(&|o| o.hand = "1M 1M 1M 1M 1M".into()).contains(".hand"));
        assert!(with(&|o| o.hand.push_str(" X")).contains(".hand"));
        assert!(with(&|o| o.wall_left += 1).contains(".wall_left"));
        assert!(with(&|o| o.first = 9).contains(".first is 9"));
        assert!(with(&|o| o.events.clear()).contains(".events"));
        assert!(with(&|o| o.events[0].kind = 42).contains(".events[0]"));
        assert!(with(&|o| o.seats[1].discards.push("E".into())).contains(".seats"));
        assert!(with(&|o| o.fans = 7).contains(".fans"));
        let mut r = good.clone();
        r.kind = v1::DecisionKind::Claim as i32;
        assert!(
            MahjongRequest::from_request(&r)
                .unwrap_err()
                .0
                .contains("request.kind")
        );
        r.observation = None;
        assert!(
            MahjongRequest::from_request(&r)
                .unwrap_err()
                .0
                .contains("is missing")
        );
        let mut r = good.clone();
        r.seat = (r.seat + 1) % 4;
        assert!(
            MahjongRequest::from_request(&r)
                .unwrap_err()
                .0
                .contains("is not request.seat")
        );
    }
}
