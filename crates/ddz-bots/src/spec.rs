//! Bot names as users write them: `random`, `seed`, `expert`, `search[:k=v,…]`, `ladder:K/N`,
//! `cmd:PROGRAM [ARGS]`.

use std::fmt;
use std::str::FromStr;

use crate::{Bot, LadderBot, RandomBot, RuleBot, SearchBot, SearchConfig};

/// A parsed bot name.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// Uniformly random legal actions.
    Random,
    /// The seed algorithm's player as written.
    Seed,
    /// The seed player with farmer cooperation, hand breaking and bombs.
    Expert,
    /// Determinized Monte Carlo search.
    Search(SearchConfig),
    /// Level `level` of an `levels`-level ladder.
    Ladder {
        /// 1 = weakest.
        level: u32,
        /// Number of levels.
        levels: u32,
    },
    /// An external program speaking the line protocol (built by the caller, not here).
    Cmd(String),
}

impl FromStr for BotSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<BotSpec, String> {
        let s = s.trim();
        let (head, params) = s.split_once(':').unwrap_or((s, ""));
        match head {
            "random" => Ok(BotSpec::Random),
            "seed" => Ok(BotSpec::Seed),
            "expert" => Ok(BotSpec::Expert),
            "search" => SearchConfig::parse(params).map(BotSpec::Search),
            "ladder" => {
                let bad = || {
                    format!(
                        "ladder bots are named ladder:K/N with 1 ≤ K ≤ N and 2 ≤ N ≤ {}, got {:?}",
                        crate::ladder::MAX_LEVELS,
                        cut(s)
                    )
                };
                let (k, n) = params.split_once('/').ok_or_else(bad)?;
                let level: u32 = k.trim().parse().map_err(|_| bad())?;
                let levels: u32 = n.trim().parse().map_err(|_| bad())?;
                LadderBot::new(level, levels).ok_or_else(bad)?;
                Ok(BotSpec::Ladder { level, levels })
            }
            "cmd" if !params.trim().is_empty() => Ok(BotSpec::Cmd(params.trim().to_string())),
            "cmd" => Err("cmd: needs a program, e.g. cmd:python3 bot.py".into()),
            _ => Err(format!(
                "unknown bot {:?} (random, seed, expert, search[:samples=N,candidates=N], ladder:K/N, cmd:PROGRAM)",
                cut(s)
            )),
        }
    }
}

/// A user's bot name, cut for an error message.
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
            BotSpec::Seed => f.write_str("seed"),
            BotSpec::Expert => f.write_str("expert"),
            BotSpec::Search(c) => {
                write!(
                    f,
                    "search:samples={},candidates={}",
                    c.samples, c.candidates
                )?;
                // The default objective is left out, so existing names (and the panel ids hashed
                // from them) stay as they were.
                if c.objective != SearchConfig::default().objective {
                    write!(f, ",objective={}", c.objective)?;
                }
                Ok(())
            }
            BotSpec::Ladder { level, levels } => write!(f, "ladder:{level}/{levels}"),
            BotSpec::Cmd(c) => write!(f, "cmd:{c}"),
        }
    }
}

impl BotSpec {
    /// Builds a built-in bot; `None` for `cmd:` bots, which the caller runs as programs.
    pub fn build_builtin(&self) -> Option<Box<dyn Bot>> {
        Some(match self {
            BotSpec::Random => Box::new(RandomBot::new(0)),
            BotSpec::Seed => Box::new(RuleBot::seed()),
            BotSpec::Expert => Box::new(RuleBot::expert()),
            BotSpec::Search(c) => Box::new(SearchBot::new(*c)),
            BotSpec::Ladder { level, levels } => Box::new(LadderBot::new(*level, *levels)?),
            BotSpec::Cmd(_) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_objective_survives_the_canonical_name() {
        // Found by fuzzing (bot_spec): the name dropped the objective, so a job's
        // `search:objective=adp` seat was recorded, and read back, as a win-rate search bot.
        let spec: BotSpec = "search:samples=40,candidates=16,objective=adp"
            .parse()
            .unwrap();
        assert_eq!(
            spec.to_string(),
            "search:samples=40,candidates=16,objective=adp"
        );
        assert_eq!(spec.to_string().parse::<BotSpec>(), Ok(spec));
        let default: BotSpec = "search:objective=wp".parse().unwrap();
        assert_eq!(default.to_string(), "search:samples=40,candidates=16");
    }

    #[test]
    fn names_round_trip_and_errors_explain() {
        for s in [
            "random",
            "seed",
            "expert",
            "ladder:3/10",
            "cmd:python3 bot.py",
        ] {
            assert_eq!(s.parse::<BotSpec>().unwrap().to_string(), s);
        }
        assert_eq!(
            "search:samples=8".parse::<BotSpec>().unwrap(),
            BotSpec::Search(SearchConfig {
                samples: 8,
                ..SearchConfig::default()
            })
        );
        assert!(
            "ladder:0/10"
                .parse::<BotSpec>()
                .unwrap_err()
                .contains("1 ≤ K ≤ N")
        );
        assert!("ladder:11/10".parse::<BotSpec>().is_err());
        assert!(
            "cmd:"
                .parse::<BotSpec>()
                .unwrap_err()
                .contains("needs a program")
        );
        assert!(
            "alphago"
                .parse::<BotSpec>()
                .unwrap_err()
                .contains("unknown bot")
        );
    }
}
