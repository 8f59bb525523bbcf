//! [`MahjongTable`]: contest Mahjong as an [`arena_table::TableGame`], and [`MahjongBot`], a
//! built-in bot as an [`arena_table::LocalPlayer`].
//!
//! After a discard (or an added kong) the three other seats are pending together; the runner
//! asks them at once and the rules settle their answers together (win > kong = pung > chow,
//! the first seat after the discarder winning ties). A seat at fault plays on automatically
//! (it discards what it drew and claims nothing) unless the job says forfeit.

use arena_proto::v1;
use arena_table::{Fault, LocalPlayer, Pending, Policy, TableGame};
use mahjong::{Action, ActionList, Decision, Game, Phase, View};
use mahjong_bots::Player;

use super::convert;
use super::spec::MahjongSpec;
use crate::adapter::{answers_into, seat_u8, too_many};

/// A Mahjong hand being played.
#[derive(Clone)]
pub struct MahjongTable {
    game: Game,
}

impl MahjongTable {
    /// The hand `spec` sets up.
    pub fn new(spec: &MahjongSpec) -> MahjongTable {
        MahjongTable {
            game: Game::new(&spec.deal, spec.rules),
        }
    }

    /// The rules engine's state.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn legal(&self, seat: u8) -> ActionList {
        let mut list = ActionList::new();
        self.game.legal_actions(seat, &mut list);
        list
    }
}

/// The protocol's name for a decision.
pub fn decision_kind(d: Decision) -> v1::DecisionKind {
    match d {
        Decision::Turn { .. } => v1::DecisionKind::Turn,
        Decision::Claim { .. } => v1::DecisionKind::Claim,
        Decision::RobKong { .. } => v1::DecisionKind::RobKong,
    }
}

impl TableGame for MahjongTable {
    type Action = Action;
    type View<'a> = View<'a>;

    fn game(&self) -> &'static str {
        super::GAME.name()
    }

    fn seat_count(&self) -> usize {
        4
    }

    fn default_policy(&self) -> Policy {
        Policy::PlayOn
    }

    fn pending_into(&self, out: &mut Vec<Pending>) {
        for seat in self.game.deciders().iter() {
            if let Some(d) = self.game.decision(seat) {
                out.push(Pending {
                    seat: u32::from(seat),
                    kind: decision_kind(d),
                });
            }
        }
    }

    fn answered_seat(&self) -> Option<u32> {
        match self.game.phase() {
            Phase::Claims { discarder, .. } => Some(u32::from(discarder)),
            Phase::RobKong { seat, .. } => Some(u32::from(seat)),
            Phase::Turn { .. } | Phase::Over => None,
        }
    }

    fn view(&self, seat: u32) -> View<'_> {
        self.game.view(seat_u8(seat))
    }

    fn observation_from(&self, seat: u32, from: usize) -> v1::Observation {
        let seat = seat_u8(seat);
        convert::observation_from(&self.game.view(seat), &self.legal(seat), from)
    }

    fn decode(&self, pending: &Pending, action: &v1::Action) -> Result<Action, Fault> {
        let a = convert::action_of(action).map_err(Fault::malformed)?;
        self.check(pending, &a)?;
        Ok(a)
    }

    fn check(&self, pending: &Pending, action: &Action) -> Result<(), Fault> {
        self.game
            .check(seat_u8(pending.seat), *action)
            .map_err(|e| Fault::illegal(format!("{action}: {}", e.reason)))
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
    /// refused: the fast path checks each answer once, not once more beforehand. Inlined into
    /// the fast path's loop wherever the build puts it (self-play's hot path).
    #[inline]
    fn check_and_apply(&mut self, actions: &[(Pending, Action)]) -> Result<(), (u32, Fault)> {
        let mut answers = [(0u8, Action::Pass); 4];
        let Some(n) = answers_into(actions, &mut answers) else {
            let seat = actions.first().map_or(0, |(p, _)| p.seat);
            return Err((seat, Fault::illegal(too_many(actions))));
        };
        match self.game.apply(&answers[..n]) {
            Ok(()) => Ok(()),
            Err(e) => {
                // Worded as `check` words it.
                let reason = match e.action {
                    Some(a) => format!("{a}: {}", e.reason),
                    None => e.reason.to_string(),
                };
                Err((u32::from(e.seat), Fault::illegal(reason)))
            }
        }
    }

    fn outcome(&self) -> Option<v1::Outcome> {
        self.game
            .outcome()
            .map(|o| convert::outcome(o, self.game.rules().reading))
    }

    /// The hand ends without a winner and the forfeiting seat pays the base (4) to each other
    /// seat, as if it had dealt in a bare win to all three.
    fn forfeit(&self, seat: u32) -> v1::Outcome {
        let base = i64::from(mahjong::BASE_POINTS);
        let reading = self.game.rules().reading;
        let mut o = convert::outcome(&mahjong::Outcome::DRAWN, reading);
        o.scores = (0..4)
            .map(|s| if s == seat { -3 * base } else { base })
            .collect();
        o
    }

    fn record_history(&self, replay: &mut v1::Replay) {
        let history = arena_proto::packages::arena::mahjong::v1::History {
            events: self
                .game
                .events()
                .iter()
                .map(|&e| convert::full_event(e))
                .collect(),
            hands: (0..4)
                .map(|s| mahjong::tiles_to_string(self.game.wall().initial_hand(s).iter().copied()))
                .collect(),
        };
        replay.history = Some(arena_proto::payload::pack(&history));
    }
}

/// A built-in Mahjong bot seated at a [`MahjongTable`]: it decides from its seat's view alone.
/// It owns its [`Player`] (the referee's seats), or borrows one kept from hand to hand (the fast
/// path of matches and self-play: `MahjongBot<&mut dyn Player>`).
pub struct MahjongBot<P: Player = Box<dyn Player>> {
    player: P,
    legal: ActionList,
}

impl MahjongBot {
    /// The built-in bot `spec` names; `None` for a `cmd:` spec (bot-host runs programs).
    pub fn new(spec: &mahjong_bots::spec::BotSpec) -> Option<MahjongBot> {
        Some(MahjongBot::with(spec.build_builtin()?))
    }
}

impl<P: Player> MahjongBot<P> {
    /// `player` at a table.
    pub fn with(player: P) -> MahjongBot<P> {
        MahjongBot {
            player,
            legal: ActionList::new(),
        }
    }
}

impl<P: Player> LocalPlayer<MahjongTable> for MahjongBot<P> {
    fn name(&self) -> String {
        self.player.name()
    }

    fn start(&mut self, seat: u32, seed: u64) {
        // Built-in bots cannot fail to start; a seat number past 3 never reaches them.
        let _ = self.player.start_hand(seat_u8(seat), seed);
    }

    // Inlined into the fast path's loop (self-play's hot path).
    #[inline]
    fn decide(&mut self, view: &View<'_>, _pending: &Pending) -> Action {
        view.legal_actions(&mut self.legal);
        match self.player.decide(view, &self.legal).answer {
            Ok(a) => a,
            // Built-in bots answer from the legal list; should one ever fault, the first legal
            // answer (pass, or the lowest discard) keeps the table going.
            Err(_) => self.legal.iter().next().copied().unwrap_or(Action::Pass),
        }
    }

    fn finish(&mut self, view: &View<'_>) {
        self.player.end_hand(view);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
    use mahjong::{Deal, Rules};

    fn table(seed: u64) -> MahjongTable {
        MahjongTable::new(&MahjongSpec {
            deal: Deal::from_seed(seed),
            rules: Rules::default(),
        })
    }

    #[test]
    fn random_answers_from_the_views_legal_lists_finish_every_hand() {
        // Random play through many hands: every seat the table says is pending has legal
        // answers in its view, the table accepts any of them, and the hand ends.
        for seed in 0..40 {
            let mut t = table(seed);
            let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut pending = Vec::new();
            let mut from_view = ActionList::new();
            while t.outcome().is_none() {
                pending.clear();
                t.pending_into(&mut pending);
                assert!(!pending.is_empty());
                // Seats pending together answer the one seat not among them; a turn answers
                // nobody.
                match (pending.len(), t.answered_seat()) {
                    (1, None) => {}
                    (3, Some(from)) => assert!(pending.iter().all(|p| p.seat != from)),
                    other => panic!("{other:?} for {pending:?}"),
                }
                let mut answers = Vec::new();
                for p in &pending {
                    let legal = t.legal(p.seat as u8);
                    t.view(p.seat).legal_actions(&mut from_view);
                    assert_eq!(
                        from_view.iter().collect::<Vec<_>>(),
                        legal.iter().collect::<Vec<_>>()
                    );
                    assert!(
                        !legal.is_empty(),
                        "seat {} asked with nothing to answer",
                        p.seat
                    );
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    let pick = legal
                        .iter()
                        .nth((rng % legal.len() as u64) as usize)
                        .unwrap();
                    answers.push((*p, *pick));
                }
                t.check_and_apply(&answers).unwrap();
            }
        }
    }

    #[test]
    fn after_a_discard_the_three_others_are_asked_together() {
        let mut t = table(3);
        let mut pending = t.pending();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].kind, v1::DecisionKind::Turn);
        let actor = pending[0].seat;
        let discard = t.automatic(&pending[0]);
        t.apply(&[(pending[0], discard)]).unwrap();
        pending = t.pending();
        if t.outcome().is_none() {
            assert_eq!(pending.len(), 3);
            assert!(pending.iter().all(|p| p.kind == v1::DecisionKind::Claim));
            assert!(pending.iter().all(|p| p.seat != actor));
        }
    }

    #[test]
    fn an_observation_shows_no_other_seats_concealed_tiles() {
        let t = table(5);
        let o = convert::observation_of(&t.observation(1)).expect("a Mahjong observation");
        assert_eq!(o.hand, convert::counts_text(t.game().hand(1)));
        // Seat 1 is told its own draw only: every draw of another seat has no tile.
        for e in &o.events {
            if e.kind == mahjong_pb::EventKind::Draw as i32 && e.seat != 1 {
                assert!(e.tile.is_empty(), "{e:?}");
            }
        }
        assert_eq!(o.seats.len(), 4);
    }

    #[test]
    fn the_fast_path_refuses_an_illegal_answer_naming_its_seat_and_settles_nothing() {
        let mut t = table(3);
        let p = t.pending()[0];
        let hand = *t.game().hand(p.seat as u8);
        let missing = (0..mahjong::TILE_KINDS)
            .find(|&i| hand[i] == 0)
            .and_then(mahjong::Tile::from_index)
            .expect("13 tiles leave some kind out");
        let events = t.game().events().len();
        let (seat, fault) = t
            .check_and_apply(&[(p, Action::Discard(missing))])
            .unwrap_err();
        assert_eq!(seat, p.seat);
        assert_eq!(fault.kind, v1::VerdictKind::Illegal);
        let checked = t.check(&p, &Action::Discard(missing)).unwrap_err();
        assert_eq!(fault.reason, checked.reason, "worded as check words it");
        assert_eq!(t.game().events().len(), events, "nothing settled");
        let legal = t.automatic(&p);
        t.check_and_apply(&[(p, legal)]).unwrap();
        assert!(t.game().events().len() > events);
    }

    #[test]
    fn a_forfeit_costs_the_seat_the_base_to_each_other_seat() {
        let o = table(1).forfeit(2);
        assert_eq!(o.scores, [4, 4, -12, 4]);
    }
}
