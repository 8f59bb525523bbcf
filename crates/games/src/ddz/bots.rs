//! Dou Dizhu's built-in bots by name (`random`, `seed`, `expert`, `search[:…]`, `ladder:K/N`),
//! and a built-in bot deciding decision requests read from the wire (bot-host hosts them so the
//! remote path can be measured with the bots the referee runs in-process).

use arena_proto::v1;
use ddz::Phase;
use ddz_bots::{Bot, BotSpec};

use super::convert::{DdzDecision, ddz_action};
use super::request::DdzView;
use crate::{BadRequest, RequestBot};

/// The heads (before `:`) of Dou Dizhu's built-in bot names.
pub const BUILTIN_HEADS: &[&str] = &["random", "seed", "expert", "search", "ladder"];

/// Dou Dizhu's built-in bot names as a user writes them, for messages.
pub const BUILTIN_HELP: &str = "random, seed, expert, search[:samples=N,candidates=N], ladder:K/N";

/// Reads a built-in Dou Dizhu bot name: `None` when the name's head is not a built-in bot's,
/// else the spec or why it does not parse (`ladder:0/10`).
pub fn parse_builtin(name: &str) -> Option<Result<BotSpec, String>> {
    let head = name.split(':').next().unwrap_or_default().trim();
    BUILTIN_HEADS
        .contains(&head)
        .then(|| name.parse::<BotSpec>())
}

/// A built-in Dou Dizhu bot answering decision requests: each request is read back into the
/// seat's [`ddz::Observation`] ([`DdzView`]), so the bot sees what the request shows and no more.
pub struct DdzRequestBot {
    bot: Box<dyn Bot>,
}

impl DdzRequestBot {
    /// The built-in bot `spec` names, seeded with `seed`; `None` for `cmd:` specs.
    pub fn new(spec: &BotSpec, seed: u64) -> Option<DdzRequestBot> {
        let mut bot = spec.build_builtin()?;
        bot.new_game(seed);
        Some(DdzRequestBot { bot })
    }
}

impl RequestBot for DdzRequestBot {
    fn decide(&mut self, req: &v1::DecisionRequest) -> Result<v1::Action, BadRequest> {
        let view = DdzView::from_request(req)?;
        let obs = view.observation();
        let d = match obs.phase {
            Phase::Bidding => DdzDecision::Bid(u32::from(self.bot.bid(&obs))),
            Phase::Doubling => DdzDecision::Double(self.bot.double(&obs)),
            Phase::Play | Phase::Over => {
                let legal = view.legal_moves();
                DdzDecision::Play(self.bot.play(&obs, &legal).cards())
            }
        };
        Ok(ddz_action(d))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_heads_parse_and_other_names_are_not_built_in() {
        assert_eq!(parse_builtin("expert"), Some(Ok(BotSpec::Expert)));
        assert!(matches!(parse_builtin("ladder:0/10"), Some(Err(_))));
        assert_eq!(parse_builtin("my-bot"), None);
        assert_eq!(parse_builtin("cmd:python3 bot.py"), None);
    }
}
