//! Standalone boots in-process in one call, serves every role, and stops gracefully.

use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn standalone_boots_in_one_call_and_stops_gracefully() {
    let standalone = arena_integration::standalone().await;
    let running = &standalone.running;
    let dir = standalone.dir();
    assert!(running.operator_token_created);
    assert!(running.operator_token_path.starts_with(dir));
    let a = running.addrs;
    for addr in [a.referee, a.bot_host, a.seat, a.deal_library, a.matchmaker] {
        assert!(addr.ip().is_loopback() && addr.port() != 0, "{addr}");
        let mut health = HealthClient::new(standalone.channel(addr).await);
        let status = health
            .check(HealthCheckRequest::default())
            .await
            .unwrap()
            .into_inner()
            .status;
        assert_eq!(
            status,
            tonic_health::pb::health_check_response::ServingStatus::Serving as i32,
            "{addr}"
        );
    }
    // An operator call through the matchmaker: the token standalone made is accepted.
    let mut mm = standalone.matchmaker().await;
    let list = mm
        .list_competitions(arena_proto::v1::ListCompetitionsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert!(list.competitions.is_empty());
    assert!(running.describe().starts_with("arena standalone\n  store "));
    standalone.stop().await;
}
