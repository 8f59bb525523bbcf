//! Test fixtures: stores in fresh places, and private Redis servers.

#![allow(dead_code)] // Each test binary uses its own part of the fixtures.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arena_store::RedisStore;

/// The Redis the machine runs for everyone.
pub const SHARED_REDIS: &str = "redis://127.0.0.1:6379";

/// A key prefix no other test run uses.
pub fn random_prefix() -> String {
    format!("arena-test-{:016x}", rand::random::<u64>())
}

/// Deletes every key under a prefix when dropped, also when the test fails.
pub struct PrefixCleanup {
    pub url: String,
    pub prefix: String,
}

impl PrefixCleanup {
    /// How many keys the prefix has now.
    pub fn key_count(&self) -> usize {
        self.keys().len()
    }

    fn keys(&self) -> Vec<String> {
        let Ok(mut conn) = redis::Client::open(self.url.as_str()).and_then(|c| c.get_connection())
        else {
            return Vec::new();
        };
        redis::cmd("SCAN")
            .cursor_arg(0)
            .arg("MATCH")
            .arg(format!("{}:*", self.prefix))
            .arg("COUNT")
            .arg(1000)
            .clone()
            .iter::<String>(&mut conn)
            .map(|keys| keys.filter_map(Result::ok).collect())
            .unwrap_or_default()
    }
}

impl Drop for PrefixCleanup {
    fn drop(&mut self) {
        let keys = self.keys();
        if keys.is_empty() {
            return;
        }
        if let Ok(mut conn) =
            redis::Client::open(self.url.as_str()).and_then(|c| c.get_connection())
        {
            for chunk in keys.chunks(1000) {
                let _: Result<u64, _> = redis::cmd("DEL").arg(chunk).query(&mut conn);
            }
        }
    }
}

/// A store on the shared Redis under a fresh prefix, and the guard that removes its keys.
pub async fn shared_redis_store() -> (RedisStore, PrefixCleanup) {
    let prefix = random_prefix();
    let cleanup = PrefixCleanup {
        url: SHARED_REDIS.to_string(),
        prefix: prefix.clone(),
    };
    let store = RedisStore::connect(SHARED_REDIS, &prefix)
        .await
        .expect("the shared Redis at 127.0.0.1:6379 is running");
    (store, cleanup)
}

/// A `redis-server` of the test's own on a spare port, killed when dropped.
pub struct PrivateRedis {
    pub port: u16,
    /// The TLS port, for a server started with [`PrivateRedis::start_tls`].
    pub tls_port: Option<u16>,
    /// Arguments beyond the fixture's own (TLS files, a password, …).
    extra_args: Vec<String>,
    dir: tempfile::TempDir,
    child: Option<Child>,
}

/// A port that was free a moment ago.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

impl PrivateRedis {
    /// Starts a server on a free port and waits until it answers PING.
    pub fn start() -> PrivateRedis {
        PrivateRedis::start_with(false, &[])
    }

    /// Starts a server that also listens with TLS on a port of its own ([`PrivateRedis::tls_port`]),
    /// presenting `cert_file` and `key_file`; clients are verified against `ca_file` when
    /// `verify_clients` (`tls-auth-clients yes`), else not asked for a certificate. The plain port
    /// stays open so the fixture can see the server come up.
    pub fn start_tls(
        cert_file: &std::path::Path,
        key_file: &std::path::Path,
        ca_file: &std::path::Path,
        verify_clients: bool,
    ) -> PrivateRedis {
        let (cert, key, ca) = (
            cert_file.display().to_string(),
            key_file.display().to_string(),
            ca_file.display().to_string(),
        );
        let args = [
            "--tls-cert-file",
            &cert,
            "--tls-key-file",
            &key,
            "--tls-ca-cert-file",
            &ca,
            "--tls-auth-clients",
            if verify_clients { "yes" } else { "no" },
        ];
        PrivateRedis::start_with(true, &args)
    }

    /// Starts a server with `extra_args` on its command line, and a TLS port if `tls` (whose
    /// certificate arguments must then be among `extra_args`).
    pub fn start_with(tls: bool, extra_args: &[&str]) -> PrivateRedis {
        for _ in 0..10 {
            let mut server = PrivateRedis {
                port: free_port(),
                tls_port: tls.then(free_port),
                extra_args: extra_args.iter().map(|a| a.to_string()).collect(),
                dir: tempfile::tempdir().expect("temp dir"),
                child: None,
            };
            if server.launch() {
                return server;
            }
        }
        panic!("could not start redis-server on a free port");
    }

    /// The password given with `--requirepass`, if any.
    pub fn password(&self) -> Option<&str> {
        let at = self.extra_args.iter().position(|a| a == "--requirepass")?;
        self.extra_args.get(at + 1).map(String::as_str)
    }

    /// The `rediss://` URL of the TLS port, by IP address (the certificate must name it).
    pub fn tls_url(&self) -> String {
        format!(
            "rediss://127.0.0.1:{}",
            self.tls_port.expect("a server started with start_tls")
        )
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Starts the server on `self.port`; false if it did not come up (e.g. the port was taken).
    fn launch(&mut self) -> bool {
        let mut command = Command::new("redis-server");
        if let Some(tls_port) = self.tls_port {
            command.args(["--tls-port", &tls_port.to_string()]);
        }
        command.args(&self.extra_args);
        let child = command
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1"])
            .args(["--save", ""])
            .args(["--appendonly", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server is on PATH");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(_)) = child.try_wait()
            {
                self.child = None;
                return false;
            }
            if let Some(child) = self.child.as_ref()
                && answers(self.port, self.password(), child.id())
            {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.kill();
        false
    }

    /// Kills the server (SIGKILL: no goodbye to clients) and waits until it is gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port.
    pub fn restart(&mut self) {
        self.kill();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.launch() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not restart on port {}",
                self.port
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for PrivateRedis {
    fn drop(&mut self) {
        self.kill();
    }
}

/// True if the Redis on `port` (with `password`, if it has one) answers PING and is process `pid` (not another test's server that
/// took the port first).
fn answers(port: u16, password: Option<&str>, pid: u32) -> bool {
    let auth = password.map(|p| format!(":{p}@")).unwrap_or_default();
    let Ok(client) = redis::Client::open(format!("redis://{auth}127.0.0.1:{port}")) else {
        return false;
    };
    let Ok(mut conn) = client.get_connection_with_timeout(Duration::from_millis(500)) else {
        return false;
    };
    let pong: Result<String, _> = redis::cmd("PING").query(&mut conn);
    let info: Result<String, _> = redis::cmd("INFO").arg("server").query(&mut conn);
    pong.is_ok_and(|p| p == "PONG")
        && info.is_ok_and(|info| {
            info.lines()
                .any(|line| line.trim() == format!("process_id:{pid}"))
        })
}
