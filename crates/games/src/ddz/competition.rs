//! Dou Dizhu's competitions, planned through the registry's [`Competitions`]: `n` tables, each
//! with its participant as the landlord against the same farmer bots (and, with seat rotation,
//! the participant in both farmer seats on the same cards), `matches × rounds` deals per table
//! handed out by a [`Format`]: fresh from the competition's secret seed (duplicate, random), or
//! measured deals from the deal library (equal-strength, difficulty-adjusted). Standings give
//! every participant's probability of every place, as the equal-strength paper reports them.

use std::collections::BTreeMap;

use arena_proto::v1;
use arena_store::DealSource;
use arena_store::visibility::DEAL_GROUP_LABEL;

use super::format::{Format, PlanError, Reuse, Shape};
use super::levels::gdi_dimension;
use super::panel::{DdzPanel, panel_of};
use super::rank::Standings as Ranks;
use super::{names, pb};
use crate::competition::{
    Competitions, Fold, Library, SpecError, Standings, format_name, format_of_name, index, setup_in,
};

/// How a refusal for want of measured deals begins (`FAILED_PRECONDITION`): clients that can
/// ask the deal library for the missing deals (`arena competition create`, the console's form)
/// look for it.
pub const NOT_ENOUGH_DEALS: &str = "not enough measured deals";

/// The equal-strength centre a competition gets when it names none: deals of one bomb under
/// difficulty scoring (GDI vectors of three values) that the landlord wins at the lowest level
/// almost always, at the next about half the time, at the highest rarely.
pub const DEFAULT_CENTRE: [f64; 3] = [0.95, 0.55, 0.15];

/// The equal-strength radius a competition gets when it names none.
pub const DEFAULT_EPS: f64 = 0.15;

/// The format a competition that names none plays: the one the arena exists for.
pub const DEFAULT_FORMAT: v1::CompetitionFormat = v1::CompetitionFormat::EqualStrength;

/// The farmer bots a competition that names none seats.
pub const DEFAULT_FARMERS: &str = "expert";

/// The measuring panel a competition that names none draws its measured deals from.
pub const DEFAULT_PANEL: &str = "ladder:70";

/// The centre an equal-strength competition of deals with `bombs` bombs under `scoring` gets
/// when it names none: [`DEFAULT_CENTRE`] where GDI vectors have its three values, else `None`
/// (the competition must name one, of [`gdi_dimension`] values).
pub fn default_centre(scoring: super::rules::Scoring, bombs: u32) -> Option<Vec<f64>> {
    (gdi_dimension(scoring, bombs.max(1)) == DEFAULT_CENTRE.len()).then(|| DEFAULT_CENTRE.to_vec())
}

/// The `side` label of the table where the participant is landlord.
pub const LANDLORD_SIDE: &str = "landlord";
/// The `side` label of the table where the participant holds both farmer seats (seat rotation).
pub const FARMER_SIDE: &str = "farmers";

/// The `side` label operators see for a side (programs read [`v1::Placement::side`]).
pub fn side_label(side: v1::Side) -> &'static str {
    match side {
        v1::Side::Farmers => FARMER_SIDE,
        v1::Side::Landlord | v1::Side::Unspecified => LANDLORD_SIDE,
    }
}

/// The table id of table `t` in round `r` of match `m` (with seat rotation, the participant's
/// farmer table adds `/f`).
pub fn table_id(name: &str, m: usize, r: usize, t: usize) -> String {
    format!("{name}/m{m}/r{r}/t{t}")
}

/// Longest farmer bot name, in bytes (as the matchmaker bounds participants' names).
const MAX_BOT_BYTES: usize = 128;

/// What a checked Dou Dizhu spec asks for, read from it.
struct Plan {
    format: Format,
    panel: DdzPanel,
    bombs: u8,
    /// The rule set's typed kind and name, as table set-ups carry them.
    rules: (pb::Rules, &'static str),
}

impl Plan {
    /// Whether the plan deals measured deals from the library (which it then claims).
    fn measured(&self) -> bool {
        self.format.is_measured()
    }
}

/// The plan of a checked spec (checking it again changes nothing).
fn plan_of(spec: &v1::CompetitionSpec) -> Result<Plan, SpecError> {
    read(&mut spec.clone(), u64::MAX)
}

/// Checks `spec`'s Dou Dizhu part, fills in its defaults, and reads its plan.
fn read(spec: &mut v1::CompetitionSpec, max_tables: u64) -> Result<Plan, SpecError> {
    if spec.rounds == 0 {
        return Err(SpecError::invalid("spec.rounds", "must be at least 1"));
    }
    if spec.farmers.trim().is_empty() {
        spec.farmers = DEFAULT_FARMERS.into();
    }
    if spec.farmers.len() > MAX_BOT_BYTES {
        return Err(SpecError::invalid("spec.farmers", "not a bot name"));
    }
    if let Err(why) = arena_proto::text::check_shown(&spec.farmers) {
        return Err(SpecError::invalid(
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
            return Err(SpecError::OutOfRange(format!(
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
        return Err(SpecError::invalid(
            "spec.time",
            "decision_ms must not exceed hard_cap_ms",
        ));
    }
    if spec.centre.iter().any(|x| !x.is_finite()) || !spec.eps.is_finite() && spec.eps != 0.0 {
        return Err(SpecError::invalid(
            "spec.centre/spec.eps",
            "must be finite numbers",
        ));
    }
    let kind = match spec.format_kind() {
        v1::CompetitionFormat::Unspecified if spec.format.trim().is_empty() => DEFAULT_FORMAT,
        v1::CompetitionFormat::Unspecified => format_of_name(&spec.format).ok_or_else(|| {
            SpecError::invalid(
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
        return Err(SpecError::invalid(
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
        landlords: DEFAULT_PANEL.into(),
        ..Default::default()
    });
    if panel_spec.landlords.trim().is_empty() {
        panel_spec.landlords = DEFAULT_PANEL.into();
    }
    let panel = panel_of(panel_spec).map_err(|e| SpecError::invalid("spec.panel", e))?;
    if spec.bombs == 0 {
        spec.bombs = 1;
    }
    if spec.centre.len() > 64 {
        return Err(SpecError::OutOfRange(
            "spec.centre: at most 64 values".into(),
        ));
    }
    let bombs = u8::try_from(spec.bombs)
        .ok()
        .filter(|b| *b <= 14)
        .ok_or_else(|| SpecError::invalid("spec.bombs", "at most 14"))?;
    let format = match kind {
        v1::CompetitionFormat::Duplicate => Format::Duplicate,
        v1::CompetitionFormat::Random => Format::Random,
        v1::CompetitionFormat::DifficultyAdjusted => Format::DifficultyAdjusted,
        v1::CompetitionFormat::EqualStrength => {
            if spec.centre.is_empty()
                && let Some(centre) = default_centre(panel.scoring, u32::from(bombs))
            {
                spec.centre = centre;
            }
            if spec.eps == 0.0 {
                spec.eps = DEFAULT_EPS;
            }
            if spec.centre.is_empty() || spec.centre.iter().any(|x| !(0.0..=1.0).contains(x)) {
                return Err(SpecError::invalid(
                    "spec.centre",
                    "needs GDI values in [0, 1]",
                ));
            }
            if spec.eps.is_nan() || spec.eps <= 0.0 {
                return Err(SpecError::invalid("spec.eps", "must be positive"));
            }
            // A deal's GDI has a value per score level above the lowest.
            let dim = gdi_dimension(panel.scoring, u32::from(bombs));
            if spec.centre.len() != dim {
                return Err(SpecError::invalid(
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
            return Err(SpecError::invalid("spec.format", "missing"));
        }
    };
    let rules = rules_of(spec, &format)?;
    spec.setup = Some(arena_proto::payload::pack(&pb::Setup {
        rules: rules.1.into(),
        rules_kind: rules.0 as i32,
        ..Default::default()
    }));
    Ok(Plan {
        format,
        panel,
        bombs,
        rules,
    })
}

/// The rule set a spec plays (its setup's `rules_kind` or `rules`; neither: competition). A
/// competition's setup names rules only: its tables' deals and seats are the competition's.
/// Measured formats play the rules their deals' difficulty was measured under, the competition
/// rules.
fn rules_of(
    spec: &v1::CompetitionSpec,
    format: &Format,
) -> Result<(pb::Rules, &'static str), SpecError> {
    let setup: pb::Setup = setup_in(spec)?;
    let only_rules = pb::Setup {
        rules: setup.rules.clone(),
        rules_kind: setup.rules_kind,
        ..Default::default()
    };
    if setup != only_rules {
        return Err(SpecError::invalid(
            "spec.setup",
            "a Dou Dizhu competition's setup names its rules only (rules or rules_kind): the \
             competition deals and seats its tables",
        ));
    }
    let named = names::named_rules("spec.setup.rules", &setup.rules, setup.rules_kind)
        .map_err(|e| SpecError::invalid("spec.setup", e))?;
    let custom = setup.rules_kind == pb::Rules::Custom as i32
        || (named.is_none() && !setup.rules.trim().is_empty());
    let kind = named.map_or(pb::Rules::Competition, |(_, name)| names::rules_kind(name));
    if custom {
        return Err(SpecError::invalid(
            "spec.setup",
            "custom rule sets are not accepted in competitions (competition, douzero or \
             openspiel)",
        ));
    }
    if format.is_measured() && kind != pb::Rules::Competition {
        return Err(SpecError::invalid(
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

impl Competitions for super::DouDizhu {
    fn check(&self, spec: &mut v1::CompetitionSpec, max_tables: u64) -> Result<(), SpecError> {
        read(spec, max_tables).map(drop)
    }

    fn bots<'s>(&self, spec: &'s v1::CompetitionSpec) -> Vec<(&'static str, &'s str)> {
        spec.participants
            .iter()
            .map(|p| ("spec.participants", p.as_str()))
            .chain([("spec.farmers", spec.farmers.as_str())])
            .collect()
    }

    fn library(&self, spec: &v1::CompetitionSpec) -> Option<String> {
        plan_of(spec)
            .ok()
            .filter(Plan::measured)
            .map(|p| p.panel.id)
    }

    fn fresh_deals(&self, spec: &v1::CompetitionSpec) -> Option<DealSource> {
        // Fresh deals come from the seed: should the library have measured that source, its
        // records of them stay held until the competition ends.
        plan_of(spec)
            .ok()
            .filter(|p| !p.measured())
            .map(|p| DealSource {
                seed: spec.seed,
                bombs: Some(p.bombs),
            })
    }

    fn jobs(
        &self,
        spec: &v1::CompetitionSpec,
        library: &Library,
    ) -> Result<Vec<v1::TableJob>, SpecError> {
        jobs(spec, &plan_of(spec)?, library)
    }

    fn standings(&self, spec: &v1::CompetitionSpec, results: &[v1::TableResult]) -> Standings {
        let mut tally = Tally::new(spec);
        for r in results {
            tally.add(r);
        }
        tally.standings()
    }

    fn fold(&self, spec: &v1::CompetitionSpec) -> Option<Box<dyn Fold>> {
        Some(Box::new(Tally::new(spec)))
    }
}

/// Every table job of a competition, in (match, round, table) order.
fn jobs(
    spec: &v1::CompetitionSpec,
    plan: &Plan,
    library: &Library,
) -> Result<Vec<v1::TableJob>, SpecError> {
    let n = spec.participants.len();
    let (matches, rounds) = (spec.matches as usize, spec.rounds as usize);
    let deals = if plan.measured() {
        let dim = gdi_dimension(plan.panel.scoring, u32::from(plan.bombs));
        let pool: Vec<_> = library
            .deals
            .iter()
            .filter(|r| r.panel == plan.panel.id && r.gdi.len() == dim)
            .cloned()
            .collect();
        let shape = Shape {
            tables: n,
            matches,
            rounds,
            reuse: Reuse::Never,
            seed: spec.seed,
        };
        super::format::plan(&plan.format, &pool, shape, &library.exclude).map_err(|e| match e {
            PlanError::NotEnough { need, have, .. } => {
                SpecError::Unavailable(not_enough(spec, plan, need, have))
            }
            e => SpecError::Unavailable(e.to_string()),
        })?
    } else {
        // Nothing to measure: fresh deals from the competition's secret seed.
        super::format::fresh_plan(
            &plan.format,
            n,
            matches,
            rounds,
            spec.seed,
            Some(plan.bombs),
        )
        .map_err(|e| SpecError::invalid("spec.bombs", e.to_string()))?
    };
    let mut out = Vec::new();
    let rounds_per_match = rounds;
    for (m, rounds) in deals.matches.iter().enumerate() {
        for (r, tables) in rounds.iter().enumerate() {
            for (t, slot) in tables.iter().enumerate() {
                let mut labels = BTreeMap::new();
                labels.insert("match".to_string(), m.to_string());
                labels.insert("round".to_string(), r.to_string());
                labels.insert("table".to_string(), t.to_string());
                labels.insert("deal".to_string(), slot.id.clone());
                labels.extend(arena_telemetry::job_labels());
                let participant = spec.participants[t].clone();
                let farmers = spec.farmers.clone();
                let mut sides = vec![(
                    table_id(&spec.name, m, r, t),
                    [participant.clone(), farmers.clone(), farmers.clone()],
                    v1::Side::Landlord,
                    slot.expected,
                )];
                if spec.rotate_seats {
                    // The same cards with the participant in both farmer seats. Scoring is
                    // zero-sum between the landlord and the farmer team, so the team's expected
                    // score is the negated landlord expectation.
                    sides.push((
                        format!("{}/f", table_id(&spec.name, m, r, t)),
                        [farmers.clone(), participant.clone(), participant],
                        v1::Side::Farmers,
                        -slot.expected,
                    ));
                }
                for (salt, (id, seats, side, expected)) in sides.into_iter().enumerate() {
                    let deal_group = format!("{}/{}", spec.name, slot.id);
                    let mut labels = labels.clone();
                    labels.insert(DEAL_GROUP_LABEL.to_string(), deal_group.clone());
                    labels.insert("side".to_string(), side_label(side).to_string());
                    labels.insert("expected".to_string(), format!("{expected}"));
                    let placement = v1::Placement {
                        match_index: index(m),
                        round: index(r),
                        table: index(t),
                        side: side as i32,
                        deal_id: slot.id.clone(),
                        expected,
                        deal_group,
                        ..Default::default()
                    };
                    out.push(v1::TableJob {
                        seed: spec.seed
                            ^ (id.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                            ^ ((m * 1_000_000 + r * 1000 + t) as u64)
                            ^ ((salt as u64) << 40),
                        table_id: id,
                        game: super::GAME.name().into(),
                        seats: seats.into_iter().map(|bot| v1::SeatSpec { bot }).collect(),
                        setup: Some(arena_proto::payload::pack(&pb::Setup {
                            rules: plan.rules.1.to_string(),
                            rules_kind: plan.rules.0 as i32,
                            // A match is the championship's turn, its rounds the turn's rounds.
                            round: Some(
                                super::spec::MatchRound {
                                    turn: index(m).saturating_add(1),
                                    turns: index(matches),
                                    round: index(r).saturating_add(1),
                                    rounds: index(rounds_per_match),
                                }
                                .to_pb(),
                            ),
                            ..super::spec::fixed_landlord_setup(
                                slot.deal.to_string(),
                                plan.panel.scoring,
                            )
                        })),
                        time: spec.time,
                        verdict_policy: spec.verdict_policy,
                        competition: spec.name.clone(),
                        labels: labels.into_iter().collect(),
                        placement: Some(Box::new(placement)),
                        lane: spec.lane.clone(),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Why a measured competition cannot be planned, and the command that fixes it.
fn not_enough(spec: &v1::CompetitionSpec, plan: &Plan, need: usize, have: usize) -> String {
    let missing = need - have;
    let panel = &plan.panel;
    let panel_flags = format!(
        "--panel {} --farmers {} --scoring {} --bombs {}",
        spec.panel
            .as_ref()
            .map_or(DEFAULT_PANEL, |p| p.landlords.as_str()),
        panel.down,
        panel.scoring,
        plan.bombs
    );
    let fix = match spec.format_kind() {
        v1::CompetitionFormat::EqualStrength => format!(
            "arena deals find --library URL {panel_flags} --centre {} --eps {} --count {missing}",
            spec.centre
                .iter()
                .map(f64::to_string)
                .collect::<Vec<_>>()
                .join(","),
            spec.eps
        ),
        _ => format!(
            "arena deals measure --library URL {panel_flags} --count {missing} --seed <a secret \
             seed>"
        ),
    };
    format!(
        "{NOT_ENOUGH_DEALS}: {} {} needs {need} distinct deals, but the library of panel {} holds \
         only {have} unused eligible ones; `arena competition create` asks the deal library for \
         the missing {missing}, or ask it yourself: `{fix}`",
        spec.format,
        arena_proto::text::quote(&spec.name),
        panel.id
    )
}

/// Where a competition table's result sits: its typed placement. Results written before
/// placements existed carry the same facts only as labels; those are read once here, so that
/// a competition running across the upgrade keeps its standings. `None` for a result that has
/// neither.
pub fn placement_of(r: &v1::TableResult) -> Option<v1::Placement> {
    if let Some(p) = &r.placement {
        return Some((**p).clone());
    }
    let number = |k: &str| r.labels.get(k).and_then(|v| v.parse::<u32>().ok());
    let (Some(match_index), Some(round), Some(table)) =
        (number("match"), number("round"), number("table"))
    else {
        return None;
    };
    let side = match r.labels.get("side").map(String::as_str) {
        Some(FARMER_SIDE) => v1::Side::Farmers,
        _ => v1::Side::Landlord,
    };
    Some(v1::Placement {
        match_index,
        round,
        table,
        side: side as i32,
        deal_id: r.labels.get("deal").cloned().unwrap_or_default(),
        expected: r
            .labels
            .get("expected")
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0),
        deal_group: r.labels.get(DEAL_GROUP_LABEL).cloned().unwrap_or_default(),
        ..Default::default()
    })
}

/// Dou Dizhu's running totals of a competition: per (match, round, table), the score so far and
/// the sides finished; per participant, the verdicts against it. A participant's round score is
/// its landlord score, plus its farmer team's score on the same deal when seats rotate; only
/// complete rounds count towards mean scores and only complete matches towards ranks.
#[derive(Debug)]
struct Tally {
    spec: v1::CompetitionSpec,
    adjusted: bool,
    cells: BTreeMap<(usize, usize, usize), (f64, usize)>,
    verdicts: Vec<u32>,
}

impl Tally {
    fn new(spec: &v1::CompetitionSpec) -> Tally {
        Tally {
            adjusted: spec.format_kind() == v1::CompetitionFormat::DifficultyAdjusted
                || format_of_name(&spec.format) == Some(v1::CompetitionFormat::DifficultyAdjusted),
            verdicts: vec![0; spec.participants.len()],
            cells: BTreeMap::new(),
            spec: spec.clone(),
        }
    }
}

impl Fold for Tally {
    /// Folds one shown result in: the one fold of a Dou Dizhu result, whether all results are
    /// folded at once or a few at a time.
    fn add(&mut self, r: &v1::TableResult) {
        let spec = &self.spec;
        let n = spec.participants.len();
        let (matches, rounds) = (spec.matches as usize, spec.rounds as usize);
        let Some(p) = placement_of(r) else {
            return;
        };
        let (m, round, t) = (p.match_index as usize, p.round as usize, p.table as usize);
        if m >= matches || round >= rounds || t >= n {
            return;
        }
        let expected = if self.adjusted { p.expected } else { 0.0 };
        let farmer_side = p.side() == v1::Side::Farmers;
        // The participant of table t sits as the landlord (seat 0), or as both farmers.
        let against = r
            .verdicts
            .iter()
            .filter(|v| (v.seat == 0) != farmer_side)
            .count();
        self.verdicts[t] += u32::try_from(against).unwrap_or(u32::MAX);
        let raw = if farmer_side {
            r.final_scores.iter().skip(1).sum::<i64>()
        } else {
            r.final_scores.first().copied().unwrap_or(0)
        };
        let cell = self.cells.entry((m, round, t)).or_default();
        cell.0 += raw as f64 - expected;
        cell.1 += 1;
    }

    fn standings(&self) -> Standings {
        let spec = &self.spec;
        let n = spec.participants.len();
        let (matches, rounds) = (spec.matches as usize, spec.rounds as usize);
        let sides = if spec.rotate_seats { 2 } else { 1 };
        let mut totals = vec![vec![0.0; n]; matches];
        let mut counts = vec![0usize; matches];
        let mut scores: Vec<Vec<f64>> = vec![Vec::new(); n];
        for (&(m, _, t), &(score, done)) in &self.cells {
            if done == sides {
                totals[m][t] += score;
                counts[m] += 1;
                scores[t].push(score);
            }
        }
        let complete: Vec<Vec<f64>> = totals
            .into_iter()
            .zip(&counts)
            .filter(|(_, c)| **c == n * rounds)
            .map(|(t, _)| t)
            .collect();
        let st = Ranks::from_totals(spec.participants.clone(), complete, rounds, spec.seed);
        let mut out = Vec::with_capacity(n);
        for (place, &t) in st.final_order.iter().enumerate() {
            let score = arena_stats::Estimate::of(scores[t].iter().copied());
            out.push(v1::Standing {
                participant: spec.participants[t].clone(),
                place: place as u32 + 1,
                rank_probabilities: st.rank_probs[t].clone(),
                most_probable_rank: st.most_probable[t] as u32,
                mean_rank: st.mean_rank[t],
                mean_score: score.mean,
                score_ci95: score.ci95,
                game: None,
                verdicts: self.verdicts[t],
            });
        }
        Standings {
            standings: out,
            drawn: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(format: &str, kind: v1::CompetitionFormat) -> v1::CompetitionSpec {
        v1::CompetitionSpec {
            name: "cup".into(),
            format: format.into(),
            format_kind: kind as i32,
            participants: vec!["expert".into(), "seed".into()],
            matches: 1,
            rounds: 1,
            ..Default::default()
        }
    }

    #[test]
    fn a_format_is_given_typed_or_by_name_and_both_are_filled_in() {
        use v1::CompetitionFormat as F;
        for mut s in [
            spec("random", F::Unspecified),
            spec("", F::Random),
            spec("random", F::Random),
        ] {
            let plan = read(&mut s, 100).expect("a valid spec");
            assert_eq!((s.format_kind(), s.format.as_str()), (F::Random, "random"));
            assert_eq!(plan.format, Format::Random);
        }
        let e = read(&mut spec("duplicate", F::Random), 100).err().unwrap();
        assert!(e.to_string().starts_with("spec.format"), "{e:?}");
        assert!(read(&mut spec("golf", F::Unspecified), 100).is_err());
    }

    #[test]
    fn a_spec_naming_nothing_is_an_equal_strength_competition_with_the_arenas_defaults() {
        let mut s = spec("", v1::CompetitionFormat::Unspecified);
        let plan = read(&mut s, 100).expect("the defaults are a valid spec");
        assert_eq!(s.format, "equal-strength");
        assert_eq!(
            plan.format,
            Format::EqualStrength {
                centre: DEFAULT_CENTRE.to_vec(),
                eps: DEFAULT_EPS
            }
        );
        assert_eq!((s.farmers.as_str(), s.bombs), (DEFAULT_FARMERS, 1));
        assert_eq!(s.panel.unwrap().landlords, DEFAULT_PANEL);
        // Checking a checked spec changes nothing: planning reads it again.
        let mut again = spec("", v1::CompetitionFormat::Unspecified);
        read(&mut again, 100).unwrap();
        let before = again.clone();
        read(&mut again, 100).unwrap();
        assert_eq!(again, before);
    }

    #[test]
    fn a_measured_competition_short_of_deals_says_how_many_and_the_command_that_measures_them() {
        let mut s = spec("equal-strength", v1::CompetitionFormat::Unspecified);
        read(&mut s, 100).unwrap();
        let game = super::super::DouDizhu;
        assert_eq!(
            game.library(&s).as_deref(),
            Some(plan_of(&s).unwrap().panel.id.as_str())
        );
        assert_eq!(game.fresh_deals(&s), None);
        let Err(SpecError::Unavailable(why)) = game.jobs(&s, &Library::default()) else {
            panic!("an empty library cannot supply the competition");
        };
        assert!(why.starts_with(NOT_ENOUGH_DEALS), "{why}");
        assert!(why.contains("needs 2 distinct deals"), "{why}");
        assert!(why.contains("arena deals find"), "{why}");
    }

    #[test]
    fn a_fresh_competition_seats_each_participant_as_landlord_against_the_farmers() {
        let mut s = v1::CompetitionSpec {
            rotate_seats: true,
            seed: 7,
            ..spec("duplicate", v1::CompetitionFormat::Unspecified)
        };
        read(&mut s, 100).unwrap();
        let game = super::super::DouDizhu;
        assert_eq!(game.library(&s), None);
        assert_eq!(
            game.fresh_deals(&s),
            Some(DealSource {
                seed: 7,
                bombs: Some(1)
            })
        );
        assert_eq!(
            game.bots(&s).last(),
            Some(&("spec.farmers", DEFAULT_FARMERS))
        );
        let jobs = game.jobs(&s, &Library::default()).unwrap();
        let ids: Vec<&str> = jobs.iter().map(|j| j.table_id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "cup/m0/r0/t0",
                "cup/m0/r0/t0/f",
                "cup/m0/r0/t1",
                "cup/m0/r0/t1/f"
            ]
        );
        let seats: Vec<&str> = jobs[1].seats.iter().map(|s| s.bot.as_str()).collect();
        assert_eq!(seats, ["expert", "expert", "expert"]);
        let seats: Vec<&str> = jobs[3].seats.iter().map(|s| s.bot.as_str()).collect();
        assert_eq!(seats, [DEFAULT_FARMERS, "seed", "seed"]);
        // Duplicate: every table of a round has the same cards, one deal group.
        let groups: std::collections::HashSet<_> = jobs
            .iter()
            .map(|j| j.placement.as_ref().unwrap().deal_group.clone())
            .collect();
        assert_eq!(groups.len(), 1);
    }

    #[test]
    fn every_table_says_its_match_and_round_as_the_championships_turn_and_round() {
        let mut s = v1::CompetitionSpec {
            matches: 2,
            rounds: 3,
            seed: 7,
            ..spec("duplicate", v1::CompetitionFormat::Unspecified)
        };
        read(&mut s, 100).unwrap();
        let jobs = super::super::DouDizhu
            .jobs(&s, &Library::default())
            .unwrap();
        assert_eq!(jobs.len(), 2 * 3 * 2);
        for j in &jobs {
            let p = j.placement.as_deref().unwrap();
            let setup: pb::Setup = arena_proto::payload::unpack(j.setup.as_ref(), "setup").unwrap();
            let spec = super::super::spec::read_setup(&setup, j.seed).unwrap();
            assert_eq!(
                spec.round,
                Some(super::super::spec::MatchRound {
                    turn: p.match_index + 1,
                    turns: 2,
                    round: p.round + 1,
                    rounds: 3,
                }),
                "{}",
                j.table_id
            );
        }
    }

    #[test]
    fn a_result_is_placed_by_its_typed_placement_and_old_results_by_their_labels() {
        let labels = |side: &str| {
            [
                ("match", "1"),
                ("round", "2"),
                ("table", "0"),
                ("side", side),
                ("expected", "-0.5"),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
        };
        let typed = v1::TableResult {
            // Labels that disagree are not read when the placement is there.
            labels: labels(LANDLORD_SIDE),
            placement: Some(Box::new(v1::Placement {
                match_index: 3,
                round: 4,
                table: 5,
                side: v1::Side::Farmers as i32,
                ..Default::default()
            })),
            ..Default::default()
        };
        let p = placement_of(&typed).unwrap();
        assert_eq!(
            (p.match_index, p.round, p.table, p.side()),
            (3, 4, 5, v1::Side::Farmers)
        );

        let old = v1::TableResult {
            labels: labels(FARMER_SIDE),
            ..Default::default()
        };
        let p = placement_of(&old).unwrap();
        assert_eq!(
            (p.match_index, p.round, p.table, p.side()),
            (1, 2, 0, v1::Side::Farmers)
        );
        assert_eq!(p.expected, -0.5);
        assert_eq!(placement_of(&v1::TableResult::default()), None);
        assert_eq!(side_label(v1::Side::Farmers), FARMER_SIDE);
    }
}
