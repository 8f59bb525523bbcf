//! The hand as a state machine: who is asked what, which answers are legal, and how all the
//! answers to one decision are settled together.
//!
//! A hand moves through [`Phase`]s. On a [`Phase::Turn`] the actor alone answers (discard, win
//! on its draw, concealed or added kong). After a discard every other seat answers
//! ([`Phase::Claims`]); the answers are settled together: a win beats a kong or pung, which
//! beat a chow; of several winners the first seat after the discarder in turn order wins. After
//! an added kong every other seat answers whether it robs the kong ([`Phase::RobKong`]).
//!
//! Nothing on the hot path allocates: the legal actions go into a fixed-capacity
//! [`ActionList`], events into a fixed array. Only scoring a win (once per hand) may.

use std::fmt;

use crate::action::{Action, ActionList};
use crate::fan::{self, FanResult, WinHand};
use crate::meld::{KongKind, Meld};
use crate::rules::{Reading, Rules};
use crate::sets::SeatSet;
use crate::shape;
use crate::tile::{Counts, TILE_KINDS, Tile};
use crate::wall::{DEALT_TILES, Deal, WALL_TILES, Wall};

/// What the hand is waiting for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `seat` acts: discard, win on its draw, or declare a kong.
    Turn {
        /// The actor.
        seat: u8,
    },
    /// The other three seats answer `discarder`'s discard of `tile`.
    Claims {
        /// Who discarded.
        discarder: u8,
        /// The discarded tile.
        tile: Tile,
    },
    /// The other three seats answer whether they rob `seat`'s added kong of `tile`.
    RobKong {
        /// Who added to a pung.
        seat: u8,
        /// The added tile.
        tile: Tile,
    },
    /// The hand is over (won or drawn).
    Over,
}

/// One step of the hand's history.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// `seat` drew `tile` (a kong replacement too).
    Draw {
        /// Who drew.
        seat: u8,
        /// The tile drawn.
        tile: Tile,
    },
    /// `seat` discarded `tile`.
    Discard {
        /// Who discarded.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// `seat` chowed the discard `tile`, making the chow starting at `lowest`.
    Chow {
        /// Who chowed.
        seat: u8,
        /// The chow's lowest tile.
        lowest: Tile,
        /// The claimed discard.
        tile: Tile,
    },
    /// `seat` punged the discard `tile`.
    Pung {
        /// Who punged.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// `seat` made an exposed kong on the discard `tile`.
    Kong {
        /// Who konged.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// `seat` declared a concealed kong of `tile`.
    ConcealedKong {
        /// Who konged.
        seat: u8,
        /// The kind (hidden from the other seats).
        tile: Tile,
    },
    /// `seat` added `tile` to its melded pung.
    AddedKong {
        /// Who konged.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// `seat`'s chow lost to a pung or kong on the same discard.
    ChowFailed {
        /// The seat that asked to chow.
        seat: u8,
    },
    /// `seat` won on `tile`: its own draw (`from` = `None`), a discard, or a robbed kong.
    Win {
        /// The winner.
        seat: u8,
        /// The discarder (or the kong's owner); `None` for a self-drawn win.
        from: Option<u8>,
        /// The winning tile.
        tile: Tile,
        /// Won by robbing an added kong.
        robbed_kong: bool,
    },
    /// A draw was needed and the wall was empty: the hand is drawn.
    Drawn,
}

/// An [`Event`] as one seat saw it: other seats' draws and concealed-kong tiles hidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SeenEvent {
    /// `seat` drew; the tile only if the viewer drew it.
    Draw {
        /// Who drew.
        seat: u8,
        /// The tile, if the viewer may see it.
        tile: Option<Tile>,
    },
    /// As [`Event::Discard`].
    Discard {
        /// Who discarded.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// As [`Event::Chow`].
    Chow {
        /// Who chowed.
        seat: u8,
        /// The chow's lowest tile.
        lowest: Tile,
        /// The claimed discard.
        tile: Tile,
    },
    /// As [`Event::Pung`].
    Pung {
        /// Who punged.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// As [`Event::Kong`].
    Kong {
        /// Who konged.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// `seat` declared a concealed kong; the kind only if the viewer declared it.
    ConcealedKong {
        /// Who konged.
        seat: u8,
        /// The kind, if the viewer may see it.
        tile: Option<Tile>,
    },
    /// As [`Event::AddedKong`].
    AddedKong {
        /// Who konged.
        seat: u8,
        /// The tile.
        tile: Tile,
    },
    /// As [`Event::ChowFailed`] (every seat may know a chow was asked for and lost).
    ChowFailed {
        /// The seat that asked to chow.
        seat: u8,
    },
    /// As [`Event::Win`].
    Win {
        /// The winner.
        seat: u8,
        /// The discarder or kong owner; `None` for a self-drawn win.
        from: Option<u8>,
        /// The winning tile.
        tile: Tile,
        /// Won by robbing an added kong.
        robbed_kong: bool,
    },
    /// As [`Event::Drawn`].
    Drawn,
}

impl Event {
    /// The event as `viewer` saw it.
    pub fn seen_by(self, viewer: u8) -> SeenEvent {
        match self {
            Event::Draw { seat, tile } => SeenEvent::Draw {
                seat,
                tile: (seat == viewer).then_some(tile),
            },
            Event::Discard { seat, tile } => SeenEvent::Discard { seat, tile },
            Event::Chow { seat, lowest, tile } => SeenEvent::Chow { seat, lowest, tile },
            Event::Pung { seat, tile } => SeenEvent::Pung { seat, tile },
            Event::Kong { seat, tile } => SeenEvent::Kong { seat, tile },
            Event::ConcealedKong { seat, tile } => SeenEvent::ConcealedKong {
                seat,
                tile: (seat == viewer).then_some(tile),
            },
            Event::AddedKong { seat, tile } => SeenEvent::AddedKong { seat, tile },
            Event::ChowFailed { seat } => SeenEvent::ChowFailed { seat },
            Event::Win {
                seat,
                from,
                tile,
                robbed_kong,
            } => SeenEvent::Win {
                seat,
                from,
                tile,
                robbed_kong,
            },
            Event::Drawn => SeenEvent::Drawn,
        }
    }
}

/// A discarded tile, and whether another seat claimed it (then it lies in that seat's meld or
/// winning hand, not among the discards).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Discarded {
    /// The tile.
    pub tile: Tile,
    /// Claimed by a chow, pung, kong or win.
    pub claimed: bool,
}

/// How a hand was won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinInfo {
    /// The winner.
    pub seat: u8,
    /// The discarder (or the robbed kong's owner); `None` for a self-drawn win.
    pub from: Option<u8>,
    /// The winning tile.
    pub tile: Tile,
    /// Won by robbing an added kong.
    pub robbed_kong: bool,
    /// The fans scored.
    pub fans: FanResult,
}

/// The result of a finished hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The win, or `None` for a drawn hand.
    pub win: Option<WinInfo>,
    /// Points won (positive) and paid (negative) by seat; they sum to zero.
    pub scores: [i32; 4],
}

/// The base points of every win.
pub const BASE_POINTS: i32 = 4;

impl Outcome {
    /// A drawn hand: nobody scores.
    pub const DRAWN: Outcome = Outcome {
        win: None,
        scores: [0; 4],
    };

    /// The payments for a win worth `fans` fan points: a self-drawn winner gets `fans + 4`
    /// from each other seat; otherwise the discarder (or kong owner) pays `fans + 4` and the
    /// other two 4 each.
    pub fn payments(winner: u8, from: Option<u8>, fans: u32) -> [i32; 4] {
        let x = BASE_POINTS + fans as i32;
        let mut s = [0i32; 4];
        for seat in 0..4u8 {
            if seat == winner {
                continue;
            }
            let pay = match from {
                None => x,
                Some(f) if f == seat => x,
                Some(_) => BASE_POINTS,
            };
            s[usize::from(seat)] -= pay;
            s[usize::from(winner)] += pay;
        }
        s
    }
}

/// Why an answer is refused. The wording names only the answering seat's own tiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// The hand is over.
    GameOver,
    /// The seat is not asked anything now.
    NotAsked,
    /// The action does not answer the decision the seat faces.
    WrongDecision(Decision),
    /// The seat answered twice.
    Duplicate,
    /// The seat did not answer.
    Missing,
    /// The seat does not hold the tile.
    NotHeld(Tile),
    /// A win or kong on the turn needs a drawn tile; after a chow or pung the claimer discards.
    NoDraw,
    /// The hand does not win with the tile.
    NoWin(Tile),
    /// The hand with its drawn tile does not win.
    NoWinOnDraw,
    /// A concealed kong needs four of the kind in hand.
    NotFour {
        /// The kind.
        tile: Tile,
        /// How many the seat holds.
        have: u8,
    },
    /// An added kong needs a melded pung of the kind.
    NoPung(Tile),
    /// A pung needs two, an exposed kong three of the discarded kind.
    NotEnough {
        /// The kind.
        tile: Tile,
        /// How many are needed.
        need: u8,
        /// How many the seat holds.
        have: u8,
    },
    /// Only the seat after the discarder may chow.
    ChowNotFromNextSeat,
    /// The named chow does not contain the discard (or is no chow).
    ChowMissesDiscard {
        /// The chow's named lowest tile.
        lowest: Tile,
        /// The discard.
        tile: Tile,
    },
    /// The seat lacks a tile the chow needs besides the discard.
    ChowLacks {
        /// The chow's lowest tile.
        lowest: Tile,
        /// The tile missing from the hand.
        missing: Tile,
    },
}

/// The decision one seat faces: what it may be asked, independent of the rest of the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// The actor's turn; `drawn` if it began with a draw (not after a chow or pung).
    Turn {
        /// The turn began with a draw (a kong replacement included).
        drawn: bool,
    },
    /// An answer to a discard of `tile`; `next` if the seat is the one after the discarder
    /// (the only one that may chow).
    Claim {
        /// The discard.
        tile: Tile,
        /// The seat is the one after the discarder.
        next: bool,
    },
    /// An answer to another seat's added kong of `tile`.
    RobKong {
        /// The added tile.
        tile: Tile,
    },
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::Turn { .. } => {
                "it is the seat's turn: the answer is discard, self-drawn-win, concealed-kong or added-kong"
            }
            Decision::Claim { .. } => {
                "the seat is answering a discard: the answer is pass, win, kong, pung or chow"
            }
            Decision::RobKong { .. } => {
                "the seat is answering an added kong: the answer is pass or rob-kong"
            }
        })
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::GameOver => f.write_str("the hand is over"),
            Illegal::NotAsked => f.write_str("the seat is not asked anything now"),
            Illegal::WrongDecision(d) => write!(f, "{d}"),
            Illegal::Duplicate => f.write_str("the seat answered twice"),
            Illegal::Missing => f.write_str("the seat gave no answer"),
            Illegal::NotHeld(t) => write!(f, "the seat holds no {t}"),
            Illegal::NoDraw => f.write_str(
                "no tile was drawn this turn: after a chow or pung the claimer must discard",
            ),
            Illegal::NoWin(t) => write!(f, "the hand does not win with {t}"),
            Illegal::NoWinOnDraw => f.write_str("the hand with its drawn tile does not win"),
            Illegal::NotFour { tile, have } => {
                write!(
                    f,
                    "a concealed kong needs four {tile} in hand; the seat holds {have}"
                )
            }
            Illegal::NoPung(t) => {
                write!(
                    f,
                    "an added kong needs a melded pung of {t}; the seat has none"
                )
            }
            Illegal::NotEnough { tile, need, have } => {
                write!(f, "this needs {need} {tile} in hand; the seat holds {have}")
            }
            Illegal::ChowNotFromNextSeat => {
                f.write_str("only the seat after the discarder may chow")
            }
            Illegal::ChowMissesDiscard { lowest, tile } => {
                write!(
                    f,
                    "the chow starting at {lowest} does not contain the discard {tile}"
                )
            }
            Illegal::ChowLacks { lowest, missing } => write!(
                f,
                "the chow starting at {lowest} needs {missing} in hand; the seat holds none"
            ),
        }
    }
}

/// A refused answer: which seat, what it answered (`None`: no answer) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct IllegalAction {
    /// The seat.
    pub seat: u8,
    /// Its answer, if it gave one.
    pub action: Option<Action>,
    /// Why it is refused.
    pub reason: Illegal,
}

impl IllegalAction {
    /// Whether the answer is well-formed but out of place: from a seat not asked now, or a
    /// chow from a seat other than the next one. The 2015 server ignored such answers (a
    /// driver may treat them as a pass); every other refusal is the seat's fault.
    pub fn out_of_place(&self) -> bool {
        matches!(
            self.reason,
            Illegal::NotAsked | Illegal::ChowNotFromNextSeat
        )
    }
}

impl fmt::Display for IllegalAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.action {
            Some(a) => write!(f, "seat {}: {a}: {}", self.seat, self.reason),
            None => write!(f, "seat {}: {}", self.seat, self.reason),
        }
    }
}

impl std::error::Error for IllegalAction {}

/// Events in one hand, at most: 84 draws, 100 discards (a discard per draw or claim), 16
/// sets, one failed chow per pung or kong, and the end.
const MAX_EVENTS: usize = 256;
/// Discards by one seat, at most (its draws and claims).
const MAX_DISCARDS: usize = 96;

/// One hand of the contest Mahjong.
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    wall: Wall,
    first: u8,
    next_draw: u8,
    phase: Phase,
    /// The actor's drawn tile on a turn begun with a draw.
    drawn: Option<Tile>,
    hands: [Counts; 4],
    melds: [[Meld; 4]; 4],
    meld_len: [u8; 4],
    discards: [[Discarded; MAX_DISCARDS]; 4],
    discard_len: [u8; 4],
    events: [Event; MAX_EVENTS],
    event_len: u16,
    outcome: Option<Outcome>,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("phase", &self.phase)
            .field("wall_left", &self.wall_left())
            .field("events", &self.events())
            .finish_non_exhaustive()
    }
}

const NO_DISCARD: Discarded = Discarded {
    tile: Tile::EAST,
    claimed: false,
};

impl Game {
    /// Deals 13 tiles to each seat; the first player has drawn: [`Phase::Turn`] of
    /// `deal.first`.
    pub fn new(deal: &Deal, rules: Rules) -> Game {
        let mut g = Game {
            rules,
            wall: deal.wall,
            first: deal.first % 4,
            next_draw: DEALT_TILES as u8,
            phase: Phase::Over,
            drawn: None,
            hands: [0, 1, 2, 3].map(|s| deal.wall.initial_counts(s)),
            melds: [[Meld::Pung(Tile::EAST); 4]; 4],
            meld_len: [0; 4],
            discards: [[NO_DISCARD; MAX_DISCARDS]; 4],
            discard_len: [0; 4],
            events: [Event::Drawn; MAX_EVENTS],
            event_len: 0,
            outcome: None,
        };
        g.draw(g.first);
        g
    }

    /// The rules of this hand.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The seat that drew first.
    pub fn first(&self) -> u8 {
        self.first
    }

    /// The wall the hand is played from.
    pub fn wall(&self) -> &Wall {
        &self.wall
    }

    /// What the hand is waiting for.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the hand is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whose answers are awaited now: the actor on a turn, the other three after a discard or
    /// an added kong, nobody once the hand is over.
    pub fn deciders(&self) -> SeatSet {
        match self.phase {
            Phase::Turn { seat } => SeatSet::one(seat),
            Phase::Claims { discarder, .. } => SeatSet::others(discarder),
            Phase::RobKong { seat, .. } => SeatSet::others(seat),
            Phase::Over => SeatSet::EMPTY,
        }
    }

    /// The concealed tiles of `seat` (with the drawn tile on its turn, and with the winning
    /// tile once it has won).
    pub fn hand(&self, seat: u8) -> &Counts {
        &self.hands[usize::from(seat & 3)]
    }

    /// The declared sets of `seat`, in the order declared.
    pub fn melds(&self, seat: u8) -> &[Meld] {
        let s = usize::from(seat & 3);
        &self.melds[s][..usize::from(self.meld_len[s])]
    }

    /// Every tile `seat` discarded, in order, claimed ones included.
    pub fn discards(&self, seat: u8) -> &[Discarded] {
        let s = usize::from(seat & 3);
        &self.discards[s][..usize::from(self.discard_len[s])]
    }

    /// The tile the actor drew this turn; `None` after a chow or pung, and outside a turn.
    pub fn drawn(&self) -> Option<Tile> {
        match self.phase {
            Phase::Turn { .. } => self.drawn,
            _ => None,
        }
    }

    /// Tiles left to draw.
    pub fn wall_left(&self) -> usize {
        WALL_TILES - usize::from(self.next_draw)
    }

    /// The hand's history.
    pub fn events(&self) -> &[Event] {
        &self.events[..usize::from(self.event_len)]
    }

    /// The result, once the hand is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// What `seat` may see.
    pub fn view(&self, seat: u8) -> View<'_> {
        View {
            game: self,
            seat: seat & 3,
        }
    }

    fn push(&mut self, e: Event) {
        self.events[usize::from(self.event_len)] = e;
        self.event_len += 1;
    }

    /// Draws for `seat` and gives it the turn; ends the hand drawn if the wall is empty.
    fn draw(&mut self, seat: u8) {
        if usize::from(self.next_draw) == WALL_TILES {
            self.push(Event::Drawn);
            self.phase = Phase::Over;
            self.drawn = None;
            self.outcome = Some(Outcome::DRAWN);
            return;
        }
        let tile = self.wall.tiles()[usize::from(self.next_draw)];
        self.next_draw += 1;
        self.hands[usize::from(seat)][tile.index()] += 1;
        self.drawn = Some(tile);
        self.push(Event::Draw { seat, tile });
        self.phase = Phase::Turn { seat };
    }

    /// The decision `seat` faces now, if it is asked anything.
    pub fn decision(&self, seat: u8) -> Option<Decision> {
        match self.phase {
            Phase::Turn { seat: actor } if actor == seat => Some(Decision::Turn {
                drawn: self.drawn.is_some(),
            }),
            Phase::Claims { discarder, tile } if discarder != seat && seat < 4 => {
                Some(Decision::Claim {
                    tile,
                    next: seat == (discarder + 1) % 4,
                })
            }
            Phase::RobKong { seat: owner, tile } if owner != seat && seat < 4 => {
                Some(Decision::RobKong { tile })
            }
            _ => None,
        }
    }

    /// The legal actions of `seat` now, into `out` (cleared first; empty if the seat is not
    /// asked). The order is [`legal_actions_for`]'s.
    pub fn legal_actions(&self, seat: u8, out: &mut ActionList) {
        out.clear();
        if let Some(d) = self.decision(seat) {
            legal_actions_for(
                &self.hands[usize::from(seat)],
                self.melds(seat),
                d,
                self.rules.reading,
                out,
            );
        }
    }

    /// Whether `seat` may answer `action` now, and if not, why.
    pub fn check(&self, seat: u8, action: Action) -> Result<(), IllegalAction> {
        let reason = if self.phase == Phase::Over {
            Some(Illegal::GameOver)
        } else {
            match self.decision(seat) {
                None => Some(Illegal::NotAsked),
                Some(d) => check_for(
                    &self.hands[usize::from(seat)],
                    self.melds(seat),
                    d,
                    self.rules.reading,
                    action,
                )
                .err(),
            }
        };
        reason.map_or(Ok(()), |reason| {
            Err(IllegalAction {
                seat,
                action: Some(action),
                reason,
            })
        })
    }

    /// What a dead seat plays: on its turn it discards the tile it drew (or, after a chow or
    /// pung, its highest tile); to a discard or an added kong it passes. It never claims or
    /// wins.
    pub fn automatic(&self, seat: u8) -> Action {
        match self.phase {
            Phase::Turn { seat: actor } if actor == seat => {
                let hand = &self.hands[usize::from(seat)];
                let t = self
                    .drawn
                    .filter(|d| hand[d.index()] > 0)
                    .or_else(|| hand.iter().rposition(|&n| n > 0).map(tile_at))
                    .expect("the actor holds a tile");
                Action::Discard(t)
            }
            _ => Action::Pass,
        }
    }

    /// Settles the answers of every decider together (one answer each, any order). Nothing
    /// changes if any answer is refused.
    pub fn apply(&mut self, answers: &[(u8, Action)]) -> Result<(), IllegalAction> {
        if self.phase == Phase::Over {
            let (seat, action) = answers.first().map_or((0, None), |&(s, a)| (s, Some(a)));
            return Err(IllegalAction {
                seat,
                action,
                reason: Illegal::GameOver,
            });
        }
        let deciders = self.deciders();
        let mut by_seat: [Option<Action>; 4] = [None; 4];
        for &(seat, action) in answers {
            self.check(seat, action)?;
            let slot = &mut by_seat[usize::from(seat)];
            if slot.is_some() {
                return Err(IllegalAction {
                    seat,
                    action: Some(action),
                    reason: Illegal::Duplicate,
                });
            }
            *slot = Some(action);
        }
        if let Some(seat) = deciders.iter().find(|&s| by_seat[usize::from(s)].is_none()) {
            return Err(IllegalAction {
                seat,
                action: None,
                reason: Illegal::Missing,
            });
        }
        let answer = |s: u8| by_seat[usize::from(s)].unwrap_or(Action::Pass);
        match self.phase {
            Phase::Turn { seat } => self.settle_turn(seat, answer(seat)),
            Phase::Claims { discarder, tile } => self.settle_claims(discarder, tile, &by_seat),
            Phase::RobKong { seat, tile } => {
                let robber = (1..4)
                    .map(|k| (seat + k) % 4)
                    .find(|&s| answer(s) == Action::RobKong);
                match robber {
                    Some(w) => {
                        let s = usize::from(seat);
                        let m = &mut self.melds[s][..usize::from(self.meld_len[s])];
                        if let Some(k) = m
                            .iter_mut()
                            .find(|m| **m == Meld::Kong(tile, KongKind::Added))
                        {
                            *k = Meld::Pung(tile);
                        }
                        self.win(w, Some(seat), tile, true);
                    }
                    None => self.draw(seat),
                }
            }
            Phase::Over => unreachable!("checked above"),
        }
        Ok(())
    }

    fn settle_turn(&mut self, seat: u8, action: Action) {
        let s = usize::from(seat);
        match action {
            Action::Discard(t) => {
                self.hands[s][t.index()] -= 1;
                self.discards[s][usize::from(self.discard_len[s])] = Discarded {
                    tile: t,
                    claimed: false,
                };
                self.discard_len[s] += 1;
                self.drawn = None;
                self.push(Event::Discard { seat, tile: t });
                self.phase = Phase::Claims {
                    discarder: seat,
                    tile: t,
                };
            }
            Action::SelfDrawnWin => {
                let t = self.drawn.expect("checked: a tile was drawn");
                self.hands[s][t.index()] -= 1;
                self.win(seat, None, t, false);
            }
            Action::ConcealedKong(t) => {
                self.hands[s][t.index()] -= 4;
                self.add_meld(seat, Meld::Kong(t, KongKind::Concealed));
                self.push(Event::ConcealedKong { seat, tile: t });
                self.draw(seat);
            }
            Action::AddedKong(t) => {
                self.hands[s][t.index()] -= 1;
                let m = &mut self.melds[s][..usize::from(self.meld_len[s])];
                if let Some(p) = m.iter_mut().find(|m| **m == Meld::Pung(t)) {
                    *p = Meld::Kong(t, KongKind::Added);
                }
                self.drawn = None;
                self.push(Event::AddedKong { seat, tile: t });
                self.phase = Phase::RobKong { seat, tile: t };
            }
            _ => unreachable!("checked: a turn action"),
        }
    }

    fn settle_claims(&mut self, discarder: u8, tile: Tile, by_seat: &[Option<Action>; 4]) {
        let order = [1u8, 2, 3].map(|k| (discarder + k) % 4);
        let answer = |s: u8| by_seat[usize::from(s)].unwrap_or(Action::Pass);
        if let Some(&w) = order.iter().find(|&&s| answer(s) == Action::Win) {
            self.mark_claimed(discarder);
            self.win(w, Some(discarder), tile, false);
            return;
        }
        let next = order[0];
        let chow = match answer(next) {
            Action::Chow(l) => Some(l),
            _ => None,
        };
        if let Some(&s) = order
            .iter()
            .find(|&&s| matches!(answer(s), Action::Kong | Action::Pung))
        {
            self.mark_claimed(discarder);
            let h = &mut self.hands[usize::from(s)];
            if answer(s) == Action::Kong {
                h[tile.index()] -= 3;
                self.add_meld(s, Meld::Kong(tile, KongKind::Exposed));
                self.push(Event::Kong { seat: s, tile });
            } else {
                h[tile.index()] -= 2;
                self.add_meld(s, Meld::Pung(tile));
                self.push(Event::Pung { seat: s, tile });
            }
            if chow.is_some() {
                self.push(Event::ChowFailed { seat: next });
            }
            if answer(s) == Action::Kong {
                self.draw(s);
            } else {
                self.drawn = None;
                self.phase = Phase::Turn { seat: s };
            }
            return;
        }
        if let Some(lowest) = chow {
            self.mark_claimed(discarder);
            let h = &mut self.hands[usize::from(next)];
            let mut t = lowest;
            for _ in 0..3 {
                if t != tile {
                    h[t.index()] -= 1;
                }
                t = t.next().unwrap_or(t);
            }
            self.add_meld(next, Meld::Chow(lowest));
            self.push(Event::Chow {
                seat: next,
                lowest,
                tile,
            });
            self.drawn = None;
            self.phase = Phase::Turn { seat: next };
            return;
        }
        self.draw(next);
    }

    fn mark_claimed(&mut self, discarder: u8) {
        let s = usize::from(discarder);
        let n = usize::from(self.discard_len[s]);
        self.discards[s][n - 1].claimed = true;
    }

    fn add_meld(&mut self, seat: u8, m: Meld) {
        let s = usize::from(seat);
        self.melds[s][usize::from(self.meld_len[s])] = m;
        self.meld_len[s] += 1;
    }

    /// Ends the hand won by `seat` on `tile`; its hand does not hold `tile` yet.
    fn win(&mut self, seat: u8, from: Option<u8>, tile: Tile, robbed_kong: bool) {
        let s = usize::from(seat);
        let hand = WinHand {
            concealed: self.hands[s],
            melds: self.melds(seat),
            win: tile,
            self_drawn: from.is_none(),
            robbed_kong,
        };
        // `check` let this win through only if `shape::is_win_in` accepts the tiles under the
        // same reading, and `fan::evaluate` scores exactly the hands that test accepts (the
        // game property tests compare the two on every decision): failing here is a bug in
        // the rules, not bad input, and a zero-fan default would hide it in the scores.
        let fans = fan::evaluate(&hand, self.rules.reading)
            .expect("a win the rules accepted scores under the same reading");
        self.hands[s][tile.index()] += 1;
        let scores = Outcome::payments(seat, from, fans.total);
        self.push(Event::Win {
            seat,
            from,
            tile,
            robbed_kong,
        });
        self.phase = Phase::Over;
        self.drawn = None;
        self.outcome = Some(Outcome {
            win: Some(WinInfo {
                seat,
                from,
                tile,
                robbed_kong,
                fans,
            }),
            scores,
        });
    }
}

/// The legal actions of a seat holding `hand` (concealed, with a drawn tile on its turn) and
/// `melds` when it faces `decision`, into `out` (appended). Order: on a turn the discards by
/// kind, then concealed kongs, added kongs and the self-drawn win; answering a discard pass,
/// win, kong, pung, then chows by lowest tile; answering an added kong pass, then rob-kong.
pub fn legal_actions_for(
    hand: &Counts,
    melds: &[Meld],
    decision: Decision,
    reading: Reading,
    out: &mut ActionList,
) {
    match decision {
        Decision::Turn { drawn } => {
            let mut fours = 0u64;
            for (i, &n) in hand.iter().enumerate() {
                if n > 0 {
                    out.push(Action::Discard(tile_at(i)));
                }
                fours |= u64::from(n == 4) << i;
            }
            if drawn {
                while fours != 0 {
                    out.push(Action::ConcealedKong(tile_at(
                        fours.trailing_zeros() as usize
                    )));
                    fours &= fours - 1;
                }
                for m in melds {
                    if let Meld::Pung(t) = *m
                        && hand[t.index()] > 0
                    {
                        out.push(Action::AddedKong(t));
                    }
                }
                if shape::is_win_in(hand, reading) {
                    out.push(Action::SelfDrawnWin);
                }
            }
        }
        Decision::Claim { tile, next } => {
            out.push(Action::Pass);
            if wins_with(hand, tile, reading) {
                out.push(Action::Win);
            }
            let n = hand[tile.index()];
            if n == 3 {
                out.push(Action::Kong);
            }
            if n >= 2 {
                out.push(Action::Pung);
            }
            if next {
                for lowest in chow_starts(tile) {
                    if chow_missing(hand, lowest, tile).is_none() {
                        out.push(Action::Chow(lowest));
                    }
                }
            }
        }
        Decision::RobKong { tile } => {
            out.push(Action::Pass);
            if wins_with(hand, tile, reading) {
                out.push(Action::RobKong);
            }
        }
    }
}

/// Whether a seat holding `hand` and `melds` that faces `decision` may answer `action`, and if
/// not, why. Agrees with [`legal_actions_for`]: `Ok` exactly for the actions it lists.
pub fn check_for(
    hand: &Counts,
    melds: &[Meld],
    decision: Decision,
    reading: Reading,
    action: Action,
) -> Result<(), Illegal> {
    let held = |t: Tile| hand[t.index()];
    let refuse = |bad: bool, why: Illegal| if bad { Err(why) } else { Ok(()) };
    match (decision, action) {
        (Decision::Turn { .. }, Action::Discard(t)) => refuse(held(t) == 0, Illegal::NotHeld(t)),
        (
            Decision::Turn { drawn: false },
            Action::SelfDrawnWin | Action::ConcealedKong(_) | Action::AddedKong(_),
        ) => Err(Illegal::NoDraw),
        (Decision::Turn { .. }, Action::SelfDrawnWin) => {
            refuse(!shape::is_win_in(hand, reading), Illegal::NoWinOnDraw)
        }
        (Decision::Turn { .. }, Action::ConcealedKong(t)) => refuse(
            held(t) != 4,
            Illegal::NotFour {
                tile: t,
                have: held(t),
            },
        ),
        (Decision::Turn { .. }, Action::AddedKong(t)) => {
            refuse(!melds.contains(&Meld::Pung(t)), Illegal::NoPung(t))?;
            refuse(held(t) == 0, Illegal::NotHeld(t))
        }
        (Decision::Turn { .. }, _) => Err(Illegal::WrongDecision(decision)),
        (Decision::Claim { .. } | Decision::RobKong { .. }, Action::Pass) => Ok(()),
        (Decision::Claim { tile, .. }, Action::Win)
        | (Decision::RobKong { tile }, Action::RobKong) => {
            refuse(!wins_with(hand, tile, reading), Illegal::NoWin(tile))
        }
        (Decision::Claim { tile, .. }, Action::Kong) => refuse(
            held(tile) != 3,
            Illegal::NotEnough {
                tile,
                need: 3,
                have: held(tile),
            },
        ),
        (Decision::Claim { tile, .. }, Action::Pung) => refuse(
            held(tile) < 2,
            Illegal::NotEnough {
                tile,
                need: 2,
                have: held(tile),
            },
        ),
        (Decision::Claim { tile, next }, Action::Chow(lowest)) => {
            refuse(!next, Illegal::ChowNotFromNextSeat)?;
            refuse(
                !chow_starts(tile).any(|l| l == lowest),
                Illegal::ChowMissesDiscard { lowest, tile },
            )?;
            chow_missing(hand, lowest, tile).map_or(Ok(()), |missing| {
                Err(Illegal::ChowLacks { lowest, missing })
            })
        }
        (Decision::Claim { .. } | Decision::RobKong { .. }, _) => {
            Err(Illegal::WrongDecision(decision))
        }
    }
}

fn wins_with(hand: &Counts, tile: Tile, reading: Reading) -> bool {
    let mut c = *hand;
    c[tile.index()] += 1;
    shape::is_win_in(&c, reading)
}

fn tile_at(i: usize) -> Tile {
    Tile::from_index(i).expect("index < 34")
}

/// The lowest tiles of the chows that contain `tile`, in increasing order.
fn chow_starts(tile: Tile) -> impl Iterator<Item = Tile> {
    let i = tile.index();
    let r = tile.rank().map_or(0, usize::from);
    // Ranks 1–7 start chows; the chow at rank l holds l, l+1, l+2.
    let lo = r.saturating_sub(2).max(1);
    let hi = r.min(7);
    (lo..=hi).map(move |l| tile_at(i - (r - l)))
}

/// The first tile of the chow at `lowest` other than `tile` that `hand` lacks.
fn chow_missing(hand: &Counts, lowest: Tile, tile: Tile) -> Option<Tile> {
    let mut t = lowest;
    for k in 0..3 {
        if t != tile && hand[t.index()] == 0 {
            return Some(t);
        }
        if k < 2 {
            t = t.next()?;
        }
    }
    None
}

/// What one seat may see of a hand: its own concealed tiles, every seat's melds (another seat's
/// concealed kong without its tile), every seat's discards, the phase, the tiles left and the
/// events as the seat saw them. Nothing else is reachable through it.
#[derive(Copy, Clone)]
pub struct View<'a> {
    game: &'a Game,
    seat: u8,
}

impl fmt::Debug for View<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("View")
            .field("seat", &self.seat)
            .field("phase", &self.phase())
            .finish_non_exhaustive()
    }
}

impl<'a> View<'a> {
    /// The viewing seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The seat that drew first.
    pub fn first(&self) -> u8 {
        self.game.first
    }

    /// The rules of the hand.
    pub fn rules(&self) -> Rules {
        self.game.rules
    }

    /// The seat's concealed tiles.
    pub fn hand(&self) -> &'a Counts {
        self.game.hand(self.seat)
    }

    /// The tile the seat drew, on its own turn begun with a draw.
    pub fn drawn(&self) -> Option<Tile> {
        match self.game.phase {
            Phase::Turn { seat } if seat == self.seat => self.game.drawn,
            _ => None,
        }
    }

    /// The declared sets of `seat`; `None` stands for another seat's concealed kong, whose tile
    /// is hidden.
    pub fn melds(&self, seat: u8) -> impl Iterator<Item = Option<Meld>> + 'a {
        let own = seat & 3 == self.seat;
        self.game.melds(seat).iter().map(move |&m| {
            if !own && m.is_concealed() {
                None
            } else {
                Some(m)
            }
        })
    }

    /// Every tile `seat` discarded, claimed ones marked.
    pub fn discards(&self, seat: u8) -> &'a [Discarded] {
        self.game.discards(seat)
    }

    /// What the hand is waiting for.
    pub fn phase(&self) -> Phase {
        self.game.phase
    }

    /// Tiles left to draw.
    pub fn wall_left(&self) -> usize {
        self.game.wall_left()
    }

    /// The hand's history as this seat saw it.
    pub fn events(&self) -> impl Iterator<Item = SeenEvent> + 'a {
        let seat = self.seat;
        self.game.events().iter().map(move |e| e.seen_by(seat))
    }

    /// The result, once the hand is over (announced to every seat).
    pub fn outcome(&self) -> Option<&'a Outcome> {
        self.game.outcome()
    }

    /// The decision the seat faces now, if it is asked anything (it follows from the public
    /// phase and the seat's own turn).
    pub fn decision(&self) -> Option<Decision> {
        self.game.decision(self.seat)
    }

    /// The seat's legal answers now, into `out` (cleared first; empty when it is not asked):
    /// from its own tiles and melds only.
    pub fn legal_actions(&self, out: &mut ActionList) {
        self.game.legal_actions(self.seat, out);
    }

    /// The kinds the seat cannot draw any more of as far as it can see: its own tiles, every
    /// visible meld tile and every unclaimed discard, counted per kind.
    pub fn visible_counts(&self) -> Counts {
        let mut c = *self.hand();
        for seat in 0..4u8 {
            for m in self.melds(seat).flatten() {
                add_meld_tiles(&mut c, m);
            }
            for d in self.discards(seat) {
                if !d.claimed {
                    c[d.tile.index()] += 1;
                }
            }
        }
        c
    }
}

/// Adds the tiles of `m` to `c`.
pub fn add_meld_tiles(c: &mut Counts, m: Meld) {
    match m {
        Meld::Chow(l) => {
            let i = l.index();
            for k in 0..3 {
                c[i + k] += 1;
            }
        }
        Meld::Pung(t) => c[t.index()] += 3,
        Meld::Kong(t, _) => c[t.index()] += 4,
    }
}

impl Game {
    /// Whether every tile is somewhere: the hands, the melds, the unclaimed discards and the
    /// rest of the wall together hold four of each kind.
    pub fn tiles_accounted(&self) -> bool {
        tiles_accounted(self)
    }
}

fn tiles_accounted(game: &Game) -> bool {
    let mut c = [0u8; TILE_KINDS];
    for s in 0..4u8 {
        for (i, &n) in game.hand(s).iter().enumerate() {
            c[i] += n;
        }
        for &m in game.melds(s) {
            add_meld_tiles(&mut c, m);
        }
        for d in game.discards(s) {
            if !d.claimed {
                c[d.tile.index()] += 1;
            }
        }
    }
    for t in &game.wall.tiles()[usize::from(game.next_draw)..] {
        c[t.index()] += 1;
    }
    c.iter().all(|&n| n == 4)
}
