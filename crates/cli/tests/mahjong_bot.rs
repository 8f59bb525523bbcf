//! `arena mahjong bot NAME`: a built-in bot served as a contest program plays whole hands
//! through the arena's own `cmd:` seats without a fault.

use std::path::PathBuf;

use mahjong::{Deal, Rules};
use mahjong_bots::{TimeLimits, play_hand};
use mahjong_line::{CmdBot, CmdBotConfig, CmdSpec};

#[test]
fn four_served_random_bots_play_hands_through_cmd_seats() {
    let arena = arena_testkit::readable_copy(&PathBuf::from(env!("CARGO_BIN_EXE_arena")));
    let mut bots: Vec<CmdBot> = (0..4)
        .map(|s| {
            let seed = s.to_string();
            let spec = CmdSpec::new(
                arena.display().to_string(),
                ["mahjong", "bot", "random", "--seed", &seed],
            );
            CmdBot::new(spec, CmdBotConfig::default())
        })
        .collect();
    let mut claims = 0;
    for seed in 0..3 {
        let [a, b, c, d] = &mut bots[..] else {
            unreachable!()
        };
        let record = play_hand(
            &Deal::from_seed(seed),
            Rules::default(),
            TimeLimits::default(),
            &mut [a, b, c, d],
        );
        assert!(
            record.verdicts.is_empty(),
            "hand {seed}: {:?}",
            record.verdicts
        );
        claims += record
            .events
            .iter()
            .filter(|e| matches!(e, mahjong::Event::Chow { .. } | mahjong::Event::Pung { .. }))
            .count();
    }
    // Random play claims often: the served bots answer with every kind of line, not just pass.
    assert!(claims > 0);
    for b in &bots {
        assert_eq!(b.stats().processes_started, 3);
        assert_eq!(b.stats().faults, 0);
    }
}
