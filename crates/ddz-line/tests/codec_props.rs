//! The codec never panics on any input, and every message survives encode → decode.

use ddz::{CardSet, Rank, RuleSet, Seat};
use ddz_line::{BotMessage, Request, ServerMessage, decode_bot_line};
use proptest::prelude::*;

fn cards() -> impl Strategy<Value = CardSet> {
    proptest::array::uniform15(0u8..=4).prop_map(|mut c| {
        for r in [Rank::BlackJoker, Rank::RedJoker] {
            c[r.index()] = c[r.index()].min(1);
        }
        CardSet::from_counts(&c).expect("counts within a deck")
    })
}

fn nonempty_cards() -> impl Strategy<Value = CardSet> {
    cards().prop_filter("not empty", |c| !c.is_empty())
}

fn seat() -> impl Strategy<Value = Seat> {
    (0u8..3).prop_map(|i| Seat::new(i).expect("seat"))
}

fn rules() -> impl Strategy<Value = RuleSet> {
    any::<[bool; 4]>().prop_map(|b| RuleSet {
        rocket_kickers: b[0],
        adjacent_trio_wings: b[1],
        four_with_two: b[2],
        distinct_single_kickers: b[3],
    })
}

fn request() -> impl Strategy<Value = Request> {
    prop_oneof![
        (any::<u64>(), proptest::collection::vec(0u8..=3, 1..5))
            .prop_map(|(deadline_ms, legal)| Request::Bid { deadline_ms, legal }),
        any::<u64>().prop_map(|deadline_ms| Request::Double { deadline_ms }),
        any::<u64>().prop_map(|deadline_ms| Request::Redouble { deadline_ms }),
        (any::<u64>(), proptest::collection::vec(cards(), 1..40))
            .prop_map(|(deadline_ms, legal)| Request::Play { deadline_ms, legal }),
    ]
}

fn server_message() -> impl Strategy<Value = ServerMessage> {
    prop_oneof![
        any::<u64>().prop_map(|number| ServerMessage::Game { number }),
        rules().prop_map(ServerMessage::Rules),
        seat().prop_map(ServerMessage::Seat),
        nonempty_cards().prop_map(ServerMessage::Hand),
        (seat(), 0u8..=3).prop_map(|(seat, bid)| ServerMessage::Bid { seat, bid }),
        Just(ServerMessage::Redeal),
        (seat(), 0u8..=3, nonempty_cards())
            .prop_map(|(seat, bid, bottom)| ServerMessage::Landlord { seat, bid, bottom }),
        (seat(), any::<bool>()).prop_map(|(seat, double)| ServerMessage::Double { seat, double }),
        (seat(), cards()).prop_map(|(seat, cards)| ServerMessage::Play { seat, cards }),
        (seat(), any::<[i64; 3]>())
            .prop_map(|(winner, scores)| ServerMessage::End { winner, scores }),
        request().prop_map(ServerMessage::Ask),
        Just(ServerMessage::Bye),
    ]
}

fn bot_message() -> impl Strategy<Value = BotMessage> {
    prop_oneof![
        proptest::option::of("[!-~]{1,64}").prop_map(|name| BotMessage::Join { name }),
        (0u8..=3).prop_map(BotMessage::Bid),
        any::<bool>().prop_map(BotMessage::Double),
        cards().prop_map(BotMessage::Play),
    ]
}

/// Strings that look like protocol lines: known words, numbers, cards and noise.
fn line_like() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("join".to_string()),
        Just("bid".to_string()),
        Just("double".to_string()),
        Just("play".to_string()),
        Just("pass".to_string()),
        Just("ask".to_string()),
        Just("rules".to_string()),
        Just("custom".to_string()),
        Just("end".to_string()),
        Just("landlord".to_string()),
        "-?[0-9]{1,22}",
        "[0-9TJQKA2BRtjqkabrx1]{1,25}",
        "\\PC{0,8}",
    ];
    proptest::collection::vec(word, 0..8).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn decoding_any_string_never_panics(s in "\\PC{0,80}|[\\x00-\\x7f]{0,80}") {
        let _ = ServerMessage::decode(&s);
        if let Err(e) = decode_bot_line(&s) {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn decoding_line_like_strings_never_panics_and_reencodes(s in line_like()) {
        if let Ok(Some(m)) = decode_bot_line(&s) {
            prop_assert_eq!(decode_bot_line(&m.encode()), Ok(Some(m)));
        }
        if let Ok(m) = ServerMessage::decode(&s) {
            prop_assert_eq!(ServerMessage::decode(&m.encode()), Ok(m));
        }
    }

    #[test]
    fn server_messages_round_trip(m in server_message()) {
        let line = m.encode();
        prop_assert!(!line.contains('\n'));
        prop_assert_eq!(ServerMessage::decode(&line), Ok(m.clone()));
        prop_assert_eq!(ServerMessage::decode(&format!("{line}\r\n")), Ok(m));
    }

    #[test]
    fn bot_messages_round_trip(m in bot_message()) {
        let line = m.encode();
        prop_assert_eq!(decode_bot_line(&line), Ok(Some(m.clone())));
        prop_assert_eq!(decode_bot_line(&format!("{line}\r\n")), Ok(Some(m)));
    }
}
