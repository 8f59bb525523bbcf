//! `SeatHost.Seats`: many seat streams on one stream, spoken frame by frame as a referee (or a
//! hostile caller) would. Each seat runs as on a `Seat` stream of its own and ends with its own
//! status; frames that break the numbering are refused or dropped without touching the other
//! seats.

mod common;

use arena_proto::v1;
use arena_proto::v1::seat_host_client::SeatHostClient;
use common::*;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, Request, Streaming};

/// A `Seats` stream: the frames to send, and the frames bot-host sent, in order.
struct Seats {
    tx: mpsc::Sender<v1::RefereeToSeats>,
    rx: Streaming<v1::SeatsToReferee>,
    got: Vec<v1::HostSeatFrame>,
}

async fn seats_stream(host: &Host, token: Option<&str>) -> Result<Seats, tonic::Status> {
    let mut client = SeatHostClient::connect(host.seat_url())
        .await
        .expect("connects");
    let (tx, rx) = mpsc::channel(16);
    let mut req = Request::new(ReceiverStream::new(rx));
    if let Some(t) = token {
        req.metadata_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    let rx = client.seats(req).await?.into_inner();
    Ok(Seats {
        tx,
        rx,
        got: Vec::new(),
    })
}

fn frame(id: u64, msg: Option<v1::RefereeToSeat>, end: bool) -> v1::RefereeSeatFrame {
    v1::RefereeSeatFrame {
        seat_stream: id,
        msg,
        end,
        traceparent: String::new(),
    }
}

impl Seats {
    async fn send(&self, frames: Vec<v1::RefereeSeatFrame>) {
        self.tx
            .send(v1::RefereeToSeats { frames })
            .await
            .expect("the stream is open");
    }

    /// Reads until seat stream `id` has a frame matching `done`; returns that frame.
    async fn until(
        &mut self,
        id: u64,
        done: impl Fn(&v1::HostSeatFrame) -> bool,
    ) -> v1::HostSeatFrame {
        loop {
            if let Some(i) = self.got.iter().position(|f| f.seat_stream == id && done(f)) {
                return self.got.remove(i);
            }
            let batch = within("a frame", self.rx.message())
                .await
                .expect("the stream does not fail")
                .expect("the stream does not end");
            assert!(!batch.frames.is_empty(), "an empty batch");
            // A waiting seat's `SeatWaiting` every keepalive interval says only that.
            self.got.extend(batch.frames.into_iter().filter(|f| {
                !matches!(
                    f.msg.as_ref().and_then(|m| m.msg.as_ref()),
                    Some(v1::seat_to_referee::Msg::Waiting(_))
                ) || f.end.is_some()
            }));
        }
    }

    async fn ready(&mut self, id: u64) -> v1::SeatReady {
        let f = self.until(id, |f| f.msg.is_some() || f.end.is_some()).await;
        match f.msg.and_then(|m| m.msg) {
            Some(v1::seat_to_referee::Msg::Ready(r)) => r,
            other => panic!(
                "seat stream {id}: expected ready, got {other:?} / {:?}",
                f.end
            ),
        }
    }

    /// The next reply of seat stream `id` (failing on anything else said first, an end
    /// included).
    async fn reply(&mut self, id: u64) -> v1::DecisionReply {
        let f = self.until(id, |f| f.msg.is_some() || f.end.is_some()).await;
        match f.msg.and_then(|m| m.msg) {
            Some(v1::seat_to_referee::Msg::Reply(r)) => r,
            other => panic!(
                "seat stream {id}: expected a reply, got {other:?} / {:?}",
                f.end
            ),
        }
    }

    async fn end(&mut self, id: u64) -> v1::SeatStreamEnd {
        self.until(id, |f| f.end.is_some()).await.end.unwrap()
    }
}

/// The game every table here plays: its first decision is all a seat is asked.
fn game() -> ddz::Game {
    ddz::Game::from_seed(ddz::GameConfig::competition(), 7, ddz::DealConstraint::NONE)
        .expect("a game")
}

/// The seat to act first: the seat every table here opens.
fn first() -> u32 {
    game().to_act().expect("a seat to act").index() as u32
}

fn request(table_id: &str, id: u64) -> v1::RefereeToSeat {
    v1::RefereeToSeat {
        msg: Some(v1::referee_to_seat::Msg::Request(request_for(
            &game(),
            table_id,
            id,
        ))),
    }
}

fn close(table_id: &str) -> v1::RefereeToSeat {
    v1::RefereeToSeat {
        msg: Some(v1::referee_to_seat::Msg::Close(v1::SeatClose {
            table_id: table_id.into(),
            ..Default::default()
        })),
    }
}

#[tokio::test]
async fn seats_on_one_stream_play_on_their_own_and_each_ends_with_its_own_status() {
    let host = Host::start(fast_config()).await;
    let token = host.cluster_token.clone();
    let mut s = seats_stream(&host, Some(&token)).await.unwrap();
    // Two seats of built-in bots, an unknown bot, all in one message.
    s.send(vec![
        frame(1, Some(open_msg("t-a", first(), "expert")), false),
        frame(2, Some(open_msg("t-b", first(), "random")), false),
        frame(3, Some(open_msg("t-c", 2, "mallory")), false),
    ])
    .await;
    assert_eq!(s.ready(1).await.bot, "expert");
    assert_eq!(s.ready(2).await.bot, "random");
    let refused = s.end(3).await;
    assert_eq!(refused.code, Code::NotFound as i32, "{refused:?}");
    assert!(refused.message.contains("mallory"), "{refused:?}");

    // Each seat answers its own request.
    s.send(vec![
        frame(2, Some(request("t-b", 0)), false),
        frame(1, Some(request("t-a", 0)), false),
    ])
    .await;
    for (id, table) in [(1, "t-a"), (2, "t-b")] {
        let r = s.reply(id).await;
        assert_eq!(r.table_id, table);
        assert_eq!(r.request_id, 0);
        assert!(
            r.action.is_some_and(|a| a.game.is_some()),
            "a reply with an action"
        );
    }

    // Closing one seat ends it with OK; the other plays on.
    s.send(vec![frame(1, Some(close("t-a")), true)]).await;
    assert_eq!(s.end(1).await.code, Code::Ok as i32);
    s.send(vec![frame(2, Some(request("t-b", 1)), false)]).await;
    assert_eq!(
        s.reply(2).await.request_id,
        1,
        "the seat left open still answers"
    );
    // A referee whose side of a seat ends (no close) ends that seat too.
    s.send(vec![frame(2, None, true)]).await;
    assert_eq!(s.end(2).await.code, Code::Ok as i32);
}

#[tokio::test]
async fn frames_that_break_the_numbering_are_refused_or_dropped_and_other_seats_play_on() {
    let host = Host::start(fast_config()).await;
    let token = host.cluster_token.clone();
    let mut s = seats_stream(&host, Some(&token)).await.unwrap();
    s.send(vec![
        frame(0, Some(open_msg("t-0", 0, "expert")), false),
        frame(5, Some(request("t-5", 0)), false),
        frame(6, Some(open_msg("t-6", 0, "expert")), false),
        // Below the highest number seen and never opened: a late frame, dropped.
        frame(4, Some(open_msg("t-4", 0, "expert")), false),
        frame(7, Some(open_msg("", 0, "expert")), false),
    ])
    .await;
    let zero = s.end(0).await;
    assert_eq!(zero.code, Code::InvalidArgument as i32);
    assert!(zero.message.contains("number them from 1"), "{zero:?}");
    let no_open = s.end(5).await;
    assert_eq!(no_open.code, Code::InvalidArgument as i32);
    assert!(no_open.message.contains("must carry open"), "{no_open:?}");
    // A bad open is refused as on a `Seat` stream, naming the field.
    let bad = s.end(7).await;
    assert_eq!(bad.code, Code::InvalidArgument as i32);
    assert!(bad.message.contains("open.table_id"), "{bad:?}");
    assert_eq!(s.ready(6).await.bot, "expert");
    s.send(vec![frame(6, Some(close("t-6")), true)]).await;
    assert_eq!(s.end(6).await.code, Code::Ok as i32);
    assert!(
        s.got.iter().all(|f| f.seat_stream != 4),
        "nothing was said about the late frame's seat: {:?}",
        s.got
    );
}

#[tokio::test]
async fn a_seats_stream_needs_the_cluster_token() {
    let host = Host::start(fast_config()).await;
    for token in [None, Some("not-the-cluster-token")] {
        let refused = match seats_stream(&host, token).await {
            Err(s) => s,
            Ok(mut s) => match within("a refusal", s.rx.message()).await {
                Err(status) => status,
                Ok(m) => panic!("a seats stream opened with {token:?}: {m:?}"),
            },
        };
        assert_eq!(refused.code(), Code::Unauthenticated, "{refused:?}");
    }
}

#[tokio::test]
async fn a_seat_sent_more_than_its_queue_holds_is_cut_off_and_the_others_play_on() {
    let host = Host::start(fast_config()).await;
    let token = host.cluster_token.clone();
    let mut s = seats_stream(&host, Some(&token)).await.unwrap();
    s.send(vec![
        frame(1, Some(open_msg("t-flood", first(), "expert")), false),
        frame(2, Some(open_msg("t-calm", first(), "expert")), false),
    ])
    .await;
    s.ready(1).await;
    s.ready(2).await;
    // A referee sends one request at a time; 40 at once, in one message, overflow the seat's
    // queue of 16 before its task can read any (the test's runtime has one thread, and the
    // reader handles a message's frames in one go).
    let mut flood: Vec<_> = (0..40)
        .map(|i| frame(1, Some(request("t-flood", i)), false))
        .collect();
    flood.push(frame(2, Some(request("t-calm", 0)), false));
    s.send(flood).await;
    let cut = s.end(1).await;
    assert_eq!(cut.code, Code::ResourceExhausted as i32, "{cut:?}");
    assert!(
        cut.message.contains("seat stream 1") && cut.message.contains("16 of its messages"),
        "{cut:?}"
    );
    assert_eq!(s.reply(2).await.request_id, 0, "the other seat answers");
    // The cut seat says nothing more (no reply to what was queued, no second end), whatever
    // else its referee sends.
    s.send(vec![frame(1, Some(request("t-flood", 40)), false)])
        .await;
    s.send(vec![frame(2, Some(close("t-calm")), true)]).await;
    assert_eq!(s.end(2).await.code, Code::Ok as i32);
    let after_cut: Vec<_> = s.got.iter().filter(|f| f.seat_stream == 1).collect();
    assert!(
        after_cut.is_empty(),
        "frames of the cut seat: {after_cut:?}"
    );
}
