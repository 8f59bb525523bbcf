//! [`HandRecord`]: one played hand as the tools over hands read it (the 2015 server's logs, the
//! match statistics), whichever runner played it.

use mahjong::{Event, Outcome, Tile};

use crate::VerdictKind;

/// A fault of one seat in one hand.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HandVerdict {
    /// The seat.
    pub seat: u8,
    /// What kind of fault.
    pub kind: VerdictKind,
    /// What exactly happened.
    pub reason: String,
    /// How many events the hand had when it happened (the fault came before
    /// `record.events[at_event]`).
    pub at_event: usize,
}

/// One played hand: its setup, history and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandRecord {
    /// The hand's seed, when the caller knows one (set by whoever made the deal).
    pub seed: Option<u64>,
    /// The seat that drew first.
    pub first: u8,
    /// The 13 tiles dealt to each seat, in dealing order.
    pub initial: [[Tile; 13]; 4],
    /// Every event in order.
    pub events: Vec<Event>,
    /// The result of play.
    pub outcome: Outcome,
    /// Time penalty points lost by each seat (they go to nobody).
    pub penalties: [i32; 4],
    /// Every fault, in order.
    pub verdicts: Vec<HandVerdict>,
    /// The seats' scores for the hand: the outcome's scores less the penalties.
    pub scores: [i32; 4],
}
