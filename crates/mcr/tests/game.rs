//! The hand as Botzone's judge plays it: deal, flowers, claims and their priority, kongs and
//! their replacement draws, robbing a kong, the 8-point minimum, scores, drawn hands, faults.

use mcr::fan::Fan;
use mcr::game::{Illegal, MIN_POINTS};
use mcr::{
    Action, ActionList, Decision, FaultPolicy, Game, Phase, Tile, Wall, WallTile, Wind, shape,
};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

/// A wall whose seat `i` draws `seqs[i]` in order (its 13 dealt tiles first, flowers set
/// aside), the rest of each quarter filled from the unused tiles in kind order.
fn wall(seqs: [&str; 4], flowers: bool) -> Wall {
    let parsed: Vec<Vec<WallTile>> = seqs
        .iter()
        .map(|s| s.split_whitespace().map(|x| x.parse().unwrap()).collect())
        .collect();
    Wall::arranged([&parsed[0], &parsed[1], &parsed[2], &parsed[3]], flowers).unwrap()
}

fn legal(game: &Game, seat: u8) -> ActionList {
    let mut out = ActionList::new();
    game.legal_actions(seat, &mut out);
    out
}

/// `seat` answers `action`; every other decider passes (or, on its turn, discards its draw).
fn play(game: &mut Game, seat: u8, action: Action) {
    let answers: Vec<(u8, Action)> = game
        .deciders()
        .map(|s| {
            if s == seat {
                (s, action)
            } else {
                (s, game.automatic(s))
            }
        })
        .collect();
    assert!(
        answers.iter().any(|(s, _)| *s == seat),
        "seat {seat} does not decide in {:?}",
        game.phase()
    );
    game.apply(&answers).unwrap();
}

/// Everyone passes until `seat` has its turn.
fn until_turn(game: &mut Game, seat: u8) {
    while game.phase() != (Phase::Turn { seat }) {
        assert!(!game.is_over(), "the hand ended before seat {seat}'s turn");
        let answers: Vec<(u8, Action)> = game.deciders().map(|s| (s, game.automatic(s))).collect();
        game.apply(&answers).unwrap();
    }
}

#[test]
fn the_deal_gives_13_tiles_each_sets_flowers_aside_and_seat_0_draws_first() {
    let w = wall(
        [
            "H1 W1 W1 W1 W2 W2 W2 W3 W3 W3 W4 W4 W4 H2 W5 H3 W6",
            "",
            "",
            "",
        ],
        true,
    );
    let game = Game::with_wall(w, Wind::South);
    assert_eq!(game.phase(), Phase::Turn { seat: 0 });
    assert_eq!(
        game.flowers(0),
        3,
        "two flowers in the deal, one in the first draw"
    );
    assert_eq!(game.hand(0).iter().sum::<u8>(), 14);
    assert_eq!(
        game.hand(0)[t("W6").index()],
        1,
        "W6 replaced the flower H3"
    );
    for seat in 1..4 {
        assert_eq!(game.hand(seat).iter().sum::<u8>(), 13);
    }
    assert_eq!(game.wall_left(0), 36 - 17);
    assert_eq!(game.decision(0), Some(Decision::Turn { drawn: t("W6") }));
    assert!(game.tiles_accounted());
    assert_eq!(game.quan(), Wind::South);
}

#[test]
fn a_self_drawn_win_takes_8_plus_its_points_from_each_other_seat() {
    let w = wall(
        ["W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 F1 F1", "", "", ""],
        false,
    );
    let mut game = Game::with_wall(w, Wind::East);
    assert!(legal(&game, 0).contains(&Action::Win));
    play(&mut game, 0, Action::Win);
    let out = *game.outcome().unwrap();
    let win = out.win.unwrap();
    assert_eq!((win.seat, win.from, win.tile), (0, None, t("F1")));
    assert_eq!(win.fans.table.get(Fan::PureStraight), 1);
    let f = win.fans.total as i32;
    assert_eq!(out.scores, [3 * (8 + f), -(8 + f), -(8 + f), -(8 + f)]);
    assert_eq!(out.scores.iter().sum::<i32>(), 0);
}

#[test]
fn a_win_below_8_points_is_the_judges_wrong_win_and_flowers_do_not_count() {
    // Fully Concealed Hand and Two Terminal Chows, three flowers: 8 with flowers, 5 without.
    let w = wall(
        [
            "H1 H2 H3 W1 W2 W3 T4 T5 T6 B2 B3 B4 W7 W8 F1 F1 W9",
            "",
            "",
            "",
        ],
        true,
    );
    let game = Game::with_wall(w, Wind::East);
    assert!(shape::is_winning_shape(game.hand(0), 0));
    assert!(!legal(&game, 0).contains(&Action::Win));
    match game.check(0, Action::Win) {
        Err(Illegal::WrongWin { points: Some(p) }) => assert!(p < MIN_POINTS, "{p}"),
        other => panic!("{other:?}"),
    }
    let mut g = game.clone();
    let err = g.apply(&[(0, Action::Win)]).unwrap_err();
    assert_eq!(err.seat, 0);
    assert!(err.to_string().contains("wrong win"), "{err}");
    assert_eq!(g.phase(), game.phase(), "a refused answer changes nothing");
}

/// Seat 0 discards B5: seat 1 could chow it, seat 2 pung it, seat 3 win on it.
fn contested_discard() -> Game {
    let w = wall(
        [
            "B5 W1 W1 W2 W2 F2 F2 F3 F3 J1 J1 J2 J2 J3",
            "B4 B6 T1 T2 T3 T7 T8 T9 F4 F4 F4 J3 J3",
            "B5 B5 T4 T5 T6 W7 W7 W8 W8 W9 B9 B9 B9",
            "W1 W2 W3 W4 W5 W6 W7 W8 W9 T7 T7 B4 B6",
        ],
        false,
    );
    let mut game = Game::with_wall(w, Wind::East);
    play(&mut game, 0, Action::Play(t("B5")));
    game
}

#[test]
fn a_win_beats_a_pung_which_beats_a_chow() {
    let game = contested_discard();
    let deciders: Vec<u8> = game.deciders().collect();
    assert_eq!(deciders, vec![1, 2, 3]);
    let chow = Action::Chow {
        middle: t("B5"),
        discard: t("T1"),
    };
    assert!(legal(&game, 1).contains(&chow));
    assert!(legal(&game, 2).contains(&Action::Pung(t("T4"))));
    assert!(legal(&game, 3).contains(&Action::Win));

    let mut g = game.clone();
    g.apply(&[(1, chow), (2, Action::Pung(t("T4"))), (3, Action::Win)])
        .unwrap();
    let out = *g.outcome().unwrap();
    let win = out.win.unwrap();
    assert_eq!((win.seat, win.from), (3, Some(0)));
    let f = win.fans.total as i32;
    assert_eq!(out.scores, [-(8 + f), -8, -8, 24 + f]);

    let mut g = game.clone();
    g.apply(&[(1, chow), (2, Action::Pung(t("T4"))), (3, Action::Pass)])
        .unwrap();
    // Nobody can claim T4, so the hand has moved on to seat 3's draw.
    assert_eq!(g.discards(2), &[(t("T4"), false)]);
    assert_eq!(g.phase(), Phase::Turn { seat: 3 });
    assert_eq!(g.packs(2)[0].to_string(), "PENG B5 2");
    assert!(g.packs(1).is_empty());

    let mut g = game.clone();
    g.apply(&[(1, chow), (2, Action::Pass), (3, Action::Pass)])
        .unwrap();
    assert_eq!(g.discards(1), &[(t("T1"), false)]);
    assert_eq!(g.packs(1)[0].to_string(), "CHI B5 2");
    assert!(g.tiles_accounted());
    assert_eq!(g.discards(0), &[(t("B5"), true)]);

    let mut g = game;
    g.apply(&[(1, Action::Pass), (2, Action::Pass), (3, Action::Pass)])
        .unwrap();
    assert_eq!(g.phase(), Phase::Turn { seat: 1 });
    assert_eq!(g.shown()[t("B5").index()], 1);
}

#[test]
fn only_the_next_seat_chows_and_every_claim_is_checked() {
    let game = contested_discard();
    let bad_chow = Action::Chow {
        middle: t("B5"),
        discard: t("T4"),
    };
    assert!(matches!(
        game.check(2, bad_chow),
        Err(Illegal::NotAllowed { .. })
    ));
    assert!(matches!(
        game.check(1, Action::Pung(t("T1"))),
        Err(Illegal::NotAllowed { .. })
    ));
    assert!(matches!(
        game.check(2, Action::Pung(t("W1"))),
        Err(Illegal::NotAllowed { .. })
    ));
    assert_eq!(game.check(0, Action::Pass), Err(Illegal::NotDeciding));
    let mut g = game.clone();
    let err = g
        .apply(&[(1, Action::Pass), (2, Action::Pass)])
        .unwrap_err();
    assert_eq!((err.seat, err.reason), (3, Illegal::Answers));
}

#[test]
fn a_concealed_kong_draws_its_replacement_from_the_seats_own_quarter_and_can_win_on_it() {
    let w = wall(
        ["J1 J1 J1 J1 W1 W2 W3 W4 W5 W6 T7 T8 T9 B2 B2", "", "", ""],
        false,
    );
    let mut game = Game::with_wall(w, Wind::East);
    assert!(legal(&game, 0).contains(&Action::ConcealedKong(t("J1"))));
    let left = game.wall_left(0);
    play(&mut game, 0, Action::ConcealedKong(t("J1")));
    assert_eq!(game.wall_left(0), left - 1);
    assert_eq!(game.decision(0), Some(Decision::Turn { drawn: t("B2") }));
    assert_eq!(
        game.view(1).packs(0).next(),
        Some(None),
        "others do not see the tile"
    );
    assert_eq!(
        game.view(0).packs(0).next().flatten().map(|p| p.tile),
        Some(t("J1"))
    );
    play(&mut game, 0, Action::Win);
    let win = game.outcome().unwrap().win.unwrap();
    assert_eq!(win.fans.table.get(Fan::OutWithReplacementTile), 1);
    assert_eq!(win.fans.table.get(Fan::ConcealedKong), 1);
}

#[test]
fn an_exposed_kong_on_a_discard_draws_a_replacement_and_can_win_on_it() {
    let w = wall(
        [
            "T5 W1 W1 B2 B3 B4 B6 B7 B8 F2 F2 F3 F3 J3",
            "",
            "T5 T5 T5 W1 W2 W3 W4 W5 W6 W7 W8 W9 J1 J1",
            "",
        ],
        false,
    );
    let mut game = Game::with_wall(w, Wind::East);
    play(&mut game, 0, Action::Play(t("T5")));
    assert!(legal(&game, 2).contains(&Action::Kong));
    play(&mut game, 2, Action::Kong);
    assert_eq!(game.packs(2)[0].to_string(), "GANG T5 2");
    assert_eq!(game.shown()[t("T5").index()], 4);
    assert_eq!(game.decision(2), Some(Decision::Turn { drawn: t("J1") }));
    assert_eq!(game.wall_left(2), 34 - 14);
    play(&mut game, 2, Action::Win);
    let win = game.outcome().unwrap().win.unwrap();
    assert_eq!(win.from, None, "a replacement draw is self-drawn");
    assert_eq!(win.fans.table.get(Fan::OutWithReplacementTile), 1);
    assert_eq!(win.fans.table.get(Fan::MeldedKong), 1);
}

#[test]
fn a_flower_between_kong_and_replacement_loses_out_with_replacement_tile() {
    let w = wall(
        [
            "J1 J1 J1 J1 W1 W2 W3 W4 W5 W6 T7 T8 T9 B2 H1 B2",
            "",
            "",
            "",
        ],
        true,
    );
    let mut game = Game::with_wall(w, Wind::East);
    play(&mut game, 0, Action::ConcealedKong(t("J1")));
    assert_eq!(game.flowers(0), 1);
    play(&mut game, 0, Action::Win);
    let win = game.outcome().unwrap().win.unwrap();
    assert_eq!(win.fans.table.get(Fan::OutWithReplacementTile), 0);
    assert_eq!(win.fans.table.get(Fan::FlowerTiles), 1);
}

#[test]
fn an_added_kong_can_be_robbed_and_its_owner_pays() {
    // Seat 0 discards W5; seat 1 pungs it and later adds the W5 it draws; seat 2, waiting on
    // W5 (W4 W6), robs it.
    let w = wall(
        [
            "W5 T1 T1 T2 T2 T3 T3 B1 B1 B2 B2 B3 B3 F1 F2",
            "W5 W5 T4 T5 T6 T7 T8 T9 B4 B5 B6 B7 B8 W5",
            "W4 W6 T1 T2 T3 T4 T5 T6 T7 T8 T9 J2 J2 F3",
            "",
        ],
        false,
    );
    let mut game = Game::with_wall(w, Wind::East);
    play(&mut game, 0, Action::Play(t("W5")));
    play(&mut game, 1, Action::Pung(t("B8")));
    until_turn(&mut game, 1);
    assert!(legal(&game, 1).contains(&Action::AddedKong(t("W5"))));
    play(&mut game, 1, Action::AddedKong(t("W5")));
    assert_eq!(
        game.phase(),
        Phase::RobKong {
            seat: 1,
            tile: t("W5")
        }
    );
    assert_eq!(
        game.decision(2),
        Some(Decision::RobKong {
            from: 1,
            tile: t("W5")
        })
    );
    play(&mut game, 2, Action::Win);
    let out = *game.outcome().unwrap();
    let win = out.win.unwrap();
    assert_eq!((win.seat, win.from), (2, Some(1)));
    assert_eq!(win.fans.table.get(Fan::RobbingTheKong), 1);
    let f = win.fans.total as i32;
    assert_eq!(out.scores, [-8, -(8 + f), 24 + f, -8]);
}

#[test]
fn the_hand_is_drawn_when_the_drawers_quarter_is_empty() {
    let mut game = Game::new(&mcr::wall::Deal::from_seed(11));
    while !game.is_over() {
        let answers: Vec<(u8, Action)> = game.deciders().map(|s| (s, game.automatic(s))).collect();
        game.apply(&answers).unwrap();
        assert!(game.tiles_accounted());
    }
    let out = game.outcome().unwrap();
    assert_eq!(out.scores, [0; 4]);
    assert!(out.win.is_none());
    assert!((0..4).any(|s| game.wall_left(s) == 0));
}

#[test]
fn claims_need_tiles_in_the_next_quarter() {
    // Automatic play until a seat discards a tile another seat holds a pair of while the next
    // seat's quarter is empty: nobody may pung it, so the next seat must draw and the hand is
    // drawn at once.
    let mut checked = 0;
    for seed in 0..300 {
        let mut game = Game::new(&mcr::wall::Deal::from_seed(seed));
        while !game.is_over() {
            let answers: Vec<(u8, Action)> =
                game.deciders().map(|s| (s, game.automatic(s))).collect();
            let pung_refused = match game.phase() {
                Phase::Turn { seat } => {
                    let Action::Play(tile) = game.automatic(seat) else {
                        unreachable!()
                    };
                    game.wall_left((seat + 1) % 4) == 0
                        && (1..4).any(|k| game.hand((seat + k) % 4)[tile.index()] >= 2)
                }
                _ => false,
            };
            game.apply(&answers).unwrap();
            if pung_refused {
                for s in game.deciders() {
                    assert!(
                        legal(&game, s)
                            .iter()
                            .all(|a| matches!(a, Action::Pass | Action::Win))
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no seed reached the case");
}

#[test]
fn fault_policies_end_the_hand_or_play_on() {
    let mut judge = contested_discard();
    judge.fault(2, FaultPolicy::Judge);
    let out = *judge.outcome().unwrap();
    assert_eq!(out.scores, [10, 10, -30, 10]);
    assert_eq!(out.fault, Some(2));

    let mut on = contested_discard();
    on.fault(3, FaultPolicy::PlayOn);
    assert!(on.is_automatic(3));
    assert_eq!(on.automatic(3), Action::Pass);
    assert!(!on.is_over());
}

#[test]
fn answers_read_and_print_in_botzones_words() {
    for text in [
        "PASS",
        "HU",
        "PLAY W1",
        "GANG J3",
        "GANG",
        "BUGANG F2",
        "PENG T9",
        "CHI B2 H1",
    ] {
        match text.parse::<Action>() {
            Ok(a) => assert_eq!(a.to_string(), text),
            Err(e) => assert!(text.contains('H'), "{text}: {e}"),
        }
    }
    assert!(
        "CHI B2 H1"
            .parse::<Action>()
            .unwrap_err()
            .to_string()
            .contains("flower")
    );
    assert!(
        "EAT W1"
            .parse::<Action>()
            .unwrap_err()
            .to_string()
            .contains("is not an answer")
    );
    assert!(
        "PLAY W0"
            .parse::<Action>()
            .unwrap_err()
            .to_string()
            .contains("\"W0\"")
    );
}

#[test]
fn the_wall_can_be_given_as_walltiles_without_flowers() {
    let w = Wall::from_seed(9, false);
    let game = Game::with_wall(w.to_string().parse().unwrap(), Wind::North);
    assert_eq!(game.wall_left(1), 34 - 13);
    assert!(w.tiles().iter().all(|x| matches!(x, WallTile::Tile(_))));
}

/// `Game::at` gives a seat the legal answers the played hand gives it, at every decision of
/// random hands: the position (hand, packs, flowers, shown tiles, quarters, kong draw) is all
/// the rules read.
#[test]
fn a_position_has_the_legal_answers_of_the_hand() {
    let mut checked = 0;
    for seed in 0..60u64 {
        let mut game = Game::new(&mcr::wall::Deal::from_seed(seed));
        let mut k = seed;
        while !game.is_over() {
            for seat in game.deciders() {
                let events = game.events();
                let last_draw = events
                    .iter()
                    .rposition(|e| matches!(e, mcr::Event::Draw { .. }));
                let kong_draw = last_draw.and_then(|i| i.checked_sub(1)).is_some_and(|i| {
                    matches!(
                        events[i],
                        mcr::Event::Act {
                            action: Action::Kong | Action::ConcealedKong(_) | Action::AddedKong(_),
                            ..
                        }
                    )
                });
                let position = mcr::Position {
                    seat,
                    hand: *game.hand(seat),
                    packs: game.packs(seat),
                    flowers: game.flowers(seat),
                    decision: game.decision(seat).unwrap(),
                    quan: game.quan(),
                    shown: *game.shown(),
                    wall_left: [0, 1, 2, 3].map(|s| game.wall_left(s)),
                    kong_draw,
                };
                let at = Game::at(&position);
                assert_eq!(&*legal(&at, seat), &*legal(&game, seat), "seed {seed}");
                assert_eq!(at.deciders().collect::<Vec<_>>(), [seat]);
                checked += 1;
            }
            let answers: Vec<(u8, Action)> = game
                .deciders()
                .map(|s| {
                    let l = game.legal(s);
                    k = k
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let pick = if l.contains(&Action::Win) {
                        Action::Win
                    } else {
                        l[(k >> 33) as usize % l.len()]
                    };
                    (s, pick)
                })
                .collect();
            game.apply(&answers).unwrap();
        }
    }
    assert!(checked > 1000, "{checked} decisions checked");
}
