//! `arena standalone` inside the test process: every role on an embedded store in a temporary
//! directory of its own, booted in one call ([`arena::standalone::start`], the same function
//! the command runs), with an operator's matchmaker client.

use arena_proto::v1;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

/// A running standalone and the directory holding its store (removed when dropped).
pub struct Standalone {
    /// The running roles: addresses, the operator token, a graceful stop.
    pub running: arena::standalone::Standalone,
    dir: tempfile::TempDir,
}

/// Adds the operator's bearer token to every call.
#[derive(Clone)]
pub struct Operator(tonic::metadata::MetadataValue<tonic::metadata::Ascii>);

impl tonic::service::Interceptor for Operator {
    fn call(&mut self, mut req: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        req.metadata_mut().insert("authorization", self.0.clone());
        Ok(req)
    }
}

/// Boots standalone on loopback ports of its own, its store in a fresh temporary directory.
pub async fn standalone() -> Standalone {
    let dir = arena_testkit::private_tempdir();
    let running =
        arena::standalone::start(arena::standalone::StandaloneConfig::loopback(dir.path()))
            .await
            .expect("standalone starts");
    Standalone { running, dir }
}

impl Standalone {
    /// Where the store and the operator token live.
    pub fn dir(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// A channel to `addr` of one of the roles.
    pub async fn channel(&self, addr: std::net::SocketAddr) -> Channel {
        Channel::from_shared(format!("http://{addr}"))
            .expect("a loopback URL")
            .connect()
            .await
            .expect("the role accepts connections")
    }

    /// The matchmaker, called as the operator standalone made.
    pub async fn matchmaker(
        &self,
    ) -> v1::matchmaker_client::MatchmakerClient<InterceptedService<Channel, Operator>> {
        let token = format!("Bearer {}", self.running.operator_token.expose())
            .parse()
            .expect("a token is ASCII");
        v1::matchmaker_client::MatchmakerClient::with_interceptor(
            self.channel(self.running.addrs.matchmaker).await,
            Operator(token),
        )
    }

    /// Stops every role gracefully.
    pub async fn stop(self) {
        self.running.stop().await.expect("standalone stops cleanly");
    }
}
