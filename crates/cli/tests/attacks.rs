//! The arena tried as a hostile bot would: every attack that once worked, restated as the
//! behaviour now expected, against `arena standalone` (and `arena bot-host`) as real processes.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arena_proto::v1;
use common::{Standalone, channel, port, rt};
use prost::Message;
use tokio_stream::StreamExt;
use tonic::Code;

/// Calls `path` with an empty request and `token` (if any): the status it ends with (OK when it
/// got through to the service and it answered).
async fn call(url: &str, path: &str, token: Option<&str>) -> Code {
    #[derive(Clone, PartialEq, prost::Message)]
    struct Empty {}
    let mut grpc = tonic::client::Grpc::new(channel(url).await);
    grpc.ready().await.unwrap();
    let mut req = tonic::Request::new(Empty {});
    if let Some(t) = token {
        req.metadata_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    let codec = tonic_prost::ProstCodec::<Empty, Empty>::default();
    let path = http::uri::PathAndQuery::try_from(path).unwrap();
    match grpc.unary(req, path, codec).await {
        Ok(_) => Code::Ok,
        Err(s) => s.code(),
    }
}

/// Every method of arena's services, as `/package.Service/Method`.
fn every_method() -> Vec<(String, String)> {
    let set = prost_types::FileDescriptorSet::decode(arena_proto::FILE_DESCRIPTOR_SET).unwrap();
    let mut out = Vec::new();
    for file in set.file {
        let package = file.package().to_string();
        for service in &file.service {
            for m in &service.method {
                out.push((
                    format!("{package}.{}", service.name()),
                    format!("/{package}.{}/{}", service.name(), m.name()),
                ));
            }
        }
    }
    assert!(out.len() > 20, "{out:?}");
    out
}

const SPECTATOR: [&str; 7] = [
    "GetCompetition",
    "ListCompetitions",
    "WatchCompetition",
    "GetStandings",
    "ExportReplays",
    "GetReplay",
    "GetLeaderboard",
];

#[test]
fn every_method_refuses_callers_without_an_operator_token() {
    // One failed-attempt limiter guards every port of a standalone, so each service's refused
    // bot tokens are asked of a standalone of its own to stay within the limiter's burst.
    let mut by_service: std::collections::HashMap<String, (Standalone, Vec<String>)> =
        std::collections::HashMap::new();
    let rt = rt();
    for (service, path) in every_method() {
        let (s, tokens) = by_service
            .entry(service.clone())
            .or_insert_with(|| Standalone::start(&[("spy", &[])], &[], &[]));
        let url = match service.as_str() {
            "arena.v1.Matchmaker" | "arena.v1.BotRegistry" => s.matchmaker.clone(),
            "arena.v1.DealLibrary" => s.library.clone(),
            "arena.v1.TableReferee" => s.referee.clone(),
            // SeatHost is not served on the bot port at all.
            "arena.v1.BotGateway" | "arena.v1.SeatHost" => s.bots.clone(),
            other => panic!("a service this test does not know: {other}"),
        };
        let bot_token = tokens[0].clone();
        rt.block_on(async {
            let anonymous = call(&url, &path, None).await;
            assert_eq!(anonymous, Code::Unauthenticated, "{path} without a token");
            // A bot's token opens nothing but its own stream.
            if service != "arena.v1.BotGateway" {
                let with_bot_token = call(&url, &path, Some(&bot_token)).await;
                assert_eq!(
                    with_bot_token,
                    Code::Unauthenticated,
                    "{path} with a bot token"
                );
            }
        });
    }
    let (s, _) = by_service
        .values()
        .next()
        .expect("every_method lists services");
    rt.block_on(async {
        // Health and reflection are public, on purpose (they show no state).
        assert_eq!(
            call(&s.matchmaker, "/grpc.health.v1.Health/Check", None).await,
            Code::Ok
        );
    });
    drop(by_service);

    // Spectator reads opened to the public: exactly those, nothing else.
    let (s, _) = Standalone::start(&[], &["--public-spectator"], &[]);
    rt.block_on(async {
        for (service, path) in every_method() {
            if service != "arena.v1.Matchmaker" {
                continue;
            }
            let method = path.rsplit('/').next().unwrap();
            let code = call(&s.matchmaker, &path, None).await;
            if SPECTATOR.contains(&method) {
                assert_ne!(code, Code::Unauthenticated, "{path} is a spectator read");
            } else {
                assert_eq!(code, Code::Unauthenticated, "{path}");
            }
        }
    });
    drop(s);
    // The bot registry is no spectator read: refused without a token, spectators public or not.
    let (s, _) = Standalone::start(&[], &["--public-spectator"], &[]);
    rt.block_on(async {
        for (service, path) in every_method() {
            if service == "arena.v1.BotRegistry" {
                let code = call(&s.matchmaker, &path, None).await;
                assert_eq!(code, Code::Unauthenticated, "{path}");
            }
        }
    });
}

/// The bot that fetched its own table's deal (DealLibrary.Export) and its duplicate sibling's
/// replay (Matchmaker.GetReplay) at its first decision: now every such call is refused.
#[test]
fn a_bot_cannot_reach_its_tables_cards_from_any_api() {
    let (s, tokens) = Standalone::start(&[("spy", &[])], &[], &[]);
    s.measure(60);
    let rt = rt();
    let token = tokens[0].clone();
    let tried: std::sync::Arc<std::sync::Mutex<Vec<(&'static str, Code)>>> = Default::default();
    let (bots, mm, lib, referee) = (
        s.bots.clone(),
        s.matchmaker.clone(),
        s.library.clone(),
        s.referee.clone(),
    );
    let record = tried.clone();
    let spy = rt.spawn(async move {
        let mut client = v1::bot_gateway_client::BotGatewayClient::new(channel(&bots).await);
        let (tx, rx) = tokio::sync::mpsc::channel(64);
        tx.send(v1::BotToHost {
            msg: Some(v1::bot_to_host::Msg::Hello(v1::Hello {
                bot: "spy".into(),
                release: "1".into(),
                capacity: 4,
                resume_session: String::new(),
                ..Default::default()
            })),
        })
        .await
        .unwrap();
        let mut req = tonic::Request::new(tokio_stream::wrappers::ReceiverStream::new(rx));
        req.metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
        let mut inbound = client.play(req).await.unwrap().into_inner();
        let mut attacked = false;
        while let Some(Ok(m)) = inbound.next().await {
            let Some(v1::host_to_bot::Msg::Request(r)) = m.msg else {
                continue;
            };
            if !attacked {
                attacked = true;
                // The attacks, with the only credential a bot has: its own token.
                let attacks = [
                    ("DealLibrary.Export", &lib, "/arena.v1.DealLibrary/Export"),
                    (
                        "Matchmaker.GetReplay",
                        &mm,
                        "/arena.v1.Matchmaker/GetReplay",
                    ),
                    (
                        "Matchmaker.ExportReplays",
                        &mm,
                        "/arena.v1.Matchmaker/ExportReplays",
                    ),
                    (
                        "TableReferee.GetReplay",
                        &referee,
                        "/arena.v1.TableReferee/GetReplay",
                    ),
                    (
                        "TableReferee.GetResult",
                        &referee,
                        "/arena.v1.TableReferee/GetResult",
                    ),
                ];
                for (what, url, path) in attacks {
                    let code = call(url, path, Some(&token)).await;
                    record.lock().unwrap().push((what, code));
                }
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
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--matchmaker",
        &s.matchmaker,
        "--name",
        "dup",
        "--format",
        "duplicate",
        "--participants",
        "spy,expert,seed",
        "--panel",
        "ladder:5",
        "--matches",
        "1",
        "--rounds",
        "2",
    ]);
    assert!(ok, "{err}{out}");
    assert!(out.contains("dup: 6/6 tables, final"), "{out}");
    spy.abort();
    let tried = tried.lock().unwrap().clone();
    assert_eq!(
        tried.len(),
        5,
        "the spy attacked at its first decision: {tried:?}"
    );
    for (what, code) in tried {
        assert_eq!(code, Code::Unauthenticated, "{what}");
    }
}

/// Connects to the bot gateway at `url` as `bot` with `token`: the stream's first answer.
async fn hello(url: &str, bot: &str, token: &str) -> Result<v1::HostToBot, tonic::Status> {
    let mut client = v1::bot_gateway_client::BotGatewayClient::new(channel(url).await);
    let first = v1::BotToHost {
        msg: Some(v1::bot_to_host::Msg::Hello(v1::Hello {
            bot: bot.into(),
            release: "1".into(),
            capacity: 1,
            resume_session: String::new(),
            ..Default::default()
        })),
    };
    let mut req =
        tonic::Request::new(tokio_stream::iter(vec![first]).chain(tokio_stream::pending()));
    req.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let mut inbound = client.play(req).await?.into_inner();
    match inbound.message().await? {
        Some(m) => Ok(m),
        None => Err(tonic::Status::unknown("the stream ended")),
    }
}

#[test]
fn guessing_bot_tokens_is_slowed_and_a_flooding_bot_is_cut_off_while_bot_host_stays_small() {
    let (s, tokens) = Standalone::start(&[("flood", &[]), ("polite", &[])], &[], &[]);
    let rt = rt();
    rt.block_on(async {
        // Brute force: after a burst of failures, even the right token waits.
        let mut codes = Vec::new();
        for _ in 0..12 {
            codes.push(hello(&s.bots, "polite", "guess").await.unwrap_err().code());
        }
        assert!(
            codes[..10].iter().all(|c| *c == Code::Unauthenticated),
            "{codes:?}"
        );
        assert_eq!(codes[11], Code::ResourceExhausted, "{codes:?}");
    });
    drop(s);

    let (s, tokens2) = Standalone::start(&[("flood", &[]), ("polite", &[])], &[], &[]);
    let _ = tokens;
    let before = s.rss_kib();
    rt.block_on(async {
        // A bot that floods replies nobody asked for and never reads what comes back.
        let mut client = v1::bot_gateway_client::BotGatewayClient::new(channel(&s.bots).await);
        let (tx, rx) = tokio::sync::mpsc::channel(1024);
        tx.send(v1::BotToHost {
            msg: Some(v1::bot_to_host::Msg::Hello(v1::Hello {
                bot: "flood".into(),
                release: "1".into(),
                capacity: 1,
                resume_session: String::new(),
                ..Default::default()
            })),
        })
        .await
        .unwrap();
        let mut req = tonic::Request::new(tokio_stream::wrappers::ReceiverStream::new(rx));
        req.metadata_mut().insert(
            "authorization",
            format!("Bearer {}", tokens2[0]).parse().unwrap(),
        );
        let mut inbound = client.play(req).await.unwrap().into_inner();
        let junk = v1::BotToHost {
            msg: Some(v1::bot_to_host::Msg::Reply(v1::DecisionReply {
                request_id: 1,
                table_id: "x".repeat(200),
                action: None,
            })),
        };
        // Until bot-host stops taking them (it cuts the bot off): a send that makes no progress
        // for a while means the stream is gone.
        for _ in 0..300_000 {
            match tokio::time::timeout(Duration::from_secs(2), tx.send(junk.clone())).await {
                Ok(Ok(())) => {}
                _ => break,
            }
        }
        // Everyone else is served meanwhile.
        let welcome = hello(&s.bots, "polite", &tokens2[1]).await.unwrap();
        assert!(
            matches!(welcome.msg, Some(v1::host_to_bot::Msg::Welcome(_))),
            "{welcome:?}"
        );
        let after = s.rss_kib();
        assert!(
            after < 300 * 1024,
            "bot-host grew from {before} KiB to {after} KiB under one flooding bot"
        );
        // Reading at last: the stream was cut off, saying why.
        let status = loop {
            match tokio::time::timeout(Duration::from_secs(30), inbound.message()).await {
                Ok(Ok(Some(_))) => continue,
                Ok(Ok(None)) => panic!("the stream ended without a status"),
                Ok(Err(s)) => break s,
                Err(_) => panic!("the flooding bot was never cut off"),
            }
        };
        assert_eq!(status.code(), Code::ResourceExhausted, "{status:?}");
        eprintln!("bot-host RSS {before} KiB before the flood, {after} KiB after");
    });
}

/// The python source of a program bot that tries every way out of its sandbox it can think of
/// and exits with a bit set for each that worked (0: none did). Its crash verdict quotes the
/// exit code.
fn escape_artist(marker: &str, secret_file: &Path, outside: &Path) -> String {
    format!(
        r#"import os, socket, sys
bits = 0
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    for what in ("environ", "cmdline"):
        try:
            if "{marker}" in open(f"/proc/{{pid}}/{{what}}", "rb").read().decode("latin-1"):
                bits |= 1
        except OSError:
            pass
if "{marker}" in str(os.environ):
    bits |= 1
try:
    socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    bits |= 2
except OSError:
    pass
try:
    open("{outside}", "w").write("escaped")
    bits |= 4
except OSError:
    pass
try:
    open("{secret}").read()
    bits |= 8
except OSError:
    pass
open("inside.txt", "w").write("fine")
print("join escape-artist", flush=True)
sys.exit(bits)
"#,
        outside = outside.display(),
        secret = secret_file.display(),
    )
}

#[test]
fn a_sandboxed_program_cannot_read_secrets_reach_the_network_or_write_outside_its_directory() {
    let scripts = common::readable_dir("attacks");
    let marker = format!("attack-marker-{}", std::process::id());
    let outside = std::env::temp_dir().join(format!("{marker}-escaped"));
    // The secret: the operator token standalone keeps in its data directory; its path is only
    // known once the directory exists, so the script reads it from an argument.
    let dir_placeholder = scripts.path().join("unused");
    let script = common::write_script(
        scripts.path(),
        "escape.py",
        &escape_artist(&marker, &dir_placeholder, &outside),
    );
    let command = format!("/usr/bin/python3 {}", script.display());
    let (s, _) = Standalone::start(
        &[("escape", &["--program", &command])],
        // The marker sits in standalone's environment and command line.
        &["--ladder-anchors", &marker],
        &[("ARENA_ATTACK_MARKER", &marker)],
    );
    // Now that the data directory exists, point the script at its secret.
    let secret = s.data_dir().join("operator.token");
    common::write_script(
        scripts.path(),
        "escape.py",
        &escape_artist(&marker, &secret, &outside),
    );
    let (out, err, ok) = s.client(&[
        "table",
        "submit",
        "--referee",
        &s.referee,
        "--seats",
        "escape,expert,expert",
    ]);
    assert!(ok, "{err}{out}");
    let verdict = out
        .lines()
        .find(|l| l.contains("verdict: seat 0"))
        .unwrap_or_else(|| panic!("no verdict for the program: {out}"));
    assert!(
        verdict.contains("exit code 0"),
        "an escape worked (1 = saw the host's environment or command line, 2 = network, \
         4 = wrote outside, 8 = read a secret): {verdict}"
    );
    assert!(!outside.exists(), "{} was written", outside.display());
    assert!(s.operator_token().len() > 10);
}

#[test]
fn a_programs_children_die_with_bot_host() {
    let scripts = common::readable_dir("attacks");
    let marker = format!(
        "{}.{}",
        86_000 + std::process::id() % 400,
        std::process::id() % 1000
    );
    // Leaves a setsid'd grandchild and a background child behind, then thinks for ever.
    let script = common::write_script(
        scripts.path(),
        "leaver.sh",
        &format!(
            "#!/bin/sh\nsetsid sleep {marker} &\nsleep {marker} &\necho join\nwhile read line; do :; done\nsleep {marker}\n"
        ),
    );
    let command = format!("/bin/sh {}", script.display());
    let (mut s, _) = Standalone::start(&[("leaver", &["--program", &command])], &[], &[]);
    let data = s.data_dir().to_path_buf();
    let referee = s.referee.clone();
    let mut submit = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "table",
            "submit",
            "--referee",
            &referee,
            "--seats",
            "leaver,expert,expert",
        ])
        .env("ARENA_DATA_DIR", &data)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let sleepers = || -> Vec<u32> {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&marker))
            })
            .collect()
    };
    let start = Instant::now();
    while sleepers().len() < 2 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the program never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // bot-host dies without a chance to clean up.
    let _ = s.child.kill();
    let _ = s.child.wait();
    let start = Instant::now();
    while !sleepers().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "still alive after bot-host's SIGKILL: {:?}",
            sleepers()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = submit.kill();
    let _ = submit.wait();
}

#[test]
fn operator_input_is_bounded_and_the_matchmaker_survives_it() {
    let (s, _) = Standalone::start(&[], &[], &[]);
    s.measure(60);
    let create = |extra: &[&str]| {
        let mut args = vec![
            "competition",
            "create",
            "--matchmaker",
            &s.matchmaker,
            "--name",
            "x",
            "--format",
            "random",
            "--panel",
            "ladder:5",
        ];
        args.extend_from_slice(extra);
        s.client(&args)
    };
    let (_, err, ok) = create(&[
        "--participants",
        "expert,seed",
        "--matches",
        "2147483648",
        "--rounds",
        "2147483648",
    ]);
    assert!(!ok && err.contains("OutOfRange"), "{err}");
    let (_, err, ok) = create(&["--participants", "expert,ghost"]);
    assert!(
        !ok && err.contains("FailedPrecondition") && err.contains("ghost"),
        "{err}"
    );
    let (_, err, ok) = create(&["--participants", "expert,search:samples=4000000000"]);
    assert!(!ok && err.contains("most allowed"), "{err}");
    // Still serving.
    let (out, err, ok) = s.client(&["competition", "list", "--matchmaker", &s.matchmaker]);
    assert!(ok, "{err}");
    assert!(out.contains("no competitions"), "{out}");
}

/// A referee playing a table of the heaviest built-in bots allowed still exits within its
/// shutdown grace of SIGTERM (a search budget once made it ignore SIGTERM for ever).
#[test]
fn sigterm_ends_a_referee_within_its_grace_while_it_plays_heavy_bots() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("operator");
    std::fs::write(&token_file, "sigterm-test-operator\n").unwrap();
    let p = port();
    let mut referee = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "table-referee",
            "--data-dir",
            dir.path().join("store").to_str().unwrap(),
        ])
        .args([
            "--listen",
            &format!("127.0.0.1:{p}"),
            "--shutdown-grace-ms",
            "1000",
        ])
        .args(["--operator-token-file", token_file.to_str().unwrap()])
        // "playing the table" is a per-table line, logged at debug.
        .env("ARENA_LOG", "info,arena_referee=debug")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The referee says when it starts playing a table; its log is drained to the end so that
    // it never blocks on a full pipe.
    let (playing_tx, playing) = std::sync::mpsc::channel();
    let log = referee.stderr.take().unwrap();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(log).lines().map_while(Result::ok) {
            if line.contains("playing the table") {
                let _ = playing_tx.send(());
            }
        }
    });
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", p)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the referee did not come up"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let heavy = "search:samples=2000,candidates=10";
    let seats = format!("{heavy},{heavy},{heavy}");
    let mut submit = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "table",
            "submit",
            "--referee",
            &format!("http://127.0.0.1:{p}"),
        ])
        .args([
            "--seats",
            &seats,
            "--wait-secs",
            "120",
            "--decision-ms",
            "60000",
        ])
        .env("ARENA_OPERATOR_TOKEN", "sigterm-test-operator")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Once the table is submitted, the referee takes it within its poll interval (a second);
    // the table then runs for far longer than the grace.
    let mut out = std::io::BufReader::new(submit.stdout.take().unwrap());
    let mut line = String::new();
    let start = Instant::now();
    loop {
        line.clear();
        use std::io::BufRead;
        if out.read_line(&mut line).unwrap() == 0 || line.contains("submitted table") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "not submitted");
    }
    assert!(line.contains("submitted table"), "{line:?}");
    // The referee plays the table (of search bots with a minute per decision: far longer than
    // the grace) when SIGTERM arrives.
    playing
        .recv_timeout(Duration::from_secs(60))
        .expect("the referee did not start the table");
    let term = Instant::now();
    // SAFETY: kill(2) with a child's pid; no memory is touched.
    unsafe {
        libc::kill(referee.id() as i32, libc::SIGTERM);
    }
    let status = loop {
        if let Some(s) = referee.try_wait().unwrap() {
            break s;
        }
        assert!(
            term.elapsed() < Duration::from_secs(15),
            "the referee ignored SIGTERM for {:?}",
            term.elapsed()
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    eprintln!("exited {status} {:?} after SIGTERM", term.elapsed());
    let _ = submit.kill();
    let _ = submit.wait();
}

/// Secrets never show: not in `--help` (the environment's Redis URL), not in errors (a URL with a
/// password that cannot be reached or parsed), not in the start-up lines of standalone.
#[test]
fn secrets_are_never_printed() {
    let secret = "s3cr3t-in-the-url";
    for role in ["bot-host", "table-referee", "matchmaker", "deal-library"] {
        let out = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args([role, "--help"])
            .env("ARENA_REDIS_URL", format!("redis://:{secret}@127.0.0.1:1"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("ARENA_REDIS_URL"), "{text}");
        assert!(
            !text.contains(secret),
            "{role} --help shows the URL: {text}"
        );
    }
    for url in [
        format!("redis://:{secret}@127.0.0.1:1"),
        format!("redis://:{secret}@127.0.0.1:notaport"),
        format!("rediss://user:{secret}@127.0.0.1:1/0"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(["bots", "list", "--redis", &url])
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!out.status.success(), "{url}: {text}");
        assert!(!text.contains(secret), "the password shows: {text}");
    }
    // standalone names the token's file, never the token.
    let dir = arena_testkit::private_tempdir();
    let (r, b, l, m) = (port(), port(), port(), port());
    let at = |p: u16| format!("127.0.0.1:{p}");
    let child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["standalone", "--data-dir", dir.path().to_str().unwrap()])
        .args(["--referee-listen", &at(r), "--bot-host-listen", &at(b)])
        .args([
            "--deal-library-listen",
            &at(l),
            "--matchmaker-listen",
            &at(m),
        ])
        .env("ARENA_CONSOLE_LISTEN", "127.0.0.1:0")
        .env("ARENA_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let token_file = dir.path().join("operator.token");
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", m)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "standalone did not come up"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill(2) with a child's pid; no memory is touched.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let out = child.wait_with_output().unwrap();
    let token = std::fs::read_to_string(&token_file).unwrap();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(printed.contains("operator.token"), "{printed}");
    assert!(
        !printed.contains(token.trim()),
        "standalone printed its operator token"
    );
}
