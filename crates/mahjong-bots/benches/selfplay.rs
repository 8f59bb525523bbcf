//! Random self-play: whole hands through `play_hand` with four `random` bots, one core.
//! Criterion reports the CPU time per 256 hands and hands per CPU second.

use cpu_time::CpuTime;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mahjong::{Deal, Rules};
use mahjong_bots::{Player, RandomBot, TimeLimits, play_hand};

#[path = "../../mahjong/benches/cpu_time.rs"]
mod cpu_time;

const HANDS: u64 = 256;

fn selfplay(c: &mut Criterion<CpuTime>) {
    let mut g = c.benchmark_group("selfplay random");
    g.throughput(Throughput::Elements(HANDS));
    let deals: Vec<Deal> = (0..HANDS).map(Deal::from_seed).collect();
    g.bench_function("play_hand", |b| {
        let mut bots = [
            RandomBot::new(),
            RandomBot::new(),
            RandomBot::new(),
            RandomBot::new(),
        ];
        b.iter(|| {
            let mut events = 0;
            for d in &deals {
                let [p0, p1, p2, p3] = &mut bots;
                let mut seats: [&mut dyn Player; 4] = [p0, p1, p2, p3];
                events += play_hand(d, Rules::default(), TimeLimits::default(), &mut seats)
                    .events
                    .len();
            }
            events
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = selfplay
}
criterion_main!(benches);
