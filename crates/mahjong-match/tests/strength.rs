//! The built-in bots are ordered expert > greedy > random, shown the way the report shows it:
//! duplicate matches, each pair compared on the same deals, with a 95% interval that must
//! exclude zero. The match count is the least that settles it with room to spare (about a
//! second per match on one core with the engine and bots optimised, as the root Cargo.toml
//! builds them even in tests).

use std::sync::atomic::AtomicU64;

use arena_games::mahjong::spec::contest_time;
use mahjong::Rules;
use mahjong_match::run::{MatchConfig, run};
use mahjong_match::stats::paired_difference;
use mahjong_match::{BotSpec, entrant};

#[test]
fn expert_beats_greedy_beats_random_on_the_same_deals() {
    let cfg = MatchConfig {
        bots: ["expert", "greedy", "random", "random"].map(String::from),
        seed: 2026,
        matches: 20,
        rules: Rules::default(),
        time: contest_time(),
        threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
        log_dir: None,
    };
    let specs: Vec<BotSpec> = cfg.bots.iter().map(|b| b.parse().unwrap()).collect();
    let factory = |p: usize| entrant(&specs[p]);
    let r = run(&cfg, &factory, &AtomicU64::new(0)).unwrap();
    let expert_greedy = paired_difference(&r.hands, 0, 1);
    let greedy_random = paired_difference(&r.hands, 1, 2);
    let greedy_random2 = paired_difference(&r.hands, 1, 3);
    assert_eq!(expert_greedy.n, 20 * 24, "one pair per deal");
    assert!(
        expert_greedy.low() > 0.0,
        "expert − greedy per hand: {:+.2} ± {:.2}",
        expert_greedy.mean,
        expert_greedy.ci95
    );
    for d in [greedy_random, greedy_random2] {
        assert!(
            d.low() > 0.0,
            "greedy − random per hand: {:+.2} ± {:.2}",
            d.mean,
            d.ci95
        );
    }
    // The two random positions are the same bot: their difference is no more than noise.
    let random_random = paired_difference(&r.hands, 2, 3);
    assert!(
        random_random.low() < 0.0 && random_random.high() > 0.0,
        "{random_random:?}"
    );
}
