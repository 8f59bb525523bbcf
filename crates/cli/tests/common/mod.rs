//! What the CLI test binaries share. Each uses only part of it.
#![allow(dead_code)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `arena ARGS` to the end: (stdout, stderr, success).
pub fn arena(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .output()
        .expect("arena runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

/// `arena ARGS` as a client of the standalone whose data directory is `data_dir` (so it sends
/// that standalone's operator token), not started yet.
pub fn client_command(data_dir: &std::path::Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(args)
        .env("ARENA_DATA_DIR", data_dir)
        .env_remove("ARENA_OPERATOR_TOKEN");
    cmd
}

/// Runs [`client_command`] to the end: (stdout, stderr, success).
pub fn arena_client(data_dir: &std::path::Path, args: &[&str]) -> (String, String, bool) {
    let out = client_command(data_dir, args).output().expect("arena runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

/// Runs `arena ARGS` sending `token` as the operator token: (stdout, stderr, success).
pub fn arena_as(token: &str, args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("ARENA_OPERATOR_TOKEN", token)
        .output()
        .expect("arena runs");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

/// A directory holding a cluster token and a bootstrap operator token, as mounted Secrets would.
pub struct Credentials {
    pub dir: tempfile::TempDir,
    pub operator: String,
}

impl Credentials {
    pub fn new() -> Credentials {
        let dir = tempfile::tempdir().unwrap();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let operator = format!("operator-{nanos:x}-{}", std::process::id());
        std::fs::write(dir.path().join("operator"), format!("{operator}\n")).unwrap();
        std::fs::write(dir.path().join("cluster"), format!("cluster-{nanos:x}\n")).unwrap();
        Credentials { dir, operator }
    }

    /// `--cluster-token-file PATH`.
    pub fn cluster_args(&self) -> Vec<String> {
        vec![
            "--cluster-token-file".into(),
            self.dir.path().join("cluster").display().to_string(),
        ]
    }

    /// `--operator-token-file PATH`.
    pub fn operator_args(&self) -> Vec<String> {
        vec![
            "--operator-token-file".into(),
            self.dir.path().join("operator").display().to_string(),
        ]
    }
}

pub mod ddz_bots;

pub use arena_testkit::readable_copy;

/// `examples/ddz-python/simple_bot.py`, as a copy any sandboxed program may read.
pub fn simple_bot() -> std::path::PathBuf {
    example("ddz-python/simple_bot.py")
}

/// `examples/mahjong-python/simple_bot.py` (the contest's Mahjong line protocol), as a copy any
/// sandboxed program may read.
pub fn mahjong_simple_bot() -> std::path::PathBuf {
    example("mahjong-python/simple_bot.py")
}

fn example(path: &str) -> std::path::PathBuf {
    readable_copy(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples")
            .join(path),
    )
}

/// A loopback port free a moment ago.
pub use arena_testkit::free_port as port;

/// A role (`arena ROLE …`) as a child process, killed with SIGKILL when dropped.
pub struct Role {
    child: std::process::Child,
    netns: Option<String>,
    role: String,
    args: Vec<String>,
    log: Option<std::path::PathBuf>,
}

impl Role {
    /// Starts `arena ROLE ARGS…` (its stderr in `log` when given, else discarded).
    pub fn start(role: &str, args: &[String], log: Option<std::path::PathBuf>) -> Role {
        Role::start_in(None, role, args, log)
    }

    /// [`Role::start`] inside network namespace `netns` (`ip netns exec`), when given.
    pub fn start_in(
        netns: Option<&str>,
        role: &str,
        args: &[String],
        log: Option<std::path::PathBuf>,
    ) -> Role {
        let child = Role::spawn(netns, role, args, log.as_deref());
        Role {
            child,
            netns: netns.map(str::to_string),
            role: role.to_string(),
            args: args.to_vec(),
            log,
        }
    }

    fn spawn(
        netns: Option<&str>,
        role: &str,
        args: &[String],
        log: Option<&std::path::Path>,
    ) -> std::process::Child {
        let stderr = match log {
            Some(path) => std::process::Stdio::from(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .unwrap(),
            ),
            None => std::process::Stdio::null(),
        };
        let mut cmd = match netns {
            Some(ns) => {
                let mut c = Command::new("ip");
                c.args(["netns", "exec", ns, env!("CARGO_BIN_EXE_arena")]);
                c
            }
            None => Command::new(env!("CARGO_BIN_EXE_arena")),
        };
        // A role must not outlive a test process that was killed (a cancelled or timed-out
        // run): it would keep serving on its port and its namespace.
        // SAFETY: prctl is async-signal-safe, and nothing else runs between fork and exec.
        unsafe {
            use std::os::unix::process::CommandExt;
            cmd.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        cmd.arg(role)
            .args(args)
            .env("ARENA_LOG", "warn")
            // The matchmaker's web console on a port of its own: tests run side by side.
            .env("ARENA_CONSOLE_LISTEN", "127.0.0.1:0")
            .stdout(std::process::Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap()
    }

    /// SIGKILL: no graceful shutdown, nothing flushed.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, as Kubernetes stops a pod; waits up to `within` for the process to exit and
    /// returns how it exited (panics naming the role if it is still running then).
    pub fn terminate(&mut self, within: std::time::Duration) -> std::process::ExitStatus {
        // SAFETY: kill(2) with our child's pid; no memory is touched.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let start = std::time::Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < within,
                "{} still runs {within:?} after SIGTERM",
                self.role
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Starts the same role again with the same arguments (after [`Role::kill`]).
    pub fn restart(&mut self) {
        self.kill();
        self.child = Role::spawn(
            self.netns.as_deref(),
            &self.role,
            &self.args,
            self.log.as_deref(),
        );
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Role {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `(done, total, state)` of competition `name`, from `arena competition list`.
pub fn progress(token: &str, mm: &str, name: &str) -> Option<(u64, u64, String)> {
    let (out, _, ok) = arena_as(token, &["competition", "list", "--matchmaker", mm]);
    if !ok {
        return None;
    }
    let line = out.lines().find(|l| l.starts_with(&format!("{name}  ")))?;
    let field = |n: usize| line.split("  ").nth(n);
    let state = field(2)?.to_string();
    let (done, total) = field(3)?.trim_end_matches(" tables").split_once('/')?;
    Some((done.parse().ok()?, total.parse().ok()?, state))
}

/// Deletes every key under `prefix` of the Redis at `url`.
pub fn redis_cleanup(url: &str, prefix: &str) {
    let Ok(client) = redis::Client::open(url) else {
        return;
    };
    let Ok(mut con) = client.get_connection() else {
        return;
    };
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query(&mut con)
        .unwrap_or_default();
    if !keys.is_empty() {
        let _: Result<(), _> = redis::cmd("DEL").arg(keys).query(&mut con);
    }
}

/// Registers the Python example bot (`examples/ddz-python/simple_bot.py`) as program bot `name`
/// in the store on `redis` under `prefix`.
pub fn add_program_bot(name: &str, redis: &str, prefix: &str) {
    add_program(name, redis, prefix, &simple_bot(), &[]);
}

/// Registers the Python Mahjong example (`examples/mahjong-python/simple_bot.py`) as program bot
/// `name` playing Mahjong, in the store on `redis` under `prefix`.
pub fn add_mahjong_program_bot(name: &str, redis: &str, prefix: &str) {
    add_program(
        name,
        redis,
        prefix,
        &mahjong_simple_bot(),
        &["--game", "mahjong"],
    );
}

fn add_program(name: &str, redis: &str, prefix: &str, script: &std::path::Path, extra: &[&str]) {
    let bot = format!("/usr/bin/python3 {}", script.display());
    let store = Cluster::store_args(redis, prefix);
    let store: Vec<&str> = store.iter().map(String::as_str).collect();
    let (_, err, ok) =
        arena(&[&["bots", "add", name, "--program", &bot][..], extra, &store].concat());
    assert!(ok, "{err}");
}

/// Every replay has a result without verdicts or errors, and there is one per table.
pub fn assert_counted_once_and_blameless(replays: &[arena_proto::v1::Replay], total: u64) {
    let ids: std::collections::BTreeSet<&str> = replays
        .iter()
        .map(|r| r.result.as_ref().unwrap().table_id.as_str())
        .collect();
    assert_eq!((replays.len() as u64, ids.len() as u64), (total, total));
    for r in replays {
        let result = r.result.as_ref().unwrap();
        assert!(
            result.verdicts.is_empty(),
            "{}: {:?}",
            result.table_id,
            result.verdicts
        );
        assert!(
            result.error.is_empty(),
            "{}: {}",
            result.table_id,
            result.error
        );
        assert!(result.outcome.is_some(), "{}", result.table_id);
    }
}

/// A key prefix of this test run's own.
pub fn unique_prefix(tag: &str) -> String {
    arena_testkit::unique_name(&format!("cli-{tag}"))
}

/// Registers a remote bot in the store `store_args` name: its token.
pub fn add_remote_bot(name: &str, store_args: &[&str]) -> String {
    let (out, err, ok) = arena(&[&["bots", "add", name][..], store_args].concat());
    assert!(ok, "{err}");
    out.lines()
        .last()
        .expect("the token is printed last")
        .trim()
        .to_string()
}

/// A client command running in the background, killed and reaped when dropped.
pub struct Background(pub std::process::Child);

impl Drop for Background {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The four roles as separate `arena` processes on one Redis (URL and key prefix), with the
/// credentials of [`Credentials`], each on loopback ports of its own.
pub struct Cluster {
    pub creds: Credentials,
    pub redis: String,
    pub prefix: String,
    pub host: Role,
    pub referees: Vec<Role>,
    pub library: Role,
    pub matchmaker: Role,
    /// Where remote bots connect.
    pub bot_url: String,
    /// Where referees open seats.
    pub seat_url: String,
    pub library_url: String,
    pub matchmaker_url: String,
    /// Where each referee serves (TableReferee, health).
    pub referee_urls: Vec<String>,
    /// Each role's Prometheus endpoint (`http://…/metrics`) by role name (`bot-host`,
    /// `table-referee`, `deal-library`, `matchmaker`), when started by [`Cluster::start_metered`].
    pub metrics_urls: std::collections::BTreeMap<&'static str, String>,
    /// Stderr of every role, appended.
    pub log: std::path::PathBuf,
    _logs: tempfile::TempDir,
}

/// `127.0.0.1:PORT` and `http://127.0.0.1:PORT` for a fresh port.
fn listen() -> (String, String) {
    let p = port();
    (format!("127.0.0.1:{p}"), format!("http://127.0.0.1:{p}"))
}

impl Cluster {
    /// The store arguments every role and store command takes.
    pub fn store_args(redis: &str, prefix: &str) -> Vec<String> {
        vec![
            "--redis".into(),
            redis.into(),
            "--redis-prefix".into(),
            prefix.into(),
        ]
    }

    /// Starts bot-host, `referees` table-referees (extra referee arguments in `referee_args`),
    /// a deal library and a matchmaker on `redis` under `prefix`.
    pub fn start(redis: &str, prefix: &str, referees: usize, referee_args: &[&str]) -> Cluster {
        Cluster::start_with(redis, prefix, referees, referee_args, false)
    }

    /// [`Cluster::start`] with one referee and every role serving its Prometheus endpoint
    /// (`--metrics-listen`), in [`Cluster::metrics_urls`].
    pub fn start_metered(redis: &str, prefix: &str) -> Cluster {
        Cluster::start_with(redis, prefix, 1, &[], true)
    }

    fn start_with(
        redis: &str,
        prefix: &str,
        referees: usize,
        referee_args: &[&str],
        metered: bool,
    ) -> Cluster {
        let creds = Credentials::new();
        let mut metrics_urls = std::collections::BTreeMap::new();
        // `--metrics-listen` on a port of its own, when metered (each referee but the first
        // keeps it off: one endpoint per role is what the tests read).
        let mut metrics = |role: &'static str| -> Vec<String> {
            if !metered || metrics_urls.contains_key(role) {
                return Vec::new();
            }
            let p = port();
            metrics_urls.insert(role, format!("http://127.0.0.1:{p}/metrics"));
            vec!["--metrics-listen".into(), format!("127.0.0.1:{p}")]
        };
        let logs = tempfile::tempdir().unwrap();
        let log = logs.path().join("roles.log");
        let store = Cluster::store_args(redis, prefix);
        let with = |mut a: Vec<String>, b: &[String]| {
            a.extend_from_slice(b);
            a
        };
        let (bot_at, bot_url) = listen();
        let (seat_at, seat_url) = listen();
        let host = Role::start(
            "bot-host",
            &with(
                store.clone(),
                &with(
                    vec!["--listen".into(), bot_at, "--seat-listen".into(), seat_at],
                    &with(creds.cluster_args(), &metrics("bot-host")),
                ),
            ),
            Some(log.clone()),
        );
        let mut referee_urls = Vec::new();
        let referees = (0..referees)
            .map(|_| {
                let (at, url) = listen();
                referee_urls.push(url);
                let mut args = with(store.clone(), &["--listen".into(), at]);
                args.extend(["--bot-host".to_string(), seat_url.clone()]);
                args.extend(referee_args.iter().map(|s| s.to_string()));
                args.extend(creds.cluster_args());
                args.extend(creds.operator_args());
                args.extend(metrics("table-referee"));
                Role::start("table-referee", &args, Some(log.clone()))
            })
            .collect();
        let (lib_at, library_url) = listen();
        let library = Role::start(
            "deal-library",
            &with(
                with(store.clone(), &["--listen".into(), lib_at]),
                &with(creds.operator_args(), &metrics("deal-library")),
            ),
            Some(log.clone()),
        );
        let (mm_at, matchmaker_url) = listen();
        let matchmaker = Role::start(
            "matchmaker",
            &with(
                with(store, &["--listen".into(), mm_at]),
                &with(creds.operator_args(), &metrics("matchmaker")),
            ),
            Some(log.clone()),
        );
        Cluster {
            creds,
            redis: redis.into(),
            prefix: prefix.into(),
            host,
            referees,
            library,
            matchmaker,
            bot_url,
            seat_url,
            library_url,
            matchmaker_url,
            referee_urls,
            metrics_urls,
            log,
            _logs: logs,
        }
    }

    /// The arguments a referee of this cluster takes (besides `--listen`), for one started
    /// elsewhere (another network namespace) on `redis`.
    pub fn referee_args(&self, redis: &str) -> Vec<String> {
        let mut args = Cluster::store_args(redis, &self.prefix);
        args.extend(["--bot-host".to_string(), self.seat_url.clone()]);
        args.extend(self.creds.cluster_args());
        args.extend(self.creds.operator_args());
        args
    }

    /// The gRPC health (`""`, the server as a whole) of every role: true where SERVING.
    pub fn health(&self) -> Vec<(String, bool)> {
        let urls: Vec<(String, String)> = [
            ("bot-host", &self.bot_url),
            ("deal-library", &self.library_url),
            ("matchmaker", &self.matchmaker_url),
        ]
        .into_iter()
        .map(|(n, u)| (n.to_string(), u.clone()))
        .chain(
            self.referee_urls
                .iter()
                .map(|u| ("table-referee".to_string(), u.clone())),
        )
        .collect();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let mut out = Vec::new();
            for (name, url) in urls {
                let serving = async {
                    let channel = tonic::transport::Endpoint::from_shared(url)
                        .ok()?
                        .connect()
                        .await
                        .ok()?;
                    let mut c = tonic_health::pb::health_client::HealthClient::new(channel);
                    let r = c
                        .check(tonic_health::pb::HealthCheckRequest {
                            service: String::new(),
                        })
                        .await
                        .ok()?;
                    Some(r.into_inner().status == 1)
                };
                out.push((name, serving.await.unwrap_or(false)));
            }
            out
        })
    }

    /// Waits until every role serves (its gRPC health SERVING), failing with the role logs
    /// after `within`.
    pub fn wait_serving(&self, within: std::time::Duration) {
        let start = std::time::Instant::now();
        loop {
            let health = self.health();
            if health.iter().all(|(_, up)| *up) {
                return;
            }
            assert!(
                start.elapsed() < within,
                "roles not serving after {within:?}: {health:?}\n{}",
                self.logs()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// `arena ARGS` as an operator of this cluster.
    pub fn client(&self, args: &[&str]) -> (String, String, bool) {
        arena_as(&self.creds.operator, args)
    }

    /// Measures deals 0..count (one bomb each, panel ladder:5) through the deal library,
    /// waiting for the roles to come up.
    pub fn measure(&self, count: u64) {
        let start = std::time::Instant::now();
        let count = count.to_string();
        loop {
            let (out, err, ok) = self.client(&[
                "deals",
                "measure",
                "--library",
                &self.library_url,
                "--count",
                &count,
                "--bombs",
                "1",
                "--panel",
                "ladder:5",
                "--batch",
                "50",
                "--json",
            ]);
            if ok {
                let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
                assert_eq!(v["deals"].to_string(), count, "{v}");
                return;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "{err}\n{}",
                self.logs()
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }

    /// Starts `arena competition create` with `args` in the background (it follows the
    /// competition until its final standings); killed when the handle is dropped.
    pub fn create(&self, args: &[&str]) -> Background {
        Background(
            Command::new(env!("CARGO_BIN_EXE_arena"))
                .args([
                    "competition",
                    "create",
                    "--matchmaker",
                    &self.matchmaker_url,
                ])
                .args(args)
                .env("ARENA_OPERATOR_TOKEN", &self.creds.operator)
                .stdout(std::process::Stdio::null())
                // Into the role logs, so a refused competition explains a test that waits for it.
                .stderr(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(&self.log)
                        .unwrap(),
                )
                .spawn()
                .unwrap(),
        )
    }

    /// `(done, total, state)` of competition `name`.
    pub fn progress(&self, name: &str) -> Option<(u64, u64, String)> {
        progress(&self.creds.operator, &self.matchmaker_url, name)
    }

    /// Waits until competition `name` has at least `done` tables done (and is still running).
    pub fn wait_for_tables(&self, name: &str, done: u64, within: std::time::Duration) -> u64 {
        let start = std::time::Instant::now();
        loop {
            if let Some((d, total, state)) = self.progress(name) {
                assert_eq!(state, "running", "{name} ended too soon: {d}/{total}");
                if d >= done {
                    assert!(d < total, "{name}: every table was done already");
                    return total;
                }
            }
            assert!(
                start.elapsed() < within,
                "{name}: {:?} after {within:?}\n{}",
                self.progress(name),
                self.logs()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Waits until competition `name` is finished; its total.
    pub fn wait_finished(&self, name: &str, within: std::time::Duration) -> u64 {
        let start = std::time::Instant::now();
        loop {
            if let Some((done, total, state)) = self.progress(name)
                && state == "finished"
            {
                assert_eq!(done, total);
                return total;
            }
            assert!(
                start.elapsed() < within,
                "{name}: {:?}\n{}",
                self.progress(name),
                self.logs()
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }

    /// Competition `name`'s standings, from the matchmaker's `GetStandings`.
    pub fn standings(&self, name: &str) -> arena_proto::v1::Standings {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let channel = tonic::transport::Endpoint::from_shared(self.matchmaker_url.clone())
                .unwrap()
                .connect()
                .await
                .unwrap();
            let mut client = arena_proto::v1::matchmaker_client::MatchmakerClient::new(channel);
            let mut request =
                tonic::Request::new(arena_proto::v1::CompetitionRequest { name: name.into() });
            request.metadata_mut().insert(
                "authorization",
                format!("Bearer {}", self.creds.operator).parse().unwrap(),
            );
            client.get_standings(request).await.unwrap().into_inner()
        })
    }

    /// Whether remote bot `bot` is connected to a bot-host (its presence is in the store).
    pub fn connected(&self, bot: &str) -> bool {
        let client = redis::Client::open(self.redis.as_str()).unwrap();
        let mut con = client.get_connection().unwrap();
        let hosts: u64 = redis::cmd("ZCARD")
            .arg(format!("{}:presence:{bot}", self.prefix))
            .query(&mut con)
            .unwrap();
        hosts > 0
    }

    /// How many table jobs referee `id` holds on the job stream: taken and not acknowledged.
    pub fn jobs_held(&self, id: &str) -> usize {
        let client = redis::Client::open(self.redis.as_str()).unwrap();
        let mut con = client.get_connection().unwrap();
        let held: Vec<redis::Value> = redis::cmd("XPENDING")
            .arg(format!("{}:{{ctl}}:jobs", self.prefix))
            .arg("referees")
            .arg("-")
            .arg("+")
            .arg(100_000)
            .arg(id)
            .query(&mut con)
            .unwrap();
        held.len()
    }

    /// Every replay of competition `name`, exported through the matchmaker.
    pub fn replays(&self, name: &str) -> Vec<arena_proto::v1::Replay> {
        export_replays(
            |args| self.client(args),
            self._logs.path(),
            &self.matchmaker_url,
            name,
        )
    }

    /// What the roles wrote to stderr so far (the last 4 KiB), for failure messages.
    pub fn logs(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let cut = text.len().saturating_sub(4096);
        let start = (cut..text.len())
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        format!("--- role logs ---\n{}", &text[start..])
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        redis_cleanup(&self.redis, &self.prefix);
    }
}

/// `arena standalone` in a data directory of its own, on ports of its own.
pub struct Standalone {
    pub child: Child,
    pub dir: tempfile::TempDir,
    /// The roles' URLs (`http://127.0.0.1:PORT`); `bots` is bot-host's bot port.
    pub referee: String,
    pub bots: String,
    pub library: String,
    pub matchmaker: String,
}

impl Standalone {
    /// Registers `bots` (name, extra `bots add` arguments) in a fresh data directory, then
    /// starts standalone with `args` and `env`, and waits until it serves.
    pub fn start(
        bots: &[(&str, &[&str])],
        args: &[&str],
        env: &[(&str, &str)],
    ) -> (Standalone, Vec<String>) {
        Standalone::start_prepared(|_| {}, bots, args, env)
    }

    /// [`Standalone::start`], with `prepare` given the data directory first (to fill its store
    /// before standalone opens it).
    pub fn start_prepared(
        prepare: impl FnOnce(&Path),
        bots: &[(&str, &[&str])],
        args: &[&str],
        env: &[(&str, &str)],
    ) -> (Standalone, Vec<String>) {
        let dir = arena_testkit::private_tempdir();
        prepare(dir.path());
        let d = dir.path().to_str().unwrap().to_string();
        let mut tokens = Vec::new();
        for (name, extra) in bots {
            let (out, err, ok) =
                arena(&[&["bots", "add", name, "--data-dir", &d][..], extra].concat());
            assert!(ok, "{err}");
            tokens.push(out.lines().last().unwrap().trim().to_string());
        }
        // Ports are picked free and released, so another process (an outgoing connection's
        // local port, say) may take one before standalone binds it: then it exits saying so, and
        // it is started again on other ports. Any other early exit fails with its stderr.
        let stderr_path = dir.path().join("standalone.stderr");
        let at = |p: u16| format!("127.0.0.1:{p}");
        let mut attempts = 0;
        let s = loop {
            attempts += 1;
            let (r, b, l, m) = (port(), port(), port(), port());
            let matchmaker = format!("http://{}", at(m));
            let mut child = Command::new(env!("CARGO_BIN_EXE_arena"))
                .args(["standalone", "--data-dir", &d])
                .args(["--referee-listen", &at(r), "--bot-host-listen", &at(b)])
                .args([
                    "--deal-library-listen",
                    &at(l),
                    "--matchmaker-listen",
                    &at(m),
                ])
                .args(args)
                .env("ARENA_CONSOLE_LISTEN", "127.0.0.1:0")
                .envs(env.iter().copied())
                .env("ARENA_LOG", "warn")
                .stdout(Stdio::null())
                .stderr(std::fs::File::create(&stderr_path).unwrap())
                .spawn()
                .unwrap();
            // Polled (a client's answer is the only sign it serves), with room for a loaded
            // machine: the whole suite runs beside it.
            let start = Instant::now();
            let exited = loop {
                if arena_client(
                    dir.path(),
                    &["competition", "list", "--matchmaker", &matchmaker],
                )
                .2
                {
                    break None;
                }
                if let Ok(Some(status)) = child.try_wait() {
                    break Some(status);
                }
                if start.elapsed() > Duration::from_secs(120) {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("standalone did not come up within 120 s");
                }
                std::thread::sleep(Duration::from_millis(50));
            };
            let Some(status) = exited else {
                break Standalone {
                    child,
                    dir,
                    referee: format!("http://{}", at(r)),
                    bots: format!("http://{}", at(b)),
                    library: format!("http://{}", at(l)),
                    matchmaker,
                };
            };
            let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
            assert!(
                stderr.contains("in use") && attempts < 3,
                "standalone exited before it served ({status}):\n{stderr}"
            );
        };
        (s, tokens)
    }

    pub fn data_dir(&self) -> &Path {
        self.dir.path()
    }

    /// Every replay of competition `name`, exported through the matchmaker.
    pub fn replays(&self, name: &str) -> Vec<arena_proto::v1::Replay> {
        export_replays(
            |args| self.client(args),
            self.data_dir(),
            &self.matchmaker,
            name,
        )
    }

    /// `arena ARGS` as this standalone's operator.
    pub fn client(&self, args: &[&str]) -> (String, String, bool) {
        arena_client(self.dir.path(), args)
    }

    /// Creates competition `name` on this standalone's matchmaker with `args` (`arena
    /// competition create … --name NAME ARGS`), which waits for its final standings: what
    /// it printed.
    pub fn create_competition(&self, name: &str, args: &[&str]) -> String {
        let head = [
            "competition",
            "create",
            "--matchmaker",
            &self.matchmaker,
            "--name",
            name,
        ];
        let (out, err, ok) = self.client(&[&head[..], args].concat());
        assert!(ok, "{name}: {err}{out}");
        assert!(
            out.contains(&format!("{name}: ")) && out.contains(", final"),
            "{out}"
        );
        out
    }

    /// Measures deals 0..count (one bomb, panel ladder:5) through the deal library.
    pub fn measure(&self, count: u64) {
        let count = count.to_string();
        let (out, err, ok) = self.client(&[
            "deals",
            "measure",
            "--library",
            &self.library,
            "--count",
            &count,
            "--bombs",
            "1",
            "--panel",
            "ladder:5",
            "--json",
        ]);
        assert!(ok, "{err}{out}");
    }

    pub fn operator_token(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("operator.token"))
            .unwrap()
            .trim()
            .to_string()
    }

    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap()
    }
}

impl Drop for Standalone {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A two-thread runtime for a test's gRPC calls.
/// Every replay of competition `name`: `arena competition replays NAME --out DIR/NAME.replays`
/// through `client` against `matchmaker`, read back.
fn export_replays(
    client: impl Fn(&[&str]) -> (String, String, bool),
    dir: &Path,
    matchmaker: &str,
    name: &str,
) -> Vec<arena_proto::v1::Replay> {
    let file = dir.join(format!("{name}.replays"));
    let (out, err, ok) = client(&[
        "competition",
        "replays",
        name,
        "--out",
        file.to_str().unwrap(),
        "--matchmaker",
        matchmaker,
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("replays of"), "{out}");
    let bytes = std::fs::read(&file).unwrap();
    let mut buf = bytes.as_slice();
    let mut all = Vec::new();
    while !buf.is_empty() {
        all.push(
            <arena_proto::v1::Replay as prost::Message>::decode_length_delimited(&mut buf).unwrap(),
        );
    }
    all
}

/// A directory every user may read (programs of a root caller run as `nobody`), removed when
/// dropped.
pub fn readable_dir(tag: &str) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(&format!("arena-{tag}-"))
        .tempdir()
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Writes `text` to `dir/name`, readable and executable by every user; its path.
pub fn write_script(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `replays` by table id.
pub fn by_table(
    replays: Vec<arena_proto::v1::Replay>,
) -> std::collections::BTreeMap<String, arena_proto::v1::Replay> {
    replays
        .into_iter()
        .map(|r| (r.result.as_ref().unwrap().table_id.clone(), r))
        .collect()
}

pub fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// A channel to `url`, connected.
pub async fn channel(url: &str) -> tonic::transport::Channel {
    tonic::transport::Endpoint::from_shared(url.to_string())
        .unwrap()
        .connect()
        .await
        .unwrap()
}

/// `msg` with `token` as its bearer credential.
pub fn authed<T>(msg: T, token: &str) -> tonic::Request<T> {
    let mut req = tonic::Request::new(msg);
    req.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    req
}
