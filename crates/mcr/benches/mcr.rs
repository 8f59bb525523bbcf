//! Fan evaluation over the PyMahjongGB sample's winning hands, and shanten of random hands, in
//! CPU time.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcr::fan::{WinningHand, evaluate};
use mcr::shape::shanten;
use mcr::{Counts, Pack, Tile, Wall, WallTile, Wind, counts_of};
use serde_json::Value;

#[path = "../../mahjong/benches/cpu_time.rs"]
mod cpu_time;
use cpu_time::CpuTime;

struct Case {
    packs: Vec<Pack>,
    standing: Vec<Tile>,
    win: Tile,
    self_drawn: bool,
}

fn cases() -> Vec<Case> {
    include_str!("../tests/data/pymahjonggb-fans.jsonl")
        .lines()
        .take(2000)
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let tile = |x: &Value| x.as_str().unwrap().parse::<Tile>().unwrap();
            Case {
                packs: v["packs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| {
                        let (t, o) = (tile(&p[1]), p[2].as_u64().unwrap() as u8);
                        match p[0].as_str().unwrap() {
                            "CHI" => Pack::chow(t, o),
                            "PENG" => Pack::pung(t, o),
                            _ => Pack::kong(t, o),
                        }
                    })
                    .collect(),
                standing: v["hand"].as_array().unwrap().iter().map(tile).collect(),
                win: tile(&v["win"]),
                self_drawn: v["self_drawn"].as_bool().unwrap(),
            }
        })
        .collect()
}

fn fans(c: &mut Criterion<CpuTime>) {
    let cases = cases();
    let mut g = c.benchmark_group("mcr fan");
    g.throughput(Throughput::Elements(cases.len() as u64));
    g.bench_function("evaluate sample hands", |b| {
        b.iter(|| {
            let mut total = 0;
            for k in &cases {
                let hand = WinningHand {
                    packs: &k.packs,
                    standing: &k.standing,
                    win_tile: k.win,
                    flowers: 0,
                    self_drawn: k.self_drawn,
                    fourth_tile: false,
                    about_kong: false,
                    wall_last: false,
                    seat_wind: Wind::East,
                    prevalent_wind: Wind::South,
                };
                total += evaluate(&hand).map_or(0, |s| s.total);
            }
            total
        })
    });
    g.finish();
}

fn shantens(c: &mut Criterion<CpuTime>) {
    let hands: Vec<Counts> = (0..1000)
        .map(|seed| {
            counts_of(
                Wall::from_seed(seed, false)
                    .tiles()
                    .iter()
                    .take(13)
                    .filter_map(|t| match t {
                        WallTile::Tile(t) => Some(*t),
                        WallTile::Flower(_) => None,
                    }),
            )
        })
        .collect();
    let mut g = c.benchmark_group("mcr shanten");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("13 random tiles", |b| {
        b.iter(|| hands.iter().map(|h| i32::from(shanten(h, 0))).sum::<i32>())
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = fans, shantens
}
criterion_main!(benches);
