//! [`BotHostConfig`]: everything bot-host can be told, in one typed struct, logged at start-up.

use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use arena_sandbox::{Limits, Policy, Sandbox};

use crate::BotHostError;

/// Where the bot port listens unless told otherwise (`arena bot-host --listen`).
pub const DEFAULT_LISTEN: SocketAddr =
    SocketAddr::V4(std::net::SocketAddrV4::new(Ipv4Addr::LOCALHOST, 50052));
/// Where the seat port listens unless told otherwise (`arena bot-host --seat-listen`).
pub const DEFAULT_SEAT_LISTEN: SocketAddr =
    SocketAddr::V4(std::net::SocketAddrV4::new(Ipv4Addr::LOCALHOST, 50055));
/// How long a disconnected remote bot keeps its tables unless told otherwise (`--grace-ms`).
pub const DEFAULT_GRACE: Duration = Duration::from_secs(10);
/// The keepalive ping interval unless told otherwise (`--keepalive-ms`).
pub const DEFAULT_KEEPALIVE: Duration = Duration::from_secs(5);

/// How bot-host runs. `BotHostConfig::default()` holds the defaults `arena bot-host` shows in
/// `--help` (loopback ports; a deployment listens on `0.0.0.0`); [`BotHostConfig::loopback`] is the same on an ephemeral loopback port (tests).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotHostConfig {
    /// Where the bot port listens: `BotGateway` (remote bots), health and reflection; the one
    /// port to expose to bots (port 0 picks a free port; see [`crate::BotHost::local_addr`]).
    pub listen: SocketAddr,
    /// Where the seat port listens: `SeatHost` (referees, with the cluster token) and health;
    /// internal to the cluster (see [`crate::BotHost::seat_addr`]).
    pub seat_listen: SocketAddr,
    /// The cluster credential referees present on the seat port. Required: without it nobody
    /// could open a seat.
    pub cluster_token: Option<arena_auth::Secret>,
    /// The address referees should use to reach this instance's seat port: written to the
    /// store as presence and sent in `SeatReady.host`. `None` advertises the bound seat address.
    pub advertise: Option<String>,
    /// How long a remote bot's tables are kept after its connection drops; a bot that resumes its
    /// session within it gets them back, after it their seats get `SeatFault{DISCONNECTED}`. Also
    /// how long a seat waits for a registered remote bot that is not connected.
    pub grace: Duration,
    /// How often connected remote bots are pinged, and how often a seat waiting for a slot of a
    /// busy remote bot sends the referee a `SeatWaiting`.
    pub keepalive: Duration,
    /// A remote bot not heard from (no pong, no reply) for this many keepalive intervals is
    /// treated as disconnected.
    pub missed_keepalives: u32,
    /// Lifetime of a presence record in the store; bot-host refreshes it every third of it.
    pub presence_ttl: Duration,
    /// Time a new stream has to send its first message (`Hello` or `SeatOpen`).
    pub first_message_timeout: Duration,
    /// Per-decision limits used where a seat's `TimeControl` leaves a field at 0.
    pub decisions: DecisionLimits,
    /// Limits of bot programs run as child processes.
    pub processes: ProcessLimits,
    /// The largest gRPC message accepted or sent, in bytes; larger ones fail with tonic's
    /// `OUT_OF_RANGE`.
    pub max_message_bytes: usize,
    /// On shutdown: how long tables in flight are given to finish before their seats get a
    /// `SeatFault{DISCONNECTED}`.
    pub shutdown_grace: Duration,
    /// The largest message a remote bot may send, in bytes: a bot sends replies and pongs, a
    /// few hundred bytes; anything near this is refused by the gateway before it is decoded.
    pub max_bot_message_bytes: usize,
    /// Messages waiting for a remote bot that is not reading them; a bot that lets this many pile
    /// up is cut off (its session then waits the grace period like any dropped connection).
    pub max_queued_to_bot: usize,
    /// Limits failed authentication attempts per peer on the bot port.
    pub auth_failures: AuthFailureLimit,
    /// TLS on the bot port: its certificate and key, and (for mutual TLS) the CA every bot's
    /// client certificate must come from. The files are read and checked when bot-host binds;
    /// a file that cannot be used stops it with an error naming the file and its flag. `None`
    /// serves plain HTTP/2 (behind a TLS-terminating proxy, or on a trusted network). The seat
    /// port is internal and stays plain.
    pub bot_tls: Option<arena_tls::ServerTlsFiles>,
    /// Both ports' gRPC timeout, concurrency limit and connection age (the streams of bots and
    /// seats are neither timed out nor counted once open).
    pub serve: arena_serve::ServeConfig,
}

/// How many failed authentication attempts a peer may make: `burst` at once, then one per
/// `refill`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AuthFailureLimit {
    /// Failures allowed at once.
    pub burst: u32,
    /// Time for one more.
    pub refill: Duration,
}

impl Default for AuthFailureLimit {
    fn default() -> Self {
        AuthFailureLimit {
            burst: 10,
            refill: Duration::from_secs(6),
        }
    }
}

/// Per-decision time limits. The referee enforces deadlines and judges timeouts; bot-host uses
/// these to tell programs their deadline and to stop waiting for a silent program.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DecisionLimits {
    /// Time for one decision, when neither the request nor the seat's time control gives one
    /// (the protocol's default, 1000 ms).
    pub decision: Duration,
    /// Time after which the referee gives a timeout verdict, when the seat's time control does
    /// not say (the protocol's default, 5000 ms).
    pub hard_cap: Duration,
    /// How long past the hard cap bot-host still waits for a silent program before it kills it
    /// and reports `SeatFault{TIMEOUT}`.
    pub silence_margin: Duration,
}

impl Default for DecisionLimits {
    fn default() -> Self {
        DecisionLimits {
            decision: Duration::from_millis(1000),
            hard_cap: Duration::from_millis(5000),
            silence_margin: Duration::from_millis(1000),
        }
    }
}

/// Limits of bot programs (registered `Program` bots), one sandboxed child process per table
/// seat (see `docs/sandbox.md`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessLimits {
    /// The host-wide resource limits of every process (default [`Limits::HOST_DEFAULT`]); a
    /// bot's record can only lower them ([`Limits::capped_by`]).
    pub limits: Limits,
    /// How programs are isolated: on or off, extra readable paths, their `PATH`.
    pub sandbox: Policy,
    /// Most bot processes running at once on this host (0 = no limit); seats beyond it wait.
    pub max_processes: usize,
    /// Time a new process has to write its `join` line.
    pub startup_timeout: Duration,
    /// Time a process has to exit after `bye` before its process group is killed.
    pub exit_grace: Duration,
    /// The environment variables a program inherits from bot-host; nothing else of bot-host's
    /// environment (which may hold store credentials) reaches it. `PATH` is the sandbox's
    /// ([`Policy::path`]), `HOME` and `TMPDIR` are set to its working directory.
    pub pass_env: Vec<String>,
}

/// The variables programs inherit by default (the same for `cmd:` bots: one list, in
/// arena-line).
pub use arena_line::DEFAULT_PASS_ENV;

impl Default for ProcessLimits {
    fn default() -> Self {
        ProcessLimits {
            limits: Limits::HOST_DEFAULT,
            sandbox: Policy::default(),
            max_processes: 0,
            startup_timeout: Duration::from_secs(5),
            exit_grace: Duration::from_secs(1),
            pass_env: DEFAULT_PASS_ENV.iter().map(|v| v.to_string()).collect(),
        }
    }
}

impl Default for BotHostConfig {
    fn default() -> Self {
        BotHostConfig {
            listen: DEFAULT_LISTEN,
            seat_listen: DEFAULT_SEAT_LISTEN,
            cluster_token: None,
            advertise: None,
            grace: DEFAULT_GRACE,
            keepalive: DEFAULT_KEEPALIVE,
            missed_keepalives: 3,
            // Short, so a bot whose bot-host died is back in (on another host) within seconds.
            presence_ttl: Duration::from_secs(6),
            first_message_timeout: Duration::from_secs(10),
            decisions: DecisionLimits::default(),
            processes: ProcessLimits::default(),
            max_message_bytes: 4 * 1024 * 1024,
            shutdown_grace: Duration::from_secs(30),
            max_bot_message_bytes: 64 * 1024,
            max_queued_to_bot: 1024,
            auth_failures: AuthFailureLimit::default(),
            bot_tls: None,
            serve: arena_serve::ServeConfig::default(),
        }
    }
}

/// The longest duration sent on the wire as milliseconds in a `u32` (about 49 days).
const MAX_WIRE_MS: u128 = u32::MAX as u128;

impl BotHostConfig {
    /// The defaults, both ports on ephemeral ports of 127.0.0.1, with a fresh random cluster
    /// token (read it back from [`BotHostConfig::cluster_token`]).
    pub fn loopback() -> Self {
        BotHostConfig {
            listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            seat_listen: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            cluster_token: arena_auth::token::random_text(32)
                .ok()
                .map(arena_auth::Secret::new),
            ..BotHostConfig::default()
        }
    }

    /// Checks that the values make sense together; the error names the field.
    pub fn validate(&self) -> Result<(), BotHostError> {
        let bad = |setting: &'static str, why: &str| {
            Err(BotHostError::Config {
                setting,
                message: why.to_string(),
            })
        };
        if self.keepalive.is_zero() {
            return bad("keepalive", "must be longer than zero");
        }
        if self.missed_keepalives == 0 {
            return bad("missed_keepalives", "must be at least 1");
        }
        if self.presence_ttl < Duration::from_millis(3) {
            return bad(
                "presence_ttl",
                "must be at least 3 ms (it is refreshed every third of it)",
            );
        }
        if self.presence_ttl > arena_store::MAX_PRESENCE_TTL {
            return bad(
                "presence_ttl",
                "must be at most 24 hours (the store's limit)",
            );
        }
        if self.first_message_timeout.is_zero() {
            return bad("first_message_timeout", "must be longer than zero");
        }
        if self.max_message_bytes < 1024 {
            return bad("max_message_bytes", "must be at least 1024");
        }
        if self.max_bot_message_bytes < 1024 {
            return bad("max_bot_message_bytes", "must be at least 1024");
        }
        if self.max_queued_to_bot < 16 {
            return bad("max_queued_to_bot", "must be at least 16");
        }
        if self.cluster_token.is_none() {
            return bad(
                "cluster_token",
                "is required: referees present it to open seats (give bot-host and every referee \
                 the same --cluster-token-file)",
            );
        }
        if self.listen.port() != 0 && self.listen == self.seat_listen {
            return bad(
                "seat_listen",
                "must differ from listen: the seat port is internal, the bot port is for bots",
            );
        }
        if self.grace.as_millis() > MAX_WIRE_MS {
            return bad(
                "grace",
                "must be under 2^32 ms (it is sent to bots in milliseconds)",
            );
        }
        if self.keepalive.as_millis() > MAX_WIRE_MS {
            return bad(
                "keepalive",
                "must be under 2^32 ms (it is sent to bots in milliseconds)",
            );
        }
        if self.decisions.decision.is_zero() || self.decisions.decision.as_millis() > MAX_WIRE_MS {
            return bad("decisions.decision", "must be between 1 ms and 2^32 ms");
        }
        if self.decisions.hard_cap.is_zero() || self.decisions.hard_cap.as_millis() > MAX_WIRE_MS {
            return bad("decisions.hard_cap", "must be between 1 ms and 2^32 ms");
        }
        if self.processes.startup_timeout.is_zero() {
            return bad("processes.startup_timeout", "must be longer than zero");
        }
        let sandbox = &self.processes.sandbox;
        if sandbox.path.trim().is_empty() || sandbox.path.contains('\0') {
            return bad(
                "processes.sandbox.path",
                "must be a non-empty list of directories",
            );
        }
        if let Some(p) = sandbox.extra_read.iter().find(|p| !p.is_absolute()) {
            return bad(
                "processes.sandbox.extra_read",
                &format!("must hold absolute paths, not {}", p.display()),
            );
        }
        if let Some(a) = &self.advertise
            && (a.trim().is_empty() || a.chars().any(char::is_control))
        {
            return bad(
                "advertise",
                "must be a non-empty address without control characters",
            );
        }
        Ok(())
    }

    /// How long a remote bot may stay silent before it is treated as disconnected.
    pub(crate) fn silence_limit(&self) -> Duration {
        self.keepalive.saturating_mul(self.missed_keepalives)
    }

    /// How often presence is refreshed.
    pub(crate) fn presence_refresh(&self) -> Duration {
        self.presence_ttl / 3
    }

    /// The sandbox programs run in, with the layers this kernel grants.
    pub fn sandbox(&self) -> Sandbox {
        Sandbox::new(self.processes.sandbox.clone())
    }
}

impl BotHostConfig {
    /// The settings, a line each, with the limits and sandbox layers programs get. Every field
    /// is taken apart by name (no `..`), so a setting added to the type and not listed here is
    /// an unused variable: the lines cannot fall behind the configuration.
    pub fn lines(&self) -> arena_serve::ConfigLines {
        let BotHostConfig {
            listen,
            seat_listen,
            cluster_token,
            advertise,
            grace,
            keepalive,
            missed_keepalives,
            presence_ttl,
            first_message_timeout,
            decisions:
                DecisionLimits {
                    decision,
                    hard_cap,
                    silence_margin,
                },
            processes:
                ProcessLimits {
                    limits,
                    sandbox: _policy_shown_as_granted_by_sandbox,
                    max_processes,
                    startup_timeout,
                    exit_grace,
                    pass_env,
                },
            max_message_bytes,
            shutdown_grace,
            max_bot_message_bytes,
            max_queued_to_bot,
            auth_failures: AuthFailureLimit { burst, refill },
            bot_tls,
            serve,
        } = self;
        let mut out = arena_serve::ConfigLines::default();
        out.push(
            "bot port",
            format!(
                "{listen} ({})",
                match bot_tls {
                    None => "plain, no TLS".to_string(),
                    Some(tls) => format!(
                        "TLS {}{}",
                        tls.identity.cert.path.display(),
                        match &tls.client_ca {
                            Some(ca) => format!(", client certificates from {}", ca.path.display()),
                            None => String::new(),
                        }
                    ),
                }
            ),
        )
        .push(
            "seat port",
            format!(
                "{seat_listen} (referees, cluster token {})",
                if cluster_token.is_some() {
                    "set"
                } else {
                    "MISSING"
                }
            ),
        )
        .push(
            "advertise",
            advertise.as_deref().unwrap_or("(the bound address)"),
        )
        .push("reconnect grace", format!("{grace:?}"))
        .push(
            "keepalive",
            format!("{keepalive:?}, cut off after {missed_keepalives} missed"),
        )
        .push("presence ttl", format!("{presence_ttl:?}"))
        .push("first message within", format!("{first_message_timeout:?}"))
        .push(
            "decisions",
            format!(
                "{decision:?}, hard cap {hard_cap:?} (+{silence_margin:?} for silent programs)"
            ),
        )
        .push("program limits", limits)
        .push("program sandbox", self.sandbox())
        .push(
            "program processes",
            format!(
                "{}, start-up {startup_timeout:?}, exit grace {exit_grace:?}, env {}",
                match max_processes {
                    0 => "as many as tables need".to_string(),
                    n => format!("at most {n} at once"),
                },
                pass_env.join(",")
            ),
        )
        .push(
            "messages",
            format!(
                "at most {max_message_bytes} bytes ({max_bot_message_bytes} from bots), \
                 {max_queued_to_bot} queued to a bot"
            ),
        )
        .push(
            "failed authentications",
            format!("{burst} at once, one more every {refill:?}"),
        )
        .push("shutdown grace", format!("{shutdown_grace:?}"))
        .extend(serve.lines());
        out
    }
}

impl fmt::Display for BotHostConfig {
    /// The settings of [`BotHostConfig::lines`] on one line, for logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines = self.lines();
        for (i, (name, value)) in lines.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{name} {value}")?;
        }
        Ok(())
    }
}

/// Milliseconds of a duration validated to fit (saturating otherwise).
pub(crate) fn wire_ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_values_name_their_field() {
        let e = BotHostConfig::default().validate().unwrap_err();
        assert!(e.to_string().contains("cluster_token"), "{e}");
        BotHostConfig::loopback().validate().unwrap();
        let e = BotHostConfig {
            keepalive: Duration::ZERO,
            ..BotHostConfig::loopback()
        }
        .validate()
        .unwrap_err();
        assert!(e.to_string().contains("keepalive"), "{e}");
        let e = BotHostConfig {
            grace: Duration::from_secs(u64::MAX / 2),
            ..BotHostConfig::loopback()
        }
        .validate()
        .unwrap_err();
        assert!(e.to_string().contains("grace"), "{e}");
        let e = BotHostConfig {
            advertise: Some(" ".into()),
            ..BotHostConfig::loopback()
        }
        .validate()
        .unwrap_err();
        assert!(e.to_string().contains("advertise"), "{e}");
        let mut relative = BotHostConfig::loopback();
        relative.processes.sandbox.extra_read = vec!["models".into()];
        let e = relative.validate().unwrap_err();
        assert!(
            e.to_string()
                .contains("processes.sandbox.extra_read must hold absolute paths, not models"),
            "{e}"
        );
    }

    #[test]
    fn the_start_up_lines_show_every_limit() {
        let lines = BotHostConfig::default().lines();
        let value = |name: &str| {
            lines
                .0
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("no {name} in {lines:?}"))
        };
        assert_eq!(value("bot port"), "127.0.0.1:50052 (plain, no TLS)");
        assert_eq!(
            value("seat port"),
            "127.0.0.1:50055 (referees, cluster token MISSING)"
        );
        assert_eq!(value("reconnect grace"), "10s");
        assert_eq!(value("keepalive"), "5s, cut off after 3 missed");
        assert!(value("first message within").ends_with('s'));
        assert_eq!(
            value("failed authentications"),
            "10 at once, one more every 6s"
        );
        assert_eq!(
            value("program limits"),
            "CPU time 60 s, memory 1024 MiB, processes 64, open files 256, file size 64 MiB, wall time 900 s"
        );
        let sandbox = value("program sandbox");
        assert!(
            sandbox.starts_with("sandbox ")
                && sandbox.contains("PATH /usr/local/bin:/usr/bin:/bin"),
            "{sandbox}"
        );
        assert!(value("messages").starts_with("at most 4194304 bytes"));
        assert_eq!(value("request timeout"), "60000 ms");
        assert_eq!(value("max concurrent requests"), "1024");
        assert!(value("max connection age").starts_with("off"));
        // The one-line form, for logs, holds the same settings.
        let line = BotHostConfig::default().to_string();
        assert!(line.contains("; program limits CPU time 60 s"), "{line}");
    }
}
