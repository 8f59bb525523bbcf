//! The deal library on a Redis that dies under it: while Redis is gone every call fails as
//! Unavailable (retryable) and says why, nothing is half-written, and when Redis comes back (its
//! append-only file intact) the library serves the same deals again without a restart.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_proto::v1;
use arena_store::{RedisStore, Store};
use tonic::Code;

/// A redis-server of the test's own on a free loopback port, persisting every write to an
/// append-only file in `dir`, so a killed server restarted on the same directory has its data.
struct DurableRedis {
    port: u16,
    child: Option<Child>,
}

impl DurableRedis {
    fn start(dir: &Path) -> DurableRedis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap();
        let mut r = DurableRedis { port, child: None };
        r.launch(dir);
        r
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    fn launch(&mut self, dir: &Path) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args([
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
            ])
            .arg("--dir")
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server is on PATH");
        self.child = Some(child);
        // Up when it answers PING.
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if ping(self.port) {
                return;
            }
            assert!(Instant::now() < deadline, "redis-server did not come up");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL: no shutdown, no final save.
    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for DurableRedis {
    fn drop(&mut self) {
        self.kill();
    }
}

/// True if a Redis on `port` answers PING (inline command, no client library).
fn ping(port: u16) -> bool {
    use std::io::{Read, Write};
    let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    let mut buf = [0u8; 16];
    s.write_all(b"PING\r\n").is_ok()
        && s.read(&mut buf)
            .is_ok_and(|n| buf[..n].starts_with(b"+PONG"))
}

fn panel() -> Option<v1::PanelSpec> {
    Some(v1::PanelSpec {
        landlords: "ladder:5".into(),
        farmers: "expert".into(),
        scoring: String::new(),
        ..Default::default()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_that_dies_under_the_library_loses_nothing_and_is_served_again_when_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut redis = DurableRedis::start(dir.path());
    let store: Arc<dyn Store> = Arc::new(
        RedisStore::connect(&redis.url(), "outage-test")
            .await
            .unwrap(),
    );
    let token = arena_auth::Secret::new("outage-test-operator");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let auth = arena_auth::Authenticator::new(Some(store.clone())).with_bootstrap(Some(&token));
    let server = tokio::spawn(arena_deal_library::serve_with_auth(
        listener,
        store.clone(),
        1,
        auth,
        std::future::pending(),
    ));
    let client = v1::deal_library_client::DealLibraryClient::with_interceptor(
        tonic::transport::Endpoint::from_shared(url)
            .unwrap()
            .connect_lazy(),
        arena_auth::Bearer::new(Some(&token)),
    );
    let panel_id = arena_deal_library::panel(panel().as_ref())
        .unwrap()
        .id()
        .to_string();
    let record = |i: u64| {
        let counts = vec![1, 1, 1, 2];
        v1::DealRecord {
            id: format!("o-{i}"),
            deal: arena_games::ddz::rules::Deal::generate(78, i).to_string(),
            panel: panel_id.clone(),
            levels: vec![-2, -1, 1, 2],
            gdi: arena_games::difficulty::gdi(&counts),
            counts,
            ..Default::default()
        }
    };
    let import = |records: Vec<v1::DealRecord>| {
        let mut client = client.clone();
        async move { client.import(tokio_stream::iter(records)).await }
    };
    let export = || {
        let mut client = client.clone();
        async move {
            let mut s = client
                .export(v1::ExportRequest { panel: panel() })
                .await?
                .into_inner();
            let mut ids = Vec::new();
            while let Some(r) = s.message().await? {
                ids.push(r.id);
            }
            ids.sort();
            Ok::<_, tonic::Status>(ids)
        }
    };
    let first: Vec<v1::DealRecord> = (0..10).map(record).collect();
    let done = import(first).await.unwrap().into_inner();
    assert_eq!((done.received, done.new), (10, 10));
    let before = export().await.unwrap();
    assert_eq!(before.len(), 10);

    redis.kill();
    // Redis is gone: calls fail as Unavailable, the kind a client may retry, saying so.
    let e = export().await.unwrap_err();
    assert_eq!(e.code(), Code::Unavailable, "{e:?}");
    let says = e.message().to_lowercase();
    assert!(
        ["store", "redis", "unavailable"]
            .iter()
            .any(|w| says.contains(w)),
        "the error names the cause: {e:?}"
    );
    let second: Vec<v1::DealRecord> = (10..15).map(record).collect();
    let e = import(second.clone()).await.unwrap_err();
    assert_eq!(e.code(), Code::Unavailable, "{e:?}");
    assert!(
        !server.is_finished(),
        "the library keeps running without its store"
    );

    // Redis is back with its data: the same deals, without restarting the library, and the
    // refused import can be retried whole.
    redis.launch(dir.path());
    let deadline = Instant::now() + Duration::from_secs(60);
    let after = loop {
        match export().await {
            Ok(ids) => break ids,
            Err(e) => {
                assert_eq!(e.code(), Code::Unavailable, "{e:?}");
                assert!(Instant::now() < deadline, "not served again: {e:?}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    };
    assert_eq!(after, before, "no deal lost, none half-written");
    let done = import(second).await.unwrap().into_inner();
    assert_eq!((done.received, done.new), (5, 5));
    assert_eq!(store.deal_count(&panel_id).await.unwrap(), 15);
    server.abort();
}
