//! A remote Dou Dizhu bot: one gRPC stream to bot-host, any number of tables at once.
//!
//! It never calls, never doubles, and plays the smallest listed move (passing only when it must,
//! or when following its partner). Every request carries the seat's full observation with its
//! legal actions, so the bot needs no rules engine.

use std::time::{Duration, Instant};

use arena_proto::v1::{
    self, bot_gateway_client::BotGatewayClient, bot_to_host::Msg as Out, host_to_bot::Msg as In,
};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::UnboundedReceiverStream;

/// The bot's decision for one request.
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

/// How a bot session plays.
#[derive(Clone, Debug)]
pub struct Options {
    /// The release reported in Hello (ratings are kept per release).
    pub release: String,
    /// Tables at once.
    pub capacity: u32,
    /// Stop after this many tables ended (0 = no limit).
    pub tables: u64,
    /// The decision for each request.
    pub choose: fn(&v1::DecisionRequest) -> v1::DdzAction,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            release: RELEASE.into(),
            capacity: 8,
            tables: 0,
            choose,
        }
    }
}

/// Connects to bot-host at `endpoint` as `bot` with `token` and plays until the stream ends or
/// `tables` tables have ended (0 = no limit).
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
        choose,
    } = options.clone();
    let mut client = BotGatewayClient::connect(endpoint.to_string()).await?;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tx.send(v1::BotToHost {
        msg: Some(Out::Hello(v1::Hello {
            bot: bot.into(),
            release,
            capacity,
            resume_session: String::new(),
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
                let action = v1::Action {
                    game: Some(v1::action::Game::Ddz(choose(&req))),
                };
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

/// Plays with reconnects: when the stream drops, waits `backoff` and connects again.
pub async fn play_forever(
    endpoint: &str,
    bot: &str,
    token: &str,
    capacity: u32,
    backoff: Duration,
) -> ! {
    loop {
        match play(endpoint, bot, token, capacity, 0).await {
            Ok(s) => eprintln!("stream ended after {} tables; reconnecting", s.tables),
            Err(e) => eprintln!("{e:#}; reconnecting"),
        }
        tokio::time::sleep(backoff).await;
    }
}
