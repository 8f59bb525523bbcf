//! `play_hand` with scripted in-process players: time penalties, faults and dead seats.

use std::time::Duration;

use mahjong::{Action, ActionList, Deal, Event, Phase, Rules, View};
use mahjong_bots::{
    BotFault, HandRecord, Player, RandomBot, Reply, TimeLimits, VerdictKind, penalty_points,
    play_hand,
};

type Decide = Box<dyn FnMut(&View<'_>, &ActionList, usize) -> Reply + Send>;

/// A player that answers by a script: `decide(view, legal, n)` for its n-th decision (from 0).
struct Scripted {
    start: Result<(), BotFault>,
    decide: Decide,
    asked: usize,
    asked_after_end: bool,
    ended: bool,
}

impl Scripted {
    fn new(
        decide: impl FnMut(&View<'_>, &ActionList, usize) -> Reply + Send + 'static,
    ) -> Scripted {
        Scripted {
            start: Ok(()),
            decide: Box::new(decide),
            asked: 0,
            asked_after_end: false,
            ended: false,
        }
    }

    /// Plays the first legal action, untimed (pass to claims, discard the lowest tile).
    fn first_legal() -> Scripted {
        Scripted::new(|_, legal, _| Reply::untimed(legal[0]))
    }
}

impl Player for Scripted {
    fn name(&self) -> String {
        "scripted".into()
    }
    fn start_hand(&mut self, _seat: u8, _seed: u64) -> Result<(), BotFault> {
        self.start.clone()
    }
    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Reply {
        self.asked_after_end |= self.ended;
        let n = self.asked;
        self.asked += 1;
        (self.decide)(view, legal, n)
    }
    fn end_hand(&mut self, _view: &View<'_>) {
        self.ended = true;
    }
}

fn play(players: &mut [Scripted; 4], seed: u64) -> HandRecord {
    let [a, b, c, d] = players;
    let mut seats: [&mut dyn Player; 4] = [a, b, c, d];
    play_hand(
        &Deal::from_seed(seed),
        Rules::default(),
        TimeLimits::default(),
        &mut seats,
    )
}

fn four_first_legal() -> [Scripted; 4] {
    [0, 1, 2, 3].map(|_| Scripted::first_legal())
}

#[test]
fn penalties_round_half_up_per_100_ms_past_the_limit() {
    let ms = Duration::from_millis;
    assert_eq!(penalty_points(ms(750), ms(500)), 3);
    assert_eq!(penalty_points(ms(1200), ms(1000)), 2);
    assert_eq!(penalty_points(ms(1000), ms(1000)), 0);
    assert_eq!(penalty_points(ms(400), ms(500)), 0);
    assert_eq!(penalty_points(ms(1049), ms(1000)), 0);
    assert_eq!(penalty_points(ms(1050), ms(1000)), 1);
    assert_eq!(penalty_points(ms(5000), ms(1000)), 40);
}

/// Events of `seat` after event `from`: draws and what it did next.
fn seat_events(r: &HandRecord, seat: u8, from: usize) -> Vec<Event> {
    r.events[from..]
        .iter()
        .copied()
        .filter(|e| match *e {
            Event::Draw { seat: s, .. }
            | Event::Discard { seat: s, .. }
            | Event::Chow { seat: s, .. }
            | Event::Pung { seat: s, .. }
            | Event::Kong { seat: s, .. }
            | Event::ConcealedKong { seat: s, .. }
            | Event::AddedKong { seat: s, .. }
            | Event::ChowFailed { seat: s }
            | Event::Win { seat: s, .. } => s == seat,
            Event::Drawn => false,
        })
        .collect()
}

/// After a seat dies it only draws and discards what it drew.
fn assert_automatic_after(r: &HandRecord, seat: u8, from: usize) {
    let mine = seat_events(r, seat, from);
    let mut i = 0;
    // Its first event may be the discard of the turn it faulted on.
    if let Some(Event::Discard { .. }) = mine.first() {
        i = 1;
    }
    while i < mine.len() {
        match (mine[i], mine.get(i + 1)) {
            (Event::Draw { tile, .. }, Some(&Event::Discard { tile: d, .. })) => {
                assert_eq!(tile, d, "a dead seat discards what it drew: {mine:?}")
            }
            (Event::Draw { .. }, None) => {}
            (e, _) => panic!("a dead seat did {e:?}: {mine:?}"),
        }
        i += 2;
    }
}

#[test]
fn a_slow_claim_and_a_slow_discard_cost_points_that_go_to_nobody() {
    let slow = |_: &View<'_>, legal: &ActionList, _| Reply {
        answer: Ok(legal[0]),
        elapsed: Some(if matches!(legal[0], Action::Discard(_)) {
            Duration::from_millis(1200)
        } else {
            Duration::from_millis(750)
        }),
    };
    let mut players = four_first_legal();
    players[1] = Scripted::new(slow);
    let r = play(&mut players, 5);
    assert!(r.verdicts.is_empty(), "{:?}", r.verdicts);
    let (turns, claims) = {
        let mut turns = 0;
        let mut claims = 0;
        let mut g = mahjong::Game::new(&Deal::from_seed(5), Rules::default());
        // Replay to count seat 1's decisions by kind.
        let mut legal = ActionList::new();
        while !g.is_over() {
            let mut answers = Vec::new();
            for s in g.deciders().iter() {
                g.legal_actions(s, &mut legal);
                if s == 1 {
                    if matches!(g.phase(), Phase::Turn { .. }) {
                        turns += 1;
                    } else {
                        claims += 1;
                    }
                }
                answers.push((s, legal[0]));
            }
            g.apply(&answers).unwrap();
        }
        assert_eq!(g.events(), &r.events[..], "the same play");
        (turns, claims)
    };
    assert!(turns > 0 && claims > 0);
    assert_eq!(r.penalties, [0, 2 * turns + 3 * claims, 0, 0]);
    for s in 0..4 {
        assert_eq!(r.scores[s], r.outcome.scores[s] - r.penalties[s]);
    }
    assert_eq!(
        r.scores.iter().sum::<i32>(),
        -r.penalties[1],
        "penalties go to nobody"
    );
}

#[test]
fn a_fault_makes_a_verdict_and_the_seat_plays_on_automatically_asked_nothing_more() {
    for seed in 0..20u64 {
        let mut players = four_first_legal();
        players[2] = Scripted::new(|_, legal, n| {
            if n == 3 {
                Reply {
                    answer: Err(BotFault::new(VerdictKind::Malformed, "answered \"hello\"")),
                    elapsed: None,
                }
            } else {
                Reply::untimed(legal[0])
            }
        });
        let r = play(&mut players, seed);
        let asked = players[2].asked;
        if asked < 4 {
            // The hand ended before the fourth decision: no fault.
            assert!(r.verdicts.is_empty());
            continue;
        }
        assert_eq!(asked, 4, "seed {seed}: asked nothing after the fault");
        assert_eq!(r.verdicts.len(), 1);
        let v = &r.verdicts[0];
        assert_eq!(
            (v.seat, v.kind, v.reason.as_str()),
            (2, VerdictKind::Malformed, "answered \"hello\"")
        );
        assert_automatic_after(&r, 2, v.at_event);
        assert!(!players[2].asked_after_end);
        // The others were asked at every decision they faced.
        assert!(players[0].asked > 0 && players[1].asked > 0 && players[3].asked > 0);
    }
}

#[test]
fn an_illegal_action_is_a_verdict_naming_the_action_and_why() {
    let mut players = four_first_legal();
    // Seat 0 discards a tile it does not hold on its first turn.
    players[0] = Scripted::new(|view, legal, _| {
        if let Phase::Turn { .. } = view.phase() {
            let missing = mahjong::Tile::all()
                .find(|t| view.hand()[t.index()] == 0)
                .unwrap();
            Reply::untimed(Action::Discard(missing))
        } else {
            Reply::untimed(legal[0])
        }
    });
    let r = play(&mut players, 11);
    let v = r.verdicts.first().expect("a verdict");
    assert_eq!((v.seat, v.kind), (0, VerdictKind::Illegal));
    assert!(
        v.reason.starts_with("answered discard ") && v.reason.contains(": the seat holds no "),
        "{}",
        v.reason
    );
    assert_eq!(r.verdicts.len(), 1);
    assert_automatic_after(&r, 0, v.at_event);
}

#[test]
fn a_seat_that_fails_to_start_is_dead_from_the_start() {
    let mut players = four_first_legal();
    players[3].start = Err(BotFault::new(
        VerdictKind::Crashed,
        "exited with status 1 before join",
    ));
    let r = play(&mut players, 3);
    assert_eq!(players[3].asked, 0);
    assert_eq!(r.verdicts.len(), 1);
    assert_eq!((r.verdicts[0].seat, r.verdicts[0].at_event), (3, 0));
    assert_automatic_after(&r, 3, 0);
}

#[test]
fn an_answer_past_the_hard_cap_is_a_timeout_charged_up_to_the_cap() {
    let mut players = four_first_legal();
    players[1] = Scripted::new(|_, legal, _| Reply {
        answer: Ok(legal[0]),
        elapsed: Some(Duration::from_secs(7)),
    });
    let r = play(&mut players, 8);
    let v = &r.verdicts[0];
    assert_eq!((v.seat, v.kind), (1, VerdictKind::Timeout));
    assert!(
        v.reason.contains("past the hard cap of 5.000 s"),
        "{}",
        v.reason
    );
    assert_eq!(players[1].asked, 1);
    // One answer, charged as 5 s against its limit: 40 points on a turn, 45 on a claim.
    assert!(matches!(r.penalties[1], 40 | 45), "{:?}", r.penalties);
}

#[test]
fn a_chow_from_a_seat_that_is_not_next_is_ignored() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static IGNORED: AtomicUsize = AtomicUsize::new(0);
    // Seat 3 answers every discard it may not chow (seat 2 did not discard it) with a chow.
    let mut players = four_first_legal();
    players[3] = Scripted::new(|view, legal, _| match view.phase() {
        Phase::Claims { discarder, tile } if discarder != 2 && tile.starts_chow() => {
            IGNORED.fetch_add(1, Ordering::Relaxed);
            Reply::untimed(Action::Chow(tile))
        }
        _ => Reply::untimed(legal[0]),
    });
    let r = play(&mut players, 4);
    assert!(IGNORED.load(Ordering::Relaxed) > 0);
    assert!(r.verdicts.is_empty(), "{:?}", r.verdicts);
    assert!(
        !r.events
            .iter()
            .any(|e| matches!(e, Event::Chow { seat: 3, .. }))
    );
    // The hand went on as if seat 3 had passed.
    let mut passing = four_first_legal();
    assert_eq!(play(&mut passing, 4).events, r.events);
}

#[test]
fn built_in_players_are_deterministic_from_the_deal() {
    let run = || {
        let mut bots = [
            RandomBot::new(),
            RandomBot::new(),
            RandomBot::new(),
            RandomBot::new(),
        ];
        let [a, b, c, d] = &mut bots;
        let mut seats: [&mut dyn Player; 4] = [a, b, c, d];
        play_hand(
            &Deal::from_seed(99),
            Rules::default(),
            TimeLimits::default(),
            &mut seats,
        )
    };
    let (x, y) = (run(), run());
    assert_eq!(x, y);
    assert_eq!(x.penalties, [0; 4]);
    assert!(x.verdicts.is_empty());
    assert_eq!(x.scores, x.outcome.scores);
}
