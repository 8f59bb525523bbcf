//! The card-play phase as a small `Copy` value, for simulation and search.

use crate::{CardSet, IllegalMove, Move, MoveList, Role, RuleSet, Seat};

/// Everything that decides the rest of a game once the landlord is known and holds 20 cards.
///
/// 64 bytes, `Copy`: search bots copy it for every rollout. [`crate::Game`] keeps one inside and
/// adds bidding, doubling and the event history around it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayState {
    hands: [CardSet; 3],
    landlord: Seat,
    turn: Seat,
    /// The play to beat, or the pass on a free lead.
    last: Move,
    last_seat: Seat,
    passes: u8,
    bombs: u8,
    rockets: u8,
    plays: [u8; 3],
    winner: Option<Seat>,
}

impl PlayState {
    /// The start of play: `hands` by seat (the landlord's with the bottom cards), landlord to lead.
    pub fn new(hands: [CardSet; 3], landlord: Seat) -> PlayState {
        PlayState {
            hands,
            landlord,
            turn: landlord,
            last: Move::PASS,
            last_seat: landlord,
            passes: 0,
            bombs: 0,
            rockets: 0,
            plays: [0; 3],
            winner: None,
        }
    }

    /// A state in the middle of play, e.g. one sampled by a search bot: `hands` by seat, the
    /// seat to act, the play to beat (pass on a free lead) and who made it, and the counts
    /// that scoring needs (bombs, rockets, non-pass plays per seat). `passes` is how many passes
    /// followed `last` (0 or 1; two passes make a free lead).
    #[allow(clippy::too_many_arguments)]
    pub fn resume(
        hands: [CardSet; 3],
        landlord: Seat,
        turn: Seat,
        last: Move,
        last_seat: Seat,
        passes: u8,
        bombs: u8,
        rockets: u8,
        plays: [u8; 3],
    ) -> PlayState {
        let winner = Seat::ALL.into_iter().find(|s| hands[s.index()].is_empty());
        PlayState {
            hands,
            landlord,
            turn,
            last,
            last_seat,
            passes: passes.min(1),
            bombs,
            rockets,
            plays,
            winner,
        }
    }

    /// Passes since the play to beat (0 or 1).
    #[inline]
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The seat to act (meaningless once the game is over).
    #[inline]
    pub fn turn(&self) -> Seat {
        self.turn
    }

    /// The landlord's seat.
    #[inline]
    pub fn landlord(&self) -> Seat {
        self.landlord
    }

    /// The cards `seat` still holds.
    #[inline]
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat.index()]
    }

    /// All three hands by seat.
    #[inline]
    pub fn hands(&self) -> [CardSet; 3] {
        self.hands
    }

    /// The play to beat and who made it, or `None` on a free lead.
    #[inline]
    pub fn last_play(&self) -> Option<(Seat, Move)> {
        if self.last.is_pass() {
            None
        } else {
            Some((self.last_seat, self.last))
        }
    }

    /// The play to beat, or [`Move::PASS`] on a free lead.
    #[inline]
    pub fn to_beat(&self) -> Move {
        self.last
    }

    /// Bombs played so far (the rocket not included).
    #[inline]
    pub fn bombs(&self) -> u8 {
        self.bombs
    }

    /// Rockets played so far (0 or 1).
    #[inline]
    pub fn rockets(&self) -> u8 {
        self.rockets
    }

    /// Non-pass plays made by each seat.
    #[inline]
    pub fn plays(&self) -> [u8; 3] {
        self.plays
    }

    /// The seat that went out first, once the game is over.
    #[inline]
    pub fn winner(&self) -> Option<Seat> {
        self.winner
    }

    /// True once a seat has played its last card.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// True if the landlord's side won (only meaningful once over).
    #[inline]
    pub fn landlord_won(&self) -> bool {
        self.winner == Some(self.landlord)
    }

    /// The role of the seat to act.
    #[inline]
    pub fn role_to_act(&self) -> Role {
        self.turn.role(self.landlord)
    }

    /// Legal moves for the seat to act into `out`: leads on a free lead, else pass and beating plays.
    #[inline]
    pub fn legal_moves(&self, rules: &RuleSet, out: &mut MoveList) {
        let hand = self.hands[self.turn.index()];
        if self.last.is_pass() {
            rules.leads(hand, out);
        } else {
            rules.follows(hand, self.last, out);
        }
    }

    /// Checks `cards` as the next play and reads it as a move (an empty set is a pass).
    pub fn check(&self, rules: &RuleSet, cards: CardSet) -> Result<Move, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        rules.check_play(self.hands[self.turn.index()], self.last, cards)
    }

    /// Plays `mv` for the seat to act after checking it is legal; on error nothing changes.
    pub fn apply(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let hand = self.hands[self.turn.index()];
        if mv.is_pass() {
            if self.last.is_pass() {
                return Err(IllegalMove::PassOnLead);
            }
        } else if !mv.cards().is_subset_of(hand) {
            return Err(IllegalMove::NotInHand {
                cards: mv.cards(),
                hand,
            });
        } else if !self.last.is_pass() && !mv.beats(self.last) {
            return Err(IllegalMove::DoesNotBeat {
                play: mv,
                prev: self.last,
            });
        }
        self.apply_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` for the seat to act. `mv` must be one of [`PlayState::legal_moves`]; anything
    /// else leaves the state inconsistent (checked in debug builds).
    #[inline]
    pub fn apply_unchecked(&mut self, mv: Move) {
        let t = self.turn.index();
        if mv.is_pass() {
            debug_assert!(!self.last.is_pass(), "pass on lead");
            self.passes += 1;
            if self.passes == 2 {
                // Both others passed: the last player leads freely.
                self.last = Move::PASS;
                self.passes = 0;
            }
        } else {
            self.hands[t] = self.hands[t] - mv.cards();
            self.last = mv;
            self.last_seat = self.turn;
            self.passes = 0;
            self.plays[t] += 1;
            match mv.kind() {
                crate::Kind::Bomb => self.bombs += 1,
                crate::Kind::Rocket => self.rockets += 1,
                _ => {}
            }
            if self.hands[t].is_empty() {
                self.winner = Some(self.turn);
            }
        }
        self.turn = self.turn.next();
    }

    /// Spring: the landlord won and neither farmer played a card.
    pub fn is_spring(&self) -> bool {
        self.landlord_won()
            && self
                .plays
                .iter()
                .enumerate()
                .all(|(i, &p)| i == self.landlord.index() || p == 0)
    }

    /// Anti-spring: the farmers won and the landlord played only its first hand.
    pub fn is_anti_spring(&self) -> bool {
        self.is_over() && !self.landlord_won() && self.plays[self.landlord.index()] == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(i: u8) -> Seat {
        Seat::new(i).unwrap()
    }

    fn cs(s: &str) -> CardSet {
        s.parse().unwrap()
    }

    #[test]
    fn two_passes_give_a_free_lead_to_the_last_player() {
        let rules = RuleSet::COMPETITION;
        let mut st = PlayState::new([cs("345"), cs("6"), cs("7")], seat(0));
        st.apply(rules.classify(cs("3")).unwrap()).unwrap();
        assert_eq!(st.turn(), seat(1));
        st.apply(Move::PASS).unwrap();
        st.apply(Move::PASS).unwrap();
        assert_eq!(st.turn(), seat(0));
        assert_eq!(st.last_play(), None);
        assert_eq!(st.apply(Move::PASS), Err(IllegalMove::PassOnLead));
        st.apply(rules.classify(cs("4")).unwrap()).unwrap();
        let five = rules.classify(cs("5")).unwrap();
        assert!(matches!(st.apply(five), Err(IllegalMove::NotInHand { .. })));
        st.apply(rules.classify(cs("6")).unwrap()).unwrap();
        assert_eq!(st.winner(), Some(seat(1)));
        assert!(!st.landlord_won());
        assert!(!st.is_anti_spring(), "landlord played twice");
        assert_eq!(st.apply(Move::PASS), Err(IllegalMove::GameOver));
    }

    #[test]
    fn spring_and_anti_spring() {
        let rules = RuleSet::COMPETITION;
        let mut st = PlayState::new([cs("3345"), cs("6"), cs("7")], seat(1));
        // Seat 1 (landlord) goes out at once: spring.
        st.apply(rules.classify(cs("6")).unwrap()).unwrap();
        assert!(st.landlord_won() && st.is_spring());

        let mut st = PlayState::new([cs("3"), cs("45"), cs("2")], seat(1));
        st.apply(rules.classify(cs("4")).unwrap()).unwrap();
        st.apply(rules.classify(cs("2")).unwrap()).unwrap();
        assert!(!st.landlord_won() && st.is_anti_spring());
    }
}
