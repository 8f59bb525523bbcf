//! The example Python bot plays whole games through `CmdBot` without a single verdict, and what
//! a program is told holds its own cards and public information only.

mod common;

use common::*;
use ddz::{CardSet, Deal, GameConfig, Seat};
use ddz_bots::{Bot, RandomBot};
use ddz_line::{CmdBotConfig, Direction, Request, ServerMessage};

#[test]
fn simple_bot_plays_60_competition_games_without_verdicts() {
    let config = CmdBotConfig {
        transcript: true,
        ..CmdBotConfig::default()
    };
    let mut program = cmd_bot(&python(simple_bot(), &[]), config);
    let (mut a, mut b) = (RandomBot::new(1), RandomBot::new(2));
    let mut landlord_games = 0;
    for seed in 0..60 {
        let bots: &mut [&mut dyn Bot; 3] = &mut [&mut a, &mut program, &mut b];
        let game = play(GameConfig::competition(), seed, bots);
        let v = verdicts(bots);
        assert!(v.iter().all(Vec::is_empty), "game {seed}: {v:?}");
        landlord_games += usize::from(game.landlord() == Some(seat(1)));
    }
    let stats = program.stats();
    assert_eq!(stats.processes_started, 1, "one process for all games");
    assert_eq!(stats.answers, stats.requests);
    assert_eq!(stats.verdicts, 0);
    assert!(landlord_games > 0, "the bot never won the bidding");
    assert_eq!(program.joined_name(), Some("simple-python"));
    // It was asked to bid, to double and to play, and saw every game end.
    let sent: Vec<_> = program
        .transcript()
        .iter()
        .filter(|l| l.direction == Direction::ToBot)
        .map(|l| l.text.as_str())
        .collect();
    for prefix in [
        "ask bid ",
        "ask double ",
        "ask play 1000 pass ",
        "ask play 1000 ",
    ] {
        assert!(sent.iter().any(|l| l.starts_with(prefix)), "no {prefix:?}");
    }
    assert_eq!(sent.iter().filter(|l| l.starts_with("end ")).count(), 60);
    assert_eq!(sent.iter().filter(|l| l.starts_with("game ")).count(), 60);
}

#[test]
fn simple_bot_plays_60_fixed_landlord_games_as_landlord_and_farmer() {
    let spec = python(simple_bot(), &[]);
    let mut landlord = cmd_bot(&spec, CmdBotConfig::default());
    let mut farmer = cmd_bot(&spec, CmdBotConfig::default());
    let mut other = RandomBot::new(3);
    let mut farmer_wins = 0;
    for seed in 100..160 {
        let bots: &mut [&mut dyn Bot; 3] = &mut [&mut landlord, &mut other, &mut farmer];
        let game = play(GameConfig::fixed_landlord(), seed, bots);
        let v = verdicts(bots);
        assert!(v.iter().all(Vec::is_empty), "game {seed}: {v:?}");
        farmer_wins += usize::from(!game.outcome().unwrap().landlord_won());
    }
    assert_eq!(landlord.stats().processes_started, 1);
    assert_eq!(farmer.stats().processes_started, 1);
    assert!(landlord.stats().answers >= 60 * 3);
    assert!(farmer_wins < 60, "the landlord program never won a game");
}

#[test]
fn three_programs_play_each_other() {
    let spec = python(simple_bot(), &[]);
    let mut p: Vec<_> = (0..3)
        .map(|_| cmd_bot(&spec, CmdBotConfig::default()))
        .collect();
    let [p0, p1, p2] = &mut p[..] else {
        unreachable!()
    };
    for seed in 200..220 {
        let bots: &mut [&mut dyn Bot; 3] = &mut [p0, p1, p2];
        play(GameConfig::competition(), seed, bots);
        let v = verdicts(bots);
        assert!(v.iter().all(Vec::is_empty), "game {seed}: {v:?}");
    }
}

/// The deals of a game: the first one and every redeal (deals 0, 1, … of its seed).
fn deals(seed: u64, redeals: u32) -> Vec<Deal> {
    (0..=u64::from(redeals))
        .map(|i| Deal::generate(seed, i))
        .collect()
}

#[test]
fn a_program_is_told_its_own_cards_and_public_events_only() {
    let config = CmdBotConfig {
        transcript: true,
        ..CmdBotConfig::default()
    };
    let me = seat(2);
    let mut program = cmd_bot(&python(simple_bot(), &[]), config);
    let (mut a, mut b) = (RandomBot::new(5), RandomBot::new(6));
    let (mut games, mut redealt) = (0, 0);
    let mut seed = 300;
    while games < 30 || redealt < 2 {
        assert!(seed < 1000, "no redeals in 700 games");
        let bots: &mut [&mut dyn Bot; 3] = &mut [&mut a, &mut b, &mut program];
        let game = play(GameConfig::competition(), seed, bots);
        assert!(verdicts(bots).iter().all(Vec::is_empty));
        let lines: Vec<ServerMessage> = program
            .take_transcript()
            .into_iter()
            .filter(|l| l.direction == Direction::ToBot)
            .map(|l| ServerMessage::decode(&l.text).expect("the server sends valid lines"))
            .collect();
        let deals = deals(seed, game.redeals());
        let landlord = game.landlord().unwrap();
        check_what_was_told(&lines, &deals, me, landlord);
        games += 1;
        redealt += usize::from(game.redeals() > 0);
        seed += 1;
    }
}

/// Walks the lines one seat was sent and checks that every card in them is its own, the
/// bottom cards once shown, or a play made in public; `hand` lines match the deals exactly.
fn check_what_was_told(lines: &[ServerMessage], deals: &[Deal], me: Seat, landlord: Seat) {
    let mut deal_index = 0;
    let mut hand_lines = 0;
    let mut hand = CardSet::EMPTY;
    let mut redeals = 0;
    for (i, line) in lines.iter().enumerate() {
        let deal = &deals[deal_index];
        let context = || format!("line {i} {line}");
        match line {
            ServerMessage::Hand(h) => {
                hand_lines += 1;
                let expected = if line_after_own_landlord(lines, i, me) {
                    deal.hands[me.index()] + deal.bottom
                } else {
                    deal.hands[me.index()]
                };
                assert_eq!(*h, expected, "{}", context());
                hand = *h;
            }
            ServerMessage::Redeal => {
                redeals += 1;
                deal_index += 1;
            }
            ServerMessage::Landlord { seat, bottom, .. } => {
                assert_eq!(*seat, landlord);
                assert_eq!(*bottom, deal.bottom, "{}", context());
            }
            ServerMessage::Play { seat, cards } if *seat == me => {
                hand = hand.try_sub(*cards).expect("played own cards");
            }
            ServerMessage::Ask(Request::Play { legal, .. }) => {
                for m in legal {
                    assert!(
                        m.is_subset_of(hand),
                        "{}: {m} not in hand {hand}",
                        context()
                    );
                }
            }
            ServerMessage::Seat(s) => assert_eq!(*s, me),
            _ => {}
        }
        // No line ever holds another seat's dealt hand.
        let text = line.to_string();
        for d in deals {
            for s in Seat::ALL.into_iter().filter(|&s| s != me) {
                assert!(
                    !text.contains(&d.hands[s.index()].to_string()),
                    "{}",
                    context()
                );
            }
        }
    }
    assert_eq!(redeals + 1, deals.len());
    let expected_hand_lines = 1 + redeals + usize::from(landlord == me);
    assert_eq!(hand_lines, expected_hand_lines);
}

/// True if line `i` directly follows the `landlord` line naming `me`.
fn line_after_own_landlord(lines: &[ServerMessage], i: usize, me: Seat) -> bool {
    i > 0 && matches!(lines[i - 1], ServerMessage::Landlord { seat, .. } if seat == me)
}

#[test]
fn absurd_durations_in_the_config_do_not_panic() {
    let config = CmdBotConfig {
        bid_deadline: std::time::Duration::MAX,
        play_deadline: std::time::Duration::MAX,
        grace: std::time::Duration::MAX,
        startup_timeout: std::time::Duration::MAX,
        ..CmdBotConfig::default()
    };
    let mut program = cmd_bot(&python(simple_bot(), &[]), config);
    let (mut a, mut b) = (RandomBot::new(1), RandomBot::new(2));
    let bots: &mut [&mut dyn Bot; 3] = &mut [&mut program, &mut a, &mut b];
    play(GameConfig::competition(), 1, bots);
    assert!(verdicts(bots).iter().all(Vec::is_empty));
}
