//! A child process spoken to in lines, where nothing the child does can block the caller.
//!
//! Three threads per child: one writes to its stdin (so a child that stops reading cannot block
//! the caller on a full pipe), one reads its stdout into a channel (so every read has a
//! timeout), and one drains its stderr into a small ring buffer (so a chatty child never blocks
//! on a full pipe and a crash report can quote its last words). The child runs in its own
//! process group, which is killed as a whole, and it is always waited for: no zombies.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::{CmdSpec, StderrMode};

/// The longest line read from a child, in bytes; longer lines are reported, not kept.
pub(crate) const MAX_LINE_BYTES: usize = 64 * 1024;

/// Lines read ahead of the caller; a child writing more waits (it cannot fill the caller's
/// memory with output nobody asked for).
const READ_AHEAD_LINES: usize = 256;

/// How much of the child's stderr is kept for crash reports, in bytes.
const STDERR_TAIL_BYTES: usize = 4096;

/// What the stdout reader saw.
#[derive(Debug)]
pub(crate) enum Output {
    /// A line, without its `\n` (a trailing `\r` is kept for the decoder to strip).
    Line(String),
    /// A line that is not UTF-8, shown with replacement characters.
    NotUtf8(String),
    /// A line longer than [`MAX_LINE_BYTES`]; its start, lossily decoded.
    TooLong(String),
    /// End of output, with the read error if that is what ended it.
    Closed(Option<String>),
}

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

/// Describes an exit status for a verdict: `exit code 3`, `killed by signal 11 (SIGSEGV)`.
pub(crate) fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGTERM => " (SIGTERM)",
                libc::SIGBUS => " (SIGBUS)",
                libc::SIGFPE => " (SIGFPE)",
                libc::SIGILL => " (SIGILL)",
                libc::SIGPIPE => " (SIGPIPE)",
                _ => "",
            };
            return format!("killed by signal {sig}{name}");
        }
    }
    status.to_string()
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
        let mut buf = Vec::new();
        loop {
            let out = match read_line_limited(&mut reader, &mut buf, MAX_LINE_BYTES) {
                Ok(Read1::Line) => match String::from_utf8(std::mem::take(&mut buf)) {
                    Ok(line) => Output::Line(line),
                    Err(e) => Output::NotUtf8(String::from_utf8_lossy(e.as_bytes()).into_owned()),
                },
                Ok(Read1::TooLong) => {
                    Output::TooLong(String::from_utf8_lossy(&std::mem::take(&mut buf)).into_owned())
                }
                Ok(Read1::Eof) => Output::Closed(None),
                Err(e) => Output::Closed(Some(e.to_string())),
            };
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

/// What [`read_line_limited`] read.
#[derive(Debug, PartialEq, Eq)]
enum Read1 {
    /// A line (or the last bytes before end of input), in the buffer without its `\n`.
    Line,
    /// A line longer than the limit; its first bytes are in the buffer, the rest was skipped.
    TooLong,
    /// End of input.
    Eof,
}

/// Reads one line into `buf` (cleared first), keeping at most `max` bytes of it.
fn read_line_limited(r: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<Read1> {
    buf.clear();
    let mut too_long = false;
    loop {
        let available = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(if too_long {
                Read1::TooLong
            } else if buf.is_empty() {
                Read1::Eof
            } else {
                Read1::Line
            });
        }
        let (part, used, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1, true),
            None => (available, available.len(), false),
        };
        let room = max.saturating_sub(buf.len());
        if part.len() > room {
            too_long = true;
        }
        buf.extend_from_slice(&part[..part.len().min(room)]);
        r.consume(used);
        if done {
            return Ok(if too_long {
                Read1::TooLong
            } else {
                Read1::Line
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<(Read1, String)> {
        let mut r = BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let what = read_line_limited(&mut r, &mut buf, max).unwrap();
            if what == Read1::Eof {
                return out;
            }
            out.push((what, String::from_utf8_lossy(&buf).into_owned()));
        }
    }

    #[test]
    fn reads_lines_and_cuts_overlong_ones() {
        assert_eq!(
            lines(b"bid 1\r\n\nplay 33\nlast", 100),
            [
                (Read1::Line, "bid 1\r".to_string()),
                (Read1::Line, String::new()),
                (Read1::Line, "play 33".to_string()),
                (Read1::Line, "last".to_string()),
            ]
        );
        assert_eq!(
            lines(b"0123456789abc\nok\n0123456789", 8),
            [
                (Read1::TooLong, "01234567".to_string()),
                (Read1::Line, "ok".to_string()),
                (Read1::TooLong, "01234567".to_string()),
            ]
        );
        assert_eq!(
            lines(b"12345678\n", 8),
            [(Read1::Line, "12345678".to_string())]
        );
    }
}
