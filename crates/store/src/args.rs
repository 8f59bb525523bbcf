//! The argument checks of [`crate::Store`]'s methods, one function per kind of argument, shared
//! by both backends so that a name is refused the same way (and named the same way in the
//! [`StoreError::Invalid`] message) whichever backend is behind the trait. Each backend checks
//! its own entry-id format (`parse_entry_id`, `check_entry_id`): the two formats differ.

use std::time::Duration;

use crate::{StoreError, StoreResult, check_id, check_reclaim_after, check_ttl};

/// A panel id.
pub(crate) fn panel(id: &str) -> StoreResult<()> {
    check_id("panel id", id)
}

/// A deal of a panel.
pub(crate) fn deal(panel: &str, id: &str) -> StoreResult<()> {
    self::panel(panel)?;
    check_id("deal id", id)
}

/// A competition name.
pub(crate) fn competition(name: &str) -> StoreResult<()> {
    check_id("competition", name)
}

/// A claim of deals for a competition.
pub(crate) fn claim(competition: &str, deal_ids: &[String]) -> StoreResult<()> {
    self::competition(competition)?;
    deal_ids.iter().try_for_each(|id| check_id("deal id", id))
}

/// A table id.
pub(crate) fn table(id: &str) -> StoreResult<()> {
    check_id("table id", id)
}

/// Results to delete, and the competition they are listed under.
pub(crate) fn results(competition: Option<&str>, table_ids: &[String]) -> StoreResult<()> {
    table_ids.iter().try_for_each(|id| result(id, competition))
}

/// A result's table and the competition it is listed under: a listed table's id is the
/// competition's name, or starts with it and `/` (`cup/m0/r0/t0`), so that its keys can be
/// found, and placed in the competition's Redis Cluster slot, from the table id alone
/// ([`crate::competition_of`]).
pub(crate) fn result(table_id: &str, competition: Option<&str>) -> StoreResult<()> {
    table(table_id)?;
    let Some(competition) = competition else {
        return Ok(());
    };
    self::competition(competition)?;
    if crate::competition_of(table_id) != competition {
        return Err(StoreError::Invalid(format!(
            "table id {table_id:?} is not under competition {competition:?}: a listed table's id \
             starts with \"{competition}/\""
        )));
    }
    Ok(())
}

/// A consumer (referee) name.
pub(crate) fn consumer(name: &str) -> StoreResult<()> {
    check_id("consumer", name)
}

/// `next_job`'s consumer and `reclaim_after`; the latter in milliseconds.
pub(crate) fn next_job(consumer: &str, reclaim_after: Duration) -> StoreResult<u64> {
    self::consumer(consumer)?;
    check_reclaim_after(reclaim_after)
}

/// A bot name (of a lookup; records are checked whole by `check_bot`).
pub(crate) fn bot(name: &str) -> StoreResult<()> {
    check_id("bot name", name)
}

/// A bot and a host holding it.
pub(crate) fn presence(bot: &str, host: &str) -> StoreResult<()> {
    self::bot(bot)?;
    check_id("host", host)
}

/// A bot, a host and the presence's TTL; the latter in milliseconds.
pub(crate) fn presence_for(bot: &str, host: &str, ttl: Duration) -> StoreResult<u64> {
    presence(bot, host)?;
    check_ttl(ttl)
}

/// A record kind.
pub(crate) fn record_kind(kind: &str) -> StoreResult<()> {
    check_id("record kind", kind)
}

/// A record's kind and key.
pub(crate) fn record(kind: &str, key: &str) -> StoreResult<()> {
    record_kind(kind)?;
    check_id("record key", key)
}

/// [`StoreError::Invalid`] for an entry id that cannot be one the queue handed out.
pub(crate) fn not_an_entry_id(id: &str) -> StoreError {
    StoreError::Invalid(format!("{id:?} is not a job entry id"))
}
