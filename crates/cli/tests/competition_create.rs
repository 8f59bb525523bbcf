//! `arena competition create` sends every field of the protocol's `CompetitionSpec`, and each one
//! changes how the competition's tables are played: against `arena standalone` as a real process,
//! with program bots that are slow, or that report what they were told.

mod common;

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::path::Path;

use arena_proto::v1;
use common::Standalone;

/// A directory every sandboxed program may read, holding the Dou Dizhu example bot and the
/// test's own programs.
fn scripts() -> tempfile::TempDir {
    let dir = common::readable_dir("competition-create");
    std::fs::copy(common::simple_bot(), dir.path().join("simple_bot.py")).unwrap();
    dir
}

/// The example bot, answering its first decision of every table after 1.5 s.
fn slow_bot(dir: &Path) -> String {
    let path = common::write_script(
        dir,
        "slow_bot.py",
        &format!(
            r#"import sys, time
sys.dont_write_bytecode = True
sys.path.insert(0, "{dir}")
import simple_bot
first = [True]
send = simple_bot.send
def slow_send(line):
    if first[0] and line.split()[0] in ("bid", "play", "double"):
        first[0] = False
        time.sleep(1.5)
    send(line)
simple_bot.send = slow_send
simple_bot.main()
"#,
            dir = dir.display()
        ),
    );
    format!("/usr/bin/python3 {}", path.display())
}

/// A program that joins, and at its first `ask` exits with a code telling the rule set it was
/// told (competition 1, douzero 2, openspiel 3, times 50) plus its deadline in tenths of a
/// second: its crash verdict quotes the code.
fn probe_bot(dir: &Path) -> String {
    let path = common::write_script(
        dir,
        "probe_bot.py",
        r#"import sys
print("join probe", flush=True)
rules = 0
for line in sys.stdin:
    words = line.split()
    if words and words[0] == "rules":
        rules = ["competition", "douzero", "openspiel"].index(words[1]) + 1
    if words and words[0] == "ask":
        sys.exit(rules * 50 + int(words[2]) // 100)
"#,
    );
    format!("/usr/bin/python3 {}", path.display())
}

fn setup(r: &v1::Replay) -> ddz_pb::Setup {
    arena_proto::payload::unpack(r.job.as_ref().unwrap().setup.as_ref(), "setup")
        .expect("a Dou Dizhu table")
}

fn seats(r: &v1::Replay) -> Vec<&str> {
    r.job
        .as_ref()
        .unwrap()
        .seats
        .iter()
        .map(|s| s.bot.as_str())
        .collect()
}

/// Plays made by `seat` (passes included).
fn plays_by(r: &v1::Replay, seat: u32) -> usize {
    arena_games::ddz::convert::history_of(r)
        .events
        .iter()
        .filter(|e| e.seat == seat && matches!(e.event, Some(ddz_pb::event::Event::Play(_))))
        .count()
}

#[test]
fn every_spec_field_reaches_the_matchmaker_and_changes_how_tables_are_played() {
    let dir = scripts();
    let (slow, probe) = (slow_bot(dir.path()), probe_bot(dir.path()));
    let (s, _) = Standalone::start(
        &[
            ("slow", &["--program", &slow]),
            ("probe", &["--program", &probe]),
        ],
        &[],
        &[],
    );
    let random_1x1 = ["--format", "random", "--matches", "1", "--rounds", "1"];

    // The clock: a bot answering in 1.5 s against a 1 s deadline pays 2 points per started
    // 100 ms beyond it. With seat rotation, the seed farmers, competition scoring and deals of
    // two bombs.
    s.create_competition(
        "clock",
        &[
            &random_1x1[..],
            &[
                "--participants",
                "slow,expert",
                "--decision-ms",
                "1000",
                "--hard-cap-ms",
                "4000",
                "--penalty-per-100ms",
                "2",
                "--farmers",
                "seed",
                "--rotate-seats",
                "--scoring",
                "competition",
                "--bombs",
                "2",
                // A lane: the standalone's embedded store keeps every lane in its one stream,
                // so its referee plays them all.
                "--lane",
                "short",
            ],
        ]
        .concat(),
    );
    let clock = common::by_table(s.replays("clock"));
    let ids: Vec<&str> = clock.keys().map(String::as_str).collect();
    assert_eq!(
        ids,
        [
            "clock/m0/r0/t0",
            "clock/m0/r0/t0/f",
            "clock/m0/r0/t1",
            "clock/m0/r0/t1/f"
        ]
    );
    for (id, r) in &clock {
        let job = r.job.as_ref().unwrap();
        let time = job.time.unwrap();
        assert_eq!(
            (time.decision_ms, time.hard_cap_ms, time.penalty_per_100ms),
            (1000, 4000, 2),
            "{id}"
        );
        let result = r.result.as_ref().unwrap();
        assert_eq!(
            result.outcome.as_ref().unwrap().scoring,
            "competition",
            "{id}"
        );
        let deal: ddz::Deal = setup(r).deal.parse().unwrap();
        assert_eq!(deal.bombs(ddz::Seat::ALL[0]), 2, "{id}: {deal}");
        assert_eq!(job.lane, "short", "{id}");
        assert!(result.verdicts.is_empty(), "{id}: {:?}", result.verdicts);
    }
    assert_eq!(seats(&clock["clock/m0/r0/t0"]), ["slow", "seed", "seed"]);
    assert_eq!(seats(&clock["clock/m0/r0/t0/f"]), ["seed", "slow", "slow"]);
    assert_eq!(seats(&clock["clock/m0/r0/t1"]), ["expert", "seed", "seed"]);
    // The landlord decides first: 1.5 s is at least 500 ms over, five started steps of 2.
    let penalties = &clock["clock/m0/r0/t0"].result.as_ref().unwrap().penalties;
    assert!(penalties[0] >= 10 && penalties[0] % 2 == 0, "{penalties:?}");
    assert_eq!(&penalties[1..], [0, 0]);
    for id in ["clock/m0/r0/t1", "clock/m0/r0/t1/f"] {
        let p = &clock[id].result.as_ref().unwrap().penalties;
        assert!(p.iter().all(|&x| x == 0), "{id}: {p:?}");
    }

    // The hard cap with the play-on policy: a timeout verdict, the seat plays on automatically
    // and takes the verdict penalty.
    s.create_competition(
        "play-on",
        &[
            &random_1x1[..],
            &[
                "--participants",
                "slow,expert",
                "--hard-cap-ms",
                "1200",
                "--verdict-policy",
                "play-on",
                "--verdict-penalty",
                "7",
            ],
        ]
        .concat(),
    );
    let r = &common::by_table(s.replays("play-on"))["play-on/m0/r0/t0"];
    let result = r.result.as_ref().unwrap();
    assert_eq!(
        r.job.as_ref().unwrap().verdict_policy(),
        v1::VerdictPolicy::PlayOn
    );
    assert_eq!(
        result
            .verdicts
            .iter()
            .map(|v| (v.seat, v.kind()))
            .collect::<Vec<_>>(),
        [(0, v1::VerdictKind::Timeout)],
        "{:?}",
        result.verdicts
    );
    assert_eq!(result.penalties, [7, 0, 0]);
    assert!(plays_by(r, 0) > 0, "the seat played on");

    // The same clock with the forfeit policy: the landlord's side loses at once. The probe
    // reports the rules and deadline its table was dealt by default: competition, 1 s.
    s.create_competition(
        "forfeit",
        &[
            &random_1x1[..],
            &[
                "--participants",
                "slow,probe",
                "--hard-cap-ms",
                "1200",
                "--verdict-policy",
                "forfeit",
            ],
        ]
        .concat(),
    );
    let forfeit = common::by_table(s.replays("forfeit"));
    let r = &forfeit["forfeit/m0/r0/t0"];
    let result = r.result.as_ref().unwrap();
    assert_eq!(result.verdicts[0].kind(), v1::VerdictKind::Timeout);
    let outcome = result.outcome.as_ref().unwrap();
    let ddz_outcome = arena_games::ddz::convert::outcome_of(outcome).expect("a Dou Dizhu outcome");
    assert_ne!(ddz_outcome.winner, 0, "the landlord forfeited");
    assert_eq!(plays_by(r, 0), 0, "{r:?}");
    assert!(outcome.scores[0] < 0, "{outcome:?}");
    let probed = &forfeit["forfeit/m0/r0/t1"]
        .result
        .as_ref()
        .unwrap()
        .verdicts[0];
    assert!(probed.reason.contains("exit code 60"), "{probed:?}");

    // The rule set and a longer deadline reach the program; the penalty rounding the job.
    s.create_competition(
        "rules",
        &[
            &random_1x1[..],
            &[
                "--participants",
                "probe,expert",
                "--rules",
                "douzero",
                "--decision-ms",
                "1500",
                "--penalty-rounding",
                "nearest",
            ],
        ]
        .concat(),
    );
    let rules = common::by_table(s.replays("rules"));
    let r = &rules["rules/m0/r0/t0"];
    assert_eq!(setup(r).rules_kind(), ddz_pb::Rules::Douzero);
    assert_eq!(
        r.job.as_ref().unwrap().time.unwrap().penalty_rounding(),
        v1::PenaltyRounding::Nearest
    );
    let probed = &r.result.as_ref().unwrap().verdicts[0];
    assert!(probed.reason.contains("exit code 115"), "{probed:?}");
    assert_eq!(setup(&rules["rules/m0/r0/t1"]).rules, "douzero");

    // The panel, with farmers of its own, chooses the library a measured format deals from.
    let (out, err, ok) = s.client(&[
        "deals",
        "measure",
        "--library",
        &s.library,
        "--count",
        "8",
        "--panel",
        "ladder:3",
        "--farmers",
        "random",
        "--bombs",
        "1",
        "--json",
    ]);
    assert!(ok, "{err}{out}");
    s.create_competition(
        "panel",
        &[
            "--format",
            "difficulty-adjusted",
            "--matches",
            "1",
            "--rounds",
            "2",
            "--participants",
            "expert,seed",
            "--panel",
            "ladder:3",
            "--panel-farmers",
            "random",
        ],
    );
    let panel = common::by_table(s.replays("panel"));
    assert_eq!(panel.len(), 4);
    for (id, r) in &panel {
        let p = r.job.as_ref().unwrap().placement.as_ref().unwrap();
        assert!(
            p.deal_id.starts_with("g1-b1-"),
            "{id}: a measured deal, {p:?}"
        );
        assert_eq!(seats(r)[1..], ["expert", "expert"], "{id}");
    }
    assert!(
        panel
            .values()
            .any(|r| r.job.as_ref().unwrap().placement.as_ref().unwrap().expected != 0.0),
        "expected scores from the panel's measurements"
    );
}

#[test]
fn bad_flags_are_refused_before_anything_is_created() {
    let (s, _) = Standalone::start(&[], &[], &[]);
    let create = |args: &[&str]| {
        s.client(
            &[
                &[
                    "competition",
                    "create",
                    "--matchmaker",
                    &s.matchmaker,
                    "--name",
                    "bad",
                ][..],
                args,
            ]
            .concat(),
        )
    };
    let ddz = ["--participants", "expert,seed"];
    let with = |extra: &[&str]| create(&[&ddz[..], extra].concat());
    let (_, err, ok) = with(&["--bombs", "2"]);
    assert!(
        !ok && err.contains("needs --centre with 5 GDI values"),
        "{err}"
    );
    let (_, err, ok) = with(&["--format", "equal-strength", "--rules", "openspiel"]);
    assert!(!ok && err.contains("spec.setup"), "{err}");
    let (_, err, ok) = with(&["--verdict-policy", "shrug"]);
    assert!(
        !ok && err.contains("forfeit") && err.contains("play-on"),
        "{err}"
    );
    let (_, err, ok) = with(&[
        "--format",
        "random",
        "--decision-ms",
        "3000",
        "--hard-cap-ms",
        "2000",
    ]);
    assert!(!ok && err.contains("hard_cap_ms"), "{err}");
    let (_, err, ok) = create(&[
        "--game",
        "mahjong",
        "--participants",
        "expert,greedy,greedy,random",
        "--bombs",
        "2",
    ]);
    assert!(!ok && err.contains("spec.bombs"), "{err}");
    let (out, _, _) = s.client(&["competition", "list", "--matchmaker", &s.matchmaker]);
    assert!(out.contains("no competitions"), "{out}");
}

#[test]
fn fresh_formats_need_no_library_and_measured_ones_ask_the_library_for_what_they_lack() {
    let (s, _) = Standalone::start(&[], &[], &[]);
    let two_rounds = [
        "--participants",
        "expert,random",
        "--matches",
        "1",
        "--rounds",
        "2",
        "--panel",
        "ladder:3",
    ];
    // Nothing measured: duplicate deals fresh cards, one per round.
    let out = s.create_competition(
        "dup",
        &[&two_rounds[..], &["--format", "duplicate"]].concat(),
    );
    assert!(out.contains("dup: 4/4 tables, final"), "{out}");
    let dup = common::by_table(s.replays("dup"));
    let deal = |id: &str| setup(&dup[id]).deal.clone();
    assert_eq!(deal("dup/m0/r0/t0"), deal("dup/m0/r0/t1"));
    assert_ne!(deal("dup/m0/r0/t0"), deal("dup/m0/r1/t0"));

    // Measured formats: the deal library finds the four deals each lacks, then it plays.
    let (out, err, ok) = s.client(
        &[
            &["competition", "create", "--matchmaker", &s.matchmaker][..],
            &[
                "--library",
                &s.library,
                "--name",
                "es",
                "--format",
                "equal-strength",
            ],
            &["--centre", "0.5,0.5,0.5", "--eps", "0.7"],
            &two_rounds[..],
        ]
        .concat(),
    );
    assert!(ok, "{err}");
    assert!(out.contains("es: 4/4 tables, final"), "{out}");
    assert!(
        err.contains("holds 0 unused deals") && err.contains("find 4 more"),
        "{err}"
    );
    for (id, r) in &common::by_table(s.replays("es")) {
        let p = r.job.as_ref().unwrap().placement.as_ref().unwrap();
        assert!(
            p.deal_id.starts_with('g') && !p.deal_id.starts_with("fresh-"),
            "{id}: a measured deal, {p:?}"
        );
    }
    let (out, err, ok) = s.client(
        &[
            &["competition", "create", "--matchmaker", &s.matchmaker][..],
            &["--library", &s.library, "--name", "adj"],
            &["--format", "difficulty-adjusted"],
            &two_rounds[..],
        ]
        .concat(),
    );
    // Any measured deal will do; the equal-strength ones are claimed, and the deals measured
    // on the way to them that missed the target may be enough.
    assert!(ok && out.contains("adj: 4/4 tables, final"), "{err}{out}");
    for (id, r) in &common::by_table(s.replays("adj")) {
        let p = r.job.as_ref().unwrap().placement.as_ref().unwrap();
        assert!(!p.deal_id.starts_with("fresh-"), "{id}: {p:?}");
    }

    // Told not to, or with no deal library to ask, it fails saying what to run.
    let lacking = |name: &str, extra: &[&str]| {
        s.client(
            &[
                &["competition", "create", "--matchmaker", &s.matchmaker][..],
                &["--name", name, "--format", "equal-strength"],
                &["--centre", "0.5,0.5,0.5", "--eps", "0.7"],
                &[
                    "--participants",
                    "expert,random",
                    "--matches",
                    "1",
                    "--rounds",
                    "1",
                    "--panel",
                    "ladder:4",
                ],
                extra,
            ]
            .concat(),
        )
    };
    let (_, err, ok) = lacking("no-find", &["--no-find"]);
    assert!(
        !ok && err.contains("not enough measured deals")
            && err.contains("arena deals find --library URL --panel ladder:4")
            && err.contains("--count 2"),
        "{err}"
    );
    let (_, err, ok) = lacking("nowhere", &["--library", "http://127.0.0.1:1"]);
    assert!(
        !ok && err.contains("asking the deal library at http://127.0.0.1:1")
            && err.contains("running there"),
        "{err}"
    );

    // `arena deals find --library` is the same request, by hand.
    let (out, err, ok) = s.client(&[
        "deals",
        "find",
        "--library",
        &s.library,
        "--panel",
        "ladder:4",
        "--centre",
        "0.5,0.5,0.5",
        "--eps",
        "0.7",
        "--count",
        "2",
        "--json",
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["found"], 2, "{v}");
    assert!(v["deals"][0]["distance"].as_f64().unwrap() <= 0.7, "{v}");
    let (out, err, ok) = lacking("found", &["--library", &s.library]);
    assert!(ok && out.contains("found: 2/2 tables, final"), "{err}{out}");
    assert!(!err.contains("asking the deal library"), "{err}");
}
