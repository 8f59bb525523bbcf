//! The console's JSON routes (under `/api/`), each granted as its gRPC method would be
//! ([`crate::access::Route`]). Errors are JSON too, `{"error": "…"}`, with the HTTP status of
//! the gRPC code (not found 404, refused 401/403, a table still being played 409, …).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use arena_proto::v1;
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::Stream;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::Console;
use crate::access::{self, Route};
use crate::live::Update;
use crate::view;

/// A refused or failed request, as the pages see it.
#[derive(Debug)]
pub struct Failure {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for a person.
    pub message: String,
}

impl Failure {
    /// A failure with `status` saying `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
        }
    }

    /// The HTTP answer to a gRPC status.
    pub fn from_status(s: &tonic::Status) -> Failure {
        use tonic::Code;
        let status = match s.code() {
            Code::InvalidArgument | Code::OutOfRange => StatusCode::BAD_REQUEST,
            Code::NotFound => StatusCode::NOT_FOUND,
            Code::AlreadyExists | Code::FailedPrecondition | Code::Aborted => StatusCode::CONFLICT,
            Code::Unauthenticated => StatusCode::UNAUTHORIZED,
            Code::PermissionDenied => StatusCode::FORBIDDEN,
            Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
            Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
            Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Failure::new(status, s.message())
    }

    fn store(e: arena_store::StoreError) -> Failure {
        Failure::new(StatusCode::SERVICE_UNAVAILABLE, format!("the store: {e}"))
    }
}

impl From<tonic::Status> for Failure {
    fn from(s: tonic::Status) -> Failure {
        Failure::from_status(&s)
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.status, Json(json!({"error": self.message}))).into_response()
    }
}

type Answer = Result<Json<Value>, Failure>;
type Answer2 = Result<Response, Failure>;
type Shared = State<Arc<Console>>;
type Peer = ConnectInfo<SocketAddr>;

/// The JSON routes.
pub fn router(console: Arc<Console>) -> Router {
    Router::new()
        .route("/api/session", get(session))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/competitions", get(competitions).post(create))
        .route("/api/competitions/preparing", get(preparing))
        .route("/api/competition", get(competition))
        .route("/api/competition/live", get(live))
        .route("/api/competition/tables", get(tables))
        .route("/api/competition/cancel", post(cancel))
        .route("/api/replay", get(replay))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/bots", get(bots))
        .route("/api/deals", get(panels))
        .route("/api/deals/points", get(points))
        .route("/api/deal", get(deal))
        .route("/api/{*rest}", get(no_route).post(no_route))
        .layer(axum::middleware::map_response(no_store))
        .with_state(console)
}

async fn no_route() -> Failure {
    Failure::new(StatusCode::NOT_FOUND, "no such console API route")
}

/// Answers of the API hold results and credentials' effects: never cached.
async fn no_store(mut r: Response) -> Response {
    r.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    r
}

/// Whether the caller is an operator and whether spectator reads are public: what the pages
/// offer (a login form, the operator actions).
async fn session(State(c): Shared, ConnectInfo(peer): Peer, headers: HeaderMap) -> Answer2 {
    let key = c.cookie_key().await?;
    let sent = !access::credentials(&headers, &key).is_empty();
    let checked = if sent {
        Some(c.authorize(Route::Login, &headers, peer.ip()).await)
    } else {
        None
    };
    let operator = matches!(checked, Some(Ok(_)));
    let mut r = Json(json!({
        "operator": operator,
        "public_spectator": c.spectators_public(),
    }))
    .into_response();
    // A cookie whose token no longer works (revoked, or the store's operators changed) is
    // dropped, so that it does not count as a failed attempt on every page.
    if matches!(&checked, Some(Err(f)) if f.status == StatusCode::UNAUTHORIZED)
        && headers.get(header::AUTHORIZATION).is_none()
        && let Ok(v) = header::HeaderValue::from_str(&key.logout_cookie())
    {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(r)
}

#[derive(Deserialize)]
struct Login {
    token: String,
    /// The page the browser asked for before it was sent to sign in.
    #[serde(default)]
    next: String,
}

/// Checks an operator token and stores it in the session cookie; says where the browser goes
/// next (`next` when it is one of the console's pages: [`access::landing`]).
async fn login(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Json(body): Json<Login>,
) -> Result<Response, Failure> {
    if !access::same_origin(&headers) {
        return Err(cross_origin());
    }
    let token = body.token.trim();
    // Tokens are URL-safe text; anything else could not travel in a cookie unchanged.
    if token.is_empty()
        || !token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.~+/=".contains(&b))
    {
        return Err(Failure::new(
            StatusCode::BAD_REQUEST,
            "that is not an operator token (letters, digits and - _ . only); \
             `arena operators add NAME` issues one, standalone keeps one in <data-dir>/operator.token",
        ));
    }
    let mut probe = HeaderMap::new();
    if let Ok(v) = header::HeaderValue::from_str(&format!("Bearer {token}")) {
        probe.insert(header::AUTHORIZATION, v);
    }
    let caller = c.authorize(Route::Login, &probe, peer.ip()).await?;
    let key = c.cookie_key().await?;
    let secure = headers
        .get("x-forwarded-proto")
        .is_some_and(|v| v.as_bytes() == b"https");
    let name = match caller {
        arena_auth::Caller::Operator(name) => name,
        other => format!("{other:?}"),
    };
    let mut r =
        Json(json!({"operator": name, "next": access::landing(&body.next)})).into_response();
    if let Ok(v) = header::HeaderValue::from_str(&key.login_cookie(token, secure)) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(r)
}

async fn logout(State(c): Shared) -> Answer2 {
    let key = c.cookie_key().await?;
    let mut r = Json(json!({"operator": false})).into_response();
    if let Ok(v) = header::HeaderValue::from_str(&key.logout_cookie()) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    Ok(r)
}

fn cross_origin() -> Failure {
    Failure::new(
        StatusCode::FORBIDDEN,
        "a request from another site's page: the console's own pages only",
    )
}

#[derive(Deserialize)]
struct Named {
    name: String,
}

async fn competitions(State(c): Shared, ConnectInfo(peer): Peer, headers: HeaderMap) -> Answer {
    c.authorize(Route::Competitions, &headers, peer.ip())
        .await?;
    let mut list = c.backend.competitions().await?;
    // Newest first, as the platforms people know list them.
    list.sort_by_key(|c| std::cmp::Reverse(c.created_unix_ms));
    Ok(Json(json!({
        "competitions": list.iter().map(view::competition).collect::<Vec<_>>(),
    })))
}

async fn competition(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<Named>,
) -> Answer {
    c.authorize(Route::Standings, &headers, peer.ip()).await?;
    let comp = c.backend.competition(&q.name).await?;
    let standings = c.backend.standings(&q.name).await?;
    Ok(Json(json!({
        "competition": view::competition(&comp),
        "standings": view::standings(&standings),
    })))
}

/// The competition's standings as server-sent events: `standings` each time they change,
/// then `final` (or `failed`) as the last event.
async fn live(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<Named>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, Failure> {
    c.authorize(Route::Watch, &headers, peer.ip()).await?;
    // A competition that does not exist is a 404 here, not an event stream that fails.
    c.backend.competition(&q.name).await?;
    let rx = c.live.subscribe(&q.name);
    let stopping = c.stopping.clone();
    // The latest standings at once (if the watcher has any yet), then each change; the last
    // event ends the stream, and so does the console shutting down.
    let stream = futures_util::stream::unfold(
        (rx, stopping, true, false),
        |(mut rx, mut stopping, first, done)| async move {
            if done {
                return None;
            }
            if !first {
                tokio::select! {
                    changed = rx.changed() => changed.ok()?,
                    _ = stopping.wait_for(|s| *s) => return None,
                }
            }
            loop {
                let current = rx.borrow_and_update().clone();
                if let Some(u) = current {
                    let (name, data, last) = match u {
                        Update::Standings(j) => ("standings", j, false),
                        Update::Final(j) => ("final", j, true),
                        Update::Failed(why) => ("failed", why, true),
                    };
                    let event = Event::default().event(name).data(data.as_str());
                    return Some((Ok(event), (rx, stopping, false, last)));
                }
                // Nothing yet: wait for the watcher's first standings.
                tokio::select! {
                    changed = rx.changed() => changed.ok()?,
                    _ = stopping.wait_for(|s| *s) => return None,
                }
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

/// Most tables one page of a competition's table list holds.
pub const TABLES_PAGE: usize = 500;

#[derive(Deserialize)]
struct TablesQuery {
    name: String,
    #[serde(default)]
    offset: usize,
    #[serde(default)]
    limit: usize,
}

/// A page of a competition's finished tables, in competition order (match, round, table, side):
/// each with its place and seats, and, when its replay may be shown (every table dealt the same
/// cards has finished: the store's rule the matchmaker applies to `GetReplay`), its final scores.
/// Read from the results (not the replays) and one page at a time, so a competition of a hundred
/// thousand tables costs a page view a page.
async fn tables(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<TablesQuery>,
) -> Answer {
    use prost::Message;
    c.authorize(Route::Tables, &headers, peer.ip()).await?;
    // The matchmaker's answer for a competition it does not have.
    c.backend.competition(&q.name).await?;
    let mut results: Vec<v1::TableResult> = Vec::new();
    for (id, bytes) in c.store.results_for(&q.name).await.map_err(Failure::store)? {
        let r = v1::TableResult::decode(bytes.as_slice()).map_err(|e| {
            Failure::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the result of {id} does not decode: {e}"),
            )
        })?;
        results.push(r);
    }
    let order = |r: &v1::TableResult| {
        let p = r.placement.as_deref().cloned().unwrap_or_default();
        (
            p.match_index,
            p.round,
            p.table,
            p.side,
            p.rotation,
            r.table_id.clone(),
        )
    };
    results.sort_by_cached_key(order);
    let total = results.len();
    let limit = if q.limit == 0 {
        TABLES_PAGE
    } else {
        q.limit.min(TABLES_PAGE)
    };
    let mut shown_groups: BTreeMap<String, bool> = BTreeMap::new();
    let mut rows = Vec::new();
    for r in results.iter().skip(q.offset).take(limit) {
        let group = r
            .labels
            .get(arena_store::visibility::DEAL_GROUP_LABEL)
            .cloned()
            .unwrap_or_default();
        let shown = match shown_groups.get(&group) {
            Some(s) => *s,
            None => {
                let s = arena_store::visibility::may_show(&*c.store, &r.labels)
                    .await
                    .map_err(Failure::store)?
                    .is_ok();
                shown_groups.insert(group, s);
                s
            }
        };
        let seats = match c.store.replay(&r.table_id).await.map_err(Failure::store)? {
            Some(bytes) => SeatsOfReplay::decode(bytes.as_slice())
                .map(|s| s.job.unwrap_or_default().seats)
                .unwrap_or_default(),
            None => Vec::new(),
        };
        rows.push(json!({
            "table_id": r.table_id,
            "seats": seats.into_iter().map(|s| s.bot).collect::<Vec<_>>(),
            // A deal id names the deal's stream and index, from which anyone can deal it again:
            // it is shown with the table's scores, once its deal group has finished.
            "placement": r.placement.as_deref().map(|p| {
                let mut placement = view::placement(p);
                if !shown {
                    placement["deal_id"] = Value::Null;
                }
                placement
            }),
            "shown": shown,
            "final_scores": if shown { view::ints(&r.final_scores) } else { Value::Null },
            "verdicts": if shown { json!(r.verdicts.len()) } else { Value::Null },
            "error": r.error,
        }));
    }
    Ok(Json(json!({
        "competition": q.name,
        "total": total,
        "offset": q.offset,
        "limit": limit,
        "tables": rows,
    })))
}

/// The seats of a stored replay and nothing else: a replay is its job (field 1: the seats are
/// its field 3) and every step of the game; prost skips the fields a message does not name, so
/// a page of 500 tables reads 500 seat lists, not 500 games.
#[derive(Clone, PartialEq, prost::Message)]
struct SeatsOfReplay {
    #[prost(message, optional, tag = "1")]
    job: Option<SeatsOfJob>,
}

/// See [`SeatsOfReplay`].
#[derive(Clone, PartialEq, prost::Message)]
struct SeatsOfJob {
    #[prost(message, repeated, tag = "3")]
    seats: Vec<v1::SeatSpec>,
}

#[derive(Deserialize)]
struct Table {
    table: String,
}

/// A finished table, played again for the replay player ([`crate::replay::frames`]): on the
/// console's render thread, once per table while its frames stay in the cache
/// ([`crate::public::Renderer`]).
async fn replay(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<Table>,
) -> Answer2 {
    c.authorize(Route::Replay, &headers, peer.ip()).await?;
    // A table's replay is shown once every table dealt its cards has finished, and stays shown:
    // frames kept are frames the matchmaker granted.
    let frames = match c.renderer.cached(&q.table) {
        Some(frames) => frames,
        None => {
            let replay = c.backend.replay(&q.table).await?;
            c.renderer
                .render(&q.table, move || {
                    let doc = crate::replay::frames(&replay);
                    bytes::Bytes::from(serde_json::to_vec(&doc).unwrap_or_default())
                })
                .await?
        }
    };
    Ok((
        [(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("application/json"),
        )],
        frames,
    )
        .into_response())
}

#[derive(Deserialize)]
struct GameQuery {
    #[serde(default)]
    game: String,
}

fn game_param(name: &str) -> Result<&str, Failure> {
    view::game_of_name(name).ok_or_else(|| {
        Failure::new(
            StatusCode::BAD_REQUEST,
            format!(
                "game {}: one of {}",
                arena_proto::text::quote(name),
                arena_games::GameKind::names()
            ),
        )
    })
}

async fn leaderboard(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<GameQuery>,
) -> Answer {
    c.authorize(Route::Leaderboard, &headers, peer.ip()).await?;
    let game = game_param(&q.game)?;
    let board = c.backend.leaderboard(game).await?;
    Ok(Json(json!({
        "game": view::game(game),
        "ratings": board.ratings.iter().map(view::rating).collect::<Vec<_>>(),
    })))
}

/// The registered bots, with every release the ladders rated (per game), best first. How a
/// bot runs (its program, limits) is not shown: that is the operator's business, not a
/// spectator's. Anyone but an operator sees only the bots the leaderboards show (as
/// `GetLeaderboard` would): which other names are registered is not the public's to learn.
async fn bots(State(c): Shared, ConnectInfo(peer): Peer, headers: HeaderMap) -> Answer {
    let caller = c.authorize(Route::Leaderboard, &headers, peer.ip()).await?;
    let operator = matches!(caller, arena_auth::Caller::Operator(_));
    let mut releases: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for game in arena_games::GameKind::all()
        .filter(|g| g.ladder().is_some())
        .map(|g| g.name())
    {
        for r in c.backend.leaderboard(game).await?.ratings {
            let mut row = view::rating(&r);
            row["game"] = json!(view::game(game));
            row["history"] = history(&*c.store, game, &r).await?;
            releases.entry(r.bot.clone()).or_default().push(row);
        }
    }
    if !operator {
        let rows: Vec<Value> = releases
            .into_iter()
            .map(|(name, rel)| json!({"name": name, "releases": rel}))
            .collect();
        return Ok(Json(json!({"bots": rows})));
    }
    let registered = c.store.bots().await.map_err(Failure::store)?;
    let mut rows: Vec<Value> = registered
        .iter()
        .map(|b| {
            json!({
                "name": b.name,
                "kind": match b.kind {
                    arena_store::BotKind::Remote => "remote",
                    _ => "program",
                },
                "created_unix_ms": view::int(b.created_unix_ms),
                "max_tables": b.max_tables,
                "releases": releases.remove(&b.name).unwrap_or_default(),
            })
        })
        .collect();
    // Rated bots that are not registered: built-in anchors, or bots removed since.
    for (name, rel) in releases {
        rows.push(json!({"name": name, "kind": "built-in or removed", "releases": rel}));
    }
    Ok(Json(json!({"bots": rows})))
}

/// A release's rating after each game the ladder rated ([`arena_ratings::history`]).
async fn history(
    store: &dyn arena_store::Store,
    game: &str,
    r: &v1::Rating,
) -> Result<Value, Failure> {
    use arena_ratings::history::{HISTORY_KIND, Point, history_key};
    let key = history_key(game, &arena_ratings::key(&r.bot, &r.release));
    let Some(bytes) = store
        .record(HISTORY_KIND, &key)
        .await
        .map_err(Failure::store)?
    else {
        return Ok(json!([]));
    };
    let points: Vec<Point> = serde_json::from_slice(&bytes).map_err(|e| {
        Failure::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the rating history {HISTORY_KIND}/{key} does not decode: {e}"),
        )
    })?;
    Ok(Value::Array(
        points
            .iter()
            .map(|p| {
                json!({
                    "unix_ms": view::int(p.unix_ms),
                    "mu": p.mu,
                    "sigma": p.sigma,
                    "games": view::int(p.games),
                })
            })
            .collect(),
    ))
}

/// The deal library's panels and how many deals each has measured.
async fn panels(State(c): Shared, ConnectInfo(peer): Peer, headers: HeaderMap) -> Answer {
    c.authorize(Route::Deals, &headers, peer.ip()).await?;
    let mut rows = Vec::new();
    for p in c.store.panels().await.map_err(Failure::store)? {
        let deals = c.store.deal_count(&p.id).await.map_err(Failure::store)?;
        rows.push(json!({
            "id": p.id,
            "game": format!("{:?}", p.game),
            "seats": p.seats,
            "scoring": p.scoring,
            "deals": view::int(deals),
        }));
    }
    Ok(Json(json!({"panels": rows})))
}

#[derive(Deserialize)]
struct PointsQuery {
    panel: String,
    #[serde(default)]
    x: usize,
    #[serde(default = "second")]
    y: usize,
}

fn second() -> usize {
    1
}

/// A panel's difficulty distribution over GDI components `x` and `y`: deals on the same point
/// counted together (a panel of N tables measures in steps of 1/N, so a library of any size is at
/// most (N+1)² points), each with how many of them are used or held by a running competition and
/// one of them to link to. No cards.
async fn points(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<PointsQuery>,
) -> Answer {
    c.authorize(Route::Deals, &headers, peer.ip()).await?;
    let held = arena_store::visibility::held_deals(&*c.store)
        .await
        .map_err(Failure::store)?;
    let used = c.store.used_deals().await.map_err(Failure::store)?;
    let deals = c.store.deals(&q.panel).await.map_err(Failure::store)?;
    let dims = deals.iter().map(|d| d.gdi.len()).max().unwrap_or(0);
    /// Deals on one point: where, how many, how many used, how many held, one of them.
    struct Group {
        x: f64,
        y: f64,
        count: u64,
        used: u64,
        held: u64,
        /// A deal no running competition holds (a held one's id would name its stream and
        /// index, from which it can be dealt again).
        example: Option<String>,
    }
    // Keyed by (x, y) in millionths.
    let mut groups: BTreeMap<(i64, i64), Group> = BTreeMap::new();
    for d in &deals {
        let (Some(&x), Some(&y)) = (d.gdi.get(q.x), d.gdi.get(q.y)) else {
            continue;
        };
        let key = ((x * 1e6).round() as i64, (y * 1e6).round() as i64);
        let g = groups.entry(key).or_insert_with(|| Group {
            x,
            y,
            count: 0,
            used: 0,
            held: 0,
            example: None,
        });
        g.count += 1;
        g.used += u64::from(used.contains_key(&d.id));
        if held.contains(&d.id) {
            g.held += 1;
        } else if g.example.is_none() {
            g.example = Some(d.id.clone());
        }
    }
    let points: Vec<Value> = groups
        .into_values()
        .map(|g| {
            json!({
                "x": g.x,
                "y": g.y,
                "count": view::int(g.count),
                "used": view::int(g.used),
                "held": view::int(g.held),
                "example": g.example,
            })
        })
        .collect();
    Ok(Json(json!({
        "panel": q.panel,
        "deals": view::int(deals.len() as u64),
        "dims": dims,
        "x": q.x,
        "y": q.y,
        "points": points,
    })))
}

#[derive(Deserialize)]
struct DealQuery {
    panel: String,
    id: String,
}

/// One deal's measurement: the levels, how many panel tables ended at each, its GDI; its cards
/// only once no running competition holds it (as the deal library's own export).
async fn deal(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<DealQuery>,
) -> Answer {
    c.authorize(Route::Deals, &headers, peer.ip()).await?;
    let d = c
        .store
        .deal(&q.panel, &q.id)
        .await
        .map_err(Failure::store)?
        .ok_or_else(|| {
            Failure::new(
                StatusCode::NOT_FOUND,
                format!(
                    "no deal {} in panel {}",
                    arena_proto::text::quote(&q.id),
                    arena_proto::text::quote(&q.panel)
                ),
            )
        })?;
    let held = arena_store::visibility::held_deals(&*c.store)
        .await
        .map_err(Failure::store)?
        .contains(&d.id);
    let used = c.store.used_deals().await.map_err(Failure::store)?;
    let panel = c.store.panel(&q.panel).await.map_err(Failure::store)?;
    Ok(Json(json!({
        "id": d.id,
        "panel": d.panel,
        "panel_seats": panel.map(|p| p.seats),
        "levels": view::ints(&d.levels),
        "counts": d.counts,
        "gdi": d.gdi,
        // The source would deal a held deal again.
        "source": d.source.as_ref().filter(|_| !held).map(|(s, i)| json!({
            "seed": view::int(s.seed),
            "bombs": s.bombs,
            "index": view::int(*i),
        })),
        "held": held,
        "used_by": used.get(&d.id),
        "deal": if held { Value::Null } else { json!(d.deal) },
    })))
}

/// A competition to create, as the console's form sends it: the fields every competition has,
/// and the game's own options ([`arena_games::Game::competition_fields`], `_` for `-` in their
/// names), which the game reads and completes with its defaults as it does for `arena
/// competition create`; an option the game does not take is refused, so a misspelt one is not
/// silently ignored.
#[derive(Deserialize)]
struct NewCompetition {
    name: String,
    #[serde(default)]
    game: String,
    participants: Vec<String>,
    /// A string of digits (as the pages send every 64-bit integer, [`view::int`]) or a number.
    #[serde(default, deserialize_with = "u64_of_string_or_number")]
    seed: u64,
    #[serde(default)]
    decision_ms: u32,
    #[serde(default)]
    hard_cap_ms: u32,
    #[serde(default)]
    penalty_per_100ms: u32,
    #[serde(default)]
    verdict_policy: String,
    /// The game's options as the form sends them.
    #[serde(flatten)]
    options: BTreeMap<String, Value>,
}

/// The game's options of a form as the game reads them: each value as text (a list
/// comma-separated). What an empty input sends (an empty text or list, 0, false, null) is left
/// out, so the game's default applies.
fn option_values(options: &BTreeMap<String, Value>) -> Result<arena_games::form::Values, Failure> {
    let mut given = arena_games::form::Values::new();
    for (key, value) in options {
        let text = match value {
            Value::Null | Value::Bool(false) => continue,
            Value::Bool(true) => "true".to_string(),
            Value::Number(n) if n.as_f64() == Some(0.0) => continue,
            Value::Number(n) => n.to_string(),
            Value::String(t) if t.trim().is_empty() => continue,
            Value::String(t) => t.trim().to_string(),
            Value::Array(items) if items.is_empty() => continue,
            Value::Array(items) => items
                .iter()
                .map(|i| match i {
                    Value::String(t) => t.trim().to_string(),
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(","),
            Value::Object(_) => {
                return Err(Failure::new(
                    StatusCode::BAD_REQUEST,
                    format!("{}: a value, not an object", arena_proto::text::quote(key)),
                ));
            }
        };
        given.insert(key.replace('_', "-"), text);
    }
    Ok(given)
}

/// A `u64` sent as a string of digits or as a JSON number; an empty string is 0 (unset).
fn u64_of_string_or_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Number(u64),
        Text(String),
    }
    match Either::deserialize(d)? {
        Either::Number(n) => Ok(n),
        Either::Text(t) if t.trim().is_empty() => Ok(0),
        Either::Text(t) => t.trim().parse().map_err(|_| {
            serde::de::Error::custom(format!(
                "{}: not a whole number from 0 to {}",
                arena_proto::text::quote(&t),
                u64::MAX
            ))
        }),
    }
}

impl NewCompetition {
    fn spec(self) -> Result<v1::CompetitionSpec, Failure> {
        let game = game_param(&self.game)?;
        let policy = match self.verdict_policy.as_str() {
            "" => v1::VerdictPolicy::Unspecified,
            "forfeit" => v1::VerdictPolicy::Forfeit,
            "play-on" => v1::VerdictPolicy::PlayOn,
            other => {
                return Err(Failure::new(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "verdict_policy {}: forfeit or play-on",
                        arena_proto::text::quote(other)
                    ),
                ));
            }
        };
        let time = (self.decision_ms, self.hard_cap_ms, self.penalty_per_100ms) != (0, 0, 0);
        let mut spec = v1::CompetitionSpec {
            name: self.name,
            participants: self.participants,
            time: time.then_some(v1::TimeControl {
                decision_ms: self.decision_ms,
                hard_cap_ms: self.hard_cap_ms,
                penalty_per_100ms: self.penalty_per_100ms,
                ..Default::default()
            }),
            verdict_policy: policy as i32,
            seed: self.seed,
            game: game.into(),
            ..Default::default()
        };
        let kind = arena_games::GameKind::from_wire(game)
            .map_err(|e| Failure::new(StatusCode::BAD_REQUEST, e))?;
        kind.competition_spec(&mut spec, &option_values(&self.options)?)
            .map_err(|e| Failure::new(StatusCode::BAD_REQUEST, e))?;
        Ok(spec)
    }
}

/// The operator creates a competition (`CreateCompetition`). One the deal library cannot supply
/// yet (equal-strength, difficulty-adjusted) is prepared as `arena competition create` prepares
/// it: the library finds the missing deals, then the console creates it (202, `preparing`: its
/// page follows it on `/api/competitions/preparing`).
async fn create(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Json(body): Json<NewCompetition>,
) -> Result<Response, Failure> {
    if !access::same_origin(&headers) {
        return Err(cross_origin());
    }
    c.authorize(Route::Create, &headers, peer.ip()).await?;
    let spec = body.spec()?;
    let refused = match c.backend.create(spec.clone()).await {
        Ok(comp) => {
            // What it was created despite (a participant not connected), for the form to show.
            return Ok(Json(json!({
                "competition": view::competition(&comp),
                "warnings": comp.warnings,
            }))
            .into_response());
        }
        Err(s) => s,
    };
    if refused.code() != tonic::Code::FailedPrecondition
        || !refused
            .message()
            .contains(arena_deals::wanted::NOT_ENOUGH_DEALS)
    {
        return Err(refused.into());
    }
    let Some(library) = c.library.clone() else {
        return Err(Failure::new(
            StatusCode::CONFLICT,
            format!(
                "{} (this console knows no deal library to ask: start the matchmaker with \
                 --deal-library URL)",
                refused.message()
            ),
        ));
    };
    let wanted = arena_deals::wanted::wanted(&spec)
        .map_err(|e| Failure::new(StatusCode::BAD_REQUEST, e))?
        .ok_or_else(|| Failure::from_status(&refused))?;
    let authorization = access::credentials(&headers, &*c.cookie_key().await?)
        .get(header::AUTHORIZATION)
        .cloned();
    let first = c
        .preparations
        .start(library, c.backend.clone(), spec, wanted, authorization)
        .map_err(|why| match why {
            crate::prepare::Refused::Running => Failure::new(
                StatusCode::CONFLICT,
                "the deals of a competition of that name are being found already",
            ),
            crate::prepare::Refused::Busy => Failure::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "{} competitions are waiting for their deals already; create this one \
                     when one of them is done",
                    crate::prepare::MAX_RUNNING
                ),
            ),
        })?;
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({"preparing": first.json()})),
    )
        .into_response())
}

#[derive(Deserialize)]
struct PreparingQuery {
    name: String,
    /// The version the page has: the answer waits (a while) for a later one.
    #[serde(default, deserialize_with = "u64_of_string_or_number")]
    seen: u64,
}

/// Where the preparation of competition `name` is (operators): at once when it has changed
/// since version `seen`, else when it next changes (or after [`crate::prepare::NEWS_WAIT`],
/// unchanged).
async fn preparing(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Query(q): Query<PreparingQuery>,
) -> Answer {
    c.authorize(Route::Create, &headers, peer.ip()).await?;
    let mut rx = c.preparations.get(&q.name).ok_or_else(|| {
        Failure::new(
            StatusCode::NOT_FOUND,
            format!(
                "no competition {} is waiting for its deals here",
                arena_proto::text::quote(&q.name)
            ),
        )
    })?;
    let mut stopping = c.stopping.clone();
    if rx.borrow().version <= q.seen {
        tokio::select! {
            _ = rx.wait_for(|p| p.version > q.seen) => {}
            _ = tokio::time::sleep(crate::prepare::NEWS_WAIT) => {}
            _ = stopping.wait_for(|s| *s) => {}
        }
    }
    let now = rx.borrow().json();
    Ok(Json(json!({"preparing": now})))
}

/// The operator cancels a running competition (`CancelCompetition`).
async fn cancel(
    State(c): Shared,
    ConnectInfo(peer): Peer,
    headers: HeaderMap,
    Json(body): Json<Named>,
) -> Answer {
    if !access::same_origin(&headers) {
        return Err(cross_origin());
    }
    c.authorize(Route::Cancel, &headers, peer.ip()).await?;
    let comp = c.backend.cancel(&body.name).await?;
    Ok(Json(json!({"competition": view::competition(&comp)})))
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    fn form(json: &str) -> v1::CompetitionSpec {
        serde_json::from_str::<NewCompetition>(json)
            .unwrap()
            .spec()
            .unwrap()
    }

    #[test]
    fn what_the_form_leaves_out_is_what_the_cli_leaves_out() {
        // An empty centre is the CLI's default, not a spec the matchmaker refuses.
        let s = form(
            r#"{"name":"c","participants":["expert","seed"],"matches":1,"rounds":1,"format":"equal-strength"}"#,
        );
        assert_eq!(s.centre, arena_deals::wanted::DEFAULT_CENTRE);
        assert_eq!(s.eps, arena_deals::wanted::DEFAULT_EPS);
        assert_eq!(s.farmers, "expert");
        let panel = s.panel.unwrap();
        assert_eq!(
            (panel.landlords.as_str(), panel.farmers.as_str()),
            ("ladder:70", "expert")
        );
        // Dou Dizhu's format is equal-strength unless named.
        let s = form(r#"{"name":"c","participants":["expert","seed"],"matches":1,"rounds":1}"#);
        assert_eq!(s.format, "equal-strength");
        assert_eq!(s.centre, arena_deals::wanted::DEFAULT_CENTRE);
        // What the form gives is kept.
        let s = form(
            r#"{"name":"c","participants":["a","b"],"format":"equal-strength","centre":[0.5,0.5,0.5],"eps":0.4,"farmers":"seed","panel":"ladder:5"}"#,
        );
        assert_eq!((s.centre, s.eps), (vec![0.5; 3], 0.4));
        assert_eq!(s.panel.unwrap().farmers, "seed");
        // Two bombs have no default centre: the form must give one, and is told so.
        let e = serde_json::from_str::<NewCompetition>(
            r#"{"name":"c","participants":["a","b"],"format":"equal-strength","bombs":2}"#,
        )
        .unwrap()
        .spec()
        .unwrap_err();
        assert!(
            e.message.contains("centre with 5 GDI values"),
            "{}",
            e.message
        );
        // Other formats get no centre; Mahjong no panel.
        assert!(
            form(r#"{"name":"c","participants":["a","b"],"format":"random"}"#)
                .centre
                .is_empty()
        );
        assert_eq!(
            form(r#"{"name":"c","game":"mahjong","participants":["a","b","c","d"]}"#).panel,
            None
        );
    }

    #[test]
    fn a_seed_comes_as_a_string_of_digits_or_a_number() {
        let seed = |v: &str| {
            serde_json::from_str::<NewCompetition>(&format!(
                r#"{{"name":"c","participants":["a","b"],"seed":{v}}}"#
            ))
            .map(|n| n.seed)
        };
        assert_eq!(
            seed(r#""3274537341145225769""#).unwrap(),
            3_274_537_341_145_225_769
        );
        assert_eq!(seed("17").unwrap(), 17);
        assert_eq!(seed(r#""""#).unwrap(), 0);
        let e = seed(r#""12x""#).unwrap_err().to_string();
        assert!(e.contains("not a whole number"), "{e}");
    }

    #[test]
    fn the_seats_of_a_replay_are_read_without_the_rest_of_it() {
        let replay = v1::Replay {
            job: Some(v1::TableJob {
                table_id: "t".into(),
                seats: ["north", "expert", "expert"]
                    .map(|b| v1::SeatSpec { bot: b.into() })
                    .to_vec(),
                seed: 3,
                ..Default::default()
            }),
            steps: vec![v1::ReplayStep::default(); 3],
            ..Default::default()
        };
        let seats = SeatsOfReplay::decode(replay.encode_to_vec().as_slice())
            .unwrap()
            .job
            .unwrap()
            .seats;
        assert_eq!(seats, replay.job.unwrap().seats);
    }
}
