//! `docs/deploy.md` lists every flag of every role with its environment variable and default,
//! exactly as `arena <role> --help` shows them (the defaults come from the role crates'
//! typed configurations). Regenerate the section with
//! `ARENA_BLESS_DOCS=1 cargo test -p arena --test deploy_doc`.

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

const ROLES: [&str; 5] = [
    "table-referee",
    "bot-host",
    "deal-library",
    "matchmaker",
    "standalone",
];
const BEGIN: &str = "<!-- flags:begin (generated from `arena <role> --help`; see crates/cli/tests/deploy_doc.rs) -->";
const END: &str = "<!-- flags:end -->";

/// One option of `--help`: its flag, environment variable and default.
#[derive(Debug, PartialEq)]
struct Flag {
    flag: String,
    env: Option<String>,
    default: Option<String>,
}

fn help(role: &str) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args([role, "--help"]).env_clear();
    if let Some(path) = std::env::var_os("PATH") {
        cmd.env("PATH", path);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{role} --help: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The text between `open` and the next `]` after it.
fn bracket(text: &str, open: &str) -> Option<String> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(']')? + start;
    Some(text[start..end].to_string())
}

fn flags(help: &str) -> Vec<Flag> {
    let mut blocks: Vec<String> = Vec::new();
    for line in help.lines() {
        let t = line.trim_start();
        let starts = t.starts_with("--") || (t.starts_with('-') && t.get(2..4) == Some(", "));
        if starts && line.starts_with(' ') {
            blocks.push(t.to_string());
        } else if let Some(b) = blocks.last_mut()
            && !line.trim().is_empty()
            && line.starts_with(' ')
        {
            b.push(' ');
            b.push_str(line.trim());
        }
    }
    blocks
        .iter()
        .filter_map(|b| {
            let flag = b
                .split_whitespace()
                .find(|w| w.starts_with("--"))?
                .trim_end_matches(',')
                .to_string();
            if flag == "--help" {
                return None;
            }
            Some(Flag {
                flag,
                env: bracket(b, "[env: ").map(|e| e.split('=').next().unwrap_or("").to_string()),
                default: bracket(b, "[default: "),
            })
        })
        .collect()
}

fn section() -> String {
    let mut out = String::new();
    out += BEGIN;
    out += "\n";
    for role in ROLES {
        out +=
            &format!("\n### `arena {role}`\n\n| flag | environment | default |\n|---|---|---|\n");
        let fs = flags(&help(role));
        assert!(fs.len() > 3, "{role}: too few flags parsed: {fs:?}");
        for f in fs {
            let cell =
                |v: &Option<String>| v.as_ref().map_or("—".to_string(), |v| format!("`{v}`"));
            out += &format!(
                "| `{}` | {} | {} |\n",
                f.flag,
                cell(&f.env),
                cell(&f.default)
            );
        }
    }
    out += "\n";
    out += END;
    out
}

#[test]
fn deploy_md_lists_every_flag_of_every_role_with_its_default() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/deploy.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let expected = section();
    let (Some(b), Some(e)) = (doc.find(BEGIN), doc.find(END)) else {
        panic!("docs/deploy.md has no generated flags section; expected:\n{expected}");
    };
    let current = &doc[b..e + END.len()];
    if current != expected {
        if std::env::var_os("ARENA_BLESS_DOCS").is_some() {
            let updated = format!("{}{expected}{}", &doc[..b], &doc[e + END.len()..]);
            std::fs::write(&path, updated).unwrap();
            return;
        }
        panic!(
            "docs/deploy.md's flags differ from --help (regenerate with ARENA_BLESS_DOCS=1):\n{expected}"
        );
    }
    // Every role shows the serving flags every role shares.
    for role in ROLES {
        let h = help(role);
        for f in [
            "--request-timeout-ms",
            "--max-concurrent-requests",
            "--max-connection-age-ms",
            "--max-connection-age-grace-ms",
        ] {
            assert!(h.contains(f), "{role} --help lacks {f}");
        }
    }
}

#[test]
fn help_options_are_parsed_with_env_and_default() {
    let fs = flags(
        "Options:\n      --listen <LISTEN>\n          gRPC listen address\n          \n          [env: ARENA_X_LISTEN=]\n          [default: 127.0.0.1:50051]\n\n  -h, --help\n          Print help\n",
    );
    assert_eq!(
        fs,
        vec![Flag {
            flag: "--listen".into(),
            env: Some("ARENA_X_LISTEN".into()),
            default: Some("127.0.0.1:50051".into())
        }]
    );
}

/// Each role prints its effective configuration when it starts, made from its typed
/// configuration: a flag given on the command line shows in that line.
#[test]
fn every_role_prints_the_configuration_it_runs_with() {
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
        if role == "bot-host" {
            args.extend([
                "--seat-listen".into(),
                format!("127.0.0.1:{}", common::port()),
            ]);
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
            .arg(role)
            .args(&args)
            .env("ARENA_LOG", "info")
            // The matchmaker's console on a port of its own: tests run side by side.
            .env("ARENA_CONSOLE_LISTEN", "127.0.0.1:0")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let log = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(log).lines().map_while(Result::ok) {
                if line.contains("starting") {
                    let _ = tx.send(line);
                }
            }
        });
        let line = rx.recv_timeout(Duration::from_secs(60));
        let _ = child.kill();
        let _ = child.wait();
        let line = line.unwrap_or_else(|_| panic!("{role} printed no start-up line"));
        // The typed configuration's own spelling: 4.321s (Debug) or 4321 ms (bot-host's line).
        assert!(
            line.contains("4.321s") || line.contains("4321 ms"),
            "{role}: {line}"
        );
        assert!(line.contains("config"), "{role}: {line}");
    }
}
