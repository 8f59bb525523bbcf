//! Choosing a target difficulty from a measured library: how many deals lie near a centre, and
//! where the deals near a starting point are densest (mean shift with a flat kernel).
//!
//! An equal-strength competition needs many deals within ε of its centre. A centre picked by
//! hand can lie where the measured library has almost no deals; [`mean_shift`] moves a starting
//! point to the nearby density mode, where the library has the most deals to offer.

use crate::levels::distance;

/// How many of `points` lie within `radius` of `centre` (same dimension only).
pub fn count_within(points: &[Vec<f64>], centre: &[f64], radius: f64) -> usize {
    points
        .iter()
        .filter(|p| p.len() == centre.len() && distance(p, centre) <= radius)
        .count()
}

/// The component-wise mean of `points` of dimension `dim`, or `None` if there are none.
pub fn mean<'a>(points: impl IntoIterator<Item = &'a Vec<f64>>, dim: usize) -> Option<Vec<f64>> {
    let mut sum = vec![0.0; dim];
    let mut n = 0usize;
    for p in points.into_iter().filter(|p| p.len() == dim) {
        for (s, x) in sum.iter_mut().zip(p) {
            *s += x;
        }
        n += 1;
    }
    (n > 0).then(|| sum.into_iter().map(|s| s / n as f64).collect())
}

/// Where a mean shift ended and how it got there.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MeanShift {
    /// The starting point.
    pub start: Vec<f64>,
    /// The end point: the mean of the points within the bandwidth of itself (the local mode).
    pub mode: Vec<f64>,
    /// Steps taken.
    pub iterations: usize,
    /// True if the last step moved less than the tolerance; false if the step limit was hit or
    /// no point lay within the bandwidth (then `mode` is where it stopped).
    pub converged: bool,
    /// Points within the bandwidth of `mode`.
    pub support: usize,
}

/// Moves `start` to the local density mode of `points` (flat kernel of radius `bandwidth`):
/// repeat `centre ← mean of the points within bandwidth of centre` until it moves less than
/// `1e-9` or `max_iterations` steps were taken. Points of another dimension are ignored.
pub fn mean_shift(
    points: &[Vec<f64>],
    start: &[f64],
    bandwidth: f64,
    max_iterations: usize,
) -> MeanShift {
    let dim = start.len();
    let mut centre = start.to_vec();
    let mut iterations = 0;
    let mut converged = false;
    while iterations < max_iterations {
        let near = points
            .iter()
            .filter(|p| p.len() == dim && distance(p, &centre) <= bandwidth);
        let Some(next) = mean(near, dim) else { break };
        iterations += 1;
        let moved = distance(&next, &centre);
        centre = next;
        if moved < 1e-9 {
            converged = true;
            break;
        }
    }
    MeanShift {
        start: start.to_vec(),
        support: count_within(points, &centre, bandwidth),
        mode: centre,
        iterations,
        converged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(centre: [f64; 2], n: usize, spread: f64) -> Vec<Vec<f64>> {
        // A deterministic ring-and-centre cluster: its mean is exactly `centre`.
        let mut v = vec![centre.to_vec()];
        for i in 0..n {
            let a = i as f64 / n as f64 * std::f64::consts::TAU;
            v.push(vec![
                centre[0] + spread * a.cos(),
                centre[1] + spread * a.sin(),
            ]);
        }
        v
    }

    #[test]
    fn counts_only_points_of_the_same_dimension_within_the_radius() {
        let pts = vec![vec![0.0, 0.0], vec![0.3, 0.4], vec![1.0, 1.0], vec![0.0]];
        assert_eq!(count_within(&pts, &[0.0, 0.0], 0.5), 2);
        assert_eq!(count_within(&pts, &[0.0, 0.0], 0.49), 1);
        assert_eq!(count_within(&pts, &[0.0], 0.1), 1);
        assert_eq!(mean(&pts, 2), Some(vec![1.3 / 3.0, 1.4 / 3.0]));
        assert_eq!(mean(&pts, 3), None);
    }

    #[test]
    fn climbs_to_the_nearer_cluster_and_stays_there() {
        let mut pts = cluster([0.2, 0.2], 40, 0.05);
        pts.extend(cluster([0.8, 0.7], 200, 0.05));
        // Starting between the clusters but nearer the small one: the small one's centre.
        let m = mean_shift(&pts, &[0.3, 0.28], 0.15, 100);
        assert!(m.converged);
        assert!(distance(&m.mode, &[0.2, 0.2]) < 1e-9, "{m:?}");
        assert_eq!(m.support, 41);
        assert_eq!(m.start, vec![0.3, 0.28]);
        // Starting near the big one: the big one's centre.
        let m = mean_shift(&pts, &[0.7, 0.65], 0.15, 100);
        assert!(distance(&m.mode, &[0.8, 0.7]) < 1e-9, "{m:?}");
        assert_eq!(m.support, 201);
    }

    #[test]
    fn an_empty_neighbourhood_leaves_the_start_where_it_is() {
        let pts = cluster([0.9, 0.9], 10, 0.01);
        let m = mean_shift(&pts, &[0.1, 0.1], 0.15, 100);
        assert_eq!(m.mode, vec![0.1, 0.1]);
        assert_eq!(m.iterations, 0);
        assert!(!m.converged);
        assert_eq!(m.support, 0);
    }

    #[test]
    fn the_step_limit_is_honoured() {
        // Points along a line: every step moves the centre further along it.
        let pts: Vec<Vec<f64>> = (0..100).map(|i| vec![i as f64 * 0.01]).collect();
        let m = mean_shift(&pts, &[0.0], 0.05, 3);
        assert_eq!(m.iterations, 3);
        assert!(!m.converged);
        assert!(m.mode[0] > 0.0);
    }
}
