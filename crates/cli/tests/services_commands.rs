//! Operator commands of the service roles.

use std::process::Command;

fn arena(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .expect("arena runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

#[test]
fn table_run_prints_a_replay_ending_in_scores() {
    let (out, err, ok) = arena(&[
        "table",
        "run",
        "--seats",
        "expert,seed,random",
        "--seed",
        "3",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("is landlord at 1"), "{out}");
    assert!(out.contains(" plays "), "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("scores (competition): "), "{last}");
}

#[test]
fn bots_add_issues_a_token_once_and_refuses_taken_or_builtin_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let (out, err, ok) = arena(&["bots", "add", "alice", "--data-dir", d]);
    assert!(ok, "{err}");
    let token = out.lines().last().unwrap();
    assert!(token.len() >= 40 && !token.contains(' '), "{out}");
    let (_, err, ok) = arena(&["bots", "add", "alice", "--data-dir", d]);
    assert!(!ok && err.contains("already registered"), "{err}");
    let (_, err, ok) = arena(&["bots", "add", "expert", "--data-dir", d]);
    assert!(!ok && err.contains("built-in bot"), "{err}");
    let (out, _, ok) = arena(&[
        "bots",
        "add",
        "prog",
        "--program",
        "python3 bot.py",
        "--data-dir",
        d,
    ]);
    assert!(ok && out.contains("program bot"), "{out}");
    let (out, _, ok) = arena(&["bots", "list", "--data-dir", d]);
    assert!(ok);
    assert!(
        out.contains("alice") && out.contains("remote") && out.contains("program: python3 bot.py"),
        "{out}"
    );
    assert!(!out.contains(token), "the token is never shown again");
}

#[test]
fn standalone_measures_deals_and_runs_a_competition_created_over_grpc() {
    use std::net::TcpListener;
    let dir = tempfile::tempdir().unwrap();
    let port = || {
        TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port()
    };
    let (r, b, l, m) = (port(), port(), port(), port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args([
            "standalone",
            "--data-dir",
            dir.path().to_str().unwrap(),
            "--referee-listen",
            &format!("127.0.0.1:{r}"),
            "--bot-host-listen",
            &format!("127.0.0.1:{b}"),
            "--deal-library-listen",
            &format!("127.0.0.1:{l}"),
            "--matchmaker-listen",
            &format!("127.0.0.1:{m}"),
        ])
        .env("ARENA_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let library = format!("http://127.0.0.1:{l}");
    let mut result = None;
    for _ in 0..100 {
        let (out, err, ok) = arena(&[
            "deals",
            "measure",
            "--library",
            &library,
            "--count",
            "120",
            "--bombs",
            "1",
            "--panel",
            "ladder:5",
            "--batch",
            "30",
            "--json",
        ]);
        if ok {
            result = Some(out);
            break;
        }
        assert!(err.contains("connecting"), "{err}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let (competition, err, ok) = arena(&[
        "competition",
        "create",
        "--matchmaker",
        &format!("http://127.0.0.1:{m}"),
        "--name",
        "cup",
        "--format",
        "duplicate",
        "--participants",
        "expert,seed,random",
        "--panel",
        "ladder:5",
        "--matches",
        "2",
        "--rounds",
        "3",
    ]);
    let _ = child.kill();
    let _ = child.wait();
    let out = result.expect("the deal library answered");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["deals"], 120, "{v}");
    assert_eq!(v["error"], "");
    assert!(ok, "{err}");
    assert!(
        competition.contains("cup: 18/18 tables, final"),
        "{competition}"
    );
    assert_eq!(
        competition
            .lines()
            .filter(|l| l.contains("expert") || l.contains("seed") || l.contains("random"))
            .count(),
        3
    );
}
