//! Every registered game's replay renderer (its script, from its registration) run by node on
//! a replay of its own: each game's first variant played by `random` bots on the referee's
//! runner, turned into the replay player's document ([`arena_console::replay::frames`]), and
//! drawn at every position and at the end (`tests/renderers/harness.js`, with a stand-in for
//! the page's `h()`). Each position draws without an error and names every seat's bot; the
//! outcome's text shows every name the game's outcome detail gives (a winning hand's fans, in
//! each language). The browser test (crates/cli/tests/console_browser.rs) draws some of them in
//! chromium; this one draws every game's.
//!
//! Needs `node` (`.ci/run` installs it).

use std::path::Path;
use std::process::Command;

use arena_games::GameKind;
use arena_proto::v1;
use arena_table::{BotHosts, RunOptions};
use serde_json::Value;

/// The strings under `name`-like keys (`name`, `chinese`, …) of `v`, at every depth: what a
/// game's outcome detail gives people to read.
fn names(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if (k == "name" || k == "chinese") && !s.is_empty() => {
                        out.push(s.clone())
                    }
                    _ => names(x, out),
                }
            }
        }
        Value::Array(xs) => xs.iter().for_each(|x| names(x, out)),
        _ => {}
    }
}

#[tokio::test]
async fn every_games_renderer_draws_every_position_of_a_replay_and_its_outcome() {
    let dir = tempfile::tempdir().unwrap();
    for game in GameKind::all() {
        let variant = game.variants().into_iter().next().expect("a variant");
        let job = v1::TableJob {
            table_id: format!("render-{}", game.name()),
            game: game.name().into(),
            seats: (0..game.seat_count())
                .map(|_| v1::SeatSpec {
                    bot: "random".into(),
                })
                .collect(),
            setup: variant.setup.clone(),
            seed: variant.seed,
            ..Default::default()
        };
        let (result, replay) =
            arena_games::run_table(&job, &RunOptions::default(), &BotHosts::default())
                .await
                .unwrap();
        assert!(result.error.is_empty(), "{game:?}: {}", result.error);
        let doc = arena_console::replay::frames(&replay);
        let doc_file = dir.path().join(format!("{}.json", game.name()));
        std::fs::write(&doc_file, doc.to_string()).unwrap();
        let script = dir.path().join(game.renderer().file);
        std::fs::write(&script, game.renderer().source).unwrap();
        let out = Command::new("node")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/renderers/harness.js"))
            .arg(&doc_file)
            .arg(&script)
            .output()
            .expect("node runs (the renderer test needs node)");
        assert!(
            out.status.success(),
            "{game:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let drawn: Value = serde_json::from_slice(&out.stdout).unwrap();
        let positions = drawn["positions"].as_array().unwrap();
        assert_eq!(positions.len(), replay.steps.len() + 1, "{game:?}");
        for (i, p) in positions.iter().enumerate() {
            let p = p.as_str().unwrap();
            for bot in &job.seats {
                assert!(p.contains(bot.bot.trim()), "{game:?} position {i}: {p}");
            }
        }
        let outcome = drawn["outcome"].as_str().unwrap();
        let mut shown = Vec::new();
        names(&doc["replayed_outcome"]["detail"], &mut shown);
        for name in shown {
            assert!(
                outcome.contains(&name),
                "{game:?}: {name:?} not in {outcome:?}"
            );
        }
    }
}
