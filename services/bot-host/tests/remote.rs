//! Remote bots over `BotGateway.Play`, seated through `SeatHost.Seat`.

mod common;

use std::time::Duration;

use arena_bot_host::BotHostConfig;
use arena_proto::v1;
use arena_store::prelude::*;
use common::*;
use tonic::Code;

#[tokio::test]
async fn a_remote_bot_authenticates_and_plays_a_whole_table_through_a_seat_stream() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("alice", 0).await;
    let (conn, welcome) = connect(&host, &token, "alice", 2, "").await;
    assert_eq!(welcome.bot, "alice");
    assert!(!welcome.session.is_empty());
    assert_eq!(welcome.grace_ms, 3000);
    assert_eq!(welcome.keepalive_ms, 500);
    assert!(welcome.resumed.is_empty());
    let mut seen = spawn_bot(conn, vec![]);

    let mut seat = open_seat(&host, "t-1", 1, "alice").await;
    let ready = seat.ready().await;
    assert_eq!(ready.bot, "alice");
    assert_eq!(ready.release, "2026.1");
    assert_eq!(ready.host, host.advertised);
    match seen.recv().await {
        Some(v1::host_to_bot::Msg::Start(s)) => {
            assert_eq!((s.table_id.as_str(), s.seat), ("t-1", 1));
            assert_eq!(s.game, "ddz".to_string());
            assert_eq!(s.time.map(|t| t.hard_cap_ms), Some(5000));
        }
        other => panic!("expected a table start, got {other:?}"),
    }
    let (game, asked) = referee_game(7, &mut [None, Some(&mut seat), None]).await;
    assert!(asked >= 5, "the bot answered {asked} requests");
    seat.close(Some(outcome_of(&game))).await;
    seat.ended().await;
    // The bot saw every request, then the end of its table with the outcome.
    let mut requests = 0;
    loop {
        match seen.recv().await {
            Some(v1::host_to_bot::Msg::Request(r)) => {
                assert_eq!((r.table_id.as_str(), r.seat), ("t-1", 1));
                requests += 1;
            }
            Some(v1::host_to_bot::Msg::End(e)) => {
                assert_eq!((e.table_id.as_str(), e.seat), ("t-1", 1));
                let scores = e.outcome.expect("an outcome").scores;
                assert_eq!(scores, outcome_of(&game).scores);
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(requests, asked);
}

#[tokio::test]
async fn a_missing_or_wrong_token_is_unauthenticated() {
    let host = Host::start(fast_config()).await;
    host.add_remote("alice", 0).await;
    let s = refusal(&host, None, vec![hello("alice", 1, "")]).await;
    assert_status(&s, Code::Unauthenticated, "authorization");
    let s = refusal(&host, Some("not-a-token"), vec![hello("alice", 1, "")]).await;
    assert_status(
        &s,
        Code::Unauthenticated,
        "do not match a registered remote bot",
    );
}

/// Whatever is wrong (a wrong token, another bot's token, an unknown bot, a program bot), the
/// answer is the same, so a bot cannot learn which names are registered; a token still plays
/// as its own bot.
#[tokio::test]
async fn every_failed_login_gets_one_answer_so_names_cannot_be_probed() {
    let host = Host::start(fast_config()).await;
    let alices = host.add_remote("alice", 0).await;
    let bobs = host.add_remote("bob", 0).await;
    host.add_program("zq-prog", "python3 bot.py".into(), None, 0, 0)
        .await;
    let mut answers = Vec::new();
    for (token, bot) in [
        ("not-a-token", "alice"),
        (bobs.as_str(), "alice"),
        (alices.as_str(), "mallory"),
        (alices.as_str(), "zq-prog"),
        ("unknown", "zq-prog"),
    ] {
        let s = refusal(&host, Some(token), vec![hello(bot, 1, "")]).await;
        assert!(
            !s.message().contains(bot),
            "the answer does not echo the name {bot:?}: {s:?}"
        );
        answers.push((s.code(), s.message().to_string()));
    }
    assert!(
        answers.windows(2).all(|w| w[0] == w[1]),
        "one answer for every failure: {answers:?}"
    );
    assert_eq!(answers[0].0, Code::Unauthenticated);
    let (_conn, w) = connect(&host, &bobs, "bob", 1, "").await;
    assert_eq!(w.bot, "bob");
}

/// Guessing tokens is slowed per address: after a burst of failures even the right token waits.
#[tokio::test]
async fn failed_logins_are_limited_per_address() {
    let host = Host::start(BotHostConfig {
        auth_failures: arena_bot_host::AuthFailureLimit {
            burst: 3,
            refill: Duration::from_secs(3600),
        },
        ..fast_config()
    })
    .await;
    let token = host.add_remote("alice", 0).await;
    for _ in 0..3 {
        let s = refusal(&host, Some("guess"), vec![hello("alice", 1, "")]).await;
        assert_eq!(s.code(), Code::Unauthenticated, "{s:?}");
    }
    let s = refusal(&host, Some("guess"), vec![hello("alice", 1, "")]).await;
    assert_status(&s, Code::ResourceExhausted, "too many failed");
    let s = refusal(&host, Some(&token), vec![hello("alice", 1, "")]).await;
    assert_status(&s, Code::ResourceExhausted, "retry in");
}

#[tokio::test]
async fn unknown_bots_are_refused_to_referees_with_their_name() {
    let host = Host::start(fast_config()).await;
    let mut seat = seat_stream(&host, vec![open_msg("t", 0, "mallory")])
        .await
        .unwrap();
    let s = seat.error().await;
    assert_status(&s, Code::NotFound, "open.bot \"mallory\"");
}

#[tokio::test]
async fn malformed_bot_messages_get_a_status_or_a_notice() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("alice", 0).await;
    let early_reply = v1::BotToHost {
        msg: Some(v1::bot_to_host::Msg::Reply(v1::DecisionReply {
            request_id: 1,
            table_id: "t".into(),
            action: None,
        })),
    };
    let s = refusal(&host, Some(&token), vec![early_reply.clone()]).await;
    assert_status(
        &s,
        Code::InvalidArgument,
        "first message must be a hello, got a reply",
    );
    let s = refusal(&host, Some(&token), vec![hello("alice", 0, "")]).await;
    assert_status(&s, Code::InvalidArgument, "hello.capacity");
    let s = refusal(&host, Some(&token), vec![hello("", 1, "")]).await;
    assert_status(&s, Code::InvalidArgument, "hello.bot is empty");
    // A release that reorders or hides text on screen (display spoofing) is refused, naming
    // the character.
    for (c, release) in [('\u{202E}', "1.0\u{202E}0.2"), ('\u{200B}', "v\u{200B}2")] {
        let mut spoof = hello("alice", 1, "");
        if let Some(v1::bot_to_host::Msg::Hello(h)) = spoof.msg.as_mut() {
            h.release = release.into();
        }
        let s = refusal(&host, Some(&token), vec![spoof]).await;
        assert_status(
            &s,
            Code::InvalidArgument,
            &format!(
                "hello.release contains an invisible format character (U+{:04X}",
                u32::from(c)
            ),
        );
    }
    let s = refusal(&host, Some(&token), vec![v1::BotToHost { msg: None }]).await;
    assert_status(&s, Code::InvalidArgument, "empty message");

    // After the welcome, a reply to nothing gets a notice and the stream goes on.
    let (mut conn, welcome) = connect(&host, &token, "alice", 1, "").await;
    conn.tx.send(early_reply).await.unwrap();
    match next_to_bot(&mut conn.rx).await {
        Some(v1::host_to_bot::Msg::Notice(n)) => {
            assert_eq!((n.table_id.as_str(), n.request_id), ("t", 1));
            assert!(n.message.contains("no pending request 1"), "{}", n.message);
        }
        other => panic!("expected a notice, got {other:?}"),
    }
    conn.tx.send(hello("alice", 1, "")).await.unwrap();
    match next_to_bot(&mut conn.rx).await {
        Some(v1::host_to_bot::Msg::Notice(n)) => {
            assert!(n.message.contains("first message"), "{}", n.message)
        }
        other => panic!("expected a notice, got {other:?}"),
    }
    // Still connected: a second connection of the same bot is refused.
    let s = refusal(&host, Some(&token), vec![hello("alice", 1, "")]).await;
    assert_status(&s, Code::AlreadyExists, "already connected");
    // The refusal does not hand out the live session: with it, anyone could resume it.
    assert!(!welcome.session.is_empty());
    assert!(
        !s.message().contains(&welcome.session),
        "the refusal tells the live session id: {}",
        s.message()
    );
    // And the bot still plays.
    let mut seen = spawn_bot(conn, vec![]);
    let mut seat = open_seat(&host, "t-2", 0, "alice").await;
    seat.ready().await;
    assert!(matches!(
        seen.recv().await,
        Some(v1::host_to_bot::Msg::Start(_))
    ));
}

#[tokio::test]
async fn malformed_seat_messages_get_invalid_argument_naming_the_field() {
    let host = Host::start(fast_config()).await;
    let request_first = v1::RefereeToSeat {
        msg: Some(v1::referee_to_seat::Msg::Request(
            v1::DecisionRequest::default(),
        )),
    };
    let mut s = seat_stream(&host, vec![request_first]).await.unwrap();
    assert_status(
        &s.error().await,
        Code::InvalidArgument,
        "must be open, got a request",
    );
    let mut s = seat_stream(&host, vec![open_msg("t", 5, "expert")])
        .await
        .unwrap();
    assert_status(&s.error().await, Code::InvalidArgument, "open.seat is 5");
    let mut s = seat_stream(&host, vec![open_msg(" ", 0, "expert")])
        .await
        .unwrap();
    assert_status(
        &s.error().await,
        Code::InvalidArgument,
        "open.table_id is empty",
    );
    let mut s = seat_stream(&host, vec![open_msg("t", 0, "")])
        .await
        .unwrap();
    assert_status(&s.error().await, Code::InvalidArgument, "open.bot is empty");
    let mut s = seat_stream(&host, vec![open_msg("t", 0, "cmd:python3 x.py")])
        .await
        .unwrap();
    assert_status(
        &s.error().await,
        Code::InvalidArgument,
        "open.bot \"cmd:python3 x.py\"",
    );
    // A request for another seat of the table.
    let mut s = open_seat(&host, "t", 0, "expert").await;
    s.ready().await;
    let wrong = v1::DecisionRequest {
        request_id: 1,
        table_id: "t".into(),
        seat: 1,
        ..Default::default()
    };
    s.send(v1::referee_to_seat::Msg::Request(wrong)).await;
    assert_status(&s.error().await, Code::InvalidArgument, "request.seat 1");
}

#[tokio::test]
async fn a_bot_that_reconnects_within_the_grace_gets_its_pending_request_and_finishes_the_table() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("alice", 0).await;
    let (mut conn, welcome) = connect(&host, &token, "alice", 1, "").await;
    let mut seat = open_seat(&host, "t-r", 2, "alice").await;
    seat.ready().await;
    assert!(matches!(
        next_to_bot(&mut conn.rx).await,
        Some(v1::host_to_bot::Msg::Start(_))
    ));

    // Play the game; the bot drops its connection at its first request instead of answering.
    let mut game = ddz::Game::from_seed(
        ddz::GameConfig::competition(),
        11,
        ddz::DealConstraint::NONE,
    )
    .unwrap();
    let mut id = 0;
    while game.to_act() != Some(ddz::Seat::ALL[2]) {
        let seat_now = game.to_act().unwrap();
        let obs = game.observation(seat_now);
        let a = match obs.phase {
            ddz::Phase::Bidding => ddz::Action::Bid(0),
            _ => unreachable!("seat 2 bids in the first round"),
        };
        game.apply(a).unwrap();
    }
    id += 1;
    let req = request_for(&game, "t-r", id);
    seat.send(v1::referee_to_seat::Msg::Request(req.clone()))
        .await;
    match next_to_bot(&mut conn.rx).await {
        Some(v1::host_to_bot::Msg::Request(r)) => assert_eq!(r, req),
        other => panic!("expected the request, got {other:?}"),
    }
    drop(conn);

    let (conn, again) = connect(&host, &token, "alice", 1, &welcome.session).await;
    assert_eq!(again.session, welcome.session);
    assert_eq!(
        again.resumed,
        vec![req.clone()],
        "the pending request comes back as a snapshot"
    );
    let _seen = spawn_bot(conn, again.resumed.clone());
    let reply = match seat.next().await {
        Some(v1::seat_to_referee::Msg::Reply(r)) => r,
        other => panic!("expected the reply, got {other:?}"),
    };
    assert_eq!(reply.request_id, id);
    game.apply(to_action(&game, reply.action.as_ref().unwrap()))
        .unwrap();
    // The rest of the table.
    while let Some(s) = game.to_act() {
        id += 1;
        let a = if s.index() == 2 {
            seat.send(v1::referee_to_seat::Msg::Request(request_for(
                &game, "t-r", id,
            )))
            .await;
            match seat.next().await {
                Some(v1::seat_to_referee::Msg::Reply(r)) => {
                    assert_eq!(r.request_id, id);
                    to_action(&game, r.action.as_ref().unwrap())
                }
                other => panic!("expected a reply, got {other:?}"),
            }
        } else {
            let mut moves = ddz::MoveList::new();
            game.legal_moves(&mut moves);
            match game.observation(s).phase {
                ddz::Phase::Bidding => ddz::Action::Bid(0),
                ddz::Phase::Doubling => ddz::Action::Double(false),
                _ => ddz::Action::Play(moves[0]),
            }
        };
        game.apply(a).unwrap();
    }
    seat.close(Some(outcome_of(&game))).await;
    seat.ended().await;
}

#[tokio::test]
async fn a_bot_that_does_not_come_back_within_the_grace_faults_its_seats() {
    let host = Host::start(BotHostConfig {
        grace: Duration::from_millis(500),
        ..fast_config()
    })
    .await;
    let token = host.add_remote("alice", 0).await;
    let (conn, _) = connect(&host, &token, "alice", 1, "").await;
    let mut seat = open_seat(&host, "t-d", 0, "alice").await;
    seat.ready().await;
    let lost = tokio::time::Instant::now();
    drop(conn);
    let fault = seat.fault().await;
    assert_eq!(fault.kind, v1::VerdictKind::Disconnected as i32);
    assert!(fault.reason.contains("\"alice\""), "{}", fault.reason);
    assert!(
        fault.reason.contains("grace period of 500 ms"),
        "{}",
        fault.reason
    );
    assert!(
        lost.elapsed() >= Duration::from_millis(450),
        "faulted before the grace ran out"
    );
    seat.ended().await;

    // A seat for a registered bot that never connects waits the grace, then faults.
    host.add_remote("bob", 0).await;
    let mut seat = open_seat(&host, "t-e", 0, "bob").await;
    let fault = seat.fault().await;
    assert_eq!(fault.kind, v1::VerdictKind::Disconnected as i32);
    assert!(
        fault.reason.contains("\"bob\" is not connected"),
        "{}",
        fault.reason
    );
}

#[tokio::test]
async fn a_seat_waits_for_a_bot_that_connects_within_the_grace() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("alice", 0).await;
    let mut seat = open_seat(&host, "t-w", 1, "alice").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (conn, _) = connect(&host, &token, "alice", 1, "").await;
    let _seen = spawn_bot(conn, vec![]);
    seat.ready().await;
    let (game, _) = referee_game(3, &mut [None, Some(&mut seat), None]).await;
    seat.close(Some(outcome_of(&game))).await;
    seat.ended().await;
}

#[tokio::test]
async fn a_bot_that_misses_its_keepalives_is_cut_off() {
    let host = Host::start(BotHostConfig {
        keepalive: Duration::from_millis(100),
        missed_keepalives: 3,
        ..fast_config()
    })
    .await;
    let token = host.add_remote("alice", 0).await;
    let (mut conn, _) = connect(&host, &token, "alice", 1, "").await;
    // Never answer the pings: after 3 × 100 ms the stream ends with UNAVAILABLE.
    let status = loop {
        match within("the cut-off", conn.rx.message()).await {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the stream ended without a status"),
            Err(s) => break s,
        }
    };
    assert_status(&status, Code::Unavailable, "keepalives");
}

#[tokio::test]
async fn capacity_is_honoured_and_a_waiting_seat_says_it_waits_until_it_gets_the_freed_slot() {
    let host = Host::start(fast_config()).await;
    // Capacity 3 in the hello, but the registration allows one table at a time.
    let token = host.add_remote("alice", 1).await;
    let (conn, _) = connect(&host, &token, "alice", 3, "").await;
    let mut seen = spawn_bot(conn, vec![]);
    let mut first = open_seat(&host, "t-a", 0, "alice").await;
    first.ready().await;
    let mut second = open_seat(&host, "t-b", 0, "alice").await;
    // A request sent while waiting is kept for later.
    let game =
        ddz::Game::from_seed(ddz::GameConfig::competition(), 5, ddz::DealConstraint::NONE).unwrap();
    let early = request_for(&game, "t-b", 1);
    second.send(v1::referee_to_seat::Msg::Request(early)).await;
    // It waits for the slot, and says so every keepalive interval (so the referee keeps
    // waiting too): twice before the first table ends.
    for _ in 0..2 {
        let waiting = second.waiting().await;
        assert!(
            waiting.reason.contains("a free slot of the bot") && waiting.reason.contains("alice"),
            "{}",
            waiting.reason
        );
    }
    match seen.recv().await {
        Some(v1::host_to_bot::Msg::Start(s)) => assert_eq!(s.table_id, "t-a"),
        other => panic!("{other:?}"),
    }
    first.close(None).await;
    first.ended().await;
    second.ready().await;
    match second.next().await {
        Some(v1::seat_to_referee::Msg::Reply(r)) => {
            assert_eq!((r.table_id.as_str(), r.request_id), ("t-b", 1))
        }
        other => panic!("expected the early request's reply, got {other:?}"),
    }
    let order: Vec<String> = std::iter::from_fn(|| seen.seen.try_recv().ok())
        .filter_map(|m| match m {
            v1::host_to_bot::Msg::Start(s) => Some(format!("start {}", s.table_id)),
            v1::host_to_bot::Msg::End(e) => Some(format!("end {}", e.table_id)),
            _ => None,
        })
        .collect();
    assert_eq!(order, ["end t-a", "start t-b"]);
}

#[tokio::test]
async fn presence_is_recorded_while_connected_and_cleared_after() {
    let host = Host::start(BotHostConfig {
        grace: Duration::from_millis(300),
        ..fast_config()
    })
    .await;
    let token = host.add_remote("alice", 0).await;
    assert!(host.store.presence("alice").await.unwrap().is_empty());
    let (conn, _) = connect(&host, &token, "alice", 1, "").await;
    let seen = spawn_bot(conn, vec![]);
    within("presence", async {
        while host.store.presence("alice").await.unwrap() != vec![host.advertised.clone()] {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    // Refreshed: still there after two TTLs (900 ms each).
    tokio::time::sleep(Duration::from_millis(2000)).await;
    assert_eq!(
        host.store.presence("alice").await.unwrap(),
        vec![host.advertised.clone()]
    );
    // The connection ends for good (no resume within the grace): cleared.
    seen.disconnect();
    within("presence cleared", async {
        while !host.store.presence("alice").await.unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
}

#[tokio::test]
async fn hello_games_that_name_no_game_are_invalid_argument_and_record_nothing() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("alice", 0).await;
    let s = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    for (games, needle) in [
        (s(&[""]), "hello.games[0] is empty"),
        (s(&["mahjong", ""]), "hello.games[1] is empty"),
        (
            s(&["mahjong", "chess"]),
            "hello.games[1]: no game \"chess\"",
        ),
    ] {
        let s = refusal(
            &host,
            Some(&token),
            vec![hello_listing("alice", 1, "", &games)],
        )
        .await;
        assert_status(&s, Code::InvalidArgument, needle);
    }
    // Nothing was recorded: the bot still plays what a bot that never connected plays.
    let record = host.store.bot("alice").await.unwrap().unwrap();
    assert_eq!(
        arena_store::bot_games::games_of(&*host.store, &record)
            .await
            .unwrap(),
        [arena_store::Game::named("ddz")]
    );
}

/// The games `bot` plays as the store says (what the ladder reads).
async fn recorded_games(host: &Host, bot: &str) -> Vec<arena_store::Game> {
    let record = host.store.bot(bot).await.unwrap().unwrap();
    arena_store::bot_games::games_of(&*host.store, &record)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_bot_is_seated_only_at_the_games_its_hello_lists() {
    use arena_store::Game as G;
    let host = Host::start(fast_config()).await;
    let mut bots = Vec::new();
    for (name, games) in [
        ("cards", vec![]),
        ("tiles", vec!["mahjong"]),
        ("both", vec!["ddz", "mahjong"]),
    ] {
        // Recorded at the hello, over what an earlier connection of the bot may have said.
        let token = host.add_remote(name, 0).await;
        arena_store::bot_games::put_remote_games(
            &*host.store,
            name,
            &[G::named("ddz"), G::named("mahjong")],
        )
        .await
        .unwrap();
        let (conn, _) = connect_listing(&host, &token, name, 2, "", &games).await;
        bots.push(spawn_bot(conn, vec![]));
    }
    assert_eq!(recorded_games(&host, "cards").await, [G::named("ddz")]);
    assert_eq!(recorded_games(&host, "tiles").await, [G::named("mahjong")]);
    assert_eq!(
        recorded_games(&host, "both").await,
        [G::named("ddz"), G::named("mahjong")]
    );

    // A seat at a game the bot did not list is refused at once as the bot's (no slot, no
    // table start), with the games it plays.
    for (bot, game, plays) in [("cards", "mahjong", "ddz"), ("tiles", "ddz", "mahjong")] {
        let table = format!("wrong-{bot}");
        let mut seat = open_game_seat(&host, game, &table, 0, bot).await;
        let fault = seat.fault().await;
        assert!(!fault.platform, "{fault:?}");
        assert_eq!(fault.kind(), v1::VerdictKind::Disconnected);
        for needle in [
            format!("bot {bot:?} plays only {plays}"),
            format!("this is a {game} table"),
            format!("lists {game} in hello.games"),
        ] {
            assert!(
                fault.reason.contains(&needle),
                "{needle:?}: {}",
                fault.reason
            );
        }
        seat.ended().await;
    }
    // Their own games' seats are theirs, and the refused tables were never started.
    for (i, (bot, game)) in [("cards", "ddz"), ("tiles", "mahjong")]
        .into_iter()
        .enumerate()
    {
        let table = format!("right-{bot}");
        let mut seat = open_game_seat(&host, game, &table, 1, bot).await;
        assert_eq!(seat.ready().await.bot, bot);
        match bots[i].recv().await {
            Some(v1::host_to_bot::Msg::Start(s)) => {
                assert_eq!(
                    (s.table_id.as_str(), s.game.as_str()),
                    (table.as_str(), game)
                );
            }
            other => panic!("{bot}: expected the start of {table}, got {other:?}"),
        }
        seat.close(None).await;
        seat.ended().await;
    }

    // A bot listing both games plays whole tables of both.
    let mut seat = open_seat(&host, "both-ddz", 2, "both").await;
    seat.ready().await;
    let (game, asked) = referee_game(11, &mut [None, None, Some(&mut seat)]).await;
    assert!(asked >= 5, "the bot answered {asked} Dou Dizhu requests");
    seat.close(Some(outcome_of(&game))).await;
    seat.ended().await;
    let (result, replay) = mahjong_hand(&host, "both", 2).await;
    assert!(result.error.is_empty(), "{}", result.error);
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    let own: Vec<&v1::ReplayStep> = replay.steps.iter().filter(|s| s.seat == 0).collect();
    assert!(
        own.len() >= 10,
        "the bot answered {} Mahjong requests",
        own.len()
    );
    assert!(own.iter().all(|s| !s.automatic));
}

#[tokio::test]
async fn a_seat_at_a_game_the_bot_does_not_play_is_its_verdict_and_the_table_plays_on() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("cards", 0).await;
    let (conn, _) = connect(&host, &token, "cards", 4, "").await;
    let mut seen = spawn_bot(conn, vec![]);
    // Through the referee: a verdict against the seat, which plays on automatically; the hand
    // ends with an outcome (a platform failure would have handed it back to be played again).
    let (result, replay) = mahjong_hand(&host, "cards", 1).await;
    assert!(result.error.is_empty(), "{}", result.error);
    assert!(result.outcome.is_some());
    let verdicts: Vec<&v1::Verdict> = result.verdicts.iter().collect();
    assert_eq!(verdicts.len(), 1, "{verdicts:?}");
    assert_eq!(
        (verdicts[0].seat, verdicts[0].kind()),
        (0, v1::VerdictKind::Disconnected)
    );
    assert!(
        verdicts[0].reason.contains("bot \"cards\" plays only ddz"),
        "{}",
        verdicts[0].reason
    );
    assert!(
        replay
            .steps
            .iter()
            .filter(|s| s.seat == 0)
            .all(|s| s.automatic)
    );
    // The bot heard nothing of the hand: its next message is the start of a table it plays.
    let mut seat = open_seat(&host, "t-ddz", 0, "cards").await;
    seat.ready().await;
    match seen.recv().await {
        Some(v1::host_to_bot::Msg::Start(s)) => assert_eq!(s.table_id, "t-ddz"),
        other => panic!("expected the start of t-ddz, got {other:?}"),
    }
}

#[tokio::test]
async fn a_draining_bot_finishes_its_tables_takes_no_new_one_and_its_stream_ends_ok() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("alice", 0).await;
    let (mut conn, welcome) = connect(&host, &token, "alice", 2, "").await;
    let mut seat = open_seat(&host, "t-a", 0, "alice").await;
    seat.ready().await;
    assert!(matches!(
        next_to_bot(&mut conn.rx).await,
        Some(v1::host_to_bot::Msg::Start(s)) if s.table_id == "t-a"
    ));
    conn.tx
        .send(v1::BotToHost {
            msg: Some(v1::bot_to_host::Msg::Drain(v1::Drain {})),
        })
        .await
        .unwrap();
    match next_to_bot(&mut conn.rx).await {
        Some(v1::host_to_bot::Msg::Notice(n)) => {
            assert!(n.message.contains("draining"), "{n:?}")
        }
        other => panic!("expected the draining notice, got {other:?}"),
    }
    // A table opened while the bot drains is not started for it, although a slot is free.
    let mut waiting = open_seat(&host, "t-b", 1, "alice").await;

    // The bot answers every request of the table in flight, and reads its stream to the end.
    let BotConn { tx, mut rx } = conn;
    let bot = tokio::spawn(async move {
        let mut seen = Vec::new();
        loop {
            match rx.message().await {
                Ok(Some(v1::HostToBot { msg: Some(msg) })) => {
                    let answer = match &msg {
                        v1::host_to_bot::Msg::Ping(p) => Some(v1::BotToHost {
                            msg: Some(v1::bot_to_host::Msg::Pong(v1::Pong { nonce: p.nonce })),
                        }),
                        v1::host_to_bot::Msg::Request(r) => Some(reply_to(r)),
                        _ => None,
                    };
                    if let Some(a) = answer {
                        let _ = tx.send(a).await;
                    }
                    seen.push(msg);
                }
                Ok(Some(_)) => {}
                Ok(None) => return (seen, Ok(())),
                Err(s) => return (seen, Err(s)),
            }
        }
    });
    let (game, asked) = referee_game(4, &mut [Some(&mut seat), None, None]).await;
    assert!(asked > 0);
    seat.close(Some(outcome_of(&game))).await;
    seat.ended().await;
    let (seen, end) = within("the end of the drained stream", bot).await.unwrap();
    end.expect("a drained stream ends with OK");
    let last = seen
        .iter()
        .rev()
        .find(|m| !matches!(m, v1::host_to_bot::Msg::Ping(_)));
    assert!(
        matches!(last, Some(v1::host_to_bot::Msg::End(e)) if e.table_id == "t-a"),
        "the table's end comes last: {seen:?}"
    );
    assert!(
        !seen
            .iter()
            .any(|m| matches!(m, v1::host_to_bot::Msg::Start(_))),
        "no table started while draining: {seen:?}"
    );
    within("presence cleared", async {
        while !host.store.presence("alice").await.unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;

    // The session is over: presenting it again starts a new one, which takes the waiting table.
    let (conn, again) = connect(&host, &token, "alice", 2, &welcome.session).await;
    assert_ne!(again.session, welcome.session);
    let _seen = spawn_bot(conn, vec![]);
    waiting.ready().await;
}

/// Connects `bot`, its `Hello` asking for incremental observations, and reads its `Welcome`.
async fn connect_incremental(
    host: &Host,
    token: &str,
    bot: &str,
    resume: &str,
) -> (BotConn, v1::Welcome) {
    let mut first = hello(bot, 2, resume);
    if let Some(v1::bot_to_host::Msg::Hello(h)) = &mut first.msg {
        h.incremental_observations = true;
    }
    let mut c = play(host, Some(token), vec![first])
        .await
        .expect("the call is accepted");
    match next_to_bot(&mut c.rx).await {
        Some(v1::host_to_bot::Msg::Welcome(w)) => (c, w),
        other => panic!("expected a welcome, got {other:?}"),
    }
}

/// The request the bot gets next (table starts skipped).
async fn next_request(conn: &mut BotConn) -> v1::DecisionRequest {
    loop {
        match next_to_bot(&mut conn.rx).await {
            Some(v1::host_to_bot::Msg::Request(r)) => return r,
            Some(v1::host_to_bot::Msg::Start(_)) => continue,
            other => panic!("expected a request, got {other:?}"),
        }
    }
}

#[tokio::test]
async fn bots_that_do_not_ask_get_every_request_byte_for_byte_and_those_that_do_get_increments() {
    use prost::Message;
    let host = Host::start(fast_config()).await;
    let old_token = host.add_remote("old", 0).await;
    let new_token = host.add_remote("new", 0).await;
    // Today's message shapes: a Hello that says nothing of increments.
    let (mut old, _) = connect(&host, &old_token, "old", 2, "").await;
    let (mut new, welcome) = connect_incremental(&host, &new_token, "new", "").await;
    let mut old_seat = open_seat(&host, "t-i", 0, "old").await;
    let mut new_seat = open_seat(&host, "t-i", 1, "new").await;
    old_seat.ready().await;
    new_seat.ready().await;

    let mut game =
        ddz::Game::from_seed(ddz::GameConfig::competition(), 5, ddz::DealConstraint::NONE).unwrap();
    let mut history = arena_proto::incremental::History::default();
    let (mut id, mut increments, mut resumed) = (0, 0, false);
    while let Some(s) = game.to_act() {
        id += 1;
        let full = request_for(&game, "t-i", id);
        let events = arena_proto::incremental::events_len(&full);
        let reply = match s.index() {
            0 => {
                old_seat
                    .send(v1::referee_to_seat::Msg::Request(full.clone()))
                    .await;
                let got = next_request(&mut old).await;
                assert_eq!(
                    got.encode_to_vec(),
                    full.encode_to_vec(),
                    "request {id}: a bot that did not ask gets the referee's request as it was"
                );
                old.tx.send(reply_to(&got)).await.unwrap();
                old_seat.next().await
            }
            1 => {
                new_seat
                    .send(v1::referee_to_seat::Msg::Request(full.clone()))
                    .await;
                let mut got = next_request(&mut new).await;
                if !resumed && events > 10 {
                    // The connection drops with this request unanswered: the resumed one gets
                    // it whole, and later increments continue from it.
                    drop(new);
                    let (again, w) =
                        connect_incremental(&host, &new_token, "new", &welcome.session).await;
                    new = again;
                    assert_eq!(w.resumed, vec![full.clone()], "a whole snapshot on resume");
                    got = w.resumed[0].clone();
                    resumed = true;
                }
                let o = got.observation.as_ref().expect("an observation");
                if o.events_from > 0 {
                    increments += 1;
                    assert!(o.events.len() < events, "request {id}: only the new events");
                }
                let got = history.rebuild(got).unwrap();
                assert_eq!(*got, full, "request {id}: rebuilt whole");
                new.tx.send(reply_to(&got)).await.unwrap();
                history.restore(got);
                new_seat.next().await
            }
            _ => {
                let mut moves = ddz::MoveList::new();
                game.legal_moves(&mut moves);
                let obs = game.observation(s);
                let a = match obs.phase {
                    // A call when nobody has called: the deal is never passed out.
                    ddz::Phase::Bidding => ddz::Action::Bid(u8::from(obs.bid == 0)),
                    ddz::Phase::Doubling => ddz::Action::Double(false),
                    _ => ddz::Action::Play(moves[0]),
                };
                game.apply(a).unwrap();
                continue;
            }
        };
        let Some(v1::seat_to_referee::Msg::Reply(r)) = reply else {
            panic!("expected the reply to request {id}, got {reply:?}");
        };
        assert_eq!(r.request_id, id);
        game.apply(to_action(&game, r.action.as_ref().unwrap()))
            .unwrap();
    }
    assert!(resumed, "the table was long enough to drop the connection");
    assert!(increments > 3, "only {increments} incremental requests");
    old_seat.close(Some(outcome_of(&game))).await;
    new_seat.close(Some(outcome_of(&game))).await;
}

#[tokio::test]
async fn a_seat_opened_again_keeps_the_table_for_the_bot_when_the_stream_it_replaced_ends() {
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("carol", 0).await;
    let (mut bot, _) = connect_incremental(&host, &token, "carol", "").await;
    // A referee that gave up waiting on its first stream opens the seat again on a second.
    let mut first = open_seat(&host, "t-again", 0, "carol").await;
    first.ready().await;
    let mut second = open_seat(&host, "t-again", 0, "carol").await;
    second.ready().await;
    let game =
        ddz::Game::from_seed(ddz::GameConfig::competition(), 3, ddz::DealConstraint::NONE).unwrap();
    let mut req = request_for(&game, "t-again", 1);
    req.seat = 0;
    first
        .send(v1::referee_to_seat::Msg::Request(req.clone()))
        .await;
    assert_eq!(next_request(&mut bot).await.request_id, 1);
    // The same request on the new stream, and the old stream's end.
    second
        .send(v1::referee_to_seat::Msg::Request(req.clone()))
        .await;
    assert_eq!(next_request(&mut bot).await.request_id, 1);
    first.close(None).await;
    first.ended().await;
    // No end of the table for the bot: the new stream's request is what comes next, and the
    // answer reaches the new stream.
    let mut later = req.clone();
    later.request_id = 2;
    second
        .send(v1::referee_to_seat::Msg::Request(later.clone()))
        .await;
    let got = next_request(&mut bot).await;
    assert_eq!(got.request_id, 2, "{got:?}");
    bot.tx.send(reply_to(&req)).await.unwrap();
    match second.next().await {
        Some(v1::seat_to_referee::Msg::Reply(r)) => assert_eq!(r.request_id, 1),
        other => panic!("expected the reply on the new stream, got {other:?}"),
    }
    second.close(None).await;
    second.ended().await;
    match next_to_bot(&mut bot.rx).await {
        Some(v1::host_to_bot::Msg::End(e)) => assert_eq!(e.table_id, "t-again"),
        other => panic!("expected the table's end, got {other:?}"),
    }
}

#[tokio::test]
async fn a_table_played_twice_at_once_sends_each_stream_what_the_bot_can_rebuild() {
    use prost::Message;
    let host = Host::start(fast_config()).await;
    let token = host.add_remote("dora", 0).await;
    let (mut bot, _) = connect_incremental(&host, &token, "dora", "").await;
    // A run that has not noticed its table was redelivered plays on beside the new run: two
    // streams for one seat, each sending its own game's requests, cut to the events since its
    // own previous request as a referee cuts them.
    let mut old_run = open_seat(&host, "t-twice", 0, "dora").await;
    assert!(old_run.ready().await.incremental_observations);
    // The events each run's stream carried.
    let mut carried = [0usize; 2];
    let game =
        ddz::Game::from_seed(ddz::GameConfig::competition(), 7, ddz::DealConstraint::NONE).unwrap();
    let mut old_game = game.clone();
    let mut new_game = game;
    // The bot keys one history per (table, seat), as the SDKs do.
    let mut history = arena_proto::incremental::History::default();
    let mut new_run = None;
    let (mut id_old, mut id_new, mut checked) = (0, 0, 0);
    // The runs play the first legal move for whoever is to act, but open the bidding with
    // different bids: their events differ, as two runs of one table may.
    let step = |g: &mut ddz::Game, which: usize| {
        let mut moves = ddz::MoveList::new();
        g.legal_moves(&mut moves);
        let obs = g.observation(g.to_act().unwrap());
        let a = match obs.phase {
            ddz::Phase::Bidding => {
                ddz::Action::Bid(u8::from(obs.bid == 0) * (1 + u8::from(which == 1)))
            }
            ddz::Phase::Doubling => ddz::Action::Double(false),
            _ => ddz::Action::Play(moves[0]),
        };
        g.apply(a).unwrap();
    };
    while old_game.to_act().is_some() || new_game.to_act().is_some() {
        // The old run goes first; the new one starts once the old is some way in.
        for which in [0, 1] {
            let (game, id, seat) = match which {
                0 => (&mut old_game, &mut id_old, &mut old_run),
                _ => {
                    if new_run.is_none() && id_old > 12 {
                        let mut s = open_seat(&host, "t-twice", 0, "dora").await;
                        s.ready().await;
                        new_run = Some(s);
                    }
                    let Some(s) = new_run.as_mut() else { continue };
                    (&mut new_game, &mut id_new, s)
                }
            };
            let Some(s) = game.to_act() else { continue };
            if s.index() != 0 {
                step(game, which);
                continue;
            }
            *id += 1;
            let full = request_for(game, "t-twice", *id);
            let mut cut = full.clone();
            let mut events = arena_proto::incremental::SeatEvents::default();
            let through = events.absorb(&mut cut).unwrap();
            events.fill(&mut cut, carried[which], through);
            carried[which] = through;
            seat.send(v1::referee_to_seat::Msg::Request(cut)).await;
            let got = next_request(&mut bot).await;
            let sent = got.encoded_len();
            let got = history
                .rebuild(got)
                .unwrap_or_else(|e| panic!("run {which}, request {id}: {e}"));
            assert_eq!(*got, full, "run {which}, request {id}: rebuilt whole");
            assert!(sent <= full.encoded_len());
            checked += 1;
            bot.tx.send(reply_to(&got)).await.unwrap();
            history.restore(got);
            match seat.next().await {
                Some(v1::seat_to_referee::Msg::Reply(r)) => assert_eq!(r.request_id, *id),
                other => panic!("expected the reply on run {which}'s stream, got {other:?}"),
            }
            step(game, which);
        }
    }
    assert!(new_run.is_some(), "the second run started");
    assert!(checked > 20, "only {checked} requests");
}
