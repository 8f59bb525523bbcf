//! The in-memory index the deal library answers "k unused deals within ε of G" from.

use std::collections::{BTreeMap, HashSet};

use arena_store::DealRecord;

use crate::levels::distance;

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
