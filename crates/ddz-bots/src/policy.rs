//! Rule-based play: the seed algorithm's player, and an expert refinement of it.
//!
//! Both work from a [`Ctx`] (what a seat knows that matters for the rules) so the same code serves
//! a bot reading an [`Observation`] and a search bot's rollouts on a [`PlayState`], and neither
//! allocates.

use ddz::analysis::{Decomposition, seed_decompose};
use ddz::{CardSet, Kind, Move, MoveList, Observation, PlayState, Rank, RuleSet, Seat};

/// What the rule-based policies look at.
#[derive(Copy, Clone, Debug)]
pub struct Ctx {
    /// The acting seat's hand.
    pub hand: CardSet,
    /// The play to beat, or the pass on a free lead.
    pub to_beat: Move,
    /// Who made `to_beat`.
    pub last_seat: Option<Seat>,
    /// The acting seat.
    pub me: Seat,
    /// The landlord.
    pub landlord: Seat,
    /// Cards left in each hand.
    pub cards_left: [u8; 3],
}

impl Ctx {
    /// The context of the seat to act in `st`.
    #[inline]
    pub fn from_state(st: &PlayState) -> Ctx {
        let hands = st.hands();
        Ctx {
            hand: st.hand(st.turn()),
            to_beat: st.to_beat(),
            last_seat: st.last_play().map(|(s, _)| s),
            me: st.turn(),
            landlord: st.landlord(),
            cards_left: hands.map(|h| h.len() as u8),
        }
    }

    /// The context of an observing seat during play.
    pub fn from_obs(obs: &Observation<'_>) -> Ctx {
        Ctx {
            hand: obs.hand,
            to_beat: obs.to_beat(),
            last_seat: obs.last_play.map(|(s, _)| s),
            me: obs.seat,
            landlord: obs.landlord.unwrap_or(obs.seat),
            cards_left: obs.cards_left,
        }
    }

    #[inline]
    fn is_farmer(&self, s: Seat) -> bool {
        s != self.landlord
    }

    #[inline]
    fn partner_of(&self, s: Seat) -> bool {
        s != self.me && self.is_farmer(s) && self.is_farmer(self.me)
    }

    /// The fewest cards any opponent holds.
    #[inline]
    fn min_opponent_cards(&self) -> u8 {
        Seat::ALL
            .into_iter()
            .filter(|&s| s != self.me && !self.partner_of(s))
            .map(|s| self.cards_left[s.index()])
            .min()
            .unwrap_or(20)
    }
}

/// Which rule-based player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// The seed algorithm as written: lead the part with the smallest card, follow with the
    /// smallest beating part, otherwise pass. (It also plays its whole hand when that is one play.)
    Seed,
    /// The seed player plus what any club player does: farmers do not beat each other without
    /// reason and feed a partner about to go out; hands are broken and bombs used when an opponent
    /// is about to go out; singles and pairs are led with care against a hand of one or two.
    Expert,
}

fn is_high(r: Rank) -> bool {
    r >= Rank::Two
}

/// Parts of the decomposition by role, smallest first.
struct Parts {
    d: Decomposition,
}

impl Parts {
    fn of(&self, kind: Kind) -> impl Iterator<Item = Move> + '_ {
        // Parts of one kind are produced in rank order by the decomposition.
        self.d
            .parts()
            .iter()
            .copied()
            .filter(move |m| m.kind() == kind)
    }

    fn count(&self, kind: Kind) -> usize {
        self.of(kind).count()
    }

    fn trios_total(&self) -> usize {
        self.count(Kind::Trio)
            + self
                .of(Kind::Plane)
                .map(|p| p.links() as usize)
                .sum::<usize>()
    }

    /// Smallest kicker part of `kind` (Single or Pair) not in `avoid`; 2s and jokers only when
    /// `allow_high`.
    fn kicker(&self, kind: Kind, avoid: Rank, allow_high: bool) -> Option<Move> {
        self.of(kind)
            .filter(|m| m.rank() != avoid && (allow_high || !is_high(m.rank())))
            .min_by_key(|m| m.rank())
    }
}

/// The play the rule-based policy makes in `ctx`. Always legal under `rules`.
pub fn choose(rules: &RuleSet, ctx: &Ctx, style: Style, scratch: &mut MoveList) -> Move {
    // Going out in one play beats any plan.
    if let Ok(m) = rules.check_play(ctx.hand, ctx.to_beat, ctx.hand) {
        return m;
    }
    let parts = Parts {
        d: seed_decompose(ctx.hand),
    };
    let m = if ctx.to_beat.is_pass() {
        lead(rules, ctx, style, &parts)
    } else {
        follow(rules, ctx, style, &parts, scratch)
    };
    // The policies only build plays from the hand; a rule set that reads one differently gets
    // the safe fallback rather than an illegal move.
    match rules.check_play(ctx.hand, ctx.to_beat, m.cards()) {
        Ok(checked) if !(checked.is_pass() && ctx.to_beat.is_pass()) => checked,
        _ => fallback(rules, ctx, scratch),
    }
}

fn fallback(rules: &RuleSet, ctx: &Ctx, scratch: &mut MoveList) -> Move {
    if !ctx.to_beat.is_pass() {
        return Move::PASS;
    }
    rules.leads(ctx.hand, scratch);
    scratch.iter().copied().next().unwrap_or(Move::PASS)
}

fn play_of(rules: &RuleSet, cards: CardSet) -> Option<Move> {
    rules.classify(cards).ok()
}

fn lead(rules: &RuleSet, ctx: &Ctx, style: Style, p: &Parts) -> Move {
    let parts_left = p.d.hand_count();
    let expert = style == Style::Expert;

    if expert {
        // A partner with one card: give it the lead with our smallest single.
        let partner_one = Seat::ALL
            .into_iter()
            .any(|s| ctx.partner_of(s) && ctx.cards_left[s.index()] == 1);
        if partner_one && let Some(r) = ctx.hand.lowest() {
            return play_of(rules, CardSet::of(r, 1).unwrap_or_default()).unwrap_or(Move::PASS);
        }
    }

    let non_bomb = |m: &Move| !m.is_bomb_like();
    let Some(low) =
        p.d.parts()
            .iter()
            .filter(|m| non_bomb(m))
            .filter_map(|m| m.cards().lowest())
            .min()
    else {
        // Only bombs and the rocket are left: smallest first.
        return p
            .d
            .parts()
            .iter()
            .copied()
            .min_by_key(|m| (m.kind() == Kind::Rocket, m.rank()))
            .unwrap_or(Move::PASS);
    };
    let mut part =
        p.d.parts()
            .iter()
            .copied()
            .filter(|m| non_bomb(m) && m.cards().count(low) > 0)
            .max_by_key(|m| m.cards().len())
            .unwrap_or(Move::PASS);

    if expert {
        // Against an opponent holding one card (or two), avoid leading a single (pair) it can
        // answer: lead something else, or the highest one.
        let danger = ctx.min_opponent_cards();
        let risky = |m: &Move| {
            (danger == 1 && m.kind() == Kind::Single) || (danger == 2 && m.kind() == Kind::Pair)
        };
        if risky(&part) {
            let safe =
                p.d.parts()
                    .iter()
                    .copied()
                    .filter(|m| non_bomb(m) && !risky(m))
                    .min_by_key(|m| m.rank());
            part = match safe {
                Some(m) => m,
                None => p.of(part.kind()).max_by_key(|m| m.rank()).unwrap_or(part),
            };
        }
    }

    let allow_high = parts_left <= 2;
    let trios = p.trios_total();
    let small = p.count(Kind::Single) + p.count(Kind::Pair);
    match part.kind() {
        Kind::Single | Kind::Pair => {
            // Singles and pairs ride on trios when there are more trios than spare small parts.
            if trios > 0
                && trios + 2 > small
                && let Some(t) = p.of(Kind::Trio).next()
                && (allow_high || !is_high(part.rank()))
                && let Some(m) = play_of(rules, t.cards() + part.cards())
            {
                return m;
            }
            part
        }
        Kind::Trio => {
            let kick = p
                .kicker(Kind::Single, part.rank(), allow_high)
                .or_else(|| p.kicker(Kind::Pair, part.rank(), allow_high));
            kick.and_then(|k| play_of(rules, part.cards() + k.cards()))
                .unwrap_or(part)
        }
        Kind::Plane => plane_with_wings(rules, p, part, allow_high).unwrap_or(part),
        _ => part,
    }
}

/// A plane with as many wings as it has trios: singles (or the low ends of long straights),
/// else pairs (or the low pairs of long pair straights).
fn plane_with_wings(rules: &RuleSet, p: &Parts, plane: Move, allow_high: bool) -> Option<Move> {
    let n = plane.links() as usize;
    for (kind, per, chain_kind, chain_min) in [
        (Kind::Single, 1u8, Kind::Straight, 5u8),
        (Kind::Pair, 2, Kind::PairStraight, 3),
    ] {
        let mut wings = CardSet::EMPTY;
        let mut taken = 0;
        for k in p.of(kind).filter(|m| allow_high || !is_high(m.rank())) {
            if taken == n {
                break;
            }
            wings = wings + k.cards();
            taken += 1;
        }
        for c in p.of(chain_kind) {
            let mut len = c.links();
            let mut r = c.rank().index();
            while taken < n && len > chain_min {
                wings = wings + CardSet::of(Rank::ALL[r], per).unwrap_or_default();
                taken += 1;
                len -= 1;
                r += 1;
            }
        }
        if taken == n
            && let Some(m) = play_of(rules, plane.cards() + wings)
        {
            return Some(m);
        }
    }
    None
}

fn follow(rules: &RuleSet, ctx: &Ctx, style: Style, p: &Parts, scratch: &mut MoveList) -> Move {
    let prev = ctx.to_beat;
    let expert = style == Style::Expert;
    let from_partner = ctx.last_seat.is_some_and(|s| ctx.partner_of(s));
    if expert && from_partner {
        // Let the partner's play stand unless it is small and the landlord, next to play, could
        // take the lead cheaply; even then never break our own hand for it.
        let landlord_next = ctx.me.next() == ctx.landlord;
        let partner_cards = ctx.last_seat.map_or(20, |s| ctx.cards_left[s.index()]);
        let small = matches!(prev.kind(), Kind::Single | Kind::Pair) && prev.rank() < Rank::Ten;
        if !(landlord_next && small && partner_cards > 4) {
            return Move::PASS;
        }
    }

    if let Some(m) = smallest_beating_part(rules, p, prev) {
        if !expert || !from_partner || m.rank() < Rank::Ace {
            return m;
        }
        return Move::PASS;
    }
    if from_partner {
        return Move::PASS;
    }
    if !expert {
        // No part beats it: the seed's hand-count principle picks the beating play that leaves
        // the fewest parts (never a bomb).
        rules.follows(ctx.hand, prev, scratch);
        return scratch
            .iter()
            .skip(1)
            .filter(|m| !m.is_bomb_like())
            .map(|&m| {
                (
                    seed_decompose(ctx.hand - m.cards()).hand_count(),
                    m.rank(),
                    m,
                )
            })
            .min_by_key(|&(n, r, _)| (n, r))
            .map_or(Move::PASS, |(_, _, m)| m);
    }

    // Expert, facing an opponent: break the hand or bomb when the opponent is getting close.
    let danger = ctx.min_opponent_cards();
    let prev_cards = ctx.last_seat.map_or(20, |s| ctx.cards_left[s.index()]);
    rules.follows(ctx.hand, prev, scratch);
    let base = p.d.hand_count();
    let mut best: Option<(usize, Move)> = None;
    let mut best_bomb: Option<Move> = None;
    for &m in scratch.iter().skip(1) {
        if m.is_bomb_like() {
            if best_bomb.is_none_or(|b: Move| (m.kind(), m.rank()) < (b.kind(), b.rank())) {
                best_bomb = Some(m);
            }
            continue;
        }
        let after = seed_decompose(ctx.hand - m.cards()).hand_count();
        // Prefer plays that keep the hand whole, then lower ones; when blocking, higher ones.
        let key = after * 16
            + if danger <= 2 {
                15 - m.rank().index()
            } else {
                m.rank().index()
            };
        if best.is_none_or(|(k, _)| key < k) {
            best = Some((key, m));
        }
    }
    if let Some((key, m)) = best {
        let after = key / 16;
        if after <= base + 1 || danger <= 4 || prev_cards <= 6 {
            return m;
        }
    }
    if let Some(b) = best_bomb {
        let after = seed_decompose(ctx.hand - b.cards()).hand_count();
        if danger <= 4 || after <= 2 {
            return b;
        }
    }
    Move::PASS
}

/// The seed's follow: the smallest part of the decomposition that beats `prev` (with kickers
/// for trio and plane kinds), or `None`.
fn smallest_beating_part(rules: &RuleSet, p: &Parts, prev: Move) -> Option<Move> {
    let allow_high = p.d.hand_count() <= 2;
    let beats = |m: &Move| m.links() == prev.links() && m.rank() > prev.rank();
    match prev.kind() {
        Kind::Single
        | Kind::Pair
        | Kind::Trio
        | Kind::Straight
        | Kind::PairStraight
        | Kind::Plane => p.of(prev.kind()).filter(beats).min_by_key(|m| m.rank()),
        Kind::TrioSingle | Kind::TrioPair => {
            let kind = if prev.kind() == Kind::TrioSingle {
                Kind::Single
            } else {
                Kind::Pair
            };
            p.of(Kind::Trio)
                .filter(beats)
                .min_by_key(|m| m.rank())
                .and_then(|t| {
                    let k = p.kicker(kind, t.rank(), allow_high)?;
                    play_of(rules, t.cards() + k.cards())
                })
        }
        Kind::PlaneSingles | Kind::PlanePairs => p
            .of(Kind::Plane)
            .filter(beats)
            .min_by_key(|m| m.rank())
            .and_then(|pl| plane_with_wings(rules, p, pl, allow_high))
            .filter(|m| m.kind() == prev.kind()),
        _ => None,
    }
}
