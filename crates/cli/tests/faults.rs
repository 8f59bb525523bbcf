//! Infrastructure faults, with every role its own process: none of them is ever a bot's fault,
//! every table is counted once, and a store that lost its data is detected.
//!
//! - bot-host SIGKILLed in the middle of a competition with remote and program bots, and
//!   started again;
//! - Redis restarted empty under a running competition;
//! - a referee cut off from Redis for ten seconds (a network namespace of the test's own,
//!   joined to Redis by a veth pair whose link is taken down).

mod common;

use std::collections::BTreeSet;
use std::process::Command;
use std::time::{Duration, Instant};

use arena_testkit::redis_server::RedisServer;
use common::{Cluster, Role, add_remote_bot, assert_counted_once_and_blameless, unique_prefix};

const REDIS: &str = "redis://127.0.0.1:6379";

#[test]
fn bot_host_killed_mid_competition_and_restarted_blames_no_bot() {
    let prefix = unique_prefix("host-kill");
    common::add_program_bot("pybot", REDIS, &prefix);
    let store = Cluster::store_args(REDIS, &prefix);
    let store: Vec<&str> = store.iter().map(String::as_str).collect();
    let tokens: Vec<(&str, String)> = ["north", "south"]
        .into_iter()
        .map(|b| (b, add_remote_bot(b, &store)))
        .collect();
    let mut cluster = Cluster::start(REDIS, &prefix, 1, &[]);
    // The remote bots reconnect whenever their stream drops, as real bots do.
    let rt = tokio::runtime::Runtime::new().unwrap();
    for (name, token) in tokens {
        let url = cluster.bot_url.clone();
        rt.spawn(async move {
            arena_example_remote_bot::play_forever(
                &url,
                name,
                &token,
                16,
                Duration::from_millis(100),
            )
            .await
        });
    }
    cluster.measure(300);
    let _client = cluster.create(&[
        "--name",
        "cup",
        "--format",
        "random",
        "--participants",
        "pybot,north,south,expert",
        "--panel",
        "ladder:5",
        "--matches",
        "4",
        "--rounds",
        "8",
    ]);
    let total = cluster.wait_for_tables("cup", 15, Duration::from_secs(90));
    cluster.host.restart();
    assert_eq!(
        cluster.wait_finished("cup", Duration::from_secs(240)),
        total
    );
    assert_counted_once_and_blameless(&cluster.replays("cup"), total);
    // The kill hit tables: the referee had to open seats again.
    let logs = std::fs::read_to_string(&cluster.log).unwrap();
    assert!(
        logs.contains("the platform failed under the seat")
            || logs.contains("cannot open the seat yet"),
        "{}",
        cluster.logs()
    );
}

#[test]
fn redis_restarted_empty_is_detected_and_nothing_is_written_for_the_lost_competition() {
    let mut redis = RedisServer::builder().generated_password().start();
    let prefix = unique_prefix("redis-empty");
    // Few tables at once, with a slow bot, so the competition is still running when Redis goes.
    let mut cluster = Cluster::start(&redis.url(), &prefix, 1, &["--max-tables", "2"]);
    cluster.measure(200);
    let _client = cluster.create(&[
        "--name",
        "lost",
        "--format",
        "random",
        "--participants",
        "search:samples=400,candidates=32,expert,seed",
        "--panel",
        "ladder:5",
        "--matches",
        "6",
        "--rounds",
        "6",
    ]);
    cluster.wait_for_tables("lost", 10, Duration::from_secs(60));
    redis.restart();
    // Every role notices (within its checks of the instance record) and stops serving.
    let start = Instant::now();
    loop {
        let health = cluster.health();
        if health.iter().all(|(_, serving)| !serving) {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "still serving: {health:?}\n{}",
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The referee stops (SIGTERM, as Kubernetes would): it finishes or hands back the tables in
    // flight first, so once it has exited every write it would ever attempt has been made.
    // None of their results is written to the empty store.
    for referee in &mut cluster.referees {
        referee.terminate(Duration::from_secs(60));
    }
    let client = redis::Client::open(redis.url()).unwrap();
    let mut con = client.get_connection().unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query(&mut con)
        .unwrap();
    let written: Vec<&String> = keys
        .iter()
        .filter(|k| {
            k.contains(":result:")
                || k.contains(":replay:")
                || k.ends_with("}:results")
                || k.contains(":records:competition")
                || k.ends_with("}:deals")
        })
        .collect();
    assert!(written.is_empty(), "written after the loss: {written:?}");
    let logs = std::fs::read_to_string(&cluster.log).unwrap();
    assert!(
        logs.contains("THE STORE LOST ITS DATA"),
        "{}",
        cluster.logs()
    );
}

/// A network namespace with a veth link to the host's namespace, removed when dropped.
struct NetNs {
    name: String,
    host_link: String,
    host_ip: String,
}

fn ip(args: &[&str]) {
    let out = Command::new("ip")
        .args(args)
        .output()
        .expect("ip (iproute2) runs");
    assert!(
        out.status.success(),
        "ip {}: {} (network namespaces need root and iproute2)",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

impl NetNs {
    fn new() -> NetNs {
        let n = std::process::id() % 200 + 20;
        let name = format!("arena-t{}", std::process::id());
        let (host_link, ns_link) = (format!("avh{n}"), format!("avn{n}"));
        let (host_ip, ns_ip) = (format!("10.231.{n}.1"), format!("10.231.{n}.2"));
        let _ = Command::new("ip").args(["netns", "del", &name]).output();
        let _ = Command::new("ip")
            .args(["link", "del", &host_link])
            .output();
        ip(&["netns", "add", &name]);
        ip(&[
            "link", "add", &host_link, "type", "veth", "peer", "name", &ns_link,
        ]);
        ip(&["link", "set", &ns_link, "netns", &name]);
        ip(&["addr", "add", &format!("{host_ip}/30"), "dev", &host_link]);
        ip(&["link", "set", &host_link, "up"]);
        let exec = |args: &[&str]| ip(&[&["netns", "exec", &name, "ip"][..], args].concat());
        exec(&["addr", "add", &format!("{ns_ip}/30"), "dev", &ns_link]);
        exec(&["link", "set", &ns_link, "up"]);
        exec(&["link", "set", "lo", "up"]);
        NetNs {
            name,
            host_link,
            host_ip,
        }
    }

    fn cut(&self, down: bool) {
        ip(&[
            "link",
            "set",
            &self.host_link,
            if down { "down" } else { "up" },
        ]);
    }
}

impl Drop for NetNs {
    fn drop(&mut self) {
        let _ = Command::new("ip")
            .args(["link", "del", &self.host_link])
            .output();
        let _ = Command::new("ip")
            .args(["netns", "del", &self.name])
            .output();
    }
}

#[test]
fn a_referee_cut_off_from_redis_for_ten_seconds_counts_every_table_once() {
    let ns = NetNs::new();
    let redis = RedisServer::builder()
        .bind(&["127.0.0.1", &ns.host_ip])
        .generated_password()
        .start();
    let prefix = unique_prefix("partition");
    // Two referees share the work: one behind the veth link, one in the host's namespace. The one
    // behind the link starts alone (it measures the library and plays the first tables, so it
    // surely has played its share and holds tables when the link goes down, however fast the
    // machine); the host's referee joins just before the cut. Few tables at once each, and a
    // search player slow enough that the competition is still running when the link goes down.
    let slow = ["--max-tables", "2", "--reclaim-after-ms", "3000"];
    let cluster = Cluster::start(&redis.url(), &prefix, 0, &slow);
    let remote_redis = redis.url_at(&ns.host_ip);
    let mut args = cluster.referee_args(&remote_redis);
    args.extend(["--listen".into(), "127.0.0.1:50051".into()]);
    args.extend(slow.iter().map(|s| s.to_string()));
    args.extend(["--id".into(), "referee-behind-the-link".into()]);
    let _cut_off = Role::start_in(
        Some(&ns.name),
        "table-referee",
        &args,
        Some(cluster.log.clone()),
    );
    cluster.measure(200);
    let _client = cluster.create(&[
        "--name",
        "split",
        "--format",
        "random",
        "--participants",
        "search:samples=400,candidates=32,expert,seed",
        "--panel",
        "ladder:5",
        "--matches",
        "4",
        "--rounds",
        "6",
    ]);
    let total = cluster.wait_for_tables("split", 6, Duration::from_secs(90));
    let mut host_args = cluster.referee_args(&redis.url());
    host_args.extend(["--listen".into(), format!("127.0.0.1:{}", common::port())]);
    host_args.extend(slow.iter().map(|s| s.to_string()));
    host_args.extend(["--id".into(), "referee-in-the-host".into()]);
    let _host_referee = Role::start("table-referee", &host_args, Some(cluster.log.clone()));
    ns.cut(true);
    // The fault itself lasts ten seconds.
    std::thread::sleep(Duration::from_secs(10));
    ns.cut(false);
    assert_eq!(
        cluster.wait_finished("split", Duration::from_secs(240)),
        total
    );
    let replays = cluster.replays("split");
    let ids: BTreeSet<&str> = replays
        .iter()
        .map(|r| r.result.as_ref().unwrap().table_id.as_str())
        .collect();
    assert_eq!((replays.len() as u64, ids.len() as u64), (total, total));
    assert!(
        replays
            .iter()
            .all(|r| r.result.as_ref().unwrap().error.is_empty())
    );
    assert!(
        replays
            .iter()
            .any(|r| r.result.as_ref().unwrap().referee == "referee-behind-the-link"),
        "the referee behind the link played its share\n{}",
        cluster.logs()
    );
}
