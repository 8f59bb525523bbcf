//! Mahjong's built-in bots by name (`random`, `greedy`, `expert`).

use mahjong_bots::spec::{BUILTIN_NAMES, BotSpec};

/// Mahjong's built-in bot names as a user writes them, for messages.
pub const BUILTIN_HELP: &str = "random, greedy, expert";

/// Reads a built-in Mahjong bot name: `None` when it names none (a registered bot, or a
/// `cmd:` program, which bot-host runs).
pub fn parse_builtin(name: &str) -> Option<Result<BotSpec, String>> {
    let name = name.trim();
    BUILTIN_NAMES
        .contains(&name)
        .then(|| name.parse::<BotSpec>().map_err(|e| e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_names_parse_and_other_names_are_not_built_in() {
        assert_eq!(parse_builtin("expert"), Some(Ok(BotSpec::Expert)));
        assert_eq!(parse_builtin("random"), Some(Ok(BotSpec::Random)));
        assert_eq!(parse_builtin("seed"), None, "a Dou Dizhu name");
        assert_eq!(parse_builtin("cmd:python3 bot.py"), None);
    }
}
