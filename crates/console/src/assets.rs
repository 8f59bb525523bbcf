//! The pages: plain HTML, CSS and JavaScript in `crates/console/assets/`, compiled into the
//! binary (`include_str!`), so `cargo build` is the whole front-end build and a fresh clone
//! needs no npm step. Every page path serves the same document; `app.js` renders the page its
//! path names from the JSON routes. The content security policy lets the pages run only these
//! scripts (no inline script, nothing from elsewhere), so a bot name that slipped into markup
//! still could not run.

use axum::Router;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// The page paths, each rendered by `app.js`.
pub const PAGES: [&str; 8] = [
    "/",
    "/competition",
    "/replay",
    "/ladder",
    "/bots",
    "/deals",
    "/deal",
    "/login",
];

/// The files under `/assets/`: name, content type, content.
pub const FILES: [(&str, &str, &str); 6] = [
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("../assets/app.css"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "charts.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/charts.js"),
    ),
    (
        "replay.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/replay.js"),
    ),
    (
        "ddz.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/ddz.js"),
    ),
    (
        "mahjong.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/mahjong.js"),
    ),
];

const INDEX: &str = include_str!("../assets/index.html");

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

fn hardened(mut r: Response) -> Response {
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    r
}

fn page() -> Response {
    hardened(([(header::CONTENT_TYPE, "text/html; charset=utf-8")], INDEX).into_response())
}

/// The pages and their files.
pub fn router() -> Router {
    let mut r = Router::new();
    for p in PAGES {
        r = r.route(p, get(|| async { page() }));
    }
    for (name, mime, body) in FILES {
        r =
            r.route(
                &format!("/assets/{name}"),
                get(move || async move {
                    hardened(([(header::CONTENT_TYPE, mime)], body).into_response())
                }),
            );
    }
    r.fallback(|| async {
        hardened((StatusCode::NOT_FOUND, "no such page of the arena console").into_response())
    })
}
