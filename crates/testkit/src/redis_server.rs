//! A `redis-server` of the caller's own: a private Redis on a free loopback port, without
//! persistence, killed when dropped. For benchmarks that count Redis commands (a shared Redis
//! would count everyone's) and tests that restart or break their Redis.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running private `redis-server`.
pub struct RedisServer {
    port: u16,
    child: Child,
    _dir: tempfile::TempDir,
}

impl RedisServer {
    /// Starts `redis-server` (from `PATH`) on a free loopback port with no persistence, and
    /// waits until it answers `PING`. Panics, saying why, if it cannot.
    pub fn start() -> RedisServer {
        for _ in 0..10 {
            let port = TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free loopback port")
                .port();
            let dir = tempfile::tempdir().expect("a temporary directory");
            let mut child = Command::new("redis-server")
                .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "no"])
                .arg("--dir")
                .arg(dir.path())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("redis-server is on PATH");
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    // Exited: most likely the port was taken meanwhile; another one.
                    break;
                }
                if pong(port) {
                    return RedisServer {
                        port,
                        child,
                        _dir: dir,
                    };
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("redis-server did not come up on a free port");
    }

    /// `redis://127.0.0.1:{port}`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }
}

/// True if a Redis on `port` answers `PING` with `PONG`.
fn pong(port: u16) -> bool {
    let Ok(mut conn) = TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    let _ = conn.set_read_timeout(Some(Duration::from_secs(1)));
    let mut reply = [0u8; 7];
    conn.write_all(b"PING\r\n").is_ok()
        && conn.read_exact(&mut reply).is_ok()
        && &reply == b"+PONG\r\n"
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
