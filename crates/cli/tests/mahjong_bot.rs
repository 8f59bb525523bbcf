//! `arena mahjong bot NAME`: a built-in bot served as a contest program plays whole hands
//! through the arena's own `cmd:` seats (program seats on the one runner) without a fault.

use std::path::PathBuf;

use arena_games::mahjong::spec::contest_time;
use arena_line::{CmdSpec, Launch};
use arena_table::ProgramBot;
use mahjong::Rules;
use mahjong_match::Entrant;
use mahjong_match::run::{Seats, play_slot};
use mahjong_match::schedule::schedule;

#[test]
fn four_served_random_bots_play_hands_through_cmd_seats() {
    let arena = arena_testkit::readable_copy(&PathBuf::from(env!("CARGO_BIN_EXE_arena")));
    let program = |s: usize| {
        let seed = s.to_string();
        Entrant::Program(Box::new(ProgramBot {
            cmd: CmdSpec::new(
                arena.display().to_string(),
                ["mahjong", "bot", "random", "--seed", &seed],
            ),
            launch: Launch::default(),
        }))
    };
    let names = [0, 1, 2, 3].map(|s| format!("served-{s}"));
    let mut seats = Seats::new([0, 1, 2, 3].map(program)).unwrap();
    let mut claims = 0;
    for slot in schedule(1).iter().take(3) {
        let record = play_slot(slot, Rules::default(), contest_time(), &names, &mut seats)
            .unwrap_or_else(|e| panic!("hand {}: {e}", slot.hand));
        assert!(
            record.verdicts.is_empty(),
            "hand {}: {:?}",
            slot.hand,
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
}
