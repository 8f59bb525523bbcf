//! The web console in a real browser, against a real `arena standalone`: Debian's `chromium`
//! driven by `playwright-core` (crates/console/tests/browser/console.test.js). This test starts
//! standalone (console on a port of its own), measures a small deal library and plays a
//! competition through the CLI, reads what the gRPC API says (standings, one table's replay),
//! and has the browser check that the pages show the same: the competition page's standings and
//! heat map, the replay player stepping through the whole table to the recorded outcome, live
//! standings of a competition created from the console, penalties and verdicts marked in the
//! player, the ladder, bots and deal-library pages.
//!
//! Needs `/usr/bin/chromium` (`apt-get install chromium`; `.ci/run` installs it) and node; the
//! npm package is installed here from the lock file when missing. Screenshots of every page go to
//! `$ARENA_SCREENSHOT_DIR`, else `<temp dir>/arena-console-screenshots`; their paths print.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use arena_proto::v1;
use serde_json::json;

const CHROMIUM: &str = "/usr/bin/chromium";

fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../console/tests/browser")
}

/// `playwright-core` from the lock file, installed once (`npm ci`) if it is not there.
fn ensure_playwright() {
    let dir = browser_dir();
    if dir
        .join("node_modules/playwright-core/package.json")
        .exists()
    {
        return;
    }
    let out = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&dir)
        .output()
        .expect("npm runs (node and npm are needed for the browser test)");
    assert!(
        out.status.success(),
        "npm ci in {}: {}{}",
        dir.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn screenshot_dir() -> PathBuf {
    let dir = std::env::var_os("ARENA_SCREENSHOT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("arena-console-screenshots"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What the gRPC API says about competition `name`: its standings and one table's replay.
fn grpc_truth(matchmaker: &str, token: &str, name: &str) -> (v1::Standings, Vec<v1::Replay>) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let channel = tonic::transport::Channel::from_shared(matchmaker.to_string())
            .unwrap()
            .connect()
            .await
            .unwrap();
        let bearer: tonic::metadata::MetadataValue<_> = format!("Bearer {token}").parse().unwrap();
        let mut mm = v1::matchmaker_client::MatchmakerClient::with_interceptor(
            channel,
            move |mut req: tonic::Request<()>| {
                req.metadata_mut().insert("authorization", bearer.clone());
                Ok(req)
            },
        );
        let req = || v1::CompetitionRequest { name: name.into() };
        let standings = mm.get_standings(req()).await.unwrap().into_inner();
        let mut stream = mm.export_replays(req()).await.unwrap().into_inner();
        let mut replays = Vec::new();
        while let Some(r) = stream.message().await.unwrap() {
            replays.push(r);
        }
        (standings, replays)
    })
}

/// A seed past 2^53: sent as a JSON number, a page would read it as 3274537341145225700.
const BIG_SEED: u64 = 3_274_537_341_145_225_769;
/// The index of the deal of [`wide_panel`] in its stream.
const BIG_INDEX: u64 = 7;

/// A panel of 70 landlords (`ladder:70`'s seat list, which once made the deal-library page
/// 7,271 px wide) holding one deal generated from [`BIG_SEED`], written into the store
/// standalone will open. Its (panel id, deal id, cards).
fn wide_panel(dir: &Path) -> (String, String, String) {
    use arena_store::prelude::*;
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = arena_store::EmbeddedStore::open(dir).unwrap();
        let panel = arena_store::Panel {
            id: "p-seventy".into(),
            game: arena_store::Game::named("ddz"),
            seats: vec![
                (1..=70).map(|k| format!("ladder:{k}/70")).collect(),
                vec!["expert".into()],
                vec!["expert".into()],
            ],
            scoring: "difficulty".into(),
        };
        store.put_panel(&panel).await.unwrap();
        let source = arena_store::DealSource {
            seed: BIG_SEED,
            bombs: Some(1),
        };
        let constraint = arena_games::ddz::rules::DealConstraint { bombs: Some(1) };
        let cards = arena_games::ddz::rules::Deal::generate_with(BIG_SEED, BIG_INDEX, &constraint)
            .unwrap()
            .to_string();
        let deal = arena_store::DealRecord {
            id: source.deal_id(BIG_INDEX),
            game: arena_store::Game::named("ddz"),
            deal: cards.clone(),
            source: Some((source, BIG_INDEX)),
            panel: panel.id.clone(),
            levels: vec![1, 2, 4, 8],
            counts: vec![10, 30, 20, 10],
            gdi: vec![60.0 / 70.0, 30.0 / 70.0, 10.0 / 70.0],
        };
        store.put_deals(std::slice::from_ref(&deal)).await.unwrap();
        (panel.id, deal.id, cards)
    })
}

/// Ratings of two releases of `north` on the Dou Dizhu ladder with their histories, written as
/// the ladder writes them, into the store standalone will open: what the bots page charts.
fn ladder_history(dir: &Path) {
    use arena_ratings::history::{HISTORY_KIND, Point, append, history_key};
    use arena_store::prelude::*;
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = arena_store::EmbeddedStore::open(dir).unwrap();
        let mut state = arena_matchmaker::ladder::LadderState::default();
        let (old, new) = ("north@1.0", "north@1.1");
        for (release, games) in [(old, 3u64), (new, 5)] {
            let mut points = Vec::new();
            for g in 1..=games {
                state
                    .ratings
                    .record_pair(release, "expert@builtin", 1.0, -1.0);
                let r = state.ratings.get(release);
                let point = Point {
                    unix_ms: 1_700_000_000_000 + g * 60_000,
                    mu: r.mu,
                    sigma: r.sigma,
                    games: r.games,
                };
                append(&mut points, point);
            }
            let key = history_key("ddz", release);
            store
                .put_record(HISTORY_KIND, &key, &serde_json::to_vec(&points).unwrap())
                .await
                .unwrap();
        }
        let (kind, key) = arena_matchmaker::ladder::state_key(arena_games::ddz::GAME);
        store
            .put_record(kind, key, &serde_json::to_vec(&state).unwrap())
            .await
            .unwrap();
    });
}

/// The fans of a won Mahjong hand: (Chinese name, English name, points).
fn mahjong_fans(result: &v1::TableResult) -> Vec<serde_json::Value> {
    use arena_games::mahjong::rules::fan::Fan;
    match result
        .outcome
        .as_ref()
        .and_then(arena_games::mahjong::convert::outcome_of)
    {
        Some(m) => m
            .fans
            .iter()
            .map(|f| {
                let fan = Fan::of_name(&f.name).expect("a fan of the rules");
                json!({"name": f.name, "english": fan.english(), "points": f.points})
            })
            .collect(),
        other => panic!("a Mahjong outcome: {other:?}"),
    }
}

/// Runs the browser's checks (console.test.js) against the console on `console_port`, signed in
/// with `token`, `expect` saying what the pages must show; `only` names the group of checks to
/// run beside those every run makes (sign-in, no 404, no script error), `None` for all. Panics
/// with the browser's output when a check fails.
fn browse(console_port: u16, token: &str, expect: &serde_json::Value, only: Option<&str>) {
    let work = tempfile::tempdir().unwrap();
    let expect_path = work.path().join("expect.json");
    std::fs::write(&expect_path, expect.to_string()).unwrap();
    let shots = screenshot_dir();
    let mut node = Command::new("node");
    node.arg("console.test.js")
        .current_dir(browser_dir())
        .env("CONSOLE_URL", format!("http://127.0.0.1:{console_port}"))
        .env("OPERATOR_TOKEN", token)
        .env("EXPECT", &expect_path)
        .env("SCREENSHOT_DIR", &shots);
    if let Some(only) = only {
        node.env("CHECKS", only);
    }
    let out = node.output().expect("node runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    assert!(out.status.success(), "the browser checks failed:\n{text}");
    assert!(text.contains("screenshot "), "{text}");
    assert!(!text.contains(" 0 passed"), "{text}");
}

/// Chromium and playwright, ready.
fn browser_ready() {
    assert!(
        Path::new(CHROMIUM).exists(),
        "the browser test needs Debian's chromium at {CHROMIUM} (apt-get install -y chromium; .ci/run installs it)"
    );
    ensure_playwright();
}

/// What the replay player must show of a Chinese Standard Mahjong hand, from its replay: the
/// decisions, each seat's packs and flowers at the end, the winner and its fans.
fn mcr_expect(replay: &v1::Replay) -> serde_json::Value {
    use arena_games::mcr::pb;
    let history: pb::History =
        arena_proto::payload::unpack(replay.history.as_ref(), "history").expect("an MCR history");
    let (mut packs, mut flowers) = ([0u32; 4], [0u32; 4]);
    for e in &history.events {
        let seat = e.seat as usize & 3;
        match pb::EventKind::try_from(e.kind) {
            Ok(pb::EventKind::Flower) => flowers[seat] += 1,
            // A claimed chow, pung or kong, or a concealed kong, is a pack; an added kong turns
            // a pung into a kong and adds none.
            Ok(pb::EventKind::Answer)
                if ["PENG", "CHI", "GANG"]
                    .iter()
                    .any(|w| e.answer.split(' ').next() == Some(*w)) =>
            {
                packs[seat] += 1
            }
            _ => {}
        }
    }
    let result = replay.result.as_ref().expect("a result");
    let outcome: Option<pb::Outcome> = result
        .outcome
        .as_ref()
        .and_then(|o| arena_proto::payload::unpack(o.game.as_ref(), "outcome").ok());
    let outcome = outcome.unwrap_or_default();
    json!({
        "table_id": replay.job.as_ref().unwrap().table_id,
        "steps": replay.steps.len(),
        "actions": replay.steps.iter().map(|st| arena_console::view::action(st.action.as_ref().unwrap())).collect::<Vec<_>>(),
        "packs": packs,
        "flowers": flowers,
        "final_scores": result.final_scores,
        "winner": outcome.winner,
        "points": outcome.points,
        // Each fan as the page shows it: the Chinese name, the English one, its points, and
        // how many times the hand has it when more than once.
        "fans": outcome.fans.iter().map(|f| format!(
            "{} {} {}{}",
            f.chinese,
            f.name,
            f.points,
            if f.count > 1 { format!(" ×{}", f.count) } else { String::new() }
        )).collect::<Vec<_>>(),
    })
}

#[test]
fn the_console_steps_through_a_chinese_standard_mahjong_hand_to_its_fans() {
    browser_ready();
    let console_port = common::port();
    let (s, _) = common::Standalone::start(
        &[],
        &["--console-listen", &format!("127.0.0.1:{console_port}")],
        &[],
    );
    // One wall with flowers (144 tiles) at its 24 seatings: a played, refereed hand for each.
    let name = "mcr-cup";
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--matchmaker",
        &s.matchmaker,
        "--game",
        "mcr",
        "--name",
        name,
        "--participants",
        "fan,efficiency,efficiency,random",
        "--walls",
        "1",
        "--flowers",
        "--matches",
        "1",
        "--seed",
        "3",
    ]);
    assert!(ok, "{out}{err}");
    let token = s.operator_token();
    let (_, replays) = grpc_truth(&s.matchmaker, &token, name);
    assert_eq!(replays.len(), 24);
    let expects: Vec<serde_json::Value> = replays.iter().map(mcr_expect).collect();
    let total = |v: &serde_json::Value, k: &str| -> u64 {
        v[k].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum()
    };
    // A won hand showing all the page draws: a pack, flowers, and the most fans.
    let mcr = expects
        .iter()
        .filter(|e| !e["winner"].is_null())
        .max_by_key(|e| {
            (
                total(e, "packs") > 0,
                total(e, "flowers") > 0,
                e["fans"].as_array().unwrap().len(),
                e["steps"].as_u64(),
            )
        })
        .expect("some hand of the wall's 24 was won")
        .clone();
    assert!(
        total(&mcr, "packs") > 0 && total(&mcr, "flowers") > 0,
        "{mcr}"
    );
    browse(console_port, &token, &json!({ "mcr": mcr }), Some("mcr"));
}

#[test]
fn the_console_shows_in_a_browser_what_the_grpc_api_says() {
    browser_ready();
    let console_port = common::port();
    // A program bot that thinks 0.3 s a decision: the competition the browser watches live
    // takes seconds a table, however fast the machine.
    let slow = format!(
        "/usr/bin/python3 {} {}",
        common::readable_copy(&browser_dir().join("slow_bot.py")).display(),
        common::simple_bot().display()
    );
    // And one whose first play of every game is malformed: verdicts for the player to mark.
    let faulty = format!(
        "/usr/bin/python3 {} {}",
        common::readable_copy(&browser_dir().join("fault_bot.py")).display(),
        common::simple_bot().display()
    );
    let mut wide = None;
    let (s, _) = common::Standalone::start_prepared(
        |dir| {
            ladder_history(dir);
            wide = Some(wide_panel(dir));
        },
        &[
            ("north", &[]),
            ("slowbot", &["--program", &slow]),
            ("faultbot", &["--program", &faulty]),
        ],
        &["--console-listen", &format!("127.0.0.1:{console_port}")],
        &[],
    );
    let deals = 1500;
    s.measure(deals);
    let name = "spring-cup";
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--matchmaker",
        &s.matchmaker,
        "--name",
        name,
        "--format",
        "random",
        "--participants",
        "expert,seed,random",
        "--panel",
        "ladder:5",
        "--matches",
        "3",
        "--rounds",
        "5",
    ]);
    assert!(ok, "{out}{err}");
    let token = s.operator_token();
    let (standings, replays) = grpc_truth(&s.matchmaker, &token, name);
    assert!(standings.r#final, "{standings:?}");
    assert_eq!(replays.len() as u64, standings.tables_total);
    // The table with the most decisions: the longest walk through the player.
    let replay = replays.iter().max_by_key(|r| r.steps.len()).unwrap();
    let result = replay.result.clone().unwrap();
    let winner = result
        .outcome
        .as_ref()
        .and_then(arena_games::ddz::convert::outcome_of)
        .expect("a Dou Dizhu outcome")
        .winner;
    // A Mahjong competition (the contest's 96 hands), for the same player on the other game.
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--matchmaker",
        &s.matchmaker,
        "--game",
        "mahjong",
        "--name",
        "mj-cup",
        "--participants",
        "random,greedy,expert,greedy",
        "--matches",
        "1",
    ]);
    assert!(ok, "{out}{err}");
    let (_, mj_replays) = grpc_truth(&s.matchmaker, &token, "mj-cup");
    let won = |r: &&v1::Replay| match r
        .result
        .as_ref()
        .and_then(|x| x.outcome.as_ref())
        .and_then(arena_games::mahjong::convert::outcome_of)
    {
        Some(m) => m.winner,
        None => None,
    };
    // The won hand with the most fans (the page names each), then the most decisions.
    let mj = mj_replays
        .iter()
        .filter(|r| won(r).is_some())
        .max_by_key(|r| {
            (
                mahjong_fans(r.result.as_ref().unwrap()).len(),
                r.steps.len(),
            )
        })
        .expect("some hand of 96 was won");
    let mj_result = mj.result.clone().unwrap();
    // Verdicts: faultbot's malformed answers, played on.
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--matchmaker",
        &s.matchmaker,
        "--name",
        "fault-cup",
        "--format",
        "duplicate",
        "--participants",
        "faultbot,expert",
        "--matches",
        "1",
        "--rounds",
        "1",
        "--verdict-policy",
        "play-on",
    ]);
    assert!(ok, "{out}{err}");
    let (_, fault_replays) = grpc_truth(&s.matchmaker, &token, "fault-cup");
    let faulted = fault_replays
        .iter()
        .find(|r| r.steps.iter().any(|st| st.verdict.is_some()))
        .expect("faultbot's malformed answer got a verdict");
    let verdict_steps: Vec<usize> = faulted
        .steps
        .iter()
        .enumerate()
        .filter(|(_, st)| st.verdict.is_some())
        .map(|(i, _)| i)
        .collect();
    let first_verdict =
        arena_console::view::verdict(faulted.steps[verdict_steps[0]].verdict.as_ref().unwrap());
    // A competition the browser creates and watches while it runs.
    let live = json!({
        "name": "live-cup", "format": "duplicate", "panel": "ladder:5",
        "participants": ["slowbot", "expert"], "matches": 2, "rounds": 3, "tables": 12,
        // 0.3 s a decision against a 0.2 s limit: every started 100 ms over costs a point.
        "decision_ms": 200, "penalty_per_100ms": 1, "slow_table": "live-cup/m0/r0/t0",
    });
    // Each seat's cards before the first decision: the landlord (seat 0) holds the bottom too.
    let setup: arena_games::ddz::pb::Setup =
        arena_proto::payload::unpack(replay.job.as_ref().unwrap().setup.as_ref(), "setup")
            .expect("a Dou Dizhu job");
    let deal = setup.deal;
    let parts: Vec<usize> = deal.split('/').map(|p| p.chars().count()).collect();
    let cards = [parts[0] + parts[3], parts[1], parts[2]];
    let expect = json!({
        "competition": name,
        "tables_total": standings.tables_total,
        "standings": standings.standings.iter().map(|st| json!({
            "participant": st.participant,
            "place": st.place,
            "mean_score": st.mean_score,
            "score_ci95": st.score_ci95,
            "rank_probabilities": st.rank_probabilities,
        })).collect::<Vec<_>>(),
        "replay": {
            "table_id": replay.job.as_ref().unwrap().table_id,
            "steps": replay.steps.iter().map(|st| json!({
                "action": arena_console::view::action(st.action.as_ref().unwrap()),
                "elapsed_ms": st.elapsed_ms,
            })).collect::<Vec<_>>(),
            "final_scores": result.final_scores,
            "winner": winner,
            "cards": cards,
            "seats": replay.job.as_ref().unwrap().seats.iter().map(|s| s.bot.clone()).collect::<Vec<_>>(),
        },
        "mahjong": {
            "table_id": mj.job.as_ref().unwrap().table_id,
            "steps": mj.steps.len(),
            "final_scores": mj_result.final_scores,
            "winner": won(&mj),
            // Each fan as the page shows it: the Chinese name, its English name beside it.
            "fans": mahjong_fans(&mj_result),
            "competition": "mj-cup",
        },
        "live": live,
        "verdicts": {
            "table_id": faulted.job.as_ref().unwrap().table_id,
            "steps": verdict_steps,
            "kind": first_verdict["kind"],
            "reason": first_verdict["reason"],
            "in_result": faulted.result.as_ref().unwrap().verdicts.len(),
        },
        // An equal-strength competition created from the form: a panel the library has no deals
        // of, so its deals are found first (a wide ε: any measured deal is near the centre).
        "equal_strength": {
            "name": "es-cup", "participants": ["expert", "random"], "panel": "ladder:4",
            "matches": 1, "rounds": 2, "centre": "0.5, 0.5, 0.5", "eps": 0.9, "tables": 4,
        },
        "bots": ["north", "slowbot", "faultbot"],
        // north's two releases, charted with 3 and 5 points.
        "history": {"bot": "north", "releases": 2, "points": 8},
        "deals": deals,
    });
    // The seed the deal page shows, typed into `arena ddz deal`, deals the same cards.
    let (wide_id, big_deal, big_cards) = wide.unwrap();
    let (out, err, ok) = common::arena(&[
        "ddz",
        "deal",
        "--seed",
        &BIG_SEED.to_string(),
        "--index",
        &BIG_INDEX.to_string(),
        "--bombs",
        "1",
        "--json",
    ]);
    assert!(ok, "{err}");
    let dealt: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(dealt["deal"], big_cards.as_str());
    let mut expect = expect;
    expect["big_deal"] = json!({
        "panel": wide_id,
        "id": big_deal,
        "seed": BIG_SEED.to_string(),
        "command": format!("arena ddz deal --seed {BIG_SEED} --index {BIG_INDEX} --bombs 1"),
        "cards": big_cards,
    });
    browse(console_port, &token, &expect, None);

    // What the browser created is what the gRPC API reports.
    let (live_standings, live_replays) = grpc_truth(&s.matchmaker, &token, "live-cup");
    assert!(live_standings.r#final);
    assert_eq!(live_standings.tables_total, 12);
    // And the penalties the browser saw marked are the referee's.
    let slow = live_replays
        .iter()
        .find(|r| r.job.as_ref().unwrap().table_id == "live-cup/m0/r0/t0")
        .unwrap();
    let charged: i64 = slow
        .steps
        .iter()
        .filter(|st| st.seat == 0)
        .map(|st| st.penalty)
        .sum();
    assert!(charged > 0);
    assert_eq!(slow.result.as_ref().unwrap().penalties[0], charged);
    // The equal-strength competition the form created once the library had found its deals.
    let (es, es_replays) = grpc_truth(&s.matchmaker, &token, "es-cup");
    assert!(es.r#final, "{es:?}");
    assert_eq!((es.tables_total, es_replays.len()), (4, 4));
}
