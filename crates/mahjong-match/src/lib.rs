//! Contest Mahjong matches: the 96-hand duplicate schedule ([`schedule`]), hands played in
//! parallel ([`run`]), the statistics of a match ([`stats`]: totals, places, intervals) and its
//! logs ([`log`]: the old server's line format, JSON lines, a CSV score sheet).

pub mod log;
pub mod run;

/// The schedule and the statistics live in the rules crate (pure arithmetic the matchmaker's
/// competitions share); re-exported so a match reads them here as before.
pub use mahjong::{schedule, stats};

use mahjong_bots::Player;
pub use mahjong_bots::spec::BotSpec;

/// A fresh player for `spec`: a built-in bot, or a program speaking the line protocol (which
/// starts a fresh process every hand). `Err` says why it cannot be made.
pub fn player(spec: &BotSpec) -> Result<Box<dyn Player>, String> {
    match spec {
        BotSpec::Cmd(cmd) => Err(format!(
            "cmd:{cmd}: program bots are not available in this build"
        )),
        builtin => builtin
            .build_builtin()
            .ok_or_else(|| format!("{builtin} is not a built-in bot")),
    }
}
