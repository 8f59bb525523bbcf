//! MCR competitions.
