//! `arena leaderboard`: the ladder's ratings from a running matchmaker.

use anyhow::Result;
use arena_proto::v1;
use clap::Args;

use super::competition::{MatchmakerAddr, connect};
use super::flags::GameArg;
use super::runtime;
use crate::client::status;

/// `arena leaderboard`: the ladder's ratings from a running matchmaker.
#[derive(Args)]
pub struct LeaderboardArgs {
    /// Which game's ladder (a registered game's name) [default: the default game].
    #[arg(long, value_parser = GameArg::parse, default_value_t)]
    pub(super) game: GameArg,
    /// Most entries (0 = all; fetched a page at a time).
    #[arg(long, default_value_t = 0)]
    pub(super) limit: u32,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    pub(super) json: bool,
    #[command(flatten)]
    pub(super) addr: MatchmakerAddr,
}

/// Runs `arena leaderboard`.
pub fn leaderboard(a: LeaderboardArgs) -> Result<()> {
    let rt = runtime()?;
    rt.block_on(async {
        let mut client = connect(&a.addr).await?;
        // Page by page (the matchmaker serves a bounded page at a time) up to the limit.
        let want = if a.limit == 0 {
            usize::MAX
        } else {
            a.limit as usize
        };
        let mut board = v1::Leaderboard::default();
        loop {
            let page = client
                .get_leaderboard(v1::LeaderboardRequest {
                    limit: (want - board.ratings.len()).min(arena_matchmaker::ladder::MAX_PAGE)
                        as u32,
                    game: a.game.wire().into(),
                    page_token: std::mem::take(&mut board.next_page_token),
                })
                .await
                .map_err(status)?
                .into_inner();
            board.ratings.extend(page.ratings);
            board.next_page_token = page.next_page_token;
            if board.next_page_token.is_empty() || board.ratings.len() >= want {
                break;
            }
        }
        // What a rating counts, named as the ladder plays it: duplicate pairs of bots, or larger
        // duplicate sets (`Rating.games` on the wire).
        let unit = match a.game.0.ladder().map(|l| l.group_size()) {
            Some(2) => "pairs",
            _ => "sets",
        };
        if a.json {
            for r in &board.ratings {
                let mut row = serde_json::json!({
                    "bot": r.bot, "release": r.release, "mu": r.mu, "sigma": r.sigma,
                    "conservative": r.conservative,
                });
                row[unit] = r.games.into();
                println!("{row}");
            }
            return Ok(());
        }
        if board.ratings.is_empty() {
            println!(
                "no rated bots yet (is the matchmaker running with {}?)",
                super::flags::LadderArgs::flag(a.game.0)
            );
            return Ok(());
        }
        let w = board
            .ratings
            .iter()
            .map(|r| r.bot.len() + r.release.len() + 1)
            .max()
            .unwrap_or(0)
            .max("bot@release".len());
        println!(
            "  {:>4}  {:<w$}  {:>7}  {:>6}  {:>12}  {:>6}",
            "#", "bot@release", "mu", "sigma", "mu - 3 sigma", unit
        );
        for (i, r) in board.ratings.iter().enumerate() {
            println!(
                "  {:>4}  {:<w$}  {:>7.2}  {:>6.2}  {:>12.2}  {:>6}",
                i + 1,
                format!("{}@{}", r.bot, r.release),
                r.mu,
                r.sigma,
                r.conservative,
                r.games
            );
        }
        Ok(())
    })
}
