//! Malformed input gets errors, never panics; refused actions change nothing.

use ddz::{
    Action, CardSet, Deal, DealConstraint, Game, GameConfig, MoveList, Phase, Rank, RuleSet, Seat,
};
use proptest::prelude::*;

fn card_counts() -> impl Strategy<Value = CardSet> {
    proptest::array::uniform15(0u8..=4).prop_map(|mut c| {
        for r in [Rank::BlackJoker, Rank::RedJoker] {
            c[r.index()] = c[r.index()].min(1);
        }
        CardSet::from_counts(&c).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn card_parsing_never_panics_and_round_trips(s in "\\PC{0,40}") {
        if let Ok(set) = s.parse::<CardSet>() {
            prop_assert_eq!(set.to_string().parse::<CardSet>(), Ok(set));
        }
    }

    #[test]
    fn card_like_strings_parse_or_say_why(s in "[0-9TJQKA2BRtjqkabrx ]{0,30}") {
        match s.parse::<CardSet>() {
            Ok(set) => prop_assert!(set.len() as usize <= s.len()),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    #[test]
    fn deal_parsing_never_panics(s in "[0-9TJQKA2BR/]{0,80}") {
        let _ = s.parse::<Deal>();
    }

    #[test]
    fn classification_never_panics_and_agrees_with_generation(set in card_counts()) {
        for rules in [RuleSet::COMPETITION, RuleSet::DOUZERO, RuleSet::OPENSPIEL] {
            if let Ok(m) = rules.classify(set) {
                prop_assert_eq!(m.cards(), set);
                let mut moves = MoveList::new();
                rules.leads(set, &mut moves);
                prop_assert!(moves.iter().any(|&x| x == m), "{} not generated from itself", m);
            }
        }
    }

    #[test]
    fn arbitrary_actions_never_corrupt_a_game(
        seed in any::<u64>(),
        actions in proptest::collection::vec((0u8..3, any::<u8>(), card_counts(), any::<bool>()), 0..300),
    ) {
        let mut g = Game::from_seed(GameConfig::competition(), seed, DealConstraint::NONE).unwrap();
        let mut moves = MoveList::new();
        for (kind, n, cards, legal) in actions {
            let before_events = g.events().len();
            let before_hands: Vec<CardSet> = Seat::ALL.iter().map(|&s| g.hand(s)).collect();
            let action = match kind {
                0 => Action::Bid(n % 6),
                1 => Action::Double(n % 2 == 0),
                _ if legal && g.phase() == Phase::Play => {
                    g.legal_moves(&mut moves);
                    Action::Play(moves[n as usize % moves.len()])
                }
                _ => {
                    let _ = g.play_cards(cards);
                    continue;
                }
            };
            if g.apply(action).is_err() {
                prop_assert_eq!(g.events().len(), before_events);
                let after: Vec<CardSet> = Seat::ALL.iter().map(|&s| g.hand(s)).collect();
                prop_assert_eq!(after, before_hands);
            }
            if g.phase() == Phase::Play || g.phase() == Phase::Over {
                let obs = g.observation(Seat::ALL[0]);
                let played = obs.played.iter().fold(CardSet::EMPTY, |a, &p| a + p);
                let held = Seat::ALL.iter().fold(CardSet::EMPTY, |a, &s| a + g.hand(s));
                prop_assert_eq!(played + held, CardSet::DECK);
            }
        }
    }
}
