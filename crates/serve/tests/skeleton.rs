//! The skeleton over a real connection: a fake `TableReferee` whose `GetResult` waits at a gate
//! and whose `GetReplay` never answers.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arena_proto::v1;
use arena_proto::v1::table_referee_client::TableRefereeClient;
use arena_proto::v1::table_referee_server::{TableReferee, TableRefereeServer};
use arena_serve::{ServeConfig, Shutdown};
use tokio::sync::{Semaphore, mpsc};
use tonic::transport::{Channel, server::TcpIncoming};
use tonic::{Code, Request, Response, Status};

/// A bound on waits that only fail the test if something is wrong (never a synchronisation).
const BOUND: Duration = Duration::from_secs(30);

struct Gate {
    entered: mpsc::UnboundedSender<()>,
    release: Arc<Semaphore>,
}

#[tonic::async_trait]
impl TableReferee for Gate {
    async fn submit_table(
        &self,
        _: Request<v1::SubmitTableRequest>,
    ) -> Result<Response<v1::SubmitTableResponse>, Status> {
        Ok(Response::new(v1::SubmitTableResponse::default()))
    }

    async fn get_result(
        &self,
        req: Request<v1::GetTableRequest>,
    ) -> Result<Response<v1::TableResult>, Status> {
        let _ = self.entered.send(());
        let permit = self
            .release
            .acquire()
            .await
            .map_err(|_| Status::internal("gate closed"))?;
        permit.forget();
        Ok(Response::new(v1::TableResult {
            table_id: req.into_inner().table_id,
            ..Default::default()
        }))
    }

    async fn get_replay(
        &self,
        _: Request<v1::GetTableRequest>,
    ) -> Result<Response<v1::Replay>, Status> {
        std::future::pending().await
    }
}

struct Running {
    addr: SocketAddr,
    entered: mpsc::UnboundedReceiver<()>,
    release: Arc<Semaphore>,
    shutdown: Shutdown,
    server: tokio::task::JoinHandle<Result<(), tonic::transport::Error>>,
}

async fn start(config: ServeConfig) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, entered) = mpsc::unbounded_channel();
    let release = Arc::new(Semaphore::new(0));
    let shutdown = Shutdown::new();
    let gate = Gate {
        entered: tx,
        release: Arc::clone(&release),
    };
    let served = arena_serve::server(&config)
        .add_service(TableRefereeServer::new(gate))
        .serve_with_incoming_shutdown(TcpIncoming::from(listener), shutdown.wait());
    Running {
        addr,
        entered,
        release,
        shutdown,
        server: tokio::spawn(served),
    }
}

async fn client(addr: SocketAddr) -> TableRefereeClient<Channel> {
    TableRefereeClient::connect(format!("http://{addr}"))
        .await
        .unwrap()
}

fn get(id: &str) -> v1::GetTableRequest {
    v1::GetTableRequest {
        table_id: id.into(),
    }
}

/// Records the `otel.name` of every span opened.
#[derive(Clone, Default)]
struct SpanNames(Arc<Mutex<Vec<String>>>);

struct OtelName(Option<String>);

impl tracing::field::Visit for OtelName {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        if field.name() == "otel.name" {
            self.0 = Some(format!("{value:?}"));
        }
    }
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for SpanNames {
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        _: &tracing::span::Id,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let mut name = OtelName(None);
        attrs.record(&mut name);
        if let Some(n) = name.0 {
            self.0.lock().unwrap().push(n);
        }
    }
}

#[tokio::test]
async fn a_call_over_the_skeleton_gets_a_server_span() {
    use tracing_subscriber::layer::SubscriberExt;
    let names = SpanNames::default();
    // A current-thread runtime: the server's tasks run on this thread, under this subscriber.
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(names.clone()));
    let run = start(ServeConfig::default()).await;
    client(run.addr)
        .await
        .submit_table(v1::SubmitTableRequest::default())
        .await
        .unwrap();
    let seen = names.0.lock().unwrap().clone();
    assert!(
        seen.iter()
            .any(|n| n == "arena.v1.TableReferee/SubmitTable"),
        "{seen:?}"
    );
}

#[tokio::test]
async fn an_overloaded_server_sheds_with_unavailable() {
    let mut run = start(ServeConfig {
        max_concurrent_requests: 1,
        ..ServeConfig::default()
    })
    .await;
    let mut c = client(run.addr).await;
    let first = {
        let mut c = c.clone();
        tokio::spawn(async move { c.get_result(get("first")).await })
    };
    run.entered.recv().await.unwrap();
    let shed = c.get_result(get("second")).await.unwrap_err();
    assert_eq!(shed.code(), Code::Unavailable, "{shed:?}");
    assert!(shed.message().contains("overloaded"), "{shed:?}");
    assert_eq!(
        arena_serve::retry_of(shed.code()),
        arena_serve::Retry::WithBackoff
    );
    // Health is never shed.
    let channel = Channel::from_shared(format!("http://{}", run.addr))
        .unwrap()
        .connect()
        .await
        .unwrap();
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let h = health
        .check(tonic_health::pb::HealthCheckRequest::default())
        .await
        .unwrap_err();
    assert_eq!(
        h.code(),
        Code::Unimplemented,
        "no health service mounted: {h:?}"
    );
    run.release.add_permits(1);
    let done = first.await.unwrap().unwrap().into_inner();
    assert_eq!(done.table_id, "first");
    // The slot is free again.
    run.release.add_permits(1);
    c.get_result(get("third")).await.unwrap();
}

#[tokio::test]
async fn a_call_past_the_timeout_gets_deadline_exceeded() {
    let run = start(ServeConfig {
        request_timeout: Some(Duration::from_millis(200)),
        ..ServeConfig::default()
    })
    .await;
    let e = tokio::time::timeout(BOUND, client(run.addr).await.get_replay(get("t")))
        .await
        .expect("the server's timeout answers")
        .unwrap_err();
    assert_eq!(e.code(), Code::DeadlineExceeded, "{e:?}");
}

#[tokio::test]
async fn shutdown_lets_calls_in_flight_finish() {
    let mut run = start(ServeConfig::default()).await;
    let mut c = client(run.addr).await;
    let in_flight = tokio::spawn(async move { c.get_result(get("draining")).await });
    run.entered.recv().await.unwrap();
    run.shutdown.trigger();
    // However long we wait, the server cannot stop while the call is in flight.
    tokio::task::yield_now().await;
    assert!(!run.server.is_finished());
    run.release.add_permits(1);
    let done = tokio::time::timeout(BOUND, in_flight)
        .await
        .expect("the call finishes")
        .unwrap()
        .unwrap();
    assert_eq!(done.into_inner().table_id, "draining");
    tokio::time::timeout(BOUND, run.server)
        .await
        .expect("the server stops once drained")
        .unwrap()
        .unwrap();
}

#[tokio::test]
async fn max_connection_age_closes_a_long_lived_connection() {
    let run = start(ServeConfig {
        request_timeout: None,
        max_connection_age: Some(Duration::from_millis(200)),
        max_connection_age_grace: Duration::from_millis(200),
        ..ServeConfig::default()
    })
    .await;
    // A call that never answers holds the connection open; past the age and its grace the
    // server closes the connection under it.
    let e = tokio::time::timeout(BOUND, client(run.addr).await.get_replay(get("t")))
        .await
        .expect("the connection is closed within the bound")
        .unwrap_err();
    assert!(
        matches!(
            e.code(),
            Code::Unavailable | Code::Unknown | Code::Cancelled
        ),
        "{e:?}"
    );
}
