//! The reading behind `arena ddz legal`: a hand and the play to beat, as a user or a script
//! writes them, and the legal moves. Kept free of I/O and of the rest of the command so that the
//! fuzz targets (`crates/fuzz-targets`) feed it arbitrary lines.

use anyhow::{Context, Result, bail};
use ddz::{CardSet, Move, MoveList, RuleSet};
use serde_json::json;

/// Reads a hand in card notation.
pub fn parse_hand(s: &str) -> Result<CardSet> {
    s.parse::<CardSet>().with_context(|| format!("hand {s:?}"))
}

/// Reads the play to beat: none, empty or `pass` for a free lead, else cards that must be a
/// combination under `rules`.
pub fn parse_prev(rules: &RuleSet, s: Option<&str>) -> Result<Move> {
    match s.map(str::trim) {
        None | Some("pass") | Some("PASS") | Some("") => Ok(Move::PASS),
        Some(p) => {
            let cards: CardSet = p.parse().with_context(|| format!("prev {p:?}"))?;
            rules.classify(cards).with_context(|| format!("prev {p:?}"))
        }
    }
}

/// The legal moves of `hand` after `prev` (a lead when `prev` is the pass), into `out`.
pub fn moves_for(rules: &RuleSet, hand: CardSet, prev: Move, out: &mut MoveList) {
    if prev.is_pass() {
        rules.leads(hand, out);
    } else {
        rules.follows(hand, prev, out);
    }
}

/// One line of `arena ddz legal --batch` (`HAND [PREV]`) answered as the JSON object the command
/// prints: the moves, or an error naming the problem. `None` for a blank line, which is skipped.
pub fn batch_line(rules: &RuleSet, line: &str, moves: &mut MoveList) -> Option<serde_json::Value> {
    let mut fields = line.split_whitespace();
    let hand_s = fields.next()?;
    let prev_s = fields.next().unwrap_or("pass");
    let result = parse_hand(hand_s).and_then(|hand| {
        if fields.next().is_some() {
            bail!("expected two fields, HAND PREV");
        }
        let prev = parse_prev(rules, Some(prev_s))?;
        moves_for(rules, hand, prev, moves);
        Ok(())
    });
    Some(match result {
        Ok(()) => json!({
            "hand": hand_s,
            "prev": prev_s,
            "moves": moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        }),
        Err(e) => json!({"hand": hand_s, "prev": prev_s, "error": format!("{e:#}")}),
    })
}
