//! Mahjong rules types ↔ protocol messages.

use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use arena_proto::{payload, v1};
use mahjong::{
    Action, ActionList, Counts, Event, KongKind, Meld, Outcome, Phase, Reading, SeenEvent, Tile,
    View, tiles_to_string,
};

use super::spec::fans_kind;

/// Every tile of `counts`, sorted, in the notation.
pub fn counts_text(counts: &Counts) -> String {
    tiles_to_string(
        Tile::all().flat_map(|t| std::iter::repeat_n(t, usize::from(counts[t.index()]))),
    )
}

fn meld(m: Option<Meld>) -> mahjong_pb::Meld {
    use mahjong_pb::MeldKind as K;
    let (kind, tile) = match m {
        None => (K::ConcealedKong, String::new()),
        Some(Meld::Chow(t)) => (K::Chow, t.to_string()),
        Some(Meld::Pung(t)) => (K::Pung, t.to_string()),
        Some(Meld::Kong(t, KongKind::Exposed)) => (K::Kong, t.to_string()),
        Some(Meld::Kong(t, KongKind::Added)) => (K::AddedKong, t.to_string()),
        Some(Meld::Kong(t, KongKind::Concealed)) => (K::ConcealedKong, t.to_string()),
    };
    mahjong_pb::Meld {
        kind: kind as i32,
        tile,
    }
}

/// An event as a message: `tile` is `None` where the viewer may not see it.
fn event_msg(
    seat: u8,
    kind: mahjong_pb::EventKind,
    tile: Option<Tile>,
    lowest: Option<Tile>,
) -> mahjong_pb::Event {
    mahjong_pb::Event {
        seat: u32::from(seat),
        kind: kind as i32,
        tile: tile.map(|t| t.to_string()).unwrap_or_default(),
        lowest: lowest.map(|t| t.to_string()).unwrap_or_default(),
        from: None,
        robbed_kong: false,
    }
}

/// An event as a seat saw it.
pub fn seen_event(e: SeenEvent) -> mahjong_pb::Event {
    use mahjong_pb::EventKind as K;
    match e {
        SeenEvent::Draw { seat, tile } => event_msg(seat, K::Draw, tile, None),
        SeenEvent::Discard { seat, tile } => event_msg(seat, K::Discard, Some(tile), None),
        SeenEvent::Chow { seat, lowest, tile } => {
            event_msg(seat, K::Chow, Some(tile), Some(lowest))
        }
        SeenEvent::Pung { seat, tile } => event_msg(seat, K::Pung, Some(tile), None),
        SeenEvent::Kong { seat, tile } => event_msg(seat, K::Kong, Some(tile), None),
        SeenEvent::ConcealedKong { seat, tile } => event_msg(seat, K::ConcealedKong, tile, None),
        SeenEvent::AddedKong { seat, tile } => event_msg(seat, K::AddedKong, Some(tile), None),
        SeenEvent::ChowFailed { seat } => event_msg(seat, K::ChowFailed, None, None),
        SeenEvent::Win {
            seat,
            from,
            tile,
            robbed_kong,
        } => mahjong_pb::Event {
            from: from.map(u32::from),
            robbed_kong,
            ..event_msg(seat, K::Win, Some(tile), None)
        },
        SeenEvent::Drawn => event_msg(0, K::Drawn, None, None),
    }
}

/// An event message read back as a seat saw it ([`seen_event`]'s inverse): the error says
/// which field is wrong.
pub fn seen_event_of(e: &mahjong_pb::Event) -> Result<SeenEvent, String> {
    use mahjong_pb::EventKind as K;
    let seat = u8::try_from(e.seat)
        .ok()
        .filter(|s| *s < 4)
        .ok_or_else(|| format!("seat is {}; Mahjong seats are 0 to 3", e.seat))?;
    let kind = K::try_from(e.kind).map_err(|_| format!("kind {} is unknown", e.kind))?;
    let tile_in = |field: &str, text: &str| -> Result<Option<Tile>, String> {
        let t = text.trim();
        if t.is_empty() {
            return Ok(None);
        }
        t.parse::<Tile>()
            .map(Some)
            .map_err(|err| format!("{field} {t:?}: {err}"))
    };
    let tile = || -> Result<Tile, String> {
        tile_in("tile", &e.tile)?.ok_or_else(|| format!("{} needs a tile", kind.as_str_name()))
    };
    Ok(match kind {
        K::Unspecified => return Err("kind is not set".into()),
        K::Draw => SeenEvent::Draw {
            seat,
            tile: tile_in("tile", &e.tile)?,
        },
        K::Discard => SeenEvent::Discard {
            seat,
            tile: tile()?,
        },
        K::Chow => SeenEvent::Chow {
            seat,
            lowest: tile_in("lowest", &e.lowest)?
                .ok_or_else(|| "MAHJONG_EVENT_KIND_CHOW needs its lowest tile".to_string())?,
            tile: tile()?,
        },
        K::Pung => SeenEvent::Pung {
            seat,
            tile: tile()?,
        },
        K::Kong => SeenEvent::Kong {
            seat,
            tile: tile()?,
        },
        K::ConcealedKong => SeenEvent::ConcealedKong {
            seat,
            tile: tile_in("tile", &e.tile)?,
        },
        K::AddedKong => SeenEvent::AddedKong {
            seat,
            tile: tile()?,
        },
        K::ChowFailed => SeenEvent::ChowFailed { seat },
        K::Win => SeenEvent::Win {
            seat,
            from: e
                .from
                .map(|f| {
                    u8::try_from(f)
                        .ok()
                        .filter(|f| *f < 4)
                        .ok_or_else(|| format!("from is {f}; Mahjong seats are 0 to 3"))
                })
                .transpose()?,
            tile: tile()?,
            robbed_kong: e.robbed_kong,
        },
        K::Drawn => SeenEvent::Drawn,
    })
}

/// An event as it happened, every tile shown (for replays, after the hand).
pub fn full_event(e: Event) -> mahjong_pb::Event {
    match e {
        Event::Draw { seat, tile } => seen_event(SeenEvent::Draw {
            seat,
            tile: Some(tile),
        }),
        Event::ConcealedKong { seat, tile } => seen_event(SeenEvent::ConcealedKong {
            seat,
            tile: Some(tile),
        }),
        // Every other event looks the same to everyone.
        other => seen_event(other.seen_by(u8::MAX)),
    }
}

/// A seat's view as a message, with its legal answers (empty when it is not asked).
pub fn observation(view: &View<'_>, legal: &ActionList) -> v1::Observation {
    observation_from(view, legal, 0)
}

/// [`observation`] with its events from index `events_from` on (the field saying so): an
/// incremental observation. The events left out are skipped before they are converted.
pub fn observation_from(
    view: &View<'_>,
    legal: &ActionList,
    events_from: usize,
) -> v1::Observation {
    let (tile, from) = match view.phase() {
        Phase::Claims { discarder, tile } => (tile.to_string(), Some(u32::from(discarder))),
        Phase::RobKong { seat, tile } => (tile.to_string(), Some(u32::from(seat))),
        Phase::Turn { .. } | Phase::Over => (String::new(), None),
    };
    let o = mahjong_pb::Observation {
        seat: u32::from(view.seat()),
        hand: counts_text(view.hand()),
        drawn: view.drawn().map(|t| t.to_string()).unwrap_or_default(),
        first: u32::from(view.first()),
        seats: (0..4)
            .map(|s| mahjong_pb::SeatView {
                melds: view.melds(s).map(meld).collect(),
                discards: view
                    .discards(s)
                    .iter()
                    .map(|d| d.tile.to_string())
                    .collect(),
                claimed: view.discards(s).iter().map(|d| d.claimed).collect(),
            })
            .collect(),
        wall_left: view.wall_left() as u32,
        tile,
        from,
        // The events travel in the envelope.
        events: Vec::new(),
        legal: legal.iter().map(|a| a.to_string()).collect(),
        fans: fans_kind(view.rules().reading) as i32,
    };
    let events: Vec<mahjong_pb::Event> = view.events().skip(events_from).map(seen_event).collect();
    v1::Observation {
        game: Some(payload::pack(&o)),
        events: payload::encode_events(&events),
        events_from: u32::try_from(events_from).unwrap_or(u32::MAX),
    }
}

/// The Mahjong observation an envelope carries, with its events put back in, or why there is
/// none ([`payload::observation`]).
pub fn observation_of(o: &v1::Observation) -> Result<mahjong_pb::Observation, String> {
    payload::observation(o, |o: &mut mahjong_pb::Observation| &mut o.events)
}

/// Alters the Mahjong observation `request` carries with `edit`, which sees it whole; the
/// events go back into the envelope ([`payload::edit_observation`]). For tests and tools that
/// make requests of their own.
pub fn edit_observation(
    request: &mut v1::DecisionRequest,
    edit: impl FnOnce(&mut mahjong_pb::Observation),
) {
    if let Some(envelope) = request.observation.as_mut() {
        payload::edit_observation(
            envelope,
            |o: &mut mahjong_pb::Observation| &mut o.events,
            edit,
        );
    }
}

/// An outcome's Mahjong part (`None` when it holds none).
pub fn outcome_of(o: &v1::Outcome) -> Option<mahjong_pb::Outcome> {
    payload::unpack(o.game.as_ref(), "the outcome").ok()
}

/// A competition standing's Mahjong totals (`None` when it holds none).
pub fn standing_of(s: &v1::Standing) -> Option<mahjong_pb::Standing> {
    payload::unpack(s.game.as_ref(), "the standing").ok()
}

/// A replay's Mahjong history (empty when it holds none).
pub fn history_of(r: &v1::Replay) -> mahjong_pb::History {
    payload::unpack(r.history.as_ref(), "the replay's history").unwrap_or_default()
}

/// An action as a message.
pub fn action(a: Action) -> v1::Action {
    use mahjong_pb::ActionKind as K;
    let (kind, tile) = match a {
        Action::Discard(t) => (K::Discard, Some(t)),
        Action::SelfDrawnWin => (K::SelfDrawnWin, None),
        Action::ConcealedKong(t) => (K::ConcealedKong, Some(t)),
        Action::AddedKong(t) => (K::AddedKong, Some(t)),
        Action::Pass => (K::Pass, None),
        Action::Win => (K::Win, None),
        Action::Kong => (K::Kong, None),
        Action::Pung => (K::Pung, None),
        Action::Chow(t) => (K::Chow, Some(t)),
        Action::RobKong => (K::RobKong, None),
    };
    v1::Action {
        game: Some(payload::pack(&mahjong_pb::Action {
            kind: kind as i32,
            tile: tile.map(|t| t.to_string()).unwrap_or_default(),
        })),
    }
}

/// Reads an answer from the wire (its tile parsed, nothing checked against the rules): the
/// error says what is wrong with the message, for a malformed verdict.
pub fn action_of(a: &v1::Action) -> Result<Action, String> {
    use mahjong_pb::ActionKind as K;
    let m: mahjong_pb::Action = payload::unpack(a.game.as_ref(), "the action")?;
    let kind = K::try_from(m.kind).map_err(|_| format!("action kind {} is unknown", m.kind))?;
    let tile = || -> Result<Tile, String> {
        if m.tile.trim().is_empty() {
            return Err(format!("{} needs a tile", kind.as_str_name()));
        }
        m.tile.trim().parse::<Tile>().map_err(|e| e.to_string())
    };
    let no_tile = |a: Action| -> Result<Action, String> {
        if m.tile.trim().is_empty() {
            Ok(a)
        } else {
            Err(format!(
                "{} takes no tile, got {:?}",
                kind.as_str_name(),
                m.tile
            ))
        }
    };
    match kind {
        K::Unspecified => Err("the action's kind is not set".into()),
        K::Discard => Ok(Action::Discard(tile()?)),
        K::ConcealedKong => Ok(Action::ConcealedKong(tile()?)),
        K::AddedKong => Ok(Action::AddedKong(tile()?)),
        K::Chow => Ok(Action::Chow(tile()?)),
        K::SelfDrawnWin => no_tile(Action::SelfDrawnWin),
        K::Pass => no_tile(Action::Pass),
        K::Win => no_tile(Action::Win),
        K::Kong => no_tile(Action::Kong),
        K::Pung => no_tile(Action::Pung),
        K::RobKong => no_tile(Action::RobKong),
    }
}

/// How a hand ended, as a message: the scores per seat (penalties not included) and the win.
pub fn outcome(o: &Outcome, reading: Reading) -> v1::Outcome {
    let m = match &o.win {
        None => mahjong_pb::Outcome {
            reading: fans_kind(reading) as i32,
            ..Default::default()
        },
        Some(w) => mahjong_pb::Outcome {
            winner: Some(u32::from(w.seat)),
            from: w.from.map(u32::from),
            tile: w.tile.to_string(),
            robbed_kong: w.robbed_kong,
            fans: w
                .fans
                .fans
                .iter()
                .map(|(fan, points)| mahjong_pb::Fan {
                    name: fan.name(reading).to_string(),
                    points,
                })
                .collect(),
            fan_total: w.fans.total,
            reading: fans_kind(reading) as i32,
        },
    };
    v1::Outcome {
        scores: o.scores.iter().map(|&s| i64::from(s)).collect(),
        scoring: reading.name().to_string(),
        game: Some(payload::pack(&m)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_proto::packages::arena::ddz::v1 as ddz_pb;

    #[test]
    fn every_action_reads_back_from_its_message() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        for a in [
            Action::Discard(t("5S")),
            Action::SelfDrawnWin,
            Action::ConcealedKong(t("E")),
            Action::AddedKong(t("3T")),
            Action::Pass,
            Action::Win,
            Action::Kong,
            Action::Pung,
            Action::Chow(t("7M")),
            Action::RobKong,
        ] {
            assert_eq!(action_of(&action(a)), Ok(a));
        }
    }

    #[test]
    fn every_event_a_seat_sees_reads_back_from_its_message() {
        let t = |s: &str| s.parse::<Tile>().unwrap();
        for e in [
            SeenEvent::Draw {
                seat: 1,
                tile: None,
            },
            SeenEvent::Draw {
                seat: 2,
                tile: Some(t("5S")),
            },
            SeenEvent::Discard {
                seat: 3,
                tile: t("S"),
            },
            SeenEvent::Chow {
                seat: 0,
                lowest: t("7M"),
                tile: t("8M"),
            },
            SeenEvent::Pung {
                seat: 1,
                tile: t("Z"),
            },
            SeenEvent::Kong {
                seat: 2,
                tile: t("9T"),
            },
            SeenEvent::ConcealedKong {
                seat: 3,
                tile: None,
            },
            SeenEvent::ConcealedKong {
                seat: 3,
                tile: Some(t("E")),
            },
            SeenEvent::AddedKong {
                seat: 0,
                tile: t("1S"),
            },
            SeenEvent::ChowFailed { seat: 1 },
            SeenEvent::Win {
                seat: 2,
                from: Some(0),
                tile: t("3T"),
                robbed_kong: true,
            },
            SeenEvent::Win {
                seat: 2,
                from: None,
                tile: t("3T"),
                robbed_kong: false,
            },
            SeenEvent::Drawn,
        ] {
            assert_eq!(seen_event_of(&seen_event(e)), Ok(e));
        }
        let mut bad = seen_event(SeenEvent::Discard {
            seat: 0,
            tile: t("1M"),
        });
        bad.seat = 4;
        assert!(seen_event_of(&bad).unwrap_err().contains("seat is 4"));
        bad.seat = 0;
        bad.tile = "0M".into();
        assert!(seen_event_of(&bad).unwrap_err().contains("\"0M\""));
        bad.tile.clear();
        assert!(seen_event_of(&bad).unwrap_err().contains("needs a tile"));
        bad.kind = 99;
        assert!(seen_event_of(&bad).unwrap_err().contains("unknown"));
    }

    #[test]
    fn malformed_actions_say_what_is_wrong() {
        let msg = |kind: mahjong_pb::ActionKind, tile: &str| v1::Action {
            game: Some(arena_proto::payload::pack(&mahjong_pb::Action {
                kind: kind as i32,
                tile: tile.into(),
            })),
        };
        use mahjong_pb::ActionKind as K;
        assert!(
            action_of(&msg(K::Discard, ""))
                .unwrap_err()
                .contains("needs a tile")
        );
        assert!(
            action_of(&msg(K::Discard, "5X"))
                .unwrap_err()
                .contains("\"5X\"")
        );
        assert!(
            action_of(&msg(K::Pass, "5S"))
                .unwrap_err()
                .contains("takes no tile")
        );
        assert!(
            action_of(&msg(K::Unspecified, ""))
                .unwrap_err()
                .contains("not set")
        );
        assert_eq!(
            action_of(&v1::Action::default()).unwrap_err(),
            "the action carries no game message (want arena.mahjong.v1.Action)"
        );
        let ddz = v1::Action {
            game: Some(arena_proto::payload::pack(&ddz_pb::Action::default())),
        };
        assert_eq!(
            action_of(&ddz).unwrap_err(),
            "the action carries a \"arena.ddz.v1.Action\", not a arena.mahjong.v1.Action"
        );
    }
}
