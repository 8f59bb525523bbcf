//! What the CLI test binaries share. Each uses only part of it.
#![allow(dead_code)]

use std::process::Command;

/// Runs `arena ARGS` to the end: (stdout, stderr, success).
pub fn arena(args: &[&str]) -> (String, String, bool) {
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

/// Runs `arena ARGS` as a client of the standalone whose data directory is `data_dir` (so it
/// sends that standalone's operator token): (stdout, stderr, success).
pub fn arena_client(data_dir: &std::path::Path, args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("ARENA_DATA_DIR", data_dir)
        .env_remove("ARENA_OPERATOR_TOKEN")
        .output()
        .expect("arena runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

/// Runs `arena ARGS` sending `token` as the operator token: (stdout, stderr, success).
pub fn arena_as(token: &str, args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("ARENA_OPERATOR_TOKEN", token)
        .output()
        .expect("arena runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

/// A directory holding a cluster token and a bootstrap operator token, as mounted Secrets would.
pub struct Credentials {
    pub dir: tempfile::TempDir,
    pub operator: String,
}

impl Credentials {
    pub fn new() -> Credentials {
        let dir = tempfile::tempdir().unwrap();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let operator = format!("operator-{nanos:x}-{}", std::process::id());
        std::fs::write(dir.path().join("operator"), format!("{operator}\n")).unwrap();
        std::fs::write(dir.path().join("cluster"), format!("cluster-{nanos:x}\n")).unwrap();
        Credentials { dir, operator }
    }

    /// `--cluster-token-file PATH`.
    pub fn cluster_args(&self) -> Vec<String> {
        vec![
            "--cluster-token-file".into(),
            self.dir.path().join("cluster").display().to_string(),
        ]
    }

    /// `--operator-token-file PATH`.
    pub fn operator_args(&self) -> Vec<String> {
        vec![
            "--operator-token-file".into(),
            self.dir.path().join("operator").display().to_string(),
        ]
    }
}

/// A loopback port free a moment ago.
pub fn port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
