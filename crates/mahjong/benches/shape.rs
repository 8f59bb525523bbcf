//! Win detection, waits and shanten per hand, on dealt (random) hands and on complete or ready
//! ones. Criterion reports the time per hand.
//!
//! Time is the benchmark thread's CPU time, not wall time: on a loaded machine a preempted batch
//! would otherwise count the other processes' time as ours.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mahjong::{Counts, Deal, TILE_KINDS, Tile, shape};

mod cpu_time;

use cpu_time::CpuTime;

const N: usize = 1024;

/// Dealt hands: the first `n` tiles of seeded walls.
fn dealt(n: usize) -> Vec<Counts> {
    dealt_many(n, N)
}

/// `count` dealt hands of `n` tiles.
fn dealt_many(n: usize, count: usize) -> Vec<Counts> {
    (0..count as u64)
        .map(|s| {
            let mut c = [0u8; TILE_KINDS];
            for t in &Deal::from_seed(s).wall.tiles()[..n] {
                c[t.index()] += 1;
            }
            c
        })
        .collect()
}

/// Complete hands: four random sets and a pair (chows and pungs, all suits and honours).
fn complete() -> Vec<Counts> {
    let mut out = Vec::with_capacity(N);
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n) as usize
    };
    while out.len() < N {
        let mut c = [0u8; TILE_KINDS];
        let p = next(34);
        c[p] += 2;
        for _ in 0..4 {
            let i = next(34);
            if next(2) == 0 && Tile::from_index(i).unwrap().starts_chow() {
                for k in 0..3 {
                    c[i + k] += 1;
                }
            } else {
                c[i] += 3;
            }
        }
        if c.iter().all(|&n| n <= 4) {
            out.push(c);
        }
    }
    out
}

/// Ready hands: complete hands less one tile.
fn ready() -> Vec<Counts> {
    complete()
        .into_iter()
        .enumerate()
        .map(|(k, mut c)| {
            let held: Vec<usize> = (0..TILE_KINDS).filter(|&i| c[i] > 0).collect();
            c[held[k % held.len()]] -= 1;
            c
        })
        .collect()
}

/// Times `f` per hand, cycling through `hands`.
fn bench(c: &mut Criterion<CpuTime>, name: &str, hands: Vec<Counts>, f: impl Fn(&Counts) -> u64) {
    let mut i = 0;
    c.bench_function(name, |b| {
        b.iter(|| {
            i = (i + 1) % hands.len();
            f(black_box(&hands[i]))
        })
    });
}

fn shapes(c: &mut Criterion<CpuTime>) {
    bench(c, "is_win/dealt 14", dealt(14), |h| {
        u64::from(shape::is_win(h))
    });
    bench(c, "is_win/complete 14", complete(), |h| {
        u64::from(shape::is_win(h))
    });
    bench(c, "waits/dealt 13", dealt(13), |h| shape::waits(h).bits());
    bench(c, "waits/ready 13", ready(), |h| shape::waits(h).bits());
    bench(c, "shanten/dealt 13", dealt(13), |h| {
        shape::shanten(h) as u64
    });
    // Shanten memoises per suit; 64k different hands mostly miss the memo.
    bench(
        c,
        "shanten/dealt 13, 64k hands",
        dealt_many(13, 1 << 16),
        |h| shape::shanten(h) as u64,
    );
    bench(c, "shanten/dealt 14", dealt(14), |h| {
        shape::shanten(h) as u64
    });
    bench(c, "shanten/ready 13", ready(), |h| shape::shanten(h) as u64);
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = shapes
}
criterion_main!(benches);
