//! The example's Mahjong player: it wins whenever a win is legal, pungs whenever it holds a pair
//! of the discard, and otherwise discards the tile with the fewest neighbours in its hand (the
//! same tile, or one of its suit at most two ranks away), passing when there is nothing else.
//!
//! It reads only the observation's legal answers and its own concealed tiles, so it needs no
//! rules engine: a legal answer is written `KIND [TILE]` (`discard 5S`, `pung`, `chow 7M`), the
//! kind being [`mahjong_pb::ActionKind`]'s name in lower case with dashes, which the SDK turns
//! into the action message ([`arena_sdk::mahjong::action`]).

use arena_proto::v1;
use arena_sdk::mahjong::pb as mahjong_pb;

/// The answers that win: on a discard, on the drawn tile, on another seat's added kong.
const WINS: [&str; 3] = ["win", "self-drawn-win", "rob-kong"];

/// The bot's answer to one Mahjong request, whose observation is `obs`: one of its legal
/// answers' text. The same rule answers every kind of request, so `req` is not read.
pub fn choose(req: &v1::DecisionRequest, obs: &mahjong_pb::Observation) -> String {
    let _ = req;
    let legal = &obs.legal;
    WINS.iter()
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
        .unwrap_or_else(|| "pass".into())
}

/// Whether `a` and `b` are the same tile, or suited tiles of one suit at most two ranks apart
/// (`3M` and `5M`): tiles that may end up in one set.
fn near(a: &str, b: &str) -> bool {
    match (a.as_bytes(), b.as_bytes()) {
        ([ra, sa], [rb, sb]) => sa == sb && ra.abs_diff(*rb) <= 2,
        _ => a == b,
    }
}
