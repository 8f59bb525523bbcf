//! The example bot for authors, `examples/mahjong-python/simple_bot.py`, plays whole hands in
//! every seat through `CmdBot` without a fault.

mod common;

use common::*;
use mahjong::{Deal, Event};
use mahjong_line::CmdBot;

#[test]
fn four_python_example_bots_play_hands_without_a_fault() {
    let spec = format!("cmd:python3 {}", simple_bot().display());
    let mut bots: Vec<CmdBot> = (0..4)
        .map(|_| CmdBot::from_spec(&spec, config()).unwrap())
        .collect();
    let mut claims = 0;
    let mut wins = 0;
    for seed in 0..4 {
        let [a, b, c, d] = &mut bots[..] else {
            unreachable!()
        };
        let record = play(&Deal::from_seed(seed), &mut [a, b, c, d]);
        assert!(
            record.verdicts.is_empty(),
            "hand {seed}: {:?}",
            record.verdicts
        );
        claims += record
            .events
            .iter()
            .filter(|e| matches!(e, Event::Pung { .. }))
            .count();
        wins += usize::from(record.outcome.win.is_some());
    }
    for b in &bots {
        assert_eq!(b.stats().processes_started, 4, "a fresh process per hand");
        assert_eq!(b.stats().faults, 0);
    }
    // It plays, not just passes: it pungs its pairs and wins when it can.
    assert!(
        claims > 0 && wins > 0,
        "{claims} pungs, {wins} wins in 4 hands"
    );
}
