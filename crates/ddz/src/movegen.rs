//! Legal-move generation without heap allocation per call.
//!
//! The caller owns a [`MoveList`] and reuses it: generation clears it and pushes into its buffer,
//! which stops growing after the first few calls.

use crate::combo::MAX_PLAY_CARDS;
use crate::{CardSet, Kind, Move, Rank, RuleSet};

const LOW_BITS: u64 = 0x0111_1111_1111_1111;

/// A reusable buffer of moves.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    /// An empty list with room for a typical lead list.
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(512),
        }
    }

    /// Removes every move, keeping the buffer.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    #[inline]
    fn push(&mut self, m: Move) {
        self.moves.push(m);
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True if there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }

    /// Keeps only the moves for which `f` returns true.
    pub fn retain(&mut self, f: impl FnMut(&Move) -> bool) {
        self.moves.retain(f);
    }
}

impl std::ops::Index<usize> for MoveList {
    type Output = Move;
    #[inline]
    fn index(&self, i: usize) -> &Move {
        &self.moves[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

/// `k` cards of every rank in `start..start + len` (chain ranks only).
#[inline]
fn chain_cards(start: usize, len: usize, k: u64) -> CardSet {
    let nibbles = (1u64 << (4 * len)) - 1;
    // Chains lie within 3..A, so the result never exceeds a deck.
    CardSet::from_raw(((nibbles & LOW_BITS) * k) << (4 * start)).unwrap_or_default()
}

#[inline]
fn bits(mut m: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(i)
        }
    })
}

struct Gen<'a> {
    rules: &'a RuleSet,
    size: u32,
    counts: [u8; 15],
    /// Ranks with at least 1, 2, 3, 4 cards.
    m: [u16; 5],
}

impl<'a> Gen<'a> {
    fn new(rules: &'a RuleSet, hand: CardSet) -> Gen<'a> {
        let counts = hand.counts();
        let mut m = [0u16; 5];
        for (r, &c) in counts.iter().enumerate() {
            for slot in m.iter_mut().take(c as usize + 1).skip(1) {
                *slot |= 1 << r;
            }
        }
        Gen {
            rules,
            size: hand.len(),
            counts,
            m,
        }
    }

    /// Ranks above `min` (exclusive; `None` = all).
    #[inline]
    fn above(min: Option<Rank>) -> u16 {
        match min {
            None => 0x7FFF,
            Some(r) => 0x7FFF & !((2u16 << r.index()) - 1),
        }
    }

    fn groups(&self, out: &mut MoveList, k: usize, kind: Kind, min: Option<Rank>) {
        for r in bits(self.m[k] & Self::above(min)) {
            let rank = Rank::ALL[r];
            out.push(Move::new(
                CardSet::of(rank, k as u8).unwrap_or_default(),
                kind,
                rank,
                1,
            ));
        }
    }

    fn rocket(&self, out: &mut MoveList) {
        if self.counts[Rank::BlackJoker.index()] == 1 && self.counts[Rank::RedJoker.index()] == 1 {
            let cards = CardSet::of(Rank::BlackJoker, 1).unwrap_or_default()
                + CardSet::of(Rank::RedJoker, 1).unwrap_or_default();
            out.push(Move::new(cards, Kind::Rocket, Rank::BlackJoker, 1));
        }
    }

    fn trio_kicker(&self, out: &mut MoveList, pair: bool, min: Option<Rank>) {
        let (kind, kmask, kn) = if pair {
            (Kind::TrioPair, self.m[2], 2)
        } else {
            (Kind::TrioSingle, self.m[1], 1)
        };
        for t in bits(self.m[3] & Self::above(min)) {
            let trio = CardSet::of(Rank::ALL[t], 3).unwrap_or_default();
            for k in bits(kmask & !(1 << t)) {
                let cards = trio.plus(Rank::ALL[k], kn);
                out.push(Move::new(cards, kind, Rank::ALL[t], 1));
            }
        }
    }

    /// Chains of `per` cards per link, at least `min_len` links; `len` fixes the length when
    /// following (0 = any).
    fn chains(
        &self,
        out: &mut MoveList,
        per: usize,
        min_len: usize,
        len: usize,
        min: Option<Rank>,
    ) {
        let kind = match per {
            1 => Kind::Straight,
            2 => Kind::PairStraight,
            _ => Kind::Plane,
        };
        let avail = self.m[per] & Rank::CHAIN_MASK;
        let max_len = MAX_PLAY_CARDS as usize / per;
        for s in bits(avail & Self::above(min)) {
            let run = (!(avail >> s)).trailing_zeros() as usize;
            let (lo, hi) = if len == 0 {
                (min_len, run.min(max_len))
            } else {
                (len, run.min(len))
            };
            for l in lo..=hi {
                let cards = chain_cards(s, l, per as u64);
                out.push(Move::new(cards, kind, Rank::ALL[s], l as u8));
            }
        }
    }

    /// Planes of `l` trios starting at `s` (already known available) with single wings.
    fn plane_singles(&self, out: &mut MoveList, len: usize, min: Option<Rank>) {
        let avail = self.m[3] & Rank::CHAIN_MASK;
        for s in bits(avail & Self::above(min)) {
            let run = (!(avail >> s)).trailing_zeros() as usize;
            let (lo, hi) = if len == 0 {
                (2, run)
            } else {
                (len, run.min(len))
            };
            for l in lo..=hi {
                if 4 * l as u32 > self.size.min(MAX_PLAY_CARDS) {
                    break;
                }
                let plane = chain_cards(s, l, 3);
                let mut caps = [0u8; 15];
                for (r, cap) in caps.iter_mut().enumerate() {
                    if r >= s && r < s + l {
                        continue;
                    }
                    let mut c = self.counts[r].min(3);
                    let adjacent = (r + 1 == s || r == s + l) && r <= Rank::Ace.index();
                    if adjacent && !self.rules.adjacent_trio_wings {
                        c = c.min(2);
                    }
                    if self.rules.distinct_single_kickers {
                        c = c.min(1);
                    }
                    *cap = c;
                }
                let rank = Rank::ALL[s];
                self.kickers(&caps, 0, l, plane, &mut |cards| {
                    self.push_checked(out, cards, Kind::PlaneSingles, rank, l as u8)
                });
            }
        }
    }

    fn plane_pairs(&self, out: &mut MoveList, len: usize, min: Option<Rank>) {
        let avail = self.m[3] & Rank::CHAIN_MASK;
        for s in bits(avail & Self::above(min)) {
            let run = (!(avail >> s)).trailing_zeros() as usize;
            let (lo, hi) = if len == 0 {
                (2, run)
            } else {
                (len, run.min(len))
            };
            for l in lo..=hi {
                if 5 * l as u32 > self.size.min(MAX_PLAY_CARDS) {
                    break;
                }
                let plane = chain_cards(s, l, 3);
                let chain_bits = (((1u32 << l) - 1) << s) as u16;
                let pairs = self.m[2] & !chain_bits;
                let rank = Rank::ALL[s];
                choose_bits(pairs, l, 0, plane, &mut |cards| {
                    out.push(Move::new(cards, Kind::PlanePairs, rank, l as u8))
                });
            }
        }
    }

    fn four_two(&self, out: &mut MoveList, pairs: bool, min: Option<Rank>) {
        if !self.rules.four_with_two {
            return;
        }
        for q in bits(self.m[4] & Self::above(min)) {
            let quad = CardSet::of(Rank::ALL[q], 4).unwrap_or_default();
            let rank = Rank::ALL[q];
            if pairs {
                choose_bits(self.m[2] & !(1 << q), 2, 0, quad, &mut |cards| {
                    out.push(Move::new(cards, Kind::FourTwoPairs, rank, 1))
                });
            } else {
                let mut caps = [0u8; 15];
                for (r, cap) in caps.iter_mut().enumerate() {
                    if r != q {
                        *cap = self.counts[r].min(if self.rules.distinct_single_kickers {
                            1
                        } else {
                            2
                        });
                    }
                }
                self.kickers(&caps, 0, 2, quad, &mut |cards| {
                    out.push(Move::new(cards, Kind::FourTwoSingles, rank, 1))
                });
            }
        }
    }

    /// Every multiset of `k` single kickers over ranks `from..` within `caps`, added to `base`.
    fn kickers(
        &self,
        caps: &[u8; 15],
        from: usize,
        k: usize,
        base: CardSet,
        emit: &mut impl FnMut(CardSet),
    ) {
        if k == 0 {
            let b = Rank::BlackJoker;
            let r = Rank::RedJoker;
            if !self.rules.rocket_kickers && base.count(b) == 1 && base.count(r) == 1 {
                return;
            }
            emit(base);
            return;
        }
        for r in from..15 {
            let cap = caps[r] as usize;
            for take in 1..=cap.min(k) {
                self.kickers(
                    caps,
                    r + 1,
                    k - take,
                    base.plus(Rank::ALL[r], take as u8),
                    emit,
                );
            }
        }
    }

    /// Pushes a plane-with-wings reading, skipping it when the rule set reads the same cards
    /// another way (only possible in rule sets with ambiguous readings).
    #[inline]
    fn push_checked(&self, out: &mut MoveList, cards: CardSet, kind: Kind, rank: Rank, len: u8) {
        let m = Move::new(cards, kind, rank, len);
        if self.rules.readings_unique() || self.rules.classify(cards) == Ok(m) {
            out.push(m);
        }
    }

    fn leads(&self, out: &mut MoveList) {
        self.groups(out, 1, Kind::Single, None);
        self.groups(out, 2, Kind::Pair, None);
        self.groups(out, 3, Kind::Trio, None);
        self.groups(out, 4, Kind::Bomb, None);
        self.rocket(out);
        self.trio_kicker(out, false, None);
        self.trio_kicker(out, true, None);
        self.chains(out, 1, 5, 0, None);
        self.chains(out, 2, 3, 0, None);
        self.chains(out, 3, 2, 0, None);
        self.plane_singles(out, 0, None);
        self.plane_pairs(out, 0, None);
        self.four_two(out, false, None);
        self.four_two(out, true, None);
    }

    fn follows(&self, out: &mut MoveList, prev: Move) {
        let min = Some(prev.rank());
        let len = prev.links() as usize;
        match prev.kind() {
            Kind::Pass => return self.leads(out),
            Kind::Rocket => return,
            Kind::Bomb => {
                self.groups(out, 4, Kind::Bomb, min);
                return self.rocket(out);
            }
            Kind::Single => self.groups(out, 1, Kind::Single, min),
            Kind::Pair => self.groups(out, 2, Kind::Pair, min),
            Kind::Trio => self.groups(out, 3, Kind::Trio, min),
            Kind::TrioSingle => self.trio_kicker(out, false, min),
            Kind::TrioPair => self.trio_kicker(out, true, min),
            Kind::Straight => self.chains(out, 1, 5, len, min),
            Kind::PairStraight => self.chains(out, 2, 3, len, min),
            Kind::Plane => self.chains(out, 3, 2, len, min),
            Kind::PlaneSingles => self.plane_singles(out, len, min),
            Kind::PlanePairs => self.plane_pairs(out, len, min),
            Kind::FourTwoSingles => self.four_two(out, false, min),
            Kind::FourTwoPairs => self.four_two(out, true, min),
        }
        self.groups(out, 4, Kind::Bomb, None);
        self.rocket(out);
    }
}

/// Every choice of `k` distinct ranks from `mask` (bits `from..`), each added as a pair to `base`.
fn choose_bits(mask: u16, k: usize, from: usize, base: CardSet, emit: &mut impl FnMut(CardSet)) {
    if k == 0 {
        emit(base);
        return;
    }
    let rest = mask & !((1u16 << from) - 1);
    for r in bits(rest) {
        if (rest >> r).count_ones() < k as u32 {
            break;
        }
        choose_bits(mask, k - 1, r + 1, base.plus(Rank::ALL[r], 2), emit);
    }
}

impl RuleSet {
    /// Every combination `hand` can lead, into `out` (cleared first).
    pub fn leads(&self, hand: CardSet, out: &mut MoveList) {
        out.clear();
        Gen::new(self, hand).leads(out);
    }

    /// Every legal reply to `prev` from `hand`, into `out` (cleared first): the pass first, then
    /// every play that beats `prev`. If `prev` is the pass (a free lead), the leads.
    pub fn follows(&self, hand: CardSet, prev: Move, out: &mut MoveList) {
        out.clear();
        if !prev.is_pass() {
            out.push(Move::PASS);
        }
        Gen::new(self, hand).follows(out, prev);
    }

    /// Checks a play from `hand` after `prev` (pass = free lead) and reads it as a move.
    pub fn check_play(
        &self,
        hand: CardSet,
        prev: Move,
        cards: CardSet,
    ) -> Result<Move, crate::IllegalMove> {
        use crate::IllegalMove;
        if cards.is_empty() {
            return if prev.is_pass() {
                Err(IllegalMove::PassOnLead)
            } else {
                Ok(Move::PASS)
            };
        }
        if !cards.is_subset_of(hand) {
            return Err(IllegalMove::NotInHand { cards, hand });
        }
        let m = self.classify(cards).map_err(IllegalMove::NotACombination)?;
        if prev.is_pass() || m.beats(prev) {
            Ok(m)
        } else {
            Err(IllegalMove::DoesNotBeat { play: m, prev })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cs(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    #[test]
    fn famous_hand_has_519_leads() {
        let mut out = MoveList::new();
        RuleSet::COMPETITION.leads(cs("333444555666789TJQKA"), &mut out);
        assert_eq!(out.len(), 519);
    }

    #[test]
    fn follows_start_with_pass_and_beat() {
        let mut out = MoveList::new();
        let prev = RuleSet::COMPETITION.classify(cs("5")).unwrap();
        RuleSet::COMPETITION.follows(cs("3467BR"), prev, &mut out);
        let s: Vec<String> = out.iter().map(|m| m.to_string()).collect();
        assert_eq!(s, ["pass", "6", "7", "B", "R", "BR"]);
    }

    #[test]
    fn check_play_explains_illegal_moves() {
        let rules = RuleSet::COMPETITION;
        let prev = rules.classify(cs("9")).unwrap();
        assert!(matches!(
            rules.check_play(cs("345"), Move::PASS, cs("6")),
            Err(crate::IllegalMove::NotInHand { .. })
        ));
        assert!(matches!(
            rules.check_play(cs("345"), prev, cs("5")),
            Err(crate::IllegalMove::DoesNotBeat { .. })
        ));
        assert!(matches!(
            rules.check_play(cs("345"), Move::PASS, CardSet::EMPTY),
            Err(crate::IllegalMove::PassOnLead)
        ));
        assert!(matches!(
            rules.check_play(cs("345"), Move::PASS, cs("34")),
            Err(crate::IllegalMove::NotACombination(_))
        ));
        assert_eq!(
            rules.check_play(cs("345"), prev, CardSet::EMPTY),
            Ok(Move::PASS)
        );
    }
}
