//! Fair play (issue 31): standings count a table only once its deal group has finished, fresh
//! deals of a running competition are not served by the deal library, the ladder keeps a
//! bounded number of releases per bot and serves its leaderboard by bounded pages.

mod support;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use arena_matchmaker::MatchmakerService;
use arena_matchmaker::ladder::{self, LadderConfig};
use arena_proto::v1;
use arena_proto::v1::deal_library_server::DealLibrary;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::{DealSource, EmbeddedStore, Store};
use prost::Message;
use tokio_stream::StreamExt;
use tonic::{Code, Request};

fn panel() -> v1::PanelSpec {
    v1::PanelSpec {
        landlords: "ladder:5".into(),
        farmers: "expert".into(),
        ..Default::default()
    }
}

/// Measures deals 0..count of source (seed, one bomb) into the library.
async fn measure(store: &dyn Store, seed: u64, count: u64) {
    let spec = arena_deals::MeasureSpec {
        panel: arena_deals::batch::panel_of(&panel()).unwrap(),
        source: DealSource {
            seed,
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

fn duplicate(name: &str, seed: u64) -> v1::CompetitionSpec {
    v1::CompetitionSpec {
        name: name.into(),
        format: "duplicate".into(),
        participants: vec!["expert".into(), "seed".into(), "random".into()],
        farmers: "expert".into(),
        matches: 1,
        rounds: 2,
        panel: Some(panel()),
        seed,
        ..Default::default()
    }
}

fn open() -> (tempfile::TempDir, Arc<dyn Store>) {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    (dir, store)
}

fn named(name: &str) -> Request<v1::CompetitionRequest> {
    Request::new(v1::CompetitionRequest { name: name.into() })
}

/// In duplicate format the three tables of a round share one deal. A finished table's score
/// tells its twins' cards' worth while they are still played: neither GetStandings nor
/// WatchCompetition counts it until its whole round has finished, and both say how many
/// finished tables they leave out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn standings_count_a_table_only_once_its_deal_group_has_finished() {
    let (_dir, store) = open();
    let svc = MatchmakerService::new(store.clone());
    svc.create_competition(Request::new(v1::CreateCompetitionRequest {
        spec: Some(duplicate("twins", 5)),
    }))
    .await
    .unwrap();
    let before = svc
        .get_standings(named("twins"))
        .await
        .unwrap()
        .into_inner();
    let (first, result) = support::play_next(&store).await;
    let st = svc
        .get_standings(named("twins"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((st.tables_done, st.tables_withheld), (1, 1), "{st:?}");
    assert_eq!(
        st.standings, before.standings,
        "the finished twin changes nothing while its deal is still played"
    );
    let watched = svc
        .watch_competition(named("twins"))
        .await
        .unwrap()
        .into_inner()
        .next()
        .await
        .unwrap()
        .unwrap();
    assert_eq!(watched.tables_withheld, 1, "{watched:?}");
    assert_eq!(watched.standings, before.standings);

    // The rest of the round: now the round counts.
    let mut round = vec![(first, result)];
    for _ in 0..2 {
        round.push(support::play_next(&store).await);
    }
    let group = |j: &v1::TableJob| j.placement.as_ref().unwrap().deal_group.clone();
    assert!(round.iter().all(|(j, _)| group(j) == group(&round[0].0)));
    // Each table says how many share its deal: standings need no store read to tell.
    assert!(
        round
            .iter()
            .all(|(j, _)| j.placement.as_ref().unwrap().deal_group_tables == 3)
    );
    let st = svc
        .get_standings(named("twins"))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((st.tables_done, st.tables_withheld), (3, 0), "{st:?}");
    for (job, result) in &round {
        let bot = &job.seats[0].bot;
        let s = st.standings.iter().find(|s| &s.participant == bot).unwrap();
        assert_eq!(s.mean_score, result.final_scores[0] as f64, "{bot}");
    }
}

/// A duplicate competition deals fresh deals from its seed; when the library measured that very
/// source, the library's records of those deals are the running tables' cards: Export, Query
/// (even with include_used) and a generation's found deals leave them out until it ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_library_serves_no_fresh_deal_of_a_running_competition() {
    let (_dir, store) = open();
    measure(&*store, 9, 12).await;
    let library = arena_deal_library::DealLibraryService::new(store.clone(), 2);
    let svc = MatchmakerService::new(store.clone());
    svc.create_competition(Request::new(v1::CreateCompetitionRequest {
        spec: Some(duplicate("fresh", 9)),
    }))
    .await
    .unwrap();
    let exported = || {
        let library = library.clone();
        async move {
            library
                .export(Request::new(v1::ExportRequest {
                    panel: Some(panel()),
                }))
                .await
                .unwrap()
                .into_inner()
                .map(|r| r.unwrap().deal)
                .collect::<HashSet<String>>()
                .await
        }
    };
    let queried = || {
        let library = library.clone();
        async move {
            library
                .query(Request::new(v1::QueryRequest {
                    panel: Some(panel()),
                    centre: vec![0.5, 0.5, 0.5],
                    eps: 2.0,
                    count: 1000,
                    include_used: true,
                }))
                .await
                .unwrap()
                .into_inner()
                .deals
                .into_iter()
                .map(|r| r.deal)
                .collect::<HashSet<String>>()
        }
    };
    let (job, _) = support::play_next(&store).await;
    let setup: arena_games::ddz::pb::Setup =
        arena_proto::payload::unpack(job.setup.as_ref(), "setup").expect("a Dou Dizhu table");
    let cards = setup.deal.clone();
    assert!(!cards.is_empty());
    let all = exported().await;
    assert_eq!(all.len(), 12 - 2, "both fresh deals are withheld: {all:?}");
    assert!(
        !all.contains(&cards),
        "Export served a running table's cards"
    );
    assert!(
        !queried().await.contains(&cards),
        "Query served a running table's cards"
    );
    // Once the competition has ended, its deals are the library's again.
    svc.cancel_competition(named("fresh")).await.unwrap();
    assert!(exported().await.contains(&cards));
    assert!(queried().await.contains(&cards));
}

/// A generation's operation lists the deals it found; once a running competition holds one,
/// GetOperation no longer shows it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operation_does_not_show_found_deals_a_running_competition_holds() {
    let (_dir, store) = open();
    let library = arena_deal_library::DealLibraryService::new(store.clone(), 2);
    let op = library
        .find(Request::new(v1::FindRequest {
            panel: Some(panel()),
            centre: vec![0.5, 0.5, 0.5],
            eps: 2.0,
            count: 2,
            bombs: Some(1),
            seed: 4,
            max_tries: 50,
        }))
        .await
        .unwrap()
        .into_inner();
    let mut watch = library
        .watch_operation(Request::new(v1::GetOperationRequest { id: op.id.clone() }))
        .await
        .unwrap()
        .into_inner();
    let mut done = None;
    while let Some(op) = watch.next().await {
        let op = op.unwrap();
        if op.done {
            done = Some(op);
        }
    }
    let done = done.expect("the generation ends");
    assert_eq!(done.found.len(), 2, "{done:?}");
    let held = done.found[0].id.clone();
    assert_eq!(
        store
            .claim_deals("cup", std::slice::from_ref(&held))
            .await
            .unwrap(),
        vec![true]
    );
    let get = || {
        let library = library.clone();
        let id = op.id.clone();
        async move {
            library
                .get_operation(Request::new(v1::GetOperationRequest { id }))
                .await
                .unwrap()
                .into_inner()
        }
    };
    let shown = get().await;
    let ids: Vec<&str> = shown.found.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, vec![done.found[1].id.as_str()], "{shown:?}");
    assert_eq!(shown.progress, 2, "the count still says what was found");
    arena_store::visibility::mark_ended(&*store, "cup", "finished")
        .await
        .unwrap();
    assert_eq!(get().await.found.len(), 2);
}

/// A competition may not take the ladder's name, nor a name tables were submitted under.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_competition_cannot_take_the_ladders_name_or_a_name_with_submitted_results() {
    let (_dir, store) = open();
    let svc = MatchmakerService::new(store.clone());
    let create = |spec| {
        let svc = svc.clone();
        async move {
            svc.create_competition(Request::new(v1::CreateCompetitionRequest {
                spec: Some(spec),
            }))
            .await
        }
    };
    let e = create(duplicate("ladder", 1)).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains("ladder's name"), "{e:?}");
    let result = v1::TableResult {
        table_id: "early/m0/r0/t0".into(),
        ..Default::default()
    };
    store
        .put_result(
            "early/m0/r0/t0",
            Some("early"),
            &result.encode_to_vec(),
            b"replay",
        )
        .await
        .unwrap();
    let e = create(duplicate("early", 1)).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(e.message().contains("1 submitted table(s)"), "{e:?}");
    // A name hiding a bidirectional control is refused, naming the character.
    let e = create(duplicate("cup\u{202E}puc", 1)).await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().contains("U+202E"), "{e:?}");
}

/// Writes the results of Dou Dizhu ladder pair `pair`, each bot playing release `{bot}-{k}`.
async fn finish_pair(store: &dyn Store, pair: &ladder::Pair, k: usize) {
    let ids = pair.table_ids(arena_games::ddz::GAME);
    let (a, b) = (format!("{}-{k}", pair.a), format!("{}-{k}", pair.b));
    let (a, b) = (a.as_str(), b.as_str());
    let tables = [
        (&ids[0], [a, b, b], [2, -1, -1]),
        (&ids[1], [b, a, a], [-2, 1, 1]),
    ];
    for (id, releases, scores) in tables {
        let r = v1::TableResult {
            table_id: id.clone(),
            competition: ladder::competition(arena_games::ddz::GAME).into(),
            final_scores: scores.to_vec(),
            releases: releases.map(String::from).to_vec(),
            ..Default::default()
        };
        store
            .put_result(
                id,
                Some(ladder::competition(arena_games::ddz::GAME)),
                &r.encode_to_vec(),
                b"replay",
            )
            .await
            .unwrap();
    }
}

/// A bot reporting a new release every game keeps at most `max_releases` ratings (the newest),
/// and the histories of the releases forgotten go with them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_keeps_only_each_bots_newest_releases() {
    let (_dir, store) = open();
    let cfg = LadderConfig {
        max_releases: 3,
        ..Default::default()
    };
    let bots = vec!["a".to_string(), "b".to_string()];
    ladder::pass_among(&*store, &cfg, &bots).await.unwrap();
    for k in 0..7 {
        let (state, _) = ladder::load(&*store, arena_games::ddz::GAME).await.unwrap();
        let pair = state
            .pending
            .values()
            .next()
            .expect("a pair in flight")
            .clone();
        finish_pair(&*store, &pair, k).await;
        let pass = ladder::pass_among(&*store, &cfg, &bots).await.unwrap();
        assert_eq!(pass.rated, 1, "{pass:?}");
    }
    let (state, _) = ladder::load(&*store, arena_games::ddz::GAME).await.unwrap();
    for bot in ["a", "b"] {
        let kept: Vec<&str> = state.ratings.releases_of(bot).collect();
        let newest: Vec<String> = (4..7).map(|k| format!("{bot}@{bot}-{k}")).collect();
        assert_eq!(kept, newest, "{bot} keeps its newest three");
    }
    let board = svc_board(&store).await;
    assert_eq!(board.len(), 6, "{board:?}");
    let histories: Vec<String> = store
        .records(arena_ratings::history::HISTORY_KIND)
        .await
        .unwrap()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(
        histories.len(),
        6,
        "only the kept releases keep a history: {histories:?}"
    );
    assert!(
        !histories.iter().any(|k| k.contains("a-0")),
        "{histories:?}"
    );
}

/// The whole Dou Dizhu leaderboard as the matchmaker serves it: `bot@release` in order.
async fn svc_board(store: &Arc<dyn Store>) -> Vec<String> {
    let board = MatchmakerService::new(store.clone())
        .get_leaderboard(Request::new(v1::LeaderboardRequest::default()))
        .await
        .unwrap()
        .into_inner();
    board
        .ratings
        .iter()
        .map(|r| format!("{}@{}", r.bot, r.release))
        .collect()
}

/// The leaderboard comes a bounded page at a time; a page token continues it, a bad one or an
/// oversized page is refused with the field named.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_is_served_in_bounded_pages() {
    let (_dir, store) = open();
    let mut state = ladder::LadderState::default();
    for i in 0..12 {
        state.ratings.record_pair(
            &arena_ratings::key(&format!("bot{i:02}"), "1"),
            "anchor@x",
            f64::from(i),
            0.0,
        );
    }
    let (kind, key) = ladder::state_key(arena_games::ddz::GAME);
    store
        .put_record(kind, key, &serde_json::to_vec(&state).unwrap())
        .await
        .unwrap();
    let svc = MatchmakerService::new(store.clone());
    let page = |limit: u32, token: &str| {
        let svc = svc.clone();
        let token = token.to_string();
        async move {
            svc.get_leaderboard(Request::new(v1::LeaderboardRequest {
                limit,
                game: String::new(),
                page_token: token,
            }))
            .await
        }
    };
    let mut seen = Vec::new();
    let mut token = String::new();
    let mut pages = 0;
    loop {
        let p = page(5, &token).await.unwrap().into_inner();
        assert!(p.ratings.len() <= 5);
        assert_eq!(p.total, 13);
        seen.extend(p.ratings.iter().map(|r| format!("{}@{}", r.bot, r.release)));
        pages += 1;
        token = p.next_page_token;
        if token.is_empty() {
            break;
        }
    }
    assert_eq!(pages, 3);
    let whole: Vec<String> = state
        .ratings
        .leaderboard()
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert_eq!(seen, whole, "the pages are the leaderboard, in order, once");
    let first = page(0, "").await.unwrap().into_inner();
    assert_eq!(first.ratings.len(), 13, "the default page holds up to 100");
    let e = page(501, "").await.unwrap_err();
    assert_eq!(e.code(), Code::OutOfRange, "{e:?}");
    assert!(e.message().starts_with("limit: at most 500"), "{e:?}");
    let e = page(5, "nonsense").await.unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert!(e.message().starts_with("page_token"), "{e:?}");
}
