//! Property tests on random winning hands.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::super::*;
use super::super::{score, split};
use super::{Spec, brute};

fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    rng.next_u32() % n
}

fn tile(i: usize) -> Tile {
    Tile::from_index(i).unwrap()
}

/// A kind from the hand's pool: often one suit and the honours only, so flushes, identical
/// chows and honour pungs come up often.
fn kind(rng: &mut ChaCha8Rng, pool: &[usize]) -> usize {
    pool[below(rng, pool.len() as u32) as usize]
}

fn chow_start(rng: &mut ChaCha8Rng, pool: &[usize]) -> Option<usize> {
    let starts: Vec<usize> = pool
        .iter()
        .copied()
        .filter(|&i| tile(i).starts_chow())
        .collect();
    (!starts.is_empty()).then(|| starts[below(rng, starts.len() as u32) as usize])
}

/// A random winning hand (standard, seven pairs or thirteen orphans) from `seed`.
pub(super) fn winning_hand(seed: u64) -> Spec {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    loop {
        let pool: Vec<usize> = match below(&mut rng, 6) {
            0 => (0..34).collect(),
            1 => {
                let suit = below(&mut rng, 3) as usize * 9;
                (suit..suit + 9).chain(27..34).collect()
            }
            2 => {
                let suit = below(&mut rng, 3) as usize * 9;
                (suit..suit + 9).collect()
            }
            3 => {
                // The winds and one suit: wind fans.
                let suit = below(&mut rng, 3) as usize * 9;
                (suit..suit + 9).chain(27..31).chain(27..31).collect()
            }
            4 => {
                // Terminals, with or without honours.
                let honours = if below(&mut rng, 2) == 0 {
                    27..34
                } else {
                    0..0
                };
                [0, 8, 9, 17, 18, 26].into_iter().chain(honours).collect()
            }
            _ => {
                // Three numbers in every suit: triple chows and pungs across suits.
                let r = below(&mut rng, 7) as usize;
                (0..3).flat_map(|s| s * 9 + r..s * 9 + r + 3).collect()
            }
        };
        let mut concealed = [0u8; 34];
        let mut melds = Vec::new();
        let shape = below(&mut rng, 20);
        if shape == 0 {
            // Thirteen orphans.
            for (i, c) in concealed.iter_mut().enumerate() {
                if tile(i).is_terminal_or_honour() {
                    *c = 1;
                }
            }
            let extra =
                [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33][below(&mut rng, 13) as usize];
            concealed[extra] += 1;
        } else if shape <= 2 {
            for _ in 0..7 {
                concealed[kind(&mut rng, &pool)] += 2;
            }
        } else {
            let n_melds = [0, 0, 0, 1, 1, 2, 3, 4][below(&mut rng, 8) as usize];
            for _ in 0..n_melds {
                let m = match below(&mut rng, 6) {
                    0 | 1 => match chow_start(&mut rng, &pool) {
                        Some(s) => Meld::Chow(tile(s)),
                        None => Meld::Pung(tile(kind(&mut rng, &pool))),
                    },
                    2 | 3 => Meld::Pung(tile(kind(&mut rng, &pool))),
                    4 => Meld::Kong(tile(kind(&mut rng, &pool)), KongKind::Concealed),
                    _ => Meld::Kong(
                        tile(kind(&mut rng, &pool)),
                        if below(&mut rng, 2) == 0 {
                            KongKind::Exposed
                        } else {
                            KongKind::Added
                        },
                    ),
                };
                melds.push(m);
            }
            for _ in n_melds..4 {
                match chow_start(&mut rng, &pool).filter(|_| below(&mut rng, 2) == 0) {
                    Some(s) => (s..s + 3).for_each(|i| concealed[i] += 1),
                    None => concealed[kind(&mut rng, &pool)] += 3,
                }
            }
            concealed[kind(&mut rng, &pool)] += 2;
        }
        let mut held = concealed;
        for m in &melds {
            match *m {
                Meld::Chow(t) => (0..3).for_each(|i| held[t.index() + i] += 1),
                Meld::Pung(t) => held[t.index()] += 3,
                Meld::Kong(t, _) => held[t.index()] += 4,
            }
        }
        if held.iter().any(|&c| c > 4) {
            continue;
        }
        let total: u32 = concealed.iter().map(|&c| c as u32).sum();
        let mut nth = below(&mut rng, total);
        let win = (0..34)
            .find(|&i| {
                if nth < concealed[i] as u32 {
                    true
                } else {
                    nth -= concealed[i] as u32;
                    false
                }
            })
            .unwrap();
        concealed[win] -= 1;
        let how = below(&mut rng, 10);
        return Spec {
            concealed,
            melds,
            win: tile(win),
            self_drawn: how < 4,
            robbed_kong: how == 9,
        };
    }
}

fn same_fans(a: &FanResult, b: &FanResult) -> bool {
    a == b
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn winning_hands_score_their_best_reading_and_the_total_is_the_sum(seed in any::<u64>()) {
        let s = winning_hand(seed);
        let hand = s.hand();
        for reading in Reading::ALL {
            let r = evaluate(&hand, reading);
            let brute = brute::best_total(&hand, reading);
            prop_assert_eq!(r.as_ref().ok().map(|r| r.total), brute, "{:?} {}", hand, reading);
            if let Ok(r) = r {
                prop_assert_eq!(r.total, r.fans.iter().map(|(_, p)| p).sum::<u32>());
                prop_assert_eq!(r.total, r.fans.total());
                prop_assert!(r.total > 0 || r.fans.is_empty());
            }
        }
        let mut full = hand.concealed;
        full[hand.win.index()] += 1;
        let mut before_held = score::Tiles::new(&full, hand.melds).held;
        before_held[hand.win.index()] -= 1;
        for reading in Reading::ALL {
            prop_assert_eq!(
                split::single_wait(&hand.concealed, &before_held, hand.win, reading),
                brute::single_wait(&hand, reading),
                "{:?} {}", hand, reading
            );
        }
        // Built as a real win, it wins in both readings.
        prop_assert!(is_win(&hand, Reading::Contest));
        prop_assert!(is_win(&hand, Reading::Seed2015));
    }

    #[test]
    fn evaluation_does_not_depend_on_meld_or_tile_order(seed in any::<u64>(), shuffle in any::<u64>()) {
        let s = winning_hand(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(shuffle);
        let mut melds = s.melds.clone();
        for i in (1..melds.len()).rev() {
            melds.swap(i, below(&mut rng, i as u32 + 1) as usize);
        }
        // The tiles as a list in random order, read back into counts.
        let mut tiles: Vec<Tile> = (0..34)
            .flat_map(|i| std::iter::repeat_n(tile(i), s.concealed[i] as usize))
            .collect();
        for i in (1..tiles.len()).rev() {
            tiles.swap(i, below(&mut rng, i as u32 + 1) as usize);
        }
        let written = crate::tile::tiles_to_string(tiles);
        let mut concealed = [0u8; 34];
        for t in crate::tile::parse_tiles(&written).unwrap() {
            concealed[t.index()] += 1;
        }
        let shuffled = WinHand { concealed, melds: &melds, ..s.hand() };
        for reading in Reading::ALL {
            let a = evaluate(&s.hand(), reading).unwrap();
            let b = evaluate(&shuffled, reading).unwrap();
            prop_assert!(same_fans(&a, &b), "{:?} vs {:?}", a, b);
        }
    }

    #[test]
    fn a_hand_scores_exactly_when_the_game_calls_it_a_win(seed in any::<u64>(), other in 0usize..34) {
        // A winning hand, and the same hand waiting on another tile.
        let s = winning_hand(seed);
        for win in [s.win, tile(other)] {
            let hand = WinHand { win, ..s.hand() };
            let mut full = hand.concealed;
            full[win.index()] += 1;
            for reading in Reading::ALL {
                match evaluate(&hand, reading) {
                    Err(NotAWin::TooManyOfAKind { .. }) => {}
                    r => prop_assert_eq!(r.is_ok(), crate::shape::is_win_in(&full, reading), "{:?}", hand),
                }
            }
        }
    }

    #[test]
    fn the_split_search_agrees_with_brute_force_on_random_tiles(seed in any::<u64>()) {
        // 14 tiles from a narrow pool, so that wins and near-wins both come up.
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let suit = below(&mut rng, 3) as usize * 9;
        let pool: Vec<usize> = (suit..suit + 9).chain(27..29).collect();
        let mut c = [0u8; 34];
        let mut n = 0;
        while n < 14 {
            let k = kind(&mut rng, &pool);
            if c[k] < 4 {
                c[k] += 1;
                n += 1;
            }
        }
        let mut found = 0;
        split::for_each_split(&c, |_, _| found += 1);
        prop_assert_eq!(found > 0, crate::shape::is_standard_win(&c));
        prop_assert_eq!(found, brute::split_count(&c, 4));
    }
}

#[test]
fn the_random_hands_reach_the_rare_fans() {
    // The generator is only as good as what it reaches: every fan must come up.
    let mut seen = FanList::new();
    for seed in 0..20_000 {
        let s = winning_hand(seed);
        for reading in Reading::ALL {
            if let Ok(r) = evaluate(&s.hand(), reading) {
                for (f, _) in r.fans.iter() {
                    if seen.points(f) == 0 {
                        seen.add(f, 1);
                    }
                }
            }
        }
    }
    let missing: Vec<&str> = Fan::ALL
        .iter()
        .filter(|&&f| seen.points(f) == 0)
        .map(|f| f.name(Reading::Contest))
        .collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
}
