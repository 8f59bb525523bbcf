//! Operator commands against a running `arena standalone`, whose embedded store it holds: bots
//! are registered, listed, re-keyed and removed through its matchmaker's `BotRegistry`, and deals
//! exported and imported through its deal library.

mod common;

use std::process::Command;

use common::Standalone;

/// `arena ARGS` run in `cwd`, as the operator of `s`, with `ARENA_MATCHMAKER` set to `mm` when
/// given: (stdout, stderr, success).
fn arena_in(
    s: &Standalone,
    cwd: &std::path::Path,
    mm: Option<&str>,
    args: &[&str],
) -> (String, String, bool) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(args)
        .current_dir(cwd)
        .env("ARENA_DATA_DIR", s.data_dir())
        .env_remove("ARENA_OPERATOR_TOKEN")
        .env_remove("ARENA_MATCHMAKER");
    if let Some(mm) = mm {
        cmd.env("ARENA_MATCHMAKER", mm);
    }
    let out = cmd.output().expect("arena runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn bots_are_registered_while_standalone_runs_and_play_at_once() {
    let (s, _) = Standalone::start(&[], &[], &[]);
    let here = s.data_dir().to_path_buf();
    let mm = Some(s.matchmaker.as_str());

    // The store is held: `bots add` goes through the matchmaker ARENA_MATCHMAKER names.
    let (out, err, ok) = arena_in(&s, &here, mm, &["bots", "add", "alice"]);
    assert!(ok, "{err}");
    assert!(
        err.contains("held by a running arena")
            && out.contains("registered remote bot \"alice\" in the registry of the matchmaker"),
        "{err}{out}"
    );
    let token = out.lines().last().unwrap().trim().to_string();

    // A program named by a relative path, resolved in the directory `bots add` runs in.
    let bot = common::simple_bot();
    let bot_dir = bot.parent().unwrap();
    let (out, err, ok) = arena_in(
        &s,
        bot_dir,
        None,
        &[
            "bots",
            "add",
            "prog",
            "--program",
            "./simple_bot.py",
            "--matchmaker",
            &s.matchmaker,
        ],
    );
    assert!(ok, "{err}");
    assert!(out.contains(&bot.display().to_string()), "{out}");
    let (out, err, ok) = arena_in(&s, &here, mm, &["bots", "list"]);
    assert!(ok, "{err}");
    assert!(out.contains("alice") && out.contains("remote"), "{out}");
    assert!(
        out.contains(&format!("program: {} (plays ddz)", bot.display())),
        "{out}"
    );

    // Both play at once: the program at a table, the remote bot with its new token.
    let (out, err, ok) = s.client(&[
        "table",
        "submit",
        "--referee",
        &s.referee,
        "--seats",
        "prog,expert,expert",
    ]);
    assert!(ok, "{err}{out}");
    assert!(
        out.contains("seat 0 plays") && !out.contains("verdict"),
        "{out}"
    );
    let (endpoint, tok) = (s.bots.clone(), token.clone());
    let remote = std::thread::spawn(move || {
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(arena_example_remote_bot::play(
                &endpoint, "alice", &tok, 1, 1,
            ))
    });
    let (out, err, ok) = s.client(&[
        "table",
        "submit",
        "--referee",
        &s.referee,
        "--seats",
        "alice,expert,expert",
    ]);
    assert!(ok, "{err}{out}");
    assert!(
        out.contains("seat 0 plays") && !out.contains("verdict"),
        "{out}"
    );
    let session = remote.join().unwrap().expect("alice played");
    assert!(session.answered > 0 && session.tables == 1);

    // Rotated and removed through the matchmaker.
    let (out, err, ok) = arena_in(&s, &here, mm, &["bots", "rotate", "alice"]);
    assert!(ok, "{err}");
    assert_ne!(out.lines().last().unwrap().trim(), token);
    let (_, err, ok) = arena_in(&s, &here, mm, &["bots", "rotate", "prog"]);
    assert!(!ok && err.contains("program bot"), "{err}");
    let (out, err, ok) = arena_in(&s, &here, mm, &["bots", "remove", "alice"]);
    assert!(ok && out.contains("removed bot \"alice\""), "{err}{out}");
    let (out, _, _) = arena_in(&s, &here, mm, &["bots", "list"]);
    assert!(!out.contains("alice") && out.contains("prog"), "{out}");

    // Refusals name the problem and what to do.
    let (_, err, ok) = arena_in(&s, &here, mm, &["bots", "add", "prog"]);
    assert!(!ok && err.contains("already registered"), "{err}");
    let (_, err, ok) = arena_in(&s, &here, mm, &["bots", "add", "seed"]);
    assert!(!ok && err.contains("built-in GAME_DOU_DIZHU bot"), "{err}");
    let (_, err, ok) = arena_in(
        &s,
        bot_dir,
        mm,
        &["bots", "add", "ghost", "--program", "./no-such-bot"],
    );
    assert!(!ok && err.contains("no program \"./no-such-bot\""), "{err}");
    let (_, err, ok) = arena_in(&s, &here, Some("http://127.0.0.1:1"), &["bots", "list"]);
    assert!(
        !ok && err.contains("in use by another arena process")
            && err.contains("is `arena standalone` running? --matchmaker URL"),
        "{err}"
    );
    // Another data directory holds no operator token: refused, saying what to send.
    let elsewhere = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["bots", "list", "--matchmaker", &s.matchmaker])
        .env("ARENA_DATA_DIR", elsewhere.path())
        .env_remove("ARENA_OPERATOR_TOKEN")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("Unauthenticated"),
        "{err}"
    );
}
