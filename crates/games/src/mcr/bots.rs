//! The built-in bots by name (`random`, `efficiency`, `fan`, `search[:…]`:
//! [`mcr_bots::BUILTIN_NAMES`]), and
//! built-in bots deciding requests from the wire ([`McrRequestBot`]).

use std::fmt;

use arena_proto::v1;
use mcr_bots::Player;

use super::convert;
use super::request::McrRequest;
use crate::{BadRequest, RequestBot};

/// The built-in bot names as a user writes them, for messages.
pub const BUILTIN_HELP: &str = "random, efficiency, fan, search[:samples=N,candidates=N,horizon=N]";

/// A built-in bot, by its name as written (one of [`mcr_bots::BUILTIN_NAMES`], with the
/// options it takes: `search:samples=24`), checked by [`parse_builtin`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BotName(String);

impl BotName {
    /// The bot's name, with its options.
    pub fn name(&self) -> &str {
        &self.0
    }

    /// A fresh player of the bot.
    pub fn player(&self) -> Box<dyn Player> {
        // Every `BotName` was checked by `builtin_checked` when it was read.
        mcr_bots::builtin(&self.0).unwrap_or_else(|| Box::new(mcr_bots::RandomBot::new()))
    }
}

impl fmt::Display for BotName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads a built-in bot name: `None` when it names none (a registered bot, or a `cmd:`
/// program, which bot-host runs), else the bot or why its options do not parse (only `search`
/// takes any).
pub fn parse_builtin(name: &str) -> Option<Result<BotName, String>> {
    let name = name.trim();
    let head = name.split(':').next().unwrap_or_default();
    mcr_bots::BUILTIN_NAMES.iter().find(|&&n| n == head)?;
    Some(
        mcr_bots::builtin_checked(name)
            .map(|_| BotName(name.to_string()))
            .map_err(|e| format!("{}: {e}", arena_proto::text::quote(name))),
    )
}

/// A built-in bot answering decision requests: each request is read back into a hand the seat
/// could be playing ([`McrRequest`]), so the bot sees what the request shows and no more. The
/// hand starts (the bot told its seat and seed) at the first request.
pub struct McrRequestBot {
    player: Box<dyn Player>,
    seed: u64,
    seat: Option<u8>,
}

impl McrRequestBot {
    /// The built-in bot `name`, seeded with `seed`.
    pub fn new(name: &BotName, seed: u64) -> McrRequestBot {
        McrRequestBot {
            player: name.player(),
            seed,
            seat: None,
        }
    }
}

impl RequestBot for McrRequestBot {
    fn decide(&mut self, req: &v1::DecisionRequest) -> Result<v1::Action, BadRequest> {
        let r = McrRequest::from_request(req)?;
        if self.seat != Some(r.seat()) {
            self.seat = Some(r.seat());
            self.player.start_hand(r.seat(), self.seed);
        }
        let legal = *r.legal();
        let action = match self.player.decide(&r.view(), &legal) {
            a if legal.contains(&a) => a,
            // Built-in bots answer from the legal list; should one ever not, the seat plays
            // what an automatic seat plays rather than fault.
            _ => r.automatic(),
        };
        Ok(convert::action(action))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcr::{McrSpec, McrTable};
    use arena_table::TableGame;

    #[test]
    fn built_in_names_parse_and_other_names_are_not_built_in() {
        for n in mcr_bots::BUILTIN_NAMES {
            assert_eq!(parse_builtin(n).unwrap().unwrap().name(), n);
        }
        assert!(parse_builtin("random:x").unwrap().is_err());
        let search = parse_builtin(" search:samples=8 ").unwrap().unwrap();
        assert_eq!(search.name(), "search:samples=8");
        let e = parse_builtin("search:samples=0").unwrap().unwrap_err();
        assert!(e.contains("samples"), "{e}");
        assert_eq!(parse_builtin("expert"), None, "a Mahjong name");
        assert_eq!(parse_builtin("cmd:python3 bot.py"), None);
    }

    #[test]
    fn request_bots_play_whole_hands_from_the_requests_alone() {
        // Each request rebuilt gives the bot the very view, decision and legal answers the
        // table has: its answers are the table's bots' own.
        for (seed, name) in [(1, "fan"), (2, "efficiency"), (3, "random"), (4, "random")] {
            let name = parse_builtin(name).unwrap().unwrap();
            let mut t = McrTable::new(&McrSpec::from_seed(seed));
            let mut bots: Vec<McrRequestBot> =
                (0..4).map(|s| McrRequestBot::new(&name, s)).collect();
            let mut asked = 0;
            while t.outcome().is_none() {
                let mut answers = Vec::new();
                for p in t.pending() {
                    let req = v1::DecisionRequest {
                        request_id: asked,
                        table_id: "m".into(),
                        seat: p.seat,
                        game: "mcr".into(),
                        kind: p.kind as i32,
                        deadline_ms: 1000,
                        observation: Some(t.observation(p.seat)),
                    };
                    asked += 1;
                    let r = McrRequest::from_request(&req)
                        .unwrap_or_else(|e| panic!("seed {seed}, request {asked}: {e}"));
                    assert_eq!(r.legal().to_vec(), t.game().legal(p.seat as u8).to_vec());
                    assert_eq!(r.view().hand(), t.game().hand(p.seat as u8));
                    let a = bots[p.seat as usize].decide(&req).unwrap();
                    answers.push((p, t.decode(&p, &a).unwrap()));
                }
                t.check_and_apply(&answers).unwrap();
            }
            assert!(asked > 20, "{name}: {asked} requests");
        }
    }

    #[test]
    fn a_request_that_disagrees_with_itself_is_refused_naming_the_field() {
        let t = McrTable::new(&McrSpec::from_seed(9));
        let p = t.pending()[0];
        let mut req = v1::DecisionRequest {
            seat: p.seat,
            game: "mcr".into(),
            kind: p.kind as i32,
            observation: Some(t.observation(p.seat)),
            ..Default::default()
        };
        convert::edit_observation(&mut req, |o| o.hand = "W1 W1 W1".into());
        let e = McrRequest::from_request(&req).unwrap_err();
        assert!(e.0.starts_with("request.observation.mcr.hand"), "{e}");
        let mut req2 = req.clone();
        req2.observation = None;
        assert!(
            McrRequest::from_request(&req2)
                .unwrap_err()
                .0
                .contains("missing")
        );
        req.seat = 7;
        assert!(
            McrRequest::from_request(&req)
                .unwrap_err()
                .0
                .contains("request.seat")
        );
    }

    #[test]
    fn mangled_requests_are_answered_or_refused_never_a_panic() {
        // Requests from a hand well under way, each with one event dropped, doubled, moved to
        // another seat or given another tile: each reads back or is refused, nothing panics.
        let mut t = McrTable::new(&McrSpec::from_seed(11));
        for _ in 0..40 {
            if t.outcome().is_some() {
                break;
            }
            let answers: Vec<_> = t
                .pending()
                .into_iter()
                .map(|p| (p, t.automatic(&p)))
                .collect();
            t.apply(&answers).unwrap();
        }
        let Some(p) = t.pending().first().copied() else {
            return;
        };
        let base = v1::DecisionRequest {
            seat: p.seat,
            game: "mcr".into(),
            observation: Some(t.observation(p.seat)),
            ..Default::default()
        };
        let n = convert::observation_of(base.observation.as_ref().unwrap())
            .unwrap()
            .events
            .len();
        let mut refused = 0;
        for i in 0..n {
            for how in 0..4 {
                let mut req = base.clone();
                convert::edit_observation(&mut req, |o| match how {
                    0 => {
                        o.events.remove(i);
                    }
                    1 => {
                        let e = o.events[i].clone();
                        o.events.insert(i, e);
                    }
                    2 => o.events[i].seat = (o.events[i].seat + 1) % 4,
                    _ => {
                        o.events[i].tile = "W5".into();
                        o.events[i].answer = "PLAY J1".into();
                    }
                });
                if McrRequest::from_request(&req).is_err() {
                    refused += 1;
                }
            }
        }
        assert!(
            refused > n,
            "most mangled requests are refused: {refused} of {}",
            4 * n
        );
    }
}
