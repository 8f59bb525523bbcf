//! `ARENA_BOT=name ARENA_TOKEN=token cargo run -p arena-example-remote-bot`: plays Dou Dizhu until
//! stopped.
//!
//! `ARENA_BOT_HOST` is bot-host's bot port (default `http://127.0.0.1:50052`); for an `https://`
//! one, `ARENA_CA_FILE` names the CA to trust if it is not one the system trusts, and
//! `ARENA_CLIENT_CERT_FILE` with `ARENA_CLIENT_KEY_FILE` a client certificate if bot-host asks
//! for one.

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (endpoint, bot, token) = arena_example_remote_bot::env_args()?;
    arena_example_remote_bot::play_forever(
        &endpoint,
        &bot,
        &token,
        8,
        std::time::Duration::from_secs(1),
    )
    .await
}
