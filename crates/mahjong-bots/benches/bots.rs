//! What one decision costs each built-in bot: positions where a bot has a real choice (more
//! than one legal action), gathered from hands of greedy and expert play, split into turns (a
//! discard or kong to choose) and claims (an answer to a discard). Criterion reports decisions
//! per second (one element = one decision).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mahjong::{ActionList, Deal, Game, Phase, Rules};
use mahjong_bots::{ExpertBot, GreedyBot, Player, RandomBot};

/// Positions: a game with a seat to decide, and its legal actions.
struct Positions {
    turns: Vec<(Game, u8, ActionList)>,
    claims: Vec<(Game, u8, ActionList)>,
}

fn positions(hands: u64) -> Positions {
    let mut p = Positions {
        turns: Vec::new(),
        claims: Vec::new(),
    };
    let mut bots: [Box<dyn Player>; 4] = [
        Box::new(ExpertBot::new()),
        Box::new(GreedyBot::new()),
        Box::new(ExpertBot::new()),
        Box::new(GreedyBot::new()),
    ];
    let mut legal = ActionList::new();
    for seed in 0..hands {
        let mut game = Game::new(&Deal::from_seed(seed), Rules::default());
        for (s, b) in bots.iter_mut().enumerate() {
            b.start_hand(s as u8, seed).unwrap();
        }
        while !game.is_over() {
            let mut answers = Vec::new();
            for seat in game.deciders().iter() {
                game.legal_actions(seat, &mut legal);
                if legal.len() > 1 {
                    let at = (game.clone(), seat, legal);
                    match game.phase() {
                        Phase::Turn { .. } => p.turns.push(at),
                        _ => p.claims.push(at),
                    }
                }
                let a = bots[usize::from(seat)].decide(&game.view(seat), &legal);
                answers.push((seat, a.answer.unwrap()));
            }
            game.apply(&answers).unwrap();
        }
    }
    p
}

fn decisions(c: &mut Criterion) {
    let p = positions(64);
    for (kind, set) in [("turn", &p.turns), ("claim", &p.claims)] {
        let mut g = c.benchmark_group(format!("decision {kind}"));
        g.throughput(Throughput::Elements(set.len() as u64));
        let mut bench = |name: &str, bot: &mut dyn Player| {
            g.bench_function(name, |b| {
                b.iter(|| {
                    let mut n = 0;
                    for (game, seat, legal) in set {
                        let r = bot.decide(&game.view(*seat), legal);
                        n += usize::from(r.answer.is_ok());
                    }
                    n
                })
            });
        };
        bench("random", &mut RandomBot::new());
        bench("greedy", &mut GreedyBot::new());
        bench("expert", &mut ExpertBot::new());
        g.finish();
    }
}

criterion_group!(benches, decisions);
criterion_main!(benches);
