//! Names of Mahjong bots, as users write them: `random`, `greedy`, `expert`, or
//! `cmd:PROGRAM [ARGS]` for a program speaking the contest's line protocol (run by the caller,
//! which knows how to start programs; this crate only names it).

use std::fmt;
use std::str::FromStr;

use crate::{ExpertBot, GreedyBot, Player, RandomBot};

/// The built-in bots' names, for messages and `--help`.
pub const BUILTIN_NAMES: &[&str] = &["random", "greedy", "expert"];

/// A bot named by a user.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    /// A uniformly random legal action.
    Random,
    /// Lowest shanten, claims that lower it, always wins.
    Greedy,
    /// Expected value over routes and fans, with defence.
    Expert,
    /// A program and its arguments, as written after `cmd:`.
    Cmd(String),
}

/// A name that is no bot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// `cmd:` with nothing after it.
    #[error("cmd: needs a program, e.g. cmd:python3 bot.py")]
    EmptyCmd,
    /// Not a built-in name and not `cmd:…`.
    #[error(
        "unknown bot {0:?}: the built-in bots are random, greedy and expert; a program is cmd:PROGRAM [ARGS]"
    )]
    Unknown(String),
}

impl FromStr for BotSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<BotSpec, SpecError> {
        let s = s.trim();
        if let Some(cmd) = s.strip_prefix("cmd:") {
            let cmd = cmd.trim();
            return if cmd.is_empty() {
                Err(SpecError::EmptyCmd)
            } else {
                Ok(BotSpec::Cmd(cmd.to_string()))
            };
        }
        match s {
            "random" => Ok(BotSpec::Random),
            "greedy" => Ok(BotSpec::Greedy),
            "expert" => Ok(BotSpec::Expert),
            _ => Err(SpecError::Unknown(cut(s))),
        }
    }
}

/// A user's text cut for an error message.
fn cut(s: &str) -> String {
    match s.char_indices().nth(80) {
        None => s.to_string(),
        Some((end, _)) => format!("{}…", &s[..end]),
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Expert => f.write_str("expert"),
            BotSpec::Cmd(c) => write!(f, "cmd:{c}"),
        }
    }
}

impl BotSpec {
    /// A fresh built-in player; `None` for `cmd:` bots, which the caller runs as programs.
    pub fn build_builtin(&self) -> Option<Box<dyn Player>> {
        Some(match self {
            BotSpec::Random => Box::new(RandomBot::new()),
            BotSpec::Greedy => Box::new(GreedyBot::new()),
            BotSpec::Expert => Box::new(ExpertBot::new()),
            BotSpec::Cmd(_) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for name in ["random", "greedy", "expert", "cmd:python3 bot.py --fast"] {
            let spec: BotSpec = name.parse().unwrap();
            assert_eq!(spec.to_string(), name);
            assert_eq!(spec.build_builtin().is_some(), !name.starts_with("cmd:"));
        }
        assert_eq!(" expert ".parse::<BotSpec>(), Ok(BotSpec::Expert));
        for &name in BUILTIN_NAMES {
            assert_eq!(
                name.parse::<BotSpec>()
                    .unwrap()
                    .build_builtin()
                    .unwrap()
                    .name(),
                name
            );
        }
    }

    #[test]
    fn a_bad_name_says_what_is_allowed() {
        let e = "expret".parse::<BotSpec>().unwrap_err().to_string();
        assert!(
            e.contains("\"expret\"") && e.contains("random, greedy and expert"),
            "{e}"
        );
        assert!(e.contains("cmd:PROGRAM"), "{e}");
        assert_eq!("cmd:  ".parse::<BotSpec>(), Err(SpecError::EmptyCmd));
        let long = "x".repeat(500);
        assert!(long.parse::<BotSpec>().unwrap_err().to_string().len() < 250);
    }
}
