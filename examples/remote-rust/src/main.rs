//! `ARENA_BOT=name ARENA_TOKEN=token cargo run -p arena-example-remote-bot`: plays Dou Dizhu and
//! Mahjong (its `Hello` lists both; each seat's bot is made for its table's game) until stopped;
//! SIGINT or SIGTERM finishes the tables in flight first (a second one stops at once).
//!
//! `ARENA_BOT_HOST` is bot-host's bot port (default `http://127.0.0.1:50052`); for an `https://`
//! one, `ARENA_CA_FILE` names the CA to trust if it is not one the system trusts, and
//! `ARENA_CLIENT_CERT_FILE` with `ARENA_CLIENT_KEY_FILE` a client certificate if bot-host asks
//! for one.

use arena_example_remote_bot::{Options, env_args, tls_from_env};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (endpoint, bot, token) = env_args()?;
    let options = Options {
        tls: tls_from_env()?,
        ..Options::default()
    };
    let sdk = options.sdk(std::time::Duration::from_secs(1));
    let s = arena_sdk::run_until_signal(&endpoint, &bot, &token, &sdk, options.games()?).await?;
    eprintln!("stopped after {} tables", s.tables);
    Ok(())
}
