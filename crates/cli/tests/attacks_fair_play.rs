//! Fair play (issue 31), tried as a hostile bot and a careless operator would, against
//! `arena standalone` as a real process: no deal or replay API serves a card of an unfinished
//! table to anyone, operators included; SubmitTable cannot write a competition's table; names
//! cannot spoof others on screen; a refused connection learns no live session.

mod common;

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use arena_proto::v1;
use common::{Standalone, authed, channel, rt};
use tokio_stream::StreamExt;
use tonic::Code;

fn panel() -> v1::PanelSpec {
    v1::PanelSpec {
        landlords: "ladder:5".into(),
        ..Default::default()
    }
}

/// The competitions the spy plays: each round's three tables share a deal (duplicate, dealt
/// fresh from seed 1, the very source the library measured), or the round's deals are the
/// library's (equal-strength, claimed).
const COMPETITIONS: [&str; 2] = ["dup", "eq"];

fn table_ids() -> Vec<String> {
    let mut ids = Vec::new();
    for c in COMPETITIONS {
        for r in 0..2 {
            for t in 0..3 {
                ids.push(format!("{c}/m0/r{r}/t{t}"));
            }
        }
    }
    ids
}

/// Every deal and replay API, called with `token`: the text of every answer (status messages
/// included), and what each call ended with.
async fn every_deal_and_replay(
    urls: &Urls,
    token: &str,
    own_table: &str,
) -> (Vec<String>, Vec<(String, Code)>) {
    let mut lib = v1::deal_library_client::DealLibraryClient::new(channel(&urls.library).await);
    let mut mm = v1::matchmaker_client::MatchmakerClient::new(channel(&urls.matchmaker).await);
    let mut referee =
        v1::table_referee_client::TableRefereeClient::new(channel(&urls.referee).await);
    let (mut texts, mut codes) = (Vec::new(), Vec::new());
    let mut note = |what: String, r: Result<String, tonic::Status>| match r {
        Ok(text) => {
            texts.push(text);
            codes.push((what, Code::Ok));
        }
        Err(s) => {
            texts.push(s.message().to_string());
            codes.push((what, s.code()));
        }
    };
    let exported = match lib
        .export(authed(
            v1::ExportRequest {
                panel: Some(panel()),
            },
            token,
        ))
        .await
    {
        Ok(s) => s
            .into_inner()
            .collect::<Result<Vec<_>, _>>()
            .await
            .map(|d| format!("{d:?}")),
        Err(s) => Err(s),
    };
    note("DealLibrary.Export".into(), exported);
    let queried = lib
        .query(authed(
            v1::QueryRequest {
                panel: Some(panel()),
                centre: vec![0.5, 0.5, 0.5],
                eps: 2.0,
                count: 10_000,
                include_used: true,
            },
            token,
        ))
        .await
        .map(|r| format!("{:?}", r.into_inner()));
    note("DealLibrary.Query(include_used)".into(), queried);
    for c in COMPETITIONS {
        let name = v1::CompetitionRequest { name: c.into() };
        let exported = match mm.export_replays(authed(name.clone(), token)).await {
            Ok(s) => s
                .into_inner()
                .collect::<Result<Vec<_>, _>>()
                .await
                .map(|r| format!("{r:?}")),
            Err(s) => Err(s),
        };
        note(format!("Matchmaker.ExportReplays({c})"), exported);
        let standings = mm
            .get_standings(authed(name, token))
            .await
            .map(|r| format!("{:?}", r.into_inner()));
        note(format!("Matchmaker.GetStandings({c})"), standings);
    }
    for id in table_ids() {
        let get = || v1::GetTableRequest {
            table_id: id.clone(),
        };
        let r = mm
            .get_replay(authed(get(), token))
            .await
            .map(|r| format!("{:?}", r.into_inner()));
        note(format!("Matchmaker.GetReplay({id})"), r);
        let r = referee
            .get_replay(authed(get(), token))
            .await
            .map(|r| format!("{:?}", r.into_inner()));
        note(format!("TableReferee.GetReplay({id})"), r);
        let r = referee
            .get_result(authed(get(), token))
            .await
            .map(|r| format!("{:?}", r.into_inner()));
        note(format!("TableReferee.GetResult({id})"), r);
    }
    // An operator's script submits a table under a twin's id (the same cards as the spy's own
    // table): refused, so the twin's real job still writes its result.
    let (round, t) = own_table.rsplit_once("/t").unwrap();
    let twin = format!("{round}/t{}", (t.parse::<u32>().unwrap() + 1) % 3);
    let submitted = referee
        .submit_table(authed(
            v1::SubmitTableRequest {
                job: Some(v1::TableJob {
                    table_id: twin.clone(),
                    game: "ddz".into(),
                    seats: ["expert", "expert", "expert"]
                        .map(|b| v1::SeatSpec { bot: b.into() })
                        .to_vec(),
                    setup: Some(arena_proto::payload::pack(&ddz_pb::Setup::default())),
                    ..Default::default()
                }),
            },
            token,
        ))
        .await
        .map(|r| format!("{:?}", r.into_inner()));
    note(format!("TableReferee.SubmitTable({twin})"), submitted);
    (texts, codes)
}

#[derive(Clone)]
struct Urls {
    library: String,
    matchmaker: String,
    referee: String,
}

/// What the spy saw and did at its first decision of a table.
#[derive(Clone, Debug, Default)]
struct Attack {
    texts: Vec<String>,
    codes: Vec<(String, Code)>,
}

#[test]
fn no_deal_or_replay_api_serves_a_card_of_an_unfinished_table_even_to_the_operator() {
    let (s, tokens) = Standalone::start(&[("spy", &[])], &[], &[]);
    // Deals 0..60 of seed 1: the duplicate competition below deals fresh from seed 1 too.
    s.measure(60);
    let operator = s.operator_token();
    let rt = rt();
    let urls = Urls {
        library: s.library.clone(),
        matchmaker: s.matchmaker.clone(),
        referee: s.referee.clone(),
    };
    let attacks: Arc<Mutex<BTreeMap<String, Attack>>> = Default::default();
    let (bots, token, record) = (s.bots.clone(), tokens[0].clone(), attacks.clone());
    let spy = rt.spawn(async move {
        let mut client = v1::bot_gateway_client::BotGatewayClient::new(channel(&bots).await);
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        tx.send(v1::BotToHost {
            msg: Some(v1::bot_to_host::Msg::Hello(v1::Hello {
                bot: "spy".into(),
                release: "1".into(),
                capacity: 4,
                ..Default::default()
            })),
        })
        .await
        .unwrap();
        let req = authed(tokio_stream::wrappers::ReceiverStream::new(rx), &token);
        let mut inbound = client.play(req).await.unwrap().into_inner();
        while let Some(Ok(m)) = inbound.next().await {
            let Some(v1::host_to_bot::Msg::Request(r)) = m.msg else {
                continue;
            };
            // At its first decision of each table, while that table is certainly unfinished.
            let first = !record.lock().unwrap().contains_key(&r.table_id);
            if first {
                let (texts, codes) = every_deal_and_replay(&urls, &operator, &r.table_id).await;
                record
                    .lock()
                    .unwrap()
                    .insert(r.table_id.clone(), Attack { texts, codes });
            }
            let play = arena_example_remote_bot::answer(&r);
            let reply = v1::BotToHost {
                msg: Some(v1::bot_to_host::Msg::Reply(v1::DecisionReply {
                    request_id: r.request_id,
                    table_id: r.table_id,
                    action: Some(play),
                })),
            };
            if tx.send(reply).await.is_err() {
                break;
            }
        }
    });
    // Both competitions at once, with room for the spy's attacks in every decision's time.
    let create = |name: &str, format: &[&str]| {
        let args: Vec<String> = [
            &[
                "competition",
                "create",
                "--matchmaker",
                &s.matchmaker,
                "--name",
                name,
                "--participants",
                "spy,expert,seed",
                "--panel",
                "ladder:5",
                "--matches",
                "1",
                "--rounds",
                "2",
                "--decision-ms",
                "60000",
                "--hard-cap-ms",
                "120000",
            ][..],
            format,
        ]
        .concat()
        .into_iter()
        .map(String::from)
        .collect();
        let dir = s.data_dir().to_path_buf();
        std::thread::spawn(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            common::arena_client(&dir, &args)
        })
    };
    let dup = create("dup", &["--format", "duplicate", "--seed", "1"]);
    // The equal-strength competition is planned once the duplicate one holds its deals, so it
    // deals none of them.
    let start = std::time::Instant::now();
    while common::progress(&s.operator_token(), &s.matchmaker, "dup").is_none() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "dup was not created"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let eq = create(
        "eq",
        &[
            "--format",
            "equal-strength",
            "--centre",
            "0.5,0.5,0.5",
            "--eps",
            "2",
            "--no-find",
        ],
    );
    for (name, run) in [("dup", dup), ("eq", eq)] {
        let (out, err, ok) = run.join().unwrap();
        assert!(ok, "{name}: {err}{out}");
        assert!(
            out.contains(&format!("{name}: 6/6 tables, final")),
            "{name}: {out}"
        );
    }
    spy.abort();
    let attacks = attacks.lock().unwrap().clone();
    assert_eq!(
        attacks.len(),
        4,
        "the spy attacked at its first decision of each of its four tables: {:?}",
        attacks.keys()
    );
    // Every table's cards, now that every table has finished.
    let cards: BTreeMap<String, String> = rt.block_on(async {
        let mut mm = v1::matchmaker_client::MatchmakerClient::new(channel(&s.matchmaker).await);
        let mut out = BTreeMap::new();
        for id in table_ids() {
            let replay = mm
                .get_replay(authed(
                    v1::GetTableRequest {
                        table_id: id.clone(),
                    },
                    &s.operator_token(),
                ))
                .await
                .unwrap()
                .into_inner();
            let setup: arena_games::ddz::pb::Setup =
                arena_proto::payload::unpack(replay.job.unwrap().setup.as_ref(), "setup")
                    .unwrap_or_else(|e| panic!("{id}: a Dou Dizhu table: {e}"));
            out.insert(id, setup.deal);
        }
        out
    });
    for (table, attack) in &attacks {
        let deal = &cards[table];
        let hands: Vec<&str> = deal.split('/').take(3).collect();
        assert_eq!(hands.len(), 3, "{deal}");
        for text in &attack.texts {
            for hand in &hands {
                assert!(
                    !text.contains(hand),
                    "at the spy's first decision of {table}, an answer held a hand of its deal \
                     {deal}: {}",
                    &text[..text.len().min(400)]
                );
            }
        }
        let code = |what: &str| {
            attack
                .codes
                .iter()
                .find(|(w, _)| w.starts_with(what))
                .map(|(_, c)| *c)
        };
        // The operator got through: what was withheld was withheld by design, not refused.
        assert_eq!(code("DealLibrary.Export"), Some(Code::Ok), "{attack:?}");
        assert_eq!(code("DealLibrary.Query"), Some(Code::Ok), "{attack:?}");
        assert_eq!(
            code("TableReferee.SubmitTable"),
            Some(Code::InvalidArgument),
            "{:?}",
            attack.codes
        );
        // The spy's own table is unfinished: its replay is not there, or not shown.
        let own = code(&format!("Matchmaker.GetReplay({table})"));
        assert!(
            matches!(own, Some(Code::NotFound | Code::FailedPrecondition)),
            "{own:?}"
        );
    }
}

/// The first answer to a connection of `bot` with `release`.
async fn hello(
    url: &str,
    bot: &str,
    release: &str,
    token: &str,
) -> Result<v1::HostToBot, tonic::Status> {
    let mut client = v1::bot_gateway_client::BotGatewayClient::new(channel(url).await);
    let first = v1::BotToHost {
        msg: Some(v1::bot_to_host::Msg::Hello(v1::Hello {
            bot: bot.into(),
            release: release.into(),
            capacity: 1,
            ..Default::default()
        })),
    };
    let req = authed(
        tokio_stream::iter(vec![first]).chain(tokio_stream::pending()),
        token,
    );
    let mut inbound = client.play(req).await?.into_inner();
    match inbound.message().await? {
        Some(m) => Ok(m),
        None => Err(tonic::Status::unknown("the stream ended")),
    }
}

#[test]
fn shown_names_refuse_invisible_characters_refusals_hide_the_live_session_and_pages_are_bounded() {
    let (s, tokens) = Standalone::start(&[("twin", &[])], &[], &[]);
    let rt = rt();
    rt.block_on(async {
        // A release that reads differently on screen (a right-to-left override, a zero-width
        // space) is refused, naming the character.
        for (c, release) in [("U+202E", "1.0\u{202E}2.0"), ("U+200B", "1\u{200B}")] {
            let e = hello(&s.bots, "twin", release, &tokens[0])
                .await
                .unwrap_err();
            assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
            assert!(e.message().contains("hello.release"), "{e:?}");
            assert!(e.message().contains(c), "{e:?}");
        }
        // Connected once; a second connection is refused without the live session's id (which
        // would let its holder resume the session and take the bot's seats).
        let Some(v1::host_to_bot::Msg::Welcome(welcome)) =
            hello(&s.bots, "twin", "1.0", &tokens[0]).await.unwrap().msg
        else {
            panic!("a welcome");
        };
        assert!(!welcome.session.is_empty());
        let e = hello(&s.bots, "twin", "1.0", &tokens[0]).await.unwrap_err();
        assert_eq!(e.code(), Code::AlreadyExists, "{e:?}");
        assert!(
            !e.message().contains(&welcome.session),
            "the refusal tells the live session: {e:?}"
        );
        // The leaderboard (public where spectators are let in) is served by bounded pages.
        let operator = s.operator_token();
        let mut mm = v1::matchmaker_client::MatchmakerClient::new(channel(&s.matchmaker).await);
        let e = mm
            .get_leaderboard(authed(
                v1::LeaderboardRequest {
                    limit: 100_000,
                    ..Default::default()
                },
                &operator,
            ))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::OutOfRange, "{e:?}");
        let e = mm
            .get_leaderboard(authed(
                v1::LeaderboardRequest {
                    page_token: "p-1".into(),
                    ..Default::default()
                },
                &operator,
            ))
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
        let first = mm
            .get_leaderboard(authed(v1::LeaderboardRequest::default(), &operator))
            .await
            .unwrap()
            .into_inner();
        assert!(first.next_page_token.is_empty(), "{first:?}");
    });
}
