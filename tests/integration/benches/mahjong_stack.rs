//! Mahjong through the whole stack, on loopback:
//! `cargo bench -p arena-integration --bench mahjong_stack -- [MATCHES] [embedded|redis]`.
//!
//! One process holds a cluster ([`arena_integration::Cluster`]: bot-host, a referee, the
//! matchmaker and its supervisor, on an embedded store or the local Redis) and four remote
//! Mahjong bots (the Rust example's Mahjong player, answering at once from the legal actions)
//! connected to bot-host over gRPC. Mahjong competitions of MATCHES (default 2) × 96 hands are
//! created on the matchmaker. Reported:
//!
//! 1. throughput: hands per second among the four remote bots, from creating the competition to
//!    its final standings, with the referee playing up to 64 hands at once;
//! 2. latency, with the referee playing one hand at a time (so nothing waits for the CPU): the
//!    claim windows, from asking the three other seats about a discard (or an added kong) until
//!    the last of their answers is in (the referee's `claim_window` span), p50/p99. The bots
//!    answer at once, so this is the decision overhead of one claim window answered by three
//!    remote bots: referee → bot-host → bot → bot-host → referee, three times side by side.
//!    For comparison, one remote seat's turn (a `decision` span of kind TURN), p50/p99;
//! 3. the same competition with four built-in `greedy` bots, played in the referee: hands/s.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arena_integration::{Backend, Cluster};
use arena_proto::v1;
use arena_proto::v1::matchmaker_server::Matchmaker;
use tonic::Request;
use tracing::span::{Attributes, Id};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// How long spans of interest lasted, in microseconds: claim windows and turns.
#[derive(Clone, Default)]
struct Durations {
    windows: Arc<Mutex<Vec<u64>>>,
    turns: Arc<Mutex<Vec<u64>>>,
}

impl Durations {
    fn take(&self) -> (Vec<u64>, Vec<u64>) {
        let take = |v: &Mutex<Vec<u64>>| std::mem::take(&mut *v.lock().unwrap());
        (take(&self.windows), take(&self.turns))
    }
}

/// What a span of interest is, and when it began.
struct Timed {
    window: bool,
    start: Instant,
}

/// Reads a decision span's `kind`.
struct Kind(bool);

impl tracing::field::Visit for Kind {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        if field.name() == "kind" {
            self.0 = value == v1::DecisionKind::Turn.as_str_name();
        }
    }
    fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
}

impl<S: tracing::Subscriber + for<'a> LookupSpan<'a>> Layer<S> for Durations {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let window = attrs.metadata().name() == "claim_window";
        if !window {
            let mut turn = Kind(false);
            attrs.record(&mut turn);
            if !turn.0 {
                return;
            }
        }
        if let Some(span) = ctx.span(id) {
            span.extensions_mut().insert(Timed {
                window,
                start: Instant::now(),
            });
        }
    }

    fn on_close(&self, id: Id, ctx: Context<'_, S>) {
        let Some(span) = ctx.span(&id) else { return };
        let ext = span.extensions();
        let Some(t) = ext.get::<Timed>() else { return };
        let us = t.start.elapsed().as_micros() as u64;
        let into = if t.window { &self.windows } else { &self.turns };
        into.lock().unwrap().push(us);
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0
}

/// Creates a Mahjong competition of `matches` matches among `participants` and follows it to
/// its final standings; hands per second.
async fn compete(cluster: &Cluster, name: &str, participants: [&str; 4], matches: u32) -> f64 {
    let spec = v1::CompetitionSpec {
        name: name.into(),
        game: "mahjong".into(),
        participants: participants.map(String::from).to_vec(),
        matches,
        ..Default::default()
    };
    let start = Instant::now();
    cluster
        .matchmaker
        .create_competition(Request::new(v1::CreateCompetitionRequest {
            spec: Some(spec),
        }))
        .await
        .expect("the competition");
    let st = cluster.final_standings(name).await;
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(st.tables_done, u64::from(matches) * 96);
    st.tables_done as f64 / secs
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let matches: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(2);
    let backend = match args.get(1).map(String::as_str) {
        Some("redis") => Backend::Redis,
        _ => Backend::Embedded,
    };
    let durations = Durations::default();
    // The referee's spans of remote tables (`info`), not the fast path's (`debug`).
    let only = tracing_subscriber::filter::filter_fn(|m| {
        m.is_span()
            && *m.level() <= tracing::Level::INFO
            && (m.name() == "claim_window" || m.name() == "decision")
    });
    tracing::subscriber::set_global_default(
        tracing_subscriber::registry().with(durations.clone().with_filter(only)),
    )
    .expect("the only subscriber");

    // Hands a referee plays at once: read whenever a referee starts.
    let at_once = Arc::new(AtomicUsize::new(64));
    let limit = at_once.clone();
    let bots = ["east", "south", "west", "north"];
    let mut cluster = Cluster::on(backend, "mjbench")
        .referee_config(move |c| c.max_tables = limit.load(Ordering::Relaxed))
        .referees(&["many"])
        .supervisor(Duration::from_millis(100))
        .mahjong_bots(&bots)
        .start()
        .await;
    let prefix = cluster.prefix().to_string();
    let remote = compete(&cluster, &format!("{prefix}-remote"), bots, matches).await;
    let builtin = ["greedy"; 4];
    let local = compete(&cluster, &format!("{prefix}-builtin"), builtin, matches).await;
    cluster.stop_referee("many").await;
    at_once.store(1, Ordering::Relaxed);
    cluster.start_referee("one");
    durations.take();
    let serial = compete(&cluster, &format!("{prefix}-serial"), bots, matches).await;
    let (mut windows, mut turns) = durations.take();
    windows.sort_unstable();
    turns.sort_unstable();
    let hands = matches * 96;
    println!("Mahjong through the whole stack ({backend:?} store), {hands} hands a run:");
    println!("  four remote bots, up to 64 hands at once: {remote:>7.1} hands/s");
    println!("  four built-in greedy bots in the referee: {local:>7.1} hands/s");
    println!("  four remote bots, one hand at a time:     {serial:>7.1} hands/s, of which");
    println!(
        "    claim windows answered by three remote bots: {:>6} windows, p50 {:.3} ms, p99 {:.3} ms",
        windows.len(),
        percentile(&windows, 0.5),
        percentile(&windows, 0.99)
    );
    println!(
        "    one remote seat's turn:                      {:>6} turns,   p50 {:.3} ms, p99 {:.3} ms",
        turns.len(),
        percentile(&turns, 0.5),
        percentile(&turns, 0.99)
    );
    cluster.shutdown().await;
}
