//! Reading a competition's spec: checked, completed with defaults, and the plan it asks for.

use arena_games::{Competitions, GameKind};
use arena_proto::v1;
use arena_serve::ApiError;

/// A spec checked and completed with defaults, and the game that plans it.
pub(crate) struct Checked {
    pub(crate) spec: v1::CompetitionSpec,
    pub(crate) competitions: &'static dyn Competitions,
}

/// The game a spec is for (empty: the default game, as every spec before the field existed).
pub fn game_of(spec: &v1::CompetitionSpec) -> Result<GameKind, ApiError> {
    GameKind::from_wire(&spec.game).map_err(|why| ApiError::invalid("spec.game", why))
}

/// A game's refusal of a spec as the API's error.
pub(crate) fn spec_error(e: arena_games::competition::SpecError) -> ApiError {
    use arena_games::competition::SpecError;
    match e {
        SpecError::Invalid { field, why } => ApiError::invalid(field, why),
        SpecError::OutOfRange(why) => ApiError::OutOfRange(why),
        SpecError::Unavailable(why) => ApiError::FailedPrecondition(why),
    }
}

/// Longest competition name, in bytes.
pub const MAX_NAME_BYTES: usize = 128;
/// Most participants of one competition.
pub const MAX_PARTICIPANTS: usize = 256;
/// Longest bot name a competition may name, in bytes (a built-in spec with its parameters).
const MAX_BOT_BYTES: usize = 128;
/// The longest time control a table may have, per decision, in milliseconds.
pub const MAX_DECISION_MS: u32 = 600_000;
/// Default cap on the tables of one competition.
pub const DEFAULT_MAX_TABLES: u64 = 200_000;

pub(crate) fn check(
    spec: Option<v1::CompetitionSpec>,
    max_tables: u64,
) -> Result<Checked, ApiError> {
    let mut spec = spec.ok_or_else(|| ApiError::invalid("spec", "missing"))?;
    if spec.name.trim().is_empty() || spec.name.chars().any(|c| c.is_control() || c == '/') {
        return Err(ApiError::invalid(
            "spec.name",
            "must be non-empty, without '/' or control characters",
        ));
    }
    arena_proto::text::check_shown(&spec.name)
        .map_err(|why| ApiError::invalid("spec.name", why))?;
    if spec.name.len() > MAX_NAME_BYTES {
        return Err(ApiError::OutOfRange(format!(
            "spec.name: at most {MAX_NAME_BYTES} bytes"
        )));
    }
    if spec.participants.len() < 2 {
        return Err(ApiError::invalid(
            "spec.participants",
            "a competition needs at least two",
        ));
    }
    if spec.participants.len() > MAX_PARTICIPANTS {
        return Err(ApiError::OutOfRange(format!(
            "spec.participants: at most {MAX_PARTICIPANTS}, got {}",
            spec.participants.len()
        )));
    }
    for p in &spec.participants {
        if p.trim().is_empty() {
            return Err(ApiError::invalid("spec.participants", "an empty bot name"));
        }
        if let Err(why) = arena_proto::text::check_shown(p) {
            return Err(ApiError::invalid(
                "spec.participants",
                format!("bot name {} {why}", arena_proto::text::quote(p)),
            ));
        }
        if p.len() > MAX_BOT_BYTES || p.chars().any(char::is_control) {
            return Err(ApiError::invalid(
                "spec.participants",
                format!(
                    "bot names have at most {MAX_BOT_BYTES} bytes and no control characters: {}",
                    arena_proto::text::quote(p)
                ),
            ));
        }
    }
    if let Err(arena_store::StoreError::Invalid(why)) = arena_store::check_lane(&spec.lane) {
        return Err(ApiError::invalid("spec.lane", why));
    }
    if let Some(t) = &spec.time
        && (t.decision_ms > MAX_DECISION_MS
            || t.hard_cap_ms > MAX_DECISION_MS
            || t.claim_ms > MAX_DECISION_MS)
    {
        return Err(ApiError::OutOfRange(format!(
            "spec.time: decision_ms, claim_ms and hard_cap_ms at most {MAX_DECISION_MS}"
        )));
    }
    if v1::VerdictPolicy::try_from(spec.verdict_policy).is_err() {
        return Err(ApiError::invalid(
            "spec.verdict_policy",
            format!(
                "unknown policy {} (VERDICT_POLICY_FORFEIT or VERDICT_POLICY_PLAY_ON)",
                spec.verdict_policy
            ),
        ));
    }
    if let Some(t) = &spec.time
        && v1::PenaltyRounding::try_from(t.penalty_rounding).is_err()
    {
        return Err(ApiError::invalid(
            "spec.time.penalty_rounding",
            format!(
                "unknown rounding {} (PENALTY_ROUNDING_STARTED or PENALTY_ROUNDING_NEAREST)",
                t.penalty_rounding
            ),
        ));
    }
    if spec.seed == 0 {
        spec.seed = random_seed();
    }
    let game = game_of(&spec)?;
    spec.game = game.name().into();
    let Some(competitions) = game.game().competitions() else {
        return Err(ApiError::invalid(
            "spec.game",
            format!("{} has no competitions", game.name()),
        ));
    };
    if spec.matches == 0 {
        return Err(ApiError::invalid("spec.matches", "must be at least 1"));
    }
    competitions
        .check(&mut spec, max_tables)
        .map_err(spec_error)?;
    Ok(Checked { spec, competitions })
}

/// A random plan seed: the deals a competition draws must not be predictable.
fn random_seed() -> u64 {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        // Not secret, but still unpredictable enough to an outsider who cannot see the clock.
        return std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x5eed, |d| d.as_nanos() as u64);
    }
    u64::from_le_bytes(b).max(1)
}
