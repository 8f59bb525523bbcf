//! Built-in bots (`random`, `seed`, `expert`, `search:…`, `ladder:K/N`) hosted in bot-host, so
//! that the remote path can be measured with the same bots the referee runs in-process.
//!
//! Each request is read back into a [`ddz::Observation`] (see [`crate::observation`]) and the
//! bot decides on a blocking thread, so a slow search never stalls the runtime. The bot is the
//! same object for the whole table, seeded from the table id and seat, so a seat replays the
//! same way for the same requests.

use std::collections::VecDeque;
use std::sync::Arc;

use arena_proto::convert::{DdzDecision, ddz_action};
use arena_proto::v1;
use ddz::Phase;
use ddz_bots::{Bot, BotSpec};
use tonic::Status;

use crate::metrics::{BotKind, relayed};
use crate::observation::DdzView;
use crate::seat::{FromReferee, SeatIo, Waited, while_reading};
use crate::server::Ctx;

/// Runs one seat with a built-in bot.
pub(crate) async fn run(ctx: &Arc<Ctx>, mut io: SeatIo, spec: BotSpec) -> Result<(), Status> {
    let Some(mut bot) = spec.build_builtin() else {
        return Err(Status::invalid_argument(format!(
            "open.bot {:?} is not a built-in bot",
            io.open.bot
        )));
    };
    bot.new_game(seed(&io.open.table_id, io.open.seat));
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
        let view = DdzView::from_request(&req).map_err(|e| Status::invalid_argument(e.0))?;
        let asked = std::time::Instant::now();
        let thinking = tokio::task::spawn_blocking(move || {
            let action = decide(&mut bot, &view);
            (bot, action)
        });
        match while_reading(&mut io, &mut queue, &ctx.closing, thinking).await? {
            Waited::Done(Ok((b, action))) => {
                bot = b;
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

/// The bot's decision for the request `view` was read from.
fn decide(bot: &mut Box<dyn Bot>, view: &DdzView) -> v1::Action {
    let obs = view.observation();
    let d = match obs.phase {
        Phase::Bidding => DdzDecision::Bid(u32::from(bot.bid(&obs))),
        Phase::Doubling => DdzDecision::Double(bot.double(&obs)),
        Phase::Play | Phase::Over => {
            let legal = view.legal_moves();
            DdzDecision::Play(bot.play(&obs, &legal).cards())
        }
    };
    ddz_action(d)
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
