//! The pages: plain HTML, CSS and JavaScript in `crates/console/assets/`, compiled into the
//! binary (`include_str!`), so `cargo build` is the whole front-end build and a fresh clone
//! needs no npm step. Every page path serves the same document; `app.js` renders the page its
//! path names from the JSON routes. Each game's replay renderer comes with the game, from its
//! registration ([`arena_games::Game::renderer`]). The content security policy lets the pages run only these
//! scripts (no inline script, nothing from elsewhere), so a bot name that slipped into markup
//! still could not run.

use std::sync::LazyLock;

use arena_games::{GameKind, Renderer};
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
pub const FILES: [(&str, &str, &str); 4] = [
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
];

/// The binary files: path, content type, content. The icon answers both the page's link and
/// the `/favicon.ico` browsers ask for on their own. (A game's fonts and images are its own
/// assets, [`arena_games::Game::assets`], served under `/assets/games/<name>/`.)
pub const BINARY: [(&str, &str, &[u8]); 2] = [
    (
        "/favicon.svg",
        "image/svg+xml",
        include_bytes!("../assets/favicon.svg"),
    ),
    (
        "/favicon.ico",
        "image/svg+xml",
        include_bytes!("../assets/favicon.svg"),
    ),
];

/// Where a game's asset is served.
fn asset_path(game: GameKind, file: &str) -> String {
    format!("/assets/games/{}/{file}", game.name())
}

/// The document every page path serves, its `<!-- game renderers -->` line replaced by one
/// script per registered game (each game's renderer, served under `/assets/games/`), a link to
/// each stylesheet among the games' assets, and a JSON block listing the registered games
/// (name, title, seats, whether it has a ladder, its competitions' fields with their defaults)
/// that the pages read for titles, tabs and the creation form. A data block (`application/json`) is not
/// run, so the content security policy needs no exception for it.
static INDEX: LazyLock<String> = LazyLock::new(|| {
    let mut scripts: String = GameKind::all()
        .map(|g| {
            format!(
                "<script src=\"/assets/games/{}\" defer></script>\n",
                g.renderer().file
            )
        })
        .collect();
    for g in GameKind::all() {
        for a in g
            .assets()
            .iter()
            .filter(|a| a.content_type.starts_with("text/css"))
        {
            scripts += &format!(
                "<link rel=\"stylesheet\" href=\"{}\">\n",
                asset_path(g, a.file)
            );
        }
    }
    let games: Vec<serde_json::Value> = GameKind::all()
        .map(|g| {
            let view = g.competition_view();
            serde_json::json!({
                "name": g.name(),
                "title": g.title(),
                "seats": g.seat_count(),
                "ladder": g.ladder().is_some(),
                "competitions": serde_json::json!({
                    "mean_heading": view.mean_heading,
                    "ranking_rule": view.ranking_rule,
                    "placement": view.placement,
                    "placement_phrase": view.placement_phrase,
                    "summary": view.summary,
                    "drawn": view.drawn,
                }),
                "ladder_group": g.ladder().map(|l| l.group_size()),
                "fields": g.competition_fields().iter().map(|f| serde_json::json!({
                    "name": f.name,
                    "help": f.help,
                    "default": f.default,
                    "switch": f.switch,
                    "choices": f.choices,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    // `<` escaped: no title can close the block.
    let games = serde_json::Value::from(games)
        .to_string()
        .replace('<', "\\u003c");
    scripts += &format!("<script id=\"arena-games\" type=\"application/json\">{games}</script>\n");
    include_str!("../assets/index.html").replace("<!-- game renderers -->\n", &scripts)
});

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; \
                   frame-ancestors 'none'";

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
    hardened(
        (
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            INDEX.as_str(),
        )
            .into_response(),
    )
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
    for game in GameKind::all() {
        let Renderer { file, source } = game.renderer();
        r = r.route(
            &format!("/assets/games/{file}"),
            get(move || async move {
                hardened(
                    (
                        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                        source,
                    )
                        .into_response(),
                )
            }),
        );
    }
    for game in GameKind::all() {
        for asset in game.assets() {
            let (mime, body) = (asset.content_type, asset.bytes);
            r = r.route(
                &asset_path(game, asset.file),
                get(move || async move {
                    hardened(([(header::CONTENT_TYPE, mime)], body).into_response())
                }),
            );
        }
    }
    for (path, mime, body) in BINARY {
        r =
            r.route(
                path,
                get(move || async move {
                    hardened(([(header::CONTENT_TYPE, mime)], body).into_response())
                }),
            );
    }
    r.fallback(|| async {
        hardened((StatusCode::NOT_FOUND, "no such page of the arena console").into_response())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_lists_every_registered_game_and_loads_its_renderer() {
        let page = &*INDEX;
        let start = page
            .find("<script id=\"arena-games\" type=\"application/json\">")
            .expect("the games block");
        let json = &page[start..];
        let json = &json[json.find('>').unwrap() + 1..json.find("</script>").unwrap()];
        let games: Vec<serde_json::Value> = serde_json::from_str(json).expect("JSON");
        assert_eq!(games.len(), GameKind::all().len());
        for (g, listed) in GameKind::all().zip(&games) {
            assert_eq!(listed["name"], g.name());
            assert_eq!(listed["title"], g.title());
            assert_eq!(listed["seats"], g.seat_count());
            assert_eq!(listed["ladder"], g.ladder().is_some());
            let script = format!("<script src=\"/assets/games/{}\" defer>", g.renderer().file);
            assert!(page.contains(&script), "{script}");
        }
        assert!(!page.contains("<!-- game renderers -->"));
    }
}
