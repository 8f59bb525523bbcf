//! Tables of built-in bots: the in-process fast path, end to end through `run_table`.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::sync::atomic::AtomicBool;

use arena_games::ddz::convert::{self, DdzDecision};
use arena_games::ddz::play::Buffers;
use arena_games::ddz::{DdzBot, DdzTable};
use arena_games::{run_table, validate};
use arena_proto::v1;
use arena_table::run::play_local;
use arena_table::{BotHosts, LocalPlayer, Pending, RunOptions, TableSetup, TimeRules};
use ddz::{Action, Deal, Game, Observation, Seat};
use ddz_bots::BotSpec;

fn job(seed: u64, seats: [&str; 3], setup: ddz_pb::Setup) -> v1::TableJob {
    v1::TableJob {
        table_id: format!("builtin-{seed}"),
        game: "ddz".into(),
        seats: seats.map(|b| v1::SeatSpec { bot: b.into() }).to_vec(),
        setup: Some(arena_proto::payload::pack(&setup)),
        seed,
        competition: "cup".into(),
        labels: [("round".to_string(), "1".to_string())].into(),
        ..Default::default()
    }
}

fn bidding(seed: u64) -> ddz_pb::Setup {
    ddz_pb::Setup {
        deal: Deal::generate(seed, 0).to_string(),
        landlord: Some(ddz_pb::setup::Landlord::FirstBidder((seed % 3) as u32)),
        doubling: true,
        ..Default::default()
    }
}

/// Replays the replay's actions through a fresh `ddz::Game` and returns it.
fn replay_game(job: &v1::TableJob, replay: &v1::Replay) -> Game {
    let read = validate(job)
        .unwrap()
        .spec::<arena_games::ddz::DouDizhu>()
        .cloned()
        .expect("a Dou Dizhu job");
    let spec = read.setup;
    let mut g = Game::new(spec.config, spec.deal, job.seed);
    for (i, step) in replay.steps.iter().enumerate() {
        assert_eq!(
            g.to_act().map(|s| s.index() as u32),
            Some(step.seat),
            "step {i}"
        );
        let Some(action) = &step.action else { break };
        match convert::ddz_decision(action).unwrap() {
            DdzDecision::Bid(b) => g.apply(Action::Bid(b as u8)).unwrap(),
            DdzDecision::Double(x) => g.apply(Action::Double(x)).unwrap(),
            DdzDecision::Play(c) => {
                g.play_cards(c).unwrap();
            }
        }
    }
    g
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_builtin_bots_play_a_table_whose_replay_reproduces_the_outcome() {
    for seed in 0..40 {
        let bots = if seed % 2 == 0 {
            ["random", "random", "random"]
        } else {
            ["expert", "ladder:4/10", "random"]
        };
        let j = job(seed, bots, bidding(seed));
        let (result, replay) = run_table(&j, &RunOptions::default(), &BotHosts::default())
            .await
            .unwrap();
        assert_eq!(result.error, "");
        assert_eq!(result.table_id, j.table_id);
        assert_eq!(
            (
                result.competition.as_str(),
                result.labels.get("round").map(String::as_str)
            ),
            ("cup", Some("1"))
        );
        assert!(result.verdicts.is_empty() && result.forfeited_by.is_none());
        assert_eq!(result.penalties, [0, 0, 0]);
        let outcome = result.outcome.clone().unwrap();
        assert_eq!(result.final_scores, outcome.scores);
        assert_eq!(replay.result.as_ref(), Some(&result));
        assert_eq!(replay.job.as_ref(), Some(&j));

        // The replay's actions, applied to the rules engine, give the same game.
        let g = replay_game(&j, &replay);
        assert_eq!(
            Some(convert::ddz_outcome(
                g.outcome().unwrap(),
                ddz::Scoring::Competition
            )),
            result.outcome
        );
        let events: Vec<_> = g.events().iter().filter_map(convert::ddz_event).collect();
        assert_eq!(convert::history_of(&replay).events, events);

        // Every decision is a step, counted per seat, none automatic.
        for seat in 0..3u32 {
            let n = replay.steps.iter().filter(|s| s.seat == seat).count();
            assert_eq!(result.decisions[seat as usize] as usize, n);
        }
        assert!(
            replay
                .steps
                .iter()
                .all(|s| !s.automatic && s.verdict.is_none() && s.penalty == 0)
        );
        assert_eq!(result.mean_decision_ms.len(), 3);

        // The same bots through the ddz-bots fast path play the identical game.
        let read = validate(&j)
            .unwrap()
            .spec::<arena_games::ddz::DouDizhu>()
            .cloned()
            .expect("a Dou Dizhu job");
        let spec = read.setup;
        let mut built: Vec<_> = bots
            .iter()
            .map(|b| b.parse::<BotSpec>().unwrap().build_builtin().unwrap())
            .collect();
        let [a, b, c] = &mut built[..] else {
            unreachable!()
        };
        let direct = arena_games::ddz::play::play_game(
            spec.config,
            spec.deal,
            seed,
            &mut [a, b, c],
            &mut Buffers::new(),
        )
        .unwrap();
        assert_eq!(direct.outcome(), g.outcome(), "seed {seed}");
        assert_eq!(direct.events(), g.events(), "seed {seed}");
    }
}

#[tokio::test]
async fn a_rerun_of_the_same_job_replays_the_same_game() {
    let j = job(7, ["ladder:2/10", "ladder:9/10", "expert"], bidding(7));
    let (a, ra) = run_table(&j, &RunOptions::default(), &BotHosts::default())
        .await
        .unwrap();
    let (b, rb) = run_table(&j, &RunOptions::default(), &BotHosts::default())
        .await
        .unwrap();
    assert_eq!(a.outcome, b.outcome);
    let actions = |r: &v1::Replay| r.steps.iter().map(|s| s.action.clone()).collect::<Vec<_>>();
    assert_eq!(actions(&ra), actions(&rb));
}

#[tokio::test]
async fn a_bad_job_is_an_error_naming_the_field() {
    let mut j = job(1, ["expert", "expert", "expert"], bidding(1));
    j.seats[2].bot = "search:samples=0".into();
    let e = run_table(&j, &RunOptions::default(), &BotHosts::default())
        .await
        .unwrap_err();
    assert_eq!(e.field, "job.seats[2].bot");
    assert!(e.message.contains("positive integer"), "{e}");
}

/// A player that panics at its `n`th decision.
struct Panicky {
    inner: DdzBot,
    left: u32,
}

impl LocalPlayer<DdzTable> for Panicky {
    fn name(&self) -> String {
        "panicky".into()
    }
    fn start(&mut self, seat: u32, seed: u64) {
        self.inner.start(seat, seed)
    }
    fn decide(&mut self, view: &Observation<'_>, pending: &Pending) -> Action {
        if self.left == 0 {
            panic!("index out of bounds in the test bot");
        }
        self.left -= 1;
        self.inner.decide(view, pending)
    }
}

#[test]
fn a_panicking_builtin_bot_is_a_crashed_seat_and_the_table_goes_on() {
    let j = job(
        3,
        ["expert", "expert", "expert"],
        ddz_pb::Setup {
            landlord: Some(ddz_pb::setup::Landlord::FixedLandlord(0)),
            ..Default::default()
        },
    );
    let read = validate(&j)
        .unwrap()
        .spec::<arena_games::ddz::DouDizhu>()
        .cloned()
        .expect("a Dou Dizhu job");
    let spec = read.setup;
    for policy in [arena_table::Policy::Forfeit, arena_table::Policy::PlayOn] {
        let players: Vec<arena_table::Player<DdzTable>> = vec![
            Box::new(DdzBot::new(&BotSpec::Expert).unwrap()),
            Box::new(Panicky {
                inner: DdzBot::new(&BotSpec::Expert).unwrap(),
                left: 1,
            }),
            Box::new(DdzBot::new(&BotSpec::Expert).unwrap()),
        ];
        let setup = TableSetup {
            table_id: j.table_id.clone(),
            seed: j.seed,
            time: TimeRules {
                verdict_penalty: 5,
                ..TimeRules::default()
            },
            policy: Some(policy),
        };
        let table = play_local(
            DdzTable::new(&spec, j.seed),
            players,
            &setup,
            &AtomicBool::new(false),
        )
        .unwrap();
        let (result, replay) = table.finish(&j, "test");
        assert_eq!(result.verdicts.len(), 1);
        let v = &result.verdicts[0];
        assert_eq!((v.seat, v.kind()), (1, v1::VerdictKind::Crashed));
        assert!(
            v.reason
                .contains("panicked: index out of bounds in the test bot"),
            "{}",
            v.reason
        );
        assert_eq!(replay.steps[v.decision as usize].verdict.as_ref(), Some(v));
        match policy {
            arena_table::Policy::Forfeit => {
                assert_eq!(result.forfeited_by, Some(1));
                let o = convert::outcome_of(result.outcome.as_ref().unwrap()).unwrap();
                assert_eq!(o.winner, 0, "a farmer forfeited: the landlord wins");
            }
            arena_table::Policy::PlayOn => {
                assert_eq!(result.forfeited_by, None);
                assert_eq!(result.penalties[1], 5);
                let later = &replay.steps[v.decision as usize + 1..];
                assert!(later.iter().filter(|s| s.seat == 1).all(|s| s.automatic));
                let g = replay_game(&j, &replay);
                assert!(g.outcome().is_some());
                assert_eq!(
                    Some(convert::ddz_outcome(
                        g.outcome().unwrap(),
                        ddz::Scoring::Competition
                    )),
                    result.outcome
                );
            }
        }
        let _ = Seat::ALL;
    }
}
