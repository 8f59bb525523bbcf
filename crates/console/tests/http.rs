//! The console over HTTP, on a real socket: who may read what (the gRPC policy, the operator's
//! `--public-spectator`), the login cookie, cross-site requests, the matchmaker's rule that no
//! card of a table still being played is served, and live standings pushed to every viewer
//! from one watcher.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use arena_console::Console;
use arena_console::backend::{Backend, StandingsStream};
use arena_proto::v1;
use arena_store::Store;
use prost::Message;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;
use tonic::Status;

const TOKEN: &str = "the-bootstrap-operator-token";

struct Running {
    addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    served: tokio::task::JoinHandle<Result<(), arena_console::ConsoleError>>,
    _dir: tempfile::TempDir,
    store: Arc<dyn Store>,
}

impl Running {
    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(Duration::from_secs(20), self.served)
            .await
            .expect("the console stops though pages still watch")
            .unwrap()
            .unwrap();
    }
}

/// A console on a loopback port, calling `backend` (the matchmaker's service unless given).
async fn console(public: bool, backend: Option<Arc<dyn Backend>>) -> Running {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(arena_store::EmbeddedStore::open(dir.path()).unwrap());
    let auth = arena_auth::Authenticator::new(Some(store.clone()))
        .with_bootstrap(Some(&arena_auth::Secret::new(TOKEN.to_string())))
        .public_spectator(public);
    let backend = backend.unwrap_or_else(|| {
        Arc::new(arena_matchmaker::MatchmakerService::new(store.clone())) as Arc<dyn Backend>
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(
        Console::new(backend, store.clone(), auth).serve(listener, async {
            let _ = rx.await;
        }),
    );
    Running {
        addr,
        stop: Some(tx),
        served,
        _dir: dir,
        store,
    }
}

/// One HTTP/1.1 request; (status, headers, body).
async fn request(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
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
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

async fn get(addr: std::net::SocketAddr, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let (status, _, body) = request(addr, "GET", path, headers, None).await;
    (status, body)
}

fn bearer() -> String {
    format!("Bearer {TOKEN}")
}

/// The login cookie (`name=value`) the console signs for `token`, as a browser would send it.
async fn signed_cookie(store: &dyn Store, token: &str) -> String {
    let key = arena_console::access::CookieKey::load(store).await.unwrap();
    format!("{}={}", key.name(), key.sign(token))
}

#[tokio::test]
async fn spectator_pages_are_for_operators_until_the_operator_opens_them() {
    let closed = console(false, None).await;
    let a = closed.addr;
    let (status, body) = get(a, "/api/competitions", &[]).await;
    assert_eq!(status, 401, "{body}");
    assert!(body.contains("operator token"), "says what to send: {body}");
    assert_eq!(
        get(a, "/api/competitions", &[("authorization", &bearer())])
            .await
            .0,
        200
    );
    let cookie = signed_cookie(&*closed.store, TOKEN).await;
    assert_eq!(
        get(a, "/api/competitions", &[("cookie", &cookie)]).await.0,
        200
    );
    // The token alone, under the cookie's old name or its own, is no login cookie.
    for unsigned in [
        format!("arena_operator={TOKEN}"),
        format!("{}={TOKEN}", cookie.split('=').next().unwrap()),
    ] {
        assert_eq!(
            get(a, "/api/competitions", &[("cookie", &unsigned)])
                .await
                .0,
            401
        );
    }
    let (status, _) = get(a, "/api/competitions", &[("authorization", "Bearer wrong")]).await;
    assert_eq!(status, 401);
    // The pages themselves hold no data: always served, with a policy that runs only their own
    // scripts.
    let (status, head, body) = request(a, "GET", "/competition?name=x", &[], None).await;
    assert_eq!(status, 200);
    assert!(body.contains("/assets/app.js"));
    assert!(
        head.to_lowercase()
            .contains("content-security-policy: default-src 'none'; script-src 'self'"),
        "{head}"
    );
    closed.stop().await;

    let open = console(true, None).await;
    let a = open.addr;
    for path in [
        "/api/competitions",
        "/api/leaderboard?game=mahjong",
        "/api/bots",
    ] {
        assert_eq!(get(a, path, &[]).await.0, 200, "{path} is public");
    }
    // The deal library stays the operators' (it would tell which deals competitions will get).
    assert_eq!(get(a, "/api/deals", &[]).await.0, 401);
    assert_eq!(
        get(a, "/api/deals", &[("authorization", &bearer())])
            .await
            .0,
        200
    );
    // Operator actions too.
    let spec = r#"{"name":"cup","participants":["expert","seed"],"matches":1,"rounds":1,"format":"random"}"#;
    let (status, _, body) = request(a, "POST", "/api/competitions", &[], Some(spec)).await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(get(a, "/api/leaderboard?game=chess", &[]).await.0, 400);
    open.stop().await;
}

#[tokio::test]
async fn login_keeps_the_token_in_an_http_only_same_site_cookie_and_refuses_other_sites() {
    let c = console(false, None).await;
    let a = c.addr;
    let (status, _, body) =
        request(a, "POST", "/api/login", &[], Some(r#"{"token":"not-it"}"#)).await;
    assert_eq!(status, 401, "{body}");
    let login = format!(r#"{{"token":"{TOKEN}"}}"#);
    let (status, head, body) = request(a, "POST", "/api/login", &[], Some(&login)).await;
    assert_eq!(status, 200, "{body}");
    let cookie = signed_cookie(&*c.store, TOKEN).await;
    assert!(
        head.to_lowercase().contains(&format!(
            "set-cookie: {}; path=/; httponly; samesite=strict",
            cookie.to_lowercase()
        )),
        "{head}"
    );
    // Another site's page cannot post with the browser's cookie.
    let cancel = r#"{"name":"cup"}"#;
    let (status, _, body) = request(
        a,
        "POST",
        "/api/competition/cancel",
        &[("cookie", &cookie), ("origin", "http://evil.example")],
        Some(cancel),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    // The console's own page may: the competition does not exist, and the matchmaker says so.
    let own = format!("http://{a}");
    let (status, _, body) = request(
        a,
        "POST",
        "/api/competition/cancel",
        &[("cookie", &cookie), ("origin", &own)],
        Some(cancel),
    )
    .await;
    assert_eq!(
        (status, body.contains("no competition")),
        (404, true),
        "{body}"
    );
    let (status, _, body) = request(a, "POST", "/api/login", &[], Some(r#"{"token":"a;b"}"#)).await;
    assert_eq!(status, 400, "{body}");
    // A cookie whose token no longer works is dropped at the next page, not tried on every one.
    let revoked = signed_cookie(&*c.store, "revoked").await;
    let stale = [("cookie", revoked.as_str())];
    let (status, head, body) = request(a, "GET", "/api/session", &stale, None).await;
    assert_eq!(
        (status, body.contains(r#""operator":false"#)),
        (200, true),
        "{body}"
    );
    assert!(
        head.to_lowercase().contains(&format!(
            "set-cookie: {}=; path=/",
            cookie.split('=').next().unwrap().to_lowercase()
        )),
        "{head}"
    );
    let (_, head, body) = request(a, "GET", "/api/session", &[("cookie", &cookie)], None).await;
    assert!(body.contains(r#""operator":true"#), "{body}");
    assert!(!head.to_lowercase().contains("set-cookie"), "{head}");
    c.stop().await;
}

fn table(id: &str, group: &str) -> (v1::TableResult, v1::Replay) {
    let job = v1::TableJob {
        table_id: id.into(),
        game: "ddz".into(),
        competition: "cup".into(),
        seats: ["north", "expert", "expert"]
            .map(|b| v1::SeatSpec { bot: b.into() })
            .to_vec(),
        labels: [(
            arena_store::visibility::DEAL_GROUP_LABEL.to_string(),
            group.to_string(),
        )]
        .into_iter()
        .collect(),
        ..Default::default()
    };
    // The referee copies the job's labels into the result.
    let result = v1::TableResult {
        table_id: id.into(),
        competition: "cup".into(),
        labels: job.labels.clone(),
        placement: Some(Box::new(v1::Placement {
            deal_id: "g5-b1-7".into(),
            ..Default::default()
        })),
        ..Default::default()
    };
    let replay = v1::Replay {
        job: Some(job),
        result: Some(result.clone()),
        ..Default::default()
    };
    (result, replay)
}

#[tokio::test]
async fn no_replay_is_served_while_a_table_dealt_the_same_cards_is_still_being_played() {
    let c = console(true, None).await;
    let cup = v1::Competition {
        spec: Some(v1::CompetitionSpec {
            name: "cup".into(),
            ..Default::default()
        }),
        status: v1::CompetitionState::Running as i32,
        tables_total: 2,
        ..Default::default()
    };
    c.store
        .put_record(arena_matchmaker::COMPETITION, "cup", &cup.encode_to_vec())
        .await
        .unwrap();
    let group = "cup/deal-7";
    arena_store::visibility::put_deal_group(&*c.store, group, &["cup/a".into(), "cup/b".into()])
        .await
        .unwrap();
    let (result, replay) = table("cup/a", group);
    c.store
        .put_result(
            "cup/a",
            Some("cup"),
            &result.encode_to_vec(),
            &replay.encode_to_vec(),
        )
        .await
        .unwrap();
    let (status, body) = get(c.addr, "/api/replay?table=cup%2Fa", &[]).await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body.contains("cup/b"),
        "names the table still holding the deal: {body}"
    );
    // Operators neither: the rule is the cards', not the caller's.
    let (status, _) = get(
        c.addr,
        "/api/replay?table=cup%2Fa",
        &[("authorization", &bearer())],
    )
    .await;
    assert_eq!(status, 409);
    // The table list names it, without its scores or a link.
    let (status, body) = get(c.addr, "/api/competition/tables?name=cup", &[]).await;
    assert_eq!(status, 200, "{body}");
    let list: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(list["total"], 1);
    assert_eq!(list["tables"][0]["shown"], false, "{list}");
    assert_eq!(
        list["tables"][0]["final_scores"],
        serde_json::Value::Null,
        "{list}"
    );
    // Nor its deal id, which names the stream and index that deal it again.
    assert_eq!(
        list["tables"][0]["placement"]["deal_id"],
        serde_json::Value::Null,
        "{list}"
    );
    // Who sat where is no secret, hidden deal or not.
    assert_eq!(
        list["tables"][0]["seats"],
        serde_json::json!(["north", "expert", "expert"]),
        "{list}"
    );
    let (result, replay) = table("cup/b", group);
    c.store
        .put_result(
            "cup/b",
            Some("cup"),
            &result.encode_to_vec(),
            &replay.encode_to_vec(),
        )
        .await
        .unwrap();
    let (status, body) = get(c.addr, "/api/replay?table=cup%2Fa", &[]).await;
    assert_eq!(status, 200, "{body}");
    let (_, body) = get(c.addr, "/api/competition/tables?name=cup", &[]).await;
    let list: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(list["total"], 2);
    let tables = list["tables"].as_array().unwrap();
    assert!(tables.iter().all(|t| t["shown"] == true), "{list}");
    assert!(
        tables
            .iter()
            .all(|t| t["placement"]["deal_id"] == "g5-b1-7"),
        "{list}"
    );
    assert_eq!(
        get(c.addr, "/api/competition/tables?name=nope", &[])
            .await
            .0,
        404
    );
    assert_eq!(get(c.addr, "/api/replay?table=nope", &[]).await.0, 404);
    c.stop().await;
}

/// A matchmaker whose one competition's standings come from the test, counting its watchers.
struct Scripted {
    watches: AtomicUsize,
    updates: std::sync::Mutex<Option<mpsc::Receiver<Result<v1::Standings, Status>>>>,
}

fn comp() -> v1::Competition {
    v1::Competition {
        spec: Some(v1::CompetitionSpec {
            name: "cup".into(),
            ..Default::default()
        }),
        status: v1::CompetitionState::Running as i32,
        ..Default::default()
    }
}

#[tonic::async_trait]
impl Backend for Scripted {
    async fn competitions(&self) -> Result<Vec<v1::Competition>, Status> {
        Ok(vec![comp()])
    }
    async fn competition(&self, name: &str) -> Result<v1::Competition, Status> {
        match name {
            "cup" => Ok(comp()),
            _ => Err(Status::not_found(format!("no competition {name:?}"))),
        }
    }
    async fn standings(&self, _: &str) -> Result<v1::Standings, Status> {
        Ok(standings(9, true))
    }
    async fn watch(&self, _: &str) -> Result<StandingsStream, Status> {
        self.watches.fetch_add(1, Ordering::SeqCst);
        let rx = self.updates.lock().unwrap().take().expect("watched once");
        Ok(Box::pin(tokio_stream::wrappers::ReceiverStream::new(rx)))
    }
    async fn replays(&self, _: &str) -> Result<Vec<v1::Replay>, Status> {
        Ok(Vec::new())
    }
    async fn replay(&self, _: &str) -> Result<v1::Replay, Status> {
        Err(Status::not_found("none"))
    }
    async fn leaderboard(&self, _: &str) -> Result<v1::Leaderboard, Status> {
        Ok(v1::Leaderboard::default())
    }
    async fn create(&self, _: v1::CompetitionSpec) -> Result<v1::Competition, Status> {
        Err(Status::unimplemented("not here"))
    }
    async fn cancel(&self, _: &str) -> Result<v1::Competition, Status> {
        Err(Status::unimplemented("not here"))
    }
}

fn standings(done: u64, r#final: bool) -> v1::Standings {
    v1::Standings {
        competition: "cup".into(),
        tables_done: done,
        tables_total: 9,
        r#final,
        ..Default::default()
    }
}

/// An open event stream: reads `event:` names (with their data) as they arrive.
struct Viewer(BufReader<tokio::net::TcpStream>);

impl Viewer {
    async fn open(addr: std::net::SocketAddr) -> Viewer {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "GET /api/competition/live?name=cup HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut r = BufReader::new(s);
        let mut line = String::new();
        r.read_line(&mut line).await.unwrap();
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        Viewer(r)
    }

    /// The next event's name and data; `None` once the stream has ended.
    async fn next(&mut self) -> Option<(String, String)> {
        let mut event = None;
        loop {
            let mut line = String::new();
            let n = tokio::time::timeout(Duration::from_secs(20), self.0.read_line(&mut line))
                .await
                .expect("an event within 20 s")
                .unwrap();
            if n == 0 {
                return None;
            }
            if let Some(name) = line.strip_prefix("event: ") {
                event = Some(name.trim().to_string());
            } else if let Some(data) = line.strip_prefix("data: ")
                && let Some(name) = event.take()
            {
                return Some((name, data.trim().to_string()));
            } else if line.trim() == "0" {
                // The chunked body's last chunk.
                return None;
            }
        }
    }
}

#[tokio::test]
async fn live_standings_reach_every_viewer_from_one_watcher_and_end_with_the_final_ones() {
    let (tx, rx) = mpsc::channel(8);
    let backend = Arc::new(Scripted {
        watches: AtomicUsize::new(0),
        updates: std::sync::Mutex::new(Some(rx)),
    });
    let c = console(true, Some(backend.clone())).await;
    let mut first = Viewer::open(c.addr).await;
    tx.send(Ok(standings(2, false))).await.unwrap();
    let (name, data) = first.next().await.unwrap();
    assert_eq!(name, "standings");
    assert!(data.contains(r#""tables_done":"2""#), "{data}");
    // A viewer arriving later gets the latest standings at once, from the same watcher.
    let mut second = Viewer::open(c.addr).await;
    let (name, data) = second.next().await.unwrap();
    assert_eq!(
        (name.as_str(), data.contains(r#""tables_done":"2""#)),
        ("standings", true)
    );
    tx.send(Ok(standings(5, false))).await.unwrap();
    for v in [&mut first, &mut second] {
        let (_, data) = v.next().await.unwrap();
        assert!(data.contains(r#""tables_done":"5""#), "{data}");
    }
    tx.send(Ok(standings(9, true))).await.unwrap();
    for v in [&mut first, &mut second] {
        let (name, data) = v.next().await.unwrap();
        assert_eq!(name, "final", "{data}");
        assert_eq!(
            v.next().await,
            None,
            "the stream ends after the final standings"
        );
    }
    assert_eq!(
        backend.watches.load(Ordering::SeqCst),
        1,
        "one watcher for both viewers"
    );
    // A competition nobody has is a 404, not a stream that fails.
    assert_eq!(
        get(c.addr, "/api/competition/live?name=nope", &[]).await.0,
        404
    );
    c.stop().await;
}

#[tokio::test]
async fn the_console_stops_although_a_page_still_watches() {
    let (tx, rx) = mpsc::channel(8);
    let backend = Arc::new(Scripted {
        watches: AtomicUsize::new(0),
        updates: std::sync::Mutex::new(Some(rx)),
    });
    let c = console(true, Some(backend)).await;
    let mut viewer = Viewer::open(c.addr).await;
    tx.send(Ok(standings(1, false))).await.unwrap();
    assert_eq!(viewer.next().await.unwrap().0, "standings");
    // The competition goes on (the sender stays open); the console is stopped all the same.
    c.stop().await;
    assert_eq!(viewer.next().await, None);
    drop(tx);
}

/// A seed past 2^53: as a JavaScript number it would read 3274537341145225700.
const BIG_SEED: u64 = 3_274_537_341_145_225_769;

#[tokio::test]
async fn every_64_bit_integer_travels_as_a_string_so_a_seed_reaches_the_page_exact() {
    let c = console(true, None).await;
    let panel = arena_store::Panel {
        id: "p-wide".into(),
        game: arena_store::Game::named("ddz"),
        seats: vec![
            (1..=70).map(|k| format!("ladder:{k}/70")).collect(),
            vec!["expert".into()],
            vec!["expert".into()],
        ],
        scoring: "difficulty".into(),
    };
    c.store.put_panel(&panel).await.unwrap();
    let source = arena_store::DealSource {
        seed: BIG_SEED,
        bombs: Some(1),
    };
    let index = 9_007_199_254_740_993u64; // 2^53 + 1
    let deal = arena_store::DealRecord {
        id: source.deal_id(index),
        game: arena_store::Game::named("ddz"),
        deal: arena_games::ddz::rules::Deal::generate(BIG_SEED, 0).to_string(),
        source: Some((source, index)),
        panel: panel.id.clone(),
        levels: vec![1, 2, 4, 8],
        counts: vec![10, 30, 20, 10],
        gdi: vec![60.0 / 70.0, 30.0 / 70.0, 10.0 / 70.0],
    };
    c.store
        .put_deals(std::slice::from_ref(&deal))
        .await
        .unwrap();
    let auth = [("authorization", bearer())];
    let auth: Vec<(&str, &str)> = auth.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let json = |body: &str| serde_json::from_str::<serde_json::Value>(body).unwrap();

    let path = format!("/api/deal?panel=p-wide&id={}", deal.id);
    let (status, body) = get(c.addr, &path, &auth).await;
    assert_eq!(status, 200, "{body}");
    // The digits as they are, not a number a page would round.
    assert!(body.contains(r#""seed":"3274537341145225769""#), "{body}");
    let d = json(&body);
    assert_eq!(d["source"]["index"], "9007199254740993");
    assert_eq!(d["levels"], serde_json::json!(["1", "2", "4", "8"]));

    let (_, body) = get(c.addr, "/api/deals", &auth).await;
    assert_eq!(json(&body)["panels"][0]["deals"], "1", "{body}");
    let (_, body) = get(c.addr, "/api/deals/points?panel=p-wide", &auth).await;
    let points = json(&body);
    assert_eq!(points["deals"], "1");
    assert_eq!(points["points"][0]["count"], "1", "{body}");
    assert_eq!(points["points"][0]["example"], deal.id.as_str(), "{body}");
    // Held by a running competition: neither its cards nor its source (which deals it again),
    // nor its id as a point's example.
    c.store
        .claim_deals("running", std::slice::from_ref(&deal.id))
        .await
        .unwrap();
    let (_, body) = get(c.addr, &path, &auth).await;
    let d = json(&body);
    assert_eq!(d["held"], true, "{body}");
    assert_eq!(d["deal"], serde_json::Value::Null, "{body}");
    assert_eq!(d["source"], serde_json::Value::Null, "{body}");
    let (_, body) = get(c.addr, "/api/deals/points?panel=p-wide", &auth).await;
    let points = json(&body);
    assert_eq!(points["points"][0]["held"], "1", "{body}");
    assert_eq!(
        points["points"][0]["example"],
        serde_json::Value::Null,
        "{body}"
    );
    arena_store::visibility::mark_ended(&*c.store, "running", "finished")
        .await
        .unwrap();

    let cup = v1::Competition {
        spec: Some(v1::CompetitionSpec {
            name: "cup".into(),
            seed: BIG_SEED,
            ..Default::default()
        }),
        status: v1::CompetitionState::Finished as i32,
        tables_total: 1 << 60,
        created_unix_ms: 1_700_000_000_000,
        ..Default::default()
    };
    c.store
        .put_record(arena_matchmaker::COMPETITION, "cup", &cup.encode_to_vec())
        .await
        .unwrap();
    let (status, body) = get(c.addr, "/api/competitions", &[]).await;
    assert_eq!(status, 200, "{body}");
    let listed = &json(&body)["competitions"][0];
    assert_eq!(listed["tables_total"], (1u64 << 60).to_string(), "{body}");
    assert_eq!(listed["created_unix_ms"], "1700000000000");
    // A finished competition's seed is shown, whole.
    assert_eq!(listed["seed"], BIG_SEED.to_string());
    c.stop().await;
}

#[tokio::test]
async fn every_page_has_its_icon_and_the_fan_font_the_policy_lets_it_load() {
    let c = console(false, None).await;
    for path in ["/favicon.ico", "/favicon.svg"] {
        let (status, head, body) = request(c.addr, "GET", path, &[], None).await;
        assert_eq!(status, 200, "{path}");
        assert!(
            head.to_lowercase().contains("content-type: image/svg+xml"),
            "{head}"
        );
        assert!(body.starts_with("<svg"), "{body}");
    }
    let (status, head, _) = request(c.addr, "GET", "/", &[], None).await;
    assert_eq!(status, 200);
    assert!(head.contains("font-src 'self'"), "{head}");
    let (_, _, page) = request(c.addr, "GET", "/", &[], None).await;
    assert!(
        page.contains(r#"<link rel="icon" href="/favicon.svg""#),
        "{page}"
    );
    // The font is Mahjong's asset, with the stylesheet that declares it; the page links it.
    assert!(
        page.contains(r#"<link rel="stylesheet" href="/assets/games/mahjong/mahjong.css">"#),
        "{page}"
    );
    let (status, _, css) = request(
        c.addr,
        "GET",
        "/assets/games/mahjong/mahjong.css",
        &[],
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert!(css.contains("/assets/games/mahjong/fan-names.otf"), "{css}");
    // (HEAD: the font is binary.)
    let (status, head, _) = request(
        c.addr,
        "HEAD",
        "/assets/games/mahjong/fan-names.otf",
        &[],
        None,
    )
    .await;
    assert_eq!(status, 200);
    assert!(
        head.to_lowercase().contains("content-type: font/otf"),
        "{head}"
    );
    c.stop().await;
}

/// A console whose create form asks a real deal library (on a loopback port, deciding calls
/// with the same operators) for missing deals.
async fn console_with_library() -> (Running, tokio::sync::oneshot::Sender<()>) {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(arena_store::EmbeddedStore::open(dir.path()).unwrap());
    let auth = || {
        arena_auth::Authenticator::new(Some(store.clone()))
            .with_bootstrap(Some(&arena_auth::Secret::new(TOKEN.to_string())))
    };
    let library = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let library_addr = library.local_addr().unwrap();
    let (stop_library, library_stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(arena_deal_library::serve_with_auth(
        library,
        store.clone(),
        2,
        auth(),
        async {
            let _ = library_stopped.await;
        },
    ));
    let backend = Arc::new(arena_matchmaker::MatchmakerService::new(store.clone()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let console = Console::new(backend, store.clone(), auth())
        .with_deal_library(&format!("http://{library_addr}"))
        .unwrap();
    let served = tokio::spawn(console.serve(listener, async {
        let _ = rx.await;
    }));
    (
        Running {
            addr,
            stop: Some(tx),
            served,
            _dir: dir,
            store,
        },
        stop_library,
    )
}

#[tokio::test]
async fn an_equal_strength_competition_from_the_form_has_its_deals_found_as_the_cli_does() {
    let (c, stop_library) = console_with_library().await;
    let auth = bearer();
    let auth = [("authorization", auth.as_str())];
    // No centre and no ε: the CLI's defaults. A small panel, so the library's search is short.
    let spec = r#"{"name":"es-cup","format":"equal-strength","participants":["expert","random"],
                   "panel":"ladder:10","matches":1,"rounds":1}"#;
    let (status, _, body) = request(c.addr, "POST", "/api/competitions", &auth, Some(spec)).await;
    assert_eq!(status, 202, "{body}");
    let mut p: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(p["preparing"]["state"], "finding", "{body}");
    assert_eq!(p["preparing"]["need"], "2", "{body}");
    let mut seen_progress = false;
    loop {
        let state = p["preparing"]["state"].as_str().unwrap().to_string();
        assert_ne!(state, "failed", "{p}");
        if p["preparing"]["operation"].is_string() {
            seen_progress = true;
        }
        if state == "created" {
            break;
        }
        let version = p["preparing"]["version"].as_str().unwrap().to_string();
        let path = format!("/api/competitions/preparing?name=es-cup&seen={version}");
        let (status, body) = get(c.addr, &path, &auth).await;
        assert_eq!(status, 200, "{body}");
        p = serde_json::from_str(&body).unwrap();
    }
    assert!(seen_progress, "the library's operation was followed: {p}");
    assert_eq!(p["preparing"]["found"], "2", "{p}");
    let comp = &p["preparing"]["competition"];
    assert_eq!(comp["format"], "equal-strength");
    assert_eq!(
        comp["centre"],
        serde_json::json!(arena_deals::wanted::DEFAULT_CENTRE)
    );
    let (status, body) = get(c.addr, "/api/competition?name=es-cup", &auth).await;
    assert_eq!(status, 200, "{body}");
    // Nobody but operators follows a preparation.
    let (status, _) = get(c.addr, "/api/competitions/preparing?name=es-cup", &[]).await;
    assert_eq!(status, 401);
    let _ = stop_library.send(());
    c.stop().await;
}

#[tokio::test]
async fn without_a_deal_library_a_competition_short_of_deals_is_refused_saying_how_to_find_them() {
    let c = console(false, None).await;
    let spec = r#"{"name":"es-cup","participants":["expert","random"],"matches":1,"rounds":1}"#;
    let auth = bearer();
    let (status, _, body) = request(
        c.addr,
        "POST",
        "/api/competitions",
        &[("authorization", auth.as_str())],
        Some(spec),
    )
    .await;
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("arena deals find"), "{body}");
    assert!(body.contains("--deal-library"), "{body}");
    c.stop().await;
}

/// The form's answer carries the matchmaker's warnings: a participant that is a remote bot not
/// connected would otherwise lose every table without anyone being told.
#[tokio::test]
async fn creating_with_a_remote_bot_that_is_not_connected_answers_a_warning() {
    let c = console(false, None).await;
    let record = arena_store::BotRecord {
        name: "away".into(),
        kind: arena_store::BotKind::Remote,
        token_sha256: None,
        max_tables: 0,
        created_unix_ms: 1,
        decision_ms: 0,
        later_decision_ms: 0,
    };
    assert!(c.store.add_bot(&record).await.unwrap());
    let spec = r#"{"name":"mj-cup","game":"mahjong","participants":["away","random","greedy","random"],"matches":1}"#;
    let auth = bearer();
    let (status, _, body) = request(
        c.addr,
        "POST",
        "/api/competitions",
        &[("authorization", auth.as_str())],
        Some(spec),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["competition"]["name"], "mj-cup", "{body}");
    let warnings = v["warnings"].as_array().expect("warnings");
    assert_eq!(warnings.len(), 1, "{body}");
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .contains("remote bot \"away\" is not connected"),
        "{body}"
    );
    c.stop().await;
}
