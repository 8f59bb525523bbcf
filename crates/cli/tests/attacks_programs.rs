//! Program bots and the secrets beside them (issue 31): a program bot once read a running
//! competition's seed from a world-readable store; programs that could never start lost every
//! table to "crashed" verdicts behind a full ranking and exit code 0; a Redis password given
//! where the URL goes was printed back. Each is restated as the behaviour now expected.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{Standalone, arena};

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn chmod(p: &Path, mode: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Programs of a root caller run as `nobody`; the refusals that hang on that are tried only
/// then (an ordinary user's programs run as that user, who may read their own files).
fn root() -> bool {
    // SAFETY: geteuid(2) takes nothing and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// A temporary directory every user may enter (programs of tests live in one).
fn open_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    chmod(d.path(), 0o755);
    d
}

/// A shell script at `path` with `mode`.
fn script(path: &Path, body: &str, mode: u32) -> PathBuf {
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    chmod(path, mode);
    path.to_path_buf()
}

/// Runs `arena ARGS` in `dir`: (stdout, stderr, success).
fn arena_in(dir: &Path, args: &[&str]) -> (String, String, bool) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("arena runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn standalone_keeps_its_store_and_token_private() {
    let (s, _) = Standalone::start(&[], &[], &[]);
    let store = s.dir.path().join("arena.redb");
    let token = s.dir.path().join("operator.token");
    assert_eq!(mode(&store), 0o600, "the store {}", store.display());
    assert_eq!(mode(&token), 0o600, "the token file {}", token.display());
}

#[test]
fn standalone_refuses_a_data_directory_bot_programs_could_read() {
    if !root() {
        eprintln!("skipped: programs run as nobody only when arena runs as root");
        return;
    }
    let d = open_dir();
    let data = d.path().join("data");
    std::fs::create_dir(&data).unwrap();
    chmod(&data, 0o755);
    let any = "127.0.0.1:0";
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["standalone", "--data-dir", data.to_str().unwrap()])
        .args(["--referee-listen", any, "--bot-host-listen", any])
        .args(["--deal-library-listen", any, "--matchmaker-listen", any])
        .env("ARENA_CONSOLE_LISTEN", any)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It refuses before binding anything; a standalone that serves instead never exits, and is
    // given up on (generously, for a loaded machine) and killed.
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("standalone served on a data directory nobody may read");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success(), "{err}");
    for needle in [
        &format!("the data directory {}", data.display()),
        "nobody may read",
        &format!("`chmod 700 {}`", data.display()),
    ] {
        assert!(err.contains(needle), "{needle:?} not in {err}");
    }
}

#[test]
fn a_program_nobody_cannot_reach_is_refused_before_the_first_table() {
    if !root() {
        eprintln!("skipped: programs run as nobody only when arena runs as root");
        return;
    }
    // A private directory, as /root is (tests never put programs under /root itself).
    let private = tempfile::tempdir().unwrap();
    chmod(private.path(), 0o700);
    let bot = script(&private.path().join("bot"), "exit 0", 0o755);
    let cmd = format!("cmd:{}", bot.display());
    let expect = |what: &str, (out, err, ok): (String, String, bool)| {
        assert!(!ok, "{what}: accepted\n{out}\n{err}");
        for needle in [
            format!("bot program {}", bot.display()),
            "nobody, the user bot programs run as here (arena runs as root), cannot execute"
                .to_string(),
            format!("the directory {} (mode 0700", private.path().display()),
            "move the program and its files to a directory every user may enter".to_string(),
        ] {
            assert!(err.contains(&needle), "{what}: {needle:?} not in {err}");
        }
        assert!(
            !out.contains("place"),
            "{what}: no ranking is printed\n{out}"
        );
    };
    expect(
        "mahjong match",
        arena(&["mahjong", "match", &cmd, "random", "random", "random"]),
    );
    expect(
        "ddz match",
        arena(&["ddz", "match", &cmd, "random", "--deals", "1"]),
    );
    let data = tempfile::tempdir().unwrap();
    expect(
        "bots add",
        arena(&[
            "bots",
            "add",
            "hidden",
            "--program",
            bot.to_str().unwrap(),
            "--data-dir",
            data.path().to_str().unwrap(),
        ]),
    );
}

#[test]
fn a_program_that_is_not_executable_is_refused_before_the_first_table() {
    let d = open_dir();
    script(&d.path().join("bot"), "exit 0", 0o644);
    for args in [
        &[
            "mahjong",
            "match",
            "cmd:./bot",
            "random",
            "random",
            "random",
        ][..],
        &["ddz", "match", "cmd:./bot", "random", "--deals", "1"][..],
    ] {
        let (out, err, ok) = arena_in(d.path(), args);
        assert!(!ok, "{args:?} accepted\n{out}\n{err}");
        let path = d.path().join("bot");
        assert!(
            err.contains(&format!("cannot execute {}", path.display())),
            "{args:?}: {err}"
        );
        assert!(err.contains("chmod"), "{args:?}: the fix: {err}");
    }
}

#[test]
fn a_relative_program_plays_a_mahjong_match() {
    // The README's form, `cmd:./mybot`, run from the program's directory: each hand starts the
    // program in a fresh directory of its own, so the path is resolved here first.
    let bot = common::mahjong_simple_bot();
    let dir = bot.parent().unwrap();
    let name = format!("cmd:./{}", bot.file_name().unwrap().to_str().unwrap());
    let (out, err, ok) = arena_in(
        dir,
        &[
            "mahjong",
            "match",
            &name,
            "random",
            "random",
            "random",
            "--threads",
            "1",
        ],
    );
    assert!(ok, "{out}\n{err}");
    assert!(
        !out.contains("verdicts: A"),
        "the program played every hand:\n{out}"
    );
}

#[test]
fn a_mahjong_seat_that_crashes_in_every_hand_fails_the_match() {
    let d = open_dir();
    let bot = script(&d.path().join("dies"), "echo dying >&2; exit 3", 0o755);
    let cmd = format!("cmd:{}", bot.display());
    let (out, err, ok) = arena(&["mahjong", "match", &cmd, "random", "random", "random"]);
    assert!(
        !ok,
        "a match whose seat never played exits non-zero\n{out}\n{err}"
    );
    assert!(
        err.contains("bot A (") && err.contains("crashed in all 96 hands"),
        "{err}"
    );
    assert!(err.contains("exit code 3"), "the cause: {err}");
}

#[test]
fn a_redis_password_given_where_the_url_goes_is_never_printed() {
    let secret = "Secr3t-h3-issue31";
    let (out, err, ok) = arena(&["bots", "list", "--redis", secret]);
    assert!(!ok);
    assert!(!out.contains(secret) && !err.contains(secret), "{out}{err}");
    assert!(err.contains("redis URL ***"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["bots", "list"])
        .env("ARENA_REDIS_URL", format!("redis:{secret}"))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success());
    assert!(!text.contains(secret), "{text}");
}

/// A program bot that crashes: its verdict's reason is cut to 80 characters for every seat, and
/// its stderr (once only in bot-host's log) reaches the verdict's detail in the replays; the
/// standings count the verdicts against it.
#[test]
fn a_crashing_program_bots_stderr_reaches_its_verdict_and_the_standings_count_it() {
    let d = open_dir();
    let crasher = script(
        &d.path().join("crasher"),
        r#"echo "join crasher"
while read -r line; do
  case "$line" in
    ask*) echo "Traceback (most recent call last): ZeroDivisionError in decide()" >&2; exit 3 ;;
  esac
done"#,
        0o755,
    );
    let (s, _) = Standalone::start(
        &[("crasher", &["--program", crasher.to_str().unwrap()])],
        &[],
        &[],
    );
    let (out, err, ok) = s.client(&[
        "competition",
        "create",
        "--matchmaker",
        &s.matchmaker,
        "--name",
        "crashes",
        "--format",
        "random",
        "--participants",
        "crasher,expert",
        "--matches",
        "1",
        "--rounds",
        "1",
    ]);
    assert!(ok, "{err}");
    let row = out
        .lines()
        .find(|l| l.contains(" crasher "))
        .unwrap_or_else(|| panic!("no standings row for crasher:\n{out}"));
    let verdicts: u32 = row.split_whitespace().last().unwrap().parse().unwrap();
    assert!(
        verdicts > 0,
        "the standings count its verdicts: {row}\n{out}"
    );

    let crashes: Vec<_> = s
        .replays("crashes")
        .into_iter()
        .flat_map(|r| r.result.unwrap_or_default().verdicts)
        .collect();
    let v = crashes
        .iter()
        .find(|v| v.kind() == arena_proto::v1::VerdictKind::Crashed)
        .unwrap_or_else(|| panic!("no crash verdict: {crashes:?}"));
    assert!(v.reason.chars().count() <= 81, "{}", v.reason);
    assert!(
        v.detail.contains("ZeroDivisionError in decide()") && v.detail.contains("exit code 3"),
        "the whole report is in the detail: {v:?}"
    );
}
