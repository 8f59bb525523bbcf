//! `ARENA_BOT=name ARENA_TOKEN=token cargo run -p arena-example-remote-bot --bin
//! arena-example-mahjong-bot`: plays Mahjong until stopped (its `Hello` lists Mahjong only; the
//! moves are [`arena_example_remote_bot::mahjong::choose`]'s).
//!
//! The environment is the Dou Dizhu binary's: `ARENA_BOT_HOST` (default
//! `http://127.0.0.1:50052`), and for `https://` `ARENA_CA_FILE`, `ARENA_CLIENT_CERT_FILE` and
//! `ARENA_CLIENT_KEY_FILE`.

use arena_example_remote_bot::{Options, env_args, play_forever_with, tls_from_env};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (endpoint, bot, token) = env_args()?;
    let options = Options {
        tls: tls_from_env()?,
        ..Options::mahjong()
    };
    let backoff = std::time::Duration::from_secs(1);
    play_forever_with(&endpoint, &bot, &token, &options, backoff).await
}
