//! One bounded HTTP/1 listener for the roles' HTTP ports (the web console, the metrics
//! endpoint): axum's own `serve` keeps every connection for as long as the peer likes, so a
//! thousand idle sockets used up the process's open files and starved its gRPC ports.
//!
//! [`serve`] bounds them:
//! - at most [`HttpLimits::max_connections`] at once. A connection beyond it closes the one that
//!   has been idle longest (no request in flight: idle keep-alive, or headers never finished),
//!   so a flood of idle sockets cannot keep a real client out; when every connection has a
//!   request in flight, the newcomer is closed instead. Either way the first time in a while is
//!   logged;
//! - a request's headers must arrive within [`HttpLimits::header_read_timeout`] of the
//!   connection opening or of its previous answer (hyper's timer: it closes idle keep-alive
//!   connections and half-sent headers alike);
//! - a connection with no request in flight for [`HttpLimits::idle_timeout`] is closed, by the
//!   listener's own timer, whatever the protocol's timers do;
//! - a listener beyond loopback is logged as a warning when it starts: such a port is open to
//!   whoever can reach the host.
//!
//! [`raise_open_files_limit`] lifts the process's soft limit of open files to its hard limit,
//! so the gRPC ports have room next to the bounded HTTP ones.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};

/// The bounds of one HTTP listener; [`HttpLimits::default`] holds the defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HttpLimits {
    /// Most connections open at once (at least 1).
    pub max_connections: usize,
    /// A request's headers must have arrived within this long of the connection opening or of
    /// its previous answer.
    pub header_read_timeout: Duration,
    /// A connection with no request in flight for this long is closed.
    pub idle_timeout: Duration,
}

/// The default of [`HttpLimits::max_connections`].
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;
/// The default of [`HttpLimits::header_read_timeout`].
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The default of [`HttpLimits::idle_timeout`].
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(60);

impl Default for HttpLimits {
    fn default() -> Self {
        HttpLimits {
            max_connections: DEFAULT_MAX_CONNECTIONS,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
        }
    }
}

/// How often, at most, reaching the cap is logged.
const CAP_LOG_EVERY: Duration = Duration::from_secs(60);

/// One open connection, as the listener sees it.
struct Slot {
    /// Requests whose response has not been sent to its end yet (a stream counts until it ends).
    in_flight: AtomicUsize,
    /// Milliseconds since the listener's start when the connection last became idle.
    idle_since_ms: AtomicU64,
    /// Wakes the connection's task to close it (the cap chose it).
    evict: Notify,
}

/// The listener's shared state.
struct Conns {
    name: &'static str,
    limits: HttpLimits,
    started: Instant,
    open: Mutex<HashMap<u64, Arc<Slot>>>,
    cap_logged: Mutex<Option<Instant>>,
}

impl Conns {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Makes room for one more connection: `false` when every open one has a request in flight.
    fn admit(&self) -> bool {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.len() < self.limits.max_connections.max(1) {
            return true;
        }
        let idlest = open
            .iter()
            .filter(|(_, s)| s.in_flight.load(Ordering::Acquire) == 0)
            // Idle longest, and of those idle as long the oldest (ids grow with time).
            .min_by_key(|(id, s)| (s.idle_since_ms.load(Ordering::Acquire), **id))
            .map(|(id, _)| *id);
        let room = match idlest.and_then(|id| open.remove(&id)) {
            Some(slot) => {
                slot.evict.notify_one();
                true
            }
            None => false,
        };
        drop(open);
        self.log_cap(room);
        room
    }

    fn log_cap(&self, room: bool) {
        let mut last = self.cap_logged.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|t| t.elapsed() < CAP_LOG_EVERY) {
            return;
        }
        *last = Some(Instant::now());
        tracing::warn!(
            listener = self.name,
            max_connections = self.limits.max_connections,
            "{} reached its cap of {} connections: {} (logged at most once a minute)",
            self.name,
            self.limits.max_connections,
            if room {
                "closing the connection idle longest for a new one"
            } else {
                "every connection has a request in flight, refusing new ones"
            }
        );
    }
}

/// Counts one request in flight on a connection until it is dropped: with the response's
/// body, so a stream keeps its connection busy until it ends.
struct Busy {
    slot: Arc<Slot>,
    conns: Arc<Conns>,
}

impl Busy {
    fn new(slot: Arc<Slot>, conns: Arc<Conns>) -> Busy {
        slot.in_flight.fetch_add(1, Ordering::AcqRel);
        Busy { slot, conns }
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.slot
            .idle_since_ms
            .store(self.conns.now_ms(), Ordering::Release);
        self.slot.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A response body that holds its request's [`Busy`] until it is dropped.
struct BusyBody {
    inner: axum::body::Body,
    _busy: Busy,
}

impl http_body::Body for BusyBody {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Serves `app` on `listener` within `limits` until `shutdown` completes; `name` names the
/// listener in logs ("console", "metrics endpoint"). Requests carry the peer's address as
/// axum's `ConnectInfo<SocketAddr>`. At shutdown idle connections are closed and requests in
/// flight finish.
pub async fn serve(
    name: &'static str,
    listener: TcpListener,
    app: axum::Router,
    limits: HttpLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let local = listener.local_addr()?;
    if !local.ip().is_loopback() {
        tracing::warn!(
            listener = name,
            %local,
            "{name} listens on {local}, beyond loopback: whoever reaches this host may connect \
             (docs/security.md)"
        );
    }
    let conns = Arc::new(Conns {
        name,
        limits,
        started: Instant::now(),
        open: Mutex::new(HashMap::new()),
        cap_logged: Mutex::new(None),
    });
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut tasks = tokio::task::JoinSet::new();
    let mut next_id = 0u64;
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of open files, mostly: wait for some to close rather than spin.
                    tracing::warn!(listener = name, error = %e, "{name} cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        // Reap finished connection tasks so the set stays as small as the open connections.
        while tasks.try_join_next().is_some() {}
        if !conns.admit() {
            drop(stream);
            continue;
        }
        let _ = stream.set_nodelay(true);
        next_id += 1;
        let slot = Arc::new(Slot {
            in_flight: AtomicUsize::new(0),
            idle_since_ms: AtomicU64::new(conns.now_ms()),
            evict: Notify::new(),
        });
        conns
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(next_id, slot.clone());
        tasks.spawn(connection(
            next_id,
            stream,
            peer,
            app.clone(),
            slot,
            conns.clone(),
            stop_rx.clone(),
        ));
    }
    drop(listener);
    let _ = stop_tx.send(true);
    while tasks.join_next().await.is_some() {}
    Ok(())
}

/// Serves one connection until it ends, is evicted, idles too long, or the listener stops.
async fn connection(
    id: u64,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    app: axum::Router,
    slot: Arc<Slot>,
    conns: Arc<Conns>,
    mut stop: watch::Receiver<bool>,
) {
    let service = {
        let slot = slot.clone();
        let conns = conns.clone();
        hyper::service::service_fn(move |mut req: http::Request<hyper::body::Incoming>| {
            req.extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            let busy = Busy::new(slot.clone(), conns.clone());
            let call = tower::ServiceExt::oneshot(app.clone(), req);
            async move {
                let response = match call.await {
                    Ok(r) => r,
                    Err(never) => match never {},
                };
                Ok::<_, Infallible>(response.map(|inner| BusyBody { inner, _busy: busy }))
            }
        })
    };
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(conns.limits.header_read_timeout)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(conn);
    let idle = conns.limits.idle_timeout;
    let mut stopping = false;
    loop {
        let since = slot.idle_since_ms.load(Ordering::Acquire);
        let busy = slot.in_flight.load(Ordering::Acquire) > 0;
        let idle_for = Duration::from_millis(conns.now_ms().saturating_sub(since));
        if !busy && (stopping || idle_for >= idle) {
            break;
        }
        // Busy: look again an idle timeout later; idle: when the timeout would run out.
        let wake = if busy { idle } else { idle - idle_for };
        tokio::select! {
            _ = conn.as_mut() => break,
            () = slot.evict.notified() => break,
            changed = stop.changed(), if !stopping => {
                stopping = true;
                if changed.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
            () = tokio::time::sleep(wake) => {}
        }
    }
    conns
        .open
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&id);
}

/// Raises this process's soft limit of open files to its hard limit, and says what it is now
/// (soft, hard). Sockets are files: the default soft limit of 1024 is little for a server.
#[cfg(unix)]
pub fn raise_open_files_limit() -> std::io::Result<(u64, u64)> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            lim = raised;
        }
    }
    Ok((lim.rlim_cur, lim.rlim_max))
}

/// See the Unix version: elsewhere there is nothing to raise.
#[cfg(not(unix))]
pub fn raise_open_files_limit() -> std::io::Result<(u64, u64)> {
    Ok((0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    async fn started(limits: HttpLimits) -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = axum::Router::new().route("/", axum::routing::get(|| async { "ok" }));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(serve("test", listener, app, limits, async {
            let _ = rx.await;
        }));
        (addr, tx)
    }

    async fn get(addr: SocketAddr) -> String {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(b"GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).await.unwrap();
        out
    }

    /// Reads until the server closes the socket; `None` if it is still open after `within`.
    async fn closed_within(s: &mut tokio::net::TcpStream, within: Duration) -> bool {
        let mut buf = [0u8; 64];
        matches!(
            tokio::time::timeout(within, s.read(&mut buf)).await,
            Ok(Ok(0) | Err(_))
        )
    }

    #[tokio::test]
    async fn idle_sockets_beyond_the_cap_close_the_idlest_and_a_request_still_gets_through() {
        let limits = HttpLimits {
            max_connections: 4,
            header_read_timeout: Duration::from_secs(300),
            idle_timeout: Duration::from_secs(300),
        };
        let (addr, _stop) = started(limits).await;
        let mut idle = Vec::new();
        for i in 0..8 {
            let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
            if i % 2 == 0 {
                // Headers begun and never finished.
                s.write_all(b"GET / HTTP/1.1\r\nhost:").await.unwrap();
            }
            idle.push(s);
        }
        assert!(get(addr).await.contains("200 OK"));
        // The oldest were closed to make room: the server holds at most its cap.
        assert!(closed_within(&mut idle[0], Duration::from_secs(30)).await);
        assert!(closed_within(&mut idle[3], Duration::from_secs(30)).await);
    }

    #[tokio::test]
    async fn a_connection_idle_past_the_timeout_is_closed() {
        let limits = HttpLimits {
            max_connections: 16,
            header_read_timeout: Duration::from_secs(300),
            idle_timeout: Duration::from_millis(200),
        };
        let (addr, _stop) = started(limits).await;
        let mut half = tokio::net::TcpStream::connect(addr).await.unwrap();
        half.write_all(b"GET / HTTP/1.1\r\nhost:").await.unwrap();
        assert!(closed_within(&mut half, Duration::from_secs(30)).await);
    }

    /// Log lines written while the test's subscriber is the default.
    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Lines {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn listening_beyond_loopback_and_reaching_the_cap_are_logged() {
        let lines = Lines::default();
        let writer = lines.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        let _default = tracing::subscriber::set_default(subscriber);
        // One thread: the server's tasks log through this thread's subscriber.
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let listener = TcpListener::bind("0.0.0.0:0").await.unwrap();
            let port = listener.local_addr().unwrap().port();
            let app = axum::Router::new().route("/", axum::routing::get(|| async { "ok" }));
            let limits = HttpLimits {
                max_connections: 2,
                ..HttpLimits::default()
            };
            let (tx, rx) = tokio::sync::oneshot::channel::<()>();
            let served = tokio::spawn(serve("console", listener, app, limits, async {
                let _ = rx.await;
            }));
            let addr = SocketAddr::from(([127, 0, 0, 1], port));
            let _idle: Vec<_> = [
                tokio::net::TcpStream::connect(addr).await.unwrap(),
                tokio::net::TcpStream::connect(addr).await.unwrap(),
            ]
            .into();
            assert!(get(addr).await.contains("200 OK"));
            let _ = tx.send(());
            served.await.unwrap().unwrap();
        });
        let text = String::from_utf8(lines.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("beyond loopback"), "{text}");
        assert!(text.contains("reached its cap of 2 connections"), "{text}");
    }

    #[test]
    fn the_open_files_limit_is_raised_to_the_hard_limit() {
        let (soft, hard) = raise_open_files_limit().unwrap();
        assert_eq!(soft, hard);
    }
}
