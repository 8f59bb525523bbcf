//! One hand of Chinese Standard Mahjong as a state machine, with the decisions, legal answers
//! and scores of Botzone's judge.
//!
//! # Rules as implemented (Botzone's judge)
//!
//! - Seat `i` has wind `i` (seat 0 is East and plays first); the prevalent wind is given.
//! - The deal: each seat in turn draws from its own quarter of the [`Wall`] until it holds 13
//!   playing tiles; flowers drawn are set aside. Then seat 0 draws.
//! - A draw takes the next tile of the drawer's own quarter; a flower is set aside and another
//!   tile drawn. When the drawer's quarter is empty the hand is drawn (流局): everyone scores 0.
//! - On its turn ([`Decision::Turn`]) the seat wins on its draw (`HU`), discards any tile
//!   (`PLAY t`), declares a concealed kong of four it holds (`GANG t`) or adds a tile it holds
//!   to a pung it declared (`BUGANG t`). Kongs need tiles in the seat's own quarter and the next
//!   seat's. A kong draws a replacement from the seat's own quarter.
//! - An added kong may be robbed ([`Decision::RobKong`]): each other seat may win on the added
//!   tile; the first after the kong's owner that does wins.
//! - Every other seat answers a discard ([`Decision::Discard`]): pass, win, kong (three in
//!   hand), pung (two in hand, naming the tile it then discards) or, the next seat only, chow
//!   (naming the chow's middle tile and the discard). Claims other than a win need tiles in the
//!   next seat's quarter. A win beats a kong or pung, which beats a chow; of several winners the
//!   first after the discarder wins.
//! - A win needs 8 points without the flowers ([`crate::fan`]); a win below that is the
//!   judge's "wrong win" ([`Illegal::WrongWin`]).
//! - Scores: a self-drawn win of `f` points (flowers included) takes `8 + f` from each other
//!   seat; a win on a discard or a robbed kong takes `8 + f` from the discarder (the kong's
//!   owner) and 8 from each other seat; a drawn hand scores 0.
//! - A seat's fault follows a [`FaultPolicy`]: the judge's (the hand ends, the offender scores
//!   −30 and each other seat +10) or the arena's (the seat plays on automatically).
//!
//! The judge asks every seat every time, most of them only to pass; [`Game::deciders`] lists
//! only the seats that have a choice, and the hand moves on by itself when none has.

use std::fmt;
use std::str::FromStr;

use crate::fan::{self, Scored, WinningHand};
use crate::pack::{Pack, PackKind};
use crate::shape::is_winning_shape;
use crate::tile::{Counts, Flower, TILE_KINDS, Tile, TileParseError, WallTile, Wind};
use crate::wall::{Deal, Wall};

/// The points a win needs, flowers not counting.
pub const MIN_POINTS: u32 = 8;
/// The base every payment of a win adds to the winner's points.
pub const BASE_POINTS: i32 = 8;
/// What a faulty seat scores under the judge's policy.
pub const FAULT_PENALTY: i32 = -30;
/// What each other seat scores then.
pub const FAULT_COMPENSATION: i32 = 10;

/// An answer to a decision, in Botzone's words.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `PASS`.
    Pass,
    /// `HU`: win on the drawn, discarded or added tile.
    Win,
    /// `PLAY t`: discard `t`.
    Play(Tile),
    /// `GANG t`: a concealed kong of `t` on the seat's turn.
    ConcealedKong(Tile),
    /// `BUGANG t`: add `t` to the seat's pung of `t`.
    AddedKong(Tile),
    /// `GANG`: claim the discard for a kong.
    Kong,
    /// `PENG t`: claim the discard for a pung, then discard `t`.
    Pung(Tile),
    /// `CHI m t`: claim the discard for the chow around `m`, then discard `t`.
    Chow {
        /// The chow's middle tile.
        middle: Tile,
        /// The tile discarded after.
        discard: Tile,
    },
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pass => f.write_str("PASS"),
            Action::Win => f.write_str("HU"),
            Action::Play(t) => write!(f, "PLAY {t}"),
            Action::ConcealedKong(t) => write!(f, "GANG {t}"),
            Action::AddedKong(t) => write!(f, "BUGANG {t}"),
            Action::Kong => f.write_str("GANG"),
            Action::Pung(t) => write!(f, "PENG {t}"),
            Action::Chow { middle, discard } => write!(f, "CHI {middle} {discard}"),
        }
    }
}

/// Why an answer's text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionParseError {
    /// Not one of Botzone's answers.
    #[error(
        "{0:?} is not an answer: answers are PASS, HU, PLAY t, GANG t, BUGANG t, GANG, PENG t, CHI m t"
    )]
    Unknown(String),
    /// An answer naming a bad tile.
    #[error("{answer:?}: {error}")]
    Tile {
        /// The answer.
        answer: String,
        /// What is wrong with its tile.
        error: TileParseError,
    },
}

impl FromStr for Action {
    type Err = ActionParseError;

    fn from_str(s: &str) -> Result<Action, ActionParseError> {
        let short = || s.chars().take(40).collect::<String>();
        let mut words = s.split(' ');
        let word = words.next().unwrap_or("");
        let args: Vec<&str> = words.take(3).collect();
        let tile = |w: &str| {
            w.parse::<Tile>().map_err(|error| ActionParseError::Tile {
                answer: short(),
                error,
            })
        };
        match (word, args.as_slice()) {
            ("PASS", []) => Ok(Action::Pass),
            ("HU", []) => Ok(Action::Win),
            ("GANG", []) => Ok(Action::Kong),
            ("PLAY", [t]) => Ok(Action::Play(tile(t)?)),
            ("GANG", [t]) => Ok(Action::ConcealedKong(tile(t)?)),
            ("BUGANG", [t]) => Ok(Action::AddedKong(tile(t)?)),
            ("PENG", [t]) => Ok(Action::Pung(tile(t)?)),
            ("CHI", [m, t]) => Ok(Action::Chow {
                middle: tile(m)?,
                discard: tile(t)?,
            }),
            _ => Err(ActionParseError::Unknown(short())),
        }
    }
}

/// The most legal answers one decision can have.
pub const MAX_ACTIONS: usize = 96;

/// A fixed-capacity list of actions (no allocation on the hot path).
#[derive(Clone, Copy)]
pub struct ActionList {
    items: [Action; MAX_ACTIONS],
    len: usize,
}

impl Default for ActionList {
    fn default() -> Self {
        ActionList::new()
    }
}

impl ActionList {
    /// An empty list.
    pub const fn new() -> ActionList {
        ActionList {
            items: [Action::Pass; MAX_ACTIONS],
            len: 0,
        }
    }

    fn push(&mut self, a: Action) {
        if self.len < MAX_ACTIONS {
            self.items[self.len] = a;
            self.len += 1;
        }
    }

    fn clear(&mut self) {
        self.len = 0;
    }
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        &self.items[..self.len]
    }
}

impl fmt::Debug for ActionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Where the hand stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// `seat` has drawn and acts.
    Turn {
        /// The seat.
        seat: u8,
    },
    /// `seat` discarded `tile`; the others answer.
    Discard {
        /// The discarder.
        seat: u8,
        /// The discard.
        tile: Tile,
    },
    /// `seat` added `tile` to a pung; the others may rob it.
    RobKong {
        /// The kong's owner.
        seat: u8,
        /// The added tile.
        tile: Tile,
    },
    /// The hand is over ([`Game::outcome`]).
    Over,
}

/// The decision a seat faces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The seat's own turn after drawing `drawn`.
    Turn {
        /// The tile just drawn.
        drawn: Tile,
    },
    /// Answer `from`'s discard of `tile`.
    Discard {
        /// The discarder.
        from: u8,
        /// The discard.
        tile: Tile,
    },
    /// Rob (or not) the tile `from` adds to a kong.
    RobKong {
        /// The kong's owner.
        from: u8,
        /// The added tile.
        tile: Tile,
    },
}

/// What to do with a seat's fault.
#[derive(
    Copy, Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum FaultPolicy {
    /// Botzone's judge: the hand ends; the offender scores −30 and each other seat +10.
    Judge,
    /// The arena's: the seat plays on automatically (discarding what it draws, claiming and
    /// winning nothing) and the hand goes on.
    #[default]
    PlayOn,
}

/// One seat's decision described by its parts, for [`Game::at`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Position<'a> {
    /// The deciding seat (0–3; its wind is its seat wind).
    pub seat: u8,
    /// The seat's concealed tiles (on its turn with the drawn tile).
    pub hand: Counts,
    /// The seat's declared packs (at most four are read).
    pub packs: &'a [Pack],
    /// Flowers the seat has set aside.
    pub flowers: u8,
    /// The decision.
    pub decision: Decision,
    /// The prevalent wind.
    pub quan: Wind,
    /// Tiles shown to everyone by kind ([`Game::shown`]): decides Last Tile.
    pub shown: Counts,
    /// Tiles left in each seat's quarter: decides kongs, claims and Last Tile Draw/Claim.
    pub wall_left: [u8; 4],
    /// On a turn: the draw replaced a kong (Out with Replacement Tile).
    pub kong_draw: bool,
}

/// A win.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WinInfo {
    /// The winner.
    pub seat: u8,
    /// The discarder or the robbed kong's owner; `None` for a self-drawn win.
    pub from: Option<u8>,
    /// The winning tile.
    pub tile: Tile,
    /// The fans.
    pub fans: Scored,
}

/// How a hand ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Each seat's score.
    pub scores: [i32; 4],
    /// The win, if there was one.
    pub win: Option<WinInfo>,
    /// The seat whose fault ended the hand (the judge's policy).
    pub fault: Option<u8>,
}

impl Outcome {
    /// The scores of a win of `points` (flowers included) by `winner`, from `from` (`None`:
    /// self-drawn).
    pub fn payments(winner: u8, from: Option<u8>, points: u32) -> [i32; 4] {
        let f = points as i32;
        let mut s = [0; 4];
        for (i, x) in s.iter_mut().enumerate() {
            let i = i as u8;
            *x = match from {
                None if i == winner => 3 * (BASE_POINTS + f),
                None => -(BASE_POINTS + f),
                Some(_) if i == winner => 3 * BASE_POINTS + f,
                Some(p) if i == p => -(BASE_POINTS + f),
                Some(_) => -BASE_POINTS,
            };
        }
        s
    }
}

/// Something that happened in the hand, in order ([`Game::events`], [`View::events`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The deal is over: each seat holds 13 tiles (its flowers were set aside before this).
    Dealt,
    /// `seat` drew `tile`; other seats see `None` (Botzone's `DRAW`).
    Draw {
        /// The drawer.
        seat: u8,
        /// The tile, if the viewer may see it.
        tile: Option<Tile>,
    },
    /// `seat` set a flower aside, in the deal or after a draw (`BUHUA`).
    Flower {
        /// The seat.
        seat: u8,
        /// The flower.
        flower: Flower,
    },
    /// `seat` answered `action` and it took effect: a discard, a claim (with its discard), a
    /// kong, a win.
    Act {
        /// The seat.
        seat: u8,
        /// The answer.
        action: Action,
    },
    /// Another seat declared a concealed kong; its tile is hidden (Botzone's bare `GANG`).
    HiddenKong {
        /// The seat.
        seat: u8,
    },
    /// `seat` faulted.
    Fault {
        /// The seat.
        seat: u8,
    },
}

impl Event {
    /// The event as `viewer` may see it.
    pub fn seen_by(self, viewer: u8) -> Event {
        match self {
            Event::Draw { seat, .. } if seat != viewer => Event::Draw { seat, tile: None },
            Event::Act {
                seat,
                action: Action::ConcealedKong(_),
            } if seat != viewer => Event::HiddenKong { seat },
            e => e,
        }
    }
}

/// The most events one hand records (every wall tile drawn and discarded, with room to spare).
pub const MAX_EVENTS: usize = 512;

/// Why an answer is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Illegal {
    /// The seat has no decision now.
    #[error("seat has no decision now")]
    NotDeciding,
    /// The seat answered twice, or a decider did not answer.
    #[error("every deciding seat answers exactly once")]
    Answers,
    /// A win the hand does not make: not a winning shape (`points` is `None`), or fewer than 8
    /// points without flowers (the judge's "wrong win").
    #[error("wrong win: {}", match .points { Some(p) => format!("{p} points without flowers, 8 needed"), None => "the hand does not win".into() })]
    WrongWin {
        /// The points of the winning arrangement, if the shape wins.
        points: Option<u32>,
    },
    /// Any other answer the decision does not allow.
    #[error("{action} is not allowed: {why}")]
    NotAllowed {
        /// The answer.
        action: Action,
        /// Why.
        why: &'static str,
    },
}

/// A seat's refused answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("seat {seat}: {reason}")]
pub struct IllegalAction {
    /// The seat.
    pub seat: u8,
    /// Why.
    pub reason: Illegal,
}

const RIVER: usize = 32;

/// One hand (see the module docs).
#[derive(Clone)]
pub struct Game {
    wall: Wall,
    quan: Wind,
    /// Tiles left in each seat's quarter.
    left: [u8; 4],
    hands: [Counts; 4],
    packs: [[Pack; 4]; 4],
    npacks: [u8; 4],
    flowers: [u8; 4],
    river: [[(Tile, bool); RIVER]; 4],
    nriver: [u8; 4],
    /// Tiles shown to all, as the judge counts them for Last Tile.
    shown: Counts,
    phase: Phase,
    drawn: Tile,
    /// The current turn's draw replaced a kong (no flower in between).
    kong_draw: bool,
    auto: [bool; 4],
    deciders: u8,
    /// Each decider's legal answers, worked out once per decision.
    legal: [ActionList; 4],
    events: [Event; MAX_EVENTS],
    nevents: u16,
    outcome: Option<Outcome>,
}

impl Game {
    /// A hand on `deal`'s wall and prevalent wind.
    pub fn new(deal: &Deal) -> Game {
        Game::with_wall(deal.wall, deal.quan)
    }

    /// A hand on `wall` with prevalent wind `quan` (Botzone's `walltiles` and `quan`).
    pub fn with_wall(wall: Wall, quan: Wind) -> Game {
        let q = (wall.tiles().len() / 4) as u8;
        let mut g = Game {
            wall,
            quan,
            left: [q; 4],
            hands: [[0; TILE_KINDS]; 4],
            packs: [[Pack::kong(Tile::default(), 0); 4]; 4],
            npacks: [0; 4],
            flowers: [0; 4],
            river: [[(Tile::default(), false); RIVER]; 4],
            nriver: [0; 4],
            shown: [0; TILE_KINDS],
            phase: Phase::Over,
            drawn: Tile::default(),
            kong_draw: false,
            auto: [false; 4],
            deciders: 0,
            legal: [ActionList::new(); 4],
            events: [Event::Fault { seat: 0 }; MAX_EVENTS],
            nevents: 0,
            outcome: None,
        };
        for seat in 0..4 {
            let mut held = 0;
            while held < 13 {
                match g.pop(seat) {
                    Some(WallTile::Tile(t)) => {
                        g.hands[usize::from(seat)][t.index()] += 1;
                        held += 1;
                    }
                    Some(WallTile::Flower(flower)) => {
                        g.flowers[usize::from(seat)] += 1;
                        g.record(Event::Flower { seat, flower });
                    }
                    None => break,
                }
            }
        }
        g.record(Event::Dealt);
        g.draw(0, false);
        g.settle();
        g
    }

    /// One seat's decision in a hand described by its parts (for tools that ask "what may I
    /// answer here?" without playing up to the position): the seat is the only decider, with
    /// the legal answers the rules give. The other seats' concealed tiles, the discards and
    /// the wall's tiles are not part of a position; the hand is only good for
    /// [`Game::legal`], [`Game::check`] and [`Game::decision`], not for playing on.
    pub fn at(position: &Position) -> Game {
        let mut g = Game::with_wall(Wall::sorted(true), position.quan);
        let seat = position.seat % 4;
        let s = usize::from(seat);
        g.hands = [[0; TILE_KINDS]; 4];
        g.hands[s] = position.hand;
        g.npacks = [0; 4];
        for (i, p) in position.packs.iter().take(4).enumerate() {
            g.packs[s][i] = *p;
            g.npacks[s] += 1;
        }
        g.flowers = [0; 4];
        g.flowers[s] = position.flowers;
        g.shown = position.shown;
        let q = (g.wall.tiles().len() / 4) as u8;
        g.left = position.wall_left.map(|n| n.min(q));
        g.nevents = 0;
        g.outcome = None;
        let (phase, other) = match position.decision {
            Decision::Turn { drawn } => {
                g.drawn = drawn;
                g.kong_draw = position.kong_draw;
                (Phase::Turn { seat }, None)
            }
            Decision::Discard { from, tile } => (
                Phase::Discard {
                    seat: from % 4,
                    tile,
                },
                Some(from),
            ),
            Decision::RobKong { from, tile } => (
                Phase::RobKong {
                    seat: from % 4,
                    tile,
                },
                Some(from),
            ),
        };
        g.phase = phase;
        g.deciders = 0;
        if other.is_none_or(|o| o % 4 != seat) {
            let mut legal = ActionList::new();
            g.legal_into(seat, &mut legal);
            g.legal[s] = legal;
            g.deciders = 1 << seat;
        }
        g
    }

    fn pop(&mut self, seat: u8) -> Option<WallTile> {
        let s = usize::from(seat);
        if self.left[s] == 0 {
            return None;
        }
        self.left[s] -= 1;
        Some(self.wall.quarter(seat)[usize::from(self.left[s])])
    }

    /// `seat` draws (flowers set aside); an empty quarter draws the hand.
    fn draw(&mut self, seat: u8, after_kong: bool) {
        let mut kong = after_kong;
        loop {
            match self.pop(seat) {
                None => {
                    self.finish(Outcome {
                        scores: [0; 4],
                        win: None,
                        fault: None,
                    });
                    return;
                }
                Some(WallTile::Flower(flower)) => {
                    self.flowers[usize::from(seat)] += 1;
                    self.record(Event::Flower { seat, flower });
                    // The judge forgets the kong once a flower comes between.
                    kong = false;
                }
                Some(WallTile::Tile(t)) => {
                    self.record(Event::Draw {
                        seat,
                        tile: Some(t),
                    });
                    self.hands[usize::from(seat)][t.index()] += 1;
                    self.drawn = t;
                    self.kong_draw = kong;
                    self.phase = Phase::Turn { seat };
                    return;
                }
            }
        }
    }

    fn record(&mut self, e: Event) {
        let n = usize::from(self.nevents);
        if n < MAX_EVENTS {
            self.events[n] = e;
            self.nevents += 1;
        }
    }

    /// Everything that happened so far, as the referee sees it (every tile).
    pub fn events(&self) -> &[Event] {
        &self.events[..usize::from(self.nevents)]
    }

    fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
        self.deciders = 0;
    }

    /// Works out who decides and their legal answers; moves on by itself while nobody has a
    /// choice.
    fn settle(&mut self) {
        let mut legal = ActionList::new();
        loop {
            self.deciders = 0;
            match self.phase {
                Phase::Over => return,
                Phase::Turn { seat } => {
                    self.legal_into(seat, &mut legal);
                    self.legal[usize::from(seat)] = legal;
                    self.deciders = 1 << seat;
                    return;
                }
                Phase::Discard { seat: d, .. } | Phase::RobKong { seat: d, .. } => {
                    for s in (1..4).map(|k| (d + k) % 4) {
                        self.legal_into(s, &mut legal);
                        if legal.len() > 1 {
                            self.legal[usize::from(s)] = legal;
                            self.deciders |= 1 << s;
                        }
                    }
                    if self.deciders != 0 {
                        return;
                    }
                    let none = [];
                    self.resolve_claims(&none);
                }
            }
        }
    }

    /// The prevalent wind.
    pub fn quan(&self) -> Wind {
        self.quan
    }

    /// The wall the hand is played on.
    pub fn wall(&self) -> &Wall {
        &self.wall
    }

    /// Where the hand stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the hand is over.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// How the hand ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The seats whose answers are awaited (a bit per seat).
    pub fn deciders(&self) -> impl Iterator<Item = u8> + Clone + use<> {
        let d = self.deciders;
        (0..4).filter(move |s| d & (1 << s) != 0)
    }

    /// `seat`'s concealed tiles (the drawn tile included on its turn).
    pub fn hand(&self, seat: u8) -> &Counts {
        &self.hands[usize::from(seat % 4)]
    }

    /// `seat`'s declared packs.
    pub fn packs(&self, seat: u8) -> &[Pack] {
        let s = usize::from(seat % 4);
        &self.packs[s][..usize::from(self.npacks[s])]
    }

    /// `seat`'s discards, each with whether it was claimed.
    pub fn discards(&self, seat: u8) -> &[(Tile, bool)] {
        let s = usize::from(seat % 4);
        &self.river[s][..usize::from(self.nriver[s])]
    }

    /// Flowers `seat` has set aside.
    pub fn flowers(&self, seat: u8) -> u8 {
        self.flowers[usize::from(seat % 4)]
    }

    /// Tiles left in `seat`'s quarter.
    pub fn wall_left(&self, seat: u8) -> u8 {
        self.left[usize::from(seat % 4)]
    }

    /// Tiles shown to everyone, by kind, as the judge counts them for Last Tile: unclaimed
    /// discards, claimed pungs and chows, exposed and added kongs (not concealed kongs).
    pub fn shown(&self) -> &Counts {
        &self.shown
    }

    /// Whether `seat` plays on automatically after a fault.
    pub fn is_automatic(&self, seat: u8) -> bool {
        self.auto[usize::from(seat % 4)]
    }

    /// The decision `seat` faces, if it is a decider.
    pub fn decision(&self, seat: u8) -> Option<Decision> {
        if self.deciders & (1 << (seat % 4)) == 0 {
            return None;
        }
        Some(match self.phase {
            Phase::Turn { .. } => Decision::Turn { drawn: self.drawn },
            Phase::Discard { seat: from, tile } => Decision::Discard { from, tile },
            Phase::RobKong { seat: from, tile } => Decision::RobKong { from, tile },
            Phase::Over => return None,
        })
    }

    /// What `seat` may see of the hand.
    pub fn view(&self, seat: u8) -> View<'_> {
        View {
            game: self,
            seat: seat % 4,
        }
    }

    /// `seat`'s legal answers now (empty when it has no decision).
    pub fn legal_actions(&self, seat: u8, out: &mut ActionList) {
        *out = *self.legal(seat);
    }

    /// `seat`'s legal answers now (empty when it has no decision), without a copy.
    pub fn legal(&self, seat: u8) -> &ActionList {
        const NONE: ActionList = ActionList::new();
        if self.deciders & (1 << (seat % 4)) != 0 {
            &self.legal[usize::from(seat % 4)]
        } else {
            &NONE
        }
    }

    /// The points of `seat` winning on `tile` now, if the tiles win at all.
    fn win_points(&self, seat: u8, tile: Tile, self_drawn: bool) -> Option<Scored> {
        let s = usize::from(seat);
        let mut closed = self.hands[s];
        if !self_drawn {
            closed[tile.index()] += 1;
        }
        let packs = self.packs(seat);
        if !is_winning_shape(&closed, packs.len()) {
            return None;
        }
        let mut standing = [Tile::default(); 14];
        let mut n = 0;
        let mut before = closed;
        before[tile.index()] -= 1;
        for t in Tile::all() {
            for _ in 0..before[t.index()] {
                standing[n] = t;
                n += 1;
            }
        }
        let (about_kong, next) = match self.phase {
            Phase::Turn { .. } => (self.kong_draw, seat),
            Phase::Discard { seat: d, .. } => (false, d),
            Phase::RobKong { seat: d, .. } => (true, d),
            Phase::Over => return None,
        };
        let hand = WinningHand {
            packs,
            standing: &standing[..n],
            win_tile: tile,
            flowers: self.flowers[s],
            self_drawn,
            fourth_tile: self.shown[tile.index()] == 3,
            about_kong,
            wall_last: self.left[usize::from((next + 1) % 4)] == 0,
            seat_wind: Wind::from_index(seat).unwrap_or_default(),
            prevalent_wind: self.quan,
        };
        fan::evaluate(&hand).ok()
    }

    fn can_win(&self, seat: u8, tile: Tile, self_drawn: bool) -> bool {
        self.win_points(seat, tile, self_drawn)
            .is_some_and(|s| s.without_flowers() >= MIN_POINTS)
    }

    fn legal_into(&self, seat: u8, out: &mut ActionList) {
        out.clear();
        let s = usize::from(seat);
        let hand = &self.hands[s];
        match self.phase {
            Phase::Over => {}
            Phase::Turn { seat: actor } => {
                if actor != seat {
                    return;
                }
                if self.can_win(seat, self.drawn, true) {
                    out.push(Action::Win);
                }
                for t in Tile::all().filter(|t| hand[t.index()] > 0) {
                    out.push(Action::Play(t));
                }
                let walls = self.left[s] > 0 && self.left[usize::from((seat + 1) % 4)] > 0;
                if walls {
                    for t in Tile::all().filter(|t| hand[t.index()] == 4) {
                        out.push(Action::ConcealedKong(t));
                    }
                    for p in self.packs(seat) {
                        if p.kind == PackKind::Pung && hand[p.tile.index()] > 0 {
                            out.push(Action::AddedKong(p.tile));
                        }
                    }
                }
            }
            Phase::RobKong { seat: owner, tile } => {
                if owner == seat {
                    return;
                }
                out.push(Action::Pass);
                if self.can_win(seat, tile, false) {
                    out.push(Action::Win);
                }
            }
            Phase::Discard { seat: d, tile } => {
                if d == seat {
                    return;
                }
                out.push(Action::Pass);
                if self.can_win(seat, tile, false) {
                    out.push(Action::Win);
                }
                if self.left[usize::from((d + 1) % 4)] == 0 {
                    return;
                }
                let i = tile.index();
                if hand[i] == 3 {
                    out.push(Action::Kong);
                }
                if hand[i] >= 2 {
                    let mut rest = *hand;
                    rest[i] -= 2;
                    for t in Tile::all().filter(|t| rest[t.index()] > 0) {
                        out.push(Action::Pung(t));
                    }
                }
                if seat == (d + 1) % 4 && tile.is_numbered() {
                    for m in [-1, 0, 1] {
                        let Some(middle) = tile.offset(m) else {
                            continue;
                        };
                        if !matches!(middle.rank(), Some(2..=8)) {
                            continue;
                        }
                        let mut rest = *hand;
                        rest[i] += 1;
                        let ok = [-1, 0, 1].iter().all(|&k| {
                            middle.offset(k).is_some_and(|x| {
                                let held = rest[x.index()] > 0;
                                if held {
                                    rest[x.index()] -= 1;
                                }
                                held
                            })
                        });
                        if !ok {
                            continue;
                        }
                        for t in Tile::all().filter(|t| rest[t.index()] > 0) {
                            out.push(Action::Chow { middle, discard: t });
                        }
                    }
                }
            }
        }
    }

    /// Why `action` by `seat` would be refused now, or `Ok`.
    pub fn check(&self, seat: u8, action: Action) -> Result<(), Illegal> {
        if self.deciders & (1 << (seat % 4)) == 0 {
            return Err(Illegal::NotDeciding);
        }
        if self.legal(seat).contains(&action) {
            return Ok(());
        }
        Err(match action {
            Action::Win => {
                let self_drawn = matches!(self.phase, Phase::Turn { .. });
                let tile = match self.phase {
                    Phase::Discard { tile, .. } | Phase::RobKong { tile, .. } => tile,
                    _ => self.drawn,
                };
                Illegal::WrongWin {
                    points: self
                        .win_points(seat % 4, tile, self_drawn)
                        .map(|s| s.without_flowers()),
                }
            }
            _ => Illegal::NotAllowed {
                action,
                why: self.why_not(action),
            },
        })
    }

    fn why_not(&self, action: Action) -> &'static str {
        match (self.phase, action) {
            (Phase::Turn { .. }, Action::Play(_)) => "the tile is not in the hand",
            (Phase::Turn { .. }, Action::ConcealedKong(_)) => {
                "a concealed kong needs four in hand and tiles left in this and the next quarter"
            }
            (Phase::Turn { .. }, Action::AddedKong(_)) => {
                "an added kong needs a declared pung, the tile in hand and tiles left in this and the next quarter"
            }
            (Phase::Turn { .. }, _) => "on a turn the answers are HU, PLAY, GANG t and BUGANG t",
            (Phase::RobKong { .. }, _) => "an added kong is answered by PASS or HU",
            (Phase::Discard { .. }, Action::Chow { .. }) => {
                "a chow is the next seat's, with the other two tiles in hand, a middle of 2-8, a discard from the hand and tiles left in the next quarter"
            }
            (Phase::Discard { .. }, Action::Pung(_)) => {
                "a pung needs two in hand, a discard from the rest and tiles left in the next quarter"
            }
            (Phase::Discard { .. }, Action::Kong) => {
                "a kong needs three in hand and tiles left in the next quarter"
            }
            (Phase::Discard { .. }, _) => {
                "a discard is answered by PASS, HU, GANG, PENG t or CHI m t"
            }
            (Phase::Over, _) => "the hand is over",
        }
    }

    /// The answer an automatic seat gives: discard the drawn tile on its turn, pass otherwise.
    pub fn automatic(&self, seat: u8) -> Action {
        match self.phase {
            Phase::Turn { seat: s } if s == seat % 4 => Action::Play(self.drawn),
            _ => Action::Pass,
        }
    }

    /// Handles `seat`'s fault (a refused answer, a timeout, a crash) under `policy`. Under the
    /// arena's policy the seat plays on automatically; the caller then answers for it with
    /// [`Game::automatic`].
    pub fn fault(&mut self, seat: u8, policy: FaultPolicy) {
        let seat = seat % 4;
        if self.is_over() {
            return;
        }
        self.record(Event::Fault { seat });
        match policy {
            FaultPolicy::Judge => {
                let mut scores = [FAULT_COMPENSATION; 4];
                scores[usize::from(seat)] = FAULT_PENALTY;
                self.finish(Outcome {
                    scores,
                    win: None,
                    fault: Some(seat),
                });
            }
            FaultPolicy::PlayOn => self.auto[usize::from(seat)] = true,
        }
    }

    /// Settles the deciders' answers together: each decider answers exactly once. Nothing
    /// changes when an answer is refused; the error names the first refused seat, in the order
    /// the judge reads the answers (from the seat after the discarder or kong owner).
    pub fn apply(&mut self, answers: &[(u8, Action)]) -> Result<(), IllegalAction> {
        let mut seen = 0u8;
        for &(seat, _) in answers {
            let bit = 1 << (seat % 4);
            if seen & bit != 0 || seat > 3 {
                return Err(IllegalAction {
                    seat,
                    reason: Illegal::Answers,
                });
            }
            seen |= bit;
        }
        let first = match self.phase {
            Phase::Discard { seat, .. } | Phase::RobKong { seat, .. } => seat + 1,
            _ => 0,
        };
        for k in 0..4 {
            let s = (first + k) % 4;
            if let Some(&(_, a)) = answers.iter().find(|(x, _)| *x == s) {
                self.check(s, a)
                    .map_err(|reason| IllegalAction { seat: s, reason })?;
            } else if self.deciders & (1 << s) != 0 {
                return Err(IllegalAction {
                    seat: s,
                    reason: Illegal::Answers,
                });
            }
        }
        match self.phase {
            Phase::Turn { seat } => {
                let a = answers
                    .iter()
                    .find(|(s, _)| *s == seat)
                    .map_or(Action::Pass, |x| x.1);
                self.record(Event::Act { seat, action: a });
                self.turn(seat, a);
            }
            Phase::Discard { .. } | Phase::RobKong { .. } => self.resolve_claims(answers),
            Phase::Over => {}
        }
        self.settle();
        Ok(())
    }

    fn turn(&mut self, seat: u8, action: Action) {
        let s = usize::from(seat);
        match action {
            Action::Win => {
                if let Some(fans) = self.win_points(seat, self.drawn, true) {
                    self.win(seat, None, self.drawn, fans);
                }
            }
            Action::Play(t) => {
                self.hands[s][t.index()] -= 1;
                let n = usize::from(self.nriver[s]);
                if n < RIVER {
                    self.river[s][n] = (t, false);
                    self.nriver[s] += 1;
                }
                self.phase = Phase::Discard { seat, tile: t };
            }
            Action::ConcealedKong(t) => {
                self.hands[s][t.index()] -= 4;
                self.add_pack(seat, Pack::kong(t, 0));
                self.draw(seat, true);
            }
            Action::AddedKong(t) => {
                self.hands[s][t.index()] -= 1;
                let n = usize::from(self.npacks[s]);
                if let Some(p) = self.packs[s][..n]
                    .iter_mut()
                    .find(|p| p.kind == PackKind::Pung && p.tile == t)
                {
                    p.kind = PackKind::Kong;
                }
                self.shown[t.index()] = 4;
                self.phase = Phase::RobKong { seat, tile: t };
            }
            _ => {}
        }
    }

    fn add_pack(&mut self, seat: u8, p: Pack) {
        let s = usize::from(seat);
        let n = usize::from(self.npacks[s]);
        if n < 4 {
            self.packs[s][n] = p;
            self.npacks[s] += 1;
        }
    }

    fn win(&mut self, seat: u8, from: Option<u8>, tile: Tile, fans: Scored) {
        self.finish(Outcome {
            scores: Outcome::payments(seat, from, fans.total),
            win: Some(WinInfo {
                seat,
                from,
                tile,
                fans,
            }),
            fault: None,
        });
    }

    fn resolve_claims(&mut self, answers: &[(u8, Action)]) {
        let answer = |s: u8| {
            answers
                .iter()
                .find(|(x, _)| *x == s)
                .map_or(Action::Pass, |x| x.1)
        };
        match self.phase {
            Phase::RobKong { seat: owner, tile } => {
                for s in (1..4).map(|k| (owner + k) % 4) {
                    if answer(s) == Action::Win
                        && let Some(fans) = self.win_points(s, tile, false)
                    {
                        self.record(Event::Act {
                            seat: s,
                            action: Action::Win,
                        });
                        self.win(s, Some(owner), tile, fans);
                        return;
                    }
                }
                self.draw(owner, true);
            }
            Phase::Discard { seat: d, tile } => {
                for s in (1..4).map(|k| (d + k) % 4) {
                    if answer(s) == Action::Win
                        && let Some(fans) = self.win_points(s, tile, false)
                    {
                        self.record(Event::Act {
                            seat: s,
                            action: Action::Win,
                        });
                        self.win(s, Some(d), tile, fans);
                        return;
                    }
                }
                let i = tile.index();
                let from = |s: u8| (d + 4 - s) % 4;
                for s in 0..4u8 {
                    if s == d {
                        continue;
                    }
                    let a = answer(s);
                    if matches!(a, Action::Kong | Action::Pung(_)) {
                        self.record(Event::Act { seat: s, action: a });
                    }
                    match a {
                        Action::Kong => {
                            self.claimed(d);
                            self.hands[usize::from(s)][i] -= 3;
                            self.add_pack(s, Pack::kong(tile, from(s)));
                            self.shown[i] = 4;
                            self.draw(s, true);
                            return;
                        }
                        Action::Pung(x) => {
                            self.claimed(d);
                            self.hands[usize::from(s)][i] -= 2;
                            self.add_pack(s, Pack::pung(tile, from(s)));
                            self.shown[i] += 3;
                            self.play_after_claim(s, x);
                            return;
                        }
                        _ => {}
                    }
                }
                let next = (d + 1) % 4;
                if let Action::Chow { middle, discard } = answer(next) {
                    self.record(Event::Act {
                        seat: next,
                        action: answer(next),
                    });
                    self.claimed(d);
                    let h = &mut self.hands[usize::from(next)];
                    h[i] += 1;
                    for k in [-1, 0, 1] {
                        if let Some(x) = middle.offset(k) {
                            h[x.index()] -= 1;
                            self.shown[x.index()] += 1;
                        }
                    }
                    let claimed =
                        (tile.rank().unwrap_or(0) + 2).saturating_sub(middle.rank().unwrap_or(0));
                    self.add_pack(next, Pack::chow(middle, claimed));
                    self.play_after_claim(next, discard);
                    return;
                }
                self.shown[i] += 1;
                self.draw(next, false);
            }
            _ => {}
        }
    }

    fn claimed(&mut self, discarder: u8) {
        let s = usize::from(discarder);
        let n = usize::from(self.nriver[s]);
        if n > 0 {
            self.river[s][n - 1].1 = true;
        }
    }

    fn play_after_claim(&mut self, seat: u8, tile: Tile) {
        self.kong_draw = false;
        self.turn(seat, Action::Play(tile));
    }

    /// Every playing tile is in exactly one place (a quarter, a hand, a pack, an unclaimed
    /// discard) and every flower in a quarter or set aside: 136 and the wall's flowers.
    pub fn tiles_accounted(&self) -> bool {
        let mut c = [0u8; TILE_KINDS];
        let mut flowers = 0usize;
        for seat in 0..4u8 {
            let s = usize::from(seat);
            for t in &self.wall.quarter(seat)[..usize::from(self.left[s])] {
                match t {
                    WallTile::Tile(t) => c[t.index()] += 1,
                    WallTile::Flower(_) => flowers += 1,
                }
            }
            for (k, n) in self.hands[s].iter().enumerate() {
                c[k] += n;
            }
            for p in self.packs(seat) {
                p.add_to(&mut c);
            }
            for (t, claimed) in self.discards(seat) {
                if !claimed {
                    c[t.index()] += 1;
                }
            }
            flowers += usize::from(self.flowers[s]);
        }
        let want_flowers = if self.wall.has_flowers() { 8 } else { 0 };
        c.iter().all(|&n| n == 4) && flowers == want_flowers
    }
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("phase", &self.phase)
            .field("left", &self.left)
            .field("outcome", &self.outcome)
            .finish_non_exhaustive()
    }
}

/// What one seat may see: its own tiles, everything shown to the table, and nothing else (not
/// other seats' concealed tiles, their concealed kongs' tiles, or the wall).
#[derive(Clone, Copy)]
pub struct View<'a> {
    game: &'a Game,
    seat: u8,
}

impl<'a> View<'a> {
    /// The viewing seat.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The seat's wind.
    pub fn seat_wind(&self) -> Wind {
        Wind::from_index(self.seat).unwrap_or_default()
    }

    /// The prevalent wind.
    pub fn quan(&self) -> Wind {
        self.game.quan
    }

    /// The seat's concealed tiles (the drawn tile included on its turn).
    pub fn hand(&self) -> &'a Counts {
        self.game.hand(self.seat)
    }

    /// The seat's own packs.
    pub fn own_packs(&self) -> &'a [Pack] {
        self.game.packs(self.seat)
    }

    /// `seat`'s packs as the table sees them: another seat's concealed kong is `None`.
    pub fn packs(&self, seat: u8) -> impl Iterator<Item = Option<Pack>> + 'a {
        let mine = seat % 4 == self.seat;
        self.game
            .packs(seat)
            .iter()
            .map(move |p| (mine || p.is_melded()).then_some(*p))
    }

    /// `seat`'s discards, each with whether it was claimed.
    pub fn discards(&self, seat: u8) -> &'a [(Tile, bool)] {
        self.game.discards(seat)
    }

    /// Flowers `seat` has set aside.
    pub fn flowers(&self, seat: u8) -> u8 {
        self.game.flowers(seat)
    }

    /// Tiles left in `seat`'s quarter.
    pub fn wall_left(&self, seat: u8) -> u8 {
        self.game.wall_left(seat)
    }

    /// Everything that happened so far, as the seat may see it ([`Event::seen_by`]).
    pub fn events(&self) -> impl Iterator<Item = Event> + 'a {
        let seat = self.seat;
        self.game.events().iter().map(move |e| e.seen_by(seat))
    }

    /// Tiles shown to everyone, by kind ([`Game::shown`]).
    pub fn shown(&self) -> &'a Counts {
        self.game.shown()
    }

    /// The decision the seat faces, if any.
    pub fn decision(&self) -> Option<Decision> {
        self.game.decision(self.seat)
    }

    /// The seat's legal answers now.
    pub fn legal_actions(&self, out: &mut ActionList) {
        self.game.legal_actions(self.seat, out)
    }

    /// How the hand ended, once it has.
    pub fn outcome(&self) -> Option<&'a Outcome> {
        self.game.outcome()
    }

    /// The tiles the seat cannot see anywhere, by kind: four less its own tiles, its packs,
    /// other seats' shown packs and all unclaimed discards.
    pub fn unseen(&self) -> Counts {
        let mut c = [4u8; TILE_KINDS];
        let sub = |c: &mut Counts, k: usize, n: u8| c[k] = c[k].saturating_sub(n);
        for (k, &n) in self.hand().iter().enumerate() {
            sub(&mut c, k, n);
        }
        for seat in 0..4 {
            for p in self.packs(seat).flatten() {
                let mut pc = [0u8; TILE_KINDS];
                p.add_to(&mut pc);
                for (k, &n) in pc.iter().enumerate() {
                    sub(&mut c, k, n);
                }
            }
            for (t, claimed) in self.discards(seat) {
                if !claimed {
                    sub(&mut c, t.index(), 1);
                }
            }
        }
        c
    }
}
