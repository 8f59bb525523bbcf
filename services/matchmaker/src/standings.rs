//! Standings: a competition's results folded into places, scores and rank probabilities.

use std::collections::{BTreeMap, HashMap, HashSet};

use arena_compete::Standings;
use arena_games::GameKind;
// Transitional: competition planning moves behind the registry next.
use arena_proto::v1;
use arena_serve::ApiError;
use arena_store::Store;
use arena_store::visibility::{self, DEAL_GROUP_LABEL};
use prost::Message;

use crate::spec::game_of;
use crate::{format_of_name, state_of};

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
        Some(crate::FARMER_SIDE) => v1::Side::Farmers,
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

/// Standings from the results so far. A participant's round score is its landlord score, plus
/// its farmer team's score on the same deal when seats rotate; only complete rounds count towards
/// mean scores and only complete matches towards ranks.
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
    /// A game that ranks its competitions itself: every shown result (its standings are
    /// folded by the game's [`arena_games::Competitions`]).
    shown: Vec<v1::TableResult>,
    /// Dou Dizhu: the shown results folded so far.
    tally: Tally,
}

/// Dou Dizhu's running totals: per (match, round, table), the score so far and the sides
/// finished; per participant, the verdicts against it.
#[derive(Debug, Default)]
struct Tally {
    cells: BTreeMap<(usize, usize, usize), (f64, usize)>,
    verdicts: Vec<u32>,
}

impl Fold {
    /// An empty fold of `comp`'s results.
    pub fn new(comp: &v1::Competition) -> Result<Fold, ApiError> {
        let spec = comp.spec.clone().unwrap_or_default();
        let game = game_of(&spec)?;
        let tally = Tally {
            cells: BTreeMap::new(),
            verdicts: vec![0; spec.participants.len()],
        };
        Ok(Fold {
            spec,
            game,
            seen: HashSet::new(),
            withheld: Vec::new(),
            shown: Vec::new(),
            tally,
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
        if let Some(competitions) = self.game.competitions() {
            self.shown.extend(shown);
            let folded = competitions.standings(&self.spec, &self.shown);
            return Ok(v1::Standings {
                competition: self.spec.name.clone(),
                standings: folded.standings,
                tables_done,
                tables_total: comp.tables_total,
                r#final: ended,
                game: self.game.name().into(),
                drawn_hands: folded.drawn,
                tables_withheld,
            });
        }
        for r in &shown {
            self.tally.add(&self.spec, r);
        }
        Ok(v1::Standings {
            competition: self.spec.name.clone(),
            standings: self.tally.standings(&self.spec),
            tables_done,
            tables_total: comp.tables_total,
            r#final: ended,
            game: arena_games::ddz::GAME.name().into(),
            drawn_hands: 0,
            tables_withheld,
        })
    }
}

impl Tally {
    /// Folds one shown result in: the one fold of a Dou Dizhu result, whether all results are
    /// folded at once or a few at a time.
    fn add(&mut self, spec: &v1::CompetitionSpec, r: &v1::TableResult) {
        let n = spec.participants.len();
        let (matches, rounds) = (spec.matches as usize, spec.rounds as usize);
        let adjusted = spec.format_kind() == v1::CompetitionFormat::DifficultyAdjusted
            || format_of_name(&spec.format) == Some(v1::CompetitionFormat::DifficultyAdjusted);
        let Some(p) = placement_of(r) else {
            return;
        };
        let (m, round, t) = (p.match_index as usize, p.round as usize, p.table as usize);
        if m >= matches || round >= rounds || t >= n {
            return;
        }
        let expected = if adjusted { p.expected } else { 0.0 };
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

    /// The standings of what was folded.
    fn standings(&self, spec: &v1::CompetitionSpec) -> Vec<v1::Standing> {
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
                game: None,
                verdicts: self.verdicts[t],
            });
        }
        out
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FARMER_SIDE, LANDLORD_SIDE, side_label};

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
