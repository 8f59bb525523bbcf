//! The kinds of verdict a seat can get, whatever the game, and the one table of their names
//! (in metrics, logs, replays' text and JSON) and wire numbers (`arena.v1.VerdictKind`).
//! Depends on nothing but serde, so rules crates, bots, the protocol glue and the services all
//! use it.

use std::fmt;
use std::str::FromStr;

/// What went wrong with a seat's answer (or its bot).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    /// No answer before the hard deadline.
    Timeout,
    /// A well-formed answer that the rules refuse.
    Illegal,
    /// An answer that is not an action of the right kind (not a line of the protocol).
    Malformed,
    /// The connection to the bot was lost and not restored in time.
    Disconnected,
    /// The bot's program exited or could not be started.
    Crashed,
}

/// The name of a verdict whose kind is unspecified on the wire.
pub const UNSPECIFIED_NAME: &str = "fault";

/// Every kind, with its name and its wire number: the one table.
const TABLE: [(VerdictKind, &str, i32); 5] = [
    (VerdictKind::Timeout, "timeout", 1),
    (VerdictKind::Illegal, "illegal", 2),
    (VerdictKind::Malformed, "malformed", 3),
    (VerdictKind::Disconnected, "disconnected", 4),
    (VerdictKind::Crashed, "crashed", 5),
];

impl VerdictKind {
    /// Every kind, in wire order.
    pub const ALL: [VerdictKind; 5] = [
        VerdictKind::Timeout,
        VerdictKind::Illegal,
        VerdictKind::Malformed,
        VerdictKind::Disconnected,
        VerdictKind::Crashed,
    ];

    const fn row(self) -> (VerdictKind, &'static str, i32) {
        TABLE[self as usize]
    }

    /// A short name (`timeout`, `illegal`, …).
    pub const fn name(self) -> &'static str {
        self.row().1
    }

    /// Its number in `arena.v1.VerdictKind`.
    pub const fn wire(self) -> i32 {
        self.row().2
    }

    /// The kind of a wire number; `None` for unspecified (0) or unknown numbers.
    pub fn from_wire(n: i32) -> Option<VerdictKind> {
        TABLE.iter().find(|r| r.2 == n).map(|r| r.0)
    }

    /// The name of a wire number: [`UNSPECIFIED_NAME`] for unspecified or unknown numbers.
    pub fn wire_name(n: i32) -> &'static str {
        VerdictKind::from_wire(n).map_or(UNSPECIFIED_NAME, VerdictKind::name)
    }
}

impl fmt::Display for VerdictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no verdict kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVerdict(pub String);

impl fmt::Display for UnknownVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is no verdict kind (timeout, illegal, malformed, disconnected, crashed)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVerdict {}

impl FromStr for VerdictKind {
    type Err = UnknownVerdict;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TABLE
            .iter()
            .find(|r| r.1 == s)
            .map(|r| r.0)
            .ok_or_else(|| UnknownVerdict(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_variant_order_and_round_trips() {
        for (i, k) in VerdictKind::ALL.into_iter().enumerate() {
            assert_eq!(TABLE[i].0, k);
            assert_eq!(k.name().parse::<VerdictKind>(), Ok(k));
            assert_eq!(VerdictKind::from_wire(k.wire()), Some(k));
            let json = serde_json::to_string(&k).unwrap();
            assert_eq!(json, format!("\"{}\"", k.name()));
        }
        assert_eq!(VerdictKind::wire_name(0), "fault");
        assert_eq!(VerdictKind::wire_name(99), "fault");
        assert!("late".parse::<VerdictKind>().is_err());
    }
}
