//! Competitions through the matchmaker on an embedded store, with a referee running the tables.

mod support;

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use arena_matchmaker::{MatchmakerService, supervise};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::{DealSource, EmbeddedStore, Store};
use tokio_stream::StreamExt;
use tonic::{Code, Request};

fn panel() -> v1::PanelSpec {
    v1::PanelSpec {
        landlords: "ladder:5".into(),
        farmers: "expert".into(),
        ..Default::default()
    }
}

async fn library(store: &dyn Store, count: u64) {
    let p = arena_deals::batch::panel_of(&panel()).unwrap();
    let spec = arena_deals::MeasureSpec {
        panel: p,
        source: DealSource {
            seed: 3,
            bombs: Some(1),
        },
        count,
        rules: arena_games::ddz::rules::RuleSet::COMPETITION,
        threads: 2,
        batch: 100,
    };
    arena_deals::measure(
        store,
        &spec,
        &arena_deals::Progress::default(),
        &AtomicBool::new(false),
    )
    .await
    .unwrap();
}

fn spec(name: &str, format: &str) -> v1::CompetitionSpec {
    v1::CompetitionSpec {
        name: name.into(),
        format: format.into(),
        centre: vec![0.8, 0.4, 0.2],
        eps: 0.6,
        participants: vec!["expert".into(), "seed".into(), "random".into()],
        farmers: "expert".into(),
        matches: 3,
        rounds: 4,
        panel: Some(panel()),
        seed: 11,
        ..Default::default()
    }
}

fn referee(
    store: Arc<dyn Store>,
    id: &str,
) -> (
    tokio::task::JoinHandle<()>,
    tokio::sync::oneshot::Sender<()>,
) {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let cfg = arena_referee::RefereeConfig {
        referee_id: id.into(),
        poll_interval: Duration::from_millis(20),
        ..Default::default()
    };
    let h = tokio::spawn(async move {
        arena_referee::work(cfg, store, async {
            let _ = rx.await;
        })
        .await
        .unwrap();
    });
    (h, tx)
}

async fn watch_to_end(svc: &MatchmakerService, name: &str) -> v1::Standings {
    let stream = svc
        .watch_competition(Request::new(v1::CompetitionRequest { name: name.into() }))
        .await
        .unwrap()
        .into_inner();
    arena_testkit::final_standings(name, stream, Duration::from_secs(120)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn competitions_run_to_final_standings_once() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    library(&*store, 300).await;
    let (r, stop_r) = referee(store.clone(), "r1");
    let (stop_sup, rx) = tokio::sync::oneshot::channel::<()>();
    let sup = tokio::spawn(supervise(
        store.clone(),
        Duration::from_millis(100),
        async {
            let _ = rx.await;
        },
    ));
    let svc = MatchmakerService::new(store.clone());

    for (name, format) in [
        ("dup", "duplicate"),
        ("es", "equal-strength"),
        ("adj", "difficulty-adjusted"),
    ] {
        let comp = svc
            .create_competition(Request::new(v1::CreateCompetitionRequest {
                spec: Some(spec(name, format)),
            }))
            .await
            .unwrap()
            .into_inner();
        assert_eq!((comp.state.as_str(), comp.tables_total), ("running", 36));
        let st = watch_to_end(&svc, name).await;
        assert_eq!(st.tables_done, 36);
        assert_eq!(st.standings.len(), 3);
        for s in &st.standings {
            assert!(
                (s.rank_probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-9,
                "{s:?}"
            );
        }
        assert_eq!(
            st.standings.iter().map(|s| s.place).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        assert_eq!(st.standings[2].participant, "random", "{format}: {st:?}");
        let comp = svc
            .get_competition(Request::new(v1::CompetitionRequest { name: name.into() }))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(comp.state, "finished");
        assert_eq!(store.results_for(name).await.unwrap().len(), 36);
    }
    // Measured formats claim their library deals, so no two competitions share one; the
    // duplicate format deals fresh cards from its own seed and claims none.
    let used = store.used_deals().await.unwrap();
    assert_eq!(used.values().filter(|c| c.as_str() == "es").count(), 36);
    assert_eq!(used.values().filter(|c| c.as_str() == "adj").count(), 36);
    assert_eq!(used.values().filter(|c| c.as_str() == "dup").count(), 0);

    let replays: Vec<v1::Replay> = svc
        .export_replays(Request::new(v1::CompetitionRequest { name: "dup".into() }))
        .await
        .unwrap()
        .into_inner()
        .map(|r| r.unwrap())
        .collect()
        .await;
    assert_eq!(replays.len(), 36);
    // A fresh deal per round, the same at every table of the round, none from the library.
    let mut by_round: std::collections::BTreeMap<(u32, u32), Vec<(String, String)>> =
        Default::default();
    for r in &replays {
        let job = r.job.as_ref().unwrap();
        let p = job.placement.as_ref().unwrap();
        let setup: ddz_pb::Setup =
            arena_proto::payload::unpack(job.setup.as_ref(), "setup").expect("a Dou Dizhu table");
        by_round
            .entry((p.match_index, p.round))
            .or_default()
            .push((p.deal_id.clone(), setup.deal.clone()));
    }
    assert_eq!(by_round.len(), 12);
    let mut deals = std::collections::HashSet::new();
    for tables in by_round.values() {
        assert_eq!(tables.len(), 3);
        assert!(tables.iter().all(|t| t == &tables[0]), "{tables:?}");
        assert!(tables[0].0.starts_with("fresh-"), "{tables:?}");
        let panel = arena_deals::batch::panel_of(&panel()).unwrap();
        assert!(store.deal(&panel.id, &tables[0].0).await.unwrap().is_none());
        deals.insert(tables[0].1.clone());
    }
    assert_eq!(deals.len(), 12, "every round its own cards");

    let _ = stop_sup.send(());
    let _ = sup.await;
    let _ = stop_r.send(());
    let _ = r.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_competition_survives_a_matchmaker_restart_and_finishes_once() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    library(&*store, 200).await;
    // The first matchmaker creates the competition, then dies before any table is played.
    {
        let svc = MatchmakerService::new(store.clone());
        svc.create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(spec("cup", "random")),
        }))
        .await
        .unwrap();
    }
    let (r, stop_r) = referee(store.clone(), "r1");
    // Two supervisors (a restarted matchmaker and a second instance) race to finish it.
    let mut sups = Vec::new();
    let mut stops = Vec::new();
    for _ in 0..2 {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        stops.push(tx);
        sups.push(tokio::spawn(supervise(
            store.clone(),
            Duration::from_millis(50),
            async {
                let _ = rx.await;
            },
        )));
    }
    let svc = MatchmakerService::new(store.clone());
    let st = watch_to_end(&svc, "cup").await;
    assert_eq!(st.tables_done, 36);
    assert_eq!(
        store.results_for("cup").await.unwrap().len(),
        36,
        "every table counted once"
    );
    let stored = store
        .record(arena_matchmaker::FINAL_STANDINGS, "cup")
        .await
        .unwrap();
    assert!(stored.is_some());
    for s in stops {
        let _ = s.send(());
    }
    for s in sups {
        let _ = s.await;
    }
    let _ = stop_r.send(());
    let _ = r.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_name_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    library(&*store, 20).await;
    let svc = MatchmakerService::new(store.clone());
    let create = |s: v1::CompetitionSpec| {
        svc.create_competition(Request::new(v1::CreateCompetitionRequest { spec: Some(s) }))
    };
    let bad = |e: tonic::Status, code: Code, field: &str| {
        assert_eq!(e.code(), code, "{e:?}");
        assert!(e.message().contains(field), "{}", e.message());
    };
    bad(
        create(v1::CompetitionSpec {
            name: String::new(),
            ..spec("x", "random")
        })
        .await
        .unwrap_err(),
        Code::InvalidArgument,
        "spec.name",
    );
    bad(
        create(v1::CompetitionSpec {
            participants: vec!["expert".into()],
            ..spec("x", "random")
        })
        .await
        .unwrap_err(),
        Code::InvalidArgument,
        "participants",
    );
    bad(
        create(spec("x", "swiss")).await.unwrap_err(),
        Code::InvalidArgument,
        "spec.format",
    );
    bad(
        create(v1::CompetitionSpec {
            // (no radius at all takes the default one)
            eps: -0.1,
            ..spec("x", "equal-strength")
        })
        .await
        .unwrap_err(),
        Code::InvalidArgument,
        "spec.eps",
    );
    // 36 measured deals are needed, 20 are measured.
    bad(
        create(spec("x", "difficulty-adjusted")).await.unwrap_err(),
        Code::FailedPrecondition,
        "needs 36",
    );
    // Measured formats play the rules the library measured under.
    bad(
        create(v1::CompetitionSpec {
            setup: Some(rules(ddz_pb::Rules::Douzero as i32)),
            ..spec("x", "equal-strength")
        })
        .await
        .unwrap_err(),
        Code::InvalidArgument,
        "spec.setup",
    );
    for kind in [ddz_pb::Rules::Custom as i32, 99] {
        bad(
            create(v1::CompetitionSpec {
                setup: Some(rules(kind)),
                ..spec("x", "random")
            })
            .await
            .unwrap_err(),
            Code::InvalidArgument,
            "spec.setup",
        );
    }
    // A competition's setup names rules only.
    bad(
        create(v1::CompetitionSpec {
            setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
                deal: "x".into(),
                ..Default::default()
            })),
            ..spec("x", "random")
        })
        .await
        .unwrap_err(),
        Code::InvalidArgument,
        "spec.setup",
    );
    // Two bombs: GDI vectors of five values.
    bad(
        create(v1::CompetitionSpec {
            bombs: 2,
            ..spec("x", "equal-strength")
        })
        .await
        .unwrap_err(),
        Code::InvalidArgument,
        "of 5 values",
    );
    bad(
        create(v1::CompetitionSpec {
            verdict_policy: 9,
            ..spec("x", "random")
        })
        .await
        .unwrap_err(),
        Code::InvalidArgument,
        "spec.verdict_policy",
    );
    bad(
        create(v1::CompetitionSpec {
            time: Some(v1::TimeControl {
                penalty_rounding: 7,
                ..Default::default()
            }),
            ..spec("x", "random")
        })
        .await
        .unwrap_err(),
        Code::InvalidArgument,
        "spec.time.penalty_rounding",
    );
    // A random competition needs no library: 36 fresh deals with the bombs asked for, played
    // by the rules asked for.
    let comp = create(v1::CompetitionSpec {
        bombs: 2,
        setup: Some(rules(ddz_pb::Rules::Openspiel as i32)),
        ..spec("fresh", "random")
    })
    .await
    .unwrap()
    .into_inner();
    assert_eq!(comp.tables_total, 36);
    let spec_back = comp.spec.unwrap();
    let back: ddz_pb::Setup =
        arena_proto::payload::unpack(spec_back.setup.as_ref(), "setup").unwrap();
    assert_eq!(back.rules_kind(), ddz_pb::Rules::Openspiel);
    assert_eq!(back.rules, "openspiel");
    assert!(store.used_deals().await.unwrap().is_empty());
    let missing = svc
        .get_competition(Request::new(v1::CompetitionRequest {
            name: "nope".into(),
        }))
        .await
        .unwrap_err();
    assert_eq!(missing.code(), Code::NotFound);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_rotation_adds_each_participants_farmer_table_on_the_same_cards() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    library(&*store, 100).await;
    let (r, stop_r) = referee(store.clone(), "r1");
    let (stop_sup, rx) = tokio::sync::oneshot::channel::<()>();
    let sup = tokio::spawn(supervise(store.clone(), Duration::from_millis(50), async {
        let _ = rx.await;
    }));
    let svc = MatchmakerService::new(store.clone());
    let spec = v1::CompetitionSpec {
        rotate_seats: true,
        matches: 2,
        rounds: 3,
        ..spec("rot", "duplicate")
    };
    let comp = svc
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(spec),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        comp.tables_total,
        3 * 2 * 3 * 2,
        "a farmer table per landlord table"
    );
    let st = watch_to_end(&svc, "rot").await;
    assert_eq!(st.tables_done, 36);

    // Each participant's round score is its landlord score plus its farmer team's score on the
    // same deal; the standings' mean is the mean of those.
    let participants = ["expert", "seed", "random"];
    let mut rounds: Vec<Vec<f64>> = vec![Vec::new(); 3];
    for m in 0..2 {
        for r in 0..3 {
            for (t, p) in participants.iter().enumerate() {
                let id = arena_games::ddz::competition::table_id("rot", m, r, t);
                let load = |id: String| {
                    let store = store.clone();
                    async move {
                        let bytes = store.replay(&id).await.unwrap().unwrap();
                        <v1::Replay as prost::Message>::decode(bytes.as_slice()).unwrap()
                    }
                };
                let (landlord, farmers) = (load(id.clone()).await, load(format!("{id}/f")).await);
                let seats = |rep: &v1::Replay| {
                    rep.job
                        .as_ref()
                        .unwrap()
                        .seats
                        .iter()
                        .map(|s| s.bot.clone())
                        .collect::<Vec<_>>()
                };
                assert_eq!(seats(&landlord), [*p, "expert", "expert"]);
                assert_eq!(seats(&farmers), ["expert", *p, *p]);
                assert_eq!(
                    landlord.job.as_ref().unwrap().setup,
                    farmers.job.as_ref().unwrap().setup,
                    "the same cards"
                );
                // The result says where it sits, typed: nothing to parse back from labels.
                for (rep, side) in [
                    (&landlord, v1::Side::Landlord),
                    (&farmers, v1::Side::Farmers),
                ] {
                    let placement = rep.result.as_ref().unwrap().placement.clone().unwrap();
                    assert_eq!(
                        (placement.match_index, placement.round, placement.table),
                        (m as u32, r as u32, t as u32)
                    );
                    assert_eq!(placement.side(), side);
                    assert_eq!(placement.deal_group, format!("rot/{}", placement.deal_id));
                }
                let l = landlord.result.unwrap().final_scores;
                let f = farmers.result.unwrap().final_scores;
                rounds[t].push((l[0] + f[1] + f[2]) as f64);
            }
        }
    }
    for s in &st.standings {
        let t = participants
            .iter()
            .position(|p| *p == s.participant)
            .unwrap();
        let mean = rounds[t].iter().sum::<f64>() / rounds[t].len() as f64;
        assert!((s.mean_score - mean).abs() < 1e-9, "{s:?} vs {mean}");
    }
    assert_eq!(st.standings[2].participant, "random", "{st:?}");

    let _ = stop_sup.send(());
    let _ = sup.await;
    let _ = stop_r.send(());
    let _ = r.await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_competition_whose_creator_died_before_enqueueing_is_enqueued_once_after_a_grace() {
    use prost::Message;
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    library(&*store, 100).await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    // Recorded, not enqueued: one just now (its creator may still be enqueueing), one long ago
    // (its creator died).
    for (name, created) in [
        ("fresh", now),
        ("orphan", now - arena_matchmaker::ENQUEUE_GRACE_MS - 1000),
    ] {
        let comp = v1::Competition {
            spec: Some(v1::CompetitionSpec {
                matches: 1,
                rounds: 2,
                ..spec(name, "duplicate")
            }),
            state: "running".into(),
            tables_total: 6,
            created_unix_ms: created,
            ..Default::default()
        };
        store
            .put_record(arena_matchmaker::COMPETITION, name, &comp.encode_to_vec())
            .await
            .unwrap();
    }
    arena_matchmaker::supervise_once(&*store).await.unwrap();
    let counts = store.job_counts().await.unwrap();
    assert_eq!(
        counts.waiting, 6,
        "only the orphan's tables are enqueued, once: {counts:?}"
    );
    arena_matchmaker::supervise_once(&*store).await.unwrap();
    assert_eq!(store.job_counts().await.unwrap().waiting, 6);
    assert!(
        store
            .record(arena_matchmaker::ENQUEUED, "fresh")
            .await
            .unwrap()
            .is_none()
    );
    let (r, stop_r) = referee(store.clone(), "r1");
    let svc = MatchmakerService::new(store.clone());
    let (stop_sup, rx) = tokio::sync::oneshot::channel::<()>();
    let sup = tokio::spawn(supervise(store.clone(), Duration::from_millis(50), async {
        let _ = rx.await;
    }));
    let st = watch_to_end(&svc, "orphan").await;
    assert_eq!(st.tables_done, 6);
    assert_eq!(store.results_for("orphan").await.unwrap().len(), 6);
    let _ = stop_sup.send(());
    let _ = sup.await;
    let _ = stop_r.send(());
    let _ = r.await;
}

/// In duplicate format every table of a round holds the same cards: a finished table's replay
/// is withheld (from GetReplay and ExportReplays) until every table of its round is done, and a
/// running competition's plan seed is not shown (with the library it would name its deals).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_cards_of_a_running_table_are_served() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    library(&*store, 200).await;
    let svc = MatchmakerService::new(store.clone());
    let created = svc
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(v1::CompetitionSpec {
                matches: 1,
                rounds: 2,
                seed: 0,
                ..spec("dup-secret", "duplicate")
            }),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(created.tables_total, 6);
    assert_eq!(
        created.spec.unwrap().seed,
        0,
        "the plan seed is not shown while running"
    );
    let first = support::play_next(&store).await.0.table_id;
    let replay = |id: String| {
        let svc = svc.clone();
        async move {
            svc.get_replay(Request::new(v1::GetTableRequest { table_id: id }))
                .await
        }
    };
    let hidden = replay(first.clone()).await.unwrap_err();
    assert_eq!(hidden.code(), Code::FailedPrecondition, "{hidden:?}");
    assert!(
        hidden.message().contains("still to be played"),
        "{hidden:?}"
    );
    let exported = |svc: MatchmakerService| async move {
        svc.export_replays(Request::new(v1::CompetitionRequest {
            name: "dup-secret".into(),
        }))
        .await
        .unwrap()
        .into_inner()
        .map(|r| r.unwrap().result.unwrap().table_id)
        .collect::<Vec<_>>()
        .await
    };
    assert!(
        exported(svc.clone()).await.is_empty(),
        "withheld from the export too"
    );
    // The rest of the first table's round: then its replays are shown.
    let mut played = vec![first.clone()];
    for _ in 0..2 {
        played.push(support::play_next(&store).await.0.table_id);
    }
    let round = |id: &str| id.rsplit_once('/').map(|(r, _)| r.to_string());
    assert!(
        played.iter().all(|id| round(id) == round(&first)),
        "{played:?}"
    );
    let shown = replay(first.clone()).await.unwrap().into_inner();
    assert_eq!(shown.result.unwrap().table_id, first);
    assert_eq!(exported(svc.clone()).await.len(), 3);
    // The whole competition, then its seed is shown.
    for _ in 0..3 {
        support::play_next(&store).await;
    }
    arena_matchmaker::supervise_once(&*store).await.unwrap();
    let c = svc
        .get_competition(Request::new(v1::CompetitionRequest {
            name: "dup-secret".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(c.state, "finished");
    assert_ne!(c.spec.unwrap().seed, 0, "shown once finished");
    assert_eq!(exported(svc.clone()).await.len(), 6);
}

/// What an operator sends is bounded: sizes by checked arithmetic and a cap, participants must
/// be playable, bot parameters capped; a cancelled competition's queued tables are not played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_input_is_bounded_and_cancelled_tables_are_not_played() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    library(&*store, 200).await;
    let svc = MatchmakerService::new(store.clone()).with_max_tables(1_000);
    let create = |spec: v1::CompetitionSpec| {
        let svc = svc.clone();
        async move {
            svc.create_competition(Request::new(v1::CreateCompetitionRequest {
                spec: Some(spec),
            }))
            .await
        }
    };
    let e = create(v1::CompetitionSpec {
        matches: 1 << 31,
        rounds: 1 << 31,
        ..spec("huge", "random")
    })
    .await
    .unwrap_err();
    assert_eq!(e.code(), Code::OutOfRange, "{e:?}");
    assert!(e.message().contains("1000 tables"), "{e:?}");
    let e = create(v1::CompetitionSpec {
        matches: 100,
        rounds: 100,
        ..spec("big", "random")
    })
    .await
    .unwrap_err();
    assert_eq!(e.code(), Code::OutOfRange, "{e:?}");
    let e = create(v1::CompetitionSpec {
        participants: vec!["expert".into(), "ghost".into()],
        ..spec("ghosts", "random")
    })
    .await
    .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(e.message().contains("\"ghost\"") && e.message().contains("arena bots add"));
    let e = create(v1::CompetitionSpec {
        participants: vec!["expert".into(), "search:samples=4000000000".into()],
        ..spec("greedy", "random")
    })
    .await
    .unwrap_err();
    assert!(e.message().contains("most allowed"), "{e:?}");
    let e = create(v1::CompetitionSpec {
        name: "n".repeat(1000),
        ..spec("x", "random")
    })
    .await
    .unwrap_err();
    assert_eq!(e.code(), Code::OutOfRange, "{e:?}");

    // Cancelled with every table still queued: a referee plays none of them.
    create(v1::CompetitionSpec {
        matches: 1,
        rounds: 2,
        ..spec("called-off", "random")
    })
    .await
    .unwrap();
    svc.cancel_competition(Request::new(v1::CompetitionRequest {
        name: "called-off".into(),
    }))
    .await
    .unwrap();
    let (r, stop) = referee(store.clone(), "r-cancel");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let results = loop {
        let results = store.results_for("called-off").await.unwrap();
        if results.len() == 6 {
            break results;
        }
        assert!(tokio::time::Instant::now() < deadline, "{}", results.len());
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    for (id, bytes) in results {
        let r = <v1::TableResult as prost::Message>::decode(bytes.as_slice()).unwrap();
        assert!(r.outcome.is_none(), "{id} was played");
        assert!(r.error.contains("cancelled"), "{id}: {}", r.error);
    }
    let _ = stop.send(());
    let _ = r.await;
}

/// A ladder table's result, finished at `finished_ms`, in deal group `group`.
async fn ladder_table(
    store: &dyn Store,
    competition: &str,
    id: &str,
    group: &str,
    finished_ms: u64,
) {
    use prost::Message;
    let result = v1::TableResult {
        table_id: id.into(),
        finished_unix_ms: finished_ms,
        competition: competition.into(),
        placement: Some(Box::new(v1::Placement {
            deal_group: group.into(),
            ..Default::default()
        })),
        ..Default::default()
    };
    assert!(
        store
            .put_result(id, Some(competition), &result.encode_to_vec(), b"replay")
            .await
            .unwrap()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_and_replays_are_kept_as_long_as_the_operator_says() {
    use arena_matchmaker::retention::{self, Retention};
    use arena_store::visibility::{DEAL_GROUP_KIND, put_deal_group};
    const DAY: u64 = 86_400_000;
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let (r, stop_r) = referee(store.clone(), "r1");
    let (stop_sup, rx) = tokio::sync::oneshot::channel::<()>();
    let sup = tokio::spawn(supervise(store.clone(), Duration::from_millis(50), async {
        let _ = rx.await;
    }));
    let svc = MatchmakerService::new(store.clone());
    for name in ["old", "new"] {
        svc.create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(v1::CompetitionSpec {
                matches: 1,
                rounds: 2,
                rotate_seats: true,
                ..spec(name, "random")
            }),
        }))
        .await
        .unwrap();
        assert!(watch_to_end(&svc, name).await.r#final);
    }
    let _ = stop_sup.send(());
    let _ = sup.await;
    let _ = stop_r.send(());
    let _ = r.await;
    let finished = |name: &'static str| {
        let svc = svc.clone();
        async move {
            svc.get_competition(Request::new(v1::CompetitionRequest { name: name.into() }))
                .await
                .unwrap()
                .into_inner()
        }
    };
    let ended = finished("old").await.finished_unix_ms;
    assert!(ended > 0);

    // The ladder: a pair long finished, a pair half played, a pair finished recently, and a
    // Mahjong set long finished.
    let lad = arena_matchmaker::ladder::competition(arena_games::ddz::GAME);
    let mj = arena_matchmaker::ladder::competition(arena_games::mahjong::GAME);
    let ids = |g: &str, n: usize| (0..n).map(|i| format!("{g}/{i}")).collect::<Vec<_>>();
    for (group, n) in [
        ("ladder/p1", 2),
        ("ladder/p2", 2),
        ("ladder/p3", 2),
        ("ladder-mahjong/p1", 4),
    ] {
        put_deal_group(&*store, group, &ids(group, n))
            .await
            .unwrap();
    }
    let long_ago = ended - 40 * DAY;
    for id in ids("ladder/p1", 2)
        .iter()
        .chain(&ids("ladder-mahjong/p1", 4))
    {
        let (c, g) = id
            .rsplit_once('/')
            .map(|(g, _)| {
                if g.starts_with("ladder-mahjong") {
                    (mj, g)
                } else {
                    (lad, g)
                }
            })
            .unwrap();
        ladder_table(&*store, c, id, g, long_ago).await;
    }
    ladder_table(&*store, lad, "ladder/p2/0", "ladder/p2", long_ago).await;
    ladder_table(&*store, lad, "ladder/p3/0", "ladder/p3", long_ago).await;
    ladder_table(&*store, lad, "ladder/p3/1", "ladder/p3", ended - DAY).await;

    // The defaults: competitions for ever, ladder tables 30 days.
    let pruned = retention::prune_once(&*store, &Retention::default(), ended)
        .await
        .unwrap();
    assert_eq!((pruned.competitions, pruned.tables), (0, 6), "{pruned:?}");
    assert_eq!(store.results_for("old").await.unwrap().len(), 12);
    let left: Vec<String> = store
        .results_for(lad)
        .await
        .unwrap()
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(left.len(), 3, "{left:?}");
    assert!(
        left.iter().all(|id| !id.starts_with("ladder/p1/")),
        "{left:?}"
    );
    assert!(store.results_for(mj).await.unwrap().is_empty());
    assert_eq!(store.replay("ladder/p1/0").await.unwrap(), None);
    assert_eq!(
        store.record(DEAL_GROUP_KIND, "ladder/p1").await.unwrap(),
        None
    );
    assert!(
        store
            .record(DEAL_GROUP_KIND, "ladder/p2")
            .await
            .unwrap()
            .is_some()
    );
    // Kept for ever, ten years on.
    let forever = Retention {
        competitions: None,
        ladder: None,
        ..Retention::default()
    };
    let pruned = retention::prune_once(&*store, &forever, ended + 3650 * DAY)
        .await
        .unwrap();
    assert_eq!((pruned.competitions, pruned.tables), (0, 0));

    // Competitions kept a day: the one that ended two days ago loses its tables, the other not.
    let one_day = Retention {
        competitions: retention::days(1.0),
        ladder: None,
        ..Retention::default()
    };
    let new_ended = finished("new").await.finished_unix_ms;
    let now = ended + 2 * DAY;
    assert!(new_ended < now, "both ended before");
    // Pretend "new" ended later than "old" by re-dating it to now.
    {
        use prost::Message;
        let bytes = store
            .record(arena_matchmaker::COMPETITION, "new")
            .await
            .unwrap()
            .unwrap();
        let mut c = v1::Competition::decode(bytes.as_slice()).unwrap();
        c.finished_unix_ms = now - DAY / 2;
        store
            .put_record(arena_matchmaker::COMPETITION, "new", &c.encode_to_vec())
            .await
            .unwrap();
    }
    let pruned = retention::prune_once(&*store, &one_day, now).await.unwrap();
    assert_eq!((pruned.competitions, pruned.tables), (1, 12), "{pruned:?}");
    assert!(store.results_for("old").await.unwrap().is_empty());
    assert_eq!(store.replay("old/m0/r0/t0").await.unwrap(), None);
    assert_eq!(store.results_for("new").await.unwrap().len(), 12);
    let old = finished("old").await;
    assert_eq!(old.pruned_unix_ms, now);
    assert_eq!(old.state, "finished");
    // The standings stay; the replays are refused, saying why.
    let st = svc
        .get_standings(Request::new(v1::CompetitionRequest { name: "old".into() }))
        .await
        .unwrap()
        .into_inner();
    assert!(st.r#final && st.standings.len() == 3);
    let Err(e) = svc
        .export_replays(Request::new(v1::CompetitionRequest { name: "old".into() }))
        .await
    else {
        panic!("the replays of a pruned competition")
    };
    assert!(
        e.code() == Code::FailedPrecondition
            && e.message().contains("--competition-retention-days"),
        "{e:?}"
    );
    // A second pass has nothing left to do.
    let pruned = retention::prune_once(&*store, &one_day, now).await.unwrap();
    assert_eq!((pruned.competitions, pruned.tables), (0, 0));
}

/// A registered remote bot that is not connected, or a program bot whose program could not start
/// here, is accepted (it may connect, or run on another machine, before its
/// tables), but the creator is told: it would otherwise lose every table silently.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_bot_not_connected_or_a_program_that_cannot_start_is_warned_about_at_creation() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    library(&*store, 20).await;
    for name in ["away", "here", "gone"] {
        let kind = if name == "gone" {
            // A program bot whose program is not there (any more).
            arena_store::BotKind::Program {
                game: arena_store::Game::named("ddz"),
                command: "/nonexistent/arena-bot --fast".into(),
                workdir: None,
                cpu_seconds: 0,
                memory_mb: 0,
            }
        } else {
            arena_store::BotKind::Remote
        };
        let record = arena_store::BotRecord {
            name: name.into(),
            kind,
            token_sha256: None,
            max_tables: 0,
            created_unix_ms: 1,
            decision_ms: 0,
            later_decision_ms: 0,
        };
        assert!(store.add_bot(&record).await.unwrap());
    }
    store
        .set_presence("here", "host-1", Duration::from_secs(600))
        .await
        .unwrap();
    let svc = MatchmakerService::new(store.clone());
    let created = svc
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(v1::CompetitionSpec {
                participants: vec!["away".into(), "here".into(), "away".into(), "gone".into()],
                ..spec("warned", "random")
            }),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        created.warnings.len(),
        2,
        "one warning per bot: {:?}",
        created.warnings
    );
    let w = &created.warnings[0];
    assert!(
        w.contains("remote bot \"away\" is not connected") && w.contains("spec.participants"),
        "{w}"
    );
    let w = &created.warnings[1];
    assert!(
        w.contains("program bot \"gone\" would not start on this machine")
            && w.contains("/nonexistent/arena-bot"),
        "{w}"
    );
    // Warnings answer the creator; they are not part of the stored competition.
    let stored = svc
        .get_competition(Request::new(v1::CompetitionRequest {
            name: "warned".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    assert!(stored.warnings.is_empty(), "{:?}", stored.warnings);
}

/// Dou Dizhu standings count the verdicts against each participant (in its seats at its
/// tables: the landlord's seat, or both farmers' when it plays the farmer side), so that a bot
/// losing its tables to crashes shows in every standings view.
#[tokio::test]
async fn dou_dizhu_standings_count_the_verdicts_against_each_participant() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let comp = v1::Competition {
        spec: Some(v1::CompetitionSpec {
            rotate_seats: true,
            matches: 1,
            rounds: 1,
            ..spec("vc", "random")
        }),
        tables_total: 6,
        ..Default::default()
    };
    let verdict = |seat: u32| v1::Verdict {
        seat,
        kind: v1::VerdictKind::Crashed as i32,
        reason: "it exited".into(),
        ..Default::default()
    };
    // (table, side, seats with a verdict)
    let tables: [(u32, v1::Side, &[u32]); 4] = [
        (0, v1::Side::Landlord, &[0, 1]),
        (0, v1::Side::Farmers, &[1, 2]),
        (1, v1::Side::Farmers, &[0]),
        (2, v1::Side::Landlord, &[]),
    ];
    for (i, (table, side, seats)) in tables.iter().enumerate() {
        let result = v1::TableResult {
            placement: Some(Box::new(v1::Placement {
                match_index: 0,
                round: 0,
                table: *table,
                side: *side as i32,
                ..Default::default()
            })),
            verdicts: seats.iter().map(|&s| verdict(s)).collect(),
            ..Default::default()
        };
        let id = format!("vc/t{i}");
        assert!(
            store
                .put_result(
                    &id,
                    Some("vc"),
                    &prost::Message::encode_to_vec(&result),
                    &[]
                )
                .await
                .unwrap()
        );
    }
    let st = arena_matchmaker::standings(&*store, &comp).await.unwrap();
    let count = |name: &str| {
        st.standings
            .iter()
            .find(|s| s.participant == name)
            .map(|s| s.verdicts)
            .unwrap()
    };
    // expert: its landlord seat once, and both farmer seats; seed: not the landlord's.
    assert_eq!((count("expert"), count("seed"), count("random")), (3, 0, 0));
}

/// WatchCompetition is pushed by the result writes, not found by a rescan: with the rescan an
/// hour away, every result played brings its update at once, and the competition finished by
/// the supervisor brings the final standings. Each update, folded incrementally from the
/// results since the last, equals the standings folded from every result at that point.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_updates_follow_each_result_as_it_is_written() {
    use prost::Message;
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let (stop_sup, rx) = tokio::sync::oneshot::channel::<()>();
    let sup = tokio::spawn(supervise(store.clone(), Duration::ZERO, async {
        let _ = rx.await;
    }));
    let svc = MatchmakerService::new(store.clone()).with_rescan(Duration::from_secs(3600));
    let mut spec = spec("pushed", "duplicate");
    (spec.matches, spec.rounds) = (1, 2);
    let total = svc
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(spec),
        }))
        .await
        .unwrap()
        .into_inner()
        .tables_total;
    assert_eq!(total, 6);
    let mut stream = svc
        .watch_competition(Request::new(v1::CompetitionRequest {
            name: "pushed".into(),
        }))
        .await
        .unwrap()
        .into_inner();
    // Far below the rescan: an update inside it was woken by the write.
    let mut next = async || {
        tokio::time::timeout(Duration::from_secs(600), stream.next())
            .await
            .expect("an update long before any rescan")
            .expect("the stream goes on")
            .expect("standings")
    };
    let folded_from_scratch = async |store: &Arc<dyn Store>| {
        let bytes = store
            .record(arena_matchmaker::COMPETITION, "pushed")
            .await
            .unwrap()
            .unwrap();
        let comp = v1::Competition::decode(bytes.as_slice()).unwrap();
        arena_matchmaker::standings(&**store, &comp).await.unwrap()
    };
    assert_eq!(next().await.tables_done, 0);
    for done in 1..total {
        support::play_next(&store).await;
        let st = next().await;
        assert_eq!((st.tables_done, st.r#final), (done, false));
        assert_eq!(st, folded_from_scratch(&store).await);
    }
    support::play_next(&store).await;
    let last = loop {
        let st = next().await;
        assert_eq!(st.tables_done, total);
        if st.r#final {
            break st;
        }
    };
    assert_eq!(last.standings.len(), 3);
    assert!(
        stream.next().await.is_none(),
        "the stream ends with the final standings"
    );
    let _ = stop_sup.send(());
    let _ = sup.await;
}

/// A competition setup naming Dou Dizhu rules by kind.
fn rules(kind: i32) -> arena_proto::payload::Any {
    arena_proto::payload::pack(&ddz_pb::Setup {
        rules_kind: kind,
        ..Default::default()
    })
}
