//! What a day of ladder play costs in Redis:
//! `cargo bench -p arena-integration --bench ladder_memory -- [SECONDS]`.
//!
//! One process holds a cluster on the local Redis (bot-host, two referees) with remote bots
//! connected over gRPC: two Dou Dizhu bots (the Rust example's player, answering at once)
//! beside the `expert` anchor, and four Mahjong bots (the example's Mahjong player) beside the
//! `greedy` anchor. Both ladders run for SECONDS (default 60); then every key their tables left
//! is measured with `MEMORY USAGE` (results, replays, their listing and the deal groups) and
//! divided by the pairs (sets) rated. Reported per game: bytes per rated pair (set), pairs (sets)
//! rated per second here, and the memory a day at that rate costs. The bots answer at once, so
//! the rate is an upper bound for these bots; a day of play costs (pairs per day) × (bytes per
//! pair), and a ladder keeps `--ladder-retention-days` of them.

use std::time::{Duration, Instant};

use arena_games::GameKind;
use arena_integration::{Backend, Cluster};
use arena_matchmaker::ladder::{self, LadderConfig};
use arena_store::Store;

/// Bytes Redis holds for `key` (`MEMORY USAGE … SAMPLES 0`: every element counted).
fn usage(con: &mut redis::Connection, key: &str) -> u64 {
    redis::cmd("MEMORY")
        .arg("USAGE")
        .arg(key)
        .arg("SAMPLES")
        .arg(0)
        .query::<Option<u64>>(con)
        .expect("MEMORY USAGE")
        .unwrap_or(0)
}

fn keys(con: &mut redis::Connection, pattern: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cursor = 0u64;
    loop {
        let (next, batch): (u64, Vec<String>) = redis::cmd("SCAN")
            .arg(cursor)
            .arg("MATCH")
            .arg(pattern)
            .arg("COUNT")
            .arg(1000)
            .query(con)
            .expect("SCAN");
        out.extend(batch);
        if next == 0 {
            return out;
        }
        cursor = next;
    }
}

/// The Redis bytes of the tables listed under one competition (or ladder).
struct TableBytes {
    tables: u64,
    results: u64,
    replays: u64,
    listing: u64,
    groups: u64,
}

impl TableBytes {
    fn total(&self) -> u64 {
        self.results + self.replays + self.listing + self.groups
    }

    /// The parts, per one of `n`.
    fn per(&self, n: u64) -> String {
        let n = n.max(1) as f64;
        format!(
            "results {:.0}, replays {:.0}, listing {:.0}, deal groups {:.0}",
            self.results as f64 / n,
            self.replays as f64 / n,
            self.listing as f64 / n,
            self.groups as f64 / n
        )
    }
}

async fn tables_bytes(
    con: &mut redis::Connection,
    store: &dyn Store,
    prefix: &str,
    competition: &str,
) -> TableBytes {
    let tables: Vec<String> = store
        .results_for(competition)
        .await
        .expect("the results")
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let mut out = TableBytes {
        tables: tables.len() as u64,
        results: 0,
        replays: 0,
        listing: usage(con, &format!("{prefix}:competition-results:{competition}")),
        groups: 0,
    };
    for t in &tables {
        out.results += usage(con, &format!("{prefix}:result:{t}"));
        out.replays += usage(con, &format!("{prefix}:replay:{t}"));
    }
    // This competition's deal groups, fields of one hash: their share of its bytes, by length.
    let groups_key = format!("{prefix}:records:deal-group");
    let fields: Vec<(String, String)> = redis::cmd("HGETALL")
        .arg(&groups_key)
        .query(con)
        .unwrap_or_default();
    let len = |(k, v): &(String, String)| (k.len() + v.len()) as u64;
    let all: u64 = fields.iter().map(len).sum();
    let ours: u64 = fields
        .iter()
        .filter(|(k, _)| k.starts_with(&format!("{competition}/")))
        .map(len)
        .sum();
    out.groups = usage(con, &groups_key) * ours / all.max(1);
    out
}

async fn rated(store: &dyn Store, game: GameKind) -> u64 {
    let (s, _) = ladder::load(store, game).await.expect("the ladder's state");
    s.next_pair - s.pending.len() as u64 - s.discarded
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let seconds: u64 = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or(60, |a| a.parse().expect("SECONDS is a number"));
    let cluster = Cluster::on(Backend::Redis, "ladder-memory")
        .referees(&["m1", "m2"])
        .remote_bots(&["north", "south"])
        .mahjong_bots(&["tiles-a", "tiles-b", "tiles-c", "tiles-d"])
        .start()
        .await;
    let store = cluster.store.clone();
    let prefix = cluster.prefix().to_string();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut ladders = Vec::new();
    for (game, anchor) in [
        (arena_games::ddz::GAME, "expert"),
        (arena_games::mahjong::GAME, "greedy"),
    ] {
        let cfg = LadderConfig {
            game,
            every: Duration::from_millis(50),
            anchors: vec![anchor.to_string()],
            ..LadderConfig::default()
        };
        let mut rx = stopped.clone();
        ladders.push(tokio::spawn(ladder::run(store.clone(), cfg, async move {
            let _ = rx.wait_for(|s| *s).await;
        })));
    }
    let start = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let _ = stop.send(true);
    for l in ladders {
        l.await.expect("a ladder");
    }
    let elapsed = start.elapsed().as_secs_f64();
    cluster.drained().await;

    let client = redis::Client::open(arena_integration::redis::REDIS).expect("Redis");
    let mut con = client.get_connection().expect("a connection");
    println!(
        "ladder memory on Redis ({seconds} s of play, {} CPUs; `MEMORY USAGE`, SAMPLES 0)",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    for game in GameKind::all() {
        let n = rated(&*store, game).await;
        let competition = ladder::competition(game);
        let bytes = tables_bytes(&mut con, &*store, &prefix, competition).await;
        let unit = if game == arena_games::mahjong::GAME {
            "set"
        } else {
            "pair"
        };
        let per = bytes.total() as f64 / n.max(1) as f64;
        let rate = n as f64 / elapsed;
        println!(
            "  {competition}: {n} {unit}s rated ({} tables): {per:.0} bytes per {unit} ({}); \
             {rate:.2} {unit}s/s here, so a day at this rate: {:.0} {unit}s, {:.0} MiB",
            bytes.tables,
            bytes.per(n),
            rate * 86_400.0,
            per * rate * 86_400.0 / (1024.0 * 1024.0)
        );
    }
    let keys_left = keys(&mut con, &format!("{prefix}:*")).len();
    println!("  ({keys_left} keys under the bench's prefix, deleted now)");
    cluster.shutdown().await;
}
