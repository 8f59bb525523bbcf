//! A Dou Dizhu job's set-up (`job.ddz`), checked.
//!
//! Defaults: an empty `job.ddz` (or none) plays deal 0 of the job's seed with competition rules,
//! bidding from seat 0, no doubling round and competition scoring; the verdict policy defaults
//! to forfeit.

use arena_proto::v1;
use arena_table::JobError;
use ddz::{Bidding, Deal, GameConfig, RuleSet, Scoring, Seat};

/// How many times a Dou Dizhu auction in which everyone passes is redealt before the first
/// bidder is made landlord at bid 1.
pub const DDZ_MAX_REDEALS: u32 = 3;

/// A Dou Dizhu table's set-up, checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DdzSpec {
    /// Rules, bidding and doubling.
    pub config: GameConfig,
    /// The first deal.
    pub deal: Deal,
    /// The rule set's canonical name (`competition`, `douzero`, `openspiel`).
    pub rules_name: &'static str,
    /// How the outcome is scored.
    pub scoring: Scoring,
}

/// Reads a job's Dou Dizhu set-up (`job.ddz`); `seed` is the job's, whose deal 0 is played when
/// the set-up names no deal.
pub fn read_setup(setup: &v1::DdzSetup, seed: u64) -> Result<DdzSpec, JobError> {
    let deal = if setup.deal.trim().is_empty() {
        Deal::generate(seed, 0)
    } else {
        setup
            .deal
            .parse::<Deal>()
            .map_err(|e| JobError::new("job.ddz.deal", format!("{:?}: {e}", setup.deal)))?
    };
    let (rules, rules_name) = match setup.rules.trim() {
        "" | "competition" | "default" | "rlcard" => (RuleSet::COMPETITION, "competition"),
        "douzero" => (RuleSet::DOUZERO, "douzero"),
        "openspiel" => (RuleSet::OPENSPIEL, "openspiel"),
        other => {
            return Err(JobError::new(
                "job.ddz.rules",
                format!("unknown rule set {other:?} (competition, douzero or openspiel)"),
            ));
        }
    };
    let scoring = match setup.scoring.trim() {
        "" => Scoring::Competition,
        s => s
            .parse::<Scoring>()
            .map_err(|e| JobError::new("job.ddz.scoring", e))?,
    };
    let seat = |field: &str, i: u32| {
        u8::try_from(i).ok().and_then(Seat::new).ok_or_else(|| {
            JobError::new(
                field,
                format!("seat {i} does not exist (seats are 0, 1, 2)"),
            )
        })
    };
    let bidding = match setup.landlord {
        Some(v1::ddz_setup::Landlord::FixedLandlord(l)) => {
            let bid = match setup.fixed_bid {
                0 => 1,
                b @ 1..=3 => b as u8,
                b => {
                    return Err(JobError::new(
                        "job.ddz.fixed_bid",
                        format!("bid {b} is not allowed (1 to 3, or 0 for 1)"),
                    ));
                }
            };
            Bidding::Fixed {
                landlord: seat("job.ddz.fixed_landlord", l)?,
                bid,
            }
        }
        Some(v1::ddz_setup::Landlord::FirstBidder(f)) => Bidding::Auction {
            first: seat("job.ddz.first_bidder", f)?,
            max_redeals: DDZ_MAX_REDEALS,
        },
        None => Bidding::Auction {
            first: Seat::ALL[0],
            max_redeals: DDZ_MAX_REDEALS,
        },
    };
    Ok(DdzSpec {
        config: GameConfig {
            rules,
            bidding,
            doubling: setup.doubling,
        },
        deal,
        rules_name,
        scoring,
    })
}
