//! The matchmaker (`arena.v1.Matchmaker`): competitions over gRPC.
//!
//! A competition is planned (equal-strength and difficulty-adjusted deals from the deal library,
//! claimed so no other competition gets them; duplicate and random ones fresh from the
//! competition's secret seed), and every table goes onto the job stream for the referees. Its definition and state live in the
//! store (record kind `competition`), so a restarted matchmaker — or another instance — picks it
//! up: [`supervise`] re-enqueues the tables of a competition whose enqueueing was interrupted
//! (results are written once per table, so a table enqueued twice still counts once) and finishes
//! it with a compare-and-swap from `running` to `finished`, which succeeds exactly once.
//!
//! Each game plans and ranks its own competitions ([`arena_games::Competitions`], reached
//! through the registry): the matchmaker checks what every competition shares, hands a game
//! dealt from the deal library its panel's measured deals, claims the deals planned, and
//! creates, queues, supervises and reports every competition the same way, whatever its game:
//! the supervisor only counts results against the tables planned.
//!
//! The continuous ranked ladder of connected remote bots is in [`ladder`]; its leaderboard is
//! served here. The same server answers `arena.v1.BotRegistry` ([`registry`]), so operators
//! register bots through a running matchmaker.

//!
//! The crate is laid out by responsibility: [`spec`] reads and checks a competition's spec,
//! [`plan`] turns it into table jobs and puts them on the stream, [`standings`] folds results
//! into standings, [`supervision`] finishes and repairs competitions, [`service`] is the gRPC
//! service, and [`serve`] its configuration and server.

pub mod ladder;
pub mod plan;
pub mod registry;
pub mod retention;
pub mod serve;
pub mod service;
pub mod spec;
pub mod standings;
pub mod supervision;

use arena_proto::v1;
use arena_store::visibility;

pub use self::serve::{
    DEFAULT_LISTEN, MatchmakerConfig, ServeError, serve_with_config, serve_with_listener,
};
pub use self::service::{MatchmakerService, WATCH_SHUTDOWN};
pub use self::spec::{
    DEFAULT_MAX_TABLES, MAX_DECISION_MS, MAX_NAME_BYTES, MAX_PARTICIPANTS, game_of,
};
pub use self::standings::standings;
pub use self::supervision::{supervise, supervise_once};

/// Record kind of competitions.
pub const COMPETITION: &str = visibility::COMPETITION_KIND;
/// Record kind of a competition whose tables are all on the job stream.
pub const ENQUEUED: &str = "competition-enqueued";
/// How long after creation a competition not yet marked enqueued counts as interrupted.
pub const ENQUEUE_GRACE_MS: u64 = 10_000;

/// Record kind of final standings.
pub const FINAL_STANDINGS: &str = "competition-standings";

pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A competition's state. Records written before the typed `status` existed say it only as
/// text (`state`), read here; anything unknown there is `Unspecified`.
pub fn state_of(c: &v1::Competition) -> v1::CompetitionState {
    use v1::CompetitionState as S;
    match c.status() {
        S::Unspecified => [S::Created, S::Running, S::Finished, S::Cancelled, S::Failed]
            .into_iter()
            .find(|s| state_name(*s) == c.state)
            .unwrap_or(S::Unspecified),
        typed => typed,
    }
}

/// A state's name, as `Competition.state` and the CLI show it (`running`, …).
pub fn state_name(state: v1::CompetitionState) -> &'static str {
    use v1::CompetitionState as S;
    match state {
        S::Unspecified => "",
        S::Created => "created",
        S::Running => "running",
        S::Finished => "finished",
        S::Cancelled => "cancelled",
        S::Failed => "failed",
    }
}

/// Sets a competition's state: the typed field and its name.
pub(crate) fn set_state(c: &mut v1::Competition, state: v1::CompetitionState) {
    c.status = state as i32;
    c.state = state_name(state).to_string();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_read_typed_and_from_the_text_of_old_records() {
        let mut c = v1::Competition::default();
        assert_eq!(state_of(&c), v1::CompetitionState::Unspecified);
        c.state = "finished".into();
        assert_eq!(
            state_of(&c),
            v1::CompetitionState::Finished,
            "an old record"
        );
        set_state(&mut c, v1::CompetitionState::Cancelled);
        assert_eq!(
            (state_of(&c), c.state.as_str()),
            (v1::CompetitionState::Cancelled, "cancelled")
        );
    }
}
