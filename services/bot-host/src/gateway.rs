//! `BotGateway.Play`: the stream a remote bot plays all its tables on.
//!
//! The call must carry `authorization: Bearer <token>`; a call without it is refused at once
//! with `UNAUTHENTICATED`. Everything else is answered on the stream, whose first message must be
//! a `Hello`: problems found then end the stream with a status that names the field:
//!
//! | problem | status |
//! |---|---|
//! | no `Hello` within the first-message timeout | `DEADLINE_EXCEEDED` |
//! | first message not a `Hello`, empty or overlong `hello.bot` or `hello.release`, `hello.capacity` 0 or above the limit, `hello.games` holding `GAME_UNSPECIFIED` or a value that is no game | `INVALID_ARGUMENT` |
//! | `hello.bot` is not a remote bot whose token this is (unknown bot, program bot, wrong or rotated token: one answer, so names cannot be probed) | `UNAUTHENTICATED` |
//! | too many failed attempts from this address | `RESOURCE_EXHAUSTED` |
//! | the bot is connected already, here (and did not resume that session) or to another bot-host | `ALREADY_EXISTS` |
//! | bot-host is shutting down | `UNAVAILABLE` |
//! | the store cannot be reached | `UNAVAILABLE` |
//! | the bot's record cannot be read back, or the store lost its data | `INTERNAL`, `DATA_LOSS` |
//!
//! `hello.games` says which games the bot plays (none listed: Dou Dizhu only, as bots written
//! before Mahjong expect; duplicates are harmless). bot-host records them in the store
//! ([`arena_store::bot_games::put_remote_games`]) once the token is checked and before the
//! bot's presence, so whoever sees the bot connected (the ladder, grouping bots only at their
//! games' tables) sees what it plays. It never seats the bot at another game's table: such a
//! seat gets a `SeatFault{DISCONNECTED}` naming the games the bot plays (see [`crate::hub`]).
//! (A second connection of a bot that is refused as `ALREADY_EXISTS` has recorded its list
//! too: a bot that connects twice saying different things is believed the second time.)
//!
//! Checking a token costs one store read (the bot `Hello` names) and one hash; failures count
//! against the peer's address ([`arena_auth::FailureLimiter`]). One live connection per bot
//! across every bot-host: the connection claims the bot's presence in the store
//! ([`arena_store::Store::claim_presence`]), which expires within seconds of its host dying.
//! While connected, the bot's record is read again at every presence refresh: a rotated token
//! or a removed bot ends the session (`UNAUTHENTICATED`) and faults its seats.
//!
//! A `Drain` after the `Welcome` stops the session cleanly: no new table, and the stream ends
//! with OK once the tables in flight have ended ([`crate::hub::Hub::drain`]).
//!
//! After the `Welcome`, mistakes in the bot's messages (a reply to an unknown request, a second
//! `Hello`, an empty message) get a `Notice` and the stream goes on. A bot not heard from for
//! `missed_keepalives` keepalive intervals is cut off with `UNAVAILABLE`, a bot that lets
//! `max_queued_to_bot` messages pile up unread with `RESOURCE_EXHAUSTED`; either way its session
//! waits the grace period for a resume.

use std::sync::Arc;

use arena_games::GameKind;
use arena_proto::v1;
use arena_store::{BotKind, BotRecord};
use tokio::time::{Instant, MissedTickBehavior};
use tokio_util::sync::CancellationToken;
use tonic::{Request, Response, Status, Streaming};
use tracing::Instrument;

use arena_auth::refusal;
use arena_auth::token::{hash_token, token_matches};
use arena_serve::ApiError;

use crate::ctx::Ctx;
use crate::hub::BotTx;
use crate::metrics::ConnectedBot;

/// Longest bot name and release a `Hello` may carry, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// Most tables a bot may ask to play at once.
pub const MAX_CAPACITY: u32 = 10_000;

/// The `BotGateway` service.
pub(crate) struct Gateway {
    pub(crate) ctx: Arc<Ctx>,
}

#[tonic::async_trait]
impl v1::bot_gateway_server::BotGateway for Gateway {
    type PlayStream = arena_proto::coalesce::Coalesce<crate::outbox::OutStream<v1::HostToBot>>;

    async fn play(
        &self,
        request: Request<Streaming<v1::BotToHost>>,
    ) -> Result<Response<Self::PlayStream>, Status> {
        let peer_ip = request.remote_addr().map(|a| a.ip());
        if let Err(wait) = self.ctx.limiter.check(peer_ip) {
            return Err(refusal::too_many_attempts(wait));
        }
        let token = arena_auth::layer::bearer(request.metadata().as_ref())
            .map_err(|why| {
                refusal::unauthenticated(format!(
                    "{why}: a bot connects with `authorization: Bearer <token>`, the token issued by \
                     `arena bots add NAME`"
                ))
            })?
            .to_string();
        if self.ctx.is_draining() {
            return Err(ApiError::Unavailable(format!(
                "bot-host {} is shutting down; connect to another instance",
                self.ctx.host
            ))
            .into());
        }
        let peer = request
            .remote_addr()
            .map_or_else(|| "unknown".to_string(), |a| a.to_string());
        let inbound = request.into_inner();
        let (tx, rx) = crate::outbox::outbox(self.ctx.config.max_queued_to_bot, "the bot");
        let ctx = Arc::clone(&self.ctx);
        let span = tracing::info_span!("bot_connection", %peer, bot = tracing::field::Empty);
        tokio::spawn(run_connection(ctx, token, peer_ip, inbound, tx).instrument(span));
        Ok(Response::new(arena_proto::coalesce::Coalesce::new(rx)))
    }
}

fn send(tx: &BotTx, msg: v1::host_to_bot::Msg) {
    tx.send(v1::HostToBot { msg: Some(msg) });
}

fn notice(tx: &BotTx, table_id: &str, request_id: u64, message: String) {
    send(
        tx,
        v1::host_to_bot::Msg::Notice(v1::Notice {
            table_id: arena_proto::text::cut(table_id),
            request_id,
            message,
        }),
    );
}

/// Checks the token against the bot `Hello` names: one store read and one hash whatever the
/// outcome, and one answer for every way it can fail.
async fn authenticate(
    ctx: &Ctx,
    token: &str,
    bot: &str,
    peer: Option<std::net::IpAddr>,
) -> Result<BotRecord, Status> {
    let record = ctx
        .store
        .bot(bot)
        .await
        .map_err(|e| ApiError::store("cannot look the bot up in the store", e))?;
    let hash = record
        .as_ref()
        .filter(|r| matches!(r.kind, BotKind::Remote))
        .and_then(|r| r.token_sha256.as_deref());
    let valid = match hash {
        Some(h) => token_matches(token, h),
        None => {
            // Hash anyway: an unknown bot costs what a wrong token costs.
            let _ = hash_token(token);
            false
        }
    };
    match (valid, record) {
        (true, Some(record)) => Ok(record),
        _ => match ctx.limiter.failed(peer) {
            Err(wait) => Err(refusal::too_many_attempts(wait)),
            Ok(()) => Err(refusal::unauthenticated(
                "hello.bot and the token do not match a registered remote bot (unknown bot, program \
                 bot, or a wrong or rotated token)",
            )),
        },
    }
}

/// Reads and checks the `Hello`, authenticates, and joins the hub. `Ok(None)` when the bot
/// left before saying hello.
async fn open_session(
    ctx: &Arc<Ctx>,
    token: &str,
    peer: Option<std::net::IpAddr>,
    inbound: &mut Streaming<v1::BotToHost>,
    tx: &BotTx,
    cancel: &CancellationToken,
) -> Result<Option<(String, u64, String)>, Status> {
    let first = tokio::time::timeout(ctx.config.first_message_timeout, inbound.message()).await;
    let msg = match first {
        Err(_) => {
            return Err(ApiError::DeadlineExceeded(format!(
                "no hello within {} ms of connecting",
                ctx.config.first_message_timeout.as_millis()
            ))
            .into());
        }
        Ok(Err(_) | Ok(None)) => return Ok(None),
        Ok(Ok(Some(m))) => m,
    };
    let hello = match msg.msg {
        Some(v1::bot_to_host::Msg::Hello(h)) => h,
        Some(v1::bot_to_host::Msg::Reply(_)) => {
            return Err(ApiError::Invalid(
                "hello: the first message must be a hello, got a reply (there is nothing to answer yet)".into()
            ).into());
        }
        Some(v1::bot_to_host::Msg::Pong(_)) => {
            return Err(ApiError::Invalid(
                "hello: the first message must be a hello, got a pong".into(),
            )
            .into());
        }
        Some(v1::bot_to_host::Msg::Drain(_)) => {
            return Err(ApiError::Invalid(
                "hello: the first message must be a hello, got a drain (there is nothing to drain yet)".into(),
            )
            .into());
        }
        None => {
            return Err(ApiError::Invalid(
                "hello: the first message must be a hello, got an empty message".into(),
            )
            .into());
        }
    };
    let bot = hello.bot.trim().to_string();
    if bot.is_empty() {
        return Err(ApiError::Invalid(
            "hello.bot is empty: name the registered bot the token belongs to".into(),
        )
        .into());
    }
    check_text("hello.bot", &bot)?;
    check_text("hello.release", &hello.release)?;
    check_text("hello.resume_session", &hello.resume_session)?;
    if hello.capacity == 0 || hello.capacity > MAX_CAPACITY {
        return Err(ApiError::Invalid(format!(
            "hello.capacity must be 1 to {MAX_CAPACITY} (how many tables the bot plays at once)"
        ))
        .into());
    }
    let games = hello_games(&hello.games)?;
    let record = authenticate(ctx, token, &bot, peer).await?;
    tracing::Span::current().record("bot", bot.as_str());
    let stored: Vec<arena_store::Game> = games.iter().map(|&g| g.into()).collect();
    arena_store::bot_games::put_remote_games(&*ctx.store, &bot, &stored)
        .await
        .map_err(|e| ApiError::store("cannot record the games the bot plays in the store", e))?;
    // One live connection per bot across every bot-host.
    match ctx
        .store
        .claim_presence(&bot, &ctx.host, ctx.config.presence_ttl)
        .await
    {
        Ok(None) => {}
        Ok(Some(other)) => {
            return Err(ApiError::AlreadyExists(format!(
                "bot {bot:?} is connected to another bot-host ({other}); a bot connects once. If that \
                 connection is gone, its presence expires within {} ms: connect again then",
                ctx.config.presence_ttl.as_millis()
            )).into());
        }
        Err(e) => {
            return Err(ApiError::store("cannot record the bot's presence in the store", e).into());
        }
    }
    let connected = ctx.hub.connect(
        &bot,
        &hello,
        games.clone(),
        record.max_tables,
        tx.clone(),
        cancel.clone(),
    )?;
    let names: Vec<&str> = games.iter().map(|g| g.name()).collect();
    tracing::info!(
        session = connected.session,
        release = hello.release,
        capacity = hello.capacity,
        max_tables = record.max_tables,
        games = names.join(","),
        resumed = connected.resumed,
        "bot connected"
    );
    let token_hash = record.token_sha256.unwrap_or_default();
    Ok(Some((bot, connected.conn_id, token_hash)))
}

/// The most games a `Hello` may list.
const MAX_HELLO_GAMES: usize = 16;

/// The games a `Hello` lists, checked: each one the platform plays, by its registered name
/// (duplicates dropped); none listed means the platform's default game only (bots written
/// before the field existed).
fn hello_games(listed: &[String]) -> Result<Vec<GameKind>, ApiError> {
    if listed.is_empty() {
        return Ok(vec![GameKind::default_game()]);
    }
    if listed.len() > MAX_HELLO_GAMES {
        return Err(ApiError::Invalid(format!(
            "hello.games lists {} games, more than {MAX_HELLO_GAMES}: the games are {}",
            listed.len(),
            GameKind::names()
        )));
    }
    let mut games = Vec::with_capacity(listed.len());
    for (i, name) in listed.iter().enumerate() {
        if name.is_empty() {
            return Err(ApiError::Invalid(format!(
                "hello.games[{i}] is empty: list the games the bot plays by name ({}), or none \
                 for {} only",
                GameKind::names(),
                GameKind::default_game().name()
            )));
        }
        let game = GameKind::by_name(name)
            .map_err(|why| ApiError::Invalid(format!("hello.games[{i}]: {why}")))?;
        if !games.contains(&game) {
            games.push(game);
        }
    }
    Ok(games)
}

/// A name a bot sends: at most [`MAX_NAME_CHARS`] characters, none of them control or format
/// characters ([`arena_proto::text::check_shown`]).
fn check_text(field: &str, text: &str) -> Result<(), ApiError> {
    if text.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::Invalid(format!(
            "{field} is longer than {MAX_NAME_CHARS} characters"
        )));
    }
    arena_proto::text::check_shown(text).map_err(|why| ApiError::Invalid(format!("{field} {why}")))
}

/// One remote bot's connection, from `Hello` to the end of the stream.
async fn run_connection(
    ctx: Arc<Ctx>,
    token: String,
    peer: Option<std::net::IpAddr>,
    mut inbound: Streaming<v1::BotToHost>,
    tx: BotTx,
) {
    let cancel = ctx.closing.child_token();
    let _stop = cancel.clone().drop_guard();
    let opened = open_session(&ctx, &token, peer, &mut inbound, &tx, &cancel).await;
    drop(token);
    let (bot, conn_id, token_hash) = match opened {
        Ok(Some(x)) => x,
        Ok(None) => return,
        Err(status) => {
            tracing::info!(code = ?status.code(), message = status.message(), "connection refused");
            tx.fail(status);
            return;
        }
    };
    tokio::spawn(keep_presence(
        Arc::clone(&ctx),
        bot.clone(),
        token_hash,
        cancel.clone(),
    ));
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
                // Replaced by a resumed connection, revoked, or bot-host is shutting down: the
                // hub has already said why on the stream.
                return;
            }
            () = tx.cut_off() => {
                break tx.cut_reason().unwrap_or_else(|| "the bot stopped reading".into());
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
                        Some(v1::bot_to_host::Msg::Drain(_)) => {
                            if let Some(n) = ctx.hub.drain(&bot, conn_id) {
                                tracing::info!(tables = n, "bot draining");
                                if n > 0 {
                                    notice(&tx, "", 0, format!(
                                        "draining: no new table; the stream ends when your {n} table(s) in flight have ended"
                                    ));
                                }
                            }
                        }
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
                    let why = format!("the stream broke: {}", arena_proto::text::cut(status.message()));
                    tx.fail(status);
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
                    tx.fail(ApiError::Unavailable(format!("{text}: treated as disconnected")).into());
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

/// Keeps the bot's presence record fresh while its connection lasts, and ends the session when
/// the bot's record says its token is no longer the one it connected with (rotated) or the bot
/// is gone (removed).
async fn keep_presence(ctx: Arc<Ctx>, bot: String, token_hash: String, cancel: CancellationToken) {
    let every = ctx.config.presence_refresh();
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tokio::select! {
            () = cancel.cancelled() => return,
            _ = tick.tick() => {
                let revoked = match ctx.store.bot(&bot).await {
                    Ok(None) => Some("the bot was removed by an operator"),
                    Ok(Some(r)) if r.token_sha256.as_deref() != Some(token_hash.as_str()) => {
                        Some("the bot's token was rotated by an operator: connect with the new token")
                    }
                    Ok(Some(_)) => None,
                    Err(e) => {
                        tracing::warn!(bot, error = %e, "cannot read the bot's record");
                        None
                    }
                };
                if let Some(why) = revoked {
                    tracing::info!(bot, reason = why, "session revoked");
                    ctx.hub.revoke(&bot, why);
                    let _ = ctx.store.clear_presence(&bot, &ctx.host).await;
                    return;
                }
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

    #[test]
    fn hello_games_default_to_dou_dizhu_and_refuse_what_is_no_game() {
        let s = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
        assert_eq!(hello_games(&[]).unwrap(), [arena_games::ddz::GAME]);
        assert_eq!(
            hello_games(&s(&["mahjong"])).unwrap(),
            [arena_games::mahjong::GAME]
        );
        assert_eq!(
            hello_games(&s(&["mahjong", "ddz", "mahjong"])).unwrap(),
            [arena_games::mahjong::GAME, arena_games::ddz::GAME]
        );
        for (listed, needle) in [
            (s(&[""]), "hello.games[0] is empty"),
            (s(&["mahjong", ""]), "hello.games[1] is empty"),
            (s(&["ddz", "chess"]), "hello.games[1]: no game \"chess\""),
            (s(&["MAHJONG"]), "hello.games[0]: no game \"MAHJONG\""),
        ] {
            let e = hello_games(&listed).unwrap_err().to_string();
            assert!(e.contains(needle), "{listed:?}: {e}");
            assert!(e.contains("ddz, mahjong"), "{e}");
        }
        let many = vec!["ddz".to_string(); MAX_HELLO_GAMES + 1];
        let e = hello_games(&many).unwrap_err().to_string();
        assert!(e.contains("more than 16"), "{e}");
    }

    #[test]
    fn names_from_bots_are_bounded_and_printable() {
        check_text("hello.bot", "my-bot").unwrap();
        check_text("hello.release", "").unwrap();
        let long = "x".repeat(MAX_NAME_CHARS + 1);
        let e = check_text("hello.release", &long).unwrap_err();
        assert!(e.to_string().contains("hello.release"), "{e}");
        assert!(check_text("hello.bot", "a\nb").is_err());
    }
}
