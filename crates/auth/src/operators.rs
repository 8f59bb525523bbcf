//! Operator tokens: `arena operators add NAME` issues one (printed once), the store keeps its
//! SHA-256 under the token's own id (record kind [`OPERATOR_KIND`]), `arena operators remove
//! NAME` revokes it.
//!
//! A token reads `aop.<id>.<secret>`: the id (12 characters) names the record, the secret (43
//! characters, 32 random bytes) is what is hashed. Checking a token is one store read and one
//! hash, whatever the number of operators; a token whose id is unknown and one whose secret is
//! wrong are refused alike.

use arena_store::Store;

use crate::AuthError;
use crate::token::{hash_token, random_text, token_matches};

/// Record kind of operator tokens (key: the token id).
pub const OPERATOR_KIND: &str = "operator";

/// What every operator token starts with.
pub const PREFIX: &str = "aop";

/// Random bytes of a token id.
const ID_BYTES: usize = 9;

/// Longest operator name.
pub const MAX_NAME_CHARS: usize = 64;

/// An operator token as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OperatorRecord {
    /// Who holds it (for logs: every operator call is logged with it).
    pub name: String,
    /// SHA-256 of the secret part, hex.
    pub token_sha256: String,
    /// When it was issued, Unix milliseconds.
    pub created_unix_ms: u64,
}

/// A token just issued: give `token` to the operator (it is shown once).
#[derive(Debug)]
pub struct Issued {
    /// The token id (also shown by `arena operators list`).
    pub id: String,
    /// The whole token.
    pub token: crate::Secret,
}

/// Splits `aop.<id>.<secret>` into (id, secret); `None` for anything else.
pub fn parse(token: &str) -> Option<(&str, &str)> {
    let rest = token.strip_prefix(PREFIX)?.strip_prefix('.')?;
    let (id, secret) = rest.split_once('.')?;
    let ok = |s: &str, n: usize| {
        s.len() == n
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    (ok(id, 12) && ok(secret, 43)).then_some((id, secret))
}

/// Checks an operator name: 1 to 64 characters of letters, digits, `.`, `_`, `-`.
pub fn check_name(name: &str) -> Result<(), AuthError> {
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(AuthError::Invalid(format!(
            "operator name {:?} must be 1 to {MAX_NAME_CHARS} letters, digits, '.', '_' or '-'",
            name.chars().take(MAX_NAME_CHARS + 1).collect::<String>()
        )))
    }
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// Issues a token for `name` (names are unique: a taken name is refused).
pub async fn add(store: &dyn Store, name: &str) -> Result<Issued, AuthError> {
    check_name(name)?;
    if list(store).await?.iter().any(|(_, r)| r.name == name) {
        return Err(AuthError::Invalid(format!(
            "an operator named {name:?} exists; remove it first to issue a new token"
        )));
    }
    let id = random_text(ID_BYTES)?;
    let secret = random_text(crate::token::TOKEN_BYTES)?;
    let record = OperatorRecord {
        name: name.to_string(),
        token_sha256: hash_token(&secret),
        created_unix_ms: now_ms(),
    };
    let value = serde_json::to_vec(&record)
        .map_err(|e| AuthError::Invalid(format!("cannot encode the operator record: {e}")))?;
    if !store.swap_record(OPERATOR_KIND, &id, None, &value).await? {
        return Err(AuthError::Invalid(
            "a freshly drawn token id is taken (try again)".into(),
        ));
    }
    Ok(Issued {
        token: crate::Secret::new(format!("{PREFIX}.{id}.{secret}")),
        id,
    })
}

/// Every operator token: (id, record), by id. Records that do not decode are skipped (and
/// logged): they can authenticate nobody.
pub async fn list(store: &dyn Store) -> Result<Vec<(String, OperatorRecord)>, AuthError> {
    let mut out = Vec::new();
    for (id, bytes) in store.records(OPERATOR_KIND).await? {
        match serde_json::from_slice::<OperatorRecord>(&bytes) {
            Ok(r) => out.push((id, r)),
            Err(e) => tracing::warn!(id, error = %e, "an operator record does not decode"),
        }
    }
    Ok(out)
}

/// Revokes every token of `name`; how many there were.
pub async fn remove(store: &dyn Store, name: &str) -> Result<usize, AuthError> {
    let mut n = 0;
    for (id, r) in list(store).await? {
        if r.name == name && store.delete_record(OPERATOR_KIND, &id).await? {
            n += 1;
        }
    }
    Ok(n)
}

/// The operator holding `token`, if it is a valid operator token: one record read and one hash.
pub async fn verify(store: &dyn Store, token: &str) -> Result<Option<String>, AuthError> {
    let Some((id, secret)) = parse(token) else {
        return Ok(None);
    };
    let Some(bytes) = store.record(OPERATOR_KIND, id).await? else {
        // Hash anyway, so an unknown id costs what a wrong secret costs.
        let _ = hash_token(secret);
        return Ok(None);
    };
    let Ok(record) = serde_json::from_slice::<OperatorRecord>(&bytes) else {
        return Ok(None);
    };
    Ok(token_matches(secret, &record.token_sha256).then_some(record.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_parse_only_in_their_own_shape() {
        let t = format!("aop.{}.{}", "a".repeat(12), "b".repeat(43));
        assert_eq!(parse(&t), Some(("aaaaaaaaaaaa", &"b".repeat(43)[..])));
        for bad in [
            "aop.x.y".to_string(),
            format!("aop.{}.{}", "a".repeat(12), "b".repeat(42)),
            format!("aop.{}.{}.c", "a".repeat(12), "b".repeat(43)),
            format!("bot.{}.{}", "a".repeat(12), "b".repeat(43)),
            "".into(),
        ] {
            assert_eq!(parse(&bad), None, "{bad}");
        }
    }

    #[test]
    fn names_are_checked() {
        check_name("alice-ops.1").unwrap();
        for bad in ["", "a b", "é", &"x".repeat(65)] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }
}
