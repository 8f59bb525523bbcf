//! The deal library: measure deals' grade-difficulty index (GDI) with a panel of graded bots,
//! keep them in a [`arena_store::Store`], answer "k unused deals within ε of a centre", and
//! generate fresh deals at a target difficulty on demand.
//!
//! Services measure through the registry (`arena_games::difficulty`, a game's
//! `Game::difficulty`); the game-neutral parts live there and Dou Dizhu's measuring with the
//! game (`arena_games::ddz::measure`). They are re-exported here under their old paths for the
//! command line's `arena deals`, `arena compete` and the experiments.

pub mod centre;
pub mod io;
pub mod population;
pub mod wanted;

/// What a GDI batch asks to measure, and Dou Dizhu's panel a `PanelSpec` names.
pub mod batch {
    pub use arena_games::ddz::panel::panel_of;
    pub use arena_games::difficulty::{MAX_BATCH, read_batch};
}
/// On-demand generation (Dou Dizhu's, with the game) and a secret seed for it.
pub mod find {
    pub use arena_games::ddz::measure::find::*;
    pub use arena_games::difficulty::secret_seed;
}
/// Dou Dizhu's GDI measurement, with the game.
pub use arena_games::ddz::measure;
/// The in-memory index of measured deals (game-neutral).
pub use arena_games::difficulty::index;

pub use find::{FindReport, FindSpec, find};

pub use arena_games::difficulty::CANCELLED_OPERATION_KIND;

pub use index::LibraryIndex;
pub use measure::{MeasureError, MeasureReport, MeasureSpec, PanelBots, Progress, measure};
pub use panel::{DdzPanel, build_panel, describe, panel_id};
pub use record::{canonical_deal, ddz_deal};

pub use arena_games::ddz::library::{LIBRARY_GAME, LIBRARY_RULES};
/// The difficulty levels of a deal's GDI, panels and the library's records of Dou Dizhu deals
/// live with the game (`arena_games::ddz`), whose competitions plan from measured deals; they
/// are re-exported here under their old paths for the measuring code and its users.
pub use arena_games::ddz::{levels, library as record, panel};
