//! Dou Dizhu's score levels and the grade-difficulty index's dimension, as the equal-strength
//! paper defines them, and an equal-strength competition's default centre and radius (the
//! deal library measures deals with them; a competition's spec is completed with them).

use ddz::Scoring;

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
            // Landlord at bid 1: ±2 × 2^(bombs + spring).
            Scoring::Competition => v.extend([-2 * unit, 2 * unit, -4 * unit, 4 * unit]),
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

/// The equal-strength centre a competition gets when it names none: deals of one bomb under
/// difficulty scoring (GDI vectors of three values) that the landlord wins at the lowest level
/// almost always, at the next about half the time, at the highest rarely.
pub const DEFAULT_CENTRE: [f64; 3] = [0.95, 0.55, 0.15];

/// The equal-strength radius a competition gets when it names none.
pub const DEFAULT_EPS: f64 = 0.15;

/// The centre an equal-strength competition of deals with `bombs` bombs under `scoring` gets
/// when it names none: [`DEFAULT_CENTRE`] where GDI vectors have its three values, else `None`
/// (the competition must name one, of [`gdi_dimension`] values).
pub fn default_centre(scoring: Scoring, bombs: u32) -> Option<Vec<f64>> {
    (gdi_dimension(scoring, bombs.max(1)) == DEFAULT_CENTRE.len()).then(|| DEFAULT_CENTRE.to_vec())
}
