//! The bodies of arena's fuzz targets, one `pub fn NAME(data: &[u8])` per target.
//!
//! Each function feeds arbitrary bytes to a parser an outsider reaches (a bot's line, a bot's
//! protobuf reply, a stored record, a queued job, an imported deal, a bot name…) through the
//! same entry point the services call, and checks invariants beyond "no panic": what parses
//! prints and parses back to the same value, a decoded action applies to the game it was decoded
//! for, errors stay short however long the input. A broken invariant panics, which is what the
//! fuzzer reports.
//!
//! The cargo-fuzz crate in `fuzz/` wraps each function in a `fuzz_target!`; the replay test of
//! this crate (`tests/replay.rs`) runs every committed corpus file under `fuzz/corpus/NAME/`
//! through the same functions, so CI checks the corpora without nightly or cargo-fuzz.
//! `docs/fuzzing.md` describes the targets and how to run them.

use std::borrow::Cow;

use arena_games::GameKind;
use arena_games::ddz::DouDizhu;
use arena_games::ddz::bots::parse_builtin;
use arena_games::ddz::convert;
use arena_games::ddz::{DdzSpec, DdzTable};
use arena_games::mahjong::Mahjong;
use arena_line::lines::{LineSplitter, Output, next_output};
use arena_proto::v1;
use arena_table::{Pending, SeatBot, TableGame};
use ddz::{
    Action, Bidding, CardSet, Deal, Game, GameConfig, Kind, MAX_PLAY_CARDS, Move, MoveList, Phase,
    RuleSet, Scoring, Seat,
};
use ddz_line::ServerMessage;
use ddz_line::codec::{BotMessage, is_ignored_bot_line};
use prost::Message;

/// The `arena ddz legal` reading.
use arena_games::ddz::commands::legal;

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// Every target by name; `fuzz/fuzz_targets/NAME.rs` calls the function of the same name and
/// `fuzz/corpus/NAME/` holds its corpus.
pub const TARGETS: &[(&str, Target)] = &[
    ("ddz_cards", ddz_cards),
    ("ddz_deal", ddz_deal),
    ("ddz_legal_batch", ddz_legal_batch),
    ("line_bot", line_bot),
    ("line_server", line_server),
    ("line_splitter", line_splitter),
    ("bot_reply", bot_reply),
    ("bot_request", bot_request),
    ("store_records", store_records),
    ("job_payload", job_payload),
    ("deal_import", deal_import),
    ("bot_spec", bot_spec),
];

/// The longest error message any parser may produce, in bytes: errors quote a bounded part of
/// what they read, so a huge input never makes a huge message.
const MAX_ERROR_BYTES: usize = 1024;

/// The rule sets the card targets try: the three named ones and a house rule.
const RULE_SETS: [RuleSet; 4] = [
    RuleSet::COMPETITION,
    RuleSet::DOUZERO,
    RuleSet::OPENSPIEL,
    RuleSet {
        distinct_single_kickers: true,
        ..RuleSet::COMPETITION
    },
];

fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// An error's text, which must say something.
fn error_text(e: &dyn std::fmt::Display) -> String {
    let msg = e.to_string();
    assert!(!msg.is_empty(), "an error must say what is wrong");
    msg
}

/// An error's text, which must say something and stay short: used where the error reaches a
/// verdict or another seat (bot lines, bot replies), so hostile input cannot blow it up.
fn short_error(e: &dyn std::fmt::Display) -> String {
    let msg = error_text(e);
    assert!(
        msg.len() <= MAX_ERROR_BYTES,
        "an error of {} bytes: {}…",
        msg.len(),
        msg.chars().take(200).collect::<String>()
    );
    msg
}

/// Splits off the first `N` bytes (zero-padded) that choose a game state.
fn state_prefix<const N: usize>(data: &[u8]) -> ([u8; N], &[u8]) {
    let mut state = [0u8; N];
    let n = data.len().min(N);
    state[..n].copy_from_slice(&data[..n]);
    (state, &data[n..])
}

fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The game set-up four state bytes choose: `[seed, setup, steps, choices]`.
fn setup_of(state: [u8; 4]) -> (GameConfig, Deal, u64) {
    let [seed, setup, _, _] = state;
    let rules =
        [RuleSet::COMPETITION, RuleSet::DOUZERO, RuleSet::OPENSPIEL][usize::from(setup >> 2) % 3];
    let seat = Seat::ALL[usize::from(setup >> 4) % 3];
    let bidding = if setup & 1 == 0 {
        Bidding::Auction {
            first: seat,
            max_redeals: 3,
        }
    } else {
        Bidding::Fixed {
            landlord: seat,
            bid: 1 + (setup >> 6) % 3,
        }
    };
    let config = GameConfig {
        rules,
        bidding,
        doubling: setup & 2 != 0,
    };
    let seed = u64::from(seed);
    (config, Deal::generate(seed, 0), seed)
}

/// A legal action for the seat to act in `game`, chosen by `rng`.
fn some_action(game: &Game, rng: &mut u64, moves: &mut MoveList) -> Option<Action> {
    game.to_act()?;
    let pick = splitmix(rng) as usize;
    Some(match game.phase() {
        Phase::Bidding => {
            let bids: Vec<u8> = game.legal_bids().collect();
            Action::Bid(bids[pick % bids.len()])
        }
        Phase::Doubling => Action::Double(pick & 1 == 1),
        Phase::Play => {
            game.legal_moves(moves);
            Action::Play(moves[pick % moves.len()])
        }
        Phase::Over => return None,
    })
}

/// A game played a few legal steps in, as four state bytes choose.
fn game_from(state: [u8; 4]) -> Game {
    let (config, deal, seed) = setup_of(state);
    let mut game = Game::new(config, deal, seed);
    let mut rng = u64::from(state[3]);
    let mut moves = MoveList::new();
    for _ in 0..state[2] % 64 {
        let Some(action) = some_action(&game, &mut rng, &mut moves) else {
            break;
        };
        game.apply(action).expect("a legal action applies");
    }
    game
}

/// A referee's Dou Dizhu table at the state four bytes choose (as [`game_from`]).
fn table_from(state: [u8; 4]) -> DdzTable {
    let (config, deal, seed) = setup_of(state);
    let rules_name = ["competition", "douzero", "openspiel"][usize::from(state[1] >> 2) % 3];
    let spec = DdzSpec {
        config,
        deal,
        rules_name,
        scoring: Scoring::Competition,
        round: None,
    };
    let mut table = DdzTable::new(&spec, seed);
    let mut rng = u64::from(state[3]);
    let mut moves = MoveList::new();
    for _ in 0..state[2] % 64 {
        let (Some(p), Some(action)) = (
            table.pending().first().copied(),
            some_action(table.game(), &mut rng, &mut moves),
        ) else {
            break;
        };
        table.apply(&[(p, action)]).expect("a legal action applies");
    }
    table
}

/// The cards, size and rank a move's kind promises.
fn check_shape(m: Move) {
    let n = m.cards().len();
    let links = u32::from(m.links());
    let at_rank = m.cards().count(m.rank());
    let (cards, rank_count) = match m.kind() {
        Kind::Pass => (0, 0),
        Kind::Single => (1, 1),
        Kind::Pair => (2, 2),
        Kind::Trio => (3, 3),
        Kind::TrioSingle => (4, 3),
        Kind::TrioPair => (5, 3),
        Kind::Straight => (links, 1),
        Kind::PairStraight => (2 * links, 2),
        Kind::Plane => (3 * links, 3),
        Kind::PlaneSingles => (4 * links, 3),
        Kind::PlanePairs => (5 * links, 3),
        Kind::FourTwoSingles => (6, 4),
        Kind::FourTwoPairs => (8, 4),
        Kind::Bomb => (4, 4),
        Kind::Rocket => (2, 1),
    };
    assert_eq!(n, cards, "{m:?} has the wrong number of cards");
    assert!(at_rank >= rank_count, "{m:?}: its main rank is not held");
    assert!(n <= MAX_PLAY_CARDS, "{m:?} is too big to play");
}

/// Card notation (`CardSet`), and the reading of a parsed set as a combination under every rule
/// set: what parses prints canonically and parses back; a set reads as a combination exactly
/// when the move generator lists the whole set as a lead, with the same reading.
pub fn ddz_cards(data: &[u8]) {
    let s = text(data);
    let set = match s.parse::<CardSet>() {
        Ok(set) => set,
        Err(e) => {
            error_text(&e);
            return;
        }
    };
    let printed = set.to_string();
    assert_eq!(printed.parse::<CardSet>(), Ok(set), "{printed:?}");
    assert_eq!(printed.len() as u32, set.len());
    assert!(set.is_subset_of(CardSet::DECK));
    let json = serde_json::to_string(&set).expect("a card set serialises");
    assert_eq!(serde_json::from_str::<CardSet>(&json).ok(), Some(set));
    let mut moves = MoveList::new();
    for rules in &RULE_SETS {
        let reading = rules.classify(set);
        match &reading {
            Ok(m) => {
                assert_eq!(m.cards(), set);
                assert!(!m.is_pass());
                check_shape(*m);
            }
            Err(e) => {
                error_text(e);
            }
        }
        if set.is_empty() || set.len() > MAX_PLAY_CARDS {
            continue;
        }
        rules.leads(set, &mut moves);
        let whole: Vec<Move> = moves.iter().copied().filter(|m| m.cards() == set).collect();
        assert_eq!(
            whole,
            reading.ok().into_iter().collect::<Vec<_>>(),
            "{rules:?}: the generator and the classifier disagree on {set}"
        );
        for &m in moves.iter() {
            assert!(m.cards().is_subset_of(set));
            assert_eq!(rules.classify(m.cards()), Ok(m), "{rules:?}: lead {m:?}");
        }
    }
}

/// Deal notation (`Deal`): what parses is one deck in hands of 17, 17, 17 and 3 and prints back
/// to itself, also through its JSON form (as stored records hold it).
pub fn ddz_deal(data: &[u8]) {
    let s = text(data);
    let deal = match s.parse::<Deal>() {
        Ok(d) => d,
        Err(e) => {
            error_text(&e);
            return;
        }
    };
    assert!(deal.hands.iter().all(|h| h.len() == 17));
    assert_eq!(deal.bottom.len(), 3);
    let all = deal
        .hands
        .iter()
        .try_fold(deal.bottom, |a, &h| a.try_add(h));
    assert_eq!(all, Some(CardSet::DECK));
    let printed = deal.to_string();
    assert_eq!(printed.parse::<Deal>(), Ok(deal), "{printed}");
    let json = serde_json::to_string(&deal).expect("a deal serialises");
    assert_eq!(serde_json::from_str::<Deal>(&json).ok(), Some(deal));
    for seat in Seat::ALL {
        assert_eq!(deal.hands_with_landlord(seat)[seat.index()].len(), 20);
    }
}

/// `arena ddz legal --batch` lines (`HAND [PREV]`, the first byte picks the rule set): every
/// answer is one JSON object; every move listed is in the hand, is what the rules read those
/// cards as, and beats the play to beat; the pass comes first exactly when following.
pub fn ddz_legal_batch(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let rules = [RuleSet::COMPETITION, RuleSet::DOUZERO, RuleSet::OPENSPIEL][usize::from(pick) % 3];
    let input = text(rest);
    let mut moves = MoveList::new();
    for line in input.lines().take(16) {
        let Some(obj) = legal::batch_line(&rules, line, &mut moves) else {
            assert!(line.split_whitespace().next().is_none());
            continue;
        };
        let printed = serde_json::to_string(&obj).expect("an answer serialises");
        assert!(serde_json::from_str::<serde_json::Value>(&printed).is_ok());
        if let Some(e) = obj.get("error") {
            error_text(&e.as_str().expect("an error is text"));
            continue;
        }
        let listed = obj["moves"].as_array().expect("moves are listed");
        assert_eq!(listed.len(), moves.len());
        let mut fields = line.split_whitespace();
        let hand = legal::parse_hand(fields.next().expect("a hand")).expect("the hand parsed");
        let prev = legal::parse_prev(&rules, Some(fields.next().unwrap_or("pass")))
            .expect("the play to beat parsed");
        for (i, &m) in moves.iter().enumerate() {
            assert!(m.cards().is_subset_of(hand), "{m:?} is not in {hand}");
            assert_eq!(m.is_pass(), !prev.is_pass() && i == 0, "{m:?} at {i}");
            if !m.is_pass() {
                assert_eq!(rules.classify(m.cards()), Ok(m));
                assert!(
                    prev.is_pass() || m.beats(prev),
                    "{m:?} does not beat {prev:?}"
                );
            }
            assert_eq!(rules.check_play(hand, prev, m.cards()), Ok(m));
        }
        if rules == RuleSet::COMPETITION {
            let mut seen: Vec<CardSet> = moves.iter().map(|m| m.cards()).collect();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), moves.len(), "a move is listed twice");
        }
    }
}

/// A bot program's line (`decode_bot_line`) after four bytes that choose a game state: what
/// decodes encodes and decodes back to itself, and an answer the feed accepts for the seat to
/// act applies to the game; errors stay short.
pub fn line_bot(data: &[u8]) {
    let (state, rest) = state_prefix::<4>(data);
    let line = text(rest);
    let msg = match ddz_line::decode_bot_line(&line) {
        Ok(None) => {
            assert!(is_ignored_bot_line(
                line.strip_suffix('\n').unwrap_or(&line)
            ));
            return;
        }
        Ok(Some(msg)) => msg,
        Err(e) => {
            short_error(&e);
            return;
        }
    };
    let encoded = msg.encode();
    assert_eq!(
        ddz_line::decode_bot_line(&encoded),
        Ok(Some(msg.clone())),
        "{encoded:?}"
    );
    if matches!(msg, BotMessage::Join { .. }) {
        return;
    }
    let game = game_from(state);
    let Some(seat) = game.to_act() else {
        return;
    };
    match ddz_line::feed::check_answer(&game.observation(seat), &msg) {
        Ok(action) => {
            let mut after = game.clone();
            if let Err(e) = after.apply(action) {
                panic!("{msg:?} was accepted as {action:?}, which the game refuses: {e}");
            }
        }
        Err(e) => {
            short_error(&e);
        }
    }
}

/// A server line (`ServerMessage::decode`, which bot programs written in Rust and bot-host's
/// rule-set reading use): what decodes encodes and decodes back to itself; errors stay short.
pub fn line_server(data: &[u8]) {
    let line = text(data);
    match ServerMessage::decode(&line) {
        Ok(msg) => {
            let encoded = msg.encode();
            assert_eq!(
                ServerMessage::decode(&encoded),
                Ok(msg.clone()),
                "{encoded:?}"
            );
        }
        Err(e) => {
            short_error(&e);
        }
    }
}

/// What a line of output should become, from the whole stream at once.
fn expected_lines(input: &[u8], max: usize) -> Vec<Output> {
    let one = |part: &[u8]| {
        if part.len() > max {
            Output::TooLong(String::from_utf8_lossy(&part[..max]).into_owned())
        } else {
            match std::str::from_utf8(part) {
                Ok(s) => Output::Line(s.to_string()),
                Err(_) => Output::NotUtf8(String::from_utf8_lossy(part).into_owned()),
            }
        }
    };
    let mut parts: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    let last = parts.pop().unwrap_or_default();
    let mut out: Vec<Output> = parts.into_iter().map(one).collect();
    if !last.is_empty() {
        out.push(one(last));
    }
    out
}

/// The line splitter bot programs' output goes through (`LineSplitter`), fed the stream in
/// chunks of sizes the second byte chooses, with a line limit the first byte chooses: it yields
/// the same lines as splitting the whole stream at once, whatever the chunks, and never keeps more
/// than the limit of a line; the blocking reader built on it agrees.
pub fn line_splitter(data: &[u8]) {
    let (state, input) = state_prefix::<2>(data);
    let max = usize::from(state[0] % 40);
    let want = expected_lines(input, max);

    let mut rng = u64::from(state[1]);
    let mut splitter = LineSplitter::new(max);
    let mut got = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let size = 1 + (splitmix(&mut rng) % 17) as usize;
        let mut window = &rest[..size.min(rest.len())];
        rest = &rest[window.len()..];
        while !window.is_empty() {
            let (used, line) = splitter.feed(window);
            assert!(
                used > 0 && used <= window.len(),
                "used {used} of {}",
                window.len()
            );
            window = &window[used..];
            got.extend(line);
        }
    }
    got.extend(splitter.finish());
    assert_eq!(got, want, "max {max}");

    let capacity = 1 + usize::from(state[1] % 7);
    let mut reader = std::io::BufReader::with_capacity(capacity, input);
    let mut splitter = LineSplitter::new(max);
    let mut read = Vec::new();
    loop {
        match next_output(&mut reader, &mut splitter) {
            Output::Closed(None) => break,
            Output::Closed(Some(e)) => panic!("reading a slice failed: {e}"),
            line => read.push(line),
        }
        assert!(read.len() <= input.len() + 1, "more lines than bytes");
    }
    assert_eq!(read, want, "max {max}, buffer {capacity}");
}

/// A bot's protobuf message (`arena.v1.BotToHost`, or a bare `DecisionReply`) after four bytes
/// that choose a table's state, turned into an action the way the referee does
/// (`ddz_decision`, then the table's decode for its pending decision): an accepted action passes
/// the table's check, applies, and encodes to a message that decodes to the same action; a
/// decision message re-encodes to the same decision; a faulty one gets a short fault.
pub fn bot_reply(data: &[u8]) {
    let (state, rest) = state_prefix::<4>(data);
    let mut actions = Vec::new();
    if let Ok(msg) = v1::BotToHost::decode(rest) {
        let again = v1::BotToHost::decode(msg.encode_to_vec().as_slice());
        assert_eq!(again.as_ref(), Ok(&msg));
        if let Some(v1::bot_to_host::Msg::Reply(r)) = msg.msg {
            actions.extend(r.action);
        }
    }
    if let Ok(reply) = v1::DecisionReply::decode(rest) {
        actions.extend(reply.action);
    }
    if actions.is_empty() {
        return;
    }
    let table = table_from(state);
    let pending = table.pending();
    for action in &actions {
        match convert::ddz_decision(action) {
            Ok(d) => assert_eq!(convert::ddz_decision(&convert::ddz_action(d)), Ok(d)),
            Err(e) => {
                short_error(&e);
            }
        }
        for p in &pending {
            match table.decode(p, action) {
                Ok(a) => {
                    if let Err(f) = table.check(p, &a) {
                        panic!("{action:?} decoded to {a:?}, which the check refuses: {f}");
                    }
                    let mut after = table.clone();
                    if let Err(e) = after.apply(&[(*p, a)]) {
                        panic!("{action:?} decoded to {a:?}, which does not apply: {e}");
                    }
                    assert_eq!(table.decode(p, &table.encode(&a)), Ok(a));
                }
                Err(f) => {
                    short_error(&f);
                }
            }
            let other = Pending {
                seat: (p.seat + 1) % 3,
                kind: p.kind,
            };
            assert!(
                table.decode(&other, action).is_err(),
                "an answer for a seat that is not to act was accepted"
            );
        }
    }
}

/// A decision request as bot-host reads it back (`DdzView::from_request`; the referee sends it,
/// but nothing should panic on a bad one): the legal moves are plays from the hand that beat the
/// play to beat, and the lines a bot program would be sent encode and decode back to themselves.
pub fn bot_request(data: &[u8]) {
    let Ok(req) = v1::DecisionRequest::decode(data) else {
        return;
    };
    let view = match arena_games::ddz::request::DdzView::from_request(&req) {
        Ok(v) => v,
        Err(e) => {
            error_text(&e);
            return;
        }
    };
    let obs = view.observation();
    let legal = view.legal_moves();
    let to_beat = obs.to_beat();
    for &m in legal.iter() {
        assert_eq!(
            obs.rules.check_play(obs.hand, to_beat, m.cards()),
            Ok(m),
            "{m:?} from {} after {to_beat:?}",
            obs.hand
        );
    }
    let ask = ddz_line::feed::request(&obs, &legal, u64::from(req.deadline_ms));
    let mut lines = Vec::new();
    ddz_line::SeatFeed::new(1, Scoring::Competition).catch_up(&obs, &mut lines);
    lines.push(ServerMessage::Ask(ask));
    for line in lines {
        let encoded = line.encode();
        assert_eq!(
            ServerMessage::decode(&encoded),
            Ok(line.clone()),
            "{encoded:?}"
        );
    }
}

fn json_round_trip<T>(bytes: &[u8]) -> Option<T>
where
    T: serde::de::DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug,
{
    let value: T = match arena_store::decode(|| "fuzz".to_string(), bytes) {
        Ok(v) => v,
        Err(e) => {
            error_text(&e);
            return None;
        }
    };
    let encoded = arena_store::encode(&value).expect("a decoded record encodes");
    let again: T =
        arena_store::decode(|| "fuzz".to_string(), &encoded).expect("an encoded record decodes");
    assert_eq!(again, value);
    Some(value)
}

/// A stored JSON record as both store backends read it back (`arena_store::decode`); the first
/// byte picks a deal record, a bot record or a panel. What decodes encodes and decodes back to
/// the same record, gdi values bit for bit.
pub fn store_records(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    match pick % 3 {
        0 => {
            if let Some(r) = json_round_trip::<arena_store::DealRecord>(rest) {
                let again: arena_store::DealRecord =
                    arena_store::decode(|| "fuzz".into(), &arena_store::encode(&r).unwrap())
                        .unwrap();
                let bits = |g: &[f64]| g.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&again.gdi), bits(&r.gdi));
            }
        }
        1 => {
            json_round_trip::<arena_store::BotRecord>(rest);
        }
        _ => {
            json_round_trip::<arena_store::Panel>(rest);
        }
    }
}

/// A job stream entry as a referee reads it (`queue::decode`, the first byte giving the length
/// of the table id it was queued under), then checked (`arena_games::validate`) and set up: a
/// table job read is the one its id names; a valid job has three seats whose names read back to
/// the same bots and a game that waits for a decision; a GDI batch (`gdi::read_batch`) is of a
/// bounded size with a bounded panel and a stable panel id; errors name a field.
pub fn job_payload(data: &[u8]) {
    let Some((&len, rest)) = data.split_first() else {
        return;
    };
    let len = usize::from(len % 17).min(rest.len());
    let (id, payload) = rest.split_at(len);
    let table_id = text(id);
    match arena_table::queue::decode(&table_id, payload) {
        arena_table::queue::Queued::Table(job) => {
            assert_eq!(job.table_id, table_id);
            let checked = match arena_games::validate(&job) {
                Ok(checked) => checked,
                Err(e) => {
                    assert!(e.field.starts_with("job."), "{e}");
                    error_text(&e);
                    return;
                }
            };
            assert_eq!(
                checked.state().pending_now().len(),
                1,
                "a new table waits for one decision"
            );
            let spec = match (checked.spec::<DouDizhu>(), checked.spec::<Mahjong>()) {
                (Some(s), _) => s.clone(),
                (None, Some(s)) => {
                    assert_eq!(s.seats.len(), 4);
                    assert!(s.time.hard_cap_ms >= s.time.decision_ms.max(s.time.claim_ms));
                    let table = arena_games::mahjong::MahjongTable::new(&s.setup);
                    assert_eq!(
                        table.pending().len(),
                        1,
                        "a new hand waits for its first turn"
                    );
                    return;
                }
                (None, None) => panic!("a valid job of no registered game: {checked:?}"),
            };
            assert_eq!(spec.seats.len(), 3);
            assert!(spec.time.hard_cap_ms >= spec.time.decision_ms);
            for seat in &spec.seats {
                assert_eq!(
                    SeatBot::parse(&seat.name(), parse_builtin).as_ref(),
                    Ok(seat)
                );
            }
            assert_eq!(GameKind::from_wire(&job.game), Ok(arena_games::ddz::GAME));
            let d = spec.setup;
            assert_eq!(d.deal.to_string().parse::<Deal>(), Ok(d.deal));
            let table = DdzTable::new(&d, spec.seed);
            assert_eq!(
                table.pending().len(),
                1,
                "a new table waits for one decision"
            );
        }
        arena_table::queue::Queued::Gdi(batch) => match arena_deals::batch::read_batch(&batch) {
            Ok((panel, source)) => {
                assert!(batch.count <= arena_deals::batch::MAX_BATCH);
                let tables = panel.tables();
                assert!(tables >= 1);
                assert!(tables <= arena_deals::panel::MAX_PANEL_LANDLORDS as u64);
                let again = arena_deals::batch::read_batch(&batch).map(|(p, _)| p.to_store());
                assert_eq!(
                    again.ok(),
                    Some(panel.to_store()),
                    "a panel reads the same twice"
                );
                assert_eq!(source.bombs.map(u32::from), batch.bombs);
            }
            Err(e) => {
                error_text(&e);
            }
        },
        arena_table::queue::Queued::Bad { job, error } => {
            error_text(&error);
            if let Some(job) = job {
                assert_ne!(job.table_id, table_id);
            }
        }
    }
}

/// A record from an outsider's Import stream (`arena.v1.DealRecord` read by the deal library's
/// `record_from`): an accepted record has a deal of one deck, one count per level, gdi values
/// that are fractions following from the counts, and exports and imports back to itself.
pub fn deal_import(data: &[u8]) {
    let Ok(msg) = v1::DealRecord::decode(data) else {
        return;
    };
    let record = match arena_deal_library::record_from(msg) {
        Ok(r) => r,
        Err(e) => {
            error_text(&e);
            return;
        }
    };
    assert_eq!(record.counts.len(), record.levels.len());
    assert!(
        record.gdi.iter().all(|g| (0.0..=1.0).contains(g)),
        "gdi {:?} are not fractions",
        record.gdi
    );
    let again = arena_deal_library::record_from(arena_deal_library::record_msg(&record))
        .expect("an exported record imports");
    assert_eq!(again, record);
}

/// Bot names as jobs, panels and the CLI take them: `BotSpec` and a seat's bot (`SeatBot`) read
/// back from their canonical names, a `cmd:` line reads back from its quoted form, and a panel
/// (`build_panel`) has landlords and the id its description gives.
pub fn bot_spec(data: &[u8]) {
    let s = text(data);
    match s.parse::<ddz_bots::BotSpec>() {
        Ok(spec) => {
            let name = spec.to_string();
            assert_eq!(
                name.parse::<ddz_bots::BotSpec>().as_ref(),
                Ok(&spec),
                "{name:?}"
            );
            if !matches!(spec, ddz_bots::BotSpec::Cmd(_)) {
                assert!(spec.build_builtin().is_some(), "{name:?} does not build");
            }
        }
        Err(e) => {
            error_text(&e);
        }
    }
    match SeatBot::parse(&s, parse_builtin) {
        Ok(seat) => assert_eq!(
            SeatBot::parse(&seat.name(), parse_builtin).as_ref(),
            Ok(&seat)
        ),
        Err(e) => {
            error_text(&e);
        }
    }
    match arena_line::CmdSpec::parse(&s) {
        Ok(cmd) => {
            let line = cmd.to_string();
            assert_eq!(
                arena_line::CmdSpec::parse(&line).as_ref(),
                Ok(&cmd),
                "{line:?}"
            );
        }
        Err(e) => {
            error_text(&e);
        }
    }
    match arena_deals::build_panel(&s, "expert", "expert", Scoring::Difficulty) {
        Ok(panel) => {
            assert!(!panel.landlords.is_empty());
            assert_eq!(panel.id, arena_deals::panel_id(&panel));
        }
        Err(e) => {
            error_text(&e);
        }
    }
}
