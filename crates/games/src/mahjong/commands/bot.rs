//! `arena mahjong bot NAME`: a built-in Mahjong bot as a program that speaks the 2015
//! contest's line protocol (the client side), so that other contest servers can seat it.

use std::io::{BufReader, Write};

use anyhow::{Context, Result};
use arena_line::Output;
use arena_line::lines::{LineSplitter, next_output};
use clap::Args;
use mahjong::Reading;
use mahjong_line::{Client, decode_server_line};

/// The longest server line kept; longer ones (none of the protocol's is over 60 bytes) are
/// skipped.
const MAX_SERVER_LINE: usize = 4096;

/// `arena mahjong bot`.
#[derive(Args)]
pub(super) struct BotArgs {
    /// The built-in bot (see `arena mahjong selfplay --help` for the names).
    name: String,
    /// Seed of the bot's own randomness, mixed with each hand's starting tiles.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Fan reading the bot plays under: contest or seed-2015.
    #[arg(long, default_value = "contest")]
    fans: Reading,
}

/// Writes `line` and flushes it; false once stdout is gone (the server stopped listening).
fn say(out: &mut impl Write, line: &str) -> bool {
    writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
}

/// Serves the bot until stdin closes: `join`, then one answer per question.
pub(super) fn run(a: BotArgs) -> Result<()> {
    let player = mahjong_bots::builtin(&a.name).with_context(|| {
        format!(
            "{:?} is no built-in Mahjong bot (built-in: {})",
            a.name,
            mahjong_bots::BUILTIN_NAMES.join(", ")
        )
    })?;
    let mut client = Client::new(player, a.fans, a.seed);
    let mut out = std::io::stdout().lock();
    if !say(&mut out, &client.greeting().encode()) {
        return Ok(());
    }
    let mut input = BufReader::new(std::io::stdin().lock());
    let mut lines = LineSplitter::new(MAX_SERVER_LINE);
    loop {
        let text = match next_output(&mut input, &mut lines) {
            Output::Line(text) => text,
            Output::Closed(_) => return Ok(()),
            other => {
                eprintln!("arena mahjong bot: skipping an unreadable line: {other:?}");
                continue;
            }
        };
        let message = match decode_server_line(&text) {
            Ok(Some(m)) => m,
            Ok(None) => continue,
            Err(e) => {
                // A server may say more than the contest's did; what is not the protocol's is
                // no question.
                eprintln!(
                    "arena mahjong bot: skipping {:?}: {e}",
                    text.trim_end_matches('\r')
                );
                continue;
            }
        };
        if let Some(answer) = client.hear(&message)?
            && !say(&mut out, &answer.encode())
        {
            return Ok(());
        }
    }
}
