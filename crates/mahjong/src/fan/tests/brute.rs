//! A slow, independent search for the best reading: every multiset of candidate sets, every
//! place the winning tile could have gone, waits by trying every kind. It shares only the
//! scoring of one given reading with the engine, so it checks the enumeration and the
//! maximisation (and the single-wait test) rather than the fan rules.

use super::super::score::{self, Tiles};
use super::super::*;

fn orphan(i: usize) -> bool {
    Tile::from_index(i).unwrap().is_terminal_or_honour()
}

/// Every split of `c` into `sets` sets and a pair: each combination of candidate sets (chosen
/// with repetition, in candidate order) whose removal leaves exactly one pair.
fn splits(c: &Counts, sets: usize) -> Vec<(Vec<Set>, Tile)> {
    let mut candidates = Vec::new();
    for (i, t) in Tile::all().enumerate() {
        if c[i] >= 3 {
            candidates.push(Set::Pung(t));
        }
        if t.starts_chow() && c[i] > 0 && c[i + 1] > 0 && c[i + 2] > 0 {
            candidates.push(Set::Chow(t));
        }
    }
    let mut out = Vec::new();
    let mut pick = Vec::new();
    choose(c, &candidates, 0, sets, &mut pick, &mut out);
    out
}

fn choose(
    c: &Counts,
    candidates: &[Set],
    from: usize,
    left: usize,
    pick: &mut Vec<Set>,
    out: &mut Vec<(Vec<Set>, Tile)>,
) {
    if left == 0 {
        let mut rest = *c;
        for s in pick.iter() {
            match *s {
                Set::Pung(t) => {
                    if rest[t.index()] < 3 {
                        return;
                    }
                    rest[t.index()] -= 3;
                }
                Set::Chow(t) => {
                    for r in &mut rest[t.index()..t.index() + 3] {
                        if *r == 0 {
                            return;
                        }
                        *r -= 1;
                    }
                }
                Set::Meld(_) => unreachable!(),
            }
        }
        let nonzero: Vec<usize> = (0..34).filter(|&i| rest[i] > 0).collect();
        if nonzero.len() == 1 && rest[nonzero[0]] == 2 {
            out.push((pick.clone(), Tile::from_index(nonzero[0]).unwrap()));
        }
        return;
    }
    for i in from..candidates.len() {
        pick.push(candidates[i]);
        choose(c, candidates, i, left - 1, pick, out);
        pick.pop();
    }
}

fn seven_pairs(c: &Counts, melds: usize) -> bool {
    melds == 0
        && c.iter()
            .map(|&x| (x / 2) as u32 * (x % 2 == 0) as u32)
            .sum::<u32>()
            == 7
}

fn thirteen_orphans(c: &Counts, melds: usize, reading: Reading) -> bool {
    let only_orphans = (0..34).all(|i| c[i] == 0 || orphan(i));
    let sum: u32 = c.iter().map(|&x| x as u32).sum();
    if melds != 0 || sum != 14 || !only_orphans {
        return false;
    }
    let doubled = (0..34).filter(|&i| c[i] >= 2).count();
    if reading.has(Seed2015Rule::LooseThirteenOrphans) {
        doubled == 1
    } else {
        (0..34).filter(|&i| orphan(i)).all(|i| c[i] >= 1)
    }
}

/// How many splits of `c` into `sets` sets and a pair there are.
pub fn split_count(c: &Counts, sets: usize) -> usize {
    splits(c, sets).len()
}

/// Whether `c` (concealed, with `melds` declared) wins in any shape.
pub fn wins(c: &Counts, melds: usize, reading: Reading) -> bool {
    !splits(c, 4 - melds).is_empty() || seven_pairs(c, melds) || thirteen_orphans(c, melds, reading)
}

/// The hand waits on its winning tile's kind alone (kinds held four times cannot come).
pub fn single_wait(hand: &WinHand<'_>, reading: Reading) -> bool {
    let full = {
        let mut f = hand.concealed;
        f[hand.win.index()] += 1;
        f
    };
    let held = Tiles::new(&full, hand.melds).held;
    Tile::all().all(|k| {
        k == hand.win || held[k.index()] >= 4 || {
            let mut c = hand.concealed;
            c[k.index()] += 1;
            !wins(&c, hand.melds.len(), reading)
        }
    })
}

/// The best total by brute force, or `None` if the hand does not win.
pub fn best_total(hand: &WinHand<'_>, reading: Reading) -> Option<u32> {
    let mut full = hand.concealed;
    full[hand.win.index()] += 1;
    let tiles = Tiles::new(&full, hand.melds);
    let single = single_wait(hand, reading);
    let m = hand.melds.len();
    let mut special: Option<u32> = None;
    if thirteen_orphans(&full, m, reading) {
        special = Some(score::thirteen_orphans(hand, &tiles, reading).total());
    }
    if seven_pairs(&full, m) {
        let t = score::seven_pairs(hand, &tiles, reading).total();
        special = Some(special.map_or(t, |s| s.max(t)));
    }
    let mut standard: Option<u32> = None;
    for (concealed_sets, pair) in splits(&full, 4 - m) {
        let mut sets = [Set::Chow(Tile::default()); 4];
        for (i, m) in hand.melds.iter().enumerate() {
            sets[i] = Set::Meld(*m);
        }
        for (i, s) in concealed_sets.iter().enumerate() {
            sets[m + i] = *s;
        }
        let mut places = Vec::new();
        if pair == hand.win {
            places.push(WinPlace::Pair);
        }
        for (i, s) in sets.iter().enumerate().skip(m) {
            let holds = match *s {
                Set::Pung(t) => t == hand.win,
                Set::Chow(t) => (t.index()..t.index() + 3).contains(&hand.win.index()),
                Set::Meld(_) => false,
            };
            if holds {
                places.push(WinPlace::Set(i as u8));
            }
        }
        for place in places {
            let t =
                score::standard(hand, &tiles, &sets, pair, place, reading, &mut || single).total();
            standard = Some(standard.map_or(t, |s| s.max(t)));
        }
    }
    if reading.has(Seed2015Rule::SingleWaitAfterMaximisation) {
        // Special shapes win ties, and the unique wait is added to a standard reading after.
        match (special, standard) {
            (Some(s), Some(t)) if s >= t => Some(s),
            (_, Some(t)) => Some(t + single as u32),
            (s, None) => s,
        }
    } else {
        special.max(standard)
    }
}
