//! The deal library: measure deals' grade-difficulty index (GDI) with a panel of graded bots,
//! keep them in a [`arena_store::Store`], answer "k unused deals within ε of a centre", and
//! generate fresh deals at a target difficulty on demand.

pub mod batch;
pub mod centre;
pub mod find;
pub mod index;
pub mod io;
pub mod levels;
pub mod measure;
pub mod panel;
pub mod population;
pub mod record;
pub mod wanted;

pub use find::{FindReport, FindSpec, find};

/// Record kind of cancelled library operations (key: the operation id): referees skip the
/// GDI batches of a cancelled measurement.
pub const CANCELLED_OPERATION_KIND: &str = "library-operation-cancelled";

/// The game of the library's deals: its records and panels are tagged with it (Dou Dizhu's
/// registered name; `library_game_is_dou_dizhu` checks it against the registry).
pub const LIBRARY_GAME: arena_store::Game = arena_store::Game::named("ddz");

/// The rules the deal library measures deals under (GDI batches, deals found on demand): a
/// stored GDI is a deal's difficulty under competition rules.
pub const LIBRARY_RULES: arena_games::ddz::rules::RuleSet =
    arena_games::ddz::rules::RuleSet::COMPETITION;
pub use index::LibraryIndex;
pub use measure::{MeasureError, MeasureReport, MeasureSpec, PanelBots, Progress, measure};
pub use panel::{DdzPanel, build_panel, describe, panel_id};
pub use record::{canonical_deal, ddz_deal};

#[cfg(test)]
mod library_game {
    #[test]
    fn library_game_is_dou_dizhu() {
        assert_eq!(
            super::LIBRARY_GAME,
            arena_store::Game::from(arena_games::ddz::GAME)
        );
    }
}
