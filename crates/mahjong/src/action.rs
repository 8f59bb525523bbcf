//! What a seat answers when it is asked, and the fixed-capacity list of legal answers.

use std::fmt;

use crate::tile::Tile;

/// A seat's answer to one decision.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The actor discards this tile.
    Discard(Tile),
    /// The actor declares a win on the tile it drew (自摸).
    SelfDrawnWin,
    /// The actor lays down four of this kind from its hand, face down (暗杠).
    ConcealedKong(Tile),
    /// The actor adds this tile to its melded pung of the kind (加杠).
    AddedKong(Tile),
    /// No claim on the discard (or the added kong).
    Pass,
    /// A win on the discard.
    Win,
    /// An exposed kong on the discard (three of the kind in hand).
    Kong,
    /// A pung on the discard (two of the kind in hand).
    Pung,
    /// A chow with the discard, named by the chow's lowest tile; only the seat after the
    /// discarder may chow.
    Chow(Tile),
    /// A win on the tile of another seat's added kong (抢杠和).
    RobKong,
}

impl Action {
    /// Whether the action is one the actor takes on its own turn.
    pub const fn is_turn_action(self) -> bool {
        matches!(
            self,
            Action::Discard(_)
                | Action::SelfDrawnWin
                | Action::ConcealedKong(_)
                | Action::AddedKong(_)
        )
    }
}

impl fmt::Display for Action {
    /// `discard 5S`, `self-drawn-win`, `concealed-kong E`, `added-kong 3T`, `pass`, `win`,
    /// `kong`, `pung`, `chow 7M`, `rob-kong`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Discard(t) => write!(f, "discard {t}"),
            Action::SelfDrawnWin => f.write_str("self-drawn-win"),
            Action::ConcealedKong(t) => write!(f, "concealed-kong {t}"),
            Action::AddedKong(t) => write!(f, "added-kong {t}"),
            Action::Pass => f.write_str("pass"),
            Action::Win => f.write_str("win"),
            Action::Kong => f.write_str("kong"),
            Action::Pung => f.write_str("pung"),
            Action::Chow(t) => write!(f, "chow {t}"),
            Action::RobKong => f.write_str("rob-kong"),
        }
    }
}

/// The most legal actions one decision can have (14 discards, a win, three concealed kongs,
/// added kongs; far fewer answers to a discard), with room to spare.
pub const MAX_ACTIONS: usize = 32;

/// A fixed-capacity list of actions: filling it never allocates.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct ActionList {
    len: u8,
    items: [Action; MAX_ACTIONS],
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
            len: 0,
            items: [Action::Pass; MAX_ACTIONS],
        }
    }

    /// Removes every action.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends `a`.
    ///
    /// # Panics
    /// If the list is full (the game never produces more than [`MAX_ACTIONS`]).
    #[inline]
    pub fn push(&mut self, a: Action) {
        self.items[usize::from(self.len)] = a;
        self.len += 1;
    }

    /// How many actions.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The actions as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..usize::from(self.len)]
    }

    /// Whether `a` is in the list.
    pub fn contains(&self, a: Action) -> bool {
        self.as_slice().contains(&a)
    }

    /// The actions in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Action> {
        self.as_slice().iter()
    }
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a ActionList {
    type Item = &'a Action;
    type IntoIter = std::slice::Iter<'a, Action>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for ActionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
