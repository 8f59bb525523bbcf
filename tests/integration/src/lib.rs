//! For tests only: arena's roles booted in one call, and what full-stack tests share.
//!
//! [`Cluster`] starts bot-host, any number of table-referees, the deal library and the
//! matchmaker on the embedded store or on the local Redis (under a key prefix of its own, removed
//! when the cluster is dropped), with remote bots connected over real gRPC on loopback.
//! [`standalone()`] boots `arena standalone` (every role in one process on an embedded store)
//! in one call. [`collector`] is an in-process OTLP collector for telemetry tests. [`ddz_table`]
//! is a plain Dou Dizhu table job.

pub mod cluster;
pub mod collector;
pub mod redis;
pub mod standalone;

pub use cluster::{Backend, CLUSTER_TOKEN, Cluster, ClusterBuilder};
pub use standalone::{Standalone, standalone};

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::v1;

/// Table `i` of `competition` (`{competition}/t{i}`) with `seats`: deal `i` of seed `deal_seed`,
/// seat `i % 3` landlord at bid 1 with no bidding or doubling, 2 s a decision (10 s hard cap),
/// play-on verdicts, seeded by `i`.
pub fn ddz_table(competition: &str, i: u64, seats: &[&str], deal_seed: u64) -> v1::TableJob {
    v1::TableJob {
        table_id: format!("{competition}/t{i}"),
        game: "ddz".into(),
        seats: seats
            .iter()
            .map(|b| v1::SeatSpec { bot: (*b).into() })
            .collect(),
        // A competition table's set-up, as the matchmaker makes one, the landlord rotating.
        setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
            landlord: Some(ddz_pb::setup::Landlord::FixedLandlord((i % 3) as u32)),
            ..arena_games::ddz::spec::fixed_landlord_setup(
                ddz::Deal::generate(deal_seed, i).to_string(),
                ddz::Scoring::Competition,
            )
        })),
        time: Some(v1::TimeControl {
            decision_ms: 2000,
            hard_cap_ms: 10_000,
            ..Default::default()
        }),
        verdict_policy: v1::VerdictPolicy::PlayOn as i32,
        seed: i,
        competition: competition.into(),
        ..Default::default()
    }
}
