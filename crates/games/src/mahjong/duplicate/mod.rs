//! Contest Mahjong matches: the 96-hand duplicate schedule played in parallel ([`run`]) and
//! written down ([`log`]: the old server's line format, JSON lines, a CSV score sheet); the
//! schedule and the statistics are the rules crate's (`mahjong::schedule`, `mahjong::stats`).
//!
//! Every hand is played on the one runner (`arena-table`): a hand of built-in bots on its fast
//! path (rules only, untimed, so a match of built-ins is the same from its seed every time), a
//! hand with a program refereed like any table (the job checked by [`crate::validate`], the
//! contest's time control, verdicts, play-on), the program in a fresh process per hand spoken
//! to in the 2015 line protocol through the session bot-host uses. Dou Dizhu's counterpart is
//! [`crate::ddz::eval`].

pub mod log;
pub mod run;

use arena_line::{CmdSpec, Launch, WorkDir};
use arena_table::ProgramBot;
use mahjong_bots::Player;
use mahjong_bots::spec::BotSpec;

/// A bot of a match, as one worker thread holds it.
pub enum Entrant {
    /// A built-in bot, kept from hand to hand (seeded afresh each hand).
    Player(Box<dyn Player>),
    /// A program, started afresh for each hand and seat.
    Program(Box<ProgramBot>),
}

/// The entrant for `spec`: a built-in bot, or a program speaking the line protocol, started in
/// a fresh working directory of its own each hand. `Err` says why it cannot be made (a command
/// line that does not parse).
pub fn entrant(spec: &BotSpec) -> Result<Entrant, String> {
    match spec {
        BotSpec::Cmd(cmd) => {
            let cmd = CmdSpec::parse(cmd).map_err(|e| e.to_string())?;
            let launch = Launch {
                workdir: WorkDir::Fresh,
                ..Launch::default()
            };
            Ok(Entrant::Program(Box::new(ProgramBot { cmd, launch })))
        }
        builtin => builtin
            .build_builtin()
            .map(Entrant::Player)
            .ok_or_else(|| format!("{builtin} is not a built-in bot")),
    }
}
