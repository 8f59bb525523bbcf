//! Random self-play on one core: whole hands through `play_hand` with four `random` bots.
//! Criterion reports the CPU time per 256 hands and hands per CPU second (target: 20,000 or
//! more).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcr::wall::Deal;
use mcr::{FaultPolicy, Game};
use mcr_bots::{Player, RandomBot, play_hand};

#[path = "../../mahjong/benches/cpu_time.rs"]
mod cpu_time;
use cpu_time::CpuTime;

const HANDS: u64 = 256;

fn selfplay(c: &mut Criterion<CpuTime>) {
    let mut g = c.benchmark_group("mcr selfplay");
    g.throughput(Throughput::Elements(HANDS));
    let deals: Vec<Deal> = (0..HANDS).map(Deal::from_seed).collect();
    g.bench_function("random x4", |b| {
        let mut bots: [Box<dyn Player>; 4] = [
            Box::new(RandomBot::new()),
            Box::new(RandomBot::new()),
            Box::new(RandomBot::new()),
            Box::new(RandomBot::new()),
        ];
        b.iter(|| {
            let mut decisions = 0;
            for (i, d) in deals.iter().enumerate() {
                decisions +=
                    play_hand(Game::new(d), &mut bots, FaultPolicy::Judge, i as u64).decisions;
            }
            decisions
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
