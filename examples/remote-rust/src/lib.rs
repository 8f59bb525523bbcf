//! The README's remote bots in Rust, on the SDK (`sdk/rust`, crate `arena-sdk`): one gRPC
//! stream to bot-host, any number of tables at once, of either game.
//!
//! At Dou Dizhu it never calls, never doubles, and plays the smallest listed move (passing only
//! when it must, or when following its partner); at Mahjong it plays [`mahjong::choose`]. Every
//! request carries the seat's full observation with its legal actions, so the bot needs no rules
//! engine. Which games it is seated at is what its `Hello` lists ([`Options::games`]; none listed
//! means Dou Dizhu only): the `arena-example-remote-bot` binary plays Dou Dizhu, the
//! `arena-example-mahjong-bot` binary Mahjong. The connection (Hello, Ping/Pong, reconnect with
//! resume, clean shutdown, TLS) is the SDK's; [`Options`] and the `play…` functions here are
//! the example's decisions on it, which the platform's tests also play with.

use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::time::Duration;

use arena_proto::v1;
use arena_sdk::Bot;
use arena_tls::ClientTlsFiles;

pub use arena_sdk::{Session, connect, env_args, tls_from_env};

pub mod mahjong;

/// The bot's decision for one Dou Dizhu request.
pub fn choose(req: &v1::DecisionRequest) -> ddz_pb::Action {
    use ddz_pb::action::Action;
    let obs: ddz_pb::Observation = arena_proto::payload::unpack(req.observation.as_ref().and_then(|o| o.game.as_ref()), "").unwrap_or_default();
    let obs = &obs;
    let action = match req.kind() {
        v1::DecisionKind::Bid => Action::Bid(0),
        v1::DecisionKind::Double | v1::DecisionKind::Redouble => Action::Double(false),
        _ => {
            let partner_led = matches!((obs.landlord, obs.to_beat_seat), (Some(l), Some(s)) if l != obs.seat && s != l && s != obs.seat);
            let can_pass = obs.legal.first().is_some_and(|m| m == "pass");
            match obs.legal.iter().find(|m| *m != "pass") {
                Some(m) if !(partner_led && can_pass) => Action::Play(m.clone()),
                _ => Action::Play("pass".into()),
            }
        }
    };
    ddz_pb::Action {
        action: Some(action),
    }
}

/// The release this example reports.
pub const RELEASE: &str = "rust-1";
/// The release the Mahjong binary reports.
pub const MAHJONG_RELEASE: &str = "rust-mahjong-1";

/// The example as an SDK bot: its decisions are two functions, so a test can play another.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The decision for each Dou Dizhu request.
    pub choose: fn(&v1::DecisionRequest) -> ddz_pb::Action,
    /// The decision for each Mahjong request.
    pub choose_mahjong: fn(&v1::DecisionRequest) -> mahjong_pb::Action,
}

impl Bot for Example {
    fn decide(&mut self, req: &v1::DecisionRequest) -> v1::Action {
        let game = match req.game.as_str() {
            "mahjong" => arena_proto::payload::pack(&(self.choose_mahjong)(req)),
            _ => arena_proto::payload::pack(&(self.choose)(req)),
        };
        v1::Action { game: Some(game) }
    }

    /// Both choices read the request's lists and nothing else: microseconds.
    fn is_quick(&self) -> bool {
        true
    }
}

/// How the example plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// The release reported in Hello (ratings are kept per release).
    pub release: String,
    /// Tables at once.
    pub capacity: u32,
    /// Stop (cleanly) once this many tables have ended (0 = no limit).
    pub tables: u64,
    /// The games the bot says it plays in `Hello` (empty: Dou Dizhu only); bot-host seats it at
    /// no other.
    pub games: Vec<&'static str>,
    /// The decision for each Dou Dizhu request.
    pub choose: fn(&v1::DecisionRequest) -> ddz_pb::Action,
    /// The decision for each Mahjong request.
    pub choose_mahjong: fn(&v1::DecisionRequest) -> mahjong_pb::Action,
    /// TLS for an `https://` URL: the CA to trust (default: the system's roots) and the client
    /// certificate to present (default: none). Must be empty for an `http://` URL.
    pub tls: ClientTlsFiles,
    /// Ask for incremental observations ([`arena_sdk::Options::incremental`]).
    pub incremental: bool,
}

impl Options {
    /// The Mahjong binary's options: `Hello` lists Mahjong only, release [`MAHJONG_RELEASE`].
    pub fn mahjong() -> Options {
        Options {
            release: MAHJONG_RELEASE.into(),
            games: vec!["mahjong"],
            ..Options::default()
        }
    }

    /// The SDK's options for these, reconnecting after `backoff` (at first and at most).
    pub fn sdk(&self, backoff: Duration) -> arena_sdk::Options {
        arena_sdk::Options {
            release: self.release.clone(),
            capacity: self.capacity,
            tables: self.tables,
            games: self.games.clone(),
            tls: self.tls.clone(),
            backoff,
            max_backoff: backoff,
            incremental: self.incremental,
        }
    }

    /// The bot these options play.
    pub fn bot(&self) -> Example {
        Example {
            choose: self.choose,
            choose_mahjong: self.choose_mahjong,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            release: RELEASE.into(),
            capacity: 8,
            tables: 0,
            games: Vec::new(),
            choose,
            choose_mahjong: mahjong::choose,
            tls: ClientTlsFiles::default(),
            incremental: true,
        }
    }
}

/// Connects to bot-host at `endpoint` (`http://…`, or `https://…` with the TLS settings of
/// [`tls_from_env`]) as `bot` with `token` and plays Dou Dizhu until the stream ends or `tables`
/// tables have ended (0 = no limit).
pub async fn play(
    endpoint: &str,
    bot: &str,
    token: &str,
    capacity: u32,
    tables: u64,
) -> anyhow::Result<Session> {
    let options = Options {
        capacity,
        tables,
        tls: tls_from_env()?,
        ..Options::default()
    };
    play_with(endpoint, bot, token, &options).await
}

/// [`play`] with every option: one connection ([`arena_sdk::play_once`]).
pub async fn play_with(
    endpoint: &str,
    bot: &str,
    token: &str,
    options: &Options,
) -> anyhow::Result<Session> {
    let example = options.bot();
    arena_sdk::play_once(
        endpoint,
        bot,
        token,
        &options.sdk(Duration::ZERO),
        move || example,
    )
    .await
}

/// Plays Dou Dizhu with reconnects (resuming its session), with the TLS settings of
/// [`tls_from_env`].
pub async fn play_forever(
    endpoint: &str,
    bot: &str,
    token: &str,
    capacity: u32,
    backoff: Duration,
) -> ! {
    loop {
        match tls_from_env() {
            Ok(tls) => {
                let options = Options {
                    capacity,
                    tls,
                    ..Options::default()
                };
                play_forever_with(endpoint, bot, token, &options, backoff).await
            }
            Err(e) => eprintln!("{e:#}; trying again"),
        }
        tokio::time::sleep(backoff).await;
    }
}

/// [`play_forever`] with every option (`options.tables` is ignored: it plays until stopped),
/// reconnecting `backoff` after each drop ([`arena_sdk::run`]), and after a refusal too.
pub async fn play_forever_with(
    endpoint: &str,
    bot: &str,
    token: &str,
    options: &Options,
    backoff: Duration,
) -> ! {
    let options = Options {
        tables: 0,
        ..options.clone()
    };
    let example = options.bot();
    let sdk = options.sdk(backoff);
    loop {
        let never = std::future::pending::<()>();
        match arena_sdk::run(endpoint, bot, token, &sdk, move || example, never).await {
            Ok(s) => eprintln!("stopped after {} tables; connecting again", s.tables),
            Err(e) => eprintln!("{e:#}; connecting again"),
        }
        tokio::time::sleep(backoff).await;
    }
}
