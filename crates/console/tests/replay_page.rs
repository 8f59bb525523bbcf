//! The replay page's clock: the time rules each seat was judged by, as the table's result records
//! them, and the limit beside each decision's time, as its step records it. The page's own script
//! (`assets/replay.js`) is run by node (`tests/replay_page/clock.js`) on the replay player's
//! document ([`arena_console::replay::frames`]) of a table played on the referee's runner.
//!
//! Needs `node` (`.ci/run` installs it).

use std::path::Path;
use std::process::Command;

use arena_games::GameKind;
use arena_proto::v1;
use arena_table::{BotHosts, RunOptions, TimeRules};
use serde_json::Value;

/// A table of the default game played by `random` bots under the default clock.
async fn played() -> v1::Replay {
    let game = GameKind::default_game();
    let job = v1::TableJob {
        table_id: "clock".into(),
        game: game.name().into(),
        seats: (0..game.seat_count())
            .map(|_| v1::SeatSpec {
                bot: "random".into(),
            })
            .collect(),
        seed: 5,
        ..Default::default()
    };
    let (result, replay) =
        arena_games::run_table(&job, &RunOptions::default(), &BotHosts::default())
            .await
            .unwrap();
    assert!(result.error.is_empty(), "{}", result.error);
    replay
}

/// What the page shows of `replay`'s clock: the lines above the player, and the limit beside
/// each decision.
fn shown(replay: &v1::Replay) -> (Vec<String>, Vec<Option<u64>>) {
    let dir = tempfile::tempdir().unwrap();
    let doc = dir.path().join("doc.json");
    std::fs::write(&doc, arena_console::replay::frames(replay).to_string()).unwrap();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("node")
        .arg(here.join("tests/replay_page/clock.js"))
        .arg(&doc)
        .arg(here.join("assets/replay.js"))
        .output()
        .expect("node runs (the replay page test needs node)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let clock = v["clock"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap().to_string())
        .collect();
    let limits = v["limits"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::as_u64)
        .collect();
    (clock, limits)
}

/// A seat whose registered bot has limits of its own (a keep-running Python Botzone bot: 6 s,
/// then 4 s) shows them beside the table's, and each of its decisions shows the limit it was
/// judged by; seats on the table's clock show the table's.
#[tokio::test]
async fn a_seat_on_its_bots_own_clock_shows_it_and_each_decision_its_limit() {
    let mut replay = played().await;
    let seats = replay.result.as_ref().unwrap().seat_time.len();
    assert!(seats >= 2, "the referee records every seat's clock");
    let (clock, limits) = shown(&replay);
    assert_eq!(clock, ["1000 ms per decision, hard cap 5000 ms"]);
    assert!(
        limits.iter().all(|l| *l == Some(1000)),
        "every decision by the table's 1000 ms: {limits:?}"
    );

    // Seat 1 as the referee records a seat on its bot's own limits.
    let table = TimeRules::default();
    let result = replay.result.as_mut().unwrap();
    result.seat_time[1] = table.with_own_limit(6000).to_proto();
    result.seat_later_time[1] = table.with_own_limit(4000).to_proto();
    let mut asked = 0;
    for step in replay.steps.iter_mut().filter(|s| s.seat == 1) {
        step.limit_ms = if asked == 0 { 6000 } else { 4000 };
        asked += 1;
    }
    assert!(asked >= 2, "seat 1 decided more than once");
    let (clock, limits) = shown(&replay);
    assert_eq!(clock.len(), seats, "one line a seat: {clock:?}");
    assert_eq!(
        clock[0],
        "seat 0 (random): 1000 ms per decision, hard cap 5000 ms"
    );
    assert_eq!(
        clock[1],
        "seat 1 (random): 6000 ms per decision (4000 ms from its second), \
         hard cap 10000 ms (8000 ms from its second), its bot's own limit"
    );
    let seat1: Vec<Option<u64>> = replay
        .steps
        .iter()
        .zip(&limits)
        .filter(|(s, _)| s.seat == 1)
        .map(|(_, l)| *l)
        .collect();
    assert_eq!(seat1[..2], [Some(6000), Some(4000)]);
    assert!(seat1[2..].iter().all(|l| *l == Some(4000)), "{seat1:?}");

    // A replay from before results recorded the seats' clocks: the job's, as it always showed.
    let old = replay.result.as_mut().unwrap();
    old.seat_time.clear();
    old.seat_later_time.clear();
    replay.job.as_mut().unwrap().time = Some(v1::TimeControl {
        decision_ms: 2000,
        ..Default::default()
    });
    replay.steps.iter_mut().for_each(|s| s.limit_ms = 0);
    let (clock, limits) = shown(&replay);
    assert_eq!(clock, ["2000 ms per decision, hard cap 5000 ms"]);
    assert!(limits.iter().all(|l| *l == Some(2000)), "{limits:?}");
}
