//! Reading a [`v1::TableJob`], the game-neutral half: every field checked, every error naming
//! the field. The games (crate `arena-games`) read their own set-up and built-in bot names and
//! call [`check_envelope`] before and [`read_spec`] after.
//!
//! Field names are written as in a `SubmitTableRequest` (`job.seats[1].bot`, `job.ddz.deal`), so
//! a gRPC error can pass them on unchanged. An unspecified verdict policy is the game's default.

use std::fmt;

use arena_proto::v1;

use crate::game::Policy;
use crate::time::TimeRules;

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

/// Who sits in a seat; `B` is the game's built-in bot spec.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatBot<B> {
    /// A built-in bot, run inside the referee.
    Builtin(B),
    /// A registered bot, reached through bot-host.
    Remote(String),
}

impl<B> SeatBot<B> {
    /// Reads a seat's bot name. `builtin` reads the game's built-in names: `None` when the name
    /// is not one (its head, before `:`, names no built-in bot), else the spec or why it does not
    /// parse. `cmd:` names start programs and are refused (programs are registered with
    /// bot-host); any other name is a registered bot.
    pub fn parse(
        name: &str,
        builtin: impl FnOnce(&str) -> Option<Result<B, String>>,
    ) -> Result<SeatBot<B>, String> {
        if name.trim().is_empty() {
            return Err("empty bot name".into());
        }
        if let Err(why) = arena_proto::text::check_shown(name) {
            return Err(format!("bot name {name:?} {why}"));
        }
        if let Some(spec) = builtin(name) {
            return spec.map(SeatBot::Builtin);
        }
        match name.split(':').next().unwrap_or_default().trim() {
            "cmd" => Err(format!(
                "{name:?}: a referee does not start programs; register the program with bot-host and name the registered bot"
            )),
            _ => Ok(SeatBot::Remote(name.to_string())),
        }
    }

    /// True for a built-in bot.
    pub fn is_builtin(&self) -> bool {
        matches!(self, SeatBot::Builtin(_))
    }
}

impl<B: fmt::Display> SeatBot<B> {
    /// The bot's name as the job wrote it (built-in names canonical).
    pub fn name(&self) -> String {
        match self {
            SeatBot::Builtin(spec) => spec.to_string(),
            SeatBot::Remote(name) => name.clone(),
        }
    }
}

/// A job, checked: everything a table of a game with set-up `S` and built-in bots `B` needs.
#[derive(Clone, Debug, PartialEq)]
pub struct TableSpec<S, B> {
    /// The table id.
    pub table_id: String,
    /// One per seat, in seat order.
    pub seats: Vec<SeatBot<B>>,
    /// Time control, defaults filled in.
    pub time: TimeRules,
    /// The verdict policy, or `None` for the game's default.
    pub policy: Option<Policy>,
    /// Seeds built-in bots and redeals.
    pub seed: u64,
    /// The game's set-up.
    pub setup: S,
}

impl<S, B> TableSpec<S, B> {
    /// True when every seat is a built-in bot (the table runs without any I/O).
    pub fn all_builtin(&self) -> bool {
        self.seats.iter().all(SeatBot::is_builtin)
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

/// Checks the game-neutral fields a game reads before its set-up: the table id, the
/// competition, the labels and the length of every seat's bot name.
pub fn check_envelope(job: &v1::TableJob) -> Result<(), JobError> {
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
    Ok(())
}

/// Reads the game-neutral rest of a job whose game (`game`, as errors name it) and set-up
/// `setup` are read: the seats
/// (`seat_count` of them, each name read by `parse_bot`, see [`SeatBot::parse`]), the time
/// control (an unspecified penalty rounding is the game's `rounding`) and the verdict policy.
pub fn read_spec<S, B>(
    job: &v1::TableJob,
    game: &str,
    setup: S,
    seat_count: usize,
    rounding: v1::PenaltyRounding,
    parse_bot: impl Fn(&str) -> Result<SeatBot<B>, String>,
) -> Result<TableSpec<S, B>, JobError> {
    if job.seats.len() != seat_count {
        return Err(JobError::new(
            "job.seats",
            format!("{game} needs {seat_count} seats, got {}", job.seats.len()),
        ));
    }
    let seats = job
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            parse_bot(&s.bot).map_err(|e| JobError::new(format!("job.seats[{i}].bot"), e))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let time = TimeRules::resolve(&job.time.unwrap_or_default(), rounding);
    if v1::PenaltyRounding::try_from(job.time.unwrap_or_default().penalty_rounding).is_err() {
        return Err(JobError::new(
            "job.time.penalty_rounding",
            "not a penalty rounding (started or nearest)",
        ));
    }
    if time.hard_cap_ms > MAX_HARD_CAP_MS {
        return Err(JobError::new(
            "job.time.hard_cap_ms",
            format!(
                "{} ms is more than the longest allowed, {MAX_HARD_CAP_MS} ms",
                time.hard_cap_ms
            ),
        ));
    }
    if time.hard_cap_ms < time.decision_ms.max(time.claim_ms) {
        return Err(JobError::new(
            "job.time.hard_cap_ms",
            format!(
                "the hard cap ({} ms) is below the decision limit ({} ms)",
                time.hard_cap_ms,
                time.decision_ms.max(time.claim_ms)
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
