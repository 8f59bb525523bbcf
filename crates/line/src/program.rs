//! [`Program`]: one running bot program, supervised with async tasks so that nothing it does can
//! block its host.
//!
//! Three tasks per program: one writes to its stdin (so a program that stops reading cannot
//! block the host on a full pipe), one reads its stdout a line at a time into a bounded channel
//! (so every read can have a deadline, and a program writing more than is asked waits instead
//! of filling the host's memory), and one drains its stderr into a small ring buffer (so a
//! chatty program never blocks on a full pipe and a crash report can quote its last words).
//!
//! The program runs in the sandbox ([`arena_sandbox::Sandbox`]), leading its own process group.
//! Its group is killed as a whole before it is reaped (while the leader is unreaped, the group id
//! cannot have been reused), and it is always reaped: no zombies. A program dropped without
//! [`Program::kill`] has its group killed at once and is reaped by tokio in the background.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::Arc;
use std::time::Duration;

use arena_proto::v1::VerdictKind;
use arena_sandbox::{Limits, Policy, Sandbox, StderrTail, describe_status, exited_unreaped};
use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use crate::lines::{Framing, LineSplitter, Output, next_output_async};

use crate::{CmdSpec, Fault};

/// Lines read ahead of the host; a program writing more waits until they are taken.
pub const READ_AHEAD_LINES: usize = 256;
/// How much of a program's stderr a crash report quotes, in characters.
pub const STDERR_QUOTE_CHARS: usize = 300;
/// How long a program whose output closed is given to finish exiting (for its exit status), and
/// how long its stderr is then given to reach its end (for its last words).
///
/// 300 ms: bot-host had 300 ms and the `cmd:` bots 200 ms. The wait is paid only when a program
/// has already failed, while a too short one turns a crash into "closed its output but kept
/// running": the sandbox's supervisor must first see its program die and exit the same way, a
/// few context switches that a loaded two-core machine can stretch past 200 ms.
pub const EXIT_WAIT: Duration = Duration::from_millis(300);
/// How long a killed program is given to be reaped before it is left to tokio's reaper.
pub const REAP_WAIT: Duration = Duration::from_secs(2);
/// How often an exit is looked for while waiting for one without reaping, where the kernel
/// gives no pidfd to wait on (elsewhere than on Linux 5.3+). 5 ms (bot-host's; the `cmd:` bots
/// polled every 2 ms): a tenth of a percent of the shortest wait it serves, and 200 wake-ups in
/// a second's grace, not 500.
const EXIT_POLL: Duration = Duration::from_millis(5);

/// The caller's environment variables a program gets by default: the locale and time zone.
pub const DEFAULT_PASS_ENV: [&str; 4] = ["LANG", "LC_ALL", "LC_CTYPE", "TZ"];

/// Where a program's stderr goes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum StderrMode {
    /// Read continuously and keep the last few kilobytes, which crash reports quote.
    #[default]
    Capture,
    /// The caller's stderr (handy when debugging one bot locally).
    Inherit,
    /// Discarded.
    Discard,
}

/// A program's working directory.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum WorkDir {
    /// The caller's.
    #[default]
    Inherit,
    /// This directory.
    At(PathBuf),
    /// A fresh temporary directory made for the program and removed after it is killed.
    Fresh,
}

/// How a program is started: in which sandbox, under which limits, with which of the caller's
/// environment variables, where, and with which framing of lines.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The sandbox it runs in. In it, the working directory is the one directory the program
    /// may write in.
    pub sandbox: Sandbox,
    /// Its resource limits.
    pub limits: Limits,
    /// The caller's environment variables it gets; besides them it gets only the sandbox's
    /// `PATH`, and `HOME` and `TMPDIR` at its working directory.
    pub pass_env: Vec<String>,
    /// Where its stderr goes.
    pub stderr: StderrMode,
    /// Its working directory.
    pub workdir: WorkDir,
    /// The line ending written to it and the longest line kept of its output (the protocol's
    /// choice, see [`crate::LineProtocol::framing`]).
    pub framing: Framing,
}

impl Default for Launch {
    /// Every isolation layer the kernel grants, [`Limits::HOST_DEFAULT`],
    /// [`DEFAULT_PASS_ENV`], stderr captured, the caller's working directory, `\n` lines.
    fn default() -> Launch {
        Launch {
            sandbox: Sandbox::new(Policy::default()),
            limits: Limits::HOST_DEFAULT,
            pass_env: DEFAULT_PASS_ENV.iter().map(|v| v.to_string()).collect(),
            stderr: StderrMode::Capture,
            workdir: WorkDir::Inherit,
            framing: Framing::default(),
        }
    }
}

/// Why a program could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    /// No fresh working directory could be made.
    #[error("could not make a working directory for the program: {0}")]
    WorkDir(#[source] io::Error),
    /// The sandbox could not be set up.
    #[error("could not start the program: {0}")]
    Sandbox(#[source] arena_sandbox::SandboxError),
    /// The program could not be executed (not found, not executable, ...). The cause comes
    /// first, so that a verdict cut short still shows it.
    #[error("could not start the program: {source}{}", in_dir(.dir.as_deref()))]
    Exec {
        /// Its working directory, when it was not the caller's.
        dir: Option<PathBuf>,
        /// Why.
        source: io::Error,
    },
    /// Its pipes were not created.
    #[error("could not start the program: its pipes were not created")]
    Pipes,
}

fn in_dir(dir: Option<&Path>) -> String {
    dir.map_or_else(String::new, |d| {
        format!(" (working directory {})", d.display())
    })
}

/// How a session with a program ended, see [`Program::close`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    /// It exited within the grace, before its group was killed.
    pub by_itself: bool,
    /// Its exit status, if it was reaped.
    pub status: Option<ExitStatus>,
}

/// A running program. Its methods must be called within a tokio runtime;
/// [`crate::blocking::Program`] is the same for callers without one.
pub struct Program {
    child: tokio::process::Child,
    pid: u32,
    input: Option<mpsc::UnboundedSender<Vec<u8>>>,
    output: mpsc::Receiver<(std::time::Instant, Output)>,
    stderr: Option<Stderr>,
    launch: Launch,
    reaped: Option<ExitStatus>,
    /// Readable once the program has exited (without reaping it), where the kernel has pidfds.
    exit: Option<exit_watch::PidFd>,
    dir: Option<PathBuf>,
    /// Removed (after the program is killed) when the program is dropped.
    _temp: Option<tempfile::TempDir>,
}

/// The last bytes of a program's stderr, and word from the drain task once it reached the end.
struct Stderr {
    tail: Arc<StderrTail>,
    done: watch::Receiver<bool>,
}

impl Program {
    /// Starts `spec` as `launch` says, with its pipes served by tasks of the current runtime.
    pub fn spawn(spec: &CmdSpec, launch: &Launch) -> Result<Program, SpawnError> {
        let (dir, temp) = match &launch.workdir {
            WorkDir::Inherit => (None, None),
            WorkDir::At(d) => (Some(d.clone()), None),
            WorkDir::Fresh => {
                let t = tempfile::Builder::new()
                    .prefix("arena-bot-")
                    .tempdir()
                    .map_err(SpawnError::WorkDir)?;
                launch
                    .sandbox
                    .prepare_workdir(t.path())
                    .map_err(SpawnError::WorkDir)?;
                (Some(t.path().to_path_buf()), Some(t))
            }
        };
        let mut command = tokio::process::Command::new(spec.program());
        command
            .args(spec.args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match launch.stderr {
                StderrMode::Capture => Stdio::piped(),
                StderrMode::Inherit => Stdio::inherit(),
                StderrMode::Discard => Stdio::null(),
            })
            // A backstop: the group is killed before the program is dropped unreaped.
            .kill_on_drop(true);
        if let Some(d) = &dir {
            command.current_dir(d);
        }
        launch
            .sandbox
            .configure(command.as_std_mut(), &launch.limits, &launch.pass_env)
            .map_err(SpawnError::Sandbox)?;
        let mut child = command.spawn().map_err(|source| SpawnError::Exec {
            dir: dir.clone(),
            source,
        })?;
        let (Some(stdin), Some(stdout), Some(pid)) =
            (child.stdin.take(), child.stdout.take(), child.id())
        else {
            if let Some(pid) = child.id() {
                arena_sandbox::kill_group(pid);
            }
            let _ = child.start_kill();
            return Err(SpawnError::Pipes);
        };
        let (in_tx, in_rx) = mpsc::unbounded_channel();
        tokio::spawn(write_input(stdin, in_rx));
        let (out_tx, output) = mpsc::channel(READ_AHEAD_LINES);
        tokio::spawn(read_output(stdout, out_tx, launch.framing.max_line_bytes));
        let stderr = child.stderr.take().map(|e| {
            let tail = Arc::new(StderrTail::new());
            let (done_tx, done) = watch::channel(false);
            tokio::spawn(drain_stderr(e, Arc::clone(&tail), done_tx));
            Stderr { tail, done }
        });
        Ok(Program {
            child,
            pid,
            input: Some(in_tx),
            output,
            stderr,
            launch: launch.clone(),
            reaped: None,
            exit: exit_watch::PidFd::open(pid),
            dir,
            _temp: temp,
        })
    }

    /// The process id of the program (of the sandbox's supervisor, which leads its group).
    pub fn id(&self) -> u32 {
        self.pid
    }

    /// Its working directory, when it is not the caller's.
    pub fn workdir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// How it was started.
    pub fn launch(&self) -> &Launch {
        &self.launch
    }

    /// Queues `lines` for its stdin as one write, each ended as the framing says; never blocks.
    /// Write errors surface as its output closing.
    pub fn send_lines<S: AsRef<str>>(&self, lines: &[S]) {
        self.send_raw(self.launch.framing.join(lines).into_bytes());
    }

    /// Queues `bytes` for its stdin as they are; never blocks.
    pub fn send_raw(&self, bytes: Vec<u8>) {
        if let Some(input) = &self.input
            && !bytes.is_empty()
        {
            let _ = input.send(bytes);
        }
    }

    /// Closes its stdin (once what was queued is written).
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Its next output and when it was read; [`Output::Closed`] once the output ended.
    /// Cancel-safe.
    pub async fn recv(&mut self) -> (std::time::Instant, Output) {
        self.output
            .recv()
            .await
            .unwrap_or_else(|| (std::time::Instant::now(), Output::Closed(None)))
    }

    /// Its next output, waiting until `until`; `None` on timeout.
    pub async fn recv_until(&mut self, until: Instant) -> Option<(std::time::Instant, Output)> {
        tokio::time::timeout_at(until, self.recv()).await.ok()
    }

    /// Its next output if one is waiting.
    pub fn try_recv(&mut self) -> Option<(std::time::Instant, Output)> {
        match self.output.try_recv() {
            Ok(x) => Some(x),
            Err(mpsc::error::TryRecvError::Empty) => None,
            Err(mpsc::error::TryRecvError::Disconnected) => {
                Some((std::time::Instant::now(), Output::Closed(None)))
            }
        }
    }

    /// Waits up to `within` for it to exit by itself, without reaping it (so that its process
    /// group cannot be reused before it is killed); whether it did.
    pub async fn wait_exit(&mut self, within: Duration) -> bool {
        let until = later_tokio(Instant::now(), within);
        if self.reaped.is_some() || exited_unreaped(self.pid) {
            return true;
        }
        if let Some(exit) = &self.exit {
            match tokio::time::timeout_at(until, exit.exited()).await {
                Ok(true) => return true,
                Err(_) => return exited_unreaped(self.pid),
                // The pidfd failed: look instead.
                Ok(false) => {}
            }
        }
        loop {
            if self.reaped.is_some() || exited_unreaped(self.pid) {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            tokio::time::sleep(EXIT_POLL.min(until - Instant::now())).await;
        }
    }

    /// Kills it and everything in its process group, and reaps it (waiting up to
    /// [`REAP_WAIT`]). Returns its exit status (its own if it had already exited).
    pub async fn kill(&mut self) -> Option<ExitStatus> {
        self.input = None;
        if self.reaped.is_none() {
            // Not reaped yet, so the process group id cannot have been reused.
            arena_sandbox::kill_group(self.pid);
            let _ = self.child.start_kill();
            if let Ok(Ok(status)) = tokio::time::timeout(REAP_WAIT, self.child.wait()).await {
                self.reaped = Some(status);
            }
        }
        self.reaped
    }

    /// Its exit status in words, with the limit it hit if it hit one.
    pub fn describe(&self, status: ExitStatus) -> String {
        describe_status(status, &self.launch.limits)
    }

    /// The last of its stderr (when captured), once all of it is read or `wait` has passed;
    /// at most [`STDERR_QUOTE_CHARS`] characters, `None` if it wrote nothing to quote.
    pub async fn stderr_tail(&mut self, wait: Duration) -> Option<String> {
        let stderr = self.stderr.as_mut()?;
        let _ = tokio::time::timeout(wait, stderr.done.wait_for(|d| *d)).await;
        stderr.tail.quote(STDERR_QUOTE_CHARS)
    }

    /// The report of a program whose output closed ([`VerdictKind::Crashed`]): `what` happened,
    /// then how it ended (its exit status, or that it kept running), the read error if one
    /// closed its output, the limits in force and the end of its stderr with the sandbox's hint
    /// about it; first of all, when its stderr shows an allocation that failed under a memory
    /// limit, that it ran out of memory. The program is killed (its whole group) and reaped.
    pub async fn crash(&mut self, what: &str, read_error: Option<String>) -> Fault {
        let exited = self.wait_exit(EXIT_WAIT).await;
        let status = self.kill().await;
        let mut reason = match (exited, status) {
            (true, Some(s)) => format!("{what} ({})", self.describe(s)),
            (false, _) => {
                format!("{what} (it closed its output but kept running, so it was killed)")
            }
            (true, None) => what.to_string(),
        };
        let tail = self.stderr_tail(EXIT_WAIT).await;
        // Said first: a verdict's short reason keeps only its start.
        if let Some(oom) = tail
            .as_deref()
            .and_then(|t| arena_sandbox::out_of_memory(t, &self.launch.limits))
        {
            reason = format!("{oom}; {reason}");
        }
        if let Some(e) = read_error {
            reason.push_str(&format!("; reading its output failed: {e}"));
        }
        reason.push_str(&format!("; its limits: {}", self.launch.limits));
        if let Some(tail) = tail {
            reason.push_str(&format!("; its stderr ended with: {tail:?}"));
            reason.push_str(self.launch.sandbox.hint_for(&tail).unwrap_or(""));
        }
        Fault::new(VerdictKind::Crashed, reason)
    }

    /// Ends the session politely: sends `farewell` (the protocol's last lines), closes its
    /// stdin, gives it `grace` to exit, then kills its group and reaps it.
    pub async fn close<S: AsRef<str>>(&mut self, farewell: &[S], grace: Duration) -> Ended {
        if self.reaped.is_some() {
            return Ended {
                by_itself: true,
                status: self.reaped,
            };
        }
        self.send_lines(farewell);
        self.input = None;
        let by_itself = self.wait_exit(grace).await;
        let status = self.kill().await;
        Ended { by_itself, status }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        if self.reaped.is_none() {
            // Not reaped, so the group id is still the program's; tokio reaps it (kill_on_drop).
            arena_sandbox::kill_group(self.pid);
        }
    }
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("pid", &self.pid)
            .field("dir", &self.dir)
            .field("reaped", &self.reaped)
            .finish_non_exhaustive()
    }
}

/// `start + d`, or as far ahead as the clock goes (absurd configured durations never panic).
pub fn later(start: std::time::Instant, d: Duration) -> std::time::Instant {
    start
        .checked_add(d)
        .or_else(|| start.checked_add(Duration::from_secs(1 << 32)))
        .unwrap_or(start)
}

/// [`later`] on tokio's clock.
pub(crate) fn later_tokio(start: Instant, d: Duration) -> Instant {
    Instant::from_std(later(start.into_std(), d))
}

async fn write_input(mut stdin: ChildStdin, mut input: mpsc::UnboundedReceiver<Vec<u8>>) {
    while let Some(bytes) = input.recv().await {
        if stdin.write_all(&bytes).await.is_err() || stdin.flush().await.is_err() {
            break;
        }
    }
    // Dropping stdin closes the program's input.
}

async fn read_output(
    stdout: ChildStdout,
    tx: mpsc::Sender<(std::time::Instant, Output)>,
    max_line_bytes: usize,
) {
    let mut reader = BufReader::with_capacity(max_line_bytes.clamp(1024, 1 << 20), stdout);
    let mut lines = LineSplitter::new(max_line_bytes);
    loop {
        let out = next_output_async(&mut reader, &mut lines).await;
        let closed = matches!(out, Output::Closed(_));
        if tx.send((std::time::Instant::now(), out)).await.is_err() || closed {
            break;
        }
    }
}

async fn drain_stderr(mut stderr: ChildStderr, tail: Arc<StderrTail>, done: watch::Sender<bool>) {
    let mut chunk = vec![0u8; 8192];
    loop {
        match stderr.read(&mut chunk).await {
            Ok(0) => break,
            Ok(n) => tail.push(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    done.send_replace(true);
}

/// Waiting for a child's exit without reaping it: a pidfd (Linux 5.3+) turns readable when the
/// process exits, and, held while the child is unreaped, cannot refer to another process.
#[cfg(target_os = "linux")]
mod exit_watch {
    use std::os::fd::{FromRawFd, OwnedFd};

    use tokio::io::Interest;
    use tokio::io::unix::AsyncFd;

    /// A pidfd registered with the runtime.
    pub(super) struct PidFd(AsyncFd<OwnedFd>);

    impl PidFd {
        /// A pidfd for the child `pid`; `None` where the kernel has none (or no runtime
        /// reactor takes it).
        pub(super) fn open(pid: u32) -> Option<PidFd> {
            let pid = libc::pid_t::try_from(pid).ok()?;
            // SAFETY: pidfd_open(2) takes plain integers and returns a new descriptor or -1.
            let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
            let fd = i32::try_from(fd).ok().filter(|&fd| fd >= 0)?;
            // SAFETY: `fd` was just returned by the kernel and is owned by nothing else.
            let owned = unsafe { OwnedFd::from_raw_fd(fd) };
            // SAFETY: an `OwnedFd` keeps its descriptor open, and returns that one, until it is
            // dropped, which only the `AsyncFd` can do. `spawn` runs in a runtime (its reactor).
            unsafe { AsyncFd::register_with_interest(owned, Interest::READABLE) }
                .ok()
                .map(PidFd)
        }

        /// Waits until the process has exited: true, or false if the pidfd cannot say.
        pub(super) async fn exited(&self) -> bool {
            self.0.readable().await.is_ok()
        }
    }
}

/// Elsewhere than on Linux, exits are looked for ([`EXIT_POLL`]).
#[cfg(not(target_os = "linux"))]
mod exit_watch {
    /// Never made: there is no pidfd.
    pub(super) struct PidFd;

    impl PidFd {
        pub(super) fn open(_pid: u32) -> Option<PidFd> {
            None
        }

        pub(super) async fn exited(&self) -> bool {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_failure_names_its_cause_before_the_directory() {
        let e = SpawnError::Exec {
            dir: Some("/tmp/arena-bot-AbCdEf0123456789/with/a/long/path/name".into()),
            source: io::Error::from_raw_os_error(libc::EACCES),
        };
        let text = e.to_string();
        assert!(
            text.starts_with("could not start the program: Permission denied"),
            "{text}"
        );
        assert!(
            arena_proto_free_cut(&text).contains("Permission denied"),
            "the cause survives a cut to 80 characters: {text}"
        );
    }

    /// The first 80 characters, as verdicts are cut.
    fn arena_proto_free_cut(text: &str) -> String {
        text.chars().take(80).collect()
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn an_exit_is_awaited_on_a_pidfd_and_leaves_the_program_unreaped() {
        let spec = CmdSpec::new("sh", ["-c", "read line; exit 4"]);
        let mut p = Program::spawn(&spec, &Launch::default()).unwrap();
        assert!(p.exit.is_some(), "this kernel has pidfds");
        assert!(
            !p.wait_exit(Duration::from_millis(50)).await,
            "still reading"
        );
        p.send_lines(&["go"]);
        assert!(p.wait_exit(Duration::from_secs(20)).await);
        assert!(p.reaped.is_none(), "waiting did not reap it");
        let status = p.kill().await.unwrap();
        assert_eq!(p.describe(status), "exit code 4");
    }
}
