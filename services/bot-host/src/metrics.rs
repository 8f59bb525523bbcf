//! What bot-host adds to arena's metrics (see `arena_telemetry::metrics` and
//! `docs/observability.md`): remote bots connected, seats open, decisions relayed with their
//! latency, and the faults bot-host reports, each by the kind of bot behind the seat. All of it is
//! a no-op unless telemetry export is on.

use std::time::Instant;

use arena_proto::v1;
use arena_telemetry::metrics::{KeyValue, metrics};

/// The kind of bot behind a seat, as the `bot_kind` attribute names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum BotKind {
    /// A remote bot connected over `BotGateway.Play`.
    Remote,
    /// A bot program run as a child process.
    Program,
    /// A built-in bot run in bot-host.
    Builtin,
}

impl BotKind {
    fn label(self) -> &'static str {
        match self {
            BotKind::Remote => "remote",
            BotKind::Program => "program",
            BotKind::Builtin => "builtin",
        }
    }
}

/// The attributes of a decision relayed by bot-host: the `role` keeps them apart from the
/// referee's records of the same decisions.
fn decision_attrs(kind: BotKind) -> [KeyValue; 2] {
    [
        KeyValue::new("role", "bot-host"),
        KeyValue::new("bot_kind", kind.label()),
    ]
}

/// A decision relayed: the bot was asked at `asked` and its reply is leaving for the referee now.
pub(crate) fn relayed(kind: BotKind, asked: Instant) {
    let attrs = decision_attrs(kind);
    let m = metrics();
    m.decisions.add(1, &attrs);
    m.decision_latency_s
        .record(asked.elapsed().as_secs_f64(), &attrs);
}

/// The `kind` attribute of a fault, as the referee names verdicts (the one table in
/// [`arena_verdict`]).
fn fault_name(kind: v1::VerdictKind) -> &'static str {
    arena_verdict::VerdictKind::wire_name(kind as i32)
}

/// bot-host gave up on a seat with a fault of `kind`; `bot` is `None` (`bot_kind=unknown`) if the
/// seat's bot was not known yet.
pub(crate) fn fault(kind: v1::VerdictKind, bot: Option<BotKind>) {
    metrics().seat_faults.add(
        1,
        &[
            KeyValue::new("kind", fault_name(kind)),
            KeyValue::new("bot_kind", bot.map_or("unknown", BotKind::label)),
        ],
    );
}

/// Counts a seat as open (by the kind of its bot) until dropped.
pub(crate) struct OpenSeat(pub(crate) BotKind);

impl OpenSeat {
    /// Starts counting.
    pub(crate) fn new(kind: BotKind) -> OpenSeat {
        metrics()
            .seats_open
            .add(1, &[KeyValue::new("bot_kind", kind.label())]);
        OpenSeat(kind)
    }
}

impl Drop for OpenSeat {
    fn drop(&mut self) {
        metrics()
            .seats_open
            .add(-1, &[KeyValue::new("bot_kind", self.0.label())]);
    }
}

/// Counts a remote bot's connection as connected until dropped.
pub(crate) struct ConnectedBot(());

impl ConnectedBot {
    /// Starts counting.
    pub(crate) fn new() -> ConnectedBot {
        metrics().bots_connected.add(1, &[]);
        ConnectedBot(())
    }
}

impl Drop for ConnectedBot {
    fn drop(&mut self) {
        metrics().bots_connected.add(-1, &[]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fault_kinds_are_named_like_the_referees_verdicts() {
        assert_eq!(fault_name(v1::VerdictKind::Timeout), "timeout");
        assert_eq!(fault_name(v1::VerdictKind::Disconnected), "disconnected");
        assert_eq!(
            decision_attrs(BotKind::Program)[1].value.as_str(),
            "program"
        );
    }
}
