//! The console's HTTP surface tried as a hostile page, peer or client would (issue 31, part B),
//! against `arena standalone` as a real process: each attack that once worked, restated as the
//! behaviour now expected.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use arena_proto::v1;
use common::{Standalone, arena_client, port};
use prost::Message;

/// Generous bound on any one read: the machine is shared with other builds.
const READ_WITHIN: Duration = Duration::from_secs(30);

/// Standalone with its console on a port of its own: (standalone, console port).
fn standalone(bots: &[(&str, &[&str])], args: &[&str]) -> (Standalone, u16) {
    standalone_prepared(|_| {}, bots, args)
}

fn standalone_prepared(
    prepare: impl FnOnce(&Path),
    bots: &[(&str, &[&str])],
    args: &[&str],
) -> (Standalone, u16) {
    let console = port();
    let listen = format!("127.0.0.1:{console}");
    let args = [&["--console-listen", listen.as_str()][..], args].concat();
    let (s, _) = Standalone::start_prepared(prepare, bots, &args, &[]);
    (s, console)
}

fn operator_token(s: &Standalone) -> String {
    std::fs::read_to_string(s.dir.path().join("operator.token"))
        .unwrap()
        .trim()
        .to_string()
}

/// One HTTP/1.1 request to the console (the `Host` header is `host` unless `headers` set
/// one); (status, head in lower case, body).
fn request(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, String, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(READ_WITHIN)).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        req += &format!("Host: 127.0.0.1:{port}\r\n");
    }
    for (k, v) in headers {
        req += &format!("{k}: {v}\r\n");
    }
    if let Some(b) = body {
        req += &format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        );
    }
    req += "\r\n";
    req += body.unwrap_or("");
    s.write_all(req.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_lowercase(), body.to_string())
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Signs in with `token`, asking to land on `next`: where the console says to go.
fn sign_in(port: u16, token: &str, next: &str) -> String {
    let body = serde_json::json!({"token": token, "next": next}).to_string();
    let (status, _, answer) = request(port, "POST", "/api/login", &[], Some(&body));
    assert_eq!(status, 200, "{answer}");
    json(&answer)["next"].as_str().unwrap().to_string()
}

/// Signs in with `token`: the login cookie as the browser sends it back (`name=value`).
fn raw_cookie(port: u16, token: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(READ_WITHIN)).unwrap();
    let body = serde_json::json!({ "token": token }).to_string();
    write!(
        s,
        "POST /api/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out.lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
                .map(|(_, v)| v.trim().split(';').next().unwrap().to_string())
        })
        .unwrap_or_else(|| panic!("no cookie: {out}"))
}

#[test]
fn sign_in_never_lands_on_another_site() {
    let (s, console) = standalone(&[], &[]);
    let token = operator_token(&s);
    // Browsers drop a tab from a URL and read a backslash as a slash: both of these once sent
    // the operator, signed in, to //evil.
    for next in ["/\t/evil.example", "/\\evil.example", "//evil.example"] {
        let landing = sign_in(console, &token, next);
        assert_eq!(landing, "/", "{next:?}");
    }
    let landing = sign_in(console, &token, "/competition?name=cup");
    assert_eq!(landing, "/competition?name=cup");
}

#[test]
fn a_cookie_tossed_from_another_port_neither_signs_the_operator_out_nor_locks_them_out() {
    let (s, console) = standalone(&[], &[]);
    let token = operator_token(&s);
    let real = raw_cookie(console, &token);
    let name = real.split('=').next().unwrap();
    // A page on another port of the host planted cookies on /api (sent before the real one):
    // under the console's cookie name and under the one it used to have.
    for tossed in [
        format!("{name}=aop.x.forged"),
        format!("{name}=forged:aop.x.forged"),
        "arena_operator=aop.x.forged".to_string(),
    ] {
        let cookie = format!("{tossed}; {real}");
        // More reloads than the failed-attempt limiter's burst of 10.
        for reload in 0..12 {
            let (status, _, body) =
                request(console, "GET", "/api/session", &[("cookie", &cookie)], None);
            assert_eq!(status, 200, "{body}");
            assert_eq!(
                json(&body)["operator"],
                true,
                "reload {reload} with {tossed}: {body}"
            );
        }
    }
    // Not locked out: the token still signs in, and still works over gRPC.
    sign_in(console, &token, "/");
    let (_, err, ok) = arena_client(
        s.dir.path(),
        &["competition", "list", "--matchmaker", &s.matchmaker],
    );
    assert!(ok, "{err}");
}

#[test]
fn wrong_tokens_at_the_console_and_over_grpc_count_against_one_limiter() {
    let (s, console) = standalone(&[], &[]);
    // The burst of failures, all at the console.
    let mut limited = false;
    for _ in 0..12 {
        let (status, _, _) = request(
            console,
            "GET",
            "/api/competitions",
            &[("authorization", "Bearer aop.x.wrong")],
            None,
        );
        limited |= status == 429;
    }
    assert!(limited, "the console limits failed attempts");
    // The same address is now refused over gRPC too, even with the right token.
    let (_, err, ok) = arena_client(
        s.dir.path(),
        &["competition", "list", "--matchmaker", &s.matchmaker],
    );
    assert!(!ok, "gRPC let the locked-out address in");
    assert!(
        err.contains("too many failed authentication attempts"),
        "{err}"
    );
}

#[test]
fn the_public_bot_list_is_the_leaderboards_not_the_registry() {
    let (s, console) = standalone(&[("hidden-remote-bot", &[])], &["--public-spectator"]);
    let (status, _, body) = request(console, "GET", "/api/bots", &[], None);
    assert_eq!(status, 200, "{body}");
    assert!(
        !body.contains("hidden-remote-bot"),
        "a never-rated bot's name is the public's to learn: {body}"
    );
    // The operator sees the registry.
    let bearer = format!("Bearer {}", operator_token(&s));
    let (status, _, body) = request(
        console,
        "GET",
        "/api/bots",
        &[("authorization", &bearer)],
        None,
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("hidden-remote-bot"), "{body}");
}

#[test]
fn idle_sockets_beyond_the_cap_do_not_keep_the_console_or_grpc_from_answering() {
    const CAP: usize = 64;
    let (s, console) = standalone(&[], &["--console-max-connections", &CAP.to_string()]);
    let mut idle = Vec::new();
    for i in 0..CAP + 16 {
        let mut sock = TcpStream::connect(("127.0.0.1", console)).unwrap();
        if i % 2 == 1 {
            // Headers begun, never finished.
            sock.write_all(b"GET /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                .unwrap();
        }
        idle.push(sock);
    }
    let (status, _, body) = request(console, "GET", "/api/session", &[], None);
    assert_eq!(status, 200, "{body}");
    // The oldest idle sockets were closed to keep the console within its cap, at once: well
    // before any header-read or idle timeout (10 s and more) would have closed them.
    for sock in &mut idle[..8] {
        sock.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0u8; 64];
        match sock.read(&mut buf) {
            Ok(0) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
            other => panic!("an idle socket beyond the cap is still open: {other:?}"),
        }
    }
    let (_, err, ok) = arena_client(
        s.dir.path(),
        &["competition", "list", "--matchmaker", &s.matchmaker],
    );
    assert!(ok, "{err}");
}

/// A finished table of the public's, written to the store before standalone opens it.
fn finished_table(dir: &Path) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let store = arena_store::EmbeddedStore::open(dir).unwrap();
        let job = v1::TableJob {
            table_id: "cup/a".into(),
            game: "ddz".into(),
            competition: "cup".into(),
            seats: ["expert", "expert", "expert"]
                .map(|b| v1::SeatSpec { bot: b.into() })
                .to_vec(),
            ..Default::default()
        };
        let result = v1::TableResult {
            table_id: "cup/a".into(),
            competition: "cup".into(),
            ..Default::default()
        };
        let replay = v1::Replay {
            job: Some(job),
            result: Some(result.clone()),
            ..Default::default()
        };
        arena_store::Results::put_result(
            &store,
            "cup/a",
            Some("cup"),
            &result.encode_to_vec(),
            &replay.encode_to_vec(),
        )
        .await
        .unwrap();
    });
}

#[test]
fn a_public_replay_flood_is_rate_limited_per_address() {
    let (s, console) = standalone_prepared(
        finished_table,
        &[],
        &["--public-spectator", "--console-public-rate", "5"],
    );
    for _ in 0..5 {
        let (status, _, body) = request(console, "GET", "/api/replay?table=cup%2Fa", &[], None);
        assert_eq!(status, 200, "{body}");
        json(&body);
    }
    let (status, _, body) = request(console, "GET", "/api/replay?table=cup%2Fa", &[], None);
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("5 a minute"), "{body}");
    // Operators are not the public.
    let bearer = format!("Bearer {}", operator_token(&s));
    let (status, _, body) = request(
        console,
        "GET",
        "/api/replay?table=cup%2Fa",
        &[("authorization", &bearer)],
        None,
    );
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_host_name_that_is_not_the_consoles_is_refused_and_answers_are_not_sniffed() {
    let (s, console) = standalone(&[], &["--console-allowed-hosts", "arena.example.org"]);
    // A page of evil.example whose name now resolves to 127.0.0.1 (DNS rebinding).
    for path in ["/", "/api/session"] {
        let (status, _, body) = request(
            console,
            "GET",
            path,
            &[("host", &format!("evil.example:{console}"))],
            None,
        );
        assert_eq!(status, 421, "{path}: {body}");
        assert!(body.contains("evil.example"), "{body}");
        assert!(body.contains("--console-allowed-hosts"), "{body}");
    }
    for host in [
        format!("127.0.0.1:{console}"),
        format!("localhost:{console}"),
        "arena.example.org".to_string(),
    ] {
        let (status, head, body) =
            request(console, "GET", "/api/session", &[("host", &host)], None);
        assert_eq!(status, 200, "{host}: {body}");
        assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    }
    drop(s);
}

#[test]
fn an_allowed_host_that_is_no_host_name_is_refused_naming_it() {
    let (_, err, ok) = common::arena(&[
        "standalone",
        "--console-allowed-hosts",
        "https://arena.example.org/",
    ]);
    assert!(!ok);
    assert!(
        err.contains("\"https://arena.example.org/\" is not a host name"),
        "{err}"
    );
}
