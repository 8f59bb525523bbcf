//! Incremental observations on real tables: the referee's table driver, bot-host and SDK bots
//! over loopback gRPC. The same tables are played by bots that ask for incremental
//! observations and by bots that do not (whose requests are the referee's whole ones, as today's
//! bots get them); at every decision of every table the observation the SDK rebuilt for the bot
//! equals the whole one, while far fewer bytes came over the wire.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena_auth::token::issue_token;
use arena_bot_host::{BotHost, BotHostConfig};
use arena_proto::v1;
use arena_sdk::Bot;
use arena_sdk::ddz::pb as ddz_pb;
use arena_sdk::mahjong::pb as mahjong_pb;
use arena_store::{BotKind, BotRecord, EmbeddedStore, Store};
use arena_table::{BotHosts, RunOptions, run::Played};

const CLUSTER_TOKEN: &str = "incremental-test-token";

/// Makes the job of a table: its id, seed and the bots (the first three for Dou Dizhu).
type MakeJob = fn(&str, u64, &[String]) -> v1::TableJob;

/// (table id, request id) → the request as the bot's code saw it.
type Seen = Arc<Mutex<BTreeMap<(String, u64), v1::DecisionRequest>>>;

/// The example bot of either game, keeping every request it is handed.
struct Recording {
    example: Box<dyn Bot>,
    seen: Seen,
}

impl Bot for Recording {
    fn decide(&mut self, req: &v1::DecisionRequest) -> v1::Action {
        self.seen
            .lock()
            .unwrap()
            .insert((req.table_id.clone(), req.request_id), req.clone());
        self.example.decide(req)
    }
}

fn ddz_job(table: &str, seed: u64, seats: &[String]) -> v1::TableJob {
    v1::TableJob {
        table_id: table.into(),
        game: "ddz".into(),
        seats: seats[..3]
            .iter()
            .map(|b| v1::SeatSpec { bot: b.clone() })
            .collect(),
        // The example never calls: a fixed landlord, or every deal would be passed out.
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            landlord: Some(ddz_pb::setup::Landlord::FixedLandlord((seed % 3) as u32)),
            fixed_bid: 1,
            ..Default::default()
        })),
        time: Some(v1::TimeControl {
            decision_ms: 5000,
            hard_cap_ms: 20_000,
            ..Default::default()
        }),
        seed,
        ..Default::default()
    }
}

fn mahjong_job(table: &str, seed: u64, seats: &[String]) -> v1::TableJob {
    v1::TableJob {
        game: "mahjong".into(),
        seats: seats
            .iter()
            .map(|b| v1::SeatSpec { bot: b.clone() })
            .collect(),
        setup: Some(arena_proto::payload::pack(&mahjong_pb::Setup::default())),
        ..ddz_job(table, seed, seats)
    }
}

/// Plays `jobs` with the bots `prefix`1… on a fresh bot-host, the bots asking for incremental
/// observations or not: what the bots' code saw, the results, and the bytes that came.
async fn play(
    prefix: &str,
    incremental: bool,
    jobs: &[MakeJob],
    seeds: std::ops::Range<u64>,
) -> (Seen, Vec<v1::TableResult>, u64) {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let names: Vec<String> = (1..=4).map(|i| format!("{prefix}{i}")).collect();
    let host = BotHost::bind(
        BotHostConfig {
            cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
            ..BotHostConfig::loopback()
        },
        store.clone(),
    )
    .await
    .unwrap();
    let url = format!("http://{}", host.local_addr());
    let hosts = BotHosts::new(&[host.advertised().to_string()]).unwrap();
    let (host_stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(host.run(async {
        let _ = stopped.await;
    }));
    let seen: Seen = Arc::default();
    let mut bots = Vec::new();
    for name in &names {
        let (token, hash) = issue_token().unwrap();
        store
            .add_bot(&BotRecord {
                name: name.clone(),
                kind: BotKind::Remote,
                token_sha256: Some(hash),
                max_tables: 0,
                created_unix_ms: 0,
                decision_ms: 0,
                later_decision_ms: 0,
            })
            .await
            .unwrap();
        // Both games, the example's default.
        let options = arena_example_remote_bot::Options {
            capacity: 64,
            incremental,
            ..Default::default()
        };
        let sdk = options.sdk(Duration::from_millis(50));
        let seen = seen.clone();
        let games = options.games().unwrap().map(move |example| Recording {
            example,
            seen: seen.clone(),
        });
        let (url, name) = (url.clone(), name.clone());
        let (stop, stopping) = tokio::sync::oneshot::channel::<()>();
        let run = tokio::spawn(async move {
            arena_sdk::run(&url, &name, &token, &sdk, games, async {
                let _ = stopping.await;
            })
            .await
        });
        bots.push((stop, run));
    }
    let opts = RunOptions {
        seat_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
        ..RunOptions::default()
    };
    let mut results = Vec::new();
    for make in jobs {
        for seed in seeds.clone() {
            let job = make(&format!("t-{seed}"), seed, &names);
            let job = v1::TableJob {
                table_id: format!("{}-{}", job.game, seed),
                ..job
            };
            let spec = arena_games::validate(&job).expect("a valid job");
            match arena_games::run_spec(&job, &spec, &opts, &hosts).await {
                Played::Finished(record) => results.push(record.result),
                Played::Interrupted(why) => panic!("{}: interrupted: {why}", job.table_id),
            }
        }
    }
    let mut bytes = 0;
    for (stop, run) in bots {
        let _ = stop.send(());
        bytes += run.await.unwrap().unwrap().request_bytes;
    }
    let _ = host_stop.send(());
    server.await.unwrap().unwrap();
    (seen, results, bytes)
}

/// The observation's events, for the message when a comparison fails.
fn events(req: &v1::DecisionRequest) -> usize {
    arena_proto::incremental::events_len(req)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rebuilt_incremental_observations_equal_the_whole_ones_at_every_decision() {
    let jobs: [MakeJob; 2] = [ddz_job, mahjong_job];
    let (whole, whole_results, whole_bytes) = play("full", false, &jobs, 0..6).await;
    let (rebuilt, rebuilt_results, incremental_bytes) = play("inc", true, &jobs, 0..6).await;
    let whole = whole.lock().unwrap();
    let rebuilt = rebuilt.lock().unwrap();
    for game in ["ddz", "mahjong"] {
        let decisions = whole
            .keys()
            .filter(|(t, _)| t.starts_with(&format!("{game}-")))
            .count();
        assert!(decisions > 100, "{game:?}: only {decisions} decisions");
    }
    assert_eq!(
        whole.keys().collect::<Vec<_>>(),
        rebuilt.keys().collect::<Vec<_>>(),
        "the same decisions were asked"
    );
    for (key, full) in whole.iter() {
        let got = &rebuilt[key];
        assert_eq!(
            got,
            full,
            "{key:?}: rebuilt from increments ({} events) differs from the whole observation ({} events)",
            events(got),
            events(full)
        );
        assert!(
            full.observation.is_some(),
            "{key:?}: a request without an observation"
        );
    }
    // The bots played the same tables to the same ends.
    let strip = |rs: &[v1::TableResult]| -> Vec<(String, Option<v1::Outcome>)> {
        rs.iter()
            .map(|r| (r.table_id.clone(), r.outcome.clone()))
            .collect()
    };
    assert_eq!(strip(&whole_results), strip(&rebuilt_results));
    assert!(
        incremental_bytes * 2 < whole_bytes,
        "incremental {incremental_bytes} bytes against {whole_bytes} whole"
    );
}
