//! Remote seats against an in-test bot-host: legal, late, silent, illegal, garbage, faulting and
//! vanishing bots; forfeit and play-on; and what a seat is shown.

use arena_proto::packages::arena::ddz::v1 as ddz_pb;
use std::collections::HashMap;

use arena_games::ddz::convert::{self, DdzDecision};
use arena_games::{run_table, validate};
use arena_proto::v1;
use arena_table::{BotHosts, RunOptions};
use arena_testkit::fake_host::{FakeHost, Received};
use ddz::{Action, CardSet, Deal, Game, Phase, Seat};

fn job(
    id: &str,
    seed: u64,
    seats: [&str; 3],
    setup: ddz_pb::Setup,
    time: v1::TimeControl,
    policy: v1::VerdictPolicy,
) -> v1::TableJob {
    v1::TableJob {
        table_id: id.into(),
        game: "ddz".into(),
        seats: seats.map(|b| v1::SeatSpec { bot: b.into() }).to_vec(),
        setup: Some(arena_proto::payload::pack(&setup)),
        time: Some(time),
        verdict_policy: policy as i32,
        seed,
        ..Default::default()
    }
}

/// Seat 0 is landlord at bid 1, no bidding or doubling: seat 0 decides first.
fn fixed(seed: u64) -> ddz_pb::Setup {
    ddz_pb::Setup {
        deal: Deal::generate(seed, 0).to_string(),
        landlord: Some(ddz_pb::setup::Landlord::FixedLandlord(0)),
        ..Default::default()
    }
}

fn bidding(seed: u64, first: u32) -> ddz_pb::Setup {
    ddz_pb::Setup {
        deal: Deal::generate(seed, 0).to_string(),
        landlord: Some(ddz_pb::setup::Landlord::FirstBidder(first)),
        doubling: true,
        ..Default::default()
    }
}

/// Time limits no prompt bot can miss, even on a loaded machine: the tests using them check
/// verdicts and play, not timing.
fn quick() -> v1::TimeControl {
    v1::TimeControl {
        decision_ms: 2000,
        hard_cap_ms: 10_000,
        penalty_per_100ms: 1,
        verdict_penalty: 10,
        ..Default::default()
    }
}

async fn run(host: &str, j: &v1::TableJob) -> (v1::TableResult, v1::Replay) {
    run_with(host, j, &RunOptions::default()).await
}

async fn run_with(
    host: &str,
    j: &v1::TableJob,
    opts: &RunOptions,
) -> (v1::TableResult, v1::Replay) {
    let hosts = BotHosts::new(&[host.to_string()]).unwrap();
    run_table(j, opts, &hosts).await.unwrap()
}

/// Applies the replay's actions to a fresh game; stops at the first step without an action.
fn replay_game(j: &v1::TableJob, replay: &v1::Replay) -> Game {
    let read = validate(j)
        .unwrap()
        .spec::<arena_games::ddz::DouDizhu>()
        .cloned()
        .expect("a Dou Dizhu job");
    let spec = read.setup;
    let mut g = Game::new(spec.config, spec.deal, j.seed);
    for step in &replay.steps {
        assert_eq!(g.to_act().map(|s| s.index() as u32), Some(step.seat));
        let Some(a) = &step.action else { break };
        apply(&mut g, a);
    }
    g
}

fn apply(g: &mut Game, a: &v1::Action) {
    match convert::ddz_decision(a).unwrap() {
        DdzDecision::Bid(b) => g.apply(Action::Bid(b as u8)).unwrap(),
        DdzDecision::Double(x) => g.apply(Action::Double(x)).unwrap(),
        DdzDecision::Play(c) => {
            g.play_cards(c).unwrap();
        }
    }
}

/// A Dou Dizhu job's time control as seats are told it: every default filled in.
fn resolved(time: &v1::TimeControl) -> v1::TimeControl {
    arena_table::TimeRules::resolve(time, v1::PenaltyRounding::Started).to_proto()
}

fn ddz_outcome(r: &v1::TableResult) -> ddz_pb::Outcome {
    r.outcome
        .as_ref()
        .and_then(arena_games::ddz::convert::outcome_of)
        .unwrap_or_else(|| panic!("no Dou Dizhu outcome in {r:?}"))
}

fn messages_for<'a>(
    log: &'a [Received],
    table: &str,
    seat: u32,
) -> Vec<&'a v1::referee_to_seat::Msg> {
    log.iter()
        .filter(|r| r.table_id == table && r.seat == seat)
        .filter_map(|r| r.msg.msg.as_ref())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legal_remote_seats_play_a_whole_table_and_are_closed_with_the_outcome() {
    let (host, addr) = FakeHost::start().await;
    let j = job(
        "legal-1",
        11,
        ["legal", "legal", "passive"],
        bidding(11, 1),
        quick(),
        v1::VerdictPolicy::Forfeit,
    );
    let (result, replay) = run(&addr.to_string(), &j).await;
    assert_eq!(result.error, "");
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    let g = replay_game(&j, &replay);
    assert_eq!(
        Some(convert::ddz_outcome(
            g.outcome().unwrap(),
            ddz::Scoring::Competition
        )),
        result.outcome
    );
    let log = host.received();
    for seat in 0..3u32 {
        let msgs = messages_for(&log, "legal-1", seat);
        let Some(v1::referee_to_seat::Msg::Open(open)) = msgs.first() else {
            panic!("{msgs:?}")
        };
        assert_eq!(
            (open.bot.as_str(), open.game.as_str()),
            (j.seats[seat as usize].bot.as_str(), "ddz")
        );
        // Seats are told the job's time control with every default filled in.
        assert_eq!(
            open.time,
            Some(
                arena_table::TimeRules::resolve(&quick(), v1::PenaltyRounding::Started).to_proto()
            )
        );
        assert_eq!(open.time.unwrap().decision_ms, quick().decision_ms);
        let Some(v1::referee_to_seat::Msg::Close(close)) = msgs.last() else {
            panic!("{msgs:?}")
        };
        assert_eq!(close.outcome, result.outcome);
        let requests = msgs
            .iter()
            .filter(|m| matches!(m, v1::referee_to_seat::Msg::Request(_)))
            .count();
        assert_eq!(result.decisions[seat as usize] as usize, requests);
        for m in &msgs {
            if let v1::referee_to_seat::Msg::Request(r) = m {
                let step = &replay.steps[r.request_id as usize];
                assert_eq!((step.seat, step.kind), (seat, r.kind));
                assert_eq!(
                    (r.deadline_ms, r.table_id.as_str()),
                    (quick().decision_ms, "legal-1")
                );
            }
        }
    }
}

/// The penalty a decision of `elapsed_ms` costs: a point per started 100 ms over the limit.
fn overrun_points(elapsed_ms: u32, decision_ms: u32) -> i64 {
    i64::from(elapsed_ms.saturating_sub(decision_ms).div_ceil(100))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn late_answers_cost_a_point_per_started_100ms() {
    let (_host, addr) = FakeHost::start().await;
    // A generous limit for the prompt seats and a hard cap far beyond the late answers, so a
    // loaded machine cannot turn either into a penalty or a timeout; what is checked is the rule
    // itself, on whatever times were measured.
    let time = v1::TimeControl {
        decision_ms: 500,
        hard_cap_ms: 20_000,
        penalty_per_100ms: 1,
        verdict_penalty: 0,
        ..Default::default()
    };
    // Seat 0 answers its first three decisions after 620 ms: at least 120 ms over, at least two
    // started 100 ms.
    let j = job(
        "late-1",
        5,
        ["late=620*3", "legal", "legal"],
        fixed(5),
        time,
        v1::VerdictPolicy::Forfeit,
    );
    let (result, replay) = run(&addr.to_string(), &j).await;
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    for s in &replay.steps {
        assert_eq!(
            s.penalty,
            overrun_points(s.elapsed_ms, time.decision_ms),
            "seat {} took {} ms",
            s.seat,
            s.elapsed_ms
        );
    }
    let seat0: Vec<_> = replay.steps.iter().filter(|s| s.seat == 0).collect();
    assert!(seat0.len() > 3, "seat 0 decides more than three times");
    for s in &seat0[..3] {
        // The bot slept 620 ms before answering: the referee cannot have seen it sooner.
        assert!(s.elapsed_ms >= 620, "elapsed {} ms", s.elapsed_ms);
        assert!(s.penalty >= 2, "{} ms cost {}", s.elapsed_ms, s.penalty);
    }
    for seat in 0..3u32 {
        let steps: Vec<_> = replay.steps.iter().filter(|s| s.seat == seat).collect();
        let sum: i64 = steps.iter().map(|s| s.penalty).sum();
        assert_eq!(result.penalties[seat as usize], sum, "seat {seat}");
        assert_eq!(result.decisions[seat as usize] as usize, steps.len());
        let mean = steps.iter().map(|s| f64::from(s.elapsed_ms)).sum::<f64>() / steps.len() as f64;
        assert!(
            (result.mean_decision_ms[seat as usize] - mean).abs() < 1e-6,
            "seat {seat}: {} against {mean}",
            result.mean_decision_ms[seat as usize]
        );
    }
    assert!(result.penalties[0] >= 6, "{:?}", result.penalties);
    let scores = &result.outcome.as_ref().unwrap().scores;
    let expected: Vec<i64> = scores
        .iter()
        .zip(&result.penalties)
        .map(|(s, p)| s - p)
        .collect();
    assert_eq!(result.final_scores, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silence_is_a_timeout_at_the_hard_cap_under_both_policies() {
    let (_host, addr) = FakeHost::start().await;
    // The answering seats have a whole second: a loaded machine cannot make them late. The
    // silent seat is cut off at the hard cap, 200 ms over the limit: two points.
    let time = v1::TimeControl {
        decision_ms: 1000,
        hard_cap_ms: 1200,
        penalty_per_100ms: 1,
        verdict_penalty: 10,
        ..Default::default()
    };
    // Seat 1 (a farmer) answers its first decision, then never again.
    let forfeit = job(
        "silent-f",
        8,
        ["legal", "silent@1", "legal"],
        fixed(8),
        time,
        v1::VerdictPolicy::Forfeit,
    );
    let (result, replay) = run(&addr.to_string(), &forfeit).await;
    assert_eq!(result.verdicts.len(), 1);
    let v = &result.verdicts[0];
    assert_eq!((v.seat, v.kind()), (1, v1::VerdictKind::Timeout));
    assert!(
        v.reason
            .contains("no answer within the hard cap of 1200 ms"),
        "{}",
        v.reason
    );
    assert_eq!(
        v.decision as usize,
        replay.steps.len() - 1,
        "the game ends at the verdict"
    );
    let step = replay.steps.last().unwrap();
    assert_eq!(
        (
            step.seat,
            step.elapsed_ms,
            step.penalty,
            step.action.as_ref()
        ),
        (1, 1200, 2, None)
    );
    assert_eq!(step.verdict.as_ref(), Some(v));
    assert_eq!(result.forfeited_by, Some(1));
    let o = ddz_outcome(&result);
    assert_eq!(
        (o.landlord, o.winner, o.bombs),
        (0, 0, 0),
        "a farmer forfeited: the landlord's side wins"
    );
    assert_eq!(result.outcome.as_ref().unwrap().scores, [2, -1, -1]);
    assert_eq!(result.penalties, [0, 2, 0]);
    assert_eq!(result.final_scores, [2, -3, -1]);

    let play_on = job(
        "silent-p",
        8,
        ["legal", "silent@1", "legal"],
        fixed(8),
        time,
        v1::VerdictPolicy::PlayOn,
    );
    let (result, replay) = run(&addr.to_string(), &play_on).await;
    assert_eq!(result.verdicts.len(), 1);
    let v = &result.verdicts[0];
    assert_eq!((v.seat, v.kind()), (1, v1::VerdictKind::Timeout));
    assert_eq!(result.forfeited_by, None);
    let step = &replay.steps[v.decision as usize];
    assert!(step.automatic && step.action.is_some());
    assert_eq!(
        step.penalty,
        2 + 10,
        "overrun to the hard cap plus the verdict penalty"
    );
    for later in replay.steps[v.decision as usize + 1..]
        .iter()
        .filter(|s| s.seat == 1)
    {
        assert!(later.automatic && later.verdict.is_none());
        assert_eq!((later.elapsed_ms, later.penalty), (0, 0));
    }
    assert_eq!(result.penalties, [0, 12, 0]);
    let g = replay_game(&play_on, &replay);
    assert_eq!(
        Some(convert::ddz_outcome(
            g.outcome().unwrap(),
            ddz::Scoring::Competition
        )),
        result.outcome
    );
    // Only the decisions the bot was asked count for it.
    assert_eq!(result.decisions[1], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_answers_and_failed_seats_get_the_right_verdicts() {
    let (_host, addr) = FakeHost::start().await;
    let cases = [
        ("illegal@1", v1::VerdictKind::Illegal, "not all in its hand"),
        (
            "garbage@1",
            v1::VerdictKind::Malformed,
            "unknown card character 'X'",
        ),
        (
            "empty@1",
            v1::VerdictKind::Malformed,
            "the reply holds no action",
        ),
        (
            "fault@1",
            v1::VerdictKind::Crashed,
            "the bot program exited with status 3",
        ),
        ("refuse", v1::VerdictKind::Crashed, "could not be started"),
    ];
    for (i, (bot, kind, reason)) in cases.into_iter().enumerate() {
        for policy in [v1::VerdictPolicy::Forfeit, v1::VerdictPolicy::PlayOn] {
            let id = format!("bad-{i}-{}", policy as i32);
            let j = job(
                &id,
                20 + i as u64,
                ["legal", "legal", bot],
                fixed(20 + i as u64),
                quick(),
                policy,
            );
            let (result, replay) = run(&addr.to_string(), &j).await;
            assert_eq!(result.verdicts.len(), 1, "{bot}: {:?}", result.verdicts);
            let v = &result.verdicts[0];
            assert_eq!((v.seat, v.kind()), (2, kind), "{bot}");
            assert!(v.reason.contains(reason), "{bot}: {}", v.reason);
            assert_eq!(replay.steps[v.decision as usize].verdict.as_ref(), Some(v));
            let asked_before = replay.steps[..v.decision as usize]
                .iter()
                .filter(|s| s.seat == 2)
                .count();
            assert_eq!(asked_before, if bot == "refuse" { 0 } else { 1 }, "{bot}");
            if policy == v1::VerdictPolicy::Forfeit {
                assert_eq!(result.forfeited_by, Some(2));
                assert_eq!(ddz_outcome(&result).winner, 0);
                assert_eq!(result.penalties, [0, 0, 0]);
            } else {
                assert_eq!(result.forfeited_by, None);
                assert_eq!(result.penalties, [0, 0, 10]);
                let g = replay_game(&j, &replay);
                assert_eq!(
                    Some(convert::ddz_outcome(
                        g.outcome().unwrap(),
                        ddz::Scoring::Competition
                    )),
                    result.outcome
                );
            }
        }
    }
}

/// A seat whose bot-host says it is waiting for the bot (busy with as many tables as it takes
/// at once) is waited for past the open timeout, however long that wait: the platform's
/// scheduling is no fault of the bot's. A bot-host that says nothing within the timeout is
/// given up on, with a verdict as before.
#[tokio::test]
async fn a_seat_waiting_its_turn_for_a_busy_bot_outlasts_the_open_timeout_without_a_verdict() {
    let (_host, addr) = FakeHost::start().await;
    let host = addr.to_string();
    let opts = RunOptions {
        open_timeout: std::time::Duration::from_millis(300),
        ..RunOptions::default()
    };
    // Ready after four open timeouts, saying it waits every 50 ms.
    let j = job(
        "queued",
        20,
        ["legal", "legal", "queued=1200"],
        fixed(20),
        quick(),
        v1::VerdictPolicy::Forfeit,
    );
    let (result, replay) = run_with(&host, &j, &opts).await;
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert!(result.error.is_empty(), "{}", result.error);
    let g = replay_game(&j, &replay);
    assert!(g.outcome().is_some(), "the table was played to its end");
    assert!(result.decisions[2] > 0, "the waiting seat played");

    let j = job(
        "unready",
        20,
        ["legal", "legal", "unready"],
        fixed(20),
        quick(),
        v1::VerdictPolicy::Forfeit,
    );
    let (result, _) = run_with(&host, &j, &opts).await;
    assert_eq!(result.verdicts.len(), 1, "{:?}", result.verdicts);
    let v = &result.verdicts[0];
    assert_eq!((v.seat, v.kind()), (2, v1::VerdictKind::Disconnected));
    assert!(
        v.reason.contains("neither reported the seat ready") && v.reason.contains("300 ms"),
        "{}",
        v.reason
    );
}

/// A table's remote seats are opened bot by bot in the order of the bots' names, the next
/// bot's only once the last one's seats are ready: tables that each held a slot of a busy bot
/// the other waits for could otherwise wait for ever.
#[tokio::test]
async fn remote_seats_open_bot_by_bot_in_the_order_of_their_names() {
    let (host, addr) = FakeHost::start().await;
    // "queued=300" sorts first: ready 300 ms after its open. Then "queued=600", both its seats.
    let j = job(
        "ordered",
        20,
        ["queued=600", "queued=300", "queued=600"],
        fixed(20),
        quick(),
        v1::VerdictPolicy::Forfeit,
    );
    let (result, _) = run(&addr.to_string(), &j).await;
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    let opens: Vec<(u32, std::time::Instant)> = host
        .received()
        .into_iter()
        .filter(|r| matches!(r.msg.msg, Some(v1::referee_to_seat::Msg::Open(_))))
        .map(|r| (r.seat, r.at))
        .collect();
    assert_eq!(opens.len(), 3, "{opens:?}");
    assert_eq!(
        opens[0].0, 1,
        "the first bot by name opens first: {opens:?}"
    );
    for (seat, at) in &opens[1..] {
        let after = at.duration_since(opens[0].1);
        assert!(
            after >= std::time::Duration::from_millis(300),
            "seat {seat} opened {after:?} after the first bot's seat, before it was ready"
        );
    }
}

/// No bot-host to reach is the platform's failure, not the bot's: no verdict, the table is
/// interrupted (the referee hands it back to be played again).
#[tokio::test]
async fn a_seat_with_no_bot_host_to_reach_interrupts_the_table_without_a_verdict() {
    let j = job(
        "nohost",
        1,
        ["expert", "expert", "somebody"],
        fixed(1),
        quick(),
        v1::VerdictPolicy::Forfeit,
    );
    let opts = RunOptions {
        reconnect_grace: std::time::Duration::from_millis(300),
        ..RunOptions::default()
    };
    let spec = arena_games::validate(&j).unwrap();
    let played = arena_games::run_spec(&j, &spec, &opts, &BotHosts::default()).await;
    match played {
        arena_table::run::Played::Interrupted(why) => {
            assert!(why.contains("no bot-host address"), "{why}")
        }
        other => panic!("expected an interruption, got {other:?}"),
    }
    let (result, _) = run_table(&j, &opts, &BotHosts::default()).await.unwrap();
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert!(result.outcome.is_none());
    assert!(
        result.error.contains("interrupted by the platform"),
        "{}",
        result.error
    );
}

/// A bot-host whose seat stream ends in the middle of a table (as when it dies) is the
/// platform's failure: the seat is opened again and the same decision asked again; the table
/// ends normally, with no verdict against the bot.
#[tokio::test]
async fn a_seat_whose_bot_host_hangs_up_is_opened_again_without_a_verdict() {
    let (_host, addr) = FakeHost::start().await;
    let j = job(
        "hangup",
        20,
        ["legal", "legal", "hangup@1"],
        fixed(20),
        quick(),
        v1::VerdictPolicy::Forfeit,
    );
    let (result, replay) = run(&addr.to_string(), &j).await;
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert!(result.error.is_empty(), "{}", result.error);
    let g = replay_game(&j, &replay);
    assert_eq!(
        Some(convert::ddz_outcome(
            g.outcome().unwrap(),
            ddz::Scoring::Competition
        )),
        result.outcome
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn builtin_and_heavy_search_bots_sit_beside_remote_seats() {
    let (_host, addr) = FakeHost::start().await;
    let j = job(
        "mixed",
        4,
        ["search:samples=2,candidates=2", "legal", "expert"],
        bidding(4, 0),
        quick(),
        v1::VerdictPolicy::Forfeit,
    );
    let (result, replay) = run(&addr.to_string(), &j).await;
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    let g = replay_game(&j, &replay);
    assert_eq!(
        Some(convert::ddz_outcome(
            g.outcome().unwrap(),
            ddz::Scoring::Competition
        )),
        result.outcome
    );
}

/// Counts by rank.
fn counts(c: CardSet) -> [u8; 15] {
    c.counts()
}

/// Checks that `cards` (a card string from a message to `seat`) uses no card the seat cannot
/// know about: per rank, at most what the deck holds outside the other seats' hidden cards.
fn assert_visible(what: &str, text: &str, allowed: &[u8; 15], ctx: &str) {
    if text.is_empty() || text == "pass" {
        return;
    }
    let c: CardSet = text
        .parse()
        .unwrap_or_else(|e| panic!("{ctx}: {what} {text:?}: {e}"));
    for (r, (&n, &max)) in counts(c).iter().zip(allowed).enumerate() {
        assert!(
            n <= max,
            "{ctx}: {what} {text:?} shows {n} of rank {r}, the seat can know of {max}: hidden cards leaked"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_seat_is_ever_shown_another_seats_hidden_cards() {
    let (host, addr) = FakeHost::start().await;
    let mut jobs = Vec::new();
    for k in 0..48u64 {
        // Passive bidders force redeals (all three pass); fixed-landlord tables too.
        let seats = match k % 4 {
            0 => ["passive", "passive", "passive"],
            1 => ["legal", "passive", "legal"],
            2 => ["legal", "legal", "legal"],
            _ => ["passive", "legal", "passive"],
        };
        let setup = if k % 6 == 5 {
            fixed(100 + k)
        } else {
            bidding(100 + k, (k % 3) as u32)
        };
        jobs.push(job(
            &format!("leak-{k}"),
            100 + k,
            seats,
            setup,
            quick(),
            v1::VerdictPolicy::Forfeit,
        ));
    }
    let hosts = BotHosts::new(&[addr.to_string()]).unwrap();
    let opts = RunOptions::default();
    let runs =
        futures_util::future::join_all(jobs.iter().map(|j| run_table(j, &opts, &hosts))).await;
    let log = host.received();
    let mut requests: HashMap<(String, u64), (u32, v1::DecisionRequest)> = HashMap::new();
    let mut checked = 0;
    let mut redeals = 0;
    for r in &log {
        match &r.msg.msg {
            Some(v1::referee_to_seat::Msg::Request(q)) => {
                assert_eq!(
                    (q.table_id.as_str(), q.seat),
                    (r.table_id.as_str(), r.seat),
                    "a request on another table's or seat's stream"
                );
                assert!(
                    requests
                        .insert((r.table_id.clone(), q.request_id), (r.seat, q.clone()))
                        .is_none()
                );
            }
            Some(v1::referee_to_seat::Msg::Open(o)) => {
                // Only the table, the seat, its own bot, the game and the clock.
                let j = jobs.iter().find(|j| j.table_id == o.table_id).unwrap();
                assert_eq!(o.bot, j.seats[o.seat as usize].bot);
                assert_eq!(
                    *o,
                    v1::SeatOpen {
                        table_id: j.table_id.clone(),
                        seat: o.seat,
                        bot: o.bot.clone(),
                        game: j.game.clone(),
                        time: Some(resolved(&quick()))
                    }
                );
            }
            Some(v1::referee_to_seat::Msg::Close(c)) => {
                assert!(c.verdicts.is_empty());
                let o = c.outcome.as_ref().unwrap();
                assert!(arena_games::ddz::convert::outcome_of(o).is_some());
            }
            None => panic!("an empty message"),
        }
    }
    for (j, run) in jobs.iter().zip(runs) {
        let (result, replay) = run.unwrap();
        assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
        let read = validate(j)
            .unwrap()
            .spec::<arena_games::ddz::DouDizhu>()
            .cloned()
            .expect("a Dou Dizhu job");
        let spec = read.setup;
        let mut g = Game::new(spec.config, spec.deal, j.seed);
        for (i, step) in replay.steps.iter().enumerate() {
            let (seat, q) = requests
                .get(&(j.table_id.clone(), i as u64))
                .unwrap_or_else(|| panic!("{}: no request for step {i}", j.table_id));
            assert_eq!(*seat, step.seat);
            let s = Seat::new(*seat as u8).unwrap();
            let o =
                arena_games::ddz::convert::observation_of(q.observation.as_ref().unwrap()).unwrap();
            let ctx = format!("{} step {i} seat {seat}", j.table_id);
            // The seat's own cards, exactly.
            assert_eq!(o.hand, g.hand(s).to_string(), "{ctx}");
            // What the other seats hold and the seat cannot see: their current hands, less the
            // bottom cards once shown; plus the bottom itself while bidding.
            let landlord = g.landlord();
            let bottom = g.deal().bottom;
            let mut hidden = [0u8; 15];
            for other in Seat::ALL.into_iter().filter(|&x| x != s) {
                let mut h = counts(g.hand(other));
                if landlord == Some(other) {
                    // Unplayed bottom cards are public.
                    let played_by_landlord = counts(g.observation(other).played[other.index()]);
                    for (r, x) in h.iter_mut().enumerate() {
                        let b = counts(bottom)[r].saturating_sub(played_by_landlord[r]);
                        *x -= b.min(*x);
                    }
                }
                for (r, x) in h.iter().enumerate() {
                    hidden[r] += x;
                }
            }
            if landlord.is_none() {
                for (r, x) in counts(bottom).iter().enumerate() {
                    hidden[r] += x;
                }
            }
            let deck = counts(CardSet::DECK);
            let allowed: [u8; 15] = std::array::from_fn(|r| deck[r] - hidden[r]);
            assert_visible("hand", &o.hand, &allowed, &ctx);
            assert_visible("bottom", &o.bottom, &allowed, &ctx);
            assert_visible("to_beat", &o.to_beat, &allowed, &ctx);
            for l in &o.legal {
                if g.phase() == Phase::Play {
                    assert_visible("legal", l, &allowed, &ctx);
                    assert!(
                        l == "pass" || l.parse::<CardSet>().unwrap().is_subset_of(g.hand(s)),
                        "{ctx}: legal {l} not in hand"
                    );
                }
            }
            for e in &o.events {
                match &e.event {
                    Some(ddz_pb::event::Event::Play(p)) => {
                        assert_visible("event", p, &allowed, &ctx)
                    }
                    Some(ddz_pb::event::Event::Landlord(l)) => {
                        assert_visible("landlord bottom", &l.bottom, &allowed, &ctx)
                    }
                    _ => {}
                }
            }
            // Field by field against the public record.
            assert_eq!(o.bottom.is_empty(), landlord.is_none(), "{ctx}");
            let public: Vec<_> = g.events().iter().filter_map(convert::ddz_event).collect();
            assert_eq!(o.events, public, "{ctx}");
            let cards_left: Vec<u32> = Seat::ALL.iter().map(|&x| g.hand(x).len()).collect();
            assert_eq!(o.cards_left, cards_left, "{ctx}");
            assert_eq!(o.seat, *seat);
            checked += 1;
            apply(&mut g, step.action.as_ref().unwrap());
        }
        assert_eq!(
            Some(convert::ddz_outcome(
                g.outcome().unwrap(),
                ddz::Scoring::Competition
            )),
            result.outcome
        );
        redeals += g.redeals();
    }
    assert_eq!(checked, requests.len(), "every request was checked");
    assert!(
        redeals >= 10,
        "bidding games with redeals were covered ({redeals})"
    );
}

/// What a seat stream's request says of its events: (events left out, events carried).
fn events_of(r: &v1::DecisionRequest) -> (usize, usize) {
    let through = arena_proto::incremental::events_through(r);
    let carried = arena_proto::incremental::events_len(r);
    (through - carried, carried)
}

/// A bot-host that says `SeatReady.incremental_observations` is sent, on each seat stream,
/// the stream's first request whole and then only the events since the stream's previous
/// request: made whole again, every request is the observation the decision was put with. A
/// seat opened again (its stream hung up mid-table) starts whole on its new stream. A host that
/// does not say so gets every request whole.
#[tokio::test]
async fn seat_streams_carry_increments_only_to_a_host_that_takes_them() {
    for incremental in [true, false] {
        let (host, addr) = if incremental {
            FakeHost::start_incremental().await
        } else {
            FakeHost::start().await
        };
        // Bidding and doubling too; seat 1's stream hangs up after each third decision.
        let j = job(
            "inc/t1",
            31,
            ["legal", "hangup@3*1", "legal"],
            bidding(31, 0),
            quick(),
            v1::VerdictPolicy::Forfeit,
        );
        let (result, replay) = run(&addr.to_string(), &j).await;
        assert!(result.error.is_empty(), "{}", result.error);
        assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
        let truth = arena_games::step_observations(&j, &replay).unwrap();

        let mut streams: HashMap<u64, (arena_proto::incremental::SeatEvents, usize)> =
            HashMap::new();
        let (mut requests, mut increments) = (0, 0);
        for r in host.received() {
            let Some(v1::referee_to_seat::Msg::Request(req)) = r.msg.msg else {
                continue;
            };
            requests += 1;
            let (left_out, carried) = events_of(&req);
            let first = !streams.contains_key(&r.stream);
            let (history, held) = streams.entry(r.stream).or_default();
            if first || !incremental {
                assert_eq!(left_out, 0, "request {} is whole: {req:?}", req.request_id);
            } else {
                assert_eq!(
                    left_out, *held,
                    "request {} leaves out exactly what its stream carried",
                    req.request_id
                );
                increments += usize::from(left_out > 0);
            }
            *held = left_out + carried;
            let mut whole = req.clone();
            history.rebuild(&mut whole).unwrap();
            let (seat, asked) = &truth[req.request_id as usize];
            assert_eq!(*seat, req.seat);
            assert_eq!(
                whole.observation.as_ref(),
                Some(asked),
                "request {} made whole (incremental host: {incremental})",
                req.request_id
            );
        }
        let seat1_streams = host
            .received()
            .iter()
            .filter(|r| r.seat == 1 && matches!(r.msg.msg, Some(v1::referee_to_seat::Msg::Open(_))))
            .count();
        assert!(
            seat1_streams >= 3,
            "seat 1 was opened again: {seat1_streams}"
        );
        assert!(
            requests >= truth.len(),
            "{requests} requests, {} steps",
            truth.len()
        );
        if incremental {
            assert!(
                increments > requests / 2,
                "{increments} of {requests} incremental"
            );
        }
    }
}
