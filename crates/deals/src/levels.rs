//! Score levels and the grade-difficulty index (GDI), as the equal-strength paper defines them.

/// Score levels and the GDI's dimension are the game's: `arena-games` fills a Dou Dizhu
/// competition's default centre from them.
pub use arena_games::ddz::levels::{gdi_dimension, score_levels};

/// The index of `score` in `levels`, or `None` if it is not a level.
pub fn level_of(levels: &[i64], score: i64) -> Option<usize> {
    levels.binary_search(&score).ok()
}

/// The GDI of per-level table counts: `g_j = (tables at level j+1 or higher) / tables`,
/// `j = 1 … k−1`. Empty when no table played.
pub fn gdi(counts: &[u32]) -> Vec<f64> {
    // Summed in u64: imported counts come from outsiders, and u32 counts can add up past u32.
    let n: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    if n == 0 || counts.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(counts.len() - 1);
    let mut above: u64 = n;
    for &c in &counts[..counts.len() - 1] {
        above -= u64::from(c);
        out.push(above as f64 / n as f64);
    }
    out
}

/// Euclidean distance between two GDI vectors (shorter one padded with zeros).
pub fn distance(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().max(b.len());
    (0..n)
        .map(|i| a.get(i).copied().unwrap_or(0.0) - b.get(i).copied().unwrap_or(0.0))
        .map(|d| d * d)
        .sum::<f64>()
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_games::ddz::rules::Scoring;

    #[test]
    fn the_gdi_has_a_value_per_level_above_the_lowest() {
        assert_eq!(gdi_dimension(Scoring::Difficulty, 1), 3);
        assert_eq!(gdi_dimension(Scoring::Difficulty, 2), 5);
        assert_eq!(gdi_dimension(Scoring::Wp, 3), 1);
        // Competition scoring: ±2 and ±4 (spring) per bomb count, some levels shared.
        assert_eq!(
            gdi_dimension(Scoring::Competition, 1),
            score_levels(Scoring::Competition, 1).len() - 1
        );
        assert_eq!(score_levels(Scoring::Competition, 1), [-8, -4, -2, 2, 4, 8]);
    }

    #[test]
    fn papers_example() {
        // k = 4 levels (−2, −1, 1, 2), 10 tables, counts (1, 3, 2, 4) → G = (0.9, 0.6, 0.4).
        assert_eq!(score_levels(Scoring::Difficulty, 1), [-2, -1, 1, 2]);
        let g = gdi(&[1, 3, 2, 4]);
        let want = [0.9, 0.6, 0.4];
        for (x, w) in g.iter().zip(want) {
            assert!((x - w).abs() < 1e-12, "{g:?}");
        }
        assert_eq!(level_of(&[-2, -1, 1, 2], 1), Some(2));
        assert_eq!(level_of(&[-2, -1, 1, 2], 3), None);
    }

    #[test]
    fn counts_past_u32_do_not_overflow() {
        // Seen writing the deal_import fuzz target: counts [u32::MAX, 1] overflowed the u32 total.
        let g = gdi(&[u32::MAX, 1]);
        assert_eq!(g.len(), 1);
        assert!(
            (g[0] - 1.0 / (f64::from(u32::MAX) + 1.0)).abs() < 1e-15,
            "{g:?}"
        );
    }

    #[test]
    fn distances() {
        assert!((distance(&[0.96, 0.91, 0.79], &[0.96, 0.91, 0.79])).abs() < 1e-12);
        assert!((distance(&[0.0, 0.0], &[0.3, 0.4]) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn levels_of_other_modes() {
        assert_eq!(score_levels(Scoring::Wp, 3), [0, 1]);
        assert_eq!(score_levels(Scoring::Adp, 1), [-4, -2, 2, 4]);
        assert_eq!(score_levels(Scoring::Difficulty, 0), [-1, 1]);
    }
}
