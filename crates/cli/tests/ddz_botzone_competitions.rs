//! The field's Dou Dizhu bots in whole competitions, registered and seated unmodified: a Python
//! FightTheLandlord2 bot started afresh each turn (`botzone:`), a keep-running one built by
//! `arena bots add --botzone` (`botzone-keep:`), a C++ one in Botzone's style built the Botzone
//! way, and a Python championship engine (`championship:`). Each test plays a duplicate
//! competition (with seat rotation, so every bot also sits in both farmer seats) and an
//! equal-strength one (measured deals from the deal library), through `arena standalone` (the
//! embedded store) and through the four roles on Redis: every table scored once, no verdict,
//! every decision the bots' own, and each duplicate round one deal for every table.
//!
//! Faulty Botzone bots in a competition: one allocating past Botzone's 256 MiB and one
//! registered for keep-running that never prints the marker each get one verdict naming the
//! fault (the latter a timeout at the referee's hard cap quoting bot-host's `SeatNote`), their
//! tables finish, and the Botzone farmers beside them never see a card they should not.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::v1;
use common::ddz_bots::{BOTZONE_CPP_BOT, botzone_bot, championship_engine};
use common::{
    Cluster, Standalone, assert_counted_once_and_blameless, readable_dir, unique_prefix,
    write_script,
};

const REDIS: &str = "redis://127.0.0.1:6379";

/// The four bots' names, one of each kind.
const BOTS: [&str; 4] = ["bzjson", "bzkeep", "bzcpp", "champ"];

/// Writes the four bots into `dir`; the `arena bots add NAME …` arguments of each, by name.
fn bot_args(dir: &Path) -> Vec<(&'static str, Vec<String>)> {
    let json = write_script(dir, "bzjson.py", &botzone_bot(false, ""));
    let keep = write_script(dir, "bzkeep.py", &botzone_bot(true, ""));
    let cpp = write_script(dir, "bzcpp.cpp", BOTZONE_CPP_BOT);
    let engine = write_script(dir, "champ.py", &championship_engine(""));
    let s = |p: &Path| p.display().to_string();
    vec![
        (
            "bzjson",
            vec!["--program".into(), format!("botzone:python3 {}", s(&json))],
        ),
        (
            "bzkeep",
            vec![
                "--botzone".into(),
                s(&keep),
                "--keep-running".into(),
                "--botzone-dir".into(),
                s(&dir.join("bzkeep")),
            ],
        ),
        (
            "bzcpp",
            vec![
                "--botzone".into(),
                s(&cpp),
                "--botzone-dir".into(),
                s(&dir.join("bzcpp")),
            ],
        ),
        (
            "champ",
            vec![
                "--program".into(),
                format!("championship:python3 {}", s(&engine)),
            ],
        ),
    ]
}

/// The competitions' common flags: the four bots, one match of two rounds, Botzone's Python
/// clock (a Python bot started afresh each decision on a loaded machine can take more than the
/// default second to start).
fn common_flags(name: &str) -> Vec<String> {
    [
        "--name",
        name,
        "--participants",
        &BOTS.join(","),
        "--matches",
        "1",
        "--rounds",
        "2",
        "--panel",
        "ladder:5",
        "--decision-ms",
        "6000",
        "--hard-cap-ms",
        "12000",
    ]
    .map(String::from)
    .to_vec()
}

/// The duplicate competition's flags: every bot also plays each deal in both farmer seats.
fn duplicate(name: &str) -> Vec<String> {
    let mut a = common_flags(name);
    a.extend(["--format", "duplicate", "--rotate-seats"].map(String::from));
    a
}

/// The equal-strength competition's flags: any measured deal of the library will do (a wide
/// ball), so the test does not wait on a search.
fn equal_strength(name: &str) -> Vec<String> {
    let mut a = common_flags(name);
    a.extend(
        [
            "--format",
            "equal-strength",
            "--centre",
            "0.5,0.5,0.5",
            "--eps",
            "2",
            "--no-find",
        ]
        .map(String::from),
    );
    a
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn setup(r: &v1::Replay) -> ddz_pb::Setup {
    arena_proto::payload::unpack(r.job.as_ref().unwrap().setup.as_ref(), "setup")
        .expect("a Dou Dizhu table")
}

fn table_id(r: &v1::Replay) -> &str {
    &r.result.as_ref().unwrap().table_id
}

/// Every decision of every seat a registered bot holds was its own answer (none made for it
/// after a fault or a silence); each bot decided at least `min` times over `replays`.
fn assert_own_decisions(replays: &[v1::Replay], min: usize) {
    let mut decided: BTreeMap<String, usize> = BTreeMap::new();
    for r in replays {
        let job = r.job.as_ref().unwrap();
        for (seat, s) in job.seats.iter().enumerate() {
            if !BOTS.contains(&s.bot.as_str()) {
                continue;
            }
            for step in r.steps.iter().filter(|st| st.seat as usize == seat) {
                assert!(!step.automatic, "{}: seat {seat} ({})", table_id(r), s.bot);
                *decided.entry(s.bot.clone()).or_default() += 1;
            }
        }
    }
    for bot in BOTS {
        let n = decided.get(bot).copied().unwrap_or(0);
        assert!(n >= min, "{bot} decided only {n} times: {decided:?}");
    }
}

/// The duplicate competition `dup` as the format promises: each round's tables (every bot as
/// landlord, `t<i>`, and in both farmer seats, `t<i>/f`) play one deal, a fresh one per round.
fn assert_duplicate(replays: &[v1::Replay]) {
    assert_eq!(replays.len(), 2 * BOTS.len() * 2, "rounds × bots × sides");
    let mut by_round: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in replays {
        let id = table_id(r);
        let round = id.split('/').take(3).collect::<Vec<_>>().join("/");
        by_round.entry(round).or_default().insert(setup(r).deal);
        let seats: Vec<&str> = r
            .job
            .as_ref()
            .unwrap()
            .seats
            .iter()
            .map(|s| s.bot.as_str())
            .collect();
        let i: usize = id.split('/').nth(3).unwrap()[1..].parse().unwrap();
        let bot = BOTS[i];
        if id.ends_with("/f") {
            assert_eq!(seats, ["expert", bot, bot], "{id}");
        } else {
            assert_eq!(seats, [bot, "expert", "expert"], "{id}");
        }
    }
    assert_eq!(by_round.len(), 2, "{by_round:?}");
    let deals: BTreeSet<&String> = by_round
        .values()
        .map(|d| {
            assert_eq!(d.len(), 1, "a duplicate round plays one deal: {d:?}");
            d.iter().next().unwrap()
        })
        .collect();
    assert_eq!(deals.len(), 2, "each round its own deal");
}

/// The equal-strength competition: every table its own measured deal.
fn assert_equal_strength(replays: &[v1::Replay]) {
    assert_eq!(replays.len(), 2 * BOTS.len());
    let mut deals = BTreeSet::new();
    for r in replays {
        let p = r.job.as_ref().unwrap().placement.as_ref().unwrap();
        assert!(
            !p.deal_id.is_empty() && !p.deal_id.starts_with("fresh-"),
            "{}: a measured deal, {p:?}",
            table_id(r)
        );
        assert!(deals.insert(setup(r).deal), "{}: a deal twice", table_id(r));
    }
}

/// Creates a competition on `s` with `args` in a thread of its own; joined, its output.
fn create_on(s: &Standalone, args: Vec<String>) -> std::thread::JoinHandle<(String, String, bool)> {
    let dir = s.data_dir().to_path_buf();
    let mm = s.matchmaker.clone();
    std::thread::spawn(move || {
        let mut all: Vec<&str> = vec!["competition", "create", "--matchmaker", &mm];
        all.extend(args.iter().map(String::as_str));
        common::arena_client(&dir, &all)
    })
}

#[test]
fn botzone_bots_and_a_championship_engine_play_duplicate_and_equal_strength_on_standalone() {
    let dir = readable_dir("ddz-comp");
    let args = bot_args(dir.path());
    let bots: Vec<(&str, Vec<&str>)> = args
        .iter()
        .map(|(n, a)| (*n, a.iter().map(String::as_str).collect()))
        .collect();
    let bots: Vec<(&str, &[&str])> = bots.iter().map(|(n, a)| (*n, a.as_slice())).collect();
    let (s, _) = Standalone::start(&bots, &[], &[]);
    s.measure(30);
    let dup = create_on(&s, duplicate("dup"));
    let eq = create_on(&s, equal_strength("eq"));
    for (name, run, total) in [("dup", dup, 16), ("eq", eq, 8)] {
        let (out, err, ok) = run.join().unwrap();
        assert!(ok, "{name}: {err}{out}");
        assert!(
            out.contains(&format!("{name}: {total}/{total} tables, final")),
            "{name}: {out}"
        );
    }
    let dup = s.replays("dup");
    assert_counted_once_and_blameless(&dup, 16);
    assert_duplicate(&dup);
    let eq = s.replays("eq");
    assert_counted_once_and_blameless(&eq, 8);
    assert_equal_strength(&eq);
    // Each bot plays four tables of each competition as landlord or as both farmers: its
    // decisions are dozens.
    assert_own_decisions(&[dup, eq].concat(), 20);
}

#[test]
fn botzone_bots_and_a_championship_engine_play_duplicate_and_equal_strength_on_the_roles_on_redis()
{
    let prefix = unique_prefix("ddz-botzone-comp");
    let dir = readable_dir("ddz-comp-redis");
    let store = Cluster::store_args(REDIS, &prefix);
    for (name, extra) in bot_args(dir.path()) {
        let mut all: Vec<&str> = vec!["bots", "add", name];
        all.extend(extra.iter().map(String::as_str));
        all.extend(store.iter().map(String::as_str));
        let (_, err, ok) = common::arena(&all);
        assert!(ok, "{name}: {err}");
    }
    let cluster = Cluster::start(REDIS, &prefix, 1, &[]);
    cluster.wait_serving(Duration::from_secs(120));
    cluster.measure(30);
    let dup_args = duplicate("dup");
    let dup_client = cluster.create(&strs(&dup_args));
    let eq_args = equal_strength("eq");
    let eq_client = cluster.create(&strs(&eq_args));
    assert_eq!(cluster.wait_finished("dup", Duration::from_secs(300)), 16);
    assert_eq!(cluster.wait_finished("eq", Duration::from_secs(300)), 8);
    drop((dup_client, eq_client));
    let dup = cluster.replays("dup");
    assert_counted_once_and_blameless(&dup, 16);
    assert_duplicate(&dup);
    let eq = cluster.replays("eq");
    assert_counted_once_and_blameless(&eq, 8);
    assert_equal_strength(&eq);
    for (name, total) in [("dup", 16), ("eq", 8)] {
        let st = cluster.standings(name);
        assert!(st.r#final, "{st:?}");
        assert_eq!((st.tables_done, st.tables_total), (total, total), "{st:?}");
        assert_eq!(st.standings.len(), BOTS.len(), "{st:?}");
    }
    assert_own_decisions(&[dup, eq].concat(), 20);
}

#[test]
fn a_botzone_bot_over_its_memory_and_a_keep_running_one_without_the_marker_get_verdicts_naming_them()
 {
    let dir = readable_dir("ddz-faults");
    let hog = write_script(dir.path(), "hog.py", &botzone_bot(false, "hog"));
    let nomarker = write_script(dir.path(), "nomarker.py", &botzone_bot(true, "nomarker"));
    let witness = write_script(dir.path(), "witness.py", &botzone_bot(false, ""));
    let hog_dir = dir.path().join("hog");
    let (s, _) = Standalone::start(
        &[
            // Built the Botzone way: Botzone's 256 MiB.
            (
                "hog",
                &[
                    "--botzone",
                    hog.to_str().unwrap(),
                    "--botzone-dir",
                    hog_dir.to_str().unwrap(),
                ],
            ),
            (
                "nomarker",
                &[
                    "--program",
                    &format!("botzone-keep:python3 {}", nomarker.display()),
                ],
            ),
            (
                "witness",
                &[
                    "--program",
                    &format!("botzone:python3 {}", witness.display()),
                ],
            ),
        ],
        &[],
        &[],
    );
    let out = s.create_competition(
        "faults",
        &[
            "--format",
            "random",
            "--participants",
            "hog,nomarker",
            "--farmers",
            "witness",
            // The panel (which names the deal library; a random competition reads none) plays
            // built-in bots only.
            "--panel-farmers",
            "expert",
            "--matches",
            "1",
            "--rounds",
            "1",
            "--scoring",
            "competition",
            // The faulty seat plays on automatically: the table goes on to its end, and the
            // witnesses see those plays too.
            "--verdict-policy",
            "play-on",
            "--decision-ms",
            "6000",
            "--hard-cap-ms",
            "8000",
        ],
    );
    assert!(out.contains("faults: 2/2 tables, final"), "{out}");
    let replays = s.replays("faults");
    assert_eq!(replays.len(), 2);
    let mut seen = BTreeMap::new();
    for r in &replays {
        let result = r.result.as_ref().unwrap();
        let id = &result.table_id;
        assert!(result.outcome.is_some(), "{id}: the table finished");
        assert!(result.error.is_empty(), "{id}: {}", result.error);
        let bot = r.job.as_ref().unwrap().seats[0].bot.clone();
        // One verdict, the faulty landlord's: none of the witnesses' (a witness shown a card
        // it should not see answers "LEAK: …", a malformed verdict of its own).
        assert_eq!(result.verdicts.len(), 1, "{id}: {:?}", result.verdicts);
        let v = &result.verdicts[0];
        assert_eq!(v.seat, 0, "{id}: {v:?}");
        // Its seat played on automatically to the end.
        assert!(
            r.steps.iter().any(|st| st.seat == 0 && st.automatic),
            "{id}"
        );
        seen.insert(bot, v.clone());
    }
    let hog = &seen["hog"];
    let text = format!("{} {}", hog.reason, hog.detail);
    assert_eq!(hog.kind, v1::VerdictKind::Crashed as i32, "{hog:?}");
    // Said first, so the verdict's short reason says it too.
    assert!(
        hog.reason
            .starts_with("out of memory: an allocation failed at its memory limit of 256 MiB"),
        "{text}"
    );
    assert!(text.contains("MemoryError"), "{text}");
    let nm = &seen["nomarker"];
    let text = format!("{} {}", nm.reason, nm.detail);
    assert_eq!(nm.kind, v1::VerdictKind::Timeout as i32, "{nm:?}");
    // Judged at the referee's hard cap, with why bot-host saw it silent: the reason (cut to 80
    // characters for every seat to read) starts naming the marker, the detail has it whole.
    assert!(
        nm.reason.starts_with(
            "no answer within the hard cap of 8000 ms: it neither printed >>>BOTZONE_REQUEST"
        ),
        "{text}"
    );
    assert!(
        nm.detail.contains(
            "it neither printed >>>BOTZONE_REQUEST_KEEP_RUNNING<<< nor exited after writing"
        ) && nm.detail.contains("response"),
        "{text}"
    );
}

/// Plays a random competition `name` of the bot `slow` (as landlord, built-in farmers) with
/// `clock`'s flags, the faulty seat playing on: the replay of `slow`'s table.
fn slow_table(s: &Standalone, name: &str, clock: &[&str]) -> v1::Replay {
    let mut args = vec![
        "--format",
        "random",
        "--participants",
        "slow,expert",
        "--farmers",
        "expert",
        "--panel-farmers",
        "expert",
        "--matches",
        "1",
        "--rounds",
        "1",
        "--verdict-policy",
        "play-on",
    ];
    args.extend_from_slice(clock);
    let out = s.create_competition(name, &args);
    assert!(out.contains(&format!("{name}: 2/2 tables, final")), "{out}");
    let replays = s.replays(name);
    let mut slow: Vec<v1::Replay> = replays
        .into_iter()
        .filter(|r| r.job.as_ref().unwrap().seats[0].bot == "slow")
        .collect();
    assert_eq!(slow.len(), 1, "{name}");
    let r = slow.remove(0);
    let result = r.result.as_ref().unwrap();
    assert!(
        result.outcome.is_some() && result.error.is_empty(),
        "{name}: {result:?}"
    );
    r
}

/// A Python bot built by `arena bots add --botzone` keeps Botzone's 6000 ms for Python as its
/// own decision limit, and a keep-running one Botzone's 4000 ms for its later turns too (`arena
/// bots list` shows them; `--decision-ms`, `--later-decision-ms` give others). Both tables here
/// have a hard cap of 1000 ms and a penalty point per started 100 ms over the limit: one
/// leaving the decision limit to the default (1000 ms) gives the bot's seat its own 6000 ms
/// (hard cap 6000 ms), so it takes 1.5 s over a decision without a verdict or a penalty; one
/// whose operator set `--decision-ms 1000` judges every seat by that, and the bot times out.
#[test]
fn a_python_botzone_bot_plays_by_its_own_limit_unless_the_table_sets_one() {
    let dir = readable_dir("ddz-own-clock");
    let slow = write_script(dir.path(), "slow.py", &botzone_bot(false, "slow"));
    let built = |name: &str| dir.path().join(name).display().to_string();
    let (slow_dir, keep_dir, other_dir) = (built("slow"), built("keep"), built("other"));
    let (s, _) = Standalone::start(
        &[
            (
                "slow",
                &[
                    "--botzone",
                    slow.to_str().unwrap(),
                    "--botzone-dir",
                    &slow_dir,
                ],
            ),
            (
                "keep",
                &[
                    "--botzone",
                    slow.to_str().unwrap(),
                    "--botzone-dir",
                    &keep_dir,
                    "--keep-running",
                ],
            ),
            (
                "other",
                &[
                    "--botzone",
                    slow.to_str().unwrap(),
                    "--botzone-dir",
                    &other_dir,
                    "--keep-running",
                    "--decision-ms",
                    "2500",
                    "--later-decision-ms",
                    "2000",
                ],
            ),
        ],
        &[],
        &[],
    );
    let (out, err, ok) = s.client(&["bots", "list", "--matchmaker", &s.matchmaker]);
    assert!(ok, "{err}");
    let line = |bot: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("{bot} ")))
            .unwrap_or_else(|| panic!("{bot} listed: {out}"))
            .to_string()
    };
    assert!(
        line("slow").ends_with("; 6000 ms a decision (its own)"),
        "{out}"
    );
    assert!(
        line("keep").ends_with("; 6000 ms a decision, 4000 ms from its second (its own)"),
        "{out}"
    );
    assert!(
        line("other").ends_with("; 2500 ms a decision, 2000 ms from its second (its own)"),
        "{out}"
    );

    let clock = ["--hard-cap-ms", "1000", "--penalty-per-100ms", "1"];
    let own = slow_table(&s, "own", &clock);
    let result = own.result.as_ref().unwrap();
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert_eq!(result.penalties[0], 0, "{result:?}");
    let first = own.steps.iter().find(|st| st.seat == 0).unwrap();
    assert!(
        first.elapsed_ms >= 1500 && !first.automatic,
        "the slow decision was the bot's, in time: {first:?}"
    );
    // The result and the replay say so: the seat's clock, and the limit of each decision.
    let clock_of = |r: &v1::TableResult| -> Vec<(u32, u32)> {
        r.seat_time
            .iter()
            .map(|t| (t.decision_ms, t.hard_cap_ms))
            .collect()
    };
    assert_eq!(clock_of(result), [(6000, 6000), (1000, 1000), (1000, 1000)]);
    assert_eq!(first.limit_ms, 6000);
    let id = own.job.as_ref().unwrap().table_id.clone();
    let (out, err, ok) = s.client(&["competition", "replay", &id, "--matchmaker", &s.matchmaker]);
    assert!(ok, "{err}");
    assert!(
        out.contains("clock of seat 0: 6000 ms a decision, hard cap 6000 ms\n"),
        "{out}"
    );

    let table = slow_table(
        &s,
        "table",
        &[&["--decision-ms", "1000"][..], &clock].concat(),
    );
    let result = table.result.as_ref().unwrap();
    assert_eq!(result.verdicts.len(), 1, "{:?}", result.verdicts);
    let v = &result.verdicts[0];
    assert_eq!(
        (v.seat, v.kind),
        (0, v1::VerdictKind::Timeout as i32),
        "{v:?}"
    );
    assert!(v.reason.contains("hard cap of 1000 ms"), "{v:?}");
    assert_eq!(clock_of(result), [(1000, 1000); 3]);
    assert!(
        table
            .steps
            .iter()
            .all(|st| st.automatic || st.limit_ms == 1000)
    );
}
