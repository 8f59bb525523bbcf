//! Win detection, waits and shanten against brute force, on random hands.

use mahjong::shape::{self, is_win_in, shanten_in, waits_in};
use mahjong::{Counts, Reading, TILE_KINDS, Tile, parse_tiles};
use proptest::prelude::*;

/// Whether `c` splits into sets and one pair, by trying every first set and pair.
fn brute_standard(c: &mut Counts, pair_left: bool) -> bool {
    let Some(i) = c.iter().position(|&n| n > 0) else {
        return !pair_left;
    };
    if pair_left && c[i] >= 2 {
        c[i] -= 2;
        let ok = brute_standard(c, false);
        c[i] += 2;
        if ok {
            return true;
        }
    }
    if c[i] >= 3 {
        c[i] -= 3;
        let ok = brute_standard(c, pair_left);
        c[i] += 3;
        if ok {
            return true;
        }
    }
    let t = Tile::from_index(i).unwrap();
    if t.starts_chow() && c[i + 1] > 0 && c[i + 2] > 0 {
        for k in 0..3 {
            c[i + k] -= 1;
        }
        let ok = brute_standard(c, pair_left);
        for k in 0..3 {
            c[i + k] += 1;
        }
        if ok {
            return true;
        }
    }
    false
}

fn total(c: &Counts) -> usize {
    c.iter().map(|&n| usize::from(n)).sum()
}

fn brute_win(c: &Counts, reading: Reading) -> bool {
    let n = total(c);
    if n % 3 != 2 {
        return false;
    }
    if brute_standard(&mut c.clone(), true) {
        return true;
    }
    if n != 14 {
        return false;
    }
    let th = |i: usize| Tile::from_index(i).unwrap().is_terminal_or_honour();
    let seven = c.iter().all(|&k| k % 2 == 0);
    let all_th = (0..TILE_KINDS).all(|i| c[i] == 0 || th(i));
    let repeated = c.iter().filter(|&&k| k > 1).count();
    let kinds = c.iter().filter(|&&k| k > 0).count();
    let orphans = match reading {
        Reading::Contest => all_th && kinds == 13 && repeated == 1,
        Reading::Seed2015 => all_th && repeated == 1,
    };
    seven || orphans
}

/// Random hands of `n` tiles biased towards wins: sets and a pair, then some tiles swapped.
fn hand(n: usize) -> impl Strategy<Value = Counts> {
    (
        proptest::collection::vec((0u8..3, 0usize..34), 5),
        0usize..34,
        proptest::collection::vec(0usize..34, 0..4),
        proptest::collection::vec(0usize..34, 20),
        any::<bool>(),
    )
        .prop_map(move |(sets, pair, swaps, fill, honours)| {
            let mut c = [0u8; TILE_KINDS];
            let put = |c: &mut Counts, i: usize| {
                if c[i] < 4 && total(c) < n {
                    c[i] += 1;
                    true
                } else {
                    false
                }
            };
            let kinds = if honours { 34 } else { 27 };
            put(&mut c, pair % kinds);
            put(&mut c, pair % kinds);
            for (kind, at) in sets {
                let at = at % kinds;
                let t = Tile::from_index(at).unwrap();
                if kind == 0 && t.starts_chow() {
                    for k in 0..3 {
                        put(&mut c, at + k);
                    }
                } else {
                    for _ in 0..3 {
                        put(&mut c, at);
                    }
                }
            }
            let mut f = fill.into_iter().cycle();
            for s in swaps {
                if let Some(i) = c.iter().position(|&k| k > 0 && s % 3 == 0) {
                    c[i] -= 1;
                }
            }
            while total(&c) < n {
                let i = f.next().unwrap();
                if !put(&mut c, i) {
                    // A full kind: try the next one.
                    let _ = put(&mut c, (i + 1) % 34);
                    let _ = put(&mut c, (i + 7) % 34);
                }
            }
            c
        })
}

/// Random hands near seven pairs or thirteen orphans: pairs of random kinds, or terminals and
/// honours only, with a few other tiles.
fn special(n: usize) -> impl Strategy<Value = Counts> {
    const TH: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];
    (
        any::<bool>(),
        proptest::collection::vec(0usize..34, 20),
        proptest::collection::vec(0usize..13, 20),
        0usize..3,
    )
        .prop_map(move |(pairs, kinds, th, stray)| {
            let mut c = [0u8; TILE_KINDS];
            let put = |c: &mut Counts, i: usize| {
                if c[i] < 4 && total(c) < n {
                    c[i] += 1;
                }
            };
            for _ in 0..stray {
                put(&mut c, kinds[19 - stray]);
            }
            if pairs {
                for &k in &kinds {
                    put(&mut c, k);
                    put(&mut c, k);
                }
            } else {
                for &k in &th {
                    put(&mut c, TH[k]);
                }
            }
            let mut i = 0;
            while total(&c) < n {
                put(&mut c, TH[i % 13]);
                put(&mut c, i % 34);
                i += 1;
            }
            c
        })
}

fn any_hand(n: usize) -> impl Strategy<Value = Counts> {
    prop_oneof![3 => hand(n), 1 => special(n)]
}

fn sizes() -> impl Strategy<Value = usize> {
    prop_oneof![Just(14usize), Just(11), Just(8), Just(5), Just(2)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn win_detection_agrees_with_brute_force(c in sizes().prop_flat_map(any_hand), seed2015 in any::<bool>()) {
        let reading = if seed2015 { Reading::Seed2015 } else { Reading::Contest };
        prop_assert_eq!(is_win_in(&c, reading), brute_win(&c, reading));
    }

    #[test]
    fn waits_are_the_tiles_that_win(c in sizes().prop_map(|n| n - 1).prop_flat_map(any_hand), seed2015 in any::<bool>()) {
        let reading = if seed2015 { Reading::Seed2015 } else { Reading::Contest };
        let w = waits_in(&c, reading);
        for t in Tile::all() {
            let mut h = c;
            let wins = h[t.index()] < 4 && { h[t.index()] += 1; brute_win(&h, reading) };
            prop_assert_eq!(w.contains(t), wins, "{}", t);
        }
    }

    #[test]
    fn shanten_is_minus_one_exactly_for_wins_and_zero_exactly_with_a_wait(
        c in (1usize..=14).prop_filter("a hand size", |n| n % 3 != 0).prop_flat_map(any_hand),
        seed2015 in any::<bool>(),
    ) {
        let reading = if seed2015 { Reading::Seed2015 } else { Reading::Contest };
        let s = shanten_in(&c, reading);
        let n = total(&c);
        prop_assert!((-1..=8).contains(&s));
        prop_assert_eq!(s == -1, brute_win(&c, reading));
        if n % 3 == 1 {
            prop_assert_eq!(s == 0, !waits_in(&c, reading).is_empty());
        } else if s != -1 {
            // One over: ready exactly when some discard leaves a wait.
            let ready = (0..TILE_KINDS).any(|i| c[i] > 0 && {
                let mut h = c;
                h[i] -= 1;
                !waits_in(&h, reading).is_empty()
            });
            prop_assert_eq!(s == 0, ready);
        }
    }

    #[test]
    fn shanten_drops_by_at_most_one_per_tile(c in (1usize..=13).prop_filter("waiting size", |n| n % 3 == 1).prop_flat_map(hand)) {
        let s = shape::shanten(&c);
        for t in Tile::all().filter(|t| c[t.index()] < 4) {
            let mut h = c;
            h[t.index()] += 1;
            prop_assert!(shape::shanten(&h) >= s - 1, "{} {}", t, s);
        }
    }

    #[test]
    fn tile_order_does_not_matter(c in hand(14), order in Just(()).prop_perturb(|_, mut rng| rng.random::<u64>())) {
        // The same tiles written in another order read as the same hand.
        let mut tiles: Vec<Tile> = Tile::all().flat_map(|t| std::iter::repeat_n(t, usize::from(c[t.index()]))).collect();
        let mut state = order;
        for i in (1..tiles.len()).rev() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            tiles.swap(i, (state >> 33) as usize % (i + 1));
        }
        let written = mahjong::tiles_to_string(tiles);
        let mut back = [0u8; TILE_KINDS];
        for t in parse_tiles(&written).unwrap() {
            back[t.index()] += 1;
        }
        prop_assert_eq!(back, c);
        prop_assert_eq!(shape::is_win(&back), shape::is_win(&c));
        prop_assert_eq!(shape::shanten(&back), shape::shanten(&c));
    }
}

fn counts(s: &str) -> Counts {
    let mut c = [0u8; TILE_KINDS];
    for t in parse_tiles(s).unwrap() {
        c[t.index()] += 1;
    }
    c
}

#[test]
fn known_shapes() {
    let win = |s: &str| shape::is_win(&counts(s));
    assert!(win("1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M 5M E E"));
    assert!(
        win("1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M 9M 9M 5M"),
        "nine gates on 5M"
    );
    assert!(
        win("1M 1M 2M 2M 3M 3M 4M 4M 4M 4M E E Z Z"),
        "seven pairs with four 4M"
    );
    assert!(win("1M 9M 1S 9S 1T 9T E S W N Z F B B"));
    assert!(
        !win("1M 1M 1M 9M 1S 9S 1T 9T E S W N Z F"),
        "B missing: only the 2015 reading"
    );
    assert!(shape::is_win_in(
        &counts("1M 1M 1M 9M 1S 9S 1T 9T E S W N Z F"),
        Reading::Seed2015
    ));
    assert!(!win("1M 2M 4M 5M 6M 7M 8M 9M E E E Z Z F"));
    assert!(win("E E"), "a pair alone completes four declared sets");
    assert!(!win("E S"));
    assert!(!win("1M 2M 3M"), "three tiles are never a complete hand");
}

#[test]
fn known_waits_and_shanten() {
    let w = |s: &str| shape::waits(&counts(s)).to_string();
    assert_eq!(
        w("1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M 9M 9M"),
        "1M 2M 3M 4M 5M 6M 7M 8M 9M"
    );
    assert_eq!(
        w("1M 9M 1S 9S 1T 9T E S W N Z F B"),
        "1M 9M 1S 9S 1T 9T E S W N Z F B"
    );
    assert_eq!(w("1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E"), "2M 5M");
    assert_eq!(w("1M 2M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M 5M"), "3M");
    // Holding all four 1M: a wait on 1M is no wait.
    assert_eq!(w("1M 1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M E"), "E");
    // Shanten is exact at 0: four 5M and a hand whose only wait would be the fifth 5M.
    let karaten = counts("5M 5M 5M 5M 1S 2S 3S 4T 5T 6T 7T 8T 9T");
    assert!(shape::waits(&karaten).is_empty());
    assert_eq!(shape::shanten(&karaten), 1);
    assert_eq!(
        shape::shanten(&counts("1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E")),
        0
    );
    assert_eq!(
        shape::shanten(&counts("1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E 5M")),
        -1
    );
    assert_eq!(
        shape::shanten(&counts("1M 9M 1S 9S 1T 9T E S W 2M 5M 8M 3S")),
        4,
        "thirteen orphans: 13 − 9 kinds"
    );
    assert_eq!(
        shape::shanten(&counts("1M 1M 2M 2M 3M 3M 4S 4S 5S 5S 6T 6T E")),
        0
    );
}
