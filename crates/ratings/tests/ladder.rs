//! Ratings from real duplicate pairs rank stronger bots higher.

use std::sync::atomic::AtomicU64;

use arena_games::ddz::eval::{BotFactory, EvalConfig, play_match};
use arena_ratings::{Ratings, key};
use ddz::{DealConstraint, RuleSet, Scoring};
use ddz_bots::BotSpec;

fn factory(name: &str) -> Box<BotFactory<'static>> {
    let spec: BotSpec = name.parse().unwrap();
    Box::new(move || spec.build_builtin().ok_or_else(|| "cmd".into()))
}

#[test]
fn duplicate_pairs_order_expert_above_seed_above_random() {
    let mut ratings = Ratings::default();
    let bots = ["expert", "seed", "random"];
    for (i, a) in bots.iter().enumerate() {
        for b in &bots[i + 1..] {
            let cfg = EvalConfig {
                deals: 150,
                seed: i as u64,
                constraint: DealConstraint::NONE,
                rules: RuleSet::COMPETITION,
                threads: 2,
                rounds_per_turn: None,
            };
            let m = play_match(&*factory(a), &*factory(b), &cfg, &AtomicU64::new(0)).unwrap();
            for d in &m.deals {
                // A's pair score: landlord score with A as landlord + A's farmer team score with B as landlord.
                let a_score = d.a_landlord.landlord_score(Scoring::Competition)
                    - d.b_landlord.landlord_score(Scoring::Competition);
                ratings.record_pair(&key(a, "1"), &key(b, "1"), a_score as f64, -a_score as f64);
            }
        }
    }
    let board: Vec<String> = ratings.leaderboard().into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        board.last().map(String::as_str),
        Some("random@1"),
        "{board:?}"
    );
    assert!(ratings.get("expert@1").mu > ratings.get("random@1").mu + 5.0);
}
