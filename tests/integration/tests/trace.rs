//! One table is one trace across services: an in-process OTLP collector receives the spans of a
//! competition created on the matchmaker, its tables run by the referee, and the seats bot-host
//! serves to a remote bot — all under the trace of the call that created the competition.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use arena_integration::collector::{self, Collector, Span};
use arena_integration::{Backend, Cluster};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_store::DealSource;
use tonic::Request;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_table_is_one_trace_across_matchmaker_referee_and_bot_host() {
    // The collector, receiving spans only.
    let (collector, addr) = Collector::start().await;
    // SAFETY: set before any thread reads the environment for telemetry; this test binary holds
    // only this test.
    unsafe { collector::export_to(addr, None) };
    let telemetry = arena_telemetry::init("arena-e2e").unwrap();
    assert!(telemetry.exporting());

    // The stack on an embedded store: bot-host with one remote bot, a referee, the matchmaker.
    let cluster = Cluster::on(Backend::Embedded, "trace")
        .referees(&["t"])
        .remote_bots(&["north"])
        .start()
        .await;
    let store = cluster.store.clone();
    let panel = v1::PanelSpec {
        landlords: "ladder:5".into(),
        farmers: "expert".into(),
        scoring: String::new(),
        ..Default::default()
    };
    let measure = arena_deals::MeasureSpec {
        panel: arena_deals::batch::panel_of(&panel).unwrap(),
        source: DealSource {
            seed: 2,
            bombs: Some(1),
        },
        count: 20,
        rules: ddz::RuleSet::COMPETITION,
        threads: 1,
        batch: 20,
    };
    arena_deals::measure(
        &*store,
        &measure,
        &arena_deals::Progress::default(),
        &AtomicBool::new(false),
    )
    .await
    .unwrap();
    // One competition of two tables: the remote bot's and a built-in bot's.
    let mm = &cluster.matchmaker;
    let spec = v1::CompetitionSpec {
        name: "traced".into(),
        format: "random".into(),
        participants: vec!["north".into(), "expert".into()],
        farmers: "expert".into(),
        matches: 1,
        rounds: 1,
        panel: Some(panel),
        ..Default::default()
    };
    // An operator's client call, in a span of its own: the trace starts there and crosses gRPC.
    cluster.create_traced(spec).await;
    let start = Instant::now();
    loop {
        let c = mm
            .get_competition(Request::new(v1::CompetitionRequest {
                name: "traced".into(),
            }))
            .await
            .unwrap()
            .into_inner();
        if c.state == "finished" {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{c:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Wait for the exporter to deliver the seat spans (they end when the tables end).
    let start = Instant::now();
    let spans = loop {
        telemetry.flush();
        let spans = collector.spans();
        let count = |name: &str| spans.iter().filter(|s| s.name == name).count();
        if (count("seat") >= 1 && count("table") >= 2) || start.elapsed() > Duration::from_secs(20)
        {
            break spans;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let root = spans
        .iter()
        .find(|s| s.name == "operator")
        .expect("the operator's span");
    let trace: Vec<&Span> = spans.iter().filter(|s| s.trace == root.trace).collect();
    let ids: HashSet<&Vec<u8>> = trace.iter().map(|s| &s.id).collect();
    let names: HashMap<&str, usize> = trace.iter().fold(HashMap::new(), |mut m, s| {
        *m.entry(s.name.as_str()).or_default() += 1;
        m
    });
    assert_eq!(
        names.get("table"),
        Some(&2),
        "both tables join the competition's trace: {names:?}"
    );
    assert!(
        names.get("decision").copied().unwrap_or(0) >= 10,
        "{names:?}"
    );
    // The remote bot's seat is served by bot-host, whose span joins the same trace.
    let seats: Vec<&&Span> = trace.iter().filter(|s| s.name == "seat").collect();
    assert!(
        !seats.is_empty(),
        "bot-host's seat spans are in the trace: {names:?}"
    );
    // The call crossed gRPC: the matchmaker's server span is the operator's child, and the
    // competition's own span is in the same trace.
    let rpc = trace
        .iter()
        .find(|s| s.name == "arena.v1.Matchmaker/CreateCompetition")
        .unwrap_or_else(|| panic!("the matchmaker's RPC span: {names:?}"));
    assert_eq!(rpc.parent, root.id);
    assert_eq!(names.get("create_competition"), Some(&1), "{names:?}");
    for s in trace.iter().filter(|s| s.name != "operator") {
        assert!(
            ids.contains(&s.parent),
            "{} has a parent outside the trace",
            s.name
        );
    }
}
