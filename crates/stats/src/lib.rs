//! The platform's one statistics module, used by every game and every printer.
//!
//! - [`Estimate`]: a sample's size, mean, standard deviation and Student-t 95% interval,
//!   from samples ([`Estimate::of`]), from running sums ([`Estimate::from_sums`]) or from pairs
//!   ([`Estimate::paired`]); its standard error; printed as `mean ± half-width` by `Display`.
//! - [`t975`]: the 97.5% quantile of Student's t, the interval's multiplier.
//! - [`Estimate::p_not_positive`] and [`erfc`]: a one-sided p-value.
//! - [`places`] and [`PlaceTally`]: each player's share of each place in one match (ties split)
//!   and the place probabilities over many.
//!
//! Pure: no I/O, no clocks, no randomness, so a rules crate may use it.

/// A sample mean with its 95% interval (Student's t).
///
/// A sample of fewer than two has no spread to measure: its interval is infinite (printers show
/// the mean alone; JSON writers emit `null`).
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    /// The sample mean (0 for an empty sample).
    pub mean: f64,
    /// Half-width of the 95% interval: the mean ± this; infinite below two samples.
    pub ci95: f64,
    /// The sample standard deviation (n − 1 in the denominator); 0 below two samples.
    pub sd: f64,
    /// Sample size.
    pub n: usize,
}

impl Estimate {
    /// The estimate of the mean of `xs` (Welford's update: no cancellation between large sums).
    pub fn of(xs: impl IntoIterator<Item = f64>) -> Estimate {
        let (mut n, mut mean, mut m2) = (0usize, 0.0f64, 0.0f64);
        for x in xs {
            n += 1;
            let d = x - mean;
            mean += d / n as f64;
            m2 += d * (x - mean);
        }
        Estimate::from_squares(n, mean, m2)
    }

    /// The estimate of a sample given by its size, the sum of its values and the sum of their
    /// squares (for callers that accumulate as they go; for 0/1 outcomes both sums are the
    /// count of ones).
    pub fn from_sums(n: usize, sum: f64, sum_sq: f64) -> Estimate {
        let mean = if n == 0 { 0.0 } else { sum / n as f64 };
        Estimate::from_squares(n, mean, sum_sq - sum * mean)
    }

    /// From the size, the mean and the sum of squared deviations from the mean.
    fn from_squares(n: usize, mean: f64, m2: f64) -> Estimate {
        if n < 2 {
            return Estimate {
                mean,
                ci95: f64::INFINITY,
                sd: 0.0,
                n,
            };
        }
        // Rounding may take the sums' difference a hair below zero for a constant sample.
        let sd = (m2 / (n as f64 - 1.0)).max(0.0).sqrt();
        Estimate {
            mean,
            ci95: t975(n - 1) * sd / (n as f64).sqrt(),
            sd,
            n,
        }
    }

    /// The estimate of the mean difference `a − b` of paired samples (the same deal played by
    /// both, say): pairing cancels what the two share. Pairs beyond the shorter side are ignored.
    pub fn paired(a: impl IntoIterator<Item = f64>, b: impl IntoIterator<Item = f64>) -> Estimate {
        Estimate::of(a.into_iter().zip(b).map(|(x, y)| x - y))
    }

    /// The standard error of the mean, sd / √n (0 below two samples, where there is no spread
    /// to measure).
    pub fn standard_error(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.sd / (self.n as f64).sqrt()
        }
    }

    /// The interval's lower end.
    pub fn low(&self) -> f64 {
        self.mean - self.ci95
    }

    /// The interval's upper end.
    pub fn high(&self) -> f64 {
        self.mean + self.ci95
    }

    /// One-sided p-value that the true mean is ≤ 0 (normal approximation of the mean's
    /// distribution: close to Student's for the hundreds of samples it is used on). A sample
    /// without spread gives 0 when its mean is positive, else 1.
    pub fn p_not_positive(&self) -> f64 {
        if self.n < 2 || self.sd == 0.0 {
            return if self.mean > 0.0 { 0.0 } else { 1.0 };
        }
        let z = self.mean / self.standard_error();
        0.5 * erfc(z / std::f64::consts::SQRT_2)
    }
}

/// `mean ± half-width`, or the mean alone when there is no interval (below two samples). The
/// precision and the `+` flag apply to both numbers (`{:+.2}` gives `+1.25 ± 0.40`); width,
/// fill and alignment to the whole.
impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = f.precision().unwrap_or(3);
        let mut s = if f.sign_plus() {
            format!("{:+.p$}", self.mean)
        } else {
            format!("{:.p$}", self.mean)
        };
        if self.ci95.is_finite() {
            s += &format!(" ± {:.p$}", self.ci95);
        }
        let pad = f.width().unwrap_or(0).saturating_sub(s.chars().count());
        let (before, after) = match f.align() {
            Some(std::fmt::Alignment::Left) => (0, pad),
            Some(std::fmt::Alignment::Center) => (pad / 2, pad - pad / 2),
            // numbers align right by default
            _ => (pad, 0),
        };
        let fill = f.fill();
        for _ in 0..before {
            write!(f, "{fill}")?;
        }
        f.write_str(&s)?;
        for _ in 0..after {
            write!(f, "{fill}")?;
        }
        Ok(())
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (0 is taken as 1).
///
/// Table values for df ≤ 10, where the expansion below drifts (0.003 off at df = 5); beyond,
/// the Cornish–Fisher expansion around the normal's 1.959964, within 0.001 of the exact value.
pub fn t975(df: usize) -> f64 {
    const EXACT: [f64; 10] = [
        12.706_205, 4.302_653, 3.182_446, 2.776_445, 2.570_582, 2.446_912, 2.364_624, 2.306_004,
        2.262_157, 2.228_139,
    ];
    const Z: f64 = 1.959_963_985;
    let df = df.max(1);
    if df <= EXACT.len() {
        return EXACT[df - 1];
    }
    let d = df as f64;
    let (z3, z5, z7) = (Z.powi(3), Z.powi(5), Z.powi(7));
    Z + (z3 + Z) / (4.0 * d)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * Z) / (96.0 * d * d)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * Z) / (384.0 * d * d * d)
}

/// Complementary error function (a Chebyshev fit, relative error < 1.2e-7).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// Each player's share of each place in one match, by `scores` (higher is better): row `p`,
/// column `k` is player `p`'s share of place `k + 1`. Tied players share the places they span
/// equally, so every row and every column sums to 1. Scores that do not compare (NaN) count as
/// tied with everything.
pub fn places<T: PartialOrd>(scores: &[T]) -> Vec<Vec<f64>> {
    let n = scores.len();
    scores
        .iter()
        .map(|s| {
            let better = scores.iter().filter(|x| *x > s).count();
            let tied = n - better - scores.iter().filter(|x| *x < s).count();
            let mut row = vec![0.0; n];
            for place in row.iter_mut().skip(better).take(tied) {
                *place = 1.0 / tied as f64;
            }
            row
        })
        .collect()
}

/// Place probabilities over matches: the mean of each match's place shares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlaceTally {
    sums: Vec<Vec<f64>>,
    matches: usize,
}

impl PlaceTally {
    /// An empty tally for `players` players.
    pub fn new(players: usize) -> PlaceTally {
        PlaceTally {
            sums: vec![vec![0.0; players]; players],
            matches: 0,
        }
    }

    /// Adds one match's place shares (a [`places`] result, or a 1 per player at its rank).
    /// Rows or columns beyond the tally's players are ignored.
    pub fn add(&mut self, shares: &[Vec<f64>]) {
        for (sum, row) in self.sums.iter_mut().zip(shares) {
            for (s, x) in sum.iter_mut().zip(row) {
                *s += x;
            }
        }
        self.matches += 1;
    }

    /// Adds one match's 1-based ranks: player `p` took place `ranks[p]`.
    pub fn add_ranks(&mut self, ranks: &[usize]) {
        for (sum, &k) in self.sums.iter_mut().zip(ranks) {
            if let Some(s) = k.checked_sub(1).and_then(|k| sum.get_mut(k)) {
                *s += 1.0;
            }
        }
        self.matches += 1;
    }

    /// Matches tallied.
    pub fn matches(&self) -> usize {
        self.matches
    }

    /// `[player][place − 1]`: the share of matches in which the player took that place (all
    /// zero before any match).
    pub fn probabilities(&self) -> Vec<Vec<f64>> {
        let m = self.matches.max(1) as f64;
        self.sums
            .iter()
            .map(|row| row.iter().map(|s| s / m).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn the_quantile_matches_students_table() {
        // R: qt(0.975, df)
        for (df, exact) in [
            (1, 12.7062),
            (2, 4.3027),
            (4, 2.7764),
            (5, 2.5706),
            (10, 2.2281),
            (11, 2.2010),
            (12, 2.1788),
            (15, 2.1314),
            (20, 2.0860),
            (30, 2.0423),
            (100, 1.9840),
            (1000, 1.9623),
        ] {
            assert!(close(t975(df), exact, 0.001), "t975({df}) = {}", t975(df));
        }
        assert_eq!(t975(0), t975(1));
        // far out it is the normal's quantile
        assert!(close(t975(1_000_000), 1.959_964, 1e-5));
    }

    #[test]
    fn a_worked_example() {
        // 1..=5: mean 3, sd √2.5 = 1.5811, half-width t(4)·sd/√5 = 2.7764 · 0.7071 = 1.9632
        let e = Estimate::of([1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(e.n, 5);
        assert!(close(e.mean, 3.0, 1e-12));
        assert!(close(e.sd, 1.581_139, 1e-6));
        assert!(close(e.ci95, 1.963_243, 1e-4), "{}", e.ci95);
        assert!(close(e.low(), 3.0 - e.ci95, 1e-12) && close(e.high(), 3.0 + e.ci95, 1e-12));
        assert!(close(e.standard_error(), 1.581_139 / 5f64.sqrt(), 1e-6));
        assert!(close(e.ci95, t975(4) * e.standard_error(), 1e-12));
        let sums = Estimate::from_sums(5, 15.0, 55.0);
        assert!(close(sums.mean, e.mean, 1e-12) && close(sums.ci95, e.ci95, 1e-12));
    }

    #[test]
    fn too_small_a_sample_has_no_interval() {
        let empty = Estimate::of([]);
        assert_eq!((empty.n, empty.mean, empty.sd), (0, 0.0, 0.0));
        assert!(empty.ci95.is_infinite());
        let one = Estimate::of([7.0]);
        assert_eq!((one.n, one.mean, one.sd), (1, 7.0, 0.0));
        assert!(one.ci95.is_infinite());
        assert_eq!((empty.standard_error(), one.standard_error()), (0.0, 0.0));
        let constant = Estimate::of([0.1; 1000]);
        // a constant sample's interval is exactly empty
        assert!(constant.sd == 0.0 && constant.ci95 == 0.0, "{constant:?}");
    }

    #[test]
    fn a_win_rate_from_counts() {
        // 60 wins in 100: sd = √(0.6·0.4·100/99), half-width t(99) · sd / 10
        let e = Estimate::from_sums(100, 60.0, 60.0);
        assert!(close(e.mean, 0.6, 1e-12));
        assert!(close(e.sd, (0.24f64 * 100.0 / 99.0).sqrt(), 1e-12));
        assert!(close(e.ci95, 1.9842 * e.sd / 10.0, 1e-4), "{}", e.ci95);
    }

    #[test]
    fn pairing_cancels_what_the_pairs_share() {
        let luck = [100.0, -250.0, 40.0, 3.0, -77.0, 500.0];
        let a: Vec<f64> = luck.iter().map(|l| l + 1.0).collect();
        let d = Estimate::paired(a.iter().copied(), luck);
        assert_eq!(d.n, 6);
        assert!(close(d.mean, 1.0, 1e-12) && d.ci95 < 1e-9, "{d:?}");
        assert!(Estimate::of(a).ci95 > 100.0);
        // unequal lengths pair what they can
        assert_eq!(Estimate::paired([1.0, 2.0, 3.0], [0.0, 0.0]).n, 2);
    }

    #[test]
    fn p_values_and_erfc() {
        assert!(close(erfc(0.0), 1.0, 1e-7));
        assert!(close(erfc(1.0), 0.157_299_2, 1e-6));
        assert!(close(erfc(-1.0), 1.842_700_8, 1e-6));
        let strong = Estimate::from_sums(100, 100.0, 200.0);
        assert!(strong.p_not_positive() < 1e-6);
        // a mean of exactly zero: even odds
        assert!(close(Estimate::of([-1.0, 1.0]).p_not_positive(), 0.5, 1e-7));
        assert_eq!(Estimate::of([2.0]).p_not_positive(), 0.0);
        assert_eq!(Estimate::of([]).p_not_positive(), 1.0);
    }

    #[test]
    fn an_estimate_prints_its_interval_or_only_its_mean() {
        let e = Estimate::of([1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(format!("{e:+.2}"), "+3.00 ± 1.96");
        assert_eq!(format!("{e:.1}"), "3.0 ± 2.0");
        assert_eq!(format!("{e:>16.2}"), "     3.00 ± 1.96");
        assert_eq!(format!("{e:<14.2}|"), "3.00 ± 1.96   |");
        assert_eq!(format!("{:+.2}", Estimate::of([-0.5])), "-0.50");
        assert_eq!(format!("{}", Estimate::of([0.25, 0.75])), "0.500 ± 3.177");
    }

    #[test]
    fn ties_share_the_places_they_span() {
        let p = places(&[10, 0, -5, -5]);
        assert_eq!(p[0], [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(p[1], [0.0, 1.0, 0.0, 0.0]);
        assert_eq!(p[2], [0.0, 0.0, 0.5, 0.5]);
        assert_eq!(p[3], [0.0, 0.0, 0.5, 0.5]);
        let three = places(&[24.0, -8.0, -8.0, -8.0]);
        assert_eq!(three[1], [0.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]);
        assert!(places::<i32>(&[]).is_empty());
    }

    #[test]
    fn a_tally_averages_the_matches() {
        let mut t = PlaceTally::new(3);
        assert_eq!(t.probabilities(), vec![vec![0.0; 3]; 3]);
        t.add(&places(&[3, 2, 1]));
        t.add(&places(&[1, 2, 2]));
        t.add_ranks(&[1, 3, 2]);
        t.add_ranks(&[9, 0, 1]); // out of range places are not counted
        assert_eq!(t.matches(), 4);
        let p = t.probabilities();
        assert_eq!(p[0], [0.5, 0.0, 0.25]);
        assert_eq!(p[2], [0.375, 0.375, 0.25]);
    }
}
