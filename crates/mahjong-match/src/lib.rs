//! Contest Mahjong matches: the 96-hand duplicate schedule ([`schedule`]), hands played in
//! parallel ([`run`]), the statistics of a match ([`stats`]: totals, places, intervals) and its
//! logs ([`log`]: the old server's line format, JSON lines, a CSV score sheet).

pub mod log;
pub mod run;

/// The schedule and the statistics live in the rules crate (pure arithmetic the matchmaker's
/// competitions share); re-exported so a match reads them here as before.
pub use mahjong::{schedule, stats};

pub use mahjong_bots::spec::BotSpec;
use mahjong_bots::{Player, TimeLimits};
use mahjong_line::{CmdBot, CmdBotConfig};

/// A fresh player for `spec`: a built-in bot, or a program speaking the line protocol (a
/// [`CmdBot`], which starts a fresh process every hand, timed by `limits`). `Err` says why it
/// cannot be made (a command line that does not parse).
pub fn player(spec: &BotSpec, limits: TimeLimits) -> Result<Box<dyn Player>, String> {
    match spec {
        BotSpec::Cmd(cmd) => {
            let config = CmdBotConfig {
                time: limits,
                ..CmdBotConfig::default()
            };
            CmdBot::from_spec(cmd, config)
                .map(|b| Box::new(b) as Box<dyn Player>)
                .map_err(|e| e.to_string())
        }
        builtin => builtin
            .build_builtin()
            .ok_or_else(|| format!("{builtin} is not a built-in bot")),
    }
}
