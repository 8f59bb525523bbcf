//! The example's Mahjong player: it wins whenever a win is legal, pungs whenever it holds a pair
//! of the discard, and otherwise discards the tile with the fewest neighbours in its hand (the
//! same tile, or one of its suit at most two ranks away), passing when there is nothing else.
//!
//! It reads only the observation's legal answers and its own concealed tiles, so it needs no
//! rules engine: a legal answer is written `KIND [TILE]` (`discard 5S`, `pung`, `chow 7M`), the
//! kind being [`mahjong_pb::ActionKind`]'s name in lower case with dashes.

use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use arena_proto::v1;

/// The answers that win: on a discard, on the drawn tile, on another seat's added kong.
const WINS: [&str; 3] = ["win", "self-drawn-win", "rob-kong"];

/// The bot's decision for one Mahjong request.
pub fn choose(req: &v1::DecisionRequest) -> mahjong_pb::Action {
    let Ok(obs) = arena_proto::payload::unpack::<mahjong_pb::Observation>(req.observation.as_ref().and_then(|o| o.game.as_ref()), "") else { return action("pass") };
    let obs = &obs;
    let legal = &obs.legal;
    let pick = WINS
        .iter()
        .find(|w| legal.iter().any(|a| a == *w))
        .map(|w| w.to_string())
        .or_else(|| legal.iter().find(|a| *a == "pung").cloned())
        .or_else(|| {
            let hand: Vec<&str> = obs.hand.split_whitespace().collect();
            legal
                .iter()
                .filter(|a| a.starts_with("discard "))
                .min_by_key(|a| {
                    let tile = &a["discard ".len()..];
                    hand.iter().filter(|u| near(tile, u)).count()
                })
                .cloned()
        })
        .unwrap_or_else(|| "pass".into());
    action(&pick)
}

/// Whether `a` and `b` are the same tile, or suited tiles of one suit at most two ranks apart
/// (`3M` and `5M`): tiles that may end up in one set.
fn near(a: &str, b: &str) -> bool {
    match (a.as_bytes(), b.as_bytes()) {
        ([ra, sa], [rb, sb]) => sa == sb && ra.abs_diff(*rb) <= 2,
        _ => a == b,
    }
}

/// A legal answer's text (`discard 5S`, `pung`) as the action message (the SDK's).
pub use arena_sdk::mahjong_action as action;
