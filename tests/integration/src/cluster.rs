//! A cluster of arena's roles in one process, as separate roles talking gRPC on loopback.
//!
//! ```no_run
//! # async fn demo() {
//! use arena_integration::{Backend, Cluster};
//! let cluster = Cluster::on(Backend::Redis, "demo")
//!     .referees(&["r1", "r2"])
//!     .remote_bots(&["north", "east", "west"])
//!     .mahjong_bots(&["tiles"])
//!     .start()
//!     .await;
//! # }
//! ```
//!
//! Every wait has a generous deadline (minutes, not milliseconds): on a loaded 2-core machine a
//! slow run must not fail, and a stuck one must fail with what it was waiting for.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arena_auth::token::issue_token;
use arena_bot_host::{BotHost, BotHostConfig};
use arena_deal_library::DealLibraryService;
use arena_example_remote_bot::{Options, play_with};
use arena_matchmaker::MatchmakerService;
use arena_proto::v1;
use arena_proto::v1::deal_library_server::DealLibrary;
use arena_proto::v1::matchmaker_server::Matchmaker;
use arena_referee::RefereeConfig;
use arena_store::{BotKind, BotRecord, EmbeddedStore, RedisStore, Store};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tonic::Request;

use crate::redis::{REDIS, cleanup_blocking, prefix};

/// The cluster token bot-host and the referees of a [`Cluster`] share.
pub const CLUSTER_TOKEN: &str = "test-cluster-token";

/// How long a wait of the cluster may take before the test fails, unless told otherwise.
pub const PATIENCE: Duration = Duration::from_secs(240);

/// Where a cluster keeps its state.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An embedded store in a temporary directory.
    Embedded,
    /// The local Redis ([`REDIS`]), or the one given to [`ClusterBuilder::redis_url`], under a
    /// key prefix of the cluster's own.
    Redis,
}

type RefereeTweak = Arc<dyn Fn(&mut RefereeConfig) + Send + Sync>;
type BotHostTweak = Box<dyn FnOnce(&mut BotHostConfig) + Send>;

/// What a [`Cluster`] starts with; [`ClusterBuilder::start`] boots it.
pub struct ClusterBuilder {
    backend: Backend,
    tag: String,
    referees: Vec<String>,
    bots: Vec<(String, Options)>,
    tweak: RefereeTweak,
    host_tweak: Option<BotHostTweak>,
    supervisor: Option<Duration>,
    redis_url: String,
}

impl ClusterBuilder {
    /// Changes bot-host's configuration after the cluster's (loopback, the cluster token).
    pub fn bot_host_config(mut self, f: impl FnOnce(&mut BotHostConfig) + Send + 'static) -> Self {
        self.host_tweak = Some(Box::new(f));
        self
    }

    /// On [`Backend::Redis`], the Redis at `url` instead of the shared one ([`REDIS`]): a
    /// private server whose command counts are the cluster's alone.
    pub fn redis_url(mut self, url: &str) -> Self {
        self.redis_url = url.to_string();
        self
    }

    /// Referees with these ids, started at boot (none by default).
    pub fn referees(mut self, ids: &[&str]) -> Self {
        self.referees.extend(ids.iter().map(|s| s.to_string()));
        self
    }

    /// Remote bots with these names, registered and connected with [`Cluster::bot_options`].
    pub fn remote_bots(mut self, names: &[&str]) -> Self {
        self.bots.extend(
            names
                .iter()
                .map(|n| (n.to_string(), Cluster::bot_options())),
        );
        self
    }

    /// One remote bot with its own options (release, capacity, decisions).
    pub fn remote_bot(mut self, name: &str, options: Options) -> Self {
        self.bots.push((name.to_string(), options));
        self
    }

    /// Remote Mahjong bots with these names, registered and connected with
    /// [`Cluster::mahjong_bot_options`].
    pub fn mahjong_bots(mut self, names: &[&str]) -> Self {
        self.bots.extend(
            names
                .iter()
                .map(|n| (n.to_string(), Cluster::mahjong_bot_options())),
        );
        self
    }

    /// Changes every referee's configuration after the cluster's defaults
    /// ([`Cluster::referee_config`]) are applied.
    pub fn referee_config(
        mut self,
        f: impl Fn(&mut RefereeConfig) + Send + Sync + 'static,
    ) -> Self {
        self.tweak = Arc::new(f);
        self
    }

    /// Runs the matchmaker's supervisor (progress, final standings, interrupted competitions)
    /// with a pass every `every`, as a deployment does.
    pub fn supervisor(mut self, every: Duration) -> Self {
        self.supervisor = Some(every);
        self
    }

    /// Boots the cluster: the store, bot-host, the referees, the deal library and matchmaker
    /// services, then the remote bots; returns once every bot is connected (present in the
    /// store).
    pub async fn start(self) -> Cluster {
        let prefix = prefix(&self.tag);
        let (store, dir): (Arc<dyn Store>, _) = match self.backend {
            Backend::Embedded => {
                let dir = tempfile::tempdir().expect("a temporary directory");
                let store = EmbeddedStore::open(dir.path()).expect("an embedded store");
                (Arc::new(store), Some(dir))
            }
            Backend::Redis => {
                let store = RedisStore::connect(&self.redis_url, &prefix)
                    .await
                    .unwrap_or_else(|e| panic!("the Redis at {}: {e}", self.redis_url));
                (Arc::new(store), None)
            }
        };
        let mut host_config = BotHostConfig {
            cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
            ..BotHostConfig::loopback()
        };
        if let Some(f) = self.host_tweak {
            f(&mut host_config);
        }
        let host = BotHost::bind(host_config, store.clone())
            .await
            .expect("bot-host binds on loopback");
        let bot_url = format!("http://{}", host.local_addr());
        let seat_url = host.advertised().to_string();
        let host = Role::spawn(|stop| async move {
            host.run(stop).await.expect("bot-host runs");
        });
        let mut cluster = Cluster {
            library: DealLibraryService::new(store.clone(), 2),
            matchmaker: MatchmakerService::new(store.clone()),
            store,
            backend: self.backend,
            redis_url: self.redis_url,
            prefix,
            dir,
            bot_url,
            seat_url,
            tokens: BTreeMap::new(),
            host: Some(host),
            referees: BTreeMap::new(),
            bots: BTreeMap::new(),
            supervisor: None,
            tweak: self.tweak,
        };
        for id in &self.referees {
            cluster.start_referee(id);
        }
        if let Some(every) = self.supervisor {
            let store = cluster.store.clone();
            cluster.supervisor = Some(Role::spawn(move |stop| async move {
                arena_matchmaker::supervise(store, every, stop).await;
            }));
        }
        for (name, options) in self.bots {
            cluster.register_bot(&name).await;
            cluster.connect_bot(&name, options).await;
        }
        cluster
    }
}

/// A running cluster. Dropping it stops every role and removes its Redis keys.
pub struct Cluster {
    /// The store every role uses.
    pub store: Arc<dyn Store>,
    /// The deal library's service, called in-process.
    pub library: DealLibraryService,
    /// The matchmaker's service, called in-process.
    pub matchmaker: MatchmakerService,
    /// bot-host's bot port (`http://…`), where remote bots connect.
    pub bot_url: String,
    /// bot-host's seat port, where referees open seats.
    pub seat_url: String,
    backend: Backend,
    redis_url: String,
    prefix: String,
    dir: Option<tempfile::TempDir>,
    tokens: BTreeMap<String, String>,
    host: Option<Role>,
    referees: BTreeMap<String, Role>,
    bots: BTreeMap<String, Role>,
    supervisor: Option<Role>,
    tweak: RefereeTweak,
}

impl Cluster {
    /// A cluster on `backend`; `tag` names its key prefix (and so its test) in Redis.
    pub fn on(backend: Backend, tag: &str) -> ClusterBuilder {
        ClusterBuilder {
            backend,
            tag: tag.to_string(),
            referees: Vec::new(),
            bots: Vec::new(),
            tweak: Arc::new(|_| {}),
            host_tweak: None,
            supervisor: None,
            redis_url: REDIS.to_string(),
        }
    }

    /// A name no other test run uses (the cluster's key prefix): competition and table ids made
    /// from it never meet another test's.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The backend the cluster runs on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The embedded store's directory (`None` on Redis).
    pub fn data_dir(&self) -> Option<&std::path::Path> {
        self.dir.as_ref().map(|d| d.path())
    }

    /// Remote bot options used by [`ClusterBuilder::remote_bots`]: the example bot's decisions,
    /// up to 256 tables at once, at Dou Dizhu tables only (`Hello` lists `ddz`).
    pub fn bot_options() -> Options {
        Options {
            capacity: 256,
            games: vec![arena_games::ddz::GAME.name()],
            ..Options::default()
        }
    }

    /// Remote Mahjong bot options used by [`ClusterBuilder::mahjong_bots`]: the example bot's
    /// Mahjong player (`Hello` lists Mahjong only), up to 256 tables at once.
    pub fn mahjong_bot_options() -> Options {
        Options {
            capacity: 256,
            ..Options::mahjong()
        }
    }

    /// The configuration of referee `id` in this cluster: bot-host's seat port, the cluster
    /// token, fast polls and short reclaim times fit for tests, then the builder's changes.
    pub fn referee_config(&self, id: &str) -> RefereeConfig {
        let mut cfg = RefereeConfig {
            referee_id: id.into(),
            cluster_token: Some(arena_auth::Secret::new(CLUSTER_TOKEN)),
            bot_hosts: vec![self.seat_url.clone()],
            max_tables: 24,
            reclaim_after: Duration::from_secs(3),
            touch_interval: Duration::from_millis(500),
            shutdown_grace: Duration::from_secs(2),
            poll_interval: Duration::from_millis(20),
            ..RefereeConfig::default()
        };
        (self.tweak)(&mut cfg);
        cfg
    }

    /// Starts referee `id` (a worker on the job stream, as `arena table-referee` runs one).
    pub fn start_referee(&mut self, id: &str) {
        let cfg = self.referee_config(id);
        let store = self.store.clone();
        let role = Role::spawn(move |stop| async move {
            arena_referee::work(cfg, store, stop)
                .await
                .expect("the referee runs");
        });
        assert!(
            self.referees.insert(id.to_string(), role).is_none(),
            "referee {id} is already running"
        );
    }

    /// Stops referee `id` gracefully (it finishes or hands back its tables) and waits for it.
    pub async fn stop_referee(&mut self, id: &str) {
        let role = self.referees.remove(id).expect("a running referee");
        role.stop().await;
    }

    /// Kills referee `id` as a crash would: no shutdown, no acknowledgements, its leases left to
    /// expire.
    pub fn kill_referee(&mut self, id: &str) {
        self.referees.remove(id).expect("a running referee").kill();
    }

    /// Registers remote bot `name` and returns its token.
    pub async fn register_bot(&mut self, name: &str) -> String {
        let (token, hash) = issue_token().expect("a bot token");
        let record = BotRecord {
            name: name.into(),
            kind: BotKind::Remote,
            token_sha256: Some(hash),
            max_tables: 0,
            created_unix_ms: 0,
            decision_ms: 0,
            later_decision_ms: 0,
        };
        assert!(
            self.store.add_bot(&record).await.expect("the store"),
            "bot {name} is already registered"
        );
        self.tokens.insert(name.to_string(), token.clone());
        token
    }

    /// Connects registered bot `name` with `options` and waits until bot-host holds it. The bot
    /// reconnects as a real one would when its stream ends (bot-host refuses a second connection
    /// of a bot until it has noticed the previous one is gone).
    pub async fn connect_bot(&mut self, name: &str, options: Options) {
        let token = self.tokens.get(name).expect("a registered bot").clone();
        let (url, bot) = (self.bot_url.clone(), name.to_string());
        let role = Role::spawn(move |stop| async move {
            let play = async {
                loop {
                    let _ = play_with(&url, &bot, &token, &options).await;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            };
            tokio::select! {
                () = play => {}
                () = stop => {}
            }
        });
        if let Some(old) = self.bots.insert(name.to_string(), role) {
            old.kill();
        }
        let store = self.store.clone();
        let name = name.to_string();
        wait_until(PATIENCE, &format!("bot {name} connected"), || {
            let (store, name) = (store.clone(), name.clone());
            async move { !store.presence(&name).await.unwrap_or_default().is_empty() }
        })
        .await;
    }

    /// Disconnects bot `name` and waits until its session has ended.
    pub async fn disconnect_bot(&mut self, name: &str) {
        self.bots
            .remove(name)
            .expect("a connected bot")
            .stop()
            .await;
    }

    /// Puts a table job on the job stream.
    pub async fn enqueue(&self, job: &v1::TableJob) {
        self.store
            .enqueue_job(&job.table_id, &arena_table::queue::encode_table_job(job))
            .await
            .expect("the store");
    }

    /// Waits until at least `n` results are listed under `competition` and returns them all.
    pub async fn results(&self, competition: &str, n: usize) -> Vec<(String, Vec<u8>)> {
        let start = Instant::now();
        loop {
            let results = self
                .store
                .results_for(competition)
                .await
                .expect("the store");
            if results.len() >= n {
                return results;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "{} of {n} results of {competition} after {PATIENCE:?}",
                results.len()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the job stream holds no job waiting or being played.
    pub async fn drained(&self) {
        let store = self.store.clone();
        wait_until(PATIENCE, "the job stream drained", || {
            let store = store.clone();
            async move {
                store
                    .job_counts()
                    .await
                    .is_ok_and(|c| c.waiting == 0 && c.pending == 0)
            }
        })
        .await;
    }

    /// Waits for the deal library's operation `id` to end and returns it.
    pub async fn operation(&self, id: &str) -> v1::Operation {
        let start = Instant::now();
        loop {
            let op = self
                .library
                .get_operation(Request::new(v1::GetOperationRequest { id: id.into() }))
                .await
                .expect("the operation")
                .into_inner();
            if op.done {
                return op;
            }
            assert!(start.elapsed() < PATIENCE, "operation stuck: {op:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Creates competition `spec` as an operator's client does: a gRPC call to the matchmaker
    /// (served on a loopback port of its own for the rest of the test), with an operator token,
    /// made inside a span `operator` whose trace context the call carries. With telemetry
    /// exporting, that span is the root of the competition's trace.
    pub async fn create_traced(&self, spec: v1::CompetitionSpec) -> v1::Competition {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a loopback port for the matchmaker");
        let url = format!("http://{}", listener.local_addr().expect("its address"));
        tokio::spawn(arena_matchmaker::serve_with_listener(
            listener,
            self.store.clone(),
            std::future::pending(),
        ));
        let token = arena_auth::operators::add(&*self.store, &format!("operator-{}", spec.name))
            .await
            .expect("an operator token")
            .token;
        let channel = tonic::transport::Endpoint::from_shared(url)
            .expect("the matchmaker's URL")
            .connect()
            .await
            .expect("the matchmaker serves");
        let mut client = v1::matchmaker_client::MatchmakerClient::with_interceptor(
            channel,
            arena_auth::Bearer::new(Some(&token)),
        );
        let operator = tracing::info_span!("operator");
        let request = operator.in_scope(|| {
            arena_telemetry::traced_request(v1::CreateCompetitionRequest { spec: Some(spec) })
        });
        tracing::Instrument::instrument(client.create_competition(request), operator)
            .await
            .expect("the competition is created")
            .into_inner()
    }

    /// Follows competition `name`'s standings to the final ones.
    pub async fn final_standings(&self, name: &str) -> v1::Standings {
        let stream = self
            .matchmaker
            .watch_competition(Request::new(v1::CompetitionRequest { name: name.into() }))
            .await
            .expect("the competition")
            .into_inner();
        arena_testkit::final_standings(name, stream, PATIENCE).await
    }

    /// Stops every role gracefully (bots, supervisor, referees, bot-host) and removes the
    /// cluster's Redis keys.
    pub async fn shutdown(mut self) {
        for (_, bot) in std::mem::take(&mut self.bots) {
            bot.stop().await;
        }
        if let Some(s) = self.supervisor.take() {
            s.stop().await;
        }
        for (_, referee) in std::mem::take(&mut self.referees) {
            referee.stop().await;
        }
        if let Some(h) = self.host.take() {
            h.stop().await;
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let roles = std::mem::take(&mut self.bots)
            .into_values()
            .chain(self.supervisor.take())
            .chain(std::mem::take(&mut self.referees).into_values())
            .chain(self.host.take());
        for role in roles {
            role.kill();
        }
        if self.backend == Backend::Redis {
            cleanup_blocking(&self.redis_url, &self.prefix);
        }
    }
}

/// A role's task and the signal that stops it.
struct Role {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Role {
    /// Spawns `run(stop)`, where `stop` resolves when the role is told to stop.
    fn spawn<F, Fut>(run: F) -> Role
    where
        F: FnOnce(std::pin::Pin<Box<dyn Future<Output = ()> + Send>>) -> Fut,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let (stop, rx) = oneshot::channel::<()>();
        let task = tokio::spawn(run(Box::pin(async {
            let _ = rx.await;
        })));
        Role { stop, task }
    }

    /// Tells the role to stop and waits until it has.
    async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }

    /// Ends the role's task at once.
    fn kill(self) {
        self.task.abort();
    }
}

/// Polls `check` until it holds; fails the test naming `what` after `within`.
pub async fn wait_until<F, Fut>(within: Duration, what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let start = Instant::now();
    while !check().await {
        assert!(start.elapsed() < within, "waited {within:?} for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
