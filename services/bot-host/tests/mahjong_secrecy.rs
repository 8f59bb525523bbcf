//! No seat is ever sent another seat's concealed tiles or the wall's order: whole Mahjong hands
//! through bot-host, every byte each seat receives inspected, over gRPC (what a remote bot reads
//! on its `BotGateway.Play` stream, as the bytes that came) and over the line protocol (what a
//! program reads on its stdin, teed to a file).
//!
//! How. A hand is played through the services and everything sent to each seat is captured.
//! The hand is then replayed offline with the same answers, in the world it was played in
//! (world A) and in worlds B that differ from it only in what some seat may not know: two tiles
//! of the wall exchanged (another seat's concealed tiles, another seat's draws, tiles still in
//! the wall), or two kinds exchanged everywhere, answers included (what another seat's
//! concealed kong is of). The captured bytes must be exactly what world A's replay sends, and
//! each seat must be sent in world B byte for byte what it is sent in world A for as long as
//! what it may know is the same in both: its own tiles and draws, every event in the open, and,
//! once the hand is over, its outcome as the rules scored it (the fans, which the winner's hand
//! decides). A message that differed would tell the worlds apart: it would carry something the
//! seat may not know. As the captured messages are compared in order, the outcome is also shown
//! to reach a seat only in the last message, after its last request.
//!
//! That check can fail: deliberately leaky messages (another seat's hand, the next tile of the
//! wall, other seats' draws, another seat's concealed kong, every hand at the end) are run
//! through the same worlds and each must be caught.

mod common;

use std::path::Path;
use std::time::Duration;

use arena_games::mahjong::convert;
use arena_games::mahjong::request::MahjongRequest;
use arena_games::mahjong::spec::MahjongSpec;
use arena_games::mahjong::table::MahjongTable;
use arena_games::validate;
use arena_line::LineProtocol;
use arena_proto::v1;
use arena_table::{Answer, Reply, Request, Table, TableGame, TimeRules};
use common::*;
use mahjong::{Action, Counts, Deal, Event, Tile, Wall};
use mahjong_line::MahjongLine;
use prost::Message;
use prost::bytes::Buf;
use tokio::task::JoinHandle;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tonic::Status;
use tonic::codec::{Codec, DecodeBuf, Decoder, EncodeBuf, Encoder};

// ---------------------------------------------------------------------------------------------
// What a seat may know.

/// `e` as `viewer` may know it: another seat's draw and concealed kong without their tile.
/// (Written here, not taken from the rules crate's own masking: this is what the test holds
/// the platform to.)
fn as_known_by(e: Event, viewer: u8) -> Event {
    // A stand-in: masked events are only ever compared with masked events.
    const UNKNOWN: Tile = Tile::EAST;
    match e {
        Event::Draw { seat, .. } if seat != viewer => Event::Draw {
            seat,
            tile: UNKNOWN,
        },
        Event::ConcealedKong { seat, .. } if seat != viewer => Event::ConcealedKong {
            seat,
            tile: UNKNOWN,
        },
        e => e,
    }
}

/// What every seat learns when the hand is over: its outcome as the rules scored it (the
/// winner, the winning tile, each fan — which the winner's hand decides — and the scores).
fn outcome(g: &mahjong::Game) -> Option<mahjong::Outcome> {
    g.outcome().cloned()
}

// ---------------------------------------------------------------------------------------------
// A hand replayed offline.

/// Which messages a replay writes: a remote bot's (gRPC) or a program's (its stdin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wire {
    Grpc,
    Line,
}

/// A deliberately leaky message, to show that the check catches what it is there to catch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Leak {
    /// The messages as the platform sends them.
    None,
    /// Each request also names the concealed tiles of the next seat.
    NextSeatsHand,
    /// Each request also names the next tile of the wall.
    NextDraw,
    /// Each request also names every tile other seats drew.
    OthersDraws,
    /// Each request also names the kind of other seats' concealed kongs.
    ConcealedKongs,
    /// The end of the hand also shows every seat's concealed tiles.
    EveryHandAtTheEnd,
}

/// The leaks a wire could carry (a program is told nothing at the end of a hand).
fn leaks(wire: Wire) -> Vec<Leak> {
    let mut all = vec![
        Leak::NextSeatsHand,
        Leak::NextDraw,
        Leak::OthersDraws,
        Leak::ConcealedKongs,
    ];
    if wire == Wire::Grpc {
        all.push(Leak::EveryHandAtTheEnd);
    }
    all
}

/// What `leak` would add to a request to `seat` in `g`'s state (`None`: nothing to add).
fn secret(leak: Leak, g: &mahjong::Game, seat: u8) -> Option<String> {
    let others = |want: fn(&Event) -> Option<(u8, Tile)>| {
        let tiles: Vec<Tile> = g
            .events()
            .iter()
            .filter_map(want)
            .filter(|(s, _)| *s != seat)
            .map(|(_, t)| t)
            .collect();
        (!tiles.is_empty()).then(|| mahjong::tiles_to_string(tiles))
    };
    match leak {
        Leak::None | Leak::EveryHandAtTheEnd => None,
        Leak::NextSeatsHand => Some(convert::counts_text(g.hand((seat + 1) % 4))),
        Leak::NextDraw => {
            let next = g.wall().tiles().len() - g.wall_left();
            g.wall().tiles().get(next).map(|t| t.to_string())
        }
        Leak::OthersDraws => others(|e| match *e {
            Event::Draw { seat, tile } => Some((seat, tile)),
            _ => None,
        }),
        Leak::ConcealedKongs => others(|e| match *e {
            Event::ConcealedKong { seat, tile } => Some((seat, tile)),
            _ => None,
        }),
    }
}

/// How world B differs from the world the hand was played in.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// The tiles at these two positions of the wall exchanged; the answers as they were.
    Positions(usize, usize),
    /// These two kinds exchanged everywhere: in the wall, and in the answers.
    Kinds(Tile, Tile),
}

impl Change {
    fn tile(self, t: Tile) -> Tile {
        match self {
            Change::Kinds(x, y) if t == x => y,
            Change::Kinds(x, y) if t == y => x,
            _ => t,
        }
    }

    fn deal(self, deal: &Deal) -> Deal {
        let mut tiles = *deal.wall.tiles();
        match self {
            Change::Positions(p, q) => tiles.swap(p, q),
            Change::Kinds(..) => tiles.iter_mut().for_each(|t| *t = self.tile(*t)),
        }
        Deal {
            wall: Wall::from_tiles(&tiles).expect("a permuted wall is a wall"),
            first: deal.first,
        }
    }

    fn action(self, a: Action) -> Action {
        match a {
            Action::Discard(t) => Action::Discard(self.tile(t)),
            Action::ConcealedKong(t) => Action::ConcealedKong(self.tile(t)),
            Action::AddedKong(t) => Action::AddedKong(self.tile(t)),
            Action::Chow(t) => Action::Chow(self.tile(t)),
            a => a,
        }
    }
}

/// The hand a replay plays: the job's table id and clock, the seats that are sent messages,
/// and the answers given, in decision order.
struct Hand {
    table_id: String,
    spec: MahjongSpec,
    time: TimeRules,
    /// The seats whose messages are produced (those the test captured).
    seats: Vec<u8>,
    answers: Vec<Action>,
}

impl Hand {
    /// The hand `job` set up, answered as `replay` records.
    fn new(job: &v1::TableJob, replay: &v1::Replay, seats: Vec<u8>) -> Hand {
        let spec = validate(job)
            .expect("a valid job")
            .spec::<arena_games::mahjong::Mahjong>()
            .cloned()
            .expect("a Mahjong job");
        let answers = replay
            .steps
            .iter()
            .map(|s| {
                assert!(
                    !s.automatic && s.verdict.is_none(),
                    "an answered hand: {s:?}"
                );
                convert::action_of(s.action.as_ref().expect("an action")).expect("an action")
            })
            .collect();
        Hand {
            table_id: job.table_id.clone(),
            spec: spec.setup,
            time: spec.time,
            seats,
            answers,
        }
    }
}

/// One world's replay of a [`Hand`], a round at a time.
struct Replayer<'a> {
    hand: &'a Hand,
    change: Option<Change>,
    wire: Wire,
    leak: Leak,
    table: Table<MahjongTable>,
    /// Each seat's line-protocol session, as bot-host keeps one per program.
    lines: [MahjongLine; 4],
}

impl<'a> Replayer<'a> {
    fn new(hand: &'a Hand, change: Option<Change>, wire: Wire, leak: Leak) -> Replayer<'a> {
        let spec = MahjongSpec {
            deal: change.map_or(hand.spec.deal, |c| c.deal(&hand.spec.deal)),
            rules: hand.spec.rules,
        };
        Replayer {
            hand,
            change,
            wire,
            leak,
            table: Table::new(MahjongTable::new(&spec), hand.time, None),
            lines: [0, 1, 2, 3].map(MahjongLine::new),
        }
    }

    fn game(&self) -> &mahjong::Game {
        self.table.game().game()
    }

    fn to_bot(msg: v1::host_to_bot::Msg) -> Vec<u8> {
        v1::HostToBot { msg: Some(msg) }.encode_to_vec()
    }

    /// What `seat` is sent when its table starts (a program: nothing).
    fn start(&self, seat: u8) -> Vec<u8> {
        match self.wire {
            Wire::Line => Vec::new(),
            Wire::Grpc => Self::to_bot(v1::host_to_bot::Msg::Start(v1::TableStart {
                table_id: self.hand.table_id.clone(),
                seat: u32::from(seat),
                game: "mahjong".into(),
                time: Some(self.hand.time.to_proto()),
            })),
        }
    }

    /// What the seat of `r` is sent to ask it.
    fn ask(&mut self, r: &Request) -> Vec<u8> {
        let seat = r.seat as u8;
        let request = v1::DecisionRequest {
            request_id: u64::from(r.index),
            table_id: self.hand.table_id.clone(),
            seat: r.seat,
            game: "mahjong".into(),
            kind: r.kind as i32,
            deadline_ms: self.hand.time.limit_ms(r.kind),
            observation: Some(self.table.game().observation(r.seat)),
        };
        let leaked = secret(self.leak, self.game(), seat).map(|s| format!("leak {s}"));
        match self.wire {
            Wire::Grpc => {
                let mut request = request;
                if let Some(text) = leaked {
                    arena_games::mahjong::convert::edit_observation(&mut request, |o| {
                        o.legal.push(text)
                    });
                }
                Self::to_bot(v1::host_to_bot::Msg::Request(request))
            }
            Wire::Line => {
                // As bot-host's program seat puts a request to its program.
                let read = MahjongRequest::from_request(&request).expect("a valid request");
                let view = read.view();
                let line = &mut self.lines[usize::from(seat)];
                let mut out = Vec::new();
                line.catch_up(&view, &mut out);
                line.ask(&view, Duration::from_millis(1000), &mut out);
                out.extend(leaked);
                line.framing().join(&out).into_bytes()
            }
        }
    }

    /// What `seat` is sent when the table ends (a program: nothing).
    fn end(&self, seat: u8) -> Vec<u8> {
        if self.wire == Wire::Line {
            return Vec::new();
        }
        let mut outcome = self.table.outcome().cloned();
        if let (Leak::EveryHandAtTheEnd, Some(o)) = (self.leak, outcome.as_mut()) {
            let g = self.game();
            for s in 0..4 {
                o.scoring.push_str(&convert::counts_text(g.hand(s)));
            }
        }
        Self::to_bot(v1::host_to_bot::Msg::End(v1::TableEnd {
            table_id: self.hand.table_id.clone(),
            seat: u32::from(seat),
            outcome,
            verdicts: self.table.verdicts().to_vec(),
        }))
    }

    /// The answers to round `requests` in this world; `None` if one is not legal here (the
    /// worlds part in the open from this round on).
    fn answers(&self, requests: &[Request]) -> Option<Vec<Action>> {
        requests
            .iter()
            .map(|r| {
                let a = self.hand.answers[r.index as usize];
                let a = self.change.map_or(a, |c| c.action(a));
                self.table.game().check(&r.pending(), &a).ok().map(|()| a)
            })
            .collect()
    }

    fn settle(&mut self, answers: Vec<Action>) {
        let replies = answers
            .into_iter()
            .map(|a| Reply::new(Answer::Action(a), Duration::ZERO))
            .collect();
        self.table.settle(replies);
    }
}

/// Messages, each to a seat.
type ToSeats = Vec<(u8, Vec<u8>)>;

/// One round of world A: the decisions asked, how many events had happened by then, and the
/// messages that asked them.
struct Round {
    asked: Vec<Request>,
    events: usize,
    sent: ToSeats,
}

/// Everything world A sends, and what is public when.
struct Sent {
    start: ToSeats,
    rounds: Vec<Round>,
    end: ToSeats,
    events: Vec<Event>,
    initial: [Counts; 4],
    outcome: Option<mahjong::Outcome>,
}

impl Sent {
    /// Every message to `seat`, in order.
    fn to(&self, seat: u8) -> Vec<&[u8]> {
        std::iter::once(&self.start)
            .chain(self.rounds.iter().map(|r| &r.sent))
            .chain(std::iter::once(&self.end))
            .flatten()
            .filter(|(s, b)| *s == seat && !b.is_empty())
            .map(|(_, b)| b.as_slice())
            .collect()
    }
}

/// Replays `hand` in the world it was played in.
fn world_a(hand: &Hand, wire: Wire, leak: Leak) -> Sent {
    let mut w = Replayer::new(hand, None, wire, leak);
    let start = hand.seats.iter().map(|&s| (s, w.start(s))).collect();
    let mut rounds = Vec::new();
    while let Some(requests) = w.table.next_round() {
        let events = w.game().events().len();
        let sent = requests
            .iter()
            .filter(|r| hand.seats.contains(&(r.seat as u8)))
            .map(|r| (r.seat as u8, w.ask(r)))
            .collect();
        let answers = w
            .answers(&requests)
            .expect("the recorded answers are legal where they were given");
        rounds.push(Round {
            asked: requests,
            events,
            sent,
        });
        w.settle(answers);
    }
    assert!(
        w.table.outcome().is_some(),
        "the replay ends as the hand did"
    );
    let g = w.game();
    Sent {
        start,
        end: hand.seats.iter().map(|&s| (s, w.end(s))).collect(),
        events: g.events().to_vec(),
        initial: [0, 1, 2, 3].map(|s| g.wall().initial_counts(s)),
        outcome: outcome(g),
        rounds,
    }
}

/// What comparing world A with one world B showed.
#[derive(Debug, Default)]
struct Compared {
    /// Messages found equal while their seat could not tell the worlds apart.
    messages: usize,
    /// Of those, messages that ended the hand.
    ends: usize,
}

/// Replays `hand` in the world `change` makes and compares what each seat is sent there with
/// what it is sent in world A (`a`), for as long as the seat may know nothing that differs
/// between the two. `Err` says which message told the worlds apart.
fn compare(
    hand: &Hand,
    a: &Sent,
    change: Change,
    wire: Wire,
    leak: Leak,
) -> Result<Compared, String> {
    let mut b = Replayer::new(hand, Some(change), wire, leak);
    let initial = [0, 1, 2, 3].map(|s| b.game().wall().initial_counts(s));
    // Seats that cannot tell the worlds apart yet, and how many events each has checked.
    let mut blind: Vec<(u8, usize)> = hand
        .seats
        .iter()
        .filter(|&&s| initial[usize::from(s)] == a.initial[usize::from(s)])
        .map(|&s| (s, 0))
        .collect();
    let mut done = Compared::default();
    let told = |what: &str, seat: u8| {
        format!(
            "{change:?} ({leak:?}): seat {seat} was sent a different {what} in world B, which it could not tell from world A"
        )
    };
    for (s, bytes) in &a.start {
        if blind.iter().any(|(b, _)| b == s) {
            if b.start(*s) != *bytes {
                return Err(told("start", *s));
            }
            done.messages += 1;
        }
    }
    let mut parted = false;
    for Round {
        asked: requests,
        events,
        sent,
    } in &a.rounds
    {
        // Events happen in the open (their number included): the worlds part when they do.
        let events_b = b.game().events();
        let now = events_b.len();
        if now != *events || parted {
            return Ok(done);
        }
        blind.retain_mut(|(seat, checked)| {
            let same = (*checked..now)
                .all(|i| as_known_by(a.events[i], *seat) == as_known_by(events_b[i], *seat));
            *checked = now;
            same
        });
        if blind.is_empty() {
            return Ok(done);
        }
        let Some(asked) = b.table.next_round() else {
            return Err(format!(
                "{change:?}: the hand ended in world B where it went on in world A, which seats {blind:?} could not tell apart"
            ));
        };
        if asked != *requests {
            return Err(format!(
                "{change:?}: world B asks {asked:?} where world A asked {requests:?}, which seats {blind:?} could not tell apart (request ids would tell)"
            ));
        }
        for (seat, bytes) in sent {
            if blind.iter().any(|(b, _)| b == seat) {
                let r = requests
                    .iter()
                    .find(|r| r.seat == u32::from(*seat))
                    .expect("the request of the seat");
                if b.ask(r) != *bytes {
                    return Err(told(&format!("request {}", r.index), *seat));
                }
                done.messages += 1;
            }
        }
        match b.answers(requests) {
            Some(answers) => b.settle(answers),
            None => parted = true,
        }
    }
    if parted || b.game().events().len() != a.events.len() || b.table.next_round().is_some() {
        return Ok(done);
    }
    let ended = outcome(b.game());
    for (seat, bytes) in &a.end {
        let checked = blind.iter().find(|(b, _)| b == seat).map(|(_, c)| *c);
        let Some(checked) = checked else { continue };
        let same = (checked..a.events.len())
            .all(|i| as_known_by(a.events[i], *seat) == as_known_by(b.game().events()[i], *seat))
            && ended == a.outcome;
        if same {
            if b.end(*seat) != *bytes {
                return Err(told("end of the hand", *seat));
            }
            done.messages += 1;
            done.ends += 1;
        }
    }
    Ok(done)
}

/// A message as a failure shows it.
fn shown(wire: Wire, bytes: &[u8]) -> String {
    match wire {
        Wire::Grpc => format!("{:?}", v1::HostToBot::decode(bytes)),
        Wire::Line => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// A small generator for choosing worlds (xorshift).
struct Draws(u64);

impl Draws {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The worlds B a hand is compared with: `n` exchanges of two positions of different kinds,
/// and for each concealed kong of the hand its kind exchanged with every other kind.
fn worlds(hand: &Hand, a: &Sent, n: usize) -> Vec<Change> {
    let tiles = hand.spec.deal.wall.tiles();
    // Never zero, where xorshift would stay.
    let mut draws = Draws((0x5eed ^ hand.spec.deal.fingerprint()) | 1);
    let mut out = Vec::new();
    while out.len() < n {
        let (p, q) = (draws.below(tiles.len()), draws.below(tiles.len()));
        if tiles[p] != tiles[q] {
            out.push(Change::Positions(p, q));
        }
    }
    for e in &a.events {
        if let Event::ConcealedKong { tile, .. } = *e {
            out.extend(
                Tile::all()
                    .filter(|&t| t != tile)
                    .map(|t| Change::Kinds(tile, t)),
            );
        }
    }
    out
}

/// The check of one wire over played hands: each hand's captured messages are exactly world
/// A's, no world B tells any seat anything it may not know, and every deliberate leak is
/// caught by the same comparison. The hands must have held events of every kind in
/// `kinds_needed` (`Chow`, `ConcealedKong`…), so that what they show is shown of each.
fn check_hands(wire: Wire, hands: &[(Hand, Vec<Vec<Vec<u8>>>)], kinds_needed: &[&str]) {
    let mut compared = Compared::default();
    let mut kinds = std::collections::BTreeSet::new();
    let mut caught = std::collections::BTreeMap::new();
    for (hand, captured) in hands {
        let a = world_a(hand, wire, Leak::None);
        for (i, &seat) in hand.seats.iter().enumerate() {
            let want = a.to(seat);
            let got: Vec<&[u8]> = captured[i].iter().map(Vec::as_slice).collect();
            assert_eq!(
                got.len(),
                want.len(),
                "{}: seat {seat} was sent {} messages, the hand sends {}",
                hand.table_id,
                got.len(),
                want.len()
            );
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    g == w,
                    "{}: message {k} to seat {seat} is not what the hand sends it:\n got {}\nwant {}",
                    hand.table_id,
                    shown(wire, g),
                    shown(wire, w)
                );
            }
        }
        kinds.extend(a.events.iter().map(|e| {
            let name = format!("{e:?}");
            name.split([' ', '{'])
                .next()
                .unwrap_or_default()
                .to_string()
        }));
        let changes = worlds(hand, &a, 150);
        for &change in &changes {
            match compare(hand, &a, change, wire, Leak::None) {
                Ok(c) => {
                    compared.messages += c.messages;
                    compared.ends += c.ends;
                }
                Err(leak) => panic!("{}: {leak}", hand.table_id),
            }
        }
        for leak in leaks(wire) {
            if caught.contains_key(&format!("{leak:?}")) {
                continue;
            }
            let a = world_a(hand, wire, leak);
            if let Some(why) = changes
                .iter()
                .find_map(|&c| compare(hand, &a, c, wire, leak).err())
            {
                caught.insert(format!("{leak:?}"), why);
            }
        }
    }
    eprintln!(
        "{wire:?}: {} messages compared across worlds ({} ends); events {kinds:?}; leaks caught: {caught:#?}",
        compared.messages, compared.ends
    );
    // The hands went through what they are there to show, the worlds reached it, and every
    // leak was caught.
    for k in kinds_needed {
        assert!(
            kinds.contains(*k),
            "{wire:?}: no {k} in the hands ({kinds:?}); if the bots now play otherwise, choose seeds whose hands have one"
        );
    }
    assert!(compared.messages > 1000, "{compared:?}");
    assert!(compared.ends > 0, "{compared:?}");
    for leak in leaks(wire) {
        assert!(
            caught.contains_key(&format!("{leak:?}")),
            "{wire:?}: the leak {leak:?} went unnoticed (events {kinds:?}); the hands may need a concealed kong, or the check is broken"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// A remote bot that keeps every message it is sent as the bytes that came.

/// Encodes what the bot sends as usual and hands back what bot-host sends undecoded.
#[derive(Clone, Copy, Default)]
struct RawCodec;

struct ProstOut;
struct RawIn;

impl Encoder for ProstOut {
    type Item = v1::BotToHost;
    type Error = Status;

    fn encode(&mut self, item: v1::BotToHost, dst: &mut EncodeBuf<'_>) -> Result<(), Status> {
        item.encode(dst)
            .map_err(|e| Status::internal(format!("encoding: {e}")))
    }
}

impl Decoder for RawIn {
    type Item = Vec<u8>;
    type Error = Status;

    fn decode(&mut self, src: &mut DecodeBuf<'_>) -> Result<Option<Vec<u8>>, Status> {
        Ok(Some(src.copy_to_bytes(src.remaining()).to_vec()))
    }
}

impl Codec for RawCodec {
    type Encode = v1::BotToHost;
    type Decode = Vec<u8>;
    type Encoder = ProstOut;
    type Decoder = RawIn;

    fn encoder(&mut self) -> ProstOut {
        ProstOut
    }

    fn decoder(&mut self) -> RawIn {
        RawIn
    }
}

/// Connects `bot` (listing Mahjong) and plays one table with the built-in bot `plays`
/// deciding from each request; every message bot-host sent it, as bytes, pings and the
/// welcome left out once checked to carry nothing of the table.
fn raw_bot(
    host: &Host,
    bot: &str,
    token: String,
    plays: &str,
    welcomed: tokio::sync::oneshot::Sender<()>,
) -> JoinHandle<Vec<Vec<u8>>> {
    let mut welcomed = Some(welcomed);
    let url = host.url();
    let bot = bot.to_string();
    let spec = arena_games::mahjong::GAME
        .builtin(plays)
        .expect("a Mahjong bot")
        .expect("its spec");
    tokio::spawn(async move {
        let channel = tonic::transport::Endpoint::from_shared(url)
            .unwrap()
            .connect()
            .await
            .expect("the bot port");
        let mut grpc = tonic::client::Grpc::new(channel);
        grpc.ready().await.expect("ready");
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let send = |msg| tx.send(v1::BotToHost { msg: Some(msg) }).expect("open");
        send(v1::bot_to_host::Msg::Hello(v1::Hello {
            bot: bot.clone(),
            release: "secrecy".into(),
            capacity: 1,
            resume_session: String::new(),
            games: vec!["mahjong".to_string()],
            incremental_observations: false,
        }));
        let mut request = tonic::Request::new(UnboundedReceiverStream::new(rx));
        request.metadata_mut().insert(
            "authorization",
            format!("Bearer {token}").parse().expect("ascii"),
        );
        let path =
            tonic::codegen::http::uri::PathAndQuery::from_static("/arena.v1.BotGateway/Play");
        let mut inbound = grpc
            .streaming(request, path, RawCodec)
            .await
            .expect("the bot is let in")
            .into_inner();
        let mut decider = spec.request_bot(7).expect("a built-in bot");
        let mut kept = Vec::new();
        while let Some(raw) = inbound.message().await.expect("the stream holds") {
            let msg = v1::HostToBot::decode(raw.as_slice())
                .expect("a message")
                .msg
                .expect("a message that says something");
            // Nothing is lost in reading: the bytes are exactly the message as understood.
            assert_eq!(
                v1::HostToBot {
                    msg: Some(msg.clone())
                }
                .encode_to_vec(),
                raw,
                "{bot}: bytes beyond what the protocol defines"
            );
            match msg {
                v1::host_to_bot::Msg::Ping(p) => {
                    send(v1::bot_to_host::Msg::Pong(v1::Pong { nonce: p.nonce }));
                }
                v1::host_to_bot::Msg::Welcome(w) => {
                    assert!(w.resumed.is_empty(), "{w:?}");
                    assert_eq!(w.bot, bot);
                    if let Some(w) = welcomed.take() {
                        let _ = w.send(());
                    }
                }
                v1::host_to_bot::Msg::Request(r) => {
                    let action = decider.decide(&r).expect("a valid request");
                    send(v1::bot_to_host::Msg::Reply(v1::DecisionReply {
                        request_id: r.request_id,
                        table_id: r.table_id.clone(),
                        action: Some(action),
                    }));
                    kept.push(raw);
                }
                v1::host_to_bot::Msg::Start(_) => kept.push(raw),
                v1::host_to_bot::Msg::End(_) => {
                    kept.push(raw);
                    return kept;
                }
                v1::host_to_bot::Msg::Notice(n) => panic!("{bot}: a notice: {n:?}"),
            }
        }
        panic!("{bot}: the stream ended before the table did");
    })
}

/// The kinds of event both tests' hands hold between them; the remote bots' hands add an
/// exposed kong, the programs' a drawn hand.
const EVENTS: [&str; 6] = [
    "Chow",
    "Pung",
    "ConcealedKong",
    "AddedKong",
    "ChowFailed",
    "Win",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_remote_seat_is_sent_anything_of_another_seats_tiles_or_the_wall() {
    // Hands with (between them) every kind of claim and kong, a failed chow and wins.
    const SEEDS: [u64; 4] = [3, 6, 15, 28];
    let host = Host::start(fast_config()).await;
    let plays = ["greedy", "random", "expert", "greedy"];
    let mut hands = Vec::new();
    for seed in SEEDS {
        // Bots of their own for each hand: each bot plays one table and leaves.
        let seats = ["north", "east", "south", "west"].map(|s| format!("{s}-{seed}"));
        let mut bots: Vec<JoinHandle<Vec<Vec<u8>>>> = Vec::new();
        let mut welcomes = Vec::new();
        for (name, plays) in seats.iter().zip(plays) {
            let token = host.add_remote(name, 0).await;
            let (tx, rx) = tokio::sync::oneshot::channel();
            bots.push(raw_bot(&host, name, token, plays, tx));
            welcomes.push(rx);
        }
        // Every bot is in before the table starts: on a loaded machine a connection can take
        // longer than the grace period, which is not what this test is about.
        for w in welcomes {
            within("the bot's welcome", w)
                .await
                .expect("the bot was welcomed");
        }
        let job = mahjong_job(
            &format!("secret-{seed}"),
            seats.each_ref().map(String::as_str),
            seed,
        );
        let (result, replay) = referee_job(&host, &job).await;
        assert!(result.error.is_empty(), "{}", result.error);
        assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
        let mut captured = Vec::new();
        for b in bots {
            captured.push(
                within("the bot's table to end", b)
                    .await
                    .expect("the bot played"),
            );
        }
        hands.push((Hand::new(&job, &replay, vec![0, 1, 2, 3]), captured));
    }
    let mut kinds = EVENTS.to_vec();
    kinds.push("Kong");
    check_hands(Wire::Grpc, &hands, &kinds);
}

// ---------------------------------------------------------------------------------------------
// Programs whose stdin is teed to a file.

/// A program bot: the repository's example Mahjong bot behind `tests/bots/mahjong_tee.py`,
/// which appends every byte of its stdin to `stdin.bin` in `dir` before passing it on.
fn teed_program(dir: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tee = arena_testkit::readable_copy(&root.join("tests/bots/mahjong_tee.py"));
    let bot =
        arena_testkit::readable_copy(&root.join("../../examples/mahjong-python/simple_bot.py"));
    format!(
        "python3 '{}' '{}' python3 '{}'",
        tee.display(),
        dir.join("stdin.bin").display(),
        bot.display()
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_program_seat_is_sent_anything_of_another_seats_tiles_or_the_wall() {
    // Hands with (between them) chows, pungs, concealed and added kongs, a failed chow, wins
    // and a drawn hand.
    const SEEDS: [u64; 4] = [4, 7, 11, 21];
    let host = Host::start(fast_config()).await;
    // Programs in seats 0 and 2, built-in bots (in the referee) in 1 and 3.
    let programs = [(0u8, "teed-a"), (2, "teed-b")];
    let mut hands = Vec::new();
    for seed in SEEDS {
        let mut dirs = Vec::new();
        for (_, name) in programs {
            let dir = program_dir();
            let bot = format!("{name}-{seed}");
            host.add_program_of(
                arena_store::Game::named("mahjong"),
                &bot,
                teed_program(dir.path()),
                Some(dir.path().display().to_string()),
                0,
                0,
                0,
            )
            .await;
            dirs.push((bot, dir));
        }
        let job = mahjong_job(
            &format!("secret-line-{seed}"),
            [dirs[0].0.as_str(), "greedy", dirs[1].0.as_str(), "random"],
            seed,
        );
        let (result, replay) = referee_job(&host, &job).await;
        assert!(result.error.is_empty(), "{}", result.error);
        assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
        let mut captured = Vec::new();
        for (_, dir) in &dirs {
            // Everything it was ever sent is in the file once it is gone.
            wait_none_in(dir.path()).await;
            let bytes = std::fs::read(dir.path().join("stdin.bin")).expect("the teed stdin");
            // The whole stream, cut into its messages below.
            captured.push(vec![bytes]);
        }
        let hand = Hand::new(&job, &replay, programs.iter().map(|(s, _)| *s).collect());
        hands.push((hand, captured));
    }
    // A program's stdin is one stream: compare it whole with what the hand sends, in order.
    let joined: Vec<(Hand, Vec<Vec<Vec<u8>>>)> = hands
        .into_iter()
        .map(|(hand, captured)| {
            let a = world_a(&hand, Wire::Line, Leak::None);
            let split = hand
                .seats
                .iter()
                .zip(&captured)
                .map(|(&seat, got)| split_like(&got[0], &a.to(seat), &hand.table_id, seat))
                .collect();
            (hand, split)
        })
        .collect();
    let mut kinds = EVENTS.to_vec();
    kinds.push("Drawn");
    check_hands(Wire::Line, &joined, &kinds);
}

/// `stream` cut where the messages `like` end, for a message-by-message comparison; the
/// stream must be as long as they are together.
fn split_like(stream: &[u8], like: &[&[u8]], table: &str, seat: u8) -> Vec<Vec<u8>> {
    let total: usize = like.iter().map(|m| m.len()).sum();
    assert_eq!(
        stream.len(),
        total,
        "{table}: seat {seat}'s program read {} bytes, the hand sends it {total}:\n{}",
        stream.len(),
        String::from_utf8_lossy(stream)
    );
    let mut at = 0;
    like.iter()
        .map(|m| {
            let part = stream[at..at + m.len()].to_vec();
            at += m.len();
            part
        })
        .collect()
}
