//! Fan evaluation speed on a fixed set of 1,000 random winning hands (`fan-hands.jsonl`,
//! written by `scripts/mahjong-fan-bench.py hands`, which also times PyMahjongGB on the same
//! hands).
//!
//! `cargo bench -p mahjong --bench fan` — criterion's time per pass over the set (throughput in
//! hands), then, printed first, the median, mean, p90, p99 and worst of each hand's own time.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mahjong::Reading;
use mahjong::fan::{self, HandInput, OwnedHand};

fn hands() -> Vec<OwnedHand> {
    include_str!("fan-hands.jsonl")
        .lines()
        .map(|l| {
            serde_json::from_str::<HandInput>(l)
                .expect("a batch line")
                .read()
                .expect("tiles")
        })
        .collect()
}

/// Each hand's time alone: the median of 15 batches of 100 runs (a batch the scheduler
/// interrupted is an outlier the median drops), then the median over the hands.
fn per_hand_times(hands: &[OwnedHand], reading: Reading) {
    const BATCHES: usize = 15;
    const RUNS: u32 = 100;
    let mut ns: Vec<f64> = hands
        .iter()
        .map(|h| {
            let hand = h.win_hand();
            let mut batches: Vec<f64> = (0..BATCHES)
                .map(|_| {
                    let start = Instant::now();
                    for _ in 0..RUNS {
                        black_box(fan::evaluate(black_box(&hand), reading))
                            .expect("a winning hand");
                    }
                    start.elapsed().as_nanos() as f64 / RUNS as f64
                })
                .collect();
            batches.sort_by(f64::total_cmp);
            batches[BATCHES / 2]
        })
        .collect();
    ns.sort_by(f64::total_cmp);
    let at = |q: f64| ns[((ns.len() - 1) as f64 * q) as usize];
    println!(
        "fan::evaluate ({reading}), {} hands, each alone: median {:.0} ns, mean {:.0} ns, p90 {:.0} ns, p99 {:.0} ns, max {:.0} ns",
        ns.len(),
        at(0.5),
        ns.iter().sum::<f64>() / ns.len() as f64,
        at(0.9),
        at(0.99),
        at(1.0)
    );
}

fn bench_evaluate(c: &mut Criterion) {
    let hands = hands();
    for reading in Reading::ALL {
        per_hand_times(&hands, reading);
    }
    let mut g = c.benchmark_group("fan");
    g.throughput(Throughput::Elements(hands.len() as u64));
    for reading in Reading::ALL {
        g.bench_function(format!("evaluate_{reading}"), |b| {
            b.iter(|| {
                let mut total = 0;
                for h in &hands {
                    total += fan::evaluate(black_box(&h.win_hand()), reading)
                        .expect("a winning hand")
                        .total;
                }
                total
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_evaluate);
criterion_main!(benches);
