//! The README's remote Mahjong bots play through `arena standalone` as a bot author runs them:
//! registered with `arena bots add`, the Python one (`examples/remote-python/mahjong_bot.py`)
//! as its own process with stubs generated from proto/, the Rust one on the example crate's
//! connection code with the Mahjong binary's options, and hands submitted with `arena table
//! submit --game mahjong` beside built-in bots, then a whole Mahjong competition. Each bot answers
//! every request of its seat itself, in time to draw no verdict, and is told when its tables end.
//! The Dou Dizhu Python bot, whose connection code the Mahjong one reuses, plays a table too.
//!
//! Needs `python3` with `grpcio` and `grpcio-tools` (`.ci/run` installs them).

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use arena_example_remote_bot::{MAHJONG_RELEASE, Options, play_forever_with};
use arena_proto::v1;
use common::Standalone;

/// The release `mahjong_bot.py` reports.
const PY_RELEASE: &str = "py-mahjong-1";

/// Long enough for a first run to generate the Python stubs on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(120);

/// The Python bot's process, killed when dropped, and its stdout lines as they come.
struct PythonBot {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
}

impl PythonBot {
    /// Runs `examples/remote-python/SCRIPT` as bot `name`.
    fn start(s: &Standalone, script: &str, name: &str, token: &str, stubs: &Path) -> PythonBot {
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/remote-python")
            .join(script);
        let mut child = Command::new("python3")
            .arg(script)
            .env("ARENA_BOT", name)
            .env("ARENA_TOKEN", token)
            .env("ARENA_BOT_HOST", s.bots.trim_start_matches("http://"))
            .env("ARENA_STUBS", stubs)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        PythonBot { child, lines }
    }

    /// Waits for a stdout line starting with `prefix`; a bot that ended first fails the test
    /// with what it wrote to stderr.
    fn expect_line(&mut self, prefix: &str) -> String {
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) if line.starts_with(prefix) => return line,
                Ok(_) => {}
                Err(e) => {
                    let _ = self.child.kill();
                    let mut err = String::new();
                    if let Some(mut stderr) = self.child.stderr.take() {
                        let _ = std::io::Read::read_to_string(&mut stderr, &mut err);
                    }
                    panic!(
                        "the Python bot wrote no line starting {prefix:?} ({e}); it needs \
                         grpcio and grpcio-tools (pip install grpcio grpcio-tools). stderr:\n{err}"
                    );
                }
            }
        }
    }
}

impl Drop for PythonBot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Adds the standalone's operator token to every call.
fn operator(s: &Standalone) -> impl tonic::service::Interceptor + use<> {
    let bearer: tonic::metadata::MetadataValue<_> =
        format!("Bearer {}", s.operator_token()).parse().unwrap();
    move |mut req: tonic::Request<()>| {
        req.metadata_mut().insert("authorization", bearer.clone());
        Ok(req)
    }
}

async fn channel(url: &str) -> tonic::transport::Channel {
    tonic::transport::Endpoint::from_shared(url.to_string())
        .unwrap()
        .connect()
        .await
        .unwrap()
}

/// The result and replay of table `id`, read from the referee as the operator.
async fn result_and_replay(s: &Standalone, id: &str) -> (v1::TableResult, v1::Replay) {
    let mut client = v1::table_referee_client::TableRefereeClient::with_interceptor(
        channel(&s.referee).await,
        operator(s),
    );
    let req = v1::GetTableRequest {
        table_id: id.into(),
    };
    let result = client.get_result(req.clone()).await.unwrap().into_inner();
    let replay = client.get_replay(req).await.unwrap().into_inner();
    (result, replay)
}

#[test]
fn the_example_mahjong_bots_play_hands_through_standalone_with_no_verdict() {
    let (s, tokens) = Standalone::start(&[("mjpy", &[]), ("mjrust", &[])], &[], &[]);
    let stubs = tempfile::tempdir().unwrap();
    let mut py = PythonBot::start(&s, "mahjong_bot.py", "mjpy", &tokens[0], stubs.path());
    py.expect_line("connected as mjpy");
    // The Rust bot as its binary runs it (with reconnects), on a runtime of the test's own.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (url, token) = (s.bots.clone(), tokens[1].clone());
    rt.spawn(async move {
        play_forever_with(
            &url,
            "mjrust",
            &token,
            &Options::mahjong(),
            Duration::from_millis(100),
        )
        .await
    });

    let releases = [("mjpy", PY_RELEASE), ("mjrust", MAHJONG_RELEASE)];
    for (seed, seats) in [
        ("1", ["mjpy", "greedy", "mjrust", "expert"]),
        ("2", ["mjrust", "expert", "mjpy", "random"]),
    ] {
        let (out, err, ok) = s.client(&[
            "table",
            "submit",
            "--game",
            "mahjong",
            "--seats",
            &seats.join(","),
            "--seed",
            seed,
            "--referee",
            &s.referee,
        ]);
        assert!(ok, "{err}{out}");
        let id = out
            .lines()
            .find_map(|l| l.strip_prefix("submitted table "))
            .unwrap_or_else(|| panic!("no table id in {out}"))
            .trim()
            .to_string();
        assert!(
            out.contains(&format!("table {id}: {}", seats.join(" / "))),
            "{out}"
        );
        assert!(!out.contains("verdict:"), "{out}");
        let (result, replay) = rt.block_on(result_and_replay(&s, &id));
        assert!(result.error.is_empty(), "{}", result.error);
        assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
        assert!(
            matches!(
                result.outcome.as_ref().and_then(|o| o.game.as_ref()),
                Some(v1::outcome::Game::Mahjong(_))
            ),
            "{result:?}"
        );
        for (bot, release) in releases {
            let seat = seats.iter().position(|b| *b == bot).unwrap();
            assert_eq!(result.releases[seat], release, "{bot} sat in seat {seat}");
            let steps: Vec<&v1::ReplayStep> = replay
                .steps
                .iter()
                .filter(|st| st.seat as usize == seat)
                .collect();
            assert_eq!(steps.len() as u32, result.decisions[seat], "{bot}");
            assert!(
                steps.iter().all(|st| !st.automatic && st.verdict.is_none()),
                "{bot} left a decision to the referee: {steps:?}"
            );
            // Asked on its own turns and on other seats' discards, and answered both.
            for kind in [v1::DecisionKind::Turn, v1::DecisionKind::Claim] {
                assert!(
                    steps.iter().any(|st| st.kind() == kind),
                    "{bot} was never asked {kind:?}"
                );
            }
        }
        // bot-host told the bot the table ended.
        let end = py.expect_line(&format!("table {id}: scores"));
        assert!(end.contains('['), "{end}");
    }

    // A whole 96-hand competition with both bots, as the README runs one: every hand played,
    // and no verdict against either bot.
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--game",
        "mahjong",
        "--matchmaker",
        &s.matchmaker,
        "--name",
        "mjcup",
        "--participants",
        "mjpy,greedy,mjrust,expert",
    ]);
    assert!(ok, "{err}{out}");
    assert!(out.contains("mjcup: 96/96 hands, final"), "{out}");
    let standings = rt.block_on(async {
        let mut mm = v1::matchmaker_client::MatchmakerClient::with_interceptor(
            channel(&s.matchmaker).await,
            operator(&s),
        );
        let req = v1::CompetitionRequest {
            name: "mjcup".into(),
        };
        mm.get_standings(req).await.unwrap().into_inner()
    });
    for (bot, _) in releases {
        let row = standings
            .standings
            .iter()
            .find(|st| st.participant == bot)
            .unwrap_or_else(|| panic!("{bot} is not in {standings:?}"));
        let totals = row.mahjong.unwrap();
        assert_eq!((totals.hands, totals.verdicts), (96, 0), "{bot}: {out}");
    }
}

#[test]
fn the_python_dou_dizhu_bot_plays_a_table_through_standalone() {
    let (s, tokens) = Standalone::start(&[("pyddz", &[])], &[], &[]);
    let stubs = tempfile::tempdir().unwrap();
    let mut py = PythonBot::start(&s, "bot.py", "pyddz", &tokens[0], stubs.path());
    py.expect_line("connected as pyddz");
    let (out, err, ok) = s.client(&[
        "table",
        "submit",
        "--seats",
        "pyddz,expert,expert",
        "--referee",
        &s.referee,
    ]);
    assert!(ok, "{err}{out}");
    assert!(out.contains("seat 0 plays "), "{out}");
    assert!(!out.contains("verdict:"), "{out}");
    let id = out
        .lines()
        .find_map(|l| l.strip_prefix("submitted table "))
        .unwrap()
        .trim()
        .to_string();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (result, replay) = rt.block_on(result_and_replay(&s, &id));
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert_eq!(result.releases[0], "py-1");
    assert!(result.decisions[0] > 0);
    assert!(
        replay
            .steps
            .iter()
            .filter(|st| st.seat == 0)
            .all(|st| !st.automatic)
    );
    py.expect_line(&format!("table {id}: scores"));
}
