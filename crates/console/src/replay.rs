//! A finished table played again, decision by decision, for the replay player.
//!
//! A replay records the job (the deal or wall, the seats) and every decision as applied; it does
//! not record what each seat could have done. So the table is dealt again from the job with the
//! game's own rules ([`arena_games::validate`], then the job's [`State`]) and every step is
//! applied in order, each checked by the rules as the referee checked it. Before each round of
//! decisions the player gets every seat's view (all hands revealed: the table is over) and the
//! deciding seat's legal options; after the last, the outcome the rules reach, compared with the
//! one the referee recorded.
//!
//! The walk is written once over [`State`]: every registered game's tables (several seats
//! deciding in one round after a discard, for Mahjong) go through the same code, each game
//! rendered by its registered renderer. A replay the rules refuse (damaged, or from other rules) is
//! shown up to the first step they refuse, with what was wrong.

use arena_games::{GameKind, State};
use arena_proto::v1;
use arena_table::Pending;
use serde_json::{Value, json};

use crate::view;

/// Every seat's view now, each without its event list.
fn state(game: &dyn State) -> Vec<Value> {
    (0..game.seats() as u32)
        .map(|s| view::observation(&game.observe(s)))
        .collect()
}

/// The legal options of the seat of `pending` now, as its observation lists them.
fn legal(kind: GameKind, game: &dyn State, pending: &Pending) -> Vec<String> {
    kind.legal(&game.observe(pending.seat))
}

/// A replay walked through `game` (dealt from the replay's job, not yet played).
pub struct Walk {
    /// One per step: the decision, its legal options, the time taken, verdict and penalty, and
    /// every seat's view before the round it belongs to.
    pub frames: Vec<Value>,
    /// Every seat's view once the last step is applied.
    pub end: Vec<Value>,
    /// The outcome the rules reach (a forfeit's when a seat forfeited).
    pub outcome: Option<v1::Outcome>,
    /// What stopped the walk before the end, if anything did.
    pub error: Option<String>,
}

/// Plays `replay`'s steps on `game`.
pub fn walk(of: GameKind, mut game: Box<dyn State>, replay: &v1::Replay) -> Walk {
    let mut frames = Vec::with_capacity(replay.steps.len());
    let mut steps = replay.steps.iter().enumerate();
    let mut forfeit = None;
    let mut error = None;
    'game: loop {
        let pending = game.pending_now();
        if pending.is_empty() {
            break;
        }
        let before = state(&*game);
        let mut actions = Vec::with_capacity(pending.len());
        for p in &pending {
            let Some((i, step)) = steps.next() else {
                error = Some(format!(
                    "the replay's {} steps end before the game does",
                    replay.steps.len()
                ));
                break 'game;
            };
            let kind = short_kind(step.kind());
            if step.seat != p.seat || step.kind != p.kind as i32 {
                error = Some(format!(
                    "step {i} is seat {}'s {kind}, but the rules wait for seat {}'s {}",
                    step.seat,
                    p.seat,
                    short_kind(p.kind)
                ));
                break 'game;
            }
            frames.push(json!({
                "index": i,
                "seat": step.seat,
                "kind": kind,
                "action": step.action.as_ref().map(view::action),
                "legal": legal(of, &*game, p),
                "elapsed_ms": step.elapsed_ms,
                // The limit the referee judged it by (none: not asked, or an old replay).
                "limit_ms": (step.limit_ms != 0).then_some(step.limit_ms),
                "penalty": view::int(step.penalty),
                "automatic": step.automatic,
                "verdict": step.verdict.as_ref().map(view::verdict),
                "round": pending.len(),
                "state": before,
            }));
            match &step.action {
                // A forfeit: no action of the round is applied; the game ends here.
                None => {
                    forfeit.get_or_insert(step.seat);
                }
                Some(a) => match game.check_wire(p, a) {
                    Ok(()) => actions.push((*p, a.clone())),
                    Err(fault) => {
                        error = Some(format!("step {i}: the rules refuse it: {fault}"));
                        break 'game;
                    }
                },
            }
        }
        if let Some(seat) = forfeit {
            return Walk {
                frames,
                end: state(&*game),
                outcome: Some(game.forfeit_now(seat)),
                error: None,
            };
        }
        if let Err(e) = game.apply_wire(&actions) {
            error = Some(format!("the rules could not apply a round: {e}"));
            break;
        }
    }
    if error.is_none() && steps.next().is_some() {
        error = Some(format!(
            "the game ended before the replay's last step ({} steps)",
            replay.steps.len()
        ));
    }
    Walk {
        frames,
        end: state(&*game),
        outcome: game.result(),
        error,
    }
}

fn short_kind(k: v1::DecisionKind) -> String {
    view::short(k.as_str_name(), "DECISION_KIND_")
}

/// The replay's public history as its game's renderer reads it (the renderer's fields, e.g. a
/// Dou Dizhu replay's `ddz_events`); no fields for a job of no registered game.
fn history(job: &v1::TableJob, replay: &v1::Replay) -> Value {
    GameKind::from_wire(&job.game).map_or_else(|_| json!({}), |g| g.render_history(replay))
}

/// The clock each seat played by, as the result records it: per seat its decision and claim
/// limits and hard cap, the same for its second and later decisions under `later` when they
/// differ (a keep-running bot's later limit), and whether they are not the job's (`own`: its
/// bot's own limit). `null` for a result that records none (written before results did, or of a
/// table that was not played): every seat had the job's clock.
fn clocks(job: &v1::TableJob, result: &v1::TableResult) -> Value {
    if result.seat_time.is_empty() {
        return Value::Null;
    }
    let limits = |t: &v1::TimeControl| (t.decision_ms, t.claim_ms, t.hard_cap_ms);
    let table = arena_table::TimeRules::resolve(
        &job.time.unwrap_or_default(),
        v1::PenaltyRounding::Unspecified,
    )
    .to_proto();
    let seats = result.seat_time.iter().enumerate().map(|(seat, first)| {
        let later = result.seat_later_time.get(seat).unwrap_or(first);
        let own = [first, later].iter().any(|t| limits(t) != limits(&table));
        json!({
            "decision_ms": first.decision_ms,
            "claim_ms": first.claim_ms,
            "hard_cap_ms": first.hard_cap_ms,
            "penalty_per_100ms": first.penalty_per_100ms,
            "verdict_penalty": first.verdict_penalty,
            "later": (limits(later) != limits(first)).then(|| json!({
                "decision_ms": later.decision_ms,
                "claim_ms": later.claim_ms,
                "hard_cap_ms": later.hard_cap_ms,
            })),
            "own": own,
        })
    });
    Value::Array(seats.collect())
}

/// The replay player's whole document for `replay`: the table, its seats, the clock each seat
/// played by, every frame, the full event history, and the outcome replayed beside the one
/// recorded.
pub fn frames(replay: &v1::Replay) -> Value {
    let job = replay.job.clone().unwrap_or_default();
    let result = replay.result.clone().unwrap_or_default();
    let walked = if !result.error.is_empty() {
        Err(format!("the table was not played: {}", result.error))
    } else {
        match arena_games::validate(&job) {
            Ok(checked) => Ok(walk(checked.game(), checked.state(), replay)),
            Err(e) => Err(format!("its job does not read: {e}")),
        }
    };
    let (frames, end, replayed, error) = match walked {
        Ok(w) => (w.frames, w.end, w.outcome, w.error),
        Err(e) => (Vec::new(), Vec::new(), None, Some(e)),
    };
    let recorded = result.outcome.clone();
    let mut doc = json!({
        "table_id": job.table_id,
        "game": view::game(&job.game),
        "competition": job.competition,
        "seats": job.seats.iter().map(|s| s.bot.clone()).collect::<Vec<_>>(),
        "placement": job.placement.as_deref().map(view::placement),
        "time": job.time.map(|t| json!({
            "decision_ms": t.decision_ms,
            "hard_cap_ms": t.hard_cap_ms,
            "claim_ms": t.claim_ms,
            "penalty_per_100ms": t.penalty_per_100ms,
            "verdict_penalty": t.verdict_penalty,
        })),
        "clocks": clocks(&job, &result),
        "frames": frames,
        "end": end,
        "result": view::result(&result),
        "replayed_outcome": replayed.as_ref().map(view::outcome),
        "outcome_matches": replayed.is_some() && replayed == recorded,
        "error": error,
    });
    // The game's own fields (its history, as its renderer reads them) join the document.
    if let (Value::Object(doc), Value::Object(own)) = (&mut doc, history(&job, replay)) {
        doc.extend(own);
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_proto::packages::arena::ddz::v1 as ddz_pb;
    use arena_table::RunOptions;

    /// A table of built-in bots played on the referee's own runner, for its replay.
    async fn played(job: v1::TableJob) -> v1::Replay {
        // Every seat is a built-in bot: no bot-host is dialled.
        let no_host = arena_table::BotHosts::default();
        let (_, replay) = arena_games::run_table(&job, &RunOptions::default(), &no_host)
            .await
            .expect("a valid job");
        replay
    }

    fn ddz_job() -> v1::TableJob {
        v1::TableJob {
            table_id: "t".into(),
            game: "ddz".into(),
            seats: ["expert", "seed", "random"]
                .map(|b| v1::SeatSpec { bot: b.into() })
                .to_vec(),
            setup: Some(arena_proto::payload::pack(&ddz_pb::Setup {
                deal: arena_games::ddz::rules::Deal::generate(7, 0).to_string(),
                landlord: Some(ddz_pb::setup::Landlord::FirstBidder(1)),
                doubling: true,
                ..Default::default()
            })),
            seed: 3,
            ..Default::default()
        }
    }

    #[tokio::test]
    async fn a_dou_dizhu_table_walks_to_its_recorded_outcome_with_every_hand_shown() {
        let replay = played(ddz_job()).await;
        let doc = frames(&replay);
        assert_eq!(doc["error"], Value::Null, "{}", doc["error"]);
        assert_eq!(doc["outcome_matches"], true);
        let frames = doc["frames"].as_array().unwrap();
        assert_eq!(frames.len(), replay.steps.len());
        // Before the first decision every seat holds its 17 dealt cards, all shown.
        let first = &frames[0]["state"];
        for seat in 0..3 {
            assert_eq!(first[seat]["hand"].as_str().unwrap().len(), 17, "{first}");
        }
        for (f, step) in frames.iter().zip(&replay.steps) {
            let action = view::action(step.action.as_ref().unwrap());
            let legal: Vec<&str> = f["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            // Every decision taken is among the options its seat had, in the options' notation.
            let said = match action.strip_prefix("bid ") {
                Some(b) => b.to_string(),
                None if action == "double" => "1".into(),
                None if action == "no double" => "0".into(),
                None => action.clone(),
            };
            assert!(legal.contains(&said.as_str()), "{said} not in {legal:?}");
        }
        // The last frame's seat empties its hand with its play: the game's end.
        assert!(
            doc["end"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["hand"] == "")
        );
    }

    #[tokio::test]
    async fn a_mahjong_hand_walks_to_its_recorded_outcome_through_claim_rounds() {
        let job = v1::TableJob {
            table_id: "m".into(),
            game: "mahjong".into(),
            seats: ["greedy", "expert", "random", "greedy"]
                .map(|b| v1::SeatSpec { bot: b.into() })
                .to_vec(),
            seed: 21,
            ..Default::default()
        };
        let replay = played(job).await;
        let doc = frames(&replay);
        assert_eq!(doc["error"], Value::Null, "{}", doc["error"]);
        assert_eq!(doc["outcome_matches"], true);
        let frames = doc["frames"].as_array().unwrap();
        assert_eq!(frames.len(), replay.steps.len());
        assert!(
            frames.iter().any(|f| f["round"].as_u64() > Some(1)),
            "some discard was answered by several seats at once"
        );
    }

    #[tokio::test]
    async fn a_damaged_replay_is_shown_up_to_the_step_the_rules_refuse() {
        let mut replay = played(ddz_job()).await;
        replay.steps[0].seat = (replay.steps[0].seat + 1) % 3;
        let doc = frames(&replay);
        assert_eq!(doc["frames"].as_array().unwrap().len(), 0);
        assert!(
            doc["error"].as_str().unwrap().starts_with("step 0 is seat"),
            "{}",
            doc["error"]
        );
        assert_eq!(doc["outcome_matches"], false);

        let mut replay = played(ddz_job()).await;
        replay.steps.truncate(replay.steps.len() - 1);
        let doc = frames(&replay);
        assert!(
            doc["error"]
                .as_str()
                .unwrap()
                .contains("end before the game does"),
            "{}",
            doc["error"]
        );
    }
}
