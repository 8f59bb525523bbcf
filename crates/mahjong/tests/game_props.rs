//! Whole random hands: at every step the tiles are all accounted for, the legal actions are
//! exactly the answers `check` accepts, the game and the fan evaluator agree on every win, and
//! a seat's view shows only what it may see.

use mahjong::fan::{self, WinHand};
use mahjong::{Action, ActionList, Deal, Event, Game, Phase, Reading, Rules, SeenEvent, Tile};
use proptest::prelude::*;

fn candidates() -> Vec<Action> {
    let mut v = vec![
        Action::SelfDrawnWin,
        Action::Pass,
        Action::Win,
        Action::Kong,
        Action::Pung,
        Action::RobKong,
    ];
    for t in Tile::all() {
        v.extend([
            Action::Discard(t),
            Action::ConcealedKong(t),
            Action::AddedKong(t),
            Action::Chow(t),
        ]);
    }
    v
}

struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn concealed(g: &Game, s: u8) -> usize {
    g.hand(s).iter().map(|&n| usize::from(n)).sum()
}

fn check_step(g: &Game, all: &[Action]) -> Result<(), TestCaseError> {
    prop_assert!(g.tiles_accounted(), "{:?}", g.events());
    let mut legal = ActionList::new();
    let deciders = g.deciders();
    for s in 0..4u8 {
        g.legal_actions(s, &mut legal);
        prop_assert_eq!(legal.is_empty(), !deciders.contains(s));
        for &a in all {
            prop_assert_eq!(g.check(s, a).is_ok(), legal.contains(a), "seat {} {}", s, a);
        }
        let won = g
            .outcome()
            .and_then(|o| o.win.as_ref())
            .is_some_and(|w| w.seat == s);
        let on_turn = g.phase() == Phase::Turn { seat: s } || won;
        prop_assert_eq!(
            concealed(g, s) + 3 * g.melds(s).len(),
            13 + usize::from(on_turn)
        );
        // The fan evaluator accepts exactly the wins the game offers.
        let reading = g.rules().reading;
        let hand = *g.hand(s);
        let offered = |a| legal.contains(a);
        match g.phase() {
            Phase::Turn { seat } if seat == s => {
                if let Some(d) = g.drawn() {
                    let mut c = hand;
                    c[d.index()] -= 1;
                    let wh = WinHand {
                        concealed: c,
                        melds: g.melds(s),
                        win: d,
                        self_drawn: true,
                        robbed_kong: false,
                    };
                    prop_assert_eq!(
                        fan::evaluate(&wh, reading).is_ok(),
                        offered(Action::SelfDrawnWin)
                    );
                }
            }
            Phase::Claims { discarder, tile } if discarder != s => {
                let wh = WinHand {
                    concealed: hand,
                    melds: g.melds(s),
                    win: tile,
                    self_drawn: false,
                    robbed_kong: false,
                };
                prop_assert_eq!(fan::evaluate(&wh, reading).is_ok(), offered(Action::Win));
            }
            Phase::RobKong { seat, tile } if seat != s => {
                let wh = WinHand {
                    concealed: hand,
                    melds: g.melds(s),
                    win: tile,
                    self_drawn: false,
                    robbed_kong: true,
                };
                prop_assert_eq!(
                    fan::evaluate(&wh, reading).is_ok(),
                    offered(Action::RobKong)
                );
            }
            _ => {}
        }
        // The view: own hand, others' draws and concealed kongs hidden.
        let v = g.view(s);
        prop_assert_eq!(v.hand(), g.hand(s));
        for (e, seen) in g.events().iter().zip(v.events()) {
            match (*e, seen) {
                (Event::Draw { seat, tile }, SeenEvent::Draw { tile: t, .. })
                | (Event::ConcealedKong { seat, tile }, SeenEvent::ConcealedKong { tile: t, .. }) =>
                {
                    prop_assert_eq!(t, (seat == s).then_some(tile));
                }
                (_, SeenEvent::Draw { .. } | SeenEvent::ConcealedKong { .. }) => {
                    prop_assert!(false, "a seen event of another kind");
                }
                _ => {}
            }
        }
        // What the seat can count as gone: at most four of a kind, at least its own tiles.
        let visible = v.visible_counts();
        for (&seen, &own) in visible.iter().zip(g.hand(s)) {
            prop_assert!(seen <= 4 && seen >= own);
        }
        for o in 0..4u8 {
            for (m, seen) in g.melds(o).iter().zip(v.melds(o)) {
                prop_assert_eq!(seen, (o == s || !m.is_concealed()).then_some(*m));
            }
        }
    }
    Ok(())
}

fn biased(g: &Game, s: u8, legal: &ActionList, rng: &mut Lcg) -> Action {
    let strong = legal.iter().copied().find(|a| {
        matches!(
            a,
            Action::SelfDrawnWin
                | Action::Win
                | Action::RobKong
                | Action::Kong
                | Action::ConcealedKong(_)
                | Action::AddedKong(_)
        )
    });
    if let Some(a) = strong {
        return a;
    }
    if let Phase::Turn { .. } = g.phase() {
        let mut best = (i8::MAX, Action::Pass);
        for &a in legal.iter() {
            if let Action::Discard(t) = a {
                let mut h = *g.hand(s);
                h[t.index()] -= 1;
                let v = mahjong::shape::shanten(&h);
                if v < best.0 || (v == best.0 && rng.below(2) == 0) {
                    best = (v, a);
                }
            }
        }
        return best.1;
    }
    if legal.len() > 1 && rng.below(2) == 0 {
        legal[1 + rng.below(legal.len() - 1)]
    } else {
        Action::Pass
    }
}

fn play(seed: u64, reading: Reading, claim_bias: bool) -> Result<Game, TestCaseError> {
    let all = candidates();
    let mut rng = Lcg(seed ^ 0x9e37_79b9);
    let mut g = Game::new(&Deal::from_seed(seed), Rules { reading });
    let mut legal = ActionList::new();
    let mut steps = 0;
    while !g.is_over() {
        check_step(&g, &all)?;
        let mut answers = Vec::new();
        for s in g.deciders().iter() {
            g.legal_actions(s, &mut legal);
            // With the bias, play towards a win (discard to the least shanten, always kong or
            // win, claim half the time), so that hands get ready and the rare paths (kongs
            // robbed, several winners) come up.
            let pick = if claim_bias {
                biased(&g, s, &legal, &mut rng)
            } else {
                legal[rng.below(legal.len())]
            };
            answers.push((s, pick));
        }
        // Settling does not depend on the order the answers come in.
        let mut reversed = g.clone();
        let mut rev = answers.clone();
        rev.reverse();
        reversed.apply(&rev).unwrap();
        g.apply(&answers).unwrap();
        prop_assert_eq!(reversed.events(), g.events());
        steps += 1;
        prop_assert!(steps < 1000);
    }
    check_step(&g, &all)?;
    let o = g.outcome().unwrap();
    prop_assert_eq!(o.scores.iter().sum::<i32>(), 0);
    let ended = matches!(g.events().last(), Some(Event::Win { .. } | Event::Drawn));
    prop_assert!(ended, "the last event ends the hand");
    let draws = g
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Draw { .. }))
        .count();
    prop_assert!(draws <= 84);
    if o.win.is_none() {
        prop_assert_eq!(g.wall_left(), 0);
    }
    Ok(g)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_hands_keep_every_invariant(seed in any::<u64>(), seed2015 in any::<bool>(), bias in any::<bool>()) {
        let reading = if seed2015 { Reading::Seed2015 } else { Reading::Contest };
        play(seed, reading, bias)?;
    }
}

#[test]
fn random_hands_reach_every_kind_of_event() {
    let mut seen = [false; 10];
    for seed in 0..1000 {
        let g = play(seed, Reading::Contest, true).unwrap();
        for e in g.events() {
            let k = match e {
                Event::Draw { .. } => 0,
                Event::Discard { .. } => 1,
                Event::Chow { .. } => 2,
                Event::Pung { .. } => 3,
                Event::Kong { .. } => 4,
                Event::ConcealedKong { .. } => 5,
                Event::AddedKong { .. } => 6,
                Event::ChowFailed { .. } => 7,
                Event::Win {
                    robbed_kong: true, ..
                } => 8,
                Event::Win { .. } | Event::Drawn => 9,
            };
            seen[k] = true;
        }
    }
    assert!(seen.iter().all(|&s| s), "{seen:?}");
}
