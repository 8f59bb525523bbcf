//! The server around the services: health, reflection, message size, graceful shutdown.

mod common;

use std::time::Duration;

use arena_bot_host::BotHostConfig;
use arena_proto::v1;
use arena_proto::v1::seat_host_client::SeatHostClient;
use arena_store::prelude::*;
use common::*;
use tokio_stream::StreamExt;
use tonic::Code;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::v1::ServerReflectionRequest;
use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;

async fn channel(host: &Host) -> tonic::transport::Channel {
    tonic::transport::Endpoint::from_shared(host.url())
        .expect("a url")
        .connect()
        .await
        .expect("connects")
}

async fn health(host: &Host, service: &str) -> Result<i32, tonic::Status> {
    let mut client = HealthClient::new(channel(host).await);
    let r = client
        .check(HealthCheckRequest {
            service: service.into(),
        })
        .await?;
    Ok(r.into_inner().status)
}

#[tokio::test]
async fn health_reports_both_services_serving() {
    let host = Host::start(fast_config()).await;
    for service in ["", "arena.v1.BotGateway", "arena.v1.SeatHost"] {
        assert_eq!(
            health(&host, service).await.unwrap(),
            ServingStatus::Serving as i32,
            "{service:?}"
        );
    }
    let unknown = health(&host, "arena.v1.Nothing").await.unwrap_err();
    assert_eq!(unknown.code(), Code::NotFound);
}

#[tokio::test]
async fn reflection_lists_the_services() {
    let host = Host::start(fast_config()).await;
    let mut client = ServerReflectionClient::new(channel(&host).await);
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut responses = client
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .expect("reflection answers")
        .into_inner();
    let response = within("the service list", responses.next())
        .await
        .expect("a response")
        .expect("not an error");
    let Some(MessageResponse::ListServicesResponse(list)) = response.message_response else {
        panic!("expected a service list, got {response:?}");
    };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    for want in [
        "arena.v1.BotGateway",
        "arena.v1.SeatHost",
        "grpc.health.v1.Health",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} not in {names:?}");
    }
}

#[tokio::test]
async fn an_oversized_message_fails_with_a_status_not_a_panic() {
    let host = Host::start(BotHostConfig {
        max_message_bytes: 4096,
        ..fast_config()
    })
    .await;
    let mut seat = open_seat(&host, "t-big", 0, "expert").await;
    seat.ready().await;
    let game =
        ddz::Game::from_seed(ddz::GameConfig::competition(), 1, ddz::DealConstraint::NONE).unwrap();
    let mut req = request_for(&game, "t-big", 1);
    arena_games::ddz::convert::edit_observation(&mut req, |o| {
        o.legal = vec!["pass".to_string(); 5000];
    });
    seat.send(v1::referee_to_seat::Msg::Request(req)).await;
    let s = seat.error().await;
    assert!(
        matches!(s.code(), Code::OutOfRange | Code::ResourceExhausted),
        "{s:?}"
    );
    // The server is still fine.
    let mut other = open_seat(&host, "t-small", 0, "expert").await;
    other.ready().await;
}

#[tokio::test]
async fn shutdown_lets_tables_finish_then_faults_the_rest_and_clears_presence() {
    let mut host = Host::start(BotHostConfig {
        keepalive: Duration::from_secs(5),
        shutdown_grace: Duration::from_secs(3),
        ..fast_config()
    })
    .await;
    let token = host.add_remote("alice", 0).await;
    let (mut bot, _) = connect(&host, &token, "alice", 2, "").await;
    let mut remote_seat = open_seat(&host, "t-remote", 0, "alice").await;
    remote_seat.ready().await;
    assert!(matches!(
        next_to_bot(&mut bot.rx).await,
        Some(v1::host_to_bot::Msg::Start(_))
    ));
    let mut quick = open_seat(&host, "t-quick", 2, "expert").await;
    quick.ready().await;
    within("presence", async {
        while host.store.presence("alice").await.unwrap().is_empty() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;

    // A health watch never ends by itself; it must not hold the shutdown up.
    let mut watcher = HealthClient::new(channel(&host).await);
    let mut watch = watcher
        .watch(HealthCheckRequest {
            service: "arena.v1.SeatHost".into(),
        })
        .await
        .expect("a health watch")
        .into_inner();
    let first = within("the first health status", watch.message()).await;
    assert_eq!(
        first.unwrap().unwrap().status,
        ServingStatus::Serving as i32
    );

    host.begin_shutdown();
    // Connected bots are told.
    match next_to_bot(&mut bot.rx).await {
        Some(v1::host_to_bot::Msg::Notice(n)) => {
            assert!(n.message.contains("shutting down"), "{}", n.message)
        }
        other => panic!("expected a notice, got {other:?}"),
    }
    // Nothing new starts: the listener is closed (or, on a connection made before, new
    // streams are refused).
    if let Ok(mut client) = SeatHostClient::connect(host.url()).await {
        let (tx, rx) = tokio::sync::mpsc::channel(1);
        tx.send(open_msg("t-new", 0, "expert")).await.unwrap();
        let refused = match client
            .seat(tokio_stream::wrappers::ReceiverStream::new(rx))
            .await
        {
            Err(s) => s,
            Ok(r) => match within("a refusal", r.into_inner().message()).await {
                Err(s) => s,
                Ok(m) => panic!("a new seat was accepted during shutdown: {m:?}"),
            },
        };
        assert_eq!(refused.code(), Code::Unavailable, "{refused:?}");
    }
    // A table in flight finishes normally within the shutdown grace.
    let (game, _) = referee_game(5, &mut [None, None, Some(&mut quick)]).await;
    quick.close(Some(outcome_of(&game))).await;
    quick.ended().await;
    // The one that does not finish is faulted when the grace runs out.
    let fault = remote_seat.fault().await;
    assert_eq!(fault.kind, v1::VerdictKind::Disconnected as i32);
    assert!(fault.reason.contains("shutting down"), "{}", fault.reason);
    remote_seat.ended().await;
    // The bot's stream ends with UNAVAILABLE.
    let status = loop {
        match within("the bot's stream to end", bot.rx.message()).await {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("the bot's stream ended without a status"),
            Err(s) => break s,
        }
    };
    assert_status(&status, Code::Unavailable, "shutting down");
    let next = within("the health watch", watch.message()).await;
    assert_eq!(
        next.unwrap().unwrap().status,
        ServingStatus::NotServing as i32
    );
    host.stopped().await.expect("a clean stop");
    assert!(host.store.presence("alice").await.unwrap().is_empty());
}
