//! `arena competition create`'s flags and the `CompetitionSpec` they make.

use anyhow::{Result, bail};
use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use arena_proto::v1;
use clap::Args;

use super::competition::MatchmakerAddr;
use super::flags::GameArg;

/// `arena competition create`. A Dou Dizhu competition seats each participant as landlord at a
/// table of its own against the farmer bot; a Mahjong competition (`--game mahjong`) plays the
/// contest's 96-hand duplicate match `--matches` times among exactly four participants, dealt
/// from its seed (the Dou Dizhu options are refused there). Every field of the protocol's
/// `CompetitionSpec` has a flag.
#[derive(Args)]
pub struct CompetitionCreateArgs {
    /// Unique name (deals are claimed under it).
    #[arg(long)]
    pub(super) name: String,
    /// The game.
    #[arg(long, value_enum, default_value = "dou-dizhu")]
    pub(super) game: GameArg,
    /// duplicate, equal-strength, random or difficulty-adjusted [Dou Dizhu default:
    /// equal-strength; Mahjong: duplicate only].
    #[arg(long)]
    pub(super) format: Option<String>,
    /// Equal-strength centre, e.g. 0.95,0.55,0.15 [default: 0.95,0.55,0.15].
    #[arg(long, value_delimiter = ',')]
    pub(super) centre: Option<Vec<f64>>,
    /// Equal-strength radius [default: 0.15].
    #[arg(long)]
    pub(super) eps: Option<f64>,
    /// Participants (bot names): Dou Dizhu, one table each as landlord; Mahjong, exactly four
    /// (built-in random, greedy, expert, or registered bots; a name may repeat).
    #[arg(long)]
    pub(super) participants: String,
    /// The farmer bot at every table (Dou Dizhu) [default: expert].
    #[arg(long)]
    pub(super) farmers: Option<String>,
    /// Matches [Dou Dizhu default: 10; Mahjong: 1, of 96 hands each].
    #[arg(long)]
    pub(super) matches: Option<u32>,
    /// Rounds per match (Dou Dizhu) [default: 10].
    #[arg(long)]
    pub(super) rounds: Option<u32>,
    /// The panel whose library supplies measured deals (Dou Dizhu; `ladder:N` or bot names)
    /// [default: ladder:70].
    #[arg(long)]
    pub(super) panel: Option<String>,
    /// The panel's farmer bot (Dou Dizhu) [default: --farmers].
    #[arg(long)]
    pub(super) panel_farmers: Option<String>,
    /// Scoring mode of every table and of the panel's levels (Dou Dizhu): competition,
    /// difficulty, adp or wp [default: difficulty].
    #[arg(long)]
    pub(super) scoring: Option<ddz::Scoring>,
    /// Rule set of every table (Dou Dizhu): competition, douzero or openspiel; equal-strength
    /// and difficulty-adjusted competitions play competition [default: competition].
    #[arg(long, value_enum)]
    pub(super) rules: Option<RulesArg>,
    /// Bombs per deal, the rocket counted as one (Dou Dizhu); an equal-strength centre then has
    /// 2 × (bombs + 1) − 1 values [default: 1].
    #[arg(long)]
    pub(super) bombs: Option<u32>,
    /// Seed of the deals: it fixes every fresh deal (duplicate, random, every Mahjong wall) and
    /// which library deal each table gets [default: drawn at random by the matchmaker and shown
    /// once the competition has finished; a known seed lets anyone deal the cards].
    #[arg(long)]
    pub(super) seed: Option<u64>,
    /// Also play every deal with each participant in both farmer seats (its round score is then
    /// its landlord score plus its farmer team's score). Dou Dizhu.
    #[arg(long)]
    pub(super) rotate_seats: bool,
    /// Fan reading (Mahjong): contest or seed-2015 [default: contest].
    #[arg(long)]
    pub(super) fans: Option<mahjong::Reading>,
    /// Time for one decision (a Mahjong turn), ms [default: 1000].
    #[arg(long)]
    pub(super) decision_ms: Option<u32>,
    /// Mahjong: time for an answer to a discard or an added kong, ms [default: 500].
    #[arg(long)]
    pub(super) claim_ms: Option<u32>,
    /// No answer by then is a timeout verdict, ms [default: 5000].
    #[arg(long)]
    pub(super) hard_cap_ms: Option<u32>,
    /// Penalty points per 100 ms beyond the decision time [Mahjong default: 1; Dou Dizhu: 0].
    #[arg(long)]
    pub(super) penalty_per_100ms: Option<u32>,
    /// How time beyond the limit is counted in 100 ms steps: `started` (every started step) or
    /// `nearest` (rounded half up) [Dou Dizhu default: started; Mahjong: nearest].
    #[arg(long, value_enum)]
    pub(super) penalty_rounding: Option<RoundingArg>,
    /// What a verdict (timeout, illegal or malformed answer, crash, lost connection) does:
    /// `forfeit` (the seat's side loses the game at once) or `play-on` (the seat plays on
    /// automatically and takes --verdict-penalty points) [Dou Dizhu default: forfeit; Mahjong:
    /// play-on].
    #[arg(long, value_enum)]
    pub(super) verdict_policy: Option<VerdictPolicyArg>,
    /// Penalty points a seat takes for a verdict under `--verdict-policy play-on` [default: 0].
    #[arg(long)]
    pub(super) verdict_penalty: Option<u32>,
    /// The job lane of its tables, taken only by referees started with `--lane` of that name
    /// [default: the default lane].
    #[arg(long, default_value = "")]
    pub(super) lane: String,
    /// Fail when the library lacks deals for an equal-strength or difficulty-adjusted
    /// competition, instead of asking the deal library (--library) to find them.
    #[arg(long)]
    pub(super) no_find: bool,
    #[command(flatten)]
    pub(super) library: crate::library_client::LibraryAddr,
    #[command(flatten)]
    pub(super) addr: MatchmakerAddr,
}

/// A Dou Dizhu rule set a competition may play.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RulesArg {
    /// The arena's rules.
    Competition,
    /// DouZero's reading of kickers and wings.
    Douzero,
    /// OpenSpiel's (no four-with-two).
    Openspiel,
}

impl RulesArg {
    pub(super) fn wire(self) -> ddz_pb::Rules {
        match self {
            RulesArg::Competition => ddz_pb::Rules::Competition,
            RulesArg::Douzero => ddz_pb::Rules::Douzero,
            RulesArg::Openspiel => ddz_pb::Rules::Openspiel,
        }
    }
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
    /// referee's defaults apply), else every field, unset ones at the game's defaults.
    pub(super) fn time(&self) -> Option<v1::TimeControl> {
        let given = self.decision_ms.is_some()
            || self.claim_ms.is_some()
            || self.hard_cap_ms.is_some()
            || self.penalty_per_100ms.is_some()
            || self.penalty_rounding.is_some()
            || self.verdict_penalty.is_some();
        given.then(|| {
            // Dou Dizhu's defaults are the referee's (0 = default); Mahjong's the contest's.
            let defaults = match self.game {
                GameArg::Mahjong => arena_games::mahjong::spec::contest_time(),
                GameArg::DouDizhu => v1::TimeControl::default(),
            };
            v1::TimeControl {
                decision_ms: self.decision_ms.unwrap_or(defaults.decision_ms),
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

    /// The spec to send: Dou Dizhu fields get their defaults for a Dou Dizhu competition and are
    /// sent as given (so the matchmaker can refuse them) for a Mahjong one; the rules travel as
    /// the game's setup message, and a rule flag of the other game is refused here.
    pub(super) fn spec(&self) -> Result<v1::CompetitionSpec> {
        let participants = crate::compete_cmd::split_tables(&self.participants);
        let verdict_policy = match self.verdict_policy {
            Some(VerdictPolicyArg::Forfeit) => v1::VerdictPolicy::Forfeit,
            Some(VerdictPolicyArg::PlayOn) => v1::VerdictPolicy::PlayOn,
            None => v1::VerdictPolicy::Unspecified,
        } as i32;
        let scoring = |s: ddz::Scoring| s.name().to_string();
        Ok(match self.game {
            GameArg::Mahjong => v1::CompetitionSpec {
                setup: {
                    if self.rules.is_some() {
                        bail!("--rules is for Dou Dizhu competitions (a Mahjong one reads --fans)");
                    }
                    let fans = self
                        .fans
                        .map_or(0, |r| arena_games::mahjong::spec::fans_kind(r) as i32);
                    Some(arena_proto::payload::pack(
                        &arena_games::mahjong::pb::Setup {
                            fans,
                            ..Default::default()
                        },
                    ))
                },
                name: self.name.clone(),
                game: "mahjong".into(),
                format: self.format.clone().unwrap_or_default(),
                centre: self.centre.clone().unwrap_or_default(),
                eps: self.eps.unwrap_or_default(),
                participants,
                farmers: self.farmers.clone().unwrap_or_default(),
                matches: self.matches.unwrap_or(1),
                rounds: self.rounds.unwrap_or(0),
                panel: (self.panel.is_some()
                    || self.panel_farmers.is_some()
                    || self.scoring.is_some())
                .then(|| v1::PanelSpec {
                    landlords: self.panel.clone().unwrap_or_default(),
                    farmers: self.panel_farmers.clone().unwrap_or_default(),
                    scoring: self.scoring.map(scoring).unwrap_or_default(),
                }),
                bombs: self.bombs.unwrap_or(0),
                seed: self.seed.unwrap_or(0),
                rotate_seats: self.rotate_seats,
                time: self.time(),
                verdict_policy,
                lane: self.lane.clone(),
                ..Default::default()
            },
            GameArg::DouDizhu => {
                let farmers = self.farmers.clone().unwrap_or_else(|| "expert".into());
                let format = self
                    .format
                    .clone()
                    .unwrap_or_else(|| "equal-strength".into());
                let panel_scoring = self.scoring.unwrap_or(ddz::Scoring::Difficulty);
                let bombs = self.bombs.unwrap_or(1).max(1);
                let default = arena_deals::wanted::default_centre(panel_scoring, bombs);
                let centre = match (&self.centre, default) {
                    (Some(c), _) => c.clone(),
                    (None, Some(c)) => c,
                    (None, None) if format == "equal-strength" => bail!(
                        "an equal-strength competition of deals with {bombs} bomb(s) under \
                         {panel_scoring} scoring needs --centre with {} GDI values",
                        arena_deals::levels::gdi_dimension(panel_scoring, bombs)
                    ),
                    (None, None) => Vec::new(),
                };
                v1::CompetitionSpec {
                    name: self.name.clone(),
                    game: "ddz".into(),
                    format,
                    centre,
                    eps: self.eps.unwrap_or(arena_deals::wanted::DEFAULT_EPS),
                    participants,
                    farmers: farmers.clone(),
                    matches: self.matches.unwrap_or(10),
                    rounds: self.rounds.unwrap_or(10),
                    panel: Some(v1::PanelSpec {
                        landlords: self.panel.clone().unwrap_or_else(|| "ladder:70".into()),
                        farmers: self.panel_farmers.clone().unwrap_or(farmers),
                        scoring: self.scoring.map(scoring).unwrap_or_default(),
                    }),
                    bombs: self.bombs.unwrap_or(0),
                    setup: {
                        if self.fans.is_some() {
                            bail!("--fans is for Mahjong competitions");
                        }
                        self.rules.map(|r| {
                            arena_proto::payload::pack(&ddz_pb::Setup {
                                rules_kind: r.wire() as i32,
                                ..Default::default()
                            })
                        })
                    },
                    seed: self.seed.unwrap_or(0),
                    rotate_seats: self.rotate_seats,
                    time: self.time(),
                    verdict_policy,
                    lane: self.lane.clone(),
                    ..Default::default()
                }
            }
        })
    }
}
