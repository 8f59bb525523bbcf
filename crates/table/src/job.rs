//! Reading a [`v1::TableJob`]: every field checked, every error naming the field.
//!
//! Field names are written as in a `SubmitTableRequest` (`job.seats[1].bot`, `job.ddz.deal`), so
//! a gRPC error can pass them on unchanged.
//!
//! Defaults: an empty `job.ddz` (or none) plays deal 0 of the job's seed with competition rules,
//! bidding from seat 0, no doubling round and competition scoring; an unspecified verdict
//! policy is the game's default (forfeit for Dou Dizhu).

use arena_proto::v1;
use ddz::{Bidding, Deal, GameConfig, RuleSet, Scoring, Seat};
use ddz_bots::BotSpec;

use crate::game::Policy;
use crate::time::TimeRules;

/// How many times a Dou Dizhu auction in which everyone passes is redealt before the first
/// bidder is made landlord at bid 1.
pub const DDZ_MAX_REDEALS: u32 = 3;

/// A job that cannot be run: which field, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct JobError {
    /// The field, e.g. `job.seats[1].bot`.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

impl JobError {
    /// An error about `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> JobError {
        JobError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatBot {
    /// A built-in bot, run inside the referee.
    Builtin(BotSpec),
    /// A registered bot, reached through bot-host.
    Remote(String),
}

impl SeatBot {
    /// Reads a seat's bot name. Names whose head (before `:`) is a built-in bot's (`random`,
    /// `seed`, `expert`, `search`, `ladder`) must parse as one; `cmd:` names start programs and
    /// are refused (programs are registered with bot-host); any other name is a registered bot.
    pub fn parse(name: &str) -> Result<SeatBot, String> {
        if name.trim().is_empty() {
            return Err("empty bot name".into());
        }
        if name.chars().any(char::is_control) {
            return Err(format!("bot name {name:?} contains a control character"));
        }
        let head = name.split(':').next().unwrap_or_default().trim();
        match head {
            "random" | "seed" | "expert" | "search" | "ladder" => {
                name.parse::<BotSpec>().map(SeatBot::Builtin)
            }
            "cmd" => Err(format!(
                "{name:?}: a referee does not start programs; register the program with bot-host and name the registered bot"
            )),
            _ => Ok(SeatBot::Remote(name.to_string())),
        }
    }

    /// The bot's name as the job wrote it (built-in names canonical).
    pub fn name(&self) -> String {
        match self {
            SeatBot::Builtin(spec) => spec.to_string(),
            SeatBot::Remote(name) => name.clone(),
        }
    }
}

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

/// A game's set-up, checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// Dou Dizhu.
    Ddz(DdzSpec),
}

/// A job, checked: everything a table needs.
#[derive(Clone, Debug, PartialEq)]
pub struct TableSpec {
    /// The table id.
    pub table_id: String,
    /// One per seat, in seat order.
    pub seats: Vec<SeatBot>,
    /// Time control, defaults filled in.
    pub time: TimeRules,
    /// The verdict policy, or `None` for the game's default.
    pub policy: Option<Policy>,
    /// Seeds built-in bots and redeals.
    pub seed: u64,
    /// The game and its set-up.
    pub setup: Setup,
}

impl TableSpec {
    /// True when every seat is a built-in bot (the table runs without any I/O).
    pub fn all_builtin(&self) -> bool {
        self.seats.iter().all(|s| matches!(s, SeatBot::Builtin(_)))
    }
}

/// Longest table id (and competition name) a job may carry, in bytes.
pub const MAX_TABLE_ID_BYTES: usize = 256;
/// Most labels a job may carry.
pub const MAX_LABELS: usize = 32;
/// Longest label key and value, in bytes.
pub const MAX_LABEL_BYTES: usize = 1024;
/// Longest bot name of a seat, in bytes.
pub const MAX_BOT_BYTES: usize = 256;
/// The longest hard cap a table may have, in milliseconds (ten minutes).
pub const MAX_HARD_CAP_MS: u32 = 600_000;

/// Checks an identifier the store keys by: non-empty, no control characters, bounded.
fn check_id(field: &str, id: &str, required: bool) -> Result<(), JobError> {
    if id.len() > MAX_TABLE_ID_BYTES {
        return Err(JobError::new(
            field,
            format!("is {} bytes, more than {MAX_TABLE_ID_BYTES}", id.len()),
        ));
    }
    if id.is_empty() {
        return if required {
            Err(JobError::new(field, "is empty"))
        } else {
            Ok(())
        };
    }
    if id.chars().any(char::is_control) {
        return Err(JobError::new(
            field,
            format!("{id:?} contains a control character"),
        ));
    }
    Ok(())
}

/// Checks a job and reads it into a [`TableSpec`].
pub fn validate(job: &v1::TableJob) -> Result<TableSpec, JobError> {
    check_id("job.table_id", &job.table_id, true)?;
    check_id("job.competition", &job.competition, false)?;
    if job.labels.len() > MAX_LABELS {
        return Err(JobError::new(
            "job.labels",
            format!("{} labels, more than {MAX_LABELS}", job.labels.len()),
        ));
    }
    if let Some((k, _)) = job
        .labels
        .iter()
        .find(|(k, v)| k.len() > MAX_LABEL_BYTES || v.len() > MAX_LABEL_BYTES)
    {
        return Err(JobError::new(
            "job.labels",
            format!(
                "label {} is longer than {MAX_LABEL_BYTES} bytes",
                arena_proto::text::quote(k)
            ),
        ));
    }
    if let Some(i) = job.seats.iter().position(|s| s.bot.len() > MAX_BOT_BYTES) {
        return Err(JobError::new(
            format!("job.seats[{i}].bot"),
            format!("longer than {MAX_BOT_BYTES} bytes"),
        ));
    }
    let game = v1::Game::try_from(job.game)
        .map_err(|_| JobError::new("job.game", format!("unknown game {}", job.game)))?;
    let (setup, seat_count) = match game {
        v1::Game::Unspecified => {
            return Err(JobError::new(
                "job.game",
                "not set (GAME_DOU_DIZHU is the game this referee runs)",
            ));
        }
        v1::Game::Mahjong => {
            return Err(JobError::new(
                "job.game",
                "GAME_MAHJONG is not supported yet (no Mahjong rules engine)",
            ));
        }
        v1::Game::DouDizhu => {
            let v1::table_job::Setup::Ddz(setup) = job
                .setup
                .clone()
                .unwrap_or(v1::table_job::Setup::Ddz(v1::DdzSetup::default()));
            (Setup::Ddz(ddz_spec(&setup, job.seed)?), 3)
        }
    };
    if job.seats.len() != seat_count {
        return Err(JobError::new(
            "job.seats",
            format!(
                "{} needs {seat_count} seats, got {}",
                game.as_str_name(),
                job.seats.len()
            ),
        ));
    }
    let seats = job
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            SeatBot::parse(&s.bot).map_err(|e| JobError::new(format!("job.seats[{i}].bot"), e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let time = TimeRules::resolve(&job.time.unwrap_or_default());
    if time.hard_cap_ms > MAX_HARD_CAP_MS {
        return Err(JobError::new(
            "job.time.hard_cap_ms",
            format!(
                "{} ms is more than the longest allowed, {MAX_HARD_CAP_MS} ms",
                time.hard_cap_ms
            ),
        ));
    }
    if time.hard_cap_ms < time.decision_ms {
        return Err(JobError::new(
            "job.time.hard_cap_ms",
            format!(
                "the hard cap ({} ms) is below the decision limit ({} ms)",
                time.hard_cap_ms, time.decision_ms
            ),
        ));
    }
    let policy = match v1::VerdictPolicy::try_from(job.verdict_policy) {
        Ok(v1::VerdictPolicy::Unspecified) => None,
        Ok(v1::VerdictPolicy::Forfeit) => Some(Policy::Forfeit),
        Ok(v1::VerdictPolicy::PlayOn) => Some(Policy::PlayOn),
        Err(_) => {
            return Err(JobError::new(
                "job.verdict_policy",
                format!("unknown verdict policy {}", job.verdict_policy),
            ));
        }
    };
    Ok(TableSpec {
        table_id: job.table_id.clone(),
        seats,
        time,
        policy,
        seed: job.seed,
        setup,
    })
}

fn ddz_spec(setup: &v1::DdzSetup, seed: u64) -> Result<DdzSpec, JobError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn job() -> v1::TableJob {
        v1::TableJob {
            table_id: "t1".into(),
            game: v1::Game::DouDizhu as i32,
            seats: ["expert", "ladder:3/10", "some-remote-bot"]
                .map(|b| v1::SeatSpec { bot: b.into() })
                .to_vec(),
            setup: Some(v1::table_job::Setup::Ddz(v1::DdzSetup {
                deal: Deal::generate(5, 0).to_string(),
                rules: "douzero".into(),
                landlord: Some(v1::ddz_setup::Landlord::FixedLandlord(2)),
                fixed_bid: 2,
                doubling: true,
                scoring: "adp".into(),
            })),
            seed: 9,
            ..Default::default()
        }
    }

    fn field_of(j: &v1::TableJob) -> String {
        validate(j).unwrap_err().field
    }

    #[test]
    fn a_good_job_reads_into_a_spec() {
        let s = validate(&job()).unwrap();
        assert_eq!(s.table_id, "t1");
        assert_eq!(s.seats[0], SeatBot::Builtin(BotSpec::Expert));
        assert_eq!(s.seats[2], SeatBot::Remote("some-remote-bot".into()));
        assert!(!s.all_builtin());
        assert_eq!(s.policy, None);
        let Setup::Ddz(d) = s.setup;
        assert_eq!(d.deal, Deal::generate(5, 0));
        assert_eq!((d.rules_name, d.scoring), ("douzero", Scoring::Adp));
        assert_eq!(
            d.config.bidding,
            Bidding::Fixed {
                landlord: Seat::ALL[2],
                bid: 2
            }
        );
        assert!(d.config.doubling);
    }

    #[test]
    fn an_empty_setup_plays_deal_zero_of_the_seed_with_bidding_from_seat_0() {
        let mut j = job();
        j.setup = None;
        let Setup::Ddz(d) = validate(&j).unwrap().setup;
        assert_eq!(d.deal, Deal::generate(9, 0));
        assert_eq!(
            d.config,
            GameConfig {
                doubling: false,
                ..GameConfig::competition()
            }
        );
        assert_eq!(
            (d.rules_name, d.scoring),
            ("competition", Scoring::Competition)
        );
    }

    #[test]
    fn every_bad_field_is_named() {
        let mut j = job();
        j.table_id.clear();
        assert_eq!(field_of(&j), "job.table_id");

        let mut j = job();
        j.game = v1::Game::Unspecified as i32;
        assert_eq!(field_of(&j), "job.game");
        j.game = 77;
        assert!(
            validate(&j)
                .unwrap_err()
                .to_string()
                .contains("unknown game 77")
        );
        j.game = v1::Game::Mahjong as i32;
        assert!(validate(&j).unwrap_err().message.contains("not supported"));

        let mut j = job();
        j.seats.pop();
        let e = validate(&j).unwrap_err();
        assert_eq!(e.field, "job.seats");
        assert!(e.message.contains("needs 3 seats, got 2"), "{e}");

        let mut j = job();
        j.seats[1].bot = "ladder:0/10".into();
        let e = validate(&j).unwrap_err();
        assert_eq!(e.field, "job.seats[1].bot");
        assert!(e.message.contains("1 ≤ K ≤ N"), "{e}");
        j.seats[1].bot = " ".into();
        assert_eq!(field_of(&j), "job.seats[1].bot");
        j.seats[1].bot = "cmd:rm -rf /".into();
        assert!(
            validate(&j)
                .unwrap_err()
                .message
                .contains("does not start programs")
        );

        let set = |f: &dyn Fn(&mut v1::DdzSetup)| {
            let mut j = job();
            let Some(v1::table_job::Setup::Ddz(s)) = &mut j.setup else {
                unreachable!()
            };
            f(s);
            validate(&j).unwrap_err()
        };
        let e = set(&|s| s.deal = "3/4".into());
        assert_eq!(e.field, "job.ddz.deal");
        assert!(e.message.contains("four parts"), "{e}");
        assert_eq!(set(&|s| s.deal.push('X')).field, "job.ddz.deal");
        let e = set(&|s| s.rules = "house".into());
        assert_eq!(e.field, "job.ddz.rules");
        assert!(e.message.contains("unknown rule set \"house\""), "{e}");
        assert_eq!(set(&|s| s.scoring = "elo".into()).field, "job.ddz.scoring");
        assert_eq!(set(&|s| s.fixed_bid = 4).field, "job.ddz.fixed_bid");
        assert_eq!(
            set(&|s| s.landlord = Some(v1::ddz_setup::Landlord::FixedLandlord(3))).field,
            "job.ddz.fixed_landlord"
        );
        assert_eq!(
            set(&|s| s.landlord = Some(v1::ddz_setup::Landlord::FirstBidder(9))).field,
            "job.ddz.first_bidder"
        );

        let mut j = job();
        j.time = Some(v1::TimeControl {
            decision_ms: 6000,
            ..Default::default()
        });
        let e = validate(&j).unwrap_err();
        assert_eq!(e.field, "job.time.hard_cap_ms");
        assert!(e.message.contains("below the decision limit"), "{e}");

        let mut j = job();
        j.verdict_policy = 9;
        assert_eq!(field_of(&j), "job.verdict_policy");

        let mut j = job();
        j.competition = "a\nb".into();
        assert_eq!(field_of(&j), "job.competition");
    }
}
