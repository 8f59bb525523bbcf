//! [`McrTable`]: Chinese Standard Mahjong as an [`arena_table::TableGame`], and [`McrBot`], a
//! built-in bot as an [`arena_table::LocalPlayer`].
//!
//! After a discard (or an added kong) every other seat with a choice is pending together; the
//! runner asks them at once and the rules settle their answers together (win > kong = pung >
//! chow, the first seat after the discarder winning ties). Seats with nothing but a pass are not
//! asked ([`mcr::Game::deciders`]).
//!
//! Faults follow the set-up's [`FaultPolicy`]: the judge's is the table's forfeit policy (the
//! first fault ends the hand, the offender −30 and each other seat +10, [`McrTable`]'s
//! `forfeit`); the arena's is play-on (the seat discards what it draws and claims nothing, and
//! the verdict is recorded). A failure of the platform (no bot-host to reach, a seat stream
//! lost) is no fault of the bot: the runner interrupts or asks again, and nothing is scored.

use arena_proto::v1;
use arena_table::{Fault, LocalPlayer, Pending, Policy, TableGame};
use mcr::{Action, ActionList, FaultPolicy, Game, Phase, View};
use mcr_bots::Player;

use super::convert;
use super::spec::{McrSpec, table_policy};
use crate::adapter::{answers_into, seat_u8, too_many};

/// A Chinese Standard Mahjong hand being played.
#[derive(Clone)]
pub struct McrTable {
    game: Game,
    policy: FaultPolicy,
}

impl McrTable {
    /// The hand `spec` sets up.
    pub fn new(spec: &McrSpec) -> McrTable {
        McrTable {
            game: Game::new(&spec.deal),
            policy: spec.policy,
        }
    }

    /// The rules engine's state.
    pub fn game(&self) -> &Game {
        &self.game
    }
}

impl TableGame for McrTable {
    type Action = Action;
    type View<'a> = View<'a>;

    fn game(&self) -> &'static str {
        super::GAME.name()
    }

    fn seat_count(&self) -> usize {
        4
    }

    fn default_policy(&self) -> Policy {
        table_policy(self.policy)
    }

    fn pending_into(&self, out: &mut Vec<Pending>) {
        for seat in self.game.deciders() {
            if let Some(d) = self.game.decision(seat) {
                out.push(Pending {
                    seat: u32::from(seat),
                    kind: convert::decision_kind(d),
                });
            }
        }
    }

    fn answered_seat(&self) -> Option<u32> {
        match self.game.phase() {
            Phase::Discard { seat, .. } | Phase::RobKong { seat, .. } => Some(u32::from(seat)),
            Phase::Turn { .. } | Phase::Over => None,
        }
    }

    fn view(&self, seat: u32) -> View<'_> {
        self.game.view(seat_u8(seat))
    }

    fn observation_from(&self, seat: u32, from: usize) -> v1::Observation {
        let seat = seat_u8(seat);
        convert::observation_from(&self.game.view(seat), self.game.legal(seat), from)
    }

    fn decode(&self, pending: &Pending, action: &v1::Action) -> Result<Action, Fault> {
        let a = convert::action_of(action).map_err(Fault::malformed)?;
        self.check(pending, &a)?;
        Ok(a)
    }

    fn check(&self, pending: &Pending, action: &Action) -> Result<(), Fault> {
        self.game
            .check(seat_u8(pending.seat), *action)
            .map_err(|e| Fault::illegal(format!("{action}: {e}")))
    }

    fn encode(&self, action: &Action) -> v1::Action {
        convert::action(*action)
    }

    fn automatic(&self, pending: &Pending) -> Action {
        self.game.automatic(seat_u8(pending.seat))
    }

    fn apply(&mut self, actions: &[(Pending, Action)]) -> Result<(), String> {
        let mut answers = [(0u8, Action::Pass); 4];
        let n = answers_into(actions, &mut answers).ok_or_else(|| too_many(actions))?;
        self.game.apply(&answers[..n]).map_err(|e| e.to_string())
    }

    /// The rules engine checks every answer while it settles them, and settles none if one is
    /// refused: the fast path checks each answer once.
    #[inline]
    fn check_and_apply(&mut self, actions: &[(Pending, Action)]) -> Result<(), (u32, Fault)> {
        let mut answers = [(0u8, Action::Pass); 4];
        let Some(n) = answers_into(actions, &mut answers) else {
            let seat = actions.first().map_or(0, |(p, _)| p.seat);
            return Err((seat, Fault::illegal(too_many(actions))));
        };
        self.game.apply(&answers[..n]).map_err(|e| {
            // Worded as `check` words it.
            let action = answers[..n]
                .iter()
                .find(|(s, _)| *s == e.seat)
                .map_or(Action::Pass, |&(_, a)| a);
            (
                u32::from(e.seat),
                Fault::illegal(format!("{action}: {}", e.reason)),
            )
        })
    }

    fn outcome(&self) -> Option<v1::Outcome> {
        self.game.outcome().map(convert::outcome)
    }

    /// The judge's verdict: the hand ends, the faulty seat scores −30 and each other seat +10
    /// (the outcome names the seat as `fault`).
    fn forfeit(&self, seat: u32) -> v1::Outcome {
        let mut ended = self.game.clone();
        ended.fault(seat_u8(seat), FaultPolicy::Judge);
        match ended.outcome() {
            Some(o) => convert::outcome(o),
            // The hand was already over: its outcome stands.
            None => convert::outcome(&mcr::Outcome {
                scores: [0; 4],
                win: None,
                fault: None,
            }),
        }
    }

    fn record_history(&self, replay: &mut v1::Replay) {
        replay.history = Some(arena_proto::payload::pack(&convert::history(&self.game)));
    }
}

/// A built-in bot seated at a [`McrTable`]: it decides from its seat's view alone.
pub struct McrBot<P: Player = Box<dyn Player>> {
    player: P,
    legal: ActionList,
}

impl McrBot {
    /// The built-in bot named `name` ([`mcr_bots::BUILTIN_NAMES`]); `None` for another name.
    pub fn new(name: &str) -> Option<McrBot> {
        Some(McrBot::with(mcr_bots::builtin(name)?))
    }
}

impl<P: Player> McrBot<P> {
    /// `player` at a table.
    pub fn with(player: P) -> McrBot<P> {
        McrBot {
            player,
            legal: ActionList::new(),
        }
    }
}

impl<P: Player> LocalPlayer<McrTable> for McrBot<P> {
    fn name(&self) -> String {
        self.player.name()
    }

    fn start(&mut self, seat: u32, seed: u64) {
        self.player.start_hand(seat_u8(seat), seed);
    }

    #[inline]
    fn decide(&mut self, view: &View<'_>, _pending: &Pending) -> Action {
        view.legal_actions(&mut self.legal);
        if self.legal.is_empty() {
            // Never asked without a choice; pass rather than ask the bot to choose from none.
            return Action::Pass;
        }
        self.player.decide(view, &self.legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(seed: u64, policy: FaultPolicy) -> McrTable {
        McrTable::new(&McrSpec {
            policy,
            ..McrSpec::from_seed(seed)
        })
    }

    #[test]
    fn random_answers_from_the_views_legal_lists_finish_every_hand() {
        for seed in 0..40 {
            let mut t = table(seed, FaultPolicy::Judge);
            let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut pending = Vec::new();
            let mut legal = ActionList::new();
            while t.outcome().is_none() {
                pending.clear();
                t.pending_into(&mut pending);
                assert!(!pending.is_empty());
                if let Some(from) = t.answered_seat() {
                    assert!(pending.iter().all(|p| p.seat != from));
                } else {
                    assert_eq!(pending.len(), 1);
                }
                let mut answers = Vec::new();
                for p in &pending {
                    t.view(p.seat).legal_actions(&mut legal);
                    assert!(!legal.is_empty(), "seat {} asked with nothing", p.seat);
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    answers.push((*p, legal[(rng % legal.len() as u64) as usize]));
                }
                t.check_and_apply(&answers).unwrap();
            }
            let o = t.outcome().unwrap();
            assert_eq!(o.scores.iter().sum::<i64>(), 0);
        }
    }

    #[test]
    fn a_refused_answer_is_named_and_settles_nothing() {
        let mut t = table(3, FaultPolicy::Judge);
        let p = t.pending()[0];
        let hand = *t.game().hand(p.seat as u8);
        let missing = mcr::Tile::all()
            .find(|x| hand[x.index()] == 0)
            .expect("14 tiles leave some kind out");
        let events = t.game().events().len();
        let (seat, fault) = t
            .check_and_apply(&[(p, Action::Play(missing))])
            .unwrap_err();
        assert_eq!(seat, p.seat);
        assert_eq!(fault.kind, v1::VerdictKind::Illegal);
        assert!(
            fault.reason.contains(&format!("PLAY {missing}")),
            "{}",
            fault.reason
        );
        let checked = t.check(&p, &Action::Play(missing)).unwrap_err();
        assert_eq!(fault.reason, checked.reason, "worded as check words it");
        assert_eq!(t.game().events().len(), events, "nothing settled");
        let bad = v1::Action {
            game: Some(arena_proto::payload::pack(&super::super::pb::Action {
                answer: "DISCARD".into(),
            })),
        };
        let f = t.decode(&p, &bad).unwrap_err();
        assert_eq!(f.kind, v1::VerdictKind::Malformed);
        assert!(f.reason.contains("DISCARD"), "{}", f.reason);
    }

    #[test]
    fn the_judges_forfeit_ends_the_hand_minus_30_and_plus_10() {
        let t = table(1, FaultPolicy::Judge);
        assert_eq!(t.default_policy(), Policy::Forfeit);
        let o = t.forfeit(2);
        assert_eq!(o.scores, [10, 10, -30, 10]);
        let m = convert::outcome_of(&o).unwrap();
        assert_eq!((m.fault, m.winner), (Some(2), None));
        assert_eq!(
            table(1, FaultPolicy::PlayOn).default_policy(),
            Policy::PlayOn
        );
    }

    #[test]
    fn no_observation_or_event_shows_another_seats_hidden_tile() {
        // Over whole hands of random play: another seat's draws travel without their tile, and
        // its concealed kongs without theirs (a bare `GANG`, a pack with no tile).
        for seed in 0..20 {
            let mut t = table(seed, FaultPolicy::PlayOn);
            let mut rng = seed | 1;
            while t.outcome().is_none() {
                for viewer in 0..4u8 {
                    let o = convert::observation_of(&t.observation(u32::from(viewer))).unwrap();
                    assert_eq!(o.hand, convert::counts_text(t.game().hand(viewer)));
                    for e in o.events.iter().filter(|e| e.seat != u32::from(viewer)) {
                        if e.kind == super::super::pb::EventKind::Draw as i32 {
                            assert!(e.tile.is_empty(), "seed {seed}: {e:?}");
                        }
                        assert!(!e.answer.starts_with("GANG "), "seed {seed}: {e:?}");
                    }
                    for (s, seat) in o.seats.iter().enumerate() {
                        for p in seat.packs.iter().filter(|p| p.offer == 0) {
                            if s != usize::from(viewer) {
                                assert!(p.tile.is_empty(), "a rival's concealed kong: {p:?}");
                            }
                        }
                    }
                }
                let answers: Vec<_> = t
                    .pending()
                    .into_iter()
                    .map(|p| {
                        let legal = t.game().legal(p.seat as u8);
                        rng = rng
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1_442_695_040_888_963_407);
                        (p, legal[((rng >> 33) % legal.len() as u64) as usize])
                    })
                    .collect();
                t.check_and_apply(&answers).unwrap();
            }
        }
    }

    #[test]
    fn an_observation_is_the_same_bytes_in_a_hand_whose_hidden_tiles_differ() {
        use super::super::request::McrRequest;
        use prost::Message;
        // A request rebuilt is a hand the seat could be playing: its own tiles and everything
        // public the same, its rivals' hidden tiles chosen afresh. The seat's observation must
        // be byte for byte the same in both: nothing of the hidden tiles is in it.
        let mut differed = 0;
        for seed in 0..12 {
            let mut t = table(seed, FaultPolicy::PlayOn);
            let mut rng = seed | 1;
            while t.outcome().is_none() {
                let pending = t.pending();
                for p in &pending {
                    let sent = t.observation(p.seat);
                    let req = v1::DecisionRequest {
                        seat: p.seat,
                        game: "mcr".into(),
                        kind: p.kind as i32,
                        observation: Some(sent.clone()),
                        ..Default::default()
                    };
                    let r = McrRequest::from_request(&req).unwrap();
                    let seat = p.seat as u8;
                    if (0..4)
                        .filter(|&s| s != seat)
                        .any(|s| r.game().hand(s) != t.game().hand(s))
                    {
                        differed += 1;
                    }
                    let rebuilt = convert::observation_from(&r.view(), r.game().legal(seat), 0);
                    assert_eq!(
                        rebuilt.encode_to_vec(),
                        sent.encode_to_vec(),
                        "seed {seed}, seat {seat}"
                    );
                }
                let answers: Vec<_> = pending
                    .into_iter()
                    .map(|p| {
                        let legal = t.game().legal(p.seat as u8);
                        rng = rng
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1_442_695_040_888_963_407);
                        (p, legal[((rng >> 33) % legal.len() as u64) as usize])
                    })
                    .collect();
                t.check_and_apply(&answers).unwrap();
            }
        }
        assert!(
            differed > 100,
            "the rebuilt hands hide different tiles: {differed}"
        );
    }
}
