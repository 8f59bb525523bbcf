//! The example bot over TLS: bot-host's bot port serves `https://` with a certificate from a CA
//! made in the test; three example bots trusting that CA (one through `ARENA_CA_FILE`, as the
//! binary would, two through [`Options::tls`]) play a table a referee runs from the job queue.
//! A bot that does not trust the CA, or gives TLS files with an `http://` URL, is told why.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_auth::token::issue_token;
use arena_bot_host::{BotHost, BotHostConfig};
use arena_example_remote_bot::{Options, play, play_with};
use arena_proto::v1;
use arena_referee::RefereeConfig;
use arena_store::{BotKind, BotRecord, EmbeddedStore, Store};
use arena_test_ca::TestCa;
use arena_tls::{ClientTlsFiles, KeyPairFiles, ServerTlsFiles, TlsFile};
use prost::Message;

const CLUSTER_TOKEN: &str = "test-cluster-token";
const BOTS: [&str; 3] = ["north", "east", "west"];

fn job() -> v1::TableJob {
    v1::TableJob {
        table_id: "tls/t1".into(),
        game: "ddz".into(),
        seats: BOTS
            .iter()
            .map(|b| v1::SeatSpec { bot: (*b).into() })
            .collect(),
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            deal: ddz::Deal::generate(5, 1).to_string(),
            rules: "competition".into(),
            landlord: Some(ddz_pb::setup::Landlord::FixedLandlord(0)),
            fixed_bid: 1,
            doubling: false,
            scoring: "competition".into(),
            ..Default::default()
        })),
        time: Some(v1::TimeControl {
            decision_ms: 2000,
            hard_cap_ms: 10_000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: 1,
        competition: "tls".into(),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn example_bots_over_https_trusting_the_test_ca_play_a_table() {
    let ca = TestCa::new("arena example test CA");
    // SAFETY: set before any other thread runs; this binary holds only this test.
    unsafe { std::env::set_var("ARENA_CA_FILE", ca.cert_file()) };

    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let mut tokens = Vec::new();
    for name in BOTS {
        let (token, hash) = issue_token().unwrap();
        let record = BotRecord {
            name: name.into(),
            kind: BotKind::Remote,
            token_sha256: Some(hash),
            max_tables: 0,
            created_unix_ms: 0,
            decision_ms: 0,
            later_decision_ms: 0,
        };
        assert!(store.add_bot(&record).await.unwrap());
        tokens.push(token);
    }
    let server = ca.server(&["localhost", "127.0.0.1"]);
    let host = BotHost::bind(
        BotHostConfig {
            cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
            bot_tls: Some(ServerTlsFiles {
                identity: KeyPairFiles {
                    cert: TlsFile::new("--tls-cert-file", &server.cert_file),
                    key: TlsFile::new("--tls-key-file", &server.key_file),
                },
                client_ca: None,
            }),
            ..BotHostConfig::loopback()
        },
        store.clone(),
    )
    .await
    .unwrap();
    // By name, as bots outside would dial it.
    let url = format!("https://localhost:{}", host.local_addr().port());
    let seat_url = host.advertised().to_string();
    let (host_stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let host_task = tokio::spawn(host.run(async {
        let _ = stopped.await;
    }));

    // Not trusting the CA (the system's roots only): refused, saying why.
    let e = play_with(&url, "north", &tokens[0], &Options::default())
        .await
        .expect_err("bot-host's CA is not trusted");
    assert!(format!("{e:#}").contains("certificate"), "{e:#}");
    // TLS files with a plain URL would go unused: refused.
    let trusting = ClientTlsFiles {
        ca: Some(TlsFile::new("ca_file", ca.cert_file())),
        identity: None,
    };
    let plain = format!("http://{}", url.trim_start_matches("https://"));
    let e = play_with(
        &plain,
        "north",
        &tokens[0],
        &Options {
            tls: trusting.clone(),
            ..Options::default()
        },
    )
    .await
    .expect_err("TLS files with http://");
    assert!(format!("{e:#}").contains("is not https://"), "{e:#}");

    // The table: one bot as the binary plays (ARENA_CA_FILE), two with explicit options.
    let one_table = Options {
        tables: 1,
        tls: trusting,
        ..Options::default()
    };
    let mut bots = Vec::new();
    for (i, (name, token)) in BOTS.iter().zip(&tokens).enumerate() {
        let (url, name, token, options) = (
            url.clone(),
            name.to_string(),
            token.clone(),
            one_table.clone(),
        );
        bots.push(tokio::spawn(async move {
            if i == 0 {
                play(&url, &name, &token, 1, 1).await
            } else {
                play_with(&url, &name, &token, &options).await
            }
        }));
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (referee_stop, referee_stopped) = tokio::sync::oneshot::channel::<()>();
    let referee_store = store.clone();
    let referee = tokio::spawn(async move {
        let cfg = RefereeConfig {
            referee_id: "tls-referee".into(),
            cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
            bot_hosts: vec![seat_url],
            poll_interval: Duration::from_millis(50),
            shutdown_grace: Duration::from_secs(2),
            ..RefereeConfig::default()
        };
        arena_referee::serve_with_listener(listener, cfg, referee_store, async {
            let _ = referee_stopped.await;
        })
        .await
        .unwrap();
    });
    let j = job();
    store
        .enqueue_job(&j.table_id, &arena_table::queue::encode_table_job(&j))
        .await
        .unwrap();

    // Each bot returns once its one table has ended.
    for (name, bot) in BOTS.iter().zip(bots) {
        let session = tokio::time::timeout(Duration::from_secs(60), bot)
            .await
            .unwrap_or_else(|_| panic!("{name} did not finish its table"))
            .unwrap()
            .unwrap_or_else(|e| panic!("{name}: {e:#}"));
        assert_eq!(session.tables, 1, "{name}");
        assert!(session.answered > 0, "{name} answered nothing");
    }
    // The referee writes the result as it ends the table.
    let start = Instant::now();
    let result = loop {
        if let Some((_, bytes)) = store
            .results_for("tls")
            .await
            .unwrap()
            .into_iter()
            .find(|(id, _)| id == "tls/t1")
        {
            break v1::TableResult::decode(bytes.as_slice()).unwrap();
        }
        assert!(start.elapsed() < Duration::from_secs(20), "no result");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(result.error.is_empty(), "{}", result.error);
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert!(result.outcome.is_some());

    let _ = referee_stop.send(());
    referee.await.unwrap();
    let _ = host_stop.send(());
    host_task.await.unwrap().unwrap();
}
