//! The bots are real players: legal everywhere, graded, and stronger where they should be.
//! Every figure here is deterministic: deals and bots are seeded, and results do not depend on
//! how games are spread over threads.

use std::sync::atomic::AtomicU64;

use arena_games::ddz::eval::{self, BotFactory, Estimate, EvalConfig};
use arena_games::ddz::play::{self as runner, Buffers};
use ddz::{DealConstraint, GameConfig, RuleSet, Scoring};
use ddz_bots::{Bot, BotSpec};

fn factory(name: &str) -> Box<BotFactory<'static>> {
    let spec: BotSpec = name.parse().unwrap();
    Box::new(move || spec.build_builtin().ok_or_else(|| "cmd".to_string()))
}

fn cfg(deals: u64, seed: u64) -> EvalConfig {
    EvalConfig {
        deals,
        seed,
        constraint: DealConstraint::NONE,
        rules: RuleSet::COMPETITION,
        threads: 2,
        rounds_per_turn: None,
    }
}

#[test]
fn every_bot_plays_legal_full_games_under_every_rule_set() {
    for rules in [RuleSet::COMPETITION, RuleSet::DOUZERO, RuleSet::OPENSPIEL] {
        for name in [
            "random",
            "seed",
            "expert",
            "ladder:4/7",
            "search:samples=4,candidates=6",
        ] {
            let spec: BotSpec = name.parse().unwrap();
            let mut bots: Vec<Box<dyn Bot>> =
                (0..3).map(|_| spec.build_builtin().unwrap()).collect();
            let [a, b, c] = &mut bots[..] else {
                unreachable!()
            };
            let mut seats: [&mut dyn Bot; 3] = [&mut **a, &mut **b, &mut **c];
            let mut moves = Buffers::new();
            let config = GameConfig {
                rules,
                ..GameConfig::competition()
            };
            for i in 0..40 {
                let deal = ddz::Deal::generate(77, i);
                let game = runner::play_game(config, deal, i, &mut seats, &mut moves)
                    .unwrap_or_else(|e| panic!("{name} under {rules:?}: {e}"));
                assert!(game.outcome().is_some());
            }
        }
    }
}

#[test]
fn seed_beats_random_in_both_seatings() {
    let m = eval::play_match(
        &*factory("seed"),
        &*factory("random"),
        &cfg(2000, 1),
        &AtomicU64::new(0),
    )
    .unwrap();
    let landlord = m.stats(&[true]).wp;
    let farmers = m.stats(&[false]).wp;
    assert!(landlord.mean >= 0.93, "seed as landlord: {landlord:?}");
    assert!(farmers.mean >= 0.93, "seed as farmers: {farmers:?}");
}

#[test]
fn search_beats_seed_in_both_seatings() {
    // A small budget keeps this test quick; the closing note reports larger budgets on 2,000 deals.
    let search = factory("search:samples=24,candidates=12");
    let m = eval::play_match(
        &*search,
        &*factory("seed"),
        &cfg(150, 5),
        &AtomicU64::new(0),
    )
    .unwrap();
    let landlord = m.stats(&[true]).wp;
    let farmers = m.stats(&[false]).wp;
    assert!(landlord.mean > 0.55, "search as landlord: {landlord:?}");
    assert!(farmers.mean > 0.55, "search as farmers: {farmers:?}");
}

#[test]
fn ladder_of_ten_is_strictly_graded_with_significant_steps() {
    let levels: Vec<Box<BotFactory<'static>>> = (1..=10)
        .map(|k| factory(&format!("ladder:{k}/10")))
        .collect();
    let refs: Vec<&BotFactory<'_>> = levels.iter().map(|f| &**f).collect();
    let rows = eval::play_panel(
        &refs,
        &*factory("expert"),
        &cfg(4000, 9),
        &AtomicU64::new(0),
    )
    .unwrap()
    .rows;
    let score = |k: usize| {
        rows.iter()
            .map(move |(_, r)| r[k].landlord_score(Scoring::Difficulty) as f64)
    };
    for k in 1..10 {
        let lo = Estimate::of(score(k - 1));
        let hi = Estimate::of(score(k));
        assert!(hi.mean > lo.mean, "level {} not above level {k}", k + 1);
        let step = Estimate::of(score(k).zip(score(k - 1)).map(|(h, l)| h - l));
        assert!(
            step.p_not_positive() < 0.01,
            "level {} vs {k}: {step:?}",
            k + 1
        );
    }
}

#[test]
fn match_results_do_not_depend_on_thread_count() {
    let run = |threads| {
        let c = EvalConfig {
            threads,
            ..cfg(60, 3)
        };
        let m = eval::play_match(
            &*factory("expert"),
            &*factory("ladder:5/10"),
            &c,
            &AtomicU64::new(0),
        )
        .unwrap();
        m.deals
            .iter()
            .map(|d| (d.a_landlord, d.b_landlord))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(1), run(3));
}
