//! `arena mahjong fan`: the fans of a winning hand, one hand given by flags or many as JSON
//! lines on stdin.

use std::io::{BufWriter, Write};

use anyhow::{Result, bail};
use arena_line::{LineSplitter, MAX_LINE_BYTES, Output};
use clap::Args;
use mahjong::fan::{self, FanResult, HandInput, OwnedHand};
use mahjong::{Reading, tiles_to_string};

/// `arena mahjong fan`.
#[derive(Args)]
pub(super) struct FanArgs {
    /// Read hands from stdin, one JSON object a line, and write one JSON line each:
    /// {"concealed":"1M 2M 3M …","chows":["2S"],"pungs":["E"],"kongs":["1M"],
    /// "concealed_kongs":["5S"],"win":"5M","self_drawn":false} (lists, "self_drawn" and
    /// "robbed_kong" may be left out; blank lines are skipped).
    #[arg(long, conflicts_with_all = ["concealed", "chows", "pungs", "kongs", "concealed_kongs", "win", "json"])]
    batch: bool,
    /// Fan reading: contest (the README's fans, default) or seed-2015 (the 2015 server's code).
    #[arg(long, default_value = "contest")]
    fans: Reading,
    /// The concealed tiles without the winning tile, e.g. "1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E".
    #[arg(long, required_unless_present = "batch")]
    concealed: Option<String>,
    /// A declared chow, by its lowest tile (repeat for more).
    #[arg(long = "chow", value_name = "LOWEST")]
    chows: Vec<String>,
    /// A declared pung (repeatable).
    #[arg(long = "pung", value_name = "TILE")]
    pungs: Vec<String>,
    /// An exposed or added kong (repeatable).
    #[arg(long = "kong", value_name = "TILE")]
    kongs: Vec<String>,
    /// A concealed kong (repeatable).
    #[arg(long = "concealed-kong", value_name = "TILE")]
    concealed_kongs: Vec<String>,
    /// The winning tile.
    #[arg(long, required_unless_present = "batch")]
    win: Option<String>,
    /// Won on one's own draw.
    #[arg(long, conflicts_with = "robbed_kong")]
    self_drawn: bool,
    /// Won by robbing another seat's added kong.
    #[arg(long)]
    robbed_kong: bool,
    /// Print the result as one JSON object (with the reading of the hand as "shape").
    #[arg(long)]
    json: bool,
}

/// Runs `arena mahjong fan`.
pub(super) fn run(a: FanArgs) -> Result<()> {
    if a.batch {
        return batch(a.fans);
    }
    let input = HandInput {
        concealed: a.concealed.unwrap_or_default(),
        chows: a.chows,
        pungs: a.pungs,
        kongs: a.kongs,
        concealed_kongs: a.concealed_kongs,
        win: a.win.unwrap_or_default(),
        self_drawn: a.self_drawn,
        robbed_kong: a.robbed_kong,
    };
    let hand = input.read()?;
    let explained = match fan::explain(&hand.win_hand(), a.fans) {
        Ok(e) => e,
        Err(e) => bail!("{e}"),
    };
    let mut out = std::io::stdout().lock();
    if a.json {
        let mut line = result_json(&explained.result, a.fans);
        line.pop();
        writeln!(
            out,
            "{line},\"shape\":{}}}",
            serde_json::to_string(&explained.shape.to_string())?
        )?;
        return Ok(());
    }
    writeln!(out, "hand:    {}", describe(&hand))?;
    writeln!(out, "reading: {}", explained.shape)?;
    writeln!(out, "fans ({}):", a.fans)?;
    for (f, points) in explained.result.fans.iter() {
        let name = f.name(a.fans);
        // CJK names are two columns a character wide.
        let pad = 12usize.saturating_sub(2 * name.chars().count());
        writeln!(out, "  {name}{:pad$}{points:>3}", "")?;
    }
    writeln!(out, "  total{:7}{:>3}", "", explained.result.total)?;
    Ok(())
}

/// The hand in one line: concealed tiles + winning tile (how), then the declared sets.
fn describe(h: &OwnedHand) -> String {
    let concealed = tiles_to_string(
        mahjong::Tile::all().flat_map(|t| std::iter::repeat_n(t, h.concealed[t.index()] as usize)),
    );
    let how = if h.self_drawn {
        "self-drawn"
    } else if h.robbed_kong {
        "robbed kong"
    } else {
        "discard"
    };
    let mut s = format!("{concealed} + {} ({how})", h.win);
    for m in &h.melds {
        s.push_str(&format!(", [{m}]"));
    }
    s
}

/// `{"total":4,"fans":{"平和":2,"门前清":2}}`, the fans in the README's order.
fn result_json(r: &FanResult, reading: Reading) -> String {
    let fans: Vec<String> = r
        .fans
        .iter()
        .map(|(f, p)| format!("{}:{p}", serde_json::Value::from(f.name(reading))))
        .collect();
    format!("{{\"total\":{},\"fans\":{{{}}}}}", r.total, fans.join(","))
}

/// One batch line's answer: the fans, or `{"error":…}` naming why not.
fn batch_answer(line: &str, reading: Reading) -> String {
    let error = |e: String| serde_json::json!({ "error": e }).to_string();
    let input: HandInput = match serde_json::from_str(line) {
        Ok(i) => i,
        Err(e) => return error(format!("bad JSON: {e}")),
    };
    let hand = match input.read() {
        Ok(h) => h,
        Err(e) => return error(e.to_string()),
    };
    match fan::evaluate(&hand.win_hand(), reading) {
        Ok(r) => result_json(&r, reading),
        Err(e) => error(e.to_string()),
    }
}

fn batch(reading: Reading) -> Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut lines = LineSplitter::new(MAX_LINE_BYTES);
    loop {
        let answer = match arena_line::lines::next_output(&mut input, &mut lines) {
            Output::Line(l) if l.trim().is_empty() => continue,
            Output::Line(l) => batch_answer(l.trim_end_matches('\r'), reading),
            Output::NotUtf8(_) => {
                serde_json::json!({ "error": "the line is not UTF-8" }).to_string()
            }
            Output::TooLong(_) => serde_json::json!({
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
