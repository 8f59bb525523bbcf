//! TLS on the bot port, with a certificate from a CA made in the test: a bot that trusts the CA
//! plays a table over `https://`; plain HTTP/2 and clients that do not trust the CA get nowhere;
//! failed logins over TLS still count against the peer's address; mutual TLS asks bots for a
//! certificate from the client CA; unusable files stop bot-host at bind, naming the file and flag.

mod common;

use std::sync::Arc;
use std::time::Duration;

use arena_bot_host::{BotHost, BotHostConfig};
use arena_proto::v1;
use arena_store::{EmbeddedStore, Store};
use arena_test_ca::{Leaf, TestCa};
use arena_tls::{KeyPairFiles, ServerTlsFiles, TlsFile};
use common::*;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::{Certificate, ClientTlsConfig, Identity};
use tonic::{Code, Request};

/// The bot port's TLS files as the `arena bot-host` flags name them.
fn tls_files(server: &Leaf, client_ca: Option<&TestCa>) -> ServerTlsFiles {
    ServerTlsFiles {
        identity: KeyPairFiles {
            cert: TlsFile::new("--tls-cert-file", &server.cert_file),
            key: TlsFile::new("--tls-key-file", &server.key_file),
        },
        client_ca: client_ca.map(|ca| TlsFile::new("--tls-client-ca-file", ca.cert_file())),
    }
}

/// A bot-host whose bot port serves TLS with a certificate for 127.0.0.1 from `ca`.
async fn tls_host(ca: &TestCa, config: BotHostConfig, client_ca: Option<&TestCa>) -> Host {
    let server = ca.server(&["127.0.0.1", "localhost"]);
    let mut host = Host::start(BotHostConfig {
        bot_tls: Some(tls_files(&server, client_ca)),
        ..config
    })
    .await;
    assert!(host.tls && host.url().starts_with("https://127.0.0.1:"));
    host.client_tls = Some(trusting(ca));
    host
}

fn trusting(ca: &TestCa) -> ClientTlsConfig {
    ClientTlsConfig::new().ca_certificate(Certificate::from_pem(ca.cert_pem()))
}

#[tokio::test]
async fn a_bot_trusting_the_ca_plays_a_whole_table_over_tls() {
    let ca = TestCa::new("arena bot-host test CA");
    let host = tls_host(&ca, fast_config(), None).await;
    let token = host.add_remote("alice", 0).await;
    let (conn, welcome) = connect(&host, &token, "alice", 1, "").await;
    assert_eq!(welcome.bot, "alice");
    let mut seen = spawn_bot(conn, vec![]);

    // The seat port stays plain: referees reach it as before.
    assert!(host.seat_url().starts_with("http://"));
    let mut seat = open_seat(&host, "t-tls", 2, "alice").await;
    assert_eq!(seat.ready().await.bot, "alice");
    let (game, asked) = referee_game(11, &mut [None, None, Some(&mut seat)]).await;
    assert!(asked >= 5, "the bot answered {asked} requests");
    seat.close(Some(outcome_of(&game))).await;
    seat.ended().await;
    let mut requests = 0;
    loop {
        match seen.recv().await {
            Some(v1::host_to_bot::Msg::Start(_)) => {}
            Some(v1::host_to_bot::Msg::Request(_)) => requests += 1,
            Some(v1::host_to_bot::Msg::End(e)) => {
                assert_eq!(e.table_id, "t-tls");
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(requests, asked);
}

#[tokio::test]
async fn plain_http_and_untrusting_clients_get_nowhere() {
    let ca = TestCa::new("arena bot-host test CA");
    let mut host = tls_host(&ca, fast_config(), None).await;
    let token = host.add_remote("alice", 0).await;

    // Plain HTTP/2 to the TLS port: the connection may open, but no call goes through.
    let plain = format!("http://{}", host.addr);
    match v1::bot_gateway_client::BotGatewayClient::connect(plain).await {
        Err(_) => {}
        Ok(mut client) => {
            let (tx, rx) = tokio::sync::mpsc::channel(4);
            tx.send(hello("alice", 1, "")).await.unwrap();
            let mut req = Request::new(ReceiverStream::new(rx));
            req.metadata_mut()
                .insert("authorization", format!("Bearer {token}").parse().unwrap());
            let result = within("a plain call to the TLS port", client.play(req)).await;
            assert!(result.is_err(), "a plain call was served: {result:?}");
        }
    }

    // TLS trusting only the system's roots, or another CA: the handshake fails.
    for client in [
        ClientTlsConfig::new().with_native_roots(),
        trusting(&TestCa::new("some other CA")),
    ] {
        host.client_tls = Some(client);
        let e = host.bot_client().await.expect_err("the handshake fails");
        let text = arena_tls::error_chain(&e);
        assert!(text.contains("certificate"), "{text}");
    }

    // bot-host keeps serving those who trust its CA.
    host.client_tls = Some(trusting(&ca));
    let (_conn, w) = connect(&host, &token, "alice", 1, "").await;
    assert_eq!(w.bot, "alice");
}

/// Calls `SeatHost.Seat` on the bot port with `token`: the access layer decides before any
/// routing, counting a wrong token against the caller's address.
async fn seat_call_on_the_bot_port(host: &Host, token: &str) -> tonic::Status {
    let mut endpoint = tonic::transport::Endpoint::from_shared(host.url()).unwrap();
    if let Some(tls) = &host.client_tls {
        endpoint = endpoint.tls_config(tls.clone()).unwrap();
    }
    let channel = endpoint.connect().await.expect("connects");
    let mut client = v1::seat_host_client::SeatHostClient::new(channel);
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    tx.send(open_msg("t", 0, "expert")).await.unwrap();
    let mut req = Request::new(ReceiverStream::new(rx));
    req.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    match within("the seat call", client.seat(req)).await {
        Err(s) => s,
        Ok(r) => panic!("a seat opened on the bot port: {r:?}"),
    }
}

/// The limiter counts failures by the peer's address, which over TLS tonic records inside its
/// TLS connection info: the gateway (bot tokens) and the access layer (other credentials) both
/// still find it, and share one count.
#[tokio::test]
async fn failed_logins_over_tls_are_limited_per_address() {
    let ca = TestCa::new("arena bot-host test CA");
    let host = tls_host(
        &ca,
        BotHostConfig {
            auth_failures: arena_bot_host::AuthFailureLimit {
                burst: 4,
                refill: Duration::from_secs(3600),
            },
            ..fast_config()
        },
        None,
    )
    .await;
    let token = host.add_remote("alice", 0).await;
    // Two wrong bot tokens (the gateway's count) and two wrong cluster tokens (the layer's).
    for _ in 0..2 {
        let s = refusal(&host, Some("guess"), vec![hello("alice", 1, "")]).await;
        assert_eq!(s.code(), Code::Unauthenticated, "{s:?}");
        let s = seat_call_on_the_bot_port(&host, "not-the-cluster-token").await;
        assert_eq!(s.code(), Code::Unauthenticated, "{s:?}");
    }
    // The burst is spent: both paths now refuse this address, even with the right token.
    let s = seat_call_on_the_bot_port(&host, "not-the-cluster-token").await;
    assert_status(&s, Code::ResourceExhausted, "too many failed");
    let s = refusal(&host, Some(&token), vec![hello("alice", 1, "")]).await;
    assert_status(&s, Code::ResourceExhausted, "retry in");
}

#[tokio::test]
async fn with_a_client_ca_bots_need_a_certificate_from_it() {
    let ca = TestCa::new("arena bot-host test CA");
    let bots_ca = TestCa::new("arena bots' CA");
    let mut host = tls_host(&ca, fast_config(), Some(&bots_ca)).await;
    let token = host.add_remote("alice", 0).await;

    // No client certificate, or one from another CA: no connection.
    let stranger = ca.client("alice");
    for client in [
        trusting(&ca),
        trusting(&ca).identity(Identity::from_pem(&stranger.cert_pem, &stranger.key_pem)),
    ] {
        host.client_tls = Some(client);
        let refused = match host.bot_client().await {
            Err(_) => true,
            // TLS 1.3 servers judge the client's certificate after the client has finished its
            // side of the handshake: the refusal then arrives with the first call.
            Ok(mut client) => {
                let (tx, rx) = tokio::sync::mpsc::channel(4);
                tx.send(hello("alice", 1, "")).await.unwrap();
                let mut req = Request::new(ReceiverStream::new(rx));
                req.metadata_mut()
                    .insert("authorization", format!("Bearer {token}").parse().unwrap());
                within("a call without a good certificate", client.play(req))
                    .await
                    .is_err()
            }
        };
        assert!(
            refused,
            "a bot without a certificate from the client CA got in"
        );
    }

    // A certificate from the client CA (and the token): in.
    let alice = bots_ca.client("alice");
    host.client_tls =
        Some(trusting(&ca).identity(Identity::from_pem(&alice.cert_pem, &alice.key_pem)));
    let (_conn, w) = connect(&host, &token, "alice", 1, "").await;
    assert_eq!(w.bot, "alice");
}

#[tokio::test]
async fn unusable_tls_files_stop_bot_host_at_bind_naming_file_and_flag() {
    let ca = TestCa::new("arena bot-host test CA");
    let server = ca.server(&["127.0.0.1"]);
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let missing = ca.dir().join("missing.key");
    let bind = |files: ServerTlsFiles| {
        let store = Arc::clone(&store);
        async move {
            BotHost::bind(
                BotHostConfig {
                    bot_tls: Some(files),
                    ..BotHostConfig::loopback()
                },
                store,
            )
            .await
            .expect_err("bind fails")
            .to_string()
        }
    };
    let mut files = tls_files(&server, None);
    files.identity.key.path = missing.clone();
    let e = bind(files).await;
    assert!(
        e.contains(&format!(
            "--tls-key-file {}: cannot read it",
            missing.display()
        )),
        "{e}"
    );
    let mut files = tls_files(&server, None);
    files.identity.cert.path = server.key_file.clone();
    let e = bind(files).await;
    assert!(
        e.contains("--tls-cert-file") && e.contains("holds no PEM certificate"),
        "{e}"
    );
    let mut files = tls_files(&server, Some(&ca));
    files.client_ca = Some(TlsFile::new("--tls-client-ca-file", &missing));
    let e = bind(files).await;
    assert!(e.contains("--tls-client-ca-file"), "{e}");
    // Nothing of the key is ever quoted.
    assert!(!e.contains(server.key_pem.lines().nth(1).unwrap()));
}
