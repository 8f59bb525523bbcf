//! One stream to bot-host's bot port: [`Connection::open`] sends `Hello` with the bot's token,
//! [`Connection::next`] hands over what bot-host sends (a `Ping` is answered on the way), and
//! a [`Sender`] takes the answers and the `Drain`. What a failure means is the client retry
//! policy's ([`arena_proto::retry::bot_reconnects`]): a [`ConnectionError`] says whether
//! another attempt may help.
//!
//! [`run`](crate::run) plays [`Games`](crate::Games) on connections of this kind (reconnecting
//! and resuming); `arena load`'s simulated bots drive them directly.

use arena_proto::retry::bot_reconnects;
use arena_proto::v1;
use arena_proto::v1::bot_gateway_client::BotGatewayClient;
use arena_proto::v1::bot_to_host::Msg as Out;
use arena_proto::v1::host_to_bot::Msg as In;
use tokio::sync::mpsc::UnboundedSender;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tonic::transport::Channel;

/// Why a connection ended without bot-host closing it cleanly.
#[derive(Debug, thiserror::Error)]
pub enum ConnectionError {
    /// bot-host refused the bot in a way no other attempt can fix
    /// ([`bot_reconnects`] is false for `code`).
    #[error("refused {bot:?}: {code:?}: {message}")]
    Refused {
        /// The bot's name.
        bot: String,
        /// The refusal's status code.
        code: tonic::Code,
        /// bot-host's message.
        message: String,
    },
    /// The token cannot be sent as a header value.
    #[error("the token is not a valid header value")]
    BadToken,
    /// A transport error or a status another attempt may fix.
    #[error("{code:?}: {message}")]
    Lost {
        /// The status code (`UNKNOWN` or `UNAVAILABLE` for a transport error).
        code: tonic::Code,
        /// What happened.
        message: String,
    },
}

impl ConnectionError {
    /// Whether another attempt may succeed (after the client's backoff).
    pub fn reconnects(&self) -> bool {
        matches!(self, ConnectionError::Lost { .. })
    }

    fn of(bot: &str, s: tonic::Status) -> ConnectionError {
        if bot_reconnects(s.code()) {
            ConnectionError::Lost {
                code: s.code(),
                message: s.message().to_string(),
            }
        } else {
            ConnectionError::Refused {
                bot: bot.to_string(),
                code: s.code(),
                message: s.message().to_string(),
            }
        }
    }
}

/// The way to bot-host on one connection: cheap to clone, so an answer decided on another task
/// or thread goes out on the stream it was asked on.
#[derive(Clone, Debug)]
pub struct Sender(UnboundedSender<v1::BotToHost>);

impl Sender {
    /// A sender not tied to a stream, and what it queues: for tests of what is sent.
    #[cfg(test)]
    pub(crate) fn detached() -> (Sender, tokio::sync::mpsc::UnboundedReceiver<v1::BotToHost>) {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        (Sender(tx), rx)
    }

    /// Queues `msg`; false once the connection is gone.
    pub fn send(&self, msg: v1::BotToHost) -> bool {
        self.0.send(msg).is_ok()
    }

    /// Queues `Drain`: no new tables; bot-host ends the stream once those in flight ended.
    pub fn drain(&self) -> bool {
        self.send(v1::BotToHost {
            msg: Some(Out::Drain(v1::Drain {})),
        })
    }
}

/// The answer `action` to `request`, as it goes to bot-host.
pub fn reply(request: &v1::DecisionRequest, action: v1::Action) -> v1::BotToHost {
    v1::BotToHost {
        msg: Some(Out::Reply(v1::DecisionReply {
            request_id: request.request_id,
            table_id: request.table_id.clone(),
            action: Some(action),
        })),
    }
}

/// An open stream to bot-host's bot port.
pub struct Connection {
    bot: String,
    tx: Sender,
    inbound: tonic::Streaming<v1::HostToBot>,
}

impl Connection {
    /// Opens the bot stream on `client`, `hello` first, presenting `token`. Outgoing messages
    /// that are ready together leave in one write ([`arena_proto::coalesce`]).
    pub async fn open(
        client: &mut BotGatewayClient<Channel>,
        hello: v1::Hello,
        token: &str,
    ) -> Result<Connection, ConnectionError> {
        let bot = hello.bot.clone();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let tx = Sender(tx);
        tx.send(v1::BotToHost {
            msg: Some(Out::Hello(hello)),
        });
        let mut request = tonic::Request::new(arena_proto::coalesce::Coalesce::new(
            UnboundedReceiverStream::new(rx),
        ));
        let bearer = format!("Bearer {token}")
            .parse()
            .map_err(|_| ConnectionError::BadToken)?;
        request.metadata_mut().insert("authorization", bearer);
        match client.play(request).await {
            Ok(r) => Ok(Connection {
                bot,
                tx,
                inbound: r.into_inner(),
            }),
            Err(s) => Err(ConnectionError::of(&bot, s)),
        }
    }

    /// Where answers go.
    pub fn sender(&self) -> Sender {
        self.tx.clone()
    }

    /// The next message from bot-host (a `Ping` is answered with its `Pong` and not handed
    /// over); `Ok(None)` once bot-host ended the stream with OK. Cancel-safe.
    pub async fn next(&mut self) -> Result<Option<In>, ConnectionError> {
        loop {
            match self.inbound.message().await {
                Ok(None) => return Ok(None),
                Err(s) => return Err(ConnectionError::of(&self.bot, s)),
                Ok(Some(v1::HostToBot {
                    msg: Some(In::Ping(p)),
                })) => {
                    self.tx.send(v1::BotToHost {
                        msg: Some(Out::Pong(v1::Pong { nonce: p.nonce })),
                    });
                }
                Ok(Some(v1::HostToBot { msg: None })) => {}
                Ok(Some(v1::HostToBot { msg: Some(m) })) => return Ok(Some(m)),
            }
        }
    }
}
