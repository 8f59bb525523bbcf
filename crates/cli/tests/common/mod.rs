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

/// A loopback port free a moment ago.
pub fn port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
