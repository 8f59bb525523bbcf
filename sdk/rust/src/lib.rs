//! arena's bot SDK for Rust: write a bot for each game it plays as a type implementing that
//! game's trait ([`ddz::DdzBot`], [`mahjong::MahjongBot`]), one method per decision kind, and
//! [`run_until_signal`] plays them on bot-host.
//!
//! ```no_run
//! use arena_sdk::ddz::{self, DdzBot};
//! use arena_sdk::mahjong::{self, MahjongBot};
//! use arena_sdk::{Games, Options};
//!
//! struct Smallest;
//!
//! impl DdzBot for Smallest {
//!     fn play(&mut self, obs: &ddz::pb::Observation) -> String {
//!         let play = obs.legal.iter().find(|m| *m != "pass");
//!         play.map_or_else(|| "pass".into(), String::clone)
//!     }
//! }
//!
//! struct Discarder;
//!
//! impl MahjongBot for Discarder {
//!     fn turn(&mut self, obs: &mahjong::pb::Observation) -> String {
//!         let discard = obs.legal.iter().find(|a| a.starts_with("discard "));
//!         discard.map_or_else(|| "pass".into(), String::clone)
//!     }
//! }
//!
//! #[tokio::main]
//! async fn main() -> anyhow::Result<()> {
//!     let (endpoint, name, token) = arena_sdk::env_args()?;
//!     let options = Options {
//!         release: "smallest-1".into(),
//!         tls: arena_sdk::tls_from_env()?,
//!         ..Options::default()
//!     };
//!     // Hello lists `ddz` and `mahjong`; each seat's bot is made by its game's handler.
//!     let games = Games::new()
//!         .with(ddz::handler(|| Smallest))
//!         .with(mahjong::handler(|| Discarder));
//!     arena_sdk::run_until_signal(&endpoint, &name, &token, &options, games).await?;
//!     Ok(())
//! }
//! ```
//!
//! One game alone needs no [`Games`]: `run_until_signal(…, ddz::handler(|| Smallest))`.
//!
//! The connection is given a [`Handler`] per game (a game's registered name and a factory of
//! its bots) and knows no game itself: its `Hello` lists the handlers' games, and it makes one
//! bot per seat it is seated at with the handler of the seat's game (`TableStart.game`, or the
//! request's `game`; empty means [`DEFAULT_GAME`]), so a bot may keep what it learns during a
//! game in `self`. A request of a game it has no handler for (which bot-host does not send) is
//! answered with an empty action and a line on stderr. Each game's adapter unpacks the
//! request's observation (`google.protobuf.Any`), puts the seat's events, which travel
//! encoded in the envelope, back into its `events` (each decoded once: the adapter keeps its
//! seat's events decoded, [`arena_proto::payload::DecodedEvents`]), calls the method of the
//! request's kind and packs the answer as the game's action. Calls on one bot never overlap, and each runs on a
//! blocking thread of its own, so a slow decision at one table delays neither the others nor
//! the keepalive (unless the bot says it is quick, [`Bot::is_quick`]: then it is called on the
//! connection's task, sparing the hop to another thread). Every request carries the seat's full
//! observation with the legal answers as strings: a bot needs no rules engine. The SDK asks
//! for incremental observations on the wire ([`Options::incremental`]: after a seat's first
//! request, only the events since its previous one) and rebuilds each seat's whole observation
//! before the bot sees it ([`arena_proto::incremental::History`]), so a bot reads what a full
//! observation holds. What the connection does: `Hello` (name, release,
//! capacity, games) with the token, `Pong` for every `Ping`, the answers, a reconnect with
//! `resume_session` when the stream drops ([`run`]; requests bot-host hands back are answered
//! once, an answer made while disconnected is sent again rather than decided twice), and a
//! clean shutdown: `Drain`, the tables in flight finished, then the end of the stream.
//!
//! Adding a game to the SDK is adding its module (as [`ddz`], [`mahjong`] and [`mcr`] are: its trait,
//! its adapter, `handler`, `observation`, `outcome`) over [`handler`]'s game-neutral pieces;
//! nothing else names a game. The raw protocol is in `docs/wire.md`.
//!
//! An `https://` bot-host URL connects over TLS, verifying bot-host's certificate against the
//! system's roots or a CA file, and presenting a client certificate where bot-host asks for one
//! (mutual TLS): [`Options::tls`], from the environment with [`tls_from_env`]
//! (`ARENA_CA_FILE`, `ARENA_CLIENT_CERT_FILE`, `ARENA_CLIENT_KEY_FILE`).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use arena_tls::{ClientTlsFiles, KeyPairFiles, TlsFile};
use tonic::transport::{Channel, Endpoint};

pub use arena_proto::retry::Backoff;
pub use arena_proto::v1;
use arena_proto::v1::{bot_gateway_client::BotGatewayClient, host_to_bot::Msg as In};

pub mod connection;
pub mod ddz;
pub mod handler;
pub mod mahjong;
pub mod mcr;
pub mod replay;
#[cfg(test)]
mod tests;

pub use handler::{Bot, DEFAULT_GAME, Games, Handler, game_name};

use connection::{Connection, ConnectionError, Sender};

/// How a bot plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// The release reported in Hello (ratings are kept per release).
    pub release: String,
    /// Tables at once.
    pub capacity: u32,
    /// Stop cleanly (drain) once this many tables have ended (0 = no limit).
    pub tables: u64,
    /// TLS for an `https://` URL: the CA to trust (default: the system's roots) and the client
    /// certificate to present (default: none). Must be empty for an `http://` URL.
    pub tls: ClientTlsFiles,
    /// The first wait before reconnecting; doubled after each failed attempt (default: the
    /// client retry policy's, [`Backoff::CLIENT`]).
    pub backoff: Duration,
    /// The longest wait before reconnecting (default: the client retry policy's).
    pub max_backoff: Duration,
    /// Ask bot-host for incremental observations (`Hello.incremental_observations`: each
    /// request after a seat's first carries only the events since the previous one), rebuilt
    /// here into whole ones: the bot sees no difference, the wire carries far fewer bytes.
    /// On by default.
    pub incremental: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            release: "0".into(),
            capacity: 8,
            tables: 0,
            tls: ClientTlsFiles::default(),
            backoff: Backoff::CLIENT.first(),
            max_backoff: Backoff::CLIENT.max(),
            incremental: true,
        }
    }
}

/// What a bot's run did.
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// Requests answered.
    pub answered: u64,
    /// Table ends received (one per seat the bot sat in).
    pub tables: u64,
    /// Streams that were welcomed (the first, then one per reconnect).
    pub connections: u64,
    /// Requests bot-host handed back on resumed connections.
    pub resumed: u64,
    /// Whether it ended by a clean shutdown (every table in flight finished).
    pub drained: bool,
    /// Encoded bytes of the decision requests received, as they came (incremental ones
    /// before they were rebuilt).
    pub request_bytes: u64,
    /// Time from sending an answer to receiving this bot's next request at the same table, in
    /// microseconds: the round trip through bot-host and the referee (other seats' decisions
    /// included when they play in between). The first [`MAX_TURNAROUNDS`] only, so that a bot
    /// that runs for weeks does not grow without bound.
    pub turnarounds_us: Vec<u64>,
}

/// Most turnarounds a [`Session`] keeps (8 MB of them).
pub const MAX_TURNAROUNDS: usize = 1 << 20;

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

/// What a bot reads from the environment: bot-host's bot port (`ARENA_BOT_HOST`, default
/// `http://127.0.0.1:50052`; a bare `host:port` is taken as `http://`), the bot's registered name
/// (`ARENA_BOT`) and its token (`ARENA_TOKEN`). Fails naming the variable that is missing.
pub fn env_args() -> anyhow::Result<(String, String, String)> {
    let mut endpoint = std::env::var("ARENA_BOT_HOST")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "http://127.0.0.1:50052".into());
    if !endpoint.contains("://") {
        endpoint = format!("http://{endpoint}");
    }
    let bot = std::env::var("ARENA_BOT")
        .ok()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| anyhow::anyhow!("set ARENA_BOT to the bot's registered name"))?;
    let token = std::env::var("ARENA_TOKEN")
        .ok()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| anyhow::anyhow!("set ARENA_TOKEN to the token `arena bots add` printed"))?;
    Ok((endpoint, bot, token))
}

/// bot-host's bot port at `endpoint`, over TLS with `tls` for `https://`, not yet connected.
fn endpoint(endpoint: &str, tls: &ClientTlsFiles) -> anyhow::Result<Endpoint> {
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
    Ok(target)
}

/// A client of bot-host's bot port at `endpoint`, over TLS with `tls` for `https://`.
pub async fn connect(
    endpoint_url: &str,
    tls: &ClientTlsFiles,
) -> anyhow::Result<BotGatewayClient<Channel>> {
    let channel = endpoint(endpoint_url, tls)?.connect().await.map_err(|e| {
        anyhow::anyhow!(
            "connecting to {endpoint_url}: {}",
            arena_tls::error_chain(&e)
        )
    })?;
    Ok(BotGatewayClient::new(channel))
}

/// How one connection ended, when not fatally.
enum Ended {
    /// The stream ended with OK (after a drain: the run is over).
    Closed,
    /// A transport error or a status another attempt may fix.
    Lost(String),
    /// The caller's shutdown asked to stop at once.
    Abandoned,
}

/// One seat's bot, called by one thread at a time.
type SeatBot = Arc<Mutex<Box<dyn Bot>>>;

/// What the connections of one run share with the decisions in flight.
struct State {
    session_id: String,
    current: Option<Sender>,
    seats: HashMap<(String, u32), SeatBot>,
    /// (table, seat) → the seat's events so far, as its requests arrived, lent to the last one
    /// while it is decided.
    histories: HashMap<(String, u32), arena_proto::incremental::History>,
    /// (table, request id) → the request being decided. Requests are compared whole, not by
    /// id: a table played twice at once (a redelivery overlapping a run that has not noticed
    /// yet) asks the same ids of positions that may differ.
    in_flight: HashMap<(String, u64), Arc<v1::DecisionRequest>>,
    /// (table, seat) → the seat's last request (its [`fingerprint`]) and its answer, sent again
    /// when a resumed connection hands that request back (the first copy was lost with the
    /// stream).
    ///
    /// [`fingerprint`]: arena_proto::incremental::fingerprint
    last: HashMap<(String, u32), (u64, v1::BotToHost)>,
    answered_at: HashMap<String, Instant>,
    summary: Session,
}

/// Decides `req` (whose [`fingerprint`](arena_proto::incremental::fingerprint) is `print`)
/// with the seat's `bot` and sends the answer on the current connection; the seat's events go
/// back to its history for the next increment. A bot that panics answers an empty action,
/// which the referee judges at once (rather than waiting out the deadline).
fn answer(state: &Mutex<State>, bot: &SeatBot, req: Arc<v1::DecisionRequest>, print: u64) {
    let decided = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| lock(bot).decide(&req)));
    let action = decided.unwrap_or_else(|_| {
        eprintln!(
            "arena: table {} seat {}, request {}: the bot panicked; it answers nothing",
            req.table_id, req.seat, req.request_id
        );
        v1::Action::default()
    });
    let reply = connection::reply(&req, action);
    let mut st = lock(state);
    let flight = (req.table_id.clone(), req.request_id);
    if st
        .in_flight
        .get(&flight)
        .is_some_and(|r| Arc::ptr_eq(r, &req))
    {
        st.in_flight.remove(&flight);
    }
    let key = (req.table_id.clone(), req.seat);
    st.answered_at.insert(req.table_id.clone(), Instant::now());
    if st.seats.contains_key(&key) {
        if let Some(h) = st.histories.get_mut(&key) {
            h.restore(req);
        }
        st.last.insert(key, (print, reply.clone()));
    }
    st.summary.answered += 1;
    if let Some(tx) = &st.current {
        tx.send(reply);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A bot that panicked holding its own lock leaves nothing half-updated that matters more
    // than playing on.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A run: the bot's name and token, its options, the handlers making its seats' bots, the
/// shared state.
struct Player<'a> {
    url: &'a str,
    name: &'a str,
    token: &'a str,
    options: &'a Options,
    games: Games,
    state: Arc<Mutex<State>>,
    /// Drain asked (shutdown, or `options.tables` reached).
    stopping: bool,
}

impl Player<'_> {
    /// The seat's bot, made on first sight by the handler of `game` (the table's: a
    /// `TableStart`'s or, when a request comes first, the request's). `None`, said on stderr,
    /// when the bot has no handler for that game: bot-host seats a bot only at the games its
    /// Hello lists, so that is a bot-host's mistake, which must not stop the bot's other tables.
    fn seat(&self, st: &mut State, key: &(String, u32), game: &str) -> Option<SeatBot> {
        if let Some(bot) = st.seats.get(key) {
            return Some(Arc::clone(bot));
        }
        let Some(handler) = self.games.get(game) else {
            eprintln!(
                "arena: table {} seat {} is a table of {}, but this bot has handlers for {} \
                 only; it answers nothing there",
                arena_proto::text::quote(&key.0),
                key.1,
                arena_proto::text::quote(game_name(game)),
                self.games.names().join(", ")
            );
            return None;
        };
        let bot = Arc::new(Mutex::new(handler.make()));
        st.seats.insert(key.clone(), Arc::clone(&bot));
        Some(bot)
    }

    /// The Hello that opens each connection: the games are the handlers'.
    fn hello(&self) -> v1::Hello {
        v1::Hello {
            bot: self.name.into(),
            release: self.options.release.clone(),
            capacity: self.options.capacity,
            resume_session: lock(&self.state).session_id.clone(),
            games: self.games.names(),
            incremental_observations: self.options.incremental,
        }
    }

    /// Takes a request: answers it again if it was answered already, leaves it if it is being
    /// decided, and decides it otherwise (from its observation made whole, when incremental).
    fn take(&self, tx: &Sender, req: v1::DecisionRequest) {
        let mut st = lock(&self.state);
        let key = (req.table_id.clone(), req.seat);
        st.summary.request_bytes += prost::Message::encoded_len(&req) as u64;
        let Some(bot) = self.seat(&mut st, &key, &req.game) else {
            // Answered at once with an empty action, which the referee judges at once, rather
            // than left to time out; no history is kept of a seat no bot plays.
            st.summary.answered += 1;
            tx.send(connection::reply(&req, v1::Action::default()));
            return;
        };
        // Every request is recorded as it arrives, in the stream's order, even one answered
        // already or still being decided: bot-host counts what the bot holds the same way.
        let (table, seat, id) = (req.table_id.clone(), req.seat, req.request_id);
        let history = st.histories.entry(key.clone()).or_default();
        let req = match history.rebuild(req) {
            Ok(req) => req,
            Err(why) => {
                // Never sent by a working bot-host; no answer is better than a wrong view.
                eprintln!("arena: table {table} seat {seat}, request {id}: {why}; not answered");
                return;
            }
        };
        let print = arena_proto::incremental::fingerprint(&req);
        let flight = (table, id);
        let again = match st.last.get(&key) {
            Some((asked, reply)) if *asked == print => Some(reply.clone()),
            _ => None,
        };
        let deciding = st.in_flight.get(&flight).is_some_and(|r| **r == *req);
        if again.is_some() || deciding {
            // Answered already, or being decided: the events go back at once.
            if let Some(h) = st.histories.get_mut(&key) {
                h.restore(req);
            }
            if let Some(reply) = again {
                tx.send(reply);
            }
            return;
        }
        st.in_flight.insert(flight, Arc::clone(&req));
        if let Some(t) = st.answered_at.get(&req.table_id)
            && st.summary.turnarounds_us.len() < MAX_TURNAROUNDS
        {
            let us = t.elapsed().as_micros() as u64;
            st.summary.turnarounds_us.push(us);
        }
        drop(st);
        let state = Arc::clone(&self.state);
        if lock(&bot).is_quick() {
            answer(&state, &bot, req, print);
        } else {
            tokio::task::spawn_blocking(move || answer(&state, &bot, req, print));
        }
    }

    fn end(&self, end: v1::TableEnd) -> u64 {
        let mut st = lock(&self.state);
        let key = (end.table_id.clone(), end.seat);
        let bot = st.seats.remove(&key);
        st.last.remove(&key);
        st.histories.remove(&key);
        if !st.seats.keys().any(|(t, _)| *t == end.table_id) {
            st.answered_at.remove(&end.table_id);
        }
        st.summary.tables += 1;
        let tables = st.summary.tables;
        drop(st);
        if let Some(bot) = bot {
            tokio::task::spawn_blocking(move || lock(&bot).end(&end));
        }
        tables
    }

    /// One connection, from Hello to the end of its stream. `Err` for what another attempt
    /// cannot fix. `shutdown` completes when the caller wants a drain; `abandon` when it wants
    /// the run to stop at once.
    async fn connection(
        &mut self,
        shutdown: &mut (impl Future<Output = ()> + Unpin),
        abandon: &mut (impl Future<Output = ()> + Unpin),
        shutdown_done: &mut bool,
    ) -> anyhow::Result<Ended> {
        let target = endpoint(self.url, &self.options.tls)?;
        let channel = match target.connect().await {
            Ok(c) => c,
            Err(e) => {
                return Ok(Ended::Lost(format!(
                    "connecting to {}: {}",
                    self.url,
                    arena_tls::error_chain(&e)
                )));
            }
        };
        let mut client = BotGatewayClient::new(channel);
        let mut conn = match Connection::open(&mut client, self.hello(), self.token).await {
            Ok(c) => c,
            Err(e) => return self.failed(e),
        };
        let tx = conn.sender();
        let mut welcomed = false;
        loop {
            let msg = tokio::select! {
                m = conn.next() => m,
                () = &mut *shutdown, if !*shutdown_done => {
                    *shutdown_done = true;
                    self.stopping = true;
                    if welcomed {
                        tx.drain();
                    }
                    continue;
                }
                () = &mut *abandon => return Ok(Ended::Abandoned),
            };
            let msg = match msg {
                Ok(None) => return Ok(Ended::Closed),
                Err(e) => return self.failed(e),
                Ok(Some(m)) => m,
            };
            match msg {
                In::Welcome(w) => {
                    welcomed = true;
                    {
                        let mut st = lock(&self.state);
                        st.session_id = w.session.clone();
                        st.current = Some(tx.clone());
                        st.summary.connections += 1;
                        st.summary.resumed += w.resumed.len() as u64;
                    }
                    for r in w.resumed {
                        self.take(&tx, r);
                    }
                    if self.stopping {
                        tx.drain();
                    }
                }
                In::Start(s) => {
                    let mut st = lock(&self.state);
                    self.seat(&mut st, &(s.table_id, s.seat), &s.game);
                }
                In::Request(r) => self.take(&tx, r),
                In::End(e) => {
                    let tables = self.end(e);
                    if self.options.tables > 0 && tables == self.options.tables && !self.stopping {
                        self.stopping = true;
                        tx.drain();
                    }
                }
                In::Notice(n) => {
                    eprintln!("arena: bot-host: {}", n.message);
                }
                // Answered by the connection.
                In::Ping(_) => {}
            }
        }
    }

    /// A connection's failure as [`Player::connection`] returns it: `Err` for what another
    /// attempt cannot fix.
    fn failed(&self, e: ConnectionError) -> anyhow::Result<Ended> {
        if e.reconnects() {
            Ok(Ended::Lost(e.to_string()))
        } else {
            Err(anyhow::anyhow!("bot-host {} {e}", self.url))
        }
    }

    fn summary(&self, drained: bool) -> Session {
        let mut s = lock(&self.state).summary.clone();
        s.drained = drained;
        s
    }
}

/// A run of `games`, refused (saying why) when they cannot be played ([`Games::check`]).
fn player<'a>(
    url: &'a str,
    name: &'a str,
    token: &'a str,
    options: &'a Options,
    games: Games,
) -> anyhow::Result<Player<'a>> {
    games.check().map_err(anyhow::Error::msg)?;
    Ok(Player {
        url,
        name,
        token,
        options,
        games,
        state: Arc::new(Mutex::new(State {
            session_id: String::new(),
            current: None,
            seats: HashMap::new(),
            histories: HashMap::new(),
            in_flight: HashMap::new(),
            last: HashMap::new(),
            answered_at: HashMap::new(),
            summary: Session::default(),
        })),
        stopping: false,
    })
}

/// Plays one connection to bot-host at `url` as `name` with `token`, with a bot per seat made
/// by the handler of its game in `games`, until the stream ends: `options.tables` tables ended
/// (then it drains) or the connection failed (an error: no reconnect, see [`run`]).
pub async fn play_once(
    url: &str,
    name: &str,
    token: &str,
    options: &Options,
    games: impl Into<Games>,
) -> anyhow::Result<Session> {
    let mut p = player(url, name, token, options, games.into())?;
    let mut done = false;
    let mut never = std::pin::pin!(std::future::pending::<()>());
    let mut never_abandon = std::pin::pin!(std::future::pending::<()>());
    match p
        .connection(&mut never, &mut never_abandon, &mut done)
        .await?
    {
        Ended::Closed => Ok(p.summary(p.stopping)),
        Ended::Lost(why) => anyhow::bail!("{why}"),
        Ended::Abandoned => Ok(p.summary(false)),
    }
}

/// Plays on bot-host at `url` as `name` with `token`, with a bot per seat made by the handler
/// of its game in `games` (one handler alone, or a [`Games`] of several), reconnecting (and
/// resuming the session) whenever the stream drops, until `shutdown` completes or
/// `options.tables` tables have ended: then it drains, finishing the tables in flight, and
/// returns once bot-host has ended the stream. Fails only on what another attempt
/// cannot fix (games it cannot play, a bad URL or TLS files, a refused token, a revoked one).
pub async fn run(
    url: &str,
    name: &str,
    token: &str,
    options: &Options,
    games: impl Into<Games>,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<Session> {
    run_with_abandon(
        url,
        name,
        token,
        options,
        games.into(),
        shutdown,
        std::future::pending(),
    )
    .await
}

async fn run_with_abandon(
    url: &str,
    name: &str,
    token: &str,
    options: &Options,
    games: Games,
    shutdown: impl Future<Output = ()>,
    abandon: impl Future<Output = ()>,
) -> anyhow::Result<Session> {
    let mut p = player(url, name, token, options, games)?;
    let mut shutdown = std::pin::pin!(shutdown);
    let mut abandon = std::pin::pin!(abandon);
    let mut shutdown_done = false;
    let mut backoff = Backoff::new(options.backoff, options.max_backoff);
    loop {
        let before = lock(&p.state).summary.connections;
        let ended = p
            .connection(&mut shutdown, &mut abandon, &mut shutdown_done)
            .await?;
        let why = match ended {
            Ended::Abandoned => return Ok(p.summary(false)),
            Ended::Closed if p.stopping => return Ok(p.summary(true)),
            Ended::Closed => "the stream ended".to_string(),
            Ended::Lost(why) => why,
        };
        if lock(&p.state).summary.connections > before {
            backoff.reset();
        }
        if p.stopping && lock(&p.state).seats.is_empty() {
            return Ok(p.summary(true));
        }
        lock(&p.state).current = None;
        let delay = backoff.next_wait();
        eprintln!(
            "arena: connection to {url} lost ({why}); reconnecting in {} ms",
            delay.as_millis()
        );
        tokio::select! {
            () = tokio::time::sleep(delay) => {}
            () = &mut shutdown, if !shutdown_done => {
                shutdown_done = true;
                p.stopping = true;
                if lock(&p.state).seats.is_empty() {
                    return Ok(p.summary(true));
                }
            }
            () = &mut abandon => return Ok(p.summary(false)),
        }
    }
}

/// Completes on the first SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
            return;
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

/// [`run`] for a binary: the first SIGINT or SIGTERM drains (the tables in flight finish), a
/// second one stops at once.
pub async fn run_until_signal(
    url: &str,
    name: &str,
    token: &str,
    options: &Options,
    games: impl Into<Games>,
) -> anyhow::Result<Session> {
    let (first_tx, first_rx) = tokio::sync::oneshot::channel::<()>();
    let (second_tx, second_rx) = tokio::sync::oneshot::channel::<()>();
    let signals = tokio::spawn(async move {
        shutdown_signal().await;
        eprintln!("arena: stopping: finishing the tables in flight (signal again to stop at once)");
        let _ = first_tx.send(());
        shutdown_signal().await;
        let _ = second_tx.send(());
    });
    let session = run_with_abandon(
        url,
        name,
        token,
        options,
        games.into(),
        async {
            let _ = first_rx.await;
        },
        async {
            if second_rx.await.is_err() {
                std::future::pending::<()>().await;
            }
        },
    )
    .await;
    signals.abort();
    session
}
