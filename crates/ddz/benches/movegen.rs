//! Move generation and game simulation speed.
//!
//! `cargo bench -p ddz` — leads of random 20-card hands, follows of random 17-card hands against
//! typical previous plays, whole random games (fixed landlord, play phase only), and
//! FightTheLandlord's weights of finished games.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddz::{CardSet, Deal, DealRng, Move, MoveList, PlayState, RuleSet, Seat};
use std::hint::black_box;

fn landlord_hands(n: u64) -> Vec<CardSet> {
    (0..n)
        .map(|i| Deal::generate(11, i).hands_with_landlord(Seat::ALL[0])[0])
        .collect()
}

fn bench_leads(c: &mut Criterion) {
    let hands = landlord_hands(1024);
    let rules = RuleSet::COMPETITION;
    let mut out = MoveList::new();
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("leads_20_cards", |b| {
        b.iter(|| {
            let mut total = 0;
            for &h in &hands {
                rules.leads(black_box(h), &mut out);
                total += out.len();
            }
            total
        })
    });
    let prevs: Vec<Move> = [
        "7", "99", "JJJ", "3334", "45678", "334455", "TTTJJJ45", "KKK22",
    ]
    .iter()
    .map(|s| rules.classify(s.parse().unwrap()).unwrap())
    .collect();
    let farmer: Vec<CardSet> = (0..1024).map(|i| Deal::generate(12, i).hands[1]).collect();
    g.throughput(Throughput::Elements((farmer.len() * prevs.len()) as u64));
    g.bench_function("follows_17_cards", |b| {
        b.iter(|| {
            let mut total = 0;
            for &h in &farmer {
                for &p in &prevs {
                    rules.follows(black_box(h), p, &mut out);
                    total += out.len();
                }
            }
            total
        })
    });
    g.finish();
}

fn random_game(rules: &RuleSet, deal: &Deal, rng: &mut DealRng, out: &mut MoveList) -> bool {
    let mut st = PlayState::new(deal.hands_with_landlord(Seat::ALL[0]), Seat::ALL[0]);
    while !st.is_over() {
        st.legal_moves(rules, out);
        let m = out[rng.below(out.len() as u32) as usize];
        st.apply_unchecked(m);
    }
    st.landlord_won()
}

fn bench_games(c: &mut Criterion) {
    let deals: Vec<Deal> = (0..256).map(|i| Deal::generate(13, i)).collect();
    let rules = RuleSet::COMPETITION;
    let mut out = MoveList::new();
    let mut rng = DealRng::new(1, 1);
    let mut g = c.benchmark_group("games");
    g.throughput(Throughput::Elements(deals.len() as u64));
    g.bench_function("random_play_phase", |b| {
        b.iter(|| {
            deals
                .iter()
                .filter(|d| random_game(&rules, d, &mut rng, &mut out))
                .count()
        })
    });
    g.finish();
}

/// What a finished game spends on FightTheLandlord's weights (`Outcome::ftl_weights`, read
/// once at its end), beside `random_play_phase`'s cost of playing it.
fn bench_ftl_weights(c: &mut Criterion) {
    let rules = RuleSet::COMPETITION;
    let mut out = MoveList::new();
    let mut rng = DealRng::new(1, 1);
    let games: Vec<Vec<Move>> = (0..256)
        .map(|i| {
            let deal = Deal::generate(13, i);
            let mut st = PlayState::new(deal.hands_with_landlord(Seat::ALL[0]), Seat::ALL[0]);
            let mut plays = Vec::new();
            while !st.is_over() {
                st.legal_moves(&rules, &mut out);
                let m = out[rng.below(out.len() as u32) as usize];
                plays.push(m);
                st.apply_unchecked(m);
            }
            plays
        })
        .collect();
    let mut g = c.benchmark_group("games");
    g.throughput(Throughput::Elements(games.len() as u64));
    g.bench_function("ftl_weights_of_finished_games", |b| {
        b.iter(|| {
            games
                .iter()
                .flatten()
                .map(|&m| ddz::botzone::ftl_move_weight(m))
                .sum::<u32>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench_leads, bench_games, bench_ftl_weights);
criterion_main!(benches);
