//! Each release's rating over time, for charts (the web console's bots page): after every game
//! the ladder rates, the rating it left the release with. One store record per release, of kind
//! [`HISTORY_KIND`] under [`history_key`], holding JSON [`Point`]s oldest first, at most
//! [`HISTORY_POINTS`] (the oldest go first). The ladder writes it after the rating itself is
//! committed; a matchmaker stopped in between loses that one point of the chart, never a rating.

/// Record kind of rating histories.
pub const HISTORY_KIND: &str = "ladder-history";

/// Most points kept per release.
pub const HISTORY_POINTS: usize = 500;

/// A release's rating after one rated game.
#[derive(Copy, Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Point {
    /// When the game was rated (Unix milliseconds).
    pub unix_ms: u64,
    /// The rating's mean after it.
    pub mu: f64,
    /// Its uncertainty after it.
    pub sigma: f64,
    /// Games rated so far.
    pub games: u64,
}

/// The record key of the history of release `key` (`bot@release`, [`crate::key`]) in the ladder
/// of `game`, by its registered name (`ddz`, `mahjong`).
pub fn history_key(game: &str, key: &str) -> String {
    format!("{game}/{key}")
}

/// Adds `point` in the order of games rated (matchmakers rating at once may write their points
/// out of order; a point for a game count already there replaces it), dropping the oldest
/// points past [`HISTORY_POINTS`].
pub fn append(history: &mut Vec<Point>, point: Point) {
    match history.binary_search_by_key(&point.games, |p| p.games) {
        Ok(i) => history[i] = point,
        Err(i) => history.insert(i, point),
    }
    if history.len() > HISTORY_POINTS {
        let extra = history.len() - HISTORY_POINTS;
        history.drain(..extra);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_keeps_the_latest_points_in_order() {
        let mut h = Vec::new();
        for i in 0..(HISTORY_POINTS as u64 + 7) {
            append(
                &mut h,
                Point {
                    unix_ms: i,
                    mu: 25.0,
                    sigma: 8.0,
                    games: i + 1,
                },
            );
        }
        assert_eq!(h.len(), HISTORY_POINTS);
        assert_eq!(h[0].unix_ms, 7);
        assert!(h.windows(2).all(|w| w[0].unix_ms < w[1].unix_ms));
        assert_eq!(history_key("mahjong", "north@1.2"), "mahjong/north@1.2");
        // Written out of order, read in order; twice, once.
        let mut h = Vec::new();
        for games in [1, 3, 2, 3] {
            let p = Point {
                unix_ms: games * 10,
                mu: games as f64,
                sigma: 1.0,
                games,
            };
            append(&mut h, p);
        }
        assert_eq!(h.iter().map(|p| p.games).collect::<Vec<_>>(), [1, 2, 3]);
    }
}
