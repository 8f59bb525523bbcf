//! A Chinese Standard Mahjong job's set-up (`job.mcr`), checked.
//!
//! Defaults: an empty set-up (or none) plays the wall with flowers and the prevalent wind of the
//! job's seed ([`Deal::from_seed`]); `no_flowers` deals the seed's wall without flowers (136
//! tiles, as IJCAI plays). A given `walltiles` (144 tiles, or 136 without flowers) is played as
//! Botzone lays it; its prevalent wind is `quan` or, unset, the seed's. Faults follow Botzone's
//! judge unless the set-up or the job says play on ([`read_setup`]). The clock is one second a
//! decision ([`default_time`]).

use arena_proto::packages::arena::mcr::v1 as mcr_pb;
use arena_proto::v1;
use arena_table::{JobError, Policy};
use mcr::wall::{Deal, WALL_TILES};
use mcr::{FaultPolicy, Wall, Wind};

/// A Chinese Standard Mahjong table's set-up, checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct McrSpec {
    /// The wall and the prevalent wind.
    pub deal: Deal,
    /// What a bot's fault does to the hand.
    pub policy: FaultPolicy,
}

impl McrSpec {
    /// The hand of `seed` with flowers, under the judge's fault policy.
    pub fn from_seed(seed: u64) -> McrSpec {
        McrSpec {
            deal: Deal::from_seed(seed),
            policy: FaultPolicy::Judge,
        }
    }
}

/// A fault policy as the protocol's enum.
pub fn policy_kind(policy: FaultPolicy) -> mcr_pb::FaultPolicy {
    match policy {
        FaultPolicy::Judge => mcr_pb::FaultPolicy::Judge,
        FaultPolicy::PlayOn => mcr_pb::FaultPolicy::PlayOn,
    }
}

/// The table's verdict policy for a fault policy: the judge's ends the hand at the first fault
/// ([`Policy::Forfeit`], scored −30/+10 by the table's `forfeit`), the arena's plays on.
pub fn table_policy(policy: FaultPolicy) -> Policy {
    match policy {
        FaultPolicy::Judge => Policy::Forfeit,
        FaultPolicy::PlayOn => Policy::PlayOn,
    }
}

/// The fault policy a wire value names (`None`: unspecified), or why it names none.
pub fn policy_of(value: i32) -> Result<Option<FaultPolicy>, String> {
    match mcr_pb::FaultPolicy::try_from(value) {
        Ok(mcr_pb::FaultPolicy::Unspecified) => Ok(None),
        Ok(mcr_pb::FaultPolicy::Judge) => Ok(Some(FaultPolicy::Judge)),
        Ok(mcr_pb::FaultPolicy::PlayOn) => Ok(Some(FaultPolicy::PlayOn)),
        Err(_) => Err(format!("{value} is not a fault policy (judge or play-on)")),
    }
}

/// Reads a job's set-up; `seed` is the job's, whose wall and prevalent wind are played where the
/// set-up gives none, and `verdict_policy` the job's.
///
/// The fault policy is the set-up's `fault_policy`, else the job's verdict policy (forfeit is
/// the judge's, play-on the arena's), else the judge's. The set-up's rules the table: the game's
/// check ([`super::Mcr`]) plays the job under it whatever the job's verdict policy says.
pub fn read_setup(
    setup: &mcr_pb::Setup,
    seed: u64,
    verdict_policy: i32,
) -> Result<McrSpec, JobError> {
    let seeded = Deal::from_seed(seed);
    let wall = if setup.walltiles.trim().is_empty() {
        if setup.no_flowers == Some(true) {
            Wall::from_seed(seed, false)
        } else {
            seeded.wall
        }
    } else {
        let wall = Wall::from_walltiles(&setup.walltiles)
            .map_err(|e| JobError::new("job.mcr.walltiles", e.to_string()))?;
        if setup.no_flowers == Some(true) && wall.tiles().len() == WALL_TILES {
            return Err(JobError::new(
                "job.mcr.walltiles",
                "holds 144 tiles with flowers, but job.mcr.no_flowers asks for a wall without (136 tiles)",
            ));
        }
        wall
    };
    let quan = match setup.quan {
        None => seeded.quan,
        Some(q) => u8::try_from(q)
            .ok()
            .and_then(Wind::from_index)
            .ok_or_else(|| {
                JobError::new(
                    "job.mcr.quan",
                    format!("{q} is not a wind (0 east, 1 south, 2 west, 3 north)"),
                )
            })?,
    };
    let given =
        policy_of(setup.fault_policy).map_err(|e| JobError::new("job.mcr.fault_policy", e))?;
    let job = match v1::VerdictPolicy::try_from(verdict_policy) {
        Ok(v1::VerdictPolicy::Forfeit) => Some(FaultPolicy::Judge),
        Ok(v1::VerdictPolicy::PlayOn) => Some(FaultPolicy::PlayOn),
        // An unknown value is the envelope check's to refuse.
        _ => None,
    };
    let policy = given.or(job).unwrap_or(FaultPolicy::Judge);
    Ok(McrSpec {
        deal: Deal { wall, quan },
        policy,
    })
}

/// The set-up of a hand of `deal` under `policy`: what a matchmaker puts in a job.
pub fn setup_of(deal: &Deal, policy: FaultPolicy) -> mcr_pb::Setup {
    mcr_pb::Setup {
        walltiles: deal.wall.to_string(),
        quan: Some(u32::from(deal.quan.index())),
        // Left unset for a wall with flowers: the job's bytes as before the field was optional.
        no_flowers: (!deal.wall.has_flowers()).then_some(true),
        fault_policy: policy_kind(policy) as i32,
        walls: None,
        walls_from_library: false,
    }
}

/// The game's clock, as Botzone's: one second for every decision, a turn or an answer to a
/// discard, and a timeout verdict past two seconds; no penalty points (a late answer is either
/// in time or a fault).
pub fn default_time() -> v1::TimeControl {
    v1::TimeControl {
        decision_ms: 1000,
        claim_ms: 1000,
        hard_cap_ms: 2000,
        penalty_per_100ms: 0,
        verdict_penalty: 0,
        penalty_rounding: v1::PenaltyRounding::Started as i32,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_setup_is_the_seeds_deal_under_the_judges_policy() {
        let s = read_setup(&mcr_pb::Setup::default(), 42, 0).unwrap();
        assert_eq!(s.deal, Deal::from_seed(42));
        assert_eq!(s.policy, FaultPolicy::Judge);
        let s = read_setup(
            &mcr_pb::Setup {
                no_flowers: Some(true),
                ..Default::default()
            },
            42,
            0,
        )
        .unwrap();
        assert_eq!(s.deal.wall.tiles().len(), 136);
        assert_eq!(s.deal.quan, Deal::from_seed(42).quan);
    }

    #[test]
    fn a_setup_written_by_setup_of_reads_back() {
        for seed in [3, 7] {
            let deal = Deal::from_seed(seed);
            for policy in [FaultPolicy::Judge, FaultPolicy::PlayOn] {
                let s = read_setup(&setup_of(&deal, policy), 0, 0).unwrap();
                assert_eq!((s.deal, s.policy), (deal, policy));
            }
        }
        let deal = Deal {
            wall: Wall::from_seed(5, false),
            quan: Wind::West,
        };
        let s = read_setup(&setup_of(&deal, FaultPolicy::Judge), 0, 0).unwrap();
        assert_eq!(s.deal, deal);
    }

    #[test]
    fn the_setups_fault_policy_rules_and_the_job_verdict_policy_chooses_when_it_is_unset() {
        let play_on = v1::VerdictPolicy::PlayOn as i32;
        let forfeit = v1::VerdictPolicy::Forfeit as i32;
        let s = read_setup(&mcr_pb::Setup::default(), 1, play_on).unwrap();
        assert_eq!(s.policy, FaultPolicy::PlayOn);
        let s = read_setup(&mcr_pb::Setup::default(), 1, forfeit).unwrap();
        assert_eq!(s.policy, FaultPolicy::Judge);
        let judge = mcr_pb::Setup {
            fault_policy: mcr_pb::FaultPolicy::Judge as i32,
            ..Default::default()
        };
        for job in [0, forfeit, play_on] {
            assert_eq!(
                read_setup(&judge, 1, job).unwrap().policy,
                FaultPolicy::Judge
            );
        }
    }

    #[test]
    fn bad_fields_are_named() {
        let bad = |f: &dyn Fn(&mut mcr_pb::Setup)| {
            let mut s = setup_of(&Deal::from_seed(1), FaultPolicy::Judge);
            f(&mut s);
            read_setup(&s, 1, 0).unwrap_err()
        };
        let e = bad(&|s| s.walltiles = "W1 W2 X9".into());
        assert_eq!(e.field, "job.mcr.walltiles");
        assert!(e.message.contains("X9"), "{e}");
        let e = bad(&|s| s.walltiles = "W1 ".repeat(144));
        assert_eq!(e.field, "job.mcr.walltiles");
        let e = bad(&|s| s.walltiles = "W1 ".repeat(100));
        assert!(e.message.contains("100 tiles"), "{e}");
        let e = bad(&|s| s.no_flowers = Some(true));
        assert_eq!(e.field, "job.mcr.walltiles");
        assert!(e.message.contains("no_flowers"), "{e}");
        let e = bad(&|s| s.quan = Some(4));
        assert_eq!(e.field, "job.mcr.quan");
        assert!(e.message.contains("4 is not a wind"), "{e}");
        assert_eq!(bad(&|s| s.fault_policy = 7).field, "job.mcr.fault_policy");
    }
}
