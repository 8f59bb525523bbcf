//! Every game's line protocol through the one program session ([`ProgramSession`], what
//! bot-host's program seats run): the same faults get the same verdicts whatever the game —
//! a program that exits, one that writes what its protocol cannot read, one that never greets.

use std::time::Duration;

use arena_games::GameKind;
use arena_line::{CmdSpec, Launch, Output, ProgramSession};
use arena_proto::v1::VerdictKind;

/// A session of `game`'s protocol for seat 0 with `sh -c script`.
fn session(game: GameKind, script: &str) -> ProgramSession {
    let cmd = CmdSpec::new("sh", vec!["-c".to_string(), script.to_string()]);
    ProgramSession::start(&cmd, Launch::default(), game.program_protocol(0)).expect("sh starts")
}

#[tokio::test]
async fn a_program_that_exits_after_joining_is_a_crash_with_its_exit_code() {
    for game in GameKind::all() {
        let mut s = session(game, "echo join; exit 7");
        assert_eq!(s.join(Duration::from_secs(5)).await, Ok(None), "{game:?}");
        let out = s.recv().await;
        let fault = s.hear(out, None).await.unwrap_err();
        assert_eq!(fault.kind, VerdictKind::Crashed, "{game:?}");
        assert!(
            fault
                .reason
                .starts_with("the program exited while waiting for its next request (exit code 7)"),
            "{game:?}: {}",
            fault.reason
        );
    }
}

#[tokio::test]
async fn a_line_no_protocol_reads_is_malformed_and_quoted() {
    for game in GameKind::all() {
        let mut s = session(game, "echo join; echo dance; sleep 5");
        s.join(Duration::from_secs(5)).await.unwrap();
        let out = s.recv().await;
        assert_eq!(out, Output::Line("dance".into()), "{game:?}");
        let fault = s.hear(out, Some("play")).await.unwrap_err();
        assert_eq!(fault.kind, VerdictKind::Malformed, "{game:?}");
        assert!(
            fault
                .reason
                .starts_with("answered \"dance\" to the play request"),
            "{game:?}: {}",
            fault.reason
        );
        s.close(None, Duration::ZERO).await;
    }
}

#[tokio::test]
async fn silence_instead_of_the_greeting_is_a_timeout_and_another_first_line_is_malformed() {
    for game in GameKind::all() {
        let mut s = session(game, "sleep 5");
        let fault = s.join(Duration::from_millis(50)).await.unwrap_err();
        assert_eq!(fault.kind, VerdictKind::Timeout, "{game:?}");
        assert!(
            fault.reason.starts_with("no \"join\" line within 50 ms"),
            "{}",
            fault.reason
        );
        let mut s = session(game, "echo hello; sleep 5");
        let fault = s.join(Duration::from_secs(5)).await.unwrap_err();
        assert_eq!(fault.kind, VerdictKind::Malformed, "{game:?}");
        assert!(
            fault.reason.contains("\"hello\""),
            "{game:?}: {}",
            fault.reason
        );
    }
}
