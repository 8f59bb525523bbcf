//! What the roles agree on so that no card a table still holds is served to anyone, operators
//! included (see `docs/security.md`).
//!
//! - **Deal groups.** Tables that share a deal (a duplicate round, a table and its seat-rotated
//!   twin, a ladder pair) carry the same [`DEAL_GROUP_LABEL`] in their job; the creator records
//!   the group's tables ([`put_deal_group`], record kind [`DEAL_GROUP_KIND`]) before enqueueing
//!   them. A table's result or replay holds its deal, so it is served only once every table of
//!   its group has a result ([`group_state`]).
//! - **Ended competitions.** A competition's claimed deals are dealt over its whole life; they are
//!   served (by the deal library) only once it has ended ([`mark_ended`], record kind
//!   [`ENDED_KIND`], whose value is the final state). [`held_deals`] lists the deals that are off
//!   limits now. A referee plays no table of a cancelled competition ([`ended_state`]).
//! - **Fresh deals.** A competition dealing fresh deals from its seed (duplicate, random) claims
//!   none, yet its seed may be the source of measured deals in the library: it records the
//!   source and how many deals it deals ([`put_fresh_deals`], record kind [`FRESH_KIND`]), and
//!   [`held_deals`] holds those library ids too until it has ended.
//! - **Scheduled tables only.** A table of a competition, a ladder or a deal group is written by
//!   the job its scheduler enqueued, never by a submitted one ([`why_reserved`]): a submitted
//!   table under such an id would finish its deal group early (serving the deal of a table still
//!   being played) and take the result slot of the real table.

use std::collections::{BTreeSet, HashMap, HashSet};

use crate::{Store, StoreError, StoreResult};

/// The job label naming a table's deal group.
pub const DEAL_GROUP_LABEL: &str = "deal_group";
/// Record kind of deal groups: key = group, value = JSON list of table ids.
pub const DEAL_GROUP_KIND: &str = "deal-group";
/// Record kind of ended competitions: key = competition, value = its final state
/// (`finished`, `cancelled`, `failed`).
pub const ENDED_KIND: &str = "competition-ended";

/// Record kind of competitions (key: the competition's name).
pub const COMPETITION_KIND: &str = "competition";
/// The `competition` of the default game's ladder tables; every other game's ladder files its
/// tables under `ladder-<game>`.
pub const LADDER_COMPETITION: &str = "ladder";

/// Whether `name` is a ladder's competition (`ladder`, `ladder-<anything>`): reserved for the
/// matchmaker's ladder tables, whatever games are registered.
pub fn is_ladder_competition(name: &str) -> bool {
    name == LADDER_COMPETITION
        || name
            .strip_prefix(LADDER_COMPETITION)
            .is_some_and(|rest| rest.starts_with('-'))
}

/// Why a table submitted from outside (not enqueued by a competition or a ladder) may not carry
/// this id, competition and labels, or `None` if it may: its id (or its `competition`) is under a
/// competition or a ladder, or it claims a deal group or a placement.
pub async fn why_reserved<'a>(
    store: &dyn Store,
    table_id: &str,
    competition: &str,
    labels: impl IntoIterator<Item = (&'a String, &'a String)>,
    has_placement: bool,
) -> StoreResult<Option<String>> {
    if labels.into_iter().any(|(k, _)| k == DEAL_GROUP_LABEL) {
        return Ok(Some(format!(
            "the {DEAL_GROUP_LABEL:?} label is set only by the matchmaker, for the tables it \
             schedules"
        )));
    }
    if has_placement {
        return Ok(Some(
            "a placement is set only by the matchmaker, for the tables it schedules".into(),
        ));
    }
    for name in [crate::competition_of(table_id), competition] {
        if name.is_empty() {
            continue;
        }
        if is_ladder_competition(name) {
            return Ok(Some(format!(
                "{name:?} is the ladder's: its tables are scheduled by the matchmaker only"
            )));
        }
        if store.record(COMPETITION_KIND, name).await?.is_some() {
            return Ok(Some(format!(
                "it is under competition {name:?}, whose tables are scheduled by the matchmaker \
                 only (only the competition's own job writes their results)"
            )));
        }
    }
    Ok(None)
}

/// Records that the tables `table_ids` share the deal of `group`.
pub async fn put_deal_group(
    store: &dyn Store,
    group: &str,
    table_ids: &[String],
) -> StoreResult<()> {
    let value = serde_json::to_vec(table_ids)
        .map_err(|e| StoreError::Invalid(format!("deal group {group}: {e}")))?;
    store.put_record(DEAL_GROUP_KIND, group, &value).await
}

/// Where a deal group stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GroupState {
    /// Every table of the group has a result: its deal may be shown.
    Finished,
    /// This table of the group is still to be played (or being played).
    Playing(String),
    /// The group has no record: nobody can tell, so its deal stays hidden.
    Unknown,
}

/// The tables of `group` as recorded (`None`: no record).
pub async fn group_tables(store: &dyn Store, group: &str) -> StoreResult<Option<Vec<String>>> {
    let Some(bytes) = store.record(DEAL_GROUP_KIND, group).await? else {
        return Ok(None);
    };
    crate::decode(|| format!("{DEAL_GROUP_KIND}/{group}"), &bytes).map(Some)
}

/// Where `group` stands.
pub async fn group_state(store: &dyn Store, group: &str) -> StoreResult<GroupState> {
    let Some(tables) = group_tables(store, group).await? else {
        return Ok(GroupState::Unknown);
    };
    for t in tables {
        if store.result(&t).await?.is_none() {
            return Ok(GroupState::Playing(t));
        }
    }
    Ok(GroupState::Finished)
}

/// Which of `groups` have finished: every table of the group has a result. `with_result` lists
/// tables already known to have one (a competition's results, say), so only the others are
/// read from the store. A group without a record is not finished (nobody can tell).
pub async fn finished_groups<'a>(
    store: &dyn Store,
    groups: impl IntoIterator<Item = &'a str>,
    with_result: &HashSet<&str>,
) -> StoreResult<HashSet<String>> {
    let mut finished = HashSet::new();
    let groups: BTreeSet<&str> = groups.into_iter().collect();
    'group: for group in groups {
        let Some(tables) = group_tables(store, group).await? else {
            continue;
        };
        for t in &tables {
            if !with_result.contains(t.as_str()) && store.result(t).await?.is_none() {
                continue 'group;
            }
        }
        finished.insert(group.to_string());
    }
    Ok(finished)
}

/// Record kind of a competition's fresh deals: key = competition, value = JSON
/// [`FreshDeals`].
pub const FRESH_KIND: &str = "competition-fresh";

/// The deals a competition deals fresh from its seed: deals `0..count` of `source`, which the
/// library names by [`crate::DealSource::deal_id`] if it measured them.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FreshDeals {
    /// The stream the deals come from.
    pub source: crate::DealSource,
    /// How many deals, from index 0.
    pub count: u64,
}

/// Records that `competition` deals `fresh`.
pub async fn put_fresh_deals(
    store: &dyn Store,
    competition: &str,
    fresh: &FreshDeals,
) -> StoreResult<()> {
    store
        .put_record(FRESH_KIND, competition, &crate::encode(fresh)?)
        .await
}

/// Records that `competition` ended in `state`.
pub async fn mark_ended(store: &dyn Store, competition: &str, state: &str) -> StoreResult<()> {
    store
        .put_record(ENDED_KIND, competition, state.as_bytes())
        .await
}

/// The final state of `competition` if it has ended.
pub async fn ended_state(store: &dyn Store, competition: &str) -> StoreResult<Option<String>> {
    Ok(store
        .record(ENDED_KIND, competition)
        .await?
        .map(|v| String::from_utf8_lossy(&v).into_owned()))
}

/// The library's deal ids that competitions which have not ended deal (dealt, or still to be
/// dealt): those they claimed, and those of the sources they deal fresh from.
pub async fn held_deals(store: &dyn Store) -> StoreResult<HashSet<String>> {
    Ok(holders(store).await?.into_keys().collect())
}

/// [`held_deals`], each with a competition holding it.
pub async fn holders(store: &dyn Store) -> StoreResult<HashMap<String, String>> {
    let ended: BTreeSet<String> = store
        .records(ENDED_KIND)
        .await?
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    let mut held: HashMap<String, String> = store
        .used_deals()
        .await?
        .into_iter()
        .filter(|(_, holder)| !ended.contains(holder))
        .collect();
    for (competition, bytes) in store.records(FRESH_KIND).await? {
        if ended.contains(&competition) {
            continue;
        }
        let fresh: FreshDeals = crate::decode(|| format!("{FRESH_KIND}/{competition}"), &bytes)?;
        for i in 0..fresh.count {
            held.entry(fresh.source.deal_id(i))
                .or_insert_with(|| competition.clone());
        }
    }
    Ok(held)
}

/// Whether the result or replay of a table whose job carried `labels` may be shown: `Ok(())`,
/// or `Err` saying why not (naming the table still holding the deal).
pub async fn may_show<'a>(
    store: &dyn Store,
    labels: impl IntoIterator<Item = (&'a String, &'a String)>,
) -> StoreResult<Result<(), String>> {
    let Some((_, group)) = labels.into_iter().find(|(k, _)| *k == DEAL_GROUP_LABEL) else {
        // A table that shares its deal with no other (a submitted table): finished, shown.
        return Ok(Ok(()));
    };
    Ok(match group_state(store, group).await? {
        GroupState::Finished => Ok(()),
        GroupState::Playing(t) => Err(format!(
            "its deal is also the deal of table {t}, which is still to be played or being played; \
             it is shown once that table has finished"
        )),
        GroupState::Unknown => Err(format!(
            "its deal group {group:?} has no record, so nobody can tell whether a table still holds its deal"
        )),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_ladder_competition_is_reserved_whatever_its_game() {
        for name in ["ladder", "ladder-mahjong", "ladder-chess"] {
            assert!(super::is_ladder_competition(name), "{name}");
        }
        for name in ["ladders", "ladderx", "my-ladder", "", "cup"] {
            assert!(!super::is_ladder_competition(name), "{name}");
        }
    }
}
