//! [`Authenticator`] decides whether a call may proceed; [`AuthLayer`] runs it in front of every
//! service of a tonic server (`Server::builder().layer(AuthLayer::new(auth))`), so a refused call
//! never reaches a service and a new method is closed until the policy names it.
//!
//! | access ([`crate::Access`]) | what the call must carry |
//! |---|---|
//! | public | nothing |
//! | spectator | nothing when the server opens spectator reads to the public, else as operator |
//! | operator | `authorization: Bearer <token>`: an operator token from the store, or the bootstrap token |
//! | cluster | `authorization: Bearer <cluster token>` |
//!
//! Refusals: no or malformed `authorization` → `UNAUTHENTICATED` saying what to send; a token that
//! is not valid → `UNAUTHENTICATED` (the same answer whatever was wrong with it); a cluster method
//! on a server without a cluster token, or a cluster token where an operator one is needed →
//! `PERMISSION_DENIED`; too many failed attempts from one address → `RESOURCE_EXHAUSTED` with
//! the wait, before any token is checked; the store unreachable while checking a stored operator
//! token → `UNAVAILABLE`. Granted calls carry the [`Caller`] in their request extensions.

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use arena_store::Store;
use tonic::Status;
use tonic::body::Body;
use tonic::transport::server::{TcpConnectInfo, TlsConnectInfo};

use crate::policy::{Access, access};
use crate::refusal::{permission_denied, too_many_attempts, unauthenticated};
use crate::token::{hash_token, token_matches};
use crate::{FailureLimiter, Secret, operators};

/// Who a granted call came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caller {
    /// Nobody in particular (a public or open spectator method).
    Anonymous,
    /// An operator, by name (`bootstrap` for the bootstrap token).
    Operator(String),
    /// One of the cluster's roles.
    Cluster,
}

/// The name a call with the bootstrap token is logged under.
pub const BOOTSTRAP_OPERATOR: &str = "bootstrap";

/// Decides who may call what (see the module documentation). Build one per server.
#[derive(Clone)]
pub struct Authenticator {
    store: Option<Arc<dyn Store>>,
    bootstrap: Option<String>,
    cluster: Option<String>,
    public_spectator: bool,
    limiter: Arc<FailureLimiter>,
}

impl std::fmt::Debug for Authenticator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Authenticator")
            .field("operator_tokens_in_store", &self.store.is_some())
            .field("bootstrap_token", &self.bootstrap.is_some())
            .field("cluster_token", &self.cluster.is_some())
            .field("public_spectator", &self.public_spectator)
            .finish()
    }
}

impl Authenticator {
    /// Operators authenticate with tokens kept in `store` (none if `None`); no bootstrap or
    /// cluster token; spectator reads closed.
    pub fn new(store: Option<Arc<dyn Store>>) -> Authenticator {
        Authenticator {
            store,
            bootstrap: None,
            cluster: None,
            public_spectator: false,
            limiter: Arc::new(FailureLimiter::default()),
        }
    }

    /// Also accepts `token` as an operator's (the bootstrap token, e.g. from
    /// `--operator-token-file`).
    pub fn with_bootstrap(mut self, token: Option<&Secret>) -> Authenticator {
        self.bootstrap = token.map(|t| hash_token(t.expose()));
        self
    }

    /// Accepts `token` for cluster methods.
    pub fn with_cluster(mut self, token: Option<&Secret>) -> Authenticator {
        self.cluster = token.map(|t| hash_token(t.expose()));
        self
    }

    /// Opens spectator reads to anyone.
    pub fn public_spectator(mut self, open: bool) -> Authenticator {
        self.public_spectator = open;
        self
    }

    /// Shares `limiter` (e.g. with the bot gateway, so one peer's failures count everywhere).
    pub fn with_limiter(mut self, limiter: Arc<FailureLimiter>) -> Authenticator {
        self.limiter = limiter;
        self
    }

    /// The failed-attempt limiter.
    pub fn limiter(&self) -> &Arc<FailureLimiter> {
        &self.limiter
    }

    /// Whether spectator reads are open to anyone.
    pub fn spectators_public(&self) -> bool {
        self.public_spectator
    }

    /// Decides a call to `path` carrying `headers` from `peer`.
    pub async fn authorize(
        &self,
        path: &str,
        headers: &http::HeaderMap,
        peer: Option<IpAddr>,
    ) -> Result<Caller, Status> {
        let needed = access(path);
        match needed {
            Access::Public => return Ok(Caller::Anonymous),
            Access::Spectator if self.public_spectator => return Ok(Caller::Anonymous),
            Access::Spectator | Access::Operator | Access::Cluster => {}
        }
        if let Err(wait) = self.limiter.check(peer) {
            return Err(too_many_attempts(wait));
        }
        let token = match bearer(headers) {
            Ok(t) => t,
            Err(why) => {
                return Err(unauthenticated(format!("{why}: {}", what_to_send(needed))));
            }
        };
        let verdict = if needed == Access::Cluster {
            self.check_cluster(token)
        } else {
            self.check_operator(token).await
        };
        match verdict {
            Ok(caller) => Ok(caller),
            Err(Refusal::Status(s)) => Err(s),
            Err(Refusal::BadToken(status)) => match self.limiter.failed(peer) {
                Ok(()) => Err(status),
                Err(wait) => Err(too_many_attempts(wait)),
            },
        }
    }

    fn check_cluster(&self, token: &str) -> Result<Caller, Refusal> {
        let Some(hash) = &self.cluster else {
            return Err(Refusal::Status(permission_denied(
                "this server has no cluster token configured, so nobody may call its cluster \
                 methods (give it --cluster-token-file)",
            )));
        };
        if token_matches(token, hash) {
            Ok(Caller::Cluster)
        } else {
            Err(Refusal::BadToken(unauthenticated(
                "the cluster token is not valid",
            )))
        }
    }

    async fn check_operator(&self, token: &str) -> Result<Caller, Refusal> {
        if operators::parse(token).is_some() {
            if let Some(store) = &self.store {
                return match operators::verify(&**store, token).await {
                    Ok(Some(name)) => Ok(Caller::Operator(name)),
                    Ok(None) => Err(Refusal::BadToken(invalid_operator())),
                    Err(e) => Err(Refusal::Status(Status::unavailable(format!(
                        "cannot check the operator token: {e}"
                    )))),
                };
            }
            return Err(Refusal::BadToken(invalid_operator()));
        }
        if let Some(hash) = &self.bootstrap
            && token_matches(token, hash)
        {
            return Ok(Caller::Operator(BOOTSTRAP_OPERATOR.into()));
        }
        if let Some(hash) = &self.cluster
            && token_matches(token, hash)
        {
            return Err(Refusal::Status(permission_denied(
                "the cluster token opens seats on bot-host only; this method needs an operator token",
            )));
        }
        Err(Refusal::BadToken(invalid_operator()))
    }
}

enum Refusal {
    /// A refusal that is not a failed guess (not counted against the peer).
    Status(Status),
    /// A token that did not match: counted against the peer.
    BadToken(Status),
}

fn invalid_operator() -> Status {
    unauthenticated(
        "the operator token is not valid (unknown, revoked or mistyped); `arena operators add NAME` issues one",
    )
}

fn what_to_send(access: Access) -> &'static str {
    match access {
        Access::Cluster => {
            "this method is for the cluster's own roles: send `authorization: Bearer <cluster token>`"
        }
        _ => {
            "this method is for operators: send `authorization: Bearer <operator token>` \
             (`arena operators add NAME`, the bootstrap token, or ARENA_OPERATOR_TOKEN for the CLI)"
        }
    }
}

/// The token of an `authorization: Bearer <token>` header; `Err` says what is wrong with it
/// (never quoting it).
pub fn bearer(headers: &http::HeaderMap) -> Result<&str, &'static str> {
    let value = headers
        .get(http::header::AUTHORIZATION)
        .ok_or("missing `authorization` metadata")?;
    let text = value
        .to_str()
        .map_err(|_| "the authorization metadata is not text")?;
    let (scheme, token) = text
        .trim()
        .split_once(' ')
        .ok_or("the authorization metadata must be `Bearer <token>`")?;
    let token = token.trim();
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return Err("the authorization metadata must be `Bearer <token>`");
    }
    Ok(token)
}

/// The peer address of a request, as tonic records it: in a [`TcpConnectInfo`], or inside the
/// [`TlsConnectInfo`] of a TLS port (tonic 0.14 records both for TLS connections; the second is
/// looked at in case only it is there).
pub fn peer_ip(extensions: &http::Extensions) -> Option<IpAddr> {
    extensions
        .get::<TcpConnectInfo>()
        .or_else(|| {
            extensions
                .get::<TlsConnectInfo<TcpConnectInfo>>()
                .map(TlsConnectInfo::get_ref)
        })
        .and_then(|i| i.remote_addr())
        .map(|a| a.ip())
}

/// The tower layer running an [`Authenticator`] in front of every service of a server.
#[derive(Clone, Debug)]
pub struct AuthLayer {
    auth: Arc<Authenticator>,
}

impl AuthLayer {
    /// A layer deciding with `auth`.
    pub fn new(auth: Authenticator) -> AuthLayer {
        AuthLayer {
            auth: Arc::new(auth),
        }
    }
}

impl<S> tower::Layer<S> for AuthLayer {
    type Service = AuthService<S>;

    fn layer(&self, inner: S) -> AuthService<S> {
        AuthService {
            auth: Arc::clone(&self.auth),
            inner,
        }
    }
}

/// The service [`AuthLayer`] wraps around a server's routes.
#[derive(Clone, Debug)]
pub struct AuthService<S> {
    auth: Arc<Authenticator>,
    inner: S,
}

type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

impl<S> tower::Service<http::Request<Body>> for AuthService<S>
where
    S: tower::Service<http::Request<Body>, Response = http::Response<Body>>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = S::Error;
    type Future = BoxFuture<Result<http::Response<Body>, S::Error>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<Body>) -> Self::Future {
        // The clone is the one polled ready; keep it for this call (tower's usual dance).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let auth = Arc::clone(&self.auth);
        Box::pin(async move {
            let path = req.uri().path().to_string();
            let peer = peer_ip(req.extensions());
            match auth.authorize(&path, req.headers(), peer).await {
                Ok(caller) => {
                    if let Caller::Operator(name) = &caller {
                        tracing::info!(operator = %name, method = %path, "operator call");
                    }
                    req.extensions_mut().insert(caller);
                    inner.call(req).await
                }
                Err(status) => {
                    tracing::info!(method = %path, peer = ?peer, code = ?status.code(), "call refused");
                    Ok(status.into_http())
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(v: Option<&str>) -> http::HeaderMap {
        let mut h = http::HeaderMap::new();
        if let Some(v) = v {
            h.insert(http::header::AUTHORIZATION, v.parse().unwrap());
        }
        h
    }

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
    }

    #[test]
    fn bearer_tokens_are_read_and_anything_else_refused() {
        assert_eq!(bearer(&headers(Some("Bearer abc"))).unwrap(), "abc");
        assert_eq!(bearer(&headers(Some("bearer   abc  "))).unwrap(), "abc");
        for bad in ["abc", "Basic abc", "Bearer ", "Bearer"] {
            assert!(bearer(&headers(Some(bad))).is_err(), "{bad}");
        }
        assert!(bearer(&headers(None)).is_err());
    }

    #[test]
    fn each_access_class_asks_for_its_own_credential() {
        let boot = Secret::new("boot-token");
        let cluster = Secret::new("cluster-token");
        let auth = Authenticator::new(None)
            .with_bootstrap(Some(&boot))
            .with_cluster(Some(&cluster));
        let rt = rt();
        let call =
            |path: &str, h: Option<&str>| rt.block_on(auth.authorize(path, &headers(h), None));
        let create = "/arena.v1.Matchmaker/CreateCompetition";
        let standings = "/arena.v1.Matchmaker/GetStandings";
        let seat = "/arena.v1.SeatHost/Seat";
        assert_eq!(
            call("/grpc.health.v1.Health/Check", None).unwrap(),
            Caller::Anonymous
        );
        assert_eq!(
            call(create, None).unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
        assert_eq!(
            call(create, Some("Bearer nope")).unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
        assert_eq!(
            call(create, Some("Bearer boot-token")).unwrap(),
            Caller::Operator(BOOTSTRAP_OPERATOR.into())
        );
        assert_eq!(
            call(standings, None).unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
        assert_eq!(
            call(create, Some("Bearer cluster-token"))
                .unwrap_err()
                .code(),
            tonic::Code::PermissionDenied
        );
        assert_eq!(
            call(seat, Some("Bearer cluster-token")).unwrap(),
            Caller::Cluster
        );
        assert_eq!(
            call(seat, Some("Bearer boot-token")).unwrap_err().code(),
            tonic::Code::Unauthenticated
        );
        let open = auth.clone().public_spectator(true);
        assert_eq!(
            rt.block_on(open.authorize(standings, &headers(None), None))
                .unwrap(),
            Caller::Anonymous
        );
        assert_eq!(
            rt.block_on(open.authorize(create, &headers(None), None))
                .unwrap_err()
                .code(),
            tonic::Code::Unauthenticated
        );
        let no_cluster = Authenticator::new(None);
        assert_eq!(
            rt.block_on(no_cluster.authorize(seat, &headers(Some("Bearer x")), None))
                .unwrap_err()
                .code(),
            tonic::Code::PermissionDenied
        );
    }

    #[test]
    fn failed_attempts_are_limited_per_peer_before_any_token_is_checked() {
        let boot = Secret::new("boot-token");
        let auth = Authenticator::new(None)
            .with_bootstrap(Some(&boot))
            .with_limiter(Arc::new(FailureLimiter::new(
                2,
                std::time::Duration::from_secs(3600),
            )));
        let rt = rt();
        let peer: IpAddr = "192.0.2.7".parse().unwrap();
        let other: IpAddr = "192.0.2.8".parse().unwrap();
        let path = "/arena.v1.DealLibrary/Export";
        let try_with = |token: &str, from: IpAddr| {
            rt.block_on(auth.authorize(
                path,
                &headers(Some(&format!("Bearer {token}"))),
                Some(from),
            ))
        };
        for _ in 0..2 {
            assert_eq!(
                try_with("guess", peer).unwrap_err().code(),
                tonic::Code::Unauthenticated
            );
        }
        let e = try_with("guess", peer).unwrap_err();
        assert_eq!(e.code(), tonic::Code::ResourceExhausted, "{e:?}");
        // Even the right token waits now; another peer is not affected.
        assert_eq!(
            try_with("boot-token", peer).unwrap_err().code(),
            tonic::Code::ResourceExhausted
        );
        assert!(try_with("boot-token", other).is_ok());
    }
}
