//! What the built-in bots promise, checked at every decision of many hands: they win whenever
//! a win is offered, the efficiency bot claims only to lower its shanten, the fan bot claims
//! only tiles of its suit or honours, and a hand's isolated honour goes before its melds.

use mcr::shape::shanten;
use mcr::wall::Deal;
use mcr::{Action, ActionList, Decision, FaultPolicy, Game, View, Wall, WallTile, Wind};
use mcr_bots::{EfficiencyBot, FanBot, Player, RandomBot, SearchBot, SearchConfig, play_hand};

/// Shanten of `view`'s hand after `claim` of `tile` (the claim's discard made).
fn shanten_after(view: &View<'_>, tile: mcr::Tile, claim: Action) -> i8 {
    let mut h = *view.hand();
    let i = tile.index();
    match claim {
        Action::Kong => h[i] -= 3,
        Action::Pung(x) => {
            h[i] -= 2;
            h[x.index()] -= 1;
        }
        Action::Chow { middle, discard } => {
            h[i] += 1;
            for k in [-1, 0, 1] {
                h[middle.offset(k).unwrap().index()] -= 1;
            }
            h[discard.index()] -= 1;
        }
        _ => unreachable!(),
    }
    shanten(&h, view.own_packs().len() + 1)
}

/// Wraps a bot and checks each answer with `check`.
struct Checked<P> {
    bot: P,
    check: fn(&View<'_>, &ActionList, Action),
}

impl<P: Player> Player for Checked<P> {
    fn name(&self) -> String {
        self.bot.name()
    }
    fn start_hand(&mut self, seat: u8, seed: u64) {
        self.bot.start_hand(seat, seed)
    }
    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Action {
        let a = self.bot.decide(view, legal);
        (self.check)(view, legal, a);
        a
    }
}

fn wins_when_offered(legal: &ActionList, a: Action) {
    if legal.contains(&Action::Win) {
        assert_eq!(a, Action::Win);
    }
}

#[test]
fn the_efficiency_bot_wins_when_offered_and_claims_only_to_lower_its_shanten() {
    fn check(view: &View<'_>, legal: &ActionList, a: Action) {
        wins_when_offered(legal, a);
        if let Some(Decision::Discard { tile, .. }) = view.decision()
            && matches!(a, Action::Kong | Action::Pung(_) | Action::Chow { .. })
        {
            let before = shanten(view.hand(), view.own_packs().len());
            assert!(
                shanten_after(view, tile, a) < before,
                "{a} at shanten {before}"
            );
        }
    }
    for seed in 0..150u64 {
        let mut players: [Box<dyn Player>; 4] = [
            Box::new(Checked {
                bot: EfficiencyBot::new(),
                check,
            }),
            Box::new(RandomBot::new()),
            Box::new(Checked {
                bot: EfficiencyBot::new(),
                check,
            }),
            Box::new(RandomBot::new()),
        ];
        let rec = play_hand(
            Game::new(&Deal::from_seed(seed)),
            &mut players,
            FaultPolicy::Judge,
            seed,
        );
        assert_eq!(rec.faults, [0; 4]);
    }
}

#[test]
fn the_fan_bot_wins_when_offered_and_claims_only_its_suit_or_honours() {
    fn check(view: &View<'_>, legal: &ActionList, a: Action) {
        wins_when_offered(legal, a);
        if let Some(Decision::Discard { tile, .. }) = view.decision()
            && matches!(a, Action::Pung(_) | Action::Chow { .. } | Action::Kong)
        {
            // The suit it holds most of, packs included.
            let mut per_suit = [0u32; 3];
            for (i, &n) in view.hand()[..27].iter().enumerate() {
                per_suit[i / 9] += u32::from(n);
            }
            for p in view.own_packs() {
                if let Some(s) = p.tile.suit() {
                    per_suit[s as usize] += 3;
                }
            }
            let best = (0..3).max_by_key(|&s| per_suit[s]).unwrap();
            assert!(
                tile.suit().is_none_or(|s| s as usize == best),
                "{a} of {tile}"
            );
        }
    }
    for seed in 0..150u64 {
        let mut players: [Box<dyn Player>; 4] = [
            Box::new(Checked {
                bot: FanBot::new(),
                check,
            }),
            Box::new(RandomBot::new()),
            Box::new(Checked {
                bot: FanBot::new(),
                check,
            }),
            Box::new(RandomBot::new()),
        ];
        let rec = play_hand(
            Game::new(&Deal::from_seed(seed)),
            &mut players,
            FaultPolicy::Judge,
            seed,
        );
        assert_eq!(rec.faults, [0; 4]);
    }
}

#[test]
fn the_efficiency_bot_lets_an_isolated_honour_go_before_its_melds() {
    let seq: Vec<WallTile> = "W1 W2 W3 T4 T5 T6 B7 B8 B9 W5 W5 T1 J3 F4"
        .split(' ')
        .map(|t| t.parse().unwrap())
        .collect();
    let wall = Wall::arranged([&seq, &[], &[], &[]], false).unwrap();
    let game = Game::with_wall(wall, Wind::East);
    let mut legal = ActionList::new();
    game.legal_actions(0, &mut legal);
    let mut bot = EfficiencyBot::new();
    bot.start_hand(0, 1);
    let a = bot.decide(&game.view(0), &legal);
    assert!(
        a == Action::Play("F4".parse().unwrap()) || a == Action::Play("J3".parse().unwrap()),
        "{a}"
    );
}

#[test]
fn the_search_bot_wins_when_offered_never_claims_to_raise_its_shanten_and_repeats_itself() {
    fn check(view: &View<'_>, legal: &ActionList, a: Action) {
        wins_when_offered(legal, a);
        if let Some(Decision::Discard { tile, .. }) = view.decision()
            && matches!(a, Action::Pung(_) | Action::Chow { .. })
        {
            let before = shanten(view.hand(), view.own_packs().len());
            assert!(
                shanten_after(view, tile, a) <= before,
                "{a} at shanten {before}"
            );
        }
    }
    let small = SearchConfig::parse("samples=6,candidates=4,horizon=5").unwrap();
    let table = || -> [Box<dyn Player>; 4] {
        [
            Box::new(Checked {
                bot: SearchBot::new(small),
                check,
            }),
            Box::new(FanBot::new()),
            Box::new(Checked {
                bot: SearchBot::new(small),
                check,
            }),
            Box::new(RandomBot::new()),
        ]
    };
    for seed in 0..25u64 {
        let first = play_hand(
            Game::new(&Deal::from_seed(seed)),
            &mut table(),
            FaultPolicy::Judge,
            seed,
        );
        assert_eq!(first.faults, [0; 4]);
        // Deterministic from the hand seed: fresh bots play the hand the same way.
        let again = play_hand(
            Game::new(&Deal::from_seed(seed)),
            &mut table(),
            FaultPolicy::Judge,
            seed,
        );
        assert_eq!(first, again, "hand {seed}");
    }
}
