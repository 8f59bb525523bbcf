//! The protocol's typed names for Dou Dizhu's phases, rule sets, scoring modes and competition
//! formats, and the text fields they stand beside. Messages carry both (bots written against the
//! text keep working); a reader takes either and refuses the two when they disagree.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use ddz::{Phase, RuleSet, Scoring};

/// A phase as the protocol's enum.
pub fn phase_kind(phase: Phase) -> ddz_pb::Phase {
    match phase {
        Phase::Bidding => ddz_pb::Phase::Bidding,
        Phase::Doubling => ddz_pb::Phase::Doubling,
        Phase::Play => ddz_pb::Phase::Play,
        Phase::Over => ddz_pb::Phase::Over,
    }
}

/// A phase's name in the text field.
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Bidding => "bidding",
        Phase::Doubling => "doubling",
        Phase::Play => "play",
        Phase::Over => "over",
    }
}

/// The phase an observation states: its `phase_kind`, or its `phase` text when the kind is
/// unset; `field` names the message in errors.
pub fn phase_of(field: &str, name: &str, kind: i32) -> Result<Phase, String> {
    let by_name = match name.trim() {
        "" => None,
        "bidding" => Some(Phase::Bidding),
        "doubling" => Some(Phase::Doubling),
        "play" => Some(Phase::Play),
        "over" => Some(Phase::Over),
        other => {
            return Err(format!(
                "{field}.phase {other:?} is not a phase (bidding, doubling, play or over)"
            ));
        }
    };
    let by_kind = match ddz_pb::Phase::try_from(kind) {
        Ok(ddz_pb::Phase::Unspecified) => None,
        Ok(ddz_pb::Phase::Bidding) => Some(Phase::Bidding),
        Ok(ddz_pb::Phase::Doubling) => Some(Phase::Doubling),
        Ok(ddz_pb::Phase::Play) => Some(Phase::Play),
        Ok(ddz_pb::Phase::Over) => Some(Phase::Over),
        Err(_) => return Err(format!("{field}.phase_kind {kind} is not a phase")),
    };
    agree(field, "phase", name, (by_name, by_kind), phase_name)?
        .ok_or_else(|| format!("{field} states no phase (phase or phase_kind)"))
}

/// The rule sets a name stands for in the protocol, with their enum.
const RULE_SETS: [(ddz_pb::Rules, &str, RuleSet); 3] = [
    (
        ddz_pb::Rules::Competition,
        "competition",
        RuleSet::COMPETITION,
    ),
    (ddz_pb::Rules::Douzero, "douzero", RuleSet::DOUZERO),
    (ddz_pb::Rules::Openspiel, "openspiel", RuleSet::OPENSPIEL),
];

/// A rule-set name (`competition`, `douzero`, `openspiel`, or anything else for a custom set)
/// as the protocol's enum.
pub fn rules_kind(name: &str) -> ddz_pb::Rules {
    RULE_SETS
        .iter()
        .find(|(_, n, _)| *n == name)
        .map_or(ddz_pb::Rules::Custom, |(k, _, _)| *k)
}

/// A rule-set kind's name in the text field (`custom` for a set given by flags).
pub fn rules_name(kind: ddz_pb::Rules) -> &'static str {
    RULE_SETS
        .iter()
        .find(|(k, _, _)| *k == kind)
        .map_or("custom", |(_, n, _)| n)
}

/// The named rule set a message states: its typed `kind` or its `name` text (empty: neither;
/// `competition`, `default` and `rlcard` name the competition rules). `Ok(None)` when neither
/// is given; a custom kind or name is the caller's to read (only observations carry them).
pub fn named_rules(
    field: &str,
    name: &str,
    kind: i32,
) -> Result<Option<(RuleSet, &'static str)>, String> {
    let by_name = match name.trim() {
        "" => None,
        n => Some(
            RuleSet::by_name(n)
                .and_then(|r| RULE_SETS.iter().find(|(_, _, s)| *s == r))
                .map(|(k, _, _)| *k)
                .unwrap_or(ddz_pb::Rules::Custom),
        ),
    };
    let by_kind = match ddz_pb::Rules::try_from(kind) {
        Ok(ddz_pb::Rules::Unspecified) => None,
        Ok(k) => Some(k),
        Err(_) => return Err(format!("{field}.rules_kind {kind} is not a rule set")),
    };
    let kind = agree(field, "rules", name, (by_name, by_kind), rules_name)?;
    Ok(kind.and_then(|k| {
        RULE_SETS
            .iter()
            .find(|(rk, _, _)| *rk == k)
            .map(|(_, n, r)| (*r, *n))
    }))
}

/// The competition formats' names, which every game's competitions share.
pub use crate::competition::{format_name, format_of_name};

/// A scoring mode as the protocol's enum.
pub fn scoring_kind(scoring: Scoring) -> ddz_pb::Scoring {
    match scoring {
        Scoring::Competition => ddz_pb::Scoring::Competition,
        Scoring::Difficulty => ddz_pb::Scoring::Difficulty,
        Scoring::Adp => ddz_pb::Scoring::Adp,
        Scoring::Wp => ddz_pb::Scoring::Wp,
        Scoring::Botzone => ddz_pb::Scoring::Botzone,
        Scoring::BotzoneFtl => ddz_pb::Scoring::BotzoneFtl,
    }
}

/// The scoring mode a message states: its typed `kind` or its `name` text; `Ok(None)` when
/// neither is given. `field` names the text field in errors (e.g. `job.ddz.scoring`).
pub fn scoring_of(field: &str, name: &str, kind: i32) -> Result<Option<Scoring>, String> {
    let by_name = match name.trim() {
        "" => None,
        n => Some(n.parse::<Scoring>().map_err(|e| format!("{field}: {e}"))?),
    };
    let by_kind = match ddz_pb::Scoring::try_from(kind) {
        Ok(ddz_pb::Scoring::Unspecified) => None,
        Ok(ddz_pb::Scoring::Competition) => Some(Scoring::Competition),
        Ok(ddz_pb::Scoring::Difficulty) => Some(Scoring::Difficulty),
        Ok(ddz_pb::Scoring::Adp) => Some(Scoring::Adp),
        Ok(ddz_pb::Scoring::Wp) => Some(Scoring::Wp),
        Ok(ddz_pb::Scoring::Botzone) => Some(Scoring::Botzone),
        Ok(ddz_pb::Scoring::BotzoneFtl) => Some(Scoring::BotzoneFtl),
        Err(_) => return Err(format!("{field}_kind {kind} is not a scoring mode")),
    };
    agree(field, "", name, (by_name, by_kind), |s| s.name())
}

/// One value from a text field (as given: `text`) and its typed twin, which must not
/// contradict each other; `name` spells a typed value in errors.
fn agree<T: PartialEq + Copy>(
    field: &str,
    what: &str,
    text: &str,
    (by_name, by_kind): (Option<T>, Option<T>),
    name: impl Fn(T) -> &'static str,
) -> Result<Option<T>, String> {
    match (by_name, by_kind) {
        (Some(a), Some(b)) if a != b => {
            let field = if what.is_empty() {
                field.to_string()
            } else {
                format!("{field}.{what}")
            };
            Err(format!(
                "{field} says {:?} but {field}_kind says {}",
                text.trim(),
                name(b)
            ))
        }
        (a, b) => Ok(a.or(b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_kind_are_read_alike_and_must_agree() {
        let adp = ddz_pb::Scoring::Adp as i32;
        assert_eq!(scoring_of("s", "adp", 0), Ok(Some(Scoring::Adp)));
        assert_eq!(scoring_of("s", "", adp), Ok(Some(Scoring::Adp)));
        assert_eq!(scoring_of("s", "adp", adp), Ok(Some(Scoring::Adp)));
        assert_eq!(scoring_of("s", "", 0), Ok(None));
        let e = scoring_of("job.ddz.scoring", "wp", adp).unwrap_err();
        assert_eq!(
            e,
            "job.ddz.scoring says \"wp\" but job.ddz.scoring_kind says adp"
        );
        assert!(scoring_of("s", "", 99).unwrap_err().contains("99"));

        let play = ddz_pb::Phase::Play as i32;
        assert_eq!(phase_of("obs", "play", 0), Ok(Phase::Play));
        assert_eq!(phase_of("obs", "", play), Ok(Phase::Play));
        assert!(
            phase_of("obs", "over", play)
                .unwrap_err()
                .contains("obs.phase says \"over\"")
        );
        assert!(
            phase_of("obs", "", 0)
                .unwrap_err()
                .contains("states no phase")
        );

        let dz = ddz_pb::Rules::Douzero as i32;
        assert_eq!(
            named_rules("r", "", dz),
            Ok(Some((RuleSet::DOUZERO, "douzero")))
        );
        assert_eq!(
            named_rules("r", "rlcard", 0),
            Ok(Some((RuleSet::COMPETITION, "competition")))
        );
        assert_eq!(named_rules("r", "custom chain5", 0), Ok(None));
        assert_eq!(
            named_rules("r", "house", dz).unwrap_err(),
            "r.rules says \"house\" but r.rules_kind says douzero"
        );
    }

    #[test]
    fn every_mode_and_phase_keeps_its_name_on_the_wire() {
        for s in Scoring::ALL {
            let k = scoring_kind(s) as i32;
            assert_eq!(scoring_of("s", s.name(), k), Ok(Some(s)));
        }
        for p in [Phase::Bidding, Phase::Doubling, Phase::Play, Phase::Over] {
            assert_eq!(phase_of("o", phase_name(p), phase_kind(p) as i32), Ok(p));
        }
        for (k, n, _) in RULE_SETS {
            assert_eq!((rules_kind(n), rules_name(k)), (k, n));
        }
        assert_eq!(rules_kind("custom chain5"), ddz_pb::Rules::Custom);
    }
}
