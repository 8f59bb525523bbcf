//! A Chinese Standard Mahjong bot on the SDK: it wins whenever `HU` is listed (the table lists it
//! only at 8 points), pungs whenever it can, and otherwise discards the first tile listed.
//! `ARENA_BOT=name ARENA_TOKEN=token cargo run -p arena-sdk --example mcr-bot` (bot-host at
//! `ARENA_BOT_HOST`, default `http://127.0.0.1:50052`).

use arena_sdk::mcr::{self, McrBot, pb};

struct Eager;

impl McrBot for Eager {
    fn turn(&mut self, obs: &pb::Observation) -> String {
        pick(obs, &["HU", "PLAY "])
    }

    fn claim(&mut self, obs: &pb::Observation) -> String {
        pick(obs, &["HU", "PENG "])
    }
}

/// The first legal answer starting with the earliest of `prefixes` that any starts with.
fn pick(obs: &pb::Observation, prefixes: &[&str]) -> String {
    let first = |p: &&str| obs.legal.iter().find(|a| a.starts_with(*p));
    prefixes
        .iter()
        .find_map(first)
        .cloned()
        .unwrap_or_else(|| "PASS".into())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let var = |k: &str| std::env::var(k).map_err(|_| anyhow::anyhow!("set {k}"));
    let host = var("ARENA_BOT_HOST").unwrap_or_else(|_| "http://127.0.0.1:50052".into());
    let options = arena_sdk::Options {
        tls: arena_sdk::tls_from_env()?,
        ..Default::default()
    };
    let games = arena_sdk::Games::new().with(mcr::handler(|| Eager));
    arena_sdk::run_until_signal(
        &host,
        &var("ARENA_BOT")?,
        &var("ARENA_TOKEN")?,
        &options,
        games,
    )
    .await?;
    Ok(())
}
