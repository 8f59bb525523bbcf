//! All four services on Redis: deal-library measures a library through the referee's GDI
//! batches, the matchmaker runs an equal-strength competition between remote bots (over gRPC
//! through bot-host) and a built-in bot, standings and replays come back; then the tables/s of
//! the whole stack. Telemetry is exported to an in-process OTLP collector throughout: a table of
//! the competition is one trace from the matchmaker through the referee to bot-host and Redis,
//! and every role's metrics arrive.
//!
//! Telemetry is global to a process, so this binary holds this one test.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use arena_integration::collector::{self, Collector, Kind, Span, Trace};
use arena_integration::{Backend, Cluster};
use arena_proto::v1;
use arena_proto::v1::deal_library_server::DealLibrary;
use arena_proto::v1::matchmaker_server::Matchmaker;
use tokio_stream::StreamExt;
use tonic::Request;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_equal_strength_competition_between_remote_and_built_in_bots_on_redis() {
    // Telemetry first: instruments made before `init` would stay no-ops.
    let (collector, addr) = Collector::start().await;
    // SAFETY: no other thread reads the environment yet; this binary holds only this test.
    unsafe { collector::export_to(addr, Some(250)) };
    let telemetry = arena_telemetry::init("arena-e2e").unwrap();
    assert!(telemetry.exporting());

    let cluster = Cluster::on(Backend::Redis, "comp")
        .referees(&["e2e"])
        .remote_bots(&["north", "east"])
        .supervisor(Duration::from_millis(100))
        .start()
        .await;
    let (library, matchmaker) = (&cluster.library, &cluster.matchmaker);
    let prefix = cluster.prefix().to_string();

    // Measure a library through the job stream.
    let panel = v1::PanelSpec {
        landlords: "ladder:5".into(),
        farmers: "expert".into(),
        scoring: "difficulty".into(),
        ..Default::default()
    };
    let op = library
        .measure(Request::new(v1::MeasureRequest {
            panel: Some(panel.clone()),
            seed: 5,
            bombs: Some(1),
            count: 400,
            batch: 50,
        }))
        .await
        .unwrap()
        .into_inner();
    let op = cluster.operation(&op.id).await;
    assert!(op.error.is_empty(), "{op:?}");

    // An equal-strength competition: two remote bots and a built-in one as landlords.
    let spec = v1::CompetitionSpec {
        name: format!("{prefix}-cup"),
        format: "equal-strength".into(),
        centre: vec![0.8, 0.4, 0.2],
        eps: 0.6,
        participants: vec!["north".into(), "east".into(), "expert".into()],
        farmers: "expert".into(),
        matches: 4,
        rounds: 5,
        panel: Some(panel),
        seed: 3,
        time: Some(v1::TimeControl {
            decision_ms: 2000,
            hard_cap_ms: 10_000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        ..Default::default()
    };
    // The matchmaker's supervisor (progress, final standings) runs throughout, as in a deployment:
    // its passes while `create_competition` is still enqueueing must not take the competition for
    // an interrupted one and enqueue its tables a second time.
    let created = Instant::now();
    let comp = matchmaker
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(spec.clone()),
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(comp.tables_total, 60);
    let standings = cluster.final_standings(&spec.name).await;
    let secs = created.elapsed().as_secs_f64();
    eprintln!(
        "competition: 60 tables through the whole stack in {secs:.2} s ({:.1} tables/s)",
        60.0 / secs
    );
    assert!(standings.r#final, "{standings:?}");
    assert_eq!(standings.tables_done, 60);
    assert_eq!(standings.standings.len(), 3);
    // Every table's replay is there, and the remote bots really played (no verdicts).
    let replays: Vec<v1::Replay> = matchmaker
        .export_replays(Request::new(v1::CompetitionRequest {
            name: spec.name.clone(),
        }))
        .await
        .unwrap()
        .into_inner()
        .map(|r| r.unwrap())
        .collect()
        .await;
    assert_eq!(replays.len(), 60);
    for r in &replays {
        let result = r.result.as_ref().unwrap();
        assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    }
    let remote_tables = replays
        .iter()
        .filter(|r| r.job.as_ref().is_some_and(|j| j.seats[0].bot != "expert"))
        .count();
    assert_eq!(remote_tables, 40);

    // One table is one trace: the competition's, across matchmaker, referee, bot-host and Redis.
    let mut verdict = Err("nothing checked yet".to_string());
    let traced = collector
        .wait_for(
            Duration::from_secs(20),
            || telemetry.flush(),
            |c| {
                verdict = check_trace(&c.spans());
                verdict.is_ok()
            },
        )
        .await;
    assert!(traced, "{verdict:?}");
    eprintln!("traced: {}", verdict.unwrap_or_default());

    // Every role's metrics arrive.
    let mut missing = Vec::new();
    let measured = collector
        .wait_for(
            Duration::from_secs(20),
            || telemetry.flush(),
            |c| {
                missing = missing_metrics(c);
                missing.is_empty()
            },
        )
        .await;
    assert!(
        measured,
        "missing {missing:?}; received {:?}",
        collector.metric_names()
    );
    eprintln!(
        "metrics: {} tables started, {} decisions relayed by bot-host",
        collector
            .latest("arena.tables.started", &[])
            .map_or(0.0, |p| p.value),
        collector
            .latest("arena.decisions", &[("role", "bot-host")])
            .map_or(0.0, |p| p.value)
    );

    cluster.shutdown().await;
}

/// Checks that the competition's trace (rooted at the matchmaker's `create_competition`, with
/// Redis calls below it) holds a table played by a remote bot with its decisions, bot-host's seat
/// and Redis calls below it, and that every span of the trace but its root has its parent in the
/// trace. Returns which table, or what is missing.
fn check_trace(spans: &[Span]) -> Result<String, String> {
    let root = spans
        .iter()
        .find(|s| s.name == "create_competition")
        .ok_or("no create_competition span (the matchmaker's) yet")?;
    let trace = Trace::of(spans, &root.trace);
    for s in &trace.spans {
        if s.id != root.id && trace.get(&s.parent).is_none() {
            return Err(format!(
                "{} {:?} has its parent outside the trace",
                s.name, s.attrs
            ));
        }
    }
    let names: BTreeSet<&str> = trace.spans.iter().map(|s| s.name.as_str()).collect();
    for s in trace.spans.iter().filter(|s| s.name == "redis") {
        let op = s.attrs.get("db.operation").map_or("", String::as_str);
        if s.attrs.get("db.system").map(String::as_str) != Some("redis") || op.is_empty() {
            return Err(format!(
                "a redis span without db.system or db.operation: {s:?}"
            ));
        }
    }
    let below = |name: &str, top: &Span| {
        trace
            .spans
            .iter()
            .filter(|s| s.name == name && s.id != top.id && trace.descends_from(s, top))
            .count()
    };
    if below("redis", root) == 0 {
        return Err(format!("no redis span below create_competition: {names:?}"));
    }
    // A seat of bot-host below the table, with bot-host's own Redis call (its bot lookup) below
    // the seat: the trace crossed from the referee to bot-host and on to Redis.
    let seat_with_redis = |t: &Span| {
        trace
            .spans
            .iter()
            .any(|s| s.name == "seat" && trace.descends_from(s, t) && below("redis", s) >= 1)
    };
    let table = trace
        .spans
        .iter()
        .filter(|s| s.name == "table")
        .find(|t| seat_with_redis(t) && below("decision", t) >= 5 && below("redis", t) >= 2)
        .ok_or_else(|| {
            format!(
                "no table with decisions, bot-host's seat and Redis calls below it ({} tables, {} seats, {} decisions, {} redis calls in the trace)",
                trace.count("table"),
                trace.count("seat"),
                trace.count("decision"),
                trace.count("redis")
            )
        })?;
    let ops: BTreeSet<&str> = trace
        .spans
        .iter()
        .filter(|s| s.name == "redis" && trace.descends_from(s, table))
        .filter_map(|s| s.attrs.get("db.operation").map(String::as_str))
        .collect();
    Ok(format!(
        "table {} with {} decisions and Redis calls {ops:?} below it, in a trace of {} spans",
        table.attrs.get("table_id").map_or("?", String::as_str),
        below("decision", table),
        trace.spans.len()
    ))
}

/// What is missing from the metrics received so far: each role's instruments with values that
/// fit the run (400 deals measured, 60 tables, two remote bots connected). Tables are counted at
/// least 60 times, not exactly: a table whose job is delivered again is played (and counted)
/// again, and its second result is dropped.
fn missing_metrics(c: &Collector) -> Vec<String> {
    let mut missing = Vec::new();
    let mut want = |ok: bool, what: &str| {
        if !ok {
            missing.push(what.to_string());
        }
    };
    let value = |metric: &str, with: &[(&str, &str)]| c.latest(metric, with).map(|p| p.value);
    // The referee.
    want(
        value("arena.tables.started", &[]).is_some_and(|v| v >= 60.0),
        "arena.tables.started >= 60",
    );
    want(
        value("arena.tables.finished", &[]).is_some_and(|v| v >= 60.0),
        "arena.tables.finished >= 60",
    );
    want(
        value("arena.decisions", &[("seat_kind", "remote")]).is_some_and(|v| v > 0.0),
        "arena.decisions{seat_kind=remote}",
    );
    want(
        c.latest("arena.decision.latency", &[("seat_kind", "remote")])
            .is_some_and(|p| p.kind == Kind::Histogram && p.count > 0 && p.value > 0.0),
        "arena.decision.latency{seat_kind=remote} with count > 0",
    );
    want(
        c.latest("arena.queue.depth", &[("state", "waiting")])
            .is_some_and(|p| p.kind == Kind::Gauge),
        "arena.queue.depth{state=waiting}",
    );
    want(
        value("arena.deals.measured", &[]) == Some(400.0),
        "arena.deals.measured = 400",
    );
    // bot-host.
    want(
        value("arena.bots.connected", &[]) == Some(2.0),
        "arena.bots.connected = 2",
    );
    want(
        c.latest("arena.seats.open", &[("bot_kind", "remote")])
            .is_some_and(|p| p.kind == Kind::Sum),
        "arena.seats.open{bot_kind=remote}",
    );
    let relayed = [("role", "bot-host"), ("bot_kind", "remote")];
    want(
        value("arena.decisions", &relayed).is_some_and(|v| v > 0.0),
        "arena.decisions{role=bot-host,bot_kind=remote}",
    );
    want(
        c.latest("arena.decision.latency", &relayed)
            .is_some_and(|p| p.kind == Kind::Histogram && p.count > 0),
        "arena.decision.latency{role=bot-host,bot_kind=remote} with count > 0",
    );
    // The deal library.
    want(
        value("arena.library.operations", &[("kind", "measure")]) == Some(1.0),
        "arena.library.operations{kind=measure} = 1",
    );
    missing
}
