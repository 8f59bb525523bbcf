//! Agreement with PyMahjongGB (Botzone's fan library) on the committed samples that
//! `scripts/mcr-fan-sample.py` generates: thousands of random winning hands covering every
//! fan, and random hands' shanten. CI reads the files; it never needs pymahjonggb.

use std::collections::BTreeMap;

use mcr::fan::{Fan, WinningHand, evaluate};
use mcr::shape::shanten;
use mcr::{Pack, Tile, Wind, counts_of};
use serde_json::Value;

const FANS: &str = include_str!("data/pymahjonggb-fans.jsonl");
const SHANTEN: &str = include_str!("data/pymahjonggb-shanten.jsonl");

fn tile(v: &Value) -> Tile {
    v.as_str().unwrap().parse().unwrap()
}

fn packs(v: &Value) -> Vec<Pack> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let t = tile(&p[1]);
            let offer = p[2].as_u64().unwrap() as u8;
            match p[0].as_str().unwrap() {
                "CHI" => Pack::chow(t, offer),
                "PENG" => Pack::pung(t, offer),
                "GANG" => Pack::kong(t, offer),
                other => panic!("pack kind {other}"),
            }
        })
        .collect()
}

#[test]
fn fans_agree_with_pymahjonggb_on_every_sample_hand() {
    let mut seen = BTreeMap::new();
    let mut failures = Vec::new();
    let mut lines = 0;
    for line in FANS.lines() {
        lines += 1;
        let case: Value = serde_json::from_str(line).unwrap();
        let packs = packs(&case["packs"]);
        let standing: Vec<Tile> = case["hand"].as_array().unwrap().iter().map(tile).collect();
        let hand = WinningHand {
            packs: &packs,
            standing: &standing,
            win_tile: tile(&case["win"]),
            flowers: case["flowers"].as_u64().unwrap() as u8,
            self_drawn: case["self_drawn"].as_bool().unwrap(),
            fourth_tile: case["fourth"].as_bool().unwrap(),
            about_kong: case["kong"].as_bool().unwrap(),
            wall_last: case["last"].as_bool().unwrap(),
            seat_wind: Wind::from_index(case["seat"].as_u64().unwrap() as u8).unwrap(),
            prevalent_wind: Wind::from_index(case["quan"].as_u64().unwrap() as u8).unwrap(),
        };
        let want: BTreeMap<Fan, u16> = case["fans"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(name, n)| {
                let fan = Fan::from_name_en(name).unwrap_or_else(|| panic!("fan {name}"));
                (fan, n.as_u64().unwrap() as u16)
            })
            .collect();
        for f in want.keys() {
            *seen.entry(*f).or_insert(0) += 1;
        }
        match evaluate(&hand) {
            Ok(scored) => {
                let got: BTreeMap<Fan, u16> = scored.table.iter().collect();
                if got != want || u64::from(scored.total) != case["total"].as_u64().unwrap() {
                    failures.push(format!("{line}\n  got {got:?} total {}", scored.total));
                }
            }
            Err(e) => failures.push(format!("{line}\n  error {e}")),
        }
    }
    assert!(lines >= 4000, "the sample holds {lines} hands");
    assert!(
        failures.is_empty(),
        "{} of {lines} disagree; first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(8)].join("\n")
    );
    let missing: Vec<Fan> = Fan::ALL
        .into_iter()
        .filter(|f| !seen.contains_key(f))
        .collect();
    assert!(missing.is_empty(), "the sample lacks {missing:?}");
}

#[test]
fn shanten_agrees_with_pymahjonggb_on_every_sample_hand() {
    let mut failures = Vec::new();
    for line in SHANTEN.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let packs = packs(&case["packs"]);
        let hand = counts_of(case["hand"].as_array().unwrap().iter().map(tile));
        let got = shanten(&hand, packs.len());
        if i64::from(got) != case["shanten"].as_i64().unwrap() {
            failures.push(format!("{line}: got {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagree; first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(8)].join("\n")
    );
}
