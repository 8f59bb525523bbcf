//! The games the platform plays, and the glue between each game's rules and the game-neutral
//! platform (`arena-table`, `arena-proto`): one module per game, and the registry the services
//! reach every game through (OpenSpiel's `Game` registry is the model; shakmaty's
//! `VariantPosition` the same idea in Rust).
//!
//! - [`Game`]: everything the platform needs of a game (name, seats, jobs, built-in bots,
//!   renderer), one `&'static dyn Game` per game; [`GameKind`]: a handle on a registered game,
//!   looked up by name or wire value;
//! - [`TableAdapter`]: what a game gives the one runner (its table, set-up and built-in bots);
//!   everything over it is written once: [`CheckedJob`] (a [`v1::TableJob`] read for its game
//!   by [`validate`], played by [`run_spec`] / [`run_table`] on `arena-table`), [`Builtin`] (a
//!   built-in bot of some game), [`State`] (a table stepped with wire actions);
//! - [`RequestBot`]: a built-in bot deciding requests from the wire (bot-host);
//! - [`GameCommands`]: a game's subcommands of the `arena` command line ([`commands`]).
//!
//! A game is an addition: its module (or crate) implementing [`Game`] and [`TableAdapter`], and
//! one line in the registry.

pub mod adapter;
pub mod commands;
pub mod competition;
pub mod ddz;
pub mod difficulty;
pub mod form;
pub mod ladder;
pub mod mahjong;
pub mod mcr;
mod registry;

pub use adapter::{Builtin, CheckedJob, State, TableAdapter};
pub use commands::GameCommands;
pub use competition::Competitions;
pub use difficulty::{Difficulty, Measurer, MeasuringPanel};
pub use ladder::{Group, GroupScore, GroupTable, Ladder};
pub use registry::{Asset, CompetitionView, Game, GameKind, ProtocolInfo, Renderer, Variant};

use arena_proto::v1;
use arena_table::job::check_envelope;
use arena_table::run::Played;
use arena_table::{JobError, RunOptions, SeatDialer, error_result};
use tracing::Instrument;

/// A request whose content is not a valid decision request of its game; the text names the
/// field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadRequest(pub String);

/// A built-in bot answering decision requests read from the wire: it decides from what the
/// request shows (the seat's observation), nothing else.
pub trait RequestBot: Send {
    /// The action for `req`, or why the request is not a valid one of the bot's game.
    fn decide(&mut self, req: &v1::DecisionRequest) -> Result<v1::Action, BadRequest>;
}

/// The game's own setup message `M` a job carries (its default when the job has none), or
/// why the job's setup is not one.
pub(crate) fn setup_of<M: prost::Name + Default>(job: &v1::TableJob) -> Result<M, JobError> {
    arena_proto::payload::unpack_or_default(job.setup.as_ref(), "the job's setup")
        .map_err(|e| JobError::new("job.setup", e))
}

/// Checks a job and reads it for its game, every error naming its field.
pub fn validate(job: &v1::TableJob) -> Result<CheckedJob, JobError> {
    check_envelope(job)?;
    let game = GameKind::from_wire(&job.game).map_err(|e| JobError::new("job.game", e))?;
    game.game().check(job)
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
    let span = tracing::info_span!("table", table_id = %spec.table_id(), game = spec.game().name());
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
    let mut game = validate(job).map_err(|e| e.to_string())?.state();
    let steps = &replay.steps;
    let mut out = Vec::with_capacity(steps.len());
    while out.len() < steps.len() {
        let pending = game.pending_now();
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
            game.check_wire(p, action)
                .map_err(|f| format!("step {index}: {}", f.reason))?;
            out.push((p.seat, game.observe(p.seat)));
            actions.push((*p, action.clone()));
        }
        game.apply_wire(&actions)
            .map_err(|e| format!("step {}: {e}", out.len() - 1))?;
    }
    Ok(out)
}

/// Plays a job already checked into `spec` on the one runner.
pub async fn run_spec(
    job: &v1::TableJob,
    spec: &CheckedJob,
    opts: &RunOptions,
    dialer: &dyn SeatDialer,
) -> Played {
    spec.play(job, opts, dialer).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ddz::builtin::BotSpec;
    use crate::ddz::rules::{Bidding, Deal, GameConfig, Scoring, Seat};
    use arena_proto::packages::arena::ddz::v1 as ddz_pb;
    use arena_table::SeatBot;

    /// Alters the Dou Dizhu setup `j` carries.
    fn edit_setup(j: &mut v1::TableJob, f: impl FnOnce(&mut ddz_pb::Setup)) {
        let mut s: ddz_pb::Setup = arena_proto::payload::unpack(j.setup.as_ref(), "setup").unwrap();
        f(&mut s);
        j.setup = Some(arena_proto::payload::pack(&s));
    }

    fn job() -> v1::TableJob {
        v1::TableJob {
            table_id: "t1".into(),
            game: "ddz".into(),
            seats: ["expert", "ladder:3/10", "some-remote-bot"]
                .map(|b| v1::SeatSpec { bot: b.into() })
                .to_vec(),
            setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
                deal: Deal::generate(5, 0).to_string(),
                rules: "douzero".into(),
                landlord: Some(ddz_pb::setup::Landlord::FixedLandlord(2)),
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
        let s = validate(&job())
            .unwrap()
            .spec::<crate::ddz::DouDizhu>()
            .cloned()
            .expect("a Dou Dizhu job");
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
        edit_setup(&mut j, |s| {
            s.rules.clear();
            s.scoring.clear();
            s.rules_kind = ddz_pb::Rules::Douzero as i32;
            s.scoring_kind = ddz_pb::Scoring::Adp as i32;
        });
        let s = validate(&j)
            .unwrap()
            .spec::<crate::ddz::DouDizhu>()
            .cloned()
            .expect("a Dou Dizhu job");
        assert_eq!(
            (s.setup.rules_name, s.setup.scoring),
            ("douzero", Scoring::Adp)
        );
        assert_eq!(s.setup.config.rules, crate::ddz::rules::RuleSet::DOUZERO);
    }

    fn mahjong_job(seats: &[&str]) -> v1::TableJob {
        v1::TableJob {
            table_id: "m1".into(),
            game: "mahjong".into(),
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
        let s = validate(&j)
            .unwrap()
            .spec::<crate::mahjong::Mahjong>()
            .cloned()
            .expect("a Mahjong job");
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
        let s = validate(&mahjong_job(&["random", "random", "random", "seed"]))
            .unwrap()
            .spec::<crate::mahjong::Mahjong>()
            .cloned()
            .expect("a Mahjong job");
        assert_eq!(s.seats[3], SeatBot::Remote("seed".into()));
        let e = validate(&mahjong_job(&["random", "random", "random", " "])).unwrap_err();
        assert_eq!(e.field, "job.seats[3].bot");
        let mut j = mahjong_job(&["random"; 4]);
        j.setup = Some(arena_proto::payload::pack(&ddz_pb::Setup::default()));
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
            let m = crate::mahjong::convert::outcome_of(&o).expect("a Mahjong outcome");
            if let Some(w) = m.winner {
                assert!(o.scores[w as usize] > 0);
                assert_eq!(m.fans.iter().map(|f| f.points).sum::<u32>(), m.fan_total);
            }
            let history = crate::mahjong::convert::history_of(&replay);
            assert_eq!(history.hands.len(), 4);
            assert!(history.events.len() > 4);
            assert!(!replay.steps.is_empty());
        }
    }

    #[test]
    fn an_empty_setup_plays_deal_zero_of_the_seed_with_bidding_from_seat_0() {
        let mut j = job();
        j.setup = None;
        let s = validate(&j)
            .unwrap()
            .spec::<crate::ddz::DouDizhu>()
            .cloned()
            .expect("a Dou Dizhu job");
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
        j.game = "chess".into();
        assert_eq!(field_of(&j), "job.game");
        assert!(
            validate(&j)
                .unwrap_err()
                .to_string()
                .contains("no game \"chess\"")
        );
        j.game = "mahjong".to_string();
        let e = validate(&j).unwrap_err();
        assert_eq!(e.field, "job.setup");
        assert!(
            e.message
                .contains("carries a \"arena.ddz.v1.Setup\", not a arena.mahjong.v1.Setup"),
            "{e}"
        );
        let mut j = job();
        j.game.clear();
        assert!(validate(&j).is_ok(), "an empty game name is Dou Dizhu");

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

        let set = |f: &dyn Fn(&mut ddz_pb::Setup)| {
            let mut j = job();
            edit_setup(&mut j, f);
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
        let e = set(&|s| s.rules_kind = ddz_pb::Rules::Openspiel as i32);
        assert_eq!(e.field, "job.ddz.rules");
        assert!(
            e.message
                .contains("says \"douzero\" but job.ddz.rules_kind says openspiel"),
            "{e}"
        );
        let e = set(&|s| s.scoring_kind = ddz_pb::Scoring::Wp as i32);
        assert_eq!(e.field, "job.ddz.scoring");
        assert!(e.message.contains("says \"adp\" but"), "{e}");
        let e = set(&|s| {
            s.rules.clear();
            s.rules_kind = ddz_pb::Rules::Custom as i32;
        });
        assert_eq!(e.field, "job.ddz.rules");
        assert_eq!(set(&|s| s.fixed_bid = 4).field, "job.ddz.fixed_bid");
        assert_eq!(
            set(&|s| s.landlord = Some(ddz_pb::setup::Landlord::FixedLandlord(3))).field,
            "job.ddz.fixed_landlord"
        );
        assert_eq!(
            set(&|s| s.landlord = Some(ddz_pb::setup::Landlord::FirstBidder(9))).field,
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
