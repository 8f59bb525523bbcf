//! `arena … | head`: a reader that stops early closes the pipe; arena then exits quietly with
//! the status of a command ended by SIGPIPE (141), without a panic, a backtrace or an error
//! line, whether the command prints with `println!` or writes and returns the error.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};

/// `arena ARGS` with a backtrace asked for, its stderr captured.
fn arena(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(args)
        .env("RUST_BACKTRACE", "1")
        .stderr(Stdio::piped());
    cmd
}

/// Runs `arena ARGS` with its stdout a pipe whose reader is already gone (as when `head` has
/// exited): every write fails. Returns the exit status and stderr.
fn to_a_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = arena(args).stdout(writer).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn println_output_to_a_closed_pipe_exits_quietly() {
    // Self-play prints its summary with `println!`.
    let (code, err) = to_a_closed_pipe(&["ddz", "selfplay", "--games", "10"]);
    assert_eq!((code, err.as_str()), (Some(141), ""));
}

#[test]
fn written_output_to_a_closed_pipe_exits_quietly() {
    // The legal moves of a big hand, written with `writeln!` (an error returned, not a panic).
    let (code, err) =
        to_a_closed_pipe(&["ddz", "legal", "--hand", "33344455566677788899TTJJQQKKAA22"]);
    assert_eq!((code, err.as_str()), (Some(141), ""));
}

#[test]
fn a_reader_that_stops_after_one_line_ends_the_command_quietly() {
    // As `| head -1`: one line read, then the pipe closed with thousands of lines to come.
    let mut child = arena(&["ddz", "legal", "--hand", "33344455566677788899TTJJQQKKAA22"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with('3'), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), err.as_ref()), (Some(141), ""));
}
