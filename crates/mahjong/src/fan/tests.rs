//! Fan tests: every fan with hands that have it and hands that just miss it, every exclusion,
//! both readings on every example of `mahjong-2015-fans.md`, and property tests against a
//! brute-force scoring of every decomposition.

use super::*;
use crate::tile::parse_tiles;

mod brute;
mod props;

/// A hand written as in `mahjong-2015-fans.md`: `concealed | melds | win | how`, melds as
/// `Meld`'s `Display` separated by commas (or `-`), how = `discard`, `self` or `rob`.
pub(super) struct Spec {
    pub concealed: Counts,
    pub melds: Vec<Meld>,
    pub win: Tile,
    pub self_drawn: bool,
    pub robbed_kong: bool,
}

impl Spec {
    pub fn hand(&self) -> WinHand<'_> {
        WinHand {
            concealed: self.concealed,
            melds: &self.melds,
            win: self.win,
            self_drawn: self.self_drawn,
            robbed_kong: self.robbed_kong,
        }
    }
}

pub(super) fn spec(s: &str) -> Spec {
    let parts: Vec<&str> = s.split('|').map(str::trim).collect();
    assert_eq!(parts.len(), 4, "{s}");
    let mut concealed = [0; 34];
    for t in parse_tiles(parts[0]).unwrap() {
        concealed[t.index()] += 1;
    }
    let melds = parts[1]
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty() && *m != "-")
        .map(|m| {
            let (kind, t) = m.split_once(' ').unwrap();
            let t: Tile = t.parse().unwrap();
            match kind {
                "chow" => Meld::Chow(t),
                "pung" => Meld::Pung(t),
                "kong" => Meld::Kong(t, KongKind::Exposed),
                "added-kong" => Meld::Kong(t, KongKind::Added),
                "concealed-kong" => Meld::Kong(t, KongKind::Concealed),
                _ => panic!("meld {m}"),
            }
        })
        .collect();
    let (self_drawn, robbed_kong) = match parts[3] {
        "discard" => (false, false),
        "self" => (true, false),
        "rob" => (false, true),
        h => panic!("how {h}"),
    };
    Spec {
        concealed,
        melds,
        win: parts[2].parse().unwrap(),
        self_drawn,
        robbed_kong,
    }
}

fn eval(s: &str, reading: Reading) -> Result<FanResult, NotAWin> {
    evaluate(&spec(s).hand(), reading)
}

fn shape_of(s: &str, reading: Reading) -> Shape {
    explain(&spec(s).hand(), reading).unwrap().shape
}

/// The fans by name, in fan order, and the total.
fn named(r: &FanResult, reading: Reading) -> (Vec<(&'static str, u32)>, u32) {
    (
        r.fans.iter().map(|(f, p)| (f.name(reading), p)).collect(),
        r.total,
    )
}

/// Asserts the exact fans (in any order) and that the total is their sum.
#[track_caller]
fn assert_fans(s: &str, reading: Reading, want: &[(&str, u32)]) {
    let e = explain(&spec(s).hand(), reading).unwrap_or_else(|e| panic!("{s} ({reading}): {e}"));
    let (mut got, total) = named(&e.result, reading);
    let mut want: Vec<(&str, u32)> = want.to_vec();
    got.sort();
    want.sort();
    assert_eq!(got, want, "{s} ({reading}) read as {}", e.shape);
    assert_eq!(total, want.iter().map(|w| w.1).sum::<u32>(), "{s}");
}

#[track_caller]
fn points(s: &str, reading: Reading, fan: Fan) -> u32 {
    eval(s, reading)
        .unwrap_or_else(|e| panic!("{s}: {e}"))
        .fans
        .points(fan)
}

#[track_caller]
fn has(fan: Fan, s: &str) {
    assert!(
        points(s, Reading::Contest, fan) > 0,
        "{s} should score {}",
        fan.name(Reading::Contest)
    );
}

#[track_caller]
fn lacks(fan: Fan, s: &str) {
    assert_eq!(
        points(s, Reading::Contest, fan),
        0,
        "{s} should not score {}: {:?}",
        fan.name(Reading::Contest),
        eval(s, Reading::Contest).unwrap()
    );
}

// ---------------------------------------------------------------------------------------------
// The examples of mahjong-2015-fans.md, both readings.

/// (hand, seed-2015 fans, contest fans; `None` = not a win in the contest reading, and the
/// seed-2015 rules that make the two differ).
type Example = (
    &'static str,
    &'static [(&'static str, u32)],
    Option<&'static [(&'static str, u32)]>,
    &'static [Seed2015Rule],
);

const EXAMPLES: &[Example] = &[
    (
        "1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E | - | 5M | discard",
        &[("平和", 2), ("门前清", 2)],
        Some(&[("门前清", 2)]),
        &[Seed2015Rule::AllChowsWithHonourPair],
    ),
    (
        "1M 2M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M 5M | - | 3M | discard",
        &[("单调将", 1), ("平和", 2), ("门前清", 2)],
        Some(&[("平和", 2), ("门前清", 2)]),
        &[Seed2015Rule::SingleWaitAfterMaximisation],
    ),
    (
        "1M 9M 1S 9S 1T 9T E S W N Z F B | - | E | discard",
        &[("十三幺", 88), ("混幺九", 32)],
        Some(&[("十三幺", 88)]),
        &[Seed2015Rule::ThirteenOrphansWithTerminalsAndHonours],
    ),
    (
        "1M 1M 1M 9M 1S 9S 1T 9T E S W N Z | - | F | discard",
        &[("十三幺", 88), ("混幺九", 32)],
        None,
        &[Seed2015Rule::LooseThirteenOrphans],
    ),
    (
        "1M 1M 1M 5S 5S 5S 9T 9T 9T E E Z Z | - | Z | discard",
        &[("四暗刻", 64), ("门前清", 2), ("五门齐", 6), ("箭刻", 2)],
        Some(&[
            ("三暗刻", 16),
            ("碰碰和", 6),
            ("门前清", 2),
            ("五门齐", 6),
            ("箭刻", 2),
        ]),
        &[
            Seed2015Rule::DiscardPungConcealed,
            Seed2015Rule::FourConcealedPungsKeepsConcealedHand,
        ],
    ),
    (
        "2T 3T 4T E | kong 1M, concealed-kong 5S, concealed-kong 9T | E | discard",
        &[("三杠", 32), ("暗杠", 4), ("明杠", 1), ("单调将", 1)],
        Some(&[("三杠", 32), ("暗杠", 4), ("单钓将", 1)]),
        &[Seed2015Rule::MeldedKongsBesideThreeOrFourKongs],
    ),
    (
        "1M 2M 3M 4M 5S 6S 7S 6T 7T 8T 2T 3T 4T | - | 1M | discard",
        &[("喜相逢", 1), ("平和", 2), ("门前清", 2)],
        Some(&[("喜相逢", 1), ("平和", 2), ("门前清", 2)]),
        &[],
    ),
    (
        "2M 2M 2M 4S 4S 4S 6T 6T 8T 8T | pung 3T | 8T | discard",
        &[("三暗刻", 16), ("碰碰和", 6), ("断幺", 2)],
        Some(&[("碰碰和", 6), ("断幺", 2)]),
        &[Seed2015Rule::DiscardPungConcealed],
    ),
];

#[test]
fn the_2015_examples_score_as_the_old_server_did_and_as_the_readme_says() {
    for (hand, seed, contest, _) in EXAMPLES {
        assert_fans(hand, Reading::Seed2015, seed);
        match contest {
            Some(want) => assert_fans(hand, Reading::Contest, want),
            None => assert_eq!(
                eval(hand, Reading::Contest),
                Err(NotAWin::NoWinningShape),
                "{hand}"
            ),
        }
    }
}

/// Hands beyond the doc's examples where one rule of the 2015 server changes the score:
/// (rule, hand, contest fans, seed-2015 fans).
type RuleCase = (
    Seed2015Rule,
    &'static str,
    Option<&'static [(&'static str, u32)]>,
    &'static [(&'static str, u32)],
);

const RULE_CASES: &[RuleCase] = &[
    (
        Seed2015Rule::LooseThirteenOrphans,
        // 1M four times: still "exactly one kind more than once".
        "1M 1M 1M 1M 9M 1S 9S 1T 9T E S W N | - | Z | self",
        None,
        &[("十三幺", 88), ("混幺九", 32), ("自摸", 1)],
    ),
    (
        Seed2015Rule::ThirteenOrphansWithTerminalsAndHonours,
        // Waiting on the missing 白 alone: no 单钓将 / 单调将 in either reading.
        "1M 1M 9M 1S 9S 1T 9T E S W N Z F | - | B | self",
        Some(&[("十三幺", 88), ("自摸", 1)]),
        &[("十三幺", 88), ("混幺九", 32), ("自摸", 1)],
    ),
    (
        Seed2015Rule::DiscardPungConcealed,
        "5M 5M 5M 7S 7S 7S 2T 3T 4T 8T 8T 6M 6M | - | 6M | discard",
        Some(&[("门前清", 2), ("断幺", 2)]),
        &[("三暗刻", 16), ("门前清", 2), ("断幺", 2)],
    ),
    (
        Seed2015Rule::FourConcealedPungsKeepsConcealedHand,
        "E E E S S S W W W N 5M 5M 5M | - | N | discard",
        Some(&[("小四喜", 64), ("四暗刻", 64), ("混一色", 6), ("单钓将", 1)]),
        &[
            ("小四喜", 64),
            ("四暗刻", 64),
            ("混一色", 6),
            ("门前清", 2),
            ("单调将", 1),
        ],
    ),
    (
        Seed2015Rule::MeldedKongsBesideThreeOrFourKongs,
        // Two exposed of four: 明杠 2 in seed-2015.
        "5M | kong 1M, added-kong 2S, concealed-kong 3T, concealed-kong E | 5M | discard",
        Some(&[("四杠", 88), ("暗杠", 4), ("单钓将", 1)]),
        &[("四杠", 88), ("暗杠", 4), ("明杠", 2), ("单调将", 1)],
    ),
    (
        Seed2015Rule::MeldedKongsBesideThreeOrFourKongs,
        // Three exposed of four: no 明杠 in either reading.
        "5M | kong 1M, added-kong 2S, kong 3T, concealed-kong E | 5M | discard",
        Some(&[("四杠", 88), ("暗杠", 2), ("单钓将", 1)]),
        &[("四杠", 88), ("暗杠", 2), ("单调将", 1)],
    ),
    (
        Seed2015Rule::MeldedKongsBesideThreeOrFourKongs,
        // Three exposed of three: no 明杠 in either reading.
        "2T 3T 4T E | kong 1M, kong 5S, added-kong 9T | E | discard",
        Some(&[("三杠", 32), ("单钓将", 1)]),
        &[("三杠", 32), ("单调将", 1)],
    ),
    (
        Seed2015Rule::AllChowsWithHonourPair,
        "4S 5S 6S 7T 8T 9T 2S 3S Z Z | chow 6M | 4S | self",
        Some(&[("自摸", 1)]),
        &[("平和", 2), ("自摸", 1)],
    ),
    (
        Seed2015Rule::SingleWaitAfterMaximisation,
        // A closed wait (13 on 2).
        "1M 3M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M 5M | - | 2M | discard",
        Some(&[("平和", 2), ("门前清", 2)]),
        &[("单调将", 1), ("平和", 2), ("门前清", 2)],
    ),
    (
        Seed2015Rule::SingleWaitAfterMaximisation,
        // A pair wait that is not the only wait (1M 1M 1M 2M waits on 2M and 3M): neither.
        "1M 1M 1M 2M 4S 5S 6S 7T 8T 9T 2T 3T 4T | - | 2M | discard",
        Some(&[("门前清", 2)]),
        &[("门前清", 2)],
    ),
    (
        Seed2015Rule::SingleWaitSpelledDiao,
        "1M 2M 3M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M | - | 5M | discard",
        Some(&[("平和", 2), ("门前清", 2), ("单钓将", 1)]),
        &[("平和", 2), ("门前清", 2), ("单调将", 1)],
    ),
];

#[test]
fn every_rule_of_the_2015_server_changes_the_score_of_its_hands() {
    for rule in Seed2015Rule::ALL {
        let cases: Vec<&RuleCase> = RULE_CASES.iter().filter(|c| c.0 == rule).collect();
        let in_examples = EXAMPLES.iter().any(|e| e.3.contains(&rule));
        assert!(
            !cases.is_empty() || in_examples,
            "{rule:?} has no tested hand"
        );
        for (_, hand, contest, seed) in cases {
            assert_fans(hand, Reading::Seed2015, seed);
            match contest {
                Some(want) => assert_fans(hand, Reading::Contest, want),
                None => assert_eq!(
                    eval(hand, Reading::Contest),
                    Err(NotAWin::NoWinningShape),
                    "{hand}"
                ),
            }
        }
    }
}

#[test]
fn seed_2015_has_every_rule_of_the_old_server_and_contest_none() {
    assert!(Seed2015Rule::ALL.iter().all(|&r| Reading::Seed2015.has(r)));
    assert!(Seed2015Rule::ALL.iter().all(|&r| !Reading::Contest.has(r)));
}

#[test]
fn fans_are_named_as_the_readme_spells_them_with_seed_2015_spelling_one_differently() {
    let names: Vec<&str> = Fan::ALL.iter().map(|f| f.name(Reading::Contest)).collect();
    assert_eq!(
        names.join(" "),
        "大四喜 大三元 十三幺 绿一色 四杠 小四喜 小三元 字一色 四暗刻 清幺九 一色四同顺 三杠 混幺九 \
         七对 清一色 一色三同顺 三同刻 三暗刻 三色三同顺 碰碰和 混一色 五门齐 门前清 断幺 平和 箭刻 \
         暗杠 自摸 一般高 喜相逢 明杠 单钓将"
    );
    let points: Vec<u32> = Fan::ALL.iter().map(|f| f.points()).collect();
    assert_eq!(
        points,
        [
            88, 88, 88, 88, 88, 64, 64, 64, 64, 64, 48, 32, 32, 24, 24, 24, 16, 16, 8, 6, 6, 6, 2,
            2, 2, 2, 2, 1, 1, 1, 1, 1
        ]
    );
    for f in Fan::ALL {
        let seed = f.name(Reading::Seed2015);
        if f == Fan::SingleWait {
            assert_eq!(seed, "单调将");
        } else {
            assert_eq!(seed, f.name(Reading::Contest));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Every fan: hands that have it and hands that just miss it (contest reading).

#[test]
fn big_four_winds() {
    let hit = "E E E S S S W W W N N 5M 5M | - | N | discard";
    assert_fans(
        hit,
        Reading::Contest,
        &[("大四喜", 88), ("三暗刻", 16), ("混一色", 6), ("门前清", 2)],
    );
    // Three wind pungs and a wind pair is the little one.
    let miss = "E E E S S S W W W N 5M 5M 5M | - | N | self";
    lacks(Fan::BigFourWinds, miss);
    has(Fan::LittleFourWinds, miss);
}

#[test]
fn big_three_dragons_excludes_dragon_pungs() {
    let hit = "Z Z Z F F F B B 1M 2M 3M 9S 9S | - | B | discard";
    assert_fans(hit, Reading::Contest, &[("大三元", 88), ("门前清", 2)]);
    let miss = "Z Z Z F F F B 1M 2M 3M 9S 9S 9S | - | B | discard";
    lacks(Fan::BigThreeDragons, miss);
    has(Fan::LittleThreeDragons, miss);
}

#[test]
fn thirteen_orphans_excludes_all_types_concealed_hand_single_wait_and_terminals_and_honours() {
    // Waiting on 白 alone: the exclusions of 单钓将, 门前清, 五门齐 and 混幺九 all matter here.
    let single = "1M 1M 9M 1S 9S 1T 9T E S W N Z F | - | B | discard";
    assert_fans(single, Reading::Contest, &[("十三幺", 88)]);
    assert_fans(
        "1M 9M 1S 9S 1T 9T E S W N Z F B | - | 9T | rob",
        Reading::Contest,
        &[("十三幺", 88)],
    );
    // Two 1M and two 9M: not thirteen orphans, not a win.
    assert_eq!(
        eval(
            "1M 1M 9M 9M 1S 9S 1T 9T E S W N Z | - | F | discard",
            Reading::Contest
        ),
        Err(NotAWin::NoWinningShape)
    );
}

#[test]
fn all_green_counts_full_flush_without_green_dragon_and_half_flush_with_it() {
    let with_f = "2S 3S 4S 2S 3S 4S 6S 6S 6S 8S 8S F F | - | F | discard";
    assert_fans(
        with_f,
        Reading::Contest,
        &[
            ("绿一色", 88),
            ("混一色", 6),
            ("门前清", 2),
            ("箭刻", 2),
            ("一般高", 1),
        ],
    );
    let without_f = "2S 3S 4S 2S 3S 4S 6S 6S 6S 8S 8S 8S 4S | - | 4S | discard";
    has(Fan::AllGreen, without_f);
    has(Fan::FullFlush, without_f);
    lacks(Fan::HalfFlush, without_f);
    let miss = "2S 3S 4S 2S 3S 4S 6S 6S 6S 9S 9S 9S 4S | - | 4S | discard";
    lacks(Fan::AllGreen, miss);
    has(Fan::FullFlush, miss);
}

#[test]
fn four_kongs_excludes_all_pungs_three_kongs_and_melded_kongs_but_not_concealed_kongs() {
    assert_fans(
        "5M | kong 1M, kong 2S, added-kong 3T, concealed-kong E | 5M | discard",
        Reading::Contest,
        &[("四杠", 88), ("暗杠", 2), ("单钓将", 1)],
    );
    let three = "5M 5M 5M 9T | kong 1M, kong 2S, added-kong 3T | 9T | discard";
    lacks(Fan::FourKongs, three);
    has(Fan::ThreeKongs, three);
    has(Fan::AllPungs, three);
}

#[test]
fn little_four_winds() {
    has(
        Fan::LittleFourWinds,
        "E E E S S S W W 1M 2M 3M N N | - | N | discard",
    );
    // Two wind pungs and a wind pair.
    lacks(
        Fan::LittleFourWinds,
        "E E E S S S W W 1M 2M 3M 5T 5T | - | 5T | discard",
    );
}

#[test]
fn little_three_dragons_excludes_dragon_pungs() {
    assert_fans(
        "Z Z Z F F F B 1M 2M 3M 9S 9S 9S | - | B | discard",
        Reading::Contest,
        &[("小三元", 64), ("三暗刻", 16), ("门前清", 2), ("单钓将", 1)],
    );
    let miss = "Z Z Z F F 1M 2M 3M 9S 9S 9S 5T 5T | - | 5T | discard";
    lacks(Fan::LittleThreeDragons, miss);
    assert_eq!(points(miss, Reading::Contest, Fan::DragonPung), 2);
}

#[test]
fn all_honours_excludes_all_pungs() {
    assert_fans(
        "E E S S S Z Z Z W W | pung F | E | discard",
        Reading::Contest,
        &[("字一色", 64), ("箭刻", 4)],
    );
    assert_fans(
        "E E S S W W N N Z Z F F B | - | B | discard",
        Reading::Contest,
        &[("字一色", 64), ("七对", 24)],
    );
    let miss = "E E S S S Z Z Z 9M 9M | pung F | E | discard";
    lacks(Fan::AllHonours, miss);
    has(Fan::HalfFlush, miss);
}

#[test]
fn four_concealed_pungs_excludes_concealed_hand_and_all_pungs() {
    assert_fans(
        "1M 1M 1M 5S 5S 5S 9T 9T 9T E E Z Z | - | Z | self",
        Reading::Contest,
        &[("四暗刻", 64), ("五门齐", 6), ("箭刻", 2), ("自摸", 1)],
    );
    // Concealed kongs count as concealed pungs.
    has(
        Fan::FourConcealedPungs,
        "1M 1M 1M 5S 5S 5S E E Z Z | concealed-kong 9T | Z | self",
    );
    // On a discard the last pung is the discarder's: three concealed.
    let miss = "1M 1M 1M 5S 5S 5S 9T 9T 9T E E Z Z | - | Z | discard";
    lacks(Fan::FourConcealedPungs, miss);
    has(Fan::ThreeConcealedPungs, miss);
    // ... unless the discard can be read into a chow instead: 4M 4M 4M 5M 6M + 4M is a
    // concealed 4M pung and a 4M 5M 6M chow.
    has(
        Fan::ThreeConcealedPungs,
        "4M 4M 4M 5M 6M 1S 1S 1S 7T 7T 7T E E | - | 4M | discard",
    );
}

#[test]
fn all_terminals_excludes_all_pungs_and_is_not_terminals_and_honours() {
    assert_fans(
        "1M 1M 1M 9M 9M 9M 1S 1S 1S 9T 9T 1T 1T | - | 1T | discard",
        Reading::Contest,
        &[
            ("清幺九", 64),
            ("三同刻", 16),
            ("三暗刻", 16),
            ("门前清", 2),
        ],
    );
    let miss = "1M 1M 1M 9M 9M 9M 1S 1S 1S E E 1T 1T | - | 1T | discard";
    lacks(Fan::AllTerminals, miss);
    has(Fan::AllTerminalsAndHonours, miss);
}

#[test]
fn quadruple_chow_excludes_pure_triple_chow_and_pure_double_chow() {
    // Also readable as 111 222 333 123, which scores less.
    assert_fans(
        "1M 2M 3M 1M 2M 3M 1M 2M 3M 1M 2M 3M 5S | - | 5S | discard",
        Reading::Contest,
        &[
            ("一色四同顺", 48),
            ("平和", 2),
            ("门前清", 2),
            ("单钓将", 1),
        ],
    );
    let miss = "1M 2M 3M 1M 2M 3M 1M 2M 3M 2M 3M 4M 5S | - | 5S | discard";
    lacks(Fan::QuadrupleChow, miss);
    has(Fan::PureTripleChow, miss);
}

#[test]
fn three_kongs_counts_concealed_kongs_but_not_melded_kongs() {
    assert_fans(
        "2T 3T 4T E | kong 1M, concealed-kong 5S, concealed-kong 9T | E | discard",
        Reading::Contest,
        &[("三杠", 32), ("暗杠", 4), ("单钓将", 1)],
    );
    let two = "2T 3T 4T E 6M 7M 8M | kong 1M, concealed-kong 5S | E | discard";
    lacks(Fan::ThreeKongs, two);
    assert_eq!(points(two, Reading::Contest, Fan::MeldedKong), 1);
    assert_eq!(points(two, Reading::Contest, Fan::ConcealedKong), 2);
}

#[test]
fn terminals_and_honours_excludes_all_pungs() {
    assert_fans(
        "1M 1M 1M 9S 9S 9S E E E Z Z N N | - | N | discard",
        Reading::Contest,
        &[("混幺九", 32), ("三暗刻", 16), ("门前清", 2)],
    );
    // As seven pairs too.
    has(
        Fan::AllTerminalsAndHonours,
        "1M 1M 9M 9M 1S 1S E E W W Z Z B | - | B | discard",
    );
    let miss = "1M 1M 1M 9S 9S 9S E E E 7T 8T N N | - | 9T | discard";
    lacks(Fan::AllTerminalsAndHonours, miss);
}

#[test]
fn seven_pairs_excludes_concealed_hand_and_single_wait_and_may_use_four_of_a_kind() {
    assert_fans(
        "1M 1M 3S 3S 5T 5T 7T 7T E E Z Z B | - | B | discard",
        Reading::Contest,
        &[("七对", 24), ("五门齐", 6)],
    );
    assert_fans(
        "1M 1M 1M 1M 3S 3S 5T 5T 7T 7T E E B | - | B | self",
        Reading::Contest,
        &[("七对", 24), ("五门齐", 6), ("自摸", 1)],
    );
    // Six pairs and two singles.
    assert_eq!(
        eval(
            "1M 1M 3S 3S 5T 5T 7T 7T E E Z Z B | - | F | discard",
            Reading::Contest
        ),
        Err(NotAWin::NoWinningShape)
    );
    // Seven pairs only without melds.
    assert_eq!(
        eval(
            "3S 3S 5T 5T 7T 7T E E Z Z | pung 1M | B | discard",
            Reading::Contest
        ),
        Err(NotAWin::NoWinningShape)
    );
}

#[test]
fn seven_pairs_loses_to_a_standard_reading_that_scores_more() {
    // 11 22 33 M four times over: seven pairs (24) or four 123M (48 + …).
    let h = "1M 1M 1M 1M 2M 2M 2M 2M 3M 3M 3M 3M 5S | - | 5S | discard";
    let shape = shape_of(h, Reading::Contest);
    assert!(matches!(shape, Shape::Standard { .. }), "{shape}");
    assert_eq!(points(h, Reading::Contest, Fan::QuadrupleChow), 48);
    // 22 33 44 M 55 66 77 S 9T 9T: seven pairs (24 + …) over 一般高 ×2 + …
    let h = "2M 2M 3M 3M 4M 4M 5S 5S 6S 6S 7S 7S 9T | - | 9T | discard";
    let shape = shape_of(h, Reading::Contest);
    assert!(matches!(shape, Shape::SevenPairs { .. }), "{shape}");
}

#[test]
fn full_flush() {
    has(
        Fan::FullFlush,
        "1M 2M 3M 4M 5M 6M 7M 8M 9M 2M 3M 4M 5M | - | 5M | discard",
    );
    let miss = "1M 2M 3M 4M 5M 6M 7M 8M 9M 2M 3M 4M E | - | E | discard";
    lacks(Fan::FullFlush, miss);
    has(Fan::HalfFlush, miss);
}

#[test]
fn pure_triple_chow_excludes_pure_double_chow() {
    assert_fans(
        "1M 2M 3M 1M 2M 3M 1M 2M 3M 5S 6S 7S 9T | - | 9T | discard",
        Reading::Contest,
        &[
            ("一色三同顺", 24),
            ("平和", 2),
            ("门前清", 2),
            ("单钓将", 1),
        ],
    );
    let miss = "1M 2M 3M 1M 2M 3M 2M 3M 4M 5S 6S 7S 9T | - | 9T | discard";
    lacks(Fan::PureTripleChow, miss);
    assert_eq!(points(miss, Reading::Contest, Fan::PureDoubleChow), 1);
}

#[test]
fn triple_pung() {
    assert_fans(
        "2M 2M 2M 2S 2S 2S 2T 2T 5M 6M 7M 9S 9S | - | 2T | discard",
        Reading::Contest,
        &[("三同刻", 16), ("门前清", 2)],
    );
    lacks(
        Fan::TriplePung,
        "2M 2M 2M 2S 2S 2S 3T 3T 5M 6M 7M 9S 9S | - | 3T | discard",
    );
}

#[test]
fn three_concealed_pungs_counts_only_pungs_the_discard_did_not_complete() {
    assert_fans(
        "2M 2M 2M 4S 4S 4S 6T 6T 8T 8T | pung 3T | 8T | self",
        Reading::Contest,
        &[("三暗刻", 16), ("碰碰和", 6), ("断幺", 2), ("自摸", 1)],
    );
    lacks(
        Fan::ThreeConcealedPungs,
        "2M 2M 2M 4S 4S 4S 6T 6T 8T 8T | pung 3T | 8T | discard",
    );
    // A robbed kong's tile is another seat's too.
    lacks(
        Fan::ThreeConcealedPungs,
        "2M 2M 2M 4S 4S 4S 6T 6T 8T 8T | pung 3T | 8T | rob",
    );
}

#[test]
fn mixed_triple_chow_excludes_mixed_double_chow() {
    assert_fans(
        "1M 2M 3M 1S 2S 3S 1T 2T 3T 5M 5M 7S 8S | - | 9S | discard",
        Reading::Contest,
        &[("三色三同顺", 8), ("平和", 2), ("门前清", 2)],
    );
    let miss = "1M 2M 3M 1S 2S 3S 2T 3T 4T 5M 5M 7S 8S | - | 9S | discard";
    lacks(Fan::MixedTripleChow, miss);
    assert_eq!(points(miss, Reading::Contest, Fan::MixedDoubleChow), 1);
}

#[test]
fn all_pungs() {
    has(
        Fan::AllPungs,
        "2M 2M 2M 4S 4S 4S 6T 6T 8T 8T | pung 3T | 8T | discard",
    );
    lacks(
        Fan::AllPungs,
        "2M 3M 4M 4S 4S 4S 6T 6T 8T 8T | pung 3T | 8T | discard",
    );
}

#[test]
fn half_flush() {
    assert_fans(
        "1M 2M 3M 4M 5M 6M 7M 8M 9M E E E Z | - | Z | discard",
        Reading::Contest,
        &[("混一色", 6), ("门前清", 2), ("单钓将", 1)],
    );
    lacks(
        Fan::HalfFlush,
        "1M 2M 3M 4M 5M 6M 7S 8S 9S E E E Z | - | Z | discard",
    );
}

#[test]
fn all_types() {
    has(
        Fan::AllTypes,
        "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z | - | Z | discard",
    );
    // No dragon.
    lacks(
        Fan::AllTypes,
        "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E S | - | S | discard",
    );
}

#[test]
fn concealed_hand_counts_on_discards_and_with_concealed_kongs() {
    has(
        Fan::ConcealedHand,
        "1M 2M 3M 4S 5S 6S 7T 8T 9T 2T 3T 5M 5M | - | 4T | discard",
    );
    has(
        Fan::ConcealedHand,
        "4S 5S 6S 7T 8T 9T 2T 3T 5M 5M | concealed-kong 1M | 4T | self",
    );
    lacks(
        Fan::ConcealedHand,
        "4S 5S 6S 7T 8T 9T 2T 3T 5M 5M | chow 1M | 4T | self",
    );
    lacks(
        Fan::ConcealedHand,
        "4S 5S 6S 7T 8T 9T 2T 3T 5M 5M | added-kong 1M | 4T | self",
    );
}

#[test]
fn all_simples() {
    assert_fans(
        "2M 3M 4M 5S 6S 7S 3T 4T 5T 6T 7T 8T 2S | - | 2S | discard",
        Reading::Contest,
        &[("断幺", 2), ("平和", 2), ("门前清", 2), ("单钓将", 1)],
    );
    lacks(
        Fan::AllSimples,
        "2M 3M 4M 5S 6S 7S 3T 4T 5T 6T 7T 8T 1S | - | 1S | discard",
    );
}

#[test]
fn all_chows_needs_a_pair_of_a_suit() {
    has(
        Fan::AllChows,
        "1M 2M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M 5M | - | 3M | discard",
    );
    // Melded chows count.
    has(
        Fan::AllChows,
        "4S 5S 6S 7T 8T 9T 2T 3T 5M 5M | chow 1M | 4T | discard",
    );
    lacks(
        Fan::AllChows,
        "1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E | - | 5M | discard",
    );
    lacks(
        Fan::AllChows,
        "1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 3M 3M 9T | - | 9T | discard",
    );
}

#[test]
fn dragon_pungs_count_each() {
    assert_fans(
        "Z Z Z 1M 2M 3M 4S 5S 6S 7T 8T 9T 5M | - | 5M | discard",
        Reading::Contest,
        &[("箭刻", 2), ("门前清", 2), ("单钓将", 1)],
    );
    assert_eq!(
        points(
            "Z Z Z 4S 5S 6S 7T 8T 9T 5M | kong F | 5M | discard",
            Reading::Contest,
            Fan::DragonPung
        ),
        4
    );
    lacks(
        Fan::DragonPung,
        "Z Z 1M 2M 3M 4S 5S 6S 7T 8T 9T 5M 5M | - | 5M | discard",
    );
}

#[test]
fn concealed_kongs_count_each() {
    assert_fans(
        "1M 2M 3M 4S 5S 6S 7T 8T 9T 5M | concealed-kong Z | 5M | discard",
        Reading::Contest,
        &[("暗杠", 2), ("箭刻", 2), ("门前清", 2), ("单钓将", 1)],
    );
    let two = "4S 5S 6S 7T 8T 9T 5M | concealed-kong Z, concealed-kong 1M | 5M | discard";
    assert_eq!(points(two, Reading::Contest, Fan::ConcealedKong), 4);
    let exposed = "1M 2M 3M 4S 5S 6S 7T 8T 9T 5M | kong Z | 5M | discard";
    lacks(Fan::ConcealedKong, exposed);
    assert_eq!(points(exposed, Reading::Contest, Fan::MeldedKong), 1);
}

#[test]
fn self_drawn() {
    let h = "1M 2M 3M 4S 5S 6S 7T 8T 9T 2T 3T 5M 5M | - | 4T";
    has(Fan::SelfDrawn, &format!("{h} | self"));
    lacks(Fan::SelfDrawn, &format!("{h} | discard"));
    lacks(Fan::SelfDrawn, &format!("{h} | rob"));
}

#[test]
fn pure_double_chows_count_each_kind_held_twice() {
    assert_fans(
        "1M 2M 3M 1M 2M 3M 4S 5S 6S 7T 8T 9T 5M | - | 5M | discard",
        Reading::Contest,
        &[("一般高", 1), ("平和", 2), ("门前清", 2), ("单钓将", 1)],
    );
    assert_eq!(
        points(
            // (Without the melded chow these tiles are seven pairs, which score more.)
            "1M 2M 3M 5S 6S 7S 5S 6S 7S 9T | chow 1M | 9T | discard",
            Reading::Contest,
            Fan::PureDoubleChow
        ),
        2
    );
    lacks(
        Fan::PureDoubleChow,
        "1M 2M 3M 2M 3M 4M 4S 5S 6S 7T 8T 9T 5M | - | 5M | discard",
    );
}

#[test]
fn mixed_double_chows_count_each_pair_of_chow_kinds() {
    has(
        Fan::MixedDoubleChow,
        "1M 2M 3M 4M 5S 6S 7S 6T 7T 8T 2T 3T 4T | - | 1M | discard",
    );
    let two = "1M 2M 3M 1S 2S 3S 4M 5M 6M 4S 5S 6S 9T | - | 9T | discard";
    assert_eq!(points(two, Reading::Contest, Fan::MixedDoubleChow), 2);
    // 123M 123M 123S: one 一般高 and one 喜相逢 (the kinds 123M and 123S make one pair).
    let r = eval(
        "1M 2M 3M 1M 2M 3M 1S 2S 3S 5T 6T 7T 9T | - | 9T | discard",
        Reading::Contest,
    )
    .unwrap();
    assert_eq!(
        (
            r.fans.points(Fan::PureDoubleChow),
            r.fans.points(Fan::MixedDoubleChow)
        ),
        (1, 1)
    );
    lacks(
        Fan::MixedDoubleChow,
        "1M 2M 3M 2S 3S 4S 4M 5M 6M 7S 8S 9S 9T | - | 9T | discard",
    );
}

#[test]
fn melded_kongs_count_each() {
    assert_eq!(
        points(
            "4S 5S 6S 7T 8T 9T 5M | kong Z, added-kong 1M | 5M | discard",
            Reading::Contest,
            Fan::MeldedKong
        ),
        2
    );
    lacks(
        Fan::MeldedKong,
        "1M 2M 3M 4S 5S 6S 7T 8T 9T 5M | pung Z | 5M | discard",
    );
}

#[test]
fn single_wait_is_a_lone_wait_for_the_pair() {
    has(
        Fan::SingleWait,
        "1M 2M 3M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M | - | 5M | self",
    );
    // Edge and closed waits are not for the pair.
    lacks(
        Fan::SingleWait,
        "1M 2M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M 5M | - | 3M | discard",
    );
    // 1M 2M 3M 4M waits on 1M and 4M.
    lacks(
        Fan::SingleWait,
        "1M 2M 3M 4M 5S 6S 7S 6T 7T 8T 2T 3T 4T | - | 1M | discard",
    );
    // 1M 1M 1M 2M waits on 2M and on 3M; with three 3M in a pung the fourth can still come.
    lacks(
        Fan::SingleWait,
        "1M 1M 1M 2M 4S 5S 6S 7T 8T 9T | pung 3M | 2M | discard",
    );
    // A kind of which the hand holds all four cannot come: with a 3M kong the wait is single.
    has(
        Fan::SingleWait,
        "1M 1M 1M 2M 4S 5S 6S 7T 8T 9T | kong 3M | 2M | discard",
    );
}

// ---------------------------------------------------------------------------------------------
// Not wins.

#[test]
fn not_a_win_says_why() {
    let mut s = spec("1M 2M 3M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M | - | 5M | discard");
    assert_eq!(evaluate(&s.hand(), Reading::Contest).unwrap().total, 5);

    s.concealed[0] += 1;
    let e = evaluate(&s.hand(), Reading::Contest).unwrap_err();
    assert_eq!(
        e,
        NotAWin::WrongTileCount {
            concealed: 14,
            melds: 0,
            expected: 13
        }
    );
    assert_eq!(
        e.to_string(),
        "too many tiles: 14 concealed besides the winning tile, where 0 melds leave 13"
    );
    s.concealed[0] -= 2;
    let e = evaluate(&s.hand(), Reading::Contest).unwrap_err();
    assert!(matches!(e, NotAWin::WrongTileCount { concealed: 12, .. }));
    assert!(
        e.to_string().starts_with("too few tiles: 12 concealed"),
        "{e}"
    );

    let five = spec("5M 5M 5M 5M 1S 2S 3S 7T 8T 9T 2T 3T 4T | - | 5M | discard");
    let e = evaluate(&five.hand(), Reading::Seed2015).unwrap_err();
    assert_eq!(
        e,
        NotAWin::TooManyOfAKind {
            tile: "5M".parse().unwrap(),
            count: 5
        }
    );
    assert!(e.to_string().contains("5 tiles of 5M"), "{e}");
    let five_with_meld = spec("5M 5M 1S 2S 3S 7T 8T 9T 2T 3T | pung 5M | 4T | discard");
    assert!(matches!(
        evaluate(&five_with_meld.hand(), Reading::Contest),
        Err(NotAWin::TooManyOfAKind { count: 5, .. })
    ));

    let bad_chow = spec("1S 2S 3S 7T 8T 9T 2T 3T 4T 5M | chow 8M | 5M | discard");
    let e = evaluate(&bad_chow.hand(), Reading::Contest).unwrap_err();
    assert_eq!(e, NotAWin::BadChow("8M".parse().unwrap()));
    assert!(e.to_string().contains("no chow starts at 8M"), "{e}");

    let five_melds = spec(" | pung 1M, pung 2M, pung 3M, pung 4M, pung 5M | 6M | discard");
    assert_eq!(
        evaluate(&five_melds.hand(), Reading::Contest),
        Err(NotAWin::TooManyMelds(5))
    );

    let mut both = spec("1M 2M 3M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M | - | 5M | self");
    both.robbed_kong = true;
    assert_eq!(
        evaluate(&both.hand(), Reading::Contest),
        Err(NotAWin::SelfDrawnAndRobbed)
    );

    let no_shape = spec("1M 2M 3M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M | - | 6M | discard");
    let e = evaluate(&no_shape.hand(), Reading::Seed2015).unwrap_err();
    assert_eq!(e, NotAWin::NoWinningShape);
    assert!(!is_win(&no_shape.hand(), Reading::Contest));
}

#[test]
fn the_scored_reading_shows_the_sets_the_pair_and_where_the_winning_tile_went() {
    let shape = |h| shape_of(h, Reading::Contest).to_string();
    assert_eq!(
        shape("2T 3T 4T E | kong 1M, concealed-kong 5S, concealed-kong 9T | E | discard"),
        "[kong 1M] + [concealed-kong 5S] + [concealed-kong 9T] + chow 2T + pair E; won on the pair"
    );
    assert_eq!(
        shape("1M 2M 3M 4M 5S 6S 7S 6T 7T 8T 2T 3T 4T | - | 1M | discard"),
        "chow 2M + chow 5S + chow 2T + chow 6T + pair 1M; won on the pair"
    );
    // The discard went into the chow, so the 4M pung stays concealed.
    assert_eq!(
        shape("4M 4M 4M 5M 6M 1S 1S 1S 7T 7T 7T E E | - | 4M | discard"),
        "pung 4M + chow 4M + pung 1S + pung 7T + pair E; won on chow 4M"
    );
    assert_eq!(
        shape("1M 1M 3S 3S 5T 5T 7T 7T E E Z Z B | - | B | discard"),
        "seven pairs 1M 3S 5T 7T E Z B"
    );
    assert_eq!(
        shape("1M 9M 1S 9S 1T 9T E S W N Z F B | - | E | discard"),
        "thirteen orphans, pair E"
    );
}

/// (hand, the excluding fan it scores, the fans it would otherwise also score and does not),
/// one row per exclusion the README writes (and 明杠 beside 三杠 and 四杠).
const EXCLUSIONS: &[(&str, Fan, &[Fan])] = &[
    (
        "E E E S S S W W W N N 5M 5M | - | N | discard",
        Fan::BigFourWinds,
        &[Fan::AllPungs],
    ),
    (
        "Z Z Z F F F B B 1M 2M 3M 9S 9S | - | B | discard",
        Fan::BigThreeDragons,
        &[Fan::DragonPung],
    ),
    (
        "1M 1M 9M 1S 9S 1T 9T E S W N Z F | - | B | discard",
        Fan::ThirteenOrphans,
        &[
            Fan::AllTypes,
            Fan::SingleWait,
            Fan::ConcealedHand,
            Fan::AllTerminalsAndHonours,
        ],
    ),
    (
        "5M | kong 1M, kong 2S, added-kong 3T, concealed-kong E | 5M | discard",
        Fan::FourKongs,
        &[Fan::AllPungs, Fan::ThreeKongs, Fan::MeldedKong],
    ),
    (
        "Z Z Z F F F B 1M 2M 3M 9S 9S 9S | - | B | discard",
        Fan::LittleThreeDragons,
        &[Fan::DragonPung],
    ),
    (
        "E E S S S Z Z Z W W | pung F | E | discard",
        Fan::AllHonours,
        &[Fan::AllPungs],
    ),
    (
        "1M 1M 1M 5S 5S 5S 9T 9T 9T E E Z Z | - | Z | self",
        Fan::FourConcealedPungs,
        &[Fan::ConcealedHand, Fan::AllPungs],
    ),
    (
        "1M 1M 1M 9M 9M 9M 1S 1S 1S 9T 9T 1T 1T | - | 1T | discard",
        Fan::AllTerminals,
        &[Fan::AllPungs],
    ),
    (
        "1M 2M 3M 1M 2M 3M 1M 2M 3M 1M 2M 3M 5S | - | 5S | discard",
        Fan::QuadrupleChow,
        &[Fan::PureTripleChow, Fan::PureDoubleChow],
    ),
    (
        "2T 3T 4T E | kong 1M, concealed-kong 5S, kong 9T | E | discard",
        Fan::ThreeKongs,
        &[Fan::MeldedKong],
    ),
    (
        "1M 1M 1M 9S 9S 9S E E E Z Z N N | - | N | discard",
        Fan::AllTerminalsAndHonours,
        &[Fan::AllPungs],
    ),
    (
        "1M 1M 3S 3S 5T 5T 7T 7T E E Z Z B | - | B | discard",
        Fan::SevenPairs,
        &[Fan::ConcealedHand, Fan::SingleWait],
    ),
    (
        // Three 123M are one 一色三同顺, not also 一般高 (123M and 123S are still a 喜相逢).
        "1M 2M 3M 1M 2M 3M 1M 2M 3M 1S 2S 3S 9T | - | 9T | discard",
        Fan::PureTripleChow,
        &[Fan::PureDoubleChow],
    ),
    (
        // 123M 123S 123T + 123M: 123M and 123S would be a 喜相逢.
        "1M 2M 3M 1S 2S 3S 1T 2T 3T 1M 2M 3M 9T | - | 9T | discard",
        Fan::MixedTripleChow,
        &[Fan::MixedDoubleChow],
    ),
];

#[test]
fn every_readme_exclusion_holds() {
    for &(hand, excluder, excluded) in EXCLUSIONS {
        has(excluder, hand);
        for &f in excluded {
            lacks(f, hand);
        }
    }
    // The excluded fans do count where nothing excludes them.
    has(
        Fan::AllPungs,
        "2M 2M 2M 4S 4S 4S 6T 6T 8T 8T | pung 3T | 8T | discard",
    );
    has(
        Fan::DragonPung,
        "Z Z 1M 2M 3M 4S 5S 6S 7T 8T 9T F F | - | F | discard",
    );
    has(
        Fan::ConcealedHand,
        "1M 2M 3M 4S 5S 6S 7T 8T 9T 2T 3T 5M 5M | - | 4T | discard",
    );
    has(
        Fan::SingleWait,
        "1M 2M 3M 4S 5S 6S 7T 8T 9T 2T 3T 4T 5M | - | 5M | discard",
    );
    has(
        Fan::MeldedKong,
        "2T 3T 4T E 6M 7M 8M | kong 1M, concealed-kong 5S | E | discard",
    );
    has(
        Fan::PureDoubleChow,
        "1M 2M 3M 1M 2M 3M 4S 5S 6S 7T 8T 9T 5M | - | 5M | discard",
    );
    has(
        Fan::MixedDoubleChow,
        "1M 2M 3M 1S 2S 3S 4M 5M 6M 4S 5S 6S 9T | - | 9T | discard",
    );
    // 五门齐 counts beside seven pairs, not beside thirteen orphans.
    has(
        Fan::AllTypes,
        "1M 1M 3S 3S 5T 5T 7T 7T E E Z Z B | - | B | discard",
    );
}

#[test]
fn every_fan_has_an_english_name_of_its_own_and_is_found_by_either_spelling() {
    let mut seen = std::collections::HashSet::new();
    for fan in Fan::ALL {
        let english = fan.english();
        assert!(
            !english.is_empty() && english.is_ascii() && seen.insert(english),
            "{fan:?}: {english:?}"
        );
        for reading in [Reading::Contest, Reading::Seed2015] {
            assert_eq!(Fan::of_name(fan.name(reading)), Some(fan), "{fan:?}");
        }
    }
    assert_eq!(Fan::FullFlush.english(), "Full Flush");
    assert_eq!(Fan::of_name("单调将"), Some(Fan::SingleWait));
    assert_eq!(Fan::of_name("单钓将"), Some(Fan::SingleWait));
    assert_eq!(Fan::of_name("Full Flush"), None);
}
