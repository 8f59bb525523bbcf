//! The heap allocator of the binaries that serve (the `arena` CLI, whichever roles it runs, and
//! the remote-path bench that stands in for them): mimalloc, configured for long-lived servers.
//!
//! Every decision allocates on its way through the roles (prost messages, h2 frames, channel
//! nodes), and glibc's malloc spent a quarter of the remote path's CPU on it (its free-list
//! consolidation most of all); mimalloc's thread-local free lists cost a fraction of that.
//! It is built without transparent huge pages (its `no_thp` feature): left to them, it asks
//! the kernel for 2 MiB pages on the arenas it commits, and a connection's few small buffers
//! then keep a whole huge page resident: 10,000 idle connected bots cost bot-host 69 KiB each
//! against glibc's 39 KiB. Without them it is back to 41 KiB. docs/scaling.md has the figures.
//!
//! A binary declares it as its global allocator:
//!
//! ```no_run
//! #[global_allocator]
//! static ALLOCATOR: arena_serve::allocator::Allocator = arena_serve::allocator::Allocator;
//! # fn main() {}
//! ```

/// The global allocator type for serving binaries.
pub use mimalloc::MiMalloc as Allocator;
