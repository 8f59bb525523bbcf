//! `arena competition create`'s flags and the `CompetitionSpec` they make.

use anyhow::{Result, anyhow};
use arena_proto::v1;
use clap::Args;

use super::competition::MatchmakerAddr;
use super::flags::GameArg;
use super::game_options::{CompetitionFields, GameOptions};

/// `arena competition create`: the flags every competition has, and one per option of the
/// registered games' competitions (`arena_games::Game::competition_fields`; an option of
/// another game is refused, or sent for the matchmaker to refuse). Every field of the
/// protocol's `CompetitionSpec` has a flag.
#[derive(Args)]
pub struct CompetitionCreateArgs {
    /// Unique name (deals are claimed under it).
    #[arg(long)]
    pub(super) name: String,
    #[arg(long, value_parser = GameArg::parse, default_value_t, help = GameArg::help())]
    pub(super) game: GameArg,
    /// Participants (bot names, comma-separated: built-in or registered bots), as many as the
    /// game's competitions take.
    #[arg(long)]
    pub(super) participants: String,
    /// Seed of the deals: it fixes every fresh deal (duplicate, random, every wall dealt) and
    /// which library deal each table gets [default: drawn at random by the matchmaker and shown
    /// once the competition has finished; a known seed lets anyone deal the cards].
    #[arg(long)]
    pub(super) seed: Option<u64>,
    /// Time for one decision, ms, for every seat [default: the game's, 1000, except for a
    /// registered bot with a decision limit of its own (`arena bots add --decision-ms`, a
    /// --botzone bot's language), whose seats get that].
    #[arg(long)]
    pub(super) decision_ms: Option<u32>,
    /// Time for an answer out of turn (a game's claims), ms [default: the game's].
    #[arg(long)]
    pub(super) claim_ms: Option<u32>,
    /// No answer by then is a timeout verdict, ms [default: 5000].
    #[arg(long)]
    pub(super) hard_cap_ms: Option<u32>,
    /// Penalty points per 100 ms beyond the decision time [default: the game's].
    #[arg(long)]
    pub(super) penalty_per_100ms: Option<u32>,
    /// How time beyond the limit is counted in 100 ms steps: `started` (every started step) or
    /// `nearest` (rounded half up) [default: the game's].
    #[arg(long, value_enum)]
    pub(super) penalty_rounding: Option<RoundingArg>,
    /// What a verdict (timeout, illegal or malformed answer, crash, lost connection) does:
    /// `forfeit` (the seat's side loses the game at once) or `play-on` (the seat plays on
    /// automatically and takes --verdict-penalty points) [default: the game's].
    #[arg(long, value_enum)]
    pub(super) verdict_policy: Option<VerdictPolicyArg>,
    /// Penalty points a seat takes for a verdict under `--verdict-policy play-on` [default: 0].
    #[arg(long)]
    pub(super) verdict_penalty: Option<u32>,
    /// The job lane of its tables, taken only by referees started with `--lane` of that name
    /// [default: the default lane].
    #[arg(long, default_value = "")]
    pub(super) lane: String,
    #[command(flatten)]
    pub(super) options: GameOptions<CompetitionFields>,
    /// Fail when the library lacks deals for an equal-strength or difficulty-adjusted
    /// competition, instead of asking the deal library (--library) to find them.
    #[arg(long)]
    pub(super) no_find: bool,
    #[command(flatten)]
    pub(super) library: crate::library_client::LibraryAddr,
    #[command(flatten)]
    pub(super) addr: MatchmakerAddr,
}

/// How an overrun is counted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RoundingArg {
    /// Every started 100 ms.
    Started,
    /// The nearest 100 ms, half up.
    Nearest,
}

/// What a verdict does to its seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VerdictPolicyArg {
    /// The seat's side loses at once.
    Forfeit,
    /// The seat plays on automatically.
    PlayOn,
}

impl CompetitionCreateArgs {
    /// The time control to send: `None` when no clock flag is given (the matchmaker's and
    /// referee's defaults apply), else every field, unset ones at the game's defaults, but for
    /// the decision limit: unset, it stays 0, which leaves it to the referee (a seat's bot's
    /// own limit, else the default, which is every game's default too).
    pub(super) fn time(&self) -> Option<v1::TimeControl> {
        let given = self.decision_ms.is_some()
            || self.claim_ms.is_some()
            || self.hard_cap_ms.is_some()
            || self.penalty_per_100ms.is_some()
            || self.penalty_rounding.is_some()
            || self.verdict_penalty.is_some();
        given.then(|| {
            let defaults = self.game.0.default_time();
            v1::TimeControl {
                decision_ms: self.decision_ms.unwrap_or(0),
                claim_ms: self.claim_ms.unwrap_or(defaults.claim_ms),
                hard_cap_ms: self.hard_cap_ms.unwrap_or(defaults.hard_cap_ms),
                penalty_per_100ms: self.penalty_per_100ms.unwrap_or(defaults.penalty_per_100ms),
                verdict_penalty: self.verdict_penalty.unwrap_or(defaults.verdict_penalty),
                penalty_rounding: match self.penalty_rounding {
                    Some(RoundingArg::Started) => v1::PenaltyRounding::Started as i32,
                    Some(RoundingArg::Nearest) => v1::PenaltyRounding::Nearest as i32,
                    None => defaults.penalty_rounding,
                },
            }
        })
    }

    /// The spec to send: the fields every competition has from their flags, the game's own
    /// from its options ([`arena_games::Game::competition_spec`], which fills in its defaults).
    pub(super) fn spec(&self) -> Result<v1::CompetitionSpec> {
        let verdict_policy = match self.verdict_policy {
            Some(VerdictPolicyArg::Forfeit) => v1::VerdictPolicy::Forfeit,
            Some(VerdictPolicyArg::PlayOn) => v1::VerdictPolicy::PlayOn,
            None => v1::VerdictPolicy::Unspecified,
        } as i32;
        let mut spec = v1::CompetitionSpec {
            name: self.name.clone(),
            game: self.game.wire().into(),
            participants: crate::compete_cmd::split_tables(&self.participants),
            seed: self.seed.unwrap_or(0),
            time: self.time(),
            verdict_policy,
            lane: self.lane.clone(),
            ..Default::default()
        };
        self.game
            .0
            .competition_spec(&mut spec, &self.options.given)
            .map_err(|e| anyhow!(e))?;
        Ok(spec)
    }
}
