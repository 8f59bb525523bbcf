//! Seats: who answers a table's decisions. Three kinds:
//!
//! - [`LocalPlayer`]: an in-process bot called directly with the rules engine's own types (no
//!   encoding, no gRPC): the fast path for built-in bots;
//! - [`crate::remote::RemoteSeat`]: a `SeatHost.Seat` stream to bot-host, for registered bots;
//! - [`crate::program::ProgramSeat`]: a program the table runs itself through its game's line
//!   protocol (the CLI's `cmd:` seats).
//!
//! Each produces a [`Reply`]: what the seat answered and how long it took.

use std::time::Duration;

use arena_proto::v1;

use crate::game::{Fault, Pending, TableGame};

/// An in-process player of game `G`.
///
/// It decides from its seat's [`TableGame::View`] alone: the drivers never hand it the game
/// state, so what a built-in bot can see is fixed by the view's type, not by convention.
///
/// The trait asks for neither `Send` nor `'static`, so the fast path can seat borrowed bots; the
/// referee's drivers, which may move a player to another thread, take `Box<dyn LocalPlayer<G> +
/// Send>`.
pub trait LocalPlayer<G: TableGame> {
    /// The bot's name.
    fn name(&self) -> String;

    /// True when decisions are CPU-heavy (search): the async runner then calls it on a blocking
    /// thread and can give up on it at the hard cap; other players are called inline.
    fn is_heavy(&self) -> bool {
        false
    }

    /// Called once before the game with the player's seat and the table's seed.
    fn start(&mut self, seat: u32, seed: u64);

    /// The action for `pending` (a decision of this player's seat), from the seat's view.
    fn decide(&mut self, view: &G::View<'_>, pending: &Pending) -> G::Action;

    /// Called once when the game is over (also after a forfeit), with the seat's last view.
    fn finish(&mut self, _view: &G::View<'_>) {}
}

impl<G: TableGame, P: LocalPlayer<G> + ?Sized> LocalPlayer<G> for &mut P {
    fn name(&self) -> String {
        (**self).name()
    }

    fn is_heavy(&self) -> bool {
        (**self).is_heavy()
    }

    fn start(&mut self, seat: u32, seed: u64) {
        (**self).start(seat, seed)
    }

    fn decide(&mut self, view: &G::View<'_>, pending: &Pending) -> G::Action {
        (**self).decide(view, pending)
    }

    fn finish(&mut self, view: &G::View<'_>) {
        (**self).finish(view)
    }
}

/// What a seat answered to one decision.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer<A> {
    /// An in-process player's action (still checked by the rules).
    Action(A),
    /// An action message from a remote seat, to decode and check.
    Message(v1::Action),
    /// The seat failed: bot-host reported a fault of the bot, the bot panicked.
    Fault(Fault),
    /// No answer before the hard cap.
    NoAnswer,
    /// The platform failed, not the bot: bot-host could not be reached, its stream broke, or it
    /// gave the seat up for reasons of its own. Never a verdict: the driver opens the seat
    /// again or hands the table back to be played again.
    Platform(String),
}

/// A seat's answer and how long it took.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply<A> {
    /// The answer.
    pub answer: Answer<A>,
    /// From the request to the answer (the hard cap for [`Answer::NoAnswer`]).
    pub elapsed: Duration,
}

impl<A> Reply<A> {
    /// An answer that took `elapsed`.
    pub fn new(answer: Answer<A>, elapsed: Duration) -> Reply<A> {
        Reply { answer, elapsed }
    }
}

/// The message of a caught panic.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}
