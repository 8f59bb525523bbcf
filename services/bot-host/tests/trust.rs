//! bot-host as a hostile bot would try it: the seat port, one connection per bot across hosts,
//! revocation, capacity per table, a bot that floods without reading.

mod common;

use std::time::{Duration, Instant};

use arena_bot_host::BotHostConfig;
use arena_proto::v1;
use arena_proto::v1::seat_host_client::SeatHostClient;
use arena_store::prelude::*;
use common::*;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Code, Request};

/// Calls `SeatHost.Seat` at `url` with `token` and an open message; the status it ends with.
async fn seat_call(url: String, token: Option<&str>) -> tonic::Status {
    let mut client = SeatHostClient::connect(url).await.expect("connects");
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    tx.send(open_msg("t-1", 0, "expert")).await.unwrap();
    let mut req = Request::new(ReceiverStream::new(rx));
    if let Some(t) = token {
        req.metadata_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    match client.seat(req).await {
        Err(s) => s,
        Ok(r) => {
            let mut rx = r.into_inner();
            match rx.message().await {
                Err(s) => s,
                Ok(m) => panic!("the seat opened: {m:?}"),
            }
        }
    }
}

#[tokio::test]
async fn seats_open_only_on_the_seat_port_with_the_cluster_token() {
    let host = Host::start(fast_config()).await;
    let s = seat_call(host.seat_url(), None).await;
    assert_eq!(s.code(), Code::Unauthenticated, "{s:?}");
    let s = seat_call(host.seat_url(), Some("not-the-token")).await;
    assert_eq!(s.code(), Code::Unauthenticated, "{s:?}");
    let bot_token = host.add_remote("alice", 0).await;
    let s = seat_call(host.seat_url(), Some(&bot_token)).await;
    assert_eq!(
        s.code(),
        Code::Unauthenticated,
        "a bot token opens no seat: {s:?}"
    );
    // The bot port does not serve SeatHost at all, whatever the caller holds.
    let s = seat_call(host.url(), Some(&host.cluster_token)).await;
    assert_eq!(s.code(), Code::Unimplemented, "{s:?}");
    // With the token, on the seat port, a seat opens.
    let mut seat = open_seat(&host, "t-2", 0, "expert").await;
    seat.ready().await;
}

#[tokio::test]
async fn a_bot_connects_once_across_bot_hosts() {
    let a = Host::start(fast_config()).await;
    let b = Host::start_sharing(fast_config(), &a).await;
    let token = a.add_remote("alice", 0).await;
    let (_conn, _) = connect(&a, &token, "alice", 1, "").await;
    let s = refusal(&b, Some(&token), vec![hello("alice", 1, "")]).await;
    assert_eq!(s.code(), Code::AlreadyExists, "{s:?}");
    assert!(s.message().contains(&a.advertised), "names the host: {s:?}");
}

#[tokio::test]
async fn a_bot_whose_bot_host_died_gets_back_in_within_seconds() {
    let config = fast_config();
    let ttl = config.presence_ttl;
    let mut a = Host::start(config.clone()).await;
    let b = Host::start_sharing(config, &a).await;
    let token = a.add_remote("alice", 0).await;
    let (_conn, _) = connect(&a, &token, "alice", 1, "").await;
    a.kill();
    let died = Instant::now();
    // The dead host's presence blocks at most its TTL; poll for up to ten times that.
    loop {
        let mut c = play(&b, Some(&token), vec![hello("alice", 1, "")])
            .await
            .expect("the call is accepted");
        match within("an answer", c.rx.message()).await {
            Ok(Some(v1::HostToBot {
                msg: Some(v1::host_to_bot::Msg::Welcome(_)),
            })) => break,
            Err(s) if s.code() == Code::AlreadyExists => {
                assert!(
                    died.elapsed() < ttl * 10,
                    "still refused {:?} after the host died (ttl {ttl:?})",
                    died.elapsed()
                );
                tokio::time::sleep(ttl / 4).await;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

#[tokio::test]
async fn rotating_or_removing_a_bot_ends_its_session() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("alice", 0).await;
    let (mut conn, _) = connect(&host, &token, "alice", 1, "").await;
    let mut record = host.store.bot("alice").await.unwrap().unwrap();
    let (_, new_hash) = arena_auth::token::issue_token().unwrap();
    record.token_sha256 = Some(new_hash);
    assert!(host.store.update_bot(&record).await.unwrap());
    let status = ended_with(&mut conn).await;
    assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");
    assert!(status.message().contains("rotated"), "{status:?}");
    // The old token no longer connects.
    let s = refusal(&host, Some(&token), vec![hello("alice", 1, "")]).await;
    assert_eq!(s.code(), Code::Unauthenticated);

    let bobs = host.add_remote("bob", 0).await;
    let (mut conn, _) = connect(&host, &bobs, "bob", 1, "").await;
    assert!(host.store.remove_bot("bob").await.unwrap());
    let status = ended_with(&mut conn).await;
    assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");
    assert!(status.message().contains("removed"), "{status:?}");
}

/// Reads the bot's stream (skipping pings and notices) until it ends with a status.
async fn ended_with(conn: &mut BotConn) -> tonic::Status {
    within("the stream to end", async {
        loop {
            match conn.rx.message().await {
                Err(s) => return s,
                Ok(None) => panic!("the stream ended without a status"),
                Ok(Some(_)) => {}
            }
        }
    })
    .await
}

#[tokio::test]
async fn capacity_counts_tables_not_seats() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("alice", 0).await;
    let (_conn, _) = connect(&host, &token, "alice", 1, "").await;
    // Both farmer seats of one table: one table, so both are ready at once.
    let mut down = open_seat(&host, "pair-a", 1, "alice").await;
    let mut up = open_seat(&host, "pair-a", 2, "alice").await;
    down.ready().await;
    up.ready().await;
    // Another table waits for the slot.
    let mut other = open_seat(&host, "pair-b", 0, "alice").await;
    let early = tokio::time::timeout(Duration::from_millis(300), other.next()).await;
    assert!(early.is_err(), "a second table must wait: {early:?}");
    down.close(None).await;
    up.close(None).await;
    other.ready().await;
}

#[tokio::test]
async fn a_bot_that_floods_without_reading_is_cut_off_and_others_are_served() {
    let host = Host::start(BotHostConfig {
        max_queued_to_bot: 64,
        ..fast_config()
    })
    .await;
    let token = host.add_remote("flood", 0).await;
    let (mut flood, _) = connect(&host, &token, "flood", 1, "").await;
    // Replies to requests that were never sent: each earns a notice the bot never reads.
    let junk = v1::BotToHost {
        msg: Some(v1::bot_to_host::Msg::Reply(v1::DecisionReply {
            request_id: 7,
            table_id: "nowhere".into(),
            action: None,
        })),
    };
    let sender = flood.tx.clone();
    let pump = tokio::spawn(async move {
        for _ in 0..200_000 {
            if sender.send(junk.clone()).await.is_err() {
                return;
            }
        }
    });
    // Meanwhile another bot connects and plays.
    let polite = host.add_remote("polite", 0).await;
    let (conn, _) = connect(&host, &polite, "polite", 1, "").await;
    let _bot = spawn_bot(conn, Vec::new());
    let mut seat = open_seat(&host, "t-polite", 0, "polite").await;
    seat.ready().await;
    let _ = pump.await;
    let status = ended_with(&mut flood).await;
    assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
    assert!(status.message().contains("stopped reading"), "{status:?}");
}

#[tokio::test]
async fn names_from_bots_are_bounded() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("alice", 0).await;
    let mut h = hello("alice", 1, "");
    if let Some(v1::bot_to_host::Msg::Hello(x)) = &mut h.msg {
        x.release = "r".repeat(1000);
    }
    let s = refusal(&host, Some(&token), vec![h]).await;
    assert_eq!(s.code(), Code::InvalidArgument);
    assert!(s.message().contains("hello.release"), "{s:?}");
    let s = refusal(&host, Some(&token), vec![hello("alice", 1_000_000, "")]).await;
    assert_eq!(s.code(), Code::InvalidArgument);
    assert!(s.message().contains("hello.capacity"), "{s:?}");
}
