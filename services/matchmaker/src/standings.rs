//! Standings: a competition's results folded into places, scores and rank probabilities.

use std::collections::{HashMap, HashSet};

use arena_games::GameKind;
use arena_games::competition::Fold as GameFold;
use arena_proto::v1;
use arena_serve::ApiError;
use arena_store::Store;
use arena_store::visibility::{self, DEAL_GROUP_LABEL};
use prost::Message;

use crate::spec::game_of;
use crate::state_of;

/// Standings from the results so far, as the competition's game ranks them.
pub async fn standings(
    store: &dyn Store,
    comp: &v1::Competition,
) -> Result<v1::Standings, ApiError> {
    Fold::new(comp)?.update(store, comp).await
}

/// Standings folded result by result: what a watcher of a competition keeps between updates,
/// so that each update decodes and folds only the results that arrived since the last (and the
/// ones withheld then). [`standings`] is one update of a new fold.
#[derive(Debug)]
pub struct Fold {
    spec: v1::CompetitionSpec,
    game: GameKind,
    /// The tables whose results were decoded: folded, or withheld.
    seen: HashSet<String>,
    /// Results decoded but not shown yet (their deal group is still being played).
    withheld: Vec<v1::TableResult>,
    /// The game's own fold of the shown results, or (a game that has none) every shown result,
    /// ranked anew by its [`arena_games::Competitions::standings`] at each update.
    folded: Folded,
}

/// The shown results of a competition, as its game folds them.
#[derive(Debug)]
enum Folded {
    Game(Box<dyn GameFold>),
    Results(Vec<v1::TableResult>),
}

impl Fold {
    /// An empty fold of `comp`'s results.
    pub fn new(comp: &v1::Competition) -> Result<Fold, ApiError> {
        let spec = comp.spec.clone().unwrap_or_default();
        let game = game_of(&spec)?;
        let folded = match game.competitions().and_then(|c| c.fold(&spec)) {
            Some(fold) => Folded::Game(fold),
            None => Folded::Results(Vec::new()),
        };
        Ok(Fold {
            spec,
            game,
            seen: HashSet::new(),
            withheld: Vec::new(),
            folded,
        })
    }

    /// Folds the results not folded yet (new ones, and withheld ones now shown) and returns
    /// the standings of `comp` (its state and table count as they are now).
    pub async fn update(
        &mut self,
        store: &dyn Store,
        comp: &v1::Competition,
    ) -> Result<v1::Standings, ApiError> {
        let results = store.results_for(&self.spec.name).await?;
        let tables_done = results.len() as u64;
        // Nothing changes in `self` until every step succeeded: a failed update loses no result.
        let mut candidates = self.withheld.clone();
        let mut new = Vec::new();
        for (id, bytes) in &results {
            if self.seen.contains(id) {
                continue;
            }
            candidates.push(
                v1::TableResult::decode(bytes.as_slice())
                    .map_err(|e| ApiError::Internal(format!("result {id}: {e}")))?,
            );
            new.push(id.clone());
        }
        let with_result: HashSet<&str> = results.iter().map(|(id, _)| id.as_str()).collect();
        let (shown, withheld) = shown_results(store, candidates, &with_result).await?;
        self.seen.extend(new);
        self.withheld = withheld;
        let ended = state_of(comp) == v1::CompetitionState::Finished;
        let tables_withheld = self.withheld.len() as u64;
        let folded = match &mut self.folded {
            Folded::Game(fold) => {
                for r in &shown {
                    fold.add(r);
                }
                fold.standings()
            }
            Folded::Results(all) => {
                all.extend(shown);
                self.game
                    .competitions()
                    .map(|c| c.standings(&self.spec, all))
                    .unwrap_or_default()
            }
        };
        Ok(v1::Standings {
            competition: self.spec.name.clone(),
            standings: folded.standings,
            tables_done,
            tables_total: comp.tables_total,
            r#final: ended,
            game: self.game.name().into(),
            drawn_hands: folded.drawn,
            tables_withheld,
        })
    }
}

/// The results standings may count (`with_result`: the ids of every result the competition
/// has), and the others, withheld: a result whose deal
/// group (the tables sharing its cards) has not finished tells the cards still in play at the
/// group's other tables, so it counts once the whole group has finished.
async fn shown_results(
    store: &dyn Store,
    results: Vec<v1::TableResult>,
    with_result: &HashSet<&str>,
) -> Result<(Vec<v1::TableResult>, Vec<v1::TableResult>), ApiError> {
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
    let (shown, withheld): (Vec<_>, Vec<_>) = results
        .into_iter()
        .zip(&groups)
        // A table sharing its deal with no other (a record older than deal groups) shows.
        .partition(|(_, g)| g.as_ref().is_none_or(|g| finished.contains(g)));
    let unzip =
        |v: Vec<(v1::TableResult, &Option<String>)>| v.into_iter().map(|(r, _)| r).collect();
    Ok((unzip(shown), unzip(withheld)))
}
