//! Reading a competition's spec: checked, completed with defaults, and the plan it asks for.

use arena_compete::Format;
use arena_games::GameKind;
use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::v1;
use arena_serve::ApiError;

use crate::{format_name, format_of_name};

/// A spec checked and completed with defaults.
pub(crate) struct Checked {
    pub(crate) spec: v1::CompetitionSpec,
    pub(crate) plan: Plan,
}

/// How a checked competition's tables are made.
pub(crate) enum Plan {
    /// Dou Dizhu: deals planned from the library in `format`.
    Ddz {
        format: Format,
        panel: arena_deals::DdzPanel,
        bombs: u8,
        /// The rule set's typed kind and name, as table set-ups carry them.
        rules: (ddz_pb::Rules, &'static str),
    },
    /// A game that plans its competitions itself ([`arena_games::Competitions`]).
    Game(GameKind),
}

impl Plan {
    /// Whether the plan deals measured deals from the library (which it then claims).
    pub(crate) fn uses_library(&self) -> bool {
        matches!(
            self,
            Plan::Ddz {
                format: Format::EqualStrength { .. } | Format::DifficultyAdjusted,
                ..
            }
        )
    }
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
    if let Some(competitions) = game.competitions() {
        if spec.matches == 0 {
            return Err(ApiError::invalid("spec.matches", "must be at least 1"));
        }
        competitions
            .check(&mut spec, max_tables)
            .map_err(spec_error)?;
        return Ok(Checked {
            spec,
            plan: Plan::Game(game),
        });
    }
    if spec.matches == 0 || spec.rounds == 0 {
        return Err(ApiError::invalid(
            "spec.matches/spec.rounds",
            "must be at least 1",
        ));
    }
    if spec.farmers.trim().is_empty() {
        spec.farmers = "expert".into();
    }
    if spec.farmers.len() > MAX_BOT_BYTES {
        return Err(ApiError::invalid("spec.farmers", "not a bot name"));
    }
    if let Err(why) = arena_proto::text::check_shown(&spec.farmers) {
        return Err(ApiError::invalid(
            "spec.farmers",
            format!("not a bot name: it {why}"),
        ));
    }
    // Checked arithmetic: a competition's size is refused before anything is allocated for it.
    let sides: u64 = if spec.rotate_seats { 2 } else { 1 };
    let tables = (spec.participants.len() as u64)
        .checked_mul(u64::from(spec.matches))
        .and_then(|t| t.checked_mul(u64::from(spec.rounds)))
        .and_then(|t| t.checked_mul(sides));
    match tables {
        Some(t) if t <= max_tables => {}
        _ => {
            return Err(ApiError::OutOfRange(format!(
                "spec.matches × spec.rounds × participants{}: more than the {max_tables} tables a \
                 competition may have here",
                if spec.rotate_seats {
                    " × 2 (seat rotation)"
                } else {
                    ""
                }
            )));
        }
    }
    if let Some(t) = &spec.time
        && t.hard_cap_ms != 0
        && t.decision_ms > t.hard_cap_ms
    {
        return Err(ApiError::invalid(
            "spec.time",
            "decision_ms must not exceed hard_cap_ms",
        ));
    }
    if spec.centre.iter().any(|x| !x.is_finite()) || !spec.eps.is_finite() && spec.eps != 0.0 {
        return Err(ApiError::invalid(
            "spec.centre/spec.eps",
            "must be finite numbers",
        ));
    }
    let kind = match spec.format_kind() {
        v1::CompetitionFormat::Unspecified => format_of_name(&spec.format).ok_or_else(|| {
            ApiError::invalid(
                "spec.format",
                format!(
                    "{:?} (duplicate, equal-strength, random, difficulty-adjusted)",
                    spec.format
                ),
            )
        })?,
        typed => typed,
    };
    if !spec.format.is_empty() && format_of_name(&spec.format) != Some(kind) {
        return Err(ApiError::invalid(
            "spec.format",
            format!(
                "{:?} contradicts spec.format_kind {}",
                spec.format,
                format_name(kind)
            ),
        ));
    }
    spec.format_kind = kind as i32;
    spec.format = format_name(kind).to_string();
    let panel_spec = spec.panel.get_or_insert_with(|| v1::PanelSpec {
        landlords: "ladder:70".into(),
        ..Default::default()
    });
    if panel_spec.landlords.trim().is_empty() {
        panel_spec.landlords = "ladder:70".into();
    }
    let panel =
        arena_deals::batch::panel_of(panel_spec).map_err(|e| ApiError::invalid("spec.panel", e))?;
    if spec.bombs == 0 {
        spec.bombs = 1;
    }
    if spec.centre.len() > 64 {
        return Err(ApiError::OutOfRange(
            "spec.centre: at most 64 values".into(),
        ));
    }
    let bombs = u8::try_from(spec.bombs)
        .ok()
        .filter(|b| *b <= 14)
        .ok_or_else(|| ApiError::invalid("spec.bombs", "at most 14"))?;
    let format = match kind {
        v1::CompetitionFormat::Duplicate => Format::Duplicate,
        v1::CompetitionFormat::Random => Format::Random,
        v1::CompetitionFormat::DifficultyAdjusted => Format::DifficultyAdjusted,
        v1::CompetitionFormat::EqualStrength => {
            if spec.centre.is_empty() || spec.centre.iter().any(|x| !(0.0..=1.0).contains(x)) {
                return Err(ApiError::invalid(
                    "spec.centre",
                    "needs GDI values in [0, 1]",
                ));
            }
            if spec.eps.is_nan() || spec.eps <= 0.0 {
                return Err(ApiError::invalid("spec.eps", "must be positive"));
            }
            // A deal's GDI has a value per score level above the lowest.
            let dim = arena_deals::levels::gdi_dimension(panel.scoring, u32::from(bombs));
            if spec.centre.len() != dim {
                return Err(ApiError::invalid(
                    "spec.centre",
                    format!(
                        "deals with {bombs} bomb(s) have GDI vectors of {dim} values under {} \
                         scoring; the centre has {}",
                        panel.scoring,
                        spec.centre.len()
                    ),
                ));
            }
            Format::EqualStrength {
                centre: spec.centre.clone(),
                eps: spec.eps,
            }
        }
        v1::CompetitionFormat::Unspecified => {
            return Err(ApiError::invalid("spec.format", "missing"));
        }
    };
    let rules = rules_of(&spec, &format)?;
    spec.setup = Some(arena_proto::payload::pack(&ddz_pb::Setup {
        rules: rules.1.into(),
        rules_kind: rules.0 as i32,
        ..Default::default()
    }));
    Ok(Checked {
        spec,
        plan: Plan::Ddz {
            format,
            panel,
            bombs,
            rules,
        },
    })
}

/// The rule set a Dou Dizhu spec plays (its setup's `rules_kind` or `rules`; neither:
/// competition). A competition's setup names rules only: its tables' deals and seats are the
/// competition's. Measured formats play the rules their deals' difficulty was measured under,
/// the competition rules.
fn rules_of(
    spec: &v1::CompetitionSpec,
    format: &Format,
) -> Result<(ddz_pb::Rules, &'static str), ApiError> {
    use arena_games::ddz::names;
    let setup: ddz_pb::Setup = arena_games::competition::setup_in(spec).map_err(spec_error)?;
    let only_rules = ddz_pb::Setup {
        rules: setup.rules.clone(),
        rules_kind: setup.rules_kind,
        ..Default::default()
    };
    if setup != only_rules {
        return Err(ApiError::invalid(
            "spec.setup",
            "a Dou Dizhu competition's setup names its rules only (rules or rules_kind): the \
             competition deals and seats its tables",
        ));
    }
    let named = names::named_rules("spec.setup.rules", &setup.rules, setup.rules_kind)
        .map_err(|e| ApiError::invalid("spec.setup", e))?;
    let custom = setup.rules_kind == ddz_pb::Rules::Custom as i32
        || (named.is_none() && !setup.rules.trim().is_empty());
    let kind = named.map_or(ddz_pb::Rules::Competition, |(_, name)| {
        names::rules_kind(name)
    });
    if custom {
        return Err(ApiError::invalid(
            "spec.setup",
            "custom rule sets are not accepted in competitions (competition, douzero or \
             openspiel)",
        ));
    }
    let measured = matches!(
        format,
        Format::EqualStrength { .. } | Format::DifficultyAdjusted
    );
    if measured && kind != ddz_pb::Rules::Competition {
        return Err(ApiError::invalid(
            "spec.setup",
            format!(
                "{} competitions play the competition rules, under which the library measures \
                 difficulty; {} is for duplicate and random competitions",
                format.name(),
                names::rules_name(kind)
            ),
        ));
    }
    Ok((kind, names::rules_name(kind)))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_is_given_typed_or_by_name_and_both_are_filled_in() {
        let spec = |format: &str, kind: v1::CompetitionFormat| v1::CompetitionSpec {
            name: "cup".into(),
            format: format.into(),
            format_kind: kind as i32,
            participants: vec!["expert".into(), "seed".into()],
            matches: 1,
            rounds: 1,
            ..Default::default()
        };
        use v1::CompetitionFormat as F;
        for s in [
            spec("random", F::Unspecified),
            spec("", F::Random),
            spec("random", F::Random),
        ] {
            let c = check(Some(s), 100).expect("a valid spec");
            assert_eq!(
                (c.spec.format_kind(), c.spec.format.as_str()),
                (F::Random, "random")
            );
            assert!(matches!(
                c.plan,
                Plan::Ddz {
                    format: Format::Random,
                    ..
                }
            ));
        }
        let Err(e) = check(Some(spec("duplicate", F::Random)), 100) else {
            panic!("a contradiction is refused");
        };
        assert!(e.to_string().starts_with("spec.format"), "{e:?}");
        assert!(check(Some(spec("golf", F::Unspecified)), 100).is_err());
    }
}
