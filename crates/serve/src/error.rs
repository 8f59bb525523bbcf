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
//! | [`ApiError::Overloaded`] (load shed, a bot at capacity) | `UNAVAILABLE` | retry with backoff |
//! | [`ApiError::Unavailable`] (the store cannot be reached) | `UNAVAILABLE` | retry with backoff |
//! | [`ApiError::DeadlineExceeded`] | `DEADLINE_EXCEEDED` | retry with backoff if the call is idempotent |
//! | [`ApiError::DataLoss`] (the store lost its data) | `DATA_LOSS` | not retry: an operator must restore the store or restart the role |
//! | [`ApiError::Internal`] (a corrupt record, a bug) | `INTERNAL` | not retry: report it |
//!
//! Authentication refusals (`UNAUTHENTICATED`, `PERMISSION_DENIED`, `RESOURCE_EXHAUSTED` for
//! too many failed attempts) are `arena_auth`'s; [`retry_of`] covers every code.
//!
//! Store errors map as [`ApiError::from`] says: unreachable → `UNAVAILABLE`; an invalid request
//! → `INVALID_ARGUMENT`; a record that cannot be read back → `INTERNAL` (retrying reads it
//! again); data lost → `DATA_LOSS`.

use arena_store::StoreError;
use tonic::{Code, Status};

/// Why a call failed, in the terms a client acts on. Convert with [`ApiError::into_status`] (or
/// `Status::from`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// A field of the request is wrong.
    #[error("{field}: {why}")]
    Invalid {
        /// The field, e.g. `spec.participants`.
        field: String,
        /// What is wrong with it.
        why: String,
    },
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
    /// The server (or the bot asked for) is at its limit right now.
    #[error("overloaded: {0}")]
    Overloaded(String),
    /// Something the call needs cannot be reached now.
    #[error("{0}")]
    Unavailable(String),
    /// The call took longer than allowed.
    #[error("{0}")]
    DeadlineExceeded(String),
    /// The store lost its data.
    #[error("{0}")]
    DataLoss(String),
    /// A bug or damaged data: nothing the client can change.
    #[error("{0}")]
    Internal(String),
}

/// What a client may do about a failed call.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Retry {
    /// Retrying the same call cannot help.
    Never,
    /// The same call may succeed later: retry with (exponential) backoff.
    WithBackoff,
    /// The same call may succeed once something else changed (the state, a credential).
    AfterChange,
}

impl ApiError {
    /// An [`ApiError::Invalid`] naming `field`.
    pub fn invalid(field: impl Into<String>, why: impl std::fmt::Display) -> ApiError {
        ApiError::Invalid {
            field: field.into(),
            why: why.to_string(),
        }
    }

    /// The gRPC code of this error.
    pub fn code(&self) -> Code {
        match self {
            ApiError::Invalid { .. } => Code::InvalidArgument,
            ApiError::OutOfRange(_) => Code::OutOfRange,
            ApiError::NotFound(_) => Code::NotFound,
            ApiError::AlreadyExists(_) => Code::AlreadyExists,
            ApiError::FailedPrecondition(_) => Code::FailedPrecondition,
            ApiError::Overloaded(_) | ApiError::Unavailable(_) => Code::Unavailable,
            ApiError::DeadlineExceeded(_) => Code::DeadlineExceeded,
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
            StoreError::Invalid(m) => ApiError::Invalid {
                field: "request".into(),
                why: m,
            },
            e @ StoreError::Unavailable(_) => ApiError::Unavailable(e.to_string()),
            e @ StoreError::Corrupt { .. } => ApiError::Internal(e.to_string()),
            e @ StoreError::DataLoss(_) => ApiError::DataLoss(e.to_string()),
        }
    }
}

/// The status a store error is answered with (see the module documentation). An invalid
/// request keeps the store's message as it is.
pub fn store_status(e: StoreError) -> Status {
    match e {
        StoreError::Invalid(m) => Status::invalid_argument(m),
        other => ApiError::from(other).into_status(),
    }
}

/// What a client may do about a call that failed with `code`.
pub fn retry_of(code: Code) -> Retry {
    match code {
        Code::Unavailable | Code::DeadlineExceeded | Code::Aborted | Code::ResourceExhausted => {
            Retry::WithBackoff
        }
        Code::NotFound
        | Code::FailedPrecondition
        | Code::Unauthenticated
        | Code::PermissionDenied => Retry::AfterChange,
        Code::Ok
        | Code::Cancelled
        | Code::Unknown
        | Code::InvalidArgument
        | Code::AlreadyExists
        | Code::OutOfRange
        | Code::Unimplemented
        | Code::Internal
        | Code::DataLoss => Retry::Never,
    }
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
}
