//! The whole game as a state machine: deal, bidding, doubling, play, outcome.

use crate::{
    CardSet, Deal, DealConstraint, IllegalMove, Move, MoveList, Outcome, PlayState, RuleSet, Seat,
};

/// How the landlord is chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bidding {
    /// Competition bidding from `first`: each seat calls once, 0 (no call) or more than the
    /// highest call so far, at most 3; a call of 3 ends bidding at once. If all three pass, the
    /// next deal of the deal stream is dealt and bidding restarts from `first`. After
    /// `max_redeals` redeals in a row, `first` becomes landlord with a bid of 1 (so a table of
    /// bots that never call still finishes).
    Auction {
        /// The seat that calls first.
        first: Seat,
        /// Redeals before the first bidder is made landlord.
        max_redeals: u32,
    },
    /// No bidding: `landlord` takes the bottom cards at `bid` (difficulty measurement uses this).
    Fixed {
        /// The landlord's seat.
        landlord: Seat,
        /// The bid the game is scored with.
        bid: u8,
    },
}

/// Game options.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameConfig {
    /// Which card multisets are combinations.
    pub rules: RuleSet,
    /// How the landlord is chosen.
    pub bidding: Bidding,
    /// Whether the doubling round is played.
    pub doubling: bool,
}

impl GameConfig {
    /// Competition rules with bidding from seat 0 and the doubling round.
    pub fn competition() -> GameConfig {
        GameConfig {
            rules: RuleSet::COMPETITION,
            bidding: Bidding::Auction {
                first: Seat::ALL[0],
                max_redeals: 3,
            },
            doubling: true,
        }
    }

    /// Seat 0 is landlord at bid 1, no bidding, no doubling: the difficulty-measurement set-up.
    pub fn fixed_landlord() -> GameConfig {
        GameConfig {
            rules: RuleSet::COMPETITION,
            bidding: Bidding::Fixed {
                landlord: Seat::ALL[0],
                bid: 1,
            },
            doubling: false,
        }
    }
}

/// The phase of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Seats call bids.
    Bidding,
    /// Farmers may double, then the landlord may redouble.
    Doubling,
    /// Card play.
    Play,
    /// Finished.
    Over,
}

impl Phase {
    /// The phase's name.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Bidding => "bidding",
            Phase::Doubling => "doubling",
            Phase::Play => "play",
            Phase::Over => "over",
        }
    }
}

/// A decision by the seat to act.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A call of 0 (no call) to 3.
    Bid(u8),
    /// A farmer's double, or the landlord's redouble (`true`), or declining (`false`).
    Double(bool),
    /// A play or a pass.
    Play(Move),
}

/// A public event. The history of a game is its deal(s) plus these events; everything in an
/// event is visible to every seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A seat called (0 = no call).
    Bid {
        /// Who called.
        seat: Seat,
        /// The call.
        bid: u8,
    },
    /// Everyone passed: the cards were dealt again.
    Redeal,
    /// The landlord is known and took the bottom cards, shown to all.
    Landlord {
        /// The landlord.
        seat: Seat,
        /// The winning bid.
        bid: u8,
        /// The bottom cards.
        bottom: CardSet,
    },
    /// A farmer doubled or declined, or the landlord redoubled or declined.
    Double {
        /// Who decided.
        seat: Seat,
        /// Whether it doubled.
        double: bool,
    },
    /// A play (or pass).
    Play {
        /// Who played.
        seat: Seat,
        /// The play.
        #[serde(serialize_with = "move_as_str")]
        play: Move,
    },
    /// The game ended.
    End(Outcome),
}

fn move_as_str<S: serde::Serializer>(m: &Move, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(m)
}

/// A seat's view of the game: its own hand and public information, nothing else.
#[derive(Copy, Clone, Debug)]
pub struct Observation<'a> {
    /// The observing seat.
    pub seat: Seat,
    /// Its current hand.
    pub hand: CardSet,
    /// The phase.
    pub phase: Phase,
    /// The rule set in force.
    pub rules: &'a RuleSet,
    /// The landlord, once known.
    pub landlord: Option<Seat>,
    /// The bottom cards, once shown.
    pub bottom: Option<CardSet>,
    /// The highest bid so far (the winning bid once bidding is over).
    pub bid: u8,
    /// Every public event so far.
    pub events: &'a [Event],
    /// Cards left in each hand.
    pub cards_left: [u8; 3],
    /// Cards each seat has played.
    pub played: [CardSet; 3],
    /// The play to beat and who made it; `None` on a free lead or outside play.
    pub last_play: Option<(Seat, Move)>,
    /// Which seats doubled.
    pub doubled: [bool; 3],
}

impl Observation<'_> {
    /// Cards this seat cannot see: everything not in its hand and not yet played.
    pub fn unseen(&self) -> CardSet {
        let played = self.played.iter().fold(CardSet::EMPTY, |a, &p| a + p);
        CardSet::DECK - self.hand - played
    }

    /// The play to beat, or the pass on a free lead.
    pub fn to_beat(&self) -> Move {
        self.last_play.map_or(Move::PASS, |(_, m)| m)
    }

    /// Legal moves for this seat if it is to play.
    pub fn legal_moves(&self, out: &mut MoveList) {
        if self.last_play.is_none() {
            self.rules.leads(self.hand, out);
        } else {
            self.rules.follows(self.hand, self.to_beat(), out);
        }
    }
}

/// A game of Dou Dizhu from the deal to the outcome.
#[derive(Clone, Debug)]
pub struct Game {
    config: GameConfig,
    seed: u64,
    constraint: DealConstraint,
    deal_index: u64,
    deal: Deal,
    phase: Phase,
    to_act: Seat,
    bids_made: u8,
    highest: (u8, Seat),
    redeals: u32,
    landlord: Seat,
    bid: u8,
    doubled: [bool; 3],
    redoubled: bool,
    play: PlayState,
    played: [CardSet; 3],
    events: Vec<Event>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game on `deal`. With auction bidding, redeals draw deals `seed` / index 1, 2, … (the
    /// deal itself is taken as index 0 of the stream).
    pub fn new(config: GameConfig, deal: Deal, seed: u64) -> Game {
        let mut g = Game {
            config,
            seed,
            constraint: DealConstraint::NONE,
            deal_index: 0,
            deal,
            phase: Phase::Bidding,
            to_act: Seat::ALL[0],
            bids_made: 0,
            highest: (0, Seat::ALL[0]),
            redeals: 0,
            landlord: Seat::ALL[0],
            bid: 0,
            doubled: [false; 3],
            redoubled: false,
            play: PlayState::new(deal.hands, Seat::ALL[0]),
            played: [CardSet::EMPTY; 3],
            events: Vec::with_capacity(128),
            outcome: None,
        };
        match config.bidding {
            Bidding::Auction { first, .. } => g.to_act = first,
            Bidding::Fixed { landlord, bid } => g.start_play_phase(landlord, bid),
        }
        g
    }

    /// A game whose deals (the first and any redeals) are deals 0, 1, 2, … of `seed`.
    pub fn from_seed(
        config: GameConfig,
        seed: u64,
        constraint: DealConstraint,
    ) -> Result<Game, crate::DealError> {
        let deal = Deal::generate_with(seed, 0, &constraint)?;
        let mut g = Game::new(config, deal, seed);
        g.constraint = constraint;
        Ok(g)
    }

    fn start_play_phase(&mut self, landlord: Seat, bid: u8) {
        self.landlord = landlord;
        self.bid = bid;
        self.events.push(Event::Landlord {
            seat: landlord,
            bid,
            bottom: self.deal.bottom,
        });
        self.play = PlayState::new(self.deal.hands_with_landlord(landlord), landlord);
        if self.config.doubling {
            self.phase = Phase::Doubling;
            self.to_act = landlord.next();
        } else {
            self.phase = Phase::Play;
            self.to_act = landlord;
        }
    }

    /// The options this game runs under.
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// The current deal (after any redeals).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// How many times the cards were redealt.
    pub fn redeals(&self) -> u32 {
        self.redeals
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat to act, or `None` when the game is over.
    pub fn to_act(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.to_act)
    }

    /// The landlord, once known.
    pub fn landlord(&self) -> Option<Seat> {
        matches!(self.phase, Phase::Doubling | Phase::Play | Phase::Over).then_some(self.landlord)
    }

    /// The public history.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The card-play state (meaningful once play has started).
    pub fn play_state(&self) -> &PlayState {
        &self.play
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The current hand of `seat`. This is hidden information: only referees and tests use it.
    pub fn hand(&self, seat: Seat) -> CardSet {
        match self.phase {
            Phase::Bidding => self.deal.hands[seat.index()],
            _ => self.play.hand(seat),
        }
    }

    /// What `seat` may see.
    pub fn observation(&self, seat: Seat) -> Observation<'_> {
        let in_play = matches!(self.phase, Phase::Play | Phase::Over);
        let landlord = self.landlord();
        let mut cards_left = [17u8; 3];
        for s in Seat::ALL {
            cards_left[s.index()] = self.hand(s).len() as u8;
        }
        Observation {
            seat,
            hand: self.hand(seat),
            phase: self.phase,
            rules: &self.config.rules,
            landlord,
            bottom: landlord.map(|_| self.deal.bottom),
            bid: if landlord.is_some() {
                self.bid
            } else {
                self.highest.0
            },
            events: &self.events,
            cards_left,
            played: self.played,
            last_play: if in_play { self.play.last_play() } else { None },
            doubled: self.doubled,
        }
    }

    /// Legal plays for the seat to act during play, into `out` (cleared; empty in other phases).
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.phase == Phase::Play {
            self.play.legal_moves(&self.config.rules, out);
        }
    }

    /// Legal bids for the seat to act: 0 and every call above the highest, up to 3.
    pub fn legal_bids(&self) -> impl Iterator<Item = u8> + use<> {
        let h = self.highest.0;
        std::iter::once(0).chain(h + 1..=3)
    }

    /// True if the seat to act in the doubling round is the landlord (deciding a redouble).
    pub fn is_redouble_turn(&self) -> bool {
        self.phase == Phase::Doubling && self.to_act == self.landlord
    }

    /// Applies the action of the seat to act. On error nothing changes.
    pub fn apply(&mut self, action: Action) -> Result<(), IllegalMove> {
        match (self.phase, action) {
            (Phase::Over, _) => Err(IllegalMove::GameOver),
            (Phase::Bidding, Action::Bid(b)) => self.bid_action(b),
            (Phase::Doubling, Action::Double(d)) => {
                self.double_action(d);
                Ok(())
            }
            (Phase::Play, Action::Play(m)) => self.play_action(m),
            (phase, a) => Err(IllegalMove::WrongPhase {
                action: match a {
                    Action::Bid(_) => "bid",
                    Action::Double(_) => "double",
                    Action::Play(_) => "play",
                },
                phase: phase.name(),
            }),
        }
    }

    /// Applies `action` on behalf of `seat`, refusing it if `seat` is not the one to act.
    pub fn apply_as(&mut self, seat: Seat, action: Action) -> Result<(), IllegalMove> {
        match self.to_act() {
            None => Err(IllegalMove::GameOver),
            Some(expected) if expected != seat => Err(IllegalMove::NotYourTurn { seat, expected }),
            Some(_) => self.apply(action),
        }
    }

    /// Plays raw cards (empty = pass) for the seat to act, reading them under the game's rules.
    pub fn play_cards(&mut self, cards: CardSet) -> Result<Move, IllegalMove> {
        if self.phase != Phase::Play {
            return Err(if self.phase == Phase::Over {
                IllegalMove::GameOver
            } else {
                IllegalMove::WrongPhase {
                    action: "play",
                    phase: self.phase.name(),
                }
            });
        }
        let m = self.play.check(&self.config.rules, cards)?;
        self.play_action(m)?;
        Ok(m)
    }

    fn bid_action(&mut self, b: u8) -> Result<(), IllegalMove> {
        let highest = self.highest.0;
        if b > 3 || (b != 0 && b <= highest) {
            return Err(IllegalMove::InvalidBid { bid: b, highest });
        }
        let seat = self.to_act;
        self.events.push(Event::Bid { seat, bid: b });
        if b > highest {
            self.highest = (b, seat);
        }
        self.bids_made += 1;
        if b == 3 || (self.bids_made == 3 && self.highest.0 > 0) {
            let (bid, landlord) = self.highest;
            self.start_play_phase(landlord, bid);
        } else if self.bids_made == 3 {
            let Bidding::Auction { first, max_redeals } = self.config.bidding else {
                unreachable!("bidding phase only exists with auction bidding");
            };
            if self.redeals >= max_redeals {
                self.start_play_phase(first, 1);
            } else {
                self.redeals += 1;
                self.deal_index += 1;
                self.deal = Deal::generate_with(self.seed, self.deal_index, &self.constraint)
                    .unwrap_or_else(|_| Deal::generate(self.seed, self.deal_index));
                self.events.push(Event::Redeal);
                self.bids_made = 0;
                self.highest = (0, first);
                self.to_act = first;
            }
        } else {
            self.to_act = seat.next();
        }
        Ok(())
    }

    fn double_action(&mut self, d: bool) {
        let seat = self.to_act;
        self.events.push(Event::Double { seat, double: d });
        if seat == self.landlord {
            self.redoubled = d;
            self.enter_play();
            return;
        }
        self.doubled[seat.index()] = d;
        let next = seat.next();
        if next != self.landlord {
            self.to_act = next;
        } else if self.doubled.iter().any(|&x| x) {
            self.to_act = self.landlord;
        } else {
            self.enter_play();
        }
    }

    fn enter_play(&mut self) {
        self.phase = Phase::Play;
        self.to_act = self.landlord;
    }

    /// Each seat's FightTheLandlord weights over the plays of the deal (once, at its end).
    fn ftl_weights(&self) -> [u16; 3] {
        let mut w = [0u16; 3];
        for e in &self.events {
            match *e {
                Event::Redeal => w = [0; 3],
                Event::Play { seat, play } => {
                    let add = u16::try_from(crate::botzone::ftl_move_weight(play)).unwrap_or(0);
                    w[seat.index()] = w[seat.index()].saturating_add(add);
                }
                _ => {}
            }
        }
        w
    }

    fn play_action(&mut self, m: Move) -> Result<(), IllegalMove> {
        let seat = self.play.turn();
        self.play.apply(m)?;
        self.played[seat.index()] = self.played[seat.index()] + m.cards();
        self.events.push(Event::Play { seat, play: m });
        if let Some(winner) = self.play.winner() {
            let o = Outcome {
                landlord: self.landlord,
                winner,
                bid: self.bid,
                bombs: self.play.bombs(),
                rockets: self.play.rockets(),
                spring: self.play.is_spring(),
                anti_spring: self.play.is_anti_spring(),
                doubled: self.doubled,
                redoubled: self.redoubled,
                ftl_weights: self.ftl_weights(),
                forfeit: false,
            };
            self.outcome = Some(o);
            self.events.push(Event::End(o));
            self.phase = Phase::Over;
        } else {
            self.to_act = self.play.turn();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scoring;

    #[test]
    fn a_finished_game_keeps_each_seats_fightthelandlord_weights() {
        // The landlord plays 34567 (6), bombs the farmer's 6789T (6) with 2222 (10), then
        // plays the plane 888999TTT (8) and the rocket (16) and wins: 40, 6 and 0.
        let deal: crate::Deal = "BR2222345678899TT/6789T333444555JJQ/6677JJQQQKKKKAAAA/89T"
            .parse()
            .unwrap();
        let mut g = Game::new(GameConfig::fixed_landlord(), deal, 1);
        let rules = g.config().rules;
        for cards in [
            "34567",
            "6789T",
            "pass",
            "2222",
            "pass",
            "pass",
            "888999TTT",
            "pass",
            "pass",
            "BR",
        ] {
            let set = if cards == "pass" {
                crate::CardSet::EMPTY
            } else {
                cards.parse().unwrap()
            };
            let m = g.play_state().check(&rules, set).unwrap();
            g.apply(Action::Play(m)).unwrap();
        }
        let o = g.outcome().unwrap();
        assert!(o.landlord_won());
        assert_eq!(o.ftl_weights, [40, 6, 0]);
        assert!(!o.forfeit);
        // The judge: landlord 2 + 0.40 = 2.4 → 480; farmers (0.06 + 0) / 2 = 0.03 → 6.
        assert_eq!(o.scores(Scoring::BotzoneFtl), [480, 6, 6]);
    }

    fn seat(i: u8) -> Seat {
        Seat::new(i).unwrap()
    }

    fn auction() -> GameConfig {
        GameConfig::competition()
    }

    #[test]
    fn a_call_of_three_ends_bidding_at_once() {
        let mut g = Game::from_seed(auction(), 5, DealConstraint::NONE).unwrap();
        g.apply(Action::Bid(1)).unwrap();
        g.apply(Action::Bid(3)).unwrap();
        assert_eq!(g.phase(), Phase::Doubling);
        assert_eq!(g.landlord(), Some(seat(1)));
        assert_eq!(g.hand(seat(1)).len(), 20);
        assert_eq!(g.hand(seat(0)).len(), 17);
        assert!(matches!(
            g.events().last(),
            Some(Event::Landlord { bid: 3, .. })
        ));
    }

    #[test]
    fn bids_must_rise() {
        let mut g = Game::from_seed(auction(), 5, DealConstraint::NONE).unwrap();
        g.apply(Action::Bid(2)).unwrap();
        assert_eq!(
            g.apply(Action::Bid(2)),
            Err(IllegalMove::InvalidBid { bid: 2, highest: 2 })
        );
        assert_eq!(
            g.apply(Action::Bid(4)),
            Err(IllegalMove::InvalidBid { bid: 4, highest: 2 })
        );
        assert_eq!(g.legal_bids().collect::<Vec<_>>(), [0, 3]);
        g.apply(Action::Bid(0)).unwrap();
        g.apply(Action::Bid(0)).unwrap();
        assert_eq!(g.landlord(), Some(seat(0)));
        assert_eq!(g.observation(seat(2)).bid, 2);
    }

    #[test]
    fn all_pass_redeals_from_the_stream_then_forces_the_first_bidder() {
        let mut g = Game::from_seed(auction(), 5, DealConstraint::NONE).unwrap();
        let first = *g.deal();
        for _ in 0..3 {
            g.apply(Action::Bid(0)).unwrap();
        }
        assert_eq!(g.redeals(), 1);
        assert_eq!(*g.deal(), Deal::generate(5, 1));
        assert_ne!(*g.deal(), first);
        assert_eq!(g.phase(), Phase::Bidding);
        assert_eq!(g.to_act(), Some(seat(0)));
        for _ in 0..9 {
            g.apply(Action::Bid(0)).unwrap();
        }
        assert_eq!(g.redeals(), 3);
        assert_eq!(g.landlord(), Some(seat(0)));
    }

    #[test]
    fn doubling_round_order_and_redouble_only_after_a_double() {
        let mut g = Game::from_seed(auction(), 5, DealConstraint::NONE).unwrap();
        g.apply(Action::Bid(3)).unwrap(); // seat 0 landlord
        assert_eq!(g.to_act(), Some(seat(1)));
        g.apply(Action::Double(false)).unwrap();
        g.apply(Action::Double(false)).unwrap();
        // Nobody doubled: no redouble turn, play starts with the landlord.
        assert_eq!(g.phase(), Phase::Play);
        assert_eq!(g.to_act(), Some(seat(0)));

        let mut g = Game::from_seed(auction(), 5, DealConstraint::NONE).unwrap();
        g.apply(Action::Bid(3)).unwrap();
        g.apply(Action::Double(true)).unwrap();
        g.apply(Action::Double(false)).unwrap();
        assert!(g.is_redouble_turn());
        g.apply(Action::Double(true)).unwrap();
        assert_eq!(g.phase(), Phase::Play);
        assert_eq!(
            g.apply(Action::Bid(1)),
            Err(IllegalMove::WrongPhase {
                action: "bid",
                phase: "play"
            })
        );
    }

    #[test]
    fn observation_hides_other_hands() {
        let mut g =
            Game::from_seed(GameConfig::fixed_landlord(), 11, DealConstraint::NONE).unwrap();
        let o = g.observation(seat(1));
        assert_eq!(o.hand, g.hand(seat(1)));
        assert_eq!(o.cards_left, [20, 17, 17]);
        assert_eq!(o.bottom, Some(g.deal().bottom));
        assert_eq!(o.unseen().len(), 37);
        assert!((o.unseen() + o.hand) == CardSet::DECK);
        let mut ml = MoveList::new();
        g.legal_moves(&mut ml);
        let m = ml[0];
        g.apply(Action::Play(m)).unwrap();
        let o = g.observation(seat(2));
        assert_eq!(o.played[0], m.cards());
        assert_eq!(o.last_play, Some((seat(0), m)));
    }

    #[test]
    fn apply_as_checks_the_turn() {
        let mut g =
            Game::from_seed(GameConfig::fixed_landlord(), 11, DealConstraint::NONE).unwrap();
        assert_eq!(
            g.apply_as(seat(2), Action::Play(Move::PASS)),
            Err(IllegalMove::NotYourTurn {
                seat: seat(2),
                expected: seat(0)
            })
        );
        let lowest = g.hand(seat(0)).lowest().unwrap();
        let m = g.play_cards(CardSet::of(lowest, 1).unwrap()).unwrap();
        assert_eq!(m.kind(), crate::Kind::Single);
    }

    #[test]
    fn a_full_game_ends_with_a_scored_outcome() {
        let mut g = Game::from_seed(auction(), 3, DealConstraint::NONE).unwrap();
        let mut ml = MoveList::new();
        while let Some(_seat) = g.to_act() {
            match g.phase() {
                Phase::Bidding => g
                    .apply(Action::Bid(g.legal_bids().last().unwrap()))
                    .unwrap(),
                Phase::Doubling => g.apply(Action::Double(true)).unwrap(),
                Phase::Play => {
                    g.legal_moves(&mut ml);
                    // Always the last generated move: biggest plays first, a deterministic line.
                    g.apply(Action::Play(ml[ml.len() - 1])).unwrap();
                }
                Phase::Over => unreachable!(),
            }
        }
        let o = *g.outcome().unwrap();
        assert!(matches!(g.events().last(), Some(Event::End(_))));
        assert_eq!(
            (o.landlord, o.bid, o.doubled, o.redoubled),
            (seat(0), 3, [false, true, true], true)
        );
        assert_eq!(o.scores(Scoring::Competition).iter().sum::<i64>(), 0);
        assert_eq!(
            g.apply(Action::Play(Move::PASS)),
            Err(IllegalMove::GameOver)
        );
    }
}
