//! Dou Dizhu rules types ↔ protocol messages.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_table::replay::wire::{
    LEN, bytes_field, bytes_field_len, key, varint, varint_field, varint_field_len,
};
use ddz::{CardSet, Event, Observation, Outcome};

use super::names;

use arena_proto::{payload, v1};

/// A Dou Dizhu decision read from the wire; cards are parsed but not yet checked against the
/// rules (the referee does that, and turns failures into verdicts).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DdzDecision {
    /// A bid 0..=3 (range not checked here).
    Bid(u32),
    /// Double / redouble or not.
    Double(bool),
    /// Cards (empty = pass).
    Play(CardSet),
}

/// Why an action message is not a Dou Dizhu decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedAction(pub String);

impl std::fmt::Display for MalformedAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MalformedAction {}

/// The full name of a Dou Dizhu action, for its type URL in an `Any`.
const ACTION_NAME: &str = "arena.ddz.v1.Action";
/// The full name of a Dou Dizhu history, for its type URL in an `Any`.
const HISTORY_NAME: &str = "arena.ddz.v1.History";

/// The Dou Dizhu observation an envelope carries, with its events put back in, or why there is
/// none ([`payload::observation`]).
pub fn observation_of(o: &v1::Observation) -> Result<ddz_pb::Observation, String> {
    payload::observation(o, |o: &mut ddz_pb::Observation| &mut o.events)
}

/// Alters the Dou Dizhu observation `request` carries with `edit`, which sees it whole; the
/// events go back into the envelope ([`payload::edit_observation`]). For tests and tools that
/// make requests of their own.
pub fn edit_observation(
    request: &mut v1::DecisionRequest,
    edit: impl FnOnce(&mut ddz_pb::Observation),
) {
    if let Some(envelope) = request.observation.as_mut() {
        payload::edit_observation(envelope, |o: &mut ddz_pb::Observation| &mut o.events, edit);
    }
}

/// An outcome's Dou Dizhu part (`None` when it holds none).
pub fn outcome_of(o: &v1::Outcome) -> Option<ddz_pb::Outcome> {
    payload::unpack(o.game.as_ref(), "the outcome").ok()
}

/// A replay's Dou Dizhu history (empty when it holds none).
pub fn history_of(r: &v1::Replay) -> ddz_pb::History {
    payload::unpack(r.history.as_ref(), "the replay's history").unwrap_or_default()
}

/// Reads a Dou Dizhu decision from an action message.
pub fn ddz_decision(a: &v1::Action) -> Result<DdzDecision, MalformedAction> {
    let d: ddz_pb::Action =
        payload::unpack(a.game.as_ref(), "the action").map_err(MalformedAction)?;
    match &d.action {
        None => Err(MalformedAction(
            "the Dou Dizhu action is empty (set one of bid, double, play)".into(),
        )),
        Some(ddz_pb::action::Action::Bid(b)) => Ok(DdzDecision::Bid(*b)),
        Some(ddz_pb::action::Action::Double(x)) => Ok(DdzDecision::Double(*x)),
        Some(ddz_pb::action::Action::Play(s)) => {
            // The longest legal play is 20 cards; with separators and `10`s a sane answer is far
            // below this. Anything longer is malformed without being parsed or quoted whole.
            if s.len() > MAX_PLAY_BYTES {
                return Err(MalformedAction(format!(
                    "play is {} bytes long, longer than any play ({MAX_PLAY_BYTES} bytes at most)",
                    s.len()
                )));
            }
            let t = s.trim();
            if t.eq_ignore_ascii_case("pass") {
                return Ok(DdzDecision::Play(CardSet::EMPTY));
            }
            if t.is_empty() {
                return Err(MalformedAction(
                    "play is empty: send cards or \"pass\"".into(),
                ));
            }
            t.parse::<CardSet>()
                .map(DdzDecision::Play)
                .map_err(|e| MalformedAction(format!("play {}: {e}", arena_proto::text::quote(t))))
        }
    }
}

/// The longest `play` string accepted from a bot, in bytes.
pub const MAX_PLAY_BYTES: usize = 128;

/// An action message for a decision.
pub fn ddz_action(d: DdzDecision) -> v1::Action {
    let action = match d {
        DdzDecision::Bid(b) => ddz_pb::action::Action::Bid(b),
        DdzDecision::Double(x) => ddz_pb::action::Action::Double(x),
        DdzDecision::Play(c) if c.is_empty() => ddz_pb::action::Action::Play("pass".into()),
        DdzDecision::Play(c) => ddz_pb::action::Action::Play(c.to_text()),
    };
    v1::Action {
        game: Some(payload::pack(&ddz_pb::Action {
            action: Some(action),
        })),
    }
}

/// Appends an `Any` (the type URL of the message named `full_name`, and the body `body_len`
/// bytes long that `body` writes) as field `tag`: what prost writes for a message field holding
/// [`payload::pack`]'s `Any`.
fn any_field(
    tag: u32,
    full_name: &str,
    body_len: usize,
    body: impl FnOnce(&mut Vec<u8>),
    buf: &mut Vec<u8>,
) {
    let url_len = payload::TYPE_URL_PREFIX.len() + full_name.len();
    let any_len = bytes_field_len(1, url_len) + bytes_field_len(2, body_len);
    key(tag, LEN, buf);
    varint(any_len as u64, buf);
    key(1, LEN, buf);
    varint(url_len as u64, buf);
    buf.extend_from_slice(payload::TYPE_URL_PREFIX.as_bytes());
    buf.extend_from_slice(full_name.as_bytes());
    key(2, LEN, buf);
    varint(body_len as u64, buf);
    let start = buf.len();
    body(buf);
    debug_assert_eq!(
        buf.len() - start,
        body_len,
        "the body is as long as measured"
    );
}

/// Appends `d` as the body of its [`v1::Action`] message: the bytes `prost` writes for
/// [`ddz_action`]'s message, written without building it (a replay keeps every action so).
pub fn encode_ddz_action(d: DdzDecision, buf: &mut Vec<u8>) {
    let mut text = [0u8; 54];
    // The Dou Dizhu action in the envelope's `game` (1): its one field of the oneof, written
    // whatever its value.
    match d {
        DdzDecision::Bid(b) => {
            let len = varint_field_len(1, u64::from(b));
            any_field(
                1,
                ACTION_NAME,
                len,
                |buf| varint_field(1, u64::from(b), buf),
                buf,
            );
        }
        DdzDecision::Double(x) => {
            let len = varint_field_len(2, u64::from(x));
            any_field(
                1,
                ACTION_NAME,
                len,
                |buf| varint_field(2, u64::from(x), buf),
                buf,
            );
        }
        DdzDecision::Play(c) => {
            let play = if c.is_empty() {
                b"pass"
            } else {
                c.write_ascii(&mut text)
            };
            let len = bytes_field_len(3, play.len());
            any_field(1, ACTION_NAME, len, |buf| bytes_field(3, play, buf), buf);
        }
    }
}

/// Appends the public events as the `history` field (4) of a [`v1::Replay`], an
/// `arena.ddz.v1.History`: the bytes `prost` writes for [`ddz_event`]'s messages in it,
/// written without building them.
pub fn encode_ddz_events(events: &[Event], buf: &mut Vec<u8>) {
    // Measured first, so the lengths in front are written before the events.
    let mut measure = Measure(0);
    write_ddz_events(events, &mut measure);
    let len = measure.0;
    any_field(
        4,
        HISTORY_NAME,
        len,
        |buf| write_ddz_events(events, buf),
        buf,
    );
}

/// Where [`write_ddz_events`] writes: a buffer, or a count of the bytes it would hold.
trait Sink {
    fn key(&mut self, tag: u32, wire_type: u32);
    fn varint(&mut self, v: u64);
    fn varint_field(&mut self, tag: u32, v: u64);
    fn bytes_field(&mut self, tag: u32, b: &[u8]);
}

impl Sink for Vec<u8> {
    fn key(&mut self, tag: u32, wire_type: u32) {
        key(tag, wire_type, self)
    }
    fn varint(&mut self, v: u64) {
        varint(v, self)
    }
    fn varint_field(&mut self, tag: u32, v: u64) {
        varint_field(tag, v, self)
    }
    fn bytes_field(&mut self, tag: u32, b: &[u8]) {
        bytes_field(tag, b, self)
    }
}

/// A [`Sink`] that only counts.
struct Measure(usize);

impl Sink for Measure {
    fn key(&mut self, tag: u32, _wire_type: u32) {
        self.0 += arena_table::replay::wire::key_len(tag);
    }
    fn varint(&mut self, v: u64) {
        self.0 += prost::encoding::encoded_len_varint(v);
    }
    fn varint_field(&mut self, tag: u32, v: u64) {
        self.0 += varint_field_len(tag, v);
    }
    fn bytes_field(&mut self, tag: u32, b: &[u8]) {
        self.0 += bytes_field_len(tag, b.len());
    }
}

/// Writes the events as the `events` field (1) of an `arena.ddz.v1.History`.
fn write_ddz_events(events: &[Event], buf: &mut impl Sink) {
    /// An event's one field of the oneof: a number or a flag (as a varint), or text.
    enum Field<'a> {
        Varint(u32, u64),
        Text(u32, &'a [u8]),
        Landlord(u32, &'a [u8]),
    }
    // DdzLandlord's body: its fields at their defaults are not written.
    let landlord_len = |bid: u32, bottom: &[u8]| {
        (if bid != 0 {
            varint_field_len(1, u64::from(bid))
        } else {
            0
        }) + (if bottom.is_empty() {
            0
        } else {
            bytes_field_len(2, bottom.len())
        })
    };
    for e in events {
        let mut text = [0u8; 54];
        let (seat, field) = match *e {
            Event::Bid { seat, bid } => (seat.index(), Field::Varint(2, u64::from(bid))),
            Event::Redeal => (0, Field::Varint(3, 1)),
            Event::Landlord { seat, bid, bottom } => (
                seat.index(),
                Field::Landlord(u32::from(bid), bottom.write_ascii(&mut text)),
            ),
            Event::Double { seat, double } => (seat.index(), Field::Varint(5, u64::from(double))),
            Event::Play { seat, play } if play.is_pass() => (seat.index(), Field::Text(6, b"pass")),
            Event::Play { seat, play } => (
                seat.index(),
                Field::Text(6, play.cards().write_ascii(&mut text)),
            ),
            Event::End(_) => continue,
        };
        let seat = seat as u64;
        let body = (if seat != 0 {
            varint_field_len(1, seat)
        } else {
            0
        }) + match field {
            Field::Varint(tag, v) => varint_field_len(tag, v),
            Field::Text(tag, t) => bytes_field_len(tag, t.len()),
            Field::Landlord(bid, bottom) => bytes_field_len(4, landlord_len(bid, bottom)),
        };
        buf.key(1, LEN);
        buf.varint(body as u64);
        if seat != 0 {
            buf.varint_field(1, seat);
        }
        match field {
            Field::Varint(tag, v) => buf.varint_field(tag, v),
            Field::Text(tag, t) => buf.bytes_field(tag, t),
            Field::Landlord(bid, bottom) => {
                buf.key(4, LEN);
                buf.varint(landlord_len(bid, bottom) as u64);
                if bid != 0 {
                    buf.varint_field(1, u64::from(bid));
                }
                if !bottom.is_empty() {
                    buf.bytes_field(2, bottom);
                }
            }
        }
    }
}

/// A public event as a message (`None` for the end-of-game event, carried as an outcome instead).
pub fn ddz_event(e: &Event) -> Option<ddz_pb::Event> {
    use ddz_pb::event::Event as E;
    let (seat, event) = match *e {
        Event::Bid { seat, bid } => (seat.index(), E::Bid(u32::from(bid))),
        Event::Redeal => (0, E::Redeal(true)),
        Event::Landlord { seat, bid, bottom } => (
            seat.index(),
            E::Landlord(ddz_pb::Landlord {
                bid: u32::from(bid),
                bottom: bottom.to_text(),
            }),
        ),
        Event::Double { seat, double } => (seat.index(), E::Double(double)),
        Event::Play { seat, play } => (seat.index(), E::Play(play.to_text())),
        Event::End(_) => return None,
    };
    Some(ddz_pb::Event {
        seat: seat as u32,
        event: Some(event),
    })
}

/// A seat's observation as a message, with the legal actions listed.
pub fn ddz_observation(
    obs: &Observation<'_>,
    rules_name: &str,
    legal: Vec<String>,
) -> v1::Observation {
    ddz_observation_from(obs, rules_name, legal, 0)
}

/// [`ddz_observation`] with its events from index `from` on (`events_from` saying so): an
/// incremental observation. The events left out are skipped before they are converted.
pub fn ddz_observation_from(
    obs: &Observation<'_>,
    rules_name: &str,
    legal: Vec<String>,
    from: usize,
) -> v1::Observation {
    ddz_observation_in(obs, rules_name, legal, from, None)
}

/// [`ddz_observation_from`] of a deal that sits at `round` of its match (`None`: not said).
pub fn ddz_observation_in(
    obs: &Observation<'_>,
    rules_name: &str,
    legal: Vec<String>,
    from: usize,
    round: Option<super::spec::MatchRound>,
) -> v1::Observation {
    let o = ddz_pb::Observation {
        seat: obs.seat.index() as u32,
        hand: obs.hand.to_text(),
        phase: names::phase_name(obs.phase).into(),
        phase_kind: names::phase_kind(obs.phase) as i32,
        landlord: obs.landlord.map(|s| s.index() as u32),
        bottom: obs.bottom.map(CardSet::to_text).unwrap_or_default(),
        bid: u32::from(obs.bid),
        // The events travel in the envelope.
        events: Vec::new(),
        cards_left: obs.cards_left.iter().map(|&c| u32::from(c)).collect(),
        to_beat: obs.last_play.map(|(_, m)| m.to_text()).unwrap_or_default(),
        to_beat_seat: obs.last_play.map(|(s, _)| s.index() as u32),
        legal,
        rules: rules_name.to_string(),
        rules_kind: names::rules_kind(rules_name) as i32,
        round: round.map(super::spec::MatchRound::to_pb),
    };
    // The end of the game is the only event with no message, and the last one.
    let events: Vec<ddz_pb::Event> = obs
        .events
        .iter()
        .filter(|e| !matches!(e, Event::End(_)))
        .skip(from)
        .filter_map(ddz_event)
        .collect();
    v1::Observation {
        game: Some(payload::pack(&o)),
        events: payload::encode_events(&events),
        events_from: u32::try_from(from).unwrap_or(u32::MAX),
    }
}

/// An outcome as a message, with scores under `scoring`.
pub fn ddz_outcome(o: &Outcome, scoring: ddz::Scoring) -> v1::Outcome {
    v1::Outcome {
        scores: o.scores(scoring).to_vec(),
        scoring: scoring.name().into(),
        game: Some(payload::pack(&ddz_pb::Outcome {
            landlord: o.landlord.index() as u32,
            winner: o.winner.index() as u32,
            bid: u32::from(o.bid),
            bombs: u32::from(o.bombs),
            rockets: u32::from(o.rockets),
            spring: o.spring,
            anti_spring: o.anti_spring,
            doubled: o.doubled.to_vec(),
            redoubled: o.redoubled,
            scoring: names::scoring_kind(scoring) as i32,
        })),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_overlong_play_is_malformed_and_quoted_short() {
        let long = ddz_action_play(&"3".repeat(1 << 20));
        let e = ddz_decision(&long).unwrap_err();
        assert!(e.0.contains("longer than any play"), "{}", e.0);
        assert!(e.0.len() < 200, "the answer is not copied into the reason");
        let garbage = ddz_action_play(&format!("33{}", "X".repeat(100)));
        let e = ddz_decision(&garbage).unwrap_err();
        assert!(e.0.len() < 300, "{}", e.0);
    }

    fn ddz_action_play(s: &str) -> v1::Action {
        v1::Action {
            game: Some(arena_proto::payload::pack(&ddz_pb::Action {
                action: Some(ddz_pb::action::Action::Play(s.into())),
            })),
        }
    }

    use super::*;

    fn play(s: &str) -> v1::Action {
        v1::Action {
            game: Some(arena_proto::payload::pack(&ddz_pb::Action {
                action: Some(ddz_pb::action::Action::Play(s.into())),
            })),
        }
    }

    #[test]
    fn decisions_round_trip_and_garbage_is_explained() {
        for d in [
            DdzDecision::Bid(2),
            DdzDecision::Double(true),
            DdzDecision::Play(CardSet::EMPTY),
            DdzDecision::Play("33344455".parse().unwrap()),
        ] {
            assert_eq!(ddz_decision(&ddz_action(d)), Ok(d));
        }
        assert_eq!(
            ddz_decision(&play(" PASS ")),
            Ok(DdzDecision::Play(CardSet::EMPTY))
        );
        let e = ddz_decision(&play("3X")).unwrap_err();
        assert!(e.0.contains("unknown card character 'X'"), "{e}");
        assert!(ddz_decision(&play("")).unwrap_err().0.contains("empty"));
        assert_eq!(
            ddz_decision(&v1::Action { game: None }).unwrap_err().0,
            "the action carries no game message (want arena.ddz.v1.Action)"
        );
        let mahjong = v1::Action {
            game: Some(payload::pack(&crate::mahjong::pb::Action::default())),
        };
        assert_eq!(
            ddz_decision(&mahjong).unwrap_err().0,
            "the action carries a \"arena.mahjong.v1.Action\", not a arena.ddz.v1.Action"
        );
    }

    /// The replay's hand-written bytes are prost's for the same messages.
    #[test]
    fn hand_encoded_actions_and_history_are_prost_bytes() {
        use prost::Message;
        for d in [
            DdzDecision::Bid(0),
            DdzDecision::Bid(3),
            DdzDecision::Double(false),
            DdzDecision::Double(true),
            DdzDecision::Play(CardSet::EMPTY),
            DdzDecision::Play("TTJJQQKKAA2BR".parse().unwrap()),
        ] {
            let mut buf = Vec::new();
            encode_ddz_action(d, &mut buf);
            assert_eq!(buf, ddz_action(d).encode_to_vec(), "{d:?}");
        }
        let mut g = ddz::Game::from_seed(
            ddz::GameConfig::fixed_landlord(),
            11,
            ddz::DealConstraint::NONE,
        )
        .unwrap();
        let mut ml = ddz::MoveList::new();
        let mut rng = 7u64;
        while g.to_act().is_some() {
            g.legal_moves(&mut ml);
            rng = rng
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = ml[(rng >> 33) as usize % ml.len()];
            g.apply(ddz::Action::Play(m)).unwrap();
        }
        let mut buf = Vec::new();
        encode_ddz_events(g.events(), &mut buf);
        let history = ddz_pb::History {
            events: g.events().iter().filter_map(ddz_event).collect(),
        };
        assert!(history.events.len() > 10);
        let replay = v1::Replay {
            history: Some(payload::pack(&history)),
            ..Default::default()
        };
        assert_eq!(buf, replay.encode_to_vec());
    }

    #[test]
    fn a_long_bad_play_is_quoted_short() {
        // Under the length cap but still long: the reason quotes its start, not all of it.
        let long = format!("3X{}", "4".repeat(120));
        let e = ddz_decision(&play(&long)).unwrap_err();
        assert!(e.0.len() < 200, "{} bytes", e.0.len());
        assert!(e.0.starts_with("play \"3X4444"), "{e}");
        assert!(e.0.contains("\"…: unknown card character 'X'"), "{e}");
        let e = ddz_decision(&play("3X")).unwrap_err();
        assert_eq!(
            e.0,
            "play \"3X\": unknown card character 'X' at position 1 (expected one of 3456789TJQKA2BR or 10)"
        );
    }

    #[test]
    fn observations_hold_only_public_information_and_own_hand() {
        let mut g = ddz::Game::from_seed(
            ddz::GameConfig::fixed_landlord(),
            4,
            ddz::DealConstraint::NONE,
        )
        .unwrap();
        let mut ml = ddz::MoveList::new();
        g.legal_moves(&mut ml);
        g.apply(ddz::Action::Play(ml[0])).unwrap();
        let seat = ddz::Seat::ALL[1];
        let msg = ddz_observation(&g.observation(seat), "competition", vec![]);
        let o = observation_of(&msg).unwrap();
        assert_eq!(
            o.events.len(),
            2,
            "the landlord and the one play, from the envelope"
        );
        assert_eq!(o.hand, g.hand(seat).to_string());
        assert_eq!(o.cards_left.iter().sum::<u32>(), 54 - ml[0].cards().len());
        let text = format!("{o:?}");
        for other in [ddz::Seat::ALL[0], ddz::Seat::ALL[2]] {
            assert!(
                !text.contains(&g.hand(other).to_string()),
                "another seat's hand leaked"
            );
        }
    }
}
