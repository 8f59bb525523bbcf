//! The game abstraction a table runs: state, per-seat observations, pending decisions (one seat
//! or several at once), action validation, the automatic action for a seat at fault, the outcome
//! and the public history.

use std::fmt;

use arena_proto::v1;

/// The one fault of a seat (a program's, a remote bot's, an in-process answer the rules refuse),
/// defined with the programs that commit most of them; the runner judges every one.
pub use arena_line::{DETAIL_CHARS, Fault, verdict_name};

/// A decision the game is waiting for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pending {
    /// The seat that decides.
    pub seat: u32,
    /// What it decides.
    pub kind: v1::DecisionKind,
}

/// What happens to a seat that gets a verdict (the job's [`v1::VerdictPolicy`], resolved).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The seat's side loses at once.
    Forfeit,
    /// The seat plays automatically for the rest of the game and takes the verdict penalty.
    PlayOn,
}

/// A game a table can run. Implementations are pure rules: no I/O, no clocks.
///
/// The table asks [`TableGame::pending`] for the decisions it waits for, puts each to its seat,
/// checks every answer ([`TableGame::decode`] for answers from the wire, [`TableGame::check`]
/// for every answer), then applies one action per pending decision at once with
/// [`TableGame::apply`]. Several decisions pending together (Mahjong claims after a discard) are
/// settled together.
pub trait TableGame: Clone + Send + Sync + 'static {
    /// A decision in the rules engine's own terms (what in-process players answer).
    type Action: Clone + fmt::Debug + Send + Sync + 'static;

    /// What one seat may see: its own cards and public information, nothing else. In-process
    /// players decide from it alone ([`crate::LocalPlayer`]), so a built-in bot cannot look at
    /// another seat's hand: the type does not hold it.
    type View<'a>
    where
        Self: 'a;

    /// The game's registered name, as the wire names it (`DecisionRequest.game`).
    fn game(&self) -> &'static str;

    /// How many seats the table has.
    fn seat_count(&self) -> usize;

    /// The policy when the job leaves it unspecified.
    fn default_policy(&self) -> Policy;

    /// Appends the decisions the game waits for now to `out`, in seat order; none once the
    /// game is over. The fast path calls it with a reused buffer.
    fn pending_into(&self, out: &mut Vec<Pending>);

    /// The decisions the game waits for now, in seat order; empty once the game is over.
    fn pending(&self) -> Vec<Pending> {
        let mut out = Vec::new();
        self.pending_into(&mut out);
        out
    }

    /// When several seats are pending together, the seat whose action they answer (Mahjong:
    /// the discarder, or the owner of the kong being robbed); `None` when no seat's action
    /// opened the round, the default. Recorded on the round's `claim_window` span.
    fn answered_seat(&self) -> Option<u32> {
        None
    }

    /// What `seat` may see now, for an in-process player.
    fn view(&self, seat: u32) -> Self::View<'_>;

    /// What `seat` may see now, as sent to a remote seat: its own cards and public information,
    /// nothing else.
    fn observation(&self, seat: u32) -> v1::Observation {
        self.observation_from(seat, 0)
    }

    /// [`TableGame::observation`] with its events from index `from` on, `events_from` saying
    /// so (an incremental observation, for a seat stream that already carried the first
    /// `from`): the events left out are not even built. A seat's events only ever grow, so
    /// what it was sent earlier is a prefix of them; `from` past the end gives none.
    fn observation_from(&self, seat: u32, from: usize) -> v1::Observation;

    /// Reads an answer from the wire for `pending`. Malformed answers and actions the rules
    /// refuse are faults; an `Ok` action has passed [`TableGame::check`].
    fn decode(&self, pending: &Pending, action: &v1::Action) -> Result<Self::Action, Fault>;

    /// Checks an action against the rules for `pending` without applying it.
    fn check(&self, pending: &Pending, action: &Self::Action) -> Result<(), Fault>;

    /// The action as a wire message (for the replay).
    fn encode(&self, action: &Self::Action) -> v1::Action;

    /// Appends `action` to `buf` as the body of its [`v1::Action`] message (no length prefix):
    /// byte for byte what `prost` writes for [`TableGame::encode`]'s message. The replay keeps
    /// each action so, written once as it is taken. The default encodes that message; a game
    /// whose tables run by the thousand writes the bytes directly.
    fn encode_action_into(&self, action: &Self::Action, buf: &mut Vec<u8>) {
        prost::Message::encode_raw(&self.encode(action), buf);
    }

    /// The action the referee takes for a seat at fault.
    fn automatic(&self, pending: &Pending) -> Self::Action;

    /// Applies one checked action per pending decision, in the order of [`TableGame::pending`].
    /// An error means the game and the checks disagree (a bug); the state is then unspecified
    /// and the table ends with an error.
    fn apply(&mut self, actions: &[(Pending, Self::Action)]) -> Result<(), String>;

    /// Checks and applies one action per pending decision at once: the fast path's step, for
    /// actions straight from in-process players. A refused action is the seat's and its fault,
    /// and nothing is applied. The default [`TableGame::check`]s every action, then
    /// [`TableGame::apply`]s them; a game whose rules engine checks while applying anyway
    /// overrides it to check once.
    fn check_and_apply(&mut self, actions: &[(Pending, Self::Action)]) -> Result<(), (u32, Fault)> {
        for (p, a) in actions {
            self.check(p, a).map_err(|f| (p.seat, f))?;
        }
        self.apply(actions).map_err(|e| {
            let seat = actions.first().map_or(0, |(p, _)| p.seat);
            (seat, Fault::illegal(e))
        })
    }

    /// How the game ended, once it is over.
    fn outcome(&self) -> Option<v1::Outcome>;

    /// How the game ends when `seat` forfeits now: its side loses.
    fn forfeit(&self, seat: u32) -> v1::Outcome;

    /// Writes the public event history into the replay.
    fn record_history(&self, replay: &mut v1::Replay);

    /// Appends the public event history to `buf` as the encoded fields of a [`v1::Replay`]
    /// holding only it: byte for byte what `prost` writes for the fields
    /// [`TableGame::record_history`] fills in (those after `result`). The default encodes them
    /// from that; a game whose tables run by the thousand writes the bytes directly.
    fn encode_history_into(&self, buf: &mut Vec<u8>) {
        let mut replay = v1::Replay::default();
        self.record_history(&mut replay);
        prost::Message::encode_raw(&replay, buf);
    }
}
