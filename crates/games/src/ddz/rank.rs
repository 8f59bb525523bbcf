//! From per-match table totals to ranks, rank probabilities, the final ranking and agreement.

use crate::ddz::rules::DealRng;

/// Standings of a competition.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Standings {
    /// Table names (their landlord bots), in table order.
    pub tables: Vec<String>,
    /// Summed score of each table in each match: `[match][table]`.
    pub totals: Vec<Vec<f64>>,
    /// Rank of each table in each match, 1 = best: `[match][table]`.
    pub ranks: Vec<Vec<usize>>,
    /// Probability of each rank: `[table][rank − 1]`.
    pub rank_probs: Vec<Vec<f64>>,
    /// Each table's most probable rank (the better one when two are equally likely).
    pub most_probable: Vec<usize>,
    /// Each table's mean rank.
    pub mean_rank: Vec<f64>,
    /// Each table's mean score per round.
    pub mean_score: Vec<f64>,
    /// Tables best first: by most probable rank, ties by mean rank.
    pub final_order: Vec<usize>,
}

/// Ranks `totals` (higher is better), 1-based; ties broken uniformly at random by `rng`.
pub fn rank(totals: &[f64], rng: &mut DealRng) -> Vec<usize> {
    let mut keyed: Vec<(usize, f64, u32)> = totals
        .iter()
        .enumerate()
        .map(|(i, &t)| (i, t, rng.next_u32()))
        .collect();
    keyed.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
    let mut ranks = vec![0; totals.len()];
    for (pos, &(i, _, _)) in keyed.iter().enumerate() {
        ranks[i] = pos + 1;
    }
    ranks
}

impl Standings {
    /// Standings from per-match totals and the number of rounds per match.
    pub fn from_totals(
        tables: Vec<String>,
        totals: Vec<Vec<f64>>,
        rounds: usize,
        seed: u64,
    ) -> Standings {
        let n = tables.len();
        let mut rng = DealRng::new(seed, 0x7135);
        let ranks: Vec<Vec<usize>> = totals.iter().map(|t| rank(t, &mut rng)).collect();
        let r = ranks.len().max(1) as f64;
        // Ties were broken at random above (each match's ranking is a strict order, which the
        // agreement measures need), so each match adds a whole place per table.
        let mut tally = arena_stats::PlaceTally::new(n);
        for m in &ranks {
            tally.add_ranks(m);
        }
        let rank_probs = tally.probabilities();
        let mean_rank: Vec<f64> = (0..n)
            .map(|t| ranks.iter().map(|m| m[t] as f64).sum::<f64>() / r)
            .collect();
        let mean_score: Vec<f64> = (0..n)
            .map(|t| totals.iter().map(|m| m[t]).sum::<f64>() / r / rounds.max(1) as f64)
            .collect();
        let most_probable: Vec<usize> = rank_probs
            .iter()
            .map(|p| {
                let mut best = 0;
                for k in 1..n {
                    if p[k] > p[best] {
                        best = k;
                    }
                }
                best + 1
            })
            .collect();
        let mut final_order: Vec<usize> = (0..n).collect();
        final_order.sort_by(|&a, &b| {
            most_probable[a]
                .cmp(&most_probable[b])
                .then(mean_rank[a].total_cmp(&mean_rank[b]))
                .then(a.cmp(&b))
        });
        Standings {
            tables,
            totals,
            ranks,
            rank_probs,
            most_probable,
            mean_rank,
            mean_score,
            final_order,
        }
    }

    /// The fraction of matches whose ranking equals `truth` (tables best first) exactly.
    pub fn exact_agreement(&self, truth: &[usize]) -> f64 {
        let hits = self.ranks.iter().filter(|m| order_of(m) == truth).count();
        hits as f64 / self.ranks.len().max(1) as f64
    }

    /// Mean Kendall τ between each match's ranking and `truth`.
    pub fn mean_tau(&self, truth: &[usize]) -> f64 {
        self.ranks
            .iter()
            .map(|m| kendall_tau(&order_of(m), truth))
            .sum::<f64>()
            / self.ranks.len().max(1) as f64
    }

    /// A text table: each table's probability of each rank, its most probable rank and final place.
    pub fn render(&self) -> String {
        let n = self.tables.len();
        let w = self
            .tables
            .iter()
            .map(String::len)
            .max()
            .unwrap_or(5)
            .max(5);
        let mut s = format!("  {:>5}  {:<w$}", "place", "table", w = w);
        for k in 1..=n {
            s += &format!(" {:>6}", format!("P(#{k})"));
        }
        s += "   mean score  mean rank\n";
        for (place, &t) in self.final_order.iter().enumerate() {
            s += &format!("  {:>5}  {:<w$}", place + 1, self.tables[t], w = w);
            for k in 0..n {
                let p = self.rank_probs[t][k];
                let cell = if p == 0.0 {
                    "·".to_string()
                } else {
                    format!("{p:.2}")
                };
                let mark = if k + 1 == self.most_probable[t] {
                    "*"
                } else {
                    " "
                };
                s += &format!(" {:>5}{mark}", cell);
            }
            s += &format!(
                "   {:>+10.3}  {:>9.2}\n",
                self.mean_score[t], self.mean_rank[t]
            );
        }
        s
    }
}

/// Tables best first from 1-based ranks.
pub fn order_of(ranks: &[usize]) -> Vec<usize> {
    let mut o: Vec<usize> = (0..ranks.len()).collect();
    o.sort_by_key(|&t| ranks[t]);
    o
}

/// Kendall's τ between two orderings of the same items (best first): 1 = same order, −1 = reversed.
pub fn kendall_tau(a: &[usize], b: &[usize]) -> f64 {
    let n = a.len();
    if n < 2 {
        return 1.0;
    }
    let mut pos_b = vec![0; n];
    for (i, &t) in b.iter().enumerate() {
        pos_b[t] = i;
    }
    let mut s = 0i64;
    for i in 0..n {
        for j in i + 1..n {
            // a ranks a[i] above a[j]; does b agree?
            s += if pos_b[a[i]] < pos_b[a[j]] { 1 } else { -1 };
        }
    }
    s as f64 / (n * (n - 1) / 2) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tau_extremes() {
        assert_eq!(kendall_tau(&[0, 1, 2, 3], &[0, 1, 2, 3]), 1.0);
        assert_eq!(kendall_tau(&[0, 1, 2, 3], &[3, 2, 1, 0]), -1.0);
        assert!((kendall_tau(&[0, 1, 2], &[1, 0, 2]) - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn probabilities_and_final_order() {
        let totals = vec![
            vec![3.0, 2.0, 1.0],
            vec![3.0, 1.0, 2.0],
            vec![1.0, 3.0, 2.0],
            vec![5.0, 4.0, 0.0],
        ];
        let s = Standings::from_totals(vec!["a".into(), "b".into(), "c".into()], totals, 1, 1);
        assert_eq!(s.rank_probs[0], vec![0.75, 0.0, 0.25]);
        // c is 2nd and 3rd equally often: the better place wins the tie.
        assert_eq!(s.most_probable, vec![1, 2, 2]);
        assert_eq!(s.final_order, vec![0, 1, 2]);
        assert_eq!(s.exact_agreement(&[0, 1, 2]), 0.5);
        for p in &s.rank_probs {
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        assert!(s.render().contains("P(#1)"));
    }

    #[test]
    fn ties_are_broken_but_probabilities_stay_proper() {
        let totals = vec![vec![1.0, 1.0]; 200];
        let s = Standings::from_totals(vec!["a".into(), "b".into()], totals, 1, 9);
        assert!((s.rank_probs[0][0] - 0.5).abs() < 0.15);
        assert!((s.rank_probs[0][0] + s.rank_probs[1][0] - 1.0).abs() < 1e-12);
    }
}
