//! Planning a checked competition through its game: its table jobs (with the deal library's
//! measured deals when the game deals from it), and putting its tables on the job stream.

use std::collections::{BTreeMap, HashSet};

use arena_games::competition::Library;
use arena_proto::v1;
use arena_serve::ApiError;
use arena_store::Store;
use arena_store::visibility::{self, DEAL_GROUP_LABEL};

use crate::ENQUEUED;
use crate::spec::{Checked, spec_error};

/// Table jobs enqueued by one store call.
const ENQUEUE_BATCH: usize = 500;

/// Every table job of a competition, in the order its game lays them out, each saying how many
/// tables share its deal (for standings: see `shown_results`). A game dealt from the deal
/// library gets its panel's measured deals, less those other competitions hold (this
/// competition's own claims are not, so planning again after a restart gives the same plan).
pub(crate) async fn jobs(store: &dyn Store, c: &Checked) -> Result<Vec<v1::TableJob>, ApiError> {
    let mut library = Library::default();
    if let Some(panel) = c.competitions.library(&c.spec) {
        library.deals = store.deals(&panel).await?;
        let holders: Vec<(String, String)> = store
            .used_deals()
            .await?
            .into_iter()
            .chain(visibility::holders(store).await?)
            .collect();
        for (id, holder) in holders {
            if holder == c.spec.name {
                library.held.insert(id);
            } else {
                library.exclude.insert(id);
            }
        }
    }
    let mut jobs = c.competitions.jobs(&c.spec, &library).map_err(spec_error)?;
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
