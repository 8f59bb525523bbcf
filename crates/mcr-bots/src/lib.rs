//! The seats of a Chinese Standard Mahjong hand: the [`Player`] trait, the built-in bots
//! ([`RandomBot`], [`EfficiencyBot`], [`FanBot`], [`SearchBot`]) and [`play_hand`], which plays one hand with
//! four players under a [`FaultPolicy`].
//!
//! Bots see only their seat's [`View`]; they answer from the legal answers the rules list, so
//! a built-in bot never faults (the self-play test holds them to that over thousands of hands).

mod driver;
mod efficiency;
mod fanbot;
mod random;
mod search;

pub use driver::{HandRecord, play_hand};
pub use efficiency::EfficiencyBot;
pub use fanbot::FanBot;
pub use random::RandomBot;
pub use search::{MAX_CANDIDATES, MAX_HORIZON, MAX_SAMPLES, SearchBot, SearchConfig};

pub use mcr::FaultPolicy;
use mcr::{Action, ActionList, View};

/// A seat's bot.
///
/// [`play_hand`] calls [`Player::start_hand`] once, then [`Player::decide`] for every decision
/// the seat faces while it plays.
pub trait Player: Send {
    /// The bot's name.
    fn name(&self) -> String;

    /// A new hand begins: the seat (0–3) and a seed for any randomness the bot uses.
    fn start_hand(&mut self, seat: u8, hand_seed: u64);

    /// The seat's answer to the decision in `view`, chosen from `legal` (never empty).
    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Action;
}

impl<P: Player + ?Sized> Player for Box<P> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn start_hand(&mut self, seat: u8, hand_seed: u64) {
        (**self).start_hand(seat, hand_seed)
    }
    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        (**self).decide(view, legal)
    }
}

/// A borrowed bot plays as the bot (a match lends each hand's table the bots it keeps).
impl<P: Player + ?Sized> Player for &mut P {
    fn name(&self) -> String {
        (**self).name()
    }
    fn start_hand(&mut self, seat: u8, hand_seed: u64) {
        (**self).start_hand(seat, hand_seed)
    }
    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        (**self).decide(view, legal)
    }
}

/// The built-in bots' names, weakest first. `search` also takes parameters:
/// `search:samples=N,candidates=N,horizon=N` ([`SearchConfig::parse`]).
pub const BUILTIN_NAMES: [&str; 4] = ["random", "efficiency", "fan", "search"];

/// A built-in bot by name ([`BUILTIN_NAMES`], or `search:` with parameters); `None` for an
/// unknown name or bad parameters ([`builtin_checked`] says why).
pub fn builtin(name: &str) -> Option<Box<dyn Player>> {
    builtin_checked(name).ok()
}

/// A built-in bot by name, or why there is none (the unknown name, or the bad parameter).
pub fn builtin_checked(name: &str) -> Result<Box<dyn Player>, String> {
    let (base, params) = match name.split_once(':') {
        Some((b, p)) => (b, Some(p)),
        None => (name, None),
    };
    match (base, params) {
        ("random", None) => Ok(Box::new(RandomBot::new())),
        ("efficiency", None) => Ok(Box::new(EfficiencyBot::new())),
        ("fan", None) => Ok(Box::new(FanBot::new())),
        ("search", p) => Ok(Box::new(SearchBot::new(SearchConfig::parse(
            p.unwrap_or(""),
        )?))),
        _ => Err(format!(
            "unknown MCR bot {name:?} (one of {}; search takes samples=N,candidates=N,horizon=N)",
            BUILTIN_NAMES.join(", ")
        )),
    }
}

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
