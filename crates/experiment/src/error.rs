//! Why a run ended early.

use arena_compete::PlayError;
use arena_deals::MeasureError;
use arena_deals::panel::PanelError;
use arena_store::StoreError;

/// Why [`crate::run`] did not finish.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The stop flag was set; what was measured is kept.
    #[error("stopped by Ctrl-C; measured deals are kept, run the same command again to resume")]
    Stopped,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Measuring or finding deals failed.
    #[error(transparent)]
    Measure(#[from] MeasureError),
    /// The measuring panel could not be built.
    #[error(transparent)]
    Panel(#[from] PanelError),
    /// Playing a competition's games failed.
    #[error(transparent)]
    Play(#[from] PlayError),
    /// A fresh deal could not be generated.
    #[error(transparent)]
    Deal(#[from] ddz::DealError),
    /// The store does not hold every deal of the library after measuring it.
    #[error(
        "the library should hold deals 0..{want} of seed {seed} but holds {have}; run the command again to measure the rest"
    )]
    IncompleteLibrary {
        /// Deals the library should hold.
        want: u64,
        /// Their seed.
        seed: u64,
        /// Deals it holds.
        have: usize,
    },
    /// A library deal's GDI is not a one-bomb GDI.
    #[error("deal {id} has {len} GDI values; one-bomb deals have 3")]
    NotOneBomb {
        /// The deal.
        id: String,
        /// Its number of GDI values.
        len: usize,
    },
    /// Experiment 1's duplicate tournament cannot be dealt from the library.
    #[error("experiment 1 cannot be dealt: {0}")]
    Undealable(String),
    /// Writing the report failed.
    #[error("{what}")]
    Io {
        /// What was being done.
        what: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// `results.json` could not be encoded.
    #[error("encoding results.json: {0}")]
    Json(#[from] serde_json::Error),
}
