//! The seats of a Mahjong hand: the [`Player`] trait the built-in bots implement, the built-in
//! bots, and [`HandRecord`], a played hand as the tools over hands read it. Hands are played by
//! the one runner (`arena-table`, through `arena-games`' `MahjongTable` and `MahjongBot`):
//! untimed on its fast path, or refereed under the contest's time control when a program sits
//! at the table.

pub mod efficiency;
pub mod expert;
mod greedy;
mod random;
mod record;
pub mod spec;

pub use expert::ExpertBot;
pub use greedy::GreedyBot;
pub use random::RandomBot;
pub use record::{HandRecord, HandVerdict};

use std::time::Duration;

use mahjong::{Action, ActionList, View};

/// What went wrong with a seat: the one verdict-kind type of every game.
pub use arena_verdict::VerdictKind;

/// A seat's bot: built-in or a program.
///
/// A hand calls [`Player::start_hand`] once, then [`Player::decide`] for every decision the
/// seat faces, then [`Player::end_hand`] once.
pub trait Player: Send {
    /// The bot's name, with its parameters.
    fn name(&self) -> String;

    /// A new hand begins: the seat (0–3) and a seed for any randomness the bot uses. Program
    /// bots start their process here; an error makes the seat dead for the hand.
    fn start_hand(&mut self, seat: u8, hand_seed: u64) -> Result<(), BotFault>;

    /// The seat's answer to the decision in `view`, chosen from `legal` (never empty).
    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Reply;

    /// The hand is over (`view.outcome()` says how). Program bots are stopped and reaped here.
    fn end_hand(&mut self, view: &View<'_>);
}

// Inlined: a borrowed player is called once per decision on the fast path.
impl<P: Player + ?Sized> Player for &mut P {
    #[inline]
    fn name(&self) -> String {
        (**self).name()
    }
    #[inline]
    fn start_hand(&mut self, seat: u8, hand_seed: u64) -> Result<(), BotFault> {
        (**self).start_hand(seat, hand_seed)
    }
    #[inline]
    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Reply {
        (**self).decide(view, legal)
    }
    #[inline]
    fn end_hand(&mut self, view: &View<'_>) {
        (**self).end_hand(view)
    }
}

impl<P: Player + ?Sized> Player for Box<P> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn start_hand(&mut self, seat: u8, hand_seed: u64) -> Result<(), BotFault> {
        (**self).start_hand(seat, hand_seed)
    }
    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Reply {
        (**self).decide(view, legal)
    }
    fn end_hand(&mut self, view: &View<'_>) {
        (**self).end_hand(view)
    }
}

/// A seat's answer and how long it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The action, or the fault that stopped the bot from giving one.
    pub answer: Result<Action, BotFault>,
    /// The time the answer took, for timed bots (programs); `None` for built-in bots, which are
    /// untimed so that a match of built-ins is deterministic from its seed.
    pub elapsed: Option<Duration>,
}

impl Reply {
    /// An untimed answer (a built-in bot's).
    pub fn untimed(action: Action) -> Reply {
        Reply {
            answer: Ok(action),
            elapsed: None,
        }
    }
}

/// A fault of a bot: its kind and a reason its author can act on, e.g.
/// `answered "out 5X": "5X" is not a tile`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BotFault {
    /// The kind of fault.
    pub kind: VerdictKind,
    /// What exactly happened.
    pub reason: String,
}

impl BotFault {
    /// A fault of `kind` with `reason`.
    pub fn new(kind: VerdictKind, reason: impl Into<String>) -> BotFault {
        BotFault {
            kind,
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for BotFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind, self.reason)
    }
}

impl std::error::Error for BotFault {}

/// A small seeded generator for bots: ChaCha8 with unbiased bounded draws.
#[derive(Clone, Debug)]
pub struct BotRng(rand_chacha::ChaCha8Rng);

impl BotRng {
    /// The stream of `seed` for `seat` (distinct seats get distinct streams).
    pub fn new(seed: u64, seat: u8) -> BotRng {
        use rand_core::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(u64::from(seat));
        BotRng(rng)
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-and-reject method.
    pub fn below(&mut self, n: u32) -> u32 {
        use rand_core::RngCore;
        let mut m = u64::from(self.0.next_u32()) * u64::from(n);
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = u64::from(self.0.next_u32()) * u64::from(n);
            }
        }
        (m >> 32) as u32
    }
}

/// A built-in bot by name (`random`, `greedy`, `expert`: [`spec::BotSpec`]), seeded per hand by
/// [`Player::start_hand`].
pub fn builtin(name: &str) -> Option<Box<dyn Player>> {
    name.parse::<spec::BotSpec>().ok()?.build_builtin()
}

pub use spec::BUILTIN_NAMES;
