//! The one vocabulary of errors a role answers with, mapped to gRPC codes here and nowhere
//! else, with what a client may do about each.
//!
//! | error | gRPC code | a client may |
//! |---|---|---|
//! | [`ApiError::Invalid`] (a field of the request) | `INVALID_ARGUMENT` | not retry: fix the request |
//! | [`ApiError::OutOfRange`] (a size or count past a limit) | `OUT_OF_RANGE` | not retry: fix the request |
//! | [`ApiError::NotFound`] | `NOT_FOUND` | retry later if the thing may yet appear (a result not written yet) |
//! | [`ApiError::AlreadyExists`] | `ALREADY_EXISTS` | not retry: it is there |
//! | [`ApiError::FailedPrecondition`] | `FAILED_PRECONDITION` | retry once the state changed |
//! | [`ApiError::Aborted`] (a concurrent call got there first) | `ABORTED` | retry with backoff: the whole call, from the start |
//! | [`ApiError::Overloaded`] (load shed, a bot at capacity) | `UNAVAILABLE` | retry with backoff |
//! | [`ApiError::ResourceExhausted`] (the caller's own allowance: a stream it left unread, runs of one kind at once) | `RESOURCE_EXHAUSTED` | retry with backoff, once it freed some |
//! | [`ApiError::Unavailable`] (the store cannot be reached, the role is shutting down) | `UNAVAILABLE` | retry with backoff |
//! | [`ApiError::DeadlineExceeded`] | `DEADLINE_EXCEEDED` | retry with backoff if the call is idempotent |
//! | [`ApiError::Unimplemented`] (a game or feature this role does not run) | `UNIMPLEMENTED` | not retry: ask a role that does |
//! | [`ApiError::DataLoss`] (the store lost its data) | `DATA_LOSS` | not retry: an operator must restore the store or restart the role |
//! | [`ApiError::Internal`] (a corrupt record, a bug) | `INTERNAL` | not retry: report it |
//!
//! Authentication refusals (`UNAUTHENTICATED`, `PERMISSION_DENIED`, `RESOURCE_EXHAUSTED` for
//! too many failed attempts) are `arena_auth`'s (`arena_auth::refusal`); [`retry_of`] covers
//! every code.
//!
//! Store errors map as [`ApiError::from`] says: unreachable → `UNAVAILABLE`; an invalid request
//! → `INVALID_ARGUMENT` (the store's message as it is); a record that cannot be read back →
//! `INTERNAL` (retrying reads it again); data lost → `DATA_LOSS`. A record a role stored and
//! cannot decode is `INTERNAL` too.
//!
//! The client retry policy (what [`retry_of`] advises per code, whether a bot reconnects,
//! [`Backoff`]) is defined once in `arena_proto::retry`, re-exported here, so that the Rust SDK
//! and `arena load`'s bots use it without depending on a role's crate; the Python SDK mirrors it.
//!
//! The roles build every status they answer with from an [`ApiError`] (a role's own error type
//! converts into one); a test (`tests/one_vocabulary.rs`) keeps `Status` constructors out of
//! `services/*/src`.

use std::fmt::Display;

pub use arena_proto::retry::{Backoff, Retry, bot_reconnects, retry_of};
use arena_store::StoreError;
use tonic::{Code, Status};

/// Why a call failed, in the terms a client acts on. Each message names what is wrong (a
/// request field by its path, e.g. `spec.participants: …`). Convert with
/// [`ApiError::into_status`] (or `Status::from`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// A field of the request is wrong; the message names it ([`ApiError::invalid`]).
    #[error("{0}")]
    Invalid(String),
    /// A size or count is past a limit.
    #[error("{0}")]
    OutOfRange(String),
    /// The thing named does not exist (yet).
    #[error("{0}")]
    NotFound(String),
    /// The thing to create exists already.
    #[error("{0}")]
    AlreadyExists(String),
    /// The call does not fit the current state.
    #[error("{0}")]
    FailedPrecondition(String),
    /// A concurrent call changed what this one relied on (it claimed the same deals, resumed the
    /// same session); nothing of this call is left half done.
    #[error("{0}")]
    Aborted(String),
    /// The server (or the bot asked for) is at its limit right now.
    #[error("overloaded: {0}")]
    Overloaded(String),
    /// The caller used up an allowance of its own: it left its stream unread past the queue's
    /// bound, or runs as many operations of a kind as may run at once.
    #[error("{0}")]
    ResourceExhausted(String),
    /// Something the call needs cannot be reached now.
    #[error("{0}")]
    Unavailable(String),
    /// The call took longer than allowed.
    #[error("{0}")]
    DeadlineExceeded(String),
    /// This role does not do what was asked (a game it has no rules for).
    #[error("{0}")]
    Unimplemented(String),
    /// The store lost its data.
    #[error("{0}")]
    DataLoss(String),
    /// A bug or damaged data: nothing the client can change.
    #[error("{0}")]
    Internal(String),
}

impl ApiError {
    /// An [`ApiError::Invalid`] naming `field`: `{field}: {why}`.
    pub fn invalid(field: impl Display, why: impl Display) -> ApiError {
        ApiError::Invalid(format!("{field}: {why}"))
    }

    /// A store error with what failed in front, `{context}: {e}`, under the code
    /// [`ApiError::from`] gives it.
    pub fn store(context: impl Display, e: StoreError) -> ApiError {
        let message = format!("{context}: {e}");
        ApiError::from(e).with_message(message)
    }

    /// The same kind of error with another message.
    fn with_message(self, message: String) -> ApiError {
        match self {
            ApiError::Invalid(_) => ApiError::Invalid(message),
            ApiError::OutOfRange(_) => ApiError::OutOfRange(message),
            ApiError::NotFound(_) => ApiError::NotFound(message),
            ApiError::AlreadyExists(_) => ApiError::AlreadyExists(message),
            ApiError::FailedPrecondition(_) => ApiError::FailedPrecondition(message),
            ApiError::Aborted(_) => ApiError::Aborted(message),
            ApiError::Overloaded(_) => ApiError::Overloaded(message),
            ApiError::ResourceExhausted(_) => ApiError::ResourceExhausted(message),
            ApiError::Unavailable(_) => ApiError::Unavailable(message),
            ApiError::DeadlineExceeded(_) => ApiError::DeadlineExceeded(message),
            ApiError::Unimplemented(_) => ApiError::Unimplemented(message),
            ApiError::DataLoss(_) => ApiError::DataLoss(message),
            ApiError::Internal(_) => ApiError::Internal(message),
        }
    }

    /// The gRPC code of this error.
    pub fn code(&self) -> Code {
        match self {
            ApiError::Invalid(_) => Code::InvalidArgument,
            ApiError::OutOfRange(_) => Code::OutOfRange,
            ApiError::NotFound(_) => Code::NotFound,
            ApiError::AlreadyExists(_) => Code::AlreadyExists,
            ApiError::FailedPrecondition(_) => Code::FailedPrecondition,
            ApiError::Aborted(_) => Code::Aborted,
            ApiError::Overloaded(_) | ApiError::Unavailable(_) => Code::Unavailable,
            ApiError::ResourceExhausted(_) => Code::ResourceExhausted,
            ApiError::DeadlineExceeded(_) => Code::DeadlineExceeded,
            ApiError::Unimplemented(_) => Code::Unimplemented,
            ApiError::DataLoss(_) => Code::DataLoss,
            ApiError::Internal(_) => Code::Internal,
        }
    }

    /// What a client may do about it.
    pub fn retry(&self) -> Retry {
        retry_of(self.code())
    }

    /// The status to answer with.
    pub fn into_status(self) -> Status {
        Status::new(self.code(), self.to_string())
    }
}

impl From<ApiError> for Status {
    fn from(e: ApiError) -> Status {
        e.into_status()
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Invalid(m) => ApiError::Invalid(m),
            e @ (StoreError::Unavailable(_) | StoreError::InUse(_)) => {
                ApiError::Unavailable(e.to_string())
            }
            e @ StoreError::Corrupt { .. } => ApiError::Internal(e.to_string()),
            e @ StoreError::DataLoss(_) => ApiError::DataLoss(e.to_string()),
        }
    }
}

/// The status a store error is answered with (see the module documentation). An invalid
/// request keeps the store's message as it is.
pub fn store_status(e: StoreError) -> Status {
    ApiError::from(e).into_status()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_errors_map_to_one_code_each() {
        let code = |e| store_status(e).code();
        assert_eq!(
            code(StoreError::Unavailable("down".into())),
            Code::Unavailable
        );
        assert_eq!(
            code(StoreError::Invalid("empty id".into())),
            Code::InvalidArgument
        );
        assert_eq!(
            code(StoreError::Corrupt {
                key: "k".into(),
                reason: "bad".into()
            }),
            Code::Internal
        );
        assert_eq!(code(StoreError::DataLoss("gone".into())), Code::DataLoss);
        assert_eq!(
            store_status(StoreError::Invalid("empty id".into())).message(),
            "empty id"
        );
    }

    #[test]
    fn only_transient_errors_are_retried_with_backoff() {
        assert_eq!(ApiError::Overloaded("x".into()).retry(), Retry::WithBackoff);
        assert_eq!(
            ApiError::Unavailable("x".into()).retry(),
            Retry::WithBackoff
        );
        assert_eq!(ApiError::Internal("x".into()).retry(), Retry::Never);
        assert_eq!(ApiError::DataLoss("x".into()).retry(), Retry::Never);
        assert_eq!(ApiError::invalid("f", "bad").retry(), Retry::Never);
        assert_eq!(ApiError::invalid("f", "bad").to_string(), "f: bad");
        assert_eq!(
            ApiError::FailedPrecondition("x".into()).retry(),
            Retry::AfterChange
        );
    }

    /// Every variant with the code and retry advice the module's table gives it. The match
    /// makes a new variant fail to compile here until it is added.
    fn every_variant() -> Vec<(ApiError, Code, Retry)> {
        let all = vec![
            (
                ApiError::invalid("f", "bad"),
                Code::InvalidArgument,
                Retry::Never,
            ),
            (
                ApiError::OutOfRange("x".into()),
                Code::OutOfRange,
                Retry::Never,
            ),
            (
                ApiError::NotFound("x".into()),
                Code::NotFound,
                Retry::AfterChange,
            ),
            (
                ApiError::AlreadyExists("x".into()),
                Code::AlreadyExists,
                Retry::Never,
            ),
            (
                ApiError::FailedPrecondition("x".into()),
                Code::FailedPrecondition,
                Retry::AfterChange,
            ),
            (
                ApiError::Aborted("x".into()),
                Code::Aborted,
                Retry::WithBackoff,
            ),
            (
                ApiError::Overloaded("x".into()),
                Code::Unavailable,
                Retry::WithBackoff,
            ),
            (
                ApiError::ResourceExhausted("x".into()),
                Code::ResourceExhausted,
                Retry::WithBackoff,
            ),
            (
                ApiError::Unavailable("x".into()),
                Code::Unavailable,
                Retry::WithBackoff,
            ),
            (
                ApiError::DeadlineExceeded("x".into()),
                Code::DeadlineExceeded,
                Retry::WithBackoff,
            ),
            (
                ApiError::Unimplemented("x".into()),
                Code::Unimplemented,
                Retry::Never,
            ),
            (ApiError::DataLoss("x".into()), Code::DataLoss, Retry::Never),
            (ApiError::Internal("x".into()), Code::Internal, Retry::Never),
        ];
        for (e, _, _) in &all {
            match e {
                ApiError::Invalid(_)
                | ApiError::OutOfRange(_)
                | ApiError::NotFound(_)
                | ApiError::AlreadyExists(_)
                | ApiError::FailedPrecondition(_)
                | ApiError::Aborted(_)
                | ApiError::Overloaded(_)
                | ApiError::ResourceExhausted(_)
                | ApiError::Unavailable(_)
                | ApiError::DeadlineExceeded(_)
                | ApiError::Unimplemented(_)
                | ApiError::DataLoss(_)
                | ApiError::Internal(_) => {}
            }
        }
        all
    }

    #[test]
    fn each_error_has_its_code_and_retry_advice() {
        for (e, code, retry) in every_variant() {
            assert_eq!(e.code(), code, "{e:?}");
            assert_eq!(e.retry(), retry, "{e:?}");
            let status = e.clone().into_status();
            assert_eq!(status.code(), code, "{e:?}");
            assert_eq!(status.message(), e.to_string(), "{e:?}");
        }
    }

    /// `InvalidArgument` as the table writes it, `INVALID_ARGUMENT`.
    fn screaming(code: Code) -> String {
        let mut out = String::new();
        for (i, c) in format!("{code:?}").chars().enumerate() {
            if c.is_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_uppercase());
        }
        out
    }

    #[test]
    fn the_documented_table_is_the_code() {
        let rows: Vec<&str> = include_str!("error.rs")
            .lines()
            .filter(|l| l.starts_with("//! | [`ApiError::"))
            .collect();
        let all = every_variant();
        assert_eq!(rows.len(), all.len(), "one row per variant: {rows:#?}");
        for (e, code, retry) in all {
            let variant = format!("{e:?}");
            let variant = variant.split('(').next().unwrap();
            let row = rows
                .iter()
                .find(|r| r.starts_with(&format!("//! | [`ApiError::{variant}`]")))
                .unwrap_or_else(|| panic!("no row for {variant}"));
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            assert_eq!(cells[2], format!("`{}`", screaming(code)), "{row}");
            let advice = if cells[3].starts_with("not retry") {
                Retry::Never
            } else if cells[3].starts_with("retry with backoff") {
                Retry::WithBackoff
            } else {
                Retry::AfterChange
            };
            assert_eq!(advice, retry, "{row}");
        }
    }

    #[test]
    fn a_store_error_in_context_keeps_its_code_and_message() {
        let e = ApiError::store(
            "cannot look the bot up",
            StoreError::Corrupt {
                key: "k".into(),
                reason: "bad".into(),
            },
        );
        assert_eq!(e.code(), Code::Internal);
        assert_eq!(
            e.to_string(),
            "cannot look the bot up: corrupt store entry k: bad"
        );
        let e = ApiError::store("claim", StoreError::Unavailable("down".into()));
        assert_eq!(e.code(), Code::Unavailable);
        assert_eq!(e.to_string(), "claim: store unavailable: down");
    }
}
