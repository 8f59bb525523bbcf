//! What the roles print for people: their effective configuration as readable lines, logs as
//! plain text when they are not on a terminal, and refusals of bad settings that say what to do.

mod common;

use std::io::BufRead;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Starts `arena ROLE ARGS` with its output piped; returns its start-up lines on stdout (up to
/// the blank line or the last setting) and its first log lines on stderr, then kills it.
fn start_up(role: &str, args: &[String]) -> (Vec<String>, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg(role)
        .args(args)
        .env("ARENA_LOG", "info")
        .env_remove("NO_COLOR")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (out_tx, out_rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if out_tx.send(line).is_err() {
                return;
            }
        }
    });
    let (err_tx, err_rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if err_tx.send(line).is_err() {
                return;
            }
        }
    });
    // Every role prints the serving settings last.
    let mut out = Vec::new();
    while let Ok(line) = out_rx.recv_timeout(Duration::from_secs(60)) {
        let last = line.trim_start().starts_with("max connection age");
        out.push(line);
        if last {
            break;
        }
    }
    let mut err = Vec::new();
    while let Ok(line) = err_rx.recv_timeout(Duration::from_secs(60)) {
        let started = line.contains("starting") || line.contains("serving");
        err.push(line);
        if started {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    (out, err)
}

/// The value of setting `name` in start-up lines.
fn setting<'a>(lines: &'a [String], name: &str) -> Option<&'a str> {
    lines.iter().find_map(|l| {
        l.strip_prefix("  ")?
            .strip_prefix(name)?
            .strip_prefix("  ")
            .map(str::trim)
    })
}

#[test]
fn roles_print_their_configuration_as_lines_and_log_plain_text_off_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    for role in ["table-referee", "bot-host", "deal-library", "matchmaker"] {
        let mut args = vec![
            "--data-dir".to_string(),
            dir.path().join(role).display().to_string(),
            "--listen".into(),
            format!("127.0.0.1:{}", common::port()),
            "--request-timeout-ms".into(),
            "4321".into(),
        ];
        match role {
            "bot-host" => args.extend([
                "--seat-listen".into(),
                format!("127.0.0.1:{}", common::port()),
            ]),
            "matchmaker" => args.extend([
                "--competition-retention-days".into(),
                "90".into(),
                "--ladder-retention-days".into(),
                "7".into(),
            ]),
            _ => {}
        }
        let (out, err) = start_up(role, &args);
        assert_eq!(
            out.first().map(String::as_str),
            Some(&*format!("arena {role}"))
        );
        assert!(
            out[1..]
                .iter()
                .all(|l| l.starts_with("  ") && l[2..].contains("  ")),
            "{role}: one setting a line, name and value: {out:#?}"
        );
        assert_eq!(
            setting(&out, "request timeout"),
            Some("4321 ms"),
            "{out:#?}"
        );
        assert!(
            setting(&out, "store").is_some_and(|s| s.starts_with("embedded")),
            "{out:#?}"
        );
        if role == "matchmaker" {
            assert_eq!(
                setting(&out, "competition results"),
                Some("kept 90 days after it ends")
            );
            assert_eq!(setting(&out, "ladder tables"), Some("kept 7 days"));
        }
        assert!(!err.is_empty(), "{role} logged nothing");
        for line in &err {
            assert!(
                !line.contains('\u{1b}'),
                "{role}: colours in a piped log: {line:?}"
            );
        }
    }
}

#[test]
fn bad_retention_is_refused_naming_the_flag() {
    for role in ["matchmaker", "standalone"] {
        let dir = arena_testkit::private_tempdir();
        let (_, err, ok) = common::arena(&[
            role,
            "--data-dir",
            dir.path().to_str().unwrap(),
            "--ladder-retention-days=-3",
        ]);
        assert!(
            !ok && err.contains("--ladder-retention-days must be a number of days, 0 or more"),
            "{role}: {err}"
        );
    }
}
