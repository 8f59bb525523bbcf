//! The hand as the rules say it goes: scripted deals for every kind of claim and kong, claim
//! priority, the empty wall, scoring, what a seat may see, and why answers are refused.

use mahjong::fan::{self, WinHand};
use mahjong::{
    Action, ActionList, Deal, Event, Game, Illegal, KongKind, Meld, Outcome, Phase, Reading, Rules,
    SeenEvent, Tile, Wall, parse_tiles,
};

fn t(s: &str) -> Tile {
    s.parse().unwrap()
}

fn ts(s: &str) -> Vec<Tile> {
    parse_tiles(s).unwrap()
}

/// A hand with `hands[s]` dealt to seat `s`, the first draws `draws`, seat `first` first.
fn game(hands: [&str; 4], draws: &str, first: u8) -> Game {
    let h = hands.map(ts);
    let wall = Wall::arranged([&h[0], &h[1], &h[2], &h[3]], &ts(draws)).unwrap();
    Game::new(&Deal { wall, first }, Rules::default())
}

fn legal(g: &Game, seat: u8) -> Vec<Action> {
    let mut out = ActionList::new();
    g.legal_actions(seat, &mut out);
    out.to_vec()
}

/// Everyone but `seat` passes; `seat` answers `a`.
fn claims(g: &mut Game, seat: u8, a: Action) {
    let answers: Vec<(u8, Action)> = g
        .deciders()
        .iter()
        .map(|s| (s, if s == seat { a } else { Action::Pass }))
        .collect();
    g.apply(&answers).unwrap();
}

fn all_pass(g: &mut Game) {
    let answers: Vec<(u8, Action)> = g.deciders().iter().map(|s| (s, Action::Pass)).collect();
    g.apply(&answers).unwrap();
}

fn turn(g: &mut Game, seat: u8, a: Action) {
    assert_eq!(g.phase(), Phase::Turn { seat }, "{:?}", g.events());
    g.apply(&[(seat, a)]).unwrap();
}

const H0: &str = "1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 2S 3S E";
const H1: &str = "4S 6S 7S 8S 9S 1T 2T 3T 4T 5T 6T 7T S";
const H2: &str = "8T 8T 9T 9T W W N N Z Z F F 5S";
const H3: &str = "1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 2S 3S B";

#[test]
fn the_first_player_has_drawn_and_the_others_hold_thirteen() {
    let g = game([H0, H1, H2, H3], "N", 2);
    assert_eq!(g.phase(), Phase::Turn { seat: 2 });
    assert_eq!(
        g.events(),
        &[Event::Draw {
            seat: 2,
            tile: t("N")
        }]
    );
    assert_eq!(g.drawn(), Some(t("N")));
    for s in 0..4u8 {
        let n: u32 = g.hand(s).iter().map(|&c| u32::from(c)).sum();
        assert_eq!(n, if s == 2 { 14 } else { 13 });
    }
    assert_eq!(g.wall_left(), 83);
    assert!(g.tiles_accounted());
}

#[test]
fn a_pung_beats_a_chow_which_fails_and_the_punger_discards_without_drawing() {
    // Seat 0 draws 5S and discards it: seat 1 (next) holds 4S 6S and can chow, seat 2 holds
    // two 5S and can pung.
    let g0 = game([H0, H1, "8T 8T 9T 9T W W N N Z Z F 5S 5S", H3], "5S", 0);
    let mut g = g0.clone();
    turn(&mut g, 0, Action::Discard(t("5S")));
    assert_eq!(
        g.phase(),
        Phase::Claims {
            discarder: 0,
            tile: t("5S")
        }
    );
    assert!(legal(&g, 1).contains(&Action::Chow(t("4S"))));
    assert!(legal(&g, 2).contains(&Action::Pung));
    g.apply(&[
        (1, Action::Chow(t("4S"))),
        (2, Action::Pung),
        (3, Action::Pass),
    ])
    .unwrap();
    let tail = &g.events()[g.events().len() - 2..];
    assert_eq!(
        tail,
        &[
            Event::Pung {
                seat: 2,
                tile: t("5S")
            },
            Event::ChowFailed { seat: 1 }
        ]
    );
    assert_eq!(g.phase(), Phase::Turn { seat: 2 });
    assert_eq!(g.drawn(), None);
    assert_eq!(g.melds(2), &[Meld::Pung(t("5S"))]);
    assert!(
        legal(&g, 2).iter().all(|a| matches!(a, Action::Discard(_))),
        "after a pung only discards: {:?}",
        legal(&g, 2)
    );
    assert_eq!(
        g.check(2, Action::SelfDrawnWin).unwrap_err().reason,
        Illegal::NoDraw
    );
    assert!(g.discards(0)[0].claimed);
    assert!(g.tiles_accounted());

    // Alone, the chow succeeds and the chower discards without drawing.
    let mut g = g0;
    turn(&mut g, 0, Action::Discard(t("5S")));
    claims(&mut g, 1, Action::Chow(t("4S")));
    assert_eq!(
        g.events().last(),
        Some(&Event::Chow {
            seat: 1,
            lowest: t("4S"),
            tile: t("5S")
        })
    );
    assert_eq!(g.phase(), Phase::Turn { seat: 1 });
    assert_eq!(g.melds(1), &[Meld::Chow(t("4S"))]);
    assert_eq!(g.hand(1)[t("4S").index()], 0);
    assert_eq!(g.hand(1)[t("6S").index()], 0);
    assert!(g.tiles_accounted());
}

#[test]
fn only_the_next_seat_may_chow_and_a_chow_must_hold_the_discard() {
    let mut g = game(
        [H0, H1, H2, "1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 2S 4S 6S"],
        "5S",
        1,
    );
    // Seat 1 draws 5S and discards it; seat 3 holds 4S 6S but is not next (seat 2 is).
    turn(&mut g, 1, Action::Discard(t("5S")));
    assert!(!legal(&g, 3).iter().any(|a| matches!(a, Action::Chow(_))));
    let e = g.check(3, Action::Chow(t("4S"))).unwrap_err();
    assert_eq!(e.reason, Illegal::ChowNotFromNextSeat);
    assert!(e.out_of_place(), "the 2015 server ignored such a chow");
    let e = g.check(2, Action::Chow(t("1S"))).unwrap_err();
    assert!(matches!(e.reason, Illegal::ChowMissesDiscard { .. }), "{e}");
    let e = g.check(2, Action::Chow(t("3S"))).unwrap_err();
    assert!(matches!(e.reason, Illegal::ChowLacks { .. }), "{e}");
    assert!(e.to_string().contains("needs"), "{e}");
}

#[test]
fn two_winners_on_one_discard_go_to_the_first_in_turn_order() {
    // Seat 3 discards W: seats 0 and 2 can both win; seat 0 comes first after seat 3.
    let ready_w = "1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 1S 1S W";
    let ready_w2 = "1T 2T 3T 4T 5T 6T 7T 8T 9T 2S 2S 2S W";
    let mut g = game(
        [ready_w, H1, ready_w2, "3S 4S 5S 6S 7S 8S 9S 5M 5M E E E S"],
        "W",
        3,
    );
    turn(&mut g, 3, Action::Discard(t("W")));
    g.apply(&[(2, Action::Win), (0, Action::Win), (1, Action::Pass)])
        .unwrap();
    let w = g.outcome().unwrap().win.clone().unwrap();
    assert_eq!((w.seat, w.from), (0, Some(3)));
    assert_eq!(
        g.events().last(),
        Some(&Event::Win {
            seat: 0,
            from: Some(3),
            tile: t("W"),
            robbed_kong: false
        })
    );
}

#[test]
fn a_win_beats_a_pung_from_a_seat_earlier_in_turn_order() {
    // Seat 0 discards W: seat 1 (first in order) could pung, seat 3 wins.
    let mut g = game(
        [
            H0,
            "W W 7S 8S 9S 1T 2T 3T 4T 5T 6T 7T S",
            "8T 8T 9T 9T N N Z Z F F B B 5S",
            "1T 2T 3T 4T 5T 6T 7T 8T 9T 2S 2S 2S W",
        ],
        "W",
        0,
    );
    turn(&mut g, 0, Action::Discard(t("W")));
    assert_eq!(legal(&g, 1), vec![Action::Pass, Action::Pung]);
    assert_eq!(legal(&g, 3), vec![Action::Pass, Action::Win]);
    g.apply(&[(1, Action::Pung), (2, Action::Pass), (3, Action::Win)])
        .unwrap();
    let w = g.outcome().unwrap().win.clone().unwrap();
    assert_eq!((w.seat, w.from), (3, Some(0)));
    assert!(g.melds(1).is_empty());
    assert!(g.tiles_accounted());
}

#[test]
fn kongs_draw_a_replacement_and_an_added_kong_can_be_robbed() {
    // Seat 0 holds three 1M and draws the fourth: a concealed kong, then a replacement (E).
    let mut g = game(
        [
            "1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M E S",
            H1,
            H2,
            "1S 2S 3S 5S 6S 7S 1T 2T 3T 5T 5T 9T B",
        ],
        "1M E",
        0,
    );
    assert!(legal(&g, 0).contains(&Action::ConcealedKong(t("1M"))));
    turn(&mut g, 0, Action::ConcealedKong(t("1M")));
    assert_eq!(
        &g.events()[1..],
        &[
            Event::ConcealedKong {
                seat: 0,
                tile: t("1M")
            },
            Event::Draw {
                seat: 0,
                tile: t("E")
            }
        ]
    );
    assert_eq!(g.melds(0), &[Meld::Kong(t("1M"), KongKind::Concealed)]);
    // Others see the kong but not its tile, nor seat 0's draws.
    let v = g.view(1);
    assert_eq!(v.melds(0).collect::<Vec<_>>(), vec![None]);
    assert!(v.events().all(|e| !matches!(
        e,
        SeenEvent::Draw { tile: Some(_), .. } | SeenEvent::ConcealedKong { tile: Some(_), .. }
    )));
    let own = g.view(0);
    assert_eq!(
        own.melds(0).collect::<Vec<_>>(),
        vec![Some(Meld::Kong(t("1M"), KongKind::Concealed))]
    );
    assert_eq!(own.drawn(), Some(t("E")));
    assert!(g.tiles_accounted());
}

#[test]
fn robbing_an_added_kong_wins_and_reverts_the_kong_to_a_pung() {
    // Seat 1 pungs 5T from seat 0, discards S; seat 2 discards N; seat 3 discards B; seat 0
    // discards E; seat 1 draws the fourth 5T and adds it; seat 3 (waiting on 5T) robs it.
    let mut g = game(
        [
            H0,
            "5T 5T 4S 6S 7S 8S 9S 1T 2T 3T 6T 7T S",
            H2,
            "1S 2S 3S 5S 6S 7S 1T 2T 3T 4T 6T 9T 9T",
        ],
        "5T N B E 5T",
        0,
    );
    turn(&mut g, 0, Action::Discard(t("5T")));
    claims(&mut g, 1, Action::Pung);
    turn(&mut g, 1, Action::Discard(t("S")));
    all_pass(&mut g);
    turn(&mut g, 2, Action::Discard(t("N")));
    all_pass(&mut g);
    turn(&mut g, 3, Action::Discard(t("B")));
    all_pass(&mut g);
    turn(&mut g, 0, Action::Discard(t("E")));
    all_pass(&mut g);
    assert_eq!(g.drawn(), Some(t("5T")));
    assert!(legal(&g, 1).contains(&Action::AddedKong(t("5T"))));
    turn(&mut g, 1, Action::AddedKong(t("5T")));
    assert_eq!(
        g.phase(),
        Phase::RobKong {
            seat: 1,
            tile: t("5T")
        }
    );
    assert_eq!(g.melds(1), &[Meld::Kong(t("5T"), KongKind::Added)]);
    assert_eq!(legal(&g, 3), vec![Action::Pass, Action::RobKong]);
    assert_eq!(legal(&g, 2), vec![Action::Pass]);
    assert!(g.tiles_accounted());
    claims(&mut g, 3, Action::RobKong);
    let o = g.outcome().unwrap();
    let w = o.win.as_ref().unwrap();
    assert_eq!(
        (w.seat, w.from, w.tile, w.robbed_kong),
        (3, Some(1), t("5T"), true)
    );
    assert_eq!(
        g.melds(1),
        &[Meld::Pung(t("5T"))],
        "the robbed kong is a pung again"
    );
    let x = 4 + w.fans.total as i32;
    assert_eq!(o.scores[3], x + 8);
    assert_eq!((o.scores[1], o.scores[0], o.scores[2]), (-x, -4, -4));
    assert!(g.tiles_accounted());
}

#[test]
fn an_unrobbed_added_kong_draws_a_replacement_and_an_exposed_kong_too() {
    let mut g = game(
        [H0, "5T 5T 5T 6S 7S 8S 9S 1T 2T 3T 6T 7T S", H2, H3],
        "5T N",
        0,
    );
    turn(&mut g, 0, Action::Discard(t("5T")));
    assert!(legal(&g, 1).contains(&Action::Kong));
    claims(&mut g, 1, Action::Kong);
    assert_eq!(
        &g.events()[2..],
        &[
            Event::Kong {
                seat: 1,
                tile: t("5T")
            },
            Event::Draw {
                seat: 1,
                tile: t("N")
            }
        ]
    );
    assert_eq!(g.melds(1), &[Meld::Kong(t("5T"), KongKind::Exposed)]);
    assert_eq!(g.phase(), Phase::Turn { seat: 1 });
    assert!(g.tiles_accounted());

    let mut g = game(
        [H0, "5T 5T 4S 6S 7S 8S 9S 1T 2T 3T 6T 7T S", H2, H3],
        "5T N B E 5T W",
        0,
    );
    turn(&mut g, 0, Action::Discard(t("5T")));
    claims(&mut g, 1, Action::Pung);
    for (s, d) in [(1, "S"), (2, "N"), (3, "B"), (0, "E")] {
        turn(&mut g, s, Action::Discard(t(d)));
        all_pass(&mut g);
    }
    turn(&mut g, 1, Action::AddedKong(t("5T")));
    all_pass(&mut g);
    assert_eq!(
        g.events().last(),
        Some(&Event::Draw {
            seat: 1,
            tile: t("W")
        })
    );
    assert_eq!(g.phase(), Phase::Turn { seat: 1 });
}

/// Plays with every seat discarding what it drew and passing until the hand ends.
fn play_out_passing(g: &mut Game) {
    while !g.is_over() {
        let answers: Vec<(u8, Action)> = g.deciders().iter().map(|s| (s, g.automatic(s))).collect();
        g.apply(&answers).unwrap();
        assert!(g.tiles_accounted());
    }
}

#[test]
fn the_hand_is_drawn_when_a_draw_is_needed_and_the_wall_is_empty() {
    let mut g = Game::new(&Deal::from_seed(7), Rules::default());
    play_out_passing(&mut g);
    let draws = g
        .events()
        .iter()
        .filter(|e| matches!(e, Event::Draw { .. }))
        .count();
    assert_eq!(draws, 84, "every drawable tile is drawn");
    assert_eq!(g.events().last(), Some(&Event::Drawn));
    assert_eq!(g.outcome(), Some(&Outcome::DRAWN));
    assert_eq!(g.wall_left(), 0);
}

/// A wall whose last tile is `last` (moved from wherever it would be).
fn wall_ending_with(hands: [&str; 4], last: &str) -> Wall {
    let h = hands.map(ts);
    let w = Wall::arranged([&h[0], &h[1], &h[2], &h[3]], &[]).unwrap();
    let mut tiles = w.tiles().to_vec();
    let at = tiles[52..].iter().position(|&x| x == t(last)).unwrap() + 52;
    let tile = tiles.remove(at);
    tiles.push(tile);
    Wall::from_tiles(&tiles).unwrap()
}

#[test]
fn the_last_discard_may_be_chowed_then_one_discard_and_the_hand_is_drawn() {
    // First = 1, so the 84th draw is seat 0's; it discards it (4S), seat 1 chows with 2S 3S.
    let wall = wall_ending_with(
        [
            "1M 1M 1M 1M 2M 2M 2M 2M 3M 3M 3M 3M E",
            "2S 3S 4M 4M 4M 4M 5M 5M 5M 5M 6M 6M S",
            "6M 6M 7M 7M 7M 7M 8M 8M 8M 8M 9M 9M W",
            "9M 9M 1T 1T 1T 1T 9T 9T 9T 9T 7S 7S N",
        ],
        "4S",
    );
    let mut g = Game::new(&Deal { wall, first: 1 }, Rules::default());
    while g.wall_left() > 0 || matches!(g.phase(), Phase::Turn { .. }) {
        let answers: Vec<(u8, Action)> = g.deciders().iter().map(|s| (s, g.automatic(s))).collect();
        g.apply(&answers).unwrap();
        assert!(!g.is_over(), "{:?}", g.events().last());
    }
    assert_eq!(
        g.phase(),
        Phase::Claims {
            discarder: 0,
            tile: t("4S")
        }
    );
    assert!(legal(&g, 1).contains(&Action::Chow(t("2S"))));
    claims(&mut g, 1, Action::Chow(t("2S")));
    assert_eq!(g.phase(), Phase::Turn { seat: 1 });
    turn(&mut g, 1, Action::Discard(t("S")));
    all_pass(&mut g);
    assert_eq!(g.events().last(), Some(&Event::Drawn));
    assert_eq!(g.outcome(), Some(&Outcome::DRAWN));
    assert!(g.tiles_accounted());
}

#[test]
fn a_kong_with_the_wall_empty_draws_the_hand() {
    let wall = wall_ending_with(
        [
            "1M 1M 1M 2M 2M 2M 2M 3M 3M 3M 3M E E",
            "4M 4M 4M 4M 5M 5M 5M 5M 6M 6M 6M 6M S",
            "7M 7M 7M 7M 8M 8M 8M 8M 9M 9M 9M 9M W",
            "1T 1T 1T 1T 9T 9T 9T 9T 7S 7S 7S 7S N",
        ],
        "1M",
    );
    let mut g = Game::new(&Deal { wall, first: 1 }, Rules::default());
    while g.wall_left() > 0 {
        let answers: Vec<(u8, Action)> = g.deciders().iter().map(|s| (s, g.automatic(s))).collect();
        g.apply(&answers).unwrap();
    }
    assert_eq!(g.phase(), Phase::Turn { seat: 0 });
    assert!(legal(&g, 0).contains(&Action::ConcealedKong(t("1M"))));
    turn(&mut g, 0, Action::ConcealedKong(t("1M")));
    assert_eq!(g.events().last(), Some(&Event::Drawn));
    assert!(g.tiles_accounted());
}

#[test]
fn a_self_drawn_win_pays_from_every_other_seat() {
    let ready = "1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 1S 1S W";
    let mut g = game([ready, H1, H2, H3], "W", 0);
    assert!(legal(&g, 0).contains(&Action::SelfDrawnWin));
    turn(&mut g, 0, Action::SelfDrawnWin);
    let o = g.outcome().unwrap();
    let w = o.win.as_ref().unwrap();
    assert_eq!((w.seat, w.from, w.tile), (0, None, t("W")));
    let x = 4 + w.fans.total as i32;
    assert_eq!(o.scores, [3 * x, -x, -x, -x]);
    assert_eq!(
        g.hand(0)[t("W").index()],
        2,
        "the winner's hand holds the winning tile"
    );
    assert!(g.tiles_accounted());
}

#[test]
fn payments_follow_the_contest_rules() {
    assert_eq!(Outcome::payments(0, None, 5), [27, -9, -9, -9]);
    assert_eq!(Outcome::payments(0, Some(2), 5), [17, -4, -9, -4]);
    assert_eq!(Outcome::payments(3, Some(0), 0), [-4, -4, -4, 12]);
    for (w, f, x) in [(1, None, 88), (2, Some(1), 3)] {
        assert_eq!(Outcome::payments(w, f, x).iter().sum::<i32>(), 0);
    }
}

#[test]
fn refused_answers_say_why_and_change_nothing() {
    let mut g = game([H0, H1, H2, H3], "N", 0);
    let before = g.clone();
    let e = g.apply(&[(0, Action::Discard(t("5T")))]).unwrap_err();
    assert_eq!(e.reason, Illegal::NotHeld(t("5T")));
    assert_eq!(e.to_string(), "seat 0: discard 5T: the seat holds no 5T");
    assert_eq!(g.events(), before.events());
    let e = g.apply(&[(1, Action::Discard(t("4S")))]).unwrap_err();
    assert_eq!(e.reason, Illegal::NotAsked);
    let e = g.apply(&[]).unwrap_err();
    assert_eq!((e.seat, e.reason), (0, Illegal::Missing));
    let e = g.check(0, Action::Pass).unwrap_err();
    assert!(matches!(e.reason, Illegal::WrongDecision(_)), "{e}");
    let e = g.check(0, Action::SelfDrawnWin).unwrap_err();
    assert_eq!(e.reason, Illegal::NoWinOnDraw);
    let e = g.check(0, Action::ConcealedKong(t("1M"))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "seat 0: concealed-kong 1M: a concealed kong needs four 1M in hand; the seat holds 1"
    );
    let e = g.check(0, Action::AddedKong(t("1M"))).unwrap_err();
    assert_eq!(e.reason, Illegal::NoPung(t("1M")));

    turn(&mut g, 0, Action::Discard(t("N")));
    let e = g.check(1, Action::Pung).unwrap_err();
    assert_eq!(
        e.to_string(),
        "seat 1: pung: this needs 2 N in hand; the seat holds 0"
    );
    let e = g.check(2, Action::Kong).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("this needs 3 N in hand; the seat holds 2"),
        "{e}"
    );
    let e = g.check(1, Action::Win).unwrap_err();
    assert_eq!(e.reason, Illegal::NoWin(t("N")));
    let e = g.check(1, Action::Discard(t("4S"))).unwrap_err();
    assert!(matches!(e.reason, Illegal::WrongDecision(_)), "{e}");
    let e = g
        .apply(&[(1, Action::Pass), (1, Action::Pass), (2, Action::Pass)])
        .unwrap_err();
    assert_eq!(e.reason, Illegal::Duplicate);
    let e = g
        .apply(&[(1, Action::Pass), (2, Action::Pass)])
        .unwrap_err();
    assert_eq!((e.seat, e.reason), (3, Illegal::Missing));
    g.apply(&[(3, Action::Pass), (2, Action::Pung), (1, Action::Pass)])
        .unwrap();
    assert_eq!(g.phase(), Phase::Turn { seat: 2 });
}

#[test]
fn the_loose_thirteen_orphans_wins_only_under_seed_2015() {
    // From mahjong-2015-fans.md: 1M 1M 1M 9M 1S 9S 1T 9T E S W N Z wins on F under the old
    // server's test although B is missing. Seat 3 draws F and discards it.
    let hand = "1M 1M 1M 9M 1S 9S 1T 9T E S W N Z";
    let others = [H1, H2, "2M 3M 4M 5M 6M 7M 8M 2S 3S 4S 5S 6S 7S"];
    for (reading, wins) in [(Reading::Contest, false), (Reading::Seed2015, true)] {
        let h = [ts(hand), ts(others[0]), ts(others[1]), ts(others[2])];
        let wall = Wall::arranged([&h[0], &h[1], &h[2], &h[3]], &ts("F")).unwrap();
        let mut g = Game::new(&Deal { wall, first: 3 }, Rules { reading });
        turn(&mut g, 3, Action::Discard(t("F")));
        assert_eq!(legal(&g, 0).contains(&Action::Win), wins, "{reading}");
        let hand = WinHand {
            concealed: *g.hand(0),
            melds: &[],
            win: t("F"),
            self_drawn: false,
            robbed_kong: false,
        };
        assert_eq!(fan::evaluate(&hand, reading).is_ok(), wins, "{reading}");
    }
}
