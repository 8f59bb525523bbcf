//! A Dou Dizhu job's set-up (`job.ddz`), checked.
//!
//! Defaults: an empty `job.ddz` (or none) plays deal 0 of the job's seed with competition rules,
//! bidding from seat 0, no doubling round and competition scoring; the verdict policy defaults
//! to forfeit.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_table::JobError;
use ddz::{Bidding, Deal, GameConfig, RuleSet, Scoring, Seat};

use super::names;

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
    /// Where the deal sits in its match, when the job says (`job.ddz.round`).
    pub round: Option<MatchRound>,
}

/// Where a deal sits in a match played as the championship plays one: round `round` of the
/// `rounds` of turn `turn` of `turns`, all from 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatchRound {
    /// The turn, from 1.
    pub turn: u32,
    /// How many turns the match has.
    pub turns: u32,
    /// The round within the turn, from 1.
    pub round: u32,
    /// How many rounds a turn has.
    pub rounds: u32,
}

impl MatchRound {
    /// The place of deal `index` (from 0) of a match of `deals` deals played `rounds` to a
    /// turn (`rounds` at least 1; the last turn may have fewer).
    pub fn of(index: u64, deals: u64, rounds: u32) -> MatchRound {
        let per = u64::from(rounds.max(1));
        let small = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
        MatchRound {
            turn: small(index / per + 1),
            turns: small(deals.div_ceil(per).max(1)),
            round: small(index % per + 1),
            rounds: small(per),
        }
    }

    /// As the protocol writes it.
    pub fn to_pb(self) -> ddz_pb::Round {
        ddz_pb::Round {
            turn: self.turn,
            turns: self.turns,
            round: self.round,
            rounds: self.rounds,
        }
    }

    /// Reads `r`, checking every number from 1 and no more than its total; `field` names it
    /// in errors.
    pub fn from_pb(field: &str, r: &ddz_pb::Round) -> Result<MatchRound, String> {
        if r.turn == 0 || r.round == 0 || r.turn > r.turns || r.round > r.rounds {
            return Err(format!(
                "{field} says turn {} of {}, round {} of {}: turns and rounds count from 1 up to their totals",
                r.turn, r.turns, r.round, r.rounds
            ));
        }
        Ok(MatchRound {
            turn: r.turn,
            turns: r.turns,
            round: r.round,
            rounds: r.rounds,
        })
    }
}

/// Reads a job's Dou Dizhu set-up (`job.ddz`); `seed` is the job's, whose deal 0 is played when
/// the set-up names no deal.
pub fn read_setup(setup: &ddz_pb::Setup, seed: u64) -> Result<DdzSpec, JobError> {
    let deal = if setup.deal.trim().is_empty() {
        Deal::generate(seed, 0)
    } else {
        setup
            .deal
            .parse::<Deal>()
            .map_err(|e| JobError::new("job.ddz.deal", format!("{:?}: {e}", setup.deal)))?
    };
    let (rules, rules_name) = match names::named_rules("job.ddz", &setup.rules, setup.rules_kind)
        .map_err(|e| JobError::new("job.ddz.rules", e))?
    {
        Some(named) => named,
        None if setup.rules.trim().is_empty()
            && setup.rules_kind == ddz_pb::Rules::Unspecified as i32 =>
        {
            (RuleSet::COMPETITION, "competition")
        }
        None => {
            return Err(JobError::new(
                "job.ddz.rules",
                format!(
                    "unknown rule set {:?} (competition, douzero or openspiel)",
                    setup.rules.trim()
                ),
            ));
        }
    };
    let scoring = names::scoring_of("job.ddz.scoring", &setup.scoring, setup.scoring_kind)
        .map_err(|e| JobError::new("job.ddz.scoring", e))?
        .unwrap_or(Scoring::Competition);
    let seat = |field: &str, i: u32| {
        u8::try_from(i).ok().and_then(Seat::new).ok_or_else(|| {
            JobError::new(
                field,
                format!("seat {i} does not exist (seats are 0, 1, 2)"),
            )
        })
    };
    let bidding = match setup.landlord {
        Some(ddz_pb::setup::Landlord::FixedLandlord(l)) => {
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
        Some(ddz_pb::setup::Landlord::FirstBidder(f)) => Bidding::Auction {
            first: seat("job.ddz.first_bidder", f)?,
            max_redeals: DDZ_MAX_REDEALS,
        },
        None => Bidding::Auction {
            first: Seat::ALL[0],
            max_redeals: DDZ_MAX_REDEALS,
        },
    };
    let round = setup
        .round
        .as_ref()
        .map(|r| MatchRound::from_pb("job.ddz.round", r))
        .transpose()
        .map_err(|e| JobError::new("job.ddz.round", e))?;
    Ok(DdzSpec {
        config: GameConfig {
            rules,
            bidding,
            doubling: setup.doubling,
        },
        deal,
        rules_name,
        scoring,
        round,
    })
}

/// The set-up of a competition table: `deal` with seat 0 as landlord at bid 1, competition
/// rules, no doubling round, scored by `scoring`; names given both as text and typed.
pub fn fixed_landlord_setup(deal: String, scoring: Scoring) -> ddz_pb::Setup {
    ddz_pb::Setup {
        deal,
        rules: "competition".into(),
        rules_kind: ddz_pb::Rules::Competition as i32,
        landlord: Some(ddz_pb::setup::Landlord::FixedLandlord(0)),
        fixed_bid: 1,
        doubling: false,
        scoring: scoring.name().into(),
        scoring_kind: names::scoring_kind(scoring) as i32,
        round: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_jobs_round_is_read_and_one_past_its_totals_is_refused_naming_the_field() {
        let round = MatchRound::of(4, 9, 3);
        assert_eq!(
            round,
            MatchRound {
                turn: 2,
                turns: 3,
                round: 2,
                rounds: 3
            }
        );
        let setup = ddz_pb::Setup {
            round: Some(round.to_pb()),
            ..Default::default()
        };
        assert_eq!(read_setup(&setup, 1).unwrap().round, Some(round));
        assert_eq!(
            read_setup(&ddz_pb::Setup::default(), 1).unwrap().round,
            None
        );
        for (turn, turns, r, rounds) in [(0, 1, 1, 1), (2, 1, 1, 1), (1, 1, 0, 3), (1, 1, 4, 3)] {
            let setup = ddz_pb::Setup {
                round: Some(ddz_pb::Round {
                    turn,
                    turns,
                    round: r,
                    rounds,
                }),
                ..Default::default()
            };
            let e = read_setup(&setup, 1).unwrap_err();
            assert!(e.to_string().contains("job.ddz.round"), "{e}");
        }
    }
}
