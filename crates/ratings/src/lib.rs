//! Ratings for the continuous ladder.
//!
//! Dou Dizhu is two against one, so a single table says little about two bots: the landlord's
//! cards dominate. The ladder therefore plays **duplicate pairs**: the same deal twice, A as
//! landlord against B in both farmer seats, then B as landlord against A. Each bot's pair score is
//! its landlord score plus its farmer team's score; the deal's luck cancels, and the pair is one
//! game between A and B: a win, a draw or a loss. That outcome updates a Weng-Lin rating (a
//! Bayesian rating with a mean μ and an uncertainty σ, from the `skillratings` crate) kept per bot
//! *release*, and the leaderboard ranks by the conservative score μ − 3σ, so a new release has
//! to play before it can rank high.
//!
//! Mahjong is four players each for themselves, so its ladder plays **duplicate sets**: one wall
//! at four tables, the four bots rotated one seat each time, so each bot plays the wall from every
//! seat. Each bot's set score is its sum over the four tables, and the set is one game of four
//! teams of one, ranked by set score (equal scores share a rank), for Weng-Lin's multi-team
//! update ([`Ratings::record_ranking`]).

pub mod history;

use std::collections::BTreeMap;

use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};

/// A bot release's rating.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    /// Mean skill (starts at 25).
    pub mu: f64,
    /// Uncertainty (starts at 25/3).
    pub sigma: f64,
    /// Duplicate pairs played.
    pub games: u64,
}

impl Default for Rating {
    fn default() -> Self {
        let r = WengLinRating::new();
        Rating {
            mu: r.rating,
            sigma: r.uncertainty,
            games: 0,
        }
    }
}

impl Rating {
    /// The leaderboard score: μ − 3σ.
    pub fn conservative(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// The outcome of a duplicate pair for A: A's pair score against B's (same deal, roles swapped).
pub fn pair_outcome(a_pair_score: f64, b_pair_score: f64) -> Outcomes {
    if a_pair_score > b_pair_score {
        Outcomes::WIN
    } else if a_pair_score < b_pair_score {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    }
}

/// Each score's rank, 1 = the highest; equal scores share the better rank (scores 5, 9, 5, 1
/// rank 2, 1, 2, 4).
pub fn ranks(scores: &[f64]) -> Vec<usize> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|t| t.total_cmp(s).is_gt()).count())
        .collect()
}

/// Ratings of every bot release, keyed `bot@release`.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Ratings {
    ratings: BTreeMap<String, Rating>,
}

/// Most leaderboard entries one page may hold (the matchmaker refuses larger pages).
pub const MAX_LEADERBOARD_PAGE: usize = 500;

/// The key of a bot release.
pub fn key(bot: &str, release: &str) -> String {
    format!("{bot}@{release}")
}

impl Ratings {
    /// A release's rating (the default for one never seen).
    pub fn get(&self, key: &str) -> Rating {
        self.ratings.get(key).copied().unwrap_or_default()
    }

    /// Records one duplicate pair between releases `a` and `b` with their pair scores.
    pub fn record_pair(&mut self, a: &str, b: &str, a_pair_score: f64, b_pair_score: f64) {
        if a == b {
            return;
        }
        let (ra, rb) = (self.get(a), self.get(b));
        let cfg = WengLinConfig::new();
        let (na, nb) = weng_lin(
            &WengLinRating {
                rating: ra.mu,
                uncertainty: ra.sigma,
            },
            &WengLinRating {
                rating: rb.mu,
                uncertainty: rb.sigma,
            },
            &pair_outcome(a_pair_score, b_pair_score),
            &cfg,
        );
        self.ratings.insert(
            a.into(),
            Rating {
                mu: na.rating,
                sigma: na.uncertainty,
                games: ra.games + 1,
            },
        );
        self.ratings.insert(
            b.into(),
            Rating {
                mu: nb.rating,
                sigma: nb.uncertainty,
                games: rb.games + 1,
            },
        );
    }

    /// Records one game of several players each for itself (a Mahjong duplicate set): `keys[i]`
    /// scored `scores[i]`, higher is better. A game with fewer than two players, with a release
    /// named twice, or with lists of different lengths teaches nothing and is not recorded.
    pub fn record_ranking(&mut self, keys: &[String], scores: &[f64]) {
        let distinct: std::collections::BTreeSet<&String> = keys.iter().collect();
        if keys.len() < 2 || keys.len() != scores.len() || distinct.len() != keys.len() {
            return;
        }
        let before: Vec<Rating> = keys.iter().map(|k| self.get(k)).collect();
        let teams: Vec<[WengLinRating; 1]> = before
            .iter()
            .map(|r| {
                [WengLinRating {
                    rating: r.mu,
                    uncertainty: r.sigma,
                }]
            })
            .collect();
        let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(ranks(scores))
            .map(|(t, rank)| (t.as_slice(), MultiTeamOutcome::new(rank)))
            .collect();
        let after = weng_lin_multi_team(&ranked, &WengLinConfig::new());
        for ((key, old), new) in keys.iter().zip(&before).zip(after) {
            let Some(new) = new.first() else { continue };
            self.ratings.insert(
                key.clone(),
                Rating {
                    mu: new.rating,
                    sigma: new.uncertainty,
                    games: old.games + 1,
                },
            );
        }
    }

    /// Forgets the rating of release `key` (returns whether there was one).
    pub fn remove(&mut self, key: &str) -> bool {
        self.ratings.remove(key).is_some()
    }

    /// The keys of every rated release of `bot`, in key order.
    pub fn releases_of<'a>(&'a self, bot: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.ratings
            .keys()
            .filter(move |k| k.rsplit_once('@').is_some_and(|(b, _)| b == bot))
            .map(String::as_str)
    }

    /// Every release, best conservative score first (ties by name).
    pub fn leaderboard(&self) -> Vec<(String, Rating)> {
        let mut v: Vec<(String, Rating)> =
            self.ratings.iter().map(|(k, r)| (k.clone(), *r)).collect();
        v.sort_by(|x, y| {
            y.1.conservative()
                .total_cmp(&x.1.conservative())
                .then(x.0.cmp(&y.0))
        });
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_raise_mu_and_every_game_lowers_sigma() {
        let mut r = Ratings::default();
        r.record_pair("a@1", "b@1", 3.0, -1.0);
        let (a, b) = (r.get("a@1"), r.get("b@1"));
        assert!(a.mu > 25.0 && b.mu < 25.0);
        assert!(a.sigma < 25.0 / 3.0 && b.sigma < 25.0 / 3.0);
        r.record_pair("a@1", "b@1", 0.0, 0.0);
        assert!(
            r.get("a@1").sigma < a.sigma,
            "a draw still teaches something"
        );
        assert_eq!(r.get("a@1").games, 2);
        r.record_pair("a@1", "a@1", 5.0, 0.0);
        assert_eq!(r.get("a@1").games, 2, "a release never plays itself");
    }

    #[test]
    fn a_set_of_four_moves_each_release_by_its_rank() {
        let keys: Vec<String> = ["a@1", "b@1", "c@1", "d@1"].map(String::from).to_vec();
        let mut r = Ratings::default();
        r.record_ranking(&keys, &[30.0, -10.0, -10.0, -10.0]);
        let (a, b, c, d) = (r.get("a@1"), r.get("b@1"), r.get("c@1"), r.get("d@1"));
        assert!(a.mu > 25.0 && b.mu < 25.0, "{a:?} {b:?}");
        assert!(
            (b.mu - c.mu).abs() < 1e-9 && (c.mu - d.mu).abs() < 1e-9,
            "tied players move alike"
        );
        assert!(
            [a, b, c, d]
                .iter()
                .all(|x| x.games == 1 && x.sigma < 25.0 / 3.0)
        );
        // Over many sets the order of play is the order of the ratings.
        for _ in 0..40 {
            r.record_ranking(&keys, &[12.0, 4.0, -4.0, -12.0]);
        }
        let board: Vec<String> = r.leaderboard().into_iter().map(|(k, _)| k).collect();
        assert_eq!(board, keys);
        assert_eq!(r.get("d@1").games, 41);
    }

    #[test]
    fn a_ranking_that_cannot_be_a_game_is_not_recorded() {
        let mut r = Ratings::default();
        let k = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        r.record_ranking(&k(&["a@1"]), &[1.0]);
        r.record_ranking(&k(&["a@1", "a@1", "b@1", "c@1"]), &[1.0, 2.0, 3.0, 4.0]);
        r.record_ranking(&k(&["a@1", "b@1"]), &[1.0]);
        assert_eq!(r.leaderboard(), Vec::new());
        assert_eq!(ranks(&[5.0, 9.0, 5.0, 1.0]), [2, 1, 2, 4]);
    }

    #[test]
    fn a_new_release_starts_low_on_the_conservative_board() {
        let mut r = Ratings::default();
        for _ in 0..30 {
            r.record_pair("old@1", "other@1", 1.0, 1.0);
        }
        r.record_pair("new@2", "other@1", 2.0, 1.0);
        let board = r.leaderboard();
        let pos = |k: &str| board.iter().position(|(n, _)| n == k).unwrap();
        assert!(pos("old@1") < pos("new@2"), "{board:?}");
    }
}
