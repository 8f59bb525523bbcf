//! The deal library: measure deals' grade-difficulty index (GDI) with a panel of graded bots,
//! keep them in a [`arena_store::Store`], answer "k unused deals within ε of a centre", and
//! generate fresh deals at a target difficulty on demand.

pub mod batch;
pub mod centre;
pub mod find;
pub mod index;
pub mod io;
pub mod measure;
pub mod population;
pub mod wanted;

pub use find::{FindReport, FindSpec, find};

/// Record kind of cancelled library operations (key: the operation id): referees skip the
/// GDI batches of a cancelled measurement.
pub const CANCELLED_OPERATION_KIND: &str = "library-operation-cancelled";

pub use index::LibraryIndex;
pub use measure::{MeasureError, MeasureReport, MeasureSpec, PanelBots, Progress, measure};
pub use panel::{DdzPanel, build_panel, describe, panel_id};
pub use record::{canonical_deal, ddz_deal};

pub use arena_games::ddz::library::{LIBRARY_GAME, LIBRARY_RULES};
/// The difficulty levels of a deal's GDI, panels and the library's records of Dou Dizhu deals
/// live with the game (`arena_games::ddz`), whose competitions plan from measured deals; they
/// are re-exported here under their old paths for the measuring code and its users.
pub use arena_games::ddz::{levels, library as record, panel};
