//! The envelopes' game payloads: an [`v1::Observation`](crate::v1::Observation),
//! [`v1::Action`](crate::v1::Action), [`v1::Outcome`](crate::v1::Outcome), a job's setup, a
//! replay's history carry the game's own message as a `google.protobuf.Any`. [`pack`] wraps one;
//! [`unpack`] reads one back with an error that names what was expected and what came.
//!
//! Type URLs are written short, [`TYPE_URL_PREFIX`] and the message's full name
//! (`/arena.ddz.v1.Action`), and read by the name after their last `/`, so the long form other
//! languages' `Any.Pack` writes by default (`type.googleapis.com/arena.ddz.v1.Action`, what
//! arena wrote before, in replays still stored) reads the same.

use prost::Name;
pub use prost_types::Any;

/// What every type URL arena writes puts before the message's full name: `/`, the shortest
/// prefix every standard reader accepts. The `Any` spec asks only that the URL's last path
/// segment be the full name; protobuf's `Any.Is` (Python, Java, Go), prost's `Any::to_msg` and
/// prost-reflect's JSON all compare that segment, and want at least one `/` before it. It
/// spares 19 bytes per `Any` over `type.googleapis.com/`, in every request and answer.
pub const TYPE_URL_PREFIX: &str = "/";

/// The type URL arena writes for a message of type `M`: [`TYPE_URL_PREFIX`] and its full name
/// (`/arena.ddz.v1.Observation`). The generated messages' [`Name::type_url`] says the same.
pub fn type_url<M: Name>() -> String {
    [TYPE_URL_PREFIX, &M::full_name()].concat()
}

/// `message` as an `Any` (its type URL [`type_url`]'s: `/<package>.<Message>`).
pub fn pack<M: Name>(message: &M) -> Any {
    Any {
        type_url: type_url::<M>(),
        value: prost::Message::encode_to_vec(message),
    }
}

/// Whether `any` holds a message of type `M` (by its type URL's last segment, as every
/// language's `Any.Is` compares: the short URL arena writes and the long one alike).
pub fn is<M: Name>(any: &Any) -> bool {
    type_name(any) == M::full_name()
}

/// The full name of the message `any` holds (`arena.ddz.v1.Action`): its type URL after the
/// last `/`.
pub fn type_name(any: &Any) -> &str {
    any.type_url.rsplit('/').next().unwrap_or_default()
}

/// Reads the `M` in `any`, the payload of a field `what` names (e.g. `action`). `Err` says
/// what is wrong: nothing there, another message type, or bytes that do not decode.
pub fn unpack<M: Name + Default>(any: Option<&Any>, what: &str) -> Result<M, String> {
    let Some(any) = any else {
        return Err(format!(
            "{what} carries no game message (want {})",
            M::full_name()
        ));
    };
    if !is::<M>(any) {
        let got = crate::text::cut(type_name(any));
        return Err(format!(
            "{what} carries a {got:?}, not a {}",
            M::full_name()
        ));
    }
    M::decode(any.value.as_slice())
        .map_err(|e| format!("{what}'s {} does not decode: {e}", M::full_name()))
}

/// Reads the `M` in `any`, or `M`'s default when there is none (a job's or a spec's optional
/// setup): [`unpack`]'s errors otherwise.
pub fn unpack_or_default<M: Name + Default>(any: Option<&Any>, what: &str) -> Result<M, String> {
    match any {
        None => Ok(M::default()),
        some => unpack(some, what),
    }
}

/// The game observation `O` an envelope carries, with the envelope's events (each an `E`)
/// appended to its event list, which `events` picks out: the observation as the game defines
/// it (the game message carries no events on the wire; any it does carry come first). `Err`
/// says what is wrong: another game's message, or bytes that do not decode.
pub fn observation<O, E>(
    envelope: &crate::v1::Observation,
    events: impl FnOnce(&mut O) -> &mut Vec<E>,
) -> Result<O, String>
where
    O: Name + Default,
    E: prost::Message + Default,
{
    DecodedEvents::default().observation(envelope, events)
}

/// One seat's events decoded once: the encoded events of its observations (the envelope's
/// `events`) beside their decoded form, so that a seat's later observations, which repeat
/// every event before their new ones, cost only those new ones. What an SDK keeps per seat
/// to read each whole observation it is given.
///
/// [`DecodedEvents::observation`] reads an observation, decoding only the events past the
/// ones it holds (the events it holds are compared with the observation's first ones: a
/// history replaced, a table played again, starts over from the first that differs), and
/// lends the decoded events to the observation it returns; [`DecodedEvents::restore`] takes
/// them back once it has been read. An observation never given back costs the next one a
/// decode of every event, nothing else.
#[derive(Debug)]
pub struct DecodedEvents<E> {
    /// The encoded events decoded so far, in order.
    raw: Vec<bytes::Bytes>,
    /// Their decoded form, one per `raw` entry (moved into the observation while it is lent).
    decoded: Vec<E>,
    /// Whether `decoded` is lent to an observation.
    lent: bool,
    /// Events decoded in all.
    decodes: u64,
}

impl<E> Default for DecodedEvents<E> {
    fn default() -> Self {
        DecodedEvents {
            raw: Vec::new(),
            decoded: Vec::new(),
            lent: false,
            decodes: 0,
        }
    }
}

impl<E: prost::Message + Default> DecodedEvents<E> {
    /// The game observation `O` `envelope` carries with its events (each an `E`) appended to
    /// its event list, which `events` picks out, as [`observation`] reads it; the events decoded
    /// already are not decoded again but lent to it (give it back with
    /// [`DecodedEvents::restore`]). `Err` says what is wrong, as [`observation`]'s does.
    pub fn observation<O: Name + Default>(
        &mut self,
        envelope: &crate::v1::Observation,
        events: impl FnOnce(&mut O) -> &mut Vec<E>,
    ) -> Result<O, String> {
        if self.lent {
            // The last observation was never given back: its events went with it.
            self.clear();
        }
        let mut o: O = unpack(envelope.game.as_ref(), "the observation")?;
        let same = self
            .raw
            .iter()
            .zip(&envelope.events)
            .take_while(|(kept, given)| same_bytes(kept, given))
            .count();
        self.raw.truncate(same);
        self.decoded.truncate(same);
        for (i, given) in envelope.events.iter().enumerate().skip(same) {
            // Those decoded before a bad one stay: they are the seat's all the same.
            self.decoded.push(event(i, given)?);
            self.raw.push(given.clone());
            self.decodes += 1;
        }
        let list = events(&mut o);
        if list.is_empty() {
            *list = std::mem::take(&mut self.decoded);
        } else {
            list.append(&mut self.decoded);
        }
        self.lent = true;
        Ok(o)
    }

    /// Takes back the events lent to `o`, the observation [`DecodedEvents::observation`]
    /// returned last (`events` picks out its event list), for the next observation.
    pub fn restore<O>(&mut self, mut o: O, events: impl FnOnce(&mut O) -> &mut Vec<E>) {
        if !std::mem::take(&mut self.lent) {
            return;
        }
        let list = events(&mut o);
        let Some(own) = list.len().checked_sub(self.raw.len()) else {
            self.clear();
            return;
        };
        // The observation's own events (none on the wire) came first.
        self.decoded = if own == 0 {
            std::mem::take(list)
        } else {
            list.split_off(own)
        };
    }

    /// How many events it holds decoded.
    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// True if it holds none.
    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// How many events it has decoded in all: each event once, unless the history it is given
    /// changes.
    pub fn decodes(&self) -> u64 {
        self.decodes
    }

    fn clear(&mut self) {
        self.raw.clear();
        self.decoded.clear();
        self.lent = false;
    }
}

/// Whether two encoded events are the same: the same bytes (shared slices of one buffer, as a
/// history rebuilt from increments passes them on, are compared without reading them).
fn same_bytes(a: &bytes::Bytes, b: &bytes::Bytes) -> bool {
    a.len() == b.len() && (a.as_ptr() == b.as_ptr() || a == b)
}

/// Alters the game observation `O` in `envelope` with `edit`, which sees it whole (as
/// [`observation`] reads it); its events go back into the envelope. For tests and tools that
/// make requests of their own: an envelope holding no `O` is left alone.
pub fn edit_observation<O, E>(
    envelope: &mut crate::v1::Observation,
    events: impl Fn(&mut O) -> &mut Vec<E>,
    edit: impl FnOnce(&mut O),
) where
    O: Name + Default,
    E: prost::Message + Default,
{
    let Ok(mut o) = observation(envelope, &events) else {
        return;
    };
    edit(&mut o);
    envelope.events = encode_events(&std::mem::take(events(&mut o)));
    envelope.game = Some(pack(&o));
}

/// Reads the events an observation envelope carries (`arena.v1.Observation.events`), each a
/// game's event message `E`. `Err` names the first that does not decode.
pub fn events<E: prost::Message + Default>(events: &[bytes::Bytes]) -> Result<Vec<E>, String> {
    events
        .iter()
        .enumerate()
        .map(|(i, e)| event(i, e))
        .collect()
}

/// Reads event `index` of an observation envelope, `bytes`, as an `E`. `Err` names it.
fn event<E: prost::Message + Default>(index: usize, bytes: &[u8]) -> Result<E, String> {
    E::decode(bytes).map_err(|err| format!("observation event {index} does not decode: {err}"))
}

/// Encodes `events` (a game's event messages) for an observation envelope: one buffer for all
/// of them, each event a shared slice of it.
pub fn encode_events<'a, E: prost::Message + 'a>(
    events: impl IntoIterator<Item = &'a E>,
) -> Vec<bytes::Bytes> {
    let events: Vec<&E> = events.into_iter().collect();
    let mut buf = bytes::BytesMut::with_capacity(events.iter().map(|e| e.encoded_len()).sum());
    events
        .into_iter()
        .map(|e| {
            // The buffer was sized for every event: encoding cannot run out of room.
            let _ = e.encode(&mut buf);
            buf.split().freeze()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::v1;

    #[test]
    fn a_payload_unpacks_as_its_own_type_and_names_any_other() {
        let verdict = v1::Verdict {
            seat: 2,
            reason: "slow".into(),
            ..Default::default()
        };
        let any = pack(&verdict);
        assert_eq!(any.type_url, "/arena.v1.Verdict");
        assert!(is::<v1::Verdict>(&any));
        assert_eq!(unpack::<v1::Verdict>(Some(&any), "x"), Ok(verdict));
        let err = unpack::<v1::TimeControl>(Some(&any), "action").unwrap_err();
        assert_eq!(
            err,
            "action carries a \"arena.v1.Verdict\", not a arena.v1.TimeControl"
        );
        let none = unpack::<v1::Verdict>(None, "observation").unwrap_err();
        assert!(none.contains("no game message"), "{none}");
        let garbage = Any {
            type_url: "/arena.v1.Verdict".into(),
            value: vec![0xff, 0xff],
        };
        let bad = unpack::<v1::Verdict>(Some(&garbage), "outcome").unwrap_err();
        assert!(
            bad.starts_with("outcome's arena.v1.Verdict does not decode"),
            "{bad}"
        );
    }

    #[test]
    fn the_short_type_url_is_written_and_the_long_one_still_read() {
        use crate::packages::arena::ddz::v1 as ddz;
        let action = ddz::Action {
            action: Some(ddz::action::Action::Play("33".into())),
        };
        let short = pack(&action);
        assert_eq!(short.type_url, "/arena.ddz.v1.Action");
        // The generated code's own URL (prost's `Any::from_msg` writes it) is the same.
        assert_eq!(short.type_url, <ddz::Action as Name>::type_url());
        // prost's reader takes it.
        assert_eq!(short.to_msg::<ddz::Action>(), Ok(action.clone()));
        // A replay stored before the URLs were short still reads, with every reader.
        let long = Any {
            type_url: "type.googleapis.com/arena.ddz.v1.Action".into(),
            value: short.value.clone(),
        };
        for any in [&short, &long] {
            assert_eq!(type_name(any), "arena.ddz.v1.Action");
            assert!(is::<ddz::Action>(any));
            assert_eq!(unpack(Some(any), "action"), Ok(action.clone()));
            assert_eq!(any.to_msg::<ddz::Action>(), Ok(action.clone()));
        }
        // The prefix cannot be shorter: a bare name has no `/`, and prost's reader (as
        // protobuf's `Any.Is`) refuses it.
        let bare = Any {
            type_url: "arena.ddz.v1.Action".into(),
            value: short.value.clone(),
        };
        assert!(bare.to_msg::<ddz::Action>().is_err());
    }

    /// A seat's observations through a long game, each repeating every event before its new
    /// one: the events are decoded once each, and each observation reads as the one-off
    /// reading does.
    #[test]
    fn a_seats_events_are_decoded_once_and_each_observation_reads_whole() {
        use crate::packages::arena::ddz::v1 as ddz;
        let event = |n: u32| ddz::Event {
            seat: n % 3,
            event: Some(ddz::event::Event::Play(format!("{n}"))),
        };
        let all: Vec<ddz::Event> = (0..120).map(event).collect();
        let wire = encode_events(&all);
        let envelope = |events: &[bytes::Bytes]| v1::Observation {
            game: Some(pack(&ddz::Observation {
                hand: "33".into(),
                ..Default::default()
            })),
            events: events.to_vec(),
            events_from: 0,
        };
        fn pick(o: &mut ddz::Observation) -> &mut Vec<ddz::Event> {
            &mut o.events
        }
        let mut seat = DecodedEvents::<ddz::Event>::default();
        for n in 1..=wire.len() {
            let e = envelope(&wire[..n]);
            let obs = seat.observation(&e, pick).unwrap();
            assert_eq!(obs, observation(&e, pick).unwrap(), "after {n} events");
            assert_eq!(obs.events.len(), n);
            seat.restore(obs, pick);
            assert_eq!(seat.len(), n);
            assert_eq!(seat.decodes(), n as u64, "only the new event is decoded");
        }
        // The same events copied into buffers of their own (a request resent whole) are
        // recognised by their bytes.
        let copied: Vec<bytes::Bytes> = wire
            .iter()
            .map(|b| bytes::Bytes::copy_from_slice(b))
            .collect();
        let obs = seat.observation(&envelope(&copied), pick).unwrap();
        assert_eq!(obs.events, all);
        seat.restore(obs, pick);
        assert_eq!(seat.decodes(), 120);
        // A history replaced (another run of the table): decoded again from where it differs.
        let mut other = wire[..10].to_vec();
        other.extend(encode_events(&[event(500), event(501)]));
        let obs = seat.observation(&envelope(&other), pick).unwrap();
        assert_eq!(obs.events[10..], [event(500), event(501)]);
        assert_eq!(seat.decodes(), 122);
        // Never given back: the next observation decodes everything again, and reads right.
        drop(obs);
        let obs = seat.observation(&envelope(&wire[..3]), pick).unwrap();
        assert_eq!(obs.events, all[..3]);
        assert_eq!(seat.decodes(), 125);
        seat.restore(obs, pick);
        // A bad event is named as the one-off reading names it; those before it are kept.
        let mut bad = wire[..5].to_vec();
        bad.push(bytes::Bytes::from_static(&[0xff]));
        let e = seat.observation(&envelope(&bad), pick).unwrap_err();
        assert_eq!(Err(e), observation(&envelope(&bad), pick));
        assert_eq!(seat.len(), 5);
        // An observation whose game message carries events of its own keeps them first.
        let mut own = envelope(&wire[..4]);
        own.game = Some(pack(&ddz::Observation {
            events: vec![event(900)],
            ..Default::default()
        }));
        let obs = seat.observation(&own, pick).unwrap();
        assert_eq!(obs, observation(&own, pick).unwrap());
        assert_eq!(obs.events[0], event(900));
        seat.restore(obs, pick);
        assert_eq!(seat.len(), 4);
        let obs = seat.observation(&envelope(&wire[..6]), pick).unwrap();
        assert_eq!(obs.events, all[..6]);
    }

    #[test]
    fn events_encode_one_by_one_and_read_back() {
        let sent: Vec<v1::Verdict> = (0..3)
            .map(|seat| v1::Verdict {
                seat,
                reason: "r".repeat(seat as usize),
                ..Default::default()
            })
            .collect();
        let wire = encode_events(&sent);
        assert_eq!(wire.len(), 3);
        assert_eq!(events::<v1::Verdict>(&wire), Ok(sent));
        let bad = [bytes::Bytes::from_static(&[0xff])];
        let e = events::<v1::Verdict>(&bad).unwrap_err();
        assert!(e.starts_with("observation event 0 does not decode"), "{e}");
    }
}
