//! The deal library measures any game through the difficulty hook its registration gives: a
//! coin-flipping game defined here, registered at run time, has its deals found by the service
//! and its GDI batches measured by a referee; a game without a hook is refused, by name.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use arena_deal_library::DealLibraryService;
use arena_games::difficulty::{FindReport, FindTarget, Progress, gdi, within};
use arena_games::{
    Builtin, CheckedJob, Difficulty, Game, GameKind, Measurer, MeasuringPanel, Renderer, Variant,
};
use arena_proto::v1;
use arena_proto::v1::deal_library_server::DealLibrary;
use arena_store::{DealRecord, DealSource, EmbeddedStore, Panel, Store};
use arena_table::JobError;
use serde_json::Value;
use tokio_stream::StreamExt;
use tonic::{Code, Request};

/// Tables of the coin game's one panel.
const TABLES: u32 = 4;

/// A game whose deal `index` of seed `seed` is won at `(seed + index) % 5` of the panel's four
/// tables: its GDI is that share.
struct Coin;

/// The coin game's one panel.
#[derive(Debug)]
struct CoinPanel;

struct CoinMeasurer;

fn coin_record(source: &DealSource, index: u64) -> DealRecord {
    let wins = (source.seed.wrapping_add(index) % u64::from(TABLES + 1)) as u32;
    let counts = vec![TABLES - wins, wins];
    DealRecord {
        id: source.deal_id(index),
        game: arena_store::Game::named("coin"),
        deal: format!("coin-{wins}"),
        source: Some((*source, index)),
        panel: CoinPanel.id().to_string(),
        gdi: gdi(&counts),
        levels: vec![0, 1],
        counts,
    }
}

impl Measurer for CoinMeasurer {
    fn measure(&mut self, source: &DealSource, index: u64) -> Result<DealRecord, String> {
        Ok(coin_record(source, index))
    }
}

impl MeasuringPanel for CoinPanel {
    fn id(&self) -> &str {
        "coin-4"
    }
    fn tables(&self) -> u64 {
        u64::from(TABLES)
    }
    fn to_store(&self) -> Panel {
        Panel {
            id: self.id().into(),
            game: arena_store::Game::named("coin"),
            seats: vec![vec!["flip".into(); TABLES as usize]],
            scoring: "wins".into(),
        }
    }
    fn describe(&self) -> String {
        "four coins".into()
    }
    fn dimension(&self, _: u32) -> usize {
        1
    }
    fn measurer(&self) -> Result<Box<dyn Measurer>, String> {
        Ok(Box::new(CoinMeasurer))
    }
    fn find<'a>(
        &'a self,
        store: &'a dyn Store,
        target: &'a FindTarget,
        progress: &'a Progress,
        stop: &'a AtomicBool,
    ) -> Pin<Box<dyn Future<Output = Result<FindReport, String>> + Send + 'a>> {
        Box::pin(async move {
            let (mut found, mut measured) = (Vec::new(), Vec::new());
            let mut index = target.start;
            while found.len() < target.want
                && index < target.start + target.max_tries
                && !stop.load(Ordering::Relaxed)
            {
                let r = coin_record(&target.source, index);
                progress.deals.fetch_add(1, Ordering::Relaxed);
                if within(&r, &target.centre, target.eps) {
                    found.push(r.clone());
                    progress.found.fetch_add(1, Ordering::Relaxed);
                }
                measured.push(r);
                index += 1;
            }
            store
                .put_panel(&self.to_store())
                .await
                .map_err(|e| e.to_string())?;
            store
                .put_deals(&measured)
                .await
                .map_err(|e| e.to_string())?;
            let tried = index - target.start;
            Ok(FindReport {
                found,
                tried,
                fully_measured: tried,
                games: tried * u64::from(TABLES),
                seconds: 0.0,
                next_index: index,
            })
        })
    }
}

impl Difficulty for Coin {
    fn panel(&self, spec: &v1::PanelSpec) -> Result<Arc<dyn MeasuringPanel>, String> {
        if !spec.landlords.is_empty() {
            return Err("panel.landlords: the coin game has no landlords".into());
        }
        Ok(Arc::new(CoinPanel))
    }
    fn canonical_deal(&self, text: &str) -> Result<String, String> {
        match text.strip_prefix("coin-") {
            Some(n) if n.parse::<u32>().is_ok_and(|n| n <= TABLES) => Ok(text.to_string()),
            _ => Err(format!("{text:?} is not a coin deal")),
        }
    }
}

impl Game for Coin {
    fn name(&self) -> &'static str {
        "coin"
    }
    fn title(&self) -> &'static str {
        "Coin"
    }
    fn seat_count(&self) -> usize {
        1
    }
    fn builtin(&self, _: &str) -> Option<Result<Builtin, String>> {
        None
    }
    fn builtin_help(&self) -> &'static str {
        ""
    }
    fn program_protocol(&self, seat: u32) -> Box<dyn arena_line::ProgramProtocol> {
        // The coin game plays no table; any game's protocol type-checks.
        GameKind::default_game().program_protocol(seat)
    }
    fn check(&'static self, _: &v1::TableJob) -> Result<CheckedJob, JobError> {
        Err(JobError::new("job.game", "the coin game plays no table"))
    }
    fn legal(&self, _: &v1::Observation) -> Vec<String> {
        Vec::new()
    }
    fn variants(&self) -> Vec<Variant> {
        Vec::new()
    }
    fn ladder(&self) -> Option<&dyn arena_games::Ladder> {
        None
    }
    fn difficulty(&self) -> Option<&dyn Difficulty> {
        Some(self)
    }
    fn renderer(&self) -> Renderer {
        Renderer {
            file: "coin.js",
            source: "",
        }
    }
    fn render_action(&self, _: &v1::Action) -> String {
        String::new()
    }
    fn render_observation(&self, _: &v1::Observation) -> Value {
        Value::Null
    }
    fn render_outcome(&self, _: &v1::Outcome) -> Value {
        Value::Null
    }
    fn render_history(&self, _: &v1::Replay) -> Value {
        Value::Null
    }
}

fn coin_panel() -> Option<v1::PanelSpec> {
    GameKind::register(&Coin).unwrap();
    Some(v1::PanelSpec {
        game: "coin".into(),
        ..Default::default()
    })
}

async fn wait_done(svc: &DealLibraryService, id: &str) -> v1::Operation {
    let mut stream = svc
        .watch_operation(Request::new(v1::GetOperationRequest { id: id.into() }))
        .await
        .unwrap()
        .into_inner();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while let Ok(Some(op)) = tokio::time::timeout_at(deadline, stream.next()).await {
        let op = op.unwrap();
        if op.done {
            return op;
        }
    }
    panic!("operation {id} did not finish");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registered_games_deals_are_found_queried_and_exported_through_its_hook() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = DealLibraryService::new(store.clone(), 1);
    let op = svc
        .find(Request::new(v1::FindRequest {
            panel: coin_panel(),
            centre: vec![0.5],
            eps: 0.01,
            count: 3,
            seed: 10,
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    let done = wait_done(&svc, &op.id).await;
    assert_eq!(done.error, "");
    // Deals 0..=12 of seed 10 win at (10 + i) % 5 tables: two wins at i = 2, 7, 12.
    let found: Vec<(&str, &[f64], &str, u64)> = done
        .found
        .iter()
        .map(|r| {
            (
                r.game.as_str(),
                &r.gdi[..],
                r.panel.as_str(),
                r.index.unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("coin", &[0.5][..], "coin-4", 2),
            ("coin", &[0.5][..], "coin-4", 7),
            ("coin", &[0.5][..], "coin-4", 12)
        ]
    );
    assert_eq!((done.tried, done.games), (13, 52));

    let q = svc
        .query(Request::new(v1::QueryRequest {
            panel: coin_panel(),
            centre: vec![0.75],
            eps: 0.01,
            count: 10,
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    // Three wins at i = 3, 8 of the 13 stored.
    assert_eq!(q.available, 2);
    assert!(
        q.deals
            .iter()
            .all(|d| d.deal == "coin-3" && d.game == "coin")
    );

    let exported: Vec<v1::DealRecord> = svc
        .export(Request::new(v1::ExportRequest {
            panel: coin_panel(),
        }))
        .await
        .unwrap()
        .into_inner()
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(exported.len(), 13);
    // An exported record reads back as the game's record, checked by its hook.
    let back = arena_deal_library::record_from(exported[0].clone()).unwrap();
    assert_eq!(back.game, arena_store::Game::named("coin"));
    let mut bad = exported[0].clone();
    bad.deal = "coin-9".into();
    let e = arena_deal_library::record_from(bad).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("deal: \"coin-9\" is not a coin deal"),
        "{e}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registered_games_gdi_batches_are_measured_by_a_referee_through_its_hook() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = DealLibraryService::new(store.clone(), 1);
    let op = svc
        .measure(Request::new(v1::MeasureRequest {
            panel: coin_panel(),
            seed: 3,
            count: 10,
            batch: 4,
            ..Default::default()
        }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(store.job_counts().await.unwrap().waiting, 3);
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let cfg = arena_referee::RefereeConfig {
        referee_id: "coin-referee".into(),
        poll_interval: Duration::from_millis(20),
        ..Default::default()
    };
    let referee = tokio::spawn(arena_referee::work(cfg, store.clone(), async {
        let _ = rx.await;
    }));
    let done = wait_done(&svc, &op.id).await;
    assert_eq!((done.progress, done.error.as_str()), (10, ""));
    assert_eq!(done.games, 40, "four tables a deal");
    stop.send(()).unwrap();
    let _ = referee.await;
    let mut deals = store.deals("coin-4").await.unwrap();
    deals.sort_by_key(|d| d.source.map(|(_, i)| i));
    let wins: Vec<u32> = deals.iter().map(|d| d.counts[1]).collect();
    assert_eq!(wins, [3, 4, 0, 1, 2, 3, 4, 0, 1, 2]);
    assert_eq!(
        store.panel("coin-4").await.unwrap().map(|p| p.game),
        Some(arena_store::Game::named("coin"))
    );
}

#[tokio::test]
async fn a_game_without_measured_difficulty_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = DealLibraryService::new(store, 1);
    let mahjong = || {
        Some(v1::PanelSpec {
            game: "mahjong".into(),
            ..Default::default()
        })
    };
    let e = svc
        .measure(Request::new(v1::MeasureRequest {
            panel: mahjong(),
            count: 1,
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(
        e.message().contains("mahjong") && e.message().contains("no measured difficulty"),
        "{e:?}"
    );
    let e = svc
        .find(Request::new(v1::FindRequest {
            panel: mahjong(),
            centre: vec![0.5],
            eps: 0.1,
            count: 1,
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("mahjong"), "{e:?}");
    let e = svc
        .stats(Request::new(v1::StatsRequest { panel: mahjong() }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    let record = v1::DealRecord {
        game: "mahjong".into(),
        deal: "1M".into(),
        ..Default::default()
    };
    let e = arena_deal_library::record_from(record).unwrap_err();
    assert!(e.to_string().contains("mahjong"), "{e}");

    let e = svc
        .stats(Request::new(v1::StatsRequest {
            panel: Some(v1::PanelSpec {
                game: "chess".into(),
                ..Default::default()
            }),
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::InvalidArgument);
    assert!(
        e.message().starts_with("panel.game: no game \"chess\""),
        "{e:?}"
    );
}

/// Chinese Standard Mahjong's hook keeps walls unmeasured: an imported wall is checked (a bad
/// one refused naming the problem), the walls are exported under the game's panel, and measuring
/// or finding walls is refused saying they carry no difficulty yet.
#[tokio::test]
async fn walls_of_a_game_without_measurement_are_imported_checked_and_never_measured() {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<dyn Store> = Arc::new(EmbeddedStore::open(dir.path()).unwrap());
    let svc = DealLibraryService::new(store.clone(), 1);
    let walls_panel = || {
        Some(v1::PanelSpec {
            game: "mcr".into(),
            ..Default::default()
        })
    };
    let wall = |seed: u64| arena_games::mcr::rules::Wall::from_seed(seed, false).to_string();
    let msg = |deal: String| v1::DealRecord {
        id: "w".into(),
        game: "mcr".into(),
        deal,
        panel: "mcr-walls".into(),
        ..Default::default()
    };
    let mut bad: Vec<String> = wall(1).split(' ').map(String::from).collect();
    bad[0] = "H9".into();
    let e = arena_deal_library::record_from(msg(bad.join(" "))).unwrap_err();
    assert!(e.to_string().starts_with("deal: walltiles: "), "{e}");
    assert!(e.to_string().contains("H9"), "{e}");
    let good = arena_deal_library::record_from(msg(wall(2))).unwrap();
    assert_eq!((good.levels.len(), good.gdi.len()), (0, 0), "no difficulty");
    store.put_deals(std::slice::from_ref(&good)).await.unwrap();
    let exported: Vec<v1::DealRecord> = svc
        .export(Request::new(v1::ExportRequest {
            panel: walls_panel(),
        }))
        .await
        .unwrap()
        .into_inner()
        .map(Result::unwrap)
        .collect()
        .await;
    assert_eq!(exported.len(), 1);
    assert_eq!(
        (exported[0].deal.clone(), exported[0].game.as_str()),
        (wall(2), "mcr")
    );
    let e = svc
        .measure(Request::new(v1::MeasureRequest {
            panel: walls_panel(),
            count: 1,
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("no measured difficulty yet"), "{e:?}");
    let e = svc
        .find(Request::new(v1::FindRequest {
            panel: walls_panel(),
            centre: vec![0.5],
            eps: 0.1,
            count: 1,
            ..Default::default()
        }))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    // A GDI batch of the walls' panel is refused before a referee would measure it.
    let e = arena_games::difficulty::read_batch(&v1::GdiBatch {
        panel: walls_panel(),
        count: 1,
        ..Default::default()
    })
    .unwrap_err();
    assert!(
        e.starts_with("panel: ") && e.contains("no measured difficulty yet"),
        "{e}"
    );
}
