//! The README's remote bots in Rust, on the SDK (`sdk/rust`, crate `arena-sdk`): one gRPC
//! stream to bot-host, any number of tables at once, of both games.
//!
//! At Dou Dizhu it never calls, never doubles, and plays the smallest listed move (passing only
//! when it must, or when following its partner): [`choose`]; at Mahjong it plays
//! [`mahjong::choose`]. Every request carries the seat's full observation with its legal
//! actions, so the bot needs no rules engine. [`Example`] is both games' bot (an
//! [`arena_sdk::ddz::DdzBot`] and an [`arena_sdk::mahjong::MahjongBot`]), given to the
//! connection as one handler per game ([`Options::games`]), so its `Hello` lists the games it
//! plays and each seat's bot is made for its table's game: the `arena-example-remote-bot`
//! binary plays both, the `arena-example-mahjong-bot` binary Mahjong alone. The connection
//! (Hello, Ping/Pong, reconnect with resume, clean shutdown, TLS) is the SDK's; [`Options`] and
//! the `play…` functions here are the example's decisions on it, which the platform's tests
//! also play with.

use std::time::Duration;

use arena_proto::v1;
use arena_sdk::Games;
use arena_sdk::ddz::{self, DdzBot, pb as ddz_pb};
use arena_sdk::mahjong::{MahjongBot, pb as mahjong_pb};
use arena_tls::ClientTlsFiles;

pub use arena_sdk::{Session, connect, env_args, tls_from_env};

pub mod mahjong;

/// The bot's decision for one Dou Dizhu request, whose observation is `obs`.
pub fn choose(req: &v1::DecisionRequest, obs: &ddz_pb::Observation) -> ddz_pb::Action {
    use ddz_pb::action::Action;
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

/// The example's answer to a request of either game as bot-host sends it (whole), as its bots
/// answer on a connection: for tests that speak the bot stream themselves. A request of a game
/// it does not play, or one it cannot read, gets an empty action.
pub fn answer(req: &v1::DecisionRequest) -> v1::Action {
    Options::default()
        .games()
        .ok()
        .and_then(|games| games.get(&req.game).map(|h| h.make().decide(req)))
        .unwrap_or_default()
}

/// The release this example reports.
pub const RELEASE: &str = "rust-1";
/// The release the Mahjong binary reports.
pub const MAHJONG_RELEASE: &str = "rust-mahjong-1";

/// The example as an SDK bot of both games: its decisions are two functions, so a test can play
/// another.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The decision for each Dou Dizhu request.
    pub choose: fn(&v1::DecisionRequest, &ddz_pb::Observation) -> ddz_pb::Action,
    /// The answer to each Mahjong request: the text of one of its legal answers.
    pub choose_mahjong: fn(&v1::DecisionRequest, &mahjong_pb::Observation) -> String,
}

impl Default for Example {
    fn default() -> Self {
        Example {
            choose,
            choose_mahjong: mahjong::choose,
        }
    }
}

impl DdzBot for Example {
    fn decide(&mut self, req: &v1::DecisionRequest, obs: &ddz_pb::Observation) -> ddz_pb::Action {
        (self.choose)(req, obs)
    }

    /// Both choices read the request's lists and nothing else: microseconds.
    fn is_quick(&self) -> bool {
        true
    }
}

impl MahjongBot for Example {
    fn decide(
        &mut self,
        req: &v1::DecisionRequest,
        obs: &mahjong_pb::Observation,
    ) -> Result<mahjong_pb::Action, String> {
        arena_sdk::mahjong::action(&(self.choose_mahjong)(req, obs))
    }

    fn is_quick(&self) -> bool {
        true
    }
}

impl Example {
    /// The handlers of the games named in `names` (`ddz`, `mahjong`), each seat's bot a copy of
    /// this one. Fails naming a game the example does not play.
    pub fn games(self, names: &[&str]) -> anyhow::Result<Games> {
        let mut games = Games::new();
        for name in names {
            games = games.with(match *name {
                ddz::GAME => ddz::handler(move || self),
                arena_sdk::mahjong::GAME => arena_sdk::mahjong::handler(move || self),
                other => anyhow::bail!(
                    "the example plays {} and {}, not {other:?}",
                    ddz::GAME,
                    arena_sdk::mahjong::GAME
                ),
            });
        }
        Ok(games)
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
    /// The games it plays, by registered name: its `Hello` lists them, and bot-host seats it
    /// at no other (default: both).
    pub games: Vec<&'static str>,
    /// The decision for each Dou Dizhu request.
    pub choose: fn(&v1::DecisionRequest, &ddz_pb::Observation) -> ddz_pb::Action,
    /// The answer to each Mahjong request.
    pub choose_mahjong: fn(&v1::DecisionRequest, &mahjong_pb::Observation) -> String,
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
            games: vec![arena_sdk::mahjong::GAME],
            ..Options::default()
        }
    }

    /// The SDK's options for these, reconnecting after `backoff` (at first and at most).
    pub fn sdk(&self, backoff: Duration) -> arena_sdk::Options {
        arena_sdk::Options {
            release: self.release.clone(),
            capacity: self.capacity,
            tables: self.tables,
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

    /// The handlers these options play: [`Options::bot`] for each of [`Options::games`].
    pub fn games(&self) -> anyhow::Result<Games> {
        self.bot().games(&self.games)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            release: RELEASE.into(),
            capacity: 8,
            tables: 0,
            games: vec![ddz::GAME, arena_sdk::mahjong::GAME],
            choose,
            choose_mahjong: mahjong::choose,
            tls: ClientTlsFiles::default(),
            incremental: true,
        }
    }
}

/// Connects to bot-host at `endpoint` (`http://…`, or `https://…` with the TLS settings of
/// [`tls_from_env`]) as `bot` with `token` and plays until the stream ends or `tables`
/// tables have ended (0 = no limit), at both games.
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
    arena_sdk::play_once(
        endpoint,
        bot,
        token,
        &options.sdk(Duration::ZERO),
        options.games()?,
    )
    .await
}

/// Plays both games with reconnects (resuming its session), with the TLS settings of
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
    let sdk = options.sdk(backoff);
    loop {
        let never = std::future::pending::<()>();
        let games = options.games();
        let run = async { arena_sdk::run(endpoint, bot, token, &sdk, games?, never).await };
        match run.await {
            Ok(s) => eprintln!("stopped after {} tables; connecting again", s.tables),
            Err(e) => eprintln!("{e:#}; connecting again"),
        }
        tokio::time::sleep(backoff).await;
    }
}
