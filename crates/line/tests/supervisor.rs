//! The supervisor itself, with no game: bounded lines, the stderr tail, output that is no text,
//! a hang, a crash, the process group, the working directory and the farewell, through the async
//! API and the blocking façade alike, and a toy protocol of its own framing.

use std::path::Path;
use std::time::{Duration, Instant};

use arena_line::{
    CmdSpec, Framing, Launch, LineEnding, LineProtocol, Output, Program, WorkDir, blocking,
};
use arena_proto::v1::VerdictKind;
use arena_sandbox::{Isolation, Policy, Sandbox};

/// `sh -c script`.
fn sh(script: &str) -> CmdSpec {
    CmdSpec::new("sh", ["-c", script])
}

/// The default launch, with lines of at most `max` bytes.
fn launch_with_max(max: usize) -> Launch {
    Launch {
        framing: Framing {
            max_line_bytes: max,
            ..Framing::default()
        },
        ..Launch::default()
    }
}

/// A launch working in `dir` (made usable by a sandboxed program), isolated or not.
fn launch_in(dir: &Path, isolation: Isolation) -> Launch {
    let sandbox = Sandbox::new(Policy {
        isolation,
        ..Policy::default()
    });
    sandbox.prepare_workdir(dir).unwrap();
    Launch {
        sandbox,
        workdir: WorkDir::At(dir.to_path_buf()),
        ..Launch::default()
    }
}

fn soon() -> Instant {
    // Generous: only programs that answer at once are read with it.
    Instant::now() + Duration::from_secs(20)
}

/// The living processes whose working directory is `dir` (so that a sandboxed program's
/// processes can be found from outside its PID namespace).
fn processes_in(dir: &Path) -> Vec<u32> {
    let dir = dir.canonicalize().unwrap();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_link(format!("/proc/{pid}/cwd")).is_ok_and(|cwd| cwd == dir)
                && std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                    s.rsplit(") ")
                        .next()
                        .is_some_and(|st| !st.starts_with('Z') && !st.starts_with('X'))
                })
        })
        .collect()
}

/// Polls `f` every 20 ms until it holds, for at most 20 s; whether it held.
fn eventually(mut f: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    f()
}

/// True once no process `pid` exists, not even a zombie (waiting up to 20 s).
fn gone(pid: u32) -> bool {
    eventually(|| std::fs::metadata(format!("/proc/{pid}")).is_err())
}

#[test]
fn a_long_line_is_cut_off_at_the_bound_and_the_next_line_is_whole() {
    let mut p = blocking::Program::spawn(
        &sh("head -c 5000 /dev/zero | tr '\\0' x; echo; echo ok; echo 123456789"),
        &launch_with_max(1000),
    )
    .unwrap();
    let (_, first) = p.recv_until(soon()).unwrap();
    assert_eq!(first, Output::TooLong("x".repeat(1000)));
    assert_eq!(p.recv_until(soon()).unwrap().1, Output::Line("ok".into()));
    assert_eq!(
        p.recv_until(soon()).unwrap().1,
        Output::Line("123456789".into())
    );
    assert_eq!(p.recv_until(soon()).unwrap().1, Output::Closed(None));
}

#[tokio::test]
async fn a_crash_is_described_with_its_exit_code_limits_and_the_tail_of_its_stderr() {
    // 64 KiB of stderr (more than a pipe holds, more than the tail keeps), then last words.
    let script = "head -c 65536 /dev/zero | tr '\\0' y >&2; echo 'Traceback: boom' >&2; exit 3";
    let mut p = Program::spawn(&sh(script), &Launch::default()).unwrap();
    let (_, out) = p.recv().await;
    assert_eq!(out, Output::Closed(None));
    let fault = p.crash("the program exited", None).await;
    assert_eq!(fault.kind, VerdictKind::Crashed);
    let r = &fault.reason;
    assert!(r.starts_with("the program exited (exit code 3)"), "{r}");
    assert!(r.contains("; its limits: "), "{r}");
    assert!(r.contains("Traceback: boom\""), "{r}");
    // The quote is the end of the stderr, bounded.
    assert!(r.len() < 600, "quotes too much: {} bytes", r.len());
    assert!(gone(p.id()), "reaped");
}

#[test]
fn a_signal_death_is_named_through_the_blocking_api() {
    // Without a PID namespace: as the first process of one, the shell would be immune to its
    // own signal.
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_in(dir.path(), Isolation::Off);
    let mut p = blocking::Program::spawn(&sh("kill -SEGV $$"), &launch).unwrap();
    assert_eq!(p.recv_until(soon()).unwrap().1, Output::Closed(None));
    let fault = p.crash("it died", None);
    assert!(
        fault
            .reason
            .starts_with("it died (killed by signal 11 (SIGSEGV)"),
        "{}",
        fault.reason
    );
}

#[tokio::test]
async fn output_that_is_no_text_is_reported_as_such_and_is_malformed() {
    let mut p = Program::spawn(&sh("printf 'pl\\377y\\n'"), &Launch::default()).unwrap();
    let (_, out) = p.recv().await;
    assert_eq!(out, Output::NotUtf8("pl\u{fffd}y".into()));
    let (heard, fault) = arena_line::unreadable(&out, "in answer", &Framing::default());
    assert_eq!(heard, "pl\u{fffd}y");
    assert_eq!(fault.kind, VerdictKind::Malformed);
    assert!(
        fault.reason.contains("not UTF-8 text in answer"),
        "{}",
        fault.reason
    );
}

#[tokio::test]
async fn a_hung_program_times_out_and_its_whole_group_is_killed_async() {
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_in(dir.path(), Isolation::Off);
    // A background child in the same process group, then silence.
    let mut p = Program::spawn(&sh("sleep 1000 & echo started; sleep 1000"), &launch).unwrap();
    assert_eq!(
        p.recv_until(tokio::time::Instant::now() + Duration::from_secs(20))
            .await
            .map(|x| x.1),
        Some(Output::Line("started".into()))
    );
    let asked = tokio::time::Instant::now();
    let answer = p.recv_until(asked + Duration::from_millis(200)).await;
    assert_eq!(answer, None, "a hung program gives no answer");
    assert!(
        asked.elapsed() >= Duration::from_millis(200),
        "waited the whole time"
    );
    assert!(
        processes_in(dir.path()).len() >= 3,
        "the shell and its two sleeps"
    );
    p.kill().await;
    assert!(
        eventually(|| processes_in(dir.path()).is_empty()),
        "left behind: {:?}",
        processes_in(dir.path())
    );
}

#[test]
fn a_hung_program_times_out_and_its_whole_group_is_killed_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_in(dir.path(), Isolation::Off);
    let mut p =
        blocking::Program::spawn(&sh("sleep 1000 & echo started; sleep 1000"), &launch).unwrap();
    assert_eq!(
        p.recv_until(soon()).map(|x| x.1),
        Some(Output::Line("started".into()))
    );
    let asked = Instant::now();
    assert_eq!(p.recv_until(asked + Duration::from_millis(200)), None);
    assert!(asked.elapsed() >= Duration::from_millis(200));
    let pid = p.id();
    // Dropping the program kills its group and reaps it.
    drop(p);
    assert!(gone(pid), "reaped");
    assert!(
        eventually(|| processes_in(dir.path()).is_empty()),
        "left behind: {:?}",
        processes_in(dir.path())
    );
}

#[test]
fn in_the_sandbox_even_a_child_that_left_the_group_dies() {
    // `setsid` leaves the process group; the PID namespace still takes it down (when the
    // kernel grants one).
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_in(dir.path(), Isolation::On);
    if !launch.sandbox.layers().pid_ns {
        eprintln!("no PID namespace here: skipped");
        return;
    }
    let mut p =
        blocking::Program::spawn(&sh("setsid sleep 1000 & echo started; sleep 1000"), &launch)
            .unwrap();
    assert_eq!(
        p.recv_until(soon()).map(|x| x.1),
        Some(Output::Line("started".into()))
    );
    assert!(eventually(|| processes_in(dir.path()).len() >= 2));
    p.kill();
    assert!(
        eventually(|| processes_in(dir.path()).is_empty()),
        "left behind: {:?}",
        processes_in(dir.path())
    );
}

#[tokio::test]
async fn a_fresh_directory_is_empty_private_and_removed_after_the_program() {
    let launch = Launch {
        workdir: WorkDir::Fresh,
        ..Launch::default()
    };
    let script = "ls -A; pwd; read line";
    let mut a = Program::spawn(&sh(script), &launch).unwrap();
    let mut b = Program::spawn(&sh(script), &launch).unwrap();
    let (da, db) = (
        a.workdir().unwrap().to_path_buf(),
        b.workdir().unwrap().to_path_buf(),
    );
    assert_ne!(da, db);
    for (p, dir) in [(&mut a, &da), (&mut b, &db)] {
        // `ls -A` lists nothing: the first line is the working directory.
        let (_, out) = p.recv().await;
        let Output::Line(cwd) = out else {
            panic!("{out:?}")
        };
        assert_eq!(
            Path::new(&cwd).canonicalize().unwrap(),
            dir.canonicalize().unwrap()
        );
    }
    drop(a);
    let ended = b.close(&["bye"], Duration::from_secs(20)).await;
    assert!(ended.by_itself, "it read its last line and exited");
    drop(b);
    assert!(eventually(|| !da.exists() && !db.exists()));
}

#[test]
fn close_says_the_last_lines_and_kills_a_program_that_stays() {
    let polite = sh("read line; echo \"$line\" > said; exit 0");
    let stubborn = sh("trap '' TERM; while :; do sleep 1; done");
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_in(dir.path(), Isolation::On);
    let mut p = blocking::Program::spawn(&polite, &launch).unwrap();
    let ended = p.close(&["bye"], Duration::from_secs(20));
    assert!(ended.by_itself);
    assert_eq!(ended.status.and_then(|s| s.code()), Some(0));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("said")).unwrap(),
        "bye\n"
    );
    let mut p = blocking::Program::spawn(&stubborn, &launch).unwrap();
    let pid = p.id();
    let ended = p.close(&["bye"], Duration::from_millis(100));
    assert!(!ended.by_itself);
    assert!(ended.status.is_some(), "killed and reaped");
    assert!(gone(pid));
}

/// A toy protocol: `hello [NAME]` first, `\r\n` from the host, `n` answers.
struct Toy;

impl LineProtocol for Toy {
    type Seat<'a> = u32;
    type Answer = u32;
    type End<'a> = ();

    fn framing(&self) -> Framing {
        Framing {
            ending: LineEnding::CrLf,
            ..Framing::default()
        }
    }
    fn greeting(&self) -> Option<&'static str> {
        Some("\"hello\"")
    }
    fn read_greeting(&self, line: &str) -> Result<Option<Option<String>>, String> {
        let line = line.trim_end_matches('\r');
        match line.strip_prefix("hello") {
            _ if line.is_empty() => Ok(None),
            Some(rest) => Ok(Some(
                Some(rest.trim().to_string()).filter(|n| !n.is_empty()),
            )),
            None => Err(format!("expected hello, got {}", arena_line::quote(line))),
        }
    }
    fn catch_up(&mut self, seat: &u32, out: &mut Vec<String>) {
        out.push(format!("turn {seat}"));
    }
    fn ask(&mut self, _: &u32, deadline: Duration, out: &mut Vec<String>) -> &'static str {
        out.push(format!("ask {}", deadline.as_millis()));
        "number"
    }
    fn parse(&self, line: &str) -> Result<Option<u32>, String> {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            return Ok(None);
        }
        line.parse().map(Some).map_err(|e| format!("{e}"))
    }
    fn end(&mut self, _: &(), out: &mut Vec<String>) {
        out.push("over".into());
    }
    fn farewell(&self, out: &mut Vec<String>) {
        out.push("quit".into());
    }
}

#[test]
fn a_protocol_chooses_its_greeting_and_line_endings() {
    // The program greets, then echoes each line it reads with its bytes shown (od), so the
    // `\r\n` the toy protocol writes can be seen.
    let script = "printf '\\nhello toy\\r\\n'; read a; read b; printf '%s' \"$a|$b\" | od -An -c | tr -s ' '; echo 42";
    let launch = Launch {
        framing: Toy.framing(),
        ..Launch::default()
    };
    let mut p = blocking::Program::spawn(&sh(script), &launch).unwrap();
    let mut heard = Vec::new();
    let name = p
        .join(&Toy, Duration::from_secs(20), |l: &str| {
            heard.push(l.to_string())
        })
        .unwrap();
    assert_eq!(name.as_deref(), Some("toy"));
    assert_eq!(heard, ["", "hello toy\r"]);
    let mut toy = Toy;
    let mut lines = Vec::new();
    toy.catch_up(&7, &mut lines);
    assert_eq!(
        toy.ask(&7, Duration::from_millis(500), &mut lines),
        "number"
    );
    p.send_lines(&lines);
    let Some((_, Output::Line(echo))) = p.recv_until(soon()) else {
        panic!("no echo")
    };
    assert_eq!(echo.trim(), "t u r n 7 \\r | a s k 5 0 0 \\r");
    let Some((_, Output::Line(answer))) = p.recv_until(soon()) else {
        panic!("no answer")
    };
    assert_eq!(Toy.parse(&answer), Ok(Some(42)));
}

#[tokio::test]
async fn a_wrong_greeting_is_malformed_and_silence_is_a_timeout() {
    let mut p = Program::spawn(&sh("echo bonjour; sleep 1000"), &Launch::default()).unwrap();
    let fault = arena_line::join(&mut p, &Toy, Duration::from_secs(20), |_: &str| {})
        .await
        .unwrap_err();
    assert_eq!(fault.kind, VerdictKind::Malformed);
    assert_eq!(fault.reason, "expected hello, got \"bonjour\"");
    let mut p = Program::spawn(&sh("sleep 1000"), &Launch::default()).unwrap();
    let fault = arena_line::join(&mut p, &Toy, Duration::from_millis(100), |_: &str| {})
        .await
        .unwrap_err();
    assert_eq!(fault.kind, VerdictKind::Timeout);
    assert!(
        fault.reason.starts_with("no \"hello\" line within 100 ms"),
        "{}",
        fault.reason
    );
    let mut p = Program::spawn(&sh("exit 2"), &Launch::default()).unwrap();
    let fault = arena_line::join(&mut p, &Toy, Duration::from_secs(20), |_: &str| {})
        .await
        .unwrap_err();
    assert_eq!(fault.kind, VerdictKind::Crashed);
    assert!(
        fault
            .reason
            .starts_with("the program exited before saying \"hello\" (exit code 2)"),
        "{}",
        fault.reason
    );
}

#[test]
fn a_program_that_cannot_start_says_why() {
    let launch = Launch {
        workdir: WorkDir::At("/nonexistent-dir".into()),
        ..Launch::default()
    };
    let e = blocking::Program::spawn(&CmdSpec::new("./no-such-bot", [""; 0]), &launch).unwrap_err();
    assert!(
        e.to_string().starts_with("could not start the program"),
        "{e}"
    );
}

#[test]
fn a_program_that_exited_by_itself_leaves_no_background_child() {
    // Without a PID namespace, only the group kill before reaping takes the child down.
    let dir = tempfile::tempdir().unwrap();
    let launch = launch_in(dir.path(), Isolation::Off);
    let mut p = blocking::Program::spawn(&sh("sleep 1000 >/dev/null 2>&1 & echo started"), &launch)
        .unwrap();
    assert_eq!(
        p.recv_until(soon()).map(|x| x.1),
        Some(Output::Line("started".into()))
    );
    assert_eq!(
        p.recv_until(soon()).map(|x| x.1),
        Some(Output::Closed(None))
    );
    assert!(p.wait_exit(Duration::from_secs(20)), "the shell exited");
    assert!(!processes_in(dir.path()).is_empty(), "its sleep lives on");
    assert_eq!(p.kill().and_then(|s| s.code()), Some(0));
    assert!(
        eventually(|| processes_in(dir.path()).is_empty()),
        "left behind: {:?}",
        processes_in(dir.path())
    );
}

#[tokio::test]
async fn floods_of_stderr_and_of_lines_block_nothing_and_lose_nothing() {
    // 1 MiB of stderr (far more than a pipe holds), then more lines than are read ahead.
    let script =
        "head -c 1048576 /dev/zero >&2; i=0; while [ $i -lt 2000 ]; do echo $i; i=$((i+1)); done";
    let mut p = Program::spawn(&sh(script), &Launch::default()).unwrap();
    for i in 0..2000 {
        assert_eq!(p.recv().await.1, Output::Line(i.to_string()));
    }
    assert_eq!(p.recv().await.1, Output::Closed(None));
}
