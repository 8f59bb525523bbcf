//! A played hand written down: the old server's line log (`ver 1.0`), the same as one JSON
//! object, and a match's score sheet as CSV. The formats are described in
//! `docs/mahjong-match.md`.

use std::fmt::Write as _;

use mahjong::schedule::Slot;
use mahjong::stats::HandSummary;
use mahjong::{Event, Reading, Tile, tiles_to_string};
use mahjong_bots::HandRecord;
use serde_json::{Value, json};

/// The longest verdict reason a log keeps (reasons quote what a bot printed).
const MAX_REASON: usize = 300;

/// A reason made safe for one line of a log: control characters become spaces, and it is cut
/// to a bounded length.
fn one_line(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_REASON)
        .collect();
    if s.chars().count() > MAX_REASON {
        out.push('…');
    }
    out
}

fn sorted(tiles: &[Tile]) -> String {
    let mut t = tiles.to_vec();
    t.sort();
    tiles_to_string(t)
}

/// One event as a log line: the protocol's words with the seat and the tile always given.
pub fn event_line(e: &Event) -> String {
    match *e {
        Event::Draw { seat, tile } => format!("pick {seat} {tile}"),
        Event::Discard { seat, tile } => format!("out {seat} {tile}"),
        Event::Chow { seat, lowest, tile } => format!("chi {seat} {lowest} {tile}"),
        Event::Pung { seat, tile } => format!("peng {seat} {tile}"),
        Event::Kong { seat, tile } => format!("gang {seat} {tile}"),
        Event::ConcealedKong { seat, tile } => format!("agang {seat} {tile}"),
        Event::AddedKong { seat, tile } => format!("jgang {seat} {tile}"),
        Event::ChowFailed { seat } => format!("fail {seat}"),
        Event::Win {
            seat,
            from,
            tile,
            robbed_kong,
        } => match (from, robbed_kong) {
            (None, _) => format!("hu {seat} {tile} self"),
            (Some(f), true) => format!("hu {seat} {tile} qgang {f}"),
            (Some(f), false) => format!("hu {seat} {tile} from {f}"),
        },
        Event::Drawn => "drawn".into(),
    }
}

fn event_json(e: &Event) -> Value {
    match *e {
        Event::Draw { seat, tile } => json!({"e": "pick", "seat": seat, "tile": tile.to_string()}),
        Event::Discard { seat, tile } => {
            json!({"e": "out", "seat": seat, "tile": tile.to_string()})
        }
        Event::Chow { seat, lowest, tile } => {
            json!({"e": "chi", "seat": seat, "lowest": lowest.to_string(), "tile": tile.to_string()})
        }
        Event::Pung { seat, tile } => json!({"e": "peng", "seat": seat, "tile": tile.to_string()}),
        Event::Kong { seat, tile } => json!({"e": "gang", "seat": seat, "tile": tile.to_string()}),
        Event::ConcealedKong { seat, tile } => {
            json!({"e": "agang", "seat": seat, "tile": tile.to_string()})
        }
        Event::AddedKong { seat, tile } => {
            json!({"e": "jgang", "seat": seat, "tile": tile.to_string()})
        }
        Event::ChowFailed { seat } => json!({"e": "fail", "seat": seat}),
        Event::Win {
            seat,
            from,
            tile,
            robbed_kong,
        } => {
            json!({"e": "hu", "seat": seat, "tile": tile.to_string(), "from": from, "robbed_kong": robbed_kong})
        }
        Event::Drawn => json!({"e": "drawn"}),
    }
}

/// The fans of the hand's win, by name under `reading`, with their points.
fn fans(record: &HandRecord, reading: Reading) -> Vec<(&'static str, u32)> {
    record
        .outcome
        .win
        .as_ref()
        .map(|w| {
            w.fans
                .fans
                .iter()
                .map(|(f, p)| (f.name(reading), p))
                .collect()
        })
        .unwrap_or_default()
}

/// The hand's log in the line format: header, the deal, every event with verdicts where they
/// happened, and the result.
pub fn hand_log(slot: &Slot, bots: &[String; 4], record: &HandRecord, reading: Reading) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "ver 1.0");
    let _ = writeln!(
        s,
        "match {} hand {} group {} round {} deal {}",
        slot.match_seed, slot.hand, slot.group, slot.round, slot.deal
    );
    let _ = writeln!(s, "seed {} {}", slot.group_seed, slot.deal_seed);
    let _ = writeln!(s, "fans {reading}");
    for (seat, &bot) in slot.seats.iter().enumerate() {
        let _ = writeln!(s, "id {seat} {bot} {}", one_line(&bots[bot]));
    }
    let _ = writeln!(s, "first {}", record.first);
    for (seat, tiles) in record.initial.iter().enumerate() {
        let _ = writeln!(s, "init {seat} {}", sorted(tiles));
    }
    let mut verdicts = record.verdicts.iter().peekable();
    for (i, e) in record.events.iter().enumerate() {
        while let Some(v) = verdicts.next_if(|v| v.at_event <= i) {
            let _ = writeln!(s, "verdict {} {} {}", v.seat, v.kind, one_line(&v.reason));
        }
        let _ = writeln!(s, "{}", event_line(e));
    }
    for v in verdicts {
        let _ = writeln!(s, "verdict {} {} {}", v.seat, v.kind, one_line(&v.reason));
    }
    if let Some(w) = &record.outcome.win {
        for (name, points) in fans(record, reading) {
            let _ = writeln!(s, "fan {name} {points}");
        }
        let _ = writeln!(s, "total {}", w.fans.total);
    }
    for (seat, &p) in record.penalties.iter().enumerate() {
        if p != 0 {
            let _ = writeln!(s, "penalty {seat} {p}");
        }
    }
    let sc = record.scores;
    let _ = writeln!(s, "score {} {} {} {}", sc[0], sc[1], sc[2], sc[3]);
    s
}

/// The hand as one JSON object (one line of `hands.jsonl`).
pub fn hand_json(slot: &Slot, bots: &[String; 4], record: &HandRecord, reading: Reading) -> Value {
    let win = record.outcome.win.as_ref().map(|w| {
        json!({
            "seat": w.seat,
            "from": w.from,
            "tile": w.tile.to_string(),
            "robbed_kong": w.robbed_kong,
            "total": w.fans.total,
            "fans": fans(record, reading)
                .into_iter()
                .map(|(n, p)| (n.to_string(), json!(p)))
                .collect::<serde_json::Map<_, _>>(),
        })
    });
    let by_bot: Vec<i32> = (0..4)
        .map(|b| record.scores[usize::from(slot.seat_of(b))])
        .collect();
    json!({
        "ver": "1.0",
        "match": slot.match_seed,
        "hand": slot.hand,
        "group": slot.group,
        "round": slot.round,
        "deal": slot.deal,
        "group_seed": slot.group_seed,
        "deal_seed": slot.deal_seed,
        "fans": reading.to_string(),
        "seats": slot.seats.iter().map(|&b| json!({"bot": b, "name": bots[b]})).collect::<Vec<_>>(),
        "first": record.first,
        "init": record.initial.iter().map(|h| sorted(h)).collect::<Vec<_>>(),
        "events": record.events.iter().map(event_json).collect::<Vec<_>>(),
        "verdicts": record.verdicts.iter().map(|v| json!({
            "seat": v.seat, "bot": slot.seats[usize::from(v.seat)], "kind": v.kind.name(),
            "reason": one_line(&v.reason), "at_event": v.at_event,
        })).collect::<Vec<_>>(),
        "win": win,
        "penalties": record.penalties,
        "scores": record.scores,
        "bot_scores": by_bot,
    })
}

/// A CSV field, quoted when it must be.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// A match's score sheet: one row per hand (who won, who dealt in, the fans, each bot's score
/// by its position), then the totals.
pub fn score_sheet(bots: &[String; 4], hands: &[HandSummary]) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "hand,group,round,deal,deal_seed,first_bot,winner_bot,dealt_in_bot,fans"
    );
    for (i, b) in bots.iter().enumerate() {
        let _ = write!(s, ",{}", csv_field(&format!("{i}:{b}")));
    }
    s.push('\n');
    let mut totals = [0i64; 4];
    let opt = |seat: Option<u8>, slot: &Slot| {
        seat.map_or(String::new(), |x| slot.seats[usize::from(x)].to_string())
    };
    for h in hands {
        let sl = &h.slot;
        let _ = write!(
            s,
            "{},{},{},{},{},{},{},{},{}",
            sl.hand,
            sl.group,
            sl.round,
            sl.deal,
            sl.deal_seed,
            sl.seats[usize::from(h.first)],
            opt(h.winner, sl),
            opt(h.dealt_in, sl),
            h.fans.map_or(String::new(), |f| f.to_string())
        );
        for (b, t) in totals.iter_mut().enumerate() {
            let v = h.score_of(b);
            *t += i64::from(v);
            let _ = write!(s, ",{v}");
        }
        s.push('\n');
    }
    let _ = write!(s, "total,,,,,,,,");
    for t in totals {
        let _ = write!(s, ",{t}");
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_stays_on_its_line_and_bounded() {
        let r = one_line("bad\nline\r\u{7}end");
        assert_eq!(r, "bad line  end");
        let long = one_line(&"y".repeat(10_000));
        assert!(long.chars().count() <= MAX_REASON + 1);
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("0:expert"), "0:expert");
        assert_eq!(csv_field("1:cmd:a,b"), "\"1:cmd:a,b\"");
        assert_eq!(csv_field("2:say \"hi\""), "\"2:say \"\"hi\"\"\"");
    }
}
