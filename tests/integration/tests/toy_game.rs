//! A game is an addition: a toy game defined only in this test crate ([`toy`], five seats,
//! registered at run time) plays a competition through the real roles — matchmaker, referee,
//! bot-host — with a remote bot over gRPC (on the Rust SDK, which knows nothing of the toy:
//! the bot is a handler of its own), program bots over the game's line protocol and a built-in
//! bot; its replays, standings, a ladder pass and a verdict for a bad answer all come
//! out of the platform, and no platform file names it.

mod toy;

use std::path::Path;
use std::time::Duration;

use arena_games::GameKind;
use arena_integration::cluster::{PATIENCE, wait_until};
use arena_integration::{Backend, Cluster};
use arena_matchmaker::ladder::{self, LadderConfig};
use arena_proto::payload;
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::{BotKind, BotRecord, Store};
use futures_util::StreamExt;
use prost::Message;
use tonic::Request;

/// The toy's remote bot, on the Rust SDK: the SDK has no module for the toy, so the bot is the
/// SDK's game-neutral `Bot` reading the toy's own messages, given to the connection as the
/// handler of the game `toy` (`Hello.games` lists it). It answers every request with the
/// highest card in its hand.
struct HighestCard;

impl arena_sdk::Bot for HighestCard {
    fn decide(&mut self, request: &v1::DecisionRequest) -> v1::Action {
        assert_eq!(
            request.game,
            toy::TOY_NAME,
            "only toy tables are asked of it"
        );
        let o: toy::pb::Observation =
            arena_sdk::handler::observation(request, |o: &mut toy::pb::Observation| &mut o.events)
                .expect("a toy observation");
        assert_eq!(
            o.events.len(),
            toy::ROUNDS - o.hand.len(),
            "a round played per card gone, whole (the SDK rebuilt any increment)"
        );
        let card = o.hand.iter().copied().max().expect("a card in hand");
        arena_sdk::handler::action(&toy::pb::Action { card })
    }

    fn is_quick(&self) -> bool {
        true
    }
}

/// Registers program bot `name` playing the toy through `toy_bot.py` with `args`.
async fn add_program(store: &dyn Store, name: &str, args: &str) {
    // A copy: programs run as `nobody` under a root caller, who may not reach the checkout.
    let script = arena_testkit::readable_copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/toy/toy_bot.py"),
    );
    let added = store
        .add_bot(&BotRecord {
            name: name.into(),
            kind: BotKind::Program {
                game: arena_store::Game::named(toy::TOY_NAME),
                command: format!("python3 '{}' {args}", script.display()),
                workdir: None,
                cpu_seconds: 0,
                memory_mb: 0,
            },
            token_sha256: None,
            max_tables: 0,
            created_unix_ms: 1,
            decision_ms: 0,
            later_decision_ms: 0,
        })
        .await
        .expect("the store");
    assert!(added, "{name} is new");
}

#[test]
fn the_toy_registers_once_under_its_name() {
    let game = toy::kind();
    assert_eq!(
        GameKind::register(&toy::TOY),
        Ok(game),
        "again: the same game"
    );
    static IMPOSTOR: toy::Toy = toy::Toy { title: "another" };
    let e = GameKind::register(&IMPOSTOR).unwrap_err();
    assert!(e.contains("\"toy\""), "{e}");
    assert_eq!(GameKind::by_name("toy"), Ok(game));
    assert!(GameKind::all().any(|g| g == game));
    assert_eq!(GameKind::from_wire("toy").map(|g| g.seat_count()), Ok(5));
    // What `arena … --game` and the console's form accept: the toy by its name, its options
    // (none of its own: the spec's common ones, written as given) and another game's refused
    // naming that game.
    assert_eq!(GameKind::by_user_name("toy"), Ok(game));
    let e = GameKind::by_user_name("chess").unwrap_err();
    assert!(e.contains("toy"), "the registered names: {e}");
    let mut spec = arena_proto::v1::CompetitionSpec::default();
    let given = |k: &str, v: &str| arena_games::form::Values::from([(k.into(), v.into())]);
    assert_eq!(
        game.competition_spec(&mut spec, &given("matches", "3")),
        Ok(())
    );
    assert_eq!(spec.matches, 3);
    let e = game
        .competition_spec(&mut spec, &given("rules", "douzero"))
        .unwrap_err();
    assert!(e.contains("--rules is for Dou Dizhu competitions"), "{e}");
    let e = game
        .table_setup(&mut Default::default(), &given("deal", "x"))
        .unwrap_err();
    assert!(e.contains("--deal is for Dou Dizhu tables"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_defined_in_a_test_plays_a_competition_a_ladder_and_its_replays_through_the_roles() {
    let game = toy::kind();
    let mut cluster = Cluster::on(Backend::Embedded, "toygame")
        .referees(&["r1"])
        .supervisor(Duration::from_millis(100))
        .start()
        .await;
    let store = cluster.store.clone();
    add_program(&*store, "prog", "").await;
    add_program(&*store, "prog2", "").await;
    add_program(&*store, "liar", "liar").await;
    let token = cluster.register_bot("remote").await;
    let url = cluster.bot_url.clone();
    tokio::spawn(async move {
        let handler = arena_sdk::Handler::new(toy::TOY_NAME, || HighestCard);
        let options = arena_sdk::Options::default();
        let played = arena_sdk::run(
            &url,
            "remote",
            &token,
            &options,
            handler,
            std::future::pending(),
        );
        played.await
    });
    wait_until(PATIENCE, "the remote bot connected", || {
        let store = store.clone();
        async move {
            !store
                .presence("remote")
                .await
                .unwrap_or_default()
                .is_empty()
        }
    })
    .await;

    // A competition of two matches: one deal each, played in five rotations.
    let participants = ["remote", "prog", "liar", "random", "prog2"];
    let created = cluster
        .create_traced(v1::CompetitionSpec {
            name: "cup".into(),
            game: toy::TOY_NAME.into(),
            participants: participants.map(String::from).to_vec(),
            matches: 2,
            seed: 11,
            ..Default::default()
        })
        .await;
    assert_eq!(created.tables_total, 10);
    let standings = cluster.final_standings("cup").await;
    assert_eq!(standings.game, "toy");
    assert_eq!(standings.tables_done, 10);
    assert_eq!(standings.standings.len(), 5);
    let row = |name: &str| {
        standings
            .standings
            .iter()
            .find(|s| s.participant == name)
            .unwrap_or_else(|| panic!("{name} has a standing"))
    };
    for name in participants {
        let totals: toy::pb::Standing =
            payload::unpack(row(name).game.as_ref(), "standing").expect("the toy's totals");
        assert_eq!(totals.tables, 10, "{name} played every table");
    }
    // The liar's first answer at each table is a card it does not hold: a verdict, and its
    // seat plays on (the toy's policy).
    assert!(row("liar").verdicts >= 10, "{:?}", row("liar"));
    assert_eq!(row("remote").verdicts, 0);
    assert_eq!(row("prog").verdicts, 0);
    // Scores are zero-sum at every table, so the mean scores are too.
    let sum: f64 = standings.standings.iter().map(|s| s.mean_score).sum();
    assert!(sum.abs() < 1e-9, "{sum}");

    // Every replay: the toy's history, each seat's decisions, the liar's verdict.
    let replays: Vec<v1::Replay> = cluster
        .matchmaker
        .export_replays(Request::new(v1::CompetitionRequest { name: "cup".into() }))
        .await
        .expect("the replays")
        .into_inner()
        .map(|r| r.expect("a replay"))
        .collect()
        .await;
    assert_eq!(replays.len(), 10);
    for replay in &replays {
        let job = replay.job.as_ref().expect("the job");
        let result = replay.result.as_ref().expect("the result");
        assert!(result.error.is_empty(), "{}", result.error);
        let history: toy::pb::History =
            payload::unpack(replay.history.as_ref(), "history").expect("the toy's history");
        assert_eq!(history.events.len(), toy::ROUNDS);
        assert_eq!(history.hands.len(), toy::SEATS * toy::ROUNDS);
        assert_eq!(replay.steps.len(), toy::SEATS * toy::ROUNDS);
        let liar = job.seats.iter().position(|s| s.bot == "liar").unwrap() as u32;
        let verdict = result
            .verdicts
            .iter()
            .find(|v| v.seat == liar)
            .expect("the liar's verdict");
        assert_eq!(verdict.kind(), v1::VerdictKind::Illegal);
        assert!(
            verdict.reason.contains("card 99 is not in the hand"),
            "{}",
            verdict.reason
        );
        let remote = job.seats.iter().position(|s| s.bot == "remote").unwrap() as u32;
        assert!(
            replay
                .steps
                .iter()
                .filter(|s| s.seat == remote)
                .all(|s| !s.automatic),
            "the remote bot answered every request itself"
        );
        // The remote bot plays its highest card first: the first round's card is its max.
        let first: Vec<u32> = history.events[0].cards.clone();
        let hand =
            &history.hands[remote as usize * toy::ROUNDS..(remote as usize + 1) * toy::ROUNDS];
        assert_eq!(first[remote as usize], *hand.iter().max().unwrap());
    }

    // A ladder pass: five bots make one group of the toy's ladder, rated once finished.
    let cfg = LadderConfig {
        game,
        every: Duration::from_millis(20),
        seed: 5,
        ..LadderConfig::default()
    };
    let bots: Vec<String> = ["remote", "prog", "prog2", "liar", "random"]
        .map(String::from)
        .to_vec();
    let first = ladder::pass_among(&*store, &cfg, &bots)
        .await
        .expect("a pass");
    assert_eq!(
        (first.created, first.enqueued),
        (1, 1),
        "five bots make one group"
    );
    wait_until(PATIENCE, "the toy's group rated", || {
        let (store, cfg) = (store.clone(), cfg.clone());
        async move {
            let _ = ladder::pass_among(&*store, &cfg, &[]).await;
            let (s, _) = ladder::load(&*store, cfg.game)
                .await
                .expect("the ladder's state");
            s.next_pair > s.pending.len() as u64 + s.discarded
        }
    })
    .await;
    let board = cluster
        .matchmaker
        .get_leaderboard(Request::new(v1::LeaderboardRequest {
            game: toy::TOY_NAME.into(),
            ..Default::default()
        }))
        .await
        .expect("the toy's leaderboard")
        .into_inner();
    assert_eq!(board.game, "toy");
    let rated: Vec<&str> = board.ratings.iter().map(|r| r.bot.as_str()).collect();
    for bot in ["remote", "prog", "liar", "random"] {
        assert!(rated.contains(&bot), "{bot} in {rated:?}");
    }
    // The ladder's tables are the toy's, filed under its own ladder competition.
    let results = cluster.results("ladder-toy", 1).await;
    let result = v1::TableResult::decode(results[0].1.as_slice()).expect("a result");
    assert_eq!(result.final_scores.len(), 5);
    cluster.shutdown().await;
}
