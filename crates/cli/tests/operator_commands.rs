//! Operator commands against a running `arena standalone`, whose embedded store it holds: bots
//! are registered, listed, re-keyed and removed, and operator tokens issued and revoked, through
//! its matchmaker's `BotRegistry`; deals exported and imported through its deal library.

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
    let env: Vec<(&str, &str)> = mm.map(|mm| ("ARENA_MATCHMAKER", mm)).into_iter().collect();
    arena_with(s, cwd, &env, args)
}

/// `arena ARGS` run in `cwd`, as the operator of `s`, with `env` (and none of the client
/// variables of the test's own environment): (stdout, stderr, success).
fn arena_with(
    s: &Standalone,
    cwd: &std::path::Path,
    env: &[(&str, &str)],
    args: &[&str],
) -> (String, String, bool) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(args)
        .current_dir(cwd)
        .env("ARENA_DATA_DIR", s.data_dir())
        .env_remove("ARENA_OPERATOR_TOKEN")
        .env_remove("ARENA_MATCHMAKER")
        .env_remove("ARENA_DEAL_LIBRARY")
        .envs(env.iter().copied());
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
    assert!(!ok && err.contains("built-in Dou Dizhu bot"), "{err}");
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

#[test]
fn operator_tokens_are_issued_and_revoked_while_standalone_runs() {
    let (s, _) = Standalone::start(&[], &[], &[]);
    let here = s.data_dir().to_path_buf();
    let mm = Some(s.matchmaker.as_str());
    let (out, err, ok) = arena_in(&s, &here, mm, &["operators", "add", "carol"]);
    assert!(ok, "{err}");
    assert!(
        err.contains("held by a running arena")
            && out.contains("operator \"carol\"")
            && out.contains("the registry of the matchmaker"),
        "{err}{out}"
    );
    let token = out.lines().last().unwrap().trim().to_string();
    assert!(token.starts_with("aop."), "{out}");

    // carol's token works from anywhere: another data directory, no bootstrap token there.
    let elsewhere = tempfile::tempdir().unwrap();
    let as_carol = |token: &str, args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_arena"))
            .args(args)
            .args(["--matchmaker", &s.matchmaker])
            .env("ARENA_DATA_DIR", elsewhere.path())
            .env("ARENA_OPERATOR_TOKEN", token)
            .env_remove("ARENA_MATCHMAKER")
            .output()
            .unwrap();
        (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            out.status.success(),
        )
    };
    let (out, err, ok) = as_carol(&token, &["operators", "list"]);
    assert!(ok, "{err}");
    let id = token.split('.').nth(1).unwrap();
    assert!(
        out.lines()
            .any(|l| l.starts_with("carol") && l.ends_with(id)),
        "the list shows carol's token id:\n{out}"
    );
    assert!(!out.contains(&token), "the list never shows a token: {out}");

    // A name is one operator; refusals name the problem.
    let (_, err, ok) = arena_in(&s, &here, mm, &["operators", "add", "carol"]);
    assert!(!ok && err.contains("exists; remove it first"), "{err}");
    let (_, err, ok) = arena_in(&s, &here, mm, &["operators", "add", "no spaces"]);
    assert!(!ok && err.contains("must be 1 to 64 letters"), "{err}");

    // Revoked: the token stops working at once.
    let (out, err, ok) = arena_in(&s, &here, mm, &["operators", "remove", "carol"]);
    assert!(
        ok && out.contains("revoked 1 token(s) of \"carol\""),
        "{err}{out}"
    );
    let (_, err, ok) = as_carol(&token, &["bots", "list"]);
    assert!(!ok && err.contains("Unauthenticated"), "{err}");
    let (_, err, ok) = arena_in(&s, &here, mm, &["operators", "remove", "carol"]);
    assert!(!ok && err.contains("no operator named \"carol\""), "{err}");
}

#[test]
fn deals_are_exported_and_imported_through_running_deal_libraries() {
    let (a, _) = Standalone::start(&[], &[], &[]);
    let (b, _) = Standalone::start(&[], &[], &[]);
    let here = a.data_dir().to_path_buf();
    let (out, err, ok) = a.client(&[
        "deals",
        "measure",
        "--library",
        &a.library,
        "--count",
        "6",
        "--panel",
        "ladder:3",
        "--bombs",
        "1",
        "--json",
    ]);
    assert!(ok, "{err}{out}");
    // The store is held: export goes through the deal library ARENA_DEAL_LIBRARY names.
    let file = here.join("deals.jsonl");
    let (_, err, ok) = arena_with(
        &a,
        &here,
        &[("ARENA_DEAL_LIBRARY", &a.library)],
        &[
            "deals",
            "export",
            "--panel",
            "ladder:3",
            "--out",
            file.to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    assert!(
        err.contains("held by a running arena") && err.contains("exported 6 deals of panel p-"),
        "{err}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");

    // Into the other standalone's library, once.
    let import = || {
        arena_with(
            &b,
            &here,
            &[],
            &[
                "deals",
                "import",
                file.to_str().unwrap(),
                "--library",
                &b.library,
            ],
        )
    };
    let (out, err, ok) = import();
    assert!(
        ok && out.contains("imported 6 records (6 new, 0 already present) into the deal library"),
        "{err}{out}"
    );
    let (out, _, _) = import();
    assert!(out.contains("(0 new, 6 already present)"), "{out}");
    // The imported deals are the library's: a measured competition plays them without finding
    // more.
    let (out, err, ok) = b.client(&[
        "competition",
        "create",
        "--matchmaker",
        &b.matchmaker,
        "--name",
        "imported",
        "--format",
        "difficulty-adjusted",
        "--panel",
        "ladder:3",
        "--participants",
        "expert,seed",
        "--matches",
        "1",
        "--rounds",
        "3",
        "--no-find",
    ]);
    assert!(
        ok && out.contains("imported: 6/6 tables, final"),
        "{err}{out}"
    );

    let (_, err, ok) = arena_with(
        &b,
        &here,
        &[],
        &[
            "deals",
            "import",
            file.to_str().unwrap(),
            "--library",
            "http://127.0.0.1:1",
        ],
    );
    assert!(
        !ok && err.contains("is `arena standalone` (or the deal library role) running there?"),
        "{err}"
    );
}
