//! The in-memory index the deal library answers "k unused deals within ε of G" from.

use std::collections::{BTreeMap, HashSet};

use arena_store::DealRecord;

use super::distance;

/// A measured deal in the index.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Deal id.
    pub id: String,
    /// Its GDI.
    pub gdi: Vec<f64>,
}

/// Every measured deal of one panel, by GDI dimension.
#[derive(Clone, Debug, Default)]
pub struct LibraryIndex {
    by_dim: BTreeMap<usize, Vec<Entry>>,
}

impl LibraryIndex {
    /// Indexes `records`.
    pub fn build<'a>(records: impl IntoIterator<Item = &'a DealRecord>) -> LibraryIndex {
        let mut idx = LibraryIndex::default();
        for r in records {
            idx.insert(r);
        }
        idx
    }

    /// Adds one record.
    pub fn insert(&mut self, r: &DealRecord) {
        self.by_dim.entry(r.gdi.len()).or_default().push(Entry {
            id: r.id.clone(),
            gdi: r.gdi.clone(),
        });
    }

    /// Number of indexed deals.
    pub fn len(&self) -> usize {
        self.by_dim.values().map(Vec::len).sum()
    }

    /// True if nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every deal within `eps` of `centre` (same dimension) whose id is not in `exclude`, nearest
    /// first (ties by id, so answers are reproducible).
    pub fn within(
        &self,
        centre: &[f64],
        eps: f64,
        exclude: &HashSet<String>,
    ) -> Vec<(f64, &Entry)> {
        let mut out: Vec<(f64, &Entry)> = self
            .by_dim
            .get(&centre.len())
            .into_iter()
            .flatten()
            .filter(|e| !exclude.contains(&e.id))
            .map(|e| (distance(&e.gdi, centre), e))
            .filter(|(d, _)| *d <= eps)
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
        out
    }

    /// All entries of one dimension.
    pub fn entries(&self, dim: usize) -> &[Entry] {
        self.by_dim.get(&dim).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, gdi: &[f64]) -> DealRecord {
        DealRecord {
            id: id.into(),
            game: arena_store::Game::named("ddz"),
            deal: crate::ddz::rules::Deal::generate(1, 0).to_string(),
            source: None,
            panel: "p".into(),
            levels: Vec::new(),
            counts: Vec::new(),
            gdi: gdi.to_vec(),
        }
    }

    fn ids<'a>(found: &[(f64, &'a Entry)]) -> Vec<&'a str> {
        found.iter().map(|(_, e)| e.id.as_str()).collect()
    }

    #[test]
    fn within_includes_the_boundary_and_nothing_beyond_it() {
        // Distances from (0.5, 0.5) are exact in binary: 0.25 and 0.375 along one axis.
        let idx = LibraryIndex::build(&[
            record("at-eps", &[0.75, 0.5]),
            record("beyond", &[0.5, 0.875]),
            record("centre", &[0.5, 0.5]),
        ]);
        let none = HashSet::new();
        let found = idx.within(&[0.5, 0.5], 0.25, &none);
        assert_eq!(ids(&found), ["centre", "at-eps"]);
        assert_eq!(found[1].0, 0.25, "a deal exactly ε away is within ε");
        let shy = idx.within(&[0.5, 0.5], 0.25 - 1e-12, &none);
        assert_eq!(ids(&shy), ["centre"], "just under ε excludes it");
        assert_eq!(
            ids(&idx.within(&[0.5, 0.5], 0.375, &none)),
            ["centre", "at-eps", "beyond"]
        );
    }

    #[test]
    fn within_is_nearest_first_ties_by_id_and_skips_excluded_and_other_dimensions() {
        let idx = LibraryIndex::build(&[
            record("b", &[0.4]),
            record("a", &[0.6]),
            record("near", &[0.55]),
            record("used", &[0.5]),
            record("two-dim", &[0.5, 0.5]),
        ]);
        let exclude: HashSet<String> = ["used".to_string()].into();
        let found = idx.within(&[0.5], 0.2, &exclude);
        assert_eq!(ids(&found), ["near", "a", "b"], "a and b tie at 0.1: by id");
        assert!(found.windows(2).all(|w| w[0].0 <= w[1].0));
        assert!(found.iter().all(|(d, e)| *d <= 0.2 && e.gdi.len() == 1));
        assert_eq!(idx.len(), 5);
        assert_eq!(idx.entries(2).len(), 1);
    }
}
