//! Chinese Standard Mahjong walls in the deal library: the game's [`Difficulty`] hook.
//!
//! A wall carries no measured difficulty yet (equal-strength walls are a later issue): the
//! library keeps walls as they are imported (Botzone's `walltiles`, checked to be a wall),
//! under the one unmeasured panel [`WALLS_PANEL`], with empty levels, counts and GDI. The hook
//! reads that panel from a panel spec naming the game and nothing else, and refuses to measure
//! or find walls with it ([`MeasuringPanel::unmeasured`]). Competitions and `arena mcr match`
//! deal these walls ([`pick`]) when asked to take their walls from the library.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use arena_proto::v1;
use arena_store::{DealRecord, Panel, Store};
use mahjong::schedule::mix;
use mcr::Wall;

use crate::difficulty::{FindReport, FindTarget, Measurer, MeasuringPanel, Progress};
use crate::{Difficulty, GameKind};

/// The panel the library keeps the game's walls under (unmeasured).
pub const WALLS_PANEL: &str = "mcr-walls";

/// Why walls are not measured, as the library's answers say it.
const NOT_MEASURED: &str = "Chinese Standard Mahjong walls (panel mcr-walls) carry no measured \
     difficulty yet (equal-strength walls are a later issue): import them with `arena deals \
     import --game mcr FILE` instead";

/// The game's difficulty hook, as [`crate::Game::difficulty`] returns it.
pub struct Walls;

/// The one instance the registration returns.
pub static WALLS: Walls = Walls;

/// The walls' one panel: unmeasured.
#[derive(Debug)]
pub struct WallsPanel;

impl Difficulty for Walls {
    fn panel(&self, spec: &v1::PanelSpec) -> Result<Arc<dyn MeasuringPanel>, String> {
        for (field, value) in [
            ("panel.landlords", &spec.landlords),
            ("panel.farmers", &spec.farmers),
            ("panel.scoring", &spec.scoring),
        ] {
            if !value.trim().is_empty() {
                return Err(format!(
                    "{field}: Chinese Standard Mahjong walls have no measuring panel (no measured \
                     difficulty yet); leave it empty"
                ));
            }
        }
        Ok(Arc::new(WallsPanel))
    }

    fn canonical_deal(&self, text: &str) -> Result<String, String> {
        Wall::from_walltiles(text)
            .map(|w| w.to_string())
            .map_err(|e| e.to_string())
    }
}

impl MeasuringPanel for WallsPanel {
    fn id(&self) -> &str {
        WALLS_PANEL
    }

    fn tables(&self) -> u64 {
        0
    }

    fn to_store(&self) -> Panel {
        Panel {
            id: WALLS_PANEL.into(),
            game: super::GAME.into(),
            seats: Vec::new(),
            scoring: "unmeasured".into(),
        }
    }

    fn describe(&self) -> String {
        "Chinese Standard Mahjong walls, unmeasured".into()
    }

    fn dimension(&self, _bombs: u32) -> usize {
        0
    }

    fn unmeasured(&self) -> Option<String> {
        Some(NOT_MEASURED.into())
    }

    fn measurer(&self) -> Result<Box<dyn Measurer>, String> {
        Err(NOT_MEASURED.into())
    }

    fn find<'a>(
        &'a self,
        _store: &'a dyn Store,
        _target: &'a FindTarget,
        _progress: &'a Progress,
        _stop: &'a AtomicBool,
    ) -> Pin<Box<dyn Future<Output = Result<FindReport, String>> + Send + 'a>> {
        Box::pin(async { Err(NOT_MEASURED.to_string()) })
    }
}

/// A wall the library holds, read back: its record's id and the wall.
#[derive(Clone, Debug)]
pub struct LibraryWall {
    /// The record's id (what a competition claims).
    pub id: String,
    /// The wall.
    pub wall: Wall,
}

/// Why the library cannot supply the walls asked for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the deal library holds {have} unused wall(s) of {tiles} tiles, and {need} are needed; \
     import more with `arena deals import --game mcr FILE` (Botzone walltiles, one wall a line)"
)]
pub struct NotEnoughWalls {
    /// Walls needed.
    pub need: usize,
    /// Unused walls of the size held.
    pub have: usize,
    /// The size asked for: 144, or 136 without flowers.
    pub tiles: usize,
}

/// `need` walls of the library's `records` (those of the game under [`WALLS_PANEL`] that read
/// as walls of the size `flowers` says), none in `exclude`: those in `held` first (a plan made
/// again keeps its walls), then the rest in an order drawn from `seed`, so which walls a
/// competition plays is neither the library's order nor known before it is planned.
pub fn pick(
    records: &[DealRecord],
    exclude: &HashSet<String>,
    held: &HashSet<String>,
    seed: u64,
    flowers: bool,
    need: usize,
) -> Result<Vec<LibraryWall>, NotEnoughWalls> {
    let game: arena_store::Game = super::GAME.into();
    let mut walls: Vec<(bool, u64, LibraryWall)> = records
        .iter()
        .filter(|r| r.panel == WALLS_PANEL && r.game == game && !exclude.contains(&r.id))
        .filter_map(|r| {
            let wall = Wall::from_walltiles(&r.deal).ok()?;
            (wall.has_flowers() == flowers).then(|| {
                let order = mix(seed, fnv(&r.id));
                let wall = LibraryWall {
                    id: r.id.clone(),
                    wall,
                };
                (!held.contains(&r.id), order, wall)
            })
        })
        .collect();
    let tiles = if flowers {
        mcr::wall::WALL_TILES
    } else {
        mcr::wall::WALL_TILES_NO_FLOWERS
    };
    if walls.len() < need {
        return Err(NotEnoughWalls {
            need,
            have: walls.len(),
            tiles,
        });
    }
    walls.sort_by(|a, b| (a.0, a.1, &a.2.id).cmp(&(b.0, b.1, &b.2.id)));
    Ok(walls.into_iter().take(need).map(|(_, _, w)| w).collect())
}

/// FNV-1a of a record id: an order key stable across builds and machines.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The game's handle, for records made here.
fn game() -> GameKind {
    super::GAME
}

/// Walls as the library stores them after an import: `walltiles` strings, checked.
pub fn records_of<'a>(
    walltiles: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<DealRecord>, String> {
    walltiles
        .into_iter()
        .enumerate()
        .map(|(i, w)| {
            let deal = WALLS
                .canonical_deal(w)
                .map_err(|e| format!("wall {}: {e}", i + 1))?;
            Ok(crate::difficulty::unmeasured_record(
                game(),
                WALLS_PANEL,
                deal,
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeded(n: u64, flowers: bool) -> Vec<DealRecord> {
        let w: Vec<String> = (0..n)
            .map(|s| Wall::from_seed(s, flowers).to_string())
            .collect();
        records_of(w.iter().map(String::as_str)).unwrap()
    }

    #[test]
    fn a_bad_wall_is_refused_naming_the_problem() {
        let e = WALLS.canonical_deal("W1 W2").unwrap_err();
        assert!(e.contains("holds 2 tiles"), "{e}");
        let mut tiles: Vec<String> = Wall::from_seed(3, false)
            .to_string()
            .split(' ')
            .map(String::from)
            .collect();
        // The first two tiles of this wall differ: one too many of the first, one too few of
        // the second, and the first of the two in kind order is named.
        let (first, second) = (tiles[0].clone(), tiles[1].clone());
        assert_ne!(first, second);
        tiles[1] = first.clone();
        let e = WALLS.canonical_deal(&tiles.join(" ")).unwrap_err();
        assert!(
            e == format!("walltiles holds 5 of {first}; a wall has 4")
                || e == format!("walltiles holds 3 of {second}; a wall has 4"),
            "{e}"
        );
        tiles[1] = "X9".into();
        let e = WALLS.canonical_deal(&tiles.join(" ")).unwrap_err();
        assert!(e.contains("X9"), "{e}");
        let good = Wall::from_seed(3, true).to_string();
        assert_eq!(WALLS.canonical_deal(&format!("  {good} \n")), Ok(good));
    }

    #[test]
    fn the_panel_names_the_game_and_nothing_else_and_measures_nothing() {
        let spec = v1::PanelSpec {
            game: "mcr".into(),
            ..Default::default()
        };
        let panel = WALLS.panel(&spec).unwrap();
        assert_eq!(panel.id(), WALLS_PANEL);
        assert!(panel.unmeasured().unwrap().contains("no measured"));
        assert!(panel.measurer().is_err());
        let e = WALLS
            .panel(&v1::PanelSpec {
                landlords: "ladder:5".into(),
                ..spec
            })
            .unwrap_err();
        assert!(e.starts_with("panel.landlords"), "{e}");
    }

    #[test]
    fn picked_walls_are_of_the_size_asked_unused_held_first_and_reproducible() {
        let mut records = seeded(6, false);
        records.extend(seeded(3, true));
        let none = HashSet::new();
        let a = pick(&records, &none, &none, 9, false, 4).unwrap();
        let b = pick(&records, &none, &none, 9, false, 4).unwrap();
        let ids = |w: &[LibraryWall]| w.iter().map(|w| w.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&a), ids(&b));
        assert!(a.iter().all(|w| !w.wall.has_flowers()));
        let exclude: HashSet<String> = [a[0].id.clone()].into();
        let held: HashSet<String> = [records[5].id.clone()].into();
        let c = pick(&records, &exclude, &held, 9, false, 5).unwrap();
        assert_eq!(c[0].id, records[5].id, "a held wall comes first");
        assert!(!ids(&c).contains(&a[0].id));
        let e = pick(&records, &exclude, &none, 9, false, 6).unwrap_err();
        assert_eq!((e.need, e.have, e.tiles), (6, 5, 136));
        assert_eq!(pick(&records, &none, &none, 1, true, 3).unwrap().len(), 3);
    }
}
