//! A remote bot: one gRPC stream to bot-host, any number of tables at once, of either game.
//!
//! At Dou Dizhu it never calls, never doubles, and plays the smallest listed move (passing only
//! when it must, or when following its partner); at Mahjong it plays [`mahjong::choose`]. Every
//! request carries the seat's full observation with its legal actions, so the bot needs no rules
//! engine. Which games it is seated at is what its `Hello` lists ([`Options::games`]; none listed
//! means Dou Dizhu only): the `arena-example-remote-bot` binary plays Dou Dizhu, the
//! `arena-example-mahjong-bot` binary Mahjong.
//!
//! An `https://` bot-host URL connects over TLS, verifying bot-host's certificate against the
//! system's roots or a CA file, and presenting a client certificate where bot-host asks for one
//! (mutual TLS): [`Options::tls`], or for [`play`] the environment ([`tls_from_env`]:
//! `ARENA_CA_FILE`, `ARENA_CLIENT_CERT_FILE`, `ARENA_CLIENT_KEY_FILE`).

use std::time::{Duration, Instant};

use anyhow::Context as _;
use arena_tls::{ClientTlsFiles, KeyPairFiles, TlsFile};
use tonic::transport::{Channel, Endpoint};

use arena_proto::v1::{
    self, bot_gateway_client::BotGatewayClient, bot_to_host::Msg as Out, host_to_bot::Msg as In,
};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

pub mod mahjong;

/// The bot's decision for one Dou Dizhu request.
pub fn choose(req: &v1::DecisionRequest) -> v1::DdzAction {
    use v1::ddz_action::Action;
    let obs = match &req.observation {
        Some(v1::Observation {
            game: Some(v1::observation::Game::Ddz(o)),
        }) => o.clone(),
        _ => v1::DdzObservation::default(),
    };
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
    v1::DdzAction {
        action: Some(action),
    }
}

/// What a bot session did.
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// Requests answered.
    pub answered: u64,
    /// Tables that ended.
    pub tables: u64,
    /// Time from sending an answer to receiving this bot's next request at the same table, in
    /// microseconds: the round trip through bot-host and the referee (other seats' decisions
    /// included when they play in between).
    pub turnarounds_us: Vec<u64>,
}

/// The release this example reports.
pub const RELEASE: &str = "rust-1";
/// The release the Mahjong binary reports.
pub const MAHJONG_RELEASE: &str = "rust-mahjong-1";

/// How a bot session plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// The release reported in Hello (ratings are kept per release).
    pub release: String,
    /// Tables at once.
    pub capacity: u32,
    /// Stop after this many tables ended (0 = no limit).
    pub tables: u64,
    /// The games the bot says it plays in `Hello` (empty: Dou Dizhu only); bot-host seats it at
    /// no other.
    pub games: Vec<v1::Game>,
    /// The decision for each Dou Dizhu request.
    pub choose: fn(&v1::DecisionRequest) -> v1::DdzAction,
    /// The decision for each Mahjong request.
    pub choose_mahjong: fn(&v1::DecisionRequest) -> v1::MahjongAction,
    /// TLS for an `https://` URL: the CA to trust (default: the system's roots) and the client
    /// certificate to present (default: none). Must be empty for an `http://` URL.
    pub tls: ClientTlsFiles,
}

impl Options {
    /// The Mahjong binary's options: `Hello` lists Mahjong only, release [`MAHJONG_RELEASE`].
    pub fn mahjong() -> Options {
        Options {
            release: MAHJONG_RELEASE.into(),
            games: vec![v1::Game::Mahjong],
            ..Options::default()
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
        }
    }
}

/// The TLS settings the environment gives: `ARENA_CA_FILE` (the CA bot-host's certificate comes
/// from, when it is not one the system trusts), `ARENA_CLIENT_CERT_FILE` and
/// `ARENA_CLIENT_KEY_FILE` (a client certificate, for a bot-host that requires one). Fails if only
/// one of the last two is set.
pub fn tls_from_env() -> anyhow::Result<ClientTlsFiles> {
    let file = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(|path| TlsFile::new(name, path))
    };
    let identity = match (
        file("ARENA_CLIENT_CERT_FILE"),
        file("ARENA_CLIENT_KEY_FILE"),
    ) {
        (Some(cert), Some(key)) => Some(KeyPairFiles { cert, key }),
        (None, None) => None,
        _ => anyhow::bail!(
            "a client certificate needs both ARENA_CLIENT_CERT_FILE and ARENA_CLIENT_KEY_FILE"
        ),
    };
    Ok(ClientTlsFiles {
        ca: file("ARENA_CA_FILE"),
        identity,
    })
}

/// What the binaries read from the environment: bot-host's bot port (`ARENA_BOT_HOST`, default
/// `http://127.0.0.1:50052`), the bot's registered name (`ARENA_BOT`) and its token
/// (`ARENA_TOKEN`). Fails naming the variable that is missing.
pub fn env_args() -> anyhow::Result<(String, String, String)> {
    let endpoint =
        std::env::var("ARENA_BOT_HOST").unwrap_or_else(|_| "http://127.0.0.1:50052".into());
    let bot = std::env::var("ARENA_BOT")
        .map_err(|_| anyhow::anyhow!("set ARENA_BOT to the bot's registered name"))?;
    let token = std::env::var("ARENA_TOKEN")
        .map_err(|_| anyhow::anyhow!("set ARENA_TOKEN to the token `arena bots add` printed"))?;
    Ok((endpoint, bot, token))
}

/// A client of bot-host's bot port at `endpoint`, over TLS with `tls` for `https://`.
pub async fn connect(
    endpoint: &str,
    tls: &ClientTlsFiles,
) -> anyhow::Result<BotGatewayClient<Channel>> {
    let mut target = Endpoint::from_shared(endpoint.to_string())
        .with_context(|| format!("bot-host URL {endpoint:?}"))?;
    if target.uri().scheme_str() == Some("https") {
        target = target.tls_config(tls.client_config()?)?;
    } else if tls != &ClientTlsFiles::default() {
        anyhow::bail!(
            "TLS files are given, but bot-host URL {endpoint} is not https:// (the connection \
             would not use them)"
        );
    }
    let channel = target
        .connect()
        .await
        .map_err(|e| anyhow::anyhow!("connecting to {endpoint}: {}", arena_tls::error_chain(&e)))?;
    Ok(BotGatewayClient::new(channel))
}

/// Connects to bot-host at `endpoint` (`http://…`, or `https://…` with the TLS settings of
/// [`tls_from_env`]) as `bot` with `token` and plays until the stream ends or `tables` tables
/// have ended (0 = no limit).
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

/// [`play`] with every option.
pub async fn play_with(
    endpoint: &str,
    bot: &str,
    token: &str,
    options: &Options,
) -> anyhow::Result<Session> {
    let Options {
        release,
        capacity,
        tables,
        games,
        choose,
        choose_mahjong,
        tls,
    } = options.clone();
    let mut client = connect(endpoint, &tls).await?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tx.send(v1::BotToHost {
        msg: Some(Out::Hello(v1::Hello {
            bot: bot.into(),
            release,
            capacity,
            resume_session: String::new(),
            games: games.into_iter().map(|g| g as i32).collect(),
        })),
    })?;
    let mut request = tonic::Request::new(UnboundedReceiverStream::new(rx));
    request
        .metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse()?);
    let mut inbound = client.play(request).await?.into_inner();
    let mut session = Session::default();
    let mut last_answer: std::collections::HashMap<String, Instant> = Default::default();
    while let Some(msg) = inbound.next().await {
        match msg?.msg {
            Some(In::Request(req)) => {
                if let Some(t) = last_answer.get(&req.table_id) {
                    session.turnarounds_us.push(t.elapsed().as_micros() as u64);
                }
                let game = match req.game() {
                    v1::Game::Mahjong => v1::action::Game::Mahjong(choose_mahjong(&req)),
                    _ => v1::action::Game::Ddz(choose(&req)),
                };
                let action = v1::Action { game: Some(game) };
                let reply = v1::DecisionReply {
                    request_id: req.request_id,
                    table_id: req.table_id.clone(),
                    action: Some(action),
                };
                tx.send(v1::BotToHost {
                    msg: Some(Out::Reply(reply)),
                })?;
                last_answer.insert(req.table_id, Instant::now());
                session.answered += 1;
            }
            Some(In::Ping(p)) => tx.send(v1::BotToHost {
                msg: Some(Out::Pong(v1::Pong { nonce: p.nonce })),
            })?,
            Some(In::End(e)) => {
                last_answer.remove(&e.table_id);
                session.tables += 1;
                if tables > 0 && session.tables >= tables {
                    break;
                }
            }
            _ => {}
        }
    }
    Ok(session)
}

/// Plays Dou Dizhu with reconnects, with the TLS settings of [`tls_from_env`]: when the stream
/// drops, waits `backoff` and connects again.
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

/// [`play_forever`] with every option (`options.tables` is ignored: it plays until stopped).
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
    loop {
        match play_with(endpoint, bot, token, &options).await {
            Ok(s) => eprintln!("stream ended after {} tables; reconnecting", s.tables),
            Err(e) => eprintln!("{e:#}; reconnecting"),
        }
        tokio::time::sleep(backoff).await;
    }
}
