//! `BotGateway.Play`: the stream a remote bot plays all its tables on.
//!
//! The call must carry `authorization: Bearer <token>`; a call without it is refused at once
//! with `UNAUTHENTICATED`. Everything else is answered on the stream, whose first message must be
//! a `Hello`: problems found then end the stream with a status that names the field:
//!
//! | problem | status |
//! |---|---|
//! | no `Hello` within the first-message timeout | `DEADLINE_EXCEEDED` |
//! | first message not a `Hello`, empty `hello.bot`, `hello.capacity` 0 | `INVALID_ARGUMENT` |
//! | `hello.bot` not registered | `NOT_FOUND` |
//! | the token is not this bot's and no other bot's | `UNAUTHENTICATED` |
//! | the token is another bot's | `PERMISSION_DENIED` |
//! | `hello.bot` is a program bot | `FAILED_PRECONDITION` |
//! | the bot is already connected (and did not resume that session) | `ALREADY_EXISTS` |
//! | bot-host is shutting down | `UNAVAILABLE` |
//! | the store cannot be reached | `UNAVAILABLE` |
//!
//! After the `Welcome`, mistakes in the bot's messages (a reply to an unknown request, a second
//! `Hello`, an empty message) get a `Notice` and the stream goes on. A bot not heard from for
//! `missed_keepalives` keepalive intervals is cut off with `UNAVAILABLE`, and its session waits
//! the grace period for a resume.

use std::sync::Arc;

use arena_proto::v1;
use arena_store::{BotKind, BotRecord};
use tokio::sync::mpsc;
use tokio::time::{Instant, MissedTickBehavior};
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_util::sync::CancellationToken;
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status, Streaming};
use tracing::Instrument;

use crate::hub::BotTx;
use crate::metrics::ConnectedBot;
use crate::server::Ctx;
use crate::token::token_matches;

/// The `BotGateway` service.
pub(crate) struct Gateway {
    pub(crate) ctx: Arc<Ctx>,
}

#[tonic::async_trait]
impl v1::bot_gateway_server::BotGateway for Gateway {
    type PlayStream = UnboundedReceiverStream<Result<v1::HostToBot, Status>>;

    async fn play(
        &self,
        request: Request<Streaming<v1::BotToHost>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let token = bearer_token(request.metadata())?;
        if self.ctx.is_draining() {
            return Err(Status::unavailable(format!(
                "bot-host {} is shutting down; connect to another instance",
                self.ctx.host
            )));
        }
        let peer = request
            .remote_addr()
            .map_or_else(|| "unknown".to_string(), |a| a.to_string());
        let inbound = request.into_inner();
        let (tx, rx) = mpsc::unbounded_channel();
        let ctx = Arc::clone(&self.ctx);
        let span = tracing::info_span!("bot_connection", %peer, bot = tracing::field::Empty);
        tokio::spawn(run_connection(ctx, token, inbound, tx).instrument(span));
        Ok(Response::new(UnboundedReceiverStream::new(rx)))
    }
}

/// The token of `authorization: Bearer <token>`.
fn bearer_token(metadata: &MetadataMap) -> Result<String, Status> {
    let missing = || {
        Status::unauthenticated(
            "missing `authorization: Bearer <token>` metadata: a bot connects with the token \
             issued by `arena bots add NAME`",
        )
    };
    let value = metadata.get("authorization").ok_or_else(missing)?;
    let text = value.to_str().map_err(|_| {
        Status::unauthenticated("the authorization metadata is not text: send `Bearer <token>`")
    })?;
    let (scheme, token) = text.trim().split_once(' ').ok_or_else(|| {
        Status::unauthenticated("the authorization metadata must be `Bearer <token>`")
    })?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err(Status::unauthenticated(
            "the authorization metadata must be `Bearer <token>`",
        ));
    }
    Ok(token.to_string())
}

fn send(tx: &BotTx, msg: v1::host_to_bot::Msg) {
    let _ = tx.send(Ok(v1::HostToBot { msg: Some(msg) }));
}

fn notice(tx: &BotTx, table_id: &str, request_id: u64, message: String) {
    send(
        tx,
        v1::host_to_bot::Msg::Notice(v1::Notice {
            table_id: table_id.to_string(),
            request_id,
            message,
        }),
    );
}

/// Checks the token against the bot `Hello` names.
async fn authenticate(ctx: &Ctx, token: &str, bot: &str) -> Result<BotRecord, Status> {
    let record = match ctx.store.bot(bot).await {
        Ok(Some(r)) => r,
        Ok(None) => {
            return Err(Status::not_found(format!(
                "hello.bot {bot:?} is not a registered bot (register it with `arena bots add {bot}`)"
            )));
        }
        Err(e) => {
            return Err(Status::unavailable(format!(
                "cannot look bot {bot:?} up in the store: {e}"
            )));
        }
    };
    let is_program = matches!(record.kind, BotKind::Program { .. });
    let matches = record
        .token_sha256
        .as_deref()
        .is_some_and(|h| token_matches(token, h));
    if matches && !is_program {
        return Ok(record);
    }
    if matches {
        return Err(program_cannot_connect(bot));
    }
    // Whose token is it? Only looked up on this failure path.
    let owned_by_another = ctx.store.bots().await.is_ok_and(|all| {
        all.iter().any(|b| {
            b.name != bot
                && b.token_sha256
                    .as_deref()
                    .is_some_and(|h| token_matches(token, h))
        })
    });
    if owned_by_another {
        return Err(Status::permission_denied(format!(
            "this token belongs to another bot: a token only ever plays as its own bot, not as {bot:?}"
        )));
    }
    if is_program {
        return Err(program_cannot_connect(bot));
    }
    Err(Status::unauthenticated(format!(
        "the token is not valid for bot {bot:?} (it may have been rotated)"
    )))
}

fn program_cannot_connect(bot: &str) -> Status {
    Status::failed_precondition(format!(
        "hello.bot {bot:?} is a program bot, which bot-host starts itself; only remote bots connect"
    ))
}

/// Reads and checks the `Hello`, authenticates, and joins the hub. `Ok(None)` when the bot
/// left before saying hello.
async fn open_session(
    ctx: &Arc<Ctx>,
    token: &str,
    inbound: &mut Streaming<v1::BotToHost>,
    tx: &BotTx,
    cancel: &CancellationToken,
) -> Result<Option<(String, u64)>, Status> {
    let first = tokio::time::timeout(ctx.config.first_message_timeout, inbound.message()).await;
    let msg = match first {
        Err(_) => {
            return Err(Status::deadline_exceeded(format!(
                "no hello within {} ms of connecting",
                ctx.config.first_message_timeout.as_millis()
            )));
        }
        Ok(Err(_) | Ok(None)) => return Ok(None),
        Ok(Ok(Some(m))) => m,
    };
    let hello = match msg.msg {
        Some(v1::bot_to_host::Msg::Hello(h)) => h,
        Some(v1::bot_to_host::Msg::Reply(_)) => {
            return Err(Status::invalid_argument(
                "hello: the first message must be a hello, got a reply (there is nothing to answer yet)",
            ));
        }
        Some(v1::bot_to_host::Msg::Pong(_)) => {
            return Err(Status::invalid_argument(
                "hello: the first message must be a hello, got a pong",
            ));
        }
        None => {
            return Err(Status::invalid_argument(
                "hello: the first message must be a hello, got an empty message",
            ));
        }
    };
    let bot = hello.bot.trim().to_string();
    if bot.is_empty() {
        return Err(Status::invalid_argument(
            "hello.bot is empty: name the registered bot the token belongs to",
        ));
    }
    if hello.capacity == 0 {
        return Err(Status::invalid_argument(
            "hello.capacity must be at least 1 (how many tables the bot plays at once)",
        ));
    }
    let record = authenticate(ctx, token, &bot).await?;
    tracing::Span::current().record("bot", bot.as_str());
    let connected = ctx
        .hub
        .connect(&bot, &hello, record.max_tables, tx.clone(), cancel.clone())?;
    tracing::info!(
        session = connected.session,
        release = hello.release,
        capacity = hello.capacity,
        max_tables = record.max_tables,
        resumed = connected.resumed,
        "bot connected"
    );
    Ok(Some((bot, connected.conn_id)))
}

/// One remote bot's connection, from `Hello` to the end of the stream.
async fn run_connection(
    ctx: Arc<Ctx>,
    token: String,
    mut inbound: Streaming<v1::BotToHost>,
    tx: BotTx,
) {
    let cancel = ctx.closing.child_token();
    let _stop = cancel.clone().drop_guard();
    let (bot, conn_id) = match open_session(&ctx, &token, &mut inbound, &tx, &cancel).await {
        Ok(Some(x)) => x,
        Ok(None) => return,
        Err(status) => {
            tracing::info!(code = ?status.code(), message = status.message(), "connection refused");
            let _ = tx.send(Err(status));
            return;
        }
    };
    tokio::spawn(keep_presence(Arc::clone(&ctx), bot.clone(), cancel.clone()));
    // Counted from the welcome until this connection ends, however it ends.
    let _connected = ConnectedBot::new();

    let keepalive = ctx.config.keepalive;
    let silence_limit = ctx.config.silence_limit();
    let mut ping = tokio::time::interval_at(Instant::now() + keepalive, keepalive);
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut last_heard = Instant::now();
    let mut nonce = 0u64;
    let why = loop {
        tokio::select! {
            biased;
            () = cancel.cancelled() => {
                // Replaced by a resumed connection, or bot-host is shutting down: the hub has
                // already said why on the stream.
                return;
            }
            m = inbound.message() => match m {
                Ok(Some(msg)) => {
                    last_heard = Instant::now();
                    match msg.msg {
                        Some(v1::bot_to_host::Msg::Reply(reply)) => {
                            let (table, id) = (reply.table_id.clone(), reply.request_id);
                            if let Err(text) = ctx.hub.route_reply(&bot, reply) {
                                notice(&tx, &table, id, text);
                            }
                        }
                        Some(v1::bot_to_host::Msg::Pong(_)) => {}
                        Some(v1::bot_to_host::Msg::Hello(_)) => notice(
                            &tx,
                            "",
                            0,
                            "hello is only the first message of a stream; this one was ignored".into(),
                        ),
                        None => notice(&tx, "", 0, "empty message ignored: set reply or pong".into()),
                    }
                }
                Ok(None) => break "the bot closed its stream".to_string(),
                Err(status) => {
                    // A message over the size limit, or a broken stream: said back (if anyone hears).
                    let why = format!("the stream broke: {status}");
                    let _ = tx.send(Err(status));
                    break why;
                }
            },
            _ = ping.tick() => {
                if last_heard.elapsed() > silence_limit {
                    let text = format!(
                        "nothing heard from the bot for {} ms ({} keepalives of {} ms missed)",
                        silence_limit.as_millis(),
                        ctx.config.missed_keepalives,
                        keepalive.as_millis()
                    );
                    let _ = tx.send(Err(Status::unavailable(format!("{text}: treated as disconnected"))));
                    break text;
                }
                nonce += 1;
                send(&tx, v1::host_to_bot::Msg::Ping(v1::Ping { nonce }));
            }
        }
    };
    if ctx.hub.detach(&bot, conn_id) {
        tracing::info!(
            reason = why,
            grace_ms = ctx.config.grace.as_millis(),
            "bot disconnected; its session waits for a resume"
        );
    }
}

/// Keeps the bot's presence record fresh while its connection lasts.
async fn keep_presence(ctx: Arc<Ctx>, bot: String, cancel: CancellationToken) {
    let every = ctx.config.presence_refresh();
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = cancel.cancelled() => return,
            _ = tick.tick() => {
                if let Err(e) = ctx.store.set_presence(&bot, &ctx.host, ctx.config.presence_ttl).await {
                    tracing::warn!(bot, error = %e, "cannot record presence");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic::metadata::MetadataValue;

    fn md(v: &'static str) -> MetadataMap {
        let mut m = MetadataMap::new();
        m.insert("authorization", MetadataValue::from_static(v));
        m
    }

    #[test]
    fn bearer_tokens_are_read_and_anything_else_refused() {
        assert_eq!(bearer_token(&md("Bearer abc")).unwrap(), "abc");
        assert_eq!(bearer_token(&md("bearer   abc  ")).unwrap(), "abc");
        for bad in ["abc", "Basic abc", "Bearer ", "Bearer"] {
            let e = bearer_token(&md(bad)).unwrap_err();
            assert_eq!(e.code(), tonic::Code::Unauthenticated, "{bad}");
        }
        let e = bearer_token(&MetadataMap::new()).unwrap_err();
        assert!(e.message().contains("missing `authorization"), "{e}");
    }
}
