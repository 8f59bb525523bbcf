//! A Mahjong table is one trace across services, with a span per claim window: an in-process
//! OTLP collector receives the spans of a Mahjong competition an operator created on the
//! matchmaker, its hands on the referee and the remote Mahjong bot's seats on bot-host. Every
//! round that asks the three other seats about a discard (or an added kong) is one
//! `claim_window` span whose children are exactly its three decisions, and the windows are the
//! hand's claim rounds as its replay records them.

use std::collections::{BTreeSet, HashMap};

use arena_integration::cluster::PATIENCE;
use arena_integration::collector::{self, Collector, Span, Trace};
use arena_integration::{Backend, Cluster};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use prost::Message;
use tonic::Request;

fn attr<'a>(s: &'a Span, key: &str) -> &'a str {
    s.attrs.get(key).map_or("", String::as_str)
}

fn is_claim(kind: &str) -> bool {
    kind == v1::DecisionKind::Claim.as_str_name() || kind == v1::DecisionKind::RobKong.as_str_name()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mahjong_table_is_one_trace_with_a_span_per_claim_window() {
    let (collector, addr) = Collector::start().await;
    // SAFETY: set before any thread reads the environment for telemetry; this test binary holds
    // only this test.
    unsafe { collector::export_to(addr, None) };
    let telemetry = arena_telemetry::init("arena-e2e").unwrap();
    assert!(telemetry.exporting());

    // One referee playing two hands at a time, and a remote Mahjong bot.
    let cluster = Cluster::on(Backend::Embedded, "mjtrace")
        .referee_config(|c| c.max_tables = 2)
        .referees(&["t"])
        .mahjong_bots(&["north"])
        .start()
        .await;
    let name = format!("{}-mj", cluster.prefix());
    let spec = v1::CompetitionSpec {
        name: name.clone(),
        game: "mahjong".into(),
        participants: ["north", "expert", "greedy", "random"]
            .map(String::from)
            .to_vec(),
        matches: 1,
        ..Default::default()
    };
    let created = cluster.create_traced(spec).await;
    assert_eq!(created.tables_total, 96);
    // A match is 96 hands; a few are enough to trace, so the rest are cancelled once the first
    // is in (the hands in flight then are played to the end).
    cluster.results(&name, 1).await;
    cluster
        .matchmaker
        .cancel_competition(Request::new(v1::CompetitionRequest { name: name.clone() }))
        .await
        .unwrap();
    cluster.drained().await;
    let mut played: Vec<v1::Replay> = Vec::new();
    for (id, _) in cluster.store.results_for(&name).await.unwrap() {
        let bytes = cluster.store.replay(&id).await.unwrap().expect("a replay");
        let replay = v1::Replay::decode(bytes.as_slice()).unwrap();
        if replay.result.as_ref().is_some_and(|r| r.error.is_empty()) {
            played.push(replay);
        }
    }
    assert!(!played.is_empty());
    let ids: BTreeSet<String> = played
        .iter()
        .map(|r| r.result.as_ref().unwrap().table_id.clone())
        .collect();

    // Every played hand's table span and bot-host's seat span have arrived (a table's spans
    // end before it; the seat's when bot-host closes the stream).
    let complete = |c: &Collector| {
        let spans = c.spans();
        let ended = |name: &str, key: &str| -> BTreeSet<String> {
            spans
                .iter()
                .filter(|s| s.name == name)
                .map(|s| attr(s, key).to_string())
                .collect()
        };
        ended("table", "table_id").is_superset(&ids) && ended("seat", "table").is_superset(&ids)
    };
    assert!(
        collector
            .wait_for(PATIENCE, || telemetry.flush(), complete)
            .await,
        "the spans of hands {ids:?} did not all arrive"
    );
    let spans = collector.spans();
    let root = spans
        .iter()
        .find(|s| s.name == "operator")
        .expect("the operator's span");
    let trace = Trace::of(&spans, &root.trace);
    let rpc = trace
        .spans
        .iter()
        .find(|s| s.name == "arena.v1.Matchmaker/CreateCompetition")
        .expect("the matchmaker's RPC span is in the operator's trace");
    assert_eq!(rpc.parent, root.id);
    assert_eq!(trace.count("create_competition"), 1);

    for replay in &played {
        let id = &replay.result.as_ref().unwrap().table_id;
        let table = trace
            .spans
            .iter()
            .find(|s| s.name == "table" && attr(s, "table_id") == id)
            .unwrap_or_else(|| panic!("hand {id}'s table span is in the competition's trace"));
        assert_eq!(attr(table, "game"), "mahjong");
        // bot-host's seat of the remote bot, in the same trace under the table.
        let seats: Vec<&Span> = trace
            .spans
            .iter()
            .filter(|s| s.name == "seat" && attr(s, "table") == id)
            .collect();
        assert_eq!(seats.len(), 1, "{id}: one remote seat");
        assert_eq!(attr(seats[0], "bot"), "north");
        assert!(trace.descends_from(seats[0], table), "{id}");

        let under = |name: &str| -> Vec<&Span> {
            trace
                .spans
                .iter()
                .filter(|s| s.name == name && trace.descends_from(s, table))
                .collect()
        };
        let windows = under("claim_window");
        let decisions = under("decision");
        assert_eq!(
            decisions.len(),
            replay.steps.len(),
            "{id}: a decision span per step"
        );
        let mut children: HashMap<&Vec<u8>, Vec<&Span>> = HashMap::new();
        for d in &decisions {
            children.entry(&d.parent).or_default().push(d);
            // A claim is asked inside its window; a turn directly under the table.
            let parent = trace.get(&d.parent).expect("the decision's parent");
            let want = if is_claim(attr(d, "kind")) {
                "claim_window"
            } else {
                "table"
            };
            assert_eq!(parent.name, want, "{id}: {:?}", d.attrs);
        }
        // The windows are the hand's claim rounds: three claims in a row after the turn of the
        // seat they answer.
        let claims = replay
            .steps
            .iter()
            .filter(|s| is_claim(s.kind().as_str_name()))
            .count();
        assert!(claims > 0, "{id}: a hand has discards to answer");
        assert_eq!(windows.len() * 3, claims, "{id}");
        let mut firsts = BTreeSet::new();
        for w in &windows {
            assert_eq!(attr(w, "table_id"), id);
            assert_eq!(attr(w, "seats"), "3", "{id}: {:?}", w.attrs);
            let from: u32 = attr(w, "from").parse().expect("the seat answered");
            let mine = children.get(&w.id).map_or(&[][..], Vec::as_slice);
            assert_eq!(mine.len(), 3, "{id}: a window's decisions are its children");
            let mut index: Vec<usize> = mine
                .iter()
                .map(|d| attr(d, "index").parse().unwrap())
                .collect();
            index.sort_unstable();
            let first = index[0];
            assert_eq!(index, [first, first + 1, first + 2], "{id}: one round");
            let seats: BTreeSet<u32> = mine
                .iter()
                .map(|d| attr(d, "seat").parse().unwrap())
                .collect();
            assert_eq!(seats, (0..4).filter(|s| *s != from).collect(), "{id}");
            let before = &replay.steps[first - 1];
            assert_eq!(
                (before.seat, before.kind()),
                (from, v1::DecisionKind::Turn),
                "{id}: the window answers the turn before it"
            );
            firsts.insert(first);
        }
        assert_eq!(firsts.len(), windows.len(), "{id}: no round twice");
    }
    // Every span of the trace hangs inside it.
    for s in trace.spans.iter().filter(|s| s.id != root.id) {
        assert!(
            trace.get(&s.parent).is_some(),
            "{} has a parent outside the trace",
            s.name
        );
    }
    cluster.shutdown().await;
}
