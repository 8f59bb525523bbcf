//! Hand analysis: the seed algorithm's greedy decomposition and hand count (手数), and an exact
//! minimum decomposition to compare against.
//!
//! The greedy decomposition follows the seed document step by step:
//!
//! 1. **Rocket**: both jokers.
//! 2. **Bombs**: every rank held four times.
//! 3. **Trios**: every other rank held three times.
//! 4. **Planes**: runs of consecutive trios (3..A), each as long as possible.
//! 5. **Straights**, in three passes. (a) Among the cards outside bombs and trios: take the lowest
//!    five-card chain, again and again; extend every chain at either end with leftover cards;
//!    merge chains that meet end to start. (b) For each trio outside a plane, try the leftovers
//!    plus the trio: if that yields a straight using one of its cards, leaving a pair, the trio is
//!    broken (`4566678` → `45678` + `66`). (c) A straight that ends next to a trio is extended
//!    through one card of the trio when that lets it also take leftover cards beyond the trio
//!    (`45678` + `999` + `TJ` → `456789TJ` + `99`). Finally, straights that meet are merged.
//! 6. **Pair straights**: two identical straights become one pair straight; then runs of three or
//!    more consecutive pairs among the leftovers, found like straights.
//! 7. **Pairs**, then 8. **singles**: whatever is left.
//!
//! The hand count is the number of parts. Kickers are not attached: the seed counts a trio and
//! the single it will carry as two parts.

use std::collections::HashMap;

use crate::{CardSet, Kind, Move, MoveList, Rank, RuleSet};

/// At most 20 parts: a hand holds at most 20 cards.
const MAX_PARTS: usize = 20;

/// A decomposition of a hand into parts (combinations without kickers), in a fixed buffer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decomposition {
    parts: [Move; MAX_PARTS],
    len: u8,
}

impl Default for Decomposition {
    fn default() -> Self {
        Decomposition {
            parts: [Move::PASS; MAX_PARTS],
            len: 0,
        }
    }
}

impl Decomposition {
    /// The parts, in the order they were found.
    pub fn parts(&self) -> &[Move] {
        &self.parts[..self.len as usize]
    }

    /// Number of parts: the hand count.
    pub fn hand_count(&self) -> usize {
        self.len as usize
    }

    /// All cards in the decomposition.
    pub fn cards(&self) -> CardSet {
        self.parts()
            .iter()
            .fold(CardSet::EMPTY, |a, m| a + m.cards())
    }

    /// Parts of one kind.
    pub fn of_kind(&self, kind: Kind) -> impl Iterator<Item = &Move> {
        self.parts().iter().filter(move |m| m.kind() == kind)
    }

    fn push(&mut self, m: Move) {
        if (self.len as usize) < MAX_PARTS {
            self.parts[self.len as usize] = m;
            self.len += 1;
        }
    }

    /// The parts sorted for display: by kind, then rank.
    pub fn sorted(&self) -> Decomposition {
        let mut d = *self;
        d.parts[..d.len as usize].sort_by_key(|m| (m.kind(), m.rank()));
        d
    }
}

impl std::fmt::Display for Decomposition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, m) in self.parts().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{m}")?;
        }
        Ok(())
    }
}

/// A step of the greedy decomposition, reported to a trace observer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// After the rocket.
    Rocket,
    /// After bombs.
    Bombs,
    /// After trios.
    Trios,
    /// After planes.
    Planes,
    /// After the first straight pass.
    Straights,
    /// After breaking trios into straights and pairs.
    BreakTrios,
    /// After extending straights through trios.
    ExtendThroughTrios,
    /// After pair straights.
    PairStraights,
    /// After pairs.
    Pairs,
    /// After singles (the final decomposition).
    Singles,
}

impl Step {
    /// A short description of the step.
    pub fn describe(self) -> &'static str {
        match self {
            Step::Rocket => "1 rocket",
            Step::Bombs => "2 bombs",
            Step::Trios => "3 trios",
            Step::Planes => "4 planes (consecutive trios)",
            Step::Straights => "5a straights outside trios",
            Step::BreakTrios => "5b trios broken into straight + pair",
            Step::ExtendThroughTrios => "5c straights extended through trios",
            Step::PairStraights => "6 pair straights",
            Step::Pairs => "7 pairs",
            Step::Singles => "8 singles",
        }
    }
}

fn group(rank: Rank, k: u8, kind: Kind) -> Move {
    Move::new(CardSet::of(rank, k).unwrap_or_default(), kind, rank, 1)
}

fn chain(lo: usize, len: usize, per: u8) -> Move {
    let mut cards = CardSet::EMPTY;
    for r in lo..lo + len {
        cards = cards.plus(Rank::ALL[r], per);
    }
    let kind = match per {
        1 => Kind::Straight,
        2 => Kind::PairStraight,
        _ => Kind::Plane,
    };
    Move::new(cards, kind, Rank::ALL[lo], len as u8)
}

/// Chains found by the seed's procedure: (lo, len) ranges, at most 4 per width.
#[derive(Copy, Clone, Default)]
struct Chains {
    ranges: [(u8, u8); 8],
    n: usize,
}

impl Chains {
    fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.ranges[..self.n]
            .iter()
            .map(|&(lo, len)| (lo as usize, len as usize))
    }
}

/// The seed's chain procedure over `pool` (counts by rank), with `per` cards per link and at
/// least `min` links: take the lowest chain repeatedly, extend, merge. Used cards leave `pool`.
fn find_chains(pool: &mut [u8; 15], per: u8, min: usize) -> Chains {
    let mut ch = Chains::default();
    let ace = Rank::Ace.index();
    // (a) lowest chain of `min` links, again and again.
    'outer: loop {
        for lo in 0..=ace + 1 - min {
            if (lo..lo + min).all(|r| pool[r] >= per) {
                for c in &mut pool[lo..lo + min] {
                    *c -= per;
                }
                if ch.n < ch.ranges.len() {
                    ch.ranges[ch.n] = (lo as u8, min as u8);
                    ch.n += 1;
                }
                continue 'outer;
            }
        }
        break;
    }
    // (b) extend at either end with leftover cards.
    let mut changed = true;
    while changed {
        changed = false;
        for (lo, len) in ch.ranges[..ch.n].iter_mut() {
            let hi = (*lo + *len) as usize;
            if hi <= ace && pool[hi] >= per {
                pool[hi] -= per;
                *len += 1;
                changed = true;
            }
            if *lo > 0 && pool[*lo as usize - 1] >= per {
                pool[*lo as usize - 1] -= per;
                *lo -= 1;
                *len += 1;
                changed = true;
            }
        }
    }
    merge_ranges(&mut ch);
    ch
}

/// (c) merge chains that meet end to start.
fn merge_ranges(ch: &mut Chains) {
    let mut merged = true;
    while merged {
        merged = false;
        'scan: for i in 0..ch.n {
            for j in 0..ch.n {
                let (a, b) = (ch.ranges[i], ch.ranges[j]);
                if i != j && a.0 + a.1 == b.0 {
                    ch.ranges[i].1 += b.1;
                    ch.ranges.copy_within(j + 1..ch.n, j);
                    ch.n -= 1;
                    merged = true;
                    break 'scan;
                }
            }
        }
    }
}

/// The seed algorithm's decomposition of `hand`.
pub fn seed_decompose(hand: CardSet) -> Decomposition {
    seed_decompose_traced(hand, |_, _| {})
}

/// The seed decomposition, reporting the parts found after each step to `trace`.
pub fn seed_decompose_traced(
    hand: CardSet,
    mut trace: impl FnMut(Step, &Decomposition),
) -> Decomposition {
    let mut d = Decomposition::default();
    let mut pool = hand.counts();
    let (b, r) = (Rank::BlackJoker.index(), Rank::RedJoker.index());

    if pool[b] == 1 && pool[r] == 1 {
        pool[b] = 0;
        pool[r] = 0;
        d.push(Move::new(
            CardSet::of(Rank::BlackJoker, 1).unwrap_or_default()
                + CardSet::of(Rank::RedJoker, 1).unwrap_or_default(),
            Kind::Rocket,
            Rank::BlackJoker,
            1,
        ));
    }
    trace(Step::Rocket, &d);

    for rank in Rank::ALL {
        if pool[rank.index()] == 4 {
            pool[rank.index()] = 0;
            d.push(group(rank, 4, Kind::Bomb));
        }
    }
    trace(Step::Bombs, &d);

    let mut trios = 0u16;
    for rank in Rank::ALL {
        if pool[rank.index()] == 3 {
            pool[rank.index()] = 0;
            trios |= 1 << rank.index();
        }
    }
    // Trios are reported as parts now; planes replace runs of them in the next step.
    let mut with_trios = d;
    for i in 0..15 {
        if trios >> i & 1 == 1 {
            with_trios.push(group(Rank::ALL[i], 3, Kind::Trio));
        }
    }
    trace(Step::Trios, &with_trios);

    // Planes: maximal runs of chainable trios of length >= 2.
    let mut lone_trios = trios;
    let mut i = 0;
    while i <= Rank::Ace.index() {
        let run = (!((trios & Rank::CHAIN_MASK) >> i)).trailing_zeros() as usize;
        if run >= 2 {
            d.push(chain(i, run, 3));
            lone_trios &= !((((1u32 << run) - 1) << i) as u16);
            i += run;
        } else {
            i += 1;
        }
    }
    let mut snapshot = d;
    push_trios(&mut snapshot, lone_trios);
    trace(Step::Planes, &snapshot);

    // 5a: straights outside trios.
    let mut straights = find_chains(&mut pool, 1, 5);
    let mut snapshot = d;
    for (lo, len) in straights.iter() {
        snapshot.push(chain(lo, len, 1));
    }
    push_trios(&mut snapshot, lone_trios);
    trace(Step::Straights, &snapshot);

    // 5b: break a trio into a straight and a pair when the leftovers allow it.
    for t in 0..=Rank::Ace.index() {
        if lone_trios >> t & 1 == 0 {
            continue;
        }
        let mut trial = pool;
        trial[t] += 3;
        let found = find_chains(&mut trial, 1, 5);
        if found.n > 0 && trial[t] == 2 {
            pool = trial;
            lone_trios &= !(1 << t);
            for (lo, len) in found.iter() {
                if straights.n < straights.ranges.len() {
                    straights.ranges[straights.n] = (lo as u8, len as u8);
                    straights.n += 1;
                }
            }
        }
    }
    let mut snapshot = d;
    for (lo, len) in straights.iter() {
        snapshot.push(chain(lo, len, 1));
    }
    push_trios(&mut snapshot, lone_trios);
    trace(Step::BreakTrios, &snapshot);

    // 5c: extend a straight through an adjacent trio when it then also takes leftovers beyond.
    let ace = Rank::Ace.index();
    for k in 0..straights.n {
        // Upwards.
        loop {
            let (lo, len) = (
                straights.ranges[k].0 as usize,
                straights.ranges[k].1 as usize,
            );
            let t = lo + len;
            if t < ace && lone_trios >> t & 1 == 1 && pool[t + 1] > 0 {
                lone_trios &= !(1 << t);
                pool[t] += 2;
                let mut hi = t + 1;
                while hi <= ace && pool[hi] > 0 {
                    pool[hi] -= 1;
                    hi += 1;
                }
                straights.ranges[k].1 = (hi - lo) as u8;
            } else {
                break;
            }
        }
        // Downwards.
        loop {
            let (lo, len) = (
                straights.ranges[k].0 as usize,
                straights.ranges[k].1 as usize,
            );
            if lo >= 2 && lone_trios >> (lo - 1) & 1 == 1 && pool[lo - 2] > 0 {
                let t = lo - 1;
                lone_trios &= !(1 << t);
                pool[t] += 2;
                let mut new_lo = t;
                while new_lo > 0 && pool[new_lo - 1] > 0 {
                    new_lo -= 1;
                    pool[new_lo] -= 1;
                }
                straights.ranges[k] = (new_lo as u8, (lo + len - new_lo) as u8);
            } else {
                break;
            }
        }
    }
    merge_ranges(&mut straights);
    let mut snapshot = d;
    for (lo, len) in straights.iter() {
        snapshot.push(chain(lo, len, 1));
    }
    push_trios(&mut snapshot, lone_trios);
    trace(Step::ExtendThroughTrios, &snapshot);

    // 6: identical straights become a pair straight; then pair straights among leftovers.
    let mut paired = [false; 8];
    for i in 0..straights.n {
        for j in i + 1..straights.n {
            if !paired[i] && !paired[j] && straights.ranges[i] == straights.ranges[j] {
                paired[i] = true;
                paired[j] = true;
                let (lo, len) = straights.ranges[i];
                d.push(chain(lo as usize, len as usize, 2));
            }
        }
    }
    for (i, (lo, len)) in straights.iter().enumerate() {
        if !paired[i] {
            d.push(chain(lo, len, 1));
        }
    }
    push_trios(&mut d, lone_trios);
    let pair_straights = find_chains(&mut pool, 2, 3);
    for (lo, len) in pair_straights.iter() {
        d.push(chain(lo, len, 2));
    }
    trace(Step::PairStraights, &d);

    for rank in Rank::ALL {
        while pool[rank.index()] >= 2 {
            pool[rank.index()] -= 2;
            d.push(group(rank, 2, Kind::Pair));
        }
    }
    trace(Step::Pairs, &d);
    for rank in Rank::ALL {
        while pool[rank.index()] > 0 {
            pool[rank.index()] -= 1;
            d.push(group(rank, 1, Kind::Single));
        }
    }
    trace(Step::Singles, &d);
    d
}

fn push_trios(d: &mut Decomposition, trios: u16) {
    for i in 0..15 {
        if trios >> i & 1 == 1 {
            d.push(group(Rank::ALL[i], 3, Kind::Trio));
        }
    }
}

/// The seed algorithm's hand count of `hand`.
pub fn seed_hand_count(hand: CardSet) -> usize {
    seed_decompose(hand).hand_count()
}

/// A decomposition into the fewest plays (combinations with kickers), found by exhaustive
/// search with memoisation; every part is a legal lead under `rules`.
pub fn optimal_decompose(rules: &RuleSet, hand: CardSet) -> Vec<Move> {
    let mut memo: HashMap<CardSet, (u8, Move)> = HashMap::new();
    let mut lists: Vec<MoveList> = Vec::new();
    min_plays(rules, hand, &mut memo, &mut lists, 0);
    let mut out = Vec::new();
    let mut rest = hand;
    while !rest.is_empty() {
        let (_, m) = memo[&rest];
        out.push(m);
        rest = rest - m.cards();
    }
    out
}

/// The fewest plays that empty `hand` with nobody answering.
pub fn optimal_hand_count(rules: &RuleSet, hand: CardSet) -> usize {
    let mut memo = HashMap::new();
    let mut lists = Vec::new();
    min_plays(rules, hand, &mut memo, &mut lists, 0) as usize
}

fn min_plays(
    rules: &RuleSet,
    hand: CardSet,
    memo: &mut HashMap<CardSet, (u8, Move)>,
    lists: &mut Vec<MoveList>,
    depth: usize,
) -> u8 {
    if hand.is_empty() {
        return 0;
    }
    if let Some(&(n, _)) = memo.get(&hand) {
        return n;
    }
    if lists.len() <= depth {
        lists.push(MoveList::new());
    }
    let mut moves = std::mem::take(&mut lists[depth]);
    rules.leads(hand, &mut moves);
    // Every partition has a part holding the lowest card: branching on those parts only keeps
    // the search exact while avoiding every permutation of the same partition.
    let low = hand.lowest().unwrap_or(Rank::Three);
    let mut best = (u8::MAX, Move::PASS);
    for &m in moves.iter() {
        if m.cards().count(low) == 0 {
            continue;
        }
        let n = 1 + min_plays(rules, hand - m.cards(), memo, lists, depth + 1);
        if n < best.0 {
            best = (n, m);
        }
    }
    lists[depth] = moves;
    memo.insert(hand, best);
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    fn parts(hand: &str) -> Vec<String> {
        let mut v: Vec<String> = seed_decompose(cs(hand))
            .parts()
            .iter()
            .map(|m| m.to_string())
            .collect();
        v.sort();
        v
    }

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn seed_example_nine_hands() {
        // The seed's worked example: 22AAKQJ9987776654 is 22, AA, K, Q, J, 456789, 9, 77, 6.
        let d = seed_decompose(cs("22AAKQJ9987776654"));
        assert_eq!(d.hand_count(), 9);
        assert_eq!(
            parts("22AAKQJ9987776654"),
            sorted(&["22", "AA", "K", "Q", "J", "456789", "9", "77", "6"])
        );
    }

    #[test]
    fn seed_straight_procedure_example() {
        // 2AKQJT9987776654 3: lowest chains 34567 and 6789T, then 6789T grows to 6789TJQKA.
        let mut pool = cs("2AKQJT99877766543").counts();
        let ch = find_chains(&mut pool, 1, 5);
        let got: Vec<(usize, usize)> = ch.iter().collect();
        assert_eq!(got, [(0, 5), (3, 9)]);
        let left: CardSet = CardSet::from_counts(&pool).unwrap();
        assert_eq!(left.to_string(), "792");
    }

    #[test]
    fn trio_broken_into_straight_and_pair() {
        assert_eq!(parts("4566678"), sorted(&["45678", "66"]));
    }

    #[test]
    fn straight_extended_through_a_trio() {
        assert_eq!(parts("45678999TJ"), sorted(&["456789TJ", "99"]));
    }

    #[test]
    fn rocket_bombs_planes_pair_straights() {
        assert_eq!(parts("BR2222333444"), sorted(&["BR", "2222", "333444"]));
        assert_eq!(parts("334455"), sorted(&["334455"]));
        assert_eq!(parts("3456734567"), sorted(&["3344556677"]));
        assert_eq!(parts("333555"), sorted(&["333", "555"]));
    }

    #[test]
    fn decomposition_covers_the_hand() {
        for i in 0..300 {
            let deal = crate::Deal::generate(99, i);
            let hand = deal.hands[0] + deal.bottom;
            assert_eq!(seed_decompose(hand).cards(), hand);
        }
    }

    #[test]
    fn optimal_is_never_worse_than_the_seed_and_is_a_partition() {
        let rules = RuleSet::COMPETITION;
        for i in 0..40 {
            let hand = crate::Deal::generate(5, i).hands[1];
            let opt = optimal_decompose(&rules, hand);
            let union = opt.iter().fold(CardSet::EMPTY, |a, m| a + m.cards());
            assert_eq!(union, hand);
            for m in &opt {
                assert_eq!(rules.classify(m.cards()), Ok(*m));
            }
            assert!(opt.len() <= seed_hand_count(hand));
            assert_eq!(opt.len(), optimal_hand_count(&rules, hand));
        }
    }

    #[test]
    fn optimal_attaches_kickers() {
        let rules = RuleSet::COMPETITION;
        assert_eq!(optimal_hand_count(&rules, cs("3334")), 1);
        assert_eq!(optimal_hand_count(&rules, cs("33344456")), 1);
        assert_eq!(optimal_hand_count(&rules, cs("3456789")), 1);
        assert_eq!(optimal_hand_count(&rules, cs("33345678")), 2);
    }
}
