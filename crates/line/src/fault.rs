//! The one fault of a seat, for every host and the runner alike: a program's (what this crate's
//! supervisor and line protocols find), a remote bot's (what bot-host reports), and an answer
//! the rules refuse (what the runner judges). Its verdict names come from the one table in
//! [`arena_verdict`].

use std::fmt;

use arena_proto::v1;

/// The most characters of a verdict's detail ([`Fault::detail`]).
pub const DETAIL_CHARS: usize = 1000;

/// An answer the rules cannot use: a verdict kind and a sentence a human can act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// [`v1::VerdictKind::Malformed`] for an answer that is not an action of the right kind,
    /// [`v1::VerdictKind::Illegal`] for a well-formed action the rules refuse, and the other
    /// kinds for seats that failed (timeout, disconnected, crashed).
    pub kind: v1::VerdictKind,
    /// What exactly was wrong. It is shown to every seat when the table closes, so it never
    /// holds hidden cards.
    pub reason: String,
    /// The whole report when `reason` is a cut of it (empty otherwise): kept in the verdict's
    /// `detail`, which results and replays carry but the seats are never sent.
    pub detail: String,
}

impl Fault {
    /// A fault of `kind` explained by `reason`.
    pub fn new(kind: v1::VerdictKind, reason: impl Into<String>) -> Fault {
        Fault {
            kind,
            reason: reason.into(),
            detail: String::new(),
        }
    }

    /// A fault of `kind` whose report `whole` (from bot-host: what a program wrote, a crash's
    /// exit status, limits and stderr) is cut to [`arena_proto::text::QUOTE_CHARS`] for the
    /// reason, and kept whole, up to [`DETAIL_CHARS`], as the detail when that cut it.
    pub fn reported(kind: v1::VerdictKind, whole: &str) -> Fault {
        let reason = arena_proto::text::cut(whole);
        let detail = if reason == whole {
            String::new()
        } else {
            whole.chars().take(DETAIL_CHARS).collect()
        };
        Fault {
            kind,
            reason,
            detail,
        }
    }

    /// An answer that is not an action of the right kind.
    pub fn malformed(reason: impl Into<String>) -> Fault {
        Fault::new(v1::VerdictKind::Malformed, reason)
    }

    /// A well-formed action the rules refuse.
    pub fn illegal(reason: impl Into<String>) -> Fault {
        Fault::new(v1::VerdictKind::Illegal, reason)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", verdict_name(self.kind), self.reason)
    }
}

/// A short name for a verdict kind (`timeout`, `illegal`, …; `fault` when unspecified), from
/// the one table in [`arena_verdict`].
pub fn verdict_name(kind: v1::VerdictKind) -> &'static str {
    arena_verdict::VerdictKind::wire_name(kind as i32)
}

#[cfg(test)]
mod verdict_names {
    use super::*;

    #[test]
    fn every_protocol_verdict_kind_has_its_name_and_number() {
        for k in arena_verdict::VerdictKind::ALL {
            let wire = v1::VerdictKind::try_from(k.wire()).unwrap();
            assert_eq!(verdict_name(wire), k.name());
            assert_eq!(
                format!("{wire:?}").to_lowercase(),
                k.name(),
                "wire number {} of {k}",
                k.wire()
            );
        }
        assert_eq!(verdict_name(v1::VerdictKind::Unspecified), "fault");
    }

    #[test]
    fn a_long_report_is_cut_for_the_reason_and_kept_as_the_detail() {
        let whole = "x".repeat(2 * arena_proto::text::QUOTE_CHARS);
        let f = Fault::reported(v1::VerdictKind::Crashed, &whole);
        assert!(f.reason.chars().count() <= arena_proto::text::QUOTE_CHARS + 1);
        assert_eq!(f.detail, whole);
        let short = Fault::reported(v1::VerdictKind::Crashed, "exit code 3");
        assert_eq!(
            (short.reason.as_str(), short.detail.as_str()),
            ("exit code 3", "")
        );
        assert_eq!(short.to_string(), "crashed: exit code 3");
    }
}
