//! Score levels and the grade-difficulty index (GDI), as the equal-strength paper defines them.

use crate::ddz::rules::Scoring;

/// The possible landlord scores `s1 < … < sk` of a fixed-landlord deal holding `bombs` bombs
/// (rocket included) under `mode`, scored at bid 1 without doubling.
///
/// Difficulty scoring gives `±(b + 1)` for `b` bombs played, so one bomb gives −2, −1, 1, 2.
pub fn score_levels(mode: Scoring, bombs: u32) -> Vec<i64> {
    let mut v: Vec<i64> = Vec::new();
    for b in 0..=bombs {
        let unit = 1i64 << b.min(40);
        match mode {
            Scoring::Difficulty => v.extend([-(b as i64 + 1), b as i64 + 1]),
            Scoring::Adp => v.extend([-2 * unit, 2 * unit]),
            Scoring::Wp => v.extend([0, 1]),
            // Landlord at bid 1: ±2 × 2^(bombs + spring) (Botzone's FightTheLandlord2 alike).
            Scoring::Competition | Scoring::Botzone => {
                v.extend([-2 * unit, 2 * unit, -4 * unit, 4 * unit])
            }
            // FightTheLandlord's card-type weights give nearly every game a score of its own:
            // no levels (panels refuse the mode), only the forfeit and the bare win and loss.
            Scoring::BotzoneFtl => v.extend([-200, 0, 400, 500]),
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// How many values the GDI of a deal holding `bombs` bombs has under `mode`: one per score level
/// above the lowest (`2 × (bombs + 1) − 1` under difficulty scoring). Equal-strength centres
/// have this many values.
pub fn gdi_dimension(mode: Scoring, bombs: u32) -> usize {
    score_levels(mode, bombs).len().saturating_sub(1)
}

/// The index of `score` in `levels`, or `None` if it is not a level.
pub fn level_of(levels: &[i64], score: i64) -> Option<usize> {
    levels.binary_search(&score).ok()
}

/// The GDI of per-level counts and the distance between two GDIs are the same for every game.
pub use crate::difficulty::{distance, gdi};

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(
            score_levels(Scoring::Botzone, 0),
            score_levels(Scoring::Competition, 0)
        );
        assert_eq!(score_levels(Scoring::Adp, 1), [-4, -2, 2, 4]);
        assert_eq!(score_levels(Scoring::Difficulty, 0), [-1, 1]);
    }
}
