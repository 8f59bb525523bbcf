//! The four roles as separate `arena` processes on the shared Redis (a key prefix of this test's
//! own): a deal library measured through the referee, an equal-strength competition between a
//! program bot hosted by bot-host and built-in bots, and the matchmaker killed with SIGKILL in the
//! middle of it and started again — the competition still finishes, every table counted once.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{Cluster, unique_prefix};

const REDIS: &str = "redis://127.0.0.1:6379";

#[test]
fn a_competition_on_four_processes_survives_a_killed_matchmaker() {
    let prefix = unique_prefix("four");
    common::add_program_bot("pybot", REDIS, &prefix);
    let mut cluster = Cluster::start(REDIS, &prefix, 1, &[]);
    cluster.measure(400);

    // The competition: the client follows it until the matchmaker dies under it.
    let client = cluster.create(&[
        "--name",
        "cup",
        "--format",
        "equal-strength",
        "--centre",
        "0.8,0.4,0.2",
        "--eps",
        "0.6",
        "--participants",
        "pybot,expert,seed",
        "--panel",
        "ladder:5",
        "--matches",
        "8",
        "--rounds",
        "12",
    ]);
    let total = cluster.wait_for_tables("cup", 20, Duration::from_secs(60));
    assert_eq!(total, 3 * 8 * 12);
    cluster.matchmaker.kill();
    drop(client);
    // Tables go on being played meanwhile; a new matchmaker takes over.
    cluster.matchmaker.restart();
    assert_eq!(
        cluster.wait_finished("cup", Duration::from_secs(120)),
        total
    );
    let (standings, err, ok) = cluster.client(&[
        "competition",
        "standings",
        "cup",
        "--matchmaker",
        &cluster.matchmaker_url,
    ]);
    assert!(ok, "{err}");
    assert!(
        standings.contains(&format!("cup: {total}/{total} tables, final")),
        "{standings}"
    );
    let replays = cluster.replays("cup");
    let ids: BTreeSet<String> = replays
        .iter()
        .map(|r| r.result.as_ref().unwrap().table_id.clone())
        .collect();
    assert_eq!((replays.len() as u64, ids.len() as u64), (total, total));
}
