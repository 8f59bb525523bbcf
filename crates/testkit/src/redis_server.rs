//! A `redis-server` of the caller's own: a private Redis on a free port, without persistence,
//! killed when dropped. For tests that restart, kill or reconfigure their Redis, tests that need
//! TLS, a password or an address beyond loopback, and benchmarks that count Redis commands (a
//! shared Redis would count everyone's).
//!
//! [`RedisServer::start`] is the plain case; [`RedisServer::builder`] adds bind addresses, a
//! password, TLS and further command-line arguments.

use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use crate::free_port;

/// How many free ports a start tries before it gives up: a port picked free may be taken by
/// another process before `redis-server` binds it.
const START_ATTEMPTS: usize = 10;

/// How long one launch may take to answer `PING`, on a machine loaded by other tests.
const COME_UP_WITHIN: Duration = Duration::from_secs(10);

/// What a [`RedisServer`] is started with; from [`RedisServer::builder`].
#[derive(Debug, Clone, Default)]
pub struct RedisServerBuilder {
    bind: Vec<String>,
    password: Option<String>,
    tls: Option<TlsFiles>,
    extra_args: Vec<String>,
}

/// The certificate files of a TLS port.
#[derive(Debug, Clone)]
struct TlsFiles {
    cert: String,
    key: String,
    ca: String,
    verify_clients: bool,
}

impl RedisServerBuilder {
    /// Listens on these addresses (`--bind`), the first of which [`RedisServer::url`] and
    /// [`RedisServer::addr`] name; `127.0.0.1` when none are given. An address beyond loopback
    /// (another network namespace's) wants a [`password`](Self::password): Redis's protected
    /// mode may refuse clients from there without one.
    pub fn bind(mut self, addresses: &[&str]) -> Self {
        self.bind = addresses.iter().map(|a| a.to_string()).collect();
        self
    }

    /// Clients must give `password` (`--requirepass`); the URLs carry it.
    pub fn password(mut self, password: &str) -> Self {
        self.password = Some(password.to_string());
        self
    }

    /// [`password`](Self::password) with one no other server of this machine has.
    pub fn generated_password(self) -> Self {
        self.password(&crate::unique_name("pw"))
    }

    /// Also listens with TLS on a port of its own ([`RedisServer::tls_port`]), presenting
    /// `cert_file` and `key_file`; clients are verified against `ca_file` when `verify_clients`
    /// (`tls-auth-clients yes`), else not asked for a certificate. The plain port stays open, so
    /// the fixture can see the server come up.
    pub fn tls(
        mut self,
        cert_file: &Path,
        key_file: &Path,
        ca_file: &Path,
        verify_clients: bool,
    ) -> Self {
        self.tls = Some(TlsFiles {
            cert: cert_file.display().to_string(),
            key: key_file.display().to_string(),
            ca: ca_file.display().to_string(),
            verify_clients,
        });
        self
    }

    /// Further `redis-server` arguments (`--cluster-enabled yes`, …). Relative file names in them
    /// lie in the server's own temporary directory.
    pub fn args(mut self, args: &[&str]) -> Self {
        self.extra_args.extend(args.iter().map(|a| a.to_string()));
        self
    }

    /// Starts `redis-server` (from `PATH`) on a free port, and waits until it answers `PING`
    /// and is the process it started (not another test's server that took the port first).
    /// A server that exits or does not answer is tried again on other ports. Panics, saying
    /// why, if none comes up.
    pub fn start(self) -> RedisServer {
        let bind = if self.bind.is_empty() {
            vec!["127.0.0.1".to_string()]
        } else {
            self.bind.clone()
        };
        let mut last_log = String::new();
        for _ in 0..START_ATTEMPTS {
            let mut server = RedisServer {
                port: free_port(),
                tls_port: self.tls.as_ref().map(|_| free_port()),
                bind: bind.clone(),
                password: self.password.clone(),
                args: self.command_line(),
                dir: tempfile::tempdir().expect("a temporary directory for redis-server"),
                child: None,
            };
            if server.launch() {
                return server;
            }
            last_log = server.log();
        }
        panic!(
            "redis-server did not come up on a free port in {START_ATTEMPTS} attempts; \
             its last log:\n{last_log}"
        );
    }

    /// The arguments beyond port, bind address and persistence, which the fixture sets itself.
    fn command_line(&self) -> Vec<String> {
        let mut args = Vec::new();
        if let Some(password) = &self.password {
            args.extend(["--requirepass".to_string(), password.clone()]);
        }
        if let Some(tls) = &self.tls {
            args.extend(
                [
                    "--tls-cert-file",
                    &tls.cert,
                    "--tls-key-file",
                    &tls.key,
                    "--tls-ca-cert-file",
                    &tls.ca,
                    "--tls-auth-clients",
                    if tls.verify_clients { "yes" } else { "no" },
                ]
                .map(String::from),
            );
        }
        args.extend(self.extra_args.iter().cloned());
        args
    }
}

/// A running private `redis-server`; killed when dropped.
#[derive(Debug)]
pub struct RedisServer {
    port: u16,
    tls_port: Option<u16>,
    bind: Vec<String>,
    password: Option<String>,
    /// Everything but port, TLS port, bind addresses, persistence and directory.
    args: Vec<String>,
    /// Its working directory (`--dir`) and log; kept across restarts.
    dir: tempfile::TempDir,
    child: Option<Child>,
}

impl RedisServer {
    /// Starts a plain server: loopback, no password, no TLS. See [`RedisServerBuilder::start`].
    pub fn start() -> RedisServer {
        RedisServer::builder().start()
    }

    /// A server with bind addresses, a password, TLS or further arguments of the caller's.
    pub fn builder() -> RedisServerBuilder {
        RedisServerBuilder::default()
    }

    /// `redis://[:PASSWORD@]HOST:PORT` on the first bound address.
    pub fn url(&self) -> String {
        self.url_at(&self.bind[0])
    }

    /// `redis://[:PASSWORD@]HOST:PORT` on `host` (one of the bound addresses).
    pub fn url_at(&self, host: &str) -> String {
        format!("redis://{}{host}:{}", self.auth(), self.port)
    }

    /// `rediss://[:PASSWORD@]127.0.0.1:TLS_PORT`, by IP address (the certificate must name it).
    /// Panics if the server was started without [`RedisServerBuilder::tls`].
    pub fn tls_url(&self) -> String {
        let port = self
            .tls_port
            .expect("tls_url of a server started with RedisServerBuilder::tls");
        format!("rediss://{}127.0.0.1:{port}", self.auth())
    }

    /// `HOST:PORT` of the plain port on the first bound address.
    pub fn addr(&self) -> String {
        format!("{}:{}", self.bind[0], self.port)
    }

    /// The plain port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The TLS port, for a server started with [`RedisServerBuilder::tls`].
    pub fn tls_port(&self) -> Option<u16> {
        self.tls_port
    }

    /// The password clients must give, if it has one.
    pub fn password(&self) -> Option<&str> {
        self.password.as_deref()
    }

    /// Kills the server (SIGKILL: no goodbye to clients) and waits until it is gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Kills the server and starts it again on the same ports with the same arguments: empty,
    /// as a restart without persistence leaves it. Panics, saying why, if it does not come up
    /// within ten seconds.
    pub fn restart(&mut self) {
        self.kill();
        let deadline = Instant::now() + COME_UP_WITHIN;
        while !self.launch() {
            assert!(
                Instant::now() < deadline,
                "redis-server did not restart on port {}; its log:\n{}",
                self.port,
                self.log()
            );
            // The port is held by someone else for now (see `launch`): give it a moment.
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// `:PASSWORD@`, or nothing.
    fn auth(&self) -> String {
        self.password
            .as_ref()
            .map(|p| format!(":{p}@"))
            .unwrap_or_default()
    }

    fn log_path(&self) -> std::path::PathBuf {
        self.dir.path().join("redis-server.log")
    }

    /// What the server wrote to its log (the last 4 KiB), for failure messages.
    fn log(&self) -> String {
        let text = std::fs::read_to_string(self.log_path()).unwrap_or_default();
        let cut = text.len().saturating_sub(4096);
        let start = (cut..text.len())
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(text.len());
        text[start..].to_string()
    }

    /// Starts the server on its ports; false if it exited (e.g. a port was taken) or did not
    /// answer in time, as itself, on the plain port.
    fn launch(&mut self) -> bool {
        let mut command = Command::new("redis-server");
        command
            .args(["--port", &self.port.to_string()])
            .arg("--bind")
            .args(&self.bind);
        if let Some(tls_port) = self.tls_port {
            command.args(["--tls-port", &tls_port.to_string()]);
        }
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path())
            .expect("a log file in redis-server's temporary directory");
        // Its log goes to stdout, a refused configuration to stderr: both into the log file.
        let log_too = log
            .try_clone()
            .expect("a second handle on redis-server's log file");
        let child = command
            .args(&self.args)
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(log)
            .stderr(log_too)
            .spawn()
            .expect("redis-server is on PATH");
        let pid = child.id();
        self.child = Some(child);
        let deadline = Instant::now() + COME_UP_WITHIN;
        while Instant::now() < deadline {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(_)) = child.try_wait()
            {
                self.child = None;
                return false;
            }
            if self.answers_as(pid) {
                return true;
            }
            // Nothing tells when redis-server is ready but its answer: poll.
            std::thread::sleep(Duration::from_millis(20));
        }
        self.kill();
        false
    }

    /// True if the server on the plain port answers `PING` and is process `pid`, not another
    /// test's server that took the port first.
    fn answers_as(&self, pid: u32) -> bool {
        let Ok(client) = redis::Client::open(self.url()) else {
            return false;
        };
        let Ok(mut conn) = client.get_connection_with_timeout(Duration::from_millis(500)) else {
            return false;
        };
        let pong: Result<String, _> = redis::cmd("PING").query(&mut conn);
        let info: Result<String, _> = redis::cmd("INFO").arg("server").query(&mut conn);
        let own = format!("process_id:{pid}");
        pong.is_ok_and(|p| p == "PONG")
            && info.is_ok_and(|info| info.lines().any(|line| line.trim() == own))
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query<T: redis::FromRedisValue>(url: &str, args: &[&str]) -> redis::RedisResult<T> {
        let mut conn = redis::Client::open(url)?.get_connection()?;
        let mut cmd = redis::cmd(args[0]);
        for a in &args[1..] {
            cmd.arg(*a);
        }
        cmd.query(&mut conn)
    }

    #[test]
    fn a_plain_server_serves_on_loopback_without_a_password() {
        let server = RedisServer::start();
        assert_eq!(server.url(), format!("redis://127.0.0.1:{}", server.port()));
        assert_eq!(server.addr(), format!("127.0.0.1:{}", server.port()));
        assert_eq!(server.password(), None);
        assert_eq!(server.tls_port(), None);
        let () = query(&server.url(), &["SET", "k", "v"]).unwrap();
        assert_eq!(query::<String>(&server.url(), &["GET", "k"]).unwrap(), "v");
    }

    #[test]
    fn a_password_is_required_and_carried_by_the_urls() {
        let server = RedisServer::builder().generated_password().start();
        let password = server.password().expect("a generated password").to_string();
        let other = RedisServer::builder().generated_password().start();
        assert_ne!(other.password(), Some(password.as_str()));
        assert_eq!(
            server.url_at("127.0.0.1"),
            format!("redis://:{password}@127.0.0.1:{}", server.port())
        );
        assert_eq!(query::<String>(&server.url(), &["PING"]).unwrap(), "PONG");
        let without = format!("redis://{}", server.addr());
        let refused = query::<String>(&without, &["PING"]).expect_err("no password");
        assert!(refused.to_string().contains("NOAUTH"), "{refused}");
    }

    #[test]
    fn a_restart_keeps_the_port_and_loses_the_data() {
        let mut server = RedisServer::builder().password("secret").start();
        let url = server.url();
        let () = query(&url, &["SET", "k", "v"]).unwrap();
        server.kill();
        assert!(
            query::<String>(&url, &["PING"]).is_err(),
            "killed, yet it answers"
        );
        server.restart();
        assert_eq!(server.url(), url);
        assert_eq!(query::<Option<String>>(&url, &["GET", "k"]).unwrap(), None);
    }

    #[test]
    fn extra_arguments_reach_the_server() {
        let server = RedisServer::builder()
            .args(&["--maxmemory-policy", "noeviction", "--databases", "3"])
            .start();
        let config: Vec<String> = query(&server.url(), &["CONFIG", "GET", "databases"]).unwrap();
        assert_eq!(config, ["databases", "3"]);
    }

    #[test]
    #[should_panic(expected = "Bad directive")]
    fn a_server_that_cannot_start_says_why() {
        RedisServer::builder()
            .args(&["--no-such-directive", "x"])
            .start();
    }
}
