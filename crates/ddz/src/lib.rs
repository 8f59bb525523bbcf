//! Dou Dizhu (竞技二打一) rules: cards, combinations, legal moves, the game from deal to score,
//! seeded deals and hand analysis.
//!
//! The crate is pure: no I/O, no clocks, no async, and every random choice comes from a seed.
//! The vocabulary is a few small `Copy` types:
//!
//! - [`Rank`] and [`CardSet`] (a multiset of cards in one `u64`) with the card notation;
//! - [`Move`], a card set read as one combination under a [`RuleSet`];
//! - [`MoveList`], a reusable buffer filled by [`RuleSet::leads`] and [`RuleSet::follows`];
//! - [`PlayState`], the compact state of the card-play phase that search bots copy freely;
//! - [`Game`], the full state machine (bidding, doubling, play) with its public [`Event`] history
//!   and per-seat [`Observation`]s;
//! - [`Outcome`] scored by any [`Scoring`] mode;
//! - [`Deal`] from a documented seeded generator, optionally constrained ([`DealConstraint`]);
//! - [`analysis`]: the seed algorithm's greedy decomposition and an exact minimum decomposition.
//!
//! ```
//! use ddz::{CardSet, MoveList, RuleSet};
//! let hand: CardSet = "333444555666789TJQKA".parse().unwrap();
//! let mut moves = MoveList::new();
//! RuleSet::COMPETITION.leads(hand, &mut moves);
//! assert_eq!(moves.len(), 519);
//! ```

pub mod analysis;
pub mod botzone;
mod cards;
mod combo;
mod deal;
mod game;
mod movegen;
mod play;
mod rank;
mod score;
mod seat;

pub use cards::{CardParseError, CardSet};
pub use combo::{ComboError, Kind, MAX_PLAY_CARDS, Move, RuleSet};
pub use deal::{Deal, DealConstraint, DealError, DealParseError, DealRng};
pub use game::{Action, Bidding, Event, Game, GameConfig, Observation, Phase};
pub use movegen::MoveList;
pub use play::PlayState;
pub use rank::Rank;
pub use score::{Outcome, Scoring};
pub use seat::{Role, Seat};

/// Why an action was refused. The game state is unchanged when this is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The cards are not all in the player's hand.
    #[error("cards {cards} are not all in hand {hand}")]
    NotInHand {
        /// The cards played.
        cards: CardSet,
        /// The player's hand.
        hand: CardSet,
    },
    /// The cards form no combination.
    #[error("not a combination: {0}")]
    NotACombination(ComboError),
    /// The play does not beat the play on the table.
    #[error("{play} ({kind}) does not beat {prev} ({prev_kind})", kind = play.kind(), prev_kind = prev.kind())]
    DoesNotBeat {
        /// The attempted play.
        play: Move,
        /// The play to beat.
        prev: Move,
    },
    /// A pass on a free lead.
    #[error("cannot pass when leading")]
    PassOnLead,
    /// The seat is not the one to act.
    #[error("it is seat {expected}'s turn, not seat {seat}'s")]
    NotYourTurn {
        /// Who tried to act.
        seat: Seat,
        /// Who is to act.
        expected: Seat,
    },
    /// The action does not fit the phase (e.g. a bid during play).
    #[error("a {action} is not allowed in the {phase} phase")]
    WrongPhase {
        /// What was attempted.
        action: &'static str,
        /// The current phase.
        phase: &'static str,
    },
    /// A bid that is neither 0 nor above the highest bid, or above 3.
    #[error("bid {bid} is not allowed: bid 0 (no call) or more than {highest}, at most 3")]
    InvalidBid {
        /// The bid made.
        bid: u8,
        /// The highest bid so far.
        highest: u8,
    },
    /// A redouble offered when no farmer doubled.
    #[error("the landlord may only redouble when a farmer doubled")]
    NothingToRedouble,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}
