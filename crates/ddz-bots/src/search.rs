//! An imperfect-information search player: perfect-information Monte Carlo (determinization).
//!
//! At each play decision the bot samples `samples` complete deals consistent with everything it
//! has seen (its own hand, every card played, the number of cards each seat holds, and the bottom
//! cards, which the landlord still holds unless it played them). In every sampled deal it plays
//! each candidate move and finishes the game with the expert rule-based policy in all seats, then
//! picks the candidate with the best average result for its side. Candidates are all legal moves
//! when there are few, otherwise the `candidates` moves that leave the fewest parts in hand (plus
//! the pass and the expert's own choice). The budget is `samples × candidates` rollouts per
//! decision; both are parameters (`search:samples=40,candidates=16`).

use ddz::{CardSet, Event, Move, MoveList, Observation, PlayState, Rank, Scoring, Seat};

use crate::policy::{self, Ctx, Style};
use crate::{Bot, BotRng, RuleBot};

/// Search budget and objective.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Sampled deals per decision.
    pub samples: u32,
    /// Most candidate moves evaluated per decision.
    pub candidates: u32,
    /// What a rollout's result is worth: `Wp` (win = 1) or any other scoring mode.
    pub objective: Scoring,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            samples: 40,
            candidates: 16,
            objective: Scoring::Wp,
        }
    }
}

/// Most sampled deals per decision a search bot may be given.
pub const MAX_SAMPLES: u32 = 2_000;
/// Most candidate moves per decision.
pub const MAX_CANDIDATES: u32 = 64;
/// Most rollouts (samples × candidates) per decision: about a second of one core, so a
/// decision always ends long before any hard cap and a shutdown is never held up for long.
pub const MAX_ROLLOUTS: u32 = 20_000;

impl SearchConfig {
    /// Parses `samples=40,candidates=16,objective=wp` (any subset, any order). Budgets beyond
    /// [`MAX_SAMPLES`], [`MAX_CANDIDATES`] or [`MAX_ROLLOUTS`] are refused, naming the limit.
    pub fn parse(params: &str) -> Result<SearchConfig, String> {
        let mut c = SearchConfig::default();
        for kv in params.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("search parameter {kv:?} is not key=value"))?;
            let num = || {
                v.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| {
                    format!("search parameter {k} needs a positive integer, got {v:?}")
                })
            };
            match k {
                "samples" | "rollouts" => c.samples = num()?,
                "candidates" => c.candidates = num()?,
                "objective" => c.objective = v.parse()?,
                _ => {
                    return Err(format!(
                        "unknown search parameter {k:?} (samples, candidates, objective)"
                    ));
                }
            }
        }
        if c.samples > MAX_SAMPLES {
            return Err(format!(
                "search samples={} is more than the most allowed, {MAX_SAMPLES}",
                c.samples
            ));
        }
        if c.candidates > MAX_CANDIDATES {
            return Err(format!(
                "search candidates={} is more than the most allowed, {MAX_CANDIDATES}",
                c.candidates
            ));
        }
        if c.samples * c.candidates > MAX_ROLLOUTS {
            return Err(format!(
                "search samples={} × candidates={} is {} rollouts per decision, more than the most allowed, {MAX_ROLLOUTS}",
                c.samples,
                c.candidates,
                c.samples * c.candidates
            ));
        }
        Ok(c)
    }
}

/// The search player; bids and doubles like the expert.
pub struct SearchBot {
    cfg: SearchConfig,
    rng: BotRng,
    rule: RuleBot,
    scratch: MoveList,
    pool: Vec<Rank>,
    cands: Vec<Move>,
    values: Vec<f64>,
}

impl SearchBot {
    /// A search bot with the given budget.
    pub fn new(cfg: SearchConfig) -> SearchBot {
        SearchBot {
            cfg,
            rng: BotRng::new(0, u64::MAX),
            rule: RuleBot::expert(),
            scratch: MoveList::new(),
            pool: Vec::with_capacity(54),
            cands: Vec::with_capacity(64),
            values: Vec::with_capacity(64),
        }
    }

    fn select_candidates(&mut self, obs: &Observation<'_>, legal: &MoveList, expert: Move) {
        self.cands.clear();
        self.cands.push(expert);
        if legal.len() <= self.cfg.candidates as usize {
            self.cands
                .extend(legal.iter().copied().filter(|&m| m != expert));
            return;
        }
        let mut scored: Vec<(usize, u8, Move)> = legal
            .iter()
            .filter(|m| !m.is_pass() && **m != expert)
            .map(|&m| {
                let parts = ddz::analysis::seed_decompose(obs.hand - m.cards()).hand_count();
                (parts, m.rank() as u8, m)
            })
            .collect();
        scored.sort_unstable_by_key(|&(p, r, m)| (p, r, std::cmp::Reverse(m.cards().len())));
        if legal[0].is_pass() && !expert.is_pass() {
            self.cands.push(Move::PASS);
        }
        let room = (self.cfg.candidates as usize).saturating_sub(self.cands.len());
        self.cands
            .extend(scored.into_iter().take(room).map(|(_, _, m)| m));
    }

    /// Fills `hands` with a deal consistent with what `obs.seat` knows.
    fn sample(&mut self, obs: &Observation<'_>, landlord: Seat, hands: &mut [CardSet; 3]) {
        let me = obs.seat;
        let unseen = obs.unseen();
        // Bottom cards the landlord has not played are still in its hand.
        let fixed = if me != landlord {
            let bottom = obs.bottom.unwrap_or(CardSet::EMPTY);
            let mut f = CardSet::EMPTY;
            let played = obs.played[landlord.index()];
            for (r, c) in bottom.ranks() {
                let keep = c.saturating_sub(played.count(r)).min(unseen.count(r));
                f = f + CardSet::of(r, keep).unwrap_or_default();
            }
            f
        } else {
            CardSet::EMPTY
        };
        self.pool.clear();
        self.pool.extend((unseen - fixed).iter());
        let n = self.pool.len();
        for i in (1..n).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            self.pool.swap(i, j);
        }
        hands[me.index()] = obs.hand;
        let mut next = 0;
        for s in [me.next(), me.next().next()] {
            let mut h = if s == landlord { fixed } else { CardSet::EMPTY };
            let want = obs.cards_left[s.index()] as usize;
            while (h.len() as usize) < want && next < n {
                h = h + CardSet::of(self.pool[next], 1).unwrap_or_default();
                next += 1;
            }
            hands[s.index()] = h;
        }
    }
}

/// Bombs, rockets, plays per seat and passes since the last play, from the public history.
fn public_counts(events: &[Event]) -> (u8, u8, [u8; 3], u8) {
    let (mut bombs, mut rockets, mut plays, mut passes) = (0u8, 0u8, [0u8; 3], 0u8);
    for e in events {
        if let Event::Play { seat, play } = e {
            if play.is_pass() {
                passes += 1;
            } else {
                passes = 0;
                plays[seat.index()] += 1;
                match play.kind() {
                    ddz::Kind::Bomb => bombs += 1,
                    ddz::Kind::Rocket => rockets += 1,
                    _ => {}
                }
            }
        }
    }
    (bombs, rockets, plays, passes % 2)
}

impl Bot for SearchBot {
    fn name(&self) -> String {
        format!(
            "search:samples={},candidates={},objective={}",
            self.cfg.samples, self.cfg.candidates, self.cfg.objective
        )
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = BotRng::new(seed, u64::MAX);
    }

    fn bid(&mut self, obs: &Observation<'_>) -> u8 {
        self.rule.bid(obs)
    }

    fn double(&mut self, obs: &Observation<'_>) -> bool {
        self.rule.double(obs)
    }

    fn play(&mut self, obs: &Observation<'_>, legal: &MoveList) -> Move {
        if legal.len() == 1 {
            return legal[0];
        }
        if let Some(&m) = legal.iter().find(|m| m.cards() == obs.hand) {
            return m;
        }
        let rules = *obs.rules;
        let ctx = Ctx::from_obs(obs);
        let expert = policy::choose(&rules, &ctx, Style::Expert, &mut self.scratch);
        self.select_candidates(obs, legal, expert);
        let Some(landlord) = obs.landlord else {
            return expert;
        };
        let (bombs, rockets, plays, passes) = public_counts(obs.events);
        let (to_beat, last_seat) = match obs.last_play {
            Some((s, m)) => (m, s),
            None => (Move::PASS, obs.seat),
        };
        let my_side_landlord = obs.seat == landlord;
        self.values.clear();
        self.values.resize(self.cands.len(), 0.0);
        let mut hands = [CardSet::EMPTY; 3];
        for _ in 0..self.cfg.samples {
            self.sample(obs, landlord, &mut hands);
            for (i, &c) in self.cands.iter().enumerate() {
                let mut st = PlayState::resume(
                    hands, landlord, obs.seat, to_beat, last_seat, passes, bombs, rockets, plays,
                );
                st.apply_unchecked(c);
                while !st.is_over() {
                    let m = policy::choose(
                        &rules,
                        &Ctx::from_state(&st),
                        Style::Expert,
                        &mut self.scratch,
                    );
                    st.apply_unchecked(m);
                }
                let won = st.landlord_won() == my_side_landlord;
                self.values[i] += match self.cfg.objective {
                    Scoring::Wp => f64::from(u8::from(won)),
                    mode => {
                        let o = ddz::Outcome {
                            landlord,
                            winner: st.winner().unwrap_or(landlord),
                            bid: 1,
                            bombs: st.bombs(),
                            rockets: st.rockets(),
                            spring: st.is_spring(),
                            anti_spring: st.is_anti_spring(),
                            doubled: [false; 3],
                            redoubled: false,
                            // A rollout keeps no plays: FightTheLandlord's weights are left out
                            // of a search objective.
                            ftl_weights: [0; 3],
                            forfeit: false,
                        };
                        o.scores(mode)[obs.seat.index()] as f64
                    }
                };
            }
        }
        // Ties go to the earlier candidate, and the expert's move comes first.
        let mut best = 0;
        for i in 1..self.cands.len() {
            if self.values[i] > self.values[best] {
                best = i;
            }
        }
        self.cands[best]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_capped_naming_the_limit() {
        for bad in [
            "samples=4000000000",
            "samples=2001",
            "candidates=65",
            "samples=2000,candidates=64",
        ] {
            let e = SearchConfig::parse(bad).unwrap_err();
            assert!(e.contains("most allowed"), "{bad}: {e}");
        }
        SearchConfig::parse("samples=100,candidates=24").unwrap();
        SearchConfig::parse("samples=2000,candidates=10").unwrap();
    }

    #[test]
    fn parses_parameters() {
        let c = SearchConfig::parse("samples=10, candidates=4").unwrap();
        assert_eq!((c.samples, c.candidates), (10, 4));
        assert_eq!(SearchConfig::parse("").unwrap(), SearchConfig::default());
        assert!(
            SearchConfig::parse("samples=0")
                .unwrap_err()
                .contains("positive")
        );
        assert!(
            SearchConfig::parse("depth=3")
                .unwrap_err()
                .contains("unknown")
        );
        assert!(
            SearchConfig::parse("samples")
                .unwrap_err()
                .contains("key=value")
        );
    }
}
