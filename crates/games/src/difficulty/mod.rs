//! Difficulty measurement through the registry: how the deal library and the referees' GDI
//! batches measure a game's deals without knowing the game.
//!
//! A game whose deals have a measured difficulty returns a [`Difficulty`] from
//! [`crate::Game::difficulty`]. It reads the panel an `arena.v1.PanelSpec` names into a
//! [`MeasuringPanel`] (the bots that play every deal, and how their results grade it), which
//! measures deals one by one on a worker thread ([`Measurer`]: one dynamic call per deal, the
//! games of a deal played on the game's own fast path) and finds fresh deals near a target
//! difficulty ([`MeasuringPanel::find`]). What is the same for every game lives here: the grade
//! difficulty index of per-level counts ([`gdi`], [`distance`]), the index the library answers
//! queries from ([`LibraryIndex`]), what a GDI batch asks for ([`read_batch`]), and the counters
//! and reports of a measurement.
//!
//! It lives in `arena-games`, next to the registry, because the deal library (which cuts batches
//! and takes panel specs in its requests), the matchmaker and the referee (which measures
//! batches) all read it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};

use arena_proto::v1;
use arena_store::{DealRecord, DealSource, Panel, Store};

use crate::GameKind;

pub mod index;

pub use index::LibraryIndex;

/// Record kind of cancelled library operations (key: the operation id): referees skip the
/// GDI batches of a cancelled measurement.
pub const CANCELLED_OPERATION_KIND: &str = "library-operation-cancelled";

/// The most deals one GDI batch may hold. The deal library cuts batches of 200 by default; a
/// batch of billions would have the referee collect its indices and records in memory at once.
pub const MAX_BATCH: u32 = 10_000;

/// A game's difficulty measurement, as [`crate::Game::difficulty`] returns it.
pub trait Difficulty: Send + Sync {
    /// The measuring panel `spec` names (its game already read from `spec.game`), or why it
    /// names none: the message starts with the field at fault (`panel.…`).
    fn panel(&self, spec: &v1::PanelSpec) -> Result<Arc<dyn MeasuringPanel>, String>;

    /// `text` as the library stores a deal of this game (its canonical text form), or why it is
    /// not one: how imported records are checked.
    fn canonical_deal(&self, text: &str) -> Result<String, String>;
}

/// A panel of bots measuring a game's deals: each deal is played at [`MeasuringPanel::tables`]
/// tables and its GDI follows from the results' levels.
pub trait MeasuringPanel: Send + Sync + std::fmt::Debug {
    /// Its stable id, derived from what it is (the same panel has the same id everywhere).
    fn id(&self) -> &str;

    /// How many tables measure one deal.
    fn tables(&self) -> u64;

    /// The stored, game-tagged form.
    fn to_store(&self) -> Panel;

    /// A short description for people.
    fn describe(&self) -> String;

    /// How many values the GDI of a deal with `bombs` bombs has under this panel (the
    /// dimension of a centre to find deals near).
    fn dimension(&self, bombs: u32) -> usize;

    /// Why this panel measures nothing, when it does not: the library keeps its game's deals as
    /// they are given (imported), without a difficulty, and refuses to measure or find deals
    /// with it, saying this. `None` (the default): a measuring panel.
    fn unmeasured(&self) -> Option<String> {
        None
    }

    /// A measurer of this panel for one worker thread (its bots built once, reused deal after
    /// deal), or why the panel's bots cannot be built.
    fn measurer(&self) -> Result<Box<dyn Measurer>, String>;

    /// Generates and measures deals of `target.source` from `target.start` on, on
    /// `target.threads` worker threads, storing every deal measured with the whole panel in
    /// `store`, until `target.want` lie within `target.eps` of `target.centre` (or `stop` is
    /// set, or `target.max_tries` deals were tried); `progress` counts as it goes.
    fn find<'a>(
        &'a self,
        store: &'a dyn Store,
        target: &'a FindTarget,
        progress: &'a Progress,
        stop: &'a AtomicBool,
    ) -> Pin<Box<dyn Future<Output = Result<FindReport, String>> + Send + 'a>>;
}

/// One worker thread's measurement of a panel: measures deal after deal.
pub trait Measurer: Send {
    /// Measures deal `index` of `source` with the whole panel: its record, or why it could not
    /// be measured.
    fn measure(&mut self, source: &DealSource, index: u64) -> Result<DealRecord, String>;
}

/// Why a panel spec names no measuring panel.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PanelSpecError {
    /// The spec is missing, names no registered game, or its game cannot read it.
    #[error("{0}")]
    Invalid(String),
    /// Its game is registered but has no measured difficulty.
    #[error("{0}")]
    NoDifficulty(String),
}

/// The measuring panel `spec` names, through its game's registered [`Difficulty`] (an empty
/// `panel.game` meaning the default game): the one reading of a panel spec from the wire.
pub fn panel_of_spec(
    spec: Option<&v1::PanelSpec>,
) -> Result<Arc<dyn MeasuringPanel>, PanelSpecError> {
    let spec = spec.ok_or_else(|| PanelSpecError::Invalid("panel: missing".into()))?;
    let game = GameKind::from_wire(&spec.game)
        .map_err(|e| PanelSpecError::Invalid(format!("panel.game: {e}")))?;
    let difficulty = game.difficulty().ok_or_else(|| {
        PanelSpecError::NoDifficulty(format!(
            "panel.game: {} ({}) has no measured difficulty: its deals cannot be measured",
            game.name(),
            game.title()
        ))
    })?;
    difficulty.panel(spec).map_err(PanelSpecError::Invalid)
}

/// What a batch asks to measure: its panel and deal source, or why it cannot be measured.
pub fn read_batch(batch: &v1::GdiBatch) -> Result<(Arc<dyn MeasuringPanel>, DealSource), String> {
    let panel = panel_of_spec(batch.panel.as_ref()).map_err(|e| e.to_string())?;
    if let Some(why) = panel.unmeasured() {
        return Err(format!("panel: {why}"));
    }
    let bombs = match batch.bombs.map(u8::try_from) {
        None => None,
        Some(Ok(b)) => Some(b),
        Some(Err(_)) => return Err("bombs: more than a deck can hold".into()),
    };
    if batch.count > MAX_BATCH {
        return Err(format!(
            "count: {} deals are more than a batch may hold ({MAX_BATCH})",
            batch.count
        ));
    }
    Ok((
        panel,
        DealSource {
            seed: batch.seed,
            bombs,
        },
    ))
}

/// A deal of `game` kept as it is given, without a measured difficulty (no levels, counts or
/// GDI), under `panel`, an unmeasured panel of the game ([`MeasuringPanel::unmeasured`]).
/// `deal` is in the game's canonical text ([`Difficulty::canonical_deal`]); the id
/// (`i-` and 16 hex digits) follows from the game and the deal alone, so a deal imported twice is
/// stored once.
pub fn unmeasured_record(game: GameKind, panel: &str, deal: String) -> DealRecord {
    // FNV-1a: stable across builds and machines, unlike the standard library's hasher.
    let hash = game
        .name()
        .bytes()
        .chain([b'/'])
        .chain(deal.bytes())
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    DealRecord {
        id: format!("i-{hash:016x}"),
        game: game.into(),
        deal,
        source: None,
        panel: panel.to_string(),
        levels: Vec::new(),
        counts: Vec::new(),
        gdi: Vec::new(),
    }
}

/// The GDI of per-level table counts: `g_j = (tables at level j+1 or higher) / tables`,
/// `j = 1 … k−1`. Empty when no table played.
pub fn gdi(counts: &[u32]) -> Vec<f64> {
    // Summed in u64: imported counts come from outsiders, and u32 counts can add up past u32.
    let n: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    if n == 0 || counts.len() < 2 {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(counts.len() - 1);
    let mut above: u64 = n;
    for &c in &counts[..counts.len() - 1] {
        above -= u64::from(c);
        out.push(above as f64 / n as f64);
    }
    out
}

/// Euclidean distance between two GDI vectors (shorter one padded with zeros).
pub fn distance(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().max(b.len());
    (0..n)
        .map(|i| a.get(i).copied().unwrap_or(0.0) - b.get(i).copied().unwrap_or(0.0))
        .map(|d| d * d)
        .sum::<f64>()
        .sqrt()
}

/// Whether a measured record lies within `eps` of `centre` (of the same dimension).
pub fn within(record: &DealRecord, centre: &[f64], eps: f64) -> bool {
    record.gdi.len() == centre.len() && distance(&record.gdi, centre) <= eps
}

/// Counters a measurement bumps as it goes, for progress bars.
#[derive(Default, Debug)]
pub struct Progress {
    /// Games played.
    pub games: AtomicU64,
    /// Deals fully measured.
    pub deals: AtomicU64,
    /// Deals stored.
    pub stored: AtomicU64,
    /// Deals found near a target (on-demand generation).
    pub found: AtomicU64,
}

/// What an on-demand generation looks for, whatever the game.
#[derive(Clone, Debug)]
pub struct FindTarget {
    /// Fresh deals come from this source, from `start` on.
    pub source: DealSource,
    /// First index to try.
    pub start: u64,
    /// Target GDI.
    pub centre: Vec<f64>,
    /// Radius.
    pub eps: f64,
    /// How many deals to find.
    pub want: usize,
    /// Give up after trying this many deals.
    pub max_tries: u64,
    /// Worker threads.
    pub threads: usize,
}

/// What a search found and what it cost.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FindReport {
    /// Deals within ε, in the order found.
    pub found: Vec<DealRecord>,
    /// Deals tried (generated and at least partly measured).
    pub tried: u64,
    /// Deals measured with the whole panel (stored in the library, near or not).
    pub fully_measured: u64,
    /// Games played.
    pub games: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The next untried index of the source.
    pub next_index: u64,
}

/// A secret seed for a fresh deal stream: deals generated from a known seed could be dealt by
/// anyone, who would then know every hand of a table from their own. The error says why the
/// system could not give one.
pub fn secret_seed() -> Result<u64, String> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).map_err(|e| format!("drawing a secret seed from the system: {e}"))?;
    Ok(u64::from_le_bytes(b).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(count: u32) -> v1::GdiBatch {
        v1::GdiBatch {
            panel: Some(v1::PanelSpec {
                landlords: "ladder:3".into(),
                ..Default::default()
            }),
            seed: 7,
            bombs: Some(1),
            count,
            ..Default::default()
        }
    }

    #[test]
    fn a_batch_too_large_to_hold_is_refused() {
        // Seen writing the job_payload fuzz target: a batch of 4294967295 deals had the referee
        // collect 32 GiB of indices and reserve a record for each, aborting the process.
        let e = read_batch(&batch(u32::MAX)).unwrap_err();
        assert_eq!(
            e,
            "count: 4294967295 deals are more than a batch may hold (10000)"
        );
        let (panel, source) = read_batch(&batch(MAX_BATCH)).unwrap();
        assert_eq!(panel.tables(), 3);
        assert_eq!(
            source,
            DealSource {
                seed: 7,
                bombs: Some(1)
            }
        );
        let mut no_panel = batch(1);
        no_panel.panel = None;
        assert_eq!(read_batch(&no_panel).unwrap_err(), "panel: missing");
    }

    #[test]
    fn a_panel_of_a_game_without_difficulty_is_refused_naming_the_game() {
        let mut b = batch(1);
        b.panel.as_mut().unwrap().game = "mahjong".into();
        let e = read_batch(&b).unwrap_err();
        assert!(
            e.contains("mahjong") && e.contains("no measured difficulty"),
            "{e}"
        );
        let e = panel_of_spec(b.panel.as_ref()).unwrap_err();
        assert!(matches!(e, PanelSpecError::NoDifficulty(_)), "{e:?}");
        b.panel.as_mut().unwrap().game = "chess".into();
        let e = panel_of_spec(b.panel.as_ref()).unwrap_err();
        assert!(
            matches!(&e, PanelSpecError::Invalid(m) if m.starts_with("panel.game: no game \"chess\"")),
            "{e:?}"
        );
    }

    #[test]
    fn an_empty_game_is_the_default_games_panel() {
        let (empty, _) = read_batch(&batch(1)).unwrap();
        let mut named = batch(1);
        named.panel.as_mut().unwrap().game = GameKind::default_game().name().into();
        let (named, _) = read_batch(&named).unwrap();
        assert_eq!(empty.id(), named.id());
        assert_eq!(empty.to_store(), named.to_store());
    }
}
