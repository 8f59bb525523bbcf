//! Where clients find a standalone: `arena standalone` honours the roles' `ARENA_*_LISTEN`
//! variables, writes the addresses it listens on to its data directory's `endpoints.json`, and
//! every client given that data directory talks to it there, not to the default ports (where
//! another process may listen); flags and environment variables still win. The file goes when
//! the standalone stops.

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Far more than a standalone needs to come up or stop, on a loaded machine.
const WITHIN: Duration = Duration::from_secs(60);

/// `arena ARGS` as a client knowing nothing but `data_dir`: no address or token in the
/// environment.
fn client(data_dir: &Path, args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .args(["--data-dir", data_dir.to_str().unwrap()])
        .env_remove("ARENA_MATCHMAKER")
        .env_remove("ARENA_DEAL_LIBRARY")
        .env_remove("ARENA_REFEREE")
        .env_remove("ARENA_OPERATOR_TOKEN")
        .env_remove("ARENA_DATA_DIR")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

/// A standalone in `data_dir` whose ports come from the environment alone, as the other roles
/// read them; and those ports.
fn start(data_dir: &Path) -> (Child, [u16; 4]) {
    let ports = [
        common::port(),
        common::port(),
        common::port(),
        common::port(),
    ];
    let at = |p: u16| format!("127.0.0.1:{p}");
    let child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["standalone", "--data-dir", data_dir.to_str().unwrap()])
        .env("ARENA_REFEREE_LISTEN", at(ports[0]))
        .env("ARENA_BOT_HOST_LISTEN", at(ports[1]))
        .env("ARENA_DEAL_LIBRARY_LISTEN", at(ports[2]))
        .env("ARENA_MATCHMAKER_LISTEN", at(ports[3]))
        .env("ARENA_CONSOLE_LISTEN", "127.0.0.1:0")
        .env("ARENA_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    (child, ports)
}

/// The endpoints file once the standalone has written it.
fn endpoints(data_dir: &Path, child: &mut Child) -> serde_json::Value {
    let path = data_dir.join("endpoints.json");
    let start = Instant::now();
    loop {
        // Written whole (renamed into place): once there, it parses.
        if let Ok(text) = std::fs::read_to_string(&path) {
            return serde_json::from_str(&text).unwrap();
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "standalone exited before writing endpoints.json"
        );
        assert!(start.elapsed() < WITHIN, "no endpoints.json");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn clients_find_a_standalone_on_other_ports_through_its_data_dir() {
    let dir = arena_testkit::private_tempdir();
    let data = dir.path();
    let (mut child, [referee, bot_host, library, matchmaker]) = start(data);
    let found = endpoints(data, &mut child);
    let url = |p: u16| serde_json::Value::from(format!("http://127.0.0.1:{p}"));
    assert_eq!(found["referee"], url(referee), "{found}");
    assert_eq!(found["bot_host"], url(bot_host), "{found}");
    assert_eq!(found["deal_library"], url(library), "{found}");
    assert_eq!(found["matchmaker"], url(matchmaker), "{found}");
    assert!(
        found["console"]
            .as_str()
            .unwrap()
            .starts_with("http://127.0.0.1:"),
        "{found}"
    );

    // The store is held by the standalone, so `bots add` goes through its matchmaker: the one
    // the data directory names, not whatever listens on :50054.
    let (out, err, ok) = client(data, &["bots", "add", "north"]);
    assert!(ok, "bots add: {err}{out}");
    assert!(err.contains(&format!("127.0.0.1:{matchmaker}")), "{err}");
    let (out, err, ok) = client(data, &["bots", "list"]);
    assert!(ok && out.contains("north"), "bots list: {err}{out}");
    // A matchmaker client without --matchmaker, and a deal-library client without --library.
    let (out, err, ok) = client(data, &["competition", "list"]);
    assert!(ok, "competition list: {err}{out}");
    let (out, err, ok) = client(data, &["deals", "export", "--panel", "ladder:5"]);
    assert!(ok, "deals export: {err}{out}");
    assert!(err.contains(&format!("127.0.0.1:{library}")), "{err}");

    // A flag still wins: a matchmaker address where nothing listens is tried, and named.
    let nothing = format!("http://127.0.0.1:{}", common::port());
    let (_, err, ok) = client(data, &["competition", "list", "--matchmaker", &nothing]);
    assert!(!ok && err.contains(&nothing), "{err}");

    // Stopped, the standalone takes its endpoints with it.
    // SAFETY: kill(2) with our child's pid; no memory is touched.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed() < WITHIN, "standalone ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
    assert!(!data.join("endpoints.json").exists());
}

#[test]
fn an_unreadable_endpoints_file_is_named_not_passed_over() {
    let dir = arena_testkit::private_tempdir();
    std::fs::write(dir.path().join("endpoints.json"), "not json").unwrap();
    let (_, err, ok) = client(dir.path(), &["competition", "list"]);
    assert!(!ok);
    assert!(
        err.contains("endpoints.json") && err.contains("not a JSON object"),
        "{err}"
    );
}

#[test]
fn registering_into_a_directory_with_no_store_says_a_new_one_was_made() {
    let dir = arena_testkit::private_tempdir();
    let data = dir.path().join("not-yet");
    let (out, err, ok) = client(&data, &["bots", "add", "north"]);
    assert!(ok, "{err}{out}");
    assert!(
        err.contains("held no arena store") && err.contains("--data-dir"),
        "{err}"
    );
    // The second time the store is there: no note.
    let (out, err, ok) = client(&data, &["bots", "add", "south"]);
    assert!(ok, "{err}{out}");
    assert!(!err.contains("held no arena store"), "{err}");
}
