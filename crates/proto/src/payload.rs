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
        return Err(format!("{what} carries no game message (want {})", M::full_name()));
    };
    if !is::<M>(any) {
        let got = crate::text::cut(type_name(any));
        return Err(format!("{what} carries a {got:?}, not a {}", M::full_name()));
    }
    M::decode(any.value.as_slice())
        .map_err(|e| format!("{what}'s {} does not decode: {e}", M::full_name()))
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
        assert!(bad.starts_with("outcome's arena.v1.Verdict does not decode"), "{bad}");
    }
}
