//! A fake bot-host for tests: a `SeatHost` server on an ephemeral port whose bots behave as their
//! names say, and that records every message a referee sends it. It serves `Seat` streams only:
//! `Seats` answers `UNIMPLEMENTED`, as a bot-host from before it does, so a referee falls back to
//! a stream per seat (and the tests that use it see each seat's stream as its own).
//!
//! Bot names: `MODE[=ARG][@AFTER][*COUNT]`. The bot answers legally for its first AFTER decisions
//! (default 0), then behaves as MODE for COUNT decisions (default: the rest of the game), then
//! legally again. Modes:
//! - `legal`: a random legal action (seeded by table, seat and request id);
//! - `passive`: bid 0 and decline doubles (so auctions redeal), else a random legal action;
//! - `late=MS`: a legal action after sleeping MS milliseconds;
//! - `silent`: never answers;
//! - `illegal`: cards it does not hold, or a bid of 7;
//! - `garbage`: the play `3X`;
//! - `empty`: a reply without an action;
//! - `fault`: a `SeatFault` (crashed, "exit status 3");
//! - `hangup`: ends the stream;
//! - `refuse`: a `SeatFault` instead of `SeatReady` when the seat opens;
//! - `queued=MS`: `SeatReady` only after MS milliseconds, with a `SeatWaiting` every 50 ms
//!   meanwhile (as bot-host says while the bot is busy with other tables), then legal;
//! - `unready`: neither `SeatReady` nor anything else when the seat opens.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use arena_proto::payload;
use arena_proto::v1;
use arena_proto::v1::seat_host_server::{SeatHost, SeatHostServer};
use tokio::sync::mpsc;
use tokio_stream::wrappers::{ReceiverStream, TcpListenerStream};
use tonic::{Request, Response, Status, Streaming};

/// A message the host received on a seat stream.
#[derive(Clone, Debug)]
pub struct Received {
    /// Which stream it came on: numbered from 0 as they opened.
    pub stream: u64,
    /// The stream's table (from its SeatOpen).
    pub table_id: String,
    /// The stream's seat (from its SeatOpen).
    pub seat: u32,
    /// The message.
    pub msg: v1::RefereeToSeat,
    /// When the host read it.
    pub at: std::time::Instant,
}

#[derive(Clone, Debug, PartialEq)]
enum Mode {
    Legal,
    Passive,
    Late(u64),
    Silent,
    Illegal,
    Garbage,
    Empty,
    Fault,
    Hangup,
    Refuse,
    Queued(u64),
    Unready,
}

#[derive(Clone, Debug)]
struct Behaviour {
    mode: Mode,
    after: u32,
    count: u32,
}

impl Behaviour {
    fn parse(name: &str) -> Behaviour {
        let (rest, count) = match name.split_once('*') {
            Some((r, c)) => (r, c.parse().unwrap()),
            None => (name, u32::MAX),
        };
        let (rest, after) = match rest.split_once('@') {
            Some((r, a)) => (r, a.parse().unwrap()),
            None => (rest, 0),
        };
        let (mode, arg) = rest.split_once('=').unwrap_or((rest, ""));
        let mode = match mode {
            "legal" => Mode::Legal,
            "passive" => Mode::Passive,
            "late" => Mode::Late(arg.parse().unwrap()),
            "silent" => Mode::Silent,
            "illegal" => Mode::Illegal,
            "garbage" => Mode::Garbage,
            "empty" => Mode::Empty,
            "fault" => Mode::Fault,
            "hangup" => Mode::Hangup,
            "refuse" => Mode::Refuse,
            "queued" => Mode::Queued(arg.parse().unwrap()),
            "unready" => Mode::Unready,
            other => panic!("unknown fake bot mode {other:?}"),
        };
        Behaviour { mode, after, count }
    }

    /// The mode for the `n`th decision (0-based).
    fn mode_at(&self, n: u32) -> Mode {
        if n >= self.after && n - self.after < self.count {
            self.mode.clone()
        } else {
            Mode::Legal
        }
    }
}

/// The fake bot-host.
#[derive(Clone, Default)]
pub struct FakeHost {
    log: Arc<Mutex<Vec<Received>>>,
    streams: Arc<std::sync::atomic::AtomicU64>,
    /// Says `SeatReady.incremental_observations`, and makes the requests whole before its bots
    /// read them (the log keeps them as they came).
    incremental: bool,
}

impl FakeHost {
    /// Everything received so far.
    pub fn received(&self) -> Vec<Received> {
        self.log.lock().unwrap().clone()
    }

    /// The bots seated so far, in the order their seats were opened.
    pub fn seated(&self) -> Vec<String> {
        self.received()
            .into_iter()
            .filter_map(|r| match r.msg.msg {
                Some(v1::referee_to_seat::Msg::Open(o)) => Some(o.bot),
                _ => None,
            })
            .collect()
    }

    /// Starts the host on an ephemeral port; returns it and its address.
    pub async fn start() -> (FakeHost, SocketAddr) {
        FakeHost::default().serve().await
    }

    /// Starts a host that takes incremental observations on its seat streams.
    pub async fn start_incremental() -> (FakeHost, SocketAddr) {
        FakeHost {
            incremental: true,
            ..FakeHost::default()
        }
        .serve()
        .await
    }

    async fn serve(self) -> (FakeHost, SocketAddr) {
        let host = self;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let svc = SeatHostServer::new(host.clone());
        tokio::spawn(async move {
            tonic::transport::Server::builder()
                .tcp_nodelay(true)
                .add_service(svc)
                .serve_with_incoming(TcpListenerStream::new(listener))
                .await
                .unwrap();
        });
        (host, addr)
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The Dou Dizhu observation of a request.
fn observation(r: &v1::DecisionRequest) -> ddz_pb::Observation {
    payload::unpack(
        r.observation.as_ref().and_then(|o| o.game.as_ref()),
        "observation",
    )
    .expect("a Dou Dizhu observation")
}

/// The legal answers a request lists, of either game. The fake host answers in Dou Dizhu's
/// terms only, so at a Mahjong table its answers are malformed: a verdict at its first
/// decision, then its seat plays on automatically.
fn legal_of(r: &v1::DecisionRequest) -> Vec<String> {
    let game = r.observation.as_ref().and_then(|o| o.game.as_ref());
    match payload::unpack::<ddz_pb::Observation>(game, "observation") {
        Ok(o) => o.legal,
        Err(_) => payload::unpack::<mahjong_pb::Observation>(game, "observation")
            .map(|o| o.legal)
            .unwrap_or_default(),
    }
}

fn action_for(kind: v1::DecisionKind, text: &str) -> v1::Action {
    use ddz_pb::action::Action as A;
    let a = match kind {
        v1::DecisionKind::Bid => A::Bid(text.parse().unwrap()),
        v1::DecisionKind::Double | v1::DecisionKind::Redouble => A::Double(text == "1"),
        _ => A::Play(text.to_string()),
    };
    v1::Action {
        game: Some(payload::pack(&ddz_pb::Action { action: Some(a) })),
    }
}

fn legal_answer(r: &v1::DecisionRequest, passive: bool) -> v1::Action {
    let kind = r.kind();
    let legal = legal_of(r);
    let pick = if passive && kind != v1::DecisionKind::Play {
        "0".to_string()
    } else {
        let h = splitmix(
            r.request_id
                ^ splitmix(r.seat as u64)
                ^ splitmix(
                    r.table_id.len() as u64 * 7919 + r.table_id.bytes().map(u64::from).sum::<u64>(),
                ),
        );
        legal[(h % legal.len() as u64) as usize].clone()
    };
    action_for(kind, &pick)
}

fn illegal_answer(r: &v1::DecisionRequest) -> v1::Action {
    let o = observation(r);
    match r.kind() {
        v1::DecisionKind::Bid => action_for(v1::DecisionKind::Bid, "7"),
        v1::DecisionKind::Play => {
            let hand: ddz::CardSet = o.hand.parse().unwrap();
            let rank = ddz::Rank::ALL
                .into_iter()
                .find(|r| hand.count(*r) < r.copies())
                .unwrap();
            let cards = ddz::CardSet::of(rank, hand.count(rank) + 1).unwrap();
            action_for(v1::DecisionKind::Play, &cards.to_string())
        }
        _ => action_for(v1::DecisionKind::Play, "pass"),
    }
}

#[tonic::async_trait]
impl SeatHost for FakeHost {
    type SeatStream = ReceiverStream<Result<v1::SeatToReferee, Status>>;
    type SeatsStream = ReceiverStream<Result<v1::SeatsToReferee, Status>>;

    async fn seats(
        &self,
        _: Request<Streaming<v1::RefereeToSeats>>,
    ) -> Result<Response<Self::SeatsStream>, Status> {
        Err(arena_serve::ApiError::Unimplemented(
            "the fake bot-host serves Seat streams only".into(),
        )
        .into())
    }

    async fn seat(
        &self,
        request: Request<Streaming<v1::RefereeToSeat>>,
    ) -> Result<Response<Self::SeatStream>, Status> {
        let mut inbound = request.into_inner();
        let (tx, rx) = mpsc::channel(64);
        let log = self.log.clone();
        let stream = self
            .streams
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let incremental = self.incremental;
        tokio::spawn(async move {
            let open = match inbound.message().await {
                Ok(Some(m)) => m,
                _ => return,
            };
            let Some(v1::referee_to_seat::Msg::Open(o)) = open.msg.clone() else {
                panic!("the first message on a seat stream must be SeatOpen, got {open:?}");
            };
            let (table_id, seat) = (o.table_id.clone(), o.seat);
            log.lock().unwrap().push(Received {
                stream,
                table_id: table_id.clone(),
                seat,
                msg: open,
                at: std::time::Instant::now(),
            });
            let behaviour = Behaviour::parse(&o.bot);
            let send = |m: v1::seat_to_referee::Msg| {
                let tx = tx.clone();
                async move {
                    let _ = tx.send(Ok(v1::SeatToReferee { msg: Some(m) })).await;
                }
            };
            if behaviour.mode == Mode::Refuse {
                send(v1::seat_to_referee::Msg::Fault(v1::SeatFault {
                    kind: v1::VerdictKind::Crashed as i32,
                    reason: "the bot program could not be started: no such file".into(),
                    platform: false,
                }))
                .await;
                return;
            }
            match behaviour.mode {
                Mode::Unready => {
                    // Holds the stream open, saying nothing, until the referee ends it.
                    while let Ok(Some(_)) = inbound.message().await {}
                    return;
                }
                Mode::Queued(ms) => {
                    let until = tokio::time::Instant::now() + Duration::from_millis(ms);
                    while tokio::time::Instant::now() < until {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        send(v1::seat_to_referee::Msg::Waiting(v1::SeatWaiting {
                            reason: "a free slot of the bot".into(),
                        }))
                        .await;
                    }
                }
                _ => {}
            }
            send(v1::seat_to_referee::Msg::Ready(v1::SeatReady {
                bot: o.bot.clone(),
                release: "test".into(),
                host: "fake".into(),
                incremental_observations: incremental,
            }))
            .await;
            let mut n = 0u32;
            let mut history = arena_proto::incremental::SeatEvents::default();
            while let Ok(Some(m)) = inbound.message().await {
                log.lock().unwrap().push(Received {
                    stream,
                    table_id: table_id.clone(),
                    seat,
                    msg: m.clone(),
                    at: std::time::Instant::now(),
                });
                let r = match m.msg {
                    Some(v1::referee_to_seat::Msg::Request(mut r)) => {
                        if let Err(e) = history.rebuild(&mut r) {
                            panic!("request {} on stream {stream}: {e}", r.request_id);
                        }
                        r
                    }
                    Some(v1::referee_to_seat::Msg::Close(_)) => continue,
                    _ => panic!("unexpected message {m:?}"),
                };
                let mode = behaviour.mode_at(n);
                n += 1;
                let reply = |action: Option<v1::Action>| {
                    v1::seat_to_referee::Msg::Reply(v1::DecisionReply {
                        request_id: r.request_id,
                        table_id: r.table_id.clone(),
                        action,
                    })
                };
                match mode {
                    Mode::Legal | Mode::Queued(_) => {
                        send(reply(Some(legal_answer(&r, false)))).await
                    }
                    Mode::Passive => send(reply(Some(legal_answer(&r, true)))).await,
                    Mode::Late(ms) => {
                        let msg = reply(Some(legal_answer(&r, false)));
                        let tx = tx.clone();
                        tokio::spawn(async move {
                            tokio::time::sleep(Duration::from_millis(ms)).await;
                            let _ = tx.send(Ok(v1::SeatToReferee { msg: Some(msg) })).await;
                        });
                    }
                    Mode::Silent => {}
                    Mode::Illegal => send(reply(Some(illegal_answer(&r)))).await,
                    Mode::Garbage => {
                        send(reply(Some(action_for(v1::DecisionKind::Play, "3X")))).await
                    }
                    Mode::Empty => send(reply(None)).await,
                    Mode::Fault => {
                        send(v1::seat_to_referee::Msg::Fault(v1::SeatFault {
                            kind: v1::VerdictKind::Crashed as i32,
                            reason: "the bot program exited with status 3".into(),
                            platform: false,
                        }))
                        .await
                    }
                    Mode::Hangup => return,
                    Mode::Refuse | Mode::Unready => unreachable!(),
                }
            }
        });
        Ok(Response::new(ReceiverStream::new(rx)))
    }
}
