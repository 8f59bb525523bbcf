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
//! Dou Dizhu competitions are planned here; Mahjong competitions (the contest's 96-hand
//! duplicate match) in [`mahjong`]. Both go through the same creation, supervision, standings
//! and replay paths: the supervisor only counts results against the tables planned.
//!
//! The continuous ranked ladder of connected remote bots is in [`ladder`]; its leaderboard is
//! served here. The same server answers `arena.v1.BotRegistry` ([`registry`]), so operators
//! register bots through a running matchmaker.

pub mod ladder;
pub mod mahjong;
pub mod registry;
pub mod retention;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use arena_compete::{Format, Reuse, Shape, Standings};
use arena_games::GameKind;
// Transitional: competition planning moves behind the registry next.
use arena_games::ddz::GAME as DOU_DIZHU;
use arena_games::mahjong::GAME as MAHJONG;
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::{Matchmaker, MatchmakerServer};
use arena_serve::{ApiError, store_status};
use arena_store::Store;
use arena_store::visibility::{self, DEAL_GROUP_LABEL};
use prost::Message;
use tokio_stream::Stream;
use tonic::{Request, Response, Status};
use tracing::Instrument;

/// Record kind of competitions.
pub const COMPETITION: &str = visibility::COMPETITION_KIND;
/// Record kind of a competition whose tables are all on the job stream.
pub const ENQUEUED: &str = "competition-enqueued";
/// How long after creation a competition not yet marked enqueued counts as interrupted.
pub const ENQUEUE_GRACE_MS: u64 = 10_000;
/// Table jobs enqueued by one store call.
const ENQUEUE_BATCH: usize = 500;

/// Record kind of final standings.
pub const FINAL_STANDINGS: &str = "competition-standings";

pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
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

/// A competition format's name, and the format a name spells: the protocol's typed names,
/// kept beside the other Dou Dizhu names (clients that read specs use them too).
pub use arena_games::ddz::names::{format_name, format_of_name};

/// Sets a competition's state: the typed field and its name.
fn set_state(c: &mut v1::Competition, state: v1::CompetitionState) {
    c.status = state as i32;
    c.state = state_name(state).to_string();
}

/// A match, round or table index as the protocol carries it (the spec's limits keep them far
/// below `u32::MAX`).
pub(crate) fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Why the program bot `command` could not start in the default sandbox of this machine, if it
/// could not (see `arena_sandbox::Sandbox::check_program`).
fn program_problem(command: &str) -> Option<String> {
    let spec = match arena_line::CmdSpec::parse(command) {
        Ok(spec) => spec,
        Err(e) => return Some(e.to_string()),
    };
    let sandbox = arena_sandbox::Sandbox::new(arena_sandbox::Policy::default());
    sandbox
        .check_program(spec.program(), spec.args())
        .err()
        .map(|e| e.to_string())
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

/// The table id of table `t` in round `r` of match `m` (with seat rotation, the participant's
/// farmer table adds `/f`).
pub fn table_id(name: &str, m: usize, r: usize, t: usize) -> String {
    format!("{name}/m{m}/r{r}/t{t}")
}

/// A spec checked and completed with defaults.
struct Checked {
    spec: v1::CompetitionSpec,
    plan: Plan,
}

/// How a checked competition's tables are made.
enum Plan {
    /// Dou Dizhu: deals planned from the library in `format`.
    Ddz {
        format: Format,
        panel: arena_deals::DdzPanel,
        bombs: u8,
        /// The rule set's typed kind and name, as table set-ups carry them.
        rules: (v1::DdzRules, &'static str),
    },
    /// Mahjong: the contest's schedule, dealt from the seed, scored with this fan reading.
    Mahjong(arena_games::mahjong::rules::Reading),
}

impl Plan {
    /// Whether the plan deals measured deals from the library (which it then claims).
    fn uses_library(&self) -> bool {
        matches!(
            self,
            Plan::Ddz {
                format: Format::EqualStrength { .. } | Format::DifficultyAdjusted,
                ..
            }
        )
    }
}

/// The game a spec is for (unset: Dou Dizhu, as every spec before the field existed).
pub fn game_of(spec: &v1::CompetitionSpec) -> Result<GameKind, ApiError> {
    GameKind::from_wire_or_default(spec.game).map_err(|why| {
        ApiError::invalid(
            "spec.game",
            format!("{why} (the games are {})", GameKind::names()),
        )
    })
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

fn check(spec: Option<v1::CompetitionSpec>, max_tables: u64) -> Result<Checked, ApiError> {
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
    spec.game = game.wire() as i32;
    if game == MAHJONG {
        if spec.matches == 0 {
            return Err(ApiError::invalid("spec.matches", "must be at least 1"));
        }
        let reading = mahjong::check(&mut spec, max_tables)?;
        return Ok(Checked {
            spec,
            plan: Plan::Mahjong(reading),
        });
    }
    if spec.matches == 0 || spec.rounds == 0 {
        return Err(ApiError::invalid(
            "spec.matches/spec.rounds",
            "must be at least 1",
        ));
    }
    if spec.fans != 0 {
        return Err(ApiError::invalid(
            "spec.fans",
            "is for Mahjong competitions",
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
    spec.rules = rules.0 as i32;
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

/// The rule set a Dou Dizhu spec plays (unspecified: competition). Measured formats play the
/// rules their deals' difficulty was measured under, the competition rules.
fn rules_of(
    spec: &v1::CompetitionSpec,
    format: &Format,
) -> Result<(v1::DdzRules, &'static str), ApiError> {
    use arena_games::ddz::names;
    let kind = match v1::DdzRules::try_from(spec.rules) {
        Ok(v1::DdzRules::Unspecified) => v1::DdzRules::Competition,
        Ok(v1::DdzRules::Custom) | Err(_) => {
            return Err(ApiError::invalid(
                "spec.rules",
                format!(
                    "{} is not a named rule set (DDZ_RULES_COMPETITION, DDZ_RULES_DOUZERO or \
                     DDZ_RULES_OPENSPIEL)",
                    spec.rules
                ),
            ));
        }
        Ok(k) => k,
    };
    let measured = matches!(
        format,
        Format::EqualStrength { .. } | Format::DifficultyAdjusted
    );
    if measured && kind != v1::DdzRules::Competition {
        return Err(ApiError::invalid(
            "spec.rules",
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

/// Every table job of a competition, in (match, round, table) order (Mahjong: match, then
/// schedule order).
async fn jobs(store: &dyn Store, c: &Checked) -> Result<Vec<v1::TableJob>, ApiError> {
    let mut jobs = plan_jobs(store, c).await?;
    // Each table says how many share its deal, for standings (see `shown_results`).
    let groups = deal_groups(&jobs);
    for job in &mut jobs {
        if let Some(p) = job.placement.as_deref_mut()
            && let Some(tables) = groups.get(&p.deal_group)
        {
            p.deal_group_tables = tables.len() as u32;
        }
    }
    Ok(jobs)
}

/// [`jobs`] before their deal groups are counted.
async fn plan_jobs(store: &dyn Store, c: &Checked) -> Result<Vec<v1::TableJob>, ApiError> {
    let (format, panel, bombs, rules) = match &c.plan {
        Plan::Ddz {
            format,
            panel,
            bombs,
            rules,
        } => (format, panel, *bombs, *rules),
        Plan::Mahjong(reading) => return Ok(mahjong::jobs(&c.spec, *reading)),
    };
    let n = c.spec.participants.len();
    let (matches, rounds) = (c.spec.matches as usize, c.spec.rounds as usize);
    let plan = match format {
        // Nothing to measure: fresh deals from the competition's secret seed.
        Format::Duplicate | Format::Random => {
            arena_compete::fresh_plan(format, n, matches, rounds, c.spec.seed, Some(bombs))
                .map_err(|e| ApiError::invalid("spec.bombs", e.to_string()))?
        }
        Format::EqualStrength { .. } | Format::DifficultyAdjusted => {
            let dim = arena_deals::levels::gdi_dimension(panel.scoring, u32::from(bombs));
            let pool: Vec<_> = store
                .deals(&panel.id)
                .await?
                .into_iter()
                .filter(|r| r.gdi.len() == dim)
                .collect();
            // Deals held by other competitions (claimed, or dealt fresh from a running one's
            // seed) are off limits; this competition's own claims are not, so planning again
            // after a restart gives the same plan.
            let exclude: HashSet<String> = store
                .used_deals()
                .await?
                .into_iter()
                .chain(visibility::holders(store).await?)
                .filter(|(_, holder)| *holder != c.spec.name)
                .map(|(id, _)| id)
                .collect();
            let shape = Shape {
                tables: n,
                matches,
                rounds,
                reuse: Reuse::Never,
                seed: c.spec.seed,
            };
            arena_compete::plan(format, &pool, shape, &exclude).map_err(|e| match e {
                arena_compete::PlanError::NotEnough { need, have, .. } => {
                    ApiError::FailedPrecondition(not_enough(&c.spec, panel, bombs, need, have))
                }
                e => ApiError::FailedPrecondition(e.to_string()),
            })?
        }
    };
    let mut out = Vec::new();
    for (m, rounds) in plan.matches.iter().enumerate() {
        for (r, tables) in rounds.iter().enumerate() {
            for (t, slot) in tables.iter().enumerate() {
                let mut labels = BTreeMap::new();
                labels.insert("match".to_string(), m.to_string());
                labels.insert("round".to_string(), r.to_string());
                labels.insert("table".to_string(), t.to_string());
                labels.insert("deal".to_string(), slot.id.clone());
                labels.extend(arena_telemetry::job_labels());
                let participant = c.spec.participants[t].clone();
                let farmers = c.spec.farmers.clone();
                let mut sides = vec![(
                    table_id(&c.spec.name, m, r, t),
                    [participant.clone(), farmers.clone(), farmers.clone()],
                    v1::Side::Landlord,
                    slot.expected,
                )];
                if c.spec.rotate_seats {
                    // The same cards with the participant in both farmer seats. Scoring is
                    // zero-sum between the landlord and the farmer team, so the team's expected
                    // score is the negated landlord expectation.
                    sides.push((
                        format!("{}/f", table_id(&c.spec.name, m, r, t)),
                        [farmers.clone(), participant.clone(), participant],
                        v1::Side::Farmers,
                        -slot.expected,
                    ));
                }
                for (salt, (id, seats, side, expected)) in sides.into_iter().enumerate() {
                    let deal_group = format!("{}/{}", c.spec.name, slot.id);
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
                        seed: c.spec.seed
                            ^ (id.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                            ^ ((m * 1_000_000 + r * 1000 + t) as u64)
                            ^ ((salt as u64) << 40),
                        table_id: id,
                        game: v1::Game::DouDizhu as i32,
                        seats: seats.into_iter().map(|bot| v1::SeatSpec { bot }).collect(),
                        setup: Some(v1::table_job::Setup::Ddz(v1::DdzSetup {
                            rules: rules.1.to_string(),
                            rules_kind: rules.0 as i32,
                            ..arena_games::ddz::spec::fixed_landlord_setup(
                                slot.deal.to_string(),
                                panel.scoring,
                            )
                        })),
                        time: c.spec.time,
                        verdict_policy: c.spec.verdict_policy,
                        competition: c.spec.name.clone(),
                        labels: labels.into_iter().collect(),
                        placement: Some(Box::new(placement)),
                        lane: c.spec.lane.clone(),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// How a refusal for want of measured deals begins (`FAILED_PRECONDITION`): clients that can
/// ask the deal library for the missing deals (`arena competition create`, the console's form)
/// look for it.
pub use arena_deals::wanted::NOT_ENOUGH_DEALS;

/// Why a measured competition cannot be planned, and the command that fixes it.
fn not_enough(
    spec: &v1::CompetitionSpec,
    panel: &arena_deals::DdzPanel,
    bombs: u8,
    need: usize,
    have: usize,
) -> String {
    let missing = need - have;
    let panel_flags = format!(
        "--panel {} --farmers {} --scoring {} --bombs {bombs}",
        spec.panel
            .as_ref()
            .map_or("ladder:70", |p| p.landlords.as_str()),
        panel.down,
        panel.scoring
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

/// Puts every table without a result on the job stream, then marks the competition enqueued.
async fn enqueue(store: &dyn Store, c: &Checked) -> Result<(), ApiError> {
    let done: HashSet<String> = store
        .results_for(&c.spec.name)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let jobs = jobs(store, c).await?;
    // The deal groups first: a table's replay is only ever shown once its group is known.
    for (group, tables) in deal_groups(&jobs) {
        visibility::put_deal_group(store, &group, &tables).await?;
    }
    // In batches: one store call per batch rather than one per table.
    let todo: Vec<(String, Vec<u8>)> = jobs
        .iter()
        .filter(|job| !done.contains(&job.table_id))
        .map(|job| {
            (
                job.table_id.clone(),
                arena_table::queue::encode_table_job(job),
            )
        })
        .collect();
    // On the competition's lane, checked with its spec.
    let lane = (!c.spec.lane.is_empty())
        .then(|| store.lane(&c.spec.lane))
        .transpose()?;
    let queue = lane.as_deref().unwrap_or(store);
    for chunk in todo.chunks(ENQUEUE_BATCH) {
        let batch: Vec<(&str, &[u8])> = chunk
            .iter()
            .map(|(t, p)| (t.as_str(), p.as_slice()))
            .collect();
        queue.enqueue_jobs(&batch).await?;
    }
    store.put_record(ENQUEUED, &c.spec.name, b"1").await?;
    Ok(())
}

/// The tables of each deal group among `jobs`.
fn deal_groups(jobs: &[v1::TableJob]) -> BTreeMap<String, Vec<String>> {
    let mut groups: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for j in jobs {
        if let Some(g) = j.labels.get(DEAL_GROUP_LABEL) {
            groups
                .entry(g.clone())
                .or_default()
                .push(j.table_id.clone());
        }
    }
    groups
}

/// A competition as it is served: while it runs, without its plan seed (with the library it
/// would tell which deals are still to be dealt).
fn served(mut comp: v1::Competition) -> v1::Competition {
    if state_of(&comp) == v1::CompetitionState::Running
        && let Some(spec) = comp.spec.as_mut()
    {
        spec.seed = 0;
    }
    comp
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

/// The result or replay of table `id`, with `labels`, may be shown: else `FAILED_PRECONDITION`.
async fn check_shown(
    store: &dyn Store,
    id: &str,
    labels: &std::collections::HashMap<String, String>,
) -> Result<(), ApiError> {
    match visibility::may_show(store, labels).await? {
        Ok(()) => Ok(()),
        Err(why) => Err(ApiError::FailedPrecondition(format!(
            "table {id:?} is not shown yet: {why}"
        ))),
    }
}

/// Standings from the results so far. A participant's round score is its landlord score, plus
/// its farmer team's score on the same deal when seats rotate; only complete rounds count towards
/// mean scores and only complete matches towards ranks.
pub async fn standings(
    store: &dyn Store,
    comp: &v1::Competition,
) -> Result<v1::Standings, ApiError> {
    let spec = comp.spec.clone().unwrap_or_default();
    let results = store.results_for(&spec.name).await?;
    let ended = state_of(comp) == v1::CompetitionState::Finished;
    let tables_done = results.len() as u64;
    let decoded = results
        .iter()
        .map(|(id, bytes)| {
            v1::TableResult::decode(bytes.as_slice())
                .map_err(|e| ApiError::Internal(format!("result {id}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let with_result: HashSet<&str> = results.iter().map(|(id, _)| id.as_str()).collect();
    let (decoded, tables_withheld) = shown_results(store, decoded, &with_result).await?;
    if game_of(&spec)? == MAHJONG {
        let (standings, drawn_hands) = mahjong::standings(&spec, &decoded);
        return Ok(v1::Standings {
            competition: spec.name.clone(),
            standings,
            tables_done,
            tables_total: comp.tables_total,
            r#final: ended,
            game: v1::Game::Mahjong as i32,
            drawn_hands,
            tables_withheld,
        });
    }
    let n = spec.participants.len();
    let (matches, rounds) = (spec.matches as usize, spec.rounds as usize);
    let sides = if spec.rotate_seats { 2 } else { 1 };
    let adjusted = spec.format_kind() == v1::CompetitionFormat::DifficultyAdjusted
        || format_of_name(&spec.format) == Some(v1::CompetitionFormat::DifficultyAdjusted);
    // (match, round, table) -> (score so far, sides finished)
    let mut cells: BTreeMap<(usize, usize, usize), (f64, usize)> = BTreeMap::new();
    let mut verdicts = vec![0u32; n];
    for r in &decoded {
        let Some(p) = placement_of(r) else {
            continue;
        };
        let (m, round, t) = (p.match_index as usize, p.round as usize, p.table as usize);
        if m >= matches || round >= rounds || t >= n {
            continue;
        }
        let expected = if adjusted { p.expected } else { 0.0 };
        let farmer_side = p.side() == v1::Side::Farmers;
        // The participant of table t sits as the landlord (seat 0), or as both farmers.
        let against = r
            .verdicts
            .iter()
            .filter(|v| (v.seat == 0) != farmer_side)
            .count();
        verdicts[t] += u32::try_from(against).unwrap_or(u32::MAX);
        let raw = if farmer_side {
            r.final_scores.iter().skip(1).sum::<i64>()
        } else {
            r.final_scores.first().copied().unwrap_or(0)
        };
        let cell = cells.entry((m, round, t)).or_default();
        cell.0 += raw as f64 - expected;
        cell.1 += 1;
    }
    let mut totals = vec![vec![0.0; n]; matches];
    let mut counts = vec![0usize; matches];
    let mut scores: Vec<Vec<f64>> = vec![Vec::new(); n];
    for (&(m, _, t), &(score, done)) in &cells {
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
    let st = Standings::from_totals(spec.participants.clone(), complete, rounds, spec.seed);
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
            mahjong: None,
            verdicts: verdicts[t],
        });
    }
    Ok(v1::Standings {
        competition: spec.name.clone(),
        standings: out,
        tables_done,
        tables_total: comp.tables_total,
        r#final: ended,
        game: v1::Game::DouDizhu as i32,
        drawn_hands: 0,
        tables_withheld,
    })
}

/// The results standings may count (`with_result`: the ids of every result the competition
/// has), and how many others are withheld: a result whose deal
/// group (the tables sharing its cards) has not finished tells the cards still in play at the
/// group's other tables, so it counts once the whole group has finished.
async fn shown_results(
    store: &dyn Store,
    results: Vec<v1::TableResult>,
    with_result: &HashSet<&str>,
) -> Result<(Vec<v1::TableResult>, u64), ApiError> {
    let group_of = |r: &v1::TableResult| -> Option<String> {
        r.placement
            .as_deref()
            .map(|p| p.deal_group.clone())
            .filter(|g| !g.is_empty())
            .or_else(|| r.labels.get(DEAL_GROUP_LABEL).cloned())
    };
    let groups: Vec<Option<String>> = results.iter().map(group_of).collect();
    // A group whose tables say how many it holds is finished when that many have results (each
    // table id has one result); the others' records are read.
    let mut counted: HashMap<&str, (u32, u32)> = HashMap::new();
    let mut unsaid: Vec<&str> = Vec::new();
    for (r, g) in results.iter().zip(&groups) {
        let Some(g) = g else { continue };
        match r.placement.as_deref().map_or(0, |p| p.deal_group_tables) {
            0 => unsaid.push(g),
            size => {
                let c = counted.entry(g).or_insert((size, 0));
                c.1 += 1;
            }
        }
    }
    let mut finished = visibility::finished_groups(store, unsaid, with_result).await?;
    finished.extend(
        counted
            .into_iter()
            .filter(|(_, (size, done))| done >= size)
            .map(|(g, _)| g.to_string()),
    );
    let before = results.len();
    let shown: Vec<v1::TableResult> = results
        .into_iter()
        .zip(&groups)
        // A table sharing its deal with no other (a record older than deal groups) shows.
        .filter(|(_, g)| g.as_ref().is_none_or(|g| finished.contains(g)))
        .map(|(r, _)| r)
        .collect();
    let withheld = (before - shown.len()) as u64;
    Ok((shown, withheld))
}

/// One pass over every competition: re-enqueue interrupted ones, update progress, finish the
/// complete ones (exactly once, by compare-and-swap).
pub async fn supervise_once(store: &dyn Store) -> Result<(), ApiError> {
    let ended: HashSet<String> = store
        .records(visibility::ENDED_KIND)
        .await?
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    for (name, bytes) in store.records(COMPETITION).await? {
        let Ok(comp) = v1::Competition::decode(bytes.as_slice()) else {
            tracing::warn!(competition = %name, "undecodable competition record");
            continue;
        };
        if state_of(&comp) != v1::CompetitionState::Running {
            if !ended.contains(&name) {
                visibility::mark_ended(store, &name, state_name(state_of(&comp))).await?;
            }
            continue;
        }
        // A competition is recorded before its tables are enqueued; give its creator time to
        // finish enqueueing before treating it as interrupted, or every table would be enqueued
        // (and played) twice.
        let creating = now_ms().saturating_sub(comp.created_unix_ms) < ENQUEUE_GRACE_MS;
        if !creating && store.record(ENQUEUED, &name).await?.is_none() {
            let checked = check(comp.spec.clone(), u64::MAX)?;
            enqueue(store, &checked).await?;
            tracing::info!(competition = %name, "re-enqueued the tables of an interrupted competition");
        }
        // A count, not the results: a pass costs the same however many tables are done.
        let done = store.result_count(&name).await?;
        let mut next = comp.clone();
        next.tables_done = done;
        if done >= comp.tables_total {
            set_state(&mut next, v1::CompetitionState::Finished);
            next.finished_unix_ms = now_ms();
        }
        if next == comp {
            continue;
        }
        let finishing = state_of(&next) == v1::CompetitionState::Finished;
        if finishing {
            // The final standings are in the store before anyone can see the competition
            // finished, so a watcher never gets final standings the store does not hold. Every
            // table's result is in, so an instance that loses the swap below writes the same.
            let st = standings(store, &next).await?;
            store
                .put_record(FINAL_STANDINGS, &name, &st.encode_to_vec())
                .await?;
        }
        if store
            .swap_record(COMPETITION, &name, Some(&bytes), &next.encode_to_vec())
            .await?
            && finishing
        {
            visibility::mark_ended(store, &name, state_name(v1::CompetitionState::Finished))
                .await?;
            arena_telemetry::metrics::metrics()
                .competitions_finished
                .add(
                    1,
                    &arena_telemetry::metrics::attr(
                        "state",
                        state_name(v1::CompetitionState::Finished),
                    ),
                );
            tracing::info!(competition = %name, tables = done, "competition finished");
        }
    }
    Ok(())
}

/// Runs [`supervise_once`] every `every` until `shutdown`.
pub async fn supervise(
    store: Arc<dyn Store>,
    every: Duration,
    shutdown: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(shutdown);
    loop {
        if let Err(e) = supervise_once(&*store).await {
            tracing::warn!(error = %e, "supervising competitions");
        }
        tokio::select! {
            () = &mut shutdown => return,
            () = tokio::time::sleep(every) => {}
        }
    }
}

/// The message a watch stream ends with when the matchmaker shuts down (status UNAVAILABLE).
/// Competitions are not stopped by it: their tables go on at the referees.
pub const WATCH_SHUTDOWN: &str = "the matchmaker is shutting down; the competition goes on, watch it again once the matchmaker is back";

/// The gRPC service.
#[derive(Clone)]
pub struct MatchmakerService {
    store: Arc<dyn Store>,
    max_tables: u64,
    /// True once the server is shutting down: watch streams end then, or their clients would
    /// hold the graceful stop open for as long as they follow a competition.
    closing: Option<tokio::sync::watch::Receiver<bool>>,
}

impl MatchmakerService {
    /// A service on `store`, competitions of at most [`DEFAULT_MAX_TABLES`] tables.
    pub fn new(store: Arc<dyn Store>) -> MatchmakerService {
        MatchmakerService {
            store,
            max_tables: DEFAULT_MAX_TABLES,
            closing: None,
        }
    }

    /// Ends its watch streams (with UNAVAILABLE, saying why) once `closing` turns true.
    pub fn closing_on(mut self, closing: tokio::sync::watch::Receiver<bool>) -> MatchmakerService {
        self.closing = Some(closing);
        self
    }

    /// Caps the tables of one competition at `max`.
    pub fn with_max_tables(mut self, max: u64) -> MatchmakerService {
        self.max_tables = max;
        self
    }

    /// Every participant and the farmer bot must be a built-in bot of the competition's game
    /// or a registered one: a name nobody can play would forfeit every table (and a forfeit
    /// scores better than a loss).
    /// Checks that every participant (and farmer) is a built-in or registered bot; returns the
    /// warnings for the creator: registered remote bots that are not connected now.
    async fn check_bots(&self, spec: &v1::CompetitionSpec) -> Result<Vec<String>, ApiError> {
        let mut warnings = Vec::new();
        let game = game_of(spec)?;
        let farmers = (game == DOU_DIZHU).then_some(("spec.farmers", &spec.farmers));
        let names = spec
            .participants
            .iter()
            .map(|p| ("spec.participants", p))
            .chain(farmers);
        for (field, name) in names {
            let name = name.trim();
            // Each game reads its own built-in names (`random` is a bot of both).
            let is_cmd = name.split(':').next().is_some_and(|h| h.trim() == "cmd");
            let builtin_error = match game.builtin(name) {
                Some(Ok(_)) => continue,
                _ if is_cmd => {
                    return Err(ApiError::invalid(
                        field,
                        format!(
                            "{} names a command; register the program as a bot (`arena bots add NAME --program …`) and name it",
                            arena_proto::text::quote(name)
                        ),
                    ));
                }
                Some(Err(e)) => e,
                None => format!("built-in bots are {}", game.builtin_help()),
            };
            let Some(registered) = self.store.bot(name).await? else {
                return Err(ApiError::FailedPrecondition(format!(
                    "{field}: {} is neither a built-in bot nor a registered bot ({builtin_error}); \
                     register it with `arena bots add`",
                    arena_proto::text::quote(name)
                )));
            };
            if let arena_store::BotKind::Program { command, .. } = &registered.kind
                && let Some(why) = program_problem(command)
            {
                // A warning, not a refusal: the bot-host that runs it may be another machine,
                // with read paths of its own (--sandbox-read) this one does not know.
                warnings.push(format!(
                    "{field}: program bot {} would not start on this machine (as a bot-host here \
                     with default flags would run it): {why}",
                    arena_proto::text::quote(name)
                ));
            }
            if registered.kind == arena_store::BotKind::Remote
                && self.store.presence(name).await?.is_empty()
            {
                let warning = format!(
                    "{field}: remote bot {} is not connected now: every table it is seated at \
                     waits for it, and it loses each one it does not connect in time for",
                    arena_proto::text::quote(name)
                );
                if !warnings.contains(&warning) {
                    warnings.push(warning);
                }
            }
        }
        Ok(warnings)
    }

    /// The tonic server.
    pub fn into_server(self) -> MatchmakerServer<MatchmakerService> {
        MatchmakerServer::new(self)
    }

    async fn create(
        &self,
        spec: Option<v1::CompetitionSpec>,
    ) -> Result<Response<v1::Competition>, ApiError> {
        let checked = check(spec, self.max_tables)?;
        let warnings = self.check_bots(&checked.spec).await?;
        let name = checked.spec.name.clone();
        if self.store.record(COMPETITION, &name).await?.is_some() {
            return Err(ApiError::AlreadyExists(format!(
                "competition {name:?} exists"
            )));
        }
        if visibility::LADDER_COMPETITIONS.contains(&name.as_str()) {
            return Err(ApiError::invalid(
                "spec.name",
                format!("{name:?} is the ladder's name; choose another"),
            ));
        }
        // Tables submitted under this name before it was a competition's: its tables' ids
        // would meet their results.
        let stray = self.store.result_count(&name).await?;
        if stray > 0 {
            return Err(ApiError::FailedPrecondition(format!(
                "competition {name:?}: {stray} submitted table(s) have results under this name \
                 already; choose another name"
            )));
        }
        let jobs = jobs(&*self.store, &checked).await?;
        // Library deals are claimed so no other competition deals them; fresh deals (duplicate,
        // random, Mahjong) come from the competition's own seed and claim none.
        let mut ids: Vec<String> = if checked.plan.uses_library() {
            jobs.iter()
                .filter_map(|j| j.labels.get("deal").cloned())
                .collect()
        } else {
            Vec::new()
        };
        ids.sort_unstable();
        ids.dedup();
        let claimed = self.store.claim_deals(&name, &ids).await?;
        if claimed.iter().any(|c| !c) {
            return Err(ApiError::Aborted(
                "another competition claimed some of the planned deals meanwhile; create again"
                    .into(),
            ));
        }
        // Fresh Dou Dizhu deals come from the seed: should the library have measured that
        // source, its records of them stay held until the competition ends.
        if let Plan::Ddz { bombs, .. } = &checked.plan
            && !checked.plan.uses_library()
        {
            let count = jobs
                .iter()
                .filter_map(|j| j.labels.get("deal"))
                .collect::<HashSet<_>>()
                .len() as u64;
            let fresh = visibility::FreshDeals {
                source: arena_store::DealSource {
                    seed: checked.spec.seed,
                    bombs: Some(*bombs),
                },
                count,
            };
            // Another running competition dealing the same cards would show them with its
            // finished tables while this one's are still played.
            let holders = visibility::holders(&*self.store).await?;
            if let Some((id, other)) = (0..count)
                .map(|i| fresh.source.deal_id(i))
                .find_map(|id| holders.get(&id).map(|h| (id, h)))
            {
                return Err(ApiError::FailedPrecondition(format!(
                    "competition {name:?}: seed {} deals the cards of library deal {id}, which \
                     running competition {other:?} deals too; choose another seed",
                    checked.spec.seed
                )));
            }
            visibility::put_fresh_deals(&*self.store, &name, &fresh).await?;
        }
        let comp = v1::Competition {
            spec: Some(checked.spec.clone()),
            state: state_name(v1::CompetitionState::Running).into(),
            status: v1::CompetitionState::Running as i32,
            tables_total: jobs.len() as u64,
            created_unix_ms: now_ms(),
            ..Default::default()
        };
        if !self
            .store
            .swap_record(COMPETITION, &name, None, &comp.encode_to_vec())
            .await?
        {
            return Err(ApiError::AlreadyExists(format!(
                "competition {name:?} exists"
            )));
        }
        enqueue(&*self.store, &checked).await?;
        arena_telemetry::metrics::metrics()
            .competitions_created
            .add(1, &[]);
        tracing::info!(competition = %name, tables = comp.tables_total, "competition created");
        Ok(Response::new(v1::Competition {
            warnings,
            ..served(comp)
        }))
    }

    async fn load(&self, name: &str) -> Result<v1::Competition, ApiError> {
        let bytes = self
            .store
            .record(COMPETITION, name)
            .await?
            .ok_or_else(|| ApiError::NotFound(format!("no competition {name:?}")))?;
        v1::Competition::decode(bytes.as_slice())
            .map_err(|e| ApiError::Internal(format!("competition {name}: {e}")))
    }
}

type Boxed<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

#[tonic::async_trait]
impl Matchmaker for MatchmakerService {
    async fn create_competition(
        &self,
        req: Request<v1::CreateCompetitionRequest>,
    ) -> Result<Response<v1::Competition>, Status> {
        let span = tracing::info_span!("create_competition");
        // A caller's trace context makes the competition, and every table of it, part of its trace.
        arena_telemetry::set_parent(&span, req.metadata());
        self.create(req.into_inner().spec)
            .instrument(span)
            .await
            .map_err(Status::from)
    }

    async fn get_competition(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<v1::Competition>, Status> {
        Ok(Response::new(served(
            self.load(&req.into_inner().name).await?,
        )))
    }

    async fn list_competitions(
        &self,
        _: Request<v1::ListCompetitionsRequest>,
    ) -> Result<Response<v1::ListCompetitionsResponse>, Status> {
        let competitions = self
            .store
            .records(COMPETITION)
            .await
            .map_err(store_status)?
            .into_iter()
            .filter_map(|(_, b)| v1::Competition::decode(b.as_slice()).ok())
            .map(served)
            .collect();
        Ok(Response::new(v1::ListCompetitionsResponse { competitions }))
    }

    type WatchCompetitionStream = Boxed<v1::Standings>;

    async fn watch_competition(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<Self::WatchCompetitionStream>, Status> {
        let name = req.into_inner().name;
        self.load(&name).await?;
        let svc = self.clone();
        let (tx, rx) = tokio::sync::mpsc::channel(8);
        let mut closing = self.closing.clone();
        tokio::spawn(async move {
            let mut last_done = u64::MAX;
            // Waits `pause`; false when the server began shutting down meanwhile (the client
            // is told, and the stream ends).
            let mut pause = async |tx: &tokio::sync::mpsc::Sender<_>| {
                let sleep = tokio::time::sleep(Duration::from_millis(250));
                let closed = match closing.as_mut() {
                    // A closing sender gone is a server gone: the stream ends with it.
                    Some(closing) => tokio::select! {
                        () = sleep => false,
                        _ = closing.wait_for(|c| *c) => true,
                    },
                    None => {
                        sleep.await;
                        false
                    }
                };
                if closed {
                    let _ = tx
                        .send(Err(ApiError::Unavailable(WATCH_SHUTDOWN.into()).into()))
                        .await;
                }
                !closed
            };
            loop {
                let st = match svc.load(&name).await {
                    // While it runs, its standings change only with its results: counted first
                    // (one cheap call), they are computed only when there are new ones.
                    Ok(comp)
                        if state_of(&comp) == v1::CompetitionState::Running
                            && svc.store.result_count(&name).await.ok() == Some(last_done) =>
                    {
                        if !pause(&tx).await {
                            return;
                        }
                        continue;
                    }
                    Ok(comp) => match state_of(&comp) {
                        v1::CompetitionState::Finished => svc.final_or_current(&comp).await,
                        _ => standings(&*svc.store, &comp).await,
                    }
                    .map(|s| (s, state_of(&comp) != v1::CompetitionState::Running)),
                    Err(e) => Err(e),
                };
                match st {
                    Ok((s, ended)) => {
                        if s.tables_done != last_done || ended {
                            last_done = s.tables_done;
                            if tx.send(Ok(s)).await.is_err() || ended {
                                return;
                            }
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e.into())).await;
                        return;
                    }
                }
                if !pause(&tx).await {
                    return;
                }
            }
        });
        Ok(Response::new(Box::pin(
            tokio_stream::wrappers::ReceiverStream::new(rx),
        )))
    }

    async fn get_standings(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<v1::Standings>, Status> {
        let comp = self.load(&req.into_inner().name).await?;
        Ok(Response::new(self.final_or_current(&comp).await?))
    }

    async fn cancel_competition(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<v1::Competition>, Status> {
        let name = req.into_inner().name;
        loop {
            let bytes = self
                .store
                .record(COMPETITION, &name)
                .await
                .map_err(store_status)?
                .ok_or_else(|| ApiError::NotFound(format!("no competition {name:?}")))?;
            let comp = v1::Competition::decode(bytes.as_slice())
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            if state_of(&comp) != v1::CompetitionState::Running {
                return Err(ApiError::FailedPrecondition(format!(
                    "competition {name:?} is {}",
                    state_name(state_of(&comp))
                ))
                .into());
            }
            let next = v1::Competition {
                state: state_name(v1::CompetitionState::Cancelled).into(),
                status: v1::CompetitionState::Cancelled as i32,
                finished_unix_ms: now_ms(),
                ..comp
            };
            if self
                .store
                .swap_record(COMPETITION, &name, Some(&bytes), &next.encode_to_vec())
                .await
                .map_err(store_status)?
            {
                visibility::mark_ended(
                    &*self.store,
                    &name,
                    state_name(v1::CompetitionState::Cancelled),
                )
                .await
                .map_err(store_status)?;
                arena_telemetry::metrics::metrics()
                    .competitions_finished
                    .add(
                        1,
                        &arena_telemetry::metrics::attr(
                            "state",
                            state_name(v1::CompetitionState::Cancelled),
                        ),
                    );
                return Ok(Response::new(served(next)));
            }
        }
    }

    type ExportReplaysStream = Boxed<v1::Replay>;

    async fn export_replays(
        &self,
        req: Request<v1::CompetitionRequest>,
    ) -> Result<Response<Self::ExportReplaysStream>, Status> {
        let name = req.into_inner().name;
        let comp = self.load(&name).await?;
        if comp.pruned_unix_ms != 0 {
            return Err(ApiError::FailedPrecondition(format!(
                "the results and replays of competition {name:?} were deleted when its retention \
                 (the matchmaker's --competition-retention-days) had passed; its standings remain"
            ))
            .into());
        }
        let mut out = Vec::new();
        let mut ids: Vec<String> = self
            .store
            .results_for(&name)
            .await
            .map_err(store_status)?
            .into_iter()
            .map(|(id, _)| id)
            .collect();
        ids.sort();
        let mut withheld = 0usize;
        for id in ids {
            if let Some(bytes) = self.store.replay(&id).await.map_err(store_status)? {
                let replay = v1::Replay::decode(bytes.as_slice())
                    .map_err(|e| ApiError::Internal(format!("replay {id}: {e}")))?;
                let labels = replay
                    .job
                    .as_ref()
                    .map(|j| j.labels.clone())
                    .unwrap_or_default();
                match check_shown(&*self.store, &id, &labels).await {
                    Ok(()) => out.push(Ok(replay)),
                    Err(ApiError::FailedPrecondition(_)) => withheld += 1,
                    Err(e) => return Err(e.into()),
                }
            }
        }
        if withheld > 0 {
            tracing::info!(competition = %name, withheld, "replays withheld: their deals are still being played");
        }
        Ok(Response::new(Box::pin(tokio_stream::iter(out))))
    }

    async fn get_replay(
        &self,
        req: Request<v1::GetTableRequest>,
    ) -> Result<Response<v1::Replay>, Status> {
        let id = req.into_inner().table_id;
        if id.is_empty() || id.chars().any(char::is_control) || id.len() > MAX_NAME_BYTES * 2 {
            return Err(ApiError::invalid("table_id", "must be a table id").into());
        }
        let bytes = self
            .store
            .replay(&id)
            .await
            .map_err(store_status)?
            .ok_or_else(|| ApiError::NotFound(format!("no replay for table {id:?}")))?;
        let replay =
            v1::Replay::decode(bytes.as_slice()).map_err(|e| ApiError::Internal(e.to_string()))?;
        let labels = replay
            .job
            .as_ref()
            .map(|j| j.labels.clone())
            .unwrap_or_default();
        check_shown(&*self.store, &id, &labels).await?;
        Ok(Response::new(replay))
    }

    async fn get_leaderboard(
        &self,
        req: Request<v1::LeaderboardRequest>,
    ) -> Result<Response<v1::Leaderboard>, Status> {
        let req = req.into_inner();
        let game = GameKind::from_wire_or_default(req.game)
            .map_err(|why| ApiError::invalid("game", why))?;
        let size = ladder::page_size(req.limit)?;
        let start = ladder::page_start(&req.page_token)?;
        ladder::leaderboard(&*self.store, game, start, size)
            .await
            .map(Response::new)
            .map_err(|e| ApiError::from(e).into())
    }
}

impl MatchmakerService {
    async fn final_or_current(&self, comp: &v1::Competition) -> Result<v1::Standings, ApiError> {
        let name = comp
            .spec
            .as_ref()
            .map(|s| s.name.clone())
            .unwrap_or_default();
        if state_of(comp) == v1::CompetitionState::Finished
            && let Some(bytes) = self.store.record(FINAL_STANDINGS, &name).await?
        {
            return v1::Standings::decode(bytes.as_slice())
                .map_err(|e| ApiError::Internal(e.to_string()));
        }
        standings(&*self.store, comp).await
    }
}

/// Why the matchmaker server stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The gRPC server failed.
    #[error("gRPC server: {0}")]
    Serve(#[from] tonic::transport::Error),
    /// The server could not be set up (reflection).
    #[error(transparent)]
    Setup(#[from] arena_serve::ServeError),
}

/// Where the matchmaker listens unless told otherwise (`arena matchmaker --listen`).
pub const DEFAULT_LISTEN: std::net::SocketAddr = std::net::SocketAddr::V4(
    std::net::SocketAddrV4::new(std::net::Ipv4Addr::LOCALHOST, 50054),
);

/// How the matchmaker runs.
#[derive(Clone, Debug)]
pub struct MatchmakerConfig {
    /// Time between passes over the competitions.
    pub supervise_every: Duration,
    /// Runs the continuous ranked ladder of Dou Dizhu when set.
    pub ladder: Option<ladder::LadderConfig>,
    /// Runs the continuous ranked ladder of Mahjong when set (its `game` is taken as Mahjong).
    pub mahjong_ladder: Option<ladder::LadderConfig>,
    /// Who may call what; `None`: operators with a token from the store, spectator reads closed.
    pub auth: Option<arena_auth::Authenticator>,
    /// Most tables one competition may have.
    pub max_tables_per_competition: u64,
    /// The gRPC server's timeout, concurrency limit and connection age.
    pub serve: arena_serve::ServeConfig,
    /// How long results and replays are kept.
    pub retention: retention::Retention,
}

impl Default for MatchmakerConfig {
    fn default() -> Self {
        MatchmakerConfig {
            supervise_every: Duration::from_millis(500),
            ladder: None,
            mahjong_ladder: None,
            auth: None,
            max_tables_per_competition: DEFAULT_MAX_TABLES,
            serve: arena_serve::ServeConfig::default(),
            retention: retention::Retention::default(),
        }
    }
}

impl MatchmakerConfig {
    /// The settings, a line each, as `arena matchmaker` prints them at start.
    pub fn lines(&self) -> arena_serve::ConfigLines {
        let MatchmakerConfig {
            supervise_every,
            ladder: dou_dizhu_ladder,
            mahjong_ladder,
            auth,
            max_tables_per_competition,
            serve,
            retention,
        } = self;
        let show = |l: &Option<ladder::LadderConfig>| {
            l.as_ref()
                .map_or("off".to_string(), ladder::LadderConfig::summary)
        };
        let days = |d: Option<Duration>, after: &str| {
            d.map_or("kept for ever".to_string(), |d| {
                format!("kept {} days{after}", d.as_secs_f64() / 86_400.0)
            })
        };
        let mut out = arena_serve::ConfigLines::default();
        out.push(
            "spectator reads",
            match auth {
                Some(a) if a.spectators_public() => "public",
                _ => "for operators",
            },
        )
        .push("ladder", show(dou_dizhu_ladder))
        .push("Mahjong ladder", show(mahjong_ladder))
        .push(
            "tables per competition",
            format!("at most {max_tables_per_competition}"),
        )
        .push("supervisor", format!("a pass every {supervise_every:?}"))
        .push(
            "competition results",
            days(retention.competitions, " after it ends"),
        )
        .push("ladder tables", days(retention.ladder, ""))
        .extend(serve.lines());
        out
    }
}

/// Serves the matchmaker (with health and reflection) on `listener` and supervises every
/// competition in the store until `shutdown`; the ladder stays off.
pub async fn serve_with_listener(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    serve_with_config(listener, store, MatchmakerConfig::default(), shutdown).await
}

/// Serves the matchmaker (with health and reflection) on `listener`, supervises every competition
/// in the store and runs the ladder if `config` asks for it, until `shutdown`.
pub async fn serve_with_config(
    listener: tokio::net::TcpListener,
    store: Arc<dyn Store>,
    config: MatchmakerConfig,
    shutdown: impl std::future::Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let (health, health_service) = arena_serve::RoleHealth::new(
        "matchmaker",
        vec![
            arena_serve::service_name::<MatchmakerServer<MatchmakerService>>(),
            arena_serve::service_name::<
                v1::bot_registry_server::BotRegistryServer<registry::BotRegistryService>,
            >(),
        ],
        Some(store.clone()),
    )
    .await;
    let reflection = arena_serve::reflection()?;
    tracing::info!(addr = ?listener.local_addr().ok(), store = %store.describe(), ?config, "matchmaker starting");
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let stopped = |mut rx: tokio::sync::watch::Receiver<bool>| async move {
        let _ = rx.wait_for(|s| *s).await;
    };
    let supervisor = tokio::spawn(supervise(
        store.clone(),
        config.supervise_every,
        stopped(stop_rx.clone()),
    ));
    let pruner = tokio::spawn(retention::run(
        store.clone(),
        config.retention,
        stopped(stop_rx.clone()),
    ));
    let ladders: Vec<_> = [
        config.ladder.clone().map(|cfg| ladder::LadderConfig {
            game: DOU_DIZHU,
            ..cfg
        }),
        config
            .mahjong_ladder
            .clone()
            .map(|cfg| ladder::LadderConfig {
                game: MAHJONG,
                ..cfg
            }),
    ]
    .into_iter()
    .flatten()
    .map(|cfg| {
        tracing::info!(?cfg, "ladder running");
        tokio::spawn(ladder::run(store.clone(), cfg, stopped(stop_rx.clone())))
    })
    .collect();
    let auth = config
        .auth
        .clone()
        .unwrap_or_else(|| arena_auth::Authenticator::new(Some(store.clone())));
    // Creating a competition claims its deals and enqueues every table before it answers: up
    // to `max_tables_per_competition` writes, never cut short by the request timeout.
    let serve = config
        .serve
        .clone()
        .with_unbounded("/arena.v1.Matchmaker/CreateCompetition");
    let (closing_tx, closing) = tokio::sync::watch::channel(false);
    let served = arena_serve::server(&serve)
        .layer(arena_auth::AuthLayer::new(auth))
        .add_service(health_service)
        .add_service(reflection)
        .add_service(registry::BotRegistryService::new(store.clone()).into_server())
        .add_service(
            MatchmakerService::new(store)
                .with_max_tables(config.max_tables_per_competition)
                .closing_on(closing)
                .into_server(),
        )
        .serve_with_incoming_shutdown(
            tokio_stream::wrappers::TcpListenerStream::new(listener),
            async {
                shutdown.await;
                let _ = closing_tx.send(true);
                health.stopping().await;
            },
        )
        .await;
    let _ = stop_tx.send(true);
    drop(health);
    let _ = supervisor.await;
    let _ = pruner.await;
    for l in ladders {
        let _ = l.await;
    }
    served?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
