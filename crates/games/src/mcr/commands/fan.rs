//! `arena mcr fan`: the fans of a winning Chinese Standard Mahjong hand, one hand given by
//! flags or many as JSON lines on stdin (each line answered, an error naming its field, without
//! stopping the batch).

use std::io::{BufWriter, Write};

use anyhow::{Result, bail};
use arena_line::{LineSplitter, MAX_LINE_BYTES, Output};
use clap::Args;
use mcr::fan::{self, FanError, Scored, WinningHand};
use mcr::game::MIN_POINTS;
use mcr::{Pack, Tile, tiles_to_string};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{parse_pack, parse_tile, parse_tiles_field, wind_field};

/// `arena mcr fan`.
#[derive(Args)]
pub(super) struct FanArgs {
    /// Read hands from stdin, one JSON object a line, and write one JSON line each:
    /// {"hand":"W1 W2 …","packs":["PENG F1 1","CHI T3 2","GANG J1 0"],"win":"B5","flowers":0,
    /// "self_drawn":false,"fourth_tile":false,"kong":false,"wall_last":false,"seat":0,"quan":0}
    /// (all but "hand" and "win" may be left out; blank lines are skipped; a bad line is
    /// answered {"error":…} naming the field).
    #[arg(long, conflicts_with_all = ["hand", "packs", "win", "json"])]
    batch: bool,
    /// The concealed tiles without the winning tile (13 − 3 × packs), e.g.
    /// "W1 W2 W3 T4 T5 T6 B7 B8 B9 F1 F1 J1 J1".
    #[arg(long, required_unless_present = "batch")]
    hand: Option<String>,
    /// A declared pack in Botzone's words with who offered it, repeatable: "CHI T3 2" (the
    /// middle tile; the claimed tile is the 1st, 2nd or 3rd of the chow), "PENG F1 1" or
    /// "GANG W5 3" (offered by the seat 1, 2 or 3 seats after the owner), "GANG J1 0" (concealed).
    #[arg(long = "pack", value_name = "PACK")]
    packs: Vec<String>,
    /// The winning tile.
    #[arg(long, required_unless_present = "batch")]
    win: Option<String>,
    /// Flowers set aside (a point each, not towards the 8-point minimum).
    #[arg(long, default_value_t = 0)]
    flowers: u8,
    /// Won on one's own draw.
    #[arg(long)]
    self_drawn: bool,
    /// The winning tile is the fourth of its kind (the other three shown): Last Tile.
    #[arg(long)]
    fourth_tile: bool,
    /// A kong was involved: a kong's replacement draw (self-drawn) or a robbed kong (claimed).
    #[arg(long)]
    kong: bool,
    /// The winning tile is the last of the wall.
    #[arg(long)]
    wall_last: bool,
    /// The winner's seat, 0 (East) to 3 (North): its seat wind.
    #[arg(long, default_value_t = 0)]
    seat: u8,
    /// The prevalent wind, 0 (East) to 3 (North).
    #[arg(long, default_value_t = 0)]
    quan: u8,
    /// Print the result as one JSON object (the batch's answer).
    #[arg(long)]
    json: bool,
}

/// One hand as a batch line gives it.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct HandInput {
    hand: String,
    #[serde(default)]
    packs: Vec<String>,
    win: String,
    #[serde(default)]
    flowers: u8,
    #[serde(default)]
    self_drawn: bool,
    #[serde(default)]
    fourth_tile: bool,
    #[serde(default)]
    kong: bool,
    #[serde(default)]
    wall_last: bool,
    #[serde(default)]
    seat: u8,
    #[serde(default)]
    quan: u8,
}

/// A read hand, owning what [`WinningHand`] borrows.
struct OwnedHand {
    packs: Vec<Pack>,
    standing: Vec<Tile>,
    input: HandInput,
    win: Tile,
}

impl HandInput {
    /// Reads the hand; an error names the field (`hand`, `packs[1]`, `win`, `seat`, …).
    fn read(self) -> Result<OwnedHand> {
        let standing = parse_tiles_field("hand", &self.hand)?;
        let packs = self
            .packs
            .iter()
            .enumerate()
            .map(|(i, p)| parse_pack(&format!("packs[{i}]"), p))
            .collect::<Result<Vec<_>>>()?;
        let win = parse_tile("win", &self.win)?;
        wind_field("seat", self.seat)?;
        wind_field("quan", self.quan)?;
        if packs.len() > 4 {
            bail!(
                "packs: a hand declares at most four packs, not {}",
                packs.len()
            );
        }
        let want = 13 - 3 * packs.len();
        if standing.len() != want {
            bail!(
                "hand: {} tiles; with {} packs the concealed tiles before the winning one are {want}",
                standing.len(),
                packs.len()
            );
        }
        Ok(OwnedHand {
            packs,
            standing,
            input: self,
            win,
        })
    }
}

impl OwnedHand {
    fn winning_hand(&self) -> WinningHand<'_> {
        let i = &self.input;
        WinningHand {
            packs: &self.packs,
            standing: &self.standing,
            win_tile: self.win,
            flowers: i.flowers,
            self_drawn: i.self_drawn,
            fourth_tile: i.fourth_tile,
            about_kong: i.kong,
            wall_last: i.wall_last,
            seat_wind: mcr::Wind::from_index(i.seat).unwrap_or_default(),
            prevalent_wind: mcr::Wind::from_index(i.quan).unwrap_or_default(),
        }
    }

    fn evaluate(&self) -> Result<Scored> {
        fan::evaluate(&self.winning_hand()).map_err(|e| match e {
            FanError::BadPack(_) => anyhow::anyhow!("packs: {e}"),
            // Too many of a kind, a wrong count, no winning shape: the tiles are at fault.
            _ => anyhow::anyhow!("hand: {e}"),
        })
    }
}

/// The answer's JSON: every fan (English and Chinese names, points a time, count), the total,
/// the points without flowers and whether they reach the 8-point minimum.
fn result_json(s: &Scored) -> Value {
    let fans: Vec<Value> = s
        .table
        .iter()
        .map(|(f, n)| {
            json!({"fan": f.name_en(), "zh": f.name_zh(), "points": f.points(), "count": n})
        })
        .collect();
    json!({
        "fans": fans,
        "total": s.total,
        "without_flowers": s.without_flowers(),
        "reaches_8": s.without_flowers() >= MIN_POINTS,
    })
}

/// Runs `arena mcr fan`.
pub(super) fn run(a: FanArgs) -> Result<()> {
    if a.batch {
        return batch();
    }
    let hand = HandInput {
        hand: a.hand.unwrap_or_default(),
        packs: a.packs,
        win: a.win.unwrap_or_default(),
        flowers: a.flowers,
        self_drawn: a.self_drawn,
        fourth_tile: a.fourth_tile,
        kong: a.kong,
        wall_last: a.wall_last,
        seat: a.seat,
        quan: a.quan,
    }
    .read()
    .map_err(|e| anyhow::anyhow!("--{e}"))?;
    let scored = hand.evaluate().map_err(|e| anyhow::anyhow!("--{e}"))?;
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", result_json(&scored))?;
        return Ok(());
    }
    let mut packs = String::new();
    for p in &hand.packs {
        packs.push_str(&format!(", [{p}]"));
    }
    let how = if hand.input.self_drawn {
        "self-drawn"
    } else {
        "on a discard"
    };
    writeln!(
        out,
        "hand: {} + {} ({how}){packs}",
        tiles_to_string(hand.standing.iter().copied()),
        hand.win
    )?;
    for (f, n) in scored.table.iter() {
        let times = if n > 1 {
            format!(" ×{n}")
        } else {
            String::new()
        };
        let points = u32::from(f.points()) * u32::from(n);
        writeln!(
            out,
            "  {:>3}  {}{times} ({})",
            points,
            f.name_en(),
            f.name_zh()
        )?;
    }
    let without = scored.without_flowers();
    writeln!(
        out,
        "  total {} points ({without} without flowers): {}",
        scored.total,
        if without >= MIN_POINTS {
            "reaches the 8-point minimum"
        } else {
            "below the 8-point minimum (a wrong win)"
        }
    )?;
    Ok(())
}

/// One batch line's answer: the fans, or `{"error":…}` naming the field.
fn batch_answer(line: &str) -> String {
    let error = |e: String| json!({ "error": e }).to_string();
    let input: HandInput = match serde_json::from_str(line) {
        Ok(i) => i,
        Err(e) => return error(format!("bad JSON: {e}")),
    };
    match input.read().and_then(|h| h.evaluate()) {
        Ok(s) => result_json(&s).to_string(),
        Err(e) => error(e.to_string()),
    }
}

fn batch() -> Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut lines = LineSplitter::new(MAX_LINE_BYTES);
    loop {
        let answer = match arena_line::lines::next_output(&mut input, &mut lines) {
            Output::Line(l) if l.trim().is_empty() => continue,
            Output::Line(l) => batch_answer(l.trim_end_matches('\r')),
            Output::NotUtf8(_) => json!({ "error": "the line is not UTF-8" }).to_string(),
            Output::TooLong(_) => json!({
                "error": format!("the line is longer than {MAX_LINE_BYTES} bytes")
            })
            .to_string(),
            Output::Closed(None) => break,
            Output::Closed(Some(e)) => bail!("reading stdin: {e}"),
        };
        out.write_all(answer.as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Value {
        serde_json::from_str(&batch_answer(line)).unwrap()
    }

    #[test]
    fn a_batch_line_lists_every_fan_with_both_names() {
        // All pungs with a pung of the seat wind: flowers count but not towards the minimum.
        let v = answer(
            r#"{"hand":"W1 W1 W1 T5 T5 T5 B9 B9 B9 J2","packs":["PENG F1 2"],"win":"J2","flowers":2}"#,
        );
        let fans = v["fans"].as_array().unwrap();
        let find = |en: &str| fans.iter().find(|f| f["fan"] == en).cloned();
        let pungs = find("All Pungs").expect("All Pungs");
        assert_eq!(pungs["zh"], "碰碰和");
        assert_eq!(pungs["points"], 6);
        assert_eq!(find("Flower Tiles").unwrap()["count"], 2);
        let total = v["total"].as_u64().unwrap();
        let sum: u64 = fans
            .iter()
            .map(|f| f["points"].as_u64().unwrap() * f["count"].as_u64().unwrap())
            .sum();
        assert_eq!(total, sum);
        assert_eq!(v["without_flowers"].as_u64().unwrap(), total - 2);
        assert_eq!(v["reaches_8"], true);
    }

    #[test]
    fn a_small_hand_does_not_reach_8() {
        let v = answer(r#"{"hand":"W1 W2 W3 W4 W5 W6 T2 T3 T4 B6 B7 B8 T9","win":"T9","seat":1}"#);
        assert_eq!(v["reaches_8"], false, "{v}");
        assert!(v["without_flowers"].as_u64().unwrap() < 8);
    }

    #[test]
    fn bad_lines_name_their_field() {
        let err = |line: &str| answer(line)["error"].as_str().unwrap().to_owned();
        assert!(err(r#"{"hand":"W1 X9","win":"W1"}"#).starts_with("hand:"));
        assert!(
            err(r#"{"hand":"W1 W1 W1","packs":["PONG F1 1"],"win":"W1"}"#).starts_with("packs[0]:")
        );
        assert!(
            err(r#"{"hand":"W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W6 W7 T9","win":"H1"}"#)
                .starts_with("win:")
        );
        assert!(
            err(r#"{"hand":"W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W6 W7 T9","win":"T9","quan":4}"#)
                .starts_with("quan:")
        );
        assert!(
            err(r#"{"hand":"W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W6 W7 T1","win":"F1"}"#)
                .starts_with("hand: the hand does not win")
        );
        assert!(err(r#"{"hand":"W1 W2","win":"W1"}"#).starts_with("hand: 2 tiles"));
        assert!(err("not json").starts_with("bad JSON"));
        assert!(err(r#"{"hand":"W1","win":"W1","colour":1}"#).starts_with("bad JSON"));
    }
}
