//! The matchmaker role serves the web console on `--console-listen`, says where in its
//! configuration line, applies its own policy there (`--public-spectator` opens the spectator
//! pages, not the deal library), and stops with it on SIGTERM.

mod common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REDIS: &str = "redis://127.0.0.1:6379";

fn get(port: u16, path: &str) -> (u16, String) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

#[test]
fn the_matchmaker_role_serves_the_console_under_its_own_policy() {
    let prefix = common::unique_prefix("console");
    let (grpc, console) = (common::port(), common::port());
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
        .arg("matchmaker")
        .args(common::Cluster::store_args(REDIS, &prefix))
        .args(["--listen", &format!("127.0.0.1:{grpc}")])
        .args(["--console-listen", &format!("127.0.0.1:{console}")])
        .arg("--public-spectator")
        .env("ARENA_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", console)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the console did not come up"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, body) = get(console, "/api/competitions");
    assert_eq!((status, body.as_str()), (200, r#"{"competitions":[]}"#));
    let (status, body) = get(console, "/api/deals");
    assert_eq!(status, 401, "the deal library stays the operators': {body}");
    let (status, body) = get(console, "/");
    assert!(status == 200 && body.contains("arena console"), "{body}");
    // SAFETY: kill(2) with our child's pid; no memory is touched.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(status.success(), "{status}\n{out}");
    assert!(
        out.contains(&format!("console http://127.0.0.1:{console}/")),
        "the configuration says where the console is:\n{out}"
    );
    common::redis_cleanup(REDIS, &prefix);
}
