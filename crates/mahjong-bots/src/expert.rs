//! The expert player: the expected value of each choice, from tile efficiency over the tiles
//! still unseen, the fans each route to a win pays, and the risk of discarding into another
//! seat's wait.
//!
//! **Value of a hand** (after a discard, waiting for the next draw). Each *route* is read with
//! its own shanten and acceptance (the unseen tiles that bring it one step closer,
//! [`crate::efficiency`]): the standard shape, seven pairs, thirteen orphans, all pungs, and
//! for each suit the half flush (that suit and honours) and the flush (that suit alone). A route
//! of shanten `s` is `s` improvement steps and a final winning step; each cycle of four draws
//! the hand makes its first step with probability acceptance ÷ unseen (a tile counting more
//! when a claim could bring it too), later steps with what a hand that close typically accepts
//! (scaled by this hand's shape), and wins in its final step from its own draw or from any of
//! three discards; every cycle another seat may win first (a hazard that grows with the other
//! seats' threat). The chance of winning before the wall runs out, times what the win pays
//! (`3(x + 4)` self-drawn, `x + 12` on a discard, `x` = the route's fans, plus the loss a win
//! avoids), is the route's value; the hand's value is its best route's. A hand one tile from winning is valued exactly: each waiting tile with its unseen
//! count and the fans it scores (the engine's fan evaluation, self-drawn and on a discard).
//!
//! **Defence.** Each other seat gets a probability of waiting from its discards and melds, and
//! a value (more when its melds are all one suit). A tile is safe against a seat if that seat
//! has let it go by since its own last discard (bots here always win when they can, and there
//! is no furiten). Otherwise its danger is the number of unseen-tile shapes that wait on it
//! (pairs, single waits, sides and middles of sequences), relative to all such shapes over the
//! tiles still possible. A discard's value is the hand's value times the chance of not dealing
//! in, less the expected payment when it does.
//!
//! **Decisions.** Wins are always taken. On its turn the bot takes the best of every discard and
//! kong; on another seat's discard it compares passing with every claim followed by its best
//! discard. Cost per decision: one hand value per candidate (about a dozen on a turn, a dozen per
//! claim), each a few hundred reads of the suit tables: well under a millisecond (measured in
//! `benches/bots.rs`).

use mahjong::fan::{WinHand, evaluate};
use mahjong::shape::is_win_in;
use mahjong::{Action, ActionList, Counts, KongKind, Meld, Phase, Reading, SeenEvent, Tile, View};

use crate::efficiency::{
    Blocks, Groups, SuitMemo, all_pungs_shanten, seven_pairs_shanten, thirteen_orphans_shanten,
};
use crate::{BotFault, Player, Reply};

/// The expert's tunable weights (the defaults are what `arena mahjong match` plays).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Params {
    /// How likely one other seat's discard is a given unseen tile, relative to one's own draw.
    pub ron_share: f64,
    /// How likely one other seat's discard is a tile a hand may claim, relative to one's own
    /// draw: an improving tile of which the hand holds a pair comes from three discards too, one
    /// that completes a sequence from the previous seat's.
    pub claim_boost: f64,
    /// Per-cycle chance that another seat wins, before counting threats.
    pub hazard: f64,
    /// Per-cycle chance that a waiting seat wins (added to the hazard per threat).
    pub threat_hazard: f64,
    /// Weight of the expected payment when dealing in.
    pub defence: f64,
    /// Unseen tiles a hand typically waits on once it is one tile from winning.
    pub final_accept: f64,
    /// What a win saves beyond its payout: the points lost on average when another seat wins
    /// instead.
    pub loss: f64,
    /// How much of a hand's shape quality (its acceptance against the typical at its
    /// shanten) carries into its later steps: 0 none, 1 all.
    pub decay: f64,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            ron_share: 0.5,
            claim_boost: 1.2,
            hazard: 0.05,
            threat_hazard: 0.3,
            defence: 0.1,
            final_accept: 4.0,
            decay: 0.5,
            loss: 5.0,
        }
    }
}

/// The expert player.
pub struct ExpertBot {
    memo: SuitMemo,
    params: Params,
}

impl Default for ExpertBot {
    fn default() -> Self {
        ExpertBot::new()
    }
}

impl std::fmt::Debug for ExpertBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExpertBot")
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl ExpertBot {
    /// The expert with its default weights.
    pub fn new() -> ExpertBot {
        ExpertBot::with_params(Params::default())
    }

    /// The expert with other weights (for tuning).
    pub fn with_params(params: Params) -> ExpertBot {
        ExpertBot {
            memo: SuitMemo::new(),
            params,
        }
    }
}

impl Player for ExpertBot {
    fn name(&self) -> String {
        "expert".into()
    }

    fn start_hand(&mut self, _seat: u8, _hand_seed: u64) -> Result<(), BotFault> {
        Ok(())
    }

    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Reply {
        Reply::untimed(self.choose(view, legal))
    }

    fn end_hand(&mut self, _view: &View<'_>) {}
}

/// What another seat threatens, as far as the viewer can tell.
#[derive(Copy, Clone, Debug, Default)]
struct Threat {
    /// Probability that it is waiting.
    waiting: f64,
    /// What dealing into it costs.
    cost: f64,
    /// Tiles it let go by since its last discard (bit per kind).
    safe: u64,
    /// Weight of each group (three suits, honours) in its wait.
    group_weight: [f64; 4],
}

/// The most cycles (of four draws) a hand has left: 84 draws.
const MAX_CYCLES: usize = 22;

/// One decision's view, read once.
struct Ctx {
    reading: Reading,
    unseen: Counts,
    unseen_total: f64,
    cycles: usize,
    /// Chance that another seat wins in each coming cycle (its threats grow as it plays on).
    hazard: [f64; MAX_CYCLES],
    /// Chance of dealing in and expected payment, per kind discarded.
    deal_in: [f64; 34],
    payment: [f64; 34],
}

/// Fans a win will very likely carry from the declared sets alone: kongs and dragon pungs.
fn meld_fans(melds: &[Meld]) -> f64 {
    melds
        .iter()
        .map(|m| match *m {
            Meld::Kong(t, kind) => {
                let k = if kind == KongKind::Concealed {
                    2.0
                } else {
                    1.0
                };
                k + if t.is_dragon() { 2.0 } else { 0.0 }
            }
            Meld::Pung(t) if t.is_dragon() => 2.0,
            _ => 0.0,
        })
        .sum()
}

/// The group (0–2 the suits, 3 the honours) of a kind.
fn group(t: usize) -> usize {
    t / 9
}

/// Which groups every declared set lies in (bit per group).
fn meld_groups(melds: &[Meld]) -> u8 {
    melds
        .iter()
        .fold(0, |g, m| g | 1 << group(m.tile().index()))
}

impl ExpertBot {
    fn choose(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        for &a in legal {
            if matches!(a, Action::SelfDrawnWin | Action::Win | Action::RobKong) {
                return a;
            }
        }
        if legal.len() == 1 {
            return legal[0];
        }
        let ctx = self.context(view);
        let hand = *view.hand();
        let mut melds = [Meld::Pung(Tile::EAST); 4];
        let mut n = 0;
        for m in view.melds(view.seat()).flatten().take(4) {
            melds[n] = m;
            n += 1;
        }
        let melds = &melds[..n];
        let choice = match view.phase() {
            Phase::Turn { .. } => self.turn(&ctx, &hand, melds, legal),
            Phase::Claims { tile, .. } => self.claim(&ctx, &hand, melds, tile, legal),
            _ => None,
        };
        choice.filter(|a| legal.contains(*a)).unwrap_or_else(|| {
            if legal.contains(Action::Pass) {
                Action::Pass
            } else {
                legal[0]
            }
        })
    }

    fn context(&self, view: &View<'_>) -> Ctx {
        let me = view.seat();
        let visible = view.visible_counts();
        let mut unseen = [0u8; 34];
        for (u, v) in unseen.iter_mut().zip(visible) {
            *u = 4u8.saturating_sub(v);
        }
        let unseen_total = f64::from(unseen.iter().map(|&u| u32::from(u)).sum::<u32>()).max(1.0);

        // Who let which tiles go by since their own last discard.
        let mut safe = [0u64; 4];
        let mut turns = [0u32; 4];
        let mut pending: Option<(u8, Tile)> = None;
        for e in view.events() {
            if let Some((from, t)) = pending.take() {
                for (o, s) in safe.iter_mut().enumerate() {
                    if o as u8 != from {
                        *s |= 1 << t.index();
                    }
                }
            }
            match e {
                SeenEvent::Discard { seat, tile } => {
                    let s = usize::from(seat & 3);
                    safe[s] = 0;
                    turns[s] += 1;
                    pending = Some((seat, tile));
                }
                SeenEvent::AddedKong { seat, tile } => pending = Some((seat, tile)),
                _ => {}
            }
        }

        let p = &self.params;
        let mut threats = [Threat::default(); 4];
        let mut hazard = [p.hazard; MAX_CYCLES];
        for o in (0..4u8).filter(|&o| o != me) {
            let mut melds = 0u32;
            let mut groups = 0u8;
            for m in view.melds(o) {
                melds += 1;
                if let Some(m) = m {
                    groups |= 1 << group(m.tile().index());
                }
            }
            let z = -4.2 + 0.32 * f64::from(turns[usize::from(o)]) + 0.9 * f64::from(melds);
            let logistic = |z: f64| 1.0 / (1.0 + (-z).exp());
            let waiting = logistic(z);
            let suits = groups & 0b0111;
            let one_suit = melds >= 2 && suits.count_ones() == 1;
            let mut group_weight = [1.0; 4];
            // Dealing in pays x + 4 where another seat's win would have cost about 4 anyway.
            let mut cost = 5.0;
            if one_suit {
                for (g, w) in group_weight.iter_mut().enumerate().take(3) {
                    *w = if suits & (1 << g) != 0 { 1.8 } else { 0.25 };
                }
                cost = 14.0;
            }
            threats[usize::from(o)] = Threat {
                waiting,
                cost,
                safe: safe[usize::from(o)],
                group_weight,
            };
            for (i, h) in hazard.iter_mut().enumerate() {
                *h += p.threat_hazard * logistic(z + 0.32 * i as f64);
            }
        }
        for h in &mut hazard {
            *h = h.min(0.9);
        }

        // Shapes waiting on each kind, counted over the tiles that could be in a hand.
        let u = |i: usize| f64::from(unseen[i]);
        let mut shapes = [0.0f64; 34];
        for (t, w) in shapes.iter_mut().enumerate() {
            let single = u(t) * 0.5;
            let pair = u(t) * (u(t) - 1.0).max(0.0) / 2.0;
            let mut seq = 0.0;
            if t < 27 {
                let r = t % 9;
                if r >= 2 {
                    seq += u(t - 1) * u(t - 2);
                }
                if r <= 6 {
                    seq += u(t + 1) * u(t + 2);
                }
                if (1..=7).contains(&r) {
                    seq += 0.7 * u(t - 1) * u(t + 1);
                }
            }
            *w = single + pair + seq;
        }
        let mut deal_in = [0.0f64; 34];
        let mut payment = [0.0f64; 34];
        let mut clear = [1.0f64; 34];
        for (o, th) in threats.iter().enumerate() {
            if o as u8 == me || th.waiting <= 0.0 {
                continue;
            }
            let weight = |t: usize| shapes[t] * th.group_weight[group(t)];
            let z: f64 = (0..34)
                .filter(|&t| th.safe & (1 << t) == 0)
                .map(weight)
                .sum::<f64>()
                / 1.8;
            if z <= 0.0 {
                continue;
            }
            for t in 0..34 {
                if th.safe & (1 << t) != 0 {
                    continue;
                }
                let hit = th.waiting * (weight(t) / z).min(0.9);
                clear[t] *= 1.0 - hit;
                payment[t] += hit * th.cost;
            }
        }
        for t in 0..34 {
            deal_in[t] = 1.0 - clear[t];
        }
        Ctx {
            reading: view.rules().reading,
            unseen,
            unseen_total,
            cycles: view.wall_left().div_ceil(4).min(MAX_CYCLES),
            hazard,
            deal_in,
            payment,
        }
    }

    /// The value of discarding `t` from a hand that becomes `after`.
    fn discard_value(&mut self, ctx: &Ctx, after: &Counts, melds: &[Meld], t: Tile) -> f64 {
        let i = t.index();
        (1.0 - ctx.deal_in[i]) * self.value(ctx, after, melds)
            - self.params.defence * ctx.payment[i]
    }

    /// The best discard of a hand with a discard to make, and its value.
    fn best_discard(&mut self, ctx: &Ctx, hand: &Counts, melds: &[Meld]) -> Option<(Tile, f64)> {
        let mut best: Option<(Tile, f64)> = None;
        for t in Tile::all() {
            if hand[t.index()] == 0 {
                continue;
            }
            let mut h = *hand;
            h[t.index()] -= 1;
            let v = self.discard_value(ctx, &h, melds, t);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((t, v));
            }
        }
        best
    }

    fn turn(
        &mut self,
        ctx: &Ctx,
        hand: &Counts,
        melds: &[Meld],
        legal: &ActionList,
    ) -> Option<Action> {
        let mut best: Option<(Action, f64)> = None;
        let mut consider = |a: Action, v: f64| {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((a, v));
            }
        };
        for &a in legal {
            match a {
                Action::Discard(t) => {
                    let mut h = *hand;
                    h[t.index()] -= 1;
                    let v = self.discard_value(ctx, &h, melds, t);
                    consider(a, v);
                }
                Action::ConcealedKong(t) => {
                    let mut h = *hand;
                    h[t.index()] -= 4;
                    let mut m = melds.to_vec();
                    m.push(Meld::Kong(t, KongKind::Concealed));
                    let v = self.value(ctx, &h, &m);
                    consider(a, v);
                }
                Action::AddedKong(t) => {
                    let mut h = *hand;
                    h[t.index()] -= 1;
                    let m: Vec<Meld> = melds
                        .iter()
                        .map(|&m| match m {
                            Meld::Pung(p) if p == t => Meld::Kong(t, KongKind::Added),
                            m => m,
                        })
                        .collect();
                    // Robbing the kong costs what dealing in with the tile would.
                    let v = self.discard_value(ctx, &h, &m, t);
                    consider(a, v);
                }
                _ => {}
            }
        }
        best.map(|(a, _)| a)
    }

    fn claim(
        &mut self,
        ctx: &Ctx,
        hand: &Counts,
        melds: &[Meld],
        tile: Tile,
        legal: &ActionList,
    ) -> Option<Action> {
        let pass = self.value(ctx, hand, melds);
        let mut best = (Action::Pass, pass);
        let i = tile.index();
        for &a in legal {
            let mut h = *hand;
            let mut m = melds.to_vec();
            let v = match a {
                Action::Pung => {
                    h[i] -= 2;
                    m.push(Meld::Pung(tile));
                    self.best_discard(ctx, &h, &m).map(|(_, v)| v)
                }
                Action::Chow(low) => {
                    for (k, n) in h.iter_mut().enumerate().skip(low.index()).take(3) {
                        if k != i {
                            *n -= 1;
                        }
                    }
                    m.push(Meld::Chow(low));
                    self.best_discard(ctx, &h, &m).map(|(_, v)| v)
                }
                Action::Kong => {
                    h[i] -= 3;
                    m.push(Meld::Kong(tile, KongKind::Exposed));
                    Some(self.value(ctx, &h, &m))
                }
                _ => None,
            };
            if let Some(v) = v
                && v > best.1 + 1e-9
            {
                best = (a, v);
            }
        }
        Some(best.0)
    }

    /// The chance of winning before the wall runs out from `steps` improvement steps away:
    /// the first step taken with `accept` unseen tiles (weighted by how many chances each has
    /// to come: claims included), later ones with what a hand that close typically accepts
    /// (times this hand's shape quality, and `1 + claims` for what claims add), and `fin` the
    /// chance per cycle of the win once waiting.
    fn win_chance(&self, ctx: &Ctx, steps: usize, accept: f64, claims: f64, fin: f64) -> f64 {
        // Acceptance a hand typically has at shanten 0, 1, 2, 3, 4, 5 and more (measured over
        // the greedy player's hands in self-play).
        const TYPICAL: [f64; 6] = [4.0, 11.0, 24.0, 42.0, 71.0, 79.0];
        let steps = steps.min(9);
        // A hand better shaped than typical for its shanten tends to stay so.
        let quality = (accept / TYPICAL[steps.min(5)] / (1.0 + claims))
            .clamp(0.5, 2.0)
            .powf(self.params.decay);
        let mut stage = [0.0f64; 10];
        for (j, x) in stage[..steps].iter_mut().enumerate() {
            let a = if j == 0 {
                accept
            } else {
                TYPICAL[(steps - j).min(5)] * quality * (1.0 + claims)
            };
            *x = self.per_cycle(ctx, a, 0.0);
        }
        let mut at = [0.0f64; 10];
        at[0] = 1.0;
        let mut won = 0.0;
        for &h in &ctx.hazard[..ctx.cycles] {
            for x in &mut at[..=steps] {
                *x *= 1.0 - h;
            }
            won += at[steps] * fin;
            at[steps] *= 1.0 - fin;
            for j in (0..steps).rev() {
                let mv = at[j] * stage[j];
                at[j] -= mv;
                at[j + 1] += mv;
            }
        }
        won
    }

    /// Per cycle, the chance that one of `accept` unseen tiles comes: one's own draw, and the
    /// other three seats' discards when the hand may take them.
    fn per_cycle(&self, ctx: &Ctx, accept: f64, others: f64) -> f64 {
        (accept / ctx.unseen_total * (1.0 + others)).min(0.9)
    }

    /// What a win worth `x` fans pays, averaged over self-drawn and discard wins.
    fn payout(&self, x_self: f64, x_discard: f64) -> f64 {
        let f = 1.0 / (1.0 + 3.0 * self.params.ron_share);
        f * 3.0 * (x_self + 4.0) + (1.0 - f) * (x_discard + 12.0) + self.params.loss
    }

    /// The value of a hand waiting for a draw: `3k + 1` concealed tiles with `4 − k` sets
    /// declared.
    fn value(&mut self, ctx: &Ctx, hand: &Counts, melds: &[Meld]) -> f64 {
        let k = 4usize.saturating_sub(melds.len());
        let concealed = melds.iter().all(|m| m.is_concealed());
        let groups = Groups::of(&mut self.memo, hand);
        let s_std = groups.shanten(k);
        let (s_7, s_13) = if melds.is_empty() {
            (seven_pairs_shanten(hand), thirteen_orphans_shanten(hand))
        } else {
            (99, 99)
        };
        let mut best = 0.0f64;
        let waiting = s_std.min(s_7).min(s_13) <= 0;
        if waiting {
            best = self.waiting_value(ctx, hand, melds);
        }

        // The routes still open, with the groups their tiles must come from.
        let mg = meld_groups(melds);
        let pungs_only = melds.iter().all(|m| !matches!(m, Meld::Chow(_)));
        let terminals: u32 = Tile::all()
            .filter(|t| t.is_terminal_or_honour())
            .map(|t| u32::from(hand[t.index()]))
            .sum::<u32>()
            + melds
                .iter()
                .filter(|m| match **m {
                    Meld::Chow(l) => l.rank() == Some(1) || l.rank() == Some(7),
                    m => m.tile().is_terminal_or_honour(),
                })
                .count() as u32;
        let base = 1.0
            + meld_fans(melds)
            + if concealed { 2.0 } else { 0.0 }
            + match terminals {
                0 => 2.0,
                1 => 1.0,
                _ => 0.0,
            };

        // Group routes: (group mask, fans, allowed by the melds). The standard shape is 0b1111.
        let mut masks = [(0b1111u8, base, true); 7];
        for x in 0..3u8 {
            let half = 1 << x | 0b1000;
            masks[1 + x as usize] = (half, base + 6.0, mg & !half == 0);
            masks[4 + x as usize] = (1 << x, base + 24.0, mg & !(1 << x) == 0);
        }
        let readings: [Blocks; 7] = masks.map(|(m, _, _)| groups.reading(m));
        let mut shanten = [0i8; 7];
        for r in 0..7 {
            shanten[r] = readings[r].shanten(k);
        }
        let s_pungs = if pungs_only {
            all_pungs_shanten(hand, k)
        } else {
            99
        };

        let p = self.params;
        // Acceptance of every route, one unseen kind at a time.
        let mut accept = [0.0f64; 7];
        let (mut a_7, mut a_13, mut a_p) = (0.0, 0.0, 0.0);
        let mut h = *hand;
        for t in 0..34 {
            let u = ctx.unseen[t];
            if u == 0 || hand[t] >= 4 {
                continue;
            }
            let u = f64::from(u);
            // Chances beyond one's own draw: a pung from any of three discards, a chow from one.
            let pung = hand[t] >= 2;
            let chow = t < 27 && {
                let r = t % 9;
                let has = |d: isize| {
                    let q = r as isize + d;
                    (0..9).contains(&q) && hand[t - r + q as usize] > 0
                };
                (has(-2) && has(-1)) || (has(-1) && has(1)) || (has(1) && has(2))
            };
            let open = u
                * (1.0
                    + p.claim_boost
                        * (3.0 * f64::from(u8::from(pung)) + f64::from(u8::from(chow))));
            let pung_only = u * (1.0 + p.claim_boost * 3.0 * f64::from(u8::from(pung)));
            h[t] += 1;
            let g2 = groups.with(&mut self.memo, &h, t);
            for r in 0..7 {
                let (mask, _, ok) = masks[r];
                if ok && mask & (1 << group(t)) != 0 && g2.reading(mask).shanten(k) < shanten[r] {
                    accept[r] += open;
                }
            }
            if s_7 < 99 && seven_pairs_shanten(&h) < s_7 {
                a_7 += u;
            }
            if s_13 < 99 && thirteen_orphans_shanten(&h) < s_13 {
                a_13 += u;
            }
            if s_pungs < 99 && all_pungs_shanten(&h, k) < s_pungs {
                a_p += pung_only;
            }
            h[t] -= 1;
        }

        let fin_open = self.per_cycle(ctx, p.final_accept, 3.0 * p.ron_share);
        for r in 0..7 {
            let (_, fans, ok) = masks[r];
            let s = shanten[r];
            if !ok || s <= 0 && (r == 0 || waiting) || accept[r] == 0.0 {
                continue;
            }
            let v = self.win_chance(ctx, s.max(0) as usize, accept[r], p.claim_boost, fin_open)
                * self.payout(fans + 1.0, fans);
            best = best.max(v);
        }
        for (s, a, fans, fin_accept, claims) in [
            (
                s_7,
                a_7,
                24.0 + base - if concealed { 2.0 } else { 0.0 },
                2.5,
                0.0,
            ),
            (s_13, a_13, 88.0, 3.0, 0.0),
            (s_pungs, a_p, base + 6.0, 3.5, 1.5 * p.claim_boost),
        ] {
            if s >= 99 || s <= 0 || a == 0.0 {
                continue;
            }
            let fin = self.per_cycle(ctx, fin_accept, 3.0 * p.ron_share);
            let v =
                self.win_chance(ctx, s as usize, a, claims, fin) * self.payout(fans + 1.0, fans);
            best = best.max(v);
        }
        best
    }

    /// The exact value of a hand one tile from winning: its waits, their unseen counts and the
    /// fans each scores.
    fn waiting_value(&mut self, ctx: &Ctx, hand: &Counts, melds: &[Meld]) -> f64 {
        let mut accept = 0.0;
        let mut pay = 0.0;
        let mut h = *hand;
        for t in Tile::all() {
            let i = t.index();
            let u = f64::from(ctx.unseen[i]);
            if u == 0.0 || hand[i] >= 4 {
                continue;
            }
            h[i] += 1;
            let wins = is_win_in(&h, ctx.reading);
            h[i] -= 1;
            if !wins {
                continue;
            }
            let fans = |self_drawn| {
                evaluate(
                    &WinHand {
                        concealed: *hand,
                        melds,
                        win: t,
                        self_drawn,
                        robbed_kong: false,
                    },
                    ctx.reading,
                )
                .map_or(0.0, |f| f64::from(f.total))
            };
            accept += u;
            pay += u * self.payout(fans(true), fans(false));
        }
        if accept == 0.0 {
            return 0.0;
        }
        let fin = self.per_cycle(ctx, accept, 3.0 * self.params.ron_share);
        self.win_chance(ctx, 0, 0.0, 0.0, fin) * pay / accept
    }
}
