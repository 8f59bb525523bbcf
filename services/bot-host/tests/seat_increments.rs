//! Incremental observations on the referee's seat streams: bot-host says
//! `SeatReady.incremental_observations`, the referee then sends each stream only the events
//! since its previous request, and bot-host keeps each stream's events. Every request a bot
//! is sent, whether it asked for whole or incremental observations, is the referee's request
//! whole or cut from it, for every decision of real tables of each game; an increment that
//! does not continue its stream (a new stream's first request among them) is refused.

mod common;

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use arena_proto::incremental::SeatEvents;
use arena_proto::v1;
use common::*;
use tonic::Code;

/// A request as the bot got it, and made whole as the bot reads it.
struct Got {
    came: v1::DecisionRequest,
    whole: v1::DecisionRequest,
}

/// Connects `bot`, playing both games, asking for incremental observations or not.
async fn connect_bot(host: &Host, bot: &str, incremental: bool) -> BotConn {
    let mut first = hello_listing(bot, 4, "", &["ddz".to_string(), "mahjong".to_string()]);
    if let Some(v1::bot_to_host::Msg::Hello(h)) = &mut first.msg {
        h.incremental_observations = incremental;
    }
    let token = host.add_remote(bot, 0).await;
    let mut c = play(host, Some(&token), vec![first])
        .await
        .expect("the call is accepted");
    match next_to_bot(&mut c.rx).await {
        Some(v1::host_to_bot::Msg::Welcome(_)) => c,
        other => panic!("expected a welcome, got {other:?}"),
    }
}

/// Plays as a remote bot, making each request whole (one history per table
/// and seat) and answering from it; records every request.
fn record(conn: BotConn) -> (Arc<Mutex<Vec<Got>>>, tokio::task::JoinHandle<()>) {
    let got = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&got);
    let BotConn { tx, mut rx } = conn;
    let task = tokio::spawn(async move {
        let mut histories: HashMap<(String, u32), SeatEvents> = HashMap::new();
        while let Ok(Some(m)) = rx.message().await {
            let answer = match m.msg {
                Some(v1::host_to_bot::Msg::Ping(p)) => v1::BotToHost {
                    msg: Some(v1::bot_to_host::Msg::Pong(v1::Pong { nonce: p.nonce })),
                },
                Some(v1::host_to_bot::Msg::Request(came)) => {
                    let mut whole = came.clone();
                    histories
                        .entry((came.table_id.clone(), came.seat))
                        .or_default()
                        .rebuild(&mut whole)
                        .expect("each increment continues what the bot holds");
                    let answer = reply_to(&whole);
                    log.lock().unwrap().push(Got { came, whole });
                    answer
                }
                Some(v1::host_to_bot::Msg::End(e)) => {
                    histories.remove(&(e.table_id, e.seat));
                    continue;
                }
                _ => continue,
            };
            if tx.send(answer).await.is_err() {
                return;
            }
        }
    });
    (got, task)
}

fn ddz_job(table_id: &str, seats: [&str; 3], seed: u64) -> v1::TableJob {
    v1::TableJob {
        table_id: table_id.into(),
        game: "ddz".into(),
        seats: seats.map(|b| v1::SeatSpec { bot: b.into() }).to_vec(),
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            deal: ddz::Deal::generate(seed, 0).to_string(),
            landlord: Some(ddz_pb::setup::Landlord::FirstBidder(0)),
            doubling: true,
            ..Default::default()
        })),
        time: Some(v1::TimeControl {
            decision_ms: 5000,
            hard_cap_ms: 10_000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed,
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_of_real_tables_reaches_bots_as_the_referee_made_it() {
    let host = Host::start(fast_config()).await;
    let (whole_got, _whole) = record(connect_bot(&host, "whole", false).await);
    let (cut_got, _cut) = record(connect_bot(&host, "cut", true).await);
    let jobs = [
        ddz_job("inc/ddz", ["whole", "cut", "whole"], 3),
        mahjong_job("inc/mj", ["cut", "whole", "cut", "whole"], 5),
    ];
    for job in &jobs {
        let (result, replay) = referee_job(&host, job).await;
        assert!(result.error.is_empty(), "{}", result.error);
        let truth = arena_games::step_observations(job, &replay).unwrap();
        // The decisions put to a bot: those it answered, and those it was given up on.
        let asked: Vec<usize> = (0..replay.steps.len())
            .filter(|&i| !replay.steps[i].automatic || replay.steps[i].verdict.is_some())
            .collect();
        assert!(asked.len() > 20, "{} decisions asked", asked.len());
        for (bot, got) in [("whole", &whole_got), ("cut", &cut_got)] {
            let got = got.lock().unwrap();
            let mine: Vec<&Got> = got
                .iter()
                .filter(|g| g.came.table_id == job.table_id)
                .collect();
            for g in &mine {
                let id = g.came.request_id as usize;
                let (seat, observation) = &truth[id];
                assert_eq!(*seat, g.came.seat);
                assert_eq!(
                    g.whole.observation.as_ref(),
                    Some(observation),
                    "{bot}: request {id} of {}",
                    job.table_id
                );
            }
            let cut = mine
                .iter()
                .filter(|g| {
                    arena_proto::incremental::events_len(&g.came)
                        < arena_proto::incremental::events_through(&g.came)
                })
                .count();
            if bot == "whole" {
                assert_eq!(cut, 0, "a bot that did not ask gets whole observations");
            } else {
                assert!(cut > mine.len() / 2, "{cut} of {} incremental", mine.len());
            }
        }
        // Each decision a bot was asked reached it, once.
        let mut ids: Vec<u64> = [&whole_got, &cut_got]
            .iter()
            .flat_map(|g| {
                g.lock()
                    .unwrap()
                    .iter()
                    .filter(|g| g.came.table_id == job.table_id)
                    .map(|g| g.came.request_id)
                    .collect::<Vec<_>>()
            })
            .collect();
        ids.sort_unstable();
        let asked: Vec<u64> = asked.into_iter().map(|i| i as u64).collect();
        assert_eq!(ids, asked, "{}", job.table_id);
    }
}

/// Request `id` of `game` for its seat to act, saying it leaves out the first `from` events
/// (and carrying those after them, if any).
fn cut_request(game: &ddz::Game, table_id: &str, id: u64, from: usize) -> v1::DecisionRequest {
    let mut r = request_for(game, table_id, id);
    let o = r.observation.as_mut().unwrap();
    o.events.drain(..from.min(o.events.len()));
    o.events_from = u32::try_from(from).unwrap();
    r
}

#[tokio::test]
async fn an_increment_that_does_not_continue_its_seat_stream_is_refused() {
    let host = Host::start(fast_config()).await;
    let bot = spawn_bot(connect_bot(&host, "rb", true).await, Vec::new());
    let mut game =
        ddz::Game::from_seed(ddz::GameConfig::competition(), 9, ddz::DealConstraint::NONE).unwrap();
    // Two bids, so the third seat's request has events to leave out.
    game.apply(ddz::Action::Bid(1)).expect("a bid");
    game.apply(ddz::Action::Bid(0)).expect("a pass");
    let seat = game.to_act().unwrap().index() as u32;
    // A built-in bot (bot-host makes requests whole itself) and a remote bot (the hub does).
    for (table, name) in [("inc/b", "random"), ("inc/r", "rb")] {
        let mut stream = open_seat(&host, table, seat, name).await;
        assert!(
            stream.ready().await.incremental_observations,
            "bot-host takes increments"
        );
        // A new stream's first request leaves out events the stream never carried.
        stream
            .send(v1::referee_to_seat::Msg::Request(cut_request(
                &game, table, 1, 2,
            )))
            .await;
        let s = stream.error().await;
        assert_status(&s, Code::InvalidArgument, "continues after event 2");
        assert_status(&s, Code::InvalidArgument, "has 0 events");

        // On a stream that carried a whole request, an increment must start where it ended.
        let mut stream = open_seat(&host, &format!("{table}2"), seat, name).await;
        stream.ready().await;
        let whole = request_for(&game, &format!("{table}2"), 1);
        let events = arena_proto::incremental::events_len(&whole);
        assert!(events >= 2, "{events} events");
        stream.send(v1::referee_to_seat::Msg::Request(whole)).await;
        let Some(v1::seat_to_referee::Msg::Reply(r)) = stream.next().await else {
            panic!("the whole request is answered");
        };
        assert_eq!(r.request_id, 1);
        let gap = cut_request(&game, &format!("{table}2"), 2, events + 1);
        stream.send(v1::referee_to_seat::Msg::Request(gap)).await;
        let s = stream.error().await;
        assert_status(
            &s,
            Code::InvalidArgument,
            &format!("continues after event {}", events + 1),
        );
    }
    drop(bot);
}
