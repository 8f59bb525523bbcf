//! The search bot: the fan bot's plan, judged by look-ahead over the unseen tiles.
//!
//! For each candidate discard (and for each claim against passing) it samples the tiles it
//! cannot see into future draws and other seats' discards (PIMC: every arrangement of the
//! unseen tiles is as likely as any other from where the seat sits) and plays the hand on
//! with a quick shanten-greedy policy for a few turns, scoring a win only when it reaches 8
//! points, so fan-less shapes are worth nothing and the target that reaches the points is
//! chosen. Each candidate's value is then lowered by how likely the discard is to complete
//! the wait of a seat that looks ready. All candidates are played on the same samples
//! (common random numbers), and the samples come from the hand seed: the bot is
//! deterministic, and its budget is counted in samples, not time.

use mcr::fan::{WinningHand, evaluate};
use mcr::game::MIN_POINTS;
use mcr::shape::{is_winning_shape, shanten};
use mcr::{Action, ActionList, Counts, Decision, Pack, PackKind, TILE_KINDS, Tile, View, Wind};

use crate::efficiency::useful;
use crate::fanbot::{after_claim, plan};
use crate::{BotRng, FanBot, Player};

/// The search bot's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Sampled futures per candidate.
    pub samples: u32,
    /// Candidate discards judged by look-ahead: the best by useful tiles among those of the
    /// least shanten.
    pub candidates: u32,
    /// Own draws each sampled future plays ahead.
    pub horizon: u32,
}

impl Default for SearchConfig {
    /// 48 samples × 6 candidates × 8 draws: a few milliseconds a decision on one core in a
    /// release build, far below the 1 s budget.
    fn default() -> SearchConfig {
        SearchConfig {
            samples: 48,
            candidates: 6,
            horizon: 8,
        }
    }
}

/// Most samples per candidate.
pub const MAX_SAMPLES: u32 = 2_000;
/// Most candidates per decision.
pub const MAX_CANDIDATES: u32 = 14;
/// Most draws looked ahead.
pub const MAX_HORIZON: u32 = 36;

impl SearchConfig {
    /// Parses `samples=48,candidates=6,horizon=8` (any subset, any order; empty for the
    /// defaults). Zero or values beyond [`MAX_SAMPLES`], [`MAX_CANDIDATES`] or
    /// [`MAX_HORIZON`] are refused, naming the parameter.
    pub fn parse(params: &str) -> Result<SearchConfig, String> {
        let mut c = SearchConfig::default();
        for kv in params.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("search parameter {kv:?} is not key=value"))?;
            let (slot, max) = match k.trim() {
                "samples" => (&mut c.samples, MAX_SAMPLES),
                "candidates" => (&mut c.candidates, MAX_CANDIDATES),
                "horizon" => (&mut c.horizon, MAX_HORIZON),
                _ => {
                    return Err(format!(
                        "unknown search parameter {k:?} (samples, candidates, horizon)"
                    ));
                }
            };
            *slot = v
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| {
                    format!("search parameter {k} needs an integer from 1 to {max}, got {v:?}")
                })?;
        }
        Ok(c)
    }
}

/// The search bot ([module docs](self)). Kongs and answers it does not search (robbing a
/// kong, claiming a kong) are the fan bot's; like every built-in bot it wins whenever the
/// rules offer a win.
#[derive(Clone, Debug)]
pub struct SearchBot {
    cfg: SearchConfig,
    rng: BotRng,
    fan: FanBot,
}

impl SearchBot {
    /// A search bot with the given budget.
    pub fn new(cfg: SearchConfig) -> SearchBot {
        SearchBot {
            cfg,
            rng: BotRng::new(0, 0),
            fan: FanBot::new(),
        }
    }
}

/// Points gained by a self-drawn win and a discard win worth `f` points.
fn gain(f: u32, self_drawn: bool) -> f64 {
    let f = f as f64;
    if self_drawn {
        3.0 * (8.0 + f)
    } else {
        24.0 + f
    }
}

/// What one decision's look-ahead shares: the seat's winds and flowers, the order in which
/// the plan gives tiles up, and the sampled futures of the unseen tiles.
struct Search {
    seat_wind: Wind,
    quan: Wind,
    flowers: u8,
    /// Tile kinds in the order the rollouts give them up: least kept by the plan first.
    order: [usize; TILE_KINDS],
    /// Each sample's order of the unseen tiles: own draw, then three others' discards, per
    /// turn.
    futures: Vec<Vec<Tile>>,
}

impl Search {
    fn new(view: &View<'_>, cfg: &SearchConfig, rng: &mut BotRng) -> Search {
        let unseen = view.unseen();
        let mut pool = Vec::with_capacity(136);
        for t in Tile::all() {
            for _ in 0..unseen[t.index()] {
                pool.push(t);
            }
        }
        let horizon = (cfg.horizon as usize).min(usize::from(view.wall_left(view.seat())));
        let need = (horizon * 4).min(pool.len());
        let futures = (0..cfg.samples)
            .map(|_| {
                // A partial Fisher–Yates shuffle: the first `need` tiles of a uniform order.
                let mut p = pool.clone();
                for i in 0..need {
                    let j = i + rng.below((p.len() - i) as u32) as usize;
                    p.swap(i, j);
                }
                p.truncate(need);
                p
            })
            .collect();
        let bias = plan(view).1;
        let mut order: [usize; TILE_KINDS] = std::array::from_fn(|i| i);
        order.sort_by_key(|&i| bias[i]);
        Search {
            seat_wind: view.seat_wind(),
            quan: view.quan(),
            flowers: view.flowers(view.seat()),
            order,
            futures,
        }
    }

    /// Points of the win of `closed` (the winning tile included) with `win`, if it reaches 8.
    fn win_points(
        &self,
        closed: &Counts,
        packs: &[Pack],
        win: Tile,
        self_drawn: bool,
    ) -> Option<u32> {
        let mut standing = [Tile::default(); 14];
        let mut n = 0;
        let mut c = *closed;
        c[win.index()] -= 1;
        for t in Tile::all() {
            for _ in 0..c[t.index()] {
                if n < standing.len() {
                    standing[n] = t;
                    n += 1;
                }
            }
        }
        let scored = evaluate(&WinningHand {
            packs,
            standing: &standing[..n],
            win_tile: win,
            flowers: self.flowers,
            self_drawn,
            fourth_tile: false,
            about_kong: false,
            wall_last: false,
            seat_wind: self.seat_wind,
            prevalent_wind: self.quan,
        })
        .ok()?;
        (scored.without_flowers() >= MIN_POINTS).then_some(scored.total)
    }

    /// The mean discounted gain of the waiting hand `hand` (13 − 3 × packs tiles) over the
    /// sampled futures.
    fn value(&self, hand: &Counts, packs: &[Pack]) -> f64 {
        if self.futures.is_empty() {
            return 0.0;
        }
        let total: f64 = self
            .futures
            .iter()
            .map(|f| self.rollout(hand, packs, f))
            .sum();
        total / self.futures.len() as f64
    }

    /// One sampled future: each turn the seat draws, wins if it may at 8 points or more, else
    /// discards greedily (the drawn tile unless it lowers the shanten, else the tile the plan
    /// keeps least among those keeping the lower shanten); then, when ready, three other
    /// seats' discards, any of which it wins on at 8 points or more. Later wins are
    /// discounted, as other seats may win first.
    fn rollout(&self, hand: &Counts, packs: &[Pack], future: &[Tile]) -> f64 {
        const DISCOUNT: f64 = 0.85;
        let np = packs.len();
        let mut h = *hand;
        let mut s = shanten(&h, np);
        let mut weight = 1.0;
        for turn in future.chunks(4) {
            let drawn = turn[0];
            h[drawn.index()] += 1;
            if s <= 0
                && is_winning_shape(&h, np)
                && let Some(p) = self.win_points(&h, packs, drawn, true)
            {
                return weight * gain(p, true);
            }
            // Greedy discard: the drawn tile unless it lowers the shanten; else the first
            // tile the plan keeps least whose discard keeps that lower shanten (the shanten
            // of 14 tiles is the best over their discards, so one exists).
            let s14 = shanten(&h, np);
            if s14 >= s {
                h[drawn.index()] -= 1;
            } else {
                let mut gone = false;
                for &d in &self.order {
                    if h[d] == 0 {
                        continue;
                    }
                    h[d] -= 1;
                    if shanten(&h, np) == s14 {
                        gone = true;
                        break;
                    }
                    h[d] += 1;
                }
                if !gone {
                    h[drawn.index()] -= 1;
                }
                s = if gone { s14 } else { shanten(&h, np) };
            }
            if s == 0 {
                for &t in &turn[1..] {
                    h[t.index()] += 1;
                    let p = if is_winning_shape(&h, np) {
                        self.win_points(&h, packs, t, false)
                    } else {
                        None
                    };
                    h[t.index()] -= 1;
                    if let Some(p) = p {
                        return weight * gain(p, false);
                    }
                }
            }
            weight *= DISCOUNT;
        }
        0.0
    }
}

/// How likely discarding `t` is to complete a wait of another seat that looks ready, summed
/// over the seats (a rough estimate: a ready hand waits on two or three kinds of 34).
fn danger(view: &View<'_>, t: Tile, unseen: &Counts) -> f64 {
    let me = view.seat();
    let mut total = 0.0;
    for s in (0..4u8).filter(|&s| s != me) {
        let melded = view
            .packs(s)
            .filter(|p| p.is_some_and(|p| p.is_melded()))
            .count();
        let discards = view.discards(s);
        // Readiness: grows with declared packs and with the turns played.
        let ready = (melded as f64 * 0.2 + discards.len() as f64 / 20.0).min(0.9);
        if ready <= 0.0 {
            continue;
        }
        let mut d = match t.rank() {
            None => {
                // An honour completes only a pair or a pung wait: none when no other copy can
                // be in that hand.
                match unseen[t.index()] {
                    0 => 0.05,
                    1 => 0.3,
                    _ => 0.6,
                }
            }
            Some(1 | 9) => 0.6,
            Some(2 | 8) => 0.8,
            Some(_) => 1.0,
        };
        if discards.iter().any(|&(x, _)| x == t) {
            // No rule forbids winning on a tile one discarded, but few hands do.
            d *= 0.3;
        }
        // Packs all of one suit hint at a flush: that suit is the danger.
        let suits: Vec<_> = view
            .packs(s)
            .flatten()
            .filter(|p| p.kind != PackKind::Kong || p.is_melded())
            .map(|p| p.tile.suit())
            .collect();
        if melded >= 2
            && suits.windows(2).all(|w| w[0] == w[1])
            && let Some(Some(suit)) = suits.first()
        {
            d *= if t.suit() == Some(*suit) || t.suit().is_none() {
                1.6
            } else {
                0.3
            };
        }
        total += ready * d * 0.08;
    }
    total.min(1.0)
}

/// What dealing in costs beyond what another seat's win costs anyway: the fans (8–12 most
/// often) on top of the base.
const DEAL_IN_COST: f64 = 12.0;

impl SearchBot {
    fn turn(&mut self, view: &View<'_>, legal: &ActionList, fallback: Action) -> Action {
        let hand = *view.hand();
        let packs = view.own_packs();
        let np = packs.len();
        let unseen = view.unseen();
        // Candidates: the best discards by shanten, then useful tiles.
        let mut ranked: Vec<(i8, i64, Tile)> = Vec::with_capacity(14);
        let mut h = hand;
        for t in Tile::all().filter(|t| hand[t.index()] > 0) {
            if !legal.contains(&Action::Play(t)) {
                continue;
            }
            h[t.index()] -= 1;
            let s = shanten(&h, np);
            let u = useful(&h, np, &unseen, s);
            h[t.index()] += 1;
            ranked.push((s, -i64::from(u), t));
        }
        if ranked.is_empty() {
            return fallback;
        }
        ranked.sort();
        // Only discards of the least shanten: the look-ahead chooses among them (measured:
        // letting it break the shanten too, or judge more candidates, played worse, as its
        // sampling noise outweighs what the useful-tile count already knows).
        let least = ranked[0].0;
        ranked.retain(|r| r.0 == least);
        ranked.truncate(self.cfg.candidates as usize);
        let search = Search::new(view, &self.cfg, &mut self.rng);
        let mut best: Option<(f64, Tile)> = None;
        for &(_, _, t) in &ranked {
            h[t.index()] -= 1;
            let v = search.value(&h, packs);
            h[t.index()] += 1;
            let p = danger(view, t, &unseen);
            let v = v * (1.0 - p) - p * DEAL_IN_COST;
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, t));
            }
        }
        best.map_or(fallback, |(_, t)| Action::Play(t))
    }

    fn claim(&mut self, view: &View<'_>, legal: &ActionList, tile: Tile, from: u8) -> Action {
        let hand = *view.hand();
        let packs = view.own_packs();
        let np = packs.len();
        let now = shanten(&hand, np);
        let relative = (from + 4 - view.seat()) % 4;
        // Claims worth judging: those that do not raise the shanten.
        let claims: Vec<(Action, Counts, [Pack; 4], usize)> = legal
            .iter()
            .filter_map(|&a| {
                let (h, after, n) = after_claim(&hand, packs, tile, a, relative)?;
                (shanten(&h, n) <= now).then_some((a, h, after, n))
            })
            .collect();
        if claims.is_empty() {
            return Action::Pass;
        }
        let search = Search::new(view, &self.cfg, &mut self.rng);
        let unseen = view.unseen();
        let mut best = (search.value(&hand, packs), Action::Pass);
        for (a, h, after, n) in claims {
            let discard = match a {
                Action::Pung(x) | Action::Chow { discard: x, .. } => x,
                _ => continue,
            };
            let p = danger(view, discard, &unseen);
            let v = search.value(&h, &after[..n]) * (1.0 - p) - p * DEAL_IN_COST;
            if v > best.0 {
                best = (v, a);
            }
        }
        best.1
    }
}

impl Player for SearchBot {
    fn name(&self) -> String {
        if self.cfg == SearchConfig::default() {
            "search".into()
        } else {
            format!(
                "search:samples={},candidates={},horizon={}",
                self.cfg.samples, self.cfg.candidates, self.cfg.horizon
            )
        }
    }

    fn start_hand(&mut self, seat: u8, hand_seed: u64) {
        // A stream of its own, apart from any other bot's at this seat.
        self.rng = BotRng::new(hand_seed ^ 0x5EA2_C4B0_7000_0000, seat);
    }

    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        if legal.contains(&Action::Win) {
            return Action::Win;
        }
        let base = self.fan.decide(view, legal);
        let a = match (view.decision(), base) {
            (Some(Decision::Turn { .. }), Action::Play(_)) => self.turn(view, legal, base),
            (Some(Decision::Discard { tile, from }), Action::Pass | Action::Pung(_))
            | (Some(Decision::Discard { tile, from }), Action::Chow { .. }) => {
                self.claim(view, legal, tile, from)
            }
            _ => base,
        };
        // Never answer outside the legal list.
        if legal.contains(&a) { a } else { base }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_parse_and_bad_ones_are_refused_by_name() {
        assert_eq!(SearchConfig::parse(""), Ok(SearchConfig::default()));
        let c = SearchConfig::parse("horizon=5, samples=10").unwrap();
        assert_eq!((c.samples, c.candidates, c.horizon), (10, 6, 5));
        for (bad, names) in [
            ("samples=0", "samples"),
            ("samples=2001", "samples"),
            ("candidates=x", "candidates"),
            ("depth=3", "depth"),
            ("samples", "samples"),
        ] {
            let e = SearchConfig::parse(bad).unwrap_err();
            assert!(e.contains(names), "{bad}: {e}");
        }
    }

    #[test]
    fn the_name_round_trips_through_builtin() {
        let bot = crate::builtin("search:samples=10,candidates=4,horizon=6").unwrap();
        assert_eq!(bot.name(), "search:samples=10,candidates=4,horizon=6");
        assert_eq!(crate::builtin(&bot.name()).unwrap().name(), bot.name());
        assert_eq!(crate::builtin("search").unwrap().name(), "search");
        assert!(crate::builtin("search:samples=0").is_none());
        assert!(crate::builtin("fan:samples=3").is_none());
        assert!(
            crate::builtin_checked("nope")
                .err()
                .unwrap()
                .contains("nope")
        );
    }
}
