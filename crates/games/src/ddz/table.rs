//! Dou Dizhu as a [`TableGame`] on [`ddz::Game`], and the built-in bots as [`LocalPlayer`]s.
//!
//! - Automatic action for a seat at fault: bid 0, no double, pass when following, else the
//!   smallest lead (fewest cards, then lowest rank: the lowest single).
//! - Forfeit: the seat's side loses at once, scored with no bombs, rockets or spring; doubles
//!   and a redouble already declared count. A seat that faults during bidding, when there are
//!   no sides yet, is scored as a landlord that lost at the highest bid so far (at least 1).

use arena_proto::v1;
use arena_table::{Fault, LocalPlayer, Pending, Policy, TableGame};
use ddz::{
    Action, Event, Game, IllegalMove, Move, MoveList, Observation, Outcome, Phase, RuleSet,
    Scoring, Seat,
};
use ddz_bots::{Bot, BotSpec};

use super::convert::{self, DdzDecision};
use super::spec::DdzSpec;

/// A Dou Dizhu table's game: [`ddz::Game`] with the rule set's name and the scoring mode.
#[derive(Clone, Debug)]
pub struct DdzTable {
    game: Game,
    rules_name: &'static str,
    scoring: Scoring,
    /// Where the deal sits in its match, told to the seats.
    round: Option<super::spec::MatchRound>,
}

impl DdzTable {
    /// The game a checked set-up describes; `seed` draws any redeals.
    pub fn new(spec: &DdzSpec, seed: u64) -> DdzTable {
        DdzTable {
            game: Game::new(spec.config, spec.deal, seed),
            rules_name: spec.rules_name,
            scoring: spec.scoring,
            round: spec.round,
        }
    }

    /// This table, its seats told that the deal sits at `round` of its match.
    pub fn in_round(mut self, round: Option<super::spec::MatchRound>) -> DdzTable {
        self.round = round;
        self
    }

    /// A table on a game already set up (the fast path: self-play, matches, panels); the
    /// observation names the rule set after `config.rules`, and the outcome is scored with
    /// `scoring`.
    pub fn from_game(game: Game, scoring: Scoring) -> DdzTable {
        let rules = game.config().rules;
        let rules_name = [
            (RuleSet::COMPETITION, "competition"),
            (RuleSet::DOUZERO, "douzero"),
            (RuleSet::OPENSPIEL, "openspiel"),
        ]
        .into_iter()
        .find_map(|(r, name)| (r == rules).then_some(name))
        .unwrap_or("custom");
        DdzTable {
            game,
            rules_name,
            scoring,
            round: None,
        }
    }

    /// The rules engine's game (hidden information included: referees and tests only).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The rules engine's game, for a caller done with the table.
    pub fn into_game(self) -> Game {
        self.game
    }

    /// The scoring mode.
    pub fn scoring(&self) -> Scoring {
        self.scoring
    }

    fn seat(seat: u32) -> Option<Seat> {
        u8::try_from(seat).ok().and_then(Seat::new)
    }

    /// Legal actions of the seat to act, in the observation's canonical notation.
    fn legal_strings(&self) -> Vec<String> {
        match self.game.phase() {
            Phase::Bidding => self.game.legal_bids().map(|b| b.to_string()).collect(),
            Phase::Doubling => vec!["0".into(), "1".into()],
            Phase::Play => {
                let mut ml = MoveList::new();
                self.game.legal_moves(&mut ml);
                ml.iter().map(|m| m.to_text()).collect()
            }
            Phase::Over => Vec::new(),
        }
    }

    fn expected_kind(&self) -> Option<v1::DecisionKind> {
        self.game.to_act()?;
        Some(match self.game.phase() {
            Phase::Bidding => v1::DecisionKind::Bid,
            Phase::Doubling if self.game.is_redouble_turn() => v1::DecisionKind::Redouble,
            Phase::Doubling => v1::DecisionKind::Double,
            Phase::Play => v1::DecisionKind::Play,
            Phase::Over => return None,
        })
    }

    /// Checks that `pending` is the decision the game waits for.
    fn check_turn(&self, pending: &Pending) -> Result<Seat, Fault> {
        let seat = DdzTable::seat(pending.seat)
            .ok_or_else(|| Fault::illegal(format!("seat {} does not exist", pending.seat)))?;
        match (self.game.to_act(), self.expected_kind()) {
            (Some(s), Some(kind)) if s == seat && kind == pending.kind => Ok(seat),
            (None, _) | (_, None) => Err(Fault::illegal("the game is over")),
            (Some(s), _) => Err(Fault::illegal(format!(
                "it is seat {s}'s turn, not seat {seat}'s"
            ))),
        }
    }
}

/// Why the rules refused an action, in words that hold no hidden cards (a refused play's cards
/// are the bot's own claim, but its hand is not shown).
fn illegal_reason(e: &IllegalMove) -> String {
    match e {
        IllegalMove::NotInHand { cards, .. } => format!("cards {cards} are not all in its hand"),
        other => other.to_string(),
    }
}

/// The referee's reason for refusing `cards` as a play, as every seat's verdict gives it (and a
/// Botzone seat's after the judge's foul name).
pub(crate) fn play_refusal(cards: ddz::CardSet, e: &IllegalMove) -> String {
    format!("play {}: {}", d_cards(cards), illegal_reason(e))
}

fn kind_name(kind: v1::DecisionKind) -> &'static str {
    match kind {
        v1::DecisionKind::Bid => "bid",
        v1::DecisionKind::Double => "double",
        v1::DecisionKind::Redouble => "redouble",
        v1::DecisionKind::Play => "play",
        v1::DecisionKind::Claim => "claim",
        v1::DecisionKind::Turn => "turn",
        v1::DecisionKind::RobKong => "rob-kong",
        v1::DecisionKind::Unspecified => "unspecified",
    }
}

fn decision_name(d: &DdzDecision) -> String {
    match d {
        DdzDecision::Bid(b) => format!("bid {b}"),
        DdzDecision::Double(x) => format!("double {x}"),
        DdzDecision::Play(c) if c.is_empty() => "play pass".to_string(),
        DdzDecision::Play(c) => format!("play {c}"),
    }
}

impl TableGame for DdzTable {
    type Action = Action;
    type View<'a> = Observation<'a>;

    fn game(&self) -> &'static str {
        super::GAME.name()
    }

    fn seat_count(&self) -> usize {
        3
    }

    fn default_policy(&self) -> Policy {
        Policy::Forfeit
    }

    fn pending_into(&self, out: &mut Vec<Pending>) {
        if let (Some(seat), Some(kind)) = (self.game.to_act(), self.expected_kind()) {
            out.push(Pending {
                seat: seat.index() as u32,
                kind,
            });
        }
    }

    fn view(&self, seat: u32) -> Observation<'_> {
        self.game
            .observation(DdzTable::seat(seat).unwrap_or(Seat::ALL[0]))
    }

    fn observation_from(&self, seat: u32, from: usize) -> v1::Observation {
        let Some(s) = DdzTable::seat(seat) else {
            return v1::Observation::default();
        };
        let legal = if self.game.to_act() == Some(s) {
            self.legal_strings()
        } else {
            Vec::new()
        };
        convert::ddz_observation_in(
            &self.game.observation(s),
            self.rules_name,
            legal,
            from,
            self.round,
        )
    }

    fn decode(&self, pending: &Pending, action: &v1::Action) -> Result<Action, Fault> {
        let d = convert::ddz_decision(action).map_err(|e| Fault::malformed(e.0))?;
        let wrong = || {
            Fault::malformed(format!(
                "answered {} to a {} request",
                decision_name(&d),
                kind_name(pending.kind)
            ))
        };
        let action = match (pending.kind, d) {
            (v1::DecisionKind::Bid, DdzDecision::Bid(b)) => match u8::try_from(b) {
                Ok(b) => Action::Bid(b),
                Err(_) => {
                    return Err(Fault::illegal(format!(
                        "bid {b} is not allowed: bid 0 to 3"
                    )));
                }
            },
            (v1::DecisionKind::Double | v1::DecisionKind::Redouble, DdzDecision::Double(x)) => {
                Action::Double(x)
            }
            (v1::DecisionKind::Play, DdzDecision::Play(cards)) => {
                self.check_turn(pending)?;
                let m = self
                    .game
                    .play_state()
                    .check(&self.game.config().rules, cards)
                    .map_err(|e| Fault::illegal(play_refusal(cards, &e)))?;
                Action::Play(m)
            }
            _ => return Err(wrong()),
        };
        self.check(pending, &action)?;
        Ok(action)
    }

    fn check(&self, pending: &Pending, action: &Action) -> Result<(), Fault> {
        self.check_turn(pending)?;
        match (pending.kind, action) {
            (v1::DecisionKind::Bid, Action::Bid(b)) => {
                if self.game.legal_bids().any(|x| x == *b) {
                    Ok(())
                } else {
                    let highest = self.game.observation(Seat::ALL[0]).bid;
                    Err(Fault::illegal(
                        IllegalMove::InvalidBid { bid: *b, highest }.to_string(),
                    ))
                }
            }
            (v1::DecisionKind::Double | v1::DecisionKind::Redouble, Action::Double(_)) => Ok(()),
            (v1::DecisionKind::Play, Action::Play(m)) => {
                let mut p = *self.game.play_state();
                p.apply(*m)
                    .map_err(|e| Fault::illegal(play_refusal(m.cards(), &e)))
            }
            (kind, a) => Err(Fault::illegal(format!(
                "{a:?} does not answer a {} request",
                kind_name(kind)
            ))),
        }
    }

    fn encode(&self, action: &Action) -> v1::Action {
        convert::ddz_action(decision_of(action))
    }

    fn encode_action_into(&self, action: &Action, buf: &mut Vec<u8>) {
        convert::encode_ddz_action(decision_of(action), buf);
    }

    fn automatic(&self, pending: &Pending) -> Action {
        match pending.kind {
            v1::DecisionKind::Bid => Action::Bid(0),
            v1::DecisionKind::Double | v1::DecisionKind::Redouble => Action::Double(false),
            _ => {
                let mut ml = MoveList::new();
                self.game.legal_moves(&mut ml);
                let smallest = ml
                    .iter()
                    .copied()
                    .min_by_key(|m| (!m.is_pass(), m.cards().len(), m.rank()));
                Action::Play(smallest.unwrap_or(Move::PASS))
            }
        }
    }

    fn apply(&mut self, actions: &[(Pending, Action)]) -> Result<(), String> {
        for (p, a) in actions {
            let seat =
                DdzTable::seat(p.seat).ok_or_else(|| format!("seat {} does not exist", p.seat))?;
            self.game
                .apply_as(seat, *a)
                .map_err(|e| format!("seat {seat}: {a:?}: {e}"))?;
        }
        Ok(())
    }

    // Inlined into the fast path's loop wherever the build puts it (self-play's hot path).
    #[inline]
    fn check_and_apply(&mut self, actions: &[(Pending, Action)]) -> Result<(), (u32, Fault)> {
        // The rules engine checks every action as it applies it (and refuses it untouched), so
        // the fast path checks once. Dou Dizhu decides one seat at a time.
        for (p, a) in actions {
            let seat = DdzTable::seat(p.seat).ok_or_else(|| {
                (
                    p.seat,
                    Fault::illegal(format!("seat {} does not exist", p.seat)),
                )
            })?;
            self.game
                .apply_as(seat, *a)
                .map_err(|e| (p.seat, Fault::illegal(illegal_reason(&e))))?;
        }
        Ok(())
    }

    fn outcome(&self) -> Option<v1::Outcome> {
        self.game
            .outcome()
            .map(|o| convert::ddz_outcome(o, self.scoring))
    }

    fn forfeit(&self, seat: u32) -> v1::Outcome {
        let faulty = DdzTable::seat(seat).unwrap_or(Seat::ALL[0]);
        let (landlord, bid) = match self.game.landlord() {
            Some(l) => (l, self.game.observation(l).bid.max(1)),
            None => (faulty, self.game.observation(faulty).bid.max(1)),
        };
        let redoubled = self
            .game
            .events()
            .iter()
            .any(|e| matches!(e, Event::Double { seat, double: true } if *seat == landlord));
        let o = Outcome {
            landlord,
            winner: if faulty == landlord {
                landlord.next()
            } else {
                landlord
            },
            bid,
            bombs: 0,
            rockets: 0,
            spring: false,
            anti_spring: false,
            doubled: self.game.observation(landlord).doubled,
            redoubled,
            ftl_weights: [0; 3],
            forfeit: true,
        };
        convert::ddz_outcome(&o, self.scoring)
    }

    fn encode_history_into(&self, buf: &mut Vec<u8>) {
        convert::encode_ddz_events(self.game.events(), buf);
    }

    fn record_history(&self, replay: &mut v1::Replay) {
        let history = super::pb::History {
            events: self
                .game
                .events()
                .iter()
                .filter_map(convert::ddz_event)
                .collect(),
        };
        replay.history = Some(arena_proto::payload::pack(&history));
    }
}

/// The wire's decision for a rules action.
fn decision_of(action: &Action) -> DdzDecision {
    match *action {
        Action::Bid(b) => DdzDecision::Bid(u32::from(b)),
        Action::Double(x) => DdzDecision::Double(x),
        Action::Play(m) => DdzDecision::Play(m.cards()),
    }
}

fn d_cards(c: ddz::CardSet) -> String {
    if c.is_empty() {
        "pass".into()
    } else {
        c.to_text()
    }
}

/// A built-in Dou Dizhu bot as an in-process player. It sees only its seat's [`Observation`].
pub struct DdzBot {
    bot: Box<dyn Bot>,
    heavy: bool,
    moves: MoveList,
}

impl DdzBot {
    /// The built-in bot `spec` names; `None` for `cmd:` specs (programs, not built-ins).
    pub fn new(spec: &BotSpec) -> Option<DdzBot> {
        Some(DdzBot {
            bot: spec.build_builtin()?,
            heavy: matches!(spec, BotSpec::Search(_)),
            moves: MoveList::new(),
        })
    }

    /// Wraps any [`Bot`]; `heavy` bots run on blocking threads in mixed tables.
    pub fn from_bot(bot: Box<dyn Bot>, heavy: bool) -> DdzBot {
        DdzBot {
            bot,
            heavy,
            moves: MoveList::new(),
        }
    }
}

/// A [`Bot`]'s decision for `pending` from `obs`; `moves` is scratch for the legal plays.
pub(crate) fn bot_decides(
    bot: &mut dyn Bot,
    obs: &Observation<'_>,
    pending: &Pending,
    moves: &mut MoveList,
) -> Action {
    match pending.kind {
        v1::DecisionKind::Bid => Action::Bid(bot.bid(obs)),
        v1::DecisionKind::Double | v1::DecisionKind::Redouble => Action::Double(bot.double(obs)),
        _ => {
            obs.legal_moves(moves);
            Action::Play(bot.play(obs, moves))
        }
    }
}

impl LocalPlayer<DdzTable> for DdzBot {
    fn name(&self) -> String {
        self.bot.name()
    }

    fn is_heavy(&self) -> bool {
        self.heavy
    }

    fn start(&mut self, seat: u32, seed: u64) {
        let seat = DdzTable::seat(seat).unwrap_or(Seat::ALL[0]);
        self.bot.new_game(super::play::bot_seed(seed, seat));
    }

    fn decide(&mut self, view: &Observation<'_>, pending: &Pending) -> Action {
        bot_decides(&mut *self.bot, view, pending, &mut self.moves)
    }

    fn finish(&mut self, view: &Observation<'_>) {
        self.bot.end_game(view);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate;
    use arena_proto::packages::arena::ddz::v1 as ddz_pb;

    fn table(setup: ddz_pb::Setup, seed: u64) -> DdzTable {
        let job = v1::TableJob {
            table_id: "t".into(),
            game: "ddz".into(),
            seats: vec![
                v1::SeatSpec {
                    bot: "expert".into()
                };
                3
            ],
            setup: Some(arena_proto::payload::pack(&setup)),
            seed,
            ..Default::default()
        };
        let spec = validate(&job)
            .unwrap()
            .spec::<crate::ddz::DouDizhu>()
            .cloned()
            .expect("a Dou Dizhu job");
        DdzTable::new(&spec.setup, seed)
    }

    fn play(s: &str) -> v1::Action {
        v1::Action {
            game: Some(arena_proto::payload::pack(&ddz_pb::Action {
                action: Some(ddz_pb::action::Action::Play(s.into())),
            })),
        }
    }

    fn fixed(landlord: u32) -> ddz_pb::Setup {
        ddz_pb::Setup {
            landlord: Some(ddz_pb::setup::Landlord::FixedLandlord(landlord)),
            fixed_bid: 2,
            ..Default::default()
        }
    }

    #[test]
    fn wire_answers_are_malformed_or_illegal_with_reasons_that_hide_the_hand() {
        let t = table(fixed(0), 3);
        let p = t.pending()[0];
        assert_eq!(
            p,
            Pending {
                seat: 0,
                kind: v1::DecisionKind::Play
            }
        );
        let e = t.decode(&p, &play("3X")).unwrap_err();
        assert_eq!(e.kind, v1::VerdictKind::Malformed);
        assert!(e.reason.contains("unknown card character 'X'"), "{e}");
        let bid = convert::ddz_action(DdzDecision::Bid(1));
        let e = t.decode(&p, &bid).unwrap_err();
        assert_eq!(
            (e.kind, e.reason.as_str()),
            (
                v1::VerdictKind::Malformed,
                "answered bid 1 to a play request"
            )
        );
        // Cards not in hand: illegal, and the reason does not show the hand.
        let hand = t.game().hand(Seat::ALL[0]);
        let r = ddz::Rank::ALL
            .into_iter()
            .find(|r| hand.count(*r) < r.copies())
            .unwrap();
        let cards = ddz::CardSet::of(r, hand.count(r) + 1).unwrap().to_string();
        let e = t.decode(&p, &play(&cards)).unwrap_err();
        assert_eq!(e.kind, v1::VerdictKind::Illegal);
        assert!(e.reason.contains("not all in its hand"), "{e}");
        assert!(!e.reason.contains(&hand.to_string()), "{e}");
        let e = t.decode(&p, &play("pass")).unwrap_err();
        assert_eq!(e.kind, v1::VerdictKind::Illegal);
        assert!(e.reason.contains("cannot pass when leading"), "{e}");
        // A legal answer decodes to the move the rules read.
        let lowest = hand.lowest().unwrap();
        let one = ddz::CardSet::of(lowest, 1).unwrap();
        assert_eq!(
            t.decode(&p, &play(&one.to_string())).unwrap(),
            Action::Play(t.game().config().rules.classify(one).unwrap())
        );
    }

    /// The replay's bytes for actions and events are written directly; they must be exactly
    /// what prost writes for the messages `encode` and `record_history` build. Random bots over
    /// many deals, with competition bidding (redeals, bids 0 to 3, doubles and redoubles) and a
    /// fixed landlord, reach every kind of action and event.
    #[test]
    fn actions_and_history_encode_directly_as_their_messages_encode() {
        use prost::Message;
        use std::collections::BTreeSet;
        let mut kinds = BTreeSet::new();
        let mut events = BTreeSet::new();
        for seed in 0..60 {
            let setup = match seed % 3 {
                0 => fixed(seed as u32 % 3),
                1 => ddz_pb::Setup::default(),
                _ => ddz_pb::Setup {
                    doubling: true,
                    ..Default::default()
                },
            };
            let mut t = table(setup, seed);
            let mut bots: Vec<DdzBot> = (0..3)
                .map(|_| DdzBot::new(&"random".parse().unwrap()).unwrap())
                .collect();
            for (i, b) in bots.iter_mut().enumerate() {
                LocalPlayer::<DdzTable>::start(b, i as u32, seed);
            }
            while let Some(p) = t.pending().first().copied() {
                let a = bots[p.seat as usize].decide(&t.view(p.seat), &p);
                let mut direct = Vec::new();
                t.encode_action_into(&a, &mut direct);
                assert_eq!(direct, t.encode(&a).encode_to_vec(), "{a:?}");
                kinds.insert(format!("{:?}", std::mem::discriminant(&a)));
                t.apply(&[(p, a)]).unwrap();
                let mut history = Vec::new();
                t.encode_history_into(&mut history);
                let mut built = v1::Replay::default();
                t.record_history(&mut built);
                assert_eq!(history, built.encode_to_vec(), "seed {seed}");
            }
            for e in t.game().events() {
                let name = format!("{e:?}");
                events.insert(name[..name.find([' ', '(']).unwrap_or(name.len())].to_string());
            }
        }
        assert_eq!(kinds.len(), 3, "bids, doubles and plays were all encoded");
        for kind in ["Bid", "Redeal", "Landlord", "Double", "Play"] {
            assert!(
                events.contains(kind),
                "no {kind} event was encoded: {events:?}"
            );
        }
    }

    #[test]
    fn automatic_actions_pass_or_lead_the_lowest_single() {
        let mut t = table(fixed(1), 4);
        let p = t.pending()[0];
        let Action::Play(m) = t.automatic(&p) else {
            panic!()
        };
        assert_eq!(m.cards().len(), 1);
        assert_eq!(m.cards().lowest(), t.game().hand(Seat::ALL[1]).lowest());
        t.apply(&[(p, Action::Play(m))]).unwrap();
        let p = t.pending()[0];
        assert_eq!(t.automatic(&p), Action::Play(Move::PASS));
        let b = table(ddz_pb::Setup::default(), 4);
        assert_eq!(b.automatic(&b.pending()[0]), Action::Bid(0));
    }

    #[test]
    fn forfeit_makes_the_faulty_side_lose_without_bombs() {
        let t = table(fixed(1), 4);
        // The landlord forfeits: a farmer wins.
        let out = t.forfeit(1);
        let (scores, o) = (out.scores.clone(), convert::outcome_of(&out).unwrap());
        assert_eq!((o.landlord, o.bid, o.bombs), (1, 2, 0));
        assert_ne!(o.winner, 1);
        assert_eq!(scores, vec![2, -4, 2]);
        // A farmer forfeits: the landlord wins, and so does... nobody else.
        let v1::Outcome { scores, .. } = t.forfeit(2);
        assert_eq!(scores, vec![-2, 4, -2]);
        // During bidding the faulty seat is scored as a losing landlord at bid 1 at least.
        let b = table(ddz_pb::Setup::default(), 4);
        let out = b.forfeit(2);
        let (scores, o) = (out.scores.clone(), convert::outcome_of(&out).unwrap());
        assert_eq!((o.landlord, o.bid), (2, 1));
        assert_eq!(scores, vec![1, 1, -2]);
    }

    #[test]
    fn observations_list_legal_actions_only_for_the_seat_to_act() {
        let t = table(ddz_pb::Setup::default(), 4);
        let obs = |s| convert::observation_of(&t.observation(s)).expect("a Dou Dizhu observation");
        assert_eq!(obs(0).legal, ["0", "1", "2", "3"]);
        assert!(obs(1).legal.is_empty());
        assert_eq!(obs(1).hand, t.game().hand(Seat::ALL[1]).to_string());
        assert!(obs(1).bottom.is_empty(), "bottom hidden during bidding");
    }

    #[test]
    fn a_seat_view_holds_its_own_hand_and_only_counts_of_the_others() {
        let t = table(ddz_pb::Setup::default(), 11);
        for seat in 0..3u32 {
            // Destructured without `..`: a field added to the view (another seat's hand, the
            // bottom before it is shown) fails to compile here until this test looks at it.
            let Observation {
                seat: s,
                hand,
                phase,
                rules: _,
                landlord,
                bottom,
                bid: _,
                events,
                cards_left,
                played,
                last_play,
                doubled: _,
            } = t.view(seat);
            assert_eq!(s.index() as u32, seat);
            assert_eq!(hand, t.game().hand(s));
            for other in Seat::ALL.into_iter().filter(|o| *o != s) {
                // Of another seat the view holds how many cards it has, never which.
                assert_eq!(cards_left[other.index()], t.game().hand(other).len() as u8);
                assert!(played[other.index()].is_empty());
            }
            assert_eq!(phase, Phase::Bidding);
            assert_eq!((landlord, bottom, last_play), (None, None, None));
            assert!(events.is_empty());
        }
    }
}
