//! Fan evaluation over the PyMahjongGB sample's winning hands, and shanten of random hands and of
//! the PyMahjongGB shanten sample, in CPU time. `scripts/mcr-bench-pymahjonggb.py` times
//! PyMahjongGB on the same two samples (the first 2,000 hands of each), for a side-by-side.

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
    flowers: u8,
    self_drawn: bool,
    fourth: bool,
    kong: bool,
    last: bool,
    seat: Wind,
    quan: Wind,
}

/// How many hands of each sample the benches (and the PyMahjongGB script) take.
const SAMPLE: usize = 2000;

fn tile(x: &Value) -> Tile {
    x.as_str().unwrap().parse::<Tile>().unwrap()
}

fn packs(v: &Value) -> Vec<Pack> {
    v.as_array()
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
        .collect()
}

fn cases() -> Vec<Case> {
    include_str!("../tests/data/pymahjonggb-fans.jsonl")
        .lines()
        .take(SAMPLE)
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let flag = |k: &str| v[k].as_bool().unwrap();
            let wind = |k: &str| Wind::from_index(v[k].as_u64().unwrap() as u8).unwrap();
            Case {
                packs: packs(&v["packs"]),
                standing: v["hand"].as_array().unwrap().iter().map(tile).collect(),
                win: tile(&v["win"]),
                flowers: v["flowers"].as_u64().unwrap() as u8,
                self_drawn: flag("self_drawn"),
                fourth: flag("fourth"),
                kong: flag("kong"),
                last: flag("last"),
                seat: wind("seat"),
                quan: wind("quan"),
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
                    flowers: k.flowers,
                    self_drawn: k.self_drawn,
                    fourth_tile: k.fourth,
                    about_kong: k.kong,
                    wall_last: k.last,
                    seat_wind: k.seat,
                    prevalent_wind: k.quan,
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
    // The PyMahjongGB shanten sample: concealed tiles beside 0–4 packs.
    let sample: Vec<(Counts, usize)> = include_str!("../tests/data/pymahjonggb-shanten.jsonl")
        .lines()
        .take(SAMPLE)
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let concealed = counts_of(v["hand"].as_array().unwrap().iter().map(tile));
            (concealed, packs(&v["packs"]).len())
        })
        .collect();
    g.throughput(Throughput::Elements(sample.len() as u64));
    g.bench_function("PyMahjongGB sample", |b| {
        b.iter(|| {
            sample
                .iter()
                .map(|(h, p)| i32::from(shanten(h, *p)))
                .sum::<i32>()
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = fans, shantens
}
criterion_main!(benches);
