//! Chinese Standard Mahjong rules types ↔ protocol messages (`arena.mcr.v1`).
//!
//! What a seat is sent is built from its [`View`] and the events as it saw them
//! ([`Event::seen_by`]): another seat's draws and concealed kongs travel without their tile, so no
//! hidden tile ever reaches another seat. Replays ([`history`]) carry every tile, after the hand.

use arena_proto::packages::arena::mcr::v1 as mcr_pb;
use arena_proto::{payload, v1};
use mcr::{Action, ActionList, Counts, Decision, Event, Game, Outcome, Pack, PackKind, View, Wind};

/// Every tile of `counts`, in kind order, space-separated (Botzone's notation).
pub fn counts_text(counts: &Counts) -> String {
    mcr::tiles_to_string(mcr::tiles_of(counts))
}

/// A pack as a message; `None` is another seat's concealed kong, whose tile is hidden.
pub fn pack(p: Option<Pack>) -> mcr_pb::Pack {
    use mcr_pb::PackKind as K;
    match p {
        None => mcr_pb::Pack {
            kind: K::Kong as i32,
            tile: String::new(),
            offer: 0,
        },
        Some(p) => mcr_pb::Pack {
            kind: match p.kind {
                PackKind::Chow => K::Chow,
                PackKind::Pung => K::Pung,
                PackKind::Kong => K::Kong,
            } as i32,
            tile: p.tile.to_string(),
            offer: u32::from(p.offer),
        },
    }
}

/// An event as a message, exactly as given: pass [`Event::seen_by`]'s result for what a seat
/// may see, the event itself for the whole history.
pub fn event(e: Event) -> mcr_pb::Event {
    use mcr_pb::EventKind as K;
    let msg = |seat: u8, kind: K, tile: String, answer: String| mcr_pb::Event {
        seat: u32::from(seat),
        kind: kind as i32,
        tile,
        answer,
    };
    match e {
        Event::Dealt => msg(0, K::Dealt, String::new(), String::new()),
        Event::Draw { seat, tile } => msg(
            seat,
            K::Draw,
            tile.map(|t| t.to_string()).unwrap_or_default(),
            String::new(),
        ),
        Event::Flower { seat, flower } => msg(seat, K::Flower, flower.to_string(), String::new()),
        Event::Act { seat, action } => msg(seat, K::Answer, String::new(), action.to_string()),
        Event::HiddenKong { seat } => msg(seat, K::Answer, String::new(), "GANG".into()),
        Event::Fault { seat } => msg(seat, K::Fault, String::new(), String::new()),
    }
}

/// An event message read back ([`event`]'s inverse), as a seat saw it: a bare `GANG` on the
/// seat's turn is another seat's hidden concealed kong only when `turn` says the event came on
/// a turn. The error says which field is wrong.
pub fn event_of(e: &mcr_pb::Event, turn: bool) -> Result<Event, String> {
    use mcr_pb::EventKind as K;
    let seat = u8::try_from(e.seat)
        .ok()
        .filter(|s| *s < 4)
        .ok_or_else(|| format!("seat is {}; seats are 0 to 3", e.seat))?;
    let kind = K::try_from(e.kind).map_err(|_| format!("kind {} is unknown", e.kind))?;
    Ok(match kind {
        K::Unspecified => return Err("kind is not set".into()),
        K::Dealt => Event::Dealt,
        K::Draw => Event::Draw {
            seat,
            tile: if e.tile.trim().is_empty() {
                None
            } else {
                Some(
                    e.tile
                        .trim()
                        .parse()
                        .map_err(|err| format!("tile: {err}"))?,
                )
            },
        },
        K::Flower => match e.tile.trim().parse::<mcr::WallTile>() {
            Ok(mcr::WallTile::Flower(flower)) => Event::Flower { seat, flower },
            Ok(mcr::WallTile::Tile(t)) => return Err(format!("tile: {t} is not a flower")),
            Err(err) => return Err(format!("tile: {err}")),
        },
        K::Answer => {
            let action: Action = e.answer.parse().map_err(|err| format!("answer: {err}"))?;
            if action == Action::Kong && turn {
                Event::HiddenKong { seat }
            } else {
                Event::Act { seat, action }
            }
        }
        K::Fault => Event::Fault { seat },
    })
}

/// The protocol's name for a decision.
pub fn decision_kind(d: Decision) -> v1::DecisionKind {
    match d {
        Decision::Turn { .. } => v1::DecisionKind::Turn,
        Decision::Discard { .. } => v1::DecisionKind::Claim,
        Decision::RobKong { .. } => v1::DecisionKind::RobKong,
    }
}

/// The game's own name for a decision.
fn decision_msg(d: Option<Decision>) -> (mcr_pb::DecisionKind, String, Option<u32>) {
    use mcr_pb::DecisionKind as K;
    match d {
        None => (K::Unspecified, String::new(), None),
        Some(Decision::Turn { drawn }) => (K::Turn, drawn.to_string(), None),
        Some(Decision::Discard { from, tile }) => {
            (K::Discard, tile.to_string(), Some(u32::from(from)))
        }
        Some(Decision::RobKong { from, tile }) => {
            (K::RobKong, tile.to_string(), Some(u32::from(from)))
        }
    }
}

/// The flowers `seat` set aside, in the order it drew them, from the events.
fn flowers_of(events: impl Iterator<Item = Event>, seat: u8) -> String {
    let mut out = String::new();
    for e in events {
        if let Event::Flower { seat: s, flower } = e
            && s == seat
        {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&flower.to_string());
        }
    }
    out
}

/// The observation a seat is sent: the game's message without its events.
fn observation_msg(view: &View<'_>, legal: &ActionList) -> mcr_pb::Observation {
    let (decision, tile, from) = decision_msg(view.decision());
    mcr_pb::Observation {
        seat: u32::from(view.seat()),
        quan: u32::from(view.quan().index()),
        seat_wind: u32::from(view.seat_wind().index()),
        hand: counts_text(view.hand()),
        flowers: flowers_of(view.events(), view.seat()),
        seats: (0..4)
            .map(|s| mcr_pb::SeatView {
                packs: view.packs(s).map(pack).collect(),
                discards: view
                    .discards(s)
                    .iter()
                    .map(|(t, _)| t.to_string())
                    .collect(),
                claimed: view.discards(s).iter().map(|&(_, c)| c).collect(),
                flowers: u32::from(view.flowers(s)),
                wall_left: u32::from(view.wall_left(s)),
            })
            .collect(),
        decision: decision as i32,
        tile,
        from,
        // The events travel in the envelope.
        events: Vec::new(),
        legal: legal.iter().map(|a| a.to_string()).collect(),
    }
}

/// A seat's view as a message, with its legal answers (empty when it is not asked) and its
/// events from index `events_from` on (the envelope saying so): an incremental observation.
pub fn observation_from(
    view: &View<'_>,
    legal: &ActionList,
    events_from: usize,
) -> v1::Observation {
    let o = observation_msg(view, legal);
    let events: Vec<mcr_pb::Event> = view.events().skip(events_from).map(event).collect();
    v1::Observation {
        game: Some(payload::pack(&o)),
        events: payload::encode_events(&events),
        events_from: u32::try_from(events_from).unwrap_or(u32::MAX),
    }
}

/// The observation an envelope carries, with its events put back in, or why there is none.
pub fn observation_of(o: &v1::Observation) -> Result<mcr_pb::Observation, String> {
    payload::observation(o, |o: &mut mcr_pb::Observation| &mut o.events)
}

/// Alters the observation `request` carries with `edit`, which sees it whole; the events go
/// back into the envelope. For tests and tools that make requests of their own.
pub fn edit_observation(
    request: &mut v1::DecisionRequest,
    edit: impl FnOnce(&mut mcr_pb::Observation),
) {
    if let Some(envelope) = request.observation.as_mut() {
        payload::edit_observation(envelope, |o: &mut mcr_pb::Observation| &mut o.events, edit);
    }
}

/// An action as a message (its answer in Botzone's words).
pub fn action(a: Action) -> v1::Action {
    v1::Action {
        game: Some(payload::pack(&mcr_pb::Action {
            answer: a.to_string(),
        })),
    }
}

/// Reads an answer from the wire (its words parsed, nothing checked against the rules): the
/// error says what is wrong, for a malformed verdict.
pub fn action_of(a: &v1::Action) -> Result<Action, String> {
    let m: mcr_pb::Action = payload::unpack(a.game.as_ref(), "the action")?;
    m.answer.trim().parse().map_err(|e| format!("answer: {e}"))
}

/// How a hand ended, as a message: the scores per seat (penalties not included), the win with
/// its fans (English and Chinese names, points), or the faulty seat.
pub fn outcome(o: &Outcome) -> v1::Outcome {
    let m = match &o.win {
        None => mcr_pb::Outcome {
            fault: o.fault.map(u32::from),
            ..Default::default()
        },
        Some(w) => mcr_pb::Outcome {
            winner: Some(u32::from(w.seat)),
            from: w.from.map(u32::from),
            tile: w.tile.to_string(),
            fans: w
                .fans
                .table
                .iter()
                .map(|(fan, count)| mcr_pb::Fan {
                    name: fan.name_en().to_string(),
                    chinese: fan.name_zh().to_string(),
                    points: u32::from(fan.points()),
                    count: u32::from(count),
                })
                .collect(),
            points: w.fans.total,
            fault: o.fault.map(u32::from),
        },
    };
    v1::Outcome {
        scores: o.scores.iter().map(|&s| i64::from(s)).collect(),
        scoring: "mcr".into(),
        game: Some(payload::pack(&m)),
    }
}

/// An outcome's game part (`None` when it holds none).
pub fn outcome_of(o: &v1::Outcome) -> Option<mcr_pb::Outcome> {
    payload::unpack(o.game.as_ref(), "the outcome").ok()
}

/// A competition standing's game totals (`None` when it holds none).
pub fn standing_of(s: &v1::Standing) -> Option<mcr_pb::Standing> {
    payload::unpack(s.game.as_ref(), "the standing").ok()
}

/// A hand's whole history, every tile shown, for replays.
pub fn history(game: &Game) -> mcr_pb::History {
    mcr_pb::History {
        events: game.events().iter().map(|&e| event(e)).collect(),
        walltiles: game.wall().to_string(),
        quan: u32::from(game.quan().index()),
    }
}

/// A replay's history (empty when it holds none).
pub fn history_of(r: &v1::Replay) -> mcr_pb::History {
    payload::unpack(r.history.as_ref(), "the replay's history").unwrap_or_default()
}

/// A wind from the wire, or why it is none.
pub fn wind_of(field: &str, v: u32) -> Result<Wind, String> {
    u8::try_from(v)
        .ok()
        .and_then(Wind::from_index)
        .ok_or_else(|| format!("{field} is {v}; winds are 0 to 3"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_proto::packages::arena::ddz::v1 as ddz_pb;
    use mcr::{Flower, Tile};

    #[test]
    fn every_action_reads_back_from_its_message() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        for a in [
            Action::Pass,
            Action::Win,
            Action::Play(t("W5")),
            Action::ConcealedKong(t("F1")),
            Action::AddedKong(t("J3")),
            Action::Kong,
            Action::Pung(t("B9")),
            Action::Chow {
                middle: t("T2"),
                discard: t("W1"),
            },
        ] {
            assert_eq!(action_of(&action(a)), Ok(a));
        }
    }

    #[test]
    fn malformed_actions_say_what_is_wrong() {
        let msg = |answer: &str| v1::Action {
            game: Some(payload::pack(&mcr_pb::Action {
                answer: answer.into(),
            })),
        };
        assert!(action_of(&msg("PLAY X1")).unwrap_err().contains("X1"));
        assert!(
            action_of(&msg("DISCARD W1"))
                .unwrap_err()
                .contains("not an answer")
        );
        assert!(action_of(&msg("")).unwrap_err().contains("not an answer"));
        let ddz = v1::Action {
            game: Some(payload::pack(&ddz_pb::Action::default())),
        };
        assert!(action_of(&ddz).unwrap_err().contains("arena.mcr.v1.Action"));
    }

    #[test]
    fn every_event_reads_back_from_its_message() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        for (e, turn) in [
            (Event::Dealt, false),
            (
                Event::Draw {
                    seat: 1,
                    tile: None,
                },
                false,
            ),
            (
                Event::Draw {
                    seat: 2,
                    tile: Some(t("B3")),
                },
                false,
            ),
            (
                Event::Flower {
                    seat: 3,
                    flower: Flower::new(5).unwrap(),
                },
                false,
            ),
            (
                Event::Act {
                    seat: 0,
                    action: Action::Chow {
                        middle: t("W2"),
                        discard: t("J1"),
                    },
                },
                false,
            ),
            (
                Event::Act {
                    seat: 0,
                    action: Action::Kong,
                },
                false,
            ),
            (Event::HiddenKong { seat: 1 }, true),
            (Event::Fault { seat: 2 }, false),
        ] {
            assert_eq!(event_of(&event(e), turn), Ok(e));
        }
        let mut bad = event(Event::Fault { seat: 0 });
        bad.seat = 4;
        assert!(event_of(&bad, false).unwrap_err().contains("seat is 4"));
    }
}
