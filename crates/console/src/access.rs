//! Who may see what in the console: the gRPC policy, applied to HTTP.
//!
//! Every console route reads or does what one gRPC method does, and is granted exactly when a
//! call of that method would be ([`Route::method`], decided by the role's
//! [`arena_auth::Authenticator`]): competitions, standings, replays and the leaderboard are
//! spectator reads (anyone, when the operator opened them with `--public-spectator`; operators
//! otherwise); the deal library, creating and cancelling are for operators.
//!
//! A request carries the operator token as `authorization: Bearer <token>` (scripts), or in the
//! login cookie the login form sets (browsers: `EventSource` cannot send headers). The cookie is
//! `HttpOnly` (page scripts cannot read it, so injected script cannot steal the token),
//! `SameSite=Strict` (another site's page cannot make the browser send it: no cross-site request
//! forgery), and lives for the browser session only; a request that changes something must also
//! be JSON and same-origin (see [`same_origin`]). The token is checked on every request, so a
//! revoked operator token stops working at once.
//!
//! Cookies are not kept apart by port: a page served from any other port of the console's host
//! may set ("toss") cookies the browser then sends to the console. So the cookie's name is
//! unique to the store ([`CookieKey`]) and its value is signed with a key kept in the store: a
//! cookie the console did not make fails the signature and is ignored, never checked as a token
//! (which would count as a failed sign-in and lock the operator out), and a tossed cookie sent
//! before the real one does not hide it.

use std::net::{IpAddr, SocketAddr};

use arena_auth::Caller;
use arena_store::Store;
use http::{HeaderMap, HeaderValue, header};

use crate::api::Failure;

/// The start of the login cookie's name; [`CookieKey::name`] adds the store's own suffix.
pub const COOKIE: &str = "arena_operator";

/// The record (kind, key) the cookie signing key is kept under: shared by every matchmaker
/// replica on the store, so a cookie one signed is good at all of them.
pub const COOKIE_KEY_RECORD: (&str, &str) = ("console", "cookie-key");

/// The key the login cookie is signed with, and the cookie's name.
#[derive(Clone)]
pub struct CookieKey {
    key: Vec<u8>,
    name: String,
}

impl std::fmt::Debug for CookieKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CookieKey")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl CookieKey {
    /// The key `key`; the cookie's name is [`COOKIE`] and a digest of the key, so consoles on
    /// different stores (two standalones on one host) do not overwrite each other's cookie.
    pub fn new(key: &[u8]) -> CookieKey {
        let tag = arena_auth::token::mac(key, b"cookie name");
        CookieKey {
            key: key.to_vec(),
            name: format!("{COOKIE}_{}", &tag[..10]),
        }
    }

    /// The store's key, made (at random) by the first console that asks for it.
    pub async fn load(store: &dyn Store) -> Result<CookieKey, String> {
        let (kind, key) = COOKIE_KEY_RECORD;
        if let Some(k) = store.record(kind, key).await.map_err(|e| e.to_string())? {
            return Ok(CookieKey::new(&k));
        }
        let fresh = arena_auth::token::random_text(32).map_err(|e| e.to_string())?;
        // Two consoles racing to make it keep the one stored first.
        store
            .swap_record(kind, key, None, fresh.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        match store.record(kind, key).await.map_err(|e| e.to_string())? {
            Some(k) => Ok(CookieKey::new(&k)),
            None => Err("the console's cookie key vanished from the store".into()),
        }
    }

    /// The login cookie's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The cookie value holding `token`: its signature, a colon, the token.
    pub fn sign(&self, token: &str) -> String {
        format!(
            "{}:{token}",
            arena_auth::token::mac(&self.key, token.as_bytes())
        )
    }

    /// The token of a cookie value this key signed; `None` for any other value.
    pub fn verify<'a>(&self, value: &'a str) -> Option<&'a str> {
        let (tag, token) = value.split_once(':')?;
        arena_auth::token::mac_matches(&self.key, token.as_bytes(), tag).then_some(token)
    }

    /// The `Set-Cookie` value that stores `token` for the browser session.
    pub fn login_cookie(&self, token: &str, secure: bool) -> String {
        format!(
            "{}={}; Path=/; HttpOnly; SameSite=Strict{}",
            self.name,
            self.sign(token),
            if secure { "; Secure" } else { "" }
        )
    }

    /// The `Set-Cookie` value that forgets the token.
    pub fn logout_cookie(&self) -> String {
        format!(
            "{}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0",
            self.name
        )
    }
}

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

/// The operator token a request carries: its bearer header, else the first login cookie that
/// `key` signed (any other cookie is ignored).
pub fn credentials(headers: &HeaderMap, key: &CookieKey) -> HeaderMap {
    let mut out = HeaderMap::new();
    if let Some(v) = headers.get(header::AUTHORIZATION) {
        out.insert(header::AUTHORIZATION, v.clone());
        return out;
    }
    if let Some(token) = cookies(headers, key.name()).find_map(|v| key.verify(v))
        && let Ok(v) = HeaderValue::from_str(&format!("Bearer {token}"))
    {
        out.insert(header::AUTHORIZATION, v);
    }
    out
}

/// Every value of cookie `name` the request sent, in the order sent.
pub fn cookies<'a>(headers: &'a HeaderMap, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .filter(move |(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Where the login form sends the browser once signed in: `next` when it is one of the
/// console's own pages (a path of [`crate::assets::PAGES`], with its query), else `/`. Only
/// plain printable characters are let through: browsers drop tabs and newlines from a URL and
/// read a backslash as `/`, so `next=/%09/evil` or `next=/%5Cevil` would land on another site.
pub fn landing(next: &str) -> &str {
    let path = next.split(['?', '#']).next().unwrap_or_default();
    let plain = next.bytes().all(|b| b.is_ascii_graphic() && b != b'\\');
    if plain && crate::assets::PAGES.contains(&path) {
        next
    } else {
        "/"
    }
}

/// Whether a request's `Host` names this console: loopback (`localhost`, a loopback address),
/// the address it listens on (any address of the host when it listens on all), or a name in
/// `allowed`. A web page whose own name an attacker pointed at the console's address (DNS
/// rebinding) sends its own name and is refused. Requests without a `Host` (no browser sends
/// one) pass.
pub fn host_allowed(headers: &HeaderMap, listen: Option<SocketAddr>, allowed: &[String]) -> bool {
    let Some(host) = headers.get(header::HOST) else {
        return true;
    };
    let Ok(host) = host.to_str() else {
        return false;
    };
    let name = host_name(host);
    if let Ok(ip) = name.parse::<IpAddr>() {
        return ip.is_loopback() || listen.is_none_or(|l| l.ip().is_unspecified() || l.ip() == ip);
    }
    let name = name.trim_end_matches('.');
    name.eq_ignore_ascii_case("localhost")
        || allowed.iter().any(|a| {
            host_name(a)
                .trim_end_matches('.')
                .eq_ignore_ascii_case(name)
        })
}

/// The name of a `Host` value, without its port (and an IPv6 address without its brackets).
fn host_name(host: &str) -> &str {
    let host = host.trim();
    if let Some(rest) = host.strip_prefix('[') {
        return rest.split(']').next().unwrap_or_default();
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
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
    /// Decides a request for `route` from `peer`: the caller (an operator whenever the request
    /// carries a good operator token), or the refusal as an HTTP answer. A request granted
    /// without a token counts against its address's public allowance
    /// ([`crate::public::PublicLimiter`]).
    pub async fn authorize(
        &self,
        route: Route,
        headers: &HeaderMap,
        peer: IpAddr,
    ) -> Result<Caller, Failure> {
        let key = self.cookie_key().await?;
        let sent = credentials(headers, &key);
        let caller = self
            .auth
            .authorize(route.method(), &sent, Some(peer))
            .await
            .map_err(|s| Failure::from_status(&s))?;
        if !matches!(caller, Caller::Anonymous) {
            return Ok(caller);
        }
        // A route open to anyone (`--public-spectator`) grants without looking at the token:
        // an operator who sent one is an operator all the same (not limited as the public is,
        // shown what operators are shown).
        if !sent.is_empty()
            && let Ok(operator @ Caller::Operator(_)) = self
                .auth
                .authorize(Route::Login.method(), &sent, Some(peer))
                .await
        {
            return Ok(operator);
        }
        self.public_requests.check(peer)?;
        Ok(Caller::Anonymous)
    }

    /// The store's cookie key, read (or made) once.
    pub async fn cookie_key(&self) -> Result<std::sync::Arc<CookieKey>, Failure> {
        self.cookie_key
            .get_or_try_init(|| async {
                CookieKey::load(&*self.store)
                    .await
                    .map(std::sync::Arc::new)
                    .map_err(|e| {
                        Failure::new(
                            http::StatusCode::SERVICE_UNAVAILABLE,
                            format!("the console's cookie key: {e}"),
                        )
                    })
            })
            .await
            .cloned()
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
        let key = CookieKey::new(b"k");
        let signed = |t: &str| format!("{}={}", key.name(), key.sign(t));
        let both = headers(&[
            ("authorization", "Bearer from-header"),
            ("cookie", &signed("from-cookie")),
        ]);
        assert_eq!(
            credentials(&both, &key)["authorization"],
            "Bearer from-header"
        );
        let cookie_only = headers(&[("cookie", &format!("theme=dark; {}; x=y", signed("tok-1")))]);
        assert_eq!(
            credentials(&cookie_only, &key)["authorization"],
            "Bearer tok-1"
        );
        assert!(credentials(&headers(&[("cookie", "other=1")]), &key).is_empty());
    }

    #[test]
    fn a_tossed_cookie_is_ignored_and_does_not_hide_the_real_one() {
        let key = CookieKey::new(b"the store's key");
        let name = key.name().to_string();
        let real = format!("{name}={}", key.sign("aop.1.good"));
        // Another port of the host planted cookies on a narrower path: browsers send those first.
        for tossed in [
            format!("{name}=aop.1.bad"),
            format!("{name}=forged:aop.1.bad"),
            format!(
                "{name}={}",
                CookieKey::new(b"another key").sign("aop.1.bad")
            ),
            format!("{COOKIE}=aop.1.bad"),
        ] {
            let h = headers(&[("cookie", &format!("{tossed}; {real}"))]);
            assert_eq!(credentials(&h, &key)["authorization"], "Bearer aop.1.good");
            let alone = headers(&[("cookie", &tossed)]);
            assert!(credentials(&alone, &key).is_empty(), "{tossed}");
        }
        assert_ne!(key.name(), CookieKey::new(b"another key").name());
    }

    #[test]
    fn sign_in_lands_only_on_the_consoles_own_pages() {
        for good in [
            "/",
            "/competition?name=c%201",
            "/replay?table=t#5",
            "/deals",
        ] {
            assert_eq!(landing(good), good);
        }
        for bad in [
            "//evil.example",
            "/\tevil",
            "/\t/evil.example",
            "/\\evil.example",
            "/\n/evil",
            "https://evil.example/",
            "/%2F/evil",
            "javascript:alert(1)",
            "/nowhere",
            "",
        ] {
            assert_eq!(landing(bad), "/", "{bad:?}");
        }
    }

    #[test]
    fn only_hosts_naming_the_console_are_allowed() {
        let host = |v: &str| headers(&[("host", v)]);
        let listen: SocketAddr = "127.0.0.1:8054".parse().unwrap();
        let allowed = vec!["arena.example.org".to_string()];
        for good in [
            "127.0.0.1:8054",
            "localhost:8054",
            "LOCALHOST",
            "[::1]:8054",
            "arena.example.org",
            "Arena.Example.Org:443",
        ] {
            assert!(host_allowed(&host(good), Some(listen), &allowed), "{good}");
        }
        for bad in [
            "evil.example:8054",
            "10.0.0.7:8054",
            "localhost.evil.example",
            "arena.example.org.evil",
        ] {
            assert!(!host_allowed(&host(bad), Some(listen), &allowed), "{bad}");
        }
        let everywhere: SocketAddr = "0.0.0.0:8054".parse().unwrap();
        assert!(host_allowed(&host("10.0.0.7:8054"), Some(everywhere), &[]));
        assert!(!host_allowed(&host("evil.example"), Some(everywhere), &[]));
        assert!(host_allowed(&HeaderMap::new(), Some(listen), &[]));
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
