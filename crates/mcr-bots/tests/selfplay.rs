//! Built-in bots never fault: thousands of self-play hands with no refused answer, and the
//! stronger bots win more than the random one.

use mcr::wall::Deal;
use mcr::{FaultPolicy, Game};
use mcr_bots::{Player, builtin, play_hand};

fn table(names: [&str; 4]) -> [Box<dyn Player>; 4] {
    names.map(|n| builtin(n).unwrap())
}

#[test]
fn random_bots_never_fault_over_thousands_of_hands() {
    let mut players = table(["random"; 4]);
    let mut wins = 0;
    for seed in 0..3000u64 {
        let rec = play_hand(
            Game::new(&Deal::from_seed(seed)),
            &mut players,
            FaultPolicy::Judge,
            seed,
        );
        assert_eq!(rec.faults, [0; 4], "hand {seed}");
        assert_eq!(rec.outcome.fault, None);
        assert_eq!(rec.outcome.scores.iter().sum::<i32>(), 0);
        if let Some(w) = rec.outcome.win {
            assert!(w.fans.without_flowers() >= 8, "hand {seed}: {w:?}");
            wins += 1;
        }
    }
    assert!(wins > 0);
}

#[test]
fn efficiency_and_fan_bots_never_fault_and_win_at_least_8_points() {
    let mut players = table(["efficiency", "fan", "efficiency", "random"]);
    let mut won = [0u32; 4];
    let mut score = [0i64; 4];
    let hands = 1000u64;
    for seed in 0..hands {
        let rec = play_hand(
            Game::new(&Deal::from_seed(seed)),
            &mut players,
            FaultPolicy::Judge,
            seed,
        );
        assert_eq!(rec.faults, [0; 4], "hand {seed}");
        if let Some(w) = rec.outcome.win {
            assert!(w.fans.without_flowers() >= 8, "hand {seed}: {w:?}");
            won[usize::from(w.seat)] += 1;
        }
        for (s, x) in score.iter_mut().zip(rec.outcome.scores) {
            *s += i64::from(x);
        }
    }
    assert!(
        won[0] + won[2] > 4 * won[3],
        "wins {won:?}, scores {score:?}"
    );
}

#[test]
fn a_bot_answering_illegally_is_judged_by_the_policy() {
    use mcr::{Action, ActionList, View};
    struct Cheat;
    impl Player for Cheat {
        fn name(&self) -> String {
            "cheat".into()
        }
        fn start_hand(&mut self, _: u8, _: u64) {}
        fn decide(&mut self, _: &View<'_>, _: &ActionList) -> Action {
            Action::Win
        }
    }
    let deal = Deal::from_seed(3);
    let mut players: [Box<dyn Player>; 4] = [
        Box::new(Cheat),
        builtin("random").unwrap(),
        builtin("random").unwrap(),
        builtin("random").unwrap(),
    ];
    let rec = play_hand(Game::new(&deal), &mut players, FaultPolicy::Judge, 1);
    assert_eq!(rec.outcome.fault, Some(0));
    assert_eq!(rec.outcome.scores, [-30, 10, 10, 10]);
    let rec = play_hand(Game::new(&deal), &mut players, FaultPolicy::PlayOn, 1);
    assert_eq!(rec.outcome.fault, None);
    assert_eq!(rec.faults[0], 1, "asked once, then played automatically");
    assert_eq!(rec.outcome.scores.iter().sum::<i32>(), 0);
}

#[test]
fn the_fan_bot_outscores_the_efficiency_bot_over_600_hands() {
    // Each bot plays every deal from both seat parities.
    let mut total = [0i64; 2];
    let mut wins = [0u32; 2];
    for (k, names) in [
        ["fan", "efficiency", "fan", "efficiency"],
        ["efficiency", "fan", "efficiency", "fan"],
    ]
    .into_iter()
    .enumerate()
    {
        let mut players = table(names);
        for seed in 0..300u64 {
            let rec = play_hand(
                Game::new(&Deal::from_seed(seed)),
                &mut players,
                FaultPolicy::Judge,
                seed + k as u64,
            );
            assert_eq!(rec.faults, [0; 4], "hand {seed}");
            for s in 0..4 {
                total[usize::from(names[s] != "fan")] += i64::from(rec.outcome.scores[s]);
            }
            if let Some(w) = rec.outcome.win {
                wins[usize::from(names[usize::from(w.seat)] != "fan")] += 1;
            }
        }
    }
    assert!(
        total[0] > total[1] && wins[0] > wins[1],
        "fan {} / {} wins, efficiency {} / {} wins",
        total[0],
        wins[0],
        total[1],
        wins[1]
    );
}
