//! Standalone boots in-process in one call, serves every role, and stops gracefully.

use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn standalone_boots_in_one_call_and_stops_gracefully() {
    let dir = tempfile::tempdir().unwrap();
    let running =
        arena::standalone::start(arena::standalone::StandaloneConfig::loopback(dir.path()))
            .await
            .unwrap();
    assert!(running.operator_token_created);
    assert!(running.operator_token_path.starts_with(dir.path()));
    let a = running.addrs;
    for addr in [a.referee, a.bot_host, a.seat, a.deal_library, a.matchmaker] {
        assert!(addr.ip().is_loopback() && addr.port() != 0, "{addr}");
        let channel = tonic::transport::Channel::from_shared(format!("http://{addr}"))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut health = HealthClient::new(channel);
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
    let channel = tonic::transport::Channel::from_shared(format!("http://{}", a.matchmaker))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let token: tonic::metadata::MetadataValue<_> =
        format!("Bearer {}", running.operator_token.expose())
            .parse()
            .unwrap();
    let mut mm = arena_proto::v1::matchmaker_client::MatchmakerClient::with_interceptor(
        channel,
        move |mut req: tonic::Request<()>| {
            req.metadata_mut().insert("authorization", token.clone());
            Ok(req)
        },
    );
    let list = mm
        .list_competitions(arena_proto::v1::ListCompetitionsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert!(list.competitions.is_empty());
    assert!(running.describe().contains("arena standalone: store"));
    running.stop().await.unwrap();
}
