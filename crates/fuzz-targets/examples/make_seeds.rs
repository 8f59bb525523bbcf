//! Writes seed inputs for every fuzz target into `fuzz/corpus/TARGET/` (or the directory given
//! as the first argument): real inputs taken from the repository's tests, docs and a few played
//! games, encoded the way each target reads them. Fuzzing grows the corpora from these; run
//! `cargo fuzz cmin` afterwards to keep them small.
//!
//! It also writes the `regress-*` inputs of findings fixed by reading rather than by fuzzing;
//! `--regress-only` writes just those (into a minimised corpus).
//!
//! `cargo run -p arena-fuzz-targets --example make_seeds [--regress-only] [DIR]`

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::path::{Path, PathBuf};

use arena_games::ddz::convert::{self, DdzDecision};
use arena_proto::v1;
use arena_store::{BotKind, BotRecord, DealRecord, DealSource};
use ddz::{Action, CardSet, Deal, DealConstraint, Game, GameConfig, MoveList, Phase, Scoring};
use ddz_line::ServerMessage;
use prost::Message;

struct Seeds {
    root: PathBuf,
    /// False with `--regress-only`: write only the `regress-*` inputs.
    seeds: bool,
}

impl Seeds {
    fn put(&self, target: &str, name: &str, data: &[u8]) {
        if !self.seeds {
            return;
        }
        let dir = self.root.join(target);
        std::fs::create_dir_all(&dir).expect("create the corpus directory");
        std::fs::write(dir.join(format!("seed-{name}")), data).expect("write a seed");
    }

    fn regress(&self, target: &str, name: &str, data: &[u8]) {
        let dir = self.root.join(target);
        std::fs::create_dir_all(&dir).expect("create the corpus directory");
        std::fs::write(dir.join(format!("regress-{name}")), data).expect("write an input");
    }

    fn put_all<'a>(&self, target: &str, items: impl IntoIterator<Item = &'a [u8]>) {
        for (i, data) in items.into_iter().enumerate() {
            self.put(target, &format!("{i:03}"), data);
        }
    }
}

/// Card strings from the engine's tests and docs.
const CARDS: &[&str] = &[
    "",
    "3",
    "R",
    "BR",
    "rb",
    "22",
    "KKK",
    "7777",
    "3337",
    "333B",
    "33377",
    "34567",
    "3456789TJQKA",
    "334455",
    "333444",
    "33344455",
    "33344457",
    "3334445577",
    "333344",
    "333345",
    "33334455",
    "333444555777",
    "6667778889TJ",
    "TJQKA",
    "3AAA",
    "BR5",
    "JQKA2",
    "3456",
    "34568",
    "3333BR",
    "333444BR",
    "33334444",
    "3334445556669999",
    "333444555666",
    "3334445556667778",
    "333444555666789TJQKA",
    "55433 4",
    "10tJ",
    "r3b10",
    "33X",
    "33333",
    "BB",
    "31",
    "3Z",
    "33355789TTJQQKK2B",
    "333344445555666677778888",
    "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222BR",
];

/// Bot lines from the codec's tests and the protocol document.
const BOT_LINES: &[&str] = &[
    "join",
    "join simple-python",
    "join my-bot_v2\r",
    "  bid\t2  \r\n",
    "bid 0",
    "bid 3",
    "double 0",
    "double 1",
    "play pass",
    "play 10jqka",
    "play 44AAA",
    "play 3",
    "play 33344455",
    "# thinking",
    "   # note: bid 5",
    "",
    "plya 33",
    "bid 5",
    "bid 300",
    "bid -1",
    "play 3X",
    "play 33333",
    "play",
    "play 3 3",
    "double yes",
    "PLAY 3",
    "join two words",
    "join a\u{1}b",
];

/// Server lines from the codec's tests and the protocol document.
const SERVER_LINES: &[&str] = &[
    "game 7",
    "rules competition",
    "rules douzero",
    "rules openspiel",
    "rules custom four_with_two distinct_single_kickers",
    "rules custom",
    "seat 2",
    "hand 3TBR",
    "hand 34455788TQKKAAA22",
    "bid 1 0",
    "redeal",
    "landlord 0 3 3A2",
    "double 1 1",
    "play 2 pass",
    "play 2 33444",
    "end 0 -4 6 -2",
    "ask bid 1000 0 2 3",
    "ask double 500",
    "ask redouble 500",
    "ask play 1000 pass 5 BR",
    "ask play 1000 pass 44AAA 55AAA 88AAA KKAAA AAA22",
    "bye",
    "seat 3",
    "ask dance 5",
    "ask play 100",
    "rules house",
    "end 0 1 2 99999999999999999999",
];

/// Bot names from the bots' and panels' tests and the docs.
const BOT_NAMES: &[&str] = &[
    "random",
    "seed",
    "expert",
    "search",
    "search:samples=8",
    "search:samples=40,candidates=16",
    "search:samples=40,candidates=16,objective=adp",
    "search:rollouts=3,objective=wp",
    "ladder:3/10",
    "ladder:1/70",
    "ladder:0/10",
    "ladder:11/10",
    "ladder:70",
    "ladder:3",
    "seed,expert,ladder:2/5",
    " , ",
    "cmd:python3 bot.py",
    "cmd:python3 examples/ddz-python/simple_bot.py",
    "cmd:python3 'my bot.py' --fast",
    "cmd:",
    "cmd:\"unclosed",
    "some-remote-bot",
    "alphago",
];

/// Up to `steps` legal actions into a game, each step's choice the middle legal one.
fn played(config: GameConfig, seed: u64, steps: usize) -> Game {
    let mut game = Game::from_seed(config, seed, DealConstraint::NONE).expect("a game");
    let mut moves = MoveList::new();
    for step in 0..steps {
        if game.to_act().is_none() {
            break;
        }
        let action = match game.phase() {
            Phase::Bidding => Action::Bid(if step == 1 { 2 } else { 0 }),
            Phase::Doubling => Action::Double(step % 2 == 0),
            _ => {
                game.legal_moves(&mut moves);
                Action::Play(moves[moves.len() / 2])
            }
        };
        game.apply(action).expect("a legal action");
    }
    game
}

fn ddz_job(id: &str) -> v1::TableJob {
    v1::TableJob {
        table_id: id.into(),
        game: "ddz".into(),
        seats: ["expert", "ladder:3/10", "some-remote-bot"]
            .map(|b| v1::SeatSpec { bot: b.into() })
            .to_vec(),
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            deal: Deal::generate(5, 0).to_string(),
            rules: "douzero".into(),
            landlord: Some(ddz_pb::setup::Landlord::FixedLandlord(2)),
            fixed_bid: 2,
            doubling: true,
            scoring: "adp".into(),
            ..Default::default()
        })),
        seed: 9,
        ..Default::default()
    }
}

fn with_prefix(prefix: &[u8], data: &[u8]) -> Vec<u8> {
    let mut v = prefix.to_vec();
    v.extend_from_slice(data);
    v
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let regress_only = args.iter().any(|a| a == "--regress-only");
    let root = args.iter().find(|a| !a.starts_with("--")).map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus"),
        PathBuf::from,
    );
    let seeds = Seeds {
        root,
        seeds: !regress_only,
    };

    seeds.put_all("ddz_cards", CARDS.iter().map(|s| s.as_bytes()));

    let mut deals: Vec<String> = (0..8).map(|i| Deal::generate(i, i).to_string()).collect();
    deals.extend(
        [
            "33355789TTJQQKK2B/4456899JJJQKAAA2R/34456677889TTQKA2/672",
            "3/4",
            " 33355789TTJQQKK2B / 4456899JJJQKAAA2R / 34456677889TTQKA2 / 672 ",
            "33355789TTJQQKK2B4456899JJJQKAAA2R/34456677889TTQKA2/672/3",
        ]
        .map(String::from),
    );
    seeds.put_all("ddz_deal", deals.iter().map(|s| s.as_bytes()));

    let batch = [
        "33344 pass\n3X 4\n3456789 34567\n\n55 BR5\n22 33\n",
        "333444555666789TJQKA\n",
        "333444555666789TJQKA 34567\n3333BR 2\n",
        "3334445577 3334445566\n22223333 44445555\n",
    ];
    let batch: Vec<Vec<u8>> = batch
        .iter()
        .enumerate()
        .map(|(i, s)| with_prefix(&[i as u8], s.as_bytes()))
        .collect();
    seeds.put_all("ddz_legal_batch", batch.iter().map(Vec::as_slice));

    // Game states: [seed, setup, steps, choices] (see the targets' `game_from`).
    let states: [[u8; 4]; 4] = [[0, 0, 0, 0], [4, 1, 0, 0], [21, 2, 3, 7], [9, 1, 10, 3]];
    let mut bot_lines = Vec::new();
    for (i, line) in BOT_LINES.iter().enumerate() {
        bot_lines.push(with_prefix(&states[i % states.len()], line.as_bytes()));
    }
    seeds.put_all("line_bot", bot_lines.iter().map(Vec::as_slice));

    let mut server_lines: Vec<String> = SERVER_LINES.iter().map(|s| s.to_string()).collect();
    // A whole game as seat 1 is told it.
    let game = played(GameConfig::competition(), 21, 200);
    let mut feed = ddz_line::SeatFeed::new(1, Scoring::Competition);
    let mut lines = Vec::new();
    feed.catch_up(&game.observation(ddz::Seat::ALL[1]), &mut lines);
    server_lines.extend(lines.iter().map(ServerMessage::encode));
    seeds.put_all("line_server", server_lines.iter().map(|s| s.as_bytes()));

    let streams: [&[u8]; 5] = [
        b"\x40\x03bid 1\r\n\nplay 33\nlast",
        b"\x08\x01" as &[u8],
        b"\x08\x040123456789abc\nok\n0123456789",
        b"\x64\x02pl\xffy\n",
        b"\x28\x05join me\nbid 1\ndouble 0\nplay 3334\nplay pass\n",
    ];
    seeds.put_all("line_splitter", streams);

    let mut replies = Vec::new();
    let decisions = [
        DdzDecision::Bid(0),
        DdzDecision::Bid(2),
        DdzDecision::Bid(3),
        DdzDecision::Bid(7),
        DdzDecision::Double(true),
        DdzDecision::Double(false),
        DdzDecision::Play(CardSet::EMPTY),
    ];
    let reply = |action: v1::Action| v1::BotToHost {
        msg: Some(v1::bot_to_host::Msg::Reply(v1::DecisionReply {
            request_id: 1,
            table_id: "t1".into(),
            action: Some(action),
        })),
    };
    for (i, d) in decisions.iter().enumerate() {
        let state = states[i % states.len()];
        replies.push(with_prefix(
            &state,
            &reply(convert::ddz_action(*d)).encode_to_vec(),
        ));
    }
    let mut plays: Vec<String> = [" PASS ", "3X", "", "33344455", "3"]
        .map(String::from)
        .to_vec();
    let game = played(GameConfig::fixed_landlord(), 4, 0);
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    plays.extend(moves.iter().take(5).map(|m| m.to_string()));
    for p in &plays {
        let action = v1::Action {
            game: Some(arena_proto::payload::pack(&ddz_pb::Action {
                action: Some(ddz_pb::action::Action::Play(p.clone())),
            })),
        };
        replies.push(with_prefix(
            &[4, 1, 0, 0],
            &reply(action.clone()).encode_to_vec(),
        ));
        let bare = v1::DecisionReply {
            request_id: 2,
            table_id: "t2".into(),
            action: Some(action),
        };
        replies.push(with_prefix(&[4, 1, 0, 0], &bare.encode_to_vec()));
    }
    let hello = v1::BotToHost {
        msg: Some(v1::bot_to_host::Msg::Hello(v1::Hello {
            bot: "my-bot".into(),
            release: "2026.11.1".into(),
            capacity: 4,
            resume_session: String::new(),
            ..Default::default()
        })),
    };
    replies.push(with_prefix(&[0; 4], &hello.encode_to_vec()));
    replies.push(with_prefix(
        &[0; 4],
        &v1::BotToHost {
            msg: Some(v1::bot_to_host::Msg::Pong(v1::Pong { nonce: 7 })),
        }
        .encode_to_vec(),
    ));
    seeds.put_all("bot_reply", replies.iter().map(Vec::as_slice));

    // Decision requests along two whole games, as the referee sends them.
    let mut requests = Vec::new();
    for (config, seed) in [
        (GameConfig::competition(), 21),
        (GameConfig::fixed_landlord(), 3),
    ] {
        for steps in [0, 1, 2, 4, 5, 8, 12, 20, 30] {
            let game = played(config, seed, steps);
            let Some(seat) = game.to_act() else {
                continue;
            };
            let obs = game.observation(seat);
            let kind = match obs.phase {
                Phase::Bidding => v1::DecisionKind::Bid,
                Phase::Doubling if obs.landlord == Some(seat) => v1::DecisionKind::Redouble,
                Phase::Doubling => v1::DecisionKind::Double,
                _ => v1::DecisionKind::Play,
            };
            let req = v1::DecisionRequest {
                request_id: steps as u64,
                table_id: "t".into(),
                seat: seat.index() as u32,
                game: "ddz".into(),
                kind: kind as i32,
                deadline_ms: 1000,
                observation: Some(convert::ddz_observation(&obs, "competition", vec![])),
            };
            requests.push(req.encode_to_vec());
        }
    }
    seeds.put_all("bot_request", requests.iter().map(Vec::as_slice));

    let panel = arena_deals::build_panel("ladder:3", "expert", "expert", Scoring::Difficulty)
        .expect("a panel");
    let counts = vec![1u32, 3, 2, 4];
    let record = DealRecord {
        id: DealSource {
            seed: 7,
            bombs: Some(1),
        }
        .deal_id(3),
        game: arena_deals::LIBRARY_GAME,
        deal: Deal::generate(7, 3).to_string(),
        source: Some((
            DealSource {
                seed: 7,
                bombs: Some(1),
            },
            3,
        )),
        panel: panel.id.clone(),
        levels: vec![-2, -1, 1, 2],
        gdi: arena_deals::levels::gdi(&counts),
        counts,
    };
    let imported = DealRecord {
        id: "i-3f2a".into(),
        source: None,
        ..record.clone()
    };
    let bots = [
        BotRecord {
            name: "remote-1".into(),
            kind: BotKind::Remote,
            token_sha256: Some("ab".repeat(32)),
            max_tables: 4,
            created_unix_ms: 1_700_000_000_000,
            decision_ms: 0,
            later_decision_ms: 0,
        },
        BotRecord {
            name: "prog".into(),
            kind: BotKind::Program {
                game: Default::default(),
                command: "python3 bot.py --fast".into(),
                workdir: Some("/tmp/bot".into()),
                cpu_seconds: 10,
                memory_mb: 512,
            },
            token_sha256: None,
            max_tables: 0,
            created_unix_ms: 0,
            decision_ms: 0,
            later_decision_ms: 0,
        },
    ];
    let mut stored = vec![
        with_prefix(&[0], &arena_store::encode(&record).expect("json")),
        with_prefix(&[0], &arena_store::encode(&imported).expect("json")),
        with_prefix(&[2], &arena_store::encode(&panel.to_store()).expect("json")),
    ];
    for b in &bots {
        stored.push(with_prefix(&[1], &arena_store::encode(b).expect("json")));
    }
    seeds.put_all("store_records", stored.iter().map(Vec::as_slice));

    let mut jobs = Vec::new();
    let id_prefixed = |id: &str, payload: &[u8]| {
        let mut v = vec![id.len() as u8];
        v.extend_from_slice(id.as_bytes());
        v.extend_from_slice(payload);
        v
    };
    jobs.push(id_prefixed(
        "t1",
        &arena_table::queue::encode_table_job(&ddz_job("t1")),
    ));
    jobs.push(id_prefixed("t1", &ddz_job("t1").encode_to_vec()));
    jobs.push(id_prefixed(
        "t2",
        &arena_table::queue::encode_table_job(&ddz_job("t1")),
    ));
    let mut plain = ddz_job("t3");
    plain.setup = None;
    plain.seats = ["random", "seed", "search:samples=8"]
        .map(|b| v1::SeatSpec { bot: b.into() })
        .to_vec();
    jobs.push(id_prefixed(
        "t3",
        &arena_table::queue::encode_table_job(&plain),
    ));
    let gdi = v1::QueuedJob {
        job: Some(v1::queued_job::Job::Gdi(v1::GdiBatch {
            operation: "op".into(),
            panel: Some(v1::PanelSpec {
                landlords: "ladder:3".into(),
                farmers: String::new(),
                scoring: "difficulty".into(),
                ..Default::default()
            }),
            seed: 7,
            bombs: Some(1),
            first: 0,
            count: 3,
        })),
    };
    jobs.push(id_prefixed("op-0", &gdi.encode_to_vec()));
    jobs.push(id_prefixed("t4", b"\xff\xff\xff"));
    seeds.put_all("job_payload", jobs.iter().map(Vec::as_slice));

    let imports = [
        arena_deal_library::record_msg(&record).encode_to_vec(),
        arena_deal_library::record_msg(&imported).encode_to_vec(),
    ];
    seeds.put_all("deal_import", imports.iter().map(Vec::as_slice));

    seeds.put_all("bot_spec", BOT_NAMES.iter().map(|s| s.as_bytes()));

    // Inputs of the findings fixed by reading while writing the targets (docs/fuzzing.md), so
    // the replay test keeps them fixed.
    seeds.regress("bot_spec", "ladder-four-billion", b"ladder:4000000000");
    seeds.regress(
        "bot_spec",
        "search-objective",
        b"search:samples=40,candidates=16,objective=adp",
    );
    let huge = v1::GdiBatch {
        count: u32::MAX,
        ..match gdi.job {
            Some(v1::queued_job::Job::Gdi(b)) => b,
            _ => unreachable!("a GDI batch"),
        }
    };
    let huge = v1::QueuedJob {
        job: Some(v1::queued_job::Job::Gdi(huge)),
    };
    seeds.regress(
        "job_payload",
        "gdi-count-max",
        &id_prefixed("op-1", &huge.encode_to_vec()),
    );
    let long_play = v1::Action {
        game: Some(arena_proto::payload::pack(&ddz_pb::Action {
            action: Some(ddz_pb::action::Action::Play(format!(
                "3X{}",
                "4".repeat(3000)
            ))),
        })),
    };
    seeds.regress(
        "bot_reply",
        "long-bad-play",
        &with_prefix(&[4, 1, 0, 0], &reply(long_play).encode_to_vec()),
    );
    let overflowing = v1::DealRecord {
        counts: vec![u32::MAX, 1],
        levels: vec![-1, 1],
        gdi: vec![1.0 / 4_294_967_296.0],
        ..arena_deal_library::record_msg(&imported)
    };
    seeds.regress(
        "deal_import",
        "counts-past-u32",
        &overflowing.encode_to_vec(),
    );
    let nan = v1::DealRecord {
        counts: vec![1, 1],
        levels: vec![-1, 1],
        gdi: vec![f64::NAN],
        ..arena_deal_library::record_msg(&imported)
    };
    seeds.regress("deal_import", "nan-gdi", &nan.encode_to_vec());
}
