//! A bot-host on an ephemeral loopback port with an embedded store, and the clients the tests
//! play: remote bots (`BotGateway.Play`) and referees (`SeatHost.Seat`).

#![allow(dead_code)] // Each test binary uses part of this.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use arena_auth::token::issue_token;
use arena_bot_host::{BotHost, BotHostConfig, BotHostError};
use arena_games::ddz::convert::{DdzDecision, ddz_action, ddz_decision, ddz_observation};
use arena_proto::v1;
use arena_proto::v1::bot_gateway_client::BotGatewayClient;
use arena_proto::v1::seat_host_client::SeatHostClient;
use arena_store::prelude::*;
use arena_store::{BotKind, BotRecord, EmbeddedStore};
use ddz::{Action, DealConstraint, Game, GameConfig, Move, MoveList, Phase, Seat};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, Request, Status, Streaming};

/// How long any single wait in a test may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(20);

/// Waits for `f`, failing the test after [`WAIT`].
pub async fn within<T>(what: &str, f: impl Future<Output = T>) -> T {
    match tokio::time::timeout(WAIT, f).await {
        Ok(v) => v,
        Err(_) => panic!("timed out waiting for {what}"),
    }
}

/// A running bot-host.
pub struct Host {
    pub addr: std::net::SocketAddr,
    pub seat_addr: std::net::SocketAddr,
    pub cluster_token: String,
    pub advertised: String,
    pub store: Arc<EmbeddedStore>,
    /// True if the bot port serves TLS: [`Host::url`] is then `https://`.
    pub tls: bool,
    /// The TLS settings bots connect to the bot port with ([`play`]); set them for a TLS host.
    pub client_tls: Option<tonic::transport::ClientTlsConfig>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<Result<(), BotHostError>>>,
    _dir: Option<tempfile::TempDir>,
}

/// A configuration with short timers, for tests.
pub fn fast_config() -> BotHostConfig {
    BotHostConfig {
        grace: Duration::from_secs(3),
        keepalive: Duration::from_millis(500),
        missed_keepalives: 4,
        presence_ttl: Duration::from_millis(900),
        shutdown_grace: Duration::from_secs(2),
        ..BotHostConfig::loopback()
    }
}

impl Host {
    /// Starts bot-host with `config` (its listen address is replaced by 127.0.0.1:0).
    pub async fn start(config: BotHostConfig) -> Host {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let store = Arc::new(EmbeddedStore::open(dir.path()).expect("an embedded store"));
        Host::start_with(config, store, Some(dir)).await
    }

    /// Starts a second bot-host on `other`'s store (a cluster of two).
    pub async fn start_sharing(config: BotHostConfig, other: &Host) -> Host {
        Host::start_with(config, Arc::clone(&other.store), None).await
    }

    async fn start_with(
        config: BotHostConfig,
        store: Arc<EmbeddedStore>,
        dir: Option<tempfile::TempDir>,
    ) -> Host {
        let loopback = BotHostConfig::loopback();
        let config = BotHostConfig {
            listen: loopback.listen,
            seat_listen: loopback.seat_listen,
            ..config
        };
        let cluster_token = config
            .cluster_token
            .as_ref()
            .expect("the test configuration has a cluster token")
            .expose()
            .to_string();
        let host = BotHost::bind(config, Arc::clone(&store) as Arc<dyn Store>)
            .await
            .expect("bot-host binds");
        let addr = host.local_addr();
        let seat_addr = host.seat_addr();
        let advertised = host.advertised().to_string();
        let tls = host.bot_tls();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(host.run(async move {
            let _ = stopped.await;
        }));
        Host {
            addr,
            seat_addr,
            cluster_token,
            advertised,
            store,
            tls,
            client_tls: None,
            stop: Some(stop),
            task: Some(task),
            _dir: dir,
        }
    }

    /// The bot port.
    pub fn url(&self) -> String {
        let scheme = if self.tls { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    /// A client of the bot port, over TLS with [`Host::client_tls`] if set; `Err` if it cannot
    /// connect (e.g. the TLS handshake fails).
    pub async fn bot_client(
        &self,
    ) -> Result<BotGatewayClient<tonic::transport::Channel>, tonic::transport::Error> {
        let mut endpoint =
            tonic::transport::Endpoint::from_shared(self.url()).expect("the bot port's URL");
        if let Some(tls) = &self.client_tls {
            endpoint = endpoint.tls_config(tls.clone())?;
        }
        Ok(BotGatewayClient::new(endpoint.connect().await?))
    }

    /// The seat port.
    pub fn seat_url(&self) -> String {
        format!("http://{}", self.seat_addr)
    }

    /// Stops the server at once, as a crash would: no drain, presence records left behind.
    pub fn kill(&mut self) {
        self.stop.take();
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }

    /// Starts the shutdown; [`Host::stopped`] waits for its end.
    pub fn begin_shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Waits for the server to stop; its result.
    pub async fn stopped(&mut self) -> Result<(), BotHostError> {
        let task = self.task.take().expect("the server task");
        within("bot-host to stop", task)
            .await
            .expect("the server task did not panic")
    }

    /// Registers a remote bot; its token.
    pub async fn add_remote(&self, name: &str, max_tables: u32) -> String {
        let (token, hash) = issue_token().expect("a token");
        let added = self
            .store
            .add_bot(&BotRecord {
                name: name.into(),
                kind: BotKind::Remote,
                token_sha256: Some(hash),
                max_tables,
                created_unix_ms: 1,
                decision_ms: 0,
                later_decision_ms: 0,
            })
            .await
            .expect("the store adds the bot");
        assert!(added, "{name} was already registered");
        token
    }

    /// Registers a program bot.
    pub async fn add_program(
        &self,
        name: &str,
        command: String,
        workdir: Option<String>,
        cpu_seconds: u32,
        max_tables: u32,
    ) {
        self.add_limited_program(name, command, workdir, cpu_seconds, 0, max_tables)
            .await;
    }

    /// Registers a program bot with a memory limit too.
    pub async fn add_limited_program(
        &self,
        name: &str,
        command: String,
        workdir: Option<String>,
        cpu_seconds: u32,
        memory_mb: u32,
        max_tables: u32,
    ) {
        self.add_program_of(
            arena_store::Game::named("ddz"),
            name,
            command,
            workdir,
            cpu_seconds,
            memory_mb,
            max_tables,
        )
        .await;
    }

    /// Registers a program bot playing `game`, with no limits of its own.
    pub async fn add_game_program(&self, game: arena_store::Game, name: &str, command: String) {
        self.add_program_of(game, name, command, None, 0, 0, 0)
            .await;
    }

    /// Registers a program bot playing `game` with its own working directory and limits.
    #[allow(clippy::too_many_arguments)]
    pub async fn add_program_of(
        &self,
        game: arena_store::Game,
        name: &str,
        command: String,
        workdir: Option<String>,
        cpu_seconds: u32,
        memory_mb: u32,
        max_tables: u32,
    ) {
        let added = self
            .store
            .add_bot(&BotRecord {
                name: name.into(),
                kind: BotKind::Program {
                    game,
                    command,
                    workdir,
                    cpu_seconds,
                    memory_mb,
                },
                token_sha256: None,
                max_tables,
                created_unix_ms: 1,
                decision_ms: 0,
                later_decision_ms: 0,
            })
            .await
            .expect("the store adds the bot");
        assert!(added);
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.begin_shutdown();
    }
}

/// A remote bot's connection.
pub struct BotConn {
    pub tx: mpsc::Sender<v1::BotToHost>,
    pub rx: Streaming<v1::HostToBot>,
}

/// Calls `BotGateway.Play` with `token` (if any); the messages to send first are queued before
/// the call. `Err` when the call itself is refused.
pub async fn play(
    host: &Host,
    token: Option<&str>,
    first: Vec<v1::BotToHost>,
) -> Result<BotConn, Status> {
    let mut client = host.bot_client().await.expect("connects");
    let (tx, rx) = mpsc::channel(64);
    for m in first {
        tx.send(m).await.expect("queued");
    }
    let mut req = Request::new(ReceiverStream::new(rx));
    if let Some(t) = token {
        req.metadata_mut().insert(
            "authorization",
            format!("Bearer {t}").parse().expect("ascii"),
        );
    }
    let rx = client.play(req).await?.into_inner();
    Ok(BotConn { tx, rx })
}

pub fn hello(bot: &str, capacity: u32, resume: &str) -> v1::BotToHost {
    hello_listing(bot, capacity, resume, &[])
}

/// A `Hello` whose `games` holds `games` (wire names, so tests can send names that are no
/// game).
pub fn hello_listing(bot: &str, capacity: u32, resume: &str, games: &[String]) -> v1::BotToHost {
    v1::BotToHost {
        msg: Some(v1::bot_to_host::Msg::Hello(v1::Hello {
            bot: bot.into(),
            release: "2026.1".into(),
            capacity,
            resume_session: resume.into(),
            games: games.to_vec(),
            incremental_observations: false,
        })),
    }
}

/// The status a refused connection ends with: the call's, or the stream's first.
pub async fn refusal(host: &Host, token: Option<&str>, first: Vec<v1::BotToHost>) -> Status {
    match play(host, token, first).await {
        Err(s) => s,
        Ok(mut c) => match within("the refusal", c.rx.message()).await {
            Err(s) => s,
            Ok(m) => panic!("expected a refusal, got {m:?}"),
        },
    }
}

/// Connects `bot` and reads its `Welcome`.
pub async fn connect(
    host: &Host,
    token: &str,
    bot: &str,
    capacity: u32,
    resume: &str,
) -> (BotConn, v1::Welcome) {
    connect_listing(host, token, bot, capacity, resume, &[]).await
}

/// Connects `bot` saying it plays `games`, and reads its `Welcome`.
pub async fn connect_listing(
    host: &Host,
    token: &str,
    bot: &str,
    capacity: u32,
    resume: &str,
    games: &[&str],
) -> (BotConn, v1::Welcome) {
    let games: Vec<String> = games.iter().map(|g| g.to_string()).collect();
    let first = hello_listing(bot, capacity, resume, &games);
    let mut c = play(host, Some(token), vec![first])
        .await
        .expect("the call is accepted");
    let msg = next_to_bot(&mut c.rx).await;
    let Some(v1::host_to_bot::Msg::Welcome(w)) = msg else {
        panic!("expected a welcome, got {msg:?}");
    };
    (c, w)
}

/// The next message to a bot, skipping pings (which are answered by nobody here). `None` when
/// the stream ended; panics on an error status.
pub async fn next_to_bot(rx: &mut Streaming<v1::HostToBot>) -> Option<v1::host_to_bot::Msg> {
    loop {
        match within("a message to the bot", rx.message()).await {
            Ok(Some(v1::HostToBot {
                msg: Some(v1::host_to_bot::Msg::Ping(_)),
            })) => continue,
            Ok(Some(m)) => return m.msg,
            Ok(None) => return None,
            Err(s) => panic!("the bot's stream failed: {s:?}"),
        }
    }
}

/// The first listed legal choice of a request, as an action.
pub fn first_legal(req: &v1::DecisionRequest) -> v1::Action {
    let o = arena_games::ddz::convert::observation_of(
        req.observation.as_ref().expect("an observation"),
    )
    .expect("a Dou Dizhu request");
    let first = o.legal.first().cloned().unwrap_or_else(|| "pass".into());
    let d = match v1::DecisionKind::try_from(req.kind) {
        Ok(v1::DecisionKind::Bid) => DdzDecision::Bid(first.parse().expect("a bid")),
        Ok(v1::DecisionKind::Double | v1::DecisionKind::Redouble) => {
            DdzDecision::Double(first == "1")
        }
        _ => {
            return v1::Action {
                game: Some(arena_proto::payload::pack(&ddz_pb::Action {
                    action: Some(ddz_pb::action::Action::Play(first)),
                })),
            };
        }
    };
    ddz_action(d)
}

/// The answer to `req`: for Dou Dizhu its first legal choice; for Mahjong what the built-in
/// `greedy` bot answers from the request.
pub fn reply_to(req: &v1::DecisionRequest) -> v1::BotToHost {
    let action = match req.game.as_str() {
        "mahjong" => arena_games::mahjong::GAME
            .builtin("greedy")
            .and_then(Result::ok)
            .and_then(|spec| spec.request_bot(req.request_id))
            .and_then(|mut bot| bot.decide(req).ok()),
        _ => Some(first_legal(req)),
    };
    v1::BotToHost {
        msg: Some(v1::bot_to_host::Msg::Reply(v1::DecisionReply {
            request_id: req.request_id,
            table_id: req.table_id.clone(),
            action,
        })),
    }
}

/// A remote bot played by a task; dropping it (or [`RunningBot::disconnect`]) drops its
/// connection.
pub struct RunningBot {
    /// Every message the bot got, apart from pings.
    pub seen: mpsc::UnboundedReceiver<v1::host_to_bot::Msg>,
    task: JoinHandle<()>,
}

impl RunningBot {
    /// The next message the bot got.
    pub async fn recv(&mut self) -> Option<v1::host_to_bot::Msg> {
        within("a message to the bot", self.seen.recv()).await
    }

    /// Drops the connection.
    pub fn disconnect(&self) {
        self.task.abort();
    }
}

impl Drop for RunningBot {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Plays as a remote bot until its stream ends: answers every request (and every resumed one)
/// with its first legal choice, answers pings, and reports every other message.
pub fn spawn_bot(conn: BotConn, resumed: Vec<v1::DecisionRequest>) -> RunningBot {
    let (seen_tx, seen) = mpsc::unbounded_channel();
    let BotConn { tx, mut rx } = conn;
    let task = tokio::spawn(async move {
        for r in &resumed {
            if tx.send(reply_to(r)).await.is_err() {
                return;
            }
        }
        while let Ok(Some(m)) = rx.message().await {
            let Some(msg) = m.msg else { continue };
            let answer = match &msg {
                v1::host_to_bot::Msg::Ping(p) => v1::BotToHost {
                    msg: Some(v1::bot_to_host::Msg::Pong(v1::Pong { nonce: p.nonce })),
                },
                v1::host_to_bot::Msg::Request(r) => reply_to(r),
                _ => {
                    let _ = seen_tx.send(msg);
                    continue;
                }
            };
            if tx.send(answer).await.is_err() {
                return;
            }
            if matches!(msg, v1::host_to_bot::Msg::Ping(_)) {
                continue;
            }
            let _ = seen_tx.send(msg);
        }
    });
    RunningBot { seen, task }
}

/// A referee's seat stream.
pub struct SeatConn {
    pub tx: mpsc::Sender<v1::RefereeToSeat>,
    pub rx: Streaming<v1::SeatToReferee>,
    pub table_id: String,
    pub seat: u32,
}

pub fn open_msg(table_id: &str, seat: u32, bot: &str) -> v1::RefereeToSeat {
    open_game_msg("ddz", table_id, seat, bot)
}

/// The open message of seat `seat` of a `game` table.
pub fn open_game_msg(game: &str, table_id: &str, seat: u32, bot: &str) -> v1::RefereeToSeat {
    v1::RefereeToSeat {
        msg: Some(v1::referee_to_seat::Msg::Open(v1::SeatOpen {
            table_id: table_id.into(),
            seat,
            bot: bot.into(),
            game: game.into(),
            time: Some(v1::TimeControl {
                decision_ms: 1000,
                hard_cap_ms: 5000,
                ..Default::default()
            }),
        })),
    }
}

/// Opens a seat stream sending `first` (normally an open message) with W3C trace context.
pub async fn seat_stream(host: &Host, first: Vec<v1::RefereeToSeat>) -> Result<SeatConn, Status> {
    let mut client = SeatHostClient::connect(host.seat_url())
        .await
        .expect("connects");
    let (tx, rx) = mpsc::channel(64);
    let (mut table_id, mut seat) = (String::new(), 0);
    for m in first {
        if let Some(v1::referee_to_seat::Msg::Open(o)) = &m.msg {
            table_id.clone_from(&o.table_id);
            seat = o.seat;
        }
        tx.send(m).await.expect("queued");
    }
    let mut req = Request::new(ReceiverStream::new(rx));
    req.metadata_mut().insert(
        "traceparent",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            .parse()
            .expect("ascii"),
    );
    req.metadata_mut().insert(
        "authorization",
        format!("Bearer {}", host.cluster_token)
            .parse()
            .expect("ascii"),
    );
    let rx = client.seat(req).await?.into_inner();
    Ok(SeatConn {
        tx,
        rx,
        table_id,
        seat,
    })
}

/// Opens a seat of `table_id` for `bot`.
pub async fn open_seat(host: &Host, table_id: &str, seat: u32, bot: &str) -> SeatConn {
    seat_stream(host, vec![open_msg(table_id, seat, bot)])
        .await
        .expect("the seat call is accepted")
}

/// Opens seat `seat` of `game` table `table_id` for `bot`.
pub async fn open_game_seat(
    host: &Host,
    game: &str,
    table_id: &str,
    seat: u32,
    bot: &str,
) -> SeatConn {
    seat_stream(host, vec![open_game_msg(game, table_id, seat, bot)])
        .await
        .expect("the seat call is accepted")
}

impl SeatConn {
    /// The next message from bot-host but `SeatWaiting` (which comes every keepalive interval
    /// while a seat waits, and says only that); `None` when the stream ended; panics on an
    /// error status.
    pub async fn next(&mut self) -> Option<v1::seat_to_referee::Msg> {
        loop {
            match self.next_any().await {
                Some(v1::seat_to_referee::Msg::Waiting(_)) => continue,
                m => return m,
            }
        }
    }

    /// The next message from bot-host, whatever it is.
    pub async fn next_any(&mut self) -> Option<v1::seat_to_referee::Msg> {
        match within("a message from the seat", self.rx.message()).await {
            Ok(Some(m)) => m.msg,
            Ok(None) => None,
            Err(s) => panic!("the seat stream failed: {s:?}"),
        }
    }

    /// Expects `SeatWaiting`.
    pub async fn waiting(&mut self) -> v1::SeatWaiting {
        match self.next_any().await {
            Some(v1::seat_to_referee::Msg::Waiting(w)) => w,
            other => panic!("expected SeatWaiting, got {other:?}"),
        }
    }

    /// The status the stream ends with (panics if it ends OK or sends a message first).
    pub async fn error(&mut self) -> Status {
        match within("the seat's error", self.rx.message()).await {
            Err(s) => s,
            Ok(m) => panic!("expected an error status, got {m:?}"),
        }
    }

    /// Expects `SeatReady`.
    pub async fn ready(&mut self) -> v1::SeatReady {
        match self.next().await {
            Some(v1::seat_to_referee::Msg::Ready(r)) => r,
            other => panic!("expected SeatReady, got {other:?}"),
        }
    }

    /// Expects `SeatFault`.
    pub async fn fault(&mut self) -> v1::SeatFault {
        match self.next().await {
            Some(v1::seat_to_referee::Msg::Fault(f)) => f,
            other => panic!("expected SeatFault, got {other:?}"),
        }
    }

    pub async fn send(&self, msg: v1::referee_to_seat::Msg) {
        self.tx
            .send(v1::RefereeToSeat { msg: Some(msg) })
            .await
            .expect("the seat stream is open");
    }

    /// Closes the table.
    pub async fn close(&self, outcome: Option<v1::Outcome>) {
        self.send(v1::referee_to_seat::Msg::Close(v1::SeatClose {
            table_id: self.table_id.clone(),
            outcome,
            verdicts: vec![],
        }))
        .await;
    }

    /// Expects the stream to end cleanly.
    pub async fn ended(&mut self) {
        let m = self.next().await;
        assert!(m.is_none(), "expected the end of the stream, got {m:?}");
    }
}

/// The decision kind the seat to act is asked for.
pub fn kind_of(game: &Game) -> v1::DecisionKind {
    let seat = game.to_act().expect("a seat to act");
    let obs = game.observation(seat);
    match obs.phase {
        Phase::Bidding => v1::DecisionKind::Bid,
        Phase::Doubling if obs.landlord == Some(seat) => v1::DecisionKind::Redouble,
        Phase::Doubling => v1::DecisionKind::Double,
        _ => v1::DecisionKind::Play,
    }
}

/// The request for the seat to act, with its legal choices listed.
pub fn request_for(game: &Game, table_id: &str, request_id: u64) -> v1::DecisionRequest {
    let seat = game.to_act().expect("a seat to act");
    let obs = game.observation(seat);
    let kind = kind_of(game);
    let legal: Vec<String> = match kind {
        v1::DecisionKind::Bid => std::iter::once(0)
            .chain(obs.bid + 1..=3)
            .map(|b| b.to_string())
            .collect(),
        v1::DecisionKind::Double | v1::DecisionKind::Redouble => vec!["0".into(), "1".into()],
        _ => {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            moves
                .iter()
                .map(|m| {
                    if m.is_pass() {
                        "pass".to_string()
                    } else {
                        m.to_string()
                    }
                })
                .collect()
        }
    };
    v1::DecisionRequest {
        request_id,
        table_id: table_id.into(),
        seat: seat.index() as u32,
        game: "ddz".into(),
        kind: kind as i32,
        deadline_ms: 1000,
        observation: Some(ddz_observation(&obs, "competition", legal)),
    }
}

/// The game action an answer stands for (panics on a malformed or illegal one).
pub fn to_action(game: &Game, action: &v1::Action) -> Action {
    match ddz_decision(action).expect("a well-formed decision") {
        DdzDecision::Bid(b) => Action::Bid(u8::try_from(b).expect("a small bid")),
        DdzDecision::Double(d) => Action::Double(d),
        DdzDecision::Play(cards) if cards.is_empty() => Action::Play(Move::PASS),
        DdzDecision::Play(cards) => {
            Action::Play(game.config().rules.classify(cards).expect("a combination"))
        }
    }
}

/// Plays a whole competition game of seed `seed` as the referee: seats with a stream in
/// `seats` are asked over it, the others take their first legal action. Every answer must be
/// legal. Returns the finished game and how many requests went over streams.
pub async fn referee_game(seed: u64, seats: &mut [Option<&mut SeatConn>; 3]) -> (Game, u64) {
    let mut game =
        Game::from_seed(GameConfig::competition(), seed, DealConstraint::NONE).expect("a game");
    let mut next_id = 0u64;
    let mut asked = 0;
    while let Some(seat) = game.to_act() {
        next_id += 1;
        let action = match seats[seat.index()].as_mut() {
            Some(conn) => {
                let req = request_for(&game, &conn.table_id, next_id);
                conn.send(v1::referee_to_seat::Msg::Request(req)).await;
                asked += 1;
                let reply = match conn.next().await {
                    Some(v1::seat_to_referee::Msg::Reply(r)) if r.request_id == next_id => r,
                    other => panic!("expected the reply to request {next_id}, got {other:?}"),
                };
                assert_eq!(reply.table_id, conn.table_id);
                to_action(&game, reply.action.as_ref().expect("an action"))
            }
            None => local_choice(&game, seat),
        };
        game.apply(action).expect("every answer is legal");
    }
    (game, asked)
}

fn local_choice(game: &Game, seat: Seat) -> Action {
    let obs = game.observation(seat);
    match obs.phase {
        Phase::Bidding => Action::Bid(if obs.bid == 0 { 1 } else { 0 }),
        Phase::Doubling => Action::Double(false),
        _ => {
            let mut moves = MoveList::new();
            game.legal_moves(&mut moves);
            Action::Play(moves[0])
        }
    }
}

/// The outcome message of a finished game.
pub fn outcome_of(game: &Game) -> v1::Outcome {
    arena_games::ddz::convert::ddz_outcome(
        game.outcome().expect("a finished game"),
        ddz::Scoring::Competition,
    )
}

/// Asserts a status's code and that its message mentions `needle`.
pub fn assert_status(s: &Status, code: Code, needle: &str) {
    assert_eq!(s.code(), code, "{s:?}");
    assert!(
        s.message().contains(needle),
        "{needle:?} not in {:?}",
        s.message()
    );
}

/// The job of Mahjong hand `table_id`: the wall of `seed`, `seats` (bots bot-host seats, or
/// built-in names the referee runs itself), the contest's clock (1 s a turn, 0.5 s a claim)
/// with a hard cap of 5 s, and play on after a verdict.
pub fn mahjong_job(table_id: &str, seats: [&str; 4], seed: u64) -> v1::TableJob {
    let deal = mahjong::Deal::from_seed(seed);
    v1::TableJob {
        table_id: table_id.into(),
        game: "mahjong".into(),
        seats: seats.map(|b| v1::SeatSpec { bot: b.into() }).to_vec(),
        setup: Some(arena_proto::payload::pack(
            &arena_games::mahjong::spec::setup_of(&deal, mahjong::Reading::default()),
        )),
        time: Some(v1::TimeControl {
            decision_ms: 1000,
            claim_ms: 500,
            hard_cap_ms: 5000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed,
        ..Default::default()
    }
}

/// Plays `job` as table-referee plays it, its remote seats opened on `host`: its result and
/// replay.
pub async fn referee_job(host: &Host, job: &v1::TableJob) -> (v1::TableResult, v1::Replay) {
    let opts = arena_table::RunOptions {
        seat_token: Some(arena_auth::Secret::new(host.cluster_token.clone())),
        ..Default::default()
    };
    let hosts = arena_table::BotHosts::new(&[host.seat_url()]).expect("the seat port's URL");
    within(
        &format!("table {}", job.table_id),
        arena_games::run_table(job, &opts, &hosts),
    )
    .await
    .expect("a valid job")
}

/// Hand `seed` of Mahjong refereed as table-referee referees it, with `bot` (seated through
/// `host`) in seat 0 and built-in bots in the referee in the others: its result and replay.
pub async fn mahjong_hand(host: &Host, bot: &str, seed: u64) -> (v1::TableResult, v1::Replay) {
    let job = mahjong_job(
        &format!("mj-{bot}-{seed}"),
        [bot, "greedy", "expert", "random"],
        seed,
    );
    referee_job(host, &job).await
}

/// True once the process is gone (or a zombie nobody waits for).
pub fn process_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
    }
}

/// A working directory for a program bot: a fresh one the sandboxed program (which runs as
/// `nobody` when the tests run as root) may write its log in.
pub fn program_dir() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    dir
}

/// The living processes working in `dir`. A sandboxed program numbers its processes in a PID
/// namespace of its own, so the pids it logs mean nothing here; its working directory does.
pub fn processes_in(dir: &Path) -> Vec<u32> {
    let dir = dir.canonicalize().unwrap();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd == dir)
                && !process_gone(pid)
        })
        .collect()
}

/// Waits until no process works in `dir`.
pub async fn wait_none_in(dir: &Path) {
    within(
        &format!("the processes in {} to end", dir.display()),
        async {
            while !processes_in(dir).is_empty() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        },
    )
    .await;
}
