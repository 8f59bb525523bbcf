//! Every fan with a hand that has it and a hand that just misses it (the table
//! `data/fan-cases.txt`, checked against PyMahjongGB when written), the exclusion principles,
//! the highest-scoring arrangement, and clear errors for bad hands.

use mcr::fan::{Fan, FanError, Scored, WinningHand, evaluate};
use mcr::{Pack, Tile, Wind};

const CASES: &str = include_str!("data/fan-cases.txt");

fn packs(s: &str) -> Vec<Pack> {
    s.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            let w: Vec<&str> = p.split_whitespace().collect();
            let (t, o): (Tile, u8) = (w[1].parse().unwrap(), w[2].parse().unwrap());
            match w[0] {
                "CHI" => Pack::chow(t, o),
                "PENG" => Pack::pung(t, o),
                _ => Pack::kong(t, o),
            }
        })
        .collect()
}

/// Scores `packs | concealed tiles with the winning tile | winning tile | flags` (seat South,
/// prevalent East).
fn score(packs_s: &str, concealed: &str, win: &str, flags: &str) -> Result<Scored, FanError> {
    let packs = packs(packs_s);
    let win: Tile = win.parse().unwrap();
    let mut standing: Vec<Tile> = concealed
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let at = standing
        .iter()
        .position(|&t| t == win)
        .expect("the winning tile is in the hand");
    standing.remove(at);
    evaluate(&WinningHand {
        packs: &packs,
        standing: &standing,
        win_tile: win,
        flowers: if flags.contains("f2") { 2 } else { 0 },
        self_drawn: flags.contains('s'),
        fourth_tile: flags.contains('4'),
        about_kong: flags.contains('k'),
        wall_last: flags.contains('l'),
        seat_wind: Wind::South,
        prevalent_wind: Wind::East,
    })
}

fn fans(packs: &str, concealed: &str, win: &str, flags: &str) -> Vec<(Fan, u16)> {
    score(packs, concealed, win, flags)
        .unwrap()
        .table
        .iter()
        .collect()
}

#[test]
fn every_fan_has_a_hand_with_it_and_a_hand_that_just_misses_it() {
    let mut hit = std::collections::BTreeSet::new();
    let mut missed = std::collections::BTreeSet::new();
    for line in CASES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let fan = Fan::from_name_en(f[0]).unwrap_or_else(|| panic!("{line}: no fan {}", f[0]));
        let flags = f.get(5).copied().unwrap_or("");
        let scored = score(f[2], f[3], f[4], flags).unwrap_or_else(|e| panic!("{line}: {e}"));
        let has = scored.table.get(fan) > 0;
        if f[1] == "+" {
            assert!(has, "{line}: {:?}", scored.table);
            hit.insert(fan);
        } else {
            assert!(!has, "{line}: {:?}", scored.table);
            missed.insert(fan);
        }
        assert_eq!(scored.total, scored.table.points(), "{line}");
    }
    for fan in Fan::ALL {
        assert!(
            hit.contains(&fan) && missed.contains(&fan),
            "{fan} lacks a case"
        );
    }
}

#[test]
fn fans_are_named_in_english_and_chinese_with_their_points() {
    assert_eq!(Fan::ALL.len(), 82);
    assert_eq!(Fan::BigFourWinds.name_zh(), "大四喜");
    assert_eq!(Fan::ChickenHand.name_en(), "Chicken Hand");
    assert_eq!(Fan::ChickenHand.points(), 8);
    assert_eq!(Fan::from_number(81), Some(Fan::FlowerTiles));
    let official: u32 = Fan::ALL[..81].iter().map(|f| u32::from(f.points())).sum();
    assert_eq!(
        official,
        7 * 88
            + 6 * 64
            + 2 * 48
            + 3 * 32
            + 9 * 24
            + 6 * 16
            + 5 * 12
            + 9 * 8
            + 7 * 6
            + 4 * 4
            + 10 * 2
            + 13
    );
}

#[test]
fn non_repeat_a_fan_does_not_count_what_a_bigger_fan_implies() {
    // Big Four Winds implies the wind pungs, All Pungs and Big Three Winds.
    let f = fans("", "F1 F1 F1 F2 F2 F2 F3 F3 F3 F4 F4 F4 W2 W2", "W2", "");
    assert!(f.contains(&(Fan::BigFourWinds, 1)));
    for gone in [
        Fan::BigThreeWinds,
        Fan::AllPungs,
        Fan::PungOfTerminalsOrHonors,
        Fan::SeatWind,
    ] {
        assert!(f.iter().all(|(x, _)| *x != gone), "{gone} in {f:?}");
    }
    // Full Flush implies One Voided Suit and No Honors.
    let f = fans("", "W1 W2 W3 W4 W5 W6 W7 W7 W7 W8 W8 W9 W9 W9", "W8", "");
    assert!(
        f.iter()
            .all(|(x, _)| *x != Fan::OneVoidedSuit && *x != Fan::NoHonors),
        "{f:?}"
    );
    // Fully Concealed Hand implies Self-Drawn.
    let f = fans("", "W1 W2 W3 T4 T5 T6 B2 B3 B4 W7 W8 W9 F3 F3", "F3", "s");
    assert!(
        f.contains(&(Fan::FullyConcealedHand, 1)) && f.iter().all(|(x, _)| *x != Fan::SelfDrawn)
    );
}

#[test]
fn non_separation_and_non_identical_a_combination_is_not_taken_apart_again() {
    // Three identical chows are a Pure Triple Chow, not also Pure Double Chows.
    let f = fans("CHI B5 1, CHI B5 2", "B4 B5 B6 W1 W2 W3 F2 F2", "F2", "");
    assert!(f.contains(&(Fan::PureTripleChow, 1)));
    assert!(f.iter().all(|(x, _)| *x != Fan::PureDoubleChow), "{f:?}");
    // A Pure Straight's chows are not also a Short Straight; the leftover chow pairs with one
    // of them once.
    let f = fans("", "W1 W2 W3 W4 W5 W6 W7 W8 W9 W1 W2 W3 F1 F1", "F1", "");
    assert!(f.contains(&(Fan::PureStraight, 1)));
    assert!(f.contains(&(Fan::PureDoubleChow, 1)), "{f:?}");
    assert!(f.iter().all(|(x, _)| *x != Fan::ShortStraight), "{f:?}");
}

#[test]
fn account_once_four_chows_make_at_most_three_two_chow_fans() {
    // W123 W456 T123 T456: two Short Straights and two Mixed Double Chows are possible, but
    // each chow pairs with each other chow once: three count, the cheapest kind losing first.
    let f = fans("", "W1 W2 W3 W4 W5 W6 T1 T2 T3 T4 T5 T6 B8 B8", "B8", "");
    let pairs: u16 = f
        .iter()
        .filter(|(x, _)| {
            matches!(
                x,
                Fan::ShortStraight | Fan::MixedDoubleChow | Fan::PureDoubleChow
            )
        })
        .map(|(_, n)| n)
        .sum();
    assert_eq!(pairs, 3, "{f:?}");
    assert!(f.contains(&(Fan::MixedDoubleChow, 2)), "{f:?}");
}

#[test]
fn the_highest_scoring_arrangement_wins() {
    // T111 222 333 reads as three pungs (Pure Shifted Pungs) or three chows (Pure Triple
    // Chow): one reading is chosen, never both.
    let s = score("", "T1 T1 T1 T2 T2 T2 T3 T3 T3 W5 W6 W7 F3 F3", "F3", "").unwrap();
    let chows = s.table.get(Fan::PureTripleChow) + s.table.get(Fan::PureShiftedPungs);
    assert_eq!(chows, 1, "{:?}", s.table);
    // Seven pairs that also split as chows: 112233 445566 77 scores its best reading.
    let s = score("", "W1 W1 W2 W2 W3 W3 W4 W4 W5 W5 W6 W6 W7 W7", "W7", "").unwrap();
    assert_eq!(s.table.get(Fan::SevenShiftedPairs), 1, "{:?}", s.table);
}

#[test]
fn flowers_add_points_but_do_not_count_towards_the_minimum() {
    let s = score("PENG T6 2", "W1 W2 W3 B2 B3 B4 W6 W7 W8 F1 F1", "B4", "f2").unwrap();
    assert_eq!(s.table.get(Fan::FlowerTiles), 2);
    assert_eq!(s.without_flowers() + 2, s.total);
}

#[test]
fn bad_hands_get_errors_that_name_the_problem() {
    let e = score("", "W1 W2 W3", "W1", "").unwrap_err();
    assert_eq!(
        e,
        FanError::TileCount {
            packs: 0,
            standing: 2
        }
    );
    assert!(e.to_string().contains("need 13 concealed tiles"), "{e}");
    let e = score("", "W1 W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9", "W9", "").unwrap_err();
    assert_eq!(e.to_string(), "the hand holds more than four W1");
    let e = score("", "W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T3 T5 F1 F2", "F2", "").unwrap_err();
    assert_eq!(e, FanError::NotWin);
    let e = score("CHI W1 1", "W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1", "T1", "").unwrap_err();
    assert!(e.to_string().contains("is not a pack"), "{e}");
}
