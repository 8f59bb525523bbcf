//! IJCAI competitions of Chinese Standard Mahjong through the services (`arena standalone`):
//! every wall at all 24 seatings, padding, and the standings.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use arena_proto::packages::arena::mcr::v1 as mcr_pb;
use arena_proto::v1;
use common::Standalone;

fn setup(r: &v1::Replay) -> mcr_pb::Setup {
    arena_proto::payload::unpack(r.job.as_ref().unwrap().setup.as_ref(), "setup")
        .expect("an MCR table")
}

fn seats(r: &v1::Replay) -> Vec<String> {
    r.job
        .as_ref()
        .unwrap()
        .seats
        .iter()
        .map(|s| s.bot.clone())
        .collect()
}

#[test]
fn an_ijcai_competition_plays_every_wall_at_24_seatings_and_pads_the_field() {
    let (s, _) = Standalone::start(&[], &[], &[]);
    let create = |name: &str, args: &[&str]| {
        let (out, err, ok) = s.client(
            &[
                &[
                    "competition",
                    "create",
                    "--matchmaker",
                    &s.matchmaker,
                    "--game",
                    "mcr",
                    "--name",
                    name,
                    "--matches",
                    "1",
                ][..],
                args,
            ]
            .concat(),
        );
        assert!(ok, "{name}: {err}");
        out
    };
    let out = create(
        "ij",
        &[
            "--participants",
            "fan,efficiency,random,random",
            "--walls",
            "1",
        ],
    );
    assert!(out.contains("ij: 24/24 tables, final"), "{out}");
    let played = common::by_table(s.replays("ij"));
    assert_eq!(played.len(), 24);
    let walls: BTreeSet<String> = played.values().map(|r| setup(r).walltiles).collect();
    assert_eq!(walls.len(), 1, "one wall for all 24 seatings");
    let wall = walls.iter().next().unwrap();
    assert_eq!(
        wall.split(' ').count(),
        136,
        "without flowers unless --flowers, as IJCAI and `arena mcr match` play"
    );
    let seatings: BTreeSet<Vec<String>> = played.values().map(seats).collect();
    // The two random participants are one name, so 24 seatings show as 12 distinct lists.
    assert_eq!(seatings.len(), 12);
    for r in played.values() {
        let scores = &r.result.as_ref().unwrap().final_scores;
        assert_eq!(scores.iter().sum::<i64>(), 0, "{scores:?}");
    }

    // Five participants: three efficiency bots pad the field to two groups of four.
    let out = create(
        "five",
        &[
            "--participants",
            "fan,random,random,random,random",
            "--walls",
            "1",
            "--rounds",
            "1",
            "--flowers",
        ],
    );
    assert!(out.contains("five: 48/48 tables, final"), "{out}");
    let played = common::by_table(s.replays("five"));
    assert!(
        played
            .values()
            .all(|r| setup(r).walltiles.split(' ').count() == 144)
    );
    let seated = |bot: &str| {
        played
            .values()
            .map(|r| seats(r).iter().filter(|b| *b == bot).count())
            .sum::<usize>()
    };
    // Every entrant plays the wall at its group's 24 seatings.
    assert_eq!(seated("efficiency"), 3 * 24);
    assert_eq!(seated("fan"), 24);
    assert_eq!(seated("random"), 4 * 24);

    // Too few participants, or a wall named: refused naming the field.
    let (_, err, ok) = s.client(&[
        "competition",
        "create",
        "--matchmaker",
        &s.matchmaker,
        "--game",
        "mcr",
        "--name",
        "three",
        "--participants",
        "fan,random,random",
        "--matches",
        "1",
    ]);
    assert!(!ok && err.contains("spec.participants"), "{err}");
}

#[test]
fn a_competition_on_library_walls_plays_exactly_the_walls_imported_and_claims_them() {
    let (s, _) = Standalone::start(&[], &[], &[]);
    // Three walls without flowers, as `arena mcr deal` prints them, one a line.
    let walls: Vec<String> = (40..43)
        .map(|seed| {
            let (out, err, ok) = s.client(&[
                "mcr",
                "deal",
                "--seed",
                &seed.to_string(),
                "--no-flowers",
                "--json",
            ]);
            assert!(ok, "{err}");
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            v["walltiles"].as_str().unwrap().to_string()
        })
        .collect();
    let import = |text: &str| {
        let file = s.data_dir().join("walls.txt");
        std::fs::write(&file, text).unwrap();
        s.client(&[
            "deals",
            "import",
            "--game",
            "mcr",
            file.to_str().unwrap(),
            "--library",
            &s.library,
        ])
    };
    // A wall with a tile too many is refused, naming the line and the problem; nothing is
    // imported.
    let mut bad: Vec<&str> = walls[1].split(' ').collect();
    bad.push("W1");
    let (_, err, ok) = import(&format!("# walls\n{}\n{}\n", walls[0], bad.join(" ")));
    assert!(!ok, "a bad wall is refused");
    assert!(
        err.contains("line 3: walltiles holds 137 tiles; a wall has 144 (or 136 without flowers)"),
        "{err}"
    );
    let (out, err, ok) = import(&format!("{}\n", walls.join("\n")));
    assert!(ok, "{err}");
    assert!(out.contains("imported 3 records (3 new"), "{out}");

    let create = |name: &str| {
        s.client(&[
            "competition",
            "create",
            "--matchmaker",
            &s.matchmaker,
            "--game",
            "mcr",
            "--name",
            name,
            "--matches",
            "1",
            "--participants",
            "fan,efficiency,random,random",
            "--walls",
            "2",
            "--walls-from",
            "library",
        ])
    };
    let (out, err, ok) = create("lib");
    assert!(ok, "{err}");
    assert!(out.contains("lib: 48/48 tables, final"), "{out}");
    let played = common::by_table(s.replays("lib"));
    assert_eq!(played.len(), 48);
    let mut by_wall: BTreeMap<String, usize> = BTreeMap::new();
    for r in played.values() {
        *by_wall.entry(setup(r).walltiles).or_default() += 1;
        // What the table played is its job's wall: the history's walltiles.
        let history: mcr_pb::History =
            arena_proto::payload::unpack(r.history.as_ref(), "history").unwrap();
        assert_eq!(history.walltiles, setup(r).walltiles);
    }
    // Two of the imported walls, each at all 24 seatings.
    assert_eq!(by_wall.len(), 2, "{by_wall:?}");
    for (wall, tables) in &by_wall {
        assert!(walls.contains(wall), "a wall that was not imported: {wall}");
        assert_eq!(*tables, 24);
    }
    // They are claimed: a second competition finds one unused wall, not the two it needs.
    let (_, err, ok) = create("lib2");
    assert!(!ok);
    assert!(
        err.contains("1 unused wall(s) of 136 tiles, and 2 are needed")
            && err.contains("arena deals import --game mcr"),
        "{err}"
    );
}
