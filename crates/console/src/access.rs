//! Who may see what in the console: the gRPC policy, applied to HTTP.
//!
//! Every console route reads or does what one gRPC method does, and is granted exactly when a
//! call of that method would be ([`Route::method`], decided by the role's
//! [`arena_auth::Authenticator`]): competitions, standings, replays and the leaderboard are
//! spectator reads (anyone, when the operator opened them with `--public-spectator`; operators
//! otherwise); the deal library, creating and cancelling are for operators.
//!
//! A request carries the operator token as `authorization: Bearer <token>` (scripts), or in the
//! [`COOKIE`] cookie the login form sets (browsers: `EventSource` cannot send headers). The
//! cookie is `HttpOnly` (page scripts cannot read it, so injected script cannot steal the token),
//! `SameSite=Strict` (another site's page cannot make the browser send it: no cross-site request
//! forgery), and lives for the browser session only; a request that changes something must also
//! be JSON and same-origin (see [`same_origin`]). The token is checked on every request, so a
//! revoked operator token stops working at once.

use std::net::IpAddr;

use arena_auth::Caller;
use http::{HeaderMap, HeaderValue, header};

use crate::api::Failure;

/// The cookie the login form stores the operator token in.
pub const COOKIE: &str = "arena_operator";

/// What a console route does, as the gRPC method with the same access.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// The list of competitions.
    Competitions,
    /// One competition and its standings.
    Standings,
    /// Live standings.
    Watch,
    /// A competition's finished tables.
    Tables,
    /// One table's replay.
    Replay,
    /// The ladder's leaderboard, and the bots with their ratings.
    Leaderboard,
    /// The deal library (difficulties, and a deal's cards once no competition holds it).
    Deals,
    /// Creating a competition.
    Create,
    /// Cancelling a competition.
    Cancel,
    /// Checking an operator token at login.
    Login,
}

impl Route {
    /// The gRPC method whose access class the route has.
    pub fn method(self) -> &'static str {
        match self {
            Route::Competitions => "/arena.v1.Matchmaker/ListCompetitions",
            Route::Standings => "/arena.v1.Matchmaker/GetStandings",
            Route::Watch => "/arena.v1.Matchmaker/WatchCompetition",
            Route::Tables => "/arena.v1.Matchmaker/ExportReplays",
            Route::Replay => "/arena.v1.Matchmaker/GetReplay",
            Route::Leaderboard => "/arena.v1.Matchmaker/GetLeaderboard",
            Route::Deals => "/arena.v1.DealLibrary/Export",
            Route::Create => "/arena.v1.Matchmaker/CreateCompetition",
            // Login proves the token is an operator's, whatever the spectator setting.
            Route::Cancel | Route::Login => "/arena.v1.Matchmaker/CancelCompetition",
        }
    }
}

/// The operator token a request carries: its bearer header, else the login cookie.
pub fn credentials(headers: &HeaderMap) -> HeaderMap {
    let mut out = HeaderMap::new();
    if let Some(v) = headers.get(header::AUTHORIZATION) {
        out.insert(header::AUTHORIZATION, v.clone());
        return out;
    }
    if let Some(token) = cookie(headers, COOKIE)
        && let Ok(v) = HeaderValue::from_str(&format!("Bearer {token}"))
    {
        out.insert(header::AUTHORIZATION, v);
    }
    out
}

/// The value of cookie `name`, if the request sent one.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The `Set-Cookie` value that stores `token` for the browser session.
pub fn login_cookie(token: &str, secure: bool) -> String {
    format!(
        "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict{}",
        if secure { "; Secure" } else { "" }
    )
}

/// The `Set-Cookie` value that forgets the token.
pub fn logout_cookie() -> String {
    format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
}

/// Whether a request that changes something comes from the console's own pages: when the
/// browser says where it comes from (`Origin`), that is this host. Browsers send `Origin` on
/// every cross-origin POST, so another site's form or script is refused even if a browser
/// ignored `SameSite`; scripts with a bearer token send no `Origin` and are not affected.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let Some(host) = headers.get(header::HOST).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest.trim_end_matches('/') == host)
}

impl crate::Console {
    /// Decides a request for `route` from `peer`: the caller, or the refusal as an HTTP answer.
    pub async fn authorize(
        &self,
        route: Route,
        headers: &HeaderMap,
        peer: IpAddr,
    ) -> Result<Caller, Failure> {
        self.auth
            .authorize(route.method(), &credentials(headers), Some(peer))
            .await
            .map_err(|s| Failure::from_status(&s))
    }

    /// Whether spectator reads are open to anyone.
    pub fn spectators_public(&self) -> bool {
        self.auth.spectators_public()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn a_bearer_header_wins_over_the_cookie_and_the_cookie_becomes_a_bearer_header() {
        let both = headers(&[
            ("authorization", "Bearer from-header"),
            ("cookie", "arena_operator=from-cookie"),
        ]);
        assert_eq!(credentials(&both)["authorization"], "Bearer from-header");
        let cookie_only = headers(&[("cookie", "theme=dark; arena_operator=tok-1; x=y")]);
        assert_eq!(credentials(&cookie_only)["authorization"], "Bearer tok-1");
        assert!(credentials(&headers(&[("cookie", "other=1")])).is_empty());
    }

    #[test]
    fn a_cross_origin_request_is_not_same_origin() {
        let host = ("host", "127.0.0.1:8054");
        assert!(same_origin(&headers(&[host])), "no Origin: a script");
        assert!(same_origin(&headers(&[
            host,
            ("origin", "http://127.0.0.1:8054")
        ])));
        assert!(!same_origin(&headers(&[
            host,
            ("origin", "http://evil.example")
        ])));
        assert!(!same_origin(&headers(&[(
            "origin",
            "http://127.0.0.1:8054"
        )])));
    }

    #[test]
    fn every_route_has_the_access_class_of_its_method() {
        use arena_auth::Access;
        for (route, access) in [
            (Route::Competitions, Access::Spectator),
            (Route::Standings, Access::Spectator),
            (Route::Watch, Access::Spectator),
            (Route::Tables, Access::Spectator),
            (Route::Replay, Access::Spectator),
            (Route::Leaderboard, Access::Spectator),
            (Route::Deals, Access::Operator),
            (Route::Create, Access::Operator),
            (Route::Cancel, Access::Operator),
            (Route::Login, Access::Operator),
        ] {
            assert_eq!(arena_auth::access(route.method()), access, "{route:?}");
        }
    }
}
