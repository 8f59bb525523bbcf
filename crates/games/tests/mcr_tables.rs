//! Chinese Standard Mahjong tables on the one runner, through the registry: built-in bots play
//! hands to zero-sum results under both fault policies; a program bot speaking the game's line
//! protocol plays a table; a bad answer becomes a verdict naming it, ending the hand (the
//! judge's policy, −30 to the offender and +10 to each other seat) or playing on; bad set-ups
//! are refused naming their field.

use std::os::unix::fs::PermissionsExt;

use arena_games::mcr::{convert, pb};
use arena_games::validate;
use arena_line::{CmdSpec, Launch};
use arena_proto::v1;
use arena_table::run::Played;
use arena_table::{BotHosts, ProgramBot, RunOptions};

fn job(seats: [&str; 4], seed: u64, setup: pb::Setup) -> v1::TableJob {
    v1::TableJob {
        table_id: format!("mcr-{seed}"),
        game: "mcr".into(),
        seats: seats
            .iter()
            .map(|b| v1::SeatSpec { bot: (*b).into() })
            .collect(),
        setup: Some(arena_proto::payload::pack(&setup)),
        seed,
        ..Default::default()
    }
}

fn policy(p: pb::FaultPolicy) -> pb::Setup {
    pb::Setup {
        fault_policy: p as i32,
        ..Default::default()
    }
}

/// A shell script in a directory of its own that any user may read and run (programs of a
/// root caller run as `nobody`), run by `sh`.
struct Script {
    _dir: tempfile::TempDir,
    bot: ProgramBot,
}

fn script(body: &str) -> Script {
    let dir = tempfile::Builder::new()
        .prefix("arena-mcr-bot-")
        .tempdir()
        .expect("a temporary directory");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = dir.path().join("bot.sh");
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    Script {
        bot: ProgramBot {
            cmd: CmdSpec::new("sh", [path.display().to_string()]),
            launch: Launch::default(),
        },
        _dir: dir,
    }
}

/// A bot that discards each tile it draws and passes on everything else (always legal); with
/// `turn_answer` it answers that on its turns instead.
fn drawn_discarder(turn_answer: Option<&str>) -> Script {
    let turn = turn_answer.map_or_else(|| "PLAY $last".to_string(), str::to_string);
    script(&format!(
        "echo join\n\
         while read -r a b c; do\n\
           case \"$a\" in\n\
             2) last=$b ;;\n\
             '?') if [ \"$b\" = TURN ]; then echo \"{turn}\"; else echo PASS; fi ;;\n\
           esac\n\
         done\n"
    ))
}

/// Plays `job` with `program` in seat 0 (the job's seat 0 names it by position).
fn play_with_program(job: &v1::TableJob, program: &Script) -> (v1::TableResult, v1::Replay) {
    let time = v1::TimeControl {
        // A hard cap a healthy script on a loaded machine never reaches.
        hard_cap_ms: 10_000,
        ..arena_games::mcr::spec::default_time()
    };
    let job = v1::TableJob {
        time: Some(time),
        ..job.clone()
    };
    let checked = validate(&job).expect("a valid job");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let programs = [Some(program.bot.clone()), None, None, None];
    match rt.block_on(checked.play_with_programs(
        &job,
        &RunOptions::default(),
        &BotHosts::default(),
        &programs,
    )) {
        Played::Finished(record) => record.into_replay(Some(&job)),
        Played::Interrupted(why) => panic!("interrupted: {why}"),
    }
}

#[tokio::test]
async fn built_in_bots_play_hands_to_zero_sum_results_under_both_policies() {
    let no_host = BotHosts::default();
    for p in [pb::FaultPolicy::Judge, pb::FaultPolicy::PlayOn] {
        let mut wins = 0;
        for seed in 0..8 {
            let j = job(
                ["fan", "efficiency", "random", "efficiency"],
                seed,
                policy(p),
            );
            let (result, replay) = arena_games::run_table(&j, &RunOptions::default(), &no_host)
                .await
                .unwrap();
            assert!(result.error.is_empty(), "{}", result.error);
            assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
            let o = result.outcome.unwrap();
            assert_eq!(o.scores.len(), 4);
            assert_eq!(o.scores.iter().sum::<i64>(), 0, "scores are zero-sum");
            let m = convert::outcome_of(&o).expect("an MCR outcome");
            if let Some(w) = m.winner {
                wins += 1;
                assert!(o.scores[w as usize] > 0);
                let fans: u32 = m.fans.iter().map(|f| f.points * f.count).sum();
                assert_eq!(fans, m.points);
                assert!(m.fans.iter().all(|f| !f.chinese.is_empty()));
            }
            let history = convert::history_of(&replay);
            assert_eq!(history.walltiles.split(' ').count(), 144);
            assert!(history.events.len() > 4);
        }
        assert!(wins > 0, "{p:?}: some hand of eight is won");
    }
}

#[test]
fn a_program_bot_speaking_the_line_protocol_plays_a_table() {
    let bot = drawn_discarder(None);
    let j = job(
        ["position-0", "efficiency", "random", "fan"],
        5,
        pb::Setup::default(),
    );
    let (result, replay) = play_with_program(&j, &bot);
    assert!(result.error.is_empty(), "{}", result.error);
    assert!(result.verdicts.is_empty(), "{:?}", result.verdicts);
    assert_eq!(result.outcome.unwrap().scores.iter().sum::<i64>(), 0);
    assert!(
        replay
            .steps
            .iter()
            .filter(|s| s.seat == 0 && !s.automatic)
            .count()
            > 3,
        "the program answered its own turns"
    );
}

#[test]
fn a_wrong_win_under_the_judges_policy_ends_the_hand_minus_30_plus_10() {
    let bot = drawn_discarder(Some("HU"));
    let j = job(
        ["position-0", "random", "random", "random"],
        3,
        pb::Setup::default(),
    );
    let (result, _) = play_with_program(&j, &bot);
    assert_eq!(result.verdicts.len(), 1, "{:?}", result.verdicts);
    let v = &result.verdicts[0];
    assert_eq!((v.seat, v.kind), (0, v1::VerdictKind::Illegal as i32));
    assert!(
        v.reason.contains("HU") && v.reason.contains("wrong win"),
        "{}",
        v.reason
    );
    let o = result.outcome.unwrap();
    assert_eq!(o.scores, [-30, 10, 10, 10]);
    assert_eq!(convert::outcome_of(&o).unwrap().fault, Some(0));
}

#[test]
fn the_setups_fault_policy_rules_over_the_jobs_verdict_policy() {
    let bot = drawn_discarder(Some("HU"));
    let mut j = job(
        ["position-0", "random", "random", "random"],
        3,
        policy(pb::FaultPolicy::Judge),
    );
    j.verdict_policy = v1::VerdictPolicy::PlayOn as i32;
    let (result, _) = play_with_program(&j, &bot);
    assert_eq!(result.verdicts.len(), 1, "{:?}", result.verdicts);
    assert_eq!(result.outcome.unwrap().scores, [-30, 10, 10, 10]);
}

#[test]
fn a_malformed_answer_under_play_on_is_a_verdict_and_the_seat_plays_on() {
    let bot = drawn_discarder(Some("DISCARD W1"));
    let j = job(
        ["position-0", "random", "random", "random"],
        3,
        policy(pb::FaultPolicy::PlayOn),
    );
    let (result, replay) = play_with_program(&j, &bot);
    assert_eq!(result.verdicts.len(), 1, "{:?}", result.verdicts);
    let v = &result.verdicts[0];
    assert_eq!((v.seat, v.kind), (0, v1::VerdictKind::Malformed as i32));
    assert!(v.reason.contains("DISCARD W1"), "{}", v.reason);
    let o = result.outcome.unwrap();
    assert_eq!(o.scores.iter().sum::<i64>(), 0);
    assert_eq!(
        convert::outcome_of(&o).unwrap().fault,
        None,
        "the hand played on"
    );
    assert!(
        replay
            .steps
            .iter()
            .filter(|s| s.seat == 0 && s.automatic)
            .count()
            > 1,
        "seat 0 played on automatically"
    );
}

#[test]
fn bad_setups_are_refused_naming_their_field() {
    let field = |setup: pb::Setup, verdict_policy: v1::VerdictPolicy| {
        let mut j = job(["random"; 4], 1, setup);
        j.verdict_policy = verdict_policy as i32;
        validate(&j).err().map(|e| e.field)
    };
    let none = v1::VerdictPolicy::Unspecified;
    assert_eq!(field(pb::Setup::default(), none), None);
    let s = |f: fn(&mut pb::Setup)| {
        let mut s = pb::Setup::default();
        f(&mut s);
        s
    };
    assert_eq!(
        field(s(|s| s.walltiles = "W1 W2".into()), none).as_deref(),
        Some("job.mcr.walltiles")
    );
    assert_eq!(
        field(s(|s| s.quan = Some(9)), none).as_deref(),
        Some("job.mcr.quan")
    );
    assert_eq!(
        field(s(|s| s.fault_policy = 5), none).as_deref(),
        Some("job.mcr.fault_policy")
    );
    // The set-up's fault policy rules the table over the job's verdict policy.
    assert_eq!(
        field(
            s(|s| s.fault_policy = pb::FaultPolicy::Judge as i32),
            v1::VerdictPolicy::PlayOn
        ),
        None
    );
    let mut j = job(["random"; 4], 1, pb::Setup::default());
    j.seats.pop();
    assert_eq!(validate(&j).unwrap_err().field, "job.seats");
    let mut j = job(["random"; 4], 1, pb::Setup::default());
    j.seats[2].bot = "fan:deep".into();
    assert_eq!(validate(&j).unwrap_err().field, "job.seats[2].bot");
}
