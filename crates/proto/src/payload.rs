//! The envelopes' game payloads: an [`v1::Observation`](crate::v1::Observation),
//! [`v1::Action`](crate::v1::Action), [`v1::Outcome`](crate::v1::Outcome), a job's setup, a
//! replay's history carry the game's own message as a `google.protobuf.Any`. [`pack`] wraps one;
//! [`unpack`] reads one back with an error that names what was expected and what came.

use prost::Name;
pub use prost_types::Any;

/// `message` as an `Any` (its type URL `type.googleapis.com/<package>.<Message>`).
pub fn pack<M: Name>(message: &M) -> Any {
    Any {
        type_url: M::type_url(),
        value: prost::Message::encode_to_vec(message),
    }
}

/// Whether `any` holds a message of type `M` (by its type URL's last segment, as every
/// language's `Any.Is` compares).
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
    let mut o: O = unpack(envelope.game.as_ref(), "the observation")?;
    events(&mut o).extend(self::events::<E>(&envelope.events)?);
    Ok(o)
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
        .map(|(i, e)| {
            E::decode(e.as_ref())
                .map_err(|err| format!("observation event {i} does not decode: {err}"))
        })
        .collect()
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
        assert_eq!(any.type_url, "type.googleapis.com/arena.v1.Verdict");
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
            type_url: "type.googleapis.com/arena.v1.Verdict".into(),
            value: vec![0xff, 0xff],
        };
        let bad = unpack::<v1::Verdict>(Some(&garbage), "outcome").unwrap_err();
        assert!(
            bad.starts_with("outcome's arena.v1.Verdict does not decode"),
            "{bad}"
        );
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
