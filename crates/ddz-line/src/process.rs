//! A child process spoken to in lines, where nothing the child does can block the caller.
//!
//! Three threads per child: one writes to its stdin (so a child that stops reading cannot block
//! the caller on a full pipe), one reads its stdout into a channel (so every read has a
//! timeout), and one drains its stderr into a small ring buffer (so a chatty child never blocks
//! on a full pipe and a crash report can quote its last words). The child runs in its own
//! process group, which is killed as a whole, and it is always waited for: no zombies.

use std::io::{self, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::{CmdSpec, StderrMode};

pub(crate) use crate::lines::{MAX_LINE_BYTES, Output, STDERR_TAIL_BYTES};

/// Lines read ahead of the caller; a child writing more waits (it cannot fill the caller's
/// memory with output nobody asked for).
const READ_AHEAD_LINES: usize = 256;

/// A running child.
pub(crate) struct Process {
    child: Child,
    reaped: Option<ExitStatus>,
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<(Instant, Output)>,
    stderr: Option<StderrTail>,
}

/// The last bytes of a child's stderr, and word from the drain thread once it reached the end.
struct StderrTail {
    tail: Arc<Mutex<Vec<u8>>>,
    done: Receiver<()>,
}

impl Process {
    /// Starts `spec` in `dir` (if given) with piped stdin and stdout.
    pub(crate) fn spawn(
        spec: &CmdSpec,
        dir: Option<&Path>,
        stderr: StderrMode,
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
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own process group, so that killing it also kills anything it started.
            cmd.process_group(0);
        }
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
        let buf = stderr.tail.lock().ok()?;
        let text = String::from_utf8_lossy(&buf);
        let text = text.trim_end();
        if text.is_empty() {
            return None;
        }
        let skip = text.chars().count().saturating_sub(max_chars);
        Some(text.chars().skip(skip).collect())
    }

    /// Waits up to `wait` for the child to exit by itself; its status if it did.
    pub(crate) fn wait_for_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        let until = crate::cmd_bot::later(Instant::now(), wait);
        loop {
            if let Some(status) = self.reaped {
                return Some(status);
            }
            match self.child.try_wait() {
                Ok(Some(status)) => self.reaped = Some(status),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(2)),
                Ok(None) | Err(_) => return None,
            }
        }
    }

    /// Kills the child and everything in its process group, and waits for it. Returns its exit
    /// status (its own if it had already exited).
    pub(crate) fn kill(&mut self) -> Option<ExitStatus> {
        self.input = None;
        if self.reaped.is_none() {
            // Not reaped yet, so the process group id cannot have been reused.
            #[cfg(unix)]
            if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
                // SAFETY: kill(2) takes plain integers and has no memory effects.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
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

fn spawn_stderr_drain(mut stderr: impl Read + Send + 'static) -> StderrTail {
    let tail = Arc::new(Mutex::new(Vec::with_capacity(STDERR_TAIL_BYTES)));
    let keep = Arc::clone(&tail);
    let (done_tx, done) = mpsc::channel();
    thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        loop {
            match stderr.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    let Ok(mut t) = keep.lock() else { break };
                    t.extend_from_slice(&chunk[..n]);
                    if t.len() > STDERR_TAIL_BYTES {
                        let cut = t.len() - STDERR_TAIL_BYTES;
                        t.drain(..cut);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        let _ = done_tx.send(());
    });
    StderrTail { tail, done }
}
