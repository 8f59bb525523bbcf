//! Everything a sandboxed program started dies with it: when the caller kills it, when it
//! exits, when its wall time is up, and when the hosting process is SIGKILLed.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use arena_sandbox::{
    Isolation, Limits, Policy, Sandbox, describe_status, exited_unreaped, kill_group,
};
use common::*;

#[test]
fn killing_the_program_kills_its_setsid_daemon_and_background_loop() {
    let s = sandbox();
    let dir = workdir(&s);
    let mut child = spawn(&s, &Limits::HOST_DEFAULT, dir.path(), "sh", &["-c", FAMILY]);
    wait_for_line(&mut stdout_of(&mut child), "ready");
    let sup = child.id();
    let (ns, _) = family_of(sup);
    assert!(!exited_unreaped(sup));
    kill_group(sup);
    let status = child.wait().unwrap();
    assert_eq!(
        describe_status(status, &Limits::HOST_DEFAULT),
        "killed by signal 9 (SIGKILL)"
    );
    assert!(
        eventually(|| members(&ns).is_empty()),
        "left behind: {:?}",
        members(&ns)
    );
}

#[test]
fn a_program_that_exits_takes_its_setsid_daemon_and_background_loop_along() {
    let s = sandbox();
    let dir = workdir(&s);
    let mut child = spawn(&s, &Limits::HOST_DEFAULT, dir.path(), "sh", &["-c", FAMILY]);
    wait_for_line(&mut stdout_of(&mut child), "ready");
    let (ns, _) = family_of(child.id());
    child.stdin.take().unwrap().write_all(b"go\n").unwrap();
    // The supervisor is left unreaped until the group is killed, as hosts do.
    assert!(eventually(|| exited_unreaped(child.id())));
    assert!(
        eventually(|| members(&ns).is_empty()),
        "left behind: {:?}",
        members(&ns)
    );
    kill_group(child.id());
    assert_eq!(child.wait().unwrap().code(), Some(0), "its own exit code");
}

#[test]
fn sigkilling_the_host_kills_every_sandboxed_process_it_started() {
    let dir = tempfile::tempdir().unwrap();
    sandbox().prepare_workdir(dir.path()).unwrap();
    let mut host = Command::new(env!("CARGO_BIN_EXE_sandbox-run"))
        .arg("--dir")
        .arg(dir.path())
        .args(["--", "sh", "-c", FAMILY])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_line(&mut stdout_of(&mut host), "ready");
    let sup = children_of(host.id());
    assert_eq!(sup.len(), 1, "{sup:?}");
    let (ns, _) = family_of(sup[0]);
    host.kill().unwrap();
    host.wait().unwrap();
    assert!(
        eventually(|| members(&ns).is_empty()),
        "left behind: {:?}",
        members(&ns)
    );
    assert!(
        eventually(|| gone(sup[0])),
        "the supervisor {} survived",
        sup[0]
    );
}

#[test]
fn at_the_wall_time_limit_everything_is_killed_and_the_verdict_says_so() {
    let s = sandbox();
    let dir = workdir(&s);
    let limits = Limits {
        wall_seconds: 1,
        ..Limits::HOST_DEFAULT
    };
    let mut child = spawn(&s, &limits, dir.path(), "sh", &["-c", FAMILY]);
    wait_for_line(&mut stdout_of(&mut child), "ready");
    let (ns, _) = family_of(child.id());
    // Nobody kills it or writes to it (wait() would close its stdin, so that is kept): the
    // supervisor kills it, at one second.
    let _stdin = child.stdin.take();
    let status = child.wait().unwrap();
    let said = describe_status(status, &limits);
    assert!(said.contains("SIGALRM"), "{said}");
    assert!(said.contains("wall-time limit of 1 s"), "{said}");
    assert!(
        eventually(|| members(&ns).is_empty()),
        "left behind: {:?}",
        members(&ns)
    );
}

#[test]
fn with_isolation_off_the_limits_and_the_group_kill_still_hold() {
    let s = Sandbox::new(Policy {
        isolation: Isolation::Off,
        ..Policy::default()
    });
    assert!(s.warnings()[0].contains("SANDBOX OFF"));
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        cpu_seconds: 1,
        ..Limits::HOST_DEFAULT
    };
    let ran = run(
        &s,
        &limits,
        dir.path(),
        "/usr/bin/python3",
        &["-c", "while True: pass"],
    );
    let said = describe_status(ran.status, &limits);
    assert!(said.contains("CPU-time limit of 1 s"), "{said}");

    let script = "sleep 1000 </dev/null >/dev/null 2>&1 & echo \"child $!\"; echo ready; read line";
    let mut child = spawn(&s, &Limits::HOST_DEFAULT, dir.path(), "sh", &["-c", script]);
    let mut out = stdout_of(&mut child);
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    let grandchild: u32 = line.trim().strip_prefix("child ").unwrap().parse().unwrap();
    wait_for_line(&mut out, "ready");
    kill_group(child.id());
    child.wait().unwrap();
    assert!(eventually(|| gone(grandchild)), "{grandchild} survived");
}

#[test]
fn a_program_outlives_the_thread_that_spawned_it() {
    // PR_SET_PDEATHSIG fires when the spawning *thread* exits: the supervisor must not die
    // with it, or programs started from short-lived threads would be killed at once.
    let s = sandbox();
    let dir = workdir(&s);
    let path = dir.path().to_path_buf();
    let mut child = std::thread::spawn(move || {
        spawn(
            &s,
            &Limits::HOST_DEFAULT,
            &path,
            "sh",
            &["-c", "echo ready; read line; echo \"got $line\""],
        )
    })
    .join()
    .unwrap();
    let mut out = stdout_of(&mut child);
    wait_for_line(&mut out, "ready");
    child.stdin.take().unwrap().write_all(b"hello\n").unwrap();
    wait_for_line(&mut out, "got hello");
    assert_eq!(child.wait().unwrap().code(), Some(0));
}
