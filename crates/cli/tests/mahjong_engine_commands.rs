//! The `arena mahjong` engine commands as users call them: deal, selfplay, legal, shanten.

mod common;

use common::arena;

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s.trim().lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {s}"))
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_deal_is_reproducible_and_holds_the_whole_wall() {
    let (out, _, ok) = arena(&["mahjong", "deal", "--seed", "42", "--json"]);
    assert!(ok);
    let (again, _, _) = arena(&["mahjong", "deal", "--seed", "42", "--json"]);
    assert_eq!(out, again);
    let d = json(&out);
    assert!(d["first"].as_u64().unwrap() < 4);
    let hands = strings(&d["hands"]);
    assert_eq!(hands.len(), 4);
    let mut all: Vec<String> = Vec::new();
    for h in &hands {
        assert_eq!(h.split(' ').count(), 13, "{h}");
        all.extend(h.split(' ').map(String::from));
    }
    let draws: Vec<&str> = d["draws"].as_str().unwrap().split(' ').collect();
    assert_eq!(draws.len(), 84);
    all.extend(draws.iter().map(|s| s.to_string()));
    for t in mahjong::Tile::all() {
        assert_eq!(
            all.iter().filter(|x| **x == t.to_string()).count(),
            4,
            "{t}"
        );
    }
    let (other, _, _) = arena(&["mahjong", "deal", "--seed", "43", "--json"]);
    assert_ne!(json(&other)["wall"], d["wall"]);
    let (text, _, ok) = arena(&["mahjong", "deal", "--seed", "42"]);
    assert!(
        ok && text.contains("draws first") && text.contains("seat 3"),
        "{text}"
    );
}

#[test]
fn selfplay_reports_hands_per_second_and_how_hands_ended() {
    let (out, err, ok) = arena(&[
        "mahjong", "selfplay", "--games", "200", "--bot", "random", "--json",
    ]);
    assert!(ok, "{err}");
    let s = json(&out);
    assert_eq!(s["hands"], 200);
    assert!(s["hands_per_second"].as_f64().unwrap() > 0.0);
    let (win, drawn) = (
        s["win_rate"].as_f64().unwrap(),
        s["drawn_rate"].as_f64().unwrap(),
    );
    assert!((win + drawn - 1.0).abs() < 1e-9, "{s}");
    assert!(win > 0.0, "random bots win some hands: {s}");
    // The same seed plays the same hands.
    let (again, _, _) = arena(&[
        "mahjong", "selfplay", "--games", "200", "--bot", "random", "--json",
    ]);
    assert_eq!(json(&again)["win_rate"], s["win_rate"]);
    assert_eq!(json(&again)["events_per_hand"], s["events_per_hand"]);
}

#[test]
fn selfplay_refuses_an_unknown_bot_by_name() {
    let (_, err, ok) = arena(&["mahjong", "selfplay", "--games", "1", "--bot", "nobody"]);
    assert!(!ok);
    assert!(
        err.contains("\"nobody\" is no built-in Mahjong bot") && err.contains("random"),
        "{err}"
    );
    let (_, err, ok) = arena(&["mahjong", "selfplay", "--fans", "2016"]);
    assert!(!ok);
    assert!(err.contains("contest, seed-2015"), "{err}");
}

#[test]
fn legal_lists_a_turn_a_claim_and_a_rob() {
    // A turn holding four 9M: the discards and the concealed kong, no win.
    let hand = "1M 2M 3M 4S 5S 6S 9M 9M 9M 9M 2M 3M 4M E";
    let (out, err, ok) = arena(&["mahjong", "legal", "--hand", hand, "--json"]);
    assert!(ok, "{err}");
    let a = strings(&json(&out)["actions"]);
    assert!(a.contains(&"concealed-kong 9M".to_string()), "{a:?}");
    assert!(a.contains(&"discard E".to_string()));
    assert!(!a.contains(&"self-drawn-win".to_string()));
    let win = "1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M 5M E E";
    let (out, _, ok) = arena(&["mahjong", "legal", "--hand", win, "--json"]);
    assert!(ok);
    assert!(strings(&json(&out)["actions"]).contains(&"self-drawn-win".to_string()));
    // After a chow or pung, only discards.
    let (out, _, ok) = arena(&["mahjong", "legal", "--hand", win, "--after-claim", "--json"]);
    assert!(ok);
    assert!(
        strings(&json(&out)["actions"])
            .iter()
            .all(|a| a.starts_with("discard "))
    );

    // Answering a discard of 4M from the previous seat, holding three: kong, pung, chows.
    let ready = "2M 3M 4M 4M 5M 6M 7M 8M 9M E E E W";
    let (out, err, ok) = arena(&[
        "mahjong",
        "legal",
        "--hand",
        "2M 3M 4M 4M 5M 6M 7M 8M 9M E E 4M W",
        "--discard",
        "4M",
        "--next",
        "--json",
    ]);
    assert!(ok, "{err}");
    let a = strings(&json(&out)["actions"]);
    assert_eq!(a, ["pass", "kong", "pung", "chow 2M", "chow 3M", "chow 4M"]);
    let (out, _, _) = arena(&[
        "mahjong",
        "legal",
        "--hand",
        ready,
        "--discard",
        "W",
        "--json",
    ]);
    assert_eq!(strings(&json(&out)["actions"]), ["pass", "win"]);
    // Not the next seat: no chow.
    let (out, _, _) = arena(&[
        "mahjong",
        "legal",
        "--hand",
        ready,
        "--discard",
        "5M",
        "--json",
    ]);
    assert_eq!(strings(&json(&out)["actions"]), ["pass"]);
    // With a melded pung of E and the kong being added elsewhere: robbing on W.
    let (out, err, ok) = arena(&[
        "mahjong",
        "legal",
        "--hand",
        "2M 3M 4M 5M 6M 7M 9M 9M 9M W",
        "--melds",
        "pung E",
        "--rob",
        "W",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert_eq!(strings(&json(&out)["actions"]), ["pass", "rob-kong"]);
    let (text, _, ok) = arena(&["mahjong", "legal", "--hand", ready, "--discard", "W"]);
    assert!(
        ok && text.contains("win\n") && text.contains("2 legal actions"),
        "{text}"
    );
}

#[test]
fn legal_and_shanten_name_what_is_wrong_with_the_input() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["mahjong", "legal", "--hand", "1M 2M 0T"],
            "\"0T\" (token 3) is not a tile",
        ),
        (
            &["mahjong", "legal", "--hand", "1M 2M 3M"],
            "--hand has 3 tiles",
        ),
        (
            &[
                "mahjong",
                "legal",
                "--hand",
                "1M 1M 1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M E",
            ],
            "5 of 1M",
        ),
        (
            &[
                "mahjong",
                "legal",
                "--hand",
                "1M 2M 3M 4M 5M 6M 7M 8M 9M E E E E",
                "--discard",
                "E",
            ],
            "5 of E",
        ),
        (
            &[
                "mahjong",
                "legal",
                "--hand",
                "E E",
                "--melds",
                "pung E, trio 2S",
            ],
            "\"trio 2S\" is not a meld",
        ),
        (
            &["mahjong", "legal", "--hand", "E", "--melds", "chow 8S"],
            "\"chow 8S\" is not a meld",
        ),
        (
            &["mahjong", "legal", "--hand", "E", "--discard", "X"],
            "\"X\" (token 1) is not a tile",
        ),
        (
            &["mahjong", "shanten", "--hand", "1M 2M 3M"],
            "--hand has 3 tiles",
        ),
        (
            &["mahjong", "shanten", "--hand", "5S 5S 5S 5S 5S"],
            "5 of 5S",
        ),
        (
            &["mahjong", "shanten", "--hand", "1M 2m"],
            "\"2m\" (token 2) is not a tile",
        ),
    ];
    for (args, want) in cases {
        let (_, err, ok) = arena(args);
        assert!(!ok, "{args:?} should fail");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (_, err, ok) = arena(&["mahjong", "legal", "--hand", "E", "--next"]);
    assert!(!ok && err.contains("--discard"), "{err}");
}

#[test]
fn shanten_gives_waits_and_the_best_discards() {
    let (out, _, ok) = arena(&[
        "mahjong",
        "shanten",
        "--hand",
        "1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E",
        "--json",
    ]);
    assert!(ok);
    let s = json(&out);
    assert_eq!(s["shanten"], 0);
    assert_eq!(strings(&s["waits"]), ["2M", "5M"]);
    let (out, _, ok) = arena(&[
        "mahjong",
        "shanten",
        "--hand",
        "1M 2M 3M 4S 5S 6S 6T 7T 8T 3M 4M E E 9S",
        "--json",
    ]);
    assert!(ok);
    let s = json(&out);
    assert_eq!(s["shanten"], 0);
    assert_eq!(s["discards"][0]["discard"], "9S");
    assert_eq!(strings(&s["discards"][0]["waits"]), ["2M", "5M"]);
    let (text, _, ok) = arena(&[
        "mahjong",
        "shanten",
        "--hand",
        "1M 9M 1S 9S 1T 9T E S W N Z F B B",
    ]);
    assert!(ok && text.starts_with("shanten -1"), "{text}");
    // The 2015 reading's loose thirteen orphans.
    let loose = "1M 1M 1M 9M 1S 9S 1T 9T E S W N Z F";
    let (text, _, _) = arena(&["mahjong", "shanten", "--hand", loose]);
    assert!(!text.starts_with("shanten -1"), "{text}");
    let (text, _, _) = arena(&["mahjong", "shanten", "--hand", loose, "--fans", "seed-2015"]);
    assert!(text.starts_with("shanten -1"), "{text}");
}
