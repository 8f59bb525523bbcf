//! `ARENA_BOT=name ARENA_TOKEN=token cargo run -p arena-example-remote-bot --bin
//! arena-example-mahjong-bot`: plays Mahjong until stopped (its `Hello` lists Mahjong only; the
//! moves are [`arena_example_remote_bot::mahjong::choose`]'s); SIGINT or SIGTERM finishes the
//! hands in flight first.
//!
//! The environment is the Dou Dizhu binary's: `ARENA_BOT_HOST` (default
//! `http://127.0.0.1:50052`), and for `https://` `ARENA_CA_FILE`, `ARENA_CLIENT_CERT_FILE` and
//! `ARENA_CLIENT_KEY_FILE`.

use arena_example_remote_bot::{Options, env_args, tls_from_env};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (endpoint, bot, token) = env_args()?;
    let options = Options {
        tls: tls_from_env()?,
        ..Options::mahjong()
    };
    let sdk = options.sdk(std::time::Duration::from_secs(1));
    let s = arena_sdk::run_until_signal(&endpoint, &bot, &token, &sdk, options.games()?).await?;
    eprintln!("stopped after {} hands", s.tables);
    Ok(())
}
