//! The example bot for authors, `examples/mahjong-python/simple_bot.py`, plays whole hands in
//! every seat (program seats on the one runner) without a fault.

mod common;

use common::*;
use mahjong::{Deal, Event};
use mahjong_line::CmdSpec;

#[test]
fn four_python_example_bots_play_hands_without_a_fault() {
    let spec = CmdSpec::new("python3", [simple_bot().display().to_string()]);
    let mut claims = 0;
    let mut wins = 0;
    for seed in 0..4 {
        let bots = [0, 1, 2, 3].map(|_| Program::new(spec.clone()));
        let record = play(&Deal::from_seed(seed), bots).record;
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
    // It plays, not just passes: it pungs its pairs and wins when it can.
    assert!(
        claims > 0 && wins > 0,
        "{claims} pungs, {wins} wins in 4 hands"
    );
}
