//! Differential tests against Botzone's own judge (`judge/main.cpp` of
//! `ailab-pku/Chinese-Standard-Mahjong`): random hands played by this engine are replayed
//! through the judge, which must accept every answer and end the hand the same way with the
//! same scores; and at random decisions every plausible answer is put to both, which must
//! refuse the same ones. `MCR_JUDGE_HANDS`, `MCR_JUDGE_POINTS` and `MCR_JUDGE_SEED` (one hand)
//! size the runs.
//!
//! Opt-in: it runs only when `MCR_JUDGE` names a judge binary (CI has none). The binary is
//! built by whoever runs the test from Botzone's repository; this repository holds neither its
//! code nor a script that builds it.

use std::io::Write;
use std::process::{Command, Stdio};

use mcr::wall::Deal;
use mcr::{Action, ActionList, Event, Game};
use serde_json::{Value, json};

fn round(answers: [String; 4]) -> Value {
    let mut m = serde_json::Map::new();
    for (seat, a) in answers.into_iter().enumerate() {
        m.insert(seat.to_string(), json!({"verdict": "OK", "response": a}));
    }
    Value::Object(m)
}

fn pass() -> [String; 4] {
    std::array::from_fn(|_| "PASS".to_string())
}

fn with(seat: u8, a: Action) -> [String; 4] {
    let mut r = pass();
    r[usize::from(seat)] = a.to_string();
    r
}

/// The judge's rounds (each seat's response to each request) of a hand so far; a decision still
/// open is left out.
fn rounds(game: &Game) -> Vec<Value> {
    let pending = !game.is_over();
    let events = game.events();
    let dealt = events.iter().position(|e| *e == Event::Dealt).unwrap();
    let mut out = vec![round(pass()), round(pass())]; // INIT, DEAL
    let mut i = dealt + 1;
    let next_claim = |i: usize| events.get(i).copied();
    while i < events.len() {
        match events[i] {
            Event::Flower { .. } => {
                out.push(round(pass()));
                i += 1;
            }
            Event::Draw { seat, .. } => {
                if pending && i + 1 == events.len() {
                    break;
                }
                let Event::Act { seat: s, action } = events[i + 1] else {
                    panic!(
                        "a draw not followed by its seat's answer: {:?}",
                        &events[i..]
                    );
                };
                assert_eq!(s, seat);
                out.push(round(with(seat, action)));
                i += 2;
                let mut last = action;
                // A discard (or a claim's discard) opens a discard round, a kong a kong round.
                loop {
                    match last {
                        Action::Play(_) | Action::Pung(_) | Action::Chow { .. } => {
                            match next_claim(i) {
                                Some(Event::Act { seat: c, action: a }) => {
                                    out.push(round(with(c, a)));
                                    i += 1;
                                    last = a;
                                }
                                None if pending => break,
                                _ => {
                                    out.push(round(pass()));
                                    break;
                                }
                            }
                        }
                        Action::Kong | Action::ConcealedKong(_) => {
                            out.push(round(pass()));
                            break;
                        }
                        Action::AddedKong(_) => {
                            match next_claim(i) {
                                Some(Event::Act {
                                    seat: c,
                                    action: Action::Win,
                                }) => {
                                    out.push(round(with(c, Action::Win)));
                                    i += 1;
                                }
                                None if pending => {}
                                _ => out.push(round(pass())),
                            }
                            break;
                        }
                        _ => break,
                    }
                }
            }
            e => panic!("unexpected event {e:?}"),
        }
    }
    out
}

/// The judge's last output for `deal` and `rounds`.
fn run_judge(judge: &str, deal: &Deal, rounds: Vec<Value>) -> Value {
    let mut log = Vec::new();
    for r in rounds {
        log.push(json!({}));
        log.push(r);
    }
    let input = json!({
        "log": log,
        "initdata": {"walltiles": deal.wall.to_string(), "quan": deal.quan.index(), "srand": 1},
    });
    let mut child = Command::new(judge)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the judge runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout).expect("the judge answers JSON")
}

/// Every answer text a seat could plausibly give.
fn candidates() -> Vec<Action> {
    let mut out = vec![Action::Pass, Action::Win, Action::Kong];
    for t in mcr::Tile::all() {
        out.extend([
            Action::Play(t),
            Action::ConcealedKong(t),
            Action::AddedKong(t),
            Action::Pung(t),
        ]);
        for m in mcr::Tile::all().filter(|m| matches!(m.rank(), Some(2..=8))) {
            out.push(Action::Chow {
                middle: m,
                discard: t,
            });
        }
    }
    out
}

#[test]
fn the_judge_refuses_exactly_the_answers_the_engine_refuses() {
    let Ok(judge) = std::env::var("MCR_JUDGE") else {
        eprintln!("MCR_JUDGE is not set: skipped");
        return;
    };
    let points: u64 = std::env::var("MCR_JUDGE_POINTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let all = candidates();
    let mut checked = 0;
    for seed in 0..points {
        let deal = Deal::from_seed(10_000 + seed);
        let mut game = Game::new(&deal);
        let mut legal = ActionList::new();
        let mut pick = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        // Play a random number of decisions, then try every candidate at the next one.
        let steps = 5 + seed % 40;
        for _ in 0..steps {
            if game.is_over() {
                break;
            }
            let answers: Vec<(u8, Action)> = game
                .deciders()
                .map(|s| {
                    game.legal_actions(s, &mut legal);
                    pick ^= pick << 13;
                    pick ^= pick >> 7;
                    pick ^= pick << 17;
                    let a = if legal.contains(&Action::Win) {
                        Action::Win
                    } else {
                        legal[(pick % legal.len() as u64) as usize]
                    };
                    (s, a)
                })
                .collect();
            game.apply(&answers).unwrap();
        }
        if game.is_over() {
            continue;
        }
        let prefix = rounds(&game);
        let seat = game.deciders().next().unwrap();
        game.legal_actions(seat, &mut legal);
        // Answers naming a tile the seat does not hold are refused for one reason; one in
        // eight of those is tried, every other answer always.
        for &c in &all {
            if let Action::Chow { discard, .. } | Action::Pung(discard) | Action::Play(discard) = c
                && game.hand(seat)[discard.index()] == 0
                && !legal.contains(&c)
                && !(pick ^ discard.index() as u64).is_multiple_of(8)
            {
                continue;
            }
            let mut r = prefix.clone();
            r.push(round(with(seat, c)));
            let v = run_judge(&judge, &deal, r);
            let d = &v["display"];
            let refused = (d["action"] == "WA" || d["action"] == "WH") && d["player"] == seat;
            assert_eq!(
                refused,
                !legal.contains(&c),
                "seed {}: seat {seat} answering {c} to {:?}: the judge says {d}",
                10_000 + seed,
                game.decision(seat)
            );
            checked += 1;
        }
    }
    eprintln!("{checked} answers judged alike");
}

#[test]
fn random_hands_replay_identically_through_botzones_judge() {
    let Ok(judge) = std::env::var("MCR_JUDGE") else {
        eprintln!("MCR_JUDGE is not set: skipped");
        return;
    };
    let hands: u64 = std::env::var("MCR_JUDGE_HANDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let mut legal = ActionList::new();
    let mut wins = 0;
    let (mut kongs, mut robbed, mut replaced) = (0, 0, 0);
    let only: Option<u64> = std::env::var("MCR_JUDGE_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    for seed in (0..hands).filter(|s| only.is_none_or(|o| o == *s)) {
        // Every other hand on a wall of 136 without flowers, as IJCAI plays.
        let mut deal = Deal::from_seed(seed);
        if seed % 2 == 1 {
            deal.wall = mcr::Wall::from_seed(seed, false);
        }
        let mut game = Game::new(&deal);
        let mut pick = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        while !game.is_over() {
            let answers: Vec<(u8, Action)> = game
                .deciders()
                .map(|s| {
                    game.legal_actions(s, &mut legal);
                    pick ^= pick << 13;
                    pick ^= pick >> 7;
                    pick ^= pick << 17;
                    // Wins whenever offered, declares every kong it may (to reach the kong
                    // rules often), else a random answer.
                    let kong = legal.iter().copied().find(|a| {
                        matches!(
                            a,
                            Action::Kong | Action::ConcealedKong(_) | Action::AddedKong(_)
                        )
                    });
                    let a = if legal.contains(&Action::Win) {
                        Action::Win
                    } else if let Some(k) = kong {
                        k
                    } else {
                        legal[(pick % legal.len() as u64) as usize]
                    };
                    (s, a)
                })
                .collect();
            game.apply(&answers).unwrap();
        }
        let v = run_judge(&judge, &deal, rounds(&game));
        let outcome = game.outcome().unwrap();
        kongs += game
            .events()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Act {
                        action: Action::Kong | Action::ConcealedKong(_) | Action::AddedKong(_),
                        ..
                    }
                )
            })
            .count();
        if let Some(w) = outcome.win {
            robbed += usize::from(w.fans.table.get(mcr::fan::Fan::RobbingTheKong) > 0);
            replaced += usize::from(w.fans.table.get(mcr::fan::Fan::OutWithReplacementTile) > 0);
        }
        let display = &v["display"];
        assert_eq!(v["command"], "finish", "hand {seed}: {display}");
        match outcome.win {
            Some(w) => {
                wins += 1;
                assert_eq!(display["action"], "HU", "hand {seed}: {display}");
                assert_eq!(display["player"], w.seat, "hand {seed}");
                assert_eq!(display["fanCnt"], w.fans.total, "hand {seed}: {display}");
                assert_eq!(display["score"], json!(outcome.scores), "hand {seed}");
            }
            None => {
                assert_eq!(display["action"], "HUANG", "hand {seed}: {display}");
            }
        }
    }
    eprintln!(
        "{hands} hands agree with the judge: {wins} won ({robbed} robbing a kong, {replaced} on a kong's replacement), {kongs} kongs"
    );
}
