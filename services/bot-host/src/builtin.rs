//! Built-in bots of every game (for Dou Dizhu `random`, `seed`, `expert`, `search:…`,
//! `ladder:K/N`) hosted in bot-host, so that the remote path can be measured with the same bots
//! the referee runs in-process.
//!
//! Each request goes to the game's [`arena_games::RequestBot`], which reads it back into the rules engine's
//! view of the seat and decides on a blocking thread, so a slow search never stalls the runtime. The bot is the
//! same object for the whole table, seeded from the table id and seat, so a seat replays the
//! same way for the same requests.

use std::collections::VecDeque;
use std::sync::Arc;

use arena_games::Builtin;
use arena_proto::v1;
use arena_serve::ApiError;
use tonic::Status;

use crate::ctx::Ctx;
use crate::metrics::{BotKind, relayed};
use crate::seat_io::{FromReferee, SeatIo, Waited, while_reading};

/// Runs one seat with a built-in bot.
pub(crate) async fn run(ctx: &Arc<Ctx>, mut io: SeatIo, spec: Builtin) -> Result<(), Status> {
    let Some(mut bot) = spec.request_bot(seed(&io.open.table_id, io.open.seat)) else {
        return Err(
            ApiError::Invalid(format!("open.bot {:?} is not a built-in bot", io.open.bot)).into(),
        );
    };
    io.ready(env!("CARGO_PKG_VERSION"), &ctx.host);
    let mut queue: VecDeque<v1::DecisionRequest> = VecDeque::new();
    loop {
        let Some(req) = queue.pop_front() else {
            tokio::select! {
                biased;
                () = ctx.closing.cancelled() => {
                    io.fault_shutdown(&ctx.host);
                    return Ok(());
                }
                m = io.next() => match m? {
                    FromReferee::Request(r) => queue.push_back(r),
                    FromReferee::Close(_) | FromReferee::Gone => return Ok(()),
                },
            }
            continue;
        };
        let asked = std::time::Instant::now();
        let thinking = tokio::task::spawn_blocking(move || {
            let action = bot.decide(&req);
            (bot, req, action)
        });
        match while_reading(&mut io, &mut queue, &ctx.closing, thinking).await? {
            Waited::Done(Ok((b, req, action))) => {
                bot = b;
                let action = action.map_err(|e| ApiError::Invalid(e.0))?;
                io.reply(v1::DecisionReply {
                    request_id: req.request_id,
                    table_id: req.table_id,
                    action: Some(action),
                });
                relayed(BotKind::Builtin, asked);
            }
            Waited::Done(Err(e)) => {
                io.fault(
                    v1::VerdictKind::Crashed,
                    format!("the built-in bot {:?} failed: {e}", io.open.bot),
                );
                return Ok(());
            }
            Waited::Ended => return Ok(()),
            Waited::Closing => {
                io.fault_shutdown(&ctx.host);
                return Ok(());
            }
        }
    }
}

/// A seed from the table id and seat (FNV-1a), so a seat's bot is reproducible.
fn seed(table_id: &str, seat: u32) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in table_id.bytes().chain(seat.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_by_table_and_seat() {
        assert_eq!(seed("t1", 0), seed("t1", 0));
        assert_ne!(seed("t1", 0), seed("t1", 1));
        assert_ne!(seed("t1", 0), seed("t2", 0));
    }
}
