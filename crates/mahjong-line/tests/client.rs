//! The client side (`arena mahjong bot`): a built-in player served over the protocol sees
//! exactly the view, and gets exactly the legal actions, that the arena would give it, at
//! every question of many random hands, from nothing but the lines of the protocol.

use mahjong::{
    Action, ActionList, Counts, Deal, Discarded, Event, Game, Meld, Phase, Rules, SeenEvent, Tile,
    View,
};
use mahjong_bots::{BotFault, BotRng, Player, Reply};
use mahjong_line::{Client, SeatFeed, ServerMessage, decode_bot_line, decode_server_line};

/// What a seat sees at a decision, as plain data.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seen {
    seat: u8,
    first: u8,
    hand: Counts,
    drawn: Option<Tile>,
    melds: Vec<Vec<Option<Meld>>>,
    discards: Vec<Vec<Discarded>>,
    phase: Phase,
    wall_left: usize,
    /// The seat's events, without other seats' failed chows (which the protocol tells only
    /// the seat that failed).
    events: Vec<SeenEvent>,
    legal: Vec<Action>,
}

fn seen(view: &View<'_>, legal: &ActionList) -> Seen {
    let me = view.seat();
    Seen {
        seat: me,
        first: view.first(),
        hand: *view.hand(),
        drawn: view.drawn(),
        melds: (0..4).map(|s| view.melds(s).collect()).collect(),
        discards: (0..4).map(|s| view.discards(s).to_vec()).collect(),
        phase: view.phase(),
        wall_left: view.wall_left(),
        events: view
            .events()
            .filter(|e| !matches!(e, SeenEvent::ChowFailed { seat } if *seat != me))
            .collect(),
        legal: legal.to_vec(),
    }
}

/// A player that records what it sees and answers at random among the legal actions, wins
/// and claims included.
struct Recorder {
    rng: BotRng,
    seen: Vec<Seen>,
}

impl Player for Recorder {
    fn name(&self) -> String {
        "recorder".into()
    }

    fn start_hand(&mut self, seat: u8, hand_seed: u64) -> Result<(), BotFault> {
        self.rng = BotRng::new(hand_seed, seat);
        Ok(())
    }

    fn decide(&mut self, view: &View<'_>, legal: &ActionList) -> Reply {
        self.seen.push(seen(view, legal));
        let a = legal[self.rng.below(legal.len() as u32) as usize];
        Reply::untimed(a)
    }

    fn end_hand(&mut self, _view: &View<'_>) {}
}

/// Plays `deal` with a client in every seat, fed the lines the arena sends; checks at each
/// question that the client saw the arena's view and legal actions. Returns the events.
fn play_through_clients(deal: &Deal) -> Vec<Event> {
    let mut game = Game::new(deal, Rules::default());
    let mut feeds: Vec<SeatFeed> = (0..4).map(SeatFeed::new).collect();
    let mut clients: Vec<Client<Recorder>> = (0..4)
        .map(|s| {
            let player = Recorder {
                rng: BotRng::new(0, s),
                seen: Vec::new(),
            };
            Client::new(player, mahjong::Reading::Contest, 7)
        })
        .collect();
    let mut legal = ActionList::new();
    let mut lines = Vec::new();
    while !game.is_over() {
        let mut answers = Vec::new();
        for seat in game.deciders().iter() {
            let s = usize::from(seat);
            let view = game.view(seat);
            game.legal_actions(seat, &mut legal);
            lines.clear();
            feeds[s].catch_up(&view, &mut lines);
            let mut answer = None;
            for (i, line) in lines.iter().enumerate() {
                // Through the wire's text, as a program would get it.
                let text = format!("{}\r\n", line.encode());
                let message = decode_server_line(text.trim_end_matches('\n'))
                    .unwrap()
                    .unwrap();
                let reply = clients[s].hear(&message).unwrap_or_else(|e| {
                    panic!("seat {seat} at {line}: {e}");
                });
                assert_eq!(
                    reply.is_some(),
                    i == lines.len() - 1,
                    "only the question is answered: {line}"
                );
                answer = reply;
            }
            let answer = answer.expect("the last line asks");
            let client_seen = clients[s]
                .player()
                .seen
                .last()
                .expect("the player was asked");
            assert_eq!(
                client_seen,
                &seen(&view, &legal),
                "seat {seat} saw another hand"
            );
            let text = answer.encode();
            let m = decode_bot_line(&text).unwrap().unwrap();
            let action = match (m, game.phase()) {
                (mahjong_line::BotMessage::Out(t), _) => Action::Discard(t),
                (mahjong_line::BotMessage::Hu, Phase::Turn { .. }) => Action::SelfDrawnWin,
                (mahjong_line::BotMessage::Hu, _) => Action::Win,
                (mahjong_line::BotMessage::AGang(t), _) => Action::ConcealedKong(t),
                (mahjong_line::BotMessage::JGang(t), _) => Action::AddedKong(t),
                (mahjong_line::BotMessage::Pass, _) => Action::Pass,
                (mahjong_line::BotMessage::Gang, _) => Action::Kong,
                (mahjong_line::BotMessage::Peng, _) => Action::Pung,
                (mahjong_line::BotMessage::Chi(t), _) => Action::Chow(t),
                (mahjong_line::BotMessage::QGang, _) => Action::RobKong,
                (other, _) => panic!("{other:?}"),
            };
            assert!(legal.contains(action), "{action} is legal");
            answers.push((seat, action));
        }
        game.apply(&answers).unwrap();
    }
    game.events().to_vec()
}

#[test]
fn a_served_player_sees_exactly_the_arenas_view_in_random_hands() {
    let mut kinds = [0usize; 6];
    for seed in 0..100 {
        let events = play_through_clients(&Deal::from_seed(seed));
        for e in &events {
            let k = match e {
                Event::Chow { .. } => 0,
                Event::Pung { .. } => 1,
                Event::Kong { .. } => 2,
                Event::ConcealedKong { .. } => 3,
                Event::AddedKong { .. } => 4,
                Event::ChowFailed { .. } => 5,
                _ => continue,
            };
            kinds[k] += 1;
        }
    }
    // The hands went through every kind of claim and kong, hidden kongs of other seats and
    // failed chows included.
    assert!(
        kinds.iter().all(|&n| n > 0),
        "chow, pung, kong, concealed, added, failed: {kinds:?}"
    );
}

#[test]
fn lines_that_make_no_hand_are_an_error_not_a_panic() {
    let player = Recorder {
        rng: BotRng::new(0, 0),
        seen: Vec::new(),
    };
    let mut c = Client::new(player, mahjong::Reading::Contest, 0);
    let e = c
        .hear(&ServerMessage::Pick("1M".parse().unwrap()))
        .unwrap_err();
    assert!(e.to_string().contains("before \"id\""), "{e}");
    c.hear(&ServerMessage::Id(1)).unwrap();
    c.hear(&ServerMessage::First(0)).unwrap();
    let init: [Tile; 13] = mahjong::parse_tiles("1M 1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M E")
        .unwrap()
        .try_into()
        .unwrap();
    c.hear(&ServerMessage::Init(init)).unwrap();
    // A fifth 1M.
    c.hear(&ServerMessage::MPick(0)).unwrap();
    let e = c
        .hear(&ServerMessage::MOut {
            seat: 0,
            tile: "1M".parse().unwrap(),
        })
        .unwrap_err();
    assert!(e.to_string().contains("more than four 1M"), "{e}");
    let e = c.hear(&ServerMessage::MFail).unwrap_err();
    assert!(e.to_string().contains("asked for no chow"), "{e}");
}
