//! IJCAI competitions of Chinese Standard Mahjong through the services (`arena standalone`):
//! every wall at all 24 seatings, padding, and the standings.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use arena_proto::packages::arena::mcr::v1 as mcr_pb;
use arena_proto::v1;
use common::Standalone;

/// Every replay of competition `name`, by table id.
fn replays(s: &Standalone, name: &str) -> BTreeMap<String, v1::Replay> {
    let file = s.data_dir().join(format!("{name}.replays"));
    let (_, err, ok) = s.client(&[
        "competition",
        "replays",
        name,
        "--out",
        file.to_str().unwrap(),
        "--matchmaker",
        &s.matchmaker,
    ]);
    assert!(ok, "{err}");
    let bytes = std::fs::read(&file).unwrap();
    let mut buf = bytes.as_slice();
    let mut out = BTreeMap::new();
    while !buf.is_empty() {
        let r = <v1::Replay as prost::Message>::decode_length_delimited(&mut buf).unwrap();
        out.insert(r.result.as_ref().unwrap().table_id.clone(), r);
    }
    out
}

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
            "--no-flowers",
        ],
    );
    assert!(out.contains("ij: 24/24 tables, final"), "{out}");
    let played = replays(&s, "ij");
    assert_eq!(played.len(), 24);
    let walls: BTreeSet<String> = played.values().map(|r| setup(r).walltiles).collect();
    assert_eq!(walls.len(), 1, "one wall for all 24 seatings");
    let wall = walls.iter().next().unwrap();
    assert_eq!(wall.split(' ').count(), 136);
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
        ],
    );
    assert!(out.contains("five: 48/48 tables, final"), "{out}");
    let played = replays(&s, "five");
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
