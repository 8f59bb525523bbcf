//! Fan scoring (placeholder: the fan module is built on its own branch; this holds only the
//! types and the signature the game calls, so the game compiles).

use crate::meld::Meld;
use crate::rules::Reading;
use crate::tile::{Counts, Tile};

/// A winning hand as the fan evaluator reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WinHand<'a> {
    /// The concealed tiles without the winning tile.
    pub concealed: Counts,
    /// The declared sets (concealed kongs included).
    pub melds: &'a [Meld],
    /// The winning tile.
    pub win: Tile,
    /// Won on the seat's own draw.
    pub self_drawn: bool,
    /// Won on the tile of another seat's added kong.
    pub robbed_kong: bool,
}

/// A fan (番种).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Fan {}

/// The fans of a winning hand and their total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FanResult {
    /// The sum of the fans' points.
    pub total: u32,
    /// Each fan with its points (the count included).
    pub fans: Vec<(Fan, u32)>,
}

/// The hand is not a win.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a winning hand")]
pub struct NotAWin;

/// The fans of `hand` under `reading`, or why it does not win.
pub fn evaluate(hand: &WinHand<'_>, reading: Reading) -> Result<FanResult, NotAWin> {
    let mut c = hand.concealed;
    c[hand.win.index()] += 1;
    if crate::shape::is_win_in(&c, reading) {
        Ok(FanResult::default())
    } else {
        Err(NotAWin)
    }
}
