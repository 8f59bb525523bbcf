//! A Dou Dizhu decision request read back into the rules engine's types (the wire-to-rules
//! direction of [`super::convert`]), for the bots bot-host runs itself (programs and built-in bots), which decide from a [`ddz::Observation`].
//!
//! The request carries the seat's whole view (its hand, the public events, the play to beat), so
//! no game state is kept between requests: each one is rebuilt from its message. Every field is
//! checked, and an error names the field (`request.observation.ddz.events[3].play: …`).

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::v1;
use ddz::{CardSet, Event, Move, MoveList, Observation, Phase, RuleSet, Seat};
use ddz_line::ServerMessage;

use super::names;

pub use crate::BadRequest;

/// The owned parts of one seat's [`Observation`], rebuilt from a decision request.
#[derive(Clone, Debug)]
pub struct DdzView {
    seat: Seat,
    hand: CardSet,
    phase: Phase,
    rules: RuleSet,
    landlord: Option<Seat>,
    bottom: Option<CardSet>,
    bid: u8,
    events: Vec<Event>,
    cards_left: [u8; 3],
    played: [CardSet; 3],
    last_play: Option<(Seat, Move)>,
    doubled: [bool; 3],
    round: Option<super::spec::MatchRound>,
}

const OBS: &str = "request.observation.ddz";

fn bad<T>(msg: String) -> Result<T, BadRequest> {
    Err(BadRequest(msg))
}

fn seat_of(field: &str, v: u32) -> Result<Seat, BadRequest> {
    u8::try_from(v)
        .ok()
        .and_then(Seat::new)
        .ok_or_else(|| BadRequest(format!("{field} is {v}; Dou Dizhu seats are 0, 1 and 2")))
}

fn cards_of(field: &str, s: &str) -> Result<CardSet, BadRequest> {
    s.trim()
        .parse()
        .map_err(|e| BadRequest(format!("{field} {s:?}: {e}")))
}

fn bid_of(field: &str, v: u32) -> Result<u8, BadRequest> {
    u8::try_from(v)
        .ok()
        .filter(|b| *b <= 3)
        .ok_or_else(|| BadRequest(format!("{field} is {v}; bids are 0 to 3")))
}

/// A play as written on the wire (`pass` or cards), read as a combination under `rules`.
fn play_of(field: &str, s: &str, rules: &RuleSet) -> Result<Move, BadRequest> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("pass") || t.is_empty() {
        return Ok(Move::PASS);
    }
    let cards = cards_of(field, t)?;
    rules
        .classify(cards)
        .map_err(|e| BadRequest(format!("{field} {t:?} is not a combination: {e}")))
}

/// The rule set an observation states: its `rules_kind` or its `rules` text (`competition`,
/// `douzero`, `openspiel`, `custom FLAG…`), competition when it states neither.
fn rules_of(o: &ddz_pb::Observation) -> Result<RuleSet, BadRequest> {
    if let Some((r, _)) = names::named_rules(OBS, &o.rules, o.rules_kind).map_err(BadRequest)? {
        return Ok(r);
    }
    let name = o.rules.trim();
    if name.is_empty() && o.rules_kind == ddz_pb::Rules::Unspecified as i32 {
        return Ok(RuleSet::COMPETITION);
    }
    match ServerMessage::decode(&format!("rules {name}")) {
        Ok(ServerMessage::Rules(r)) => Ok(r),
        _ => bad(format!(
            "{OBS}.rules {name:?} is not a rule set (competition, douzero, openspiel or custom FLAG…)"
        )),
    }
}

fn event_of(i: usize, e: &ddz_pb::Event, rules: &RuleSet) -> Result<Event, BadRequest> {
    use ddz_pb::event::Event as E;
    let field = format!("{OBS}.events[{i}]");
    let Some(event) = &e.event else {
        return bad(format!(
            "{field} is empty (set bid, redeal, landlord, double or play)"
        ));
    };
    if matches!(event, E::Redeal(_)) {
        return Ok(Event::Redeal);
    }
    let seat = seat_of(&format!("{field}.seat"), e.seat)?;
    Ok(match event {
        E::Bid(b) => Event::Bid {
            seat,
            bid: bid_of(&format!("{field}.bid"), *b)?,
        },
        E::Redeal(_) => Event::Redeal,
        E::Landlord(l) => {
            let bid = bid_of(&format!("{field}.landlord.bid"), l.bid)?;
            if bid == 0 {
                return bad(format!(
                    "{field}.landlord.bid is 0; a landlord is made at bid 1 to 3"
                ));
            }
            let bottom = cards_of(&format!("{field}.landlord.bottom"), &l.bottom)?;
            if bottom.len() != 3 {
                return bad(format!(
                    "{field}.landlord.bottom {:?} holds {} cards; the bottom is 3",
                    l.bottom,
                    bottom.len()
                ));
            }
            Event::Landlord { seat, bid, bottom }
        }
        E::Double(d) => Event::Double { seat, double: *d },
        E::Play(p) => Event::Play {
            seat,
            play: play_of(&format!("{field}.play"), p, rules)?,
        },
    })
}

/// The decision a request of this kind asks for, as the phase and the seat's role say.
fn kind_for(phase: Phase, seat: Seat, landlord: Option<Seat>) -> v1::DecisionKind {
    match phase {
        Phase::Bidding => v1::DecisionKind::Bid,
        Phase::Doubling if landlord == Some(seat) => v1::DecisionKind::Redouble,
        Phase::Doubling => v1::DecisionKind::Double,
        Phase::Play | Phase::Over => v1::DecisionKind::Play,
    }
}

impl DdzView {
    /// Reads a Dou Dizhu decision request for `seat`, checking that its kind fits the phase of
    /// its observation.
    pub fn from_request(req: &v1::DecisionRequest) -> Result<DdzView, BadRequest> {
        let Some(envelope) = req.observation.as_ref() else {
            return bad(format!(
                "{OBS} is missing: a Dou Dizhu request needs the seat's observation"
            ));
        };
        let o = crate::ddz::convert::observation_of(envelope).map_err(BadRequest)?;
        let seat = seat_of("request.seat", req.seat)?;
        if o.seat != req.seat {
            return bad(format!(
                "{OBS}.seat ({}) is not request.seat ({})",
                o.seat, req.seat
            ));
        }
        let rules = rules_of(&o)?;
        let hand = cards_of(&format!("{OBS}.hand"), &o.hand)?;
        if hand.is_empty() {
            return bad(format!(
                "{OBS}.hand is empty; a seat asked to decide holds cards"
            ));
        }
        let phase = names::phase_of(OBS, &o.phase, o.phase_kind).map_err(BadRequest)?;
        let landlord = o
            .landlord
            .map(|l| seat_of(&format!("{OBS}.landlord"), l))
            .transpose()?;
        let bottom = if o.bottom.trim().is_empty() {
            None
        } else {
            Some(cards_of(&format!("{OBS}.bottom"), &o.bottom)?)
        };
        let bid = bid_of(&format!("{OBS}.bid"), o.bid)?;
        let events = o
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| event_of(i, e, &rules))
            .collect::<Result<Vec<_>, _>>()?;
        let cards_left: [u8; 3] = match o.cards_left.as_slice() {
            [a, b, c] => {
                let mut out = [0u8; 3];
                for (i, &n) in [*a, *b, *c].iter().enumerate() {
                    out[i] = u8::try_from(n).ok().filter(|n| *n <= 20).ok_or_else(|| {
                        BadRequest(format!(
                            "{OBS}.cards_left[{i}] is {n}; a hand holds at most 20 cards"
                        ))
                    })?;
                }
                out
            }
            other => {
                return bad(format!(
                    "{OBS}.cards_left has {} entries; it needs one per seat (3)",
                    other.len()
                ));
            }
        };
        // The hand the seat was dealt (at the start, or at the last redeal), worked back from its
        // hand now as a program bot's feed does: every deal gives a seat 17 cards.
        let mut dealt = Some(hand);
        for e in events.iter().rev() {
            dealt = match *e {
                Event::Redeal => break,
                Event::Play { seat: s, play } if s == seat => {
                    dealt.and_then(|h| h.try_add(play.cards()))
                }
                Event::Landlord {
                    seat: s, bottom, ..
                } if s == seat => dealt.and_then(|h| h.try_sub(bottom)),
                _ => dealt,
            };
        }
        if dealt.is_none_or(|h| h.len() != 17) {
            return bad(format!(
                "{OBS}.hand {:?} does not follow from a dealt hand of 17 cards, the seat's plays \
                 and the bottom it took",
                o.hand
            ));
        }
        let mut played = [CardSet::EMPTY; 3];
        let mut doubled = [false; 3];
        for e in &events {
            match *e {
                Event::Redeal => played = [CardSet::EMPTY; 3],
                Event::Play { seat, play } => {
                    played[seat.index()] = played[seat.index()]
                        .try_add(play.cards())
                        .unwrap_or(played[seat.index()]);
                }
                Event::Double { seat, double } if landlord != Some(seat) => {
                    doubled[seat.index()] = double;
                }
                _ => {}
            }
        }
        let last_play =
            if o.to_beat.trim().is_empty() || o.to_beat.trim().eq_ignore_ascii_case("pass") {
                None
            } else {
                let m = play_of(&format!("{OBS}.to_beat"), &o.to_beat, &rules)?;
                let Some(by) = o.to_beat_seat else {
                    return bad(format!(
                        "{OBS}.to_beat_seat is missing: who made the play to beat?"
                    ));
                };
                Some((seat_of(&format!("{OBS}.to_beat_seat"), by)?, m))
            };
        let kind = v1::DecisionKind::try_from(req.kind).unwrap_or(v1::DecisionKind::Unspecified);
        let expected = kind_for(phase, seat, landlord);
        if kind != expected {
            return bad(format!(
                "request.kind is {} but the observation (phase {}, landlord {}) asks for {}",
                kind.as_str_name(),
                phase.name(),
                landlord.map_or("unknown".to_string(), |s| s.to_string()),
                expected.as_str_name()
            ));
        }
        if phase == Phase::Over {
            return bad(format!("{OBS}.phase is over: there is nothing to decide"));
        }
        let round = o
            .round
            .as_ref()
            .map(|r| super::spec::MatchRound::from_pb(&format!("{OBS}.round"), r))
            .transpose()
            .map_err(BadRequest)?;
        Ok(DdzView {
            seat,
            hand,
            phase,
            rules,
            landlord,
            bottom,
            bid,
            events,
            cards_left,
            played,
            last_play,
            doubled,
            round,
        })
    }

    /// Where the deal sits in its match, when the request says.
    pub fn round(&self) -> Option<super::spec::MatchRound> {
        self.round
    }

    /// The observation the rules engine's bots decide from.
    pub fn observation(&self) -> Observation<'_> {
        Observation {
            seat: self.seat,
            hand: self.hand,
            phase: self.phase,
            rules: &self.rules,
            landlord: self.landlord,
            bottom: self.bottom,
            bid: self.bid,
            events: &self.events,
            cards_left: self.cards_left,
            played: self.played,
            last_play: self.last_play,
            doubled: self.doubled,
        }
    }

    /// The legal plays of the seat (empty outside the play phase).
    pub fn legal_moves(&self) -> MoveList {
        let mut moves = MoveList::new();
        if self.phase == Phase::Play {
            self.observation().legal_moves(&mut moves);
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ddz::convert::ddz_observation;
    use ddz::{Action, DealConstraint, Game, GameConfig};

    fn request(game: &Game, kind: v1::DecisionKind) -> v1::DecisionRequest {
        let seat = game.to_act().unwrap();
        v1::DecisionRequest {
            request_id: 1,
            table_id: "t".into(),
            seat: seat.index() as u32,
            game: "ddz".into(),
            kind: kind as i32,
            deadline_ms: 1000,
            observation: Some(ddz_observation(
                &game.observation(seat),
                "competition",
                vec![],
            )),
        }
    }

    fn assert_same(a: &Observation<'_>, b: &Observation<'_>) {
        assert_eq!(a.seat, b.seat);
        assert_eq!(a.hand, b.hand);
        assert_eq!(a.phase, b.phase);
        assert_eq!(a.rules, b.rules);
        assert_eq!(a.landlord, b.landlord);
        assert_eq!(a.bottom, b.bottom);
        assert_eq!(a.bid, b.bid);
        assert_eq!(a.events, b.events);
        assert_eq!(a.cards_left, b.cards_left);
        assert_eq!(a.played, b.played);
        assert_eq!(a.last_play, b.last_play);
        assert_eq!(a.doubled, b.doubled);
    }

    #[test]
    fn a_whole_game_reads_back_to_the_engines_observations() {
        let mut game =
            Game::from_seed(GameConfig::competition(), 21, DealConstraint::NONE).unwrap();
        let mut moves = MoveList::new();
        let mut steps = 0;
        while let Some(seat) = game.to_act() {
            let obs = game.observation(seat);
            let kind = kind_for(obs.phase, seat, obs.landlord);
            let view = DdzView::from_request(&request(&game, kind)).unwrap();
            assert_same(&view.observation(), &obs);
            let action = match obs.phase {
                Phase::Bidding => Action::Bid(if steps == 1 { 2 } else { 0 }),
                Phase::Doubling => Action::Double(true),
                _ => {
                    game.legal_moves(&mut moves);
                    assert_eq!(view.legal_moves().as_slice(), moves.as_slice());
                    Action::Play(moves[moves.len() / 2])
                }
            };
            game.apply(action).unwrap();
            steps += 1;
        }
        assert!(steps > 10);
    }

    #[test]
    fn an_observation_is_read_from_its_typed_names_or_its_text_which_must_agree() {
        let game = Game::from_seed(GameConfig::competition(), 21, DealConstraint::NONE).unwrap();
        let full = request(&game, v1::DecisionKind::Bid);
        let edit = |f: &dyn Fn(&mut ddz_pb::Observation)| {
            let mut r = full.clone();
            crate::ddz::convert::edit_observation(&mut r, |o| {
                assert_eq!(o.phase_kind, ddz_pb::Phase::Bidding as i32);
                assert_eq!(o.rules_kind, ddz_pb::Rules::Competition as i32);
                f(o);
            });
            DdzView::from_request(&r).map_err(|e| e.0)
        };
        let typed_only = edit(&|o| {
            o.phase.clear();
            o.rules.clear();
        })
        .unwrap();
        assert_same(&typed_only.observation(), &game.observation(Seat::ALL[0]));
        let text_only = edit(&|o| {
            o.phase_kind = 0;
            o.rules_kind = 0;
        })
        .unwrap();
        assert_same(&text_only.observation(), &game.observation(Seat::ALL[0]));
        let e = edit(&|o| o.phase_kind = ddz_pb::Phase::Play as i32).unwrap_err();
        assert_eq!(
            e,
            "request.observation.ddz.phase says \"bidding\" but request.observation.ddz.phase_kind says play"
        );
        let e = edit(&|o| o.rules_kind = ddz_pb::Rules::Douzero as i32).unwrap_err();
        assert!(
            e.contains(
                "rules says \"competition\" but request.observation.ddz.rules_kind says douzero"
            ),
            "{e}"
        );
    }

    #[test]
    fn requests_that_no_game_can_make_are_refused() {
        // Found by fuzzing (bot_request): an empty hand, or a landlord event with no bottom
        // cards, was read as given, and a program bot was then sent "hand " or "landlord 0 1 ",
        // lines the protocol cannot parse (and with no cards, "ask play MS" with no moves).
        let game = Game::from_seed(GameConfig::competition(), 21, DealConstraint::NONE).unwrap();
        let bidding = request(&game, v1::DecisionKind::Bid);
        let mut r = bidding.clone();
        crate::ddz::convert::edit_observation(&mut r, |o| {
            o.hand = " ".into();
        });
        assert_eq!(
            DdzView::from_request(&r).unwrap_err().0,
            "request.observation.ddz.hand is empty; a seat asked to decide holds cards"
        );
        let fixed = Game::from_seed(GameConfig::fixed_landlord(), 3, DealConstraint::NONE).unwrap();
        let good = request(&fixed, v1::DecisionKind::Play);
        let with_landlord = |bid: u32, bottom: &str| {
            let mut r = good.clone();
            crate::ddz::convert::edit_observation(&mut r, |o| {
                o.events[0].event = Some(ddz_pb::event::Event::Landlord(ddz_pb::Landlord {
                    bid,
                    bottom: bottom.into(),
                }));
            });
            DdzView::from_request(&r).map(|_| ()).map_err(|e| e.0)
        };
        assert_eq!(
            with_landlord(1, ""),
            Err("request.observation.ddz.events[0].landlord.bottom \"\" holds 0 cards; the bottom is 3".into())
        );
        assert!(
            with_landlord(1, "3456")
                .unwrap_err()
                .contains("holds 4 cards")
        );
        assert!(
            with_landlord(0, "345")
                .unwrap_err()
                .contains("landlord.bid is 0")
        );
        // Found by fuzzing (bot_request) once those were refused: a hand that the seat's own
        // plays and bottom cannot have come from (here the bottom alone, while the events say
        // it played nothing) made the feed start the game with "hand ".
        let mut r = good.clone();
        crate::ddz::convert::edit_observation(&mut r, |o| {
            o.hand = fixed.deal().bottom.to_string();
        });
        assert!(
            DdzView::from_request(&r)
                .unwrap_err()
                .0
                .contains("does not follow from a dealt hand of 17 cards")
        );
        assert_eq!(with_landlord(1, "345"), Ok(()));
    }

    #[test]
    fn bad_fields_are_named() {
        let game = Game::from_seed(GameConfig::fixed_landlord(), 3, DealConstraint::NONE).unwrap();
        let good = request(&game, v1::DecisionKind::Play);
        DdzView::from_request(&good).unwrap();
        let with = |f: &dyn Fn(&mut ddz_pb::Observation)| {
            let mut r = good.clone();
            crate::ddz::convert::edit_observation(&mut r, |o| {
                f(o);
            });
            DdzView::from_request(&r).unwrap_err().0
        };
        assert!(
            with(&|o| o.hand = "33X".into()).starts_with("request.observation.ddz.hand \"33X\"")
        );
        assert!(with(&|o| o.phase = "dancing".into()).contains("phase \"dancing\" is not a phase"));
        assert!(with(&|o| o.cards_left.pop().map_or((), drop)).contains("cards_left has 2"));
        assert!(
            with(&|o| {
                o.rules = "house".into();
                o.rules_kind = 0;
            })
            .contains("rules \"house\" is not a rule set")
        );
        assert!(with(&|o| o.events[0].event = None).contains("events[0] is empty"));
        assert!(with(&|o| o.seat = 2).contains("is not request.seat"));
        let mut r = good.clone();
        r.kind = v1::DecisionKind::Bid as i32;
        assert!(
            DdzView::from_request(&r)
                .unwrap_err()
                .0
                .starts_with("request.kind is DECISION_KIND_BID")
        );
        r.observation = None;
        assert!(
            DdzView::from_request(&r)
                .unwrap_err()
                .0
                .contains("is missing")
        );
        let mut r = good;
        r.seat = 7;
        assert!(
            DdzView::from_request(&r)
                .unwrap_err()
                .0
                .contains("request.seat is 7")
        );
    }
}
