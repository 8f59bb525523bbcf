//! The referee's configuration: one typed struct, checked before anything starts.

use std::net::SocketAddr;
use std::time::Duration;

use arena_table::BotHosts;

/// Where a referee listens unless told otherwise (`arena table-referee --listen`).
pub const DEFAULT_LISTEN: SocketAddr = SocketAddr::V4(std::net::SocketAddrV4::new(
    std::net::Ipv4Addr::LOCALHOST,
    50051,
));

/// Everything a referee needs to know. Build it from the command line (the `arena table-referee`
/// command) or start from [`RefereeConfig::default`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefereeConfig {
    /// This referee's name on the job queue (its consumer name) and in the results it writes.
    /// Two live referees must not share one.
    pub referee_id: String,
    /// Where the `TableReferee`, health and reflection services listen.
    pub listen: SocketAddr,
    /// bot-host addresses (`http://host:port` or `host:port`) for seats that are not built-in
    /// bots, used when the store has no presence record for the bot. A seat's host is picked by
    /// a hash of its table id and seat.
    pub bot_hosts: Vec<String>,
    /// The job lane this referee takes tables from ([`arena_store::Store::lane`]; empty: the
    /// default lane). Tables submitted through it go to their own job's lane.
    pub lane: String,
    /// Most tables played at once; the referee takes no job while this many are playing (a
    /// played table waiting for its store write no longer counts).
    pub max_tables: usize,
    /// Tables whose decision time (`TimeControl.decision_ms`) is at least this play on
    /// background threads of their own at the lowest CPU priority (`SCHED_IDLE`), so that on a
    /// busy machine tables of shorter time controls do not wait behind them: a slow bot's
    /// table has seconds to spare where a fast one has none. `None`: every table on the
    /// referee's runtime. On bot-host's `Seats` stream (which every bot-host of this
    /// version serves) a seat's time is counted up to its answer's arrival on the referee's
    /// connection, so a background table waiting for its turn at the CPU once the answer has
    /// come does not charge its bot for the wait; and a hard cap noticed long after it passed
    /// asks the seat again rather than giving a verdict.
    pub background_from: Option<Duration>,
    /// The CPUs the background tables' threads keep to (empty: any). Idle priority keeps them
    /// from taking the CPU from the other tables but not from slowing them down on a shared
    /// core (the kernel's work on their behalf, their caches): on cores of their own the other
    /// tables' latency is what it is without them (docs/scaling.md). Needs `background_from`.
    pub background_cpus: Vec<usize>,
    /// A job whose referee has neither acknowledged nor touched it for this long is taken over
    /// by another referee.
    pub reclaim_after: Duration,
    /// How often a table in flight tells the queue it is still being worked on (below
    /// `reclaim_after`; a third of it or less leaves room for a slow store).
    pub touch_interval: Duration,
    /// On shutdown, how long tables in flight may take to finish; the rest are handed back (not
    /// acknowledged) and rerun from their seed by another referee.
    pub shutdown_grace: Duration,
    /// How long one wait for a job on the queue lasts.
    pub poll_interval: Duration,
    /// How long a remote seat may wait for bot-host's `SeatReady`, counted again from each
    /// `SeatWaiting` (which bot-host sends every keepalive interval while the seat waits its
    /// turn for a bot at capacity, or for the bot to connect); past it the seat is
    /// disconnected. Keep it above bot-host's keepalive. The job is kept alive meanwhile.
    pub seat_open_timeout: Duration,
    /// The cluster token presented to bot-host's seat port.
    pub cluster_token: Option<arena_auth::Secret>,
    /// The bootstrap operator token the `TableReferee` service accepts besides the operator
    /// tokens in the store.
    pub operator_token: Option<arena_auth::Secret>,
    /// When bot-host fails under a remote seat, how long the table keeps trying to open it
    /// again (on that or another bot-host) before handing the table back to the queue.
    pub reconnect_grace: Duration,
    /// How many times a table the platform interrupted is played again before it gets an error
    /// result saying so (never a verdict against a bot).
    pub max_platform_attempts: u32,
    /// The gRPC server's timeout, concurrency limit and connection age.
    pub serve: arena_serve::ServeConfig,
}

impl Default for RefereeConfig {
    fn default() -> Self {
        RefereeConfig {
            referee_id: "referee-1".into(),
            listen: DEFAULT_LISTEN,
            bot_hosts: Vec::new(),
            lane: String::new(),
            max_tables: 64,
            background_from: None,
            background_cpus: Vec::new(),
            reclaim_after: Duration::from_secs(60),
            touch_interval: Duration::from_secs(15),
            shutdown_grace: Duration::from_secs(30),
            poll_interval: Duration::from_secs(1),
            seat_open_timeout: Duration::from_secs(30),
            cluster_token: None,
            operator_token: None,
            reconnect_grace: Duration::from_secs(15),
            max_platform_attempts: 5,
            serve: arena_serve::ServeConfig::default(),
        }
    }
}

/// A configuration that cannot work: which setting, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("referee configuration: {setting}: {message}")]
pub struct ConfigError {
    /// The setting, e.g. `touch_interval`.
    pub setting: &'static str,
    /// What is wrong with it.
    pub message: String,
}

impl RefereeConfig {
    /// The lane's name in metrics and the start-up lines: `default` for the default lane
    /// ([`arena_store::check_lane`] refuses that name for any other).
    pub fn lane_name(&self) -> &str {
        if self.lane.is_empty() {
            "default"
        } else {
            &self.lane
        }
    }

    /// The settings, a line each, as `arena table-referee` prints them at start (the tokens
    /// only as whether they are set).
    pub fn lines(&self) -> arena_serve::ConfigLines {
        let RefereeConfig {
            referee_id,
            listen,
            bot_hosts,
            lane: _,
            max_tables,
            background_from,
            background_cpus,
            reclaim_after,
            touch_interval,
            shutdown_grace,
            poll_interval,
            seat_open_timeout,
            cluster_token,
            operator_token,
            reconnect_grace,
            max_platform_attempts,
            serve,
        } = self;
        let mut out = arena_serve::ConfigLines::default();
        out.push("referee id", referee_id)
            .push("listen", listen)
            .push(
                "bot-hosts",
                if bot_hosts.is_empty() {
                    "from presence only".to_string()
                } else {
                    bot_hosts.join(", ")
                },
            )
            .push("lane", self.lane_name())
            .push("max tables", max_tables)
            .push(
                "background tables",
                match (background_from, background_cpus.is_empty()) {
                    (Some(d), true) => {
                        format!(
                            "decision time {} ms or more, at idle priority",
                            d.as_millis()
                        )
                    }
                    (Some(d), false) => format!(
                        "decision time {} ms or more, at idle priority on CPUs {}",
                        d.as_millis(),
                        crate::CpuList(background_cpus.clone())
                    ),
                    (None, _) => "none".to_string(),
                },
            )
            .push("reclaim after", format!("{reclaim_after:?}"))
            .push("touch every", format!("{touch_interval:?}"))
            .push("shutdown grace", format!("{shutdown_grace:?}"))
            .push("poll every", format!("{poll_interval:?}"))
            .push("seat open timeout", format!("{seat_open_timeout:?}"))
            .push(
                "cluster token",
                if cluster_token.is_some() {
                    "set"
                } else {
                    "MISSING"
                },
            )
            .push(
                "operator token",
                if operator_token.is_some() {
                    "bootstrap token set"
                } else {
                    "store tokens only"
                },
            )
            .push("reconnect grace", format!("{reconnect_grace:?}"))
            .push("platform attempts", max_platform_attempts)
            .extend(serve.lines());
        out
    }

    /// Checks every setting.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let err = |setting, message: String| Err(ConfigError { setting, message });
        if self.referee_id.trim().is_empty() {
            return err("referee_id", "is empty".into());
        }
        if self.referee_id.chars().any(char::is_control) {
            return err(
                "referee_id",
                format!("{:?} contains a control character", self.referee_id),
            );
        }
        if let Err(arena_store::StoreError::Invalid(why)) = arena_store::check_lane(&self.lane) {
            return err("lane", why);
        }
        if self.max_tables == 0 {
            return err("max_tables", "must be at least 1".into());
        }
        if self.background_from == Some(Duration::ZERO) {
            return err(
                "background_from",
                "must be above 0 ms (unset: no background tables)".into(),
            );
        }
        if !self.background_cpus.is_empty() && self.background_from.is_none() {
            return err(
                "background_cpus",
                "needs background_from: only background tables' threads keep to CPUs".into(),
            );
        }
        if let Some(cpu) = self.background_cpus.iter().find(|&&c| c >= crate::MAX_CPUS) {
            return err(
                "background_cpus",
                format!("CPU {cpu} is not below {}", crate::MAX_CPUS),
            );
        }
        if self.reclaim_after.is_zero() {
            return err("reclaim_after", "must be positive".into());
        }
        if self.touch_interval.is_zero() || self.touch_interval >= self.reclaim_after {
            return err(
                "touch_interval",
                format!(
                    "must be positive and below reclaim_after ({:?}), got {:?}: tables in flight would be taken over",
                    self.reclaim_after, self.touch_interval
                ),
            );
        }
        if self.poll_interval.is_zero() {
            return err("poll_interval", "must be positive".into());
        }
        if self.seat_open_timeout.is_zero() {
            return err("seat_open_timeout", "must be positive".into());
        }
        BotHosts::new(&self.bot_hosts).map_err(|e| ConfigError {
            setting: "bot_hosts",
            message: e.to_string(),
        })?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_valid_and_bad_settings_are_named() {
        RefereeConfig::default().validate().unwrap();
        assert_eq!(RefereeConfig::default().lane_name(), "default");
        let bad = |f: &dyn Fn(&mut RefereeConfig)| {
            let mut c = RefereeConfig::default();
            f(&mut c);
            c.validate().unwrap_err().setting
        };
        assert_eq!(bad(&|c| c.referee_id = " ".into()), "referee_id");
        assert_eq!(bad(&|c| c.max_tables = 0), "max_tables");
        assert_eq!(
            bad(&|c| c.background_from = Some(Duration::ZERO)),
            "background_from"
        );
        assert_eq!(bad(&|c| c.background_cpus = vec![1]), "background_cpus");
        assert_eq!(
            bad(&|c| {
                c.background_from = Some(Duration::from_secs(5));
                c.background_cpus = vec![crate::MAX_CPUS];
            }),
            "background_cpus"
        );
        assert_eq!(bad(&|c| c.lane = "jobs:x".into()), "lane");
        assert_eq!(bad(&|c| c.reclaim_after = Duration::ZERO), "reclaim_after");
        assert_eq!(
            bad(&|c| c.touch_interval = c.reclaim_after),
            "touch_interval"
        );
        assert_eq!(bad(&|c| c.poll_interval = Duration::ZERO), "poll_interval");
        assert_eq!(
            bad(&|c| c.bot_hosts = vec!["http://exa mple:1".into()]),
            "bot_hosts"
        );
    }
}
