//! For tests only: arena's roles booted in one call, and what full-stack tests share.
//!
//! [`Cluster`] starts bot-host, any number of table-referees, the deal library and the
//! matchmaker on the embedded store or on the local Redis (under a key prefix of its own, removed
//! when the cluster is dropped), with remote bots connected over real gRPC on loopback.
//! [`standalone()`] boots `arena standalone` (every role in one process on an embedded store)
//! in one call. [`collector`] is an in-process OTLP collector for telemetry tests.

pub mod cluster;
pub mod collector;
pub mod redis;
pub mod standalone;

pub use cluster::{Backend, CLUSTER_TOKEN, Cluster, ClusterBuilder};
pub use standalone::{Standalone, standalone};
