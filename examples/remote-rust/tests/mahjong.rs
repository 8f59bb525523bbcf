//! The example's Mahjong player against the platform's own Mahjong table: every answer it gives
//! is one the table accepts, its answer texts read as the messages the platform writes, and
//! hands it plays in every seat end (won or drawn), as they would through bot-host.

use arena_example_remote_bot::Example;
use arena_games::mahjong::{MahjongSpec, MahjongTable, convert};
use arena_proto::v1;
use arena_sdk::mahjong::{action, handler, pb as mahjong_pb};
use arena_table::TableGame;
use mahjong::{Action, Deal, Rules, Tile};

#[test]
fn every_legal_answers_text_reads_as_the_message_the_platform_writes() {
    let t = |s: &str| s.parse::<Tile>().unwrap();
    for a in [
        Action::Discard(t("5S")),
        Action::Discard(t("S")),
        Action::SelfDrawnWin,
        Action::ConcealedKong(t("E")),
        Action::AddedKong(t("3T")),
        Action::Pass,
        Action::Win,
        Action::Kong,
        Action::Pung,
        Action::Chow(t("7M")),
        Action::RobKong,
    ] {
        let sent: mahjong_pb::Action =
            arena_proto::payload::unpack(convert::action(a).game.as_ref(), "action").unwrap();
        assert_eq!(action(&a.to_string()), Ok(sent), "{a}");
    }
}

#[test]
fn the_example_answers_every_request_of_whole_hands_legally_in_every_seat() {
    // Each seat's bot as the connection makes it: through the SDK's Mahjong adapter.
    let games = handler(Example::default);
    let (mut won, mut drawn, mut pungs) = (0, 0, 0);
    for seed in 0..30 {
        let mut t = MahjongTable::new(&MahjongSpec {
            deal: Deal::from_seed(seed),
            rules: Rules::default(),
        });
        let mut id = 0;
        while t.outcome().is_none() {
            let mut answers = Vec::new();
            for p in t.pending() {
                id += 1;
                let req = v1::DecisionRequest {
                    request_id: id,
                    table_id: format!("example-{seed}"),
                    seat: p.seat,
                    game: "mahjong".into(),
                    kind: p.kind as i32,
                    deadline_ms: 1000,
                    observation: Some(t.observation(p.seat)),
                };
                let answer = games.make().decide(&req);
                let a = t
                    .decode(&p, &answer)
                    .unwrap_or_else(|f| panic!("seed {seed}, request {id}: {f:?}"));
                pungs += usize::from(a == Action::Pung);
                answers.push((p, a));
            }
            t.check_and_apply(&answers).unwrap();
        }
        let end = v1::TableEnd {
            outcome: t.outcome(),
            ..Default::default()
        };
        let o = arena_sdk::mahjong::outcome(&end)
            .unwrap()
            .expect("a Mahjong outcome");
        if o.winner.is_some() {
            won += 1
        } else {
            drawn += 1
        }
    }
    // The rule wins when it can and claims pairs: over 30 hands it does both.
    assert!(
        won > 0 && pungs > 0,
        "won {won}, drawn {drawn}, pungs {pungs}"
    );
}
