//! The games the platform plays, and the glue between each game's rules and the game-neutral
//! platform (`arena-table`, `arena-proto`): one module per game, and enums over the games that
//! the services dispatch on (as shakmaty's `VariantPosition` is over chess variants).
//!
//! - [`GameKind`]: which game (read from the wire's [`v1::Game`]), its seat count and its
//!   built-in bot names ([`GameKind::builtin`]: the same name, `random`, may exist in several
//!   games, each reading it its own way);
//! - [`Builtin`]: a built-in bot of some game; [`RequestBot`]: a built-in bot deciding
//!   requests from the wire (bot-host);
//! - [`CheckedJob`]: a [`v1::TableJob`] read for its game ([`validate`]), played by
//!   [`run_spec`] / [`run_table`] on the one runner of `arena-table`.
//!
//! A second game is an addition: a module next to [`ddz`], and one variant in each enum.

pub mod ddz;
pub mod mahjong;

use arena_proto::v1;
use arena_table::job::{check_envelope, read_spec};
use arena_table::run::{Played, SeatPlan, TableSetup, run_game};
use arena_table::{JobError, RunOptions, SeatBot, SeatDialer, TableSpec, error_result};
use tracing::Instrument;

/// A request whose content is not a valid decision request of its game; the text names the
/// field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadRequest(pub String);

/// A game the platform has rules for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Dou Dizhu (three seats).
    DouDizhu,
    /// The 2015 contest Mahjong (four seats).
    Mahjong,
}

impl GameKind {
    /// Every game with rules.
    pub const ALL: [GameKind; 2] = [GameKind::DouDizhu, GameKind::Mahjong];

    /// The game a wire value names, or why the platform cannot play it.
    pub fn from_wire(game: i32) -> Result<GameKind, String> {
        match v1::Game::try_from(game) {
            Ok(v1::Game::DouDizhu) => Ok(GameKind::DouDizhu),
            Ok(v1::Game::Mahjong) => Ok(GameKind::Mahjong),
            Ok(v1::Game::Unspecified) => Err("not set (GAME_DOU_DIZHU or GAME_MAHJONG)".into()),
            Err(_) => Err(format!("unknown game {game}")),
        }
    }

    /// The game as named on the wire.
    pub fn wire(self) -> v1::Game {
        match self {
            GameKind::DouDizhu => v1::Game::DouDizhu,
            GameKind::Mahjong => v1::Game::Mahjong,
        }
    }

    /// The line protocol a program playing seat `seat` of this game speaks (a fresh one per
    /// seat and table): what bot-host and the CLI's `cmd:` seats run a program with.
    pub fn program_protocol(self, seat: u32) -> Box<dyn arena_line::ProgramProtocol> {
        match self {
            GameKind::DouDizhu => Box::new(ddz::program::DdzProgram::default()),
            // A Mahjong table has four seats; the table refuses any other before it asks.
            GameKind::Mahjong => Box::new(mahjong::program::MahjongProgram::new((seat & 3) as u8)),
        }
    }

    /// How many seats a table of this game has.
    pub fn seat_count(self) -> usize {
        match self {
            GameKind::DouDizhu => 3,
            GameKind::Mahjong => 4,
        }
    }

    /// Reads `name` as one of this game's built-in bots: `None` when it names none (its head,
    /// before `:`, is not a built-in bot's), else the spec or why it does not parse.
    pub fn builtin(self, name: &str) -> Option<Result<Builtin, String>> {
        match self {
            GameKind::DouDizhu => ddz::bots::parse_builtin(name).map(|r| r.map(Builtin::Ddz)),
            GameKind::Mahjong => {
                mahjong::bots::parse_builtin(name).map(|r| r.map(Builtin::Mahjong))
            }
        }
    }

    /// This game's built-in bot names as a user writes them, for messages.
    pub fn builtin_help(self) -> &'static str {
        match self {
            GameKind::DouDizhu => ddz::bots::BUILTIN_HELP,
            GameKind::Mahjong => mahjong::bots::BUILTIN_HELP,
        }
    }
}

/// The game as the store's records name it (a program bot's game, the games a remote bot
/// plays).
impl From<GameKind> for arena_store::Game {
    fn from(game: GameKind) -> arena_store::Game {
        match game {
            GameKind::DouDizhu => arena_store::Game::DouDizhu,
            GameKind::Mahjong => arena_store::Game::Mahjong,
        }
    }
}

/// The game a store record names.
impl From<arena_store::Game> for GameKind {
    fn from(game: arena_store::Game) -> GameKind {
        match game {
            arena_store::Game::DouDizhu => GameKind::DouDizhu,
            arena_store::Game::Mahjong => GameKind::Mahjong,
        }
    }
}

/// A built-in bot of one game.
#[derive(Clone, Debug, PartialEq)]
pub enum Builtin {
    /// A Dou Dizhu bot.
    Ddz(ddz::builtin::BotSpec),
    /// A Mahjong bot.
    Mahjong(mahjong::builtin::spec::BotSpec),
}

impl Builtin {
    /// The game the bot plays.
    pub fn game(&self) -> GameKind {
        match self {
            Builtin::Ddz(_) => GameKind::DouDizhu,
            Builtin::Mahjong(_) => GameKind::Mahjong,
        }
    }

    /// The bot, seeded with `seed`, deciding requests from the wire; `None` if the spec names
    /// no built-in bot (a `cmd:` spec).
    pub fn request_bot(&self, seed: u64) -> Option<Box<dyn RequestBot>> {
        match self {
            Builtin::Ddz(spec) => ddz::bots::DdzRequestBot::new(spec, seed)
                .map(|b| Box::new(b) as Box<dyn RequestBot>),
            Builtin::Mahjong(spec) => mahjong::bots::MahjongRequestBot::new(spec, seed)
                .map(|b| Box::new(b) as Box<dyn RequestBot>),
        }
    }
}

impl std::fmt::Display for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Builtin::Ddz(spec) => spec.fmt(f),
            Builtin::Mahjong(spec) => spec.fmt(f),
        }
    }
}

/// A built-in bot answering decision requests read from the wire: it decides from what the
/// request shows (the seat's observation), nothing else.
pub trait RequestBot: Send {
    /// The action for `req`, or why the request is not a valid one of the bot's game.
    fn decide(&mut self, req: &v1::DecisionRequest) -> Result<v1::Action, BadRequest>;
}

/// A [`v1::TableJob`], checked and read for its game.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckedJob {
    /// A Dou Dizhu table.
    Ddz(TableSpec<ddz::DdzSpec, ddz::builtin::BotSpec>),
    /// A Mahjong hand.
    Mahjong(TableSpec<mahjong::MahjongSpec, mahjong::builtin::spec::BotSpec>),
}

impl CheckedJob {
    /// The game.
    pub fn game(&self) -> GameKind {
        match self {
            CheckedJob::Ddz(_) => GameKind::DouDizhu,
            CheckedJob::Mahjong(_) => GameKind::Mahjong,
        }
    }

    /// The table id.
    pub fn table_id(&self) -> &str {
        match self {
            CheckedJob::Ddz(s) => &s.table_id,
            CheckedJob::Mahjong(s) => &s.table_id,
        }
    }

    /// For each seat in order, whether a built-in bot sits there.
    pub fn builtin_seats(&self) -> Vec<bool> {
        match self {
            CheckedJob::Ddz(s) => s.seats.iter().map(SeatBot::is_builtin).collect(),
            CheckedJob::Mahjong(s) => s.seats.iter().map(SeatBot::is_builtin).collect(),
        }
    }

    /// True when every seat is a built-in bot (the table runs without any I/O).
    pub fn all_builtin(&self) -> bool {
        match self {
            CheckedJob::Ddz(s) => s.all_builtin(),
            CheckedJob::Mahjong(s) => s.all_builtin(),
        }
    }
}

/// The error for a set-up of another game than the job's.
fn wrong_setup(game: GameKind) -> JobError {
    JobError::new(
        "job.setup",
        format!("the set-up is not one of {}", game.wire().as_str_name()),
    )
}

/// Checks a job and reads it for its game, every error naming its field.
pub fn validate(job: &v1::TableJob) -> Result<CheckedJob, JobError> {
    check_envelope(job)?;
    let game = GameKind::from_wire(job.game).map_err(|e| JobError::new("job.game", e))?;
    let seats = game.seat_count();
    match game {
        GameKind::DouDizhu => {
            let setup = match &job.setup {
                None => ddz::spec::read_setup(&v1::DdzSetup::default(), job.seed)?,
                Some(v1::table_job::Setup::Ddz(s)) => ddz::spec::read_setup(s, job.seed)?,
                Some(_) => return Err(wrong_setup(game)),
            };
            read_spec(job, setup, seats, v1::PenaltyRounding::Started, |name| {
                SeatBot::parse(name, ddz::bots::parse_builtin)
            })
            .map(CheckedJob::Ddz)
        }
        GameKind::Mahjong => {
            let setup = match &job.setup {
                None => mahjong::spec::read_setup(&v1::MahjongSetup::default(), job.seed)?,
                Some(v1::table_job::Setup::Mahjong(s)) => mahjong::spec::read_setup(s, job.seed)?,
                Some(_) => return Err(wrong_setup(game)),
            };
            read_spec(job, setup, seats, v1::PenaltyRounding::Nearest, |name| {
                SeatBot::parse(name, mahjong::bots::parse_builtin)
            })
            .map(CheckedJob::Mahjong)
        }
    }
}

/// Checks `job` and plays it: built-in bots in-process, other seats through `dialer`. A job that
/// fails its checks is an error naming the field; everything that goes wrong while playing
/// (seats failing, a built-in bot panicking) ends up in the result, and a table the platform
/// interrupted gets a result whose `error` says so.
pub async fn run_table(
    job: &v1::TableJob,
    opts: &RunOptions,
    dialer: &dyn SeatDialer,
) -> Result<(v1::TableResult, v1::Replay), JobError> {
    let spec = validate(job)?;
    let span =
        tracing::info_span!("table", table_id = %spec.table_id(), game = job.game().as_str_name());
    // A job submitted inside a trace (a matchmaker creating a competition) carries it along.
    if let Some(tp) = job.labels.get("traceparent") {
        arena_telemetry::set_parent_from_traceparent(&span, tp);
    }
    Ok(
        match run_spec(job, &spec, opts, dialer).instrument(span).await {
            Played::Finished(record) => record.into_replay(Some(job)),
            Played::Interrupted(why) => error_result(
                spec.table_id(),
                Some(job),
                &opts.referee,
                format!("interrupted by the platform, not played to the end: {why}"),
            ),
        },
    )
}

/// The whole observation each decision of a played table was put with, by step (a step's
/// position is the request id a remote seat was sent), with the seat asked: the table is
/// played again from its job with the replay's actions. What a referee sent, to compare with
/// what a seat received however it travelled (whole, or in increments made whole again). Fails
/// naming the step whose seat or action does not fit the game.
pub fn step_observations(
    job: &v1::TableJob,
    replay: &v1::Replay,
) -> Result<Vec<(u32, v1::Observation)>, String> {
    match validate(job).map_err(|e| e.to_string())? {
        CheckedJob::Ddz(spec) => {
            observations_of(ddz::DdzTable::new(&spec.setup, spec.seed), &replay.steps)
        }
        CheckedJob::Mahjong(spec) => {
            observations_of(mahjong::MahjongTable::new(&spec.setup), &replay.steps)
        }
    }
}

fn observations_of<G: arena_table::TableGame>(
    mut game: G,
    steps: &[v1::ReplayStep],
) -> Result<Vec<(u32, v1::Observation)>, String> {
    let mut out = Vec::with_capacity(steps.len());
    while out.len() < steps.len() {
        let pending = game.pending();
        let round = steps
            .get(out.len()..out.len() + pending.len())
            .filter(|_| !pending.is_empty())
            .ok_or_else(|| format!("step {}: the game asks no such decision", out.len()))?;
        let mut actions = Vec::with_capacity(pending.len());
        for (p, step) in pending.iter().zip(round) {
            let index = out.len();
            if step.seat != p.seat {
                return Err(format!(
                    "step {index}: seat {} decided, the game asked seat {}",
                    step.seat, p.seat
                ));
            }
            let action = step
                .action
                .as_ref()
                .ok_or_else(|| format!("step {index}: no action"))?;
            let action = game
                .decode(p, action)
                .map_err(|f| format!("step {index}: {}", f.reason))?;
            out.push((p.seat, game.observation(p.seat)));
            actions.push((*p, action));
        }
        game.apply(&actions)
            .map_err(|e| format!("step {}: {e}", out.len() - 1))?;
    }
    Ok(out)
}

/// The drivers' view of a checked job.
fn setup_of<S, B>(spec: &TableSpec<S, B>) -> TableSetup {
    TableSetup {
        table_id: spec.table_id.clone(),
        seed: spec.seed,
        time: spec.time,
        policy: spec.policy,
    }
}

/// Plays a job already checked into `spec`, dispatching on its game.
pub async fn run_spec(
    job: &v1::TableJob,
    spec: &CheckedJob,
    opts: &RunOptions,
    dialer: &dyn SeatDialer,
) -> Played {
    match spec {
        CheckedJob::Ddz(spec) => {
            let game = ddz::DdzTable::new(&spec.setup, spec.seed);
            let seats: Vec<SeatPlan<ddz::DdzTable>> = spec
                .seats
                .iter()
                .map(|s| match s {
                    SeatBot::Builtin(b) => match ddz::DdzBot::new(b) {
                        Some(bot) => SeatPlan::Local(Box::new(bot)),
                        None => SeatPlan::Remote(b.to_string()),
                    },
                    SeatBot::Remote(name) => SeatPlan::Remote(name.clone()),
                })
                .collect();
            run_game(job, game, seats, &setup_of(spec), opts, dialer).await
        }
        CheckedJob::Mahjong(spec) => {
            let game = mahjong::MahjongTable::new(&spec.setup);
            let seats: Vec<SeatPlan<mahjong::MahjongTable>> = spec
                .seats
                .iter()
                .map(|s| match s {
                    SeatBot::Builtin(b) => match mahjong::MahjongBot::new(b) {
                        Some(bot) => SeatPlan::Local(Box::new(bot)),
                        None => SeatPlan::Remote(b.to_string()),
                    },
                    SeatBot::Remote(name) => SeatPlan::Remote(name.clone()),
                })
                .collect();
            run_game(job, game, seats, &setup_of(spec), opts, dialer).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ddz::builtin::BotSpec;
    use crate::ddz::rules::{Bidding, Deal, GameConfig, Scoring, Seat};

    #[test]
    fn each_game_is_the_store_game_of_its_name_and_back() {
        let stored: Vec<arena_store::Game> = GameKind::ALL.iter().map(|&g| g.into()).collect();
        assert_eq!(stored, arena_store::Game::ALL);
        assert_eq!(
            stored.iter().map(|g| g.name()).collect::<Vec<_>>(),
            ["ddz", "mahjong"]
        );
        for g in GameKind::ALL {
            assert_eq!(GameKind::from(arena_store::Game::from(g)), g);
        }
    }

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
                ..Default::default()
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
        let CheckedJob::Ddz(s) = validate(&job()).unwrap() else {
            panic!("not a Dou Dizhu job")
        };
        assert_eq!(s.table_id, "t1");
        assert_eq!(s.seats[0], SeatBot::Builtin(BotSpec::Expert));
        assert_eq!(s.seats[2], SeatBot::Remote("some-remote-bot".into()));
        assert!(!s.all_builtin());
        assert_eq!(s.policy, None);
        let d = s.setup;
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
    fn a_setup_may_name_its_rules_and_scoring_typed_instead_of_as_text() {
        let mut j = job();
        let Some(v1::table_job::Setup::Ddz(s)) = &mut j.setup else {
            unreachable!()
        };
        s.rules.clear();
        s.scoring.clear();
        s.rules_kind = v1::DdzRules::Douzero as i32;
        s.scoring_kind = v1::DdzScoring::Adp as i32;
        let CheckedJob::Ddz(s) = validate(&j).unwrap() else {
            panic!("not a Dou Dizhu job")
        };
        assert_eq!(
            (s.setup.rules_name, s.setup.scoring),
            ("douzero", Scoring::Adp)
        );
        assert_eq!(s.setup.config.rules, crate::ddz::rules::RuleSet::DOUZERO);
    }

    fn mahjong_job(seats: &[&str]) -> v1::TableJob {
        v1::TableJob {
            table_id: "m1".into(),
            game: v1::Game::Mahjong as i32,
            seats: seats
                .iter()
                .map(|b| v1::SeatSpec { bot: (*b).into() })
                .collect(),
            seed: 11,
            ..Default::default()
        }
    }

    #[test]
    fn a_mahjong_job_reads_four_seats_with_the_contest_clock() {
        let j = mahjong_job(&["random", "greedy", "expert", "north"]);
        let Ok(CheckedJob::Mahjong(s)) = validate(&j) else {
            panic!("{:?}", validate(&j))
        };
        assert_eq!(s.seats.len(), 4);
        assert_eq!(s.seats[3], SeatBot::Remote("north".into()));
        assert_eq!(s.setup.deal, crate::mahjong::rules::Deal::from_seed(11));
        assert_eq!(
            (s.time.decision_ms, s.time.claim_ms, s.time.rounding),
            (1000, 500, v1::PenaltyRounding::Nearest)
        );
        assert_eq!(s.policy, None, "the game's default: play on");
        let e = validate(&mahjong_job(&["random", "random", "random"])).unwrap_err();
        assert!(e.message.contains("needs 4 seats, got 3"), "{e}");
        // Built-in names are per game: `seed` is Dou Dizhu's, so at a Mahjong table it names a
        // registered bot.
        let Ok(CheckedJob::Mahjong(s)) =
            validate(&mahjong_job(&["random", "random", "random", "seed"]))
        else {
            panic!("a Mahjong job")
        };
        assert_eq!(s.seats[3], SeatBot::Remote("seed".into()));
        let e = validate(&mahjong_job(&["random", "random", "random", " "])).unwrap_err();
        assert_eq!(e.field, "job.seats[3].bot");
        let mut j = mahjong_job(&["random"; 4]);
        j.setup = Some(v1::table_job::Setup::Ddz(v1::DdzSetup::default()));
        assert_eq!(validate(&j).unwrap_err().field, "job.setup");
    }

    #[tokio::test]
    async fn a_mahjong_hand_of_built_in_bots_is_played_to_a_zero_sum_result() {
        // A table of built-in bots dials no bot-host.
        let no_host = arena_table::BotHosts::default();
        for seed in 0..6 {
            let mut j = mahjong_job(&["expert", "greedy", "random", "greedy"]);
            j.seed = seed;
            let (result, replay) = run_table(&j, &RunOptions::default(), &no_host)
                .await
                .unwrap();
            assert!(result.error.is_empty(), "{}", result.error);
            let o = result.outcome.unwrap();
            assert_eq!(o.scores.len(), 4);
            assert_eq!(
                o.scores.iter().sum::<i64>(),
                0,
                "Mahjong scores are zero-sum"
            );
            let Some(v1::outcome::Game::Mahjong(m)) = o.game else {
                panic!("not a Mahjong outcome")
            };
            if let Some(w) = m.winner {
                assert!(o.scores[w as usize] > 0);
                assert_eq!(m.fans.iter().map(|f| f.points).sum::<u32>(), m.fan_total);
            }
            assert_eq!(replay.mahjong_hands.len(), 4);
            assert!(replay.mahjong_events.len() > 4);
            assert!(!replay.steps.is_empty());
        }
    }

    #[test]
    fn an_empty_setup_plays_deal_zero_of_the_seed_with_bidding_from_seat_0() {
        let mut j = job();
        j.setup = None;
        let CheckedJob::Ddz(s) = validate(&j).unwrap() else {
            panic!("not a Dou Dizhu job")
        };
        let d = s.setup;
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
        let e = validate(&j).unwrap_err();
        assert_eq!(e.field, "job.setup");
        assert!(e.message.contains("not one of GAME_MAHJONG"), "{e}");

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
        let e = set(&|s| s.rules_kind = v1::DdzRules::Openspiel as i32);
        assert_eq!(e.field, "job.ddz.rules");
        assert!(
            e.message
                .contains("says \"douzero\" but job.ddz.rules_kind says openspiel"),
            "{e}"
        );
        let e = set(&|s| s.scoring_kind = v1::DdzScoring::Wp as i32);
        assert_eq!(e.field, "job.ddz.scoring");
        assert!(e.message.contains("says \"adp\" but"), "{e}");
        let e = set(&|s| {
            s.rules.clear();
            s.rules_kind = v1::DdzRules::Custom as i32;
        });
        assert_eq!(e.field, "job.ddz.rules");
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
