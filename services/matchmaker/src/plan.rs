//! Planning a checked competition: its table jobs and table ids, the deals it claims, and
//! putting its tables on the job stream.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::collections::{BTreeMap, HashSet};

use arena_compete::{Format, Reuse, Shape};
use arena_proto::v1;
use arena_serve::ApiError;
use arena_store::Store;
use arena_store::visibility::{self, DEAL_GROUP_LABEL};

use crate::spec::{Checked, Plan};
use crate::{ENQUEUED, index, side_label};

/// Table jobs enqueued by one store call.
const ENQUEUE_BATCH: usize = 500;

/// The table id of table `t` in round `r` of match `m` (with seat rotation, the participant's
/// farmer table adds `/f`).
pub fn table_id(name: &str, m: usize, r: usize, t: usize) -> String {
    format!("{name}/m{m}/r{r}/t{t}")
}

/// Every table job of a competition, in (match, round, table) order (Mahjong: match, then
/// schedule order).
pub(crate) async fn jobs(store: &dyn Store, c: &Checked) -> Result<Vec<v1::TableJob>, ApiError> {
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
        Plan::Game(game) => {
            return Ok(game
                .competitions()
                .map_or_else(Vec::new, |g| g.jobs(&c.spec)));
        }
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
                        game: arena_games::ddz::GAME.name().into(),
                        seats: seats.into_iter().map(|bot| v1::SeatSpec { bot }).collect(),
                        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
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
pub(crate) async fn enqueue(store: &dyn Store, c: &Checked) -> Result<(), ApiError> {
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
