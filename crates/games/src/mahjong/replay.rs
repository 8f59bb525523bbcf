//! A Mahjong table's replay read back into the rules' record of a hand ([`HandRecord`]), so the
//! tools written for one-machine hands (the 2015 server's log format,
//! [`super::duplicate::log`]) take tables played on the services too.
//!
//! The hand is played again: the job's set-up deals the wall, and the replay's steps (every
//! decision, each claim window's answers together) are applied in order to the rules engine.
//! The events, the win and its fans are then the engine's own, not read back from text, and a
//! replay whose steps the rules refuse is reported rather than half-read.

use arena_proto::packages::arena::mahjong::v1 as mahjong_pb;
use arena_proto::v1;
use mahjong::{Game, Outcome, Tile};
use mahjong_bots::{HandRecord, HandVerdict, VerdictKind};

use super::convert::action_of;
use super::spec::read_setup;

/// Why a replay is not a Mahjong hand that can be played again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("replay of {table}: {why}")]
pub struct ReplayError {
    /// The table id.
    pub table: String,
    /// What is wrong.
    pub why: String,
}

fn clamp(x: i64) -> i32 {
    i32::try_from(x).unwrap_or(if x < 0 { i32::MIN } else { i32::MAX })
}

fn per_seat(xs: &[i64]) -> [i32; 4] {
    std::array::from_fn(|s| xs.get(s).copied().map_or(0, clamp))
}

/// The hand a Mahjong replay records: its deal, every event, the outcome, penalties, verdicts and
/// final scores (from the result).
pub fn hand_record(replay: &v1::Replay) -> Result<HandRecord, ReplayError> {
    let job = replay.job.clone().unwrap_or_default();
    let result = replay.result.clone().unwrap_or_default();
    let err = |why: String| ReplayError {
        table: job.table_id.clone(),
        why,
    };
    if !result.error.is_empty() {
        return Err(err(format!("the table was not played: {}", result.error)));
    }
    if crate::GameKind::from_wire(&job.game) != Ok(super::GAME) {
        return Err(err("not a Mahjong table".into()));
    }
    let setup: mahjong_pb::Setup = crate::setup_of(&job).map_err(|e| err(e.to_string()))?;
    let spec = read_setup(&setup, job.seed).map_err(|e| err(e.to_string()))?;
    let mut game = Game::new(&spec.deal, spec.rules);
    let mut verdicts = Vec::new();
    let mut steps = replay.steps.iter().enumerate();
    let mut answers: Vec<(u8, mahjong::Action)> = Vec::with_capacity(4);
    let mut forfeited = false;
    'hand: while !game.is_over() {
        let pending: Vec<u8> = game
            .deciders()
            .iter()
            .filter(|&s| game.decision(s).is_some())
            .collect();
        answers.clear();
        let at_event = game.events().len();
        for &seat in &pending {
            let Some((i, step)) = steps.next() else {
                if result.forfeited_by.is_some() {
                    forfeited = true;
                    break 'hand;
                }
                return Err(err(format!(
                    "the steps end before the hand does ({} steps)",
                    replay.steps.len()
                )));
            };
            if step.seat != u32::from(seat) {
                return Err(err(format!(
                    "step {i} is seat {}'s, but seat {seat} was to decide",
                    step.seat
                )));
            }
            if let Some(v) = &step.verdict {
                verdicts.push(HandVerdict {
                    seat,
                    kind: VerdictKind::from_wire(v.kind).unwrap_or(VerdictKind::Illegal),
                    reason: arena_table::whole_reason(v).to_string(),
                    at_event,
                });
            }
            let Some(action) = &step.action else {
                // A forfeit: the round's answers are not applied and the hand ends here.
                forfeited = true;
                break 'hand;
            };
            let action = action_of(action).map_err(|e| err(format!("step {i}: {e}")))?;
            answers.push((seat, action));
        }
        game.apply(&answers)
            .map_err(|e| err(format!("the rules refuse the steps: {e}")))?;
    }
    let outcome_scores = result
        .outcome
        .as_ref()
        .map(|o| per_seat(&o.scores))
        .unwrap_or_default();
    let outcome = match game.outcome() {
        Some(o) if !forfeited => o.clone(),
        _ => Outcome {
            win: None,
            scores: outcome_scores,
        },
    };
    let initial: [[Tile; 13]; 4] = std::array::from_fn(|s| {
        let hand = game.wall().initial_hand(s as u8);
        std::array::from_fn(|i| hand[i])
    });
    Ok(HandRecord {
        seed: None,
        first: spec.deal.first,
        initial,
        events: game.events().to_vec(),
        outcome,
        penalties: per_seat(&result.penalties),
        verdicts,
        scores: per_seat(&result.final_scores),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mahjong::convert::full_event;
    use arena_table::{BotHosts, RunOptions};

    async fn played(seed: u64) -> v1::Replay {
        let job = v1::TableJob {
            table_id: format!("m{seed}"),
            game: "mahjong".into(),
            seats: ["expert", "greedy", "random", "greedy"]
                .map(|b| v1::SeatSpec { bot: b.into() })
                .to_vec(),
            seed,
            ..Default::default()
        };
        crate::run_table(&job, &RunOptions::default(), &BotHosts::default())
            .await
            .unwrap()
            .1
    }

    #[tokio::test]
    async fn a_played_table_reads_back_as_the_hand_it_was() {
        let mut wins = 0;
        for seed in 0..8 {
            let replay = played(seed).await;
            let r = hand_record(&replay).unwrap();
            let result = replay.result.as_ref().unwrap();
            let events: Vec<mahjong_pb::Event> = r.events.iter().map(|&e| full_event(e)).collect();
            let history = crate::mahjong::convert::history_of(&replay);
            assert_eq!(events, history.events, "seed {seed}");
            let hands: Vec<String> = r
                .initial
                .iter()
                .map(|h| mahjong::tiles_to_string(h.iter().copied()))
                .collect();
            assert_eq!(hands, history.hands);
            let o = result.outcome.as_ref().unwrap();
            assert_eq!(r.outcome.scores.map(i64::from).to_vec(), o.scores);
            assert_eq!(r.scores.map(i64::from).to_vec(), result.final_scores);
            let m = crate::mahjong::convert::outcome_of(o).expect("a Mahjong outcome");
            assert_eq!(r.outcome.win.as_ref().map(|w| u32::from(w.seat)), m.winner);
            if let Some(w) = &r.outcome.win {
                wins += 1;
                assert_eq!(w.fans.total, m.fan_total);
            }
        }
        assert!(wins > 0, "some hand of eight is won");
    }

    #[tokio::test]
    async fn a_replay_the_rules_refuse_is_an_error_naming_the_step() {
        let mut replay = played(3).await;
        // The first turn's discard becomes a tile the actor does not hold.
        let hands = crate::mahjong::convert::history_of(&replay).hands;
        let first = &mut replay.steps[0];
        let held = hands[first.seat as usize].clone();
        let absent = ["1M", "5S", "9T", "E", "Z", "B"]
            .into_iter()
            .find(|t| !held.split(' ').any(|h| h == *t))
            .unwrap();
        first.action = Some(crate::mahjong::convert::action(mahjong::Action::Discard(
            absent.parse().unwrap(),
        )));
        let e = hand_record(&replay).unwrap_err();
        assert!(e.why.contains("refuse"), "{e}");
        // Steps cut short without a forfeit.
        let mut short = played(3).await;
        short.steps.truncate(5);
        assert!(hand_record(&short).unwrap_err().why.contains("end before"));
        let mut ddz = played(3).await;
        ddz.job.as_mut().unwrap().game = "ddz".into();
        assert!(hand_record(&ddz).unwrap_err().why.contains("not a Mahjong"));
        let mut wrong_setup = played(3).await;
        wrong_setup.job.as_mut().unwrap().setup =
            Some(arena_proto::payload::pack(&crate::ddz::pb::Setup::default()));
        let e = hand_record(&wrong_setup).unwrap_err().why;
        assert!(e.contains("arena.ddz.v1.Setup"), "{e}");
    }

    #[tokio::test]
    async fn a_forfeited_hand_ends_where_the_forfeit_came_with_the_results_scores() {
        let mut replay = played(5).await;
        let result = replay.result.as_mut().unwrap();
        result.forfeited_by = Some(2);
        result.outcome.as_mut().unwrap().scores = vec![4, 4, -12, 4];
        result.final_scores = vec![4, 4, -12, 4];
        replay.steps.truncate(9);
        let r = hand_record(&replay).unwrap();
        assert!(r.outcome.win.is_none());
        assert_eq!(r.outcome.scores, [4, 4, -12, 4]);
        assert!(r.events.len() < crate::mahjong::convert::history_of(&replay).events.len());
    }
}
