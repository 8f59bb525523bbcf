//! The four roles as separate `arena` processes on the shared Redis (a key prefix of each test's
//! own), with a role killed with SIGKILL in the middle of a competition and started again — the
//! competition still finishes, every table counted once:
//!
//! - Dou Dizhu: a deal library measured through the referee, an equal-strength competition
//!   between a program bot hosted by bot-host and built-in bots; the matchmaker is killed.
//! - Mahjong: the contest's 96-hand match between a remote gRPC bot, a program bot speaking the
//!   2015 line protocol under bot-host, and built-in bots; the referee is killed.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use common::{Cluster, add_remote_bot, assert_counted_once_and_blameless, unique_prefix};

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

#[test]
fn a_mahjong_competition_on_four_processes_survives_a_killed_referee() {
    let prefix = unique_prefix("mj-four");
    common::add_mahjong_program_bot("mjpy", REDIS, &prefix);
    let store = Cluster::store_args(REDIS, &prefix);
    let store: Vec<&str> = store.iter().map(String::as_str).collect();
    let token = add_remote_bot("north", &store);
    // The referee has a name of its own: started again, it takes its unfinished hands back at
    // once (as a StatefulSet's pod does) instead of waiting for them to be reclaimed.
    let mut cluster = Cluster::start(REDIS, &prefix, 1, &["--id", "mj-referee"]);
    // The remote bot (the Rust example's Mahjong player), reconnecting whenever its stream
    // drops, as real bots do.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let url = cluster.bot_url.clone();
    rt.spawn(async move {
        let bot = arena_example_remote_bot::Options {
            capacity: 64,
            ..arena_example_remote_bot::Options::mahjong()
        };
        arena_example_remote_bot::play_forever_with(
            &url,
            "north",
            &token,
            &bot,
            Duration::from_millis(100),
        )
        .await
    });
    let start = Instant::now();
    while !cluster.connected("north") {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the remote bot never connected\n{}",
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    let participants = ["north", "mjpy", "expert", "greedy"];
    let client = cluster.create(&[
        "--game",
        "mahjong",
        "--name",
        "mj",
        "--participants",
        &participants.join(","),
        "--matches",
        "1",
    ]);
    let total = cluster.wait_for_tables("mj", 24, Duration::from_secs(300));
    assert_eq!(total, 96);
    cluster.referees[0].kill();
    // The kill took hands in play with it: their jobs are still the dead referee's.
    let held = cluster.jobs_held("mj-referee");
    assert!(held > 0, "no hand was in play at the kill");
    eprintln!("{held} hands in play when the referee was killed");
    cluster.referees[0].restart();
    assert_eq!(cluster.wait_finished("mj", Duration::from_secs(300)), total);
    drop(client);
    assert_eq!(cluster.jobs_held("mj-referee"), 0);

    // Standings are final, every hand in them once: each bot played all 96, and its score is
    // the sum of its seats' scores over the exported replays.
    let st = cluster.standings("mj");
    assert!(st.r#final, "{st:?}");
    assert_eq!((st.tables_done, st.tables_total), (total, total));
    let replays = cluster.replays("mj");
    assert_counted_once_and_blameless(&replays, total);
    let mut scores: BTreeMap<String, i64> = BTreeMap::new();
    for r in &replays {
        let job = r.job.as_ref().unwrap();
        let result = r.result.as_ref().unwrap();
        for (seat, s) in job.seats.iter().enumerate() {
            *scores.entry(s.bot.clone()).or_default() += result.final_scores[seat];
        }
    }
    assert_eq!(st.standings.len(), participants.len());
    for s in &st.standings {
        let m = arena_games::mahjong::convert::standing_of(s).unwrap();
        assert_eq!(m.hands, 96, "{}", s.participant);
        assert_eq!(
            Some(&m.score),
            scores.get(&s.participant),
            "{}",
            s.participant
        );
    }
    // Every decision of every hand was its bot's own answer: the remote bot's, the program's
    // and the built-ins'.
    for r in &replays {
        assert!(
            r.steps.iter().all(|s| !s.automatic),
            "{}",
            r.result.as_ref().unwrap().table_id
        );
    }
}
