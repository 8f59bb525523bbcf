//! A child process spoken to in lines, where nothing the child does can block the caller.
//!
//! Three threads per child: one writes to its stdin (so a child that stops reading cannot block
//! the caller on a full pipe), one reads its stdout into a channel (so every read has a
//! timeout), and one drains its stderr into a small ring buffer (so a chatty child never blocks
//! on a full pipe and a crash report can quote its last words). The child runs in the sandbox
//! ([`arena_sandbox::Sandbox`]), leading its own process group, which is killed as a whole
//! before the child is reaped (so the group id cannot have been reused), and it is always
//! waited for: no zombies.

use std::io::{self, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use arena_sandbox::{Limits, Sandbox, StderrTail, exited_unreaped, kill_group};

use crate::{CmdSpec, StderrMode};

pub(crate) use crate::lines::{MAX_LINE_BYTES, Output};

/// Lines read ahead of the caller; a child writing more waits (it cannot fill the caller's
/// memory with output nobody asked for).
const READ_AHEAD_LINES: usize = 256;

/// A running child.
pub(crate) struct Process {
    child: Child,
    reaped: Option<ExitStatus>,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<(Instant, Output)>,
    stderr: Option<Stderr>,
}

/// The last bytes of a child's stderr, and word from the drain thread once it reached the end.
struct Stderr {
    tail: Arc<StderrTail>,
    done: Receiver<()>,
}

/// How a program is run: in which sandbox, under which limits, with which of the caller's
/// environment variables.
pub(crate) struct Confinement<'a> {
    pub sandbox: &'a Sandbox,
    pub limits: &'a Limits,
    pub pass_env: &'a [String],
}

impl Process {
    /// Starts `spec` in `dir` (if given, else the caller's working directory) with piped stdin
    /// and stdout, confined as `how` says.
    pub(crate) fn spawn(
        spec: &CmdSpec,
        dir: Option<&Path>,
        stderr: StderrMode,
        how: &Confinement<'_>,
    ) -> io::Result<Process> {
        let mut cmd = Command::new(spec.program());
        cmd.args(spec.args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match stderr {
                StderrMode::Capture => Stdio::piped(),
                StderrMode::Inherit => Stdio::inherit(),
                StderrMode::Discard => Stdio::null(),
            });
        if let Some(dir) = dir {
            cmd.current_dir(dir);
        }
        how.sandbox
            .configure(&mut cmd, how.limits, how.pass_env)
            .map_err(io::Error::other)?;
        let mut child = cmd.spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("the child's pipes were not created"));
        };
        let input = spawn_writer(stdin);
        let output = spawn_reader(stdout);
        let stderr = child.stderr.take().map(spawn_stderr_drain);
        Ok(Process {
            child,
            reaped: None,
            input: Some(input),
            output,
            stderr,
        })
    }

    /// The child's process id.
    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    /// Queues `text` for the child's stdin; never blocks. Write errors surface as the child's
    /// output closing.
    pub(crate) fn send(&self, text: String) {
        if let Some(input) = &self.input {
            let _ = input.send(text.into_bytes());
        }
    }

    /// The next output, waiting until `until`; `None` on timeout.
    pub(crate) fn recv_until(&mut self, until: Instant) -> Option<(Instant, Output)> {
        let wait = until.saturating_duration_since(Instant::now());
        match self.output.recv_timeout(wait) {
            Ok(x) => Some(x),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some((Instant::now(), Output::Closed(None))),
        }
    }

    /// The next output if one is waiting.
    pub(crate) fn try_recv(&mut self) -> Option<(Instant, Output)> {
        match self.output.try_recv() {
            Ok(x) => Some(x),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some((Instant::now(), Output::Closed(None))),
        }
    }

    /// The last lines the child wrote to stderr (when captured), at most `max_chars` characters.
    /// Waits up to `wait` for the rest of the stderr to be read (all of it, once the child and
    /// anything sharing its stderr have exited).
    pub(crate) fn stderr_tail(&self, max_chars: usize, wait: Duration) -> Option<String> {
        let stderr = self.stderr.as_ref()?;
        let _ = stderr.done.recv_timeout(wait);
        stderr.tail.quote(max_chars)
    }

    /// Waits up to `wait` for the child to exit by itself; its status if it did. What it
    /// left in its process group is killed before it is reaped.
    pub(crate) fn wait_for_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        let until = crate::cmd_bot::later(Instant::now(), wait);
        while self.reaped.is_none() && !exited_unreaped(self.child.id()) {
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
        self.kill()
    }

    /// Kills the child and everything in its process group, and waits for it. Returns its exit
    /// status (its own if it had already exited).
    pub(crate) fn kill(&mut self) -> Option<ExitStatus> {
        self.input = None;
        if self.reaped.is_none() {
            // Not reaped yet, so the process group id cannot have been reused.
            kill_group(self.child.id());
            let _ = self.child.kill();
            self.reaped = self.child.wait().ok();
        }
        self.reaped
    }

    /// Ends the session politely: sends `last_line`, closes stdin, gives the child `grace` to
    /// exit, then kills it.
    pub(crate) fn close(&mut self, last_line: &str, grace: Duration) {
        if self.reaped.is_none() {
            self.send(format!("{last_line}\n"));
            self.input = None;
            if self.wait_for_exit(grace).is_none() {
                self.kill();
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

fn spawn_writer(mut stdin: ChildStdin) -> Sender<Vec<u8>> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    thread::spawn(move || {
        for bytes in rx {
            if stdin
                .write_all(&bytes)
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
        }
    });
    tx
}

fn spawn_reader(stdout: impl Read + Send + 'static) -> Receiver<(Instant, Output)> {
    let (tx, rx) = mpsc::sync_channel(READ_AHEAD_LINES);
    thread::spawn(move || {
        let mut reader = BufReader::with_capacity(MAX_LINE_BYTES, stdout);
        let mut lines = crate::lines::LineSplitter::new(MAX_LINE_BYTES);
        loop {
            let out = crate::lines::next_output(&mut reader, &mut lines);
            let closed = matches!(out, Output::Closed(_));
            if tx.send((Instant::now(), out)).is_err() || closed {
                break;
            }
        }
    });
    rx
}

fn spawn_stderr_drain(mut stderr: impl Read + Send + 'static) -> Stderr {
    let tail = Arc::new(StderrTail::new());
    let keep = Arc::clone(&tail);
    let (done_tx, done) = mpsc::channel();
    thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        loop {
            match stderr.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => keep.push(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = done_tx.send(());
    });
    Stderr { tail, done }
}
