//! The README's remote bots play through `arena standalone` as a bot author runs them:
//! registered with `arena bots add`, the Python ones (`examples/remote-python`, on the Python SDK
//! in `sdk/python`) as processes of their own, the Rust one on the example crate's connection
//! code with the Mahjong binary's options, and hands submitted with `arena table submit --game
//! mahjong` beside built-in bots, then a whole Mahjong competition. Each bot answers every
//! request of its seat itself, in time to draw no verdict, and is told when its tables end. The
//! Python Dou Dizhu bot plays a table and a competition, whose exported replays read the same
//! in the Python and the Rust SDK's readers and in `arena competition replay --json`. Both SDKs
//! keep their table through a cut connection (they resume their session, deciding no request
//! twice) and, told to stop (SIGTERM for the Python one), finish their table in flight first.
//! The Chinese Standard Mahjong example (`mcr_bot.py`) and an SDK `McrBot` play a table and an
//! IJCAI competition (one wall at its 24 seatings) beside built-in bots, with no verdict.
//!
//! Needs `python3` with the SDK's dependencies (`pip install ./sdk/python`: `.ci/run` does);
//! the SDK itself is the tree's (`PYTHONPATH=sdk/python/src`), whatever version is installed.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use arena_example_remote_bot::{MAHJONG_RELEASE, Options, play_forever_with};
use arena_proto::{payload, v1};
use arena_sdk::ddz::{self, DdzBot, pb as ddz_pb};
use arena_sdk::mahjong::pb as mahjong_pb;
use common::{Standalone, channel};

/// The release `mahjong_bot.py` reports.
const PY_RELEASE: &str = "py-mahjong-1";

/// Long enough for a bot to start and connect on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(120);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A Python bot's process, killed when dropped: its stdout and stderr lines as they come (the
/// SDK logs to stderr), and its stdin.
struct PythonBot {
    child: std::process::Child,
    lines: mpsc::Receiver<String>,
    seen: Vec<String>,
    stdin: Option<std::process::ChildStdin>,
}

impl PythonBot {
    /// Runs `script` (relative to the repository) as bot `name`, connecting to `bot_host`
    /// (`host:port`).
    fn start(script: &str, name: &str, token: &str, bot_host: &str) -> PythonBot {
        let mut child = Command::new("python3")
            .arg(repo().join(script))
            .env("ARENA_BOT", name)
            .env("ARENA_TOKEN", token)
            .env("ARENA_BOT_HOST", bot_host)
            .env("PYTHONPATH", repo().join("sdk/python/src"))
            .env("PYTHONUNBUFFERED", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        let stderr = child.stderr.take().unwrap();
        for out in [
            Box::new(stdout) as Box<dyn std::io::Read + Send>,
            Box::new(stderr),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(out).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let stdin = child.stdin.take();
        PythonBot {
            child,
            lines,
            seen: Vec::new(),
            stdin,
        }
    }

    /// The example `script` as bot `name` on standalone `s`'s bot port.
    fn example(s: &Standalone, script: &str, name: &str, token: &str) -> PythonBot {
        let script = format!("examples/remote-python/{script}");
        PythonBot::start(&script, name, token, s.bots.trim_start_matches("http://"))
    }

    /// Waits for an output line containing `needle`; a bot that ended first fails the test
    /// with everything it wrote.
    fn expect_line(&mut self, needle: &str) -> String {
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(e) => {
                    let _ = self.child.kill();
                    panic!(
                        "the Python bot wrote no line with {needle:?} ({e}); it needs the SDK's \
                         dependencies (pip install ./sdk/python). It wrote:\n{}",
                        self.seen.join("\n")
                    );
                }
            }
        }
    }

    /// Every line written so far (including those [`PythonBot::expect_line`] passed over).
    fn output(&mut self) -> Vec<String> {
        self.seen.extend(self.lines.try_iter());
        self.seen.clone()
    }

    /// Writes a line to the bot's stdin (a gate of the test bot).
    fn release(&mut self) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(b"go\n").unwrap();
        stdin.flush().unwrap();
    }

    fn signal(&self, signal: i32) {
        // SAFETY: kill(2) on our own child's pid.
        unsafe {
            libc::kill(self.child.id() as i32, signal);
        }
    }

    /// Waits up to [`PATIENCE`] for the bot to exit: its exit status.
    fn exited(&mut self) -> std::process::ExitStatus {
        let start = std::time::Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "the bot still runs: {:?}",
                self.output()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for PythonBot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A TCP proxy on a loopback port in front of `to`, whose connections [`Proxy::cut`] breaks as
/// a network fault would (new connections go through again).
struct Proxy {
    addr: String,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start(to: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (to, registry) = (to.to_string(), Arc::clone(&open));
        // The accepting thread ends with the test process.
        std::thread::spawn(move || {
            for inbound in listener.incoming().map_while(Result::ok) {
                let Ok(outbound) = TcpStream::connect(&to) else {
                    continue;
                };
                let mut reg = registry.lock().unwrap();
                reg.push(inbound.try_clone().unwrap());
                reg.push(outbound.try_clone().unwrap());
                for (mut from, mut into) in [
                    (inbound.try_clone().unwrap(), outbound.try_clone().unwrap()),
                    (outbound, inbound),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut into);
                        let _ = into.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Proxy { addr, open }
    }

    /// Breaks every connection through the proxy.
    fn cut(&self) {
        for s in self.open.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
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
    let mut py = PythonBot::example(&s, "mahjong_bot.py", "mjpy", &tokens[0]);
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
            result
                .outcome
                .as_ref()
                .and_then(|o| o.game.as_ref())
                .is_some_and(payload::is::<mahjong_pb::Outcome>),
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
        let end = py.expect_line(&format!("table {id} ended: scores"));
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
    let (standings, verdicts) = rt.block_on(async {
        let mut mm = v1::matchmaker_client::MatchmakerClient::with_interceptor(
            channel(&s.matchmaker).await,
            operator(&s),
        );
        let req = v1::CompetitionRequest {
            name: "mjcup".into(),
        };
        let standings = mm.get_standings(req.clone()).await.unwrap().into_inner();
        // What the verdicts were, if any: a failure should say why, not just how many.
        let mut verdicts = Vec::new();
        let mut replays = mm.export_replays(req).await.unwrap().into_inner();
        while let Some(replay) = replays.message().await.unwrap() {
            let result = replay.result.unwrap_or_default();
            for v in result.verdicts {
                verdicts.push(format!(
                    "{}: seat {} {:?} at decision {}: {}",
                    result.table_id,
                    v.seat,
                    v.kind(),
                    v.decision,
                    v.reason
                ));
            }
        }
        (standings, verdicts)
    });
    for (bot, _) in releases {
        let row = standings
            .standings
            .iter()
            .find(|st| st.participant == bot)
            .unwrap_or_else(|| panic!("{bot} is not in {standings:?}"));
        let totals: mahjong_pb::Standing = payload::unpack(row.game.as_ref(), "standing").unwrap();
        assert_eq!(
            (totals.hands, totals.verdicts),
            (96, 0),
            "{bot}: {out}\n{}",
            verdicts.join("\n")
        );
    }
}

#[test]
fn the_python_dou_dizhu_bot_plays_a_table_and_a_competition_whose_replays_read_alike_everywhere() {
    let (s, tokens) = Standalone::start(&[("pyddz", &[])], &[], &[]);
    let mut py = PythonBot::example(&s, "bot.py", "pyddz", &tokens[0]);
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
    py.expect_line(&format!("table {id} ended: scores"));

    // A whole duplicate competition, then its replays read by both SDKs' readers and printed
    // by `arena competition replay --json`: the same JSON.
    s.measure(40);
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--matchmaker",
        &s.matchmaker,
        "--name",
        "pycup",
        "--format",
        "duplicate",
        "--participants",
        "pyddz,expert,seed",
        "--panel",
        "ladder:5",
        "--matches",
        "1",
        "--rounds",
        "2",
    ]);
    assert!(ok, "{err}{out}");
    let file = s.data_dir().join("pycup.replays");
    let (out, err, ok) = s.client(&[
        "competition",
        "replays",
        "pycup",
        "--out",
        file.to_str().unwrap(),
        "--matchmaker",
        &s.matchmaker,
    ]);
    assert!(ok, "{err}{out}");
    let replays = arena_sdk::replay::read(&file).unwrap();
    assert!(!replays.is_empty());
    let seated: Vec<_> = replays
        .iter()
        .filter(|r| {
            let result = r.result.as_ref().unwrap();
            result.releases.iter().any(|rel| rel == "py-1")
        })
        .collect();
    assert!(!seated.is_empty(), "pyddz played no table of pycup");
    for r in &replays {
        let result = r.result.as_ref().unwrap();
        assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    }
    let python = Command::new("python3")
        .args(["-m", "arena.replay"])
        .arg(&file)
        .env("PYTHONPATH", repo().join("sdk/python/src"))
        .output()
        .unwrap();
    assert!(
        python.status.success(),
        "{}",
        String::from_utf8_lossy(&python.stderr)
    );
    let python: Vec<serde_json::Value> = String::from_utf8(python.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let rust: Vec<serde_json::Value> = replays.iter().map(arena_sdk::replay::to_json).collect();
    assert_eq!(python, rust, "the two readers' JSON differ");
    // Where they agree on `Any` payloads, both print the message's own JSON with `@type`.
    let typed = |v: &serde_json::Value| v["@type"].as_str().unwrap_or_default().to_string();
    assert_eq!(
        typed(&rust[0]["steps"][0]["action"]["game"]),
        "/arena.ddz.v1.Action",
        "{}",
        rust[0]
    );
    assert_eq!(typed(&rust[0]["job"]["setup"]), "/arena.ddz.v1.Setup");
    let one = arena_sdk::replay::table_id(seated[0]).to_string();
    let (out, err, ok) = s.client(&[
        "competition",
        "replay",
        &one,
        "--json",
        "--matchmaker",
        &s.matchmaker,
    ]);
    assert!(ok, "{err}{out}");
    let cli: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(cli, arena_sdk::replay::to_json(seated[0]));
    assert_eq!(cli["job"]["tableId"], one.as_str());
}

/// `arena table submit --seats SEATS` against standalone `s`, running until the table ends.
fn submit_in_background(s: &Standalone, seats: &str) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["table", "submit", "--seats", seats, "--referee", &s.referee])
        .env("ARENA_DATA_DIR", s.data_dir())
        .env_remove("ARENA_OPERATOR_TOKEN")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The table `arena table submit` played: its id, after checking it ended with no verdict.
fn submitted(child: std::process::Child) -> String {
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}{stdout}");
    assert!(!stdout.contains("verdict:"), "{stdout}");
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("submitted table "))
        .unwrap_or_else(|| panic!("no table id in {stdout}"))
        .trim()
        .to_string()
}

/// Seat 0 of table `id` was played by the bot of `release` itself, every decision, with no
/// verdict.
fn seat0_played_by(s: &Standalone, rt: &tokio::runtime::Runtime, id: &str, release: &str) {
    let (result, replay) = rt.block_on(result_and_replay(s, id));
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert_eq!(result.releases[0], release);
    let steps: Vec<_> = replay.steps.iter().filter(|st| st.seat == 0).collect();
    assert!(!steps.is_empty());
    assert!(steps.iter().all(|st| !st.automatic), "{steps:?}");
}

/// The request ids of the `asked TABLE REQUEST` lines of table `id`.
fn asked(lines: &[String], id: &str) -> Vec<u64> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix(&format!("asked {id} ")))
        .map(|n| n.trim().parse().unwrap())
        .collect()
}

#[test]
fn the_python_sdk_resumes_its_session_when_its_connection_breaks_mid_table() {
    let (s, tokens) = Standalone::start(&[("pyres", &[])], &[], &[]);
    let proxy = Proxy::start(s.bots.trim_start_matches("http://"));
    let mut py = PythonBot::start(
        "crates/cli/tests/python/gated_bot.py",
        "pyres",
        &tokens[0],
        &proxy.addr,
    );
    py.expect_line("connected as pyres");
    let table = submit_in_background(&s, "pyres,expert,expert");
    // The bot holds its first decision; its connection breaks meanwhile, so its answer is
    // made with no stream up and the request stays pending in bot-host.
    py.expect_line("asked ");
    proxy.cut();
    py.expect_line("connection to");
    py.release();
    let resumed = py.expect_line("connected as pyres");
    assert!(resumed.contains("1 request(s) resumed"), "{resumed}");
    let id = submitted(table);
    let rt = tokio::runtime::Runtime::new().unwrap();
    seat0_played_by(&s, &rt, &id, "py-1");
    py.expect_line(&format!("table {id} ended: scores"));
    let ids = asked(&py.output(), &id);
    let mut unique = ids.clone();
    unique.dedup();
    assert_eq!(ids, unique, "a request decided twice: {ids:?}");
}

#[test]
fn sigterm_makes_the_python_sdk_finish_its_table_then_exit_cleanly() {
    let (s, tokens) = Standalone::start(&[("pystop", &[])], &[], &[]);
    let mut py = PythonBot::start(
        "crates/cli/tests/python/gated_bot.py",
        "pystop",
        &tokens[0],
        s.bots.trim_start_matches("http://"),
    );
    py.expect_line("connected as pystop");
    let table = submit_in_background(&s, "pystop,expert,expert");
    py.expect_line("asked ");
    py.signal(libc::SIGTERM);
    let stopping = py.expect_line("stopping:");
    assert!(stopping.contains("finishing 1 table(s)"), "{stopping}");
    py.release();
    let id = submitted(table);
    let status = py.exited();
    assert!(status.success(), "{status:?}: {:?}", py.output());
    let out = py.output();
    assert!(
        out.iter().any(|l| l.contains(&format!("table {id} ended")))
            && out.iter().any(|l| l.contains("drained")),
        "{out:?}"
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    seat0_played_by(&s, &rt, &id, "py-1");
}

/// A Rust SDK bot for the tests below: the example's Dou Dizhu play, recording every request id
/// it decides, with its first decision held until the test opens `gate`.
struct GatedRust {
    asked: Arc<Mutex<Vec<u64>>>,
    gate: Arc<Mutex<Option<mpsc::Receiver<()>>>>,
    reached: mpsc::Sender<()>,
}

impl DdzBot for GatedRust {
    fn decide(&mut self, req: &v1::DecisionRequest, obs: &ddz_pb::Observation) -> ddz_pb::Action {
        self.asked.lock().unwrap().push(req.request_id);
        let held = self.gate.lock().unwrap().take();
        if let Some(gate) = held {
            let _ = self.reached.send(());
            let _ = gate.recv_timeout(PATIENCE);
        }
        arena_example_remote_bot::choose(req, obs)
    }
}

/// The pieces of a [`GatedRust`] run: its handler's shared parts, the gate's opener, and the
/// signal that the first decision was reached.
struct Gate {
    asked: Arc<Mutex<Vec<u64>>>,
    gate: Arc<Mutex<Option<mpsc::Receiver<()>>>>,
    open: mpsc::Sender<()>,
    reached_tx: mpsc::Sender<()>,
    reached: mpsc::Receiver<()>,
}

impl Gate {
    fn new() -> Gate {
        let (open, gate) = mpsc::channel();
        let (reached_tx, reached) = mpsc::channel();
        Gate {
            asked: Arc::default(),
            gate: Arc::new(Mutex::new(Some(gate))),
            open,
            reached_tx,
            reached,
        }
    }

    /// The Dou Dizhu handler making the run's [`GatedRust`] bots.
    fn handler(&self) -> arena_sdk::Handler {
        let (asked, gate, reached) = (
            Arc::clone(&self.asked),
            Arc::clone(&self.gate),
            self.reached_tx.clone(),
        );
        ddz::handler(move || GatedRust {
            asked: Arc::clone(&asked),
            gate: Arc::clone(&gate),
            reached: reached.clone(),
        })
    }
}

/// The release the tests' Rust SDK bot reports.
const RUST_RELEASE: &str = "rust-sdk-test";

fn rust_options() -> arena_sdk::Options {
    arena_sdk::Options {
        release: RUST_RELEASE.into(),
        backoff: Duration::from_millis(50),
        ..arena_sdk::Options::default()
    }
}

#[test]
fn the_rust_sdk_resumes_its_session_when_its_connection_breaks_mid_table() {
    let (s, tokens) = Standalone::start(&[("rsres", &[])], &[], &[]);
    let proxy = Proxy::start(s.bots.trim_start_matches("http://"));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let gate = Gate::new();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (url, token, handler) = (
        format!("http://{}", proxy.addr),
        tokens[0].clone(),
        gate.handler(),
    );
    let bot = rt.spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        arena_sdk::run(&url, "rsres", &token, &rust_options(), handler, shutdown).await
    });
    let table = submit_in_background(&s, "rsres,expert,expert");
    gate.reached.recv_timeout(PATIENCE).unwrap();
    // Its answer is made after the connection broke: lost with it, or sent on the next one.
    proxy.cut();
    gate.open.send(()).unwrap();
    let id = submitted(table);
    seat0_played_by(&s, &rt, &id, RUST_RELEASE);
    let _ = stop.send(());
    let session = rt.block_on(bot).unwrap().unwrap();
    assert!(session.drained);
    assert_eq!(
        (session.connections, session.resumed),
        (2, 1),
        "{session:?}"
    );
    let asked = gate.asked.lock().unwrap().clone();
    let mut unique = asked.clone();
    unique.dedup();
    assert_eq!(asked, unique, "a request decided twice: {asked:?}");
}

#[test]
fn the_rust_sdk_drains_on_shutdown_finishing_its_table_in_flight() {
    let (s, tokens) = Standalone::start(&[("rsstop", &[])], &[], &[]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let gate = Gate::new();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (url, token, handler) = (s.bots.clone(), tokens[0].clone(), gate.handler());
    let bot = rt.spawn(async move {
        let shutdown = async {
            let _ = stopped.await;
        };
        arena_sdk::run(&url, "rsstop", &token, &rust_options(), handler, shutdown).await
    });
    let table = submit_in_background(&s, "rsstop,expert,expert");
    gate.reached.recv_timeout(PATIENCE).unwrap();
    stop.send(()).unwrap();
    gate.open.send(()).unwrap();
    let session = rt
        .block_on(async { tokio::time::timeout(PATIENCE, bot).await })
        .expect("the bot returns once its table has ended")
        .unwrap()
        .unwrap();
    let id = submitted(table);
    assert!(session.drained, "{session:?}");
    assert_eq!((session.tables, session.connections), (1, 1), "{session:?}");
    seat0_played_by(&s, &rt, &id, RUST_RELEASE);
}

/// The SDK's Chinese Standard Mahjong bot of the test: wins whenever `HU` is listed, else the
/// first `PLAY`, and passes every claim.
struct McrFirst;

impl arena_sdk::mcr::McrBot for McrFirst {
    fn turn(&mut self, obs: &arena_sdk::mcr::pb::Observation) -> String {
        let win = obs.legal.iter().find(|a| *a == "HU");
        let play = obs.legal.iter().find(|a| a.starts_with("PLAY "));
        win.or(play).cloned().unwrap_or_else(|| "PASS".into())
    }
}

#[test]
fn the_example_mcr_bots_play_a_table_and_an_ijcai_competition_through_standalone() {
    let (s, tokens) = Standalone::start(&[("mcrpy", &[]), ("mcrrust", &[])], &[], &[]);
    let mut py = PythonBot::example(&s, "mcr_bot.py", "mcrpy", &tokens[0]);
    py.expect_line("connected as mcrpy");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (url, token) = (s.bots.clone(), tokens[1].clone());
    rt.spawn(async move {
        let options = arena_sdk::Options {
            release: "rust-mcr-1".into(),
            ..Default::default()
        };
        let games = arena_sdk::Games::new().with(arena_sdk::mcr::handler(|| McrFirst));
        arena_sdk::run(
            &url,
            "mcrrust",
            &token,
            &options,
            games,
            std::future::pending(),
        )
        .await
    });

    let seats = ["mcrpy", "efficiency", "mcrrust", "random"];
    let (out, err, ok) = s.client(&[
        "table",
        "submit",
        "--game",
        "mcr",
        "--seats",
        &seats.join(","),
        "--seed",
        "3",
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
    let (result, replay) = rt.block_on(result_and_replay(&s, &id));
    assert!(result.error.is_empty(), "{}", result.error);
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert_eq!(
        result.outcome.as_ref().unwrap().scores.iter().sum::<i64>(),
        0
    );
    assert!(
        result
            .outcome
            .as_ref()
            .and_then(|o| o.game.as_ref())
            .is_some_and(payload::is::<arena_sdk::mcr::pb::Outcome>),
        "{result:?}"
    );
    for (bot, release) in [("mcrpy", "py-mcr-1"), ("mcrrust", "rust-mcr-1")] {
        let seat = seats.iter().position(|b| *b == bot).unwrap();
        assert_eq!(result.releases[seat], release, "{bot}");
        let steps: Vec<&v1::ReplayStep> = replay
            .steps
            .iter()
            .filter(|st| st.seat as usize == seat)
            .collect();
        assert!(!steps.is_empty(), "{bot} was never asked");
        assert!(
            steps.iter().all(|st| !st.automatic && st.verdict.is_none()),
            "{bot} left a decision to the referee: {steps:?}"
        );
    }
    py.expect_line(&format!("table {id} ended: scores"));

    // One IJCAI wall: 24 seatings, both remote bots in every one, no verdict against either.
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--game",
        "mcr",
        "--matchmaker",
        &s.matchmaker,
        "--name",
        "mcrcup",
        "--participants",
        "mcrpy,efficiency,mcrrust,random",
        "--walls",
        "1",
    ]);
    assert!(ok, "{err}{out}");
    assert!(out.contains("mcrcup: 24/24 tables, final"), "{out}");
    let standings = rt.block_on(async {
        let mut mm = v1::matchmaker_client::MatchmakerClient::with_interceptor(
            channel(&s.matchmaker).await,
            operator(&s),
        );
        let req = v1::CompetitionRequest {
            name: "mcrcup".into(),
        };
        mm.get_standings(req).await.unwrap().into_inner()
    });
    let mut names: Vec<&str> = standings
        .standings
        .iter()
        .map(|s| s.participant.as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["efficiency", "mcrpy", "mcrrust", "random"]);
    assert!(
        standings.standings.iter().all(|s| s.verdicts == 0),
        "{standings:?}"
    );
}
