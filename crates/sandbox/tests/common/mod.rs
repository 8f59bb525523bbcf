//! Helpers of the sandbox's tests: running a command sandboxed, and finding the processes of a
//! sandbox from outside it (by PID namespace, since inside it they have other numbers).
#![allow(dead_code)]

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use arena_sandbox::{Limits, Policy, Sandbox};

/// How long anything a test waits for may take before the test fails.
pub const WAIT: Duration = Duration::from_secs(20);

/// The full sandbox of this machine; fails the test if the kernel refuses a layer, since every
/// isolation test depends on them.
pub fn sandbox() -> Sandbox {
    let s = Sandbox::new(Policy::default());
    assert!(
        s.layers().missing().is_empty(),
        "this kernel refuses {:?}; the isolation tests need every layer",
        s.layers().missing()
    );
    s
}

/// A fresh working directory the sandboxed program may write in.
pub fn workdir(s: &Sandbox) -> tempfile::TempDir {
    let d = tempfile::tempdir().expect("a temporary directory");
    s.prepare_workdir(d.path())
        .expect("the directory is handed over");
    d
}

/// What a finished program did.
pub struct Ran {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `program args` in `s` under `limits` in `dir`, to its end.
pub fn run(s: &Sandbox, limits: &Limits, dir: &Path, program: &str, args: &[&str]) -> Ran {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    s.configure(&mut cmd, limits, &[]).expect("configured");
    let out = cmd.output().expect("spawned");
    Ran {
        status: out.status,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Spawns `program args` in `s` with piped stdin and stdout.
pub fn spawn(s: &Sandbox, limits: &Limits, dir: &Path, program: &str, args: &[&str]) -> Child {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    s.configure(&mut cmd, limits, &[]).expect("configured");
    cmd.spawn().expect("spawned")
}

/// Reads lines from `r` until one equals `want`; panics at the end of the stream.
pub fn wait_for_line(r: &mut impl BufRead, want: &str) {
    let mut line = String::new();
    loop {
        line.clear();
        let n = r.read_line(&mut line).expect("readable");
        assert!(n > 0, "the stream ended before {want:?}");
        if line.trim_end() == want {
            return;
        }
    }
}

/// A shell script that starts a `setsid` daemon and a background loop, says `ready`, and then
/// waits for a line on its stdin before it exits.
pub const FAMILY: &str = "setsid sleep 1000 </dev/null >/dev/null 2>&1 & \
     (while true; do sleep 1; done) </dev/null >/dev/null 2>&1 & \
     echo ready; read line";

/// The child processes of `pid` (by their parent, from /proc).
pub fn children_of(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for pid_dir in numeric_dirs() {
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid_dir}/stat")) else {
            continue;
        };
        let ppid = stat
            .rsplit_once(") ")
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(pid) {
            out.push(pid_dir);
        }
    }
    out
}

/// The PID namespace of `pid`, if it is alive.
pub fn pid_ns(pid: u32) -> Option<String> {
    fs::read_link(format!("/proc/{pid}/ns/pid"))
        .ok()
        .map(|p| p.display().to_string())
}

/// The living processes of PID namespace `ns`, as the host numbers them.
pub fn members(ns: &str) -> Vec<u32> {
    numeric_dirs()
        .filter(|&p| pid_ns(p).as_deref() == Some(ns) && !is_zombie(p))
        .collect()
}

fn is_zombie(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X'))
    })
}

/// True if `pid` is gone (or a zombie).
pub fn gone(pid: u32) -> bool {
    is_zombie(pid)
}

fn numeric_dirs() -> impl Iterator<Item = u32> {
    fs::read_dir("/proc")
        .expect("/proc is readable")
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
}

/// Polls `f` every 20 ms until it holds, for at most [`WAIT`]; whether it held.
pub fn eventually(mut f: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + WAIT;
    while Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    f()
}

/// The sandbox's namespace and its processes, found from the supervisor `sup`: waits for the
/// program (its one child) to have started the [`FAMILY`].
pub fn family_of(sup: u32) -> (String, Vec<u32>) {
    let program = children_of(sup);
    assert_eq!(
        program.len(),
        1,
        "the supervisor has one child: {program:?}"
    );
    let ns = pid_ns(program[0]).expect("the program is alive");
    assert_ne!(
        pid_ns(std::process::id()).as_deref(),
        Some(ns.as_str()),
        "the program has a PID namespace of its own"
    );
    let m = members(&ns);
    assert!(m.len() >= 3, "the program and its two children: {m:?}");
    (ns, m)
}

/// Reader over a child's stdout.
pub fn stdout_of(child: &mut Child) -> BufReader<std::process::ChildStdout> {
    BufReader::new(child.stdout.take().expect("piped stdout"))
}
