//! Mahjong's built-in bots by name (`random`, `greedy`, `expert`), and built-in bots deciding
//! requests from the wire ([`MahjongRequestBot`]).

use arena_proto::v1;
use mahjong_bots::Player;
use mahjong_bots::spec::{BUILTIN_NAMES, BotSpec};

use super::convert;
use super::request::MahjongRequest;
use crate::{BadRequest, RequestBot};

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

/// A built-in Mahjong bot answering decision requests: each request is read back into the
/// seat's [`mahjong::View`] ([`MahjongRequest`]), so the bot sees what the request shows and no
/// more. The hand starts (the bot is told its seat and seed) at the first request.
pub struct MahjongRequestBot {
    player: Box<dyn Player>,
    seed: u64,
    seat: Option<u8>,
}

impl MahjongRequestBot {
    /// The built-in bot `spec` names, seeded with `seed`; `None` for `cmd:` specs.
    pub fn new(spec: &BotSpec, seed: u64) -> Option<MahjongRequestBot> {
        Some(MahjongRequestBot {
            player: spec.build_builtin()?,
            seed,
            seat: None,
        })
    }
}

impl RequestBot for MahjongRequestBot {
    fn decide(&mut self, req: &v1::DecisionRequest) -> Result<v1::Action, BadRequest> {
        let r = MahjongRequest::from_request(req)?;
        if self.seat != Some(r.seat()) {
            self.seat = Some(r.seat());
            // Built-in bots cannot fail to start.
            let _ = self.player.start_hand(r.seat(), self.seed);
        }
        let legal = r.legal();
        let action = match self.player.decide(&r.view(), &legal).answer {
            Ok(a) if legal.contains(a) => a,
            // Built-in bots answer from the legal list; should one ever not, the seat plays
            // what a dead seat plays rather than lose the table.
            _ => r.automatic(),
        };
        Ok(convert::action(action))
    }
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

    #[test]
    fn request_bots_play_whole_hands_from_the_requests_alone() {
        use crate::mahjong::{MahjongSpec, MahjongTable};
        use arena_table::TableGame;
        for (seed, spec) in [
            (1, BotSpec::Expert),
            (2, BotSpec::Greedy),
            (3, BotSpec::Random),
        ] {
            let mut t = MahjongTable::new(&MahjongSpec {
                deal: mahjong::Deal::from_seed(seed),
                rules: mahjong::Rules::default(),
            });
            let mut bots: Vec<MahjongRequestBot> = (0..4)
                .map(|s| MahjongRequestBot::new(&spec, s).unwrap())
                .collect();
            let mut asked = 0;
            while t.outcome().is_none() {
                let mut answers = Vec::new();
                for p in t.pending() {
                    let req = v1::DecisionRequest {
                        request_id: asked,
                        table_id: "m".into(),
                        seat: p.seat,
                        game: "mahjong".into(),
                        kind: p.kind as i32,
                        deadline_ms: 1000,
                        observation: Some(t.observation(p.seat)),
                    };
                    asked += 1;
                    let a = bots[p.seat as usize].decide(&req).unwrap();
                    // Every answer is one the rules take.
                    answers.push((p, t.decode(&p, &a).unwrap()));
                }
                t.check_and_apply(&answers).unwrap();
            }
            assert!(asked > 20, "{spec}: {asked} requests");
        }
        assert!(MahjongRequestBot::new(&BotSpec::Cmd("x".into()), 0).is_none());
    }
}
