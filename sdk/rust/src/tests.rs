//! The connection's dispatch by game, without a bot-host: requests handed to a run's
//! [`Player`] as its stream would hand them, the replies read from what it sends.

use std::sync::{Arc, Mutex};

use arena_proto::payload;
use tokio::sync::mpsc::UnboundedReceiver;

use super::*;
use crate::ddz::{DdzBot, pb as ddz_pb};
use crate::mahjong::{MahjongBot, pb as mahjong_pb};

/// What the seats' bots were handed: (game, table, observation as the bot saw it, as Debug).
type Seen = Arc<Mutex<Vec<(&'static str, String, String)>>>;

/// A quick Dou Dizhu bot (answered on the caller's thread, so a test reads its reply at once)
/// that keeps every observation it is handed and plays `play`.
struct DdzRecorder {
    seen: Seen,
    events: Arc<Mutex<Vec<Vec<ddz_pb::Event>>>>,
}

impl DdzBot for DdzRecorder {
    fn play(&mut self, obs: &ddz_pb::Observation) -> String {
        self.seen
            .lock()
            .unwrap()
            .push(("ddz", obs.hand.clone(), format!("{obs:?}")));
        self.events.lock().unwrap().push(obs.events.clone());
        "33".into()
    }

    fn is_quick(&self) -> bool {
        true
    }
}

/// A quick Mahjong bot answering `answer` to every claim, keeping the events it is handed.
struct MahjongRecorder {
    answer: &'static str,
    events: Arc<Mutex<Vec<Vec<mahjong_pb::Event>>>>,
}

impl MahjongBot for MahjongRecorder {
    fn claim(&mut self, obs: &mahjong_pb::Observation) -> String {
        self.events.lock().unwrap().push(obs.events.clone());
        self.answer.into()
    }

    fn is_quick(&self) -> bool {
        true
    }
}

/// Everything a test's bots record.
#[derive(Clone, Default)]
struct Records {
    seen: Seen,
    ddz: Arc<Mutex<Vec<Vec<ddz_pb::Event>>>>,
    mahjong: Arc<Mutex<Vec<Vec<mahjong_pb::Event>>>>,
}

impl Records {
    fn ddz(&self) -> Handler {
        let r = self.clone();
        ddz::handler(move || DdzRecorder {
            seen: r.seen.clone(),
            events: r.ddz.clone(),
        })
    }

    fn mahjong(&self, answer: &'static str) -> Handler {
        let r = self.clone();
        mahjong::handler(move || MahjongRecorder {
            answer,
            events: r.mahjong.clone(),
        })
    }
}

static OPTIONS: std::sync::LazyLock<Options> = std::sync::LazyLock::new(Options::default);

/// A run of `games` with its stream replaced by a channel the test reads.
fn stream(games: Games) -> (Player<'static>, Sender, UnboundedReceiver<v1::BotToHost>) {
    let p = player("http://127.0.0.1:1", "b", "token", &OPTIONS, games).unwrap();
    let (tx, rx) = Sender::detached();
    lock(&p.state).current = Some(tx.clone());
    (p, tx, rx)
}

/// The action of the reply `rx` holds now (none if nothing was sent).
fn reply(rx: &mut UnboundedReceiver<v1::BotToHost>) -> Option<(u64, v1::Action)> {
    match rx.try_recv().ok()?.msg? {
        v1::bot_to_host::Msg::Reply(r) => Some((r.request_id, r.action.unwrap_or_default())),
        other => panic!("not a reply: {other:?}"),
    }
}

fn ddz_event(seat: u32, play: &str) -> ddz_pb::Event {
    ddz_pb::Event {
        seat,
        event: Some(ddz_pb::event::Event::Play(play.into())),
    }
}

fn mahjong_event(seat: u32, tile: &str) -> mahjong_pb::Event {
    mahjong_pb::Event {
        seat,
        kind: mahjong_pb::EventKind::Discard as i32,
        tile: tile.into(),
        ..Default::default()
    }
}

/// A request of `game` at table `table`, seat 0, carrying `obs` and `events` (from event
/// number `from`), as bot-host sends it.
fn request<O: prost::Name, E: prost::Message>(
    id: u64,
    table: &str,
    game: &str,
    kind: v1::DecisionKind,
    obs: &O,
    events: &[E],
    from: u32,
) -> v1::DecisionRequest {
    v1::DecisionRequest {
        request_id: id,
        table_id: table.into(),
        game: game.into(),
        kind: kind as i32,
        observation: Some(v1::Observation {
            game: Some(payload::pack(obs)),
            events: payload::encode_events(events),
            events_from: from,
        }),
        ..Default::default()
    }
}

fn ddz_obs(hand: &str) -> ddz_pb::Observation {
    ddz_pb::Observation {
        hand: hand.into(),
        legal: vec!["33".into()],
        ..Default::default()
    }
}

#[test]
fn hello_lists_the_games_of_the_handlers_given() {
    let records = Records::default();
    let both = Games::new()
        .with(records.mahjong("pass"))
        .with(records.ddz());
    let (p, _, _) = stream(both);
    let hello = p.hello();
    assert_eq!(hello.games, ["ddz", "mahjong"]);
    assert!(hello.incremental_observations);
    // One handler alone is a set of one.
    let (p, _, _) = stream(records.ddz().into());
    assert_eq!(p.hello().games, ["ddz"]);
}

#[test]
fn games_that_cannot_be_played_are_refused_before_connecting() {
    let records = Records::default();
    let twice = Games::new().with(records.ddz()).with(records.ddz());
    let e = player("http://x", "b", "t", &OPTIONS, twice).err().unwrap();
    assert_eq!(
        e.to_string(),
        "two handlers for the game \"ddz\": give one per game"
    );
    assert!(player("http://x", "b", "t", &OPTIONS, Games::new()).is_err());
}

#[test]
fn each_request_goes_to_a_bot_of_its_games_handler_packing_that_games_action() {
    let records = Records::default();
    let (p, tx, mut rx) = stream(
        Games::new()
            .with(records.ddz())
            .with(records.mahjong("pung")),
    );
    let none: [ddz_pb::Event; 0] = [];
    p.take(
        &tx,
        request(
            1,
            "d",
            "ddz",
            v1::DecisionKind::Play,
            &ddz_obs("3"),
            &none,
            0,
        ),
    );
    // An empty game field is Dou Dizhu's.
    p.take(
        &tx,
        request(
            1,
            "old",
            "",
            v1::DecisionKind::Play,
            &ddz_obs("4"),
            &none,
            0,
        ),
    );
    let mj = mahjong_pb::Observation {
        legal: vec!["pass".into(), "pung".into()],
        ..Default::default()
    };
    p.take(
        &tx,
        request(
            2,
            "m",
            "mahjong",
            v1::DecisionKind::Claim,
            &mj,
            &[mahjong_event(1, "1M")],
            0,
        ),
    );
    let (id, ddz) = reply(&mut rx).unwrap();
    assert_eq!(id, 1);
    let ddz: ddz_pb::Action = payload::unpack(ddz.game.as_ref(), "action").unwrap();
    assert_eq!(ddz.action, Some(ddz_pb::action::Action::Play("33".into())));
    let (_, old) = reply(&mut rx).unwrap();
    assert!(payload::is::<ddz_pb::Action>(old.game.as_ref().unwrap()));
    let (id, mahjong) = reply(&mut rx).unwrap();
    assert_eq!(id, 2);
    let mahjong: mahjong_pb::Action = payload::unpack(mahjong.game.as_ref(), "action").unwrap();
    assert_eq!(mahjong.kind(), mahjong_pb::ActionKind::Pung);
    let seen = records.seen.lock().unwrap();
    let hands: Vec<&str> = seen.iter().map(|(_, hand, _)| hand.as_str()).collect();
    assert_eq!(hands, ["3", "4"]);
    assert_eq!(records.mahjong.lock().unwrap().len(), 1);
    // Three seats at three tables: a bot each, made by its game's handler.
    assert_eq!(lock(&p.state).seats.len(), 3);
    assert_eq!(lock(&p.state).summary.answered, 3);
}

#[test]
fn a_seat_whose_table_start_came_first_plays_the_game_it_named() {
    let records = Records::default();
    let (p, tx, mut rx) = stream(
        Games::new()
            .with(records.ddz())
            .with(records.mahjong("win")),
    );
    {
        let mut st = lock(&p.state);
        assert!(p.seat(&mut st, &("m".into(), 0), "mahjong").is_some());
    }
    // The request's game field left empty: the seat's bot is the one its table started with.
    let none: [mahjong_pb::Event; 0] = [];
    let mj = mahjong_pb::Observation::default();
    p.take(
        &tx,
        request(1, "m", "", v1::DecisionKind::Claim, &mj, &none, 0),
    );
    let (_, action) = reply(&mut rx).unwrap();
    let action: mahjong_pb::Action = payload::unpack(action.game.as_ref(), "action").unwrap();
    assert_eq!(action.kind(), mahjong_pb::ActionKind::Win);
}

#[test]
fn a_request_of_a_game_without_a_handler_is_answered_with_an_empty_action() {
    let records = Records::default();
    let (p, tx, mut rx) = stream(records.ddz().into());
    let mj = mahjong_pb::Observation::default();
    let none: [mahjong_pb::Event; 0] = [];
    p.take(
        &tx,
        request(5, "m", "mahjong", v1::DecisionKind::Turn, &mj, &none, 0),
    );
    assert_eq!(reply(&mut rx), Some((5, v1::Action::default())));
    // A table started of a game without a handler gets no bot either; its requests the same.
    {
        let mut st = lock(&p.state);
        assert!(p.seat(&mut st, &("c".into(), 0), "chess").is_none());
    }
    p.take(
        &tx,
        request(6, "c", "chess", v1::DecisionKind::Turn, &mj, &none, 0),
    );
    assert_eq!(reply(&mut rx), Some((6, v1::Action::default())));
    let st = lock(&p.state);
    assert!(st.seats.is_empty() && st.histories.is_empty());
}

#[test]
fn a_request_the_games_bot_cannot_read_is_answered_with_an_empty_action() {
    let records = Records::default();
    let (p, tx, mut rx) = stream(
        Games::new()
            .with(records.ddz())
            .with(records.mahjong("dance")),
    );
    let mj = mahjong_pb::Observation::default();
    let none: [mahjong_pb::Event; 0] = [];
    // A Dou Dizhu request carrying a Mahjong observation; a Mahjong decision asked of Dou
    // Dizhu; an answer that is no Mahjong answer.
    p.take(
        &tx,
        request(1, "a", "ddz", v1::DecisionKind::Play, &mj, &none, 0),
    );
    p.take(
        &tx,
        request(
            2,
            "b",
            "ddz",
            v1::DecisionKind::Claim,
            &ddz_obs("3"),
            &none,
            0,
        ),
    );
    p.take(
        &tx,
        request(3, "c", "mahjong", v1::DecisionKind::Claim, &mj, &none, 0),
    );
    for id in 1..=3 {
        assert_eq!(reply(&mut rx), Some((id, v1::Action::default())));
    }
    assert!(records.seen.lock().unwrap().is_empty());
}

#[test]
fn the_seats_events_are_put_back_into_each_games_observation_also_from_increments() {
    let records = Records::default();
    let (p, tx, mut rx) = stream(
        Games::new()
            .with(records.ddz())
            .with(records.mahjong("pass")),
    );
    let d: Vec<ddz_pb::Event> = (0..3).map(|i| ddz_event(i, "3")).collect();
    let m: Vec<mahjong_pb::Event> = ["1M", "2M", "3M"]
        .iter()
        .enumerate()
        .map(|(i, t)| mahjong_event(i as u32, t))
        .collect();
    let play = v1::DecisionKind::Play;
    let claim = v1::DecisionKind::Claim;
    let mj = mahjong_pb::Observation::default();
    // Whole, then only the new event after the two the seat holds.
    p.take(&tx, request(1, "d", "ddz", play, &ddz_obs("3"), &d[..2], 0));
    p.take(&tx, request(2, "d", "ddz", play, &ddz_obs("3"), &d[2..], 2));
    p.take(&tx, request(1, "m", "mahjong", claim, &mj, &m[..1], 0));
    p.take(&tx, request(2, "m", "mahjong", claim, &mj, &m[1..], 1));
    while reply(&mut rx).is_some() {}
    assert_eq!(*records.ddz.lock().unwrap(), [d[..2].to_vec(), d.clone()]);
    assert_eq!(
        *records.mahjong.lock().unwrap(),
        [m[..1].to_vec(), m.clone()]
    );
}

/// A seat's bot over a long game of increments: each decision decodes only the events new
/// since the last, and the bot still reads every event so far.
#[test]
fn a_long_games_later_decisions_decode_only_their_new_events() {
    /// The Dou Dizhu adapter of a [`DdzRecorder`], reporting after each decision how many
    /// events it has decoded in all.
    struct Counted(ddz::Adapter<DdzRecorder>, Arc<Mutex<Vec<u64>>>);

    impl Bot for Counted {
        fn decide(&mut self, request: &v1::DecisionRequest) -> v1::Action {
            let action = self.0.decide(request);
            self.1.lock().unwrap().push(self.0.events().decodes());
            action
        }

        fn is_quick(&self) -> bool {
            true
        }
    }

    let records = Records::default();
    let decodes = Arc::new(Mutex::new(Vec::new()));
    let (seen, events, counts) = (records.seen.clone(), records.ddz.clone(), decodes.clone());
    let (p, tx, mut rx) = stream(Games::from(Handler::new("ddz", move || {
        Counted(
            ddz::Adapter::new(DdzRecorder {
                seen: seen.clone(),
                events: events.clone(),
            }),
            counts.clone(),
        )
    })));
    let all: Vec<ddz_pb::Event> = (0..150).map(|i| ddz_event(i % 3, "3")).collect();
    let mut through = Vec::new();
    let (mut from, mut id) = (0, 0);
    while from < all.len() {
        // One to three new events a decision, each request carrying only those.
        let to = (from + 1 + id % 3).min(all.len());
        id += 1;
        let r = request(
            id as u64,
            "long",
            "ddz",
            v1::DecisionKind::Play,
            &ddz_obs("3"),
            &all[from..to],
            from as u32,
        );
        p.take(&tx, r);
        assert!(reply(&mut rx).is_some(), "request {id} answered");
        from = to;
        through.push(to as u64);
    }
    assert!(through.len() > 50);
    assert_eq!(
        *decodes.lock().unwrap(),
        through,
        "after each decision, every event decoded once"
    );
    let read = records.ddz.lock().unwrap();
    assert_eq!(read.len(), through.len());
    for (seen, n) in read.iter().zip(&through) {
        assert_eq!(
            seen[..],
            all[..*n as usize],
            "the bot reads every event so far"
        );
    }
}

#[test]
fn a_games_observation_and_outcome_read_from_the_envelopes() {
    let d = [ddz_event(1, "3"), ddz_event(2, "pass")];
    let req = request(1, "t", "ddz", v1::DecisionKind::Play, &ddz_obs("44"), &d, 0);
    let obs = ddz::observation(&req).unwrap();
    assert_eq!((obs.hand.as_str(), obs.events), ("44", d.to_vec()));
    let e = mahjong::observation(&req).unwrap_err();
    assert_eq!(
        e,
        "request 1 of table \"t\": the observation carries a \"arena.ddz.v1.Observation\", not \
         a arena.mahjong.v1.Observation"
    );
    let part = request(1, "t", "ddz", v1::DecisionKind::Play, &ddz_obs("44"), &d, 3);
    assert!(ddz::observation(&part).unwrap_err().contains("incremental"));
    let end = v1::TableEnd {
        outcome: Some(v1::Outcome {
            scores: vec![2, -1, -1],
            game: Some(payload::pack(&ddz_pb::Outcome {
                landlord: 0,
                spring: true,
                ..Default::default()
            })),
            ..Default::default()
        }),
        ..Default::default()
    };
    assert!(ddz::outcome(&end).unwrap().unwrap().spring);
    assert!(mahjong::outcome(&end).is_err());
    assert_eq!(mahjong::outcome(&v1::TableEnd::default()), Ok(None));
}

/// A quick Chinese Standard Mahjong bot claiming with the last legal answer, recording the
/// events it was handed.
struct McrLast(Arc<Mutex<Vec<Vec<crate::mcr::pb::Event>>>>);

impl crate::mcr::McrBot for McrLast {
    fn claim(&mut self, obs: &crate::mcr::pb::Observation) -> String {
        self.0.lock().unwrap().push(obs.events.clone());
        obs.legal.last().cloned().unwrap_or_default()
    }

    fn is_quick(&self) -> bool {
        true
    }
}

#[test]
fn a_mcr_request_goes_to_its_handler_and_is_answered_in_botzone_words() {
    use crate::mcr::pb as mcr_pb;
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    let (p, tx, mut rx) = stream(
        Games::new()
            .with(Records::default().ddz())
            .with(crate::mcr::handler(move || McrLast(seen.clone()))),
    );
    let obs = mcr_pb::Observation {
        legal: vec!["PASS".into(), "CHI  W3 B9".into()],
        ..Default::default()
    };
    let discard = mcr_pb::Event {
        seat: 2,
        kind: mcr_pb::EventKind::Answer as i32,
        answer: "PLAY W4".into(),
        ..Default::default()
    };
    p.take(
        &tx,
        request(
            7,
            "c",
            "mcr",
            v1::DecisionKind::Claim,
            &obs,
            std::slice::from_ref(&discard),
            0,
        ),
    );
    let (id, action) = reply(&mut rx).unwrap();
    assert_eq!(id, 7);
    let action: mcr_pb::Action = payload::unpack(action.game.as_ref(), "action").unwrap();
    assert_eq!(action.answer, "CHI W3 B9");
    assert_eq!(*events.lock().unwrap(), [vec![discard]]);
}
