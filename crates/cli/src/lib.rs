//! The library half of the `arena` command: what tests and harnesses run in-process.
//!
//! - [`standalone`]: every role in one process on the embedded store, in one call.

pub mod standalone;
