//! Properties over whole random hands: every tile accounted for at every step, scores that sum
//! to zero, answers whose order does not matter, shanten −1 exactly at a winning shape, fans
//! that do not depend on the order of the tiles.

use mcr::fan::{WinningHand, evaluate};
use mcr::shape::{is_winning_shape, shanten};
use mcr::wall::Deal;
use mcr::{Action, ActionList, Counts, Game, Tile, Wall, WallTile, Wind, counts_of, tiles_of};
use proptest::prelude::*;

/// A tiny deterministic generator for the choices of a random hand.
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn random_answers(game: &Game, pick: &mut Pick) -> Vec<(u8, Action)> {
    let mut legal = ActionList::new();
    game.deciders()
        .map(|s| {
            game.legal_actions(s, &mut legal);
            (s, legal[pick.below(legal.len())])
        })
        .collect()
}

fn state(game: &Game) -> String {
    let mut s = format!("{:?} {:?}", game.phase(), game.outcome());
    for seat in 0..4 {
        s += &format!(
            " | {:?} {:?} {:?} {}",
            game.hand(seat),
            game.packs(seat),
            game.discards(seat),
            game.wall_left(seat)
        );
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn tiles_are_accounted_for_over_whole_random_hands(seed: u64, flowers: bool, choices: u64) {
        let deal = Deal { wall: Wall::from_seed(seed, flowers), quan: Wind::West };
        let mut game = Game::new(&deal);
        let mut pick = Pick(choices | 1);
        prop_assert!(game.tiles_accounted());
        while !game.is_over() {
            let answers = random_answers(&game, &mut pick);
            // Every seat holds 13 tiles counting a pack as three, 14 on its own turn.
            for seat in 0..4u8 {
                let held: usize = game.hand(seat).iter().map(|&n| usize::from(n)).sum::<usize>()
                    + 3 * game.packs(seat).len();
                let turn = game.phase() == mcr::Phase::Turn { seat };
                prop_assert_eq!(held, 13 + usize::from(turn));
            }
            // A win offered on a turn is a complete hand.
            if let mcr::Phase::Turn { seat } = game.phase() {
                let mut legal = ActionList::new();
                game.legal_actions(seat, &mut legal);
                if legal.contains(&Action::Win) {
                    prop_assert_eq!(shanten(game.hand(seat), game.packs(seat).len()), -1);
                }
            }
            game.apply(&answers).unwrap();
            prop_assert!(game.tiles_accounted());
        }
        prop_assert_eq!(game.outcome().unwrap().scores.iter().sum::<i32>(), 0);
        // The events: each seat's draws are every tile it took from its quarter but the 13
        // dealt and the flowers, and only the drawer sees the tile.
        let quarter = game.wall().tiles().len() / 4;
        for seat in 0..4u8 {
            let draws = game
                .events()
                .iter()
                .filter(|e| matches!(e, mcr::Event::Draw { seat: s, .. } if *s == seat))
                .count();
            let taken = quarter - usize::from(game.wall_left(seat));
            prop_assert_eq!(draws, taken - 13 - usize::from(game.flowers(seat)));
            for viewer in 0..4u8 {
                for e in game.view(viewer).events() {
                    match e {
                        mcr::Event::Draw { seat: s, tile } => prop_assert_eq!(tile.is_some(), s == viewer),
                        mcr::Event::Act { seat: s, action: Action::ConcealedKong(_) } => prop_assert_eq!(s, viewer),
                        _ => {}
                    }
                }
            }
        }
    }

    #[test]
    fn the_order_of_the_answers_does_not_matter(seed: u64, choices: u64) {
        let mut game = Game::new(&Deal::from_seed(seed));
        let mut pick = Pick(choices | 1);
        while !game.is_over() {
            let answers = random_answers(&game, &mut pick);
            let mut reversed = answers.clone();
            reversed.reverse();
            let mut other = game.clone();
            game.apply(&answers).unwrap();
            other.apply(&reversed).unwrap();
            prop_assert_eq!(state(&game), state(&other));
        }
    }

    #[test]
    fn shanten_is_minus_one_exactly_at_a_winning_shape(seed: u64, build: bool, choices: u64) {
        let mut pick = Pick(choices | 1);
        let c: Counts = if build {
            // Four melds and a pair, drawn at random.
            let mut c = [0u8; 34];
            let pair = pick.below(34);
            c[pair] += 2;
            for _ in 0..4 {
                let i = pick.below(34);
                if i < 27 && i % 9 <= 6 && pick.below(2) == 0 {
                    c[i] += 1;
                    c[i + 1] += 1;
                    c[i + 2] += 1;
                } else {
                    c[i] += 3;
                }
            }
            prop_assume!(c.iter().all(|&n| n <= 4));
            c
        } else {
            let w = Wall::from_seed(seed, false);
            counts_of(w.tiles().iter().take(14).map(|x| match x {
                WallTile::Tile(t) => *t,
                WallTile::Flower(_) => Tile::default(),
            }))
        };
        let s = shanten(&c, 0);
        prop_assert_eq!(s == -1, is_winning_shape(&c, 0));
        if build {
            prop_assert_eq!(s, -1);
        }
        // Thirteen of the tiles are never worse than one from ready... and a tile away from
        // the fourteen.
        let first = (0..34).find(|&i| c[i] > 0).unwrap();
        let mut thirteen = c;
        thirteen[first] -= 1;
        prop_assert!(shanten(&thirteen, 0) >= s);
        prop_assert!(shanten(&thirteen, 0) <= s + 1);
    }

    #[test]
    fn fans_do_not_depend_on_the_order_of_the_tiles(choices: u64) {
        let mut pick = Pick(choices | 1);
        let mut c = [0u8; 34];
        c[pick.below(34)] += 2;
        for _ in 0..4 {
            let i = pick.below(34);
            if i < 27 && i % 9 <= 6 && pick.below(2) == 0 {
                c[i] += 1;
                c[i + 1] += 1;
                c[i + 2] += 1;
            } else {
                c[i] += 3;
            }
        }
        prop_assume!(c.iter().all(|&n| n <= 4));
        let mut tiles: Vec<Tile> = tiles_of(&c).collect();
        let win = tiles.remove(pick.below(14));
        let score = |standing: &[Tile]| {
            evaluate(&WinningHand {
                packs: &[],
                standing,
                win_tile: win,
                flowers: 1,
                self_drawn: pick_flag(choices, 1),
                fourth_tile: false,
                about_kong: false,
                wall_last: pick_flag(choices, 2),
                seat_wind: Wind::South,
                prevalent_wind: Wind::East,
            })
        };
        let first = score(&tiles);
        for _ in 0..4 {
            for i in (1..tiles.len()).rev() {
                let j = pick.below(i + 1);
                tiles.swap(i, j);
            }
            prop_assert_eq!(score(&tiles), first.clone());
        }
    }
}

fn pick_flag(bits: u64, k: u32) -> bool {
    bits >> (k + 40) & 1 == 1
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Any hand, however impossible, is scored or refused with a reason, never a panic.
    #[test]
    fn any_hand_is_scored_or_refused_never_a_panic(
        kinds in proptest::collection::vec(0usize..34, 13),
        packs in proptest::collection::vec((0u8..3, 0usize..34, 0u8..5), 0..5),
        win in 0usize..34,
        flags: u8,
    ) {
        let tile = |i: usize| Tile::from_index(i).unwrap();
        let packs: Vec<mcr::Pack> = packs
            .into_iter()
            .map(|(k, t, o)| match k {
                0 => mcr::Pack::chow(tile(t), o),
                1 => mcr::Pack::pung(tile(t), o),
                _ => mcr::Pack::kong(tile(t), o),
            })
            .collect();
        // Mostly the right number of tiles for the packs, so that the shape code runs.
        let n = if flags & 16 == 0 { 13usize.saturating_sub(3 * packs.len()) } else { usize::from(flags % 14) };
        let standing: Vec<Tile> = kinds.into_iter().take(n).map(tile).collect();
        let hand = WinningHand {
            packs: &packs,
            standing: &standing,
            win_tile: tile(win),
            flowers: flags % 9,
            self_drawn: flags & 1 == 1,
            fourth_tile: flags & 2 == 2,
            about_kong: flags & 4 == 4,
            wall_last: flags & 8 == 8,
            seat_wind: Wind::from_index(flags % 4).unwrap(),
            prevalent_wind: Wind::from_index((flags / 4) % 4).unwrap(),
        };
        if let Ok(s) = evaluate(&hand) {
            prop_assert_eq!(s.total, s.table.points());
        }
    }

    /// Any text is an answer or refused with a reason, never a panic; likewise walls.
    #[test]
    fn any_text_parses_or_is_refused(text in "\\PC{0,40}", words in "(PLAY|CHI|PENG|GANG|BUGANG|HU|PASS| |W|T|B|F|J|H|[0-9]){0,12}") {
        let _ = text.parse::<Action>();
        let _ = words.parse::<Action>();
        let _ = text.parse::<Wall>();
        let _ = words.parse::<Tile>();
    }
}
