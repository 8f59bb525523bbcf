//! Strength, paired on the same walls: each level of built-in bot against the one below.
//!
//! Every wall is played at the four rotations of `A A B B` (each seat holds each bot twice,
//! and each bot sits before and after the other equally), so luck of the wall and of the seat
//! cancels out. A wall's figure is A's mean score per seat-hand minus B's; the test asserts
//! that the mean over walls is above 0 with its 95% interval (normal approximation over the
//! walls) above 0 too. The large runs are `#[ignore]`d: `cargo test --release -p mcr-bots
//! --test strength -- --ignored --nocapture` prints the figures quoted in docs/mcr-engine.md.

use mcr::wall::Deal;
use mcr::{FaultPolicy, Game};
use mcr_bots::{Player, builtin, play_hand};

/// The four rotations of A A B B (true: A).
const SEATINGS: [[bool; 4]; 4] = [
    [true, true, false, false],
    [false, true, true, false],
    [false, false, true, true],
    [true, false, false, true],
];

/// Plays `walls` walls (seeds from `first`) at every seating; returns the per-wall differences
/// (A − B, points per seat-hand). Asserts no fault and no win below 8 points on the way.
fn paired(a: &str, b: &str, first: u64, walls: u64) -> Vec<f64> {
    let mut diffs = Vec::with_capacity(walls as usize);
    let mut tables: Vec<[Box<dyn Player>; 4]> = SEATINGS
        .iter()
        .map(|s| s.map(|is_a| builtin(if is_a { a } else { b }).unwrap()))
        .collect();
    for seed in first..first + walls {
        let deal = Deal::from_seed(seed);
        let mut sum = [0i64; 2];
        for (seating, players) in SEATINGS.iter().zip(tables.iter_mut()) {
            let rec = play_hand(Game::new(&deal), players, FaultPolicy::Judge, seed);
            assert_eq!(rec.faults, [0; 4], "{a} vs {b}, wall {seed}, {seating:?}");
            if let Some(w) = rec.outcome.win {
                assert!(w.fans.without_flowers() >= 8, "wall {seed}: {w:?}");
            }
            for (s, &is_a) in seating.iter().enumerate() {
                sum[usize::from(!is_a)] += i64::from(rec.outcome.scores[s]);
            }
        }
        // Each bot held 8 seat-hands of this wall.
        diffs.push((sum[0] - sum[1]) as f64 / 8.0);
    }
    diffs
}

/// Mean and 95% half-width of `xs`.
fn interval(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

fn assert_stronger(a: &str, b: &str, first: u64, walls: u64) {
    let d = paired(a, b, first, walls);
    let (mean, half) = interval(&d);
    println!(
        "{a} vs {b}: {walls} walls × 4 seatings ({} hands), A − B {mean:+.2} points per seat-hand, 95% interval [{:+.2}, {:+.2}]",
        walls * 4,
        mean - half,
        mean + half
    );
    assert!(
        mean - half > 0.0,
        "{a} vs {b}: mean {mean:+.2} ± {half:.2} over {walls} walls"
    );
}

#[test]
fn efficiency_beats_random_on_the_same_walls() {
    assert_stronger("efficiency", "random", 0, 60);
}

#[test]
#[ignore = "a release-build run: cargo test --release -p mcr-bots --test strength -- --ignored"]
fn each_level_beats_the_one_below_over_thousands_of_hands() {
    assert_stronger("efficiency", "random", 10_000, 500);
    assert_stronger("fan", "efficiency", 10_000, 1000);
    assert_stronger("search", "fan", 10_000, 1000);
}

#[test]
fn the_search_bot_never_faults_on_a_few_walls() {
    // The full 10,000-hand run is below; a few debug-build hands with a small budget keep
    // every path of the search in CI.
    let mut players: [Box<dyn Player>; 4] = [
        builtin("search:samples=4,candidates=3,horizon=4").unwrap(),
        builtin("fan").unwrap(),
        builtin("search:samples=4,candidates=3,horizon=4").unwrap(),
        builtin("efficiency").unwrap(),
    ];
    for seed in 0..30u64 {
        let rec = play_hand(
            Game::new(&Deal::from_seed(seed)),
            &mut players,
            FaultPolicy::Judge,
            seed,
        );
        assert_eq!(rec.faults, [0; 4], "hand {seed}");
        assert_eq!(rec.outcome.fault, None);
        if let Some(w) = rec.outcome.win {
            assert!(w.fans.without_flowers() >= 8, "hand {seed}: {w:?}");
        }
    }
}

#[test]
#[ignore = "a release-build run: cargo test --release -p mcr-bots --test strength -- --ignored"]
fn ten_thousand_hands_without_a_fault_or_a_wrong_win() {
    let names = ["search", "fan", "efficiency", "random"];
    let mut faults = 0u32;
    let mut wins = [0u32; 4];
    let hands = 10_000u64;
    for seed in 0..hands {
        // Rotate the seats every hand.
        let r = (seed % 4) as usize;
        let mut players: [Box<dyn Player>; 4] =
            std::array::from_fn(|s| builtin(names[(s + r) % 4]).unwrap());
        let rec = play_hand(
            Game::new(&Deal::from_seed(seed)),
            &mut players,
            FaultPolicy::Judge,
            seed,
        );
        faults += rec.faults.iter().sum::<u32>();
        assert_eq!(rec.outcome.fault, None, "hand {seed}");
        if let Some(w) = rec.outcome.win {
            assert!(w.fans.without_flowers() >= 8, "hand {seed}: {w:?}");
            wins[(usize::from(w.seat) + r) % 4] += 1;
        }
    }
    println!("{hands} hands, {faults} faults, wins (search, fan, efficiency, random) {wins:?}");
    assert_eq!(faults, 0);
}
