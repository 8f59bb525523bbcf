//! The statuses a refused caller gets, for the checks made outside [`crate::AuthLayer`] as well
//! (bot-host checks a bot's token against the bot its `Hello` names, on the stream, and ends a
//! session whose token was rotated): one code for each kind of refusal, wherever the check runs.
//! Every other status a role answers with is an `arena_serve::ApiError`.

use std::time::Duration;

use tonic::Status;

/// The caller did not prove who it is (no token, a malformed one, one that does not match, or
/// one revoked meanwhile): `UNAUTHENTICATED`, saying what to send.
pub fn unauthenticated(why: impl Into<String>) -> Status {
    Status::unauthenticated(why)
}

/// The caller may not call this, whoever it is: `PERMISSION_DENIED`.
pub fn permission_denied(why: impl Into<String>) -> Status {
    Status::permission_denied(why)
}

/// Too many failed attempts from the caller's address: `RESOURCE_EXHAUSTED` with the wait.
pub fn too_many_attempts(wait: Duration) -> Status {
    Status::resource_exhausted(format!(
        "too many failed authentication attempts from this address; retry in {} s",
        wait.as_secs().max(1)
    ))
}
