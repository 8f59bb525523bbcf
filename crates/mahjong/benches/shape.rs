//! Win detection, waits and shanten per hand, on dealt (random) hands and on complete or ready
//! ones. Criterion reports the time per hand.
//!
//! Time is the benchmark thread's CPU time, not wall time: on a loaded machine a preempted batch
//! would otherwise count the other processes' time as ours.

use criterion::measurement::{Measurement, ValueFormatter};
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mahjong::{Counts, Deal, TILE_KINDS, Tile, shape};

/// The calling thread's CPU time, in nanoseconds.
struct CpuTime;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec we own.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(r, 0, "CLOCK_THREAD_CPUTIME_ID");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns() - start
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &NsFormatter
    }
}

/// Times in ns/µs/ms of CPU; throughput in hands per second of CPU.
struct NsFormatter;

impl ValueFormatter for NsFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = if typical < 1e3 {
            (1.0, "ns")
        } else if typical < 1e6 {
            (1e-3, "µs")
        } else {
            (1e-6, "ms")
        };
        for v in values {
            *v *= factor;
        }
        unit
    }

    fn scale_throughputs(&self, _typical: f64, t: &Throughput, values: &mut [f64]) -> &'static str {
        let n = match *t {
            Throughput::Elements(n) => n as f64,
            _ => 1.0,
        };
        for v in values {
            *v = n * 1e9 / *v / 1e6;
        }
        "M hands/s"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

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
